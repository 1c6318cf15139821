/* pane_logs.c: the log view (`6`, `:logs NAME`): one or more open logs,
 * each following an endpoint's log (get_endpoint_logs every 3 s through
 * jobs_subscribe, the CLI's and the docs' form first (by id, the key in
 * the body), the spec's form (by name) when that answers 404/405 or a
 * redirect; a level stream chosen with `v` exists in the first form only)
 * or an instance's container log (request_logs, then its result_url
 * retried as the official CLI does: every 0.3 s, 30 times, whatever the
 * non-200 answer (an object store answers 403 for a key not written yet);
 * again every 10 s while following; `r` at once).  Every answer is
 * merged into the log's ring (logtail.c: only lines past the overlap are
 * appended; sanitised, secrets masked before they are stored) and shown
 * through its logview (logview.c): follow mode, paused when scrolled up and
 * resumed with G/End/F; `/` search with n/N highlighting; `&` filter; `w`
 * wrap; `t` time column; `s` save (path prompt, overwrite asked, starting
 * on Cancel); `c` clear.  A failure (a 429, a hang) keeps the lines and
 * says so in the status line.  `L` on an endpoint of the serverless view,
 * on an instance, or on a worker (its instance) opens one (bound here in
 * their key contexts); on a workergroup it opens the workergroup's own log
 * (the autoscaler's: get_autogroup_logs, the CLI's form with its levels,
 * first; the docs' get_workergroup_logs when that is absent), polled and
 * paced as an endpoint log; `[`/`]` switch between open logs; `q` closes one, which stops
 * its polling.  Every open endpoint log is polled: the one shown every 3 s,
 * the others (all, while the view is hidden) every 15 s or more
 * (logfollow_interval: their rate together stays within a share of the
 * call's published rate); an answer that does not overlap what is held
 * gets a marker line before it ("--- lines may be missing here ... ---"),
 * on screen and in a saved file.  `v` cycles the streams of an endpoint
 * log (the docs' levels), each keeping its own lines.  Each log keeps
 * --log-lines lines and asks for that many (at most LP_TAIL_MAX). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_serverless.h"
#include "app.h"
#include "base/config.h"
#include "widgets/dialog.h"
#include "draw.h"
#include "poll/jobs.h"
#include "flow/logfollow.h"
#include "state/logtail.h"
#include "views/logs/logview.h"
#include "state/model.h"
#include "rules/workers.h"
#include "views/serverless/sv_tree.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"

#define LP_MAX 8                 /* open logs */
#define LP_ENDPOINT_S LOGFOLLOW_ENDPOINT_S /* the log shown: get_endpoint_logs every, s */
#define LP_INSTANCE_S 10.0       /* instance log refresh while following, s */
#define LP_TAIL_MAX 10000        /* lines asked for at most (--log-lines below it: that
				  * many): the endpoint log's default tail (the docs) */
#define LP_SLOW_S 8.0            /* no answer for this long (two polls and more): said */
#define LP_MATCHES 32            /* highlighted matches per row */

enum lp_kind { LK_ENDPOINT, LK_WORKERGROUP, LK_INSTANCE }; /* the first two: polled */
enum lp_phase { IP_IDLE, IP_REQUEST, IP_RESULT };
enum lp_modal { LM_NONE, LM_FILTER, LM_SAVE, LM_OVERWRITE };

/* The lines of a stream not shown (`v` keeps each stream's). */
struct lp_held {
	struct logtail *t;        /* NULL: never shown */
	struct logview lv;
	unsigned answers;
	double last_ok;
	size_t last_added;
	bool gap;
};

/* One open log. */
struct lp_log {
	enum lp_kind kind;
	char name[128];           /* the endpoint's name; "instance N" */
	long id;                  /* the endpoint's or the instance's id */
	struct logtail *t;
	struct logview lv;
	/* endpoint */
	int sub;                  /* jobs_subscribe id, 0: none */
	bool spec;                /* the CLI's form is absent here: the spec's form */
	bool spec_tried;          /* the spec's form was tried (and is absent too) */
	char first_err[300];      /* what the CLI's form answered, before trying the spec's */
	enum log_stream stream;   /* the stream shown (in t, lv and the counts below) */
	struct lp_held held[LOGS__COUNT]; /* the others' lines, fed from the same answers */
	bool sub_spec;            /* the subscription asks in the spec's form */
	double interval;          /* the subscription's poll interval, s */
	/* instance */
	int req;                  /* the one-shot call in flight, 0: none */
	enum lp_phase phase;
	char *url;                /* the result_url */
	int tries;                /* result_url tries answered, none 200 */
	double next_at;           /* monotonic s: the next instance step */
	/* what the status line says */
	double asked;             /* monotonic s: waiting for an answer since */
	double last_ok;           /* wall epoch of the last answer merged, 0: none */
	unsigned answers;         /* answers merged */
	size_t last_added;
	bool gap;                 /* the last answer did not overlap what was held */
	char err[300];            /* the last failure ("" after a success) */
	bool visible;             /* shown: the log view up and this log chosen */
};

struct lp_view {
	struct lp_log *logs[LP_MAX];
	int n, cur;
	bool shown;
	enum lp_modal modal;
	struct dialog dlg;
	char path[PATH_MAX];      /* the save path asked about */
	int h, w;                 /* the lines area last drawn (for scrolling) */
};

/* ---- mappers (poller thread) ------------------------------------------------ */

/* An endpoint log answer mapped: the text of every stream it carries
 * (secrets masked), NULL for the others. */
struct lp_texts {
	char *text[LOGS__COUNT];
};

static void free_texts(void *p)
{
	struct lp_texts *x = p;
	if (!x)
		return;
	for (int i = 0; i < LOGS__COUNT; i++)
		free(x->text[i]);
	free(x);
}

/* An endpoint log answer -> the texts of its streams; stream s (the one
 * shown) must be there. */
