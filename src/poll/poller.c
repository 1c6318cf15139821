/* poller.c: the network thread.  Owns the curl multi handle and every
 * transfer ("op"): the periodic fetches of instances (v1 pages, paced, with
 * the v0 fall-back), the user, workergroups (autojobs fall-back) and
 * serverless endpoints, each with its own backoff; and the queued jobs,
 * several in flight at once.  JSON is mapped here with no lock held, then
 * handed to the model.  The thread sleeps in curl_multi_poll() until a
 * fetch is due, a socket is ready or curl_multi_wakeup() is called (a job
 * was queued, "refresh now", stop).  Stopping removes every handle without
 * waiting for any timeout, so quitting is prompt even while a server hangs. */
#include "poll/poller.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "api/api.h"
#include "api/api_account.h"
#include "net/auth.h"
#include "net/backoff.h"
#include "base/config.h"
#include "net/http.h"
#include "poll/jobs.h"
#include "json/json_map.h"
#include "base/log.h"
#include "state/model.h"
#include "flow/offers.h"
#include "poll/poller_pace.h"
#include "net/retry.h"
#include "poll/sweep.h"
#include "base/util.h"

#define OP_RETRIES 3    /* quick resends (retry.h allows them) of one request */
#define OP_REFUSALS 8    /* 429s of one request before it fails */
#define REFRESH_GAP_S 3.0 /* "refresh now" at most once per source per this (s) */

/* OP_FETCH: a periodic fetch of a model source (fleet's half).  The rest
 * are the job half: OP_JOB a queued action, OP_REREAD the re-read of an
 * instance after an action's outcome was lost, OP_CALL an on-demand call
 * (jobs_call / jobs_subscribe). */
enum op_kind { OP_FETCH, OP_JOB, OP_REREAD, OP_CALL };

/* One request: in flight (x set) or waiting for retry_at (x NULL). */
struct op {
	enum op_kind kind;
	enum model_source src;  /* OP_FETCH */
	struct job_req req;     /* OP_JOB, OP_REREAD: the action */
	int job_id;             /* OP_JOB, OP_REREAD; OP_CALL: the request id */
	struct job_call jc;     /* OP_CALL (jc.call unused: the call is `call`) */
	int sub_id;             /* OP_CALL: the subscription, 0 for one-shot */
	void *hvalue;           /* OP_CALL with jc.map_http: its value, until stored */
	double before;          /* OP_REREAD: the instance's credit_balance before ($, NAN) */
	int rereads;            /* OP_REREAD: earlier re-reads that failed */
	long max_before;        /* OP_JOB of a create and its OP_REREAD: the highest instance
				   id listed when it was sent (a newer one may be its) */
	struct api_call call;
	struct sweep_query q;   /* OP_FETCH of SRC_INSTANCES: what was asked */
	struct http_xfer *x;
	int attempt;            /* quick resends so far */
	int refusals;           /* 429s so far */
	bool session_retried;
	unsigned session_gen;   /* the 2FA session key the last attempt sent, 0: none */
	bool wanting;           /* counted as waiting for its pacer (poller_pace) */
	struct api_error refused; /* parked: why (its asker's answer if the 2FA prompt is
				   * cancelled); OP_JOB answered with failed set: why */
	bool failed;            /* OP_JOB: answered, but the answer says it failed (a 2FA
				   * login that gave no key): its result is CALL_ERROR */
	long made;              /* OP_JOB of a create: the instance it made, 0: not named */
	char said[400];         /* OP_JOB: the answer's sentence for its result ("" none) */
	double retry_at;        /* s, monotonic */
	struct op *next;
};

struct source {
	struct backoff bo;
	bool busy;              /* an op of this source exists */
	bool again;             /* "refresh now" arrived while busy */
	bool alt;               /* instances: v0 list; workergroups: autojobs alias */
	bool absent;            /* endpoints: the service has none of this (404) */
	bool auth_reported;     /* an EVF_AUTH event was sent for the current failure */
	bool pressed_again;     /* "refresh now" arrived while busy: again, after the gap */
	double started;         /* s, monotonic: the last fetch's first request, -1 = never */
};

struct poller {
	const struct config *cfg;
	struct auth *auth;
	struct model *m;
	struct jobs *j;
	CURLM *multi;
	struct http_opts opts;
	pthread_t th;
	bool started;
	atomic_bool stop;
	atomic_bool refresh;
	atomic_bool cancel_parked; /* the 2FA prompt was cancelled: drop the parked actions */
	struct source src[SRC__COUNT];
	struct op *ops;
	struct poller_pace pace;  /* per-endpoint buckets (poller_pace.h) */
	uint64_t rng;             /* jitter of 429 waits */
	struct op *parked;        /* on-demand actions refused for want of 2FA */
	/* the instance list (fetch half): rows, sweeps, attention */
	struct sweep fleet;
	double next_cycle;        /* s, monotonic: the next attention cycle */
	bool fleet_idle;          /* the sweep had nothing to ask when due: the loop sleeps
				   * until the next cycle or an answer, never spins */
	double t_start;           /* s, monotonic */
};

/* Seconds between attention cycles for a fleet larger than one page: the
 * failure probe runs at least this often (a host that drops out is seen
 * within about this plus a few paced requests). */
#define FLEET_CYCLE_MAX_S 5.0

static void wake(void *arg)
{
	struct poller *p = arg;
	if (p->multi)
		curl_multi_wakeup(p->multi);
}

struct poller *poller_new(const struct config *cfg, struct auth *auth, struct model *m,
			  struct jobs *j)
{
	struct poller *p = xcalloc(1, sizeof *p);
	p->cfg = cfg;
	p->auth = auth;
	p->m = m;
	p->j = j;
	p->multi = curl_multi_init();
	if (!p->multi) {
		free(p);
		return NULL;
	}
	curl_multi_setopt(p->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 6L);
	p->opts.connect_timeout_s = cfg->connect_timeout_s;
	p->opts.total_timeout_s = cfg->total_timeout_s;
	atomic_init(&p->stop, false);
	atomic_init(&p->refresh, false);
	double now = util_mono();
	uint64_t seed = (uint64_t)(util_now() * 1e6) | 1;
	for (int s = 0; s < SRC__COUNT; s++) {
		double every = s == SRC_INSTANCES ? cfg->refresh_s : cfg->slow_refresh_s;
		double rate = s == SRC_INSTANCES ? cfg->page_rate : 0;
		backoff_init(&p->src[s].bo, every, BACKOFF_CAP_S, rate, seed + (uint64_t)s, now);
		p->src[s].started = -1;
	}
	poller_pace_init(&p->pace, now);
	/* the list's bucket at --page-rate (0: unpaced until a 429) */
	pace_init(&p->pace.b[poller_pace_group(EP_INSTANCES_V1)], cfg->page_rate, 1, now);
	sweep_init(&p->fleet);
	p->t_start = now;
	p->next_cycle = now;
	p->rng = seed ^ 0x9e3779b97f4a7c15ull;
	if (j)
		jobs_set_waker(j, wake, p);
	return p;
}

void poller_refresh_now(struct poller *p)
{
	atomic_store(&p->refresh, true);
	wake(p);
}

void poller_wake(struct poller *p) { wake(p); }

struct auth *poller_auth(struct poller *p) { return p ? p->auth : NULL; }

void poller_cancel_parked(struct poller *p)
{
	if (!p)
		return;
	atomic_store(&p->cancel_parked, true);
	wake(p);
}

/* ---- ops ------------------------------------------------------------- */

static struct op *op_add(struct poller *p, enum op_kind k)
{
	struct op *o = xcalloc(1, sizeof *o);
	o->kind = k;
	o->next = p->ops;
	p->ops = o;
	return o;
}

static void op_unlink_free(struct poller *p, struct op *o)
{
	for (struct op **pp = &p->ops; *pp; pp = &(*pp)->next)
		if (*pp == o) {
			*pp = o->next;
			break;
		}
	if (o->x) {
		curl_multi_remove_handle(p->multi, http_xfer_easy(o->x));
		http_xfer_free(o->x);
	}
	poller_pace_forget(&p->pace, o->call.ep, &o->wanting);
	if (o->hvalue) {
		if (o->jc.free_value)
			o->jc.free_value(o->hvalue);
		else
			free(o->hvalue);
	}
	api_call_free(&o->call);
	sweep_query_free(&o->q);
	explicit_bzero(&o->req, sizeof o->req); /* may hold a 2FA code */
	free(o);
}

