/* test_api_serverless.c: the serverless request builders and decoders, then
 * the same calls run with api_run() against rentop-sim: endpoint create,
 * edit with only the changed fields (read back from the simulator's request
 * record), suspend/resume, delete; workergroup create from a template with
 * search_params, edit with only the changed fields, delete and its
 * no_such_workergroup; the worker list and health flag (the seeded endpoint
 * whose workers are all in ERROR); both log forms with the CLI fall-back on a
 * server that has only the CLI form, the level streams, bare-string
 * failures, a hostile line stored inert; instance container logs 404 until
 * ready, fetched with no Authorization.  Also the pure worker health rules
 * and the "said once" memo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"
#include "api/api_serverless.h"
#include "net/auth.h"
#include "base/config.h"
#include "state/logtail.h"
#include "testsim.h"
#include "base/util.h"
#include "rules/workers.h"

static struct config fake_cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "https://console.example";
	c.run_url = "https://run.example";
	return c;
}

static json_t *body_of(const struct api_call *c)
{
	json_t *j = json_loads(c->body, 0, NULL);
	assert_non_null(j);
	return j;
}

static void test_endpoint_builders(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct endpoint e = {.id = 42, .endpoint_name = "llm", .min_load = 10, .target_util = 0.9,
			     .cold_mult = 2.5, .cold_workers = 1, .max_workers = 4,
			     .min_cold_load = NAN, .max_queue_time = NAN, .target_queue_time = NAN,
			     .inactivity_timeout = NAN};
	struct api_call c = api_endpoint_create(&cfg, &e);
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.url, "https://console.example/api/v0/endptjobs/");
	json_t *b = body_of(&c);
	assert_string_equal(json_string_value(json_object_get(b, "endpoint_name")), "llm");
	assert_int_equal(json_integer_value(json_object_get(b, "max_workers")), 4);
	/* the CLI's whole body: the queue times and the timeout null (the service's
	 * defaults) when missing, min_cold_load 0 */
	assert_int_equal(json_object_size(b), 10);
	assert_true(json_is_null(json_object_get(b, "inactivity_timeout")));
	json_decref(b);
	api_call_free(&c);

	struct endpoint n = e;
	size_t k = 99;
	c = api_endpoint_edit(&cfg, &e, &n, &k);
	assert_int_equal(k, 0);
	assert_null(c.url);
	assert_null(c.body);
	n.max_workers = 9;
	n.target_util = 0.5;
	c = api_endpoint_edit(&cfg, &e, &n, &k);
	assert_int_equal(k, 2);
	assert_string_equal(c.method, "PUT");
	assert_string_equal(c.url, "https://console.example/api/v0/endptjobs/42/");
	b = body_of(&c);
	assert_int_equal(json_object_size(b), 2);
	assert_int_equal(json_integer_value(json_object_get(b, "max_workers")), 9);
	assert_true(fabs(json_real_value(json_object_get(b, "target_util")) - 0.5) < 1e-9);
	json_decref(b);
	api_call_free(&c);

	c = api_endpoint_suspend(&cfg, 42, true);
	assert_string_equal(c.body, "{\"endpoint_state\":\"suspended\"}");
	api_call_free(&c);
	c = api_endpoint_suspend(&cfg, 42, false);
	assert_string_equal(c.body, "{\"endpoint_state\":\"active\"}");
	api_call_free(&c);
	c = api_endpoint_delete(&cfg, 42);
	assert_string_equal(c.method, "DELETE");
	assert_string_equal(c.body, "{}");
	api_call_free(&c);
}

