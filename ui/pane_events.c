/* pane_events.c: the event log view: every event the model reported (job
 * results, failures, errors, 2FA requests), newest first, with its time and
 * level; scrolls and filters. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "app.h"
#include "draw.h"
#include "model.h"
#include "pane.h"
#include "theme.h"
#include "util.h"

static const char *level_name(enum ev_level l)
{
	switch (l) {
	case EV_OK: return "ok";
	case EV_WARN: return "warn";
	case EV_ERROR: return "error";
	default: return "info";
	}
}

static enum role level_role(enum ev_level l)
{
	switch (l) {
	case EV_OK: return ROLE_OK;
	case EV_WARN: return ROLE_WARNING;
	case EV_ERROR: return ROLE_FAILED;
	default: return ROLE_NORMAL;
	}
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
static size_t shown_count(const struct app *a)
{
	size_t n = 0;
	for (size_t i = 0; i < a->nevents; i++)
		if (matches(&a->events[i], a->ev_filter))
			n++;
	return n;
}

static void ev_draw(struct app *a, const struct rect *r)
{
	size_t total = shown_count(a);
	char title[160];
	snprintf(title, sizeof title, " Events: %zu%s%s", total, a->ev_filter[0] ? " matching " : "",
		 a->ev_filter);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_COLHEAD));
	int h = r->h - 1;
	if (total && a->ev_sel >= total)
		a->ev_sel = total - 1;
	size_t top = a->ev_sel >= (size_t)h ? a->ev_sel - (size_t)h + 1 : 0;
	size_t k = 0; /* shown index from the newest */
	int y = r->y + 1;
	for (size_t i = a->nevents; i-- > 0 && y < r->y + 1 + h;) {
		const struct event *e = &a->events[i];
		if (!matches(e, a->ev_filter))
			continue;
		if (k++ < top)
			continue;
		bool sel = k - 1 == a->ev_sel;
		unsigned long base = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
		draw_fill(y, r->x, r->w, base);
		char when[16];
		time_t t = (time_t)e->when;
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
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
			  a->ev_filter[0] ? "no event matches the filter" : "no events yet",
			  theme_attr(ROLE_DIM));
}

static bool ev_action(struct app *a, enum action act)
{
	size_t total = shown_count(a);
	size_t page = a->lay.body.h > 2 ? (size_t)a->lay.body.h - 2 : 1;
	switch (act) {
	case ACT_UP: if (a->ev_sel) a->ev_sel--; break;
	case ACT_DOWN: if (a->ev_sel + 1 < total) a->ev_sel++; break;
	case ACT_PAGE_UP: a->ev_sel = a->ev_sel > page ? a->ev_sel - page : 0; break;
	case ACT_PAGE_DOWN:
		a->ev_sel = a->ev_sel + page < total ? a->ev_sel + page : (total ? total - 1 : 0);
		break;
	case ACT_TOP: a->ev_sel = 0; break;
	case ACT_BOTTOM: a->ev_sel = total ? total - 1 : 0; break;
	default: return false;
	}
	a->dirty |= DIRTY_BODY;
	return true;
}

static void ev_filter(struct app *a, const char *text)
{
	util_strlcpy(a->ev_filter, text, sizeof a->ev_filter);
	a->ev_sel = 0;
	a->dirty |= DIRTY_BODY;
}

static const char *ev_filter_text(const struct app *a) { return a->ev_filter; }

const struct pane pane_events = {
	.name = "events",
	.title = "Events",
	.ctx = CTX_EVENTS,
	.draw = ev_draw,
	.action = ev_action,
	.filter = ev_filter,
	.filter_text = ev_filter_text,
};
