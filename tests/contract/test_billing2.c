/* test_billing2.c: where the money went.  The charges (/api/v0/charges/)
 * come from the billing clock: a day's charges add up to the credit the
 * simulator took that day, instances and serverless workers alike; their
 * filters, tree format, paging and refusals.  Invoices (/api/v1/invoices/:
 * seeded deposits, a deposit, a prepay, a transfer; filters, order, the
 * missing range), the CLI's older /users/me/invoices, and pending price
 * increases (accept extends the contract, reject drops it, stale ids 404). */
#include <math.h>
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
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0", NULL };
	return ct_start(args);
}

static double now_s(void)
{
	json_t *st = ct_state();
	double t = ct_num(st, "now");
	json_decref(st);
	return t;
}

static double credit(void)
{
	json_t *u = ct_expect("GET", "/api/v0/users/current/", NULL, 200);
	double c = ct_num(u, "credit");
	json_decref(u);
	return c;
}

/* GET /api/v0/charges/ over [lo, hi] with extra filter members and query. */
static json_t *charges(double lo, double hi, const char *more_filters, const char *query, long status)
{
	char f[512], enc[1024], path[1400];
	snprintf(f, sizeof f, "{\"day\":{\"gte\":%.0f,\"lte\":%.0f}%s%s}", lo, hi, more_filters ? "," : "",
		 more_filters ? more_filters : "");
	size_t o = 0;
	for (const char *p = f; *p && o + 4 < sizeof enc; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.')
			enc[o++] = *p;
		else
			o += (size_t)snprintf(enc + o, sizeof enc - o, "%%%02X", (unsigned char)*p);
	}
	enc[o] = '\0';
	snprintf(path, sizeof path, "/api/v0/charges/?select_filters=%s%s%s", enc, query ? "&" : "", query ? query : "");
	return ct_expect("GET", path, NULL, status);
}

static double sum_amounts(json_t *results)
{
	double s = 0;
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r)
		s += ct_num(r, "amount");
	return s;
}

static void test_charges_add_up_to_the_credit_spent(void **state)
{
	(void)state;
	double t0 = now_s(), c0 = credit();
	ct_advance(3 * 3600);
	double c1 = credit();
	double day0 = floor(t0 / 86400) * 86400;
	/* today (and tomorrow, should the three hours cross midnight) */
	json_t *j = charges(day0, day0 + 2 * 86400 - 1, NULL, "limit=500", 200);
	json_t *res = json_object_get(j, "results");
	size_t n = json_array_size(res);
	assert_true(n > 0);
	assert_int_equal(ct_num(j, "total"), n);
	assert_true(json_is_null(json_object_get(j, "next_token")));
	/* the billing clock debits the credit in the $0.001 units the rows are
	 * served in: the rows add up to the credit spent, to the tenth of a cent */
	assert_int_equal(llround(sum_amounts(res) * 1000), llround((c0 - c1) * 1000));
	json_decref(j);
	json_t *st = ct_state();
	json_t *acct = json_object_get(st, "acct");
	/* (in double: cmocka's assert_float_equal compares floats) */
	if (fabs(ct_num(acct, "charged_since_start") - (c0 - c1)) > 1e-6)
		fail_msg("charged since start %.9f, credit spent %.9f", ct_num(acct, "charged_since_start"), c0 - c1);
	/* the ledger's days from today on are that credit too */
	double ledger = 0;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(acct, "charged_per_day"), k, v)
		if (atof(k) >= day0)
			ledger += json_number_value(v);
	assert_int_equal(llround(ledger * 1000), llround((c0 - c1) * 1000));
	/* each seeded day before today: its rows (one day asked) add up
	 * exactly to the ledger's day */
	for (int d = 1; d <= 4; d++) {
		double day = day0 - d * 86400.0;
		char key[32];
		snprintf(key, sizeof key, "%.0f", day);
		double want = ct_num(json_object_get(acct, "charged_per_day"), key);
		j = charges(day, day + 86400 - 1, NULL, "limit=500", 200);
		assert_true(json_array_size(json_object_get(j, "results")) > 0);
		assert_int_equal(llround(sum_amounts(json_object_get(j, "results")) * 1000), llround(want * 1000));
		json_decref(j);
	}
	json_decref(st);
}

