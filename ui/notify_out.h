/* notify_out.h: a notification's outputs (the rules are rules/notify.h):
 * the bell (through the app's bell_pending), the terminal's OSC 9 and OSC
 * 777 (wrapped for tmux's passthrough when $TMUX is set), and
 * notify_command, started with posix_spawnp (never a shell; argv.h splits
 * the config line) with the event as one JSON object on its standard
 * input, its output and errors to /dev/null.  The UI thread never waits on
 * the command: notify_out_tick reaps it (waitpid WNOHANG) and, past
 * notify_timeout, ends its process group (SIGTERM, SIGKILL 2 s later).  A
 * command that cannot start, exits non-zero, dies of a signal or times out
 * is said once as an event (its program's name and the reason, never its
 * arguments: a webhook URL may hold a token); the next failure is said
 * again only after a success.  A notification is never sent twice;
 * further notifications still use every output.  Commands still running
 * when rentop ends are left to finish.  UI thread only. */
#ifndef RENTOP_UI_NOTIFY_OUT_H
#define RENTOP_UI_NOTIFY_OUT_H

#include <stdbool.h>

#include "state/model.h"

#define NOTIFY_MAX_RUNNING 8 /* commands running at once; past it a notice skips the command */
#define NOTIFY_KILL_GRACE_S 2.0

struct config;
struct notify_out;

struct notify_out *notify_out_new(const struct config *cfg, struct model *m);
void notify_out_free(struct notify_out *o);
/* Event e: when its kind is on and the rules let it through, the OSC
 * sequences are written and the command started (the instance's fields
 * from the model's current snapshot, acquired for the moment).  True when
 * the bell should ring (the bell output is on, and so is the config's
 * bell).  o NULL: nothing. */
bool notify_out_event(struct notify_out *o, const struct event *e);
/* Reap the commands that ended, end those past their time; failures said. */
void notify_out_tick(struct notify_out *o);
/* The monotonic time notify_out_tick is next due (-1: nothing running). */
double notify_out_next_wake(const struct notify_out *o);
/* Commands running now. */
int notify_out_running(const struct notify_out *o);

#endif
