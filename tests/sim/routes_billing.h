/* routes_billing.h: where the money went: charges per contract (docs
 * show_charges.yaml), invoices (show_invoices.yaml), the CLI's older
 * /users/me/invoices (billing.py show_invoices), pending price increases
 * (CLI price_increase.py).  Handlers for routes.c's table (routes_ext.h). */
#ifndef RENTOP_SIM_ROUTES_BILLING_H
#define RENTOP_SIM_ROUTES_BILLING_H

#include "routes_ext.h"

void h_charges(struct ctx *c);          /* GET /api/v0/charges/ */
void h_invoices_v1(struct ctx *c);      /* GET /api/v1/invoices/ */
void h_invoices_old(struct ctx *c);     /* GET /api/v0/users/me/invoices */
void h_price_pending(struct ctx *c);    /* GET /api/v0/instances/pending-price-increases/ */
void h_price_answer(struct ctx *c);     /* PUT /api/v0/instances/{accept,reject}-price-increase/ */

#endif
