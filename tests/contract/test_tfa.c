/* test_tfa.c: contract tests of the simulator's two-factor authentication,
 * end to end over HTTP.  Each test starts its own rentop-sim with a manual
 * clock (and --tfa on unless it enables 2FA from scratch), computes TOTP codes
 * with the oathtool command for the simulator's current time (the secret goes
 * to oathtool on stdin, never on a command line), reads SMS and email codes
 * from GET /__sim/codes, and walks every 2FA flow of SPEC.md and API-NOTES.md:
 * enabling TOTP with backup codes (the first method authorized by a code
 * sent to the account's email; the official CLI's activate without it), logging in with TOTP, SMS, email and a
 * backup code, adding methods inside and outside the 30-minute window,
 * removing a method and the last one, the lock after five wrong codes, code
 * expiry, the status endpoint, a destroy that needs the 2FA session key,
 * and an SMS-only account (--tfa sms). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"

/* ---- helpers ------------------------------------------------------------ */

static const char *const ARGS_ON[] = { "--tfa", "on", "--clock", "manual", "--seed", "7", NULL };
static const char *const ARGS_OFF[] = { "--tfa", "off", "--clock", "manual", "--seed", "7", NULL };

static int start_on(void **state)
{
	*state = simproc_start(ARGS_ON);
	return 0;
}

static const char *const ARGS_SMS[] = { "--tfa", "sms", "--clock", "manual", "--seed", "7", NULL };

static int start_sms(void **state)
{
	*state = simproc_start(ARGS_SMS);
	return 0;
}

static int start_off(void **state)
{
	*state = simproc_start(ARGS_OFF);
	return 0;
}

static int stop(void **state)
{
	simproc_stop(*state);
	return 0;
}

/* One call whose status must be `want`; returns the parsed body (owned). */
static json_t *req(const struct simproc *s, const char *method, const char *path, const char *bearer,
		   long want, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static json_t *req(const struct simproc *s, const char *method, const char *path, const char *bearer,
		   long want, const char *fmt, ...)
{
	char body[2048];
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(body, sizeof body, fmt, ap);
		va_end(ap);
	}
	struct http_result r = http_call(s, method, path, bearer, fmt ? body : NULL);
	if (r.status != want)
		print_error("%s %s: status %ld, expected %ld; body %s\n", method, path, r.status, want, r.body);
	assert_int_equal(r.status, want);
	assert_non_null(r.json);
	json_t *j = r.json;
	r.json = NULL;
	http_result_free(&r);
	return j;
}

