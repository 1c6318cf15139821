/* test_acct.c: the account view's pure helpers: SSH public key lines
 * (fixed vectors, then keys of every type made by ssh-keygen whose
 * fingerprints must equal `ssh-keygen -l`'s, and a list of broken lines),
 * the .pub file reader and lister, the scope picker to permissions objects
 * and back to summaries, E.164 validation and normalisation, the lock and
 * window countdowns, base32 grouping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/acct.h"
#include "rules/sshkey.h"
#include "base/util.h"

/* A fixed ed25519 key and its fingerprint from `ssh-keygen -l -f`. */
#define ED_LINE "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP2 test@host"
#define ED_FP "SHA256:6VuNNVgYTVI5bxlPYs7l6zo7WmgRYwEp/4CIdwhan1I"

static void test_sshkey_fixed(void **state)
{
	(void)state;
	struct sshkey_info k;
	char err[160];
	if (!sshkey_parse(ED_LINE, &k, err, sizeof err))
		fail_msg("%s", err);
	assert_string_equal(k.type, "ssh-ed25519");
	assert_string_equal(k.comment, "test@host");
	assert_int_equal(k.bits, 256);
	/* trimmed, a trailing newline, no comment */
	assert_true(sshkey_parse("  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP2\r\n",
				 &k, err, sizeof err));
	assert_string_equal(k.comment, "");
	/* a hostile comment is sanitised */
	assert_true(sshkey_parse("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP2 "
				 "me \x1b[31mred\x1b[0m",
				 &k, err, sizeof err));
	assert_string_equal(k.comment, "me red");
}

static void bad(const char *line, const char *want)
{
	struct sshkey_info k;
	char err[160] = "";
	if (sshkey_parse(line, &k, err, sizeof err))
		fail_msg("accepted: %s", line);
	if (!strstr(err, want))
		fail_msg("'%s': error '%s', want '%s'", line, err, want);
}

static void test_sshkey_broken(void **state)
{
	(void)state;
	bad("", "empty");
	bad("ssh-foo AAAA", "unknown key type");
	bad("-----BEGIN OPENSSH PRIVATE KEY-----", "private key");
	bad("ssh-ed25519", "missing");
	bad("ssh-ed25519 AAAA!!!!", "base64");
	bad("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP", "base64");
	/* the line says rsa, the blob ed25519 */
	bad("ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP2 x",
	    "the key data says ssh-ed25519, the line says ssh-rsa");
	/* truncated blob (a valid base64 prefix) */
	bad("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8", "");
	/* authorized_keys options are not a key line */
	bad("from=\"1.2.3.4\" " ED_LINE, "unknown key type");
	char *big = xmalloc(SSHKEY_LINE_MAX + 10);
	memset(big, 'A', SSHKEY_LINE_MAX + 9);
	big[SSHKEY_LINE_MAX + 9] = '\0';
	memcpy(big, "ssh-rsa ", 8);
	bad(big, "too long");
	free(big);
}

/* Run a shell command, its first output line into out. */
static bool sh(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	bool ok = fgets(out, (int)n, p) != NULL;
	int rc = pclose(p);
	out[strcspn(out, "\n")] = '\0';
	return ok && rc == 0;
}

