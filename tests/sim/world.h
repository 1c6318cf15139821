/* world.h: the simulated account and market: options, the clock, instances
 * with their lifecycle and billing, offers, templates, keys, serverless
 * endpoints.  Everything here is called with the simulator's state lock held
 * (server.c takes it around every request). */
#ifndef RENTOP_SIM_WORLD_H
#define RENTOP_SIM_WORLD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

struct inst_text;

struct sim_opts {
	int port;
	uint64_t seed;
	int instances;          /* seeded instance count */
	int offers;             /* seeded offer count */
	int endpoints;          /* seeded serverless endpoints */
	double speed;           /* lifecycle speed factor */
	bool manual_clock;
	bool v0_spec;           /* --v0-list spec (else the live 410) */
	bool live;              /* --dialect live: only the documented live forms
				 * (tests/sim/API.md); else SPEC.md plus API-NOTES.md */
	bool rate_limits;
	bool tfa;
	bool tfa_sms;           /* --tfa sms: the one method is SMS (an SMS-only account) */
	bool quiet;
	double fail_rate;       /* fraction of new instances whose boot fails, 0-1 */
	char api_key[128];
	char ro_key[128];
	char email[128];
};

enum inst_phase {
	PH_STEADY,    /* nothing pending */
	PH_PROVISION, /* actual_status null, going to loading */
	PH_LOADING,   /* loading, going to running (or the boot failure) */
	PH_STOPPING,  /* still running, going to exited */
};

/* BOOT_PULL: the image cannot be pulled (a private/ image without registry
 * credentials): `created` with Docker's pull error. */
enum boot_plan { BOOT_OK, BOOT_CRASH, BOOT_DOCKER, BOOT_PULL };

struct inst {
	long id;
	json_t *o;              /* every public field and nothing else: a
				 * full-field answer is this object itself */
	json_t *ports_run;      /* the ports mapping shown while running */
	double running_since;   /* s, sim clock: last start (NAN: never) */
	enum inst_phase phase;
	double t_next;          /* s, sim clock: next lifecycle step (INFINITY: none) */
	enum boot_plan plan;
	bool start_unavailable; /* a start answers resources_unavailable */
	bool outbid;            /* stopped by a higher competing bid */
	double compete_at;      /* s, sim clock: when the competing bid rises */
	double compete_price;   /* $/hour: the competing bid from then on */
	double drop_at;         /* s, sim clock: the host drops out while running (INFINITY: never) */
	bool drop_offline;      /* it then shows "offline" (else "unknown") */
	double last_bill;       /* s, sim clock: billed up to here */
	double created;         /* s, sim clock */
	char key[48];           /* instance_api_key */
	char *image_login;      /* registry credentials carried from a template, or NULL */
	/* cached from o (refreshed by world_inst_sync and every status change) so
	 * the per-request advance over all instances reads no JSON */
	bool c_running;         /* actual_status is "running" */
	bool c_bid;             /* is_bid */
	bool c_prepaid;         /* carries credit_balance */
	double c_dph_total;     /* $/hour */
	double c_storage;       /* $/hour, storage_total_cost */
	double c_dph_base;      /* $/hour */
	struct inst_text *text; /* o's text kept between reads (insttext.h), or NULL */
	size_t led;             /* index + 1 of its open charge record (acct.h), 0: none */
	double carry[2];        /* $ charged short of a whole $0.001 (gpu, disk; acct.h) */
	double run_secs;        /* s billed while running (util.c grows the disk by it) */
	struct inst_util *util; /* utilisation model and pins (util.h), or NULL */
};

struct eplog {                  /* one serverless endpoint's log ring */
	char **lines;
	size_t n, cap, head;    /* ring of at most cap lines */
	double last_gen;        /* s, sim clock: lines generated up to here */
	uint64_t seq;
};

struct logreq {                 /* a request_logs result */
	char token[40];
	double ready_at;        /* s, sim clock */
	char *text;
};

struct offer_col {
	char *field;
	const json_t **v; /* json_array_size(offers) entries */
};

struct world {
	struct sim_opts opt;
	uint64_t rng;
	double t0_wall;         /* s, wall clock at start */
	double t0_mono;         /* s, monotonic at start */
	double manual_offset;   /* s added by /__sim/clock */
	double last_now;        /* s, the clock never goes backwards */
	char base_url[128];

	json_t *user;
	double credit;          /* $, mirrored into user.credit */
	struct inst **inst;     /* sorted by id */
	size_t ninst, cap;
	long next_id;

	json_t *offers;         /* array */
	char **offer_text;      /* per offer (index in offers): its JSON without
				 * dph_total and is_bid, built by the first search
				 * that returns it, dropped when the offer changes */
	size_t *offer_text_len;
	size_t noffer_text;
	struct offer_col *offer_cols; /* a field's value in every offer, by index */
	size_t noffer_cols;
	size_t offer_cols_n;    /* offers the columns were built over */
	json_t *templates;      /* array */
	long next_template_id;
	json_t *secrets;        /* object: name -> value */
	json_t *apikeys;        /* array; each carries its "key" (stripped on output) */
	long next_apikey_id;
	json_t *ssh_keys;       /* array */
	long next_ssh_id;
	json_t *roles;          /* array */
	long next_role_id;
	json_t *endpoints;      /* array (endptjobs) */
	long next_endpoint_id;
	json_t *workergroups;   /* array */
	long next_wg_id;
	struct eplog *eplogs;   /* parallel to endpoint ids: index by position in neplog */
	long *eplog_ids;
	size_t neplog;
	struct logreq *logreqs;
	size_t nlogreq;
	json_t *reports;        /* object: machine_id -> array */
	json_t *issued;         /* every secret handed out since start (keys, tokens,
				 * env values), kept across reset: /__sim/secrets */
	json_t *issued_set;     /* the same secrets as keys: the duplicate check is a lookup */
	bool logs_cli_only;     /* get_endpoint_logs answers only the CLI's form
				 * (the spec's {"endpoint"} gets a bare 404) */
	double eplog_every;     /* s between generated endpoint log lines (0: EPLOG_EVERY) */
	bool keep_uptime;       /* a stopped instance keeps the uptime_mins its record
				 * last had, as the live service may (else null) */