static void op_complete(struct poller *p, struct op *o, struct http_xfer *x);
static enum retry_kind op_rkind(const struct op *o);

/* Send the op's request now. */
static void op_launch(struct poller *p, struct op *o)
{
	struct api_error e;
	char *body;
	char *hdr = api_request_auth(p->auth, &o->call, &body, &o->session_gen);
	struct http_opts ho = api_ep_opts(&p->opts, o->call.ep);
	o->x = http_xfer_new(&ho, o->call.method, o->call.url, body ? body : o->call.body, hdr,
			     &e);
	auth_header_free(hdr);
	auth_header_free(body);
	if (o->kind == OP_FETCH)
		backoff_sent(&p->src[o->src].bo, util_mono());
	if (!o->x) {
		/* refused before sending (bad URL): complete as a failure at once */
		op_complete(p, o, NULL);
		return;
	}
	if (o->kind != OP_FETCH && op_rkind(o) == RK_ACTION)
		http_xfer_at_most_once(o->x); /* libcurl must not resend it either */
	curl_easy_setopt(http_xfer_easy(o->x), CURLOPT_PRIVATE, o);
	if (curl_multi_add_handle(p->multi, http_xfer_easy(o->x)) != CURLM_OK) {
		http_xfer_free(o->x);
		o->x = NULL;
		op_complete(p, o, NULL);
	}
}

/* The list request for a planned query. */
static struct api_call list_call(const struct poller *p, const struct sweep_query *q)
{
	if (q->v0)
		return api_instances_v0(p->cfg);
	return api_instances_v1_q(p->cfg, q->token, q->limit, q->filters, q->cols, q->order);
}

/* Build and queue a source's fetch (instances: the next planned query). */
static void fetch_start(struct poller *p, enum model_source s, double at)
{
	struct source *src = &p->src[s];
	struct sweep_query q;
	if (s == SRC_INSTANCES && !sweep_next(&p->fleet, &q))
		return;
	struct op *o = op_add(p, OP_FETCH);
	o->src = s;
	switch (s) {
	case SRC_INSTANCES:
		o->q = q;
		o->call = list_call(p, &o->q);
		break;
	case SRC_USER: o->call = api_user(p->cfg); break;
	case SRC_WORKERGROUPS: o->call = api_workergroups(p->cfg, src->alt); break;
	case SRC_ENDPOINTS:
	case SRC__COUNT: /* not a source (never queued) */
		o->call = api_endptjobs(p->cfg);
		break;
	}
	o->retry_at = at;
	if (!src->busy) {
		src->started = at > util_mono() ? at : util_mono();
		model_set_in_flight(p->m, s, true, util_now());
	}
	src->busy = true;
}

/* Something changed: fetch instances (and, after money moved, the user) now. */
static void refresh_soon(struct poller *p, enum model_source s)
{
	struct source *src = &p->src[s];
	if (s == SRC_INSTANCES) {
		p->next_cycle = util_mono(); /* a cycle now: attention, then the sweep */
		return;
	}
	if (src->busy)
		src->again = true;
	else
		backoff_due_now(&src->bo, util_mono());
}

/* "Refresh now" from the user (job half's debounce): one refresh in flight
 * per source; a press while it is in flight only marks "again when done",
 * and a source is refreshed by presses at most once per REFRESH_GAP_S
 * (key auto-repeat sends dozens of presses a second). */
static void refresh_pressed_due(struct poller *p, enum model_source s)
{
	struct source *src = &p->src[s];
	double now = util_mono();
	double at = src->started >= 0 ? src->started + REFRESH_GAP_S : now;
	if (at < now)
		at = now;
	if (s == SRC_INSTANCES) {
		/* a cycle (attention first) at once, within the gap */
		if (at < p->next_cycle)
			p->next_cycle = at;
		return;
	}
	double paced = backoff_pace(&src->bo, at);
	if (paced > at)
		at = paced;
	if (at < src->bo.next_due)
		src->bo.next_due = at;
}

static void refresh_pressed(struct poller *p, enum model_source s)
{
	struct source *src = &p->src[s];
	if (src->busy)
		src->pressed_again = true;
	else
		refresh_pressed_due(p, s);
}

/* ---- fetch results ---------------------------------------------------- */

static void refresh_pressed_due(struct poller *p, enum model_source s);

static void fetch_done(struct poller *p, enum model_source s)
{
	struct source *src = &p->src[s];
	src->busy = false;
	if (s == SRC_INSTANCES)
		p->fleet_idle = false; /* an answer: the sweep may have its next query */
	if (src->again) {
		src->again = false;
		backoff_due_now(&src->bo, util_mono());
	}
	if (src->pressed_again) {
		src->pressed_again = false;
		refresh_pressed_due(p, s);
	}
}

/* "the API key from VAST_API_KEY was refused (401): check it or use
 * --api-key-file" (the service's words added unless it was a plain 401). */
static void refused_key_text(struct poller *p, const struct api_error *e, char *msg, size_t n)
{
	char from[128], said[128]; /* both cut: the message fits */
	auth_source(p->auth, from, sizeof from);
	util_strlcpy(said, msg, sizeof said);
	bool env = strcmp(from, "VAST_API_KEY") == 0;
	snprintf(msg, n, "the API key from %s was refused (%d): check it or use %s%s%s%s", from,
		 e->http_status, env ? "--api-key-file" : "VAST_API_KEY or another --api-key-file",
		 e->http_status == 401 ? "" : " (", e->http_status == 401 ? "" : said,
		 e->http_status == 401 ? "" : ")");
	auth_redact(p->auth, msg);
}

static void fetch_failed(struct poller *p, struct op *o, const struct api_error *e)
{
	struct source *src = &p->src[o->src];
	if (o->src == SRC_INSTANCES && e->http_status == 414 && sweep_too_long(&p->fleet, &o->q)) {
		/* an attention listing's URL too long for the service: smaller
		 * parts from now on, no error (nothing was refused but its size) */
		log_msg("%s: 414, attention listings now at most %zu bytes of filter",
			api_ep_name(o->call.ep), p->fleet.url_budget);
		fetch_done(p, o->src);
		return;
	}
	char msg[400];
	apierr_format(e, msg, sizeof msg);
	bool transport = e->cls == AE_TRANSPORT;
	bool auth = e->cls == AE_AUTH || e->cls == AE_SESSION_EXPIRED;
	if (auth) /* say whose key, and what to do; never the key */
		refused_key_text(p, e, msg, sizeof msg);
	if (o->src == SRC_INSTANCES)
		sweep_failed(&p->fleet, &o->q); /* nothing is removed for it */
	model_set_error(p->m, o->src, e->http_status, transport, auth, msg, util_now());
	if (auth && !src->auth_reported) {
		src->auth_reported = true;
		model_event(p->m, EV_ERROR, -1, 0, 0,
			    EVF_AUTH | (e->cls == AE_SESSION_EXPIRED ? EVF_TFA_EXPIRED : 0), "%s", msg);
	}
	double due = backoff_failure(&src->bo, util_mono());
	model_set_retry_at(p->m, o->src, util_now() + (due - util_mono())); /* the countdown */
	log_msg("poll %s failed: %s", api_ep_name(o->call.ep), msg);
	fetch_done(p, o->src);
}

/* Hand the held rows to the model when they changed (shared, not copied),
 * else only the freshness and the progress. */
static void fleet_publish(struct poller *p, double now)
{
	struct inst_progress pr;
	sweep_progress(&p->fleet, &pr);
	if (sweep_take_changed(&p->fleet)) {
		struct irow **rows = sweep_rows(&p->fleet);
		model_publish_rows(p->m, rows, p->fleet.n, &pr, now);
		free(rows);
	} else {
		model_instances_ok(p->m, &pr, now);
	}
}

