/* test_series.c: the fixed-size hour of samples (state/series) and its
 * drawing (widgets/chart): buckets keep their largest sample, gaps stay
 * gaps (never zero), an hour-old sample falls off, a clock step back files
 * into the newest bucket, resampling into fewer or more columns; the
 * sparkline and column-chart cells in UTF-8 and ASCII, and the axis top. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "state/series.h"
#include "widgets/chart.h"

#define T0 1800000000.0 /* a bucket boundary: 1.8e9 is a multiple of 30 */

static void test_empty_is_gaps(void **state)
{
	(void)state;
	struct series8 s;
	series8_init(&s);
	double out[10], x;
	assert_int_equal(series8_values(&s, T0, out, 10), 10);
	for (int i = 0; i < 10; i++)
		assert_true(isnan(out[i]));
	assert_int_equal(series8_last(&s, T0, &x), 0);
	assert_true(sizeof(struct series8) <= 124);
}

static void test_bucket_keeps_max_and_gaps(void **state)
{
	(void)state;
	struct series8 s;
	series8_init(&s);
	series8_put(&s, T0, 40);
	series8_put(&s, T0 + 10, 90);   /* same bucket: the larger stays */
	series8_put(&s, T0 + 20, 10);
	series8_put(&s, T0 + 90, 0);    /* three buckets later: zero is data */
	double out[SERIES_BUCKETS];
	series8_values(&s, T0 + 90, out, SERIES_BUCKETS);
	assert_true(out[SERIES_BUCKETS - 1] == 0);
	assert_true(isnan(out[SERIES_BUCKETS - 2]));
	assert_true(isnan(out[SERIES_BUCKETS - 3]));
	assert_true(out[SERIES_BUCKETS - 4] == 90);
	assert_true(isnan(out[0]));
	double x = -1;
	assert_int_equal(series8_last(&s, T0 + 90, &x), 1);
	assert_true(x == 0);
	/* a minute later the newest bucket holds nothing and neither does the one before */
	assert_int_equal(series8_last(&s, T0 + 150, &x), 0);
}

static void test_clamp_round_nan(void **state)
{
	(void)state;
	struct series8 s;
	series8_init(&s);
	series8_put(&s, T0, NAN);
	double x;
	assert_int_equal(series8_last(&s, T0, &x), 0);
	series8_put(&s, T0, 300);
	assert_int_equal(series8_last(&s, T0, &x), 1);
	assert_true(x == 254);
	series8_put(&s, T0 + 30, -5);
	series8_last(&s, T0 + 30, &x);
	assert_true(x == 0);
	series8_put(&s, T0 + 60, 41.6);
	series8_last(&s, T0 + 60, &x);
	assert_true(x == 42);
}

static void test_hour_falls_off(void **state)
{
	(void)state;
	struct series8 s;
	series8_init(&s);
	series8_put(&s, T0, 77);
	double out[4];
	series8_values(&s, T0 + 3570, out, 4); /* 119 buckets later: still there */
	assert_true(out[0] == 77);
	series8_values(&s, T0 + 3600, out, 4); /* 120 later: gone */
	assert_true(isnan(out[0]));
	/* a sample after a long silence clears the ring it wrapped over */
	series8_put(&s, T0 + 7200, 5);
	double all[SERIES_BUCKETS];
	series8_values(&s, T0 + 7200, all, SERIES_BUCKETS);
	for (int i = 0; i < SERIES_BUCKETS - 1; i++)
		assert_true(isnan(all[i]));
	assert_true(all[SERIES_BUCKETS - 1] == 5);
}

static void test_clock_back(void **state)
{
	(void)state;
	struct series8 s;
	series8_init(&s);
	series8_put(&s, T0 + 300, 20);
	series8_put(&s, T0, 60); /* stepped back: filed into the newest bucket */
	double x;
	assert_int_equal(series8_last(&s, T0 + 300, &x), 1);
	assert_true(x == 60);
}

