/* api.h: one request builder per endpoint the client uses (method, URL, JSON
 * body) and the decoders of their answers.  No I/O in the builders or the
 * decoders: the poller runs the calls on its multi handle, --dump through
 * api_run() (blocking, with the official CLI's retries).  Any thread; the
 * results are the caller's. */
#ifndef RENTOP_API_H
#define RENTOP_API_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/apierr.h"
#include "json/json_stream.h"
#include "net/http.h"
#include "net/pace.h"
#include "net/retry.h"

struct config;
struct auth;
struct create_req;
struct inst_page;

/* Every endpoint the client calls, one row each: X(NAME, "name", rate,
 * kind, group, answer_mb, flags) with
 *   rate      requests per second, API-NOTES "thresholds";
 *   kind      FETCH (a read: retried) or ACTION (may change something: at
 *             most once, retry.h);
 *   group     the endpoint whose pacing bucket it shares (poller_pace.h):
 *             two forms of one call count against one limit;
 *   answer_mb the largest answer the kind can sensibly be (MB): past it the
 *             transfer is stopped and refused (http.h), so that a runaway
 *             answer never takes rentop's memory with it;
 *   flags     EPF_KEY_IN_BODY: the built body carries the key ("api_key":
 *             "", filled at send time by api_request_auth); EPF_SCRUB: the
 *             answer is the run server's or a log's text, which could hold
 *             the key a request carried (starred out by api_scrub_answer).
 * Adding an endpoint: one row here, its builder, and a line in
 * tests/sim/API.md. */
enum api_ep_flag { EPF_KEY_IN_BODY = 1, EPF_SCRUB = 2 };

