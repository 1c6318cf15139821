/* pane_instances.c: the instances view: one row per instance (id, label,
 * status with pending badges, GPUs, utilisation, price, age, SSH address,
 * image, machine; location, reliability and uptime when the terminal is
 * wide), coloured by state, failed rows highlighted; sorting,
 * filtering and a selection that follows the instance id.  Its keys are the
 * instance actions (inst_actions.c) and Enter, which opens the detail view.
 * Space marks rows (a mark column appears, the tab counts them): stop,
 * start, destroy and label then apply to every marked row that fits, with
 * one confirmation listing them (inst_bulk.c), sent as the service's bulk
 * form in requests of at most API_BULK_BATCH ids, one after the other, each
 * at most once with its own outcome, or, for labels, one job per row; marks
 * the filter hides are asked about first;
 * `:destroy-failed` destroys every failed instance after the count is
 * typed. */
#include "views/instances/pane_instances.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "widgets/dialog.h"
#include "views/instances/inst_bulk.h"
#include "views/instances/inst_actions.h"
#include "views/instances/inst_dialogs.h"
#include "views/account/pane_account.h"
#include "dump/instcol.h"
#include "base/config.h"
#include "draw.h"
#include "header.h"
#include "idlewatch.h"
#include "poll/jobs.h"
#include "views/offers/pane_offers.h"
#include "state/model.h"
#include "poll/poller.h"
#include "widgets/table.h"
#include "theme.h"
#include "base/util.h"

/* What the accessors need besides the instance. */
struct inst_ctx {
	const struct snapshot *s;
	double now;
	unsigned opts; /* instcol_format's */
	const struct watch *w; /* idle, hot, disk (a->watch), NULL: none */
};

/* The accessor of every column: instcol.c formats it, for --dump too. */
static void cell(const void *rec, const void *ctx, int arg, char *buf, size_t n, double *key)
{
	const struct inst_ctx *c = ctx;
	const struct instance *x = rec;
	if (arg == IC_HIST) /* the watch's last hour (idlewatch.h) */
		idlewatch_spark(c->w ? watch_find(c->w, x->id) : NULL, c->now, c->opts & INSTCOL_ASCII,
				buf, n, key);
	else
		instcol_format_w((enum instcol)arg, rec, c->s, c->w, c->now, c->opts, buf, n, key);
}

#define COL(ic, min, max, prio, right, num, whole) \
	[ic] = { NULL, min, max, prio, right, num, whole, cell, ic }
/* min, max (0 flexible), drop priority (0 never), right, numeric, whole;
 * titles from instcol.c (filled in at init) */
static struct table_col cols[IC__COUNT] = {
	COL(IC_ID, 8, 9, 0, true, true, true),
	COL(IC_LABEL, 8, 0, 3, false, false, false),
	COL(IC_STATUS, 12, 20, 0, false, false, false),
	COL(IC_GPUS, 10, 16, 1, false, false, false),
	COL(IC_UTIL, 4, 5, 5, true, true, false),
	COL(IC_DPH, 7, 8, 2, true, true, false),
	COL(IC_AGE, 6, 7, 6, true, true, false),
	COL(IC_SSH, 14, 22, 4, false, false, true),
	COL(IC_IMAGE, 10, 0, 7, false, false, false),
	COL(IC_MACHINE, 7, 8, 8, true, true, true),
	/* wide terminals only (pane_instances_widths), never cut */
	COL(IC_LOCATION, 8, 0, 9, false, false, true),
	COL(IC_RELIAB, 6, 6, 10, true, true, true),
	COL(IC_UPTIME, 6, 6, 11, true, true, true),
	/* where there is room (dropped first; H hides or shows it) */
	COL(IC_HIST, IDLEWATCH_SPARK, IDLEWATCH_SPARK, 12, false, true, true),
};
#undef COL
#define NCOLS IC__COUNT

static void set_titles(void)
{
	for (int c = 0; c < NCOLS; c++)
		cols[c].title = instcol_title((enum instcol)c);
}

/* The widths of the columns considered (pane_instances_widths): all when
 * wide, else those before IC_LOCATION; GPU 1H when hist. */
static unsigned widths_of(int width, const int *natural, int *w, bool wide, bool hist)
{
	struct table_col cs[NCOLS];
	int idx[NCOLS], nat[NCOLS], sub[NCOLS], k = 0;
	for (int c = 0; c < NCOLS; c++) {
		w[c] = 0;
		if (c == IC_HIST ? !hist : (c >= IC_LOCATION && !wide))
			continue;
		cs[k] = cols[c];
		nat[k] = natural ? natural[c] : 0;
		idx[k++] = c;
	}
	unsigned got = table_widths_fit(cs, k, width, natural ? nat : NULL, sub), shown = 0;
	for (int i = 0; i < k; i++) {
		w[idx[i]] = sub[i];
		if (got & (1u << i))
			shown |= 1u << idx[i];
	}
	return shown;
}

/* Does a layout with GPU 1H leave the label and image their room? */
static bool hist_room(unsigned shown, const int *w)
{
	if (!(shown & (1u << IC_HIST)))
		return false;
	for (int c = 0; c < NCOLS; c++)
		if ((shown & (1u << c)) && cols[c].max_w == 0 && !cols[c].whole &&
		    w[c] < PANE_INSTANCES_HIST_ROOM)
			return false;
	return true;
}