static const char *str(const json_t *j, const char *k)
{
	const json_t *v = json_object_get(j, k);
	if (!json_is_string(v))
		print_error("field %s is not a string\n", k);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static long long num(const json_t *j, const char *k)
{
	const json_t *v = json_object_get(j, k);
	if (!json_is_number(v))
		print_error("field %s is not a number\n", k);
	assert_true(json_is_number(v));
	return json_is_integer(v) ? (long long)json_integer_value(v) : (long long)json_real_value(v);
}

static void expect_error(const json_t *j, const char *slug)
{
	const char *e = str(j, "error");
	if (strcmp(e, slug))
		print_error("error %s, expected %s\n", e, slug);
	assert_string_equal(e, slug);
}

/* The simulator's clock (GET /__sim/state "now"). */
static long long sim_now(const struct simproc *s)
{
	json_t *st = req(s, "GET", "/__sim/state", NULL, 200, NULL);
	long long now = num(st, "now");
	json_decref(st);
	return now;
}

static void advance(const struct simproc *s, double seconds)
{
	char body[64];
	snprintf(body, sizeof body, "{\"advance\":%.3f}", seconds);
	struct http_result r = sim_ctl(s, "clock", body);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
}

/* The TOTP code of base32 `secret` at epoch `t`, from oathtool (secret on stdin). */
static void oathtool_code(const char *secret, long long t, char out[16])
{
	int in[2], outp[2];
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(outp), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char when[32];
		snprintf(when, sizeof when, "@%lld", t);
		dup2(in[0], 0);
		dup2(outp[1], 1);
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		execlp("oathtool", "oathtool", "--totp", "-b", "-N", when, "-", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(outp[1]);
	size_t len = strlen(secret);
	assert_int_equal(write(in[1], secret, len), (ssize_t)len);
	assert_int_equal(write(in[1], "\n", 1), 1);
	close(in[1]);
	char buf[64] = { 0 };
	size_t got = 0;
	ssize_t n;
	while (got + 1 < sizeof buf && (n = read(outp[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)n;
	close(outp[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	buf[strcspn(buf, "\r\n")] = '\0';
	assert_int_equal(strlen(buf), 6);
	snprintf(out, 16, "%.6s", buf);
}

static void totp_now(const struct simproc *s, const char *secret, char out[16])
{
	oathtool_code(secret, sim_now(s), out);
}

/* The last code sent over "sms" or "email" (GET /__sim/codes). */
static void last_code(const struct simproc *s, const char *channel, char out[16])
{
	json_t *c = req(s, "GET", "/__sim/codes", NULL, 200, NULL);
	snprintf(out, 16, "%s", str(c, channel));
	json_decref(c);
	assert_int_equal(strlen(out), 6);
}

static json_t *status(const struct simproc *s)
{
	json_t *st = req(s, "GET", "/api/v0/tfa/status/", s->full_key, 200, NULL);
	assert_true(json_is_true(json_object_get(st, "success")));
	return st;
}

/* Every SPEC field of a 2FA method object, with its type. */
static void check_method_fields(const json_t *m)
{
	static const char *const keys[] = { "id", "user_id", "method", "label", "phone_number", "is_primary",
					    "fail_count", "locked_until", "created_at", "last_used" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (!json_object_get(m, keys[i]))
			print_error("method lacks %s\n", keys[i]);
		assert_non_null(json_object_get(m, keys[i]));
	}
	assert_true(json_is_integer(json_object_get(m, "id")));
	assert_true(json_is_integer(json_object_get(m, "user_id")));
	assert_true(json_is_boolean(json_object_get(m, "is_primary")));
	assert_true(json_is_integer(json_object_get(m, "fail_count")));
	assert_true(json_is_number(json_object_get(m, "created_at")));
	const json_t *lu = json_object_get(m, "locked_until");
	assert_true(json_is_null(lu) || json_is_number(lu));
	const char *kind = str(m, "method");
	assert_true(!strcmp(kind, "totp") || !strcmp(kind, "sms"));
}

static bool backup_format_ok(const char *c)
{
	if (strlen(c) != 14 || c[4] != '-' || c[9] != '-')
		return false;
	for (int i = 0; i < 14; i++)
		if (i != 4 && i != 9 && !((c[i] >= 'A' && c[i] <= 'Z') || (c[i] >= '0' && c[i] <= '9')))
			return false;
	return true;
}

/* Log in with the seeded TOTP method; returns the session key (owned). */
static char *login_totp(const struct simproc *s, const char *secret)
{
	char code[16];
	totp_now(s, secret, code);
	json_t *j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	char *key = strdup(str(j, "session_key"));
	json_decref(j);
	return key;
}

static long seeded_totp_id(const struct simproc *s)
{
	json_t *st = status(s);
	long id = (long)num(json_array_get(json_object_get(st, "methods"), 0), "id");
	json_decref(st);
	return id;
}

/* Open the 30-minute window with the seeded TOTP method (steps 1 and 2). */
static void authorize_with_totp(const struct simproc *s)
{
	json_t *a = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"tfa_method\":\"totp\"}");
	assert_true(json_is_true(json_object_get(a, "success")));
	char secret[128], code[16];
	snprintf(secret, sizeof secret, "%s", str(a, "secret"));
	json_decref(a);
	totp_now(s, s->totp_secret, code);
	json_t *b = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 200,
			"{\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	assert_true(json_is_true(json_object_get(b, "success")));
	json_decref(b);
}

/* With no method: open the window with a code sent to the account's email
 * (authorize-new-method forced to email, the code sent by POST /tfa/email/
 * with the challenge's secret, then PUT with the code). */
static void authorize_with_email(const struct simproc *s)
{
	json_t *a = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"tfa_method\":\"totp\"}");
	assert_string_equal(str(a, "tfa_method"), "email");
	char secret[128], code[16];
	snprintf(secret, sizeof secret, "%s", str(a, "secret"));
	json_decref(a);
	json_t *e = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{\"secret\":\"%s\"}", secret);
	assert_string_equal(str(e, "secret"), secret);
	json_decref(e);
	last_code(s, "email", code);
	json_t *b = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 200,
			"{\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	assert_true(json_is_true(json_object_get(b, "success")));
	json_decref(b);
}

/* Send an SMS code to phone; returns the challenge secret in out. */
static void send_sms(const struct simproc *s, const char *phone, char out[128])
{
	json_t *j = req(s, "POST", "/api/v0/tfa/sms/", s->full_key, 200, "{\"phone_number\":\"%s\"}", phone);
	snprintf(out, 128, "%s", str(j, "secret"));
	json_decref(j);
}

/* Add an SMS method for phone (the window must be open); returns its id. */
static long add_sms_method(const struct simproc *s, const char *phone, const char *label)
{
	char secret[128], code[16];
	send_sms(s, phone, secret);
	last_code(s, "sms", code);
	json_t *j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 200,
			"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\",\"phone_number\":\"%s\",\"label\":\"%s\"}",
			code, secret, phone, label);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_null(json_object_get(j, "backup_codes")); /* not the first method */
	json_t *m = json_object_get(j, "method");
	check_method_fields(m);
	long id = (long)num(m, "id");
	json_decref(j);
	return id;
}

/* ---- tests -------------------------------------------------------------- */

/* --tfa on: one TOTP method, ten backup codes, the user shows enabled. */
static void test_status_seeded(void **state)
{
	struct simproc *s = *state;
	assert_true(strlen(s->totp_secret) >= 16);
	json_t *st = status(s);
	assert_true(json_is_true(json_object_get(st, "tfa_enabled")));
	assert_int_equal(num(st, "backup_codes_remaining"), 10);
	assert_true(json_is_false(json_object_get(st, "new_method_authorized")));
	json_t *methods = json_object_get(st, "methods");
	assert_int_equal(json_array_size(methods), 1);
	json_t *m = json_array_get(methods, 0);
	check_method_fields(m);
	assert_string_equal(str(m, "method"), "totp");
	assert_true(json_is_true(json_object_get(m, "is_primary")));
	assert_int_equal(num(m, "fail_count"), 0);
	assert_true(json_is_null(json_object_get(m, "locked_until")));
	json_decref(st);

	json_t *u = req(s, "GET", "/api/v0/users/current/", s->full_key, 200, NULL);
	assert_string_equal(str(u, "tfa_status"), "enabled");
	st = status(s);
	long long uid = num(json_array_get(json_object_get(st, "methods"), 0), "user_id");
	if (uid != num(u, "id"))
		print_error("method user_id %lld is not the user's id %lld: the simulator must call "
			    "tfa_set_user_id() with the account's id\n", uid, num(u, "id"));
	assert_int_equal(uid, num(u, "id"));
	json_decref(st);
	json_decref(u);
	/* The TOTP secret is nowhere in what a client sees. */
	struct http_result r = http_call(s, "GET", "/api/v0/tfa/status", s->full_key, NULL);
	assert_int_equal(r.status, 200);
	assert_null(strstr(r.body, s->totp_secret));
	http_result_free(&r);
}

/* From 2FA off: the email authorization, totp-setup, confirm-new (wrong then
 * right code), ten backup codes. */
static void test_enable_totp_from_scratch(void **state)
{
	struct simproc *s = *state;
	json_t *st = status(s);
	assert_true(json_is_false(json_object_get(st, "tfa_enabled")));
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 0);
	assert_int_equal(num(st, "backup_codes_remaining"), 0);
	json_decref(st);
	authorize_with_email(s);

	json_t *setup = req(s, "POST", "/api/v0/tfa/totp-setup/", s->full_key, 200, "{}");
	char secret[128], uri[512], want[512];
	snprintf(secret, sizeof secret, "%s", str(setup, "secret"));
	snprintf(uri, sizeof uri, "%s", str(setup, "provisioning_uri"));
	json_decref(setup);
	assert_true(strlen(secret) >= 16);
	assert_int_equal(strspn(secret, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), strlen(secret));
	assert_int_equal(strncmp(uri, "otpauth://totp/", 15), 0);
	snprintf(want, sizeof want, "?secret=%s&issuer=", secret);
	assert_non_null(strstr(uri, want));

	/* Nothing is added until confirm-new. */
	st = status(s);
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 0);
	json_decref(st);

	char code[16], wrong[16];
	totp_now(s, secret, code);
	snprintf(wrong, sizeof wrong, "%06d", (atoi(code) + 500000) % 1000000);
	json_t *bad = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 400,
			  "{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\"}", wrong, secret);
	expect_error(bad, "2fa_verification_failed");
	assert_int_equal(num(bad, "fail_count"), 1);
	json_decref(bad);

	json_t *lbl = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 400,
			  "{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\",\"label\":\"%s\"}", code, secret,
			  "0123456789012345678901234567890"); /* 31 characters */
	assert_false(json_is_true(json_object_get(lbl, "success")));
	json_decref(lbl);

	json_t *ok = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 200,
			 "{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\",\"label\":\"%s\"}", code, secret,
			 "012345678901234567890123456789"); /* 30 characters */
	assert_true(json_is_true(json_object_get(ok, "success")));
	assert_non_null(strstr(str(ok, "msg"), "TOTP"));
	json_t *codes = json_object_get(ok, "backup_codes");
	assert_int_equal(json_array_size(codes), 10);
	for (size_t i = 0; i < 10; i++) {
		const char *c = json_string_value(json_array_get(codes, i));
		assert_non_null(c);
		assert_true(backup_format_ok(c));
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(c, json_string_value(json_array_get(codes, k)));
	}
	json_decref(ok);

	st = status(s);
	assert_true(json_is_true(json_object_get(st, "tfa_enabled")));
	assert_int_equal(num(st, "backup_codes_remaining"), 10);
	json_t *m = json_array_get(json_object_get(st, "methods"), 0);
	check_method_fields(m);
	assert_string_equal(str(m, "method"), "totp");
	assert_string_equal(str(m, "label"), "012345678901234567890123456789");
	assert_true(json_is_true(json_object_get(m, "is_primary")));
	json_decref(st);

	json_t *u = req(s, "GET", "/api/v0/users/current/", s->full_key, 200, NULL);
	assert_string_equal(str(u, "tfa_status"), "enabled");
	json_decref(u);

	/* And it logs in. */
	char *key = login_totp(s, secret);
	assert_int_equal(strlen(key), 64);
	free(key);
}