static void test_sshkey_against_ssh_keygen(void **state)
{
	(void)state;
	if (system("command -v ssh-keygen >/dev/null 2>&1") != 0) {
		fprintf(stderr, "# ssh-keygen is missing (openssh-client): skipped\n");
		skip();
	}
	char dir[] = "/tmp/rentop-test-sshkey-XXXXXX";
	assert_non_null(mkdtemp(dir));
	static const char *const kinds[][2] = {
		{"ed25519", ""}, {"rsa", "-b 2048"}, {"rsa", "-b 3072"}, {"ecdsa", "-b 256"},
		{"ecdsa", "-b 384"}, {"ecdsa", "-b 521"}, {"dsa", ""},
	};
	int tried = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		char cmd[512], fp[256], line[SSHKEY_LINE_MAX], path[128], err[160];
		snprintf(path, sizeof path, "%s/k%zu", dir, i);
		snprintf(cmd, sizeof cmd, "ssh-keygen -q -t %s %s -N '' -C 'user%zu@rentop test' -f %s 2>/dev/null",
			 kinds[i][0], kinds[i][1], i, path);
		if (system(cmd) != 0)
			continue; /* e.g. dsa disabled in this OpenSSH */
		snprintf(cmd, sizeof cmd, "ssh-keygen -l -E sha256 -f %s.pub | cut -d' ' -f1,2", path);
		assert_true(sh(cmd, fp, sizeof fp));
		char pub[160];
		snprintf(pub, sizeof pub, "%s.pub", path);
		if (!sshkey_read_file(pub, line, sizeof line, err, sizeof err))
			fail_msg("%s", err);
		struct sshkey_info k;
		if (!sshkey_parse(line, &k, err, sizeof err))
			fail_msg("%s: %s", kinds[i][0], err);
		char mine[256];
		snprintf(mine, sizeof mine, "%d %s", k.bits, k.fingerprint);
		if (strcmp(mine, fp))
			fail_msg("%s %s: mine '%s', ssh-keygen '%s'", kinds[i][0], kinds[i][1], mine, fp);
		char want_c[64];
		snprintf(want_c, sizeof want_c, "user%zu@rentop test", i);
		assert_string_equal(k.comment, want_c);
		tried++;
	}
	assert_true(tried >= 5);
	char **paths;
	size_t n = sshkey_list_pub(dir, &paths);
	assert_int_equal(n, (size_t)tried);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(strstr(paths[i], ".pub"));
		if (i)
			assert_true(strcmp(paths[i - 1], paths[i]) < 0);
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	/* a private key file is refused by the parser */
	char cmd[160], line[SSHKEY_LINE_MAX], err[160];
	snprintf(cmd, sizeof cmd, "%s/k0", dir);
	assert_true(sshkey_read_file(cmd, line, sizeof line, err, sizeof err));
	struct sshkey_info k;
	assert_false(sshkey_parse(line, &k, err, sizeof err));
	assert_non_null(strstr(err, "private key"));
	/* comments and blank lines before the key; a missing file */
	snprintf(cmd, sizeof cmd, "%s/c.pub", dir);
	FILE *f = fopen(cmd, "w");
	fprintf(f, "# my key\n\n%s\n", ED_LINE);
	fclose(f);
	assert_true(sshkey_read_file(cmd, line, sizeof line, err, sizeof err));
	assert_string_equal(line, ED_LINE);
	assert_false(sshkey_read_file("/nonexistent/x.pub", line, sizeof line, err, sizeof err));
	assert_non_null(strstr(err, "cannot read"));
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_fixed_fingerprint(void **state)
{
	(void)state;
	struct sshkey_info k;
	char err[160];
	assert_true(sshkey_parse(ED_LINE, &k, err, sizeof err));
	assert_string_equal(k.fingerprint, ED_FP);
}

static char *perm_text(enum acct_scope s, unsigned custom)
{
	json_t *p = acct_scope_permissions(s, custom);
	if (!p)
		return NULL;
	char *t = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(p);
	return t;
}

