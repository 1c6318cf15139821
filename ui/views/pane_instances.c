/* pane_instances.c: the instances view: one row per instance (id, label,
 * status with pending badges, GPUs, utilisation, price, age, SSH address,
 * image, machine), coloured by state, failed rows highlighted; sorting,
 * filtering and a selection that follows the instance id.  Its keys are the
 * instance actions (inst_actions.c) and Enter, which opens the detail view. */
#include "pane_instances.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "inst_actions.h"
#include "instcol.h"
#include "config.h"
#include "draw.h"
#include "jobs.h"
#include "pane_offers.h"
#include "model.h"
#include "table.h"
#include "theme.h"
#include "util.h"

/* What the accessors need besides the instance. */
struct inst_ctx {
	const struct snapshot *s;
	double now;
	bool ascii;
};

/* The accessor of every column: instcol.c formats it, for --dump too. */
static void cell(const void *rec, const void *ctx, int arg, char *buf, size_t n, double *key)
{
	const struct inst_ctx *c = ctx;
	instcol_format((enum instcol)arg, rec, c->s, c->now, c->ascii, buf, n, key);
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
	COL(IC_MACHINE, 7, 8, 8, true, true, false),
};
#undef COL
#define NCOLS IC__COUNT

static void set_titles(void)
{
	for (int c = 0; c < NCOLS; c++)
		cols[c].title = instcol_title((enum instcol)c);
}

/* The view's private state. */
struct inst_view {
	struct table t;
	int rows; /* table rows drawn last time (the page size) */
	long want; /* select this instance once it is listed (a new one), 0: none */
};

static enum role state_role(enum inst_state s)
{
	switch (s) {
	case IS_RUNNING: return ROLE_RUNNING;
	case IS_PROVISIONING: case IS_LOADING: case IS_STARTING: case IS_REBOOTING:
	case IS_STOPPING:
		return ROLE_LOADING;
	case IS_STOPPED: return ROLE_STOPPED;
	case IS_EXITED: case IS_CREATED: case IS_UNKNOWN: case IS_OFFLINE: return ROLE_FAILED;
	case IS_FROZEN: case IS_OTHER: case IS__COUNT: return ROLE_DIM;
	}
	return ROLE_DIM;
}

/* Id and colours of a row built by the accessors. */
static void finish(struct table_row *row, const void *rec, const void *ctx)
{
	const struct instance *x = rec;
	const struct inst_ctx *c = ctx;
	row->id = x->id;
	row->role = inst_state_failed(x->state) ? ROLE_FAILED : ROLE_NORMAL;
	row->cell_role_col = IC_STATUS;
	row->cell_role = instcol_pending(x, c->s) ? ROLE_PENDING : state_role(x->state);
}

void pane_instances_row(struct table_row *row, const struct instance *x, const struct snapshot *s,
			double now, bool ascii)
{
	set_titles();
	struct inst_ctx c = { s, now, ascii };
	table_row_build(row, cols, NCOLS, x, &c);
	finish(row, x, &c);
}

/* Rebuild the rows from the held snapshot (data changed or time passed);
 * the selection stays on its instance. */
static void rebuild(struct app *a, struct inst_view *v)
{
	const struct snapshot *s = a->snap;
	struct inst_ctx c = { s, util_now(), a->cfg->ascii };
	table_fill(&v->t, s ? s->instances : NULL, s ? s->ninstances : 0, sizeof(struct instance), &c,
		   finish);
	if (v->want && table_select_id(&v->t, v->want))
		v->want = 0;
	a->dirty |= DIRTY_BODY | DIRTY_HINTS | DIRTY_HEADER;
}

/* The empty-table message. */
static const char *empty_text(const struct app *a, const struct table *t, char *buf, size_t n)
{
	const struct snapshot *s = a->snap;
	if (t->nrows && t->filter[0])
		snprintf(buf, n, "no instance matches \"%s\" (Esc clears the filter)", t->filter);
	else if (s && s->fresh[SRC_INSTANCES].last_ok > 0)
		snprintf(buf, n, "no instances");
	else if (s && s->fresh[SRC_INSTANCES].err[0])
		snprintf(buf, n, "no data yet: %s", s->fresh[SRC_INSTANCES].err);
	else
		snprintf(buf, n, "loading instances...");
	return buf;
}

