/* workers.h: the serverless workers of an endpoint.  As on the live
 * service, a worker is an instance of the account: the endpoint's (first)
 * workergroup launches cold_workers + 2 of them, each a running instance
 * whose record names its endpoint_id and workergroup_id, billed by the
 * instance clock (charged as serverless) and destroyed with its
 * workergroup or endpoint; one destroyed by hand is replaced.  Here: how
 * many an endpoint has, each one's GPU and price, the documented fields of
 * get_endpoint_workers beyond its state.  Called with the state lock
 * held. */
#ifndef RENTOP_SIM_WORKERS_H
#define RENTOP_SIM_WORKERS_H

#include <jansson.h>
#include <stdbool.h>

struct world;
struct inst;

#define WORKER_DISK_GB 40.0
#define WORKER_STORAGE_COST 0.15 /* $/GB/month */
/* The workergroup's member listing its workers' instance ids (the
 * simulator's own: left out of every answer). */
#define WORKERS_IDS "sim_worker_ids"

/* Workers endpoint ep asks for: cold_workers + 2 ("none" mode: 0). */
long workers_count(const json_t *ep);
/* Worker i of endpoint eid: its GPU and that GPU's $/hour. */
const char *workers_gpu(long eid, long i);
double workers_gpu_dph(long eid, long i);

/* The workergroup that launches endpoint ep's workers (its first), or NULL. */
json_t *workers_group(struct world *w, const json_t *ep);
/* The instance ids of endpoint ep's workers in order (borrowed; NULL:
 * none), as the last workers_sync left them. */
const json_t *workers_ids(struct world *w, const json_t *ep);

/* Make every endpoint's workers instances as it asks for them: launch the
 * missing (a replacement for one destroyed by hand), destroy the extra,
 * stop them when the endpoint is stopped and start them when it is not
 * any more.  workers_seed: the same for the seeded account, its workers
 * running for an hour or more, and two days of their cost added to the
 * seeded credit. */
void workers_sync(struct world *w, double now);
void workers_seed(struct world *w, double now);
/* Destroy the instances workergroup g launched (it is being deleted). */
void workers_drop(struct world *w, json_t *g);

/* Add to wk (a worker with "status" set) the documented fields beyond its
 * state: cur_load, new_load, cur_load_rolling_avg, cur_perf, perf,
 * measured_perf, dlperf, reliability, reqs_working, disk_usage,
 * disk_space, loaded_at, started_at, uptime_mins, gpu_name, num_gpus,
 * dph_total (its instance's), instance_id, url, created_at, and
 * status_msg in ERROR. */
void workers_fields(json_t *wk, long eid, long i, const struct inst *in, double now, double speed);

#endif
