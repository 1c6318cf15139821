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
 * of them reaches a toast, the event log or --log.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/acct.h"
#include "api/api_account.h"
#include "api/api_tfa_map.h"
#include "app.h"
#include "net/auth.h"
#include "base/config.h"
#include "widgets/dialog.h"
#include "draw.h"
#include "widgets/form.h"
#include "state/jobs.h"
#include "json/json_map.h"
#include "state/model.h"
#include "net/poller.h"
#include "widgets/qr.h"
#include "rules/tfaflow.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"

#define TFA_CADENCE 30.0 /* s, the status refresh while shown */

/* The dialog open over the status. */
enum step {
	ST_NONE,
	ST_VERIFY,     /* form: a code from a method or a backup code, for `purpose` */
	ST_QR,         /* the QR code and the secret of a new TOTP method */
	ST_CONFIRM,    /* form: the authenticator's current code and a label */
	ST_BACKUP,     /* the backup codes, shown once */
	ST_REMOVE_ASK, /* confirmation (starts on Cancel) before removing a method */
	ST_UPDATE,     /* form: label and primary */
	ST_SMS,        /* form: phone, label, then the code sent by SMS */
	ST_EMAIL,      /* form: the code sent to the account's email (no method yet) */
};

/* What a verification is for. */
enum purpose { VP_AUTHORIZE, VP_REGEN, VP_REMOVE, VP_LOGIN };

/* What the awaited call is. */
enum callk {
	CK_NONE,
	CK_SETUP,       /* totp-setup */
	CK_AUTH_START,  /* authorize-new-method step 1 */
	CK_AUTH_FINISH, /* authorize-new-method step 2 */
	CK_SMS_CODE,    /* an SMS code to verify with an SMS method */
	CK_CONFIRM,     /* confirm-new */
	CK_REGEN,       /* regen-backup-codes */
	CK_REMOVE,      /* DELETE tfa */
	CK_LOGIN,       /* POST tfa */
	CK_UPDATE,      /* tfa/update */
	CK_SMS_NEW,     /* an SMS code to a new phone */
	CK_SMS_RESEND,  /* resend it */
	CK_EMAIL_START, /* authorize-new-method step 1, forced to email (no method yet) */
	CK_EMAIL_SEND,  /* POST tfa/email/ {secret}: the code of that challenge */
};

/* What comes after the authorization. */
enum after { AFTER_TOTP, AFTER_SMS };

/* The view's state. */
struct tfa_view {
	int sub;                        /* the status subscription, 0 before the first show */
	struct tfa_status_rec *st;      /* the newest status, NULL: none yet */
	char err[300];                  /* the last status failure */
	size_t sel;                     /* the selected method row */
	bool shown;
	double authorized_at;           /* wall epoch this session opened the window, 0: not */

	enum step step;
	enum purpose purpose;
	enum after after;
	struct form fm;
	struct dialog dlg;
	int call_id;                    /* the awaited call, 0: none */
	enum callk callk;
	long target;                    /* the method a step is about */
	char target_text[80];
	struct tfaflow_choice ch[TFAFLOW_MAX_CHOICES];
	int nch;
	const char *chp[TFAFLOW_MAX_CHOICES];

	/* secrets of the flow (flow_end wipes them) */
	struct tfa_verify pending;      /* the verification of a two-call step */
	char challenge[160];            /* the challenge secret of the verifying SMS method */
	long challenge_for;             /* the method it was sent for */
	char totp_secret[160];
	char totp_uri[768];
	struct qr_text qr;
	char qr_err[160];
	struct tfa_backup_codes codes;
	bool codes_first;               /* the codes of the first method (2FA just turned on) */
	char codes_note[1400];           /* "written to ..." */
	char sms_phone[32];
	char sms_label[64];
	int email_sends;                /* ST_EMAIL: codes the service said it sent */
	double sent_at;                 /* util_mono() of the last SMS/email code sent, 0: none */
	bool busy;                      /* ST_QR: the set-up call is awaited */
	double tick_at;                 /* util_mono() of the next countdown redraw, 0: none */
	int regen_before;               /* VP_REGEN sent: tfaflow_regen_count before it */
};

/* ---- helpers ---------------------------------------------------------------------- */

/* Information (a code was sent, what to type) in the form's note, not its
 * error slot; an earlier answer and field's mark go, and the focus goes to
 * field (NULL: stays). */
static void tfa_info(struct form *fm, const char *field, const char *msg)
{
	form_set_answer(fm, NULL, "");
	int i = field ? form_find(fm, field) : -1;
	if (i >= 0)
		form_mark(fm, i, "");
	form_set_note(fm, msg, false);
}

static void refresh_status(struct app *a, struct tfa_view *v)
{
	if (!v->sub)
		return;
	jobs_set_visible(a->jobs, v->sub, false);
	jobs_set_visible(a->jobs, v->sub, v->shown);
}

/* Close whatever dialog is open and wipe every secret of the flow. */
static void flow_end(struct app *a, struct tfa_view *v)
{
	if (v->call_id)
		model_drop_result(a->m, v->call_id);
	v->call_id = 0;
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
static int send_call(struct app *a, struct tfa_view *v, enum callk k, struct api_call call,
		     jobs_map_fn map, const char *what, char *err, size_t n)
{
	struct job_call c = { .action = true };
	c.call = call;
	c.map = map;
	c.free_value = api_tfa_map_free;
	util_strlcpy(c.what, what, sizeof c.what);
	int id = 0, rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		snprintf(err, n, "%s", rc == JOBS_EREADONLY ? "read-only mode: 2FA changes are disabled"
							   : jobs_strerror(rc));
		return 0;
	}
	v->call_id = id;
	v->callk = k;
	return id;
}

/* The form's answer after a failed step, the code field emptied. */
static void form_failed(struct tfa_view *v, const char *msg)
{
	v->fm.waiting = false;
	int c = form_find(&v->fm, "code");
	if (c >= 0)
		textbuf_clear(&v->fm.f[c].tb);
	form_set_answer(&v->fm, c >= 0 ? "code" : NULL, msg);
	if (c >= 0)
		v->fm.focus = c;
}

static bool window_open(const struct tfa_view *v, double now)
{
	return acct_window_left(v->authorized_at, now) > 0 ||
	       (v->st && v->st->new_method_authorized);
}

/* ---- the verify form ----------------------------------------------------------------- */

