/* api_serverless.h: request builders and decoders for the serverless calls
 * beyond the lists (api.h has workergroups, endptjobs and the endpoint log
 * forms): endpoint create / edit (only changed fields) / delete and
 * suspend / resume, workergroup create (from a template) / edit (only
 * changed fields) / delete, the worker list of an endpoint, the level
 * streams of the CLI's log form, and instance container logs (request, then
 * a result_url fetched with no auth, any non-200 until ready).  No I/O: the caller
 * runs the calls (poller, jobs, api_run).  Pure; any thread; results are
 * the caller's. */
#ifndef RENTOP_API_SERVERLESS_H
#define RENTOP_API_SERVERLESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "state/model.h"

/* ---- endpoints (endptjobs) ------------------------------------------------ */

/* POST /api/v0/endptjobs/ {"endpoint_name","min_load","target_util",
 * "cold_mult","cold_workers","max_workers","min_cold_load",
 * "max_queue_time","target_queue_time","inactivity_timeout"} from e (id,
 * state, user_id and created_at ignored; a missing (NAN) queue time or
 * timeout is sent as null, as the CLI does: the service's default).  The
 * answer's id: api_serverless_new_id(). */
struct api_call api_endpoint_create(const struct config *c, const struct endpoint *e);
/* PUT /api/v0/endptjobs/{id}/ with only the fields whose value differs
 * between old and new (endpoint_name, min_load, target_util, cold_mult,
 * cold_workers, max_workers, min_cold_load, max_queue_time,
 * target_queue_time, inactivity_timeout (null: cleared), endpoint_state
 * when new_ has one; numbers compared to 1e-9).  *nchanged gets
 * how many; with 0 there is nothing to send and the call is empty (url
 * NULL: do not run it). */
struct api_call api_endpoint_edit(const struct config *c, const struct endpoint *old,
				  const struct endpoint *new_, size_t *nchanged);
/* PUT /api/v0/endptjobs/{id}/ {"endpoint_state":"suspended"|"active"}. */
struct api_call api_endpoint_suspend(const struct config *c, long id, bool suspend);
/* DELETE /api/v0/endptjobs/{id}/ {}. */
struct api_call api_endpoint_delete(const struct config *c, long id);

/* ---- workergroups ---------------------------------------------------------- */

/* POST /api/v0/workergroups/ creating a workergroup on an endpoint (by id
 * when g->endpoint_id > 0, else by g->endpoint_name) from a template
 * (template_hash, and template_id when > 0), with "search_params" = the
 * offer query text (g->search_query, the CLI's query language),
 * launch_args, min_load, target_util, cold_mult, test_workers, gpu_ram. */
struct api_call api_workergroup_create(const struct config *c, const struct workergroup *g);
/* PUT /api/v0/workergroups/{id}/ with only the changed fields among
 * min_load, target_util, cold_mult, test_workers, gpu_ram, search query (sent
 * as "search_params"), launch_args, template_hash.  *nchanged as above. */
struct api_call api_workergroup_edit(const struct config *c, const struct workergroup *old,
				     const struct workergroup *new_, size_t *nchanged);
/* DELETE /api/v0/workergroups/{id}/ {}. */
struct api_call api_workergroup_delete(const struct config *c, long id);

/* The "id" of a create answer ({"success":true,"id":N}); false when absent. */
bool api_serverless_new_id(const json_t *root, long *id);

/* ---- workers ----------------------------------------------------------------- */

/* POST {run_url}/get_endpoint_workers/ {"id": endpoint_id}.  Decode the
 * answer with workers_decode() (workers.h). */
struct api_call api_endpoint_workers(const struct config *c, long endpoint_id);

/* POST {run_url}/update_workers/ {"workergroup_id","api_key"} (the key
 * filled at send): roll the workergroup's workers onto its template's
 * current version.  An action: at most once. */
struct api_call api_update_workers(const struct config *c, long workergroup_id);
/* Its answer: true unless it says "success": false (or is no object);
 * the service's sanitised words ("msg", "error" or a bare string) into msg. */
bool api_update_workers_ok(const json_t *root, char *msg, size_t n);

/* A workergroup's log: the CLI's form (cli_form: POST
 * {run_url}/get_autogroup_logs/ {"id","api_key","tail"}: the level streams
 * info0/info1/trace/debug) or the docs' (POST get_workergroup_logs/
 * {"id","tail","api_key"}: "logs").  Both answers decode as an endpoint
 * log's (api_log_streams, api_log_stream_text). */
