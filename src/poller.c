/* poller.c: the network thread.  Owns the curl multi handle and every
 * transfer ("op"): the periodic fetches of instances (v1 pages, paced, with
 * the v0 fall-back), the user, workergroups (autojobs fall-back) and
 * serverless endpoints, each with its own backoff; and the queued jobs,
 * several in flight at once.  JSON is mapped here with no lock held, then
 * handed to the model.  The thread sleeps in curl_multi_poll() until a
 * fetch is due, a socket is ready or curl_multi_wakeup() is called (a job
 * was queued, "refresh now", stop).  Stopping removes every handle without
 * waiting for any timeout, so quitting is prompt even while a server hangs. */
#include "poller.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "auth.h"
#include "backoff.h"
#include "config.h"
#include "http.h"
#include "jobs.h"
#include "json_map.h"
#include "log.h"
#include "model.h"
#include "util.h"

#define OP_RETRIES 3 /* the CLI's retries of 429/5xx for one request */

enum op_kind { OP_FETCH, OP_JOB };

/* One request: in flight (x set) or waiting for retry_at (x NULL). */
struct op {
	enum op_kind kind;
	enum model_source src;  /* OP_FETCH */
	struct job_req req;     /* OP_JOB */
	int job_id;
	struct api_call call;
	struct http_xfer *x;
	int attempt;
	bool session_retried;
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
	struct instance *acc;   /* instances: pages gathered so far */
	size_t nacc;
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
	struct source src[SRC__COUNT];
	struct op *ops;
};

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
	}
	if (j)
		jobs_set_waker(j, wake, p);
	return p;
}

void poller_refresh_now(struct poller *p)
{
	atomic_store(&p->refresh, true);
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
	api_call_free(&o->call);
	explicit_bzero(&o->req, sizeof o->req); /* may hold a 2FA code */
	free(o);
}

static void op_complete(struct poller *p, struct op *o, struct http_xfer *x);

/* Send the op's request now. */
static void op_launch(struct poller *p, struct op *o)
{
	struct api_error e;
	char *hdr = o->call.no_auth ? NULL : auth_header(p->auth);
	o->x = http_xfer_new(&p->opts, o->call.method, o->call.url, o->call.body, hdr, &e);
	auth_header_free(hdr);
	if (o->kind == OP_FETCH)
		backoff_sent(&p->src[o->src].bo, util_mono());
	if (!o->x) {
		/* refused before sending (bad URL): complete as a failure at once */
		op_complete(p, o, NULL);
		return;
	}
	curl_easy_setopt(http_xfer_easy(o->x), CURLOPT_PRIVATE, o);
	if (curl_multi_add_handle(p->multi, http_xfer_easy(o->x)) != CURLM_OK) {
		http_xfer_free(o->x);
		o->x = NULL;
		op_complete(p, o, NULL);
	}
}

/* Build and queue the first (or next) request of a source's fetch. */
static void fetch_start(struct poller *p, enum model_source s, const char *token, double at)
{
	struct source *src = &p->src[s];
	struct op *o = op_add(p, OP_FETCH);
	o->src = s;
	switch (s) {
	case SRC_INSTANCES:
		o->call = src->alt ? api_instances_v0(p->cfg) : api_instances_v1(p->cfg, token);
		break;
	case SRC_USER: o->call = api_user(p->cfg); break;
	case SRC_WORKERGROUPS: o->call = api_workergroups(p->cfg, src->alt); break;
	default: o->call = api_endptjobs(p->cfg); break;
	}
	o->retry_at = at;
	if (!src->busy)
		model_set_in_flight(p->m, s, true, util_now());
	src->busy = true;
}

/* Something changed: fetch instances (and, after money moved, the user) now. */
static void refresh_soon(struct poller *p, enum model_source s)
{
	struct source *src = &p->src[s];
	if (src->busy)
		src->again = true;
	else
		backoff_due_now(&src->bo, util_mono());
}

/* ---- fetch results ---------------------------------------------------- */

static void fetch_done(struct poller *p, enum model_source s)
{
	struct source *src = &p->src[s];
	src->busy = false;
	if (src->again) {
		src->again = false;
		backoff_due_now(&src->bo, util_mono());
	}
}

