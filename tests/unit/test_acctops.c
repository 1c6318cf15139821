/* test_acctops.c: the account view's change rules and its key contexts:
 * the scope picker read back from a mask, the merge of an edited role's
 * permissions (unknown names and constraints kept), the one-time 0600
 * secret file (mode, never overwriting, never through a symlink), path
 * expansion, the `:reports` machine id, a report's age, the "show api key"
 * request and answer, the counts a lost write's re-read is judged by; then the account view's per-section key contexts in
 * the complete keymap (each section's a/e/d its own action, the section
 * keys everywhere, help listing each section once, --read-only hiding
 * the changes) and M in the instance table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules/acct.h"
#include "flow/acctops.h"
#include "api/api_account.h"
#include "base/config.h"
#include "views/help/help.h"
#include "keymap.h"
#include "base/util.h"
#include "view.h"

#define BIT(c) (1u << (c))

static void test_scope_of(void **state)
{
	(void)state;
	assert_int_equal(acctops_scope_of(ACCT_CAT_ALL), SCOPE_FULL);
	assert_int_equal(acctops_scope_of(BIT(CAT_USER_READ) | BIT(CAT_INSTANCE_READ)), SCOPE_READ_ONLY);
	assert_int_equal(acctops_scope_of(BIT(CAT_INSTANCE_READ) | BIT(CAT_INSTANCE_WRITE) | BIT(CAT_MISC)),
			 SCOPE_INSTANCES);
	assert_int_equal(acctops_scope_of(BIT(CAT_USER_READ)), SCOPE_CUSTOM);
	assert_int_equal(acctops_scope_of(0), SCOPE_CUSTOM);
	/* every preset round-trips through its mask */
	for (int s = SCOPE_FULL; s < SCOPE_CUSTOM; s++)
		assert_int_equal(acctops_scope_of(acct_scope_mask((enum acct_scope)s, 0)), s);
}

/* The merged object as compact text with sorted keys. */
static char *merged(const char *orig, unsigned mask)
{
	json_t *j = acctops_permissions_merge(orig, mask);
	if (!j)
		return NULL;
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return s;
}

static void test_permissions_merge(void **state)
{
	(void)state;
	char *s;
	/* nothing before: the chosen categories under "api" */
	s = merged(NULL, BIT(CAT_USER_READ) | BIT(CAT_MISC));
	assert_string_equal(s, "{\"api\":{\"misc\":{},\"user_read\":{}}}");
	free(s);
	s = merged("", BIT(CAT_TEAM_READ));
	assert_string_equal(s, "{\"api\":{\"team_read\":{}}}");
	free(s);
	/* a kept category keeps its constraints; a dropped one goes; an
	 * unknown one and other top-level members stay */
	s = merged("{\"api\":{\"instance_read\":{\"ids\":[1]},\"instance_write\":{},\"gpu_magic\":{\"x\":1}},"
		   "\"ui\":{\"billing\":true}}",
		   BIT(CAT_INSTANCE_READ) | BIT(CAT_USER_READ));
	assert_string_equal(s, "{\"api\":{\"gpu_magic\":{\"x\":1},\"instance_read\":{\"ids\":[1]},"
			       "\"user_read\":{}},\"ui\":{\"billing\":true}}");
	free(s);
	/* categories at the top level stay at the top level */
	s = merged("{\"misc\":{},\"instance_read\":{}}", BIT(CAT_MISC) | BIT(CAT_BILLING_READ));
	assert_string_equal(s, "{\"billing_read\":{},\"misc\":{}}");
	free(s);
	/* nothing granted at all: NULL; an unknown category alone still counts */
	assert_null(merged("{\"api\":{\"misc\":{}}}", 0));
	assert_null(merged(NULL, 0));
	s = merged("{\"api\":{\"future_cat\":{}}}", 0);
	assert_string_equal(s, "{\"api\":{\"future_cat\":{}}}");
	free(s);
	/* not JSON or not an object: as if there were none */
	s = merged("not json", BIT(CAT_MISC));
	assert_string_equal(s, "{\"api\":{\"misc\":{}}}");
	free(s);
	s = merged("[1,2]", BIT(CAT_MISC));
	assert_string_equal(s, "{\"api\":{\"misc\":{}}}");
	free(s);
}

