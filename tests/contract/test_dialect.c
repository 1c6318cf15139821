/* test_dialect.c: what --dialect live changes and the documented forms both
 * dialects now share (tests/sim/API.md "Where the dialects differ"): exact
 * paths and the live HTML 404, the endpoint-log forms and their keys,
 * worker states over the lifecycle, envelopes, nulls in updates,
 * label_counts' "" key, computed columns refused in select_filters, the
 * result_url's 403 (live, and the "403" fault), template create's required
 * fields, a workergroup's search_query as the docs' object (live).  One simulator per dialect, manual clock, no rate limits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static struct simproc *spec_sim, *live_sim;

static int setup(void **state)
{
	(void)state;
	const char *spec_args[] = { "--clock", "manual", "--rate-limits", "off", NULL };
	const char *live_args[] = { "--clock", "manual", "--rate-limits", "off", "--dialect", "live", NULL };
	spec_sim = simproc_start(spec_args);
	live_sim = simproc_start(live_args);
	return spec_sim && live_sim ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	simproc_stop(spec_sim);
	simproc_stop(live_sim);
	ct_sim = NULL;
	return 0;
}

/* Make sim the one the ct_ helpers use, reset. */
static void use(struct simproc *sim)
{
	ct_sim = sim;
	assert_int_equal(ct_reset(NULL), 0);
}

static int reset_both(void **state)
{
	(void)state;
	use(live_sim);
	use(spec_sim);
	return 0;
}

static long first_endpoint(const char **name)
{
	json_t *e = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	json_t *o = json_array_get(json_object_get(e, "results"), 0);
	long id = (long)json_integer_value(json_object_get(o, "id"));
	static char buf[64];
	snprintf(buf, sizeof buf, "%s", ct_str(o, "endpoint_name"));
	if (name)
		*name = buf;
	json_decref(e);
	return id;
}

static void expect_html_404(const char *method, const char *path, const char *body)
{
	struct http_result r = http_call(ct_sim, method, path, ct_sim->full_key, body);
	if (r.status != 404 || !strstr(r.content_type, "text/html"))
		fail_msg("%s %s: expected the HTML 404, got %ld %s", method, path, r.status, r.content_type);
	http_result_free(&r);
}

static void test_live_paths_are_exact(void **state)
{
	(void)state;
	use(live_sim);
	expect_html_404("GET", "/api/v1/instances", NULL);
	expect_html_404("GET", "/api/v0/tfa/status", NULL);
	expect_html_404("POST", "/get_endpoint_logs", "{\"endpoint\":\"llm-chat\",\"tail\":5}");
	expect_html_404("POST", "/get_endpoint_workers", "{\"id\":1}");
	expect_html_404("GET", "/api/v0/no/such/thing/", NULL);
	expect_html_404("PUT", "/api/v0/commands/copy_direct", "{}");
	expect_html_404("PUT", "/api/v0/instances/command/1", "{\"command\":\"ls\"}");
	expect_html_404("POST", "/api/v0/volumes/search", "{}");
	/* both forms where the docs and the CLI differ */
	json_decref(ct_expect("GET", "/api/v0/users/current", NULL, 200));
	json_decref(ct_expect("GET", "/api/v0/users/current/", NULL, 200));
	json_decref(ct_expect("GET", "/api/v0/volumes?owner=me&type=all_volume", NULL, 200));
	json_decref(ct_expect("GET", "/api/v0/volumes/", NULL, 200));
	/* the default dialect: /api/ paths with or without the slash, the run
	 * server's exact */
	use(spec_sim);
	json_decref(ct_expect("GET", "/api/v1/instances", NULL, 200));
	json_decref(ct_expect("GET", "/api/v0/tfa/status", NULL, 200));
	json_decref(ct_expect("POST", "/api/v0/volumes/search", "{}", 200));
	ct_expect_error(ct_sim->full_key, "POST", "/get_endpoint_workers", "{\"id\":1}", 404, "not_found",
			"no such endpoint");
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%ld,\"tail\":5}", first_endpoint(NULL));
	json_t *j = ct_expect("POST", "/get_endpoint_logs", body, 400); /* the spec's form only */
	assert_true(json_is_string(j));
	json_decref(j);
}

