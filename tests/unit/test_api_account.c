/* test_api_account.c: the account request builders and decoders, alone and
 * run with api_run() against rentop-sim: env vars (add, existing_key, edit,
 * nonexistent_key, delete; values masked in the list), API keys (create
 * with a scope, the key decoded once, the rights summarised, delete with its
 * bare-string answer), SSH keys (add, fingerprint in the list, delete), team
 * roles (roles-full, create, "Missing permissions parameter", edit, delete),
 * machine reports, and 2FA: TOTP set-up to confirm-new with backup codes
 * (codes from oathtool), wrong codes counting to the lock with its
 * countdown, authorization_required then authorize with a backup code and a
 * second method, update, regenerate backup codes, remove with a backup code,
 * login with a code and logout, SMS send / tfa_challenge_exists /
 * sms_rate_limited / E.164, email code when the address is not verified. */
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

#include "rules/acct.h"
#include "api/api.h"
#include "api/api_account.h"
#include "net/auth.h"
#include "base/config.h"
#include "json/json_map.h"
#include "rules/sshkey.h"
#include "testsim.h"
#include "base/util.h"

#define ED_LINE "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP2 test@host"
#define ED_FP "SHA256:6VuNNVgYTVI5bxlPYs7l6zo7WmgRYwEp/4CIdwhan1I"

static struct config fake_cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "https://console.example";
	c.run_url = "https://run.example";
	return c;
}

static void test_builders(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct api_call c = api_env_add(&cfg, "HF_TOKEN", "s3cret");
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.url, "https://console.example/api/v0/secrets/");
	assert_string_equal(c.body, "{\"key\":\"HF_TOKEN\",\"value\":\"s3cret\"}");
	api_call_free(&c);
	assert_null(c.body);
	c = api_env_delete(&cfg, "HF_TOKEN");
	assert_string_equal(c.method, "DELETE");
	assert_string_equal(c.body, "{\"key\":\"HF_TOKEN\"}");
	api_call_free(&c);
	assert_true(api_env_name_valid("HF_TOKEN"));
	assert_true(api_env_name_valid("_x1"));
	assert_false(api_env_name_valid("1X"));
	assert_false(api_env_name_valid("A-B"));
	assert_false(api_env_name_valid(""));

	c = api_apikey_create(&cfg, "ci", acct_scope_permissions(SCOPE_READ_ONLY, 0));
	assert_string_equal(c.body,
			    "{\"name\":\"ci\",\"permissions\":{\"api\":{\"user_read\":{},\"instance_read\":{}}}}");
	api_call_free(&c);
	c = api_apikey_delete(&cfg, 12);
	assert_string_equal(c.url, "https://console.example/api/v0/auth/apikeys/12/");
	api_call_free(&c);
	c = api_ssh_add(&cfg, "  " ED_LINE "\r\n");
	assert_string_equal(c.body, "{\"ssh_key\":\"" ED_LINE "\"}");
	api_call_free(&c);
	c = api_role_edit(&cfg, "on call", "oncall", NULL);
	assert_string_equal(c.url, "https://console.example/api/v0/team/roles/on%20call/");
	assert_string_equal(c.body, "{\"name\":\"oncall\"}");
	api_call_free(&c);
	c = api_machine_reports(&cfg, 4242);
	assert_string_equal(c.url, "https://console.example/api/v0/machines/4242/reports/");
	assert_string_equal(c.method, "GET");
	api_call_free(&c);

	struct tfa_verify v = {.method = "backup", .code = "ABCD-EFGH-IJKL"};
	c = api_tfa_remove(&cfg, &v, 7);
	assert_string_equal(c.method, "DELETE");
	assert_string_equal(c.url, "https://console.example/api/v0/tfa/");
	assert_string_equal(c.body, "{\"backup_code\":\"ABCD-EFGH-IJKL\",\"target_id\":7}");
	api_call_free(&c);
	struct tfa_verify s = {.method = "sms", .method_id = 3, .code = "123456", .secret = "chal"};
	c = api_tfa_login_with(&cfg, &s);
	assert_string_equal(c.body,
			    "{\"tfa_method\":\"sms\",\"code\":\"123456\",\"secret\":\"chal\",\"tfa_method_id\":3}");
	api_call_free(&c);
	c = api_tfa_authorize_start(&cfg, &s);
	assert_string_equal(c.body, "{\"tfa_method\":\"sms\",\"tfa_method_id\":3}"); /* no code in step 1 */
	api_call_free(&c);
	api_tfa_verify_wipe(&s);
	assert_int_equal(s.code[0], 0);
	c = api_tfa_update(&cfg, 3, NULL, 1);
	assert_string_equal(c.body, "{\"tfa_method_id\":3,\"is_primary\":true}");
	api_call_free(&c);
	c = api_tfa_confirm_new(&cfg, "sms", "123456", "chal", "+14155552671", "phone");
	json_t *b = json_loads(c.body, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(b, "phone_number")), "+14155552671");
	assert_string_equal(json_string_value(json_object_get(b, "label")), "phone");
	json_decref(b);
	api_call_free(&c);
	assert_true(api_tfa_label_valid("my phone"));
	assert_true(api_tfa_label_valid("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
					"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
					"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
					"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9")); /* 30 chars, 60 bytes */
	assert_false(api_tfa_label_valid("0123456789012345678901234567890")); /* 31 */
	assert_false(api_tfa_label_valid("a\x1b[31m"));
	assert_false(api_tfa_label_valid("a\xe2\x80\xae" "b"));
	assert_false(api_tfa_label_valid("\xff"));
}

