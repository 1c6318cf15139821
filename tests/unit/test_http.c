/* test_http.c: the URL policy (https everywhere, plain http only to
 * loopback), the request builders of api.c (method, path, body of each
 * endpoint), the retry and fall-back rules, and the decoders of answers
 * that are more than a list (prepay, create, 2FA login, endpoint logs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "api/api.h"
#include "base/config.h"
#include "net/http.h"
#include "poll/jobs.h"

static void url_policy(void **state)
{
	(void)state;
	char err[300];
	static const char *const ok[] = {
		"https://console.vast.ai", "https://run.vast.ai/x", "http://127.0.0.1:8080",
		"http://127.9.8.7/", "http://localhost:1/api", "http://[::1]:5000/",
		"HTTPS://example.com"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		if (!http_url_allowed(ok[i], err, sizeof err))
			fail_msg("%s refused: %s", ok[i], err);
	static const char *const bad[] = {"http://example.com", "http://10.0.0.1:80",
					  "http://128.0.0.1", "http://localhost.evil.com/",
					  "http://127.0.0.1.nip.io/", "ftp://127.0.0.1/",
					  "file:///etc/passwd", "not a url"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = '\0';
		if (http_url_allowed(bad[i], err, sizeof err))
			fail_msg("%s allowed", bad[i]);
		assert_true(err[0] != '\0');
	}
	assert_false(http_url_allowed("http://example.com", err, sizeof err));
	assert_non_null(strstr(err, "example.com"));
	assert_non_null(strstr(err, "loopback"));
	/* a refused URL never becomes a transfer */
	struct http_opts o = {1, 1, 0, NULL};
	struct api_error e;
	assert_null(http_xfer_new(&o, "GET", "http://example.com/", NULL, NULL, &e));
	assert_int_equal(e.cls, AE_TRANSPORT);
}

static struct config cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "http://127.0.0.1:1234";
	c.run_url = "http://127.0.0.1:1234";
	return c;
}

static json_t *body_of(const struct api_call *c)
{
	assert_non_null(c->body);
	json_t *j = json_loads(c->body, 0, NULL);
	assert_non_null(j);
	return j;
}

static void builders(void **state)
{
	(void)state;
	struct config c = cfg();
	struct api_call a = api_instances_v1(&c, NULL);
	assert_string_equal(a.method, "GET");
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v1/instances/?limit=25");
	assert_null(a.body);
	api_call_free(&a);
	a = api_instances_v1(&c, "tok en/+=");
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v1/instances/?limit=25&after_token="
				   "tok%20en%2F%2B%3D");
	api_call_free(&a);
	a = api_instances_v0(&c);
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/instances/");
	api_call_free(&a);

	a = api_stop(&c, 12);
	assert_string_equal(a.method, "PUT");
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/instances/12/");
	json_t *b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "state")), "stopped");
	json_decref(b);
	api_call_free(&a);
	a = api_start(&c, 12);
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "state")), "running");
	json_decref(b);
	api_call_free(&a);
	a = api_label(&c, 12, "a \"quoted\" label");
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "label")), "a \"quoted\" label");
	json_decref(b);
	api_call_free(&a);

	a = api_destroy(&c, 9);
	assert_string_equal(a.method, "DELETE");
	assert_string_equal(a.body, "{}"); /* DELETE carries a JSON body too */
	api_call_free(&a);
	a = api_reboot(&c, 9);
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/instances/reboot/9/");
	api_call_free(&a);

	a = api_bid(&c, 7, 0.25);
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/instances/bid_price/7/");
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "client_id")), "me");
	assert_true(fabs(json_number_value(json_object_get(b, "price")) - 0.25) < 1e-12);
	json_decref(b);
	api_call_free(&a);

	a = api_prepay(&c, 7, 50);
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/instances/prepay/7/");
	b = body_of(&a);
	assert_true(json_number_value(json_object_get(b, "amount")) == 50);
	json_decref(b);
	api_call_free(&a);

	struct create_req cr;
	memset(&cr, 0, sizeof cr);
	cr.offer_id = 555;
	strcpy(cr.image, "vastai/base");
	strcpy(cr.label, "job");
	cr.disk = 20;
	a = api_create(&c, &cr);
	assert_string_equal(a.method, "PUT");
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/asks/555/");
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "image")), "vastai/base");
	assert_true(json_number_value(json_object_get(b, "disk")) == 20);
	assert_null(json_object_get(b, "price")); /* on-demand: no price */
	assert_null(json_object_get(b, "template_hash_id"));
	json_decref(b);
	api_call_free(&a);

	a = api_tfa_login(&c, "totp", "123456");
	assert_string_equal(a.method, "POST");
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/tfa/");
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "tfa_method")), "totp");
	assert_string_equal(json_string_value(json_object_get(b, "code")), "123456");
	json_decref(b);
	api_call_free(&a);
	a = api_tfa_login(&c, "backup", "AAAA-BBBB-CCCC");
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "backup_code")),
			    "AAAA-BBBB-CCCC");
	assert_null(json_object_get(b, "tfa_method"));
	json_decref(b);
	api_call_free(&a);

	a = api_workergroups(&c, false);
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/workergroups/");
	api_call_free(&a);
	a = api_workergroups(&c, true);
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/autojobs/");
	api_call_free(&a);
	a = api_offers(&c, json_pack("{s:{s:b}}", "verified", "eq", 1));
	assert_string_equal(a.method, "POST");
	assert_string_equal(a.url, "http://127.0.0.1:1234/api/v0/bundles/");
	api_call_free(&a);
	a = api_templates(&c, json_pack("{s:{s:s}}", "name", "eq", "x y"));
	assert_non_null(strstr(a.url, "/api/v0/template/?select_filters=%7B%22name%22"));
	api_call_free(&a);
	a = api_endpoint_logs(&c, "ep1", 100);
	assert_string_equal(a.url, "http://127.0.0.1:1234/get_endpoint_logs");
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "endpoint")), "ep1");
	assert_int_equal(json_integer_value(json_object_get(b, "tail")), 100);
	json_decref(b);
	api_call_free(&a);
}

