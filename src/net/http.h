/* http.h: one HTTP exchange over libcurl.  TLS verification is always on;
 * plain http:// is refused unless the host is loopback; connect and total
 * timeouts; a cap on the response size; compressed responses accepted;
 * "User-Agent: rentop/<version>"; POST/PUT/DELETE carry a JSON body ({}
 * when empty).  A transfer is owned by one thread: either performed blocking
 * (http_xfer_perform) or its easy handle added to that thread's multi handle,
 * then http_xfer_done() called with the result. */
#ifndef RENTOP_HTTP_H
#define RENTOP_HTTP_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"

#define HTTP_MAX_RESPONSE ((size_t)64 << 20) /* bytes */

struct http_opts {
	double connect_timeout_s;
	double total_timeout_s;
	size_t max_response;   /* bytes, 0 = HTTP_MAX_RESPONSE */
	CURLSH *share;         /* optional: connection cache shared by blocking calls */
};

struct http_xfer;

/* Main thread, once: curl_global_init / cleanup. */
int http_global_init(void);
void http_global_cleanup(void);

/* May this URL be fetched?  https://, or http:// to 127.0.0.0/8, ::1 or
 * localhost.  On refusal fills err with a clear message and returns false. */
bool http_url_allowed(const char *url, char *err, size_t n);

/* A new transfer.  method "GET", "POST", "PUT", "DELETE"; json_body NULL for
 * none (then "{}" on POST/PUT/DELETE); auth_line a whole "Authorization: ..."
 * header line or NULL.  NULL with *e filled when the URL is refused. */
struct http_xfer *http_xfer_new(const struct http_opts *o, const char *method, const char *url,
				const char *json_body, const char *auth_line, struct api_error *e);
void http_xfer_free(struct http_xfer *x);
CURL *http_xfer_easy(struct http_xfer *x);
/* Blocking: run the transfer to the end (then http_xfer_done is implied). */
void http_xfer_perform(struct http_xfer *x);
/* The multi interface reported the transfer done with this result. */
void http_xfer_done(struct http_xfer *x, CURLcode rc);

long http_xfer_status(const struct http_xfer *x);     /* 0 on transport failure */
const char *http_xfer_body(const struct http_xfer *x, size_t *len); /* NUL-terminated */
/* The same, writable in place (to star out a secret an answer echoes);
 * NULL (and *len 0) when nothing was received. */
char *http_xfer_body_rw(struct http_xfer *x, size_t *len);
const char *http_xfer_content_type(const struct http_xfer *x); /* "" when none */
CURLcode http_xfer_code(const struct http_xfer *x);
/* Were some request bytes handed to the connection (CURLINFO_REQUEST_SIZE)?
 * True when unsure.  False means the service certainly never saw it. */
bool http_xfer_sent(const struct http_xfer *x);
/* Before the transfer starts: an action sent at most once.  It gets a fresh
 * connection, so libcurl never re-sends it by itself (libcurl silently
 * repeats a request whose reused connection died before any answer byte). */
void http_xfer_at_most_once(struct http_xfer *x);
double http_xfer_seconds(const struct http_xfer *x);  /* total time */
const char *http_xfer_method(const struct http_xfer *x);
const char *http_xfer_url(const struct http_xfer *x);
/* Did it fail?  Transport errors, an oversize response, and every error the
 * service reports (apierr_decode) give true with *e filled. */
bool http_xfer_failed(const struct http_xfer *x, struct api_error *e);
/* The transfer ended with a whole 2xx answer (not cut at the size cap):
 * http_xfer_failed asks only apierr_decode about it. */
bool http_xfer_answered_2xx(const struct http_xfer *x);
/* http_xfer_perform of x and side at once (one multi handle, each on its
 * own connection): both done when it returns. */
void http_xfer_perform_beside(struct http_xfer *x, struct http_xfer *side);

#endif