/* TOTP login gives the user object plus a session key, nothing else extra. */
static void test_login_totp(void **state)
{
	struct simproc *s = *state;
	char code[16];
	totp_now(s, s->totp_secret, code);
	json_t *j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_true(strlen(str(j, "session_key")) >= 32);
	assert_non_null(str(j, "email"));
	assert_true(json_is_integer(json_object_get(j, "id")));
	assert_null(json_object_get(j, "backup_codes_remaining"));
	assert_null(json_object_get(j, "legacy_tfa_user"));
	char key1[128];
	snprintf(key1, sizeof key1, "%s", str(j, "session_key"));
	json_decref(j);

	/* The session key works as a bearer; a second login gives a different one. */
	json_t *st = req(s, "GET", "/api/v0/tfa/status/", key1, 200, NULL);
	json_decref(st);
	j = req(s, "POST", "/api/v0/tfa", s->full_key, 200, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_string_not_equal(str(j, "session_key"), key1);
	json_decref(j);

	/* The last step's code still passes (window of one step), older ones do not. */
	char prev[16], old[16];
	long long now = sim_now(s);
	oathtool_code(s->totp_secret, now - 30, prev);
	oathtool_code(s->totp_secret, now - 120, old);
	if (strcmp(prev, code)) {
		j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", prev);
		json_decref(j);
	}
	if (strcmp(old, code) && strcmp(old, prev)) {
		j = req(s, "POST", "/api/v0/tfa/", s->full_key, 400, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", old);
		expect_error(j, "2fa_verification_failed");
		json_decref(j);
	}
}

/* An SMS method added in the window, then logging in with it; challenge rules. */
static void test_login_sms(void **state)
{
	struct simproc *s = *state;
	authorize_with_totp(s);
	long sms_id = add_sms_method(s, "+15550001234", "work phone");

	json_t *st = status(s);
	json_t *methods = json_object_get(st, "methods");
	assert_int_equal(json_array_size(methods), 2);
	json_t *m = json_array_get(methods, 1);
	assert_int_equal(num(m, "id"), sms_id);
	assert_string_equal(str(m, "method"), "sms");
	assert_string_equal(str(m, "label"), "work phone");
	const char *masked = str(m, "phone_number");
	size_t ml = strlen(masked);
	assert_true(ml >= 4);
	assert_string_equal(masked + ml - 4, "1234");
	assert_null(strstr(masked, "555000"));
	assert_true(json_is_false(json_object_get(m, "is_primary")));
	json_decref(st);

	char body[256], secret[128], code[16];
	snprintf(body, sizeof body, "{\"tfa_method_id\":%ld}", sms_id);
	json_t *j = req(s, "POST", "/api/v0/tfa/sms/", s->full_key, 200, "%s", body);
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);

	/* A second send right away is refused: use resend. */
	j = req(s, "POST", "/api/v0/tfa/sms/", s->full_key, 400, "%s", body);
	expect_error(j, "tfa_challenge_exists");
	json_decref(j);
	/* Resend: the number must match, and not too fast. */
	j = req(s, "POST", "/api/v0/tfa/sms/resend/", s->full_key, 400,
		"{\"secret\":\"%s\",\"phone_number\":\"+15550009999\"}", secret);
	expect_error(j, "phone_number_mismatch");
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/sms/resend/", s->full_key, 429,
		"{\"secret\":\"%s\",\"phone_number\":\"+15550001234\"}", secret);
	expect_error(j, "sms_rate_limited");
	json_decref(j);
	char first[16];
	last_code(s, "sms", first);
	advance(s, 45);
	j = req(s, "POST", "/api/v0/tfa/sms/resend/", s->full_key, 200,
		"{\"secret\":\"%s\",\"phone_number\":\"+15550001234\"}", secret);
	assert_string_equal(str(j, "secret"), secret);
	json_decref(j);
	last_code(s, "sms", code);

	/* An unknown secret, then the code, then the same code again (consumed). */
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 404,
		"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\"}", code, "0000feedbeef0000");
	expect_error(j, "challenge_not_found");
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200,
		"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\",\"tfa_method_id\":%ld}", code, secret, sms_id);
	assert_true(strlen(str(j, "session_key")) >= 32);
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 404,
		"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	expect_error(j, "challenge_not_found");
	json_decref(j);

	st = status(s);
	m = json_array_get(json_object_get(st, "methods"), 1);
	assert_true(num(m, "last_used") >= sim_now(s) - 1);
	json_decref(st);
}

