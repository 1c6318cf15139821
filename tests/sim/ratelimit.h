/* ratelimit.h: per-endpoint, per-caller token buckets.  Called with the
 * simulator's state lock held. */
#ifndef RENTOP_SIM_RATELIMIT_H
#define RENTOP_SIM_RATELIMIT_H

#include <jansson.h>
#include <stdbool.h>

enum rl_class {
	RL_NONE = -1,
	RL_LIST,       /* v1 (and v0) instance list: 1.0/s */
	RL_SHOW,       /* single instance GET: 2.0/s */
	RL_STATE,      /* start/stop/label, bulk state, reboot, recycle: 1.0/s */
	RL_DESTROY,    /* destroy, single and bulk: 3.0/s */
	RL_CREATE,     /* PUT asks: 4.5/s */
	RL_BID,        /* 5.5/s */
	RL_PREPAY,     /* 2.0/s */
	RL_TEMPLATE,   /* template search: 3.0/s */
	RL_WORKERGROUPS, /* workergroups GET: 2.0/s */
	RL_SECRETS_GET,  /* 5.0/s */
	RL_SECRETS_SET,  /* POST/PUT/DELETE: 3.0/s */
	RL_APIKEYS,    /* api keys GET: 1.0/s */
	RL_REPORTS,    /* machine reports: 1.2/s */
	RL_SEARCH,     /* offer search: 10 per minute */
	RL_TEAM_MEMBER, /* team member removal: 3.0/s */
	RL_TRANSFER,   /* transfer of credit: 2.5/s */
	RL_EXECUTE,    /* instance command (execute): 1.5/s */
	RL_COPY,       /* copy_direct, rsync and their cancel: 3.5/s */
	RL_SSH_INST,   /* per-instance SSH keys: 2.0/s */
	RL_VOLUMES,    /* volumes: list, search, create, clone, delete: 5.5/s */
	RL_NCLASSES
};

struct rl;
struct rl *rl_new(void);
void rl_free(struct rl *r);
void rl_reset(struct rl *r);
/* Take one token for caller on class cls at monotonic time now (s); false
 * when the bucket is empty (the caller answers 429). */
bool rl_take(struct rl *r, enum rl_class cls, const char *caller, double now);
/* The published threshold text for the 429 body ("1.0", "5.5", ...). */
const char *rl_threshold(enum rl_class cls);
/* Counters for /__sim/state: per class, allowed and refused. */
json_t *rl_debug(const struct rl *r);

#endif