static void test_live_log_form_needs_the_key_in_the_body(void **state)
{
	(void)state;
	use(live_sim);
	ct_advance(60);
	long id = first_endpoint(NULL);
	char body[256];
	/* Bearer alone: refused, a bare string as the run server answers */
	snprintf(body, sizeof body, "{\"id\":%ld,\"tail\":5}", id);
	json_t *j = ct_expect("POST", "/get_endpoint_logs/", body, 401);
	assert_true(json_is_string(j));
	assert_non_null(strstr(json_string_value(j), "authenticate_endpoint_apikey"));
	json_decref(j);
	/* the CLI's form: the account's key in the body and as the Bearer */
	snprintf(body, sizeof body, "{\"id\":%ld,\"api_key\":\"%s\",\"tail\":5}", id, ct_sim->full_key);
	j = ct_expect("POST", "/get_endpoint_logs/", body, 200);
	assert_true(json_is_string(json_object_get(j, "info0")));
	assert_true(json_is_string(json_object_get(j, "debug")));
	json_decref(j);
	/* the default dialect takes the Bearer alone */
	use(spec_sim);
	snprintf(body, sizeof body, "{\"id\":%ld,\"tail\":5}", first_endpoint(NULL));
	json_decref(ct_expect("POST", "/get_endpoint_logs/", body, 200));
}

static json_t *workers(long id)
{
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%ld}", id);
	return ct_expect("POST", "/get_endpoint_workers/", body, 200);
}

static void test_live_worker_states_over_the_lifecycle(void **state)
{
	(void)state;
	use(live_sim);
	static const char *const documented[] = { "IDLE", "LOADING", "MODEL_LOADING", "STOPPED", "DESTROYING",
						  "REBOOTING", "CREATING", "STARTING", "STOPPING", "UPDATING" };
	bool seen[sizeof documented / sizeof *documented] = { false };
	long id = first_endpoint(NULL);
	/* one cycle (900 s) in 15 s steps */
	for (int step = 0; step < 61; step++) {
		json_t *arr = workers(id);
		assert_true(json_array_size(arr) >= 3);
		size_t i;
		json_t *w;
		json_array_foreach(arr, i, w) {
			const char *s = ct_str(w, "status");
			assert_non_null(s);
			if (i == 0)
				assert_string_equal(s, "IDLE"); /* one ready worker throughout */
			bool known = false;
			for (size_t k = 0; k < sizeof documented / sizeof *documented; k++)
				if (!strcmp(s, documented[k]))
					known = seen[k] = true;
			if (!known)
				fail_msg("worker state %s is not a documented one", s);
			assert_non_null(ct_str(w, "gpu_name"));
			assert_true(json_is_number(json_object_get(w, "measured_perf")));
		}
		json_decref(arr);
		ct_advance(15);
	}
	for (size_t k = 0; k < sizeof documented / sizeof *documented; k++)
		if (!seen[k])
			fail_msg("worker state %s never seen in a cycle", documented[k]);
}

static void count_mode(long id, const char *mode, const char *want)
{
	char b[160];
	snprintf(b, sizeof b, "{\"what\":\"endpoint\",\"endpoint_id\":%ld,\"field\":\"workers\",\"value\":\"%s\"}", id,
		 mode);
	ct_ctl("set", b);
	json_t *arr = workers(id);
	size_t i;
	json_t *w;
	assert_true(json_array_size(arr) > 0);
	json_array_foreach(arr, i, w)
		assert_string_equal(ct_str(w, "status"), want);
	json_decref(arr);
}

static void test_worker_modes_and_stopped_endpoint(void **state)
{
	(void)state;
	use(live_sim);
	long id = first_endpoint(NULL);
	count_mode(id, "idle", "IDLE");
	count_mode(id, "error", "ERROR");
	char b[128];
	snprintf(b, sizeof b, "{\"what\":\"endpoint\",\"endpoint_id\":%ld,\"field\":\"workers\",\"value\":\"mixed\"}",
		 id);
	ct_ctl("set", b);
	snprintf(b, sizeof b, "/api/v0/endptjobs/%ld/", id);
	json_decref(ct_expect("PUT", b, "{\"endpoint_state\":\"stopped\"}", 200));
	json_t *arr = workers(id);
	size_t i;
	json_t *w;
	json_array_foreach(arr, i, w)
		assert_string_equal(ct_str(w, "status"), "STOPPED");
	json_decref(arr);
	/* the default dialect keeps its statuses: RUNNING among them */
	use(spec_sim);
	arr = workers(first_endpoint(NULL));
	bool running = false;
	json_array_foreach(arr, i, w)
		running |= !strcmp(ct_str(w, "status"), "RUNNING");
	assert_true(running);
	json_decref(arr);
}

