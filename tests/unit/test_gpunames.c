/* test_gpunames.c: the service's GPU names (flow/gpunames.h): the answer
 * read, the fragment match (case-insensitive, underscores as spaces) and
 * the check of a search's gpu_name condition against the names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "flow/gpunames.h"
#include "rules/query.h"

static struct gpu_names *names(void)
{
	json_t *root = json_loads("{\"success\":true,\"gpu_names\":[\"A100 SXM4\",\"H100 SXM\","
				  "\"RTX 3090\",\"RTX 4090\",\"RTX 4090D\",7,\"\"]}",
				  0, NULL);
	struct api_error e;
	memset(&e, 0, sizeof e);
	struct gpu_names *g = gpunames_from_json(root, &e);
	json_decref(root);
	assert_non_null(g);
	return g;
}

/* The check of the query line text as the offers view runs it. */
static bool check(const struct gpu_names *g, const char *query, char *msg, size_t n)
{
	struct query_error err;
	json_t *f = query_parse(query, false, &err);
	assert_non_null(f);
	bool r = gpunames_check(g, f, msg, n);
	json_decref(f);
	return r;
}

static void reads_the_answer(void **state)
{
	(void)state;
	struct gpu_names *g = names();
	assert_int_equal(g->n, 5); /* the number and the empty string skipped */
	assert_string_equal(g->v[3], "RTX 4090");
	gpunames_free(g);
	struct api_error e;
	memset(&e, 0, sizeof e);
	json_t *bad = json_loads("{\"success\":true}", 0, NULL);
	assert_null(gpunames_from_json(bad, &e));
	assert_true(e.msg[0] != '\0');
	json_decref(bad);
}

static void exact_name_says_nothing(void **state)
{
	(void)state;
	struct gpu_names *g = names();
	char msg[300] = "x";
	assert_false(check(g, "gpu_name=RTX_4090 num_gpus>=1", msg, sizeof msg));
	assert_string_equal(msg, "");
	assert_false(check(g, "gpu_name=\"RTX 4090D\"", msg, sizeof msg));
	assert_false(check(g, "num_gpus=2", msg, sizeof msg)); /* no gpu_name condition */
	assert_false(check(g, "gpu_name in [RTX_4090,RTX_3090]", msg, sizeof msg));
	gpunames_free(g);
}

static void fragment_offers_the_matches(void **state)
{
	(void)state;
	struct gpu_names *g = names();
	char msg[300];
	assert_true(check(g, "gpu_name=4090", msg, sizeof msg));
	assert_string_equal(msg, "gpu_name=4090 is not a GPU name: RTX 4090, RTX 4090D — Tab completes");
	assert_true(check(g, "gpu_name in [RTX_4090,SXM]", msg, sizeof msg));
	assert_string_equal(msg, "gpu_name=SXM is not a GPU name: A100 SXM4, H100 SXM — Tab completes");
	gpunames_free(g);
}

static void no_match(void **state)
{
	(void)state;
	struct gpu_names *g = names();
	char msg[300];
	assert_true(check(g, "gpu_name=Voodoo_2", msg, sizeof msg));
	assert_string_equal(msg, "gpu_name=Voodoo_2 is not a GPU name (none contains it)");
	/* a short buffer is cut, never overrun */
	char small[12];
	assert_true(check(g, "gpu_name=4090", small, sizeof small));
	assert_int_equal(strlen(small), sizeof small - 1);
	/* no names known: nothing is said */
	struct gpu_names none = { NULL, 0 };
	assert_false(check(&none, "gpu_name=4090", msg, sizeof msg));
	gpunames_free(g);
}

static void case_and_underscores(void **state)
{
	(void)state;
	struct gpu_names *g = names();
	char msg[300];
	/* the service's match is exact: another case is not the name */
	assert_true(check(g, "gpu_name=rtx_4090", msg, sizeof msg));
	assert_string_equal(msg, "gpu_name=rtx_4090 is not a GPU name: RTX 4090, RTX 4090D — Tab completes");
	assert_true(gpunames_contains("RTX 4090", "rtx_40"));
	assert_true(gpunames_contains("RTX 4090", "X 4"));
	assert_true(gpunames_contains("RTX 4090", ""));
	assert_false(gpunames_contains("RTX 4090", "4090D"));
	assert_false(gpunames_contains("RTX", "RTX "));
	const char *m[8];
	assert_int_equal(gpunames_match(g, "Rtx_40", m, 8), 2);
	assert_string_equal(m[0], "RTX 4090");
	assert_string_equal(m[1], "RTX 4090D");
	assert_int_equal(gpunames_match(g, "rtx", m, 1), 1); /* at most max */
	gpunames_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_the_answer),
		cmocka_unit_test(exact_name_says_nothing),
		cmocka_unit_test(fragment_offers_the_matches),
		cmocka_unit_test(no_match),
		cmocka_unit_test(case_and_underscores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
