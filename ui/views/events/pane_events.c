/* pane_events.c: the event log view: it keeps every event the model
 * reported (job results, failures, instance state changes, errors, 2FA
 * requests) and shows them newest first, with time (and the date when not
 * today) and level; scrolls and filters; Enter opens the selected event
 * whole (a line cut at the screen's edge). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "app.h"
#include "widgets/dialog.h"
#include "widgets/list.h"
#include "draw.h"
#include "state/model.h"
#include "view.h"
#include "theme.h"
#include "base/util.h"

#define EV_MAX 2000

/* The view's private state: the log, oldest first, and its list (row 0
 * the newest). */
struct ev_view {
	struct event *events;
	size_t n;
	long dropped;       /* events dropped from the front (ids stay) */
	struct list list;
	bool open;          /* the selected event is shown whole */
	struct event opened;
};

static enum action act_open = ACT_NONE;

static const char *level_name(enum ev_level l)
{
	switch (l) {
	case EV_OK: return "ok";
	case EV_WARN: return "warn";
	case EV_ERROR: return "error";
	case EV_INFO: return "info";
	}
	return "info";
}

static enum role level_role(enum ev_level l)
{
	switch (l) {
	case EV_OK: return ROLE_OK;
	case EV_WARN: return ROLE_WARNING;
	case EV_ERROR: return ROLE_FAILED;
	case EV_INFO: return ROLE_NORMAL;
	}
	return ROLE_NORMAL;
}

/* Row i of the list: the i-th newest event. */
static const struct event *ev_at(const struct ev_view *v, size_t i)
{
	return &v->events[v->n - 1 - i];
}

static void ev_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct event *e = ev_at(ctx, i);
	snprintf(buf, n, "%s %s", e->text, level_name(e->level));
}

static bool ev_field(const void *ctx, size_t i, const char *col, size_t ncol, char *buf, size_t n)
{
	const struct event *e = ev_at(ctx, i);
	if (ncol && strncasecmp("level", col, ncol) == 0)
		snprintf(buf, n, "%s", level_name(e->level));
	else if (ncol && strncasecmp("text", col, ncol) == 0)
		snprintf(buf, n, "%s", e->text);
	else
		return false;
	return true;
}

static long ev_id(const void *ctx, size_t i)
{
	const struct ev_view *v = ctx;
	return v->dropped + (long)(v->n - 1 - i);
}

static const struct list_ops ev_list_ops = { ev_text, ev_field, NULL, ev_id };

struct ev_draw_ctx {
	const struct ev_view *v;
	const struct rect *r;
};

static void ev_row(void *dctx, size_t i, bool sel, int y)
{
	const struct ev_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	if (i == LIST_NONE) {
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		return;
	}
	const struct event *e = ev_at(d->v, i);
	unsigned long base = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, r->x, r->w, base);
	char when[32];
	fmt_when(when, sizeof when, e->when, util_now());
	int x = r->x + 1;
	x += draw_text(y, x, r->w - (x - r->x), when, base) + 1;
	draw_cell(y, x, 5, level_name(e->level), false, sel ? base : theme_attr(level_role(e->level)));
	x += 6;
	draw_text(y, x, r->w - (x - r->x), e->text, base);
}

static void ev_draw(struct app *a, void *st, const struct rect *r)
{
	(void)a;
	struct ev_view *v = st;
	const char *f = list_filter(&v->list);
	size_t total = list_count_shown(&v->list);
	char title[160];
	snprintf(title, sizeof title, " Events: %zu%s%s", total, f[0] ? " matching " : "", f);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	struct ev_draw_ctx d = { v, r };
	list_draw(&v->list, r->y + 1, r->h - 1, ev_row, &d);
	if (!total)
		draw_text(r->y + 1, r->x + 1, r->w - 1,
			  f[0] ? "no event matches the filter" : "no events yet", theme_attr(ROLE_DIM));
}

