/* test_acctbill.c: the billing section's data (flow/acctbill, rules/acctbill):
 * each answer's shape mapped to rows with one sign (/api/v0/charges/ in
 * table and tree form, /api/v1/invoices/, the older /users/me/invoices with
 * its end-of-day timestamps and its opposite sign), a refusal sent with
 * HTTP 200, the range fetch's steps (invoices, charges day by day and page
 * by page, the older form where the new one is absent, a failure), and the
 * totals per day, per week and per instance with the rounding to the cent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/api_account.h"
#include "base/config.h"
#include "flow/acctbill.h"

#define D0 1795392000.0 /* 2026-11-23 00:00 UTC, a Monday */

static json_t *js(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);
	assert_non_null(j);
	return j;
}

static void test_charges_table(void **state)
{
	(void)state;
	json_t *j = js("{\"success\":true,\"count\":3,\"total\":3,\"next_token\":\"bzM=\",\"results\":["
		       "{\"start\":1795393000.0,\"end\":1795478400,\"type\":\"instance\",\"source\":\"instance-9108074\","
		       "\"description\":\"Instance 9108074 Charges - 1 day\",\"amount\":63.737,"
		       "\"metadata\":{\"label\":\"lora\\u001b[31m\"},\"items\":[]},"
		       "{\"start\":1795400000,\"type\":\"volume\",\"source\":\"volume-31\",\"amount\":0.012,\"metadata\":{}},"
		       "{\"start\":1795400000,\"type\":\"instance\",\"source\":\"instance-125204\",\"amount\":\"0.5\","
		       "\"metadata\":{\"endpoint_id\":1252,\"workergroup_id\":9}},"
		       "{\"start\":1795400000,\"type\":\"instance\",\"source\":\"instance-1\"}]}");
	struct bill_page p = { 0 };
	char why[100] = "";
	assert_true(acctbill_charges(j, &p, why, sizeof why));
	assert_int_equal(p.n, 3); /* the row without an amount is skipped */
	assert_true(p.v[0].t == D0);
	assert_int_equal(p.v[0].kind, BILL_INSTANCE);
	assert_int_equal(p.v[0].contract, 9108074);
	assert_int_equal(p.v[0].mills, 63737);
	assert_string_equal(p.v[0].what, "instance 9108074 lora"); /* the escape dropped whole */
	assert_int_equal(p.v[1].kind, BILL_STORAGE);
	assert_string_equal(p.v[1].what, "volume 31");
	assert_int_equal(p.v[1].mills, 12);
	assert_int_equal(p.v[2].kind, BILL_SERVERLESS);
	assert_int_equal(p.v[2].endpoint, 1252);
	assert_int_equal(p.v[2].mills, 500);
	assert_string_equal(p.next, "bzM=");
	free(p.v);
	json_decref(j);
}

static void test_charges_tree(void **state)
{
	(void)state;
	/* the tree form: workers under their workergroup under their endpoint */
	json_t *j = js("{\"results\":[{\"start\":1795400000,\"type\":\"serverless\",\"source\":\"endpoint-7\","
		       "\"amount\":0.3,\"metadata\":{\"endpoint_id\":7},\"items\":[{\"start\":1795400000,"
		       "\"type\":\"serverless\",\"source\":\"workergroup-9\",\"amount\":0.3,\"metadata\":"
		       "{\"workergroup_id\":9,\"endpoint_id\":7},\"items\":[{\"start\":1795400000,\"type\":\"instance\","
		       "\"source\":\"instance-5\",\"amount\":0.1,\"metadata\":{\"endpoint_id\":7}},{\"start\":1795400000,"
		       "\"type\":\"instance\",\"source\":\"instance-6\",\"amount\":0.2,\"metadata\":{\"endpoint_id\":7}}]}]},"
		       "{\"start\":1795400000,\"type\":\"instance\",\"source\":\"instance-8\",\"amount\":1,\"metadata\":{}}],"
		       "\"next_token\":null}");
	struct bill_page p = { 0 };
	char why[100];
	assert_true(acctbill_charges(j, &p, why, sizeof why));
	assert_int_equal(p.n, 3); /* the workers and the instance: no wrapper counted twice */
	assert_int_equal(p.v[0].contract, 5);
	assert_int_equal(p.v[1].mills, 200);
	assert_int_equal(p.v[2].kind, BILL_INSTANCE);
	assert_string_equal(p.next, "");
	free(p.v);
	json_decref(j);
}

