/* test_ui_refill.c: the instance table at fleet scale (issue 11): a refill
 * keeps the rows whose record did not change (their cells, their place in
 * the order) and formats only the changed ones, which it puts where the
 * sort says; a removed row goes, the selection stays on its id; the result
 * is the same as a full rebuild.  Also the texts that change with the clock
 * only in steps (the AGE cell by the minute, the header's "refreshed" and
 * sweep age), and the record comparison a sweep uses to keep revs. */
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

#include "header.h"
#include "dump/instcol.h"
#include "state/model.h"
#include "widgets/table.h"
#include "base/util.h"

struct rec {
	long id;
	uint64_t rev;
	char name[16];
	double price; /* NAN: unknown */
};

static int builds; /* rows formatted (the NAME accessor's calls) */

static void cell(const void *r, const void *ctx, int arg, char *buf, size_t n, double *key)
{
	(void)ctx;
	const struct rec *x = r;
	switch (arg) {
	case 0: snprintf(buf, n, "%ld", x->id); *key = (double)x->id; break;
	case 1: snprintf(buf, n, "%s", x->name); builds++; break;
	case 2:
		if (isnan(x->price))
			snprintf(buf, n, "-");
		else
			snprintf(buf, n, "$%.2f", x->price);
		*key = x->price;
		break;
	default: break;
	}
}

static const struct table_col cols[] = {
	{ "ID", 4, 8, 0, true, true, true, cell, 0 },
	{ "NAME", 6, 0, 3, false, false, false, cell, 1 },
	{ "PRICE", 6, 7, 1, true, true, false, cell, 2 },
};
#define NC 3

static const void *rec_at(const void *v, size_t i) { return (const struct rec *)v + i; }
static long rec_id(const void *r) { return ((const struct rec *)r)->id; }
static uint64_t rec_rev(const void *r) { return ((const struct rec *)r)->rev; }

static void fin(struct table_row *row, const void *r, const void *ctx)
{
	(void)ctx;
	row->id = ((const struct rec *)r)->id;
}

static struct rec recs[64];
static size_t nrecs;
static uint64_t next_rev = 1;

static void add(long id, const char *name, double price)
{
	struct rec *x = &recs[nrecs++];
	x->id = id;
	x->rev = next_rev++;
	snprintf(x->name, sizeof x->name, "%s", name);
	x->price = price;
}

static bool refill(struct table *t)
{
	builds = 0;
	return table_refill(t, recs, nrecs, rec_at, NULL, rec_id, rec_rev, fin);
}

/* The ids in view order, as "3 1 2". */
static const char *order(const struct table *t)
{
	static char buf[512];
	buf[0] = '\0';
	for (size_t i = 0; i < table_count(t); i++) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof buf - l, "%s%ld", i ? " " : "", table_row_at(t, i)->id);
	}
	return buf;
}

/* The same table rebuilt in full agrees with t (order and selection). */
static void same_as_full(const struct table *t)
{
	struct table f;
	table_init(&f, cols, NC, t->sort_col);
	f.sort_rev = t->sort_rev;
	table_set_filter(&f, table_filter(t));
	table_fill(&f, recs, nrecs, sizeof recs[0], NULL, fin);
	if (table_selected(t))
		table_select_id(&f, table_selected(t)->id);
	assert_string_equal(order(t), order(&f));
	char a[512];
	util_strlcpy(a, order(t), sizeof a);
	assert_string_equal(a, order(&f));
	if (table_count(t))
		assert_int_equal(table_selected(t)->id, table_selected(&f)->id);
	for (int c = 0; c < NC; c++)
		assert_int_equal(t->natural[c], f.natural[c]);
	table_free(&f);
}

