/* help.c: the generated help (one section per key context, from the action
 * table and the bindings in force, then dialogs and the command line) and
 * the help overlay view that shows it. */
#include "views/help/help.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "keymap.h"
#include "view.h"
#include "theme.h"
#include "base/util.h"

static size_t add(struct help_line *out, size_t n, size_t max, bool heading, const char *keys,
		  const char *text)
{
	if (n >= max)
		return n;
	out[n].heading = heading;
	out[n].ctx = -1;
	util_strlcpy(out[n].keys, keys, sizeof out[n].keys);
	util_strlcpy(out[n].text, text, sizeof out[n].text);
	return n + 1;
}

size_t help_build(const struct keymap *km, bool read_only, struct help_line *out, size_t max)
{
	size_t n = 0;
	for (int c = 0; c < km_ctx_count(); c++) {
		bool any = false;
		for (int a = 0; a < action_count(); a++) {
			unsigned f = action_flags((enum action)a);
			bool here = c == CTX_GLOBAL ? (f & AF_GLOBAL)
						    : !(f & AF_GLOBAL) && action_allowed((enum action)a, c);
			/* a section lists only its own keys: the rest is under its view */
			if (here && (km_ctx_flags(c) & CTXF_SECTION) &&
			    action_allowed((enum action)a, km_ctx_parent(c)))
				here = false;
			if (!here)
				continue;
			if (read_only && (f & AF_MUTATES))
				continue;
			char keys[64];
			keymap_keys_for(km, c, (enum action)a, keys, sizeof keys);
			if (!keys[0])
				continue;
			if (!any) {
				if (n)
					n = add(out, n, max, false, "", "");
				n = add(out, n, max, true, "", km_ctx_heading(c));
				if (n && out[n - 1].heading)
					out[n - 1].ctx = c;
				any = true;
			}
			char text[160];
			snprintf(text, sizeof text, "%s%s", action_help((enum action)a),
				 (f & AF_NEEDS_TFA) ? " (asks for a two-factor code)" : "");
			n = add(out, n, max, false, keys, text);
		}
	}
	n = add(out, n, max, false, "", "");
	n = add(out, n, max, true, "", "Dialogs and prompts");
	n = add(out, n, max, false, "Tab/Left/Right", "move between buttons");
	n = add(out, n, max, false, "Enter", "activate the button; apply the prompt");
	n = add(out, n, max, false, "Esc", "cancel; clear the filter");
	n = add(out, n, max, false, "Backspace/C-u/C-w", "delete a character; to the start; the word before");
	n = add(out, n, max, false, "", "");
	n = add(out, n, max, true, "", "Commands (after :)");
	for (int c = 1; c < km_ctx_count(); c++) { /* one line a view: never cut */
		if (km_ctx_flags(c) & CTXF_SECTION)
			continue;
		char word[64], what[160];
		snprintf(word, sizeof word, ":%s", km_ctx_name(c));
		snprintf(what, sizeof what, "open: %s", km_ctx_heading(c));
		n = add(out, n, max, false, word, what);
	}
	n = add(out, n, max, false, ":ACTION", "run an action on the selection, as its key does (:stop, :ssh, ...)");
	n = add(out, n, max, false, ":sort COLUMN", "sort the instances (ID, LABEL, STATUS, GPUS, $/H, ...)");
	n = add(out, n, max, false, ":filter TEXT", "filter the current list");
	n = add(out, n, max, false, ":theme NAME", "load themes/NAME.theme");
	n = add(out, n, max, false, ":refresh :help :q", "refresh now, this help, quit");
	n = add(out, n, max, false, "Tab, Up/Down", "complete a command or :theme name; earlier : and / lines (kept between runs)");
	n = add(out, n, max, false, "", "");
	n = add(out, n, max, true, "", "The header's money and markers");
	n = add(out, n, max, false, "$/H, burn", "$/H: what a row costs now (full price while the GPU is billed, else storage); burn: their sum");
	n = add(out, n, max, false, "runway", "how long the credit lasts (prepaid instances pay from their own first); warning under runway_warn h (24), alarm under runway_alarm h (2), bell once");
	n = add(out, n, max, false, "AUTH STALE OFFLINE", "key refused; data old or failing; nothing answers (then burn ?, no runway)");
	if (read_only)
		n = add(out, n, max, false, "", "read-only mode: actions that change anything are disabled");
	return n;
}

