/* test_model.c: the shared model: the derive_state table, snapshot swaps and
 * reference counting (old snapshots stay valid until released, unchanged
 * parts are shared), freshness and error flags, pending badges, the wake fd,
 * the event ring wrapping around, failed instances announced once, the burn
 * rate, and a stress test (one writer swapping thousands of snapshots while
 * readers acquire, check and release) that `make check` runs under TSan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/model.h"
#include "state/money.h"
#include "base/util.h"

/* Fill *x as json_map would: every string non-NULL, unknown doubles NAN. */
static void mk(struct instance *x, long id, const char *label, const char *actual,
	       const char *intended, double dph_total, double storage)
{
	memset(x, 0, sizeof *x);
	x->id = id;
	x->label = xstrdup(label);
	x->actual_status = xstrdup(actual);
	x->intended_status = xstrdup(intended);
	x->cur_state = xstrdup("");
	x->next_state = xstrdup("");
	x->status_msg = xstrdup("");
	x->gpu_name = xstrdup("RTX 4090");
	x->image = xstrdup("img");
	x->runtype = xstrdup("ssh");
	x->ssh_host = xstrdup("h");
	x->public_ip = xstrdup("");
	x->geolocation = xstrdup("");
	x->verification = xstrdup("");
	x->template_hash_id = xstrdup("");
	x->template_name = xstrdup("");
	x->state = instance_derive_state(actual, intended, "", "");
	x->dph_total = dph_total;
	x->dph_base = NAN;
	x->storage_total_cost = storage;
	x->bid_price = NAN;
	x->credit_balance = NAN;
}

static void test_derive_state(void **state)
{
	(void)state;
	static const struct {
		const char *a, *i, *c, *n;
		enum inst_state want;
	} rows[] = {
		{ NULL, "running", NULL, NULL, IS_PROVISIONING },
		{ "", "running", "running", "running", IS_PROVISIONING },
		{ "", "stopped", "stopped", "stopped", IS_STOPPED },
		{ "", "stopped", "running", "running", IS_PROVISIONING },
		{ "running", "running", "running", "running", IS_RUNNING },
		{ "running", "", NULL, NULL, IS_RUNNING },
		{ "running", "stopped", "running", "stopped", IS_STOPPING },
		{ "loading", "running", NULL, NULL, IS_LOADING },
		{ "loading", "stopped", NULL, NULL, IS_STOPPING },
		{ "rebooting", "running", NULL, NULL, IS_REBOOTING },
		{ "exited", "stopped", "stopped", "stopped", IS_STOPPED },
		{ "exited", "running", "stopped", "running", IS_STARTING },
		{ "exited", "running", "running", "running", IS_EXITED },
		{ "exited", NULL, NULL, NULL, IS_EXITED },
		{ "stopped", "running", "unloaded", "running", IS_STARTING },
		{ "stopped", "running", "stopped", "stopped", IS_STOPPED },
		{ "stopped", "stopped", NULL, NULL, IS_STOPPED },
		{ "created", "running", NULL, NULL, IS_CREATED },
		{ "created", "stopped", NULL, NULL, IS_STOPPED },
		{ "unknown", "running", NULL, NULL, IS_UNKNOWN },
		{ "offline", "running", NULL, NULL, IS_OFFLINE },
		{ "frozen", "running", NULL, NULL, IS_FROZEN },
		{ "scheduling", "running", NULL, NULL, IS_OTHER },
	};
	for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
		enum inst_state got = instance_derive_state(rows[k].a, rows[k].i, rows[k].c, rows[k].n);
		if (got != rows[k].want)
			fail_msg("row %zu (%s/%s/%s/%s): %s, want %s", k, rows[k].a, rows[k].i,
				 rows[k].c, rows[k].n, instance_state_name(got),
				 instance_state_name(rows[k].want));
	}
	assert_true(instance_state_failed(IS_EXITED));
	assert_true(instance_state_failed(IS_CREATED));
	assert_true(instance_state_failed(IS_UNKNOWN));
	assert_true(instance_state_failed(IS_OFFLINE));
	assert_false(instance_state_failed(IS_STOPPED));
	assert_false(instance_state_failed(IS_PROVISIONING));
	assert_true(instance_state_billing_compute(IS_RUNNING));
	assert_false(instance_state_billing_compute(IS_STOPPED));
	assert_string_equal(instance_state_name(IS_EXITED), "crashed");
	assert_string_equal(instance_state_name(IS__COUNT), "other");
	for (int s = 0; s < IS__COUNT; s++)
		assert_non_null(instance_state_name((enum inst_state)s));
}

