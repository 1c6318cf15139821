/* routes_billing.c: where the money went: charges per contract (docs
 * show_charges.yaml), invoices (show_invoices.yaml), the CLI's older
 * /users/me/invoices (billing.py show_invoices), pending price increases
 * (CLI price_increase.py); its table is routes_billing (routes_int.h).
 * Read from the ledger the billing clock fills
 * (acct.h), so that a day's charges add up to the credit the simulator
 * took for it. */
#include "routes_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acct.h"

#define DAY 86400.0
#define CHARGES_LIMIT 100
#define CHARGES_MAX 500
#define INVOICES_LIMIT 60

static bool scope_ok(struct ctx *c, const char *scope)
{
	return acct_require(c->w, c->rq->bearer, scope, c->rs);
}

/* ---- paging tokens: base64 of "o<offset>" -------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static json_t *token_for(size_t offset)
{
	char raw[32], out[48];
	int n = snprintf(raw, sizeof raw, "o%zu", offset);
	size_t o = 0;
	for (int i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)raw[i] << 16;
		if (i + 1 < n)
			v |= (unsigned char)raw[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)raw[i + 2];
		out[o++] = b64[(v >> 18) & 63];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? b64[v & 63] : '=';
	}
	out[o] = '\0';
	return json_string(out);
}

/* The offset a token names; false when it is not one of token_for's. */
static bool token_offset(const char *t, size_t *offset)
{
	char raw[32];
	size_t o = 0, n = strlen(t);
	if (n == 0 || n % 4 || n > 40)
		return false;
	for (size_t i = 0; i < n; i += 4) {
		unsigned v = 0;
		int pad = 0;
		for (int k = 0; k < 4; k++) {
			const char *p = t[i + k] == '=' ? NULL : strchr(b64, t[i + k]);
			if (t[i + k] == '=')
				pad++;
			else if (!p || !t[i + k] || pad)
				return false;
			v = v << 6 | (p ? (unsigned)(p - b64) : 0);
		}
		raw[o++] = (char)(v >> 16);
		if (pad < 2)
			raw[o++] = (char)(v >> 8);
		if (pad < 1)
			raw[o++] = (char)v;
	}
	raw[o] = '\0';
	char *end;
	if (raw[0] != 'o' || !raw[1])
		return false;
	unsigned long long v = strtoull(raw + 1, &end, 10);
	if (*end)
		return false;
	*offset = (size_t)v;
	return true;
}

/* limit and after_token of a paged listing; false (rs filled) on a bad one. */
static bool paging(struct ctx *c, long def, long max, long *limit, size_t *offset)
{
	char *l = routes_query_param(c->rq->query, "limit"), *t = routes_query_param(c->rq->query, "after_token");
	bool ok = true;
	*limit = def;
	*offset = 0;
	if (l) {
		char *end;
		*limit = strtol(l, &end, 10);
		if (*end || end == l || *limit < 1) {
			routes_error(c->rs, 400, "invalid_args", "limit must be a positive integer");
			ok = false;
		} else if (*limit > max) {
			*limit = max;
		}
	}
	if (ok && t && *t && !token_offset(t, offset)) {
		routes_error(c->rs, 400, "invalid_token", "Invalid pagination token");
		ok = false;
	}
	free(l);
	free(t);
	return ok;
}

static bool latest_first(struct ctx *c)
{
	char *v = routes_query_param(c->rq->query, "latest_first");
	bool r = !v || strcmp(v, "false") != 0;
	free(v);
	return r;
}

/* One page of rows (taken over) in the listing envelope. */
static void reply_page(struct ctx *c, json_t *rows, long limit, size_t offset)
{
	size_t n = json_array_size(rows);
	json_t *page = json_array();
	for (size_t i = offset; i < n && i < offset + (size_t)limit; i++)
		json_array_append(page, json_array_get(rows, i));
	json_t *next = offset + (size_t)limit < n ? token_for(offset + (size_t)limit) : json_null();
	ctx_reply(c, 200, json_pack("{s:b,s:I,s:I,s:o,s:o}", "success", 1, "count", (json_int_t)json_array_size(page),
				    "total", (json_int_t)n, "next_token", next, "results", page));
	json_decref(rows);
}