static void inst_draw(struct app *a, void *st, const struct rect *r)
{
	struct inst_view *v = st;
	struct table *t = &v->t;
	int w[NCOLS];
	unsigned shown = table_widths_fit(cols, NCOLS, r->w, t->natural, w);
	table_set_visible(t, shown);
	bool ascii = a->cfg->ascii;
	/* column titles */
	unsigned long ch = theme_attr(ROLE_COLHEAD);
	draw_fill(r->y, r->x, r->w, ch);
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
	int h = r->h - 1;
	v->rows = h;
	table_scroll(t, h);
	for (int i = 0; i < h; i++) {
		int y = r->y + 1 + i;
		size_t k = t->top + (size_t)i;
		if (k >= t->nview) {
			draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
			if (k == 0 && i == 0) {
				char buf[300];
				draw_text(y, r->x + 1, r->w - 1, empty_text(a, t, buf, sizeof buf),
					  theme_attr(ROLE_DIM));
			}
			continue;
		}
		const struct table_row *row = &t->rows[t->view[k]];
		bool sel = k == t->sel;
		unsigned long base = theme_attr(sel ? ROLE_SELECTION : (enum role)row->role);
		draw_fill(y, r->x, r->w, base);
		x = r->x;
		for (int c = 0; c < NCOLS; c++) {
			if (!(shown & (1u << c)))
				continue;
			unsigned long at = base;
			if (!sel && c == row->cell_role_col && row->cell_role >= 0)
				at = theme_attr((enum role)row->cell_role);
			draw_cell(y, x, w[c], row->cells[c], cols[c].right, at);
			x += w[c] + 1;
		}
	}
}

static bool inst_action(struct app *a, void *st, enum action act)
{
	struct inst_view *v = st;
	struct table *t = &v->t;
	long page = v->rows > 1 ? v->rows - 1 : 1;
	if (!action_builtin(act)) /* a registered action: its run handles it */
		return false;
	switch (act) {
	case ACT_UP: table_move(t, -1); break;
	case ACT_DOWN: table_move(t, 1); break;
	case ACT_PAGE_UP: table_move(t, -page); break;
	case ACT_PAGE_DOWN: table_move(t, page); break;
	case ACT_TOP: table_home(t); break;
	case ACT_BOTTOM: table_end(t); break;
	case ACT_SORT_PREV: table_sort_step(t, -1); break;
	case ACT_SORT_NEXT: table_sort_step(t, 1); break;
	case ACT_SORT_INVERT: table_set_sort(t, t->sort_col, !t->sort_rev); break;
	case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
	case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
	case ACT_NEXT_VIEW: case ACT_BACK:
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

static void inst_keys(struct keymap *km, int ctx)
{
	enum action d = action_register(&detail_def);
	action_allow(d, ctx);
	keymap_default(km, ctx, "Enter", d);
	inst_actions_keys(km, ctx);
	pane_offers_replace_keys(km, ctx);
}

/* Shown with an instance id (a new one): select it, now or once listed. */
static void inst_enter(struct app *a, void *st, long arg)
{
	struct inst_view *v = st;
	if (arg <= 0)
		return;
	v->want = arg;
	if (v->t.filter[0]) /* a filter must not hide the instance asked for */
		table_set_filter(&v->t, "");
	rebuild(a, v);
}

static void *inst_init(struct app *a)
{
	(void)a;
	struct inst_view *v = xcalloc(1, sizeof *v);
	set_titles();
	table_init(&v->t, cols, NCOLS, IC_ID);
	return v;
}

static void inst_fini(struct app *a, void *st)
{
	(void)a;
	struct inst_view *v = st;
	table_free(&v->t);
	free(v);
}

static void inst_snapshot(struct app *a, void *st, bool rows)
{
	if (rows)
		rebuild(a, st);
}

static void inst_clock(struct app *a, void *st) { rebuild(a, st); }

static const void *inst_row(const struct app *a, const void *st)
{
	const struct inst_view *v = st;
	const struct table_row *row = table_selected(&v->t);
	return row && a->snap ? snapshot_find_instance(a->snap, row->id) : NULL;
}

static void inst_filter(struct app *a, void *st, const char *text)
{
	struct inst_view *v = st;
	table_set_filter(&v->t, text);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS | DIRTY_HEADER;
}

static const char *inst_filter_text(const struct app *a, const void *st)
{
	(void)a;
	const struct inst_view *v = st;
	return v->t.filter;
}

static bool inst_sort(struct app *a, void *st, const char *col, char *err, size_t n)
{
	struct inst_view *v = st;
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

/* The tab's count: "12", or "3/12" while a filter hides some. */
static void inst_tab(const struct app *a, const void *st, char *buf, size_t n)
{
	const struct inst_view *v = st;
	const struct snapshot *s = a->snap;
	if (s && s->progress.partial) {
		/* a first sweep under way: loaded/total and a progress marker */
		const char *more = a->cfg->ascii ? "..." : "\u2026";
		if (s->progress.total >= 0)
			snprintf(buf, n, "%zu/%ld%s", s->ninstances, s->progress.total, more);
		else
			snprintf(buf, n, "%zu%s", s->ninstances, more);
	} else if (v->t.nview != v->t.nrows)
		snprintf(buf, n, "%zu/%zu", v->t.nview, v->t.nrows);
	else
		snprintf(buf, n, "%zu", v->t.nrows);
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
	.on_clock = inst_clock,
	.draw = inst_draw,
	.action = inst_action,
	.selected_row = inst_row,
	.filter = inst_filter,
	.filter_text = inst_filter_text,
	.sort = inst_sort,
	.tab_text = inst_tab,
};
