/* test_logfollow.c: a log pane's fetch plan against rentop-sim (manual
 * clock; the monotonic times are the test's own): an endpoint log followed
 * every 3 s with no line twice, the switch to the CLI's form when the
 * spec's is absent, a level stream, a 429 and a bare-string failure that
 * keep the lines and back off with a state line, then recovery; an instance
 * container log through request_logs and its result_url (404 pending, then
 * merged; fetched with no key), follow off and "r". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "net/auth.h"
#include "net/http.h"
#include "flow/logfollow.h"
#include "state/logtail.h"
#include "testsim.h"
#include "base/util.h"

static struct testsim sim;
static struct auth *au;

static int up(void **state)
{
	(void)state;
	static const char *const args[] = {"--rate-limits", "off", "--clock", "manual", "--instances", "12", NULL};
	if (testsim_start(&sim, args) != 0)
		return -1;
	setenv("VAST_API_KEY", sim.key, 1);
	au = auth_new(&sim.cfg, NULL);
	return 0;
}

static int down(void **state)
{
	(void)state;
	auth_free(au);
	unsetenv("VAST_API_KEY");
	testsim_stop(&sim);
	return 0;
}

static int reset(void **state)
{
	(void)state;
	return testsim_ctl(&sim, "reset", "{}") == 200 ? 0 : -1;
}

/* Run the plan's next call as the poller would; returns the event. */
static enum logfollow_ev step(struct logfollow *f, struct logtail *t, double now, size_t *added,
			      struct api_error *e)
{
	struct api_call c = logfollow_next(f, &sim.cfg, now);
	assert_non_null(c.url);
	struct http_opts o = {.connect_timeout_s = 5, .total_timeout_s = 10};
	char *body;
	unsigned gen;
	char *hdr = api_request_auth(au, &c, &body, &gen); /* as the poller sends it */
	struct http_xfer *x = http_xfer_new(&o, c.method, c.url, body ? body : c.body, hdr, e);
	auth_header_free(hdr);
	auth_header_free(body);
	assert_non_null(x);
	http_xfer_perform(x);
	enum logfollow_ev ev = logfollow_done(f, x, t, now, added, e);
	http_xfer_free(x);
	api_call_free(&c);
	return ev;
}

static long endpoint_id(const char *name)
{
	json_t *js = testsim_state(&sim);
	size_t i;
	json_t *o;
	long id = -1;
	json_array_foreach(json_object_get(js, "endpoints"), i, o)
		if (!strcmp(json_string_value(json_object_get(o, "endpoint_name")), name))
			id = (long)json_integer_value(json_object_get(o, "id"));
	json_decref(js);
	assert_true(id > 0);
	return id;
}

static void test_endpoint_follow(void **state)
{
	(void)state;
	testsim_ctl(&sim, "clock", "{\"advance\":60}");
	struct logfollow *f = logfollow_new_endpoint("llm-chat", endpoint_id("llm-chat"), 1000, 100.0);
	struct logtail *t = logtail_new(0);
	double now = 100.0;
	size_t added;
	struct api_error e;
	assert_true(logfollow_wait(f, now) == 0);
	assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
	assert_true(added >= 20);
	/* not due again before 3 s */
	assert_true(logfollow_wait(f, now + 1) > 1.9);
	struct api_call none = logfollow_next(f, &sim.cfg, now + 1);
	assert_null(none.url);
	for (int i = 0; i < 10; i++) {
		now += 3;
		testsim_ctl(&sim, "clock", "{\"advance\":3}");
		assert_true(logfollow_wait(f, now) == 0);
		assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
		assert_int_equal(added, 1);
	}
	for (size_t i = 1; i < logtail_count(t); i++)
		assert_string_not_equal(logtail_line(t, i), logtail_line(t, i - 1));
	char st[256];
	assert_string_equal(logfollow_state(f, now, st, sizeof st), "following (every 3s)");

	/* a 429 keeps the lines, backs off and says so; then it recovers */
	size_t held = logtail_count(t);
	testsim_ctl(&sim, "fault", "{\"path\":\"/get_endpoint_logs\",\"kind\":\"429\",\"count\":1}");
	now += 3;
	assert_int_equal(step(f, t, now, &added, &e), LFE_FAILED);
	assert_int_equal(e.http_status, 429);
	assert_int_equal(logtail_count(t), held);
	assert_true(logfollow_wait(f, now) >= 3);
	logfollow_state(f, now, st, sizeof st);
	assert_non_null(strstr(st, "error: HTTP 429"));
	assert_non_null(strstr(st, "retry in"));
	now += logfollow_wait(f, now);
	testsim_ctl(&sim, "clock", "{\"advance\":9}");
	assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
	assert_int_equal(added, 3);

	/* the CLI's form went out, the key in its body as in the header */
	json_t *js = testsim_state(&sim);
	json_t *rec = json_object_get(json_object_get(js, "requests"), "/get_endpoint_logs/");
	assert_non_null(rec);
	json_t *lb = json_object_get(rec, "last_body");
	json_t *sent = json_is_string(lb) ? json_loads(json_string_value(lb), 0, NULL) : json_incref(lb);
	assert_string_equal(json_string_value(json_object_get(sent, "api_key")), getenv("VAST_API_KEY"));
	assert_int_equal(json_integer_value(json_object_get(sent, "id")), endpoint_id("llm-chat"));
	assert_int_equal(json_integer_value(json_object_get(sent, "tail")), 1000);
	json_decref(sent);
	json_decref(js);

	/* a run server without the CLI's form: switch once to the spec's, then merge */
	testsim_ctl(&sim, "fault", "{\"path\":\"/get_endpoint_logs/\",\"kind\":\"404\",\"count\":1}");
	now += 3;
	testsim_ctl(&sim, "clock", "{\"advance\":3}");
	assert_int_equal(step(f, t, now, &added, &e), LFE_SWITCHED);
	assert_true(logfollow_wait(f, now) == 0);
	assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
	assert_int_equal(added, 1);
	logfollow_state(f, now, st, sizeof st);
	assert_non_null(strstr(st, "spec form"));
	/* a level stream is another log */
	assert_true(logfollow_set_stream(f, LOGS_DEBUG, now));
	assert_false(logfollow_set_stream(f, LOGS_DEBUG, now));
	logtail_clear(t);
	assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
	for (size_t i = 0; i < logtail_count(t); i++)
		assert_non_null(strstr(logtail_line(t, i), "health check"));
	logfollow_free(f);

	/* an unknown endpoint: a bare-string 404 on both forms */
	f = logfollow_new_endpoint("no-such", 999999, 10, now);
	assert_int_equal(step(f, t, now, &added, &e), LFE_SWITCHED);
	assert_int_equal(step(f, t, now, &added, &e), LFE_FAILED);
	assert_int_equal(e.http_status, 404);
	logfollow_state(f, now, st, sizeof st);
	assert_non_null(strstr(st, "Endpoint not found"));
	logfollow_free(f);
	logtail_free(t);
}

