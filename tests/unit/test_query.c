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

#include "rules/query.h"

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
	/* a field named like an operator word is read as a field (and is unknown) */
	expect_error("in=3", 0, 2, "unknown field in (did you mean id?) at column 1");
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
	/* as the CLI: quotes are stripped before the literal check */
	expect("geolocation=\"true\"", "{\"geolocation\":{\"eq\":true}}");
	expect("static_ip=\"None\"", "{\"static_ip\":{\"eq\":null}}");
	expect("compute_cap>=890", "{\"compute_cap\":{\"gte\":\"890\"}}");
	expect("gpu_name=b=c", "{\"gpu_name\":{\"eq\":\"b=c\"}}");
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

/* The encodings the official CLI applies (vastai/api/query.py parse_query),
 * byte for byte in the search body: a dotted driver_version is the integer
 * major x 1,000,000 + minor x 1,000 + patch (numeric_version), GB fields x1000
 * and days x86400 as numbers, other numbers as strings, underscores to
 * spaces, literals; display_active is an alias. */
static void test_cli_encodings(void **state)
{
	(void)state;
	expect("driver_version>=535.86.05", "{\"driver_version\":{\"gte\":535086005}}");
	expect("driver_version = 550.127.5", "{\"driver_version\":{\"eq\":550127005}}");
	expect("driver_version=\"535.86.05\"", "{\"driver_version\":{\"eq\":535086005}}");
	expect("driver_version>=535086005", "{\"driver_version\":{\"gte\":\"535086005\"}}");
	expect("driver_version in [535.86.05,550.54.14]",
	       "{\"driver_version\":{\"in\":[535086005,550054014]}}");
	expect("driver_version=any", "{}");
	expect_error("driver_version>=535.86", 16, 6, "not a driver version like 535.86.05");
	expect_error("driver_version>=535.86.05.1", 16, 11, "not a driver version");
	expect_error("driver_version>=5350.86.05", 16, 10, "not a driver version");
	expect_error("driver_version>=535..05", 16, 7, "not a driver version");
	expect("display_active=false", "{\"gpu_display_active\":{\"eq\":false}}");
	/* the bytes sent */
	struct query_error err;
	json_t *q = query_parse("driver_version>=535.86.05 gpu_ram>=24 duration>=3 num_gpus=2 "
				"gpu_name=RTX_4090 verified=True",
				true, &err);
	assert_non_null(q);
	char *t = json_dumps(q, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(t, "{\"driver_version\":{\"gte\":535086005},\"duration\":{\"gte\":259200.0},"
			       "\"gpu_name\":{\"eq\":\"RTX 4090\"},\"gpu_ram\":{\"gte\":24000.0},"
			       "\"num_gpus\":{\"eq\":\"2\"},\"verified\":{\"eq\":true}}");
	free(t);
	json_decref(q);
}

/* query_text writes filters back in the language; parsing that text gives
 * the same filters (GB, days and the driver version divided back); what the
 * language cannot carry is NULL. */
static void test_query_text_round_trip(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"gpu_ram>=24 num_gpus=2 gpu_name=RTX_4090 verified=true",
		"duration>=2.5 cpu_ram<64.5 driver_version>=535.86.05 static_ip=null",
		"gpu_name in [RTX_4090,H100_SXM] num_gpus notin [1,3] dph<1.5 reliability>0.98",
		"gpu_total_ram in [80,160] external!=false",
	};
	struct query_error err;
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		json_t *q = query_parse(texts[i], true, &err);
		assert_non_null(q);
		char *t = query_text(q);
		assert_non_null(t);
		json_t *back = query_parse(t, true, &err);
		if (!back || !json_equal(q, back))
			fail_msg("'%s' -> '%s' does not parse back the same", texts[i], t);
		free(t);
		json_decref(q);
		json_decref(back);
	}
	json_t *q = json_loads("{\"gpu_ram\":{\"gte\":24000},\"verified\":{\"eq\":true}}", 0, NULL);
	char *t = query_text(q);
	assert_string_equal(t, "gpu_ram>=24 verified=true");
	free(t);
	json_decref(q);
	/* every form a value can take back: a GB number sent as text, a
	 * negative version (no version form), a name with a space, null, false */
	q = json_loads("{\"gpu_ram\":{\"eq\":\"24\"},\"driver_version\":{\"gt\":-1},"
		       "\"gpu_name\":{\"eq\":\"RTX 4090\"},\"static_ip\":{\"eq\":null},"
		       "\"external\":{\"eq\":false}}", JSON_PRESERVE_ORDER, NULL);
	t = query_text(q);
	assert_string_equal(t, "gpu_ram=24 driver_version>-1 gpu_name=RTX_4090 static_ip=null "
			       "external=false");
	free(t);
	json_decref(q);
	static const char *const none[] = {
		"{\"gpu_name\":{\"like\":\"RTX\"}}",         /* no such operator */
		"{\"gpu_name\":\"RTX\"}",                      /* not a condition object */
		"{\"gpu_name\":{\"eq\":\"a,b\"}}",           /* a comma the list syntax eats */
		"{\"gpu_name\":{\"in\":[\"a_b\"]}}",         /* an underscore in a list item */
		"{\"label\":{\"eq\":\"x_y\"}}",              /* an underscore comes back a space */
		"{\"gpu_name\":{\"eq\":{\"x\":1}}}",         /* nested */
		"{\"gpu_ram\":{\"eq\":\"big\"}}",            /* a GB field that is no number */
		"{\"gpu_name\":{\"in\":\"x\"}}",             /* in without a list */
		"{\"bad field\":{\"eq\":1}}",
		"{\"\":{\"eq\":1}}",                        /* no field name */
		"{\"gpu_name\":{\"eq\":\"\"}}",              /* an empty string: no token */
		"{\"gpu_name\":{\"eq\":\"a\\u0001b\"}}",     /* a control character */
		"{\"gpu_name\":{\"eq\":\"a\\u007fb\"}}",     /* DEL */
		"{\"gpu_name\":{\"eq\":\"true\"}}",          /* would come back the literal */
		"{\"gpu_name\":{\"eq\":\"False\"}}",
		"{\"gpu_name\":{\"eq\":\"None\"}}",
		"{\"driver_version\":{\"eq\":\"535\"}}",    /* would come back a version */
		"{\"gpu_name\":{\"in\":[]}}",                 /* an empty list */
		"{\"gpu_name\":{\"eq\":[\"a\"]}}",           /* a list for eq */
		"{\"gpu_name\":{\"in\":[\"a\",{\"x\":1}]}}", /* a list item that is no value */
		"[]",                                          /* not an object */
	};
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		q = json_loads(none[i], 0, NULL);
		assert_non_null(q);
		t = query_text(q);
		if (t)
			fail_msg("%s gave '%s', want NULL", none[i], t);
		json_decref(q);
	}
	assert_null(query_text(NULL));
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

