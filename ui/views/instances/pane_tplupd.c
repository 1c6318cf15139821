/* pane_tplupd.c: `:update-template [ID]`: an overlay on instance ID with
 * the template picker (views/templates/tpl_picker.h) open over it: Enter
 * picks a template, then inst_ops asks to confirm the update (starting on
 * Cancel) and sends it; Esc goes back.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/xmalloc.h"
#include "draw.h"
#include "state/model.h"
#include "theme.h"
#include "views/instances/inst_ops.h"
#include "views/templates/tpl_picker.h"

struct tplupd_view {
	long id;
	char why[300];           /* why no template can be applied now ("": none) */
	struct tpl_picker pick;
};

static void *tu_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct tplupd_view));
}

static void tu_fini(struct app *a, void *st)
{
	struct tplupd_view *v = st;
	tpl_picker_free(a, &v->pick);
	free(v);
}

static void tu_enter(struct app *a, void *st, long id)
{
	struct tplupd_view *v = st;
	v->id = id;
	v->why[0] = '\0';
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (a->read_only)
		snprintf(v->why, sizeof v->why, "refused: rentop runs --read-only");
	else if (x)
		inst_ops_why_not_recycle(x, v->why, sizeof v->why);
	if (v->why[0]) {
		app_toast(a, ROLE_WARNING, 8, "%s", v->why);
		return;
	}
	tpl_picker_open(a, &v->pick);
}

static void tu_leave(struct app *a, void *st)
{
	(void)a;
	struct tplupd_view *v = st;
	tpl_picker_close(&v->pick);
}

static void tu_draw(struct app *a, void *st, const struct rect *r)
{
	struct tplupd_view *v = st;
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
	char title[300], cur[300];
	snprintf(title, sizeof title, " Update the template of instance %ld  (Enter picks; Esc returns)",
		 v->id);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_TITLE));
	for (int y = r->y + 1; y < r->y + r->h; y++)
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (v->why[0])
		snprintf(cur, sizeof cur, "%s", v->why);
	else if (x)
		snprintf(cur, sizeof cur, "now: template %s (hash %s), image %s",
			 x->template_name[0] ? x->template_name : "-",
			 x->template_hash_id[0] ? x->template_hash_id : "-", x->image[0] ? x->image : "-");
	else
		snprintf(cur, sizeof cur, "instance %ld is no longer listed", v->id);
	if (r->h > 1)
		draw_text(r->y + 1, r->x + 1, r->w - 2, cur, theme_attr(ROLE_DIM));
}

static bool tu_modal_key(struct app *a, void *st, int key)
{
	struct tplupd_view *v = st;
	if (!v->pick.open)
		return false;
	const struct template_rec *t = NULL;
	switch (tpl_picker_key(a, &v->pick, key, &t)) {
	case TPK_CONTINUE:
		break;
	case TPK_BACK:
		view_close_overlay(a);
		break;
	case TPK_PICKED: {
		long id = v->id;
		view_close_overlay(a);
		if (t)
			inst_ops_confirm_update(a, id, t);
		break;
	}
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

static bool tu_modal_draw(struct app *a, void *st)
{
	struct tplupd_view *v = st;
	if (!v->pick.open)
		return false;
	tpl_picker_draw(a, &v->pick);
	return true;
}

static void tu_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct tplupd_view *v = st;
	if (tpl_picker_snapshot(a, &v->pick))
		a->dirty |= DIRTY_ALL;
}

static const void *tu_row(const struct app *a, const void *st)
{
	const struct tplupd_view *v = st;
	return a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
}

const struct view_ops view_tplupd = {
	.name = "update-template",
	.title = "Template",
	.heading = "Update an instance's template",
	.number_key = 0, /* an overlay */
	.ctx_parent = "instances",
	.instance_rows = true,
	.init = tu_init,
	.fini = tu_fini,
	.enter = tu_enter,
	.leave = tu_leave,
	.on_snapshot = tu_snapshot,
	.draw = tu_draw,
	.modal_key = tu_modal_key,
	.modal_draw = tu_modal_draw,
	.selected_row = tu_row,
};
