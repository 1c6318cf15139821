/* test_idle.c: the idle, hot and disk rules (rules/idle.h) on sequences of
 * samples: idle after the window, never while stopped, loading or failed,
 * a restart, a stop and a reboot starting the window again, a missing
 * figure, a gap between samples, the exemptions, and the flags' limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "rules/idle.h"
#include "rules/watch.h"

static const struct idle_conf CONF = { 5, 1800, 85, 0.9, "777, nightly" };

/* A running instance at util % GPU, up for up minutes. */
static struct instance inst(double util, double up)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = 42;
	x.label = "train";
	x.state = IS_RUNNING;
	x.gpu_util = util;
	x.gpu_temp = 60;
	x.disk_space = 100;
	x.disk_usage = 10;
	x.disk_util = NAN;
	x.uptime_mins = up;
	return x;
}

/* Feed samples every 60 s from t0 while util stays u; the flags at the end. */
static unsigned run(struct idle_track *t, struct instance *x, double t0, double t1)
{
	unsigned f = 0;
	for (double now = t0; now <= t1; now += 60) {
		f = idle_step(t, x, &CONF, now);
		if (isfinite(x->uptime_mins))
			x->uptime_mins += 1;
	}
	return f;
}

static void idle_after_the_window(void **state)
{
	(void)state;
	struct idle_track t;
	idle_track_init(&t);
	struct instance x = inst(2, 100);
	assert_int_equal(run(&t, &x, 1000, 1000 + 1740), 0);          /* 29 min */
	assert_int_equal(run(&t, &x, 1000 + 1800, 1000 + 1800), IDLE_F_IDLE); /* 30 min */
	/* busy again: not idle at once, and a new window after */
	x.gpu_util = 40;
	assert_int_equal(idle_step(&t, &x, &CONF, 2900), 0);
	x.gpu_util = 1;
	assert_int_equal(run(&t, &x, 2960, 2960 + 1740), 0);
	assert_int_equal(run(&t, &x, 2960 + 1800, 2960 + 1800), IDLE_F_IDLE);
	/* at the limit is not under it */
	idle_track_init(&t);
	x = inst(5, 100);
	assert_int_equal(run(&t, &x, 0, 4000), 0);
}

static void never_when_not_running(void **state)
{
	(void)state;
	static const enum inst_state not_running[] = {
		IS_PROVISIONING, IS_LOADING, IS_STOPPING, IS_STOPPED, IS_OUTBID, IS_STARTING,
		IS_REBOOTING, IS_EXITED, IS_CREATED, IS_UNKNOWN, IS_OFFLINE, IS_FROZEN, IS_OTHER
	};
	for (size_t i = 0; i < sizeof not_running / sizeof *not_running; i++) {
		struct idle_track t;
		idle_track_init(&t);
		struct instance x = inst(0, NAN);
		x.state = not_running[i];
		x.gpu_temp = 99;       /* even with figures left over */
		x.disk_usage = 99;
		assert_int_equal(run(&t, &x, 0, 7200), 0);
	}
}

/* A stop, a reboot or a restart in the middle: the window starts again. */
static void stop_reboot_restart_reset(void **state)
{
	(void)state;
	static const enum inst_state breaks[] = { IS_STOPPED, IS_REBOOTING, IS_LOADING, IS_OFFLINE };
	for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
		struct idle_track t;
		idle_track_init(&t);
		struct instance x = inst(1, 10);
		assert_int_equal(run(&t, &x, 0, 1200), 0);
		x.state = breaks[i];
		assert_int_equal(idle_step(&t, &x, &CONF, 1260), 0);
		x.state = IS_RUNNING;
		assert_int_equal(run(&t, &x, 1320, 1320 + 1740), 0); /* 49 min low in all */
		assert_int_equal(run(&t, &x, 1320 + 1800, 1320 + 1800), IDLE_F_IDLE);
	}
	/* a restart between two samples: only the uptime going down tells */
	struct idle_track t;
	idle_track_init(&t);
	struct instance x = inst(1, 500);
	assert_int_equal(run(&t, &x, 0, 1200), 0);
	x.uptime_mins = 1;
	assert_int_equal(run(&t, &x, 1260, 1260 + 1740), 0);
	assert_int_equal(run(&t, &x, 1260 + 1800, 1260 + 1800), IDLE_F_IDLE);
	/* and it stops being idle at once on a stop */
	x.state = IS_STOPPED;
	assert_int_equal(idle_step(&t, &x, &CONF, 5000), 0);
}

