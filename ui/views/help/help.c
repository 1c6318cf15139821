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
#include "widgets/list.h"
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
	out[n].cont = false;
	out[n].src = n;
	util_strlcpy(out[n].keys, keys, sizeof out[n].keys);
	util_strlcpy(out[n].text, text, sizeof out[n].text);
	return n + 1;
}

size_t help_build(const struct keymap *km, bool read_only, struct help_line *out, size_t max)
{
	size_t n = 0;
	for (int c = 0; c < keymap_ctx_count(); c++) {
		bool any = false, own = false; /* a line written; an action of its own */
		for (int a = 0; a < keymap_action_count(); a++) {
			unsigned f = keymap_action_flags((enum action)a);
			bool here = c == CTX_GLOBAL ? (f & AF_GLOBAL)
						    : !(f & AF_GLOBAL) && keymap_action_allowed((enum action)a, c);
			/* a section lists only its own keys: the rest is under its view */
			if (here && (keymap_ctx_flags(c) & CTXF_SECTION) &&
			    keymap_action_allowed((enum action)a, keymap_ctx_parent(c)))
				here = false;
			if (!here)
				continue;
			own = true;
			if (read_only && (f & AF_MUTATES))
				continue;
			char keys[64];
			keymap_keys_for(km, c, (enum action)a, keys, sizeof keys);
			if (!keys[0])
				continue;
			if (!any) {
				if (n)
					n = add(out, n, max, false, "", "");
				n = add(out, n, max, true, "", keymap_ctx_heading(c));
				if (n && out[n - 1].heading)
					out[n - 1].ctx = c;
				any = true;
			}
			char text[160];
			snprintf(text, sizeof text, "%s%s", keymap_action_help((enum action)a),
				 (f & AF_NEEDS_TFA) ? " (asks for a two-factor code)" : "");
			n = add(out, n, max, false, keys, text);
		}
		/* a list's own `/`: every list view filters its rows the same way;
		 * a section with no action of its own is there with its view's */
		char fkeys[64];
		keymap_keys_for(km, c, ACT_FILTER, fkeys, sizeof fkeys);
		unsigned cf = keymap_ctx_flags(c);
		bool lone = !own && (cf & CTXF_SECTION) &&
			    (keymap_ctx_flags(keymap_ctx_parent(c)) & CTXF_FILTER);
		if (fkeys[0] && ((any && (cf & CTXF_FILTER)) || lone)) {
			if (!any) {
				if (n)
					n = add(out, n, max, false, "", "");
				n = add(out, n, max, true, "", keymap_ctx_heading(c));
				if (n && out[n - 1].heading)
					out[n - 1].ctx = c;
			}
			n = add(out, n, max, false, fkeys,
				"filter the rows shown: text, column=value, !text (Esc clears)");
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
	for (int c = 1; c < keymap_ctx_count(); c++) { /* one line a view: never cut */
		if (keymap_ctx_flags(c) & CTXF_SECTION)
			continue;
		char word[64], what[160];
		snprintf(word, sizeof word, ":%s", keymap_ctx_name(c));
		snprintf(what, sizeof what, "open: %s", keymap_ctx_heading(c));
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

size_t help_wrap(const struct help_line *in, size_t n, int text_w, struct help_line *out,
		 size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < max; i++) {
		char part[8][256];
		int np = 0;
		if (!in[i].heading && text_w > 0 && util_strwidth(in[i].text) > text_w)
			np = draw_wrap(in[i].text, text_w, part, 8);
		if (np <= 1) {
			out[k] = in[i];
			out[k++].src = i;
			continue;
		}
		for (int p = 0; p < np && k < max; p++, k++) {
			out[k] = in[i];
			out[k].src = i;
			out[k].cont = p > 0;
			if (p > 0)
				out[k].keys[0] = '\0';
			util_strlcpy(out[k].text, part[p], sizeof out[k].text);
		}
	}
	return k;
}

size_t help_section_line(const struct help_line *l, size_t n, int ctx)
{
	for (int depth = 0; ctx > 0 && depth < KM_MAX_CTX; depth++) {
		for (size_t i = 0; i < n; i++)
			if (l[i].heading && l[i].ctx == ctx)
				return i;
		ctx = keymap_ctx_parent(ctx);
	}
	return 0;
}

/* The view's private state: the lines (built again when drawn: the
 * bindings and the width may change), as wrapped for the width, and the
 * pager over them. */
struct help_view {
	struct help_line built[HELP_MAX];
	size_t nbuilt;
	struct help_line lines[HELP_MAX];
	size_t n;
	struct list list;
};

/* A line's text for `/`: its keys, its text and its section's heading
 * (a wrapped line's whole: a match shows every line of it). */
static void help_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct help_view *v = ctx;
	const char *section = "";
	for (size_t k = i + 1; k-- > 0;)
		if (v->lines[k].heading) {
			section = v->lines[k].text;
			break;
		}
	const struct help_line *l = v->lines[i].src < v->nbuilt ? &v->built[v->lines[i].src] : &v->lines[i];
	snprintf(buf, n, "%s %s %s", l->keys, l->text, section);
}

static const struct list_ops help_list_ops = { help_text, NULL, NULL, NULL };

static void help_rebuild(struct app *a, struct help_view *v, int width)
{
	v->nbuilt = help_build(&a->km, a->read_only, v->built, HELP_MAX);
	v->n = help_wrap(v->built, v->nbuilt, HELP_TEXT_W(width), v->lines, HELP_MAX);
	list_set_count(&v->list, v->n);
}

struct help_draw_ctx {
	const struct help_view *v;
	const struct rect *r;
};

static void help_row(void *dctx, size_t k, bool sel, int y)
{
	(void)sel;
	const struct help_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	const int kw = HELP_KEYS_W;
	draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (k == LIST_NONE)
		return;
	const struct help_line *l = &d->v->lines[k];
	if (l->heading) {
		draw_text(y, r->x + 1, r->w - 1, l->text, theme_attr(ROLE_COLHEAD));
		return;
	}
	draw_text(y, r->x + 2, kw, l->keys, theme_attr(ROLE_KEY) & ~A_COLOR);
	draw_text(y, r->x + 2 + kw, HELP_TEXT_W(r->w), l->text, theme_attr(ROLE_NORMAL));
}

static void help_draw(struct app *a, void *st, const struct rect *r)
{
	struct help_view *v = st;
	help_rebuild(a, v, r->w);
	const char *f = list_filter(&v->list);
	char title[200];
	snprintf(title, sizeof title, " Help  (Esc or q closes; Up/Down scroll; / filters)%s%s",
		 f[0] ? "  matching: " : "", f);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_TITLE));
	struct help_draw_ctx d = { v, r };
	list_draw(&v->list, r->y + 1, r->h - 1, help_row, &d);
	if (!list_count_shown(&v->list))
		draw_text(r->y + 1, r->x + 2, r->w - 2, "no help line matches the filter",
			  theme_attr(ROLE_DIM));
}

static struct list *help_list(struct app *a, void *st)
{
	(void)a;
	struct help_view *v = st;
	return &v->list;
}

static void *help_init(struct app *a)
{
	(void)a;
	struct help_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &help_list_ops, v, true);
	return v;
}

static void help_fini(struct app *a, void *st)
{
	(void)a;
	struct help_view *v = st;
	list_free(&v->list);
	free(v);
}

/* arg: 1 + the key context help was asked from (0: the top). */
static void help_enter(struct app *a, void *st, long arg)
{
	struct help_view *v = st;
	list_set_filter(&v->list, "");
	help_rebuild(a, v, a->lay.body.w);
	list_set_height(&v->list, a->lay.body.h - 1);
	list_select(&v->list, arg > 0 ? help_section_line(v->lines, v->n, (int)arg - 1) : 0);
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
	.list = help_list,
};