static bool fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void test_snapshot_swap(void **state)
{
	(void)state;
	struct model *m = model_new();
	const struct snapshot *s0 = model_acquire(m);
	assert_non_null(s0);
	assert_int_equal(s0->ninstances, 0);
	assert_null(s0->user);
	assert_null(model_snapshot_find(s0, 1)); /* empty snapshot */
	uint64_t g0 = s0->generation;
	model_wake_drain(m);
	assert_false(fd_readable(model_wake_fd(m)));

	struct instance *v = xcalloc(3, sizeof *v);
	mk(&v[0], 30, "c", "running", "running", 1.0, 0.1);
	mk(&v[1], 10, "a", "running", "running", 1.0, 0.1);
	mk(&v[2], 20, "b", "loading", "running", 1.0, 0.1);
	model_set_instances(m, v, 3, 1000.0);
	assert_true(fd_readable(model_wake_fd(m)));
	model_wake_drain(m);
	assert_false(fd_readable(model_wake_fd(m)));

	const struct snapshot *s1 = model_acquire(m);
	assert_true(s1->generation > g0);
	assert_int_equal(model_generation(m), s1->generation);
	assert_int_equal(s1->ninstances, 3);
	assert_int_equal(s1->instances[0]->id, 10); /* sorted by id */
	assert_int_equal(s1->instances[2]->id, 30);
	assert_string_equal(model_snapshot_find(s1, 20)->label, "b");
	assert_null(model_snapshot_find(s1, 25));
	assert_float_equal(s1->fresh[SRC_INSTANCES].last_ok, 1000.0, 0);
	/* the old snapshot is untouched */
	assert_int_equal(s0->ninstances, 0);
	model_release(s0);

	struct user *u = xcalloc(1, sizeof *u);
	u->id = 7;
	u->email = xstrdup("e");
	model_set_user(m, u, 1001.0);
	const struct snapshot *s2 = model_acquire(m);
	assert_true(s2->generation > s1->generation);
	assert_ptr_equal(s2->instances, s1->instances); /* unchanged part shared */
	assert_int_equal(s2->user->id, 7);
	assert_null(s1->user);

	/* replace the instances: s1 and s2 keep the old array alive */
	struct instance *w = xcalloc(1, sizeof *w);
	mk(&w[0], 99, "z", "running", "running", 2.0, 0.2);
	model_set_instances(m, w, 1, 1002.0);
	assert_int_equal(s2->ninstances, 3);
	assert_string_equal(s2->instances[1]->label, "b");
	model_release(s1);
	assert_string_equal(s2->instances[2]->label, "c"); /* still alive: s2 holds it */
	const struct snapshot *s3 = model_acquire(m);
	assert_int_equal(s3->ninstances, 1);
	assert_ptr_equal(s3->user, s2->user);
	model_release(s2);
	model_release(s3);
	model_release(NULL);
	model_free(m); /* ASan: everything freed exactly once */
}

/* A publish shares the rows: two snapshots published around a one-row
 * change show the unchanged rows' records at the same addresses, the
 * changed row as a new record, and each snapshot keeps its own rows alive
 * (the poller's references dropped, the old snapshot still reads its row). */
