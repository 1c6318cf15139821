/* acctbill.c (rules): see acctbill.h. */
#include "rules/acctbill.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"

int acctbill_range(double now, int ndays, double *lo)
{
	if (ndays < 1)
		ndays = 1;
	if (ndays > BILL_DAYS_MAX)
		ndays = BILL_DAYS_MAX;
	*lo = acctbill_day(now) - (ndays - 1) * BILL_DAY;
	return ndays;
}

/* The day index of t in the range, -1 when outside. */
static int day_index(double t, double lo, int ndays)
{
	double d = floor((t - lo) / BILL_DAY);
	return d >= 0 && d < ndays ? (int)d : -1;
}

long long acctbill_per_day(const struct bill_row *v, size_t n, double lo, int ndays,
			   long long *mills)
{
	long long total = 0;
	for (int d = 0; d < ndays; d++)
		mills[d] = 0;
	for (size_t i = 0; i < n; i++) {
		int d = day_index(v[i].t, lo, ndays);
		if (d < 0 || !acctbill_is_charge(v[i].kind))
			continue;
		mills[d] += v[i].mills;
		total += v[i].mills;
	}
	return total;
}

double acctbill_week(double t)
{
	double day = acctbill_day(t);
	long dn = (long)floor(day / BILL_DAY); /* 1970-01-01 was a Thursday: day 0, weekday 3 */
	long wd = ((dn % 7) + 7 + 3) % 7;       /* 0 = Monday */
	return day - (double)wd * BILL_DAY;
}

/* Add m to the total keyed (t, id), appending it when new. */
static void bump(struct bill_total **out, size_t *n, double t, long id, const struct bill_row *r)
{
	for (size_t i = 0; i < *n; i++) {
		if ((*out)[i].t == t && (*out)[i].id == id) {
			(*out)[i].mills += r->mills;
			return;
		}
	}
	*out = xrealloc(*out, (*n + 1) * sizeof **out);
	struct bill_total *x = &(*out)[(*n)++];
	memset(x, 0, sizeof *x);
	x->t = t;
	x->id = id;
	x->kind = r->kind;
	x->mills = r->mills;
	if (r->kind == BILL_SERVERLESS)
		snprintf(x->what, sizeof x->what, "endpoint %ld", id);
	else
		util_strlcpy(x->what, r->what, sizeof x->what);
}

size_t acctbill_per_week(const struct bill_row *v, size_t n, double lo, int ndays,
			 struct bill_total **out)
{
	size_t k = 0;
	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		if (day_index(v[i].t, lo, ndays) < 0 || !acctbill_is_charge(v[i].kind))
			continue;
		bump(out, &k, acctbill_week(v[i].t), 0, &v[i]);
	}
	for (size_t i = 0; i < k; i++) {
		snprintf((*out)[i].what, sizeof (*out)[i].what, "week");
		(*out)[i].kind = BILL_OTHER;
	}
	/* oldest first (rows arrive by day, but not necessarily in order) */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && (*out)[j - 1].t > (*out)[j].t; j--) {
			struct bill_total t = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return k;
}

size_t acctbill_per_instance(const struct bill_row *v, size_t n, double lo, int ndays,
			     struct bill_total **out)
{
	size_t k = 0;
	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		if (day_index(v[i].t, lo, ndays) < 0 || !acctbill_is_charge(v[i].kind))
			continue;
		long id = v[i].kind == BILL_SERVERLESS ? v[i].endpoint : v[i].contract;
		/* volumes and instances are numbered apart: a volume's key is negative */
		bump(out, &k, v[i].kind == BILL_STORAGE ? -1 : 0, id, &v[i]);
	}
	for (size_t i = 0; i < k; i++)
		(*out)[i].t = 0;
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && (*out)[j - 1].mills < (*out)[j].mills; j--) {
			struct bill_total t = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return k;
}

long long acctbill_cents(long long mills)
{
	return mills >= 0 ? (mills + 5) / 10 : -((-mills + 5) / 10);
}

char *acctbill_money(long long mills, char *buf, size_t n)
{
	long long c = acctbill_cents(mills);
	long long a = c < 0 ? -c : c;
	snprintf(buf, n, "%s$%lld.%02lld", c < 0 ? "-" : "", a / 100, a % 100);
	return buf;
}
