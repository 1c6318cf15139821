/* routes.c: the endpoints of the simulated service (SPEC.md plus the live
 * forms of API-NOTES.md).  It owns the route table with each endpoint's
 * authentication needs (no key, read, write, 2FA-gated, instance key
 * allowed) and rate-limit class, the checks made before a handler runs, and
 * the handlers themselves, which read and change the world; the routes_*.c
 * files add their own tables (routes_int.h), matched in the order of
 * tables[] (routes_billing first: its /api/v0/instances/<name>/ paths).  Error bodies
 * follow the live service: {"success":false,"error":slug,"msg":text}, a bare
 * JSON string where the live service sends one, {"detail":...} on 429. */
#include "routes_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acct.h"
#include "filter.h"
#include "insttext.h"
#include "routes_workers.h"
#include "simops.h"
#include "tfa.h"
#include "workers.h"

#define LABEL_MAX 1024      /* characters */
#define ONSTART_MAX 4048    /* characters */
#define MAX_SECRETS 100
#define SEARCH_LIMIT_DEFAULT 64
#define V1_PAGE_MAX 25
#define LOG_READY_DELAY 2.0 /* s of sim time at --speed 1 before a log URL serves */
#define USER_ID 148213
#define MAX_LOGREQS 256     /* request_logs results kept */

/* ---- responses --------------------------------------------------------- */

static void reply(struct sim_resp *rs, int status, json_t *j)
{
	rs->status = status;
	rs->json = j;
}

void routes_error(struct sim_resp *rs, int status, const char *slug, const char *msg)
{
	reply(rs, status, json_pack("{s:b,s:s,s:s}", "success", 0, "error", slug, "msg", msg));
}

