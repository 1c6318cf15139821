/* test_poller.c: the network thread against a real rentop-sim (path in
 * $RENTOP_SIM, as tests/run.sh provides): the model
 * fills with every instance and the user; a queued job runs, reports its
 * event and triggers a refresh that shows its effect; prepay's event states
 * months and discount; a refused key marks the model; a lasting 503 and
 * dropped connections show as errors (offline for the latter) and recover; stopping while a
 * request hangs returns without waiting for the hung request; and with 2FA
 * on, a destroy asks for 2FA, a TOTP login stores the session key (0600)
 * and the destroy then succeeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "auth.h"
#include "config.h"
#include "jobs.h"
#include "log.h"
#include "model.h"
#include "poller.h"
#include "util.h"

struct sim {
	pid_t pid;
	char url[128];
	char key[160];
	char totp[128];
	char dir[64];
};

static struct sim sim;

/* Start the simulator (with extra flags) with output to a file; read its URL,
 * key and TOTP secret. */
static int sim_start_with(const char *extra)
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
		execl(bin, bin, "--port", "0", "--seed", "7", "--instances", "60", "--rate-limits",
		      "off", "--quiet", "--tfa", extra, (char *)NULL);
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
	const struct instance *x = snapshot_find_instance(s, w->id);
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
	long id = s->instances[3].id;
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
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_ERROR);
	assert_null(strstr(ev.text, sim.key));

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
	long id = s->instances[0].id;
	model_release(s);

	/* destroy without a session: the event asks for 2FA */
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = JOB_DESTROY;
	r.instance_id = id;
	int jid;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	struct event ev;
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_ERROR);
	assert_true(ev.flags & EVF_NEEDS_TFA);

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

	/* and the destroy goes through now */
	memset(&r, 0, sizeof r);
	r.kind = JOB_DESTROY;
	r.instance_id = id;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	assert_true(job_event(m, jid, &ev));
	assert_int_equal(ev.level, EV_OK);

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

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (getenv("RENTOP_TEST_LOG")) /* the poller's debug log, for diagnosis */
		log_open(getenv("RENTOP_TEST_LOG"));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(fills_model_and_runs_jobs, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(refused_key_marks_model, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(errors_back_off_and_recover, sim_start, sim_stop),
		cmocka_unit_test_setup_teardown(destroy_needs_tfa_then_login, sim_start_tfa,
						sim_stop),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return rc;
}
