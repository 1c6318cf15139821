/* api.c: the endpoints the client uses, as data.  Owns the paths, query
 * strings and JSON bodies of every call (SPEC.md and the live forms of
 * API-NOTES.md), the decoding of the answers that are more than a list, the
 * fall-back and retry rules, and api_run(), the blocking executor used by
 * --dump with the official CLI's retry schedule. */
#include "api/api.h"
#include "api/pager.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/auth.h"
#include "net/backoff.h"
#include "base/config.h"
#include "base/log.h"
#include "base/util.h"

static const struct {
	const char *name;
	double rate;          /* requests per second */
	enum retry_kind kind;
	enum api_ep group;
	size_t answer_max;    /* bytes */
	unsigned flags;       /* enum api_ep_flag */
} ep_info[EP__COUNT] = {
#define API_EP_ROW(e, nm, rt, k, g, mb, fl) \
	[EP_##e] = { nm, rt, RK_##k, EP_##g, (size_t)(mb) << 20, (fl) },
	API_ENDPOINTS(API_EP_ROW)
#undef API_EP_ROW
};

const char *api_ep_name(enum api_ep ep)
{
	return (unsigned)ep < EP__COUNT ? ep_info[ep].name : "?";
}

double api_ep_rate(enum api_ep ep)
{
	return (unsigned)ep < EP__COUNT ? ep_info[ep].rate : 1.0;
}

enum retry_kind api_ep_kind(enum api_ep ep)
{
	/* an unknown endpoint is taken as a write: never retried */
	return (unsigned)ep < EP__COUNT ? ep_info[ep].kind : RK_ACTION;
}

enum api_ep api_ep_group(enum api_ep ep)
{
	return (unsigned)ep < EP__COUNT ? ep_info[ep].group : EP_INSTANCE;
}

size_t api_ep_answer_max(enum api_ep ep)
{
	return (unsigned)ep < EP__COUNT ? ep_info[ep].answer_max : HTTP_MAX_RESPONSE;
}

struct http_opts api_ep_opts(const struct http_opts *base, enum api_ep ep)
{
	struct http_opts o = *base;
	size_t cap = api_ep_answer_max(ep);
	if (!o.max_response || cap < o.max_response)
		o.max_response = cap;
	return o;
}

bool api_ep_key_in_body(enum api_ep ep)
{
	return (unsigned)ep < EP__COUNT && (ep_info[ep].flags & EPF_KEY_IN_BODY);
}

bool api_ep_scrub(enum api_ep ep)
{
	return (unsigned)ep < EP__COUNT && (ep_info[ep].flags & EPF_SCRUB);
}

char *api_request_auth(struct auth *a, const struct api_call *call, char **body,
		       unsigned *session_gen)
{
	*body = NULL;
	*session_gen = 0;
	if (!a || call->no_auth)
		return NULL;
	bool key_body = api_ep_key_in_body(call->ep) && call->body;
	return auth_request(a, key_body ? call->body : NULL, key_body ? "api_key" : NULL, body,
			    session_gen);
}

void api_scrub_answer(struct auth *a, const struct api_call *call, struct http_xfer *x)
{
	size_t len;
	char *b = a && x && api_ep_scrub(call->ep) ? http_xfer_body_rw(x, &len) : NULL;
	if (b && auth_redact_mem(a, b, len))
		log_msg("%s: the answer held a key: starred out", api_ep_name(call->ep));
}

void api_call_free(struct api_call *c)
{
	free(c->url);
	if (c->body) /* may hold a secret: an env value, a 2FA code or secret */
		explicit_bzero(c->body, strlen(c->body));
	free(c->body);
	c->url = c->body = NULL;
}

/* A call record; the JSON body (taken over) is serialised compactly. */
static struct api_call mk(enum api_ep ep, const char *method, char *url, json_t *body)
{
	struct api_call c = {ep, method, url, NULL, false};
	if (body) {
		c.body = json_dumps(body, JSON_COMPACT);
		json_decref(body);
	}
	return c;
}

struct api_call api_call_make(enum api_ep ep, const char *method, char *url, json_t *body)
{
	return mk(ep, method, url, body);
}

/* URL-encode s (malloc'd). */
static char *uenc(const char *s)
{
	char *e = curl_easy_escape(NULL, s, 0);
	char *r = xstrdup(e);
	curl_free(e);
	return r;
}

struct api_call api_instances_v1(const struct config *c, const char *after)
{
	return api_instances_v1_q(c, after, API_PAGE_LIMIT, NULL, NULL, NULL);
}

struct api_call api_instances_v1_q(const struct config *c, const char *after, int limit,
				   const char *filters, const char *cols, const char *order)
{
	char *url = xasprintf("%s/api/v1/instances/?limit=%d", c->base_url,
			      limit > 0 && limit <= API_PAGE_LIMIT ? limit : API_PAGE_LIMIT);
	const char *names[4] = { "select_filters", "select_cols", "order_by", "after_token" };
	const char *vals[4] = { filters, cols, order, after };
	for (int i = 0; i < 4; i++) {
		if (!vals[i] || !*vals[i])
			continue;
		char *e = uenc(vals[i]);
		char *u = xasprintf("%s&%s=%s", url, names[i], e);
		free(e);
		free(url);
		url = u;
	}
	return mk(EP_INSTANCES_V1, "GET", url, NULL);
}

struct api_call api_instances_v0(const struct config *c)
{
	return mk(EP_INSTANCES_V0, "GET", xasprintf("%s/api/v0/instances/", c->base_url), NULL);
}

struct api_call api_instance(const struct config *c, long id)
{
	return mk(EP_INSTANCE, "GET", xasprintf("%s/api/v0/instances/%ld/?owner=me", c->base_url, id),
		  NULL);
}

struct api_call api_user(const struct config *c)
{
	return mk(EP_USER, "GET", xasprintf("%s/api/v0/users/current/", c->base_url), NULL);
}

struct api_call api_gpu_names(const struct config *c)
{
	return mk(EP_GPU_NAMES, "GET", xasprintf("%s/api/v0/gpu_names/unique/", c->base_url), NULL);
}

struct api_call api_workergroups(const struct config *c, bool autojobs_alias)
{
	return mk(autojobs_alias ? EP_AUTOJOBS : EP_WORKERGROUPS, "GET",
		  xasprintf("%s/api/v0/%s/", c->base_url,
			    autojobs_alias ? "autojobs" : "workergroups"),
		  NULL);
}

struct api_call api_endptjobs(const struct config *c)
{
	return mk(EP_ENDPTJOBS, "GET", xasprintf("%s/api/v0/endptjobs/", c->base_url), NULL);
}

struct api_call api_offers(const struct config *c, json_t *body)
{
	return mk(EP_OFFERS, "POST", xasprintf("%s/api/v0/bundles/", c->base_url),
		  body ? body : json_object());
}

struct api_call api_templates(const struct config *c, json_t *select_filters)
{
	char *url;
	if (select_filters) {
		char *js = json_dumps(select_filters, JSON_COMPACT);
		char *q = uenc(js ? js : "{}");
		url = xasprintf("%s/api/v0/template/?select_filters=%s", c->base_url, q);
		free(q);
		free(js);
		json_decref(select_filters);
	} else {
		url = xasprintf("%s/api/v0/template/", c->base_url);
	}
	return mk(EP_TEMPLATES, "GET", url, NULL);
}

static struct api_call state_call(const struct config *c, long id, const char *key,
				  const char *val)
{
	return mk(EP_STATE, "PUT", xasprintf("%s/api/v0/instances/%ld/", c->base_url, id),
		  json_pack("{s:s}", key, val));
}

struct api_call api_start(const struct config *c, long id)
{
	return state_call(c, id, "state", "running");
}

struct api_call api_stop(const struct config *c, long id)
{
	return state_call(c, id, "state", "stopped");
}

struct api_call api_label(const struct config *c, long id, const char *label)
{
	return state_call(c, id, "label", label);
}

struct api_call api_reboot(const struct config *c, long id)
{
	return mk(EP_REBOOT, "PUT", xasprintf("%s/api/v0/instances/reboot/%ld/", c->base_url, id),
		  json_object());
}

struct api_call api_destroy(const struct config *c, long id)
{
	return mk(EP_DESTROY, "DELETE", xasprintf("%s/api/v0/instances/%ld/", c->base_url, id),
		  json_object());
}

/* A JSON list of n ids. */
static json_t *id_list(const long *ids, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)ids[i]));
	return a;
}