static void test_unknown_fields(void **state)
{
	(void)state;
	/* issue 12: a misspelt field is an error naming the nearest one */
	expect_error("gpu_nam=RTX_4090", 0, 7, "unknown field gpu_nam (did you mean gpu_name?) at column 1");
	expect_error("num_gpus=2 relability>0.9", 11, 10, "(did you mean reliability?) at column 12");
	expect_error("num_gpus=2 dhp<1", 11, 3, "unknown field dhp (did you mean dph?)");
	expect_error("num_gpus=2 zzzzzzzz=1", 11, 8, "unknown field zzzzzzzz at column 12");
	struct query_error err;
	assert_null(query_parse("zzzzzzzz=1", true, &err));
	assert_null(strstr(err.msg, "did you mean"));
	assert_true(query_field_known(QUERY_OFFERS, "dph"));          /* an alias */
	assert_true(query_field_known(QUERY_OFFERS, "reliability2"));
	assert_false(query_field_known(QUERY_OFFERS, "name"));
	assert_true(query_field_known(QUERY_TEMPLATES, "name"));
	assert_false(query_field_known(QUERY_TEMPLATES, "gpu_name"));
	assert_string_equal(query_field_nearest(QUERY_OFFERS, "gpuname"), "gpu_name");
	assert_string_equal(query_field_nearest(QUERY_OFFERS, "dlperf_per_dph"), "dlperf_per_dphtotal");
	assert_string_equal(query_field_nearest(QUERY_TEMPLATES, "creatorid"), "creator_id");
	assert_null(query_field_nearest(QUERY_OFFERS, "q"));
	/* templates: their own fields, never the offer defaults */
	json_t *q = query_parse_for(QUERY_TEMPLATES, "creator_id=42 recommended=true", false, &err);
	assert_non_null(q);
	json_t *want = json_loads("{\"creator_id\":{\"eq\":\"42\"},\"recommended\":{\"eq\":true}}", 0, NULL);
	assert_true(json_equal(q, want));
	json_decref(q);
	json_decref(want);
	assert_null(query_parse_for(QUERY_TEMPLATES, "imag=pytorch", true, &err));
	assert_non_null(strstr(err.msg, "did you mean image?"));
	/* sort fields are checked too */
	assert_null(query_search_body("", "dph_totl+", NULL, 0, 0, &err));
	assert_non_null(strstr(err.msg, "unknown sort field dph_totl (did you mean dph_total?)"));
}

