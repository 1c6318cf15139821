/* pane_xfer.h: the transfers of this session (view_transfers, in view.c):
 * an overlay (`:transfers`) listing the copies between instances (`:copy
 * SRC DST`) and the snapshots (`:snapshot [ID]`) sent from rentop, each
 * with its state as the instance's status_msg tells it (the service's
 * "instance status bar") until it ends; d cancels the chosen copy (its
 * confirmation starts on Cancel).
 *
 * `:copy SRC DST` takes the CLI's locations (ID:/path, C.ID:/path,
 * V.ID:/path as a source, local:path or a bare path).  Between two remote
 * sides it is the service's copy_direct, confirmed, sent at most once (a
 * lost answer is said and never resent; the job is still watched: the
 * status bar tells whether it started).  With a local side nothing is sent:
 * the rsync command over the instance's SSH route is copied (OSC 52) and
 * shown.  `:snapshot [ID]` opens a form (registry, repository, registry
 * login: the password masked, wiped when the form closes, never in a
 * message), confirmed, then one call.  --read-only refuses every write.
 * UI thread only. */
#ifndef RENTOP_UI_PANE_XFER_H
#define RENTOP_UI_PANE_XFER_H

#include <stddef.h>

#include "keymap.h"

/* Register `:copy` and `:snapshot` and allow them in ctx (the instances). */
void pane_xfer_keys(struct keymap *km, int ctx);

/* msg with every occurrence of secret (when not empty) replaced by stars,
 * in place (a registry's answer that echoes the password never shows it).
 * Pure. */
void pane_xfer_scrub(char *msg, const char *secret);

#endif
