/* launch.h: `:launch -g GPU -n N (-i IMAGE | --template HASH) [-r REGION]
 * [-d GB] [--label L] [-o ORDER]`, the official CLI's `launch instance` in
 * one line (flags: flow/launch.h).  It searches in the offers view (its
 * search and pacing: the results are shown), takes the first offer of the
 * answer (the CLI's pick: best score first, or -o's order), and asks the
 * billing confirmation of the create form (create_form_ui_launch) naming
 * the offer, its machine and location and its price with the storage;
 * Rent sends the create at most once as the form does, Cancel nothing.  A
 * bad line is explained with the usage and nothing is searched; no offer
 * says the query used.  Refused under --read-only.  UI thread only. */
#ifndef RENTOP_UI_LAUNCH_H
#define RENTOP_UI_LAUNCH_H

#include "keymap.h"

/* Register the launch action (`:launch ARGS`, any view: AF_GLOBAL; no key);
 * the instances view does (inst_actions.c). */
void launch_keys(struct keymap *km, int ctx);

#endif
