/* tfa.c: two-factor authentication management (`:tfa`, or `t` in the
 * account view): an overlay showing the 2FA status (on/off, the methods
 * with a live countdown while one is locked, backup codes left, the
 * authorize-new-method window, whether rentop holds a 2FA session) and the
 * dialogs that change it: add an authenticator app (TOTP: authorize first
 * with a code from a method or a backup code when a method exists, with a
 * code sent to the account's email when none does; then the provisioning
 * URI as a QR code with the
 * secret in groups of four, then the current code and a label), add a
 * phone (SMS: number in E.164, send, code, resend), change a method's label
 * or make it primary, regenerate the backup codes, remove a method, log in
 * (a session key stored where the official CLI keeps it, 0600) and log out.
 *
 * Every request is a jobs_call (actions at most once, AF_MUTATES: hidden
 * and refused under --read-only); the status is a jobs_subscribe fetch
 * while the overlay is shown, fetched again after every step.
 *
 * Secrets: the TOTP secret, its URI and QR rows, challenge secrets, typed
 * codes, backup codes and the session key live only in this view's flow
 * state and the calls' answers, and are wiped (explicit_bzero) when the
 * dialog that shows or uses them closes.  The secret is drawn only by the
 * QR dialog and the backup codes only by their dialog, shown once; nothing
 * of them reaches a toast, the event log or --log.  UI thread only.
 *
 * This file is the shell: the status and the methods list (the list
 * widget moves and filters it), the keys, the modal dispatch, the awaited
 * call and its result's dispatch, and the login; each flow lives in its
 * own tfa_*.c (tfa.h). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/acct.h"
#include "app.h"
#include "net/auth.h"
#include "base/config.h"
#include "draw.h"
#include "state/model.h"
#include "poll/poller.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "views/tfa/tfa.h"

/* ---- helpers ---------------------------------------------------------------------- */

/* Information (a code was sent, what to type) in the form's note, not its
 * error slot; an earlier answer and field's mark go, and the focus goes to
 * field (NULL: stays). */
void tfa_info(struct form *fm, const char *field, const char *msg)
{
	form_set_answer(fm, NULL, "");
	int i = field ? form_find(fm, field) : -1;
	if (i >= 0)
		form_mark(fm, i, "");
	form_set_note(fm, msg, false);
}

void tfa_refresh(struct app *a, struct tfa_view *v)
{
	if (!v->sub)
		return;
	jobs_set_visible(a->jobs, v->sub, false);
	jobs_set_visible(a->jobs, v->sub, v->shown);
}

/* Close whatever dialog is open and wipe every secret of the flow. */
void tfa_flow_end(struct app *a, struct tfa_view *v)
{
	modal_call_drop(&v->call, a->m);
	v->callk = CK_NONE;
	form_free(&v->fm);
	dialog_close(&v->dlg);
	api_tfa_verify_wipe(&v->pending);
	explicit_bzero(v->challenge, sizeof v->challenge);
	v->challenge_for = 0;
	explicit_bzero(v->totp_secret, sizeof v->totp_secret);
	explicit_bzero(v->totp_uri, sizeof v->totp_uri);
	qr_free(&v->qr);
	v->qr_err[0] = '\0';
	explicit_bzero(&v->codes, sizeof v->codes);
	v->codes_first = false;
	v->codes_note[0] = '\0';
	explicit_bzero(v->sms_phone, sizeof v->sms_phone);
	explicit_bzero(v->sms_label, sizeof v->sms_label);
	v->email_sends = 0;
	v->sent_at = 0;
	v->busy = false;
	v->step = ST_NONE;
	v->target = 0;
	v->target_text[0] = '\0';
	a->dirty |= DIRTY_ALL;
}