static void test_scopes(void **state)
{
	(void)state;
	char *t = perm_text(SCOPE_READ_ONLY, 0);
	assert_string_equal(t, "{\"api\":{\"instance_read\":{},\"user_read\":{}}}");
	char sum[128];
	assert_string_equal(acct_rights_summary(t, sum, sizeof sum), "read-only");
	free(t);
	t = perm_text(SCOPE_INSTANCES, 0);
	assert_string_equal(t, "{\"api\":{\"instance_read\":{},\"instance_write\":{},\"misc\":{}}}");
	assert_string_equal(acct_rights_summary(t, sum, sizeof sum), "instances");
	free(t);
	t = perm_text(SCOPE_FULL, 0);
	json_t *j = json_loads(t, 0, NULL);
	assert_int_equal(json_object_size(json_object_get(j, "api")), CAT__COUNT);
	json_decref(j);
	assert_string_equal(acct_rights_summary(t, sum, sizeof sum), "full access");
	free(t);
	t = perm_text(SCOPE_CUSTOM, (1u << CAT_BILLING_READ) | (1u << CAT_MISC));
	assert_string_equal(t, "{\"api\":{\"billing_read\":{},\"misc\":{}}}");
	assert_string_equal(acct_rights_summary(t, sum, sizeof sum), "custom: misc, billing_read");
	free(t);
	assert_null(acct_scope_permissions(SCOPE_CUSTOM, 0));
	/* custom picks that equal a named scope are summarised by its name */
	t = perm_text(SCOPE_CUSTOM, (1u << CAT_USER_READ) | (1u << CAT_INSTANCE_READ));
	assert_string_equal(acct_rights_summary(t, sum, sizeof sum), "read-only");
	free(t);
	/* rights as the service sends them */
	assert_string_equal(acct_rights_summary("", sum, sizeof sum), "full access");
	assert_string_equal(acct_rights_summary("null", sum, sizeof sum), "full access");
	assert_string_equal(acct_rights_summary("{\"misc\":{},\"user_read\":{},\"instance_read\":{}}", sum, sizeof sum),
			    "custom: misc, user_read, instance_read");
	assert_string_equal(acct_rights_summary("{\"api\":{\"instance_read\":{},\"new_thing\":{\"x\":1}}}", sum,
						sizeof sum),
			    "custom: instance_read, +1 other");
	int unknown;
	assert_int_equal(acct_rights_mask_text("{\"api\":{\"zzz\":{}}}", &unknown), 0);
	assert_int_equal(unknown, 1);
	assert_string_equal(acct_scope_name(SCOPE_INSTANCES), "instances");
	assert_int_equal(acct_category_from_name("team_write"), CAT_TEAM_WRITE);
	assert_int_equal(acct_category_from_name("nope"), -1);
}

static void test_e164(void **state)
{
	(void)state;
	assert_true(acct_e164_valid("+14155552671"));
	assert_true(acct_e164_valid("+442071838750"));
	assert_true(acct_e164_valid("+123456789012345")); /* 15 digits */
	assert_false(acct_e164_valid("+1234567890123456")); /* 16 */
	assert_false(acct_e164_valid("+1234567")); /* 7 */
	assert_false(acct_e164_valid("14155552671"));
	assert_false(acct_e164_valid("+04155552671"));
	assert_false(acct_e164_valid("+1 415 555 2671"));
	assert_false(acct_e164_valid("+1415555267a"));
	assert_false(acct_e164_valid(""));
	assert_false(acct_e164_valid(NULL));
	char out[32];
	assert_true(acct_e164_normalize(" +1 (415) 555-2671 ", out, sizeof out));
	assert_string_equal(out, "+14155552671");
	assert_true(acct_e164_normalize("0044 20.7183.8750", out, sizeof out));
	assert_string_equal(out, "+442071838750");
	assert_false(acct_e164_normalize("415-555-2671", out, sizeof out));
	assert_false(acct_e164_normalize("+1415555267112345678901234567890", out, 8));
}

