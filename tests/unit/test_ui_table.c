/* test_ui_table.c: the instance table's pure parts: column widths that fit
 * the terminal by dropping the least important columns, sorting (numeric,
 * text, reversed, unknown values last), the incremental filter over visible
 * columns, and a selection that follows its id across refreshes; the list
 * under it (its filter, moves and marks, as the framework drives them); plus the
 * rows built from instances (status names, pending badges, SSH address). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "dump/instcol.h"
#include "views/instances/pane_instances.h"
#include "idlewatch.h"
#include "widgets/table.h"
#include "base/util.h"

static const struct table_col cols[] = {
	{ "ID", 6, 8, 0, true, true, false, NULL, 0 },     { "NAME", 6, 0, 3, false, false, false, NULL, 0 },
	{ "STATUS", 8, 12, 0, false, false, false, NULL, 0 }, { "PRICE", 6, 7, 1, true, true, false, NULL, 0 },
	{ "EXTRA", 10, 0, 5, false, false, false, NULL, 0 },
};
#define NC 5

/* Rows: id, name, status, price (NAN: unknown). */
static struct table_row *rows_of(const long *ids, const char *const *names, const double *prices,
				 size_t n)
{
	struct table_row *r = xcalloc(n, sizeof *r);
	for (size_t i = 0; i < n; i++) {
		r[i].id = ids[i];
		r[i].cells[0] = xasprintf("%ld", ids[i]);
		r[i].keys[0] = (double)ids[i];
		r[i].cells[1] = xstrdup(names[i]);
		r[i].cells[2] = xstrdup(i % 2 ? "running" : "stopped");
		r[i].cells[3] = isnan(prices[i]) ? xstrdup("-") : xasprintf("$%.2f", prices[i]);
		r[i].keys[3] = prices[i];
		r[i].cells[4] = xstrdup("hidden-text");
	}
	return r;
}

static const long ids[] = { 30, 10, 20, 40 };
static const char *const names[] = { "beta", "Alpha", "gamma", "delta" };
static const double prices[] = { 0.5, NAN, 0.25, 2.0 };

static void test_widths_fit_and_drop(void **state)
{
	(void)state;
	int w[NC];
	/* wide: everything shown, sum plus separators equals the width */
	unsigned shown = table_widths(cols, NC, 100, w);
	assert_int_equal(shown, 0x1f);
	int total = -1;
	for (int c = 0; c < NC; c++)
		total += w[c] + 1;
	assert_int_equal(total, 100);
	assert_true(w[0] <= 8 && w[2] <= 12 && w[3] <= 7); /* bounded columns stay bounded */
	/* narrow: EXTRA (prio 5) goes first, then NAME (3) */
	shown = table_widths(cols, NC, 30, w);
	assert_false(shown & (1u << 4));
	assert_true(shown & (1u << 1));
	assert_int_equal(w[4], 0);
	shown = table_widths(cols, NC, 22, w);
	assert_int_equal(shown, 0x1 | 0x4 | 0x8);
	total = -1;
	for (int c = 0; c < NC; c++)
		if (shown & (1u << c))
			total += w[c] + 1;
	assert_true(total <= 22);
	/* too narrow even for the essentials: still within the width */
	shown = table_widths(cols, NC, 12, w);
	total = -1;
	for (int c = 0; c < NC; c++)
		if (shown & (1u << c))
			total += w[c] + 1;
	assert_true(total <= 12);
	assert_true(shown & 1u);
}

/* A whole column (an SSH address) is as wide as its widest cell and is
 * dropped, never cut, when that does not fit. */