/* Queue call c (what: for messages); the call id or 0 with a message in err. */
int tfa_send(struct app *a, struct tfa_view *v, enum callk k, struct api_call call,
	     jobs_map_fn map, const char *what, char *err, size_t n)
{
	struct job_call c = { .call = call, .map = map, .free_value = tfa_map_free };
	util_strlcpy(c.what, what, sizeof c.what);
	/* the modal is marked by the caller (a busy QR dialog has no form) */
	int rc = modal_call_send(&v->call, a->jobs, &c, NULL, NULL);
	if (rc != JOBS_OK) {
		snprintf(err, n, "%s", rc == JOBS_EREADONLY ? "read-only mode: 2FA changes are disabled"
							   : jobs_strerror(rc));
		return 0;
	}
	v->callk = k;
	return v->call.id;
}

/* The form's answer after a failed step, the code field emptied. */
void tfa_form_failed(struct tfa_view *v, const char *msg)
{
	v->fm.waiting = false;
	int c = form_find(&v->fm, "code");
	if (c >= 0)
		textbuf_clear(&v->fm.f[c].tb);
	form_set_answer(&v->fm, c >= 0 ? "code" : NULL, msg);
	if (c >= 0)
		v->fm.focus = c;
}

bool tfa_window_open(const struct tfa_view *v, double now)
{
	return acct_window_left(v->authorized_at, now) > 0 ||
	       (v->st && v->st->new_method_authorized);
}

const struct tfa_method_rec *tfa_selected_method(const struct tfa_view *v)
{
	size_t i = list_selected(&v->lst);
	if (!v->st || i >= v->st->nmethods)
		return NULL;
	return &v->st->methods[i];
}

/* ---- results ----------------------------------------------------------------------------- */

/* Why a step failed, into msg[n] (the service's words, or a refused
 * send's); te gets the 2FA error.  A challenge that expired is forgotten
 * (the next submit starts over), a pending verification wiped. */
static void failure_text(struct tfa_view *v, const struct call_result *r, struct tfa_error *te,
			 char *msg, size_t n)
{
	long mid = 0; /* the method whose fail count and lock apply */
	if (v->step == ST_VERIFY) {
		int ci = form_choice(&v->fm, "with");
		if (ci >= 0 && ci < v->nch)
			mid = v->ch[ci].id;
	}
	if (r->outcome == CALL_UNKNOWN)
		snprintf(msg, n, "the answer was lost: the change may have been made (%s)",
			 r->err.msg);
	else
		tfaflow_error_text(&r->err, tfaflow_method(v->st, mid), util_now(), msg, n);
	api_tfa_error_from_api(&r->err, te);
	if (te->kind == TFAE_EXPIRED || te->kind == TFAE_NO_CHALLENGE) /* the next submit starts over */
		explicit_bzero(v->challenge, sizeof v->challenge);
	api_tfa_verify_wipe(&v->pending);
	if (r->outcome != CALL_UNKNOWN && (v->step == ST_SMS || v->step == ST_EMAIL)) {
		char refused[300];
		tfa_add_refused_text(v, te, refused, sizeof refused);
		if (refused[0])
			snprintf(msg, n, "%s", refused);
		else if (v->step == ST_EMAIL && (te->kind == TFAE_EXPIRED || te->kind == TFAE_NO_CHALLENGE))
			snprintf(msg, n, "The email code expired (or its challenge is gone): "
				 "Enter or C-n asks for a new one.");
		else if (v->step == ST_EMAIL && te->kind == TFAE_EMAIL_NOT_VERIFIED)
			snprintf(msg, n, "The account's email address is not verified, so no code "
				 "can be sent to it: verify it in the web console, then try again (Esc closes).");
	}
}

