/* server.h: the simulator's HTTP side (libmicrohttpd, one thread per
 * connection, 127.0.0.1 only).  struct simstate is everything behind the one
 * state lock: the world, rate limits, injected faults and request records.
 * Handlers (routes.c, ctl.c) run with the lock held; fault sleeps do not. */
#ifndef RENTOP_SIM_SERVER_H
#define RENTOP_SIM_SERVER_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>

#include "ratelimit.h"
#include "world.h"

enum fault_kind {
	FAULT_LATENCY, FAULT_HANG, FAULT_500, FAULT_502, FAULT_503, FAULT_429,
	FAULT_MALFORMED, FAULT_TRUNCATED, FAULT_DROP, FAULT_HUGE, FAULT_LOST,
	FAULT_403,              /* an object store's AccessDenied (a key not written yet) */
	FAULT_404,              /* a run server's {"detail":"Not Found"} (a path it lacks) */
};

struct fault {
	char path[256];         /* prefix of the request path */
	char method[8];         /* "" = any */
	enum fault_kind kind;
	long count;             /* requests left */
	long skip;              /* matching requests let through first */
	long ms;                /* latency / hang, ms */
	long mb;                /* huge: body size, MB */
};

#define MAX_FAULTS 32

struct simstate {
	pthread_mutex_t lock;
	struct world *w;
	struct rl *rl;          /* always kept; used only when rate limits are on */
	bool rate_limits;
	bool quiet;
	long url_max;
	unsigned long refused_414; /* requests refused for their length */           /* longest request target (path and query) served; longer: 414 */
	struct fault faults[MAX_FAULTS];
	int nfaults;
	json_t *requests;       /* path -> {count, methods, last_method, last_query, last_body, last_auth} */
};

#define SIM_URL_MAX 16384  /* --url-max's default (bytes) */

struct server;
/* Bind 127.0.0.1:port (0 = any free port) and serve. NULL on failure. */
struct server *server_start(struct simstate *st, int port);
int server_port(const struct server *s);
void server_stop(struct server *s);

/* Fault kind names ("latency", "hang", "500", ...). */
bool server_fault_kind(const char *name, enum fault_kind *out);
const char *server_fault_name(enum fault_kind k);

#endif
