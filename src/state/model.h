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
#include "base/config.h"
#include "state/instance.h"
#include "state/intern.h"

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
	double min_cold_load;      /* NAN when missing */
	double max_queue_time;     /* s, NAN when missing (the service's default) */
	double target_queue_time;  /* s, NAN when missing */
	double inactivity_timeout; /* s without traffic before scaling to zero; NAN: never */
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
/* What an event is about, for the notifications (rules/notify.h); each is
 * set only on the event that says a condition began, never on its end: */
#define EVF_OUTBID     0x80u  /* with EVF_STATE: an interruptible instance was outbid */
#define EVF_OFFLINE    0x100u /* with EVF_FAILED_INSTANCE: its host went offline or silent */
#define EVF_MONEY      0x200u /* runway or credit fell under a limit (header_watch) */
#define EVF_QUIET      0x400u  /* logged only: the screen says it otherwise (no toast) */
#define EVF_STATE      0x800u  /* an instance changed state ("provisioning -> running") */
#define EVF_IDLE       0x1000u /* an instance became idle: running under idle_util % GPU for
				  idle_minutes (rules/idle.h; ui/idlewatch.c says it once a rise) */
#define EVF_HOT        0x2000u /* an instance's GPU runs over hot_temp */
#define EVF_DISK       0x4000u /* an instance's disk is over disk_full % of its disk_space */
#define EVF_ENDPOINT   0x8000u /* an endpoint's workers are all in error, or none ready */
#define EVF_TFA_EXPIRED 0x10000u /* the 2FA session key expired or was refused */

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
 * model_workergroups_free() etc. when the last snapshot using them goes;
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
 * the value is then the caller's (free it with model_call_result_free). */
bool model_take_result(struct model *m, int req_id, struct call_result *out);
/* Any thread: drop an untaken result (a view that went away). */
void model_drop_result(struct model *m, int req_id);
/* Free a taken result's value. */
void model_call_result_free(struct call_result *r);

/* Any thread: append an event (the text is formatted, then sanitised). */
uint64_t model_event(struct model *m, enum ev_level lvl, int job_kind, int job_id,
		     long instance_id, unsigned flags, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Any thread: copy up to max events with seq > after, oldest first. */
size_t model_events(struct model *m, uint64_t after, struct event *out, size_t max);

/* Rows by state group (instance_state_group), for the header ("5 running, 2
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
const struct instance *model_snapshot_find(const struct snapshot *s, long id);
bool model_snapshot_pending(const struct snapshot *s, long instance_id, int kind); /* kind -1: any */
/* The unknown-outcome mark of an instance (the first), or NULL. */
const struct unsure *model_snapshot_unsure(const struct snapshot *s, long instance_id);

/* Freeing records (used by the model and by mappers on error paths). */
void model_user_free(struct user *u);
void model_workergroup_clear(struct workergroup *g); /* frees what *g owns, zeroes *g */
void model_workergroups_free(struct workergroup *v, size_t n);
void model_endpoint_clear(struct endpoint *e);       /* frees what *e owns, zeroes *e */
void model_endpoints_free(struct endpoint *v, size_t n);

#endif
