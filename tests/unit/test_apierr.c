/* test_apierr.c: every error envelope the service uses, the classification
 * of each status, messages that are one clean line, and keys echoed back by
 * the server never surviving into the message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "net/apierr.h"
#include "net/retry.h"

static struct api_error decode(int status, const char *body)
{
	struct api_error e;
	memset(&e, 0x5A, sizeof e); /* garbage: decode must fill everything */
	assert_true(apierr_decode(status, body, body ? strlen(body) : 0, &e));
	return e;
}

static void test_full_envelope(void **state)
{
	(void)state;
	struct api_error e = decode(429, "{\"success\":false,\"error\":\"rate_limit_exceeded\","
					 "\"msg\":\"API requests too frequent endpoint threshold=3.0\"}");
	assert_int_equal(e.cls, AE_RATE_LIMIT);
	assert_int_equal(e.http_status, 429);
	assert_string_equal(e.slug, "rate_limit_exceeded");
	assert_string_equal(e.msg, "API requests too frequent endpoint threshold=3.0");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_RETRY);
	char buf[400];
	assert_string_equal(apierr_format(&e, buf, sizeof buf),
			    "HTTP 429 rate_limit_exceeded: API requests too frequent endpoint threshold=3.0");

	e = decode(400, "{\"success\":false,\"error\":\"invalid_args\",\"msg\":\"price below 0.001\"}");
	assert_int_equal(e.cls, AE_CLIENT);
	assert_string_equal(e.slug, "invalid_args");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
}

static void test_other_envelopes(void **state)
{
	(void)state;
	struct api_error e = decode(411, "{\"msg\": \"Insufficient credit\"}");
	assert_int_equal(e.cls, AE_CLIENT);
	assert_string_equal(e.slug, "");
	assert_string_equal(e.msg, "Insufficient credit");

	e = decode(500, "{\"message\": \"Internal error\"}");
	assert_int_equal(e.cls, AE_SERVER);
	assert_string_equal(e.msg, "Internal error");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_RETRY);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_UNKNOWN);

	e = decode(429, "{\"detail\": \"API requests too frequent endpoint threshold=2.0\"}");
	assert_int_equal(e.cls, AE_RATE_LIMIT);
	assert_string_equal(e.msg, "API requests too frequent endpoint threshold=2.0");

	e = decode(400, "\"Something \\u001b[31mwent wrong\"");
	assert_string_equal(e.msg, "Something went wrong");

	e = decode(429, "API requests too frequent endpoint threshold=1.0\n");
	assert_int_equal(e.cls, AE_RATE_LIMIT);
	assert_string_equal(e.msg, "API requests too frequent endpoint threshold=1.0");

	e = decode(503, "\n\n   upstream \t unavailable   \r\nsecond line\n");
	assert_int_equal(e.cls, AE_SERVER);
	assert_string_equal(e.msg, "upstream   unavailable");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_RETRY);

	e = decode(502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
			"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
			"</body>\r\n</html>\r\n");
	assert_string_equal(e.msg, "502 Bad Gateway");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_RETRY);

	e = decode(500, "<!DOCTYPE html><html><head><style>body{color:red}</style>"
			"<script>var x=1;</script></head><body><p>Server &amp; <b>database</b> "
			"down</p></body></html>");
	assert_string_equal(e.msg, "Server &  database  down");

	e = decode(422, "{\"detail\": [{\"loc\": [\"body\", \"price\"], \"msg\": \"field required\"}]}");
	assert_int_equal(e.cls, AE_CLIENT);
	assert_non_null(strstr(e.msg, "field required"));

	e = decode(400, "{\"error\": \"missing_input\"}");
	assert_string_equal(e.slug, "missing_input");
	assert_string_equal(e.msg, "missing input");
}

