/* test_tfaflow.c: the pure side of the 2FA dialogs: the verify-with choices
 * (primary first, backup codes only while some are left), the verification
 * a choice and a typed code make (code forms, SMS send-first), method rows
 * with the lock countdown and sanitised labels, the window line, the
 * failure lines (wrong code with the service's count, locks, backup codes),
 * and the backup codes as text and as a 0600 file (umask ignored, existing
 * files and symlinks refused). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "flow/tfaflow.h"
#include "base/util.h"

static struct tfa_method_rec meth(long id, const char *kind, const char *label, bool primary)
{
	struct tfa_method_rec m;
	memset(&m, 0, sizeof m);
	m.id = id;
	m.method = (char *)kind;
	m.label = (char *)label;
	m.is_primary = primary;
	m.locked_until = NAN;
	m.created_at = m.last_used = NAN;
	return m;
}

static void test_choices(void **state)
{
	(void)state;
	struct tfa_method_rec ms[3] = { meth(11, "sms", "phone", false),
					meth(12, "totp", "laptop", true),
					meth(13, "email", "", false) };
	ms[0].phone_number = (char *)"+1******4321";
	struct tfa_status_rec s = { .tfa_enabled = true, .backup_codes_remaining = 3,
				    .methods = ms, .nmethods = 3 };
	struct tfaflow_choice c[TFAFLOW_MAX_CHOICES];
	int n = tfaflow_choices(&s, c, TFAFLOW_MAX_CHOICES);
	assert_int_equal(n, 3); /* email is no method to verify with here */
	assert_string_equal(c[0].kind, "totp");
	assert_int_equal(c[0].id, 12);
	assert_string_equal(c[0].text, "totp 12 laptop (primary)");
	assert_string_equal(c[1].kind, "sms");
	assert_string_equal(c[2].kind, "backup");
	assert_int_equal(c[2].id, 0);
	/* no backup code left: not offered */
	s.backup_codes_remaining = 0;
	assert_int_equal(tfaflow_choices(&s, c, TFAFLOW_MAX_CHOICES), 2);
	/* the limit holds */
	assert_int_equal(tfaflow_choices(&s, c, 1), 1);
	assert_string_equal(c[0].kind, "totp");
	/* no status yet: only the backup code */
	assert_int_equal(tfaflow_choices(NULL, c, TFAFLOW_MAX_CHOICES), 1);
	assert_string_equal(c[0].kind, "backup");
	/* a label with a terminal escape is drawn clean */
	ms[1].label = (char *)"\x1b[31mred";
	s.backup_codes_remaining = 1;
	tfaflow_choices(&s, c, TFAFLOW_MAX_CHOICES);
	assert_null(strchr(c[0].text, '\x1b'));
}

static void test_verify_build(void **state)
{
	(void)state;
	struct tfaflow_choice totp = { "totp", 12, "totp 12" }, sms = { "sms", 11, "sms 11" },
			      bk = { "backup", 0, "backup code" };
	struct tfa_verify v;
	char err[200];
	assert_int_equal(tfaflow_verify_build(&totp, "123 456", NULL, &v, err, sizeof err), TV_OK);
	assert_string_equal(v.method, "totp");
	assert_string_equal(v.code, "123456");
	assert_int_equal(v.method_id, 12);
	assert_string_equal(v.secret, "");
	assert_int_equal(tfaflow_verify_build(&totp, "12345", NULL, &v, err, sizeof err), TV_BAD);
	assert_non_null(strstr(err, "6-digit"));
	assert_null(strstr(err, "12345")); /* never the code in a message */
	assert_string_equal(v.code, "");    /* nothing kept from a bad try */
	assert_int_equal(tfaflow_verify_build(&totp, "1234567", NULL, &v, err, sizeof err), TV_BAD);
	assert_int_equal(tfaflow_verify_build(&totp, "12a456", NULL, &v, err, sizeof err), TV_BAD);
	/* backup codes: upper-cased, trimmed, XXXX-XXXX-XXXX */
	assert_int_equal(tfaflow_verify_build(&bk, " abcd-efgh-jk2n ", NULL, &v, err, sizeof err),
			 TV_OK);
	assert_string_equal(v.method, "backup");
	assert_string_equal(v.code, "ABCD-EFGH-JK2N");
	assert_int_equal(v.method_id, 0);
	assert_int_equal(tfaflow_verify_build(&bk, "ABCD-EFGH", NULL, &v, err, sizeof err), TV_BAD);
	assert_int_equal(tfaflow_verify_build(&bk, "ABCDEEFGHEJK2N", NULL, &v, err, sizeof err),
			 TV_BAD);
	assert_int_equal(tfaflow_verify_build(&bk, "123456", NULL, &v, err, sizeof err), TV_BAD);
	/* SMS: send first; then the code with the challenge secret */
	assert_int_equal(tfaflow_verify_build(&sms, "", NULL, &v, err, sizeof err), TV_SEND_SMS);
	assert_int_equal(tfaflow_verify_build(&sms, "", "", &v, err, sizeof err), TV_SEND_SMS);
	assert_int_equal(tfaflow_verify_build(&sms, "123456", NULL, &v, err, sizeof err), TV_BAD);
	assert_int_equal(tfaflow_verify_build(&sms, "654321", "chal-secret", &v, err, sizeof err),
			 TV_OK);
	assert_string_equal(v.method, "sms");
	assert_string_equal(v.code, "654321");
	assert_string_equal(v.secret, "chal-secret");
	assert_int_equal(v.method_id, 11);
	/* the request it makes */
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.base_url = (char *)"http://x";
	struct api_call c = api_tfa_login_with(&cfg, &v);
	assert_non_null(strstr(c.body, "chal-secret"));
	assert_non_null(strstr(c.body, "654321"));
	assert_non_null(strstr(c.body, "tfa_method_id"));
	api_call_free(&c);
	api_tfa_verify_wipe(&v);
	assert_string_equal(v.code, "");
}

