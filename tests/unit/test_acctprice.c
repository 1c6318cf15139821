/* test_acctprice.c: pending price increases (flow/acctprice): the CLI's
 * shape mapped ($/s to $/h, the dates), rows without a contract skipped,
 * the line the detail view shows, the lookup by instance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "flow/acctprice.h"
#include "json/json_list.h"

static void test_map(void **state)
{
	(void)state;
	json_error_t err;
	json_t *j = json_loads("{\"success\":true,\"count\":2,\"pending_price_increases\":["
			       "{\"pending_price_increase_id\":5500,\"contract_id\":9108074,"
			       "\"new_gpu_costpersec\":6.84375e-5,\"old_gpu_costpersec\":5.475e-5,"
			       "\"contract_end_date\":1806741773.9,\"ask_end_date\":1809333773.9},"
			       "{\"pending_price_increase_id\":5501,\"contract_id\":null},"
			       "{\"pending_price_increase_id\":5502,\"contract_id\":7,\"new_gpu_costpersec\":0.001}]}",
			       0, &err);
	assert_non_null(j);
	struct api_error e = { 0 };
	struct json_list *l = acctprice_map(j, &e);
	assert_non_null(l);
	assert_int_equal(l->n, 2);
	const struct price_inc *p = l->v;
	assert_int_equal(p[0].id, 5500);
	assert_int_equal(p[0].contract, 9108074);
	assert_true(fabs(p[0].new_gpu_dph - 0.246375) < 1e-9);
	assert_true(fabs(p[0].old_gpu_dph - 0.1971) < 1e-9);
	char buf[200];
	assert_string_equal(acctprice_text(&p[0], buf, sizeof buf),
			    "GPU $0.246/h (now $0.197/h) from 2027-04-03 UTC; accepting extends to 2027-05-03");
	assert_true(isnan(p[1].old_gpu_dph));
	assert_string_equal(acctprice_text(&p[1], buf, sizeof buf),
			    "GPU $3.600/h from ? UTC; accepting extends to ?");
	assert_ptr_equal(acctprice_of(p, l->n, 7), &p[1]);
	assert_null(acctprice_of(p, l->n, 8));
	json_list_free(l);
	json_decref(j);
	j = json_loads("{\"success\":false}", 0, &err);
	assert_null(acctprice_map(j, &e));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_map) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