static void test_rows_shared(void **state)
{
	(void)state;
	struct model *m = model_new();
	enum { N = 5 };
	struct irow *rows[N];
	for (int i = 0; i < N; i++) {
		struct instance x;
		char label[16];
		snprintf(label, sizeof label, "r%d", i);
		mk(&x, 100 + i, label, "running", "running", 1.0, 0.1);
		rows[i] = instance_row_new(&x);
	}
	struct inst_progress pr = { N, false, 0 };
	model_publish_rows(m, rows, N, &pr, 1000.0);
	const struct snapshot *s1 = model_acquire(m);
	assert_int_equal(s1->ninstances, N);
	for (int i = 0; i < N; i++) /* the records themselves, not copies */
		assert_ptr_equal(s1->instances[i], &rows[i]->x);

	/* row 2 changes (a new irow, as a sweep makes one); the others stay */
	struct instance y;
	mk(&y, 102, "r2 changed", "exited", "running", 1.0, 0.1);
	struct irow *old2 = rows[2];
	rows[2] = instance_row_new(&y);
	model_publish_rows(m, rows, N, &pr, 1001.0);
	instance_row_unref(old2); /* the poller lets go: s1 still holds it */
	const struct snapshot *s2 = model_acquire(m);
	assert_ptr_not_equal(s2->instances, s1->instances); /* a new list... */
	for (int i = 0; i < N; i++)
		if (i != 2) /* ...of the same records */
			assert_ptr_equal(s2->instances[i], s1->instances[i]);
	assert_ptr_not_equal(s2->instances[2], s1->instances[2]);
	assert_ptr_equal(s2->instances[2], &rows[2]->x);
	assert_true(s2->instances[2]->rev != s1->instances[2]->rev);
	assert_string_equal(s2->instances[2]->label, "r2 changed");
	assert_ptr_equal(model_snapshot_find(s2, 102), s2->instances[2]);
	assert_ptr_equal(model_snapshot_find(s2, 104), s1->instances[4]);
	assert_null(model_snapshot_find(s2, 99));
	assert_null(model_snapshot_find(s2, 103 + N));

	for (int i = 0; i < N; i++)
		instance_row_unref(rows[i]); /* the snapshots keep what they show */
	model_set_user(m, NULL, 1002.0); /* another part: the list shared as is */
	const struct snapshot *s3 = model_acquire(m);
	assert_ptr_equal(s3->instances, s2->instances);
	model_release(s2);
	model_release(s3);
	assert_string_equal(s1->instances[2]->label, "r2");
	assert_string_equal(s1->instances[4]->label, "r4");
	model_release(s1);
	model_free(m); /* ASan: every row freed once, by its last holder */
}

static void test_errors_pending(void **state)
{
	(void)state;
	struct model *m = model_new();
	model_set_in_flight(m, SRC_USER, true, 50.0);
	const struct snapshot *s = model_acquire(m);
	assert_true(s->fresh[SRC_USER].in_flight);
	model_release(s);

	model_set_error(m, SRC_INSTANCES, 0, true, false, "connect \x1b[31mrefused", 100.0);
	s = model_acquire(m);
	assert_true(s->offline);
	assert_int_equal(s->fresh[SRC_INSTANCES].err_status, 0);
	assert_int_equal(s->fresh[SRC_INSTANCES].failures, 1);
	assert_string_equal(s->fresh[SRC_INSTANCES].err, "connect refused");
	model_release(s);

	model_set_error(m, SRC_INSTANCES, 401, false, true, "Invalid user key", 101.0);
	s = model_acquire(m);
	assert_false(s->offline);
	assert_true(s->auth_failed);
	assert_int_equal(s->fresh[SRC_INSTANCES].err_status, 401);
	assert_int_equal(s->fresh[SRC_INSTANCES].failures, 2);
	model_release(s);

	model_set_instances(m, NULL, 0, 102.0);
	s = model_acquire(m);
	assert_false(s->auth_failed);
	assert_int_equal(s->fresh[SRC_INSTANCES].failures, 0);
	assert_string_equal(s->fresh[SRC_INSTANCES].err, "");
	model_release(s);
	model_set_error(m, SRC__COUNT, 500, false, false, "ignored", 103.0);

	struct pending p[2] = { { 1, 4, 10 }, { 2, 1, 11 } };
	model_set_pending(m, p, 2);
	s = model_acquire(m);
	assert_int_equal(s->npending, 2);
	assert_true(model_snapshot_pending(s, 10, 4));
	assert_true(model_snapshot_pending(s, 10, -1));
	assert_false(model_snapshot_pending(s, 10, 1));
	assert_false(model_snapshot_pending(s, 12, -1));
	model_release(s);
	model_set_pending(m, NULL, 0);
	s = model_acquire(m);
	assert_int_equal(s->npending, 0);
	model_release(s);
	model_free(m);
}