static void test_endpoint_update_ignores_nulls(void **state)
{
	(void)state;
	struct simproc *sims[2] = { spec_sim, live_sim };
	for (int s = 0; s < 2; s++) {
		use(sims[s]);
		const char *name;
		long id = first_endpoint(&name);
		char path[64], keep[64];
		snprintf(keep, sizeof keep, "%s", name);
		snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", id);
		/* what `vastai update endpoint ID --max_workers 7` sends */
		json_decref(ct_expect("PUT", path,
				      "{\"client_id\":\"me\",\"endptjob_id\":1,\"min_load\":null,\"min_cold_load\":null,"
				      "\"target_util\":null,\"cold_mult\":null,\"cold_workers\":null,\"max_workers\":7,"
				      "\"endpoint_name\":null,\"endpoint_state\":null,\"max_queue_time\":null,"
				      "\"target_queue_time\":null,\"inactivity_timeout\":null,\"autoscaler_instance\":\"prod\"}",
				      200));
		json_t *e = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
		json_t *o = json_array_get(json_object_get(e, "results"), 0);
		assert_string_equal(ct_str(o, "endpoint_name"), keep);
		assert_true(json_is_number(json_object_get(o, "min_load")));
		assert_true(json_is_string(json_object_get(o, "endpoint_state")));
		assert_int_equal(json_integer_value(json_object_get(o, "max_workers")), 7);
		json_decref(e);
	}
}

static void test_envelopes(void **state)
{
	(void)state;
	struct simproc *sims[2] = { spec_sim, live_sim };
	for (int s = 0; s < 2; s++) {
		bool live = s == 1;
		use(sims[s]);
		json_t *j = ct_expect("POST", "/api/v0/endptjobs/", "{\"endpoint_name\":\"env-probe\"}", 200);
		assert_true(json_is_integer(json_object_get(j, "result")));
		assert_true(live ? json_object_get(j, "id") == NULL : json_is_integer(json_object_get(j, "id")));
		json_decref(j);
		char path[64];
		snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", first_endpoint(NULL));
		j = ct_expect("DELETE", path, "{}", 200);
		assert_true(json_array_size(json_object_get(j, "deleted_workers")) >= 2);
		assert_true(json_is_array(json_object_get(j, "failed_workers")));
		assert_non_null(strstr(ct_str(j, "msg"), "workers"));
		json_decref(j);
		j = ct_expect("DELETE", "/api/v0/team/roles/member/", "{}", 200);
		assert_string_equal(ct_str(j, "status"), "success");
		assert_non_null(ct_str(j, "message"));
		assert_true(live ? json_object_get(j, "success") == NULL : json_is_true(json_object_get(j, "success")));
		json_decref(j);
		long id = ct_find("running", NULL);
		snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
		j = ct_expect("PUT", path, "{\"label\":\"hello\"}", 200);
		char want[96];
		snprintf(want, sizeof want, "label for %ld set to 'hello'", id);
		assert_string_equal(ct_str(j, "msg"), want);
		json_decref(j);
		j = ct_expect("GET", "/api/v0/template/", NULL, 200);
		assert_int_equal(json_integer_value(json_object_get(j, "templates_found")),
				 json_array_size(json_object_get(j, "templates")));
		json_decref(j);
	}
}

static void test_label_counts_unlabelled_under_empty_key(void **state)
{
	(void)state;
	struct simproc *sims[2] = { spec_sim, live_sim };
	for (int s = 0; s < 2; s++) {
		use(sims[s]);
		json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
		size_t i, unlabelled = 0, total = 0;
		json_t *o;
		json_array_foreach(json_object_get(j, "instances"), i, o)
			unlabelled += json_string_value(json_object_get(o, "label")) == NULL;
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(j, "label_counts"), k, v)
			total += (size_t)json_integer_value(v);
		assert_true(unlabelled > 0);
		assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "label_counts"), "")), unlabelled);
		assert_int_equal(total, json_integer_value(json_object_get(j, "total_instances")));
		json_decref(j);
		/* the filtered (scan) path counts the same way */
		j = ct_expect("GET", "/api/v1/instances/?select_filters=%7B%22machine_id%22%3A%7B%22gte%22%3A0%7D%7D",
			      NULL, 200);
		assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "label_counts"), "")), unlabelled);
		json_decref(j);
	}
}

static void test_computed_columns_refused(void **state)
{
	(void)state;
	static const char *const f[] = { "dph_total", "num_gpus" };
	for (size_t i = 0; i < 2; i++) {
		char path[256];
		snprintf(path, sizeof path, "/api/v1/instances/?select_filters=%%7B%%22%s%%22%%3A%%7B%%22gt%%22%%3A0%%7D%%7D",
			 f[i]);
		use(spec_sim);
		ct_expect_error(ct_sim->full_key, "GET", path, NULL, 400, "invalid_args", "not a valid search key");
		use(live_sim);
		ct_expect_error(ct_sim->full_key, "GET", path, NULL, 400, "invalid_request", "not a valid search key");
	}
	/* a stored column is fine; a bad token is the docs' invalid_token live */
	json_decref(ct_expect("GET", "/api/v1/instances/?select_filters=%7B%22gpu_name%22%3A%7B%22neq%22%3A%22x%22%7D%7D",
			      NULL, 200));
	ct_expect_error(ct_sim->full_key, "GET", "/api/v1/instances/?after_token=zzz", NULL, 400, "invalid_token", NULL);
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=0", NULL, 200);
	assert_int_equal(json_array_size(json_object_get(j, "instances")), 5);
	json_decref(j);
}

