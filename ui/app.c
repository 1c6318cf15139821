/* app.c: what the keys do beyond moving around one view: instance actions
 * with their confirmations and inputs, job submission (pending badge and
 * toast), the event feed (log, toasts, the bell on a new failure, the 2FA
 * dialog and the retry of the action that asked for it), the `:` command
 * line, themes, ssh and copying the ssh command. */
#include "app.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clip.h"
#include "command.h"
#include "base/config.h"
#include "base/errline.h"
#include "views/offers/pane_offers.h"
#include "net/poller.h"
#include "tfa_challenge.h"
#include "ui.h"
#include "base/util.h"

enum { KEYED_HOLD_S = 8 };

/* Put a message on the status line; held: a refusal or warning that answers
 * the operator, not replaced by a background event's toast for KEYED_HOLD_S. */
static void vtoast(struct app *a, enum role r, double secs, bool answer, const char *fmt,
		   va_list ap)
{
	if (a->msg_sticky)
		return; /* the event log keeps what would have replaced it */
	char raw[sizeof a->msg];
	vsnprintf(raw, sizeof raw, fmt, ap);
	char *clean = util_sanitize(raw);
	util_strlcpy(a->msg, clean, sizeof a->msg);
	free(clean);
	a->msg_role = r;
	a->msg_until = secs > 0 ? util_mono() + secs : 0;
	/* a refusal or warning that answers a key stays readable: background
	 * events wait up to KEYED_HOLD_S (a job's own answer still replaces it) */
	bool held = answer && (r == ROLE_ERROR || r == ROLE_WARNING);
	a->msg_keyed_until = held ? util_mono() + (secs > 0 && secs < KEYED_HOLD_S ? secs
										  : KEYED_HOLD_S)
				  : 0;
	a->dirty |= DIRTY_MSG;
}

void app_toast(struct app *a, enum role r, double secs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vtoast(a, r, secs, a->in_key, fmt, ap);
	va_end(ap);
}

void app_answer(struct app *a, enum role r, double secs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vtoast(a, r, secs, true, fmt, ap);
	va_end(ap);
}

void app_lost_logged(struct app *a, const char *what, const char *line)
{
	model_event(a->m, EV_WARN, -1, 0, 0, EVF_QUIET, "%s: %s", what, line);
}

enum form_verdict app_lost_verdict(struct app *a, enum form_verdict fv, const char *msg)
{
	if (fv != FV_WAIT)
		model_event(a->m, fv == FV_DONE ? EV_OK : EV_WARN, -1, 0, 0, EVF_QUIET, "%s", msg);
	return fv;
}

const struct instance *app_selected(const struct app *a)
{
	const struct view *v = view_current(a);
	if (!v || !v->ops->instance_rows)
		return NULL;
	return view_row(a);
}

/* Remember a submitted job (for a retry after 2FA or a failed input). */
static void remember(struct app *a, int id, const struct job_req *req, const char *typed)
{
	struct sent_job *s = &a->sent[a->nsent++ % APP_SENT];
	s->id = id;
	s->req = *req;
	util_strlcpy(s->typed, typed ? typed : "", sizeof s->typed);
}

static const struct sent_job *find_sent(const struct app *a, int id)
{
	for (int i = 0; i < APP_SENT; i++)
		if (a->sent[i].id == id && id > 0)
			return &a->sent[i];
	return NULL;
}

static int submit_typed(struct app *a, const struct job_req *req, const char *typed)
{
	int id = 0;
	int rc = jobs_submit(a->jobs, req, &id);
	const char *what = job_kind_name(req->kind);
	if (rc != JOBS_OK) {
		if (rc == JOBS_EREADONLY)
			app_toast(a, ROLE_ERROR, 8, "read-only mode: %s is disabled", what);
		else
			app_toast(a, ROLE_ERROR, 8, "%s refused: %s", what, jobs_strerror(rc));
		return 0;
	}
	remember(a, id, req, typed);
	if (req->kind == JOB_TFA_LOGIN)
		app_toast(a, ROLE_PENDING, 0, "checking the two-factor code...");
	else
		app_toast(a, ROLE_PENDING, 0, "%s: sent for instance %ld", what, req->instance_id);
	a->dirty |= DIRTY_BODY;
	return id;
}

int app_submit(struct app *a, const struct job_req *req) { return submit_typed(a, req, NULL); }

static void simple_job(struct app *a, enum job_kind k, long id)
{
	struct job_req req;
	memset(&req, 0, sizeof req);
	req.kind = k;
	req.instance_id = id;
	app_submit(a, &req);
}

