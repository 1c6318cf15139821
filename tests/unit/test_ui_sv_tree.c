/* test_ui_sv_tree.c: the serverless view's pure parts: the tree's rows
 * (workergroups under their endpoint by id, collapsed endpoints, orphans
 * last, the last-branch mark, a row key that survives rebuilds), the row
 * texts, the load bar, the template names by hash, and the workergroup
 * detail lines with api_key <hidden>. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sv_tree.h"

static struct endpoint eps[2] = {
	{ .id = 10, .endpoint_name = "llm", .endpoint_state = "active", .min_load = 10,
	  .target_util = 0.9, .cold_mult = 2.5, .cold_workers = 1, .max_workers = 4 },
	{ .id = 20, .endpoint_name = "asr", .endpoint_state = "suspended", .min_load = 0,
	  .target_util = 0.5, .cold_mult = 1, .cold_workers = 0, .max_workers = 2 },
};

static struct workergroup wgs[4] = {
	{ .id = 7, .endpoint_id = 20, .template_hash = "hB", .gpu_ram = 24, .test_workers = 3,
	  .search_query = "gpu_ram>=24", .launch_args = "" },
	{ .id = 5, .endpoint_id = 10, .template_hash = "hA", .gpu_ram = 48, .test_workers = 1,
	  .search_query = "num_gpus=2", .launch_args = "--x" },
	{ .id = 3, .endpoint_id = 10, .template_hash = "", .template_id = 42, .gpu_ram = 16 },
	{ .id = 9, .endpoint_id = 99, .template_hash = "hC" }, /* no listed endpoint */
};

static void test_rows(void **state)
{
	(void)state;
	struct sv_collapsed c = { .n = 0 };
	struct sv_row r[16];
	size_t n = sv_tree_rows(eps, 2, wgs, 4, &c, r, 16);
	assert_int_equal(n, 6);
	assert_int_equal(r[0].kind, SVR_ENDPOINT);
	assert_int_equal(r[0].id, 10);
	assert_int_equal(r[1].kind, SVR_WORKERGROUP);
	assert_int_equal(r[1].id, 3); /* by id */
	assert_false(r[1].last);
	assert_int_equal(r[2].id, 5);
	assert_true(r[2].last);
	assert_int_equal(r[2].idx, 1);
	assert_int_equal(r[3].id, 20);
	assert_int_equal(r[4].id, 7);
	assert_true(r[4].last);
	assert_int_equal(r[5].id, 9); /* the orphan last */
	assert_int_equal(r[5].kind, SVR_WORKERGROUP);

	sv_collapsed_set(&c, 10, true);
	assert_true(sv_collapsed_has(&c, 10));
	n = sv_tree_rows(eps, 2, wgs, 4, &c, r, 16);
	assert_int_equal(n, 4);
	assert_true(r[0].collapsed);
	assert_int_equal(r[1].id, 20);
	sv_collapsed_set(&c, 10, true); /* idempotent */
	assert_int_equal(c.n, 1);
	sv_collapsed_set(&c, 10, false);
	assert_false(sv_collapsed_has(&c, 10));
	assert_int_equal(sv_tree_rows(eps, 2, wgs, 4, &c, r, 16), 6);
	/* the output is bounded */
	assert_int_equal(sv_tree_rows(eps, 2, wgs, 4, &c, r, 3), 3);
	/* keys: an endpoint and a workergroup of the same id differ */
	struct sv_row e = { .kind = SVR_ENDPOINT, .id = 5 }, g = { .kind = SVR_WORKERGROUP, .id = 5 };
	assert_true(sv_row_key(&e) != sv_row_key(&g));
}

static void test_texts(void **state)
{
	(void)state;
	char b[512];
	sv_endpoint_text(&eps[0], true, true, b, sizeof b);
	assert_string_equal(b, "- llm (10)  active  min_load 10  util 0.9  cold_mult 2.5  workers 1/4");
	sv_endpoint_text(&eps[1], false, true, b, sizeof b);
	assert_non_null(strstr(b, "+ asr (20)  suspended"));
	sv_workergroup_text(&wgs[1], "PyTorch", true, true, b, sizeof b);
	assert_string_equal(b, "  `- wg 5  template PyTorch  gpu_ram 48  test_workers 1  query num_gpus=2  args --x");
	sv_workergroup_text(&wgs[1], NULL, false, true, b, sizeof b);
	assert_non_null(strstr(b, "|- wg 5  template hA "));
	sv_workergroup_text(&wgs[2], "", false, true, b, sizeof b);
	assert_non_null(strstr(b, "template #42 "));
	assert_non_null(strstr(b, "query -  args -"));
}

static void test_bar(void **state)
{
	(void)state;
	char b[256];
	struct workers_health h = { .total = 3, .load = 30, .capacity = 60 };
	h.count[WS_RUNNING] = 2;
	h.count[WS_ERROR] = 1;
	sv_health_text(&h, true, b, sizeof b);
	assert_string_equal(b, "[#####.....] 2 ready 1 error load 30/60");
	h.load = 200; /* over capacity: full, never past the bar */
	sv_health_text(&h, true, b, sizeof b);
	assert_non_null(strstr(b, "[##########] "));
	h.load = 0;
	h.capacity = 0;
	sv_health_text(&h, true, b, sizeof b);
	assert_non_null(strstr(b, "[..........] "));
	h.load = 5; /* load with no capacity at all */
	sv_health_text(&h, true, b, sizeof b);
	assert_non_null(strstr(b, "[##########] "));
}

static void test_names(void **state)
{
	(void)state;
	struct sv_names t = { .n = 0 };
	assert_null(sv_names_get(&t, "hA"));
	sv_names_put(&t, "hA", "");
	assert_string_equal(sv_names_get(&t, "hA"), ""); /* asked, not known */
	sv_names_put(&t, "hA", "PyTorch");
	assert_string_equal(sv_names_get(&t, "hA"), "PyTorch");
	assert_int_equal(t.n, 1);
	assert_null(sv_names_get(&t, ""));
	/* an instance of the snapshot tells a name the search did not */
	struct instance in[1];
	memset(in, 0, sizeof in);
	in[0].template_hash_id = "hB";
	in[0].template_name = "TF";
	const struct instance *pin[1] = { &in[0] };
	assert_string_equal(sv_names_of(&t, "hB", pin, 1), "TF");
	assert_string_equal(sv_names_of(&t, "hA", pin, 1), "PyTorch");
	sv_names_put(&t, "hB", "");
	assert_string_equal(sv_names_of(&t, "hB", pin, 1), "TF");
	assert_null(sv_names_of(&t, "hZ", pin, 1));
}

static void test_detail(void **state)
{
	(void)state;
	struct sv_line l[32];
	size_t n = sv_workergroup_lines(&wgs[1], "PyTorch", l, 32);
	bool key = false, tmpl = false, q = false;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(l[i].key, "api_key")) {
			key = true;
			assert_string_equal(l[i].value, "<hidden>");
		}
		if (!strcmp(l[i].key, "template")) {
			tmpl = true;
			assert_string_equal(l[i].value, "PyTorch");
		}
		if (!strcmp(l[i].key, "search_query")) {
			q = true;
			assert_string_equal(l[i].value, "num_gpus=2");
		}
	}
	assert_true(key && tmpl && q);
	assert_int_equal(sv_workergroup_lines(&wgs[1], NULL, l, 3), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),  cmocka_unit_test(test_texts),
		cmocka_unit_test(test_bar),   cmocka_unit_test(test_names),
		cmocka_unit_test(test_detail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