static void test_whole_column_never_cut(void **state)
{
	(void)state;
	static const struct table_col wc[3] = {
		{ "ID", 4, 6, 0, true, true, true, NULL, 0 },
		{ "NAME", 4, 0, 1, false, false, false, NULL, 0 },
		{ "SSH", 8, 10, 2, false, false, true, NULL, 0 },
	};
	struct table t;
	table_init(&t, wc, 3, 0);
	struct table_row *r = xcalloc(2, sizeof *r);
	const char *ssh[2] = { "198.51.100.38:59843", "ssh2.vast.ai:3912" };
	for (int i = 0; i < 2; i++) {
		r[i].id = i + 1;
		r[i].cells[0] = xasprintf("%d", i + 1);
		r[i].cells[1] = xstrdup("name");
		r[i].cells[2] = xstrdup(ssh[i]);
	}
	table_set_rows(&t, r, 2);
	assert_int_equal(t.natural[2], 19); /* the widest address */
	assert_int_equal(t.natural[1], 0);  /* not whole: not measured */
	int w[3];
	/* room: exactly the natural width (beyond its max of 10), never more */
	unsigned shown = table_widths_fit(wc, 3, 60, t.natural, w);
	assert_int_equal(shown, 0x7);
	assert_int_equal(w[2], 19);
	assert_int_equal(w[0], 4);
	/* 4+1+4+1+19 = 29 columns needed: at 28 the address is dropped whole
	 * (its 8-cell minimum would have fitted, cut), NAME stays */
	shown = table_widths_fit(wc, 3, 28, t.natural, w);
	assert_false(shown & 0x4);
	assert_int_equal(w[2], 0);
	assert_true(shown & 0x2);
	/* without natural widths the old behaviour: bounded by max_w */
	shown = table_widths(wc, 3, 60, w);
	assert_int_equal(w[2], 10);
	table_free(&t);
}

static void test_sort(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, 0);
	table_set_rows(&t, rows_of(ids, names, prices, 4), 4);
	assert_int_equal(table_count(&t), 4);
	assert_int_equal(table_row_at(&t, 0)->id, 10);
	assert_int_equal(table_row_at(&t, 3)->id, 40);
	table_set_sort(&t, 0, true);
	assert_int_equal(table_row_at(&t, 0)->id, 40);
	/* text sort is case-insensitive */
	table_set_sort(&t, 1, false);
	assert_string_equal(table_row_at(&t, 0)->cells[1], "Alpha");
	assert_string_equal(table_row_at(&t, 1)->cells[1], "beta");
	/* numeric, unknown last */
	table_set_sort(&t, 3, false);
	assert_int_equal(table_row_at(&t, 0)->id, 20);
	assert_int_equal(table_row_at(&t, 1)->id, 30);
	assert_int_equal(table_row_at(&t, 2)->id, 40);
	assert_int_equal(table_row_at(&t, 3)->id, 10);
	/* stepping wraps around */
	table_set_sort(&t, 0, false);
	table_sort_step(&t, -1);
	assert_int_equal(t.sort_col, NC - 1);
	table_sort_step(&t, 1);
	assert_int_equal(t.sort_col, 0);
	assert_int_equal(table_col_by_name(&t, "price"), 3);
	assert_int_equal(table_col_by_name(&t, "nope"), -1);
	table_free(&t);
}

static void test_filter(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, 0);
	table_set_rows(&t, rows_of(ids, names, prices, 4), 4);
	table_set_filter(&t, "ALP");
	assert_int_equal(table_count(&t), 1);
	assert_int_equal(table_row_at(&t, 0)->id, 10);
	table_set_filter(&t, "running");
	assert_int_equal(table_count(&t), 2);
	table_set_filter(&t, "$2.00");
	assert_int_equal(table_count(&t), 1);
	/* only visible columns match */
	table_set_filter(&t, "hidden");
	assert_int_equal(table_count(&t), 4);
	table_set_visible(&t, 0x0f);
	assert_int_equal(table_count(&t), 0);
	assert_null(table_selected(&t));
	table_set_filter(&t, "");
	assert_int_equal(table_count(&t), 4);
	table_free(&t);
}

static void test_selection_follows_id(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, 0);
	table_set_rows(&t, rows_of(ids, names, prices, 4), 4);
	assert_int_equal(table_selected(&t)->id, 10); /* first row by default */
	assert_true(table_select_id(&t, 30));
	/* re-sorting keeps the id */
	table_set_sort(&t, 0, true);
	assert_int_equal(table_selected(&t)->id, 30);
	/* a refresh with new rows in another order keeps the id */
	static const long ids2[] = { 50, 30, 5 };
	static const char *const names2[] = { "ee", "b", "zz" };
	static const double prices2[] = { 1, 1, 1 };
	table_set_rows(&t, rows_of(ids2, names2, prices2, 3), 3);
	assert_int_equal(table_selected(&t)->id, 30);
	/* a filter that hides it, then clears: back on it */
	table_set_filter(&t, "zz");
	assert_int_equal(table_selected(&t)->id, 5);
	table_set_filter(&t, "");
	assert_int_equal(table_selected(&t)->id, 5);
	/* the selected row disappears: the selection stays at its place */
	table_select_id(&t, 30); /* view: 50, 30, 5 (id descending) */
	static const long ids3[] = { 50, 5 };
	table_set_rows(&t, rows_of(ids3, names2, prices2, 2), 2);
	assert_int_equal(table_selected(&t)->id, 5);
	table_free(&t);
}