/* "N (label)" for questions. */
static void who(const struct instance *x, char *buf, size_t n)
{
	if (x->label[0])
		snprintf(buf, n, "%ld (%s)", x->id, x->label);
	else
		snprintf(buf, n, "%ld (%s)", x->id, x->gpu_name[0] ? x->gpu_name : "no label");
}

/* Leave curses and ssh to x by route r (direct or proxy); come back intact. */
static void do_ssh(struct app *a, const struct instance *x, enum ssh_route r)
{
	char host[256], target[300], port[16];
	int p;
	if (!instance_ssh_route(x, r, host, sizeof host, &p)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no %sSSH address yet", x->id,
			  r == SSH_PROXY ? "proxy " : r == SSH_DIRECT ? "direct " : "");
		return;
	}
	snprintf(target, sizeof target, "root@%s", host);
	snprintf(port, sizeof port, "%d", p);
	/* ssh_command may carry options ("ssh -o X"): split on spaces, no shell */
	char cmd[512];
	util_strlcpy(cmd, a->cfg->ssh_command && *a->cfg->ssh_command ? a->cfg->ssh_command : "ssh",
		     sizeof cmd);
	char *argv[24];
	int argc = 0;
	char *save = NULL;
	for (char *t = strtok_r(cmd, " \t", &save); t && argc < 20; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc)
		argv[argc++] = (char *)"ssh";
	argv[argc++] = (char *)"-p";
	argv[argc++] = port;
	argv[argc++] = target;
	argv[argc] = NULL;
	char why[ERRLINE_MAX + 1]; /* ssh's last stderr line, sanitised */
	char banner[512];
	snprintf(banner, sizeof banner,
		 "rentop: connecting to instance %ld (%s port %d)... (ssh's own messages follow; "
		 "leaving ssh returns to rentop)",
		 x->id, target, p);
	int st = ui_run_external_err(argv, banner, why, sizeof why);
	a->dirty |= DIRTY_ALL;
	if ((st == 127 || st < 0) && !why[0]) {
		app_toast(a, ROLE_ERROR, 10, "could not run %s", argv[0]);
	} else if (st != 0) {
		/* the toast and the event log keep the reason ssh gave */
		app_toast(a, ROLE_WARNING, 12, "ssh to instance %ld ended with status %d%s%s", x->id,
			  st, why[0] ? ": " : "", why);
		model_event(a->m, EV_WARN, -1, 0, x->id, EVF_QUIET,
			    "ssh to instance %ld ended with status %d%s%s", x->id, st,
			    why[0] ? ": " : "", why);
	} else
		app_toast(a, ROLE_OK, 5, "back from ssh to instance %ld", x->id);
}

/* Copy the ssh command of x by route r (OSC 52). */
static void copy_ssh(struct app *a, const struct instance *x, enum ssh_route r)
{
	char host[256];
	int p;
	if (!instance_ssh_route(x, r, host, sizeof host, &p)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no %sSSH address yet", x->id,
			  r == SSH_PROXY ? "proxy " : r == SSH_DIRECT ? "direct " : "");
		return;
	}
	char cmd[320];
	snprintf(cmd, sizeof cmd, "ssh -p %d root@%s", p, host);
	app_copy(cmd);
	app_toast(a, ROLE_OK, 12, "copied with the terminal clipboard sequence (OSC 52): %s%s", cmd,
		  clip_advice_here());
}

/* x (run) or y (copy): by the configured route, or ask when the instance
 * has both a direct address and the proxy and the config says ask. */
static void ssh_or_ask(struct app *a, const struct instance *x, bool run)
{
	enum ssh_route r;
	if (!instance_ssh_pick(x, a->cfg->ssh_route, &r)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no SSH address yet", x->id);
		return;
	}
	if (r != SSH_ASK) {
		if (run)
			do_ssh(a, x, r);
		else
			copy_ssh(a, x, r);
		return;
	}
	char dh[96], ph[96], text[768], w[160];
	int dp = 0, pp = 0;
	instance_ssh_route(x, SSH_DIRECT, dh, sizeof dh, &dp);
	instance_ssh_route(x, SSH_PROXY, ph, sizeof ph, &pp);
	who(x, w, sizeof w);
	snprintf(text, sizeof text,
		 "%s instance %s by which route? direct %s:%d or the service's proxy %s:%d "
		 "(d or p; Esc cancels; ssh = direct or proxy in the config skips this question)",
		 run ? "ssh to" : "Copy the ssh command of", w, dh, dp, ph, pp);
	dialog_choice(&a->dlg, run ? DP_SSH_ROUTE : DP_COPY_ROUTE, x->id, run ? "ssh" : "Copy ssh",
		      text, "Direct", "Proxy");
}

