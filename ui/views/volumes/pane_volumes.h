/* pane_volumes.h: the volumes view (`:volumes`, 7): the account's local
 * and network volumes (size, machine or region, state, cost per month,
 * the instances using one), the volume offers (o: local and network, the
 * CLI's default search), create on an offer (c), clone (C), delete (d;
 * vol_edit.h).  UI thread only. */
#ifndef RENTOP_UI_PANE_VOLUMES_H
#define RENTOP_UI_PANE_VOLUMES_H

#include "api/api_volumes.h"

struct app;

/* The cost per month of a create form's volume as the volumes view last
 * read it: a new one (NEW: its offer's price for its size), a linked one
 * (LINK: the volume's); NAN when the view has not read it (or NONE). */
double pane_volumes_month_of(struct app *a, const struct create_vol *v);

#endif
