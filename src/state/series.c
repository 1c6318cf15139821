/* series.c: see series.h. */
#include "state/series.h"

#include <math.h>

/* The bucket number of a time; 0 is kept for "none yet", so it starts at 1. */
static uint32_t bucket_of(double now)
{
	return (uint32_t)(now / SERIES_BUCKET_S) + 1u;
}

/* Where a sample at bucket b goes; clears the buckets skipped since the last
 * one.  Returns the slot, or -1 when the time is unusable. */
static int advance(uint32_t *last, double now, void (*clear)(void *, size_t), void *v)
{
	if (!(now >= 0) || now > 4.0e9 * SERIES_BUCKET_S)
		return -1;
	uint32_t b = bucket_of(now);
	if (*last == 0) {
		for (size_t i = 0; i < SERIES_BUCKETS; i++)
			clear(v, i);
	} else if (b > *last) {
		uint32_t gap = b - *last;
		if (gap > SERIES_BUCKETS)
			gap = SERIES_BUCKETS;
		for (uint32_t i = 1; i <= gap; i++)
			clear(v, (*last + i) % SERIES_BUCKETS);
	} else {
		b = *last; /* same bucket, or the clock stepped back */
	}
	*last = b;
	return (int)(b % SERIES_BUCKETS);
}

static void clear8(void *v, size_t i) { ((uint8_t *)v)[i] = SERIES8_GAP; }
static void clearf(void *v, size_t i) { ((float *)v)[i] = NAN; }

void series8_init(struct series8 *s)
{
	s->last = 0;
	for (size_t i = 0; i < SERIES_BUCKETS; i++)
		clear8(s->v, i);
}

void seriesf_init(struct seriesf *s)
{
	s->last = 0;
	for (size_t i = 0; i < SERIES_BUCKETS; i++)
		clearf(s->v, i);
}

void series8_put(struct series8 *s, double now, double value)
{
	if (isnan(value))
		return;
	int slot = advance(&s->last, now, clear8, s->v);
	if (slot < 0)
		return;
	double r = value < 0 ? 0 : value > 254 ? 254 : round(value);
	uint8_t u = (uint8_t)r;
	if (s->v[slot] == SERIES8_GAP || u > s->v[slot])
		s->v[slot] = u;
}

void seriesf_put(struct seriesf *s, double now, double value)
{
	if (isnan(value))
		return;
	int slot = advance(&s->last, now, clearf, s->v);
	if (slot < 0)
		return;
	float f = (float)value;
	if (isnan(s->v[slot]) || f > s->v[slot])
		s->v[slot] = f;
}

/* Bucket i (0 = oldest of the hour ending at now) as a double, NAN for a gap
 * or a bucket older than the newest sample's reach. */
typedef double (*bucket_fn)(const void *s, uint32_t b);

static double get8(const void *p, uint32_t b)
{
	const struct series8 *s = p;
	if (s->last == 0 || b > s->last || s->last - b >= SERIES_BUCKETS)
		return NAN;
	uint8_t u = s->v[b % SERIES_BUCKETS];
	return u == SERIES8_GAP ? NAN : (double)u;
}

static double getf(const void *p, uint32_t b)
{
	const struct seriesf *s = p;
	if (s->last == 0 || b > s->last || s->last - b >= SERIES_BUCKETS)
		return NAN;
	return (double)s->v[b % SERIES_BUCKETS];
}

static size_t values(const void *s, bucket_fn get, double now, double *out, size_t ncols)
{
	if (ncols == 0)
		return 0;
	uint32_t end = now >= 0 ? bucket_of(now) : 1; /* the bucket holding now */
	/* buckets end-119 .. end, oldest first */
	for (size_t c = 0; c < ncols; c++) {
		size_t from = c * SERIES_BUCKETS / ncols;
		size_t to = (c + 1) * SERIES_BUCKETS / ncols; /* exclusive */
		if (to <= from)
			to = from + 1;
		double best = NAN;
		for (size_t i = from; i < to; i++) {
			uint32_t back = (uint32_t)(SERIES_BUCKETS - 1 - i);
			if (back >= end)
				continue;
			double x = get(s, end - back);
			if (!isnan(x) && (isnan(best) || x > best))
				best = x;
		}
		out[c] = best;
	}
	return ncols;
}

size_t series8_values(const struct series8 *s, double now, double *out, size_t ncols)
{
	return values(s, get8, now, out, ncols);
}

size_t seriesf_values(const struct seriesf *s, double now, double *out, size_t ncols)
{
	return values(s, getf, now, out, ncols);
}

static int last(const void *s, bucket_fn get, double now, double *value)
{
	if (!(now >= 0))
		return 0;
	uint32_t b = bucket_of(now);
	for (uint32_t k = 0; k < 2 && k < b; k++) {
		double x = get(s, b - k);
		if (!isnan(x)) {
			*value = x;
			return 1;
		}
	}
	return 0;
}

int series8_last(const struct series8 *s, double now, double *value)
{
	return last(s, get8, now, value);
}

int seriesf_last(const struct seriesf *s, double now, double *value)
{
	return last(s, getf, now, value);
}
