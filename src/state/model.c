/* model.c: the shared, mutex-guarded state.  Owns the current snapshot, the
 * refcounted data parts it is built from, the event ring and the wake fd.
 * The mutex guards pointer swaps and small copies only; nothing in here ever
 * waits on the network or on the UI. */
#include "state/model.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "base/util.h"

enum part_kind { PART_INST, PART_USER, PART_WG, PART_EP };

struct part {
	atomic_int refs;
	enum part_kind kind;
	void *v;  /* PART_INST: n pointers to the records of irows, one reference each */
	size_t n;
};

struct snap {
	struct snapshot pub; /* first: a snapshot pointer is a snap pointer */
	atomic_int refs;
	struct part *parts[4];
};

struct model {
	pthread_mutex_t mu;
	struct snap *cur;
	uint64_t generation;
	int wake_fd;
	struct event *ring;
	uint64_t next_seq;
	long *announced; /* id * IS__COUNT + state of the failures already announced, sorted */
	size_t nannounced;
	struct idstate *states; /* the last known state of each instance, by id */
	size_t nstates;
	struct call_result results[MODEL_MAX_RESULTS]; /* untaken, oldest first */
	size_t nresults;
};

/* The irow whose record x is (x is a snapshot's row: always an irow's). */
static struct irow *irow_of(const struct instance *x)
{
	return (struct irow *)(void *)((char *)(uintptr_t)x - offsetof(struct irow, x));
}

static void part_unref(struct part *p)
{
	if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	switch (p->kind) {
	case PART_INST: {
		const struct instance **v = p->v;
		for (size_t i = 0; i < p->n; i++)
			instance_row_unref(irow_of(v[i]));
		free(p->v);
		break;
	}
	case PART_USER: model_user_free(p->v); break;
	case PART_WG: model_workergroups_free(p->v, p->n); break;
	case PART_EP: model_endpoints_free(p->v, p->n); break;
	}
	free(p);
}

static struct part *part_new(enum part_kind k, void *v, size_t n)
{
	struct part *p = xcalloc(1, sizeof *p);
	atomic_init(&p->refs, 1);
	p->kind = k;
	p->v = v;
	p->n = n;
	return p;
}

/* A copy of the current snapshot with fresh references; caller holds mu. */
static struct snap *snap_clone(const struct snap *old)
{
	struct snap *s = xcalloc(1, sizeof *s);
	atomic_init(&s->refs, 1);
	if (old) {
		s->pub = old->pub;
		for (int i = 0; i < 4; i++) {
			s->parts[i] = old->parts[i];
			if (s->parts[i])
				atomic_fetch_add(&s->parts[i]->refs, 1);
		}
	}
	return s;
}

static void snap_unref(struct snap *s)
{
	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	for (int i = 0; i < 4; i++)
		part_unref(s->parts[i]);
	free(s);
}

/* Replace part slot k of s and point the public arrays at the parts. */
static void snap_set_part(struct snap *s, enum part_kind k, struct part *p)
{
	part_unref(s->parts[k]);
	s->parts[k] = p;
	switch (k) {
	case PART_INST:
		s->pub.instances = p ? p->v : NULL;
		s->pub.ninstances = p ? p->n : 0;
		break;
	case PART_USER:
		s->pub.user = p ? p->v : NULL;
		break;
	case PART_WG:
		s->pub.workergroups = p ? p->v : NULL;
		s->pub.nworkergroups = p ? p->n : 0;
		break;
	case PART_EP:
		s->pub.endpoints = p ? p->v : NULL;
		s->pub.nendpoints = p ? p->n : 0;
		break;
	}
}

/* Install s as current (caller holds mu), bump generation; the caller then
 * unlocks and calls model_wake(). */
static void publish_locked(struct model *m, struct snap *s)
{
	s->pub.generation = ++m->generation;
	bool off = false;
	for (int i = 0; i < SRC__COUNT; i++)
		if (s->pub.fresh[i].last_err_at > 0 && s->pub.fresh[i].err_status == 0 &&
		    s->pub.fresh[i].last_err_at >= s->pub.fresh[i].last_ok)
			off = true;
	s->pub.offline = off;
	struct snap *old = m->cur;
	m->cur = s;
	snap_unref(old);
	/* the caller wakes the reader after its unlock: no I/O under the mutex */
}