static void test_moves_and_scroll(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, 0);
	long many[30];
	const char *nm[30];
	double pr[30];
	for (int i = 0; i < 30; i++) {
		many[i] = i + 1;
		nm[i] = "n";
		pr[i] = i;
	}
	table_set_rows(&t, rows_of(many, nm, pr, 30), 30);
	table_move(&t, -5);
	assert_int_equal(list_selected_pos(&t.nav), 0);
	table_move(&t, 12);
	assert_int_equal(table_selected(&t)->id, 13);
	table_scroll(&t, 10);
	assert_int_equal(t.nav.top, 3);
	table_end(&t);
	assert_int_equal(table_selected(&t)->id, 30);
	table_scroll(&t, 10);
	assert_int_equal(t.nav.top, 20);
	table_home(&t);
	table_scroll(&t, 10);
	assert_int_equal(t.nav.top, 0);
	table_move(&t, 1000);
	assert_int_equal(list_selected_pos(&t.nav), 29);
	table_free(&t);
}

/* The framework acts on the table through its list (view_ops.list): the
 * filter, with COLUMN=VALUE on the table's columns and !TEXT, the moves
 * and the paging are the list's over the table's sort order. */
static void test_list_filters_and_moves_the_table(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, 0); /* by id: 10 20 30 40 */
	table_set_rows(&t, rows_of(ids, names, prices, 4), 4);
	struct list *l = table_list(&t);
	list_set_filter(l, "status=running"); /* ids 10, 40 (rows 1 and 3) */
	assert_string_equal(table_filter(&t), "status=running");
	assert_int_equal(table_count(&t), 2);
	assert_int_equal(table_row_at(&t, 0)->id, 10);
	assert_int_equal(table_row_at(&t, 1)->id, 40);
	assert_null(table_row_at(&t, 2));
	list_set_filter(l, "!status=running name=a"); /* 20 gamma, 30 beta */
	assert_int_equal(table_count(&t), 2);
	assert_int_equal(table_row_at(&t, 0)->id, 20);
	list_set_filter(l, "!hidden"); /* every row shows hidden-text: none */
	assert_int_equal(table_count(&t), 0);
	assert_null(table_selected(&t));
	list_set_filter(l, "");
	/* the moves: in sort order, clamped; a page is the rows drawn less one */
	list_set_height(l, 3);
	assert_true(list_action(l, ACT_BOTTOM));
	assert_int_equal(table_selected(&t)->id, 40);
	assert_true(list_action(l, ACT_PAGE_UP));
	assert_int_equal(table_selected(&t)->id, 20);
	assert_true(list_action(l, ACT_UP));
	assert_int_equal(table_selected(&t)->id, 10);
	assert_true(list_action(l, ACT_UP));
	assert_int_equal(table_selected(&t)->id, 10);
	/* a sort moves the rows, the selection stays on its id */
	table_set_sort(&t, 0, true); /* 40 30 20 10 */
	assert_int_equal(table_selected(&t)->id, 10);
	assert_int_equal(list_selected_pos(l), 3);
	assert_true(list_action(l, ACT_TOP));
	assert_int_equal(table_selected(&t)->id, 40);
	table_free(&t);
}

/* Marks are the list's, by row id: they follow their rows across sorts and
 * refreshes, count as hidden under a filter, and go with their rows. */
