/* model.h: the one object shared between the poller thread (the only writer
 * of service data) and the UI thread (the reader).
 *
 * Data arrive as immutable snapshots: the poller maps JSON with no lock held,
 * hands the finished arrays to model_set_*() (which take ownership), and the
 * model swaps a new snapshot in under its mutex, bumps the generation counter,
 * unlocks, then makes model_wake_fd() readable (the eventfd write, like every
 * other I/O, happens with no lock held).  Readers take a reference with
 * model_acquire() and render with no lock held; model_release() drops it.
 * Parts that did not change are shared between snapshots (refcounted), so a
 * swap costs a few pointer copies; within the instance list, the rows are
 * shared too (irow): a publish copies one pointer a row, never a record.
 *
 * Every string in these records has already been through util_sanitize()
 * and is never NULL ("" when the service sent null or nothing). Doubles the
 * service did not send are NAN unless said otherwise.  Rows are keyed by id.
 */
#ifndef RENTOP_MODEL_H
#define RENTOP_MODEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/apierr.h"
#include "base/config.h" /* enum ssh_route */

/* Display state derived from actual/intended/cur/next status (model_derive_state). */
enum inst_state {
	IS_PROVISIONING, /* actual_status null: being provisioned */
	IS_LOADING,      /* image downloading */
	IS_RUNNING,
	IS_STOPPING,     /* intended stopped, still running */
	IS_STOPPED,      /* stopped by the user (intended_status stopped) */
	IS_OUTBID,       /* an interruptible stopped by a higher bid (instance_state) */
	IS_STARTING,     /* intended running again after a stop, not yet up */
	IS_REBOOTING,
	IS_EXITED,       /* crashed: exited while intended running (failure) */
	IS_CREATED,      /* failed start with a Docker error (failure) */
	IS_UNKNOWN,      /* no heartbeat from the host (failure) */
	IS_OFFLINE,      /* host disconnected (failure) */
	IS_FROZEN,
	IS_OTHER,
	IS__COUNT
};

struct kv {          /* one field as received, for the detail view */
	char *key;
	char *value;      /* JSON text of the value, sanitised; secrets masked */
};

struct port_map {
	int container_port;
	char proto[8];    /* "tcp" / "udp" */
	int host_port;
};

struct instance {
	long id;
	uint64_t rev;         /* the record's version: a new number for every irow made
				 (irow_new), kept while a sweep finds it unchanged; a
				 view reformats a row only when its rev moved */
	char *label;
	char *actual_status;  /* "" while provisioning (null) */
	char *intended_status;
	char *cur_state, *next_state;
	char *status_msg;
	enum inst_state state;
	long machine_id, host_id;
	int num_gpus;
	char *gpu_name;
	double gpu_ram;       /* MB per GPU */
	double gpu_totalram;  /* MB */
	double gpu_util;      /* %, NAN when unknown */
	double gpu_temp;      /* degrees C, NAN when unknown */
	double cpu_cores;     /* cpu_cores_effective */
	double cpu_ram;       /* MB */
	double disk_space;    /* GB */
	double disk_usage;    /* GB, NAN or <0 when unknown */
	double inet_up, inet_down;     /* Mbit/s */
	double dph_base, dph_total;    /* $/hour */
	double storage_cost;           /* $/GB/month */
	double storage_total_cost;     /* $/hour */
	bool is_bid;                   /* interruptible */
	double min_bid;                /* $/hour */
	double bid_price;              /* $/hour, NAN when not an interruptible */
	char *image;                   /* image_uuid */
	char *runtype;                 /* image_runtype */
	char *ssh_host;                /* proxy SSH host */
	int ssh_port;                  /* proxy SSH port (already +1 for jupyter runtypes) */
	char *public_ip;
	int direct_ssh_port;           /* ports["22/tcp"][0].HostPort, 0 when none */
	struct port_map *ports;
	size_t nports;
	double start_date, end_date;   /* epoch seconds, NAN when unknown */
	double uptime_mins;
	double reliability;            /* 0-1 */
	char *geolocation, *verification;
	long template_id;
	char *template_hash_id, *template_name;
	double credit_balance;         /* prepaid credit left on the instance, $, NAN if not sent */
	double credit_discount;        /* the prepay's discount on what that credit pays, 0-1, NAN */
	double ondemand;               /* $/hour: the machine's listed on-demand price for these
					  GPUs (search.gpuCostPerHour), NAN if not sent */
	struct kv *fields;             /* every field as received (sorted by key; env values masked) */
	size_t nfields;
	struct kv *env;                /* extra_env in order: key = name, value = the value in
					  clear (sanitised, not JSON); shown masked, one revealed
					  on request; never printed by --dump */
	size_t nenv;
};