static void test_workergroup_builders(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct workergroup g = {.id = 7, .endpoint_id = 42, .template_hash = "abc123",
				.template_id = 5, .search_query = "gpu_ram>=24 num_gpus=1",
				.launch_args = "--model x", .min_load = 1, .target_util = 0.9,
				.cold_mult = 2, .gpu_ram = 24, .test_workers = 3};
	struct api_call c = api_workergroup_create(&cfg, &g);
	assert_string_equal(c.url, "https://console.example/api/v0/workergroups/");
	json_t *b = body_of(&c);
	assert_string_equal(json_string_value(json_object_get(b, "search_params")),
			    "gpu_ram>=24 num_gpus=1");
	assert_string_equal(json_string_value(json_object_get(b, "template_hash")), "abc123");
	assert_int_equal(json_integer_value(json_object_get(b, "endpoint_id")), 42);
	assert_null(json_object_get(b, "endpoint_name"));
	assert_null(json_object_get(b, "api_key"));
	json_decref(b);
	api_call_free(&c);
	struct workergroup by_name = g;
	by_name.endpoint_id = 0;
	by_name.endpoint_name = "llm";
	c = api_workergroup_create(&cfg, &by_name);
	b = body_of(&c);
	assert_string_equal(json_string_value(json_object_get(b, "endpoint_name")), "llm");
	json_decref(b);
	api_call_free(&c);

	struct workergroup n = g;
	size_t k;
	c = api_workergroup_edit(&cfg, &g, &n, &k);
	assert_int_equal(k, 0);
	assert_null(c.url);
	n.search_query = "gpu_ram>=40";
	n.test_workers = 5;
	c = api_workergroup_edit(&cfg, &g, &n, &k);
	assert_int_equal(k, 2);
	assert_string_equal(c.url, "https://console.example/api/v0/workergroups/7/");
	b = body_of(&c);
	assert_int_equal(json_object_size(b), 2);
	assert_string_equal(json_string_value(json_object_get(b, "search_params")), "gpu_ram>=40");
	assert_int_equal(json_integer_value(json_object_get(b, "test_workers")), 5);
	json_decref(b);
	api_call_free(&c);
	/* NULL and "" are the same text */
	struct workergroup a = {.id = 1, .launch_args = NULL}, a2 = {.id = 1, .launch_args = ""};
	c = api_workergroup_edit(&cfg, &a, &a2, &k);
	assert_int_equal(k, 0);
	c = api_workergroup_delete(&cfg, 7);
	assert_string_equal(c.url, "https://console.example/api/v0/workergroups/7/");
	assert_string_equal(c.method, "DELETE");
	api_call_free(&c);
	c = api_endpoint_workers(&cfg, 42);
	assert_string_equal(c.url, "https://run.example/get_endpoint_workers/");
	assert_string_equal(c.body, "{\"id\":42}");
	api_call_free(&c);
	long id;
	json_t *r = json_loads("{\"success\":true,\"id\":77}", 0, NULL);
	assert_true(api_serverless_new_id(r, &id));
	assert_int_equal(id, 77);
	json_decref(r);
	r = json_loads("{\"success\":true}", 0, NULL);
	assert_false(api_serverless_new_id(r, &id));
	json_decref(r);
}

