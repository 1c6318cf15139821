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

#include "model.h"
#include "sweep.h"

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

/* A small fleet (two pages, so no attention on later cycles either) swept once. */
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
	instances_free(v, n);
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

/* Held: ids 1..n running except the first `failed` ones, offline. */
static void load(struct sweep *w, long n, long failed)
{
	sweep_cycle(w);
	for (long a = 1; a <= n; a += 25) {
		json_t *arr = json_array();
		for (long id = a; id < a + 25 && id <= n; id++)
			json_array_append_new(arr, inst(id, id <= failed ? "offline" : "running"));
		char tok[32];
		snprintf(tok, sizeof tok, "o%ld", a + 24);
		json_t *root = json_pack("{s:o,s:o,s:I}", "instances", arr, "next_token",
					 a + 25 <= n ? json_string(tok) : json_null(),
					 "total_instances", (json_int_t)n);
		struct sweep_query q;
		while (sweep_next(w, &q) && q.step != SW_PAGE) {
			sweep_failed(w, &q);
			sweep_query_free(&q);
		}
		struct api_error e;
		assert_true(sweep_answer(w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	assert_true(w->complete_once);
}

/* One attention cycle where the service counts `host_total` host failures
 * and lists `fresh` new ones (in the first range scanned, the newest ids);
 * returns the requests it took. */
static int attention_cycle(struct sweep *w, long host_total, json_t *fresh)
{
	sweep_cycle(w);
	int req = 0;
	bool listed = false;
	struct sweep_query q;
	while (sweep_next(w, &q) && q.step != SW_PAGE && q.step != SW_CONFIRM) {
		req++;
		json_t *root;
		bool host = q.filters && strstr(q.filters, "offline");
		if (q.step == SW_FAILCOUNT)
			root = json_pack("{s:[{s:I}],s:n,s:I}", "instances", "id", (json_int_t)1,
					 "next_token", "total_instances",
					 (json_int_t)(host ? host_total : 0));
		else if (q.step == SW_FAILSCAN && host && fresh && !listed) {
			root = json_incref(fresh);
			listed = true;
		}
		else
			root = json_pack("{s:[],s:n,s:I}", "instances", "next_token",
					 "total_instances", (json_int_t)0);
		struct api_error e;
		assert_true(sweep_answer(w, &q, root, 1000.0, &e));
		json_decref(root);
		sweep_query_free(&q);
	}
	sweep_query_free(&q);
	return req;
}

static void test_attention_merge_replaces_the_row_at_once(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	load(&w, 100, 10);
	assert_string_equal(status_of(&w, 77), "running");
	(void)sweep_take_changed(&w);
	json_t *fresh = json_pack("{s:[o],s:n,s:I}", "instances", inst(77, "offline"),
				  "next_token", "total_instances", (json_int_t)1);
	attention_cycle(&w, 11, fresh);
	json_decref(fresh);
	assert_string_equal(status_of(&w, 77), "offline");
	assert_true(sweep_take_changed(&w));
	sweep_free(&w);
}

/* The attention cost does not grow with the failures already held: with
 * 1,200 known host failures and nothing new, a cycle is three requests
 * (two count probes and the booting query), as with 100. */
static void test_attention_cost_flat_in_known_failures(void **state)
{
	(void)state;
	struct sweep a, b;
	sweep_init(&a);
	sweep_init(&b);
	load(&a, 2000, 1200);
	load(&b, 2000, 400);
	int ra = attention_cycle(&a, 1200, NULL);
	int rb = attention_cycle(&b, 400, NULL);
	assert_int_equal(ra, 3);
	assert_int_equal(rb, 3);
	/* one new failure among 1,200 known: found within the request cap */
	json_t *fresh = json_pack("{s:[o],s:n,s:I}", "instances", inst(1999, "offline"),
				  "next_token", "total_instances", (json_int_t)1);
	int rc = attention_cycle(&a, 1201, fresh);
	json_decref(fresh);
	assert_string_equal(status_of(&a, 1999), "offline");
	assert_true(rc <= SWEEP_ATT_MAX_REQ);
	/* the same counts next cycle: no scan again */
	assert_int_equal(attention_cycle(&a, 1201, NULL), 3);
	sweep_free(&a);
	sweep_free(&b);
}

/* The blind spot of count probes: a failed instance that leaves its failure
 * state before the full sweep re-reads it (destroyed or stopped from another
 * client, as a script replacing failed instances does) leaves a held
 * failure the service no longer counts; a new failure then brings the
 * count back to what rentop holds.  It must still be found, and the extra
 * cost must end once the sweep has corrected the stale row. */
static void test_attention_sees_a_failure_masked_by_a_departed_one(void **state)
{
	(void)state;
	struct sweep w;
	sweep_init(&w);
	load(&w, 2000, 1200);
	assert_int_equal(attention_cycle(&w, 1200, NULL), 3);
	/* instance 5 (held offline) is destroyed elsewhere: the service counts 1,199 */
	attention_cycle(&w, 1199, NULL);
	assert_string_equal(status_of(&w, 5), "offline"); /* the sweep will correct it */
	/* then 1999's host drops out: 1,200 counted, 1,200 held, one of them stale */
	json_t *fresh = json_pack("{s:[o],s:n,s:I}", "instances", inst(1999, "offline"),
				  "next_token", "total_instances", (json_int_t)1);
	int rc = attention_cycle(&w, 1200, fresh);
	json_decref(fresh);
	assert_string_equal(status_of(&w, 1999), "offline");
	assert_true(rc <= SWEEP_ATT_MAX_REQ);
	/* the same counts again: still scanned while a stale row is held, so a
	 * swap within one cycle (7, held offline, destroyed while 1998's host
	 * drops out) is found too; the price while stale: the count probe, the
	 * five ranges of 300 known ids (1,201 held), the run group and the
	 * booting query, within the cap */
	assert_int_equal(attention_cycle(&w, 1200, NULL), SWEEP_ATT_MAX_REQ);
	fresh = json_pack("{s:[o],s:n,s:I}", "instances", inst(1998, "offline"), "next_token",
			  "total_instances", (json_int_t)1);
	attention_cycle(&w, 1200, fresh);
	json_decref(fresh);
	assert_string_equal(status_of(&w, 1998), "offline");
	/* the sweep removes the destroyed rows: counts agree again, and after
	 * one scan that proves it the cycle is back to three requests */
	sweep_forget(&w, 5);
	sweep_forget(&w, 7);
	attention_cycle(&w, 1200, NULL);
	assert_int_equal(attention_cycle(&w, 1200, NULL), 3);
	/* stale again (9 destroyed elsewhere); a complete sweep that re-reads
	 * every row ends it as well */
	attention_cycle(&w, 1199, NULL);
	assert_int_equal(attention_cycle(&w, 1199, NULL), 7);
	load(&w, 2000, 1199);
	assert_int_equal(attention_cycle(&w, 1199, NULL), 3);
	sweep_free(&w);
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
	assert_int_equal(model_burn_figure(&s, &burn), FIG_UNKNOWN);
	/* a part loaded: at least */
	s.instances = v;
	s.ninstances = 2;
	assert_int_equal(model_burn_figure(&s, &burn), FIG_AT_LEAST);
	assert_float_equal(burn, 3.0, 1e-9);
	/* a part that bills nothing: still no figure */
	s.ninstances = 0;
	assert_int_equal(model_burn_figure(&s, &burn), FIG_UNKNOWN);
	/* complete: exact, even 0 */
	s.progress.partial = false;
	assert_int_equal(model_burn_figure(&s, &burn), FIG_EXACT);
	assert_float_equal(burn, 0.0, 1e-9);
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
		cmocka_unit_test(test_forget_removes_at_once),
		cmocka_unit_test(test_attention_merge_replaces_the_row_at_once),
		cmocka_unit_test(test_attention_cost_flat_in_known_failures),
		cmocka_unit_test(test_attention_sees_a_failure_masked_by_a_departed_one),
		cmocka_unit_test(test_partial_figures_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