/* One instance row shared between snapshots: the poller keeps its rows as
 * irows, and a snapshot points at their records (snapshot.instances), so an
 * unchanged row costs a pointer and a reference, not a copy, and two
 * snapshots show the same row at the same address.  The record is immutable
 * once made an irow. */
struct irow {
	atomic_int refs;
	struct instance x;
};
/* Takes over the contents of *x (which is zeroed); refs 1; gives the
 * record a new rev (any thread: the counter is atomic). */
struct irow *irow_new(struct instance *x);
/* Are two records the same in every field kept (strings, numbers, ports,
 * the received fields and env)?  rev is not compared.  Pure. */
bool instance_same(const struct instance *a, const struct instance *b);
struct irow *irow_ref(struct irow *r);
void irow_unref(struct irow *r);   /* NULL ok; frees at the last reference */

/* Where the instance list stands: rentop fetches it in sweeps of pages and
 * publishes after every page, so until a first sweep is complete the list
 * is a part of the fleet. */
struct inst_progress {
	long total;          /* total_instances last reported, -1 when unknown */
	bool partial;        /* no complete sweep yet: more instances may exist */
	double sweep_ok;     /* wall epoch of the last complete sweep, 0 = never */
};

struct user {
	long id;
	char *email, *username, *fullname;
	double credit;    /* prepaid USD */
	double balance;   /* billing balance, NAN when not sent */
	bool can_pay;
	char *tfa_status; /* "enabled" / "disabled" / "legacy" / "" */
	char *ssh_key;
	struct kv *fields; /* api_key is never kept */
	size_t nfields;
};

struct workergroup {
	long id;
	long endpoint_id, template_id, user_id;
	char *endpoint_name, *template_hash, *search_query, *launch_args, *created_at;
	double min_load, target_util, cold_mult, gpu_ram;
	int test_workers;
	/* api_key is never kept */
};

struct endpoint {
	long id;
	char *endpoint_name;
	char *endpoint_state; /* active / suspended / stopped */
	double min_load, target_util, cold_mult;
	int cold_workers, max_workers;
	long user_id;
	char *created_at;
};

enum model_source { SRC_INSTANCES, SRC_USER, SRC_WORKERGROUPS, SRC_ENDPOINTS, SRC__COUNT };

struct freshness {
	double last_ok;       /* wall epoch of the last success, 0 = never */
	double last_attempt;  /* wall epoch */
	double last_err_at;   /* wall epoch of the last failure, 0 = none since last_ok */
	int err_status;       /* HTTP status of the last failure, 0 = transport */
	int failures;         /* consecutive */
	bool in_flight;
	char err[200];        /* the last failure, sanitised, no secrets */
	double retry_at;      /* wall epoch of the next try after a failure, 0 = not known */
};

struct pending {          /* a queued or running job, for the row badge */
	int job_id;
	int kind;             /* enum job_kind */
	long instance_id;     /* 0 when not about one instance */
};

#define MODEL_MAX_PENDING 64

struct unsure {           /* an action whose outcome is not known (answer lost) */
	int job_id;
	int kind;             /* enum job_kind */
	long instance_id;     /* 0 when not about one instance (create) */
	double since;         /* wall epoch */
};