static void errorf(struct sim_resp *rs, int status, const char *slug, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void errorf(struct sim_resp *rs, int status, const char *slug, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	routes_error(rs, status, slug, msg);
}

static void ok(struct sim_resp *rs)
{
	reply(rs, 200, json_pack("{s:b}", "success", 1));
}

static void ok_msg(struct sim_resp *rs, const char *msg)
{
	reply(rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg", msg));
}

/* ---- query strings ----------------------------------------------------- */

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* The decoded value of a query parameter (malloc'd), or NULL. */
static char *query_param(const char *q, const char *name)
{
	size_t nl = strlen(name);
	const char *p = q;
	while (p && *p) {
		const char *amp = strchr(p, '&');
		size_t len = amp ? (size_t)(amp - p) : strlen(p);
		if (len > nl && p[nl] == '=' && !strncmp(p, name, nl)) {
			const char *v = p + nl + 1;
			size_t vl = len - nl - 1;
			char *out = malloc(vl + 1);
			if (!out)
				abort();
			size_t o = 0;
			for (size_t i = 0; i < vl; i++) {
				if (v[i] == '+')
					out[o++] = ' ';
				else if (v[i] == '%' && i + 2 < vl + 1 && hexval(v[i + 1]) >= 0 && hexval(v[i + 2]) >= 0) {
					out[o++] = (char)(hexval(v[i + 1]) * 16 + hexval(v[i + 2]));
					i += 2;
				} else
					out[o++] = v[i];
			}
			out[o] = '\0';
			return out;
		}
		p = amp ? amp + 1 : NULL;
	}
	return NULL;
}

/* A query parameter parsed as JSON; *bad set when present but not JSON. */
static json_t *query_json(const char *q, const char *name, bool *bad)
{
	char *v = query_param(q, name);
	if (!v)
		return NULL;
	json_t *j = json_loads(v, JSON_DECODE_ANY, NULL);
	if (!j)
		*bad = true;
	free(v);
	return j;
}

char *routes_query_param(const char *q, const char *name)
{
	return query_param(q, name);
}

json_t *routes_query_json(const char *q, const char *name, bool *bad)
{
	return query_json(q, name, bad);
}

/* ---- instances --------------------------------------------------------- */

/* select_cols asks for every field: absent (or not an array), or "*" among
 * the names. */
static bool every_field(const json_t *select_cols)
{
	size_t i;
	json_t *c;
	if (!json_is_array(select_cols))
		return true;
	json_array_foreach(select_cols, i, c) {
		const char *n = json_string_value(c);
		if (n && !strcmp(n, "*"))
			return true;
	}
	return false;
}

json_t *routes_inst_json(struct world *w, struct inst *in, double now, const json_t *select_cols)
{
	world_inst_view(w, in, now);
	size_t i;
	json_t *c;
	if (every_field(select_cols)) /* in->o holds the public fields only */
		return json_incref(in->o);
	json_t *out = json_object();
	json_object_set(out, "id", json_object_get(in->o, "id"));
	json_array_foreach(select_cols, i, c) {
		const char *n = json_string_value(c);
		json_t *v = n && n[0] != '_' ? json_object_get(in->o, n) : NULL;
		if (v)
			json_object_set(out, n, v);
	}
	return out;
}

struct inst *routes_need_inst(struct ctx *c, int status, const char *slug)
{
	struct inst *in = c->id >= 0 ? world_find(c->w, c->id) : NULL;
	if (!in)
		errorf(c->rs, status, slug, "No such instance: %s", c->seg ? c->seg : "");
	return in;
}

/* Filters that only bound the id ({"id":{"gte":A,"lt":B}}, any of gt, gte,
 * lt, lte, integers), with no ordering or one by id: the matching rows are
 * w->inst[*a..*b), found by binary search (no scan of the fleet); *desc
 * when ordered by id descending.  False for any other query. */
static bool id_range_query(const struct world *w, const json_t *filters, const struct sort_key *keys,
			   size_t nk, size_t *a, size_t *b, bool *desc)
{
	*desc = false;
	if (nk > 1 || (nk == 1 && strcmp(keys[0].field, "id")))
		return false;
	if (nk == 1)
		*desc = keys[0].desc;
	long long lo = LLONG_MIN, hi = LLONG_MAX; /* [lo, hi] */
	if (filters && !json_is_object(filters))
		return false;
	if (filters && json_object_size(filters)) {
		const json_t *id = json_object_get(filters, "id");
		if (json_object_size(filters) != 1 || !json_is_object(id) || !json_object_size(id))
			return false;
		const char *op;
		const json_t *v;
		json_object_foreach((json_t *)id, op, v) {
			if (!json_is_integer(v))
				return false;
			long long x = json_integer_value(v);
			if (!strcmp(op, "gte") && x > lo)
				lo = x;
			else if (!strcmp(op, "gt") && x != LLONG_MAX && x + 1 > lo)
				lo = x + 1;
			else if (!strcmp(op, "lt") && x != LLONG_MIN && x - 1 < hi)
				hi = x - 1;
			else if (!strcmp(op, "lte") && x < hi)
				hi = x;
			else if (strcmp(op, "gte") && strcmp(op, "gt") && strcmp(op, "lt") && strcmp(op, "lte"))
				return false;
		}
	}
	*a = world_lower(w, lo);
	*b = hi == LLONG_MAX ? w->ninst : world_lower(w, hi + 1);
	if (*b < *a)
		*b = *a;
	return true;
}

/* A page of every field: the answer's other members (env, taken over)
 * dumped by jansson, then "instances": each row's text from its cache
 * (insttext.h) rather than the objects dumped again.  The same bytes as
 * env with "instances" set to the rows' objects and dumped whole; in
 * RENTOP_SIM_CHECK_CACHE mode that is checked on every page. */
static void reply_rows_text(struct ctx *c, json_t *env, struct inst *const *rows, size_t n)
{
	struct tbuf b = { 0 };
	tb_json(&b, env);
	if (b.n < 2 || b.p[b.n - 1] != '}')
		abort(); /* env is an object */
	b.n--; /* its closing brace: "instances" is the last member */
	tb_put(&b, json_object_size(env) ? ",\"instances\":[" : "\"instances\":[",
	       json_object_size(env) ? 14 : 13);
	for (size_t i = 0; i < n; i++) {
		world_inst_view(c->w, rows[i], c->rq->now);
		if (i)
			tb_put(&b, ",", 1);
		insttext_put(&rows[i]->text, rows[i]->o, &b);
	}
	tb_put(&b, "]}", 3); /* with the terminating NUL */
	if (insttext_check_mode()) {
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append(arr, rows[i]->o);
		json_object_set_new(env, "instances", arr);
		char *fresh = json_dumps(env, SIM_JSON_FLAGS);
		if (!fresh)
			abort();
		insttext_check(c->rq->path, b.p, b.n - 1, fresh, strlen(fresh));
		free(fresh);
	}
	json_decref(env);
	c->rs->status = 200;
	c->rs->raw = b.p;
	c->rs->raw_len = b.n - 1;
	c->rs->content_type = "application/json";
}

/* Columns the v1 list computes rather than stores: the docs refuse them in
 * select_filters with 400 ("Computed fields (e.g. dph_total, num_gpus) are
 * not filterable").  The first such column the filters name, or NULL. */
static const char *computed_filter(const json_t *filters)
{
	static const char *const computed[] = { "dph_total", "num_gpus", "storage_total_cost", "duration",
						"uptime_mins", "gpu_totalram", NULL };
	for (size_t i = 0; computed[i]; i++)
		if (json_object_get(filters, computed[i]))
			return computed[i];
	return NULL;
}

/* GET /api/v1/instances/: the live paged list. */
static void h_list_v1(struct ctx *c)
{
	const char *q = c->rq->query;
	bool bad = false;
	json_t *filters = query_json(q, "select_filters", &bad);
	json_t *order = query_json(q, "order_by", &bad);
	json_t *cols = query_json(q, "select_cols", &bad);
	char *lim = query_param(q, "limit");
	char *after = query_param(q, "after_token");
	char err[256] = "";
	const char *slug = "invalid_request"; /* the docs' slugs (live) */
	long limit = V1_PAGE_MAX, offset = 0;
	if (bad)
		snprintf(err, sizeof err, "select_filters, order_by and select_cols must be JSON");
	else if (!filter_valid(filters, err, sizeof err))
		;
	else if (computed_filter(filters))
		snprintf(err, sizeof err, "Error in query parameters: %s is not a valid search key",
			 computed_filter(filters));
	else if (lim && (sscanf(lim, "%ld", &limit) != 1 || (limit < 1 && !c->w->opt.live)))
		snprintf(err, sizeof err, "limit must be a positive integer");
	else if (after && *after && (after[0] != 'o' || sscanf(after + 1, "%ld", &offset) != 1 || offset < 0))
		snprintf(err, sizeof err, "invalid after_token"), slug = "invalid_token";
	if (limit > V1_PAGE_MAX)
		limit = V1_PAGE_MAX;
	if (limit < 1) /* live: "Values <= 0 are treated as 5" */
		limit = 5;
	if (err[0]) {
		routes_error(c->rs, 400, c->w->opt.live ? slug : "invalid_args", err);
	} else {
		struct world *w = c->w;
		struct sort_key keys[3];
		size_t nk = order ? filter_parse_order(order, keys, 3) : 0;
		size_t end = (size_t)offset + (size_t)limit, n;
		struct inst *rows[V1_PAGE_MAX];
		size_t nrows = 0, ra, rb;
		json_t *labels;
		bool desc;
		if (id_range_query(w, filters, keys, nk, &ra, &rb, &desc)) {
			/* the whole list or an id range of it, in id order (every
			 * sweep page, --dump and its parallel id ranges): the
			 * instances are held sorted by id, the range is found by
			 * binary search and the whole list's label counts cached,
			 * so a page costs its own rows (and a part's label counts
			 * its own rows), not a scan of the fleet */
			n = rb - ra;
			for (size_t i = (size_t)offset; i < n && i < end; i++)
				rows[nrows++] = w->inst[desc ? rb - 1 - i : ra + i];
			labels = json_copy((json_t *)world_range_label_counts(w, ra, rb));
			if (insttext_check_mode()) { /* the kept counts are a scan's */
				json_t *scan = json_object();
				for (size_t i = ra; i < rb; i++)
					world_count_label(scan, w->inst[i]->o);
				char *x = json_dumps(labels, SIM_JSON_FLAGS), *y = json_dumps(scan, SIM_JSON_FLAGS);
				if (!x || !y)
					abort();
				insttext_check("label_counts", x, strlen(x), y, strlen(y));
				free(x);
				free(y);
				json_decref(scan);
			}
		} else {
			json_t **m = malloc((w->ninst + 1) * sizeof *m);
			if (!m)
				abort();
			n = 0;
			labels = json_object();
			struct filter_prog *prog = filter_compile(filters, NULL);
			for (size_t i = 0; i < w->ninst; i++) {
				if (!filter_prog_match(prog, w->inst[i]->o))
					continue;
				m[n++] = w->inst[i]->o;
				world_count_label(labels, w->inst[i]->o);
			}
			filter_prog_free(prog);
			filter_sort(m, n, keys, nk);
			for (size_t i = (size_t)offset; i < n && i < end; i++)
				rows[nrows++] = world_find(w, (long)json_integer_value(json_object_get(m[i], "id")));
			free(m);
		}
		json_t *next = json_null();
		if (end < n) {
			char tok[32];
			snprintf(tok, sizeof tok, "o%zu", end);
			next = json_string(tok);
		}
		json_t *env = json_pack("{s:b,s:I,s:I,s:o,s:o}", "success", 1, "instances_found",
					(json_int_t)nrows, "total_instances", (json_int_t)n, "label_counts", labels,
					"next_token", next);
		if (every_field(cols)) {
			reply_rows_text(c, env, rows, nrows);
		} else {
			json_t *arr = json_array();
			for (size_t i = 0; i < nrows; i++)
				json_array_append_new(arr, routes_inst_json(w, rows[i], c->rq->now, cols));
			json_object_set_new(env, "instances", arr);
			reply(c->rs, 200, env);
		}
	}
	json_decref(filters);
	json_decref(order);
	json_decref(cols);
	free(lim);
	free(after);
}

/* GET /api/v0/instances/: the spec's list, or the live 410. */
static void h_list_v0(struct ctx *c)
{
	if (!c->w->opt.v0_spec || c->w->opt.live) {
		routes_error(c->rs, 410, "deprecated_endpoint",
			     "/api/v0/instances/ is deprecated. Use /api/v1/instances/ instead.");
		return;
	}
	json_t *arr = json_array();
	for (size_t i = 0; i < c->w->ninst; i++)
		json_array_append_new(arr, routes_inst_json(c->w, c->w->inst[i], c->rq->now, NULL));
	reply(c->rs, 200, json_pack("{s:I,s:o}", "instances_found", (json_int_t)json_array_size(arr), "instances", arr));
}

static void h_show(struct ctx *c)
{
	struct inst *in = c->id >= 0 ? world_find(c->w, c->id) : NULL;
	reply(c->rs, 200, json_pack("{s:o}", "instances", in ? routes_inst_json(c->w, in, c->rq->now, NULL) : json_null()));
}

/* Start or stop one instance; returns false (and fills rs) when the start
 * cannot get its GPU. */
static bool change_state(struct ctx *c, struct inst *in, const char *state)
{
	if (!strcmp(state, "stopped")) {
		world_inst_stop(c->w, in, c->rq->now, "Stopping");
		return true;
	}
	const char *a = jstr(in->o, "actual_status");
	const char *intended = jstr(in->o, "intended_status");
	bool stopped = a && !strcmp(a, "exited") && intended && !strcmp(intended, "stopped");
	if (stopped && in->start_unavailable) {
		reply(c->rs, 200, json_pack("{s:b,s:s,s:s}", "success", 0, "error", "resources_unavailable", "msg",
					    "Required resources are currently unavailable, state change queued."));
		return false;
	}
	world_inst_start(c->w, in, c->rq->now);
	return true;
}

/* PUT /api/v0/instances/{id}/: start, stop or label. */
static void h_change(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	json_t *st = json_object_get(c->body, "state");
	json_t *label = json_object_get(c->body, "label");
	if (!st && !label) {
		routes_error(c->rs, 400, "invalid_args", "Nothing to change: give state or label");
		return;
	}
	if (c->rq->key == KEY_INSTANCE && label) {
		routes_error(c->rs, 401, "auth_error", "This key may only start, stop or destroy its instance");
		return;
	}
	if (label && !json_is_string(label) && !json_is_null(label)) {
		routes_error(c->rs, 400, "invalid_args", "label must be a string");
		return;
	}
	if (label && json_is_string(label) && json_string_length(label) > LABEL_MAX) {
		routes_error(c->rs, 400, "label_too_long", "Label is longer than 1024 characters");
		return;
	}
	const char *s = json_string_value(st);
	if (st && (!s || (strcmp(s, "running") && strcmp(s, "stopped")))) {
		routes_error(c->rs, 400, "invalid_args", "state must be \"running\" or \"stopped\"");
		return;
	}
	if (label) {
		json_object_set(in->o, "label", label);
		world_touch_labels(c->w);
	}
	if (s && !change_state(c, in, s))
		return;
	if (label && json_is_string(label)) { /* the docs' answer to a label */
		char msg[1200];
		snprintf(msg, sizeof msg, "label for %ld set to '%s'", in->id, json_string_value(label));
		ok_msg(c->rs, msg);
	} else {
		ok(c->rs);
	}
}

/* PUT /api/v0/instances/: bulk start/stop {"state", "ids"}. */
static void h_bulk_state(struct ctx *c)
{
	const char *s = jstr(c->body, "state");
	json_t *ids = json_object_get(c->body, "ids");
	if (!s || (strcmp(s, "running") && strcmp(s, "stopped")) || !json_is_array(ids)) {
		routes_error(c->rs, 400, "invalid_args", "Give state (running or stopped) and ids (a list)");
		return;
	}
	json_t *done = json_array(), *missing = json_array(), *queued = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(ids, i, v) {
		double d;
		struct inst *in = jnum_value(v, &d) ? world_find(c->w, (long)d) : NULL;
		if (!in) {
			json_array_append(missing, v);
			continue;
		}
		struct sim_resp tmp = { 0 };
		struct ctx sub = *c;
		sub.rs = &tmp;
		if (change_state(&sub, in, s))
			json_array_append_new(done, json_integer(in->id));
		else
			json_array_append_new(queued, json_integer(in->id));
		json_decref(tmp.json);
	}
	reply(c->rs, 200, json_pack("{s:b,s:o,s:o,s:o}", "success", 1, "changed", done, "queued", queued,
				    "not_found", missing));
}

static bool tfa_blocks(struct ctx *c)
{
	if (c->rq->key == KEY_FULL && tfa_is_enabled(c->w->tfa)) {
		routes_error(c->rs, 401, "tfa_required",
			     "This action requires Two Factor Authentication. Please log in with 2FA.");
		return true;
	}
	return false;
}

/* DELETE /api/v0/instances/{id}/ */
static void h_destroy(struct ctx *c)
{
	if (c->id < 0) {
		routes_error(c->rs, 400, "invalid_args", "Invalid instance id");
		return;
	}
	if (!world_find(c->w, c->id)) {
		errorf(c->rs, 404, "not_found", "Instance %ld not found", c->id);
		return;
	}
	world_remove(c->w, c->id);
	char msg[96];
	snprintf(msg, sizeof msg, "Instance %ld destroyed.", c->id);
	ok_msg(c->rs, msg);
}

/* DELETE /api/v0/instances/ {"instance_ids":[...]}: idempotent. */
static void h_bulk_destroy(struct ctx *c)
{
	json_t *ids = json_object_get(c->body, "instance_ids");
	if (!json_is_array(ids)) {
		routes_error(c->rs, 400, "invalid_args", "instance_ids must be a list of instance ids");
		return;
	}
	json_t *done = json_array(), *gone = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(ids, i, v) {
		double d;
		if (jnum_value(v, &d) && world_remove(c->w, (long)d))
			json_array_append_new(done, json_integer((json_int_t)d));
		else
			json_array_append(gone, v);
	}
	reply(c->rs, 200, json_pack("{s:b,s:s,s:o,s:o}", "success", 1, "msg", "Instances destroyed.", "destroyed",
				    done, "not_found", gone));
}

/* PUT /api/v0/instances/bid_price/{id}/ */
static void h_bid(struct ctx *c)
{
	double price;
	if (!jnum_value(json_object_get(c->body, "price"), &price)) {
		routes_error(c->rs, 400, "invalid_args", "price is required (a number, $/hour)");
		return;
	}
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	/* the docs (change_bid.yaml): >= 0.001 and <= 32.0 * number of GPUs */
	double gpus = jnum(in->o, "num_gpus", 1);
	double top = 32.0 * (gpus >= 1 ? gpus : 1);
	if (price < 0.001 || price > top) {
		errorf(c->rs, 400, "invalid_args", "price must be between 0.001 and %g $/hour "
		       "(32 per GPU)", top);
		return;
	}
	if (!json_is_true(json_object_get(in->o, "is_bid"))) {
		errorf(c->rs, 400, "invalid_args", "Instance %ld is on-demand, not interruptible", in->id);
		return;
	}
	json_object_set_new(in->o, "dph_base", json_real(price));
	world_inst_sync(c->w, in);
	if (in->outbid && price > in->compete_price)
		world_inst_start(c->w, in, c->rq->now);
	ok(c->rs);
}

/* PUT /api/v0/instances/prepay/{id}/: timescale (months) and a discount that
 * grows with it: discount_rate = min(0.4, 0.4 * timescale / 12). */
static void h_prepay(struct ctx *c)
{
	double amount;
	struct inst *in = c->id >= 0 ? world_find(c->w, c->id) : NULL;
	if (!in) {
		routes_error(c->rs, 411, "no_such_instance", "No such instance");
		return;
	}
	if (!jnum_value(json_object_get(c->body, "amount"), &amount) || !(amount > 0)) {
		routes_error(c->rs, 400, "invalid_args", "amount must be a positive number of credits");
		return;
	}
	if (amount > c->w->credit) {
		routes_error(c->rs, 411, "insufficient_credit", "Insufficient credit");
		return;
	}
	double dph = jnum(in->o, "dph_total", 0);
	double timescale = dph > 0 ? amount / (dph * 720.0) : 0;
	double disc = fmin(0.4, 0.4 * timescale / 12.0);
	world_set_credit(c->w, c->w->credit - amount);
	char desc[96];
	snprintf(desc, sizeof desc, "Prepaid credit for instance %ld", in->id);
	acct_invoice(c->w, c->rq->now, "reserved", "instance_prepay", "instance_prepay", desc, -amount);
	json_object_set_new(in->o, "credit_balance", json_real(jnum(in->o, "credit_balance", 0) + amount));
	json_object_set_new(in->o, "credit_discount", json_real(disc));
	world_inst_sync(c->w, in);
	reply(c->rs, 200, json_pack("{s:b,s:f,s:f}", "success", 1, "timescale", timescale, "discount_rate", disc));
}

static void h_reboot(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	const char *a = jstr(in->o, "actual_status");
	if (!a || strcmp(a, "running")) {
		routes_error(c->rs, 400, "invalid_state", "Only a running instance can be rebooted");
		return;
	}
	world_inst_reboot(c->w, in, c->rq->now);
	ok(c->rs);
}

void routes_result_url(struct world *w, char *text, double ready_at, char *url, size_t n)
{
	if (w->nlogreq >= MAX_LOGREQS) { /* forget the oldest result */
		free(w->logreqs[0].text);
		memmove(&w->logreqs[0], &w->logreqs[1], (w->nlogreq - 1) * sizeof *w->logreqs);
		w->nlogreq--;
	}
	w->logreqs = realloc(w->logreqs, (w->nlogreq + 1) * sizeof *w->logreqs);
	if (!w->logreqs)
		abort();
	struct logreq *lr = &w->logreqs[w->nlogreq++];
	world_make_token(w, lr->token, sizeof lr->token, ""); /* a capability URL, not a key */
	lr->token[32] = '\0';
	lr->ready_at = ready_at;
	lr->text = text;
	snprintf(url, n, "%s/instance_logs/%s.log", w->base_url, lr->token);
}

/* PUT /api/v0/instances/request_logs/{id}/ -> result_url, served later. */
static void h_request_logs(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	double tail = jnum(c->body, "tail", 1000);
	if (tail < 1)
		tail = 1;
	struct world *w = c->w;
	/* the container's log: boot lines, then periodic progress */
	size_t cap = 4096, len = 0;
	char *t = malloc(cap);
	if (!t)
		abort();
	t[0] = '\0';
	double start = jnum(in->o, "start_date", c->rq->now);
	long lines = (long)((c->rq->now - start) / 60.0) + 6;
	if (lines > (long)tail)
		lines = (long)tail;
	long first = (long)((c->rq->now - start) / 60.0) + 6 - lines;
	for (long i = first; i < first + lines; i++) {
		char line[256];
		if (i == 0)
			snprintf(line, sizeof line, "Welcome to the instance %ld (%s)\n", in->id, jstr(in->o, "image_uuid"));
		else if (i < 5)
			snprintf(line, sizeof line, "[boot] step %ld/5: %s\n", i,
				 i == 1 ? "mounting volumes" : i == 2 ? "starting sshd" : i == 3 ? "running onstart" : "ready");
		else
			snprintf(line, sizeof line, "[%ld] epoch %ld step %ld loss %.4f\n", i, i / 100, i % 100,
				 2.5 / (1.0 + (double)i / 50.0));
		size_t ll = strlen(line);
		if (len + ll + 1 > cap) {
			cap = (cap + ll) * 2;
			t = realloc(t, cap);
			if (!t)
				abort();
		}
		memcpy(t + len, line, ll + 1);
		len += ll;
	}
	char url[256];
	routes_result_url(w, t, c->rq->now + LOG_READY_DELAY / w->opt.speed, url, sizeof url);
	reply(c->rs, 200, json_pack("{s:b,s:s,s:s}", "success", 1, "result_url", url, "msg",
				    "Logs will be available at the result_url shortly."));
}

/* GET /instance_logs/{token}.log: no auth; 404 until ready. */
static void h_log_result(struct ctx *c)
{
	struct world *w = c->w;
	for (size_t i = 0; c->seg && i < w->nlogreq; i++) {
		struct logreq *lr = &w->logreqs[i];
		size_t tl = strlen(lr->token);
		if (!strncmp(c->seg, lr->token, tl) && (!c->seg[tl] || !strcmp(c->seg + tl, ".log")) &&
		    c->rq->now >= lr->ready_at) {
			c->rs->status = 200;
			c->rs->raw = strdup(lr->text);
			c->rs->raw_len = strlen(lr->text);
			c->rs->content_type = "text/plain";
			return;
		}
	}
	/* not uploaded yet: the default dialect's 404 NoSuchKey; live, the
	 * object store's 403 AccessDenied, as a bucket without list rights
	 * answers for a missing key */
	c->rs->status = w->opt.live ? 403 : 404;
	c->rs->raw = strdup(w->opt.live ? OBJSTORE_403
					 : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code>"
					   "<Message>The specified key does not exist.</Message></Error>\n");
	c->rs->raw_len = strlen(c->rs->raw);
	c->rs->content_type = "application/xml";
}

/* A template's "-e NAME=VALUE -p H:C" string as the env object of creation. */
static json_t *env_from_flags(const char *s)
{
	json_t *o = json_object();
	char *dup = strdup(s ? s : "");
	char *save = NULL;
	const char *flag = NULL;
	for (char *tok = strtok_r(dup, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(tok, "-e") || !strcmp(tok, "-p") || !strcmp(tok, "--env")) {
			flag = tok;
			continue;
		}
		if (flag && !strcmp(flag, "-p")) {
			char key[128];
			snprintf(key, sizeof key, "-p %s", tok);
			json_object_set_new(o, key, json_string("1"));
		} else if (flag) {
			char *eq = strchr(tok, '=');
			if (eq) {
				*eq = '\0';
				json_object_set_new(o, tok, json_string(eq + 1));
			}
		}
		flag = NULL;
	}
	free(dup);
	return o;
}

/* The wire form of a runtype (spec or live spelling), or NULL when unknown. */
static const char *runtype_wire(const char *rt)
{
	bool sd = false, sp = false, jd = false, jp = false, args = false;
	char *dup = strdup(rt);
	char *save = NULL;
	bool bad = false;
	for (char *t = strtok_r(dup, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (!strcmp(t, "ssh_direct") || !strcmp(t, "ssh_direc"))
			sd = true;
		else if (!strcmp(t, "ssh_proxy") || !strcmp(t, "ssh"))
			sp = true;
		else if (!strcmp(t, "jupyter_direct") || !strcmp(t, "jupyter_direc"))
			jd = true;
		else if (!strcmp(t, "jupyter_proxy") || !strcmp(t, "jupyter"))
			jp = true;
		else if (!strcmp(t, "args"))
			args = true;
		else
			bad = true;
	}
	free(dup);
	if (bad || (args && (sd || sp || jd || jp)) || !(sd || sp || jd || jp || args))
		return NULL;
	if (args)
		return "args";
	if (jd)
		return "jupyter_direc ssh_direc ssh_proxy";
	if (jp)
		return "jupyter_proxy ssh_proxy";
	if (sd)
		return "ssh_direc ssh_proxy";
	return "ssh_proxy";
}

/* Docker's reference grammar, loosely: no spaces or control characters,
 * a lowercase repository path of [a-z0-9._-] components, an optional
 * registry host (with a port), :tag ([A-Za-z0-9_.-], at most 128) and
 * @digest. */
static bool image_ref_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 255)
		return false;
	const char *at = strchr(s, '@');
	size_t end = at ? (size_t)(at - s) : n;
	if (at && strncmp(at + 1, "sha256:", 7))
		return false;
	/* the tag: after the last ':' that follows the last '/' */
	const char *slash = memrchr(s, '/', end);
	const char *colon = memchr(slash ? slash : s, ':', end - (size_t)((slash ? slash : s) - s));
	size_t path_end = colon ? (size_t)(colon - s) : end;
	if (colon) {
		size_t tl = end - path_end - 1;
		if (tl == 0 || tl > 128)
			return false;
		for (size_t i = path_end + 1; i < end; i++)
			if (!(isalnum((unsigned char)s[i]) || strchr("_.-", s[i])))
				return false;
	}
	/* the first component is a registry host when it has '.' or ':' or is localhost */
	size_t i = 0;
	const char *first_slash = memchr(s, '/', path_end);
	if (first_slash) {
		size_t hl = (size_t)(first_slash - s);
		const char *pc = memchr(s, ':', hl);
		if (pc) { /* host:port */
			if (pc + 1 == first_slash)
				return false;
			for (const char *d = pc + 1; d < first_slash; d++)
				if (!isdigit((unsigned char)*d))
					return false;
		}
		if (memchr(s, '.', hl) || pc || (hl == 9 && !strncmp(s, "localhost", 9)))
			i = hl + 1;
	}
	if (i >= path_end || s[i] == '/' || s[path_end - 1] == '/')
		return false;
	for (; i < path_end; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || strchr("._-/", ch)))
			return false;
		if (ch == '/' && s[i + 1] == '/')
			return false;
	}
	return true;
}

