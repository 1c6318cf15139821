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
	char text[160];
};

/* The help view's lines: every heading and binding must fit (the views
 * register many actions; test_ui_actions checks the full keymap's count
 * stays under it). */
#define HELP_MAX 800

/* Fill out (at most max lines); returns the number of lines. */
size_t help_build(const struct keymap *km, bool read_only, struct help_line *out, size_t max);
/* The line where the help of key context ctx begins (its section's heading,
 * else its parent's), 0 when it has none: F1 and ? open the help there. */
size_t help_section_line(const struct help_line *l, size_t n, int ctx);

#endif
