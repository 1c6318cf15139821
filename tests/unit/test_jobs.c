/* test_jobs.c: the action queue: validation before anything is sent (bid
 * 0.001-32, prepay > 0, label 1-1024, 2FA code forms, create), read-only
 * refusing everything, the same action on the same instance refused while
 * queued or running, the pending set in the model, the waker, a full
 * queue, and the pending set staying in step with the queue while the UI
 * thread submits and the poller thread finishes at the same time; the
 * on-demand calls and subscriptions (read-only, the interval floor, one
 * request in flight, visibility). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poll/jobs.h"
#include "state/model.h"

static int woken;
static void waker(void *arg)
{
	(void)arg;
	woken++;
}

static struct job_req req(enum job_kind k, long id, double amount)
{
	struct job_req r;
	memset(&r, 0, sizeof r);
	r.kind = k;
	r.instance_id = id;
	r.amount = amount;
	return r;
}

static void validation(void **state)
{
	(void)state;
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	struct job_req r;
	/* bid range */
	static const double bad_bids[] = {0, 0.0009, 32.0001, -1, NAN, INFINITY};
	for (size_t i = 0; i < sizeof bad_bids / sizeof *bad_bids; i++) {
		r = req(JOB_BID, 5, bad_bids[i]);
		assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	}
	r = req(JOB_BID, 5, 0.001);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	r = req(JOB_BID, 6, 32.0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	/* the docs' top is 32 per GPU (change_bid.yaml): 128 on 4 GPUs, not on 1 */
	r = req(JOB_BID, 7, 128.0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	r.num_gpus = 4;
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	r = req(JOB_BID, 8, 128.01);
	r.num_gpus = 4;
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	/* prepay > 0 */
	r = req(JOB_PREPAY, 5, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	r = req(JOB_PREPAY, 5, -3);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	r = req(JOB_PREPAY, 5, 10);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	/* an instance id is needed */
	r = req(JOB_STOP, 0, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	/* label 1..1024 */
	r = req(JOB_LABEL, 5, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	memset(r.text, 'a', LABEL_MAX);
	r.text[LABEL_MAX] = '\0';
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	/* 2FA codes */
	r = req(JOB_TFA_LOGIN, 0, 0);
	strcpy(r.tfa_method, "totp");
	strcpy(r.text, "12345");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	strcpy(r.text, "12345a");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	strcpy(r.tfa_method, "backup");
	strcpy(r.text, "ABCD-EFGH-123");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	strcpy(r.tfa_method, "sms");
	strcpy(r.text, "123456");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL); /* no challenge secret */
	strcpy(r.tfa_method, "email");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	strcpy(r.tfa_secret, "chal-secret");
	strcpy(r.text, "12345");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL); /* 5 digits */
	strcpy(r.tfa_method, "voice");
	strcpy(r.text, "123456");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	for (int k = 0; k < 2; k++) { /* an SMS or email code with its secret */
		struct jobs *j1 = jobs_new(NULL, false);
		strcpy(r.tfa_method, k ? "email" : "sms");
		assert_int_equal(jobs_submit(j1, &r, NULL), JOBS_OK);
		jobs_free(j1);
	}
	/* a secret that fills its buffer with no terminator is refused */
	memset(r.tfa_secret, 'x', sizeof r.tfa_secret);
	strcpy(r.tfa_method, "sms");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	r.tfa_secret[0] = '\0';
	strcpy(r.tfa_method, "backup");
	strcpy(r.text, "ABCD-EFGH-1234");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	/* create */
	r = req(JOB_CREATE, 0, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL); /* no offer */
	r.create.offer_id = 77;
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL); /* no image or template */
	strcpy(r.create.image, "pytorch/pytorch");
	r.create.price = 128.5;
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL); /* bid out of range (docs: 128) */
	r.create.price = 0;
	r.create.disk = -1;
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	r.create.disk = 16;
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK); /* creates may repeat */
	/* unknown kind */
	r = req((enum job_kind)JOB__COUNT, 5, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	jobs_free(j);
	model_free(m);
}

