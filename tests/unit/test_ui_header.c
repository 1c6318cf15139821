/* test_ui_header.c: the header when narrow (issue 12): the account line
 * drops its least useful segments first and keeps `refreshed` (how fresh
 * every other figure is) the longest, its long form (sweep age) going
 * early; the freshness marker (STALE, OFFLINE, AUTH) outlives PAUSED and
 * READ-ONLY on the first line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/config.h"
#include "header.h"
#include "rules/watch.h"
#include "views/account/account_money.h"
#include "theme.h"
#include "state/model.h"
#include "base/util.h"

static struct instance xs[3];
static const struct instance *const pxs[3] = { &xs[0], &xs[1], &xs[2] };
static struct user user;
static struct snapshot snap;
static struct config cfg;

/* Three running instances, a user with credit, a whole sweep 5 s ago. */
static void fleet(double now)
{
	memset(xs, 0, sizeof xs);
	for (int i = 0; i < 3; i++) {
		struct instance *x = &xs[i];
		x->id = 9108100 + i;
		x->state = IS_RUNNING;
		x->dph_base = 0.4;
		x->storage_total_cost = 0.011;
		x->dph_total = 0.411;
		x->start_date = x->end_date = x->uptime_mins = x->gpu_util = x->min_bid = x->bid_price = NAN;
		x->label = x->gpu_name = x->image = x->actual_status = x->intended_status = (char *)"";
	}
	memset(&user, 0, sizeof user);
	user.email = (char *)"operator@example.com";
	user.credit = 123.45;
	memset(&snap, 0, sizeof snap);
	snap.instances = pxs;
	snap.ninstances = 3;
	snap.user = &user;
	snap.fresh[SRC_INSTANCES].last_ok = now - 5;
	snap.fresh[SRC_USER].last_ok = now - 5;
	snap.progress.total = 3;
	snap.progress.sweep_ok = now - 5;
	memset(&cfg, 0, sizeof cfg);
	cfg.ascii = true;
	cfg.runway_warn_h = 24;
	cfg.runway_alarm_h = 2;
}

static bool kept(const struct header_seg *seg, int id, const char *part)
{
	return seg[id].keep && strstr(seg[id].text, part) != NULL;
}

static void test_refreshed_outlives_the_rest(void **state)
{
	(void)state;
	double now = 1.7e9;
	fleet(now);
	struct header_seg seg[HSEG__N];
	/* wide: everything, the long form of refreshed too (stale: the sweep
	 * age is shown, test_sweep_age_only_when_it_says_something) */
	int w = header_account(&snap, &cfg, DS_STALE, now, 0, 200, seg, 0, 0);
	assert_true(w <= 200);
	for (int i = 0; i < HSEG__N; i++)
		assert_true(seg[i].keep || i == HSEG_IDLE || i == HSEG_PRICES); /* none: not said */
	assert_true(kept(seg, HSEG_REFRESHED, "sweep <10s ago"));
	assert_true(kept(seg, HSEG_COUNTS, "3 running"));
	/* 80 columns: the email, the sweep age and the counts go */
	w = header_account(&snap, &cfg, DS_STALE, now, 0, 80, seg, 0, 0);
	assert_true(w <= 80);
	assert_false(seg[HSEG_COUNTS].keep);
	assert_false(seg[HSEG_EMAIL].keep);
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	assert_true(kept(seg, HSEG_CREDIT, "credit $123.45"));
	assert_true(kept(seg, HSEG_BURN, "burn "));
	/* 60 columns: refreshed loses its sweep age, runway goes; refreshed stays */
	w = header_account(&snap, &cfg, DS_STALE, now, 0, 60, seg, 0, 0);
	assert_true(w <= 60);
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	assert_null(strstr(seg[HSEG_REFRESHED].text, "sweep"));
	assert_true(seg[HSEG_CREDIT].keep && seg[HSEG_BURN].keep);
	assert_false(seg[HSEG_RUNWAY].keep);
	/* 40 columns (the minimum): credit and refreshed */
	w = header_account(&snap, &cfg, DS_FRESH, now, 0, 40, seg, 0, 0);
	assert_true(w <= 40);
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	assert_false(seg[HSEG_BURN].keep);
	assert_true(seg[HSEG_CREDIT].keep);
	/* narrower still: refreshed is the last one standing */
	w = header_account(&snap, &cfg, DS_FRESH, now, 0, 22, seg, 0, 0);
	assert_true(w <= 22);
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	for (int i = 0; i < HSEG__N; i++)
		if (i != HSEG_REFRESHED)
			assert_false(seg[i].keep);
}

/* 120 columns, the seeded simulator's account (issue 21): the e-mail
 * address goes first and the state counts stay. */