#define MODEL_MAX_UNSURE 128 /* two bulk requests of API_BULK_BATCH */

struct snapshot {
	uint64_t generation;
	/* the rows, sorted by id: pointers to records shared with the poller and
	 * other snapshots (irow), valid while the snapshot is held */
	const struct instance *const *instances;
	size_t ninstances;
	const struct user *user;          /* NULL until first fetched */
	const struct workergroup *workergroups;
	size_t nworkergroups;
	const struct endpoint *endpoints;
	size_t nendpoints;
	struct freshness fresh[SRC__COUNT];
	struct pending pending[MODEL_MAX_PENDING];
	size_t npending;
	struct inst_progress progress;    /* of the instance list */
	bool offline;                     /* the last attempt at any source failed at transport level */
	bool auth_failed;                 /* the last poll was refused (401/403) */
	/* jobs whose answer was lost: marked until a re-read tells what happened */
	struct unsure unsure[MODEL_MAX_UNSURE];
	size_t nunsure;
	int actions_waiting;              /* queued actions waiting for their pacer ("N actions queued") */
	uint64_t results_seq;             /* bumped by every model_put_result */
};

enum ev_level { EV_INFO, EV_OK, EV_WARN, EV_ERROR };

#define EVF_JOB_DONE   0x01u  /* a job finished; level says how */
#define EVF_NEEDS_TFA  0x02u  /* the service asked for a 2FA session */
#define EVF_FAILED_INSTANCE 0x04u /* an instance entered a failure state (said once) */
#define EVF_AUTH       0x08u  /* the key was refused */
#define EVF_UNKNOWN    0x10u  /* a job's outcome is unknown (its answer was lost) */
#define EVF_RESOLVED   0x20u  /* a re-read told what an unknown outcome was */
#define EVF_HOLD       0x40u  /* a start-up warning: its toast stays until a key is pressed */
#define EVF_QUIET      0x400u  /* logged only: the screen says it otherwise (no toast) */
#define EVF_STATE      0x800u  /* an instance changed state ("provisioning -> running") */

struct event {
	uint64_t seq;          /* 1, 2, ... */
	double when;           /* wall epoch */
	enum ev_level level;
	int job_kind;          /* enum job_kind, -1 when none */
	int job_id;            /* 0 when none */
	long instance_id;      /* 0 when none */
	unsigned flags;        /* EVF_* */
	char text[256];        /* sanitised; never a secret */
};

#define MODEL_EVENT_RING 1024

struct model;

/* Any thread. */
struct model *model_new(void);
void model_free(struct model *m);

/* UI thread: a descriptor that becomes readable when the model changed or an
 * event arrived; model_wake_drain() empties it. */
int model_wake_fd(const struct model *m);
void model_wake_drain(struct model *m);
/* Any thread: make the wake fd readable (used for signals and "quit"). */
void model_wake(struct model *m);

/* Any thread: a reference to the current snapshot (never NULL); the caller
 * must model_release() it.  Takes the mutex for a few pointer operations. */
const struct snapshot *model_acquire(struct model *m);
void model_release(const struct snapshot *s);
uint64_t model_generation(struct model *m);

/* Poller thread (writer).  The arrays are taken over (freed with
 * workergroups_free() etc. when the last snapshot using them goes;
 * model_set_instances makes each instance an irow and frees v at once). */
void model_set_instances(struct model *m, struct instance *v, size_t n, double now);
/* Poller thread: publish the rows it holds (sorted by id, each referenced
 * here, not taken over) with the list's progress.  Costs one pointer and one
 * reference a row; no record or string is copied. */
void model_publish_rows(struct model *m, struct irow *const *rows, size_t n,
			const struct inst_progress *pr, double now);
/* Poller thread: the list was asked and nothing changed: freshness and
 * progress only (the rows stay shared). */