static void read_only_refuses_everything(void **state)
{
	(void)state;
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, true);
	for (int k = 0; k < JOB__COUNT; k++) {
		struct job_req r = req((enum job_kind)k, 5, 1.0);
		strcpy(r.text, "123456");
		strcpy(r.tfa_method, "totp");
		r.create.offer_id = 1;
		strcpy(r.create.image, "x");
		assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EREADONLY);
	}
	assert_int_equal(jobs_queued(j), 0);
	const struct snapshot *s = model_acquire(m);
	assert_int_equal(s->npending, 0);
	model_release(s);
	jobs_free(j);
	model_free(m);
}

static void dedupe_and_pending(void **state)
{
	(void)state;
	struct model *m = model_new();
	struct jobs *j = jobs_new(m, false);
	woken = 0;
	jobs_set_waker(j, waker, NULL);
	struct job_req r = req(JOB_STOP, 42, 0);
	int id1 = 0, id2 = 0, id3 = 0;
	assert_int_equal(jobs_submit(j, &r, &id1), JOBS_OK);
	assert_true(id1 > 0);
	assert_int_equal(woken, 1);
	/* the same action on the same instance: busy while queued */
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EBUSY);
	/* another action, or another instance, is fine */
	struct job_req d = req(JOB_DESTROY, 42, 0);
	assert_int_equal(jobs_submit(j, &d, &id2), JOBS_OK);
	struct job_req r2 = req(JOB_STOP, 43, 0);
	assert_int_equal(jobs_submit(j, &r2, &id3), JOBS_OK);
	assert_true(id1 != id2 && id2 != id3);
	assert_int_equal(jobs_queued(j), 3);
	assert_int_equal(woken, 3);

	const struct snapshot *s = model_acquire(m);
	assert_int_equal(s->npending, 3);
	assert_true(model_snapshot_pending(s, 42, JOB_STOP));
	assert_true(model_snapshot_pending(s, 42, JOB_DESTROY));
	assert_true(model_snapshot_pending(s, 43, -1));
	assert_false(model_snapshot_pending(s, 44, -1));
	model_release(s);

	/* taken in submit order; still busy while running */
	struct job_req got;
	int gid;
	assert_true(jobs_take(j, &got, &gid));
	assert_int_equal(gid, id1);
	assert_int_equal(got.kind, JOB_STOP);
	assert_int_equal(got.instance_id, 42);
	assert_int_equal(jobs_queued(j), 2);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EBUSY);
	s = model_acquire(m);
	assert_true(model_snapshot_pending(s, 42, JOB_STOP)); /* running: badge stays */
	model_release(s);
	/* finished: the badge goes and the action may be queued again */
	jobs_finish(j, gid);
	s = model_acquire(m);
	assert_false(model_snapshot_pending(s, 42, JOB_STOP));
	assert_int_equal(s->npending, 2);
	model_release(s);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	/* drain */
	int n = 0;
	while (jobs_take(j, &got, &gid)) {
		jobs_finish(j, gid);
		n++;
	}
	assert_int_equal(n, 3);
	assert_false(jobs_take(j, &got, &gid));
	s = model_acquire(m);
	assert_int_equal(s->npending, 0);
	model_release(s);
	jobs_finish(j, 9999); /* unknown id: harmless */
	jobs_free(j);
	model_free(m);
}

static void one_login_at_a_time_and_full(void **state)
{
	(void)state;
	struct jobs *j = jobs_new(NULL, false);
	struct job_req t = req(JOB_TFA_LOGIN, 0, 0);
	strcpy(t.tfa_method, "totp");
	strcpy(t.text, "123456");
	assert_int_equal(jobs_submit(j, &t, NULL), JOBS_OK);
	strcpy(t.text, "654321");
	assert_int_equal(jobs_submit(j, &t, NULL), JOBS_EBUSY);
	int ok = 1, full = 0;
	for (long id = 1; id < 200; id++) {
		struct job_req r = req(JOB_REBOOT, id, 0);
		int rc = jobs_submit(j, &r, NULL);
		if (rc == JOBS_OK)
			ok++;
		else if (rc == JOBS_EFULL)
			full++;
	}
	assert_true(ok <= MODEL_MAX_PENDING);
	assert_true(full > 0);
	assert_string_equal(jobs_strerror(JOBS_EREADONLY), "read-only mode: actions are disabled");
	assert_string_equal(jobs_kind_name(JOB_DESTROY), "destroy");
	jobs_free(j);
}

/* Negative instance ids and a label that fills its buffer with no
 * terminator are refused before anything is queued. */
