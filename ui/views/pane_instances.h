/* pane_instances.h: the instances view (view_instances, registered in
 * view.c).  UI thread only. */
#ifndef RENTOP_UI_PANE_INSTANCES_H
#define RENTOP_UI_PANE_INSTANCES_H

#include <stdbool.h>

struct instance;
struct snapshot;
struct table_row;

/* Fill one row from an instance (pure: used by the tests). */
void pane_instances_row(struct table_row *row, const struct instance *x,
			const struct snapshot *s, double now, bool ascii);

#endif