static void test_counts_outlive_email(void **state)
{
	(void)state;
	double now = 1.7e9;
	fleet(now);
	static struct instance v[12];
	static const struct instance *pv[12];
	static const enum inst_state st[12] = {
		IS_RUNNING, IS_RUNNING, IS_RUNNING, IS_RUNNING, IS_RUNNING, IS_LOADING,
		IS_PROVISIONING, IS_STOPPED, IS_EXITED, IS_CREATED, IS_UNKNOWN, IS_OFFLINE,
	};
	for (int i = 0; i < 12; i++) {
		v[i] = xs[0];
		v[i].id = 100 + i;
		v[i].state = st[i];
		pv[i] = &v[i];
	}
	snap.instances = pv;
	snap.ninstances = 12;
	user.email = (char *)"demo@example.com";
	user.credit = 246.22;
	struct header_seg seg[HSEG__N];
	int w = header_account(&snap, &cfg, DS_FRESH, now, 0, 120, seg, 0, 0);
	assert_true(w <= 120);
	assert_true(kept(seg, HSEG_COUNTS, "5 running 2 booting 1 stopped 4 failed"));
	assert_false(seg[HSEG_EMAIL].keep);
	assert_true(kept(seg, HSEG_CREDIT, "credit $246.22"));
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	/* wide enough for all: the address too */
	header_account(&snap, &cfg, DS_FRESH, now, 0, 200, seg, 0, 0);
	assert_true(kept(seg, HSEG_EMAIL, "demo@example.com"));
}

/* The sweep age only when it says something: while the list is fresh it
 * would only tick every 10 s in an idle world (it is said when asked for:
 * header_sweep_said, in the "refresh now" toast); stale, offline or
 * refused, it says how old the rows may be; never before a whole sweep. */
static void test_sweep_age_only_when_it_says_something(void **state)
{
	(void)state;
	double now = 1.7e9;
	fleet(now);
	struct header_seg seg[HSEG__N];
	snap.progress.sweep_ok = now - 47;
	header_account(&snap, &cfg, DS_FRESH, now, 0, 200, seg, 0, 0);
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	assert_null(strstr(seg[HSEG_REFRESHED].text, "sweep"));
	header_account(&snap, &cfg, DS_STALE, now, 0, 200, seg, 0, 0);
	assert_true(kept(seg, HSEG_REFRESHED, "sweep 40s ago"));
	header_account(&snap, &cfg, DS_OFFLINE, now, 0, 200, seg, 0, 0);
	assert_true(kept(seg, HSEG_REFRESHED, "sweep 40s ago"));
	header_account(&snap, &cfg, DS_AUTH, now, 0, 200, seg, 0, 0);
	assert_true(kept(seg, HSEG_REFRESHED, "sweep 40s ago"));
	snap.progress.partial = true; /* no whole sweep yet: no age, stale or not */
	header_account(&snap, &cfg, DS_STALE, now, 0, 200, seg, 0, 0);
	assert_null(strstr(seg[HSEG_REFRESHED].text, "sweep"));
	/* asked for */
	char b[64];
	assert_string_equal(header_sweep_said(&snap, now, b, sizeof b), "the first sweep is under way");
	snap.progress.partial = false;
	assert_string_equal(header_sweep_said(&snap, now, b, sizeof b), "the last whole sweep 40s ago");
	snap.progress.sweep_ok = now - 6 * 60 - 40;
	assert_string_equal(header_sweep_said(&snap, now, b, sizeof b), "the last whole sweep 6m ago");
	snap.fresh[SRC_INSTANCES].last_ok = 0; /* nothing yet */
	assert_string_equal(header_sweep_said(&snap, now, b, sizeof b), "");
	assert_string_equal(header_sweep_said(NULL, now, b, sizeof b), "");
}

static void test_refreshed_kept_while_stale(void **state)
{
	(void)state;
	double now = 1.7e9;
	fleet(now);
	/* offline: burn ?, no runway; refreshed still says when data last came */
	snap.fresh[SRC_INSTANCES].last_ok = now - 120;
	struct header_seg seg[HSEG__N];
	int w = header_account(&snap, &cfg, DS_OFFLINE, now, 0, 60, seg, 0, 0);
	assert_true(w <= 60);
	assert_true(kept(seg, HSEG_BURN, "burn ?"));
	assert_false(seg[HSEG_RUNWAY].keep);
	assert_true(kept(seg, HSEG_REFRESHED, "refreshed "));
	/* never loaded: "loading..." in its place */
	snap.fresh[SRC_INSTANCES].last_ok = 0;
	header_account(&snap, &cfg, DS_LOADING, now, 0, 60, seg, 0, 0);
	assert_true(kept(seg, HSEG_REFRESHED, "loading..."));
}

