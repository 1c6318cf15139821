/* test_workers.c: the serverless side of issue 24 in both dialects: every
 * documented field of an endpoint's workers (status message in ERROR, the
 * price the billing clock charges), workergroup logs in the docs' and the
 * CLI's forms with their authentication, update_workers rolling the
 * workers through UPDATING (and its cancel), and the endpoint's whole
 * autoscaler (min_cold_load, queue times, inactivity timeout, rename,
 * stopped) with its refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static int start_default(void **state)
{
	(void)state;
	const char *args[] = { "--clock", "manual", "--rate-limits", "off", NULL };
	return ct_start(args);
}

static int start_live(void **state)
{
	(void)state;
	const char *args[] = { "--clock", "manual", "--rate-limits", "off", "--dialect", "live", NULL };
	return ct_start(args);
}

static long first_id(const char *path, size_t i)
{
	json_t *j = ct_expect("GET", path, NULL, 200);
	long id = (long)ct_num(json_array_get(json_object_get(j, "results"), i), "id");
	json_decref(j);
	return id;
}

static json_t *workers(long ep)
{
	char b[64];
	snprintf(b, sizeof b, "{\"id\":%ld}", ep);
	return ct_expect("POST", "/get_endpoint_workers/", b, 200);
}

static void worker_fields(void)
{
	static const char *const num[] = { "cur_load", "new_load", "cur_load_rolling_avg", "cur_perf", "perf",
					   "measured_perf", "dlperf", "reliability", "reqs_working", "disk_usage",
					   "disk_space", "loaded_at", "started_at", "dph_total", "num_gpus", "instance_id" };
	for (size_t e = 0; e < 3; e++) {
		json_t *w = workers(first_id("/api/v0/endptjobs/", e));
		assert_true(json_array_size(w) >= 3);
		size_t i;
		json_t *o;
		json_array_foreach(w, i, o) {
			for (size_t k = 0; k < sizeof num / sizeof *num; k++)
				if (!json_is_number(json_object_get(o, num[k])))
					fail_msg("worker field %s missing", num[k]);
			assert_non_null(ct_str(o, "gpu_name"));
			assert_true(!strncmp(ct_str(o, "url"), "http://", 7));
			assert_non_null(ct_str(o, "created_at"));
			assert_true(ct_num(o, "dph_total") > 0);
			assert_true(json_object_get(o, "uptime_mins") != NULL);
			const char *s = ct_str(o, "status");
			if (!strcmp(s, "ERROR"))
				assert_non_null(strstr(ct_str(o, "status_msg"), "Error"));
			else
				assert_null(json_object_get(o, "status_msg"));
		}
		if (e == 2) /* whisper-asr: every worker in ERROR */
			assert_string_equal(ct_str(json_array_get(w, 0), "status"), "ERROR");
		json_decref(w);
	}
}

static void test_worker_fields(void **state)
{
	(void)state;
	worker_fields();
}

static void wg_logs(bool live)
{
	long wg = first_id("/api/v0/workergroups/", 0);
	char b[256];
	snprintf(b, sizeof b, "{\"id\":%ld,\"api_key\":\"%s\",\"tail\":4}", wg, ct_sim->full_key);
	json_t *j = ct_expect("POST", "/get_workergroup_logs/", b, 200);
	const char *logs = ct_str(j, "logs");
	assert_non_null(logs);
	int lines = 1;
	for (const char *p = logs; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 4);
	char needle[48];
	snprintf(needle, sizeof needle, "workergroup %ld:", wg);
	assert_non_null(strstr(logs, needle));
	assert_true(logs[0] == '[');
	char *before = strdup(logs);
	json_decref(j);
	/* the log grows with the clock */
	ct_advance(30);
	j = ct_expect("POST", "/get_workergroup_logs/", b, 200);
	assert_string_not_equal(ct_str(j, "logs"), before);
	free(before);
	json_decref(j);
	j = ct_expect("POST", "/get_autogroup_logs/", b, 200);
	assert_non_null(ct_str(j, "info0"));
	assert_non_null(ct_str(j, "info1"));
	assert_non_null(strstr(ct_str(j, "trace"), "trace:") ? ct_str(j, "trace") : ct_str(j, "debug"));
	assert_null(strstr(ct_str(j, "info0"), "trace:"));
	json_decref(j);
	/* without the key in the body */
	snprintf(b, sizeof b, "{\"id\":%ld,\"tail\":4}", wg);
	struct http_result r = http_call(ct_sim, "POST", "/get_workergroup_logs/", ct_sim->full_key, b);
	assert_int_equal(r.status, live ? 401 : 200);
	if (live)
		assert_true(json_is_string(r.json) &&
			    strstr(json_string_value(r.json), "authenticate_workergroup_apikey") != NULL);
	http_result_free(&r);
	/* an unknown workergroup */
	snprintf(b, sizeof b, "{\"id\":1,\"api_key\":\"%s\"}", ct_sim->full_key);
	r = http_call(ct_sim, "POST", "/get_workergroup_logs/", ct_sim->full_key, b);
	assert_int_equal(r.status, live ? 401 : 404);
	assert_true(json_is_string(r.json));
	http_result_free(&r);
	r = http_call(ct_sim, "POST", "/get_workergroup_logs/", NULL, "{\"id\":5,\"api_key\":\"nope\"}");
	assert_int_equal(r.status, 401);
	http_result_free(&r);
}