struct api_call api_workergroup_logs(const struct config *c, long workergroup_id, int tail,
				     bool cli_form);

/* ---- endpoint log streams ------------------------------------------------------ */

enum log_stream {
	LOGS_DEFAULT, /* the spec's "logs"; with the CLI's form, info0 */
	LOGS_INFO0,
	LOGS_INFO1,
	LOGS_TRACE,
	LOGS_DEBUG,
	LOGS__COUNT
};
/* "logs", "info0", "info1", "trace", "debug". */
const char *api_log_stream_name(enum log_stream s);
/* Bit (1u << s) set for every stream the answer carries as a string (the
 * spec's form gives LOGS_DEFAULT only; the CLI's form LOGS_DEFAULT plus the
 * levels it sent).  0 when it is no log answer. */
unsigned api_log_streams(const json_t *root);
/* The text of one stream (malloc'd, sanitised with newlines kept), or NULL
 * when the answer does not carry it.  LOGS_DEFAULT: "logs", else "info0",
 * else the levels joined (as api_logs_text()). */
char *api_log_stream_text(const json_t *root, enum log_stream s);
/* A failure of a run_url call that came as a bare JSON string with HTTP 200
 * (or any non-log answer): its sanitised text into e as AE_PROTOCOL.  True
 * when root was such a failure. */
bool api_logs_failure(const json_t *root, struct api_error *e);

/* Blocking (--dump, tests): one stream of an endpoint's log, the CLI's
 * form (by id) first, the spec's form (by name) when that is absent and the
 * stream is LOGS_DEFAULT, as api_fetch_endpoint_logs() but choosing the
 * stream (that one joins the CLI's levels, which repeats lines and cannot
 * be merged as a tail).  NULL with *e filled on failure, or when the answer
 * lacks the stream (AE_PROTOCOL). */
char *api_serverless_fetch_logs(struct api_client *cl, const char *name, long id, int tail,
				enum log_stream s, struct api_error *e);

/* ---- instance container logs ------------------------------------------------- */

#define API_INSTANCE_LOG_TAIL 1000 /* lines asked for, as the CLI */

/* PUT /api/v0/instances/request_logs/{id}/ {"tail":"<tail>"} (a string, as
 * the CLI sends it). */
struct api_call api_instance_logs_request(const struct config *c, long instance_id, int tail);
/* The result_url of its answer (malloc'd), or NULL when absent or not an
 * http(s) URL. */
char *api_instance_logs_url(const json_t *root);
/* GET result_url with no Authorization header (no_auth set).  NULL url
 * fields when the URL is refused by http_url_allowed() (err says why). */
struct api_call api_instance_logs_fetch(const char *result_url, char *err, size_t errlen);

/* The result_url is tried as the official CLI does (vastai/api/instances.py
 * _poll_result_url, vast.py logs): every 0.3 s, 30 times (about 9 s), any
 * answer but 200 meaning "not there yet" (an object store answers 403, not
 * 404, for a key not written yet). */
#define API_LOG_RESULT_TRIES 30
#define API_LOG_RESULT_DELAY_S 0.3

enum log_result { LOGRES_READY, LOGRES_PENDING, LOGRES_FAILED };
/* Classify a finished result_url transfer: READY with *text (malloc'd, the
 * body sanitised with newlines kept; a JSON string body is unwrapped) on
 * 200, or PENDING on any other HTTP answer (*e says which: retry after
 * API_LOG_RESULT_DELAY_S), or FAILED with *e filled (no answer: transport;
 * a 200 too large). */
enum log_result api_instance_logs_result(const struct http_xfer *x, char **text,
					 struct api_error *e);
/* The same for a caller that only takes a READY text (a one-shot call's
 * mapper): the text (malloc'd, "" for an empty body), or NULL with *e set
 * (PENDING: the answer's own error, else a 404 "not written yet"). */
char *api_instance_logs_text(const struct http_xfer *x, struct api_error *e);
/* Is e (a result_url failure) "not written yet", to retry: an HTTP answer
 * other than 200 (not a transport failure, not an oversize 200)? */
bool api_instance_logs_pending(const struct api_error *e);

#endif
