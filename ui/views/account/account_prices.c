/* account_prices.c: the pending price increases on the account's
 * instances: one subscription from start-up (every minute, shown or not),
 * its newest list kept here for the instance table's marker, the header's
 * count and the detail view's line (pane_account.h), and `:prices accept
 * INSTANCE_ID` / `:prices reject INSTANCE_ID` (the selected instance when
 * none is named), confirmed from Cancel, sent once; `^` on an instance
 * (the table's, the detail view's: price-answer) asks the same question
 * with both answers, from Cancel, through the same code.  UI thread
 * only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "base/config.h"
#include "flow/acctprice.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "views/account/account.h"
#include "views/account/pane_account.h"

#define PRICES_CADENCE 60.0 /* s */

static struct json_list *prices; /* the newest list (struct price_inc), NULL: none yet */

size_t pane_account_price_count(void)
{
	return json_list_count(prices);
}

bool pane_account_price_text(long id, char *buf, size_t n)
{
	const struct price_inc *p =
		prices ? acctprice_of(json_list_at(prices, const struct price_inc), prices->n, id) : NULL;
	if (!p)
		return false;
	acctprice_text(p, buf, n);
	return true;
}

void account_prices_start(struct app *a, struct acct_view *v)
{
	struct job_call c = { 0 };
	c.call = api_price_increases(a->cfg);
	c.map = acctprice_map;
	c.free_value = json_list_free;
	snprintf(c.what, sizeof c.what, "price increases");
	int id = 0;
	if (jobs_subscribe(a->jobs, &c, PRICES_CADENCE, false, &id) == JOBS_OK)
		v->price_sub = id;
}

bool account_prices_take(struct app *a, struct acct_view *v)
{
	struct call_result r;
	if (!v->price_sub || !model_take_result(a->m, v->price_sub, &r))
		return false;
	if (r.outcome == CALL_OK && r.value) {
		json_list_free(prices);
		prices = r.value;
		r.value = NULL;
		a->price_incs = prices->n;
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_ALL;
	return true;
}

void account_prices_stop(struct app *a, struct acct_view *v)
{
	if (v->price_sub)
		jobs_unsubscribe(a->jobs, v->price_sub);
	v->price_sub = 0;
	json_list_free(prices);
	prices = NULL;
	a->price_incs = 0;
}

/* Read the list again now (a new subscription; the list kept till it answers). */
static void reread(struct app *a, struct acct_view *v)
{
	if (v->price_sub)
		jobs_unsubscribe(a->jobs, v->price_sub);
	v->price_sub = 0;
	account_prices_start(a, v);
}

/* What the question asks: one answer to confirm (`:prices accept|reject`),
 * or either (`^`). */
enum ask { ASK_ACCEPT, ASK_REJECT, ASK_EITHER };

/* The question about instance id's pending increase, starting on Cancel;
 * refused (said in a toast) under --read-only, when it has none, or while
 * another of the view's dialogs is open (what it holds is kept). */
static void ask(struct app *a, struct acct_view *v, long id, enum ask what)
{
	if (a->cfg->read_only) {
		app_toast(a, ROLE_WARNING, 8, "read-only: answering a price increase is a write (--read-only refuses it)");
		return;
	}
	if (v->modal != MOD_NONE) {
		app_toast(a, ROLE_WARNING, 8, "a dialog of the account view is open: answer or close it (Esc) first");
		return;
	}
	const struct price_inc *p =
		prices ? acctprice_of(json_list_at(prices, const struct price_inc), prices->n, id) : NULL;
	if (!p) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no pending price increase", id);
		return;
	}
	char line[200], text[400];
	acctprice_text(p, line, sizeof line);
	switch (what) {
	case ASK_ACCEPT:
	case ASK_REJECT: {
		bool accept = what == ASK_ACCEPT;
		snprintf(text, sizeof text, "%s the price increase on instance %ld? %s",
			 accept ? "Accept" : "Reject", id, line);
		dialog_confirm(&v->dlg, 0, 0, accept ? "Accept price increase" : "Reject price increase",
			       text, accept ? "Accept" : "Reject");
		v->price_accept = accept;
		break;
	}
	case ASK_EITHER:
		snprintf(text, sizeof text, "Instance %ld has a pending price increase: %s. Accept it "
			 "or reject it?", id, line);
		dialog_choice3(&v->dlg, 0, 0, "Price increase", text, "Cancel", "Accept", "Reject");
		break;
	}
	v->target_id = p->id;
	snprintf(v->target, sizeof v->target, "%ld", id);
	v->modal = MOD_PRICE_ANSWER;
}