static void test_countdowns_and_base32(void **state)
{
	(void)state;
	char buf[64];
	double now = 1000000.0;
	assert_true(acct_lock_countdown(buf, sizeof buf, now + 872, now));
	assert_string_equal(buf, "locked for 14m32s");
	assert_true(acct_lock_countdown(buf, sizeof buf, now + 871.2, now));
	assert_string_equal(buf, "locked for 14m32s"); /* rounded up */
	assert_true(acct_lock_countdown(buf, sizeof buf, now + 5, now));
	assert_string_equal(buf, "locked for 5s");
	assert_true(acct_lock_countdown(buf, sizeof buf, now + 3723, now));
	assert_string_equal(buf, "locked for 1h02m03s");
	assert_false(acct_lock_countdown(buf, sizeof buf, now, now));
	assert_string_equal(buf, "");
	assert_false(acct_lock_countdown(buf, sizeof buf, now - 10, now));
	assert_false(acct_lock_countdown(buf, sizeof buf, NAN, now));
	assert_false(acct_lock_countdown(buf, sizeof buf, 0, now));
	assert_true(fabs(acct_window_left(now - 600, now) - 1200) < 1e-9);
	assert_true(acct_window_left(now - 1800, now) == 0);
	assert_true(acct_window_left(0, now) == 0);
	acct_fmt_countdown(buf, sizeof buf, 1200);
	assert_string_equal(buf, "20m00s");

	assert_string_equal(acct_base32_groups("jbswy3dpehpk3pxp", buf, sizeof buf), "JBSW Y3DP EHPK 3PXP");
	assert_string_equal(acct_base32_groups("JBSWY3DPEHPK3PXPAB==", buf, sizeof buf), "JBSW Y3DP EHPK 3PXP AB");
	assert_string_equal(acct_base32_groups("JBSW Y3DP", buf, sizeof buf), "JBSW Y3DP");
	assert_string_equal(acct_base32_groups("", buf, sizeof buf), "");
	char small[8];
	assert_string_equal(acct_base32_groups("JBSWY3DPEHPK", small, sizeof small), "");
	for (size_t i = 0; i < sizeof small; i++)
		assert_int_equal(small[i], 0); /* nothing of the secret left */
	/* a 32-character secret fits 40 bytes exactly (32 + 7 spaces + NUL) */
	char exact[40];
	assert_string_equal(acct_base32_groups("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", exact, sizeof exact),
			    "ABCD EFGH IJKL MNOP QRST UVWX YZ23 4567");
}

/* An "add a key" form's input: the pasted line first, else the chosen
 * file, else a refusal naming the field to fill (both SSH key forms). */
static void test_sshkey_from_input(void **state)
{
	(void)state;
	char line[SSHKEY_LINE_MAX], err[160], path[] = "/tmp/rentop-test-keyin-XXXXXX";
	const char *field;
	struct sshkey_info k;
	assert_true(sshkey_from_input(ED_LINE, NULL, line, sizeof line, &k, err, sizeof err, &field));
	assert_string_equal(k.fingerprint, ED_FP);
	assert_string_equal(field, "line");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "# comment\n" ED_LINE "\n", strlen("# comment\n" ED_LINE "\n")) > 0);
	close(fd);
	line[0] = '\0';
	assert_true(sshkey_from_input("", path, line, sizeof line, &k, err, sizeof err, &field));
	assert_string_equal(k.fingerprint, ED_FP);
	assert_string_equal(field, "file");
	/* the pasted line wins over the file */
	assert_false(sshkey_from_input("ssh-ed25519 !!!", path, line, sizeof line, &k, err, sizeof err, &field));
	assert_string_equal(field, "line");
	assert_false(sshkey_from_input("", NULL, line, sizeof line, &k, err, sizeof err, &field));
	assert_string_equal(field, "line");
	assert_non_null(strstr(err, "paste a public key line or choose a .pub file"));
	unlink(path);
	assert_false(sshkey_from_input(NULL, path, line, sizeof line, &k, err, sizeof err, &field));
	assert_string_equal(field, "file");
	char small[8];
	assert_false(sshkey_from_input(ED_LINE, NULL, small, sizeof small, &k, err, sizeof err, &field));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sshkey_fixed),
		cmocka_unit_test(test_sshkey_from_input),
		cmocka_unit_test(test_fixed_fingerprint),
		cmocka_unit_test(test_sshkey_broken),
		cmocka_unit_test(test_sshkey_against_ssh_keygen),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_e164),
		cmocka_unit_test(test_countdowns_and_base32),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
