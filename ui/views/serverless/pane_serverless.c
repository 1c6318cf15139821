/* pane_serverless.c: the serverless view (`4`, `:serverless`): a tree with
 * one row per endpoint and its workergroups beneath (collapsible), the
 * endpoint's autoscaler settings and its worker health (get_endpoint_workers
 * through jobs_subscribe: every 10 s while the view is shown, every 60 s
 * while it is not, so an endpoint falling into error is said, and notified,
 * when no one is looking at it): counts by
 * status and load against capacity as a compact bar, and the endpoint's last
 * hour (load, worker count, $/h: struct sv_ep_series, one sample per answer)
 * as sparklines at the end of its row.  Enter on an endpoint opens its
 * workers (pane_workers.c); U (`:update-workers NAME|WG_ID`) confirms and
 * sends update_workers (sv_edit.c).  An endpoint whose
 * workers are all in ERROR, or which runs none while its load is above
 * min_load, is flagged in the header tab and said once in the event log.
 * A failed worker fetch (a 429) keeps the last health shown, marked stale.
 * Space folds an endpoint; Enter on a workergroup opens the workergroup detail overlay (every field;
 * api_key shown as <hidden>, it is never kept).  A workergroup whose
 * endpoint is not listed (an orphan) is never drawn under an endpoint: it
 * is in a group of its own after them, where e and d act on it (saying it
 * is orphaned) and a and s say why they cannot (their why_not, so the hint
 * bar lists a change only where it applies).  An endpoint row's fields are
 * laid out together for every endpoint row (aligned), a narrow terminal
 * dropping whole fields by priority, never the stale marker
 * (sv_tree_endpoint_layout).  The pure parts (the rows of the tree, the fields
 * and their layout, the bar) are in sv_tree.c for the tests. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_serverless.h"
#include "app.h"
#include "draw.h"
#include "widgets/list.h"
#include "header.h"
#include "poll/jobs.h"
#include "json/json_map.h"
#include "state/model.h"
#include "views/serverless/sv_edit.h"
#include "views/serverless/sv_tree.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "rules/workers.h"

#define SV_HEALTH_S 10.0    /* s between worker fetches while shown */
#define SV_HEALTH_BG_S 60.0 /* while not shown: the error flag still reaches the events */
#define SV_STALE_S 30.0  /* s without a worker answer before the health is stale */

/* The worker health of one endpoint: its subscription and last answer. */
struct sv_health {
	long endpoint_id;
	int sub;                    /* jobs_subscribe id, 0: none */
	bool have;                  /* h holds an answer */
	struct workers_health h;
	enum workers_flag flag;
	char flag_text[200];
	double when;                /* wall epoch of h */
	char err[256];              /* the last failure ("" after a success) */
	struct sv_ep_series series; /* its last hour: a sample per answer (fetched while shown) */
};

/* A worker answer, mapped: the health and the summed $/h. */
struct sv_health_answer {
	struct workers_health h;
	double dph;
	size_t priced;              /* workers with a dph_total */
};

struct sv_view {
	struct sv_row rows[SV_MAX_ROWS];
	size_t nrows;
	struct list list;           /* over rows: the selection follows sv_tree_row_key */
	const struct snapshot *snap; /* the one rows were built from (the app holds it) */
	struct sv_collapsed col;
	struct sv_health hs[SV_MAX_ENDPOINTS];
	size_t nhs;
	struct workers_memo *memo;
	bool shown;
	struct sv_names names;      /* template names by hash ("" : asked, not found) */
	int tpl_req;                /* the template search in flight, 0: none */
	struct sv_edit *ed;         /* the autoscaler edits (sv_edit.c) */
};

/* Mapper (poller thread): a worker list -> its struct workers_health. */
static void *map_health(const json_t *root, struct api_error *e)
{
	struct worker *v = NULL;
	size_t n = 0;
	if (!workers_decode(root, &v, &n)) {
		apierr_protocol(e, 200, "unexpected get_endpoint_workers answer");
		return NULL;
	}
	struct sv_health_answer *h = xcalloc(1, sizeof *h);
	workers_summary(v, n, &h->h);
	h->priced = workers_cost(v, n, &h->dph);
	free(v);
	return h;
}