/* A page or list arrived: map it (no lock held) and hand it to the model. */
static void fetch_ok(struct poller *p, struct op *o, json_t *root, struct inst_page *page)
{
	enum model_source s = o->src;
	if ((unsigned)s >= SRC__COUNT) /* not a source (never queued) */
		return;
	struct source *src = &p->src[s];
	struct api_error e;
	double now = util_now();
	bool ok = true;
	src->auth_reported = false;
	switch (s) {
	case SRC_INSTANCES: {
		double sweep_ok_before = p->fleet.sweep_ok;
		ok = root ? sweep_answer(&p->fleet, &o->q, root, now, &e)
			  : sweep_answer_page(&p->fleet, &o->q, page, now, &e);
		if (ok)
			fleet_publish(p, now);
		if (ok && sweep_ok_before == 0 && p->fleet.sweep_ok > 0) /* make bench reads it */
			log_msg("instances: first sweep complete: %zu rows, %lu list requests, %.1f s",
				p->fleet.n, sweep_requests(&p->fleet), util_mono() - p->t_start);
#ifdef __GLIBC__
		/* a sweep ended: give back the heap its pages' buffers and the
		 * records it replaced left free (glibc keeps them otherwise) */
		if (ok && p->fleet.sweep_ok != sweep_ok_before)
			malloc_trim(0);
#endif
		break;
	}
	case SRC_USER: {
		struct user *u = xcalloc(1, sizeof *u);
		ok = json_is_object(root) && json_map_user(root, u);
		if (ok)
			model_set_user(p->m, u, now);
		else
			model_user_free(u);
		break;
	}
	case SRC_WORKERGROUPS: {
		struct workergroup *v = NULL;
		size_t n = 0;
		ok = json_map_workergroups(root, &v, &n);
		if (ok)
			model_set_workergroups(p->m, v, n, now);
		else
			model_workergroups_free(v, n);
		break;
	}
	case SRC__COUNT:
		return; /* ruled out above */
	case SRC_ENDPOINTS: {
		struct endpoint *v = NULL;
		size_t n = 0;
		ok = json_map_endpoints(root, &v, &n);
		if (ok)
			model_set_endpoints(p->m, v, n, now);
		else
			model_endpoints_free(v, n);
		break;
	}
	}
	if (!ok) {
		if (s != SRC_INSTANCES)
			apierr_protocol(&e, 200, "unexpected response shape");
		fetch_failed(p, o, &e);
		return;
	}
	backoff_success(&src->bo, util_mono());
	if (s == SRC_INSTANCES)
		src->bo.next_due = util_mono(); /* paced by its bucket, not the interval */
	fetch_done(p, s);
}

/* ---- job half: actions, re-reads, on-demand calls ---------------------
 * Everything below up to the thread loop belongs to the job half (actions,
 * the re-reads that follow an unknown outcome, on-demand calls); the fetch
 * half above only calls refresh_soon() from here. */

/* Retry kind of an op: the one rule of retry.h decides per kind. */
static enum retry_kind op_rkind(const struct op *o)
{
	switch (o->kind) {
	case OP_FETCH:
	case OP_REREAD:
		return RK_FETCH;
	case OP_JOB:
		return RK_ACTION;
	case OP_CALL:
		return o->jc.action ? RK_ACTION : RK_FETCH;
	}
	return RK_ACTION;
}

/* A number in [0,1) for jitter (xorshift64). */
static double jitter(struct poller *p)
{
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return (double)(p->rng >> 11) / 9007199254740992.0;
}

/* ---- the jobs: one row per kind ----------------------------------------
 *
 * Everything the poller does for one kind of job is in its row of
 * job_defs: the request it sends, its event when answered, its event when
 * the answer was lost (then the instance is re-read), and what the re-read
 * shows. */

struct job_def {
	struct api_call (*call)(struct poller *p, struct op *o);
	void (*answered)(struct poller *p, struct op *o, const json_t *root);
	/* the answer was lost (why: in words): its EVF_UNKNOWN event; false
	 * when nothing can be re-read (the 2FA login) */
	bool (*lost)(struct poller *p, struct op *o, const char *why);
	/* what the re-read of the instance shows (have: x is it; else it is
	 * gone), NULL: the re-read is reread_list's instead */
	void (*verdict)(struct poller *p, struct op *o, const struct instance *x, bool have);
	/* a re-read of a list rather than of the instance (the create's) */
	void (*reread_list)(struct poller *p, struct op *o, const json_t *root,
			    const struct api_error *e);
};

static void relaunch_parked(struct poller *p);
static void reread_create_done(struct poller *p, struct op *o, const json_t *root,
			       const struct api_error *e);

static bool near(double a, double b)
{
	return isfinite(a) && isfinite(b) && fabs(a - b) < 0.0005;
}

/* Its event, for the job o (kind, id, instance as sent). */
#define JOB_EVENT(lvl, fl, ...) \
	model_event(p->m, (lvl), (int)o->req.kind, o->job_id, o->req.instance_id, (fl), __VA_ARGS__)

static bool lost_state(struct poller *p, struct op *o, const char *why)
{
	JOB_EVENT(EV_WARN, EVF_JOB_DONE | EVF_UNKNOWN,
		  "%s of instance %ld: %s, the outcome is unknown; checking its state",
		  jobs_kind_name(o->req.kind), o->req.instance_id, why);
	return true;
}

/* start and stop: does the instance want to run (or stop) now? */
static void verdict_state(struct poller *p, struct op *o, const struct instance *x, bool have)
{
	long id = o->req.instance_id;
	const char *want = o->req.kind == JOB_STOP ? "stopped" : "running";
	const char *st = have ? instance_state_name(x->state) : "gone";
	if (!have)
		JOB_EVENT(EV_WARN, EVF_RESOLVED, "instance %ld is gone", id);
	else if (strcmp(x->intended_status, want) == 0)
		JOB_EVENT(EV_OK, EVF_RESOLVED, "instance %ld is %s: the %s took effect", id, st,
			  jobs_kind_name(o->req.kind));
	else
		JOB_EVENT(EV_ERROR, EVF_RESOLVED, "instance %ld is %s: the %s did not take effect", id,
			  st, jobs_kind_name(o->req.kind));
}

static struct api_call send_start(struct poller *p, struct op *o)
{
	return api_start(p->cfg, o->req.instance_id);
}

static void answered_start(struct poller *p, struct op *o, const json_t *root)
{
	(void)root;
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld: start requested", o->req.instance_id);
}

static struct api_call send_stop(struct poller *p, struct op *o)
{
	return api_stop(p->cfg, o->req.instance_id);
}

static void answered_stop(struct poller *p, struct op *o, const json_t *root)
{
	(void)root;
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld: stopped (disk charges continue)",
		  o->req.instance_id);
}

static struct api_call send_reboot(struct poller *p, struct op *o)
{
	return api_reboot(p->cfg, o->req.instance_id);
}

static void answered_reboot(struct poller *p, struct op *o, const json_t *root)
{
	(void)root;
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld: rebooting", o->req.instance_id);
}

static void verdict_reboot(struct poller *p, struct op *o, const struct instance *x, bool have)
{
	long id = o->req.instance_id;
	if (have && x->state == IS_REBOOTING)
		JOB_EVENT(EV_OK, EVF_RESOLVED, "instance %ld is rebooting: the reboot took effect", id);
	else
		JOB_EVENT(EV_WARN, EVF_RESOLVED,
			  "instance %ld is %s: whether the reboot took effect is not known", id,
			  have ? instance_state_name(x->state) : "gone");
}

static struct api_call send_label(struct poller *p, struct op *o)
{
	return api_label(p->cfg, o->req.instance_id, o->req.text);
}

static void answered_label(struct poller *p, struct op *o, const json_t *root)
{
	(void)root;
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld: label set to \"%s\"", o->req.instance_id,
		  o->req.text);
}

static void verdict_label(struct poller *p, struct op *o, const struct instance *x, bool have)
{
	long id = o->req.instance_id;
	if (have && strcmp(x->label, o->req.text) == 0)
		JOB_EVENT(EV_OK, EVF_RESOLVED, "instance %ld is labelled \"%s\": the label took effect",
			  id, x->label);
	else
		JOB_EVENT(EV_ERROR, EVF_RESOLVED, "instance %ld: the label did not take effect", id);
}

static struct api_call send_destroy(struct poller *p, struct op *o)
{
	return api_destroy(p->cfg, o->req.instance_id);
}

static void answered_destroy(struct poller *p, struct op *o, const json_t *root)
{
	(void)root;
	long id = o->req.instance_id;
	sweep_forget(&p->fleet, id); /* gone at once, not after a sweep */
	fleet_publish(p, util_now());
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld destroyed: all billing stopped", id);
}

