/* logfollow.c: owns the schedule and the answer handling of one log pane's
 * fetches (endpoint logs in either form, instance logs through request_logs
 * and the result_url), on top of backoff.c's timing and logtail.c's merge. */
#include "flow/logfollow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/backoff.h"
#include "base/config.h"
#include "state/logtail.h"
#include "base/util.h"

enum phase {
	PH_ENDPOINT,       /* endpoint logs: one call per poll */
	PH_INST_REQUEST,   /* instance logs: request_logs next */
	PH_INST_RESULT,    /* instance logs: the result_url next */
};

enum sent { SENT_NONE, SENT_SPEC, SENT_CLI, SENT_REQUEST, SENT_RESULT };

struct logfollow {
	bool instance;
	char *name;
	long id;
	int tail;
	enum log_stream stream;
	bool spec_form;      /* the CLI's form is absent: the spec's form */
	bool spec_tried;     /* the spec's form was tried (absent too: back to the first) */
	struct api_error first_err; /* what the CLI's form answered then */
	bool follow;
	enum phase phase;
	enum sent sent;
	char *result_url;
	int pending_tries;
	struct backoff bo;
	double pending_at;   /* s: the next result_url try, while pending */
	struct api_error last_err;
	bool failed;
	bool ever_ok;
	bool kicked;         /* "r": due now even with follow off */
};

double logfollow_interval(bool shown, int nopen)
{
	if (shown)
		return LOGFOLLOW_ENDPOINT_S;
	/* the share left by the one shown, spread over the others */
	double budget = LOGFOLLOW_RATE_SHARE * api_ep_rate(EP_LOGS) - 1.0 / LOGFOLLOW_ENDPOINT_S;
	double others = nopen > 1 ? nopen - 1 : 1;
	double s = budget > 0 ? others / budget : others * LOGFOLLOW_BACKGROUND_S;
	return s > LOGFOLLOW_BACKGROUND_S ? s : LOGFOLLOW_BACKGROUND_S;
}

double logfollow_rate(int nopen, bool one_shown)
{
	if (nopen <= 0)
		return 0;
	double bg = 1.0 / logfollow_interval(false, nopen);
	return one_shown ? 1.0 / logfollow_interval(true, nopen) + (nopen - 1) * bg : nopen * bg;
}

static struct logfollow *mkf(bool instance, double now)
{
	struct logfollow *f = xcalloc(1, sizeof *f);
	f->instance = instance;
	f->follow = true;
	f->stream = LOGS_DEFAULT;
	backoff_init(&f->bo, instance ? LOGFOLLOW_INSTANCE_S : LOGFOLLOW_ENDPOINT_S,
		     BACKOFF_CAP_S, 0, (uint64_t)(now * 1000) | 1u, now);
	return f;
}

struct logfollow *logfollow_new_endpoint(const char *name, long id, int tail, double now)
{
	struct logfollow *f = mkf(false, now);
	f->name = xstrdup(name);
	f->id = id;
	f->tail = tail > 0 ? tail : API_INSTANCE_LOG_TAIL;
	f->phase = PH_ENDPOINT;
	return f;
}

struct logfollow *logfollow_new_instance(long instance_id, int tail, double now)
{
	struct logfollow *f = mkf(true, now);
	f->id = instance_id;
	f->tail = tail > 0 ? tail : API_INSTANCE_LOG_TAIL;
	f->phase = PH_INST_REQUEST;
	return f;
}

void logfollow_free(struct logfollow *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->result_url);
	free(f);
}

bool logfollow_set_stream(struct logfollow *f, enum log_stream s, double now)
{
	if (f->stream == s)
		return false;
	f->stream = s;
	backoff_due_now(&f->bo, now);
	return true;
}

enum log_stream logfollow_stream(const struct logfollow *f)
{
	return f->stream;
}

void logfollow_set_follow(struct logfollow *f, bool on)
{
	f->follow = on;
}

void logfollow_refresh(struct logfollow *f, double now)
{
	if (f->instance && f->phase != PH_INST_RESULT)
		f->phase = PH_INST_REQUEST;
	backoff_due_now(&f->bo, now);
	f->pending_at = now;
	f->kicked = true;
}

double logfollow_wait(const struct logfollow *f, double now)
{
	double at;
	if (f->phase == PH_INST_RESULT)
		at = f->pending_at;
	else if (f->instance && !f->follow && f->ever_ok && !f->failed && !f->kicked)
		return 1e9; /* no periodic refresh: only "r" */
	else
		at = f->bo.next_due;
	return at > now ? at - now : 0;
}

struct api_call logfollow_next(struct logfollow *f, const struct config *c, double now)
{
	struct api_call none = {EP_LOGS, "POST", NULL, NULL, false};
	if (logfollow_wait(f, now) > 0)
		return none;
	f->kicked = false;
	switch (f->phase) {
	case PH_ENDPOINT: {
		/* the level streams exist only in the CLI's form */
		bool spec = f->spec_form && f->stream == LOGS_DEFAULT;
		f->sent = spec ? SENT_SPEC : SENT_CLI;
		backoff_sent(&f->bo, now);
		return spec ? api_endpoint_logs(c, f->name, f->tail)
			    : api_endpoint_logs_cli(c, f->id, f->tail);
	}
	case PH_INST_REQUEST:
		f->sent = SENT_REQUEST;
		backoff_sent(&f->bo, now);
		return api_instance_logs_request(c, f->id, f->tail);
	case PH_INST_RESULT: {
		char err[160];
		struct api_call call = api_instance_logs_fetch(f->result_url, err, sizeof err);
		if (!call.url) {
			apierr_protocol(&f->last_err, 0, err);
			f->failed = true;
			f->phase = PH_INST_REQUEST;
			backoff_failure(&f->bo, now);
			f->sent = SENT_NONE;
			return call;
		}
		f->sent = SENT_RESULT;
		return call;
	}
	}
	return none;
}

