/* test_logpoll.c: the poll schedule of open endpoint logs (logfollow.h's
 * logfollow_interval, jobs.h's jobs_set_interval), pure: the log shown every
 * 3 s, the others every 15 s or more; the rate of every open log together
 * within LOGFOLLOW_RATE_SHARE of the endpoint-log call's published rate for
 * any number of logs, formula and simulation (the jobs module's
 * subscriptions driven over a virtual clock, as the log view sets them:
 * one shown, the view hidden, the shown log switching); a new interval
 * applies from the last request's end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "poll/jobs.h"
#include "flow/logfollow.h"

#define NMAX 32

/* The limit: a share of the published rate of the endpoint-log call (its
 * two forms share the pacing group of EP_LOGS). */
static double limit(void)
{
	assert_int_equal(api_ep_group(EP_LOGS_CLI), EP_LOGS);
	return LOGFOLLOW_RATE_SHARE * api_ep_rate(EP_LOGS);
}

/* The intervals: 3 s shown; 15 s or more otherwise, growing with the logs
 * open; the sum of the rates within the limit for any n. */
static void test_intervals(void **state)
{
	(void)state;
	assert_true(LOGFOLLOW_RATE_SHARE <= 1.0);
	assert_true(logfollow_interval(true, 1) == LOGFOLLOW_ENDPOINT_S);
	assert_true(logfollow_interval(true, 8) == LOGFOLLOW_ENDPOINT_S);
	assert_true(logfollow_interval(false, 1) == LOGFOLLOW_BACKGROUND_S);
	assert_true(logfollow_interval(false, 2) >= 15.0 && logfollow_interval(false, 2) <= 30.0);
	double prev = 0;
	for (int n = 1; n <= 1000; n++) {
		double bg = logfollow_interval(false, n);
		assert_true(bg >= LOGFOLLOW_BACKGROUND_S);
		assert_true(bg >= prev); /* never shorter with more logs */
		prev = bg;
		double shown = 1.0 / LOGFOLLOW_ENDPOINT_S + (n - 1) / bg, hidden = n / bg;
		if (shown > limit() + 1e-9 || hidden > limit() + 1e-9)
			fail_msg("%d logs: %.3f/s shown, %.3f/s hidden, limit %.3f/s", n, shown,
				 hidden, limit());
		assert_true(fabs(logfollow_rate(n, true) - shown) < 1e-9);
		assert_true(fabs(logfollow_rate(n, false) - hidden) < 1e-9);
	}
	assert_true(logfollow_rate(0, true) == 0);
	/* eight logs (the view's most): the others every 30 s at most */
	assert_true(logfollow_interval(false, 8) <= 30.0);
}

static struct job_call logcall(void)
{
	struct job_call c;
	memset(&c, 0, sizeof c);
	c.call = api_call_make(EP_LOGS_CLI, "POST", strdup("http://x/get_endpoint_logs/"),
			       json_pack("{s:i}", "tail", 10));
	snprintf(c.what, sizeof c.what, "logs");
	return c;
}

/* Set every subscription's interval as the log view does: log `shown` (-1:
 * the view hidden) every 3 s, the others at the background interval. */
static void schedule(struct jobs *j, const int *sub, int n, int shown)
{
	for (int i = 0; i < n; i++)
		jobs_set_interval(j, sub[i], logfollow_interval(i == shown, n));
}

/* Run the poller's loop over [t0, t1): every request due is taken and ends
 * 0.2 s later.  Counts per subscription into cnt. */
static void run(struct jobs *j, const int *sub, int n, double t0, double t1, int *cnt)
{
	for (double now = t0; now < t1; now += 0.1) {
		struct job_call got;
		int rid, sid;
		while (jobs_take_call(j, now, &got, &rid, &sid)) {
			api_call_free(&got.call);
			jobs_call_done(j, sid, now + 0.2);
			for (int i = 0; i < n; i++)
				if (sub[i] == sid)
					cnt[i]++;
		}
	}
}

