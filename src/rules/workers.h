/* workers.h: the workers of a serverless endpoint (get_endpoint_workers)
 * and the endpoint's health: counts by state, current load against
 * capacity, the flag rule and a memo that says whether a flag is new, so
 * the header and the event log say it once (as for failed instances).
 *
 * The states are the documented ones (docs guides/serverless/worker-states:
 * the CLI and log names), and RUNNING, which SPEC.md's service and the
 * simulator send for a serving worker; IDLE ("Ready") and RUNNING are
 * ready.  A state outside the list is counted and shown by its own name,
 * never as an error.  An endpoint is flagged as the docs mean it: every
 * worker in ERROR, or load above min_load with no ready worker.
 * Decoding and summaries are pure, any thread.  A struct workers_memo is
 * not locked: one thread owns it (the poller, which raises the event). */
#ifndef RENTOP_WORKERS_H
#define RENTOP_WORKERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum worker_state {
	WS_IDLE,             /* ready: model loaded, taking requests ("Ready") */
	WS_RUNNING,          /* ready: SPEC.md's and the simulator's name */
	WS_CREATING,         /* instance creation accepted */
	WS_CREATED,          /* created, stopped in the database */
	WS_PENDING,          /* offer accepted, setup pending */
	WS_LOADING,          /* docker pull / run */
	WS_MODEL_LOADING,    /* loading the model the first time */
	WS_STARTING,         /* starting after a boot (not the first) */
	WS_REBOOTING,
	WS_UPDATING,         /* the UI's name for the update steps */
	WS_UPDATE_READY,
	WS_UPDATE_REBOOTING,
	WS_UPDATE_STARTING,
	WS_STOPPING,
	WS_STOPPED,          /* inactive */
	WS_DESTROYING,
	WS_ERROR,
	WS_OTHER,            /* any other status text (kept in status) */
	WS__COUNT
};

struct worker {
	long id;
	char status[24];        /* as sent, sanitised ("IDLE", ...) */
	enum worker_state state;
	double cur_load;        /* load units/s being served (NAN when missing) */
	double perf;            /* load units/s the worker can serve (NAN when missing) */
	double reliability;     /* 0-1, NAN when missing */
	int reqs_working;       /* requests in progress */
	double disk_usage;      /* GB, NAN when missing */
	double started_at;      /* epoch s, NAN when missing */
	double load_avg;        /* cur_load_rolling_avg, NAN when missing */
	double measured_perf;   /* NAN when missing */
	double uptime_mins;     /* NAN when missing (null: not running) */
	double dph;             /* dph_total, $/h, NAN when missing */
	long instance_id;       /* 0 when missing */
	char gpu_name[40];      /* sanitised, "" when missing */
	char status_msg[200];   /* sanitised, "" when missing; shown in ERROR */
};

/* A get_endpoint_workers answer: a bare array (live), or the array under
 * "workers" (the docs) or "results".  *v is malloc'd (free()), sorted by
 * id.  Entries that are not objects or have no id are skipped.  False when
 * the shape is wrong (an error string, an object without a list). */
bool workers_decode(const json_t *root, struct worker **v, size_t *n);
/* Status text to state (case-insensitive; the docs' example says
 * "running"). */
enum worker_state workers_state(const char *status);
/* The documented name: "IDLE", "MODEL_LOADING", ...; "OTHER". */
const char *workers_state_name(enum worker_state s);
/* Is a worker in state s ready (IDLE or RUNNING)? */
bool workers_state_ready(enum worker_state s);

/* How a state is drawn (its colour): ready; on its way up (creating to
 * starting, rebooting); being updated; stopping or stopped; in error;
 * unknown. */
enum worker_class { WC_READY, WC_STARTING, WC_UPDATING, WC_STOPPED, WC_ERROR, WC_OTHER };
enum worker_class workers_state_class(enum worker_state s);

/* The endpoint's cost: the sum of its workers' dph_total, $/h, into
 * *dph; returns how many workers had one (those without are left out). */
size_t workers_cost(const struct worker *v, size_t n, double *dph);

/* The cells of a worker's row, in the order drawn. */
enum worker_col {
	WK_ID, WK_STATE, WK_LOAD, WK_AVG, WK_PERF, WK_MPERF, WK_REQS, WK_DISK, WK_REL,
	WK_UPTIME, WK_GPU, WK_DPH, WK_INSTANCE, WK_MSG, WK__COUNT
};
/* The column titles ("id", "state", "load", "avg", ...). */
const char *workers_col_title(enum worker_col c);
/* Cell c of worker w as text into buf ("-" for a missing figure; the
 * message only in ERROR, else ""). */
char *workers_cell(const struct worker *w, enum worker_col c, char *buf, size_t n);

#define WORKERS_OTHER_NAMES 4   /* unknown states kept by name per summary */

struct workers_health {
	size_t count[WS__COUNT];
	size_t total;
	double load;            /* sum of cur_load, load units/s */
	double capacity;        /* sum of perf over ready workers */
	struct {
		char name[24];  /* as sent, sanitised */
		size_t n;
	} other[WORKERS_OTHER_NAMES]; /* the first unknown states by name; the
				       * rest only in count[WS_OTHER] */
	size_t nother;
};
void workers_summary(const struct worker *v, size_t n, struct workers_health *h);
/* Ready workers (IDLE and RUNNING). */
size_t workers_ready(const struct workers_health *h);

enum workers_flag {
	WF_NONE,
	WF_ALL_ERROR,           /* at least one worker, every one in ERROR */
	WF_NO_READY,            /* no ready worker while load > min_load */
};
/* The flag rule.  load: the endpoint's current load (the workergroups'
 * cur_load); NAN to use the workers' summed load. */
enum workers_flag workers_flag(const struct workers_health *h, double load, double min_load);
/* One line for the header and the event log: "llm-chat: every worker (3) in
 * ERROR", "llm-chat: no ready worker, load 42.0 > min_load 10.0". Into buf. */
char *workers_flag_text(char *buf, size_t n, const char *endpoint_name, enum workers_flag f,
			const struct workers_health *h, double load, double min_load);
/* The counts: "3 ready" always, then every other state with workers, by
 * its lower-case documented name ("1 loading 1 model_loading 2 error"),
 * then unknown ones by their own name ("1 WARMING"), and "+N more" for
 * unknown ones past WORKERS_OTHER_NAMES.  Into buf. */
char *workers_counts_text(char *buf, size_t n, const struct workers_health *h);
/* "load 42/120": the load against the capacity, into buf. */
char *workers_load_text(char *buf, size_t n, const struct workers_health *h);
/* The counts plus "load 42/120" into buf. */
char *workers_health_text(char *buf, size_t n, const struct workers_health *h);

/* Said once: remembers the flag each endpoint was last reported with. */
struct workers_memo;
struct workers_memo *workers_memo_new(void);
void workers_memo_free(struct workers_memo *m);
/* Record the endpoint's current flag; true when it should be said now: the
 * flag is set and differs from the one remembered.  Clearing (WF_NONE)
 * forgets, so a later flag is said again. */
bool workers_memo_update(struct workers_memo *m, long endpoint_id, enum workers_flag f);
/* Forget endpoints not in ids[0..n) (deleted endpoints). */
void workers_memo_keep(struct workers_memo *m, const long *ids, size_t n);

#endif
