/* test_query.c: the offer query language: every operator spelling, lists,
 * quotes, underscores, literals, wildcards (default filters too), GB and day
 * multipliers, aliases, merging, the search body, and errors that point at
 * the bad token. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "query.h"

/* Parse text (no defaults) and compare with the expected JSON text. */
static void expect(const char *text, const char *want_json)
{
	struct query_error err;
	json_t *got = query_parse(text, true, &err);
	if (!got)
		fail_msg("'%s' failed: %s", text, err.msg);
	json_t *want = json_loads(want_json, 0, NULL);
	assert_non_null(want);
	if (!json_equal(got, want)) {
		char *g = json_dumps(got, JSON_SORT_KEYS | JSON_COMPACT);
		fail_msg("'%s' gave %s, want %s", text, g, want_json);
	}
	json_decref(got);
	json_decref(want);
}

/* Parse text, expect an error at pos with len, and a message containing needle. */
static void expect_error(const char *text, int pos, int len, const char *needle)
{
	struct query_error err;
	json_t *got = query_parse(text, true, &err);
	if (got) {
		char *g = json_dumps(got, JSON_COMPACT);
		fail_msg("'%s' parsed to %s, want an error", text, g);
	}
	if (err.pos != pos || err.len != len || !strstr(err.msg, needle))
		fail_msg("'%s': got pos %d len %d '%s', want pos %d len %d containing '%s'", text,
			 err.pos, err.len, err.msg, pos, len, needle);
}

static void test_symbol_ops(void **state)
{
	(void)state;
	expect("num_gpus=2", "{\"num_gpus\":{\"eq\":\"2\"}}");
	expect("num_gpus==2", "{\"num_gpus\":{\"eq\":\"2\"}}");
	expect("num_gpus!=2", "{\"num_gpus\":{\"neq\":\"2\"}}");
	expect("num_gpus<2", "{\"num_gpus\":{\"lt\":\"2\"}}");
	expect("num_gpus<=2", "{\"num_gpus\":{\"lte\":\"2\"}}");
	expect("num_gpus>2", "{\"num_gpus\":{\"gt\":\"2\"}}");
	expect("num_gpus>=2", "{\"num_gpus\":{\"gte\":\"2\"}}");
	expect("num_gpus >= 2", "{\"num_gpus\":{\"gte\":\"2\"}}");
	expect("  reliability>0.98   ", "{\"reliability\":{\"gt\":\"0.98\"}}");
}

static void test_word_ops(void **state)
{
	(void)state;
	expect("num_gpus eq 2", "{\"num_gpus\":{\"eq\":\"2\"}}");
	expect("num_gpus neq 2", "{\"num_gpus\":{\"neq\":\"2\"}}");
	expect("num_gpus gt 2", "{\"num_gpus\":{\"gt\":\"2\"}}");
	expect("num_gpus gte 2", "{\"num_gpus\":{\"gte\":\"2\"}}");
	expect("num_gpus lt 2", "{\"num_gpus\":{\"lt\":\"2\"}}");
	expect("num_gpus lte 2", "{\"num_gpus\":{\"lte\":\"2\"}}");
	expect("gpu_name in [RTX_4090,RTX_3090]", "{\"gpu_name\":{\"in\":[\"RTX 4090\",\"RTX 3090\"]}}");
	expect("gpu_name notin [A100, \"H100_SXM\"]", "{\"gpu_name\":{\"notin\":[\"A100\",\"H100 SXM\"]}}");
	expect("gpu_name nin [A100]", "{\"gpu_name\":{\"notin\":[\"A100\"]}}");
	expect("gpu_name not in [A100]", "{\"gpu_name\":{\"notin\":[\"A100\"]}}");
	expect("num_gpus not eq 1", "{\"num_gpus\":{\"neq\":\"1\"}}");
	expect("num_gpus in 1,2,4", "{\"num_gpus\":{\"in\":[\"1\",\"2\",\"4\"]}}");
	expect("geolocation in \"US,CA\"", "{\"geolocation\":{\"in\":[\"US\",\"CA\"]}}");
	/* a field named like an operator word is still a field */
	expect("in=3", "{\"in\":{\"eq\":\"3\"}}");
}

