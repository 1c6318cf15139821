/* workers.h: the workers of a serverless endpoint (get_endpoint_workers)
 * and the endpoint's health: counts by status, current load against
 * capacity, the flag rule (every worker in ERROR, or no running worker while
 * the load is above min_load) and a memo that says whether a flag is new, so
 * the header and the event log say it once (as for failed instances).
 * Decoding and summaries are pure, any thread.  A struct workers_memo is
 * not locked: one thread owns it (the poller, which raises the event). */
#ifndef RENTOP_WORKERS_H
#define RENTOP_WORKERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum worker_state {
	WS_RUNNING,
	WS_LOADING,
	WS_IDLE,
	WS_ERROR,
	WS_OTHER,    /* any other status text (kept in status) */
	WS__COUNT
};

struct worker {
	long id;
	char status[24];        /* as sent, sanitised ("RUNNING", ...) */
	enum worker_state state;
	double cur_load;        /* load units/s being served (NAN when missing) */
	double perf;            /* load units/s the worker can serve (NAN when missing) */
	double reliability;     /* 0-1, NAN when missing */
	int reqs_working;       /* requests in progress */
	double disk_usage;      /* GB, NAN when missing */
	double started_at;      /* epoch s, NAN when missing */
};

/* A get_endpoint_workers answer: a bare array (live), or the array under
 * "workers" or "results".  *v is malloc'd (free()), sorted by id.  Entries
 * that are not objects or have no id are skipped.  False when the shape is
 * wrong (an error string, an object without a list). */
bool workers_decode(const json_t *root, struct worker **v, size_t *n);
/* Status text to state (case-insensitive). */
enum worker_state workers_state(const char *status);
/* "RUNNING", "LOADING", "IDLE", "ERROR", "OTHER". */
const char *workers_state_name(enum worker_state s);

struct workers_health {
	size_t count[WS__COUNT];
	size_t total;
	double load;            /* sum of cur_load, load units/s */
	double capacity;        /* sum of perf over RUNNING and IDLE workers */
};
void workers_summary(const struct worker *v, size_t n, struct workers_health *h);

enum workers_flag {
	WF_NONE,
	WF_ALL_ERROR,           /* at least one worker, every one in ERROR */
	WF_NO_RUNNING,          /* no RUNNING worker while load > min_load */
};
/* The flag rule.  load: the endpoint's current load (the workergroups'
 * cur_load); NAN to use the workers' summed load. */
enum workers_flag workers_flag(const struct workers_health *h, double load, double min_load);
/* One line for the header and the event log: "llm-chat: every worker (3) in
 * ERROR", "llm-chat: no running worker, load 42.0 > min_load 10.0". Into buf. */
char *workers_flag_text(char *buf, size_t n, const char *endpoint_name, enum workers_flag f,
			const struct workers_health *h, double load, double min_load);
/* Compact "3 run 1 load 0 idle 1 err" text plus "load 42/120" into buf. */
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