static void *map_stream(const json_t *root, enum log_stream s, struct api_error *e)
{
	if (api_logs_failure(root, e))
		return NULL;
	struct lp_texts *x = xcalloc(1, sizeof *x);
	unsigned has = api_log_streams(root);
	for (int i = 0; i < LOGS__COUNT; i++) {
		char *text = has & (1u << i) ? api_log_stream_text(root, (enum log_stream)i) : NULL;
		if (text) {
			x->text[i] = logview_mask_text(text);
			free(text);
		}
	}
	if (!x->text[s]) {
		free_texts(x);
		char m[80];
		snprintf(m, sizeof m, "the answer has no %s stream", api_log_stream_name(s));
		apierr_protocol(e, 200, m);
		return NULL;
	}
	return x;
}

static void *map_logs(const json_t *r, struct api_error *e) { return map_stream(r, LOGS_DEFAULT, e); }
static void *map_info0(const json_t *r, struct api_error *e) { return map_stream(r, LOGS_INFO0, e); }
static void *map_info1(const json_t *r, struct api_error *e) { return map_stream(r, LOGS_INFO1, e); }
static void *map_trace(const json_t *r, struct api_error *e) { return map_stream(r, LOGS_TRACE, e); }
static void *map_debug(const json_t *r, struct api_error *e) { return map_stream(r, LOGS_DEBUG, e); }

/* The mapper of a stream (a mapper takes no context). */
static jobs_map_fn stream_mapper(enum log_stream s)
{
	switch (s) {
	case LOGS_DEFAULT: return map_logs;
	case LOGS_INFO0: return map_info0;
	case LOGS_INFO1: return map_info1;
	case LOGS_TRACE: return map_trace;
	case LOGS_DEBUG: return map_debug;
	case LOGS__COUNT: break;
	}
	return map_logs;
}

/* request_logs' answer -> its result_url. */
static void *map_url(const json_t *root, struct api_error *e)
{
	char *u = api_instance_logs_url(root);
	if (!u)
		apierr_protocol(e, 200, "the answer has no result_url");
	return u;
}

/* The result_url's transfer -> the log text (a 404: not written yet). */
static void *map_result(const struct http_xfer *x, struct api_error *e)
{
	char *text = api_instance_logs_text(x, e);
	if (!text)
		return NULL;
	char *m = logview_mask_text(text);
	free(text);
	return m;
}

/* What a stream is (the docs' "levels": 0 the most detail, 3 the least;
 * the official CLI reads level N as info0, info1, trace, debug and shows
 * level 1 by default). */
static const char *stream_about(enum log_stream s)
{
	switch (s) {
	case LOGS_DEFAULT: return "the endpoint's log (info0 in the CLI's form)";
	case LOGS_INFO0: return "level 0 of 0-3, the most detail";
	case LOGS_INFO1: return "level 1 of 0-3, the CLI's default";
	case LOGS_TRACE: return "level 2 of 0-3";
	case LOGS_DEBUG: return "level 3 of 0-3, the least detail";
	case LOGS__COUNT: break;
	}
	return "";
}

/* ---- the logs and their requests ---------------------------------------------- */

/* A log's lines: --log-lines of them. */
static struct logtail *new_tail(const struct app *a)
{
	return logtail_new(a->cfg && a->cfg->log_lines > 0 ? (size_t)a->cfg->log_lines : 0);
}

static struct lp_log *cur_log(const struct lp_view *v)
{
	return v->n ? v->logs[v->cur] : NULL;
}

/* Lines asked for each time: --log-lines, at most LP_TAIL_MAX. */
static int tail_lines(const struct app *a)
{
	int n = a->cfg && a->cfg->log_lines > 0 ? a->cfg->log_lines : LOGTAIL_DEFAULT_LINES;
	return n < LP_TAIL_MAX ? n : LP_TAIL_MAX;
}

/* Open endpoint logs (the poll schedule spreads its budget over them). */
static int endpoint_logs(const struct lp_view *v)
{
	int n = 0;
	for (int i = 0; i < v->n; i++)
		n += v->logs[i]->kind != LK_INSTANCE;
	return n;
}

/* Does stream s of L come in the spec's form? (the levels exist in the
 * CLI's form only) */
static bool spec_form(const struct lp_log *L, enum log_stream s)
{
	return L->spec && s == LOGS_DEFAULT;
}

/* (Re)subscribe an endpoint log in its form and stream, at its interval. */
static void subscribe(struct app *a, struct lp_view *v, struct lp_log *L)
{
	if (!a->jobs)
		return;
	if (L->sub) {
		jobs_unsubscribe(a->jobs, L->sub);
		model_drop_result(a->m, L->sub);
		L->sub = 0;
	}
	bool spec = spec_form(L, L->stream);
	struct job_call c = { .call = L->kind == LK_WORKERGROUP
					      ? api_workergroup_logs(a->cfg, L->id, tail_lines(a), !spec)
				      : spec ? api_endpoint_logs(a->cfg, L->name, tail_lines(a))
					     : api_endpoint_logs_cli(a->cfg, L->id, tail_lines(a)),
			      .action = false, .map = stream_mapper(L->stream),
			      .free_value = free_texts };
	snprintf(c.what, sizeof c.what, "logs of %s %ld",
		 L->kind == LK_WORKERGROUP ? "workergroup" : "endpoint", L->id);
	L->visible = v->shown && cur_log(v) == L;
	L->interval = logfollow_interval(L->visible, endpoint_logs(v));
	if (jobs_subscribe(a->jobs, &c, L->interval, true, &L->sub) != JOBS_OK) {
		L->sub = 0;
		util_strlcpy(L->err, "could not queue the log request", sizeof L->err);
		return;
	}
	L->sub_spec = spec;
	L->asked = util_mono();
}

/* Every open endpoint log is polled: the one shown every LP_ENDPOINT_S, the
 * others less often (logfollow_interval: the rate of them all bounded). */
static void set_visibility(struct app *a, struct lp_view *v)
{
	int n = endpoint_logs(v);
	for (int i = 0; i < v->n; i++) {
		struct lp_log *L = v->logs[i];
		bool on = v->shown && i == v->cur;
		if (on && !L->visible)
			L->asked = util_mono(); /* the status line's "no answer for" */
		L->visible = on;
		if (L->kind == LK_INSTANCE || !L->sub || !a->jobs)
			continue;
		double want = logfollow_interval(on, n);
		if (want != L->interval)
			jobs_set_interval(a->jobs, L->sub, want);
		L->interval = want;
	}
}