static json_t *template_by_hash(struct world *w, const char *hash)
{
	size_t i;
	json_t *t;
	json_array_foreach(w->templates, i, t) {
		const char *h = jstr(t, "hash_id");
		if (h && hash && !strcmp(h, hash))
			return t;
	}
	return NULL;
}

/* A field from the request, else from the template (rule 3), else NULL. */
static json_t *merged(json_t *req, json_t *tpl, const char *k, const char *tk)
{
	json_t *v = json_object_get(req, k);
	if (v && !json_is_null(v))
		return v;
	v = tpl ? json_object_get(tpl, tk ? tk : k) : NULL;
	return v && !json_is_null(v) ? v : NULL;
}

/* PUT /api/v0/asks/{offer_id}/: create an instance. */
static void h_create(struct ctx *c)
{
	struct world *w = c->w;
	json_t *b = c->body;
	json_t *offer = c->id >= 0 ? world_offer_by_id(w, c->id) : NULL;
	if (!offer || !json_is_true(json_object_get(offer, "rentable"))) {
		if (json_is_true(json_object_get(b, "cancel_unavail")))
			errorf(c->rs, 410, "no_such_ask", "Offer %s is no longer available; creation cancelled (cancel_unavail)",
			       c->seg ? c->seg : "");
		else
			errorf(c->rs, 404, "no_such_ask", "Instance type by id %s is not available.", c->seg ? c->seg : "");
		return;
	}
	json_t *tpl = NULL;
	const char *th = jstr(b, "template_hash_id");
	if (th && !(tpl = template_by_hash(w, th))) {
		errorf(c->rs, 400, "invalid_args", "No template with hash_id %s", th);
		return;
	}
	/* image (+ the template's tag) */
	char image[512] = "";
	json_t *img = merged(b, tpl, "image", NULL);
	if (!json_is_string(img) || !json_string_length(img)) {
		routes_error(c->rs, 400, "invalid_args", "image is required unless template_hash_id is given");
		return;
	}
	if (!image_ref_ok(json_string_value(img))) {
		routes_error(c->rs, 400, "invalid_args",
			     "invalid image name: [registry/]repository[:tag][@digest], lowercase repository");
		return;
	}
	const char *tag = json_is_string(json_object_get(b, "image")) ? NULL : jstr(tpl, "tag");
	const char *slash = strrchr(json_string_value(img), '/');
	if (tag && *tag && !strchr(slash ? slash : json_string_value(img), ':'))
		snprintf(image, sizeof image, "%s:%s", json_string_value(img), tag);
	else
		snprintf(image, sizeof image, "%s", json_string_value(img));
	/* runtype */
	json_t *rtj = merged(b, tpl, "runtype", NULL);
	const char *rt = runtype_wire(json_is_string(rtj) ? json_string_value(rtj) : "args");
	if (!rt) {
		routes_error(c->rs, 400, "invalid_args", "Unknown runtype");
		return;
	}
	json_t *args_str = merged(b, tpl, "args_str", NULL);
	if (args_str && json_is_string(args_str) && json_string_length(args_str) && strcmp(rt, "args")) {
		routes_error(c->rs, 400, "invalid_args", "args_str is only valid with runtype args");
		return;
	}
	/* onstart */
	json_t *onstart = merged(b, tpl, "onstart", NULL);
	if (onstart && !json_is_string(onstart)) {
		routes_error(c->rs, 400, "invalid_args", "onstart must be a string");
		return;
	}
	if (onstart && json_string_length(onstart) > ONSTART_MAX) {
		errorf(c->rs, 400, "invalid_args", "onstart is %zu characters; the limit is 4048 (compress longer scripts)",
		       json_string_length(onstart));
		return;
	}
	/* env: template flags converted, request keys added and winning */
	json_t *renv = json_object_get(b, "env");
	if (renv && !json_is_object(renv) && !json_is_null(renv)) {
		routes_error(c->rs, 400, "invalid_args", "env must be an object of name to value");
		return;
	}
	json_t *env = env_from_flags(tpl ? jstr(tpl, "env") : NULL);
	if (json_is_object(renv))
		json_object_update(env, renv);
	/* extra_filters merged by key, request wins */
	json_t *ef = json_object();
	if (tpl && json_is_object(json_object_get(tpl, "extra_filters")))
		json_object_update(ef, json_object_get(tpl, "extra_filters"));
	if (json_is_object(json_object_get(b, "extra_filters")))
		json_object_update(ef, json_object_get(b, "extra_filters"));
	/* disk, label, price, target_state, vm, volume_info */
	double disk = jnum(b, "disk", 8);
	json_t *label = json_object_get(b, "label");
	const char *target = jstr(b, "target_state");
	double price = 0;
	json_t *pj = json_object_get(b, "price");
	bool bid = pj && !json_is_null(pj);
	json_t *vi = json_object_get(b, "volume_info");
	const char *err = NULL, *slug = "invalid_args";
	if (!(disk > 0) || disk > jnum(offer, "disk_space", 0))
		err = "disk must be between 1 GB and the offer's disk_space";
	else if (label && !json_is_null(label) && (!json_is_string(label) || json_string_length(label) > LABEL_MAX))
		err = "label must be a string of at most 1024 characters";
	else if (target && strcmp(target, "running") && strcmp(target, "stopped"))
		err = "target_state must be running or stopped";
	else if (bid && (!jnum_value(pj, &price) || price < 0.001 || price > 128))
		err = "price must be between 0.001 and 128 $/hour", slug = "invalid_price"; /* docs: create_instance.yaml */
	else if ((err = vols_check_link(w, offer, vi, &slug)))
		;
	else if (json_is_true(json_object_get(b, "vm")) && json_array_size(w->ssh_keys) == 0)
		err = "A VM instance needs a registered SSH key: there is no way in afterwards",
		slug = "no_ssh_key_for_vm";
	if (!err) {
		double cost = (bid ? price : jnum(offer, "dph_base", 0)) + jnum(offer, "storage_cost", 0) * disk / 720.0;
		if (w->credit < cost)
			err = "Your account lacks credit for this instance: add credit first", slug = "insufficient_credit";
	}
	if (err) {
		json_decref(env);
		json_decref(ef);
		routes_error(c->rs, 400, slug, err);
		return;
	}
	json_t *f = json_object();
	json_object_set_new(f, "image_uuid", json_string(image));
	json_object_set_new(f, "image_runtype", json_string(rt));
	json_object_set_new(f, "disk_space", json_real(disk));
	json_object_set(f, "label", label ? label : json_null());
	json_object_set(f, "onstart", onstart ? onstart : json_null());
	json_t *extra = json_array();
	const char *k;
	json_t *v;
	json_object_foreach(env, k, v) {
		if (!strncmp(k, "-p ", 3))
			continue;
		json_t *val = json_is_string(v) ? json_incref(v) : json_string(json_is_true(v) ? "1" : "");
		if (json_is_number(v)) {
			json_decref(val);
			char num[64];
			snprintf(num, sizeof num, "%g", json_number_value(v));
			val = json_string(num);
		}
		json_array_append_new(extra, json_pack("[s,o]", k, val));
	}
	json_object_set_new(f, "extra_env", extra);
	json_object_set_new(f, "_env_obj", env);
	if (json_object_size(ef))
		json_object_set(f, "extra_filters", ef);
	json_decref(ef);
	if (args_str)
		json_object_set(f, "args_str", args_str);
	static const char *const passthru[] = { "jupyter_dir", "use_jupyter_lab", "python_utf8", "lang_utf8" };
	for (size_t i = 0; i < sizeof passthru / sizeof *passthru; i++) {
		json_t *pv = merged(b, tpl, passthru[i], NULL);
		if (pv)
			json_object_set(f, passthru[i], pv);
	}
	json_object_set_new(f, "vm", json_boolean(json_is_true(json_object_get(b, "vm"))));
	if (tpl) {
		json_object_set(f, "template_id", json_object_get(tpl, "id"));
		json_object_set(f, "template_hash_id", json_object_get(tpl, "hash_id"));
		json_object_set(f, "template_name", json_object_get(tpl, "name"));
		json_object_set(f, "docker_login_repo", json_object_get(tpl, "docker_login_repo"));
		json_object_set(f, "docker_login_user", json_object_get(tpl, "docker_login_user"));
	}
	json_object_set_new(f, "intended_status", json_string(target ? target : "running"));
	struct inst *in = world_inst_create(w, offer, f, c->rq->now, bid, price);
	json_decref(f);
	vols_link(w, in, offer, vi, c->rq->now);
	const char *login = jstr(b, "image_login");
	if (login)
		in->image_login = strdup(login);
	else if (tpl && jstr(tpl, "docker_login_user") && *jstr(tpl, "docker_login_user")) {
		char buf[1024];
		snprintf(buf, sizeof buf, "-u %s -p %s %s", jstr(tpl, "docker_login_user"),
			 jstr(tpl, "docker_login_pass") ? jstr(tpl, "docker_login_pass") : "",
			 jstr(tpl, "docker_login_repo") ? jstr(tpl, "docker_login_repo") : "");
		in->image_login = strdup(buf);
	}
	/* a private image without registry credentials cannot be pulled */
	if (!in->image_login && !strncmp(image, "private/", 8))
		in->plan = BOOT_PULL;
	if (tpl)
		json_object_set_new(tpl, "count_created",
				    json_integer(json_integer_value(json_object_get(tpl, "count_created")) + 1));
	reply(c->rs, 200, json_pack("{s:b,s:I,s:s}", "success", 1, "new_contract", (json_int_t)in->id,
				    "instance_api_key", in->key));
}