/* A range {gte, gt, lte, lt} of seconds; false when it lacks a lower or
 * an upper bound or a bound is not a number. */
static bool range_of(const json_t *r, double *lo, double *hi)
{
	double v;
	*lo = -INFINITY;
	*hi = INFINITY;
	bool has_lo = false, has_hi = false;
	const char *op;
	json_t *x;
	if (!json_is_object(r))
		return false;
	json_object_foreach((json_t *)r, op, x) {
		if (!jnum_value(x, &v))
			return false;
		if (!strcmp(op, "gte") || !strcmp(op, "gt"))
			*lo = v, has_lo = true;
		else if (!strcmp(op, "lte") || !strcmp(op, "lt"))
			*hi = v, has_hi = true;
		else
			return false;
	}
	return has_lo && has_hi;
}

static int by_start(const void *a, const void *b, bool desc)
{
	double x = jnum(*(json_t *const *)a, "start", 0), y = jnum(*(json_t *const *)b, "start", 0);
	int r = (x > y) - (x < y);
	if (!r) /* ties by source, so that pages do not overlap */
		r = strcmp(jstr(*(json_t *const *)a, "source") ? jstr(*(json_t *const *)a, "source") : "",
			   jstr(*(json_t *const *)b, "source") ? jstr(*(json_t *const *)b, "source") : "");
	return desc ? -r : r;
}
static int by_start_asc(const void *a, const void *b) { return by_start(a, b, false); }
static int by_start_desc(const void *a, const void *b) { return by_start(a, b, true); }

static void sort_rows(json_t *rows, bool desc)
{
	size_t n = json_array_size(rows);
	json_t **v = malloc((n + 1) * sizeof *v);
	if (!v)
		abort();
	for (size_t i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(rows, i));
	qsort(v, n, sizeof *v, desc ? by_start_desc : by_start_asc);
	json_array_clear(rows);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(rows, v[i]);
	free(v);
}

/* ---- charges ------------------------------------------------------------- */

struct agg {                    /* one contract's records within the range */
	const struct charge *first;
	double t0, t1, gpu, disk, gpu_s, disk_s;
	size_t days;
};

static json_t *item(const char *type, double t0, double t1, double secs, double amount)
{
	char d[96];
	double h = secs / 3600.0;
	snprintf(d, sizeof d, "%.3f hours at $%.3f/hour", h, h > 0 ? amount / h : 0);
	return json_pack("{s:f,s:f,s:s,s:n,s:s,s:f,s:{},s:[]}", "start", t0, "end", t1, "type", type, "source",
			 "description", d, "amount", round(amount * 1000) / 1000, "metadata", "items");
}

static json_t *contract_row(const struct agg *g)
{
	const struct charge *f = g->first;
	char src[48], desc[96];
	bool vol = f->kind == CK_VOLUME;
	snprintf(src, sizeof src, "%s-%ld", vol ? "volume" : "instance", f->contract);
	snprintf(desc, sizeof desc, "%s %ld Charges - %zu day%s", vol ? "Volume" : "Instance", f->contract, g->days,
		 g->days == 1 ? "" : "s");
	json_t *meta = json_object();
	if (f->template_id >= 0)
		json_object_set_new(meta, "template_id", json_integer(f->template_id));
	if (f->label[0])
		json_object_set_new(meta, "label", json_string(f->label));
	if (f->endpoint_id >= 0)
		json_object_set_new(meta, "endpoint_id", json_integer(f->endpoint_id));
	if (f->wg_id >= 0)
		json_object_set_new(meta, "workergroup_id", json_integer(f->wg_id));
	json_t *items = json_array();
	if (g->gpu > 0)
		json_array_append_new(items, item("gpu", g->t0, g->t1, g->gpu_s, g->gpu));
	if (g->disk > 0)
		json_array_append_new(items, item("disk", g->t0, g->t1, g->disk_s, g->disk));
	return json_pack("{s:f,s:f,s:s,s:s,s:s,s:f,s:o,s:o}", "start", floor(g->t0), "end", ceil(g->t1), "type",
			 vol ? "volume" : "instance", "source", src, "description", desc, "amount",
			 round((g->gpu + g->disk) * 1000) / 1000, "metadata", meta, "items", items);
}

