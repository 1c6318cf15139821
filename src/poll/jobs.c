/* jobs.c: the queue of user actions between the UI thread (submit) and the
 * poller thread (take, finish).  Owns validation (every range SPEC.md
 * states is checked before anything is sent), the read-only refusal, the
 * "same action on the same instance only once at a time" rule, and the
 * pending set mirrored into the model on every change.  One mutex guards
 * the queue and orders the model's pending updates; the waker is called
 * with it released. */
#include "poll/jobs.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "state/model.h"
#include "base/util.h"

#define JOBS_MAX 64 /* queued + running; fits MODEL_MAX_PENDING */
#define CALLS_MAX 64 /* one-shot calls queued (not yet taken) */
#define SUBS_MAX 32  /* live subscriptions */

struct sub {
	int id;
	struct job_call c;
	double interval_s;
	double next_due;     /* s, monotonic; 0 = at once */
	bool while_visible, visible, in_flight;
};

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
	struct job_call calls[CALLS_MAX]; /* one-shot calls, in submit order */
	int call_ids[CALLS_MAX];
	size_t ncalls;
	struct sub subs[SUBS_MAX];
	size_t nsubs;
};

static const char *const kind_names[JOB__COUNT] = {
	[JOB_START] = "start",   [JOB_STOP] = "stop",       [JOB_REBOOT] = "reboot",
	[JOB_LABEL] = "label",   [JOB_DESTROY] = "destroy", [JOB_BID] = "change bid",
	[JOB_PREPAY] = "prepay", [JOB_CREATE] = "create",   [JOB_TFA_LOGIN] = "2FA login",
};

const char *jobs_kind_name(enum job_kind k)
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
	for (size_t i = 0; i < j->ncalls; i++)
		api_call_free(&j->calls[i].call);
	for (size_t i = 0; i < j->nsubs; i++)
		api_call_free(&j->subs[i].c.call);
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

double jobs_bid_max(int num_gpus)
{
	return BID_MAX_PER_GPU * (num_gpus > 1 ? num_gpus : 1);
}

static bool bid_ok(double p, int num_gpus)
{
	return isfinite(p) && p >= BID_MIN && p <= jobs_bid_max(num_gpus);
}

/* Everything SPEC.md lets us check before sending. */
static bool validate(const struct job_req *r)
{
	if ((unsigned)r->kind >= JOB__COUNT)
		return false;
	if (r->kind != JOB_CREATE && r->kind != JOB_TFA_LOGIN && r->instance_id <= 0)
		return false;
	switch (r->kind) { /* every kind below returns (JOB__COUNT refused above) */
	case JOB_BID:
		return bid_ok(r->amount, r->num_gpus);
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
		if (strcmp(r->tfa_method, "sms") == 0 || strcmp(r->tfa_method, "email") == 0) {
			/* the code and the secret of the challenge that sent it */
			size_t sl = strnlen(r->tfa_secret, sizeof r->tfa_secret);
			return all_digits(r->text, 6) && sl > 0 && sl < sizeof r->tfa_secret;
		}
		return false;
	case JOB_CREATE: {
		char why[200]; /* api_offers.c owns the create request's rules */
		return api_create_req_valid(&r->create, why, sizeof why);
	}
	case JOB_START:
	case JOB_STOP:
	case JOB_REBOOT:
	case JOB_DESTROY:
		return true;
	case JOB__COUNT: /* refused above */
		break;
	}
	return false;
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
	for (size_t i = 0; i < j->n && n < JOBS_MAX; i++) { /* j->n <= JOBS_MAX: a guard */
		p[n].job_id = j->slots[i].id;
		p[n].kind = (int)j->slots[i].req.kind;
		p[n].instance_id = j->slots[i].req.instance_id;
		n++;
	}
	if (j->m)
		model_set_pending(j->m, p, n);
	pthread_mutex_unlock(&j->mu);
}

/* Queue req under id (0: a new one); *job_id gets it. */
static int enqueue(struct jobs *j, const struct job_req *req, int id, int *job_id)
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
	s->id = id > 0 ? id : j->next_id++;
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

int jobs_submit(struct jobs *j, const struct job_req *req, int *job_id)
{
	return enqueue(j, req, 0, job_id);
}