/* ---- offers ------------------------------------------------------------ */

/* How a search prices its offers' dph_total: a bid search at min_bid, else
 * at dph_base, plus the storage asked (allocated_storage, 5 GB when only
 * the type asks for a price); neither asked: the offer's own dph_total. */
struct search_price {
	bool bid, have_alloc;
	double alloc;
};

static double search_dph(const json_t *o, const void *arg)
{
	const struct search_price *p = arg;
	if (p->have_alloc || p->bid) {
		double base = p->bid ? jnum(o, "min_bid", 0) : jnum(o, "dph_base", 0);
		return base + jnum(o, "storage_cost", 0) * (p->have_alloc ? p->alloc : 5.0) / 720.0;
	}
	double d;
	return jnum_value(json_object_get(o, "dph_total"), &d) ? d : NAN;
}

static void search(struct ctx *c, json_t *q)
{
	static const char *const skip[] = { "order", "type", "limit", "allocated_storage", "select_cols",
					    "disable_bundling", "extra_ids", NULL };
	char err[256];
	json_t *filters = json_object();
	if (json_is_object(q)) {
		const char *k;
		json_t *v;
		json_object_foreach(q, k, v) {
			bool s = false;
			for (size_t i = 0; skip[i]; i++)
				s |= !strcmp(skip[i], k);
			if (!s)
				json_object_set(filters, k, v);
		}
	}
	if (!filter_valid(filters, err, sizeof err)) {
		json_decref(filters);
		routes_error(c->rs, 400, "invalid_args", err);
		return;
	}
	double lim = jnum(q, "limit", SEARCH_LIMIT_DEFAULT);
	if (lim < 1)
		lim = SEARCH_LIMIT_DEFAULT;
	size_t n = json_array_size(c->w->offers), m = 0;
	json_t **hits = malloc((n + 1) * sizeof *hits);
	size_t *hidx = malloc((n + 1) * sizeof *hidx), *pos = malloc((n + 1) * sizeof *pos);
	struct filter_prog *prog = filter_compile(filters, NULL);
	size_t nc = filter_prog_nconds(prog);
	const json_t *const **col = malloc((nc + 1) * sizeof *col);
	const json_t **vals = malloc((nc + 1) * sizeof *vals);
	if (!hits || !hidx || !pos || !col || !vals)
		abort();
	/* the conditions' fields read from the world's columns (by index), not
	 * looked up in each offer object */
	for (size_t k = 0; k < nc; k++)
		col[k] = world_offer_column(c->w, filter_prog_field(prog, k));
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < nc; k++)
			vals[k] = col[k][i];
		if (filter_prog_match_vals(prog, vals)) {
			hidx[m] = i;
			hits[m++] = json_array_get(c->w->offers, i);
		}
	}
	filter_prog_free(prog);
	free(col);
	free(vals);
	struct search_price sp = { false, false, 0 };
	sp.have_alloc = jnum_value(json_object_get(q, "allocated_storage"), &sp.alloc);
	const char *type = jstr(q, "type");
	sp.bid = type && !strcmp(type, "bid");
	struct sort_key keys[3];
	memset(keys, 0, sizeof keys);
	json_t *order = json_object_get(q, "order");
	size_t nk = order ? filter_parse_order(order, keys, 3) : 0;
	if (!nk) {
		keys[0].field = "score";
		keys[0].desc = true;
		nk = 1;
	}
	/* dph_total sorts as the answer states it (priced for the storage or
	 * the bid), as the live service orders by the price it returns */
	for (size_t k = 0; k < nk; k++)
		if (!strcmp(keys[k].field, "dph_total")) {
			keys[k].value = search_dph;
			keys[k].arg = &sp;
		}
	filter_top_pos(hits, m, keys, nk, (size_t)lim, pos);
	/* {"offers":[...]}: each offer's cached text (world_offer_text) with
	 * dph_total (priced for the request's storage, or the bid) and is_bid
	 * appended, rather than a copy of each object dumped again */
	struct tbuf b = { 0 };
	tb_put(&b, "{\"offers\":[", 11);
	for (size_t i = 0; i < m && i < (size_t)lim; i++) {
		json_t *o = hits[i];
		size_t len;
		const char *text = world_offer_text(c->w, hidx[pos[i]], &len);
		if (!text || len < 2)
			abort(); /* hits are the world's offers, objects */
		if (i)
			tb_put(&b, ",", 1);
		tb_put(&b, text, len - 1); /* without its closing brace */
		bool more = len > 2;       /* it has fields before the ones added */
		json_t *dph = NULL;
		if (sp.have_alloc || sp.bid) {
			dph = json_real(search_dph(o, &sp));
		} else if (json_object_get(o, "dph_total")) {
			dph = json_incref(json_object_get(o, "dph_total"));
		}
		if (dph) {
			tb_member(&b, more, "dph_total", dph);
			more = true;
			json_decref(dph);
		}
		json_t *isb = sp.bid ? json_true() : json_incref(json_object_get(o, "is_bid"));
		if (isb) {
			tb_member(&b, more, "is_bid", isb);
			json_decref(isb);
		}
		tb_put(&b, "}", 1);
	}
	tb_put(&b, "]}", 3); /* with the terminating NUL */
	free(hits);
	free(hidx);
	free(pos);
	json_decref(filters);
	c->rs->status = 200;
	c->rs->raw = b.p;
	c->rs->raw_len = b.n - 1;
	c->rs->content_type = "application/json";
}

static void h_search_post(struct ctx *c)
{
	search(c, c->body);
}

static void h_search_get(struct ctx *c)
{
	bool bad = false;
	json_t *q = query_json(c->rq->query, "q", &bad);
	if (bad || (q && !json_is_object(q))) {
		json_decref(q);
		routes_error(c->rs, 400, "invalid_args", "q must be a JSON object");
		return;
	}
	search(c, q ? q : c->body);
	json_decref(q);
}

static void h_search_asks(struct ctx *c)
{
	json_t *q = json_object_get(c->body, "q");
	search(c, json_is_object(q) ? q : c->body);
}

static void h_gpu_names(struct ctx *c)
{
	json_t *seen = json_object();
	size_t i;
	json_t *o;
	json_array_foreach(c->w->offers, i, o) {
		const char *g = jstr(o, "gpu_name");
		if (g)
			json_object_set_new(seen, g, json_true());
	}
	json_t *names = json_array();
	const char *k;
	json_t *v;
	json_object_foreach(seen, k, v)
		json_array_append_new(names, json_string(k));
	json_decref(seen);
	struct sort_key none[1];
	(void)none;
	/* sorted by name */
	size_t n = json_array_size(names);
	for (size_t a = 1; a < n; a++)
		for (size_t b2 = a; b2 > 0 && strcmp(json_string_value(json_array_get(names, b2 - 1)),
						       json_string_value(json_array_get(names, b2))) > 0; b2--) {
			json_t *x = json_incref(json_array_get(names, b2 - 1));
			json_array_set(names, b2 - 1, json_array_get(names, b2));
			json_array_set_new(names, b2, x);
		}
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "gpu_names", names));
}

/* ---- account ----------------------------------------------------------- */

static void h_user(struct ctx *c)
{
	json_t *u = json_copy(c->w->user);
	json_object_set_new(u, "tfa_status", json_string(tfa_status_string(c->w->tfa)));
	json_object_set_new(u, "tfa_enabled", json_boolean(tfa_is_enabled(c->w->tfa)));
	json_object_set_new(u, "api_key", json_string(c->rq->bearer ? c->rq->bearer : ""));
	reply(c->rs, 200, u);
}

static void h_secrets_get(struct ctx *c)
{
	json_t *m = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(c->w->secrets, k, v)
		json_object_set_new(m, k, json_string("*****"));
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "secrets", m));
}

static void h_secrets_set(struct ctx *c)
{
	const char *m = c->rq->method;
	const char *key = jstr(c->body, "key");
	json_t *val = json_object_get(c->body, "value");
	bool del = !strcmp(m, "DELETE");
	if (!key || !*key || (!del && !json_is_string(val))) {
		routes_error(c->rs, 400, "missing_input", del ? "key is required" : "key and value are required");
		return;
	}
	bool exists = json_object_get(c->w->secrets, key) != NULL;
	if (!del)
		world_issue(c->w, json_string_value(val)); /* even when refused: it was sent */
	if (!strcmp(m, "POST")) {
		if (exists) {
			errorf(c->rs, 400, "existing_key", "Environment variable %s already exists", key);
			return;
		}
		if (json_object_size(c->w->secrets) >= MAX_SECRETS) {
			routes_error(c->rs, 400, "max_secrets", "Too many environment variables (100)");
			return;
		}
		json_object_set(c->w->secrets, key, val);
		ok_msg(c->rs, "Environment variable added.");
		return;
	}
	if (!exists) {
		errorf(c->rs, 400, "nonexistent_key", "Environment variable %s does not exist", key);
		return;
	}
	if (del) {
		json_object_del(c->w->secrets, key);
		ok_msg(c->rs, "Environment variable deleted.");
	} else {
		json_object_set(c->w->secrets, key, val);
		ok_msg(c->rs, "Environment variable updated.");
	}
}

static json_t *apikey_public(json_t *k)
{
	json_t *o = json_copy(k);
	json_object_del(o, "key");
	return o;
}

static void h_apikeys_get(struct ctx *c)
{
	json_t *arr = json_array();
	size_t i;
	json_t *k;
	json_array_foreach(c->w->apikeys, i, k)
		json_array_append_new(arr, apikey_public(k));
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "apikeys", arr));
}

