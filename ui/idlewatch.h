/* idlewatch.h: the UI thread's watch on the fleet (rules/watch.h).  Each
 * turn, the model's newest snapshot is sampled when its instance list was
 * answered again (last_ok moved), whether or not the display is paused;
 * every instance that became idle, hot or filling is one event (EV_WARN
 * with EVF_IDLE, EVF_HOT or EVF_DISK and the instance id), at most
 * IDLEWATCH_EVENTS a sample, then one event for the rest; the account's
 * burn (when exact) and credit go into a->watch.money.  The watch is
 * a->watch; UI thread only. */
#ifndef RENTOP_UI_IDLEWATCH_H
#define RENTOP_UI_IDLEWATCH_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct instance;
struct watch;
struct idle_conf;

#define IDLEWATCH_EVENTS 32
#define IDLEWATCH_SPARK 12 /* cells of the table's GPU 1H column: 5 minutes each */

struct watch_row;

/* Sample the newest snapshot if its list is newer than the last sampled. */
void idlewatch_step(struct app *a);
/* The text of a rise's event into buf ("instance 12 (train) idle: GPU under
 * 5% for 30 min, $0.412/h").  Pure. */
char *idlewatch_text(const struct instance *x, unsigned flag, const struct idle_conf *c, char *buf,
		     size_t n);

/* The table's GPU 1H cell of r (NULL: no row yet): the last hour of GPU
 * utilisation in IDLEWATCH_SPARK cells, 0-100 %, blank where no sample;
 * *key (may be NULL) the hour's mean, NAN without a sample.  Pure. */
char *idlewatch_spark(const struct watch_row *r, double now, bool ascii, char *buf, size_t n,
		      double *key);

#endif