/* Parse a line and build its body; fail the test on an error. */
static json_t *cmd_body(const char *line, struct query_cmd *c)
{
	struct query_error err;
	if (!query_cmd_parse(line, c, &err))
		fail_msg("'%s': %s", line, err.msg);
	json_t *b = query_cmd_body(c, &err);
	if (!b)
		fail_msg("'%s' body: %s", line, err.msg);
	return b;
}

static void test_search_line(void **state)
{
	(void)state;
	struct query_cmd c;
	json_t *b = cmd_body("gpu_name=RTX_4090 num_gpus>=2 dph<1.5 -o dph+ --no-default", &c);
	json_t *want = json_loads(
		"{\"gpu_name\":{\"eq\":\"RTX 4090\"},\"num_gpus\":{\"gte\":\"2\"},"
		"\"dph_total\":{\"lt\":\"1.5\"},\"order\":[[\"dph_total\",\"asc\"]],"
		"\"type\":\"on-demand\",\"allocated_storage\":5.0}", 0, NULL);
	if (!json_equal(b, want))
		fail_msg("body %s", json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT));
	assert_true(c.no_default);
	/* options are blanked, columns kept */
	assert_int_equal(strlen(c.filters), strlen("gpu_name=RTX_4090 num_gpus>=2 dph<1.5 -o dph+ --no-default"));
	json_decref(want);
	json_decref(b);
	query_cmd_free(&c);

	/* every option spelling; the defaults stay without -n */
	b = cmd_body("--type=bid num_gpus=1 --limit 20 --storage 64 --order score-,reliability-", &c);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "bid");
	assert_int_equal(json_integer_value(json_object_get(b, "limit")), 20);
	assert_true(json_real_value(json_object_get(b, "allocated_storage")) == 64.0);
	assert_true(json_is_true(json_object_get(json_object_get(b, "verified"), "eq")));
	want = json_loads("[[\"score\",\"desc\"],[\"reliability\",\"desc\"]]", 0, NULL);
	assert_true(json_equal(json_object_get(b, "order"), want));
	json_decref(want);
	json_decref(b);
	query_cmd_free(&c);
	b = cmd_body("-i", &c);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "bid");
	json_decref(b);
	query_cmd_free(&c);
	b = cmd_body("-r --disk 20", &c);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "reserved");
	assert_true(json_real_value(json_object_get(b, "allocated_storage")) == 20.0);
	json_decref(b);
	query_cmd_free(&c);
	b = cmd_body("-t interruptible -d", &c); /* the last type wins */
	assert_string_equal(json_string_value(json_object_get(b, "type")), "on-demand");
	json_decref(b);
	query_cmd_free(&c);
	/* a default order */
	b = cmd_body("", &c);
	want = json_loads("[[\"score\",\"desc\"]]", 0, NULL);
	assert_true(json_equal(json_object_get(b, "order"), want));
	json_decref(want);
	json_decref(b);
	query_cmd_free(&c);
	/* "-o" inside a quoted value or a list is not an option; negative numbers are values */
	b = cmd_body("geolocation=\"a -o b\" gpu_name in [x, -o] dph_base > -1", &c);
	assert_string_equal(json_string_value(json_object_get(json_object_get(b, "geolocation"), "eq")), "a -o b");
	assert_string_equal(json_string_value(json_object_get(json_object_get(b, "dph_base"), "gt")), "-1");
	assert_null(c.order);
	json_decref(b);
	query_cmd_free(&c);

	/* errors carry the column in the line as typed */
	struct query_error err;
	assert_false(query_cmd_parse("num_gpus=1 -o", &c, &err));
	assert_int_equal(err.pos, 11);
	assert_non_null(strstr(err.msg, "--order needs a value"));
	assert_false(query_cmd_parse("num_gpus=1 -x 3", &c, &err));
	assert_int_equal(err.pos, 11);
	assert_non_null(strstr(err.msg, "unknown option '-x'"));
	assert_false(query_cmd_parse("-t spot", &c, &err));
	assert_int_equal(err.pos, 3);
	assert_false(query_cmd_parse("-o dph+,scor-", &c, &err));
	assert_int_equal(err.pos, 8);
	assert_non_null(strstr(err.msg, "did you mean score?"));
	assert_false(query_cmd_parse("--limit 0", &c, &err));
	assert_false(query_cmd_parse("--storage lots", &c, &err));
	assert_false(query_cmd_parse("-n=1", &c, &err));
	assert_true(query_cmd_parse("-o dph- gpu_nam=X", &c, &err));
	assert_null(query_cmd_body(&c, &err));
	assert_int_equal(err.pos, 8);
	assert_non_null(strstr(err.msg, "unknown field gpu_nam (did you mean gpu_name?) at column 9"));
	query_cmd_free(&c);
}

