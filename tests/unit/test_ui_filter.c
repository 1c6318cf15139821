/* test_ui_filter.c: the `/` filter (issue 12): plain text in any shown
 * cell, COLUMN=VALUE in one column (a prefix of its title), !TEXT negated,
 * several terms all matching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "widgets/table.h"
#include "base/util.h"

static const struct table_col cols[] = {
	{ "ID", 4, 8, 0, true, true, true, NULL, 0 },
	{ "STATUS", 8, 12, 0, false, false, false, NULL, 1 },
	{ "GPUS", 8, 12, 1, false, false, false, NULL, 2 },
};

static struct table_row row(long id, const char *status, const char *gpus)
{
	struct table_row r;
	memset(&r, 0, sizeof r);
	r.id = id;
	r.cells[0] = (char *)"x";
	r.cells[1] = (char *)status;
	r.cells[2] = (char *)gpus;
	return r;
}

static void test_terms(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, 3, 0);
	struct table_row run = row(1, "running", "1x RTX 4090"), stop = row(2, "stopped", "2x V100");
	assert_true(table_row_matches(&t, &run, "RTX 4090"));   /* plain text, one term */
	assert_false(table_row_matches(&t, &stop, "RTX 4090"));
	assert_true(table_row_matches(&t, &run, "status=running"));
	assert_false(table_row_matches(&t, &stop, "status=running"));
	assert_true(table_row_matches(&t, &run, "gpu=4090"));   /* a prefix of GPUS */
	assert_false(table_row_matches(&t, &run, "status=4090")); /* only that column */
	assert_true(table_row_matches(&t, &stop, "!running"));
	assert_false(table_row_matches(&t, &run, "!running"));
	assert_true(table_row_matches(&t, &stop, "!status=running gpu=v100"));
	assert_false(table_row_matches(&t, &run, "status=running gpu=v100"));
	/* a column that is not shown is still matched by name */
	t.visible = 0x3u;
	assert_true(table_row_matches(&t, &run, "gpus=rtx"));
	assert_false(table_row_matches(&t, &run, "rtx"));
	/* no such column: the term is plain text */
	assert_false(table_row_matches(&t, &run, "nosuch=1"));
	table_free(&t);
}

/* `/` as the framework applies it (the table's list, view_ops.list): the
 * table's terms, the state's group word included (status=failed keeps a
 * crashed row), and the rows kept in the table's sort order. */
static void test_through_the_list(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, 3, 0);
	static const char *const status[] = { "running", "crashed", "stopped", "failed start" };
	struct table_row *r = xcalloc(4, sizeof *r);
	for (size_t i = 0; i < 4; i++) {
		r[i].id = 40 - (long)i * 10; /* 40 30 20 10: sorted by id, reversed */
		r[i].cells[0] = xasprintf("%ld", r[i].id);
		r[i].cells[1] = xstrdup(status[i]);
		r[i].cells[2] = xstrdup(i % 2 ? "1x RTX 4090" : "2x V100");
		r[i].keys[0] = (double)r[i].id;
		r[i].cell_role_col = 1;
		r[i].group = i % 2 ? "failed" : NULL;
	}
	table_set_rows(&t, r, 4);
	struct list *l = table_list(&t);
	list_set_filter(l, "status=failed");
	assert_int_equal(list_count_shown(l), 2);
	assert_int_equal(table_row_at(&t, 0)->id, 10); /* failed start */
	assert_int_equal(table_row_at(&t, 1)->id, 30); /* crashed */
	list_set_filter(l, "!status=failed gpu=v100");
	assert_int_equal(list_count_shown(l), 2);
	assert_int_equal(table_row_at(&t, 0)->id, 20);
	list_set_filter(l, "rtx 4090");
	assert_int_equal(list_count_shown(l), 2);
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_through_the_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