/* Stop its polling, drop its results, free it. */
static void free_log(struct app *a, struct lp_log *L)
{
	if (a->jobs && L->sub)
		jobs_unsubscribe(a->jobs, L->sub);
	if (L->sub)
		model_drop_result(a->m, L->sub);
	if (L->req)
		model_drop_result(a->m, L->req);
	logtail_free(L->t);
	logview_free(&L->lv);
	for (int s = 0; s < LOGS__COUNT; s++) {
		logtail_free(L->held[s].t);
		logview_free(&L->held[s].lv);
	}
	free(L->url);
	free(L);
}

/* Merge one answer's text into a stream's lines; a gap (no overlap with
 * what is held: lines between the two answers may be lost) is marked by a
 * line of its own, saying how long nothing was read. */
static void merge_into(struct logtail *t, double *last_ok, size_t *last_added, bool *gap,
		       unsigned *answers, const char *text)
{
	double now = util_now();
	char since[32], line[120];
	fmt_duration(since, sizeof since, *last_ok > 0 ? now - *last_ok : 0);
	snprintf(line, sizeof line, "--- lines may be missing here (not polled for %s) ---", since);
	struct logtail_merge m;
	logtail_merge_gap(t, text, strlen(text), line, &m);
	*last_added = m.added;
	*gap = m.gap;
	(*answers)++;
	*last_ok = now;
}

/* Merge an answer into the stream shown, and into every other stream of L
 * whose lines are kept and that comes in the same form. */
static void merge(struct lp_log *L, const struct lp_texts *x)
{
	if (x->text[L->stream]) /* (the mapper of the stream shown requires it) */
		merge_into(L->t, &L->last_ok, &L->last_added, &L->gap, &L->answers,
			   x->text[L->stream]);
	for (int s = 0; s < LOGS__COUNT; s++) {
		struct lp_held *H = &L->held[s];
		if (s == (int)L->stream || !H->t || !x->text[s] ||
		    spec_form(L, (enum log_stream)s) != L->sub_spec)
			continue;
		merge_into(H->t, &H->last_ok, &H->last_added, &H->gap, &H->answers, x->text[s]);
	}
	L->err[0] = '\0';
}

/* Merge an instance log's text. */
static void merge_text(struct lp_log *L, const char *text)
{
	merge_into(L->t, &L->last_ok, &L->last_added, &L->gap, &L->answers, text);
	L->err[0] = '\0';
}

/* The failure of r, for the status line. */
static void set_err(struct lp_log *L, const struct call_result *r)
{
	char m[256];
	apierr_format(&r->err, m, sizeof m);
	util_strlcpy(L->err, m[0] ? m : "failed", sizeof L->err);
}

/* Send the instance log's next request when it is due. */
static void inst_step(struct app *a, struct lp_view *v, struct lp_log *L)
{
	double now = util_mono();
	if (!a->jobs || L->req || !v->shown || cur_log(v) != L)
		return;
	if (L->phase == IP_IDLE) {
		if (!L->lv.follow || now < L->next_at)
			return;
		L->phase = IP_REQUEST;
	}
	if (now < L->next_at)
		return;
	struct job_call c = { .action = false, .free_value = free };
	if (L->phase == IP_REQUEST) {
		c.call = api_instance_logs_request(a->cfg, L->id, tail_lines(a));
		c.map = map_url;
		snprintf(c.what, sizeof c.what, "logs of instance %ld", L->id);
	} else {
		char err[160];
		c.call = api_instance_logs_fetch(L->url, err, sizeof err);
		if (!c.call.url) {
			util_strlcpy(L->err, err, sizeof L->err);
			L->phase = IP_IDLE;
			L->next_at = now + LP_INSTANCE_S;
			return;
		}
		c.map_http = map_result;
		snprintf(c.what, sizeof c.what, "log copy of instance %ld", L->id);
	}
	if (jobs_call(a->jobs, &c, &L->req) != JOBS_OK) {
		L->req = 0;
		L->next_at = now + API_LOG_RESULT_DELAY_S;
		return;
	}
	L->asked = now;
}

/* Take the answers that arrived for L. */
static bool take(struct app *a, struct lp_log *L)
{
	struct call_result r;
	double now = util_mono();
	if (L->kind != LK_INSTANCE) {
		if (!L->sub || !model_take_result(a->m, L->sub, &r))
			return false;
		L->asked = now;
		bool first_form = !L->spec || L->stream != LOGS_DEFAULT;
		if (r.outcome == CALL_OK && r.value) {
			merge(L, r.value);
		} else if (r.err.cls != AE_NONE && api_logs_fall_back(&r.err) && first_form &&
			   L->stream == LOGS_DEFAULT && !L->spec_tried) {
			/* the CLI's form is absent: the spec's from now on */
			L->spec = L->spec_tried = true;
			set_err(L, &r);
			util_strlcpy(L->first_err, L->err, sizeof L->first_err);
			L->err[0] = '\0';
			model_call_result_free(&r);
			return true;
		} else if (r.err.cls != AE_NONE && api_logs_fall_back(&r.err) && !first_form) {
			/* neither form is there: back to the first, and what it said */
			L->spec = false;
			util_strlcpy(L->err, L->first_err, sizeof L->err);
		} else {
			set_err(L, &r);
		}
		model_call_result_free(&r);
		return true;
	}
	if (!L->req || !model_take_result(a->m, L->req, &r))
		return false;
	L->req = 0;
	if (L->phase == IP_REQUEST) {
		if (r.outcome == CALL_OK && r.value) {
			free(L->url);
			L->url = r.value;
			r.value = NULL;
			L->phase = IP_RESULT;
			L->tries = 0;
			L->next_at = now + API_LOG_RESULT_DELAY_S;
		} else {
			set_err(L, &r);
			L->phase = IP_IDLE;
			L->next_at = now + LP_INSTANCE_S;
		}
	} else if (r.outcome == CALL_OK) {
		merge_text(L, r.value ? r.value : "");
		L->phase = IP_IDLE;
		L->next_at = now + LP_INSTANCE_S;
	} else if (api_instance_logs_pending(&r.err) && ++L->tries < API_LOG_RESULT_TRIES) {
		L->next_at = now + API_LOG_RESULT_DELAY_S; /* not written yet */
	} else {
		if (api_instance_logs_pending(&r.err)) {
			char m[256];
			apierr_format(&r.err, m, sizeof m);
			snprintf(L->err, sizeof L->err, "the log did not appear in time (last: %s)", m);
		} else {
			set_err(L, &r);
		}
		L->phase = IP_IDLE;
		L->next_at = now + LP_INSTANCE_S;
	}
	model_call_result_free(&r);
	return true;
}

