/* pane_workers.c: the workers of one endpoint, an overlay opened with Enter
 * on an endpoint of the serverless view (or W, or `:workers NAME|ID`): one
 * row per worker of get_endpoint_workers (rules/workers.h): id, state (every
 * documented state, coloured by its class: ready, starting, updating,
 * stopped, error), current load and its rolling average, perf and measured
 * perf, requests in flight, disk use, reliability, uptime, GPU, $/h, the
 * instance, and the status message of a worker in ERROR (sanitised).  The
 * title sums the endpoint's cost per hour over its workers.  Fetched through
 * jobs_subscribe every WK_POLL_S while shown (unsubscribed when it closes);
 * a failure keeps the rows, said stale.  Enter on a worker opens its
 * instance's detail (when the instance list has it; Esc there returns
 * here, view_open_from); L its container log
 * (pane_logs.c binds L here).  Below the rows, when the terminal has the
 * room, the endpoint's last hour as three column charts (load, workers,
 * $/h) from the series the serverless view keeps.  q or Esc returns to the
 * tree.  UI thread. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_serverless.h"
#include "app.h"
#include "draw.h"
#include "poll/jobs.h"
#include "rules/workers.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "views/serverless/sv_tree.h"
#include "widgets/chart.h"
#include "widgets/list.h"

#define WK_POLL_S 5.0   /* s between worker fetches while shown */
#define WK_STALE_S 20.0 /* s without an answer before the rows are said stale */

struct wk_list {
	struct worker *v;
	size_t n;
};

struct wk_view {
	long endpoint_id;
	char name[128];         /* sanitised */
	int sub;                /* jobs_subscribe id, 0: none */
	struct wk_list w;       /* the last answer */
	bool have;
	double when;            /* wall epoch of w */
	char err[256];          /* the last failure, "" after a success */
	struct list list;
};

static void wk_free_list(void *p)
{
	struct wk_list *l = p;
	if (!l)
		return;
	free(l->v);
	free(l);
}

/* Mapper (poller thread): the worker list. */
static void *map_workers(const json_t *root, struct api_error *e)
{
	struct wk_list *l = xcalloc(1, sizeof *l);
	if (!workers_decode(root, &l->v, &l->n)) {
		free(l);
		apierr_protocol(e, 200, "unexpected get_endpoint_workers answer");
		return NULL;
	}
	return l;
}

static void wk_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct wk_view *v = ctx;
	const struct worker *w = &v->w.v[i];
	char st[40], gpu[48];
	snprintf(buf, n, "%ld %s %s %ld %s", w->id, workers_cell(w, WK_STATE, st, sizeof st),
		 workers_cell(w, WK_GPU, gpu, sizeof gpu), w->instance_id, w->status_msg);
}

static long wk_id(const void *ctx, size_t i)
{
	const struct wk_view *v = ctx;
	return v->w.v[i].id;
}

static const struct list_ops wk_list_ops = { wk_text, NULL, NULL, wk_id };

static void unsubscribe(struct app *a, struct wk_view *v)
{
	if (!v->sub)
		return;
	if (a->jobs)
		jobs_unsubscribe(a->jobs, v->sub);
	model_drop_result(a->m, v->sub);
	v->sub = 0;
}

static void clear_rows(struct wk_view *v)
{
	free(v->w.v);
	v->w.v = NULL;
	v->w.n = 0;
	v->have = false;
	v->err[0] = '\0';
	list_set_count(&v->list, 0);
}

static const struct endpoint *endpoint_of(const struct app *a, long id)
{
	for (size_t i = 0; a->snap && i < a->snap->nendpoints; i++)
		if (a->snap->endpoints[i].id == id)
			return &a->snap->endpoints[i];
	return NULL;
}

