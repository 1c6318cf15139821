/* pane_workergroup.c: the workergroup detail overlay, opened with Enter on
 * a workergroup row of the serverless view: every field of the workergroup
 * (sv_workergroup_lines; its api_key is never kept and shows as <hidden>).
 * Follows the snapshot; scrolls; q or Esc returns to the tree. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "draw.h"
#include "views/serverless/sv_tree.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"

#define WG_LINES 32

struct wg_view {
	long id;
	size_t scroll;
};

static const struct workergroup *find(const struct app *a, long id)
{
	for (size_t i = 0; a->snap && i < a->snap->nworkergroups; i++)
		if (a->snap->workergroups[i].id == id)
			return &a->snap->workergroups[i];
	return NULL;
}

static void wg_draw(struct app *a, void *st, const struct rect *r)
{
	struct wg_view *v = st;
	const struct workergroup *g = find(a, v->id);
	char title[96];
	snprintf(title, sizeof title, " Workergroup %ld  (q: back)", v->id);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	int y = r->y + 1, end = r->y + r->h;
	struct sv_line lines[WG_LINES];
	size_t n = g ? sv_workergroup_lines(g, pane_serverless_template(a, g->template_hash),
					    lines, WG_LINES)
		     : 0;
	if (v->scroll >= n)
		v->scroll = n ? n - 1 : 0;
	for (size_t i = v->scroll; i < n && y < end; i++, y++) {
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		draw_cell(y, r->x + 1, 16, lines[i].key, false, theme_attr(ROLE_DIM));
		draw_text(y, r->x + 18, r->w - 18, lines[i].value, theme_attr(ROLE_NORMAL));
	}
	for (; y < end; y++)
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (!g && r->h > 1)
		draw_text(r->y + 1, r->x + 1, r->w - 1, "this workergroup is gone",
			  theme_attr(ROLE_WARNING));
}

static bool wg_action(struct app *a, void *st, enum action act)
{
	struct wg_view *v = st;
	if (!action_builtin(act)) /* a registered action: its run handles it */
		return false;
	switch (act) {
	case ACT_UP: case ACT_PAGE_UP: case ACT_TOP: v->scroll = 0; break;
	case ACT_DOWN: v->scroll++; break;
	case ACT_PAGE_DOWN: case ACT_BOTTOM: v->scroll += WG_LINES; break;
	case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
	case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
	case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
	case ACT_SORT_INVERT:
		return false;
	}
	a->dirty |= DIRTY_BODY;
	return true;
}

static void *wg_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct wg_view));
}

static void wg_fini(struct app *a, void *st)
{
	(void)a;
	free(st);
}

static void wg_enter(struct app *a, void *st, long id)
{
	(void)a;
	struct wg_view *v = st;
	v->id = id;
	v->scroll = 0;
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
	.action = wg_action,
};
