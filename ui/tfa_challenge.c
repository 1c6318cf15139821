/* tfa_challenge.c: the two-factor challenge an action asks for (see
 * tfa_challenge.h): the account's methods from GET tfa/status/, the
 * primary one chosen first and named, an SMS or email code sent on demand,
 * and the login job with the typed code.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include "tfa_challenge.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "widgets/dialog.h"
#include "draw.h"
#include "poll/jobs.h"
#include "poll/poller.h"
#include "json/json_map.h"
#include "keymap.h"
#include "state/model.h"
#include "widgets/textbuf.h"
#include "flow/tfaflow.h"
#include "theme.h"
#include "base/util.h"

#define SEND_GAP_S 30.0 /* s: the service refuses another code sooner (sms_rate_limited) */

struct tfa_challenge {
	bool open;
	char what[96];                 /* the action that asked ("destroy 9108142") */
	struct tfa_status_rec *st;     /* the account's 2FA status, NULL: not read (yet) */
	char st_err[200];              /* why it could not be read */
	int status_req;                /* the status call awaited, 0: none */
	struct tfaflow_choice ch[TFAFLOW_MAX_CHOICES];
	int nch, sel;
	struct textbuf code;           /* the typed code (secret) */
	int send_req;                  /* the send awaited, 0: none */
	int login_req;                 /* the login job awaited (its result by id), 0: none */
	struct tfaflow_choice sending; /* what it sends for */
	bool resending;                /* it is a resend (or the follow-up of tfa_challenge_exists) */
	struct tfaflow_choice sent_for;/* the choice secret belongs to (kind "": none) */
	char secret[160];              /* the challenge secret of the code sent (secret) */
	double sent_at;                /* util_mono() of the last code sent, 0: none */
	char info[300];                /* what to do now */
	char err[300];                 /* why the last step failed, "" when it did not */
};

struct tfa_challenge *tfa_challenge_new(void)
{
	return xcalloc(1, sizeof(struct tfa_challenge));
}

/* Drop the answers still awaited and wipe the secrets; the status kept. */
static void reset(struct app *a, struct tfa_challenge *c)
{
	if (c->status_req)
		model_drop_result(a->m, c->status_req);
	if (c->send_req)
		model_drop_result(a->m, c->send_req);
	if (c->login_req)
		model_drop_result(a->m, c->login_req);
	c->status_req = c->send_req = c->login_req = 0;
	explicit_bzero(c->code.s, sizeof c->code.s);
	textbuf_clear(&c->code);
	explicit_bzero(c->secret, sizeof c->secret);
	memset(&c->sent_for, 0, sizeof c->sent_for);
	c->sent_at = 0;
	c->open = false;
}

void tfa_challenge_free(struct app *a, struct tfa_challenge *c)
{
	if (!c)
		return;
	reset(a, c);
	tfaflow_status_free(c->st);
	free(c);
}

bool tfa_challenge_active(const struct tfa_challenge *c)
{
	return c && c->open;
}

static const struct tfaflow_choice *chosen(const struct tfa_challenge *c)
{
	return c->nch ? &c->ch[c->sel] : NULL;
}

static bool same_choice(const struct tfaflow_choice *x, const struct tfaflow_choice *y)
{
	return x->kind[0] && !strcmp(x->kind, y->kind) && x->id == y->id;
}

/* The info line for the choice now selected. */
static void say_howto(struct tfa_challenge *c)
{
	const struct tfaflow_choice *ch = chosen(c);
	char how[160];
	if (!ch)
		return;
	if (c->secret[0] && same_choice(&c->sent_for, ch)) {
		snprintf(c->info, sizeof c->info, "A code was sent (%s): type it and press Enter; "
			 "C-n sends another.", ch->text);
		return;
	}
	tfaflow_challenge_howto(ch, how, sizeof how);
	snprintf(c->info, sizeof c->info, "%s", how);
}

/* The choices from the status (or every kind while it is not known), the
 * primary first; sel on the primary unless a code was sent already. */
static void set_choices(struct tfa_challenge *c)
{
	c->nch = tfaflow_challenge_choices(c->st, c->ch, TFAFLOW_MAX_CHOICES);
	c->sel = 0;
	for (int i = 0; c->sent_for.kind[0] && i < c->nch; i++)
		if (same_choice(&c->sent_for, &c->ch[i]))
			c->sel = i;
	say_howto(c);
}