unsigned pane_instances_widths(int width, const int *natural, int *w, bool hist)
{
	set_titles();
	bool wide = width >= PANE_INSTANCES_WIDE;
	if (hist) { /* GPU 1H first, then location, reliability and uptime */
		unsigned shown = widths_of(width, natural, w, wide, true);
		if (hist_room(shown, w))
			return shown;
		if (wide && hist_room(shown = widths_of(width, natural, w, false, true), w))
			return shown;
	}
	return widths_of(width, natural, w, wide, false);
}

/* The view's private state. */
struct inst_view {
	struct inst_dialogs *dlgs; /* first: one instance's dialogs and jobs (inst_dialogs.c
				    * finds them there) */
	struct table t;       /* its list holds the marks (instance ids) */
	long want; /* select this instance once it is listed (a new one), 0: none */
	struct dialog dlg;    /* the bulk confirmation (or label / count input) */
	struct bulk_plan plan; /* what dlg confirms (plan.ids NULL: none) */
	bool typed;           /* dlg asks for the count typed (:destroy-failed) */
	int req;              /* the bulk call awaited, 0: none */
	enum bulk_op req_op;
	size_t req_n;         /* the instances of the request awaited */
	/* a confirmed stop, start or destroy goes out in requests of at most
	 * API_BULK_BATCH ids, one after the other, each at most once */
	long *bids;           /* its ids (malloc'd), NULL: none */
	size_t bn, bk, bcount; /* ids, the request awaited (0-based), requests */
	/* the question asked while marks are hidden by the filter */
	enum action ask_act;
	enum bulk_op ask_op;
	enum bulk_hidden_q ask_q;
	size_t kept;          /* hidden marks left out of the plan confirmed */
	bool stale;           /* rows changed while another view was shown: the
			       * table is rebuilt when it is shown again */
	long badges[2 * (MODEL_MAX_PENDING + MODEL_MAX_UNSURE)]; /* badges_moved() */
	size_t nbadges;
	uint64_t watch_gen;   /* a->watch.gen the rows show (idle, hot, disk) */
	bool hide_hist;       /* H hid the GPU 1H column */
	bool hist_shown;      /* the last draw showed it */
	double hist_bucket;   /* the series bucket (now / SERIES_BUCKET_S) its cells show */
};

/* The GPU 1H cells are a bucket behind (shown, and the watch sampled
 * since): every row is formatted again. */
static bool hist_moved(const struct app *a, const struct inst_view *v)
{
	return v->hist_shown && floor(a->watch_ok / SERIES_BUCKET_S) != v->hist_bucket;
}

_Static_assert(offsetof(struct inst_view, dlgs) == 0, "inst_dialogs.c reads dlgs first");

static enum action act_mark, act_unmark, act_destroy_failed, act_hist;

/* Forget marks of instances no longer listed (once the list is whole). */
static void prune_marks(struct inst_view *v, const struct snapshot *s)
{
	if (!s || s->progress.partial || !(s->fresh[SRC_INSTANCES].last_ok > 0))
		return;
	list_marks_prune(table_list(&v->t));
}

/* The status cell's colour, by the state's group (model.h: the header
 * counts and status=GROUP use the same); stopping is still moving. */
static enum role state_role(enum inst_state s)
{
	switch (instance_state_group(s)) {
	case IG_RUNNING: return ROLE_RUNNING;
	case IG_BOOTING: return ROLE_LOADING;
	case IG_STOPPED: return s == IS_STOPPING ? ROLE_LOADING : ROLE_STOPPED;
	case IG_FAILED: return ROLE_FAILED;
	case IG_OUTBID: return ROLE_WARNING;
	case IG_OTHER: case IG__COUNT: break;
	}
	return ROLE_DIM;
}

/* Id and colours of a row built by the accessors. */
static void finish(struct table_row *row, const void *rec, const void *ctx)
{
	const struct instance *x = rec;
	const struct inst_ctx *c = ctx;
	row->id = x->id;
	row->role = instance_state_failed(x->state) ? ROLE_FAILED : ROLE_NORMAL;
	row->cell_role_col = IC_STATUS;
	row->cell_role = instcol_pending(x, c->s) ? ROLE_PENDING : state_role(x->state);
	if (row->cell_role != ROLE_PENDING && c->w && watch_flags(c->w, x->id))
		row->cell_role = ROLE_WARNING; /* idle, hot or filling */
	row->group = instance_group_name(instance_state_group(x->state)); /* status=failed */
}

void pane_instances_row(struct table_row *row, const struct instance *x, const struct snapshot *s,
			const struct watch *w, double now, unsigned opts)
{
	set_titles();
	struct inst_ctx c = { s, now, opts, w };
	table_row_build(row, cols, NCOLS, x, &c);
	finish(row, x, &c);
}

/* Row i of the snapshot's list (pointers to the shared records). */
static const void *inst_at(const void *recs, size_t i)
{
	return ((const struct instance *const *)recs)[i];
}

static long inst_id(const void *rec) { return ((const struct instance *)rec)->id; }
/* The watch whose flags the rows show (set by rebuild; UI thread only). */
static const struct watch *rev_watch;

/* A row's version: its record's, and its idle, hot and disk flags (a flag
 * that rose or fell formats that row again, not the table). */