static void test_charges_rows_filters_and_tree(void **state)
{
	(void)state;
	double t0 = now_s(), day0 = floor(t0 / 86400) * 86400;
	ct_advance(3600);
	json_t *j = charges(day0, day0 + 2 * 86400, "\"type\":{\"in\":[\"serverless\"]}", "limit=500", 200);
	json_t *res = json_object_get(j, "results");
	assert_true(json_array_size(res) > 0);
	size_t i;
	json_t *r;
	json_array_foreach(res, i, r) {
		json_t *m = json_object_get(r, "metadata");
		assert_true(json_is_integer(json_object_get(m, "endpoint_id")));
		assert_true(json_is_integer(json_object_get(m, "workergroup_id")));
		assert_string_equal(ct_str(r, "type"), "instance");
		assert_true(!strncmp(ct_str(r, "source"), "instance-", 9));
		/* gpu and disk items add up to the row */
		json_t *items = json_object_get(r, "items");
		assert_int_equal(json_array_size(items), 2);
		assert_string_equal(ct_str(json_array_get(items, 0), "type"), "gpu");
		assert_string_equal(ct_str(json_array_get(items, 1), "type"), "disk");
		assert_float_equal(sum_amounts(items), ct_num(r, "amount"), 0.0011);
		assert_non_null(strstr(ct_str(json_array_get(items, 0), "description"), "hours at $"));
	}
	double sless = sum_amounts(res);
	size_t nsless = json_array_size(res);
	json_decref(j);
	/* a serverless worker costs its dph_total: the first endpoint's
	 * workers over the hour */
	json_t *eps = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	json_t *ep = json_array_get(json_object_get(eps, "results"), 0);
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%lld}", (long long)json_integer_value(json_object_get(ep, "id")));
	json_t *wk = ct_expect("POST", "/get_endpoint_workers/", body, 200);
	double dph = 0;
	json_array_foreach(wk, i, r)
		dph += ct_num(r, "dph_total");
	json_decref(wk);
	char f[96];
	snprintf(f, sizeof f, "\"type\":{\"in\":[\"serverless\"]}");
	j = charges(day0, day0 + 2 * 86400, f, "limit=500&format=tree", 200);
	res = json_object_get(j, "results");
	bool found = false;
	json_array_foreach(res, i, r) {
		assert_string_equal(ct_str(r, "type"), "serverless");
		assert_true(!strncmp(ct_str(r, "source"), "endpoint-", 9));
		json_t *g = json_array_get(json_object_get(r, "items"), 0);
		assert_true(!strncmp(ct_str(g, "source"), "workergroup-", 12));
		assert_true(json_array_size(json_object_get(g, "items")) > 0);
		if (json_integer_value(json_object_get(json_object_get(r, "metadata"), "endpoint_id")) ==
		    json_integer_value(json_object_get(ep, "id"))) {
			found = true;
			assert_float_equal(ct_num(r, "amount"), dph, 0.002 * 5);
		}
	}
	assert_true(found);
	assert_float_equal(sum_amounts(res), sless, 0.002 * (double)nsless);
	json_decref(j);
	json_decref(eps);
	/* instance rows carry no endpoint */
	j = charges(day0, day0 + 2 * 86400, "\"type\":{\"in\":[\"instance\"]}", "limit=500", 200);
	json_array_foreach(json_object_get(j, "results"), i, r)
		assert_null(json_object_get(json_object_get(r, "metadata"), "endpoint_id"));
	json_decref(j);
	/* the account's volumes are contracts of their own, storage only */
	json_t *vols = ct_expect("GET", "/api/v0/volumes/", NULL, 200);
	size_t nvol = json_array_size(json_object_get(vols, "volumes"));
	json_decref(vols);
	j = charges(day0, day0 + 2 * 86400, "\"type\":{\"in\":[\"volume\"]}", "limit=500", 200);
	assert_int_equal(json_array_size(json_object_get(j, "results")), nvol);
	json_array_foreach(json_object_get(j, "results"), i, r) {
		assert_string_equal(ct_str(r, "type"), "volume");
		assert_true(!strncmp(ct_str(r, "source"), "volume-", 7));
		assert_string_equal(ct_str(json_array_get(json_object_get(r, "items"), 0), "type"), "disk");
	}
	json_decref(j);
	/* a day range in the future has nothing */
	j = charges(day0 + 10 * 86400, day0 + 11 * 86400, NULL, NULL, 200);
	assert_int_equal(json_array_size(json_object_get(j, "results")), 0);
	json_decref(j);
}

