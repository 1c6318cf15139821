/* tfaflow.c: the pure side of the 2FA management dialogs: verify-with
 * choices, code forms, method rows with lock countdowns, the window and
 * failure lines, and the backup codes as text and as a 0600 file (the one
 * piece of I/O here).  See tfaflow.h. */
#include "flow/tfaflow.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rules/acct.h"
#include "net/apierr.h"
#include "base/util.h"

/* One choice for method m. */
static void choice_of(const struct tfa_method_rec *m, struct tfaflow_choice *c)
{
	memset(c, 0, sizeof *c);
	util_strlcpy(c->kind, m->method ? m->method : "", sizeof c->kind);
	c->id = m->id;
	char *label = util_sanitize(m->label && *m->label ? m->label
				    : m->phone_number && *m->phone_number ? m->phone_number
									  : "");
	snprintf(c->text, sizeof c->text, "%s %ld%s%.40s%s", c->kind, m->id, *label ? " " : "", label,
		 m->is_primary ? " (primary)" : "");
	free(label);
}

int tfaflow_choices(const struct tfa_status_rec *s, struct tfaflow_choice *out, int max)
{
	int n = 0;
	for (int pass = 0; s && pass < 2; pass++) /* the primary method first */
		for (size_t i = 0; i < s->nmethods && n < max; i++) {
			const struct tfa_method_rec *m = &s->methods[i];
			if (m->is_primary != (pass == 0))
				continue;
			if (!m->method || (strcmp(m->method, "totp") && strcmp(m->method, "sms")))
				continue;
			choice_of(m, &out[n++]);
		}
	if (n < max && (!s || s->backup_codes_remaining != 0)) {
		memset(&out[n], 0, sizeof out[n]);
		util_strlcpy(out[n].kind, "backup", sizeof out[n].kind);
		util_strlcpy(out[n].text, "backup code", sizeof out[n].text);
		n++;
	}
	return n;
}

/* One challenge choice for method m (text sanitised). */
static void challenge_choice_of(const struct tfa_method_rec *m, struct tfaflow_choice *c)
{
	memset(c, 0, sizeof *c);
	util_strlcpy(c->kind, m->method, sizeof c->kind);
	c->id = m->id;
	bool sms = !strcmp(m->method, "sms");
	char *label = util_sanitize(m->label ? m->label : "");
	char *phone = util_sanitize(m->phone_number ? m->phone_number : "");
	char what[40];
	if (sms && *phone)
		snprintf(what, sizeof what, "SMS to %.24s", phone);
	else
		snprintf(what, sizeof what, "%s", sms ? "SMS to the account's phone"
						      : "authenticator app");
	snprintf(c->text, sizeof c->text, "%s%s%.24s%s%s", what, *label ? " (" : "", label,
		 *label ? ")" : "", m->is_primary ? ", primary" : "");
	free(label);
	free(phone);
}

static void plain_choice(struct tfaflow_choice *c, const char *kind, const char *text)
{
	memset(c, 0, sizeof *c);
	util_strlcpy(c->kind, kind, sizeof c->kind);
	util_strlcpy(c->text, text, sizeof c->text);
}

int tfaflow_challenge_choices(const struct tfa_status_rec *s, struct tfaflow_choice *out,
			      int max)
{
	int n = 0;
	for (int pass = 0; s && pass < 2; pass++) /* the primary method first */
		for (size_t i = 0; i < s->nmethods && n < max; i++) {
			const struct tfa_method_rec *m = &s->methods[i];
			if (m->is_primary != (pass == 0) || !m->method ||
			    (strcmp(m->method, "totp") && strcmp(m->method, "sms")))
				continue;
			challenge_choice_of(m, &out[n++]);
		}
	if (!s) { /* the methods are not known: every kind the service takes */
		if (n < max)
			plain_choice(&out[n++], "totp", "authenticator app");
		if (n < max)
			plain_choice(&out[n++], "sms", "SMS to the account's phone");
	}
	if (n < max)
		plain_choice(&out[n++], "email", "email to the account's address");
	if (n < max && (!s || s->backup_codes_remaining != 0))
		plain_choice(&out[n++], "backup", "backup code");
	return n;
}

char *tfaflow_challenge_howto(const struct tfaflow_choice *c, char *buf, size_t n)
{
	if (!strcmp(c->kind, "sms"))
		snprintf(buf, n, "Enter with the code empty sends a code by SMS; then type it.");
	else if (!strcmp(c->kind, "email"))
		snprintf(buf, n, "Enter with the code empty emails a code; then type it.");
	else if (!strcmp(c->kind, "backup"))
		snprintf(buf, n, "Type one of your backup codes (XXXX-XXXX-XXXX); it is used up.");
	else
		snprintf(buf, n, "Type the current code of your authenticator app.");
	return buf;
}

