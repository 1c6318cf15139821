/* test_team.c: the team's members (list, invite by e-mail with a role and
 * its acceptance over the simulated clock, role change, removal), the
 * caller's role and key scopes, the audit log the served writes fill
 * (secrets masked), and transfers of credit (recipient by e-mail or id,
 * refusals, a lost answer applied once, a replay applied again). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

#define OWNER 148213
#define BOB 148301

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--endpoints", "0", NULL };
	return ct_start(args);
}

static json_t *member(json_t *list, const char *email)
{
	size_t i;
	json_t *m;
	json_array_foreach(list, i, m)
		if (!strcmp(ct_str(m, "email"), email))
			return m;
	return NULL;
}

static const char *role_of(json_t *m)
{
	return json_string_value(json_array_get(json_object_get(m, "roles"), 0));
}

static void expect_msg(const char *method, const char *path, const char *body, long status, const char *msg)
{
	json_t *j = ct_expect(method, path, body, status);
	assert_non_null(ct_str(j, "msg"));
	if (!strstr(ct_str(j, "msg"), msg))
		fail_msg("%s %s: msg %s lacks %s", method, path, ct_str(j, "msg"), msg);
	json_decref(j);
}

static void test_members_seeded(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/team/members/", NULL, 200);
	assert_true(json_is_array(j));
	assert_int_equal(json_array_size(j), 3);
	json_t *me = member(j, "demo@example.com");
	assert_non_null(me);
	assert_int_equal(ct_num(me, "id"), OWNER);
	assert_string_equal(role_of(me), "owner");
	assert_string_equal(role_of(member(j, "alice@example.com")), "manager");
	assert_string_equal(role_of(member(j, "bob@example.com")), "member");
	assert_non_null(ct_str(me, "username"));
	assert_non_null(ct_str(me, "fullname"));
	json_decref(j);
}

static void test_invite_accepted_over_time(void **state)
{
	(void)state;
	json_t *j = ct_expect("POST", "/api/v0/team/invite/?email=zed%40example.com&role=manager", NULL, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_string_equal(ct_str(j, "msg"), "New invitation sent to zed@example.com");
	json_decref(j);
	/* the docs' JSON body form */
	json_decref(ct_expect("POST", "/api/v0/team/invite/", "{\"email\":\"yan@example.com\",\"role\":\"member\"}", 200));
	expect_msg("POST", "/api/v0/team/invite/", "{\"email\":\"zed@example.com\",\"role\":\"member\"}", 429,
		   "invitation already sent to zed@example.com only 0 seconds ago");
	j = ct_expect("GET", "/api/v0/team/members/", NULL, 200);
	assert_null(member(j, "zed@example.com"));
	json_decref(j);
	ct_advance(121);
	j = ct_expect("GET", "/api/v0/team/members/", NULL, 200);
	json_t *z = member(j, "zed@example.com");
	assert_non_null(z);
	assert_string_equal(role_of(z), "manager");
	assert_non_null(member(j, "yan@example.com"));
	assert_int_equal(json_array_size(j), 5);
	json_decref(j);
	expect_msg("POST", "/api/v0/team/invite/", "{\"email\":\"zed@example.com\",\"role\":\"member\"}", 400,
		   "User is already a member of this team.");
	expect_msg("POST", "/api/v0/team/invite/", "{\"email\":\"demo@example.com\",\"role\":\"member\"}", 400,
		   "User cannot be invited to their own team.");
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/team/invite/", "{\"email\":\"x@example.com\",\"role\":\"nope\"}",
			400, "invalid_args", "does not exist");
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/team/invite/", "{\"email\":\"not an address\",\"role\":\"member\"}",
			400, "invalid_args", "e-mail");
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/team/invite/", "{\"role\":\"member\"}", 400, "invalid_args",
			"required");
	/* after the 300 s window another invitation to the same address goes */
	json_decref(ct_expect("POST", "/api/v0/team/invite/", "{\"email\":\"wes@example.com\",\"role\":\"member\"}", 200));
	ct_advance(60);
	json_t *st = ct_state();
	assert_int_equal(json_array_size(json_object_get(json_object_get(st, "acct"), "invites")), 1);
	json_decref(st);
}

