/* tfa.c: the simulator's two-factor authentication.  Owns the account's 2FA
 * state: the methods (TOTP, SMS), the ten backup codes, the SMS and email
 * challenges with their codes and secrets, pending TOTP set-ups, the
 * 30-minute authorize-new-method window, the per-method failure counters and
 * locks, and the session keys handed out by POST /api/v0/tfa/.  It answers
 * every request under /api/v0/tfa/ (SPEC.md "Two-factor authentication" and
 * API-NOTES.md).  TOTP is RFC 6238 through liboath.  Everything random is
 * drawn from a PRNG seeded by --seed, so a run is reproducible, and every
 * time is the simulated clock passed in by the caller.  Nothing here prints:
 * secrets and session keys never reach a log.  Callers hold the simulator's
 * state lock. */
#include "tfa.h"

#include <ctype.h>
#include <liboath/oath.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CODE_TTL        600.0    /* s: SMS/email codes and challenges live 10 min */
#define LOCK_FAILS      5        /* failures that lock a method */
#define LOCK_SECS       900.0    /* s: lock length, 15 min */
#define WINDOW_SECS     1800.0   /* s: authorize-new-method window, 30 min */
#define SESSION_TTL     86400.0  /* s: default session lifetime, 24 h */
#define SESSION_FORGET  604800.0 /* s after expiry when a session key is forgotten */
#define SMS_EXISTS_GAP  60.0     /* s: a new SMS to the same phone within this is refused */
#define SMS_RESEND_GAP  30.0     /* s: resends closer than this are rate limited */
#define EMAIL_RESEND_GAP 30.0    /* s: an email code for a challenge this soon after the last: tfa_challenge_exists */
#define SMS_PER_HOUR    10       /* SMS sends allowed per rolling hour */
#define TOTP_STEP       30       /* s */
#define TOTP_DIGITS     6
#define N_BACKUP        10
#define LABEL_MAX       30       /* characters (UTF-8 code points) */
#define MAX_METHODS     16
#define MAX_CHALLENGES  64
#define MAX_PENDING     8
#define ISSUER          "rentop-sim"

/* Failure counting shared by methods, the email channel and unbound challenges. */
struct lock {
	int fail_count;
	double locked_until; /* epoch s; 0 = not locked */
};

struct method {
	long id;
	char kind[8];             /* "sms" or "totp" */
	char label[LABEL_MAX * 4 + 1]; /* bytes as given; "" = unset */
	bool has_label;
	char phone[24];           /* E.164, sms only */
	char secret[64];          /* base32, totp only */
	bool is_primary;
	struct lock lock;
	double created_at;        /* epoch s */
	double last_used;         /* epoch s; 0 = never */
};

enum ch_purpose {
	CH_CODE,      /* from /tfa/email/ or /tfa/sms/: login, delete, regen, confirm-new */
	CH_AUTHORIZE, /* from authorize-new-method step 1 */
};

struct challenge {
	bool used;                /* slot in use */
	enum ch_purpose purpose;
	char secret[40];          /* hex, handed to the client */
	char channel[8];          /* "sms", "email" or "totp" (authorize with a TOTP method) */
	char code[8];             /* 6 digits; "" for totp */
	char phone[24];           /* sms: where the code went */
	long method_id;           /* the method it belongs to, 0 = none */
	double created_at;        /* epoch s */
	double sent_at;           /* epoch s, last (re)send */
	struct lock lock;         /* used when no method owns the challenge */
};

struct pending_totp {
	bool used;
	char secret[64];          /* base32 */
	double created_at;        /* epoch s */
	struct lock lock;
};

struct backup_code {
	char code[16];            /* "XXXX-XXXX-XXXX" */
	bool used;
	bool deleted;             /* soft-deleted when 2FA is disabled */
};

struct session {
	char key[65];             /* 64 hex */
	double expires_at;        /* epoch s */
};

struct tfa {
	uint64_t seed;
	char *email;
	long user_id;
	bool email_verified;
	bool legacy;
	bool enabled;

	uint64_t rng;             /* PRNG state (splitmix64) */
	uint64_t session_counter;
	long next_method_id;

	struct method methods[MAX_METHODS];
	int n_methods;
	struct backup_code backup[N_BACKUP];
	bool have_backup;
	struct challenge challenges[MAX_CHALLENGES];
	struct pending_totp pending[MAX_PENDING];
	struct lock email_lock;
	double authorized_until;  /* epoch s; 0 = window closed */

	double sms_sends[SMS_PER_HOUR]; /* epoch s of recent SMS sends, ring */
	int sms_ring;

	char last_sms[8];
	char last_email[8];
	char last_email_to[256];  /* the address the last email code went to */

	struct session *sessions;
	size_t n_sessions, cap_sessions;
	double session_ttl;       /* s */

	char *seed_secret;        /* base32 of the seeded TOTP method: computed once in
				   * tfa_new and never written again, so the pointer
				   * tfa_enable_totp returns stays valid and unchanged */
	bool seeded_totp;         /* tfa_enable_totp was called: a reset restores it */
	bool seeded_sms;          /* tfa_enable_sms was called: a reset restores it */
	json_t *issued;           /* every secret handed out (TOTP secrets, backup codes,
				   * session keys, challenge secrets), kept across reset */
	json_t *codes;            /* every SMS/email code sent (short: kept apart) */
	double seeded_at;         /* epoch s, when it was first enabled */
};

/* ---- small helpers ------------------------------------------------------ */

