/* apierr.c: owns the decoding of every failure the service (or the network)
 * can produce into one struct api_error: the error envelopes of the spec and
 * of the live service ({"success":false,"error","msg"}, {"msg"}, {"message"},
 * {"detail"}, a bare JSON string, plain text and HTML bodies, empty bodies),
 * their classification (auth, expired 2FA session, 2FA needed, rate limit,
 * server, client, transport, protocol), and the text shown to the user: one
 * sanitised line in which anything that looks like an echoed key (a run of
 * 32+ hex/base64 characters) is replaced by "********". */
#include "net/apierr.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include <strings.h>

#include "base/util.h"

#define SECRET_RUN_MIN 32 /* characters of [A-Za-z0-9+/=_-] that look like a key */

/* The standard reason phrase of an HTTP status, "" when unknown. */
static const char *reason_phrase(int status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 402: return "Payment Required";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 406: return "Not Acceptable";
	case 408: return "Request Timeout";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 411: return "Length Required";
	case 413: return "Payload Too Large";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Entity";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default:
		if (status >= 500 && status < 600)
			return "Server Error";
		if (status >= 400 && status < 500)
			return "Client Error";
		if (status >= 300 && status < 400)
			return "Redirect";
		return "";
	}
}

static bool key_char(unsigned char c)
{
	return isalnum(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-';
}

/* Replace runs of SECRET_RUN_MIN+ key characters holding both a letter and a
 * digit with "********", in place. */
static void mask_secrets(char *s)
{
	char *out = s;
	for (char *p = s; *p;) {
		if (!key_char((unsigned char)*p)) {
			*out++ = *p++;
			continue;
		}
		char *q = p;
		bool digit = false, alpha = false;
		while (*q && key_char((unsigned char)*q)) {
			digit |= isdigit((unsigned char)*q) != 0;
			alpha |= isalpha((unsigned char)*q) != 0;
			q++;
		}
		if (q - p >= SECRET_RUN_MIN && digit && alpha) {
			memcpy(out, "********", 8); /* a run is >= 32 bytes: fits in place */
			out += 8;
		} else {
			memmove(out, p, (size_t)(q - p));
			out += q - p;
		}
		p = q;
	}
	*out = '\0';
}

/* Trim blanks at both ends, in place. */
static void trim(char *s)
{
	size_t len = strlen(s), start = 0;
	while (start < len && isspace((unsigned char)s[start]))
		start++;
	while (len > start && isspace((unsigned char)s[len - 1]))
		len--;
	memmove(s, s + start, len - start);
	s[len - start] = '\0';
}

/* Put text into dst (size n): sanitised to one line, key-like runs masked, trimmed. */
static void set_text(char *dst, size_t n, const char *src, size_t len)
{
	char *clean = util_sanitize_n(src, len);
	mask_secrets(clean);
	trim(clean);
	if (util_strlcpy(dst, clean, n) >= n) {
		/* cut on a character boundary, never inside a UTF-8 sequence */
		size_t cut = n - 1;
		while (cut > 0 && ((unsigned char)clean[cut] & 0xC0) == 0x80)
			cut--;
		dst[cut] = '\0';
	}
	free(clean);
}

/* Decode the few HTML entities error pages use, in place. */
static void decode_entities(char *s)
{
	static const struct { const char *ent; char c; } tab[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
		{ "&#39;", '\'' }, { "&apos;", '\'' }, { "&nbsp;", ' ' },
	};
	char *o = s;
	for (char *p = s; *p;) {
		bool done = false;
		if (*p == '&')
			for (size_t i = 0; i < sizeof tab / sizeof *tab && !done; i++) {
				size_t l = strlen(tab[i].ent);
				if (!strncmp(p, tab[i].ent, l)) {
					*o++ = tab[i].c;
					p += l;
					done = true;
				}
			}
		if (!done)
			*o++ = *p++;
	}
	*o = '\0';
}

/* Does the tag at t ("<p ...", "</div>") end a line of text? */
static bool block_tag(const char *t, size_t len)
{
	static const char *const blocks[] = { "p", "br", "div", "h1", "h2", "h3", "h4", "h5",
					      "h6", "title", "li", "tr", "hr", "head", "body",
					      "html", "pre", "center", "table", "ul", "ol" };
	size_t i = 1;
	if (i < len && t[i] == '/')
		i++;
	size_t start = i;
	while (i < len && isalnum((unsigned char)t[i]))
		i++;
	for (size_t k = 0; k < sizeof blocks / sizeof *blocks; k++)
		if (strlen(blocks[k]) == i - start && !strncasecmp(t + start, blocks[k], i - start))
			return true;
	return false;
}

/* Strip tags from an HTML body (dropping <script>/<style> contents). */
static char *html_text(const char *body, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		if (body[i] != '<') {
			out[o++] = body[i] == '\0' ? ' ' : body[i];
			i++;
			continue;
		}
		bool skip_body = (len - i > 7 && !strncasecmp(body + i, "<script", 7)) ||
				 (len - i > 6 && !strncasecmp(body + i, "<style", 6));
		size_t tag = i;
		const char *close = skip_body ? (tolower((unsigned char)body[i + 2]) == 'c'
							 ? "</script" : "</style")
					      : NULL;
		while (i < len && body[i] != '>')
			i++;
		i++;
		if (close) {
			size_t cl = strlen(close);
			while (i < len && !(len - i >= cl && !strncasecmp(body + i, close, cl)))
				i++;
		}
		out[o++] = block_tag(body + tag, len - tag) ? '\n' : ' ';
	}
	out[o] = '\0';
	decode_entities(out);
	return out;
}

