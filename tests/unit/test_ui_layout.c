/* test_ui_layout.c: the UI's pure geometry: header, body, message line and
 * hint bar at the minimum size and larger, the "too small" threshold, and
 * dialog boxes clamped to the screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "layout.h"

static void test_minimum_size_fits(void **state)
{
	(void)state;
	struct layout l;
	layout_compute(&l, 10, 40);
	assert_false(l.too_small);
	assert_int_equal(l.header.y, 0);
	assert_int_equal(l.header.h, 2);
	assert_int_equal(l.body.y, 2);
	assert_int_equal(l.body.h, 6);
	assert_int_equal(l.message.y, 8);
	assert_int_equal(l.hints.y, 9);
	assert_int_equal(l.body.w, 40);
	/* the parts tile the screen */
	assert_int_equal(l.header.h + l.body.h + l.message.h + l.hints.h, 10);
}

static void test_below_minimum_is_too_small(void **state)
{
	(void)state;
	struct layout l;
	layout_compute(&l, 9, 40);
	assert_true(l.too_small);
	layout_compute(&l, 10, 39);
	assert_true(l.too_small);
	layout_compute(&l, 0, 0);
	assert_true(l.too_small);
	layout_compute(&l, -5, 200);
	assert_true(l.too_small);
	assert_int_equal(l.rows, 0);
}

static void test_large_screen(void **state)
{
	(void)state;
	struct layout l;
	layout_compute(&l, 50, 200);
	assert_false(l.too_small);
	assert_int_equal(l.body.h, 46);
	assert_int_equal(l.hints.y, 49);
	assert_int_equal(l.hints.w, 200);
}

static void test_dialog_centred_and_clamped(void **state)
{
	(void)state;
	struct layout l;
	layout_compute(&l, 24, 80);
	struct rect r = layout_dialog(&l, 50, 8);
	assert_int_equal(r.w, 50);
	assert_int_equal(r.h, 8);
	assert_int_equal(r.x, 15);
	assert_int_equal(r.y, 8);
	/* larger than the screen: one cell of margin, inside the screen */
	layout_compute(&l, 10, 40);
	r = layout_dialog(&l, 72, 30);
	assert_int_equal(r.w, 38);
	assert_int_equal(r.h, 8);
	assert_true(r.x >= 0 && r.x + r.w <= 40);
	assert_true(r.y >= 0 && r.y + r.h <= 10);
}

static void test_center_and_list_rows(void **state)
{
	(void)state;
	struct rect r = { 0, 10, 5, 20 };
	assert_int_equal(layout_center_x(&r, 10), 15);
	assert_int_equal(layout_center_x(&r, 30), 10); /* never left of the rect */
	assert_int_equal(layout_list_rows(&r), 4);
	struct rect one = { 0, 0, 1, 10 };
	assert_int_equal(layout_list_rows(&one), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimum_size_fits),
		cmocka_unit_test(test_below_minimum_is_too_small),
		cmocka_unit_test(test_large_screen),
		cmocka_unit_test(test_dialog_centred_and_clamped),
		cmocka_unit_test(test_center_and_list_rows),
	};
	return cmocka_run_group_tests_name("ui_layout", tests, NULL, NULL);
}
