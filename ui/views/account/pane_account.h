/* pane_account.h: what other views take from the account view (view_account,
 * in view.c): the machine-reports action (`M`), bound in the instance table
 * and the detail view, which opens the account view's reports section on
 * the selected instance's machine.  UI thread only. */
#ifndef RENTOP_UI_PANE_ACCOUNT_H
#define RENTOP_UI_PANE_ACCOUNT_H

#include "keymap.h"

/* Register machine-reports (once), allow it in ctx and bind M there. */
void pane_account_reports_keys(struct keymap *km, int ctx);

#endif
