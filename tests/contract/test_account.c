/* test_account.c: account endpoints: environment variables (secrets) with
 * every documented error, API keys (bare-string delete, revocation, scoped
 * keys), SSH keys, team roles including reads, machine reports, and the 2FA
 * gating of destroy, API-key and env-var changes with --tfa on (a plain key
 * gets 401 "Two Factor Authentication", a session key proceeds, an expired
 * session gets 404). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", NULL };
	return ct_start(args);
}

static void test_secrets_list_add_update_delete(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/secrets/", NULL, 200);
	json_t *s = json_object_get(j, "secrets");
	assert_string_equal(ct_str(s, "HF_TOKEN"), "*****");
	json_decref(j);
	j = ct_expect("POST", "/api/v0/secrets", "{\"key\":\"NEW_VAR\",\"value\":\"v1\"}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/secrets/", "{\"key\":\"NEW_VAR\",\"value\":\"v\"}", 400,
			"existing_key", NULL);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/secrets/", "{\"key\":\"X\"}", 400, "missing_input", NULL);
	json_decref(ct_expect("PUT", "/api/v0/secrets/", "{\"key\":\"NEW_VAR\",\"value\":\"v2\"}", 200));
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/secrets/", "{\"key\":\"NOPE\",\"value\":\"v\"}", 400,
			"nonexistent_key", NULL);
	json_t *st = ct_state();
	assert_string_equal(ct_str(json_object_get(st, "secrets"), "NEW_VAR"), "v2");
	json_decref(st);
	j = ct_expect("DELETE", "/api/v0/secrets", "{\"key\":\"NEW_VAR\"}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_non_null(ct_str(j, "msg"));
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/secrets", "{\"key\":\"NEW_VAR\"}", 400, "nonexistent_key", NULL);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/secrets", "{}", 400, "missing_input", NULL);
}

static void test_secrets_limit(void **state)
{
	(void)state;
	int added = 0;
	for (int i = 0; i < 120; i++) {
		char body[96];
		snprintf(body, sizeof body, "{\"key\":\"V%d\",\"value\":\"x\"}", i);
		struct http_result r = ct_req("POST", "/api/v0/secrets/", body);
		if (r.status == 400) {
			assert_string_equal(ct_str(r.json, "error"), "max_secrets");
			http_result_free(&r);
			break;
		}
		assert_int_equal(r.status, 200);
		added++;
		http_result_free(&r);
	}
	assert_true(added < 120);
}

static void test_api_keys_create_use_delete(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/auth/apikeys/", NULL, 200);
	json_t *keys = json_object_get(j, "apikeys");
	assert_int_equal(json_array_size(keys), 2);
	json_t *k0 = json_array_get(keys, 0);
	assert_non_null(json_object_get(k0, "rights"));
	assert_non_null(json_object_get(k0, "user_id"));
	assert_null(json_object_get(k0, "key"));
	json_decref(j);
	/* a scoped key: reads only */
	j = ct_expect("POST", "/api/v0/auth/apikeys/",
		      "{\"name\":\"ci\",\"permissions\":{\"api\":{\"instance_read\":{},\"user_read\":{}}},\"key_params\":null}", 200);
	char *ro = strdup(ct_str(j, "key"));
	long ro_id = (long)json_integer_value(json_object_get(j, "id"));
	assert_non_null(json_object_get(j, "permissions"));
	json_decref(j);
	json_decref(ct_expect_as(ro, "GET", "/api/v1/instances/", NULL, 200));
	ct_expect_error(ro, "PUT", "/api/v0/instances/1/", "{\"state\":\"stopped\"}", 401, NULL, NULL);
	/* a full key */
	j = ct_expect("POST", "/api/v0/auth/apikeys/", "{\"name\":\"full\"}", 200);
	char *full = strdup(ct_str(j, "key"));
	json_decref(j);
	json_decref(ct_expect_as(full, "POST", "/api/v0/secrets/", "{\"key\":\"BY_NEW_KEY\",\"value\":\"1\"}", 200));
	/* show ("show api key"): the key itself, a bare string; a scoped key may not */
	char path[64];
	snprintf(path, sizeof path, "/api/v0/auth/apikeys/%ld/", ro_id);
	j = ct_expect("GET", path, NULL, 200);
	assert_true(json_is_string(j));
	assert_string_equal(json_string_value(j), ro);
	json_decref(j);
	ct_expect_error(ro, "GET", path, NULL, 401, "permission_denied", NULL);
	ct_expect_error(ct_sim->full_key, "GET", "/api/v0/auth/apikeys/999999/", NULL, 404, "not_found", NULL);
	/* delete: a bare JSON string, then the key is revoked */
	j = ct_expect("DELETE", path, "{}", 200);
	assert_true(json_is_string(j));
	assert_string_equal(json_string_value(j), "Successfully Deleted API Key");
	json_decref(j);
	ct_expect_error(ro, "GET", "/api/v1/instances/", NULL, 401, "auth_error", "Invalid user key");
	ct_expect_error(ct_sim->full_key, "DELETE", path, "{}", 404, NULL, NULL);
	free(ro);
	free(full);
}