static void fetch_failed(struct poller *p, struct op *o, const struct api_error *e)
{
	struct source *src = &p->src[o->src];
	char msg[400];
	apierr_format(e, msg, sizeof msg);
	bool transport = e->cls == AE_TRANSPORT;
	bool auth = e->cls == AE_AUTH || e->cls == AE_SESSION_EXPIRED;
	instances_free(src->acc, src->nacc);
	src->acc = NULL;
	src->nacc = 0;
	model_set_error(p->m, o->src, e->http_status, transport, auth, msg, util_now());
	if (auth && !src->auth_reported) {
		src->auth_reported = true;
		model_event(p->m, EV_ERROR, -1, 0, 0, EVF_AUTH, "the API key was refused: %s", msg);
	}
	backoff_failure(&src->bo, util_mono());
	log_msg("poll %s failed: %s", api_ep_name(o->call.ep), msg);
	fetch_done(p, o->src);
}

/* A page or list arrived: map it (no lock held) and hand it to the model. */
static void fetch_ok(struct poller *p, struct op *o, json_t *root)
{
	enum model_source s = o->src;
	struct source *src = &p->src[s];
	struct api_error e;
	double now = util_now();
	bool ok = true;
	src->auth_reported = false;
	switch (s) {
	case SRC_INSTANCES: {
		char *token = NULL;
		ok = json_map_instances(root, &src->acc, &src->nacc, &token);
		if (ok && token && *token && !src->alt) {
			/* next page, paced to the endpoint's threshold */
			fetch_start(p, s, token, backoff_pace(&src->bo, util_mono()));
			free(token);
			return;
		}
		free(token);
		if (ok) {
			model_set_instances(p->m, src->acc, src->nacc, now);
			src->acc = NULL;
			src->nacc = 0;
		}
		break;
	}
	case SRC_USER: {
		struct user *u = xcalloc(1, sizeof *u);
		ok = json_is_object(root) && json_map_user(root, u);
		if (ok)
			model_set_user(p->m, u, now);
		else
			user_free(u);
		break;
	}
	case SRC_WORKERGROUPS: {
		struct workergroup *v = NULL;
		size_t n = 0;
		ok = json_map_workergroups(root, &v, &n);
		if (ok)
			model_set_workergroups(p->m, v, n, now);
		else
			workergroups_free(v, n);
		break;
	}
	default: {
		struct endpoint *v = NULL;
		size_t n = 0;
		ok = json_map_endpoints(root, &v, &n);
		if (ok)
			model_set_endpoints(p->m, v, n, now);
		else
			endpoints_free(v, n);
		break;
	}
	}
	if (!ok) {
		apierr_protocol(&e, 200, "unexpected response shape");
		fetch_failed(p, o, &e);
		return;
	}
	backoff_success(&src->bo, util_mono());
	fetch_done(p, s);
}

/* ---- job results ------------------------------------------------------ */

static void job_start(struct poller *p, const struct job_req *r, int id)
{
	struct op *o = op_add(p, OP_JOB);
	o->req = *r;
	o->job_id = id;
	const struct config *c = p->cfg;
	switch (r->kind) {
	case JOB_START: o->call = api_start(c, r->instance_id); break;
	case JOB_STOP: o->call = api_stop(c, r->instance_id); break;
	case JOB_REBOOT: o->call = api_reboot(c, r->instance_id); break;
	case JOB_LABEL: o->call = api_label(c, r->instance_id, r->text); break;
	case JOB_DESTROY: o->call = api_destroy(c, r->instance_id); break;
	case JOB_BID: o->call = api_bid(c, r->instance_id, r->amount); break;
	case JOB_PREPAY: o->call = api_prepay(c, r->instance_id, r->amount); break;
	case JOB_CREATE: o->call = api_create(c, &r->create); break;
	default: o->call = api_tfa_login(c, r->tfa_method, r->text); break;
	}
	o->retry_at = 0;
	log_msg("job %d: %s %ld", id, job_kind_name(r->kind), r->instance_id);
}