static void test_remove_and_change_role(void **state)
{
	(void)state;
	char path[96];
	snprintf(path, sizeof path, "/api/v0/team/members/%d/roles/", BOB);
	json_decref(ct_expect("PUT", path, "{\"role\":\"manager\"}", 200));
	json_t *j = ct_expect("GET", "/api/v0/team/members/", NULL, 200);
	assert_string_equal(role_of(member(j, "bob@example.com")), "manager");
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"role\":\"nope\"}", 400, "invalid_args", "role");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/team/members/999/roles/", "{\"role\":\"member\"}", 404,
			"not_found", NULL);
	snprintf(path, sizeof path, "/api/v0/team/members/%d/roles/", OWNER);
	expect_msg("PUT", path, "{\"role\":\"member\"}", 400, "owner");

	snprintf(path, sizeof path, "/api/v0/team/members/%d/", BOB);
	j = ct_expect("DELETE", path, NULL, 200);
	assert_string_equal(ct_str(j, "status"), "success");
	assert_string_equal(ct_str(j, "message"), "User removed from the team.");
	json_decref(j);
	j = ct_expect("DELETE", path, NULL, 404);
	assert_string_equal(ct_str(j, "status"), "failure");
	json_decref(j);
	/* the docs write the path without its slash */
	snprintf(path, sizeof path, "/api/v0/team/members/%d", OWNER);
	expect_msg("DELETE", path, NULL, 400, "Cannot remove the team owner from the team");
	j = ct_expect("GET", "/api/v0/team/members/", NULL, 200);
	assert_int_equal(json_array_size(j), 2);
	json_decref(j);
}

static void test_role_and_scope_permissions(void **state)
{
	(void)state;
	/* a member may read the team, not manage it */
	char b[128];
	snprintf(b, sizeof b, "{\"what\":\"member\",\"id\":%d,\"field\":\"roles\",\"value\":[\"member\"]}", OWNER);
	ct_ctl("set", b);
	json_decref(ct_expect("GET", "/api/v0/team/members/", NULL, 200));
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/team/invite/", "{\"email\":\"q@example.com\",\"role\":\"member\"}",
			401, "permission_denied", "team role (member)");
	char path[64];
	snprintf(path, sizeof path, "/api/v0/team/members/%d/", BOB);
	ct_expect_error(ct_sim->full_key, "DELETE", path, NULL, 401, "permission_denied", NULL);
	/* a manager may */
	snprintf(b, sizeof b, "{\"what\":\"member\",\"id\":%d,\"field\":\"roles\",\"value\":[\"manager\"]}", OWNER);
	ct_ctl("set", b);
	json_decref(ct_expect("POST", "/api/v0/team/invite/", "{\"email\":\"q@example.com\",\"role\":\"member\"}", 200));
	/* the read-only key lacks team_read and every write */
	ct_expect_error(ct_sim->ro_key, "GET", "/api/v0/team/members/", NULL, 401, "permission_denied", "team_read");
	ct_expect_error(ct_sim->ro_key, "POST", "/api/v0/team/invite/", "{\"email\":\"r@example.com\",\"role\":\"member\"}",
			401, "permission_denied", NULL);
	ct_expect_error(ct_sim->ro_key, "PUT", "/api/v0/commands/transfer_credit/",
			"{\"recipient\":\"carol@example.com\",\"amount\":1}", 401, "permission_denied", NULL);
	/* a created key with team_read only reads */
	json_t *k = ct_expect("POST", "/api/v0/auth/apikeys/",
			      "{\"name\":\"t\",\"permissions\":{\"api\":{\"team_read\":{},\"misc\":{}}}}", 200);
	char key[160];
	snprintf(key, sizeof key, "%s", ct_str(k, "key"));
	json_decref(k);
	json_decref(ct_expect_as(key, "GET", "/api/v0/team/members/", NULL, 200));
	ct_expect_error(key, "GET", "/api/v0/charges/?select_filters=%7B%22day%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A1%7D%7D",
			NULL, 401, "permission_denied", "billing_read");
}

static json_t *last_audit(void)
{
	json_t *j = ct_expect("GET", "/api/v0/audit_logs/", NULL, 200);
	json_t *r = json_incref(json_array_get(j, json_array_size(j) - 1));
	json_decref(j);
	return r;
}