void tfa_challenge_open(struct app *a, struct tfa_challenge *c, const char *what)
{
	if (c->open)
		return;
	reset(a, c);
	c->open = true;
	util_strlcpy(c->what, what && *what ? what : "this action", sizeof c->what);
	c->err[0] = c->st_err[0] = '\0';
	c->nch = 0;
	set_choices(c); /* the last status read, or every kind, until the answer */
	struct job_call jc = { .call = api_tfa_status(a->cfg), .action = false,
			       .map = tfaflow_map_status, .free_value = tfaflow_status_free };
	util_strlcpy(jc.what, "2FA status", sizeof jc.what);
	if (!a->jobs || jobs_call(a->jobs, &jc, &c->status_req) != JOBS_OK)
		c->status_req = 0;
	a->dirty |= DIRTY_ALL;
}

void tfa_challenge_close(struct app *a, struct tfa_challenge *c)
{
	reset(a, c);
	c->info[0] = c->err[0] = '\0';
	a->dirty |= DIRTY_ALL;
}

/* The login was refused (why, in words): the code field is emptied and the
 * reason shown; code_gone: the sent code expired or its challenge is gone
 * (the next Enter sends a new one). */
static void refused(struct app *a, struct tfa_challenge *c, const char *why, bool code_gone)
{
	explicit_bzero(c->code.s, sizeof c->code.s); /* a wrong code is not left to be edited */
	textbuf_clear(&c->code);
	if (code_gone) {
		explicit_bzero(c->secret, sizeof c->secret);
		memset(&c->sent_for, 0, sizeof c->sent_for);
	}
	util_strlcpy(c->err, why, sizeof c->err);
	say_howto(c);
	a->dirty |= DIRTY_ALL;
}

/* Ask for a code for choice ch (SMS or email); resend: another one for the
 * challenge already sent. */
static void send_code(struct app *a, struct tfa_challenge *c, const struct tfaflow_choice *ch,
		      bool resend)
{
	bool sms = !strcmp(ch->kind, "sms");
	bool mine = c->secret[0] && same_choice(&c->sent_for, ch);
	struct job_call jc = { .action = true, .map = tfaflow_map_sent,
			       .free_value = tfaflow_sent_free };
	if (sms) /* a resend without a challenge of ours: the bearer's resend makes one */
		jc.call = resend ? api_tfa_sms_resend(a->cfg, mine ? c->secret : NULL, NULL, ch->id)
				 : api_tfa_sms_send(a->cfg, NULL, ch->id);
	else
		jc.call = api_tfa_email_send(a->cfg, resend && mine ? c->secret : NULL);
	util_strlcpy(jc.what, sms ? "2FA: send an SMS code" : "2FA: email a code", sizeof jc.what);
	int rc = a->jobs ? jobs_call(a->jobs, &jc, &c->send_req) : JOBS_EINVAL;
	if (!a->jobs)
		api_call_free(&jc.call);
	if (rc != JOBS_OK) {
		c->send_req = 0;
		snprintf(c->err, sizeof c->err, "no code sent: %s", jobs_strerror(rc));
		return;
	}
	c->sending = *ch;
	c->resending = resend;
	c->err[0] = '\0';
	snprintf(c->info, sizeof c->info, "%s...", sms ? "sending a code by SMS" : "emailing a code");
}

/* Enter: send a code, or log in with the one typed. */
static void submit(struct app *a, struct tfa_challenge *c)
{
	const struct tfaflow_choice *ch = chosen(c);
	if (!ch || c->send_req || c->login_req)
		return;
	/* a backup code typed whatever the choice: it is one (the form says it) */
	const char *form = dialog_tfa_method(c->code.s);
	for (int i = 0; form && !strcmp(form, "backup") && strcmp(ch->kind, "backup") && i < c->nch;
	     i++)
		if (!strcmp(c->ch[i].kind, "backup")) {
			c->sel = i;
			ch = &c->ch[i];
		}
	const char *secret = same_choice(&c->sent_for, ch) ? c->secret : "";
	struct tfa_verify tv;
	char err[300];
	enum tfaflow_verify r = tfaflow_verify_build(ch, c->code.s, secret, &tv, err, sizeof err);
	switch (r) {
	case TV_BAD:
		util_strlcpy(c->err, err, sizeof c->err);
		return;
	case TV_SEND_SMS:
	case TV_SEND_EMAIL:
		send_code(a, c, ch, false);
		return;
	case TV_OK:
		break;
	}
	struct job_req req;
	memset(&req, 0, sizeof req);
	req.kind = JOB_TFA_LOGIN;
	util_strlcpy(req.tfa_method, tv.method, sizeof req.tfa_method);
	util_strlcpy(req.text, tv.code, sizeof req.text);
	util_strlcpy(req.tfa_secret, tv.secret, sizeof req.tfa_secret);
	req.tfa_method_id = tv.method_id;
	req.reply = true; /* its end comes back here by its id (take_login) */
	api_tfa_verify_wipe(&tv);
	int id = 0;
	int rc = a->jobs ? jobs_submit(a->jobs, &req, &id) : JOBS_EINVAL;
	explicit_bzero(&req, sizeof req); /* the jobs module has its copy */
	if (rc != JOBS_OK) {
		snprintf(c->err, sizeof c->err, "%s", jobs_strerror(rc));
		return;
	}
	c->login_req = id;
	c->err[0] = '\0';
	snprintf(c->info, sizeof c->info, "checking the code...");
	app_toast(a, ROLE_PENDING, 0, "checking the two-factor code...");
}