	struct tfa *tfa;
	struct acct *acct;      /* money and team (acct.h) */
	struct ops_state *ops;  /* instance operations and volumes (simops.h) */
	/* The unfiltered v1 list's label_counts, kept while no instance is
	 * added, removed or relabelled (labels_gen counts those changes). */
	uint64_t labels_gen;
	uint64_t label_counts_gen;
	json_t *label_counts;
	/* The same for the last id ranges' pages (w->inst[a..b)): --dump reads
	 * 8 ranges of a few pages each. */
	struct range_counts {
		size_t a, b;
		uint64_t gen;
		json_t *counts;
	} range_counts[16];
	unsigned range_next;
};

/* Build the seeded world; reset rebuilds it from the same options. */
struct world *world_new(const struct sim_opts *opt);
void world_free(struct world *w);
void world_reset(struct world *w);

/* The simulated clock (s since the epoch), never decreasing. */
double world_now(struct world *w);
void world_advance_clock(struct world *w, double seconds);
/* Bring lifecycle, billing, outbidding up to now. */
void world_advance(struct world *w, double now);

struct inst *world_find(struct world *w, long id);
/* The index of the first instance whose id is >= id (held sorted by id). */
size_t world_lower(const struct world *w, long long id);
bool world_remove(struct world *w, long id);
/* An instance was added, removed or relabelled: drop cached label counts. */
void world_touch_labels(struct world *w);
/* Count the instance object o's label in counts (label -> count; an
 * unlabelled instance under "", as the docs' label_counts has it). */
void world_count_label(json_t *counts, const json_t *o);
/* label -> count over every instance (cached: the caller must not change it). */
const json_t *world_label_counts(struct world *w);
/* label_counts of w->inst[a..b) (borrowed; the whole list's when that is
 * all of it), kept like world_label_counts's. */
const json_t *world_range_label_counts(struct world *w, size_t a, size_t b);
/* Refresh the live figures (utilisation, temperature, uptime, duration) of an
 * instance's JSON before it is sent. */
void world_inst_view(struct world *w, struct inst *in, double now);
/* Recompute derived fields and billing after a field was changed from outside. */
void world_inst_sync(struct world *w, struct inst *in);
/* Force an actual status (control API), with consistent side fields. */
void world_inst_force_status(struct world *w, struct inst *in, const char *status, double now);

/* Lifecycle actions. */
void world_inst_start(struct world *w, struct inst *in, double now);
void world_inst_stop(struct world *w, struct inst *in, double now, const char *msg);
void world_inst_reboot(struct world *w, struct inst *in, double now);
/* Create an instance from an offer with a prepared JSON (fields from the
 * request); returns it. */
struct inst *world_inst_create(struct world *w, json_t *offer, json_t *fields, double now,
			       bool bid, double price);

/* Worker i of endpoint ep, launched by its workergroup g: a running
 * instance of the account (workers.h's GPU and price, g's template image,
 * endpoint_id and workergroup_id in its record), started age seconds ago.
 * Draws from its own random stream, so that the account's stay as they
 * were. */
struct inst *world_worker_create(struct world *w, const json_t *ep, const json_t *g, long i, double now, double age);

void world_set_credit(struct world *w, double credit);
json_t *world_offer_by_id(struct world *w, long id);
/* The offer's compact JSON (JSON_REAL_PRECISION(15)) without dph_total and
 * is_bid, which a search prices for its request: cached, so that a search
 * does not copy and dump each offer it returns.  *len its length; NULL
 * when o is not one of the world's offers. */
const char *world_offer_text(struct world *w, size_t i, size_t *len);
/* The value of field in every offer (index as in w->offers; NULL where an
 * offer lacks it): built once per field, kept up to date as offers change,
 * so that a search's filters read arrays instead of hashing into 20,000
 * objects. */
const json_t *const *world_offer_column(struct world *w, const char *field);

/* Endpoint logs: grow to now, then the last `tail` lines joined by '\n'. */
char *world_eplog_tail(struct world *w, long endpoint_id, double now, long tail);
void world_eplog_append(struct world *w, long endpoint_id, const char *line);
json_t *world_endpoint_by_id(struct world *w, long id);
json_t *world_endpoint_by_name(struct world *w, const char *name);

/* Recompute a template's content-derived hash_id. */
void world_template_rehash(json_t *t);

/* Deterministic helpers. */
uint64_t world_rand(struct world *w);
double world_randf(struct world *w); /* [0,1) */
/* A random key (prefix + 64 hex) into buf, recorded as issued. */
void world_make_key(struct world *w, char *buf, size_t n, const char *prefix);
/* The same, not recorded (a token that is no secret, e.g. a log URL's). */
void world_make_token(struct world *w, char *buf, size_t n, const char *prefix);
/* Record a secret handed out (NULL and "" ignored; duplicates kept once). */
void world_issue(struct world *w, const char *secret);

/* JSON helpers used by every module. */
double jnum(const json_t *o, const char *k, double def);  /* numbers or numeric strings */
const char *jstr(const json_t *o, const char *k);          /* NULL when absent/not string */
bool jnum_value(const json_t *v, double *out);             /* number or numeric string */
double round_to(double v, double step);

#endif