static void h_apikeys_post(struct ctx *c)
{
	json_t *perm = json_object_get(c->body, "permissions");
	if (perm && !json_is_object(perm) && !json_is_null(perm)) {
		routes_error(c->rs, 400, "invalid_args", "permissions must be an object");
		return;
	}
	char key[128];
	world_make_key(c->w, key, sizeof key, "");
	const char *name = jstr(c->body, "name");
	long id = c->w->next_apikey_id++;
	json_array_append_new(c->w->apikeys,
			      json_pack("{s:I,s:I,s:O,s:n,s:s,s:f,s:s,s:O}", "id", (json_int_t)id, "user_id",
					(json_int_t)USER_ID, "rights", perm ? perm : json_null(), "team_id", "name",
					name ? name : "", "created_at", c->rq->now, "key", key, "key_params",
					json_object_get(c->body, "key_params") ? json_object_get(c->body, "key_params")
										: json_null()));
	reply(c->rs, 200, json_pack("{s:b,s:I,s:s,s:O}", "success", 1, "id", (json_int_t)id, "key", key,
				    "permissions", perm ? perm : json_null()));
}

/* GET /api/v0/auth/apikeys/{id}/ ("show api key"): the key itself, a bare
 * JSON string, as the service's documentation shows it. */
static void h_apikey_show(struct ctx *c)
{
	size_t i;
	json_t *k;
	json_array_foreach(c->w->apikeys, i, k) {
		if (c->id >= 0 && json_integer_value(json_object_get(k, "id")) == c->id) {
			reply(c->rs, 200, json_string(jstr(k, "key") ? jstr(k, "key") : ""));
			return;
		}
	}
	routes_error(c->rs, 404, "not_found", "API key not found");
}

static void h_apikeys_delete(struct ctx *c)
{
	size_t i;
	json_t *k;
	json_array_foreach(c->w->apikeys, i, k) {
		if (json_integer_value(json_object_get(k, "id")) == c->id && c->id >= 0) {
			json_array_remove(c->w->apikeys, i);
			reply(c->rs, 200, json_string("Successfully Deleted API Key"));
			return;
		}
	}
	routes_error(c->rs, 404, "not_found", "API key not found");
}

static void sync_user_ssh(struct world *w)
{
	json_t *last = json_array_get(w->ssh_keys, json_array_size(w->ssh_keys) - 1);
	json_object_set_new(w->user, "ssh_key", json_string(last ? jstr(last, "public_key") : ""));
}

static void h_ssh_get(struct ctx *c)
{
	reply(c->rs, 200, json_deep_copy(c->w->ssh_keys));
}

static void h_ssh_post(struct ctx *c)
{
	const char *k = jstr(c->body, "ssh_key");
	if (!k || !*k) {
		routes_error(c->rs, 400, "missing_input", "ssh_key is required");
		return;
	}
	if (strncmp(k, "ssh-", 4) && strncmp(k, "ecdsa-", 6) && strncmp(k, "sk-", 3)) {
		routes_error(c->rs, 400, "invalid_args", "Not an OpenSSH public key");
		return;
	}
	json_t *o = json_pack("{s:I,s:I,s:s,s:s,s:f}", "id", (json_int_t)c->w->next_ssh_id++, "user_id",
			      (json_int_t)USER_ID, "public_key", k, "key", k, "created_at", c->rq->now);
	json_array_append(c->w->ssh_keys, o);
	sync_user_ssh(c->w);
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "key", o));
}

static void h_ssh_delete(struct ctx *c)
{
	size_t i;
	json_t *k;
	json_array_foreach(c->w->ssh_keys, i, k) {
		if (c->id >= 0 && json_integer_value(json_object_get(k, "id")) == c->id) {
			json_array_remove(c->w->ssh_keys, i);
			sync_user_ssh(c->w);
			ok_msg(c->rs, "SSH key removed.");
			return;
		}
	}
	routes_error(c->rs, 404, "not_found", "SSH key not found");
}

static json_t *role_find(struct world *w, const char *seg, size_t *idx)
{
	size_t i;
	json_t *r;
	json_array_foreach(w->roles, i, r) {
		char ids[32];
		snprintf(ids, sizeof ids, "%lld", (long long)json_integer_value(json_object_get(r, "id")));
		if (seg && (!strcmp(seg, ids) || (jstr(r, "name") && !strcmp(seg, jstr(r, "name"))))) {
			if (idx)
				*idx = i;
			return r;
		}
	}
	return NULL;
}

static void msg_only(struct sim_resp *rs, int status, const char *msg)
{
	reply(rs, status, status == 200 ? json_pack("{s:s}", "msg", msg) : json_pack("{s:b,s:s}", "success", 0, "msg", msg));
}

static void h_roles_post(struct ctx *c)
{
	json_t *perm = json_object_get(c->body, "permissions");
	const char *name = jstr(c->body, "name");
	if (!perm || json_is_null(perm))
		msg_only(c->rs, 400, "Missing permissions parameter");
	else if (!name || !*name)
		msg_only(c->rs, 400, "Missing name parameter");
	else if (!json_is_object(perm))
		msg_only(c->rs, 400, "permissions must be an object");
	else if (role_find(c->w, name, NULL))
		msg_only(c->rs, 400, "Role already exists");
	else {
		json_array_append_new(c->w->roles, json_pack("{s:I,s:s,s:O,s:I}", "id", (json_int_t)c->w->next_role_id++,
							     "name", name, "permissions", perm, "team_id", (json_int_t)0));
		msg_only(c->rs, 200, "success");
	}
}

static void h_roles_full(struct ctx *c)
{
	reply(c->rs, 200, json_deep_copy(c->w->roles));
}

static void h_role(struct ctx *c)
{
	size_t idx;
	json_t *r = role_find(c->w, c->seg, &idx);
	if (!r) {
		msg_only(c->rs, 404, "Role not found");
		return;
	}
	const char *m = c->rq->method;
	if (!strcmp(m, "GET")) {
		reply(c->rs, 200, json_deep_copy(r));
	} else if (!strcmp(m, "DELETE")) {
		json_array_remove(c->w->roles, idx);
		/* the docs' {status, message}; the default dialect keeps
		 * success and msg too */
		json_t *o = json_pack("{s:s,s:s}", "status", "success", "message", "Role removed from team");
		if (!c->w->opt.live)
			json_object_update_new(o, json_pack("{s:b,s:s}", "success", 1, "msg", "Role deleted"));
		reply(c->rs, 200, o);
	} else {
		json_t *perm = json_object_get(c->body, "permissions");
		const char *name = jstr(c->body, "name");
		if (perm && !json_is_object(perm)) {
			msg_only(c->rs, 400, "permissions must be an object");
			return;
		}
		if (perm)
			json_object_set(r, "permissions", perm);
		if (name && *name)
			json_object_set_new(r, "name", json_string(name));
		msg_only(c->rs, 200, "success");
	}
}

/* GET /api/v0/machines/{id}/reports/: a bare array, derived from the id. */
static void h_reports(struct ctx *c)
{
	static const struct {
		const char *problem, *message;
	} kinds[] = {
		{ "gpu_error", "GPU fell off the bus (Xid 79) during a job" },
		{ "network", "Download speed far below the advertised inet_down" },
		{ "disk_failure", "I/O errors on the container volume" },
		{ "performance", "Throughput about half of what this GPU should give" },
	};
	json_t *arr = json_array();
	uint64_t h = (uint64_t)(c->id < 0 ? 0 : c->id) * 0x9e3779b97f4a7c15ULL ^ c->w->opt.seed;
	int n = (int)((h >> 17) % 4);
	for (int i = 0; i < n; i++) {
		time_t t = (time_t)(c->rq->now - 86400.0 * (double)(3 + i * 11 + (int)((h >> (8 + i)) % 7)));
		char ts[32];
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
		size_t k = (size_t)((h >> (3 * i)) % 4);
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s}", "problem", kinds[k].problem, "message",
						     kinds[k].message, "created_at", ts));
	}
	reply(c->rs, 200, arr);
}

/* ---- templates --------------------------------------------------------- */

static json_t *template_public(json_t *t)
{
	json_t *o = json_copy(t);
	json_object_del(o, "_version");
	return o;
}

static void h_template_get(struct ctx *c)
{
	bool bad = false;
	json_t *f = query_json(c->rq->query, "select_filters", &bad);
	char err[256];
	if (bad || !filter_valid(f, err, sizeof err)) {
		if (bad)
			snprintf(err, sizeof err, "select_filters must be JSON");
		json_decref(f);
		routes_error(c->rs, 400, "invalid_args", err);
		return;
	}
	json_t *arr = json_array();
	size_t i;
	json_t *t;
	json_array_foreach(c->w->templates, i, t)
		if (filter_match(t, f, NULL))
			json_array_append_new(arr, template_public(t));
	json_decref(f);
	reply(c->rs, 200, json_pack("{s:b,s:I,s:o}", "success", 1, "templates_found", (json_int_t)json_array_size(arr),
				    "templates", arr));
}

static const char *const tpl_fields[] = { "name", "image", "tag", "desc", "readme", "env", "onstart", "runtype",
					  "args_str", "ssh_direct", "use_ssh", "jup_direct", "jupyter_dir",
					  "use_jupyter_lab", "docker_login_repo", "docker_login_user",
					  "docker_login_pass", "href", "repo", "extra_filters",
					  "recommended_disk_space", "private", "volume_info", NULL };

/* The type a template field must have in a create or edit body. */
static bool tpl_field_ok(const char *k, const json_t *v, char *why, size_t n)
{
	static const char *const bools[] = { "ssh_direct", "use_ssh", "jup_direct", "use_jupyter_lab",
					     "private", NULL };
	for (size_t i = 0; bools[i]; i++)
		if (!strcmp(k, bools[i])) {
			if (json_is_boolean(v))
				return true;
			snprintf(why, n, "%s must be true or false", k);
			return false;
		}
	if (!strcmp(k, "recommended_disk_space")) {
		double d;
		if (jnum_value(v, &d) && d >= 0 && d <= 1e6)
			return true;
		snprintf(why, n, "recommended_disk_space must be a size in GB");
		return false;
	}
	if (!strcmp(k, "extra_filters") || !strcmp(k, "volume_info")) {
		if (json_is_object(v) || json_is_null(v))
			return true;
		snprintf(why, n, "%s must be an object", k);
		return false;
	}
	if (!strcmp(k, "env")) {
		if (json_is_string(v) || json_is_null(v))
			return true;
		snprintf(why, n, "env must be a string in -e/-p flag format");
		return false;
	}
	if (!json_is_string(v)) {
		snprintf(why, n, "%s must be a string", k);
		return false;
	}
	if ((!strcmp(k, "name") || !strcmp(k, "image")) && !*json_string_value(v)) {
		snprintf(why, n, "%s must not be empty", k);
		return false;
	}
	if (!strcmp(k, "runtype")) {
		const char *r = json_string_value(v);
		if (strcmp(r, "ssh") && strcmp(r, "jupyter") && strcmp(r, "args")) {
			snprintf(why, n, "runtype must be ssh, jupyter or args");
			return false;
		}
	}
	return true;
}

/* Check every field of the body first, then set them on t (nothing is
 * changed when one is refused). */
static bool template_apply(struct ctx *c, json_t *t)
{
	char why[160];
	for (size_t i = 0; tpl_fields[i]; i++) {
		json_t *v = json_object_get(c->body, tpl_fields[i]);
		if (v && !tpl_field_ok(tpl_fields[i], v, why, sizeof why)) {
			routes_error(c->rs, 400, "invalid_args", why);
			return false;
		}
	}
	for (size_t i = 0; tpl_fields[i]; i++) {
		json_t *v = json_object_get(c->body, tpl_fields[i]);
		if (v)
			json_object_set(t, tpl_fields[i], v);
	}
	json_t *tag = json_object_get(t, "tag");
	json_object_set(t, "default_tag", tag);
	return true;
}

/* Only the creator edits or deletes a template (403 otherwise). */
static bool template_owned(struct ctx *c, const json_t *t)
{
	if (json_integer_value(json_object_get(t, "creator_id")) == USER_ID)
		return true;
	routes_error(c->rs, 403, "forbidden", "Only the template's creator can change it");
	return false;
}

static void h_template_post(struct ctx *c)
{
	/* SPEC.md requires the three registry fields ("" if unused); the docs
	 * only name and image */
	static const char *const req[] = { "name", "image", "docker_login_repo", "docker_login_user",
					   "docker_login_pass" };
	for (size_t i = 0; i < (c->w->opt.live ? 2 : sizeof req / sizeof *req); i++)
		if (!json_is_string(json_object_get(c->body, req[i]))) {
			errorf(c->rs, 400, "missing_input", "Missing required field: %s", req[i]);
			return;
		}
	json_t *t = json_pack("{s:I,s:s,s:s,s:f,s:b,s:b,s:b,s:b,s:b,s:I,s:f,s:I,s:f,s:s,s:s,s:s,s:s}",
			      "id", (json_int_t)c->w->next_template_id++, "tag", "latest", "runtype", "args",
			      "recommended_disk_space", 8.0, "private", false, "recommended", false,
			      "ssh_direct", false, "use_ssh", false, "jup_direct", false,
			      "creator_id", (json_int_t)USER_ID, "created_at", c->rq->now, "count_created", (json_int_t)0,
			      "recent_create_date", c->rq->now, "env", "", "onstart", "", "desc", "", "default_tag", "latest");
	json_object_update_new(t, json_pack("{s:s,s:s,s:s}", "docker_login_repo", "", "docker_login_user", "",
					    "docker_login_pass", ""));
	json_object_set_new(t, "_version", json_integer(0));
	if (!template_apply(c, t)) {
		json_decref(t);
		return;
	}
	world_template_rehash(t);
	json_array_append(c->w->templates, t);
	char msg[96];
	snprintf(msg, sizeof msg, "Template Created Successfully! New Template ID: %lld",
		 (long long)json_integer_value(json_object_get(t, "id")));
	reply(c->rs, 200, json_pack("{s:b,s:s,s:o}", "success", 1, "msg", msg, "template", template_public(t)));
	json_decref(t);
}

