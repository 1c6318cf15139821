/* poller_pace.h: the poller thread's per-endpoint request pacing, shared by
 * every request it sends: the periodic fetches (sweep pages, attention
 * queries), the queued actions, the re-reads after an unknown outcome and
 * the on-demand calls.  One token bucket (pace.h) per endpoint group at the
 * published threshold (api_ep_rate); endpoints that the service limits
 * together share one bucket (start/stop/label and reboot; the v1 and v0
 * lists; workergroups and its autojobs alias; both log forms).
 *
 * Actions never wait behind fetches: a fetch may not take an endpoint's
 * token while an action is waiting for that endpoint's bucket
 * (poller_pace_want), and the poller launches due actions before due
 * fetches in every round.  A 429 blocks the bucket past the service's
 * window with doubling, jittered backoff (pace_refused).
 *
 * Poller thread only; no locking.  The fetch side (fleet scheduling) uses
 * the same functions with RK_FETCH. */
#ifndef RENTOP_POLLER_PACE_H
#define RENTOP_POLLER_PACE_H

#include <stdbool.h>

#include "api/api.h"
#include "net/pace.h"
#include "net/retry.h"

struct poller_pace {
	struct pace b[EP__COUNT];      /* indexed by group leader (poller_pace_group) */
	int actions_wanting[EP__COUNT];/* actions waiting for the group's next token */
};

/* Every bucket full at `now`, rate api_ep_rate(), burst 1 (the service's
 * own bucket holds a little more: we never lean on it).  EP_OFFERS is
 * unpaced here (the offers view's pacer is its gate) but a 429 blocks it. */
void poller_pace_init(struct poller_pace *pp, double now);
/* The endpoint whose bucket ep uses. */
enum api_ep poller_pace_group(enum api_ep ep);
/* Seconds until a request of kind k on ep may go (0: now). */
double poller_pace_wait(const struct poller_pace *pp, enum api_ep ep, enum retry_kind k,
			double now);
/* Take the token for a request of kind k on ep sent now; false when it
 * must wait.  An action that must wait is counted as wanting the token
 * until it gets one (*wanting, the request's own flag, false at first),
 * and no fetch on that bucket gets a token meanwhile. */
bool poller_pace_take(struct poller_pace *pp, enum api_ep ep, enum retry_kind k, double now,
		      bool *wanting);
/* A request that may be counted as wanting is dropped (quit, cancelled). */
void poller_pace_forget(struct poller_pace *pp, enum api_ep ep, bool *wanting);
/* 429 on ep at `now`: the time (s, monotonic) before which nothing is sent. */
double poller_pace_refused(struct poller_pace *pp, enum api_ep ep, double now, double jitter);
/* ep answered (not 429): its backoff resets. */
void poller_pace_answered(struct poller_pace *pp, enum api_ep ep);

#endif
