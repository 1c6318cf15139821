/* detail_hist.c: the detail view's charts of the last hour (detail_hist.h). */
#include "views/instances/detail_hist.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "app.h"
#include "draw.h"
#include "rules/watch.h"
#include "state/series.h"
#include "theme.h"
#include "base/util.h"
#include "widgets/chart.h"

static const char *const names[DHF__COUNT] = { "GPU", "temp", "mem" };
static const char *const units[DHF__COUNT] = { "%", " C", "%" };

char *detail_hist_caption(enum detail_hist_fig f, const struct series8 *s, double now, char *buf,
			  size_t n)
{
	double v[SERIES_BUCKETS], max = NAN, last = NAN;
	series8_values(s, now, v, SERIES_BUCKETS);
	for (size_t i = 0; i < SERIES_BUCKETS; i++)
		if (isfinite(v[i]) && !(v[i] <= max))
			max = v[i];
	series8_last(s, now, &last);
	unsigned k = (unsigned)f < DHF__COUNT ? (unsigned)f : 0;
	if (isnan(max))
		snprintf(buf, n, "%s -", names[k]);
	else if (isnan(last))
		snprintf(buf, n, "%s -  max %.0f%s", names[k], max, units[k]);
	else
		snprintf(buf, n, "%s %.0f%s  max %.0f%s", names[k], last, units[k], max, units[k]);
	return buf;
}

int detail_hist_draw(struct app *a, long id, int y, int x, int w, int h)
{
	const struct watch_row *r = watch_find(&a->watch, id);
	if (!r || h < DETAIL_HIST_H || w < 3 * 12)
		return 0;
	const struct series8 *s[DHF__COUNT] = { &r->util, &r->temp, &r->mem };
	int each = (w - 2) / DHF__COUNT; /* a chart and its blank */
	size_t cols = (size_t)(each - 2) < SERIES_BUCKETS ? (size_t)(each - 2) : SERIES_BUCKETS;
	double now = util_now();
	unsigned long cap = theme_attr(ROLE_COLHEAD) & ~A_UNDERLINE;
	for (int row = 0; row < DETAIL_HIST_H; row++)
		draw_fill(y + row, x, w, theme_attr(ROLE_NORMAL));
	for (int f = 0; f < DHF__COUNT; f++) {
		int cx = x + 1 + f * each;
		double v[SERIES_BUCKETS];
		series8_values(s[f], now, v, cols);
		char text[64], title[80];
		detail_hist_caption((enum detail_hist_fig)f, s[f], now, text, sizeof text);
		snprintf(title, sizeof title, "%s  (1h)", text);
		draw_text(y, cx, (int)cols, title, cap);
		/* percentages to 100; degrees to a round top at or above the hour's */
		double hi = f == DHF_TEMP ? chart_nice_max(v, cols) : 100;
		if (f == DHF_TEMP && hi < 100)
			hi = 100;
		chart_draw(y + 1, cx, DETAIL_HIST_H - 2, v, cols, 0, hi, a->cfg->ascii,
			   theme_attr(f == DHF_UTIL ? ROLE_RUNNING : ROLE_NORMAL));
	}
	return DETAIL_HIST_H;
}