static void test_event_ring(void **state)
{
	(void)state;
	struct model *m = model_new();
	struct event *out = xcalloc(MODEL_EVENT_RING, sizeof *out);
	assert_int_equal(model_events(m, 0, out, MODEL_EVENT_RING), 0);
	uint64_t first = model_event(m, EV_INFO, -1, 0, 0, 0, "event %d", 1);
	assert_int_equal(first, 1);
	for (int i = 2; i <= MODEL_EVENT_RING + 10; i++)
		model_event(m, i % 2 ? EV_OK : EV_WARN, 3, i, 100 + i, 0, "event %d \x1b[1m", i);
	size_t n = model_events(m, 0, out, MODEL_EVENT_RING);
	assert_int_equal(n, MODEL_EVENT_RING);
	assert_int_equal(out[0].seq, 11); /* the oldest ten were overwritten */
	assert_string_equal(out[0].text, "event 11 ");
	assert_int_equal(out[n - 1].seq, MODEL_EVENT_RING + 10);
	for (size_t i = 1; i < n; i++)
		assert_int_equal(out[i].seq, out[i - 1].seq + 1);
	/* incremental reads and max */
	n = model_events(m, MODEL_EVENT_RING + 7, out, MODEL_EVENT_RING);
	assert_int_equal(n, 3);
	assert_int_equal(out[0].seq, MODEL_EVENT_RING + 8);
	assert_int_equal(out[0].job_id, MODEL_EVENT_RING + 8);
	n = model_events(m, 20, out, 5);
	assert_int_equal(n, 5);
	assert_int_equal(out[0].seq, 21);
	assert_int_equal(model_events(m, MODEL_EVENT_RING + 10, out, 8), 0);
	/* a long text is cut and terminated */
	char big[600];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	uint64_t q = model_event(m, EV_ERROR, -1, 0, 0, 0, "%s", big);
	n = model_events(m, q - 1, out, 1);
	assert_int_equal(n, 1);
	assert_int_equal(strlen(out[0].text), sizeof out[0].text - 1);
	free(out);
	model_free(m);
}

/* Count the EVF_FAILED_INSTANCE events after seq. */
static size_t failed_events(struct model *m, uint64_t after, long *last_id)
{
	struct event ev[64];
	size_t n = model_events(m, after, ev, 64), c = 0;
	for (size_t i = 0; i < n; i++)
		if (ev[i].flags & EVF_FAILED_INSTANCE) {
			c++;
			*last_id = ev[i].instance_id;
			assert_int_equal(ev[i].level, EV_ERROR);
		}
	return c;
}

static void test_failed_announced_once(void **state)
{
	(void)state;
	struct model *m = model_new();
	long id = 0;
	for (int round = 0; round < 3; round++) {
		struct instance *v = xcalloc(2, sizeof *v);
		mk(&v[0], 1, "ok", "running", "running", 1, 0);
		mk(&v[1], 2, "bad", "exited", "running", 1, 0);
		model_set_instances(m, v, 2, 10.0 + round);
	}
	assert_int_equal(failed_events(m, 0, &id), 1);
	assert_int_equal(id, 2);
	struct event ev[4];
	size_t n = model_events(m, 0, ev, 4);
	assert_int_equal(n, 1);
	assert_non_null(strstr(ev[0].text, "bad"));
	assert_non_null(strstr(ev[0].text, "crashed"));

	/* a user-stopped instance is no failure */
	uint64_t seq = ev[0].seq;
	struct instance *v = xcalloc(2, sizeof *v);
	mk(&v[0], 2, "bad", "exited", "running", 1, 0);
	mk(&v[1], 3, "stopped", "exited", "stopped", 1, 0);
	model_set_instances(m, v, 2, 20.0);
	assert_int_equal(failed_events(m, seq, &id), 0);
	/* another instance failing is announced; the first still is not again */
	v = xcalloc(2, sizeof *v);
	mk(&v[0], 2, "bad", "exited", "running", 1, 0);
	mk(&v[1], 4, "", "offline", "running", 1, 0);
	model_set_instances(m, v, 2, 21.0);
	assert_int_equal(failed_events(m, seq, &id), 1);
	assert_int_equal(id, 4);
	model_free(m);
}

