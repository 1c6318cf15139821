/* pace.h: per-endpoint request pacing as a token bucket, shared by the
 * poller's fetches, the queued actions and the on-demand searches.
 *
 * A bucket holds up to `burst` tokens and refills at `rate` tokens per
 * second (the endpoint's published threshold, API-NOTES.md).  A request
 * takes one token; when none is left the caller waits pace_wait() seconds.
 * A 429 means the service's window was overrun: pace_refused() empties the
 * bucket and blocks it past the window with exponential, jittered backoff
 * (429 never carries Retry-After); the first success resets the backoff.
 *
 * Pure arithmetic over caller-given times (seconds, monotonic) and caller-
 * given jitter, so it is deterministic in tests.  A bucket belongs to one
 * thread; no locking. */
#ifndef RENTOP_PACE_H
#define RENTOP_PACE_H

#include <stdbool.h>

#define PACE_WINDOW_S 1.0   /* the service's rate window, s (observed) */
#define PACE_BLOCK_CAP_S 60.0

struct pace {
	double rate;          /* tokens per second; <= 0: unpaced */
	double burst;         /* most tokens held (>= 1) */
	double tokens;        /* held at `last` */
	double last;          /* s, monotonic: when `tokens` was computed */
	double blocked_until; /* s, monotonic: after a 429, no request before this */
	int refusals;         /* consecutive 429s */
};

/* A full bucket at `now`.  burst < 1 is taken as 1. */
void pace_init(struct pace *p, double rate, double burst, double now);
/* Seconds from `now` until a request may be sent (0: now). */
double pace_wait(const struct pace *p, double now);
/* Take a token for a request sent at `now`; false (nothing taken) when
 * pace_wait() would be > 0. */
bool pace_take(struct pace *p, double now);
/* The request was refused with 429 at `now`; jitter in [0,1).  Returns the
 * time (s, monotonic) before which nothing is sent: past the window, doubling
 * per consecutive refusal, capped at PACE_BLOCK_CAP_S. */
double pace_refused(struct pace *p, double now, double jitter);
/* The request was answered (not 429): the backoff resets. */
void pace_answered(struct pace *p);
/* Whole tokens available at `now` (for "3 actions queued" displays). */
int pace_available(const struct pace *p, double now);

#endif
