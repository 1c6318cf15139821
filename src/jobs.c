/* jobs.c: the queue of user actions between the UI thread (submit) and the
 * poller thread (take, finish).  Owns validation (every range SPEC.md
 * states is checked before anything is sent), the read-only refusal, the
 * "same action on the same instance only once at a time" rule, and the
 * pending set mirrored into the model on every change.  One mutex guards
 * the queue and orders the model's pending updates; the waker is called
 * with it released. */
#include "jobs.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define JOBS_MAX 64 /* queued + running; fits MODEL_MAX_PENDING */

struct slot {
	struct job_req req;
	int id;
	bool running;
};

struct jobs {
	pthread_mutex_t mu;
	struct model *m;
	bool read_only;
	struct slot *slots;  /* queued in submit order, then running ones anywhere */
	size_t n;
	int next_id;
	void (*wake)(void *);
	void *wake_arg;
};

static const char *const kind_names[JOB__COUNT] = {
	[JOB_START] = "start",   [JOB_STOP] = "stop",       [JOB_REBOOT] = "reboot",
	[JOB_LABEL] = "label",   [JOB_DESTROY] = "destroy", [JOB_BID] = "change bid",
	[JOB_PREPAY] = "prepay", [JOB_CREATE] = "create",   [JOB_TFA_LOGIN] = "2FA login",
};

const char *job_kind_name(enum job_kind k)
{
	return (unsigned)k < JOB__COUNT ? kind_names[k] : "?";
}

const char *jobs_strerror(int err)
{
	switch (err) {
	case JOBS_OK: return "queued";
	case JOBS_EBUSY: return "the same action on this instance is already under way";
	case JOBS_EREADONLY: return "read-only mode: actions are disabled";
	case JOBS_EINVAL: return "invalid arguments";
	case JOBS_EFULL: return "too many actions queued";
	default: return "unknown error";
	}
}

struct jobs *jobs_new(struct model *m, bool read_only)
{
	struct jobs *j = xcalloc(1, sizeof *j);
	pthread_mutex_init(&j->mu, NULL);
	j->m = m;
	j->read_only = read_only;
	j->slots = xcalloc(JOBS_MAX, sizeof *j->slots);
	j->next_id = 1;
	return j;
}

void jobs_free(struct jobs *j)
{
	if (!j)
		return;
	explicit_bzero(j->slots, JOBS_MAX * sizeof *j->slots); /* TFA codes */
	free(j->slots);
	pthread_mutex_destroy(&j->mu);
	free(j);
}

void jobs_set_waker(struct jobs *j, void (*wake)(void *arg), void *arg)
{
	pthread_mutex_lock(&j->mu);
	j->wake = wake;
	j->wake_arg = arg;
	pthread_mutex_unlock(&j->mu);
}

static bool all_digits(const char *s, size_t n)
{
	if (strlen(s) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* XXXX-XXXX-XXXX, letters or digits. */
static bool backup_code_ok(const char *s)
{
	if (strlen(s) != 14)
		return false;
	for (int i = 0; i < 14; i++) {
		if (i == 4 || i == 9) {
			if (s[i] != '-')
				return false;
		} else if (!isalnum((unsigned char)s[i])) {
			return false;
		}
	}
	return true;
}

static bool bid_ok(double p)
{
	return isfinite(p) && p >= BID_MIN && p <= BID_MAX;
}

/* Everything SPEC.md lets us check before sending. */
static bool validate(const struct job_req *r)
{
	if ((unsigned)r->kind >= JOB__COUNT)
		return false;
	if (r->kind != JOB_CREATE && r->kind != JOB_TFA_LOGIN && r->instance_id <= 0)
		return false;
	switch (r->kind) {
	case JOB_BID:
		return bid_ok(r->amount);
	case JOB_PREPAY:
		return isfinite(r->amount) && r->amount > 0;
	case JOB_LABEL: {
		size_t n = strnlen(r->text, sizeof r->text);
		return n > 0 && n <= LABEL_MAX;
	}
	case JOB_TFA_LOGIN:
		if (strcmp(r->tfa_method, "totp") == 0)
			return all_digits(r->text, 6);
		if (strcmp(r->tfa_method, "backup") == 0)
			return backup_code_ok(r->text);
		return false;
	case JOB_CREATE: {
		char why[200]; /* api_offers.c owns the create request's rules */
		return create_req_valid(&r->create, why, sizeof why);
	}
	default:
		return true;
	}
}

/* Mirror queued and running jobs into the model (called unlocked).  The
 * model is updated with the mutex still held, so that a submit (UI thread)
 * and a finish (poller thread) publish in the order they changed the queue;
 * the model never calls back into jobs, so the lock order jobs -> model is
 * the only one. */
static void publish(struct jobs *j)
{
	struct pending p[JOBS_MAX];
	size_t n = 0;
	pthread_mutex_lock(&j->mu);
	for (size_t i = 0; i < j->n && n < JOBS_MAX; i++) {
		p[n].job_id = j->slots[i].id;
		p[n].kind = (int)j->slots[i].req.kind;
		p[n].instance_id = j->slots[i].req.instance_id;
		n++;
	}
	if (j->m)
		model_set_pending(j->m, p, n);
	pthread_mutex_unlock(&j->mu);
}

int jobs_submit(struct jobs *j, const struct job_req *req, int *job_id)
{
	if (j->read_only)
		return JOBS_EREADONLY;
	if (!validate(req))
		return JOBS_EINVAL;
	pthread_mutex_lock(&j->mu);
	for (size_t i = 0; i < j->n; i++) {
		const struct job_req *o = &j->slots[i].req;
		bool same_target = req->kind == JOB_TFA_LOGIN ||
				   (req->kind != JOB_CREATE && o->instance_id == req->instance_id);
		if (o->kind == req->kind && same_target) {
			pthread_mutex_unlock(&j->mu);
			return JOBS_EBUSY;
		}
	}
	if (j->n == JOBS_MAX) {
		pthread_mutex_unlock(&j->mu);
		return JOBS_EFULL;
	}
	struct slot *s = &j->slots[j->n++];
	s->req = *req;
	s->running = false;
	s->id = j->next_id++;
	if (job_id)
		*job_id = s->id;
	void (*wake)(void *) = j->wake;
	void *arg = j->wake_arg;
	pthread_mutex_unlock(&j->mu);
	publish(j);
	if (wake)
		wake(arg);
	return JOBS_OK;
}

bool jobs_take(struct jobs *j, struct job_req *out, int *job_id)
{
	bool got = false;
	pthread_mutex_lock(&j->mu);
	for (size_t i = 0; i < j->n; i++) {
		if (!j->slots[i].running) {
			j->slots[i].running = true;
			*out = j->slots[i].req;
			if (job_id)
				*job_id = j->slots[i].id;
			got = true;
			break;
		}
	}
	pthread_mutex_unlock(&j->mu);
	return got;
}

void jobs_finish(struct jobs *j, int job_id)
{
	bool found = false;
	pthread_mutex_lock(&j->mu);
	for (size_t i = 0; i < j->n; i++) {
		if (j->slots[i].id == job_id) {
			explicit_bzero(&j->slots[i], sizeof j->slots[i]);
			memmove(&j->slots[i], &j->slots[i + 1], (j->n - i - 1) * sizeof *j->slots);
			j->n--;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&j->mu);
	if (found)
		publish(j);
}

size_t jobs_queued(struct jobs *j)
{
	size_t q = 0;
	pthread_mutex_lock(&j->mu);
	for (size_t i = 0; i < j->n; i++)
		q += !j->slots[i].running;
	pthread_mutex_unlock(&j->mu);
	return q;
}