/* Email codes: send, log in, unknown secret; a logged-out caller needs the secret. */
static void test_login_email(void **state)
{
	struct simproc *s = *state;
	json_t *j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{}");
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_non_null(str(j, "msg"));
	char secret[128], code[16];
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	last_code(s, "email", code);

	/* Without a bearer, no secret: refused; with the secret: a new code, but
	 * not within 30 s of the last one. */
	j = req(s, "POST", "/api/v0/tfa/email/", NULL, 400, "{}");
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/email/", NULL, 400, "{\"secret\":\"%s\"}", secret);
	expect_error(j, "tfa_challenge_exists");
	json_decref(j);
	advance(s, 31);
	j = req(s, "POST", "/api/v0/tfa/email/", NULL, 200, "{\"secret\":\"%s\"}", secret);
	assert_string_equal(str(j, "secret"), secret);
	json_decref(j);
	char code2[16];
	last_code(s, "email", code2);

	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 404,
		"{\"tfa_method\":\"email\",\"code\":\"%s\",\"secret\":\"nosuchsecret\"}", code2);
	expect_error(j, "challenge_not_found");
	json_decref(j);
	if (strcmp(code, code2)) {
		j = req(s, "POST", "/api/v0/tfa/", s->full_key, 400,
			"{\"tfa_method\":\"email\",\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
		expect_error(j, "2fa_verification_failed");
		assert_int_equal(num(j, "fail_count"), 1);
		json_decref(j);
	}
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200,
		"{\"tfa_method\":\"email\",\"code\":\"%s\",\"secret\":\"%s\"}", code2, secret);
	assert_true(strlen(str(j, "session_key")) >= 32);
	json_decref(j);
}

/* Regenerate backup codes, log in with one (once only). */
static void test_login_backup_code_once(void **state)
{
	struct simproc *s = *state;
	char code[16];
	totp_now(s, s->totp_secret, code);
	json_t *j = req(s, "PUT", "/api/v0/tfa/regen-backup-codes/", s->full_key, 200,
			"{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_string_equal(str(j, "msg"), "success");
	json_t *codes = json_object_get(j, "backup_codes");
	assert_int_equal(json_array_size(codes), 10);
	char bc[32], bc2[32];
	snprintf(bc, sizeof bc, "%s", json_string_value(json_array_get(codes, 0)));
	snprintf(bc2, sizeof bc2, "%s", json_string_value(json_array_get(codes, 1)));
	assert_true(backup_format_ok(bc));
	json_decref(j);

	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200, "{\"backup_code\":\"%s\"}", bc);
	assert_true(strlen(str(j, "session_key")) >= 32);
	assert_int_equal(num(j, "backup_codes_remaining"), 9);
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 401, "{\"backup_code\":\"%s\"}", bc);
	expect_error(j, "invalid_backup_code");
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 401, "{\"backup_code\":\"AAAA-BBBB-CCCC\"}");
	expect_error(j, "invalid_backup_code");
	json_decref(j);

	json_t *st = status(s);
	assert_int_equal(num(st, "backup_codes_remaining"), 9);
	json_decref(st);

	/* A backup code also authorizes a new method. */
	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"backup_code\":\"%s\"}", bc2);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	st = status(s);
	assert_true(json_is_true(json_object_get(st, "new_method_authorized")));
	assert_int_equal(num(st, "backup_codes_remaining"), 8);
	json_decref(st);
}

/* Adding a method needs the 30-minute window: outside it 403, inside it works. */
static void test_add_method_window(void **state)
{
	struct simproc *s = *state;
	char secret[128], code[16];
	send_sms(s, "+15550002222", secret);
	last_code(s, "sms", code);
	json_t *j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 403,
			"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\",\"phone_number\":\"+15550002222\"}",
			code, secret);
	expect_error(j, "authorization_required");
	json_decref(j);

	/* Step 2 without step 1. */
	totp_now(s, s->totp_secret, code);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
		"{\"code\":\"%s\",\"secret\":\"not-a-pending-secret\"}", code);
	expect_error(j, "no_pending_authorization");
	json_decref(j);

	authorize_with_totp(s);
	json_t *st = status(s);
	assert_true(json_is_true(json_object_get(st, "new_method_authorized")));
	json_decref(st);
	/* The earlier SMS challenge is still good inside the window. */
	last_code(s, "sms", code);
	j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 200,
		"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\",\"phone_number\":\"+15550002222\"}",
		code, secret);
	assert_non_null(strstr(str(j, "msg"), "SMS"));
	json_decref(j);
	/* The same phone again is a duplicate. */
	advance(s, 61);
	send_sms(s, "+15550002222", secret);
	last_code(s, "sms", code);
	j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 400,
		"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	expect_error(j, "duplicate_tfa_method");
	json_decref(j);

	/* 31 minutes later the window is closed. */
	advance(s, 31 * 60);
	st = status(s);
	assert_true(json_is_false(json_object_get(st, "new_method_authorized")));
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 2);
	json_decref(st);
	j = req(s, "POST", "/api/v0/tfa/totp-setup/", s->full_key, 200, "{}");
	char tsecret[128];
	snprintf(tsecret, sizeof tsecret, "%s", str(j, "secret"));
	json_decref(j);
	totp_now(s, tsecret, code);
	j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 403,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\"}", code, tsecret);
	expect_error(j, "authorization_required");
	json_decref(j);

	/* Authorized by email this time (the code sent by /tfa/email/ for the
	 * challenge), the second TOTP method is added. */
	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"tfa_method\":\"email\"}");
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	json_decref(req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{\"secret\":\"%s\"}", secret));
	last_code(s, "email", code);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 200,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	json_decref(j);
	totp_now(s, tsecret, code);
	j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\",\"label\":\"backup phone\"}", code, tsecret);
	json_decref(j);
	st = status(s);
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 3);
	json_decref(st);
}