/* The direct address wins; the proxy is the fall-back; half an address
 * (a host without a port) is no address. */
static void test_ssh_target(void **state)
{
	(void)state;
	struct instance x;
	memset(&x, 0, sizeof x);
	char host[64];
	int port = -1;
	x.public_ip = "203.0.113.7";
	x.direct_ssh_port = 41022;
	x.ssh_host = "ssh5.vast.ai";
	x.ssh_port = 12345;
	assert_true(instance_ssh_target(&x, host, sizeof host, &port));
	assert_string_equal(host, "203.0.113.7");
	assert_int_equal(port, 41022);
	x.direct_ssh_port = 0; /* not running: no ports map */
	assert_true(instance_ssh_target(&x, host, sizeof host, &port));
	assert_string_equal(host, "ssh5.vast.ai");
	assert_int_equal(port, 12345);
	x.ssh_port = 0;
	assert_false(instance_ssh_target(&x, host, sizeof host, &port));
	x.ssh_host = "";
	x.ssh_port = 2222;
	assert_false(instance_ssh_target(&x, host, sizeof host, &port));
}

static void test_burn_rate(void **state)
{
	(void)state;
	struct instance v[5];
	mk(&v[0], 1, "", "running", "running", 1.0, 0.1);   /* full: 1.0 */
	mk(&v[1], 2, "", "exited", "stopped", 2.0, 0.2);    /* storage: 0.2 */
	mk(&v[2], 3, "", "", "running", 0.5, 0.05);         /* provisioning: 0.05 */
	mk(&v[3], 4, "", "running", "running", NAN, 0.3);   /* dph_base + storage */
	v[3].dph_base = 0.7;
	mk(&v[4], 5, "", "exited", "running", 3.0, NAN);    /* crashed, no storage known: 0 */
	const struct instance *pv[5] = { &v[0], &v[1], &v[2], &v[3], &v[4] };
	assert_float_equal(money_burn_rate(pv, 5), 1.0 + 0.2 + 0.05 + 1.0, 1e-9);
	assert_float_equal(money_burn_rate(pv, 0), 0, 0);
	for (int i = 0; i < 5; i++)
		instance_clear(&v[i]);
}

/* ---- stress: one writer, several readers ------------------------------- */

#define STRESS_SWAPS 5000
#define STRESS_READERS 3
#define STRESS_ROWS 4

struct stress {
	struct model *m;
	atomic_bool done;
	atomic_long reads;
	atomic_long violations;
};

static void *writer(void *arg)
{
	struct stress *st = arg;
	for (int g = 1; g <= STRESS_SWAPS; g++) {
		struct instance *v = xcalloc(STRESS_ROWS, sizeof *v);
		char label[32];
		snprintf(label, sizeof label, "gen%d", g);
		for (int r = 0; r < STRESS_ROWS; r++)
			mk(&v[r], STRESS_ROWS - r, label, r == 0 ? "exited" : "running", "running",
			   g, 0.01);
		model_set_instances(st->m, v, STRESS_ROWS, g);
		if (g % 100 == 0) {
			struct user *u = xcalloc(1, sizeof *u);
			u->id = g;
			u->email = xstrdup(label);
			model_set_user(st->m, u, g);
			model_event(st->m, EV_INFO, -1, 0, 0, 0, "writer at %d", g);
		}
	}
	atomic_store(&st->done, true);
	return NULL;
}

static void *reader(void *arg)
{
	struct stress *st = arg;
	uint64_t last_gen = 0;
	struct event ev[8];
	uint64_t seen = 0;
	while (!atomic_load(&st->done)) {
		const struct snapshot *s = model_acquire(st->m);
		bool bad = s->generation < last_gen;
		last_gen = s->generation;
		if (s->ninstances) {
			bad |= s->ninstances != STRESS_ROWS;
			for (size_t i = 0; i < s->ninstances; i++) {
				bad |= s->instances[i]->id != (long)i + 1;
				bad |= strcmp(s->instances[i]->label, s->instances[0]->label) != 0;
				bad |= s->instances[i]->dph_total != s->instances[0]->dph_total;
			}
			bad |= model_snapshot_find(s, 2) == NULL;
			bad |= money_burn_rate(s->instances, s->ninstances) < 0;
		}
		if (s->user)
			bad |= strncmp(s->user->email, "gen", 3) != 0;
		model_release(s);
		size_t n = model_events(st->m, seen, ev, 8);
		if (n)
			seen = ev[n - 1].seq;
		if (bad)
			atomic_fetch_add(&st->violations, 1);
		atomic_fetch_add(&st->reads, 1);
	}
	return NULL;
}