static void test_decoders(void **state)
{
	(void)state;
	json_t *r = json_loads("{\"success\":true,\"id\":9,\"key\":\"abcdef0123456789\",\"permissions\":null}",
			       0, NULL);
	char key[64];
	long id;
	assert_true(api_apikey_created(r, key, sizeof key, &id));
	assert_string_equal(key, "abcdef0123456789");
	assert_int_equal(id, 9);
	char tiny[8];
	assert_false(api_apikey_created(r, tiny, sizeof tiny, &id));
	json_decref(r);

	r = json_loads("[{\"id\":1,\"key\":\"" ED_LINE "\",\"created_at\":\"2026-01-02T03:04:05Z\"},"
		       "{\"id\":2,\"public_key\":\"garbage\\u001b[2J\",\"created_at\":1700000000.5},"
		       "{\"id\":3,\"public_key\":\"ssh-ed25519 AAAAnotakey op@laptop\"},"
		       "{\"key\":\"no id\"}]",
		       0, NULL);
	struct ssh_key_rec *v = NULL;
	size_t n = 0;
	assert_true(api_ssh_keys(r, &v, &n));
	json_decref(r);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].fingerprint, ED_FP);
	assert_string_equal(v[0].type, "ssh-ed25519");
	assert_string_equal(v[0].comment, "test@host");
	assert_true(fabs(v[0].created_at - 1767323045.0) < 1e-6);
	assert_string_equal(v[1].fingerprint, "");
	assert_string_equal(v[1].public_key, "garbage");
	assert_string_equal(v[1].comment, "");
	/* a key that does not validate still shows its comment */
	assert_string_equal(v[2].type, "");
	assert_string_equal(v[2].comment, "op@laptop");
	api_ssh_keys_free(v, n);
	r = json_loads("{\"ssh_keys\":[]}", 0, NULL);
	v = NULL;
	n = 0;
	assert_true(api_ssh_keys(r, &v, &n));
	api_ssh_keys_free(v, n);
	json_decref(r);

	r = json_loads("[{\"id\":1,\"name\":\"owner\",\"permissions\":{\"api\":{\"misc\":{},\"user_read\":{},"
		       "\"instance_read\":{},\"instance_write\":{}}}},"
		       "{\"name\":\"ro\",\"permissions\":\"{\\\"api\\\":{\\\"user_read\\\":{},\\\"instance_read\\\":{}}}\"},"
		       "{\"name\":\"empty\"},{\"id\":4}]",
		       0, NULL);
	struct team_role *tr = NULL;
	n = 0;
	assert_true(api_team_roles(r, &tr, &n));
	json_decref(r);
	assert_int_equal(n, 3);
	assert_string_equal(tr[0].summary, "custom: misc, user_read, instance_read, instance_write");
	assert_string_equal(tr[1].summary, "read-only");
	assert_int_equal(tr[1].id, 0);
	assert_string_equal(tr[2].summary, "none");
	api_team_roles_free(tr, n);
	/* the docs type permissions as a list of names: shown, never blanked;
	 * text that is not JSON as sent (and granting nothing named) */
	r = json_loads("[{\"id\":5,\"name\":\"dev\",\"permissions\":[\"read\",\"write\"]},"
		       "{\"id\":6,\"name\":\"odd\",\"permissions\":\"read,write\"},"
		       "{\"id\":7,\"name\":\"cat\",\"permissions\":[\"instance_read\",\"misc\"]},"
		       "{\"id\":8,\"name\":\"none\",\"permissions\":[]}]",
		       0, NULL);
	tr = NULL;
	n = 0;
	assert_true(api_team_roles(r, &tr, &n));
	json_decref(r);
	assert_int_equal(n, 4);
	assert_string_equal(tr[0].permissions, "[\"read\",\"write\"]");
	assert_string_equal(tr[0].summary, "list: read, write");
	assert_int_equal(acct_rights_mask_text(tr[0].permissions, NULL), 0);
	assert_string_equal(tr[1].permissions, "read,write");
	assert_string_equal(tr[1].summary, "as sent: read,write");
	int unknown = 0;
	assert_int_equal(acct_rights_mask_text(tr[1].permissions, &unknown), 0); /* never "all" */
	assert_int_equal(unknown, 1);
	assert_string_equal(tr[2].summary, "list: instance_read, misc");
	assert_int_not_equal(acct_rights_mask_text(tr[2].permissions, NULL), 0);
	assert_string_equal(tr[3].summary, "list: none");
	api_team_roles_free(tr, n);

	r = json_loads("{\"msg\":\"success\",\"backup_codes\":[\"AAAA-BBBB-CCCC\",\"bad code!\",7,"
		       "\"DDDD-EEEE-FFFF\"]}",
		       0, NULL);
	struct tfa_backup_codes bc;
	assert_true(api_tfa_backup_codes(r, &bc));
	assert_int_equal(bc.n, 2);
	assert_string_equal(bc.code[1], "DDDD-EEEE-FFFF");
	explicit_bzero(&bc, sizeof bc);
	json_decref(r);
	r = json_loads("{\"secret\":\"JBSWY3DPEHPK3PXP\",\"provisioning_uri\":"
		       "\"otpauth://totp/rentop:me?secret=JBSWY3DPEHPK3PXP&issuer=rentop\"}",
		       0, NULL);
	char sec[64], uri[256];
	assert_true(api_tfa_totp_setup_result(r, sec, sizeof sec, uri, sizeof uri));
	assert_string_equal(sec, "JBSWY3DPEHPK3PXP");
	json_decref(r);
	r = json_loads("{\"secret\":\"JBSWY3DPEHPK3PXP\",\"provisioning_uri\":\"https://evil/\"}", 0, NULL);
	assert_false(api_tfa_totp_setup_result(r, sec, sizeof sec, uri, sizeof uri));
	assert_int_equal(sec[0], 0); /* wiped on refusal */
	json_decref(r);
	int remaining;
	bool disabled;
	r = json_loads("{\"msg\":\"2FA method removed\",\"remaining_methods\":1}", 0, NULL);
	assert_true(api_tfa_removed(r, &remaining, &disabled));
	assert_int_equal(remaining, 1);
	assert_false(disabled);
	json_decref(r);
	r = json_loads("{\"msg\":\"2FA Successfully Disabled\"}", 0, NULL);
	assert_true(api_tfa_removed(r, &remaining, &disabled));
	assert_true(disabled);
	json_decref(r);
	/* a send's "sent to": sanitised (no escape reaches the screen), absent -> false */
	char msg[64];
	r = json_loads("{\"msg\":\"Verification code sent to \\u001b[31md***@example.com\",\"secret\":\"s\"}",
		       0, NULL);
	assert_true(api_tfa_sent_msg(r, msg, sizeof msg));
	assert_string_equal(msg, "Verification code sent to d***@example.com");
	json_decref(r);
	r = json_loads("{\"secret\":\"s\"}", 0, NULL);
	assert_false(api_tfa_sent_msg(r, msg, sizeof msg));
	assert_string_equal(msg, "");
	json_decref(r);
}