size_t help_section_line(const struct help_line *l, size_t n, int ctx)
{
	for (int depth = 0; ctx > 0 && depth < KM_MAX_CTX; depth++) {
		for (size_t i = 0; i < n; i++)
			if (l[i].heading && l[i].ctx == ctx)
				return i;
		ctx = km_ctx_parent(ctx);
	}
	return 0;
}

#define HELP_MAX 400 /* lines; the views register many actions (151 in November 2026) */

/* The view's private state. */
struct help_view {
	int scroll; /* first line drawn */
};

static void help_draw(struct app *a, void *st, const struct rect *r)
{
	struct help_view *v = st;
	static struct help_line lines[HELP_MAX];
	size_t n = help_build(&a->km, a->read_only, lines, HELP_MAX);
	draw_cell(r->y, r->x, r->w, " Help  (Esc or q closes; Up/Down scroll)", false,
		  theme_attr(ROLE_TITLE));
	int h = r->h - 1;
	if (v->scroll > (int)n - h)
		v->scroll = (int)n - h;
	if (v->scroll < 0)
		v->scroll = 0;
	int kw = 22;
	for (int i = 0; i < h; i++) {
		int y = r->y + 1 + i;
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		size_t k = (size_t)(v->scroll + i);
		if (k >= n)
			continue;
		if (lines[k].heading) {
			draw_text(y, r->x + 1, r->w - 1, lines[k].text, theme_attr(ROLE_COLHEAD));
			continue;
		}
		draw_text(y, r->x + 2, kw, lines[k].keys, theme_attr(ROLE_KEY) & ~A_COLOR);
		draw_text(y, r->x + 2 + kw, r->w - 3 - kw, lines[k].text, theme_attr(ROLE_NORMAL));
	}
}

static bool help_action(struct app *a, void *st, enum action act)
{
	struct help_view *v = st;
	int page = a->lay.body.h > 2 ? a->lay.body.h - 2 : 1;
	if (!action_builtin(act)) /* registered by a view: not the help's */
		return false;
	switch (act) {
	case ACT_UP: v->scroll--; break;
	case ACT_DOWN: v->scroll++; break;
	case ACT_PAGE_UP: v->scroll -= page; break;
	case ACT_PAGE_DOWN: v->scroll += page; break;
	case ACT_TOP: v->scroll = 0; break;
	case ACT_BOTTOM: v->scroll = HELP_MAX; break;
	case ACT_HELP: view_close_overlay(a); break;
	case ACT_NONE: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH: case ACT_PAUSE:
	case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW: case ACT_NEXT_VIEW:
	case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT: case ACT_SORT_INVERT:
		return false;
	}
	a->dirty |= DIRTY_BODY;
	return true;
}

static void *help_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct help_view));
}

static void help_fini(struct app *a, void *st)
{
	(void)a;
	free(st);
}

/* arg: 1 + the key context help was asked from (0: the top). */
static void help_enter(struct app *a, void *st, long arg)
{
	struct help_view *v = st;
	static struct help_line lines[HELP_MAX];
	size_t n = help_build(&a->km, a->read_only, lines, HELP_MAX);
	v->scroll = arg > 0 ? (int)help_section_line(lines, n, (int)arg - 1) : 0;
}

const struct view_ops view_help = {
	.name = "help",
	.alias = "h",
	.title = "Help",
	.heading = "This help",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.init = help_init,
	.fini = help_fini,
	.enter = help_enter,
	.draw = help_draw,
	.action = help_action,
};
