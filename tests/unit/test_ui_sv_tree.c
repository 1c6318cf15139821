/* test_ui_sv_tree.c: the serverless view's pure parts: the tree's rows
 * (workergroups under their endpoint by id, collapsed endpoints, orphans
 * last in a group of their own, the last-branch mark, a row key that survives rebuilds), the row
 * texts (the worker limits labelled), the fields an endpoint row keeps at
 * 200, 120, 100, 80 and 60 columns (the stale marker never dropped), the
 * load bar, the template names by hash, the workergroup detail lines with
 * api_key <hidden>, and the hint bar of each kind of row (every change
 * that applies: a and s on an endpoint). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "keymap.h"
#include "statusbar.h"
#include "views/serverless/sv_tree.h"
#include "base/util.h"
#include "view.h"

static struct endpoint eps[2] = {
	{ .id = 10, .endpoint_name = "llm", .endpoint_state = "active", .min_load = 10,
	  .target_util = 0.9, .cold_mult = 2.5, .cold_workers = 1, .max_workers = 4 },
	{ .id = 20, .endpoint_name = "asr", .endpoint_state = "suspended", .min_load = 0,
	  .target_util = 0.5, .cold_mult = 1, .cold_workers = 0, .max_workers = 2 },
};

static struct workergroup wgs[4] = {
	{ .id = 7, .endpoint_id = 20, .template_hash = "hB", .gpu_ram = 24, .test_workers = 3,
	  .search_query = "gpu_ram>=24", .launch_args = "" },
	{ .id = 5, .endpoint_id = 10, .template_hash = "hA", .gpu_ram = 48, .test_workers = 1,
	  .search_query = "num_gpus=2", .launch_args = "--x" },
	{ .id = 3, .endpoint_id = 10, .template_hash = "", .template_id = 42, .gpu_ram = 16 },
	{ .id = 9, .endpoint_id = 99, .template_hash = "hC" }, /* no listed endpoint */
};

static void test_rows(void **state)
{
	(void)state;
	struct sv_collapsed c = { .n = 0 };
	struct sv_row r[16];
	size_t n = sv_tree_rows(eps, 2, wgs, 4, &c, r, 16);
	assert_int_equal(n, 7);
	assert_int_equal(r[0].kind, SVR_ENDPOINT);
	assert_int_equal(r[0].id, 10);
	assert_int_equal(r[1].kind, SVR_WORKERGROUP);
	assert_int_equal(r[1].id, 3); /* by id */
	assert_false(r[1].last);
	assert_int_equal(r[2].id, 5);
	assert_true(r[2].last);
	assert_int_equal(r[2].idx, 1);
	assert_int_equal(r[3].id, 20);
	assert_int_equal(r[4].id, 7);
	assert_true(r[4].last);
	/* the orphan last, in a group of its own: never under the last endpoint */
	assert_int_equal(n, 7);
	assert_int_equal(r[5].kind, SVR_ORPHANS);
	assert_int_equal(r[5].idx, 1);
	assert_int_equal(r[6].id, 9);
	assert_int_equal(r[6].kind, SVR_WORKERGROUP);
	assert_true(r[6].orphan);
	assert_true(r[6].last);
	assert_int_equal(r[6].endpoint_id, 99);
	assert_false(r[4].orphan);
	assert_int_equal(sv_tree_row_group(&r[6]), SV_ORPHANS_GROUP);
	assert_int_equal(sv_tree_row_group(&r[5]), SV_ORPHANS_GROUP);
	assert_int_equal(sv_tree_row_group(&r[4]), 20);

	sv_tree_collapsed_set(&c, 10, true);
	assert_true(sv_tree_collapsed_has(&c, 10));
	n = sv_tree_rows(eps, 2, wgs, 4, &c, r, 16);
	assert_int_equal(n, 5);
	assert_true(r[0].collapsed);
	assert_int_equal(r[1].id, 20);
	sv_tree_collapsed_set(&c, 10, true); /* idempotent */
	assert_int_equal(c.n, 1);
	sv_tree_collapsed_set(&c, 10, false);
	assert_false(sv_tree_collapsed_has(&c, 10));
	assert_int_equal(sv_tree_rows(eps, 2, wgs, 4, &c, r, 16), 7);
	/* the output is bounded */
	assert_int_equal(sv_tree_rows(eps, 2, wgs, 4, &c, r, 3), 3);
	/* keys: an endpoint and a workergroup of the same id differ */
	struct sv_row o = { .kind = SVR_ORPHANS };
	assert_true(sv_tree_row_key(&o) != sv_tree_row_key(&r[0]) && sv_tree_row_key(&o) != sv_tree_row_key(&r[6]) &&
		    sv_tree_row_key(&o) != 0);
	struct sv_row e = { .kind = SVR_ENDPOINT, .id = 5 }, g = { .kind = SVR_WORKERGROUP, .id = 5 };
	assert_true(sv_tree_row_key(&e) != sv_tree_row_key(&g));
}