static void test_charges_paging_and_refusals(void **state)
{
	(void)state;
	double day0 = floor(now_s() / 86400) * 86400;
	ct_advance(600);
	json_t *all = charges(day0 - 30 * 86400, day0 + 86400, NULL, "limit=500&latest_first=false", 200);
	size_t total = (size_t)ct_num(all, "total");
	assert_true(total > 4);
	json_t *res = json_object_get(all, "results");
	for (size_t i = 1; i < json_array_size(res); i++)
		assert_true(ct_num(json_array_get(res, i - 1), "start") <= ct_num(json_array_get(res, i), "start"));
	/* pages of 3 cover the same rows once each */
	char q[256];
	size_t seen = 0;
	snprintf(q, sizeof q, "limit=3&latest_first=false");
	for (int guard = 0; guard < 200; guard++) {
		json_t *p = charges(day0 - 30 * 86400, day0 + 86400, NULL, q, 200);
		json_t *pr = json_object_get(p, "results");
		for (size_t i = 0; i < json_array_size(pr); i++)
			assert_string_equal(ct_str(json_array_get(pr, i), "source"),
					    ct_str(json_array_get(res, seen + i), "source"));
		seen += json_array_size(pr);
		const char *next = ct_str(p, "next_token");
		if (!next) {
			json_decref(p);
			break;
		}
		snprintf(q, sizeof q, "limit=3&latest_first=false&after_token=%s", next);
		json_decref(p);
	}
	assert_int_equal(seen, total);
	json_decref(all);
	json_t *j = ct_expect("GET", "/api/v0/charges/?select_filters=%7B%22day%22%3A%7B%22gte%22%3A0%7D%7D", NULL, 400);
	assert_string_equal(ct_str(j, "msg"), "Must provide both 'day' gte and lte filters for instance charges");
	json_decref(j);
	json_decref(ct_expect("GET", "/api/v0/charges/", NULL, 400));
	j = charges(0, 1, NULL, "after_token=%21%21", 400);
	assert_string_equal(ct_str(j, "error"), "invalid_token");
	json_decref(j);
	json_decref(charges(0, 1, NULL, "format=pie", 400));
	ct_expect_error(ct_sim->ro_key, "GET", "/api/v0/charges/?select_filters=%7B%7D", NULL, 401, "permission_denied",
			"billing_read");
}

static json_t *invoices(const char *filters, const char *query, long status)
{
	char path[1024];
	snprintf(path, sizeof path, "/api/v1/invoices/?select_filters=%s%s%s", filters, query ? "&" : "", query ? query : "");
	return ct_expect("GET", path, NULL, status);
}

#define ALL_TIME "%7B%22when%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%7D"

