/* inst_dialogs.c: the actions on one instance after their preconditions:
 * confirmations (stop, reboot, destroy, prepay on a failed instance), the
 * inputs (bid, prepay, label) and the second confirmation of a bid under
 * min_bid or above the on-demand price, the jobs they submit, reopening
 * an input whose job failed (by the job's request id).  ssh: inst_ssh.c. */
#include "views/instances/inst_dialogs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/util.h"
#include "poll/jobs.h"
#include "view.h"

#define INST_SENT_MAX 256 /* jobs awaited at once; past it the oldest is forgotten */

/* A job this view submitted, until its result is taken: its request id and
 * what was typed for it. */
struct inst_sent {
	int id;
	enum job_kind kind;
	long instance_id;
	char typed[LABEL_MAX + 1]; /* the bid, prepay or label typed */
};

struct inst_dialogs {
	struct inst_sent *sent; /* in submission order */
	size_t nsent, cap;
	/* a bid under min_bid or above the on-demand price awaiting its second
	 * confirmation (IDLG_BID_LOW, IDLG_BID_HIGH) */
	double bid_asked; /* $/hour */
	char bid_typed[64];
};

/* This view's state: the instances view's state begins with it
 * (pane_instances.c: struct inst_view), NULL when there is no such view. */
static struct inst_dialogs *state(const struct app *a)
{
	int i = view_find(a, "instances");
	return i >= 0 && a->views[i].st ? *(struct inst_dialogs *const *)a->views[i].st : NULL;
}

struct inst_dialogs *inst_dialogs_new(void) { return xcalloc(1, sizeof(struct inst_dialogs)); }

void inst_dialogs_free(struct inst_dialogs *d, struct model *m)
{
	for (size_t i = 0; i < d->nsent; i++)
		model_drop_result(m, d->sent[i].id);
	free(d->sent);
	free(d);
}

static void dialog_result(struct app *a, void *owner, enum dlg_result res);

/* a->dlg was just opened by this view: its results come here. */
static void own(struct app *a, struct inst_dialogs *d)
{
	app_dialog_own(a, dialog_result, d);
}

/* Remember a submitted job until its result is taken (its input reopens if
 * it fails). */
static void remember(struct app *a, struct inst_dialogs *d, int id, const struct job_req *req,
		     const char *typed)
{
	if (d->nsent == INST_SENT_MAX) { /* a bound: every job sent ends with a result */
		model_drop_result(a->m, d->sent[0].id);
		memmove(d->sent, d->sent + 1, --d->nsent * sizeof *d->sent);
	}
	if (d->nsent == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->sent = xrealloc(d->sent, d->cap * sizeof *d->sent);
	}
	struct inst_sent *s = &d->sent[d->nsent++];
	s->id = id;
	s->kind = req->kind;
	s->instance_id = req->instance_id;
	util_strlcpy(s->typed, typed ? typed : req->kind == JOB_LABEL ? req->text : "",
		     sizeof s->typed);
}

/* Submit req as this view's job (its result comes back by its id). */
static int submit(struct app *a, struct inst_dialogs *d, const struct job_req *req,
		  const char *typed)
{
	struct job_req mine = *req;
	mine.reply = true;
	int id = app_submit(a, &mine);
	if (id)
		remember(a, d, id, &mine, typed);
	return id;
}

int inst_dialogs_submit(struct app *a, const struct job_req *req, const char *typed)
{
	struct inst_dialogs *d = state(a);
	return d ? submit(a, d, req, typed) : app_submit(a, req);
}

static void simple_job(struct app *a, enum job_kind k, long id)
{
	struct job_req req;
	memset(&req, 0, sizeof req);
	req.kind = k;
	req.instance_id = id;
	inst_dialogs_submit(a, &req, NULL);
}