#define API_ENDPOINTS(X) \
	X(INSTANCES_V1, "instances (v1)", 1.0, FETCH, INSTANCES_V1, 16, 0)   /* GET /api/v1/instances/?limit=25[&after_token=T] */ \
	X(INSTANCES_V0, "instances (v0)", 1.0, FETCH, INSTANCES_V1, 64, 0)   /* GET /api/v0/instances/ (the spec's whole list) */ \
	X(INSTANCE, "instance", 2.0, FETCH, INSTANCE, 4, 0)                  /* GET /api/v0/instances/{id}/?owner=me */ \
	X(USER, "user", 2.0, FETCH, USER, 1, 0)                              /* GET /api/v0/users/current/ */ \
	X(WORKERGROUPS, "workergroups", 2.0, FETCH, WORKERGROUPS, 16, 0)     /* GET /api/v0/workergroups/ */ \
	X(AUTOJOBS, "autojobs", 2.0, FETCH, WORKERGROUPS, 16, 0)             /* GET /api/v0/autojobs/ (the CLI's alias) */ \
	X(ENDPTJOBS, "endpoints", 2.0, FETCH, ENDPTJOBS, 16, 0)              /* GET /api/v0/endptjobs/ */ \
	X(OFFERS, "offers", 10.0 / 60.0, FETCH, OFFERS, 48, 0)               /* POST /api/v0/bundles/ (a search) */ \
	X(TEMPLATES, "templates", 3.0, FETCH, TEMPLATES, 8, 0)               /* GET /api/v0/template/?select_filters=... */ \
	X(GPU_NAMES, "GPU names", 1.0, FETCH, GPU_NAMES, 1, 0)               /* GET /api/v0/gpu_names/unique/ (once, for the offers query) */ \
	X(STATE, "instance state", 1.0, ACTION, STATE, 1, 0)                 /* PUT /api/v0/instances/{id}/ {"state"} or {"label"}; bulk: PUT /api/v0/instances/ */ \
	X(REBOOT, "reboot", 1.0, ACTION, STATE, 1, 0)                        /* PUT /api/v0/instances/reboot/{id}/ */ \
	X(DESTROY, "destroy", 3.0, ACTION, DESTROY, 1, 0)                    /* DELETE /api/v0/instances/{id}/; bulk: DELETE /api/v0/instances/ */ \
	X(BID, "bid", 5.5, ACTION, BID, 1, 0)                                /* PUT /api/v0/instances/bid_price/{id}/ */ \
	X(PREPAY, "prepay", 2.0, ACTION, PREPAY, 1, 0)                       /* PUT /api/v0/instances/prepay/{id}/ */ \
	X(CREATE, "create", 4.5, ACTION, CREATE, 1, 0)                       /* PUT /api/v0/asks/{offer}/ */ \
	X(TFA_LOGIN, "2FA login", 1.0, ACTION, TFA_LOGIN, 1, 0)              /* POST /api/v0/tfa/ */ \
	X(LOGS, "endpoint logs", 1.0, FETCH, LOGS, 8, EPF_SCRUB)             /* POST {run_url}/get_endpoint_logs (spec; the fall-back) */ \
	X(LOGS_CLI, "endpoint logs", 1.0, FETCH, LOGS, 8, EPF_KEY_IN_BODY | EPF_SCRUB) /* POST {run_url}/get_endpoint_logs/ (the CLI's and the docs' form, first: the key in the body too) */ \
	X(ENDPT_WRITE, "endpoint change", 1.0, ACTION, ENDPT_WRITE, 1, 0)    /* POST|PUT|DELETE /api/v0/endptjobs/[{id}/] */ \
	X(WG_WRITE, "workergroup change", 1.0, ACTION, WG_WRITE, 1, 0)       /* POST|PUT|DELETE /api/v0/workergroups/[{id}/] */ \
	X(WORKERS, "endpoint workers", 2.0, FETCH, WORKERS, 4, EPF_SCRUB)    /* POST {run_url}/get_endpoint_workers/ (a read) */ \
	X(INSTANCE_LOGS, "instance logs", 1.0, FETCH, INSTANCE_LOGS, 1, 0)   /* PUT /api/v0/instances/request_logs/{id}/ (asks for a copy: repeating it changes nothing) */ \
	X(LOG_RESULT, "log result", 2.0, FETCH, LOG_RESULT, 16, EPF_SCRUB)   /* GET result_url (no auth): a log window */ \
	X(SECRETS, "env vars", 5.0, FETCH, SECRETS, 2, 0)                    /* GET /api/v0/secrets/ */ \
	X(SECRETS_WRITE, "env var change", 3.0, ACTION, SECRETS_WRITE, 1, 0) /* POST|PUT|DELETE /api/v0/secrets/ */ \
	X(APIKEYS, "API keys", 1.0, FETCH, APIKEYS, 2, 0)                    /* GET /api/v0/auth/apikeys/ */ \
	X(APIKEY_WRITE, "API key change", 1.0, ACTION, APIKEY_WRITE, 1, 0)   /* POST /api/v0/auth/apikeys/, DELETE .../{id}/ */ \
	X(SSH, "SSH keys", 1.0, FETCH, SSH, 2, 0)                            /* GET /api/v0/ssh/ */ \
	X(SSH_WRITE, "SSH key change", 1.0, ACTION, SSH_WRITE, 1, 0)         /* POST /api/v0/ssh/, DELETE .../{id}/ */ \
	X(ROLES, "team roles", 1.0, FETCH, ROLES, 2, 0)                      /* GET /api/v0/team/roles-full/, GET .../roles/{id}/ */ \
	X(ROLE_WRITE, "team role change", 1.0, ACTION, ROLE_WRITE, 1, 0)     /* POST /api/v0/team/roles/, PUT|DELETE .../{id}/ */ \
	X(REPORTS, "machine reports", 1.2, FETCH, REPORTS, 4, 0)             /* GET /api/v0/machines/{id}/reports/ */ \
	X(TFA_STATUS, "2FA status", 1.0, FETCH, TFA_STATUS, 1, 0)            /* GET /api/v0/tfa/status/ */ \
	X(TFA_WRITE, "2FA", 1.0, ACTION, TFA_WRITE, 1, 0)                    /* the other /api/v0/tfa/... calls */ \
	X(TEMPLATE_CREATE, "template create", 3.0, ACTION, TEMPLATE_CREATE, 1, 0) /* POST /api/v0/template/ */ \
	X(TEMPLATE_EDIT, "template edit", 3.0, ACTION, TEMPLATE_EDIT, 1, 0)  /* PUT /api/v0/template/ */ \
	X(TEMPLATE_DELETE, "template delete", 3.0, ACTION, TEMPLATE_DELETE, 1, 0) /* DELETE /api/v0/template/ */ \
	/* instance operations in place (api_inst_ops.c) */ \
	X(EXECUTE, "execute", 1.5, ACTION, EXECUTE, 1, 0)                    /* PUT /api/v0/instances/command/{id}/ (its output: LOG_RESULT) */ \
	X(RECYCLE, "recycle", 1.0, ACTION, STATE, 1, 0)                      /* PUT /api/v0/instances/recycle/{id}/ */ \
	X(UPDATE_TEMPLATE, "update template", 1.0, ACTION, STATE, 1, 0)      /* PUT /api/v0/instances/update_template/{id}/ */ \
	X(COPY, "copy", 3.5, ACTION, COPY, 1, 0)                             /* PUT|DELETE /api/v0/commands/copy_direct/ (a copy between instances; its cancel) */ \
	X(SNAPSHOT, "snapshot", 1.0, ACTION, SNAPSHOT, 1, 0)                 /* POST /api/v0/instances/take_snapshot/{id}/ */ \
	X(INST_SSH, "instance SSH keys", 2.0, FETCH, INST_SSH, 1, 0)         /* GET /api/v0/instances/{id}/ssh/ */ \
	X(INST_SSH_WRITE, "instance SSH key change", 2.0, ACTION, INST_SSH_WRITE, 1, 0) /* POST /api/v0/instances/{id}/ssh/, DELETE .../ssh/{key}/ */ \
	X(VOLUMES, "volumes", 5.5, FETCH, VOLUMES, 4, 0)                     /* GET /api/v0/volumes/?owner=me&type=all_volume (local and network) */ \
	X(VOLUME_OFFERS, "volume offers", 5.5, FETCH, VOLUME_OFFERS, 16, 0)  /* POST /api/v0/volumes/search/ */ \
	X(NET_VOLUME_OFFERS, "network volume offers", 5.5, FETCH, NET_VOLUME_OFFERS, 4, 0) /* POST /api/v0/network_volumes/search/ */ \
	X(VOLUME_CREATE, "volume create", 5.5, ACTION, VOLUME_CREATE, 1, 0)  /* PUT /api/v0/volumes/ */ \
	X(NET_VOLUME_CREATE, "network volume create", 5.5, ACTION, NET_VOLUME_CREATE, 1, 0) /* PUT /api/v0/network_volumes/ */ \
	X(VOLUME_CLONE, "volume clone", 5.5, ACTION, VOLUME_CLONE, 1, 0)     /* POST /api/v0/volumes/copy/ */ \
	X(VOLUME_DELETE, "volume delete", 5.5, ACTION, VOLUME_DELETE, 1, 0)  /* DELETE /api/v0/volumes/?id=N */ \
	/* team, audit log and billing (api_account.c) */ \
	X(CHARGES, "charges", 2.0, FETCH, CHARGES, 4, 0)                     /* GET /api/v0/charges/?select_filters={"day":{gte,lte}} */ \
	X(INVOICES, "invoices", 2.0, FETCH, INVOICES, 4, 0)                  /* GET /api/v1/invoices/?select_filters={"when":{gte,lte}} */ \
	X(INVOICES_OLD, "invoices (old)", 2.0, FETCH, INVOICES, 8, 0)        /* GET /api/v0/users/me/invoices?sdate&edate (where v1 is absent) */ \
	X(TRANSFER, "credit transfer", 2.5, ACTION, TRANSFER, 1, 0)          /* PUT /api/v0/commands/transfer_credit/ (no idempotency field) */ \
	X(MEMBERS, "team members", 1.0, FETCH, MEMBERS, 2, 0)                /* GET /api/v0/team/members/ */ \
	X(MEMBER_WRITE, "team member change", 3.0, ACTION, MEMBER_WRITE, 1, 0) /* POST /api/v0/team/invite/, PUT .../members/{id}/roles/, DELETE .../members/{id}/ */ \
	X(AUDIT, "audit log", 1.0, FETCH, AUDIT, 8, 0)                       /* GET /api/v0/audit_logs/ */ \
	X(PRICE_INC, "price increases", 1.0, FETCH, PRICE_INC, 2, 0)         /* GET /api/v0/instances/pending-price-increases/ */ \
	X(PRICE_INC_WRITE, "price increase answer", 1.0, ACTION, PRICE_INC_WRITE, 1, 0) /* PUT /api/v0/instances/{accept,reject}-price-increase/ */ \
	/* serverless workers (api_serverless.c) */ \
	X(WG_LOGS, "workergroup logs", 1.0, FETCH, LOGS, 8, EPF_KEY_IN_BODY | EPF_SCRUB) /* POST {run_url}/get_workergroup_logs/ (the docs' form, the fall-back) */ \
	X(WG_LOGS_CLI, "workergroup logs", 1.0, FETCH, LOGS, 8, EPF_KEY_IN_BODY | EPF_SCRUB) /* POST {run_url}/get_autogroup_logs/ (the CLI's form, first) */ \
	X(UPDATE_WORKERS, "update workers", 1.0, ACTION, UPDATE_WORKERS, 1, EPF_KEY_IN_BODY | EPF_SCRUB) /* POST {run_url}/update_workers/ {"workergroup_id"} */

