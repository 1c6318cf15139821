/* test_sweep.c: the instance list at fleet scale (sweep.c): the shared
 * pager, sweep generations (complete, interrupted, an instance that moves
 * pages, duplicates across pages), the removal check, the attention merge
 * and its cost with many known failures, and the partial-figures rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curl/curl.h>
#include <limits.h>

#include "state/model.h"
#include "state/money.h"
#include "poll/sweep.h"

/* An instance object. */
static json_t *inst(long id, const char *status)
{
	return json_pack("{s:I,s:s?,s:s,s:f,s:f}", "id", (json_int_t)id, "actual_status", status,
			 "intended_status", "running", "dph_total", 1.0, "storage_total_cost", 0.01);
}

/* A v1 page of ids [a, b) with a status, a next_token and a total. */
static json_t *page_of(const long *ids, size_t n, const char *status, const char *next,
		       long total)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, inst(ids[i], status));
	return json_pack("{s:b,s:o,s:o,s:I,s:I}", "success", 1, "instances", arr, "next_token",
			 next ? json_string(next) : json_null(), "instances_found", (json_int_t)n,
			 "total_instances", (json_int_t)total);
}

static bool held(const struct sweep *w, long id)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].id == id)
			return true;
	return false;
}

static const char *status_of(const struct sweep *w, long id)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].id == id)
			return w->v[i].r->x.actual_status;
	return NULL;
}

