/* test_poller.c: the network thread against a real rentop-sim (path in
 * $RENTOP_SIM, as tests/run.sh provides): the model
 * fills with every instance and the user; a queued job runs, reports its
 * event and triggers a refresh that shows its effect; prepay's event states
 * months and discount; a refused key marks the model; a lasting 503 and
 * dropped connections show as errors (offline for the latter) and recover; stopping while a
 * request hangs returns without waiting for the hung request; and with 2FA
 * on, a destroy asks for 2FA, a TOTP login stores the session key (0600)
 * and the destroy, kept by the poller, is sent again under its id and
 * succeeds; the prompt cancelled, the job's submitter gets the refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net/auth.h"
#include "base/config.h"
#include "api/api.h"
#include "api/api_serverless.h"
#include "poll/jobs.h"
#include "json/json_map.h"
#include "base/log.h"
#include "state/model.h"
#include "poll/poller.h"
#include "base/util.h"

struct sim {
	pid_t pid;
	char url[128];
	char key[160];
	char totp[128];
	char dir[64];
};

static struct sim sim;

/* Start the simulator (2FA "on"/"off", rate limits "on"/"off", with so many
 * instances) with output to a file; read its URL, key and TOTP secret. */
static int sim_start_with3(const char *extra, const char *rate_limits, const char *instances);

static int sim_start_with(const char *extra)
{
	return sim_start_with3(extra, "off", "60");
}