static uint64_t inst_rev(const void *rec)
{
	const struct instance *x = rec;
	return x->rev * 8u + (rev_watch ? watch_flags(rev_watch, x->id) : 0u);
}

/* The pending jobs and unknown outcomes the rows show (badges), as pairs of
 * instance id and kind: when they differ from the last ones, every row is
 * formatted again. */
static bool badges_moved(struct inst_view *v, const struct snapshot *s)
{
	long now[2 * (MODEL_MAX_PENDING + MODEL_MAX_UNSURE)];
	size_t n = 0;
	for (size_t i = 0; s && i < s->npending; i++) {
		now[n++] = s->pending[i].instance_id;
		now[n++] = s->pending[i].kind;
	}
	for (size_t i = 0; s && i < s->nunsure; i++) {
		now[n++] = -s->unsure[i].instance_id - 1; /* apart from the pending */
		now[n++] = s->unsure[i].kind;
	}
	if (n == v->nbadges && memcmp(now, v->badges, n * sizeof *now) == 0)
		return false;
	memcpy(v->badges, now, n * sizeof *now);
	v->nbadges = n;
	return true;
}

/* Bring the rows up to the held snapshot: only the instances whose record
 * changed (their rev), or every one when the badges or the clock moved, are
 * formatted again; the selection stays on its instance. */
static void rebuild(struct app *a, struct inst_view *v)
{
	const struct snapshot *s = a->snap;
	struct inst_ctx c = { s, util_now(), instcol_opts(a->cfg->ascii, a->cfg->ssh_route),
			      &a->watch };
	if (badges_moved(v, s) || hist_moved(a, v))
		table_touch(&v->t);
	rev_watch = &a->watch;
	v->watch_gen = a->watch.gen;
	v->hist_bucket = floor(a->watch_ok / SERIES_BUCKET_S);
	struct list *l = table_list(&v->t);
	long sel_id = l->sel_id;
	size_t sel = list_selected_pos(l), nmarks = list_nmarks(l);
	bool changed = table_refill(&v->t, s ? s->instances : NULL, s ? s->ninstances : 0,
				    inst_at, &c, inst_id, inst_rev, finish);
	if (v->want && table_select_id(&v->t, v->want))
		v->want = 0;
	prune_marks(v, s);
	v->stale = false;
	if (changed || sel_id != l->sel_id || sel != list_selected_pos(l) || nmarks != list_nmarks(l))
		a->dirty |= DIRTY_BODY | DIRTY_HINTS | DIRTY_HEADER;
}

/* Is this view the one shown (possibly under an overlay)? */
static bool shown(const struct app *a, const struct inst_view *v)
{
	return a->view >= 0 && a->view < a->nviews && a->views[a->view].st == v;
}

/* The table up to date before it is read (rebuilt if rows changed while
 * hidden). */
static void fresh(struct app *a, struct inst_view *v)
{
	if (v->stale)
		rebuild(a, v);
}

/* The empty-table message. */
static const char *empty_text(const struct app *a, const struct table *t, char *buf, size_t n)
{
	const struct snapshot *s = a->snap;
	if (t->nrows && table_filter(t)[0])
		snprintf(buf, n, "no instance matches \"%s\" (Esc clears the filter)", table_filter(t));
	else if (s && s->fresh[SRC_INSTANCES].last_ok > 0)
		snprintf(buf, n, "no instances");
	else if (s && s->auth_failed && s->fresh[SRC_INSTANCES].err[0])
		snprintf(buf, n, "%s", s->fresh[SRC_INSTANCES].err); /* whose key, what to do */
	else if (s && s->fresh[SRC_INSTANCES].err[0])
		snprintf(buf, n, "no data yet: %s", s->fresh[SRC_INSTANCES].err);
	else
		snprintf(buf, n, "loading instances...");
	return buf;
}

/* What each line of the table needs (list_draw's dctx). */
struct inst_lines {
	struct app *a;
	const struct table *t;
	const struct rect *full, *r; /* the body, and the columns' part of it */
	const int *w;
	unsigned shown;
	int gw;   /* the mark column's width, 0: none */
	bool dim; /* no answer for an interval */
};

/* Line y: row r of the table's list (LIST_NONE: below the last). */
static void inst_line(void *dctx, size_t r, bool sel, int y)
{
	const struct inst_lines *d = dctx;
	const struct table *t = d->t;
	bool ascii = d->a->cfg->ascii;
	const struct table_row *row = table_row_of(t, r);
	if (!row) {
		draw_fill(y, d->full->x, d->full->w, theme_attr(ROLE_NORMAL));
		if (y == d->r->y + 1 && !table_count(t)) {
			char buf[300];
			draw_text(y, d->r->x + 1, d->r->w - 1, empty_text(d->a, t, buf, sizeof buf),
				  theme_attr(ROLE_DIM));
		}
		return;
	}
	unsigned long base =
		theme_attr(sel ? ROLE_SELECTION : d->dim ? ROLE_DIM : (enum role)row->role);
	draw_fill(y, d->full->x, d->full->w, base);
	if (d->gw && list_marked(&t->nav, r))
		draw_text(y, d->full->x, d->gw, ascii ? "*" : "\u25cf",
			  sel ? base : theme_attr(ROLE_KEY));
	int x = d->r->x, dph_x = -1;
	for (int c = 0; c < NCOLS; c++) {
		if (!(d->shown & (1u << c)))
			continue;
		unsigned long at = base;
		if (!sel && !d->dim && c == row->cell_role_col && row->cell_role >= 0)
			at = theme_attr((enum role)row->cell_role);
		draw_cell(y, x, d->w[c], row->cells[c], cols[c].right, at);
		if (c == IC_DPH && row->cells[c] && draw_width(row->cells[c]) < d->w[c])
			dph_x = x;
		x += d->w[c] + 1;
	}
	char pi[8]; /* a pending price increase: a marker in the $/H cell's margin */
	if (dph_x >= 0 && pane_account_price_text(row->id, pi, sizeof pi))
		draw_text(y, dph_x, 1, ascii ? "^" : "\u25b2",
			  sel || d->dim ? base : theme_attr(ROLE_WARNING));
}

