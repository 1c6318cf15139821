/* sim.h: types shared by the simulator's modules.  The HTTP layer (server.c)
 * turns each libmicrohttpd request into a struct sim_req, routes it, and
 * sends the struct sim_resp back.  Handlers run under the simulator's single
 * state lock, so they need no locking of their own. */
#ifndef RENTOP_SIM_H
#define RENTOP_SIM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum sim_key_kind {
	KEY_NONE,     /* no Authorization header */
	KEY_INVALID,  /* unknown or revoked key */
	KEY_FULL,     /* full-access API key */
	KEY_READONLY, /* scoped key: misc, user_read, instance_read */
	KEY_SESSION,  /* a 2FA session key (full access) */
	KEY_SESSION_EXPIRED,
	KEY_INSTANCE, /* an instance_api_key: start/stop/destroy of one instance */
};

struct sim_req {
	const char *method;     /* "GET", "POST", "PUT", "DELETE" */
	const char *path;       /* without the query string */
	const char *query;      /* raw query string, "" when none */
	const char *body_raw;   /* raw body bytes ("" when none) */
	size_t body_len;
	json_t *body;           /* parsed body when it was JSON, else NULL (borrowed) */
	const char *bearer;     /* the bearer value, NULL when none (borrowed) */
	const char *peer;       /* the client's address, NULL when unknown (borrowed) */
	enum sim_key_kind key;
	long key_instance_id;   /* KEY_INSTANCE: the instance it may act on */
	double now;             /* simulated clock, seconds since the epoch */
};

struct sim_resp {
	int status;             /* HTTP status */
	json_t *json;           /* the body (taken over by the HTTP layer), or NULL */
	char *raw;              /* or a raw body (malloc'd, taken over) */
	size_t raw_len;
	const char *content_type; /* NULL = application/json */
};

#endif
