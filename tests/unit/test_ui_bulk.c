/* test_ui_bulk.c: actions on marked rows (issue 12): which marked
 * instances stop/start/destroy/label fit (the one-row preconditions) and
 * which are skipped, the confirmation's text naming them (and "N more"
 * past what fits), `:destroy-failed`'s plan, the bulk forms' request
 * bodies and the decoding of their answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/config.h"
#include "views/instances/inst_bulk.h"
#include "state/model.h"
#include "widgets/table.h"
#include "base/util.h"

static struct instance mk(long id, const char *actual, const char *intended, const char *label)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = id;
	x.label = (char *)label;
	x.cur_state = x.next_state = x.status_msg = x.public_ip = (char *)"";
	x.actual_status = (char *)actual;
	x.intended_status = (char *)intended;
	x.state = instance_derive_state(actual, intended, "", "");
	return x;
}

static struct instance rows[6];
static const struct instance *const prows[6] = { &rows[0], &rows[1], &rows[2],
						  &rows[3], &rows[4], &rows[5] };

static void fill(void)
{
	rows[0] = mk(101, "running", "running", "train");
	rows[1] = mk(102, "running", "running", "");
	rows[2] = mk(103, "exited", "stopped", "idle");
	rows[3] = mk(104, "exited", "running", "oom");   /* crashed: failed */
	rows[4] = mk(105, "offline", "running", "");     /* failed */
	rows[5] = mk(106, "running", "stopped", "");     /* stopping */
}

static void test_plan_stop_skips_what_does_not_fit(void **state)
{
	(void)state;
	fill();
	long marked[] = { 101, 103, 102, 106, 999 };
	struct bulk_plan p;
	inst_bulk_plan(&p, BULK_STOP, prows, 6, marked, 5);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.ids[0], 101);
	assert_int_equal(p.ids[1], 102);
	assert_int_equal(p.nskip, 2); /* stopped, and already stopping */
	assert_int_equal(p.skip[0], 103);
	assert_int_equal(p.skip[1], 106);
	assert_int_equal(p.gone, 1);
	char text[512];
	inst_bulk_text(&p, prows, 6, text, sizeof text);
	assert_non_null(strstr(text, "Stop 2 marked instances: 101 (train), 102?"));
	assert_non_null(strstr(text, "disk charges continue"));
	assert_non_null(strstr(text, "Skipped (stop does not fit their state): 103 (stopped), 106 (stopping)."));
	inst_bulk_free(&p);
}

static void test_plan_start_and_destroy(void **state)
{
	(void)state;
	fill();
	long marked[] = { 101, 103, 104 };
	struct bulk_plan p;
	inst_bulk_plan(&p, BULK_START, prows, 6, marked, 3);
	assert_int_equal(p.n, 2); /* the stopped one and the crashed one start */
	assert_int_equal(p.ids[0], 103);
	assert_int_equal(p.ids[1], 104);
	assert_int_equal(p.nskip, 1);
	assert_int_equal(p.skip[0], 101);
	inst_bulk_free(&p);
	inst_bulk_plan(&p, BULK_DESTROY, prows, 6, marked, 3);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.nskip, 0);
	char text[512];
	inst_bulk_text(&p, prows, 6, text, sizeof text);
	assert_non_null(strstr(text, "Destroy 3 marked instances"));
	assert_non_null(strstr(text, "permanently deletes their disks"));
	assert_null(strstr(text, "Skipped"));
	assert_null(strstr(text, "prepaid"));
	/* a prepaid balance is stated: destroying ends it */
	rows[0].credit_balance = 40;
	rows[2].credit_balance = 2.5;
	inst_bulk_text(&p, prows, 6, text, sizeof text);
	assert_non_null(strstr(text, "2 of them hold $42.50 of prepaid credit, refunded only in part."));
	rows[0].credit_balance = rows[2].credit_balance = NAN;
	inst_bulk_free(&p);
	/* nothing fits: said, nothing to confirm */
	long only[] = { 101 };
	inst_bulk_plan(&p, BULK_START, prows, 6, only, 1);
	assert_int_equal(p.n, 0);
	inst_bulk_text(&p, prows, 6, text, sizeof text);
	assert_non_null(strstr(text, "No marked instance can be started"));
	inst_bulk_free(&p);
}