void model_instances_ok(struct model *m, const struct inst_progress *pr, double now);
void model_set_user(struct model *m, struct user *u, double now);
void model_set_workergroups(struct model *m, struct workergroup *v, size_t n, double now);
void model_set_endpoints(struct model *m, struct endpoint *v, size_t n, double now);
void model_set_error(struct model *m, enum model_source src, int http_status,
		     bool transport, bool auth, const char *msg, double now);
void model_set_in_flight(struct model *m, enum model_source src, bool on, double now);
/* Poller thread: after a failure, when src is asked again (wall epoch). */
void model_set_retry_at(struct model *m, enum model_source src, double at);
void model_set_pending(struct model *m, const struct pending *p, size_t n);
/* Poller thread: mark (on) or clear the unknown outcome of job_id on
 * instance_id (one mark per job and instance). */
void model_set_unsure(struct model *m, int job_id, int kind, long instance_id, bool on);
/* Poller thread: how many queued actions wait for their endpoint's pacer. */
void model_set_actions_waiting(struct model *m, int n);

/* On-demand results (jobs_call / jobs_subscribe, jobs.h), keyed by request
 * id.  The poller puts; the view that holds the id takes. */
enum call_outcome {
	CALL_OK,      /* value holds the mapper's result */
	CALL_ERROR,   /* err says why; the service did nothing (or a fetch failed) */
	CALL_UNKNOWN, /* an action whose answer was lost: it may have taken effect */
};

struct call_result {
	int req_id;
	enum call_outcome outcome;
	void *value;                 /* CALL_OK: the mapper's value, or NULL */
	void (*free_value)(void *);  /* frees value; NULL: free() */
	struct api_error err;        /* CALL_ERROR, CALL_UNKNOWN: sanitised, no secret */
	double when;                 /* wall epoch */
};

#define MODEL_MAX_RESULTS 128

/* Poller thread: store r (its value taken over), replacing an untaken
 * result of the same id; wakes the UI and bumps snapshot.results_seq.  Past
 * MODEL_MAX_RESULTS untaken results the oldest is freed. */
void model_put_result(struct model *m, const struct call_result *r);
/* UI thread (any thread): take the result of req_id: true and *out filled;
 * the value is then the caller's (free it with call_result_free). */
bool model_take_result(struct model *m, int req_id, struct call_result *out);
/* Any thread: drop an untaken result (a view that went away). */
void model_drop_result(struct model *m, int req_id);
/* Free a taken result's value. */
void call_result_free(struct call_result *r);