/* Mapper (poller thread): a template search -> the names by hash. */
static void *map_names(const json_t *root, struct api_error *e)
{
	struct template_rec *v = NULL;
	size_t n = 0;
	if (!json_map_templates(root, &v, &n)) {
		apierr_protocol(e, 200, "unexpected template list shape");
		return NULL;
	}
	struct sv_names *t = xcalloc(1, sizeof *t);
	for (size_t i = 0; i < n; i++)
		sv_tree_names_put(t, v[i].hash_id, v[i].name);
	json_map_templates_free(v, n);
	return t;
}

/* Ask once for the names of the workergroups' templates not known yet. */
static void ask_names(struct app *a, struct sv_view *v)
{
	const struct snapshot *s = a->snap;
	if (!s || !a->jobs || v->tpl_req)
		return;
	json_t *in = json_array();
	for (size_t i = 0; i < s->nworkergroups; i++) {
		const char *h = s->workergroups[i].template_hash;
		if (!h || !*h || sv_tree_names_get(&v->names, h))
			continue;
		sv_tree_names_put(&v->names, h, ""); /* asked */
		json_array_append_new(in, json_string(h));
	}
	if (!json_array_size(in)) {
		json_decref(in);
		return;
	}
	json_t *f = json_pack("{s:{s:o}}", "hash_id", "in", in);
	struct job_call c = { .call = api_templates(a->cfg, f), .action = false, .map = map_names,
			      .free_value = free };
	snprintf(c.what, sizeof c.what, "template names");
	if (jobs_call(a->jobs, &c, &v->tpl_req) != JOBS_OK)
		v->tpl_req = 0;
}

static void take_names(struct app *a, struct sv_view *v)
{
	struct call_result r;
	if (!v->tpl_req || !model_take_result(a->m, v->tpl_req, &r))
		return;
	v->tpl_req = 0;
	if (r.outcome == CALL_OK && r.value) {
		const struct sv_names *t = r.value;
		for (size_t i = 0; i < t->n; i++)
			sv_tree_names_put(&v->names, t->hash[i], t->name[i]);
		a->dirty |= DIRTY_BODY;
	}
	model_call_result_free(&r);
}

static struct sv_health *health_of(struct sv_view *v, long id)
{
	for (size_t i = 0; i < v->nhs; i++)
		if (v->hs[i].endpoint_id == id)
			return &v->hs[i];
	return NULL;
}

static const struct endpoint *endpoint_of(const struct snapshot *s, long id)
{
	for (size_t i = 0; s && i < s->nendpoints; i++)
		if (s->endpoints[i].id == id)
			return &s->endpoints[i];
	return NULL;
}

/* One subscription per endpoint of the snapshot; gone endpoints unsubscribed. */
static void sync_subs(struct app *a, struct sv_view *v)
{
	const struct snapshot *s = a->snap;
	if (!s || !a->jobs)
		return;
	for (size_t i = 0; i < v->nhs;) {
		if (endpoint_of(s, v->hs[i].endpoint_id)) {
			i++;
			continue;
		}
		if (v->hs[i].sub) {
			jobs_unsubscribe(a->jobs, v->hs[i].sub);
			model_drop_result(a->m, v->hs[i].sub);
		}
		v->hs[i] = v->hs[--v->nhs];
	}
	long ids[SV_MAX_ENDPOINTS];
	size_t nids = 0;
	for (size_t i = 0; i < s->nendpoints && nids < SV_MAX_ENDPOINTS; i++) {
		const struct endpoint *e = &s->endpoints[i];
		ids[nids++] = e->id;
		if (health_of(v, e->id) || v->nhs >= SV_MAX_ENDPOINTS)
			continue;
		struct sv_health *h = &v->hs[v->nhs++];
		memset(h, 0, sizeof *h);
		h->endpoint_id = e->id;
		sv_tree_series_init(&h->series);
		struct job_call c = { .call = api_endpoint_workers(a->cfg, e->id), .action = false,
				      .map = map_health, .free_value = free };
		snprintf(c.what, sizeof c.what, "workers of endpoint %ld", e->id);
		if (jobs_subscribe(a->jobs, &c, v->shown ? SV_HEALTH_S : SV_HEALTH_BG_S, false,
				   &h->sub) != JOBS_OK)
			h->sub = 0;
		else if (!v->shown)
			jobs_set_visible(a->jobs, h->sub, false); /* shown again: due at once */
	}
	workers_memo_keep(v->memo, ids, nids);
}

