/* test_lifecycle.c: instance lifecycle under the manual clock: boot
 * null -> loading -> running, stop and start, resources_unavailable,
 * failure states that never reach running, boot failures, target_state
 * stopped, reboot, request_logs, outbidding, hosts dropping out, --speed. */
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
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0", NULL };
	return ct_start(args);
}

static const char *status_of(json_t *in)
{
	const char *a = ct_str(in, "actual_status");
	return a ? a : "null";
}

static void expect_status(long id, const char *actual, const char *intended)
{
	json_t *in = ct_inst(id);
	if (strcmp(status_of(in), actual) || (intended && strcmp(ct_str(in, "intended_status"), intended)))
		fail_msg("instance %ld: expected %s/%s, got %s/%s", id, actual, intended ? intended : "*", status_of(in),
			 ct_str(in, "intended_status"));
	json_decref(in);
}

static void test_new_instance_boots_null_loading_running(void **state)
{
	(void)state;
	long id = ct_create("{\"runtype\":\"ssh_direct\",\"env\":{\"-p 8000:8000\":\"1\",\"MODE\":\"serve\"}}", NULL, 0);
	json_t *in = ct_inst(id);
	assert_true(json_is_null(json_object_get(in, "actual_status")));
	assert_string_equal(ct_str(in, "intended_status"), "running");
	assert_null(json_object_get(in, "ports"));
	assert_non_null(ct_str(in, "ssh_host"));
	assert_int_equal(ct_num(in, "disk_usage"), -1);
	json_decref(in);
	ct_advance(9);
	expect_status(id, "loading", "running");
	ct_advance(31);
	expect_status(id, "running", "running");
	in = ct_inst(id);
	json_t *ports = json_object_get(in, "ports");
	assert_non_null(json_object_get(ports, "22/tcp"));
	assert_non_null(json_object_get(ports, "8000/tcp"));
	assert_true(json_is_number(json_object_get(in, "gpu_util")));
	json_t *env = json_object_get(in, "extra_env");
	assert_int_equal(json_array_size(env), 1);
	assert_string_equal(json_string_value(json_array_get(json_array_get(env, 0), 0)), "MODE");
	json_decref(in);
}

static void test_stop_then_start_goes_through_loading(void **state)
{
	(void)state;
	long id = ct_find("running", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	expect_status(id, "running", "stopped");
	ct_advance(5);
	expect_status(id, "exited", "stopped");
	json_t *in = ct_inst(id);
	assert_null(json_object_get(in, "ports"));
	assert_string_equal(ct_str(in, "cur_state"), "stopped");
	json_decref(in);
	json_t *j = ct_expect("PUT", path, "{\"state\":\"running\"}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	expect_status(id, "loading", "running");
	ct_advance(13);
	expect_status(id, "running", "running");
}

static void test_start_without_gpu_answers_resources_unavailable(void **state)
{
	(void)state;
	long id = ct_find("exited", "stopped");
	char body[128], path[96];
	snprintf(body, sizeof body, "{\"id\":%ld,\"start_unavailable\":true}", id);
	ct_ctl("instance", body);
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_t *j = ct_expect("PUT", path, "{\"state\":\"running\"}", 200);
	assert_false(json_is_true(json_object_get(j, "success")));
	assert_string_equal(ct_str(j, "error"), "resources_unavailable");
	assert_string_equal(ct_str(j, "msg"), "Required resources are currently unavailable, state change queued.");
	json_decref(j);
	ct_advance(60);
	expect_status(id, "exited", "stopped");
}

static void test_failed_states_never_reach_running_but_stop_and_destroy_work(void **state)
{
	(void)state;
	long crashed = ct_find("exited", "running");
	long lost = ct_find("offline", NULL);
	long created = ct_find("created", NULL);
	long ids[] = { crashed, lost, created };
	char path[96];
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "/api/v0/instances/%ld/", ids[i]);
		json_decref(ct_expect("PUT", path, "{\"state\":\"running\"}", 200));
	}
	ct_advance(3600);
	expect_status(crashed, "exited", NULL);
	expect_status(lost, "offline", NULL);
	expect_status(created, "created", NULL);
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", crashed);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	expect_status(crashed, "exited", "stopped");
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", lost);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	json_t *st = ct_state();
	assert_null(ct_state_inst(st, lost));
	json_decref(st);
}