/* Ask for the next request, which must be of step `want`, and answer it. */
static void answer(struct sweep *w, enum sweep_step want, json_t *root)
{
	struct sweep_query q;
	assert_true(sweep_next(w, &q));
	assert_int_equal(q.step, want);
	struct api_error e;
	assert_true(sweep_answer(w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
}

/* The next sweep page (attention queries before it answered empty). */
static void next_page(struct sweep *w, struct sweep_query *q)
{
	while (sweep_next(w, q) && q->step != SW_PAGE) {
		struct api_error e;
		json_t *empty = page_of(NULL, 0, "running", NULL, 0);
		assert_true(sweep_answer(w, q, empty, 1000.0, &e));
		json_decref(empty);
		sweep_query_free(q);
	}
	assert_int_equal(q->step, SW_PAGE);
}

/* A fleet of two pages swept once (not small: attention runs between pages). */
static void sweep_ids(struct sweep *w, const long *p1, size_t n1, const long *p2, size_t n2,
		      long total)
{
	sweep_cycle(w);
	struct sweep_query q;
	struct api_error e;
	next_page(w, &q);
	json_t *root = page_of(p1, n1, "running", "o2", total);
	assert_true(sweep_answer(w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	/* the attention queries run between pages on a fleet larger than a page */
	next_page(w, &q);
	root = page_of(p2, n2, "running", NULL, total);
	assert_true(sweep_answer(w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
}

static void test_pager_pages_until_null_token(void **state)
{
	(void)state;
	struct pager pg = { .total = -1 };
	struct instance *v = NULL;
	size_t n = 0;
	struct api_error e;
	long a[] = { 1, 2 }, b[] = { 3 };
	json_t *p1 = page_of(a, 2, "running", "o2", 3), *p2 = page_of(b, 1, "running", NULL, 3);
	assert_true(pager_page(&pg, p1, &v, &n, &e));
	assert_false(pg.done);
	assert_string_equal(pg.token, "o2");
	assert_int_equal(pg.total, 3);
	assert_true(pager_page(&pg, p2, &v, &n, &e));
	assert_true(pg.done);
	assert_null(pg.token);
	assert_int_equal(n, 3);
	assert_int_equal(pg.pages, 2);
	/* a token that repeats is a loop, not a list */
	pager_reset(&pg);
	assert_true(pager_page(&pg, p1, &v, &n, &e));
	assert_false(pager_page(&pg, p1, &v, &n, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	pager_reset(&pg);
	instance_free_all(v, n);
	json_decref(p1);
	json_decref(p2);
}

static void test_first_rows_after_the_first_page(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	sweep_cycle(&w);
	long a[] = { 10, 11, 12 };
	answer(&w, SW_PAGE, page_of(a, 3, "running", "o3", 10000));
	assert_true(sweep_take_changed(&w));
	assert_int_equal(w.n, 3);
	struct inst_progress pr;
	sweep_progress(&w, &pr);
	assert_true(pr.partial);
	assert_int_equal(pr.total, 10000);
	sweep_free(&w);
}

static void test_complete_sweep_removes_after_the_by_id_check(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5 };
	sweep_ids(&w, p1, 3, p2, 2, 5);
	assert_int_equal(w.n, 5);
	assert_true(w.complete_once);
	/* the next sweep lacks 2 and 5: asked for by id, 2 is gone, 5 is back */
	long q1[] = { 1, 3, 4 }, q2[] = { 6 };
	sweep_ids(&w, q1, 3, q2, 1, 4);
	assert_true(held(&w, 2) && held(&w, 5)); /* not removed by the sweep alone */
	assert_int_equal(w.nconfirm, 2);
	struct sweep_query q;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_CONFIRM);
	assert_non_null(strstr(q.filters, "[2,5]"));
	long back[] = { 5 };
	json_t *root = page_of(back, 1, "running", NULL, 1);
	struct api_error e;
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	assert_false(held(&w, 2));
	assert_true(held(&w, 5));
	assert_true(held(&w, 6));
	assert_int_equal(w.nconfirm, 0);
	sweep_free(&w);
}

static void test_interrupted_sweep_removes_nothing(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5 };
	sweep_ids(&w, p1, 3, p2, 2, 5);
	/* next sweep: page 2 fails (a 503), is asked again, and lacks 5 */
	sweep_cycle(&w);
	struct sweep_query q;
	struct api_error e;
	next_page(&w, &q);
	json_t *root = page_of(p1, 3, "running", "o3", 5);
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	next_page(&w, &q);
	assert_string_equal(q.token, "o3");
	sweep_failed(&w, &q);
	sweep_query_free(&q);
	assert_true(held(&w, 4) && held(&w, 5));
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_PAGE);
	assert_string_equal(q.token, "o3"); /* resumes at the same page */
	long p3[] = { 4 };
	root = page_of(p3, 1, "running", NULL, 4);
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	assert_true(w.complete_once);
	assert_true(held(&w, 5));
	assert_int_equal(w.nconfirm, 0);
	sweep_free(&w);
}

static void test_moved_and_duplicate_rows(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5, 6 };
	sweep_ids(&w, p1, 3, p2, 3, 6);
	/* 3 appears on both pages (the list shifted), 4 moved back a page and
	 * was skipped: the by-id check keeps it */
	long q1[] = { 1, 2, 3 }, q2[] = { 3, 5, 6 };
	sweep_ids(&w, q1, 3, q2, 3, 6);
	assert_int_equal(w.n, 6);
	assert_int_equal(w.nconfirm, 1);
	long back[] = { 4 };
	answer(&w, SW_CONFIRM, page_of(back, 1, "running", NULL, 1));
	assert_int_equal(w.n, 6);
	assert_true(held(&w, 4));
	sweep_free(&w);
}

static void test_server_ignoring_the_filter_removes_nothing(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5 };
	sweep_ids(&w, p1, 3, p2, 2, 5);
	long q1[] = { 1, 2, 3 }, q2[] = { 4 };
	sweep_ids(&w, q1, 3, q2, 1, 5);
	/* the check for 5 is answered with the list's first rows: no proof */
	answer(&w, SW_CONFIRM, page_of(q1, 3, "running", "o3", 5));
	assert_true(held(&w, 5));
	sweep_free(&w);
}

/* The answer's last row was not asked for: the server ignored the filter,
 * even when every row before it was asked for; nothing is removed. */
static void test_unasked_last_row_removes_nothing(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5 };
	sweep_ids(&w, p1, 3, p2, 2, 5);
	long q1[] = { 1, 3 }, q2[] = { 4 };
	sweep_ids(&w, q1, 2, q2, 1, 5);
	assert_int_equal(w.nconfirm, 2); /* 2 and 5 */
	/* 5 (asked) then 9 (not asked), last */
	long odd[] = { 5, 9 };
	answer(&w, SW_CONFIRM, page_of(odd, 2, "running", NULL, 2));
	assert_true(held(&w, 2));
	assert_true(held(&w, 5));
	assert_false(held(&w, 9)); /* its rows are not merged either */
	sweep_free(&w);
}

/* Answer every request left this cycle with an empty page. */
static void drain(struct sweep *w)
{
	struct sweep_query q;
	while (sweep_next(w, &q)) {
		struct api_error e;
		json_t *empty = page_of(NULL, 0, "running", NULL, 0);
		assert_true(sweep_answer(w, &q, empty, 1000.0, &e));
		json_decref(empty);
		sweep_query_free(&q);
	}
}

/* Answer requests with empty pages until one of step `want` is next; it
 * is left in *q, unanswered. */
static void drain_until(struct sweep *w, enum sweep_step want, struct sweep_query *q)
{
	for (;;) {
		assert_true(sweep_next(w, q));
		if (q->step == want)
			return;
		struct api_error e;
		json_t *empty = page_of(NULL, 0, "running", NULL, 0);
		assert_true(sweep_answer(w, q, empty, 1000.0, &e));
		json_decref(empty);
		sweep_query_free(q);
	}
}

/* A first complete sweep of exactly two pages (26-50 instances) is not
 * small: the next cycle lists failures first; after one page it is small:
 * the next cycle is the sweep alone. */
static void test_two_page_fleet_is_not_small(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[SWEEP_PAGE_LIMIT], p2[] = { 100 };
	for (int i = 0; i < SWEEP_PAGE_LIMIT; i++)
		p1[i] = i + 1;
	sweep_ids(&w, p1, SWEEP_PAGE_LIMIT, p2, 1, SWEEP_PAGE_LIMIT + 1);
	drain(&w);
	assert_true(w.complete_once);
	assert_false(w.small);
	sweep_cycle(&w);
	struct sweep_query q;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	sweep_query_free(&q);
	sweep_free(&w);
	/* one page: small */
	sweep_init(&w);
	sweep_cycle(&w);
	answer(&w, SW_PAGE, page_of(p1, SWEEP_PAGE_LIMIT, "running", NULL, SWEEP_PAGE_LIMIT));
	drain(&w);
	assert_true(w.small);
	sweep_cycle(&w);
	answer(&w, SW_PAGE, page_of(p1, SWEEP_PAGE_LIMIT, "running", NULL, SWEEP_PAGE_LIMIT));
	assert_false(sweep_next(&w, &q));
	sweep_free(&w);
}

/* One empty page (the shape only) with a next_token or none. */
static bool feed_page(struct pager *pg, bool more, unsigned k, struct api_error *e)
{
	struct inst_page pd;
	memset(&pd, 0, sizeof pd);
	pd.shape_ok = true;
	pd.total = -1;
	if (more) {
		char t[24];
		snprintf(t, sizeof t, "t%u", k);
		pd.token = strdup(t);
	}
	return pager_page_mapped(pg, &pd, NULL, NULL, e);
}

/* A list of exactly PAGER_PAGE_MAX pages ends; one more page is the
 * "never ends" protocol error. */
static void test_pager_page_max(void **state)
{
	(void)state;
	struct pager pg = { .total = -1 };
	struct api_error e;
	for (unsigned k = 1; k < PAGER_PAGE_MAX; k++)
		assert_true(feed_page(&pg, true, k, &e));
	assert_true(feed_page(&pg, false, PAGER_PAGE_MAX, &e));
	assert_true(pg.done);
	assert_int_equal(pg.pages, PAGER_PAGE_MAX);
	pager_reset(&pg);
	for (unsigned k = 1; k <= PAGER_PAGE_MAX; k++)
		assert_true(feed_page(&pg, true, k, &e));
	assert_false(feed_page(&pg, false, PAGER_PAGE_MAX + 1, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_non_null(strstr(e.msg, "never ends"));
	pager_reset(&pg);
}

/* The spec's v0 list: one answer is the whole list, with no filters to ask
 * with, so a row it lacks is removed at once; no attention, never small. */
static void test_v0_list_is_the_truth(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	sweep_use_v0(&w);
	sweep_cycle(&w);
	struct sweep_query q;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_PAGE);
	assert_true(q.v0);
	sweep_query_free(&q);
	long a[] = { 1, 2, 3 };
	struct api_error e;
	json_t *root = page_of(a, 3, "running", NULL, 3);
	assert_true(sweep_next(&w, &q));
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	assert_true(w.complete_once);
	assert_false(w.small);
	assert_false(sweep_next(&w, &q)); /* no attention on v0 */
	sweep_cycle(&w);
	long b[] = { 1, 3 };
	answer(&w, SW_PAGE, page_of(b, 2, "offline", NULL, 2));
	assert_false(held(&w, 2));
	assert_int_equal(w.nconfirm, 0);
	assert_string_equal(status_of(&w, 3), "offline");
	assert_false(sweep_next(&w, &q));
	/* the same answer again, as the spec's bare list (no total): nothing
	 * to remove, the total kept */
	sweep_cycle(&w);
	answer(&w, SW_PAGE, json_pack("[o,o]", inst(1, "offline"), inst(3, "offline")));
	assert_int_equal(w.n, 2);
	assert_int_equal(w.total, 2);
	sweep_free(&w);
}

/* A wrong shape is a failure of the request; a failed request of each
 * kind removes nothing and ends what it was part of. */
static void test_failures_of_each_kind(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5 };
	sweep_ids(&w, p1, 3, p2, 2, 5);
	drain(&w);
	sweep_cycle(&w);
	struct sweep_query q;
	struct api_error e;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	json_t *bad = json_string("nope");
	assert_false(sweep_answer(&w, &q, bad, 1000.0, &e));
	json_decref(bad);
	assert_int_equal(e.cls, AE_PROTOCOL);
	sweep_failed(&w, &q); /* attention ends for this cycle */
	sweep_query_free(&q);
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_PAGE);
	sweep_failed(&w, &q);
	sweep_query_free(&q);
	assert_true(w.interrupted);
	assert_int_equal(w.n, 5);
	/* a removal check that fails is asked again */
	long q1[] = { 1, 2, 3 }, q2[] = { 4 };
	sweep_free(&w);
	sweep_init(&w);
	sweep_ids(&w, p1, 3, p2, 2, 5);
	sweep_ids(&w, q1, 3, q2, 1, 5);
	drain_until(&w, SW_CONFIRM, &q);
	sweep_failed(&w, &q);
	sweep_query_free(&q);
	assert_true(held(&w, 5));
	assert_int_equal(w.nconfirm, 1);
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_CONFIRM);
	sweep_query_free(&q);
	/* steps that are no request: nothing happens */
	q.step = SW_NONE;
	sweep_failed(&w, &q);
	assert_false(sweep_too_long(&w, &q));
	sweep_free(&w);
}

/* Attention answers that arrive after their listing ended (v0 switched
 * on meanwhile) merge their rows and move nothing on. */