/* Any key closes the opened event. */
static bool ev_modal_key(struct app *a, void *st, int key)
{
	(void)key;
	struct ev_view *v = st;
	if (!v->open)
		return false;
	v->open = false;
	a->dirty |= DIRTY_ALL;
	return true;
}

/* The opened event, whole, in a box over the screen. */
static bool ev_modal_draw(struct app *a, void *st)
{
	struct ev_view *v = st;
	if (!v->open || a->lay.too_small)
		return false;
	const struct event *e = &v->opened;
	char when[32], head[96], lines[14][256];
	fmt_when(when, sizeof when, e->when, 0); /* now 0: never today, so with the date */
	snprintf(head, sizeof head, "%s  %s", when, level_name(e->level));
	struct rect probe = layout_dialog(&a->lay, 76, a->lay.rows);
	int inner = probe.w - 4;
	int nl = draw_wrap(e->text, inner, lines, 12);
	struct rect r = layout_dialog(&a->lay, 76, nl + 7);
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, "Event", bg);
	int y = r.y + 1;
	draw_text(y++, r.x + 2, inner, head, theme_attr(level_role(e->level)));
	y++;
	for (int i = 0; i < nl && y < r.y + r.h - 2; i++)
		draw_text(y++, r.x + 2, inner, lines[i], bg);
	draw_text(r.y + r.h - 2, r.x + 2, inner, "any key closes", theme_attr(ROLE_DIM));
	return false;
}

static bool ev_action(struct app *a, void *st, enum action act)
{
	struct ev_view *v = st;
	if (act != act_open)
		return false;
	size_t i = list_selected(&v->list);
	if (i != LIST_NONE) {
		v->opened = *ev_at(v, i);
		v->open = true;
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

static struct list *ev_list(struct app *a, void *st)
{
	(void)a;
	struct ev_view *v = st;
	return &v->list;
}

/* Keep a copy of e in the log (dropping the oldest quarter when full). */
static void ev_event(struct app *a, void *st, const struct event *e)
{
	struct ev_view *v = st;
	if (v->n == EV_MAX) {
		size_t drop = EV_MAX / 4;
		memmove(v->events, v->events + drop, (EV_MAX - drop) * sizeof *v->events);
		v->n -= drop;
		v->dropped += (long)drop;
	}
	bool newest = list_selected_pos(&v->list) == 0;
	v->events[v->n++] = *e;
	list_set_count(&v->list, v->n); /* the selection stays on its event */
	if (newest) /* ... or on the newest, when it was there */
		list_move(&v->list, -(long)v->n);
	if (view_is(a, view_current(a), "events"))
		a->dirty |= DIRTY_BODY;
}

/* The events view's action table. */
static const struct action_row ev_rows[] = {
	{ { .name = "open-event", .help = "the selected event whole (any key closes)",
	    .flags = AF_HINT },
	  "Enter", NULL, &act_open },
};

static void *ev_init(struct app *a)
{
	(void)a;
	struct ev_view *v = xcalloc(1, sizeof *v);
	v->events = xcalloc(EV_MAX, sizeof *v->events);
	list_init(&v->list, &ev_list_ops, v, false);
	return v;
}

static void ev_fini(struct app *a, void *st)
{
	(void)a;
	struct ev_view *v = st;
	list_free(&v->list);
	free(v->events);
	free(v);
}

const struct view_ops view_events = {
	.name = "events",
	.alias = "e",
	.title = "Events",
	.heading = "Events view",
	.number_key = '2',
	.ctx_flags = CTXF_LIST,
	.actions = ev_rows,
	.nactions = sizeof ev_rows / sizeof ev_rows[0],
	.init = ev_init,
	.fini = ev_fini,
	.on_event = ev_event,
	.draw = ev_draw,
	.action = ev_action,
	.list = ev_list,
	.modal_key = ev_modal_key,
	.modal_draw = ev_modal_draw,
};