/* A step failed: keep its dialog with the reason (the code emptied). */
static void step_failed(struct app *a, struct tfa_view *v, enum callk k, struct call_result *r)
{
	char msg[400];
	struct tfa_error te;
	failure_text(v, r, &te, msg, sizeof msg);
	tfa_refresh(a, v); /* the fail count and the lock */
	switch (v->step) {
	case ST_QR:
		tfa_flow_end(a, v);
		app_toast(a, ROLE_ERROR, 10, "2FA set-up failed: %s", msg);
		return;
	case ST_VERIFY:
	case ST_CONFIRM:
	case ST_UPDATE:
	case ST_SMS:
	case ST_EMAIL:
		if (te.kind == TFAE_AUTH_REQUIRED && v->step == ST_CONFIRM) {
			/* the window closed meanwhile: authorize again, then set up again */
			tfa_flow_end(a, v);
			v->after = AFTER_TOTP;
			if (v->st && v->st->nmethods == 0) {
				tfa_email_open(a, v);
				return;
			}
			tfa_verify_open(a, v, VP_AUTHORIZE);
			form_set_answer(&v->fm, NULL, msg);
			return;
		}
		if (k == CK_UPDATE) {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, msg);
		} else {
			tfa_form_failed(v, msg);
		}
		return;
	case ST_NONE:
	case ST_BACKUP:
	case ST_REMOVE_ASK:
		app_toast(a, ROLE_ERROR, 10, "%s", msg);
		return;
	}
}

/* The awaited call ended: a lost or failed answer, else the flow's own
 * result (the login's here). */
static void call_done(struct app *a, struct tfa_view *v, struct call_result *r)
{
	enum callk k = v->callk;
	v->callk = CK_NONE;
	struct api_tfa_answer *ans = r->outcome == CALL_OK ? r->value : NULL;
	if ((k == CK_REGEN || k == CK_REMOVE) && r->outcome == CALL_UNKNOWN) {
		tfa_manage_lost_begin(a, v, r);
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (r->outcome != CALL_OK) {
		step_failed(a, v, k, r);
		a->dirty |= DIRTY_ALL;
		return;
	}
	char err[300];
	switch (k) {
	case CK_SETUP: tfa_totp_setup_done(v, ans); break;
	case CK_AUTH_START:
	case CK_AUTH_FINISH:
	case CK_SMS_CODE: tfa_verify_done(a, v, k, ans); break;
	case CK_EMAIL_START:
	case CK_EMAIL_SEND: tfa_email_done(a, v, k, ans); break;
	case CK_SMS_NEW:
	case CK_SMS_RESEND: tfa_sms_done(v, k, ans); break;
	case CK_CONFIRM: tfa_add_confirmed(a, v, ans); break;
	case CK_REGEN: tfa_codes_regen_done(a, v, ans); break;
	case CK_REMOVE: tfa_manage_removed(a, v, ans); break;
	case CK_LOGIN: {
		struct auth *au = poller_auth(a->poller);
		tfa_flow_end(a, v);
		if (!au)
			app_toast(a, ROLE_ERROR, 10, "2FA login: no session key to store");
		else if (auth_login(au, ans ? ans->session : NULL, err, sizeof err))
			app_toast(a, ROLE_OK, 8, "%s", err);
		else
			app_toast(a, ROLE_ERROR, 10, "%s", err);
		break;
	}
	case CK_UPDATE: tfa_manage_updated(a, v); break;
	case CK_NONE:
		break;
	}
	tfa_refresh(a, v);
	a->dirty |= DIRTY_ALL;
}

/* ---- drawing -------------------------------------------------------------------------------- */

/* Box r drawn over the screen; returns its inner rect. */
struct rect tfa_box_at(struct rect r, const char *title)
{
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, title, bg);
	struct rect in = { r.y + 1, r.x + 2, r.h - 2, r.w - 4 };
	return in;
}

/* A box of (at most) want_w x want_h centred over the screen. */
struct rect tfa_box(const struct app *a, int want_w, int want_h, const char *title)
{
	return tfa_box_at(layout_dialog(&a->lay, want_w, want_h), title);
}

void tfa_draw_lines(const struct rect *in, int *y, const char *s, unsigned long attr)
{
	char lines[8][256];
	int n = draw_wrap(s, in->w, lines, 8);
	for (int i = 0; i < n && *y < in->y + in->h; i++)
		draw_text((*y)++, in->x, in->w, lines[i], attr);
}

