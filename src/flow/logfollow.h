/* logfollow.h: the fetch plan of one open log pane, as a state machine with
 * no I/O: which request to send next and when, and what an answer means.
 *
 * - An endpoint log: get_endpoint_logs every 3 s, the CLI's and the docs'
 *   form first (by id, the key in the body); a 404/405 or a redirect
 *   switches to the spec's form (by name) for the default stream (a level
 *   stream chosen with logfollow_set_stream exists in the first form only);
 *   when that is absent too, back to the first and its error; each answer
 *   is merged into the pane's logtail.  A failure keeps what is held and backs off (429, 5xx,
 *   transport: doubling from the interval, capped), the state says why.
 * - An instance container log: PUT request_logs, then GET the result_url
 *   (no key) as the official CLI does: every 0.3 s while it answers
 *   anything but 200, up to 30 tries; then the text is merged.  In follow mode the whole round repeats every 10 s;
 *   logfollow_refresh() ("r") starts one at once.
 *
 * Thread rules: a struct logfollow belongs to one thread (the poller's
 * subscription of the pane); it keeps no pointer to the caller's data.
 * Times are monotonic seconds given by the caller. */
#ifndef RENTOP_LOGFOLLOW_H
#define RENTOP_LOGFOLLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "api/api_serverless.h"

struct logtail;

#define LOGFOLLOW_ENDPOINT_S 3.0   /* endpoint log poll, s */
#define LOGFOLLOW_INSTANCE_S 10.0  /* instance log refresh in follow mode, s */
#define LOGFOLLOW_BACKGROUND_S 15.0 /* endpoint log not shown: polled at least this far apart, s */
#define LOGFOLLOW_RATE_SHARE 0.6   /* of the endpoint-log call's published rate, the most
				    * the open logs' polls together may use */

/* ---- the poll schedule of every open endpoint log (pure, any thread) ----
 *
 * Every open endpoint log is polled, so that lines written while another
 * log or view is shown are read before the service's window moves past
 * them: the log shown every LOGFOLLOW_ENDPOINT_S, the others (all of them
 * when the log view is hidden) every logfollow_interval(false, n).  That
 * interval grows with the number of open logs so that the polls together
 * stay within LOGFOLLOW_RATE_SHARE of api_ep_rate(EP_LOGS) (both forms
 * share that pacing group), whatever n is. */

/* The poll interval, s, of a log shown (the log view up and that log
 * chosen) or not, with nopen endpoint logs open (counting this one). */
double logfollow_interval(bool shown, int nopen);
/* Requests per second the polls of nopen open endpoint logs add up to, one
 * of them shown or none. */
double logfollow_rate(int nopen, bool one_shown);

struct logfollow;

/* tail: lines asked for each time (0: 1000).  name/id: the endpoint's. */
struct logfollow *logfollow_new_endpoint(const char *name, long id, int tail, double now);
struct logfollow *logfollow_new_instance(long instance_id, int tail, double now);
void logfollow_free(struct logfollow *f);

/* The stream shown (endpoint logs; a level stream is asked for in the
 * CLI's form).  A different stream is another log:
 * true when it changed, then the caller clears its logtail; a fetch is due
 * at once. */
bool logfollow_set_stream(struct logfollow *f, enum log_stream s, double now);
enum log_stream logfollow_stream(const struct logfollow *f);
/* Follow mode (instance logs refresh periodically only when on; endpoint
 * logs keep polling while the pane is open either way). */
void logfollow_set_follow(struct logfollow *f, bool on);
/* "r": due now (an instance log starts a new request_logs round). */
void logfollow_refresh(struct logfollow *f, double now);

/* Seconds until the next request is due (0: now; never negative). */
double logfollow_wait(const struct logfollow *f, double now);
/* The request to send now (a new call, the caller's: run it, then pass
 * the transfer to logfollow_done).  A call with url NULL: nothing to send
 * (not due, or a result_url refused by http_url_allowed: see the state). */
struct api_call logfollow_next(struct logfollow *f, const struct config *c, double now);

enum logfollow_ev {
	LFE_MERGED,     /* new text merged (added lines in *added) */
	LFE_PENDING,    /* the instance log is not ready yet */
	LFE_SWITCHED,   /* the CLI's form is absent: the spec's form from now on */
	LFE_FAILED,     /* an error: *e filled, backing off */
};
/* Consume the finished transfer of the last logfollow_next() call; merges
 * into t (may be NULL to only follow the state).  *added gets the lines
 * added. */
enum logfollow_ev logfollow_done(struct logfollow *f, const struct http_xfer *x,
				 struct logtail *t, double now, size_t *added,
				 struct api_error *e);

/* One line for the pane's status: "following (every 3s)", "spec form",
 * "stream debug", "waiting for the log (4/30)", "error: HTTP 429 ...,
 * retry in 12s".  Into buf; returns buf. */
char *logfollow_state(const struct logfollow *f, double now, char *buf, size_t n);

#endif