#define API_EP_ENUM(e, name, rate, kind, group, mb, flags) EP_##e,
enum api_ep { API_ENDPOINTS(API_EP_ENUM) EP__COUNT };
#undef API_EP_ENUM

struct api_call {
	enum api_ep ep;
	const char *method;
	char *url;      /* malloc'd */
	char *body;     /* malloc'd JSON text, NULL for none */
	bool no_auth;   /* send no Authorization header (a result_url the
			 * service handed out: the key must not go there) */
};

void api_call_free(struct api_call *c); /* wipes the body (it may hold a secret) */
/* A call record for the request builders of other files: url (malloc'd) and
 * body (may be NULL) are taken over; the body is serialised compactly. */
struct api_call api_call_make(enum api_ep ep, const char *method, char *url, json_t *body);
const char *api_ep_name(enum api_ep ep);
/* Published rate threshold of the endpoint, requests per second (API-NOTES). */
double api_ep_rate(enum api_ep ep);
/* Fetch (retry-safe read) or action (at most once, retry.h) of the endpoint. */
enum retry_kind api_ep_kind(enum api_ep ep);
/* The endpoint whose pacing bucket it shares (its group). */
enum api_ep api_ep_group(enum api_ep ep);
/* The largest answer accepted from it, bytes. */
size_t api_ep_answer_max(enum api_ep ep);
/* The transfer options of one call of ep: base with the answer cap of ep. */
struct http_opts api_ep_opts(const struct http_opts *base, enum api_ep ep);
/* Does the endpoint's body carry the key (its row's EPF_KEY_IN_BODY)? */
bool api_ep_key_in_body(enum api_ep ep);
/* Is the endpoint's answer starred out by api_scrub_answer before anything
 * reads it (its row's EPF_SCRUB)? */
