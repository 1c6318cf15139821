/* json_stream.c: owns the streaming mapper of instance list pages and of
 * offer search answers.  yajl hands over the tokens one by one; each instance object's members are kept
 * as decoded scalars (strings in one arena per record) and only the nested
 * values (ports, extra_env, ...) are built as small jansson values, so no
 * tree of the page is ever made.  When an instance object closes it is
 * mapped by json_map_instance_rec(), the rules the jansson path uses, over
 * a record whose keys were resolved once per key name per page (the key
 * dispatch is an index, the secret check and the interning happen once per
 * name).  An offer keeps only its scalars: a nested value in an offer (or
 * beside the "offers" list) is read and checked but not built, only its
 * presence noted, for json_map_offer_rec() reads no container.  jansson's verdicts are kept on purpose: duplicate keys (the last
 * value wins, in the first one's place), UTF-8 checked strictly, no NUL in
 * a key, integers and reals that overflow refused, at most 2048 levels. */
#include "json/json_stream.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "json/json_map.h"
#include "json/json_map_rec.h"
#include "json/json_text.h"
#include "rules/secrets.h"
#include "base/util.h"

#define MAX_DEPTH 2048 /* jansson's JSON_PARSER_MAX_DEPTH: a value deeper fails */

/* What a container being read is to the mapper. */
enum role {
	R_ROOT_OBJ,  /* the page's object (the envelope, or a bare instance) */
	R_ROOT_ARR,  /* a bare array of instances */
	R_LIST,      /* the envelope's "instances" array */
	R_INST,      /* an instance object being collected */
	R_NEST,      /* a value nested in a collected member (built as jansson) */
	R_SKIP,      /* read and checked, not kept */
};

struct frame {
	enum role role;
	json_t *j;          /* R_NEST: the container being built */
	bool rec;           /* texts: j is a whole record (a list's array), the frame's own */
	char *key;          /* R_NEST object: the pending key (a copy) */
	size_t klen, kcap;
};

/* A key name met in this page: resolved once. */
struct kname {
	char *s;            /* as sent (validated: no NUL) */
	size_t len;
	uint64_t hash;
	const char *ikey;   /* interned name, NULL when not plain or the pool is full */
	bool secret;        /* the secret check's answer for an interned name */
	int ik;             /* enum json_map_ik, or -1 */
	/* texts: dropped (a secret key), masked (an env key), and `,\n    "name": `
	 * (a member's line at a record's depth; the first without the comma) */
	bool dsec, denv;
	bool succ;          /* "success" (at the top: apierr_decode's failure check) */
	char *kt;
	size_t ktlen;
};

/* The key names met so far, resolved once each: a page's, or (--dump
 * --json) every page's appended to one json_stream_texts, for a range's
 * pages repeat one layout. */
struct json_stream_keys {
	struct kname *names;
	size_t nnames, namescap;
	uint32_t *ht;              /* names by hash: index + 1, 0 empty */
	size_t htcap;
	uint32_t *last_kn, *perm;  /* the last record's names and their sorted order */
	size_t nlast, kncap;
	/* texts: every name in key order (while there are few enough) */
	uint32_t *sorted;
	size_t nsorted, sortcap;
	/* the name last met at each position of a record (records repeat
	 * one layout: the next record's key there is likely the same) */
	uint32_t *pred;
	size_t npred, predcap;
	bool unsorted;             /* too many names: each record sorted alone */
};

struct member {
	uint32_t kn;        /* the name (index into names) */
	bool txt;           /* texts: v is the value's text, already written */
	struct mval v;      /* MV_STR: s is set when the record closes */
	size_t soff;        /* MV_STR: offset of its bytes in the arena */
};

/* The members of one object, in the order their names first came. */
struct coll {
	struct member *m;
	size_t n, cap;
	char *arena;        /* the string values' bytes */
	size_t alen, acap;
	uint32_t *slot;     /* per name: member index, valid when stamp == epoch */
	uint32_t *stamp;
	size_t nslot;
	uint32_t epoch;
	int32_t ik[IK__COUNT]; /* member index of each known key, -1 */
};

struct js {
	bool offers;               /* an offer search answer, not an instance page */
	int list_ik;               /* the envelope's list key: IK_INSTANCES or IK_OFFERS */
	bool map;                  /* false: the shape only */
	struct instance **v;
	struct offer **ov;         /* offers: the output */
	size_t *n, n0;             /* *n when the call began */
	size_t vcap;               /* room in *v or *ov (grown by doubling: pages are long) */
	struct frame *fr;
	size_t nfr, frcap;
	struct json_stream_keys kc; /* the names (kept on out from page to page) */
	uint32_t pending;          /* the name of the member whose value comes next */
	size_t kpos;               /* keys met so far in the record being read */
	struct coll root, inst;
	enum { ROOT_NONE, ROOT_OBJ, ROOT_ARR, ROOT_SCALAR } root_kind;
	bool have_list;            /* the envelope has "instances" ("offers") */
	enum mv_type list_t;       /* the type of its (last) value; MV_JSON: array or object */
	bool list_arr;             /* that value is an array */
	/* texts (--dump --json): each record's text instead of its mapping */
	struct json_stream_texts *out;
	size_t tn0, tlen0;         /* out's records and text when the call began */
	long rec_id;               /* the record's integer id, when rec_has_id */
	bool rec_has_id;
	bool succ_failed;          /* the top-level "success" was false or the integer 0 */
	const char *numtok;        /* the number token being read */
	size_t numlen;
	bool real_lazy;            /* a real whose value (d) was not converted */
	char err[160];             /* why a callback stopped the parse */
	yajl_handle h;
	size_t end;                /* bytes up to the end of the root container */
};

/* ---- names ------------------------------------------------------------- */

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static void ht_put(struct js *p, uint32_t idx)
{
	size_t at = (size_t)p->kc.names[idx].hash & (p->kc.htcap - 1);
	while (p->kc.ht[at])
		at = (at + 1) & (p->kc.htcap - 1);
	p->kc.ht[at] = idx + 1;
}