static void test_log_streams_and_instance_logs(void **state)
{
	(void)state;
	json_t *spec = json_loads("{\"logs\":\"a\\nb\\u001b[31m\"}", 0, NULL);
	assert_int_equal(api_log_streams(spec), 1u << LOGS_DEFAULT);
	char *t = api_log_stream_text(spec, LOGS_DEFAULT);
	assert_string_equal(t, "a\nb");
	free(t);
	assert_null(api_log_stream_text(spec, LOGS_DEBUG));
	json_decref(spec);
	json_t *cli = json_loads("{\"info0\":\"i0\",\"info1\":\"i1\",\"trace\":\"\",\"debug\":\"d\"}", 0,
				 NULL);
	assert_int_equal(api_log_streams(cli), 0x1fu);
	t = api_log_stream_text(cli, LOGS_DEFAULT);
	assert_string_equal(t, "i0");
	free(t);
	t = api_log_stream_text(cli, LOGS_DEBUG);
	assert_string_equal(t, "d");
	free(t);
	assert_string_equal(api_log_stream_name(LOGS_INFO1), "info1");
	struct api_error e;
	assert_false(api_logs_failure(cli, &e));
	json_decref(cli);
	json_t *bad = json_loads("\"Endpoint \\u001b[2Jnot found\"", JSON_DECODE_ANY, NULL);
	assert_int_equal(api_log_streams(bad), 0);
	assert_true(api_logs_failure(bad, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_string_equal(e.msg, "Endpoint not found");
	json_decref(bad);

	struct config cfg = fake_cfg();
	struct api_call c = api_instance_logs_request(&cfg, 9, 0);
	assert_string_equal(c.method, "PUT");
	assert_string_equal(c.url, "https://console.example/api/v0/instances/request_logs/9/");
	assert_string_equal(c.body, "{\"tail\":\"1000\"}");
	assert_false(c.no_auth);
	api_call_free(&c);
	json_t *r = json_loads("{\"success\":true,\"result_url\":\"https://s3.example/x.log\"}", 0, NULL);
	char *u = api_instance_logs_url(r);
	assert_string_equal(u, "https://s3.example/x.log");
	char err[128];
	c = api_instance_logs_fetch(u, err, sizeof err);
	assert_true(c.no_auth);
	assert_string_equal(c.method, "GET");
	assert_string_equal(c.url, u);
	api_call_free(&c);
	free(u);
	json_decref(r);
	r = json_loads("{\"result_url\":\"file:///etc/passwd\"}", 0, NULL);
	assert_null(api_instance_logs_url(r));
	json_decref(r);
	c = api_instance_logs_fetch("http://example.com/x", err, sizeof err); /* plain http off loopback */
	assert_null(c.url);
}

static struct worker *decode(const char *js, size_t *n)
{
	json_t *j = json_loads(js, JSON_DECODE_ANY, NULL);
	struct worker *v;
	bool ok = workers_decode(j, &v, n);
	json_decref(j);
	assert_true(ok);
	return v;
}

static void test_worker_health(void **state)
{
	(void)state;
	size_t n;
	struct worker *v = decode("[{\"id\":3,\"status\":\"ERROR\",\"cur_load\":0,\"perf\":30},"
				  "{\"id\":1,\"status\":\"RUNNING\",\"cur_load\":40.5,\"perf\":50},"
				  "{\"id\":2,\"status\":\"idle\",\"cur_load\":0,\"perf\":\"45\"},"
				  "{\"status\":\"RUNNING\"},7,"
				  "{\"id\":4,\"status\":\"LOADING\",\"perf\":null},"
				  "{\"id\":5,\"status\":\"\\u001b[31mWEIRD\"}]",
				  &n);
	assert_int_equal(n, 5);
	assert_int_equal(v[0].id, 1);
	assert_int_equal(v[4].state, WS_OTHER);
	assert_string_equal(v[4].status, "WEIRD");
	assert_true(isnan(v[3].perf));
	struct workers_health h;
	workers_summary(v, n, &h);
	assert_int_equal(h.total, 5);
	assert_int_equal(h.count[WS_RUNNING], 1);
	assert_int_equal(h.count[WS_IDLE], 1);
	assert_int_equal(workers_ready(&h), 2);
	assert_int_equal(h.count[WS_ERROR], 1);
	assert_int_equal(h.count[WS_LOADING], 1);
	assert_int_equal(h.count[WS_OTHER], 1);
	assert_true(fabs(h.load - 40.5) < 1e-9);
	assert_true(fabs(h.capacity - 95) < 1e-9); /* the ready ones: running + idle */
	assert_int_equal(workers_flag(&h, NAN, 10), WF_NONE);
	char buf[300];
	workers_health_text(buf, sizeof buf, &h);
	assert_string_equal(buf, "2 ready 1 loading 1 error 1 WEIRD load 40/95"); /* by its name */
	free(v);

	/* every documented state counted, each by its name (docs worker-states) */
	static const char *const doc[] = {
		"IDLE", "LOADING", "MODEL_LOADING", "STOPPED", "DESTROYING", "ERROR", "REBOOTING",
		"CREATING", "CREATED", "STARTING", "STOPPING", "PENDING", "UPDATE_READY",
		"UPDATE_REBOOTING", "UPDATE_STARTING", "UPDATING",
	};
	for (size_t i = 0; i < sizeof doc / sizeof *doc; i++) {
		enum worker_state st = workers_state(doc[i]);
		assert_int_not_equal(st, WS_OTHER);
		assert_string_equal(workers_state_name(st), doc[i]);
		assert_int_equal(workers_state_ready(st), !strcmp(doc[i], "IDLE"));
	}
	assert_true(workers_state_ready(workers_state("running"))); /* the spec's, the docs' example */
	v = decode("[{\"id\":1,\"status\":\"MODEL_LOADING\"},{\"id\":2,\"status\":\"STOPPED\"},"
		   "{\"id\":3,\"status\":\"CREATING\"},{\"id\":4,\"status\":\"UPDATE_READY\"},"
		   "{\"id\":5,\"status\":\"WARMING\"},{\"id\":6,\"status\":\"WARMING\"},"
		   "{\"id\":7,\"status\":\"A\"},{\"id\":8,\"status\":\"B\"},{\"id\":9,\"status\":\"C\"},"
		   "{\"id\":10,\"status\":\"D\"},{\"id\":11}]",
		   &n);
	workers_summary(v, n, &h);
	assert_int_equal(h.count[WS_OTHER], 7);
	workers_counts_text(buf, sizeof buf, &h);
	assert_string_equal(buf, "0 ready 1 creating 1 model_loading 1 update_ready 1 stopped "
				 "2 WARMING 1 A 1 B 1 C +2 more");
	/* not flagged: no load, and not every worker in ERROR */
	assert_int_equal(workers_flag(&h, NAN, 0), WF_NONE);
	free(v);

	v = decode("{\"workers\":[{\"id\":1,\"status\":\"ERROR\"},{\"id\":2,\"status\":\"ERROR\"}]}", &n);
	workers_summary(v, n, &h);
	assert_int_equal(workers_flag(&h, 0, 10), WF_ALL_ERROR);
	workers_flag_text(buf, sizeof buf, "llm", WF_ALL_ERROR, &h, 0, 10);
	assert_string_equal(buf, "llm: every worker (2) in ERROR");
	free(v);
	/* every worker IDLE (the live service's ready state): never flagged,
	 * whatever the load (the old rule wanted a RUNNING one) */
	v = decode("[{\"id\":1,\"status\":\"IDLE\",\"cur_load\":30,\"perf\":40},"
		   "{\"id\":2,\"status\":\"IDLE\",\"cur_load\":25,\"perf\":40}]", &n);
	workers_summary(v, n, &h);
	assert_int_equal(workers_flag(&h, NAN, 10), WF_NONE);
	assert_int_equal(workers_flag(&h, 500, 10), WF_NONE);
	free(v);
	/* no ready worker: flagged only when the load is above min_load */
	v = decode("[{\"id\":1,\"status\":\"LOADING\"},{\"id\":2,\"status\":\"ERROR\"},"
		   "{\"id\":3,\"status\":\"STARTING\"}]", &n);
	workers_summary(v, n, &h);
	assert_int_equal(workers_flag(&h, 5, 10), WF_NONE);
	assert_int_equal(workers_flag(&h, 10, 10), WF_NONE);
	assert_int_equal(workers_flag(&h, 12.5, 10), WF_NO_READY);
	workers_flag_text(buf, sizeof buf, "llm", WF_NO_READY, &h, 12.5, 10);
	assert_string_equal(buf, "llm: no ready worker, load 12.5 > min_load 10.0");
	free(v);
	/* no worker at all, load above min_load */
	v = decode("[]", &n);
	workers_summary(v, n, &h);
	assert_int_equal(workers_flag(&h, 3, 0), WF_NO_READY);
	assert_int_equal(workers_flag(&h, 0, 0), WF_NONE);
	free(v);
	json_t *j = json_loads("\"Endpoint not found\"", JSON_DECODE_ANY, NULL);
	assert_false(workers_decode(j, &v, &n));
	json_decref(j);

	/* said once */
	struct workers_memo *m = workers_memo_new();
	assert_true(workers_memo_update(m, 1, WF_ALL_ERROR));
	assert_false(workers_memo_update(m, 1, WF_ALL_ERROR));
	assert_true(workers_memo_update(m, 2, WF_NO_READY));
	assert_true(workers_memo_update(m, 1, WF_NO_READY)); /* another reason */
	assert_false(workers_memo_update(m, 1, WF_NONE));
	assert_true(workers_memo_update(m, 1, WF_NO_READY)); /* cleared, then again */
	long keep[] = {1};
	workers_memo_keep(m, keep, 1);
	assert_true(workers_memo_update(m, 2, WF_NO_READY)); /* 2 was forgotten */
	assert_false(workers_memo_update(m, 1, WF_NO_READY));
	workers_memo_free(m);
}

/* Every documented worker field mapped, the message only in ERROR and
 * sanitised, every documented state named and classed, the cost summed. */
static void test_worker_fields(void **state)
{
	(void)state;
	size_t n;
	struct worker *v = decode(
		"{\"workers\":[{\"id\":102,\"status\":\"ERROR\",\"cur_load\":0,"
		"\"cur_load_rolling_avg\":1.25,\"perf\":30,\"measured_perf\":28.5,"
		"\"reqs_working\":0,\"disk_usage\":22.5,\"reliability\":0.989,"
		"\"uptime_mins\":null,\"gpu_name\":\"RTX 4090\",\"dph_total\":0.4083,"
		"\"instance_id\":102,\"status_msg\":\"OOM \\u001b]0;x\\u0007killed\"},"
		"{\"id\":101,\"status\":\"RUNNING\",\"cur_load\":42.5,\"cur_load_rolling_avg\":40,"
		"\"perf\":50,\"measured_perf\":47.5,\"reqs_working\":3,\"disk_usage\":30,"
		"\"reliability\":0.999,\"uptime_mins\":185.5,\"gpu_name\":\"A100 SXM4\","
		"\"dph_total\":1.1083,\"instance_id\":101,\"status_msg\":\"fine\"},"
		"{\"id\":103,\"status\":\"MODEL_LOADING\"}]}",
		&n);
	assert_int_equal(n, 3);
	const struct worker *run = &v[0], *bad = &v[1], *load = &v[2];
	assert_int_equal(run->id, 101);
	assert_true(fabs(run->load_avg - 40) < 1e-9);
	assert_true(fabs(run->measured_perf - 47.5) < 1e-9);
	assert_true(fabs(run->uptime_mins - 185.5) < 1e-9);
	assert_int_equal(run->instance_id, 101);
	assert_string_equal(run->gpu_name, "A100 SXM4");
	assert_true(isnan(bad->uptime_mins));
	assert_null(strchr(bad->status_msg, 0x1b));
	assert_null(strchr(bad->status_msg, 0x07));
	assert_non_null(strstr(bad->status_msg, "OOM"));
	char b[240];
	assert_string_equal(workers_cell(run, WK_STATE, b, sizeof b), "RUNNING");
	assert_string_equal(workers_cell(run, WK_LOAD, b, sizeof b), "42.5");
	assert_string_equal(workers_cell(run, WK_AVG, b, sizeof b), "40.0");
	assert_string_equal(workers_cell(run, WK_MPERF, b, sizeof b), "47.5");
	assert_string_equal(workers_cell(run, WK_REQS, b, sizeof b), "3");
	assert_string_equal(workers_cell(run, WK_DISK, b, sizeof b), "30.0");
	assert_string_equal(workers_cell(run, WK_REL, b, sizeof b), "99.9%");
	assert_string_equal(workers_cell(run, WK_UPTIME, b, sizeof b), "3h05m");
	assert_string_equal(workers_cell(run, WK_DPH, b, sizeof b), "1.108");
	assert_string_equal(workers_cell(run, WK_INSTANCE, b, sizeof b), "101");
	assert_string_equal(workers_cell(run, WK_MSG, b, sizeof b), ""); /* not in error */
	assert_non_null(strstr(workers_cell(bad, WK_MSG, b, sizeof b), "killed"));
	assert_string_equal(workers_cell(bad, WK_UPTIME, b, sizeof b), "-");
	assert_string_equal(workers_cell(load, WK_LOAD, b, sizeof b), "-");
	assert_string_equal(workers_cell(load, WK_GPU, b, sizeof b), "-");
	assert_string_equal(workers_cell(load, WK_STATE, b, sizeof b), "MODEL_LOADING");
	/* the cost: the sum of the workers that have one */
	double dph;
	assert_int_equal(workers_cost(v, n, &dph), 2);
	assert_true(fabs(dph - 1.5166) < 1e-9);
	assert_int_equal(workers_cost(v, 0, &dph), 0);
	assert_true(dph == 0);
	free(v);
	/* every documented state: its name back, and a class */
	static const char *const docs[] = { "IDLE", "RUNNING", "CREATING", "CREATED", "PENDING",
		"LOADING", "MODEL_LOADING", "STARTING", "REBOOTING", "UPDATING", "UPDATE_READY",
		"UPDATE_REBOOTING", "UPDATE_STARTING", "STOPPING", "STOPPED", "DESTROYING", "ERROR" };
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
		enum worker_state s = workers_state(docs[i]);
		assert_int_not_equal(s, WS_OTHER);
		assert_string_equal(workers_state_name(s), docs[i]);
		assert_int_not_equal(workers_state_class(s), WC_OTHER);
	}
	assert_int_equal(workers_state_class(workers_state("IDLE")), WC_READY);
	assert_int_equal(workers_state_class(workers_state("model_loading")), WC_STARTING);
	assert_int_equal(workers_state_class(workers_state("UPDATE_READY")), WC_UPDATING);
	assert_int_equal(workers_state_class(workers_state("STOPPED")), WC_STOPPED);
	assert_int_equal(workers_state_class(workers_state("ERROR")), WC_ERROR);
	assert_int_equal(workers_state_class(workers_state("WARMING")), WC_OTHER);
}

/* update_workers and the workergroup log forms: the CLI's bodies, the key
 * left for the sender to fill. */
static void test_update_and_wg_logs(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct api_call c = api_update_workers(&cfg, 5);
	assert_int_equal(c.ep, EP_UPDATE_WORKERS);
	assert_int_equal(api_ep_kind(c.ep), RK_ACTION);
	assert_non_null(strstr(c.url, "/update_workers/"));
	json_t *b = body_of(&c);
	assert_int_equal(json_integer_value(json_object_get(b, "workergroup_id")), 5);
	assert_string_equal(json_string_value(json_object_get(b, "api_key")), "");
	assert_null(json_object_get(b, "cancel_update"));
	json_decref(b);
	api_call_free(&c);
	c = api_workergroup_logs(&cfg, 5, 100, true);
	assert_non_null(strstr(c.url, "/get_autogroup_logs/"));
	b = body_of(&c);
	assert_int_equal(json_integer_value(json_object_get(b, "id")), 5);
	assert_int_equal(json_integer_value(json_object_get(b, "tail")), 100);
	json_decref(b);
	api_call_free(&c);
	c = api_workergroup_logs(&cfg, 5, 100, false);
	assert_non_null(strstr(c.url, "/get_workergroup_logs/"));
	api_call_free(&c);
	char msg[100];
	json_t *j = json_loads("{\"success\":false,\"msg\":\"no \\u001b[1mupdate\"}", 0, NULL);
	assert_false(api_update_workers_ok(j, msg, sizeof msg));
	assert_null(strchr(msg, 0x1b));
	json_decref(j);
	j = json_loads("{\"success\":true,\"msg\":\"Updating 3 workers\"}", 0, NULL);
	assert_true(api_update_workers_ok(j, msg, sizeof msg));
	assert_string_equal(msg, "Updating 3 workers");
	json_decref(j);
}

/* ---- against the simulator ---------------------------------------------- */

static struct testsim sim;
static struct auth *au;
static struct api_client cl;

static int sim_up(void **state)
{
	(void)state;
	static const char *const args[] = {"--rate-limits", "off", "--clock", "manual", "--endpoints",
					   "3", "--instances", "12", NULL};
	if (testsim_start(&sim, args) != 0)
		return -1;
	setenv("VAST_API_KEY", sim.key, 1);
	au = auth_new(&sim.cfg, NULL);
	api_client_init(&cl, &sim.cfg, au);
	return 0;
}

static int sim_down(void **state)
{
	(void)state;
	api_client_cleanup(&cl);
	auth_free(au);
	unsetenv("VAST_API_KEY");
	testsim_stop(&sim);
	return 0;
}

static int sim_reset(void **state)
{
	(void)state;
	return testsim_ctl(&sim, "reset", "{}") == 200 ? 0 : -1;
}

/* Run a call, expecting success; returns the answer (the caller's). */
static json_t *run_ok(struct api_call *c)
{
	json_t *root = NULL;
	struct api_error e;
	bool ok = api_run(&cl, c, &root, &e);
	if (!ok)
		fail_msg("%s %s: %d %s %s", c->method, c->url, e.http_status, e.slug, e.msg);
	api_call_free(c);
	return root;
}

static void run_fail(struct api_call *c, int status, const char *slug)
{
	json_t *root = NULL;
	struct api_error e;
	assert_false(api_run(&cl, c, &root, &e));
	assert_int_equal(e.http_status, status);
	if (slug)
		assert_string_equal(e.slug, slug);
	api_call_free(c);
}

/* The simulator's record of the last request to path. */
static json_t *last_body(const char *path)
{
	json_t *st = testsim_state(&sim);
	assert_non_null(st);
	json_t *r = json_object_get(json_object_get(st, "requests"), path);
	assert_non_null(r);
	json_t *b = json_incref(json_object_get(r, "last_body"));
	json_decref(st);
	return b;
}

static json_t *find_id(json_t *root, long id)
{
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(root, "results"), i, o)
		if (json_integer_value(json_object_get(o, "id")) == id)
			return o;
	return NULL;
}