/* C-n: another code for the SMS or email choice. */
static void resend(struct app *a, struct tfa_challenge *c)
{
	const struct tfaflow_choice *ch = chosen(c);
	if (!ch || c->send_req || c->login_req)
		return;
	if (strcmp(ch->kind, "sms") && strcmp(ch->kind, "email")) {
		snprintf(c->err, sizeof c->err, "no code is sent for %s: choose SMS or email (Up/Down) "
			 "to be sent one", ch->text);
		return;
	}
	double since = c->sent_at > 0 ? util_mono() - c->sent_at : SEND_GAP_S;
	if (same_choice(&c->sent_for, ch) && since < SEND_GAP_S) {
		snprintf(c->err, sizeof c->err, "a code was sent %.0f s ago: wait %.0f s more before "
			 "asking for another", since, SEND_GAP_S - since);
		return;
	}
	send_code(a, c, ch, true);
}

bool tfa_challenge_key(struct app *a, struct tfa_challenge *c, int key)
{
	a->dirty |= DIRTY_ALL;
	if (key == 27)
		return false;
	bool busy = c->send_req || c->login_req;
	if (key == '\n' || key == '\r' || key == KM_FN(KEY_ENTER) || key == KM_CTRL('s')) {
		submit(a, c);
	} else if (key == KM_CTRL('n')) {
		resend(a, c);
	} else if (!busy && c->nch &&
		   (key == KM_FN(KEY_UP) || key == KM_FN(KEY_DOWN) || key == '\t' ||
		    key == KM_FN(KEY_BTAB))) {
		bool back = key == KM_FN(KEY_UP) || key == KM_FN(KEY_BTAB);
		c->sel = (c->sel + (back ? c->nch - 1 : 1)) % c->nch;
		c->err[0] = '\0';
		say_howto(c);
	} else if (!busy) {
		textbuf_key(&c->code, key);
	}
	return true;
}

/* The send's answer: the secret of the code, or why none went out. */
static void take_send(struct app *a, struct tfa_challenge *c, struct call_result *r)
{
	c->send_req = 0;
	bool sms = !strcmp(c->sending.kind, "sms");
	if (r->outcome == CALL_OK && r->value) {
		const struct tfaflow_sent *t = r->value;
		util_strlcpy(c->secret, t->secret, sizeof c->secret);
		c->sent_for = c->sending;
		c->sent_at = util_mono();
		snprintf(c->info, sizeof c->info, "%s: type the 6-digit code and press Enter (C-n "
			 "sends another).", t->msg[0] ? t->msg : sms ? "A code was sent by SMS"
								    : "A code was emailed");
		c->err[0] = '\0';
		return;
	}
	struct tfa_error te;
	api_tfa_error_from_api(&r->err, &te);
	if (sms && te.kind == TFAE_CHALLENGE_EXISTS && !c->resending) {
		/* a code went to this phone moments ago (from another prompt or
		 * client): the service's way on is the resend, which gives a
		 * new secret to a bearer that has none (nothing was sent by
		 * the refused call) */
		struct tfaflow_choice ch = c->sending;
		explicit_bzero(c->secret, sizeof c->secret);
		memset(&c->sent_for, 0, sizeof c->sent_for);
		send_code(a, c, &ch, true);
		return;
	}
	if (r->outcome == CALL_UNKNOWN)
		snprintf(c->err, sizeof c->err, "the answer was lost: a code may have been sent, but "
			 "its challenge is unknown; C-n asks for another");
	else if (te.kind == TFAE_SMS_RATE_LIMITED)
		snprintf(c->err, sizeof c->err, "a code was sent moments ago, so the service sends no "
			 "other yet (%.120s): wait 30 s and press C-n", r->err.msg);
	else
		tfaflow_error_text(&r->err, c->sending.id ? tfaflow_method(c->st, c->sending.id)
							  : NULL, util_now(), c->err, sizeof c->err);
	say_howto(c);
}