/* What list_draw needs to draw a method's row. */
struct method_draw {
	const struct tfa_view *v;
	const struct rect *r;
	double now;
};

static void draw_method(void *dctx, size_t i, bool sel, int y)
{
	const struct method_draw *d = dctx;
	if (i == LIST_NONE) {
		draw_fill(y, d->r->x, d->r->w, theme_attr(ROLE_NORMAL));
		return;
	}
	const struct tfa_method_rec *m = &d->v->st->methods[i];
	char line[400];
	tfaflow_method_row(m, d->now, line, sizeof line);
	bool locked = isfinite(m->locked_until) && m->locked_until > d->now;
	unsigned long at = theme_attr(sel ? ROLE_SELECTION : locked ? ROLE_ERROR : ROLE_NORMAL);
	draw_fill(y, d->r->x, d->r->w, at);
	draw_text(y, d->r->x + 1, d->r->w - 2, line, at);
}

static void tfa_draw(struct app *a, void *st, const struct rect *r)
{
	struct tfa_view *v = st;
	double now = util_now();
	unsigned long nrm = theme_attr(ROLE_NORMAL);
	v->tick_at = util_mono() + 1.0; /* the countdowns move each second */
	for (int y = r->y; y < r->y + r->h; y++)
		draw_fill(y, r->x, r->w, nrm);
	int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
	char line[400], t[120];
	draw_text(y++, x, w, "Two-factor authentication", theme_attr(ROLE_TITLE));
	const struct tfa_status_rec *s = v->st;
	if (!s) {
		draw_text(y + 1, x, w, v->err[0] ? v->err : "fetching the 2FA status...",
			  theme_attr(v->err[0] ? ROLE_ERROR : ROLE_DIM));
		return;
	}
	snprintf(line, sizeof line, "status           %s, %zu method%s", s->tfa_enabled ? "ON" : "OFF",
		 s->nmethods, s->nmethods == 1 ? "" : "s");
	draw_text(y++, x, w, line, theme_attr(s->tfa_enabled ? ROLE_OK : ROLE_WARNING));
	snprintf(line, sizeof line, "backup codes     %d left", s->backup_codes_remaining);
	draw_text(y++, x, w, line, nrm);
	tfaflow_window_text(s->new_method_authorized, v->authorized_at, now, t, sizeof t);
	snprintf(line, sizeof line, "new-method window %s", t);
	draw_text(y++, x, w, line, nrm);
	struct auth *au = poller_auth(a->poller);
	bool session = au && auth_using_session(au);
	snprintf(line, sizeof line, "2FA session      %s", session
		 ? "logged in (session key in vast_tfa_key; o logs out)"
		 : "not logged in (l logs in; actions that need 2FA ask for a code)");
	draw_text(y++, x, w, line, nrm);
	if (v->err[0] && y < ymax)
		draw_text(y++, x, w, v->err, theme_attr(ROLE_ERROR));
	y++;
	if (y >= ymax)
		return;
	draw_cell(y++, r->x, r->w,
		  " ID       TYPE  LABEL                          PRIMARY PHONE          ATTEMPTS",
		  false, theme_attr(ROLE_COLHEAD));
	if (!s->nmethods && y < ymax) {
		draw_text(y, x, w, "No 2FA method: a adds an authenticator app (TOTP), s a phone (SMS); "
			  "a code sent to the account's email authorizes the first.", theme_attr(ROLE_DIM));
		return;
	}
	struct method_draw md = { v, r, now };
	list_draw(&v->lst, y, ymax > y ? ymax - y : 0, draw_method, &md);
}

