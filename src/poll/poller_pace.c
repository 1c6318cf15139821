/* poller_pace.c: the endpoint buckets of poller_pace.h: grouping of the
 * endpoints the service limits together, and the rule that an action waiting
 * for a bucket goes before any fetch on it. */
#include "poll/poller_pace.h"

void poller_pace_init(struct poller_pace *pp, double now)
{
	for (int i = 0; i < EP__COUNT; i++) {
		/* offer searches: only the offers view sends them, and its own
		 * pacer (offers_pace_*) is the one client-side gate, the one
		 * that tells the operator when the next may go.  A second
		 * bucket here (with its tokens taken later than the view's)
		 * could hold a search the view has allowed, so this one is
		 * unpaced (rate 0); a 429 still blocks it (pace_refused). */
		double rate = i == EP_OFFERS ? 0 : api_ep_rate((enum api_ep)i);
		pace_init(&pp->b[i], rate, 1, now);
		pp->actions_wanting[i] = 0;
	}
}

enum api_ep poller_pace_group(enum api_ep ep) { return api_ep_group(ep); }

double poller_pace_wait(const struct poller_pace *pp, enum api_ep ep, enum retry_kind k,
			double now)
{
	enum api_ep g = poller_pace_group(ep);
	double w = pace_wait(&pp->b[g], now);
	if (k == RK_FETCH && pp->actions_wanting[g] > 0) {
		/* behind the waiting actions: at least one refill interval more */
		double r = pp->b[g].rate > 0 ? 1.0 / pp->b[g].rate : 0.05;
		if (w < r)
			w = r;
	}
	return w;
}

bool poller_pace_take(struct poller_pace *pp, enum api_ep ep, enum retry_kind k, double now,
		      bool *wanting)
{
	enum api_ep g = poller_pace_group(ep);
	if (k == RK_FETCH && pp->actions_wanting[g] > 0)
		return false;
	if (!pace_take(&pp->b[g], now)) {
		if (k == RK_ACTION && wanting && !*wanting) {
			*wanting = true;
			pp->actions_wanting[g]++;
		}
		return false;
	}
	poller_pace_forget(pp, ep, wanting);
	return true;
}

void poller_pace_forget(struct poller_pace *pp, enum api_ep ep, bool *wanting)
{
	enum api_ep g = poller_pace_group(ep);
	if (wanting && *wanting) {
		*wanting = false;
		if (pp->actions_wanting[g] > 0)
			pp->actions_wanting[g]--;
	}
}

double poller_pace_refused(struct poller_pace *pp, enum api_ep ep, double now, double jitter)
{
	struct pace *b = &pp->b[poller_pace_group(ep)];
	if (poller_pace_group(ep) == EP_OFFERS) {
		/* unpaced, but a 429 blocks it as long as a bucket at the
		 * published rate would be blocked; it stays unpaced after */
		struct pace paced = *b;
		paced.rate = api_ep_rate(EP_OFFERS);
		pace_refused(&paced, now, jitter);
		paced.rate = b->rate;
		*b = paced;
		return b->blocked_until;
	}
	return pace_refused(b, now, jitter);
}

void poller_pace_answered(struct poller_pace *pp, enum api_ep ep)
{
	pace_answered(&pp->b[poller_pace_group(ep)]);
}
