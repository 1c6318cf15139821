/* ctl.c: the simulator's control API under /__sim/, for tests and the
 * demo.  JSON in, JSON out, no authentication (the server listens on
 * loopback only).  It owns fault injection bookkeeping, moving the manual
 * clock, exposing the last SMS/email code, forcing instance status and
 * arbitrary fields (escape sequences included), appending endpoint log lines,
 * reset, and the full state dump with internals, rate-limit counters, 2FA
 * state and the record of what clients sent. */
#include "ctl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acct.h"
#include "insttext.h"
#include "routes.h"
#include "tfa.h"
#include "util.h"

#define HANG_MS_DEFAULT 120000L
#define HANG_MS_MAX 600000L
#define LATENCY_MS_DEFAULT 2000L
#define HUGE_MB_DEFAULT 40L
#define HUGE_MB_MAX 512L

static void reply(struct sim_resp *rs, int status, json_t *j)
{
	rs->status = status;
	rs->json = j;
}

static void bad(struct sim_resp *rs, const char *msg)
{
	routes_error(rs, 400, "invalid_args", msg);
}

/* POST /__sim/fault: queue a fault; {"clear":true} removes all. */
static void fault(struct simstate *st, json_t *b, struct sim_resp *rs)
{
	if (json_is_true(json_object_get(b, "clear"))) {
		st->nfaults = 0;
		reply(rs, 200, json_pack("{s:b,s:i}", "success", 1, "faults", 0));
		return;
	}
	const char *path = jstr(b, "path");
	const char *kind = jstr(b, "kind");
	const char *method = jstr(b, "method");
	struct fault f = { 0 };
	if (!path || strlen(path) >= sizeof f.path)
		{ bad(rs, "path (a path prefix) is required"); return; }
	if (!server_fault_kind(kind, &f.kind))
		{ bad(rs, "kind must be latency, hang, 500, 502, 503, 429, malformed, truncated, drop, lost, huge, 403 or 404"); return; }
	if (method && strlen(method) >= sizeof f.method)
		{ bad(rs, "method is too long"); return; }
	if (st->nfaults >= MAX_FAULTS)
		{ bad(rs, "too many faults queued"); return; }
	snprintf(f.path, sizeof f.path, "%s", path);
	snprintf(f.method, sizeof f.method, "%s", method ? method : "");
	f.count = (long)jnum(b, "count", 1);
	if (f.count < 1)
		f.count = 1;
	f.skip = (long)jnum(b, "skip", 0);
	if (f.skip < 0)
		f.skip = 0;
	f.ms = (long)jnum(b, "ms", f.kind == FAULT_HANG ? HANG_MS_DEFAULT : LATENCY_MS_DEFAULT);
	if (f.ms < 0)
		f.ms = 0;
	if (f.ms > HANG_MS_MAX)
		f.ms = HANG_MS_MAX;
	f.mb = (long)jnum(b, "mb", HUGE_MB_DEFAULT);
	if (f.mb < 1)
		f.mb = 1;
	if (f.mb > HUGE_MB_MAX)
		f.mb = HUGE_MB_MAX;
	st->faults[st->nfaults++] = f;
	reply(rs, 200, json_pack("{s:b,s:i}", "success", 1, "faults", st->nfaults));
}

static const char *plan_name(enum boot_plan p)
{
	return p == BOOT_CRASH ? "crash" : p == BOOT_DOCKER ? "docker_error" : "ok";
}

