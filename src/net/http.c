/* http.c: the libcurl wrapper.  Owns one easy handle per transfer with its
 * header list and response buffer, the URL policy (TLS everywhere but
 * loopback), the size cap and the classification of what went wrong into a
 * struct api_error (through apierr.c for the service's own errors).  The
 * Authorization line is copied into curl's header list only, and the copy
 * is wiped when the transfer is freed. */
#include "net/http.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <strings.h>

#include "base/log.h"
#include "base/util.h"

struct http_xfer {
	CURL *easy;
	struct curl_slist *hdrs;
	char *auth_hdr;        /* the slist holds a copy too; both wiped on free */
	char method[8];
	char *url;
	char *req_body;
	char *buf;             /* response body, NUL-terminated */
	size_t len, cap, max;
	bool too_large;
	bool done;
	bool sent;             /* some request bytes were handed to the connection */
	CURLcode rc;
	long status;
	char ctype[128];
	double seconds;
	char errbuf[CURL_ERROR_SIZE];
};

int http_global_init(void)
{
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void http_global_cleanup(void)
{
	curl_global_cleanup();
}

/* Is host (as curl_url gives it: "[::1]" for IPv6) a loopback name? */
static bool host_is_loopback(const char *host)
{
	if (strcasecmp(host, "localhost") == 0 || strcmp(host, "[::1]") == 0 ||
	    strcmp(host, "::1") == 0)
		return true;
	struct in_addr a;
	if (inet_pton(AF_INET, host, &a) == 1)
		return (ntohl(a.s_addr) >> 24) == 127;
	return false;
}

bool http_url_allowed(const char *url, char *err, size_t n)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL;
	bool ok = false;
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		snprintf(err, n, "not a valid URL: %.200s", url);
	} else if (strcasecmp(scheme, "https") == 0) {
		ok = true;
	} else if (strcasecmp(scheme, "http") == 0) {
		ok = host_is_loopback(host);
		if (!ok)
			snprintf(err, n,
				 "refusing plain http:// to %.100s: TLS (https://) is required "
				 "except for loopback hosts (127.0.0.0/8, ::1, localhost)",
				 host);
	} else {
		snprintf(err, n, "unsupported URL scheme '%.20s' (use https://)", scheme);
	}
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return ok;
}

/* curl write callback: append to the body, abort past the size cap. */
static size_t on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	struct http_xfer *x = arg;
	size_t n = size * nmemb;
	if (x->len + n > x->max) {
		x->too_large = true;
		return 0; /* aborts with CURLE_WRITE_ERROR */
	}
	if (!x->cap) { /* room for the whole answer when its length is told */
		curl_off_t cl = -1;
		if (curl_easy_getinfo(x->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) == CURLE_OK &&
		    cl > 0 && (size_t)cl < x->max) {
			x->cap = (size_t)cl + 1;
			x->buf = xmalloc(x->cap);
		}
	}
	if (x->len + n + 1 > x->cap) {
		size_t cap = x->cap ? x->cap : 16384;
		while (cap < x->len + n + 1)
			cap *= 2;
		x->buf = xrealloc(x->buf, cap);
		x->cap = cap;
	}
	memcpy(x->buf + x->len, p, n);
	x->len += n;
	x->buf[x->len] = '\0';
	return n;
}

/* curl's sockets are created close-on-exec, so no child (ssh) inherits one. */
static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *a)
{
	(void)clientp;
	(void)purpose;
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

/* Seconds to whole milliseconds for curl (0 = no limit). */
static long ms(double s)
{
	return s > 0 ? (long)(s * 1000.0 + 0.5) : 0;
}

struct http_xfer *http_xfer_new(const struct http_opts *o, const char *method, const char *url,
				const char *json_body, const char *auth_line, struct api_error *e)
{
	char why[300];
	if (!http_url_allowed(url, why, sizeof why)) {
		apierr_transport(e, why);
		return NULL;
	}
	struct http_xfer *x = xcalloc(1, sizeof *x);
	x->easy = curl_easy_init();
	if (!x->easy) {
		free(x);
		apierr_transport(e, "cannot create a curl handle");
		return NULL;
	}
	util_strlcpy(x->method, method, sizeof x->method);
	x->url = xstrdup(url);
	x->max = o->max_response ? o->max_response : HTTP_MAX_RESPONSE;
	bool get = strcmp(method, "GET") == 0;
	if (!get || json_body)
		x->req_body = xstrdup(json_body ? json_body : "{}");

	CURL *c = x->easy;
	curl_easy_setopt(c, CURLOPT_URL, x->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ms(o->connect_timeout_s));
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms(o->total_timeout_s));
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "rentop/" RENTOP_VERSION);
	curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(c, CURLOPT_PRIVATE, x);
	curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	if (o->share)
		curl_easy_setopt(c, CURLOPT_SHARE, o->share);
	x->hdrs = curl_slist_append(x->hdrs, "Accept: application/json");
	if (x->req_body) {
		x->hdrs = curl_slist_append(x->hdrs, "Content-Type: application/json");
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, x->req_body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(x->req_body));
		if (get)
			curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "GET");
	}
	if (!get && strcmp(method, "POST") != 0)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, x->method);
	/* no "Expect: 100-continue" round trip */
	x->hdrs = curl_slist_append(x->hdrs, "Expect:");
	if (auth_line) {
		x->auth_hdr = xstrdup(auth_line);
		x->hdrs = curl_slist_append(x->hdrs, x->auth_hdr);
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, x->hdrs);
	return x;
}