static void test_plan_failed(void **state)
{
	(void)state;
	fill();
	struct bulk_plan p;
	inst_bulk_plan_failed(&p, prows, 6);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.ids[0], 104);
	assert_int_equal(p.ids[1], 105);
	char text[512];
	inst_bulk_text(&p, prows, 6, text, sizeof text);
	assert_non_null(strstr(text, "Destroy 2 instances in a failure state: 104 (oom), 105?"));
	inst_bulk_free(&p);
}

/* Many marked rows: the text stays within the dialog and says how many more. */
static void test_text_many(void **state)
{
	(void)state;
	enum { N = 200 };
	struct instance *many = calloc(N, sizeof *many);
	const struct instance *pmany[N];
	long ids[N];
	for (int i = 0; i < N; i++) {
		many[i] = mk(9100000 + i, "running", "running", "a-rather-long-label-for-row");
		ids[i] = many[i].id;
		pmany[i] = &many[i];
	}
	struct bulk_plan p;
	inst_bulk_plan(&p, BULK_STOP, pmany, N, ids, N);
	assert_int_equal(p.n, N);
	char text[512];
	inst_bulk_text(&p, pmany, N, text, sizeof text);
	assert_non_null(strstr(text, "Stop 200 marked instances: 9100000 (a-rather-long-label-...)"));
	assert_non_null(strstr(text, "more?"));
	assert_non_null(strstr(text, "disk charges continue.")); /* the effect is never cut */
	inst_bulk_free(&p);
	free(many);
}

/* A label with control characters is drawn sanitised. */
static void test_text_sanitised(void **state)
{
	(void)state;
	struct instance x = mk(7, "running", "running", "evil\033[2Jlabel");
	const struct instance *px = &x;
	long id = 7;
	struct bulk_plan p;
	inst_bulk_plan(&p, BULK_DESTROY, &px, 1, &id, 1);
	char text[512];
	inst_bulk_text(&p, &px, 1, text, sizeof text);
	assert_null(strchr(text, '\033'));
	inst_bulk_free(&p);
}

static void test_bulk_requests(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"http://127.0.0.1:1";
	long ids[] = { 11, 12 };
	struct api_call k = api_bulk_state(&c, ids, 2, false);
	assert_string_equal(k.method, "PUT");
	assert_string_equal(k.url, "http://127.0.0.1:1/api/v0/instances/");
	assert_string_equal(k.body, "{\"state\":\"stopped\",\"ids\":[11,12]}");
	assert_int_equal(api_ep_kind(k.ep), RK_ACTION);
	api_call_free(&k);
	k = api_bulk_state(&c, ids, 2, true);
	assert_string_equal(k.body, "{\"state\":\"running\",\"ids\":[11,12]}");
	api_call_free(&k);
	k = api_bulk_destroy(&c, ids, 2);
	assert_string_equal(k.method, "DELETE");
	assert_string_equal(k.url, "http://127.0.0.1:1/api/v0/instances/");
	assert_string_equal(k.body, "{\"instance_ids\":[11,12]}");
	assert_int_equal(api_ep_kind(k.ep), RK_ACTION);
	api_call_free(&k);
}

/* The official CLI's split (split_list(ids, 64)): 64 ids are one request,
 * 65 are two, the second carrying the 65th; bodies byte for byte. */
