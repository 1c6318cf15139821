/* pane_account.h: what other views take from the account view (view_account,
 * in view.c): the machine-reports action (`M`), which opens the account
 * view's reports section on the selected instance's machine, and
 * price-answer (`^`), which asks there whether to accept or reject the
 * selected instance's pending price increase; both bound in the instance
 * table and the detail view.  UI thread only. */
#ifndef RENTOP_UI_PANE_ACCOUNT_H
#define RENTOP_UI_PANE_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "keymap.h"

/* Register machine-reports and price-answer (once), allow them in ctx and
 * bind M and ^ there. */
void pane_account_inst_keys(struct keymap *km, int ctx);

/* Pending price increases on the account's instances, read every minute
 * from start-up (account_prices.c): how many, and the one of instance id
 * as a line ("GPU $0.246/h (now $0.197/h) from 2027-04-01 UTC; ..."):
 * false when it has none.  The instance table marks its rows, the detail
 * view says the line; the header counts them (struct app's price_incs). */
size_t pane_account_price_count(void);
bool pane_account_price_text(long id, char *buf, size_t n);

#endif
