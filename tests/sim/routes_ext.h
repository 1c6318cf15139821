/* routes_ext.h: what the route modules beyond routes.c (routes_team.c,
 * routes_billing.c, routes_workers.c, ...) share with its route table: the
 * request context a handler gets.  Handlers run as routes.c's do: with the
 * simulator's state lock held, after authentication, scopes, 2FA gating
 * and rate limits were applied by routes_handle(). */
#ifndef RENTOP_SIM_ROUTES_EXT_H
#define RENTOP_SIM_ROUTES_EXT_H

#include <jansson.h>
#include <stdbool.h>

#include "sim.h"
#include "world.h"

struct ctx {
	struct world *w;
	const struct sim_req *rq;
	struct sim_resp *rs;
	const char *seg;        /* the {} path segment, or NULL */
	long id;                /* seg as a number, or -1 */
	json_t *body;           /* rq->body when it is an object, else an empty object */
};

/* The decoded value of a query parameter (malloc'd), or NULL. */
char *routes_query_param(const char *q, const char *name);
/* A query parameter parsed as JSON (new reference), NULL when absent; *bad
 * set when present but not JSON. */
json_t *routes_query_json(const char *q, const char *name, bool *bad);

/* Set the answer (j taken over). */
static inline void ctx_reply(struct ctx *c, int status, json_t *j)
{
	c->rs->status = status;
	c->rs->json = j;
}

#endif