static void test_sim_endpoint_lifecycle(void **state)
{
	(void)state;
	struct endpoint e = {.endpoint_name = "new-ep", .min_load = 3, .target_util = 0.8,
			     .cold_mult = 2, .cold_workers = 2, .max_workers = 6};
	struct api_call c = api_endpoint_create(&sim.cfg, &e);
	json_t *r = run_ok(&c);
	long id;
	assert_true(api_serverless_new_id(r, &id));
	json_decref(r);
	e.id = id;
	struct endpoint n = e;
	n.max_workers = 12;
	size_t k;
	c = api_endpoint_edit(&sim.cfg, &e, &n, &k);
	assert_int_equal(k, 1);
	json_decref(run_ok(&c));
	char path[64];
	snprintf(path, sizeof path, "/api/v0/endptjobs/%ld/", id);
	json_t *b = last_body(path);
	assert_int_equal(json_object_size(b), 1);
	assert_int_equal(json_integer_value(json_object_get(b, "max_workers")), 12);
	json_decref(b);
	c = api_endpoint_suspend(&sim.cfg, id, true);
	json_decref(run_ok(&c));
	c = api_endptjobs(&sim.cfg);
	r = run_ok(&c);
	json_t *o = find_id(r, id);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "endpoint_state")), "suspended");
	assert_int_equal(json_integer_value(json_object_get(o, "max_workers")), 12);
	assert_null(json_object_get(o, "sim_workers"));
	json_decref(r);
	c = api_endpoint_suspend(&sim.cfg, id, false);
	json_decref(run_ok(&c));
	c = api_endpoint_delete(&sim.cfg, id);
	json_decref(run_ok(&c));
	c = api_endpoint_delete(&sim.cfg, id);
	run_fail(&c, 404, "no_such_endpoint");
}