static void test_values(void **state)
{
	(void)state;
	expect("gpu_name=RTX_4090", "{\"gpu_name\":{\"eq\":\"RTX 4090\"}}");
	expect("gpu_name=\"RTX 4090\"", "{\"gpu_name\":{\"eq\":\"RTX 4090\"}}");
	expect("gpu_name=\"RTX_A6000\"", "{\"gpu_name\":{\"eq\":\"RTX A6000\"}}");
	expect("verified=true rentable=True", "{\"verified\":{\"eq\":true},\"rentable\":{\"eq\":true}}");
	expect("external=false rented=False", "{\"external\":{\"eq\":false},\"rented\":{\"eq\":false}}");
	expect("static_ip=null gpu_arch=None", "{\"static_ip\":{\"eq\":null},\"gpu_arch\":{\"eq\":null}}");
	expect("label=\"true\"", "{\"label\":{\"eq\":\"true\"}}"); /* quoted: a string */
	expect("compute_cap>=890", "{\"compute_cap\":{\"gte\":\"890\"}}");
	expect("a=b=c", "{\"a\":{\"eq\":\"b=c\"}}");
	expect("", "{}");
	expect("   ", "{}");
}

static void test_multipliers_aliases(void **state)
{
	(void)state;
	expect("gpu_ram>=23", "{\"gpu_ram\":{\"gte\":23000.0}}");
	expect("cpu_ram>64.5", "{\"cpu_ram\":{\"gt\":64500.0}}");
	expect("gpu_total_ram>=80", "{\"gpu_total_ram\":{\"gte\":80000.0}}");
	expect("duration>=2.5", "{\"duration\":{\"gte\":216000.0}}");
	expect("gpu_ram in [24,48]", "{\"gpu_ram\":{\"in\":[24000.0,48000.0]}}");
	expect("dph<1.5", "{\"dph_total\":{\"lt\":\"1.5\"}}");
	expect("dlperf_usd>100", "{\"dlperf_per_dphtotal\":{\"gt\":\"100\"}}");
	expect("flops_usd>10", "{\"flops_per_dphtotal\":{\"gt\":\"10\"}}");
	expect("cuda_vers>=12.1", "{\"cuda_max_good\":{\"gte\":\"12.1\"}}");
	assert_string_equal(query_alias("dph"), "dph_total");
	assert_string_equal(query_alias("num_gpus"), "num_gpus");
	/* several conditions on one field merge; later ones win per operator */
	expect("num_gpus>=2 num_gpus<=8 num_gpus>=4", "{\"num_gpus\":{\"gte\":\"4\",\"lte\":\"8\"}}");
	expect("dph<2 dph_total>0.1", "{\"dph_total\":{\"lt\":\"2\",\"gt\":\"0.1\"}}");
}