bool api_ep_scrub(enum api_ep ep);
/* What one attempt at call sends, with the key in use read once (auth may
 * be NULL: no key): the Authorization line (NULL when none or no_auth;
 * free with auth_header_free), and in *body a body with the key in it for
 * an endpoint that carries it (free with auth_header_free), else NULL (send
 * call->body).  *session_gen: the 2FA session key sent, 0 for none
 * (auth_session_refused). */
char *api_request_auth(struct auth *a, const struct api_call *call, char **body,
		       unsigned *session_gen);
/* Star out every key auth holds in x's answer when the endpoint's answer
 * may echo it (api_ep_scrub); call before decoding.  Poller or any thread
 * owning x. */
void api_scrub_answer(struct auth *a, const struct api_call *call, struct http_xfer *x);

#define API_PAGE_LIMIT 25

/* Builders.  `after` may be NULL (first page). */
struct api_call api_instances_v1(const struct config *c, const char *after);
/* The same list with a page size (1..API_PAGE_LIMIT), select_filters,
 * select_cols and order_by as JSON text (each NULL for none; URL-encoded
 * here). */
struct api_call api_instances_v1_q(const struct config *c, const char *after, int limit,
				   const char *filters, const char *cols, const char *order);
struct api_call api_instances_v0(const struct config *c);
struct api_call api_instance(const struct config *c, long id);
struct api_call api_user(const struct config *c);
/* GET /api/v0/gpu_names/unique/: the GPU names offers carry (flow/gpunames.h reads it). */
struct api_call api_gpu_names(const struct config *c);
struct api_call api_workergroups(const struct config *c, bool autojobs_alias);
struct api_call api_endptjobs(const struct config *c);
/* body: the search body (query_search_body), taken over. */
struct api_call api_offers(const struct config *c, json_t *body);
/* select_filters: a filters object or NULL, taken over. */
struct api_call api_templates(const struct config *c, json_t *select_filters);
struct api_call api_start(const struct config *c, long id);
struct api_call api_stop(const struct config *c, long id);
struct api_call api_label(const struct config *c, long id, const char *label);
struct api_call api_reboot(const struct config *c, long id);
struct api_call api_destroy(const struct config *c, long id);
/* The bulk forms (API-NOTES): PUT /api/v0/instances/ {"state", "ids"}
 * (EP_STATE) and DELETE /api/v0/instances/ {"instance_ids"} (EP_DESTROY). */
