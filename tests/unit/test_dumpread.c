/* test_dumpread.c: the id partition of the parallel --dump read: no rows,
 * one row, fewer rows (or ids) than ranges, sparse and wide ids, hi below
 * lo, the extremes of long; every id in exactly one range, cuts ascending,
 * the widths even. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>

#include "dump/dumpread.h"

/* The partition's invariants over [lo, hi] with `total` rows. */
static size_t check(long lo, long hi, long total, size_t max)
{
	long cuts[DUMPREAD_RANGES + 1];
	size_t k = dumpread_partition(lo, hi, total, max, cuts);
	if (total <= 0 || max == 0) {
		assert_int_equal(k, 0);
		return 0;
	}
	assert_true(k >= 1);
	assert_true(k <= max);
	assert_true(k <= (size_t)((total + API_PAGE_LIMIT - 1) / API_PAGE_LIMIT));
	long h = hi < lo ? lo : hi;
	for (size_t i = 0; i + 1 < k; i++) {
		assert_true(cuts[i] > lo);
		assert_true(cuts[i] <= h);
		if (i > 0)
			assert_true(cuts[i] > cuts[i - 1]);
	}
	/* widths even: within one of each other (the first from lo, the last to h) */
	if (k > 1 && (unsigned long)h - (unsigned long)lo < (unsigned long)LONG_MAX / 2) {
		long wmin = LONG_MAX, wmax = 0;
		for (size_t i = 0; i < k; i++) {
			long a = i ? cuts[i - 1] : lo, w = i + 1 < k ? cuts[i] - a : h - a + 1;
			if (w < wmin)
				wmin = w;
			if (w > wmax)
				wmax = w;
		}
		assert_true(wmax - wmin <= 1);
	}
	/* ids around the bounds fall in exactly one range; ids outside [lo, hi]
	 * in the open first or last one */
	long probe[] = { LONG_MIN, lo > LONG_MIN ? lo - 1 : lo, lo, lo < LONG_MAX ? lo + 1 : lo,
			 h > LONG_MIN ? h - 1 : h, h, h < LONG_MAX ? h + 1 : h, LONG_MAX };
	for (size_t p = 0; p < sizeof probe / sizeof *probe; p++) {
		int in = 0;
		for (size_t i = 0; i < k; i++)
			in += dumpread_in_range(cuts, k, i, probe[p]);
		assert_int_equal(in, 1);
	}
	for (size_t i = 0; i + 1 < k; i++) {
		assert_true(dumpread_in_range(cuts, k, i + 1, cuts[i]));
		assert_false(dumpread_in_range(cuts, k, i, cuts[i]));
		assert_true(dumpread_in_range(cuts, k, i, cuts[i] - 1));
	}
	return k;
}

static void edges(void **state)
{
	(void)state;
	assert_int_equal(check(1, 1000, 0, 8), 0);        /* no rows */
	assert_int_equal(check(1, 1000, -1, 8), 0);       /* not sent */
	assert_int_equal(check(5, 5, 1, 8), 1);           /* one row */
	assert_int_equal(check(1, 30, 30, 8), 2);         /* fewer pages than ranges */
	assert_int_equal(check(1, 3, 1000, 8), 3);        /* fewer ids than ranges */
	assert_int_equal(check(100, 99, 1000, 8), 1);     /* hi below lo: one id */
	assert_int_equal(check(9108000, 9108999, 1000, 8), 8);
	assert_int_equal(check(1, 1000000000, 1000, 8), 8); /* sparse ids */
	assert_int_equal(check(LONG_MIN, LONG_MAX, 1000, 8), 8);
	assert_int_equal(check(LONG_MAX - 3, LONG_MAX, 1000, 8), 4);
	assert_int_equal(check(-50, 50, 200, 8), 8);
	assert_int_equal(check(1, 1000, 1000, 1), 1);
	assert_int_equal(check(1, 1000, 1000, 0), 0);
}

static void even_split(void **state)
{
	(void)state;
	long cuts[DUMPREAD_RANGES];
	/* 1,000 dense ids: 8 ranges of 125 */
	assert_int_equal(dumpread_partition(1, 1000, 1000, 8, cuts), 8);
	for (int i = 0; i < 7; i++)
		assert_int_equal(cuts[i], 1 + 125 * (i + 1));
	for (long lo = -20; lo < 20; lo++)
		for (long span = 0; span < 300; span += 7)
			for (long total = 0; total < 400; total += 37)
				check(lo, lo + span, total, DUMPREAD_RANGES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edges),
		cmocka_unit_test(even_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