static void tfa_err(int status, const char *body, enum tfa_err_kind kind, double now, const char *text)
{
	struct tfa_error e;
	assert_true(api_tfa_error_decode(status, body, strlen(body), &e));
	assert_int_equal(e.kind, kind);
	char buf[256];
	api_tfa_error_text(&e, now, buf, sizeof buf);
	if (!strstr(buf, text))
		fail_msg("%s: '%s' lacks '%s'", body, buf, text);
}

static void test_tfa_errors(void **state)
{
	(void)state;
	double now = 1800000000.0;
	struct tfa_error e;
	assert_false(api_tfa_error_decode(200, "{\"success\":true}", 16, &e));
	tfa_err(400, "{\"success\":false,\"error\":\"2fa_verification_failed\",\"msg\":\"Invalid\",\"fail_count\":2,"
		     "\"locked_until\":null}",
		TFAE_WRONG_CODE, now, "2 of 5 attempts used");
	char body[256];
	snprintf(body, sizeof body,
		 "{\"success\":false,\"error\":\"tfa_locked\",\"msg\":\"Too many\",\"fail_count\":5,\"locked_until\":%.1f}",
		 now + 872);
	tfa_err(429, body, TFAE_LOCKED, now, "locked for 14m32s");
	assert_true(api_tfa_error_decode(429, body, strlen(body), &e));
	assert_int_equal(e.fail_count, 5);
	assert_false(api_tfa_may_send(&e, now));
	assert_true(api_tfa_may_send(&e, now + 900));
	tfa_err(429, body, TFAE_LOCKED, now + 900, "lock has ended");
	tfa_err(400, "{\"error\":\"2fa_expired\",\"msg\":\"x\"}", TFAE_EXPIRED, now, "expired");
	tfa_err(403, "{\"error\":\"authorization_required\",\"msg\":\"x\"}", TFAE_AUTH_REQUIRED, now, "authorization");
	tfa_err(400, "{\"error\":\"duplicate_tfa_method\",\"msg\":\"x\"}", TFAE_DUPLICATE, now, "already");
	tfa_err(400, "{\"error\":\"email_not_verified\",\"msg\":\"x\"}", TFAE_EMAIL_NOT_VERIFIED, now, "not verified");
	tfa_err(429, "{\"error\":\"sms_rate_limited\",\"msg\":\"x\"}", TFAE_SMS_RATE_LIMITED, now, "wait");
	tfa_err(400, "{\"error\":\"tfa_challenge_exists\",\"msg\":\"x\"}", TFAE_CHALLENGE_EXISTS, now, "resend");
	tfa_err(401, "{\"error\":\"invalid_backup_code\",\"msg\":\"x\"}", TFAE_INVALID_BACKUP, now, "backup code");
	tfa_err(404, "{\"error\":\"challenge_not_found\",\"msg\":\"x\"}", TFAE_NO_CHALLENGE, now, "start again");
	/* anything else shows the service's text, with key-like runs masked */
	tfa_err(500, "{\"error\":\"boom\",\"msg\":\"key 0123456789abcdef0123456789abcdef0123 leaked\"}", TFAE_OTHER, now,
		"********");
	tfa_err(200, "{\"success\":false,\"msg\":\"nope\"}", TFAE_OTHER, now, "nope");
	struct api_error ae = {.cls = AE_CLIENT, .http_status = 400};
	util_strlcpy(ae.slug, "existing_key", sizeof ae.slug);
	util_strlcpy(ae.msg, "Environment variable X already exists", sizeof ae.msg);
	char buf[256];
	api_account_error_text(&ae, buf, sizeof buf);
	assert_non_null(strstr(buf, "edit it instead"));
}