struct model *model_new(void)
{
	struct model *m = xcalloc(1, sizeof *m);
	pthread_mutex_init(&m->mu, NULL);
	m->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (m->wake_fd < 0) {
		perror("rentop: eventfd");
		abort();
	}
	m->ring = xcalloc(MODEL_EVENT_RING, sizeof *m->ring);
	m->next_seq = 1;
	m->cur = snap_clone(NULL);
	m->cur->pub.progress = (struct inst_progress){ -1, true, 0 };
	return m;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	snap_unref(m->cur);
	close(m->wake_fd);
	free(m->ring);
	free(m->announced);
	free(m->states);
	for (size_t i = 0; i < m->nresults; i++)
		model_call_result_free(&m->results[i]);
	pthread_mutex_destroy(&m->mu);
	free(m);
}

int model_wake_fd(const struct model *m) { return m->wake_fd; }

void model_wake(struct model *m)
{
	uint64_t one = 1;
	ssize_t r = write(m->wake_fd, &one, sizeof one); /* async-signal-safe */
	(void)r;
}

void model_wake_drain(struct model *m)
{
	uint64_t v;
	while (read(m->wake_fd, &v, sizeof v) > 0)
		;
}

const struct snapshot *model_acquire(struct model *m)
{
	pthread_mutex_lock(&m->mu);
	struct snap *s = m->cur;
	atomic_fetch_add(&s->refs, 1);
	pthread_mutex_unlock(&m->mu);
	return &s->pub;
}

void model_release(const struct snapshot *s)
{
	if (s)
		snap_unref((struct snap *)(void *)s);
}

uint64_t model_generation(struct model *m)
{
	pthread_mutex_lock(&m->mu);
	uint64_t g = m->generation;
	pthread_mutex_unlock(&m->mu);
	return g;
}

static int cmp_inst_id(const void *a, const void *b)
{
	long x = ((const struct instance *)a)->id, y = ((const struct instance *)b)->id;
	return (x > y) - (x < y);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static void mark_ok(struct freshness *f, double now)
{
	f->last_ok = now;
	f->last_attempt = now;
	f->last_err_at = 0;
	f->err_status = 0;
	f->failures = 0;
	f->in_flight = false;
	f->err[0] = '\0';
}

/* Announce instances that newly entered a failure state, or another one
 * (a crashed instance whose host then drops out is news: the key is the id
 * and the state).  Caller holds mu; events are appended after unlocking. */
static size_t newly_failed_locked(struct model *m, const struct instance *const *v, size_t n,
				  long **out)
{
	long *now_failed = xcalloc(n ? n : 1, sizeof *now_failed);
	size_t nf = 0, nnew = 0;
	long *fresh = xcalloc(n ? n : 1, sizeof *fresh);
	for (size_t i = 0; i < n; i++) {
		if (!instance_state_failed(v[i]->state))
			continue;
		long key = v[i]->id * (long)IS__COUNT + (long)v[i]->state;
		now_failed[nf++] = key;
		if (!m->announced || !bsearch(&key, m->announced, m->nannounced,
					      sizeof(long), cmp_long))
			fresh[nnew++] = v[i]->id;
	}
	qsort(now_failed, nf, sizeof(long), cmp_long);
	free(m->announced);
	m->announced = now_failed;
	m->nannounced = nf;
	*out = fresh;
	return nnew;
}

struct idstate {
	long id;
	enum inst_state state;
};

static int cmp_idstate(const void *a, const void *b)
{
	long x = ((const struct idstate *)a)->id, y = ((const struct idstate *)b)->id;
	return (x > y) - (x < y);
}

/* The state changes of the rows v against the states last seen (rows
 * seen for the first time are no change); the table of last states is
 * updated (a partial list keeps what it did not carry).  Caller holds mu;
 * *out (malloc'd, n entries at most) gets the changes, "from" in state. */
static size_t state_changes_locked(struct model *m, const struct instance *const *v, size_t n,
				   bool partial, struct idstate **out)
{
	struct idstate *cur = xcalloc(n + m->nstates + 1, sizeof *cur);
	struct idstate *ch = xcalloc(n ? n : 1, sizeof *ch);
	size_t nc = 0, nch = 0;
	for (size_t i = 0; i < n; i++) {
		struct idstate key = { v[i]->id, v[i]->state };
		const struct idstate *old =
			m->states ? bsearch(&key, m->states, m->nstates, sizeof key, cmp_idstate) : NULL;
		if (old && old->state != key.state)
			ch[nch++] = (struct idstate){ key.id, old->state };
		cur[nc++] = key;
	}
	qsort(cur, nc, sizeof *cur, cmp_idstate);
	if (partial) { /* rows not in this part keep their last state */
		size_t base = nc;
		for (size_t i = 0; i < m->nstates; i++)
			if (!bsearch(&m->states[i], cur, base, sizeof *cur, cmp_idstate))
				cur[nc++] = m->states[i];
		qsort(cur, nc, sizeof *cur, cmp_idstate);
	}
	free(m->states);
	m->states = cur;
	m->nstates = nc;
	*out = ch;
	return nch;
}

/* Write the state changes into the event log (quietly: the table shows
 * them; a new failure is also announced aloud). */
static void announce_changes(struct model *m, const struct snap *s, const struct idstate *ch,
			     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct instance *x = model_snapshot_find(&s->pub, ch[i].id);
		if (!x)
			continue;
		bool outbid = x->state == IS_OUTBID;
		enum ev_level l = instance_state_failed(x->state) || outbid ? EV_WARN
				  : x->state == IS_RUNNING  ? EV_OK
							    : EV_INFO;
		model_event(m, l, -1, 0, x->id, EVF_QUIET | EVF_STATE | (outbid ? EVF_OUTBID : 0),
			    "instance %ld (%s): %s -> %s",
			    x->id, x->label[0] ? x->label : x->gpu_name, instance_state_name(ch[i].state),
			    instance_state_name(x->state));
	}
}

