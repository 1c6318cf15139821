/* pane_ports.h: the ports list of one instance (view_ports, in view.c): an
 * overlay (P, `:ports [ID]`) listing every mapped port as `IP:port ->
 * container port` with its URL; o opens the chosen URL in $BROWSER (over
 * SSH, or with no $BROWSER, it copies instead), y copies it (OSC 52), v
 * shows the Jupyter token in clear.  UI thread only. */
#ifndef RENTOP_UI_PANE_PORTS_H
#define RENTOP_UI_PANE_PORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "keymap.h"

/* Register the list-ports action (P: open the ports list on the selected
 * instance), allow it in ctx and bind its key there (the instance table
 * and the detail). */
void pane_ports_keys(struct keymap *km, int ctx);

/* What o does with a URL: open it with the $BROWSER command (browser: its
 * value, NULL or "" when unset) unless over SSH (ssh_session: SSH_CONNECTION
 * is set) or no browser is set: then copy it.  Pure. */
bool pane_ports_opens(const char *browser, bool ssh_session);
/* $BROWSER's words (split on spaces and tabs, no shell) then url, into argv
 * (at most max - 1 words and a NULL; words point into buf, a copy of
 * browser of n bytes); the word count, 0 when browser has none.  Pure. */
int pane_ports_argv(const char *browser, const char *url, char *buf, size_t n, char **argv,
		    int max);

#endif