int jobs_resubmit(struct jobs *j, const struct job_req *req, int job_id)
{
	if (job_id <= 0)
		return JOBS_EINVAL;
	return enqueue(j, req, job_id, NULL);
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

/* ---- on-demand calls and subscriptions -------------------------------- */

/* Wake the poller (called with the mutex released). */
static void wake_poller(struct jobs *j)
{
	pthread_mutex_lock(&j->mu);
	void (*wake)(void *) = j->wake;
	void *arg = j->wake_arg;
	pthread_mutex_unlock(&j->mu);
	if (wake)
		wake(arg);
}

int jobs_call(struct jobs *j, struct job_call *c, int *req_id)
{
	if (!c->call.url) {
		api_call_free(&c->call);
		return JOBS_EINVAL;
	}
	if (c->action && j->read_only) {
		api_call_free(&c->call);
		return JOBS_EREADONLY;
	}
	pthread_mutex_lock(&j->mu);
	if (j->ncalls == CALLS_MAX) {
		pthread_mutex_unlock(&j->mu);
		api_call_free(&c->call);
		return JOBS_EFULL;
	}
	int id = j->next_id++;
	j->calls[j->ncalls] = *c;
	j->call_ids[j->ncalls++] = id;
	pthread_mutex_unlock(&j->mu);
	c->call.url = c->call.body = NULL; /* taken over */
	if (req_id)
		*req_id = id;
	wake_poller(j);
	return JOBS_OK;
}

int jobs_subscribe(struct jobs *j, struct job_call *c, double interval_s, bool while_visible,
		   int *sub_id)
{
	if (!c->call.url || c->action || !(interval_s >= 1.0)) {
		api_call_free(&c->call);
		return JOBS_EINVAL;
	}
	pthread_mutex_lock(&j->mu);
	if (j->nsubs == SUBS_MAX) {
		pthread_mutex_unlock(&j->mu);
		api_call_free(&c->call);
		return JOBS_EFULL;
	}
	struct sub *s = &j->subs[j->nsubs++];
	memset(s, 0, sizeof *s);
	s->id = j->next_id++;
	s->c = *c;
	s->interval_s = interval_s;
	s->next_due = 0;
	s->while_visible = while_visible;
	s->visible = true;
	int id = s->id;
	pthread_mutex_unlock(&j->mu);
	c->call.url = c->call.body = NULL;
	if (sub_id)
		*sub_id = id;
	wake_poller(j);
	return JOBS_OK;
}

/* The subscription with this id (mutex held), or NULL. */
static struct sub *find_sub(struct jobs *j, int id)
{
	for (size_t i = 0; i < j->nsubs; i++)
		if (j->subs[i].id == id)
			return &j->subs[i];
	return NULL;
}

void jobs_set_visible(struct jobs *j, int sub_id, bool visible)
{
	bool wake = false;
	pthread_mutex_lock(&j->mu);
	struct sub *s = find_sub(j, sub_id);
	if (s) {
		wake = visible && !s->visible;
		s->visible = visible;
		if (wake && !s->in_flight)
			s->next_due = 0;
	}
	pthread_mutex_unlock(&j->mu);
	if (wake)
		wake_poller(j);
}

void jobs_set_interval(struct jobs *j, int sub_id, double interval_s)
{
	if (!(interval_s >= 1.0))
		return;
	bool sooner = false;
	pthread_mutex_lock(&j->mu);
	struct sub *s = find_sub(j, sub_id);
	if (s) {
		/* next_due is "the last end + the interval" (0: never sent yet) */
		if (!s->in_flight && s->next_due > 0) {
			s->next_due += interval_s - s->interval_s;
			sooner = interval_s < s->interval_s;
		}
		s->interval_s = interval_s;
	}
	pthread_mutex_unlock(&j->mu);
	if (sooner)
		wake_poller(j);
}

void jobs_unsubscribe(struct jobs *j, int sub_id)
{
	pthread_mutex_lock(&j->mu);
	struct sub *s = find_sub(j, sub_id);
	if (s) {
		api_call_free(&s->c.call);
		size_t i = (size_t)(s - j->subs);
		memmove(s, s + 1, (j->nsubs - i - 1) * sizeof *s);
		j->nsubs--;
	}
	pthread_mutex_unlock(&j->mu);
}

bool jobs_subscribed(struct jobs *j, int sub_id)
{
	pthread_mutex_lock(&j->mu);
	bool alive = find_sub(j, sub_id) != NULL;
	pthread_mutex_unlock(&j->mu);
	return alive;
}

/* A deep copy of a call (url and body duplicated). */
static struct api_call call_dup(const struct api_call *c)
{
	struct api_call d = *c;
	d.url = c->url ? xstrdup(c->url) : NULL; /* (never NULL: refused by jobs_subscribe) */
	d.body = c->body ? xstrdup(c->body) : NULL;
	return d;
}

bool jobs_take_call(struct jobs *j, double now, struct job_call *out, int *req_id, int *sub_id)
{
	bool got = false;
	pthread_mutex_lock(&j->mu);
	if (j->ncalls) {
		*out = j->calls[0];
		*req_id = j->call_ids[0];
		*sub_id = 0;
		memmove(j->calls, j->calls + 1, (j->ncalls - 1) * sizeof *j->calls);
		memmove(j->call_ids, j->call_ids + 1, (j->ncalls - 1) * sizeof *j->call_ids);
		j->ncalls--;
		got = true;
	} else {
		for (size_t i = 0; i < j->nsubs && !got; i++) {
			struct sub *s = &j->subs[i];
			if (s->in_flight || (s->while_visible && !s->visible) || s->next_due > now)
				continue;
			s->in_flight = true;
			*out = s->c;
			out->call = call_dup(&s->c.call);
			*req_id = s->id;
			*sub_id = s->id;
			got = true;
		}
	}
	pthread_mutex_unlock(&j->mu);
	return got;
}

void jobs_call_done(struct jobs *j, int sub_id, double now)
{
	pthread_mutex_lock(&j->mu);
	struct sub *s = find_sub(j, sub_id);
	if (s) {
		s->in_flight = false;
		s->next_due = now + s->interval_s;
	}
	pthread_mutex_unlock(&j->mu);
}

double jobs_next_call_due(struct jobs *j)
{
	double next = INFINITY;
	pthread_mutex_lock(&j->mu);
	if (j->ncalls)
		next = 0;
	for (size_t i = 0; i < j->nsubs; i++) {
		const struct sub *s = &j->subs[i];
		if (s->in_flight || (s->while_visible && !s->visible))
			continue;
		if (s->next_due < next)
			next = s->next_due;
	}
	pthread_mutex_unlock(&j->mu);
	return next;
}