/* The challenge an action asks for: every method (primary first, named
 * with its masked number), an email code, a backup code; every kind when
 * the status is not known; what to do with each. */
static void test_challenge_choices(void **state)
{
	(void)state;
	struct tfa_method_rec ms[2] = { meth(11, "totp", "laptop", false),
					meth(12, "sms", "Phone", true) };
	ms[1].phone_number = (char *)"********4873";
	struct tfa_status_rec s = { .tfa_enabled = true, .backup_codes_remaining = 3,
				    .methods = ms, .nmethods = 2 };
	struct tfaflow_choice c[TFAFLOW_MAX_CHOICES];
	int n = tfaflow_challenge_choices(&s, c, TFAFLOW_MAX_CHOICES);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].kind, "sms");
	assert_int_equal(c[0].id, 12);
	assert_string_equal(c[0].text, "SMS to ********4873 (Phone), primary");
	assert_string_equal(c[1].kind, "totp");
	assert_string_equal(c[1].text, "authenticator app (laptop)");
	assert_string_equal(c[2].kind, "email");
	assert_int_equal(c[2].id, 0);
	assert_string_equal(c[3].kind, "backup");
	/* an SMS-only account: its phone first, then email, then backup */
	s.nmethods = 1;
	s.methods = &ms[1];
	n = tfaflow_challenge_choices(&s, c, TFAFLOW_MAX_CHOICES);
	assert_int_equal(n, 3);
	assert_string_equal(c[0].kind, "sms");
	assert_non_null(strstr(c[0].text, ", primary"));
	assert_string_equal(c[1].kind, "email");
	/* no backup code left: not offered */
	s.backup_codes_remaining = 0;
	assert_int_equal(tfaflow_challenge_choices(&s, c, TFAFLOW_MAX_CHOICES), 2);
	/* the status not known: every kind the service takes */
	n = tfaflow_challenge_choices(NULL, c, TFAFLOW_MAX_CHOICES);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].kind, "totp");
	assert_string_equal(c[1].kind, "sms");
	assert_int_equal(c[1].id, 0);
	assert_string_equal(c[2].kind, "email");
	assert_string_equal(c[3].kind, "backup");
	assert_int_equal(tfaflow_challenge_choices(NULL, c, 2), 2);
	/* a hostile label or number is drawn clean */
	ms[1].label = (char *)"\x1b[31mred";
	ms[1].phone_number = (char *)"\x1b]0;x\a1234";
	s.backup_codes_remaining = 1;
	tfaflow_challenge_choices(&s, c, TFAFLOW_MAX_CHOICES);
	assert_null(strchr(c[0].text, '\x1b'));
	assert_null(strchr(c[0].text, '\a'));
	/* what to do with each */
	char b[200];
	struct tfaflow_choice sms = { "sms", 12, "" }, em = { "email", 0, "" }, bk = { "backup", 0, "" },
			      to = { "totp", 11, "" };
	assert_non_null(strstr(tfaflow_challenge_howto(&sms, b, sizeof b), "sends a code by SMS"));
	assert_non_null(strstr(tfaflow_challenge_howto(&em, b, sizeof b), "emails a code"));
	assert_non_null(strstr(tfaflow_challenge_howto(&bk, b, sizeof b), "backup codes"));
	assert_non_null(strstr(tfaflow_challenge_howto(&to, b, sizeof b), "authenticator app"));
	/* an email code: sent first, then the code with its challenge secret */
	struct tfa_verify v;
	char err[200];
	assert_int_equal(tfaflow_verify_build(&em, "", NULL, &v, err, sizeof err), TV_SEND_EMAIL);
	assert_int_equal(tfaflow_verify_build(&em, "123456", "", &v, err, sizeof err), TV_BAD);
	assert_non_null(strstr(err, "no email code was sent"));
	assert_int_equal(tfaflow_verify_build(&em, "12345", "sec", &v, err, sizeof err), TV_BAD);
	assert_non_null(strstr(err, "of the email"));
	assert_int_equal(tfaflow_verify_build(&em, "123 456", "sec", &v, err, sizeof err), TV_OK);
	assert_string_equal(v.method, "email");
	assert_string_equal(v.code, "123456");
	assert_string_equal(v.secret, "sec");
	assert_int_equal(v.method_id, 0);
	api_tfa_verify_wipe(&v);
}