/* Remove one method (verified by TOTP), then label/primary updates. */
static void test_remove_method(void **state)
{
	struct simproc *s = *state;
	long totp_id = seeded_totp_id(s);
	authorize_with_totp(s);
	long a = add_sms_method(s, "+15550003333", "a");
	advance(s, 61);
	long b = add_sms_method(s, "+15550004444", "b");

	/* Make b primary and relabel it. */
	json_t *j = req(s, "PUT", "/api/v0/tfa/update/", s->full_key, 200,
			"{\"tfa_method_id\":%ld,\"label\":\"desk\",\"is_primary\":true}", b);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_t *m = json_object_get(j, "method");
	check_method_fields(m);
	assert_int_equal(num(m, "id"), b);
	assert_string_equal(str(m, "label"), "desk");
	assert_true(json_is_true(json_object_get(m, "is_primary")));
	json_decref(j);
	/* Labels count characters, not bytes: 30 two-byte characters fit, 31 do not. */
	char label[128] = "";
	for (int i = 0; i < 30; i++)
		strcat(label, "\xc3\xa9");
	j = req(s, "PUT", "/api/v0/tfa/update/", s->full_key, 200, "{\"tfa_method_id\":%ld,\"label\":\"%s\"}", b, label);
	assert_string_equal(str(json_object_get(j, "method"), "label"), label);
	json_decref(j);
	strcat(label, "\xc3\xa9");
	j = req(s, "PUT", "/api/v0/tfa/update/", s->full_key, 400, "{\"tfa_method_id\":%ld,\"label\":\"%s\"}", b, label);
	assert_false(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	j = req(s, "PUT", "/api/v0/tfa/update/", s->full_key, 404, "{\"tfa_method_id\":%ld,\"label\":\"x\"}", b + 1000);
	expect_error(j, "method_not_found");
	json_decref(j);

	char code[16];
	totp_now(s, s->totp_secret, code);
	j = req(s, "DELETE", "/api/v0/tfa/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"tfa_method_id\":%ld,\"target_id\":%ld}", code, totp_id, a);
	assert_string_equal(str(j, "msg"), "2FA method removed");
	assert_int_equal(num(j, "remaining_methods"), 2);
	json_decref(j);

	json_t *st = status(s);
	json_t *methods = json_object_get(st, "methods");
	assert_int_equal(json_array_size(methods), 2);
	int primaries = 0;
	for (size_t i = 0; i < 2; i++) {
		json_t *mi = json_array_get(methods, i);
		assert_int_not_equal(num(mi, "id"), a);
		primaries += json_is_true(json_object_get(mi, "is_primary"));
	}
	assert_int_equal(primaries, 1);
	assert_true(json_is_true(json_object_get(st, "tfa_enabled")));
	json_decref(st);

	/* Backup-code removal needs target_id. */
	totp_now(s, s->totp_secret, code);
	j = req(s, "PUT", "/api/v0/tfa/regen-backup-codes/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	char bc[32];
	snprintf(bc, sizeof bc, "%s", json_string_value(json_array_get(json_object_get(j, "backup_codes"), 0)));
	json_decref(j);
	j = req(s, "DELETE", "/api/v0/tfa/", s->full_key, 400, "{\"backup_code\":\"%s\"}", bc);
	json_decref(j);
	j = req(s, "DELETE", "/api/v0/tfa/", s->full_key, 200, "{\"backup_code\":\"%s\",\"target_id\":%ld}", bc, b);
	assert_string_equal(str(j, "msg"), "2FA method removed");
	assert_int_equal(num(j, "remaining_methods"), 1);
	json_decref(j);
}

/* Removing the last method disables 2FA and soft-deletes the backup codes. */
static void test_remove_last_method(void **state)
{
	struct simproc *s = *state;
	char code[16];
	totp_now(s, s->totp_secret, code);
	json_t *j = req(s, "DELETE", "/api/v0/tfa/", s->full_key, 200, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_string_equal(str(j, "msg"), "2FA Successfully Disabled");
	json_decref(j);

	json_t *st = status(s);
	assert_true(json_is_false(json_object_get(st, "tfa_enabled")));
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 0);
	assert_int_equal(num(st, "backup_codes_remaining"), 0);
	json_decref(st);
	json_t *u = req(s, "GET", "/api/v0/users/current/", s->full_key, 200, NULL);
	assert_string_equal(str(u, "tfa_status"), "disabled");
	json_decref(u);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 400, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_false(json_is_true(json_object_get(j, "success")));
	json_decref(j);

	/* Re-enabling from nothing: authorize is forced to email. */
	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"tfa_method\":\"totp\"}");
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_string_equal(str(j, "tfa_method"), "email");
	assert_non_null(str(j, "secret"));
	json_decref(j);

	/* A simulator reset brings back the seeded TOTP method with the same secret. */
	struct http_result r = sim_ctl(s, "reset", "{}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	st = status(s);
	assert_true(json_is_true(json_object_get(st, "tfa_enabled")));
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 1);
	assert_int_equal(num(st, "backup_codes_remaining"), 10);
	json_decref(st);
	char *key = login_totp(s, s->totp_secret);
	free(key);
}

/* Five wrong codes lock the method for 15 minutes with the documented 429 body. */
static void test_lock_after_five_failures(void **state)
{
	struct simproc *s = *state;
	char code[16], wrong[16];
	totp_now(s, s->totp_secret, code);
	long long now = sim_now(s);
	/* A code outside the +-1 step window is wrong for sure. */
	char c1[16], c2[16], c3[16];
	oathtool_code(s->totp_secret, now - 30, c1);
	oathtool_code(s->totp_secret, now + 30, c2);
	int w = 0;
	do {
		snprintf(wrong, sizeof wrong, "%06d", (atoi(code) + 111111 * ++w) % 1000000);
		snprintf(c3, sizeof c3, "%s", wrong);
	} while (!strcmp(c3, code) || !strcmp(c3, c1) || !strcmp(c3, c2));

	for (int i = 1; i <= 4; i++) {
		json_t *j = req(s, "POST", "/api/v0/tfa/", s->full_key, 400,
				"{\"tfa_method\":\"totp\",\"code\":\"%s\"}", wrong);
		expect_error(j, "2fa_verification_failed");
		assert_int_equal(num(j, "fail_count"), i);
		assert_non_null(json_object_get(j, "locked_until"));
		assert_true(json_is_null(json_object_get(j, "locked_until")));
		json_decref(j);
	}
	json_t *j = req(s, "POST", "/api/v0/tfa/", s->full_key, 429, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", wrong);
	expect_error(j, "tfa_locked");
	assert_int_equal(num(j, "fail_count"), 5);
	assert_non_null(str(j, "msg"));
	long long until = num(j, "locked_until");
	assert_true(until >= now + 15 * 60 - 1 && until <= now + 15 * 60 + 1);
	json_decref(j);

	/* Even the right code is refused while locked; status shows the lock. */
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 429, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	expect_error(j, "tfa_locked");
	json_decref(j);
	json_t *st = status(s);
	json_t *m = json_array_get(json_object_get(st, "methods"), 0);
	assert_int_equal(num(m, "fail_count"), 5);
	assert_int_equal(num(m, "locked_until"), until);
	json_decref(st);

	/* After 15 minutes the method works again and the counter is reset. */
	advance(s, 15 * 60 + 1);
	char *key = login_totp(s, s->totp_secret);
	free(key);
	st = status(s);
	m = json_array_get(json_object_get(st, "methods"), 0);
	assert_int_equal(num(m, "fail_count"), 0);
	assert_true(json_is_null(json_object_get(m, "locked_until")));
	json_decref(st);
}

/* SMS and email codes expire after ten minutes. */
static void test_code_expiry(void **state)
{
	struct simproc *s = *state;
	json_t *j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{}");
	char esecret[128], ecode[16];
	snprintf(esecret, sizeof esecret, "%s", str(j, "secret"));
	json_decref(j);
	last_code(s, "email", ecode);

	advance(s, 9 * 60); /* still good at 9 minutes... */
	j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{}");
	char esecret2[128], ecode2[16];
	snprintf(esecret2, sizeof esecret2, "%s", str(j, "secret"));
	json_decref(j);
	last_code(s, "email", ecode2);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200,
		"{\"tfa_method\":\"email\",\"code\":\"%s\",\"secret\":\"%s\"}", ecode, esecret);
	json_decref(j);

	advance(s, 10 * 60 + 1); /* ...and the second one is gone after 10 */
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 400,
		"{\"tfa_method\":\"email\",\"code\":\"%s\",\"secret\":\"%s\"}", ecode2, esecret2);
	expect_error(j, "2fa_expired");
	json_decref(j);

	/* The same for an authorize-new-method challenge (its code sent by /tfa/email/). */
	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"tfa_method\":\"email\"}");
	char asecret[128], acode[16];
	snprintf(asecret, sizeof asecret, "%s", str(j, "secret"));
	json_decref(j);
	json_decref(req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{\"secret\":\"%s\"}", asecret));
	last_code(s, "email", acode);
	advance(s, 11 * 60);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", acode, asecret);
	expect_error(j, "2fa_expired");
	json_decref(j);
}

