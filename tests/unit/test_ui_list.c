/* test_ui_list.c: the list/pager widget: the filter language (plain text,
 * COLUMN=VALUE, !TEXT, several terms), the rows it shows, moves clamped to
 * the rows, paging by the height drawn, the selection kept visible and kept
 * on its id across new rows and filters, the pager's scrolling, marks
 * (hidden by a filter, counted), and list_draw's lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "widgets/list.h"

/* Rows: a name and a state; id 100 + the index into all[] (rows may be
 * given from an offset, as new rows arrive in front). */
struct row {
	const char *name;
	const char *state;
};
static const struct row all[] = {
	{ "alpha", "running" }, { "beta", "stopped" }, { "gamma", "running" },
	{ "delta", "failed" },  { "epsilon", "running" }, { "zeta two", "stopped" },
	{ "eta", "running" },   { "theta", "running" },  { "iota", "failed" },
	{ "kappa", "running" },
};
#define NALL (sizeof all / sizeof all[0])

struct src {
	size_t off; /* row i is all[off + i] */
};

static void r_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct src *s = ctx;
	snprintf(buf, n, "%s %s", all[s->off + i].name, all[s->off + i].state);
}

static bool r_field(const void *ctx, size_t i, const char *col, size_t ncol, char *buf, size_t n)
{
	const struct src *s = ctx;
	if (ncol == 5 && strncasecmp(col, "state", 5) == 0) {
		snprintf(buf, n, "%s", all[s->off + i].state);
		return true;
	}
	if (ncol == 4 && strncasecmp(col, "name", 4) == 0) {
		snprintf(buf, n, "%s", all[s->off + i].name);
		return true;
	}
	return false;
}

static long r_id(const void *ctx, size_t i)
{
	const struct src *s = ctx;
	return 100 + (long)(s->off + i);
}

static const struct list_ops ops = { r_text, r_field, NULL, r_id };
static const struct list_ops ops_noid = { r_text, r_field, NULL, NULL };

static struct src src0 = { 0 };

static size_t shown(const struct list *l, const char *filter)
{
	struct list c = *l;
	c.shown = NULL;
	c.cap = 0;
	c.marks = NULL;
	c.nmarks = c.capmarks = 0;
	list_set_filter(&c, filter);
	size_t n = list_count_shown(&c);
	list_free(&c);
	return n;
}

static void test_filter_language(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops, &src0, false);
	list_set_count(&l, NALL);
	assert_int_equal(shown(&l, ""), NALL);
	assert_int_equal(shown(&l, "RUNNING"), 6);         /* case-insensitive text */
	assert_int_equal(shown(&l, "zeta two"), 1);        /* plain text keeps its spaces */
	assert_int_equal(shown(&l, "state=failed"), 2);    /* a field */
	assert_int_equal(shown(&l, "state=run"), 6);       /* a field holds the value */
	assert_int_equal(shown(&l, "!running"), 4);        /* negation */
	assert_int_equal(shown(&l, "state=running !eta"), 4); /* every term: not theta, eta... */
	assert_int_equal(shown(&l, "name=eta"), 4);        /* beta, zeta two, eta, theta */
	list_free(&l);
}

/* The negation and the term split apply to fields; a COLUMN the rows lack
 * is plain text ("a=b" in the text). */
static void test_filter_unknown_column_is_text(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops, &src0, false);
	list_set_count(&l, NALL);
	assert_int_equal(shown(&l, "nosuch=x"), 0);
	assert_int_equal(shown(&l, "!state=running"), 4);
	list_free(&l);
}

static int count_term(const void *arg, const char *col, size_t ncol, const char *value)
{
	(void)ncol;
	const char *text = arg;
	if (col)
		return -1; /* no columns: every COLUMN=VALUE is text */
	return list_contains(text, value);
}

static void test_filter_match_parser(void **state)
{
	(void)state;
	assert_true(list_filter_match("", count_term, "abc"));
	assert_true(list_filter_match(NULL, count_term, "abc"));
	assert_true(list_filter_match("B", count_term, "abc"));
	assert_false(list_filter_match("!b", count_term, "abc"));
	assert_true(list_filter_match("a=b", count_term, "xa=by"));
	assert_false(list_filter_match("a=b", count_term, "xay"));
	assert_true(list_filter_match("a !z", count_term, "abc")); /* two terms */
	assert_false(list_filter_match("a !c", count_term, "abc"));
	assert_true(list_filter_match("!", count_term, "a!b"));    /* a bare ! is text */
	assert_false(list_filter_match("!", count_term, "ab"));
}

