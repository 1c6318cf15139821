/* insttext.c: answer bodies built as text, and each instance's every-field
 * JSON text kept between requests (see insttext.h).  Everything is written
 * by jansson: the cached text is the object's keys and values dumped one by
 * one, with the object's own punctuation in compact form between them, so
 * that it is what json_dump_callback writes for the whole object. */
#include "insttext.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tb_put(struct tbuf *b, const char *s, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			abort();
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static int tb_sink(const char *s, size_t n, void *data)
{
	tb_put(data, s, n);
	return 0;
}

void tb_json(struct tbuf *b, const json_t *v)
{
	if (json_dump_callback(v, tb_sink, b, SIM_JSON_FLAGS))
		abort(); /* only values jansson cannot hold fail (none here) */
}

/* ,"key":value with the key n bytes long. */
static void tb_membern(struct tbuf *b, bool more, const char *key, size_t n, const json_t *v)
{
	if (more)
		tb_put(b, ",", 1);
	json_t *k = json_stringn_nocheck(key, n);
	tb_json(b, k);
	json_decref(k);
	tb_put(b, ":", 1);
	tb_json(b, v);
}

void tb_member(struct tbuf *b, bool more, const char *key, const json_t *v)
{
	tb_membern(b, more, key, strlen(key), v);
}

/* ---- fingerprints ------------------------------------------------------ */

enum { T_OBJ = 1, T_ARR, T_STR, T_INT, T_REAL, T_TRUE, T_FALSE, T_NULL, T_KEY, T_LIVE };

static uint64_t mix(uint64_t h, uint64_t v)
{
	uint64_t x = h ^ v;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 29;
	return x;
}

static uint64_t hash_bytes(uint64_t h, unsigned tag, const char *s, size_t n)
{
	h = mix(h, ((uint64_t)tag << 56) ^ n);
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = mix(h, w);
	}
	if (n) {
		uint64_t w = 0;
		memcpy(&w, s, n);
		h = mix(h, w);
	}
	return h;
}

static uint64_t hash_value(uint64_t h, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		h = mix(h, ((uint64_t)T_OBJ << 56) ^ json_object_size(v));
		for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
			h = hash_bytes(h, T_KEY, json_object_iter_key(it), json_object_iter_key_len(it));
			h = hash_value(h, json_object_iter_value(it));
		}
		return h;
	case JSON_ARRAY: {
		size_t i;
		json_t *x;
		h = mix(h, ((uint64_t)T_ARR << 56) ^ json_array_size(v));
		json_array_foreach(v, i, x)
			h = hash_value(h, x);
		return h;
	}
	case JSON_STRING:
		return hash_bytes(h, T_STR, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return mix(mix(h, (uint64_t)T_INT << 56), (uint64_t)json_integer_value(v));
	case JSON_REAL: {
		double d = json_real_value(v);
		uint64_t bits;
		memcpy(&bits, &d, sizeof bits);
		return mix(mix(h, (uint64_t)T_REAL << 56), bits);
	}
	case JSON_TRUE:
		return mix(h, (uint64_t)T_TRUE << 56);
	case JSON_FALSE:
		return mix(h, (uint64_t)T_FALSE << 56);
	case JSON_NULL:
		return mix(h, (uint64_t)T_NULL << 56);
	}
	abort();
}

/* The fields that move with the simulated clock on every read
 * (world_inst_view) or every request (billing of a prepaid balance): their
 * values are left out of the text and the fingerprint. */
static const char *const live_keys[] = { "duration", "gpu_util", "gpu_temp", "uptime_mins", "cur_load",
					 "credit_balance", "cpu_util", "mem_usage", "mem_limit", "vmem_usage",
					 "disk_usage", "disk_util" };
#define NLIVE (sizeof live_keys / sizeof *live_keys)

/* k (n bytes) as one of live_keys, or NULL. */
static const char *live_key(const char *k, size_t n)
{
	if (n != 8 && n != 11 && n != 14)
		return NULL;
	if (k[0] != 'd' && k[0] != 'g' && k[0] != 'u' && k[0] != 'c')
		return NULL;
	for (size_t i = 0; i < NLIVE; i++)
		if (strlen(live_keys[i]) == n && !memcmp(k, live_keys[i], n))
			return live_keys[i];
	return NULL;
}

/* Every key in order, every value but the live ones. */
static uint64_t fingerprint(const json_t *o)
{
	uint64_t h = mix(0x6a09e667f3bcc909ULL, ((uint64_t)T_OBJ << 56) ^ json_object_size(o));
	for (void *it = json_object_iter((json_t *)o); it; it = json_object_iter_next((json_t *)o, it)) {
		const char *k = json_object_iter_key(it);
		size_t n = json_object_iter_key_len(it);
		h = hash_bytes(h, T_KEY, k, n);
		h = live_key(k, n) ? mix(h, (uint64_t)T_LIVE << 56) : hash_value(h, json_object_iter_value(it));
	}
	return h;
}