static void test_empty_and_odd_bodies(void **state)
{
	(void)state;
	struct api_error e = decode(503, "");
	assert_string_equal(e.msg, "Service Unavailable");
	e = decode(404, NULL);
	assert_string_equal(e.msg, "Not Found");
	assert_int_equal(e.cls, AE_CLIENT);
	e = decode(418, "   \n\t ");
	assert_string_equal(e.msg, "Client Error");
	e = decode(400, "{}");
	assert_string_equal(e.msg, "Bad Request");
	e = decode(400, "[1,2]");
	assert_string_equal(e.msg, "[1,2]");
	e = decode(400, "{\"msg\": null, \"message\": 5}");
	assert_string_equal(e.msg, "5");
	e = decode(302, "");
	assert_int_equal(e.cls, AE_PROTOCOL);
	e = decode(0, "");
	assert_int_equal(e.cls, AE_TRANSPORT);
	/* a body with an embedded NUL and invalid UTF-8 */
	const char odd[] = "bad\0rest\xff\xfe";
	struct api_error f;
	assert_true(apierr_decode(500, odd, sizeof odd - 1, &f));
	assert_int_equal(f.cls, AE_SERVER);
	assert_non_null(strstr(f.msg, "bad"));
	/* a long message is cut, still terminated */
	char big[2000];
	memset(big, 'a', sizeof big - 1);
	for (size_t i = 0; i < sizeof big - 1; i += 10)
		big[i] = ' ';
	big[sizeof big - 1] = '\0';
	e = decode(400, big);
	assert_true(strlen(e.msg) < sizeof e.msg);
	/* cut on a character boundary: 300 two-byte characters */
	char wide[700] = "";
	for (int i = 0; i < 300; i++)
		strcat(wide, "\xc3\xa9");
	e = decode(400, wide);
	assert_int_equal(strlen(e.msg) % 2, 0);
	assert_true(strlen(e.msg) >= sizeof e.msg - 2);
}