/* Orphaned workergroups: their own group (collapsible), all of them there
 * whatever their endpoint_id; none: no group row; the texts say orphaned
 * and what endpoint actions cannot do. */
static void test_orphans(void **state)
{
	(void)state;
	struct sv_collapsed c = { .n = 0 };
	struct sv_row r[16];
	/* the endpoint deleted (20 gone): its workergroup 7 joins 9 as an orphan */
	size_t n = sv_tree_rows(eps, 1, wgs, 4, &c, r, 16);
	assert_int_equal(n, 6);
	assert_int_equal(r[0].id, 10);
	assert_int_equal(r[1].id, 3);
	assert_int_equal(r[2].id, 5);
	assert_true(r[2].last);
	assert_false(r[2].orphan);
	assert_int_equal(r[3].kind, SVR_ORPHANS);
	assert_int_equal(r[3].idx, 2);
	assert_int_equal(r[4].id, 7);
	assert_true(r[4].orphan);
	assert_false(r[4].last);
	assert_int_equal(r[5].id, 9);
	assert_true(r[5].orphan && r[5].last);
	/* collapsed: the group row stays, its rows hide */
	sv_tree_collapsed_set(&c, SV_ORPHANS_GROUP, true);
	n = sv_tree_rows(eps, 1, wgs, 4, &c, r, 16);
	assert_int_equal(n, 4);
	assert_int_equal(r[3].kind, SVR_ORPHANS);
	assert_true(r[3].collapsed);
	sv_tree_collapsed_set(&c, SV_ORPHANS_GROUP, false);
	/* no endpoint at all: every workergroup is an orphan */
	n = sv_tree_rows(eps, 0, wgs, 4, &c, r, 16);
	assert_int_equal(n, 5);
	assert_int_equal(r[0].kind, SVR_ORPHANS);
	for (size_t i = 1; i < n; i++)
		assert_true(r[i].orphan);
	/* no orphan: no group row */
	n = sv_tree_rows(eps, 2, wgs, 3, &c, r, 16);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(r[i].kind, SVR_ORPHANS);
	/* bounded: the group row alone when nothing more fits */
	assert_int_equal(sv_tree_rows(eps, 1, wgs, 4, &c, r, 4), 4);
	assert_int_equal(r[3].kind, SVR_ORPHANS);

	char b[400];
	assert_non_null(strstr(sv_tree_orphans_text(2, true, true, b, sizeof b), "- orphaned workergroups (2)"));
	assert_non_null(strstr(sv_tree_orphans_text(2, false, true, b, sizeof b), "+ orphaned"));
	sv_tree_workergroup_text(&wgs[3], NULL, true, true, true, b, sizeof b);
	assert_non_null(strstr(b, "wg 9  ORPHANED (endpoint 99 gone)"));
	sv_tree_workergroup_text(&wgs[1], NULL, true, false, true, b, sizeof b);
	assert_null(strstr(b, "ORPHANED"));
	struct sv_row orow = { .kind = SVR_WORKERGROUP, .id = 9, .endpoint_id = 99, .orphan = true };
	struct sv_row grow = { .kind = SVR_ORPHANS };
	struct sv_row wrow = { .kind = SVR_WORKERGROUP, .id = 5, .endpoint_id = 10 };
	assert_non_null(sv_tree_orphan_refusal(&orow, "suspend", b, sizeof b));
	assert_non_null(strstr(b, "workergroup 9 is orphaned: its endpoint 99 is gone"));
	assert_non_null(sv_tree_orphan_refusal(&grow, "suspend", b, sizeof b));
	assert_null(sv_tree_orphan_refusal(&wrow, "suspend", b, sizeof b));
	assert_null(sv_tree_orphan_refusal(NULL, "suspend", b, sizeof b));
	struct workergroup og = { .id = 7, .endpoint_id = 20, .endpoint_name = "embed-test" };
	sv_tree_delete_orphan_text(&og, b, sizeof b);
	assert_non_null(strstr(b, "orphaned workergroup 7"));
	assert_non_null(strstr(b, "embed-test (20) is gone"));
}