/* ---- against the simulator ------------------------------------------------ */

static struct testsim sim;
static struct auth *au;
static struct api_client cl;

static int sim_up(void **state)
{
	(void)state;
	static const char *const args[] = {"--rate-limits", "off", "--instances", "12", NULL};
	if (testsim_start(&sim, args) != 0)
		return -1;
	setenv("VAST_API_KEY", sim.key, 1);
	au = auth_new(&sim.cfg, NULL);
	api_client_init(&cl, &sim.cfg, au);
	return 0;
}

static int sim_down(void **state)
{
	(void)state;
	api_client_cleanup(&cl);
	auth_free(au);
	unsetenv("VAST_API_KEY");
	testsim_stop(&sim);
	return 0;
}

static int sim_reset(void **state)
{
	(void)state;
	auth_session_expired(au);
	return testsim_ctl(&sim, "reset", "{}") == 200 ? 0 : -1;
}

static json_t *run_ok(struct api_call c)
{
	json_t *root = NULL;
	struct api_error e;
	bool ok = api_run(&cl, &c, &root, &e);
	if (!ok)
		fail_msg("%s %s: %d %s %s", c.method, c.url, e.http_status, e.slug, e.msg);
	api_call_free(&c);
	return root;
}

static struct api_error run_fail(struct api_call c)
{
	json_t *root = NULL;
	struct api_error e;
	if (api_run(&cl, &c, &root, &e))
		fail_msg("%s %s succeeded", c.method, c.url);
	api_call_free(&c);
	return e;
}

/* A 2FA call expected to fail: its decoded error (run without retries). */
static struct tfa_error run_tfa_fail(struct api_call c)
{
	struct http_opts o = {.connect_timeout_s = 5, .total_timeout_s = 10};
	struct api_error e;
	char *hdr = auth_header(au);
	struct http_xfer *x = http_xfer_new(&o, c.method, c.url, c.body, hdr, &e);
	auth_header_free(hdr);
	assert_non_null(x);
	http_xfer_perform(x);
	struct tfa_error te;
	if (!api_tfa_error_from_xfer(x, &te))
		fail_msg("%s %s succeeded", c.method, c.url);
	http_xfer_free(x);
	api_call_free(&c);
	return te;
}

static void test_sim_env_vars(void **state)
{
	(void)state;
	json_t *r = run_ok(api_env_list(&sim.cfg));
	struct env_var *v = NULL;
	size_t n = 0;
	assert_true(json_map_env_vars(r, &v, &n));
	json_decref(r);
	assert_int_equal(n, 2);
	json_map_env_vars_free(v, n);
	json_decref(run_ok(api_env_add(&sim.cfg, "NEW_VAR", "value-123")));
	struct api_error e = run_fail(api_env_add(&sim.cfg, "NEW_VAR", "x"));
	assert_string_equal(e.slug, "existing_key");
	json_decref(run_ok(api_env_edit(&sim.cfg, "NEW_VAR", "value-456")));
	e = run_fail(api_env_edit(&sim.cfg, "NO_SUCH", "x"));
	assert_string_equal(e.slug, "nonexistent_key");
	char buf[256];
	assert_non_null(strstr(api_account_error_text(&e, buf, sizeof buf), "No variable"));
	json_t *st = testsim_state(&sim);
	assert_string_equal(json_string_value(json_object_get(json_object_get(st, "secrets"), "NEW_VAR")),
			    "value-456");
	json_decref(st);
	r = run_ok(api_env_list(&sim.cfg));
	v = NULL;
	n = 0;
	assert_true(json_map_env_vars(r, &v, &n));
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_null(strstr(v[i].value, "value-"));
	json_map_env_vars_free(v, n);
	char *dump = json_dumps(r, 0);
	assert_null(strstr(dump, "value-456")); /* the service masks values */
	free(dump);
	json_decref(r);
	json_decref(run_ok(api_env_delete(&sim.cfg, "NEW_VAR")));
	e = run_fail(api_env_delete(&sim.cfg, "NEW_VAR"));
	assert_string_equal(e.slug, "nonexistent_key");
	e = run_fail(api_env_add(&sim.cfg, "", "x"));
	assert_string_equal(e.slug, "missing_input");
}