static bool tfa_modal_draw(struct app *a, void *st)
{
	struct tfa_view *v = st;
	switch (v->step) {
	case ST_NONE:
		return false;
	case ST_VERIFY:
		tfa_verify_lock_line(v);
		form_draw(&v->fm, &a->lay);
		return !form_busy(&v->fm);
	case ST_CONFIRM:
	case ST_UPDATE:
	case ST_SMS:
	case ST_EMAIL:
		form_draw(&v->fm, &a->lay);
		return !v->fm.waiting;
	case ST_QR:
		tfa_totp_draw_qr(a, v);
		return false;
	case ST_BACKUP:
		tfa_codes_draw(a, v);
		return false;
	case ST_REMOVE_ASK:
		dialog_draw(&v->dlg, &a->lay);
		return false;
	}
	return false;
}

/* ---- keys ----------------------------------------------------------------------------------- */

static bool tfa_modal_key(struct app *a, void *st, int key)
{
	struct tfa_view *v = st;
	switch (v->step) {
	case ST_NONE:
		return false;
	case ST_QR:
		tfa_totp_qr_key(a, v, key);
		return true;
	case ST_BACKUP:
		tfa_codes_key(a, v, key);
		return true;
	case ST_REMOVE_ASK:
		tfa_manage_remove_key(a, v, key);
		return true;
	case ST_VERIFY:
	case ST_CONFIRM:
	case ST_UPDATE:
	case ST_SMS:
	case ST_EMAIL:
		break;
	}
	if (form_busy(&v->fm) && key != 27)
		return true;
	if (v->step == ST_SMS && key == KM_CTRL('n')) {
		tfa_sms_submit(a, v, true);
		return true;
	}
	if (v->step == ST_EMAIL && key == KM_CTRL('n')) {
		tfa_email_submit(a, v, true);
		return true;
	}
	switch (form_key(&v->fm, key)) {
	case FORM_CANCEL:
		if (v->step == ST_CONFIRM && !v->fm.waiting) { /* back to the QR code */
			form_free(&v->fm);
			v->step = ST_QR;
		} else {
			tfa_flow_end(a, v);
			app_toast(a, ROLE_DIM, 4, "cancelled");
		}
		break;
	case FORM_SUBMIT:
		switch (v->step) {
		case ST_VERIFY: tfa_verify_submit(a, v); break;
		case ST_CONFIRM: tfa_totp_submit_confirm(a, v); break;
		case ST_UPDATE: tfa_manage_submit_update(a, v); break;
		case ST_SMS: tfa_sms_submit(a, v, false); break;
		case ST_EMAIL: tfa_email_submit(a, v, false); break;
		case ST_NONE:
		case ST_QR:
		case ST_BACKUP:
		case ST_REMOVE_ASK:
			break;
		}
		break;
	case FORM_CONTINUE:
	case FORM_EDIT:
		break;
	}
	return true;
}

/* The rows of the view's action table (tfa_rows, below). */
enum tfa_act { TA_TOTP, TA_SMS, TA_EDIT, TA_REMOVE, TA_REGEN, TA_LOGIN, TA_LOGOUT, TA__COUNT };
static const struct action_row tfa_rows[TA__COUNT];