static void h_template_put(struct ctx *c)
{
	const char *h = jstr(c->body, "hash_id");
	if (!h) {
		routes_error(c->rs, 400, "missing_input", "hash_id is required");
		return;
	}
	json_t *t = template_by_hash(c->w, h);
	if (!t) {
		errorf(c->rs, 404, "not_found", "No template with hash_id %s", h);
		return;
	}
	if (!template_owned(c, t) || !template_apply(c, t))
		return;
	json_object_set_new(t, "_version", json_integer(json_integer_value(json_object_get(t, "_version")) + 1));
	world_template_rehash(t);
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "template", template_public(t)));
}

static void h_template_delete(struct ctx *c)
{
	double id;
	if (!jnum_value(json_object_get(c->body, "template_id"), &id)) {
		routes_error(c->rs, 400, "missing_input", "template_id (the numeric id) is required");
		return;
	}
	size_t i;
	json_t *t;
	json_array_foreach(c->w->templates, i, t) {
		if ((double)json_integer_value(json_object_get(t, "id")) == id) {
			if (!template_owned(c, t))
				return;
			json_array_remove(c->w->templates, i);
			ok_msg(c->rs, "Template deleted.");
			return;
		}
	}
	routes_error(c->rs, 404, "not_found", "No template with that id");
}

/* ---- serverless -------------------------------------------------------- */

static json_t *find_by_id(json_t *arr, long id, size_t *idx)
{
	size_t i;
	json_t *o;
	json_array_foreach(arr, i, o)
		if (json_integer_value(json_object_get(o, "id")) == id) {
			if (idx)
				*idx = i;
			return o;
		}
	return NULL;
}

/* A workergroup's search_query, a query-language string ("gpu_ram>=24
 * verified=true"), as the parsed filters object the docs type it as
 * (show_autogroup.yaml), encoded as the CLI's parse_query sends a search:
 * ops = == != < <= > >=; true/false/null literals; GB fields x1000 to MB and
 * duration days x86400 as numbers, other numbers as strings; underscores
 * in text become spaces.  NULL when a term does not parse. */
static json_t *query_object(const char *q)
{
	static const struct {
		const char *text, *op;
	} ops[] = { { ">=", "gte" }, { "<=", "lte" }, { "!=", "neq" }, { "==", "eq" },
		    { ">", "gt" },   { "<", "lt" },   { "=", "eq" } };
	json_t *o = json_object();
	char *dup = strdup(q ? q : "");
	char *save = NULL;
	bool ok = dup != NULL;
	for (char *t = ok ? strtok_r(dup, " ", &save) : NULL; t && ok; t = strtok_r(NULL, " ", &save)) {
		size_t fl = strcspn(t, "<>=!");
		const char *op = NULL, *v = NULL;
		for (size_t i = 0; i < sizeof ops / sizeof *ops && !op; i++)
			if (!strncmp(t + fl, ops[i].text, strlen(ops[i].text))) {
				op = ops[i].op;
				v = t + fl + strlen(ops[i].text);
			}
		if (!fl || !op || !*v) {
			ok = false;
			break;
		}
		t[fl] = '\0';
		json_t *val;
		char *end;
		double d = strtod(v, &end);
		double mult = !strcmp(t, "gpu_ram") || !strcmp(t, "cpu_ram") || !strcmp(t, "gpu_total_ram") ? 1000
			      : !strcmp(t, "duration") ? 86400 : 0;
		if (!strcmp(v, "true") || !strcmp(v, "True"))
			val = json_true();
		else if (!strcmp(v, "false") || !strcmp(v, "False"))
			val = json_false();
		else if (!strcmp(v, "null") || !strcmp(v, "None"))
			val = json_null();
		else if (*end == '\0' && mult > 0)
			val = json_real(d * mult);
		else {
			char *sv = strdup(v);
			for (char *u = sv; sv && *u; u++)
				if (*u == '_')
					*u = ' ';
			val = json_string(sv ? sv : v);
			free(sv);
		}
		json_t *cond = json_object_get(o, t);
		if (!cond) {
			cond = json_object();
			json_object_set_new(o, t, cond);
		}
		json_object_set_new(cond, op, val);
	}
	free(dup);
	if (!ok || !json_object_size(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static void h_wg_get(struct ctx *c)
{
	json_t *arr = json_array();
	size_t i;
	json_t *g;
	json_array_foreach(c->w->workergroups, i, g) {
		json_t *o = json_copy(g);
		json_object_del(o, WORKERS_IDS); /* the simulator's own */
		double ph = c->rq->now / 45.0 + (double)i;
		double load = round_to(jnum(g, "min_load", 10) * (1.2 + 0.8 * sin(ph)), 0.01);
		json_object_set_new(o, "cur_load", json_real(load));
		json_object_set_new(o, "cur_workers", json_integer(1 + (long)(2.5 + 2.5 * sin(ph * 0.7))));
		json_object_set_new(o, "perf", json_real(round_to(30 + 10 * cos(ph), 0.1)));
		json_t *qo = c->w->opt.live ? query_object(jstr(g, "search_query")) : NULL;
		if (qo) /* live: the docs' object form */
			json_object_set_new(o, "search_query", qo);
		json_array_append_new(arr, o);
	}
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "results", arr));
}

static const char *const wg_fields[] = { "min_load", "target_util", "cold_mult", "test_workers", "template_hash",
					 "template_id", "search_query", "launch_args", "gpu_ram", "endpoint_name",
					 "endpoint_id", "cold_workers", "max_workers", NULL };

/* The fields src gives a value: a null is "not set" (the CLI sends every
 * field of an update, null for those not given) and changes nothing. */
static void copy_fields(json_t *dst, json_t *src, const char *const *fields)
{
	for (size_t i = 0; fields[i]; i++) {
		json_t *v = json_object_get(src, fields[i]);
		if (v && !json_is_null(v))
			json_object_set(dst, fields[i], v);
	}
}

static void h_wg_post(struct ctx *c)
{
	json_t *ep = NULL;
	double eid;
	if (jnum_value(json_object_get(c->body, "endpoint_id"), &eid))
		ep = world_endpoint_by_id(c->w, (long)eid);
	else if (jstr(c->body, "endpoint_name"))
		ep = world_endpoint_by_name(c->w, jstr(c->body, "endpoint_name"));
	if (!ep) {
		routes_error(c->rs, 400, "invalid_args", "endpoint_id or endpoint_name of an existing endpoint is required");
		return;
	}
	time_t t = (time_t)c->rq->now;
	char ts[32];
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	long id = c->w->next_wg_id++;
	json_t *g = json_pack("{s:I,s:f,s:f,s:f,s:i,s:s,s:n,s:s,s:s,s:f,s:O,s:O,s:s,s:s,s:I}", "id", (json_int_t)id,
			      "min_load", 0.0, "target_util", 0.9, "cold_mult", 2.5, "test_workers", 3, "template_hash", "",
			      "template_id", "search_query", "", "launch_args", "", "gpu_ram", 24.0, "endpoint_name",
			      json_object_get(ep, "endpoint_name"), "endpoint_id", json_object_get(ep, "id"), "api_key",
			      "<API_KEY>", "created_at", ts, "user_id", (json_int_t)USER_ID);
	copy_fields(g, c->body, wg_fields);
	if (jstr(c->body, "search_params"))
		json_object_set(g, "search_query", json_object_get(c->body, "search_params"));
	json_object_set(g, "endpoint_name", json_object_get(ep, "endpoint_name"));
	json_object_set(g, "endpoint_id", json_object_get(ep, "id"));
	json_array_append_new(c->w->workergroups, g);
	workers_sync(c->w, c->rq->now); /* it launches the endpoint's workers, if it is its first */
	reply(c->rs, 200, json_pack("{s:b,s:I}", "success", 1, "id", (json_int_t)id));
}

static void h_wg_one(struct ctx *c)
{
	size_t idx;
	json_t *g = c->id >= 0 ? find_by_id(c->w->workergroups, c->id, &idx) : NULL;
	if (!g) {
		errorf(c->rs, 404, "no_such_workergroup", "Workergroup %s not found", c->seg ? c->seg : "");
		return;
	}
	if (!strcmp(c->rq->method, "DELETE")) {
		workers_drop(c->w, g); /* the workers it launched go with it */
		json_array_remove(c->w->workergroups, idx);
		workers_sync(c->w, c->rq->now);
	} else {
		copy_fields(g, c->body, wg_fields);
		/* the CLI sends the offer query as search_params */
		if (jstr(c->body, "search_params"))
			json_object_set(g, "search_query", json_object_get(c->body, "search_params"));
	}
	ok(c->rs);
}

/* A worker's state in the live dialect, over its lifecycle: a cycle of
 * WORKER_CYCLE s (at --speed 1) through the documented states (docs
 * guides/serverless/worker-states): created, pulled, model loaded, ready
 * (IDLE), updated and rebooted, stopped and started again; every third
 * worker is destroyed and replaced at the end of its cycle.  Worker 0 of an
 * endpoint stays ready (IDLE) so that a healthy endpoint always has one. */
#define WORKER_CYCLE 900.0
static const char *live_worker_state(long eid, long i, double now, double speed)
{
	static const struct {
		double until; /* s into the cycle */
		const char *state;
	} cycle[] = {
		{ 15, "CREATING" },  { 60, "LOADING" },   { 90, "MODEL_LOADING" }, { 600, "IDLE" },
		{ 615, "UPDATING" }, { 630, "REBOOTING" }, { 645, "STARTING" },     { 840, "IDLE" },
		{ 855, "STOPPING" }, { 885, "STOPPED" },  { 900, "STARTING" },
	};
	if (i == 0)
		return "IDLE";
	double t = fmod(now * speed + (double)i * 211.0 + (double)eid * 97.0, WORKER_CYCLE);
	if (i % 3 == 2 && t >= 855) /* destroyed and replaced */
		return t < 870 ? "DESTROYING" : "CREATING";
	for (size_t k = 0; k < sizeof cycle / sizeof *cycle; k++)
		if (t < cycle[k].until)
			return cycle[k].state;
	return "IDLE";
}

/* The workers of an endpoint (get_endpoint_workers), by its sim_workers
 * mode: "mixed" (default), "idle" (every worker ready), "error" (every
 * worker in ERROR), "loading" (none ready), "none" (no worker).  The
 * default dialect's mixed statuses are RUNNING, IDLE, LOADING, ERROR; the
 * live dialect's follow live_worker_state.  A stopped endpoint has none
 * (live: its workers are STOPPED).  Each is an instance of the account
 * (workers.h): its row's id is the instance's. */
static json_t *ep_workers(struct ctx *c, json_t *ep)
{
	static const char *const st[] = { "RUNNING", "RUNNING", "IDLE", "LOADING", "RUNNING", "ERROR" };
	static const char *const live_loading[] = { "CREATING", "LOADING", "MODEL_LOADING" };
	bool live = c->w->opt.live;
	const char *mode = jstr(ep, "sim_workers") ? jstr(ep, "sim_workers") : "mixed";
	workers_sync(c->w, c->rq->now);
	const json_t *ids = workers_ids(c->w, ep); /* the workers' instances */
	long n = (long)json_array_size(ids);
	bool stopped = !strcmp(jstr(ep, "endpoint_state") ? jstr(ep, "endpoint_state") : "", "stopped");
	if (stopped && !live)
		n = 0;
	json_t *arr = json_array();
	long eid = (long)json_integer_value(json_object_get(ep, "id"));
	for (long i = 0; i < n; i++) {
		const char *s;
		if (!strcmp(mode, "error"))
			s = "ERROR";
		else if (!strcmp(mode, "idle"))
			s = "IDLE";
		else if (stopped)
			s = "STOPPED";
		else if (!strcmp(mode, "loading"))
			s = live ? live_loading[i % 3] : "LOADING";
		else
			s = live ? live_worker_state(eid, i, c->rq->now, c->w->opt.speed) : st[(eid + i) % 6];
		if (i > 0 && workers_updating(ep, c->rq->now) && (!strcmp(s, "IDLE") || !strcmp(s, "RUNNING")))
			s = "UPDATING"; /* a rolling update (update_workers) */
		struct inst *in = world_find(c->w, (long)json_integer_value(json_array_get(ids, (size_t)i)));
		if (!in)
			continue;
		/* the docs' "Worker instance ID": the instance's own id */
		json_t *wk = json_pack("{s:I,s:s}", "id", (json_int_t)in->id, "status", s);
		workers_fields(wk, eid, i, in, c->rq->now, c->w->opt.speed);
		json_array_append_new(arr, wk);
	}
	return arr;
}

static void h_ep_get(struct ctx *c)
{
	json_t *arr = json_array();
	size_t i;
	json_t *e;
	json_array_foreach(c->w->endpoints, i, e) {
		json_t *o = json_copy(e);
		json_object_del(o, "sim_workers"); /* the simulator's own knob */
		json_object_del(o, "sim_update_until");
		json_object_del(o, "sim_workers_stopped");
		json_array_append_new(arr, o);
	}
	reply(c->rs, 200, json_pack("{s:b,s:o}", "success", 1, "results", arr));
}

static const char *const ep_fields[] = { "endpoint_name", "endpoint_state", "min_load", "target_util", "cold_mult",
					 "cold_workers", "max_workers", "min_cold_load", "max_queue_time",
					 "target_queue_time", "inactivity_timeout", NULL };

/* The numeric autoscaler fields a POST or PUT gives: numbers >= 0 (nulls
 * change nothing), target_util at most 1, worker counts whole; false (and
 * rs filled) otherwise. */
static bool ep_numbers_ok(struct ctx *c)
{
	static const char *const num[] = { "min_load", "target_util", "cold_mult", "cold_workers", "max_workers",
					   "min_cold_load", "max_queue_time", "target_queue_time",
					   "inactivity_timeout", NULL };
	for (size_t i = 0; num[i]; i++) {
		json_t *v = json_object_get(c->body, num[i]);
		double d = 0;
		if (!v || json_is_null(v))
			continue;
		bool whole = !strcmp(num[i], "cold_workers") || !strcmp(num[i], "max_workers");
		if (!json_is_number(v) || (d = json_number_value(v)) < 0 || !isfinite(d) ||
		    (!strcmp(num[i], "target_util") && d > 1) || (whole && d != floor(d))) {
			errorf(c->rs, 400, "invalid_args", "%s must be a %s", num[i],
			       whole ? "whole number >= 0" : !strcmp(num[i], "target_util") ? "fraction up to 1.0"
											: "number >= 0");
			return false;
		}
	}
	return true;
}

static void h_ep_post(struct ctx *c)
{
	const char *name = jstr(c->body, "endpoint_name");
	if (!name || !*name) {
		routes_error(c->rs, 400, "missing_input", "endpoint_name is required");
		return;
	}
	if (!ep_numbers_ok(c))
		return;
	char key[80];
	world_make_key(c->w, key, sizeof key, "ep_");
	long id = c->w->next_endpoint_id++;
	json_t *e = json_pack("{s:I,s:s,s:s,s:f,s:f,s:f,s:i,s:i,s:s,s:I,s:f}", "id", (json_int_t)id, "endpoint_name",
			      name, "endpoint_state", "active", "min_load", 10.0, "target_util", 0.9, "cold_mult", 2.5,
			      "cold_workers", 1, "max_workers", 4, "api_key", key, "user_id", (json_int_t)USER_ID,
			      "created_at", c->rq->now);
	/* the CLI's defaults for the fields a request may leave out */
	json_object_set_new(e, "min_cold_load", json_real(0));
	json_object_set_new(e, "max_queue_time", json_real(30));
	json_object_set_new(e, "target_queue_time", json_real(10));
	json_object_set_new(e, "inactivity_timeout", json_null());
	copy_fields(e, c->body, ep_fields);
	json_array_append_new(c->w->endpoints, e);
	world_eplog_append(c->w, id, "endpoint created");
	/* the docs' {success, result}; the default dialect keeps "id" too */
	json_t *r = json_pack("{s:b,s:I}", "success", 1, "result", (json_int_t)id);
	if (!c->w->opt.live)
		json_object_set_new(r, "id", json_integer(id));
	reply(c->rs, 200, r);
}

static void h_ep_one(struct ctx *c)
{
	size_t idx;
	json_t *e = c->id >= 0 ? find_by_id(c->w->endpoints, c->id, &idx) : NULL;
	if (!e) {
		errorf(c->rs, 404, "no_such_endpoint", "Endpoint %s not found", c->seg ? c->seg : "");
		return;
	}
	if (!strcmp(c->rq->method, "DELETE")) {
		/* the docs' envelope: the workers destroyed with it; as the live
		 * service, the endpoint's workergroups go with it */
		long eid = (long)json_integer_value(json_object_get(e, "id"));
		workers_sync(c->w, c->rq->now);
		const json_t *wids = workers_ids(c->w, e);
		json_t *ids = wids ? json_deep_copy(wids) : json_array();
		for (size_t g = json_array_size(c->w->workergroups); g-- > 0;)
			if ((long)jnum(json_array_get(c->w->workergroups, g), "endpoint_id", -1) == eid) {
				workers_drop(c->w, json_array_get(c->w->workergroups, g)); /* its instances */
				json_array_remove(c->w->workergroups, g);
			}
		char msg[96];
		snprintf(msg, sizeof msg, "Deleted endpoint job and %zu workers", json_array_size(ids));
		json_array_remove(c->w->endpoints, idx);
		reply(c->rs, 200, json_pack("{s:b,s:o,s:[],s:s}", "success", 1, "deleted_workers", ids, "failed_workers",
					    "msg", msg));
		return;
	}
	const char *st = jstr(c->body, "endpoint_state");
	json_t *stj = json_object_get(c->body, "endpoint_state");
	if (stj && !json_is_null(stj) &&
	    (!st || (strcmp(st, "active") && strcmp(st, "suspended") && strcmp(st, "stopped")))) {
		routes_error(c->rs, 400, "invalid_args", "endpoint_state must be active, suspended or stopped");
		return;
	}
	if (!ep_numbers_ok(c))
		return;
	copy_fields(e, c->body, ep_fields);
	workers_sync(c->w, c->rq->now); /* as many workers as it now asks for, stopped with it */
	ok(c->rs);
}

/* The key in the body ("api_key"): the account's or the endpoint's own. */
static bool body_key_ok(struct ctx *c, json_t *ep)
{
	const char *bk = jstr(c->body, "api_key");
	if (!bk || !*bk)
		return false;
	if (ep && jstr(ep, "api_key") && !strcmp(bk, jstr(ep, "api_key")))
		return true;
	long dummy;
	enum sim_key_kind kk = routes_classify_key(c->w, bk, c->rq->now, &dummy);
	return kk == KEY_FULL || kk == KEY_READONLY || kk == KEY_SESSION;
}

/* Who may read an endpoint's logs: any account key (bearer), or the key in
 * the body (the account's or the endpoint's own). */
static bool run_auth(struct ctx *c, json_t *ep)
{
	enum sim_key_kind k = c->rq->key;
	return k == KEY_FULL || k == KEY_READONLY || k == KEY_SESSION || body_key_ok(c, ep);
}

/* Lines of text that contain needle, joined by '\n'. */
static json_t *grep_lines(const char *text, const char *needle)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out = malloc(cap);
	if (!out)
		abort();
	out[0] = '\0';
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, l);
		if (strstr(line, needle)) {
			if (len)
				out[len++] = '\n';
			memcpy(out + len, line, l);
			len += l;
			out[len] = '\0';
		}
		free(line);
		p += l + (nl ? 1 : 0);
	}
	json_t *j = json_string(out);
	free(out);
	return j;
}

