/* chart.c: see chart.h. */
#include "widgets/chart.h"

#include <math.h>
#include <string.h>

#include "draw.h"

/* Index 0 is the empty cell; 1..8 eighths. */
static const char *const blocks[9] = {
	" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
/* ASCII: index 0 empty, 1..5 the sparkline's levels. */
static const char ascii_levels[] = " _.-=#";

/* v's place between lo and hi as a fraction 0..1 (NAN stays NAN). */
static double frac(double v, double lo, double hi)
{
	if (isnan(v))
		return NAN;
	if (!(hi > lo))
		return v > lo ? 1.0 : 0.0;
	double f = (v - lo) / (hi - lo);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* Level 1..top of a fraction for a sparkline (every value shows). */
static int spark_level(double f, int top)
{
	int l = 1 + (int)floor(f * (top - 1) + 0.5);
	return l < 1 ? 1 : l > top ? top : l;
}

size_t chart_spark(char *buf, size_t size, const double *v, size_t n,
		   double lo, double hi, bool ascii)
{
	if (size == 0)
		return 0;
	size_t used = 0, cells = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		double f = frac(v[i], lo, hi);
		char one[2] = {' ', '\0'};
		const char *g;
		if (ascii) {
			if (!isnan(f))
				one[0] = ascii_levels[spark_level(f, 5)];
			g = one;
		} else {
			g = isnan(f) ? blocks[0] : blocks[spark_level(f, 8)];
		}
		size_t gl = strlen(g);
		if (used + gl + 1 > size)
			break;
		memcpy(buf + used, g, gl);
		used += gl;
		buf[used] = '\0';
		cells++;
	}
	return cells;
}

const char *chart_cell(const double *v, size_t n, size_t col, int row, int h,
		       double lo, double hi, bool ascii)
{
	if (col >= n || row < 0 || row >= h || h <= 0)
		return " ";
	double f = frac(v[col], lo, hi);
	if (isnan(f))
		return " ";
	int eighths = (int)floor(f * h * 8 + 0.5);
	if (eighths == 0 && v[col] > lo)
		eighths = 1;
	int from_bottom = h - 1 - row;           /* 0 for the bottom row */
	int here = eighths - from_bottom * 8;    /* eighths falling in this cell */
	if (here <= 0)
		return " ";
	if (here >= 8)
		return ascii ? "#" : blocks[8];
	if (!ascii)
		return blocks[here];
	/* ASCII tops: 1-2 '_', 3-4 '.', 5-6 '-', 7 '=' */
	static const char *const tops[8] = {" ", "_", "_", ".", ".", "-", "-", "="};
	return tops[here];
}

void chart_draw(int y, int x, int h, const double *v, size_t n, double lo, double hi,
		bool ascii, unsigned long attr)
{
	for (int r = 0; r < h; r++)
		for (size_t c = 0; c < n; c++)
			draw_text(y + r, x + (int)c, 1, chart_cell(v, n, c, r, h, lo, hi, ascii), attr);
}

double chart_nice_max(const double *v, size_t n)
{
	double m = NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && (isnan(m) || v[i] > m))
			m = v[i];
	if (isnan(m) || !(m > 0))
		return 1;
	double p = pow(10, floor(log10(m)));
	static const double steps[] = {1, 2, 5, 10};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * p >= m * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}
