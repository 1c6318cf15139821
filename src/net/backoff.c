/* backoff.c: per-endpoint scheduling arithmetic (see backoff.h).  Pure: no
 * clock is read here, the caller passes `now`, so the unit tests drive it
 * with made-up times. */
#include "net/backoff.h"

#include <math.h>

static double jitter01(struct backoff *b)
{
	/* xorshift64: enough to spread clients apart, not for secrets */
	uint64_t x = b->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	b->rng = x;
	return (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
}

void backoff_init(struct backoff *b, double interval_s, double cap_s, double rate, uint64_t seed,
		  double now)
{
	b->interval_s = interval_s > 0 ? interval_s : 1;
	b->cap_s = cap_s >= b->interval_s ? cap_s : b->interval_s;
	b->min_gap_s = rate > 0 ? 1.0 / rate : 0;
	b->failures = 0;
	b->next_due = now;
	b->last_sent = -1;
	b->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
}

void backoff_sent(struct backoff *b, double now)
{
	b->last_sent = now;
}

double backoff_success(struct backoff *b, double now)
{
	b->failures = 0;
	b->next_due = now + b->interval_s;
	return b->next_due;
}

double backoff_delay(const struct backoff *b, int failures)
{
	if (failures <= 0)
		return b->interval_s;
	/* 2^(failures-1), without overflow for long outages */
	double d = b->interval_s * ldexp(1.0, failures > 30 ? 30 : failures - 1);
	return d < b->cap_s ? d : b->cap_s;
}

double backoff_failure(struct backoff *b, double now)
{
	b->failures++;
	double d = backoff_delay(b, b->failures);
	double j = d * (0.5 + 0.5 * jitter01(b));
	if (j < b->interval_s)
		j = b->interval_s;
	if (j < b->min_gap_s)
		j = b->min_gap_s;
	b->next_due = now + j;
	return b->next_due;
}

double backoff_pace(const struct backoff *b, double now)
{
	if (b->last_sent < 0 || b->min_gap_s <= 0)
		return now;
	double t = b->last_sent + b->min_gap_s;
	return t > now ? t : now;
}

void backoff_due_now(struct backoff *b, double now)
{
	b->next_due = backoff_pace(b, now);
}

double backoff_retry_delay(int attempt)
{
	return 0.15 * pow(1.5, attempt < 0 ? 0 : attempt);
}
