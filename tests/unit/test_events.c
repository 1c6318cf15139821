/* test_events.c: instance state changes are events (issue 12):
 * provisioning -> running, running -> offline, a partial list keeps the
 * states it did not carry, an instance seen for the first time is no
 * change; event times carry the date when not today (fmt_when). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state/model.h"
#include "base/util.h"

static void mk(struct instance *x, long id, const char *label, const char *actual,
	       const char *intended)
{
	memset(x, 0, sizeof *x);
	x->id = id;
	x->label = xstrdup(label);
	x->actual_status = actual ? xstrdup(actual) : NULL;
	x->intended_status = xstrdup(intended);
	x->cur_state = xstrdup("");
	x->next_state = xstrdup("");
	x->status_msg = xstrdup("");
	x->gpu_name = xstrdup("RTX 4090");
	x->image = xstrdup("img");
	x->runtype = xstrdup("ssh");
	x->ssh_host = xstrdup("h");
	x->public_ip = xstrdup("");
	x->geolocation = xstrdup("");
	x->verification = xstrdup("");
	x->template_hash_id = xstrdup("");
	x->template_name = xstrdup("");
	x->state = instance_derive_state(actual, intended, "", "");
	x->dph_total = x->dph_base = x->storage_total_cost = NAN;
	x->bid_price = x->credit_balance = NAN;
}

/* The state-change events after seq (texts joined by '|'). */
static uint64_t changes(struct model *m, uint64_t after, char *out, size_t n)
{
	struct event ev[64];
	size_t k = model_events(m, after, ev, 64);
	out[0] = '\0';
	for (size_t i = 0; i < k; i++) {
		after = ev[i].seq;
		if (!(ev[i].flags & EVF_STATE))
			continue;
		assert_true(ev[i].flags & EVF_QUIET); /* logged, no toast */
		size_t l = strlen(out);
		snprintf(out + l, n - l, "%s%s", l ? "|" : "", ev[i].text);
	}
	return after;
}

static void test_state_changes(void **state)
{
	(void)state;
	struct model *m = model_new();
	char got[1024];
	struct instance *v = xcalloc(2, sizeof *v);
	mk(&v[0], 1, "a", NULL, "running"); /* provisioning */
	mk(&v[1], 2, "b", "running", "running");
	model_set_instances(m, v, 2, 1000.0);
	uint64_t seq = changes(m, 0, got, sizeof got);
	assert_string_equal(got, ""); /* the first sight is no change */

	v = xcalloc(3, sizeof *v);
	mk(&v[0], 1, "a", "running", "running");
	mk(&v[1], 2, "b", "offline", "running");
	mk(&v[2], 3, "c", "loading", "running"); /* new: no change */
	model_set_instances(m, v, 3, 1010.0);
	seq = changes(m, seq, got, sizeof got);
	assert_string_equal(got, "instance 1 (a): provisioning -> running|"
				 "instance 2 (b): running -> offline");

	/* the same again: nothing */
	v = xcalloc(3, sizeof *v);
	mk(&v[0], 1, "a", "running", "running");
	mk(&v[1], 2, "b", "offline", "running");
	mk(&v[2], 3, "c", "loading", "running");
	model_set_instances(m, v, 3, 1020.0);
	seq = changes(m, seq, got, sizeof got);
	assert_string_equal(got, "");

	/* a partial list (a sweep under way) keeps the states it lacks */
	struct irow *rows[1];
	struct instance one;
	mk(&one, 3, "c", "running", "running");
	rows[0] = instance_row_new(&one);
	struct inst_progress pr = { 3, true, 1030.0 };
	model_publish_rows(m, rows, 1, &pr, 1030.0);
	instance_row_unref(rows[0]);
	seq = changes(m, seq, got, sizeof got);
	assert_string_equal(got, "instance 3 (c): loading -> running");
	v = xcalloc(3, sizeof *v);
	mk(&v[0], 1, "a", "running", "running");
	mk(&v[1], 2, "b", "running", "running");
	mk(&v[2], 3, "c", "running", "running");
	model_set_instances(m, v, 3, 1040.0);
	changes(m, seq, got, sizeof got);
	assert_string_equal(got, "instance 2 (b): offline -> running");
	model_free(m);
}

static void test_fmt_when(void **state)
{
	(void)state;
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	tm.tm_hour = 12;
	tm.tm_min = 30;
	tm.tm_sec = 5;
	double noon = (double)mktime(&tm);
	char buf[32], want[32];
	assert_string_equal(fmt_when(buf, sizeof buf, noon, noon + 3600), "12:30:05");
	/* two days before: the date too */
	double earlier = noon - 2 * 86400.0;
	time_t te = (time_t)earlier;
	localtime_r(&te, &tm);
	strftime(want, sizeof want, "%Y-%m-%d 12:30", &tm);
	assert_string_equal(fmt_when(buf, sizeof buf, earlier, noon), want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_changes),
		cmocka_unit_test(test_fmt_when),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