bool app_ssh_route(struct app *a, long id, enum ssh_route r, bool run)
{
	const struct instance *x = a->snap ? snapshot_find_instance(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return false;
	}
	if (r == SSH_ASK)
		ssh_or_ask(a, x, run);
	else if (run)
		do_ssh(a, x, r);
	else
		copy_ssh(a, x, r);
	a->dirty |= DIRTY_ALL;
	return true;
}

char *app_base64(const unsigned char *in, size_t n, char *out)
{
	static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		out[o++] = tbl[(v >> 18) & 63];
		out[o++] = tbl[(v >> 12) & 63];
		out[o++] = i + 1 < n ? tbl[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? tbl[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

void app_copy(const char *text)
{
	size_t n = strlen(text);
	char *b64 = xmalloc(4 * (n / 3 + 1) + 1);
	app_base64((const unsigned char *)text, n, b64);
	char *seq = xasprintf("\033]52;c;%s\a", b64);
	/* between two doupdate()s: curses has flushed, nothing is interleaved */
	fflush(stdout);
	ssize_t w = write(STDOUT_FILENO, seq, strlen(seq));
	(void)w;
	explicit_bzero(seq, strlen(seq)); /* it may be a secret (backup codes) */
	explicit_bzero(b64, strlen(b64));
	free(seq);
	free(b64);
}

/* The input dialog of a bid, a prepay or a label on x. */
static void open_input(struct app *a, enum inst_op op, const struct instance *x)
{
	char w[160], text[512], init[64];
	who(x, w, sizeof w);
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
		dialog_input(&a->dlg, DP_BID, x->id, "Change bid", text, init, 20);
		if (instance_was_outbid(x))
			dialog_set_preview(&a->dlg, dialog_outbid_preview, x->min_bid);
		else
			dialog_set_preview(&a->dlg, dialog_bid_preview, x->min_bid);
		break;
	}
	case IOP_PREPAY:
		snprintf(text, sizeof text, "Prepay instance %s: amount ($ of credit):", w);
		dialog_input(&a->dlg, DP_PREPAY, x->id, "Prepay", text, "", 20);
		dialog_set_preview(&a->dlg, dialog_prepay_preview, x->dph_total);
		break;
	case IOP_LABEL:
		snprintf(text, sizeof text, "New label for instance %ld:", x->id);
		dialog_input(&a->dlg, DP_LABEL, x->id, "Label", text, x->label, LABEL_MAX);
		break;
	case IOP_STOP: case IOP_START: case IOP_REBOOT: case IOP_DESTROY: case IOP_SSH:
	case IOP_COPY_SSH:
		break;
	}
}

void app_instance_action(struct app *a, enum inst_op op, long id)
{
	const struct instance *x = a->snap ? snapshot_find_instance(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return;
	}
	char w[160], text[512], b1[32];
	who(x, w, sizeof w);
	switch (op) {
	case IOP_STOP:
		snprintf(text, sizeof text,
			 "Stop instance %s? This halts compute billing; disk charges continue.", w);
		dialog_confirm(&a->dlg, DP_STOP, id, "Stop", text, "Stop");
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
		dialog_confirm(&a->dlg, DP_DESTROY, id, "Destroy", text, "Destroy");
		break;
	}
	case IOP_START: simple_job(a, JOB_START, id); break;
	case IOP_REBOOT:
		snprintf(text, sizeof text,
			 "Reboot instance %s? The work running on the machine is interrupted: every "
			 "process in the container is killed and starts again.",
			 w);
		dialog_confirm(&a->dlg, DP_REBOOT, id, "Reboot", text, "Reboot");
		break;
	case IOP_PREPAY:
		if (instance_prepay_asks(x)) {
			/* credit parked on an instance that cannot run: asked first */
			char why[200];
			snprintf(why, sizeof why, "%s%s%.150s", inst_state_name(x->state),
				 x->status_msg && x->status_msg[0] ? ": " : "",
				 x->status_msg ? x->status_msg : "");
			snprintf(text, sizeof text,
				 "Instance %s is in a failure state (%s). Prepaid credit stays on it while "
				 "it cannot run, and destroying it refunds only part. Prepay it anyway?",
				 w, why);
			dialog_confirm(&a->dlg, DP_PREPAY_FAILED, id, "Prepay a failed instance", text,
				       "Prepay anyway");
			break;
		}
		open_input(a, op, x);
		break;
	case IOP_LABEL: case IOP_BID:
		open_input(a, op, x);
		break;
	case IOP_SSH: case IOP_COPY_SSH:
		ssh_or_ask(a, x, op == IOP_SSH);
		break;
	}
	a->dirty |= DIRTY_ALL;
}

