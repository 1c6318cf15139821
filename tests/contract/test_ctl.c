/* test_ctl.c: the /__sim/ control API: the manual clock, last 2FA codes,
 * forcing status, setting any field to arbitrary bytes, reset, the state
 * dump's record of what clients sent (GET bodies included), its instance
 * fields narrowed by ?fields=, and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", NULL };
	return ct_start(args);
}

static void test_manual_clock_moves_only_when_told(void **state)
{
	(void)state;
	json_t *a = ct_state();
	json_t *b = ct_state();
	assert_true(json_is_true(json_object_get(a, "manual_clock")));
	assert_float_equal(ct_num(a, "now"), ct_num(b, "now"), 1e-9);
	struct http_result r = sim_ctl(ct_sim, "clock", "{\"advance\":90.5}");
	assert_int_equal(r.status, 200);
	assert_float_equal(ct_num(r.json, "now"), ct_num(a, "now") + 90.5, 1e-6);
	http_result_free(&r);
	r = sim_ctl(ct_sim, "clock", "{\"advance\":-1}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
	json_decref(a);
	json_decref(b);
}

static void test_codes_start_empty(void **state)
{
	(void)state;
	struct http_result r = http_call(ct_sim, "GET", "/__sim/codes", NULL, NULL);
	assert_int_equal(r.status, 200);
	assert_true(json_is_null(json_object_get(r.json, "sms")));
	assert_true(json_is_null(json_object_get(r.json, "email")));
	http_result_free(&r);
}

static void test_codes_show_the_last_email_code(void **state)
{
	(void)state;
	json_decref(ct_expect("POST", "/api/v0/tfa/email/", "{}", 200));
	struct http_result r = http_call(ct_sim, "GET", "/__sim/codes", NULL, NULL);
	const char *code = ct_str(r.json, "email");
	assert_non_null(code);
	assert_int_equal(strlen(code), 6);
	http_result_free(&r);
}

static void test_force_status_offline(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char body[96];
	snprintf(body, sizeof body, "{\"id\":%ld,\"actual_status\":\"offline\"}", id);
	ct_ctl("instance", body);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *in = json_object_get(j, "instances");
	assert_string_equal(ct_str(in, "actual_status"), "offline");
	assert_null(json_object_get(in, "ports"));
	json_decref(j);
	ct_expect_error(NULL, "POST", "/__sim/instance", "{\"id\":1,\"actual_status\":\"offline\"}", 404, NULL, NULL);
}

/* /__sim/drop: N running hosts drop out within the period; the clock moved
 * past it, every chosen instance is offline. */
static void test_drop_hosts_over_a_period(void **state)
{
	(void)state;
	struct http_result r = sim_ctl(ct_sim, "drop", "{\"count\":3,\"over\":60}");
	assert_int_equal(r.status, 200);
	json_t *d = json_object_get(r.json, "dropping");
	assert_int_equal(json_array_size(d), 3);
	json_t *st0 = ct_state();
	double now = ct_num(st0, "now");
	json_decref(st0);
	long ids[3];
	for (size_t i = 0; i < 3; i++) {
		json_t *x = json_array_get(d, i);
		ids[i] = (long)json_integer_value(json_object_get(x, "id"));
		double at = ct_num(x, "drop_at");
		assert_true(at >= now - 1e-6 && at <= now + 60.0 + 1e-6);
		char path[64];
		snprintf(path, sizeof path, "/api/v0/instances/%ld/", ids[i]);
		json_t *j = ct_expect("GET", path, NULL, 200);
		assert_string_equal(ct_str(json_object_get(j, "instances"), "actual_status"), "running");
		json_decref(j);
	}
	http_result_free(&r);
	ct_ctl("clock", "{\"advance\":61}");
	for (size_t i = 0; i < 3; i++) {
		char path[64];
		snprintf(path, sizeof path, "/api/v0/instances/%ld/", ids[i]);
		json_t *j = ct_expect("GET", path, NULL, 200);
		assert_string_equal(ct_str(json_object_get(j, "instances"), "actual_status"), "offline");
		json_decref(j);
	}
	r = sim_ctl(ct_sim, "drop", "{\"count\":0}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
}

static void test_set_label_to_hostile_bytes(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char body[256];
	snprintf(body, sizeof body,
		 "{\"what\":\"instance\",\"id\":%ld,\"field\":\"label\",\"value\":\"\\u001b]0;pwned\\u0007\\u001b[2Jx\\u202e\"}", id);
	ct_ctl("set", body);
	json_t *j = ct_expect("GET", "/api/v1/instances/?select_cols=%5B%22label%22%5D", NULL, 200);
	bool found = false;
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o)
		if (json_integer_value(json_object_get(o, "id")) == id) {
			assert_string_equal(ct_str(o, "label"), "\x1b]0;pwned\x07\x1b[2Jx\xe2\x80\xae");
			found = true;
		}
	assert_true(found);
	json_decref(j);
	/* any field, any JSON value */
	snprintf(body, sizeof body, "{\"what\":\"instance\",\"id\":%ld,\"field\":\"gpu_name\",\"value\":null}", id);
	ct_ctl("set", body);
	json_t *in = ct_inst(id);
	assert_true(json_is_null(json_object_get(in, "gpu_name")));
	json_decref(in);
}

