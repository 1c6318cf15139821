/* header.h: the two header lines: the view switcher and the markers
 * (AUTH, OFFLINE or STALE, PAUSED, READ-ONLY) on the first; the account
 * (email, credit, burn rate, runway, instances by state, pending price
 * increases, last refresh, the error when data is stale) on the second.  Burn is the sum of the $/H
 * column (money.h): running instances in full, the others their storage;
 * with the service unreachable or the key refused it is "burn ?" and no
 * runway is shown.  The runway counts prepaid instances as paying from their
 * own credit first (money_runway_h).  Credit and runway take the warning or alarm colour
 * under the configured limits.  header_freshness(), header_list_wait(),
 * header_wait_text() and header_runway() are pure; header_watch() writes
 * the events of outages, recoveries and low-money crossings. */
#ifndef RENTOP_UI_HEADER_H
#define RENTOP_UI_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "state/money.h" /* enum figure_kind */

struct app;
struct config;

enum data_state { DS_LOADING, DS_FRESH, DS_STALE, DS_OFFLINE, DS_AUTH };

/* Fresh, stale (older than 3 refresh intervals, or the last attempt
 * failed), offline (nothing answers: the last attempt of every source tried
 * failed at transport level), auth (the key was refused) or still loading;
 * err gets the error text (from snapshot->fresh[]) when there is one.  A
 * fetch still in flight (a long paged list) gets grace_s more before its
 * data counts as stale. */
enum data_state header_freshness(const struct snapshot *s, double now, int refresh_s,
				 double grace_s, char *err, size_t n);
/* When the data turns stale if nothing arrives (wall epoch), 0 if n/a. */
double header_stale_at(const struct snapshot *s, int refresh_s, double grace_s);
/* A runway in hours as "16h05m", "3d04h"; "0" when spent; "∞" (or "-" in
 * ASCII) when nothing draws on the credit (or it is unknown). */
char *header_runway(double runway_h, bool ascii, char *buf, size_t n);
/* The money figures of a snapshot, one rule for the header, its alerts and
 * the account view: the burn (money_burn_figure, how it can be trusted) and
 * the account's runway, where instances with prepaid credit pay from it
 * first (money_runway_h); runway NAN without a user record.  Summed once
 * per published snapshot (its generation): UI thread only. */
enum figure_kind header_money(const struct snapshot *s, double *burn, double *runway_h);

/* Where the instance list waits when it has gone one refresh interval
 * without an answer (it failed, or a request is out for longer). */
struct list_wait {
	double since;   /* wall epoch of the last answer (or of the first try), s */
	bool in_flight; /* a request is out: next is when it gives up */
	double next;    /* wall epoch of the next try or of the give-up, 0 = not known */
};
/* True (and *w filled) when the instance list is late. */
bool header_list_wait(const struct snapshot *s, double now, int refresh_s, double timeout_s,
		      struct list_wait *w);
/* The same for what the app shows (false while the display is paused: its
 * snapshot is old on purpose). */
bool header_late(const struct app *a, struct list_wait *w);
/* "instances: no answer for 25 s, retrying in 8 s". */
char *header_wait_text(const struct list_wait *w, double now, char *buf, size_t n);

/* The time the header's "refreshed HH:MM:SS" shows: the last answer's
 * (last_ok, wall epoch), but moved on from the one shown only once it is at
 * least most of a refresh interval newer, so that pages arriving every
 * second do not redraw the header every second (never fresher than true).
 * Pure. */
double header_clock_step(double shown, double last_ok, int refresh_s);
/* The age of the last complete sweep in steps: "<10s", "10s" ... "50s" (by
 * 10 s), then "6m", "1h05m" (by the minute).  Pure.  Returns buf. */
char *header_sweep_age(char *buf, size_t n, double secs);
/* What the sweep age says when asked for ("refresh now": the header shows
 * it only while the list is stale): "the last whole sweep 40s ago", "the
 * first sweep is under way", "" before the list's first answer.  Pure.
 * Returns buf. */
char *header_sweep_said(const struct snapshot *s, double now, char *buf, size_t n);

/* The account line's segments, in display order. */
enum header_seg_id { HSEG_EMAIL, HSEG_CREDIT, HSEG_BURN, HSEG_IDLE, HSEG_RUNWAY, HSEG_COUNTS,
		     HSEG_PRICES, HSEG_REFRESHED, HSEG__N };
struct header_seg {
	char text[128];
	int role;  /* enum role of a low-money figure, -1: the header's */
	bool keep; /* drawn at this width */
};
/* The account line of s at width cells (each kept segment takes its text
 * and two blanks): what does not fit is dropped, the least useful first
 * (email, the sweep age, the price increases' long form, counts, price
 * increases, idle, runway, burn, credit); `refreshed` (how fresh every
 * other figure is) goes last;
 * "refreshed" shows shown_ok (0: the list's last_ok).  idle_rate is what
 * the idle instances cost an hour (rules/watch.h: watch_idle_rate): "idle
 * $X.XX/h" in the warning colour after the burn when above 0.  price_incs
 * is how many pending price increases the account's instances have: "N
 * price increases" in the warning colour after the counts when above 0,
 * shortened to "N price ▲" ("N price ^" in ASCII) before the counts go,
 * dropped after them (the rows keep their marker).  Returns the width kept.
 * Pure. */
int header_account(const struct snapshot *s, const struct config *cfg, enum data_state ds,
		   double now, double shown_ok, int width, struct header_seg seg[HSEG__N],
		   double idle_rate, size_t price_incs);
/* The first line's markers (AUTH, OFFLINE or STALE; PAUSED; READ-ONLY) that
 * fit in width cells, in display order, into out (3 pointers to static
 * text); the freshness marker is the last to go.  Returns how many.  Pure. */
int header_markers(enum data_state ds, bool paused, bool read_only, int width, const char **out);

void header_draw(struct app *a);
/* UI thread, after a new snapshot and on the clock: outages and recoveries
 * of the service and low-money crossings become events (the bell rings
 * once when the money level gets worse). */
void header_watch(struct app *a);

#endif