static bool tfa_action(struct app *a, void *st, enum action act)
{
	struct tfa_view *v = st;
	const struct tfa_method_rec *m = tfa_selected_method(v);
	int row = keymap_action_row_of(tfa_rows, TA__COUNT, act);
	if (row == TA_TOTP) {
		tfa_add_method(a, v, AFTER_TOTP);
	} else if (row == TA_SMS) {
		tfa_add_method(a, v, AFTER_SMS);
	} else if ((row == TA_EDIT || row == TA_REMOVE) && m) { /* AF_NEEDS_SEL: m is there */
		if (row == TA_EDIT) {
			tfa_manage_open_update(v, m);
			return true;
		}
		tfa_manage_ask_remove(v, m);
	} else if (row == TA_REGEN) {
		if (!v->st || !v->st->tfa_enabled) {
			app_toast(a, ROLE_WARNING, 5, "two-factor authentication is off: no backup codes");
			return true;
		}
		tfa_verify_open(a, v, VP_REGEN);
	} else if (row == TA_LOGIN) {
		if (!v->st || !v->st->tfa_enabled) {
			app_toast(a, ROLE_WARNING, 5, "two-factor authentication is off: no login needed");
			return true;
		}
		tfa_verify_open(a, v, VP_LOGIN);
	} else if (row == TA_LOGOUT) {
		struct auth *au = poller_auth(a->poller);
		if (au && api_tfa_logout(au))
			app_toast(a, ROLE_OK, 6, "2FA logout: the session key is deleted; the API key is "
				  "used again");
		else
			app_toast(a, ROLE_DIM, 5, "no 2FA session to log out of");
	} else { /* not one of ours: the list moves (view_ops.list), or another's run */
		return false;
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

/* t in the account view: open this overlay. */
static void run_open(struct app *a, enum action act)
{
	(void)act;
	view_open(a, "tfa", 0);
}

/* The view's action table.  tfa-edit and tfa-remove need a selected
 * method (AF_NEEDS_SEL: view_send_action says so, the handler never sees
 * none); every change is AF_MUTATES. */
static const struct action_row tfa_rows[TA__COUNT] = {
	[TA_TOTP] = { { .name = "tfa-add-totp", .help = "add an authenticator app (QR code)",
			.hint = "add app", .flags = AF_MUTATES | AF_HINT }, "a", NULL, NULL },
	[TA_SMS] = { { .name = "tfa-add-sms", .help = "add a phone (SMS codes)",
		       .hint = "add SMS", .flags = AF_MUTATES | AF_HINT }, "s", NULL, NULL },
	[TA_EDIT] = { { .name = "tfa-edit", .help = "label the selected method or make it primary",
			.hint = "edit", .flags = AF_MUTATES | AF_NEEDS_SEL }, "e", NULL, NULL },
	[TA_REMOVE] = { { .name = "tfa-remove",
			  .help = "remove the selected method (confirm, then a code)",
			  .hint = "remove", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT }, "d", NULL, NULL },
	[TA_REGEN] = { { .name = "tfa-backup-codes",
			 .help = "regenerate the backup codes (a code first; shown once)",
			 .hint = "backup codes", .flags = AF_MUTATES | AF_HINT }, "b", NULL, NULL },
	[TA_LOGIN] = { { .name = "tfa-login", .help = "log in with a code: store a 2FA session key",
			 .hint = "login", .flags = AF_MUTATES | AF_HINT }, "l", NULL, NULL },
	[TA_LOGOUT] = { { .name = "tfa-logout", .help = "log out: delete the 2FA session key",
			  .hint = "logout", .flags = AF_MUTATES }, "o", NULL, NULL },
};

/* t in the account view and every one of its sections: open this overlay
 * (a row of no table: it lives in another view's contexts). */
static void tfa_keys(struct keymap *km, int ctx)
{
	(void)ctx;
	static const struct action_row open_row = {
		{ .name = "account-tfa", .help = "two-factor authentication: status and methods",
		  .hint = "2FA", .flags = AF_HINT, .run = run_open },
		"t", NULL, NULL,
	};
	static const char *const where[] = { "account", NULL };
	view_bind_in(km, &open_row, where, true);
}

/* The method rows for the list widget: their text (the `/` filter) and
 * their id (the selection follows its method, not its row number: a
 * refresh that adds or reorders never moves d onto another). */
static void method_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct tfa_view *v = ctx;
	tfaflow_method_row(&v->st->methods[i], util_now(), buf, n);
}

static long method_id(const void *ctx, size_t i)
{
	const struct tfa_view *v = ctx;
	return v->st->methods[i].id;
}

static const struct list_ops method_list = { .text = method_text, .id = method_id };

static struct list *tfa_list(struct app *a, void *st)
{
	(void)a;
	struct tfa_view *v = st;
	return &v->lst;
}

/* ---- view callbacks ------------------------------------------------------------------------- */

static void tfa_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct tfa_view *v = st;
	struct call_result r;
	bool changed = false;
	if (v->sub && model_take_result(a->m, v->sub, &r)) {
		if (r.outcome == CALL_OK && r.value) {
			tfaflow_status_free(v->st);
			v->st = r.value;
			list_set_count(&v->lst, v->st->nmethods); /* the selection follows its id */
			r.value = NULL;
			v->err[0] = '\0';
		} else if (r.outcome != CALL_OK) {
			snprintf(v->err, sizeof v->err, "2FA status: %s", r.err.msg);
		}
		tfa_manage_lost_reread(a, v, &r);
		model_call_result_free(&r);
		changed = true;
	}
	if (modal_call_take(&v->call, a->m, &r)) {
		call_done(a, v, &r);
		model_call_result_free(&r);
		changed = true;
	}
	if (changed && v->shown)
		a->dirty |= DIRTY_BODY;
}