void inst_dialogs_who(const struct instance *x, char *buf, size_t n)
{
	if (x->label[0])
		snprintf(buf, n, "%ld (%s)", x->id, x->label);
	else
		snprintf(buf, n, "%ld (%s)", x->id, x->gpu_name[0] ? x->gpu_name : "no label");
}
/* The input dialog of a bid, a prepay or a label on x. */
static void open_input(struct app *a, struct inst_dialogs *d, enum inst_op op,
		       const struct instance *x)
{
	char w[160], text[512], init[64];
	inst_dialogs_who(x, w, sizeof w);
	switch (op) {
	case IOP_BID: {
		char b1[32], b2[32], b3[32], od[64];
		init[0] = '\0';
		if (isfinite(x->bid_price))
			snprintf(init, sizeof init, "%.3f", x->bid_price);
		if (x->ondemand > 0)
			snprintf(od, sizeof od, "on-demand %s", fmt_rate(b3, sizeof b3, x->ondemand));
		else
			snprintf(od, sizeof od, "on-demand price not sent");
		double top = jobs_bid_max(x->num_gpus);
		if (instance_was_outbid(x) && isfinite(x->min_bid))
			snprintf(text, sizeof text,
				 "Instance %s was outbid: a bid of %s took its machine; a bid above it "
				 "starts the instance again. Its bid was %s, %s. New bid ($/hour, 0.001-%g, "
				 "32 per GPU):",
				 w, fmt_rate(b2, sizeof b2, x->min_bid),
				 isfinite(x->bid_price) ? fmt_rate(b1, sizeof b1, x->bid_price) : "unknown",
				 od, top);
		else
			snprintf(text, sizeof text,
				 "Bid for instance %s: current bid %s, min_bid %s, %s. New bid ($/hour, "
				 "0.001-%g, 32 per GPU):", w,
				 isfinite(x->bid_price) ? fmt_rate(b1, sizeof b1, x->bid_price) : "unknown",
				 isfinite(x->min_bid) ? fmt_rate(b2, sizeof b2, x->min_bid) : "unknown", od,
				 top);
		dialog_input(&a->dlg, IDLG_BID, x->id, "Change bid", text, init, 20);
		if (instance_was_outbid(x))
			dialog_set_preview(&a->dlg, dialog_outbid_preview, x->min_bid);
		else
			dialog_set_preview(&a->dlg, dialog_bid_preview, x->min_bid);
		break;
	}
	case IOP_PREPAY:
		snprintf(text, sizeof text, "Prepay instance %s: amount ($ of credit):", w);
		dialog_input(&a->dlg, IDLG_PREPAY, x->id, "Prepay", text, "", 20);
		dialog_set_preview(&a->dlg, dialog_prepay_preview, x->dph_total);
		break;
	case IOP_LABEL:
		snprintf(text, sizeof text, "New label for instance %ld:", x->id);
		dialog_input(&a->dlg, IDLG_LABEL, x->id, "Label", text, x->label, LABEL_MAX);
		break;
	case IOP_STOP: case IOP_START: case IOP_REBOOT: case IOP_DESTROY: case IOP_SSH:
	case IOP_COPY_SSH:
		return;
	}
	own(a, d);
}

void inst_dialogs_action(struct app *a, enum inst_op op, long id)
{
	struct inst_dialogs *d = state(a);
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!d)
		return;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return;
	}
	char w[160], text[512], b1[32];
	inst_dialogs_who(x, w, sizeof w);
	switch (op) {
	case IOP_STOP:
		snprintf(text, sizeof text,
			 "Stop instance %s? This halts compute billing; disk charges continue.", w);
		dialog_confirm(&a->dlg, IDLG_STOP, id, "Stop", text, "Stop");
		break;
	case IOP_DESTROY: {
		char credit[240] = "";
		if (isfinite(x->credit_balance) && x->credit_balance >= 0.005)
			snprintf(credit, sizeof credit,
				 " It holds %s of prepaid credit: destroying it ends the prepayment, and "
				 "the service refunds at most the unused part, less the discount received "
				 "so far and a 5%% fee.",
				 fmt_money(b1, sizeof b1, x->credit_balance));
		snprintf(text, sizeof text,
			 "Destroy instance %s? This stops all billing and permanently deletes its "
			 "disk.%s",
			 w, credit);
		dialog_confirm(&a->dlg, IDLG_DESTROY, id, "Destroy", text, "Destroy");
		break;
	}
	case IOP_START: simple_job(a, JOB_START, id); break;
	case IOP_REBOOT:
		snprintf(text, sizeof text,
			 "Reboot instance %s? The work running on the machine is interrupted: every "
			 "process in the container is killed and starts again.",
			 w);
		dialog_confirm(&a->dlg, IDLG_REBOOT, id, "Reboot", text, "Reboot");
		break;
	case IOP_PREPAY:
		if (instance_prepay_asks(x)) {
			/* credit parked on an instance that cannot run: asked first */
			char why[200];
			snprintf(why, sizeof why, "%s%s%.150s", instance_state_name(x->state),
				 x->status_msg && x->status_msg[0] ? ": " : "",
				 x->status_msg ? x->status_msg : "");
			snprintf(text, sizeof text,
				 "Instance %s is in a failure state (%s). Prepaid credit stays on it while "
				 "it cannot run, and destroying it refunds only part. Prepay it anyway?",
				 w, why);
			dialog_confirm(&a->dlg, IDLG_PREPAY_FAILED, id, "Prepay a failed instance", text,
				       "Prepay anyway");
			break;
		}
		open_input(a, d, op, x);
		break;
	case IOP_LABEL: case IOP_BID:
		open_input(a, d, op, x);
		break;
	case IOP_SSH: case IOP_COPY_SSH:
		return; /* inst_ssh.c's (inst_actions.c sends them there) */
	}
	if (dialog_open(&a->dlg))
		own(a, d); /* its confirmation or input answers here */
	a->dirty |= DIRTY_ALL;
}

