/* test_ui_offers.c: the offers view's pure parts: the canonical search line
 * `/` pre-fills (filters with blanks collapsed, options after them, defaults
 * left out) and that it parses back to the same search; the sort key of an
 * order (aliases, directions, custom orders); the `t` type cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane_offers.h"
#include "query.h"

static void line_of(const char *in, char *out, size_t n)
{
	struct query_cmd c;
	struct query_error e;
	assert_true(query_cmd_parse(in, &c, &e));
	pane_offers_line(&c, out, n);
	query_cmd_free(&c);
}

static void test_line(void **s)
{
	(void)s;
	char b[300];
	line_of("", b, sizeof b);
	assert_string_equal(b, "");
	line_of("  gpu_name=RTX_4090   num_gpus>=2 ", b, sizeof b);
	assert_string_equal(b, "gpu_name=RTX_4090 num_gpus>=2");
	line_of("num_gpus>=2 -o dph+ -t bid", b, sizeof b);
	assert_string_equal(b, "num_gpus>=2 -o dph+ -t bid");
	line_of("-b num_gpus=1 --limit 50 -n", b, sizeof b);
	assert_string_equal(b, "num_gpus=1 -t bid -n --limit 50");
	line_of("-o dph+ reliability>0.99 --storage 40", b, sizeof b);
	assert_string_equal(b, "reliability>0.99 -o dph+ --storage 40");
	/* the default order and type are left out */
	line_of("-o score- -t on-demand", b, sizeof b);
	assert_string_equal(b, "");
	line_of("-r", b, sizeof b);
	assert_string_equal(b, "-t reserved");
}

/* The canonical line is the same search as the line typed. */
static void test_line_round_trip(void **s)
{
	(void)s;
	const char *lines[] = { "gpu_name=RTX_4090 num_gpus>=2 -o dph+ -t bid",
				"-n  verified=any   reliability>0.9 --limit 20",
				"dph<1.5 -o dlperf_per_dphtotal- --storage 100 -r" };
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		struct query_cmd a, b;
		struct query_error e;
		char canon[300];
		assert_true(query_cmd_parse(lines[i], &a, &e));
		pane_offers_line(&a, canon, sizeof canon);
		assert_true(query_cmd_parse(canon, &b, &e));
		json_t *ja = query_cmd_body(&a, &e), *jb = query_cmd_body(&b, &e);
		assert_non_null(ja);
		assert_non_null(jb);
		assert_true(json_equal(ja, jb));
		json_decref(ja);
		json_decref(jb);
		query_cmd_free(&a);
		query_cmd_free(&b);
	}
}

static void test_sort_key(void **s)
{
	(void)s;
	int inv = -1;
	assert_int_equal(pane_offers_sort_key(NULL, &inv), 0);
	assert_int_equal(inv, 0);
	assert_int_equal(pane_offers_sort_key("score-", &inv), 0);
	assert_int_equal(inv, 0);
	assert_int_equal(pane_offers_sort_key("score+", &inv), 0);
	assert_int_equal(inv, 1);
	/* an alias, ascending is the natural direction of a price */
	int k = pane_offers_sort_key("dph+", &inv);
	assert_true(k > 0);
	assert_string_equal(query_sort_keys[k].field, "dph_total");
	assert_int_equal(inv, 0);
	assert_int_equal(pane_offers_sort_key("dph_total-", &inv), k);
	assert_int_equal(inv, 1);
	/* every key's own order maps back to it, both ways */
	for (size_t i = 0; i < query_nsort_keys; i++) {
		char o[64];
		for (int w = 0; w < 2; w++) {
			query_sort_order(i, w, o, sizeof o);
			assert_int_equal(pane_offers_sort_key(o, &inv), (int)i);
			assert_int_equal(inv, w);
		}
	}
	/* a custom or multi-field order is none of the keys */
	assert_int_equal(pane_offers_sort_key("cpu_ram-", &inv), -1);
	assert_int_equal(pane_offers_sort_key("dph+,reliability-", &inv), -1);
}

static void test_type_cycle(void **s)
{
	(void)s;
	assert_string_equal(pane_offers_next_type("on-demand"), "bid");
	assert_string_equal(pane_offers_next_type("bid"), "reserved");
	assert_string_equal(pane_offers_next_type("reserved"), "on-demand");
	assert_string_equal(pane_offers_next_type(""), "bid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_line_round_trip),
		cmocka_unit_test(test_sort_key),
		cmocka_unit_test(test_type_cycle),
	};
	return cmocka_run_group_tests_name("ui_offers", tests, NULL, NULL);
}