static bool lost_destroy(struct poller *p, struct op *o, const char *why)
{
	JOB_EVENT(EV_WARN, EVF_JOB_DONE | EVF_UNKNOWN,
		  "destroy of instance %ld: %s, the outcome is unknown; checking whether it is gone",
		  o->req.instance_id, why);
	return true;
}

static void verdict_destroy(struct poller *p, struct op *o, const struct instance *x, bool have)
{
	long id = o->req.instance_id;
	if (!have) {
		sweep_forget(&p->fleet, id);
		fleet_publish(p, util_now());
		JOB_EVENT(EV_OK, EVF_RESOLVED, "instance %ld is gone: destroyed", id);
	} else {
		JOB_EVENT(EV_ERROR, EVF_RESOLVED,
			  "instance %ld is still there (%s): the destroy did not take effect", id,
			  instance_state_name(x->state));
	}
}

static struct api_call send_bid(struct poller *p, struct op *o)
{
	return api_bid(p->cfg, o->req.instance_id, o->req.amount);
}

static void answered_bid(struct poller *p, struct op *o, const json_t *root)
{
	(void)root;
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld: bid set to $%.3f/h", o->req.instance_id,
		  o->req.amount);
}

static bool lost_bid(struct poller *p, struct op *o, const char *why)
{
	JOB_EVENT(EV_WARN, EVF_JOB_DONE | EVF_UNKNOWN,
		  "bid of $%.3f/h on instance %ld: %s, the outcome is unknown; check the bid before "
		  "trying again", o->req.amount, o->req.instance_id, why);
	return true;
}

static void verdict_bid(struct poller *p, struct op *o, const struct instance *x, bool have)
{
	long id = o->req.instance_id;
	double amount = o->req.amount;
	if (have && (near(x->bid_price, amount) || near(x->dph_base, amount)))
		JOB_EVENT(EV_OK, EVF_RESOLVED, "instance %ld bids $%.3f/h: the bid took effect", id,
			  amount);
	else if (have)
		JOB_EVENT(EV_ERROR, EVF_RESOLVED,
			  "instance %ld bids $%.3f/h: the bid did not take effect", id,
			  isfinite(x->bid_price) ? x->bid_price : x->dph_base);
	else
		JOB_EVENT(EV_WARN, EVF_RESOLVED, "instance %ld is gone", id);
}

static struct api_call send_prepay(struct poller *p, struct op *o)
{
	return api_prepay(p->cfg, o->req.instance_id, o->req.amount);
}

static void answered_prepay(struct poller *p, struct op *o, const json_t *root)
{
	double months, disc;
	api_prepay_result(root, &months, &disc);
	char mtxt[64], dtxt[64];
	if (isfinite(months))
		snprintf(mtxt, sizeof mtxt, "%.2f months", months);
	else
		snprintf(mtxt, sizeof mtxt, "an unstated time");
	if (isfinite(disc))
		snprintf(dtxt, sizeof dtxt, "%.0f%% discount", disc * 100.0);
	else
		snprintf(dtxt, sizeof dtxt, "no discount stated");
	JOB_EVENT(EV_OK, EVF_JOB_DONE, "instance %ld: prepaid $%.2f, covers %s at %s",
		  o->req.instance_id, o->req.amount, mtxt, dtxt);
	refresh_soon(p, SRC_USER);
}

static bool lost_prepay(struct poller *p, struct op *o, const char *why)
{
	JOB_EVENT(EV_WARN, EVF_JOB_DONE | EVF_UNKNOWN,
		  "prepay of $%.2f to instance %ld: %s, the outcome is unknown; check the credit "
		  "before trying again", o->req.amount, o->req.instance_id, why);
	return true;
}

static void verdict_prepay(struct poller *p, struct op *o, const struct instance *x, bool have)
{
	long id = o->req.instance_id;
	double now = have && isfinite(x->credit_balance) ? x->credit_balance : 0;
	bool took = have && now - o->before >= o->req.amount * 0.5;
	if (took)
		JOB_EVENT(EV_OK, EVF_RESOLVED,
			  "instance %ld has $%.2f of prepaid credit (was $%.2f): the prepay took "
			  "effect", id, now, o->before);
	else if (have)
		JOB_EVENT(EV_ERROR, EVF_RESOLVED,
			  "instance %ld has $%.2f of prepaid credit (was $%.2f): the prepay did not "
			  "take effect", id, now, o->before);
	else
		JOB_EVENT(EV_WARN, EVF_RESOLVED, "instance %ld is gone; check the credit", id);
	refresh_soon(p, SRC_USER);
}

/* The highest instance id the model lists now (0: none). */
static long max_listed_id(struct poller *p)
{
	const struct snapshot *s = model_acquire(p->m);
	long id = s->ninstances ? s->instances[s->ninstances - 1]->id : 0; /* sorted by id */
	model_release(s);
	return id;
}

static struct api_call send_create(struct poller *p, struct op *o)
{
	o->max_before = max_listed_id(p);
	return api_create(p->cfg, &o->req.create);
}

static void answered_create(struct poller *p, struct op *o, const json_t *root)
{
	long nc = 0;
	int k = (int)JOB_CREATE;
	if (api_create_result(root, &nc)) {
		o->made = nc;
		model_event(p->m, EV_OK, k, o->job_id, nc, EVF_JOB_DONE,
			    "created instance %ld from offer %ld", nc, o->req.create.offer_id);
	} else
		model_event(p->m, EV_OK, k, o->job_id, 0, EVF_JOB_DONE,
			    "offer %ld accepted (no instance id in the answer)", o->req.create.offer_id);
	refresh_soon(p, SRC_USER);
}

static bool lost_create(struct poller *p, struct op *o, const char *why)
{
	model_event(p->m, EV_WARN, (int)JOB_CREATE, o->job_id, 0, EVF_JOB_DONE | EVF_UNKNOWN,
		    "create from offer %ld: %s, the outcome is unknown; looking for the instance it "
		    "may have made (label \"%s\"); check before trying again",
		    o->req.create.offer_id, why, o->req.create.label);
	return true;
}

static struct api_call send_tfa_login(struct poller *p, struct op *o)
{
	const struct job_req *r = &o->req;
	struct tfa_verify v = { .method_id = r->tfa_method_id };
	util_strlcpy(v.method, r->tfa_method, sizeof v.method);
	util_strlcpy(v.code, r->text, sizeof v.code);
	util_strlcpy(v.secret, r->tfa_secret, sizeof v.secret);
	struct api_call c = api_tfa_login_with(p->cfg, &v);
	api_tfa_verify_wipe(&v);
	return c;
}

static void answered_tfa_login(struct poller *p, struct op *o, const json_t *root)
{
	char *key = api_tfa_session_key(root);
	char msg[400];
	bool stored = auth_login(p->auth, key, msg, sizeof msg);
	/* quiet: the 2FA prompt that sent it says the outcome (its result) */
	model_event(p->m, stored ? EV_OK : EV_ERROR, (int)o->req.kind, o->job_id, 0,
		    EVF_JOB_DONE | EVF_QUIET, "%s", msg);
	util_strlcpy(o->said, msg, sizeof o->said);
	o->failed = !stored;
	if (stored)
		relaunch_parked(p);
	if (key) {
		explicit_bzero(key, strlen(key));
		free(key);
	}
}

static bool lost_tfa_login(struct poller *p, struct op *o, const char *why)
{
	model_event(p->m, EV_WARN, (int)o->req.kind, o->job_id, 0,
		    EVF_JOB_DONE | EVF_UNKNOWN | EVF_QUIET,
		    "2FA login: %s, the outcome is unknown; log in again", why);
	return false;
}

#undef JOB_EVENT

static const struct job_def job_defs[] = {
	[JOB_START] = { send_start, answered_start, lost_state, verdict_state, NULL },
	[JOB_STOP] = { send_stop, answered_stop, lost_state, verdict_state, NULL },
	[JOB_REBOOT] = { send_reboot, answered_reboot, lost_state, verdict_reboot, NULL },
	[JOB_LABEL] = { send_label, answered_label, lost_state, verdict_label, NULL },
	[JOB_DESTROY] = { send_destroy, answered_destroy, lost_destroy, verdict_destroy, NULL },
	[JOB_BID] = { send_bid, answered_bid, lost_bid, verdict_bid, NULL },
	[JOB_PREPAY] = { send_prepay, answered_prepay, lost_prepay, verdict_prepay, NULL },
	[JOB_CREATE] = { send_create, answered_create, lost_create, NULL, reread_create_done },
	[JOB_TFA_LOGIN] = { send_tfa_login, answered_tfa_login, lost_tfa_login, NULL, NULL },
};
_Static_assert(sizeof job_defs / sizeof job_defs[0] == JOB__COUNT,
	       "job_defs: one row per enum job_kind (jobs.h)");

