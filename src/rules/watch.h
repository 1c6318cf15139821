/* watch.h: the idle, hot and disk watch (rules/idle.h) over the whole
 * instance list, one row per instance id, sampled each time the list is
 * answered again.  A row costs a fixed number of bytes (sizeof(struct
 * watch_row)) whatever the time rentop runs.
 *
 * Thread contract: a struct watch belongs to the one thread that samples
 * and reads it (the UI thread: ui/idlewatch.c samples every snapshot whose
 * instance list was answered again, independent of the display's pause);
 * no lock.  The functions are pure otherwise: the caller passes the time. */
#ifndef RENTOP_RULES_WATCH_H
#define RENTOP_RULES_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "rules/idle.h"
#include "state/instance.h"

struct watch_row {
	long id;
	struct idle_track t;   /* its flags: t.flags */
};

struct watch {
	struct watch_row *rows; /* sorted by id */
	size_t n;
	uint64_t gen;           /* bumped whenever a row's flags changed */
};

/* A flag that rose on a sample (the instance became idle, hot or filling). */
struct watch_rise {
	long id;
	unsigned flag;          /* one IDLE_F_* */
};

void watch_init(struct watch *w);
void watch_free(struct watch *w);
/* Sample the instances v (n, sorted by id, as a snapshot holds them) at
 * wall time now: rows of instances no longer listed are dropped, new ones
 * start empty.  The flags that rose are written to out (at most max);
 * returns how many rose (possibly more than max). */
size_t watch_sample(struct watch *w, const struct instance *const *v, size_t n,
		    const struct idle_conf *c, double now, struct watch_rise *out, size_t max);
/* The row of an instance, or NULL. */
const struct watch_row *watch_find(const struct watch *w, long id);
/* The flags of an instance (0 when it has no row). */
unsigned watch_flags(const struct watch *w, long id);
/* What the idle instances of v cost an hour (money_row_rate summed), and
 * how many they are (*count, may be NULL). */
double watch_idle_rate(const struct watch *w, const struct instance *const *v, size_t n,
		       size_t *count);

#endif
