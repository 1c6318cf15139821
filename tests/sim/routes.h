/* routes.h: the service's endpoints.  routes_handle() matches a request to
 * its endpoint, applies authentication, scopes, 2FA gating and rate limits,
 * and runs the handler.  Called with the simulator's state lock held, after
 * world_advance() brought the world to rq->now. */
#ifndef RENTOP_SIM_ROUTES_H
#define RENTOP_SIM_ROUTES_H

#include "ratelimit.h"
#include "sim.h"
#include "world.h"

/* caller: the rate-limit identity (the bearer, or the peer address);
 * mono_now: s, monotonic, for the token buckets; rl NULL: no rate limits. */
void routes_handle(struct world *w, struct rl *rl, const char *caller, double mono_now,
		   const struct sim_req *rq, struct sim_resp *rs);

/* Classify a bearer: full, read-only, created API key, instance key, 2FA
 * session (valid or expired), or invalid. */
enum sim_key_kind routes_classify_key(struct world *w, const char *bearer, double now, long *inst_id);

/* An instance's public JSON, live figures refreshed; select_cols (array of
 * names, or NULL) limits the fields.  Every field (NULL, or "*" among the
 * names): a new reference to the instance's own object, which the caller
 * must not change and must serialise before the state lock is let go (no
 * per-field copy); a list of names: a new object of those fields. */
json_t *routes_inst_json(struct world *w, struct inst *in, double now, const json_t *select_cols);

/* An object store's answer to a key it will not show (the live result_url
 * before the log is uploaded, and the "403" fault). */
#define OBJSTORE_403 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>" \
		     "<Message>Access Denied</Message></Error>\n"

/* Error envelope {"success":false,"error":slug,"msg":msg}. */
void routes_error(struct sim_resp *rs, int status, const char *slug, const char *msg);

#endif