/* Key order (jansson's JSON_SORT_KEYS: by bytes, a prefix first). */
static int kname_cmp(const struct kname *x, const struct kname *y)
{
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->s, y->s, n);
	return r ? r : (x->len > y->len) - (x->len < y->len);
}

#define SORTED_MAX 4096 /* names kept in key order; past it a record is sorted alone */

/* A new name into the names in key order. */
static void sorted_add(struct js *p, uint32_t idx)
{
	struct json_stream_keys *kc = &p->kc;
	if (kc->unsorted)
		return;
	if (kc->nsorted == SORTED_MAX) {
		kc->unsorted = true;
		free(kc->sorted);
		kc->sorted = NULL;
		kc->nsorted = kc->sortcap = 0;
		return;
	}
	if (kc->nsorted == kc->sortcap) {
		kc->sortcap = kc->sortcap ? kc->sortcap * 2 : 128;
		kc->sorted = xrealloc(kc->sorted, kc->sortcap * sizeof *kc->sorted);
	}
	const struct kname *k = &kc->names[idx];
	size_t lo = 0, hi = kc->nsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (kname_cmp(&kc->names[kc->sorted[mid]], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(kc->sorted + lo + 1, kc->sorted + lo, (kc->nsorted - lo) * sizeof *kc->sorted);
	kc->sorted[lo] = idx;
	kc->nsorted++;
}

/* The index of a key name, resolved on its first appearance. */
static uint32_t name_of(struct js *p, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	if (p->kc.htcap) {
		size_t at = (size_t)h & (p->kc.htcap - 1);
		for (uint32_t e; (e = p->kc.ht[at]); at = (at + 1) & (p->kc.htcap - 1)) {
			const struct kname *k = &p->kc.names[e - 1];
			if (k->hash == h && k->len == len && !memcmp(k->s, s, len))
				return e - 1;
		}
	}
	if (p->kc.nnames == p->kc.namescap) {
		p->kc.namescap = p->kc.namescap ? p->kc.namescap * 2 : 64;
		p->kc.names = xrealloc(p->kc.names, p->kc.namescap * sizeof *p->kc.names);
	}
	if (2 * (p->kc.nnames + 1) > p->kc.htcap) {
		free(p->kc.ht);
		p->kc.htcap = p->kc.htcap ? p->kc.htcap * 2 : 256;
		p->kc.ht = xcalloc(p->kc.htcap, sizeof *p->kc.ht);
		for (uint32_t i = 0; i < p->kc.nnames; i++)
			ht_put(p, i);
	}
	uint32_t idx = (uint32_t)p->kc.nnames++;
	struct kname *k = &p->kc.names[idx];
	k->s = xstrndup(s, len);
	k->len = len;
	k->hash = h;
	k->secret = false;
	/* the mapping's (srec_fields): texts have their own checks below */
	k->ikey = !p->out && json_map_plain_ascii(s, len)
			  ? intern_str(s, len, json_map_is_secret_key, &k->secret) : NULL;
	k->ik = -1;
	k->kt = NULL;
	k->dsec = k->denv = false;
	k->succ = len == 7 && !memcmp(s, "success", 7);
	if (p->out) {
		k->dsec = json_map_is_secret_key(k->s);
		k->denv = secrets_is_env_key(k->s);
		struct util_buf b = { NULL, 0, 0 };
		util_buf_put(&b, ",", 1);
		json_text_newline(&b, 2);
		json_text_string(&b, s, len);
		util_buf_put(&b, ": ", 2);
		k->kt = b.s;
		k->ktlen = b.len;
		sorted_add(p, idx);
	}
	for (int i = 0; i < IK__COUNT; i++)
		if (strlen(JSON_MAP_IK_NAMES[i]) == len && !memcmp(JSON_MAP_IK_NAMES[i], s, len)) {
			k->ik = i;
			break;
		}
	ht_put(p, idx);
	return idx;
}

/* ---- records ------------------------------------------------------------ */

static void mval_drop(struct mval *v)
{
	if (v->t == MV_JSON)
		json_decref((json_t *)v->j);
	v->t = MV_NONE;
}

/* Forget the members (a new record begins). */
static void coll_reset(struct coll *c)
{
	for (size_t i = 0; i < c->n; i++)
		mval_drop(&c->m[i].v);
	c->n = 0;
	c->alen = 0;
	if (++c->epoch == 0) { /* wrapped: no stamp may look current */
		memset(c->stamp, 0, c->nslot * sizeof *c->stamp);
		c->epoch = 1;
	}
	for (int i = 0; i < IK__COUNT; i++)
		c->ik[i] = -1;
}

static void coll_free(struct coll *c)
{
	coll_reset(c);
	free(c->m);
	free(c->arena);
	free(c->slot);
	free(c->stamp);
}

/* Set the member named kn (v taken over): a repeated name replaces the
 * value in its first place, as jansson does. */
static struct member *coll_slot(struct js *p, struct coll *c, uint32_t kn)
{
	if (kn >= c->nslot) {
		size_t ns = p->kc.namescap > kn ? p->kc.namescap : (size_t)kn + 1;
		c->slot = xrealloc(c->slot, ns * sizeof *c->slot);
		c->stamp = xrealloc(c->stamp, ns * sizeof *c->stamp);
		memset(c->stamp + c->nslot, 0, (ns - c->nslot) * sizeof *c->stamp);
		c->nslot = ns;
	}
	struct member *m;
	if (c->stamp[kn] == c->epoch) {
		m = &c->m[c->slot[kn]];
		mval_drop(&m->v);
	} else {
		if (c->n == c->cap) {
			c->cap = c->cap ? c->cap * 2 : 64;
			c->m = xrealloc(c->m, c->cap * sizeof *c->m);
		}
		c->stamp[kn] = c->epoch;
		c->slot[kn] = (uint32_t)c->n;
		m = &c->m[c->n++];
		m->kn = kn;
		if (p->kc.names[kn].ik >= 0)
			c->ik[p->kc.names[kn].ik] = (int32_t)c->slot[kn];
	}
	return m;
}

static struct member *coll_set(struct js *p, struct coll *c, uint32_t kn, struct mval v)
{
	struct member *m = coll_slot(p, c, kn);
	if (v.t == MV_STR) {
		if (c->alen + v.len > c->acap) {
			size_t cap = c->acap ? c->acap : 4096;
			while (cap < c->alen + v.len)
				cap *= 2;
			c->arena = xrealloc(c->arena, cap);
			c->acap = cap;
		}
		if (v.len)
			memcpy(c->arena + c->alen, v.s, v.len);
		m->soff = c->alen;
		c->alen += v.len;
		v.s = NULL;
	}
	m->v = v;
	m->txt = false;
	return m;
}

/* The string values point into the arena (it no longer moves). */
static void coll_close(struct coll *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->m[i].v.t == MV_STR)
			c->m[i].v.s = c->arena ? c->arena + c->m[i].soff : "";
}

struct srec {
	const struct js *p;
	const struct coll *c;
};

static struct mval srec_get(const struct json_map_rec *r, enum json_map_ik k)
{
	const struct srec *s = r->ctx;
	int32_t i = s->c->ik[k];
	return i < 0 ? (struct mval){ .t = MV_NONE } : s->c->m[i].v;
}

static struct kv *srec_fields(const struct json_map_rec *r, size_t *n)
{
	const struct srec *s = r->ctx;
	*n = 0;
	if (!s->c->n)
		return NULL;
	struct json_map_fb fb;
	json_map_fb_init(&fb, s->c->n);
	for (size_t i = 0; i < s->c->n; i++) {
		const struct member *m = &s->c->m[i];
		const struct kname *k = &s->p->kc.names[m->kn];
		json_map_fb_add(&fb, k->s, k->len, k->ikey, k->secret, &m->v);
	}
	return json_map_fb_end(&fb, n);
}

/* Make room for one more record on the output (of size sz). */
static void *out_room(struct js *p, void **v, size_t sz)
{
	if (*p->n >= p->vcap) {
		p->vcap = p->vcap < 16 ? 16 : p->vcap * 2;
		if (p->vcap <= *p->n)
			p->vcap = *p->n + 16;
		*v = xrealloc(*v, p->vcap * sz);
	}
	return (char *)*v + *p->n * sz;
}

/* A collected object closed: map it as an instance (an offer) onto the output. */
static bool emit(struct js *p, struct coll *c)
{
	coll_close(c);
	struct srec s = { p, c };
	struct json_map_rec r = { srec_get, srec_fields, &s };
	if (p->offers) {
		void *v = *p->ov;
		struct offer *f = out_room(p, &v, sizeof **p->ov);
		*p->ov = v;
		bool ok = json_map_offer_rec(&r, f);
		if (ok)
			(*p->n)++;
		coll_reset(c);
		return ok;
	}
	if (*p->n >= p->vcap) {
		p->vcap = p->vcap < 16 ? 16 : p->vcap * 2;
		if (p->vcap <= *p->n)
			p->vcap = *p->n + 16;
		*p->v = xrealloc(*p->v, p->vcap * sizeof **p->v);
	}
	struct instance *x = &(*p->v)[*p->n];
	bool ok = json_map_instance_rec(&r, x);
	if (ok)
		(*p->n)++;
	else
		instance_clear(x);
	coll_reset(c);
	return ok;
}

/* Drop what this call appended (a later "instances" replaces the earlier). */
static void truncate_out(struct js *p)
{
	if (p->offers) {
		for (size_t i = p->n0; i < *p->n; i++)
			json_map_offer_clear(&(*p->ov)[i]);
		*p->n = p->n0;
		return;
	}
	if (p->out) {
		p->out->n = p->tn0;
		p->out->text.len = p->tlen0;
		if (p->out->text.s)
			p->out->text.s[p->tlen0] = '\0';
	}
	if (!p->v)
		return;
	for (size_t i = p->n0; i < *p->n; i++)
		instance_clear(&(*p->v)[i]);
	*p->n = p->n0;
}

/* ---- texts (--dump --json) ---------------------------------------------- */

static void keys_free(struct json_stream_keys *k)
{
	for (size_t i = 0; i < k->nnames; i++) {
		free(k->names[i].s);
		free(k->names[i].kt);
	}
	free(k->names);
	free(k->ht);
	free(k->last_kn);
	free(k->perm);
	free(k->sorted);
	free(k->pred);
}

void json_stream_texts_free(struct json_stream_texts *t)
{
	if (t->keys)
		keys_free(t->keys);
	free(t->keys);
	free(t->text.s);
	free(t->r);
	memset(t, 0, sizeof *t);
}

/* A record begins on the output: after the last record comes ",\n  "
 * (json_stream.h); its text's offset. */
static size_t rec_begin(struct json_stream_texts *o)
{
	if (o->n)
		util_buf_put(&o->text, ",\n  ", 4);
	return o->text.len;
}

/* A record's text begins at `off` of the output and ends at its end now. */
static void rec_add(struct js *p, size_t off, bool has_id, long id)
{
	struct json_stream_texts *o = p->out;
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 32;
		o->r = xrealloc(o->r, o->cap * sizeof *o->r);
	}
	o->r[o->n++] = (struct json_stream_rec){ id, has_id, off, o->text.len - off };
}

