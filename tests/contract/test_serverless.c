/* test_serverless.c: endpoints (endptjobs), workergroups create/update/
 * delete with no_such_workergroup, both get_endpoint_logs forms (the spec's
 * {"endpoint","tail"} -> logs, the CLI's {"id","api_key","tail"} -> info0,
 * info1, trace, debug), bare-string failures, logs growing with time, and
 * get_endpoint_workers with its per-endpoint worker modes (the seeded
 * all-ERROR endpoint, "loading", "none" through /__sim/set), suspend/resume
 * with a bad state refused, search_params on a workergroup PUT, the request
 * record showing only the fields a PUT sent, and a server with only the
 * CLI's log form (/__sim/set logs_cli_only). */
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
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--endpoints", "3", NULL };
	return ct_start(args);
}

static int count_lines(const char *s)
{
	if (!*s)
		return 0;
	int n = 1;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_endptjobs_list_create_update_delete(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	json_t *res = json_object_get(j, "results");
	assert_int_equal(json_array_size(res), 3);
	json_t *e = json_array_get(res, 0);
	static const char *const f[] = { "id", "endpoint_name", "endpoint_state", "min_load", "target_util",
					 "cold_mult", "cold_workers", "max_workers", "api_key", "user_id", "created_at" };
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		assert_non_null(json_object_get(e, f[i]));
	json_decref(j);
	j = ct_expect("POST", "/api/v0/endptjobs/", "{\"endpoint_name\":\"new-ep\",\"max_workers\":9}", 200);
	long id = (long)json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"endpoint_state\":\"suspended\"}", 200));
	j = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	json_t *last = json_array_get(json_object_get(j, "results"), 3);
	assert_string_equal(ct_str(last, "endpoint_state"), "suspended");
	assert_int_equal(json_integer_value(json_object_get(last, "max_workers")), 9);
	json_decref(j);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	ct_expect_error(ct_sim->full_key, "DELETE", path, "{}", 404, "no_such_endpoint", NULL);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/endptjobs/", "{}", 400, "missing_input", NULL);
}

static void test_workergroups_create_update_delete(void **state)
{
	(void)state;
	json_t *j = ct_expect("POST", "/api/v0/workergroups/",
			      "{\"endpoint_name\":\"llm-chat\",\"search_params\":\"gpu_ram>=40\",\"min_load\":5}", 200);
	long id = (long)json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	json_t *g = json_array_get(json_object_get(j, "results"), 3);
	assert_int_equal(json_integer_value(json_object_get(g, "id")), id);
	assert_string_equal(ct_str(g, "search_query"), "gpu_ram>=40");
	assert_string_equal(ct_str(g, "endpoint_name"), "llm-chat");
	assert_string_equal(ct_str(g, "api_key"), "<API_KEY>");
	json_decref(j);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/autojobs/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"min_load\":7}", 200));
	snprintf(path, sizeof path, "/api/v0/workergroups/%ld/", id);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	ct_expect_error(ct_sim->full_key, "DELETE", path, "{}", 404, "no_such_workergroup", NULL);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/workergroups/", "{\"endpoint_name\":\"nope\"}", 400,
			"invalid_args", NULL);
}

static void test_endpoint_logs_spec_form(void **state)
{
	(void)state;
	ct_advance(60);
	json_t *j = ct_expect("POST", "/get_endpoint_logs", "{\"endpoint\":\"llm-chat\",\"tail\":5}", 200);
	const char *logs = ct_str(j, "logs");
	assert_non_null(logs);
	assert_int_equal(count_lines(logs), 5);
	json_decref(j);
	/* logs keep growing */
	j = ct_expect("POST", "/get_endpoint_logs/", "{\"endpoint\":\"llm-chat\",\"tail\":1000}", 200);
	int before = count_lines(ct_str(j, "logs"));
	json_decref(j);
	ct_advance(30);
	j = ct_expect("POST", "/get_endpoint_logs/", "{\"endpoint\":\"llm-chat\",\"tail\":1000}", 200);
	assert_int_equal(count_lines(ct_str(j, "logs")), before + 10);
	json_decref(j);
}