static const char *phase_name(enum inst_phase p)
{
	switch (p) {
	case PH_PROVISION: return "provisioning";
	case PH_LOADING: return "loading";
	case PH_STOPPING: return "stopping";
	case PH_STEADY: break;
	}
	return "steady";
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The simulator's view of one instance: public fields plus "sim" internals. */
static json_t *inst_state(struct world *w, struct inst *in, double now)
{
	json_t *shared = routes_inst_json(w, in, now, NULL);
	json_t *o = json_copy(shared); /* shallow: the instance's own object is not ours to add to */
	json_decref(shared);
	json_object_set_new(o, "sim",
			    json_pack("{s:s,s:o,s:s,s:b,s:b,s:o,s:f,s:s,s:o,s:f,s:o}", "phase", phase_name(in->phase),
				      "next_step_at", num_or_null(in->t_next), "boot_plan", plan_name(in->plan),
				      "start_unavailable", in->start_unavailable, "outbid", in->outbid,
				      "compete_at", num_or_null(in->compete_at), "compete_price", in->compete_price,
				      "instance_api_key", in->key, "image_login",
				      in->image_login ? json_string(in->image_login) : json_null(), "billed_until",
				      in->last_bill, "host_drop_at", num_or_null(in->drop_at)));
	json_object_set_new(json_object_get(o, "sim"), "util", util_debug(in));
	return o;
}

/* The instance fields a state query names ("fields=id,actual_status"): a
 * JSON array of their names, NULL when the query names none. */
static json_t *state_fields(const char *query)
{
	const char *q = query;
	while (q && strncmp(q, "fields=", 7)) {
		q = strchr(q, '&');
		q = q ? q + 1 : NULL;
	}
	if (!q)
		return NULL;
	q += 7;
	json_t *names = json_array();
	while (*q && *q != '&') {
		size_t n = strcspn(q, ",&");
		if (n)
			json_array_append_new(names, json_stringn(q, n));
		q += n;
		if (*q == ',')
			q++;
	}
	return names;
}

/* An instance of the state dump with only the named fields (those it has). */
static json_t *inst_fields(json_t *full, const json_t *names)
{
	json_t *o = json_object();
	size_t i;
	json_t *name;
	json_array_foreach(names, i, name) {
		json_t *v = json_object_get(full, json_string_value(name));
		if (v)
			json_object_set(o, json_string_value(name), v);
	}
	json_decref(full);
	return o;
}

/* GET /__sim/state[?fields=a,b]: the whole state; with fields, each
 * instance carries only those (10,000 instances are 16 MB whole). */
static void state(struct simstate *st, const char *query, struct sim_resp *rs, double now)
{
	struct world *w = st->w;
	json_t *names = state_fields(query);
	json_t *insts = json_array();
	for (size_t i = 0; i < w->ninst; i++) {
		json_t *o = inst_state(w, w->inst[i], now);
		json_array_append_new(insts, names ? inst_fields(o, names) : o);
	}
	json_decref(names);
	json_t *faults = json_array();
	for (int i = 0; i < st->nfaults; i++)
		json_array_append_new(faults, json_pack("{s:s,s:s,s:s,s:I,s:I,s:I}", "path", st->faults[i].path, "method",
							st->faults[i].method, "kind",
							server_fault_name(st->faults[i].kind), "count",
							(json_int_t)st->faults[i].count, "ms", (json_int_t)st->faults[i].ms,
							"mb", (json_int_t)st->faults[i].mb));
	json_t *user = json_copy(w->user);
	json_object_set_new(user, "tfa_status", json_string(tfa_status_string(w->tfa)));
	json_t *tpl = json_deep_copy(w->templates);
	reply(rs, 200,
	      json_pack("{s:b,s:f,s:b,s:f,s:o,s:o,s:I,s:o,s:o,s:o,s:O,s:O,s:O,s:o,s:o,s:O,s:o}", "success", 1, "now",
			now, "manual_clock", w->opt.manual_clock, "credit", w->credit, "user", user, "instances", insts,
			"offers_count", (json_int_t)json_array_size(w->offers), "rate_limits", rl_debug(st->rl),
			"rate_limits_on", json_boolean(st->rate_limits), "tfa", tfa_debug_json(w->tfa), "requests",
			st->requests, "secrets", w->secrets, "endpoints", w->endpoints, "templates", tpl, "faults",
			faults, "roles", w->roles, "speed", json_real(w->opt.speed)));
	json_object_set_new(rs->json, "url_max", json_integer(st->url_max));
	json_object_set_new(rs->json, "dialect", json_string(st->w->opt.live ? "live" : "spec"));
	json_object_set_new(rs->json, "refused_414", json_integer((json_int_t)st->refused_414));
	json_object_set_new(rs->json, "check_cache", json_boolean(insttext_check_mode()));
	json_object_set(rs->json, "workergroups", w->workergroups);
	json_object_set(rs->json, "apikeys", w->apikeys);
	json_object_set_new(rs->json, "acct", acct_debug(w));
}

/* POST /__sim/instance {"id":N, "actual_status":..., other fields...}. */
static void force_instance(struct simstate *st, json_t *b, struct sim_resp *rs, double now)
{
	double id;
	struct inst *in = jnum_value(json_object_get(b, "id"), &id) ? world_find(st->w, (long)id) : NULL;
	if (!in) {
		routes_error(rs, 404, "not_found", "no such instance");
		return;
	}
	const char *k;
	json_t *v;
	bool bad_util = false;
	json_object_foreach(b, k, v) {
		if (!strcmp(k, "id"))
			continue;
		if (!strcmp(k, "actual_status")) {
			world_inst_force_status(st->w, in, json_string_value(v), now);
		} else if (!strcmp(k, "start_unavailable")) {
			in->start_unavailable = json_is_true(v);
		} else if (!strcmp(k, "boot_plan")) {
			const char *p = json_string_value(v);
			in->plan = p && !strcmp(p, "crash") ? BOOT_CRASH : p && !strcmp(p, "docker_error") ? BOOT_DOCKER
													 : BOOT_OK;
		} else if (!strcmp(k, "compete_in")) {
			in->compete_at = now + jnum(b, "compete_in", 0);
		} else if (!strcmp(k, "compete_at")) {
			in->compete_at = jnum(b, "compete_at", INFINITY);
		} else if (!strcmp(k, "drop_in")) {
			in->drop_at = now + jnum(b, "drop_in", 0);
			in->drop_offline = !json_is_false(json_object_get(b, "drop_offline"));
		} else if (!strcmp(k, "drop_offline")) {
			in->drop_offline = json_is_true(v);
		} else if (!strcmp(k, "compete_price")) {
			in->compete_price = jnum(b, "compete_price", 0);
		} else if (util_set(in, k, v, now, st->w->opt.speed, &bad_util)) {
			if (bad_util) {
				char m[128];
				snprintf(m, sizeof m, "%s: a number >= 0 (null unpins), or a profile for util_profile", k);
				bad(rs, m);
				return;
			}
		} else if (k[0] == '_') {
			continue; /* no private fields: in->o holds public ones only */
		} else {
			json_object_set(in->o, k, v);
			if (!strcmp(k, "label"))
				world_touch_labels(st->w);
		}
	}
	world_inst_sync(st->w, in);
	reply(rs, 200, json_pack("{s:b,s:o}", "success", 1, "instance", inst_state(st->w, in, now)));
}

/* POST /__sim/drop {"count":N, "over":S, "offline":true}: the hosts of N
 * random running instances drop out at random times within the next S
 * simulated seconds (offline, or unknown with "offline":false).  Answers the
 * chosen ids with their drop times. */
static void drop_hosts(struct simstate *st, json_t *b, struct sim_resp *rs, double now)
{
	double count = jnum(b, "count", 1), over = jnum(b, "over", 0);
	bool offline = !json_is_false(json_object_get(b, "offline"));
	if (!(count >= 1) || !(over >= 0)) {
		bad(rs, "count (>= 1) and over (seconds, >= 0) are needed");
		return;
	}
	struct world *w = st->w;
	size_t nrun = 0;
	for (size_t i = 0; i < w->ninst; i++)
		nrun += w->inst[i]->c_running && w->inst[i]->drop_at == INFINITY;
	json_t *out = json_array();
	for (size_t k = 0; k < (size_t)count && nrun > 0; k++) {
		size_t pick = (size_t)(world_rand(w) % nrun), seen = 0;
		for (size_t i = 0; i < w->ninst; i++) {
			struct inst *in = w->inst[i];
			if (!in->c_running || in->drop_at != INFINITY)
				continue;
			if (seen++ != pick)
				continue;
			in->drop_at = now + over * world_randf(w);
			in->drop_offline = offline;
			json_array_append_new(out, json_pack("{s:I,s:f}", "id", (json_int_t)in->id,
							     "drop_at", in->drop_at));
			nrun--;
			break;
		}
	}
	reply(rs, 200, json_pack("{s:b,s:o}", "success", 1, "dropping", out));
}

/* POST /__sim/set {"what":"instance"|"user"|"endpoint"|"workergroup"|"log", ...}. */
static void set(struct simstate *st, json_t *b, struct sim_resp *rs, double now)
{
	const char *what = jstr(b, "what");
	const char *field = jstr(b, "field");
	json_t *value = json_object_get(b, "value");
	if (what && !strcmp(what, "log")) {
		const char *line = jstr(b, "line");
		json_t *ep = jstr(b, "endpoint") ? world_endpoint_by_name(st->w, jstr(b, "endpoint"))
						 : world_endpoint_by_id(st->w, (long)jnum(b, "endpoint_id", -1));
		if (!ep || !line)
			{ bad(rs, "log needs endpoint (name) or endpoint_id of an endpoint, and line"); return; }
		/* grow the log to now first, so the line lands after the generated ones */
		free(world_eplog_tail(st->w, (long)json_integer_value(json_object_get(ep, "id")), now, 0));
		world_eplog_append(st->w, (long)json_integer_value(json_object_get(ep, "id")), line);
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (!field || !value)
		{ bad(rs, "field and value are required"); return; }
	if (what && !strcmp(what, "user")) {
		if (!strcmp(field, "credit")) {
			double c;
			if (!jnum_value(value, &c))
				{ bad(rs, "credit must be a number"); return; }
			world_set_credit(st->w, c);
		} else if (!strcmp(field, "team_role")) {
			/* the account's own member's role (the caller of the team calls) */
			size_t i;
			json_t *m;
			if (!json_is_string(value))
				{ bad(rs, "team_role must be a role name"); return; }
			json_array_foreach(st->w->acct->members, i, m)
				if ((long)jnum(m, "id", -1) == (long)jnum(st->w->user, "id", -1))
					json_object_set_new(m, "roles", json_pack("[O]", value));
		} else if (!strcmp(field, "tfa_legacy")) {
			tfa_set_legacy(st->w->tfa, json_is_true(value), now);
		} else {
			if (!strcmp(field, "email_verified"))
				tfa_set_email_verified(st->w->tfa, json_is_true(value));
			json_object_set(st->w->user, field, value);
		}
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "sim") && !strcmp(field, "log_rate")) {
		double r = json_number_value(value);
		if (!json_is_number(value) || r <= 0 || r > 1000)
			{ bad(rs, "log_rate is lines per second, above 0 and at most 1000"); return; }
		st->w->eplog_every = 1.0 / r;
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "sim") && !strcmp(field, "logs_cli_only")) {
		st->w->logs_cli_only = json_is_true(value);
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "sim") && !strcmp(field, "keep_uptime")) {
		st->w->keep_uptime = json_is_true(value);
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "endpoint")) {
		json_t *ep = jstr(b, "endpoint") ? world_endpoint_by_name(st->w, jstr(b, "endpoint"))
						 : world_endpoint_by_id(st->w, (long)jnum(b, "endpoint_id", -1));
		if (!ep)
			{ bad(rs, "endpoint needs endpoint (name) or endpoint_id of an endpoint"); return; }
		if (!strcmp(field, "workers")) {
			const char *m = json_string_value(value);
			if (!m || (strcmp(m, "mixed") && strcmp(m, "idle") && strcmp(m, "error") && strcmp(m, "loading") &&
				   strcmp(m, "none")))
				{ bad(rs, "workers must be mixed, idle, error, loading or none"); return; }
			json_object_set(ep, "sim_workers", value);
		} else if (!strcmp(field, "id")) {
			bad(rs, "the id cannot be changed");
			return;
		} else {
			json_object_set(ep, field, value);
		}
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "workergroup")) {
		json_t *g = NULL;
		size_t i;
		json_t *x;
		json_array_foreach(st->w->workergroups, i, x)
			if ((long)jnum(x, "id", -1) == (long)jnum(b, "id", -2))
				g = x;
		if (!g)
			{ bad(rs, "workergroup needs the id of a workergroup"); return; }
		if (!strcmp(field, "id"))
			{ bad(rs, "the id cannot be changed"); return; }
		json_object_set(g, field, value);
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "sim") && !strcmp(field, "deposit")) {
		double amt;
		if (!jnum_value(value, &amt) || !(amt > 0))
			{ bad(rs, "deposit is a positive amount of dollars"); return; }
		world_set_credit(st->w, st->w->credit + amt);
		acct_invoice(st->w, now, "credit", "stripe", "stripe_payments", "Stripe payment from VISA ...4242", -amt);
		reply(rs, 200, json_pack("{s:b,s:f}", "success", 1, "credit", st->w->credit));
		return;
	}
	if (what && !strcmp(what, "member")) {
		if (!acct_set_member(st->w, (long)jnum(b, "id", -1), field, value))
			{ bad(rs, "member needs the id of a team member, and field roles (a list of role names)"); return; }
		reply(rs, 200, json_pack("{s:b}", "success", 1));
		return;
	}
	if (what && !strcmp(what, "instance")) {
		json_t *fb = json_pack("{s:O,s:O}", "id", json_object_get(b, "id"), field, value);
		force_instance(st, fb, rs, now);
		json_decref(fb);
		return;
	}
	bad(rs, "what must be instance, user, endpoint, workergroup, member, sim or log");
}