static void test_late_attention_answers(void **state)
{
	(void)state;
	static const enum sweep_step steps[] = { SW_FAILSCAN, SW_BOOTING, SW_FAILCOUNT };
	for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
		struct sweep w;
		sweep_init(&w);
		sweep_cycle(&w);
		long p1[] = { 1, 2, 3 };
		/* held failures: the first cycle counts them after the listings */
		answer(&w, SW_PAGE, page_of(p1, 3, "offline", "o2", 50));
		struct sweep_query q;
		struct api_error e;
		drain_until(&w, steps[k], &q);
		sweep_use_v0(&w);
		long f[] = { 9 };
		json_t *root = page_of(f, 1, "offline", NULL, 1);
		assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
		assert_int_equal(w.att, ATT_IDLE);
		assert_true(held(&w, 9) == (steps[k] != SW_FAILCOUNT));
		sweep_free(&w);
	}
}

/* Answers without total_instances: the first sweep's total stays unknown;
 * a failure count without one says nothing of departures. */
static void test_answers_without_a_total(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	sweep_cycle(&w);
	json_t *p = json_pack("{s:b,s:[o,o],s:s}", "success", 1, "instances", inst(1, "offline"),
			      inst(2, "offline"), "next_token", "o2");
	answer(&w, SW_PAGE, p);
	assert_int_equal(w.total, -1);
	struct sweep_query q;
	drain_until(&w, SW_FAILCOUNT, &q);
	struct api_error e;
	json_t *c = json_pack("{s:b,s:[]}", "success", 1, "instances");
	assert_true(sweep_answer(&w, &q, c, 1000.0, &e));
	json_decref(c);
	sweep_query_free(&q);
	assert_false(w.departed[0]);
	assert_int_equal(w.att, ATT_BOOTING);
	sweep_free(&w);
}

/* The pager's shapes: a bare list, one instance, a list under
 * "instances" (or null), an integer next_token; anything else refused. */
static void test_pager_shapes(void **state)
{
	(void)state;
	struct pager pg = { .total = -1 };
	struct api_error e;
	json_t *arr = json_pack("[{s:i}]", "id", 1);
	assert_true(pager_page(&pg, arr, NULL, NULL, &e));
	assert_true(pg.done);
	json_decref(arr);
	pager_reset(&pg);
	json_t *one = json_pack("{s:i}", "id", 1);
	assert_true(pager_page(&pg, one, NULL, NULL, &e));
	json_decref(one);
	pager_reset(&pg);
	json_t *nul = json_pack("{s:n,s:i}", "instances", "next_token", 7);
	assert_true(pager_page(&pg, nul, NULL, NULL, &e));
	assert_string_equal(pg.token, "7");
	json_decref(nul);
	pager_reset(&pg);
	json_t *bads[] = { json_string("x"), json_pack("{s:i}", "instances", 5), json_pack("{s:i}", "x", 1) };
	for (size_t i = 0; i < 3; i++) {
		assert_false(pager_page(&pg, bads[i], NULL, NULL, &e));
		assert_string_equal(e.msg, "unexpected instance list shape");
		json_decref(bads[i]);
		pager_reset(&pg);
	}
	/* from the text: not JSON, and JSON of the wrong shape */
	struct inst_page pd;
	assert_false(pager_map_text("{\"instances\":[", 14, true, &pd, &e));
	assert_non_null(strstr(e.msg, "malformed JSON from the service"));
	assert_true(pager_map_text("\"x\"", 3, true, &pd, &e));
	assert_false(pd.shape_ok);
	assert_false(pager_page_mapped(&pg, &pd, NULL, NULL, &e));
	pager_reset(&pg);
	/* the held rows of an empty sweep, and the failure states */
	struct sweep w;
	sweep_init(&w);
	struct irow **r = sweep_rows(&w);
	assert_non_null(r);
	free(r);
	sweep_forget(&w, 42); /* not held: nothing */
	assert_false(sweep_take_changed(&w));
	sweep_free(&w);
	assert_false(sweep_failure_status(NULL));
	assert_true(sweep_failure_status("offline"));
	assert_false(sweep_failure_status("running"));
}

/* The booting listing (once the first sweep is complete: during it the
 * sweep reads every row) reads at most SWEEP_BOOT_PAGES pages a cycle; the
 * columns are asked for only while use_cols is on; a cycle while removal checks
 * are pending starts no sweep until they are answered. */
static void test_booting_pages_cols_and_pending_checks(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4, 5 }, b1[] = { 7 }, b2[] = { 8 };
	sweep_ids(&w, p1, 3, p2, 2, 5);
	assert_true(w.complete_once);
	drain(&w); /* the first sweep's attention ends */
	sweep_cycle(&w);
	struct sweep_query q;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	assert_string_equal(q.cols, SWEEP_COLS);
	sweep_query_free(&q);
	w.use_cols = false; /* every field from now on */
	drain_until(&w, SW_BOOTING, &q);
	assert_null(q.token);
	assert_null(q.cols);
	struct api_error e;
	json_t *root = page_of(b1, 1, "loading", "b2", 50);
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_BOOTING);
	assert_string_equal(q.token, "b2");
	root = page_of(b2, 1, "loading", "b3", 50);
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	assert_int_equal(w.att, ATT_IDLE); /* two pages: the rest next cycle */
	assert_true(held(&w, 7) && held(&w, 8));
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_PAGE);
	assert_null(q.cols);
	sweep_query_free(&q);
	sweep_free(&w);
	/* removal checks pending: the cycle starts no new sweep */
	sweep_init(&w);
	long s1[] = { 1, 2, 3 }, s2[] = { 4, 5 }, t1[] = { 1, 2, 3 }, t2[] = { 4 };
	sweep_ids(&w, s1, 3, s2, 2, 5);
	sweep_ids(&w, t1, 3, t2, 1, 5);
	drain_until(&w, SW_CONFIRM, &q);
	sweep_query_free(&q);
	uint64_t gen = w.gen;
	sweep_cycle(&w);
	assert_int_equal(w.gen, gen);
	assert_false(w.active);
	sweep_free(&w);
}

/* More ids missing than one by-id read holds: checked SWEEP_PAGE_LIMIT at
 * a time, the rest next. */
static void test_removal_checks_in_pages(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[SWEEP_PAGE_LIMIT], p2[] = { 100, 101, 102, 103, 104 };
	for (int i = 0; i < SWEEP_PAGE_LIMIT; i++)
		p1[i] = i + 1;
	sweep_ids(&w, p1, SWEEP_PAGE_LIMIT, p2, 5, 30);
	long q1[] = { 1, 2 }, q2[] = { 100 };
	sweep_ids(&w, q1, 2, q2, 1, 3);
	assert_int_equal(w.nconfirm, 27);
	struct sweep_query q;
	drain_until(&w, SW_CONFIRM, &q);
	struct api_error e;
	json_t *none = page_of(NULL, 0, "running", NULL, 0);
	assert_true(sweep_answer(&w, &q, none, 1000.0, &e));
	json_decref(none);
	sweep_query_free(&q);
	assert_int_equal(w.nconfirm, 2);
	assert_int_equal(w.n, 5); /* 1, 2, 100 and the two not yet checked */
	answer(&w, SW_CONFIRM, page_of(NULL, 0, "running", NULL, 0));
	assert_int_equal(w.nconfirm, 0);
	assert_int_equal(w.n, 3);
	sweep_free(&w);
}