/* typed without blanks and '-' when it is 6 digits so; else false. */
static bool six_digits(const char *typed, char out[7])
{
	int k = 0;
	for (const char *p = typed; *p; p++) {
		if (*p == ' ' || *p == '-' || *p == '\t')
			continue;
		if (!isdigit((unsigned char)*p) || k >= 6)
			return false;
		out[k++] = *p;
	}
	out[k] = '\0';
	return k == 6;
}

/* typed upper-cased and trimmed when it reads XXXX-XXXX-XXXX; else false. */
static bool backup_form(const char *typed, char out[15])
{
	while (*typed == ' ')
		typed++;
	size_t n = strlen(typed);
	while (n && typed[n - 1] == ' ')
		n--;
	if (n != 14)
		return false;
	for (size_t i = 0; i < 14; i++) {
		unsigned char c = (unsigned char)typed[i];
		if (i == 4 || i == 9) {
			if (c != '-')
				return false;
		} else if (!isalnum(c)) {
			return false;
		}
		out[i] = (char)toupper(c);
	}
	out[14] = '\0';
	return true;
}

enum tfaflow_verify tfaflow_verify_build(const struct tfaflow_choice *c, const char *typed,
					 const char *sms_secret, struct tfa_verify *out,
					 char *err, size_t n)
{
	api_tfa_verify_wipe(out);
	if (err && n)
		err[0] = '\0';
	if (!typed)
		typed = "";
	if (!strcmp(c->kind, "backup")) {
		char code[15];
		if (!backup_form(typed, code)) {
			snprintf(err, n, "a backup code reads XXXX-XXXX-XXXX");
			return TV_BAD;
		}
		util_strlcpy(out->method, "backup", sizeof out->method);
		util_strlcpy(out->code, code, sizeof out->code);
		explicit_bzero(code, sizeof code);
		return TV_OK;
	}
	bool sms = !strcmp(c->kind, "sms"), email = !strcmp(c->kind, "email");
	if ((sms || email) && (!sms_secret || !*sms_secret)) {
		if (*typed) {
			snprintf(err, n, "no %s code was sent yet: leave the code empty and submit to "
					 "send one", sms ? "SMS" : "email");
			return TV_BAD;
		}
		return sms ? TV_SEND_SMS : TV_SEND_EMAIL;
	}
	char code[7];
	if (!six_digits(typed, code)) {
		snprintf(err, n, "enter the 6-digit code %s",
			 sms ? "of the SMS" : email ? "of the email" : "of your authenticator app");
		return TV_BAD;
	}
	util_strlcpy(out->method, sms ? "sms" : email ? "email" : "totp", sizeof out->method);
	out->method_id = c->id;
	util_strlcpy(out->code, code, sizeof out->code);
	explicit_bzero(code, sizeof code);
	if (sms || email)
		util_strlcpy(out->secret, sms_secret, sizeof out->secret);
	return TV_OK;
}

/* The column text of an epoch time, "-" when unknown. */
static void when_text(double t, char *buf, size_t n)
{
	if (!isfinite(t) || t <= 0) {
		util_strlcpy(buf, "-", n);
		return;
	}
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%d %H:%M", &tm);
}

char *tfaflow_method_row(const struct tfa_method_rec *m, double now, char *buf, size_t n)
{
	char *label = util_sanitize(m->label ? m->label : "");
	char *phone = util_sanitize(m->phone_number ? m->phone_number : "");
	char *kind = util_sanitize(m->method ? m->method : "?");
	char lock[64] = "", used[32];
	bool locked = acct_lock_countdown(lock, sizeof lock, m->locked_until, now);
	when_text(m->last_used, used, sizeof used);
	snprintf(buf, n, "%-8ld %-5.5s %-30.30s %-7s %-14.14s %d failed%s%s  last used %s", m->id,
		 kind, *label ? label : "-", m->is_primary ? "primary" : "-", *phone ? phone : "-",
		 m->fail_count < 0 ? 0 : m->fail_count, locked ? ", " : "", lock, used);
	free(label);
	free(phone);
	free(kind);
	return buf;
}

const struct tfa_method_rec *tfaflow_method(const struct tfa_status_rec *s, long id)
{
	for (size_t i = 0; s && i < s->nmethods; i++)
		if (s->methods[i].id == id)
			return &s->methods[i];
	return NULL;
}

char *tfaflow_window_text(bool open, double authorized_at, double now, char *buf, size_t n)
{
	double left = acct_window_left(authorized_at, now);
	if (left > 0) {
		char cd[32];
		acct_fmt_countdown(cd, sizeof cd, left);
		snprintf(buf, n, "open, %s left", cd);
	} else if (open) {
		snprintf(buf, n, "open (for up to 30 minutes from its authorization)");
	} else {
		snprintf(buf, n, "closed");
	}
	return buf;
}