static void test_resample(void **state)
{
	(void)state;
	struct seriesf s;
	seriesf_init(&s);
	/* one sample a bucket over the hour: value = bucket index 0..119 */
	double start = T0 - (SERIES_BUCKETS - 1) * SERIES_BUCKET_S;
	for (int i = 0; i < SERIES_BUCKETS; i++)
		seriesf_put(&s, start + i * SERIES_BUCKET_S, i * 0.5);
	double out[6];
	seriesf_values(&s, T0, out, 6); /* 20 buckets a column: each the largest */
	for (int c = 0; c < 6; c++)
		assert_true(fabs(out[c] - (20 * c + 19) * 0.5) < 1e-6);
	double wide[240];
	seriesf_values(&s, T0, wide, 240); /* a bucket spans two columns */
	assert_true(wide[0] == 0 && wide[1] == 0 && wide[238] == 59.5 && wide[239] == 59.5);
	assert_int_equal(seriesf_values(&s, T0, wide, 0), 0);
}

static void test_spark_cells(void **state)
{
	(void)state;
	double v[] = {0, 25, 50, NAN, 100, 150};
	char buf[64];
	assert_int_equal(chart_spark(buf, sizeof buf, v, 6, 0, 100, false), 6);
	assert_string_equal(buf, "\u2581\u2583\u2585 \u2588\u2588");
	assert_int_equal(chart_spark(buf, sizeof buf, v, 6, 0, 100, true), 6);
	assert_string_equal(buf, "_.- ##");
	/* a short buffer gets whole glyphs only */
	char small[8];
	assert_int_equal(chart_spark(small, sizeof small, v, 6, 0, 100, false), 2);
	assert_int_equal(strlen(small), 6);
	/* a flat series (hi == lo) is drawn at its level, not divided by zero */
	double flat[] = {3, 3};
	assert_int_equal(chart_spark(buf, sizeof buf, flat, 2, 3, 3, true), 2);
	assert_string_equal(buf, "__");
}

static void test_chart_cells(void **state)
{
	(void)state;
	/* 2 rows = 16 eighths: 50 % is the full bottom row, 75 % a half top */
	double v[] = {50, 75, 100, 0, NAN, 1};
	assert_string_equal(chart_cell(v, 6, 0, 1, 2, 0, 100, false), "\u2588");
	assert_string_equal(chart_cell(v, 6, 0, 0, 2, 0, 100, false), " ");
	assert_string_equal(chart_cell(v, 6, 1, 0, 2, 0, 100, false), "\u2584");
	assert_string_equal(chart_cell(v, 6, 2, 0, 2, 0, 100, false), "\u2588");
	assert_string_equal(chart_cell(v, 6, 3, 1, 2, 0, 100, false), " ");      /* zero: empty */
	assert_string_equal(chart_cell(v, 6, 4, 1, 2, 0, 100, false), " ");      /* gap */
	assert_string_equal(chart_cell(v, 6, 5, 1, 2, 0, 100, false), "\u2581"); /* tiny shows */
	assert_string_equal(chart_cell(v, 6, 1, 0, 2, 0, 100, true), ".");
	assert_string_equal(chart_cell(v, 6, 1, 1, 2, 0, 100, true), "#");
	assert_string_equal(chart_cell(v, 6, 5, 1, 2, 0, 100, true), "_");
	assert_string_equal(chart_cell(v, 6, 9, 1, 2, 0, 100, true), " ");      /* out of range */
}

static void test_nice_max(void **state)
{
	(void)state;
	double a[] = {0.3, NAN, 0.41};
	assert_true(fabs(chart_nice_max(a, 3) - 0.5) < 1e-12);
	double b[] = {7};
	assert_true(chart_nice_max(b, 1) == 10);
	double c[] = {200};
	assert_true(chart_nice_max(c, 1) == 200);
	double d[] = {NAN, -4};
	assert_true(chart_nice_max(d, 2) == 1);
	double e[] = {1234.5};
	assert_true(chart_nice_max(e, 1) == 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_gaps),
		cmocka_unit_test(test_bucket_keeps_max_and_gaps),
		cmocka_unit_test(test_clamp_round_nan),
		cmocka_unit_test(test_hour_falls_off),
		cmocka_unit_test(test_clock_back),
		cmocka_unit_test(test_resample),
		cmocka_unit_test(test_spark_cells),
		cmocka_unit_test(test_chart_cells),
		cmocka_unit_test(test_nice_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