static void test_wg_logs_default(void **state)
{
	(void)state;
	wg_logs(false);
}

static void test_wg_logs_live(void **state)
{
	(void)state;
	wg_logs(true);
	worker_fields();
}

static size_t count_status(json_t *w, const char *s)
{
	size_t n = 0, i;
	json_t *o;
	json_array_foreach(w, i, o)
		n += !strcmp(ct_str(o, "status"), s);
	return n;
}

static void test_update_workers(void **state)
{
	(void)state;
	long ep = first_id("/api/v0/endptjobs/", 0), wg = first_id("/api/v0/workergroups/", 0);
	char b[256];
	ct_ctl("set", "{\"what\":\"endpoint\",\"endpoint\":\"llm-chat\",\"field\":\"workers\",\"value\":\"idle\"}");
	json_t *w = workers(ep);
	size_t n = json_array_size(w);
	assert_int_equal(count_status(w, "UPDATING"), 0);
	json_decref(w);
	snprintf(b, sizeof b, "{\"workergroup_id\":%ld,\"api_key\":\"%s\"}", wg, ct_sim->full_key);
	json_t *j = ct_expect("POST", "/update_workers/", b, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_non_null(strstr(ct_str(j, "msg"), "started"));
	json_decref(j);
	w = workers(ep);
	assert_int_equal(count_status(w, "UPDATING"), n - 1); /* one stays ready */
	json_decref(w);
	ct_advance(121);
	w = workers(ep);
	assert_int_equal(count_status(w, "UPDATING"), 0);
	json_decref(w);
	/* a cancel ends it at once */
	json_decref(ct_expect("POST", "/update_workers/", b, 200));
	snprintf(b, sizeof b, "{\"workergroup_id\":%ld,\"api_key\":\"%s\",\"cancel_update\":true}", wg, ct_sim->full_key);
	j = ct_expect("POST", "/update_workers/", b, 200);
	assert_non_null(strstr(ct_str(j, "msg"), "cancelled"));
	json_decref(j);
	w = workers(ep);
	assert_int_equal(count_status(w, "UPDATING"), 0);
	json_decref(w);
	snprintf(b, sizeof b, "{\"workergroup_id\":1,\"api_key\":\"%s\"}", ct_sim->full_key);
	struct http_result r = http_call(ct_sim, "POST", "/update_workers/", ct_sim->full_key, b);
	assert_int_equal(r.status, 404);
	http_result_free(&r);
	r = http_call(ct_sim, "POST", "/update_workers/", ct_sim->full_key, "{}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
}

static json_t *endpoint(long id)
{
	json_t *j = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	size_t i;
	json_t *o, *r = NULL;
	json_array_foreach(json_object_get(j, "results"), i, o)
		if ((long)ct_num(o, "id") == id)
			r = json_incref(o);
	json_decref(j);
	assert_non_null(r);
	return r;
}

static void test_autoscaler_fields(void **state)
{
	(void)state;
	/* the CLI's create, as it sends it */
	json_t *j = ct_expect("POST", "/api/v0/endptjobs/",
			      "{\"client_id\":\"me\",\"min_load\":0.0,\"min_cold_load\":5.0,\"target_util\":0.8,"
			      "\"cold_mult\":2.5,\"cold_workers\":5,\"max_workers\":20,\"endpoint_name\":\"as-test\","
			      "\"max_queue_time\":45.0,\"target_queue_time\":12.0,\"inactivity_timeout\":600,"
			      "\"autoscaler_instance\":\"prod\"}",
			      200);
	long id = (long)ct_num(j, "result");
	json_decref(j);
	json_t *e = endpoint(id);
	assert_float_equal(ct_num(e, "min_load"), 0, 0);
	assert_float_equal(ct_num(e, "min_cold_load"), 5, 0);
	assert_float_equal(ct_num(e, "max_queue_time"), 45, 0);
	assert_float_equal(ct_num(e, "target_queue_time"), 12, 0);
	assert_float_equal(ct_num(e, "inactivity_timeout"), 600, 0);
	json_decref(e);
	/* fields left out take the CLI's defaults */
	j = ct_expect("POST", "/api/v0/endptjobs/", "{\"endpoint_name\":\"as-defaults\"}", 200);
	e = endpoint((long)ct_num(j, "result"));
	assert_float_equal(ct_num(e, "min_cold_load"), 0, 0);
	assert_float_equal(ct_num(e, "max_queue_time"), 30, 0);
	assert_float_equal(ct_num(e, "target_queue_time"), 10, 0);
	assert_true(json_is_null(json_object_get(e, "inactivity_timeout")));
	json_decref(e);
	json_decref(j);
	/* the CLI's update: every field, nulls for those not given */
	char path[64];
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", id);
	json_decref(ct_expect("PUT", path,
			      "{\"client_id\":\"me\",\"endptjob_id\":1,\"min_load\":null,\"min_cold_load\":1.5,"
			      "\"target_util\":null,\"cold_mult\":null,\"cold_workers\":null,\"max_workers\":null,"
			      "\"endpoint_name\":\"as-renamed\",\"endpoint_state\":\"stopped\",\"max_queue_time\":null,"
			      "\"target_queue_time\":null,\"inactivity_timeout\":0,\"autoscaler_instance\":\"prod\"}",
			      200));
	e = endpoint(id);
	assert_string_equal(ct_str(e, "endpoint_name"), "as-renamed");
	assert_string_equal(ct_str(e, "endpoint_state"), "stopped");
	assert_float_equal(ct_num(e, "min_cold_load"), 1.5, 0);
	assert_float_equal(ct_num(e, "max_queue_time"), 45, 0);
	assert_float_equal(ct_num(e, "inactivity_timeout"), 0, 0);
	json_decref(e);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"target_util\":1.5}", 400, "invalid_args", "target_util");
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"max_queue_time\":-1}", 400, "invalid_args", "max_queue_time");
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"cold_workers\":2.5}", 400, "invalid_args", "cold_workers");
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/endptjobs/",
			"{\"endpoint_name\":\"x\",\"inactivity_timeout\":\"soon\"}", 400, "invalid_args", NULL);
	e = endpoint(id);
	assert_float_equal(ct_num(e, "max_queue_time"), 45, 0);
	json_decref(e);
	/* the seeded endpoints carry the fields too */
	e = endpoint(first_id("/api/v0/endptjobs/", 0));
	assert_non_null(json_object_get(e, "min_cold_load"));
	assert_non_null(json_object_get(e, "inactivity_timeout"));
	json_decref(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_worker_fields, start_default, ct_stop),
		cmocka_unit_test_setup_teardown(test_wg_logs_default, start_default, ct_stop),
		cmocka_unit_test_setup_teardown(test_wg_logs_live, start_live, ct_stop),
		cmocka_unit_test_setup_teardown(test_update_workers, start_default, ct_stop),
		cmocka_unit_test_setup_teardown(test_autoscaler_fields, start_default, ct_stop),
	};
	return cmocka_run_group_tests_name("contract_workers", tests, NULL, NULL);
}
