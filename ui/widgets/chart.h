/* chart.h: figures over time drawn in cells — a sparkline (one row, one
 * cell a value) and a column chart (h rows, one column a value, eighths of
 * a cell in UTF-8).
 *
 * Levels: UTF-8 uses the eight lower blocks U+2581..U+2588; --ascii uses
 * `_.-=#` for a sparkline and `#` with `_.-=` tops for a chart.  A NAN
 * value (no sample) is a blank column, never the lowest level: a gap and a
 * zero must look different.  A value at or under lo is the lowest visible
 * level in a sparkline (a one-eighth block), so zero still shows as data.
 *
 * chart_spark and chart_cell are pure (unit-tested cell by cell);
 * chart_draw draws through draw.h, UI thread only. */
#ifndef RENTOP_UI_CHART_H
#define RENTOP_UI_CHART_H

#include <stdbool.h>
#include <stddef.h>

/* One cell per value into buf (NUL-terminated, whole glyphs only: stops
 * early rather than cut a glyph); values scaled from lo..hi.  Returns the
 * cells written. */
size_t chart_spark(char *buf, size_t size, const double *v, size_t n,
		   double lo, double hi, bool ascii);

/* The glyph of cell (col, row) of an h-row column chart of v, row 0 on top:
 * " " above the column, a full block inside it, a partial block at its top.
 * A value above lo never draws an empty column (it gets at least an eighth,
 * or `_` in ASCII). */
const char *chart_cell(const double *v, size_t n, size_t col, int row, int h,
		       double lo, double hi, bool ascii);

/* Draw the chart of v at (y, x), h rows by n columns, with attributes attr. */
void chart_draw(int y, int x, int h, const double *v, size_t n, double lo, double hi,
		bool ascii, unsigned long attr);

/* A round top for an axis: the smallest 1, 2 or 5 x 10^k at or above the
 * largest value (1 when there is none, or it is not above 0). */
double chart_nice_max(const double *v, size_t n);

#endif
