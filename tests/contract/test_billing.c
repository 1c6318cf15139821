/* test_billing.c: billing arithmetic under the manual clock, to the cent
 * and below: compute plus storage while running, storage only otherwise,
 * prices derived from their parts, zero credit stopping everything,
 * prepay (timescale, discount, prepaid balance spent first) and its errors,
 * and insufficient credit at creation; the account's volumes bill on
 * their own. */
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

/* $/hour the account's volumes cost (billed from the account, whatever
 * the instances do). */
static double volumes_per_hour(void)
{
	json_t *j = ct_expect("GET", "/api/v0/volumes/", NULL, 200);
	double sum = 0;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(j, "volumes"), i, v)
		sum += ct_num(v, "storage_total_cost");
	json_decref(j);
	return sum;
}

/* The account's volumes. */
static double nvolumes(void)
{
	json_t *j = ct_expect("GET", "/api/v0/volumes/", NULL, 200);
	double n = (double)json_array_size(json_object_get(j, "volumes"));
	json_decref(j);
	return n;
}

/* The billing clock debits the credit in whole $0.001 per contract and
 * carries the rest to the contract's next second: the credit is the exact
 * figure, or above it by less than $0.001 for each contract billed. */
static void credit_is(double exact, double contracts)
{
	double c = ct_credit();
	if (!(c >= exact - 1e-9 && c < exact + 0.001 * contracts + 1e-9))
		fail_msg("credit %.6f, exactly %.6f (%g contracts)", c, exact, contracts);
}

/* ... and it moves in whole thousandths of a dollar. */
static void in_mills(double spent)
{
	double m = spent * 1000;
	if (fabs(m - round(m)) > 1e-6)
		fail_msg("$%.9f spent: not whole $0.001", spent);
}

static void test_prices_are_derived_from_their_parts(void **state)
{
	(void)state;
	json_t *st = ct_state();
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(st, "instances"), i, o) {
		double stc = ct_num(o, "storage_cost") * ct_num(o, "disk_space") / 720.0;
		assert_float_equal(ct_num(o, "storage_total_cost"), stc, 1e-12);
		assert_float_equal(ct_num(o, "dph_total"), ct_num(o, "dph_base") + stc, 1e-12);
	}
	json_decref(st);
}

static void test_running_pays_dph_total_stopped_pays_storage(void **state)
{
	(void)state;
	long run = ct_find("running", "running");
	long stopped = ct_find("exited", "stopped");
	long keep[] = { run, stopped, -1 };
	ct_keep_only(keep);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":100}");
	json_t *r = ct_inst(run), *s = ct_inst(stopped);
	double expect = 100.0 - 2.0 * (ct_num(r, "dph_total") + ct_num(s, "storage_total_cost") + volumes_per_hour());
	json_decref(r);
	json_decref(s);
	ct_advance(7200);
	credit_is(expect, 2 + nvolumes());
	in_mills(100.0 - ct_credit());
	/* nothing is lost over time: ten more hours lag no more than two did */
	ct_advance(36000);
	credit_is(expect - 10.0 * (100.0 - expect) / 2.0, 2 + nvolumes());
	in_mills(100.0 - ct_credit());
}

static void test_stopping_halts_compute_billing(void **state)
{
	(void)state;
	long run = ct_find("running", "running");
	long keep[] = { run, -1 };
	ct_keep_only(keep);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":50}");
	json_t *r = ct_inst(run);
	double dph = ct_num(r, "dph_total"), storage = ct_num(r, "storage_total_cost");
	json_decref(r);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", run);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	/* 4 s of stopping still bill compute, then storage only for the hour */
	ct_advance(3604);
	double expect = 50.0 - dph * 4.0 / 3600.0 - storage * 3600.0 / 3600.0 - volumes_per_hour() * 3604.0 / 3600.0;
	credit_is(expect, 1 + nvolumes());
}