static void test_defaults_and_any(void **state)
{
	(void)state;
	struct query_error err;
	json_t *q = query_parse("num_gpus=1", false, &err);
	assert_non_null(q);
	json_t *want = json_loads("{\"verified\":{\"eq\":true},\"external\":{\"eq\":false},"
				  "\"rentable\":{\"eq\":true},\"rented\":{\"eq\":false},"
				  "\"num_gpus\":{\"eq\":\"1\"}}", 0, NULL);
	assert_true(json_equal(q, want));
	json_decref(q);
	json_decref(want);

	q = query_parse("verified=any external=? rentable=* num_gpus=any", false, &err);
	want = json_loads("{\"rented\":{\"eq\":false}}", 0, NULL);
	assert_true(json_equal(q, want));
	json_decref(q);
	json_decref(want);

	q = query_parse("verified=false", false, &err);
	assert_true(json_is_false(json_object_get(json_object_get(q, "verified"), "eq")));
	json_decref(q);

	q = query_parse(NULL, false, &err);
	assert_int_equal(json_object_size(q), 4);
	json_decref(q);
	q = query_parse(NULL, true, &err);
	assert_int_equal(json_object_size(q), 0);
	json_decref(q);

	expect("gpu_ram>=24 gpu_ram=any", "{}");
	expect("dph<1 dph=any", "{}");
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("num_gpus=>2", 8, 2, "unknown operator '=>' at column 9");
	expect_error("num_gpus=2 gpu_name", 11, 8, "missing operator after 'gpu_name'");
	expect_error("num_gpus like 2", 9, 4, "unknown operator 'like'");
	expect_error("num_gpus>=", 8, 2, "missing value");
	expect_error("gpu_name in", 9, 2, "missing value");
	expect_error(">=2", 0, 3, "expected a field name");
	expect_error("num_gpus=2 -x=1", 11, 4, "expected a field name, not '-x=1' at column 12");
	expect_error("gpu_name in [A100,H100", 12, 10, "unclosed list");
	expect_error("gpu_name=\"RTX 4090", 9, 9, "unclosed quote");
	expect_error("gpu_name=[A100,H100]", 9, 11, "needs 'in' or 'notin'");
	expect_error("gpu_ram>=lots", 9, 4, "'lots' is not a number");
	expect_error("duration>=soon", 10, 4, "days");
	expect_error("gpu_ram in [24,big]", 11, 8, "'big' is not a number");
	expect_error("num_gpus>any", 8, 1, "only works with '='");
	expect_error("gpu_name=\"A\"B", 12, 1, "unexpected 'B'");
	expect_error("gpu_name in []", 12, 2, "empty value");
	expect_error("gpu_name in [,]", 12, 3, "empty list");
	expect_error("x=\x1b[2J", 2, 1, "control character 0x1B at column 3");
	struct query_error err;
	assert_null(query_parse("a=\x1b[31m b", true, &err));
	assert_null(strchr(err.msg, '\x1b'));
	/* a NULL err is allowed */
	assert_null(query_parse("num_gpus=>2", true, NULL));
}

static void test_search_body(void **state)
{
	(void)state;
	struct query_error err;
	json_t *b = query_search_body("gpu_name=RTX_4090 num_gpus>=2", NULL, NULL, 0, 0, &err);
	assert_non_null(b);
	json_t *want = json_loads(
		"{\"verified\":{\"eq\":true},\"external\":{\"eq\":false},\"rentable\":{\"eq\":true},"
		"\"rented\":{\"eq\":false},\"gpu_name\":{\"eq\":\"RTX 4090\"},\"num_gpus\":{\"gte\":\"2\"},"
		"\"order\":[[\"score\",\"desc\"]],\"type\":\"on-demand\",\"allocated_storage\":5.0}",
		0, NULL);
	if (!json_equal(b, want))
		fail_msg("body %s", json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT));
	json_decref(b);
	json_decref(want);

	b = query_search_body("", "dph+,-reliability,dlperf_usd-", "interruptible", 50, 32, &err);
	assert_non_null(b);
	want = json_loads("[[\"dph_total\",\"asc\"],[\"reliability\",\"desc\"],"
			  "[\"dlperf_per_dphtotal\",\"desc\"]]", 0, NULL);
	assert_true(json_equal(json_object_get(b, "order"), want));
	assert_string_equal(json_string_value(json_object_get(b, "type")), "bid");
	assert_int_equal(json_integer_value(json_object_get(b, "limit")), 50);
	assert_true(json_real_value(json_object_get(b, "allocated_storage")) == 32.0);
	json_decref(b);
	json_decref(want);

	b = query_search_body(NULL, "num_gpus", "ondemand", 0, 0, &err);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "on-demand");
	assert_null(json_object_get(b, "limit"));
	json_decref(b);
	b = query_search_body(NULL, NULL, "reserved", 0, 0, &err);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "reserved");
	json_decref(b);

	assert_null(query_search_body("num_gpus=>1", NULL, NULL, 0, 0, &err));
	assert_int_equal(err.pos, 8);
	assert_null(query_search_body("", "dph;drop", NULL, 0, 0, &err));
	assert_non_null(strstr(err.msg, "bad sort field"));
	assert_null(query_search_body("", NULL, "spot", 0, 0, &err));
	assert_non_null(strstr(err.msg, "unknown offer type 'spot'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_ops),
		cmocka_unit_test(test_word_ops),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_multipliers_aliases),
		cmocka_unit_test(test_defaults_and_any),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_search_body),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
