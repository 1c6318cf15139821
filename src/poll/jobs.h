/* jobs.h: user actions as queued jobs.  Any thread may submit (the UI does);
 * only the poller thread takes and runs them.  A submit never touches the
 * network: it validates, queues, marks the row pending in the model and wakes
 * the poller.  Results come back as model events (EVF_JOB_DONE, with
 * EVF_NEEDS_TFA when the service asked for a 2FA session), followed by an
 * immediate refresh; a job submitted with reply set also leaves its result
 * in the model under its id, the way a call's does (below).  The same
 * action on the same instance never runs twice at once. */
#ifndef RENTOP_JOBS_H
#define RENTOP_JOBS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "api/api_offers.h"

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
	JOB_TFA_LOGIN, /* exchange a 2FA code (TOTP, SMS, email) or a backup code for a
			* session key */
	JOB__COUNT
};

/* A bid change: >= 0.001 and <= 32.0 x the instance's GPUs, $/hour (the
 * docs, change_bid.yaml, x-input-validation; SPEC.md's 32 is one GPU's). */
#define BID_MIN 0.001
#define BID_MAX_PER_GPU 32.0
#define LABEL_MAX 1024
#define ONSTART_MAX 4048

/* struct create_req: api_offers.h. */

struct job_req {
	enum job_kind kind;
	long instance_id;        /* every kind but CREATE and TFA_LOGIN */
	double amount;           /* BID: $/hour; PREPAY: credits ($) */
	int num_gpus;            /* BID: the instance's GPUs (the top of the range) */
	char text[LABEL_MAX + 1];/* LABEL: the new label; TFA_LOGIN: the code */
	char tfa_method[16];     /* TFA_LOGIN: "totp", "sms", "email", or "backup" (then
				  * text is XXXX-XXXX-XXXX) */
	char tfa_secret[160];    /* TFA_LOGIN sms/email: the challenge secret of the code sent */
	long tfa_method_id;      /* TFA_LOGIN totp/sms: the method (tfa_method_id), 0: not sent */
	struct create_req create;/* CREATE */
	bool reply;              /* the submitter takes the job's end from the model, as a
				  * call's result (model_take_result) under the job's id:
				  * CALL_OK (err.msg: a 2FA login's sentence; value: a
				  * create's new instance id, a long, when the answer named
				  * it), CALL_ERROR (err.msg: the event's sentence) or
				  * CALL_UNKNOWN (answer lost).  A job refused for want of
				  * 2FA is parked by the poller with the on-demand actions:
				  * no result until it is sent again after the login
				  * (jobs_resubmit, same id), or the refusal when the 2FA
				  * prompt is cancelled (poller_cancel_parked) */
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
/* Any thread: queue req again under job_id, a job that ended refused for
 * want of a 2FA session and is sent again after the login: its result (and
 * events) keep the id its submitter holds.  jobs_submit's checks. */
int jobs_resubmit(struct jobs *j, const struct job_req *req, int job_id);
/* Human text for a jobs_submit() error. */
const char *jobs_strerror(int err);

/* Any thread: the highest bid on an instance of num_gpus GPUs, $/hour
 * (BID_MAX_PER_GPU each; fewer than 1 counts as 1). */
double jobs_bid_max(int num_gpus);

/* Any thread: name ("stop", "destroy", ...) and whether it changes anything. */
const char *jobs_kind_name(enum job_kind k);

/* Poller side: called whenever a job is queued (to wake the poller). */
void jobs_set_waker(struct jobs *j, void (*wake)(void *arg), void *arg);
/* Poller thread: take the next queued job; false when none. */
bool jobs_take(struct jobs *j, struct job_req *out, int *job_id);
/* Poller thread: the job has finished (its pending badge goes). */
void jobs_finish(struct jobs *j, int job_id);
size_t jobs_queued(struct jobs *j);

/* ---- on-demand calls and subscriptions --------------------------------
 *
 * Data a view asks for (an offer search, a log tail, machine reports, a 2FA
 * status) and account actions go out through the poller as a call: any
 * api_call built by the request builders of api*.c, flagged fetch
 * (retry-safe) or action (at most once, retry.h), with a mapper chosen by
 * the caller.  The poller runs it under the endpoint's pacer, maps the
 * answer on the poller thread (no json_t crosses threads) and stores the
 * result in the model under the request id (model_take_result, model.h);
 * the model's wake fd then wakes the UI.  An action the service refuses
 * for want of a 2FA session has no result until the 2FA prompt is
 * answered (it is sent again: its result is the asker's) or cancelled (the
 * refusal is the result): see poller_cancel_parked.
 *
 * Ownership: jobs_call and jobs_subscribe take over c->call (its url and
 * body are freed by the jobs module, also on refusal); the mapper's value
 * belongs to the model until a model_take_result hands it to the taker,
 * who frees it with the result's free_value.  Ids of calls, subscriptions
 * and jobs come from one counter: they never collide.
 *
 * Threads: jobs_call, jobs_subscribe, jobs_set_visible, jobs_set_interval,
 * jobs_unsubscribe
 * from any thread (the UI); jobs_take_call, jobs_call_done and
 * jobs_next_call_due on the poller thread only. */

/* Poller thread: the answer's JSON -> a C value (malloc'd, sanitised,
 * never a secret).  NULL with e->cls set (apierr_protocol) when the answer
 * has not the expected shape; NULL with e->cls AE_NONE is a valid value. */
typedef void *(*jobs_map_fn)(const json_t *root, struct api_error *e);
/* Any thread: frees a value of the mapper (NULL: free()). */
typedef void (*jobs_free_fn)(void *value);

struct job_call {
	struct api_call call;    /* taken over by jobs_call / jobs_subscribe */
	bool action;             /* at most once (retry.h); refused under --read-only */
	jobs_map_fn map;         /* NULL: the value is NULL (only success matters) */
	jobs_free_fn free_value; /* NULL: free() */
	/* Instead of map, for an answer that is not JSON (a log file at a
	 * result_url): the finished transfer itself (poller thread).  NULL with
	 * e->cls set is a failure (a 404: not written yet), which the retry rule
	 * judges as any other; a value (or NULL with AE_NONE) is CALL_OK. */
	void *(*map_http)(const struct http_xfer *x, struct api_error *e);
	char what[64];           /* for messages and the log: "offer search" */
	/* An action on these instances (a bulk start, stop or destroy; nlost 0:
	 * none): when its answer is lost, each is re-read and what the re-read
	 * shows is reported as for the single action lost_kind (the poller's
	 * re-read of an unknown outcome). */
	enum job_kind lost_kind;
	long lost_ids[API_BULK_BATCH];
	size_t nlost;
};

/* Queue one call; *req_id (> 0) keys its result in the model.
 * JOBS_EREADONLY for an action under --read-only, JOBS_EINVAL without a
 * call, JOBS_EFULL when too many are queued. */
int jobs_call(struct jobs *j, struct job_call *c, int *req_id);
/* Re-issue a fetch every interval_s (>= 1) until unsubscribed; each answer
 * replaces the previous result under *sub_id.  while_visible: only issued
 * while jobs_set_visible(sub, true) (it starts visible).  Actions cannot
 * be subscribed (JOBS_EINVAL). */
int jobs_subscribe(struct jobs *j, struct job_call *c, double interval_s, bool while_visible,
		   int *sub_id);
/* The subscription's pane is shown (true: due at once) or hidden. */
void jobs_set_visible(struct jobs *j, int sub_id, bool visible);
/* Change its interval (>= 1 s; others ignored): the next request is due
 * interval_s after the last one ended (at once when that is past; a
 * request in flight: interval_s after it ends). */
void jobs_set_interval(struct jobs *j, int sub_id, double interval_s);
/* Stop it; a request in flight finishes but its result is dropped. */
void jobs_unsubscribe(struct jobs *j, int sub_id);
/* Is the subscription still alive? (the poller drops results of dead ones) */
bool jobs_subscribed(struct jobs *j, int sub_id);

/* Poller thread: the next queued call, or a subscription due at now (its
 * call a copy); *sub_id 0 for a one-shot call.  The caller owns out->call. */
bool jobs_take_call(struct jobs *j, double now, struct job_call *out, int *req_id, int *sub_id);
/* Poller thread: a subscription's request ended: due again interval_s after now. */
void jobs_call_done(struct jobs *j, int sub_id, double now);
/* Poller thread: when the next subscription is due (s, monotonic; +inf: none). */
double jobs_next_call_due(struct jobs *j);

#endif