static void test_sim_api_keys(void **state)
{
	(void)state;
	json_t *r = run_ok(api_apikey_create(&sim.cfg, "ci-reader", acct_scope_permissions(SCOPE_READ_ONLY, 0)));
	char key[160];
	long id;
	assert_true(api_apikey_created(r, key, sizeof key, &id));
	json_decref(r);
	assert_true(strlen(key) >= 32);
	r = run_ok(api_apikeys_list(&sim.cfg));
	char *dump = json_dumps(r, 0);
	assert_null(strstr(dump, key)); /* the list never carries keys */
	free(dump);
	struct api_key_rec *v = NULL;
	size_t n = 0;
	assert_true(json_map_api_keys(r, &v, &n));
	json_decref(r);
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		char sum[128];
		acct_rights_summary(v[i].rights, sum, sizeof sum);
		if (v[i].id == id) {
			found = true;
			assert_string_equal(v[i].name, "ci-reader");
			assert_string_equal(sum, "read-only");
		}
	}
	assert_true(found);
	json_map_api_keys_free(v, n);
	/* the new key reads but cannot write */
	char hdr[256];
	snprintf(hdr, sizeof hdr, "Authorization: Bearer %s", key);
	struct http_opts o = {.connect_timeout_s = 5, .total_timeout_s = 10};
	struct api_error e;
	struct api_call c = api_env_list(&sim.cfg);
	struct http_xfer *x = http_xfer_new(&o, c.method, c.url, NULL, hdr, &e);
	http_xfer_perform(x);
	assert_int_equal(http_xfer_status(x), 200);
	http_xfer_free(x);
	api_call_free(&c);
	c = api_env_add(&sim.cfg, "BY_RO_KEY", "x");
	x = http_xfer_new(&o, c.method, c.url, c.body, hdr, &e);
	http_xfer_perform(x);
	assert_true(http_xfer_failed(x, &e));
	assert_string_equal(e.slug, "permission_denied");
	http_xfer_free(x);
	api_call_free(&c);
	explicit_bzero(hdr, sizeof hdr);
	explicit_bzero(key, sizeof key);
	r = run_ok(api_apikey_delete(&sim.cfg, id));
	assert_true(json_is_string(r));
	json_decref(r);
	e = run_fail(api_apikey_delete(&sim.cfg, id));
	assert_int_equal(e.http_status, 404);
}

static void test_sim_ssh_keys(void **state)
{
	(void)state;
	json_t *r = run_ok(api_ssh_add(&sim.cfg, ED_LINE "\n"));
	json_decref(r);
	r = run_ok(api_ssh_list(&sim.cfg));
	struct ssh_key_rec *v = NULL;
	size_t n = 0;
	assert_true(api_ssh_keys(r, &v, &n));
	json_decref(r);
	long id = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].fingerprint, ED_FP)) {
			id = v[i].id;
			assert_string_equal(v[i].comment, "test@host");
			assert_false(isnan(v[i].created_at));
		}
	api_ssh_keys_free(v, n);
	assert_true(id > 0);
	json_decref(run_ok(api_ssh_delete(&sim.cfg, id)));
	struct api_error e = run_fail(api_ssh_delete(&sim.cfg, id));
	assert_int_equal(e.http_status, 404);
}

static void test_sim_roles_and_reports(void **state)
{
	(void)state;
	json_t *r = run_ok(api_roles_list(&sim.cfg));
	struct team_role *v = NULL;
	size_t n = 0;
	assert_true(api_team_roles(r, &v, &n));
	json_decref(r);
	assert_int_equal(n, 3);
	assert_string_equal(v[2].name, "member");
	assert_string_equal(v[2].summary, "read-only");
	api_team_roles_free(v, n);
	json_decref(run_ok(api_role_create(&sim.cfg, "oncall", acct_scope_permissions(SCOPE_INSTANCES, 0))));
	struct api_error e = run_fail(api_role_create(&sim.cfg, "nobody", NULL));
	assert_non_null(strstr(e.msg, "Missing permissions parameter"));
	json_decref(run_ok(api_role_edit(&sim.cfg, "oncall", NULL,
					 acct_scope_permissions(SCOPE_CUSTOM, 1u << CAT_BILLING_READ))));
	r = run_ok(api_roles_list(&sim.cfg));
	v = NULL;
	n = 0;
	assert_true(api_team_roles(r, &v, &n));
	json_decref(r);
	assert_int_equal(n, 4);
	assert_string_equal(v[3].summary, "custom: billing_read");
	api_team_roles_free(v, n);
	json_decref(run_ok(api_role_delete(&sim.cfg, "oncall")));
	e = run_fail(api_role_delete(&sim.cfg, "oncall"));
	assert_int_equal(e.http_status, 404);

	json_t *st = testsim_state(&sim);
	long mid = (long)json_integer_value(
		json_object_get(json_array_get(json_object_get(st, "instances"), 0), "machine_id"));
	json_decref(st);
	size_t total = 0;
	for (long m = mid; m < mid + 8; m++) {
		r = run_ok(api_machine_reports(&sim.cfg, m));
		struct machine_report *mr = NULL;
		size_t k = 0;
		assert_true(json_map_machine_reports(r, &mr, &k));
		json_decref(r);
		for (size_t i = 0; i < k; i++)
			assert_true(mr[i].problem[0] && mr[i].message[0] && mr[i].created_at[0]);
		total += k;
		json_map_machine_reports_free(mr, k);
	}
	assert_true(total > 0);
}