static int sim_start_with3(const char *extra, const char *rate_limits, const char *instances)
{
	const char *bin = getenv("RENTOP_SIM");
	memset(&sim, 0, sizeof sim);
	if (!bin || access(bin, X_OK) != 0) {
		fprintf(stderr, "# RENTOP_SIM is not set or not executable\n");
		return -1; /* tests/run.sh always provides it */
	}
	snprintf(sim.dir, sizeof sim.dir, "/tmp/rentop-test-poller-XXXXXX");
	if (!mkdtemp(sim.dir))
		return -1;
	char out[128];
	snprintf(out, sizeof out, "%s/sim.out", sim.dir);
	sim.pid = fork();
	if (sim.pid == 0) {
		if (!freopen(out, "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(126);
		execl(bin, bin, "--port", "0", "--seed", "7", "--instances", instances, "--endpoints", "0", "--rate-limits",
		      rate_limits, "--quiet", "--tfa", extra, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200 && !sim.key[0]; i++) {
		usleep(50 * 1000);
		FILE *f = fopen(out, "r");
		char line[512];
		while (f && fgets(line, sizeof line, f)) {
			line[strcspn(line, "\r\n")] = '\0';
			const char *u = strstr(line, "listening on ");
			if (u)
				util_strlcpy(sim.url, u + 13, sizeof sim.url);
			if (strncmp(line, "full-access key: ", 17) == 0)
				util_strlcpy(sim.key, line + 17, sizeof sim.key);
			if (strncmp(line, "totp secret: ", 13) == 0)
				util_strlcpy(sim.totp, line + 13, sizeof sim.totp);
		}
		if (f)
			fclose(f);
	}
	return sim.key[0] && sim.url[0] ? 0 : -1;
}

static int sim_start(void **state)
{
	(void)state;
	return sim_start_with("off");
}

static int sim_start_rl(void **state)
{
	(void)state;
	return sim_start_with3("off", "on", "60");
}

/* A fleet of one list page (SWEEP_PAGE_LIMIT): no attention cycles, so
 * between refresh intervals the poller sends nothing of its own. */
static int sim_start_one_page(void **state)
{
	(void)state;
	return sim_start_with3("off", "off", "20");
}

static int sim_start_tfa(void **state)
{
	(void)state;
	return sim_start_with("on");
}

/* What a test built, freed by rig_down() at the end of the test or, when an
 * assertion failed half-way, by the teardown (so no poller outlives its
 * test and talks to the next test's simulator). */
static struct {
	struct auth *a;
	struct model *m;
	struct jobs *j;
	struct poller *p;
} rig;

static void rig_keep(struct auth *a, struct model *m, struct jobs *j, struct poller *p)
{
	rig.a = a;
	rig.m = m;
	rig.j = j;
	rig.p = p;
}

static void rig_down(void)
{
	if (rig.p)
		poller_free(rig.p);
	if (rig.j)
		jobs_free(rig.j);
	if (rig.m)
		model_free(rig.m);
	if (rig.a)
		auth_free(rig.a);
	memset(&rig, 0, sizeof rig);
	unsetenv("VAST_API_KEY");
}

static int sim_stop(void **state)
{
	(void)state;
	rig_down();
	if (sim.pid > 0) {
		kill(sim.pid, SIGTERM);
		/* a connection held by a "hang" fault may keep it: then kill it */
		int i = 0;
		while (waitpid(sim.pid, NULL, WNOHANG) == 0) {
			if (++i == 100)
				kill(sim.pid, SIGKILL);
			usleep(20 * 1000);
		}
		sim.pid = 0;
	}
	if (sim.dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", sim.dir);
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

static size_t sink(char *p, size_t s, size_t n, void *arg)
{
	(void)p;
	(void)arg;
	return s * n;
}

/* POST a control request to the simulator. */
static void sim_ctl(const char *what, const char *body)
{
	char url[256];
	snprintf(url, sizeof url, "%s/__sim/%s", sim.url, what);
	CURL *c = curl_easy_init();
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
	assert_int_equal(curl_easy_perform(c), CURLE_OK);
	long st = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &st);
	curl_easy_cleanup(c);
	assert_true(st >= 200 && st < 300);
}

static struct config test_cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = sim.url;
	c.run_url = sim.url;
	c.vast_config_dir = sim.dir;
	c.refresh_s = 2;
	c.slow_refresh_s = 2;
	c.connect_timeout_s = 5;
	c.total_timeout_s = 600; /* a hung request must not delay stopping */
	c.page_rate = 20;
	return c;
}

/* Wait (up to ~20 s) until pred(snapshot) holds; the model's fd wakes us. */
static bool wait_for(struct model *m, bool (*pred)(const struct snapshot *, void *), void *arg)
{
	for (int i = 0; i < 400; i++) {
		const struct snapshot *s = model_acquire(m);
		bool ok = pred(s, arg);
		model_release(s);
		if (ok)
			return true;
		struct pollfd pf = {model_wake_fd(m), POLLIN, 0};
		poll(&pf, 1, 50);
		model_wake_drain(m);
	}
	return false;
}

static bool all_loaded(const struct snapshot *s, void *arg)
{
	(void)arg;
	return s->ninstances == 60 && s->user != NULL;
}

struct label_wait {
	long id;
	const char *label;
};

static bool has_label(const struct snapshot *s, void *arg)
{
	struct label_wait *w = arg;
	const struct instance *x = model_snapshot_find(s, w->id);
	return x && strcmp(x->label, w->label) == 0;
}

/* Find the event of job_id (EVF_JOB_DONE); waits up to ~20 s. */
static bool job_event(struct model *m, int job_id, struct event *out)
{
	for (int i = 0; i < 400; i++) {
		struct event ev[MODEL_EVENT_RING / 4];
		size_t n = model_events(m, 0, ev, sizeof ev / sizeof *ev);
		for (size_t k = 0; k < n; k++)
			if (ev[k].job_id == job_id && (ev[k].flags & EVF_JOB_DONE)) {
				*out = ev[k];
				return true;
			}
		usleep(50 * 1000);
	}
	return false;
}

/* Take the result of job_id (a job sent with reply set); waits up to ~20 s. */
static bool job_result_wait(struct model *m, int job_id, struct call_result *out)
{
	for (int i = 0; i < 400; i++) {
		if (model_take_result(m, job_id, out))
			return true;
		usleep(50 * 1000);
	}
	return false;
}

static void fills_model_and_runs_jobs(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_non_null(p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));

	const struct snapshot *s = model_acquire(m);
	long id = s->instances[3]->id;
	assert_true(s->fresh[SRC_INSTANCES].last_ok > 0);
	assert_false(s->offline);
	model_release(s);

	/* label: event, then the refresh shows it */
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_LABEL;
	r.instance_id = id;
	strcpy(r.text, "poller-test");
	int jid = 0;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	struct event ev;
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	assert_int_equal(ev.instance_id, id);
	struct call_result cr;
	assert_false(model_take_result(m, jid, &cr)); /* not sent with reply: no result */
	struct label_wait lw = {id, "poller-test"};
	assert_true(wait_for(m, has_label, &lw));

	/* prepay: the event states the months covered and the discount */
	memset(&r, 0, sizeof r);
	r.kind = JOB_PREPAY;
	r.instance_id = id;
	r.amount = 25;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	if (ev.level == EV_OK) {
		assert_non_null(strstr(ev.text, "months"));
		assert_non_null(strstr(ev.text, "discount"));
	} else {
		/* the seeded account may lack credit: the service's message is shown */
		assert_int_equal(ev.level, EV_ERROR);
		assert_non_null(strstr(ev.text, "prepay"));
	}

	/* an action on a missing instance fails with the service's message */
	memset(&r, 0, sizeof r);
	r.kind = JOB_BID;
	r.instance_id = 999999999;
	r.amount = 0.5;
	r.reply = true; /* its submitter takes its end by its id, as a call's result */
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_ERROR);
	assert_null(strstr(ev.text, sim.key));
	assert_true(job_result_wait(m, jid, &cr));
	assert_int_equal(cr.req_id, jid);
	assert_int_equal(cr.outcome, CALL_ERROR);
	assert_string_equal(cr.err.msg, ev.text); /* the event's sentence */
	model_call_result_free(&cr);
	assert_false(model_take_result(m, jid, &cr)); /* taken once */

	/* destroy: gone from the model after the refresh */
	memset(&r, 0, sizeof r);
	r.kind = JOB_DESTROY;
	r.instance_id = id;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	s = model_acquire(m);
	assert_int_equal(s->npending, 0);
	model_release(s);

	/* stop while a request hangs: returns without waiting for it */
	sim_ctl("fault", "{\"path\":\"/api/v1/instances/\",\"kind\":\"hang\",\"count\":1,\"ms\":3000}");
	poller_refresh_now(p);
	usleep(300 * 1000);
	poller_stop(p);
	poller_stop(p); /* twice is safe */
	rig_down();
}

static bool refused(const struct snapshot *s, void *arg)
{
	(void)arg;
	return s->auth_failed && s->fresh[SRC_INSTANCES].err[0];
}

static void refused_key_marks_model(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", "not-a-valid-key-0123456789", 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct poller *p = poller_new(&c, a, m, NULL);
	rig_keep(a, m, NULL, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, refused, NULL));
	const struct snapshot *s = model_acquire(m);
	assert_null(strstr(s->fresh[SRC_INSTANCES].err, "not-a-valid-key"));
	assert_int_equal(s->ninstances, 0);
	model_release(s);
	/* the EVF_AUTH event follows the model's flag */
	bool auth_ev = false;
	for (int tries = 0; tries < 200 && !auth_ev; tries++) {
		struct event ev[64];
		size_t n = model_events(m, 0, ev, 64);
		for (size_t i = 0; i < n; i++) {
			auth_ev |= (ev[i].flags & EVF_AUTH) != 0;
			assert_null(strstr(ev[i].text, "not-a-valid-key"));
		}
		if (!auth_ev)
			usleep(50 * 1000);
	}
	assert_true(auth_ev);
	rig_down();
}

/* The current TOTP code for the simulator's secret, from oathtool. */
static void totp_code(char *code, size_t n)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "oathtool --totp -b '%s'", sim.totp);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(code, (int)n, f));
	pclose(f);
	code[strcspn(code, "\r\n")] = '\0';
	assert_int_equal(strlen(code), 6);
}

/* Submit a 2FA login job with the current TOTP code (reply: its end is
 * left in the model under its id); returns the job id. */
static int totp_login(struct jobs *j, bool reply)
{
	struct job_req lr;
	memset(&lr, 0, sizeof lr);
	lr.kind = JOB_TFA_LOGIN;
	lr.reply = reply;
	strcpy(lr.tfa_method, "totp");
	totp_code(lr.text, sizeof lr.text);
	int jid;
	assert_int_equal(jobs_submit(j, &lr, &jid), JOBS_OK);
	return jid;
}

static long sim_count(const char *path, const char *method, bool prefix);