char *tfaflow_error_text(const struct api_error *e, const struct tfa_method_rec *m, double now,
			 char *buf, size_t n)
{
	struct tfa_error te;
	api_tfa_error_from_api(e, &te);
	if (m) {
		te.fail_count = m->fail_count;
		te.locked_until = m->locked_until;
	}
	char lock[64] = "";
	bool locked = m && acct_lock_countdown(lock, sizeof lock, m->locked_until, now);
	switch (te.kind) {
	case TFAE_WRONG_CODE:
		if (locked)
			snprintf(buf, n, "Wrong code: the method is now %s.", lock);
		else if (e->msg[0])
			snprintf(buf, n, "Wrong code: %s", e->msg);
		else
			snprintf(buf, n, "Wrong code.");
		return buf;
	case TFAE_LOCKED:
		if (locked) {
			snprintf(buf, n, "Too many wrong codes: %s; no code can be checked until then.",
				 lock);
			return buf;
		}
		snprintf(buf, n, "Too many wrong codes: %s", e->msg[0] ? e->msg : "locked for now.");
		return buf;
	case TFAE_NONE:
	case TFAE_EXPIRED:
	case TFAE_NO_CHALLENGE:
	case TFAE_AUTH_REQUIRED:
	case TFAE_DUPLICATE:
	case TFAE_EMAIL_NOT_VERIFIED:
	case TFAE_SMS_RATE_LIMITED:
	case TFAE_CHALLENGE_EXISTS:
	case TFAE_INVALID_BACKUP:
	case TFAE_PHONE_MISMATCH:
	case TFAE_LABEL_TOO_LONG:
	case TFAE_OTHER:
		break;
	}
	return api_tfa_error_text(&te, now, buf, n);
}

size_t tfaflow_codes_text(const struct tfa_backup_codes *c, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < c->n; i++) {
		size_t l = strlen(c->code[i]);
		if (len + l + 2 > n) {
			explicit_bzero(buf, n);
			return 0;
		}
		memcpy(buf + len, c->code[i], l);
		len += l;
		buf[len++] = '\n';
		buf[len] = '\0';
	}
	return len;
}

bool tfaflow_write_codes(const char *path, const struct tfa_backup_codes *c, char *err, size_t n)
{
	char text[TFA_BACKUP_CODES * 16 + 200];
	int hn = snprintf(text, sizeof text,
			  "# two-factor backup codes: each works once; keep them offline\n");
	size_t len = tfaflow_codes_text(c, text + hn, sizeof text - (size_t)hn);
	if (!len) {
		explicit_bzero(text, sizeof text);
		snprintf(err, n, "no backup codes to write");
		return false;
	}
	len += (size_t)hn;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		explicit_bzero(text, sizeof text);
		return false;
	}
	bool ok = fchmod(fd, 0600) == 0; /* whatever the umask */
	size_t off = 0;
	while (ok && off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			ok = false;
		else
			off += (size_t)w;
	}
	int saved = errno;
	if (ok && fsync(fd) != 0) {
		ok = false;
		saved = errno;
	}
	if (close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	explicit_bzero(text, sizeof text);
	if (!ok) {
		unlink(path);
		snprintf(err, n, "%s: %s", path, strerror(saved));
	}
	return ok;
}

char *tfaflow_codes_path(double now, char *buf, size_t n)
{
	const char *home = getenv("HOME");
	if (!home || !*home) {
		if (n)
			buf[0] = '\0';
		return buf;
	}
	time_t t = (time_t)now;
	struct tm tm;
	localtime_r(&t, &tm);
	char stamp[32];
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, n, "%s/rentop-backup-codes-%s.txt", home, stamp);
	return buf;
}

void *tfaflow_map_status(const json_t *root, struct api_error *e)
{
	struct tfa_status_rec *s = xcalloc(1, sizeof *s);
	if (!json_map_tfa_status(root, s)) {
		json_map_tfa_status_free(s);
		free(s);
		apierr_protocol(e, 200, "2FA status: unexpected answer");
		return NULL;
	}
	return s;
}

void tfaflow_status_free(void *status)
{
	if (status)
		json_map_tfa_status_free(status);
	free(status);
}

int tfaflow_regen_count(int remaining, bool before)
{
	if (remaining < 0)
		return -1;
	if (before)
		return remaining < TFA_BACKUP_CODES ? 0 : -1;
	return remaining >= TFA_BACKUP_CODES ? 1 : 0;
}

void *tfaflow_map_sent(const json_t *root, struct api_error *e)
{
	struct tfaflow_sent *t = xcalloc(1, sizeof *t);
	if (!api_tfa_challenge_secret(root, t->secret, sizeof t->secret)) {
		tfaflow_sent_free(t);
		apierr_protocol(e, 200, "the service sent no challenge");
		return NULL;
	}
	api_tfa_sent_msg(root, t->msg, sizeof t->msg);
	return t;
}

void tfaflow_sent_free(void *sent)
{
	if (sent)
		explicit_bzero(sent, sizeof(struct tfaflow_sent));
	free(sent);
}