/* The limits of the language and of the search line, each at the value
 * and one past it. */
static void test_boundaries(void **state)
{
	(void)state;
	/* a 64-character field name does not fit field[64]: refused, not
	 * written past it; 63 characters fit (and are an unknown field) */
	char t[200];
	memset(t, 'a', 64);
	strcpy(t + 64, "=1");
	expect_error(t, 0, 64, "field name too long");
	memset(t, 'a', 63);
	strcpy(t + 63, "=1");
	expect_error(t, 0, 63, "unknown field");
	/* DEL is a control character, refused at its column; '~' (0x7E) is text */
	expect_error("gpu_name=RTX\x7f" "4090", 12, 1, "control character 0x7F at column 13");
	expect("gpu_name=RTX~4090", "{\"gpu_name\":{\"eq\":\"RTX~4090\"}}");
	expect("gpu_name=\"a ~b\"", "{\"gpu_name\":{\"eq\":\"a ~b\"}}");
	/* tabs and newlines separate, as blanks */
	expect("num_gpus=1\tgpu_name=A\n", "{\"num_gpus\":{\"eq\":\"1\"},\"gpu_name\":{\"eq\":\"A\"}}");
	struct query_cmd c;
	struct query_error err;
	/* --limit: 1 to 100000 */
	json_t *b = cmd_body("--limit 100000", &c);
	assert_int_equal(json_integer_value(json_object_get(b, "limit")), 100000);
	json_decref(b);
	query_cmd_free(&c);
	b = cmd_body("--limit=1", &c);
	assert_int_equal(json_integer_value(json_object_get(b, "limit")), 1);
	json_decref(b);
	query_cmd_free(&c);
	assert_false(query_cmd_parse("--limit 100001", &c, &err));
	assert_int_equal(err.pos, 8);
	assert_non_null(strstr(err.msg, "--limit is a count from 1"));
	assert_false(query_cmd_parse("--limit 5x", &c, &err));
	assert_false(query_cmd_parse("--limit -1", &c, &err));
	/* --storage 0 and --disk 0 are refused, not replaced by the 5 GB default */
	assert_false(query_cmd_parse("--storage 0", &c, &err));
	assert_int_equal(err.pos, 10);
	assert_non_null(strstr(err.msg, "--storage is a size in GB"));
	assert_false(query_cmd_parse("num_gpus=1 --disk 0", &c, &err));
	assert_int_equal(err.pos, 18);
	assert_non_null(strstr(err.msg, "--disk is a size in GB"));
	assert_false(query_cmd_parse("--disk=-5", &c, &err));
	assert_false(query_cmd_parse("--disk 1000001", &c, &err));
	b = cmd_body("--disk 0.5", &c);
	assert_true(json_real_value(json_object_get(b, "allocated_storage")) == 0.5);
	json_decref(b);
	query_cmd_free(&c);
	b = cmd_body("--storage 1000000", &c);
	assert_true(json_real_value(json_object_get(b, "allocated_storage")) == 1e6);
	json_decref(b);
	query_cmd_free(&c);
}