/* tree: serverless contracts under workergroup-<id> under endpoint-<id>. */
static json_t *wrap(json_t *rows, const char *kind, const char *meta_key)
{
	json_t *out = json_array(), *groups = json_object();
	size_t i;
	json_t *r;
	json_array_foreach(rows, i, r) {
		json_t *id = json_object_get(json_object_get(r, "metadata"), meta_key);
		if (!id) {
			json_array_append(out, r);
			continue;
		}
		char src[48];
		snprintf(src, sizeof src, "%s-%lld", kind, (long long)json_integer_value(id));
		json_t *g = json_object_get(groups, src);
		if (!g) {
			char desc[96];
			snprintf(desc, sizeof desc, "%s %lld Charges", !strcmp(kind, "endpoint") ? "Endpoint" : "Workergroup",
				 (long long)json_integer_value(id));
			g = json_pack("{s:f,s:f,s:s,s:s,s:s,s:f,s:{s:O},s:[]}", "start", jnum(r, "start", 0), "end",
				      jnum(r, "end", 0), "type", "serverless", "source", src, "description", desc,
				      "amount", 0.0, "metadata", meta_key, id, "items");
			json_t *eid = json_object_get(json_object_get(r, "metadata"), "endpoint_id");
			if (eid && strcmp(meta_key, "endpoint_id")) /* a workergroup's, for the endpoint's wrapper */
				json_object_set(json_object_get(g, "metadata"), "endpoint_id", eid);
			json_object_set_new(groups, src, g);
			json_array_append(out, g);
		}
		json_array_append(json_object_get(g, "items"), r);
		json_object_set_new(g, "amount", json_real(round((jnum(g, "amount", 0) + jnum(r, "amount", 0)) * 1000) / 1000));
		if (jnum(r, "start", 0) < jnum(g, "start", 0))
			json_object_set(g, "start", json_object_get(r, "start"));
		if (jnum(r, "end", 0) > jnum(g, "end", 0))
			json_object_set(g, "end", json_object_get(r, "end"));
	}
	json_decref(groups);
	json_decref(rows);
	return out;
}