/* Any thread: append an event (the text is formatted, then sanitised). */
uint64_t model_event(struct model *m, enum ev_level lvl, int job_kind, int job_id,
		     long instance_id, unsigned flags, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Any thread: copy up to max events with seq > after, oldest first. */
size_t model_events(struct model *m, uint64_t after, struct event *out, size_t max);

/* Pure helpers. */
enum inst_state model_derive_state(const char *actual, const char *intended,
				   const char *cur, const char *next);
/* The display state of a mapped record: model_derive_state of its statuses,
 * IS_OUTBID for an interruptible (is_bid) that is stopped or exited while
 * its status_msg says it was outbid (the service stops it, intended_status
 * "stopped", and keeps its disk: only the message tells it from a stop by
 * the user).  The one place an outbid is recognised. */
enum inst_state instance_state(const struct instance *x);
const char *inst_state_name(enum inst_state s);  /* "running", "stopped", "crashed", ... */
/* The one grouping of states that the header counts, the filter's
 * status=GROUP and the status column's colour all use: running; booting
 * (provisioning, loading, starting, rebooting); stopped (stopped,
 * stopping); failed (SPEC rule 1: crashed, failed start, unknown,
 * offline); other (frozen, other). */
enum inst_group { IG_RUNNING, IG_BOOTING, IG_STOPPED, IG_FAILED, IG_OUTBID, IG_OTHER, IG__COUNT };
enum inst_group inst_state_group(enum inst_state s);
const char *inst_group_name(enum inst_group g);  /* "running", "booting", ..., "failed", "outbid", "other" */
bool inst_state_failed(enum inst_state s);        /* inst_state_group() == IG_FAILED */
bool inst_state_billing_compute(enum inst_state s); /* GPU billed now */
/* Rows by state group (inst_state_group), for the header ("5 running, 2
 * booting, 1 stopped, 4 failed"). */
struct state_counts {
	size_t running;   /* IG_RUNNING */
	size_t booting;   /* IG_BOOTING */
	size_t stopped;   /* IG_STOPPED */
	size_t failed;    /* IG_FAILED */
	size_t outbid;    /* IG_OUTBID */
	size_t other;     /* IG_OTHER */
};
void model_count_states(const struct instance *const *v, size_t n, struct state_counts *c);
/* The row of an instance (binary search by id), or NULL. */
const struct instance *snapshot_find_instance(const struct snapshot *s, long id);
bool snapshot_pending(const struct snapshot *s, long instance_id, int kind); /* kind -1: any */
/* The unknown-outcome mark of an instance (the first), or NULL. */
const struct unsure *snapshot_unsure(const struct snapshot *s, long instance_id);

/* Where to SSH: the direct address (public_ip, ports["22/tcp"]) when the
 * instance has one, else the service's proxy (ssh_host:ssh_port).  False when
 * neither is known yet.  Pure. */
bool instance_ssh_target(const struct instance *x, char *host, size_t n, int *port);
/* The address of one route (SSH_DIRECT: public_ip and ports["22/tcp"];
 * SSH_PROXY: ssh_host:ssh_port); false when x has none of that kind.  Pure. */
bool instance_ssh_route(const struct instance *x, enum ssh_route r, char *host, size_t n,
			int *port);
/* The route ssh takes under the configured preference: SSH_ASK only when
 * pref is SSH_ASK and both exist; a preferred route that is missing gives
 * way to the other.  False when x has no address at all.  Pure. */
bool instance_ssh_pick(const struct instance *x, enum ssh_route pref, enum ssh_route *out);

/* The money questions.  Which second question a typed bid ($/h) needs:
 * under min_bid (the instance will be outbid) or above the on-demand price
 * (it costs more than renting on demand); none where a price is unknown.
 * Pure. */
enum bid_ask { BID_ASK_NONE, BID_ASK_LOW, BID_ASK_HIGH };
enum bid_ask instance_bid_ask(const struct instance *x, double bid);
/* Was x outbid (its state is IS_OUTBID: an interruptible stopped because a
 * higher bid took its machine, as status_msg says)?  Its min_bid is then the
 * winning price.  Pure. */
bool instance_was_outbid(const struct instance *x);
/* Did x's container never start (a failed start: created with an error,
 * or exited with the Docker daemon's error before it ran)?  Pure. */
bool instance_never_started(const struct instance *x);
/* Does a prepay on x ask first (x in a failure state)?  Pure. */
bool instance_prepay_asks(const struct instance *x);

/* Interned strings (field names repeat in every record): one copy for the
 * process, never freed, in a fixed pool.  Any thread (a mutex guards the
 * table).  Returns the shared copy of s[0..len), or NULL when the pool is
 * full (the caller then keeps its own copy).  On first insertion classify(s)
 * is called once under the lock and its answer is kept: *flag receives it
 * on every call (the secret check once per key name). */
const char *model_intern(const char *s, size_t len, bool (*classify)(const char *), bool *flag);
/* Is p a pointer into the intern pool?  Any thread, no lock. */
bool model_interned(const char *p);

/* Freeing records (used by the model and by mappers on error paths). */
void instance_clear(struct instance *x);
void instances_free(struct instance *v, size_t n);
void user_free(struct user *u);
void workergroup_clear(struct workergroup *g); /* frees what *g owns, zeroes *g */
void workergroups_free(struct workergroup *v, size_t n);
void endpoint_clear(struct endpoint *e);       /* frees what *e owns, zeroes *e */
void endpoints_free(struct endpoint *v, size_t n);
void kv_free(struct kv *v, size_t n); /* a list made by json_map_fields() (one block) */

#endif