/* A scalar's text into b (a number from its token). */
static void scalar_text(struct js *p, struct util_buf *b, const struct mval *v)
{
	switch (v->t) {
	case MV_NULL: case MV_NONE: util_buf_put(b, "null", 4); break;
	case MV_TRUE: util_buf_put(b, "true", 4); break;
	case MV_FALSE: util_buf_put(b, "false", 5); break;
	case MV_INT: json_text_int(b, v->i); break;
	case MV_REAL:
		if (p->real_lazy) {
			if (!json_text_real_tok_only(b, p->numtok, p->numlen)) {
				char t[320];
				memcpy(t, p->numtok, p->numlen);
				t[p->numlen] = '\0';
				json_text_real(b, strtod(t, NULL));
			}
		} else if (p->numtok)
			json_text_real_tok(b, p->numtok, p->numlen, v->d);
		else
			json_text_real(b, v->d);
		break;
	case MV_STR: json_text_string(b, v->s, v->len); break;
	case MV_JSON: json_text_value(b, v->j, 0); break;
	}
}

/* A member of the record being read arrived: its text is written at once
 * unless it needs the whole value (env values are masked as one). */
static void texts_member(struct js *p, struct mval v)
{
	const struct kname *k = &p->kc.names[p->pending];
	if (k->ik == IK_ID) { /* the last one wins, as in the tree */
		p->rec_has_id = v.t == MV_INT;
		p->rec_id = (long)v.i;
	}
	if (k->dsec)
		return;
	if (k->denv) {
		coll_set(p, &p->inst, p->pending, v);
		return;
	}
	/* the value's text straight onto the record's arena */
	struct coll *c = &p->inst;
	struct util_buf ab = { c->arena, c->alen, c->acap };
	scalar_text(p, &ab, &v);
	c->arena = ab.s;
	c->acap = ab.cap;
	struct member *m = coll_slot(p, c, p->pending);
	m->v = (struct mval){ .t = MV_STR, .len = ab.len - c->alen };
	m->soff = c->alen;
	m->txt = true;
	c->alen = ab.len;
}