static void wipe(char *s)
{
	if (s)
		explicit_bzero(s, strlen(s));
}

void http_xfer_free(struct http_xfer *x)
{
	if (!x)
		return;
	if (x->easy)
		curl_easy_cleanup(x->easy);
	for (struct curl_slist *h = x->hdrs; h; h = h->next)
		wipe(h->data);
	curl_slist_free_all(x->hdrs);
	wipe(x->auth_hdr);
	free(x->auth_hdr);
	free(x->url);
	wipe(x->req_body); /* may hold a secret (a key the run server wants in the body) */
	free(x->req_body);
	free(x->buf);
	free(x);
}

CURL *http_xfer_easy(struct http_xfer *x)
{
	return x->easy;
}

void http_xfer_perform(struct http_xfer *x)
{
	http_xfer_done(x, curl_easy_perform(x->easy));
}

void http_xfer_perform_beside(struct http_xfer *x, struct http_xfer *side)
{
	CURLM *m = curl_multi_init();
	if (m && curl_multi_add_handle(m, x->easy) != CURLM_OK) {
		curl_multi_cleanup(m);
		m = NULL;
	}
	if (m && curl_multi_add_handle(m, side->easy) != CURLM_OK) {
		curl_multi_remove_handle(m, x->easy);
		curl_multi_cleanup(m);
		m = NULL;
	}
	if (!m) { /* one after the other */
		http_xfer_perform(x);
		http_xfer_perform(side);
		return;
	}
	for (int left = 2; left > 0;) {
		int running = 0;
		curl_multi_perform(m, &running);
		CURLMsg *msg;
		int queued;
		while ((msg = curl_multi_info_read(m, &queued))) {
			if (msg->msg != CURLMSG_DONE)
				continue;
			CURL *easy = msg->easy_handle;
			CURLcode rc = msg->data.result;
			curl_multi_remove_handle(m, easy);
			http_xfer_done(easy == x->easy ? x : side, rc);
			left--;
		}
		if (left > 0)
			curl_multi_poll(m, NULL, 0, 1000, NULL);
	}
	curl_multi_cleanup(m);
}

/* Record the outcome (status, Content-Type, timing) and log one line. */
void http_xfer_done(struct http_xfer *x, CURLcode rc)
{
	x->done = true;
	x->rc = rc;
	long st = 0;
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &st);
	x->status = rc == CURLE_OK ? st : 0;
	char *ct = NULL;
	curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
	util_strlcpy(x->ctype, ct ? ct : "", sizeof x->ctype);
	curl_easy_getinfo(x->easy, CURLINFO_TOTAL_TIME, &x->seconds);
	/* conservative: unless curl says no request byte was issued, it may
	 * have reached the service */
	long reqsize = 1;
	if (curl_easy_getinfo(x->easy, CURLINFO_REQUEST_SIZE, &reqsize) != CURLE_OK)
		reqsize = 1;
	x->sent = rc == CURLE_OK || reqsize > 0;
	if (rc == CURLE_FILESIZE_EXCEEDED)
		x->too_large = true;
	if (log_enabled()) {
		/* the path only: no query string (tokens are not secrets, but short) */
		log_msg("http %s %.*s -> %ld%s%s (%zu bytes, %.3f s)", x->method,
			(int)strcspn(x->url, "?"), x->url, x->status, rc ? " curl: " : "",
			rc ? curl_easy_strerror(rc) : "", x->len, x->seconds);
	}
}

long http_xfer_status(const struct http_xfer *x)
{
	return x->status;
}

char *http_xfer_body_rw(struct http_xfer *x, size_t *len)
{
	*len = x->buf ? x->len : 0;
	return x->buf;
}

const char *http_xfer_body(const struct http_xfer *x, size_t *len)
{
	if (len)
		*len = x->len;
	return x->buf ? x->buf : "";
}

const char *http_xfer_content_type(const struct http_xfer *x)
{
	return x->ctype;
}

CURLcode http_xfer_code(const struct http_xfer *x)
{
	return x->rc;
}

bool http_xfer_sent(const struct http_xfer *x)
{
	return !x->done || x->sent;
}

void http_xfer_at_most_once(struct http_xfer *x)
{
	curl_easy_setopt(x->easy, CURLOPT_FRESH_CONNECT, 1L);
}

double http_xfer_seconds(const struct http_xfer *x)
{
	return x->seconds;
}

const char *http_xfer_method(const struct http_xfer *x)
{
	return x->method;
}

const char *http_xfer_url(const struct http_xfer *x)
{
	return x->url;
}

/* Size cap first, then transport, then the service's own error envelope. */
bool http_xfer_answered_2xx(const struct http_xfer *x)
{
	return !x->too_large && x->done && x->rc == CURLE_OK && x->status >= 200 &&
	       x->status < 300;
}

bool http_xfer_failed(const struct http_xfer *x, struct api_error *e)
{
	if (x->too_large) {
		char m[80];
		snprintf(m, sizeof m, "response too large (over %zu MB)", x->max >> 20);
		apierr_protocol(e, (int)x->status, m);
		return true;
	}
	if (!x->done || x->rc != CURLE_OK) {
		char m[CURL_ERROR_SIZE + 64];
		const char *what = x->errbuf[0] ? x->errbuf : curl_easy_strerror(x->rc);
		snprintf(m, sizeof m, "%s", x->done ? what : "request not performed");
		apierr_transport(e, m);
		return true;
	}
	return apierr_decode((int)x->status, x->buf ? x->buf : "", x->len, e);
}
