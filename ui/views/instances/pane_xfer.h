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
 * The list's columns give the status the room the job's description can
 * spare (pane_xfer_cols); under the list the chosen job's description and
 * status are shown whole, wrapped.  UI thread only. */
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

/* The list's columns (cells): KIND, STATE and INSTANCE fixed (INSTANCE
 * the widest of inst_w and its title), then WHAT and STATUS sharing the
 * rest of width (1 blank between columns, 2 before STATUS).  Both whole
 * when they fit (what_w, status_w: the widest of each); else STATUS comes
 * first: WHAT keeps a quarter of the rest (at least 12 cells, at most
 * what_w) and STATUS the others, cut with an ellipsis.  Pure. */
struct xfer_cols {
	int kind, state, inst, what, status;
};
void pane_xfer_cols(int width, int inst_w, int what_w, int status_w, struct xfer_cols *c);

#endif