static _Thread_local const struct js *tl_sort; /* kn_cmp's page (qsort has no context) */

static int kn_cmp(const void *a, const void *b)
{
	return kname_cmp(&tl_sort->kc.names[*(const uint32_t *)a],
			 &tl_sort->kc.names[*(const uint32_t *)b]);
}

/* The record's member indexes in key order (jansson's JSON_SORT_KEYS):
 * the last record's order again when it had the same names in the same
 * order (pages repeat one layout). */
static const uint32_t *sorted_members(struct js *p, const struct coll *c)
{
	if (c->n > p->kc.kncap) {
		p->kc.kncap = c->n;
		p->kc.last_kn = xrealloc(p->kc.last_kn, p->kc.kncap * sizeof *p->kc.last_kn);
		p->kc.perm = xrealloc(p->kc.perm, p->kc.kncap * sizeof *p->kc.perm);
	}
	if (!p->kc.unsorted && p->kc.nsorted <= 8 * c->n + 64) {
		/* the names in key order, those the record has: no sort */
		size_t j = 0;
		for (size_t i = 0; i < p->kc.nsorted; i++) {
			uint32_t kn = p->kc.sorted[i];
			if (kn < c->nslot && c->stamp[kn] == c->epoch)
				p->kc.perm[j++] = c->slot[kn];
		}
		p->kc.nlast = 0; /* the sort's cache below is not this order's */
		return p->kc.perm;
	}
	bool same = c->n == p->kc.nlast;
	for (size_t i = 0; same && i < c->n; i++)
		same = c->m[i].kn == p->kc.last_kn[i];
	if (same)
		return p->kc.perm;
	for (size_t i = 0; i < c->n; i++)
		p->kc.last_kn[i] = p->kc.perm[i] = c->m[i].kn;
	p->kc.nlast = c->n;
	tl_sort = p;
	qsort(p->kc.perm, c->n, sizeof *p->kc.perm, kn_cmp);
	/* names to member indexes */
	for (size_t i = 0; i < c->n; i++)
		p->kc.perm[i] = c->slot[p->kc.perm[i]];
	return p->kc.perm;
}

/* util_buf_put without the terminating NUL when there is room (the caller
 * ends the text). */
static inline void put(struct util_buf *o, const char *s, size_t n)
{
	if (o->len + n < o->cap) {
		memcpy(o->s + o->len, s, n);
		o->len += n;
	} else {
		util_buf_put(o, s, n);
	}
}

/* An instance object closed: its text, at the depth of a list's entry. */
static void texts_inst(struct js *p)
{
	struct coll *c = &p->inst;
	struct util_buf *o = &p->out->text;
	size_t off = rec_begin(p->out);
	coll_close(c);
	if (!c->n) {
		util_buf_put(o, "{}", 2);
	} else {
		const uint32_t *ord = sorted_members(p, c);
		/* room for the whole record when its members are texts */
		size_t need = 5;
		for (size_t i = 0; i < c->n; i++) {
			const struct member *m = &c->m[i];
			need += p->kc.names[m->kn].ktlen + (m->txt ? m->v.len : 0);
		}
		util_buf_reserve(o, need);
		put(o, "{", 1);
		for (size_t i = 0; i < c->n; i++) {
			const struct member *m = &c->m[ord[i]];
			const struct kname *k = &p->kc.names[m->kn];
			put(o, k->kt + (i == 0), k->ktlen - (i == 0));
			if (m->txt) {
				put(o, m->v.s, m->v.len);
			} else if (k->denv) {
				json_t *jv = json_map_mval_json(&m->v);
				json_t *mk = secrets_masked(k->s, jv);
				json_text_value(o, mk, 2);
				json_decref(mk);
				json_decref(jv);
			} else if (m->v.t == MV_JSON) {
				json_map_strip_secrets((json_t *)m->v.j);
				json_text_value(o, m->v.j, 2);
			} else {
				scalar_text(p, o, &m->v);
			}
		}
		put(o, "\n  }", 4);
		o->s[o->len] = '\0';
	}
	rec_add(p, off, p->rec_has_id, p->rec_id);
	coll_reset(c);
}

/* A whole record from a tree (a list's array or scalar, or the jansson
 * path's entries): secrets removed, its text. */