static void test_boot_failure_plans_end_in_exited_or_created(void **state)
{
	(void)state;
	long a = ct_create(NULL, NULL, 0);
	long b = ct_create(NULL, NULL, 0);
	char body[128];
	snprintf(body, sizeof body, "{\"id\":%ld,\"boot_plan\":\"crash\"}", a);
	ct_ctl("instance", body);
	snprintf(body, sizeof body, "{\"id\":%ld,\"boot_plan\":\"docker_error\"}", b);
	ct_ctl("instance", body);
	ct_advance(60);
	expect_status(a, "exited", "running");
	expect_status(b, "created", "running");
	json_t *in = ct_inst(b);
	assert_non_null(strstr(ct_str(in, "status_msg"), "Error"));
	json_decref(in);
}

static void test_fail_rate_one_makes_every_boot_fail(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "1", NULL };
	struct simproc *s = simproc_start(args);
	struct http_result r = http_call(s, "POST", "/api/v0/bundles/", NULL,
					 "{\"rentable\":{\"eq\":true},\"disk_space\":{\"gte\":100},\"limit\":3}");
	assert_int_equal(r.status, 200);
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(r.json, "offers"), i, o) {
		char path[64];
		snprintf(path, sizeof path, "/api/v0/asks/%lld/", (long long)json_integer_value(json_object_get(o, "id")));
		struct http_result c = http_call(s, "PUT", path, s->full_key, "{\"image\":\"x/y\"}");
		assert_int_equal(c.status, 200);
		http_result_free(&c);
	}
	http_result_free(&r);
	struct http_result a = http_call(s, "POST", "/__sim/clock", NULL, "{\"advance\":100}");
	http_result_free(&a);
	r = http_call(s, "GET", "/api/v1/instances/?select_filters=%7B%22actual_status%22%3A%7B%22in%22%3A%5B%22exited%22%2C%22created%22%5D%7D%7D",
		      s->full_key, NULL);
	/* the seeded ones in those states (crashed, created, stopped) plus the three new */
	assert_int_equal(ct_num(r.json, "total_instances"), 3 + 3);
	http_result_free(&r);
	simproc_stop(s);
}

static void test_target_state_stopped_ends_exited_and_stopped(void **state)
{
	(void)state;
	long id = ct_create("{\"target_state\":\"stopped\"}", NULL, 0);
	expect_status(id, "null", "stopped");
	ct_advance(60);
	expect_status(id, "exited", "stopped");
}