static void test_marks_on_the_table(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, 0);
	table_set_rows(&t, rows_of(ids, names, prices, 4), 4);
	struct list *l = table_list(&t);
	table_select_id(&t, 30);
	assert_true(list_mark_toggle(l, list_selected(l)));
	table_select_id(&t, 10);
	assert_true(list_mark_toggle(l, list_selected(l)));
	size_t n;
	const long *m = list_marks(l, &n);
	assert_int_equal(n, 2);
	assert_int_equal(m[0], 30); /* in marking order */
	assert_int_equal(m[1], 10);
	table_set_sort(&t, 0, true); /* 40 30 20 10: the marks stay on 30 and 10 */
	assert_true(list_marked(l, list_row_at(l, 1)));
	assert_true(list_marked(l, list_row_at(l, 3)));
	assert_false(list_marked(l, list_row_at(l, 0)));
	table_set_filter(&t, "status=stopped"); /* 30 and 20 shown: 10 hidden */
	assert_int_equal(list_marks_hidden(l), 1);
	table_set_filter(&t, "");
	/* a refresh without 30: its mark stays until pruned, then goes */
	static const long ids2[] = { 10, 20, 40 };
	table_set_rows(&t, rows_of(ids2, names, prices, 3), 3);
	assert_int_equal(list_nmarks(l), 2);
	assert_int_equal(list_marks_hidden(l), 1);
	list_marks_prune(l);
	m = list_marks(l, &n);
	assert_int_equal(n, 1);
	assert_int_equal(m[0], 10);
	assert_int_equal(list_marks_hidden(l), 0);
	table_free(&t);
}

/* A table whose rows get their cells when first drawn (the offers'): the
 * filter makes the cells it reads through table.cells. */
static int cells_made;

static void make_cells(void *ctx, struct table_row *row, size_t i)
{
	(void)ctx;
	struct table_row *r = rows_of(&ids[i], &names[i], &prices[i], 1);
	for (int c = 0; c < NC; c++)
		row->cells[c] = r->cells[c];
	free(r);
	cells_made++;
}

static void test_filter_makes_cells(void **state)
{
	(void)state;
	struct table t;
	table_init(&t, cols, NC, -1); /* the rows' own order */
	t.cells = make_cells;
	struct table_row *rows = xcalloc(4, sizeof *rows);
	for (size_t i = 0; i < 4; i++)
		rows[i].id = ids[i];
	cells_made = 0;
	table_set_rows(&t, rows, 4);
	assert_int_equal(cells_made, 0); /* no filter: nothing made */
	list_set_filter(table_list(&t), "gamma");
	assert_int_equal(cells_made, 4);
	assert_int_equal(table_count(&t), 1);
	assert_int_equal(table_row_at(&t, 0)->id, 20);
	assert_int_equal(table_index(&t, list_selected(table_list(&t))), 2);
	table_free(&t);
}

static struct instance inst(long id, const char *actual, const char *intended)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = id;
	x.label = (char *)"job";
	x.actual_status = (char *)actual;
	x.intended_status = (char *)intended;
	x.cur_state = x.next_state = x.status_msg = (char *)"";
	x.state = instance_derive_state(actual, intended, "", "");
	x.gpu_name = (char *)"RTX 4090";
	x.num_gpus = 2;
	x.gpu_util = NAN;
	x.dph_total = 0.412;
	x.image = (char *)"pytorch";
	x.ssh_host = (char *)"ssh4.example";
	x.ssh_port = 20001;
	x.public_ip = (char *)"";
	x.start_date = 1000;
	x.machine_id = 77;
	x.template_hash_id = x.template_name = x.geolocation = x.verification = x.runtype = (char *)"";
	return x;
}

