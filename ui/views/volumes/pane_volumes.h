/* pane_volumes.h: the volumes view (`:volumes`, 7): the account's local
 * and network volumes (size, machine or region, state, cost per month,
 * the instances using one), the volume offers (o: local and network, the
 * CLI's default search), create on an offer (c), clone (C), delete (d;
 * vol_edit.h), rent an instance with a volume (i: the offers on its
 * machine, the create form preset).  UI thread only. */
#ifndef RENTOP_UI_PANE_VOLUMES_H
#define RENTOP_UI_PANE_VOLUMES_H

#include "api/api_volumes.h"

struct app;
struct form;

/* The cost per month of a create form's volume as the volumes view last
 * read it: a new one (NEW: its offer's price for its size), a linked one
 * (LINK: the volume's); NAN when the view has not read it (or NONE). */
double pane_volumes_month_of(struct app *a, const struct create_vol *v);
/* A create form opened for an offer on machine_id: when `i` in the volumes
 * view asked for a volume on that machine, fm's volume fields start with it
 * (once). */
void pane_volumes_preset_apply(struct app *a, long machine_id, struct form *fm);

#endif