static void h_charges(struct ctx *c)
{
	if (!scope_ok(c, "billing_read"))
		return;
	bool bad = false;
	json_t *f = routes_query_json(c->rq->query, "select_filters", &bad);
	char *format = routes_query_param(c->rq->query, "format");
	double lo, hi;
	long limit;
	size_t offset;
	json_t *types = json_object_get(json_object_get(f, "type"), "in");
	if (bad || !range_of(json_object_get(f, "day"), &lo, &hi) || !json_object_get(json_object_get(f, "day"), "gte") ||
	    !json_object_get(json_object_get(f, "day"), "lte")) {
		ctx_reply(c, 400, json_pack("{s:b,s:s}", "success", 0, "msg",
					    "Must provide both 'day' gte and lte filters for instance charges"));
	} else if (format && strcmp(format, "table") && strcmp(format, "tree")) {
		routes_error(c->rs, 400, "invalid_args", "format must be table or tree");
	} else if (paging(c, CHARGES_LIMIT, CHARGES_MAX, &limit, &offset)) {
		struct acct *a = c->w->acct;
		bool want[3] = { !types, !types, !types }; /* instance, volume, serverless */
		size_t i;
		json_t *t;
		json_array_foreach(types, i, t) {
			const char *s = json_string_value(t);
			want[0] |= s && !strcmp(s, "instance");
			want[1] |= s && !strcmp(s, "volume");
			want[2] |= s && !strcmp(s, "serverless");
		}
		/* the records whose day meets the range, summed per contract in
		 * the order contracts first appear */
		json_t *index = json_object();
		struct agg *g = calloc(a->nch + 1, sizeof *g);
		size_t ng = 0;
		if (!g)
			abort();
		for (size_t k = 0; k < a->nch; k++) {
			const struct charge *ch = &a->ch[k];
			if (ch->day + DAY <= lo || ch->day > hi ||
			    !want[ch->kind == CK_SERVERLESS ? 2 : ch->kind == CK_VOLUME ? 1 : 0])
				continue;
			char key[32];
			snprintf(key, sizeof key, "%s%ld", ch->kind == CK_VOLUME ? "v" : "", ch->contract);
			json_t *ix = json_object_get(index, key);
			struct agg *x;
			if (ix) {
				x = &g[json_integer_value(ix)];
			} else {
				json_object_set_new(index, key, json_integer((json_int_t)ng));
				x = &g[ng++];
				x->first = ch;
				x->t0 = ch->t0;
			}
			x->t0 = fmin(x->t0, ch->t0);
			x->t1 = fmax(x->t1, ch->t1);
			x->gpu += ch->gpu;
			x->disk += ch->disk;
			x->gpu_s += ch->gpu_s;
			x->disk_s += ch->disk_s;
			x->days++;
		}
		json_t *rows = json_array();
		for (size_t k = 0; k < ng; k++)
			if (g[k].gpu + g[k].disk >= 0.0005) /* else nothing taken yet: the ledger moves in $0.001 */
				json_array_append_new(rows, contract_row(&g[k]));
		free(g);
		json_decref(index);
		if (format && !strcmp(format, "tree"))
			rows = wrap(wrap(rows, "workergroup", "workergroup_id"), "endpoint", "endpoint_id");
		sort_rows(rows, latest_first(c));
		reply_page(c, rows, limit, offset);
	}
	json_decref(f);
	free(format);
}

/* ---- invoices ------------------------------------------------------------ */

static bool service_match(const json_t *cond, const char *svc)
{
	const char *op;
	json_t *v;
	json_object_foreach((json_t *)cond, op, v) {
		bool in = false;
		size_t i;
		json_t *e;
		if (json_is_array(v))
			json_array_foreach(v, i, e)
				in |= json_is_string(e) && !strcmp(json_string_value(e), svc);
		if ((!strcmp(op, "eq") && (!json_is_string(v) || strcmp(json_string_value(v), svc))) ||
		    (!strcmp(op, "neq") && json_is_string(v) && !strcmp(json_string_value(v), svc)) ||
		    (!strcmp(op, "in") && !in) || (!strcmp(op, "notin") && in))
			return false;
	}
	return true;
}

static const char *order_col;   /* qsort's key for invoices */
static bool order_desc;

static int by_col(const void *pa, const void *pb)
{
	const json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
	double x, y;
	if (!strcmp(order_col, "paid_on"))
		x = jnum(a, "end", 0), y = jnum(b, "end", 0);
	else if (!strcmp(order_col, "amount_cents"))
		x = jnum(a, "amount", 0), y = jnum(b, "amount", 0);
	else
		x = jnum(a, "start", 0), y = jnum(b, "start", 0);
	int r = (x > y) - (x < y);
	if (!r) { /* ties in the order they were made */
		x = jnum(json_object_get(a, "metadata"), "invoice_id", 0);
		y = jnum(json_object_get(b, "metadata"), "invoice_id", 0);
		r = (x > y) - (x < y);
	}
	return order_desc ? -r : r;
}