/* Follow endpoint id: its rows, fetched every WK_POLL_S from now. */
static void follow(struct app *a, struct wk_view *v, long id)
{
	unsubscribe(a, v);
	if (id != v->endpoint_id)
		clear_rows(v);
	v->endpoint_id = id;
	const struct endpoint *e = endpoint_of(a, id);
	char *nm = util_sanitize(e && e->endpoint_name ? e->endpoint_name : "");
	util_strlcpy(v->name, nm, sizeof v->name);
	free(nm);
	if (!a->jobs || id <= 0)
		return;
	struct job_call c = { .call = api_endpoint_workers(a->cfg, id), .action = false,
			      .map = map_workers, .free_value = wk_free_list };
	snprintf(c.what, sizeof c.what, "workers of endpoint %ld", id);
	if (jobs_subscribe(a->jobs, &c, WK_POLL_S, true, &v->sub) != JOBS_OK) {
		v->sub = 0;
		util_strlcpy(v->err, "could not queue the worker request", sizeof v->err);
	}
}

static void take(struct app *a, struct wk_view *v)
{
	struct call_result r;
	if (!v->sub || !model_take_result(a->m, v->sub, &r))
		return;
	if (r.outcome == CALL_OK && r.value) {
		struct wk_list *l = r.value;
		free(v->w.v);
		v->w = *l;
		l->v = NULL;
		v->have = true;
		v->when = r.when;
		v->err[0] = '\0';
		list_set_count(&v->list, v->w.n);
	} else {
		/* a failure keeps the rows shown (a 429 never blanks them) */
		apierr_format(&r.err, v->err, sizeof v->err);
		if (!v->err[0])
			util_strlcpy(v->err, "failed", sizeof v->err);
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_BODY;
}

/* The colour of a worker's state. */
static enum role state_role(enum worker_state s)
{
	switch (workers_state_class(s)) {
	case WC_READY: return ROLE_RUNNING;
	case WC_STARTING: return ROLE_LOADING;
	case WC_UPDATING: return ROLE_PENDING;
	case WC_STOPPED: return ROLE_STOPPED;
	case WC_ERROR: return ROLE_FAILED;
	case WC_OTHER: break;
	}
	return ROLE_WARNING;
}

/* Column widths (the message takes the rest); right-aligned figures. */
static const int col_w[WK__COUNT] = {
	[WK_ID] = 7, [WK_STATE] = 16, [WK_LOAD] = 6, [WK_AVG] = 6, [WK_PERF] = 6, [WK_MPERF] = 8,
	[WK_REQS] = 4, [WK_DISK] = 7, [WK_REL] = 6, [WK_UPTIME] = 7, [WK_GPU] = 11, [WK_DPH] = 6,
	[WK_INSTANCE] = 8, [WK_MSG] = 0,
};

static bool col_right(enum worker_col c)
{
	switch (c) {
	case WK_ID: case WK_LOAD: case WK_AVG: case WK_PERF: case WK_MPERF: case WK_REQS:
	case WK_DISK: case WK_REL: case WK_UPTIME: case WK_DPH: case WK_INSTANCE:
		return true;
	case WK_STATE: case WK_GPU: case WK_MSG: case WK__COUNT:
		break;
	}
	return false;
}

struct wk_draw_ctx {
	const struct wk_view *v;
	const struct rect *r;
};

static void wk_line(void *dctx, size_t i, bool sel, int y)
{
	const struct wk_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	unsigned long base = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, r->x, r->w, base);
	if (i == LIST_NONE)
		return;
	const struct worker *w = &d->v->w.v[i];
	int x = r->x + 1, end = r->x + r->w;
	for (int c = 0; c < WK__COUNT && x < end; c++) {
		char cell[220];
		workers_cell(w, (enum worker_col)c, cell, sizeof cell);
		int cw = col_w[c] ? col_w[c] : end - x;
		if (cw > end - x)
			cw = end - x;
		unsigned long attr = base;
		if (!sel && (c == WK_STATE || c == WK_MSG))
			attr = theme_attr(state_role(w->state));
		draw_cell(y, x, cw, cell, col_right((enum worker_col)c), attr);
		x += cw + 1;
	}
}

#define WK_CHART_H 5      /* rows of each chart */
#define WK_CHART_MIN_H 16 /* the body rows from which the charts are drawn */

