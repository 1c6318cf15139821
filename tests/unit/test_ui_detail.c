/* test_ui_detail.c: the detail view's "all fields" values made readable:
 * epoch dates as dates with how long ago (or until), durations and small
 * numbers in *_time fields left alone, sizes and rates with units, text and
 * null unchanged.  TZ is UTC so the dates are fixed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "views/instances/pane_detail.h"
#include "views/instances/detail_hist.h"
#include "state/series.h"

static void want(const char *key, const char *raw, double now, const char *expect)
{
	char out[128];
	pane_detail_field_value(key, raw, now, out, sizeof out);
	if (strcmp(out, expect))
		fail_msg("%s=%s gave '%s', want '%s'", key, raw, out, expect);
}

static void test_dates(void **state)
{
	(void)state;
	/* 1795961100 = 2026-11-29 14:05 UTC */
	want("start_date", "1795961100.0", 1795961100 + 3 * 3600, "2026-11-29 14:05 (3h00m ago)");
	want("end_date", "1795961100", 1795961100 - 2 * 86400, "2026-11-29 14:05 (in 2d00h)");
	want("recent_create_date", "1795961100", 1795961100, "2026-11-29 14:05 (0s ago)");
	/* a duration in a *_time field, a date that is not a number, null */
	want("host_run_time", "2592000", 1795961100, "2592000");
	want("start_date", "null", 1795961100, "null");
	want("start_date", "\"soon\"", 1795961100, "\"soon\"");
	/* an epoch in a field of another name stays a number */
	want("id", "1795961100", 1795961100, "1795961100");
}

static void test_units(void **state)
{
	(void)state;
	want("disk_space", "32", 0, "32.0 GB");
	want("gpu_ram", "24564", 0, "24GB");
	want("cpu_ram", "512", 0, "512MB");
	want("inet_up", "812.5", 0, "812.5 Mb/s");
	want("inet_down", "1000", 0, "1000.0 Mb/s");
	want("disk_bw", "2400", 0, "2400.0 MB/s");
	want("dph_total", "0.4123", 0, "$0.412/h");
	want("gpu_name", "\"RTX 4090\"", 0, "\"RTX 4090\"");
	want("disk_space", "null", 0, "null");
	want("disk_space", "12abc", 0, "12abc");
}

static void test_cut_to_buffer(void **state)
{
	(void)state;
	char out[8];
	pane_detail_field_value("start_date", "1795961100", 1795961100, out, sizeof out);
	assert_string_equal(out, "2026-11");
}

/* The detail charts' captions: the latest sample and the hour's largest;
 * "-" for a figure never sampled in the hour or not in the latest bucket. */
static void test_hist_captions(void **state)
{
	(void)state;
	struct series8 s;
	series8_init(&s);
	char buf[64];
	double t0 = 1.8e9;
	assert_string_equal(detail_hist_caption(DHF_UTIL, &s, t0, buf, sizeof buf), "GPU -");
	series8_put(&s, t0, 97);
	series8_put(&s, t0 + 600, 2.4);
	assert_string_equal(detail_hist_caption(DHF_UTIL, &s, t0 + 600, buf, sizeof buf),
			    "GPU 2%  max 97%");
	assert_string_equal(detail_hist_caption(DHF_TEMP, &s, t0 + 600, buf, sizeof buf),
			    "temp 2 C  max 97 C");
	/* ten minutes without a sample: no latest figure, the hour's still */
	assert_string_equal(detail_hist_caption(DHF_MEM, &s, t0 + 1200, buf, sizeof buf),
			    "mem -  max 97%");
	/* past the hour: nothing */
	assert_string_equal(detail_hist_caption(DHF_UTIL, &s, t0 + 7200, buf, sizeof buf), "GPU -");
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_hist_captions),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_cut_to_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
