/* retry.c: owns the one retry rule of retry.h: the classification of a
 * failure (status, curl result, whether the request left) and the table of
 * decisions per kind of request.  Nothing else in the client decides whether
 * a request is sent again. */
#include "net/retry.h"

#include <stddef.h>

static const enum retry_decision table[RK__COUNT][RF__COUNT] = {
	[RK_FETCH] = {
		[RF_NOT_SENT] = RD_RETRY,    [RF_TIMEOUT] = RD_FAIL,
		[RF_LOST] = RD_RETRY,        [RF_RATE_LIMIT] = RD_RETRY,
		[RF_SESSION] = RD_RETRY,     [RF_REFUSED] = RD_FAIL,
		[RF_REQ_TIMEOUT] = RD_RETRY, [RF_GATEWAY] = RD_RETRY,
		[RF_SERVER] = RD_RETRY,      [RF_BAD_ANSWER] = RD_FAIL,
	},
	[RK_ACTION] = {
		[RF_NOT_SENT] = RD_RETRY,    [RF_TIMEOUT] = RD_UNKNOWN,
		[RF_LOST] = RD_UNKNOWN,      [RF_RATE_LIMIT] = RD_RETRY,
		[RF_SESSION] = RD_RETRY,     [RF_REFUSED] = RD_FAIL,
		[RF_REQ_TIMEOUT] = RD_FAIL,  [RF_GATEWAY] = RD_UNKNOWN,
		[RF_SERVER] = RD_UNKNOWN,    [RF_BAD_ANSWER] = RD_UNKNOWN,
	},
};

/* curl results that happen before any request byte can leave: name
 * resolution, the TCP connect, the TLS handshake, a refused URL.  (A table,
 * not a switch: CURLcode is not ours, -Wswitch-enum would want every code.) */
static const CURLcode before_codes[] = {
	CURLE_UNSUPPORTED_PROTOCOL, CURLE_FAILED_INIT, CURLE_URL_MALFORMAT,
	CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT,
	CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
	CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
	CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE,
	CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
};

static bool before_request(CURLcode rc)
{
	for (size_t i = 0; i < sizeof before_codes / sizeof *before_codes; i++)
		if (before_codes[i] == rc)
			return true;
	return false;
}

enum retry_fail retry_classify(const struct api_error *e, CURLcode rc, bool sent)
{
	switch (e->cls) {
	case AE_TRANSPORT:
		if (before_request(rc) || !sent)
			return RF_NOT_SENT;
		return rc == CURLE_OPERATION_TIMEDOUT ? RF_TIMEOUT : RF_LOST;
	case AE_PROTOCOL:
		/* an unreadable 2xx (or an oversize one): the service answered */
		if (e->http_status >= 500)
			return e->http_status == 502 || e->http_status == 504 ? RF_GATEWAY
									     : RF_SERVER;
		return RF_BAD_ANSWER;
	case AE_RATE_LIMIT:
		return RF_RATE_LIMIT;
	case AE_SESSION_EXPIRED:
		return RF_SESSION;
	case AE_SERVER:
		if (e->http_status == 501 || e->http_status == 505)
			return RF_REFUSED;
		if (e->http_status == 502 || e->http_status == 504)
			return RF_GATEWAY;
		return RF_SERVER;
	case AE_CLIENT:
		return e->http_status == 408 ? RF_REQ_TIMEOUT : RF_REFUSED;
	case AE_AUTH:
	case AE_NEEDS_TFA:
		return RF_REFUSED;
	case AE_NONE:
		return RF_BAD_ANSWER; /* not a failure: never a reason to resend */
	}
	return RF_BAD_ANSWER;
}

enum retry_fail retry_classify_sent(const struct api_error *e, CURLcode rc, bool sent,
				    bool session_sent)
{
	if (session_sent && apierr_invalid_key(e))
		return RF_SESSION;
	return retry_classify(e, rc, sent);
}

enum retry_decision retry_decide(enum retry_kind k, enum retry_fail f)
{
	if ((unsigned)k >= RK__COUNT || (unsigned)f >= RF__COUNT)
		return RD_FAIL;
	return table[k][f];
}

enum retry_decision retry_decision_for(enum retry_kind k, const struct api_error *e,
				       CURLcode rc, bool sent)
{
	return retry_decide(k, retry_classify(e, rc, sent));
}

const char *retry_fail_name(enum retry_fail f)
{
	switch (f) {
	case RF_NOT_SENT: return "not sent";
	case RF_TIMEOUT: return "timed out after sending";
	case RF_LOST: return "answer lost";
	case RF_RATE_LIMIT: return "rate limited";
	case RF_SESSION: return "2FA session expired";
	case RF_REFUSED: return "refused";
	case RF_REQ_TIMEOUT: return "request timeout (408)";
	case RF_GATEWAY: return "gateway error";
	case RF_SERVER: return "server error";
	case RF_BAD_ANSWER: return "unreadable answer";
	case RF__COUNT: break;
	}
	return "?";
}

const char *retry_decision_name(enum retry_decision d)
{
	switch (d) {
	case RD_FAIL: return "fail";
	case RD_RETRY: return "retry";
	case RD_UNKNOWN: return "unknown";
	}
	return "?";
}