/* The order of a search body as compact JSON. */
/* A number field refuses text at its column and sends nothing (the README's
 * promise); numbers go as the CLI sends them (the text typed); null stays. */
static void test_numeric_fields_refuse_text(void **state)
{
	(void)state;
	expect_error("dph<abc", 4, 3, "'abc' is not a number (dph_total is a number)");
	expect_error("num_gpus>=2 reliability>high", 24, 4, "'high' is not a number");
	expect_error("num_gpus in [1,two]", 12, 7, "'two' is not a number (num_gpus is a number)");
	expect_error("min_bid<\"0.1x\"", 8, 6, "is not a number");
	/* the first and last of the (bsearched) list, and one between */
	expect_error("ask_contract_id=x", 16, 1, "is not a number");
	expect_error("total_flops>y", 12, 1, "is not a number");
	expect_error("machine_id=abc", 11, 3, "is not a number");
	expect("dph<1.5", "{\"dph_total\":{\"lt\":\"1.5\"}}");
	expect("num_gpus in [1,2]", "{\"num_gpus\":{\"in\":[\"1\",\"2\"]}}");
	expect("reliability>=.99", "{\"reliability\":{\"gte\":\".99\"}}");
	expect("id=null", "{\"id\":{\"eq\":null}}");
	expect("num_gpus=None", "{\"num_gpus\":{\"eq\":null}}");
	/* driver versions: three parts of at most 3 digits, in lists too, an
	 * undotted one as typed */
	expect("driver_version in [535,550.1.2]", "{\"driver_version\":{\"in\":[\"535\",550001002]}}");
	expect_error("driver_version in [535.86.05,1234.1.1]", 18, 20, "is not a driver version");
	expect_error("driver_version=535.86.05.1", 15, 11, "is not a driver version");
	expect_error("driver_version=535..5", 15, 6, "is not a driver version");
	/* text fields take text */
	expect("gpu_name=RTX_4090", "{\"gpu_name\":{\"eq\":\"RTX 4090\"}}");
	expect("geolocation=US", "{\"geolocation\":{\"eq\":\"US\"}}");
	/* a template's counts too */
	struct query_error err;
	json_t *t = query_parse_for(QUERY_TEMPLATES, "count_created>many", true, &err);
	assert_null(t);
	assert_non_null(strstr(err.msg, "'many' is not a number"));
	t = query_parse_for(QUERY_TEMPLATES, "count_created>10 name=vllm", true, &err);
	assert_non_null(t);
	json_decref(t);
}

static void expect_order(const char *order, const char *want)
{
	struct query_error err;
	json_t *b = query_search_body("", order, NULL, 0, 0, &err);
	if (!b)
		fail_msg("order '%s': %s", order, err.msg);
	char *o = json_dumps(json_object_get(b, "order"), JSON_COMPACT);
	if (strcmp(o, want))
		fail_msg("order '%s' gave %s, want %s", order, o, want);
	free(o);
	json_decref(b);
}

/* What the other tests do not reach: lists with blank or quoted items,
 * numbers that overflow, bytes that are not UTF-8, orders with stray
 * separators, the field helpers' edges, the defaults' description of a
 * changed default. */