static void test_charges_refused(void **state)
{
	(void)state;
	json_t *j = js("{\"success\":false,\"msg\":\"Must provide both 'day' gte and lte filters\"}");
	struct bill_page p = { 0 };
	char why[100] = "";
	assert_false(acctbill_charges(j, &p, why, sizeof why));
	assert_string_equal(why, "Must provide both 'day' gte and lte filters");
	json_decref(j);
	j = js("{\"results\":{}}");
	assert_false(acctbill_charges(j, &p, why, sizeof why));
	json_decref(j);
	struct api_error e = { 0 };
	j = js("[]");
	void *v = acctbill_map_charges(j, &e); /* a bare empty list is a valid answer */
	assert_non_null(v);
	acctbill_page_free(v);
	json_decref(j);
}

static void test_invoices_v1(void **state)
{
	(void)state;
	json_t *j = js("{\"success\":true,\"results\":["
		       "{\"start\":1795210098,\"type\":\"credit\",\"source\":\"stripe\",\"description\":\"Stripe payment\","
		       "\"amount\":-100.0,\"metadata\":{\"invoice_id\":1,\"service\":\"stripe_payments\"}},"
		       "{\"start\":1795300000,\"type\":\"transfer\",\"source\":\"transfer\",\"amount\":12.5,"
		       "\"metadata\":{\"recipient\":\"carol@example.com\"}},"
		       "{\"start\":1795300001,\"type\":\"reserved\",\"amount\":3,\"metadata\":{\"instance_id\":44}}],"
		       "\"next_token\":\"abc\"}");
	struct bill_page p = { 0 };
	char why[100];
	assert_true(acctbill_invoices(j, &p, why, sizeof why));
	assert_int_equal(p.n, 3);
	assert_int_equal(p.v[0].kind, BILL_DEPOSIT);
	assert_int_equal(p.v[0].mills, -100000);
	assert_string_equal(p.v[0].what, "stripe");
	assert_true(p.v[0].t == 1795210098.0);
	assert_int_equal(p.v[1].kind, BILL_TRANSFER);
	assert_int_equal(p.v[1].mills, 12500);
	assert_string_equal(p.v[1].what, "carol@example.com");
	assert_int_equal(p.v[2].kind, BILL_PREPAY);
	assert_int_equal(p.v[2].contract, 44);
	assert_string_equal(p.next, "abc");
	assert_false(acctbill_is_charge(BILL_DEPOSIT) || acctbill_is_charge(BILL_TRANSFER) ||
		     acctbill_is_charge(BILL_PREPAY));
	free(p.v);
	json_decref(j);
	/* the docs' refusal: HTTP 200 with success false and "error" */
	j = js("{\"success\":false,\"error\":\"Invalid date range\",\"results\":[]}");
	struct api_error e = { 0 };
	assert_null(acctbill_map_invoices(j, &e));
	assert_non_null(strstr(e.msg, "Invalid date range"));
	json_decref(j);
}