static void validation_boundaries(void **state)
{
	(void)state;
	struct jobs *j = jobs_new(NULL, false);
	static const enum job_kind kinds[] = { JOB_START, JOB_STOP, JOB_REBOOT, JOB_LABEL,
					       JOB_DESTROY, JOB_BID, JOB_PREPAY };
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		struct job_req r = req(kinds[i], -1, 1.0);
		strcpy(r.text, "x");
		assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
		r.instance_id = LONG_MIN;
		assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	}
	assert_int_equal(jobs_queued(j), 0);
	/* LABEL_MAX + 1 bytes, no terminator: refused (not read past the buffer) */
	struct job_req r = req(JOB_LABEL, 5, 0);
	memset(r.text, 'a', sizeof r.text);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	/* a one-byte label, and a stop of id 1, are fine */
	r.text[1] = '\0';
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	r = req(JOB_STOP, 1, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_OK);
	assert_int_equal(jobs_queued(j), 2);
	/* a kind below the enum's range */
	r = req((enum job_kind)-1, 5, 0);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	assert_string_equal(jobs_strerror(JOBS_EINVAL), "invalid arguments");
	assert_string_equal(jobs_strerror(JOBS_EBUSY),
			    "the same action on this instance is already under way");
	assert_string_equal(jobs_strerror(JOBS_EFULL), "too many actions queued");
	assert_string_equal(jobs_strerror(JOBS_OK), "queued");
	assert_string_equal(jobs_strerror(-99), "unknown error");
	assert_string_equal(jobs_kind_name((enum job_kind)JOB__COUNT), "?");
	/* backup codes: a dash out of place, a character that is no letter or digit */
	r = req(JOB_TFA_LOGIN, 0, 0);
	strcpy(r.tfa_method, "backup");
	strcpy(r.text, "ABCDE-FGH-1234");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	strcpy(r.text, "ABCD-EF_H-1234");
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	/* prepay of no number */
	r = req(JOB_PREPAY, 5, NAN);
	assert_int_equal(jobs_submit(j, &r, NULL), JOBS_EINVAL);
	/* taken without asking for the id */
	struct job_req got;
	assert_true(jobs_take(j, &got, NULL));
	jobs_free(j);
	jobs_free(NULL);
}

/* A GET of url as an on-demand call (fetch) or an action. */
static struct job_call call_of(const char *url, bool action)
{
	struct job_call c;
	memset(&c, 0, sizeof c);
	c.call = api_call_make(EP_USER, action ? "PUT" : "GET", url ? strdup(url) : NULL,
			       action ? json_pack("{s:s}", "k", "v") : NULL);
	c.action = action;
	snprintf(c.what, sizeof c.what, "test");
	return c;
}

/* On-demand calls: read-only refuses an action (not a fetch), a call
 * without a url is refused, calls go in submit order ahead of the
 * subscriptions, their ids never collide with jobs', and the queue is
 * bounded. */
static void calls_queue(void **state)
{
	(void)state;
	struct jobs *ro = jobs_new(NULL, true);
	struct job_call c = call_of("http://x/a", true);
	int id = 0;
	assert_int_equal(jobs_call(ro, &c, &id), JOBS_EREADONLY);
	assert_null(c.call.url); /* freed on refusal */
	c = call_of("http://x/b", false);
	assert_int_equal(jobs_call(ro, &c, &id), JOBS_OK);
	assert_true(id > 0);
	struct job_call got;
	int rid, sid;
	assert_true(jobs_take_call(ro, 0, &got, &rid, &sid));
	assert_false(got.action);
	api_call_free(&got.call);
	jobs_free(ro);

	struct jobs *j = jobs_new(NULL, false);
	woken = 0;
	jobs_set_waker(j, waker, NULL);
	c = call_of(NULL, false);
	assert_int_equal(jobs_call(j, &c, &id), JOBS_EINVAL);
	assert_int_equal(woken, 0);
	struct job_req r = req(JOB_STOP, 7, 0);
	int jid = 0, id1 = 0, id2 = 0, sub = 0;
	assert_int_equal(jobs_submit(j, &r, &jid), JOBS_OK);
	struct job_call s = call_of("http://x/sub", false);
	assert_int_equal(jobs_subscribe(j, &s, 5, false, &sub), JOBS_OK);
	c = call_of("http://x/1", true);
	assert_int_equal(jobs_call(j, &c, &id1), JOBS_OK);
	assert_null(c.call.url); /* taken over */
	c = call_of("http://x/2", false);
	assert_int_equal(jobs_call(j, &c, &id2), JOBS_OK);
	assert_int_equal(woken, 4);
	assert_true(jid != id1 && id1 != id2 && sub != id1 && sub != id2 && sub != jid);
	assert_true(jobs_next_call_due(j) == 0);
	/* the calls first, in order, as one-shots (sub_id 0) */
	assert_true(jobs_take_call(j, 0, &got, &rid, &sid));
	assert_int_equal(rid, id1);
	assert_int_equal(sid, 0);
	assert_string_equal(got.call.url, "http://x/1");
	assert_true(got.action);
	api_call_free(&got.call);
	assert_true(jobs_take_call(j, 0, &got, &rid, &sid));
	assert_int_equal(rid, id2);
	api_call_free(&got.call);
	/* then the subscription */
	assert_true(jobs_take_call(j, 0, &got, &rid, &sid));
	assert_int_equal(sid, sub);
	assert_int_equal(rid, sub);
	api_call_free(&got.call);
	/* a bounded queue: refused when full, the call freed */
	int ok = 0, full = 0;
	for (int i = 0; i < 100; i++) {
		c = call_of("http://x/n", false);
		int rc = jobs_call(j, &c, NULL);
		ok += rc == JOBS_OK;
		full += rc == JOBS_EFULL;
		assert_null(c.call.url);
	}
	assert_int_equal(ok, 64);
	assert_int_equal(full, 36);
	jobs_free(j); /* frees the queued calls */
}