static const char *log_path(char *out, size_t n)
{
	char p[96];
	snprintf(p, sizeof p, "/api/v0/instances/request_logs/%ld/", ct_find("running", NULL));
	json_t *j = ct_expect("PUT", p, "{\"tail\":\"20\"}", 200);
	snprintf(out, n, "%s", strstr(ct_str(j, "result_url"), "/instance_logs/"));
	json_decref(j);
	return out;
}

static long get_status(const char *path)
{
	struct http_result r = http_call(ct_sim, "GET", path, NULL, NULL);
	long st = r.status;
	if (st == 403 && !strstr(r.body, "AccessDenied"))
		fail_msg("403 without the object store's AccessDenied: %s", r.body);
	http_result_free(&r);
	return st;
}

static void test_result_url_403(void **state)
{
	(void)state;
	char p[160];
	/* live: before the upload the object store's 403, then the text */
	use(live_sim);
	log_path(p, sizeof p);
	assert_int_equal(get_status(p), 403);
	ct_advance(5);
	assert_int_equal(get_status(p), 200);
	/* default: 404 before; the "403" fault answers 403 N times first */
	use(spec_sim);
	log_path(p, sizeof p);
	assert_int_equal(get_status(p), 404);
	ct_advance(5);
	ct_ctl("fault", "{\"path\":\"/instance_logs/\",\"kind\":\"403\",\"count\":2}");
	assert_int_equal(get_status(p), 403);
	assert_int_equal(get_status(p), 403);
	assert_int_equal(get_status(p), 200);
}

static void test_template_create_required_fields(void **state)
{
	(void)state;
	const char *b = "{\"name\":\"t\",\"image\":\"vastai/base-image\"}";
	use(spec_sim);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/template/", b, 400, "missing_input", "docker_login_repo");
	use(live_sim);
	json_t *j = ct_expect("POST", "/api/v0/template/", b, 200);
	assert_non_null(ct_str(json_object_get(j, "template"), "hash_id"));
	assert_non_null(strstr(ct_str(j, "msg"), "New Template ID"));
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/template/", "{\"name\":\"t\"}", 400, "missing_input", "image");
}

static void test_live_workergroup_query_is_an_object(void **state)
{
	(void)state;
	use(live_sim);
	json_t *j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	json_t *q = json_object_get(json_array_get(json_object_get(j, "results"), 0), "search_query");
	assert_true(json_is_object(q));
	/* "gpu_ram>=24 num_gpus=1 reliability>0.98 verified=true", encoded as
	 * the CLI encodes a search */
	assert_true(json_number_value(json_object_get(json_object_get(q, "gpu_ram"), "gte")) == 24000.0);
	assert_string_equal(ct_str(json_object_get(q, "num_gpus"), "eq"), "1");
	assert_string_equal(ct_str(json_object_get(q, "reliability"), "gt"), "0.98");
	assert_true(json_is_true(json_object_get(json_object_get(q, "verified"), "eq")));
	json_decref(j);
	use(spec_sim); /* SPEC.md: a string */
	j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	q = json_object_get(json_array_get(json_object_get(j, "results"), 0), "search_query");
	assert_string_equal(json_string_value(q), "gpu_ram>=24 num_gpus=1 reliability>0.98 verified=true");
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_live_paths_are_exact, reset_both),
		cmocka_unit_test_setup(test_live_log_form_needs_the_key_in_the_body, reset_both),
		cmocka_unit_test_setup(test_live_worker_states_over_the_lifecycle, reset_both),
		cmocka_unit_test_setup(test_worker_modes_and_stopped_endpoint, reset_both),
		cmocka_unit_test_setup(test_endpoint_update_ignores_nulls, reset_both),
		cmocka_unit_test_setup(test_envelopes, reset_both),
		cmocka_unit_test_setup(test_label_counts_unlabelled_under_empty_key, reset_both),
		cmocka_unit_test_setup(test_computed_columns_refused, reset_both),
		cmocka_unit_test_setup(test_result_url_403, reset_both),
		cmocka_unit_test_setup(test_template_create_required_fields, reset_both),
		cmocka_unit_test_setup(test_live_workergroup_query_is_an_object, reset_both),
	};
	return cmocka_run_group_tests_name("contract_dialect", tests, setup, teardown);
}