void app_run_action(struct app *a, enum action act)
{
	const struct action_def *d = action_get(act);
	if (!d)
		return;
	struct view *bv = view_current(a);
	if (bv && bv->ops->bulk && bv->ops->bulk(a, bv->st, act))
		return; /* on the marked rows: each row's preconditions are the view's */
	if (!view_send_action(a, act) && a->global)
		a->global(a, act);
}

/* What asked for 2FA, in words ("destroy 9108142"), from the sent job, or
 * from the event of an on-demand call ("add env var needs a 2FA login: ..."). */
static void tfa_what(const struct sent_job *s, const struct event *e, char *buf, size_t n)
{
	if (s && s->req.instance_id > 0) {
		snprintf(buf, n, "%s %ld", job_kind_name(s->req.kind), s->req.instance_id);
		return;
	}
	if (s) {
		snprintf(buf, n, "%s", job_kind_name(s->req.kind));
		return;
	}
	const char *cut = strstr(e->text, " needs a 2FA login");
	size_t len = cut ? (size_t)(cut - e->text) : 0;
	if (!len || len >= n) {
		snprintf(buf, n, "this action");
		return;
	}
	memcpy(buf, e->text, len);
	buf[len] = '\0';
}

/* Why a 2FA login was refused, for the prompt (e: its failure event). */
static void tfa_refused(const struct event *e, char *buf, size_t n)
{
	const char *why = strstr(e->text, "failed: ");
	why = why ? why + 8 : e->text;
	if (!strncmp(why, "HTTP ", 5) && strstr(why, ": ")) /* "HTTP 400 slug: the words" */
		why = strstr(why, ": ") + 2;
	if (strstr(e->text, "2fa_verification_failed") || strstr(e->text, "invalid_backup_code"))
		snprintf(buf, n, "Wrong code: %s Type the current code.", why);
	else if (strstr(e->text, "tfa_locked"))
		snprintf(buf, n, "Locked after too many wrong codes: %s", why);
	else
		snprintf(buf, n, "The code was not accepted: %s", why);
}

/* A bid under min_bid: a second confirmation, starting on Cancel, that
 * says what happens. */
static void ask_bid_low(struct app *a, const struct instance *x, double bid, const char *typed)
{
	char w[160], text[512], b1[32], b2[32], b3[32];
	who(x, w, sizeof w);
	a->bid_low = bid;
	util_strlcpy(a->bid_low_typed, typed, sizeof a->bid_low_typed);
	snprintf(text, sizeof text,
		 "A bid of %s for instance %s is under its min_bid %s: the instance will be outbid and "
		 "stopped (its disk is kept and still billed) until the bid is raised. Bid %s anyway?",
		 fmt_rate(b1, sizeof b1, bid), w, fmt_rate(b2, sizeof b2, x->min_bid),
		 fmt_rate(b3, sizeof b3, bid));
	dialog_confirm(&a->dlg, DP_BID_LOW, x->id, "Bid under min_bid", text, "Bid anyway");
}

/* A bid above the on-demand price: the same second confirmation. */
static void ask_bid_high(struct app *a, const struct instance *x, double bid, const char *typed)
{
	char w[160], text[512], b1[32], b2[32], b3[32];
	who(x, w, sizeof w);
	a->bid_low = bid;
	util_strlcpy(a->bid_low_typed, typed, sizeof a->bid_low_typed);
	snprintf(text, sizeof text,
		 "A bid of %s for instance %s is above its on-demand price %s: the interruptible "
		 "instance would cost more than renting the machine on demand, which cannot be "
		 "outbid. Bid %s anyway?",
		 fmt_rate(b1, sizeof b1, bid), w, fmt_rate(b2, sizeof b2, x->ondemand),
		 fmt_rate(b3, sizeof b3, bid));
	dialog_confirm(&a->dlg, DP_BID_HIGH, x->id, "Bid above on-demand", text, "Bid anyway");
}