static void texts_tree(struct json_stream_texts *out, json_t *v, struct js *p)
{
	size_t off = rec_begin(out);
	json_map_strip_secrets(v);
	json_text_value(&out->text, v, 1);
	const json_t *id = json_is_object(v) ? json_object_get(v, "id") : NULL;
	if (p) {
		rec_add(p, off, json_is_integer(id), json_is_integer(id) ? (long)json_integer_value(id) : 0);
		return;
	}
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 32;
		out->r = xrealloc(out->r, out->cap * sizeof *out->r);
	}
	out->r[out->n++] = (struct json_stream_rec){
		json_is_integer(id) ? (long)json_integer_value(id) : 0, json_is_integer(id), off,
		out->text.len - off };
}

/* ---- checks jansson makes ------------------------------------------------ */

/* Strict UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF),
 * as jansson checks every string. */
static bool utf8_ok(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t n;
		uint32_t cp;
		if (c >= 0xC2 && c <= 0xDF) {
			n = 2;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 3;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 4;
			cp = c & 0x07;
		} else {
			return false;
		}
		if (i + n > len)
			return false;
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += n;
	}
	return true;
}

static bool str_ok(struct js *p, const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] >= 0x80) {
			if (utf8_ok(s + i, len - i))
				return true;
			snprintf(p->err, sizeof p->err, "invalid UTF-8 in a string");
			return false;
		}
	return true;
}

/* May yajl read this text as jansson does?  Not when a \u escape holds a
 * surrogate that is not part of a pair (yajl writes '?' or garbage where
 * jansson refuses the text).  Errs on the safe side: an escaped backslash
 * before "u" only sends the page to jansson. */
static bool escapes_safe(const char *s, size_t len)
{
	const char *end = s + len;
	for (const char *q = memchr(s, '\\', len); q; q = memchr(q, '\\', (size_t)(end - q))) {
		if (end - q < 2)
			return true;
		if (q[1] != 'u') {
			q += 2;
			if (q >= end)
				return true;
			continue;
		}
		if (end - q >= 6 && (q[2] == 'd' || q[2] == 'D')) {
			char h = q[3];
			bool high = strchr("89abAB", h) && h;
			bool low = strchr("cdefCDEF", h) && h;
			if (low)
				return false;
			if (high) {
				if (end - q < 12 || q[6] != '\\' || q[7] != 'u' ||
				    (q[8] != 'd' && q[8] != 'D') || !q[9] || !strchr("cdefCDEF", q[9]))
					return false;
				q += 12;
				if (q >= end)
					return true;
				continue;
			}
		}
		q += 2;
		if (q >= end)
			return true;
	}
	return true;
}

/* ---- the token callbacks -------------------------------------------------- */

static struct frame *top(struct js *p)
{
	return p->nfr ? &p->fr[p->nfr - 1] : NULL;
}

/* A value begins at depth nfr + 1: jansson's limit. */
static bool depth_ok(struct js *p)
{
	if (p->nfr + 1 <= MAX_DEPTH)
		return true;
	snprintf(p->err, sizeof p->err, "maximum parsing depth reached");
	return false;
}

/* The envelope's "instances" member got a value of type t. */
static void list_value(struct js *p, enum mv_type t)
{
	truncate_out(p);
	p->have_list = true;
	p->list_t = t;
	p->list_arr = false;
}

/* Add a nested value (taken over) to the R_NEST container f. */
static bool nest_add(struct js *p, struct frame *f, json_t *j)
{
	int rc = json_is_object(f->j) ? json_object_setn_new_nocheck(f->j, f->key, f->klen, j)
				      : json_array_append_new(f->j, j);
	if (rc) {
		snprintf(p->err, sizeof p->err, "out of memory");
		return false;
	}
	return true;
}

/* A scalar value arrived. */
static int on_scalar(struct js *p, struct mval v)
{
	if (!depth_ok(p))
		return 0;
	struct frame *f = top(p);
	if (!f) {
		p->root_kind = ROOT_SCALAR;
		return 1;
	}
	switch (f->role) {
	case R_ROOT_OBJ:
		if (p->kc.names[p->pending].succ) /* the last one counts, as in apierr_decode */
			p->succ_failed = v.t == MV_FALSE || (v.t == MV_INT && v.i == 0);
		if (p->kc.names[p->pending].ik == p->list_ik)
			list_value(p, v.t);
		else if (!p->offers) /* an offer answer reads nothing else of the envelope */
			coll_set(p, &p->root, p->pending, v);
		break;
	case R_INST:
		if (p->out)
			texts_member(p, v);
		else
			coll_set(p, &p->inst, p->pending, v);
		break;
	case R_NEST:
		return nest_add(p, f, json_map_mval_json(&v));
	case R_ROOT_ARR: case R_LIST:
		if (p->out) { /* a scalar entry is a record of its own */
			size_t off = rec_begin(p->out);
			scalar_text(p, &p->out->text, &v);
			rec_add(p, off, false, 0);
		}
		break; /* the mapping skips a list's non-object entries */
	case R_SKIP:
		break;
	}
	return 1;
}

static int cb_null(void *ctx)
{
	return on_scalar(ctx, (struct mval){ .t = MV_NULL });
}

static int cb_boolean(void *ctx, int b)
{
	return on_scalar(ctx, (struct mval){ .t = b ? MV_TRUE : MV_FALSE });
}

/* A number as jansson reads it: an integer unless it has a fraction or an
 * exponent; one that overflows refuses the text. */