static void test_instance_log(void **state)
{
	(void)state;
	json_t *js = testsim_state(&sim);
	long iid = (long)json_integer_value(json_object_get(json_array_get(json_object_get(js, "instances"), 0), "id"));
	json_decref(js);
	double now = 50.0;
	struct logfollow *f = logfollow_new_instance(iid, 0, now);
	struct logtail *t = logtail_new(0);
	size_t added;
	struct api_error e;
	char st[256];
	assert_int_equal(step(f, t, now, &added, &e), LFE_PENDING);
	assert_true(logfollow_wait(f, now) > 0.2); /* the CLI's 0.3 s */
	now += 1;
	assert_int_equal(step(f, t, now, &added, &e), LFE_PENDING); /* 404: not written yet */
	logfollow_state(f, now, st, sizeof st);
	assert_non_null(strstr(st, "waiting for the log (2/30)"));
	testsim_ctl(&sim, "clock", "{\"advance\":3}");
	now += 1;
	assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
	assert_true(added > 0);
	/* the result was fetched with no key */
	js = testsim_state(&sim);
	const char *k;
	json_t *rec;
	bool seen = false;
	json_object_foreach(json_object_get(js, "requests"), k, rec)
		if (!strncmp(k, "/instance_logs/", 15)) {
			seen = true;
			assert_string_equal(json_string_value(json_object_get(rec, "last_auth")), "none");
		}
	assert_true(seen);
	json_decref(js);
	/* follow mode: the next round in 10 s; follow off: only on "r" */
	assert_true(logfollow_wait(f, now) > 9);
	logfollow_set_follow(f, false);
	assert_true(logfollow_wait(f, now + 60) > 1000);
	logfollow_state(f, now, st, sizeof st);
	assert_string_equal(st, "paused (r to refresh)");
	logfollow_refresh(f, now);
	assert_true(logfollow_wait(f, now) == 0);
	assert_int_equal(step(f, t, now, &added, &e), LFE_PENDING);
	/* an object store answers 403 for a key not written yet: retried as a
	 * 404 is (the CLI retries any answer but 200), then the text */
	testsim_ctl(&sim, "clock", "{\"advance\":3}");
	testsim_ctl(&sim, "fault", "{\"path\":\"/instance_logs/\",\"kind\":\"403\",\"count\":2}");
	for (int i = 0; i < 2; i++) {
		now += 0.3;
		assert_int_equal(step(f, t, now, &added, &e), LFE_PENDING);
	}
	logfollow_state(f, now, st, sizeof st);
	assert_non_null(strstr(st, "waiting for the log (3/30)"));
	now += 0.3;
	assert_int_equal(step(f, t, now, &added, &e), LFE_MERGED);
	/* 30 answers but 200: given up, saying the last one */
	logfollow_refresh(f, now);
	assert_int_equal(step(f, t, now, &added, &e), LFE_PENDING);
	testsim_ctl(&sim, "fault", "{\"path\":\"/instance_logs/\",\"kind\":\"403\",\"count\":30}");
	testsim_ctl(&sim, "clock", "{\"advance\":3}");
	for (int i = 0; i < API_LOG_RESULT_TRIES - 1; i++) {
		now += 0.3;
		assert_int_equal(step(f, t, now, &added, &e), LFE_PENDING);
	}
	now += 0.3;
	assert_int_equal(step(f, t, now, &added, &e), LFE_FAILED);
	assert_non_null(strstr(e.msg, "did not appear in time (last: HTTP 403)"));
	logfollow_free(f);
	logtail_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_endpoint_follow, reset),
		cmocka_unit_test_setup(test_instance_log, reset),
	};
	return cmocka_run_group_tests_name("logfollow", tests, up, down);
}
