/* poller.h: the network thread.  Owns a curl multi handle and every easy
 * handle; refreshes instances (every refresh_s), the user and workergroups
 * (every slow_refresh_s) into the model and runs queued jobs.  Sleeps in
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

/* Any thread: refresh every source now (resets backoff's wait, not its count). */
void poller_refresh_now(struct poller *p);

#endif