static const char *purpose_title(enum purpose p)
{
	switch (p) {
	case VP_AUTHORIZE: return "Authorize a new 2FA method";
	case VP_REGEN: return "Regenerate backup codes";
	case VP_REMOVE: return "Remove a 2FA method";
	case VP_LOGIN: return "2FA login";
	}
	return "2FA";
}

/* Open the verification form for p (choices from the status). */
static void open_verify(struct app *a, struct tfa_view *v, enum purpose p)
{
	(void)a;
	v->purpose = p;
	v->nch = tfaflow_choices(v->st, v->ch, TFAFLOW_MAX_CHOICES);
	for (int i = 0; i < v->nch; i++)
		v->chp[i] = v->ch[i].text;
	form_init(&v->fm, purpose_title(p));
	form_add_choice(&v->fm, "with", "Verify with", v->chp, v->nch, 0);
	form_add_secret(&v->fm, "code", "Code (C-r shows)", 20, false);
	v->fm.focus = v->nch > 1 ? 0 : 1;
	if (p == VP_REMOVE)
		tfa_info(&v->fm, NULL, v->target_text);
	else if (p == VP_AUTHORIZE)
		tfa_info(&v->fm, NULL, "A code (or a backup code) lets you add a method for 30 min.");
	v->step = ST_VERIFY;
}

/* The verification is done (window open, codes, removal, login). */
static void start_totp(struct app *a, struct tfa_view *v);
static void open_sms(struct tfa_view *v);

static void after_authorized(struct app *a, struct tfa_view *v)
{
	v->authorized_at = util_now();
	form_free(&v->fm);
	api_tfa_verify_wipe(&v->pending);
	explicit_bzero(v->challenge, sizeof v->challenge);
	app_toast(a, ROLE_OK, 5, "authorized: a new 2FA method may be added for 30 minutes");
	if (v->after == AFTER_TOTP)
		start_totp(a, v);
	else
		open_sms(v);
}