/* The second confirmation of a bid: under min_bid (low) or above the
 * on-demand price; it starts on Cancel and says what happens. */
static void ask_bid_again(struct app *a, struct inst_dialogs *d, const struct instance *x,
			  double bid, const char *typed, bool low)
{
	char w[160], text[512], b1[32], b2[32], b3[32];
	inst_dialogs_who(x, w, sizeof w);
	d->bid_asked = bid;
	util_strlcpy(d->bid_typed, typed, sizeof d->bid_typed);
	const char *then = low ? "the instance will be outbid and stopped (its disk is kept and "
				 "still billed) until the bid is raised."
			       : "the interruptible instance would cost more than renting the "
				 "machine on demand, which cannot be outbid.";
	snprintf(text, sizeof text, "A bid of %s for instance %s is %s %s: %s Bid %s anyway?",
		 fmt_rate(b1, sizeof b1, bid), w, low ? "under its min_bid" : "above its on-demand price",
		 fmt_rate(b2, sizeof b2, low ? x->min_bid : x->ondemand), then,
		 fmt_rate(b3, sizeof b3, bid));
	dialog_confirm(&a->dlg, low ? IDLG_BID_LOW : IDLG_BID_HIGH, x->id,
		       low ? "Bid under min_bid" : "Bid above on-demand", text, "Bid anyway");
	own(a, d);
}

/* Submit what the input dialog holds; false keeps it open with an error
 * (or with the bid's second confirmation in its place). */
static bool submit_input(struct app *a, struct inst_dialogs *ds)
{
	struct dialog *d = &a->dlg;
	struct job_req req;
	memset(&req, 0, sizeof req);
	req.instance_id = d->instance_id;
	char err[256];
	switch (d->purpose) {
	case IDLG_BID: {
		const struct instance *x = a->snap ? model_snapshot_find(a->snap, d->instance_id) : NULL;
		if (!dialog_parse_bid(d->tb.s, jobs_bid_max(x ? x->num_gpus : 1), &req.amount, err,
				      sizeof err))
			goto refuse;
		req.kind = JOB_BID;
		req.num_gpus = x ? x->num_gpus : 1;
		enum bid_ask ask = x ? instance_bid_ask(x, req.amount) : BID_ASK_NONE;
		switch (ask) {
		case BID_ASK_LOW:
		case BID_ASK_HIGH:
			ask_bid_again(a, ds, x, req.amount, d->tb.s, ask == BID_ASK_LOW);
			return false; /* the dialog now is the second confirmation */
		case BID_ASK_NONE:
			break;
		}
		break;
	}
	case IDLG_PREPAY:
		if (!dialog_parse_amount(d->tb.s, &req.amount, err, sizeof err))
			goto refuse;
		req.kind = JOB_PREPAY;
		break;
	case IDLG_LABEL:
		if (!dialog_check_label(d->tb.s, err, sizeof err))
			goto refuse;
		req.kind = JOB_LABEL;
		util_strlcpy(req.text, d->tb.s, sizeof req.text);
		break;
	default:
		return true;
	}
	int id = 0;
	req.reply = true; /* its end comes back here (inst_dialogs_results) */
	int rc = jobs_submit(a->jobs, &req, &id);
	if (rc != JOBS_OK) {
		snprintf(err, sizeof err, "%s refused: %s", jobs_kind_name(req.kind), jobs_strerror(rc));
		goto refuse;
	}
	app_sent(a, &req);
	remember(a, ds, id, &req, d->tb.s);
	return true;
refuse:
	util_strlcpy(d->error, err, sizeof d->error);
	return false;
}