static void test_expand_path(void **state)
{
	(void)state;
	char out[64];
	assert_true(acctops_expand_path("~/k.txt", "/home/u", out, sizeof out));
	assert_string_equal(out, "/home/u/k.txt");
	assert_true(acctops_expand_path("  ~  ", "/home/u", out, sizeof out));
	assert_string_equal(out, "/home/u");
	assert_true(acctops_expand_path("~bob/x", "/home/u", out, sizeof out));
	assert_string_equal(out, "~bob/x"); /* only the user's own ~ */
	assert_true(acctops_expand_path("/tmp/x", "/home/u", out, sizeof out));
	assert_string_equal(out, "/tmp/x");
	assert_true(acctops_expand_path("~/x", NULL, out, sizeof out));
	assert_string_equal(out, "~/x");
	assert_false(acctops_expand_path("   ", "/home/u", out, sizeof out));
	assert_false(acctops_expand_path("~/a-rather-long-name-that-does-not-fit-in-sixty-four-bytes-at-all",
					 "/home/u", out, sizeof out));
}

static void test_write_secret(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_acctops.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256], link[256], err[512];
	snprintf(path, sizeof path, "%s/key", dir);
	mode_t old = umask(0); /* the file is 0600 whatever the umask */
	assert_true(acctops_write_secret(path, "sekrit-0123", err, sizeof err));
	umask(old);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	FILE *f = fopen(path, "r");
	char buf[64] = "";
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_string_equal(buf, "sekrit-0123\n");
	/* an existing file is never overwritten; the error names the path, not the text */
	assert_false(acctops_write_secret(path, "other", err, sizeof err));
	assert_non_null(strstr(err, "exists"));
	assert_null(strstr(err, "other"));
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_string_equal(buf, "sekrit-0123\n");
	/* nor followed through a symlink (dangling or not) */
	snprintf(link, sizeof link, "%s/link", dir);
	char target[256];
	snprintf(target, sizeof target, "%s/target", dir);
	assert_int_equal(symlink(target, link), 0);
	assert_false(acctops_write_secret(link, "x", err, sizeof err));
	assert_int_equal(access(target, F_OK), -1);
	/* a directory that does not exist: the reason */
	char missing[256];
	snprintf(missing, sizeof missing, "%s/no/such", dir);
	assert_false(acctops_write_secret(missing, "x", err, sizeof err));
	assert_non_null(strstr(err, "No such file"));
	unlink(link);
	unlink(path);
	rmdir(dir);
}

static void test_machine_id(void **state)
{
	(void)state;
	long id = 0;
	assert_true(acctops_machine_id("42", &id));
	assert_int_equal(id, 42);
	assert_true(acctops_machine_id("  31337 ", &id));
	assert_int_equal(id, 31337);
	const char *bad[] = { "", " ", "0", "-4", "4x", "x4", "1 2", "99999999999999999999999", NULL };
	for (int i = 0; bad[i]; i++)
		assert_false(acctops_machine_id(bad[i], &id));
	assert_false(acctops_machine_id(NULL, &id));
}

static void test_report_when(void **state)
{
	(void)state;
	char buf[80];
	double t = 1763900000.0; /* 2025-11-23T12:13:20Z */
	acctops_report_when("2025-11-23T12:13:20Z", t + 3 * 86400 + 3600, buf, sizeof buf);
	assert_string_equal(buf, "2025-11-23 12:13 (3d01h ago)");
	acctops_report_when("2025-11-23 12:13:20", t + 90, buf, sizeof buf);
	assert_string_equal(buf, "2025-11-23 12:13 (1m ago)");
	acctops_report_when("1763900000", t + 45, buf, sizeof buf);
	assert_string_equal(buf, "2025-11-23 12:13 (45s ago)");
	acctops_report_when("2025-11-23T12:13:20Z", t - 60, buf, sizeof buf); /* in the future */
	assert_string_equal(buf, "2025-11-23 12:13");
	acctops_report_when("last tuesday", t, buf, sizeof buf);
	assert_string_equal(buf, "last tuesday");
	acctops_report_when(NULL, t, buf, sizeof buf);
	assert_string_equal(buf, "-");
}

