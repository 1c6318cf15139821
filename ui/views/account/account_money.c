/* account_money.c: burn and credit over the session, and the runway
 * forecast (account_money.h). */
#include "views/account/account_money.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "app.h"
#include "draw.h"
#include "header.h"
#include "rules/watch.h"
#include "theme.h"
#include "base/fmt.h"
#include "base/util.h"
#include "widgets/chart.h"

char *account_forecast_text(double credit, double burn, double runway_h, double now, bool ascii,
			    char *buf, size_t n)
{
	buf[0] = '\0';
	if (!isfinite(credit) || isnan(burn) || isnan(runway_h))
		return buf;
	if (credit <= 0 || runway_h <= 0) {
		snprintf(buf, n, "credit spent");
		return buf;
	}
	if (!isfinite(runway_h) || !(burn > 0)) {
		snprintf(buf, n, "credit: no forecast, nothing draws on it");
		return buf;
	}
	time_t at = (time_t)(now + runway_h * 3600.0);
	struct tm tm;
	localtime_r(&at, &tm);
	char when[48], left[32], rate[32];
	strftime(when, sizeof when, "%a %d %b %Y %H:%M", &tm);
	snprintf(buf, n, "credit runs out about %s (in %s at %s)", when,
		 header_runway(runway_h, ascii, left, sizeof left), fmt_rate(rate, sizeof rate, burn));
	return buf;
}

int account_money_draw(struct app *a, int y, int x, int w, int h)
{
	const struct watch_money *m = &a->watch.money;
	if (h < ACCOUNT_MONEY_H || !(m->since > 0) || w < 40)
		return 0;
	double now = util_now(), span;
	int each = (w - 2) / 2;
	size_t cols = (size_t)(each - 2) < SERIES_BUCKETS ? (size_t)(each - 2) : SERIES_BUCKETS;
	unsigned long cap = theme_attr(ROLE_COLHEAD) & ~A_UNDERLINE, nrm = theme_attr(ROLE_NORMAL);
	for (int r = 0; r < ACCOUNT_MONEY_H; r++)
		draw_fill(y + r, x - 1, w + 1, nrm);
	for (int k = 0; k < 2; k++) {
		double v[SERIES_BUCKETS], top = NAN, last = NAN;
		watch_money_values(m, now, k == 1, v, cols, &span);
		for (size_t i = 0; i < cols; i++)
			if (isfinite(v[i])) {
				last = v[i];
				if (!(v[i] <= top))
					top = v[i];
			}
		char b[32], t[32], cap_text[96];
		const char *spanb = span > 3600 ? "last 24h" : "last hour";
		if (k == 0)
			snprintf(cap_text, sizeof cap_text, "burn %s  max %s  (%s)",
				 isnan(last) ? "-" : fmt_rate(b, sizeof b, last),
				 isnan(top) ? "-" : fmt_rate(t, sizeof t, top), spanb);
		else
			snprintf(cap_text, sizeof cap_text, "credit %s  (%s)",
				 isnan(last) ? "-" : fmt_money(b, sizeof b, last), spanb);
		int cx = x + k * each;
		draw_text(y + 1, cx, (int)cols, cap_text, cap);
		chart_draw(y + 2, cx, 4, v, cols, 0, chart_nice_max(v, cols), a->cfg->ascii,
			   theme_attr(k == 0 ? ROLE_WARNING : ROLE_RUNNING));
	}
	/* the forecast, as the header's runway counts it */
	double burn, runway_h;
	enum figure_kind fig = a->snap ? header_money(a->snap, &burn, &runway_h) : FIG_UNKNOWN;
	const struct user *u = a->snap ? a->snap->user : NULL;
	char fc[200];
	account_forecast_text(u ? u->credit : NAN, fig == FIG_EXACT ? burn : NAN,
			      fig == FIG_EXACT ? runway_h : NAN, now, a->cfg->ascii, fc, sizeof fc);
	draw_text(y + 6, x, w, fc[0] ? fc : "credit: no forecast while the instances arrive", nrm);
	return ACCOUNT_MONEY_H;
}