/* SMS sends are capped per hour (429 sms_rate_limited), whatever the number. */
static void test_sms_hourly_cap(void **state)
{
	struct simproc *s = *state;
	char secret[128], phone[32];
	for (int i = 0; i < 10; i++) {
		snprintf(phone, sizeof phone, "+1555100%04d", i);
		send_sms(s, phone, secret);
	}
	json_t *j = req(s, "POST", "/api/v0/tfa/sms/", s->full_key, 429, "{\"phone_number\":\"+15551009999\"}");
	expect_error(j, "sms_rate_limited");
	json_decref(j);
	advance(s, 3601);
	send_sms(s, "+15551009999", secret);
	assert_true(strlen(secret) > 0);
}

/* An account whose email is unverified cannot be sent codes. */
static void test_email_not_verified(void **state)
{
	struct simproc *s = *state;
	struct http_result r = sim_ctl(s, "set", "{\"what\":\"user\",\"field\":\"email_verified\",\"value\":false}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = http_call(s, "POST", "/api/v0/tfa/email/", s->full_key, "{}");
	if (r.status != 403)
		print_error("an email code was sent to an unverified address: /__sim/set user.email_verified "
			    "must reach tfa_set_email_verified()\n");
	http_result_free(&r);
	json_t *j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 403, "{}");
	expect_error(j, "email_not_verified");
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/sms/", s->full_key, 403, "{\"phone_number\":\"+15550005555\"}");
	expect_error(j, "email_not_verified");
	json_decref(j);
}