static void inst_draw(struct app *a, void *st, const struct rect *r)
{
	struct inst_view *v = st;
	fresh(a, v);
	struct table *t = &v->t;
	/* while rows are marked, a mark column on the left */
	const int gw = list_nmarks(table_list(t)) ? 2 : 0;
	const struct rect full = *r;
	struct rect inner = *r;
	inner.x += gw;
	inner.w -= gw;
	r = &inner;
	int w[NCOLS];
	unsigned shown = pane_instances_widths(r->w, t->natural, w, !v->hide_hist);
	if ((shown & (1u << IC_HIST)) && !v->hist_shown) /* its cells are a bucket behind */
		table_touch(t);
	v->hist_shown = shown & (1u << IC_HIST);
	table_set_visible(t, shown);
	bool ascii = a->cfg->ascii;
	/* column titles */
	unsigned long ch = theme_attr(ROLE_COLHEAD);
	draw_fill(full.y, full.x, full.w, ch);
	int x = r->x;
	for (int c = 0; c < NCOLS; c++) {
		if (!(shown & (1u << c)))
			continue;
		char title[32];
		if (c == t->sort_col)
			snprintf(title, sizeof title, "%s%s", cols[c].title,
				 t->sort_rev ? (ascii ? "v" : "\u25bc") : (ascii ? "^" : "\u25b2"));
		else
			snprintf(title, sizeof title, "%s", cols[c].title);
		draw_cell(r->y, x, w[c], title, cols[c].right, ch);
		x += w[c] + 1;
	}
	struct list_wait lw; /* no answer for an interval: the rows are dimmed */
	struct inst_lines d = { a, t, &full, r, w, shown, gw, header_late(a, &lw) };
	list_draw(table_list(t), r->y + 1, r->h - 1, inst_line, &d);
}

/* ---- actions on the marked rows ------------------------------------------- */

/* Open the confirmation of v->plan (already planned). */
static void open_plan(struct app *a, struct inst_view *v)
{
	const struct snapshot *s = a->snap;
	char text[512];
	inst_bulk_text(&v->plan, s->instances, s->ninstances, text, sizeof text);
	if (!v->plan.n) {
		app_toast(a, ROLE_WARNING, 10, "%s", text);
		inst_bulk_free(&v->plan);
		return;
	}
	char title[64];
	snprintf(title, sizeof title, "%s %zu instance%s", inst_bulk_name(v->plan.op), v->plan.n,
		 v->plan.n == 1 ? "" : "s");
	title[0] = (char)(title[0] - 'a' + 'A');
	switch (v->plan.op) {
	case BULK_STOP: dialog_confirm(&v->dlg, 0, 0, title, text, "Stop"); break;
	case BULK_START: dialog_confirm(&v->dlg, 0, 0, title, text, "Start"); break;
	case BULK_DESTROY: dialog_confirm(&v->dlg, 0, 0, title, text, "Destroy"); break;
	case BULK_LABEL: dialog_input(&v->dlg, 0, 0, title, text, "", LABEL_MAX); break;
	}
	a->dirty |= DIRTY_ALL;
}

/* `:destroy-failed`: every instance in a failure state, the count typed. */
static void destroy_failed(struct app *a, struct inst_view *v)
{
	const struct snapshot *s = a->snap;
	if (!s || v->req || v->bids || dialog_open(&v->dlg)) {
		app_toast(a, ROLE_WARNING, 8, "a bulk action is still awaited");
		return;
	}
	inst_bulk_plan_failed(&v->plan, s->instances, s->ninstances);
	if (!v->plan.n) {
		inst_bulk_free(&v->plan);
		app_toast(a, ROLE_OK, 8, "no instance is in a failure state");
		return;
	}
	char list[440], text[512];
	inst_bulk_text(&v->plan, s->instances, s->ninstances, list, sizeof list);
	snprintf(text, sizeof text, "%s Type %zu to confirm:", list, v->plan.n);
	dialog_input(&v->dlg, 0, 0, "Destroy failed instances", text, "", 8);
	v->typed = true;
	a->dirty |= DIRTY_ALL;
}