/* Take the worker answers that arrived; flag (said once) what needs it. */
static void take_health(struct app *a, struct sv_view *v)
{
	for (size_t i = 0; i < v->nhs; i++) {
		struct sv_health *h = &v->hs[i];
		struct call_result r;
		if (!h->sub || !model_take_result(a->m, h->sub, &r))
			continue;
		if (r.outcome == CALL_OK && r.value) {
			const struct sv_health_answer *ans = r.value;
			h->h = ans->h;
			h->have = true;
			h->when = r.when;
			seriesf_put(&h->series.load, r.when, h->h.load);
			seriesf_put(&h->series.workers, r.when, (double)h->h.total);
			if (ans->priced || !h->h.total)
				seriesf_put(&h->series.cost, r.when, ans->dph);
			h->err[0] = '\0';
			const struct endpoint *e = endpoint_of(a->snap, h->endpoint_id);
			double min_load = e ? e->min_load : 0;
			h->flag = workers_flag(&h->h, NAN, min_load);
			h->flag_text[0] = '\0';
			if (h->flag != WF_NONE)
				workers_flag_text(h->flag_text, sizeof h->flag_text,
						  e ? e->endpoint_name : "endpoint", h->flag, &h->h, NAN,
						  min_load);
			if (workers_memo_update(v->memo, h->endpoint_id, h->flag))
				model_event(a->m, EV_WARN, -1, 0, 0, EVF_ENDPOINT, "%s", h->flag_text);
		} else {
			/* a failure keeps the last health shown (a 429 never blanks) */
			util_strlcpy(h->err, r.err.msg[0] ? r.err.msg : "failed", sizeof h->err);
		}
		model_call_result_free(&r);
		a->dirty |= DIRTY_BODY | DIRTY_HEADER;
	}
}

/* A row's text for `/`: an endpoint's name and state, a workergroup's line. */
static void sv_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct sv_view *v = ctx;
	const struct sv_row *row = &v->rows[i];
	const struct snapshot *s = v->snap;
	switch (row->kind) {
	case SVR_ENDPOINT: {
		const struct endpoint *e = &s->endpoints[row->idx];
		snprintf(buf, n, "%ld %s %s", e->id, e->endpoint_name ? e->endpoint_name : "",
			 e->endpoint_state ? e->endpoint_state : "");
		break;
	}
	case SVR_ORPHANS: sv_tree_orphans_text(row->idx, !row->collapsed, true, buf, n); break;
	case SVR_WORKERGROUP: {
		const struct workergroup *g = &s->workergroups[row->idx];
		sv_tree_workergroup_text(g, sv_tree_names_of(&v->names, g->template_hash, s->instances,
						   s->ninstances),
				    row->last, row->orphan, true, buf, n);
		break;
	}
	}
}

static long sv_id(const void *ctx, size_t i)
{
	const struct sv_view *v = ctx;
	return sv_tree_row_key(&v->rows[i]);
}

static const struct list_ops sv_list_ops = { sv_text, NULL, NULL, sv_id };

static void rebuild(struct app *a, struct sv_view *v)
{
	const struct snapshot *s = a->snap;
	v->snap = s;
	v->nrows = s ? sv_tree_rows(s->endpoints, s->nendpoints, s->workergroups, s->nworkergroups,
				    &v->col, v->rows, SV_MAX_ROWS)
		     : 0;
	list_set_count(&v->list, v->nrows); /* the selection stays on its row's key */
}