static void test_moves_clamped_and_paged(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops, &src0, false);
	list_set_count(&l, NALL);
	list_set_height(&l, 4);
	assert_int_equal(list_selected(&l), 0);
	assert_true(list_action(&l, ACT_UP)); /* at the top: taken, no move */
	assert_int_equal(list_selected(&l), 0);
	assert_true(list_action(&l, ACT_DOWN));
	assert_int_equal(list_selected(&l), 1);
	assert_true(list_action(&l, ACT_PAGE_DOWN)); /* a page: height - 1 */
	assert_int_equal(list_selected(&l), 4);
	assert_true(l.top <= 4 && 4 < l.top + 4); /* kept visible */
	assert_true(list_action(&l, ACT_BOTTOM));
	assert_int_equal(list_selected(&l), NALL - 1);
	assert_int_equal(l.top, NALL - 4);
	assert_true(list_action(&l, ACT_DOWN));
	assert_int_equal(list_selected(&l), NALL - 1);
	assert_true(list_action(&l, ACT_PAGE_UP));
	assert_int_equal(list_selected(&l), NALL - 4);
	assert_true(list_action(&l, ACT_TOP));
	assert_int_equal(list_selected(&l), 0);
	assert_int_equal(l.top, 0);
	assert_false(list_action(&l, ACT_FILTER)); /* not a move */
	assert_false(list_action(&l, ACT_BACK));
	list_free(&l);
}

/* Moves within the shown rows: the filter's, not the view's. */
static void test_moves_over_filtered_rows(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops, &src0, false);
	list_set_count(&l, NALL);
	list_set_filter(&l, "state=failed");
	assert_int_equal(list_count_shown(&l), 2);
	assert_int_equal(list_selected(&l), 3); /* delta */
	list_action(&l, ACT_DOWN);
	assert_int_equal(list_selected(&l), 8); /* iota */
	list_action(&l, ACT_DOWN);
	assert_int_equal(list_selected(&l), 8);
	list_set_filter(&l, "nothing matches this");
	assert_int_equal(list_selected(&l), LIST_NONE);
	list_action(&l, ACT_DOWN); /* no rows: no crash, nothing selected */
	assert_int_equal(list_selected(&l), LIST_NONE);
	list_free(&l);
}

/* The selection stays on its row (by id) when rows arrive in front of it,
 * and when a filter keeps it; a filter that hides it goes to the first row. */
static void test_selection_follows_id(void **state)
{
	(void)state;
	struct src s = { 3 };
	struct list l;
	list_init(&l, &ops, &s, false);
	list_set_count(&l, NALL - 3);
	list_set_height(&l, 20);
	list_move(&l, 2); /* epsilon... all[5] = zeta two */
	assert_int_equal(r_id(&s, list_selected(&l)), 105);
	s.off = 0; /* three rows arrive in front */
	list_set_count(&l, NALL);
	assert_int_equal(r_id(&s, list_selected(&l)), 105);
	list_set_filter(&l, "stopped"); /* beta, zeta two */
	assert_int_equal(r_id(&s, list_selected(&l)), 105);
	list_set_filter(&l, "nothing matches"); /* every row hidden: the id is kept */
	assert_int_equal(list_selected(&l), LIST_NONE);
	list_set_filter(&l, "");
	assert_int_equal(r_id(&s, list_selected(&l)), 105);
	list_set_filter(&l, "running"); /* zeta is hidden: the first row */
	assert_int_equal(list_selected(&l), 0);
	list_free(&l);
}

/* Without ids the selection keeps its position, clamped to the rows. */
static void test_selection_by_position(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops_noid, &src0, false);
	list_set_count(&l, NALL);
	list_move(&l, 7);
	list_set_count(&l, NALL); /* the same rows: the same place */
	assert_int_equal(list_selected(&l), 7);
	list_set_count(&l, 5);
	assert_int_equal(list_selected(&l), 4);
	list_set_count(&l, 0);
	assert_int_equal(list_selected(&l), LIST_NONE);
	list_free(&l);
}

/* A pager scrolls: no selection, the top within the lines. */
static void test_pager_scrolls(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops, &src0, true);
	list_set_count(&l, NALL);
	list_set_height(&l, 4);
	assert_int_equal(list_selected(&l), LIST_NONE);
	list_action(&l, ACT_DOWN);
	assert_int_equal(l.top, 1);
	list_action(&l, ACT_BOTTOM);
	assert_int_equal(l.top, NALL - 4); /* the last page, never past it */
	list_action(&l, ACT_DOWN);
	assert_int_equal(l.top, NALL - 4);
	list_action(&l, ACT_PAGE_UP);
	assert_int_equal(l.top, NALL - 4 - 3);
	list_action(&l, ACT_UP);
	list_action(&l, ACT_TOP);
	assert_int_equal(l.top, 0);
	assert_true(list_select(&l, 5)); /* a section: scrolled to the top */
	assert_int_equal(l.top, 5);
	list_set_filter(&l, "running"); /* the filter shows its first lines */
	assert_int_equal(l.top, 0);
	assert_false(list_select(&l, 1)); /* beta is filtered out */
	list_free(&l);
}

struct drawn {
	size_t rows[8];
	bool sel[8];
	int ys[8];
	int n;
};

static void rec_draw(void *dctx, size_t row, bool selected, int y)
{
	struct drawn *d = dctx;
	d->rows[d->n] = row;
	d->sel[d->n] = selected;
	d->ys[d->n] = y;
	d->n++;
}

/* list_draw: one call a line, the selected one marked, then LIST_NONE
 * for the lines below the rows; the selection scrolled into view. */