static void bare(struct sim_resp *rs, int status, const char *text)
{
	reply(rs, status, json_string(text));
}

/* The last `tail` lines of an endpoint's log (malloc'd). */
static char *eplog_text(struct ctx *c, json_t *ep)
{
	double tail = jnum(c->body, "tail", 100);
	return world_eplog_tail(c->w, (long)json_integer_value(json_object_get(ep, "id")), c->rq->now, (long)tail);
}

/* The spec's and the docs' {"endpoint": name, "tail"} -> {"logs"}. */
static void eplogs_by_name(struct ctx *c, const char *name)
{
	json_t *ep = world_endpoint_by_name(c->w, name);
	if (c->w->logs_cli_only) {
		bare(c->rs, 404, "Not Found");
		return;
	}
	if (!run_auth(c, ep)) {
		bare(c->rs, 401, "Invalid API key");
		return;
	}
	if (!ep) {
		bare(c->rs, 404, "Endpoint not found");
		return;
	}
	char *text = eplog_text(c, ep);
	reply(c->rs, 200, json_pack("{s:s}", "logs", text));
	free(text);
}

/* POST {run_url}/get_endpoint_logs (SPEC.md, no slash): only the spec's
 * {"endpoint","tail"}. */
static void h_endpoint_logs_spec(struct ctx *c)
{
	const char *name = jstr(c->body, "endpoint");
	if (!name) {
		bare(c->rs, 400, "endpoint (the endpoint's name) is required");
		return;
	}
	eplogs_by_name(c, name);
}

/* POST {run_url}/get_endpoint_logs/ (the docs and the CLI): the CLI's
 * {"id","api_key","tail"} -> info0/info1/trace/debug, or the docs'
 * {"endpoint","tail"} -> logs.  Live, the CLI's form is authenticated by
 * the key in the body (the account's or the endpoint's), as the run server's
 * authenticate_endpoint_apikey does; the default dialect takes the Bearer
 * alone too. */
static void h_endpoint_logs_doc(struct ctx *c)
{
	const char *name = jstr(c->body, "endpoint");
	double idd;
	if (name) {
		eplogs_by_name(c, name);
		return;
	}
	if (!jnum_value(json_object_get(c->body, "id"), &idd)) {
		bare(c->rs, 400, "endpoint (name) or id is required");
		return;
	}
	json_t *ep = world_endpoint_by_id(c->w, (long)idd);
	bool authed = c->w->opt.live ? body_key_ok(c, ep) : run_auth(c, ep);
	if (!authed || (c->w->opt.live && !ep)) {
		char msg[160];
		snprintf(msg, sizeof msg, "authenticate_endpoint_apikey: invalid api_key or endpoint %ld not found", (long)idd);
		bare(c->rs, 401, msg);
		return;
	}
	if (!ep) {
		bare(c->rs, 404, "Endpoint not found");
		return;
	}
	char *text = eplog_text(c, ep);
	reply(c->rs, 200, json_pack("{s:s,s:o,s:o,s:o}", "info0", text, "info1", grep_lines(text, "autoscaler"),
				    "trace", grep_lines(text, "loaded model"), "debug", grep_lines(text, "health check")));
	free(text);
}

static void h_endpoint_workers(struct ctx *c)
{
	double idd;
	json_t *ep = jnum_value(json_object_get(c->body, "id"), &idd) ? world_endpoint_by_id(c->w, (long)idd) : NULL;
	if (!run_auth(c, ep)) {
		bare(c->rs, 401, "Invalid API key");
		return;
	}
	if (!ep) {
		bare(c->rs, 404, "Endpoint not found");
		return;
	}
	reply(c->rs, 200, ep_workers(c, ep));
}

/* ---- the route table ---------------------------------------------------- */

