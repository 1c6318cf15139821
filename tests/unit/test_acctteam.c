/* test_acctteam.c: the team members and audit log mapping (flow/acctteam):
 * the CLI's member shape (roles a list) and others (role text, role
 * object), hostile text sanitised, records without id or e-mail skipped;
 * audit rows (who from the e-mail, else the user id; the route, else the
 * path; arguments as compact JSON; a 2FA session's null key); who may
 * manage members (owner, manager, a role granting team_write); the own
 * member found by id, else by e-mail; the re-read counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "flow/acctteam.h"
#include "json/json_list.h"

static json_t *js(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);
	assert_non_null(j);
	return j;
}

static void test_members(void **state)
{
	(void)state;
	json_t *j = js("[{\"id\":148213,\"username\":\"demo\",\"email\":\"demo@example.com\",\"fullname\":\"Demo\","
		       "\"roles\":[\"owner\"]},{\"id\":\"148300\",\"username\":\"al\\u001b[2Jice\",\"email\":\"a@x\","
		       "\"role\":\"manager\"},{\"id\":5,\"email\":\"b@x\",\"roles\":[{\"name\":\"member\"}]},"
		       "{\"username\":\"nobody\"},7]");
	struct api_error e = { 0 };
	struct json_list *l = acctteam_map_members(j, &e);
	assert_non_null(l);
	assert_int_equal(l->n, 3);
	const struct team_member *m = l->v;
	assert_int_equal(m[0].id, 148213);
	assert_string_equal(m[0].role, "owner");
	assert_int_equal(m[1].id, 148300);
	assert_string_equal(m[1].username, "alice");
	assert_string_equal(m[1].role, "manager");
	assert_string_equal(m[2].role, "member");
	assert_ptr_equal(acctteam_me(m, l->n, 148300, NULL), &m[1]);
	assert_ptr_equal(acctteam_me(m, l->n, 1, "b@x"), &m[2]);
	assert_null(acctteam_me(m, l->n, 1, "zz@x"));
	assert_int_equal(acctteam_count(m, l->n, 148300, "manager"), 1);
	assert_int_equal(acctteam_count(m, l->n, 148300, "member"), 0);
	assert_int_equal(acctteam_count(m, l->n, 5, NULL), 1);
	json_list_free(l);
	json_decref(j);
	j = js("{\"members\":[{\"id\":1,\"email\":\"q@x\"}]}");
	l = acctteam_map_members(j, &e);
	assert_int_equal(l->n, 1);
	assert_string_equal(json_list_at(l, struct team_member)[0].role, "");
	json_list_free(l);
	json_decref(j);
	j = js("{\"detail\":\"nope\"}");
	assert_null(acctteam_map_members(j, &e));
	json_decref(j);
}

static void test_audit(void **state)
{
	(void)state;
	json_t *j = js("[{\"ip_address\":\"203.0.113.7\",\"api_key_id\":6101,\"created_at\":1795552098.5,"
		       "\"api_route\":\"PUT /api/v0/asks/{}\",\"path\":\"/api/v0/asks/7/\",\"args\":{\"image\":\"x\","
		       "\"disk\":64},\"user_id\":148300,\"user_email\":\"alice@example.com\"},"
		       "{\"ip_address\":\"192.0.2.10\",\"api_key_id\":null,\"path\":\"/api/v0/secrets/\","
		       "\"args\":{\"value\":\"*****\"},\"user_id\":148213}]");
	struct api_error e = { 0 };
	struct json_list *l = acctteam_map_audit(j, &e);
	assert_non_null(l);
	assert_int_equal(l->n, 2);
	const struct audit_row *r = l->v;
	assert_true(r[0].when == 1795552098.5);
	assert_string_equal(r[0].who, "alice@example.com");
	assert_string_equal(r[0].what, "PUT /api/v0/asks/{}");
	assert_string_equal(r[0].args, "{\"disk\":64,\"image\":\"x\"}");
	assert_string_equal(r[0].ip, "203.0.113.7");
	assert_int_equal(r[0].api_key_id, 6101);
	assert_true(isnan(r[1].when));
	assert_string_equal(r[1].who, "user 148213");
	assert_string_equal(r[1].what, "/api/v0/secrets/");
	assert_string_equal(r[1].args, "{\"value\":\"*****\"}");
	assert_int_equal(r[1].api_key_id, 0);
	json_list_free(l);
	json_decref(j);
}

static void test_can_manage(void **state)
{
	(void)state;
	assert_true(acctteam_can_manage("owner", NULL));
	assert_true(acctteam_can_manage("manager", ""));
	assert_false(acctteam_can_manage("member", NULL));
	assert_false(acctteam_can_manage("member", ""));
	assert_false(acctteam_can_manage(NULL, NULL));
	assert_true(acctteam_can_manage("ops", "{\"api\":{\"team_write\":{},\"team_read\":{}}}"));
	assert_false(acctteam_can_manage("viewer", "{\"api\":{\"team_read\":{}}}"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_audit),
		cmocka_unit_test(test_can_manage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