static void test_forget_removes_at_once(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	long p1[] = { 1, 2, 3 }, p2[] = { 4 };
	sweep_ids(&w, p1, 3, p2, 1, 4);
	(void)sweep_take_changed(&w);
	sweep_forget(&w, 2);
	assert_false(held(&w, 2));
	assert_true(sweep_take_changed(&w));
	sweep_free(&w);
}

/* ---- a fake service for the attention tests --------------------------- */

/* Instances sorted by id, each with an actual and an intended status; it
 * answers the v1 list as the service does: select_filters (eq, neq, lt, lte,
 * gt, gte, in, notin on id, actual_status, intended_status), the newest
 * first when an order is given, limit, after_token and total_instances. */
struct fleet {
	long *id;
	const char **st; /* actual_status */
	const char **in; /* intended_status */
	size_t n;
	unsigned long asked; /* list requests answered */
};

static void fleet_init(struct fleet *f, size_t n)
{
	f->id = calloc(n, sizeof *f->id);
	f->st = calloc(n, sizeof *f->st);
	f->in = calloc(n, sizeof *f->in);
	f->n = n;
	f->asked = 0;
	for (size_t i = 0; i < n; i++) {
		f->id[i] = (long)i + 1;
		f->st[i] = "running";
		f->in[i] = "running";
	}
}

static void fleet_free(struct fleet *f)
{
	free(f->id);
	free(f->st);
	free(f->in);
}

static long fleet_at(const struct fleet *f, long id)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->id[i] == id)
			return (long)i;
	return -1;
}

static void fleet_set(struct fleet *f, long id, const char *st)
{
	long i = fleet_at(f, id);
	assert_true(i >= 0);
	f->st[i] = st;
}

/* Destroyed from another client. */
static void fleet_destroy(struct fleet *f, long id)
{
	long i = fleet_at(f, id);
	assert_true(i >= 0);
	memmove(&f->id[i], &f->id[i + 1], (f->n - (size_t)i - 1) * sizeof *f->id);
	memmove(&f->st[i], &f->st[i + 1], (f->n - (size_t)i - 1) * sizeof *f->st);
	memmove(&f->in[i], &f->in[i + 1], (f->n - (size_t)i - 1) * sizeof *f->in);
	f->n--;
}

static int cmp_lng(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* One field's condition against a value (an integer id or a string/NULL). */
static bool cond_ok(const json_t *cond, bool num, long iv, const char *sv)
{
	const char *op;
	json_t *a;
	json_object_foreach((json_t *)cond, op, a) {
		if (!strcmp(op, "in") || !strcmp(op, "notin")) {
			bool hit = false;
			size_t k;
			json_t *e;
			json_array_foreach(a, k, e) {
				if (num)
					hit = hit || (json_is_integer(e) && json_integer_value(e) == iv);
				else
					hit = hit || (json_is_null(e) ? !sv
							  : sv && json_is_string(e) &&
								    !strcmp(sv, json_string_value(e)));
			}
			if (hit != !strcmp(op, "in"))
				return false;
			continue;
		}
		if (!num) {
			bool eq = sv && json_is_string(a) && !strcmp(sv, json_string_value(a));
			if (!strcmp(op, "eq") ? !eq : !strcmp(op, "neq") ? eq : true)
				return false;
			continue;
		}
		long x = (long)json_integer_value(a);
		bool ok = !strcmp(op, "eq")    ? iv == x
			  : !strcmp(op, "neq") ? iv != x
			  : !strcmp(op, "lt")  ? iv < x
			  : !strcmp(op, "lte") ? iv <= x
			  : !strcmp(op, "gt")  ? iv > x
					       : iv >= x;
		if (!ok)
			return false;
	}
	return true;
}

/* The answer to q, as the service would give it. */
static json_t *fleet_answer(struct fleet *f, const struct sweep_query *q)
{
	f->asked++;
	json_t *flt = q->filters ? json_loads(q->filters, 0, NULL) : NULL;
	const json_t *fid = flt ? json_object_get(flt, "id") : NULL;
	const json_t *fst = flt ? json_object_get(flt, "actual_status") : NULL;
	const json_t *fin = flt ? json_object_get(flt, "intended_status") : NULL;
	/* a long notin list is looked up sorted */
	long *notin = NULL;
	size_t nnot = 0;
	json_t *nl = fid ? json_object_get(fid, "notin") : NULL;
	if (nl) {
		notin = malloc((json_array_size(nl) + 1) * sizeof *notin);
		size_t k;
		json_t *e;
		json_array_foreach(nl, k, e) notin[nnot++] = (long)json_integer_value(e);
		qsort(notin, nnot, sizeof *notin, cmp_lng);
		json_object_del((json_t *)fid, "notin");
	}
	size_t *hit = malloc((f->n + 1) * sizeof *hit), nh = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (fid && !cond_ok(fid, true, f->id[i], NULL))
			continue;
		if (notin && bsearch(&f->id[i], notin, nnot, sizeof *notin, cmp_lng))
			continue;
		if (fst && !cond_ok(fst, false, 0, f->st[i]))
			continue;
		if (fin && !cond_ok(fin, false, 0, f->in[i]))
			continue;
		hit[nh++] = i;
	}
	size_t off = q->token ? (size_t)strtoul(q->token, NULL, 10) : 0;
	json_t *arr = json_array();
	for (size_t k = off; k < nh && k < off + (size_t)q->limit; k++) {
		size_t i = hit[q->order ? nh - 1 - k : k];
		json_array_append_new(arr, json_pack("{s:I,s:s?,s:s,s:f,s:f}", "id",
						     (json_int_t)f->id[i], "actual_status", f->st[i],
						     "intended_status", f->in[i], "dph_total", 1.0,
						     "storage_total_cost", 0.01));
	}
	char tok[32];
	snprintf(tok, sizeof tok, "%zu", off + (size_t)q->limit);
	json_t *root = json_pack("{s:o,s:o,s:I}", "instances", arr, "next_token",
				 off + (size_t)q->limit < nh ? json_string(tok) : json_null(),
				 "total_instances", (json_int_t)nh);
	free(hit);
	free(notin);
	json_decref(flt);
	return root;
}