/* Submit what the input dialog holds; false keeps it open with an error. */
static bool submit_input(struct app *a)
{
	struct dialog *d = &a->dlg;
	struct job_req req;
	memset(&req, 0, sizeof req);
	req.instance_id = d->instance_id;
	char err[256];
	switch (d->purpose) {
	case DP_BID: {
		const struct instance *x = a->snap ? snapshot_find_instance(a->snap, d->instance_id) : NULL;
		if (!dialog_parse_bid(d->tb.s, jobs_bid_max(x ? x->num_gpus : 1), &req.amount, err,
				      sizeof err))
			goto refuse;
		req.kind = JOB_BID;
		req.num_gpus = x ? x->num_gpus : 1;
		switch (x ? instance_bid_ask(x, req.amount) : BID_ASK_NONE) {
		case BID_ASK_LOW:
			ask_bid_low(a, x, req.amount, d->tb.s);
			return false; /* the dialog now is the second confirmation */
		case BID_ASK_HIGH:
			ask_bid_high(a, x, req.amount, d->tb.s);
			return false;
		case BID_ASK_NONE:
			break;
		}
		break;
	}
	case DP_PREPAY:
		if (!dialog_parse_amount(d->tb.s, &req.amount, err, sizeof err))
			goto refuse;
		req.kind = JOB_PREPAY;
		break;
	case DP_LABEL:
		if (!dialog_check_label(d->tb.s, err, sizeof err))
			goto refuse;
		req.kind = JOB_LABEL;
		util_strlcpy(req.text, d->tb.s, sizeof req.text);
		break;
	default:
		return true;
	}
	int id = 0;
	int rc = jobs_submit(a->jobs, &req, &id);
	if (rc != JOBS_OK) {
		snprintf(err, sizeof err, "%s refused: %s", job_kind_name(req.kind), jobs_strerror(rc));
		goto refuse;
	}
	remember(a, id, &req, d->tb.s);
	app_toast(a, ROLE_PENDING, 0, "%s: sent for instance %ld", job_kind_name(req.kind),
		  req.instance_id);
	return true;
refuse:
	util_strlcpy(d->error, err, sizeof d->error);
	return false;
}

void app_tfa_cancel(struct app *a)
{
	app_toast(a, ROLE_WARNING, 8, "%s cancelled: no two-factor code was given",
		  a->tfa_what[0] ? a->tfa_what : "the action");
	a->ntfa_retry = 0;
	a->tfa_job = 0;
	a->tfa_what[0] = '\0';
	poller_cancel_parked(a->poller); /* the on-demand actions get their refusal */
	tfa_challenge_close(a, a->chal); /* a typed code and a sent code's secret wiped */
}

void app_dialog_result(struct app *a, enum dlg_result res)
{
	struct dialog *d = &a->dlg;
	a->dirty |= DIRTY_ALL;
	bool second = d->purpose == DP_BID_LOW || d->purpose == DP_BID_HIGH;
	if (second && res == DLG_CANCEL) { /* back to the bid, as typed */
		long id = d->instance_id;
		dialog_close(d);
		app_instance_action(a, IOP_BID, id);
		if (dialog_open(d) && d->purpose == DP_BID) {
			textbuf_set(&d->tb, a->bid_low_typed);
			dialog_update_preview(d);
		}
		return;
	}
	if (second && res == DLG_SUBMIT) {
		struct job_req req;
		memset(&req, 0, sizeof req);
		req.kind = JOB_BID;
		req.instance_id = d->instance_id;
		req.amount = a->bid_low;
		const struct instance *x = a->snap ? snapshot_find_instance(a->snap, req.instance_id) : NULL;
		req.num_gpus = x ? x->num_gpus : 1;
		dialog_close(d);
		if (a->read_only) {
			app_toast(a, ROLE_ERROR, 8, "read-only mode: bid is disabled");
			return;
		}
		submit_typed(a, &req, a->bid_low_typed);
		return;
	}
	if (res == DLG_CANCEL) {
		app_toast(a, ROLE_DIM, 4, "cancelled");
		dialog_close(d);
		return;
	}
	if (res != DLG_SUBMIT)
		return;
	if (d->kind == DLG_CHOICE) {
		long id = d->instance_id;
		int purpose = d->purpose;
		enum ssh_route r = d->focus == 0 ? SSH_DIRECT : SSH_PROXY;
		int focus = d->focus;
		dialog_close(d);
		if (purpose == DP_SSH_ROUTE || purpose == DP_COPY_ROUTE)
			app_ssh_route(a, id, r, purpose == DP_SSH_ROUTE);
		else if (purpose == DP_REPLACE_IMAGE)
			pane_offers_replace_answer(a, id, focus);
		return;
	}
	if (d->kind == DLG_CONFIRM && d->purpose == DP_PREPAY_FAILED) { /* then the amount */
		long id = d->instance_id;
		dialog_close(d);
		const struct instance *x = a->snap ? snapshot_find_instance(a->snap, id) : NULL;
		if (x)
			open_input(a, IOP_PREPAY, x);
		return;
	}
	if (d->kind == DLG_CONFIRM) {
		long id = d->instance_id;
		int purpose = d->purpose;
		dialog_close(d);
		enum job_kind k = purpose == DP_STOP	 ? JOB_STOP
				  : purpose == DP_REBOOT ? JOB_REBOOT
							 : JOB_DESTROY;
		if (a->read_only) {
			app_toast(a, ROLE_ERROR, 8, "read-only mode: %s is disabled", job_kind_name(k));
			return;
		}
		simple_job(a, k, id);
		return;
	}
	if (submit_input(a))
		dialog_close(d);
}

