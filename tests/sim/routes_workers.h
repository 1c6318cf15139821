/* routes_workers.h: the run server's workergroup calls: workergroup logs
 * (docs get_autogroup_logs.yaml: /get_workergroup_logs/ -> logs; CLI
 * endpoints.py get_wrkgrp_logs: /get_autogroup_logs/ with the log levels)
 * and the rolling update of a workergroup's workers (CLI update_workers):
 * the table routes_workers (routes_int.h), and what the workers' list asks
 * of a rolling update. */
#ifndef RENTOP_SIM_ROUTES_WORKERS_H
#define RENTOP_SIM_ROUTES_WORKERS_H

#include <jansson.h>
#include <stdbool.h>

/* Is a rolling update of endpoint ep's workers under way (update_workers)? */
bool workers_updating(const json_t *ep, double now);

#endif