static void destroy_needs_tfa_then_login(void **state)
{
	(void)state;
	assert_true(sim.totp[0] != '\0');
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	const struct snapshot *s = model_acquire(m);
	long id = s->instances[0]->id;
	model_release(s);

	/* destroy without a session: the event asks for 2FA */
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_DESTROY;
	r.instance_id = id;
	r.reply = true;
	int jid, destroy_id;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	destroy_id = jid;
	struct event ev;
	assert_true(job_event(m, jid, &ev));
	/* expected, not a failure: a warning that says what follows */
	assert_int_equal(ev.level, EV_WARN);
	assert_true(ev.flags & EVF_NEEDS_TFA);
	assert_non_null(strstr(ev.text, "needs a two-factor code: not done yet"));
	struct call_result cr;
	assert_false(model_take_result(m, destroy_id, &cr)); /* no end yet: no result */

	/* a wrong code: an error event, no session file */
	memset(&r, 0, sizeof r);
	r.kind = JOB_TFA_LOGIN;
	strcpy(r.tfa_method, "totp");
	char code[16];
	totp_code(code, sizeof code);
	snprintf(r.text, sizeof r.text, "%06d", (atoi(code) + 1) % 1000000);
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_ERROR);
	assert_false(auth_using_session(a));

	/* the right code: the session key is stored (0600) and used */
	totp_code(code, sizeof code);
	strcpy(r.text, code);
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	assert_non_null(strstr(ev.text, "session key stored"));
	assert_true(auth_using_session(a));
	char path[256];
	snprintf(path, sizeof path, "%s/vast_tfa_key", sim.dir);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	FILE *f = fopen(path, "r");
	char stored[256] = {0};
	assert_non_null(fgets(stored, sizeof stored, f));
	fclose(f);
	assert_null(strstr(ev.text, stored));

	/* and the destroy goes through now: the poller kept it (parked) and
	 * sent it again under its id after the login, nobody resubmitting it:
	 * its submitter gets the result of the id it holds */
	assert_true(job_result_wait(m, destroy_id, &cr));
	assert_int_equal(cr.outcome, CALL_OK);
	model_call_result_free(&cr);
	char dpath[96];
	snprintf(dpath, sizeof dpath, "/api/v0/instances/%ld/", id);
	assert_int_equal(sim_count(dpath, "DELETE", false), 2); /* refused once, then done */
	s = model_acquire(m);
	assert_null(model_snapshot_find(s, id));
	model_release(s);

	/* no event ever carried a key */
	struct event all[256];
	size_t n = model_events(m, 0, all, 256);
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(all[i].text, sim.key));
		assert_null(strstr(all[i].text, stored));
	}
	rig_down();
}

static bool user_failed_503(const struct snapshot *s, void *arg)
{
	(void)arg;
	return s->fresh[SRC_USER].failures >= 1 && s->fresh[SRC_USER].err_status == 503 &&
	       s->fresh[SRC_USER].err[0];
}

static bool user_recovered(const struct snapshot *s, void *arg)
{
	const double *after = arg;
	return s->fresh[SRC_USER].failures == 0 && s->fresh[SRC_USER].last_ok > *after;
}

static bool went_offline(const struct snapshot *s, void *arg)
{
	(void)arg;
	return s->offline && s->fresh[SRC_WORKERGROUPS].err_status == 0 &&
	       s->fresh[SRC_WORKERGROUPS].failures >= 1;
}

static bool back_online(const struct snapshot *s, void *arg)
{
	(void)arg;
	return !s->offline && s->fresh[SRC_WORKERGROUPS].failures == 0;
}

static void errors_back_off_and_recover(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	c.total_timeout_s = 5;
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct poller *p = poller_new(&c, a, m, NULL);
	rig_keep(a, m, NULL, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));

	/* a 503 that outlasts the three quick retries: the user source shows
	 * the error (old data kept), then recovers after the backoff */
	sim_ctl("fault", "{\"path\":\"/api/v0/users/current/\",\"kind\":\"503\",\"count\":4}");
	poller_refresh_now(p);
	assert_true(wait_for(m, user_failed_503, NULL));
	const struct snapshot *s = model_acquire(m);
	assert_non_null(s->user); /* the last good user stays */
	assert_false(s->auth_failed);
	double failed_at = s->fresh[SRC_USER].last_err_at;
	model_release(s);
	assert_true(wait_for(m, user_recovered, &failed_at));

	/* dropped connections are transport failures: the model says offline */
	sim_ctl("fault", "{\"path\":\"/api/v0/workergroups/\",\"kind\":\"drop\",\"count\":100}");
	poller_refresh_now(p);
	assert_true(wait_for(m, went_offline, NULL));
	sim_ctl("reset", "{}"); /* the faults go */
	poller_refresh_now(p);
	assert_true(wait_for(m, back_online, NULL));
	rig_down();
}

/* ---- at most once, pacing, debounce, on-demand calls ------------------ */

struct buf {
	char *p;
	size_t n;
};

static size_t collect(char *p, size_t s, size_t n, void *arg)
{
	struct buf *b = arg;
	b->p = realloc(b->p, b->n + s * n + 1);
	memcpy(b->p + b->n, p, s * n);
	b->n += s * n;
	b->p[b->n] = '\0';
	return s * n;
}

/* GET /__sim/state, parsed. */
static json_t *sim_state_json(void)
{
	char url[256];
	snprintf(url, sizeof url, "%s/__sim/state", sim.url);
	struct buf b = {NULL, 0};
	CURL *c = curl_easy_init();
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	assert_int_equal(curl_easy_perform(c), CURLE_OK);
	curl_easy_cleanup(c);
	json_t *j = json_loadb(b.p, b.n, 0, NULL);
	free(b.p);
	assert_non_null(j);
	return j;
}

/* Requests of `method` (NULL: any) the simulator counted on `path` (a
 * prefix when prefix is true, else exactly, trailing slash ignored). */
static long sim_count(const char *path, const char *method, bool prefix)
{
	json_t *st = sim_state_json();
	json_t *reqs = json_object_get(st, "requests");
	const char *k;
	json_t *v;
	long n = 0;
	size_t pl = strlen(path);
	while (pl && path[pl - 1] == '/')
		pl--;
	json_object_foreach(reqs, k, v) {
		size_t kl = strlen(k);
		while (kl && k[kl - 1] == '/')
			kl--;
		bool match = prefix ? strncmp(k, path, pl) == 0 : (kl == pl && !strncmp(k, path, pl));
		if (!match)
			continue;
		if (method)
			n += (long)json_integer_value(json_object_get(json_object_get(v, "methods"), method));
		else
			n += (long)json_integer_value(json_object_get(v, "count"));
	}
	json_decref(st);
	return n;
}

