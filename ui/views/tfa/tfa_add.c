/* tfa_add.c: adding a 2FA method (a: an authenticator app, s: a phone):
 * authorized first (a code from a method, or the email code when there is
 * none) unless the window is open; the field checks the TOTP, SMS and
 * email forms share, their sends refused, and the method added.  UI
 * thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

/* a or s: add a method (authorize first when one exists and the window is closed). */
void tfa_add_method(struct app *a, struct tfa_view *v, enum after what)
{
	if (!v->st) {
		app_toast(a, ROLE_WARNING, 5, "the 2FA status is not fetched yet");
		return;
	}
	v->after = what;
	if (v->st->nmethods > 0 && !tfa_window_open(v, util_now())) {
		tfa_verify_open(a, v, VP_AUTHORIZE);
		return;
	}
	if (!tfa_window_open(v, util_now())) { /* no method: the email code authorizes the first */
		tfa_email_open(a, v);
		return;
	}
	if (what == AFTER_TOTP)
		tfa_totp_start(a, v);
	else
		tfa_sms_open(v);
}

bool tfa_add_check_code6(const struct form_field *f, char *err, size_t n)
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

bool tfa_add_check_label(const struct form_field *f, char *err, size_t n)
{
	if (api_tfa_label_valid(f->tb.s))
		return true;
	snprintf(err, n, "at most %d characters, no control characters", TFA_LABEL_MAX);
	return false;
}

/* The code digits of a field without blanks into out[8]. */
void tfa_add_digits(const char *s, char out[8])
{
	int k = 0;
	for (; *s && k < 7; s++)
		if (*s >= '0' && *s <= '9')
			out[k++] = *s;
	out[k] = '\0';
}

/* Seconds since the last code went out (0 when unknown). */
static int since_sent(const struct tfa_view *v)
{
	return v->sent_at > 0 ? (int)(util_mono() - v->sent_at) : 0;
}

/* The line for a refused send in the SMS or email form ("" for other failures). */
void tfa_add_refused_text(const struct tfa_view *v, const struct tfa_error *te, char *buf,
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

void tfa_add_confirmed(struct app *a, struct tfa_view *v, const struct api_tfa_answer *ans)
{
	bool sms = v->step == ST_SMS;
	app_toast(a, ROLE_OK, 8, "%s method added: two-factor authentication is on",
		  sms ? "SMS" : "TOTP");
	explicit_bzero(v->totp_secret, sizeof v->totp_secret);
	explicit_bzero(v->totp_uri, sizeof v->totp_uri);
	qr_free(&v->qr);
	if (ans && ans->codes.n) /* the first method: the email's window is spent */
		v->authorized_at = 0;
	if (ans && ans->codes.n)
		tfa_codes_show(a, v, &ans->codes, true);
	else
		tfa_flow_end(a, v);
}
