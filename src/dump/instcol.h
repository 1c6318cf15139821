/* instcol.h: the instance table's columns in one place: their titles and
 * how each cell is formatted (and its sort key), shared by the dashboard's
 * table (ui/views/instances/pane_instances.c) and --dump's plain table (dump.c), so
 * the two cannot drift.  Pure, any thread; no curses. */
#ifndef RENTOP_INSTCOL_H
#define RENTOP_INSTCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

struct instance;
struct snapshot;
struct watch;

/* In the dashboard's order; location, reliability and uptime only on wide
 * terminals; the last, the GPU utilisation of the last hour (a sparkline
 * the dashboard draws from its watch, rules/watch.h), only where there is
 * room for it, and never in --dump (which prints the columns before
 * IC__DUMP). */
enum instcol { IC_ID, IC_LABEL, IC_STATUS, IC_GPUS, IC_UTIL, IC_DPH, IC_AGE, IC_SSH, IC_IMAGE,
	       IC_MACHINE, IC_LOCATION, IC_RELIAB, IC_UPTIME, IC_HIST, IC__COUNT };
#define IC__DUMP IC_HIST

const char *instcol_title(enum instcol c); /* "ID", "$/H", ... */
/* The AGE cell: "<1m" under a minute, then by the minute ("5m", "2h05m",
 * "3d04h"); "-" when start (epoch s) is unknown.  Pure.  Returns buf. */
char *instcol_age(char *buf, size_t n, double now, double start);
/* instcol_format's options. */
#define INSTCOL_ASCII 0x1u     /* "*" over the Unicode marks */
#define INSTCOL_SSH_PROXY 0x2u /* SSH: the service's proxy first (ssh = proxy);
				  else the direct address first (ask, direct) */
/* The options of the configured ssh route and ascii. */
unsigned instcol_opts(bool ascii, enum ssh_route ssh);
/* Cell c of x into buf (sanitised text, "-" when unknown; a label may be
 * ""); *key (may be NULL) gets the numeric sort key, NAN when none or the
 * column sorts by text.  s (may be NULL) adds pending-job badges to the
 * status ("running *stop" with INSTCOL_ASCII, else the Unicode mark) and
 * the mark of an action whose outcome is unknown ("?prepay"); now is the
 * wall clock for the age; the SSH cell is the address `x` takes without
 * asking under the configured route (opts).  Returns buf. */
char *instcol_format(enum instcol c, const struct instance *x, const struct snapshot *s,
		     double now, unsigned opts, char *buf, size_t n, double *key);
/* instcol_format with the fleet's watch (rules/watch.h; NULL: none, as
 * --dump has): the status cell then ends with the words of the flags the
 * instance has ("running idle", "running hot disk"), which the `/` filter
 * finds (/idle, status=hot). */
char *instcol_format_w(enum instcol c, const struct instance *x, const struct snapshot *s,
		       const struct watch *w, double now, unsigned opts, char *buf, size_t n,
		       double *key);
/* The model of a GPU name without its brand words, so that a narrow
 * column keeps what tells GPUs apart: "Tesla V100" -> "V100", "NVIDIA
 * GeForce RTX 4090" -> "RTX 4090".  A pointer into name. */
const char *instcol_gpu_model(const char *name);
/* True when x's status carries a badge in s (pending or unknown outcome). */
bool instcol_pending(const struct instance *x, const struct snapshot *s);

#endif