static void test_edges(void **state)
{
	(void)state;
	/* list items: blank ones skipped, spaces trimmed, a quote that is not a pair kept */
	expect("gpu_name in [a, ,b ,\"\"]", "{\"gpu_name\":{\"in\":[\"a\",\"b\"]}}");
	expect("gpu_name in [\"a,b\"]", "{\"gpu_name\":{\"in\":[\"\\\"a\",\"b\\\"\"]}}");
	expect("gpu_ram=None", "{\"gpu_ram\":{\"eq\":null}}");
	/* not UTF-8: a "?" in its place, never an invalid string */
	expect("gpu_name=\xff", "{\"gpu_name\":{\"eq\":\"?\"}}");
	/* numbers: out of range, not finite */
	expect_error("gpu_ram>=1e999", 9, 5, "'1e999' is not a number");
	expect_error("gpu_ram>=inf", 9, 3, "'inf' is not a number");
	expect_error("gpu_ram>=5x", 9, 2, "'5x' is not a number");
	expect("gpu_ram=null", "{\"gpu_ram\":{\"eq\":null}}");
	expect_error("gpu_ram in [1,nan]", 11, 7, "'nan' is not a number");
	/* the bad token of an error ends at a blank */
	expect_error("num_gpus=1 -x=1 y=2", 11, 4, "expected a field name, not '-x=1'");
	expect_error("num_gpus gtx 2", 9, 3, "unknown operator 'gtx'");
	expect_error("gpu_name=\"A\"B c=1", 12, 1, "unexpected 'B'");
	/* orders: empty is the default; stray separators; + and - before the field */
	expect_order("", "[[\"score\",\"desc\"]]");
	expect_order(",dph+, ", "[[\"dph_total\",\"asc\"]]");
	expect_order("dph+ +reliability", "[[\"dph_total\",\"asc\"],[\"reliability\",\"asc\"]]");
	struct query_error err;
	char longf[80];
	memset(longf, 'a', 64);
	longf[64] = '\0';
	assert_null(query_search_body("", longf, NULL, 0, 0, &err));
	assert_non_null(strstr(err.msg, "bad sort field"));
	assert_null(query_search_body("", "-", NULL, 0, 0, &err));
	json_t *b = query_search_body("", NULL, "", 0, 0, &err);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "on-demand");
	json_decref(b);
	/* the field helpers */
	assert_null(query_alias(NULL));
	assert_false(query_field_known(QUERY_OFFERS, NULL));
	assert_false(query_field_known((enum query_target)9, "gpu_name"));
	assert_null(query_field_nearest(QUERY_OFFERS, NULL));
	assert_null(query_field_nearest(QUERY_OFFERS, ""));
	char huge[80];
	memset(huge, 'g', 70);
	huge[70] = '\0';
	assert_null(query_field_nearest(QUERY_OFFERS, huge)); /* too long to be near anything */
	const char *names[400];
	assert_int_equal(query_field_names(QUERY_OFFERS, names, 3), 3);
	size_t all = query_field_names(QUERY_OFFERS, names, 400);
	assert_true(all > 3 && all < 400);
	/* cut in the aliases */
	assert_int_equal(query_field_names(QUERY_OFFERS, names, all - 1), all - 1);
	assert_int_equal(query_field_names((enum query_target)9, names, 400), 0);
	/* the search line: no line, no err, a lone "-" left to the filters */
	struct query_cmd c;
	assert_true(query_cmd_parse(NULL, &c, NULL));
	query_cmd_free(&c);
	assert_false(query_cmd_parse("-x", &c, NULL));
	assert_true(query_cmd_parse("dph_base > -.5", &c, &err)); /* a number, no option */
	query_cmd_free(&c);
	assert_true(query_cmd_parse("num_gpus=1 -", &c, &err));
	assert_null(query_cmd_body(&c, &err));
	assert_non_null(strstr(err.msg, "expected a field name, not '-'"));
	query_cmd_free(&c);
	/* the defaults' description when a default's condition was changed */
	char buf[160];
	json_t *body = json_loads("{\"verified\":{\"eq\":true,\"neq\":false},"
				  "\"rentable\":{\"eq\":\"yes\"},\"rented\":5,"
				  "\"external\":{\"eq\":false}}", 0, NULL);
	assert_string_equal(query_defaults_desc(body, buf, sizeof buf),
			    "defaults: not external (verified, rentable, rented yours or off)");
	json_decref(body);
}