void ctl_handle(struct simstate *st, const struct sim_req *rq, struct sim_resp *rs)
{
	const char *p = rq->path + 7; /* after "/__sim/" */
	json_t *b = json_is_object(rq->body) ? rq->body : NULL;
	json_t *empty = b ? NULL : json_object();
	if (!b)
		b = empty;
	double now = rq->now;
	bool get = !strcmp(rq->method, "GET");
	if (!strcmp(p, "reset") && !get) {
		world_reset(st->w);
		rl_reset(st->rl);
		st->refused_414 = 0;
		st->nfaults = 0;
		json_object_clear(st->requests);
		reply(rs, 200, json_pack("{s:b}", "success", 1));
	} else if (!strcmp(p, "state") && get) {
		world_advance(st->w, now);
		state(st, rq->query, rs, now);
	} else if (!strcmp(p, "secrets") && get) {
		/* every secret issued since start, for the tests' grep of captures */
		json_t *all = json_copy(st->w->issued);
		json_array_extend(all, tfa_issued(st->w->tfa));
		reply(rs, 200, json_pack("{s:b,s:o,s:O}", "success", 1, "secrets", all, "codes",
					 tfa_codes(st->w->tfa)));
	} else if (!strcmp(p, "codes") && get) {
		const char *sms = tfa_last_code(st->w->tfa, "sms");
		const char *email = tfa_last_code(st->w->tfa, "email");
		const char *to = tfa_last_email_to(st->w->tfa);
		reply(rs, 200, json_pack("{s:o,s:o,s:o}", "sms", sms ? json_string(sms) : json_null(), "email",
					 email ? json_string(email) : json_null(), "email_to",
					 to ? json_string(to) : json_null()));
	} else if (!strcmp(p, "fault") && !get) {
		fault(st, b, rs);
	} else if (!strcmp(p, "clock") && !get) {
		double adv;
		if (!jnum_value(json_object_get(b, "advance"), &adv) || adv < 0) {
			bad(rs, "advance (seconds, >= 0) is required");
		} else {
			world_advance(st->w, now);
			world_advance_clock(st->w, adv);
			double t = world_now(st->w);
			world_advance(st->w, t);
			reply(rs, 200, json_pack("{s:b,s:f,s:f}", "success", 1, "now", t, "credit", st->w->credit));
		}
	} else if (!strcmp(p, "instance") && !get) {
		world_advance(st->w, now);
		force_instance(st, b, rs, now);
	} else if (!strcmp(p, "drop") && !get) {
		world_advance(st->w, now);
		drop_hosts(st, b, rs, now);
	} else if (!strcmp(p, "set") && !get) {
		world_advance(st->w, now);
		set(st, b, rs, now);
	} else {
		routes_error(rs, 404, "not_found", "unknown control call (fault, clock, codes, secrets, instance, drop, set, reset, state)");
	}
	json_decref(empty);
}
