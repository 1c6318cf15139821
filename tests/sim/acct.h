/* acct.h: the account's money and team, kept beside the world (w->acct):
 * the charge ledger the billing clock fills (one record per contract per
 * UTC day: instances, a serverless worker's instance as serverless,
 * volumes), the invoices (deposits,
 * transfers, prepays), the team's members and invitations, the audit log
 * of the writes the simulator served, and pending price increases.
 * Everything here is called with the simulator's state lock held. */
#ifndef RENTOP_SIM_ACCT_H
#define RENTOP_SIM_ACCT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "sim.h"

struct world;
struct inst;

enum charge_kind { CK_INSTANCE, CK_SERVERLESS, CK_VOLUME };

struct charge {                 /* one contract's charges over one UTC day */
	long contract;          /* instance id (a serverless worker's too), or volume id */
	enum charge_kind kind;
	double day;             /* s: the UTC day's start */
	double t0, t1;          /* s: first and last second charged */
	double gpu, disk;       /* $ charged for compute and for storage */
	double gpu_s, disk_s;   /* s charged at each */
	long endpoint_id, wg_id; /* serverless: its endpoint and workergroup (else -1) */
	long template_id;       /* -1: none */
	char label[64];
};

struct carry {                  /* what a contract was charged short of a whole $0.001 */
	char key[32];           /* "v" volume id */
	double v[2];            /* $: gpu, disk */
};

struct acct {
	struct charge *ch;      /* in the order they were opened */
	size_t nch, cap;
	struct carry *carry;    /* the carries of volumes (an instance's: inst.carry) */
	size_t ncarry, carry_cap;
	json_t *worker_ix;      /* object: "v" volume id -> index+1 of its open record */
	double seeded_at;       /* s: when the world was seeded */
	json_t *invoices;       /* array of /api/v1/invoices/ rows, oldest first */
	long next_invoice;
	json_t *members;        /* array: {id, username, email, fullname, roles} */
	json_t *invites;        /* array: {email, role, sent_at, accept_at} */
	long next_member;
	json_t *users;          /* other accounts a transfer may reach: {id, email} */
	json_t *audit;          /* array of audit log rows, oldest first */
	json_t *pending;        /* array of pending price increase rows */
	long next_pending;
};

/* Seed (after the world's instances and endpoints) and free. */
struct acct *acct_new(struct world *w, double now);
void acct_free(struct acct *a);

/* The billing clock: an instance was charged gpu and disk dollars for
 * [t0, t1] (world.c's bill()); split over UTC days and recorded in whole
 * $0.001, the rest carried (in->carry) to its next charge.  Returns what
 * was recorded, which the caller debits (gpu + disk when nothing was). */
double acct_charge_inst(struct world *w, struct inst *in, double t0, double t1, double gpu, double disk);
/* The billing clock: a volume was charged cost dollars for [t0, t1]
 * (routes_volumes.c's vols_advance); recorded as an instance's, the same
 * return. */
double acct_charge_volume(struct world *w, long id, double t0, double t1, double cost);
/* Accept the invitations that are due (the serverless workers are
 * instances: the instance clock bills them). */
void acct_advance(struct world *w, double now);

/* Record an invoice row: type credit|transfer|reserved, source, service,
 * description, amount ($, as the docs sign it). */
void acct_invoice(struct world *w, double when, const char *type, const char *source, const char *service,
		  const char *description, double amount);

/* Record a served write in the audit log (route: the route's pattern). */
void acct_audit(struct world *w, const struct sim_req *rq, const char *route);

/* The api rights of the caller's key (borrowed; NULL: every right). */
const json_t *acct_key_rights(struct world *w, const char *bearer);
/* Does the caller's key carry api scope `scope` ("team_read", ...)? */
bool acct_key_has(struct world *w, const char *bearer, const char *scope);
/* The same, answering 401 permission_denied (naming the scope) when not. */
bool acct_require(struct world *w, const char *bearer, const char *scope, struct sim_resp *rs);

/* Control API: set a member's field (only "roles", a list of role names).
 * False: no such member or field, or a bad value. */
bool acct_set_member(struct world *w, long id, const char *field, const json_t *value);
/* The ledger's totals, members, invitations and pending rows for
 * /__sim/state: "charged" ($ over the whole ledger), "charged_since_start"
 * ($ the billing clock took since the world was seeded), per UTC day. */
json_t *acct_debug(struct world *w);

#endif
