/* watch.c: the idle/hot/disk rows of the instance list (watch.h). */
#include "rules/watch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "state/money.h"

static void money_init(struct watch_money *m)
{
	seriesf_init(&m->burn_h);
	seriesf_init(&m->credit_h);
	seriesf_init(&m->burn_d);
	seriesf_init(&m->credit_d);
	m->since = 0;
}

void watch_init(struct watch *w)
{
	memset(w, 0, sizeof *w);
	money_init(&w->money);
}

void watch_money_put(struct watch_money *m, double now, double burn, double credit)
{
	if (!(m->since > 0))
		m->since = now;
	seriesf_put(&m->burn_h, now, burn);
	seriesf_put(&m->credit_h, now, credit);
	seriesf_put(&m->burn_d, now / WATCH_DAY_SCALE, burn);
	seriesf_put(&m->credit_d, now / WATCH_DAY_SCALE, credit);
}

size_t watch_money_values(const struct watch_money *m, double now, bool credit, double *out,
			  size_t ncols, double *span)
{
	double hour = (double)SERIES_BUCKETS * SERIES_BUCKET_S;
	bool day = m->since > 0 && now - m->since > hour;
	if (span)
		*span = day ? hour * WATCH_DAY_SCALE : hour;
	if (day)
		return seriesf_values(credit ? &m->credit_d : &m->burn_d, now / WATCH_DAY_SCALE, out,
				      ncols);
	return seriesf_values(credit ? &m->credit_h : &m->burn_h, now, out, ncols);
}

void watch_free(struct watch *w)
{
	free(w->rows);
	watch_init(w);
}

static void row_init(struct watch_row *r, long id)
{
	memset(r, 0, sizeof *r);
	r->id = id;
	idle_track_init(&r->t);
	series8_init(&r->util);
	series8_init(&r->temp);
	series8_init(&r->mem);
}

double watch_mem_pct(const struct instance *x)
{
	if (isfinite(x->mem_usage) && x->mem_usage >= 0 && isfinite(x->mem_limit) &&
	    x->mem_limit > 0)
		return 100.0 * x->mem_usage / x->mem_limit;
	return NAN;
}

/* Make the rows the ids of v, in order, keeping the rows of ids already
 * there; nothing moves when the ids are the same. */
static void align(struct watch *w, const struct instance *const *v, size_t n)
{
	bool same = w->n == n;
	for (size_t i = 0; same && i < n; i++)
		same = w->rows[i].id == v[i]->id;
	if (same)
		return;
	struct watch_row *rows = n ? xcalloc(n, sizeof *rows) : NULL;
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		while (j < w->n && w->rows[j].id < v[i]->id)
			j++;
		if (j < w->n && w->rows[j].id == v[i]->id)
			rows[i] = w->rows[j++];
		else
			row_init(&rows[i], v[i]->id);
	}
	free(w->rows);
	w->rows = rows;
	w->n = n;
}

size_t watch_sample(struct watch *w, const struct instance *const *v, size_t n,
		    const struct idle_conf *c, double now, struct watch_rise *out, size_t max)
{
	align(w, v, n);
	size_t rose = 0;
	bool changed = false;
	for (size_t i = 0; i < n; i++) {
		struct watch_row *r = &w->rows[i];
		unsigned was = r->t.flags;
		unsigned f = idle_step(&r->t, v[i], c, now);
		if (v[i]->state == IS_RUNNING) { /* NAN (not sent) is not filed: a gap */
			series8_put(&r->util, now, v[i]->gpu_util);
			series8_put(&r->temp, now, v[i]->gpu_temp);
			series8_put(&r->mem, now, watch_mem_pct(v[i]));
		}
		changed |= f != was;
		for (unsigned b = IDLE_F_IDLE; b <= IDLE_F_DISK; b <<= 1)
			if ((f & b) && !(was & b)) {
				if (rose < max)
					out[rose] = (struct watch_rise){ r->id, b };
				rose++;
			}
	}
	if (changed)
		w->gen++;
	return rose;
}

const struct watch_row *watch_find(const struct watch *w, long id)
{
	size_t lo = 0, hi = w->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->rows[mid].id < id)
			lo = mid + 1;
		else if (w->rows[mid].id > id)
			hi = mid;
		else
			return &w->rows[mid];
	}
	return NULL;
}

unsigned watch_flags(const struct watch *w, long id)
{
	const struct watch_row *r = watch_find(w, id);
	return r ? r->t.flags : 0;
}

double watch_idle_rate(const struct watch *w, const struct instance *const *v, size_t n,
		       size_t *count)
{
	double sum = 0;
	size_t k = 0, j = 0;
	for (size_t i = 0; i < n; i++) {
		while (j < w->n && w->rows[j].id < v[i]->id)
			j++;
		if (j < w->n && w->rows[j].id == v[i]->id && (w->rows[j].t.flags & IDLE_F_IDLE)) {
			double r = money_row_rate(v[i]);
			if (isfinite(r))
				sum += r;
			k++;
		}
	}
	if (count)
		*count = k;
	return sum;
}

bool watch_idle_spend(struct watch *w, double rate, double limit)
{
	if (!(limit > 0) || !isfinite(rate)) {
		w->idle_over = false;
		return false;
	}
	if (w->idle_over) {
		if (rate < 0.9 * limit)
			w->idle_over = false;
		return false;
	}
	if (rate > limit) {
		w->idle_over = true;
		return true;
	}
	return false;
}
