/* backoff.h: when may an endpoint be asked next.  Pure arithmetic over
 * caller-given times (seconds, monotonic); one struct backoff per polled
 * endpoint, owned by one thread.
 *
 * - success: next due after the normal interval, failures reset;
 * - failure (429, 5xx, transport): exponential backoff from the interval,
 *   doubling per consecutive failure, capped (default 5 min), with jitter
 *   in [delay/2, delay] but never below the interval;
 * - pacing: consecutive requests of a multi-page fetch are at least
 *   1/rate seconds apart (the published threshold, about N per second). */
#ifndef RENTOP_BACKOFF_H
#define RENTOP_BACKOFF_H

#include <stdint.h>

#define BACKOFF_CAP_S 300.0

struct backoff {
	double interval_s;  /* normal period, s */
	double cap_s;       /* longest wait after failures, s */
	double min_gap_s;   /* pacing: least time between two requests, s (0 = none) */
	int failures;       /* consecutive */
	double next_due;    /* s, monotonic: when the next fetch should start */
	double last_sent;   /* s, monotonic: the last request's start, -1 = never */
	uint64_t rng;       /* jitter state (xorshift64), never 0 */
};

/* rate: requests per second allowed (0 = unpaced).  Due at `now`. */
void backoff_init(struct backoff *b, double interval_s, double cap_s, double rate,
		  uint64_t seed, double now);
/* A request is being sent now (for pacing). */
void backoff_sent(struct backoff *b, double now);
/* The fetch succeeded: returns the new next_due (now + interval). */
double backoff_success(struct backoff *b, double now);
/* The fetch failed in a retryable way: returns the new next_due. */
double backoff_failure(struct backoff *b, double now);
/* The un-jittered delay after `failures` consecutive failures (s). */
double backoff_delay(const struct backoff *b, int failures);
/* Earliest time the next request may go out, given pacing (>= now). */
double backoff_pace(const struct backoff *b, double now);
/* "Refresh now": due at once (respecting pacing); the failure count stays. */
void backoff_due_now(struct backoff *b, double now);
/* The official CLI's retry schedule for one-shot calls: 0.15 s, then x1.5
 * per attempt (attempt 0, 1, 2, ...). */
double backoff_retry_delay(int attempt);

#endif