/* Submit the verify form. */
static void submit_verify(struct app *a, struct tfa_view *v)
{
	char err[300];
	int ci = form_choice(&v->fm, "with");
	if (ci < 0 || ci >= v->nch) {
		form_set_answer(&v->fm, NULL, "no method to verify with");
		return;
	}
	const struct tfaflow_choice *c = &v->ch[ci];
	char lock[64];
	const struct tfa_method_rec *lm = c->id ? tfaflow_method(v->st, c->id) : NULL;
	if (lm && acct_lock_countdown(lock, sizeof lock, lm->locked_until, util_now())) {
		/* no code is sent while the method is locked */
		snprintf(err, sizeof err, "Too many wrong codes: %s; no code can be checked until "
			 "then (or use another method or a backup code).", lock);
		form_set_answer(&v->fm, NULL, err);
		return;
	}
	if (v->challenge_for != c->id)
		explicit_bzero(v->challenge, sizeof v->challenge);
	struct tfa_verify tv;
	enum tfaflow_verify r = tfaflow_verify_build(c, form_value(&v->fm, "code"), v->challenge, &tv,
						     err, sizeof err);
	switch (r) {
	case TV_BAD:
		form_set_answer(&v->fm, "code", err);
		return;
	case TV_SEND_EMAIL: /* never: tfaflow_choices offers no email here */
		form_set_answer(&v->fm, NULL, "an email code is not offered here");
		return;
	case TV_SEND_SMS: {
		struct api_call call;
		if (v->purpose == VP_AUTHORIZE) {
			struct tfa_verify s = { .method_id = c->id };
			util_strlcpy(s.method, "sms", sizeof s.method);
			call = api_tfa_authorize_start(a->cfg, &s);
		} else {
			call = api_tfa_sms_send(a->cfg, NULL, c->id);
		}
		v->challenge_for = c->id;
		if (send_call(a, v, v->purpose == VP_AUTHORIZE ? CK_AUTH_START : CK_SMS_CODE, call,
			      api_tfa_map_secret, "2FA: send an SMS code", err, sizeof err))
			v->fm.waiting = true;
		else
			form_set_answer(&v->fm, NULL, err);
		return;
	}
	case TV_OK:
		break;
	}
	struct api_call call = { 0 };
	enum callk k = CK_NONE;
	jobs_map_fn map = NULL;
	const char *what = "2FA";
	switch (v->purpose) {
	case VP_AUTHORIZE:
		if (!strcmp(tv.method, "sms")) { /* the SMS was sent by step 1 */
			call = api_tfa_authorize_finish(a->cfg, tv.code, tv.secret);
			k = CK_AUTH_FINISH;
		} else { /* totp: step 1 for its secret, then step 2 with the code;
			  * backup: step 1 opens the window at once */
			v->pending = tv;
			call = api_tfa_authorize_start(a->cfg, &tv);
			k = CK_AUTH_START;
			map = api_tfa_map_secret;
		}
		what = "2FA: authorize a new method";
		break;
	case VP_REGEN:
		call = api_tfa_regen_backup(a->cfg, &tv);
		v->regen_before = tfaflow_regen_count(v->st ? v->st->backup_codes_remaining : -1, true);
		k = CK_REGEN;
		map = api_tfa_map_regen;
		what = "2FA: regenerate backup codes";
		break;
	case VP_REMOVE:
		call = api_tfa_remove(a->cfg, &tv, v->target);
		k = CK_REMOVE;
		map = api_tfa_map_removed;
		what = "2FA: remove a method";
		break;
	case VP_LOGIN:
		call = api_tfa_login_with(a->cfg, &tv);
		k = CK_LOGIN;
		map = api_tfa_map_session;
		what = "2FA login";
		break;
	}
	api_tfa_verify_wipe(&tv);
	if (send_call(a, v, k, call, map, what, err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* ---- TOTP ------------------------------------------------------------------------------ */

static void start_totp(struct app *a, struct tfa_view *v)
{
	char err[200];
	v->step = ST_QR;
	v->busy = true;
	if (!send_call(a, v, CK_SETUP, api_tfa_totp_setup(a->cfg), api_tfa_map_setup,
		       "2FA: TOTP set-up", err, sizeof err)) {
		flow_end(a, v);
		app_toast(a, ROLE_ERROR, 8, "%s", err);
	}
}

static bool check_code6(const struct form_field *f, char *err, size_t n)
{
	char d[8];
	int k = 0;
	for (const char *p = f->tb.s; *p; p++) {
		if (*p == ' ')
			continue;
		if (*p < '0' || *p > '9' || k >= 6) {
			snprintf(err, n, "6 digits");
			return false;
		}
		d[k++] = *p;
	}
	explicit_bzero(d, sizeof d);
	if (k != 6 && f->tb.s[0]) {
		snprintf(err, n, "6 digits");
		return false;
	}
	return true;
}

static bool check_label(const struct form_field *f, char *err, size_t n)
{
	if (api_tfa_label_valid(f->tb.s))
		return true;
	snprintf(err, n, "at most %d characters, no control characters", TFA_LABEL_MAX);
	return false;
}

/* The QR dialog's Enter: the form for the current code. */
static void open_confirm(struct tfa_view *v)
{
	form_init(&v->fm, "Confirm the authenticator app");
	int k = form_add_secret(&v->fm, "code", "Current code (C-r shows)", 8, true);
	if (k >= 0)
		v->fm.f[k].check = check_code6;
	k = form_add_text(&v->fm, "label", "Label (optional)", "", TFA_LABEL_MAX, false);
	if (k >= 0)
		v->fm.f[k].check = check_label;
	v->step = ST_CONFIRM;
}

/* The code digits of a field without blanks into out[8]. */
static void digits_of(const char *s, char out[8])
{
	int k = 0;
	for (; *s && k < 7; s++)
		if (*s >= '0' && *s <= '9')
			out[k++] = *s;
	out[k] = '\0';
}

static void submit_confirm(struct app *a, struct tfa_view *v)
{
	char code[8], err[200];
	digits_of(form_value(&v->fm, "code"), code);
	const char *label = form_value(&v->fm, "label");
	struct api_call call = api_tfa_confirm_new(a->cfg, "totp", code, v->totp_secret, NULL,
						   *label ? label : NULL);
	explicit_bzero(code, sizeof code);
	if (send_call(a, v, CK_CONFIRM, call, api_tfa_map_codes, "2FA: confirm the TOTP method", err,
		      sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* ---- SMS ------------------------------------------------------------------------------- */

static bool check_phone(const struct form_field *f, char *err, size_t n)
{
	char norm[32];
	if (!f->tb.s[0] || acct_e164_normalize(f->tb.s, norm, sizeof norm))
		return true;
	snprintf(err, n, "an international number: + country code and number (+15551234567)");
	return false;
}

static void open_sms(struct tfa_view *v)
{
	form_init(&v->fm, "Add a phone (SMS)");
	int k = form_add_text(&v->fm, "phone", "Phone (E.164)", "", 24, true);
	if (k >= 0)
		v->fm.f[k].check = check_phone;
	k = form_add_text(&v->fm, "label", "Label (optional)", "", TFA_LABEL_MAX, false);
	if (k >= 0)
		v->fm.f[k].check = check_label;
	k = form_add_secret(&v->fm, "code", "SMS code (empty: send; C-n resends)", 8, false);
	if (k >= 0)
		v->fm.f[k].check = check_code6;
	v->step = ST_SMS;
}

static void submit_sms(struct app *a, struct tfa_view *v, bool resend)
{
	char phone[32], err[200], code[8];
	if (!acct_e164_normalize(form_value(&v->fm, "phone"), phone, sizeof phone)) {
		form_set_answer(&v->fm, "phone", "an international number: + country code and number");
		return;
	}
	if (v->challenge[0] && strcmp(phone, v->sms_phone)) /* a new number: a new code */
		explicit_bzero(v->challenge, sizeof v->challenge);
	digits_of(form_value(&v->fm, "code"), code);
	const char *label = form_value(&v->fm, "label");
	struct api_call call;
	enum callk k;
	jobs_map_fn map = api_tfa_map_secret;
	if (resend || !code[0]) {
		/* a resend without a challenge of ours (one sent by an earlier
		 * dialog): the bearer's resend makes a new challenge */
		call = resend ? api_tfa_sms_resend(a->cfg, v->challenge, phone, 0)
			      : api_tfa_sms_send(a->cfg, phone, 0);
		k = resend ? CK_SMS_RESEND : CK_SMS_NEW;
	} else if (!v->challenge[0]) {
		form_set_answer(&v->fm, "code", "no code was sent yet: empty the code and submit");
		explicit_bzero(code, sizeof code);
		return;
	} else {
		call = api_tfa_confirm_new(a->cfg, "sms", code, v->challenge, phone,
					   *label ? label : NULL);
		k = CK_CONFIRM;
		map = api_tfa_map_codes;
	}
	explicit_bzero(code, sizeof code);
	util_strlcpy(v->sms_phone, phone, sizeof v->sms_phone);
	if (send_call(a, v, k, call, map, k == CK_CONFIRM ? "2FA: confirm the SMS method"
							  : "2FA: send an SMS code", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* ---- the email code (the first method) ------------------------------------------------- */

/* Step 1 of the authorization, which the service forces to email when the
 * account has no method: a challenge secret, whose code goes out next. */
static void email_start(struct app *a, struct tfa_view *v)
{
	char err[200];
	struct tfa_verify s = { 0 };
	util_strlcpy(s.method, "email", sizeof s.method);
	explicit_bzero(v->challenge, sizeof v->challenge);
	v->email_sends = 0;
	if (send_call(a, v, CK_EMAIL_START, api_tfa_authorize_start(a->cfg, &s), api_tfa_map_secret,
		      "2FA: authorize by email", err, sizeof err)) {
		v->fm.waiting = true;
		tfa_info(&v->fm, NULL, "Asking the service for a code by email...");
	} else {
		form_set_answer(&v->fm, NULL, err);
	}
}

/* POST tfa/email/ with the challenge's secret: the code goes out (again). */
static void email_send(struct app *a, struct tfa_view *v)
{
	char err[200];
	if (send_call(a, v, CK_EMAIL_SEND, api_tfa_email_send(a->cfg, v->challenge), api_tfa_map_sent,
		      "2FA: send an email code", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* a or s with no method: the code sent to the account's email comes first. */
static void open_email(struct app *a, struct tfa_view *v)
{
	form_init(&v->fm, "Authorize the first 2FA method by email");
	int k = form_add_secret(&v->fm, "code", "Email code (C-r shows, C-n sends again)", 8, false);
	if (k >= 0)
		v->fm.f[k].check = check_code6;
	v->step = ST_EMAIL;
	email_start(a, v);
}

/* Enter (resend false) or C-n (true) in the email form. */
static void submit_email(struct app *a, struct tfa_view *v, bool resend)
{
	char code[8], err[200];
	if (!v->challenge[0]) { /* none yet, or it expired: start over */
		email_start(a, v);
		return;
	}
	if (resend) {
		email_send(a, v);
		return;
	}
	digits_of(form_value(&v->fm, "code"), code);
	if (!code[0]) {
		tfa_info(&v->fm, "code", "Type the 6-digit code from the email (C-n sends another).");
		return;
	}
	struct api_call call = api_tfa_authorize_finish(a->cfg, code, v->challenge);
	explicit_bzero(code, sizeof code);
	if (send_call(a, v, CK_AUTH_FINISH, call, NULL, "2FA: authorize by email", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* Seconds since the last code went out (0 when unknown). */
static int since_sent(const struct tfa_view *v)
{
	return v->sent_at > 0 ? (int)(util_mono() - v->sent_at) : 0;
}

/* The line for a refused send in the SMS or email form ("" for other failures). */
static void send_refused_text(const struct tfa_view *v, const struct tfa_error *te, char *buf,
			      size_t n)
{
	const char *where = v->step == ST_EMAIL ? "email" : "SMS";
	buf[0] = '\0';
	if (te->kind == TFAE_CHALLENGE_EXISTS && v->sent_at > 0)
		snprintf(buf, n, "The service will not send another %s code yet: one went out %ds "
			 "ago (tfa_challenge_exists). Type that code, or wait a little and press C-n.",
			 where, since_sent(v));
	else if (te->kind == TFAE_CHALLENGE_EXISTS && v->step == ST_EMAIL)
		snprintf(buf, n, "A code was already sent to the account's email (tfa_challenge_exists): "
			 "type it, or wait a little and press C-n for another.");
	else if (te->kind == TFAE_CHALLENGE_EXISTS)
		snprintf(buf, n, "A code was sent to this number recently (tfa_challenge_exists): "
			 "type it if you have it, else wait a little and press C-n to have one sent.");
	else if (te->kind == TFAE_SMS_RATE_LIMITED && v->sent_at > 0)
		snprintf(buf, n, "Too many SMS for now (sms_rate_limited): the last code went out %ds "
			 "ago and still works; wait a little before C-n.", since_sent(v));
	else if (te->kind == TFAE_SMS_RATE_LIMITED)
		snprintf(buf, n, "Too many SMS for now (sms_rate_limited): wait a little, then try again.");
}

/* ---- update ------------------------------------------------------------------------------ */

static void open_update(struct tfa_view *v, const struct tfa_method_rec *m)
{
	v->target = m->id;
	char title[64];
	snprintf(title, sizeof title, "2FA method %ld", m->id);
	form_init(&v->fm, title);
	char *label = util_sanitize(m->label ? m->label : "");
	int k = form_add_text(&v->fm, "label", "Label", label, TFA_LABEL_MAX, false);
	free(label);
	if (k >= 0)
		v->fm.f[k].check = check_label;
	form_add_toggle(&v->fm, "primary", "Primary method", m->is_primary);
	v->step = ST_UPDATE;
}

static void submit_update(struct app *a, struct tfa_view *v)
{
	const struct tfa_method_rec *m = tfaflow_method(v->st, v->target);
	bool was = m && m->is_primary, now = form_toggle(&v->fm, "primary");
	char err[200];
	struct api_call call = api_tfa_update(a->cfg, v->target, form_value(&v->fm, "label"),
					      now == was ? -1 : now ? 1 : 0);
	if (send_call(a, v, CK_UPDATE, call, NULL, "2FA: update a method", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* ---- results ----------------------------------------------------------------------------- */

/* Show new backup codes (once). */
static void show_codes(struct app *a, struct tfa_view *v, const struct tfa_backup_codes *c,
		       bool first)
{
	form_free(&v->fm);
	v->codes = *c;
	v->codes_first = first;
	v->codes_note[0] = '\0';
	v->step = ST_BACKUP;
	a->dirty |= DIRTY_ALL;
}

/* The answer to a backup-code regeneration or a method's removal was lost:
 * the form locks (a new code and C-s would send it again) until the status,
 * read again, says whether the codes are a new set or the method is gone. */
static void lost_begin(struct app *a, struct tfa_view *v, const struct call_result *r)
{
	static const struct form_lost_words regen = {
		.what = "the backup codes", .found = "are a full set",
		.missing = "are as before", .done = "regenerated", .undone = "not regenerated" };
	char what[64];
	snprintf(what, sizeof what, "2FA method %ld", v->target);
	const struct form_lost_words removal = {
		.what = what, .found = "is gone", .missing = "is still listed", .done = "removed",
		.undone = "not removed", .again = "d to try again", .removes = true };
	bool rg = v->purpose == VP_REGEN;
	char why[300];
	apierr_format(&r->err, why, sizeof why);
	form_lost_begin(&v->fm, rg ? &regen : &removal, rg ? v->regen_before : v->st ? 1 : -1, why,
			r->when);
	app_lost_logged(a, rg ? regen.what : what, v->fm.answer);
	refresh_status(a, v);
}

/* The status was read again (r): say what it shows of a lost regeneration
 * or removal. */
static void lost_reread(struct app *a, struct tfa_view *v, const struct call_result *r)
{
	bool rg = v->purpose == VP_REGEN;
	if (v->step != ST_VERIFY || (!rg && v->purpose != VP_REMOVE) || !form_lost_checking(&v->fm))
		return;
	int after = -1;
	if (r->outcome == CALL_OK && v->st)
		after = rg ? tfaflow_regen_count(v->st->backup_codes_remaining, false)
			   : tfaflow_method(v->st, v->target) ? 1 : 0;
	char msg[400];
	enum form_verdict fv = app_lost_verdict(
		a, form_lost_reread(&v->fm, r->when, after, r->err.msg, msg, sizeof msg), msg);
	if (rg && fv == FV_DONE) {
		app_answer(a, ROLE_WARNING, 0, "%s: the new codes were lost with the answer and "
			   "the old ones no longer work; b makes another set (a code first)", msg);
		flow_end(a, v);
	} else if (!rg && (fv == FV_DONE || fv == FV_NOT_DONE)) {
		/* closed either way: d asks again from the start */
		flow_end(a, v);
		app_answer(a, fv == FV_DONE ? ROLE_OK : ROLE_WARNING, 0, "%s", msg);
	}
	a->dirty |= DIRTY_ALL;
}

/* A step failed: keep its dialog with the reason (the code emptied). */
static void step_failed(struct app *a, struct tfa_view *v, enum callk k, struct call_result *r)
{
	char msg[400];
	long mid = 0; /* the method whose fail count and lock apply */
	if (v->step == ST_VERIFY) {
		int ci = form_choice(&v->fm, "with");
		if (ci >= 0 && ci < v->nch)
			mid = v->ch[ci].id;
	}
	if (r->outcome == CALL_UNKNOWN)
		snprintf(msg, sizeof msg, "the answer was lost: the change may have been made (%s)",
			 r->err.msg);
	else
		tfaflow_error_text(&r->err, tfaflow_method(v->st, mid), util_now(), msg, sizeof msg);
	struct tfa_error te;
	api_tfa_error_from_api(&r->err, &te);
	if (te.kind == TFAE_EXPIRED || te.kind == TFAE_NO_CHALLENGE) /* the next submit starts over */
		explicit_bzero(v->challenge, sizeof v->challenge);
	api_tfa_verify_wipe(&v->pending);
	if (r->outcome != CALL_UNKNOWN && (v->step == ST_SMS || v->step == ST_EMAIL)) {
		char refused[300];
		send_refused_text(v, &te, refused, sizeof refused);
		if (refused[0])
			snprintf(msg, sizeof msg, "%s", refused);
		else if (v->step == ST_EMAIL && (te.kind == TFAE_EXPIRED || te.kind == TFAE_NO_CHALLENGE))
			snprintf(msg, sizeof msg, "The email code expired (or its challenge is gone): "
				 "Enter or C-n asks for a new one.");
		else if (v->step == ST_EMAIL && te.kind == TFAE_EMAIL_NOT_VERIFIED)
			snprintf(msg, sizeof msg, "The account's email address is not verified, so no code "
				 "can be sent to it: verify it in the web console, then try again (Esc closes).");
	}
	refresh_status(a, v); /* the fail count and the lock */
	switch (v->step) {
	case ST_QR:
		flow_end(a, v);
		app_toast(a, ROLE_ERROR, 10, "2FA set-up failed: %s", msg);
		return;
	case ST_VERIFY:
	case ST_CONFIRM:
	case ST_UPDATE:
	case ST_SMS:
	case ST_EMAIL:
		if (te.kind == TFAE_AUTH_REQUIRED && v->step == ST_CONFIRM) {
			/* the window closed meanwhile: authorize again, then set up again */
			flow_end(a, v);
			v->after = AFTER_TOTP;
			if (v->st && v->st->nmethods == 0) {
				open_email(a, v);
				return;
			}
			open_verify(a, v, VP_AUTHORIZE);
			form_set_answer(&v->fm, NULL, msg);
			return;
		}
		if (k == CK_UPDATE) {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, msg);
		} else {
			form_failed(v, msg);
		}
		return;
	case ST_NONE:
	case ST_BACKUP:
	case ST_REMOVE_ASK:
		app_toast(a, ROLE_ERROR, 10, "%s", msg);
		return;
	}
}

/* The awaited call ended. */
static void call_done(struct app *a, struct tfa_view *v, struct call_result *r)
{
	enum callk k = v->callk;
	v->call_id = 0;
	v->callk = CK_NONE;
	struct api_tfa_answer *ans = r->outcome == CALL_OK ? r->value : NULL;
	if ((k == CK_REGEN || k == CK_REMOVE) && r->outcome == CALL_UNKNOWN) {
		lost_begin(a, v, r);
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
	case CK_SETUP:
		v->busy = false;
		if (!ans)
			break;
		util_strlcpy(v->totp_secret, ans->secret, sizeof v->totp_secret);
		util_strlcpy(v->totp_uri, ans->uri, sizeof v->totp_uri);
		if (!qr_render(v->totp_uri, draw_ascii() ? QR_ASCII : QR_HALF_BLOCKS, &v->qr, v->qr_err,
			       sizeof v->qr_err))
			v->qr.nrows = 0;
		break;
	case CK_AUTH_START:
		if (!strcmp(v->pending.method, "backup")) { /* the window is open */
			after_authorized(a, v);
		} else if (!strcmp(v->pending.method, "totp") && ans && ans->secret[0]) {
			struct api_call call =
				api_tfa_authorize_finish(a->cfg, v->pending.code, ans->secret);
			api_tfa_verify_wipe(&v->pending);
			if (!send_call(a, v, CK_AUTH_FINISH, call, NULL, "2FA: authorize a new method",
				       err, sizeof err)) {
				v->fm.waiting = false;
				form_set_answer(&v->fm, NULL, err);
			}
		} else if (ans && ans->secret[0]) { /* an SMS went out */
			util_strlcpy(v->challenge, ans->secret, sizeof v->challenge);
			v->fm.waiting = false;
			tfa_info(&v->fm, "code", "A code was sent by SMS: type it and submit.");
		} else {
			api_tfa_verify_wipe(&v->pending);
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, "the service sent no challenge: try again");
		}
		break;
	case CK_AUTH_FINISH:
		after_authorized(a, v);
		break;
	case CK_EMAIL_START:
		if (ans && ans->secret[0]) {
			util_strlcpy(v->challenge, ans->secret, sizeof v->challenge);
			email_send(a, v);
		} else {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, "the service sent no challenge: Enter tries again");
		}
		break;
	case CK_EMAIL_SEND: {
		v->fm.waiting = false;
		v->email_sends++;
		v->sent_at = util_mono();
		char line[300];
		snprintf(line, sizeof line, "%s%s Type the 6-digit code and press Enter (C-n sends "
			 "another).", ans && ans->msg[0] ? ans->msg
							 : "A code was sent to the account's email address",
			 ans && ans->msg[0] && strchr(".!", ans->msg[strlen(ans->msg) - 1]) ? "" : ".");
		form_set_answer(&v->fm, "code", line);
		int c = form_find(&v->fm, "code");
		if (c >= 0)
			v->fm.focus = c;
		break;
	}
	case CK_SMS_CODE:
		v->fm.waiting = false;
		if (ans && ans->secret[0]) {
			util_strlcpy(v->challenge, ans->secret, sizeof v->challenge);
			tfa_info(&v->fm, "code", "A code was sent by SMS: type it and submit.");
		} else {
			form_set_answer(&v->fm, NULL, "the service sent no challenge: try again");
		}
		break;
	case CK_SMS_NEW:
	case CK_SMS_RESEND:
		v->fm.waiting = false;
		if (ans && ans->secret[0]) {
			v->sent_at = util_mono();
			util_strlcpy(v->challenge, ans->secret, sizeof v->challenge);
			tfa_info(&v->fm, "code", k == CK_SMS_NEW
						? "A code was sent by SMS: type it and submit (C-n resends)."
						: "The code was sent again.");
			int c = form_find(&v->fm, "code");
			if (c >= 0)
				v->fm.focus = c;
		} else {
			form_set_answer(&v->fm, NULL, "the service sent no challenge: try again");
		}
		break;
	case CK_CONFIRM: {
		bool sms = v->step == ST_SMS;
		app_toast(a, ROLE_OK, 8, "%s method added: two-factor authentication is on",
			  sms ? "SMS" : "TOTP");
		explicit_bzero(v->totp_secret, sizeof v->totp_secret);
		explicit_bzero(v->totp_uri, sizeof v->totp_uri);
		qr_free(&v->qr);
		if (ans && ans->codes.n) /* the first method: the email's window is spent */
			v->authorized_at = 0;
		if (ans && ans->codes.n)
			show_codes(a, v, &ans->codes, true);
		else
			flow_end(a, v);
		break;
	}
	case CK_REGEN:
		app_toast(a, ROLE_OK, 8, "new backup codes made: the old ones no longer work");
		if (ans)
			show_codes(a, v, &ans->codes, false);
		else
			flow_end(a, v);
		break;
	case CK_REMOVE:
		if (ans && (ans->disabled || ans->remaining == 0))
			app_toast(a, ROLE_WARNING, 10,
				  "2FA method %ld removed: two-factor authentication is now OFF", v->target);
		else if (ans && ans->remaining > 0)
			app_toast(a, ROLE_OK, 8, "2FA method %ld removed: %d method%s left", v->target,
				  ans->remaining, ans->remaining == 1 ? "" : "s");
		else
			app_toast(a, ROLE_OK, 8, "2FA method %ld removed", v->target);
		flow_end(a, v);
		break;
	case CK_LOGIN: {
		struct auth *au = poller_auth(a->poller);
		if (!ans || !au) {
			flow_end(a, v);
			app_toast(a, ROLE_ERROR, 10, "2FA login: no session key to store");
			break;
		}
		if (auth_store_session(au, ans->session, err, sizeof err) != 0) {
			flow_end(a, v);
			app_toast(a, ROLE_ERROR, 10, "2FA login succeeded but the session key could not "
				  "be stored: %s", err);
		} else {
			flow_end(a, v);
			app_toast(a, ROLE_OK, 8, "2FA login: session key stored in %s/vast_tfa_key "
				  "(mode 0600)", a->cfg->vast_config_dir);
		}
		break;
	}
	case CK_UPDATE:
		app_toast(a, ROLE_OK, 6, "2FA method %ld updated", v->target);
		flow_end(a, v);
		break;
	case CK_NONE:
		break;
	}
	refresh_status(a, v);
	a->dirty |= DIRTY_ALL;
}

/* ---- drawing -------------------------------------------------------------------------------- */

#define QR_PAIR_OFFSET 1 /* the pair after the theme's */

/* Black modules on white whatever the theme: white glyphs on black. */
static unsigned long qr_attr(void)
{
	int pair = ROLE__COUNT + QR_PAIR_OFFSET + 1;
	if (has_colors() && pair < COLOR_PAIRS) {
		init_pair((short)pair, COLOR_WHITE, COLOR_BLACK);
		return (unsigned long)COLOR_PAIR(pair);
	}
	return (unsigned long)A_NORMAL;
}

/* Box r drawn over the screen; returns its inner rect. */
static struct rect box_at(struct rect r, const char *title)
{
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, title, bg);
	struct rect in = { r.y + 1, r.x + 2, r.h - 2, r.w - 4 };
	return in;
}

/* A box of (at most) want_w x want_h centred over the screen. */
static struct rect modal_box(const struct app *a, int want_w, int want_h, const char *title)
{
	return box_at(layout_dialog(&a->lay, want_w, want_h), title);
}

static void draw_lines(const struct rect *in, int *y, const char *s, unsigned long attr)
{
	char lines[8][256];
	int n = dialog_wrap(s, in->w, lines, 8);
	for (int i = 0; i < n && *y < in->y + in->h; i++)
		draw_text((*y)++, in->x, in->w, lines[i], attr);
}

static void draw_qr(struct app *a, struct tfa_view *v)
{
	unsigned long bg = theme_attr(ROLE_DIALOG);
	if (v->busy) {
		struct rect in = modal_box(a, 60, 5, "Add an authenticator app (TOTP)");
		int y = in.y + 1;
		draw_lines(&in, &y, "asking the service for a new secret...", theme_attr(ROLE_PENDING));
		return;
	}
	char groups[200];
	acct_base32_groups(v->totp_secret, groups, sizeof groups);
	/* the code whole, then the secret and two lines: the whole screen if need be */
	int need_w = v->qr.cols + 4 > 66 ? v->qr.cols + 4 : 66;
	int need_h = v->qr.nrows + 2 + 3;
	bool fits = v->qr.nrows > 0 && v->qr.cols + 4 <= a->lay.cols && need_h <= a->lay.rows;
	struct rect in;
	if (fits) {
		int w = need_w < a->lay.cols ? need_w : a->lay.cols;
		struct rect r = { (a->lay.rows - need_h) / 2, (a->lay.cols - w) / 2, need_h, w };
		in = box_at(r, "Add an authenticator app (TOTP)");
	} else {
		in = modal_box(a, 72, 11, "Add an authenticator app (TOTP)");
	}
	int y = in.y;
	if (fits) {
		unsigned long qa = qr_attr();
		int x = in.x + (in.w - v->qr.cols) / 2;
		for (int i = 0; i < v->qr.nrows && y < in.y + in.h; i++)
			draw_text(y++, x, v->qr.cols, v->qr.rows[i], qa);
	} else {
		char msg[300];
		if (v->qr.nrows > 0)
			snprintf(msg, sizeof msg, "The terminal is too small to show the QR code whole "
				 "(it needs %dx%d, this one is %dx%d): enlarge it, or type the "
				 "secret below into the app.", v->qr.cols + 4, need_h, a->lay.cols,
				 a->lay.rows);
		else
			snprintf(msg, sizeof msg, "No QR code: %s. Type the secret below into the app.",
				 v->qr_err);
		draw_lines(&in, &y, msg, theme_attr(ROLE_WARNING));
		y++;
	}
	char line[300];
	snprintf(line, sizeof line, "Secret: %s", groups);
	explicit_bzero(groups, sizeof groups);
	if (y < in.y + in.h)
		draw_text(y++, in.x, in.w, line, bg | A_BOLD);
	explicit_bzero(line, sizeof line);
	if (y < in.y + in.h)
		draw_text(y++, in.x, in.w, "Scan it, or type the secret, in your authenticator app.",
			  bg);
	if (y < in.y + in.h)
		draw_text(y++, in.x, in.w, "Enter: type the code it shows   Esc: cancel (nothing is added)",
			  theme_attr(ROLE_HINT));
}

static void draw_codes(struct app *a, struct tfa_view *v)
{
	unsigned long bg = theme_attr(ROLE_DIALOG);
	struct rect in = modal_box(a, 66, 17 + (int)(v->codes.n + 1) / 2 - 5,
				   v->codes_first ? "Two-factor authentication is on: backup codes"
						  : "New backup codes");
	int y = in.y;
	draw_lines(&in, &y, "Each code works once, when no other method is at hand. "
		   "They are shown ONCE: they will not be shown again after this dialog closes.",
		   theme_attr(ROLE_WARNING));
	y++;
	for (size_t i = 0; i < v->codes.n && y < in.y + in.h; i += 2) {
		char row[64];
		snprintf(row, sizeof row, "  %-16s  %s", v->codes.code[i],
			 i + 1 < v->codes.n ? v->codes.code[i + 1] : "");
		draw_text(y++, in.x, in.w, row, bg | A_BOLD);
		explicit_bzero(row, sizeof row);
	}
	y++;
	if (v->codes_note[0])
		draw_lines(&in, &y, v->codes_note, theme_attr(ROLE_OK));
	draw_lines(&in, &y, "w write them to a file (mode 0600)   y copy (OSC 52)   Enter/Esc close",
		   theme_attr(ROLE_HINT));
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
	if (v->sel >= s->nmethods)
		v->sel = s->nmethods - 1;
	for (size_t i = 0; i < s->nmethods && y < ymax; i++, y++) {
		tfaflow_method_row(&s->methods[i], now, line, sizeof line);
		bool sel = i == v->sel;
		bool locked = isfinite(s->methods[i].locked_until) && s->methods[i].locked_until > now;
		unsigned long at = theme_attr(sel ? ROLE_SELECTION : locked ? ROLE_ERROR : ROLE_NORMAL);
		draw_fill(y, r->x, r->w, at);
		draw_text(y, x, w, line, at);
	}
}

/* The verify form's answer while its chosen method is locked: the live
 * countdown (the view wakes every second while a lock runs). */
static void verify_lock_line(struct tfa_view *v)
{
	int ci = form_choice(&v->fm, "with");
	if (ci < 0 || ci >= v->nch || !v->ch[ci].id)
		return;
	const struct tfa_method_rec *m = tfaflow_method(v->st, v->ch[ci].id);
	char lock[64], line[200];
	if (!m || !acct_lock_countdown(lock, sizeof lock, m->locked_until, util_now())) {
		if (!strncmp(v->fm.answer, "Locked: ", 8)) /* the lock ended */
			tfa_info(&v->fm, NULL, "The lock has ended: a code may be tried again.");
		return;
	}
	snprintf(line, sizeof line, "Locked: %s after %d wrong codes; no code is sent until then.",
		 lock, m->fail_count);
	form_set_answer(&v->fm, NULL, line);
}

static bool tfa_modal_draw(struct app *a, void *st)
{
	struct tfa_view *v = st;
	switch (v->step) {
	case ST_NONE:
		return false;
	case ST_VERIFY:
		verify_lock_line(v);
		form_draw(&v->fm, &a->lay);
		return !form_busy(&v->fm);
	case ST_CONFIRM:
	case ST_UPDATE:
	case ST_SMS:
	case ST_EMAIL:
		form_draw(&v->fm, &a->lay);
		return !v->fm.waiting;
	case ST_QR:
		draw_qr(a, v);
		return false;
	case ST_BACKUP:
		draw_codes(a, v);
		return false;
	case ST_REMOVE_ASK:
		dialog_draw(&v->dlg, &a->lay);
		return false;
	}
	return false;
}

/* ---- keys ----------------------------------------------------------------------------------- */

/* w in the backup-codes dialog. */
static void write_codes(struct tfa_view *v)
{
	char path[1024], err[1200];
	tfaflow_codes_path(util_now(), path, sizeof path);
	if (!path[0]) {
		snprintf(v->codes_note, sizeof v->codes_note, "HOME is not set: nowhere to write");
		return;
	}
	if (tfaflow_write_codes(path, &v->codes, err, sizeof err))
		snprintf(v->codes_note, sizeof v->codes_note, "written to %s (mode 0600)", path);
	else
		snprintf(v->codes_note, sizeof v->codes_note, "not written: %s", err);
}

static bool tfa_modal_key(struct app *a, void *st, int key)
{
	struct tfa_view *v = st;
	switch (v->step) {
	case ST_NONE:
		return false;
	case ST_QR:
		if (key == 27 || key == 'q') {
			flow_end(a, v);
			app_toast(a, ROLE_DIM, 4, "TOTP set-up cancelled: nothing was added");
		} else if ((key == '\n' || key == '\r' || key == KM_FN(KEY_ENTER)) && !v->busy) {
			open_confirm(v);
		}
		return true;
	case ST_BACKUP:
		if (key == 'w') {
			write_codes(v);
		} else if (key == 'y') {
			char text[TFA_BACKUP_CODES * 16 + 8];
			if (tfaflow_codes_text(&v->codes, text, sizeof text)) {
				app_copy(text);
				snprintf(v->codes_note, sizeof v->codes_note,
					 "copied with OSC 52 (under tmux: set-clipboard on)");
			}
			explicit_bzero(text, sizeof text);
		} else if (key == 27 || key == '\n' || key == '\r' || key == 'q' ||
			   key == KM_FN(KEY_ENTER)) {
			flow_end(a, v);
			app_toast(a, ROLE_DIM, 6, "backup codes closed: they will not be shown again");
		}
		return true;
	case ST_REMOVE_ASK: {
		enum dlg_result r = dialog_key(&v->dlg, key);
		if (r == DLG_CANCEL) {
			flow_end(a, v);
			app_toast(a, ROLE_DIM, 4, "cancelled");
		} else if (r == DLG_SUBMIT) {
			dialog_close(&v->dlg);
			open_verify(a, v, VP_REMOVE);
		}
		return true;
	}
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
		submit_sms(a, v, true);
		return true;
	}
	if (v->step == ST_EMAIL && key == KM_CTRL('n')) {
		submit_email(a, v, true);
		return true;
	}
	switch (form_key(&v->fm, key)) {
	case FORM_CANCEL:
		if (v->step == ST_CONFIRM && !v->fm.waiting) { /* back to the QR code */
			form_free(&v->fm);
			v->step = ST_QR;
		} else {
			flow_end(a, v);
			app_toast(a, ROLE_DIM, 4, "cancelled");
		}
		break;
	case FORM_SUBMIT:
		switch (v->step) {
		case ST_VERIFY: submit_verify(a, v); break;
		case ST_CONFIRM: submit_confirm(a, v); break;
		case ST_UPDATE: submit_update(a, v); break;
		case ST_SMS: submit_sms(a, v, false); break;
		case ST_EMAIL: submit_email(a, v, false); break;
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

static const struct tfa_method_rec *selected_method(const struct tfa_view *v)
{
	if (!v->st || v->sel >= v->st->nmethods)
		return NULL;
	return &v->st->methods[v->sel];
}

/* a or s: add a method (authorize first when one exists and the window is closed). */
static void add_method(struct app *a, struct tfa_view *v, enum after what)
{
	if (!v->st) {
		app_toast(a, ROLE_WARNING, 5, "the 2FA status is not fetched yet");
		return;
	}
	v->after = what;
	if (v->st->nmethods > 0 && !window_open(v, util_now())) {
		open_verify(a, v, VP_AUTHORIZE);
		return;
	}
	if (!window_open(v, util_now())) { /* no method: the email code authorizes the first */
		open_email(a, v);
		return;
	}
	if (what == AFTER_TOTP)
		start_totp(a, v);
	else
		open_sms(v);
}

static bool tfa_action(struct app *a, void *st, enum action act)
{
	struct tfa_view *v = st;
	size_t n = v->st ? v->st->nmethods : 0;
	const struct tfa_method_rec *m = selected_method(v);
	int row = action_row_of(tfa_rows, TA__COUNT, act);
	if (row == TA_TOTP) {
		add_method(a, v, AFTER_TOTP);
	} else if (row == TA_SMS) {
		add_method(a, v, AFTER_SMS);
	} else if ((row == TA_EDIT || row == TA_REMOVE) && m) { /* AF_NEEDS_SEL: m is there */
		if (row == TA_EDIT) {
			open_update(v, m);
			return true;
		}
		v->target = m->id;
		char *label = util_sanitize(m->label ? m->label : "");
		char text[400];
		bool last = v->st->nmethods == 1;
		snprintf(text, sizeof text, "Remove 2FA method %ld (%s%s%s)?%s", m->id,
			 m->method ? m->method : "?", *label ? " " : "", label,
			 last ? " It is the last one: two-factor authentication will be OFF and the "
				"backup codes deleted."
			      : " A code from a method or a backup code is asked next.");
		snprintf(v->target_text, sizeof v->target_text, "Removing method %ld%s.", m->id,
			 last ? " (the last: 2FA goes off)" : "");
		free(label);
		dialog_confirm(&v->dlg, 0, 0, "Remove 2FA method", text, "Remove");
		v->step = ST_REMOVE_ASK;
	} else if (row == TA_REGEN) {
		if (!v->st || !v->st->tfa_enabled) {
			app_toast(a, ROLE_WARNING, 5, "two-factor authentication is off: no backup codes");
			return true;
		}
		open_verify(a, v, VP_REGEN);
	} else if (row == TA_LOGIN) {
		if (!v->st || !v->st->tfa_enabled) {
			app_toast(a, ROLE_WARNING, 5, "two-factor authentication is off: no login needed");
			return true;
		}
		open_verify(a, v, VP_LOGIN);
	} else if (row == TA_LOGOUT) {
		struct auth *au = poller_auth(a->poller);
		if (au && api_tfa_logout(au))
			app_toast(a, ROLE_OK, 6, "2FA logout: the session key is deleted; the API key is "
				  "used again");
		else
			app_toast(a, ROLE_DIM, 5, "no 2FA session to log out of");
	} else if (!action_builtin(act)) { /* another registered action: its run handles it */
		return false;
	} else {
		switch (act) {
		case ACT_UP: if (v->sel) v->sel--; break;
		case ACT_DOWN: if (v->sel + 1 < n) v->sel++; break;
		case ACT_TOP: case ACT_PAGE_UP: v->sel = 0; break;
		case ACT_BOTTOM: case ACT_PAGE_DOWN: v->sel = n ? n - 1 : 0; break;
		case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
		case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
		case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
		case ACT_SORT_INVERT:
			return false;
		}
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
	int actx = km_ctx_by_name("account");
	for (int c = 1; actx >= 0 && c < km_ctx_count(); c++)
		if (c == actx || km_ctx_parent(c) == actx)
			action_bind(km, c, &open_row);
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
			/* the selection follows its method, not its row number: a
			 * refresh that adds or reorders never moves d onto another */
			const struct tfa_method_rec *was = selected_method(v);
			long sel_id = was ? was->id : 0;
			tfaflow_status_free(v->st);
			v->st = r.value;
			for (size_t i = 0; sel_id && i < v->st->nmethods; i++)
				if (v->st->methods[i].id == sel_id)
					v->sel = i;
			r.value = NULL;
			v->err[0] = '\0';
		} else if (r.outcome != CALL_OK) {
			snprintf(v->err, sizeof v->err, "2FA status: %s", r.err.msg);
		}
		lost_reread(a, v, &r);
		call_result_free(&r);
		changed = true;
	}
	if (v->call_id && model_take_result(a->m, v->call_id, &r)) {
		call_done(a, v, &r);
		call_result_free(&r);
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
		refresh_status(a, v);
	}
}

static void tfa_leave(struct app *a, void *st)
{
	struct tfa_view *v = st;
	flow_end(a, v); /* no secret outlives its dialog */
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
	return selected_method(st);
}

static void *tfa_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct tfa_view));
}

static void tfa_fini(struct app *a, void *st)
{
	struct tfa_view *v = st;
	flow_end(a, v);
	if (v->sub)
		jobs_unsubscribe(a->jobs, v->sub);
	tfaflow_status_free(v->st);
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
	.selected_row = tfa_selected,
	.modal_key = tfa_modal_key,
	.modal_draw = tfa_modal_draw,
};