/* n logs open for 10 minutes, the shown one switching every 40 s and the
 * view hidden half the time: never above the limit over any minute, every
 * log polled in each of its background intervals. */
static void test_bounded_simulation(void **state)
{
	(void)state;
	for (int n = 1; n <= NMAX; n = n < 8 ? n + 1 : n * 2) {
		struct model *m = model_new();
		struct jobs *j = jobs_new(m, false);
		int sub[NMAX];
		for (int i = 0; i < n; i++) {
			struct job_call c = logcall();
			assert_int_equal(jobs_subscribe(j, &c, logfollow_interval(i == 0, n), true, &sub[i]),
					 JOBS_OK);
		}
		int total = 0, worst = 0;
		for (int minute = 0; minute < 10; minute++) {
			int cnt[NMAX] = {0};
			for (int part = 0; part < 3; part++) {
				double t0 = minute * 60.0 + part * 20.0;
				int shown = minute % 2 ? -1 : (minute / 2 + part) % n;
				schedule(j, sub, n, shown);
				run(j, sub, n, t0, t0 + 20.0, cnt);
			}
			int sum = 0;
			for (int i = 0; i < n; i++) {
				sum += cnt[i];
				/* every log polled at least once a minute when its
				 * interval allows it */
				if (logfollow_interval(false, n) <= 30.0 && minute > 0 && cnt[i] < 1)
					fail_msg("%d logs: log %d not polled in minute %d", n, i, minute);
			}
			if (minute > 0 && sum > worst)
				worst = sum; /* the first minute starts with all of them due */
			total += sum;
		}
		/* a minute's requests within the limit (one extra for a request
		 * that falls on the minute's edge, per log shown in it) */
		double most = limit() * 60.0 + 3;
		if (worst > most)
			fail_msg("%d logs: %d requests in a minute, at most %.0f", n, worst, most);
		print_message("# %2d logs: %d requests in 10 min, %d in the busiest minute (limit %.0f)\n",
			      n, total, worst, limit() * 60.0);
		for (int i = 0; i < n; i++)
			jobs_unsubscribe(j, sub[i]);
		jobs_free(j);
		model_free(m);
	}
}

/* jobs_set_interval: from the last request's end; shorter: due sooner (at
 * once when that is past) and the poller woken; in flight: from its end. */
static int woken;
static void waker(void *arg)
{
	(void)arg;
	woken++;
}

static void test_set_interval(void **state)
{
	(void)state;
	struct jobs *j = jobs_new(NULL, false);
	jobs_set_waker(j, waker, NULL);
	int sub;
	struct job_call c = logcall();
	assert_int_equal(jobs_subscribe(j, &c, 3, true, &sub), JOBS_OK);
	struct job_call got;
	int rid, sid;
	assert_true(jobs_take_call(j, 100, &got, &rid, &sid));
	api_call_free(&got.call);
	jobs_call_done(j, sub, 100);
	assert_true(jobs_next_call_due(j) == 103);
	jobs_set_interval(j, sub, 15); /* hidden: 15 s after the last end */
	assert_true(jobs_next_call_due(j) == 115);
	assert_false(jobs_take_call(j, 110, &got, &rid, &sid));
	woken = 0;
	jobs_set_interval(j, sub, 3); /* shown again at 110: past due, at once */
	assert_int_equal(woken, 1);
	assert_true(jobs_next_call_due(j) == 103);
	assert_true(jobs_take_call(j, 110, &got, &rid, &sid));
	api_call_free(&got.call);
	jobs_set_interval(j, sub, 20); /* in flight: from its end */
	jobs_call_done(j, sub, 111);
	assert_true(jobs_next_call_due(j) == 131);
	jobs_set_interval(j, sub, 0.5); /* below 1 s: ignored */
	assert_true(jobs_next_call_due(j) == 131);
	jobs_unsubscribe(j, sub);
	jobs_set_interval(j, sub, 3); /* gone: harmless */
	jobs_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_set_interval),
		cmocka_unit_test(test_bounded_simulation),
	};
	return cmocka_run_group_tests_name("logpoll", tests, NULL, NULL);
}
