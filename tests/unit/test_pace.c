/* test_pace.c: the token bucket: a full bucket sends its burst at once,
 * then one request per 1/rate seconds; a sustained rate above the threshold
 * is held back; a 429 blocks past the window, doubling per refusal with a
 * cap, and a success resets it; unpaced buckets never wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "net/pace.h"
#include "poll/poller_pace.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void burst_then_rate(void **state)
{
	(void)state;
	struct pace p;
	pace_init(&p, 2.0, 3.0, 100.0);
	assert_int_equal(pace_available(&p, 100.0), 3);
	for (int i = 0; i < 3; i++)
		assert_true(pace_take(&p, 100.0));
	assert_false(pace_take(&p, 100.0));
	NEAR(pace_wait(&p, 100.0), 0.5);
	NEAR(pace_wait(&p, 100.2), 0.3);
	assert_true(pace_take(&p, 100.5));
	assert_false(pace_take(&p, 100.9));
	assert_true(pace_take(&p, 101.0));
	/* refill is capped at the burst */
	assert_int_equal(pace_available(&p, 1000.0), 3);
}

static void sustained_rate_is_held_to_threshold(void **state)
{
	(void)state;
	struct pace p;
	pace_init(&p, 1.0, 1.0, 0.0);
	/* a client asking every 0.5 s for 20 s gets about 21 requests (the
	 * first plus one a second), never two within one second */
	int sent = 0;
	double last = -10;
	for (double t = 0; t <= 20.0 + 1e-9; t += 0.5) {
		if (pace_take(&p, t)) {
			assert_true(t - last >= 1.0 - 1e-9);
			last = t;
			sent++;
		}
	}
	assert_int_equal(sent, 21);
}

static void refusal_blocks_past_window_and_doubles(void **state)
{
	(void)state;
	struct pace p;
	pace_init(&p, 5.5, 1.0, 0.0);
	NEAR(pace_refused(&p, 10.0, 0.0), 11.0); /* window 1 s > 1/5.5 */
	assert_false(pace_take(&p, 10.99));
	assert_int_equal(pace_available(&p, 10.5), 0);
	NEAR(pace_refused(&p, 11.0, 0.0), 13.0);
	NEAR(pace_refused(&p, 13.0, 0.0), 17.0);
	/* jitter lengthens, never shortens */
	double u = pace_refused(&p, 17.0, 0.999);
	assert_true(u > 17.0 + 8.0 && u <= 17.0 + 10.0);
	for (int i = 0; i < 20; i++)
		u = pace_refused(&p, 100.0, 0.5);
	NEAR(u, 100.0 + PACE_BLOCK_CAP_S);
	pace_answered(&p);
	NEAR(pace_refused(&p, 200.0, 0.0), 201.0);
}

static void slow_endpoint_blocks_a_whole_period(void **state)
{
	(void)state;
	struct pace p;
	pace_init(&p, 10.0 / 60.0, 1.0, 0.0); /* offer search: 10 a minute */
	assert_true(pace_take(&p, 0.0));
	NEAR(pace_wait(&p, 0.0), 6.0);
	NEAR(pace_refused(&p, 1.0, 0.0), 7.0); /* 1/rate is longer than the window */
}

static void unpaced_never_waits(void **state)
{
	(void)state;
	struct pace p;
	pace_init(&p, 0, 1, 0);
	for (int i = 0; i < 1000; i++)
		assert_true(pace_take(&p, 0));
	/* but a 429 still blocks */
	pace_refused(&p, 5.0, 0.0);
	assert_false(pace_take(&p, 5.5));
	assert_true(pace_take(&p, 6.0));
}

/* The poller never holds an offer search (the offers view's pacer is the
 * only client-side gate), but a 429 blocks it for a whole published
 * period (6 s at 10 a minute), doubling, and it is unpaced again after. */
static void poller_offers_unpaced_but_blocked_by_429(void **state)
{
	(void)state;
	struct poller_pace pp;
	poller_pace_init(&pp, 0);
	for (int i = 0; i < 50; i++)
		assert_true(poller_pace_take(&pp, EP_OFFERS, RK_ACTION, 1.0, NULL));
	double until = poller_pace_refused(&pp, EP_OFFERS, 2.0, 0.0);
	assert_true(fabs(until - (2.0 + 1.0 / api_ep_rate(EP_OFFERS))) < 1e-9);
	assert_false(poller_pace_take(&pp, EP_OFFERS, RK_ACTION, until - 0.1, NULL));
	assert_true(poller_pace_take(&pp, EP_OFFERS, RK_ACTION, until, NULL));
	assert_true(poller_pace_take(&pp, EP_OFFERS, RK_ACTION, until, NULL));
	until = poller_pace_refused(&pp, EP_OFFERS, 20.0, 0.0);
	assert_true(fabs(until - (20.0 + 2.0 / api_ep_rate(EP_OFFERS))) < 1e-9);
	poller_pace_answered(&pp, EP_OFFERS);
	for (int i = 0; i < 20; i++)
		assert_true(poller_pace_take(&pp, EP_OFFERS, RK_ACTION, until, NULL));
	/* other endpoints keep their burst of 1 */
	assert_true(poller_pace_take(&pp, EP_TEMPLATES, RK_ACTION, 0, NULL));
	assert_false(poller_pace_take(&pp, EP_TEMPLATES, RK_ACTION, 0, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(burst_then_rate),
		cmocka_unit_test(sustained_rate_is_held_to_threshold),
		cmocka_unit_test(refusal_blocks_past_window_and_doubles),
		cmocka_unit_test(slow_endpoint_blocks_a_whole_period),
		cmocka_unit_test(unpaced_never_waits),
		cmocka_unit_test(poller_offers_unpaced_but_blocked_by_429),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
