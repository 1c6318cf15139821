/* money.c: what a row costs now, the cost of an instance so far, the prepay
 * preview and the low-runway/low-credit levels (money.h). */
#include "state/money.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "state/model.h"
#include "base/util.h"

/* A boot (provisioning and image load) shorter than this is taken as the
 * only time since start the GPU was not billed: the estimate is then exact
 * to within this much GPU time. */
#define BOOT_ALLOWANCE_S 600.0

bool money_storage_only(const struct instance *x) { return !instance_state_billing_compute(x->state); }

double money_row_rate(const struct instance *x)
{
	double storage = x->storage_total_cost;
	if (money_storage_only(x))
		return isfinite(storage) ? storage : NAN;
	if (isfinite(x->dph_total))
		return x->dph_total;
	if (isfinite(x->dph_base))
		return x->dph_base + (isfinite(storage) ? storage : 0);
	return NAN;
}

void money_cost_so_far(const struct instance *x, double now, struct cost_estimate *out)
{
	out->kind = COST_UNKNOWN;
	out->lo = out->hi = out->age_s = out->gpu_known_s = out->storage = NAN;
	if (!isfinite(x->start_date) || x->start_date <= 0 || now <= x->start_date)
		return;
	double storage = x->storage_total_cost, gpu = x->dph_base;
	if (!isfinite(storage) && isfinite(x->dph_total) && isfinite(gpu))
		storage = x->dph_total - gpu;
	if (!isfinite(gpu) && isfinite(x->dph_total) && isfinite(storage))
		gpu = x->dph_total - storage;
	if (!isfinite(storage) || !isfinite(gpu))
		return;
	double age = now - x->start_date;
	double known = 0;
	if (instance_state_billing_compute(x->state) && isfinite(x->uptime_mins) && x->uptime_mins > 0)
		known = x->uptime_mins * 60.0;
	if (known > age)
		known = age;
	out->age_s = age;
	out->gpu_known_s = known;
	out->storage = storage * age / 3600.0;
	out->lo = out->storage + gpu * known / 3600.0;
	out->hi = out->storage + gpu * age / 3600.0;
	/* running since (about) its start: the GPU was billed for this run only */
	out->kind = known > 0 && age - known <= BOOT_ALLOWANCE_S ? COST_EXACT : COST_RANGE;
	if (out->kind == COST_EXACT)
		out->hi = out->lo;
}

bool money_prepay_preview(double amount, double dph_total, double *months, double *discount)
{
	*months = *discount = NAN;
	if (!isfinite(amount) || amount <= 0 || !isfinite(dph_total) || dph_total <= 0)
		return false;
	*months = amount / (dph_total * 720.0);
	*discount = fmin(0.4, 0.4 * *months / 12.0);
	return true;
}

/* Level of a figure against its two limits (lower is worse; 0 = off). */
static enum money_level under(double v, double warn, double alarm)
{
	if (alarm > 0 && v < alarm)
		return ML_ALARM;
	if (warn > 0 && v < warn)
		return ML_WARN;
	return ML_OK;
}

/* One instance drawing on its own prepaid credit first: its account rate
 * ($/h, once that credit is spent) and when that happens (h from now). */
struct draw {
	double rate, from_h;
};

static int by_from(const void *a, const void *b)
{
	double x = ((const struct draw *)a)->from_h, y = ((const struct draw *)b)->from_h;
	return x < y ? -1 : x > y;
}

/* What row x draws ($/h, d->rate) and from when (d->from_h: 0 at once, or
 * when its own prepaid credit, paying rate x (1 - discount) an hour, runs
 * out); false when it draws nothing. */
static bool row_draw(const struct instance *x, struct draw *d)
{
	double r = money_row_rate(x);
	if (!isfinite(r) || r <= 0)
		return false;
	double cb = x->credit_balance, disc = x->credit_discount;
	if (!isfinite(disc) || disc < 0 || disc >= 1)
		disc = 0;
	d->rate = r;
	d->from_h = isfinite(cb) && cb > 0 ? cb / (r * (1.0 - disc)) : 0;
	return true;
}

