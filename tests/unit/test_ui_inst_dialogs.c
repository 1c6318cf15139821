/* test_ui_inst_dialogs.c: the instances view's own actions (inst_dialogs.c)
 * on an app with only that view, a real model and jobs queue, no curses:
 * a bid under min_bid or above the on-demand price asks a second time
 * before anything is queued (Esc goes back to the bid as typed, Enter
 * sends the amount typed), a bid in range goes at once, and a job's end
 * comes back to the view that sent it by its request id (model_take_result,
 * as a call's): only the job the view sent reopens its input, with what was
 * typed and why, and another's result is left to its owner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "base/util.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "view.h"
#include "views/instances/inst_dialogs.h"

#define ID 9108111L

struct fixture {
	struct app a;
	struct model *m;
};

static void mk(struct instance *x, long id)
{
	memset(x, 0, sizeof *x);
	x->id = id;
	x->label = xstrdup("");
	x->actual_status = xstrdup("running");
	x->intended_status = xstrdup("running");
	x->cur_state = xstrdup("running");
	x->next_state = xstrdup("running");
	x->status_msg = xstrdup("");
	x->gpu_name = xstrdup("RTX 4090");
	x->image = xstrdup("img");
	x->runtype = xstrdup("ssh");
	x->num_gpus = 1;
	x->is_bid = true;
	x->min_bid = 0.30;
	x->bid_price = 0.35;
	x->ondemand = 0.90;
	x->credit_balance = NAN;
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof *f);
	f->m = model_new();
	struct instance *v = xcalloc(1, sizeof *v);
	mk(&v[0], ID);
	model_set_instances(f->m, v, 1, 1000.0);
	struct app *a = &f->a;
	a->m = f->m;
	a->jobs = jobs_new(f->m, false);
	a->snap = model_acquire(f->m);
	a->overlay = -1;
	for (size_t i = 0; view_ops_at(i); i++)
		if (strcmp(view_ops_at(i)->name, "instances") == 0)
			a->views[a->nviews++].ops = view_ops_at(i);
	assert_int_equal(a->nviews, 1);
	a->views[0].st = a->views[0].ops->init(a);
	a->last_seq = 0;
	struct event ev[64];
	size_t n = model_events(f->m, 0, ev, 64);
	if (n)
		a->last_seq = ev[n - 1].seq; /* the rows' first sight */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	struct app *a = &f->a;
	a->views[0].ops->fini(a, a->views[0].st);
	model_release(a->snap);
	jobs_free(a->jobs);
	model_free(f->m);
	free(f);
	return 0;
}

/* What the operator types into the open input, then Enter. */
static void type_enter(struct app *a, const char *text)
{
	assert_true(dialog_open(&a->dlg));
	assert_int_equal(a->dlg.kind, DLG_INPUT);
	textbuf_set(&a->dlg.tb, text);
	app_dialog_result(a, DLG_SUBMIT);
}

/* The one queued job (taken): its id. */
static int take_job(struct app *a, struct job_req *out)
{
	int id = 0;
	assert_int_equal(jobs_queued(a->jobs), 1);
	assert_true(jobs_take(a->jobs, out, &id));
	jobs_finish(a->jobs, id);
	return id;
}

static void test_bid_under_min_bid_asks_again(void **state)
{
	struct fixture *f = *state;
	struct app *a = &f->a;
	inst_dialogs_action(a, IOP_BID, ID);
	assert_int_equal(a->dlg.purpose, IDLG_BID);
	type_enter(a, "0.1"); /* under min_bid 0.30 */
	/* not sent: the second confirmation, starting on Cancel */
	assert_int_equal(jobs_queued(a->jobs), 0);
	assert_true(dialog_open(&a->dlg));
	assert_int_equal(a->dlg.kind, DLG_CONFIRM);
	assert_int_equal(a->dlg.purpose, IDLG_BID_LOW);
	assert_int_equal(a->dlg.focus, 0);
	assert_non_null(strstr(a->dlg.text, "under its min_bid"));
	/* Esc: back to the bid, as typed, still nothing sent */
	app_dialog_result(a, DLG_CANCEL);
	assert_int_equal(a->dlg.purpose, IDLG_BID);
	assert_string_equal(a->dlg.tb.s, "0.1");
	assert_int_equal(jobs_queued(a->jobs), 0);
	/* asked again; yes: the amount typed goes out, once */
	type_enter(a, "0.1");
	assert_int_equal(a->dlg.purpose, IDLG_BID_LOW);
	app_dialog_result(a, DLG_SUBMIT);
	assert_false(dialog_open(&a->dlg));
	struct job_req r;
	take_job(a, &r);
	assert_int_equal(r.kind, JOB_BID);
	assert_int_equal(r.instance_id, ID);
	assert_float_equal(r.amount, 0.1, 1e-9);
}