static void test_ssh_keys_list_add_delete(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/ssh/", NULL, 200);
	assert_true(json_is_array(j));
	assert_int_equal(json_array_size(j), 1);
	json_decref(j);
	j = ct_expect("POST", "/api/v0/ssh/", "{\"ssh_key\":\"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAItest test@box\"}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	long id = (long)json_integer_value(json_object_get(json_object_get(j, "key"), "id"));
	json_decref(j);
	json_t *u = ct_expect("GET", "/api/v0/users/current/", NULL, 200);
	assert_non_null(strstr(ct_str(u, "ssh_key"), "test@box"));
	json_decref(u);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/ssh/", "{\"ssh_key\":\"hello\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/ssh/", "{}", 400, "missing_input", NULL);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/ssh/%ld/", id);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	ct_expect_error(ct_sim->full_key, "DELETE", path, "{}", 404, "not_found", NULL);
}

static void test_team_roles_create_read_update_delete(void **state)
{
	(void)state;
	json_t *j = ct_expect("POST", "/api/v0/team/roles", "{\"name\":\"ops\",\"permissions\":{\"api\":{\"misc\":{}}}}", 200);
	assert_string_equal(ct_str(j, "msg"), "success");
	json_decref(j);
	j = ct_expect("POST", "/api/v0/team/roles/", "{\"name\":\"nope\"}", 400);
	assert_false(json_is_true(json_object_get(j, "success")));
	assert_string_equal(ct_str(j, "msg"), "Missing permissions parameter");
	json_decref(j);
	j = ct_expect("GET", "/api/v0/team/roles-full/", NULL, 200);
	assert_int_equal(json_array_size(j), 4);
	json_decref(j);
	j = ct_expect("GET", "/api/v0/team/roles/ops/", NULL, 200);
	assert_string_equal(ct_str(j, "name"), "ops");
	assert_non_null(json_object_get(json_object_get(json_object_get(j, "permissions"), "api"), "misc"));
	char path[64];
	snprintf(path, sizeof path, "/api/v0/team/roles/%lld/", (long long)json_integer_value(json_object_get(j, "id")));
	json_decref(j);
	json_decref(ct_expect("PUT", path, "{\"permissions\":{\"api\":{\"user_read\":{}}}}", 200));
	j = ct_expect("GET", "/api/v0/team/roles/ops/", NULL, 200);
	assert_non_null(json_object_get(json_object_get(json_object_get(j, "permissions"), "api"), "user_read"));
	json_decref(j);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	json_decref(ct_expect("GET", "/api/v0/team/roles/ops/", NULL, 404));
}

static void test_machine_reports_bare_array(void **state)
{
	(void)state;
	int nonempty = 0;
	for (long m = 10000; m < 10020; m++) {
		char path[64];
		snprintf(path, sizeof path, "/api/v0/machines/%ld/reports%s", m, m % 2 ? "/" : "");
		json_t *j = ct_expect("GET", path, NULL, 200);
		assert_true(json_is_array(j));
		size_t i;
		json_t *r;
		json_array_foreach(j, i, r) {
			assert_non_null(ct_str(r, "problem"));
			assert_non_null(ct_str(r, "message"));
			assert_non_null(ct_str(r, "created_at"));
		}
		nonempty += json_array_size(j) > 0;
		json_decref(j);
	}
	assert_true(nonempty > 0);
}

static void test_blacklisted_user_gets_403(void **state)
{
	(void)state;
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"blacklisted\",\"value\":true}");
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/secrets/", "{\"key\":\"HF_TOKEN\"}", 403, "user_blacklisted",
			NULL);
	ct_expect_error(ct_sim->full_key, "GET", "/api/v1/instances/", NULL, 403, "user_blacklisted", NULL);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"blacklisted\",\"value\":false}");
	json_decref(ct_expect("DELETE", "/api/v0/secrets/", "{\"key\":\"HF_TOKEN\"}", 200));
}

static void test_unknown_path_and_method(void **state)
{
	(void)state;
	ct_expect_error(ct_sim->full_key, "GET", "/api/v0/nothing/here/", NULL, 404, "not_found", NULL);
	json_decref(ct_expect("PATCH", "/api/v0/secrets/", "{}", 405));
}

/* The current TOTP code for secret, from oathtool (the secret goes through a
 * private temporary file on stdin, never argv). */
static void totp_now(const char *secret, char *out, size_t n)
{
	char tmp[] = "/tmp/rentop-totp-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_true(write(fd, secret, strlen(secret)) == (ssize_t)strlen(secret));
	close(fd);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "oathtool --totp -b - < %s", tmp);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char *got = fgets(out, (int)n, p);
	pclose(p);
	unlink(tmp);
	assert_non_null(got);
	out[strcspn(out, "\n")] = '\0';
	assert_int_equal(strlen(out), 6);
}