struct api_call api_bulk_state(const struct config *c, const long *ids, size_t n, bool running)
{
	return mk(EP_STATE, "PUT", xasprintf("%s/api/v0/instances/", c->base_url),
		  json_pack("{s:s,s:o}", "state", running ? "running" : "stopped", "ids",
			    id_list(ids, n)));
}

struct api_call api_bulk_destroy(const struct config *c, const long *ids, size_t n)
{
	return mk(EP_DESTROY, "DELETE", xasprintf("%s/api/v0/instances/", c->base_url),
		  json_pack("{s:o}", "instance_ids", id_list(ids, n)));
}

size_t api_bulk_batches(size_t n)
{
	return (n + API_BULK_BATCH - 1) / API_BULK_BATCH;
}

size_t api_bulk_batch(size_t n, size_t k, size_t *off)
{
	*off = k * API_BULK_BATCH;
	if (*off >= n)
		return 0;
	return n - *off < API_BULK_BATCH ? n - *off : API_BULK_BATCH;
}

struct api_call api_bid(const struct config *c, long id, double price)
{
	return mk(EP_BID, "PUT", xasprintf("%s/api/v0/instances/bid_price/%ld/", c->base_url, id),
		  json_pack("{s:s,s:f}", "client_id", "me", "price", price));
}