/* Every source's first fetch has failed, none is in flight. */
static bool all_refused(const struct snapshot *s, void *arg)
{
	(void)arg;
	for (int i = 0; i < SRC__COUNT; i++)
		if (s->fresh[i].failures < 1 || s->fresh[i].in_flight)
			return false;
	return true;
}

/* Every source fetched after *arg (a wall epoch, util_now: the test clock;
 * 0: ever), the instance list swept whole after it, and nothing in flight. */
static bool all_fetched_since(const struct snapshot *s, void *arg)
{
	double after = *(const double *)arg;
	for (int i = 0; i < SRC__COUNT; i++)
		if (s->fresh[i].last_ok <= after || s->fresh[i].in_flight)
			return false;
	return s->progress.sweep_ok > after;
}

/* Once everything is loaded: a refresh interval passes at once on the test
 * clock, then wait until every source is fetched again and nothing is in
 * flight.  From then on the poller sends nothing of its own for another
 * interval, for a fleet of one page (sim_start_one_page: no attention
 * cycles; the first cycle's, planned before the fleet was known to fit in
 * one page, go before the new sweep's page).  The state is waited for, not
 * a time.  (The clock stays moved for the tests after: each poller plans
 * from its own start.) */
static void poller_quiet(struct model *m, struct poller *p, double interval)
{
	double ever = 0;
	assert_true(wait_for(m, all_fetched_since, &ever));
	assert_true(util_clock_advance(interval + 1));
	double mark = util_now();
	poller_wake(p);
	assert_true(wait_for(m, all_fetched_since, &mark));
}

/* The "2FA session key refused" warnings so far; no event names the key. */
static size_t session_refusals_said(struct model *m)
{
	struct event all[256];
	size_t n = model_events(m, 0, all, 256), said = 0;
	for (size_t i = 0; i < n; i++) {
		if (strstr(all[i].text, "2FA session key refused (HTTP 401 Invalid user key)")) {
			said++;
			assert_int_equal(all[i].level, EV_WARN);
			assert_non_null(strstr(all[i].text, "resent once with the normal API key"));
		}
		assert_null(strstr(all[i].text, "stale-session-key"));
	}
	return said;
}

/* A 2FA session key the service refuses as an invalid key (401 "Invalid
 * user key", as the official CLI reads it) on a write: the write was not
 * done, so it is resent once with the normal key, the session key and its
 * file dropped, said once; when a poll meets the refusal first, the write
 * after it goes once, with the normal key; with the normal key refused too,
 * one resend only and the write fails.  Each write is the only request of
 * its moment (poller_quiet; a failed fetch waits a whole interval): which
 * request meets the refusal first is never left to timing. */
static void session_refused_write_resent_once(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	c.refresh_s = c.slow_refresh_s = 3600; /* no poll between the refresh intervals */
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	poller_quiet(m, p, c.refresh_s);
	const struct snapshot *s = model_acquire(m);
	long id = s->instances[5]->id;
	model_release(s);
	char path[128], err[200];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);

	assert_int_equal(auth_store_session(a, "stale-session-key-0123456789abcdef", err, sizeof err), 0);
	char file[256];
	snprintf(file, sizeof file, "%s/vast_tfa_key", sim.dir);
	assert_int_equal(access(file, F_OK), 0);
	long before = sim_count(path, "PUT", false);
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_LABEL;
	r.instance_id = id;
	strcpy(r.text, "resent-once");
	int jid = 0;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	struct event ev;
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	assert_int_equal(sim_count(path, "PUT", false) - before, 2); /* refused, then done */
	assert_false(auth_using_session(a));
	assert_int_equal(access(file, F_OK), -1);
	struct label_wait lw = {id, "resent-once"};
	assert_true(wait_for(m, has_label, &lw));
	assert_int_equal(session_refusals_said(m), 1);

	/* the polls meet the refusal first (dropped, said once, resent): the
	 * write queued after them is sent once, with the normal key */
	assert_int_equal(auth_store_session(a, "stale-session-key-0123456789abcdef", err, sizeof err), 0);
	poller_quiet(m, p, c.refresh_s);
	assert_int_equal(session_refusals_said(m), 2);
	assert_false(auth_using_session(a));
	assert_int_equal(access(file, F_OK), -1);
	before = sim_count(path, "PUT", false);
	strcpy(r.text, "sent-once");
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	assert_int_equal(sim_count(path, "PUT", false) - before, 1);
	json_t *st = sim_state_json();
	json_t *put = json_object_get(json_object_get(st, "requests"), path);
	assert_string_equal(json_string_value(json_object_get(put, "last_auth")), "full");
	json_decref(st);
	lw.label = "sent-once";
	assert_true(wait_for(m, has_label, &lw));
	assert_int_equal(session_refusals_said(m), 2);
	rig_down();

	/* the normal key refused as well: one resend, then the write fails */
	setenv("VAST_API_KEY", "revoked-normal-key-0123456789abcdef", 1);
	a = auth_new(&c, NULL);
	m = model_new();
	j = jobs_new(m, false);
	p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	/* every first fetch, with the normal key, is done; none is due again
	 * for an interval: the write is the only request */
	assert_true(wait_for(m, all_refused, NULL));
	assert_int_equal(auth_store_session(a, "stale-session-key-0123456789abcdef", err, sizeof err), 0);
	before = sim_count(path, "PUT", false);
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_ERROR);
	assert_true(ev.flags & EVF_AUTH);
	assert_int_equal(sim_count(path, "PUT", false) - before, 2);
	rig_down();
}

static size_t sim_ninstances(void)
{
	json_t *st = sim_state_json();
	size_t n = json_array_size(json_object_get(st, "instances"));
	json_decref(st);
	return n;
}

/* A running instance's id, the k-th (sim state order). */
static long running_instance(int k)
{
	json_t *st = sim_state_json();
	json_t *v;
	size_t i;
	long id = 0;
	json_array_foreach(json_object_get(st, "instances"), i, v) {
		if (!json_is_string(json_object_get(v, "actual_status")) ||
		    strcmp(json_string_value(json_object_get(v, "actual_status")), "running") ||
		    strcmp(json_string_value(json_object_get(v, "intended_status")), "running"))
			continue;
		if (k-- == 0) {
			id = (long)json_integer_value(json_object_get(v, "id"));
			break;
		}
	}
	json_decref(st);
	return id;
}

struct offers_val {
	struct offer *v;
	size_t n;
};

static void offers_val_free(void *p)
{
	struct offers_val *o = p;
	json_map_offers_free(o->v, o->n);
	free(o);
}