/* A new log (not yet polled). */
static struct lp_log *new_log(struct app *a, enum lp_kind kind, const char *name, long id)
{
	struct lp_log *L = xcalloc(1, sizeof *L);
	L->kind = kind;
	util_strlcpy(L->name, name, sizeof L->name);
	L->id = id;
	L->t = new_tail(a);
	logview_init(&L->lv);
	L->stream = LOGS_DEFAULT;
	L->phase = kind == LK_INSTANCE ? IP_REQUEST : IP_IDLE;
	L->next_at = util_mono();
	L->asked = util_mono();
	return L;
}

/* Show the log of (kind, id), opening it when it is not open. */
static void open_log(struct app *a, enum lp_kind kind, const char *name, long id)
{
	int vi = view_find(a, "logs");
	if (vi < 0)
		return;
	struct lp_view *v = a->views[vi].st;
	int found = -1;
	for (int i = 0; i < v->n; i++)
		if (v->logs[i]->kind == kind && v->logs[i]->id == id)
			found = i;
	if (found < 0) {
		if (v->n >= LP_MAX) {
			app_toast(a, ROLE_WARNING, 8, "%d logs are open: close one first (q)", LP_MAX);
			return;
		}
		struct lp_log *L = new_log(a, kind, name, id);
		v->logs[v->n] = L;
		found = v->n++;
		if (kind != LK_INSTANCE)
			subscribe(a, v, L);
	}
	v->cur = found;
	view_show(a, vi, 0);
	set_visibility(a, v);
	a->dirty |= DIRTY_ALL;
}

static const struct endpoint *endpoint_by_id(const struct snapshot *s, long id)
{
	for (size_t i = 0; s && i < s->nendpoints; i++)
		if (s->endpoints[i].id == id)
			return &s->endpoints[i];
	return NULL;
}

/* `L`: the log of the selected endpoint, workergroup or instance. */
static void run_open(struct app *a, enum action act)
{
	(void)act;
	const struct view *cur = view_current(a);
	const void *row = view_row(a);
	if (!cur || !row)
		return;
	if (cur->ops->instance_rows) {
		const struct instance *x = row;
		char name[64];
		snprintf(name, sizeof name, "instance %ld", x->id);
		open_log(a, LK_INSTANCE, name, x->id);
		return;
	}
	if (view_is(a, cur, "workers")) {
		const struct worker *w = row;
		char name[64];
		snprintf(name, sizeof name, "instance %ld", w->instance_id);
		if (w->instance_id > 0)
			open_log(a, LK_INSTANCE, name, w->instance_id);
		else
			app_toast(a, ROLE_WARNING, 6, "this worker names no instance");
		return;
	}
	if (view_is(a, cur, "serverless") && ((const struct sv_row *)row)->kind == SVR_WORKERGROUP) {
		/* the workergroup's own log (the autoscaler's), beside its endpoint's */
		const struct sv_row *r = row;
		const struct endpoint *e = endpoint_by_id(a->snap, r->endpoint_id);
		char name[128];
		snprintf(name, sizeof name, "wg %ld%s%.60s%s", r->id, e ? " (" : "",
			 e && e->endpoint_name ? e->endpoint_name : "", e ? ")" : "");
		open_log(a, LK_WORKERGROUP, name, r->id);
		return;
	}
	if (view_is(a, cur, "serverless")) {
		const struct sv_row *r = row;
		const struct endpoint *e = endpoint_by_id(a->snap, r->endpoint_id);
		if (!e) {
			app_toast(a, ROLE_WARNING, 8, "this workergroup has no endpoint to read logs of");
			return;
		}
		open_log(a, LK_ENDPOINT, e->endpoint_name ? e->endpoint_name : "", e->id);
	}
}

/* ---- the view ----------------------------------------------------------------- */

/* Take the answers that arrived; an instance log sends its next request. */
static void lp_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct lp_view *v = st;
	bool any = false;
	for (int i = 0; i < v->n; i++) {
		struct lp_log *L = v->logs[i];
		bool spec = L->spec;
		if (take(a, L))
			any = true;
		if (L->kind != LK_INSTANCE && L->spec != spec)
			subscribe(a, v, L);
		if (L->kind == LK_INSTANCE)
			inst_step(a, v, L);
	}
	if (any && v->shown)
		a->dirty |= DIRTY_BODY | DIRTY_HEADER;
}

/* Shown: every second (the status line's ages), or the instance log's next step. */
static double lp_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct lp_view *v = st;
	const struct lp_log *L = cur_log(v);
	if (!v->shown || !L)
		return -1;
	double now = util_mono(), at = now + 1.0; /* the status line's ages */
	if (L->kind == LK_INSTANCE && !L->req && L->next_at < at &&
	    (L->phase != IP_IDLE || L->lv.follow))
		at = L->next_at > now ? L->next_at : now;
	return at;
}

/* The time came: the instance log's step; the status redrawn. */
static void lp_wake(struct app *a, void *st)
{
	struct lp_view *v = st;
	struct lp_log *L = cur_log(v);
	if (L && L->kind == LK_INSTANCE)
		inst_step(a, v, L);
	if (v->shown)
		a->dirty |= DIRTY_BODY;
}

/* Shown: the log on screen is polled again (at once). */
static void lp_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	struct lp_view *v = st;
	v->shown = true;
	set_visibility(a, v);
	struct lp_log *L = cur_log(v);
	if (L && L->kind == LK_INSTANCE)
		inst_step(a, v, L);
}

/* Hidden: every endpoint log is polled at the background rate. */
static void lp_leave(struct app *a, void *st)
{
	struct lp_view *v = st;
	v->shown = false;
	set_visibility(a, v);
}