static enum role level_role(enum ev_level l)
{
	switch (l) {
	case EV_OK: return ROLE_OK;
	case EV_WARN: return ROLE_WARNING;
	case EV_ERROR: return ROLE_ERROR;
	case EV_INFO: return ROLE_NORMAL;
	}
	return ROLE_NORMAL;
}

/* A job failed: reopen its input dialog with what was typed and why. */
static void reopen_input(struct app *a, const struct sent_job *s, const char *why)
{
	if (dialog_open(&a->dlg))
		return;
	const struct instance *x = a->snap ? snapshot_find_instance(a->snap, s->req.instance_id) : NULL;
	if (!x)
		return;
	enum inst_op op = s->req.kind == JOB_BID ? IOP_BID
			  : s->req.kind == JOB_PREPAY ? IOP_PREPAY
						      : IOP_LABEL;
	open_input(a, op, x); /* the form again, not the questions before it */
	if (!dialog_open(&a->dlg))
		return;
	textbuf_set(&a->dlg.tb, s->req.kind == JOB_LABEL ? s->req.text : s->typed);
	dialog_update_preview(&a->dlg);
	util_strlcpy(a->dlg.error, why, sizeof a->dlg.error);
}

static void handle_event(struct app *a, const struct event *e)
{
	for (int i = 0; i < a->nviews; i++) /* the event log view keeps it */
		if (a->views[i].ops->on_event)
			a->views[i].ops->on_event(a, a->views[i].st, e);
	if (e->flags & EVF_QUIET)
		return;
	if (e->flags & EVF_NEEDS_TFA) {
		const struct sent_job *s = find_sent(a, e->job_id);
		if (s && s->req.kind != JOB_TFA_LOGIN) {
			if (a->ntfa_retry < APP_TFA_RETRY)
				a->tfa_retry[a->ntfa_retry++] = s->req;
			else /* never silently: it is not sent again */
				model_event(a->m, EV_ERROR, -1, 0, s->req.instance_id, 0,
					    "%s %ld: too many actions wait for a two-factor code; "
					    "it is not sent again after the login",
					    job_kind_name(s->req.kind), s->req.instance_id);
		}
		if (!tfa_challenge_active(a->chal))
			tfa_what(s, e, a->tfa_what, sizeof a->tfa_what);
		app_toast(a, ROLE_WARNING, 0, "%s needs a two-factor code", a->tfa_what);
		tfa_challenge_open(a, a->chal, a->tfa_what);
		return;
	}
	if (e->job_kind == JOB_TFA_LOGIN && (e->flags & EVF_JOB_DONE) && e->job_id == a->tfa_job &&
	    a->tfa_job) {
		a->tfa_job = 0;
		if (e->level == EV_OK || e->level == EV_INFO) {
			tfa_challenge_close(a, a->chal); /* the code and the secret wiped */
			app_toast(a, ROLE_OK, 8, "%s", e->text);
			for (int i = 0; i < a->ntfa_retry; i++) /* each reports its own result */
				app_submit(a, &a->tfa_retry[i]);
			a->ntfa_retry = 0;
			a->tfa_what[0] = '\0';
		} else {
			char why[400];
			tfa_refused(e, why, sizeof why);
			app_toast(a, ROLE_WARNING, 0, "%s still needs a two-factor code",
				  a->tfa_what[0] ? a->tfa_what : "the action");
			/* the code field emptied for the next one; an expired code
			 * or a gone challenge: the next Enter sends a new one */
			tfa_challenge_refused(a, a->chal, why,
					      strstr(e->text, "2fa_expired") ||
						      strstr(e->text, "challenge_not_found") ||
						      strstr(e->text, "no_challenge_found"));
		}
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (e->flags & EVF_HOLD) { /* a key warning: kept until a key, ahead of others */
		bool more = a->msg_sticky;
		a->msg_sticky = false;
		app_toast(a, level_role(e->level), 0, "%s%s  [any key dismisses]", e->text,
			  more ? " (+more: 2 shows the event log)" : "");
		a->msg_sticky = true;
		return;
	}
	double secs = e->level == EV_ERROR ? 20 : 10;
	if ((e->flags & EVF_JOB_DONE) || util_mono() >= a->msg_keyed_until) {
		app_toast(a, level_role(e->level), secs, "%s", e->text);
	} else { /* shown when the answer's hold ends (app_show_later) */
		util_strlcpy(a->msg_later, e->text, sizeof a->msg_later);
		a->msg_later_role = level_role(e->level);
		a->msg_later_secs = secs;
	}
	if (e->flags & EVF_FAILED_INSTANCE) {
		if (a->cfg->bell)
			a->bell_pending = true;
		a->dirty |= DIRTY_HINTS;
	}
	if ((e->flags & EVF_JOB_DONE) && e->level == EV_ERROR) {
		const struct sent_job *s = find_sent(a, e->job_id);
		if (s && (s->req.kind == JOB_BID || s->req.kind == JOB_PREPAY ||
			  s->req.kind == JOB_LABEL))
			reopen_input(a, s, e->text);
	}
}

void app_show_later(struct app *a)
{
	if (!a->msg_later[0])
		return;
	/* after the hold of an answer; else once the line is free (a job's answer
	 * that replaced the held one is read first) */
	if (a->msg_keyed_until > 0 ? util_mono() < a->msg_keyed_until : a->msg[0] != '\0')
		return;
	app_toast(a, a->msg_later_role, a->msg_later_secs, "%s", a->msg_later);
	a->msg_later[0] = '\0';
}

void app_pull_events(struct app *a)
{
	struct event buf[64];
	for (;;) {
		size_t n = model_events(a->m, a->last_seq, buf, 64);
		for (size_t i = 0; i < n; i++) {
			a->last_seq = buf[i].seq;
			handle_event(a, &buf[i]);
		}
		if (n < 64)
			break;
	}
}

bool app_set_theme(struct app *a, const char *name)
{
	struct theme t;
	char err[300];
	if (!theme_load(&t, name, err, sizeof err)) {
		app_toast(a, ROLE_WARNING, 10, "%s; keeping theme %s", err, a->theme.name);
		return false;
	}
	a->theme = t;
	theme_activate(&a->theme, a->color);
	bkgdset((chtype)' ' | (attr_t)theme_attr(ROLE_NORMAL));
	a->dirty |= DIRTY_ALL;
	app_toast(a, ROLE_OK, 4, "theme %s", t.name);
	return true;
}

/* `:WORD`: a view by name (or alias), else an action by name, run as its
 * key would run it; false when WORD is neither. */
static bool command_word(struct app *a, const char *word)
{
	int v = view_find(a, word);
	if (v >= 0) {
		const struct instance *x = app_selected(a);
		const struct view_ops *o = a->views[v].ops;
		if (!o->number_key && o->instance_rows && !x) {
			app_toast(a, ROLE_WARNING, 6, ":%s needs a selected instance", word);
			return true;
		}
		view_show(a, v, o->instance_rows && x ? x->id : 0);
		return true;
	}
	if ((v = view_find_word(a, word)) >= 0) { /* a section's word: ":reports" */
		if (a->views[v].ops->number_key)
			view_show(a, v, 0);
		a->views[v].ops->command(a, a->views[v].st, word);
		return true;
	}
	enum action act = action_by_name(word);
	if (act == ACT_NONE || act == ACT_COMMAND)
		return false;
	struct view *cur = view_current(a);
	if (!action_allowed(act, view_key_ctx(a, cur))) {
		app_toast(a, ROLE_WARNING, 8, ":%s does not apply in the %s view", word,
			  cur ? cur->ops->name : "current");
		return true;
	}
	app_run_action(a, act);
	return true;
}

/* :sort COLUMN on the current view, else the first view that sorts. */
static void command_sort(struct app *a, const char *col)
{
	int idx = -1;
	struct view *cur = view_current(a);
	if (cur && cur->ops->sort)
		idx = (int)(cur - a->views);
	for (int i = 0; idx < 0 && i < a->nviews; i++)
		if (a->views[i].ops->sort && a->views[i].ops->number_key)
			idx = i;
	if (idx < 0) {
		app_toast(a, ROLE_ERROR, 8, "no view here sorts by column");
		return;
	}
	char err[200];
	struct view *v = &a->views[idx];
	if (!v->ops->sort(a, v->st, col, err, sizeof err)) {
		app_toast(a, ROLE_ERROR, 8, "%s", err);
		return;
	}
	if (v->ops->number_key)
		view_show(a, idx, 0);
}

/* `:VIEW ARGS` for a view that takes arguments: shown, then given ARGS.
 * False when the first word is no such view. */
static bool view_command(struct app *a, const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == ':')
		line++;
	size_t wl = strcspn(line, " \t");
	char word[40];
	if (wl == 0 || wl >= sizeof word)
		return false;
	memcpy(word, line, wl);
	word[wl] = '\0';
	int i = view_find(a, word);
	const char *args = line + wl;
	if (i < 0 && (i = view_find_word(a, word)) >= 0)
		args = line; /* a section's word: the command gets "reports 42" */
	if (i < 0)
		return false;
	while (*args == ' ' || *args == '\t')
		args++;
	const struct view_ops *o = a->views[i].ops;
	if (!o->command && !o->number_key && o->instance_rows) {
		/* an overlay on an instance (`:detail 9108111`): that instance */
		char *end;
		long id = strtol(args, &end, 10);
		while (*end == ' ' || *end == '\t')
			end++;
		if (id <= 0 || *end || !a->snap || !snapshot_find_instance(a->snap, id)) {
			app_toast(a, ROLE_ERROR, 8, ":%s takes the id of a listed instance, not \"%.40s\"",
				  word, args);
			return true;
		}
		view_show(a, i, id);
		return true;
	}
	if (!o->command)
		return false;
	struct view *v = &a->views[i];
	if (v->ops->number_key)
		view_show(a, i, 0);
	v->ops->command(a, v->st, args);
	return true;
}