/* Logged-out and read-only callers; unknown paths. */
static void test_callers(void **state)
{
	struct simproc *s = *state;
	json_t *j = req(s, "GET", "/api/v0/tfa/status/", NULL, 403, NULL);
	json_decref(j);
	j = req(s, "GET", "/api/v0/tfa/status/", "not-a-key", 401, NULL);
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/totp-setup/", s->ro_key, 403, "{}");
	json_decref(j);
	j = req(s, "GET", "/api/v0/tfa/status", s->ro_key, 200, NULL);
	json_decref(j);
	/* A scoped key cannot turn a code into a full-access session. */
	char code[16];
	totp_now(s, s->totp_secret, code);
	j = req(s, "POST", "/api/v0/tfa/", s->ro_key, 403, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_null(json_object_get(j, "session_key"));
	json_decref(j);
	/* A logged-out (browser) login gets no session key. */
	j = req(s, "POST", "/api/v0/tfa/", NULL, 200, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	assert_null(json_object_get(j, "session_key"));
	json_decref(j);
	j = req(s, "GET", "/api/v0/tfa/nonsense/", s->full_key, 404, NULL);
	json_decref(j);
}

/* The official CLI's paths and payloads: /tfa/test/ sends an SMS, /tfa/resend/
 * resends with only the secret, /tfa/test-submit/ activates with tfa_method
 * "totp" plus phone_number, and regen-backup-codes takes a backup code. */
static void test_cli_paths(void **state)
{
	struct simproc *s = *state;
	authorize_with_totp(s);
	json_t *j = req(s, "POST", "/api/v0/tfa/test/", s->full_key, 200, "{\"phone_number\":\"+15550006666\"}");
	char secret[128], code[16], first[16];
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	last_code(s, "sms", first);
	advance(s, 31);
	j = req(s, "POST", "/api/v0/tfa/resend/", s->full_key, 200, "{\"secret\":\"%s\"}", secret);
	json_decref(j);
	last_code(s, "sms", code);
	j = req(s, "POST", "/api/v0/tfa/test-submit/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\",\"phone_number\":\"+15550006666\",\"label\":\"Work Phone\"}",
		code, secret);
	assert_string_equal(str(json_object_get(j, "method"), "method"), "sms");
	json_decref(j);

	/* Regenerate with a code, then with one of the new backup codes; the old set is void. */
	totp_now(s, s->totp_secret, code);
	j = req(s, "PUT", "/api/v0/tfa/regen-backup-codes/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	char bc[32], old[32];
	snprintf(bc, sizeof bc, "%s", json_string_value(json_array_get(json_object_get(j, "backup_codes"), 0)));
	snprintf(old, sizeof old, "%s", json_string_value(json_array_get(json_object_get(j, "backup_codes"), 1)));
	json_decref(j);
	j = req(s, "PUT", "/api/v0/tfa/regen-backup-codes/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"backup_code\":\"%s\"}", bc);
	assert_int_equal(json_array_size(json_object_get(j, "backup_codes")), 10);
	json_decref(j);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 401, "{\"backup_code\":\"%s\"}", old);
	expect_error(j, "invalid_backup_code");
	json_decref(j);
	json_t *st = status(s);
	assert_int_equal(num(st, "backup_codes_remaining"), 10);
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 2);
	json_decref(st);
}

/* With no method, the first one needs the email authorization: confirm-new
 * without it is 403; step 1 is forced to email and sends nothing; the code
 * goes out through /tfa/email/ (to the account's address, visible at
 * /__sim/codes), not twice within 30 s; step 2 before any code, a wrong code
 * (counted), then the right one opens the window and the method is added. */
static void test_first_method_email_authorization(void **state)
{
	struct simproc *s = *state;
	json_t *setup = req(s, "POST", "/api/v0/tfa/totp-setup/", s->full_key, 200, "{}");
	char tsecret[128], code[16];
	snprintf(tsecret, sizeof tsecret, "%s", str(setup, "secret"));
	json_decref(setup);
	totp_now(s, tsecret, code);
	json_t *j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 403,
			"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\"}", code, tsecret);
	expect_error(j, "authorization_required");
	assert_non_null(strstr(str(j, "msg"), "email"));
	json_decref(j);

	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{\"tfa_method\":\"sms\"}");
	assert_string_equal(str(j, "tfa_method"), "email");
	char secret[128];
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	json_t *c = req(s, "GET", "/__sim/codes", NULL, 200, NULL);
	assert_true(json_is_null(json_object_get(c, "email"))); /* step 1 sent nothing */
	json_decref(c);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
		"{\"code\":\"123456\",\"secret\":\"%s\"}", secret);
	expect_error(j, "no_pending_authorization");
	json_decref(j);

	j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{\"secret\":\"%s\"}", secret);
	assert_string_equal(str(j, "secret"), secret);
	assert_non_null(strstr(str(j, "msg"), "@example.com"));
	assert_null(strstr(str(j, "msg"), "demo@")); /* the address masked */
	json_decref(j);
	c = req(s, "GET", "/__sim/codes", NULL, 200, NULL);
	assert_string_equal(str(c, "email_to"), "demo@example.com");
	char ecode[16];
	snprintf(ecode, sizeof ecode, "%s", str(c, "email"));
	json_decref(c);
	assert_int_equal(strlen(ecode), 6);
	j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 400, "{\"secret\":\"%s\"}", secret);
	expect_error(j, "tfa_challenge_exists");
	json_decref(j);

	char wrong[16];
	snprintf(wrong, sizeof wrong, "%06d", (atoi(ecode) + 1) % 1000000);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", wrong, secret);
	expect_error(j, "2fa_verification_failed");
	assert_int_equal(num(j, "fail_count"), 1);
	json_decref(j);
	json_t *st = status(s);
	assert_true(json_is_false(json_object_get(st, "new_method_authorized")));
	json_decref(st);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 200,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", ecode, secret);
	json_decref(j);
	st = status(s);
	assert_true(json_is_true(json_object_get(st, "new_method_authorized")));
	json_decref(st);
	/* the code is used up */
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", ecode, secret);
	expect_error(j, "no_pending_authorization");
	json_decref(j);

	totp_now(s, tsecret, code);
	j = req(s, "POST", "/api/v0/tfa/confirm-new/", s->full_key, 200,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\"}", code, tsecret);
	assert_int_equal(json_array_size(json_object_get(j, "backup_codes")), 10);
	json_decref(j);
	/* the email's window ends with the first method */
	st = status(s);
	assert_true(json_is_false(json_object_get(st, "new_method_authorized")));
	json_decref(st);
}

/* The email code of a first-method authorization: it expires after ten
 * minutes, five wrong codes lock the email channel, and an unverified
 * address gets no code (403 email_not_verified, at step 1 already). */
static void test_first_method_email_errors(void **state)
{
	struct simproc *s = *state;
	json_t *j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{}");
	char secret[128], code[16];
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	json_decref(req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{\"secret\":\"%s\"}", secret));
	last_code(s, "email", code);
	advance(s, 10 * 60 + 1);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	expect_error(j, "2fa_expired");
	json_decref(j);
	/* the expired challenge is gone: its secret gets no new code */
	j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 404, "{\"secret\":\"%s\"}", secret);
	expect_error(j, "challenge_not_found");
	json_decref(j);

	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 200, "{}");
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	json_decref(req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{\"secret\":\"%s\"}", secret));
	last_code(s, "email", code);
	char wrong[16];
	snprintf(wrong, sizeof wrong, "%06d", (atoi(code) + 7) % 1000000);
	for (int i = 1; i <= 4; i++) {
		j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 400,
			"{\"code\":\"%s\",\"secret\":\"%s\"}", wrong, secret);
		expect_error(j, "2fa_verification_failed");
		assert_int_equal(num(j, "fail_count"), i);
		json_decref(j);
	}
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 429,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", wrong, secret);
	expect_error(j, "tfa_locked");
	json_decref(j);
	j = req(s, "PUT", "/api/v0/tfa/authorize-new-method/", s->full_key, 429,
		"{\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	expect_error(j, "tfa_locked");
	json_decref(j);

	struct http_result r = sim_ctl(s, "set", "{\"what\":\"user\",\"field\":\"email_verified\",\"value\":false}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	j = req(s, "POST", "/api/v0/tfa/authorize-new-method/", s->full_key, 403, "{}");
	expect_error(j, "email_not_verified");
	json_decref(j);
	json_t *st = status(s);
	assert_true(json_is_false(json_object_get(st, "new_method_authorized")));
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 0);
	json_decref(st);
}

/* The official CLI turns 2FA on with totp-setup then `tfa activate`
 * (/tfa/test-submit/), with no authorize step: that still works for the
 * first method; a second one through it still needs the window. */
static void test_cli_first_method(void **state)
{
	struct simproc *s = *state;
	json_t *setup = req(s, "POST", "/api/v0/tfa/totp-setup/", s->full_key, 200, "{}");
	char tsecret[128], code[16];
	snprintf(tsecret, sizeof tsecret, "%s", str(setup, "secret"));
	json_decref(setup);
	totp_now(s, tsecret, code);
	json_t *j = req(s, "POST", "/api/v0/tfa/test-submit/", s->full_key, 200,
			"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\"}", code, tsecret);
	assert_int_equal(json_array_size(json_object_get(j, "backup_codes")), 10);
	json_decref(j);
	setup = req(s, "POST", "/api/v0/tfa/totp-setup/", s->full_key, 200, "{}");
	snprintf(tsecret, sizeof tsecret, "%s", str(setup, "secret"));
	json_decref(setup);
	totp_now(s, tsecret, code);
	j = req(s, "POST", "/api/v0/tfa/test-submit/", s->full_key, 403,
		"{\"tfa_method\":\"totp\",\"code\":\"%s\",\"secret\":\"%s\"}", code, tsecret);
	expect_error(j, "authorization_required");
	json_decref(j);
}

