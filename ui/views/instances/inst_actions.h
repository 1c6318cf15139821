/* inst_actions.h: the actions on one instance (stop, start, reboot, label,
 * destroy, bid, prepay, ssh, copy the ssh command), as entries of the
 * action table with their row-state preconditions, registered by every
 * view whose rows are instances (the table and the detail view).  UI
 * thread only; the preconditions are pure. */
#ifndef RENTOP_UI_INST_ACTIONS_H
#define RENTOP_UI_INST_ACTIONS_H

#include <stddef.h>

#include "keymap.h"

struct instance;

/* Register the instance actions (once), allow them in ctx and bind their
 * default keys there (s S R l D b $ x y). */
void inst_actions_keys(struct keymap *km, int ctx);

/* The row-state preconditions (row: a struct instance): NULL when the
 * action fits the instance's state, else why not ("instance 9108111 is
 * stopped: S starts it"). */
const char *inst_actions_why_not_stop(const void *row, char *buf, size_t n);
const char *inst_actions_why_not_start(const void *row, char *buf, size_t n);
const char *inst_actions_why_not_reboot(const void *row, char *buf, size_t n);
const char *inst_actions_why_not_bid(const void *row, char *buf, size_t n);
const char *inst_actions_why_not_ssh(const void *row, char *buf, size_t n);

#endif