static void test_instance_rows(void **state)
{
	(void)state;
	struct instance x = inst(42, "running", "running");
	struct snapshot s;
	memset(&s, 0, sizeof s);
	s.npending = 1;
	s.pending[0] = (struct pending){ 7, JOB_STOP, 42 };
	struct table_row r;
	pane_instances_row(&r, &x, &s, NULL, 1000 + 3600 + 300, INSTCOL_ASCII);
	assert_string_equal(r.cells[0], "42");
	assert_string_equal(r.cells[2], "running *stop");
	assert_string_equal(r.cells[3], "2x RTX 4090");
	assert_string_equal(r.cells[4], "-");
	assert_string_equal(r.cells[5], "$0.412");
	assert_string_equal(r.cells[6], "1h05m");
	assert_string_equal(r.cells[7], "ssh4.example:20001"); /* proxy when no direct port */
	assert_string_equal(r.cells[9], "77");
	assert_true(isnan(r.keys[4]));
	table_row_free(&r, TABLE_MAX_COLS);
	/* direct SSH wins; failed state names; no badge without a pending job */
	x = inst(43, "exited", "running");
	x.public_ip = (char *)"203.0.113.9";
	x.direct_ssh_port = 41022;
	pane_instances_row(&r, &x, &s, NULL, 2000, 0);
	assert_string_equal(r.cells[2], "crashed");
	assert_string_equal(r.cells[7], "203.0.113.9:41022");
	assert_int_equal(r.role, ROLE_FAILED);
	table_row_free(&r, TABLE_MAX_COLS);
	x = inst(44, "exited", "stopped");
	pane_instances_row(&r, &x, NULL, NULL, 2000, 0);
	assert_string_equal(r.cells[2], "stopped");
	assert_int_equal(r.role, ROLE_NORMAL);
	table_row_free(&r, TABLE_MAX_COLS);
	x = inst(45, "", "running");
	pane_instances_row(&r, &x, NULL, NULL, 2000, 0);
	assert_string_equal(r.cells[2], "provisioning");
	table_row_free(&r, TABLE_MAX_COLS);
}

/* The watch's flags end the status cell (what /idle and status=hot find)
 * and colour it; --dump (no watch) has none. */
static void test_watch_badges(void **state)
{
	(void)state;
	struct instance x = inst(46, "running", "running");
	x.gpu_util = 1;
	x.gpu_temp = 91;
	x.uptime_mins = NAN;
	x.disk_util = NAN;
	x.disk_space = 100;
	x.disk_usage = 95;
	const struct instance *v[1] = { &x };
	struct watch w;
	watch_init(&w);
	struct idle_conf c = { 5, 1800, 85, 0.9, NULL };
	struct watch_rise rise[4];
	assert_int_equal(watch_sample(&w, v, 1, &c, 1000, rise, 4), 2); /* hot, disk at once */
	struct table_row r;
	pane_instances_row(&r, &x, NULL, &w, 1000, INSTCOL_ASCII);
	assert_string_equal(r.cells[IC_STATUS], "running hot disk");
	assert_int_equal(r.cell_role, ROLE_WARNING);
	table_row_free(&r, TABLE_MAX_COLS);
	for (double t = 1300; t <= 2800; t += 300)
		watch_sample(&w, v, 1, &c, t, rise, 4);
	pane_instances_row(&r, &x, NULL, &w, 2800, INSTCOL_ASCII);
	assert_string_equal(r.cells[IC_STATUS], "running idle hot disk");
	table_row_free(&r, TABLE_MAX_COLS);
	pane_instances_row(&r, &x, NULL, NULL, 2800, INSTCOL_ASCII);
	assert_string_equal(r.cells[IC_STATUS], "running");
	assert_int_equal(r.cell_role, ROLE_RUNNING);
	table_row_free(&r, TABLE_MAX_COLS);
	watch_free(&w);
}

/* The GPU 1H column: the watch's last hour of GPU utilisation in 12 cells
 * of 5 minutes (UTF-8 eighths, ASCII levels), a gap while stopped or not
 * sent, sorted by the hour's mean; shown where there is room, dropped
 * before any other column, and not at all when hidden. */