/* ---- the cached text --------------------------------------------------- */

struct hole {
	size_t at;              /* offset in the text where the value goes */
	const char *key;        /* one of live_keys */
	uint64_t vfp;           /* fingerprint of the value last written */
	size_t vlen;            /* its text's length (0: none kept) */
	char v[40];             /* its text */
};

struct inst_text {
	uint64_t fp;            /* fingerprint of the object the text is of */
	char *s;                /* the object's text without the live values */
	size_t n;
	size_t nholes;
	struct hole holes[NLIVE];
};

static void build(struct inst_text *t, const json_t *o, uint64_t fp)
{
	struct tbuf b = { 0 };
	bool more = false;
	t->nholes = 0;
	tb_put(&b, "{", 1);
	for (void *it = json_object_iter((json_t *)o); it; it = json_object_iter_next((json_t *)o, it)) {
		const char *k = json_object_iter_key(it);
		size_t n = json_object_iter_key_len(it);
		const char *live = live_key(k, n);
		if (!live) {
			tb_membern(&b, more, k, n, json_object_iter_value(it));
		} else {
			tb_membern(&b, more, k, n, json_null());
			b.n -= 4; /* the value goes here on each read */
			struct hole *h = &t->holes[t->nholes++];
			h->at = b.n;
			h->key = live;
			h->vlen = 0;
		}
		more = true;
	}
	tb_put(&b, "}", 1);
	free(t->s);
	t->s = realloc(b.p, b.n);
	if (!t->s)
		abort();
	t->n = b.n;
	t->fp = fp;
}

static void put_live(struct hole *h, const json_t *v, struct tbuf *b)
{
	uint64_t vfp = hash_value(0x243f6a8885a308d3ULL, v);
	if (h->vlen && h->vfp == vfp) {
		tb_put(b, h->v, h->vlen);
		return;
	}
	char buf[sizeof h->v];
	size_t n = json_dumpb(v, buf, sizeof buf, SIM_JSON_FLAGS);
	if (n && n <= sizeof buf) {
		memcpy(h->v, buf, n);
		h->vlen = n;
		h->vfp = vfp;
		tb_put(b, buf, n);
	} else {
		h->vlen = 0;
		tb_json(b, v);
	}
}

void insttext_put(struct inst_text **cache, const json_t *o, struct tbuf *b)
{
	struct inst_text *t = *cache;
	if (!t) {
		t = calloc(1, sizeof *t);
		if (!t)
			abort();
		*cache = t;
	}
	uint64_t fp = fingerprint(o);
	if (!t->s || t->fp != fp)
		build(t, o, fp);
	size_t start = b->n, at = 0;
	for (size_t i = 0; i < t->nholes; i++) {
		struct hole *h = &t->holes[i];
		tb_put(b, t->s + at, h->at - at);
		const json_t *v = json_object_get(o, h->key);
		if (!v) /* the key set is in the fingerprint: never */
			abort();
		put_live(h, v, b);
		at = h->at;
	}
	tb_put(b, t->s + at, t->n - at);
	if (insttext_check_mode()) {
		char *fresh = json_dumps(o, SIM_JSON_FLAGS);
		if (!fresh)
			abort();
		char what[64];
		snprintf(what, sizeof what, "instance %lld", (long long)json_integer_value(json_object_get(o, "id")));
		insttext_check(what, b->p + start, b->n - start, fresh, strlen(fresh));
		free(fresh);
	}
}

void insttext_free(struct inst_text *t)
{
	if (t)
		free(t->s);
	free(t);
}

bool insttext_check_mode(void)
{
	static int mode = -1; /* read once; the lock is held by every caller */
	if (mode < 0) {
		const char *e = getenv("RENTOP_SIM_CHECK_CACHE");
		mode = e && !strcmp(e, "1");
	}
	return mode;
}

void insttext_check(const char *what, const char *a, size_t na, const char *b, size_t nb)
{
	if (na == nb && !memcmp(a, b, na))
		return;
	json_t *ja = json_loadb(a, na, JSON_DECODE_ANY, NULL), *jb = json_loadb(b, nb, JSON_DECODE_ANY, NULL);
	bool same = ja && jb && json_equal(ja, jb);
	json_decref(ja);
	json_decref(jb);
	fprintf(stderr, "rentop-sim: RENTOP_SIM_CHECK_CACHE: %s: the cached text differs from jansson's (%s)\n",
		what, same ? "the same JSON, other bytes" : "other JSON");
	abort();
}