static void test_sim_workergroup_lifecycle(void **state)
{
	(void)state;
	struct api_call c = api_workergroups(&sim.cfg, false);
	json_t *r = run_ok(&c);
	json_t *g0 = json_array_get(json_object_get(r, "results"), 0);
	struct workergroup g = {.endpoint_name = "llm-chat",
				.template_hash = xstrdup(json_string_value(json_object_get(g0, "template_hash"))),
				.search_query = "gpu_ram>=40 num_gpus=2", .launch_args = "--port 8000",
				.min_load = 5, .target_util = 0.9, .cold_mult = 2.5, .gpu_ram = 40,
				.test_workers = 2};
	json_decref(r);
	c = api_workergroup_create(&sim.cfg, &g);
	r = run_ok(&c);
	long id;
	assert_true(api_serverless_new_id(r, &id));
	json_decref(r);
	g.id = id;
	struct workergroup n = g;
	n.min_load = 8;
	n.search_query = "gpu_ram>=80";
	size_t k;
	c = api_workergroup_edit(&sim.cfg, &g, &n, &k);
	assert_int_equal(k, 2);
	json_decref(run_ok(&c));
	char path[64];
	snprintf(path, sizeof path, "/api/v0/workergroups/%ld/", id);
	json_t *b = last_body(path);
	assert_int_equal(json_object_size(b), 2); /* only the changed fields went */
	assert_non_null(json_object_get(b, "min_load"));
	assert_non_null(json_object_get(b, "search_params"));
	json_decref(b);
	c = api_workergroups(&sim.cfg, false);
	r = run_ok(&c);
	json_t *o = find_id(r, id);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "search_query")), "gpu_ram>=80");
	assert_true(fabs(json_number_value(json_object_get(o, "min_load")) - 8) < 1e-9);
	assert_string_equal(json_string_value(json_object_get(o, "launch_args")), "--port 8000");
	assert_string_equal(json_string_value(json_object_get(o, "template_hash")), g.template_hash);
	json_decref(r);
	c = api_workergroup_delete(&sim.cfg, id);
	json_decref(run_ok(&c));
	c = api_workergroup_delete(&sim.cfg, id);
	run_fail(&c, 404, "no_such_workergroup");
	free(g.template_hash);
}