/* Mapper of the on-demand channel: runs on the poller thread. */
static void *map_offers(const json_t *root, struct api_error *e)
{
	struct offers_val *o = calloc(1, sizeof *o);
	if (!json_map_offers(root, &o->v, &o->n)) {
		free(o);
		apierr_protocol(e, 200, "no offers list");
		return NULL;
	}
	return o;
}

static void *map_user(const json_t *root, struct api_error *e)
{
	struct user *u = calloc(1, sizeof *u);
	if (!json_map_user(root, u)) {
		free(u);
		apierr_protocol(e, 200, "no user");
		return NULL;
	}
	return u;
}

static void user_val_free(void *p)
{
	model_user_free(p);
}

/* Wait (up to ~20 s) for the result of req_id. */
static bool take_result(struct model *m, int req_id, struct call_result *out)
{
	for (int i = 0; i < 400; i++) {
		if (model_take_result(m, req_id, out))
			return true;
		struct pollfd pf = {model_wake_fd(m), POLLIN, 0};
		poll(&pf, 1, 50);
		model_wake_drain(m);
	}
	return false;
}

/* A rentable offer id, found through the on-demand channel. */
static long find_offer(struct jobs *j, struct model *m, const struct config *c, int skip)
{
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_offers(c, NULL);
	jc.map = map_offers;
	jc.free_value = offers_val_free;
	strcpy(jc.what, "offer search");
	int rid = 0;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	assert_null(jc.call.url); /* taken over */
	struct call_result r;
	assert_true(take_result(m, rid, &r));
	assert_int_equal(r.outcome, CALL_OK);
	struct offers_val *o = r.value;
	assert_non_null(o);
	assert_true(o->n > 0);
	long id = 0;
	for (size_t i = 0; i < o->n && !id; i++)
		if (o->v[i].rentable && skip-- == 0)
			id = o->v[i].id;
	model_call_result_free(&r);
	assert_true(id > 0);
	return id;
}

/* create has no key yet: the at-most-once rule is checked here.  A create
 * whose answer is lost ("lost": acted on, no answer; "truncated") is sent
 * once, makes one instance, and says the outcome is unknown. */
static void create_lost_is_not_resent(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	static const char *const kinds[] = {"lost", "truncated"};
	for (int k = 0; k < 2; k++) {
		long offer = find_offer(j, m, &c, k);
		char path[96], body[256];
		snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
		snprintf(body, sizeof body,
			 "{\"path\":\"%s\",\"method\":\"PUT\",\"kind\":\"%s\",\"count\":1}", path,
			 kinds[k]);
		sim_ctl("fault", body);
		size_t before = sim_ninstances();
		struct job_req r;
		memset(&r, 0, sizeof r);
		r.kind = JOB_CREATE;
		r.create.offer_id = offer;
		strcpy(r.create.image, "pytorch/pytorch");
		int jid;
		assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
		struct event ev;
		assert_true(job_event(m, jid, &ev));
		assert_int_equal(ev.level, EV_WARN);
		assert_true(ev.flags & EVF_UNKNOWN);
		assert_non_null(strstr(ev.text, "outcome is unknown"));
		assert_non_null(strstr(ev.text, "create from offer"));
		usleep(500 * 1000);
		assert_int_equal(sim_count(path, "PUT", false), 1);
		assert_int_equal(sim_ninstances(), before + 1);
	}
	rig_down();
}

struct ev_count {
	int ids[8];
	int n;
	int ok;
};

/* Rebooting 4 instances in a row with the service's rate limits on: paced
 * per endpoint, each sent once, all succeed; the model counts the queue. */
static void four_reboots_paced(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	c.page_rate = 1;
	c.refresh_s = 30;
	c.slow_refresh_s = 30;
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long ids[4];
	int jids[4];
	for (int i = 0; i < 4; i++) {
		ids[i] = running_instance(i);
		assert_true(ids[i] > 0);
	}
	for (int i = 0; i < 4; i++) {
		struct job_req r;
		memset(&r, 0, sizeof r);
		r.kind = JOB_REBOOT;
		r.instance_id = ids[i];
		assert_int_equal(jobs_submit(j, &r, &jids[i]), JOBS_OK);
	}
	int most_waiting = 0;
	for (int t = 0; t < 40; t++) {
		const struct snapshot *s = model_acquire(m);
		if (s->actions_waiting > most_waiting)
			most_waiting = s->actions_waiting;
		model_release(s);
		usleep(50 * 1000);
	}
	assert_true(most_waiting >= 1); /* "N actions queued" was shown */
	for (int i = 0; i < 4; i++) {
		struct event ev;
		assert_true(job_event(m, jids[i], &ev));
		assert_int_equal(ev.level, EV_OK);
		char path[96];
		snprintf(path, sizeof path, "/api/v0/instances/reboot/%ld/", ids[i]);
		assert_int_equal(sim_count(path, "PUT", false), 1); /* no 429 and resend */
	}
	const struct snapshot *s = model_acquire(m);
	assert_int_equal(s->actions_waiting, 0);
	model_release(s);
	rig_down();
}