struct api_call api_prepay(const struct config *c, long id, double amount)
{
	return mk(EP_PREPAY, "PUT", xasprintf("%s/api/v0/instances/prepay/%ld/", c->base_url, id),
		  json_pack("{s:f}", "amount", amount));
}

struct api_call api_tfa_login(const struct config *c, const char *method, const char *code)
{
	json_t *b = strcmp(method, "backup") == 0
			    ? json_pack("{s:s}", "backup_code", code)
			    : json_pack("{s:s,s:s}", "tfa_method", method, "code", code);
	return mk(EP_TFA_LOGIN, "POST", xasprintf("%s/api/v0/tfa/", c->base_url), b);
}

struct api_call api_endpoint_logs(const struct config *c, const char *endpoint, int tail)
{
	return mk(EP_LOGS, "POST", xasprintf("%s/get_endpoint_logs", c->run_url),
		  json_pack("{s:s,s:i}", "endpoint", endpoint, "tail", tail));
}

struct api_call api_endpoint_logs_cli(const struct config *c, long endpoint_id, int tail)
{
	/* the CLI's key order; the key itself is filled at send (api_request_auth) */
	return mk(EP_LOGS_CLI, "POST", xasprintf("%s/get_endpoint_logs/", c->run_url),
		  json_pack("{s:I,s:s,s:i}", "id", (json_int_t)endpoint_id, "api_key", "", "tail",
			    tail));
}

bool api_should_fall_back(const struct api_error *e)
{
	return (e->http_status == 404 || e->http_status == 405) && e->cls != AE_AUTH &&
	       e->cls != AE_SESSION_EXPIRED;
}

bool api_logs_fall_back(const struct api_error *e)
{
	switch (e->http_status) {
	case 301: case 302: case 303: case 307: case 308:
		return true;
	default:
		return api_should_fall_back(e);
	}
}