static void test_unchanged_rows_kept(void **state)
{
	(void)state;
	nrecs = 0;
	add(10, "ten", 0.5);
	add(20, "twenty", 0.25);
	add(30, "thirty", 2.0);
	struct table t;
	table_init(&t, cols, NC, 2); /* by price */
	assert_true(refill(&t));
	assert_int_equal(builds, 3);
	assert_string_equal(order(&t), "20 10 30");
	const char *cells10 = t.rows[0].cells[1];
	/* the same records again: nothing built, nothing moved */
	assert_false(refill(&t));
	assert_int_equal(builds, 0);
	assert_ptr_equal(t.rows[0].cells[1], cells10);
	assert_string_equal(order(&t), "20 10 30");
	/* one allocation per row: the cells side by side in its block */
	assert_ptr_equal(t.rows[0].cells[0], t.rows[0].block);
	assert_string_equal(t.rows[0].cells[2], "$0.50");
	table_free(&t);
}

static void test_changed_row_reformatted_and_resorted(void **state)
{
	(void)state;
	nrecs = 0;
	add(10, "ten", 0.5);
	add(20, "twenty", 0.25);
	add(30, "thirty", 2.0);
	add(40, "forty", 1.0);
	struct table t;
	table_init(&t, cols, NC, 2);
	refill(&t);
	assert_true(table_select_id(&t, 40));
	const char *cells30 = t.rows[2].cells[1];
	/* 20 becomes the dearest: only it is formatted, and it moves last */
	const struct table_row *array = t.rows;
	recs[1].price = 9.0;
	recs[1].rev = next_rev++;
	assert_true(refill(&t));
	assert_int_equal(builds, 1);
	assert_ptr_equal(t.rows, array); /* the same ids: rebuilt in place */
	assert_string_equal(order(&t), "10 40 30 20");
	assert_string_equal(t.rows[1].cells[2], "$9.00");
	assert_ptr_equal(t.rows[2].cells[1], cells30); /* kept */
	assert_int_equal(table_selected(&t)->id, 40);   /* the selection by id */
	same_as_full(&t);
	/* a changed price that the record's rev does not say is not seen:
	 * the rev is what the table trusts */
	recs[0].price = 5.0;
	assert_false(refill(&t));
	assert_string_equal(t.rows[0].cells[2], "$0.50");
	/* reversed order, a changed row and a new one */
	recs[0].rev = next_rev++;
	table_set_sort(&t, 2, true);
	add(50, "fifty", 0.75);
	assert_true(refill(&t));
	assert_int_equal(builds, 2);
	assert_string_equal(order(&t), "20 10 30 40 50"); /* 9, 5, 2, 1, 0.75 */
	same_as_full(&t);
	table_free(&t);
}

static void test_removed_row_gone_selection_kept(void **state)
{
	(void)state;
	nrecs = 0;
	add(10, "ten", 0.5);
	add(20, "twenty", 0.25);
	add(30, "a-very-long-name", 2.0);
	add(1000030, "x", 3.0); /* the widest id */
	struct table t;
	table_init(&t, cols, NC, 0);
	refill(&t);
	assert_int_equal(t.natural[0], 7);
	assert_true(table_select_id(&t, 30));
	/* 20 goes: the selection stays on 30 */
	memmove(&recs[1], &recs[2], 2 * sizeof recs[0]);
	nrecs = 3;
	assert_true(refill(&t));
	assert_int_equal(builds, 0);
	assert_string_equal(order(&t), "10 30 1000030");
	assert_int_equal(table_selected(&t)->id, 30);
	same_as_full(&t);
	/* the selected row goes: the selection stays at its place */
	recs[1] = recs[2];
	nrecs = 2;
	refill(&t);
	assert_string_equal(order(&t), "10 1000030");
	assert_int_equal(table_selected(&t)->id, 1000030);
	/* the widest id went: the whole column narrows */
	nrecs = 1;
	refill(&t);
	assert_int_equal(t.natural[0], 2);
	same_as_full(&t);
	/* nothing left */
	nrecs = 0;
	assert_true(refill(&t));
	assert_int_equal(table_count(&t), 0);
	assert_null(table_selected(&t));
	table_free(&t);
}

