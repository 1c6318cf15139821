/* help.h: the help screen, generated from the action catalogue and the
 * bindings in force (user overrides included), so it cannot drift.  Under
 * --read-only, actions that change anything are left out.  help_build() is
 * pure; the help pane (pane_help in pane.h) draws its lines. */
#ifndef RENTOP_UI_HELP_H
#define RENTOP_UI_HELP_H

#include <stdbool.h>
#include <stddef.h>

struct keymap;

struct help_line {
	bool heading;
	int ctx;        /* a section's heading: its key context; else -1 */
	char keys[64];
	char text[240];
	bool cont;      /* help_wrap: the rest of the line before (no keys) */
	size_t src;     /* help_wrap: its line in help_build's */
};

/* The help view's lines: every heading and binding must fit (the views
 * register many actions; test_ui_actions checks the full keymap's count
 * stays under it). */
#define HELP_MAX 800

/* Fill out (at most max lines); returns the number of lines.  Every key
 * context has its section (a heading, then its keys); a view's section
 * with no action of its own (the account view's audit log) lists its
 * view's `/` when that filters. */
size_t help_build(const struct keymap *km, bool read_only, struct help_line *out, size_t max);
/* The lines of in (n, from help_build) laid out for a text column of
 * text_w cells: a text wider than that is word-wrapped onto continuation
 * lines (cont, no keys), never cut mid-word (only a word wider than the
 * column is, alone on its line); headings and blanks are kept as they
 * are.  Each out line's src is its line in in.  Returns how many (at most
 * max).  Pure. */
size_t help_wrap(const struct help_line *in, size_t n, int text_w, struct help_line *out,
		 size_t max);
/* The help view's columns: the keys', from the left edge (2 cells in). */
#define HELP_KEYS_W 22
/* The text column's width in a help view w cells wide. */
#define HELP_TEXT_W(w) ((w) - 3 - HELP_KEYS_W)
/* The line where the help of key context ctx begins (its section's heading,
 * else its parent's), 0 when it has none: F1 and ? open the help there. */
size_t help_section_line(const struct help_line *l, size_t n, int ctx);

#endif