/* The current TOTP code of a base32 secret, from oathtool. */
static bool totp(const char *secret, char code[16])
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "oathtool --totp -b '%s' 2>/dev/null", secret);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	bool ok = fgets(code, 16, p) != NULL;
	pclose(p);
	code[strcspn(code, "\n")] = '\0';
	return ok && strlen(code) == 6;
}

/* The last code the simulator sent over channel ("sms" or "email") into
 * out[16] (GET /__sim/codes); false when none. */
static bool sim_code(const char *channel, char out[16])
{
	struct http_opts o = {.connect_timeout_s = 5, .total_timeout_s = 10};
	struct api_error e;
	char url[256];
	snprintf(url, sizeof url, "%s/__sim/codes", sim.url);
	struct http_xfer *x = http_xfer_new(&o, "GET", url, NULL, NULL, &e);
	assert_non_null(x);
	http_xfer_perform(x);
	size_t len;
	const char *cb = http_xfer_body(x, &len);
	json_t *cj = json_loadb(cb, len, 0, NULL);
	const char *c = json_string_value(json_object_get(cj, channel));
	bool ok = c && strlen(c) == 6;
	if (ok)
		snprintf(out, 16, "%s", c);
	json_decref(cj);
	http_xfer_free(x);
	return ok;
}

/* With no method: the window for the first one, through the code sent to
 * the account's email (step 1 forced to email, tfa/email/ with its secret
 * sends the code, which step 2 takes); the send answer says where it went. */
static void authorize_by_email(void)
{
	struct tfa_verify v = {.method = "email"};
	json_t *r = run_ok(api_tfa_authorize_start(&sim.cfg, &v));
	char secret[160], msg[200], code[16];
	assert_true(api_tfa_challenge_secret(r, secret, sizeof secret));
	json_decref(r);
	r = run_ok(api_tfa_email_send(&sim.cfg, secret));
	assert_true(api_tfa_sent_msg(r, msg, sizeof msg));
	assert_non_null(strstr(msg, "@example.com"));
	json_decref(r);
	assert_true(sim_code("email", code));
	json_decref(run_ok(api_tfa_authorize_finish(&sim.cfg, code, secret)));
	explicit_bzero(secret, sizeof secret);
	explicit_bzero(code, sizeof code);
}

/* TOTP set-up and confirm; *backup gets the codes of a first method (which
 * is authorized by email first). */
static void add_totp(const char *label, struct tfa_backup_codes *backup, char secret[64])
{
	if (backup)
		authorize_by_email();
	json_t *r = run_ok(api_tfa_totp_setup(&sim.cfg));
	char uri[512];
	assert_true(api_tfa_totp_setup_result(r, secret, 64, uri, sizeof uri));
	json_decref(r);
	assert_non_null(strstr(uri, secret));
	char code[16];
	assert_true(totp(secret, code));
	r = run_ok(api_tfa_confirm_new(&sim.cfg, "totp", code, secret, NULL, label));
	if (backup) {
		assert_true(api_tfa_backup_codes(r, backup));
		assert_int_equal(backup->n, TFA_BACKUP_CODES);
	}
	json_decref(r);
	explicit_bzero(uri, sizeof uri);
}

static struct tfa_status_rec status(void)
{
	json_t *r = run_ok(api_tfa_status(&sim.cfg));
	struct tfa_status_rec s;
	assert_true(json_map_tfa_status(r, &s));
	json_decref(r);
	return s;
}