static void test_endpoint_logs_cli_form(void **state)
{
	(void)state;
	ct_advance(120);
	json_t *e = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	json_t *ep = json_array_get(json_object_get(e, "results"), 1);
	char body[256];
	snprintf(body, sizeof body, "{\"id\":%lld,\"api_key\":\"%s\",\"tail\":20}",
		 (long long)json_integer_value(json_object_get(ep, "id")), ct_str(ep, "api_key"));
	json_decref(e);
	json_t *j = ct_expect_as(NULL, "POST", "/get_endpoint_logs/", body, 200);
	static const char *const levels[] = { "info0", "info1", "trace", "debug" };
	for (size_t i = 0; i < 4; i++)
		assert_true(json_is_string(json_object_get(j, levels[i])));
	assert_int_equal(count_lines(ct_str(j, "info0")), 20);
	json_decref(j);
}

static void test_endpoint_logs_failures_are_bare_strings(void **state)
{
	(void)state;
	json_t *j = ct_expect_as(NULL, "POST", "/get_endpoint_logs/", "{\"endpoint\":\"llm-chat\",\"tail\":5}", 401);
	assert_true(json_is_string(j));
	json_decref(j);
	j = ct_expect("POST", "/get_endpoint_logs/", "{\"endpoint\":\"no-such\",\"tail\":5}", 404);
	assert_true(json_is_string(j));
	json_decref(j);
}

static void test_injected_log_line_with_escapes_is_served_verbatim(void **state)
{
	(void)state;
	ct_ctl("set", "{\"what\":\"log\",\"endpoint\":\"sdxl-gen\",\"line\":\"\\u001b[31mred\\u001b[0m \\u0007bell\"}");
	json_t *j = ct_expect("POST", "/get_endpoint_logs", "{\"endpoint\":\"sdxl-gen\",\"tail\":1}", 200);
	assert_string_equal(ct_str(j, "logs"), "\x1b[31mred\x1b[0m \x07" "bell");
	json_decref(j);
}

static void test_endpoint_workers(void **state)
{
	(void)state;
	json_t *e = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%lld}",
		 (long long)json_integer_value(json_object_get(json_array_get(json_object_get(e, "results"), 0), "id")));
	json_decref(e);
	json_t *j = ct_expect("POST", "/get_endpoint_workers/", body, 200);
	assert_true(json_is_array(j));
	assert_true(json_array_size(j) >= 2);
	json_t *w = json_array_get(j, 0);
	static const char *const f[] = { "id", "status", "cur_load", "perf", "reliability", "reqs_working",
					 "disk_usage", "started_at" };
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		assert_non_null(json_object_get(w, f[i]));
	json_decref(j);
	json_decref(ct_expect("POST", "/get_endpoint_workers/", "{\"id\":1}", 404));
}

static long ep_id(const char *name)
{
	json_t *e = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	size_t i;
	json_t *o;
	long id = -1;
	json_array_foreach(json_object_get(e, "results"), i, o)
		if (!strcmp(ct_str(o, "endpoint_name"), name))
			id = (long)json_integer_value(json_object_get(o, "id"));
	json_decref(e);
	assert_true(id > 0);
	return id;
}

static json_t *workers_of(const char *name)
{
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%ld}", ep_id(name));
	return ct_expect("POST", "/get_endpoint_workers/", body, 200);
}

static size_t count_status(json_t *arr, const char *status)
{
	size_t i, n = 0;
	json_t *w;
	json_array_foreach(arr, i, w)
		n += !strcmp(ct_str(w, "status"), status);
	return n;
}

