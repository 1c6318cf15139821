/* test_workers.c: the serverless side of issue 24 in both dialects: every
 * documented field of an endpoint's workers (status message in ERROR, the
 * price the billing clock charges), workergroup logs in the docs' and the
 * CLI's forms with their authentication, update_workers rolling the
 * workers through UPDATING (and its cancel), and the endpoint's whole
 * autoscaler (min_cold_load, queue times, inactivity timeout, rename,
 * stopped) with its refusals; each worker an instance of the account
 * (listed, billed as serverless, replaced, stopped and destroyed with its
 * endpoint and workergroup). */
#include <math.h>
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

/* Endpoint ep's worker ids, in order, into ids (at most 16); their count. */
static size_t worker_ids(long ep, long *ids)
{
	json_t *w = workers(ep);
	size_t n = 0, i;
	json_t *o;
	json_array_foreach(w, i, o) {
		assert_int_equal(ct_num(o, "id"), ct_num(o, "instance_id"));
		if (n < 16)
			ids[n++] = (long)ct_num(o, "id");
	}
	json_decref(w);
	return n;
}

static long wg_of_ep(long ep)
{
	json_t *j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	size_t i;
	json_t *g;
	long id = -1;
	json_array_foreach(json_object_get(j, "results"), i, g)
		if (id < 0 && (long)ct_num(g, "endpoint_id") == ep)
			id = (long)ct_num(g, "id");
	json_decref(j);
	return id;
}

/* The instance list (v1, one page of 25: the default seed has 24) holds id? */
static json_t *listed(long id)
{
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	assert_true(json_is_null(json_object_get(j, "next_token")));
	size_t i;
	json_t *o, *hit = NULL;
	json_array_foreach(json_object_get(j, "instances"), i, o)
		if ((long)ct_num(o, "id") == id)
			hit = json_deep_copy(o);
	json_decref(j);
	return hit;
}

/* As on the live service, a worker is an instance of the account: listed,
 * naming its endpoint and workergroup, at the price its row reports,
 * billed by the instance clock as serverless, as many as the endpoint
 * asks for, replaced when destroyed by hand, stopped with its endpoint,
 * destroyed with its workergroup. */