static void *zalloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p) {
		fputs("rentop-sim: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* Record a secret handed out, once. */
static void issue(json_t *ledger, const char *secret)
{
	size_t i;
	json_t *v;
	if (!ledger || !secret || !*secret)
		return;
	json_array_foreach(ledger, i, v)
		if (!strcmp(json_string_value(v), secret))
			return;
	json_array_append_new(ledger, json_string(secret));
}

/* splitmix64 finaliser: a good 64-bit mix of x. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t draw(struct tfa *t)
{
	t->rng += 0x9e3779b97f4a7c15ULL;
	return mix64(t->rng);
}

static void hex_from(struct tfa *t, char *out, size_t nhex)
{
	static const char hexd[] = "0123456789abcdef";
	uint64_t v = 0;
	for (size_t i = 0; i < nhex; i++) {
		if (i % 16 == 0)
			v = draw(t);
		out[i] = hexd[v & 15];
		v >>= 4;
	}
	out[nhex] = '\0';
}

static void six_digits(struct tfa *t, char out[8])
{
	snprintf(out, 8, "%06u", (unsigned)(draw(t) % 1000000u));
}

/* A 20-byte TOTP key from the 64-bit stream `x`, base32 encoded into out. */
static void totp_secret_from(uint64_t x, char *out, size_t outsz)
{
	char raw[20];
	for (size_t i = 0; i < sizeof raw; i++) {
		if (i % 8 == 0)
			x = mix64(x + 0x9e3779b97f4a7c15ULL);
		raw[i] = (char)(x >> (8 * (i % 8)));
	}
	char *b32 = NULL;
	size_t len = 0;
	if (oath_base32_encode(raw, sizeof raw, &b32, &len) != OATH_OK || !b32) {
		fputs("rentop-sim: base32 encoding failed\n", stderr);
		abort();
	}
	snprintf(out, outsz, "%.*s", (int)len, b32);
	free(b32);
}

static json_t *err_json(const char *slug, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *err_json(const char *slug, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return json_pack("{s:b, s:s, s:s}", "success", 0, "error", slug, "msg", msg);
}

static bool reply(struct sim_resp *rs, int status, json_t *j)
{
	rs->status = status;
	rs->json = j;
	rs->raw = NULL;
	rs->raw_len = 0;
	rs->content_type = NULL;
	return true;
}

static bool fail(struct sim_resp *rs, int status, const char *slug, const char *msg)
{
	return reply(rs, status, err_json(slug, "%s", msg));
}

static json_t *time_or_null(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

static const char *body_str(const json_t *body, const char *key)
{
	const json_t *v = body ? json_object_get(body, key) : NULL;
	return json_is_string(v) && json_string_length(v) > 0 ? json_string_value(v) : NULL;
}

/* An integer field given as a JSON integer, a whole real or a numeric string. */
static bool body_long(const json_t *body, const char *key, long *out)
{
	const json_t *v = body ? json_object_get(body, key) : NULL;
	if (json_is_integer(v)) {
		*out = (long)json_integer_value(v);
		return true;
	}
	if (json_is_real(v) && floor(json_real_value(v)) == json_real_value(v)) {
		*out = (long)json_real_value(v);
		return true;
	}
	if (json_is_string(v)) {
		char *end = NULL;
		const char *s = json_string_value(v);
		long x = strtol(s, &end, 10);
		if (end != s && *end == '\0') {
			*out = x;
			return true;
		}
	}
	return false;
}

static bool body_bool(const json_t *body, const char *key, bool *out)
{
	const json_t *v = body ? json_object_get(body, key) : NULL;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return true;
	}
	return false;
}

/* The 6-digit code, given as a string or an integer (zero-padded). */
static const char *body_code(const json_t *body, char buf[16])
{
	const json_t *v = body ? json_object_get(body, "code") : NULL;
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < 1000000) {
		snprintf(buf, 16, "%06lld", (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_string(v) && json_string_length(v) > 0 && json_string_length(v) < 16) {
		size_t j = 0;
		for (const char *s = json_string_value(v); *s && j < 15; s++)
			if (*s != ' ')
				buf[j++] = *s;
		buf[j] = '\0';
		return buf;
	}
	return NULL;
}

/* Number of UTF-8 code points in s. */
static size_t utf8_len(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* E.164: '+', a non-zero digit, then 6 to 14 more digits. */
static bool phone_valid(const char *p)
{
	if (!p || p[0] != '+' || p[1] < '1' || p[1] > '9')
		return false;
	size_t n = 0;
	for (const char *s = p + 1; *s; s++, n++)
		if (!isdigit((unsigned char)*s))
			return false;
	return n >= 7 && n <= 15;
}

static void mask_phone(const char *p, char *out, size_t outsz)
{
	size_t len = strlen(p), j = 0;
	for (size_t i = 0; i < len && j + 1 < outsz; i++)
		out[j++] = (i + 4 < len) ? '*' : p[i];
	out[j] = '\0';
}

/* ---- state lookups -------------------------------------------------------- */

static struct method *method_by_id(struct tfa *t, long id)
{
	for (int i = 0; i < t->n_methods; i++)
		if (t->methods[i].id == id)
			return &t->methods[i];
	return NULL;
}

static struct method *method_by_phone(struct tfa *t, const char *phone)
{
	for (int i = 0; i < t->n_methods; i++)
		if (!strcmp(t->methods[i].kind, "sms") && !strcmp(t->methods[i].phone, phone))
			return &t->methods[i];
	return NULL;
}

/* The single method of a kind, or the primary one when there are several. */
static struct method *method_of_kind(struct tfa *t, const char *kind, bool *ambiguous)
{
	struct method *only = NULL;
	*ambiguous = false;
	for (int i = 0; i < t->n_methods; i++) {
		struct method *m = &t->methods[i];
		if (strcmp(m->kind, kind))
			continue;
		if (m->is_primary)
			return m;
		if (only)
			*ambiguous = true;
		only = only ? only : m;
	}
	return *ambiguous ? NULL : only;
}

static struct challenge *challenge_by_secret(struct tfa *t, const char *secret)
{
	if (!secret)
		return NULL;
	for (int i = 0; i < MAX_CHALLENGES; i++)
		if (t->challenges[i].used && !strcmp(t->challenges[i].secret, secret))
			return &t->challenges[i];
	return NULL;
}

/* A free challenge slot (the oldest one is recycled when all are in use). */
static struct challenge *challenge_new(struct tfa *t, enum ch_purpose purpose, const char *channel, double now)
{
	struct challenge *c = NULL;
	for (int i = 0; i < MAX_CHALLENGES && !c; i++)
		if (!t->challenges[i].used)
			c = &t->challenges[i];
	if (!c) {
		c = &t->challenges[0];
		for (int i = 1; i < MAX_CHALLENGES; i++)
			if (t->challenges[i].created_at < c->created_at)
				c = &t->challenges[i];
	}
	memset(c, 0, sizeof *c);
	c->used = true;
	c->purpose = purpose;
	snprintf(c->channel, sizeof c->channel, "%s", channel);
	hex_from(t, c->secret, 32);
	c->created_at = now;
	issue(t->issued, c->secret);
	return c;
}

static int backup_remaining(const struct tfa *t)
{
	int n = 0;
	if (!t->have_backup)
		return 0;
	for (int i = 0; i < N_BACKUP; i++)
		if (!t->backup[i].used && !t->backup[i].deleted)
			n++;
	return n;
}

static void backup_generate(struct tfa *t)
{
	static const char alpha[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	for (int i = 0; i < N_BACKUP; i++) {
		char *c = t->backup[i].code;
		int k = 0;
		for (int g = 0; g < 3; g++) {
			uint64_t v = draw(t);
			for (int j = 0; j < 4; j++, v >>= 5)
				c[k++] = alpha[v & 31];
			if (g < 2)
				c[k++] = '-';
		}
		c[k] = '\0';
		issue(t->issued, c);
		t->backup[i].used = false;
		t->backup[i].deleted = false;
	}
	t->have_backup = true;
}

static json_t *backup_list(const struct tfa *t)
{
	json_t *a = json_array();
	for (int i = 0; i < N_BACKUP; i++)
		if (t->have_backup && !t->backup[i].used && !t->backup[i].deleted)
			json_array_append_new(a, json_string(t->backup[i].code));
	return a;
}

/* Consume a backup code (case and spaces ignored); false when none matches. */
static bool backup_consume(struct tfa *t, const char *given)
{
	char norm[32];
	size_t j = 0;
	for (const char *s = given; *s && j + 1 < sizeof norm; s++)
		if (*s != ' ')
			norm[j++] = (char)toupper((unsigned char)*s);
	norm[j] = '\0';
	if (!t->have_backup)
		return false;
	for (int i = 0; i < N_BACKUP; i++) {
		struct backup_code *b = &t->backup[i];
		if (!b->used && !b->deleted && !strcmp(b->code, norm)) {
			b->used = true;
			return true;
		}
	}
	return false;
}

static json_t *method_json(const struct tfa *t, const struct method *m)
{
	json_t *j = json_pack("{s:I, s:I, s:s, s:b, s:i}", "id", (json_int_t)m->id,
			      "user_id", (json_int_t)t->user_id, "method", m->kind,
			      "is_primary", m->is_primary, "fail_count", m->lock.fail_count);
	json_object_set_new(j, "label", m->has_label ? json_string(m->label) : json_null());
	if (!strcmp(m->kind, "sms")) {
		char masked[24];
		mask_phone(m->phone, masked, sizeof masked);
		json_object_set_new(j, "phone_number", json_string(masked));
	} else {
		json_object_set_new(j, "phone_number", json_null());
	}
	json_object_set_new(j, "locked_until", time_or_null(m->lock.locked_until));
	json_object_set_new(j, "created_at", json_real(m->created_at));
	json_object_set_new(j, "last_used", time_or_null(m->last_used));
	return j;
}

static void disable_all(struct tfa *t)
{
	t->n_methods = 0;
	t->enabled = false;
	t->legacy = false;
	t->authorized_until = 0;
	for (int i = 0; i < N_BACKUP; i++)
		t->backup[i].deleted = true;
}

static void remove_method(struct tfa *t, struct method *m)
{
	bool was_primary = m->is_primary;
	int idx = (int)(m - t->methods);
	memmove(&t->methods[idx], &t->methods[idx + 1], (size_t)(t->n_methods - idx - 1) * sizeof *m);
	t->n_methods--;
	if (was_primary && t->n_methods > 0)
		t->methods[0].is_primary = true;
}

/* ---- locks and code checks ---------------------------------------------- */

/* 429 tfa_locked while the lock holds; a lapsed lock is cleared. */
static bool lock_blocks(struct lock *l, double now, struct sim_resp *rs)
{
	if (l->locked_until > 0 && l->locked_until > now) {
		json_t *j = err_json("tfa_locked", "Too many failed attempts. Try again in %d minutes.",
				     (int)ceil((l->locked_until - now) / 60.0));
		json_object_set_new(j, "fail_count", json_integer(l->fail_count));
		json_object_set_new(j, "locked_until", json_real(l->locked_until));
		reply(rs, 429, j);
		return true;
	}
	if (l->locked_until > 0) {
		l->locked_until = 0;
		l->fail_count = 0;
	}
	return false;
}

/* Count a wrong code: 400 2fa_verification_failed, or 429 once locked. */
static bool wrong_code(struct lock *l, double now, struct sim_resp *rs)
{
	l->fail_count++;
	if (l->fail_count >= LOCK_FAILS) {
		l->locked_until = now + LOCK_SECS;
		return lock_blocks(l, now, rs);
	}
	json_t *j = err_json("2fa_verification_failed", "Invalid verification code. %d attempts left.",
			     LOCK_FAILS - l->fail_count);
	json_object_set_new(j, "fail_count", json_integer(l->fail_count));
	json_object_set_new(j, "locked_until", json_null());
	return reply(rs, 400, j);
}

static bool totp_ok(const char *b32, const char *code, double now)
{
	char *key = NULL;
	size_t keylen = 0;
	if (strlen(code) != TOTP_DIGITS || oath_base32_decode(b32, strlen(b32), &key, &keylen) != OATH_OK)
		return false;
	int rc = oath_totp_validate(key, keylen, (time_t)floor(now), TOTP_STEP, 0, 1, code);
	free(key);
	return rc >= 0;
}

/* Check the challenge's age; an expired one is dropped with 400 2fa_expired. */
static bool challenge_expired(struct challenge *c, double now, struct sim_resp *rs)
{
	if (now - c->sent_at > CODE_TTL) {
		c->used = false;
		fail(rs, 400, "2fa_expired", "The verification code has expired. Request a new one.");
		return true;
	}
	return false;
}

/* Verify the body's tfa_method/code/secret/tfa_method_id against the account's
 * methods (for login, removal and backup-code regeneration).  On success
 * returns true and sets *used (NULL when the email channel verified); on
 * failure fills rs and returns false. */
static bool verify_code(struct tfa *t, const struct sim_req *rq, const json_t *body,
			struct sim_resp *rs, struct method **used)
{
	const char *kind = body_str(body, "tfa_method");
	char codebuf[16];
	const char *code = body_code(body, codebuf);
	const char *secret = body_str(body, "secret");
	long mid = 0;
	bool have_mid = body_long(body, "tfa_method_id", &mid);
	*used = NULL;
	if (!kind)
		kind = "sms";
	if (!code)
		return fail(rs, 400, "missing_input", "code is required"), false;

	if (!strcmp(kind, "totp")) {
		struct method *m;
		if (have_mid) {
			m = method_by_id(t, mid);
			if (!m || strcmp(m->kind, "totp"))
				return fail(rs, 404, "method_not_found", "No such TOTP method"), false;
		} else {
			bool amb;
			m = method_of_kind(t, "totp", &amb);
			if (amb)
				return fail(rs, 400, "missing_input",
					    "tfa_method_id is required when several TOTP methods exist"), false;
			if (!m)
				return fail(rs, 404, "method_not_found", "No TOTP method on this account"), false;
		}
		if (lock_blocks(&m->lock, rq->now, rs))
			return false;
		if (!totp_ok(m->secret, code, rq->now)) {
			wrong_code(&m->lock, rq->now, rs);
			return false;
		}
		m->lock.fail_count = 0;
		m->last_used = rq->now;
		*used = m;
		return true;
	}
	if (strcmp(kind, "sms") && strcmp(kind, "email"))
		return fail(rs, 400, "invalid_args", "tfa_method must be sms, totp or email"), false;
	if (!secret)
		return fail(rs, 400, "missing_input",
			    "secret is required for sms and email codes (tfa_method defaults to sms)"), false;
	struct challenge *c = challenge_by_secret(t, secret);
	if (!c || c->purpose != CH_CODE || strcmp(c->channel, kind))
		return fail(rs, 404, "challenge_not_found", "No such verification challenge"), false;
	if (challenge_expired(c, rq->now, rs))
		return false;
	struct method *m = NULL;
	struct lock *l = &t->email_lock;
	if (!strcmp(kind, "sms")) {
		m = have_mid ? method_by_id(t, mid) : (c->method_id ? method_by_id(t, c->method_id) : method_by_phone(t, c->phone));
		if (!m || strcmp(m->kind, "sms") || strcmp(m->phone, c->phone))
			return fail(rs, 404, "method_not_found", "This code was not sent to an SMS method of the account"), false;
		l = &m->lock;
	}
	if (lock_blocks(l, rq->now, rs))
		return false;
	if (strcmp(c->code, code)) {
		wrong_code(l, rq->now, rs);
		return false;
	}
	l->fail_count = 0;
	c->used = false;
	if (m)
		m->last_used = rq->now;
	*used = m;
	return true;
}

/* ---- sending codes ------------------------------------------------------- */

static bool sms_rate_ok(struct tfa *t, double now, struct sim_resp *rs)
{
	int recent = 0;
	for (int i = 0; i < SMS_PER_HOUR; i++)
		if (t->sms_sends[i] > 0 && now - t->sms_sends[i] < 3600.0)
			recent++;
	if (recent >= SMS_PER_HOUR) {
		fail(rs, 429, "sms_rate_limited", "Too many SMS messages sent. Try again later.");
		return false;
	}
	return true;
}

static void sms_send(struct tfa *t, struct challenge *c, double now)
{
	six_digits(t, c->code);
	c->sent_at = now;
	snprintf(t->last_sms, sizeof t->last_sms, "%s", c->code);
	issue(t->codes, c->code);
	t->sms_sends[t->sms_ring] = now;
	t->sms_ring = (t->sms_ring + 1) % SMS_PER_HOUR;
}

static void email_send(struct tfa *t, struct challenge *c, double now)
{
	six_digits(t, c->code);
	c->sent_at = now;
	snprintf(t->last_email, sizeof t->last_email, "%s", c->code);
	snprintf(t->last_email_to, sizeof t->last_email_to, "%s", t->email);
	issue(t->codes, c->code);
}

static void masked_email(const struct tfa *t, char *out, size_t n)
{
	const char *at = strchr(t->email, '@');
	if (!at || at == t->email)
		snprintf(out, n, "your email address");
	else
		snprintf(out, n, "%c***%s", t->email[0], at);
}

static bool has_bearer(const struct sim_req *rq)
{
	return rq->key == KEY_FULL || rq->key == KEY_SESSION;
}

/* ---- endpoints ------------------------------------------------------------ */

static json_t *status_json(struct tfa *t, double now)
{
	json_t *methods = json_array();
	for (int i = 0; i < t->n_methods; i++)
		json_array_append_new(methods, method_json(t, &t->methods[i]));
	return json_pack("{s:b, s:b, s:s, s:o, s:i, s:b}", "success", 1, "tfa_enabled", t->enabled,
			 "tfa_status", tfa_status_string(t), "methods", methods,
			 "backup_codes_remaining", backup_remaining(t),
			 "new_method_authorized", t->authorized_until > now);
}

static void session_add(struct tfa *t, double now, char out[65])
{
	static const char hexd[] = "0123456789abcdef";
	uint64_t base = mix64(t->seed ^ 0x5e55105e55105e55ULL) + (++t->session_counter) * 4;
	for (int w = 0; w < 4; w++) {
		uint64_t v = mix64(base + (uint64_t)w);
		for (int i = 0; i < 16; i++, v >>= 4)
			out[w * 16 + i] = hexd[v & 15];
	}
	out[64] = '\0';
	/* Drop sessions expired for over a week (until then they answer "expired"). */
	size_t keep = 0;
	for (size_t i = 0; i < t->n_sessions; i++)
		if (t->sessions[i].expires_at + SESSION_FORGET > now)
			t->sessions[keep++] = t->sessions[i];
	t->n_sessions = keep;
	if (t->n_sessions == t->cap_sessions) {
		size_t cap = t->cap_sessions ? t->cap_sessions * 2 : 8;
		struct session *s = realloc(t->sessions, cap * sizeof *s);
		if (!s) {
			fputs("rentop-sim: out of memory\n", stderr);
			abort();
		}
		t->sessions = s;
		t->cap_sessions = cap;
	}
	struct session *s = &t->sessions[t->n_sessions++];
	memcpy(s->key, out, 65);
	issue(t->issued, out);
	s->expires_at = now + t->session_ttl;
}

static json_t *login_reply(struct tfa *t, const struct sim_req *rq)
{
	json_t *j = json_pack("{s:b, s:I, s:s, s:s, s:b}", "success", 1, "id", (json_int_t)t->user_id,
			      "email", t->email, "tfa_status", tfa_status_string(t),
			      "email_verified", t->email_verified);
	if (has_bearer(rq)) {
		char key[65];
		session_add(t, rq->now, key);
		json_object_set_new(j, "session_key", json_string(key));
	}
	if (t->legacy)
		json_object_set_new(j, "legacy_tfa_user", json_true());
	return j;
}

/* POST /api/v0/tfa/: complete a login with a code or a backup code. */
static bool do_login(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	if (!t->enabled)
		return fail(rs, 400, "tfa_not_enabled", "Two Factor Authentication is not enabled for this account");
	const char *bc = body_str(body, "backup_code");
	if (bc) {
		if (!backup_consume(t, bc))
			return fail(rs, 401, "invalid_backup_code", "Invalid or already used backup code");
		json_t *j = login_reply(t, rq);
		int left = backup_remaining(t);
		if (left > 0)
			json_object_set_new(j, "backup_codes_remaining", json_integer(left));
		return reply(rs, 200, j);
	}
	struct method *m;
	if (!verify_code(t, rq, body, rs, &m))
		return true;
	return reply(rs, 200, login_reply(t, rq));
}

/* DELETE /api/v0/tfa/: remove one method (or all, for legacy accounts). */
static bool do_remove(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	if (!t->enabled)
		return fail(rs, 400, "tfa_not_enabled", "Two Factor Authentication is not enabled for this account");
	long target = 0;
	bool have_target = body_long(body, "target_id", &target);
	const char *bc = body_str(body, "backup_code");
	struct method *verifier = NULL;
	if (bc) {
		if (!have_target && !t->legacy)
			return fail(rs, 400, "missing_input", "target_id is required with backup_code");
		if (!backup_consume(t, bc))
			return fail(rs, 401, "invalid_backup_code", "Invalid or already used backup code");
	} else if (!verify_code(t, rq, body, rs, &verifier)) {
		return true;
	}
	if (t->legacy) {
		disable_all(t);
		return reply(rs, 200, json_pack("{s:b, s:s}", "success", 1, "msg", "2FA Successfully Disabled"));
	}
	struct method *m = have_target ? method_by_id(t, target) : verifier;
	if (!m) {
		if (!have_target)
			return fail(rs, 400, "missing_input", "target_id is required when verifying by email");
		return fail(rs, 404, "method_not_found", "No such 2FA method");
	}
	remove_method(t, m);
	if (t->n_methods == 0) {
		disable_all(t);
		return reply(rs, 200, json_pack("{s:b, s:s, s:i}", "success", 1, "msg", "2FA Successfully Disabled",
						 "remaining_methods", 0));
	}
	return reply(rs, 200, json_pack("{s:b, s:s, s:i}", "success", 1, "msg", "2FA method removed",
					 "remaining_methods", t->n_methods));
}

static bool need_verified_email(struct tfa *t, struct sim_resp *rs)
{
	if (!t->email_verified) {
		fail(rs, 403, "email_not_verified", "Verify your email address before using 2FA codes");
		return false;
	}
	return true;
}

/* POST /api/v0/tfa/email/: send a code to the account's verified email. */
static bool do_email(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	const char *secret = body_str(body, "secret");
	if (!need_verified_email(t, rs))
		return true;
	struct challenge *c;
	if (secret) {
		c = challenge_by_secret(t, secret);
		if (!c || strcmp(c->channel, "email"))
			return fail(rs, 404, "challenge_not_found", "No such verification challenge");
		/* a code that went out moments ago is not sent again */
		if (c->sent_at > 0 && rq->now - c->sent_at < EMAIL_RESEND_GAP)
			return fail(rs, 400, "tfa_challenge_exists",
				    "A code was sent to your email moments ago; wait before asking for another");
	} else if (!has_bearer(rq)) {
		return fail(rs, 400, "missing_input", "secret is required without a bearer key");
	} else {
		c = challenge_new(t, CH_CODE, "email", rq->now);
	}
	email_send(t, c, rq->now);
	char where[160];
	masked_email(t, where, sizeof where);
	char msg[200];
	snprintf(msg, sizeof msg, "Verification code sent to %s", where);
	return reply(rs, 200, json_pack("{s:b, s:s, s:s}", "success", 1, "msg", msg, "secret", c->secret));
}

/* Where an SMS goes: the method given, else the body's phone, else the account's number. */
static bool sms_target(struct tfa *t, const json_t *body, struct sim_resp *rs, const char **phone, long *mid_out)
{
	long mid = 0;
	const char *p = body_str(body, "phone_number");
	*mid_out = 0;
	if (body_long(body, "tfa_method_id", &mid)) {
		struct method *m = method_by_id(t, mid);
		if (!m || strcmp(m->kind, "sms"))
			return fail(rs, 404, "method_not_found", "No such SMS method"), false;
		if (p && strcmp(p, m->phone))
			return fail(rs, 400, "phone_number_mismatch", "phone_number does not match the method"), false;
		*phone = m->phone;
		*mid_out = m->id;
		return true;
	}
	if (p) {
		if (!phone_valid(p))
			return fail(rs, 400, "invalid_phone_number", "phone_number must be in E.164 form (+15551234567)"), false;
		struct method *m = method_by_phone(t, p);
		*phone = p;
		*mid_out = m ? m->id : 0;
		return true;
	}
	bool amb;
	struct method *m = method_of_kind(t, "sms", &amb);
	if (!m)
		return fail(rs, 400, "missing_input",
			    amb ? "tfa_method_id is required when several SMS methods exist"
				: "phone_number is required: no phone number on the account"), false;
	*phone = m->phone;
	*mid_out = m->id;
	return true;
}

/* POST /api/v0/tfa/sms/: send a fresh SMS code. */
static bool do_sms(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	const char *secret = body_str(body, "secret");
	const char *phone;
	long mid;
	if (!has_bearer(rq) && !secret)
		return fail(rs, 400, "missing_input", "secret is required without a bearer key");
	if (!need_verified_email(t, rs) || !sms_target(t, body, rs, &phone, &mid))
		return true;
	struct challenge *c = NULL;
	if (secret) {
		c = challenge_by_secret(t, secret);
		if (!c || strcmp(c->channel, "sms"))
			return fail(rs, 404, "challenge_not_found", "No such verification challenge");
	}
	for (int i = 0; i < MAX_CHALLENGES; i++) {
		struct challenge *o = &t->challenges[i];
		if (o->used && !strcmp(o->channel, "sms") && !strcmp(o->phone, phone) &&
		    o->sent_at > 0 && rq->now - o->sent_at < SMS_EXISTS_GAP)
			return fail(rs, 400, "tfa_challenge_exists",
				    "A code was sent recently; use /api/v0/tfa/sms/resend/");
	}
	if (!sms_rate_ok(t, rq->now, rs))
		return true;
	if (!c)
		c = challenge_new(t, CH_CODE, "sms", rq->now);
	snprintf(c->phone, sizeof c->phone, "%s", phone);
	c->method_id = mid;
	sms_send(t, c, rq->now);
	return reply(rs, 200, json_pack("{s:b, s:s, s:s}", "success", 1, "msg", "SMS sent", "secret", c->secret));
}

/* POST /api/v0/tfa/sms/resend/: send a new code for an existing SMS challenge. */
static bool do_sms_resend(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	const char *secret = body_str(body, "secret");
	const char *phone;
	long mid;
	if (!has_bearer(rq) && !secret)
		return fail(rs, 400, "missing_input", "secret is required without a bearer key");
	if (!need_verified_email(t, rs))
		return true;
	struct challenge *c = NULL;
	if (secret) {
		c = challenge_by_secret(t, secret);
		if (!c || strcmp(c->channel, "sms"))
			return fail(rs, 404, "challenge_not_found", "No such verification challenge");
		long given_mid = 0;
		const char *p = body_str(body, "phone_number");
		if (body_long(body, "tfa_method_id", &given_mid)) {
			struct method *m = method_by_id(t, given_mid);
			if (!m || strcmp(m->kind, "sms"))
				return fail(rs, 404, "method_not_found", "No such SMS method");
			if (strcmp(m->phone, c->phone))
				return fail(rs, 400, "phone_number_mismatch", "The method's number differs from the original");
		} else if (p && strcmp(p, c->phone)) {
			return fail(rs, 400, "phone_number_mismatch", "phone_number does not match the original request");
		}
		if (rq->now - c->sent_at < SMS_RESEND_GAP)
			return fail(rs, 429, "sms_rate_limited", "Wait a little before requesting another SMS");
	} else {
		if (!sms_target(t, body, rs, &phone, &mid))
			return true;
		c = challenge_new(t, CH_CODE, "sms", rq->now);
		snprintf(c->phone, sizeof c->phone, "%s", phone);
		c->method_id = mid;
	}
	if (!sms_rate_ok(t, rq->now, rs))
		return true;
	sms_send(t, c, rq->now);
	return reply(rs, 200, json_pack("{s:b, s:s, s:s}", "success", 1, "msg", "SMS resent", "secret", c->secret));
}

/* POST /api/v0/tfa/totp-setup/: a fresh secret and its otpauth:// URI. */
static bool do_totp_setup(struct tfa *t, const struct sim_req *rq, struct sim_resp *rs)
{
	struct pending_totp *p = NULL;
	for (int i = 0; i < MAX_PENDING && !p; i++)
		if (!t->pending[i].used)
			p = &t->pending[i];
	if (!p) {
		p = &t->pending[0];
		for (int i = 1; i < MAX_PENDING; i++)
			if (t->pending[i].created_at < p->created_at)
				p = &t->pending[i];
	}
	memset(p, 0, sizeof *p);
	p->used = true;
	p->created_at = rq->now;
	totp_secret_from(draw(t), p->secret, sizeof p->secret);
	issue(t->issued, p->secret);

	/* The account part is percent-encoded (RFC 3986 unreserved kept). */
	char account[512];
	size_t j = 0;
	for (const unsigned char *s = (const unsigned char *)t->email; *s && j + 4 < sizeof account; s++) {
		if (isalnum(*s) || strchr("-._~", *s))
			account[j++] = (char)*s;
		else
			j += (size_t)snprintf(account + j, sizeof account - j, "%%%02X", *s);
	}
	account[j] = '\0';
	char uri[768];
	snprintf(uri, sizeof uri, "otpauth://totp/%s:%s?secret=%s&issuer=%s", ISSUER, account, p->secret, ISSUER);
	return reply(rs, 200, json_pack("{s:b, s:s, s:s}", "success", 1, "secret", p->secret, "provisioning_uri", uri));
}

/* Open the 30-minute window. */
static bool authorized(struct tfa *t, double now, struct sim_resp *rs, const char *msg)
{
	t->authorized_until = now + WINDOW_SECS;
	return reply(rs, 200, json_pack("{s:b, s:s, s:f}", "success", 1, "msg", msg,
					"authorized_until", t->authorized_until));
}

/* POST /api/v0/tfa/authorize-new-method/ (step 1): a challenge or a backup code. */
static bool do_authorize_start(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	const char *bc = body_str(body, "backup_code");
	if (bc) {
		if (!backup_consume(t, bc))
			return fail(rs, 401, "invalid_backup_code", "Invalid or already used backup code");
		return authorized(t, rq->now, rs, "Authorized with a backup code: you may add a new method for 30 minutes");
	}
	const char *kind = body_str(body, "tfa_method");
	long mid = 0;
	bool have_mid = body_long(body, "tfa_method_id", &mid);
	if (t->n_methods == 0)
		kind = "email";
	if (!kind)
		kind = have_mid && method_by_id(t, mid) ? method_by_id(t, mid)->kind : "sms";
	if (!strcmp(kind, "email")) {
		/* The challenge only: its code goes out through POST /tfa/email/
		 * {"secret"} (the endpoint that sends email codes). */
		if (!need_verified_email(t, rs))
			return true;
		struct challenge *c = challenge_new(t, CH_AUTHORIZE, "email", rq->now);
		return reply(rs, 200, json_pack("{s:b, s:s, s:s}", "success", 1, "tfa_method", "email",
						"secret", c->secret));
	}
	if (strcmp(kind, "sms") && strcmp(kind, "totp"))
		return fail(rs, 400, "invalid_args", "tfa_method must be sms, totp or email");
	struct method *m;
	if (have_mid) {
		m = method_by_id(t, mid);
		if (!m || strcmp(m->kind, kind))
			return fail(rs, 404, "method_not_found", "No such 2FA method");
	} else {
		bool amb;
		m = method_of_kind(t, kind, &amb);
		if (!m)
			return fail(rs, amb ? 400 : 404, amb ? "missing_input" : "method_not_found",
				    amb ? "tfa_method_id is required when several methods of this type exist"
					: "No method of this type on the account");
	}
	if (lock_blocks(&m->lock, rq->now, rs))
		return true;
	struct challenge *c;
	if (!strcmp(kind, "sms")) {
		if (!need_verified_email(t, rs) || !sms_rate_ok(t, rq->now, rs))
			return true;
		c = challenge_new(t, CH_AUTHORIZE, "sms", rq->now);
		snprintf(c->phone, sizeof c->phone, "%s", m->phone);
		sms_send(t, c, rq->now);
	} else {
		c = challenge_new(t, CH_AUTHORIZE, "totp", rq->now);
		c->sent_at = rq->now;
	}
	c->method_id = m->id;
	return reply(rs, 200, json_pack("{s:b, s:s, s:I, s:s}", "success", 1, "tfa_method", kind,
					"tfa_method_id", (json_int_t)m->id, "secret", c->secret));
}

/* PUT /api/v0/tfa/authorize-new-method/ (step 2): verify and open the window. */
static bool do_authorize_finish(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	char codebuf[16];
	const char *code = body_code(body, codebuf);
	const char *secret = body_str(body, "secret");
	if (!code || !secret)
		return fail(rs, 400, "missing_input", "code and secret are required");
	struct challenge *c = challenge_by_secret(t, secret);
	if (!c || c->purpose != CH_AUTHORIZE)
		return fail(rs, 400, "no_pending_authorization", "No pending authorization for this secret; start again");
	if (!strcmp(c->channel, "email") && c->sent_at <= 0)
		return fail(rs, 400, "no_pending_authorization",
			    "No code was sent for this authorization yet: POST /api/v0/tfa/email/ with its secret");
	if (challenge_expired(c, rq->now, rs))
		return true;
	struct method *m = c->method_id ? method_by_id(t, c->method_id) : NULL;
	if (c->method_id && !m) {
		c->used = false;
		return fail(rs, 400, "no_pending_authorization", "The method of this authorization was removed");
	}
	struct lock *l = m ? &m->lock : &t->email_lock;
	if (lock_blocks(l, rq->now, rs))
		return true;
	bool ok = !strcmp(c->channel, "totp") ? totp_ok(m->secret, code, rq->now) : !strcmp(c->code, code);
	if (!ok)
		return wrong_code(l, rq->now, rs);
	l->fail_count = 0;
	if (m)
		m->last_used = rq->now;
	c->used = false;
	return authorized(t, rq->now, rs, "New method authorized for 30 minutes");
}

/* POST /api/v0/tfa/confirm-new/: verify and add a TOTP or SMS method.  Every
 * method, the first too, needs the 30-minute window (for the first one it is
 * opened by the email code: authorize-new-method is forced to email).  The
 * official CLI's /tfa/test-submit/ (cli) activates a first method without it:
 * the CLI has no authorize command and documents totp-setup + activate as the
 * way to turn 2FA on. */
static bool do_confirm_new(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs,
			   bool cli)
{
	const char *kind = body_str(body, "tfa_method");
	const char *secret = body_str(body, "secret");
	const char *label = body_str(body, "label");
	char codebuf[16];
	const char *code = body_code(body, codebuf);
	if (!secret || !code)
		return fail(rs, 400, "missing_input", "code and secret are required");
	/* The official CLI sends tfa_method "totp" with an SMS secret and a
	 * phone_number unless --sms is given: an SMS challenge's secret decides. */
	const struct challenge *sc = challenge_by_secret(t, secret);
	if (sc && !strcmp(sc->channel, "sms"))
		kind = "sms";
	if (!kind)
		kind = body_str(body, "phone_number") ? "sms" : "totp";
	if (strcmp(kind, "totp") && strcmp(kind, "sms"))
		return fail(rs, 400, "invalid_args", "tfa_method must be sms or totp");
	if (label && utf8_len(label) > LABEL_MAX)
		return fail(rs, 400, "label_too_long", "label must be at most 30 characters");
	if (!(t->authorized_until > rq->now) && (t->n_methods > 0 || !cli))
		return fail(rs, 403, "authorization_required",
			    t->n_methods > 0
				    ? "Authorize with an existing method (authorize-new-method) before adding another"
				    : "Authorize with a code sent to your email (authorize-new-method) before adding the first method");
	if (t->n_methods >= MAX_METHODS)
		return fail(rs, 400, "too_many_methods", "Too many 2FA methods");

	struct method nm;
	memset(&nm, 0, sizeof nm);
	snprintf(nm.kind, sizeof nm.kind, "%s", kind);
	if (!strcmp(kind, "totp")) {
		struct pending_totp *p = NULL;
		for (int i = 0; i < MAX_PENDING && !p; i++)
			if (t->pending[i].used && !strcmp(t->pending[i].secret, secret))
				p = &t->pending[i];
		for (int i = 0; i < t->n_methods; i++)
			if (!strcmp(t->methods[i].kind, "totp") && !strcmp(t->methods[i].secret, secret))
				return fail(rs, 400, "duplicate_tfa_method", "This TOTP secret is already a method");
		if (!p)
			return fail(rs, 404, "challenge_not_found", "Unknown TOTP secret; call totp-setup first");
		if (lock_blocks(&p->lock, rq->now, rs))
			return true;
		if (!totp_ok(p->secret, code, rq->now))
			return wrong_code(&p->lock, rq->now, rs);
		snprintf(nm.secret, sizeof nm.secret, "%s", p->secret);
		p->used = false;
	} else {
		struct challenge *c = challenge_by_secret(t, secret);
		const char *p = body_str(body, "phone_number");
		if (!c || c->purpose != CH_CODE || strcmp(c->channel, "sms"))
			return fail(rs, 404, "challenge_not_found", "No such SMS challenge");
		if (p && strcmp(p, c->phone))
			return fail(rs, 400, "phone_number_mismatch", "phone_number does not match the SMS sent");
		if (method_by_phone(t, c->phone))
			return fail(rs, 400, "duplicate_tfa_method", "This phone number is already a method");
		if (challenge_expired(c, rq->now, rs))
			return true;
		if (lock_blocks(&c->lock, rq->now, rs))
			return true;
		if (strcmp(c->code, code))
			return wrong_code(&c->lock, rq->now, rs);
		snprintf(nm.phone, sizeof nm.phone, "%s", c->phone);
		c->used = false;
	}
	bool first = t->n_methods == 0;
	nm.id = t->next_method_id++;
	nm.is_primary = first;
	nm.created_at = rq->now;
	nm.last_used = rq->now;
	if (label) {
		snprintf(nm.label, sizeof nm.label, "%s", label);
		nm.has_label = true;
	}
	t->methods[t->n_methods++] = nm;
	json_t *j = json_pack("{s:b, s:s, s:o}", "success", 1, "msg",
			      !strcmp(kind, "totp") ? "TOTP method added successfully" : "SMS method added successfully",
			      "method", method_json(t, &t->methods[t->n_methods - 1]));
	if (first) {
		/* the email code's window ends with the first method: any further
		 * method is authorized with a method (or a backup code) */
		t->authorized_until = 0;
		t->enabled = true;
		backup_generate(t);
		json_object_set_new(j, "backup_codes", backup_list(t));
	}
	return reply(rs, 200, j);
}

/* PUT /api/v0/tfa/update/: change a method's label or make it primary. */
static bool do_update(struct tfa *t, const json_t *body, struct sim_resp *rs)
{
	long mid;
	if (!body_long(body, "tfa_method_id", &mid))
		return fail(rs, 400, "missing_input", "tfa_method_id is required");
	struct method *m = method_by_id(t, mid);
	if (!m)
		return fail(rs, 404, "method_not_found", "No such 2FA method");
	const json_t *lv = json_object_get(body, "label");
	bool primary;
	bool have_primary = body_bool(body, "is_primary", &primary);
	if (lv && !json_is_string(lv) && !json_is_null(lv))
		return fail(rs, 400, "invalid_args", "label must be a string");
	if (json_is_string(lv) && utf8_len(json_string_value(lv)) > LABEL_MAX)
		return fail(rs, 400, "label_too_long", "label must be at most 30 characters");
	if (json_is_string(lv)) {
		snprintf(m->label, sizeof m->label, "%s", json_string_value(lv));
		m->has_label = json_string_length(lv) > 0;
	} else if (json_is_null(lv)) {
		m->label[0] = '\0';
		m->has_label = false;
	}
	if (have_primary && primary)
		for (int i = 0; i < t->n_methods; i++)
			t->methods[i].is_primary = &t->methods[i] == m;
	else if (have_primary)
		m->is_primary = false;
	return reply(rs, 200, json_pack("{s:b, s:o}", "success", 1, "method", method_json(t, m)));
}

/* PUT /api/v0/tfa/regen-backup-codes/: verify a code, then ten new backup codes. */
static bool do_regen(struct tfa *t, const struct sim_req *rq, const json_t *body, struct sim_resp *rs)
{
	if (!t->enabled)
		return fail(rs, 400, "tfa_not_enabled", "Two Factor Authentication is not enabled for this account");
	const char *bc = body_str(body, "backup_code");
	struct method *m;
	if (bc) {
		if (!backup_consume(t, bc))
			return fail(rs, 401, "invalid_backup_code", "Invalid or already used backup code");
	} else if (!verify_code(t, rq, body, rs, &m)) {
		return true;
	}
	backup_generate(t);
	return reply(rs, 200, json_pack("{s:b, s:s, s:o}", "success", 1, "msg", "success", "backup_codes", backup_list(t)));
}

/* ---- public interface ------------------------------------------------------ */

struct tfa *tfa_new(uint64_t seed, const char *email)
{
	oath_init();
	struct tfa *t = zalloc(sizeof *t);
	t->seed = seed;
	size_t n = strlen(email ? email : "") + 1;
	t->email = zalloc(n);
	memcpy(t->email, email ? email : "", n);
	t->user_id = 0;
	t->seed_secret = zalloc(64);
	totp_secret_from(mix64(seed ^ 0x70705ec7e7ULL), t->seed_secret, 64);
	t->issued = json_array();
	t->codes = json_array();
	issue(t->issued, t->seed_secret);
	tfa_reset(t);
	return t;
}

void tfa_free(struct tfa *t)
{
	if (!t)
		return;
	free(t->sessions);
	free(t->email);
	free(t->seed_secret);
	json_decref(t->issued);
	json_decref(t->codes);
	free(t);
	oath_done();
}

void tfa_reset(struct tfa *t)
{
	char *email = t->email;
	uint64_t seed = t->seed;
	long uid = t->user_id;
	char *seed_secret = t->seed_secret;
	bool seeded = t->seeded_totp, seeded_sms = t->seeded_sms;
	double seeded_at = t->seeded_at;
	struct session *sessions = t->sessions;
	json_t *issued = t->issued, *codes = t->codes;
	memset(t, 0, sizeof *t);
	t->issued = issued;
	t->codes = codes;
	t->email = email;
	t->seed = seed;
	t->user_id = uid;
	t->seed_secret = seed_secret;
	free(sessions);
	t->rng = mix64(seed ^ 0x7fa1c0de2fa2fa00ULL);
	t->next_method_id = 1001 + (long)(mix64(seed) % 8000);
	t->email_verified = true;
	t->session_ttl = SESSION_TTL;
	if (seeded)
		tfa_enable_totp(t, seeded_at);
	if (seeded_sms)
		tfa_enable_sms(t, seeded_at);
}

const char *tfa_enable_totp(struct tfa *t, double now)
{
	if (!t->seeded_totp) {
		t->seeded_totp = true;
		t->seeded_at = now;
	}
	for (int i = 0; i < t->n_methods; i++)
		if (!strcmp(t->methods[i].kind, "totp") && !strcmp(t->methods[i].secret, t->seed_secret))
			return t->seed_secret;
	if (t->n_methods < MAX_METHODS) {
		struct method *m = &t->methods[t->n_methods++];
		memset(m, 0, sizeof *m);
		m->id = t->next_method_id++;
		snprintf(m->kind, sizeof m->kind, "totp");
		snprintf(m->secret, sizeof m->secret, "%s", t->seed_secret);
		snprintf(m->label, sizeof m->label, "Authenticator");
		m->has_label = true;
		m->is_primary = t->n_methods == 1;
		m->created_at = now;
		m->last_used = now;
	}
	if (!t->enabled) {
		t->enabled = true;
		backup_generate(t);
	}
	return t->seed_secret;
}

const char *tfa_enable_sms(struct tfa *t, double now)
{
	if (!t->seeded_sms) {
		t->seeded_sms = true;
		t->seeded_at = now;
	}
	char phone[24];
	snprintf(phone, sizeof phone, "+1555010%04u", (unsigned)(mix64(t->seed ^ 0x5e5e0123ULL) % 10000));
	struct method *m = method_by_phone(t, phone);
	if (!m && t->n_methods < MAX_METHODS) {
		m = &t->methods[t->n_methods++];
		memset(m, 0, sizeof *m);
		m->id = t->next_method_id++;
		snprintf(m->kind, sizeof m->kind, "sms");
		snprintf(m->phone, sizeof m->phone, "%s", phone);
		snprintf(m->label, sizeof m->label, "Phone");
		m->has_label = true;
		m->is_primary = t->n_methods == 1;
		m->created_at = now;
		m->last_used = now;
	}
	if (!t->enabled) {
		t->enabled = true;
		backup_generate(t);
	}
	return m ? m->phone : NULL;
}

enum tfa_session tfa_session_check(struct tfa *t, const char *key, double now)
{
	if (!key)
		return TFA_SESSION_UNKNOWN;
	for (size_t i = 0; i < t->n_sessions; i++)
		if (!strcmp(t->sessions[i].key, key))
			return now < t->sessions[i].expires_at ? TFA_SESSION_VALID : TFA_SESSION_EXPIRED;
	return TFA_SESSION_UNKNOWN;
}

bool tfa_is_enabled(const struct tfa *t)
{
	return t->enabled;
}

const char *tfa_status_string(const struct tfa *t)
{
	if (!t->enabled)
		return "disabled";
	return t->legacy ? "legacy" : "enabled";
}

const char *tfa_last_email_to(const struct tfa *t)
{
	return t->last_email_to[0] ? t->last_email_to : NULL;
}

const char *tfa_last_code(const struct tfa *t, const char *channel)
{
	const char *c = NULL;
	if (channel && !strcmp(channel, "sms"))
		c = t->last_sms;
	else if (channel && !strcmp(channel, "email"))
		c = t->last_email;
	return c && c[0] ? c : NULL;
}

json_t *tfa_debug_json(const struct tfa *t)
{
	json_t *methods = json_array();
	for (int i = 0; i < t->n_methods; i++) {
		const struct method *m = &t->methods[i];
		json_t *j = method_json(t, m);
		if (!strcmp(m->kind, "totp"))
			json_object_set_new(j, "secret", json_string(m->secret));
		else
			json_object_set_new(j, "phone_number_full", json_string(m->phone));
		json_array_append_new(methods, j);
	}
	int live = 0;
	for (int i = 0; i < MAX_CHALLENGES; i++)
		live += t->challenges[i].used;
	json_t *j = json_pack("{s:b, s:s, s:b, s:o, s:o, s:i, s:i, s:I}", "enabled", t->enabled, "status",
			      tfa_status_string(t), "email_verified", t->email_verified, "methods", methods,
			      "backup_codes", backup_list(t), "backup_codes_remaining", backup_remaining(t),
			      "challenges", live, "sessions", (json_int_t)t->n_sessions);
	json_object_set_new(j, "authorized_until", time_or_null(t->authorized_until));
	json_object_set_new(j, "email_locked_until", time_or_null(t->email_lock.locked_until));
	json_object_set_new(j, "last_sms_code", t->last_sms[0] ? json_string(t->last_sms) : json_null());
	json_object_set_new(j, "last_email_code", t->last_email[0] ? json_string(t->last_email) : json_null());
	json_object_set_new(j, "last_email_to", t->last_email_to[0] ? json_string(t->last_email_to) : json_null());
	json_object_set_new(j, "session_ttl", json_real(t->session_ttl));
	return j;
}

json_t *tfa_issued(const struct tfa *t)
{
	return t->issued;
}

json_t *tfa_codes(const struct tfa *t)
{
	return t->codes;
}

void tfa_set_session_ttl(struct tfa *t, double seconds)
{
	t->session_ttl = seconds;
}

void tfa_set_user_id(struct tfa *t, long user_id)
{
	t->user_id = user_id;
}

void tfa_set_email_verified(struct tfa *t, bool verified)
{
	t->email_verified = verified;
}

bool tfa_email_verified(const struct tfa *t)
{
	return t->email_verified;
}

void tfa_set_legacy(struct tfa *t, bool legacy, double now)
{
	if (legacy && !t->enabled)
		tfa_enable_totp(t, now);
	t->legacy = legacy && t->enabled;
}

/* The part of the path after /api/v0/tfa without slashes at either end, or
 * NULL when the path is not under /api/v0/tfa. */
static const char *subpath(const char *path, char *buf, size_t n)
{
	static const char prefix[] = "/api/v0/tfa";
	size_t pl = sizeof prefix - 1;
	if (strncmp(path, prefix, pl) || (path[pl] != '\0' && path[pl] != '/'))
		return NULL;
	const char *s = path + pl;
	while (*s == '/')
		s++;
	snprintf(buf, n, "%s", s);
	size_t len = strlen(buf);
	while (len > 0 && buf[len - 1] == '/')
		buf[--len] = '\0';
	return buf;
}

bool tfa_handle(struct tfa *t, const struct sim_req *rq, struct sim_resp *rs)
{
	char buf[128];
	const char *sub = subpath(rq->path, buf, sizeof buf);
	if (!sub)
		return false;
	const char *m = rq->method;
	const json_t *body = json_is_object(rq->body) ? rq->body : NULL;

	if (rq->key == KEY_INVALID)
		return fail(rs, 401, "auth_error", "Invalid user key");
	if (rq->key == KEY_SESSION_EXPIRED)
		return fail(rs, 404, "auth_error", "Session expired. Please log in again.");
	if (rq->key == KEY_INSTANCE)
		return fail(rs, 401, "auth_error", "This key may only start, stop or destroy its instance");
	if (rq->body_len > 0 && !rq->body && strspn(rq->body_raw, " \t\r\n") < rq->body_len)
		return fail(rs, 400, "invalid_args", "The request body is not valid JSON");
	if (rq->body && !body)
		return fail(rs, 400, "invalid_args", "The request body must be a JSON object");
	static const char *const id_keys[] = { "tfa_method_id", "target_id" };
	for (size_t i = 0; i < sizeof id_keys / sizeof id_keys[0]; i++) {
		const json_t *v = json_object_get(body, id_keys[i]);
		long ignored;
		if (v && !json_is_null(v) && !body_long(body, id_keys[i], &ignored)) {
			char msg[64];
			snprintf(msg, sizeof msg, "%s must be an integer", id_keys[i]);
			return fail(rs, 400, "invalid_args", msg);
		}
	}

	/* Endpoints a logged-out browser may call carry a secret instead of a key. */
	/* The official CLI's names: test = sms, resend = sms/resend,
	 * test-submit = confirm-new. */
	bool cli_submit = !strcmp(sub, "test-submit");
	if (!strcmp(sub, "test"))
		sub = "sms";
	else if (!strcmp(sub, "resend"))
		sub = "sms/resend";
	else if (!strcmp(sub, "test-submit"))
		sub = "confirm-new";
	bool open = (!strcmp(sub, "") && !strcmp(m, "POST")) || !strcmp(sub, "email") ||
		    !strcmp(sub, "sms") || !strcmp(sub, "sms/resend");
	if (rq->key == KEY_NONE && !open)
		return fail(rs, 403, "auth_error", "This action requires login.");
	/* A scoped key reads the status; anything else could mint a full session. */
	if (rq->key == KEY_READONLY && strcmp(sub, "status"))
		return fail(rs, 403, "forbidden", "This API key lacks the permission for this action");

	if (!strcmp(sub, "status")) {
		if (strcmp(m, "GET"))
			goto method;
		return reply(rs, 200, status_json(t, rq->now));
	}
	if (!strcmp(sub, "")) {
		if (!strcmp(m, "POST"))
			return do_login(t, rq, body, rs);
		if (!strcmp(m, "DELETE"))
			return do_remove(t, rq, body, rs);
		goto method;
	}
	if (!strcmp(sub, "email")) {
		if (strcmp(m, "POST"))
			goto method;
		return do_email(t, rq, body, rs);
	}
	if (!strcmp(sub, "sms")) {
		if (strcmp(m, "POST"))
			goto method;
		return do_sms(t, rq, body, rs);
	}
	if (!strcmp(sub, "sms/resend")) {
		if (strcmp(m, "POST"))
			goto method;
		return do_sms_resend(t, rq, body, rs);
	}
	if (!strcmp(sub, "totp-setup")) {
		if (strcmp(m, "POST"))
			goto method;
		return do_totp_setup(t, rq, rs);
	}
	if (!strcmp(sub, "authorize-new-method")) {
		if (!strcmp(m, "PUT") || (!strcmp(m, "POST") && body_str(body, "secret") &&
					  json_object_get(body, "code")))
			return do_authorize_finish(t, rq, body, rs);
		if (!strcmp(m, "POST"))
			return do_authorize_start(t, rq, body, rs);
		goto method;
	}
	if (!strcmp(sub, "confirm-new")) {
		if (strcmp(m, "POST"))
			goto method;
		return do_confirm_new(t, rq, body, rs, cli_submit);
	}
	if (!strcmp(sub, "update")) {
		if (strcmp(m, "PUT"))
			goto method;
		return do_update(t, body, rs);
	}
	if (!strcmp(sub, "regen-backup-codes")) {
		if (strcmp(m, "PUT") && strcmp(m, "POST"))
			goto method;
		return do_regen(t, rq, body, rs);
	}
	return fail(rs, 404, "not_found", "No such 2FA endpoint");
method:
	return fail(rs, 405, "method_not_allowed", "Method not allowed on this 2FA endpoint");
}