/* 60 presses of "refresh now" in 2.4 s: at most two refreshes per source. */
static void refresh_debounced(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	c.refresh_s = 120;
	c.slow_refresh_s = 120;
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct poller *p = poller_new(&c, a, m, NULL);
	rig_keep(a, m, NULL, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	usleep(500 * 1000);
	long inst0 = sim_count("/api/v1/instances", "GET", false);
	long user0 = sim_count("/api/v0/users/current", "GET", false);
	long wg0 = sim_count("/api/v0/workergroups", "GET", false);
	long ep0 = sim_count("/api/v0/endptjobs", "GET", false);
	for (int i = 0; i < 60; i++) {
		poller_refresh_now(p);
		usleep(40 * 1000);
	}
	sleep(3);
	long inst = sim_count("/api/v1/instances", "GET", false) - inst0;
	long user = sim_count("/api/v0/users/current", "GET", false) - user0;
	long wg = sim_count("/api/v0/workergroups", "GET", false) - wg0;
	long ep = sim_count("/api/v0/endptjobs", "GET", false) - ep0;
	fprintf(stderr, "# 60 presses: %ld instance pages, %ld user, %ld workergroups, %ld endpoints\n",
		inst, user, wg, ep);
	/* 60 instances: at most two refresh cycles, each up to 3 attention
	 * queries (two failure groups, booting) and a sweep of 3 pages */
	assert_true(inst >= 3 && inst <= 15); /* 151 before the debounce */
	assert_true(user >= 1 && user <= 2);
	assert_true(wg >= 1 && wg <= 2);
	assert_true(ep >= 1 && ep <= 2);
	rig_down();
}

/* GET requests to path so far, once none has come for 0.3 s (the answers
 * of those already out have landed). */
static long settled_count(const char *path)
{
	long n = sim_count(path, "GET", false);
	for (int quiet = 0, i = 0; quiet < 3 && i < 100; i++) {
		usleep(100 * 1000);
		long k = sim_count(path, "GET", false);
		quiet = k == n ? quiet + 1 : 0;
		n = k;
	}
	return n;
}

/* secs pass at once on the poller's clock (util_mono: the test clock); the
 * poller is woken to plan again, and given half a real second to send
 * whatever fell due. */
static void clock_jump(struct poller *p, double secs)
{
	assert_true(util_clock_advance(secs));
	poller_wake(p);
	usleep(500 * 1000);
}

/* The on-demand channel: a fetch with its mapper, an action whose answer is
 * lost (unknown, sent once), a refused action, a subscription re-issued at
 * its interval, paused while hidden and stopped by unsubscribe; read-only
 * refuses actions. */
static void on_demand_calls(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	c.refresh_s = 120;
	c.slow_refresh_s = 120;
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));

	const struct snapshot *s = model_acquire(m);
	uint64_t seq0 = s->results_seq;
	model_release(s);
	assert_true(find_offer(j, m, &c, 0) > 0);
	s = model_acquire(m);
	assert_true(s->results_seq > seq0);
	model_release(s);

	/* an action whose answer is lost: unknown, sent once, acted on once */
	long id = running_instance(0);
	char path[96], body[256];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	snprintf(body, sizeof body, "{\"path\":\"%s\",\"method\":\"PUT\",\"kind\":\"lost\",\"count\":1}",
		 path);
	sim_ctl("fault", body);
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_label(&c, id, "on-demand");
	jc.action = true;
	int rid;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	struct call_result r;
	assert_true(take_result(m, rid, &r));
	assert_int_equal(r.outcome, CALL_UNKNOWN);
	assert_null(r.value);
	assert_int_equal(sim_count(path, "PUT", false), 1);
	model_call_result_free(&r);
	/* a refused action: the service's error, nothing else sent */
	memset(&jc, 0, sizeof jc);
	jc.call = api_label(&c, 999999999, "x");
	jc.action = true;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	assert_true(take_result(m, rid, &r));
	assert_int_equal(r.outcome, CALL_ERROR);
	assert_int_equal(r.err.http_status, 404);
	assert_int_equal(sim_count("/api/v0/instances/999999999/", "PUT", false), 1);

	/* a subscription every second */
	memset(&jc, 0, sizeof jc);
	jc.call = api_user(&c);
	jc.map = map_user;
	jc.free_value = user_val_free;
	jc.action = true;
	int sid;
	assert_int_equal(jobs_subscribe(j, &jc, 1.0, true, &sid), JOBS_EINVAL); /* no action */
	jc.call = api_user(&c);
	jc.action = false;
	assert_int_equal(jobs_subscribe(j, &jc, 1.0, true, &sid), JOBS_OK);
	for (int k = 0; k < 3; k++) {
		assert_true(take_result(m, sid, &r));
		assert_int_equal(r.outcome, CALL_OK);
		struct user *u = r.value;
		assert_true(u->id > 0);
		model_call_result_free(&r);
	}
	/* hidden: not re-issued, however long on the poller's clock */
	jobs_set_visible(j, sid, false);
	long n0 = settled_count("/api/v0/users/current");
	clock_jump(p, 5.0);
	assert_int_equal(sim_count("/api/v0/users/current", "GET", false), n0);
	/* shown: at once */
	model_drop_result(m, sid);
	jobs_set_visible(j, sid, true);
	assert_true(take_result(m, sid, &r));
	model_call_result_free(&r);
	jobs_unsubscribe(j, sid);
	assert_false(jobs_subscribed(j, sid));
	n0 = settled_count("/api/v0/users/current");
	clock_jump(p, 5.0);
	assert_int_equal(sim_count("/api/v0/users/current", "GET", false), n0);
	assert_false(model_take_result(m, sid, &r));
	rig_down();

	/* read-only: actions refused (the call freed), fetches allowed */
	m = model_new();
	j = jobs_new(m, true);
	memset(&jc, 0, sizeof jc);
	jc.call = api_label(&c, 1, "x");
	jc.action = true;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_EREADONLY);
	assert_null(jc.call.url);
	jc.call = api_user(&c);
	jc.action = false;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	jobs_free(j);
	model_free(m);
}

static void *map_url(const json_t *root, struct api_error *e)
{
	char *u = api_instance_logs_url(root);
	if (!u)
		apierr_protocol(e, 200, "no result_url");
	return u;
}

/* map_http: the result_url's plain text, or a failure (404: not yet). */
static void *map_log_text(const struct http_xfer *x, struct api_error *e)
{
	char *text = NULL;
	if (api_instance_logs_result(x, &text, e) != LOGRES_READY) {
		if (e->cls == AE_NONE)
			apierr_protocol(e, 404, "pending");
		free(text);
		return NULL;
	}
	return text;
}

/* An on-demand call whose answer is not JSON (an instance's log copy):
 * mapped from the transfer (map_http); its 404 before the copy is written
 * is a CALL_ERROR with the status, then the text arrives as CALL_OK. */
static void on_demand_plain_text(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long id = running_instance(0);
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_instance_logs_request(&c, id, 50);
	jc.map = map_url;
	int rid;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	struct call_result r;
	assert_true(take_result(m, rid, &r));
	assert_int_equal(r.outcome, CALL_OK);
	char *url = r.value;
	r.value = NULL;
	model_call_result_free(&r);
	assert_non_null(url);
	bool pending = false, ready = false;
	for (int k = 0; k < 40 && !ready; k++) {
		char err[160];
		memset(&jc, 0, sizeof jc);
		jc.call = api_instance_logs_fetch(url, err, sizeof err);
		assert_non_null(jc.call.url);
		jc.map_http = map_log_text;
		assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
		assert_true(take_result(m, rid, &r));
		if (r.outcome == CALL_ERROR) {
			assert_int_equal(r.err.http_status, 404);
			pending = true;
			usleep(250 * 1000);
		} else {
			assert_int_equal(r.outcome, CALL_OK);
			assert_non_null(r.value);
			assert_non_null(strstr(r.value, "loss")); /* the simulator's training log */
			ready = true;
		}
		model_call_result_free(&r);
	}
	assert_true(pending); /* served 2 s after the request: 404 first */
	assert_true(ready);
	free(url);
	rig_down();
}

