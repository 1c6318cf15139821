/* test_backoff.c: the per-endpoint schedule: interval after success,
 * exponential growth with jitter and a cap after failures, reset on
 * success, pacing of pages, the CLI's one-shot retry delays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "net/backoff.h"

static void success_uses_interval(void **state)
{
	(void)state;
	struct backoff b;
	backoff_init(&b, 10, 300, 0, 42, 100.0);
	assert_true(b.next_due == 100.0); /* due at once */
	assert_true(fabs(backoff_success(&b, 100.5) - 110.5) < 1e-9);
	assert_int_equal(b.failures, 0);
}

static void failures_grow_with_jitter_and_cap(void **state)
{
	(void)state;
	struct backoff b;
	backoff_init(&b, 10, 300, 0, 7, 0);
	double prev_max = 0;
	for (int f = 1; f <= 12; f++) {
		double due = backoff_failure(&b, 1000.0);
		double d = due - 1000.0;
		double full = backoff_delay(&b, f);
		assert_int_equal(b.failures, f);
		assert_true(full >= prev_max); /* never shrinks */
		assert_true(full <= 300.0);
		assert_true(d >= 10.0 - 1e-9);      /* never below the interval */
		assert_true(d <= full + 1e-9);       /* jitter within [full/2, full] */
		assert_true(d >= full / 2 - 1e-9);
		prev_max = full;
	}
	assert_true(fabs(backoff_delay(&b, 1) - 10) < 1e-9);
	assert_true(fabs(backoff_delay(&b, 2) - 20) < 1e-9);
	assert_true(fabs(backoff_delay(&b, 3) - 40) < 1e-9);
	assert_true(fabs(backoff_delay(&b, 12) - 300) < 1e-9);
	assert_true(fabs(backoff_delay(&b, 1000) - 300) < 1e-9); /* no overflow */
	/* success resets */
	backoff_success(&b, 2000);
	assert_int_equal(b.failures, 0);
	assert_true(fabs(b.next_due - 2010) < 1e-9);
	double d = backoff_failure(&b, 3000) - 3000;
	assert_true(d >= 10 - 1e-9 && d <= 10 + 1e-9);
}

static void jitter_spreads(void **state)
{
	(void)state;
	/* two clients with different seeds do not retry in lockstep */
	struct backoff a, b;
	backoff_init(&a, 10, 300, 0, 1, 0);
	backoff_init(&b, 10, 300, 0, 2, 0);
	int differ = 0;
	for (int i = 0; i < 6; i++)
		differ += fabs(backoff_failure(&a, 0) - backoff_failure(&b, 0)) > 1e-6;
	assert_true(differ > 0);
}

static void pacing_keeps_threshold(void **state)
{
	(void)state;
	struct backoff b;
	backoff_init(&b, 10, 300, 1.0, 3, 0); /* v1 list: 1 request/second */
	assert_true(backoff_pace(&b, 5.0) == 5.0); /* nothing sent yet */
	backoff_sent(&b, 5.0);
	assert_true(fabs(backoff_pace(&b, 5.2) - 6.0) < 1e-9);
	assert_true(backoff_pace(&b, 7.0) == 7.0);
	/* 40 pages sent as fast as pacing allows take at least 39 s */
	double t = 100;
	backoff_init(&b, 10, 300, 1.0, 3, t);
	double first = -1;
	for (int i = 0; i < 40; i++) {
		t = backoff_pace(&b, t);
		if (first < 0)
			first = t;
		backoff_sent(&b, t);
	}
	assert_true(t - first >= 39.0 - 1e-9);
	/* unpaced */
	backoff_init(&b, 10, 300, 0, 3, 0);
	backoff_sent(&b, 1);
	assert_true(backoff_pace(&b, 1) == 1);
	/* a 429 never schedules sooner than the pacing gap */
	backoff_init(&b, 0.1, 300, 0.5, 3, 0);
	assert_true(backoff_failure(&b, 0) >= 2.0 - 1e-9);
}

static void due_now_keeps_count(void **state)
{
	(void)state;
	struct backoff b;
	backoff_init(&b, 10, 300, 1.0, 3, 0);
	backoff_failure(&b, 0);
	backoff_failure(&b, 0);
	backoff_sent(&b, 50);
	backoff_due_now(&b, 50.5);
	assert_int_equal(b.failures, 2);
	assert_true(fabs(b.next_due - 51.0) < 1e-9); /* paced */
}

static void cli_retry_schedule(void **state)
{
	(void)state;
	assert_true(fabs(backoff_retry_delay(0) - 0.15) < 1e-9);
	assert_true(fabs(backoff_retry_delay(1) - 0.225) < 1e-9);
	assert_true(fabs(backoff_retry_delay(2) - 0.3375) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(success_uses_interval),
		cmocka_unit_test(failures_grow_with_jitter_and_cap),
		cmocka_unit_test(jitter_spreads),
		cmocka_unit_test(pacing_keeps_threshold),
		cmocka_unit_test(due_now_keeps_count),
		cmocka_unit_test(cli_retry_schedule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