static void test_texts(void **state)
{
	(void)state;
	char b[512];
	sv_tree_endpoint_text(&eps[0], true, true, b, sizeof b);
	/* the worker limits labelled: "workers 1/4" read as "1 of 4 workers" */
	assert_string_equal(b, "- llm (10)  active  min_load 10  util 0.9  cold_mult 2.5  "
			       "cold_workers 1 max_workers 4");
	sv_tree_endpoint_text(&eps[1], false, true, b, sizeof b);
	assert_non_null(strstr(b, "+ asr (20)  suspended"));
	sv_tree_workergroup_text(&wgs[1], "PyTorch", true, false, true, b, sizeof b);
	assert_string_equal(b, "  `- wg 5  template PyTorch  gpu_ram 48  test_workers 1  query num_gpus=2  args --x");
	sv_tree_workergroup_text(&wgs[1], NULL, false, false, true, b, sizeof b);
	assert_non_null(strstr(b, "|- wg 5  template hA "));
	sv_tree_workergroup_text(&wgs[2], "", false, false, true, b, sizeof b);
	assert_non_null(strstr(b, "template #42 "));
	assert_non_null(strstr(b, "query -  args -"));
}

/* The fields of row c shown at widths w, as a string of their initials:
 * N name, S state, M min_load, U util, C cold_mult, L limits, B bar,
 * W worker counts, O load, T stale marker, Y why. */
static const char *kept(const int *w)
{
	static char k[SVE__COUNT + 1];
	static const char tag[SVE__COUNT] = { 'N', 'S', 'M', 'U', 'C', 'L', 'B', 'W', 'O', 'P', 'T', 'Y' };
	size_t n = 0;
	for (int f = 0; f < SVE__COUNT; f++)
		if (w[f] > 0)
			k[n++] = tag[f];
	k[n] = '\0';
	return k;
}

