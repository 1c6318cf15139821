/* help.c: the generated help (one section per key context, then dialogs and
 * the command line) and the help overlay pane that shows it. */
#include "help.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "keymap.h"
#include "pane.h"
#include "theme.h"
#include "util.h"

static size_t add(struct help_line *out, size_t n, size_t max, bool heading, const char *keys,
		  const char *text)
{
	if (n >= max)
		return n;
	out[n].heading = heading;
	util_strlcpy(out[n].keys, keys, sizeof out[n].keys);
	util_strlcpy(out[n].text, text, sizeof out[n].text);
	return n + 1;
}

size_t help_build(const struct keymap *km, bool read_only, struct help_line *out, size_t max)
{
	static const char *const headings[CTX__COUNT] = {
		[CTX_GLOBAL] = "Everywhere", [CTX_INSTANCES] = "Instances view",
		[CTX_EVENTS] = "Events view", [CTX_DETAIL] = "Instance detail",
		[CTX_HELP] = "This help",
	};
	size_t n = 0;
	for (int c = 0; c < CTX__COUNT; c++) {
		bool any = false;
		for (int a = 0; a < ACT__COUNT; a++) {
			unsigned where = action_contexts((enum action)a);
			bool here = c == CTX_GLOBAL ? where == CM_ALL
						    : where != CM_ALL && (where & CTXM(c));
			if (!here)
				continue;
			if (read_only && (action_flags((enum action)a) & AF_MUTATES))
				continue;
			char keys[64];
			keymap_keys_for(km, (enum km_ctx)c, (enum action)a, keys, sizeof keys);
			if (!keys[0])
				continue;
			if (!any) {
				if (n)
					n = add(out, n, max, false, "", "");
				n = add(out, n, max, true, "", headings[c]);
				any = true;
			}
			n = add(out, n, max, false, keys, action_help((enum action)a));
		}
	}
	n = add(out, n, max, false, "", "");
	n = add(out, n, max, true, "", "Dialogs and prompts");
	n = add(out, n, max, false, "Tab/Left/Right", "move between buttons");
	n = add(out, n, max, false, "Enter", "activate the button; apply the prompt");
	n = add(out, n, max, false, "Esc", "cancel; clear the filter");
	n = add(out, n, max, false, "Backspace/C-u", "delete a character; delete to the start");
	n = add(out, n, max, false, "", "");
	n = add(out, n, max, true, "", "Commands (after :)");
	n = add(out, n, max, false, ":instances :events", "switch view");
	n = add(out, n, max, false, ":sort COLUMN", "sort the instances (ID, LABEL, STATUS, GPUS, $/H, ...)");
	n = add(out, n, max, false, ":filter TEXT", "filter the current list");
	n = add(out, n, max, false, ":theme NAME", "load themes/NAME.theme");
	n = add(out, n, max, false, ":refresh :help :q", "refresh now, this help, quit");
	if (read_only)
		n = add(out, n, max, false, "", "read-only mode: actions that change anything are disabled");
	return n;
}

#define HELP_MAX 160

static void help_draw(struct app *a, const struct rect *r)
{
	static struct help_line lines[HELP_MAX];
	size_t n = help_build(&a->km, a->read_only, lines, HELP_MAX);
	draw_cell(r->y, r->x, r->w, " Help  (Esc or q closes; Up/Down scroll)", false,
		  theme_attr(ROLE_TITLE));
	int h = r->h - 1;
	if (a->help_scroll > (int)n - h)
		a->help_scroll = (int)n - h;
	if (a->help_scroll < 0)
		a->help_scroll = 0;
	int kw = 22;
	for (int i = 0; i < h; i++) {
		int y = r->y + 1 + i;
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		size_t k = (size_t)(a->help_scroll + i);
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

static bool help_action(struct app *a, enum action act)
{
	int page = a->lay.body.h > 2 ? a->lay.body.h - 2 : 1;
	switch (act) {
	case ACT_UP: a->help_scroll--; break;
	case ACT_DOWN: a->help_scroll++; break;
	case ACT_PAGE_UP: a->help_scroll -= page; break;
	case ACT_PAGE_DOWN: a->help_scroll += page; break;
	case ACT_TOP: a->help_scroll = 0; break;
	case ACT_BOTTOM: a->help_scroll = HELP_MAX; break;
	case ACT_HELP: pane_close_overlay(a); break;
	default: return false;
	}
	a->dirty |= DIRTY_BODY;
	return true;
}

static void help_show(struct app *a) { a->help_scroll = 0; }

const struct pane pane_help = {
	.name = "help",
	.title = "Help",
	.ctx = CTX_HELP,
	.draw = help_draw,
	.action = help_action,
	.on_show = help_show,
};
