/* pane_instances.h: the instance table view (pane_instances in pane.h).
 * UI thread only. */
#ifndef RENTOP_UI_PANE_INSTANCES_H
#define RENTOP_UI_PANE_INSTANCES_H

#include <stdbool.h>

struct app;
struct instance;
struct snapshot;
struct table_row;

/* Set up the table (columns, default sort). */
void pane_instances_init(struct app *a);
/* Rebuild the rows from the held snapshot (data changed or time passed);
 * the selection stays on its instance. */
void pane_instances_rebuild(struct app *a);
/* Fill one row from an instance (pure: used by the tests). */
void pane_instances_row(struct table_row *row, const struct instance *x,
			const struct snapshot *s, double now, bool ascii);

#endif
