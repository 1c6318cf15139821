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

/* The attention cost does not grow with the failures already held: with
 * 1,200 known host failures and nothing new, a cycle is three requests
 * (two count probes and the booting query), as with 400. */
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
	for (int c = 0; c < 6; c++) { /* every chunk of the rotation */
		assert_int_equal(fleet_cycle(&a, &fa), 3);
		assert_int_equal(fleet_cycle(&b, &fb), 3);
	}
	/* one new failure among 1,200 known: found at once, within the cap */
	fleet_set(&fa, 1999, "offline");
	int rc = fleet_cycle(&a, &fa);
	assert_string_equal(status_of(&a, 1999), "offline");
	assert_true(rc <= SWEEP_ATT_MAX_REQ);
	/* nothing new next cycle: no scan again */
	assert_int_equal(fleet_cycle(&a, &fa), 3);
	sweep_free(&a);
	sweep_free(&b);
	fleet_free(&fa);
	fleet_free(&fb);
}

/* A failed instance that leaves its failure state before the full sweep
 * re-reads it (destroyed or restarted from another client, as a script
 * replacing failed instances does) leaves a held failure the service no
 * longer counts; a new failure then brings a plain count back to what
 * rentop holds.  It must still be found, and the departed row corrected
 * without waiting for the sweep, after which a cycle costs three requests
 * again. */
static void test_attention_sees_a_failure_masked_by_a_departed_one(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_offline(&f, 2000, 1200);
	fleet_sweep(&w, &f);
	assert_int_equal(fleet_cycle(&w, &f), 3);
	/* instance 5 (held offline) is destroyed elsewhere */
	fleet_destroy(&f, 5);
	fleet_cycle(&w, &f);
	/* then 1999's host drops out */
	fleet_set(&f, 1999, "offline");
	int req = 0;
	assert_true(cycles_until(&w, &f, 1999, "offline", 4, &req) <= 4);
	/* the hunt finds the departed row by id, without a sweep */
	for (int c = 0; c < 8 && held(&w, 5); c++)
		fleet_cycle(&w, &f);
	assert_false(held(&w, 5));
	/* a swap within one cycle (7, held offline, destroyed while 1998's
	 * host drops out) is found too */
	fleet_destroy(&f, 7);
	fleet_set(&f, 1998, "offline");
	assert_true(cycles_until(&w, &f, 1998, "offline", 4, &req) <= 4);
	for (int c = 0; c < 8 && held(&w, 7); c++)
		fleet_cycle(&w, &f);
	assert_false(held(&w, 7));
	/* counts agree again: three requests a cycle, every chunk */
	for (int c = 0; c < 5; c++)
		assert_int_equal(fleet_cycle(&w, &f), 3);
	/* a departed one again (9, destroyed elsewhere); complete sweeps that
	 * re-read every row end the hunt as well (the sweep under way had
	 * re-read 9 by id before it left: the next one removes it) */
	fleet_destroy(&f, 9);
	fleet_cycle(&w, &f);
	fleet_sweep(&w, &f);
	fleet_sweep(&w, &f);
	assert_false(held(&w, 9));
	assert_false(w.departed[0]);
	assert_int_equal(fleet_cycle(&w, &f), 3);
	sweep_free(&w);
	fleet_free(&f);
}

/* The blind spot of a plain count probe: within one probe interval a held
 * failure leaves its state (destroyed elsewhere) and another instance, in
 * the middle of the id range, fails: the group's count is what rentop
 * holds.  The chunked count sees it within ceil(held / SWEEP_NOTIN_MAX)
 * cycles wherever the two are, and several departures at once are found
 * by the hunt, not left to the sweep. */