static void test_layout(void **state)
{
	(void)state;
	struct endpoint e[2] = {
		{ .id = 2, .endpoint_name = "whisper-asr", .endpoint_state = "active", .min_load = 10,
		  .target_util = 0.9, .cold_mult = 2.5, .cold_workers = 1, .max_workers = 4 },
		{ .id = 14, .endpoint_name = "llm", .endpoint_state = "suspended", .min_load = 0,
		  .target_util = 0.5, .cold_mult = 1, .cold_workers = 0, .max_workers = 2 },
	};
	/* whisper-asr's figures are stale (the last fetch failed), llm's fresh */
	struct sv_ep_health h0 = { .asked = true, .have = true, .stale = true, .age = 31,
				   .err = "HTTP 429 rate limited" };
	h0.h.total = 4;
	h0.h.count[WS_RUNNING] = 2;
	h0.h.count[WS_MODEL_LOADING] = 1;
	h0.h.count[WS_ERROR] = 1;
	h0.h.load = 30;
	h0.h.capacity = 60;
	struct sv_ep_health h1 = { .asked = true, .have = true, .age = 2, .err = "" };
	h1.h.total = 1;
	h1.h.count[WS_IDLE] = 1;
	h1.h.load = 0;
	h1.h.capacity = 5;
	struct sv_ep_cells c[2];
	sv_tree_endpoint_cells(&e[0], &h0, true, true, &c[0]);
	sv_tree_endpoint_cells(&e[1], &h1, false, true, &c[1]);
	assert_string_equal(c[0].cell[SVE_STALE], "(stale 31s)");
	assert_string_equal(c[0].cell[SVE_COUNTS], "2 ready 1 model_loading 1 error");
	assert_string_equal(c[0].cell[SVE_LOAD], "load 30/60");
	assert_string_equal(c[1].cell[SVE_STALE], "");
	/* the terminal's columns; the row is drawn one cell in */
	static const struct {
		int cols;
		const char *kept;
	} want[] = {
		{ 200, "NSMUCLBWOTY" }, /* everything */
		{ 120, "NSLWOT" },      /* the load figures and the stale marker kept */
		{ 100, "NSWOT" },
		{ 80, "NWOT" },         /* the worker counts and the load */
		{ 60, "NT" },           /* the stale marker last of all */
	};
	char line[1024], l1[1024];
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int w[SVE__COUNT];
		unsigned mask = sv_tree_endpoint_layout(c, 2, want[i].cols - 1, w);
		print_message("%d columns: %s\n", want[i].cols, kept(w));
		assert_string_equal(kept(w), want[i].kept);
		for (int f = 0; f < SVE__COUNT; f++)
			assert_int_equal((mask >> f) & 1u, w[f] > 0);
		sv_tree_endpoint_line(&c[0], w, line, sizeof line);
		sv_tree_endpoint_line(&c[1], w, l1, sizeof l1);
		assert_true(util_strwidth(line) <= want[i].cols - 1);
		assert_true(util_strwidth(l1) <= want[i].cols - 1);
		assert_non_null(strstr(line, "(stale 31s)"));
		assert_non_null(strstr(line, "- whisper-asr (2)"));
		/* whole fields, aligned: each starts where the layout says, in both rows */
		for (int f = 0; f < SVE__COUNT; f++) {
			int x = sv_tree_endpoint_field_x(w, f);
			if (x < 0 || !c[0].cell[f][0] || f == SVE_NAME)
				continue;
			assert_memory_equal(line + x, c[0].cell[f], strlen(c[0].cell[f]));
			if (c[1].cell[f][0])
				assert_memory_equal(l1 + x, c[1].cell[f], strlen(c[1].cell[f]));
		}
	}
	/* 120 columns: the load figures and the marker are there, the row fits */
	int w[SVE__COUNT];
	sv_tree_endpoint_layout(c, 2, 119, w);
	sv_tree_endpoint_line(&c[0], w, line, sizeof line);
	assert_non_null(strstr(line, "load 30/60"));
	assert_non_null(strstr(line, "cold_workers 1 max_workers 4"));
	/* narrower than the name and the marker: the name is cut, never the marker */
	sv_tree_endpoint_layout(c, 2, 24, w);
	assert_string_equal(kept(w), "NT");
	sv_tree_endpoint_line(&c[0], w, line, sizeof line);
	assert_true(util_strwidth(line) <= 24);
	assert_non_null(strstr(line, "(stale 31s)"));
	/* nothing stale: no column for it; no health yet: "workers: ..." */
	struct sv_ep_health none = { .asked = true };
	sv_tree_endpoint_cells(&e[0], &none, true, true, &c[0]);
	assert_string_equal(c[0].cell[SVE_COUNTS], "workers: ...");
	sv_tree_endpoint_layout(c, 2, 199, w);
	assert_int_equal(w[SVE_STALE], 0);
	assert_int_equal(sv_tree_endpoint_field_x(w, SVE_STALE), -1);
}

/* The hint bar of the serverless view on each kind of row: every change
 * with AF_HINT that applies to it. */