/* The status line of L: state, counts, age, error. */
static void status_text(const struct lp_view *v, const struct lp_log *L, char *buf, size_t n)
{
	double now = util_mono();
	char age[32] = "", state[360];
	if (L->last_ok > 0)
		fmt_duration(age, sizeof age, util_now() - L->last_ok);
	bool waiting = L->kind != LK_INSTANCE ? L->sub != 0 : L->req != 0;
	if (L->err[0])
		snprintf(state, sizeof state, "STALE: %s; lines kept%s%s", L->err,
			 age[0] ? ", updated " : "", age[0] ? age : "");
	else if (waiting && now - L->asked > LP_SLOW_S && L->answers)
		snprintf(state, sizeof state, "STALE: no answer for %.0fs; lines kept",
			 now - L->asked);
	else if (!L->answers && L->kind == LK_INSTANCE && L->phase == IP_RESULT)
		snprintf(state, sizeof state, "waiting for the log copy (%d/%d)", L->tries + 1,
			 API_LOG_RESULT_TRIES);
	else if (!L->answers)
		snprintf(state, sizeof state, "loading%s", now - L->asked > LP_SLOW_S ? " (slow)" : "...");
	else if (!L->lv.follow)
		snprintf(state, sizeof state, "following paused, G to resume");
	else if (L->kind == LK_INSTANCE)
		snprintf(state, sizeof state, "following (every %.0fs)", LP_INSTANCE_S);
	else
		snprintf(state, sizeof state, "following (every %.0fs)", LP_ENDPOINT_S);
	char extra[400] = "";
	if (L->lv.filter[0])
		snprintf(extra, sizeof extra, "  & %s: %zu of %zu", L->lv.filter,
			 logview_count(&L->lv), logtail_count(L->t));
	char stream[120] = "";
	if (L->kind != LK_INSTANCE)
		snprintf(stream, sizeof stream, "  %s: %s", api_log_stream_name(L->stream),
			 stream_about(L->stream));
	snprintf(buf, n, "%s  %zu lines%s%s%s%s%s", state, logtail_count(L->t),
		 L->gap ? "  (gap: lines may be missing)" : "", extra, v->shown && L->lv.wrap ? "  wrap" : "",
		 L->lv.show_time ? "" : "  no time", stream);
}

/* Draw s[from, to) at (y, x) with the search matches highlighted; returns cells used. */
static int draw_run(int y, int x, int maxw, const char *s, size_t from, size_t to,
		    const size_t *ms, const size_t *me, int nm, unsigned long base,
		    unsigned long hl)
{
	int used = 0;
	size_t p = from;
	while (p < to && used < maxw) {
		size_t q = to;
		bool in = false;
		for (int i = 0; i < nm; i++) {
			if (ms[i] <= p && p < me[i]) {
				in = true;
				q = me[i] < to ? me[i] : to;
				break;
			}
			if (ms[i] > p && ms[i] < q)
				q = ms[i];
		}
		char *piece = xstrndup(s + p, q - p);
		used += draw_text(y, x + used, maxw - used, piece, in ? hl : base);
		free(piece);
		p = q;
	}
	return used;
}

/* The colour of a line of that level. */
static unsigned long level_attr(enum logview_level l)
{
	switch (l) {
	case LVL_NONE: return theme_attr(ROLE_NORMAL);
	case LVL_DEBUG: return theme_attr(ROLE_DIM);
	case LVL_WARN: return theme_attr(ROLE_WARNING);
	case LVL_ERROR: return theme_attr(ROLE_ERROR);
	}
	return theme_attr(ROLE_NORMAL);
}

/* The tabs of the open logs on the first row. */
static void draw_tabs(const struct lp_view *v, const struct rect *r)
{
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_COLHEAD));
	int x = r->x;
	x += draw_text(r->y, x, r->w, " Logs: ", theme_attr(ROLE_COLHEAD));
	for (int i = 0; i < v->n && x < r->x + r->w; i++) {
		const struct lp_log *L = v->logs[i];
		char t[200];
		if (L->kind != LK_INSTANCE)
			snprintf(t, sizeof t, " %s%s%s ", L->name,
				 L->stream != LOGS_DEFAULT ? ":" : "",
				 L->stream != LOGS_DEFAULT ? api_log_stream_name(L->stream) : "");
		else
			snprintf(t, sizeof t, " %s ", L->name);
		x += draw_text(r->y, x, r->x + r->w - x, t,
			       theme_attr(i == v->cur ? ROLE_TAB_ACTIVE : ROLE_TAB));
		x += draw_text(r->y, x, r->x + r->w - x, " ", theme_attr(ROLE_COLHEAD));
	}
	if (v->n > 1 && x + 18 < r->x + r->w)
		draw_text(r->y, x, r->x + r->w - x, " [ ] switch", theme_attr(ROLE_COLHEAD));
}

/* The tabs, the lines (wrapped or cut, matches highlighted, levels in
 * colour) and the status line of the log shown. */