/* The first non-blank line of a text (or HTML) body into e->msg. */
static void text_body(const char *body, size_t len, struct api_error *e)
{
	size_t i = 0;
	while (i < len && isspace((unsigned char)body[i]))
		i++;
	char *owned = NULL;
	const char *t = body + i;
	size_t tl = len - i;
	if (tl > 0 && t[0] == '<') {
		owned = html_text(t, tl);
		t = owned;
		tl = strlen(owned);
	}
	size_t pos = 0;
	while (pos < tl) {
		size_t end = pos;
		while (end < tl && t[end] != '\n' && t[end] != '\r')
			end++;
		set_text(e->msg, sizeof e->msg, t + pos, end - pos);
		if (e->msg[0])
			break;
		pos = end + 1;
	}
	free(owned);
}

/* A JSON value as message text: strings as they are, the rest as compact JSON. */
static void json_text(const json_t *v, char *dst, size_t n)
{
	if (json_is_string(v)) {
		set_text(dst, n, json_string_value(v), json_string_length(v));
		return;
	}
	char *raw = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (raw) {
		set_text(dst, n, raw, strlen(raw));
		free(raw);
	}
}

/* Fill slug and msg from a JSON object envelope. */
static void object_body(const json_t *o, struct api_error *e)
{
	const json_t *slug = json_object_get(o, "error");
	if (json_is_string(slug)) {
		set_text(e->slug, sizeof e->slug, json_string_value(slug), json_string_length(slug));
		for (char *c = e->slug; *c; c++)
			if (isspace((unsigned char)*c))
				*c = '_';
	}
	static const char *const msg_keys[] = { "msg", "message", "detail", "error_description",
						"error_msg", "reason" };
	for (size_t i = 0; i < sizeof msg_keys / sizeof *msg_keys && !e->msg[0]; i++) {
		const json_t *m = json_object_get(o, msg_keys[i]);
		if (m && !json_is_null(m))
			json_text(m, e->msg, sizeof e->msg);
	}
	/* {"error": "some sentence"} with no msg: the text is the message */
	if (!e->msg[0] && json_is_string(slug) && strchr(json_string_value(slug), ' ')) {
		util_strlcpy(e->msg, e->slug, sizeof e->msg);
		for (char *c = e->msg; *c; c++)
			if (*c == '_')
				*c = ' ';
		e->slug[0] = '\0';
	} else if (!e->msg[0] && json_is_object(slug)) {
		json_text(slug, e->msg, sizeof e->msg);
	}
}