/* The selected row, NULL: none. */
static const struct sv_row *sv_sel(const struct sv_view *v)
{
	size_t i = list_selected(&v->list);
	return i != LIST_NONE ? &v->rows[i] : NULL;
}

static void sv_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct sv_view *v = st;
	sync_subs(a, v);
	take_health(a, v);
	take_names(a, v);
	sv_edit_snapshot(a, v->ed);
	if (v->shown)
		ask_names(a, v);
	rebuild(a, v);
	if (v->shown)
		a->dirty |= DIRTY_BODY;
}

static void set_visible(struct app *a, struct sv_view *v, bool on)
{
	v->shown = on;
	for (size_t i = 0; a->jobs && i < v->nhs; i++)
		if (v->hs[i].sub) {
			jobs_set_interval(a->jobs, v->hs[i].sub, on ? SV_HEALTH_S : SV_HEALTH_BG_S);
			jobs_set_visible(a->jobs, v->hs[i].sub, on);
		}
}

static void sv_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	struct sv_view *v = st;
	set_visible(a, v, true);
	sync_subs(a, v);
	ask_names(a, v);
	rebuild(a, v);
}

static void sv_leave(struct app *a, void *st)
{
	set_visible(a, st, false);
}

/* The freshness marker of the endpoint list: "", "STALE: why", "OFFLINE". */
static void freshness(const struct snapshot *s, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!s)
		return;
	const struct freshness *f = &s->fresh[SRC_ENDPOINTS];
	if (s->offline)
		snprintf(buf, n, "OFFLINE");
	else if (f->last_err_at > 0)
		snprintf(buf, n, "STALE: %s", f->err);
	else if (f->last_ok <= 0)
		snprintf(buf, n, "loading...");
}

/* The row of endpoint e as sv_tree_endpoint_cells wants it: its health, stale
 * when the last fetch failed or no answer came for three rounds (429 waits). */
static void endpoint_cells(struct sv_view *v, const struct endpoint *e, bool open, double now,
			   struct sv_ep_cells *out)
{
	struct sv_ep_health eh = { .asked = false };
	/* health_of inlined: gcc -O1 -fsanitize=thread sees a NULL path through it */
	for (size_t i = 0; i < v->nhs; i++) {
		const struct sv_health *h = &v->hs[i];
		if (h->endpoint_id != e->id)
			continue;
		eh.asked = true;
		eh.have = h->have;
		eh.h = h->h;
		eh.age = now - h->when;
		eh.stale = h->err[0] || eh.age > SV_STALE_S;
		eh.err = h->err;
		eh.series = &h->series;
		eh.now = now;
		break;
	}
	sv_tree_endpoint_cells(e, &eh, open, draw_ascii(), out);
}

/* Draw an endpoint row: each field of the layout w in its colour. */
static void draw_endpoint(struct sv_view *v, const struct endpoint *e, const struct sv_ep_cells *c,
			  const int *w, int y, const struct rect *r, bool sel)
{
	unsigned long base = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, r->x, r->w, base);
	const struct sv_health *h = health_of(v, e->id);
	bool stale = c->cell[SVE_STALE][0] != '\0';
	enum role health = h && h->flag != WF_NONE ? ROLE_FAILED : stale ? ROLE_WARNING : ROLE_OK;
	for (int f = 0; f < SVE__COUNT; f++) {
		int x = sv_tree_endpoint_field_x(w, f);
		if (x < 0 || x + 1 >= r->w)
			continue;
		enum role role = ROLE_NORMAL;
		switch ((enum sv_ep_field)f) {
		case SVE_BAR: case SVE_LOAD: role = health; break;
		case SVE_COUNTS: role = h && h->have ? health : ROLE_DIM; break;
		case SVE_STALE: case SVE_WHY: role = ROLE_WARNING; break;
		case SVE_SPARK: role = ROLE_DIM; break;
		case SVE_NAME: case SVE_STATE: case SVE_MIN_LOAD: case SVE_UTIL:
		case SVE_COLD_MULT: case SVE_LIMITS: case SVE__COUNT:
			break;
		}
		int maxw = w[f] < r->w - 1 - x ? w[f] : r->w - 1 - x;
		draw_text(y, r->x + 1 + x, maxw, c->cell[f], sel ? base : theme_attr(role));
	}
}