static void test_hints(void **state)
{
	(void)state;
	struct keymap km;
	keymap_init(&km);
	view_keys_all(&km);
	int ctx = keymap_ctx_by_name("serverless");
	assert_true(ctx >= 0);
	struct hint h[24];
	char buf[400];
	struct sv_row ep = { .kind = SVR_ENDPOINT, .endpoint_id = 10, .id = 10 };
	size_t n = statusbar_hints(&km, ctx, false, &ep, false, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	print_message("endpoint: %s\n", buf);
	for (const char *const *k = (const char *const[]){ "c new endpoint", "a add wg", "e edit",
							    "d delete", "s suspend/resume", NULL };
	     *k; k++)
		assert_non_null(strstr(buf, *k));
	/* a workergroup: a adds a copy to its endpoint, s acts on its endpoint */
	struct sv_row wg = { .kind = SVR_WORKERGROUP, .endpoint_id = 10, .id = 5 };
	n = statusbar_hints(&km, ctx, false, &wg, false, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "a add wg"));
	assert_non_null(strstr(buf, "s suspend"));
	/* an orphan: e and d act on it; a and s cannot (no endpoint) */
	struct sv_row orphan = { .kind = SVR_WORKERGROUP, .endpoint_id = 99, .id = 9, .orphan = true };
	n = statusbar_hints(&km, ctx, false, &orphan, false, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "e edit"));
	assert_non_null(strstr(buf, "d delete"));
	assert_null(strstr(buf, "a add wg"));
	assert_null(strstr(buf, "suspend"));
	/* the orphans' heading: neither e nor d (they act on one workergroup) */
	struct sv_row heading = { .kind = SVR_ORPHANS, .idx = 1 };
	n = statusbar_hints(&km, ctx, false, &heading, false, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_null(strstr(buf, "e edit"));
	assert_null(strstr(buf, "d delete"));
	assert_null(strstr(buf, "a add wg"));
	assert_non_null(strstr(buf, "c new endpoint"));
	/* read-only: no change at all */
	n = statusbar_hints(&km, ctx, true, &ep, false, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_null(strstr(buf, "a add wg"));
	assert_null(strstr(buf, "s suspend"));
	/* what the hint hides, the key refuses with the reason */
	assert_non_null(keymap_action_refusal(keymap_action_by_name("endpoint-suspend"), &orphan, false, buf,
				       sizeof buf));
	assert_non_null(strstr(buf, "select an endpoint to suspend"));
	assert_non_null(keymap_action_refusal(keymap_action_by_name("serverless-edit"), &heading, false, buf,
				       sizeof buf));
	assert_null(keymap_action_refusal(keymap_action_by_name("workergroup-create"), &wg, false, buf, sizeof buf));
}

static void test_bar(void **state)
{
	(void)state;
	char b[256];
	struct workers_health h = { .total = 3, .load = 30, .capacity = 60 };
	h.count[WS_RUNNING] = 2;
	h.count[WS_ERROR] = 1;
	sv_tree_health_text(&h, true, b, sizeof b);
	assert_string_equal(b, "[#####.....] 2 ready 1 error load 30/60");
	h.load = 200; /* over capacity: full, never past the bar */
	sv_tree_health_text(&h, true, b, sizeof b);
	assert_non_null(strstr(b, "[##########] "));
	h.load = 0;
	h.capacity = 0;
	sv_tree_health_text(&h, true, b, sizeof b);
	assert_non_null(strstr(b, "[..........] "));
	h.load = 5; /* load with no capacity at all */
	sv_tree_health_text(&h, true, b, sizeof b);
	assert_non_null(strstr(b, "[##########] "));
}

static void test_names(void **state)
{
	(void)state;
	struct sv_names t = { .n = 0 };
	assert_null(sv_tree_names_get(&t, "hA"));
	sv_tree_names_put(&t, "hA", "");
	assert_string_equal(sv_tree_names_get(&t, "hA"), ""); /* asked, not known */
	sv_tree_names_put(&t, "hA", "PyTorch");
	assert_string_equal(sv_tree_names_get(&t, "hA"), "PyTorch");
	assert_int_equal(t.n, 1);
	assert_null(sv_tree_names_get(&t, ""));
	/* an instance of the snapshot tells a name the search did not */
	struct instance in[1];
	memset(in, 0, sizeof in);
	in[0].template_hash_id = "hB";
	in[0].template_name = "TF";
	const struct instance *pin[1] = { &in[0] };
	assert_string_equal(sv_tree_names_of(&t, "hB", pin, 1), "TF");
	assert_string_equal(sv_tree_names_of(&t, "hA", pin, 1), "PyTorch");
	sv_tree_names_put(&t, "hB", "");
	assert_string_equal(sv_tree_names_of(&t, "hB", pin, 1), "TF");
	assert_null(sv_tree_names_of(&t, "hZ", pin, 1));
}

static void test_detail(void **state)
{
	(void)state;
	struct sv_line l[32];
	size_t n = sv_tree_workergroup_lines(&wgs[1], "PyTorch", l, 32);
	bool key = false, tmpl = false, q = false;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(l[i].key, "api_key")) {
			key = true;
			assert_string_equal(l[i].value, "<hidden>");
		}
		if (!strcmp(l[i].key, "template")) {
			tmpl = true;
			assert_string_equal(l[i].value, "PyTorch");
		}
		if (!strcmp(l[i].key, "search_query")) {
			q = true;
			assert_string_equal(l[i].value, "num_gpus=2");
		}
	}
	assert_true(key && tmpl && q);
	assert_int_equal(sv_tree_workergroup_lines(&wgs[1], NULL, l, 3), 3);
}