static void h_invoices_v1(struct ctx *c)
{
	if (!scope_ok(c, "billing_read"))
		return;
	bool bad = false;
	json_t *f = routes_query_json(c->rq->query, "select_filters", &bad);
	json_t *order = routes_query_json(c->rq->query, "order_by", &bad);
	double lo, hi;
	long limit;
	size_t offset;
	json_t *when = json_object_get(f, "when");
	if (bad || !range_of(when, &lo, &hi)) {
		/* the docs: HTTP 200 with success false */
		ctx_reply(c, 200, json_pack("{s:b,s:s,s:i,s:i,s:[],s:n}", "success", 0, "error", "Invalid date range",
					    "count", 0, "total", 0, "results", "next_token"));
	} else if (paging(c, INVOICES_LIMIT, INT32_MAX, &limit, &offset)) {
		bool lo_strict = json_object_get(when, "gt") != NULL, hi_strict = json_object_get(when, "lt") != NULL;
		json_t *svc = json_object_get(f, "service");
		json_t *rows = json_array();
		size_t i;
		json_t *r;
		json_array_foreach(c->w->acct->invoices, i, r) {
			double t = jnum(r, "start", 0);
			if (t < lo || (lo_strict && t == lo) || t > hi || (hi_strict && t == hi))
				continue;
			const char *s = jstr(json_object_get(r, "metadata"), "service");
			if (json_is_object(svc) && !service_match(svc, s ? s : ""))
				continue;
			json_array_append_new(rows, json_deep_copy(r));
		}
		json_t *o0 = json_array_get(order, 0);
		order_col = jstr(o0, "col") ? jstr(o0, "col") : "when";
		order_desc = o0 ? !(jstr(o0, "dir") && !strcmp(jstr(o0, "dir"), "asc")) : latest_first(c);
		size_t n = json_array_size(rows);
		json_t **v = malloc((n + 1) * sizeof *v);
		if (!v)
			abort();
		for (i = 0; i < n; i++)
			v[i] = json_incref(json_array_get(rows, i));
		qsort(v, n, sizeof *v, by_col);
		json_array_clear(rows);
		for (i = 0; i < n; i++)
			json_array_append_new(rows, v[i]);
		free(v);
		reply_page(c, rows, limit, offset);
	}
	json_decref(f);
	json_decref(order);
}

/* The CLI's older form: rows of charges (per contract and day) and
 * payments in [sdate, edate], and the current (today's) charges. */
static void h_invoices_old(struct ctx *c)
{
	if (!scope_ok(c, "billing_read"))
		return;
	char *sd = routes_query_param(c->rq->query, "sdate"), *ed = routes_query_param(c->rq->query, "edate");
	char *ic = routes_query_param(c->rq->query, "inc_charges");
	double lo = sd ? atof(sd) : c->rq->now - DAY, hi = ed ? atof(ed) : c->rq->now;
	bool charges = !ic || (strcmp(ic, "false") && strcmp(ic, "False") && strcmp(ic, "0"));
	free(sd);
	free(ed);
	free(ic);
	struct acct *a = c->w->acct;
	json_t *rows = json_array();
	double today = floor(c->rq->now / DAY) * DAY, current = 0;
	for (size_t k = 0; k < a->nch; k++) {
		const struct charge *ch = &a->ch[k];
		double amt = ch->gpu + ch->disk;
		if (ch->day >= today)
			current += amt;
		if (!charges || ch->t1 < lo || ch->t1 > hi || amt < 0.0005) /* nothing taken yet (acct.c's $0.001) */
			continue;
		char d[160];
		double h = (ch->t1 - ch->t0) / 3600.0;
		snprintf(d, sizeof d, "%s %ld%s%s",
			 ch->kind == CK_SERVERLESS ? "Serverless worker" : ch->kind == CK_VOLUME ? "Volume" : "Instance",
			 ch->contract, ch->label[0] ? ": " : "", ch->label);
		json_array_append_new(rows, json_pack("{s:s,s:f,s:f,s:f,s:f,s:s,s:I}", "description", d, "quantity",
						      round(h * 1000) / 1000, "rate", h > 0 ? round(amt / h * 1000) / 1000 : 0,
						      "amount", round(amt * 1000) / 1000, "timestamp", ch->t1, "type",
						      "charge", "instance_id", (json_int_t)ch->contract));
	}
	size_t i;
	json_t *r;
	json_array_foreach(a->invoices, i, r) {
		double t = jnum(r, "start", 0);
		if (t < lo || t > hi)
			continue;
		const char *ty = jstr(r, "type");
		bool pay = ty && !strcmp(ty, "credit");
		double amt = fabs(jnum(r, "amount", 0));
		json_array_append_new(rows, json_pack("{s:s,s:f,s:f,s:f,s:f,s:s}", "description", jstr(r, "description"),
						      "quantity", 1.0, "rate", amt, "amount", pay ? amt : -amt, "timestamp",
						      t, "type", pay ? "payment" : ty));
	}
	ctx_reply(c, 200, json_pack("{s:o,s:{s:f,s:f}}", "invoices", rows, "current", "charges",
				    round(current * 1000) / 1000, "total", round(current * 1000) / 1000));
}