/* `:ssh ROUTE` and `:copy-ssh ROUTE` (direct, proxy or ask): x or y on the
 * selected instance by that route.  False when line is not one of them. */
static bool ssh_command(struct app *a, const char *line)
{
	char word[16], route[16], extra[8];
	while (*line == ' ' || *line == ':')
		line++;
	int n = sscanf(line, "%15s %15s %7s", word, route, extra);
	if (n < 2 || (strcmp(word, "ssh") != 0 && strcmp(word, "copy-ssh") != 0))
		return false;
	enum ssh_route r;
	if (n == 3)
		r = (enum ssh_route)-1;
	else if (strcmp(route, "direct") == 0)
		r = SSH_DIRECT;
	else if (strcmp(route, "proxy") == 0)
		r = SSH_PROXY;
	else if (strcmp(route, "ask") == 0)
		r = SSH_ASK;
	else
		r = (enum ssh_route)-1;
	if ((int)r < 0) {
		app_toast(a, ROLE_ERROR, 8, ":%s takes direct, proxy or ask", word);
		return true;
	}
	enum action act = action_by_name(word);
	struct view *cur = view_current(a);
	if (act == ACT_NONE || !action_allowed(act, view_key_ctx(a, cur))) {
		app_toast(a, ROLE_WARNING, 8, ":%s does not apply in the %s view", word,
			  cur ? cur->ops->name : "current");
		return true;
	}
	char why[300];
	const char *no = action_refusal(act, view_row(a), a->read_only, why, sizeof why);
	const struct instance *x = app_selected(a);
	if (no || !x) {
		app_toast(a, ROLE_WARNING, 8, "%s", no ? no : "no instance selected");
		return true;
	}
	app_ssh_route(a, x->id, r, word[0] == 's');
	return true;
}

