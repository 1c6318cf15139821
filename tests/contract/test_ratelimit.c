/* test_ratelimit.c: per-endpoint, per-key rate limits: a short burst, then
 * 429 with the spec's {"detail"} body (destroy's envelope differs), never a
 * Retry-After header, recovery after a pause, independent buckets per key
 * and per endpoint, counters in /__sim/state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "on", "--clock", "manual", NULL };
	return ct_start(args);
}

/* Call until a 429 arrives (at most n calls); returns the 429 or fails. */
static struct http_result until_429(const char *bearer, const char *method, const char *path, const char *body, int n)
{
	for (int i = 0; i < n; i++) {
		struct http_result r = http_call(ct_sim, method, path, bearer, body);
		if (r.status == 429)
			return r;
		http_result_free(&r);
	}
	fail_msg("%s %s: no 429 after %d quick calls", method, path, n);
	struct http_result none = { 0 };
	return none;
}

static void test_v1_list_burst_then_429_detail_body(void **state)
{
	(void)state;
	struct http_result r = http_call(ct_sim, "GET", "/api/v1/instances/", ct_sim->full_key, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = until_429(ct_sim->full_key, "GET", "/api/v1/instances/", NULL, 10);
	json_t *want = json_pack("{s:s}", "detail", "API requests too frequent endpoint threshold=1.0");
	assert_true(json_equal(r.json, want));
	json_decref(want);
	http_result_free(&r);
}

/* The list's burst: a 100-instance list paged back to back (the official
 * CLI) gets its 4 pages; a sustained 2 requests/s is refused. */
static void test_list_burst_of_four_then_the_rate(void **state)
{
	(void)state;
	usleep(4100 * 1000); /* a full bucket */
	for (int i = 0; i < 4; i++) {
		struct http_result r =
			http_call(ct_sim, "GET", "/api/v1/instances/?limit=25", ct_sim->full_key, NULL);
		assert_int_equal(r.status, 200);
		http_result_free(&r);
	}
	usleep(4100 * 1000);
	bool refused = false;
	for (int i = 0; i < 20 && !refused; i++) { /* 2 per second for 10 s */
		struct http_result r =
			http_call(ct_sim, "GET", "/api/v1/instances/", ct_sim->full_key, NULL);
		refused = r.status == 429;
		http_result_free(&r);
		usleep(500 * 1000);
	}
	assert_true(refused);
}

static void test_429_never_carries_retry_after(void **state)
{
	(void)state;
	long status = 0;
	bool seen429 = false;
	for (int i = 0; i < 10; i++) {
		bool has = ct_has_header("GET", "/api/v0/auth/apikeys/", "Retry-After", &status);
		assert_false(has);
		seen429 |= status == 429;
	}
	assert_true(seen429);
}

static void test_recovers_after_a_pause(void **state)
{
	(void)state;
	struct http_result r = until_429(ct_sim->full_key, "GET", "/api/v0/workergroups/", NULL, 12);
	assert_string_equal(ct_str(r.json, "detail"), "API requests too frequent endpoint threshold=2.0");
	http_result_free(&r);
	usleep(1200 * 1000);
	r = http_call(ct_sim, "GET", "/api/v0/workergroups/", ct_sim->full_key, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
}

static void test_destroy_429_uses_the_error_envelope(void **state)
{
	(void)state;
	struct http_result r = until_429(ct_sim->full_key, "DELETE", "/api/v0/instances/1/", "{}", 20);
	assert_false(json_is_true(json_object_get(r.json, "success")));
	assert_string_equal(ct_str(r.json, "error"), "rate_limit_exceeded");
	assert_string_equal(ct_str(r.json, "msg"), "API requests too frequent endpoint threshold=3.0");
	http_result_free(&r);
}

static void test_buckets_are_per_key_and_per_endpoint(void **state)
{
	(void)state;
	struct http_result r = until_429(ct_sim->full_key, "GET", "/api/v1/instances/", NULL, 10);
	http_result_free(&r);
	r = http_call(ct_sim, "GET", "/api/v1/instances/", ct_sim->ro_key, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = http_call(ct_sim, "GET", "/api/v0/users/current/", ct_sim->full_key, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	json_t *st = ct_state();
	json_t *c = json_object_get(json_object_get(st, "rate_limits"), "instances_list");
	assert_true(json_integer_value(json_object_get(c, "refused")) >= 1);
	assert_true(json_integer_value(json_object_get(c, "allowed")) >= 2);
	assert_true(json_is_true(json_object_get(st, "rate_limits_on")));
	json_decref(st);
}

static void test_bid_and_prepay_thresholds_in_bodies(void **state)
{
	(void)state;
	struct http_result r = until_429(ct_sim->full_key, "PUT", "/api/v0/instances/bid_price/1/",
					 "{\"client_id\":\"me\",\"price\":1}", 20);
	assert_string_equal(ct_str(r.json, "detail"), "API requests too frequent endpoint threshold=5.5");
	http_result_free(&r);
	r = until_429(ct_sim->full_key, "PUT", "/api/v0/instances/prepay/1/", "{\"amount\":1}", 20);
	assert_string_equal(ct_str(r.json, "detail"), "API requests too frequent endpoint threshold=2.0");
	http_result_free(&r);
}

/* The documented thresholds of the instance operations and volumes:
 * execute.yaml 1.5, copy.yaml 3.5, detach_ssh.yaml 2.0, the volumes' 5.5. */
static void test_instance_ops_and_volumes_thresholds(void **state)
{
	(void)state;
	static const struct {
		const char *method, *path, *body, *threshold;
	} eps[] = {
		{ "PUT", "/api/v0/instances/command/1/", "{\"command\":\"ls\"}", "1.5" },
		{ "PUT", "/api/v0/commands/copy_direct/", "{}", "3.5" },
		{ "DELETE", "/api/v0/instances/1/ssh/1/", NULL, "2.0" },
		{ "GET", "/api/v0/volumes/", NULL, "5.5" },
		{ "POST", "/api/v0/volumes/search/", "{}", "5.5" },
	};
	for (size_t i = 0; i < sizeof eps / sizeof *eps; i++) {
		struct http_result r = until_429(ct_sim->full_key, eps[i].method, eps[i].path, eps[i].body, 30);
		char want[96];
		snprintf(want, sizeof want, "API requests too frequent endpoint threshold=%s", eps[i].threshold);
		assert_string_equal(ct_str(r.json, "detail"), want);
		http_result_free(&r);
	}
}

static void test_rate_limits_off_never_429(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", NULL };
	struct simproc *s = simproc_start(args);
	for (int i = 0; i < 15; i++) {
		struct http_result r = http_call(s, "GET", "/api/v1/instances/", s->full_key, NULL);
		assert_int_equal(r.status, 200);
		http_result_free(&r);
	}
	simproc_stop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_v1_list_burst_then_429_detail_body, ct_reset),
		cmocka_unit_test_setup(test_list_burst_of_four_then_the_rate, ct_reset),
		cmocka_unit_test_setup(test_429_never_carries_retry_after, ct_reset),
		cmocka_unit_test_setup(test_recovers_after_a_pause, ct_reset),
		cmocka_unit_test_setup(test_destroy_429_uses_the_error_envelope, ct_reset),
		cmocka_unit_test_setup(test_buckets_are_per_key_and_per_endpoint, ct_reset),
		cmocka_unit_test_setup(test_bid_and_prepay_thresholds_in_bodies, ct_reset),
		cmocka_unit_test_setup(test_instance_ops_and_volumes_thresholds, ct_reset),
		cmocka_unit_test_setup(test_rate_limits_off_never_429, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_ratelimit", tests, setup, ct_stop);
}