/* With --tfa on a destroy needs the session key from POST /api/v0/tfa/. */
static void test_destroy_needs_session(void **state)
{
	struct simproc *s = *state;
	json_t *l = req(s, "GET", "/api/v1/instances/", s->full_key, 200, NULL);
	json_t *inst = json_array_get(json_object_get(l, "instances"), 0);
	assert_non_null(inst);
	long id = (long)num(inst, "id");
	json_decref(l);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);

	json_t *j = req(s, "DELETE", path, s->full_key, 401, "{}");
	assert_non_null(strstr(str(j, "msg"), "Two Factor Authentication"));
	json_decref(j);

	char *key = login_totp(s, s->totp_secret);
	j = req(s, "DELETE", path, key, 200, "{}");
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	j = req(s, "GET", path, key, 200, NULL);
	assert_true(json_is_null(json_object_get(j, "instances")));
	json_decref(j);

	/* The session lasts 24 hours of simulated time. */
	advance(s, 24 * 3600 + 1);
	j = req(s, "GET", "/api/v0/tfa/status/", key, 404, NULL);
	assert_non_null(strstr(str(j, "msg"), "Session expired"));
	json_decref(j);
	free(key);
}

/* --tfa sms: an SMS-only account.  Its one method is SMS, primary, its
 * number masked; there is no TOTP secret line; a destroy with the plain key
 * needs 2FA; an SMS code sent by method id logs in, and so does an email
 * code; a reset keeps the method. */
static void test_sms_only_account(void **state)
{
	struct simproc *s = *state;
	assert_string_equal(s->totp_secret, "");
	json_t *st = status(s);
	assert_true(json_is_true(json_object_get(st, "tfa_enabled")));
	json_t *methods = json_object_get(st, "methods");
	assert_int_equal(json_array_size(methods), 1);
	json_t *m = json_array_get(methods, 0);
	check_method_fields(m);
	assert_string_equal(str(m, "method"), "sms");
	assert_true(json_is_true(json_object_get(m, "is_primary")));
	const char *masked = str(m, "phone_number");
	assert_non_null(strchr(masked, '*'));
	assert_int_equal(num(st, "backup_codes_remaining"), 10);
	long id = (long)num(m, "id");
	json_decref(st);

	json_t *l = req(s, "GET", "/api/v1/instances/", s->full_key, 200, NULL);
	long inst = (long)num(json_array_get(json_object_get(l, "instances"), 0), "id");
	json_decref(l);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", inst);
	json_decref(req(s, "DELETE", path, s->full_key, 401, "{}"));

	/* no TOTP method to log in with */
	json_t *j = req(s, "POST", "/api/v0/tfa/", s->full_key, 404,
			"{\"tfa_method\":\"totp\",\"code\":\"123456\"}");
	json_decref(j);
	/* an SMS code by method id (the account's number: no phone sent) */
	char secret[128], code[16];
	j = req(s, "POST", "/api/v0/tfa/sms/", s->full_key, 200, "{\"tfa_method_id\":%ld}", id);
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	last_code(s, "sms", code);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200,
		"{\"tfa_method\":\"sms\",\"code\":\"%s\",\"secret\":\"%s\",\"tfa_method_id\":%ld}",
		code, secret, id);
	char key[128];
	snprintf(key, sizeof key, "%s", str(j, "session_key"));
	json_decref(j);
	json_decref(req(s, "DELETE", path, key, 200, "{}"));
	/* an email code logs in as well */
	j = req(s, "POST", "/api/v0/tfa/email/", s->full_key, 200, "{}");
	snprintf(secret, sizeof secret, "%s", str(j, "secret"));
	json_decref(j);
	last_code(s, "email", code);
	j = req(s, "POST", "/api/v0/tfa/", s->full_key, 200,
		"{\"tfa_method\":\"email\",\"code\":\"%s\",\"secret\":\"%s\"}", code, secret);
	assert_non_null(str(j, "session_key"));
	json_decref(j);
	/* a reset keeps the SMS-only account */
	struct http_result r = sim_ctl(s, "reset", "{}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	st = status(s);
	assert_int_equal(json_array_size(json_object_get(st, "methods")), 1);
	assert_string_equal(str(json_array_get(json_object_get(st, "methods"), 0), "method"), "sms");
	assert_int_equal(num(json_array_get(json_object_get(st, "methods"), 0), "id"), id);
	json_decref(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_status_seeded, start_on, stop),
		cmocka_unit_test_setup_teardown(test_sms_only_account, start_sms, stop),
		cmocka_unit_test_setup_teardown(test_enable_totp_from_scratch, start_off, stop),
		cmocka_unit_test_setup_teardown(test_login_totp, start_on, stop),
		cmocka_unit_test_setup_teardown(test_login_sms, start_on, stop),
		cmocka_unit_test_setup_teardown(test_login_email, start_on, stop),
		cmocka_unit_test_setup_teardown(test_login_backup_code_once, start_on, stop),
		cmocka_unit_test_setup_teardown(test_add_method_window, start_on, stop),
		cmocka_unit_test_setup_teardown(test_remove_method, start_on, stop),
		cmocka_unit_test_setup_teardown(test_remove_last_method, start_on, stop),
		cmocka_unit_test_setup_teardown(test_lock_after_five_failures, start_on, stop),
		cmocka_unit_test_setup_teardown(test_code_expiry, start_on, stop),
		cmocka_unit_test_setup_teardown(test_sms_hourly_cap, start_on, stop),
		cmocka_unit_test_setup_teardown(test_email_not_verified, start_on, stop),
		cmocka_unit_test_setup_teardown(test_callers, start_on, stop),
		cmocka_unit_test_setup_teardown(test_cli_paths, start_on, stop),
		cmocka_unit_test_setup_teardown(test_destroy_needs_session, start_on, stop),
		cmocka_unit_test_setup_teardown(test_first_method_email_authorization, start_off, stop),
		cmocka_unit_test_setup_teardown(test_first_method_email_errors, start_off, stop),
		cmocka_unit_test_setup_teardown(test_cli_first_method, start_off, stop),
	};
	return cmocka_run_group_tests_name("tfa", tests, NULL, NULL);
}