static void test_workers_are_instances(void **state)
{
	(void)state;
	long ep = first_id("/api/v0/endptjobs/", 0), wg = wg_of_ep(ep), ids[16];
	size_t n = worker_ids(ep, ids);
	assert_true(n >= 3);
	json_t *w = workers(ep);
	for (size_t i = 0; i < n; i++) {
		json_t *o = listed(ids[i]);
		if (!o)
			fail_msg("worker %ld is not in the instance list", ids[i]);
		assert_int_equal(ct_num(o, "endpoint_id"), ep);
		assert_int_equal(ct_num(o, "workergroup_id"), wg);
		assert_string_equal(ct_str(o, "actual_status"), "running");
		json_t *row = json_array_get(w, i);
		assert_string_equal(ct_str(o, "gpu_name"), ct_str(row, "gpu_name"));
		assert_float_equal(ct_num(o, "dph_total"), ct_num(row, "dph_total"), 0.0001);
		json_decref(o);
	}
	json_decref(w);
	/* the seeded account: twelve instances and the three endpoints' workers */
	json_t *st = ct_state();
	assert_int_equal(json_array_size(json_object_get(st, "instances")), 24); /* 12 seeded, 3 + 4 + 5 workers */
	json_decref(st);

	/* billed as serverless: the charges' tree puts it under its endpoint */
	st = ct_state();
	double day0 = floor(ct_num(st, "now") / 86400) * 86400;
	json_decref(st);
	ct_advance(3600);
	char path[512];
	snprintf(path, sizeof path, "/api/v0/charges/?select_filters=%%7B%%22day%%22%%3A%%7B%%22gte%%22%%3A%.0f%%2C%%22lte%%22%%3A%.0f%%7D%%2C%%22type%%22%%3A%%7B%%22in%%22%%3A%%5B%%22serverless%%22%%5D%%7D%%7D&limit=500",
		 day0, day0 + 2 * 86400 - 1);
	json_t *j = ct_expect("GET", path, NULL, 200);
	bool found = false;
	size_t i;
	json_t *r;
	char src[48];
	snprintf(src, sizeof src, "instance-%ld", ids[0]);
	json_array_foreach(json_object_get(j, "results"), i, r)
		if (!strcmp(ct_str(r, "source"), src)) {
			found = true;
			assert_int_equal(ct_num(json_object_get(r, "metadata"), "endpoint_id"), ep);
			assert_int_equal(ct_num(json_object_get(r, "metadata"), "workergroup_id"), wg);
		}
	json_decref(j);
	assert_true(found);

	/* destroyed by hand: the workergroup launches a replacement */
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", ids[1]);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	long after[16];
	assert_int_equal(worker_ids(ep, after), n);
	assert_int_equal(after[0], ids[0]);
	assert_true(after[1] != ids[1] && after[1] > ids[1]);
	json_t *o = listed(after[1]);
	assert_non_null(o);
	json_decref(o);

	/* as many as it asks for: one more cold worker, one more instance */
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", ep);
	json_t *e = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	double cold = ct_num(json_array_get(json_object_get(e, "results"), 0), "cold_workers");
	json_decref(e);
	char body[96];
	snprintf(body, sizeof body, "{\"cold_workers\":%.0f}", cold + 1);
	json_decref(ct_expect("PUT", path, body, 200));
	assert_int_equal(worker_ids(ep, after), n + 1);
	o = listed(after[n]);
	assert_non_null(o);
	json_decref(o);

	/* stopped with its endpoint: storage only */
	json_decref(ct_expect("PUT", path, "{\"endpoint_state\":\"stopped\"}", 200));
	ct_advance(10);
	json_t *in = ct_inst(after[0]);
	assert_string_equal(ct_str(in, "actual_status"), "exited");
	assert_string_equal(ct_str(in, "intended_status"), "stopped");
	json_decref(in);
	json_decref(ct_expect("PUT", path, "{\"endpoint_state\":\"active\"}", 200));
	in = ct_inst(after[0]);
	assert_string_equal(ct_str(in, "intended_status"), "running");
	json_decref(in);

	/* destroyed with its workergroup */
	snprintf(path, sizeof path, "/api/v0/workergroups/%ld/", wg);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	for (size_t k = 0; k <= n; k++) {
		o = listed(after[k]);
		if (o)
			fail_msg("worker %ld outlived its workergroup", after[k]);
	}
	assert_int_equal(worker_ids(ep, after), 0);
}

/* A new workergroup launches its endpoint's workers; deleting the endpoint
 * destroys them (its answer's deleted_workers). */
static void test_new_workergroup_launches_workers(void **state)
{
	(void)state;
	json_t *j = ct_expect("POST", "/api/v0/endptjobs/", "{\"endpoint_name\":\"ct-new\",\"cold_workers\":1}", 200);
	long ep = (long)ct_num(j, "result");
	json_decref(j);
	long ids[16];
	assert_int_equal(worker_ids(ep, ids), 0); /* no workergroup: no worker */
	char body[96];
	snprintf(body, sizeof body, "{\"endpoint_id\":%ld}", ep);
	json_decref(ct_expect("POST", "/api/v0/workergroups/", body, 200));
	assert_int_equal(worker_ids(ep, ids), 3);
	json_t *in = ct_inst(ids[2]);
	assert_int_equal(ct_num(in, "endpoint_id"), ep);
	json_decref(in);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", ep);
	j = ct_expect("DELETE", path, "{}", 200);
	json_t *del = json_object_get(j, "deleted_workers");
	assert_int_equal(json_array_size(del), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(json_integer_value(json_array_get(del, i)), ids[i]);
		json_t *st = ct_state();
		assert_null(ct_state_inst(st, ids[i]));
		json_decref(st);
	}
	json_decref(j);
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
		cmocka_unit_test_setup_teardown(test_workers_are_instances, start_default, ct_stop),
		cmocka_unit_test_setup_teardown(test_new_workergroup_launches_workers, start_default, ct_stop),
	};
	return cmocka_run_group_tests_name("contract_workers", tests, NULL, NULL);
}