/* ---- pending price increases ---------------------------------------------- */

/* Rows whose contract is gone are dropped. */
static void prune_pending(struct world *w)
{
	json_t *p = w->acct->pending;
	for (size_t i = json_array_size(p); i-- > 0;)
		if (!world_find(w, (long)jnum(json_array_get(p, i), "contract_id", -1)))
			json_array_remove(p, i);
}

static void h_price_pending(struct ctx *c)
{
	if (!scope_ok(c, "instance_read"))
		return;
	prune_pending(c->w);
	json_t *p = c->w->acct->pending;
	ctx_reply(c, 200, json_pack("{s:b,s:I,s:b,s:O}", "success", 1, "count", (json_int_t)json_array_size(p),
				    "truncated", 0, "pending_price_increases", p));
}

static void h_price_answer(struct ctx *c)
{
	bool accept = strstr(c->rq->path, "accept") != NULL;
	json_t *idj = json_object_get(c->body, "pending_price_increase_id");
	if (!json_is_integer(idj) || json_object_size(c->body) != 1) {
		/* the backend forbids any other key */
		routes_error(c->rs, 400, "invalid_args",
			     "the body must be exactly {\"pending_price_increase_id\": <int>}");
		return;
	}
	prune_pending(c->w);
	json_t *p = c->w->acct->pending;
	size_t i;
	json_t *r;
	json_array_foreach(p, i, r) {
		if (json_integer_value(json_object_get(r, "pending_price_increase_id")) != json_integer_value(idj))
			continue;
		long cid = (long)jnum(r, "contract_id", -1);
		struct inst *in = world_find(c->w, cid);
		if (accept && in) { /* the contract is extended to the ask's end, at the new price from then */
			json_object_set(in->o, "end_date", json_object_get(r, "ask_end_date"));
			world_inst_sync(c->w, in);
		}
		ctx_reply(c, 200, json_pack("{s:b,s:O,s:I}", "success", 1, "pending_price_increase_id", idj,
					    "contract_id", (json_int_t)cid));
		json_array_remove(p, i);
		return;
	}
	ctx_reply(c, 404, json_pack("{s:b,s:s}", "success", 0, "error", "no_pending_price_increase"));
}

#define A SL_ANY
#define S SL_SLASH
#define B SL_BARE
const struct route routes_billing[] = {
	{ "GET", "/api/v0/instances/pending-price-increases", h_price_pending, RL_NONE, 0, A, S },
	{ "PUT", "/api/v0/instances/accept-price-increase", h_price_answer, RL_NONE, R_WRITE, A, S },
	{ "PUT", "/api/v0/instances/reject-price-increase", h_price_answer, RL_NONE, R_WRITE, A, S },
	{ "GET", "/api/v0/charges", h_charges, RL_NONE, 0, A, S },
	{ "GET", "/api/v1/invoices", h_invoices_v1, RL_NONE, 0, A, S },
	/* the CLI writes no slash */
	{ "GET", "/api/v0/users/me/invoices", h_invoices_old, RL_NONE, 0, A, B },
	{ NULL, NULL, NULL, RL_NONE, 0, SL_NONE, SL_NONE },
};
#undef A
#undef S
#undef B