static void test_stress_swaps(void **state)
{
	(void)state;
	struct stress st = { .m = model_new() };
	atomic_init(&st.done, false);
	atomic_init(&st.reads, 0);
	atomic_init(&st.violations, 0);
	pthread_t w, r[STRESS_READERS];
	for (int i = 0; i < STRESS_READERS; i++)
		assert_int_equal(pthread_create(&r[i], NULL, reader, &st), 0);
	assert_int_equal(pthread_create(&w, NULL, writer, &st), 0);
	pthread_join(w, NULL);
	for (int i = 0; i < STRESS_READERS; i++)
		pthread_join(r[i], NULL);
	assert_int_equal(atomic_load(&st.violations), 0);
	assert_true(atomic_load(&st.reads) > 0);
	const struct snapshot *s = model_acquire(st.m);
	assert_int_equal(s->ninstances, STRESS_ROWS);
	assert_string_equal(s->instances[0]->label, "gen5000");
	model_release(s);
	/* instance 4 (row 0) stayed crashed through every swap: announced once */
	long id = 0;
	struct event ev[64];
	size_t n = model_events(st.m, 0, ev, 64), c = 0;
	for (size_t i = 0; i < n; i++)
		if (ev[i].flags & EVF_FAILED_INSTANCE) {
			c++;
			id = ev[i].instance_id;
		}
	assert_int_equal(c, 1);
	assert_int_equal(id, STRESS_ROWS);
	model_free(st.m);
}

/* A stored answer, an unsure action and the waiting count each wake the UI
 * (model.h promises it; without it a view waited for its next tick, 2-3 s). */
static void test_results_wake(void **state)
{
	(void)state;
	struct model *m = model_new();
	model_wake_drain(m);
	assert_false(fd_readable(model_wake_fd(m)));
	struct call_result r = {.req_id = 7, .outcome = CALL_OK};
	model_put_result(m, &r);
	assert_true(fd_readable(model_wake_fd(m)));
	model_wake_drain(m);
	model_set_unsure(m, 3, 0, 42, true);
	assert_true(fd_readable(model_wake_fd(m)));
	model_wake_drain(m);
	model_set_actions_waiting(m, 2);
	assert_true(fd_readable(model_wake_fd(m)));
	model_wake_drain(m);
	model_set_actions_waiting(m, 2); /* no change: no wake */
	assert_false(fd_readable(model_wake_fd(m)));
	struct call_result got;
	assert_true(model_take_result(m, 7, &got));
	model_call_result_free(&got);
	model_free(m);
}

/* The money questions (issue 21): a bid under min_bid or above the
 * on-demand price asks again (none where a price is unknown), an outbid
 * row is told apart from a stop, a prepay on a failed instance asks first. */
