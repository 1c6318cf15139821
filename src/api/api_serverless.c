/* api_serverless.c: owns the paths and bodies of the serverless writes
 * (endpoints, workergroups: create, edit with only the changed fields,
 * delete, suspend/resume), the worker list call, the decoding of the CLI
 * log form's level streams and the two-step instance container log fetch
 * (request_logs, then the result_url with no key). */
#include "api/api_serverless.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"

#define NUM_EPS 1e-9

static bool num_changed(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) != isnan(b);
	return fabs(a - b) > NUM_EPS;
}

static bool str_changed(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") != 0;
}

/* A number, or null when missing (NAN): the service's default. */
static json_t *opt_real(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *opt_int(double v)
{
	return isnan(v) ? json_null() : json_integer((json_int_t)llround(v));
}

/* ---- endpoints ----------------------------------------------------------------- */

struct api_call api_endpoint_create(const struct config *c, const struct endpoint *e)
{
	json_t *b = json_pack("{s:s,s:f,s:f,s:f,s:i,s:i}", "endpoint_name",
			      e->endpoint_name ? e->endpoint_name : "", "min_load", e->min_load,
			      "target_util", e->target_util, "cold_mult", e->cold_mult, "cold_workers",
			      e->cold_workers, "max_workers", e->max_workers);
	/* the CLI sends these as null when left out: the service's defaults */
	json_object_set_new(b, "min_cold_load", json_real(isnan(e->min_cold_load) ? 0 : e->min_cold_load));
	json_object_set_new(b, "max_queue_time", opt_real(e->max_queue_time));
	json_object_set_new(b, "target_queue_time", opt_real(e->target_queue_time));
	json_object_set_new(b, "inactivity_timeout", opt_int(e->inactivity_timeout));
	return api_call_make(EP_ENDPT_WRITE, "POST", xasprintf("%s/api/v0/endptjobs/", c->base_url),
			     b);
}

/* An empty call: nothing to send. */
static struct api_call nothing(enum api_ep ep)
{
	struct api_call none = {ep, "PUT", NULL, NULL, false};
	return none;
}

struct api_call api_endpoint_edit(const struct config *c, const struct endpoint *old,
				  const struct endpoint *new_, size_t *nchanged)
{
	json_t *b = json_object();
	if (str_changed(old->endpoint_name, new_->endpoint_name))
		json_object_set_new(b, "endpoint_name", json_string(new_->endpoint_name ? new_->endpoint_name : ""));
	if (num_changed(old->min_load, new_->min_load))
		json_object_set_new(b, "min_load", json_real(new_->min_load));
	if (num_changed(old->target_util, new_->target_util))
		json_object_set_new(b, "target_util", json_real(new_->target_util));
	if (num_changed(old->cold_mult, new_->cold_mult))
		json_object_set_new(b, "cold_mult", json_real(new_->cold_mult));
	if (old->cold_workers != new_->cold_workers)
		json_object_set_new(b, "cold_workers", json_integer(new_->cold_workers));
	if (old->max_workers != new_->max_workers)
		json_object_set_new(b, "max_workers", json_integer(new_->max_workers));
	if (num_changed(old->min_cold_load, new_->min_cold_load))
		json_object_set_new(b, "min_cold_load", opt_real(new_->min_cold_load));
	if (num_changed(old->max_queue_time, new_->max_queue_time))
		json_object_set_new(b, "max_queue_time", opt_real(new_->max_queue_time));
	if (num_changed(old->target_queue_time, new_->target_queue_time))
		json_object_set_new(b, "target_queue_time", opt_real(new_->target_queue_time));
	if (num_changed(old->inactivity_timeout, new_->inactivity_timeout))
		json_object_set_new(b, "inactivity_timeout", opt_int(new_->inactivity_timeout));
	if (new_->endpoint_state && *new_->endpoint_state &&
	    str_changed(old->endpoint_state, new_->endpoint_state))
		json_object_set_new(b, "endpoint_state", json_string(new_->endpoint_state));
	*nchanged = json_object_size(b);
	if (!*nchanged) {
		json_decref(b);
		return nothing(EP_ENDPT_WRITE);
	}
	return api_call_make(EP_ENDPT_WRITE, "PUT",
			     xasprintf("%s/api/v0/endptjobs/%ld/", c->base_url, old->id), b);
}

struct api_call api_endpoint_suspend(const struct config *c, long id, bool suspend)
{
	return api_call_make(EP_ENDPT_WRITE, "PUT",
			     xasprintf("%s/api/v0/endptjobs/%ld/", c->base_url, id),
			     json_pack("{s:s}", "endpoint_state", suspend ? "suspended" : "active"));
}

struct api_call api_endpoint_delete(const struct config *c, long id)
{
	return api_call_make(EP_ENDPT_WRITE, "DELETE",
			     xasprintf("%s/api/v0/endptjobs/%ld/", c->base_url, id), json_object());
}

/* ---- workergroups ------------------------------------------------------------------ */

struct api_call api_workergroup_create(const struct config *c, const struct workergroup *g)
{
	json_t *b = json_pack("{s:f,s:f,s:f,s:i,s:f,s:s,s:s}", "min_load", g->min_load,
			      "target_util", g->target_util, "cold_mult", g->cold_mult, "test_workers",
			      g->test_workers, "gpu_ram", g->gpu_ram, "search_params",
			      g->search_query ? g->search_query : "", "launch_args",
			      g->launch_args ? g->launch_args : "");
	if (g->endpoint_id > 0)
		json_object_set_new(b, "endpoint_id", json_integer(g->endpoint_id));
	else
		json_object_set_new(b, "endpoint_name",
				    json_string(g->endpoint_name ? g->endpoint_name : ""));
	if (g->template_hash && *g->template_hash)
		json_object_set_new(b, "template_hash", json_string(g->template_hash));
	if (g->template_id > 0)
		json_object_set_new(b, "template_id", json_integer(g->template_id));
	return api_call_make(EP_WG_WRITE, "POST", xasprintf("%s/api/v0/workergroups/", c->base_url),
			     b);
}

struct api_call api_workergroup_edit(const struct config *c, const struct workergroup *old,
				     const struct workergroup *new_, size_t *nchanged)
{
	json_t *b = json_object();
	if (num_changed(old->min_load, new_->min_load))
		json_object_set_new(b, "min_load", json_real(new_->min_load));
	if (num_changed(old->target_util, new_->target_util))
		json_object_set_new(b, "target_util", json_real(new_->target_util));
	if (num_changed(old->cold_mult, new_->cold_mult))
		json_object_set_new(b, "cold_mult", json_real(new_->cold_mult));
	if (old->test_workers != new_->test_workers)
		json_object_set_new(b, "test_workers", json_integer(new_->test_workers));
	if (num_changed(old->gpu_ram, new_->gpu_ram))
		json_object_set_new(b, "gpu_ram", json_real(new_->gpu_ram));
	if (str_changed(old->search_query, new_->search_query))
		json_object_set_new(b, "search_params", json_string(new_->search_query ? new_->search_query : ""));
	if (str_changed(old->launch_args, new_->launch_args))
		json_object_set_new(b, "launch_args", json_string(new_->launch_args ? new_->launch_args : ""));
	if (str_changed(old->template_hash, new_->template_hash))
		json_object_set_new(b, "template_hash", json_string(new_->template_hash ? new_->template_hash : ""));
	*nchanged = json_object_size(b);
	if (!*nchanged) {
		json_decref(b);
		return nothing(EP_WG_WRITE);
	}
	return api_call_make(EP_WG_WRITE, "PUT",
			     xasprintf("%s/api/v0/workergroups/%ld/", c->base_url, old->id), b);
}

struct api_call api_workergroup_delete(const struct config *c, long id)
{
	return api_call_make(EP_WG_WRITE, "DELETE",
			     xasprintf("%s/api/v0/workergroups/%ld/", c->base_url, id), json_object());
}

bool api_serverless_new_id(const json_t *root, long *id)
{
	json_t *v = json_object_get(root, "id");
	if (json_is_integer(v) && json_integer_value(v) > 0) {
		*id = (long)json_integer_value(v);
		return true;
	}
	if (json_is_real(v) && json_real_value(v) >= 1) {
		*id = (long)json_real_value(v);
		return true;
	}
	return false;
}

/* ---- workers ----------------------------------------------------------------------- */

struct api_call api_endpoint_workers(const struct config *c, long endpoint_id)
{
	return api_call_make(EP_WORKERS, "POST", xasprintf("%s/get_endpoint_workers/", c->run_url),
			     json_pack("{s:I}", "id", (json_int_t)endpoint_id));
}

struct api_call api_update_workers(const struct config *c, long workergroup_id)
{
	/* the CLI's body; the key is filled at send (api_request_auth) */
	return api_call_make(EP_UPDATE_WORKERS, "POST", xasprintf("%s/update_workers/", c->run_url),
			     json_pack("{s:I,s:s}", "workergroup_id", (json_int_t)workergroup_id,
				       "api_key", ""));
}

bool api_update_workers_ok(const json_t *root, char *msg, size_t n)
{
	json_t *ok = json_object_get(root, "success");
	json_t *m = json_object_get(root, "msg");
	if (!json_is_string(m))
		m = json_object_get(root, "error");
	char *t = util_sanitize(json_is_string(m) ? json_string_value(m)
			       : json_is_string(root) ? json_string_value(root) : "");
	util_strlcpy(msg, t, n);
	free(t);
	return json_is_object(root) && (!ok || json_is_true(ok));
}

struct api_call api_workergroup_logs(const struct config *c, long workergroup_id, int tail,
				     bool cli_form)
{
	return cli_form ? api_call_make(EP_WG_LOGS_CLI, "POST",
					xasprintf("%s/get_autogroup_logs/", c->run_url),
					json_pack("{s:I,s:s,s:i}", "id", (json_int_t)workergroup_id,
						  "api_key", "", "tail", tail))
			: api_call_make(EP_WG_LOGS, "POST",
					xasprintf("%s/get_workergroup_logs/", c->run_url),
					json_pack("{s:I,s:i,s:s}", "id", (json_int_t)workergroup_id,
						  "tail", tail, "api_key", ""));
}

/* ---- log streams ---------------------------------------------------------------------- */

static const char *const stream_key[LOGS__COUNT] = {"logs", "info0", "info1", "trace", "debug"};

const char *api_log_stream_name(enum log_stream s)
{
	return (unsigned)s < LOGS__COUNT ? stream_key[s] : "?";
}

unsigned api_log_streams(const json_t *root)
{
	if (!json_is_object(root))
		return 0;
	unsigned m = 0;
	for (unsigned s = 0; s < LOGS__COUNT; s++)
		if (json_is_string(json_object_get(root, stream_key[s])))
			m |= 1u << s;
	if (m & ~1u)
		m |= 1u << LOGS_DEFAULT; /* the CLI's form: the default is info0 */
	return m;
}

char *api_log_stream_text(const json_t *root, enum log_stream s)
{
	if (!json_is_object(root) || (unsigned)s >= LOGS__COUNT)
		return NULL;
	if (s == LOGS_DEFAULT) {
		json_t *v = json_object_get(root, "logs");
		if (!json_is_string(v))
			v = json_object_get(root, "info0");
		if (json_is_string(v))
			return util_sanitize_ml(json_string_value(v), json_string_length(v));
		return api_logs_text(root);
	}
	json_t *v = json_object_get(root, stream_key[s]);
	if (!json_is_string(v))
		return NULL;
	return util_sanitize_ml(json_string_value(v), json_string_length(v));
}

bool api_logs_failure(const json_t *root, struct api_error *e)
{
	if (api_log_streams(root))
		return false;
	if (json_is_string(root)) {
		char *clean = util_sanitize(json_string_value(root));
		apierr_protocol(e, 200, clean);
		free(clean);
	} else {
		apierr_protocol(e, 200, "no logs in the answer");
	}
	return true;
}

char *api_serverless_fetch_logs(struct api_client *cl, const char *name, long id, int tail,
				enum log_stream s, struct api_error *e)
{
	json_t *root = NULL;
	if (!api_run_endpoint_logs(cl, s == LOGS_DEFAULT ? name : NULL, id, tail, &root, e))
		return NULL; /* a level stream exists in the CLI's form only */
	char *text = NULL;
	if (!api_logs_failure(root, e)) {
		text = api_log_stream_text(root, s);
		if (!text) {
			char m[80];
			snprintf(m, sizeof m, "the answer has no %s stream", api_log_stream_name(s));
			apierr_protocol(e, 200, m);
		}
	}
	json_decref(root);
	return text;
}

/* ---- instance container logs ------------------------------------------------------------ */

struct api_call api_instance_logs_request(const struct config *c, long instance_id, int tail)
{
	char t[24];
	snprintf(t, sizeof t, "%d", tail > 0 ? tail : API_INSTANCE_LOG_TAIL);
	return api_call_make(EP_INSTANCE_LOGS, "PUT",
			     xasprintf("%s/api/v0/instances/request_logs/%ld/", c->base_url,
				       instance_id),
			     json_pack("{s:s}", "tail", t));
}

char *api_instance_logs_url(const json_t *root)
{
	json_t *v = json_object_get(root, "result_url");
	if (!json_is_string(v))
		return NULL;
	const char *u = json_string_value(v);
	if (strncmp(u, "https://", 8) && strncmp(u, "http://", 7))
		return NULL;
	for (const char *p = u; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p == 0x7f)
			return NULL; /* no controls or blanks in a URL we fetch */
	return xstrdup(u);
}

struct api_call api_instance_logs_fetch(const char *result_url, char *err, size_t errlen)
{
	struct api_call c = {EP_LOG_RESULT, "GET", NULL, NULL, true};
	if (!result_url || !http_url_allowed(result_url, err, errlen))
		return c;
	c.url = xstrdup(result_url);
	return c;
}

bool api_instance_logs_pending(const struct api_error *e)
{
	return e->cls != AE_TRANSPORT && e->cls != AE_NONE && e->http_status > 0 &&
	       e->http_status != 200;
}

enum log_result api_instance_logs_result(const struct http_xfer *x, char **text,
					 struct api_error *e)
{
	*text = NULL;
	memset(e, 0, sizeof *e);
	if (http_xfer_failed(x, e))
		return api_instance_logs_pending(e) ? LOGRES_PENDING : LOGRES_FAILED;
	if (http_xfer_status(x) != 200) { /* the CLI takes 200 only */
		apierr_protocol(e, (int)http_xfer_status(x), "the log is not written yet");
		return LOGRES_PENDING;
	}
	size_t len;
	const char *body = http_xfer_body(x, &len);
	/* a JSON string is unwrapped; anything else is the text itself */
	json_t *j = json_loadb(body, len, JSON_DECODE_ANY, NULL);
	if (json_is_string(j))
		*text = util_sanitize_ml(json_string_value(j), json_string_length(j));
	else
		*text = util_sanitize_ml(body, len);
	json_decref(j);
	return LOGRES_READY;
}

char *api_instance_logs_text(const struct http_xfer *x, struct api_error *e)
{
	char *text = NULL;
	switch (api_instance_logs_result(x, &text, e)) {
	case LOGRES_READY: break;
	case LOGRES_PENDING:
		if (e->cls == AE_NONE)
			apierr_protocol(e, 404, "not written yet");
		return NULL;
	case LOGRES_FAILED:
		free(text);
		return NULL;
	}
	return text ? text : xstrdup("");
}