static long endpoint_id(const char *name)
{
	struct api_call c = api_endptjobs(&sim.cfg);
	json_t *r = run_ok(&c);
	size_t i;
	json_t *o;
	long id = -1;
	json_array_foreach(json_object_get(r, "results"), i, o)
		if (!strcmp(json_string_value(json_object_get(o, "endpoint_name")), name))
			id = (long)json_integer_value(json_object_get(o, "id"));
	json_decref(r);
	assert_true(id > 0);
	return id;
}

static void test_sim_workers_and_flag(void **state)
{
	(void)state;
	struct api_call c = api_endpoint_workers(&sim.cfg, endpoint_id("llm-chat"));
	json_t *r = run_ok(&c);
	struct worker *v;
	size_t n;
	assert_true(workers_decode(r, &v, &n));
	json_decref(r);
	assert_true(n >= 2);
	struct workers_health h;
	workers_summary(v, n, &h);
	assert_true(workers_ready(&h) > 0);
	free(v);
	/* the seeded endpoint whose workers are all in ERROR */
	c = api_endpoint_workers(&sim.cfg, endpoint_id("whisper-asr"));
	r = run_ok(&c);
	assert_true(workers_decode(r, &v, &n));
	json_decref(r);
	workers_summary(v, n, &h);
	assert_true(n > 0);
	assert_int_equal(workers_flag(&h, NAN, 30), WF_ALL_ERROR);
	free(v);
	/* switched to "loading" by the control API: no running worker */
	assert_int_equal(testsim_ctl(&sim, "set",
				     "{\"what\":\"endpoint\",\"endpoint\":\"sdxl-gen\",\"field\":\"workers\","
				     "\"value\":\"loading\"}"),
			 200);
	c = api_endpoint_workers(&sim.cfg, endpoint_id("sdxl-gen"));
	r = run_ok(&c);
	assert_true(workers_decode(r, &v, &n));
	json_decref(r);
	workers_summary(v, n, &h);
	assert_int_equal(workers_ready(&h), 0);
	assert_int_equal(workers_flag(&h, 25, 20), WF_NO_READY);
	free(v);
	/* an unknown endpoint: a bare-string 404 */
	c = api_endpoint_workers(&sim.cfg, 1);
	json_t *root = NULL;
	struct api_error e;
	assert_false(api_run(&cl, &c, &root, &e));
	assert_int_equal(e.http_status, 404);
	assert_non_null(strstr(e.msg, "Endpoint not found"));
	api_call_free(&c);
}