/* The row of kind k (a kind out of range: the 2FA login's, as before). */
static const struct job_def *job_def(enum job_kind k)
{
	return &job_defs[(unsigned)k < JOB__COUNT ? k : JOB_TFA_LOGIN];
}

static void job_start(struct poller *p, const struct job_req *r, int id)
{
	struct op *o = op_add(p, OP_JOB);
	o->req = *r;
	o->job_id = id;
	o->call = job_def(r->kind)->call(p, o);
	o->retry_at = 0;
	log_msg("job %d: %s %ld", id, jobs_kind_name(r->kind), r->instance_id);
}

static void call_start(struct poller *p, struct job_call *c, int req_id, int sub_id)
{
	struct op *o = op_add(p, OP_CALL);
	o->jc = *c;
	o->call = c->call;
	o->jc.call.url = o->jc.call.body = NULL;
	o->job_id = req_id;
	o->sub_id = sub_id;
	o->retry_at = 0;
	log_msg("call %d: %s (%s)", req_id, c->what[0] ? c->what : api_ep_name(c->call.ep),
		c->action ? "action" : "fetch");
}

/* A job that asked for it (req.reply) leaves its end in the model under its
 * id, for its submitter (model_take_result); msg: the sentence (a failure's,
 * or a success's when it has one); a create's success carries the id of
 * the instance it made. */
static void job_result(struct poller *p, const struct op *o, enum call_outcome out,
		       const struct api_error *e, const char *msg)
{
	if (!o->req.reply)
		return;
	struct call_result r;
	memset(&r, 0, sizeof r);
	r.req_id = o->job_id;
	r.outcome = out;
	if (e)
		r.err = *e;
	if (msg)
		util_strlcpy(r.err.msg, msg, sizeof r.err.msg);
	if (out == CALL_OK && o->made > 0) {
		long *made = xmalloc(sizeof *made);
		*made = o->made;
		r.value = made;
	}
	r.when = util_now();
	model_put_result(p->m, &r);
}

/* A job refused for want of 2FA (e): a copy of its request waits with the
 * parked calls (a 2FA login's own refusal is its answer: never parked). */
static void park_job(struct poller *p, const struct op *o, const struct api_error *e)
{
	if (o->req.kind == JOB_TFA_LOGIN)
		return;
	struct op *q = xcalloc(1, sizeof *q);
	q->kind = OP_JOB;
	q->req = o->req;
	q->job_id = o->job_id;
	q->refused = *e;
	q->next = p->parked;
	p->parked = q;
}

static void job_done(struct poller *p, struct op *o, bool ok, const json_t *root,
		     const struct api_error *e)
{
	if (ok) {
		job_def(o->req.kind)->answered(p, o, root);
		/* after what it changed is published */
		job_result(p, o, o->failed ? CALL_ERROR : CALL_OK, o->failed ? &o->refused : NULL,
			   o->said[0] ? o->said : NULL);
	} else {
		char msg[400], line[600];
		apierr_format(e, msg, sizeof msg);
		unsigned f = EVF_JOB_DONE;
		if (e->cls == AE_NEEDS_TFA)
			f |= EVF_NEEDS_TFA;
		if (e->cls == AE_AUTH)
			f |= EVF_AUTH;
		long id = o->req.kind == JOB_CREATE ? 0 : o->req.instance_id;
		if (e->cls == AE_NEEDS_TFA) { /* expected: not a failure, the prompt follows */
			char what[64];
			if (id)
				snprintf(what, sizeof what, "%s instance %ld", jobs_kind_name(o->req.kind), id);
			else
				snprintf(what, sizeof what, "%s", jobs_kind_name(o->req.kind));
			/* no result: the job is parked, sent again under its id
			 * after the login (relaunch_parked), or given the refusal
			 * if the 2FA prompt is cancelled (drop_parked) */
			model_event(p->m, EV_WARN, (int)o->req.kind, o->job_id, id, f,
				    "%s needs a two-factor code: not done yet, sent again after "
				    "the 2FA login", what);
			park_job(p, o, e);
		} else {
			if (id)
				snprintf(line, sizeof line, "%s instance %ld failed: %s",
					 jobs_kind_name(o->req.kind), id, msg);
			else
				snprintf(line, sizeof line, "%s failed: %s", jobs_kind_name(o->req.kind),
					 msg);
			job_result(p, o, CALL_ERROR, e, line);
			model_event(p->m, EV_ERROR, (int)o->req.kind, o->job_id, id, f, "%s", line);
		}
	}
	jobs_finish(p->j, o->job_id);
	refresh_soon(p, SRC_INSTANCES);
}

/* Why the outcome is unknown, in words. */
static void lost_why(enum retry_fail f, const struct api_error *e, char *buf, size_t n)
{
	switch (f) {
	case RF_TIMEOUT: snprintf(buf, n, "no answer came in time"); break;
	case RF_GATEWAY:
	case RF_SERVER: snprintf(buf, n, "the service answered HTTP %d", e->http_status); break;
	case RF_BAD_ANSWER: snprintf(buf, n, "the answer was unreadable"); break;
	case RF_NOT_SENT:
	case RF_LOST:
	case RF_RATE_LIMIT:
	case RF_SESSION:
	case RF_REFUSED:
	case RF_REQ_TIMEOUT:
	case RF__COUNT: snprintf(buf, n, "the answer was lost"); break;
	}
}

/* The instance as the model holds it now (its credit before a prepay). */
static double credit_before(struct poller *p, long id)
{
	const struct snapshot *s = model_acquire(p->m);
	const struct instance *x = model_snapshot_find(s, id);
	double c = x && isfinite(x->credit_balance) ? x->credit_balance : 0;
	model_release(s);
	return c;
}

/* What the re-read of an unknown outcome asks: the instance; for a create,
 * the newest instances above the highest id listed when it was sent, with
 * its label (offers_lost_create_match picks the one it made). */
static struct api_call reread_call(struct poller *p, const struct job_req *r, long max_before)
{
	if (r->kind != JOB_CREATE)
		return api_instance(p->cfg, r->instance_id);
	json_t *f = json_pack("{s:{s:I}}", "id", "gt", (json_int_t)max_before);
	if (f && r->create.label[0])
		json_object_set_new(f, "label", json_pack("{s:s}", "eq", r->create.label));
	char *fs = f ? json_dumps(f, JSON_COMPACT) : NULL;
	json_decref(f);
	struct api_call c = api_instances_v1_q(p->cfg, NULL, API_PAGE_LIMIT, fs, NULL,
					       "[{\"col\":\"id\",\"dir\":\"desc\"}]");
	free(fs);
	return c;
}

/* Mark the outcome of action r (of job or request job_id) on its instance
 * unknown and re-read at once (reread_done reports what it shows). */
static void reread_start(struct poller *p, const struct job_req *r, int job_id, long max_before)
{
	long id = r->instance_id;
	if (r->kind != JOB_CREATE)
		model_set_unsure(p->m, job_id, (int)r->kind, id, true);
	struct op *q = op_add(p, OP_REREAD);
	q->req = *r;
	q->job_id = job_id;
	q->max_before = max_before;
	q->before = r->kind == JOB_CREATE ? NAN : credit_before(p, id);
	q->call = reread_call(p, r, max_before);
	q->retry_at = 0;
}

/* An action's answer was lost: say so, mark the row, never resend; re-read
 * the instance (and the balance) at once to tell what happened. */
static void job_unknown(struct poller *p, struct op *o, const struct api_error *e,
			enum retry_fail f)
{
	char why[80];
	lost_why(f, e, why, sizeof why);
	job_result(p, o, CALL_UNKNOWN, e, why);
	bool reread = job_def(o->req.kind)->lost(p, o, why);
	log_msg("job %d: %s: not resent, outcome unknown", o->job_id, retry_fail_name(f));
	if (reread)
		reread_start(p, &o->req, o->job_id, o->max_before);
	jobs_finish(p->j, o->job_id);
	refresh_soon(p, SRC_USER);
	refresh_soon(p, SRC_INSTANCES);
}