bool api_parse(const struct http_xfer *x, json_t **root, struct api_error *e)
{
	*root = NULL;
	memset(e, 0, sizeof *e);
	if (http_xfer_failed(x, e))
		return false;
	size_t len;
	const char *body = http_xfer_body(x, &len);
	json_error_t je;
	json_t *j = json_loadb(body, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (!j) {
		char m[200];
		snprintf(m, sizeof m, "malformed JSON from the service (%s)", je.text);
		apierr_protocol(e, (int)http_xfer_status(x), m);
		return false;
	}
	*root = j;
	e->cls = AE_NONE;
	e->http_status = (int)http_xfer_status(x);
	return true;
}

bool api_parse_page(const struct http_xfer *x, bool map, struct inst_page *pd,
		    struct api_error *e)
{
	return api_parse_page_texts(x, map, NULL, pd, e);
}

bool api_parse_page_texts(const struct http_xfer *x, bool map, struct json_stream_texts *texts,
			  struct inst_page *pd, struct api_error *e)
{
	memset(pd, 0, sizeof *pd);
	memset(e, 0, sizeof *e);
	size_t len;
	const char *body = http_xfer_body(x, &len);
	if (texts && http_xfer_answered_2xx(x)) {
		/* the records first: when the read says the answer holds no
		 * failure envelope (json_stream_answer_texts), that is the
		 * check http_xfer_failed makes, and the text is read once */
		size_t n0 = texts->n, len0 = texts->text.len;
		if (pager_texts(body, len, texts, pd, e) && pd->surely_ok) {
			e->cls = AE_NONE;
			e->http_status = (int)http_xfer_status(x);
			return true;
		}
		json_stream_texts_truncate(texts, n0, len0);
		pager_page_free(pd);
		memset(pd, 0, sizeof *pd);
		memset(e, 0, sizeof *e);
	}
	if (http_xfer_failed(x, e))
		return false;
	if (texts ? !pager_texts(body, len, texts, pd, e) : !pager_map_text(body, len, map, pd, e)) {
		e->http_status = (int)http_xfer_status(x);
		return false;
	}
	e->cls = AE_NONE;
	e->http_status = (int)http_xfer_status(x);
	return true;
}

static bool num(const json_t *o, const char *k, double *out)
{
	json_t *v = json_object_get(o, k);
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return true;
	}
	if (json_is_string(v)) {
		char *end;
		double d = strtod(json_string_value(v), &end);
		if (end != json_string_value(v) && !*end) {
			*out = d;
			return true;
		}
	}
	return false;
}

bool api_prepay_result(const json_t *root, double *timescale, double *discount_rate)
{
	*timescale = NAN;
	*discount_rate = NAN;
	if (!json_is_object(root))
		return false;
	bool a = num(root, "timescale", timescale);
	bool b = num(root, "discount_rate", discount_rate);
	return a || b;
}

bool api_create_result(const json_t *root, long *new_contract)
{
	double d;
	if (!json_is_object(root) || !num(root, "new_contract", &d) || d <= 0)
		return false;
	*new_contract = (long)d;
	return true;
}

char *api_tfa_session_key(const json_t *root)
{
	json_t *v = json_object_get(root, "session_key");
	if (!json_is_string(v) || !json_string_length(v))
		return NULL;
	return xstrdup(json_string_value(v));
}

char *api_logs_text(const json_t *root)
{
	if (!json_is_object(root))
		return NULL;
	json_t *v = json_object_get(root, "logs");
	if (json_is_string(v))
		return util_sanitize_ml(json_string_value(v), json_string_length(v));
	/* the CLI's form: one string per level */
	static const char *const levels[] = {"info0", "info1", "trace", "debug"};
	char *acc = NULL;
	for (size_t i = 0; i < 4; i++) {
		json_t *s = json_object_get(root, levels[i]);
		if (!json_is_string(s) || !json_string_length(s))
			continue;
		char *clean = util_sanitize_ml(json_string_value(s), json_string_length(s));
		char *n = xasprintf("%s%s%s", acc ? acc : "", acc ? "\n" : "", clean);
		free(clean);
		free(acc);
		acc = n;
	}
	return acc;
}