static void test_bulk_split(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"http://127.0.0.1:1";
	long ids[130];
	for (int i = 0; i < 130; i++)
		ids[i] = 1000 + i;
	size_t off;
	assert_int_equal(api_bulk_batches(0), 0);
	assert_int_equal(api_bulk_batches(1), 1);
	assert_int_equal(api_bulk_batches(64), 1);
	assert_int_equal(api_bulk_batches(65), 2);
	assert_int_equal(api_bulk_batches(128), 2);
	assert_int_equal(api_bulk_batches(129), 3);
	/* 64: one request with all of them, in order */
	assert_int_equal(api_bulk_batch(64, 0, &off), 64);
	assert_int_equal(off, 0);
	assert_int_equal(api_bulk_batch(64, 1, &off), 0);
	char want[1024];
	size_t w = (size_t)snprintf(want, sizeof want, "{\"state\":\"stopped\",\"ids\":[");
	for (int i = 0; i < 64; i++)
		w += (size_t)snprintf(want + w, sizeof want - w, "%s%ld", i ? "," : "", ids[i]);
	snprintf(want + w, sizeof want - w, "]}");
	struct api_call k = api_bulk_state(&c, ids, api_bulk_batch(64, 0, &off), false);
	assert_string_equal(k.body, want);
	api_call_free(&k);
	/* 65: the first 64, then the 65th alone */
	assert_int_equal(api_bulk_batch(65, 0, &off), 64);
	assert_int_equal(off, 0);
	k = api_bulk_state(&c, ids + off, 64, false);
	assert_string_equal(k.body, want);
	api_call_free(&k);
	assert_int_equal(api_bulk_batch(65, 1, &off), 1);
	assert_int_equal(off, 64);
	k = api_bulk_state(&c, ids + off, 1, true);
	assert_string_equal(k.url, "http://127.0.0.1:1/api/v0/instances/");
	assert_string_equal(k.body, "{\"state\":\"running\",\"ids\":[1064]}");
	api_call_free(&k);
	k = api_bulk_destroy(&c, ids + off, 1);
	assert_string_equal(k.method, "DELETE");
	assert_string_equal(k.body, "{\"instance_ids\":[1064]}");
	api_call_free(&k);
	/* 129: 64, 64, 1 */
	assert_int_equal(api_bulk_batch(129, 1, &off), 64);
	assert_int_equal(off, 64);
	assert_int_equal(api_bulk_batch(129, 2, &off), 1);
	assert_int_equal(off, 128);
}

/* Marks a filter hides are told apart from the shown ones, and the
 * question names how many and offers the right answers. */
static void test_hidden_marks(void **state)
{
	(void)state;
	long marks[] = { 105, 101, 109, 103 };
	long shown[] = { 101, 102, 103, 104 }; /* sorted */
	long vis[4], hid[4];
	size_t nv, nh;
	inst_bulk_split(marks, 4, shown, 4, vis, &nv, hid, &nh);
	assert_int_equal(nv, 2);
	assert_int_equal(vis[0], 101);
	assert_int_equal(vis[1], 103);
	assert_int_equal(nh, 2);
	assert_int_equal(hid[0], 105); /* marking order kept */
	assert_int_equal(hid[1], 109);
	inst_bulk_split(marks, 4, shown, 0, vis, &nv, hid, &nh);
	assert_int_equal(nv, 0);
	assert_int_equal(nh, 4);
	inst_bulk_split(marks, 4, marks, 0, vis, &nv, hid, &nh);
	assert_int_equal(nh, 4);
	char text[600], first[24], second[24];
	enum bulk_hidden_q q = inst_bulk_hidden_text(BULK_DESTROY, 2, 2, "gpu=4090", 101, text,
						     sizeof text, first, second);
	assert_int_equal(q, BHQ_VISIBLE_OR_ALL);
	assert_non_null(strstr(text, "2 marked rows are hidden by the filter \"gpu=4090\": destroy them too?"));
	assert_non_null(strstr(text, "all 4 marked rows"));
	assert_string_equal(first, "Visible only");
	assert_string_equal(second, "All marked");
	q = inst_bulk_hidden_text(BULK_STOP, 0, 1, "train\033[2J", 102, text, sizeof text, first,
				  second);
	assert_int_equal(q, BHQ_SELECTED_OR_MARKED);
	assert_non_null(strstr(text, "Every marked row (1) is hidden"));
	assert_non_null(strstr(text, "the selected instance 102 only (s), or the 1 hidden marked row (m)"));
	assert_null(strchr(text, '\033'));
	assert_string_equal(first, "Selected row");
	assert_string_equal(second, "Marked rows");
	q = inst_bulk_hidden_text(BULK_LABEL, 0, 3, "zzz", 0, text, sizeof text, first, second);
	assert_int_equal(q, BHQ_MARKED_ONLY);
	assert_non_null(strstr(text, "label them?"));
}