double money_runway_h(const struct instance *const *v, size_t n, double credit)
{
	if (!isfinite(credit))
		return NAN;
	/* the header asks on every draw: the fleet's rows are walked, and
	 * memory taken only for the prepaid ones (usually none) */
	double burn = 0; /* what the account pays now */
	size_t nl = 0;
	struct draw d;
	for (size_t i = 0; i < n; i++)
		if (row_draw(v[i], &d)) {
			if (d.from_h > 0)
				nl++;
			else
				burn += d.rate;
		}
	struct draw *later = nl ? xmalloc(nl * sizeof *later) : NULL;
	for (size_t i = 0, k = 0; k < nl && i < n; i++)
		if (row_draw(v[i], &d) && d.from_h > 0)
			later[k++] = d;
	if (nl > 1) /* qsort takes no NULL, even for nothing */
		qsort(later, nl, sizeof *later, by_from);
	double t = 0, left = credit > 0 ? credit : 0;
	for (size_t k = 0; k <= nl; k++) { /* left by a return or the break (k == nl) */
		double until = k < nl ? later[k].from_h : INFINITY;
		if (burn > 0 && burn * (until - t) >= left) {
			free(later);
			return t + left / burn;
		}
		if (k == nl)
			break;
		left -= burn * (until - t);
		t = until;
		burn += later[k].rate;
	}
	free(later);
	return INFINITY; /* nothing draws on the account */
}

enum money_level money_level(const struct money_limits *lim, double credit, double runway_h,
			     bool at_least, bool *known, char *why, size_t n)
{
	char b1[32], b2[32];
	if (n)
		why[0] = '\0';
	*known = false;
	if (!isfinite(credit))
		return ML_OK;
	enum money_level c = under(credit, lim->credit_warn, lim->credit_alarm);
	enum money_level r = ML_OK;
	bool runway_said = false;
	if (isfinite(runway_h)) {
		r = under(runway_h, lim->runway_warn_h, lim->runway_alarm_h);
		/* a lower-bound burn gives an upper-bound runway: only "under" is sure */
		runway_said = !at_least || r != ML_OK;
	} else if (runway_h == INFINITY) {
		runway_said = !at_least; /* nothing burns: no runway limit applies */
	}
	*known = runway_said || c != ML_OK;
	if (!*known)
		return ML_OK;
	enum money_level lv = r > c ? r : c;
	if (lv == ML_OK || !n)
		return lv;
	if (r >= c) {
		double lim_h = r == ML_ALARM ? lim->runway_alarm_h : lim->runway_warn_h;
		snprintf(why, n, "runway %s%s under %s", at_least ? "at most " : "",
			 fmt_duration(b1, sizeof b1, runway_h * 3600.0),
			 fmt_duration(b2, sizeof b2, lim_h * 3600.0));
	} else {
		double lim_c = c == ML_ALARM ? lim->credit_alarm : lim->credit_warn;
		char b3[32];
		snprintf(why, n, "credit %s under %s", fmt_money(b1, sizeof b1, credit),
			 fmt_money(b3, sizeof b3, lim_c));
	}
	return lv;
}

int money_watch_update(struct money_watch *w, enum money_level level, bool known)
{
	if (!known)
		return 0;
	enum money_level was = w->have ? w->level : ML_OK;
	w->have = true;
	w->level = level;
	return level > was ? 1 : level < was ? -1 : 0;
}

double money_burn_rate(const struct instance *const *v, size_t n)
{
	double total = 0;
	for (size_t i = 0; i < n; i++) { /* the $/H column's figure, row by row */
		double r = money_row_rate(v[i]);
		if (isfinite(r))
			total += r;
	}
	return total;
}

enum figure_kind money_burn_figure(const struct snapshot *s, double *burn)
{
	*burn = money_burn_rate(s->instances, s->ninstances);
	if (!s->progress.partial)
		return FIG_EXACT;
	return *burn > 0 ? FIG_AT_LEAST : FIG_UNKNOWN;
}