struct sv_draw_ctx {
	struct sv_view *v;
	const struct snapshot *s;
	const struct sv_ep_cells *cells;
	const int *w;
	const struct rect *r;
};

static void sv_row_draw(void *dctx, size_t i, bool sel, int y)
{
	const struct sv_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	if (i == LIST_NONE) {
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		return;
	}
	const struct sv_row *row = &d->v->rows[i];
	const struct snapshot *s = d->s;
	unsigned long base = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	char line[700];
	switch (row->kind) {
	case SVR_ENDPOINT:
		draw_endpoint(d->v, &s->endpoints[row->idx], &d->cells[row->idx], d->w, y, r, sel);
		break;
	case SVR_ORPHANS: /* a group of its own, apart from the last endpoint */
		draw_fill(y, r->x, r->w, base);
		sv_tree_orphans_text(row->idx, !row->collapsed, draw_ascii(), line, sizeof line);
		draw_text(y, r->x + 1, r->w - 1, line, sel ? base : theme_attr(ROLE_WARNING));
		break;
	case SVR_WORKERGROUP: {
		draw_fill(y, r->x, r->w, base);
		const struct workergroup *g = &s->workergroups[row->idx];
		sv_tree_workergroup_text(g,
				    sv_tree_names_of(&d->v->names, g->template_hash, s->instances,
						s->ninstances),
				    row->last, row->orphan, draw_ascii(), line, sizeof line);
		draw_text(y, r->x + 1, r->w - 1, line, base);
		break;
	}
	}
}

static void sv_draw(struct app *a, void *st, const struct rect *r)
{
	struct sv_view *v = st;
	const struct snapshot *s = a->snap;
	char title[300], fr[220];
	freshness(s, fr, sizeof fr);
	snprintf(title, sizeof title, " Serverless: %zu endpoints, %zu workergroups%s%s",
		 s ? s->nendpoints : 0, s ? s->nworkergroups : 0, fr[0] ? "  " : "", fr);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	int y = r->y + 1, end = r->y + r->h;
	/* flagged endpoints first, one line each */
	for (size_t i = 0; i < v->nhs && y < end - 1; i++)
		if (v->hs[i].flag != WF_NONE) {
			draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
			char b[210];
			snprintf(b, sizeof b, "! %s", v->hs[i].flag_text);
			draw_text(y++, r->x + 1, r->w - 1, b, theme_attr(ROLE_FAILED));
		}
	/* the endpoint rows' fields, laid out once for all of them (aligned) */
	size_t ne = s ? s->nendpoints : 0;
	struct sv_ep_cells *cells = ne ? xcalloc(ne, sizeof *cells) : NULL;
	double now = util_now();
	for (size_t i = 0; i < v->nrows; i++)
		if (v->rows[i].kind == SVR_ENDPOINT && v->rows[i].idx < ne)
			endpoint_cells(v, &s->endpoints[v->rows[i].idx], !v->rows[i].collapsed, now,
				       &cells[v->rows[i].idx]);
	int w[SVE__COUNT];
	sv_tree_endpoint_layout(cells, ne, r->w - 1, w);
	struct sv_draw_ctx d = { v, s, cells, w, r };
	list_draw(&v->list, y, end - y, sv_row_draw, &d);
	free(cells);
	if (!v->nrows && r->h > 1)
		draw_text(r->y + 1, r->x + 1, r->w - 1,
			  s && s->fresh[SRC_ENDPOINTS].last_ok > 0 ? "no endpoints"
								    : "loading endpoints...",
			  theme_attr(ROLE_DIM));
}