static void test_sim_logs_forms_and_tail(void **state)
{
	(void)state;
	testsim_ctl(&sim, "clock", "{\"advance\":60}");
	long id = endpoint_id("llm-chat");
	struct api_error e;
	struct logtail *t = logtail_new(0);
	char *text = api_serverless_fetch_logs(&cl, "llm-chat", id, 1000, LOGS_DEFAULT, &e);
	assert_non_null(text);
	size_t first = logtail_merge(t, text, strlen(text), NULL);
	free(text);
	assert_true(first >= 20);
	/* the log grows one line per 3 s; merging never duplicates */
	for (int round = 0; round < 5; round++) {
		testsim_ctl(&sim, "clock", "{\"advance\":9}");
		text = api_serverless_fetch_logs(&cl, "llm-chat", id, 1000, LOGS_DEFAULT, &e);
		assert_non_null(text);
		struct logtail_merge r;
		logtail_merge(t, text, strlen(text), &r);
		free(text);
		assert_int_equal(r.added, 3);
		assert_false(r.gap);
	}
	for (size_t i = 1; i < logtail_count(t); i++)
		assert_string_not_equal(logtail_line(t, i), logtail_line(t, i - 1));
	/* a hostile line arrives inert */
	assert_int_equal(testsim_ctl(&sim, "set",
				     "{\"what\":\"log\",\"endpoint\":\"llm-chat\",\"line\":"
				     "\"\\u001b]0;pwned\\u0007\\u001b[31mred\\u009b1m\\u202eevil\"}"),
			 200);
	text = api_serverless_fetch_logs(&cl, "llm-chat", id, 1000, LOGS_DEFAULT, &e);
	assert_non_null(text);
	assert_int_equal(logtail_merge(t, text, strlen(text), NULL), 1);
	free(text);
	const char *last = logtail_line(t, logtail_count(t) - 1);
	assert_null(strchr(last, '\x1b'));
	assert_null(strstr(last, "\xc2\x9b"));
	assert_null(strstr(last, "\xe2\x80\xae"));
	assert_non_null(strstr(last, "red"));

	/* a run server without the CLI's form: 404 on it, then the spec's */
	assert_int_equal(testsim_ctl(&sim, "fault",
				     "{\"path\":\"/get_endpoint_logs/\",\"kind\":\"404\"}"),
			 200);
	unsigned before = cl.requests;
	testsim_ctl(&sim, "clock", "{\"advance\":3}");
	text = api_serverless_fetch_logs(&cl, "llm-chat", id, 1000, LOGS_DEFAULT, &e);
	assert_non_null(text);
	assert_int_equal(cl.requests - before, 2);
	struct logtail_merge r;
	logtail_merge(t, text, strlen(text), &r);
	assert_int_equal(r.added, 1); /* the spec's "logs" continues info0 */
	assert_false(r.gap);
	free(text);
	/* a level stream has no second form */
	assert_int_equal(testsim_ctl(&sim, "fault",
				     "{\"path\":\"/get_endpoint_logs/\",\"kind\":\"404\"}"),
			 200);
	before = cl.requests;
	assert_null(api_serverless_fetch_logs(&cl, "llm-chat", id, 10, LOGS_DEBUG, &e));
	assert_int_equal(cl.requests - before, 1);
	assert_int_equal(e.http_status, 404);
	/* a stream the answer lacks is an error */
	text = api_serverless_fetch_logs(&cl, "llm-chat", id, 10, LOGS__COUNT, &e);
	assert_null(text);
	assert_int_equal(e.cls, AE_PROTOCOL);
	/* the level streams of the CLI's form */
	struct api_call c = api_endpoint_logs_cli(&sim.cfg, id, 200);
	json_t *root = run_ok(&c);
	unsigned m = api_log_streams(root);
	assert_int_equal(m, 0x1fu);
	char *dbg = api_log_stream_text(root, LOGS_DEBUG);
	assert_non_null(dbg);
	char *info0 = api_log_stream_text(root, LOGS_DEFAULT);
	assert_true(strlen(info0) >= strlen(dbg));
	free(dbg);
	free(info0);
	json_decref(root);
	/* bare-string failures: an unknown endpoint */
	assert_null(api_serverless_fetch_logs(&cl, "no-such", 1, 10, LOGS_DEFAULT, &e));
	assert_int_equal(e.http_status, 404);
	assert_non_null(strstr(e.msg, "not found"));
	logtail_free(t);
}