static void test_worker_modes(void **state)
{
	(void)state;
	/* seeded: whisper-asr's workers are all in ERROR; llm-chat is mixed */
	json_t *j = workers_of("whisper-asr");
	assert_true(json_array_size(j) > 0);
	assert_int_equal(count_status(j, "ERROR"), json_array_size(j));
	json_decref(j);
	j = workers_of("llm-chat");
	assert_true(count_status(j, "RUNNING") > 0);
	json_decref(j);
	/* the knob never shows in the list */
	j = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "results"), i, o)
		assert_null(json_object_get(o, "sim_workers"));
	json_decref(j);
	ct_ctl("set", "{\"what\":\"endpoint\",\"endpoint\":\"llm-chat\",\"field\":\"workers\",\"value\":\"loading\"}");
	j = workers_of("llm-chat");
	assert_int_equal(count_status(j, "LOADING"), json_array_size(j));
	json_decref(j);
	ct_ctl("set", "{\"what\":\"endpoint\",\"endpoint\":\"llm-chat\",\"field\":\"workers\",\"value\":\"none\"}");
	j = workers_of("llm-chat");
	assert_int_equal(json_array_size(j), 0);
	json_decref(j);
	struct http_result r = sim_ctl(ct_sim, "set", "{\"what\":\"endpoint\",\"endpoint\":\"llm-chat\",\"field\":\"workers\",\"value\":\"bogus\"}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
	/* a hostile endpoint name through the control API */
	ct_ctl("set", "{\"what\":\"endpoint\",\"endpoint\":\"sdxl-gen\",\"field\":\"endpoint_name\",\"value\":\"\\u001b[31mevil\"}");
	assert_true(ep_id("\x1b[31mevil") > 0);
}

/* DELETE of an endpoint, as the live service (delete_endpoint.yaml):
 * its workergroups are deleted with it, its workers are listed in
 * deleted_workers (failed_workers empty); other endpoints keep theirs.
 * An orphan can still be made through /__sim/set. */
static void test_endpoint_delete_takes_its_workergroups(void **state)
{
	(void)state;
	long id = ep_id("sdxl-gen");
	json_t *w = workers_of("sdxl-gen");
	size_t nworkers = json_array_size(w);
	assert_true(nworkers > 0);
	json_t *g0 = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	size_t before = json_array_size(json_object_get(g0, "results")), mine = 0, i;
	json_t *o;
	json_array_foreach(json_object_get(g0, "results"), i, o)
		mine += json_integer_value(json_object_get(o, "endpoint_id")) == id;
	json_decref(g0);
	assert_true(mine > 0);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", id);
	json_t *j = ct_expect("DELETE", path, "{}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_t *dw = json_object_get(j, "deleted_workers"), *fw = json_object_get(j, "failed_workers");
	assert_true(json_is_array(dw));
	assert_true(json_is_array(fw));
	assert_int_equal(json_array_size(fw), 0);
	assert_int_equal(json_array_size(dw), nworkers);
	json_array_foreach(w, i, o) /* the workers it had */
		assert_int_equal(json_integer_value(json_array_get(dw, i)),
				 json_integer_value(json_object_get(o, "id")));
	assert_non_null(strstr(ct_str(j, "msg"), "workers"));
	json_decref(j);
	json_decref(w);
	json_t *g = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	assert_int_equal(json_array_size(json_object_get(g, "results")), before - mine);
	json_array_foreach(json_object_get(g, "results"), i, o)
		assert_int_not_equal(json_integer_value(json_object_get(o, "endpoint_id")), id);
	long other = (long)json_integer_value(json_object_get(json_array_get(json_object_get(g, "results"), 0), "id"));
	json_decref(g);
	/* an orphan through the control API */
	char body[160];
	snprintf(body, sizeof body, "{\"what\":\"workergroup\",\"id\":%ld,\"field\":\"endpoint_id\",\"value\":%ld}",
		 other, id);
	ct_ctl("set", body);
	g = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(g, "results"), 0), "endpoint_id")), id);
	json_decref(g);
	struct http_result r = sim_ctl(ct_sim, "set", "{\"what\":\"workergroup\",\"id\":1,\"field\":\"min_load\",\"value\":1}");
	assert_int_equal(r.status, 400);
	http_result_free(&r);
}