#define REREAD_TRIES 4     /* re-reads of an unknown outcome before giving up */
#define REREAD_AGAIN_S 5.0 /* s between them */

/* The re-read failed: try again later (the row stays marked), or give up. */
static bool reread_again(struct poller *p, const struct op *o)
{
	if (o->rereads + 1 >= REREAD_TRIES)
		return false;
	struct op *q = op_add(p, OP_REREAD);
	q->req = o->req;
	q->job_id = o->job_id;
	q->before = o->before;
	q->rereads = o->rereads + 1;
	q->max_before = o->max_before;
	q->call = reread_call(p, &o->req, o->max_before);
	q->retry_at = util_mono() + REREAD_AGAIN_S;
	return true;
}

/* The re-read after a create whose answer was lost ended: name the
 * instance it made (the event's instance id: the table selects it), or say
 * that none is listed, or that several could be it. */
static void reread_create_done(struct poller *p, struct op *o, const json_t *root,
			       const struct api_error *e)
{
	const struct create_req *c = &o->req.create;
	int k = (int)JOB_CREATE;
	struct instance *v = NULL;
	size_t n = 0;
	char *next = NULL;
	if (!root || !json_map_instances(root, &v, &n, &next)) {
		char msg[300] = "an unreadable answer";
		if (!root)
			apierr_format(e, msg, sizeof msg);
		bool again = reread_again(p, o);
		model_event(p->m, EV_WARN, k, o->job_id, 0, EVF_RESOLVED,
			    "create of offer %ld whose answer was lost: could not read the instance "
			    "list (%s); the outcome is still unknown%s", c->offer_id, msg,
			    again ? " (reading it again)" : "");
		return;
	}
	free(next);
	long id = 0;
	size_t fit = offers_lost_create_match(c, o->max_before, v, n, &id);
	const char *lab = c->label[0] ? c->label : "none";
	if (fit == 1) {
		const struct instance *x = NULL;
		for (size_t i = 0; i < n; i++)
			if (v[i].id == id)
				x = &v[i];
		model_event(p->m, EV_OK, k, o->job_id, id, EVF_RESOLVED,
			    "create of offer %ld whose answer was lost: instance %ld exists (label "
			    "%s, %s): created", c->offer_id, id, lab,
			    x ? instance_state_name(x->state) : "listed");
	} else if (fit > 1) {
		model_event(p->m, EV_WARN, k, o->job_id, 0, EVF_RESOLVED,
			    "create of offer %ld whose answer was lost: %zu new instances have its "
			    "label (%s) and image: check them before creating again", c->offer_id, fit,
			    lab);
	} else if (!reread_again(p, o)) {
		model_event(p->m, EV_WARN, k, o->job_id, 0, EVF_RESOLVED,
			    "create of offer %ld whose answer was lost: no new instance with its label "
			    "(%s) is listed: not created", c->offer_id, lab);
	}
	instance_free_all(v, n);
	refresh_soon(p, SRC_INSTANCES);
}

/* The re-read after an unknown outcome ended: report what it shows. */
static void reread_done(struct poller *p, struct op *o, const json_t *root,
			const struct api_error *e)
{
	const struct job_req *r = &o->req;
	const struct job_def *jd = job_def(r->kind);
	long id = r->instance_id;
	int k = (int)r->kind;
	unsigned fl = EVF_RESOLVED;
	if (jd->reread_list) {
		jd->reread_list(p, o, root, e);
		return;
	}
	struct instance x;
	memset(&x, 0, sizeof x);
	bool gone, have = false;
	if (root) {
		const json_t *v = json_is_object(root) ? json_object_get(root, "instances") : NULL;
		gone = !json_is_object(v);
		if (!gone)
			have = json_map_instance(v, &x);
		if (!gone && !have) {
			bool again = reread_again(p, o);
			model_event(p->m, EV_WARN, k, o->job_id, id, fl,
				    "%s of instance %ld: its re-read was unreadable; the outcome is "
				    "still unknown%s", jobs_kind_name(r->kind), id,
				    again ? " (reading it again)" : "");
			return;
		}
	} else if (e->http_status == 404 && e->cls == AE_CLIENT) {
		gone = true;
	} else {
		char msg[300];
		apierr_format(e, msg, sizeof msg);
		bool again = reread_again(p, o);
		model_event(p->m, EV_WARN, k, o->job_id, id, fl,
			    "%s of instance %ld: could not re-read it (%s); the outcome is still "
			    "unknown%s", jobs_kind_name(r->kind), id, msg,
			    again ? " (reading it again)" : "");
		return;
	}
	if (jd->verdict)
		jd->verdict(p, o, &x, have);
	if (have)
		instance_clear(&x);
	model_set_unsure(p->m, o->job_id, k, id, false);
	refresh_soon(p, SRC_INSTANCES);
}

/* An on-demand call ended: map its answer here (poller thread) and store the
 * result in the model under its request id. */
static void call_done(struct poller *p, struct op *o, const json_t *root,
		      const struct api_error *e, bool unknown)
{
	struct call_result r;
	memset(&r, 0, sizeof r);
	r.req_id = o->job_id;
	r.free_value = o->jc.free_value;
	r.when = util_now();
	if (o->jc.map_http && !e) {
		r.value = o->hvalue; /* the transfer was mapped as it ended */
		o->hvalue = NULL;
		r.outcome = CALL_OK;
	} else if (root) {
		struct api_error me;
		memset(&me, 0, sizeof me);
		r.value = o->jc.map ? o->jc.map(root, &me) : NULL;
		if (!r.value && me.cls != AE_NONE) {
			r.outcome = o->jc.action ? CALL_UNKNOWN : CALL_ERROR;
			r.err = me;
		} else {
			r.outcome = CALL_OK;
		}
	} else {
		r.outcome = unknown ? CALL_UNKNOWN : CALL_ERROR;
		r.err = *e;
	}
	if (o->sub_id) {
		jobs_call_done(p->j, o->sub_id, util_mono());
		if (!jobs_subscribed(p->j, o->sub_id)) {
			model_call_result_free(&r);
			return;
		}
	}
	const char *what = o->jc.what[0] ? o->jc.what : api_ep_name(o->call.ep);
	if (r.outcome == CALL_ERROR && e && e->cls == AE_NEEDS_TFA && o->jc.action) {
		/* refused for want of 2FA: nothing done; sent again after a login */
		struct op *q = xcalloc(1, sizeof *q);
		*q = *o;
		q->call.url = xstrdup(o->call.url);
		q->call.body = o->call.body ? xstrdup(o->call.body) : NULL;
		q->x = NULL;
		q->hvalue = NULL;
		q->wanting = false;
		q->attempt = q->refusals = 0;
		q->refused = *e;
		q->next = p->parked;
		p->parked = q;
		model_event(p->m, EV_WARN, -1, o->job_id, 0, EVF_NEEDS_TFA,
			    "%s needs a 2FA login: %s", what, e->msg);
		/* no answer yet: the asker waits for the call sent again after
		 * the login (its own result), or for this refusal if the 2FA
		 * prompt is cancelled (drop_parked) */
		model_call_result_free(&r);
		return;
	} else if (r.outcome == CALL_UNKNOWN && o->jc.nlost) {
		model_event(p->m, EV_WARN, -1, o->job_id, 0, EVF_UNKNOWN,
			    "%s: the answer was lost, the outcome is unknown; re-reading the %zu "
			    "instance%s", what, o->jc.nlost, o->jc.nlost == 1 ? "" : "s");
		/* each instance as a single action's unknown outcome: marked, then
		 * re-read and reported one by one (reread_done) */
		struct job_req one;
		memset(&one, 0, sizeof one);
		one.kind = o->jc.lost_kind;
		for (size_t i = 0; i < o->jc.nlost && i < API_BULK_BATCH; i++) {
			one.instance_id = o->jc.lost_ids[i];
			reread_start(p, &one, o->job_id, 0);
		}
		refresh_soon(p, SRC_INSTANCES);
	} else if (r.outcome == CALL_UNKNOWN) {
		model_event(p->m, EV_WARN, -1, o->job_id, 0, EVF_UNKNOWN,
			    "%s: the answer was lost, the outcome is unknown; check before trying "
			    "again", what);
	}
	model_put_result(p->m, &r);
}

