/* layout.c: the screen's geometry, computed from its size alone so that it
 * can be unit-tested: header, body, message line, hint bar and dialog boxes. */
#include "layout.h"

void layout_compute(struct layout *l, int rows, int cols)
{
	l->rows = rows < 0 ? 0 : rows;
	l->cols = cols < 0 ? 0 : cols;
	l->too_small = rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS;
	if (l->too_small) {
		l->header = l->body = l->message = l->hints = (struct rect){ 0, 0, 0, 0 };
		l->body = (struct rect){ 0, 0, l->rows, l->cols };
		return;
	}
	l->header = (struct rect){ 0, 0, LAYOUT_HEADER_ROWS, cols };
	l->hints = (struct rect){ rows - 1, 0, 1, cols };
	l->message = (struct rect){ rows - 2, 0, 1, cols };
	l->body = (struct rect){ LAYOUT_HEADER_ROWS, 0, rows - LAYOUT_HEADER_ROWS - 2, cols };
}

struct rect layout_dialog(const struct layout *l, int want_w, int want_h)
{
	int maxw = l->cols > 2 ? l->cols - 2 : l->cols;
	int maxh = l->rows > 2 ? l->rows - 2 : l->rows;
	int w = want_w < maxw ? want_w : maxw;
	int h = want_h < maxh ? want_h : maxh;
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	return (struct rect){ (l->rows - h) / 2, (l->cols - w) / 2, h, w };
}

int layout_center_x(const struct rect *r, int w)
{
	int x = r->x + (r->w - w) / 2;
	return x < r->x ? r->x : x;
}

int layout_list_rows(const struct rect *r)
{
	return r->h > 1 ? r->h - 1 : 0;
}