static void test_filter_and_touch(void **state)
{
	(void)state;
	nrecs = 0;
	add(10, "alpha", 0.5);
	add(20, "beta", 0.25);
	add(30, "alpine", 2.0);
	struct table t;
	table_init(&t, cols, NC, 1);
	refill(&t);
	table_set_filter(&t, "alp");
	assert_string_equal(order(&t), "10 30");
	/* a changed row leaves the filter; a new one enters it */
	snprintf(recs[0].name, sizeof recs[0].name, "gamma");
	recs[0].rev = next_rev++;
	add(40, "alps", 1.0);
	assert_true(refill(&t));
	assert_string_equal(order(&t), "30 40");
	same_as_full(&t);
	/* touched: every row is formatted again */
	table_touch(&t);
	assert_true(refill(&t));
	assert_int_equal(builds, 4);
	assert_string_equal(order(&t), "30 40");
	table_free(&t);
}

/* Many random rounds of changes, insertions and removals: the incremental
 * table always equals a full rebuild. */
static void test_random_rounds_match_full(void **state)
{
	(void)state;
	srand(11);
	nrecs = 0;
	for (long id = 1; id <= 40; id++) {
		char nm[16];
		snprintf(nm, sizeof nm, "n%02d", rand() % 30);
		add(id * 3, nm, (rand() % 7) ? (rand() % 100) / 10.0 : NAN);
	}
	struct table t;
	table_init(&t, cols, NC, 2);
	refill(&t);
	for (int round = 0; round < 300; round++) {
		int what = rand() % 10;
		if (what < 5 && nrecs) { /* a change */
			struct rec *x = &recs[(size_t)rand() % nrecs];
			x->price = (rand() % 100) / 10.0;
			snprintf(x->name, sizeof x->name, "n%02d", rand() % 30);
			x->rev = next_rev++;
		} else if (what < 7 && nrecs < 60) { /* an insertion in id order */
			long id = rand() % 200;
			size_t at = 0;
			while (at < nrecs && recs[at].id < id)
				at++;
			if (at < nrecs && recs[at].id == id)
				continue;
			memmove(&recs[at + 1], &recs[at], (nrecs - at) * sizeof recs[0]);
			nrecs++;
			recs[at] = (struct rec){ id, next_rev++, "new", (rand() % 100) / 10.0 };
		} else if (what < 9 && nrecs > 1) { /* a removal */
			size_t at = (size_t)rand() % nrecs;
			memmove(&recs[at], &recs[at + 1], (nrecs - at - 1) * sizeof recs[0]);
			nrecs--;
		} else if (what == 9) { /* another sort or filter */
			if (rand() % 2)
				table_set_sort(&t, rand() % NC, rand() % 2);
			else
				table_set_filter(&t, rand() % 3 ? "" : "n1");
		}
		if (table_count(&t) && rand() % 4 == 0)
			table_move(&t, rand() % 5 - 2);
		refill(&t);
		same_as_full(&t);
	}
	table_free(&t);
}

static void test_age_by_the_minute(void **state)
{
	(void)state;
	char buf[32];
	double now = 1.7e9;
	assert_string_equal(instcol_age(buf, sizeof buf, now, now - 5), "<1m");
	assert_string_equal(instcol_age(buf, sizeof buf, now, now - 59.9), "<1m");
	assert_string_equal(instcol_age(buf, sizeof buf, now, now - 60), "1m");
	assert_string_equal(instcol_age(buf, sizeof buf, now, now - 125), "2m");
	assert_string_equal(instcol_age(buf, sizeof buf, now, now - 3 * 3600 - 5 * 60 - 59), "3h05m");
	assert_string_equal(instcol_age(buf, sizeof buf, now, now + 30), "<1m"); /* clock skew */
	assert_string_equal(instcol_age(buf, sizeof buf, now, NAN), "-");
	assert_string_equal(instcol_age(buf, sizeof buf, now, 0), "-");
	/* the cell and its key: the key orders by age whatever the clock */
	struct instance x;
	memset(&x, 0, sizeof x);
	x.start_date = now - 600;
	double k1, k2;
	assert_string_equal(instcol_format(IC_AGE, &x, NULL, now, INSTCOL_ASCII, buf, sizeof buf, &k1), "10m");
	assert_string_equal(instcol_format(IC_AGE, &x, NULL, now + 30, INSTCOL_ASCII, buf, sizeof buf, &k2),
			    "10m");
	assert_true(k1 == k2);
	x.start_date = now - 60;
	instcol_format(IC_AGE, &x, NULL, now, INSTCOL_ASCII, buf, sizeof buf, &k2);
	assert_true(k2 < k1); /* younger sorts first */
}