static void test_invoices_old(void **state)
{
	(void)state;
	/* a charge's timestamp ends what it charges: a whole day ends on the
	 * next midnight; the older form signs a payment positive */
	json_t *j = js("{\"invoices\":["
		       "{\"description\":\"Instance 9108080: render-farm-03\",\"quantity\":24,\"rate\":2.656,"
		       "\"amount\":63.737,\"timestamp\":1795478400.0,\"type\":\"charge\",\"instance_id\":9108080},"
		       "{\"description\":\"Instance 9108080: render-farm-03\",\"amount\":2.196,"
		       "\"timestamp\":1795480000.5,\"type\":\"charge\",\"instance_id\":9108080},"
		       "{\"description\":\"Volume 12\",\"amount\":0.25,\"timestamp\":1795400000,\"type\":\"charge\",\"instance_id\":12},"
		       "{\"description\":\"Serverless worker 125000\",\"amount\":0.1,\"timestamp\":1795400000,\"type\":\"charge\",\"instance_id\":125000},"
		       "{\"description\":\"Stripe payment\",\"amount\":100.0,\"timestamp\":1795210098,\"type\":\"payment\"},"
		       "{\"description\":\"Transfer to carol\",\"amount\":-5.0,\"timestamp\":1795300000,\"type\":\"transfer\"}],"
		       "\"current\":{\"charges\":1.5}}");
	struct bill_page p = { 0 };
	char why[100];
	assert_true(acctbill_invoices_old(j, &p, why, sizeof why));
	assert_int_equal(p.n, 6);
	assert_true(p.v[0].t == D0);              /* ended on 11-24 00:00: the 23rd */
	assert_true(p.v[1].t == D0 + BILL_DAY);   /* partial, within the 24th */
	assert_string_equal(p.v[0].what, "instance 9108080 render-farm-03");
	assert_int_equal(p.v[0].mills, 63737);
	assert_int_equal(p.v[2].kind, BILL_STORAGE);
	assert_int_equal(p.v[3].kind, BILL_SERVERLESS);
	assert_int_equal(p.v[4].kind, BILL_DEPOSIT);
	assert_int_equal(p.v[4].mills, -100000);
	assert_int_equal(p.v[5].kind, BILL_TRANSFER);
	assert_int_equal(p.v[5].mills, 5000);
	free(p.v);
	json_decref(j);
	j = js("{\"results\":[]}");
	assert_false(acctbill_invoices_old(j, &p, why, sizeof why));
	json_decref(j);
}

static struct bill_row row(double t, enum bill_kind k, long contract, long endpoint, long long mills)
{
	struct bill_row r;
	memset(&r, 0, sizeof r);
	r.t = t;
	r.kind = k;
	r.contract = contract;
	r.endpoint = endpoint;
	r.mills = mills;
	snprintf(r.what, sizeof r.what, "instance %ld", contract);
	return r;
}

static void test_totals(void **state)
{
	(void)state;
	const double T = D0 + BILL_DAY; /* Tuesday 11-24 */
	double lo;
	/* 7 days up to Monday 11-30 12:00: from Tuesday 11-24 */
	assert_int_equal(acctbill_range(T + 6.5 * BILL_DAY, 7, &lo), 7);
	assert_true(lo == T);
	assert_int_equal(acctbill_range(T, 0, &lo), 1);
	assert_int_equal(acctbill_range(T, 1000, &lo), BILL_DAYS_MAX);
	assert_true(lo == T - (BILL_DAYS_MAX - 1) * BILL_DAY);
	lo = T;
	struct bill_row v[] = {
		row(T, BILL_INSTANCE, 1, 0, 115165),            /* 115.165: the sum rounds up */
		row(T, BILL_DEPOSIT, 0, 0, -100000),            /* not spend */
		row(T + BILL_DAY, BILL_INSTANCE, 1, 0, 1004),
		row(T + BILL_DAY, BILL_INSTANCE, 2, 0, 1),
		row(T + BILL_DAY, BILL_SERVERLESS, 125000, 7, 300),
		row(T + BILL_DAY, BILL_SERVERLESS, 125001, 7, 200),
		row(T + 6 * BILL_DAY, BILL_STORAGE, 1, 0, 10),  /* volume 1 is not instance 1 */
		row(T + 6 * BILL_DAY, BILL_TRANSFER, 0, 0, 5000),
		row(T - BILL_DAY, BILL_INSTANCE, 1, 0, 999999), /* before the range */
		row(T + 7 * BILL_DAY, BILL_INSTANCE, 1, 0, 999999),
	};
	size_t n = sizeof v / sizeof *v;
	long long day[7];
	assert_int_equal(acctbill_per_day(v, n, lo, 7, day), 115165 + 1505 + 10);
	assert_int_equal(day[0], 115165);
	assert_int_equal(day[1], 1505);
	assert_int_equal(day[2], 0);
	assert_int_equal(day[6], 10);
	char m[32];
	assert_string_equal(acctbill_money(day[0], m, sizeof m), "$115.17");
	assert_string_equal(acctbill_money(day[1], m, sizeof m), "$1.51");
	assert_string_equal(acctbill_money(4, m, sizeof m), "$0.00");
	assert_string_equal(acctbill_money(-100000, m, sizeof m), "-$100.00");
	assert_string_equal(acctbill_money(-5, m, sizeof m), "-$0.01");
	assert_int_equal(acctbill_cents(1234567), 123457);
	/* weeks: Monday 11-23 to Sunday 11-29, then from Monday 11-30 */
	assert_true(acctbill_week(T) == T - BILL_DAY);
	assert_true(acctbill_week(T + 6 * BILL_DAY + 5) == T + 6 * BILL_DAY);
	struct bill_total *t;
	size_t k = acctbill_per_week(v, n, lo, 7, &t);
	assert_int_equal(k, 2);
	assert_true(t[0].t == T - BILL_DAY);
	assert_int_equal(t[0].mills, 115165 + 1505);
	assert_int_equal(t[1].mills, 10);
	free(t);
	/* per instance, largest first; the workers of endpoint 7 together */
	k = acctbill_per_instance(v, n, lo, 7, &t);
	assert_int_equal(k, 4);
	assert_int_equal(t[0].id, 1);
	assert_int_equal(t[0].kind, BILL_INSTANCE);
	assert_int_equal(t[0].mills, 115165 + 1004);
	assert_int_equal(t[1].kind, BILL_SERVERLESS);
	assert_int_equal(t[1].id, 7);
	assert_int_equal(t[1].mills, 500);
	assert_string_equal(t[1].what, "endpoint 7");
	assert_int_equal(t[2].kind, BILL_STORAGE);
	assert_int_equal(t[2].mills, 10);
	assert_int_equal(t[3].id, 2);
	free(t);
}