static void test_zero_credit_stops_running_instances(void **state)
{
	(void)state;
	long run = ct_find("running", "running");
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":0.001}");
	ct_advance(3600);
	assert_float_equal(ct_credit(), 0.0, 1e-12);
	json_t *in = ct_inst(run);
	assert_string_equal(ct_str(in, "actual_status"), "exited");
	assert_string_equal(ct_str(in, "intended_status"), "stopped");
	assert_non_null(strstr(ct_str(in, "status_msg"), "balance"));
	json_decref(in);
	json_t *j = ct_expect("GET", "/api/v1/instances/?select_filters=%7B%22actual_status%22%3A%7B%22eq%22%3A%22running%22%7D%7D",
			      NULL, 200);
	assert_int_equal(ct_num(j, "total_instances"), 0);
	json_decref(j);
}

static void test_prepay_timescale_discount_and_prepaid_spending(void **state)
{
	(void)state;
	long run = ct_find("running", "running");
	long keep[] = { run, -1 };
	ct_keep_only(keep);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":200}");
	json_t *in = ct_inst(run);
	double dph = ct_num(in, "dph_total");
	json_decref(in);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/prepay/%ld/", run);
	json_t *j = ct_expect("PUT", path, "{\"amount\":150}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	double ts = 150.0 / (dph * 720.0);
	double disc = 0.4 * ts / 12.0 > 0.4 ? 0.4 : 0.4 * ts / 12.0;
	assert_float_equal(ct_num(j, "timescale"), ts, 1e-9);
	assert_float_equal(ct_num(j, "discount_rate"), disc, 1e-9);
	assert_true(ct_num(j, "discount_rate") >= 0 && ct_num(j, "discount_rate") <= 0.4);
	json_decref(j);
	assert_float_equal(ct_credit(), 50.0, 1e-9);
	in = ct_inst(run);
	assert_float_equal(ct_num(in, "credit_balance"), 150.0, 1e-9);
	assert_float_equal(ct_num(in, "credit_discount"), disc, 1e-12);
	json_decref(in);
	double vols = volumes_per_hour();
	ct_advance(3600);
	credit_is(50.0 - vols, nvolumes()); /* volumes are not prepaid */
	in = ct_inst(run);
	assert_float_equal(ct_num(in, "credit_balance"), 150.0 - dph * (1.0 - disc), 1e-9);
	json_decref(in);
	/* a bigger prepay earns a bigger discount, capped at 0.4 */
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":100000}");
	j = ct_expect("PUT", path, "{\"amount\":99000}", 200);
	assert_true(ct_num(j, "discount_rate") > disc);
	assert_true(ct_num(j, "discount_rate") <= 0.4);
	json_decref(j);
}

static void test_prepay_errors(void **state)
{
	(void)state;
	long run = ct_find("running", "running");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/prepay/%ld", run);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"amount\":1000000}", 411, NULL, "Insufficient credit");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/prepay/1/", "{\"amount\":10}", 411, NULL,
			"No such instance");
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"amount\":-5}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, "invalid_args", NULL);
}

static void test_create_needs_credit(void **state)
{
	(void)state;
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":0}");
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\"}", 400, "insufficient_credit", NULL);
}

static void test_destroy_stops_all_billing(void **state)
{
	(void)state;
	long none[] = { -1 };
	ct_keep_only(none);
	/* with no instance left every volume can go, and must for billing to stop */
	json_t *j = ct_expect("GET", "/api/v0/volumes/", NULL, 200);
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(j, "volumes"), i, v) {
		char path[96];
		snprintf(path, sizeof path, "/api/v0/volumes/?id=%.0f", ct_num(v, "id"));
		json_decref(ct_expect("DELETE", path, NULL, 200));
	}
	json_decref(j);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":42.5}");
	ct_advance(86400);
	assert_float_equal(ct_credit(), 42.5, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_prices_are_derived_from_their_parts, ct_reset),
		cmocka_unit_test_setup(test_running_pays_dph_total_stopped_pays_storage, ct_reset),
		cmocka_unit_test_setup(test_stopping_halts_compute_billing, ct_reset),
		cmocka_unit_test_setup(test_zero_credit_stops_running_instances, ct_reset),
		cmocka_unit_test_setup(test_prepay_timescale_discount_and_prepaid_spending, ct_reset),
		cmocka_unit_test_setup(test_prepay_errors, ct_reset),
		cmocka_unit_test_setup(test_create_needs_credit, ct_reset),
		cmocka_unit_test_setup(test_destroy_stops_all_billing, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_billing", tests, setup, ct_stop);
}