/* Open or close the endpoint of the selected row (toggle: -1; 0 close; 1 open). */
static void fold(struct app *a, struct sv_view *v, int how)
{
	const struct sv_row *row = sv_sel(v);
	if (!row)
		return;
	long id = sv_tree_row_group(row);
	bool closed = sv_tree_collapsed_has(&v->col, id);
	bool close = how < 0 ? !closed : how == 0;
	sv_tree_collapsed_set(&v->col, id, close);
	rebuild(a, v);
	long key = sv_tree_row_key(id == SV_ORPHANS_GROUP ? &(struct sv_row){ .kind = SVR_ORPHANS }
						     : &(struct sv_row){ .kind = SVR_ENDPOINT, .id = id });
	for (size_t i = 0; i < v->nrows; i++) /* on the group's heading */
		if (sv_tree_row_key(&v->rows[i]) == key)
			list_select(&v->list, i);
	a->dirty |= DIRTY_BODY;
}

/* Why a or s cannot act on row (an sv_row): the orphans' group has no
 * endpoint to add a workergroup to or to suspend. */
static const char *why_not_add(const void *row, char *buf, size_t n)
{
	return sv_tree_orphan_refusal(row, "add a workergroup to", buf, n);
}

static const char *why_not_suspend(const void *row, char *buf, size_t n)
{
	return sv_tree_orphan_refusal(row, "suspend", buf, n);
}

static const char *why_not_workers(const void *row, char *buf, size_t n)
{
	return sv_tree_orphan_refusal(row, "list the workers of", buf, n);
}

/* U: a row with an endpoint (`:update-workers NAME` needs none). */
static const char *why_not_update(const void *row, char *buf, size_t n)
{
	return row ? sv_tree_orphan_refusal(row, "update the workers of", buf, n) : NULL;
}

/* e and d act on a row of the tree, not on the orphans' heading. */
static const char *why_not_heading(const void *row, char *buf, size_t n)
{
	const struct sv_row *r = row;
	if (r->kind != SVR_ORPHANS)
		return NULL;
	snprintf(buf, n, "select one of the orphaned workergroups: e and d act on one of them");
	return buf;
}

/* The serverless view's action table: the tree's own rows, then the
 * changes (their handler: sv_edit.c).  Every change is in the hint bar
 * where it applies to the selected row (why_not). */
enum { SR_TOGGLE, SR_FOLD, SR_UNFOLD, SR_EP_CREATE, SR_WG_CREATE, SR_EDIT, SR_DELETE, SR_SUSPEND,
       SR_WORKERS, SR_UPDATE, SR_FOLDT, SR__COUNT };
static enum action sv_ids[SR__COUNT];
static const struct action_row sv_rows[SR__COUNT] = {
	[SR_TOGGLE] = { { .name = "open", .help = "an endpoint's workers, a workergroup's detail",
			  .flags = AF_NEEDS_SEL | AF_HINT },
			"Enter", NULL, &sv_ids[SR_TOGGLE] },
	[SR_FOLDT] = { { .name = "fold", .help = "open or close an endpoint (its workergroups)",
			 .flags = AF_NEEDS_SEL },
		       "Space", NULL, &sv_ids[SR_FOLDT] },
	[SR_WORKERS] = { { .name = "workers",
			   .help = "the workers of the selected endpoint (also :workers NAME)",
			   .flags = AF_NEEDS_SEL, .why_not = why_not_workers },
			 "W", NULL, &sv_ids[SR_WORKERS] },
	[SR_UPDATE] = { { .name = "update-workers",
			  .help = "roll the workers of the selected workergroup (or endpoint's only one) "
				  "onto its template's current version (confirm); :update-workers "
				  "NAME|WG_ID",
			  .hint = "update workers", .flags = AF_MUTATES, .why_not = why_not_update },
			"U", NULL, &sv_ids[SR_UPDATE] },
	[SR_FOLD] = { { .name = "collapse", .help = "collapse the endpoint (hide its workergroups)",
			.flags = AF_NEEDS_SEL },
		      "-", NULL, &sv_ids[SR_FOLD] },
	[SR_UNFOLD] = { { .name = "expand", .help = "expand the endpoint (show its workergroups)",
			  .flags = AF_NEEDS_SEL },
			"+", NULL, &sv_ids[SR_UNFOLD] },
	[SR_EP_CREATE] = { { .name = "endpoint-create", .help = "create a serverless endpoint (form)",
			     .hint = "new endpoint", .flags = AF_MUTATES | AF_HINT },
			   "c", NULL, &sv_ids[SR_EP_CREATE] },
	[SR_WG_CREATE] = { { .name = "workergroup-create",
			     .help = "add a workergroup from a template to the selected endpoint "
				     "(form; Enter on the template field picks one)",
			     .hint = "add wg", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT,
			     .why_not = why_not_add },
			   "a", NULL, &sv_ids[SR_WG_CREATE] },
	[SR_EDIT] = { { .name = "serverless-edit",
			.help = "edit the selected endpoint's or workergroup's autoscaler settings",
			.hint = "edit", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT,
			.why_not = why_not_heading },
		      "e", NULL, &sv_ids[SR_EDIT] },
	[SR_DELETE] = { { .name = "serverless-delete",
			  .help = "delete the selected endpoint or workergroup (confirm)",
			  .hint = "delete", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT,
			  .why_not = why_not_heading },
			"d", NULL, &sv_ids[SR_DELETE] },
	[SR_SUSPEND] = { { .name = "endpoint-suspend",
			   .help = "suspend or resume the selected endpoint (confirm)",
			   .hint = "suspend/resume", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT,
			   .why_not = why_not_suspend },
			 "s", NULL, &sv_ids[SR_SUSPEND] },
};

