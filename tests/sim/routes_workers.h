/* routes_workers.h: the run server's workergroup calls: workergroup logs
 * (docs get_autogroup_logs.yaml: /get_workergroup_logs/ -> logs; CLI
 * endpoints.py get_wrkgrp_logs: /get_autogroup_logs/ with the log levels)
 * and the rolling update of a workergroup's workers (CLI update_workers).
 * Handlers for routes.c's table (routes_ext.h). */
#ifndef RENTOP_SIM_ROUTES_WORKERS_H
#define RENTOP_SIM_ROUTES_WORKERS_H

#include <stdbool.h>

#include "routes_ext.h"

void h_wg_logs(struct ctx *c);          /* POST /get_workergroup_logs/, /get_autogroup_logs/ */
void h_update_workers(struct ctx *c);   /* POST /update_workers/ */

/* Is a rolling update of endpoint ep's workers under way (update_workers)? */
bool workers_updating(const json_t *ep, double now);

#endif