static void test_method_row(void **state)
{
	(void)state;
	struct tfa_method_rec m = meth(3790, "totp", "Authenticator", true);
	char buf[400];
	m.fail_count = 2;
	tfaflow_method_row(&m, 1000.0, buf, sizeof buf);
	assert_non_null(strstr(buf, "3790"));
	assert_non_null(strstr(buf, "Authenticator"));
	assert_non_null(strstr(buf, "primary"));
	assert_non_null(strstr(buf, "2 failed"));
	assert_null(strstr(buf, "locked"));
	m.locked_until = 1000.0 + 14 * 60 + 32;
	tfaflow_method_row(&m, 1000.0, buf, sizeof buf);
	assert_non_null(strstr(buf, "locked for 14m32s"));
	/* the countdown moves with the clock and ends */
	tfaflow_method_row(&m, 1000.0 + 14 * 60 + 2, buf, sizeof buf);
	assert_non_null(strstr(buf, "locked for 30s"));
	tfaflow_method_row(&m, 1000.0 + 15 * 60, buf, sizeof buf);
	assert_null(strstr(buf, "locked"));
	/* server text is sanitised */
	m.label = (char *)"a\x1b]0;title\x07z";
	m.phone_number = (char *)"+1\x1b[2J***4321";
	tfaflow_method_row(&m, 0, buf, sizeof buf);
	assert_null(strchr(buf, '\x1b'));
	assert_null(strchr(buf, '\x07'));
	struct tfa_status_rec s = { .methods = &m, .nmethods = 1 };
	assert_ptr_equal(tfaflow_method(&s, 3790), &m);
	assert_null(tfaflow_method(&s, 1));
	assert_null(tfaflow_method(NULL, 3790));
}

static void test_window(void **state)
{
	(void)state;
	char buf[120];
	tfaflow_window_text(false, 0, 5000, buf, sizeof buf);
	assert_string_equal(buf, "closed");
	tfaflow_window_text(true, 0, 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "open"));
	tfaflow_window_text(true, 5000 - 48, 5000, buf, sizeof buf);
	assert_string_equal(buf, "open, 29m12s left");
	tfaflow_window_text(false, 5000 - 1801, 5000, buf, sizeof buf); /* lapsed */
	assert_string_equal(buf, "closed");
}

static struct api_error aerr(int status, const char *slug, const char *msg)
{
	struct api_error e;
	memset(&e, 0, sizeof e);
	e.cls = AE_CLIENT;
	e.http_status = status;
	util_strlcpy(e.slug, slug, sizeof e.slug);
	util_strlcpy(e.msg, msg, sizeof e.msg);
	return e;
}

