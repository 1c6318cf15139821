/* statusbar.h: the two bottom lines.  The message line shows the filter or
 * command prompt, else the current toast (new events, errors, results);
 * the hint bar shows key hints generated from the action table and the
 * bindings of the current context: only the actions that fit the selected
 * row (their preconditions hold; mutating ones hidden under --read-only),
 * `D destroy` first when the selected instance has failed, `b bid` first
 * when it was outbid.
 * statusbar_hints() is pure. */
#ifndef RENTOP_UI_STATUSBAR_H
#define RENTOP_UI_STATUSBAR_H

#include <stdbool.h>
#include <stddef.h>

#include "keymap.h"

struct app;
struct instance;

struct hint {
	char key[24];
	const char *label;
};

/* Hints for ctx in display order, for the selected row (NULL: none);
 * the context's actions carrying one of the flags in first (AF_FIRST_ON_*:
 * what the selected row calls for; 0 for none) come before the rest;
 * `/` only where it filters (the view's context carries CTXF_FILTER);
 * returns how many (at most max). */
size_t statusbar_hints(const struct keymap *km, int ctx, bool read_only, const void *row,
		       unsigned first, struct hint *out, size_t max);
/* The AF_FIRST_ON_* flags an instance row calls for (x NULL: 0).  Pure. */
unsigned statusbar_first_flags(const struct instance *x);
/* The hints as one line ("? help  / filter ..."), cut to width cells. */
char *statusbar_hints_text(const struct hint *h, size_t n, int width, char *buf, size_t bufn);

/* curses: draw the message line and the hint bar. */
void statusbar_draw_message(struct app *a);
void statusbar_draw_hints(struct app *a);

#endif
