/* apierr.h: one error value for every way the service (or the network) can
 * fail: HTTP status, slug, message, decoded from any envelope the service
 * uses ({"error","msg"}, {"msg"}, {"message"}, {"detail"}, a bare JSON
 * string, plain text).  Pure; any thread. */
#ifndef RENTOP_APIERR_H
#define RENTOP_APIERR_H

#include <stdbool.h>
#include <stddef.h>

enum apierr_class {
	AE_NONE,       /* success */
	AE_TRANSPORT,  /* connect/DNS/TLS failure, timeout, reset (http_status 0) */
	AE_AUTH,       /* 401/403, or 404 "Invalid user key" */
	AE_SESSION_EXPIRED, /* 404 "Session expired. Please log in again." */
	AE_NEEDS_TFA,  /* 401 whose message contains "Two Factor Authentication" */
	AE_RATE_LIMIT, /* 429 */
	AE_SERVER,     /* 5xx */
	AE_CLIENT,     /* other 4xx, or HTTP 200 with success:false; also a refused
			* 2FA code or step whatever its status (invalid_backup_code 401,
			* authorization_required 403, tfa_locked 429, ...) */
	AE_PROTOCOL,   /* malformed or unexpected body, oversize response */
};

struct api_error {
	enum apierr_class cls;
	int http_status;      /* 0 for transport errors */
	char slug[64];        /* "rate_limit_exceeded", "" when none */
	char msg[256];        /* sanitised human text, never a secret */
};

/* Decode an error from a response (status and raw body).  Fills *e and
 * returns true when the response is an error: status >= 400, or a 2xx body
 * with "success": false.  Pure and tolerant of any body. */
bool apierr_decode(int http_status, const char *body, size_t len, struct api_error *e);
/* Fill *e for a transport failure (msg is curl's text, sanitised). */
void apierr_transport(struct api_error *e, const char *msg);
/* Fill *e for a protocol failure (a body that does not have the expected shape). */
void apierr_protocol(struct api_error *e, int http_status, const char *what);
/* Is e the refusal of the key itself as the official CLI recognises it
 * (HTTP 401 with msg "Invalid user key")?  With a 2FA session key in use,
 * the CLI then drops the session key and resends with the normal key. */
bool apierr_invalid_key(const struct api_error *e);
/* "HTTP 429 rate_limit_exceeded: API requests too frequent ..." into buf. */
char *apierr_format(const struct api_error *e, char *buf, size_t n);

#endif