static bool bulk_op_of(enum action act, enum bulk_op *op)
{
	static const struct { const char *name; enum bulk_op op; } m[] = {
		{ "stop", BULK_STOP }, { "start", BULK_START }, { "destroy", BULK_DESTROY },
		{ "label", BULK_LABEL },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (act == keymap_action_by_name(m[i].name)) {
			*op = m[i].op;
			return true;
		}
	return false;
}

enum { PURPOSE_PLAN, PURPOSE_HIDDEN }; /* v->dlg.purpose */

/* Plan op over ids (n) and open its confirmation. */
static void plan_on(struct app *a, struct inst_view *v, enum bulk_op op, const long *ids, size_t n)
{
	inst_bulk_plan(&v->plan, op, a->snap->instances, a->snap->ninstances, ids, n);
	v->typed = false;
	open_plan(a, v);
}

/* Plan op over every marked row and open its confirmation. */
static void plan_marked(struct app *a, struct inst_view *v, enum bulk_op op)
{
	size_t n;
	const long *marks = list_marks(&v->t.nav, &n);
	plan_on(a, v, op, marks, n);
}

/* stop, start, destroy, label while rows are marked: on the marked rows;
 * when the filter hides some of them, first the question which. */
static bool inst_bulk(struct app *a, void *st, enum action act)
{
	struct inst_view *v = st;
	enum bulk_op op;
	if (!list_nmarks(table_list(&v->t)) || !bulk_op_of(act, &op))
		return false;
	if (a->read_only) {
		app_toast(a, ROLE_ERROR, 8, "read-only mode: %s is disabled", inst_bulk_name(op));
		return true;
	}
	if (!a->snap || v->req || v->bids || dialog_open(&v->dlg)) {
		app_toast(a, ROLE_WARNING, 8, "a bulk action is still awaited");
		return true;
	}
	fresh(a, v);
	long *vis, *hid;
	size_t nvis, nhid;
	inst_bulk_split_table(&v->t, &vis, &nvis, &hid, &nhid);
	v->kept = 0;
	if (!nhid) {
		plan_marked(a, v, op);
	} else {
		char text[600], first[24], second[24];
		const struct table_row *sel = table_selected(&v->t);
		v->ask_act = act;
		v->ask_op = op;
		v->ask_q = inst_bulk_hidden_text(op, nvis, nhid, table_filter(&v->t), sel ? sel->id : 0,
						 text, sizeof text, first, second);
		if (v->ask_q == BHQ_MARKED_ONLY)
			dialog_confirm(&v->dlg, PURPOSE_HIDDEN, 0, "Marked rows hidden", text, second);
		else
			dialog_choice(&v->dlg, PURPOSE_HIDDEN, 0, "Marked rows hidden", text, first,
				      second);
		a->dirty |= DIRTY_ALL;
	}
	free(vis);
	free(hid);
	return true;
}

/* The answer to the hidden-marks question (answer: 0 or 1, the choice's). */
static void hidden_answer(struct app *a, struct inst_view *v, int answer)
{
	long *vis, *hid;
	size_t nvis, nhid;
	dialog_close(&v->dlg);
	inst_bulk_split_table(&v->t, &vis, &nvis, &hid, &nhid);
	switch (v->ask_q) {
	case BHQ_VISIBLE_OR_ALL:
		if (answer == 0) {
			v->kept = nhid; /* left marked, and said so when sent */
			plan_on(a, v, v->ask_op, vis, nvis);
		} else {
			plan_marked(a, v, v->ask_op);
		}
		break;
	case BHQ_SELECTED_OR_MARKED:
		if (answer == 0)
			view_send_action(a, v->ask_act); /* the one-row key, its own dialog */
		else
			plan_on(a, v, v->ask_op, hid, nhid);
		break;
	case BHQ_MARKED_ONLY:
		plan_on(a, v, v->ask_op, hid, nhid);
		break;
	}
	free(vis);
	free(hid);
}

/* Send request v->bk of the confirmed stop, start or destroy; a refusal
 * (nothing sent) ends it, saying which instances were not sent. */
static void send_batch(struct app *a, struct inst_view *v)
{
	size_t off, n = api_bulk_batch(v->bn, v->bk, &off);
	const char *name = inst_bulk_name(v->req_op);
	struct job_call c = { .action = true, .map = inst_bulk_map };
	c.call = v->req_op == BULK_DESTROY
			 ? api_bulk_destroy(a->cfg, v->bids + off, n)
			 : api_bulk_state(a->cfg, v->bids + off, n, v->req_op == BULK_START);
	/* a lost answer: the poller re-reads each and reports what it shows */
	c.lost_kind = v->req_op == BULK_DESTROY ? JOB_DESTROY
		      : v->req_op == BULK_START ? JOB_START : JOB_STOP;
	c.nlost = n < API_BULK_BATCH ? n : API_BULK_BATCH;
	memcpy(c.lost_ids, v->bids + off, c.nlost * sizeof *c.lost_ids);
	if (v->bcount > 1)
		snprintf(c.what, sizeof c.what, "%s of %zu instance%s (request %zu of %zu)", name, n,
			 n == 1 ? "" : "s", v->bk + 1, v->bcount);
	else
		snprintf(c.what, sizeof c.what, "%s of %zu instance%s", name, n, n == 1 ? "" : "s");
	int id = 0, rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		model_event(a->m, EV_ERROR, -1, 0, 0, 0, "%s refused: %s; %zu instance%s not sent",
			    c.what, jobs_strerror(rc), v->bn - off, v->bn - off == 1 ? "" : "s");
		free(v->bids);
		v->bids = NULL;
		v->req = 0;
		return;
	}
	v->req = id;
	v->req_n = n;
}