static void test_apikey_show(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "http://127.0.0.1:9";
	struct api_call call = api_apikey_show(&c, 5102);
	assert_string_equal(call.method, "GET");
	assert_string_equal(call.url, "http://127.0.0.1:9/api/v0/auth/apikeys/5102/");
	assert_null(call.body);
	api_call_free(&call);
	char key[16];
	json_t *j = json_string("abcdef");
	assert_true(api_apikey_shown(j, key, sizeof key));
	assert_string_equal(key, "abcdef");
	json_decref(j);
	j = json_pack("{s:s}", "key", "xyz");
	assert_true(api_apikey_shown(j, key, sizeof key));
	assert_string_equal(key, "xyz");
	json_decref(j);
	j = json_string("0123456789abcdef-too-long");
	assert_false(api_apikey_shown(j, key, sizeof key));
	json_decref(j);
	j = json_string("");
	assert_false(api_apikey_shown(j, key, sizeof key));
	json_decref(j);
	j = json_pack("{s:s}", "error", "not_found");
	assert_false(api_apikey_shown(j, key, sizeof key));
	json_decref(j);
}

/* ---- key contexts ---------------------------------------------------------- */

static struct keymap km;

static int setup_keys(void **state)
{
	(void)state;
	keymap_init(&km);
	view_keys_all(&km);
	return 0;
}

static enum action key_in(const char *ctx, const char *key)
{
	int c = keymap_ctx_by_name(ctx);
	assert_true(c > 0);
	return keymap_lookup(&km, c, keymap_parse_key(key));
}

static void test_section_contexts(void **state)
{
	(void)state;
	/* the same key is each section's own action */
	assert_int_equal(key_in("account-env", "a"), keymap_action_by_name("env-add"));
	assert_int_equal(key_in("account-apikeys", "a"), keymap_action_by_name("apikey-create"));
	assert_int_equal(key_in("account-ssh", "a"), keymap_action_by_name("ssh-key-add"));
	assert_int_equal(key_in("account-roles", "a"), keymap_action_by_name("role-create"));
	assert_int_equal(key_in("account-env", "e"), keymap_action_by_name("env-edit"));
	assert_int_equal(key_in("account-roles", "e"), keymap_action_by_name("role-edit"));
	assert_int_equal(key_in("account-apikeys", "d"), keymap_action_by_name("apikey-delete"));
	assert_int_equal(key_in("account-reports", "m"), keymap_action_by_name("reports-machine"));
	/* keys a section does not have do nothing there */
	assert_int_equal(key_in("account-apikeys", "e"), ACT_NONE);
	assert_int_equal(key_in("account-ssh", "e"), ACT_NONE);
	assert_int_equal(key_in("account", "a"), ACT_NONE);
	/* moving between sections and in the list works in every one */
	const char *secs[] = { "account", "account-env", "account-apikeys", "account-ssh",
			       "account-roles", "account-reports" };
	for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
		assert_int_equal(key_in(secs[i], "]"), keymap_action_by_name("account-next"));
		assert_int_equal(key_in(secs[i], "["), keymap_action_by_name("account-prev"));
		assert_int_equal(key_in(secs[i], "j"), ACT_DOWN);
	}
	/* t opens the 2FA view from every section */
	for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++)
		assert_int_equal(key_in(secs[i], "t"), keymap_action_by_name("account-tfa"));
	/* every change is AF_MUTATES; the reports are not */
	const char *mut[] = { "env-add", "env-edit", "env-delete", "apikey-create", "apikey-delete",
			      "ssh-key-add", "ssh-key-delete", "role-create", "role-edit", "role-delete" };
	for (size_t i = 0; i < sizeof mut / sizeof mut[0]; i++) {
		enum action a = keymap_action_by_name(mut[i]);
		assert_int_not_equal(a, ACT_NONE);
		assert_true(keymap_action_flags(a) & AF_MUTATES);
		char why[200];
		assert_non_null(keymap_action_refusal(a, "row", true, why, sizeof why));
	}
	assert_false(keymap_action_flags(keymap_action_by_name("reports-machine")) & AF_MUTATES);
	assert_false(keymap_action_flags(keymap_action_by_name("machine-reports")) & AF_MUTATES);
	/* M on an instance, in the table and the detail view */
	assert_int_equal(key_in("instances", "M"), keymap_action_by_name("machine-reports"));
	assert_int_equal(key_in("detail", "M"), keymap_action_by_name("machine-reports"));
	/* `bind account ] none` reaches the sections */
	struct key_binding b = { .context = "account", .key = "]", .action = "none" };
	struct keymap save = km;
	assert_int_equal(keymap_apply(&km, &b, 1), 0);
	assert_int_equal(key_in("account-apikeys", "]"), ACT_NONE);
	km = save;
}