static void test_set_user_fields(void **state)
{
	(void)state;
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"email\",\"value\":\"x\\u001b[1m@example.com\"}");
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":12.25}");
	json_t *u = ct_expect("GET", "/api/v0/users/current/", NULL, 200);
	assert_string_equal(ct_str(u, "email"), "x\x1b[1m@example.com");
	assert_float_equal(ct_num(u, "credit"), 12.25, 1e-12);
	json_decref(u);
	ct_expect_error(NULL, "POST", "/__sim/set", "{\"what\":\"planet\",\"field\":\"x\",\"value\":1}", 400, NULL, NULL);
}

static void test_reset_restores_the_seeded_world(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	ct_ctl("reset", "{}");
	json_t *j = ct_expect("GET", path, NULL, 200);
	assert_true(json_is_object(json_object_get(j, "instances")));
	json_decref(j);
	json_t *st = ct_state();
	/* the record of requests starts again too */
	assert_int_equal(json_object_size(json_object_get(st, "requests")), 1);
	json_decref(st);
}

static void test_state_records_requests_and_get_bodies(void **state)
{
	(void)state;
	json_decref(ct_expect("GET", "/api/v0/autojobs/", "{\"api_key\":\"in-body\"}", 200));
	json_decref(ct_expect("PUT", "/api/v0/instances/1/", "{\"state\":\"stopped\"}", 404));
	json_decref(ct_expect_as(ct_sim->ro_key, "GET", "/api/v1/instances/?limit=3", NULL, 200));
	json_t *st = ct_state();
	json_t *req = json_object_get(st, "requests");
	json_t *a = json_object_get(req, "/api/v0/autojobs/");
	assert_int_equal(json_integer_value(json_object_get(a, "count")), 1);
	assert_string_equal(ct_str(json_object_get(a, "last_body"), "api_key"), "in-body");
	json_t *p = json_object_get(req, "/api/v0/instances/1/");
	assert_string_equal(ct_str(p, "last_method"), "PUT");
	assert_string_equal(ct_str(json_object_get(p, "last_body"), "state"), "stopped");
	assert_string_equal(ct_str(p, "last_auth"), "full");
	json_t *l = json_object_get(req, "/api/v1/instances/");
	assert_string_equal(ct_str(l, "last_query"), "limit=3");
	assert_string_equal(ct_str(l, "last_auth"), "readonly");
	/* every instance carries its internals */
	json_t *in = json_array_get(json_object_get(st, "instances"), 0);
	assert_non_null(ct_str(json_object_get(in, "sim"), "instance_api_key"));
	assert_non_null(json_object_get(st, "tfa"));
	assert_non_null(json_object_get(st, "rate_limits"));
	json_decref(st);
}

/* ?fields= keeps only the named instance fields (and every instance) */
static void test_state_fields(void **state)
{
	(void)state;
	json_t *whole = ct_state();
	struct http_result r = http_call(ct_sim, "GET", "/__sim/state?fields=id,actual_status,sim,nope",
					 NULL, NULL);
	assert_int_equal(r.status, 200);
	json_t *all = json_object_get(whole, "instances"), *some = json_object_get(r.json, "instances");
	assert_true(json_array_size(all) > 0);
	assert_int_equal(json_array_size(some), json_array_size(all));
	for (size_t i = 0; i < json_array_size(all); i++) {
		json_t *a = json_array_get(all, i), *b = json_array_get(some, i);
		assert_int_equal(json_object_size(b), 3); /* "nope" is no field */
		assert_true(json_equal(json_object_get(a, "id"), json_object_get(b, "id")));
		assert_true(json_equal(json_object_get(a, "actual_status"), json_object_get(b, "actual_status")));
		assert_non_null(ct_str(json_object_get(b, "sim"), "phase"));
	}
	assert_non_null(json_object_get(r.json, "requests")); /* the rest as it was */
	http_result_free(&r);
	json_decref(whole);
}

static void test_unknown_control_call(void **state)
{
	(void)state;
	ct_expect_error(NULL, "POST", "/__sim/teleport", "{}", 404, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_manual_clock_moves_only_when_told, ct_reset),
		cmocka_unit_test_setup(test_codes_start_empty, ct_reset),
		cmocka_unit_test_setup(test_codes_show_the_last_email_code, ct_reset),
		cmocka_unit_test_setup(test_force_status_offline, ct_reset),
		cmocka_unit_test_setup(test_drop_hosts_over_a_period, ct_reset),
		cmocka_unit_test_setup(test_set_label_to_hostile_bytes, ct_reset),
		cmocka_unit_test_setup(test_set_user_fields, ct_reset),
		cmocka_unit_test_setup(test_reset_restores_the_seeded_world, ct_reset),
		cmocka_unit_test_setup(test_state_records_requests_and_get_bodies, ct_reset),
		cmocka_unit_test_setup(test_state_fields, ct_reset),
		cmocka_unit_test_setup(test_unknown_control_call, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_ctl", tests, setup, ct_stop);
}