static void test_bulk_answers(void **state)
{
	(void)state;
	struct api_error e;
	memset(&e, 0, sizeof e);
	json_t *r = json_loads("{\"success\":true,\"changed\":[1,2],\"queued\":[3],\"not_found\":[]}",
			       0, NULL);
	struct bulk_answer *b = inst_bulk_map(r, &e);
	assert_non_null(b);
	assert_int_equal(b->done, 2);
	assert_int_equal(b->queued, 1);
	assert_int_equal(b->missing, 0);
	free(b);
	json_decref(r);
	r = json_loads("{\"success\":true,\"destroyed\":[1],\"not_found\":[9]}", 0, NULL);
	b = inst_bulk_map(r, &e);
	assert_int_equal(b->done, 1);
	assert_int_equal(b->missing, 1);
	free(b);
	json_decref(r);
	r = json_loads("{\"success\":true}", 0, NULL); /* a terse service */
	b = inst_bulk_map(r, &e);
	assert_int_equal(b->done, -1);
	free(b);
	json_decref(r);
	r = json_loads("[1]", 0, NULL);
	assert_null(inst_bulk_map(r, &e));
	assert_int_not_equal(e.cls, AE_NONE);
	json_decref(r);
}

/* The instance table's marks are its list's: marked through the list,
 * split by the rows its filter shows, each part in marking order; a bulk
 * action's ids unmarked (list_marks_drop), the hidden ones left marked. */
static void test_marks_of_the_table(void **state)
{
	(void)state;
	static const struct table_col tc[] = {
		{ "ID", 4, 8, 0, true, true, false, NULL, 0 },
		{ "STATUS", 8, 12, 0, false, false, false, NULL, 0 },
	};
	static const long id[] = { 11, 12, 13, 14 };
	static const char *const st[] = { "running", "stopped", "running", "stopped" };
	struct table t;
	table_init(&t, tc, 2, 0);
	struct table_row *r = xcalloc(4, sizeof *r);
	for (size_t i = 0; i < 4; i++) {
		r[i].id = id[i];
		r[i].cells[0] = xasprintf("%ld", id[i]);
		r[i].cells[1] = xstrdup(st[i]);
	}
	table_set_rows(&t, r, 4);
	struct list *l = table_list(&t);
	static const long order[] = { 14, 11, 12 }; /* marked in this order */
	for (size_t i = 0; i < 3; i++) {
		table_select_id(&t, order[i]);
		list_mark_toggle(l, list_selected(l));
	}
	table_set_filter(&t, "status=stopped"); /* 12 and 14 shown, 11 hidden */
	long *vis, *hid;
	size_t nvis, nhid;
	inst_bulk_split_table(&t, &vis, &nvis, &hid, &nhid);
	assert_int_equal(nvis, 2);
	assert_int_equal(vis[0], 14);
	assert_int_equal(vis[1], 12);
	assert_int_equal(nhid, 1);
	assert_int_equal(hid[0], 11);
	assert_int_equal(list_marks_hidden(l), 1);
	/* "Visible only" acted: those unmarked, the hidden one still marked */
	list_marks_drop(l, vis, nvis);
	free(vis);
	free(hid);
	inst_bulk_split_table(&t, &vis, &nvis, &hid, &nhid);
	assert_int_equal(nvis, 0);
	assert_int_equal(nhid, 1);
	assert_int_equal(hid[0], 11);
	free(vis);
	free(hid);
	table_set_filter(&t, "");
	inst_bulk_split_table(&t, &vis, &nvis, &hid, &nhid);
	assert_int_equal(nvis, 1);
	assert_int_equal(nhid, 0);
	free(vis);
	free(hid);
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_stop_skips_what_does_not_fit),
		cmocka_unit_test(test_plan_start_and_destroy),
		cmocka_unit_test(test_plan_failed),
		cmocka_unit_test(test_text_many),
		cmocka_unit_test(test_text_sanitised),
		cmocka_unit_test(test_bulk_requests),
		cmocka_unit_test(test_bulk_answers),
		cmocka_unit_test(test_bulk_split),
		cmocka_unit_test(test_hidden_marks),
		cmocka_unit_test(test_marks_of_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