/* The EVF_NEEDS_TFA event of request rid, waited for. */
static bool tfa_asked(struct model *m, int rid)
{
	for (int i = 0; i < 400; i++) {
		struct event ev[256];
		size_t n = model_events(m, 0, ev, 256);
		for (size_t k = 0; k < n; k++)
			if (ev[k].job_id == rid && (ev[k].flags & EVF_NEEDS_TFA))
				return true;
		usleep(50 * 1000);
	}
	return false;
}

/* An on-demand action that needs 2FA: refused with EVF_NEEDS_TFA (nothing
 * done) and no result yet (its asker waits), then sent again by the poller
 * after a 2FA login: the asker's one result is the action's own, a success. */
static void on_demand_action_needs_tfa(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long id = running_instance(1);
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_destroy(&c, id);
	jc.action = true;
	strcpy(jc.what, "destroy");
	int rid;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	struct call_result r;
	assert_true(tfa_asked(m, rid));
	usleep(200 * 1000);
	assert_false(model_take_result(m, rid, &r)); /* the refusal is no answer yet */

	int jid = totp_login(j, false);
	struct event le;
	assert_true(job_event(m, jid, &le));
	assert_int_equal(le.level, EV_OK);
	assert_true(take_result(m, rid, &r));
	assert_int_equal(r.outcome, CALL_OK);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	assert_int_equal(sim_count(path, "DELETE", false), 2); /* refused once, then done */
	json_t *st = sim_state_json();
	json_t *v;
	size_t i;
	json_array_foreach(json_object_get(st, "instances"), i, v)
		assert_true(json_integer_value(json_object_get(v, "id")) != id);
	json_decref(st);
	rig_down();
}

/* The 2FA prompt cancelled: the parked action is not sent again, and its
 * asker gets the refusal as its result (saying it was cancelled). */
static void on_demand_action_tfa_cancelled(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long id = running_instance(1);
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_destroy(&c, id);
	jc.action = true;
	strcpy(jc.what, "destroy");
	int rid;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	assert_true(tfa_asked(m, rid));
	poller_cancel_parked(p);
	struct call_result r;
	assert_true(take_result(m, rid, &r));
	assert_int_equal(r.outcome, CALL_ERROR);
	assert_int_equal(r.err.cls, AE_NEEDS_TFA);
	assert_non_null(strstr(r.err.msg, "cancelled"));
	model_call_result_free(&r);
	/* a later login sends nothing more */
	int jid = totp_login(j, false);
	struct event le;
	assert_true(job_event(m, jid, &le));
	assert_int_equal(le.level, EV_OK);
	usleep(300 * 1000);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	assert_int_equal(sim_count(path, "DELETE", false), 1);
	assert_false(model_take_result(m, rid, &r));
	rig_down();
}

/* A job refused for want of 2FA, the prompt cancelled: the parked job is
 * not sent again, and its submitter (reply) gets the refusal as its result,
 * saying it was cancelled; a later login sends nothing more. */
static void job_tfa_cancelled(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long id = running_instance(1);
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_DESTROY;
	r.instance_id = id;
	r.reply = true;
	int jid;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(tfa_asked(m, jid));
	struct call_result cr;
	assert_false(model_take_result(m, jid, &cr)); /* waiting for the prompt */
	poller_cancel_parked(p);
	assert_true(job_result_wait(m, jid, &cr));
	assert_int_equal(cr.outcome, CALL_ERROR);
	assert_int_equal(cr.err.cls, AE_NEEDS_TFA);
	assert_non_null(strstr(cr.err.msg, "cancelled"));
	model_call_result_free(&cr);
	int lid = totp_login(j, true);
	assert_true(job_result_wait(m, lid, &cr)); /* the login's end, by its id */
	assert_int_equal(cr.outcome, CALL_OK);
	assert_non_null(strstr(cr.err.msg, "session key stored"));
	model_call_result_free(&cr);
	usleep(300 * 1000);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	assert_int_equal(sim_count(path, "DELETE", false), 1);
	assert_false(model_take_result(m, jid, &cr));
	rig_down();
}

/* A prepay whose answer is lost: the row is marked while the outcome is
 * unknown, kept marked while the re-read itself fails (a 503 outlasting the
 * quick retries), and cleared when a later re-read tells: took effect. */
static bool marked(const struct snapshot *s, void *arg)
{
	return model_snapshot_unsure(s, *(long *)arg) != NULL;
}

static bool unmarked(const struct snapshot *s, void *arg)
{
	return model_snapshot_unsure(s, *(long *)arg) == NULL;
}

/* The first event with flag EVF_RESOLVED for job_id (~20 s). */
static bool resolved_event(struct model *m, int job_id, struct event *out)
{
	for (int i = 0; i < 400; i++) {
		struct event ev[MODEL_EVENT_RING / 4];
		size_t n = model_events(m, 0, ev, sizeof ev / sizeof *ev);
		for (size_t k = 0; k < n; k++)
			if (ev[k].job_id == job_id && (ev[k].flags & EVF_RESOLVED) &&
			    !strstr(ev[k].text, "still unknown")) {
				*out = ev[k];
				return true;
			}
		usleep(50 * 1000);
	}
	return false;
}

static void unknown_prepay_marked_until_reread(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	c.refresh_s = 60;
	c.slow_refresh_s = 60;
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long id = running_instance(2);
	char path[96], body[256];
	snprintf(path, sizeof path, "/api/v0/instances/prepay/%ld/", id);
	snprintf(body, sizeof body,
		 "{\"path\":\"%s\",\"method\":\"PUT\",\"kind\":\"truncated\",\"count\":1}", path);
	sim_ctl("fault", body);
	snprintf(body, sizeof body,
		 "{\"path\":\"/api/v0/instances/%ld/\",\"method\":\"GET\",\"kind\":\"503\",\"count\":4}",
		 id);
	sim_ctl("fault", body);
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_PREPAY;
	r.instance_id = id;
	r.amount = 10;
	int jid;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	struct event ev;
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_WARN);
	assert_true(ev.flags & EVF_UNKNOWN);
	assert_non_null(strstr(ev.text, "the answer was lost, the outcome is unknown"));
	assert_true(wait_for(m, marked, &id));
	assert_true(resolved_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	assert_non_null(strstr(ev.text, "the prepay took effect"));
	assert_true(wait_for(m, unmarked, &id));
	assert_int_equal(sim_count(path, "PUT", false), 1);
	/* the first re-read failed (1 + 3 quick retries), a later one told */
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	assert_true(sim_count(path, "GET", false) >= 5);
	bool said_again = false;
	struct event all[256];
	size_t n = model_events(m, 0, all, 256);
	for (size_t i = 0; i < n; i++)
		said_again |= all[i].job_id == jid && strstr(all[i].text, "reading it again") != NULL;
	assert_true(said_again);
	rig_down();
}