static void test_bid_above_ondemand_asks_again(void **state)
{
	struct fixture *f = *state;
	struct app *a = &f->a;
	inst_dialogs_action(a, IOP_BID, ID);
	type_enter(a, "1.5"); /* above the on-demand 0.90 */
	assert_int_equal(jobs_queued(a->jobs), 0);
	assert_int_equal(a->dlg.purpose, IDLG_BID_HIGH);
	assert_non_null(strstr(a->dlg.text, "above its on-demand price"));
	app_dialog_result(a, DLG_SUBMIT);
	struct job_req r;
	take_job(a, &r);
	assert_float_equal(r.amount, 1.5, 1e-9);
	/* a bid between min_bid and on-demand goes at once */
	inst_dialogs_action(a, IOP_BID, ID);
	type_enter(a, "0.5");
	assert_false(dialog_open(&a->dlg));
	take_job(a, &r);
	assert_float_equal(r.amount, 0.5, 1e-9);
}

/* Job id failed (what the poller leaves in the model for a job sent with
 * reply set), then the view sees the new snapshot as the app shows it. */
static void job_failed(struct app *a, int id)
{
	struct call_result r;
	memset(&r, 0, sizeof r);
	r.req_id = id;
	r.outcome = CALL_ERROR;
	snprintf(r.err.msg, sizeof r.err.msg, "bid instance %ld failed: HTTP 400 bad_bid: too low",
		 ID);
	model_put_result(a->m, &r);
	a->views[0].ops->on_snapshot(a, a->views[0].st, false);
}

static void test_job_result_routed_by_request_id(void **state)
{
	struct fixture *f = *state;
	struct app *a = &f->a;
	inst_dialogs_action(a, IOP_BID, ID);
	type_enter(a, "0.5");
	struct job_req r;
	int id = take_job(a, &r);
	assert_true(r.reply); /* its end comes back as a result under its id */
	/* another view's job failed: nothing opens, its result stays for it */
	job_failed(a, id + 1000);
	assert_false(dialog_open(&a->dlg));
	struct call_result other;
	assert_true(model_take_result(a->m, id + 1000, &other));
	model_call_result_free(&other);
	/* its own: the bid input again, with what was typed and why; taken */
	job_failed(a, id);
	assert_true(dialog_open(&a->dlg));
	assert_int_equal(a->dlg.purpose, IDLG_BID);
	assert_int_equal(a->dlg.instance_id, ID);
	assert_string_equal(a->dlg.tb.s, "0.5");
	assert_non_null(strstr(a->dlg.error, "bad_bid"));
	struct call_result again;
	assert_false(model_take_result(a->m, id, &again));
	app_dialog_result(a, DLG_CANCEL);
	/* a label sent by the view: its failure reopens the label input */
	inst_dialogs_action(a, IOP_LABEL, ID);
	type_enter(a, "trainer");
	id = take_job(a, &r);
	assert_string_equal(r.text, "trainer");
	job_failed(a, id);
	assert_int_equal(a->dlg.purpose, IDLG_LABEL);
	assert_string_equal(a->dlg.tb.s, "trainer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bid_under_min_bid_asks_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bid_above_ondemand_asks_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_job_result_routed_by_request_id, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
