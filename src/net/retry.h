/* retry.h: the one retry rule of the client, for fetches and actions alike
 * (the poller, api_run for --dump, the on-demand calls).
 *
 * A failed request is first put in a failure class (retry_classify), from
 * the decoded error, curl's result and whether any byte of the request was
 * handed to the connection.  Then one table, kind x class -> decision
 * (retry_decide), says what to do:
 *
 *   class            what it means                         fetch    action
 *   RF_NOT_SENT      certainly never reached the service   retry    retry
 *                    (DNS, refused connect, TLS handshake,
 *                    URL refused, no request byte sent)
 *   RF_TIMEOUT       sent, no answer in time               fail     unknown
 *   RF_LOST          sent, answer lost (reset, truncated,  retry    unknown
 *                    nothing received, send/recv error)
 *   RF_RATE_LIMIT    429 (or 2xx rate_limit_exceeded)      retry    retry
 *   RF_SESSION       404 "Session expired", or 401         retry    retry
 *                    "Invalid user key" when a 2FA session
 *                    key was sent: refused, nothing done
 *                    (the caller drops that session key and
 *                    resends once with the normal key)
 *   RF_REFUSED       4xx but 408/429, a 2xx with           fail     fail
 *                    success:false, 501, 505: nothing done
 *   RF_REQ_TIMEOUT   408: the service did not get the      retry    fail
 *                    whole request
 *   RF_GATEWAY       502, 504: a proxy lost the answer     retry    unknown
 *   RF_SERVER        500, 503 and other 5xx: the service   retry    unknown
 *                    failed while handling it
 *   RF_BAD_ANSWER    2xx whose body is unreadable or too   fail     unknown
 *                    large (the service acted)
 *
 * "unknown" means: never send it again; tell the user the outcome is not
 * known and re-read what the action touched.  An action is at most once:
 * it is sent again only when the service certainly did not act on it.
 * Pure; any thread. */
#ifndef RENTOP_RETRY_H
#define RENTOP_RETRY_H

#include <curl/curl.h>
#include <stdbool.h>

#include "net/apierr.h"

enum retry_kind {
	RK_FETCH,  /* reads (GET, and POST searches that change nothing) */
	RK_ACTION, /* anything that may change something: at most once */
	RK__COUNT
};

enum retry_fail {
	RF_NOT_SENT,
	RF_TIMEOUT,
	RF_LOST,
	RF_RATE_LIMIT,
	RF_SESSION,
	RF_REFUSED,
	RF_REQ_TIMEOUT,
	RF_GATEWAY,
	RF_SERVER,
	RF_BAD_ANSWER,
	RF__COUNT
};

enum retry_decision {
	RD_FAIL,    /* report the error; the service did nothing (or a fetch gives up) */
	RD_RETRY,   /* send it again (after the caller's delay or pacing) */
	RD_UNKNOWN, /* do not resend; the outcome is unknown: say so and re-read */
};

/* The class of a failure: e as decoded (api_parse / http_xfer_failed), rc
 * curl's result (CURLE_OK when an HTTP answer came), sent whether any byte
 * of the request was handed to the connection (http_xfer_sent). */
enum retry_fail retry_classify(const struct api_error *e, CURLcode rc, bool sent);
/* retry_classify for a request sent with a 2FA session key (session_sent):
 * a 401 "Invalid user key" is then RF_SESSION, as the official CLI reads
 * it (a refused key: the service did nothing).  Sent with the normal key
 * it stays RF_REFUSED. */
enum retry_fail retry_classify_sent(const struct api_error *e, CURLcode rc, bool sent,
				    bool session_sent);
/* The table above. */
enum retry_decision retry_decide(enum retry_kind k, enum retry_fail f);
/* Both at once. */
enum retry_decision retry_decision_for(enum retry_kind k, const struct api_error *e,
				       CURLcode rc, bool sent);
const char *retry_fail_name(enum retry_fail f);     /* "not sent", "answer lost", ... */
const char *retry_decision_name(enum retry_decision d);

#endif