static void test_sim_tfa_full(void **state)
{
	(void)state;
	if (system("command -v oathtool >/dev/null 2>&1") != 0) {
		fprintf(stderr, "# oathtool is missing: skipped\n");
		skip();
	}
	struct tfa_status_rec s = status();
	assert_false(s.tfa_enabled);
	json_map_tfa_status_free(&s);
	struct tfa_backup_codes bc;
	char secret[64];
	add_totp("phone app", &bc, secret);
	s = status();
	assert_true(s.tfa_enabled);
	assert_int_equal(s.nmethods, 1);
	assert_string_equal(s.methods[0].label, "phone app");
	long first = s.methods[0].id;
	assert_int_equal(s.backup_codes_remaining, 10);
	json_map_tfa_status_free(&s);

	/* a second method needs the authorization window */
	json_t *r = run_ok(api_tfa_totp_setup(&sim.cfg));
	char sec2[64], uri[512], code[16];
	assert_true(api_tfa_totp_setup_result(r, sec2, sizeof sec2, uri, sizeof uri));
	json_decref(r);
	assert_true(totp(sec2, code));
	struct tfa_error te = run_tfa_fail(api_tfa_confirm_new(&sim.cfg, "totp", code, sec2, NULL, NULL));
	assert_int_equal(te.kind, TFAE_AUTH_REQUIRED);
	/* authorize with a backup code (opens the window at once) */
	struct tfa_verify v = {.method = "backup"};
	util_strlcpy(v.code, bc.code[0], sizeof v.code);
	json_decref(run_ok(api_tfa_authorize_start(&sim.cfg, &v)));
	s = status();
	assert_true(s.new_method_authorized);
	json_map_tfa_status_free(&s);
	assert_true(totp(sec2, code));
	json_decref(run_ok(api_tfa_confirm_new(&sim.cfg, "totp", code, sec2, NULL, "laptop")));
	/* the same backup code again is refused */
	te = run_tfa_fail(api_tfa_authorize_start(&sim.cfg, &v));
	assert_int_equal(te.kind, TFAE_INVALID_BACKUP);
	s = status();
	assert_int_equal(s.nmethods, 2);
	long second = s.methods[0].id == first ? s.methods[1].id : s.methods[0].id;
	json_map_tfa_status_free(&s);

	/* update: label and primary */
	json_decref(run_ok(api_tfa_update(&sim.cfg, second, "work laptop", 1)));
	s = status();
	for (size_t i = 0; i < s.nmethods; i++)
		if (s.methods[i].id == second) {
			assert_string_equal(s.methods[i].label, "work laptop");
			assert_true(s.methods[i].is_primary);
		}
	json_map_tfa_status_free(&s);

	/* regenerate backup codes with a code from the first method */
	struct tfa_verify tv = {.method = "totp", .method_id = first};
	assert_true(totp(secret, tv.code));
	r = run_ok(api_tfa_regen_backup(&sim.cfg, &tv));
	struct tfa_backup_codes bc2;
	assert_true(api_tfa_backup_codes(r, &bc2));
	json_decref(r);
	assert_int_equal(bc2.n, 10);
	assert_string_not_equal(bc2.code[0], bc.code[1]);

	/* login with a code, then log out */
	assert_true(totp(secret, tv.code));
	r = run_ok(api_tfa_login_with(&sim.cfg, &tv));
	char *sk = api_tfa_session_key(r);
	json_decref(r);
	assert_non_null(sk);
	char err[128];
	assert_int_equal(auth_store_session(au, sk, err, sizeof err), 0);
	explicit_bzero(sk, strlen(sk));
	free(sk);
	assert_true(auth_using_session(au));
	char path[160];
	snprintf(path, sizeof path, "%s/vast_tfa_key", sim.dir);
	assert_int_equal(access(path, F_OK), 0);
	assert_true(api_tfa_logout(au));
	assert_false(auth_using_session(au));
	assert_int_equal(access(path, F_OK), -1);
	assert_false(api_tfa_logout(au));

	/* remove the second method with a (new) backup code */
	struct tfa_verify bv = {.method = "backup"};
	util_strlcpy(bv.code, bc2.code[0], sizeof bv.code);
	r = run_ok(api_tfa_remove(&sim.cfg, &bv, second));
	int remaining;
	bool disabled;
	assert_true(api_tfa_removed(r, &remaining, &disabled));
	json_decref(r);
	assert_int_equal(remaining, 1);
	assert_false(disabled);
	/* and the last one: 2FA is off */
	assert_true(totp(secret, tv.code));
	r = run_ok(api_tfa_remove(&sim.cfg, &tv, first));
	assert_true(api_tfa_removed(r, &remaining, &disabled));
	json_decref(r);
	assert_true(disabled);
	explicit_bzero(&bc, sizeof bc);
	explicit_bzero(&bc2, sizeof bc2);
	explicit_bzero(secret, sizeof secret);
	explicit_bzero(sec2, sizeof sec2);
}