static void test_success_bodies(void **state)
{
	(void)state;
	struct api_error e;
	const char *ok1 = "{\"success\": true, \"new_contract\": 5}";
	assert_false(apierr_decode(200, ok1, strlen(ok1), &e));
	const char *ok2 = "{\"instances\": []}";
	assert_false(apierr_decode(200, ok2, strlen(ok2), &e));
	assert_false(apierr_decode(204, "", 0, &e));
	assert_false(apierr_decode(200, "not json", 8, &e));
	const char *ok3 = "\"Successfully Deleted API Key\"";
	assert_false(apierr_decode(200, ok3, strlen(ok3), &e));

	const char *unavail = "{\"success\":false,\"error\":\"resources_unavailable\",\"msg\":"
			      "\"Required resources are currently unavailable, state change queued.\"}";
	assert_true(apierr_decode(200, unavail, strlen(unavail), &e));
	assert_int_equal(e.cls, AE_CLIENT);
	assert_int_equal(e.http_status, 200);
	assert_string_equal(e.slug, "resources_unavailable");
	const char *nomsg = "{\"success\": false}";
	assert_true(apierr_decode(200, nomsg, strlen(nomsg), &e));
	assert_string_equal(e.msg, "request failed");

	/* the top-level "success" is found without a tree (apierr.c's yajl
	 * scan) by jansson's rules: the last one wins, nested ones do not
	 * count, integer 0 fails and 0.0 does not, escapes are decoded */
	static const struct { const char *body; bool failed; } cases[] = {
		{ "{\"success\":0}", true }, { "{\"success\":-0}", true },
		{ "{\"success\":0.0}", false }, { "{\"success\":\"false\"}", false },
		{ "{\"success\":null}", false }, { "{\"a\":{\"success\":false}}", false },
		{ "[{\"success\":false}]", false }, { "{\"success\":false,\"success\":true}", false },
		{ "{\"success\":true,\"success\":0}", true }, { "{\"\\u0073uccess\":false}", true },
		{ "{\"x\":[{\"success\":false}],\"success\":false}", true },
		{ "{\"success\":false} x", false }, /* not JSON: jansson reads no failure */
		{ "{\"success\":false}\v", false }, { "{\"success\":[false]}", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		if (apierr_decode(200, cases[i].body, strlen(cases[i].body), &e) != cases[i].failed)
			fail_msg("success scan: %s", cases[i].body);
}

static void test_auth_classes(void **state)
{
	(void)state;
	struct api_error e = decode(401, "{\"success\":false,\"error\":\"auth_error\",\"msg\":\"Invalid user key\"}");
	assert_int_equal(e.cls, AE_AUTH);
	e = decode(404, "{\"success\":false,\"error\":\"auth_error\",\"msg\":\"Invalid user key\"}");
	assert_int_equal(e.cls, AE_AUTH);
	e = decode(404, "{\"msg\":\"Invalid user key\"}");
	assert_int_equal(e.cls, AE_AUTH);
	e = decode(403, "{\"msg\":\"This action requires login.\"}");
	assert_int_equal(e.cls, AE_AUTH);
	e = decode(404, "{\"success\":false,\"msg\":\"Session expired. Please log in again.\"}");
	assert_int_equal(e.cls, AE_SESSION_EXPIRED);
	e = decode(401, "{\"success\":false,\"error\":\"tfa_required\",\"msg\":"
			"\"This action requires Two Factor Authentication\"}");
	assert_int_equal(e.cls, AE_NEEDS_TFA);
	/* 2FA refusals are about the code, not the key or the pace */
	e = decode(401, "{\"success\":false,\"error\":\"invalid_backup_code\",\"msg\":\"Invalid backup code\"}");
	assert_int_equal(e.cls, AE_CLIENT);
	e = decode(403, "{\"success\":false,\"error\":\"authorization_required\",\"msg\":\"Authorize first\"}");
	assert_int_equal(e.cls, AE_CLIENT);
	e = decode(429, "{\"error\":\"tfa_locked\",\"msg\":\"Too many attempts\",\"fail_count\":5,\"locked_until\":1763710000}");
	assert_int_equal(e.cls, AE_CLIENT);
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
	e = decode(400, "{\"error\":\"2fa_verification_failed\",\"msg\":\"Wrong code\",\"fail_count\":1}");
	assert_int_equal(e.cls, AE_CLIENT);
	assert_string_equal(e.msg, "Wrong code");
	e = decode(404, "{\"success\":false,\"error\":\"not_found\",\"msg\":\"Instance not found\"}");
	assert_int_equal(e.cls, AE_CLIENT);
	e = decode(410, "{\"success\":false,\"error\":\"deprecated_endpoint\",\"msg\":\"/api/v0/instances/ is deprecated. Use /api/v1/instances/ instead.\"}");
	assert_int_equal(e.cls, AE_CLIENT);
	assert_string_equal(e.msg, "/api/v0/instances/ is deprecated. Use /api/v1/instances/ instead.");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
}

static void test_secrets_masked(void **state)
{
	(void)state;
	const char *key = "3f8a9c0b1d2e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c";
	char body[512];
	snprintf(body, sizeof body, "{\"msg\": \"Invalid key %s given\"}", key);
	struct api_error e = decode(401, body);
	assert_null(strstr(e.msg, "3f8a9c0b"));
	assert_string_equal(e.msg, "Invalid key ******** given");

	snprintf(body, sizeof body, "Bearer %s rejected", "QWxhZGRpbjpvcGVuIHNlc2FtZTEyMzQ1Njc4OTAxMjM0NTY=");
	e = decode(403, body);
	assert_string_equal(e.msg, "Bearer ******** rejected");

	snprintf(body, sizeof body, "{\"error\":\"x\",\"detail\":{\"api_key\":\"%s\"}}", key);
	e = decode(400, body);
	assert_null(strstr(e.msg, "3f8a9c0b"));

	/* ordinary long words survive */
	e = decode(400, "{\"msg\":\"API_requests_too_frequent_endpoint_threshold\"}");
	assert_string_equal(e.msg, "API_requests_too_frequent_endpoint_threshold");

	struct api_error t;
	char tmsg[256];
	snprintf(tmsg, sizeof tmsg, "Failed: https://h/?k=%s \x1b[2J", key);
	apierr_transport(&t, tmsg);
	assert_int_equal(t.cls, AE_TRANSPORT);
	assert_int_equal(t.http_status, 0);
	assert_null(strstr(t.msg, "3f8a9c0b"));
	assert_null(strchr(t.msg, '\x1b'));
	assert_int_equal(retry_decision_for(RK_FETCH, &t, CURLE_OK, true), RD_RETRY);
	char buf[300];
	assert_non_null(strstr(apierr_format(&t, buf, sizeof buf), "network error"));
}

static void test_protocol_and_format(void **state)
{
	(void)state;
	struct api_error e;
	apierr_protocol(&e, 200, "instances is not a list");
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_int_equal(e.http_status, 200);
	char buf[64];
	assert_string_equal(apierr_format(&e, buf, sizeof buf),
			    "HTTP 200: unexpected response: instances is not a list");
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
	char tiny[8];
	apierr_format(&e, tiny, sizeof tiny);
	assert_int_equal(strlen(tiny), 7);
	e = decode(404, "{\"msg\":\"gone\"}");
	assert_string_equal(apierr_format(&e, buf, sizeof buf), "HTTP 404: gone");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_envelope),
		cmocka_unit_test(test_other_envelopes),
		cmocka_unit_test(test_empty_and_odd_bodies),
		cmocka_unit_test(test_success_bodies),
		cmocka_unit_test(test_auth_classes),
		cmocka_unit_test(test_secrets_masked),
		cmocka_unit_test(test_protocol_and_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