static void lp_draw(struct app *a, void *st, const struct rect *r)
{
	(void)a;
	struct lp_view *v = st;
	int end = r->y + r->h;
	struct lp_log *L = cur_log(v);
	if (!L) {
		draw_fill(r->y, r->x, r->w, theme_attr(ROLE_COLHEAD));
		draw_text(r->y, r->x, r->w, " Logs", theme_attr(ROLE_COLHEAD));
		for (int y = r->y + 1; y < end; y++)
			draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		if (r->h > 2)
			draw_text(r->y + 2, r->x + 2, r->w - 2,
				  "No log is open: L on an endpoint or workergroup (view 4) or on an "
				  "instance, or :logs NAME.",
				  theme_attr(ROLE_DIM));
		return;
	}
	draw_tabs(v, r);
	int top = r->y + 1, h = r->h - 2, w = r->w - 1;
	if (h < 1 || w < 1)
		return;
	v->h = h;
	v->w = w;
	size_t k;
	int skip;
	logview_window(&L->lv, L->t, h, w, &k, &skip);
	size_t n = logview_count(&L->lv);
	int y = top;
	unsigned long hl = theme_attr(ROLE_SELECTION);
	uint64_t first = logtail_first_seq(L->t);
	for (; k < n && y < top + h; k++) {
		size_t li = logview_line(&L->lv, k);
		const char *s = logview_text(&L->lv, logtail_line(L->t, li));
		size_t ms[LP_MATCHES], me[LP_MATCHES];
		int nm = logview_matches(&L->lv, s, ms, me, LP_MATCHES);
		bool cur_match = L->lv.match_seq && first + li == L->lv.match_seq;
		unsigned long base = logtail_is_marker(L->t, li) ? theme_attr(ROLE_WARNING)
								: level_attr(logview_level(s));
		size_t starts[256];
		int rows = L->lv.wrap ? logview_wrap_starts(s, w, starts, 256) : 1;
		if (!L->lv.wrap)
			starts[0] = 0;
		size_t len = strlen(s);
		for (int row = skip; row < rows && y < top + h; row++, y++) {
			draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
			if (cur_match && row == skip)
				draw_text(y, r->x, 1, ">", theme_attr(ROLE_MARKER));
			size_t to = row + 1 < rows ? starts[row + 1] : len;
			draw_run(y, r->x + 1, w, s, starts[row], to, ms, me, nm, base, hl);
		}
		skip = 0;
	}
	for (; y < top + h; y++)
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (!n && h > 1)
		draw_text(top + h / 2, r->x + 2, w - 1,
			  L->lv.filter[0] ? "no line matches the filter (& to change it)"
			  : L->answers    ? "no lines yet"
					  : "waiting for the log...",
			  theme_attr(ROLE_DIM));
	char st_text[1200];
	status_text(v, L, st_text, sizeof st_text);
	bool bad = L->err[0] || strncmp(st_text, "STALE", 5) == 0;
	draw_fill(end - 1, r->x, r->w, theme_attr(ROLE_COLHEAD));
	draw_text(end - 1, r->x + 1, r->w - 1, st_text,
		  theme_attr(bad ? ROLE_WARNING : L->lv.follow ? ROLE_COLHEAD : ROLE_HINT));
}

/* ---- actions -------------------------------------------------------------------- */

enum lp_act {
	LA_CLOSE, LA_NEXT, LA_PREV, LA_FOLLOW, LA_SEARCH, LA_SEARCH_NEXT, LA_SEARCH_PREV, LA_FILTER, LA_WRAP,
	LA_TIME, LA_SAVE, LA_CLEAR, LA_STREAM, LA_REFRESH, LA__COUNT
};

/* The log view's action table. */
static enum action ids[LA__COUNT];
#define ROW(e, k, nm, hl, hn, fl) \
	[e] = { { .name = nm, .help = hl, .hint = hn, .flags = fl }, k, NULL, &ids[e] }
static const struct action_row lp_rows[LA__COUNT] = {
	ROW(LA_CLOSE, "q", "log-close", "close this log (stops its polling)", "close", AF_HINT),
	ROW(LA_NEXT, "]", "log-next", "the next open log", NULL, 0),
	ROW(LA_PREV, "[", "log-prev", "the previous open log", NULL, 0),
	ROW(LA_FOLLOW, "F", "log-follow", "follow the end of the log again (also G, End)", "follow", 0),
	ROW(LA_SEARCH, "/", "log-search",
	    "search the log (as less's /): the matches highlighted, the first one shown", NULL, 0),
	ROW(LA_SEARCH_NEXT, "n", "log-search-next", "the next line matching the / search", NULL, 0),
	ROW(LA_SEARCH_PREV, "N", "log-search-prev", "the previous line matching the / search", NULL, 0),
	ROW(LA_FILTER, "&", "log-filter", "show only the lines containing a text (as less's &)",
	    "filter", AF_HINT),
	ROW(LA_WRAP, "w", "log-wrap", "wrap long lines or cut them", "wrap", AF_HINT),
	ROW(LA_TIME, "t", "log-time", "show or hide the time column", NULL, 0),
	ROW(LA_SAVE, "s", "log-save", "save the lines shown to a file (asks before overwriting)",
	    "save", AF_HINT),
	ROW(LA_CLEAR, "c", "log-clear", "clear the view (only new lines are shown)", "clear", 0),
	ROW(LA_STREAM, "v", "log-stream",
	    "endpoint logs: the next stream: logs, or a level: info0 (0, most detail), info1 "
	    "(1, the CLI's default), trace (2), debug (3, least); each keeps its lines",
	    "stream", 0),
	ROW(LA_REFRESH, "r", "log-refresh", "fetch the log now", NULL, 0),
};
#undef ROW

/* L: a row of no table of this view (it lives in other views' contexts). */
static const struct action_row open_row = {
	{ .name = "logs-open",
	  .help = "open the log of the endpoint, workergroup or instance (follows it)",
	  .hint = "logs", .flags = AF_NEEDS_SEL | AF_HINT, .run = run_open },
	"L", NULL, NULL,
};

/* `v`: show stream s of L; the lines of the stream left are kept (and fed
 * by the answers that carry it), those of s come back as they were. */
static void switch_stream(struct app *a, struct lp_log *L, enum log_stream s)
{
	struct lp_held *old = &L->held[L->stream], *H = &L->held[s];
	*old = (struct lp_held){ .t = L->t, .lv = L->lv, .answers = L->answers,
				 .last_ok = L->last_ok, .last_added = L->last_added,
				 .gap = L->gap };
	if (H->t) {
		L->t = H->t;
		L->lv = H->lv;
		L->answers = H->answers;
		L->last_ok = H->last_ok;
		L->last_added = H->last_added;
		L->gap = H->gap;
	} else {
		L->t = new_tail(a);
		logview_init(&L->lv);
		L->answers = 0;
		L->last_ok = 0;
		L->last_added = 0;
		L->gap = false;
	}
	*H = (struct lp_held){ .t = NULL };
	L->lv.wrap = old->lv.wrap; /* the display choices stay */
	L->lv.show_time = old->lv.show_time;
	L->stream = s;
}