static void test_sim_instance_logs(void **state)
{
	(void)state;
	json_t *st = testsim_state(&sim);
	long iid = (long)json_integer_value(
		json_object_get(json_array_get(json_object_get(st, "instances"), 0), "id"));
	json_decref(st);
	struct api_call c = api_instance_logs_request(&sim.cfg, iid, 0);
	json_t *r = run_ok(&c);
	char *url = api_instance_logs_url(r);
	json_decref(r);
	assert_non_null(url);
	char err[128];
	struct http_opts o = {.connect_timeout_s = 5, .total_timeout_s = 10};
	/* not ready yet: 404 is "pending" */
	c = api_instance_logs_fetch(url, err, sizeof err);
	assert_non_null(c.url);
	struct api_error e;
	struct http_xfer *x = http_xfer_new(&o, c.method, c.url, NULL, NULL, &e);
	assert_non_null(x);
	http_xfer_perform(x);
	char *text;
	assert_int_equal(api_instance_logs_result(x, &text, &e), LOGRES_PENDING);
	http_xfer_free(x);
	/* api_run sends no key there: the simulator records the auth it saw */
	testsim_ctl(&sim, "clock", "{\"advance\":3}");
	json_t *root = NULL;
	bool ok = api_run(&cl, &c, &root, &e);
	(void)ok; /* the body is text, not JSON: api_run reports a protocol error */
	json_decref(root);
	st = testsim_state(&sim);
	const char *p = strstr(url, "/instance_logs/");
	assert_non_null(p);
	json_t *rec = json_object_get(json_object_get(st, "requests"), p);
	assert_non_null(rec);
	assert_string_equal(json_string_value(json_object_get(rec, "last_auth")), "none");
	json_decref(st);
	x = http_xfer_new(&o, c.method, c.url, NULL, NULL, &e);
	http_xfer_perform(x);
	assert_int_equal(api_instance_logs_result(x, &text, &e), LOGRES_READY);
	http_xfer_free(x);
	assert_true(strlen(text) > 0);
	struct logtail *t = logtail_new(0);
	assert_true(logtail_merge(t, text, strlen(text), NULL) > 0);
	logtail_free(t);
	free(text);
	api_call_free(&c);
	free(url);
}

int main(void)
{
	const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_endpoint_builders),
		cmocka_unit_test(test_workergroup_builders),
		cmocka_unit_test(test_log_streams_and_instance_logs),
		cmocka_unit_test(test_worker_health),
		cmocka_unit_test(test_worker_fields),
		cmocka_unit_test(test_update_and_wg_logs),
	};
	const struct CMUnitTest withsim[] = {
		cmocka_unit_test_setup(test_sim_endpoint_lifecycle, sim_reset),
		cmocka_unit_test_setup(test_sim_workergroup_lifecycle, sim_reset),
		cmocka_unit_test_setup(test_sim_workers_and_flag, sim_reset),
		cmocka_unit_test_setup(test_sim_logs_forms_and_tail, sim_reset),
		cmocka_unit_test_setup(test_sim_instance_logs, sim_reset),
	};
	int rc = cmocka_run_group_tests_name("api_serverless", pure, NULL, NULL);
	rc += cmocka_run_group_tests_name("api_serverless_sim", withsim, sim_up, sim_down);
	return rc;
}
