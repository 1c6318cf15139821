/* pane_exec.h: `:exec ID CMD`: the service's limited execute (ls, du, rm)
 * on an instance, confirmed first for rm (starting on Cancel), sent at most
 * once; its output, fetched from the answer's result_url (no auth), shown
 * in a pager overlay (view_exec, in view.c) with the container path prefix
 * taken out as the CLI does.  UI thread only. */
#ifndef RENTOP_UI_PANE_EXEC_H
#define RENTOP_UI_PANE_EXEC_H

#include "keymap.h"

/* Register the exec action (`:exec ID CMD`; no key) and allow it in ctx. */
void pane_exec_keys(struct keymap *km, int ctx);

#endif
