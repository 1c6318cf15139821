/* pane_keys.h: one instance's SSH keys (view_inst_keys, in view.c): an
 * overlay (K on an instance, `:keys [ID]`) listing the keys the instance
 * accepts (GET /api/v0/instances/{id}/ssh/) as the account view's SSH key
 * section shows the account's: type, comment, SHA256 fingerprint, created.
 * a attaches a key (a form: a ~/.ssh/ .pub file or a pasted line, checked
 * as the account's section checks it), d detaches the chosen one (a
 * confirmation starting on Cancel).  Each write is AF_MUTATES (refused
 * under --read-only) and one at-most-once call: a refusal stays in the
 * form or dialog; a lost answer locks it until the list, read again, says
 * whether it happened (form_lost_*, dialog_lost_*); nothing is resent by
 * itself.  UI thread only. */
#ifndef RENTOP_UI_PANE_KEYS_H
#define RENTOP_UI_PANE_KEYS_H

#include "keymap.h"

/* Register the instance-keys action (K: the keys of the selected instance;
 * `:keys [ID]`), allow it in ctx and bind its key there. */
void pane_keys_keys(struct keymap *km, int ctx);

#endif