/* `:prices accept|reject [INSTANCE_ID]`: the confirmation. */
void account_prices_command(struct app *a, struct acct_view *v, const char *args)
{
	char verb[16] = "";
	long id = 0;
	int k = sscanf(args, "%15s %ld", verb, &id);
	bool accept = !strcmp(verb, "accept");
	if (k < 1 || (!accept && strcmp(verb, "reject"))) {
		app_toast(a, ROLE_ERROR, 8, ":prices accept|reject [INSTANCE_ID] (%zu pending)",
			  pane_account_price_count());
		return;
	}
	if (k < 2) {
		const struct instance *x = app_selected(a);
		id = x ? x->id : 0;
	}
	ask(a, v, id, accept ? ASK_ACCEPT : ASK_REJECT);
}

/* `^` needs a row with a pending increase. */
static const char *why_not_answer(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	if (prices && acctprice_of(json_list_at(prices, const struct price_inc), prices->n, x->id))
		return NULL;
	snprintf(buf, n, "instance %ld has no pending price increase%s", x->id,
		 prices ? "" : " (the list is not read yet)");
	return buf;
}

/* `^`: the selected instance's increase, asked in the account view. */
static void run_answer(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	int idx = view_find(a, "account");
	if (!x || idx < 0)
		return;
	long id = x->id;
	view_show(a, idx, 0);
	ask(a, a->views[idx].st, id, ASK_EITHER);
}

const struct action_row account_prices_row = {
	{ .name = "price-answer",
	  .help = "accept or reject the instance's pending price increase (marked beside $/H; asks, from Cancel)",
	  .hint = "price", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT, .why_not = why_not_answer,
	  .run = run_answer },
	"^", NULL, NULL,
};

void account_prices_send(struct app *a, struct acct_view *v)
{
	if (v->dlg.kind == DLG_CHOICE) { /* `^`'s question: Cancel, Accept, Reject */
		if (v->dlg.focus == 0) {
			pane_account_modal_close(v);
			return;
		}
		v->price_accept = v->dlg.focus == 1;
	}
	struct job_call c = { .action = true };
	c.call = api_price_increase_answer(a->cfg, v->target_id, v->price_accept);
	snprintf(c.what, sizeof c.what, "%s price increase", v->price_accept ? "accept" : "reject");
	modal_call_send(&v->call, a->jobs, &c, NULL, &v->dlg);
}

void account_prices_done(struct app *a, struct acct_view *v, const struct call_result *r)
{
	char msg[400];
	switch (r->outcome) {
	case CALL_OK:
		app_answer(a, ROLE_OK, 0, "price increase on instance %s %s", v->target,
			   v->price_accept ? "accepted" : "rejected");
		pane_account_modal_close(v);
		reread(a, v);
		break;
	case CALL_ERROR:
		api_account_error_text(&r->err, msg, sizeof msg);
		modal_call_refused(NULL, &v->dlg, msg);
		break;
	case CALL_UNKNOWN:
		app_answer(a, ROLE_WARNING, 0, "price increase on instance %s: outcome unknown (answer "
			   "lost, not resent): the list is read again", v->target);
		pane_account_modal_close(v);
		reread(a, v);
		break;
	}
}