static void job_event_ok(struct poller *p, struct op *o, const json_t *root)
{
	const struct job_req *r = &o->req;
	long id = r->instance_id;
	int k = (int)r->kind;
	unsigned f = EVF_JOB_DONE;
	switch (r->kind) {
	case JOB_START:
		model_event(p->m, EV_OK, k, o->job_id, id, f, "instance %ld: start requested", id);
		break;
	case JOB_STOP:
		model_event(p->m, EV_OK, k, o->job_id, id, f,
			    "instance %ld: stopped (disk charges continue)", id);
		break;
	case JOB_REBOOT:
		model_event(p->m, EV_OK, k, o->job_id, id, f, "instance %ld: rebooting", id);
		break;
	case JOB_LABEL:
		model_event(p->m, EV_OK, k, o->job_id, id, f, "instance %ld: label set to \"%s\"",
			    id, r->text);
		break;
	case JOB_DESTROY:
		model_event(p->m, EV_OK, k, o->job_id, id, f,
			    "instance %ld destroyed: all billing stopped", id);
		break;
	case JOB_BID:
		model_event(p->m, EV_OK, k, o->job_id, id, f, "instance %ld: bid set to $%.3f/h", id,
			    r->amount);
		break;
	case JOB_PREPAY: {
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
		model_event(p->m, EV_OK, k, o->job_id, id, f,
			    "instance %ld: prepaid $%.2f, covers %s at %s", id, r->amount, mtxt,
			    dtxt);
		refresh_soon(p, SRC_USER);
		break;
	}
	case JOB_CREATE: {
		long nc = 0;
		if (api_create_result(root, &nc))
			model_event(p->m, EV_OK, k, o->job_id, nc, f,
				    "created instance %ld from offer %ld", nc, r->create.offer_id);
		else
			model_event(p->m, EV_OK, k, o->job_id, 0, f,
				    "offer %ld accepted (no instance id in the answer)",
				    r->create.offer_id);
		refresh_soon(p, SRC_USER);
		break;
	}
	default: {
		char *key = api_tfa_session_key(root);
		char err[300];
		if (!key) {
			model_event(p->m, EV_ERROR, k, o->job_id, 0, f,
				    "2FA login: the service sent no session key");
		} else if (auth_store_session(p->auth, key, err, sizeof err) != 0) {
			model_event(p->m, EV_ERROR, k, o->job_id, 0, f,
				    "2FA login succeeded but the session key could not be stored: %s",
				    err);
		} else {
			model_event(p->m, EV_OK, k, o->job_id, 0, f,
				    "2FA login succeeded: session key stored in %s/vast_tfa_key",
				    p->cfg->vast_config_dir);
		}
		if (key) {
			explicit_bzero(key, strlen(key));
			free(key);
		}
		break;
	}
	}
}

static void job_done(struct poller *p, struct op *o, bool ok, const json_t *root,
		     const struct api_error *e)
{
	if (ok) {
		job_event_ok(p, o, root);
	} else {
		char msg[400];
		apierr_format(e, msg, sizeof msg);
		unsigned f = EVF_JOB_DONE;
		if (e->cls == AE_NEEDS_TFA)
			f |= EVF_NEEDS_TFA;
		if (e->cls == AE_AUTH)
			f |= EVF_AUTH;
		long id = o->req.kind == JOB_CREATE ? 0 : o->req.instance_id;
		if (id)
			model_event(p->m, EV_ERROR, (int)o->req.kind, o->job_id, id, f,
				    "%s instance %ld failed: %s", job_kind_name(o->req.kind), id, msg);
		else
			model_event(p->m, EV_ERROR, (int)o->req.kind, o->job_id, 0, f,
				    "%s failed: %s", job_kind_name(o->req.kind), msg);
	}
	jobs_finish(p->j, o->job_id);
	refresh_soon(p, SRC_INSTANCES);
}

/* ---- completion ------------------------------------------------------- */

/* A transfer ended (x NULL: it could not be started).  Decides between
 * retry, fall-back, failure and success; frees or re-arms the op. */