/* The help lines under heading (until the next heading), joined. */
static void help_under(const struct help_line *h, size_t n, const char *heading, char *out,
		       size_t outn, int *count)
{
	out[0] = '\0';
	*count = 0;
	for (size_t i = 0; i < n; i++) {
		if (!h[i].heading || strcmp(h[i].text, heading) != 0)
			continue;
		(*count)++;
		for (size_t j = i + 1; j < n && !h[j].heading; j++) {
			size_t len = strlen(out);
			snprintf(out + len, outn - len, "%s %s|", h[j].keys, h[j].text);
		}
	}
}

static void test_section_help(void **state)
{
	(void)state;
	static struct help_line h[400];
	size_t n = help_build(&km, false, h, 400);
	assert_true(n < 400); /* nothing cut (help.c holds 400 lines) */
	char text[4000];
	int count;
	help_under(h, n, "Account view: API keys", text, sizeof text, &count);
	assert_int_equal(count, 1);
	assert_non_null(strstr(text, "a create an API key"));
	assert_non_null(strstr(text, "d delete the selected API key"));
	assert_null(strstr(text, "account section")); /* listed once, under the view */
	assert_null(strstr(text, "move down"));
	help_under(h, n, "Account view", text, sizeof text, &count);
	assert_int_equal(count, 1);
	assert_non_null(strstr(text, "] next account section"));
	help_under(h, n, "Account view: Team roles", text, sizeof text, &count);
	assert_non_null(strstr(text, "e change the selected role"));
	/* the sections are no `:` views */
	for (size_t i = 0; i < n; i++)
		assert_null(strstr(h[i].keys, ":account-"));
	/* read-only: the changes are gone, the reports stay */
	n = help_build(&km, true, h, 400);
	help_under(h, n, "Account view: API keys", text, sizeof text, &count);
	assert_int_equal(count, 0);
	help_under(h, n, "Account view: Machine reports", text, sizeof text, &count);
	assert_int_equal(count, 1);
	assert_non_null(strstr(text, "m choose the machine"));
}

/* What a re-read list holds of a write: names, fingerprints, a role's
 * name and scope. */
static void test_lost_counts(void **state)
{
	(void)state;
	struct env_var env[] = { { "HF_TOKEN", "****" }, { "WANDB", "****" } };
	assert_int_equal(acctops_env_count(env, 2, "WANDB"), 1);
	assert_int_equal(acctops_env_count(env, 2, "WAND"), 0);
	assert_int_equal(acctops_env_count(NULL, 0, "WANDB"), 0);
	struct api_key_rec keys[] = { { .id = 1, .name = "dup-key" }, { .id = 2, .name = "ci" },
				      { .id = 3, .name = "dup-key" }, { .id = 4, .name = NULL } };
	assert_int_equal(acctops_apikey_count(keys, 4, "dup-key"), 2);
	assert_int_equal(acctops_apikey_count(keys, 4, "dup"), 0);
	struct ssh_key_rec ssh[] = { { .id = 1, .fingerprint = "SHA256:abc" },
				     { .id = 2, .fingerprint = "" } };
	assert_int_equal(acctops_ssh_count(ssh, 2, "SHA256:abc"), 1);
	assert_int_equal(acctops_ssh_count(ssh, 2, ""), 0); /* an invalid line matches nothing */
	struct team_role roles[] = {
		{ .id = 5, .name = "ops", .permissions = "{\"api\":{\"instance_read\":{}}}" },
		{ .id = 6, .name = "dev", .permissions = "{\"api\":{\"instance_read\":{},\"misc\":{}}}" },
	};
	unsigned ir = BIT(CAT_INSTANCE_READ);
	assert_int_equal(acctops_role_count(roles, 2, 0, "ops", 0), 1);       /* create: by name */
	assert_int_equal(acctops_role_count(roles, 2, 0, "qa", 0), 0);
	assert_int_equal(acctops_role_count(roles, 2, 5, "ops", ir), 1);      /* edit: name and scope */
	assert_int_equal(acctops_role_count(roles, 2, 5, "ops", ir | BIT(CAT_MISC)), 0);
	assert_int_equal(acctops_role_count(roles, 2, 5, "dev", ir | BIT(CAT_MISC)), 0); /* not role 5 */
	assert_int_equal(acctops_role_count(roles, 2, 6, "dev", ir | BIT(CAT_MISC)), 1);
}