/* The endpoint's last hour (kept by the serverless view while shown): its
 * load, worker count and $/h, three column charts side by side from y, a
 * title row above each ("load, last hour (max 50)"). */
static void draw_charts(struct app *a, const struct wk_view *v, int y, const struct rect *r)
{
	const struct sv_ep_series *s = pane_serverless_series(a, v->endpoint_id);
	int each = (r->w - 4) / 3;
	if (!s || each < 8)
		return;
	const struct seriesf *f[3] = { &s->load, &s->workers, &s->cost };
	static const char *const label[3] = { "load", "workers", "$/h" };
	double now = util_now();
	for (int y2 = y; y2 <= y + WK_CHART_H; y2++)
		draw_fill(y2, r->x, r->w, theme_attr(ROLE_NORMAL));
	size_t ncols = (size_t)each < SERIES_BUCKETS ? (size_t)each : SERIES_BUCKETS;
	for (int k = 0; k < 3; k++) {
		double vals[SERIES_BUCKETS];
		seriesf_values(f[k], now, vals, ncols);
		double hi = chart_nice_max(vals, ncols);
		int x = r->x + 1 + k * (each + 1);
		char t[80];
		snprintf(t, sizeof t, "%s, last hour (max %g)", label[k], hi);
		draw_cell(y, x, each, t, false, theme_attr(ROLE_DIM));
		chart_draw(y + 1, x, WK_CHART_H, vals, ncols, 0, hi, draw_ascii(),
			   theme_attr(ROLE_RUNNING));
	}
}

static void wk_draw(struct app *a, void *st, const struct rect *r)
{
	struct wk_view *v = st;
	double dph = 0;
	size_t priced = workers_cost(v->w.v, v->w.n, &dph);
	char title[700], cost[64] = "";
	if (v->have && priced)
		snprintf(cost, sizeof cost, ", $%.3f/h", dph);
	double age = util_now() - v->when;
	char fresh[300] = "";
	if (v->err[0])
		snprintf(fresh, sizeof fresh, "  STALE: %s", v->err);
	else if (v->have && age > WK_STALE_S)
		snprintf(fresh, sizeof fresh, "  (stale %.0fs)", age);
	snprintf(title, sizeof title, " Workers of %s (%ld): %zu worker%s%s%s  (Enter: instance, L: log, q: back)",
		 v->name[0] ? v->name : "-", v->endpoint_id, v->w.n, v->w.n == 1 ? "" : "s", cost,
		 fresh);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	if (r->h < 3)
		return;
	int x = r->x + 1, end = r->x + r->w;
	draw_fill(r->y + 1, r->x, r->w, theme_attr(ROLE_DIM));
	for (int c = 0; c < WK__COUNT && x < end; c++) {
		int cw = col_w[c] ? col_w[c] : end - x;
		if (cw > end - x)
			cw = end - x;
		draw_cell(r->y + 1, x, cw, workers_col_title((enum worker_col)c),
			  col_right((enum worker_col)c), theme_attr(ROLE_DIM));
		x += cw + 1;
	}
	/* the endpoint's last hour below the rows, when there is room */
	int ch = r->h >= WK_CHART_MIN_H ? WK_CHART_H + 1 : 0;
	struct wk_draw_ctx d = { v, r };
	list_draw(&v->list, r->y + 2, r->h - 2 - ch, wk_line, &d);
	if (ch)
		draw_charts(a, v, r->y + r->h - ch, r);
	if (!v->w.n)
		draw_text(r->y + 2, r->x + 1, r->w - 1,
			  v->have ? "no workers" : v->err[0] ? v->err : "loading workers...",
			  theme_attr(v->err[0] ? ROLE_WARNING : ROLE_DIM));
}

static const struct worker *wk_sel(const struct wk_view *v)
{
	size_t i = list_selected(&v->list);
	return i != LIST_NONE && i < v->w.n ? &v->w.v[i] : NULL;
}

