/* header.h: the two header lines: the view switcher and the markers
 * (OFFLINE or STALE, PAUSED, READ-ONLY) on the first; the account (email,
 * credit, burn rate, runway, last refresh, the error when data is stale) on
 * the second.  header_freshness() and header_runway() are pure. */
#ifndef RENTOP_UI_HEADER_H
#define RENTOP_UI_HEADER_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct snapshot;

enum data_state { DS_LOADING, DS_FRESH, DS_STALE, DS_OFFLINE };

/* Fresh, stale (older than 3 refresh intervals, or the last attempt
 * failed), offline (transport failure) or still loading; err gets the error
 * text (from snapshot->fresh[]) when there is one.  A fetch still in flight
 * (a long paged list) gets grace_s more before its data counts as stale. */
enum data_state header_freshness(const struct snapshot *s, double now, int refresh_s,
				 double grace_s, char *err, size_t n);
/* When the data turns stale if nothing arrives (wall epoch), 0 if n/a. */
double header_stale_at(const struct snapshot *s, int refresh_s, double grace_s);
/* "16h05m", "3d04h"; "∞" (or "-" in ASCII) when nothing burns. */
char *header_runway(double credit, double burn, bool ascii, char *buf, size_t n);

void header_draw(struct app *a);

#endif
