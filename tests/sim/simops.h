/* simops.h: the state behind the instance operations (routes_inst_ops.c:
 * execute, copy, recycle, update_template, take_snapshot, per-instance SSH
 * keys) and the volumes (routes_volumes.c), kept in world->ops.  world.c
 * seeds it after the rest of the world, advances it with the clock and
 * frees it; the route files read and change it.  Everything is called with
 * the simulator's state lock held. */
#ifndef RENTOP_SIM_SIMOPS_H
#define RENTOP_SIM_SIMOPS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "world.h"

struct copy_job;
struct vol;

struct ops_state {
	uint64_t rng;           /* its own generator: the world's draws stay as they were */
	json_t *fs;             /* instance id (text) -> {path: bytes}: each container's files,
				 * made on first use */
	json_t *ssh;            /* instance id (text) -> [account SSH key ids] attached */
	struct copy_job *jobs;  /* copies and snapshots in flight, and ended ones */
	size_t njobs;
	struct vol *vols;       /* the account's volumes */
	size_t nvols;
	long next_vol_id;
	json_t *vol_offers;     /* local volume offers (array, ids increasing) */
	json_t *nvol_offers;    /* network volume offers */
};

/* Seed (after the instances and offers: it reads them) and free. */
struct ops_state *ops_new(struct world *w, double now);
void ops_free(struct ops_state *s);
/* Bring copies, snapshots, volume states and volume billing up to now. */
void ops_advance(struct world *w, double now);

/* Jobs (routes_inst_ops.c): advance copies and snapshots to now. */
void ops_jobs_advance(struct world *w, double now);
void ops_jobs_free(struct ops_state *s);

/* Volumes (routes_volumes.c). */
void vols_seed(struct world *w, double now);
void vols_advance(struct world *w, double now);
void vols_free(struct ops_state *s);
struct vol *vols_find(struct world *w, long id);
/* A create's volume_info, checked against the offer before anything is
 * made: NULL when it can be honoured, else the message (and *slug). */
const char *vols_check_link(struct world *w, const json_t *offer, const json_t *vi, const char **slug);
/* After the create: make the new volume (create_new) or link the existing
 * one, and show it in the instance's volume_info. */
void vols_link(struct world *w, struct inst *in, const json_t *offer, const json_t *vi, double now);

/* Deterministic draws from s->rng. */
double ops_randf(struct ops_state *s);

#endif