static void test_sim_tfa_wrong_codes_lock(void **state)
{
	(void)state;
	if (system("command -v oathtool >/dev/null 2>&1") != 0)
		skip();
	char secret[64];
	struct tfa_backup_codes bc;
	add_totp(NULL, &bc, secret);
	char code[16];
	assert_true(totp(secret, code));
	struct tfa_verify v = {.method = "totp"};
	/* a code that is surely wrong now */
	snprintf(v.code, sizeof v.code, "%06d", (atoi(code) + 500000) % 1000000);
	struct tfa_error te;
	for (int i = 1; i <= 4; i++) {
		te = run_tfa_fail(api_tfa_login_with(&sim.cfg, &v));
		assert_int_equal(te.kind, TFAE_WRONG_CODE);
		assert_int_equal(te.fail_count, i);
	}
	char buf[256];
	api_tfa_error_text(&te, util_now(), buf, sizeof buf);
	assert_non_null(strstr(buf, "4 of 5"));
	te = run_tfa_fail(api_tfa_login_with(&sim.cfg, &v));
	assert_int_equal(te.kind, TFAE_LOCKED);
	assert_false(isnan(te.locked_until));
	double now = util_now();
	assert_false(api_tfa_may_send(&te, now));
	api_tfa_error_text(&te, now, buf, sizeof buf);
	assert_non_null(strstr(buf, "locked for 1"));  /* 15m00s or 14m5Xs */
	/* the right code is refused while locked */
	assert_true(totp(secret, v.code));
	te = run_tfa_fail(api_tfa_login_with(&sim.cfg, &v));
	assert_int_equal(te.kind, TFAE_LOCKED);
	struct tfa_status_rec s = status();
	assert_int_equal(s.methods[0].fail_count, 5);
	assert_true(s.methods[0].locked_until > now);
	char lock[64];
	assert_true(acct_lock_countdown(lock, sizeof lock, s.methods[0].locked_until, now));
	json_map_tfa_status_free(&s);
	explicit_bzero(&bc, sizeof bc);
}

static void test_sim_tfa_sms_email(void **state)
{
	(void)state;
	char phone[32];
	assert_true(acct_e164_normalize("+1 415 555 2671", phone, sizeof phone));
	json_t *r = run_ok(api_tfa_sms_send(&sim.cfg, phone, 0));
	char secret[160];
	assert_true(api_tfa_challenge_secret(r, secret, sizeof secret));
	json_decref(r);
	/* a second send at once: tfa_challenge_exists; a resend at once: rate limited */
	struct tfa_error te = run_tfa_fail(api_tfa_sms_send(&sim.cfg, phone, 0));
	assert_int_equal(te.kind, TFAE_CHALLENGE_EXISTS);
	te = run_tfa_fail(api_tfa_sms_resend(&sim.cfg, secret, phone, 0));
	assert_int_equal(te.kind, TFAE_SMS_RATE_LIMITED);
	/* the code the "phone" got confirms the SMS method, once the first
	 * method is authorized (by email: there is none yet) */
	char sms[16];
	assert_true(sim_code("sms", sms));
	te = run_tfa_fail(api_tfa_confirm_new(&sim.cfg, "sms", sms, secret, phone, "mobile"));
	assert_int_equal(te.kind, TFAE_AUTH_REQUIRED);
	authorize_by_email();
	r = run_ok(api_tfa_confirm_new(&sim.cfg, "sms", sms, secret, phone, "mobile"));
	struct tfa_backup_codes bc;
	assert_true(api_tfa_backup_codes(r, &bc));
	json_decref(r);
	struct tfa_status_rec s = status();
	assert_int_equal(s.nmethods, 1);
	assert_string_equal(s.methods[0].method, "sms");
	assert_null(strstr(s.methods[0].phone_number, "555267")); /* masked */
	json_map_tfa_status_free(&s);
	/* an email code needs a verified address */
	testsim_ctl(&sim, "set", "{\"what\":\"user\",\"field\":\"email_verified\",\"value\":false}");
	te = run_tfa_fail(api_tfa_email_send(&sim.cfg, NULL));
	assert_int_equal(te.kind, TFAE_EMAIL_NOT_VERIFIED);
	testsim_ctl(&sim, "set", "{\"what\":\"user\",\"field\":\"email_verified\",\"value\":true}");
	r = run_ok(api_tfa_email_send(&sim.cfg, NULL));
	assert_true(api_tfa_challenge_secret(r, secret, sizeof secret));
	json_decref(r);
	explicit_bzero(secret, sizeof secret);
	explicit_bzero(&bc, sizeof bc);
}

int main(void)
{
	const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_decoders),
		cmocka_unit_test(test_tfa_errors),
	};
	const struct CMUnitTest withsim[] = {
		cmocka_unit_test_setup(test_sim_env_vars, sim_reset),
		cmocka_unit_test_setup(test_sim_api_keys, sim_reset),
		cmocka_unit_test_setup(test_sim_ssh_keys, sim_reset),
		cmocka_unit_test_setup(test_sim_roles_and_reports, sim_reset),
		cmocka_unit_test_setup(test_sim_tfa_full, sim_reset),
		cmocka_unit_test_setup(test_sim_tfa_wrong_codes_lock, sim_reset),
		cmocka_unit_test_setup(test_sim_tfa_sms_email, sim_reset),
	};
	int rc = cmocka_run_group_tests_name("api_account", pure, NULL, NULL);
	rc += cmocka_run_group_tests_name("api_account_sim", withsim, sim_up, sim_down);
	return rc;
}