/* The confirmed plan goes out.  Every mark it looked at is cleared, the
 * rows it skipped too (said in the event log): a mark is a selection for
 * one action, as a k9s or htop user makes it, so the next key acts on what
 * is selected.  Marks the operator left out (hidden by the filter,
 * "Visible only") stay, and the event log says so. */
static void send_plan(struct app *a, struct inst_view *v, const char *label)
{
	struct bulk_plan *p = &v->plan;
	const char *name = inst_bulk_name(p->op);
	char sent[160] = "";
	switch (p->op) {
	case BULK_STOP:
	case BULK_START:
	case BULK_DESTROY:
		v->req_op = p->op;
		v->bn = p->n;
		v->bk = 0;
		v->bcount = api_bulk_batches(p->n);
		v->bids = xcalloc(p->n, sizeof *v->bids);
		memcpy(v->bids, p->ids, p->n * sizeof *p->ids);
		send_batch(a, v);
		if (v->bcount > 1)
			snprintf(sent, sizeof sent, "%s: sending %zu instances in %zu requests of at most %d",
				 name, p->n, v->bcount, API_BULK_BATCH);
		else
			snprintf(sent, sizeof sent, "%s: sent for %zu instance%s", name, p->n,
				 p->n == 1 ? "" : "s");
		break;
	case BULK_LABEL: {
		struct job_req req;
		size_t ok = 0;
		for (size_t i = 0; i < p->n; i++) {
			memset(&req, 0, sizeof req);
			req.kind = JOB_LABEL;
			req.instance_id = p->ids[i];
			util_strlcpy(req.text, label, sizeof req.text);
			if (inst_dialogs_submit(a, &req, NULL))
				ok++;
		}
		snprintf(sent, sizeof sent, "label: sent for %zu of %zu instances", ok, p->n);
		break;
	}
	}
	list_marks_drop(table_list(&v->t), p->ids, p->n);
	list_marks_drop(table_list(&v->t), p->skip, p->nskip);
	app_toast(a, ROLE_PENDING, 0, "%s", sent);
	/* what became of the marks, kept in the event log */
	char more[160] = "";
	if (p->nskip)
		snprintf(more, sizeof more, "; the %zu skipped unmarked", p->nskip);
	if (v->kept) {
		size_t l = strlen(more);
		snprintf(more + l, sizeof more - l, "; %zu hidden by the filter still marked (U unmarks)",
			 v->kept);
	}
	if (more[0])
		model_event(a->m, EV_INFO, -1, 0, 0, 0, "%s marks: %zu acted on%s", name, p->n, more);
}