/* A figure not sent is unknown: never idle, and the window starts again. */
static void missing_fields(void **state)
{
	(void)state;
	struct idle_track t;
	idle_track_init(&t);
	struct instance x = inst(NAN, NAN);
	x.gpu_temp = NAN;
	x.disk_usage = NAN;
	x.disk_space = NAN;
	assert_int_equal(run(&t, &x, 0, 7200), 0);
	x = inst(1, NAN); /* no uptime: no restart told, still idle */
	assert_int_equal(run(&t, &x, 7260, 7260 + 1740), 0);
	x.gpu_util = NAN; /* one sample without the figure */
	assert_int_equal(idle_step(&t, &x, &CONF, 9060), 0);
	x.gpu_util = 1;
	assert_int_equal(run(&t, &x, 9120, 9120 + 1740), 0);
	assert_int_equal(run(&t, &x, 9120 + 1800, 9120 + 1800), IDLE_F_IDLE);
	/* disk_usage -1 (not written yet) with no disk_util: unknown */
	x.disk_usage = -1;
	x.disk_space = 10;
	assert_false(idle_step(&t, &x, &CONF, 20000) & IDLE_F_DISK);
	assert_true(isnan(idle_disk_frac(&x)));
	x.disk_util = 0.95; /* the service's fraction when usage is not given */
	assert_true(idle_step(&t, &x, &CONF, 20060) & IDLE_F_DISK);
}

/* No sample for longer than IDLE_GAP_S: nothing is known of the gap. */
static void gap_restarts(void **state)
{
	(void)state;
	struct idle_track t;
	idle_track_init(&t);
	struct instance x = inst(1, NAN);
	assert_int_equal(idle_step(&t, &x, &CONF, 0), 0);
	assert_int_equal(idle_step(&t, &x, &CONF, 1900), 0); /* 31 min later, nothing between */
	assert_int_equal(run(&t, &x, 1960, 1900 + 1740), 0);
	assert_int_equal(idle_step(&t, &x, &CONF, 1900 + 1800), IDLE_F_IDLE);
}

static void exemptions(void **state)
{
	(void)state;
	struct instance x = inst(1, 1);
	assert_false(idle_exempt(&x, NULL));
	assert_false(idle_exempt(&x, CONF.exempt));
	x.id = 777;
	assert_true(idle_exempt(&x, CONF.exempt));
	x.id = 7777;
	assert_false(idle_exempt(&x, CONF.exempt));
	x.label = "Nightly";
	assert_true(idle_exempt(&x, CONF.exempt));
	assert_true(idle_exempt(&x, " nightly ,1"));
	x.label = "nightly-2";
	assert_false(idle_exempt(&x, CONF.exempt));
	x.label = "eval noidle";
	assert_true(idle_exempt(&x, NULL));
	x.label = "noidle-box";
	assert_true(idle_exempt(&x, ""));
	x.label = "snoidlex";
	assert_false(idle_exempt(&x, NULL));
	/* exempt from idle, not from hot */
	struct idle_track t;
	idle_track_init(&t);
	x.label = "noidle";
	x.gpu_temp = 90;
	assert_int_equal(run(&t, &x, 0, 4000), IDLE_F_HOT);
}

static void hot_and_disk(void **state)
{
	(void)state;
	struct idle_track t;
	idle_track_init(&t);
	struct instance x = inst(50, 10);
	x.gpu_temp = 85; /* at the limit: not over */
	assert_int_equal(idle_step(&t, &x, &CONF, 0), 0);
	x.gpu_temp = 86;
	assert_int_equal(idle_step(&t, &x, &CONF, 60), IDLE_F_HOT);
	x.gpu_temp = 82; /* under, but within IDLE_HOT_CLEAR: still hot */
	assert_int_equal(idle_step(&t, &x, &CONF, 120), IDLE_F_HOT);
	x.gpu_temp = 79;
	assert_int_equal(idle_step(&t, &x, &CONF, 180), 0);
	x.gpu_temp = NAN;
	assert_int_equal(idle_step(&t, &x, &CONF, 240), 0);
	x.disk_usage = 90; /* 90 %: not over */
	assert_int_equal(idle_step(&t, &x, &CONF, 300), 0);
	x.disk_usage = 91;
	assert_int_equal(idle_step(&t, &x, &CONF, 360), IDLE_F_DISK);
	x.disk_usage = 86;
	assert_int_equal(idle_step(&t, &x, &CONF, 420), IDLE_F_DISK);
	x.disk_usage = 84;
	assert_int_equal(idle_step(&t, &x, &CONF, 480), 0);
	/* limits 0: off */
	struct idle_conf off = { 0, 1800, 0, 0, NULL };
	x = inst(0, 1);
	x.gpu_temp = 120;
	x.disk_usage = 100;
	idle_track_init(&t);
	for (double now = 0; now < 7200; now += 60)
		assert_int_equal(idle_step(&t, &x, &off, now), 0);
	char buf[32];
	assert_string_equal(idle_flags_text(IDLE_F_IDLE | IDLE_F_DISK, buf, sizeof buf), "idle disk");
	assert_string_equal(idle_flags_text(0, buf, sizeof buf), "");
	assert_string_equal(idle_flags_text(IDLE_F_HOT, buf, 3), "ho");
}

/* The watch over a list: rows follow the ids (kept, added, dropped), a
 * rise is said once, and the account's money series: the last hour, then
 * the last day once the session is older than an hour. */