static void test_invoices(void **state)
{
	(void)state;
	json_t *j = invoices(ALL_TIME, NULL, 200);
	assert_int_equal(ct_num(j, "total"), 8);
	json_t *r = json_array_get(json_object_get(j, "results"), 0);
	assert_string_equal(ct_str(r, "type"), "credit");
	assert_string_equal(ct_str(r, "source"), "stripe");
	assert_float_equal(ct_num(r, "amount"), -100, 1e-9);
	assert_string_equal(ct_str(json_object_get(r, "metadata"), "service"), "stripe_payments");
	assert_true(json_is_integer(json_object_get(json_object_get(r, "metadata"), "invoice_id")));
	assert_int_equal(json_array_size(json_object_get(r, "items")), 0);
	json_decref(j);
	/* a deposit, a prepay, a transfer */
	double c0 = credit();
	ct_ctl("set", "{\"what\":\"sim\",\"field\":\"deposit\",\"value\":50}");
	assert_float_equal(credit(), c0 + 50, 1e-9);
	long id = ct_find("running", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/prepay/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"amount\":20}", 200));
	json_decref(ct_expect("PUT", "/api/v0/commands/transfer_credit/", "{\"recipient\":\"bob@example.com\",\"amount\":5}",
			      200));
	j = invoices(ALL_TIME, "latest_first=true", 200);
	json_t *res = json_object_get(j, "results");
	assert_int_equal(ct_num(j, "total"), 11);
	assert_string_equal(ct_str(json_array_get(res, 0), "type"), "transfer");
	assert_string_equal(ct_str(json_array_get(res, 1), "type"), "reserved");
	assert_float_equal(ct_num(json_array_get(res, 1), "amount"), -20, 1e-9);
	assert_string_equal(ct_str(json_array_get(res, 2), "type"), "credit");
	assert_float_equal(ct_num(json_array_get(res, 2), "amount"), -50, 1e-9);
	json_decref(j);
	/* service filters */
	j = invoices("%7B%22when%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%2C%22service%22%3A%7B%22in%22%3A%5B"
		     "%22transfer%22%2C%22instance_prepay%22%5D%7D%7D",
		     NULL, 200);
	assert_int_equal(ct_num(j, "total"), 2);
	json_decref(j);
	j = invoices("%7B%22when%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%2C%22service%22%3A%7B%22neq%22%3A"
		     "%22stripe_payments%22%7D%7D",
		     NULL, 200);
	assert_int_equal(ct_num(j, "total"), 2);
	json_decref(j);
	/* order_by amount ascending: the largest deposit first (-100) */
	j = invoices(ALL_TIME, "order_by=%5B%7B%22col%22%3A%22amount_cents%22%2C%22dir%22%3A%22asc%22%7D%5D", 200);
	res = json_object_get(j, "results");
	assert_float_equal(ct_num(json_array_get(res, 0), "amount"), -100, 1e-9);
	assert_float_equal(ct_num(json_array_get(res, json_array_size(res) - 1), "amount"), 5, 1e-9);
	json_decref(j);
	/* paging */
	j = invoices(ALL_TIME, "limit=4", 200);
	assert_int_equal(ct_num(j, "count"), 4);
	assert_non_null(ct_str(j, "next_token"));
	json_decref(j);
	/* the docs: a missing range is HTTP 200 with success false */
	j = invoices("%7B%7D", NULL, 200);
	assert_false(json_is_true(json_object_get(j, "success")));
	assert_string_equal(ct_str(j, "error"), "Invalid date range");
	assert_int_equal(ct_num(j, "total"), 0);
	json_decref(j);
	j = invoices(ALL_TIME, "after_token=xyz", 400);
	assert_string_equal(ct_str(j, "error"), "invalid_token");
	json_decref(j);
}

static void test_invoices_old(void **state)
{
	(void)state;
	ct_advance(3600);
	double t = now_s();
	char path[256];
	snprintf(path, sizeof path, "/api/v0/users/me/invoices?owner=me&sdate=%.0f&edate=%.0f&inc_charges=true",
		 t - 60 * 86400, t + 1);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *rows = json_object_get(j, "invoices");
	size_t charges_n = 0, pay = 0, i;
	json_t *r;
	json_array_foreach(rows, i, r) {
		const char *ty = ct_str(r, "type");
		charges_n += !strcmp(ty, "charge");
		pay += !strcmp(ty, "payment");
		assert_true(json_is_number(json_object_get(r, "timestamp")));
		assert_true(json_is_number(json_object_get(r, "amount")));
		assert_non_null(ct_str(r, "description"));
	}
	assert_true(charges_n > 0);
	assert_int_equal(pay, 8);
	assert_true(ct_num(json_object_get(j, "current"), "charges") > 0);
	json_decref(j);
	snprintf(path, sizeof path, "/api/v0/users/me/invoices?owner=me&sdate=%.0f&edate=%.0f&inc_charges=false",
		 t - 60 * 86400, t + 1);
	j = ct_expect("GET", path, NULL, 200);
	assert_int_equal(json_array_size(json_object_get(j, "invoices")), 8);
	json_decref(j);
}

static json_t *pending(void)
{
	json_t *j = ct_expect("GET", "/api/v0/instances/pending-price-increases/", NULL, 200);
	json_t *p = json_incref(json_object_get(j, "pending_price_increases"));
	assert_int_equal(ct_num(j, "count"), json_array_size(p));
	assert_false(json_is_true(json_object_get(j, "truncated")));
	json_decref(j);
	return p;
}

