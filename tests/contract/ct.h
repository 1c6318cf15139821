/* ct.h: helpers shared by the simulator's contract tests on top of
 * common.h: one simulator per test file kept in a global, requests with the
 * full key, state dumps, and JSON accessors that fail the test loudly. */
#ifndef RENTOP_CONTRACT_CT_H
#define RENTOP_CONTRACT_CT_H

#include <jansson.h>
#include <stdbool.h>

#include "common.h"

extern struct simproc *ct_sim;  /* the test file's simulator */

/* cmocka group setup/teardown: start ct_sim with these args / stop it. */
int ct_start(const char *const *args);
int ct_stop(void **state);
/* Per-test setup: POST /__sim/reset. */
int ct_reset(void **state);

/* A request with the full-access key. */
struct http_result ct_req(const char *method, const char *path, const char *body);
/* Like ct_req, asserting the status; returns the parsed JSON (owned by the
 * caller) and frees the rest. */
json_t *ct_expect(const char *method, const char *path, const char *body, long status);
/* Same with another bearer (NULL: none). */
json_t *ct_expect_as(const char *bearer, const char *method, const char *path, const char *body, long status);
/* Assert an error envelope: status, slug (NULL: not checked), msg substring. */
void ct_expect_error(const char *bearer, const char *method, const char *path, const char *body, long status,
		     const char *slug, const char *msg_part);

/* GET /__sim/state (owned by the caller). */
json_t *ct_state(void);
/* The state's instance with this id (borrowed from st), or NULL. */
json_t *ct_state_inst(json_t *st, long id);
/* Fresh state view of one instance (owned). */
json_t *ct_inst(long id);
/* Destroy every instance but those in keep (ids ended by -1), and delete
 * every serverless endpoint (their workers bill the account). */
void ct_keep_only(const long *keep);
/* The account's credit (GET /api/v0/users/current/). */
double ct_credit(void);
/* Advance the manual clock. */
void ct_advance(double seconds);
/* Control call asserting 200. */
void ct_ctl(const char *what, const char *body);

/* Accessors. */
double ct_num(const json_t *o, const char *k);
const char *ct_str(const json_t *o, const char *k); /* NULL when absent or null */
/* The id of the first seeded instance matching actual/intended status
 * (intended NULL: any; actual "null": provisioning); fails when none. */
long ct_find(const char *actual, const char *intended);
/* The id of the first rentable offer with at least this much disk (GB). */
long ct_offer(void);
/* Create an instance on a fresh rentable offer with extra JSON fields
 * (an object text, or NULL); returns the new id. */
long ct_create(const char *fields, char *ikey, size_t ikey_n);
/* Whether a response to method path carries header name (case-insensitive). */
bool ct_has_header(const char *method, const char *path, const char *name, long *status);

#endif
