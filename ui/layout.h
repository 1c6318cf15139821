/* layout.h: pure screen geometry.  The screen is a two-line header, the body,
 * a message line (toasts, errors, the filter and command prompts) and the
 * hint bar; dialogs are centred boxes.  Below MIN_COLS x MIN_ROWS only a
 * centred "terminal too small" notice is drawn.  No curses, any thread. */
#ifndef RENTOP_UI_LAYOUT_H
#define RENTOP_UI_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_COLS 40
#define LAYOUT_MIN_ROWS 10
#define LAYOUT_HEADER_ROWS 2

struct rect {
	int y, x, h, w; /* cells */
};

struct layout {
	int rows, cols;
	bool too_small;
	struct rect header;  /* two lines */
	struct rect body;
	struct rect message; /* one line */
	struct rect hints;   /* one line */
};

void layout_compute(struct layout *l, int rows, int cols);
/* A dialog of (at most) want_w x want_h centred on the screen, leaving a
 * margin of one cell where it can; never larger than the screen. */
struct rect layout_dialog(const struct layout *l, int want_w, int want_h);
/* Column at which text of width w is centred in r (never left of r.x). */
int layout_center_x(const struct rect *r, int w);
/* Rows a list of n items can show in r with a title line (h - 1, >= 0). */
int layout_list_rows(const struct rect *r);

#endif