/* Close the log shown; the last one closed returns to the first view. */
static void close_log(struct app *a, struct lp_view *v)
{
	if (!v->n)
		return;
	free_log(a, v->logs[v->cur]);
	for (int i = v->cur; i + 1 < v->n; i++)
		v->logs[i] = v->logs[i + 1];
	v->n--;
	if (v->cur >= v->n)
		v->cur = v->n ? v->n - 1 : 0;
	if (!v->n) {
		view_show(a, 0, 0);
		return;
	}
	set_visibility(a, v);
}

/* `s`: the path prompt, with ./NAME-DATE.log proposed. */
static void save_prompt(struct app *a, struct lp_view *v, struct lp_log *L)
{
	(void)a;
	char def[300], name[200];
	logtail_default_name(name, sizeof name, L->name, util_now());
	snprintf(def, sizeof def, "./%s", name);
	char text[300];
	snprintf(text, sizeof text, "Save the %zu lines shown to:", logview_count(&L->lv));
	dialog_input(&v->dlg, LM_SAVE, 0, "Save log", text, def, 1000);
	v->modal = LM_SAVE;
}

/* Write the shown lines to v->path; 1: it exists (ask). */
static int save(struct app *a, struct lp_view *v, struct lp_log *L, bool overwrite)
{
	char err[300];
	logview_sync(&L->lv, L->t, false);
	int rc = logtail_save(L->t, L->lv.idx, logview_count(&L->lv), v->path, overwrite, err,
			      sizeof err);
	if (rc == 0)
		app_toast(a, ROLE_OK, 6, "saved %zu lines to %s", logview_count(&L->lv), v->path);
	else if (rc < 0)
		app_toast(a, ROLE_ERROR, 10, "not saved: %s", err);
	return rc;
}

static void lp_search(struct app *a, void *st, const char *text);
static void lp_search_edit(struct app *a, void *st, const char *text);

/* Scrolling (pauses following), G (follows) and the log keys. */
static bool lp_action(struct app *a, void *st, enum action act)
{
	struct lp_view *v = st;
	struct lp_log *L = cur_log(v);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS | DIRTY_HEADER;
	if (!L)
		return act == ids[LA_CLOSE] ? (view_show(a, 0, 0), true) : false;
	int h = v->h > 0 ? v->h : 10, w = v->w > 0 ? v->w : 80;
	long page = h > 1 ? h - 1 : 1;
	if (keymap_action_builtin(act)) {
		switch (act) {
		case ACT_UP: logview_scroll(&L->lv, L->t, h, w, -1); break;
		case ACT_DOWN: logview_scroll(&L->lv, L->t, h, w, 1); break;
		case ACT_PAGE_UP: logview_scroll(&L->lv, L->t, h, w, -page); break;
		case ACT_PAGE_DOWN: logview_scroll(&L->lv, L->t, h, w, page); break;
		case ACT_TOP: logview_top(&L->lv, L->t); break;
		case ACT_BOTTOM: logview_follow(&L->lv); break;
		case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
		case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
		case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
		case ACT_SORT_INVERT:
			return false;
		}
		if (L->kind == LK_INSTANCE)
			inst_step(a, v, L); /* following again: its refresh, when due */
		return true;
	}
	int la = keymap_action_row_of(lp_rows, LA__COUNT, act);
	if (la < 0)
		return false;
	switch ((enum lp_act)la) {
	case LA_CLOSE: close_log(a, v); break;
	case LA_NEXT:
	case LA_PREV:
		v->cur = (v->cur + (la == LA_NEXT ? 1 : v->n - 1)) % v->n;
		set_visibility(a, v);
		break;
	case LA_FOLLOW:
		logview_follow(&L->lv);
		if (L->kind == LK_INSTANCE)
			inst_step(a, v, L);
		break;
	case LA_SEARCH: view_search_prompt(a, L->lv.search, lp_search, lp_search_edit); break;
	case LA_SEARCH_NEXT:
	case LA_SEARCH_PREV: {
		if (!L->lv.search[0]) {
			app_toast(a, ROLE_WARNING, 5, "no search: / first");
			break;
		}
		bool wrapped;
		if (!logview_next_match(&L->lv, L->t, h, w, la == LA_SEARCH_NEXT ? 1 : -1, &wrapped))
			app_toast(a, ROLE_WARNING, 5, "pattern not found: %s", L->lv.search);
		else if (wrapped)
			app_toast(a, ROLE_DIM, 3, "search wrapped");
		break;
	}
	case LA_FILTER:
		dialog_input(&v->dlg, LM_FILTER, 0, "Filter",
			     "Show only lines containing (empty: all lines):", L->lv.filter,
			     LOGVIEW_PAT - 1);
		v->modal = LM_FILTER;
		break;
	case LA_WRAP: L->lv.wrap = !L->lv.wrap; break;
	case LA_TIME: L->lv.show_time = !L->lv.show_time; break;
	case LA_SAVE: save_prompt(a, v, L); break;
	case LA_CLEAR: logview_clear(&L->lv, L->t); break;
	case LA_STREAM:
		if (L->kind == LK_INSTANCE) {
			app_toast(a, ROLE_WARNING, 5, "an instance log has one stream");
			break;
		}
		switch_stream(a, L, (enum log_stream)((L->stream + 1) % LOGS__COUNT));
		L->err[0] = '\0';
		subscribe(a, v, L);
		app_toast(a, ROLE_DIM, 6, "stream %s: %s", api_log_stream_name(L->stream),
			  stream_about(L->stream));
		break;
	case LA_REFRESH:
		if (L->kind != LK_INSTANCE && L->sub && a->jobs) {
			/* hidden and shown again: due at once (unless one is in flight) */
			jobs_set_visible(a->jobs, L->sub, false);
			jobs_set_visible(a->jobs, L->sub, true);
		} else if (L->kind == LK_INSTANCE && !L->req) {
			if (L->phase == IP_IDLE)
				L->phase = IP_REQUEST;
			L->next_at = util_mono();
			inst_step(a, v, L);
		}
		app_toast(a, ROLE_DIM, 3, "fetching the log...");
		break;
	case LA__COUNT: break;
	}
	return true;
}