static void test_audit_log_records_served_writes(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/audit_logs/", NULL, 200);
	size_t seeded = json_array_size(j);
	assert_true(seeded >= 1);
	json_decref(j);
	long id = ct_find("running", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"label\":\"audited\"}", 200));
	json_t *r = last_audit();
	assert_string_equal(ct_str(r, "api_route"), "PUT /api/v0/instances/{}");
	assert_string_equal(ct_str(r, "path"), path);
	assert_string_equal(ct_str(json_object_get(r, "args"), "label"), "audited");
	assert_string_equal(ct_str(r, "ip_address"), "127.0.0.1");
	assert_true(json_is_integer(json_object_get(r, "api_key_id")));
	assert_string_equal(ct_str(r, "user_email"), "demo@example.com");
	json_t *st = ct_state();
	assert_float_equal(ct_num(r, "created_at"), ct_num(st, "now"), 1.0);
	json_decref(st);
	json_decref(r);
	/* a secret's value never reaches the log */
	json_decref(ct_expect("POST", "/api/v0/secrets/", "{\"key\":\"AUDIT_TOKEN\",\"value\":\"s3cr3t-audit-value\"}", 200));
	r = last_audit();
	assert_string_equal(ct_str(json_object_get(r, "args"), "value"), "*****");
	json_decref(r);
	struct http_result h = http_call(ct_sim, "GET", "/api/v0/audit_logs/", ct_sim->full_key, NULL);
	assert_null(strstr(h.body, "s3cr3t-audit-value"));
	http_result_free(&h);
	/* refusals and reads are not recorded; the CLI's query form is */
	json_decref(ct_expect("PUT", "/api/v0/instances/1/", "{\"label\":\"x\"}", 404));
	json_decref(ct_expect("GET", "/api/v0/team/members/", NULL, 200));
	json_decref(ct_expect("POST", "/api/v0/team/invite/?email=aud%40example.com&role=member", NULL, 200));
	j = ct_expect("GET", "/api/v0/audit_logs/", NULL, 200);
	assert_int_equal(json_array_size(j), seeded + 3);
	r = json_array_get(j, json_array_size(j) - 1);
	assert_string_equal(ct_str(json_object_get(r, "args"), "email"), "aud@example.com");
	json_decref(j);
}

static double credit(void)
{
	json_t *u = ct_expect("GET", "/api/v0/users/current/", NULL, 200);
	double c = ct_num(u, "credit");
	json_decref(u);
	return c;
}

static size_t transfers(void)
{
	json_t *j = ct_expect("GET",
			      "/api/v1/invoices/?select_filters=%7B%22when%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%2C"
			      "%22service%22%3A%7B%22in%22%3A%5B%22transfer%22%5D%7D%7D&limit=100",
			      NULL, 200);
	size_t n = json_array_size(json_object_get(j, "results"));
	json_decref(j);
	return n;
}

static void test_transfer_credit(void **state)
{
	(void)state;
	double c0 = credit();
	json_t *j = ct_expect("PUT", "/api/v0/commands/transfer_credit/",
			      "{\"sender\":\"me\",\"recipient\":\"carol@example.com\",\"amount\":12.5}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	assert_float_equal(credit(), c0 - 12.5, 1e-9);
	/* by id; a number or a numeric string */
	json_decref(ct_expect("PUT", "/api/v0/commands/transfer_credit/", "{\"recipient\":151000,\"amount\":1}", 200));
	json_decref(ct_expect("PUT", "/api/v0/commands/transfer_credit/", "{\"recipient\":\"148300\",\"amount\":1}", 200));
	assert_float_equal(credit(), c0 - 14.5, 1e-9);
	assert_int_equal(transfers(), 3);
	j = ct_expect("GET",
		      "/api/v1/invoices/?select_filters=%7B%22when%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%7D&limit=1",
		      NULL, 200);
	json_t *r = json_array_get(json_object_get(j, "results"), 0); /* the latest first */
	assert_string_equal(ct_str(r, "type"), "transfer");
	assert_string_equal(ct_str(r, "source"), "alice@example.com");
	assert_float_equal(ct_num(r, "amount"), 1.0, 1e-9);
	json_decref(j);

	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/",
			"{\"recipient\":\"demo@example.com\",\"amount\":1}", 400, "invalid_recipient", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/", "{\"recipient\":148213,\"amount\":1}",
			400, "invalid_recipient", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/",
			"{\"recipient\":\"nobody@example.com\",\"amount\":1}", 400, "invalid_recipient", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/",
			"{\"recipient\":\"carol@example.com\",\"amount\":0.001}", 400, "invalid_args", "Invalid amount");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/",
			"{\"recipient\":\"carol@example.com\",\"amount\":\"lots\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/", "{\"amount\":1}", 400,
			"invalid_params", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/transfer_credit/",
			"{\"recipient\":\"carol@example.com\",\"amount\":1000000}", 400, "insufficient_balance", NULL);
	assert_float_equal(credit(), c0 - 14.5, 1e-9);
	assert_int_equal(transfers(), 3);
}