/* The answer to a bid's second confirmation: back to the bid as typed, or
 * the bid sent. */
static void bid_again_result(struct app *a, struct inst_dialogs *ds, enum dlg_result res)
{
	struct dialog *d = &a->dlg;
	if (res == DLG_CANCEL) { /* back to the bid, as typed */
		long id = d->instance_id;
		dialog_close(d);
		inst_dialogs_action(a, IOP_BID, id);
		if (dialog_open(d) && d->purpose == IDLG_BID) {
			textbuf_set(&d->tb, ds->bid_typed);
			dialog_update_preview(d);
		}
		return;
	}
	struct job_req req;
	memset(&req, 0, sizeof req);
	req.kind = JOB_BID;
	req.instance_id = d->instance_id;
	req.amount = ds->bid_asked;
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, req.instance_id) : NULL;
	req.num_gpus = x ? x->num_gpus : 1;
	dialog_close(d);
	if (a->read_only) {
		app_toast(a, ROLE_ERROR, 8, "read-only mode: bid is disabled");
		return;
	}
	submit(a, ds, &req, ds->bid_typed);
}

/* A confirmation answered yes: prepay on a failed instance goes on to the
 * amount; stop, reboot and destroy are sent. */
static void confirm_result(struct app *a, struct inst_dialogs *ds)
{
	struct dialog *d = &a->dlg;
	long id = d->instance_id;
	int purpose = d->purpose;
	dialog_close(d);
	if (purpose == IDLG_PREPAY_FAILED) { /* then the amount */
		const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
		if (x)
			open_input(a, ds, IOP_PREPAY, x);
		return;
	}
	enum job_kind k = purpose == IDLG_STOP ? JOB_STOP : purpose == IDLG_REBOOT ? JOB_REBOOT
										   : JOB_DESTROY;
	if (a->read_only) {
		app_toast(a, ROLE_ERROR, 8, "read-only mode: %s is disabled", jobs_kind_name(k));
		return;
	}
	simple_job(a, k, id);
}

/* The result of a dialog this view opened (app_dialog_own). */
static void dialog_result(struct app *a, void *owner, enum dlg_result res)
{
	struct inst_dialogs *ds = owner;
	struct dialog *d = &a->dlg;
	if ((d->purpose == IDLG_BID_LOW || d->purpose == IDLG_BID_HIGH) && res != DLG_CONTINUE) {
		bid_again_result(a, ds, res);
		return;
	}
	if (res == DLG_CANCEL) {
		app_dialog_cancelled(a);
		return;
	}
	if (res != DLG_SUBMIT)
		return;
	if (d->kind == DLG_CONFIRM) {
		confirm_result(a, ds);
		return;
	}
	if (submit_input(a, ds))
		dialog_close(d);
}

void inst_dialogs_confirm_destroy(struct app *a, long id, const char *title, const char *text)
{
	dialog_confirm(&a->dlg, IDLG_DESTROY, id, title, text, "Destroy");
	own(a, state(a));
}

/* A job failed: reopen its input dialog with what was typed and why. */
static void reopen_input(struct app *a, struct inst_dialogs *d, const struct inst_sent *s,
			 const char *why)
{
	if (dialog_open(&a->dlg))
		return;
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, s->instance_id) : NULL;
	if (!x)
		return;
	enum inst_op op = s->kind == JOB_BID ? IOP_BID : s->kind == JOB_PREPAY ? IOP_PREPAY
										 : IOP_LABEL;
	open_input(a, d, op, x); /* the form again, not the questions before it */
	if (!dialog_open(&a->dlg))
		return;
	textbuf_set(&a->dlg.tb, s->typed);
	dialog_update_preview(&a->dlg);
	util_strlcpy(a->dlg.error, why, sizeof a->dlg.error);
}

void inst_dialogs_results(struct app *a)
{
	struct inst_dialogs *d = state(a);
	for (size_t i = 0; d && i < d->nsent;) {
		struct call_result r;
		if (!model_take_result(a->m, d->sent[i].id, &r)) {
			i++;
			continue;
		}
		struct inst_sent s = d->sent[i];
		memmove(d->sent + i, d->sent + i + 1, (d->nsent - i - 1) * sizeof *d->sent);
		d->nsent--;
		if (r.outcome == CALL_ERROR &&
		    (s.kind == JOB_BID || s.kind == JOB_PREPAY || s.kind == JOB_LABEL))
			reopen_input(a, d, &s, r.err.msg);
		model_call_result_free(&r);
	}
}
