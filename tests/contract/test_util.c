/* test_util.c: instances' utilisation over the simulated clock (issue 25):
 * the live record's figures while running and what a stopped or booting
 * instance shows; the seeded demo's idler (GPU under 5 % for hours, then
 * busy again), hot GPU and filling disk; the control API pinning any
 * figure; a stopped instance's disk not growing. */
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

/* The id of seeded instance number i (in id order, as seeded). */
static long seeded(size_t i)
{
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	long id = (long)ct_num(json_array_get(json_object_get(j, "instances"), i), "id");
	json_decref(j);
	return id;
}

/* The instance as the v1 list gives it (owned). */
static json_t *listed(long id)
{
	char path[200];
	snprintf(path, sizeof path, "/api/v1/instances/?select_filters=%%7B%%22id%%22%%3A%%7B%%22eq%%22%%3A%ld%%7D%%7D", id);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *o = json_incref(json_array_get(json_object_get(j, "instances"), 0));
	json_decref(j);
	assert_non_null(o);
	return o;
}

static void test_fields_by_state(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	size_t i, running = 0;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		const char *a = ct_str(o, "actual_status");
		if (a && !strcmp(a, "running")) {
			running++;
			assert_true(json_is_integer(json_object_get(o, "gpu_util")));
			assert_true(json_is_integer(json_object_get(o, "gpu_temp")));
			assert_true(ct_num(o, "cpu_util") >= 0);
			assert_true(ct_num(o, "mem_usage") > 0 && ct_num(o, "mem_usage") <= ct_num(o, "mem_limit"));
			assert_true(ct_num(o, "vmem_usage") >= 0);
			assert_true(ct_num(o, "disk_usage") > 0 && ct_num(o, "disk_usage") <= ct_num(o, "disk_space"));
			assert_float_equal(ct_num(o, "disk_util"), ct_num(o, "disk_usage") / ct_num(o, "disk_space"), 0.001);
		} else {
			assert_true(json_is_null(json_object_get(o, "gpu_util")));
			assert_true(json_is_null(json_object_get(o, "gpu_temp")));
			assert_true(json_is_null(json_object_get(o, "mem_usage")));
			assert_float_equal(ct_num(o, "cpu_util"), 0, 0);
			if (!a) /* provisioning: nothing written yet */
				assert_int_equal(ct_num(o, "disk_usage"), -1);
		}
	}
	assert_true(running >= 5);
	json_decref(j);
}

static void test_seeded_idler_hot_and_filler(void **state)
{
	(void)state;
	long busy = seeded(0), idler = seeded(1), hot = seeded(3), filler = seeded(4);
	json_t *f0 = listed(filler);
	double disk0 = ct_num(f0, "disk_usage"), space = ct_num(f0, "disk_space");
	assert_true(disk0 < 0.9 * space);
	json_decref(f0);
	/* under 5 % for two and a half hours, sampled every ten minutes */
	for (int k = 0; k <= 14; k++) {
		json_t *o = listed(idler), *b = listed(busy), *h = listed(hot);
		assert_string_equal(ct_str(o, "actual_status"), "running");
		if (ct_num(o, "gpu_util") >= 5)
			fail_msg("the idler is at %.0f %% %d minutes in", ct_num(o, "gpu_util"), 10 * k);
		if (ct_num(b, "gpu_util") < 5)
			fail_msg("the busy instance is at %.0f %%", ct_num(b, "gpu_util"));
		assert_true(ct_num(h, "gpu_temp") >= 84);
		assert_true(ct_num(o, "gpu_temp") < 60);
		json_decref(o);
		json_decref(b);
		json_decref(h);
		ct_advance(600);
	}
	/* then busy again */
	ct_advance(3600);
	json_t *o = listed(idler);
	assert_true(ct_num(o, "gpu_util") >= 5);
	json_decref(o);
	/* three and a half hours on, the filler's disk is over 90 % */
	o = listed(filler);
	assert_true(ct_num(o, "disk_usage") > 0.9 * space);
	assert_true(ct_num(o, "disk_usage") <= space);
	json_decref(o);
}

