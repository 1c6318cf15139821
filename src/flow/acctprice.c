/* acctprice.c: see acctprice.h. */
#include "flow/acctprice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "json/json_list.h"

static double num(const json_t *o, const char *k)
{
	const json_t *x = json_object_get(o, k);
	return json_is_number(x) ? json_number_value(x) : NAN;
}

static bool one(const json_t *o, void *rec)
{
	struct price_inc *p = rec;
	if (!json_is_object(o))
		return false;
	double id = num(o, "pending_price_increase_id"), c = num(o, "contract_id");
	if (!isfinite(id) || !isfinite(c) || c <= 0)
		return false;
	p->id = (long)id;
	p->contract = (long)c;
	p->new_gpu_dph = num(o, "new_gpu_costpersec") * 3600.0;
	p->old_gpu_dph = num(o, "old_gpu_costpersec") * 3600.0;
	p->from = num(o, "contract_end_date");
	p->extends_to = num(o, "ask_end_date");
	return true;
}

static void free_plain(void *v, size_t n)
{
	(void)n;
	free(v);
}

static const char *const keys[] = { "pending_price_increases", "results", NULL };
static const struct json_list_kind kind = {
	.what = "price increases", .keys = keys, .size = sizeof(struct price_inc), .one = one,
	.free_recs = free_plain,
};

void *acctprice_map(const json_t *root, struct api_error *e)
{
	return json_list_map(&kind, root, e);
}

static const char *date(double t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!isfinite(t) || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "?");
	return buf;
}

char *acctprice_text(const struct price_inc *p, char *buf, size_t n)
{
	char d1[32], d2[32], was[48] = "";
	if (isfinite(p->old_gpu_dph))
		snprintf(was, sizeof was, " (now $%.3f/h)", p->old_gpu_dph);
	snprintf(buf, n, "GPU $%.3f/h%s from %s UTC; accepting extends to %s", p->new_gpu_dph, was,
		 date(p->from, d1, sizeof d1), date(p->extends_to, d2, sizeof d2));
	return buf;
}

const struct price_inc *acctprice_of(const struct price_inc *v, size_t n, long id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].contract == id)
			return &v[i];
	return NULL;
}