static void test_tfa_gates_destroy_keys_and_env_vars(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--tfa", "on", NULL };
	struct simproc *s = simproc_start(args);
	assert_true(strlen(s->totp_secret) >= 16);
	struct http_result r = http_call(s, "GET", "/api/v0/users/current/", s->full_key, NULL);
	assert_string_equal(ct_str(r.json, "tfa_status"), "enabled");
	http_result_free(&r);
	r = http_call(s, "GET", "/api/v1/instances/?limit=1", s->full_key, NULL);
	long id = (long)json_integer_value(json_object_get(json_array_get(json_object_get(r.json, "instances"), 0), "id"));
	http_result_free(&r);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	struct {
		const char *method, *path, *body;
	} gated[] = {
		{ "DELETE", path, "{}" },
		{ "DELETE", "/api/v0/instances/", "{\"instance_ids\":[1]}" },
		{ "POST", "/api/v0/auth/apikeys/", "{\"name\":\"x\"}" },
		{ "DELETE", "/api/v0/auth/apikeys/1/", "{}" },
		{ "POST", "/api/v0/secrets/", "{\"key\":\"A\",\"value\":\"b\"}" },
		{ "PUT", "/api/v0/secrets/", "{\"key\":\"HF_TOKEN\",\"value\":\"b\"}" },
		{ "DELETE", "/api/v0/secrets/", "{\"key\":\"HF_TOKEN\"}" },
	};
	for (size_t i = 0; i < sizeof gated / sizeof *gated; i++) {
		r = http_call(s, gated[i].method, gated[i].path, s->full_key, gated[i].body);
		if (r.status != 401 || !ct_str(r.json, "msg") || !strstr(ct_str(r.json, "msg"), "Two Factor Authentication"))
			fail_msg("%s %s with a plain key: HTTP %ld %s", gated[i].method, gated[i].path, r.status, r.body);
		http_result_free(&r);
	}
	/* reads and other writes still work with the plain key */
	r = http_call(s, "PUT", path, s->full_key, "{\"label\":\"still-ok\"}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	/* log in with TOTP: the session key proceeds */
	char code[16], body[128];
	totp_now(s->totp_secret, code, sizeof code);
	snprintf(body, sizeof body, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	r = http_call(s, "POST", "/api/v0/tfa/", s->full_key, body);
	assert_int_equal(r.status, 200);
	const char *sk = ct_str(r.json, "session_key");
	assert_non_null(sk);
	char *session = strdup(sk);
	http_result_free(&r);
	r = http_call(s, "DELETE", path, session, "{}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = http_call(s, "POST", "/api/v0/secrets/", session, "{\"key\":\"A\",\"value\":\"b\"}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	free(session);
	simproc_stop(s);
}

static void test_expired_session_key_gets_404(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--tfa", "on", "--clock", "manual", NULL };
	struct simproc *s = simproc_start(args);
	char code[16], body[128];
	totp_now(s->totp_secret, code, sizeof code);
	snprintf(body, sizeof body, "{\"tfa_method\":\"totp\",\"code\":\"%s\"}", code);
	struct http_result r = http_call(s, "POST", "/api/v0/tfa/", s->full_key, body);
	assert_int_equal(r.status, 200);
	char *session = strdup(ct_str(r.json, "session_key"));
	http_result_free(&r);
	r = http_call(s, "GET", "/api/v1/instances/", session, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = http_call(s, "POST", "/__sim/clock", NULL, "{\"advance\":172800}");
	http_result_free(&r);
	r = http_call(s, "GET", "/api/v1/instances/", session, NULL);
	assert_int_equal(r.status, 404);
	assert_string_equal(ct_str(r.json, "msg"), "Session expired. Please log in again.");
	http_result_free(&r);
	free(session);
	simproc_stop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_secrets_list_add_update_delete, ct_reset),
		cmocka_unit_test_setup(test_secrets_limit, ct_reset),
		cmocka_unit_test_setup(test_api_keys_create_use_delete, ct_reset),
		cmocka_unit_test_setup(test_ssh_keys_list_add_delete, ct_reset),
		cmocka_unit_test_setup(test_team_roles_create_read_update_delete, ct_reset),
		cmocka_unit_test_setup(test_machine_reports_bare_array, ct_reset),
		cmocka_unit_test_setup(test_blacklisted_user_gets_403, ct_reset),
		cmocka_unit_test_setup(test_unknown_path_and_method, ct_reset),
		cmocka_unit_test_setup(test_tfa_gates_destroy_keys_and_env_vars, ct_reset),
		cmocka_unit_test_setup(test_expired_session_key_gets_404, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_account", tests, setup, ct_stop);
}
