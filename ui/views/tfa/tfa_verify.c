/* tfa_verify.c: the 2FA view's verification form: a code from a method
 * (an SMS method's code sent first) or a backup code, for an authorization
 * of a new method (the 30-minute window), a regeneration of the backup
 * codes, a removal or a login; a locked method's live countdown.  UI
 * thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "rules/acct.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

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
void tfa_verify_open(struct app *a, struct tfa_view *v, enum purpose p)
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

void tfa_verify_authorized(struct app *a, struct tfa_view *v)
{
	v->authorized_at = util_now();
	form_free(&v->fm);
	api_tfa_verify_wipe(&v->pending);
	explicit_bzero(v->challenge, sizeof v->challenge);
	app_toast(a, ROLE_OK, 5, "authorized: a new 2FA method may be added for 30 minutes");
	if (v->after == AFTER_TOTP)
		tfa_totp_start(a, v);
	else
		tfa_sms_open(v);
}

/* Submit the verify form. */
void tfa_verify_submit(struct app *a, struct tfa_view *v)
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
		if (tfa_send(a, v, v->purpose == VP_AUTHORIZE ? CK_AUTH_START : CK_SMS_CODE, call,
			      tfa_map_secret, "2FA: send an SMS code", err, sizeof err))
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
			map = tfa_map_secret;
		}
		what = "2FA: authorize a new method";
		break;
	case VP_REGEN:
		call = api_tfa_regen_backup(a->cfg, &tv);
		v->regen_before = tfaflow_regen_count(v->st ? v->st->backup_codes_remaining : -1, true);
		k = CK_REGEN;
		map = tfa_map_regen;
		what = "2FA: regenerate backup codes";
		break;
	case VP_REMOVE:
		call = api_tfa_remove(a->cfg, &tv, v->target);
		k = CK_REMOVE;
		map = tfa_map_removed;
		what = "2FA: remove a method";
		break;
	case VP_LOGIN:
		call = api_tfa_login_with(a->cfg, &tv);
		k = CK_LOGIN;
		map = tfa_map_session;
		what = "2FA login";
		break;
	}
	api_tfa_verify_wipe(&tv);
	if (tfa_send(a, v, k, call, map, what, err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* The verify form's answer while its chosen method is locked: the live
 * countdown (the view wakes every second while a lock runs). */
void tfa_verify_lock_line(struct tfa_view *v)
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

/* An SMS code went out for the verification: its challenge kept (or none came). */
static void sms_sent(struct tfa_view *v, const struct api_tfa_answer *ans)
{
	v->fm.waiting = false;
	if (ans && ans->secret[0]) {
		util_strlcpy(v->challenge, ans->secret, sizeof v->challenge);
		tfa_info(&v->fm, "code", "A code was sent by SMS: type it and submit.");
	} else {
		form_set_answer(&v->fm, NULL, "the service sent no challenge: try again");
	}
}

void tfa_verify_done(struct app *a, struct tfa_view *v, enum callk k,
		     const struct api_tfa_answer *ans)
{
	char err[300];
	if (k == CK_AUTH_FINISH) {
		tfa_verify_authorized(a, v);
		return;
	}
	if (k == CK_SMS_CODE) {
		sms_sent(v, ans);
		return;
	}
	if (!strcmp(v->pending.method, "backup")) { /* the window is open */
		tfa_verify_authorized(a, v);
	} else if (!strcmp(v->pending.method, "totp") && ans && ans->secret[0]) {
		struct api_call call =
			api_tfa_authorize_finish(a->cfg, v->pending.code, ans->secret);
		api_tfa_verify_wipe(&v->pending);
		if (!tfa_send(a, v, CK_AUTH_FINISH, call, NULL, "2FA: authorize a new method",
			       err, sizeof err)) {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, err);
		}
	} else { /* an SMS went out (step 1 of an SMS method's authorization) */
		api_tfa_verify_wipe(&v->pending);
		sms_sent(v, ans);
	}
}