static void test_clock_steps(void **state)
{
	(void)state;
	char buf[32];
	assert_string_equal(header_sweep_age(buf, sizeof buf, 0), "<10s");
	assert_string_equal(header_sweep_age(buf, sizeof buf, 9.9), "<10s");
	assert_string_equal(header_sweep_age(buf, sizeof buf, 10), "10s");
	assert_string_equal(header_sweep_age(buf, sizeof buf, 47), "40s");
	assert_string_equal(header_sweep_age(buf, sizeof buf, 60), "1m");
	assert_string_equal(header_sweep_age(buf, sizeof buf, 6 * 60 + 40), "6m");
	assert_string_equal(header_sweep_age(buf, sizeof buf, 3600 + 5 * 60 + 7), "1h05m");
	assert_string_equal(header_sweep_age(buf, sizeof buf, -3), "<10s");
	/* "refreshed": pages a second apart move it once per refresh interval */
	double t0 = 1.7e9, shown = 0;
	int moves = 0;
	for (int i = 0; i <= 60; i++) {
		double next = header_clock_step(shown, t0 + i, 10);
		moves += next != shown;
		shown = next;
		assert_true(shown <= t0 + i && shown > t0 + i - 10); /* never fresher than true */
	}
	assert_int_equal(moves, 8); /* the first, then every 8 s (0.8 of the interval) */
	/* one answer per cycle: every one shown */
	shown = header_clock_step(0, t0, 10);
	assert_true(header_clock_step(shown, t0 + 9.9, 10) == t0 + 9.9);
	/* nothing yet, or a clock that went back: the last answer's time */
	assert_true(header_clock_step(t0, 0, 10) == 0);
	assert_true(header_clock_step(t0, t0 - 5, 10) == t0 - 5);
}

static void test_instance_same(void **state)
{
	(void)state;
	struct kv f1[] = { { (char *)"a", (char *)"1" }, { (char *)"b", (char *)"\"x\"" } };
	struct kv f2[] = { { (char *)"a", (char *)"1" }, { (char *)"b", (char *)"\"y\"" } };
	struct port_map p1 = { 22, "tcp", 40022 }, p2 = { 22, "tcp", 40023 };
	struct instance a, b;
	memset(&a, 0, sizeof a);
	a.id = 7;
	a.label = xstrdup("l");
	a.gpu_util = NAN;
	a.dph_total = 0.4;
	a.fields = f1;
	a.nfields = 2;
	a.ports = &p1;
	a.nports = 1;
	b = a;
	b.label = xstrdup("l"); /* equal text, another copy */
	b.rev = 99;             /* rev is not compared */
	assert_true(instance_same(&a, &b));
	b.gpu_util = 50;
	assert_false(instance_same(&a, &b));
	b.gpu_util = NAN;
	b.fields = f2;
	assert_false(instance_same(&a, &b));
	b.fields = f1;
	b.ports = &p2;
	assert_false(instance_same(&a, &b));
	b.ports = &p1;
	free(b.label);
	b.label = xstrdup("m");
	assert_false(instance_same(&a, &b));
	free(a.label);
	free(b.label);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unchanged_rows_kept),
		cmocka_unit_test(test_changed_row_reformatted_and_resorted),
		cmocka_unit_test(test_removed_row_gone_selection_kept),
		cmocka_unit_test(test_filter_and_touch),
		cmocka_unit_test(test_random_rounds_match_full),
		cmocka_unit_test(test_age_by_the_minute),
		cmocka_unit_test(test_clock_steps),
		cmocka_unit_test(test_instance_same),
	};
	return cmocka_run_group_tests_name("ui_refill", tests, NULL, NULL);
}