/* The filter prompt, the save prompt and the overwrite confirmation. */
static bool lp_modal_key(struct app *a, void *st, int key)
{
	struct lp_view *v = st;
	struct lp_log *L = cur_log(v);
	if (v->modal == LM_NONE)
		return false;
	if (!L) {
		v->modal = LM_NONE;
		dialog_close(&v->dlg);
		return true;
	}
	enum dlg_result r = dialog_key(&v->dlg, key);
	if (r == DLG_CONTINUE)
		return true;
	enum lp_modal m = v->modal;
	if (r == DLG_CANCEL) {
		v->modal = LM_NONE;
		dialog_close(&v->dlg);
		if (m == LM_OVERWRITE)
			app_toast(a, ROLE_DIM, 5, "not saved");
		return true;
	}
	switch (m) {
	case LM_NONE: break;
	case LM_FILTER:
		logview_set_filter(&L->lv, L->t, v->dlg.tb.s);
		v->modal = LM_NONE;
		dialog_close(&v->dlg);
		break;
	case LM_SAVE: {
		const char *p = v->dlg.tb.s;
		while (*p == ' ')
			p++;
		if (!*p) {
			util_strlcpy(v->dlg.error, "a file name is needed", sizeof v->dlg.error);
			return true;
		}
		if (p[0] == '~' && p[1] == '/' && getenv("HOME"))
			snprintf(v->path, sizeof v->path, "%s%s", getenv("HOME"), p + 1);
		else
			util_strlcpy(v->path, p, sizeof v->path);
		int rc = save(a, v, L, false);
		if (rc == 1) {
			char q[PATH_MAX + 64];
			snprintf(q, sizeof q, "%s exists. Overwrite it?", v->path);
			dialog_confirm(&v->dlg, LM_OVERWRITE, 0, "Overwrite file", q, "Overwrite");
			v->modal = LM_OVERWRITE;
			return true;
		}
		v->modal = LM_NONE;
		dialog_close(&v->dlg);
		break;
	}
	case LM_OVERWRITE:
		save(a, v, L, true);
		v->modal = LM_NONE;
		dialog_close(&v->dlg);
		break;
	}
	return true;
}

static bool lp_modal_draw(struct app *a, void *st)
{
	struct lp_view *v = st;
	if (v->modal == LM_NONE || !dialog_open(&v->dlg))
		return false;
	dialog_draw(&v->dlg, &a->lay);
	return v->dlg.kind == DLG_INPUT;
}

/* `/` (the log's search line) as it is typed: the matches highlighted. */
static void lp_search_edit(struct app *a, void *st, const char *text)
{
	struct lp_view *v = st;
	struct lp_log *L = cur_log(v);
	if (!L)
		return;
	logview_set_search(&L->lv, text);
	a->dirty |= DIRTY_BODY;
}

/* Enter in the `/` line: the search highlighted, and the first match from
 * the window. */
static void lp_search(struct app *a, void *st, const char *text)
{
	struct lp_view *v = st;
	struct lp_log *L = cur_log(v);
	if (!L)
		return;
	logview_set_search(&L->lv, text);
	a->dirty |= DIRTY_BODY;
	if (!text[0])
		return;
	bool wrapped;
	int h = v->h > 0 ? v->h : 10, w = v->w > 0 ? v->w : 80;
	if (!logview_next_match(&L->lv, L->t, h, w, 1, &wrapped))
		app_toast(a, ROLE_WARNING, 5, "pattern not found: %s", text);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

/* `:logs NAME`: an endpoint by name or id, else an instance by id. */
static void lp_command(struct app *a, void *st, const char *args)
{
	(void)st;
	char name[128];
	util_strlcpy(name, args, sizeof name);
	size_t l = strlen(name);
	while (l && (name[l - 1] == ' ' || name[l - 1] == '\t'))
		name[--l] = '\0';
	if (!name[0])
		return;
	const struct snapshot *s = a->snap;
	char *end;
	long id = strtol(name, &end, 10);
	bool num = *end == '\0';
	for (size_t i = 0; s && i < s->nendpoints; i++) {
		const struct endpoint *e = &s->endpoints[i];
		if ((e->endpoint_name && strcmp(e->endpoint_name, name) == 0) || (num && e->id == id)) {
			open_log(a, LK_ENDPOINT, e->endpoint_name ? e->endpoint_name : "", e->id);
			return;
		}
	}
	if (num && s && model_snapshot_find(s, id)) {
		char n2[64];
		snprintf(n2, sizeof n2, "instance %ld", id);
		open_log(a, LK_INSTANCE, n2, id);
		return;
	}
	app_toast(a, ROLE_ERROR, 8, "no endpoint or instance named %s%s", name,
		  s && s->fresh[SRC_ENDPOINTS].last_ok <= 0 ? " (endpoints not loaded yet)" : "");
}

/* The log keys here; L in the serverless, instances and detail contexts. */
static void lp_keys(struct keymap *km, int ctx)
{
	(void)ctx; /* its own keys: lp_rows */
	/* `L` where there is something with a log: the serverless tree, the
	 * instance table and its detail (those contexts are registered before
	 * this one: VIEWS order) */
	static const char *const where[] = { "serverless", "workers", "instances", "detail", NULL };
	view_bind_in(km, &open_row, where, false);
}

static void lp_tab(const struct app *a, const void *st, char *buf, size_t n)
{
	(void)a;
	const struct lp_view *v = st;
	if (v->n)
		snprintf(buf, n, "%d", v->n);
	else
		buf[0] = '\0';
}

static void *lp_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct lp_view));
}

static void lp_fini(struct app *a, void *st)
{
	struct lp_view *v = st;
	for (int i = 0; i < v->n; i++)
		free_log(a, v->logs[i]);
	free(v);
}

const struct view_ops view_logs = {
	.name = "logs",
	.title = "Logs",
	.heading = "Log view",
	.number_key = '6',
	.ctx_flags = CTXF_LIST,
	.actions = lp_rows,
	.nactions = LA__COUNT,
	.keys = lp_keys,
	.init = lp_init,
	.fini = lp_fini,
	.enter = lp_enter,
	.leave = lp_leave,
	.on_snapshot = lp_snapshot,
	.next_wake = lp_next_wake,
	.on_wake = lp_wake,
	.draw = lp_draw,
	.action = lp_action,
	.command = lp_command,
	.modal_key = lp_modal_key,
	.modal_draw = lp_modal_draw,
	.tab_text = lp_tab,
};
