/* routes_int.h: what the route files share (routes.c and the routes_*.c
 * files that add endpoints): the handler context, a route-table entry, the
 * checks a route asks for, and the helpers more than one file uses.  Every
 * handler runs with the simulator's state lock held (server.c), after
 * world_advance() brought the world to rq->now. */
#ifndef RENTOP_SIM_ROUTES_INT_H
#define RENTOP_SIM_ROUTES_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "routes.h"

enum {
	R_NOAUTH = 1, /* no key needed (the handler may check its own) */
	R_WRITE = 2,  /* refused to read-only keys */
	R_TFA = 4,    /* needs a 2FA session when 2FA is enabled */
	R_IKEY = 8,   /* an instance_api_key may call it for its own instance */
};

struct ctx {
	struct world *w;
	const struct sim_req *rq;
	struct sim_resp *rs;
	const char *seg;        /* the {} path segment (the last one), or NULL */
	long id;                /* seg as a number, or -1 */
	json_t *body;           /* rq->body when it is an object, else an empty object */
};

typedef void (*handler_fn)(struct ctx *c);

/* How a dialect serves a route's path: not at all, with or without the
 * trailing slash, only with it, only without it. */
enum slash { SL_NONE, SL_ANY, SL_SLASH, SL_BARE };

struct route {
	const char *method;  /* NULL: any */
	const char *pattern; /* "{}" matches one segment; no trailing slash; NULL ends a table */
	handler_fn fn;
	enum rl_class rl;
	int flags;
	enum slash spec;     /* the default dialect (SPEC.md plus API-NOTES.md) */
	enum slash live;     /* --dialect live: as the docs write the path, or the
			      * CLI where it writes it otherwise (tests/sim/API.md) */
};

/* The tables of the other route files, each ended by a NULL pattern. */
extern const struct route routes_inst_ops[]; /* routes_inst_ops.c */
extern const struct route routes_volumes[];  /* routes_volumes.c */
extern const struct route routes_team[];     /* routes_team.c: members, audit log, transfers */
extern const struct route routes_billing[];  /* routes_billing.c: charges, invoices, price increases */
extern const struct route routes_workers[];  /* routes_workers.c: workergroup logs, update_workers */

/* The instance the path's id names; else fills rs (status, slug) and NULL. */
struct inst *routes_need_inst(struct ctx *c, int status, const char *slug);

/* Keep text (taken over) as a result an object store serves without auth
 * at GET /instance_logs/{token}.log from ready_at (sim clock) on, as the
 * request_logs and execute answers' result_url; the URL into url. */
void routes_result_url(struct world *w, char *text, double ready_at, char *url, size_t n);

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
