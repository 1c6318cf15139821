/* test_faults.c: every injectable fault kind (latency, hang, 500, 502, 503,
 * 429, malformed, truncated, drop, huge), fault counts and method filters,
 * and that a hanging request does not hold the state lock. */
#include <pthread.h>
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

#define LIST "/api/v1/instances/"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", NULL };
	return ct_start(args);
}

static void fault(const char *kind, int count, const char *extra)
{
	char body[256];
	snprintf(body, sizeof body, "{\"path\":\"/api/v1/instances\",\"kind\":\"%s\",\"count\":%d%s}", kind, count,
		 extra ? extra : "");
	ct_ctl("fault", body);
}

static void test_fault_500_json_error(void **state)
{
	(void)state;
	fault("500", 1, NULL);
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 500);
	assert_non_null(r.json);
	http_result_free(&r);
	r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
}

static void test_fault_502_and_503_are_html(void **state)
{
	(void)state;
	fault("502", 1, NULL);
	fault("503", 1, NULL);
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 502);
	assert_string_equal(r.content_type, "text/html");
	assert_null(r.json);
	http_result_free(&r);
	r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 503);
	http_result_free(&r);
}

static void test_fault_429_detail(void **state)
{
	(void)state;
	fault("429", 2, NULL);
	for (int i = 0; i < 2; i++) {
		struct http_result r = ct_req("GET", LIST, NULL);
		assert_int_equal(r.status, 429);
		assert_non_null(strstr(ct_str(r.json, "detail"), "API requests too frequent"));
		http_result_free(&r);
	}
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
}

static void test_fault_malformed_is_200_but_not_json(void **state)
{
	(void)state;
	fault("malformed", 1, NULL);
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.content_type, "application/json");
	assert_true(r.len > 0);
	assert_null(r.json);
	http_result_free(&r);
}

static void test_fault_truncated_body_is_cut(void **state)
{
	(void)state;
	struct http_result full = ct_req("GET", LIST, NULL);
	fault("truncated", 1, NULL);
	struct http_result r = ct_req("GET", LIST, NULL);
	/* libcurl reports the short body as a transfer error (status 0) */
	assert_true(r.status == 0 || r.len < full.len);
	assert_null(r.json);
	http_result_free(&r);
	http_result_free(&full);
}

static void test_fault_drop_closes_without_answer(void **state)
{
	(void)state;
	fault("drop", 1, NULL);
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 0);
	http_result_free(&r);
	r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
}

static void test_fault_huge_body_of_many_megabytes(void **state)
{
	(void)state;
	fault("huge", 1, ",\"mb\":3");
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, 3u << 20);
	assert_non_null(r.json);
	http_result_free(&r);
}

static void test_fault_latency_still_answers(void **state)
{
	(void)state;
	fault("latency", 1, ",\"ms\":300");
	struct http_result r = ct_req("GET", LIST, NULL);
	assert_int_equal(r.status, 200);
	assert_non_null(r.json);
	http_result_free(&r);
}

static void *hang_thread(void *arg)
{
	struct http_result *out = arg;
	*out = ct_req("GET", LIST, NULL);
	return NULL;
}

static void test_fault_hang_does_not_block_other_requests(void **state)
{
	(void)state;
	fault("hang", 1, ",\"ms\":1500");
	struct http_result hung = { 0 };
	pthread_t t;
	pthread_create(&t, NULL, hang_thread, &hung);
	/* wait until the hanging request has taken its fault */
	for (int i = 0; i < 200; i++) {
		json_t *st = ct_state();
		size_t n = json_array_size(json_object_get(st, "faults"));
		json_decref(st);
		if (n == 0)
			break;
		usleep(10000);
	}
	struct http_result r = ct_req("GET", "/api/v0/users/current/", NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	pthread_join(t, NULL);
	assert_int_equal(hung.status, 0);
	http_result_free(&hung);
}

static void test_fault_method_filter_and_prefix(void **state)
{
	(void)state;
	ct_ctl("fault", "{\"path\":\"/api/v0/instances/\",\"method\":\"PUT\",\"kind\":\"503\",\"count\":1}");
	struct http_result r = ct_req("GET", "/api/v0/instances/1/", NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = ct_req("PUT", "/api/v0/instances/1/", "{\"state\":\"stopped\"}");
	assert_int_equal(r.status, 503);
	http_result_free(&r);
	r = ct_req("PUT", "/api/v0/instances/1/", "{\"state\":\"stopped\"}");
	assert_int_equal(r.status, 404);
	http_result_free(&r);
}

static void test_fault_rejects_unknown_kind(void **state)
{
	(void)state;
	struct http_result r = sim_ctl(ct_sim, "fault", "{\"path\":\"/\",\"kind\":\"explode\"}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
	r = sim_ctl(ct_sim, "fault", "{\"kind\":\"500\"}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fault_500_json_error, ct_reset),
		cmocka_unit_test_setup(test_fault_502_and_503_are_html, ct_reset),
		cmocka_unit_test_setup(test_fault_429_detail, ct_reset),
		cmocka_unit_test_setup(test_fault_malformed_is_200_but_not_json, ct_reset),
		cmocka_unit_test_setup(test_fault_truncated_body_is_cut, ct_reset),
		cmocka_unit_test_setup(test_fault_drop_closes_without_answer, ct_reset),
		cmocka_unit_test_setup(test_fault_huge_body_of_many_megabytes, ct_reset),
		cmocka_unit_test_setup(test_fault_latency_still_answers, ct_reset),
		cmocka_unit_test_setup(test_fault_hang_does_not_block_other_requests, ct_reset),
		cmocka_unit_test_setup(test_fault_method_filter_and_prefix, ct_reset),
		cmocka_unit_test_setup(test_fault_rejects_unknown_kind, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_faults", tests, setup, ct_stop);
}