static void test_freshness_marker_goes_last(void **state)
{
	(void)state;
	const char *m[3];
	/* room for all: in display order */
	assert_int_equal(header_markers(DS_STALE, true, true, 80, m), 3);
	assert_string_equal(m[0], "STALE");
	assert_string_equal(m[1], "PAUSED");
	assert_string_equal(m[2], "READ-ONLY");
	/* room for two, then one: STALE / OFFLINE stays */
	assert_int_equal(header_markers(DS_STALE, true, true, 18, m), 2);
	assert_string_equal(m[0], "STALE");
	assert_string_equal(m[1], "PAUSED");
	assert_int_equal(header_markers(DS_OFFLINE, false, true, 12, m), 1);
	assert_string_equal(m[0], "OFFLINE");
	assert_int_equal(header_markers(DS_AUTH, false, true, 12, m), 1);
	assert_string_equal(m[0], "AUTH");
	/* fresh: no freshness marker, READ-ONLY shown */
	assert_int_equal(header_markers(DS_FRESH, false, true, 40, m), 1);
	assert_string_equal(m[0], "READ-ONLY");
	assert_int_equal(header_markers(DS_FRESH, false, false, 40, m), 0);
}

/* The burn and runway are summed once per published snapshot: asked again
 * for the same generation, the rows are not read again (a row changed in
 * place does not show); a new generation, or a hand-built snapshot
 * (generation 0), is summed. */
static void test_money_summed_once_per_snapshot(void **state)
{
	(void)state;
	double now = 1700000000;
	fleet(now);
	double burn, runway_h;
	snap.generation = 0;
	header_money(&snap, &burn, &runway_h);
	assert_float_equal(burn, 3 * 0.411, 1e-9);
	snap.generation = 41;
	header_money(&snap, &burn, &runway_h);
	double runway_41 = runway_h;
	xs[0].dph_total = 10.411; /* not seen under generation 41 */
	header_money(&snap, &burn, &runway_h);
	assert_float_equal(burn, 3 * 0.411, 1e-9);
	assert_float_equal(runway_h, runway_41, 1e-9);
	snap.generation = 42;
	header_money(&snap, &burn, &runway_h);
	assert_float_equal(burn, 10.411 + 2 * 0.411, 1e-9);
	snap.generation = 0;
	xs[0].dph_total = 0.411;
	header_money(&snap, &burn, &runway_h);
	assert_float_equal(burn, 3 * 0.411, 1e-9);
}

/* Idle instances (rules/watch.h): their $/h summed in "idle $X.XX/h" after
 * the burn, in the warning colour; none idle, no segment; it goes after
 * the counts when narrow, before the runway. */
static void test_idle_rate(void **state)
{
	(void)state;
	double now = 1.7e9;
	fleet(now);
	xs[0].gpu_util = 1;
	xs[1].gpu_util = 2;
	xs[2].gpu_util = 80;
	struct watch w;
	watch_init(&w);
	struct idle_conf c = { 5, 1800, 0, 0, NULL };
	struct watch_rise rise[4];
	assert_int_equal(watch_sample(&w, snap.instances, 3, &c, now, rise, 4), 0);
	assert_int_equal(watch_sample(&w, snap.instances, 3, &c, now + 300, rise, 4), 0);
	assert_true(watch_idle_rate(&w, snap.instances, 3, NULL) == 0);
	size_t n = 0;
	for (double t = now + 600; t <= now + 1800; t += 300)
		n += watch_sample(&w, snap.instances, 3, &c, t, rise, 4);
	assert_int_equal(n, 2);
	assert_int_equal(rise[0].id, xs[0].id);
	assert_int_equal(rise[0].flag, IDLE_F_IDLE);
	assert_int_equal(rise[1].id, xs[1].id);
	size_t k;
	double rate = watch_idle_rate(&w, snap.instances, 3, &k);
	assert_int_equal(k, 2);
	struct header_seg seg[HSEG__N];
	header_account(&snap, &cfg, DS_FRESH, now, 0, 200, seg, rate, 0);
	assert_true(kept(seg, HSEG_IDLE, "idle $0.82/h"));
	assert_int_equal(seg[HSEG_IDLE].role, ROLE_WARNING);
	header_account(&snap, &cfg, DS_FRESH, now, 0, 80, seg, rate, 0);
	assert_false(seg[HSEG_COUNTS].keep);
	assert_true(kept(seg, HSEG_IDLE, "idle $0.82/h"));
	header_account(&snap, &cfg, DS_FRESH, now, 0, 66, seg, rate, 0);
	assert_false(seg[HSEG_IDLE].keep);
	assert_true(seg[HSEG_BURN].keep);
	/* the service unreachable: no money figure at all */
	header_account(&snap, &cfg, DS_OFFLINE, now, 0, 200, seg, rate, 0);
	assert_false(seg[HSEG_IDLE].keep);
	/* one stops: it leaves the sum at once */
	xs[0].state = IS_STOPPED;
	watch_sample(&w, snap.instances, 3, &c, now + 2100, rise, 4);
	assert_float_equal(watch_idle_rate(&w, snap.instances, 3, &k), 0.411, 1e-9);
	assert_int_equal(k, 1);
	watch_free(&w);
}