static bool sv_action(struct app *a, void *st, enum action act)
{
	struct sv_view *v = st;
	const struct sv_row *row = sv_sel(v);
	switch (keymap_action_row_of(sv_rows, SR__COUNT, act)) {
	case SR_TOGGLE:
		if (row && row->kind == SVR_WORKERGROUP)
			view_open(a, "workergroup", row->id);
		else if (row && row->kind == SVR_ENDPOINT)
			view_open(a, "workers", row->id);
		else
			fold(a, v, -1);
		return true;
	case SR_FOLDT: fold(a, v, -1); return true;
	case SR_WORKERS:
		if (row)
			view_open(a, "workers", row->endpoint_id);
		return true;
	case SR_UPDATE:
		if (!row) {
			app_toast(a, ROLE_WARNING, 6, "select a workergroup, or :update-workers NAME|WG_ID");
			return true;
		}
		sv_edit_open(a, v->ed, SV_OP_UPDATE_WORKERS, row);
		return true;
	case SR_FOLD: fold(a, v, 0); return true;
	case SR_UNFOLD: fold(a, v, 1); return true;
	/* the changes: their why_not has refused the orphans' rows already */
	case SR_EP_CREATE: sv_edit_open(a, v->ed, SV_OP_EP_CREATE, row); return true;
	case SR_WG_CREATE: sv_edit_open(a, v->ed, SV_OP_WG_CREATE, row); return true;
	case SR_EDIT: sv_edit_open(a, v->ed, SV_OP_EDIT, row); return true;
	case SR_DELETE: /* on an orphan: the workergroup itself, said so by sv_edit */
		sv_edit_open(a, v->ed, SV_OP_DELETE, row);
		return true;
	case SR_SUSPEND: sv_edit_open(a, v->ed, SV_OP_SUSPEND, row); return true;
	default: break; /* not a row of the table */
	}
	return false; /* another registered action's run, or a move (the list's) */
}

/* `:update-workers NAME|WG_ID` (no argument: the selected row, as U). */
static void update_args(struct app *a, enum action act, const char *args)
{
	int i = view_find(a, "serverless");
	if (i < 0)
		return;
	struct sv_view *v = a->views[i].st;
	if (!*args) {
		sv_action(a, v, act);
		return;
	}
	const struct snapshot *s = a->snap;
	char err[300];
	long id = s ? sv_forms_update_target(args, s->endpoints, s->nendpoints, s->workergroups,
					    s->nworkergroups, err, sizeof err)
		    : 0;
	if (!id) {
		app_toast(a, ROLE_ERROR, 8, "%s", s ? err : "endpoints not loaded yet");
		return;
	}
	sv_edit_update_workers(a, v->ed, id);
}