static bool contains_ci(const char *hay, const char *needle)
{
	return strcasestr(hay, needle) != NULL;
}

/* Is slug a refusal of a 2FA code or step (not of the key, not a pace
 * limit): a wrong or expired code, a locked method, a missing authorization? */
static bool tfa_refusal(const char *slug)
{
	static const char *const slugs[] = {
		"invalid_backup_code", "2fa_verification_failed", "2fa_expired", "tfa_locked",
		"challenge_not_found", "no_pending_authorization", "authorization_required",
		"sms_rate_limited", "tfa_challenge_exists", "duplicate_tfa_method",
		"phone_number_mismatch", "email_not_verified",
	};
	for (size_t i = 0; i < sizeof slugs / sizeof *slugs; i++)
		if (!strcmp(slug, slugs[i]))
			return true;
	return false;
}

/* Class of an error from its status, slug and message. */
static enum apierr_class classify(int status, const struct api_error *e)
{
	if (contains_ci(e->msg, "Session expired"))
		return AE_SESSION_EXPIRED;
	if (status == 401 && contains_ci(e->msg, "Two Factor Authentication"))
		return AE_NEEDS_TFA;
	if (status >= 400 && status < 500 && tfa_refusal(e->slug))
		return AE_CLIENT; /* a wrong code is no refused key; a locked method no pace limit */
	if (status == 401 || status == 403)
		return AE_AUTH;
	if (status == 404 && (contains_ci(e->msg, "Invalid user key") ||
			      !strcmp(e->slug, "auth_error")))
		return AE_AUTH;
	if (status == 429)
		return AE_RATE_LIMIT;
	if (status >= 500 && status < 600)
		return AE_SERVER;
	if (status >= 400 && status < 500)
		return AE_CLIENT;
	if (status >= 200 && status < 300)
		return !strcmp(e->slug, "rate_limit_exceeded") ? AE_RATE_LIMIT : AE_CLIENT;
	return AE_PROTOCOL; /* 1xx/3xx or an impossible status: not a usable answer */
}

/* The top-level "success" member of a 2xx body, found with yajl's tokens
 * (no tree: the body may be a 14 MB instance list). */
struct succ_scan {
	int depth;          /* containers open */
	bool at_key;        /* the next value is the top-level "success" */
	bool failed;        /* its last value was false or the integer 0 */
};

static int succ_value(struct succ_scan *s, bool failed)
{
	if (s->depth == 1 && s->at_key)
		s->failed = failed;
	s->at_key = false;
	return 1;
}

static int sc_null(void *c) { return succ_value(c, false); }
static int sc_bool(void *c, int b) { return succ_value(c, !b); }
static int sc_string(void *c, const unsigned char *v, size_t n)
{
	(void)v;
	(void)n;
	return succ_value(c, false);
}
static int sc_number(void *c, const char *v, size_t n)
{
	/* jansson's integer 0: no fraction, no exponent ("-0" too) */
	bool zero = n && !memchr(v, '.', n) && !memchr(v, 'e', n) && !memchr(v, 'E', n);
	for (size_t i = 0; zero && i < n; i++)
		zero = v[i] == '0' || (i == 0 && v[i] == '-');
	return succ_value(c, zero);
}
static int sc_open(void *c)
{
	struct succ_scan *s = c;
	succ_value(s, false);
	s->depth++;
	return 1;
}
static int sc_close(void *c)
{
	((struct succ_scan *)c)->depth--;
	return 1;
}
static int sc_key(void *c, const unsigned char *k, size_t n)
{
	struct succ_scan *s = c;
	s->at_key = s->depth == 1 && n == 7 && !memcmp(k, "success", 7);
	return 1;
}