static void test_reboot_running_and_refuse_stopped(void **state)
{
	(void)state;
	long id = ct_find("running", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/reboot/%ld/", id);
	json_decref(ct_expect("PUT", path, "{}", 200));
	expect_status(id, "rebooting", NULL);
	ct_advance(11);
	expect_status(id, "running", NULL);
	snprintf(path, sizeof path, "/api/v0/instances/reboot/%ld/", ct_find("exited", "stopped"));
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, NULL, NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/reboot/1/", "{}", 404, "no_such_instance", NULL);
}

static void test_recycle_goes_back_through_provisioning(void **state)
{
	(void)state;
	long id = ct_find("exited", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/recycle/%ld/", id);
	json_decref(ct_expect("PUT", path, "{}", 200));
	expect_status(id, "null", "running");
	ct_advance(60);
	expect_status(id, "running", "running");
}

static void test_request_logs_url_404_until_ready(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/request_logs/%ld/", id);
	json_t *j = ct_expect("PUT", path, "{\"tail\":\"50\"}", 200);
	const char *url = ct_str(j, "result_url");
	assert_non_null(url);
	size_t base = strlen(ct_sim->url);
	assert_memory_equal(url, ct_sim->url, base);
	char *rel = strdup(url + base);
	json_decref(j);
	struct http_result r = http_call(ct_sim, "GET", rel, NULL, NULL);
	assert_int_equal(r.status, 404);
	http_result_free(&r);
	ct_advance(3);
	r = http_call(ct_sim, "GET", rel, NULL, NULL);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.content_type, "text/plain");
	int lines = 0;
	for (const char *p = r.body; *p; p++)
		lines += *p == '\n';
	assert_true(lines > 0 && lines <= 50);
	http_result_free(&r);
	free(rel);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/request_logs/1/", "{}", 404, "no_such_instance", NULL);
}

static void test_interruptible_outbid_then_rebid_restarts(void **state)
{
	(void)state;
	long offer = ct_offer();
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
	json_t *j = ct_expect("PUT", path, "{\"image\":\"pytorch/pytorch\",\"price\":0.2}", 200);
	long id = (long)json_integer_value(json_object_get(j, "new_contract"));
	json_decref(j);
	ct_advance(40);
	expect_status(id, "running", "running");
	json_t *in = ct_inst(id);
	assert_true(json_is_true(json_object_get(in, "is_bid")));
	assert_float_equal(ct_num(in, "dph_base"), 0.2, 1e-9);
	json_decref(in);
	char body[160];
	snprintf(body, sizeof body, "{\"id\":%ld,\"compete_in\":60,\"compete_price\":0.35}", id);
	ct_ctl("instance", body);
	ct_advance(30);
	expect_status(id, "running", "running");
	ct_advance(31);
	expect_status(id, "exited", "stopped");
	in = ct_inst(id);
	assert_non_null(strstr(ct_str(in, "status_msg"), "Outbid"));
	assert_true(ct_num(in, "disk_space") > 0);
	json_decref(in);
	/* a bid below the competitor does not bring it back; one above does */
	snprintf(path, sizeof path, "/api/v0/instances/bid_price/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"client_id\":\"me\",\"price\":0.3}", 200));
	ct_advance(30);
	expect_status(id, "exited", "stopped");
	json_decref(ct_expect("PUT", path, "{\"client_id\":\"me\",\"price\":0.4}", 200));
	ct_advance(13);
	expect_status(id, "running", "running");
}

static void test_host_drop_makes_a_running_instance_offline_for_good(void **state)
{
	(void)state;
	long id = ct_find("running", "running");
	char body[128], path[96];
	snprintf(body, sizeof body, "{\"id\":%ld,\"drop_in\":120,\"drop_offline\":true}", id);
	ct_ctl("instance", body);
	ct_advance(119);
	expect_status(id, "running", "running");
	ct_advance(2);
	expect_status(id, "offline", "running");
	json_t *in = ct_inst(id);
	assert_null(json_object_get(in, "ports"));
	json_decref(in);
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"state\":\"running\"}", 200));
	ct_advance(600);
	expect_status(id, "offline", "running");
	/* an unknown host the same way */
	long other = ct_find("running", "running");
	snprintf(body, sizeof body, "{\"id\":%ld,\"drop_in\":10,\"drop_offline\":false}", other);
	ct_ctl("instance", body);
	ct_advance(11);
	expect_status(other, "unknown", NULL);
}

static void test_speed_scales_the_boot(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0",
					    "--speed", "10", NULL };
	struct simproc *s = simproc_start(args);
	struct http_result r = http_call(s, "POST", "/api/v0/bundles/", NULL,
					 "{\"rentable\":{\"eq\":true},\"disk_space\":{\"gte\":100},\"limit\":1}");
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%lld/",
		 (long long)json_integer_value(json_object_get(json_array_get(json_object_get(r.json, "offers"), 0), "id")));
	http_result_free(&r);
	r = http_call(s, "PUT", path, s->full_key, "{\"image\":\"x/y\"}");
	long id = (long)json_integer_value(json_object_get(r.json, "new_contract"));
	http_result_free(&r);
	r = http_call(s, "POST", "/__sim/clock", NULL, "{\"advance\":4}");
	http_result_free(&r);
	char ipath[64];
	snprintf(ipath, sizeof ipath, "/api/v0/instances/%ld/", id);
	r = http_call(s, "GET", ipath, s->full_key, NULL);
	assert_string_equal(ct_str(json_object_get(r.json, "instances"), "actual_status"), "running");
	http_result_free(&r);
	simproc_stop(s);
}

