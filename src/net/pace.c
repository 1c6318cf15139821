/* pace.c: the token bucket of pace.h.  Owns nothing but the arithmetic:
 * refill since the last computation, the wait until one token, and the
 * block after a 429 that keeps the next request past the service's window. */
#include "net/pace.h"

#include <math.h>

void pace_init(struct pace *p, double rate, double burst, double now)
{
	p->rate = rate;
	p->burst = burst < 1.0 ? 1.0 : burst;
	p->tokens = p->burst;
	p->last = now;
	p->blocked_until = 0;
	p->refusals = 0;
}

/* Tokens held at `now` (refilled, capped at the burst). */
static double level(const struct pace *p, double now)
{
	double dt = now > p->last ? now - p->last : 0;
	double t = p->tokens + dt * p->rate;
	return t > p->burst ? p->burst : t;
}

double pace_wait(const struct pace *p, double now)
{
	double block = p->blocked_until > now ? p->blocked_until - now : 0;
	if (p->rate <= 0)
		return block;
	double t = level(p, now);
	double refill = t >= 1.0 ? 0 : (1.0 - t) / p->rate;
	return block > refill ? block : refill;
}

bool pace_take(struct pace *p, double now)
{
	if (pace_wait(p, now) > 0)
		return false;
	if (p->rate > 0) {
		p->tokens = level(p, now) - 1.0;
		p->last = now;
	}
	return true;
}

double pace_refused(struct pace *p, double now, double jitter)
{
	if (jitter < 0 || jitter >= 1)
		jitter = 0;
	p->refusals++;
	double base = PACE_WINDOW_S;
	if (p->rate > 0 && 1.0 / p->rate > base)
		base = 1.0 / p->rate;
	int e = p->refusals - 1 < 6 ? p->refusals - 1 : 6;
	double d = base * ldexp(1.0, e) * (1.0 + 0.25 * jitter);
	if (d > PACE_BLOCK_CAP_S)
		d = PACE_BLOCK_CAP_S;
	p->tokens = 0;
	p->last = now;
	p->blocked_until = now + d;
	return p->blocked_until;
}

void pace_answered(struct pace *p)
{
	p->refusals = 0;
}

int pace_available(const struct pace *p, double now)
{
	if (p->blocked_until > now)
		return 0;
	if (p->rate <= 0)
		return 1 << 20;
	return (int)floor(level(p, now));
}