/* Can a 2xx body be a failure ({"success": false} or 0 at the top)?  False
 * only when it surely is not; a text yajl refuses is left to jansson. */
static bool maybe_failed(const char *body, size_t len)
{
	static const yajl_callbacks cb = { sc_null, sc_bool, NULL, NULL, sc_number, sc_string,
					   sc_open, sc_key, sc_close, sc_open, sc_close };
	struct succ_scan s = { 0, false, false };
	yajl_handle h = yajl_alloc(&cb, NULL, &s);
	if (!h)
		return true;
	bool ok = yajl_parse(h, (const unsigned char *)body, len) == yajl_status_ok &&
		  yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	return !ok || s.failed;
}

bool apierr_decode(int http_status, const char *body, size_t len, struct api_error *e)
{
	memset(e, 0, sizeof *e);
	e->http_status = http_status;
	if (!body)
		len = 0;
	if (http_status <= 0) {
		apierr_transport(e, "no HTTP response");
		return true;
	}
	bool ok_status = http_status >= 200 && http_status < 300;
	if (ok_status && (!len || !maybe_failed(body, len)))
		return false; /* the common case: no tree built for the check */
	json_error_t jerr;
	json_t *root = len ? json_loadb(body, len, JSON_DECODE_ANY, &jerr) : NULL;
	if (ok_status) {
		const json_t *succ = json_is_object(root) ? json_object_get(root, "success") : NULL;
		bool failed = json_is_false(succ) ||
			      (json_is_integer(succ) && json_integer_value(succ) == 0);
		if (!failed) {
			json_decref(root);
			return false;
		}
	}
	if (json_is_object(root))
		object_body(root, e);
	else if (json_is_string(root))
		json_text(root, e->msg, sizeof e->msg);
	else if (root)
		json_text(root, e->msg, sizeof e->msg);
	else if (len)
		text_body(body, len, e);
	json_decref(root);
	if (!e->msg[0] && e->slug[0]) {
		util_strlcpy(e->msg, e->slug, sizeof e->msg);
		for (char *c = e->msg; *c; c++)
			if (*c == '_')
				*c = ' ';
	}
	if (!e->msg[0])
		util_strlcpy(e->msg, ok_status ? "request failed" : reason_phrase(http_status),
			     sizeof e->msg);
	if (!e->msg[0])
		snprintf(e->msg, sizeof e->msg, "unexpected HTTP status %d", http_status);
	e->cls = classify(http_status, e);
	return true;
}

void apierr_transport(struct api_error *e, const char *msg)
{
	memset(e, 0, sizeof *e);
	e->cls = AE_TRANSPORT;
	const char *m = msg && *msg ? msg : "network error";
	set_text(e->msg, sizeof e->msg, m, strlen(m));
}

void apierr_protocol(struct api_error *e, int http_status, const char *what)
{
	memset(e, 0, sizeof *e);
	e->cls = AE_PROTOCOL;
	e->http_status = http_status;
	const char *m = what && *what ? what : "unexpected response";
	set_text(e->msg, sizeof e->msg, m, strlen(m));
}

bool apierr_invalid_key(const struct api_error *e)
{
	return e->http_status == 401 && e->cls == AE_AUTH && !strcmp(e->msg, "Invalid user key");
}

char *apierr_format(const struct api_error *e, char *buf, size_t n)
{
	if (!n)
		return buf;
	if (e->cls == AE_NONE)
		snprintf(buf, n, "ok");
	else if (e->cls == AE_TRANSPORT || e->http_status <= 0)
		snprintf(buf, n, "network error: %s", e->msg);
	else if (e->cls == AE_PROTOCOL)
		snprintf(buf, n, "HTTP %d: unexpected response: %s", e->http_status, e->msg);
	else if (e->slug[0])
		snprintf(buf, n, "HTTP %d %s: %s", e->http_status, e->slug, e->msg);
	else
		snprintf(buf, n, "HTTP %d: %s", e->http_status, e->msg);
	return buf;
}