static void rules(void **state)
{
	(void)state;
	struct api_error e;
	memset(&e, 0, sizeof e);
	e.cls = AE_CLIENT;
	e.http_status = 404;
	assert_true(api_should_fall_back(&e));
	e.http_status = 405;
	assert_true(api_should_fall_back(&e));
	e.http_status = 410;
	assert_false(api_should_fall_back(&e)); /* v0 retired: an error, not a fall-back */
	e.http_status = 404;
	e.cls = AE_AUTH; /* "Invalid user key" on a 404 */
	assert_false(api_should_fall_back(&e));

	/* the one retry rule (retry.h; every row in test_retry.c) */
	e.cls = AE_RATE_LIMIT;
	e.http_status = 429;
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_RETRY);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_RETRY);
	e.cls = AE_CLIENT;
	e.http_status = 400;
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
	e.cls = AE_TRANSPORT;
	e.http_status = 0;
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_COULDNT_CONNECT, false), RD_RETRY);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_PARTIAL_FILE, true), RD_UNKNOWN);
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OPERATION_TIMEDOUT, true), RD_FAIL); /* already waited */
}

static void decoders(void **state)
{
	(void)state;
	json_t *j = json_loads("{\"success\":true,\"timescale\":1.5,\"discount_rate\":0.2}", 0,
			       NULL);
	double ts, dr;
	assert_true(api_prepay_result(j, &ts, &dr));
	assert_true(ts == 1.5 && dr == 0.2);
	json_decref(j);
	j = json_loads("{\"success\":true}", 0, NULL);
	assert_false(api_prepay_result(j, &ts, &dr));
	assert_true(isnan(ts) && isnan(dr));
	json_decref(j);

	long nc = 0;
	j = json_loads("{\"success\":true,\"new_contract\":4242,\"instance_api_key\":\"k\"}", 0,
		       NULL);
	assert_true(api_create_result(j, &nc));
	assert_int_equal(nc, 4242);
	json_decref(j);
	j = json_loads("{\"success\":true}", 0, NULL);
	assert_false(api_create_result(j, &nc));
	json_decref(j);

	j = json_loads("{\"id\":1,\"session_key\":\"abc\"}", 0, NULL);
	char *k = api_tfa_session_key(j);
	assert_string_equal(k, "abc");
	free(k);
	json_decref(j);
	j = json_loads("{\"id\":1}", 0, NULL);
	assert_null(api_tfa_session_key(j));
	json_decref(j);

	j = json_loads("{\"logs\":\"a\\nb\\u001b[31mred\"}", 0, NULL);
	char *t = api_logs_text(j);
	assert_string_equal(t, "a\nbred");
	free(t);
	json_decref(j);
	j = json_loads("{\"info0\":\"x\",\"info1\":\"\",\"trace\":\"y\"}", 0, NULL);
	t = api_logs_text(j);
	assert_string_equal(t, "x\ny");
	free(t);
	json_decref(j);
	j = json_loads("\"bare error\"", JSON_DECODE_ANY, NULL);
	assert_null(api_logs_text(j));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(url_policy),
		cmocka_unit_test(builders),
		cmocka_unit_test(rules),
		cmocka_unit_test(decoders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