/* Pending price increases: counted after the instance counts, shortened
 * to "N price ▲" before the counts go and dropped whole after them (before
 * idle, runway, burn, credit and refreshed), never cut. */
static void test_price_increases_shorten_then_go(void **state)
{
	(void)state;
	double now = 1.7e9;
	fleet(now);
	cfg.ascii = false;
	struct header_seg seg[HSEG__N];
	header_account(&snap, &cfg, DS_FRESH, now, 0, 200, seg, 0.5, 2);
	assert_true(kept(seg, HSEG_PRICES, "2 price increases"));
	assert_int_equal(seg[HSEG_PRICES].role, ROLE_WARNING);
	header_account(&snap, &cfg, DS_FRESH, now, 0, 200, seg, 0.5, 1);
	assert_true(kept(seg, HSEG_PRICES, "1 price increase"));
	assert_null(strstr(seg[HSEG_PRICES].text, "increases"));
	header_account(&snap, &cfg, DS_FRESH, now, 0, 200, seg, 0.5, 0);
	assert_false(seg[HSEG_PRICES].keep);
	/* every width from wide to narrow: the long form, then the short one,
	 * then none, each whole; the long form only with the counts, kept
	 * wherever the counts are, gone wherever idle is */
	int stage = 0, seen[3] = { 0, 0, 0 }, with_counts = 0;
	for (int width = 200; width >= 20; width--) {
		int w = header_account(&snap, &cfg, DS_FRESH, now, 0, width, seg, 0.5, 2);
		assert_true(w <= width);
		int now_stage = !seg[HSEG_PRICES].keep ? 2
				: strcmp(seg[HSEG_PRICES].text, "2 price \u25b2") == 0 ? 1 : 0;
		if (now_stage == 0)
			assert_string_equal(seg[HSEG_PRICES].text, "2 price increases");
		assert_true(now_stage >= stage);
		stage = now_stage;
		seen[stage]++;
		if (seg[HSEG_COUNTS].keep)
			assert_true(stage <= 1);
		if (stage == 0)
			assert_true(seg[HSEG_COUNTS].keep);
		with_counts += stage == 1 && seg[HSEG_COUNTS].keep;
		if (!seg[HSEG_IDLE].keep)
			assert_int_equal(stage, 2);
	}
	assert_true(seen[0] && seen[1] && seen[2]);
	assert_true(with_counts); /* the short form beside the counts at some width */
	/* 80 columns: the e-mail and the counts are gone, the short form stays */
	header_account(&snap, &cfg, DS_FRESH, now, 0, 80, seg, 0, 2);
	assert_false(seg[HSEG_COUNTS].keep);
	assert_true(kept(seg, HSEG_PRICES, "2 price \u25b2"));
	assert_true(seg[HSEG_RUNWAY].keep);
	/* ASCII: the row marker's fallback */
	cfg.ascii = true;
	header_account(&snap, &cfg, DS_FRESH, now, 0, 80, seg, 0, 2);
	assert_true(kept(seg, HSEG_PRICES, "2 price ^"));
}

/* The runway forecast line: its date (local time, here UTC), the runway
 * and the burn; none when nothing draws, spent at 0, "" when unknown. */
static void test_forecast_text(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	char buf[200];
	double now = 1795824000; /* Sat 28 Nov 2026 00:00 UTC */
	assert_string_equal(account_forecast_text(100, 4, 25, now, true, buf, sizeof buf),
			    "credit runs out about Sun 29 Nov 2026 01:00 (in 1d01h at $4.000/h)");
	assert_string_equal(account_forecast_text(100, 0, INFINITY, now, true, buf, sizeof buf),
			    "credit: no forecast, nothing draws on it");
	assert_string_equal(account_forecast_text(0, 4, 0, now, true, buf, sizeof buf), "credit spent");
	assert_string_equal(account_forecast_text(NAN, 4, 25, now, true, buf, sizeof buf), "");
	assert_string_equal(account_forecast_text(100, NAN, NAN, now, true, buf, sizeof buf), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refreshed_outlives_the_rest),
		cmocka_unit_test(test_counts_outlive_email),
		cmocka_unit_test(test_sweep_age_only_when_it_says_something),
		cmocka_unit_test(test_refreshed_kept_while_stale),
		cmocka_unit_test(test_freshness_marker_goes_last),
		cmocka_unit_test(test_money_summed_once_per_snapshot),
		cmocka_unit_test(test_idle_rate),
		cmocka_unit_test(test_price_increases_shorten_then_go),
		cmocka_unit_test(test_forecast_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