/* Run the fetch's next call's mapper on text (NULL: an error of status). */
static void step(struct bill_fetch *f, const struct config *c, enum api_ep want, const char *text,
		 int status)
{
	struct api_call call;
	acctbill_map_fn map;
	assert_true(acctbill_fetch_call(f, c, &call, &map));
	assert_int_equal(call.ep, want);
	api_call_free(&call);
	struct api_error e;
	memset(&e, 0, sizeof e);
	if (!text) {
		e.cls = status >= 500 ? AE_SERVER : AE_CLIENT;
		e.http_status = status;
		snprintf(e.msg, sizeof e.msg, "HTTP %d", status);
		acctbill_fetch_put(f, NULL, &e);
		return;
	}
	json_t *j = js(text);
	struct bill_page *p = map(j, &e);
	json_decref(j);
	acctbill_fetch_put(f, p, p ? NULL : &e);
}

static void test_fetch_steps(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"http://x";
	struct bill_fetch f;
	acctbill_fetch_init(&f, D0, 2, D0 + 1.5 * BILL_DAY);
	step(&f, &c, EP_INVOICES, "{\"results\":[{\"start\":1795392100,\"type\":\"credit\",\"amount\":-100}],"
				  "\"next_token\":\"p2\"}", 0);
	assert_string_equal(f.tok, "p2");
	step(&f, &c, EP_INVOICES, "{\"results\":[],\"next_token\":null}", 0);
	assert_int_equal(f.step, BSTEP_CHARGES);
	/* day 0 in two pages, then day 1 */
	step(&f, &c, EP_CHARGES, "{\"results\":[{\"start\":1795392100,\"source\":\"instance-1\",\"amount\":1}],"
				 "\"next_token\":\"q\"}", 0);
	assert_int_equal(f.day, 0);
	step(&f, &c, EP_CHARGES, "{\"results\":[{\"start\":1795392200,\"source\":\"instance-2\",\"amount\":2}]}", 0);
	assert_int_equal(f.day, 1);
	step(&f, &c, EP_CHARGES, "{\"results\":[{\"start\":1795478500,\"source\":\"instance-1\",\"amount\":3}]}", 0);
	assert_int_equal(f.step, BSTEP_DONE);
	struct api_call call;
	acctbill_map_fn map;
	assert_false(acctbill_fetch_call(&f, &c, &call, &map));
	assert_int_equal(f.n, 4);
	assert_false(f.old);
	assert_string_equal(f.err, "");
	long long day[2];
	assert_int_equal(acctbill_per_day(f.v, f.n, f.lo, 2, day), 6000);
	acctbill_fetch_free(&f);

	/* /api/v1/invoices/ absent (404): everything from the older form, once */
	acctbill_fetch_init(&f, D0, 2, D0 + 1.5 * BILL_DAY);
	step(&f, &c, EP_INVOICES, NULL, 404);
	assert_int_equal(f.step, BSTEP_OLD);
	step(&f, &c, EP_INVOICES_OLD,
	     "{\"invoices\":[{\"description\":\"Instance 1\",\"amount\":1.5,\"timestamp\":1795392000,"
	     "\"type\":\"charge\",\"instance_id\":1},{\"description\":\"Instance 1\",\"amount\":2.5,"
	     "\"timestamp\":1795478400,\"type\":\"charge\",\"instance_id\":1},{\"description\":\"pay\","
	     "\"amount\":50,\"timestamp\":1795400000,\"type\":\"payment\"}]}", 0);
	assert_int_equal(f.step, BSTEP_DONE);
	assert_true(f.old);
	assert_int_equal(f.n, 2); /* the charge that ended at lo belongs to the day before */
	assert_int_equal(acctbill_per_day(f.v, f.n, f.lo, 2, day), 2500);
	assert_int_equal(f.v[1].mills, -50000);
	acctbill_fetch_free(&f);

	/* the charges absent only: their rows from the older form, its
	 * payments left out (the invoices came from v1) */
	acctbill_fetch_init(&f, D0, 1, D0 + 0.5 * BILL_DAY);
	step(&f, &c, EP_INVOICES, "{\"results\":[{\"start\":1795392100,\"type\":\"credit\",\"amount\":-100}]}", 0);
	step(&f, &c, EP_CHARGES, NULL, 404);
	step(&f, &c, EP_INVOICES_OLD,
	     "{\"invoices\":[{\"description\":\"Instance 1\",\"amount\":1.5,\"timestamp\":1795400000,"
	     "\"type\":\"charge\",\"instance_id\":1},{\"description\":\"pay\",\"amount\":100,"
	     "\"timestamp\":1795392100,\"type\":\"payment\"}]}", 0);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.v[0].kind, BILL_DEPOSIT);
	assert_int_equal(f.v[1].kind, BILL_INSTANCE);
	acctbill_fetch_free(&f);

	/* any other failure ends the fetch with its words */
	acctbill_fetch_init(&f, D0, 3, D0 + 2.5 * BILL_DAY);
	step(&f, &c, EP_INVOICES, "{\"results\":[]}", 0);
	step(&f, &c, EP_CHARGES, NULL, 500);
	assert_int_equal(f.step, BSTEP_DONE);
	assert_string_equal(f.err, "HTTP 500");
	assert_false(acctbill_fetch_call(&f, &c, &call, &map));
	acctbill_fetch_free(&f);
}