static void test_pending_price_increases(void **state)
{
	(void)state;
	json_t *p = pending();
	assert_int_equal(json_array_size(p), 2);
	json_t *a = json_array_get(p, 0), *b = json_array_get(p, 1);
	long pa = (long)ct_num(a, "pending_price_increase_id"), pb = (long)ct_num(b, "pending_price_increase_id");
	long ca = (long)ct_num(a, "contract_id"), cb = (long)ct_num(b, "contract_id");
	double ask = ct_num(a, "ask_end_date");
	assert_true(ct_num(a, "new_gpu_costpersec") > ct_num(a, "old_gpu_costpersec"));
	assert_true(ask > ct_num(a, "contract_end_date"));
	json_t *in = ct_inst(ca);
	assert_float_equal(ct_num(in, "end_date"), ct_num(a, "contract_end_date"), 1e-6);
	assert_string_equal(ct_str(in, "actual_status"), "running");
	json_decref(in);
	json_decref(p);
	char body[96];
	snprintf(body, sizeof body, "{\"pending_price_increase_id\":%ld,\"note\":1}", pa);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/accept-price-increase/", body, 400, "invalid_args",
			NULL);
	json_decref(ct_expect("PUT", "/api/v0/instances/accept-price-increase/", "{\"pending_price_increase_id\":\"x\"}", 400));
	snprintf(body, sizeof body, "{\"pending_price_increase_id\":%ld}", pa);
	json_t *j = ct_expect("PUT", "/api/v0/instances/accept-price-increase/", body, 200);
	assert_int_equal(ct_num(j, "contract_id"), ca);
	assert_int_equal(ct_num(j, "pending_price_increase_id"), pa);
	json_decref(j);
	in = ct_inst(ca);
	assert_float_equal(ct_num(in, "end_date"), ask, 1e-6);
	json_decref(in);
	j = ct_expect("PUT", "/api/v0/instances/accept-price-increase/", body, 404);
	assert_string_equal(ct_str(j, "error"), "no_pending_price_increase");
	json_decref(j);
	p = pending();
	assert_int_equal(json_array_size(p), 1);
	json_decref(p);
	/* a destroyed instance's row goes with it; reject of it is stale */
	char path[64];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", cb);
	json_decref(ct_expect("DELETE", path, "{}", 200));
	p = pending();
	assert_int_equal(json_array_size(p), 0);
	json_decref(p);
	snprintf(body, sizeof body, "{\"pending_price_increase_id\":%ld}", pb);
	json_decref(ct_expect("PUT", "/api/v0/instances/reject-price-increase/", body, 404));
	/* read with the read-only key (instance_read); answering is a write */
	json_decref(ct_expect_as(ct_sim->ro_key, "GET", "/api/v0/instances/pending-price-increases/", NULL, 200));
	ct_expect_error(ct_sim->ro_key, "PUT", "/api/v0/instances/reject-price-increase/", body, 401, "permission_denied",
			NULL);
}

static void test_reject_keeps_the_contract(void **state)
{
	(void)state;
	json_t *p = pending();
	json_t *a = json_array_get(p, 0);
	long ca = (long)ct_num(a, "contract_id");
	double end = ct_num(a, "contract_end_date");
	char body[96];
	snprintf(body, sizeof body, "{\"pending_price_increase_id\":%ld}", (long)ct_num(a, "pending_price_increase_id"));
	json_decref(p);
	json_decref(ct_expect("PUT", "/api/v0/instances/reject-price-increase/", body, 200));
	json_t *in = ct_inst(ca);
	assert_float_equal(ct_num(in, "end_date"), end, 1e-6);
	json_decref(in);
	p = pending();
	assert_int_equal(json_array_size(p), 1);
	json_decref(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_charges_add_up_to_the_credit_spent, ct_reset),
		cmocka_unit_test_setup(test_charges_rows_filters_and_tree, ct_reset),
		cmocka_unit_test_setup(test_charges_paging_and_refusals, ct_reset),
		cmocka_unit_test_setup(test_invoices, ct_reset),
		cmocka_unit_test_setup(test_invoices_old, ct_reset),
		cmocka_unit_test_setup(test_pending_price_increases, ct_reset),
		cmocka_unit_test_setup(test_reject_keeps_the_contract, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_billing2", tests, setup, ct_stop);
}