/* Keys while the bulk dialog is open. */
static bool inst_modal_key(struct app *a, void *st, int key)
{
	struct inst_view *v = st;
	if (!dialog_open(&v->dlg))
		return false;
	enum dlg_result r = dialog_key(&v->dlg, key);
	if (r == DLG_CANCEL) {
		dialog_close(&v->dlg);
		inst_bulk_free(&v->plan);
		app_toast(a, ROLE_DIM, 4, "cancelled: nothing sent");
	} else if (r == DLG_SUBMIT && v->dlg.purpose == PURPOSE_HIDDEN) {
		hidden_answer(a, v, v->dlg.kind == DLG_CHOICE ? v->dlg.focus : 1);
	} else if (r == DLG_SUBMIT) {
		char err[256];
		if (v->typed) {
			char want[32];
			snprintf(want, sizeof want, "%zu", v->plan.n);
			if (strcmp(v->dlg.tb.s, want) != 0) {
				snprintf(v->dlg.error, sizeof v->dlg.error,
					 "type %s (the number of instances) to destroy them, Esc cancels",
					 want);
				return true;
			}
		} else if (v->plan.op == BULK_LABEL &&
			   !dialog_check_label(v->dlg.tb.s, err, sizeof err)) {
			util_strlcpy(v->dlg.error, err, sizeof v->dlg.error);
			return true;
		}
		char label[LABEL_MAX + 1];
		util_strlcpy(label, v->dlg.tb.s, sizeof label);
		dialog_close(&v->dlg);
		if (a->read_only)
			app_toast(a, ROLE_ERROR, 8, "read-only mode: %s is disabled",
				  inst_bulk_name(v->plan.op));
		else
			send_plan(a, v, label);
		inst_bulk_free(&v->plan);
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

static bool inst_modal_draw(struct app *a, void *st)
{
	struct inst_view *v = st;
	if (!dialog_open(&v->dlg))
		return false;
	dialog_draw(&v->dlg, &a->lay);
	return v->dlg.kind == DLG_INPUT;
}

/* The answer of a bulk request, into the event log (and so a toast); then
 * the next request of the action, whatever this one's outcome (a lost one
 * is not sent again: the poller said its outcome is unknown). */
static void take_bulk(struct app *a, struct inst_view *v)
{
	struct call_result r;
	if (!v->req || !model_take_result(a->m, v->req, &r))
		return;
	const char *name = inst_bulk_name(v->req_op);
	/* refused for want of 2FA: no result until the 2FA prompt is answered
	 * (the call sent again: this is its result) or cancelled (a failure) */
	char which[48] = "";
	if (v->bcount > 1)
		snprintf(which, sizeof which, " (request %zu of %zu)", v->bk + 1, v->bcount);
	switch (r.outcome) {
	case CALL_OK: {
		const struct bulk_answer *b = r.value;
		char more[96] = "";
		if (b && b->queued)
			snprintf(more, sizeof more, ", %d queued (waiting for their GPUs)", b->queued);
		if (b && b->missing) {
			size_t l = strlen(more);
			snprintf(more + l, sizeof more - l, ", %d not found", b->missing);
		}
		if (b && b->done >= 0)
			model_event(a->m, EV_OK, -1, 0, 0, 0, "%s%s: done for %d of %zu instance%s%s",
				    name, which, b->done, v->req_n, v->req_n == 1 ? "" : "s", more);
		else
			model_event(a->m, EV_OK, -1, 0, 0, 0, "%s%s: done for %zu instance%s", name,
				    which, v->req_n, v->req_n == 1 ? "" : "s");
		break;
	}
	case CALL_ERROR:
		model_event(a->m, EV_ERROR, -1, 0, 0, 0, "%s%s of %zu instance%s failed: %s", name,
			    which, v->req_n, v->req_n == 1 ? "" : "s", r.err.msg);
		break;
	case CALL_UNKNOWN: /* the poller said so in the event log, and re-reads each instance */
		break;
	}
	model_call_result_free(&r);
	v->req = 0;
	if (v->bids && ++v->bk < v->bcount) {
		send_batch(a, v);
	} else {
		free(v->bids);
		v->bids = NULL;
	}
	if (a->poller)
		poller_refresh_now(a->poller);
}

static bool inst_action(struct app *a, void *st, enum action act)
{
	struct inst_view *v = st;
	struct table *t = &v->t;
	struct list *l = table_list(t);
	if (!keymap_action_builtin(act)) { /* a registered action: this view's, or its run handles it */
		if (act == act_mark) {
			size_t row = list_selected(l);
			if (row != LIST_NONE) {
				list_mark_toggle(l, row);
				list_move(l, 1);
			}
		} else if (act == act_unmark) {
			list_marks_clear(l);
		} else if (act == act_destroy_failed) {
			destroy_failed(a, v);
		} else if (act == act_hist) {
			v->hide_hist = !v->hide_hist;
			app_toast(a, ROLE_DIM, 3, "GPU 1H column %s", v->hide_hist ? "hidden" : "shown");
		} else {
			return false; /* not this view's */
		}
		a->dirty |= DIRTY_ALL;
		return true;
	}
	switch (act) { /* the moves are the list's (view_ops.list) */
	case ACT_SORT_PREV: table_sort_step(t, -1); break;
	case ACT_SORT_NEXT: table_sort_step(t, 1); break;
	case ACT_SORT_INVERT: table_set_sort(t, t->sort_col, !t->sort_rev); break;
	case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
	case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
	case ACT_NEXT_VIEW: case ACT_BACK: case ACT_UP: case ACT_DOWN: case ACT_PAGE_UP:
	case ACT_PAGE_DOWN: case ACT_TOP: case ACT_BOTTOM:
		return false;
	}
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
	return true;
}

/* Enter: the detail view of the selected instance. */
static void run_detail(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	if (x)
		view_open(a, "detail", x->id);
}

static const struct action_def detail_def = {
	"detail", "every field of the selected instance", NULL, AF_NEEDS_SEL | AF_HINT, NULL,
	run_detail,
};

static const struct action_def mark_def = {
	"mark", "mark or unmark the row (s S D l then act on every marked row)", NULL,
	AF_NEEDS_SEL, NULL, NULL,
};
static const struct action_def unmark_def = {
	"unmark-all", "unmark every row", NULL, 0, NULL, NULL,
};
static const struct action_def destroy_failed_def = {
	"destroy-failed", "destroy every instance in a failure state (type the count to confirm)",
	NULL, AF_MUTATES, NULL, NULL,
};

static const struct action_def hist_def = {
	"history-column", "show or hide the GPU 1H column (the last hour of GPU utilisation)", NULL,
	0, NULL, NULL,
};

static void inst_keys(struct keymap *km, int ctx)
{
	enum action d = keymap_action_register(&detail_def);
	keymap_action_allow(d, ctx);
	keymap_default(km, ctx, "Enter", d);
	act_mark = keymap_action_register(&mark_def);
	keymap_action_allow(act_mark, ctx);
	keymap_default(km, ctx, "Space", act_mark);
	act_unmark = keymap_action_register(&unmark_def);
	keymap_action_allow(act_unmark, ctx);
	keymap_default(km, ctx, "U", act_unmark);
	act_destroy_failed = keymap_action_register(&destroy_failed_def);
	keymap_action_allow(act_destroy_failed, ctx);
	act_hist = keymap_action_register(&hist_def);
	keymap_action_allow(act_hist, ctx);
	keymap_default(km, ctx, "H", act_hist);
	inst_actions_keys(km, ctx);
	pane_offers_replace_keys(km, ctx);
	pane_account_inst_keys(km, ctx);
}

/* Shown with an instance id (a new one): select it, now or once listed. */
static void inst_enter(struct app *a, void *st, long arg)
{
	struct inst_view *v = st;
	if (arg <= 0) {
		fresh(a, v);
		return;
	}
	v->want = arg;
	if (table_filter(&v->t)[0]) /* a filter must not hide the instance asked for */
		table_set_filter(&v->t, "");
	rebuild(a, v);
}

/* A create whose answer was lost, matched by the poller's re-read to the
 * instance it made: that row is selected, as after a create that answered. */
static void inst_event(struct app *a, void *st, const struct event *e)
{
	if (e->flags & EVF_JOB_DONE)
		inst_dialogs_results(a); /* a job's end: this view's, if it sent it */
	if (e->job_kind == (int)JOB_CREATE && (e->flags & EVF_RESOLVED) && e->instance_id > 0)
		inst_enter(a, st, e->instance_id);
}

static void *inst_init(struct app *a)
{
	(void)a;
	struct inst_view *v = xcalloc(1, sizeof *v);
	set_titles();
	table_init(&v->t, cols, NCOLS, IC_ID);
	v->dlgs = inst_dialogs_new();
	return v;
}

static void inst_fini(struct app *a, void *st)
{
	struct inst_view *v = st;
	table_free(&v->t);
	inst_bulk_free(&v->plan);
	if (v->req)
		model_drop_result(a->m, v->req);
	free(v->bids);
	inst_dialogs_free(v->dlgs, a->m);
	free(v);
}

/* New rows: rebuilt now when shown; while another view is shown (the
 * offers view over a 10,000-instance fleet) only marked stale, so that
 * each refresh does not cost the UI thread a hidden table's rebuild. */
static void inst_snapshot(struct app *a, void *st, bool rows)
{
	struct inst_view *v = st;
	take_bulk(a, v);
	inst_dialogs_results(a); /* its jobs' ends, by request id */
	if (!rows && v->watch_gen == a->watch.gen && !hist_moved(a, v)) /* as shown */
		return;
	if (shown(a, v))
		rebuild(a, v);
	else
		v->stale = true;
}

/* A minute passed: the ages move (every row is formatted again). */
static void inst_clock(struct app *a, void *st)
{
	struct inst_view *v = st;
	table_touch(&v->t);
	rebuild(a, v);
}

static const void *inst_row(const struct app *a, const void *st)
{
	const struct inst_view *v = st;
	const struct table_row *row = table_selected(&v->t);
	return row && a->snap ? model_snapshot_find(a->snap, row->id) : NULL;
}

/* The list the moves, `/` and Esc act on: the table's, up to date. */
static struct list *inst_list(struct app *a, void *st)
{
	struct inst_view *v = st;
	fresh(a, v);
	return table_list(&v->t);
}

static bool inst_sort(struct app *a, void *st, const char *col, char *err, size_t n)
{
	struct inst_view *v = st;
	fresh(a, v);
	int c = table_col_by_name(&v->t, col);
	if (c < 0) {
		char names[200] = "";
		for (int i = 0; i < NCOLS; i++) {
			size_t len = strlen(names);
			snprintf(names + len, sizeof names - len, "%s%s", i ? " " : "", cols[i].title);
		}
		snprintf(err, n, "unknown column: %s (%s)", col, names);
		return false;
	}
	table_set_sort(&v->t, c, false);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
	return true;
}

/* The column titles, for `:sort` and `:filter` completion. */
static size_t inst_columns(const struct app *a, const void *st, const char **out, size_t max)
{
	(void)a;
	(void)st;
	set_titles();
	size_t n = 0;
	for (int c = 0; c < NCOLS && n < max; c++)
		out[n++] = cols[c].title;
	return n;
}

/* The tab's count: "12", or "3/12" while a filter hides some. */
static void inst_tab(const struct app *a, const void *st, char *buf, size_t n)
{
	const struct inst_view *v = st;
	const struct snapshot *s = a->snap;
	size_t nview = table_count(&v->t), nrows = v->t.nrows, nmarks = list_nmarks(&v->t.nav);
	if (v->stale && s) {
		/* hidden: every row is shown but what a filter hides, which is
		 * known once the table is rebuilt (the last counts until then) */
		nrows = s->ninstances;
		nview = table_filter(&v->t)[0] ? nview : nrows;
	}
	if (s && s->progress.partial) {
		/* a first sweep under way: loaded/total and a progress marker */
		const char *more = a->cfg->ascii ? "..." : "\u2026";
		if (s->progress.total >= 0)
			snprintf(buf, n, "%zu/%ld%s", s->ninstances, s->progress.total, more);
		else
			snprintf(buf, n, "%zu%s", s->ninstances, more);
	} else if (nview != nrows)
		snprintf(buf, n, "%zu/%zu", nview, nrows);
	else
		snprintf(buf, n, "%zu", nrows);
	if (nmarks) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, ", %zu marked", nmarks);
	}
}

const struct view_ops view_instances = {
	.name = "instances",
	.alias = "i",
	.title = "Instances",
	.heading = "Instances view",
	.number_key = '1',
	.ctx_flags = CTXF_LIST | CTXF_TABLE,
	.instance_rows = true,
	.keys = inst_keys,
	.init = inst_init,
	.enter = inst_enter,
	.fini = inst_fini,
	.on_snapshot = inst_snapshot,
	.on_event = inst_event,
	.on_clock = inst_clock,
	.draw = inst_draw,
	.action = inst_action,
	.selected_row = inst_row,
	.list = inst_list,
	.sort = inst_sort,
	.tab_text = inst_tab,
	.columns = inst_columns,
	.bulk = inst_bulk,
	.modal_key = inst_modal_key,
	.modal_draw = inst_modal_draw,
};