static void test_pin_by_the_control_api(void **state)
{
	(void)state;
	long id = seeded(0);
	char b[200];
	snprintf(b, sizeof b, "{\"id\":%ld,\"gpu_util\":2,\"gpu_temp\":91,\"cpu_util\":1.5,\"disk_usage\":30,\"disk_rate\":0}",
		 id);
	ct_ctl("instance", b);
	for (int k = 0; k < 3; k++) {
		json_t *o = listed(id);
		assert_int_equal(ct_num(o, "gpu_util"), 2);
		assert_int_equal(ct_num(o, "gpu_temp"), 91);
		assert_float_equal(ct_num(o, "cpu_util"), 1.5, 1e-9);
		assert_float_equal(ct_num(o, "disk_usage"), 30, 1e-9);
		json_decref(o);
		ct_advance(1800);
	}
	json_t *st = ct_inst(id);
	json_t *u = json_object_get(json_object_get(st, "sim"), "util");
	assert_float_equal(ct_num(json_object_get(u, "pins"), "gpu_util"), 2, 0);
	json_decref(st);
	/* null unpins */
	snprintf(b, sizeof b, "{\"id\":%ld,\"gpu_util\":null}", id);
	ct_ctl("instance", b);
	json_t *o = listed(id);
	assert_true(ct_num(o, "gpu_util") >= 5);
	json_decref(o);
	/* a pinned figure of a stopped instance is not shown */
	snprintf(b, sizeof b, "{\"id\":%ld,\"gpu_util\":0}", id);
	ct_ctl("instance", b);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	ct_advance(30);
	o = listed(id);
	assert_string_equal(ct_str(o, "actual_status"), "exited");
	assert_true(json_is_null(json_object_get(o, "gpu_util")));
	/* and its disk does not grow */
	double d = ct_num(o, "disk_usage");
	json_decref(o);
	snprintf(b, sizeof b, "{\"id\":%ld,\"disk_rate\":50}", id);
	ct_ctl("instance", b);
	ct_advance(3600);
	o = listed(id);
	assert_float_equal(ct_num(o, "disk_usage"), d, 1e-9);
	json_decref(o);
	/* refusals */
	snprintf(b, sizeof b, "{\"id\":%ld,\"gpu_util\":\"hot\"}", id);
	struct http_result r = sim_ctl(ct_sim, "instance", b);
	assert_int_equal(r.status, 400);
	http_result_free(&r);
	snprintf(b, sizeof b, "{\"id\":%ld,\"util_profile\":\"sleepy\"}", id);
	r = sim_ctl(ct_sim, "instance", b);
	assert_int_equal(r.status, 400);
	http_result_free(&r);
	r = sim_ctl(ct_sim, "instance", "{\"id\":1,\"gpu_util\":3}");
	assert_int_equal(r.status, 404);
	http_result_free(&r);
}

static void test_profile_idler_at_will(void **state)
{
	(void)state;
	long id = seeded(0);
	char b[96];
	snprintf(b, sizeof b, "{\"id\":%ld,\"util_profile\":\"idler\"}", id);
	ct_ctl("instance", b);
	for (int k = 0; k < 5; k++) {
		json_t *o = listed(id);
		assert_true(ct_num(o, "gpu_util") < 5);
		json_decref(o);
		ct_advance(1800);
	}
}

static void test_figures_move_with_the_clock(void **state)
{
	(void)state;
	long id = seeded(0);
	json_t *a = listed(id);
	ct_advance(20);
	json_t *b = listed(id);
	assert_true(ct_num(a, "gpu_util") != ct_num(b, "gpu_util") || ct_num(a, "cpu_util") != ct_num(b, "cpu_util"));
	assert_true(ct_num(b, "disk_usage") >= ct_num(a, "disk_usage"));
	json_decref(a);
	json_decref(b);
	/* the single-instance GET shows the same figures as the list */
	a = listed(id);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/?owner=me", id);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *s = json_object_get(j, "instances");
	assert_int_equal(ct_num(s, "gpu_util"), ct_num(a, "gpu_util"));
	assert_float_equal(ct_num(s, "disk_usage"), ct_num(a, "disk_usage"), 1e-9);
	json_decref(j);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fields_by_state, ct_reset),
		cmocka_unit_test_setup(test_seeded_idler_hot_and_filler, ct_reset),
		cmocka_unit_test_setup(test_pin_by_the_control_api, ct_reset),
		cmocka_unit_test_setup(test_profile_idler_at_will, ct_reset),
		cmocka_unit_test_setup(test_figures_move_with_the_clock, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_util", tests, setup, ct_stop);
}