/* A pasted SSH key already listed: found by its fingerprint, or by its
 * blob when the listed line is not valid (no fingerprint); another key or
 * no list: none. */
static void test_ssh_duplicate(void **state)
{
	(void)state;
	struct ssh_key_rec v[2] = {
		{ .id = 7701, .type = "ssh-ed25519", .comment = "demo@laptop",
		  .fingerprint = "SHA256:abc", .public_key = "ssh-ed25519 AAAAone demo@laptop" },
		{ .id = 7702, .type = "", .comment = "", .fingerprint = "",
		  .public_key = "ssh-ed25519 AAAAtwo old@box" },
	};
	assert_ptr_equal(acctops_ssh_duplicate(v, 2, "SHA256:abc", "ssh-ed25519 AAAAother x"), &v[0]);
	assert_ptr_equal(acctops_ssh_duplicate(v, 2, "SHA256:zzz", "ssh-ed25519  AAAAtwo  new@host\n"),
			 &v[1]);
	assert_null(acctops_ssh_duplicate(v, 2, "SHA256:zzz", "ssh-ed25519 AAAAthree c"));
	assert_null(acctops_ssh_duplicate(v, 2, "", ""));
	assert_null(acctops_ssh_duplicate(NULL, 0, "SHA256:abc", "ssh-ed25519 AAAAone"));
}

/* The values of a secrets answer (v: reveal): each shape json_map_env_vars
 * reads; the service's mask and an empty value say there is none to show. */
static void test_env_values(void **state)
{
	(void)state;
	struct env_value *v;
	size_t n;
	json_t *j = json_loads("{\"success\":true,\"secrets\":{\"HF_TOKEN\":\"hf_abc\",\"W\":\"*****\"}}",
			       0, NULL);
	assert_true(acctops_env_values(j, &v, &n));
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v[i].key, "HF_TOKEN")) {
			assert_string_equal(v[i].value, "hf_abc");
			assert_false(acctops_env_masked(v[i].value));
		} else {
			assert_string_equal(v[i].key, "W");
			assert_true(acctops_env_masked(v[i].value));
		}
	}
	acctops_env_values_free(v, n);
	json_decref(j);
	j = json_loads("[{\"key\":\"A\",\"value\":\"x y\"},{\"key\":\"B\",\"value\":3},{\"value\":\"z\"}]",
		       0, NULL);
	assert_true(acctops_env_values(j, &v, &n));
	assert_int_equal(n, 2);
	assert_string_equal(v[0].value, "x y");
	assert_string_equal(v[1].value, ""); /* not a string: nothing to show */
	assert_true(acctops_env_masked(v[1].value));
	acctops_env_values_free(v, n);
	json_decref(j);
	j = json_loads("{\"success\":false,\"error\":\"auth\"}", 0, NULL);
	assert_false(acctops_env_values(j, &v, &n));
	assert_null(v);
	assert_int_equal(n, 0);
	json_decref(j);
	assert_true(acctops_env_masked(NULL));
	assert_false(acctops_env_masked("**x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scope_of),
		cmocka_unit_test(test_permissions_merge),
		cmocka_unit_test(test_expand_path),
		cmocka_unit_test(test_write_secret),
		cmocka_unit_test(test_machine_id),
		cmocka_unit_test(test_report_when),
		cmocka_unit_test(test_apikey_show),
		cmocka_unit_test(test_lost_counts),
		cmocka_unit_test(test_ssh_duplicate),
		cmocka_unit_test(test_env_values),
		cmocka_unit_test_setup(test_section_contexts, setup_keys),
		cmocka_unit_test_setup(test_section_help, setup_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
