/* test_ui_offers.c: the offers view's pure parts: the canonical search line
 * `/` pre-fills (filters with blanks collapsed, options after them, defaults
 * left out) and that it parses back to the same search; the sort key of an
 * order (aliases, directions, custom orders); the `t` type cycle; the
 * table built with its cells made when drawn (pane_offers_fill and
 * pane_offers_cells) against the eager table_fill(): the same rows, view,
 * selection, whole-column widths and cells for random offers; what each
 * key does (pane_offers_intent): moves kept within the rows, none at all
 * when there is nowhere to go, the detail's own keys, sorts and Esc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"
#include "views/offers/pane_offers.h"
#include "rules/query.h"
#include "widgets/table.h"
#include "theme.h"
#include "base/util.h"

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

/* ---- the table's rows ------------------------------------------------------ */

static uint64_t rs = 0x2545F4914F6CDD1Dull;
static unsigned rnd(unsigned n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (unsigned)(rs % n);
}

/* A figure: unknown, zero, negative, small, huge, or ordinary. */
static double fig(void)
{
	switch (rnd(8)) {
	case 0: return NAN;
	case 1: return 0;
	case 2: return -(double)rnd(100000) / 7.0;
	case 3: return (double)rnd(1000) / 1e4;
	case 4: return 1e15 * (1 + rnd(9));
	default: return (double)rnd(1000000) / 13.0;
	}
}

static void rand_offer(struct offer *o, long i)
{
	static const char *const names[] = { "RTX 4090", "H100 SXM", "", "A100\xc3\xa9 PCIE",
					     "\xe6\x97\xa5\xe6\x9c\xac GPU" };
	static const char *const places[] = { "Quebec, CA", "", "Z\xc3\xbcrich, CH", "-",
					      "\xe6\x9d\xb1\xe4\xba\xac, JP" };
	memset(o, 0, sizeof *o);
	o->id = rnd(4) ? (long)rnd(10000000) : -(long)i;
	o->num_gpus = (int)rnd(20) - 2;
	o->gpu_name = xstrdup(names[rnd(5)]);
	o->dph_total = fig();
	o->dph_base = fig();
	o->min_bid = fig();
	o->reliability = rnd(5) ? (double)rnd(1001) / 1000.0 : fig();
	o->verified = rnd(2);
	o->rentable = rnd(3) != 0;
	o->gpu_ram = fig();
	o->dlperf = fig();
	o->cpu_ram = fig();
	o->disk_space = fig();
	o->inet_up = fig();
	o->inet_down = fig();
	o->cuda_max_good = fig();
	o->geolocation = rnd(6) ? xstrdup(places[rnd(5)]) : NULL;
	o->verification = xstrdup("verified");
	o->duration = rnd(4) ? (double)rnd(90 * 86400) : fig();
	o->storage_cost = fig();
	o->driver_version = xstrdup("");
	o->cpu_name = xstrdup("");
	o->credit_discount_max = NAN;
	o->is_bid = rnd(2);
}

/* The context of the eager table_fill (the view's old way). */
static void finish_row(struct table_row *row, const void *rec, const void *ctx)
{
	(void)ctx;
	const struct offer *o = rec;
	row->id = o->id;
	row->role = o->rentable ? ROLE_NORMAL : ROLE_DIM;
	row->cell_role = -1;
	row->cell_role_col = -1;
}

