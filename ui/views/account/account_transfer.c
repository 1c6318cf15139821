/* account_transfer.c: `:transfer [RECIPIENT AMOUNT]` (and T in the
 * Billing section): credit sent to another user or team.  A form
 * (recipient: an e-mail or user id; amount in dollars, to the cent), then
 * two confirmations naming the recipient and the amount (each starting on
 * Cancel), then one PUT /api/v0/commands/transfer_credit/.  The service
 * has no idempotency field, so the request is sent at most once: when its
 * answer is lost nothing is sent again (by rentop or the poller), the
 * outcome is said to be unknown and the credit is read again and shown
 * beside the credit before.  Refused under --read-only.  UI thread only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "base/config.h"
#include "poll/poller.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "views/account/account.h"

#define TRANSFER_MAX 1e6 /* $ */

static double credit_now(const struct app *a)
{
	return a->snap && a->snap->user ? a->snap->user->credit : NAN;
}

/* Refused under --read-only (said); true when it may go on. */
static bool writable(struct app *a)
{
	if (!a->cfg->read_only)
		return true;
	app_toast(a, ROLE_WARNING, 8, "read-only: a credit transfer is a write (--read-only refuses it)");
	return false;
}

void account_transfer_open(struct app *a, struct acct_view *v, const char *to, const char *amount)
{
	if (!writable(a))
		return;
	pane_account_modal_close(v);
	form_init(&v->fm, "Transfer credit");
	form_add_text(&v->fm, "to", "Recipient (e-mail or user id)", to ? to : "", 120, true);
	form_add_number(&v->fm, "amount", "Amount ($)", amount ? amount : "", 0.01, TRANSFER_MAX, false,
			true);
	char note[120];
	double c = credit_now(a);
	if (isfinite(c)) {
		snprintf(note, sizeof note, "your credit: $%.2f", c);
		form_set_note(&v->fm, note, false);
	}
	v->modal = MOD_TRANSFER;
}

/* The form's Enter: the first confirmation. */
void account_transfer_submit(struct app *a, struct acct_view *v)
{
	double amt = 0;
	const char *to = form_value(&v->fm, "to");
	if (!form_number(&v->fm, "amount", &amt))
		return;
	amt = round(amt * 100) / 100;
	if (amt < 0.01) {
		form_set_answer(&v->fm, "amount", "at least $0.01");
		return;
	}
	if (!*to || strchr(to, ' ')) {
		form_set_answer(&v->fm, "to", "an e-mail address or a user id");
		return;
	}
	char *clean = util_sanitize(to);
	util_strlcpy(v->xfer_to, clean, sizeof v->xfer_to);
	free(clean);
	v->xfer_amount = amt;
	(void)a;
	form_free(&v->fm);
	char text[400];
	snprintf(text, sizeof text, "Transfer $%.2f of credit to %s? A transfer cannot be undone.",
		 amt, v->xfer_to);
	dialog_confirm(&v->dlg, 0, 0, "Transfer credit (1 of 2)", text, "Transfer");
	v->xfer_step = 1;
	v->modal = MOD_TRANSFER_CONFIRM;
}

/* A confirmation's Enter: the second one, then the request (once). */
void account_transfer_confirm(struct app *a, struct acct_view *v)
{
	if (v->xfer_step == 1) {
		char text[400];
		snprintf(text, sizeof text, "Send $%.2f to %s now? This is the last question: the "
			 "request goes once and is never repeated.", v->xfer_amount, v->xfer_to);
		dialog_close(&v->dlg);
		dialog_confirm(&v->dlg, 0, 0, "Transfer credit (2 of 2)", text, "Send");
		v->xfer_step = 2;
		return;
	}
	if (v->xfer_step != 2 || !writable(a))
		return;
	struct job_call c = { .action = true };
	c.call = api_transfer_credit(a->cfg, v->xfer_to, v->xfer_amount);
	snprintf(c.what, sizeof c.what, "credit transfer");
	v->xfer_before = credit_now(a);
	v->xfer_step = 3; /* sent: never again from this dialog */
	if (modal_call_send(&v->call, a->jobs, &c, NULL, &v->dlg) != JOBS_OK)
		v->xfer_step = 2;
}

/* The transfer's answer. */
void account_transfer_done(struct app *a, struct acct_view *v, const struct call_result *r)
{
	char msg[400];
	switch (r->outcome) {
	case CALL_OK:
		app_answer(a, ROLE_OK, 0, "transferred $%.2f to %s", v->xfer_amount, v->xfer_to);
		pane_account_modal_close(v);
		v->xfer_lost_on = false;
		poller_refresh_now(a->poller);    /* the credit */
		account_billing_fetch(a, v, 0);   /* the transfer's invoice row */
		break;
	case CALL_ERROR:
		api_account_error_text(&r->err, msg, sizeof msg);
		modal_call_refused(NULL, &v->dlg, msg);
		v->xfer_step = 2; /* refused: nothing was done; Send is a new request */
		break;
	case CALL_UNKNOWN:
		/* never sent again: say so, and read the credit again */
		snprintf(v->xfer_lost, sizeof v->xfer_lost,
			 "transfer of $%.2f to %s: outcome unknown (answer lost, not resent)",
			 v->xfer_amount, v->xfer_to);
		v->xfer_lost_at = r->when;
		v->xfer_lost_on = true;
		model_event(a->m, EV_WARN, -1, 0, 0, 0, "%s", v->xfer_lost);
		pane_account_modal_close(v);
		poller_refresh_now(a->poller);
		account_billing_fetch(a, v, 0);
		break;
	}
	a->dirty |= DIRTY_ALL;
}

void account_transfer_status(const struct app *a, const struct acct_view *v, char *buf, size_t n)
{
	double c = credit_now(a);
	bool reread = a->snap && a->snap->fresh[SRC_USER].last_ok > v->xfer_lost_at;
	if (!reread || !isfinite(c))
		snprintf(buf, n, "%s; reading the credit again...", v->xfer_lost);
	else if (isfinite(v->xfer_before))
		snprintf(buf, n, "%s; credit now $%.2f, before $%.2f", v->xfer_lost, c, v->xfer_before);
	else
		snprintf(buf, n, "%s; credit now $%.2f", v->xfer_lost, c);
}
