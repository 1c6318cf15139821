/* jobs.h: user actions as queued jobs.  Any thread may submit (the UI does);
 * only the poller thread takes and runs them.  A submit never touches the
 * network: it validates, queues, marks the row pending in the model and wakes
 * the poller.  Results come back as model events (EVF_JOB_DONE, with
 * EVF_NEEDS_TFA when the service asked for a 2FA session), followed by an
 * immediate refresh.  The same action on the same instance never runs twice
 * at once. */
#ifndef RENTOP_JOBS_H
#define RENTOP_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "api_offers.h"

struct model;

enum job_kind {
	JOB_START,
	JOB_STOP,
	JOB_REBOOT,
	JOB_LABEL,
	JOB_DESTROY,
	JOB_BID,
	JOB_PREPAY,
	JOB_CREATE,
	JOB_TFA_LOGIN, /* exchange a TOTP or backup code for a session key */
	JOB__COUNT
};

#define BID_MIN 0.001 /* $/hour, SPEC limits */
#define BID_MAX 32.0
#define LABEL_MAX 1024
#define ONSTART_MAX 4048

/* struct create_req: api_offers.h. */

struct job_req {
	enum job_kind kind;
	long instance_id;        /* every kind but CREATE and TFA_LOGIN */
	double amount;           /* BID: $/hour; PREPAY: credits ($) */
	char text[LABEL_MAX + 1];/* LABEL: the new label; TFA_LOGIN: the code */
	char tfa_method[16];     /* TFA_LOGIN: "totp", "backup" (then text is XXXX-XXXX-XXXX) */
	struct create_req create;/* CREATE */
};

enum jobs_err {
	JOBS_OK = 0,
	JOBS_EBUSY = -1,     /* the same action on the same instance is queued or running */
	JOBS_EREADONLY = -2, /* --read-only */
	JOBS_EINVAL = -3,    /* bad arguments (bid out of range, empty label, ...) */
	JOBS_EFULL = -4,     /* too many queued jobs */
};

struct jobs;

struct jobs *jobs_new(struct model *m, bool read_only);
void jobs_free(struct jobs *j);

/* Any thread.  Validates (ranges of SPEC.md), queues and returns at once.
 * On success *job_id (if not NULL) gets the job's id (> 0). */
int jobs_submit(struct jobs *j, const struct job_req *req, int *job_id);
/* Human text for a jobs_submit() error. */
const char *jobs_strerror(int err);

/* Any thread: name ("stop", "destroy", ...) and whether it changes anything. */
const char *job_kind_name(enum job_kind k);

/* Poller side: called whenever a job is queued (to wake the poller). */
void jobs_set_waker(struct jobs *j, void (*wake)(void *arg), void *arg);
/* Poller thread: take the next queued job; false when none. */
bool jobs_take(struct jobs *j, struct job_req *out, int *job_id);
/* Poller thread: the job has finished (its pending badge goes). */
void jobs_finish(struct jobs *j, int job_id);
size_t jobs_queued(struct jobs *j);

#endif
