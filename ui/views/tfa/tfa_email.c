/* tfa_email.c: the first method's authorization: the service forces it
 * to email when the account has no method; a challenge, its code sent to
 * the account's email (C-n sends again), then that code.  UI thread
 * only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

/* Step 1 of the authorization, which the service forces to email when the
 * account has no method: a challenge secret, whose code goes out next. */
static void email_start(struct app *a, struct tfa_view *v)
{
	char err[200];
	struct tfa_verify s = { 0 };
	util_strlcpy(s.method, "email", sizeof s.method);
	explicit_bzero(v->challenge, sizeof v->challenge);
	v->email_sends = 0;
	if (tfa_send(a, v, CK_EMAIL_START, api_tfa_authorize_start(a->cfg, &s), tfa_map_secret,
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
	if (tfa_send(a, v, CK_EMAIL_SEND, api_tfa_email_send(a->cfg, v->challenge), tfa_map_sent,
		      "2FA: send an email code", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* a or s with no method: the code sent to the account's email comes first. */
void tfa_email_open(struct app *a, struct tfa_view *v)
{
	form_init(&v->fm, "Authorize the first 2FA method by email");
	int k = form_add_secret(&v->fm, "code", "Email code (C-r shows, C-n sends again)", 8, false);
	if (k >= 0)
		v->fm.f[k].check = tfa_add_check_code6;
	v->step = ST_EMAIL;
	email_start(a, v);
}

/* Enter (resend false) or C-n (true) in the email form. */
void tfa_email_submit(struct app *a, struct tfa_view *v, bool resend)
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
	tfa_add_digits(form_value(&v->fm, "code"), code);
	if (!code[0]) {
		tfa_info(&v->fm, "code", "Type the 6-digit code from the email (C-n sends another).");
		return;
	}
	struct api_call call = api_tfa_authorize_finish(a->cfg, code, v->challenge);
	explicit_bzero(code, sizeof code);
	if (tfa_send(a, v, CK_AUTH_FINISH, call, NULL, "2FA: authorize by email", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* The challenge came (its code is sent next), or the code went out. */
void tfa_email_done(struct app *a, struct tfa_view *v, enum callk k,
		    const struct api_tfa_answer *ans)
{
	if (k == CK_EMAIL_START) {
		if (ans && ans->secret[0]) {
			util_strlcpy(v->challenge, ans->secret, sizeof v->challenge);
			email_send(a, v);
		} else {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, "the service sent no challenge: Enter tries again");
		}
		return;
	}
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
}
