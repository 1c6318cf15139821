/* test_acct_map.c: the jobs mappers of the account and 2FA views
 * (src/api/acct_map.c, tfa_map.c) and the list skeleton they
 * share (src/json/json_list.c): every list in its shapes (bare, under each
 * envelope key, the first key held deciding), records refused and skipped,
 * a wrong shape a protocol error naming the list; the secret answers (a new
 * key, a shown key, the 2FA answers) with their refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "flow/acct_map.h"
#include "flow/tfa_map.h"
#include "net/apierr.h"
#include "json/json_list.h"
#include "json/json_map.h"
#include "flow/acctops.h"

#define ED_LINE "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAKOlGNll0S2c+R8csJKyRhUgE7TyORLHqp2v7C4CwP2 test@host"

typedef void *(*map_fn)(const json_t *, struct api_error *);

/* map(text): the value, e cleared first. */
static void *run(map_fn map, const char *text, struct api_error *e)
{
	json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
	assert_non_null(j);
	memset(e, 0, sizeof *e);
	void *v = map(j, e);
	json_decref(j);
	return v;
}

/* map(text) fails with "<what>: unexpected answer" as a protocol error. */
static void refused(map_fn map, const char *text, const char *msg)
{
	struct api_error e;
	assert_null(run(map, text, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_string_equal(e.msg, msg);
}

static void lists(void **state)
{
	(void)state;
	struct api_error e;
	/* API keys: bare or {"apikeys":[...]}; no id: skipped; a non-object: skipped */
	struct json_list *l = run(acct_map_apikeys,
				  "{\"apikeys\":[{\"id\":4,\"name\":\"ci\"},{\"name\":\"no id\"},7,"
				  "{\"id\":5,\"name\":\"b\"}]}", &e);
	assert_non_null(l);
	assert_int_equal(json_list_count(l), 2);
	assert_int_equal(json_list_at(l, struct api_key_rec)[1].id, 5);
	assert_string_equal(json_list_at(l, struct api_key_rec)[0].name, "ci");
	json_list_free(l);
	l = run(acct_map_apikeys, "[]", &e);
	assert_non_null(l);
	assert_int_equal(json_list_count(l), 0);
	json_list_free(l);
	refused(acct_map_apikeys, "{\"apikeys\":{}}", "API keys: unexpected answer");
	refused(acct_map_apikeys, "\"x\"", "API keys: unexpected answer");

	/* SSH keys: the first envelope key the object holds decides */
	l = run(acct_map_ssh, "{\"keys\":[{\"id\":1,\"key\":\"" ED_LINE "\"}]}", &e);
	assert_non_null(l);
	assert_int_equal(json_list_count(l), 1);
	assert_string_equal(json_list_at(l, struct ssh_key_rec)[0].comment, "test@host");
	json_list_free(l);
	refused(acct_map_ssh, "{\"ssh_keys\":null,\"keys\":[]}", "SSH keys: unexpected answer");
	l = run(acct_map_ssh, "{\"results\":[{\"id\":\"1\"},{\"id\":2}]}", &e);
	assert_int_equal(json_list_count(l), 1); /* an id as text is no id */
	json_list_free(l);

	/* team roles: a name is needed; an id is not */
	l = run(acct_map_roles, "{\"roles\":[{\"name\":\"dev\"},{\"id\":3}]}", &e);
	assert_int_equal(json_list_count(l), 1);
	assert_int_equal(json_list_at(l, struct team_role)[0].id, 0);
	assert_string_equal(json_list_at(l, struct team_role)[0].summary, "none");
	json_list_free(l);
	refused(acct_map_roles, "{\"error\":\"no\"}", "team roles: unexpected answer");

	/* machine reports: every object is one */
	l = run(acct_map_reports, "[{\"problem\":\"gpu\",\"created_at\":1700000000},{}]", &e);
	assert_int_equal(json_list_count(l), 2);
	assert_string_equal(json_list_at(l, struct machine_report)[0].created_at, "1700000000");
	json_list_free(l);
	refused(acct_map_reports, "{\"results\":[]}", "machine reports: unexpected answer");

	/* env vars: a map (the kind decodes the whole answer), masked */
	l = run(acct_map_env, "{\"success\":true,\"secrets\":{\"B\":\"x\",\"A\":\"*****\"}}", &e);
	assert_int_equal(json_list_count(l), 2);
	assert_string_equal(json_list_at(l, struct env_var)[0].key, "A");
	assert_string_not_equal(json_list_at(l, struct env_var)[1].value, "x");
	json_list_free(l);
	refused(acct_map_env, "{\"success\":false,\"error\":\"auth\"}",
		"env vars: unexpected answer");
	/* env values (the reveal): the value as sent */
	l = run(acct_map_env_values, "{\"secrets\":{\"HF\":\"hf_abc\"}}", &e);
	assert_int_equal(json_list_count(l), 1);
	assert_string_equal(json_list_at(l, struct env_value)[0].value, "hf_abc");
	json_list_free(l);
	refused(acct_map_env_values, "{\"success\":false,\"error\":\"auth\"}",
		"env vars: unexpected answer");
	json_list_free(NULL);
}

static void keys(void **state)
{
	(void)state;
	struct api_error e;
	struct api_account_key *k =
		run(acct_map_key_created, "{\"success\":true,\"id\":9,\"key\":\"abc123\"}", &e);
	assert_non_null(k);
	assert_int_equal(k->id, 9);
	assert_string_equal(k->key, "abc123");
	acct_map_key_free(k);
	refused(acct_map_key_created, "{\"success\":true,\"id\":9}", "the answer holds no key");
	k = run(acct_map_key_shown, "\"abc123\"", &e);
	assert_non_null(k);
	assert_string_equal(k->key, "abc123");
	acct_map_key_free(k);
	k = run(acct_map_key_shown, "{\"key\":\"def\"}", &e);
	assert_string_equal(k->key, "def");
	acct_map_key_free(k);
	refused(acct_map_key_shown, "\"\"", "the answer holds no key");
	acct_map_key_free(NULL);
}

static void tfa(void **state)
{
	(void)state;
	struct api_error e;
	struct api_tfa_answer *a = run(tfa_map_setup,
				       "{\"secret\":\"JBSWY3DPEHPK3PXP\",\"provisioning_uri\":"
				       "\"otpauth://totp/rentop:me?secret=JBSWY3DPEHPK3PXP&issuer=rentop\"}",
				       &e);
	assert_non_null(a);
	assert_string_equal(a->secret, "JBSWY3DPEHPK3PXP");
	assert_int_equal(a->remaining, -1);
	tfa_map_free(a);
	refused(tfa_map_setup, "{\"secret\":\"JBSWY3DPEHPK3PXP\"}",
		"TOTP set-up: no secret or provisioning URI in the answer");

	a = run(tfa_map_secret, "{\"msg\":\"ok\"}", &e); /* a backup code: no secret */
	assert_non_null(a);
	assert_string_equal(a->secret, "");
	tfa_map_free(a);
	a = run(tfa_map_sent, "{\"msg\":\"Verification code sent to d***@example.com\",\"secret\":\"s1\"}", &e);
	assert_string_equal(a->secret, "s1");
	assert_non_null(strstr(a->msg, "d***@example.com"));
	tfa_map_free(a);

	a = run(tfa_map_codes, "{\"msg\":\"ok\"}", &e); /* not the first method: no codes */
	assert_non_null(a);
	assert_int_equal(a->codes.n, 0);
	tfa_map_free(a);
	a = run(tfa_map_regen, "{\"backup_codes\":[\"AAAA-BBBB-CCCC\"]}", &e);
	assert_non_null(a);
	assert_int_equal(a->codes.n, 1);
	tfa_map_free(a);
	refused(tfa_map_regen, "{\"msg\":\"ok\"}", "regenerate backup codes: no codes in the answer");

	a = run(tfa_map_session, "{\"session_key\":\"sk-1\"}", &e);
	assert_string_equal(a->session, "sk-1");
	tfa_map_free(a);
	refused(tfa_map_session, "{\"session_key\":\"\"}", "2FA login: the service sent no session key");
	char big[700];
	memset(big, 'k', sizeof big);
	char text[800];
	snprintf(text, sizeof text, "{\"session_key\":\"%.*s\"}", (int)sizeof big, big);
	refused(tfa_map_session, text, "2FA login: the session key is too long");

	a = run(tfa_map_removed, "{\"msg\":\"2FA method removed\",\"remaining_methods\":1}", &e);
	assert_int_equal(a->remaining, 1);
	assert_false(a->disabled);
	tfa_map_free(a);
	a = run(tfa_map_removed, "{\"msg\":\"2FA Successfully Disabled\"}", &e);
	assert_true(a->disabled);
	tfa_map_free(a);
	tfa_map_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists),
		cmocka_unit_test(keys),
		cmocka_unit_test(tfa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