/* The last hour as sparklines: each figure scaled to its own hour, a gap
 * blank (not the lowest level), UTF-8 blocks or ASCII levels; in the row's
 * SVE_SPARK cell once there are samples, and dropped first when narrow. */
static void test_sparklines(void **state)
{
	(void)state;
	struct sv_ep_series s;
	sv_tree_series_init(&s);
	double t0 = 1.8e9;
	/* the first half hour empty, then load rising 10..100, 3 workers, $1.2/h */
	for (int i = 0; i < 60; i++) {
		double t = t0 + 1800 + 30.0 * i;
		seriesf_put(&s.load, t, 10 + 90.0 * i / 59);
		seriesf_put(&s.workers, t, 3);
		seriesf_put(&s.cost, t, 1.2);
	}
	double now = t0 + 1800 + 30.0 * 59;
	char b[200];
	sv_tree_spark_text(&s, now, 10, false, b, sizeof b);
	/* "load " then 5 blank cells (the empty half hour), then rising blocks */
	assert_memory_equal(b, "load      ", 10);
	assert_non_null(strstr(b, "\u2588")); /* the top of the hour: a full block */
	assert_non_null(strstr(b, " n "));
	assert_non_null(strstr(b, " $ "));
	size_t cps = 0; /* code points: one cell each */
	for (const char *p = b; *p; p++)
		cps += ((unsigned char)*p & 0xc0) != 0x80;
	assert_int_equal(cps, 5 + 10 + 3 + 10 + 3 + 10);
	sv_tree_spark_text(&s, now, 10, true, b, sizeof b);
	for (const char *p = b; *p; p++)
		assert_true((unsigned char)*p < 0x80);
	assert_non_null(strstr(b, "#"));
	/* in the row */
	struct endpoint e = {.id = 1, .endpoint_name = (char *)"llm", .endpoint_state = (char *)"active",
			     .min_load = 0, .target_util = 0.9, .cold_mult = 2.5, .cold_workers = 1,
			     .max_workers = 4};
	struct sv_ep_health h = {.asked = true, .have = true, .series = &s, .now = now};
	h.h.total = 3;
	struct sv_ep_cells c;
	sv_tree_endpoint_cells(&e, &h, true, false, &c);
	assert_memory_equal(c.cell[SVE_SPARK], "load ", 5);
	int w[SVE__COUNT];
	unsigned shown = sv_tree_endpoint_layout(&c, 1, 300, w);
	assert_true(shown & (1u << SVE_SPARK));
	shown = sv_tree_endpoint_layout(&c, 1, 100, w);
	assert_false(shown & (1u << SVE_SPARK)); /* dropped first */
	assert_true(shown & (1u << SVE_LOAD));
	h.series = NULL;
	sv_tree_endpoint_cells(&e, &h, true, false, &c);
	assert_string_equal(c.cell[SVE_SPARK], "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparklines),
		cmocka_unit_test(test_rows), cmocka_unit_test(test_orphans),  cmocka_unit_test(test_texts),
		cmocka_unit_test(test_bar),   cmocka_unit_test(test_names),
		cmocka_unit_test(test_detail), cmocka_unit_test(test_layout), cmocka_unit_test(test_hints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
