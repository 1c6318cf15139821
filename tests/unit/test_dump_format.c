/* test_dump_format.c: what --dump writes.  The JSON text: reals in their
 * shortest exact form (and still reals), C1 controls, DEL, bidi overrides
 * and line separators escaped while other non-ASCII text stays readable,
 * escapes jansson wrote kept whole, and the text reading back equal to the
 * value.  The plain table's cell cap: cut by display width (wide
 * characters included) with an ellipsis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "dump/dump.h"
#include "base/util.h"

static void shortest_reals(void **state)
{
	(void)state;
	json_t *v = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:i,s:f}", "a", 12.2, "b", 0.1, "c", 1e300,
			      "d", 12.0, "e", -2.5e-7, "f", 0.1 + 0.2, "g", 42, "h", 246.219146637592);
	char *s = dump_json_text(v);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"a\": 12.2,"));
	assert_non_null(strstr(s, "\"b\": 0.1,"));
	assert_non_null(strstr(s, "\"c\": 1e+300,"));
	assert_non_null(strstr(s, "\"d\": 12.0,"));
	assert_non_null(strstr(s, "\"e\": -2.5e-07,"));
	assert_non_null(strstr(s, "\"f\": 0.30000000000000004,"));
	assert_non_null(strstr(s, "\"g\": 42,"));
	assert_non_null(strstr(s, "\"h\": 246.219146637592\n"));
	json_t *back = json_loads(s, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(v, back));
	assert_true(json_is_real(json_object_get(back, "d")));
	json_decref(back);
	free(s);
	json_decref(v);
}

static void escapes(void **state)
{
	(void)state;
	/* U+009B (CSI), U+202E (RLO), DEL, U+2066, U+061C, U+2028; é and 日本 stay */
	json_t *v = json_pack("{s:s,s:s,s:s}", "label", "x\xC2\x9B" "31my\xE2\x80\xAEz\x7F",
			      "more", "\xE2\x81\xA6" "a\xD8\x9C" "b\xE2\x80\xA8", "keep",
			      "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \"q\" \\ \x1b[0m 12.5");
	char *s = dump_json_text(v);
	assert_non_null(s);
	assert_non_null(strstr(s, "x\\u009b31my\\u202ez\\u007f"));
	assert_non_null(strstr(s, "\\u2066a\\u061cb\\u2028"));
	assert_non_null(strstr(s, "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \\\"q\\\" \\\\ \\u001B[0m 12.5"));
	assert_null(strstr(s, "\xC2\x9B"));
	assert_null(strstr(s, "\xE2\x80\xAE"));
	json_t *back = json_loads(s, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(v, back));
	json_decref(back);
	free(s);
	json_decref(v);
}

static void cut_cells(void **state)
{
	(void)state;
	char *s = dump_cut_cell("short", 10);
	assert_string_equal(s, "short");
	free(s);
	s = dump_cut_cell("abcdefghij", 10);
	assert_string_equal(s, "abcdefghij");
	free(s);
	s = dump_cut_cell("abcdefghijk", 10);
	assert_string_equal(s, "abcdefghi\xE2\x80\xA6");
	assert_int_equal(util_strwidth(s), 10);
	free(s);
	/* wide characters: two columns each */
	s = dump_cut_cell("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE3\x83\x86\xE3\x82\xAD", 5);
	assert_string_equal(s, "\xE6\x97\xA5\xE6\x9C\xAC\xE2\x80\xA6");
	free(s);
	/* a 100 KB label becomes one capped cell */
	char *big = xmalloc(100001);
	memset(big, 'L', 100000);
	big[100000] = '\0';
	s = dump_cut_cell(big, DUMP_CELL_MAX);
	assert_int_equal(util_strwidth(s), DUMP_CELL_MAX);
	free(s);
	free(big);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shortest_reals),
		cmocka_unit_test(escapes),
		cmocka_unit_test(cut_cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
