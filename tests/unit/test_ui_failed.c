/* test_ui_failed.c: one definition of failed (issue 21).  On the seeded
 * simulator's 12 instances (5 running, 2 booting, 1 stopped, 4 failed:
 * crashed, failed start, offline, unknown) the header's counts, the
 * instance table's `/status=failed` filter and its status column's colour
 * agree, as do the other groups (status=booting, status=stopped). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "net/auth.h"
#include "dump/instcol.h"
#include "json/json_map.h"
#include "state/model.h"
#include "views/instances/pane_instances.h"
#include "widgets/table.h"
#include "testsim.h"
#include "theme.h"

static struct testsim sim;
static struct instance *v;
static size_t n;

static int sim_up(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--endpoints", "0", NULL }; /* the twelve seeded */
	if (testsim_start(&sim, args) != 0)
		return -1;
	setenv("VAST_API_KEY", sim.key, 1);
	struct auth *au = auth_new(&sim.cfg, NULL);
	struct api_client cl;
	api_client_init(&cl, &sim.cfg, au);
	struct api_call c = api_instances_v1(&sim.cfg, NULL);
	json_t *root = NULL;
	struct api_error e;
	bool ok = api_run(&cl, &c, &root, &e);
	api_call_free(&c);
	api_client_cleanup(&cl);
	auth_free(au);
	unsetenv("VAST_API_KEY");
	if (!ok) {
		fprintf(stderr, "instances: %d %s\n", e.http_status, e.msg);
		return -1;
	}
	char *tok = NULL;
	ok = json_map_instances(root, &v, &n, &tok);
	free(tok);
	json_decref(root);
	return ok ? 0 : -1;
}

static int sim_down(void **state)
{
	(void)state;
	instance_free_all(v, n);
	testsim_stop(&sim);
	return 0;
}

static void test_one_definition_of_failed(void **state)
{
	(void)state;
	assert_int_equal(n, 12);
	const struct instance *pv[12];
	for (size_t i = 0; i < n; i++)
		pv[i] = &v[i];
	struct state_counts sc;
	model_count_states(pv, n, &sc); /* the header's counts */
	assert_int_equal(sc.running, 5);
	assert_int_equal(sc.booting, 2);
	assert_int_equal(sc.stopped, 1);
	assert_int_equal(sc.failed, 4);

	/* the instance table: its columns, every row as the view builds it */
	struct table_col cols[IC__COUNT];
	memset(cols, 0, sizeof cols);
	for (int c = 0; c < IC__COUNT; c++)
		cols[c].title = instcol_title((enum instcol)c);
	struct table t;
	table_init(&t, cols, IC__COUNT, 0);
	struct table_row *rows = calloc(n, sizeof *rows);
	assert_non_null(rows);
	size_t red_rows = 0, red_cells = 0;
	for (size_t i = 0; i < n; i++) {
		pane_instances_row(&rows[i], &v[i], NULL, NULL, 1.7e9, 0);
		red_rows += rows[i].role == ROLE_FAILED;
		red_cells += rows[i].cell_role_col == IC_STATUS && rows[i].cell_role == ROLE_FAILED;
	}
	assert_int_equal(red_rows, sc.failed);  /* the row's colour */
	assert_int_equal(red_cells, sc.failed); /* the status cell's colour */
	table_set_rows(&t, rows, n);

	static const struct { const char *filter; size_t want; } f[] = {
		{ "status=failed", 4 }, { "!status=failed", 8 }, { "failed", 4 },
		{ "status=booting", 2 }, { "status=stopped", 1 }, { "status=running", 5 },
	};
	for (size_t k = 0; k < sizeof f / sizeof *f; k++) {
		table_set_filter(&t, f[k].filter);
		if (table_count(&t) != f[k].want)
			fail_msg("%s: %zu rows, the header counts %zu", f[k].filter, table_count(&t),
				 f[k].want);
	}
	/* each row the filter keeps is one the counts call failed */
	table_set_filter(&t, "status=failed");
	for (size_t i = 0; i < table_count(&t); i++) {
		const struct table_row *r = table_row_at(&t, i);
		const struct instance *x = NULL;
		for (size_t k = 0; k < n; k++)
			if (v[k].id == r->id)
				x = &v[k];
		if (!x)
			fail_msg("row %ld: no such instance", r->id);
		else
			assert_int_equal(instance_state_group(x->state), IG_FAILED);
	}
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_definition_of_failed),
	};
	return cmocka_run_group_tests(tests, sim_up, sim_down);
}