static void test_hist_column(void **state)
{
	(void)state;
	struct instance x = inst(47, "running", "running");
	x.uptime_mins = NAN;
	x.disk_util = NAN;
	x.gpu_temp = 60;
	x.mem_usage = 8;
	x.mem_limit = 32;
	const struct instance *v[1] = { &x };
	struct watch w;
	watch_init(&w);
	struct idle_conf c = { 5, 1800, 85, 0.9, NULL };
	struct watch_rise rise[4];
	double t0 = 1.8e9 - fmod(1.8e9, 300); /* on a cell's boundary */
	/* 0 % for 5 min, 100 % for 5, not sent for 5, stopped for 5, 50 % for 40 */
	for (int m = 0; m < 60; m++) {
		double now = t0 + m * 60;
		x.gpu_util = m < 5 ? 0 : m < 10 ? 100 : m < 15 ? NAN : 50;
		x.state = m >= 15 && m < 20 ? IS_STOPPED : IS_RUNNING;
		watch_sample(&w, v, 1, &c, now, rise, 4);
	}
	double now = t0 + 59 * 60 + 1;
	const struct watch_row *r = watch_find(&w, 47);
	assert_non_null(r);
	char buf[64];
	double key;
	assert_string_equal(idlewatch_spark(r, now, true, buf, sizeof buf, &key), "_#  --------");
	assert_float_equal(key, (0 + 100 + 8 * 50) / 10.0, 1e-9);
	assert_string_equal(idlewatch_spark(r, now, false, buf, sizeof buf, NULL),
			    "\u2581\u2588  \u2585\u2585\u2585\u2585\u2585\u2585\u2585\u2585");
	/* the temperature and memory series too (the detail view's chart) */
	double tv[2];
	series8_values(&r->temp, now, tv, 2);
	assert_float_equal(tv[1], 60, 1e-9);
	series8_values(&r->mem, now, tv, 2);
	assert_float_equal(tv[1], 25, 1e-9);
	/* no row, or nothing in the hour: an empty cell */
	assert_string_equal(idlewatch_spark(NULL, now, true, buf, sizeof buf, &key), "");
	assert_true(isnan(key));
	assert_string_equal(idlewatch_spark(r, now + 7200, true, buf, sizeof buf, &key), "");
	/* through the table's accessor */
	struct table_row row;
	pane_instances_row(&row, &x, NULL, &w, now, INSTCOL_ASCII);
	assert_string_equal(row.cells[IC_HIST], "_#  --------");
	table_row_free(&row, TABLE_MAX_COLS);
	watch_free(&w);
	/* widths: at 240 every column, GPU 1H too; hidden: not; narrow: it goes first */
	int nat[IC__COUNT] = { 0 }, wd[IC__COUNT];
	nat[IC_ID] = 7;
	nat[IC_SSH] = 21;
	unsigned shown = pane_instances_widths(240, nat, wd, true);
	assert_true(shown & (1u << IC_HIST));
	assert_int_equal(wd[IC_HIST], IDLEWATCH_SPARK);
	shown = pane_instances_widths(240, nat, wd, false);
	assert_false(shown & (1u << IC_HIST));
	assert_int_equal(wd[IC_HIST], 0);
	unsigned with = pane_instances_widths(80, nat, wd, true);
	unsigned without = pane_instances_widths(80, nat, wd, false);
	assert_false(with & (1u << IC_HIST));
	assert_int_equal(with, without);
	/* 120: the label and image would lose their room: not shown */
	with = pane_instances_widths(120, nat, wd, true);
	assert_false(with & (1u << IC_HIST));
	int wl = wd[IC_LABEL];
	pane_instances_widths(120, nat, wd, false);
	assert_int_equal(wd[IC_LABEL], wl);
	shown = pane_instances_widths(150, nat, wd, true);
	assert_true(shown & (1u << IC_HIST));
	assert_true(shown & (1u << IC_MACHINE));
	assert_true(wd[IC_LABEL] >= PANE_INSTANCES_HIST_ROOM && wd[IC_IMAGE] >= PANE_INSTANCES_HIST_ROOM);
	/* 160: GPU 1H before location, reliability and uptime, which come back at 200 */
	shown = pane_instances_widths(160, nat, wd, true);
	assert_true(shown & (1u << IC_HIST));
	assert_false(shown & (1u << IC_LOCATION));
	shown = pane_instances_widths(200, nat, wd, true);
	assert_true(shown & (1u << IC_HIST) && shown & (1u << IC_LOCATION) && shown & (1u << IC_UPTIME));
}

/* issue 11: one formatter: the table's cells are instcol.c's (what
 * --dump prints), column by column, titles included. */
