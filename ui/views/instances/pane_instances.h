/* pane_instances.h: the instances view (view_instances, registered in
 * view.c).  UI thread only. */
#ifndef RENTOP_UI_PANE_INSTANCES_H
#define RENTOP_UI_PANE_INSTANCES_H

#include <stdbool.h>

struct instance;
struct snapshot;
struct table_row;
struct watch;

/* Fill one row from an instance (pure: used by the tests); w (NULL: none)
 * adds the idle, hot and disk words to the status. */
void pane_instances_row(struct table_row *row, const struct instance *x,
			const struct snapshot *s, const struct watch *w, double now, unsigned opts);

/* The table's column widths at width cells (w[c] = 0: not shown; natural:
 * the widest cell of each whole column, may be NULL); returns the bitmask
 * of shown columns.  Location, reliability and uptime are considered from
 * PANE_INSTANCES_WIDE columns on, and only when they fit whole: a wide
 * terminal shows more columns, not only wider ones.  The GPU 1H sparkline
 * when hist (not hidden with H) and the label and image columns keep
 * PANE_INSTANCES_HIST_ROOM cells each beside it (before location,
 * reliability and uptime when not all fit).  Pure. */
#define PANE_INSTANCES_WIDE 160
#define PANE_INSTANCES_HIST_ROOM 16
unsigned pane_instances_widths(int width, const int *natural, int *w, bool hist);

#endif