static void test_money_questions(void **state)
{
	(void)state;
	struct instance x;
	memset(&x, 0, sizeof x);
	x.is_bid = true;
	x.min_bid = 0.208;
	x.ondemand = 0.4503;
	assert_int_equal(instance_bid_ask(&x, 0.1), BID_ASK_LOW);
	assert_int_equal(instance_bid_ask(&x, 0.208), BID_ASK_NONE);
	assert_int_equal(instance_bid_ask(&x, 0.4503), BID_ASK_NONE);
	assert_int_equal(instance_bid_ask(&x, 6.0), BID_ASK_HIGH); /* 6 $/h on a 0.45 machine */
	x.ondemand = NAN; /* not sent: nothing to compare with */
	assert_int_equal(instance_bid_ask(&x, 6.0), BID_ASK_NONE);
	x.ondemand = 0; /* a record built without it */
	assert_int_equal(instance_bid_ask(&x, 6.0), BID_ASK_NONE);
	x.min_bid = NAN;
	assert_int_equal(instance_bid_ask(&x, 0.0011), BID_ASK_NONE);

	x.actual_status = (char *)"exited";
	x.intended_status = x.cur_state = x.next_state = (char *)"stopped";
	x.status_msg = (char *)"Outbid: a higher bid took this machine; the instance is stopped";
	x.state = instance_state(&x);
	assert_int_equal(x.state, IS_OUTBID);
	assert_true(instance_was_outbid(&x));
	x.status_msg = (char *)"stopped by the user";
	x.state = instance_state(&x);
	assert_int_equal(x.state, IS_STOPPED);
	assert_false(instance_was_outbid(&x));
	x.status_msg = NULL;
	assert_int_equal(instance_state(&x), IS_STOPPED);
	x.status_msg = (char *)"outbid";
	x.is_bid = false; /* on-demand is never outbid */
	x.state = instance_state(&x);
	assert_false(instance_was_outbid(&x));
	x.is_bid = true;
	x.actual_status = x.intended_status = (char *)"running"; /* running again after a bid */
	x.state = instance_state(&x);
	assert_int_equal(x.state, IS_RUNNING);
	assert_false(instance_was_outbid(&x));

	x.state = instance_derive_state("created", "running", "", ""); /* failed start */
	assert_true(instance_prepay_asks(&x));
	x.state = instance_derive_state("exited", "running", "", ""); /* crashed */
	assert_true(instance_prepay_asks(&x));
	x.state = IS_RUNNING;
	assert_false(instance_prepay_asks(&x));
	x.state = instance_derive_state("exited", "stopped", "", "");
	assert_false(instance_prepay_asks(&x));
}

/* issue 21: outbid is a state of its own, apart from a stop by the user
 * (its own name and header count, neither failed nor billing the GPU);
 * a failed start is told from a crash by its Docker error. */
static void test_outbid_state(void **state)
{
	(void)state;
	assert_string_equal(instance_state_name(IS_OUTBID), "outbid");
	assert_false(instance_state_failed(IS_OUTBID));
	assert_false(instance_state_billing_compute(IS_OUTBID));
	struct instance a, b, c;
	memset(&a, 0, sizeof a);
	a.id = 1;
	a.is_bid = true;
	a.actual_status = (char *)"exited";
	a.intended_status = a.cur_state = a.next_state = (char *)"stopped";
	a.status_msg = (char *)"Outbid: a higher bid took this machine";
	a.state = instance_state(&a);
	b = a;
	b.id = 2;
	b.status_msg = (char *)"Stopped by user";
	b.state = instance_state(&b);
	c = a;
	c.id = 3;
	c.is_bid = false;
	c.actual_status = c.intended_status = (char *)"running";
	c.state = instance_state(&c);
	const struct instance *v[] = { &a, &b, &c };
	struct state_counts sc;
	model_count_states(v, 3, &sc);
	assert_int_equal(sc.outbid, 1);
	assert_int_equal(sc.stopped, 1);
	assert_int_equal(sc.running, 1);
	assert_int_equal(sc.failed, 0);

	struct instance f;
	memset(&f, 0, sizeof f);
	f.status_msg = (char *)"Error response from daemon: pull access denied for private/x";
	f.state = instance_derive_state("created", "running", "stopped", "");
	assert_true(instance_never_started(&f));
	f.state = instance_derive_state("exited", "running", "running", "");
	assert_true(instance_never_started(&f)); /* exited with the daemon's error */
	f.status_msg = (char *)"Error: container exited with code 1";
	assert_false(instance_never_started(&f)); /* it ran, then crashed */
	f.state = IS_RUNNING;
	assert_false(instance_never_started(&f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive_state),
		cmocka_unit_test(test_snapshot_swap),
		cmocka_unit_test(test_rows_shared),
		cmocka_unit_test(test_results_wake),
		cmocka_unit_test(test_errors_pending),
		cmocka_unit_test(test_event_ring),
		cmocka_unit_test(test_failed_announced_once),
		cmocka_unit_test(test_ssh_target),
		cmocka_unit_test(test_burn_rate),
		cmocka_unit_test(test_stress_swaps),
		cmocka_unit_test(test_money_questions),
		cmocka_unit_test(test_outbid_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