/* Announce the instances of s that newly entered a failure state. */
static void announce(struct model *m, const struct snap *s, const long *fresh, size_t nfresh)
{
	for (size_t i = 0; i < nfresh; i++) {
		const struct instance *x = model_snapshot_find(&s->pub, fresh[i]);
		if (!x)
			continue;
		bool gone = x->state == IS_OFFLINE || x->state == IS_UNKNOWN; /* the host, not the job */
		model_event(m, EV_ERROR, -1, 0, x->id, EVF_FAILED_INSTANCE | (gone ? EVF_OFFLINE : 0),
			    "instance %ld (%s) is %s%s%s: destroy it and rent another offer", x->id,
			    x->label[0] ? x->label : x->gpu_name, instance_state_name(x->state),
			    x->status_msg[0] ? ": " : "", x->status_msg);
	}
}

void model_publish_rows(struct model *m, struct irow *const *rows, size_t n,
			const struct inst_progress *pr, double now)
{
	/* the rows are shared, never copied: the part is n pointers to their
	 * records, each holding a reference (8 bytes a row per publish) */
	const struct instance **v = n ? xmalloc(n * sizeof *v) : NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = &instance_row_ref(rows[i])->x;
	struct part *p = part_new(PART_INST, v, n);
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	snap_set_part(s, PART_INST, p);
	mark_ok(&s->pub.fresh[SRC_INSTANCES], now);
	if (pr)
		s->pub.progress = *pr;
	else
		s->pub.progress = (struct inst_progress){ (long)n, false, now };
	s->pub.auth_failed = false;
	long *fresh;
	size_t nfresh = newly_failed_locked(m, v, n, &fresh);
	struct idstate *changes;
	size_t nchanges = state_changes_locked(m, v, n, s->pub.progress.partial, &changes);
	atomic_fetch_add(&s->refs, 1); /* keep it alive to read below */
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m); /* no I/O under the lock */
	announce_changes(m, s, changes, nchanges);
	announce(m, s, fresh, nfresh);
	free(changes);
	free(fresh);
	snap_unref(s);
}

void model_set_instances(struct model *m, struct instance *v, size_t n, double now)
{
	if (v && n > 1)
		qsort(v, n, sizeof *v, cmp_inst_id);
	struct irow **rows = n ? xmalloc(n * sizeof *rows) : NULL;
	for (size_t i = 0; i < n; i++)
		rows[i] = instance_row_new(&v[i]);
	free(v);
	model_publish_rows(m, rows, n, NULL, now);
	for (size_t i = 0; i < n; i++)
		instance_row_unref(rows[i]);
	free(rows);
}