static void test_defaults_desc_and_sort_keys(void **state)
{
	(void)state;
	struct query_error err;
	char buf[160];
	json_t *b = query_search_body("num_gpus=1", NULL, NULL, 0, 0, &err);
	assert_string_equal(query_defaults_desc(b, buf, sizeof buf),
			    "defaults: verified, rentable, not rented, not external");
	json_decref(b);
	b = query_search_body("rented=any external=true", NULL, NULL, 0, 0, &err);
	assert_string_equal(query_defaults_desc(b, buf, sizeof buf),
			    "defaults: verified, rentable (rented, external yours or off)");
	json_decref(b);
	struct query_cmd c;
	b = cmd_body("-n num_gpus=1", &c);
	assert_string_equal(query_defaults_desc(b, buf, sizeof buf), "no default filters");
	json_decref(b);
	query_cmd_free(&c);

	assert_int_equal(query_nsort_keys, 7);
	assert_string_equal(query_sort_keys[0].field, "score");
	assert_string_equal(query_sort_order(0, false, buf, sizeof buf), "score-");
	assert_string_equal(query_sort_order(1, false, buf, sizeof buf), "dph_total+");
	assert_string_equal(query_sort_order(1, true, buf, sizeof buf), "dph_total-");
	assert_string_equal(query_sort_order(99, false, buf, sizeof buf), "score-");
	/* every key is a field the service sorts on */
	for (size_t i = 0; i < query_nsort_keys; i++) {
		json_t *o = query_search_body("", query_sort_order(i, false, buf, sizeof buf), NULL, 0, 0, &err);
		if (!o)
			fail_msg("sort key %s: %s", query_sort_keys[i].field, err.msg);
		json_decref(o);
	}
}

/* Each field's type comes from its row of the field tables: a template's
 * counts and ids are numbers (text refused), its names text; an offer's
 * sizes in GB, its days, its driver version and its prices each by type. */
static void test_field_types(void **state)
{
	(void)state;
	struct query_error err;
	json_t *q = query_parse_for(QUERY_TEMPLATES, "count_created>5 name=abc", true, &err);
	assert_non_null(q);
	char *t = json_dumps(q, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(t, "{\"count_created\":{\"gt\":\"5\"},\"name\":{\"eq\":\"abc\"}}");
	free(t);
	json_decref(q);
	assert_null(query_parse_for(QUERY_TEMPLATES, "count_created>abc", true, &err));
	assert_non_null(strstr(err.msg, "not a number"));
	assert_null(query_parse_for(QUERY_TEMPLATES, "creator_id=x1", true, &err));
	assert_null(query_parse_for(QUERY_TEMPLATES, "recommended_disk_space<big", true, &err));
	expect("cpu_ram>=2 gpu_total_ram<=1", "{\"cpu_ram\":{\"gte\":2000.0},\"gpu_total_ram\":{\"lte\":1000.0}}");
	expect("cpu_name=abc", "{\"cpu_name\":{\"eq\":\"abc\"}}");
	expect_error("min_bid<abc", 8, 3, "not a number");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_ops),
		cmocka_unit_test(test_word_ops),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_multipliers_aliases),
		cmocka_unit_test(test_cli_encodings),
		cmocka_unit_test(test_query_text_round_trip),
		cmocka_unit_test(test_defaults_and_any),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_numeric_fields_refuse_text),
		cmocka_unit_test(test_search_body),
		cmocka_unit_test(test_unknown_fields),
		cmocka_unit_test(test_search_line),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_defaults_desc_and_sort_keys),
		cmocka_unit_test(test_field_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
