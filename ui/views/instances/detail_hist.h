/* detail_hist.h: the detail view's charts of the instance's last hour (the
 * fleet watch's series, rules/watch.h): GPU utilisation, GPU temperature and
 * memory use side by side, each a caption line ("GPU 2%  max 97%") over a
 * column chart, one column per 30 s bucket where the width allows.  Drawn
 * above the detail's lines; UI thread only.  detail_hist_caption() is pure. */
#ifndef RENTOP_UI_DETAIL_HIST_H
#define RENTOP_UI_DETAIL_HIST_H

#include <stddef.h>

struct app;
struct series8;

#define DETAIL_HIST_H 6 /* rows the charts take: a caption, 4 chart rows, a blank */

enum detail_hist_fig { DHF_UTIL, DHF_TEMP, DHF_MEM, DHF__COUNT };

/* "GPU 2%  max 97%", "temp 61 C  max 84 C", "mem 25%  max 40%" (the
 * latest sample, the hour's largest; "GPU -" without a sample in the hour),
 * into buf.  Pure. */
char *detail_hist_caption(enum detail_hist_fig f, const struct series8 *s, double now, char *buf,
			  size_t n);
/* Draw the charts of instance id at (y, x), w wide, when the watch has its
 * row and h >= DETAIL_HIST_H; returns the rows used (0: none). */
int detail_hist_draw(struct app *a, long id, int y, int x, int w, int h);

#endif