/* issue 21: a create whose answer was lost is matched to the instance it
 * made (a newer id with its label and image, re-read from the list) and
 * the event names it ("instance N exists (label ...): created"). */
static void lost_create_matched(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long offer = find_offer(j, m, &c, 3);
	char path[96], body[256];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
	snprintf(body, sizeof body,
		 "{\"path\":\"%s\",\"method\":\"PUT\",\"kind\":\"truncated\",\"count\":1}", path);
	sim_ctl("fault", body);
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_CREATE;
	r.create.offer_id = offer;
	strcpy(r.create.image, "pytorch/pytorch");
	strcpy(r.create.label, "lost-match");
	int jid;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	struct event ev;
	assert_true(job_event(m, jid, &ev));
	assert_true(ev.flags & EVF_UNKNOWN);
	assert_true(resolved_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);
	assert_int_equal(ev.job_kind, JOB_CREATE);
	assert_true(ev.instance_id > 0);
	/* the simulator's own newest instance with that label */
	json_t *st = sim_state_json();
	json_t *v;
	size_t i;
	long made = 0;
	json_array_foreach(json_object_get(st, "instances"), i, v) {
		const char *l = json_string_value(json_object_get(v, "label"));
		if (l && !strcmp(l, "lost-match"))
			made = (long)json_integer_value(json_object_get(v, "id"));
	}
	json_decref(st);
	assert_int_equal(ev.instance_id, made);
	char want[200];
	snprintf(want, sizeof want,
		 "create of offer %ld whose answer was lost: instance %ld exists (label lost-match",
		 offer, made);
	assert_non_null(strstr(ev.text, want));
	assert_non_null(strstr(ev.text, "): created"));
	assert_int_equal(sim_count(path, "PUT", false), 1);
	rig_down();
}

/* issue 21: a bulk stop whose answer was lost: each of its instances is
 * marked, re-read and reported as a single stop is. */
static void lost_bulk_reread_each(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", sim.key, 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct poller *p = poller_new(&c, a, m, j);
	rig_keep(a, m, j, p);
	assert_int_equal(poller_start(p), 0);
	assert_true(wait_for(m, all_loaded, NULL));
	long ids[2] = { running_instance(0), running_instance(1) };
	assert_true(ids[0] > 0 && ids[1] > 0);
	sim_ctl("fault", "{\"path\":\"/api/v0/instances/\",\"method\":\"PUT\",\"kind\":\"truncated\","
			 "\"count\":1}");
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.action = true;
	jc.call = api_bulk_state(&c, ids, 2, false);
	jc.lost_kind = JOB_STOP;
	jc.nlost = 2;
	memcpy(jc.lost_ids, ids, sizeof ids);
	snprintf(jc.what, sizeof jc.what, "stop of 2 instances");
	int rid;
	assert_int_equal(jobs_call(j, &jc, &rid), JOBS_OK);
	bool told[2] = { false, false };
	for (int t = 0; t < 400 && !(told[0] && told[1]); t++) {
		struct event ev[MODEL_EVENT_RING / 4];
		size_t n = model_events(m, 0, ev, sizeof ev / sizeof *ev);
		for (size_t k = 0; k < n; k++)
			for (int x = 0; x < 2; x++)
				if (ev[k].job_id == rid && (ev[k].flags & EVF_RESOLVED) &&
				    ev[k].instance_id == ids[x]) {
					char want[120];
					snprintf(want, sizeof want, "instance %ld is ", ids[x]);
					assert_non_null(strstr(ev[k].text, want));
					assert_non_null(strstr(ev[k].text, "the stop took effect"));
					told[x] = true;
				}
		usleep(50 * 1000);
	}
	assert_true(told[0] && told[1]);
	assert_true(wait_for(m, unmarked, &ids[0]));
	assert_true(wait_for(m, unmarked, &ids[1]));
	assert_int_equal(sim_count("/api/v0/instances/", "PUT", false), 1);
	rig_down();
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (getenv("RENTOP_TEST_LOG")) /* the poller's debug log, for diagnosis */
		log_open(getenv("RENTOP_TEST_LOG"));
	/* a part of the tests by name (cmocka's globs): tests/run.sh runs this
	 * binary as two items side by side, TEST_FILTER=P and TEST_SKIP=P */
	if (getenv("TEST_FILTER"))
		cmocka_set_test_filter(getenv("TEST_FILTER"));
	if (getenv("TEST_SKIP"))
		cmocka_set_skip_filter(getenv("TEST_SKIP"));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(fills_model_and_runs_jobs, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(refused_key_marks_model, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(session_refused_write_resent_once, sim_start_one_page,
						sim_stop),
		cmocka_unit_test_setup_teardown(errors_back_off_and_recover, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(destroy_needs_tfa_then_login, sim_start_tfa,
						sim_stop),
		cmocka_unit_test_setup_teardown(create_lost_is_not_resent, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(four_reboots_paced, sim_start_rl, sim_stop),
		cmocka_unit_test_setup_teardown(refresh_debounced, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(on_demand_calls, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(on_demand_plain_text, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(on_demand_action_needs_tfa, sim_start_tfa,
						sim_stop),
		cmocka_unit_test_setup_teardown(on_demand_action_tfa_cancelled, sim_start_tfa,
						sim_stop),
		cmocka_unit_test_setup_teardown(unknown_prepay_marked_until_reread, sim_start,
						sim_stop),
		cmocka_unit_test_setup_teardown(lost_create_matched, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(job_tfa_cancelled, sim_start_tfa, sim_stop),
		cmocka_unit_test_setup_teardown(lost_bulk_reread_each, sim_start, sim_stop),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return rc;
}