static int cb_number(void *ctx, const char *s, size_t len)
{
	struct js *p = ctx;
	bool frac = false, exp = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			frac = true;
		else if (s[i] == 'e' || s[i] == 'E')
			exp = true;
	}
	struct mval v = { .t = MV_INT };
	const struct frame *f = top(p);
	if (!frac && !exp && len <= 18) {
		/* at most 18 digits: no overflow, no conversion call (yajl
		 * passes only -?digits here) */
		bool neg = s[0] == '-';
		long long x = 0;
		for (size_t i = neg; i < len; i++)
			x = x * 10 + (s[i] - '0');
		v.i = neg ? -x : x;
	} else if (!exp && frac && len <= 300 && p->out && f && f->role == R_INST &&
		   !p->kc.names[p->pending].dsec && !p->kc.names[p->pending].denv) {
		/* a member's real written from its token (texts_member): no
		 * exponent and at most 300 digits cannot overflow, and the
		 * value is converted only if the text needs it */
		v.t = MV_REAL;
		p->real_lazy = true;
	} else {
		char buf[128];
		char *heap = NULL, *t = buf;
		if (len >= sizeof buf)
			t = heap = xmalloc(len + 1);
		memcpy(t, s, len);
		t[len] = '\0';
		errno = 0;
		if (exp || frac) {
			v.t = MV_REAL;
			v.d = strtod(t, NULL);
			if ((v.d == HUGE_VAL || v.d == -HUGE_VAL) && errno == ERANGE) {
				snprintf(p->err, sizeof p->err, "real number overflow");
				free(heap);
				return 0;
			}
		} else {
			v.i = strtoll(t, NULL, 10);
			if (errno == ERANGE) {
				snprintf(p->err, sizeof p->err, "too big integer");
				free(heap);
				return 0;
			}
		}
		free(heap);
	}
	p->numtok = s;
	p->numlen = len;
	int r = on_scalar(p, v);
	p->numtok = NULL;
	p->real_lazy = false;
	return r;
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct js *p = ctx;
	if (!str_ok(p, s, len))
		return 0;
	return on_scalar(p, (struct mval){ .t = MV_STR, .s = (const char *)s, .len = len });
}

static void push(struct js *p, enum role role, json_t *j)
{
	if (p->nfr == p->frcap) {
		size_t cap = p->frcap ? p->frcap * 2 : 16;
		p->fr = xrealloc(p->fr, cap * sizeof *p->fr);
		memset(p->fr + p->frcap, 0, (cap - p->frcap) * sizeof *p->fr);
		p->frcap = cap;
	}
	struct frame *f = &p->fr[p->nfr++];
	f->role = role;
	f->j = j;
	f->rec = false;
	f->klen = 0;
}

/* A record object begins (mapped, or written as text). */
static void push_inst(struct js *p)
{
	coll_reset(&p->inst);
	p->rec_has_id = false;
	p->rec_id = 0;
	p->kpos = 0;
	push(p, R_INST, NULL);
}

/* An object or an array begins. */
static int on_open(struct js *p, bool obj)
{
	if (!depth_ok(p))
		return 0;
	struct frame *f = top(p);
	if (!f) {
		p->root_kind = obj ? ROOT_OBJ : ROOT_ARR;
		push(p, obj ? R_ROOT_OBJ : R_ROOT_ARR, NULL);
		return 1;
	}
	json_t *j;
	switch (f->role) {
	case R_ROOT_OBJ:
		if (p->kc.names[p->pending].succ)
			p->succ_failed = false;
		if (p->kc.names[p->pending].ik == p->list_ik) {
			list_value(p, MV_JSON);
			p->list_arr = !obj;
			if (!obj)
				push(p, R_LIST, NULL);
			else if ((p->map && !p->offers) || p->out) {
				push_inst(p);
			} else {
				push(p, R_SKIP, NULL);
			}
			return 1;
		}
		if (p->offers) {
			push(p, R_SKIP, NULL);
			return 1;
		}
		j = obj ? json_object() : json_array();
		coll_set(p, &p->root, p->pending, (struct mval){ .t = MV_JSON, .j = j });
		push(p, R_NEST, j);
		return 1;
	case R_ROOT_ARR:
	case R_LIST:
		if (obj && (p->map || p->out)) {
			push_inst(p);
		} else if (p->out) { /* an array entry: a record built as a tree */
			push(p, R_NEST, json_array());
			p->fr[p->nfr - 1].rec = true;
		} else {
			push(p, R_SKIP, NULL);
		}
		return 1;
	case R_INST:
		if (p->offers) { /* there, not built: an offer reads no container */
			coll_set(p, &p->inst, p->pending, (struct mval){ .t = MV_JSON, .j = NULL });
			push(p, R_SKIP, NULL);
			return 1;
		}
		if (p->out && p->kc.names[p->pending].dsec) { /* dropped: not kept */
			push(p, R_SKIP, NULL);
			return 1;
		}
		if (p->out && p->kc.names[p->pending].ik == IK_ID)
			p->rec_has_id = false; /* an id that is not an integer */
		j = obj ? json_object() : json_array();
		coll_set(p, &p->inst, p->pending, (struct mval){ .t = MV_JSON, .j = j });
		push(p, R_NEST, j);
		return 1;
	case R_NEST:
		j = obj ? json_object() : json_array();
		if (!nest_add(p, f, j))
			return 0;
		push(p, R_NEST, j);
		return 1;
	case R_SKIP:
		push(p, R_SKIP, NULL);
		return 1;
	}
	return 1;
}

static int cb_start_map(void *ctx)
{
	return on_open(ctx, true);
}

static int cb_start_array(void *ctx)
{
	return on_open(ctx, false);
}

#define PRED_MAX 4096 /* record positions whose names are remembered */