static enum logfollow_ev fail(struct logfollow *f, const struct api_error *err, double now,
			      struct api_error *e)
{
	f->last_err = *err;
	f->failed = true;
	if (e)
		*e = *err;
	backoff_failure(&f->bo, now);
	if (f->phase == PH_INST_RESULT)
		f->phase = PH_INST_REQUEST;
	return LFE_FAILED;
}

static void ok(struct logfollow *f, double now)
{
	f->failed = false;
	f->ever_ok = true;
	backoff_success(&f->bo, now);
}

enum logfollow_ev logfollow_done(struct logfollow *f, const struct http_xfer *x,
				 struct logtail *t, double now, size_t *added,
				 struct api_error *e)
{
	*added = 0;
	struct api_error err;
	memset(&err, 0, sizeof err);
	enum sent sent = f->sent;
	f->sent = SENT_NONE;
	switch (sent) {
	case SENT_NONE:
		apierr_protocol(&err, 0, "no request was sent");
		return fail(f, &err, now, e);
	case SENT_SPEC:
	case SENT_CLI: {
		json_t *root = NULL;
		if (!api_parse(x, &root, &err)) {
			bool absent = api_logs_fall_back(&err);
			if (sent == SENT_CLI && absent && f->stream == LOGS_DEFAULT &&
			    !f->spec_tried) {
				f->spec_form = f->spec_tried = true;
				f->first_err = err;
				backoff_due_now(&f->bo, now);
				return LFE_SWITCHED;
			}
			if (sent == SENT_SPEC && absent) {
				/* neither form is there: the first again, and what it said */
				f->spec_form = false;
				err = f->first_err;
			}
			return fail(f, &err, now, e);
		}
		if (api_logs_failure(root, &err)) {
			json_decref(root);
			return fail(f, &err, now, e);
		}
		char *text = api_log_stream_text(root, f->stream);
		json_decref(root);
		if (!text) {
			char m[80];
			snprintf(m, sizeof m, "the answer has no %s stream", api_log_stream_name(f->stream));
			apierr_protocol(&err, 200, m);
			return fail(f, &err, now, e);
		}
		if (t)
			*added = logtail_merge(t, text, strlen(text), NULL);
		free(text);
		ok(f, now);
		return LFE_MERGED;
	}
	case SENT_REQUEST: {
		json_t *root = NULL;
		if (!api_parse(x, &root, &err))
			return fail(f, &err, now, e);
		char *url = api_instance_logs_url(root);
		json_decref(root);
		if (!url) {
			apierr_protocol(&err, 200, "the answer has no result_url");
			return fail(f, &err, now, e);
		}
		free(f->result_url);
		f->result_url = url;
		f->phase = PH_INST_RESULT;
		f->pending_tries = 0;
		f->pending_at = now + API_LOG_RESULT_DELAY_S;
		return LFE_PENDING;
	}
	case SENT_RESULT: {
		char *text = NULL;
		switch (api_instance_logs_result(x, &text, &err)) {
		case LOGRES_PENDING:
			if (++f->pending_tries >= API_LOG_RESULT_TRIES) {
				char m[300];
				snprintf(m, sizeof m, "the log did not appear in time (last: HTTP %d)",
					 err.http_status);
				apierr_protocol(&err, err.http_status, m);
				return fail(f, &err, now, e);
			}
			f->pending_at = now + API_LOG_RESULT_DELAY_S;
			return LFE_PENDING;
		case LOGRES_FAILED:
			return fail(f, &err, now, e);
		case LOGRES_READY:
			break;
		}
		if (t)
			*added = logtail_merge(t, text, strlen(text), NULL);
		free(text);
		f->phase = PH_INST_REQUEST;
		ok(f, now);
		return LFE_MERGED;
	}
	}
	return LFE_FAILED;
}

char *logfollow_state(const struct logfollow *f, double now, char *buf, size_t n)
{
	if (f->failed) {
		char m[300], d[32];
		apierr_format(&f->last_err, m, sizeof m);
		double w = logfollow_wait(f, now);
		snprintf(buf, n, "error: %s, retry in %s", m, fmt_duration(d, sizeof d, w));
	} else if (f->phase == PH_INST_RESULT) {
		snprintf(buf, n, "waiting for the log (%d/%d)", f->pending_tries + 1,
			 API_LOG_RESULT_TRIES);
	} else if (f->instance) {
		snprintf(buf, n, f->follow ? "following (every %.0fs)" : "paused (r to refresh)",
			 LOGFOLLOW_INSTANCE_S);
	} else {
		snprintf(buf, n, "following (every %.0fs)%s%s%s", LOGFOLLOW_ENDPOINT_S,
			 f->spec_form && f->stream == LOGS_DEFAULT ? ", spec form" : "", f->stream != LOGS_DEFAULT ? ", stream " : "",
			 f->stream != LOGS_DEFAULT ? api_log_stream_name(f->stream) : "");
	}
	return buf;
}