static void tfa_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	struct tfa_view *v = st;
	v->shown = true;
	if (!v->sub) {
		struct job_call c = { 0 };
		c.call = api_tfa_status(a->cfg);
		c.map = tfaflow_map_status;
		c.free_value = tfaflow_status_free;
		snprintf(c.what, sizeof c.what, "2FA status");
		int id = 0;
		if (jobs_subscribe(a->jobs, &c, TFA_CADENCE, true, &id) == JOBS_OK)
			v->sub = id;
	} else {
		tfa_refresh(a, v);
	}
}

static void tfa_leave(struct app *a, void *st)
{
	struct tfa_view *v = st;
	tfa_flow_end(a, v); /* no secret outlives its dialog */
	v->shown = false;
	if (v->sub)
		jobs_set_visible(a->jobs, v->sub, false);
}

/* Does something on screen count down (a lock, the window)? */
static bool ticking(const struct tfa_view *v)
{
	if (!v->shown || !v->st)
		return false;
	double now = util_now();
	bool t = acct_window_left(v->authorized_at, now) > 0;
	for (size_t i = 0; i < v->st->nmethods && !t; i++)
		t = isfinite(v->st->methods[i].locked_until) && v->st->methods[i].locked_until > now;
	return t;
}

/* The next countdown redraw (set by each draw while something counts down). */
static double tfa_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct tfa_view *v = st;
	return v->tick_at > 0 && ticking(v) ? v->tick_at : -1;
}

static void tfa_on_wake(struct app *a, void *st)
{
	struct tfa_view *v = st;
	v->tick_at = 0;
	a->dirty |= DIRTY_BODY;
}

static const void *tfa_selected(const struct app *a, const void *st)
{
	(void)a;
	return tfa_selected_method(st);
}

static void *tfa_init(struct app *a)
{
	(void)a;
	struct tfa_view *v = xcalloc(1, sizeof *v);
	list_init(&v->lst, &method_list, v, false);
	return v;
}

static void tfa_fini(struct app *a, void *st)
{
	struct tfa_view *v = st;
	tfa_flow_end(a, v);
	if (v->sub)
		jobs_unsubscribe(a->jobs, v->sub);
	tfaflow_status_free(v->st);
	list_free(&v->lst);
	free(v);
}

const struct view_ops view_tfa = {
	.name = "tfa",
	.title = "2FA",
	.heading = "Two-factor authentication (:tfa, t in the account view)",
	.number_key = 0,
	.ctx_flags = CTXF_LIST,
	.actions = tfa_rows,
	.nactions = TA__COUNT,
	.keys = tfa_keys,
	.init = tfa_init,
	.fini = tfa_fini,
	.enter = tfa_enter,
	.leave = tfa_leave,
	.on_snapshot = tfa_snapshot,
	.next_wake = tfa_next_wake,
	.on_wake = tfa_on_wake,
	.draw = tfa_draw,
	.action = tfa_action,
	.list = tfa_list,
	.selected_row = tfa_selected,
	.modal_key = tfa_modal_key,
	.modal_draw = tfa_modal_draw,
};