/* A whole sweep (and its removal checks) against the fleet: every row held. */
static void fleet_sweep(struct sweep *w, struct fleet *f)
{
	sweep_cycle(w);
	uint64_t gen = w->gen;
	struct sweep_query q;
	while (sweep_next(w, &q)) {
		json_t *root = fleet_answer(f, &q);
		struct api_error e;
		assert_true(sweep_answer(w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
		if (w->complete_once && !w->active && w->gen == gen && !w->nconfirm)
			break;
	}
	assert_true(w->complete_once);
}

/* One refresh cycle's attention (probes, listings, booting, hunt steps)
 * answered by the fleet; returns the requests it took (the sweep page that
 * follows is not sent). */
static int fleet_cycle(struct sweep *w, struct fleet *f)
{
	sweep_cycle(w);
	int req = 0;
	struct sweep_query q;
	while (sweep_next(w, &q) && q.step != SW_PAGE && q.step != SW_CONFIRM) {
		req++;
		json_t *root = fleet_answer(f, &q);
		struct api_error e;
		assert_true(sweep_answer(w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	sweep_query_free(&q);
	return req;
}

/* Cycles until id shows `st` (at most `max`); returns how many it took (or
 * max + 1), adding the requests spent to *req. */
static int cycles_until(struct sweep *w, struct fleet *f, long id, const char *st, int max,
			int *req)
{
	for (int c = 1; c <= max; c++) {
		*req += fleet_cycle(w, f);
		const char *s = status_of(w, id);
		if (s && !strcmp(s, st))
			return c;
	}
	return max + 1;
}

/* A fleet of n, ids 1..n, running but the first `failed`, offline. */
static void fleet_offline(struct fleet *f, size_t n, long failed)
{
	fleet_init(f, n);
	for (long id = 1; id <= failed; id++)
		fleet_set(f, id, "offline");
}

static void test_attention_merge_replaces_the_row_at_once(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_offline(&f, 100, 10);
	fleet_sweep(&w, &f);
	assert_string_equal(status_of(&w, 77), "running");
	(void)sweep_take_changed(&w);
	fleet_set(&f, 77, "offline");
	fleet_cycle(&w, &f);
	assert_string_equal(status_of(&w, 77), "offline");
	assert_true(sweep_take_changed(&w));
	sweep_free(&w);
	fleet_free(&f);
}

/* Requests of n consecutive cycles. */
static int cycles_cost(struct sweep *w, struct fleet *f, int n)
{
	int req = 0;
	for (int c = 0; c < n; c++)
		req += fleet_cycle(w, f);
	return req;
}

/* The attention cost does not grow with the failures already held: with
 * 1,200 known host failures and nothing new, a cycle is three requests (a
 * listing per group, answered empty, and the booting query) plus, every
 * SWEEP_COUNT_EVERY cycles, one group's count (a group holding none is not
 * counted: one count in eight cycles here), as with 400. */
static void test_attention_cost_flat_in_known_failures(void **state)
{
	(void)state;
	struct sweep a, b;
	struct fleet fa, fb;
	sweep_init(&a);
	sweep_init(&b);
	fleet_offline(&fa, 2000, 1200);
	fleet_offline(&fb, 2000, 400);
	fleet_sweep(&a, &fa);
	fleet_sweep(&b, &fb);
	for (int c = 0; c < 3; c++) {
		assert_int_equal(cycles_cost(&a, &fa, 8), 25);
		assert_int_equal(cycles_cost(&b, &fb, 8), 25);
	}
	/* one new failure among 1,200 known: found in the next cycle */
	unsigned long before = fa.asked;
	fleet_set(&fa, 1999, "offline");
	int rc = fleet_cycle(&a, &fa);
	assert_string_equal(status_of(&a, 1999), "offline");
	assert_true(rc <= 4);
	assert_int_equal(fa.asked - before, (unsigned long)rc);
	/* nothing new: no more than before */
	assert_int_equal(cycles_cost(&a, &fa, 8), 25);
	sweep_free(&a);
	sweep_free(&b);
	fleet_free(&fa);
	fleet_free(&fb);
}

/* A failed instance that leaves its failure state before the full sweep
 * re-reads it (destroyed or restarted from another client, as a script
 * replacing failed instances does) leaves a held failure the service no
 * longer counts; a new failure in the same interval still shows at once
 * (the listings exclude held ids, they do not compare counts), and the
 * departed row is corrected by the count and the hunt without waiting for
 * the sweep, after which the cycle costs what it did. */
static void test_attention_sees_a_failure_masked_by_a_departed_one(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_offline(&f, 2000, 1200);
	fleet_sweep(&w, &f);
	assert_int_equal(cycles_cost(&w, &f, 8), 25);
	/* instance 5 (held offline) is destroyed elsewhere, then 1999's host
	 * drops out */
	fleet_destroy(&f, 5);
	fleet_set(&f, 1999, "offline");
	int req = 0;
	assert_int_equal(cycles_until(&w, &f, 1999, "offline", 4, &req), 1);
	/* the count and the hunt find the departed row by id, without a sweep */
	for (int c = 0; c < 20 && held(&w, 5); c++)
		fleet_cycle(&w, &f);
	assert_false(held(&w, 5));
	/* a held failure that recovers (7 runs again) while 1998 fails */
	fleet_set(&f, 7, "running");
	fleet_set(&f, 1998, "offline");
	assert_int_equal(cycles_until(&w, &f, 1998, "offline", 4, &req), 1);
	for (int c = 0; c < 20 && strcmp(status_of(&w, 7), "running"); c++)
		fleet_cycle(&w, &f);
	assert_string_equal(status_of(&w, 7), "running");
	/* counts agree again */
	assert_int_equal(cycles_cost(&w, &f, 8), 25);
	/* a departed one again (9, destroyed elsewhere); complete sweeps that
	 * re-read every row end the hunt as well */
	fleet_destroy(&f, 9);
	fleet_sweep(&w, &f);
	fleet_sweep(&w, &f);
	assert_false(held(&w, 9));
	assert_false(w.departed[0]);
	assert_int_equal(cycles_cost(&w, &f, 8), 25);
	sweep_free(&w);
	fleet_free(&f);
}

/* The blind spot of a count probe: within one interval a held failure
 * leaves its state and another instance fails, so the group's count is
 * what rentop holds.  The listings see the new one in the next cycle
 * wherever the two are, and several at once too. */
static void test_attention_sees_a_swap_within_one_interval(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_offline(&f, 2000, 1200);
	fleet_sweep(&w, &f);
	for (long gone = 5; gone < 1200; gone += 397) {
		long fresh = 1300 + gone / 2;
		fleet_destroy(&f, gone);
		fleet_set(&f, fresh, "offline");
		int req = 0;
		assert_int_equal(cycles_until(&w, &f, fresh, "offline", 4, &req), 1);
		for (int k = 0; k < 20 && held(&w, gone); k++)
			fleet_cycle(&w, &f);
		assert_false(held(&w, gone));
	}
	/* two departures and two new failures at once */
	fleet_destroy(&f, 10);
	fleet_set(&f, 1100, "running");
	fleet_set(&f, 1600, "offline");
	fleet_set(&f, 1700, "offline");
	fleet_cycle(&w, &f);
	assert_string_equal(status_of(&w, 1600), "offline");
	assert_string_equal(status_of(&w, 1700), "offline");
	for (int k = 0; k < 24 && (held(&w, 10) || strcmp(status_of(&w, 1100), "running")); k++)
		fleet_cycle(&w, &f);
	assert_false(held(&w, 10));
	assert_string_equal(status_of(&w, 1100), "running");
	assert_int_equal(cycles_cost(&w, &f, 8), 25);
	sweep_free(&w);
	fleet_free(&f);
}

/* A fleet of n with the live service's kind of ids (seven digits, gaps),
 * running; every `every`-th instance offline, from the first. */
static void fleet_wide(struct fleet *f, size_t n, size_t every)
{
	fleet_init(f, n);
	for (size_t i = 0; i < n; i++) {
		f->id[i] = 9100000 + (long)i * 7;
		if (every && i % every == 0)
			f->st[i] = "offline";
	}
}

/* The id range a listing asked for: [*lo, *hi) (LONG_MIN, LONG_MAX: open). */
static void query_range(const struct sweep_query *q, long *lo, long *hi, size_t *nnot)
{
	json_t *f = json_loads(q->filters, 0, NULL);
	assert_non_null(f);
	json_t *id = json_object_get(f, "id");
	json_t *g = id ? json_object_get(id, "gte") : NULL, *l = id ? json_object_get(id, "lt") : NULL;
	*lo = g ? (long)json_integer_value(g) : LONG_MIN;
	*hi = l ? (long)json_integer_value(l) : LONG_MAX;
	json_t *ni = id ? json_object_get(id, "notin") : NULL;
	*nnot = ni ? json_array_size(ni) : 0;
	json_decref(f);
}

struct span {
	long lo, hi;
};

/* One cycle, noting the id ranges of its host-group listings (first page
 * of each part) and checking each listing's filter against the budget. */
static size_t cycle_spans(struct sweep *w, struct fleet *f, struct span *sp, size_t max)
{
	sweep_cycle(w);
	size_t n = 0;
	struct sweep_query q;
	while (sweep_next(w, &q) && q.step != SW_PAGE && q.step != SW_CONFIRM) {
		if (q.step == SW_FAILSCAN) {
			assert_true(sweep_enc_len(q.filters) <= w->url_budget);
			if (w->group == 0 && !q.token && n < max) {
				size_t nn;
				query_range(&q, &sp[n].lo, &sp[n].hi, &nn);
				n++;
			}
		}
		json_t *root = fleet_answer(f, &q);
		struct api_error e;
		assert_true(sweep_answer(w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	sweep_query_free(&q);
	return n;
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Do the spans cover every id (from LONG_MIN up, no gap)? */
static bool spans_cover_all(struct span *sp, size_t n)
{
	qsort(sp, n, sizeof *sp, cmp_span);
	long reach = LONG_MIN;
	for (size_t i = 0; i < n; i++) {
		if (sp[i].lo > reach)
			return false;
		if (sp[i].hi > reach)
			reach = sp[i].hi;
	}
	return reach == LONG_MAX;
}

/* With more held failures than one listing's URL holds, the parts rotate:
 * any two consecutive cycles list every part of the id space between them,
 * each cycle lists about half, and no filter passes the byte budget. */
static void test_attention_parts_rotation_covers_all(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_wide(&f, 10000, 2); /* 5,000 held host failures */
	fleet_sweep(&w, &f);
	struct span sp[64];
	size_t prev = cycle_spans(&w, &f, sp, 32);
	size_t nparts = 0;
	for (int c = 0; c < 9; c++) {
		size_t n = cycle_spans(&w, &f, sp + prev, 32);
		/* 5,000 ids of 7 digits: about 50,000 bytes, four parts a cycle
		 * of the seven or so */
		assert_true(n >= 2 && n <= 6);
		nparts = w.nparts ? w.nparts : nparts;
		struct span both[64];
		memcpy(both, sp, (prev + n) * sizeof *sp);
		assert_true(spans_cover_all(both, prev + n));
		memmove(sp, sp + prev, n * sizeof *sp);
		prev = n;
	}
	/* one cycle alone does not cover everything (half the parts) */
	struct span one[32];
	size_t n1 = cycle_spans(&w, &f, one, 32);
	assert_false(spans_cover_all(one, n1));
	/* a new failure anywhere is found within two cycles */
	for (size_t i = 1; i < f.n; i += 1999) {
		fleet_set(&f, f.id[i], "offline");
		int req = 0;
		assert_true(cycles_until(&w, &f, f.id[i], "offline", 3, &req) <= 2);
		assert_true(req <= 2 * SWEEP_ATT_MAX_REQ);
	}
	sweep_free(&w);
	fleet_free(&f);
}

/* Each listing's select_filters is at most url_budget bytes once encoded
 * (sweep_enc_len counts what curl_easy_escape writes), and a part is as
 * large as the budget allows: one more held id would not fit. */
static void test_attention_url_byte_sizing(void **state)
{
	(void)state;
	const char *samples[] = { "{\"id\":{\"notin\":[9100000,9100007]}}", "aZ09-._~ %,[]\"", "" };
	for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
		char *e = curl_easy_escape(NULL, samples[i], 0);
		assert_int_equal(sweep_enc_len(samples[i]), strlen(e));
		curl_free(e);
	}
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_wide(&f, 10000, 3); /* 3,334 held */
	fleet_sweep(&w, &f);
	assert_int_equal(w.url_budget, SWEEP_URL_START);
	sweep_cycle(&w);
	struct sweep_query q;
	size_t parts = 0, excluded = 0;
	while (sweep_next(&w, &q) && q.step == SW_FAILSCAN && w.group == 0) {
		size_t len = sweep_enc_len(q.filters);
		assert_true(len <= SWEEP_URL_START);
		long lo, hi;
		size_t nn;
		query_range(&q, &lo, &hi, &nn);
		excluded += nn;
		/* not the last part asked: the next id (7 digits and %2C) would
		 * not have fitted (the bounds are counted at their widest) */
		if (hi != LONG_MAX)
			assert_true(len + 10 + 2 * 13 > SWEEP_URL_START);
		assert_int_equal(w.nparts, 3);
		parts++;
		json_t *root = fleet_answer(&f, &q);
		struct api_error e;
		assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	sweep_query_free(&q);
	/* 3,334 ids of 7 digits at 10 bytes: two parts of about 1,380 and the
	 * rest; a cycle lists two (half of three, rounded up): the newest (the
	 * rest) and one full part */
	assert_int_equal(parts, 2);
	assert_true(excluded > 3334 - 1400 && excluded < 3334 - 1300);
	sweep_free(&w);
	fleet_free(&f);
}

/* A 414 (the URL too long for the service) halves the budget, down to the
 * floor and no lower, and is no failure: the listing is asked again in
 * smaller parts, from the same place, and a new failure is still found.
 * At the floor a 414 is a failure (attention ends for the cycle). */
static void test_attention_414_halves_to_the_floor(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_wide(&f, 4000, 4); /* 1,000 held */
	fleet_sweep(&w, &f);
	fleet_set(&f, f.id[f.n - 2], "offline");
	sweep_cycle(&w);
	size_t want[] = { 7000, 3500, 1750, SWEEP_URL_FLOOR };
	struct sweep_query q;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	assert_true(sweep_enc_len(q.filters) <= SWEEP_URL_START);
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		assert_true(sweep_too_long(&w, &q));
		assert_int_equal(w.url_budget, want[k]);
		sweep_query_free(&q);
		/* the next listing fits the halved budget and starts at the
		 * newest ids again (the refused part was the newest) */
		assert_true(sweep_next(&w, &q));
		assert_int_equal(q.step, SW_FAILSCAN);
		assert_true(sweep_enc_len(q.filters) <= want[k]);
		long lo, hi;
		size_t nn;
		query_range(&q, &lo, &hi, &nn);
		assert_true(hi == LONG_MAX);
		assert_true(nn > 0);
	}
	sweep_query_free(&q);
	/* at the floor: a failure, not a halving */
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	assert_false(sweep_too_long(&w, &q));
	assert_int_equal(w.url_budget, SWEEP_URL_FLOOR);
	sweep_failed(&w, &q);
	sweep_query_free(&q);
	/* only listings halve: another step refused is a failure */
	struct sweep_query page = { .step = SW_PAGE };
	assert_false(sweep_too_long(&w, &page));
	/* the next cycle, at the floor, finds the new failure */
	int req = 0;
	long fresh = f.id[f.n - 2];
	assert_true(cycles_until(&w, &f, fresh, "offline", 2, &req) <= 2);
	assert_int_equal(w.too_long, 4);
	sweep_free(&w);
	fleet_free(&f);
}

/* A cycle that begins while the last one's attention is still under way
 * (more parts than a cycle's budget) is not lost until the cycle after:
 * its attention starts once the running one ends and one sweep page has
 * gone, so the sweep still moves and a new failure is not a cycle late. */
static void test_attention_overrun_cycle_follows_one_page(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_wide(&f, 4000, 4); /* 1,000 held */
	fleet_sweep(&w, &f);
	sweep_cycle(&w); /* a new sweep and a cycle's attention */
	w.url_budget = SWEEP_URL_FLOOR; /* many parts, as after 414s */
	struct sweep_query q;
	struct api_error e;
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	sweep_cycle(&w); /* the next cycle's time, attention still running */
	assert_true(w.cycle_owed);
	unsigned long cyc = w.cycles;
	enum sweep_step prev = q.step;
	int steps = 0;
	for (;;) {
		json_t *root = fleet_answer(&f, &q);
		assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
		assert_true(sweep_next(&w, &q));
		assert_true(++steps < 40);
		if (q.step == SW_PAGE)
			break;
		prev = q.step;
	}
	assert_int_equal(prev, SW_BOOTING); /* the first cycle's attention ran out */
	assert_int_equal(w.cycles, cyc);
	/* one page, then the owed cycle's attention, without sweep_cycle */
	json_t *root = fleet_answer(&f, &q);
	assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
	json_decref(root);
	sweep_query_free(&q);
	assert_true(sweep_next(&w, &q));
	assert_int_equal(q.step, SW_FAILSCAN);
	assert_int_equal(w.cycles, cyc + 1);
	assert_false(w.cycle_owed);
	sweep_query_free(&q);
	sweep_free(&w);
	fleet_free(&f);
}

/* A cycle's attention stops at SWEEP_ATT_MAX_REQ requests however many
 * parts are left (here about 23 parts of 3,000 held failures at the
 * floor budget: 12 due this cycle); the sweep goes on after it. */
static void test_attention_capped_per_cycle(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_wide(&f, 12000, 4);
	fleet_sweep(&w, &f);
	sweep_cycle(&w);
	w.url_budget = SWEEP_URL_FLOOR;
	struct sweep_query q;
	struct api_error e;
	int att = 0;
	for (;;) {
		assert_true(sweep_next(&w, &q));
		if (q.step == SW_PAGE)
			break;
		att++;
		json_t *root = fleet_answer(&f, &q);
		assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
		assert_true(att <= SWEEP_ATT_MAX_REQ);
	}
	sweep_query_free(&q);
	assert_int_equal(att, SWEEP_ATT_MAX_REQ);
	assert_int_equal(w.att, ATT_IDLE);
	sweep_free(&w);
	fleet_free(&f);
}

/* The probe cost at the seeded fleet's scale: 10,000 instances, about 1,200
 * failures held (430 host, 770 run) and 1,800 stopped by the operator; the
 * figures are printed as a note.  A swap in each group is found in the next
 * cycle, a failed instance that recovers is corrected by the count and the
 * hunt, and the cycle costs what it did once the hunt is over. */
static void test_attention_cost_at_10000(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_init(&f, 10000);
	uint64_t r = 1;
	size_t host = 0, run = 0, stopped = 0;
	for (size_t i = 0; i < f.n; i++) {
		f.id[i] = 9100000 + (long)i * 7;
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned x = (unsigned)(r >> 33) % 10000;
		if (x < 430) {
			f.st[i] = x & 1 ? "offline" : "unknown";
			host++;
		} else if (x < 1200) {
			f.st[i] = x & 1 ? "exited" : "created";
			run++;
		} else if (x < 3000) {
			f.st[i] = "exited";
			f.in[i] = "stopped";
			stopped++;
		}
	}
	fleet_sweep(&w, &f);
	/* three a cycle, and a count every SWEEP_COUNT_EVERY cycles */
	int steady = cycles_cost(&w, &f, 8);
	assert_int_equal(steady, 26);
	/* a swap in each group: a held failure recovers or is destroyed, a
	 * running one fails */
	long gone_h = -1, gone_r = -1, new_h = -1, new_r = -1;
	for (size_t i = 0; i < f.n; i++) {
		if (gone_h < 0 && !strcmp(f.st[i], "offline"))
			gone_h = f.id[i];
		if (gone_r < 0 && !strcmp(f.st[i], "created"))
			gone_r = f.id[i];
		if (i > f.n / 2 && new_r < 0 && !strcmp(f.st[i], "running")) {
			if (new_h < 0)
				new_h = f.id[i];
			else
				new_r = f.id[i];
		}
	}
	assert_true(gone_h > 0 && gone_r > 0 && new_h > 0 && new_r > 0);
	fleet_set(&f, gone_h, "running");
	fleet_destroy(&f, gone_r);
	fleet_set(&f, new_h, "offline");
	fleet_set(&f, new_r, "exited");
	int req = fleet_cycle(&w, &f);
	assert_string_equal(status_of(&w, new_h), "offline");
	assert_string_equal(status_of(&w, new_r), "exited");
	int hunt = 0, hc = 0;
	while ((strcmp(status_of(&w, gone_h), "running") || held(&w, gone_r)) && hc < 20) {
		hunt += fleet_cycle(&w, &f);
		hc++;
	}
	assert_string_equal(status_of(&w, gone_h), "running");
	assert_false(held(&w, gone_r));
	int after = cycles_cost(&w, &f, 8);
	assert_int_equal(after, 26);
	printf("# attention at 10,000 instances, %zu failures held (%zu host, %zu run; %zu "
	       "stopped not counted): %.1f requests per cycle (v1 list, 1/s); a swap in each group "
	       "found in the next cycle (%d requests); the departures corrected after %d more "
	       "cycles (%d requests); then %.1f per cycle\n",
	       host + run, host, run, stopped, steady / 8.0, req, hc, hunt, after / 8.0);
	sweep_free(&w);
	fleet_free(&f);
}

static void test_partial_figures_rule(void **state)
{
	(void)state;
	struct instance v[2];
	memset(v, 0, sizeof v);
	v[0].state = IS_RUNNING;
	v[0].dph_total = 2.5;
	v[1].state = IS_STOPPED;
	v[1].storage_total_cost = 0.5;
	struct snapshot s;
	memset(&s, 0, sizeof s);
	double burn;
	/* nothing loaded yet: no figure, never $0 */
	s.progress.partial = true;
	assert_int_equal(money_burn_figure(&s, &burn), FIG_UNKNOWN);
	/* a part loaded: at least */
	const struct instance *pv[2] = { &v[0], &v[1] };
	s.instances = pv;
	s.ninstances = 2;
	assert_int_equal(money_burn_figure(&s, &burn), FIG_AT_LEAST);
	assert_float_equal(burn, 3.0, 1e-9);
	/* a part that bills nothing: still no figure */
	s.ninstances = 0;
	assert_int_equal(money_burn_figure(&s, &burn), FIG_UNKNOWN);
	/* complete: exact, even 0 */
	s.progress.partial = false;
	assert_int_equal(money_burn_figure(&s, &burn), FIG_EXACT);
	assert_float_equal(burn, 0.0, 1e-9);
}

/* ---- the budget while the first sweep runs ------------------------------ */

#define LOAD_CYCLE_REQ 5 /* list requests a refresh cycle: 5 s at 1 request/s */

/* The poller's rhythm against the fleet, `from` requests already sent: a
 * refresh cycle every LOAD_CYCLE_REQ requests, every request answered,
 * until the first sweep is complete or `max` requests went in all.  Each
 * step sent is kept in steps[] at its request's number.  Returns the
 * requests sent in all. */
static int fleet_load(struct sweep *w, struct fleet *f, enum sweep_step *steps, int from,
		      int max)
{
	int req = from;
	while (!w->complete_once && req < max) {
		if (req % LOAD_CYCLE_REQ == 0)
			sweep_cycle(w);
		struct sweep_query q;
		assert_true(sweep_next(w, &q));
		steps[req++] = q.step;
		json_t *root = fleet_answer(f, &q);
		struct api_error e;
		assert_true(sweep_answer(w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	return req;
}

/* A fleet of n, ids 1..n: every eighth host offline, every twentieth
 * instance exited while meant to run, a few loading. */
static void fleet_mixed(struct fleet *f, size_t n)
{
	fleet_init(f, n);
	for (long id = 1; id <= (long)n; id++) {
		if (id % 8 == 0)
			fleet_set(f, id, "offline");
		else if (id % 20 == 0)
			fleet_set(f, id, "exited");
		else if (id % 97 == 0)
			fleet_set(f, id, "loading");
	}
}

/* Until the first sweep is complete the sweep takes nearly every request:
 * 1,000 instances (40 pages) whole in at most 40 / (SWEEP_FIRST_EVERY - 1)
 * + 2 more (it took 208 when attention came first every cycle).  The first
 * page goes first, the failures not held yet right after it, and after
 * that no more than one attention request in SWEEP_FIRST_EVERY. */
static void test_first_sweep_takes_nearly_all_the_budget(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	enum sweep_step steps[400];
	sweep_init(&w);
	fleet_mixed(&f, 1000);
	int req = fleet_load(&w, &f, steps, 0, 400), req1000 = req;
	assert_true(w.complete_once);
	assert_int_equal(w.n, 1000);
	int pages = 0;
	for (int i = 0; i < req; i++)
		pages += steps[i] == SW_PAGE;
	assert_int_equal(pages, 40);
	assert_true(req <= 40 + 40 / (SWEEP_FIRST_EVERY - 1) + 2);
	assert_int_equal(steps[0], SW_PAGE);     /* rows and the total at once */
	assert_int_equal(steps[1], SW_FAILSCAN); /* then the failures not held yet */
	for (int i = 2; i + SWEEP_FIRST_EVERY <= req; i++) {
		int other = 0;
		for (int k = i; k < i + SWEEP_FIRST_EVERY; k++)
			other += steps[k] != SW_PAGE;
		assert_true(other <= 1);
	}
	/* only failure listings: no count, no booting listing, no hunt */
	for (int i = 0; i < req; i++)
		assert_true(steps[i] == SW_PAGE || steps[i] == SW_FAILSCAN);
	assert_string_equal(status_of(&w, 1000), "offline");
	assert_string_equal(status_of(&w, 980), "exited");
	assert_string_equal(status_of(&w, 97), "loading");
	/* 10,000 (400 pages) in at most 400 / (SWEEP_FIRST_EVERY - 1) + 2 more */
	sweep_free(&w);
	fleet_free(&f);
	enum sweep_step *big = malloc(4000 * sizeof *big);
	sweep_init(&w);
	fleet_mixed(&f, 10000);
	req = fleet_load(&w, &f, big, 0, 4000);
	assert_true(w.complete_once);
	assert_int_equal(w.n, 10000);
	assert_true(req <= 400 + 400 / (SWEEP_FIRST_EVERY - 1) + 2);
	print_message("# first complete table: 1,000 in %d requests, 10,000 in %d (1 request/s)\n",
		      req1000, req);
	free(big);
	sweep_free(&w);
	fleet_free(&f);
}

/* A host that drops out while the first sweep runs, among the ids the
 * sweep reads last, is listed within two attention turns (the groups take
 * turns): 2 * SWEEP_FIRST_EVERY requests and the first one. */
static void test_first_sweep_sees_a_host_dropping_out(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	enum sweep_step steps[400];
	sweep_init(&w);
	fleet_mixed(&f, 1000);
	int req = fleet_load(&w, &f, steps, 0, 13); /* a few pages in */
	assert_false(w.complete_once);
	fleet_set(&f, 999, "offline");
	int more = 0;
	while (!(status_of(&w, 999) && !strcmp(status_of(&w, 999), "offline"))) {
		assert_true(more < 2 * SWEEP_FIRST_EVERY + 1);
		more = fleet_load(&w, &f, steps, req + more, req + more + 1) - req;
	}
	assert_false(w.complete_once); /* by attention, not by the sweep */
	print_message("# a host dropping out during the first sweep: held offline after %d requests\n",
		      more);
	sweep_free(&w);
	fleet_free(&f);
}

/* Once the first sweep is complete the attention listings get their share
 * again: each refresh cycle begins with them (both failure groups, then the
 * booting listing) before any page of the next sweep, and a host that drops
 * out is held offline within that cycle; then a run failure too. */
static void test_attention_share_after_the_first_sweep(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	enum sweep_step steps[400];
	sweep_init(&w);
	fleet_mixed(&f, 1000);
	(void)fleet_load(&w, &f, steps, 0, 400);
	assert_true(w.complete_once);
	drain(&w); /* the last first-sweep listing, whatever it was */
	fleet_set(&f, 555, "offline");
	sweep_cycle(&w);
	struct sweep_query q;
	int att = 0;
	for (;;) {
		assert_true(sweep_next(&w, &q));
		if (q.step == SW_PAGE || q.step == SW_CONFIRM)
			break;
		att++;
		json_t *root = fleet_answer(&f, &q);
		struct api_error e;
		assert_true(sweep_answer(&w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	sweep_query_free(&q);
	assert_true(att >= SWEEP_FAIL_GROUPS + 1); /* both groups and the booting listing */
	assert_string_equal(status_of(&w, 555), "offline");
	fleet_set(&f, 556, "exited");
	int r = 0;
	assert_int_equal(cycles_until(&w, &f, 556, "exited", 1, &r), 1);
	assert_true(r <= LOAD_CYCLE_REQ);
	sweep_free(&w);
	fleet_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pager_pages_until_null_token),
		cmocka_unit_test(test_first_rows_after_the_first_page),
		cmocka_unit_test(test_complete_sweep_removes_after_the_by_id_check),
		cmocka_unit_test(test_interrupted_sweep_removes_nothing),
		cmocka_unit_test(test_moved_and_duplicate_rows),
		cmocka_unit_test(test_server_ignoring_the_filter_removes_nothing),
		cmocka_unit_test(test_unasked_last_row_removes_nothing),
		cmocka_unit_test(test_two_page_fleet_is_not_small),
		cmocka_unit_test(test_pager_page_max),
		cmocka_unit_test(test_v0_list_is_the_truth),
		cmocka_unit_test(test_failures_of_each_kind),
		cmocka_unit_test(test_late_attention_answers),
		cmocka_unit_test(test_answers_without_a_total),
		cmocka_unit_test(test_pager_shapes),
		cmocka_unit_test(test_booting_pages_cols_and_pending_checks),
		cmocka_unit_test(test_removal_checks_in_pages),
		cmocka_unit_test(test_forget_removes_at_once),
		cmocka_unit_test(test_attention_merge_replaces_the_row_at_once),
		cmocka_unit_test(test_attention_cost_flat_in_known_failures),
		cmocka_unit_test(test_attention_sees_a_failure_masked_by_a_departed_one),
		cmocka_unit_test(test_attention_sees_a_swap_within_one_interval),
		cmocka_unit_test(test_attention_parts_rotation_covers_all),
		cmocka_unit_test(test_attention_url_byte_sizing),
		cmocka_unit_test(test_attention_414_halves_to_the_floor),
		cmocka_unit_test(test_attention_overrun_cycle_follows_one_page),
		cmocka_unit_test(test_attention_capped_per_cycle),
		cmocka_unit_test(test_attention_cost_at_10000),
		cmocka_unit_test(test_first_sweep_takes_nearly_all_the_budget),
		cmocka_unit_test(test_first_sweep_sees_a_host_dropping_out),
		cmocka_unit_test(test_attention_share_after_the_first_sweep),
		cmocka_unit_test(test_partial_figures_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
