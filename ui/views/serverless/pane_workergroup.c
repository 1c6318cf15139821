/* pane_workergroup.c: the workergroup detail overlay, opened with Enter on
 * a workergroup row of the serverless view: every field of the workergroup
 * (sv_tree_workergroup_lines; its api_key is never kept and shows as <hidden>).
 * Follows the snapshot; scrolls; q or Esc returns to the tree. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "draw.h"
#include "widgets/list.h"
#include "views/serverless/sv_tree.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"

#define WG_LINES 32

struct wg_view {
	long id;
	struct sv_line lines[WG_LINES]; /* built again when drawn */
	size_t n;
	struct list list; /* a pager over lines */
};

static void wg_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct wg_view *v = ctx;
	snprintf(buf, n, "%s %s", v->lines[i].key, v->lines[i].value);
}

static const struct list_ops wg_list_ops = { wg_text, NULL, NULL, NULL };

static const struct workergroup *find(const struct app *a, long id)
{
	for (size_t i = 0; a->snap && i < a->snap->nworkergroups; i++)
		if (a->snap->workergroups[i].id == id)
			return &a->snap->workergroups[i];
	return NULL;
}

struct wg_draw_ctx {
	const struct wg_view *v;
	const struct rect *r;
};

static void wg_line(void *dctx, size_t i, bool sel, int y)
{
	(void)sel;
	const struct wg_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (i == LIST_NONE)
		return;
	draw_cell(y, r->x + 1, 16, d->v->lines[i].key, false, theme_attr(ROLE_DIM));
	draw_text(y, r->x + 18, r->w - 18, d->v->lines[i].value, theme_attr(ROLE_NORMAL));
}

static void wg_draw(struct app *a, void *st, const struct rect *r)
{
	struct wg_view *v = st;
	const struct workergroup *g = find(a, v->id);
	char title[96];
	snprintf(title, sizeof title, " Workergroup %ld  (q: back)", v->id);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	v->n = g ? sv_tree_workergroup_lines(g, pane_serverless_template(a, g->template_hash), v->lines,
					WG_LINES)
		 : 0;
	list_set_count(&v->list, v->n);
	struct wg_draw_ctx d = { v, r };
	list_draw(&v->list, r->y + 1, r->h - 1, wg_line, &d);
	if (!g && r->h > 1)
		draw_text(r->y + 1, r->x + 1, r->w - 1, "this workergroup is gone",
			  theme_attr(ROLE_WARNING));
}

static struct list *wg_list(struct app *a, void *st)
{
	(void)a;
	struct wg_view *v = st;
	return &v->list;
}

static void *wg_init(struct app *a)
{
	(void)a;
	struct wg_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &wg_list_ops, v, true);
	return v;
}

static void wg_fini(struct app *a, void *st)
{
	(void)a;
	struct wg_view *v = st;
	list_free(&v->list);
	free(v);
}

static void wg_enter(struct app *a, void *st, long id)
{
	(void)a;
	struct wg_view *v = st;
	v->id = id;
	list_set_filter(&v->list, ""); /* the top, unfiltered */
}

static void wg_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	const struct view *cur = view_current(a); /* only when shown (pane_detail.c) */
	if (cur && cur->st == st)
		a->dirty |= DIRTY_BODY;
}

const struct view_ops view_workergroup = {
	.name = "workergroup",
	.title = "Workergroup",
	.heading = "Workergroup detail",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.init = wg_init,
	.fini = wg_fini,
	.enter = wg_enter,
	.on_snapshot = wg_snapshot,
	.draw = wg_draw,
	.list = wg_list,
};
