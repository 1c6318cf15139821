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
#include "draw.h"
#include "state/model.h"
#include "view.h"
#include "theme.h"
#include "base/util.h"

#define EV_MAX 2000

/* The view's private state: the log, oldest first, and the selection. */
struct ev_view {
	struct event *events;
	size_t n;
	size_t sel;         /* index from the newest (0 = newest) */
	char filter[128];
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

static bool matches(const struct event *e, const char *f)
{
	if (!*f)
		return true;
	size_t n = strlen(f);
	for (const char *p = e->text; *p; p++)
		if (strncasecmp(p, f, n) == 0)
			return true;
	return strcasecmp(level_name(e->level), f) == 0;
}

/* How many events pass the filter. */
static size_t shown_count(const struct ev_view *v)
{
	size_t n = 0;
	for (size_t i = 0; i < v->n; i++)
		if (matches(&v->events[i], v->filter))
			n++;
	return n;
}

static void ev_draw(struct app *a, void *st, const struct rect *r)
{
	(void)a;
	struct ev_view *v = st;
	size_t total = shown_count(v);
	char title[160];
	snprintf(title, sizeof title, " Events: %zu%s%s", total, v->filter[0] ? " matching " : "",
		 v->filter);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	int h = r->h - 1;
	if (total && v->sel >= total)
		v->sel = total - 1;
	size_t top = v->sel >= (size_t)h ? v->sel - (size_t)h + 1 : 0;
	size_t k = 0; /* shown index from the newest */
	int y = r->y + 1;
	for (size_t i = v->n; i-- > 0 && y < r->y + 1 + h;) {
		const struct event *e = &v->events[i];
		if (!matches(e, v->filter))
			continue;
		if (k++ < top)
			continue;
		bool sel = k - 1 == v->sel;
		unsigned long base = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
		draw_fill(y, r->x, r->w, base);
		char when[32];
		fmt_when(when, sizeof when, e->when, util_now());
		int x = r->x + 1;
		x += draw_text(y, x, r->w - (x - r->x), when, base) + 1;
		draw_cell(y, x, 5, level_name(e->level), false,
			  sel ? base : theme_attr(level_role(e->level)));
		x += 6;
		draw_text(y, x, r->w - (x - r->x), e->text, base);
		y++;
	}
	for (; y < r->y + 1 + h; y++)
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (!total)
		draw_text(r->y + 1, r->x + 1, r->w - 1,
			  v->filter[0] ? "no event matches the filter" : "no events yet",
			  theme_attr(ROLE_DIM));
}

/* The selected event (shown index v->sel from the newest), or NULL. */
static const struct event *selected(const struct ev_view *v)
{
	size_t k = 0;
	for (size_t i = v->n; i-- > 0;) {
		if (!matches(&v->events[i], v->filter))
			continue;
		if (k++ == v->sel)
			return &v->events[i];
	}
	return NULL;
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
	size_t total = shown_count(v);
	if (act == act_open) {
		const struct event *e = selected(v);
		if (e) {
			v->opened = *e;
			v->open = true;
		}
		a->dirty |= DIRTY_ALL;
		return true;
	}
	size_t page = a->lay.body.h > 2 ? (size_t)a->lay.body.h - 2 : 1;
	if (!action_builtin(act)) /* a registered action: its run handles it */
		return false;
	switch (act) {
	case ACT_UP: if (v->sel) v->sel--; break;
	case ACT_DOWN: if (v->sel + 1 < total) v->sel++; break;
	case ACT_PAGE_UP: v->sel = v->sel > page ? v->sel - page : 0; break;
	case ACT_PAGE_DOWN:
		v->sel = v->sel + page < total ? v->sel + page : (total ? total - 1 : 0);
		break;
	case ACT_TOP: v->sel = 0; break;
	case ACT_BOTTOM: v->sel = total ? total - 1 : 0; break;
	case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
	case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
	case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
	case ACT_SORT_INVERT:
		return false;
	}
	a->dirty |= DIRTY_BODY;
	return true;
}

static void ev_filter(struct app *a, void *st, const char *text)
{
	struct ev_view *v = st;
	util_strlcpy(v->filter, text, sizeof v->filter);
	v->sel = 0;
	a->dirty |= DIRTY_BODY;
}

static const char *ev_filter_text(const struct app *a, const void *st)
{
	(void)a;
	const struct ev_view *v = st;
	return v->filter;
}

/* Keep a copy of e in the log (dropping the oldest quarter when full). */
static void ev_event(struct app *a, void *st, const struct event *e)
{
	struct ev_view *v = st;
	if (v->n == EV_MAX) {
		size_t drop = EV_MAX / 4;
		memmove(v->events, v->events + drop, (EV_MAX - drop) * sizeof *v->events);
		v->n -= drop;
	}
	v->events[v->n++] = *e;
	if (v->sel)
		v->sel++; /* stay on the same event */
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
	return v;
}

static void ev_fini(struct app *a, void *st)
{
	(void)a;
	struct ev_view *v = st;
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
	.filter = ev_filter,
	.filter_text = ev_filter_text,
	.modal_key = ev_modal_key,
	.modal_draw = ev_modal_draw,
};
