/* idle.h: the watch on one instance, sample by sample: idle (running with
 * its GPU under idle_util % for longer than idle_minutes), hot (gpu_temp
 * over hot_temp) and a disk filling up (over disk_full % of disk_space).
 *
 * Only a running instance is judged: a stopped, loading, failed or offline
 * one is never idle, hot or filling, and leaving the running state (a stop,
 * a reboot, a failure), a restart (its uptime_mins went down) or a gap of
 * more than IDLE_GAP_S between samples starts the idle window again.  A
 * field the service did not send is unknown: it never makes an instance
 * idle, hot or filling, and a missing GPU figure restarts the window.  Hot
 * and filling keep their flag until the figure is IDLE_HOT_CLEAR degrees /
 * IDLE_DISK_CLEAR of the disk under the limit, so a figure hovering at the
 * limit does not flap.  An instance named in idle_exempt (by id or label)
 * or whose label has the word "noidle" is never called idle (hot and disk
 * still apply).  Pure, any thread (a track belongs to its caller). */
#ifndef RENTOP_RULES_IDLE_H
#define RENTOP_RULES_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/config.h"
#include "state/instance.h"

#define IDLE_F_IDLE 0x1u
#define IDLE_F_HOT  0x2u
#define IDLE_F_DISK 0x4u

#define IDLE_GAP_S 600.0    /* seconds without a sample that restart the idle window */
#define IDLE_HOT_CLEAR 5.0  /* degrees under hot_temp that end "hot" */
#define IDLE_DISK_CLEAR 0.05 /* of disk_space under disk_full that end "disk" */

struct idle_conf {
	double util;        /* GPU % under which a running instance idles; 0 = off */
	double window_s;    /* how long it must stay under, seconds */
	double hot_temp;    /* degrees C; 0 = off */
	double disk_full;   /* fraction of disk_space, 0-1; 0 = off */
	const char *exempt; /* "123, nightly": ids and labels never idle; NULL = none */
};
/* The configured limits (cfg->idle_util, idle_minutes, hot_temp,
 * disk_full, idle_exempt; exempt points into cfg). */
void idle_conf_from(struct idle_conf *c, const struct config *cfg);

/* One instance's state between samples (32 bytes). */
struct idle_track {
	double low_since;   /* wall epoch of the first sample under util in this
			       window, 0 = not under */
	double last_at;     /* wall epoch of the last sample, 0 = none */
	double uptime;      /* uptime_mins of the last sample, NAN when unknown */
	uint8_t flags;      /* IDLE_F_* after the last sample */
};
void idle_track_init(struct idle_track *t);
/* Sample x at wall time now: updates *t and returns its flags. */
unsigned idle_step(struct idle_track *t, const struct instance *x, const struct idle_conf *c,
		   double now);
/* Is x exempt from "idle" (its id or label in exempt, a comma-separated
 * list; or the word noidle in its label)?  Case-insensitive labels. */
bool idle_exempt(const struct instance *x, const char *exempt);
/* x's disk use as a fraction of its disk_space (disk_usage / disk_space,
 * else the service's disk_util), NAN when unknown. */
double idle_disk_frac(const struct instance *x);
/* "idle", "hot", "disk" for one flag; flags_text writes the words of every
 * flag set, blank-separated ("idle hot"), into buf and returns it. */
const char *idle_flag_name(unsigned flag);
char *idle_flags_text(unsigned flags, char *buf, size_t n);

#endif