static void test_one_formatter(void **state)
{
	(void)state;
	struct instance x = inst(45, "running", "running");
	x.gpu_util = 93;
	struct table_row r;
	pane_instances_row(&r, &x, NULL, NULL, 5000, INSTCOL_ASCII);
	for (int c = 0; c < IC__COUNT; c++) {
		char buf[512];
		double key;
		instcol_format((enum instcol)c, &x, NULL, 5000, INSTCOL_ASCII, buf, sizeof buf, &key);
		assert_string_equal(r.cells[c], buf);
		if (isnan(key))
			assert_true(isnan(r.keys[c]));
		else
			assert_true(r.keys[c] == key);
	}
	assert_string_equal(instcol_title(IC_DPH), "$/H");
	assert_string_equal(instcol_title(IC_MACHINE), "MACHINE");
	table_row_free(&r, TABLE_MAX_COLS);
}

/* issue 12: at 200 columns more columns appear (machine, location,
 * reliability, uptime), not only wider ones; at 80 and 120 they do not;
 * a shown whole column is never narrower than its widest cell. */
static void test_wide_terminal_more_columns(void **state)
{
	(void)state;
	int nat[IC__COUNT] = { 0 };
	nat[IC_ID] = 7;
	nat[IC_SSH] = 21;      /* 203.0.113.200:40022 */
	nat[IC_MACHINE] = 5;
	nat[IC_LOCATION] = 17; /* United States, US */
	nat[IC_RELIAB] = 5;    /* 99.2% */
	nat[IC_UPTIME] = 6;    /* 12d03h */
	static const int widths[] = { 80, 120, 159, 160, 200, 240 };
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
		int width = widths[k], w[IC__COUNT];
		unsigned shown = pane_instances_widths(width, nat, w, false);
		int used = -1;
		for (int c = 0; c < IC__COUNT; c++) {
			if (!(shown & (1u << c))) {
				assert_int_equal(w[c], 0);
				continue;
			}
			used += w[c] + 1;
			if (nat[c])
				assert_true(w[c] >= nat[c]); /* never cut mid-value */
		}
		assert_true(used <= width);
		bool extra = shown & (1u << IC_LOCATION | 1u << IC_RELIAB | 1u << IC_UPTIME);
		if (width < PANE_INSTANCES_WIDE)
			assert_false(extra);
		if (width == 80) {
			assert_false(shown & (1u << IC_MACHINE));
			assert_true(shown & (1u << IC_ID) && shown & (1u << IC_STATUS));
		}
		if (width == 120)
			assert_true(shown & (1u << IC_MACHINE));
		if (width >= 200) {
			for (int c = 0; c < IC__COUNT; c++)
				assert_true((shown & (1u << c)) || c == IC_HIST); /* hidden (H) */
			assert_int_equal(used, width); /* the spare width still goes somewhere */
		}
	}
	/* the new cells, as --dump prints them too */
	struct instance x = inst(46, "running", "running");
	x.geolocation = (char *)"Texas, US";
	x.reliability = 0.9921;
	x.uptime_mins = 3 * 1440 + 65;
	char buf[64];
	double key;
	assert_string_equal(instcol_format(IC_LOCATION, &x, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key),
			    "Texas, US");
	assert_string_equal(instcol_format(IC_RELIAB, &x, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key), "99.2%");
	assert_true(key == 0.9921);
	assert_string_equal(instcol_format(IC_UPTIME, &x, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key), "3d01h");
	x.uptime_mins = NAN; /* null while the container is not up */
	x.reliability = NAN;
	x.geolocation = (char *)"";
	assert_string_equal(instcol_format(IC_UPTIME, &x, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key), "-");
	assert_true(isnan(key));
	assert_string_equal(instcol_format(IC_RELIAB, &x, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key), "-");
	assert_string_equal(instcol_format(IC_LOCATION, &x, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key), "-");
	assert_string_equal(instcol_title(IC_RELIAB), "RELIAB");
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_formatter),
		cmocka_unit_test(test_widths_fit_and_drop),
		cmocka_unit_test(test_whole_column_never_cut),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_selection_follows_id),
		cmocka_unit_test(test_moves_and_scroll),
		cmocka_unit_test(test_list_filters_and_moves_the_table),
		cmocka_unit_test(test_marks_on_the_table),
		cmocka_unit_test(test_filter_makes_cells),
		cmocka_unit_test(test_instance_rows),
		cmocka_unit_test(test_watch_badges),
		cmocka_unit_test(test_hist_column),
		cmocka_unit_test(test_wide_terminal_more_columns),
	};
	return cmocka_run_group_tests_name("ui_table", tests, NULL, NULL);
}
