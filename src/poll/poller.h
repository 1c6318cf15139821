/* poller.h: the network thread.  Owns a curl multi handle and every easy
 * handle; refreshes instances (every refresh_s), the user and workergroups
 * (every slow_refresh_s) into the model and runs queued jobs, on-demand
 * calls and subscriptions (jobs.h).  Every request goes through the one
 * retry rule (retry.h: an action at most once) and the per-endpoint pacer
 * (poller_pace.h: actions before fetches, 429 waits past the window).  An
 * action whose answer is lost is reported unknown, its row marked
 * (snapshot.unsure) and its instance re-read at once.  Sleeps in
 * curl_multi_poll() until something is due or it is woken. */
#ifndef RENTOP_POLLER_H
#define RENTOP_POLLER_H

#include <stdbool.h>

struct config;
struct model;
struct jobs;
struct auth;
struct poller;

/* Main thread. */
struct poller *poller_new(const struct config *cfg, struct auth *auth, struct model *m,
			  struct jobs *j);
int poller_start(struct poller *p);   /* spawns the thread; 0 ok */
void poller_stop(struct poller *p);   /* wakes, joins; safe to call twice */
void poller_free(struct poller *p);

/* Any thread: refresh every source now (resets backoff's wait, not its
 * count).  Debounced: one refresh in flight per source, a press while one
 * is in flight only asks for one more after it, and presses refresh a
 * source at most once per 3 s. */
void poller_refresh_now(struct poller *p);
/* Any thread: wake the thread to plan again by the clock (the test clock
 * moved: util_clock_advance).  Nothing is refreshed early by itself. */
void poller_wake(struct poller *p);

/* Any thread: the key store the poller authenticates with (auth.h is
 * thread-safe): the 2FA view stores a session key from its login and drops
 * it on logout.  NULL when p is NULL. */
struct auth *poller_auth(struct poller *p);
/* Any thread: the 2FA prompt was cancelled: the jobs and on-demand actions
 * refused for want of a 2FA session are dropped instead of being sent
 * again after a later login, and each asker gets the refusal as its
 * result (a job's when it asked for one: job_req.reply).
 * (Until then an asker gets no result: after a 2FA login the action is
 * sent again and its result is the asker's, as if asked once.) */
void poller_cancel_parked(struct poller *p);

#endif