static void test_draw_lines(void **state)
{
	(void)state;
	struct list l;
	list_init(&l, &ops, &src0, false);
	list_set_count(&l, NALL);
	list_set_filter(&l, "state=failed");
	list_action(&l, ACT_DOWN);
	struct drawn d = { 0 };
	list_draw(&l, 3, 4, rec_draw, &d);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.rows[0], 3);
	assert_false(d.sel[0]);
	assert_int_equal(d.rows[1], 8);
	assert_true(d.sel[1]);
	assert_int_equal(d.rows[2], LIST_NONE);
	assert_int_equal(d.rows[3], LIST_NONE);
	assert_int_equal(d.ys[0], 3);
	assert_int_equal(d.ys[3], 6);
	list_set_filter(&l, "");
	list_select(&l, 9);
	memset(&d, 0, sizeof d);
	list_draw(&l, 0, 3, rec_draw, &d);
	assert_int_equal(d.rows[2], 9); /* scrolled: the selection on the last line */
	assert_true(d.sel[2]);
	list_free(&l);
}

/* Marks follow their row's id; a filter that hides a marked row leaves
 * the mark, counted as hidden. */
static void test_marks_hidden_by_filter(void **state)
{
	(void)state;
	struct src s = { 2 };
	struct list l;
	list_init(&l, &ops, &s, false);
	list_set_count(&l, NALL - 2);
	assert_true(list_mark_toggle(&l, 1));  /* delta (id 103) */
	assert_true(list_mark_toggle(&l, 2));  /* epsilon (id 104) */
	assert_false(list_mark_toggle(&l, 2)); /* unmarked again */
	assert_int_equal(list_nmarks(&l), 1);
	s.off = 0; /* rows arrive in front: the mark stays on delta */
	list_set_count(&l, NALL);
	assert_true(list_marked(&l, 3));
	assert_false(list_marked(&l, 1));
	assert_int_equal(list_marks_hidden(&l), 0);
	list_set_filter(&l, "running");
	assert_int_equal(list_marks_hidden(&l), 1);
	list_marks_clear(&l);
	assert_int_equal(list_nmarks(&l), 0);
	assert_int_equal(list_marks_hidden(&l), 0);
	list_free(&l);
}

/* The marked ids in marking order (a bulk action lists them so), an
 * unmark in the middle keeping the others' order; a bulk action drops the
 * ones it acted on; a prune forgets the ids no row has any more. */
static void test_marks_order_drop_prune(void **state)
{
	(void)state;
	struct src s = { 0 };
	struct list l;
	list_init(&l, &ops, &s, false);
	list_set_count(&l, NALL);
	list_mark_toggle(&l, 3);
	list_mark_toggle(&l, 0);
	list_mark_toggle(&l, 4);
	list_mark_toggle(&l, 2);
	list_mark_toggle(&l, 0); /* unmarked: 103 104 102 stay in that order */
	size_t n;
	const long *m = list_marks(&l, &n);
	assert_int_equal(n, 3);
	assert_int_equal(m[0], 103);
	assert_int_equal(m[1], 104);
	assert_int_equal(m[2], 102);
	static const long acted[] = { 104, 999 }; /* 999: not marked, ignored */
	list_marks_drop(&l, acted, 2);
	m = list_marks(&l, &n);
	assert_int_equal(n, 2);
	assert_int_equal(m[0], 103);
	assert_int_equal(m[1], 102);
	s.off = 3; /* rows 100..102 gone: 102's mark with them once pruned */
	list_set_count(&l, NALL - 3);
	list_set_filter(&l, "running"); /* a mark hidden by a filter is kept */
	list_marks_prune(&l);
	m = list_marks(&l, &n);
	assert_int_equal(n, 1);
	assert_int_equal(m[0], 103);
	list_free(&l);
}

/* A view with its own matcher (the table's rows) gets the whole filter. */
static bool m_even(const void *ctx, size_t i, const char *filter)
{
	(void)ctx;
	return strcmp(filter, "even") == 0 ? i % 2 == 0 : true;
}

static void test_match_callback(void **state)
{
	(void)state;
	static const struct list_ops mops = { NULL, NULL, m_even, NULL };
	struct list l;
	list_init(&l, &mops, NULL, false);
	list_set_count(&l, 7);
	list_set_filter(&l, "even");
	assert_int_equal(list_count_shown(&l), 4);
	assert_int_equal(list_row_at(&l, 3), 6);
	assert_int_equal(list_row_at(&l, 4), LIST_NONE);
	list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_language),
		cmocka_unit_test(test_filter_unknown_column_is_text),
		cmocka_unit_test(test_filter_match_parser),
		cmocka_unit_test(test_moves_clamped_and_paged),
		cmocka_unit_test(test_moves_over_filtered_rows),
		cmocka_unit_test(test_selection_follows_id),
		cmocka_unit_test(test_selection_by_position),
		cmocka_unit_test(test_pager_scrolls),
		cmocka_unit_test(test_draw_lines),
		cmocka_unit_test(test_marks_hidden_by_filter),
		cmocka_unit_test(test_marks_order_drop_prune),
		cmocka_unit_test(test_match_callback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