enum { WR_OPEN, WR__COUNT };
static enum action wk_ids[WR__COUNT];
static const struct action_row wk_rows[WR__COUNT] = {
	[WR_OPEN] = { { .name = "worker-instance", .help = "open the worker's instance detail",
			.hint = "instance", .flags = AF_NEEDS_SEL | AF_HINT },
		      "Enter", NULL, &wk_ids[WR_OPEN] },
};

static bool wk_action(struct app *a, void *st, enum action act)
{
	struct wk_view *v = st;
	const struct worker *w = wk_sel(v);
	switch (keymap_action_row_of(wk_rows, WR__COUNT, act)) {
	case WR_OPEN:
		if (!w)
			return true;
		if (w->instance_id <= 0)
			app_toast(a, ROLE_WARNING, 6, "worker %ld names no instance", w->id);
		else if (a->snap && model_snapshot_find(a->snap, w->instance_id))
			view_open_from(a, "detail", w->instance_id, v->endpoint_id); /* Esc: back here */
		else
			app_toast(a, ROLE_WARNING, 8,
				  "instance %ld of worker %ld is not in the instance list (yet): L reads "
				  "its log",
				  w->instance_id, w->id);
		return true;
	default: break;
	}
	return false;
}

static struct list *wk_list(struct app *a, void *st)
{
	(void)a;
	return &((struct wk_view *)st)->list;
}

static const void *wk_selected(const struct app *a, const void *st)
{
	(void)a;
	return wk_sel(st);
}

static void *wk_init(struct app *a)
{
	(void)a;
	struct wk_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &wk_list_ops, v, false);
	return v;
}

static void wk_fini(struct app *a, void *st)
{
	struct wk_view *v = st;
	unsubscribe(a, v);
	free(v->w.v);
	list_free(&v->list);
	free(v);
}

static void wk_enter(struct app *a, void *st, long id)
{
	struct wk_view *v = st;
	if (id <= 0)
		id = pane_serverless_selected_endpoint(a);
	if (id <= 0) {
		app_toast(a, ROLE_WARNING, 6, ":workers NAME: which endpoint?");
		view_close_overlay(a);
		return;
	}
	follow(a, v, id);
	list_set_filter(&v->list, "");
}

static void wk_leave(struct app *a, void *st)
{
	unsubscribe(a, st); /* polled only while shown */
}

static void wk_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct wk_view *v = st;
	take(a, v);
	const struct view *cur = view_current(a);
	if (cur && cur->st == st)
		a->dirty |= DIRTY_BODY;
}

/* `:workers NAME|ID`. */
static void wk_command(struct app *a, void *st, const char *args)
{
	(void)st;
	char name[128];
	util_strlcpy(name, args, sizeof name);
	size_t l = strlen(name);
	while (l && (name[l - 1] == ' ' || name[l - 1] == '\t'))
		name[--l] = '\0';
	if (!name[0]) {
		view_open(a, "workers", 0);
		return;
	}
	char *end;
	long id = strtol(name, &end, 10);
	bool num = *end == '\0' && id > 0;
	for (size_t i = 0; a->snap && i < a->snap->nendpoints; i++) {
		const struct endpoint *e = &a->snap->endpoints[i];
		if ((e->endpoint_name && !strcmp(e->endpoint_name, name)) || (num && e->id == id)) {
			view_open(a, "workers", e->id);
			return;
		}
	}
	char *s = util_sanitize(name);
	app_toast(a, ROLE_ERROR, 8, "no endpoint named %.60s%s", s,
		  a->snap && a->snap->fresh[SRC_ENDPOINTS].last_ok > 0 ? "" : " (endpoints not loaded yet)");
	free(s);
}

const struct view_ops view_workers = {
	.name = "workers",
	.title = "Workers",
	.heading = "Workers of an endpoint",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.actions = wk_rows,
	.nactions = WR__COUNT,
	.init = wk_init,
	.fini = wk_fini,
	.enter = wk_enter,
	.leave = wk_leave,
	.on_snapshot = wk_snapshot,
	.draw = wk_draw,
	.action = wk_action,
	.list = wk_list,
	.selected_row = wk_selected,
	.command = wk_command,
};
