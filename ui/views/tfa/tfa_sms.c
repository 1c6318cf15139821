/* tfa_sms.c: adding a phone: its number (E.164) and a label, a code sent
 * (C-n sends again), then that code.  UI thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "rules/acct.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

static bool check_phone(const struct form_field *f, char *err, size_t n)
{
	char norm[32];
	if (!f->tb.s[0] || acct_e164_normalize(f->tb.s, norm, sizeof norm))
		return true;
	snprintf(err, n, "an international number: + country code and number (+15551234567)");
	return false;
}

void tfa_sms_open(struct tfa_view *v)
{
	form_init(&v->fm, "Add a phone (SMS)");
	int k = form_add_text(&v->fm, "phone", "Phone (E.164)", "", 24, true);
	if (k >= 0)
		v->fm.f[k].check = check_phone;
	k = form_add_text(&v->fm, "label", "Label (optional)", "", TFA_LABEL_MAX, false);
	if (k >= 0)
		v->fm.f[k].check = tfa_add_check_label;
	k = form_add_secret(&v->fm, "code", "SMS code (empty: send; C-n resends)", 8, false);
	if (k >= 0)
		v->fm.f[k].check = tfa_add_check_code6;
	v->step = ST_SMS;
}

void tfa_sms_submit(struct app *a, struct tfa_view *v, bool resend)
{
	char phone[32], err[200], code[8];
	if (!acct_e164_normalize(form_value(&v->fm, "phone"), phone, sizeof phone)) {
		form_set_answer(&v->fm, "phone", "an international number: + country code and number");
		return;
	}
	if (v->challenge[0] && strcmp(phone, v->sms_phone)) /* a new number: a new code */
		explicit_bzero(v->challenge, sizeof v->challenge);
	tfa_add_digits(form_value(&v->fm, "code"), code);
	const char *label = form_value(&v->fm, "label");
	struct api_call call;
	enum callk k;
	jobs_map_fn map = tfa_map_secret;
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
		map = tfa_map_codes;
	}
	explicit_bzero(code, sizeof code);
	util_strlcpy(v->sms_phone, phone, sizeof v->sms_phone);
	if (tfa_send(a, v, k, call, map, k == CK_CONFIRM ? "2FA: confirm the SMS method"
							  : "2FA: send an SMS code", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

/* A code went to the new phone (or not). */
void tfa_sms_done(struct tfa_view *v, enum callk k, const struct api_tfa_answer *ans)
{
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
}