void api_client_init(struct api_client *cl, const struct config *cfg, struct auth *auth)
{
	memset(cl, 0, sizeof *cl);
	cl->cfg = cfg;
	cl->auth = auth;
	cl->opts.connect_timeout_s = cfg->connect_timeout_s;
	cl->opts.total_timeout_s = cfg->total_timeout_s;
	cl->opts.share = curl_share_init();
	if (cl->opts.share) {
		curl_share_setopt(cl->opts.share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
		curl_share_setopt(cl->opts.share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
		curl_share_setopt(cl->opts.share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
	}
	cl->retries = 3; /* the official CLI's count */
	double now = util_mono();
	cl->seed = (uint64_t)(util_now() * 1e6) | 1;
	for (int i = 0; i < EP__COUNT; i++)
		pace_init(&cl->pace[i], 0, 1, now);
}

void api_client_cleanup(struct api_client *cl)
{
	if (cl->opts.share)
		curl_share_cleanup(cl->opts.share);
	cl->opts.share = NULL;
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* A number in [0,1) for jitter (xorshift64). */
static double jitter(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (double)(*s >> 11) / 9007199254740992.0;
}

struct http_xfer *api_xfer_new(struct api_client *cl, const struct api_call *call,
			       struct api_error *e)
{
	char *body;
	char *hdr = api_request_auth(cl->auth, call, &body, &cl->session_gen);
	struct http_opts o = api_ep_opts(&cl->opts, call->ep);
	struct http_xfer *x = http_xfer_new(&o, call->method, call->url, body ? body : call->body,
					    hdr, e);
	auth_header_free(hdr);
	auth_header_free(body);
	if (!x)
		return NULL;
	if (api_ep_kind(call->ep) == RK_ACTION)
		http_xfer_at_most_once(x);
	cl->requests++;
	return x;
}

enum api_next api_after_failure(struct api_client *cl, const struct api_call *call,
				struct api_attempt *st, CURLcode rc, bool sent,
				struct api_error *e, double *delay)
{
	enum retry_kind kind = api_ep_kind(call->ep);
	struct pace *pc = (unsigned)call->ep < EP__COUNT ? &cl->pace[call->ep] : NULL;
	*delay = 0;
	auth_redact(cl->auth, e->msg);
	auth_redact(cl->auth, e->slug);
	enum retry_fail f = retry_classify_sent(e, rc, sent, cl->session_gen != 0);
	enum retry_decision d = retry_decide(kind, f);
	if (d == RD_UNKNOWN) {
		cl->unknown = true;
		log_msg("%s: %s: not resent, the outcome is unknown", api_ep_name(call->ep),
			retry_fail_name(f));
		return API_FAIL;
	}
	if (d == RD_FAIL)
		return API_FAIL;
	if (f == RF_SESSION) {
		bool dropped;
		if (st->session_retry || !cl->auth ||
		    !auth_session_refused(cl->auth, cl->session_gen, &dropped))
			return API_FAIL;
		log_msg("%s: 2FA session key refused (HTTP %d): dropped, retrying once with the "
			"normal key", api_ep_name(call->ep), e->http_status);
		if (cl->on_session && dropped)
			cl->on_session(cl->on_wait_ctx, call, e);
		st->session_retry = true;
		return API_RETRY;
	}
	if (f == RF_RATE_LIMIT)
		cl->rate_limited++;
	if (f == RF_RATE_LIMIT) {
		if (st->refused >= st->max_refused || !pc)
			return API_FAIL;
		st->refused++;
		double now = util_mono();
		*delay = pace_refused(pc, now, jitter(&cl->seed)) - now;
	} else {
		if (st->quick >= cl->retries)
			return API_FAIL;
		*delay = backoff_retry_delay(st->quick++);
	}
	cl->retried++;
	log_msg("%s: %s, retry in %.2f s", api_ep_name(call->ep), retry_fail_name(f), *delay);
	if (cl->on_wait)
		cl->on_wait(cl->on_wait_ctx, call, e, *delay);
	return API_RETRY;
}

/* api_run's loop; pd non-NULL: an instance page mapped from the bytes
 * (texts non-NULL: its records' texts too); decode non-NULL: the transfer
 * decoded by it. */
static bool run(struct api_client *cl, const struct api_call *call, json_t **root,
		struct inst_page *pd, bool map, struct json_stream_texts *texts,
		api_decode_fn decode, void *ctx, int max_refused, struct http_xfer *side,
		struct api_error *e)
{
	struct pace *pc = (unsigned)call->ep < EP__COUNT ? &cl->pace[call->ep] : NULL;
	struct api_attempt st = { .max_refused = max_refused };
	cl->unknown = false;
	for (;;) {
		if (pc) {
			double w = pace_wait(pc, util_mono());
			if (w > 0)
				sleep_s(w);
		}
		struct http_xfer *x = api_xfer_new(cl, call, e);
		if (!x)
			return false;
		if (side) { /* the first attempt only */
			http_xfer_perform_beside(x, side);
			side = NULL;
		} else {
			http_xfer_perform(x);
		}
		api_scrub_answer(cl->auth, call, x);
		bool ok = decode ? decode(x, ctx, e)
			  : pd ? api_parse_page_texts(x, map, texts, pd, e) : api_parse(x, root, e);
		CURLcode rc = http_xfer_code(x);
		bool sent = http_xfer_sent(x);
		http_xfer_free(x);
		if (ok) {
			if (pc)
				pace_answered(pc);
			return true;
		}
		double delay;
		if (api_after_failure(cl, call, &st, rc, sent, e, &delay) != API_RETRY)
			return false;
		if (delay > 0)
			sleep_s(delay);
	}
}

bool api_run(struct api_client *cl, const struct api_call *call, json_t **root,
	     struct api_error *e)
{
	return run(cl, call, root, NULL, false, NULL, NULL, NULL, API_RATE_RETRIES, NULL, e);
}

bool api_run_with(struct api_client *cl, const struct api_call *call, int max_refused,
		  json_t **root, struct api_error *e)
{
	return run(cl, call, root, NULL, false, NULL, NULL, NULL, max_refused, NULL, e);
}

bool api_run_page(struct api_client *cl, const struct api_call *call, bool map,
		  struct inst_page *pd, struct api_error *e)
{
	return run(cl, call, NULL, pd, map, NULL, NULL, NULL, API_RATE_RETRIES, NULL, e);
}

bool api_run_page_beside(struct api_client *cl, const struct api_call *call, bool map,
			 struct json_stream_texts *texts, struct http_xfer *side,
			 struct inst_page *pd, struct api_error *e)
{
	return run(cl, call, NULL, pd, map, texts, NULL, NULL, API_RATE_RETRIES, side, e);
}

bool api_run_page_texts(struct api_client *cl, const struct api_call *call,
			struct json_stream_texts *texts, struct inst_page *pd, struct api_error *e)
{
	return run(cl, call, NULL, pd, false, texts, NULL, NULL, API_RATE_RETRIES, NULL, e);
}

bool api_run_decode(struct api_client *cl, const struct api_call *call, api_decode_fn decode,
		    void *ctx, struct api_error *e)
{
	return run(cl, call, NULL, NULL, false, NULL, decode, ctx, API_RATE_RETRIES, NULL, e);
}

bool api_run_endpoint_logs(struct api_client *cl, const char *name, long id, int tail,
			   json_t **root, struct api_error *e)
{
	struct api_call c = api_endpoint_logs_cli(cl->cfg, id, tail);
	bool ok = api_run(cl, &c, root, e);
	api_call_free(&c);
	if (ok || !api_logs_fall_back(e) || !name)
		return ok;
	struct api_error first = *e;
	log_msg("%s answered %d: trying the spec's form", api_ep_name(EP_LOGS_CLI),
		e->http_status);
	c = api_endpoint_logs(cl->cfg, name, tail);
	ok = api_run(cl, &c, root, e);
	api_call_free(&c);
	if (!ok && api_logs_fall_back(e))
		*e = first; /* neither form is there: say what the first one said */
	return ok;
}

char *api_fetch_endpoint_logs(struct api_client *cl, const char *name, long id, int tail,
			      struct api_error *e)
{
	json_t *root = NULL;
	if (!api_run_endpoint_logs(cl, name, id, tail, &root, e))
		return NULL;
	char *text = api_logs_text(root);
	if (!text) {
		/* failures can come as a bare JSON string with HTTP 200 */
		if (json_is_string(root)) {
			char *clean = util_sanitize(json_string_value(root));
			apierr_protocol(e, 200, clean);
			free(clean);
		} else
			apierr_protocol(e, 200, "no logs in the answer");
	}
	json_decref(root);
	return text;
}