void app_command(struct app *a, const char *line)
{
	char arg[256];
	enum cmd c = command_parse(line, arg, sizeof arg);
	switch (c) {
	case CMD_EMPTY: break;
	case CMD_HELP: view_open(a, "help", 0); break;
	case CMD_QUIT: a->quit = true; break;
	case CMD_SORT: command_sort(a, arg); break;
	case CMD_FILTER: {
		struct view *v = view_current(a);
		if (!view_can_filter(a, v))
			v = &a->views[a->view];
		if (view_can_filter(a, v))
			view_filter_set(a, v, arg);
		break;
	}
	case CMD_THEME: app_set_theme(a, arg); break;
	case CMD_REFRESH:
		if (a->poller)
			poller_refresh_now(a->poller);
		app_toast(a, ROLE_DIM, 3, "refreshing...");
		break;
	case CMD_MISSING_ARG: app_toast(a, ROLE_ERROR, 8, ":%s needs an argument", arg); break;
	case CMD_WORD:
		if (!command_word(a, arg))
			app_toast(a, ROLE_ERROR, 8, "unknown command: %s", arg);
		break;
	case CMD_UNKNOWN:
		if (!ssh_command(a, line) && !view_command(a, line))
			app_toast(a, ROLE_ERROR, 8, "unknown command: %s", arg);
		break;
	}
	a->dirty |= DIRTY_ALL;
}