static void op_complete(struct poller *p, struct op *o, struct http_xfer *x)
{
	struct api_error e;
	json_t *root = NULL;
	CURLcode rc = CURLE_OK;
	bool ok;
	if (x) {
		ok = api_parse(x, &root, &e);
		rc = http_xfer_code(x);
		curl_multi_remove_handle(p->multi, http_xfer_easy(x));
		http_xfer_free(x);
		o->x = NULL;
	} else {
		ok = false;
		char why[300];
		if (!http_url_allowed(o->call.url, why, sizeof why))
			apierr_transport(&e, why);
		else
			apierr_transport(&e, "could not start the request");
		rc = CURLE_FAILED_INIT;
	}
	if (!ok) {
		auth_redact(p->auth, e.msg);
		auth_redact(p->auth, e.slug);
	}
	double now = util_mono();
	if (!ok) {
		if (e.cls == AE_SESSION_EXPIRED && !o->session_retried &&
		    auth_session_expired(p->auth)) {
			o->session_retried = true;
			o->retry_at = now;
			model_event(p->m, EV_WARN, -1, 0, 0, 0,
				    "2FA session expired: using the normal API key");
			return;
		}
		if (o->kind == OP_FETCH && api_should_fall_back(&e) && !p->src[o->src].alt) {
			struct source *src = &p->src[o->src];
			if (o->src == SRC_INSTANCES || o->src == SRC_WORKERGROUPS) {
				src->alt = true;
				api_call_free(&o->call);
				o->call = o->src == SRC_INSTANCES ? api_instances_v0(p->cfg)
								  : api_workergroups(p->cfg, true);
				o->retry_at = now;
				log_msg("%s answered %d: falling back", api_ep_name(o->call.ep),
					e.http_status);
				return;
			}
			if (o->src == SRC_ENDPOINTS) {
				/* a service without serverless endpoints: stop asking */
				src->absent = true;
				model_set_endpoints(p->m, NULL, 0, util_now());
				fetch_done(p, o->src);
				op_unlink_free(p, o);
				return;
			}
		}
		if (api_retryable(&e, rc) && o->attempt < OP_RETRIES && rc != CURLE_FAILED_INIT) {
			double d = backoff_retry_delay(o->attempt++);
			o->retry_at = now + d;
			if (o->kind == OP_FETCH) {
				double paced = backoff_pace(&p->src[o->src].bo, now);
				if (paced > o->retry_at)
					o->retry_at = paced;
			}
			return;
		}
		if (o->kind == OP_FETCH)
			fetch_failed(p, o, &e);
		else
			job_done(p, o, false, NULL, &e);
	} else if (o->kind == OP_FETCH) {
		fetch_ok(p, o, root);
	} else {
		job_done(p, o, true, root, NULL);
	}
	json_decref(root);
	op_unlink_free(p, o);
}

/* ---- the thread ------------------------------------------------------- */

static void *run(void *arg)
{
	struct poller *p = arg;
	while (!atomic_load(&p->stop)) {
		double now = util_mono();
		if (atomic_exchange(&p->refresh, false))
			for (int s = 0; s < SRC__COUNT; s++)
				refresh_soon(p, (enum model_source)s);
		for (int s = 0; s < SRC__COUNT; s++) {
			struct source *src = &p->src[s];
			if (!src->busy && !src->absent && now >= src->bo.next_due)
				fetch_start(p, (enum model_source)s, NULL,
					    backoff_pace(&src->bo, now));
		}
		struct job_req r;
		int id;
		while (p->j && jobs_take(p->j, &r, &id))
			job_start(p, &r, id);
		explicit_bzero(&r, sizeof r);
		/* launch what is due (op_launch may complete and free an op) */
		bool again = true;
		while (again) {
			again = false;
			for (struct op *o = p->ops; o; o = o->next)
				if (!o->x && o->retry_at <= now) {
					op_launch(p, o);
					again = true;
					break;
				}
		}
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
			if (!p->src[s].busy && !p->src[s].absent && p->src[s].bo.next_due < next)
				next = p->src[s].bo.next_due;
		for (struct op *o = p->ops; o; o = o->next)
			if (!o->x && o->retry_at < next)
				next = o->retry_at;
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
	for (int s = 0; s < SRC__COUNT; s++) {
		instances_free(p->src[s].acc, p->src[s].nacc);
		p->src[s].acc = NULL;
		p->src[s].nacc = 0;
	}
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
	curl_multi_cleanup(p->multi);
	free(p);
}