/* What asked for 2FA, in words, from its event e: a job's kind and
 * instance ("destroy 9108142"), or an on-demand call's words ("add env var
 * needs a 2FA login: ..."). */
static void asked_what(const struct event *e, char *buf, size_t n)
{
	if (e->job_kind >= 0 && e->instance_id > 0) {
		snprintf(buf, n, "%s %ld", jobs_kind_name((enum job_kind)e->job_kind), e->instance_id);
		return;
	}
	if (e->job_kind >= 0) {
		snprintf(buf, n, "%s", jobs_kind_name((enum job_kind)e->job_kind));
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

void tfa_challenge_asked(struct app *a, struct tfa_challenge *c, const struct event *e)
{
	char what[sizeof c->what];
	if (c->open)
		util_strlcpy(what, c->what, sizeof what);
	else
		asked_what(e, what, sizeof what);
	app_toast(a, ROLE_WARNING, 0, "%s needs a two-factor code", what);
	tfa_challenge_open(a, c, what);
}

void tfa_challenge_cancel(struct app *a, struct tfa_challenge *c)
{
	app_toast(a, ROLE_WARNING, 8, "%s cancelled: no two-factor code was given",
		  c->open ? c->what : "the action");
	poller_cancel_parked(a->poller); /* the waiting actions get their refusal */
	tfa_challenge_close(a, c);       /* a typed code and a sent code's secret wiped */
}

/* Why a 2FA login was refused (msg: its failure's sentence), for the prompt. */
static void refused_why(const char *msg, char *buf, size_t n)
{
	const char *why = strstr(msg, "failed: ");
	why = why ? why + 8 : msg;
	if (!strncmp(why, "HTTP ", 5) && strstr(why, ": ")) /* "HTTP 400 slug: the words" */
		why = strstr(why, ": ") + 2;
	if (strstr(msg, "2fa_verification_failed") || strstr(msg, "invalid_backup_code"))
		snprintf(buf, n, "Wrong code: %s Type the current code.", why);
	else if (strstr(msg, "tfa_locked"))
		snprintf(buf, n, "Locked after too many wrong codes: %s", why);
	else
		snprintf(buf, n, "The code was not accepted: %s", why);
}

/* The login's end: the session key is stored (the poller then sends the
 * refused actions again, each reporting its own result) and the prompt
 * closes; else it says why and takes another code. */
static void take_login(struct app *a, struct tfa_challenge *c, const struct call_result *r)
{
	c->login_req = 0;
	if (r->outcome == CALL_OK) {
		tfa_challenge_close(a, c); /* the code and the secret wiped */
		app_toast(a, ROLE_OK, 8, "%s", r->err.msg);
		return;
	}
	char msg[sizeof r->err.msg + 80], why[400];
	if (r->outcome == CALL_UNKNOWN)
		snprintf(msg, sizeof msg, "2FA login: %s, the outcome is unknown; log in again",
			 r->err.msg);
	else
		util_strlcpy(msg, r->err.msg, sizeof msg);
	refused_why(msg, why, sizeof why);
	app_toast(a, ROLE_WARNING, 0, "%s still needs a two-factor code",
		  c->open ? c->what : "the action");
	/* the code field emptied for the next one; an expired code or a gone
	 * challenge: the next Enter sends a new one */
	refused(a, c, why,
		strstr(msg, "2fa_expired") || strstr(msg, "challenge_not_found") ||
			strstr(msg, "no_challenge_found"));
}

void tfa_challenge_snapshot(struct app *a, struct tfa_challenge *c)
{
	struct call_result r;
	if (c->login_req && model_take_result(a->m, c->login_req, &r)) {
		take_login(a, c, &r);
		model_call_result_free(&r);
		a->dirty |= DIRTY_ALL;
	}
	if (c->status_req && model_take_result(a->m, c->status_req, &r)) {
		c->status_req = 0;
		if (r.outcome == CALL_OK && r.value) {
			tfaflow_status_free(c->st);
			c->st = r.value;
			r.value = NULL;
			c->st_err[0] = '\0';
		} else {
			apierr_format(&r.err, c->st_err, sizeof c->st_err);
		}
		model_call_result_free(&r);
		if (c->open)
			set_choices(c);
		a->dirty |= DIRTY_ALL;
	}
	if (c->send_req && model_take_result(a->m, c->send_req, &r)) {
		take_send(a, c, &r);
		model_call_result_free(&r);
		a->dirty |= DIRTY_ALL;
	}
}

/* Draw text wrapped from line *y of box r (at most max lines). */
static void wrapped(const struct rect *r, int *y, int ymax, const char *s, unsigned long attr)
{
	char lines[4][256];
	int n = draw_wrap(s, r->w - 4, lines, 4);
	for (int i = 0; i < n && *y < ymax; i++)
		draw_text((*y)++, r->x + 2, r->w - 4, lines[i], attr);
}

bool tfa_challenge_draw(struct app *a, struct tfa_challenge *c)
{
	if (!c->open)
		return false;
	struct rect r = layout_dialog(&a->lay, 84, 16);
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, "Two-factor code needed", bg);
	int y = r.y + 1, ymax = r.y + r.h - 2;
	char line[400];
	snprintf(line, sizeof line, "%s needs a two-factor code: a 2FA login lets it go "
		 "through, then it reports its own result.", c->what);
	wrapped(&r, &y, ymax, line, bg);
	const struct tfaflow_choice *ch = chosen(c);
	if (c->st && c->nch && strstr(c->ch[0].text, ", primary"))
		snprintf(line, sizeof line, "Primary method: %.*s.",
			 (int)(strstr(c->ch[0].text, ", primary") - c->ch[0].text), c->ch[0].text);
	else if (c->st_err[0])
		snprintf(line, sizeof line, "The account's methods could not be read (%s): choose "
			 "how to answer.", c->st_err);
	else if (!c->st)
		snprintf(line, sizeof line, "reading the account's 2FA methods...");
	else
		snprintf(line, sizeof line, "The account names no primary method.");
	wrapped(&r, &y, ymax, line, theme_attr(c->st_err[0] ? ROLE_WARNING : ROLE_DIALOG));
	y++;
	int lx = r.x + 2, fx = r.x + 16, fw = r.w - 18;
	bool busy = c->send_req || c->login_req;
	if (y < ymax) {
		draw_text(y, lx, 14, "Verify with", theme_attr(ROLE_DIALOG));
		snprintf(line, sizeof line, "< %s >  (%d of %d)", ch ? ch->text : "-", c->sel + 1,
			 c->nch);
		draw_fill(y, fx, fw, theme_attr(ROLE_DIALOG));
		draw_text(y++, fx, fw, line, theme_attr(ROLE_KEY));
	}
	int cy = -1, cx = -1;
	if (y < ymax) {
		draw_text(y, lx, 14, "Code", theme_attr(ROLE_KEY));
		size_t k = textbuf_chars(&c->code);
		char stars[64];
		if (k > sizeof stars - 1)
			k = sizeof stars - 1;
		memset(stars, '*', k);
		stars[k] = '\0';
		int cw = fw < 24 ? fw : 24;
		draw_fill(y, fx, cw, theme_attr(ROLE_INPUT));
		draw_text(y, fx, cw, stars, theme_attr(ROLE_INPUT));
		if ((int)k >= cw)
			k = (size_t)(cw > 0 ? cw - 1 : 0);
		cy = y++;
		cx = fx + (int)k;
	}
	y++;
	if (c->info[0])
		wrapped(&r, &y, ymax, c->info, theme_attr(busy ? ROLE_PENDING : ROLE_DIALOG));
	if (c->err[0])
		wrapped(&r, &y, ymax, c->err, theme_attr(ROLE_ERROR));
	draw_text(r.y + r.h - 2, r.x + 2, r.w - 4,
		  busy ? "waiting for the service...  Esc cancels the action"
		       : "Enter submit (empty: send a code)  C-n another  Up/Down method  Esc cancel",
		  theme_attr(ROLE_DIM));
	if (cy >= 0 && !busy) {
		move(cy, cx);
		return true;
	}
	return false;
}