static int cb_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct js *p = ctx;
	struct frame *f = top(p);
	if (f && f->role == R_INST && p->kpos < p->kc.npred) {
		/* the name the last record had here: checked when it was met */
		uint32_t kn = p->kc.pred[p->kpos];
		const struct kname *k = &p->kc.names[kn];
		if (k->len == len && !memcmp(k->s, s, len)) {
			p->pending = kn;
			p->kpos++;
			return 1;
		}
	}
	if (memchr(s, '\0', len)) {
		snprintf(p->err, sizeof p->err, "NUL byte in object key not supported");
		return 0;
	}
	if (!str_ok(p, s, len))
		return 0;
	if (!f) /* yajl sends keys inside objects only */
		return 0;
	switch (f->role) {
	case R_ROOT_OBJ:
		p->pending = name_of(p, (const char *)s, len);
		break;
	case R_INST:
		p->pending = name_of(p, (const char *)s, len);
		if (p->kpos < PRED_MAX) {
			if (p->kpos >= p->kc.predcap) {
				p->kc.predcap = p->kc.predcap ? p->kc.predcap * 2 : 128;
				p->kc.pred = xrealloc(p->kc.pred, p->kc.predcap * sizeof *p->kc.pred);
			}
			if (p->kpos >= p->kc.npred)
				p->kc.npred = p->kpos + 1;
			p->kc.pred[p->kpos] = p->pending;
		}
		p->kpos++;
		break;
	case R_NEST:
		if (len + 1 > f->kcap) {
			f->kcap = len + 1 > 64 ? len + 1 : 64;
			f->key = xrealloc(f->key, f->kcap);
		}
		memcpy(f->key, s, len);
		f->key[len] = '\0';
		f->klen = len;
		break;
	case R_ROOT_ARR: case R_LIST: case R_SKIP:
		break;
	}
	return 1;
}

/* An object or an array ends. */
static int cb_close(void *ctx)
{
	struct js *p = ctx;
	struct frame *f = top(p);
	if (!f)
		return 0;
	if (f->role == R_INST) {
		if (p->out)
			texts_inst(p);
		else
			emit(p, &p->inst);
	} else if (f->rec) {
		texts_tree(p->out, f->j, p);
		json_decref(f->j);
		f->j = NULL;
		f->rec = false;
	}
	if (--p->nfr == 0) /* yajl lets a partial token after the root pass: see the caller */
		p->end = yajl_get_bytes_consumed(p->h);
	return 1;
}

static const yajl_callbacks CALLBACKS = {
	cb_null, cb_boolean, NULL, NULL, cb_number, cb_string,
	cb_start_map, cb_map_key, cb_close, cb_start_array, cb_close,
};

/* ---- the page ------------------------------------------------------------ */

/* The jansson path, for the texts yajl would read differently. */
static enum json_stream_rc by_jansson(const char *text, size_t len, struct instance **v,
				      size_t *n, struct json_stream_texts *out, char **next_token,
				      long *total, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (!root) {
		snprintf(err, errlen, "%s", je.text);
		return JSTREAM_BAD_JSON;
	}
	const json_t *t = json_is_object(root) ? json_object_get(root, "total_instances") : NULL;
	*total = json_is_integer(t) ? (long)json_integer_value(t) : -1;
	bool ok;
	if (v) {
		ok = json_map_instances(root, v, n, next_token);
	} else if (json_is_object(root) && !json_object_get(root, "instances")) {
		ok = json_object_get(root, "id") != NULL; /* the shape check's rule */
	} else {
		struct instance *tmp = NULL;
		size_t tn = 0;
		ok = json_map_instances(root, &tmp, &tn, next_token);
		instance_free_all(tmp, tn);
	}
	if (ok && out) { /* the records as the tree path appends them */
		json_t *list = json_is_array(root) ? root : json_object_get(root, "instances");
		size_t i;
		json_t *x;
		if (json_is_array(list))
			json_array_foreach(list, i, x) texts_tree(out, x, NULL);
		else if (json_is_object(list))
			texts_tree(out, list, NULL);
	}
	json_decref(root);
	return ok ? JSTREAM_OK : JSTREAM_BAD_SHAPE;
}

/* The envelope's verdict once the text is read (json_map_instances). */
static enum json_stream_rc finish(struct js *p, char **next_token, long *total)
{
	struct coll *c = &p->root;
	if (p->root_kind == ROOT_ARR)
		return JSTREAM_OK;
	if (p->root_kind != ROOT_OBJ)
		return JSTREAM_BAD_SHAPE;
	coll_close(c);
	int32_t ti = c->ik[IK_TOTAL_INSTANCES];
	*total = ti >= 0 && c->m[ti].v.t == MV_INT ? (long)c->m[ti].v.i : -1;
	if (!p->have_list) {
		if (c->ik[IK_ID] < 0)
			return JSTREAM_BAD_SHAPE;
		if (!p->map) /* the shape check asks only that an id is there */
			return JSTREAM_OK;
		return emit(p, c) ? JSTREAM_OK : JSTREAM_BAD_SHAPE;
	}
	if (p->list_t != MV_JSON && p->list_t != MV_NULL)
		return JSTREAM_BAD_SHAPE;
	int32_t k = c->ik[IK_NEXT_TOKEN];
	const struct mval *tok = k >= 0 ? &c->m[k].v : NULL;
	if (tok && tok->t == MV_STR && tok->len > 0)
		*next_token = xstrndup(tok->s, tok->len);
	else if (tok && tok->t == MV_INT)
		*next_token = xasprintf("%lld", tok->i);
	return JSTREAM_OK;
}

/* May yajl read the text as jansson does?  yajl takes \v and \f for
 * blanks, and jansson lets a raw NUL after a number pass: no JSON text
 * holds these bytes raw, jansson judges them (and unpaired surrogates). */
static bool yajl_fit(const char *text, size_t len)
{
	return escapes_safe(text, len) && !memchr(text, '\v', len) && !memchr(text, '\f', len) &&
	       !memchr(text, '\0', len);
}

/* Read the text through yajl into p (set up by the caller).  JSTREAM_OK
 * with *redo: read, but jansson must judge it; on JSTREAM_BAD_JSON err
 * has the reason.  What was appended stays (the caller truncates). */
