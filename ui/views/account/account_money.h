/* account_money.h: the account overview's money over the session (the
 * watch's burn and credit series, rules/watch.h): a chart of the burn rate
 * and one of the credit, the last hour (the last day once the session is
 * older), and the runway forecast as a line with its date.  UI thread;
 * account_forecast_text() is pure. */
#ifndef RENTOP_UI_ACCOUNT_MONEY_H
#define RENTOP_UI_ACCOUNT_MONEY_H

#include <stdbool.h>
#include <stddef.h>

struct app;

#define ACCOUNT_MONEY_H 7 /* rows: a blank, the captions, 4 of charts, the forecast */

/* "credit runs out about Sat 28 Nov 14:05 (in 16h05m at $4.12/h)" (local
 * time); "credit: no forecast, nothing draws on it" when the runway is
 * infinite or the burn 0; "credit spent" at 0; "" when either is unknown.
 * Pure. */
char *account_forecast_text(double credit, double burn, double runway_h, double now, bool ascii,
			    char *buf, size_t n);
/* Draw the charts and the forecast at (y, x), w wide, h rows at most;
 * returns the rows used (0 when h < ACCOUNT_MONEY_H or nothing sampled). */
int account_money_draw(struct app *a, int y, int x, int w, int h);

#endif