static void sv_keys(struct keymap *km, int ctx)
{
	(void)km;
	(void)ctx;
	action_set_args(keymap_action_register(&sv_rows[SR_UPDATE].def), update_args);
}

static struct list *sv_list(struct app *a, void *st)
{
	(void)a;
	struct sv_view *v = st;
	return &v->list;
}

static bool sv_modal_key(struct app *a, void *st, int key)
{
	return sv_edit_modal_key(a, ((struct sv_view *)st)->ed, key);
}

static bool sv_modal_draw(struct app *a, void *st)
{
	return sv_edit_modal_draw(a, ((struct sv_view *)st)->ed);
}

static const void *sv_selected(const struct app *a, const void *st)
{
	(void)a;
	return sv_sel(st);
}

static void sv_tab(const struct app *a, const void *st, char *buf, size_t n)
{
	const struct sv_view *v = st;
	size_t flagged = 0;
	for (size_t i = 0; i < v->nhs; i++)
		flagged += v->hs[i].flag != WF_NONE;
	size_t ne = a->snap ? a->snap->nendpoints : 0;
	if (flagged)
		snprintf(buf, n, "%zu !%zu", ne, flagged);
	else
		snprintf(buf, n, "%zu", ne);
}

static void *sv_init(struct app *a)
{
	(void)a;
	struct sv_view *v = xcalloc(1, sizeof *v);
	v->memo = workers_memo_new();
	v->ed = sv_edit_new();
	list_init(&v->list, &sv_list_ops, v, false);
	return v;
}

static void sv_fini(struct app *a, void *st)
{
	struct sv_view *v = st;
	for (size_t i = 0; i < v->nhs; i++)
		if (v->hs[i].sub && a->jobs)
			jobs_unsubscribe(a->jobs, v->hs[i].sub);
	if (v->tpl_req)
		model_drop_result(a->m, v->tpl_req);
	workers_memo_free(v->memo);
	sv_edit_free(a, v->ed);
	list_free(&v->list);
	free(v);
}

/* The template name the serverless view knows for hash (for the workergroup
 * detail), or NULL. */
const char *pane_serverless_template(const struct app *a, const char *hash)
{
	int i = view_find(a, "serverless");
	if (i < 0 || !a->snap)
		return NULL;
	const struct sv_view *v = a->views[i].st;
	return sv_tree_names_of(&v->names, hash, a->snap->instances, a->snap->ninstances);
}

const struct view_ops view_serverless = {
	.name = "serverless",
	.alias = "sv",
	.title = "Serverless",
	.heading = "Serverless view",
	.number_key = '4',
	.ctx_flags = CTXF_LIST,
	.actions = sv_rows,
	.nactions = SR__COUNT,
	.keys = sv_keys,
	.init = sv_init,
	.fini = sv_fini,
	.enter = sv_enter,
	.leave = sv_leave,
	.on_snapshot = sv_snapshot,
	.draw = sv_draw,
	.action = sv_action,
	.list = sv_list,
	.selected_row = sv_selected,
	.tab_text = sv_tab,
	.modal_key = sv_modal_key,
	.modal_draw = sv_modal_draw,
};

long pane_serverless_selected_endpoint(const struct app *a)
{
	int i = view_find(a, "serverless");
	if (i < 0)
		return 0;
	const struct sv_row *row = sv_sel(a->views[i].st);
	return row && row->kind != SVR_ORPHANS ? row->endpoint_id : 0;
}

const struct sv_ep_series *pane_serverless_series(const struct app *a, long endpoint_id)
{
	int i = view_find(a, "serverless");
	if (i < 0)
		return NULL;
	const struct sv_view *v = a->views[i].st;
	for (size_t k = 0; k < v->nhs; k++)
		if (v->hs[k].endpoint_id == endpoint_id)
			return &v->hs[k].series;
	return NULL;
}