static void test_error_text(void **state)
{
	(void)state;
	char buf[400];
	struct api_error e = aerr(400, "2fa_verification_failed", "Invalid verification code. 3 attempts left.");
	tfaflow_error_text(&e, NULL, 0, buf, sizeof buf);
	assert_string_equal(buf, "Wrong code: Invalid verification code. 3 attempts left.");
	/* the method is locked now: the countdown of its status */
	struct tfa_method_rec m = meth(1, "totp", "", true);
	m.fail_count = 5;
	m.locked_until = 100.0 + 900;
	tfaflow_error_text(&e, &m, 100.0, buf, sizeof buf);
	assert_string_equal(buf, "Wrong code: the method is now locked for 15m00s.");
	e = aerr(429, "tfa_locked", "Too many failed attempts. Try again in 15 minutes.");
	tfaflow_error_text(&e, &m, 100.0 + 60, buf, sizeof buf);
	assert_non_null(strstr(buf, "locked for 14m00s"));
	assert_non_null(strstr(buf, "no code can be checked"));
	tfaflow_error_text(&e, NULL, 0, buf, sizeof buf);
	assert_non_null(strstr(buf, "Try again in 15 minutes"));
	e = aerr(401, "invalid_backup_code", "Invalid or already used backup code");
	tfaflow_error_text(&e, NULL, 0, buf, sizeof buf);
	assert_string_equal(buf, "That backup code is wrong or already used.");
	e = aerr(403, "authorization_required", "Authorize first");
	tfaflow_error_text(&e, NULL, 0, buf, sizeof buf);
	assert_non_null(strstr(buf, "authorization"));
	e = aerr(400, "tfa_challenge_exists", "x");
	tfaflow_error_text(&e, NULL, 0, buf, sizeof buf);
	assert_non_null(strstr(buf, "resend"));
	/* a transport failure is said as such, whatever slug-like text */
	e = aerr(0, "", "Couldn't connect to server");
	e.cls = AE_TRANSPORT;
	tfaflow_error_text(&e, NULL, 0, buf, sizeof buf);
	assert_non_null(strstr(buf, "connect"));
}

static void test_codes_file(void **state)
{
	(void)state;
	struct tfa_backup_codes c;
	memset(&c, 0, sizeof c);
	for (size_t i = 0; i < TFA_BACKUP_CODES; i++)
		snprintf(c.code[i], sizeof c.code[i], "AAAA-BBBB-%04zu", i);
	c.n = TFA_BACKUP_CODES;
	char text[400];
	size_t len = tfaflow_codes_text(&c, text, sizeof text);
	assert_int_equal(len, TFA_BACKUP_CODES * 15);
	assert_memory_equal(text, "AAAA-BBBB-0000\nAAAA-BBBB-0001\n", 30);
	char small[20];
	assert_int_equal(tfaflow_codes_text(&c, small, sizeof small), 0);
	assert_string_equal(small, "");

	char dir[] = "/tmp/test_tfaflow.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256], err[400], lnk[256];
	snprintf(path, sizeof path, "%s/codes.txt", dir);
	mode_t old = umask(0); /* a careless umask must not widen the mode */
	bool ok = tfaflow_write_codes(path, &c, err, sizeof err);
	umask(old);
	assert_true(ok);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[64];
	int found = 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "AAAA-BBBB-", 10))
			found++;
	fclose(f);
	assert_int_equal(found, TFA_BACKUP_CODES);
	/* an existing file is not overwritten; the message names no code */
	assert_false(tfaflow_write_codes(path, &c, err, sizeof err));
	assert_non_null(strstr(err, "exists"));
	assert_null(strstr(err, "AAAA"));
	/* a symlink is not followed */
	snprintf(lnk, sizeof lnk, "%s/link.txt", dir);
	char target[256];
	snprintf(target, sizeof target, "%s/target.txt", dir);
	assert_int_equal(symlink(target, lnk), 0);
	assert_false(tfaflow_write_codes(lnk, &c, err, sizeof err));
	assert_int_not_equal(access(target, F_OK), 0);
	/* nothing to write */
	struct tfa_backup_codes none;
	memset(&none, 0, sizeof none);
	char p2[300];
	snprintf(p2, sizeof p2, "%s/none.txt", dir);
	assert_false(tfaflow_write_codes(p2, &none, err, sizeof err));
	unlink(path);
	unlink(lnk);
	rmdir(dir);
	/* the default path lives in HOME */
	setenv("HOME", "/home/op", 1);
	tfaflow_codes_path(0, path, sizeof path);
	assert_int_equal(strncmp(path, "/home/op/rentop-backup-codes-", 29), 0);
	unsetenv("HOME");
	tfaflow_codes_path(0, path, sizeof path);
	assert_string_equal(path, "");
}

/* A lost regeneration is told by the codes left: only a full set after
 * fewer before says it was made. */
static void test_regen_count(void **state)
{
	(void)state;
	assert_int_equal(tfaflow_regen_count(9, true), 0);
	assert_int_equal(tfaflow_regen_count(0, true), 0);
	assert_int_equal(tfaflow_regen_count(TFA_BACKUP_CODES, true), -1); /* cannot tell */
	assert_int_equal(tfaflow_regen_count(-1, true), -1);
	assert_int_equal(tfaflow_regen_count(TFA_BACKUP_CODES, false), 1);
	assert_int_equal(tfaflow_regen_count(9, false), 0);
	assert_int_equal(tfaflow_regen_count(-1, false), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_verify_build),
		cmocka_unit_test(test_challenge_choices),
		cmocka_unit_test(test_method_row),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_codes_file),
		cmocka_unit_test(test_regen_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
