/* test_secrets.c: GET /__sim/secrets, the record of every secret the
 * simulator handed out: the seeded keys and env values from the start; then new API keys, env values, endpoint keys,
 * TOTP secrets, backup codes, challenge secrets and session keys as they
 * are issued; the SMS/email codes apart; all kept across /__sim/reset; the
 * result_url token of request_logs is not a secret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", NULL };
	return ct_start(args);
}

static bool has(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v)
		if (!strcmp(json_string_value(v), s))
			return true;
	return false;
}

static json_t *secrets(void)
{
	return ct_expect_as(NULL, "GET", "/__sim/secrets", NULL, 200);
}

static void test_seeded(void **state)
{
	(void)state;
	json_t *j = secrets();
	json_t *s = json_object_get(j, "secrets");
	assert_true(has(s, ct_sim->full_key));
	assert_true(has(s, ct_sim->ro_key));
	assert_true(has(s, "hf_simulated0000000000000000000000"));
	json_t *st = ct_state();
	json_t *in = json_array_get(json_object_get(st, "instances"), 0);
	assert_true(has(s, ct_str(json_object_get(in, "sim"), "instance_api_key")));
	assert_true(has(s, ct_str(json_array_get(json_object_get(st, "endpoints"), 0), "api_key")));
	json_decref(st);
	json_decref(j);
}

static void test_issued_as_they_go(void **state)
{
	(void)state;
	json_t *k = ct_expect("POST", "/api/v0/auth/apikeys/", "{\"name\":\"x\"}", 200);
	char key[160];
	snprintf(key, sizeof key, "%s", ct_str(k, "key"));
	json_decref(k);
	json_t *e = ct_expect("POST", "/api/v0/endptjobs/", "{\"endpoint_name\":\"sec-ep\"}", 200);
	json_decref(e);
	json_decref(ct_expect("POST", "/api/v0/secrets/", "{\"key\":\"SEC_A\",\"value\":\"value-a-0123456789\"}", 200));
	json_t *t = ct_expect("POST", "/api/v0/tfa/totp-setup/", NULL, 200);
	char totp[64];
	snprintf(totp, sizeof totp, "%s", ct_str(t, "secret"));
	json_decref(t);
	json_t *sms = ct_expect("POST", "/api/v0/tfa/sms/", "{\"phone_number\":\"+14155552671\"}", 200);
	char chal[80];
	snprintf(chal, sizeof chal, "%s", ct_str(sms, "secret"));
	json_decref(sms);
	json_t *lr = ct_expect("PUT", "/api/v0/instances/request_logs/1/", "{\"tail\":\"10\"}", 404);
	json_decref(lr);
	json_t *j = secrets();
	json_t *s = json_object_get(j, "secrets");
	assert_true(has(s, key));
	assert_true(has(s, "value-a-0123456789"));
	assert_true(has(s, totp));
	assert_true(has(s, chal));
	json_t *codes = ct_expect_as(NULL, "GET", "/__sim/codes", NULL, 200);
	assert_true(has(json_object_get(j, "codes"), ct_str(codes, "sms")));
	assert_false(has(s, ct_str(codes, "sms")));
	json_decref(codes);
	json_t *st = ct_state();
	json_t *eps = json_object_get(st, "endpoints");
	assert_true(has(s, ct_str(json_array_get(eps, json_array_size(eps) - 1), "api_key")));
	json_decref(st);
	/* kept across a reset */
	ct_reset(NULL);
	json_decref(j);
	j = secrets();
	s = json_object_get(j, "secrets");
	assert_true(has(s, key));
	assert_true(has(s, totp));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_issued_as_they_go),
	};
	return cmocka_run_group_tests_name("contract_secrets", tests, setup, ct_stop);
}