static void test_attention_sees_a_swap_within_one_interval(void **state)
{
	(void)state;
	struct sweep w;
	struct fleet f;
	sweep_init(&w);
	fleet_offline(&f, 2000, 1200);
	fleet_sweep(&w, &f);
	int m = (1200 + SWEEP_NOTIN_MAX - 1) / SWEEP_NOTIN_MAX;
	for (long gone = 5; gone < 1200; gone += 397) { /* each chunk in turn */
		assert_int_equal(fleet_cycle(&w, &f), 3);
		long fresh = 1300 + gone / 2;
		fleet_destroy(&f, gone);
		fleet_set(&f, fresh, "offline");
		int req = 0;
		int c = cycles_until(&w, &f, fresh, "offline", 2 * m, &req);
		assert_true(c <= m);
		for (int k = 0; k < 10 && held(&w, gone); k++)
			fleet_cycle(&w, &f);
		assert_false(held(&w, gone));
	}
	/* two departures in different chunks and two new failures at once */
	fleet_destroy(&f, 10);
	fleet_destroy(&f, 1100);
	fleet_set(&f, 1600, "offline");
	fleet_set(&f, 1700, "offline");
	int req = 0;
	assert_true(cycles_until(&w, &f, 1600, "offline", 12, &req) <= 12);
	assert_true(cycles_until(&w, &f, 1700, "offline", 12, &req) <= 12);
	for (int k = 0; k < 16 && (held(&w, 10) || held(&w, 1100)); k++)
		fleet_cycle(&w, &f);
	assert_false(held(&w, 10));
	assert_false(held(&w, 1100));
	for (int c = 0; c < 5; c++)
		assert_int_equal(fleet_cycle(&w, &f), 3);
	sweep_free(&w);
	fleet_free(&f);
}

/* The probe cost at the seeded fleet's scale: 10,000 instances, about 1,200
 * failures held (430 host, 770 run) and 1,800 stopped by the operator; the
 * figures are printed as a note.  A swap in each group is found within its
 * rotation, and the cycle costs three requests again once the hunt is over. */
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
	int steady = 0;
	for (int c = 0; c < 10; c++)
		steady += fleet_cycle(&w, &f);
	assert_int_equal(steady, 30);
	/* a swap in each group: a held failure destroyed, a running one fails */
	long gone_h = -1, gone_r = -1, new_h = -1, new_r = -1;
	for (size_t i = 0; i < f.n; i++) {
		if (gone_h < 0 && !strcmp(f.st[i], "offline"))
			gone_h = f.id[i];
		if (gone_r < 0 && !strcmp(f.st[i], "created"))
			gone_r = f.id[i];
		/* the new ones in the middle of the id range */
		if (i > f.n / 2 && new_r < 0 && !strcmp(f.st[i], "running")) {
			if (new_h < 0)
				new_h = f.id[i];
			else
				new_r = f.id[i];
		}
	}
	assert_true(gone_h > 0 && gone_r > 0 && new_h > 0 && new_r > 0);
	fleet_destroy(&f, gone_h);
	fleet_destroy(&f, gone_r);
	fleet_set(&f, new_h, "offline");
	fleet_set(&f, new_r, "exited");
	int req_h = 0, req_r = 0;
	int ch = cycles_until(&w, &f, new_h, "offline", 20, &req_h);
	int cr = ch + cycles_until(&w, &f, new_r, "exited", 20, &req_r);
	int mh = (int)((host + SWEEP_NOTIN_MAX - 1) / SWEEP_NOTIN_MAX);
	int mr = (int)((run + SWEEP_NOTIN_MAX - 1) / SWEEP_NOTIN_MAX);
	assert_true(ch <= mh);
	assert_true(cr <= (mh > mr ? mh : mr));
	int hunt = 0, hc = 0;
	while ((held(&w, gone_h) || held(&w, gone_r)) && hc < 20) {
		hunt += fleet_cycle(&w, &f) - 3;
		hc++;
	}
	assert_false(held(&w, gone_h) || held(&w, gone_r));
	int after = 0;
	for (int c = 0; c < 10; c++)
		after += fleet_cycle(&w, &f);
	assert_int_equal(after, 30);
	printf("# attention at 10,000 instances, %zu failures held (%zu host, %zu run; %zu "
	       "stopped not counted): %.1f requests per cycle (v1 list, 1/s); a swap in each group "
	       "found after %d and %d cycles (%d requests in them); the departure hunt: %d extra "
	       "requests over %d cycles; then %.1f per cycle\n",
	       host + run, host, run, stopped, steady / 10.0, ch, cr, req_h + req_r, hunt, hc,
	       after / 10.0);
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
		cmocka_unit_test(test_attention_sees_a_swap_within_one_interval),
		cmocka_unit_test(test_attention_cost_at_10000),
		cmocka_unit_test(test_partial_figures_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