/* After a 2FA login: the jobs and on-demand actions it was missing go out
 * again (they were refused, so nothing was done): a job through the queue
 * under its id (jobs_resubmit: its row pending again), a call as it was. */
static void relaunch_parked(struct poller *p)
{
	while (p->parked) {
		struct op *q = p->parked;
		p->parked = q->next;
		if (q->kind == OP_JOB) {
			int rc = jobs_resubmit(p->j, &q->req, q->job_id);
			if (rc != JOBS_OK) { /* never silently: said, and its asker's answer */
				char line[300];
				snprintf(line, sizeof line, "%s refused: %s", jobs_kind_name(q->req.kind),
					 jobs_strerror(rc));
				job_result(p, q, CALL_ERROR, NULL, line);
				model_event(p->m, EV_ERROR, (int)q->req.kind, q->job_id,
					    q->req.kind == JOB_CREATE ? 0 : q->req.instance_id, 0, "%s",
					    line);
			}
			explicit_bzero(&q->req, sizeof q->req);
			free(q);
			continue;
		}
		q->next = p->ops;
		q->retry_at = 0;
		q->session_retried = false;
		p->ops = q;
	}
}

/* ---- completion ------------------------------------------------------- */

/* The answer of a transfer that ended (x NULL: it could not be started):
 * parsed into *root (or *page for an instance page, or the call's own
 * value), *e set on failure; *rc and *sent for the retry rule.  The
 * transfer is freed.  True when the answer is a success. */
static bool op_answer(struct poller *p, struct op *o, struct http_xfer *x, struct api_error *e,
		      json_t **root, struct inst_page *page, CURLcode *rc, bool *sent)
{
	bool ok;
	*rc = CURLE_OK;
	*sent = false;
	if (!x) {
		char why[300];
		if (!http_url_allowed(o->call.url, why, sizeof why))
			apierr_transport(e, why);
		else
			apierr_transport(e, "could not start the request");
		*rc = CURLE_FAILED_INIT;
		return false;
	}
	api_scrub_answer(p->auth, &o->call, x); /* before anything reads it */
	if (o->kind == OP_CALL && o->jc.map_http) {
		memset(e, 0, sizeof *e);
		o->hvalue = o->jc.map_http(x, e);
		ok = e->cls == AE_NONE;
		if (!ok && o->hvalue) { /* a failure has no value */
			if (o->jc.free_value)
				o->jc.free_value(o->hvalue);
			else
				free(o->hvalue);
			o->hvalue = NULL;
		}
	} else if (o->kind == OP_FETCH && o->src == SRC_INSTANCES) {
		ok = api_parse_page(x, true, page, e);
	} else {
		ok = api_parse(x, root, e);
	}
	*rc = http_xfer_code(x);
	*sent = http_xfer_sent(x);
	curl_multi_remove_handle(p->multi, http_xfer_easy(x));
	http_xfer_free(x);
	o->x = NULL;
	return ok;
}

/* A fetch the service does not serve in its first form (api_should_fall_back):
 * switch the source to its other form (re-armed, or done).  True when the
 * op was re-armed or ended here. */
static bool op_fall_back(struct poller *p, struct op *o, const struct api_error *e, double now)
{
	struct source *src = &p->src[o->src];
	if (o->kind != OP_FETCH || !api_should_fall_back(e) || src->alt)
		return false;
	if (o->src == SRC_INSTANCES) {
		/* no v1 list: the v0 list, whole, from now on */
		src->alt = true;
		sweep_use_v0(&p->fleet);
		log_msg("%s answered %d: falling back to the v0 list", api_ep_name(o->call.ep),
			e->http_status);
		sweep_query_free(&o->q);
		if (!sweep_next(&p->fleet, &o->q)) {
			fetch_done(p, o->src);
			op_unlink_free(p, o);
			return true;
		}
		api_call_free(&o->call);
		o->call = list_call(p, &o->q);
		o->retry_at = now;
		return true;
	}
	if (o->src == SRC_WORKERGROUPS) {
		src->alt = true;
		api_call_free(&o->call);
		o->call = api_workergroups(p->cfg, true);
		o->retry_at = now;
		log_msg("%s answered %d: falling back", api_ep_name(o->call.ep), e->http_status);
		return true;
	}
	if (o->src == SRC_ENDPOINTS) {
		/* a service without serverless endpoints: stop asking */
		src->absent = true;
		model_set_endpoints(p->m, NULL, 0, util_now());
		fetch_done(p, o->src);
		op_unlink_free(p, o);
		return true;
	}
	return false;
}

/* A failure the retry rule allows to resend: re-arm o (after the service's
 * 429 window, or a backoff); false when its resends are used up. */
static bool op_rearm(struct poller *p, struct op *o, enum retry_fail f, CURLcode rc, double now)
{
	if (f == RF_RATE_LIMIT) {
		if (o->refusals >= OP_REFUSALS)
			return false;
		/* refused, nothing done: wait past the service's window */
		o->refusals++;
		struct pace *b = &p->pace.b[poller_pace_group(o->call.ep)];
		/* unpaced (--page-rate 0) and refused: paced from now on;
		 * not offer searches, which the offers view paces */
		if (b->rate <= 0 && poller_pace_group(o->call.ep) != EP_OFFERS)
			b->rate = api_ep_rate(o->call.ep);
		o->retry_at = poller_pace_refused(&p->pace, o->call.ep, now, jitter(p));
		log_msg("%s: 429, waiting %.2f s", api_ep_name(o->call.ep), o->retry_at - now);
		return true;
	}
	if (o->attempt >= OP_RETRIES || rc == CURLE_FAILED_INIT)
		return false;
	o->retry_at = now + backoff_retry_delay(o->attempt++);
	if (o->kind == OP_FETCH && o->src != SRC_INSTANCES) {
		double paced = backoff_pace(&p->src[o->src].bo, now);
		if (paced > o->retry_at)
			o->retry_at = paced;
	}
	return true;
}

/* Refused for the 2FA session key: resent once with the normal key (nothing
 * was done, a write too).  True when re-armed. */
static bool op_session_refused(struct poller *p, struct op *o, const struct api_error *e,
			       double now)
{
	bool dropped;
	if (o->session_retried || !auth_session_refused(p->auth, o->session_gen, &dropped))
		return false;
	o->session_retried = true;
	o->retry_at = now;
	if (dropped) /* said once, by the request that dropped it */
		model_event(p->m, EV_WARN, -1, 0, 0, EVF_TFA_EXPIRED,
			    "2FA session key refused (HTTP %d %s): removed, %s resent once with the "
			    "normal API key", e->http_status, e->msg, api_ep_name(o->call.ep));
	return true;
}

/* The op's end, by its kind: a success (e NULL) or a failure (d: RD_FAIL
 * or RD_UNKNOWN, f why); then it is freed. */
static void op_end(struct poller *p, struct op *o, json_t *root, struct inst_page *page,
		   const struct api_error *e, enum retry_fail f,
		   enum retry_decision d)
{
	switch (o->kind) {
	case OP_FETCH:
		if (e)
			fetch_failed(p, o, e);
		else
			fetch_ok(p, o, root, page);
		break;
	case OP_JOB:
		if (e && d == RD_UNKNOWN)
			job_unknown(p, o, e, f);
		else
			job_done(p, o, !e, root, e);
		break;
	case OP_REREAD: reread_done(p, o, root, e); break;
	case OP_CALL: call_done(p, o, root, e, e && d == RD_UNKNOWN); break;
	}
	op_unlink_free(p, o);
}

/* A transfer ended (x NULL: it could not be started).  The one retry rule
 * (retry.h) decides between resend, failure and unknown outcome; then the
 * op is handed to its kind's end and freed, or re-armed. */
