/* acctbill.h (rules): the billing section's arithmetic over struct
 * bill_row (flow/acctbill.h): the range of days, spend per UTC day, per
 * week (Monday to Sunday, UTC) and per instance or endpoint, and money in
 * cents.  Sums are exact (thousandths of a dollar); a total is rounded to
 * the cent once, half away from zero.  Pure; any thread; no state. */
#ifndef RENTOP_RULES_ACCTBILL_H
#define RENTOP_RULES_ACCTBILL_H

#include <stdbool.h>
#include <stddef.h>

#include "flow/acctbill.h"

#define BILL_DAYS_MAX 92 /* the longest range (days) */

/* The range of the last ndays UTC days up to the day of now: its first
 * day's start into *lo (the days are lo, lo + BILL_DAY, ...).  ndays is
 * clamped to 1..BILL_DAYS_MAX; returns it. */
int acctbill_range(double now, int ndays, double *lo);

/* Spend (charges only) per day of the range into mills[0..ndays) ($/1000);
 * rows outside it are left out.  Returns the range's total. */
long long acctbill_per_day(const struct bill_row *v, size_t n, double lo, int ndays,
			   long long *mills);

/* One line of a total. */
struct bill_total {
	double t;          /* per day, per week: the start; per instance: 0 */
	enum bill_kind kind; /* per instance: the kind of its charges */
	long id;           /* per instance: the instance, volume or endpoint */
	char what[64];     /* its name (the first row's what) */
	long long mills;
};
/* The start (Monday 00:00 UTC) of the week holding epoch t. */
double acctbill_week(double t);
/* Totals of the charges within [lo, lo + ndays days): per week (oldest
 * first), per instance (largest first; a serverless worker counts for its
 * endpoint).  *out malloc'd (free it); returns the count. */
size_t acctbill_per_week(const struct bill_row *v, size_t n, double lo, int ndays,
			 struct bill_total **out);
size_t acctbill_per_instance(const struct bill_row *v, size_t n, double lo, int ndays,
			     struct bill_total **out);

/* mills as dollars to the cent, half away from zero: "$12.35", "-$100.00". */
char *acctbill_money(long long mills, char *buf, size_t n);
/* mills rounded to whole cents. */
long long acctbill_cents(long long mills);

#endif