struct api_call api_bulk_state(const struct config *c, const long *ids, size_t n, bool running);
struct api_call api_bulk_destroy(const struct config *c, const long *ids, size_t n);
/* Ids per bulk request: the official CLI splits bulk start, stop and
 * destroy into consecutive lists of at most 64 (vast-cli, split_list(ids,
 * 64) in vastai/cli/commands/instances.py), one request each. */
#define API_BULK_BATCH 64
/* How many requests n ids take (0 for none). */
size_t api_bulk_batches(size_t n);
/* Batch k (< api_bulk_batches(n)) of n ids: its first index into the ids
 * (*off) and its count, in the order given. */
size_t api_bulk_batch(size_t n, size_t k, size_t *off);
struct api_call api_bid(const struct config *c, long id, double price);
struct api_call api_prepay(const struct config *c, long id, double amount);
/* In api_offers.c. */
struct api_call api_create(const struct config *c, const struct create_req *r);
/* method "totp" (code = 6 digits) or "backup" (code = XXXX-XXXX-XXXX). */
struct api_call api_tfa_login(const struct config *c, const char *method, const char *code);
/* The spec's form: POST {run_url}/get_endpoint_logs {"endpoint","tail"}
 * (the fall-back). */
struct api_call api_endpoint_logs(const struct config *c, const char *endpoint, int tail);
/* The form of the official CLI and the docs (tried first): POST
 * {run_url}/get_endpoint_logs/ {"id":N,"api_key":"<key>","tail":N} with the
 * Bearer header, the key the one in use (the CLI sends its key in both).
 * The built body holds "api_key":"" (the key never sits in a queued call);
 * api_request_auth fills it at each send. */
struct api_call api_endpoint_logs_cli(const struct config *c, long endpoint_id, int tail);

/* Should a 404/405 make the caller try the older or newer form? */
bool api_should_fall_back(const struct api_error *e);
/* The same for the endpoint log forms: 404/405, or a redirect (301, 302,
 * 303, 307, 308: never followed, a run server that moved the path). */
bool api_logs_fall_back(const struct api_error *e);

/* Decode a finished transfer: every error becomes *e (false); success gives
 * the parsed body (*root, the caller's).  A success body that is not JSON
 * is AE_PROTOCOL. */
bool api_parse(const struct http_xfer *x, json_t **root, struct api_error *e);
/* The same for an instance list page, mapped straight from the bytes
 * (json_stream, no tree; map false: the shape only) into *pd. */
bool api_parse_page(const struct http_xfer *x, bool map, struct inst_page *pd,
		    struct api_error *e);
/* texts non-NULL: the page's records as --dump --json prints them appended
 * to *texts instead (pager_texts; map ignored).  A whole 2xx answer is
 * read once: the read tells whether apierr_decode could find a failure in
 * it, and only then is it checked as api_parse does (what it appended
 * taken back). */
bool api_parse_page_texts(const struct http_xfer *x, bool map, struct json_stream_texts *texts,
			  struct inst_page *pd, struct api_error *e);

/* Answers with more than a list. */
bool api_prepay_result(const json_t *root, double *timescale, double *discount_rate);
bool api_create_result(const json_t *root, long *new_contract);
/* The session_key of a 2FA login answer (malloc'd; wipe it), or NULL. */
char *api_tfa_session_key(const json_t *root);
/* The log text of either get_endpoint_logs form (malloc'd, sanitised, lines
 * kept), or NULL. */
char *api_logs_text(const json_t *root);

/* Blocking calls (--dump, one-shot): runs call under the one retry rule
 * (retry.h): what it may resend is resent after the CLI's delays (0.15 s,
 * x1.5; `retries` of them), a 429 after waiting past the service's window
 * (pace_refused; up to API_RATE_RETRIES of them); an action is never resent
 * once the service may have acted (then `unknown` is set).  On "Session
 * expired", or a 401 "Invalid user key" to a 2FA session key (the official
 * CLI's two signals), it drops the session key and resends once with the
 * normal key (a refused key: nothing was done, an action too). */