static void test_suspend_resume_and_put_record(void **state)
{
	(void)state;
	char path[64];
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", ep_id("llm-chat"));
	json_decref(ct_expect("PUT", path, "{\"endpoint_state\":\"suspended\"}", 200));
	json_decref(ct_expect("PUT", path, "{\"endpoint_state\":\"active\"}", 200));
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"endpoint_state\":\"sleeping\"}", 400, "invalid_args", NULL);
	/* a stopped endpoint has no worker */
	json_decref(ct_expect("PUT", path, "{\"endpoint_state\":\"stopped\"}", 200));
	json_t *j = workers_of("llm-chat");
	assert_int_equal(json_array_size(j), 0);
	json_decref(j);
	/* workergroup PUT: search_params lands in search_query; the request
	 * record shows exactly the fields sent */
	j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	long wg = (long)json_integer_value(json_object_get(json_array_get(json_object_get(j, "results"), 0), "id"));
	json_decref(j);
	snprintf(path, sizeof path, "/api/v0/workergroups/%ld/", wg);
	json_decref(ct_expect("PUT", path, "{\"search_params\":\"gpu_ram>=80\",\"test_workers\":4}", 200));
	j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	json_t *g = json_array_get(json_object_get(j, "results"), 0);
	assert_string_equal(ct_str(g, "search_query"), "gpu_ram>=80");
	assert_int_equal(json_integer_value(json_object_get(g, "test_workers")), 4);
	json_decref(j);
	json_t *st = ct_state();
	json_t *rec = json_object_get(json_object_get(st, "requests"), path);
	assert_string_equal(ct_str(rec, "last_method"), "PUT");
	json_t *b = json_object_get(rec, "last_body");
	assert_int_equal(json_object_size(b), 2);
	json_decref(st);
}

static void test_logs_cli_only(void **state)
{
	(void)state;
	ct_advance(30);
	ct_ctl("set", "{\"what\":\"sim\",\"field\":\"logs_cli_only\",\"value\":true}");
	json_t *j = ct_expect("POST", "/get_endpoint_logs", "{\"endpoint\":\"llm-chat\",\"tail\":5}", 404);
	assert_true(json_is_string(j));
	json_decref(j);
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%ld,\"tail\":5}", ep_id("llm-chat"));
	j = ct_expect("POST", "/get_endpoint_logs/", body, 200);
	assert_int_equal(count_lines(ct_str(j, "info0")), 5);
	json_decref(j);
	/* reset brings the spec's form back */
	ct_reset(NULL);
	json_decref(ct_expect("POST", "/get_endpoint_logs", "{\"endpoint\":\"llm-chat\",\"tail\":5}", 200));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_endptjobs_list_create_update_delete, ct_reset),
		cmocka_unit_test_setup(test_workergroups_create_update_delete, ct_reset),
		cmocka_unit_test_setup(test_endpoint_logs_spec_form, ct_reset),
		cmocka_unit_test_setup(test_endpoint_logs_cli_form, ct_reset),
		cmocka_unit_test_setup(test_endpoint_logs_failures_are_bare_strings, ct_reset),
		cmocka_unit_test_setup(test_injected_log_line_with_escapes_is_served_verbatim, ct_reset),
		cmocka_unit_test_setup(test_endpoint_workers, ct_reset),
		cmocka_unit_test_setup(test_worker_modes, ct_reset),
		cmocka_unit_test_setup(test_endpoint_delete_takes_its_workergroups, ct_reset),
		cmocka_unit_test_setup(test_suspend_resume_and_put_record, ct_reset),
		cmocka_unit_test_setup(test_logs_cli_only, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_serverless", tests, setup, ct_stop);
}