void model_instances_ok(struct model *m, const struct inst_progress *pr, double now)
{
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	mark_ok(&s->pub.fresh[SRC_INSTANCES], now);
	s->pub.progress = *pr;
	s->pub.auth_failed = false;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_user(struct model *m, struct user *u, double now)
{
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	snap_set_part(s, PART_USER, part_new(PART_USER, u, 1));
	mark_ok(&s->pub.fresh[SRC_USER], now);
	s->pub.auth_failed = false;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_workergroups(struct model *m, struct workergroup *v, size_t n, double now)
{
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	snap_set_part(s, PART_WG, part_new(PART_WG, v, n));
	mark_ok(&s->pub.fresh[SRC_WORKERGROUPS], now);
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_endpoints(struct model *m, struct endpoint *v, size_t n, double now)
{
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	snap_set_part(s, PART_EP, part_new(PART_EP, v, n));
	mark_ok(&s->pub.fresh[SRC_ENDPOINTS], now);
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_error(struct model *m, enum model_source src, int http_status, bool transport,
		     bool auth, const char *msg, double now)
{
	if ((unsigned)src >= SRC__COUNT)
		return;
	char *clean = util_sanitize(msg ? msg : "");
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	struct freshness *f = &s->pub.fresh[src];
	f->last_attempt = now;
	f->last_err_at = now;
	f->err_status = transport ? 0 : (http_status ? http_status : -1);
	f->failures++;
	f->in_flight = false;
	util_strlcpy(f->err, clean, sizeof f->err);
	if (auth)
		s->pub.auth_failed = true;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
	free(clean);
}

void model_set_in_flight(struct model *m, enum model_source src, bool on, double now)
{
	if ((unsigned)src >= SRC__COUNT)
		return;
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	s->pub.fresh[src].in_flight = on;
	if (on)
		s->pub.fresh[src].last_attempt = now;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_retry_at(struct model *m, enum model_source src, double at)
{
	if ((unsigned)src >= SRC__COUNT)
		return;
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	s->pub.fresh[src].retry_at = at;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_pending(struct model *m, const struct pending *p, size_t n)
{
	if (n > MODEL_MAX_PENDING)
		n = MODEL_MAX_PENDING;
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	if (n)
		memcpy(s->pub.pending, p, n * sizeof *p);
	s->pub.npending = n;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_unsure(struct model *m, int job_id, int kind, long instance_id, bool on)
{
	pthread_mutex_lock(&m->mu);
	struct snap *s = snap_clone(m->cur);
	struct snapshot *p = &s->pub;
	size_t i = 0;
	/* one mark per job and instance (a bulk request marks each of its own) */
	while (i < p->nunsure &&
	       !(p->unsure[i].job_id == job_id && p->unsure[i].instance_id == instance_id))
		i++;
	if (on && i == p->nunsure) {
		if (p->nunsure == MODEL_MAX_UNSURE) { /* the oldest goes */
			memmove(p->unsure, p->unsure + 1, (MODEL_MAX_UNSURE - 1) * sizeof *p->unsure);
			p->nunsure--;
		}
		p->unsure[p->nunsure++] = (struct unsure){job_id, kind, instance_id, util_now()};
	} else if (!on && i < p->nunsure) {
		memmove(p->unsure + i, p->unsure + i + 1, (p->nunsure - i - 1) * sizeof *p->unsure);
		p->nunsure--;
	}
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_set_actions_waiting(struct model *m, int n)
{
	pthread_mutex_lock(&m->mu);
	if (m->cur && m->cur->pub.actions_waiting == n) {
		pthread_mutex_unlock(&m->mu);
		return;
	}
	struct snap *s = snap_clone(m->cur);
	s->pub.actions_waiting = n;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m);
}

void model_call_result_free(struct call_result *r)
{
	if (r->value) {
		if (r->free_value)
			r->free_value(r->value);
		else
			free(r->value);
	}
	r->value = NULL;
}

/* Remove results[i] (mu held); its value is freed when free_it. */
static void result_remove(struct model *m, size_t i, bool free_it)
{
	if (free_it)
		model_call_result_free(&m->results[i]);
	memmove(m->results + i, m->results + i + 1, (m->nresults - i - 1) * sizeof *m->results);
	m->nresults--;
}

void model_put_result(struct model *m, const struct call_result *r)
{
	struct call_result old[2];
	size_t nold = 0;
	pthread_mutex_lock(&m->mu);
	for (size_t i = 0; i < m->nresults; i++)
		if (m->results[i].req_id == r->req_id) {
			old[nold++] = m->results[i];
			result_remove(m, i, false);
			break;
		}
	if (m->nresults == MODEL_MAX_RESULTS) {
		old[nold++] = m->results[0];
		result_remove(m, 0, false);
	}
	m->results[m->nresults++] = *r;
	struct snap *s = snap_clone(m->cur);
	s->pub.results_seq++;
	publish_locked(m, s);
	pthread_mutex_unlock(&m->mu);
	model_wake(m); /* the view waiting for this answer draws it now, not at its next tick */
	for (size_t i = 0; i < nold; i++) /* values freed with no lock held */
		model_call_result_free(&old[i]);
}

bool model_take_result(struct model *m, int req_id, struct call_result *out)
{
	bool got = false;
	pthread_mutex_lock(&m->mu);
	for (size_t i = 0; i < m->nresults; i++)
		if (m->results[i].req_id == req_id) {
			*out = m->results[i];
			result_remove(m, i, false);
			got = true;
			break;
		}
	pthread_mutex_unlock(&m->mu);
	return got;
}

void model_drop_result(struct model *m, int req_id)
{
	struct call_result r;
	if (model_take_result(m, req_id, &r))
		model_call_result_free(&r);
}

uint64_t model_event(struct model *m, enum ev_level lvl, int job_kind, int job_id,
		     long instance_id, unsigned flags, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *raw = xvasprintf(fmt, ap);
	va_end(ap);
	char *clean = util_sanitize(raw);
	free(raw);
	double now = util_now();
	pthread_mutex_lock(&m->mu);
	uint64_t seq = m->next_seq++;
	struct event *e = &m->ring[seq % MODEL_EVENT_RING];
	memset(e, 0, sizeof *e);
	e->seq = seq;
	e->when = now;
	e->level = lvl;
	e->job_kind = job_kind;
	e->job_id = job_id;
	e->instance_id = instance_id;
	e->flags = flags;
	util_strlcpy(e->text, clean, sizeof e->text);
	pthread_mutex_unlock(&m->mu);
	free(clean);
	model_wake(m);
	return seq;
}

size_t model_events(struct model *m, uint64_t after, struct event *out, size_t max)
{
	size_t n = 0;
	pthread_mutex_lock(&m->mu);
	uint64_t last = m->next_seq - 1;
	uint64_t first = after + 1;
	if (last >= MODEL_EVENT_RING && first < last - MODEL_EVENT_RING + 1)
		first = last - MODEL_EVENT_RING + 1;
	for (uint64_t q = first; q <= last && n < max; q++)
		out[n++] = m->ring[q % MODEL_EVENT_RING];
	pthread_mutex_unlock(&m->mu);
	return n;
}

void model_count_states(const struct instance *const *v, size_t n, struct state_counts *c)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < n; i++)
		switch (instance_state_group(v[i]->state)) {
		case IG_RUNNING: c->running++; break;
		case IG_BOOTING: c->booting++; break;
		case IG_STOPPED: c->stopped++; break;
		case IG_FAILED: c->failed++; break;
		case IG_OUTBID: c->outbid++; break;
		case IG_OTHER: case IG__COUNT: c->other++; break;
		}
}

const struct instance *model_snapshot_find(const struct snapshot *s, long id)
{
	size_t lo = 0, hi = s->ninstances; /* the rows are sorted by id */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		long x = s->instances[mid]->id;
		if (x == id)
			return s->instances[mid];
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool model_snapshot_pending(const struct snapshot *s, long instance_id, int kind)
{
	for (size_t i = 0; i < s->npending; i++)
		if (s->pending[i].instance_id == instance_id && (kind < 0 || s->pending[i].kind == kind))
			return true;
	return false;
}

const struct unsure *model_snapshot_unsure(const struct snapshot *s, long instance_id)
{
	for (size_t i = 0; i < s->nunsure; i++)
		if (s->unsure[i].instance_id == instance_id)
			return &s->unsure[i];
	return NULL;
}

void model_user_free(struct user *u)
{
	if (!u)
		return;
	free(u->email);
	free(u->username);
	free(u->fullname);
	free(u->tfa_status);
	free(u->ssh_key);
	instance_kv_free(u->fields, u->nfields);
	free(u);
}

void model_workergroup_clear(struct workergroup *g)
{
	free(g->endpoint_name);
	free(g->template_hash);
	free(g->search_query);
	free(g->launch_args);
	free(g->created_at);
	memset(g, 0, sizeof *g);
}

void model_workergroups_free(struct workergroup *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		model_workergroup_clear(&v[i]);
	free(v);
}

void model_endpoint_clear(struct endpoint *e)
{
	free(e->endpoint_name);
	free(e->endpoint_state);
	free(e->created_at);
	memset(e, 0, sizeof *e);
}

void model_endpoints_free(struct endpoint *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		model_endpoint_clear(&v[i]);
	free(v);
}