static void test_calls(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"http://x";
	struct api_call k = api_charges_day(&c, D0, "a b");
	assert_string_equal(k.method, "GET");
	assert_non_null(strstr(k.url, "/api/v0/charges/?select_filters="));
	assert_non_null(strstr(k.url, "1795392000%2C%22lte%22%3A1795392000")); /* gte = lte = the day */
	assert_non_null(strstr(k.url, "&after_token=a%20b"));
	api_call_free(&k);
	k = api_invoices_old(&c, D0, D0 + 10);
	assert_string_equal(k.url, "http://x/api/v0/users/me/invoices?owner=me&sdate=1795392000&"
				   "edate=1795392010&inc_charges=true");
	api_call_free(&k);
	k = api_transfer_credit(&c, "carol@example.com", 12.345);
	assert_string_equal(k.method, "PUT");
	assert_int_equal(api_ep_kind(k.ep), RK_ACTION);
	assert_non_null(strstr(k.body, "\"amount\": 12.35") ? k.body : strstr(k.body, "\"amount\":12.35"));
	api_call_free(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charges_table), cmocka_unit_test(test_charges_tree),
		cmocka_unit_test(test_charges_refused), cmocka_unit_test(test_invoices_v1),
		cmocka_unit_test(test_invoices_old),   cmocka_unit_test(test_totals),
		cmocka_unit_test(test_fetch_steps),    cmocka_unit_test(test_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