/* Subscriptions: fetches only, every >= 1 s, one request in flight at a
 * time, due interval_s after the last answer, paused while hidden. */
static void subscriptions(void **state)
{
	(void)state;
	struct jobs *j = jobs_new(NULL, false);
	struct job_call c = call_of("http://x/s", true);
	int sub = 0;
	assert_int_equal(jobs_subscribe(j, &c, 5, false, &sub), JOBS_EINVAL); /* an action */
	assert_null(c.call.url);
	c = call_of("http://x/s", false);
	assert_int_equal(jobs_subscribe(j, &c, 0.999, false, &sub), JOBS_EINVAL);
	c = call_of("http://x/s", false);
	assert_int_equal(jobs_subscribe(j, &c, NAN, false, &sub), JOBS_EINVAL);
	c = call_of(NULL, false);
	assert_int_equal(jobs_subscribe(j, &c, 5, false, &sub), JOBS_EINVAL);
	assert_true(isinf(jobs_next_call_due(j)));
	/* the floor itself is accepted */
	c = call_of("http://x/s", false);
	assert_int_equal(jobs_subscribe(j, &c, 1.0, false, &sub), JOBS_OK);
	assert_true(jobs_subscribed(j, sub));
	/* due at once; taken as a copy (the subscription keeps its own) */
	assert_true(jobs_next_call_due(j) == 0);
	struct job_call got;
	int rid, sid;
	assert_true(jobs_take_call(j, 100, &got, &rid, &sid));
	assert_int_equal(sid, sub);
	assert_string_equal(got.call.url, "http://x/s");
	api_call_free(&got.call);
	/* one request in flight: not taken again, however late, until it ends */
	assert_false(jobs_take_call(j, 1000, &got, &rid, &sid));
	assert_true(isinf(jobs_next_call_due(j)));
	jobs_call_done(j, sub, 1000);
	assert_true(jobs_next_call_due(j) == 1001);
	assert_false(jobs_take_call(j, 1000.5, &got, &rid, &sid));
	assert_true(jobs_take_call(j, 1001, &got, &rid, &sid));
	api_call_free(&got.call);
	jobs_call_done(j, sub, 1001);
	/* hidden, when it asks for visibility: paused; shown: due at once */
	int vis = 0;
	c = call_of("http://x/v", false);
	assert_int_equal(jobs_subscribe(j, &c, 30, true, &vis), JOBS_OK);
	assert_true(jobs_take_call(j, 1001, &got, &rid, &sid));
	assert_int_equal(sid, vis);
	api_call_free(&got.call);
	jobs_call_done(j, vis, 1001);
	jobs_set_visible(j, vis, false);
	assert_true(jobs_next_call_due(j) == 1002); /* the other one only */
	assert_true(jobs_take_call(j, 2000, &got, &rid, &sid));
	assert_int_equal(sid, sub); /* not the hidden one, long due */
	api_call_free(&got.call);
	assert_false(jobs_take_call(j, 2000, &got, &rid, &sid));
	jobs_call_done(j, sub, 2000);
	woken = 0;
	jobs_set_waker(j, waker, NULL);
	jobs_set_visible(j, vis, true);
	assert_int_equal(woken, 1);
	jobs_set_visible(j, vis, true); /* already shown: no wake */
	assert_int_equal(woken, 1);
	assert_true(jobs_next_call_due(j) == 0);
	assert_true(jobs_take_call(j, 1001, &got, &rid, &sid));
	assert_int_equal(sid, vis);
	api_call_free(&got.call);
	/* shown again while its request is out: still one in flight */
	jobs_set_visible(j, vis, false);
	jobs_set_visible(j, vis, true);
	assert_false(jobs_take_call(j, 1001, &got, &rid, &sid));
	/* gone: its result is dropped, it is never due again */
	jobs_unsubscribe(j, vis);
	assert_false(jobs_subscribed(j, vis));
	jobs_call_done(j, vis, 1001); /* the request that was out ends: harmless */
	jobs_set_visible(j, vis, true);
	jobs_unsubscribe(j, vis);
	jobs_unsubscribe(j, sub);
	assert_true(isinf(jobs_next_call_due(j)));
	assert_false(jobs_take_call(j, 1e9, &got, &rid, &sid));
	/* a fetch with a body (a search): each request gets its own copy */
	int post = 0;
	c = call_of("http://x/p", false);
	c.call.body = strdup("{\"q\":1}");
	assert_int_equal(jobs_subscribe(j, &c, 10, false, &post), JOBS_OK);
	assert_true(jobs_take_call(j, 5000, &got, &rid, &sid));
	assert_int_equal(sid, post);
	assert_string_equal(got.call.body, "{\"q\":1}");
	api_call_free(&got.call);
	jobs_unsubscribe(j, post);
	/* a bounded set */
	int ok = 0, full = 0;
	for (int i = 0; i < 40; i++) {
		c = call_of("http://x/n", false);
		int rc = jobs_subscribe(j, &c, 10, false, NULL);
		ok += rc == JOBS_OK;
		full += rc == JOBS_EFULL;
	}
	assert_int_equal(ok, 32);
	assert_int_equal(full, 8);
	jobs_free(j); /* frees the subscriptions' calls */
}