/* uptime_mins is null while not running, unless keep_uptime: then a
 * stopped record keeps the value of its last run, as the live service may. */
static void test_stopped_uptime_null_or_kept(void **state)
{
	(void)state;
	long id = ct_find("running", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_t *in = ct_inst(id);
	double up = ct_num(in, "uptime_mins");
	assert_true(up > 0);
	json_decref(in);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	ct_advance(5);
	expect_status(id, "exited", "stopped");
	in = ct_inst(id);
	assert_true(json_is_null(json_object_get(in, "uptime_mins")));
	json_decref(in);
	/* kept: the stopped record carries what it was last given */
	ct_ctl("set", "{\"what\":\"sim\",\"field\":\"keep_uptime\",\"value\":true}");
	char body[160];
	snprintf(body, sizeof body, "{\"what\":\"instance\",\"id\":%ld,\"field\":\"uptime_mins\",\"value\":%.2f}",
		 id, up);
	ct_ctl("set", body);
	ct_advance(60);
	in = ct_inst(id);
	assert_string_equal(ct_str(in, "actual_status"), "exited");
	assert_float_equal(ct_num(in, "uptime_mins"), up, 0.006);
	json_decref(in);
	/* a run and a stop: the value of that run stays after it */
	json_decref(ct_expect("PUT", path, "{\"state\":\"running\"}", 200));
	ct_advance(13);
	expect_status(id, "running", "running");
	ct_advance(600);
	in = ct_inst(id);
	double run = ct_num(in, "uptime_mins");
	assert_true(run >= 10);
	json_decref(in);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	ct_advance(5);
	in = ct_inst(id);
	assert_string_equal(ct_str(in, "actual_status"), "exited");
	assert_true(ct_num(in, "uptime_mins") >= run);
	json_decref(in);
	/* reset: null again once stopped */
	ct_ctl("reset", "{}");
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	ct_advance(5);
	expect_status(id, "exited", "stopped");
	in = ct_inst(id);
	assert_true(json_is_null(json_object_get(in, "uptime_mins")));
	json_decref(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_new_instance_boots_null_loading_running, ct_reset),
		cmocka_unit_test_setup(test_stop_then_start_goes_through_loading, ct_reset),
		cmocka_unit_test_setup(test_start_without_gpu_answers_resources_unavailable, ct_reset),
		cmocka_unit_test_setup(test_failed_states_never_reach_running_but_stop_and_destroy_work, ct_reset),
		cmocka_unit_test_setup(test_boot_failure_plans_end_in_exited_or_created, ct_reset),
		cmocka_unit_test_setup(test_fail_rate_one_makes_every_boot_fail, ct_reset),
		cmocka_unit_test_setup(test_target_state_stopped_ends_exited_and_stopped, ct_reset),
		cmocka_unit_test_setup(test_reboot_running_and_refuse_stopped, ct_reset),
		cmocka_unit_test_setup(test_recycle_goes_back_through_provisioning, ct_reset),
		cmocka_unit_test_setup(test_request_logs_url_404_until_ready, ct_reset),
		cmocka_unit_test_setup(test_interruptible_outbid_then_rebid_restarts, ct_reset),
		cmocka_unit_test_setup(test_host_drop_makes_a_running_instance_offline_for_good, ct_reset),
		cmocka_unit_test_setup(test_speed_scales_the_boot, ct_reset),
		cmocka_unit_test_setup(test_stopped_uptime_null_or_kept, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_lifecycle", tests, setup, ct_stop);
}
