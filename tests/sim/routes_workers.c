/* routes_workers.c: workergroup logs and rolling updates on the run server
 * (routes_workers.h, routes_int.h).  Authentication as the endpoint logs' CLI form: the
 * default dialect takes an account key as Bearer or in the body; live
 * needs the account's key in the body ("api_key"), else 401 with a bare
 * string, as the docs write it. */
#include "routes_workers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "routes_int.h"
#include "workers.h"

#define WG_LOG_EVERY 10.0       /* s between a workergroup's log lines */
#define WG_LOG_MAX 10000        /* lines a request may ask for (the docs' default tail) */
#define UPDATE_SPAN 120.0       /* s at --speed 1 a rolling update takes */

static json_t *wg_by_id(struct world *w, long id)
{
	size_t i;
	json_t *g;
	json_array_foreach(w->workergroups, i, g)
		if ((long)jnum(g, "id", -1) == id)
			return g;
	return NULL;
}

static bool key_ok(struct ctx *c)
{
	long dummy;
	const char *bk = jstr(c->body, "api_key");
	enum sim_key_kind kk = bk ? routes_classify_key(c->w, bk, c->rq->now, &dummy) : KEY_NONE;
	bool body = kk == KEY_FULL || kk == KEY_READONLY || kk == KEY_SESSION;
	if (c->w->opt.live)
		return body;
	enum sim_key_kind k = c->rq->key;
	return body || k == KEY_FULL || k == KEY_READONLY || k == KEY_SESSION;
}

/* The workergroup the body's id names, or NULL with the 401/404 answered. */
static json_t *need_wg(struct ctx *c, const char *idkey)
{
	double idd = -1;
	bool has = jnum_value(json_object_get(c->body, idkey), &idd);
	json_t *g = has ? wg_by_id(c->w, (long)idd) : NULL;
	if (!has) {
		char m[64];
		snprintf(m, sizeof m, "%s is required", idkey);
		ctx_reply(c, 400, json_string(m));
		return NULL;
	}
	if (!key_ok(c) || (!g && c->w->opt.live)) {
		char m[160];
		snprintf(m, sizeof m, "authenticate_workergroup_apikey: invalid api_key or workergroup %ld not found",
			 (long)idd);
		ctx_reply(c, 401, json_string(m));
		return NULL;
	}
	if (!g)
		ctx_reply(c, 404, json_string("Workergroup not found"));
	return g;
}

/* Line k (k-th WG_LOG_EVERY tick since the epoch) of workergroup g. */
static void wg_line(char *out, size_t n, const json_t *g, const json_t *ep, long long k)
{
	long gid = (long)jnum(g, "id", 0);
	unsigned long long s = (unsigned long long)k * 2654435761ULL + (unsigned long long)gid;
	time_t t = (time_t)((double)k * WG_LOG_EVERY);
	char ts[32];
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	const json_t *ids = json_object_get(g, WORKERS_IDS); /* the instances it launched */
	long nw = ep ? (long)json_array_size(ids) : 0;
	switch (s % 4 == 1 && nw == 0 ? 3 : s % 4) {
	case 0:
		snprintf(out, n, "[%s] workergroup %ld: autoscaler check: load %.1f, %ld workers, target util %.2f", ts,
			 gid, jnum(g, "min_load", 0) + (double)(s % 400) / 10.0, nw, jnum(g, "target_util", 0.9));
		break;
	case 1:
		snprintf(out, n, "[%s] workergroup %ld: worker %lld ready (model loaded in %llu s)", ts, gid,
			 (long long)json_integer_value(json_array_get(ids, (size_t)(s % (unsigned long long)nw))),
			 40 + s % 80);
		break;
	case 2:
		snprintf(out, n, "[%s] workergroup %ld: searching offers: %s", ts, gid,
			 jstr(g, "search_query") ? jstr(g, "search_query") : "(template default)");
		break;
	default:
		snprintf(out, n, "[%s] workergroup %ld: trace: health check ok on %llu workers", ts, gid,
			 (unsigned long long)(nw > 0 ? nw : 0));
		break;
	}
}

static void h_wg_logs(struct ctx *c)
{
	json_t *g = need_wg(c, "id");
	if (!g)
		return;
	json_t *ep = world_endpoint_by_id(c->w, (long)jnum(g, "endpoint_id", -1));
	double tail = jnum(c->body, "tail", 100);
	if (!(tail >= 1))
		tail = 1;
	if (tail > WG_LOG_MAX)
		tail = WG_LOG_MAX;
	/* the last tail lines, an hour back at most */
	long long last = (long long)floor(c->rq->now / WG_LOG_EVERY);
	long long first = last - (long long)tail + 1, born = last - 360; /* an hour kept */
	if (first < born)
		first = born;
	size_t cap = (size_t)(last - first + 1) * 200 + 1, len = 0;
	char *text = malloc(cap), *i0 = malloc(cap);
	if (!text || !i0)
		abort();
	text[0] = i0[0] = '\0';
	size_t l0 = 0;
	for (long long k = first; k <= last; k++) {
		char line[200];
		wg_line(line, sizeof line, g, ep, k);
		len += (size_t)snprintf(text + len, cap - len, "%s%s", len ? "\n" : "", line);
		if (!strstr(line, "trace:"))
			l0 += (size_t)snprintf(i0 + l0, cap - l0, "%s%s", l0 ? "\n" : "", line);
	}
	if (strstr(c->rq->path, "autogroup")) /* the CLI's form: its log levels */
		ctx_reply(c, 200, json_pack("{s:s,s:s,s:s,s:s}", "info0", i0, "info1", i0, "trace", text, "debug", text));
	else
		ctx_reply(c, 200, json_pack("{s:s}", "logs", text));
	free(text);
	free(i0);
}

bool workers_updating(const json_t *ep, double now)
{
	return now < jnum(ep, "sim_update_until", -INFINITY);
}

static void h_update_workers(struct ctx *c)
{
	json_t *g = need_wg(c, "workergroup_id");
	if (!g)
		return;
	json_t *ep = world_endpoint_by_id(c->w, (long)jnum(g, "endpoint_id", -1));
	long gid = (long)jnum(g, "id", -1);
	char msg[128];
	if (json_is_true(json_object_get(c->body, "cancel_update"))) {
		bool was = ep && workers_updating(ep, c->rq->now);
		if (ep)
			json_object_del(ep, "sim_update_until");
		snprintf(msg, sizeof msg, was ? "Update of workergroup %ld cancelled" : "No update of workergroup %ld in progress",
			 gid);
	} else {
		if (ep)
			json_object_set_new(ep, "sim_update_until", json_real(c->rq->now + UPDATE_SPAN / c->w->opt.speed));
		snprintf(msg, sizeof msg, "Rolling update of workergroup %ld started", gid);
	}
	ctx_reply(c, 200, json_pack("{s:b,s:s}", "success", 1, "msg", msg));
}

#define A SL_ANY
#define S SL_SLASH
#define B SL_BARE
const struct route routes_workers[] = {
	/* {run_url}, with the slash as the docs and the CLI write them */
	{ "POST", "/get_workergroup_logs", h_wg_logs, RL_NONE, R_NOAUTH, S, S },
	{ "POST", "/get_autogroup_logs", h_wg_logs, RL_NONE, R_NOAUTH, S, S },
	{ "POST", "/update_workers", h_update_workers, RL_NONE, R_NOAUTH, S, S },
	{ NULL, NULL, NULL, RL_NONE, 0, SL_NONE, SL_NONE },
};
#undef A
#undef S
#undef B