/* The poller's side of the race test: take and finish jobs as they come. */
struct race {
	struct jobs *j;
	atomic_int finished;
	int rounds;
};

static void *finisher(void *arg)
{
	struct race *r = arg;
	while (atomic_load(&r->finished) < r->rounds) {
		struct job_req got;
		int id;
		if (jobs_take(r->j, &got, &id)) {
			jobs_finish(r->j, id);
			atomic_fetch_add(&r->finished, 1);
		} else {
			sched_yield(); /* a loaded machine: let the submitter run */
		}
	}
	return NULL;
}

/* A submit (UI thread) and a finish (poller thread) racing must never leave
 * the model showing a job the queue no longer holds: after each round the
 * pending badge of the finished job is gone. */
static void pending_follows_queue_under_races(void **state)
{
	(void)state;
	struct model *m = model_new();
	struct race r = { .j = jobs_new(m, false), .rounds = 5000 };
	atomic_init(&r.finished, 0);
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, finisher, &r), 0);
	int stale = 0;
	for (int i = 0; i < r.rounds; i++) {
		struct job_req q = req(JOB_STOP, 1000 + i, 0);
		assert_int_equal(jobs_submit(r.j, &q, NULL), JOBS_OK);
		while (atomic_load(&r.finished) <= i)
			sched_yield();
		const struct snapshot *s = model_acquire(m);
		stale += s->npending != 0;
		model_release(s);
	}
	pthread_join(th, NULL);
	assert_int_equal(jobs_queued(r.j), 0);
	assert_int_equal(stale, 0);
	jobs_free(r.j);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(validation),
		cmocka_unit_test(validation_boundaries),
		cmocka_unit_test(calls_queue),
		cmocka_unit_test(subscriptions),
		cmocka_unit_test(read_only_refuses_everything),
		cmocka_unit_test(dedupe_and_pending),
		cmocka_unit_test(one_login_at_a_time_and_full),
		cmocka_unit_test(pending_follows_queue_under_races),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