#define API_RATE_RETRIES 6
struct api_client {
	const struct config *cfg;
	struct auth *auth;
	struct http_opts opts;
	int retries;
	unsigned requests;   /* counters, for tests and the log */
	unsigned retried;
	unsigned rate_limited; /* 429 answers seen (retried or not) */
	unsigned session_gen; /* the 2FA session key api_xfer_new last sent (0:
			       * the normal key), for api_after_failure */
	bool unknown;        /* the last api_run failed with its outcome unknown */
	struct pace pace[EP__COUNT]; /* 429 blocks per endpoint (no rate: --dump paces itself) */
	uint64_t seed;       /* jitter of the 429 waits */
	/* Optional: told before each wait of a retry (--dump says it on stderr). */
	void (*on_wait)(void *ctx, const struct api_call *call, const struct api_error *e,
			double delay_s);
	/* Optional: told when a refused 2FA session key was dropped and the
	 * call is resent once with the normal key (--dump says it on stderr). */
	void (*on_session)(void *ctx, const struct api_call *call, const struct api_error *e);
	void *on_wait_ctx;  /* for both */
};
void api_client_init(struct api_client *cl, const struct config *cfg, struct auth *auth);
void api_client_cleanup(struct api_client *cl);
bool api_run(struct api_client *cl, const struct api_call *call, json_t **root,
	     struct api_error *e);
/* api_run's two halves, for a caller that runs the transfers itself (the
 * parallel list reader of --dump, on its own multi handle), so that every
 * blocking read is retried by the one rule:
 * api_xfer_new: the transfer of one attempt at call (its auth header; an
 * action sent at most once), counted in cl->requests; NULL with *e when
 * the URL is refused.
 * api_after_failure: an attempt failed (*e decoded from it, rc curl's
 * result, sent http_xfer_sent): API_RETRY with *delay (s) to wait before
 * the next attempt, or API_FAIL (*e the error to report).  st holds the
 * attempts' counts: zero it before the first, max_refused the 429s to
 * wait out (0: a 429 fails at once, the caller slows down itself). */
struct api_attempt {
	int quick, refused, max_refused;
	bool session_retry;
};
enum api_next { API_FAIL, API_RETRY };
struct http_xfer *api_xfer_new(struct api_client *cl, const struct api_call *call,
			       struct api_error *e);
enum api_next api_after_failure(struct api_client *cl, const struct api_call *call,
				struct api_attempt *st, CURLcode rc, bool sent,
				struct api_error *e, double *delay);
/* api_run waiting out at most max_refused 429s (0: a 429 fails at once,
 * for a caller that then slows down itself). */
bool api_run_with(struct api_client *cl, const struct api_call *call, int max_refused,
		  json_t **root, struct api_error *e);
/* api_run for an instance list page: mapped straight from the bytes into
 * *pd (json_stream; map false: the shape only). */
bool api_run_page(struct api_client *cl, const struct api_call *call, bool map,
		  struct inst_page *pd, struct api_error *e);
/* The same with the page's records as --dump --json prints them appended
 * to *texts (on failure nothing is appended). */
bool api_run_page_texts(struct api_client *cl, const struct api_call *call,
			struct json_stream_texts *texts, struct inst_page *pd, struct api_error *e);
/* api_run_page (texts NULL) or api_run_page_texts, with side (a transfer
 * of the caller's, not yet performed; NULL: none) sent at once beside the
 * first attempt (http_xfer_perform_beside): side is done when this
 * returns, whatever the page's outcome, for the caller to read and free. */
bool api_run_page_beside(struct api_client *cl, const struct api_call *call, bool map,
			 struct json_stream_texts *texts, struct http_xfer *side,
			 struct inst_page *pd, struct api_error *e);
/* api_run with the finished transfer decoded by decode(x, ctx, e): true
 * on success; false with *e set (a failed transfer as api_parse says it, an
 * unreadable answer as AE_PROTOCOL) is judged by the retry rule as any
 * other failure.  A decode that fails leaves ctx as it found it. */
typedef bool (*api_decode_fn)(const struct http_xfer *x, void *ctx, struct api_error *e);
bool api_run_decode(struct api_client *cl, const struct api_call *call, api_decode_fn decode,
		    void *ctx, struct api_error *e);
/* Blocking: the last `tail` lines of an endpoint's logs (malloc'd, sanitised,
 * newlines kept): the CLI's form (by id) first, then the spec's form (by
 * name) when that is absent (api_logs_fall_back); when both are, the first
 * form's error.  NULL with *e filled on failure. */
char *api_fetch_endpoint_logs(struct api_client *cl, const char *name, long id, int tail,
			      struct api_error *e);
/* Its request half: the answer of whichever form answered (*root, the
 * caller's), the same order and errors. */
bool api_run_endpoint_logs(struct api_client *cl, const char *name, long id, int tail,
			   json_t **root, struct api_error *e);

#endif
