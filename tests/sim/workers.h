/* workers.h: the serverless workers of an endpoint as the run server
 * reports them (get_endpoint_workers, get_workergroup_workers) and as the
 * billing clock charges them: how many an endpoint has, each one's GPU,
 * price and the documented fields beyond its state.  Pure functions of the
 * endpoint, the worker's index and the clock; called with the state lock
 * held. */
#ifndef RENTOP_SIM_WORKERS_H
#define RENTOP_SIM_WORKERS_H

#include <jansson.h>
#include <stdbool.h>

/* Workers of an endpoint: cold_workers + 2 ("none" mode: 0). */
long workers_count(const json_t *ep);
/* Worker i of endpoint eid: its id, GPU, $/hour in all (dph_total) and of
 * that for its disk. */
long workers_id(long eid, long i);
const char *workers_gpu(long eid, long i);
double workers_dph(long eid, long i);
double workers_storage(long eid, long i);

/* Add to wk (a worker with "status" set) the documented fields beyond
 * its state: cur_load, new_load, cur_load_rolling_avg, cur_perf, perf,
 * measured_perf, dlperf, reliability, reqs_working, disk_usage, disk_space,
 * loaded_at, started_at, uptime_mins, gpu_name, num_gpus, dph_total,
 * instance_id, url, created_at, and status_msg in ERROR. */
void workers_fields(json_t *wk, long eid, long i, double now, double speed);

#endif