/* No idempotency field: the service applies each request it receives.  A
 * lost answer was applied once; the same request sent again is a second
 * transfer. */
static void test_transfer_lost_and_replayed(void **state)
{
	(void)state;
	double c0 = credit();
	ct_ctl("fault", "{\"path\":\"/api/v0/commands/transfer_credit/\",\"kind\":\"lost\"}");
	struct http_result h = http_call(ct_sim, "PUT", "/api/v0/commands/transfer_credit/", ct_sim->full_key,
					 "{\"recipient\":\"carol@example.com\",\"amount\":2}");
	assert_true(h.status == 0 || h.status >= 500);
	http_result_free(&h);
	assert_float_equal(credit(), c0 - 2, 1e-9);
	assert_int_equal(transfers(), 1);
	json_decref(ct_expect("PUT", "/api/v0/commands/transfer_credit/",
			      "{\"recipient\":\"carol@example.com\",\"amount\":2}", 200));
	assert_float_equal(credit(), c0 - 4, 1e-9);
	assert_int_equal(transfers(), 2);
	/* a 503 before it is acted on changes nothing */
	ct_ctl("fault", "{\"path\":\"/api/v0/commands/transfer_credit/\",\"kind\":\"503\"}");
	h = http_call(ct_sim, "PUT", "/api/v0/commands/transfer_credit/", ct_sim->full_key,
		      "{\"recipient\":\"carol@example.com\",\"amount\":2}");
	assert_int_equal(h.status, 503);
	http_result_free(&h);
	assert_float_equal(credit(), c0 - 4, 1e-9);
}

/* The docs' thresholds: member removal 3.0/s (the error envelope),
 * transfers 2.5/s ({"detail"}). */
static void test_rate_limits(void **state)
{
	(void)state;
	static const char *const args[] = { "--clock", "manual", "--rate-limits", "on", NULL };
	struct simproc *s = simproc_start(args);
	long refused = 0;
	for (int i = 0; i < 12; i++) {
		struct http_result r = http_call(s, "PUT", "/api/v0/commands/transfer_credit/", s->full_key,
						 "{\"recipient\":\"carol@example.com\",\"amount\":0.01}");
		if (r.status == 429) {
			refused++;
			assert_string_equal(ct_str(r.json, "detail"), "API requests too frequent endpoint threshold=2.5");
		}
		http_result_free(&r);
	}
	assert_true(refused > 0);
	refused = 0;
	for (int i = 0; i < 12; i++) {
		struct http_result r = http_call(s, "DELETE", "/api/v0/team/members/999/", s->full_key, NULL);
		if (r.status == 429) {
			refused++;
			assert_string_equal(ct_str(r.json, "error"), "rate_limit_exceeded");
			assert_string_equal(ct_str(r.json, "msg"), "API requests too frequent endpoint threshold=3.0");
		} else {
			assert_int_equal(r.status, 404);
		}
		http_result_free(&r);
	}
	assert_true(refused > 0);
	simproc_stop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_members_seeded, ct_reset),
		cmocka_unit_test_setup(test_invite_accepted_over_time, ct_reset),
		cmocka_unit_test_setup(test_remove_and_change_role, ct_reset),
		cmocka_unit_test_setup(test_role_and_scope_permissions, ct_reset),
		cmocka_unit_test_setup(test_audit_log_records_served_writes, ct_reset),
		cmocka_unit_test_setup(test_transfer_credit, ct_reset),
		cmocka_unit_test_setup(test_transfer_lost_and_replayed, ct_reset),
		cmocka_unit_test(test_rate_limits),
	};
	return cmocka_run_group_tests_name("contract_team", tests, setup, ct_stop);
}