static enum json_stream_rc parse(struct js *p, const char *text, size_t len, char *err,
				 size_t errlen, bool *redo)
{
	coll_reset(&p->root);
	coll_reset(&p->inst);
	*redo = false;
	yajl_handle h = yajl_alloc(&CALLBACKS, NULL, p);
	p->h = h;
	enum json_stream_rc rc = JSTREAM_OK;
	if (!h) {
		snprintf(err, errlen, "out of memory");
		rc = JSTREAM_BAD_JSON;
	} else if (yajl_parse(h, (const unsigned char *)text, len) != yajl_status_ok ||
		   yajl_complete_parse(h) != yajl_status_ok) {
		if (p->err[0]) {
			snprintf(err, errlen, "%s", p->err);
		} else {
			unsigned char *m = yajl_get_error(h, 0, (const unsigned char *)text, len);
			snprintf(err, errlen, "%s", m ? (const char *)m : "malformed JSON");
			if (m)
				yajl_free_error(h, m);
		}
		rc = JSTREAM_BAD_JSON;
	}
	if (h)
		yajl_free(h);
	/* only blanks may follow the root (yajl passes `[]"`, and a root
	 * scalar's end is not told: jansson judges those) */
	if (rc == JSTREAM_OK && p->root_kind == ROOT_SCALAR)
		*redo = true;
	for (size_t i = p->end; rc == JSTREAM_OK && !*redo && i < len; i++)
		if (!strchr(" \t\n\r", text[i]) || !text[i])
			*redo = true;
	return rc;
}

/* What the parse kept (not the output). */
static void js_free(struct js *p)
{
	for (size_t i = 0; i < p->nfr; i++)
		if (p->fr[i].rec) /* a record tree left open by an error */
			json_decref(p->fr[i].j);
	for (size_t i = 0; i < p->frcap; i++)
		free(p->fr[i].key);
	free(p->fr);
	coll_free(&p->root);
	coll_free(&p->inst);
	if (p->out) { /* for the next page */
		if (!p->out->keys)
			p->out->keys = xmalloc(sizeof *p->out->keys);
		*p->out->keys = p->kc;
	} else {
		keys_free(&p->kc);
	}
}

static enum json_stream_rc parse_page(const char *text, size_t len, struct instance **v,
				      size_t *n, struct json_stream_texts *out, char **next_token,
				      long *total, bool *surely_ok, char *err, size_t errlen)
{
	*next_token = NULL;
	*total = -1;
	if (surely_ok)
		*surely_ok = false;
	if (errlen)
		err[0] = '\0';
	if (!yajl_fit(text, len))
		return by_jansson(text, len, v, n, out, next_token, total, err, errlen);
	struct instance *scratch = NULL;
	size_t scratch_n = 0;
	struct js p = { .map = v != NULL, .out = out, .list_ik = IK_INSTANCES };
	if (out) {
		p.tn0 = out->n;
		p.tlen0 = out->text.len;
		if (out->keys)
			p.kc = *out->keys;
	}
	p.v = v ? v : &scratch;
	p.n = v ? n : &scratch_n;
	p.n0 = *p.n;
	bool redo;
	enum json_stream_rc rc = parse(&p, text, len, err, errlen, &redo);
	if (rc == JSTREAM_OK && !redo)
		rc = finish(&p, next_token, total);
	if (rc != JSTREAM_OK || redo) {
		truncate_out(&p);
		*total = -1;
	} else if (surely_ok) {
		*surely_ok = !p.succ_failed;
	}
	js_free(&p);
	instance_free_all(scratch, scratch_n);
	if (redo)
		return by_jansson(text, len, v, n, out, next_token, total, err, errlen);
	return rc;
}

enum json_stream_rc json_stream_instances(const char *text, size_t len, struct instance **v,
					  size_t *n, char **next_token, long *total, char *err,
					  size_t errlen)
{
	return parse_page(text, len, v, n, NULL, next_token, total, NULL, err, errlen);
}

enum json_stream_rc json_stream_instance_texts(const char *text, size_t len,
					       struct json_stream_texts *out, char **next_token,
					       long *total, char *err, size_t errlen)
{
	return parse_page(text, len, NULL, NULL, out, next_token, total, NULL, err, errlen);
}

enum json_stream_rc json_stream_answer_texts(const char *text, size_t len,
					     struct json_stream_texts *out, char **next_token,
					     long *total, bool *surely_ok, char *err, size_t errlen)
{
	return parse_page(text, len, NULL, NULL, out, next_token, total, surely_ok, err, errlen);
}

void json_stream_texts_truncate(struct json_stream_texts *t, size_t n, size_t len)
{
	if (n < t->n)
		t->n = n;
	if (len < t->text.len) {
		t->text.len = len;
		t->text.s[len] = '\0';
	}
}

/* The jansson path of an offer answer. */
static enum json_stream_rc offers_by_jansson(const char *text, size_t len, struct offer **v,
					     size_t *n, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (!root) {
		snprintf(err, errlen, "%s", je.text);
		return JSTREAM_BAD_JSON;
	}
	bool ok = json_map_offers(root, v, n);
	json_decref(root);
	return ok ? JSTREAM_OK : JSTREAM_BAD_SHAPE;
}

enum json_stream_rc json_stream_offers(const char *text, size_t len, struct offer **v,
				       size_t *n, char *err, size_t errlen)
{
	if (errlen)
		err[0] = '\0';
	if (!yajl_fit(text, len))
		return offers_by_jansson(text, len, v, n, err, errlen);
	struct js p = { .offers = true, .map = true, .list_ik = IK_OFFERS, .ov = v, .n = n };
	p.n0 = *n;
	bool redo;
	enum json_stream_rc rc = parse(&p, text, len, err, errlen, &redo);
	if (rc == JSTREAM_OK && !redo) {
		/* json_map_offers' list_of: a bare array, or an object's "offers" array */
		if (p.root_kind == ROOT_OBJ)
			rc = p.have_list && p.list_arr ? JSTREAM_OK : JSTREAM_BAD_SHAPE;
		else if (p.root_kind != ROOT_ARR)
			rc = JSTREAM_BAD_SHAPE;
	}
	if (rc != JSTREAM_OK || redo)
		truncate_out(&p);
	else if (!*v) /* as json_map_offers: an empty answer still gives an array */
		*v = xcalloc(1, sizeof **v);
	js_free(&p);
	if (redo)
		return offers_by_jansson(text, len, v, n, err, errlen);
	return rc;
}