static void test_rows_on_demand(void **s)
{
	(void)s;
	int ncols;
	const struct table_col *cols = pane_offers_cols(&ncols);
	for (int round = 0; round < 40; round++) {
		size_t n = round == 0 ? 0 : rnd(round < 30 ? 60 : 1200);
		double disk = round % 3 ? 10.0 : 1 + rnd(4000) / 3.0;
		struct offer *v = xcalloc(n ? n : 1, sizeof *v);
		for (size_t i = 0; i < n; i++)
			rand_offer(&v[i], (long)i);
		struct table a, b;
		table_init(&a, cols, ncols, -1);
		table_init(&b, cols, ncols, -1);
		table_fill(&a, v, n, sizeof *v, &disk, finish_row);
		pane_offers_fill(&b, v, n, disk);
		assert_int_equal(a.nrows, b.nrows);
		assert_int_equal(table_count(&a), table_count(&b));
		assert_int_equal(a.nav.sel_id, b.nav.sel_id);
		assert_int_equal(list_selected_pos(&a.nav), list_selected_pos(&b.nav));
		for (int c = 0; c < ncols; c++)
			if (a.natural[c] != b.natural[c])
				fail_msg("round %d column %s: width %d vs %d", round, cols[c].title,
					 a.natural[c], b.natural[c]);
		for (size_t k = 0; k < table_count(&a); k++) {
			assert_int_equal(table_index(&a, list_row_at(&a.nav, k)),
					 table_index(&b, list_row_at(&b.nav, k)));
			const struct table_row *x = table_row_at(&a, k);
			struct table_row *y = &b.rows[table_index(&b, list_row_at(&b.nav, k))];
			assert_int_equal(x->id, y->id);
			assert_int_equal(x->role, y->role);
			assert_null(y->cells[0]); /* nothing made before it is drawn */
			pane_offers_cells(y, &v[table_index(&b, list_row_at(&b.nav, k))], disk);
			for (int c = 0; c < ncols; c++) {
				assert_string_equal(x->cells[c], y->cells[c]);
				assert_true((isnan(x->keys[c]) && isnan(y->keys[c])) ||
					    x->keys[c] == y->keys[c]);
			}
		}
		/* the selection moves alike */
		table_move(&a, (long)n / 2);
		table_move(&b, (long)n / 2);
		assert_int_equal(a.nav.sel_id, b.nav.sel_id);
		table_free(&a);
		table_free(&b);
		json_map_offers_free(v, n);
	}
}

/* ---- keys ------------------------------------------------------------------ */

static struct off_intent key(enum action act, bool detail, int dtop, bool replacing)
{
	struct off_keyctx k = { detail, dtop, replacing };
	return pane_offers_intent(act, &k);
}

static void test_intent(void **s)
{
	(void)s;
	struct off_intent in;
	/* the moves are the table's list's (view_ops.list), not the view's */
	static const enum action moves[] = { ACT_UP, ACT_DOWN, ACT_PAGE_UP, ACT_PAGE_DOWN,
					     ACT_TOP, ACT_BOTTOM };
	for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
		assert_int_equal(key(moves[i], false, 0, false).op, OFF_PASS);
	/* sorts and the search again */
	in = key(ACT_SORT_NEXT, false, 0, false);
	assert_int_equal(in.op, OFF_SORT);
	assert_int_equal(in.delta, 1);
	in = key(ACT_SORT_PREV, false, 0, false);
	assert_int_equal(in.delta, -1);
	assert_int_equal(key(ACT_SORT_INVERT, false, 0, false).op, OFF_INVERT);
	assert_int_equal(key(ACT_REFRESH, false, 0, false).op, OFF_REFRESH);
	/* Esc stops a replacement, else it is the app's (the filter first) */
	assert_int_equal(key(ACT_BACK, false, 0, true).op, OFF_STOP_REPLACE);
	assert_int_equal(key(ACT_BACK, false, 0, false).op, OFF_PASS);
	/* the app's own keys */
	assert_int_equal(key(ACT_HELP, false, 0, false).op, OFF_PASS);
	assert_int_equal(key(ACT_QUIT, false, 0, false).op, OFF_PASS);
	assert_int_equal(key(ACT_NEXT_VIEW, false, 0, false).op, OFF_PASS);
	assert_int_equal(key(ACT_NONE, false, 0, false).op, OFF_PASS);
	/* the detail: up and down scroll it, Esc and q close it, the rest act
	 * on the table under it */
	in = key(ACT_DOWN, true, 0, false);
	assert_int_equal(in.op, OFF_DETAIL_SCROLL);
	assert_int_equal(in.delta, 1);
	in = key(ACT_UP, true, 2, false);
	assert_int_equal(in.op, OFF_DETAIL_SCROLL);
	assert_int_equal(in.delta, -1);
	assert_int_equal(key(ACT_UP, true, 0, false).op, OFF_NOTHING);
	assert_int_equal(key(ACT_BACK, true, 0, true).op, OFF_DETAIL_CLOSE);
	assert_int_equal(key(ACT_QUIT, true, 0, false).op, OFF_DETAIL_CLOSE);
	assert_int_equal(key(ACT_PAGE_DOWN, true, 0, false).op, OFF_PASS);
	assert_int_equal(key(ACT_SORT_INVERT, true, 0, false).op, OFF_INVERT);
	assert_int_equal(key(ACT_HELP, true, 0, false).op, OFF_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_line_round_trip),
		cmocka_unit_test(test_sort_key),
		cmocka_unit_test(test_type_cycle),
		cmocka_unit_test(test_rows_on_demand),
		cmocka_unit_test(test_intent),
	};
	return cmocka_run_group_tests_name("ui_offers", tests, NULL, NULL);
}