static void op_complete(struct poller *p, struct op *o, struct http_xfer *x)
{
	struct api_error e;
	json_t *root = NULL;
	struct inst_page page = { .total = -1 }; /* an instance page: no tree (json_stream) */
	CURLcode rc;
	bool sent;
	bool ok = op_answer(p, o, x, &e, &root, &page, &rc, &sent);
	double now = util_mono();
	if (ok || e.cls != AE_RATE_LIMIT)
		poller_pace_answered(&p->pace, o->call.ep);
	if (ok) {
		op_end(p, o, root, &page, NULL, RF__COUNT, RD_RETRY);
		json_decref(root);
		pager_page_free(&page);
		return;
	}
	auth_redact(p->auth, e.msg);
	auth_redact(p->auth, e.slug);
	enum retry_fail f = retry_classify_sent(&e, rc, sent, o->session_gen != 0);
	enum retry_decision d = retry_decide(op_rkind(o), f);
	if (f == RF_SESSION && d == RD_RETRY) {
		if (op_session_refused(p, o, &e, now))
			return;
		d = RD_FAIL;
	}
	if (op_fall_back(p, o, &e, now))
		return;
	if (d == RD_RETRY) {
		if (op_rearm(p, o, f, rc, now))
			return;
		d = RD_FAIL;
	}
	op_end(p, o, NULL, NULL, &e, f, d);
}

/* ---- the instance list: cycles and the next planned request ------------- */

/* Start a cycle when due (after the user's first answer, or 1 s: the
 * balance comes first), and plan the next list request when none is in
 * flight and no failure backoff holds it (its bucket paces the send). */
static void fleet_due(struct poller *p, double now)
{
	struct source *src = &p->src[SRC_INSTANCES];
	bool user_first = p->src[SRC_USER].busy && now - p->t_start < 1.0 && p->fleet.gen == 0;
	if (now >= p->next_cycle && !user_first) {
		sweep_cycle(&p->fleet);
		double every = p->cfg->refresh_s;
		if (!p->fleet.small && every > FLEET_CYCLE_MAX_S)
			every = FLEET_CYCLE_MAX_S;
		p->next_cycle = now + every;
	}
	if (!src->busy && now >= src->bo.next_due) {
		fetch_start(p, SRC_INSTANCES, now);
		p->fleet_idle = !src->busy;
	}
}

/* ---- the thread ------------------------------------------------------- */

/* Drop the actions parked for want of 2FA; answer: give each asker its
 * refusal as the call's result (the 2FA prompt was cancelled). */
static void drop_parked(struct poller *p, bool answer)
{
	while (p->parked) {
		struct op *q = p->parked;
		p->parked = q->next;
		if (answer && q->kind == OP_JOB) {
			job_result(p, q, CALL_ERROR, &q->refused,
				   "cancelled: no two-factor code was given");
		} else if (answer) {
			struct call_result r;
			memset(&r, 0, sizeof r);
			r.req_id = q->job_id;
			r.outcome = CALL_ERROR;
			r.err = q->refused;
			util_strlcpy(r.err.msg, "cancelled: no two-factor code was given",
				     sizeof r.err.msg);
			r.when = util_now();
			r.free_value = q->jc.free_value;
			model_put_result(p->m, &r);
		}
		api_call_free(&q->call);
		explicit_bzero(&q->req, sizeof q->req); /* a create's env and registry login */
		free(q);
	}
}

/* Launch what is due: actions, re-reads and calls first, each under its
 * endpoint's pacer (an action waiting for a token is counted in the model's
 * "N actions queued"), then the fetches.  op_launch may complete and free
 * an op, so the walk restarts after each launch. */
static void launch_due(struct poller *p, double now)
{
	for (int pass = 0; pass < 2; pass++) {
		bool again = true;
		while (again) {
			again = false;
			for (struct op *o = p->ops; o; o = o->next) {
				if (o->x || o->retry_at > now || (pass == 0) != (o->kind != OP_FETCH))
					continue;
				if ((o->kind != OP_FETCH || o->src == SRC_INSTANCES) &&
				    !poller_pace_take(&p->pace, o->call.ep, op_rkind(o), now,
						      &o->wanting)) {
					o->retry_at = now + poller_pace_wait(&p->pace, o->call.ep,
									     op_rkind(o), now);
					continue;
				}
				op_launch(p, o);
				again = true;
				break;
			}
		}
	}
	int waiting = 0;
	for (struct op *o = p->ops; o; o = o->next)
		if (!o->x && (o->kind == OP_JOB || (o->kind == OP_CALL && o->jc.action)))
			waiting++;
	model_set_actions_waiting(p->m, waiting);
}

static void *run(void *arg)
{
	struct poller *p = arg;
	while (!atomic_load(&p->stop)) {
		double now = util_mono();
		if (atomic_exchange(&p->refresh, false))
			for (int s = 0; s < SRC__COUNT; s++)
				refresh_pressed(p, (enum model_source)s);
		if (atomic_exchange(&p->cancel_parked, false) && p->parked) {
			log_msg("2FA prompt cancelled: the actions waiting for a login are dropped");
			drop_parked(p, true);
		}
		for (int s = SRC__COUNT - 1; s >= 0; s--) {
			struct source *src = &p->src[s];
			if (s == SRC_INSTANCES)
				fleet_due(p, now);
			else if (!src->busy && !src->absent && now >= src->bo.next_due)
				fetch_start(p, (enum model_source)s, backoff_pace(&src->bo, now));
		}
		struct job_req r;
		int id;
		while (p->j && jobs_take(p->j, &r, &id))
			job_start(p, &r, id);
		explicit_bzero(&r, sizeof r);
		struct job_call jc;
		int sub;
		while (p->j && jobs_take_call(p->j, now, &jc, &id, &sub))
			call_start(p, &jc, id, sub);
		launch_due(p, now);
		int running;
		curl_multi_perform(p->multi, &running);
		CURLMsg *msg;
		int left;
		while ((msg = curl_multi_info_read(p->multi, &left))) {
			if (msg->msg != CURLMSG_DONE)
				continue;
			struct op *o = NULL;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&o);
			CURLcode rc = msg->data.result;
			if (!o || !o->x)
				continue;
			struct http_xfer *x = o->x;
			http_xfer_done(x, rc);
			op_complete(p, o, x);
		}
		/* sleep until the next due time (fetches, paced pages, retries) */
		now = util_mono();
		double next = now + 60;
		for (int s = 0; s < SRC__COUNT; s++)
			if (!p->src[s].busy && !p->src[s].absent && p->src[s].bo.next_due < next &&
			    !(s == SRC_INSTANCES && p->fleet_idle))
				next = p->src[s].bo.next_due;
		if (p->next_cycle < next)
			next = p->next_cycle;
		for (struct op *o = p->ops; o; o = o->next)
			if (!o->x && o->retry_at < next)
				next = o->retry_at;
		if (p->j) {
			double due = jobs_next_call_due(p->j);
			if (due < next)
				next = due;
		}
		double wait = next - now;
		int ms = wait <= 0 ? 0 : (int)(wait * 1000.0 + 1);
		if (ms > 0 || running)
			curl_multi_poll(p->multi, NULL, 0, ms, NULL);
	}
	/* quit: drop everything at once, no waiting on a hung server */
	while (p->ops) {
		struct op *o = p->ops;
		if (o->kind == OP_JOB && p->j)
			jobs_finish(p->j, o->job_id);
		op_unlink_free(p, o);
	}
	drop_parked(p, false);
	return NULL;
}

int poller_start(struct poller *p)
{
	if (p->started)
		return 0;
	/* Asynchronous signals belong to the UI thread: the poller thread (and
	 * any resolver thread curl starts from it) inherits a mask that blocks
	 * them, so a handler never runs concurrently with the UI loop. */
	static const int async_sigs[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP,
					  SIGCONT, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2,
					  SIGTTIN, SIGTTOU };
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof async_sigs / sizeof *async_sigs; i++)
		sigaddset(&block, async_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int rc = pthread_create(&p->th, NULL, run, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		return -1;
	p->started = true;
	return 0;
}

void poller_stop(struct poller *p)
{
	if (!p || !p->started)
		return;
	atomic_store(&p->stop, true);
	curl_multi_wakeup(p->multi);
	pthread_join(p->th, NULL);
	p->started = false;
}

void poller_free(struct poller *p)
{
	if (!p)
		return;
	poller_stop(p);
	if (p->j)
		jobs_set_waker(p->j, NULL, NULL);
	while (p->ops)
		op_unlink_free(p, p->ops);
	drop_parked(p, false);
	curl_multi_cleanup(p->multi);
	sweep_free(&p->fleet);
	free(p);
}