static void watch_rows_and_money(void **state)
{
	(void)state;
	struct instance a = inst(1, 10), b = inst(50, 10), c = inst(2, 10);
	a.id = 10;
	b.id = 20;
	c.id = 30;
	const struct instance *v3[3] = { &a, &b, &c }, *v2[2] = { &a, &b };
	struct watch w;
	watch_init(&w);
	struct watch_rise rise[2];
	/* a and b from 1000, c listed from 1600 */
	for (double t = 1000; t < 1600; t += 60)
		assert_int_equal(watch_sample(&w, v2, 2, &CONF, t, rise, 2), 0);
	assert_int_equal(w.n, 2);
	size_t n = 0;
	for (double t = 1600; t <= 2800; t += 60)
		n += watch_sample(&w, v3, 3, &CONF, t, rise, 2);
	assert_int_equal(n, 1); /* a, once */
	assert_int_equal(rise[0].id, 10);
	assert_int_equal(rise[0].flag, IDLE_F_IDLE);
	assert_int_equal(watch_flags(&w, 10), IDLE_F_IDLE);
	assert_int_equal(watch_flags(&w, 30), 0);
	assert_int_equal(watch_flags(&w, 99), 0);
	uint64_t gen = w.gen;
	assert_int_equal(watch_sample(&w, v3, 3, &CONF, 2860, rise, 2), 0); /* said once */
	assert_int_equal(w.gen, gen);
	/* b goes (destroyed): its row with it; a keeps its state */
	const struct instance *v_ac[2] = { &a, &c };
	watch_sample(&w, v_ac, 2, &CONF, 2920, rise, 2);
	assert_int_equal(w.n, 2);
	assert_null(watch_find(&w, 20));
	assert_int_equal(watch_flags(&w, 10), IDLE_F_IDLE);
	n = 0;
	for (double t = 2980; t <= 3400; t += 60)
		n += watch_sample(&w, v_ac, 2, &CONF, t, rise, 2);
	assert_int_equal(n, 1); /* c, 30 minutes after it was first seen */
	assert_int_equal(rise[0].id, 30);
	/* more rises than room: counted, max written */
	struct instance h1 = inst(50, 1), h2 = inst(50, 1), h3 = inst(50, 1);
	h1.id = 1, h2.id = 2, h3.id = 3;
	h1.gpu_temp = h2.gpu_temp = h3.gpu_temp = 95;
	const struct instance *vh[3] = { &h1, &h2, &h3 };
	assert_int_equal(watch_sample(&w, vh, 3, &CONF, 3500, rise, 2), 3);
	assert_int_equal(rise[1].id, 2);
	watch_free(&w);
	/* money */
	struct watch_money *m = &w.money;
	double v[4], span;
	watch_money_put(m, 1000, 2.0, 100);
	watch_money_put(m, 1000 + 1800, 3.0, 99);
	watch_money_values(m, 1000 + 1800, false, v, 4, &span);
	assert_float_equal(span, 3600, 1e-9);
	assert_float_equal(v[3], 3.0, 1e-9);
	assert_float_equal(v[1], 2.0, 1e-9);
	watch_money_values(m, 1000 + 1800, true, v, 4, NULL);
	assert_float_equal(v[3], 99, 1e-9);
	/* older than an hour: the day, where both samples fall in the last column */
	watch_money_put(m, 1000 + 3700, NAN, 98);
	watch_money_values(m, 1000 + 3700, false, v, 4, &span);
	assert_float_equal(span, 3600.0 * WATCH_DAY_SCALE, 1e-9);
	assert_float_equal(v[3], 3.0, 1e-9);
	assert_true(isnan(v[0]));
}

/* The idle spend over idle_spend_limit is said once a rise: not again while
 * it stays over or hovers near the limit, again after it fell under 90 %. */
static void idle_spend_limit(void **state)
{
	(void)state;
	struct watch w;
	watch_init(&w);
	assert_false(watch_idle_spend(&w, 5.0, 0));     /* off */
	assert_false(watch_idle_spend(&w, 1.0, 2.0));   /* under */
	assert_false(watch_idle_spend(&w, 2.0, 2.0));   /* at is not over */
	assert_true(watch_idle_spend(&w, 2.5, 2.0));    /* the rise */
	assert_false(watch_idle_spend(&w, 3.0, 2.0));   /* still over: said already */
	assert_false(watch_idle_spend(&w, 1.9, 2.0));   /* under, but not by 10 % */
	assert_false(watch_idle_spend(&w, 2.1, 2.0));   /* back over: no second word */
	assert_false(watch_idle_spend(&w, 1.7, 2.0));   /* under 90 %: re-armed */
	assert_true(watch_idle_spend(&w, 2.2, 2.0));    /* a new rise */
	assert_false(watch_idle_spend(&w, NAN, 2.0));   /* unknown: re-armed, silent */
	assert_true(watch_idle_spend(&w, 2.2, 2.0));
	watch_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(idle_after_the_window),
		cmocka_unit_test(never_when_not_running),
		cmocka_unit_test(stop_reboot_restart_reset),
		cmocka_unit_test(missing_fields),
		cmocka_unit_test(gap_restarts),
		cmocka_unit_test(exemptions),
		cmocka_unit_test(hot_and_disk),
		cmocka_unit_test(watch_rows_and_money),
		cmocka_unit_test(idle_spend_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