#define A SL_ANY
#define S SL_SLASH
#define B SL_BARE
#define N SL_NONE
static const struct route routes[] = {
	{ "GET", "/api/v1/instances", h_list_v1, RL_LIST, 0, A, S },
	{ "GET", "/api/v0/instances", h_list_v0, RL_LIST, 0, A, S },
	{ "PUT", "/api/v0/instances", h_bulk_state, RL_STATE, R_WRITE, A, S },
	{ "DELETE", "/api/v0/instances", h_bulk_destroy, RL_DESTROY, R_WRITE | R_TFA, A, S },
	{ "PUT", "/api/v0/instances/bid_price/{}", h_bid, RL_BID, R_WRITE, A, S },
	{ "PUT", "/api/v0/instances/prepay/{}", h_prepay, RL_PREPAY, R_WRITE, A, S },
	{ "PUT", "/api/v0/instances/reboot/{}", h_reboot, RL_STATE, R_WRITE, A, S },
	/* the docs write no slash, the CLI one */
	{ "PUT", "/api/v0/instances/request_logs/{}", h_request_logs, RL_NONE, 0, A, A },
	{ "GET", "/api/v0/instances/{}", h_show, RL_SHOW, 0, A, S },
	{ "PUT", "/api/v0/instances/{}", h_change, RL_STATE, R_WRITE | R_IKEY, A, S },
	{ "DELETE", "/api/v0/instances/{}", h_destroy, RL_DESTROY, R_WRITE | R_TFA | R_IKEY, A, S },
	{ "GET", "/instance_logs/{}", h_log_result, RL_NONE, R_NOAUTH, A, B },
	{ "PUT", "/api/v0/asks/{}", h_create, RL_CREATE, R_WRITE, A, S },
	{ "POST", "/api/v0/asks/{}", h_create, RL_CREATE, R_WRITE, A, N },
	{ "POST", "/api/v0/bundles", h_search_post, RL_SEARCH, R_NOAUTH, A, S },
	{ "GET", "/api/v0/bundles", h_search_get, RL_SEARCH, R_NOAUTH, A, N },
	{ "PUT", "/api/v0/search/asks", h_search_asks, RL_SEARCH, R_NOAUTH, A, S },
	{ "POST", "/api/v0/search/asks", h_search_asks, RL_SEARCH, R_NOAUTH, A, N },
	{ "GET", "/api/v0/gpu_names/unique", h_gpu_names, RL_NONE, R_NOAUTH, A, S },
	/* the docs write a slash, the CLI none */
	{ "GET", "/api/v0/users/current", h_user, RL_NONE, 0, A, A },
	{ "GET", "/api/v0/secrets", h_secrets_get, RL_SECRETS_GET, 0, A, S },
	{ "POST", "/api/v0/secrets", h_secrets_set, RL_SECRETS_SET, R_WRITE | R_TFA, A, S },
	{ "PUT", "/api/v0/secrets", h_secrets_set, RL_SECRETS_SET, R_WRITE | R_TFA, A, S },
	{ "DELETE", "/api/v0/secrets", h_secrets_set, RL_SECRETS_SET, R_WRITE | R_TFA, A, S },
	{ "GET", "/api/v0/auth/apikeys", h_apikeys_get, RL_APIKEYS, 0, A, S },
	{ "POST", "/api/v0/auth/apikeys", h_apikeys_post, RL_NONE, R_WRITE | R_TFA, A, S },
	{ "DELETE", "/api/v0/auth/apikeys/{}", h_apikeys_delete, RL_NONE, R_WRITE | R_TFA, A, S },
	/* a scoped key may not read keys */
	{ "GET", "/api/v0/auth/apikeys/{}", h_apikey_show, RL_APIKEYS, R_WRITE, A, S },
	{ "GET", "/api/v0/ssh", h_ssh_get, RL_NONE, 0, A, S },
	{ "POST", "/api/v0/ssh", h_ssh_post, RL_NONE, R_WRITE, A, S },
	{ "DELETE", "/api/v0/ssh/{}", h_ssh_delete, RL_NONE, R_WRITE, A, S },
	{ "POST", "/api/v0/team/roles", h_roles_post, RL_NONE, R_WRITE, A, S },
	{ "GET", "/api/v0/team/roles-full", h_roles_full, RL_NONE, 0, A, S },
	{ "GET", "/api/v0/team/roles/{}", h_role, RL_NONE, 0, A, S },
	{ "PUT", "/api/v0/team/roles/{}", h_role, RL_NONE, R_WRITE, A, S },
	/* the docs write no slash, the CLI one */
	{ "DELETE", "/api/v0/team/roles/{}", h_role, RL_NONE, R_WRITE, A, A },
	{ "GET", "/api/v0/machines/{}/reports", h_reports, RL_REPORTS, 0, A, S },
	{ "GET", "/api/v0/template", h_template_get, RL_TEMPLATE, 0, A, S },
	{ "POST", "/api/v0/template", h_template_post, RL_NONE, R_WRITE, A, S },
	{ "PUT", "/api/v0/template", h_template_put, RL_NONE, R_WRITE, A, S },
	{ "DELETE", "/api/v0/template", h_template_delete, RL_NONE, R_WRITE, A, S },
	{ "GET", "/api/v0/workergroups", h_wg_get, RL_WORKERGROUPS, 0, A, S },
	{ "GET", "/api/v0/autojobs", h_wg_get, RL_WORKERGROUPS, 0, A, S },
	{ "POST", "/api/v0/workergroups", h_wg_post, RL_NONE, R_WRITE, A, S },
	{ "POST", "/api/v0/autojobs", h_wg_post, RL_NONE, R_WRITE, A, S },
	{ "PUT", "/api/v0/workergroups/{}", h_wg_one, RL_NONE, R_WRITE, A, S },
	{ "DELETE", "/api/v0/workergroups/{}", h_wg_one, RL_NONE, R_WRITE, A, S },
	{ "PUT", "/api/v0/autojobs/{}", h_wg_one, RL_NONE, R_WRITE, A, S },
	{ "DELETE", "/api/v0/autojobs/{}", h_wg_one, RL_NONE, R_WRITE, A, S },
	{ "GET", "/api/v0/endptjobs", h_ep_get, RL_NONE, 0, A, S },
	{ "POST", "/api/v0/endptjobs", h_ep_post, RL_NONE, R_WRITE, A, S },
	{ "PUT", "/api/v0/endptjobs/{}", h_ep_one, RL_NONE, R_WRITE, A, S },
	{ "DELETE", "/api/v0/endptjobs/{}", h_ep_one, RL_NONE, R_WRITE, A, S },
	/* {run_url}: the spec's slashless form, and the documented one */
	{ "POST", "/get_endpoint_logs", h_endpoint_logs_spec, RL_NONE, R_NOAUTH, B, N },
	{ "POST", "/get_endpoint_logs", h_endpoint_logs_doc, RL_NONE, R_NOAUTH, S, S },
	{ "POST", "/get_endpoint_workers", h_endpoint_workers, RL_NONE, R_NOAUTH, S, S },
	{ NULL, NULL, NULL, RL_NONE, 0, N, N },
};
/* routes_billing first: its /api/v0/instances/<name>/ paths before {id} */
static const struct route *const tables[] = { routes_billing, routes_team, routes_workers, routes, routes_inst_ops,
					      routes_volumes };
#undef A
#undef S
#undef B
#undef N

/* Match path against a pattern, its trailing slash as sl allows; the {}
 * segment is copied to seg. */
static bool match(const char *pattern, const char *path, enum slash sl, char *seg, size_t segn)
{
	const char *p = pattern, *s = path;
	seg[0] = '\0';
	if (sl == SL_NONE)
		return false;
	while (*p) {
		if (p[0] == '{' && p[1] == '}') {
			const char *e = strchr(s, '/');
			size_t l = e ? (size_t)(e - s) : strlen(s);
			if (l == 0 || l >= segn)
				return false;
			memcpy(seg, s, l);
			seg[l] = '\0';
			s += l;
			p += 2;
			continue;
		}
		if (*p != *s)
			return false;
		p++;
		s++;
	}
	switch (sl) {
	case SL_ANY:
		return *s == '\0' || (s[0] == '/' && s[1] == '\0');
	case SL_SLASH:
		return s[0] == '/' && s[1] == '\0';
	case SL_BARE:
		return *s == '\0';
	case SL_NONE:
		break;
	}
	return false;
}

/* The live service's answer to a path it does not serve: its web server's
 * HTML 404 page, not a JSON envelope. */
static void live_not_found(struct sim_resp *rs)
{
	static const char page[] = "<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n"
				   "</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found "
				   "on this server.</p>\n</body>\n</html>\n";
	rs->status = 404;
	rs->raw = strdup(page);
	if (!rs->raw)
		abort();
	rs->raw_len = sizeof page - 1;
	rs->content_type = "text/html";
}

enum sim_key_kind routes_classify_key(struct world *w, const char *bearer, double now, long *inst_id)
{
	*inst_id = -1;
	if (!bearer)
		return KEY_NONE;
	if (!*bearer)
		return KEY_INVALID;
	size_t i;
	json_t *k;
	json_array_foreach(w->apikeys, i, k) {
		const char *kk = jstr(k, "key");
		if (!kk || strcmp(kk, bearer))
			continue;
		json_t *rights = json_object_get(k, "rights");
		json_t *api = json_object_get(rights, "api");
		if (json_is_object(rights) && !json_object_get(api ? api : rights, "instance_write"))
			return KEY_READONLY;
		return KEY_FULL;
	}
	for (size_t j = 0; j < w->ninst; j++)
		if (!strcmp(w->inst[j]->key, bearer)) {
			*inst_id = w->inst[j]->id;
			return KEY_INSTANCE;
		}
	switch (tfa_session_check(w->tfa, bearer, now)) {
	case TFA_SESSION_VALID:
		return KEY_SESSION;
	case TFA_SESSION_EXPIRED:
		return KEY_SESSION_EXPIRED;
	case TFA_SESSION_UNKNOWN:
		break;
	}
	return KEY_INVALID;
}

void routes_handle(struct world *w, struct rl *rl, const char *caller, double mono_now,
		   const struct sim_req *rq, struct sim_resp *rs)
{
	bool live = w->opt.live;
	if (!strncmp(rq->path, "/api/v0/tfa", 11) && (rq->path[11] == '/' || rq->path[11] == '\0')) {
		/* live: every 2FA path as the docs write it, with its slash */
		if (live && rq->path[strlen(rq->path) - 1] != '/') {
			live_not_found(rs);
			return;
		}
		if (tfa_handle(w->tfa, rq, rs))
			return;
	}
	char seg[256];
	const struct route *r = NULL;
	bool path_known = false;
	for (size_t t = 0; !r && t < sizeof tables / sizeof *tables; t++)
		for (const struct route *e = tables[t]; e->pattern; e++) {
			if (!match(e->pattern, rq->path, live ? e->live : e->spec, seg, sizeof seg))
				continue;
			path_known = true;
			if (!e->method || !strcmp(e->method, rq->method)) {
				r = e;
				break;
			}
		}
	if (!r && live && !path_known) {
		live_not_found(rs);
		return;
	}
	if (!r) {
		errorf(rs, path_known ? 405 : 404, path_known ? "method_not_allowed" : "not_found", "%s %s: %s",
		       rq->method, rq->path, path_known ? "method not allowed" : "no such endpoint");
		return;
	}
	struct ctx c = { .w = w, .rq = rq, .rs = rs, .seg = seg[0] ? seg : NULL, .id = -1 };
	if (c.seg) {
		char *end;
		long v = strtol(c.seg, &end, 10);
		if (end != c.seg && *end == '\0' && v >= 0)
			c.id = v;
	}
	if (!(r->flags & R_NOAUTH)) {
		switch (rq->key) {
		case KEY_NONE:
			routes_error(rs, 403, "not_logged_in", "This action requires login.");
			return;
		case KEY_INVALID:
			routes_error(rs, 401, "auth_error", "Invalid user key");
			return;
		case KEY_SESSION_EXPIRED:
			routes_error(rs, 404, "session_expired", "Session expired. Please log in again.");
			return;
		case KEY_INSTANCE:
			if (!(r->flags & R_IKEY) || c.id != rq->key_instance_id) {
				routes_error(rs, 401, "auth_error",
					     "This key may only start, stop or destroy its own instance");
				return;
			}
			break;
		case KEY_READONLY:
			if (r->flags & R_WRITE) {
				routes_error(rs, 401, "permission_denied",
					     "This API key does not have permission for this action (scoped key)");
				return;
			}
			break;
		case KEY_FULL:
		case KEY_SESSION:
			break;
		}
	}
	if (!(r->flags & R_NOAUTH) && json_is_true(json_object_get(w->user, "blacklisted"))) {
		routes_error(rs, 403, "user_blacklisted", "This account is blacklisted; contact support.");
		return;
	}
	if (rl && !rl_take(rl, r->rl, caller, mono_now)) {
		char msg[96];
		snprintf(msg, sizeof msg, "API requests too frequent endpoint threshold=%s", rl_threshold(r->rl));
		if (r->rl == RL_DESTROY || r->rl == RL_TEAM_MEMBER) /* the docs' envelope for these */
			reply(rs, 429, json_pack("{s:b,s:s,s:s}", "success", 0, "error", "rate_limit_exceeded", "msg", msg));
		else
			reply(rs, 429, json_pack("{s:s}", "detail", msg));
		return;
	}
	if ((r->flags & R_TFA) && tfa_blocks(&c))
		return;
	json_t *empty = NULL;
	if (json_is_object(rq->body))
		c.body = rq->body;
	else
		c.body = empty = json_object();
	r->fn(&c);
	if ((r->flags & R_WRITE) && rs->status < 400) /* the audit log: the writes served */
		acct_audit(w, rq, r->pattern);
	json_decref(empty);
}
