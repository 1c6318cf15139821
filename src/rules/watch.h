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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/idle.h"
#include "state/instance.h"
#include "state/series.h"

/* One instance: its flags and its last hour (state/series.h: the largest
 * sample of each 30 s, a gap where it did not run or the figure was not
 * sent).  About 410 bytes; 10,000 instances about 4 MB. */
struct watch_row {
	long id;
	struct idle_track t;   /* its flags: t.flags */
	struct series8 util;   /* GPU utilisation, % */
	struct series8 temp;   /* GPU temperature, degrees C */
	struct series8 mem;    /* memory use, % of mem_limit */
};

/* The account's burn rate ($/h) and credit ($) over the session: the last
 * hour in 30 s buckets, and the last WATCH_DAY_SCALE hours in buckets of
 * WATCH_DAY_SCALE x 30 s (the same series on a slower clock).  2 KB. */
#define WATCH_DAY_SCALE 24
struct watch_money {
	struct seriesf burn_h, credit_h; /* the last hour */
	struct seriesf burn_d, credit_d; /* the last day */
	double since;                    /* wall epoch of the first sample, 0 = none */
};

struct watch {
	struct watch_row *rows; /* sorted by id */
	size_t n;
	uint64_t gen;           /* bumped whenever a row's flags changed */
	struct watch_money money;
	bool idle_over;         /* the idle spend is over idle_spend_limit (watch_idle_spend) */
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
 * start empty; a running instance's figures go into its series.  The flags that rose are written to out (at most max);
 * returns how many rose (possibly more than max). */
size_t watch_sample(struct watch *w, const struct instance *const *v, size_t n,
		    const struct idle_conf *c, double now, struct watch_rise *out, size_t max);
/* File the account's burn and credit at now (NAN: not known then, a gap). */
void watch_money_put(struct watch_money *m, double now, double burn, double credit);
/* The session's burn (credit false) or credit in ncols columns, oldest
 * first, NAN where none: the last hour while the session is younger than
 * an hour, else the last day; *span gets the seconds the columns cover. */
size_t watch_money_values(const struct watch_money *m, double now, bool credit, double *out,
			  size_t ncols, double *span);
/* The row of an instance, or NULL. */
const struct watch_row *watch_find(const struct watch *w, long id);
/* The flags of an instance (0 when it has no row). */
unsigned watch_flags(const struct watch *w, long id);
/* x's memory use in % of its mem_limit, NAN when either is unknown. */
double watch_mem_pct(const struct instance *x);
/* What the idle instances of v cost an hour (money_row_rate summed), and
 * how many they are (*count, may be NULL). */
double watch_idle_rate(const struct watch *w, const struct instance *const *v, size_t n,
		       size_t *count);
/* The idle spend rate against limit ($/h; 0 = off): true once when it
 * rises over the limit (say it then); it must fall under 90 % of the limit
 * before it can rise again, so a rate hovering at the limit says it once. */
bool watch_idle_spend(struct watch *w, double rate, double limit);

#endif
