/* test_money.c: the money figures (money.c) and what the header and the
 * dialogs make of them: $/H is what a row costs now and the column sums to
 * the burn; cost so far is exact only when the data says so, else a range
 * with an upper bound; the prepay preview follows the service's rule; the
 * low-money levels and their crossings; the runway/credit limits in the
 * config and flags; AUTH, OFFLINE only when nothing answers, the late list
 * and its countdown text; the bid and prepay live notes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "widgets/dialog.h"
#include "header.h"
#include "dump/instcol.h"
#include "state/model.h"
#include "state/money.h"
#include "base/util.h"

/* An instance with only the money fields set. */
static struct instance inst(long id, enum inst_state st, double base, double storage)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = id;
	x.state = st;
	x.dph_base = base;
	x.storage_total_cost = storage;
	x.dph_total = base + storage;
	x.start_date = x.end_date = x.uptime_mins = x.gpu_util = x.min_bid = x.bid_price = NAN;
	x.label = x.gpu_name = x.image = x.actual_status = x.intended_status = (char *)"";
	x.public_ip = x.ssh_host = (char *)"";
	return x;
}

/* The level from a burn rate, as the header had it before the runway
 * counted prepaid credit: runway = credit / burn (0 when the credit is
 * gone, none when nothing burns, unknown without a burn figure). */
static enum money_level level(const struct money_limits *lim, double credit, double burn,
			      bool burn_known, bool at_least, bool *known, char *why, size_t n)
{
	double runway_h = !burn_known || !isfinite(burn) ? NAN
			  : burn > 0			 ? (credit > 0 ? credit / burn : 0)
							 : INFINITY;
	return money_level(lim, credit, runway_h, at_least, known, why, n);
}

static void test_row_rate_sums_to_burn(void **state)
{
	(void)state;
	struct instance v[6] = {
		inst(1, IS_RUNNING, 1.0, 0.1),  inst(2, IS_STOPPED, 2.0, 0.2),
		inst(3, IS_OFFLINE, 3.0, 0.3),  inst(4, IS_UNKNOWN, 4.0, 0.4),
		inst(5, IS_EXITED, 5.0, 0.5),   inst(6, IS_LOADING, 0.5, 0.05),
	};
	/* the GPU is billed while running (and loading); otherwise storage only */
	assert_true(fabs(money_row_rate(&v[0]) - 1.1) < 1e-9);
	assert_true(fabs(money_row_rate(&v[1]) - 0.2) < 1e-9);
	assert_true(fabs(money_row_rate(&v[2]) - 0.3) < 1e-9);
	assert_true(fabs(money_row_rate(&v[3]) - 0.4) < 1e-9);
	assert_true(fabs(money_row_rate(&v[4]) - 0.5) < 1e-9);
	assert_true(money_storage_only(&v[1]) && !money_storage_only(&v[0]));
	/* the $/H cells (their sort keys) add up to the header's burn */
	double sum = 0;
	char buf[64];
	for (int i = 0; i < 6; i++) {
		double key;
		instcol_format(IC_DPH, &v[i], NULL, 0, INSTCOL_ASCII, buf, sizeof buf, &key);
		sum += key;
	}
	const struct instance *pv[6] = { &v[0], &v[1], &v[2], &v[3], &v[4], &v[5] };
	assert_true(fabs(sum - money_burn_rate(pv, 6)) < 1e-9);
	assert_true(fabs(sum - (1.1 + 0.2 + 0.3 + 0.4 + 0.5 + 0.55)) < 1e-9);
	/* a stopped row's cell shows its storage, not the full price */
	instcol_format(IC_DPH, &v[1], NULL, 0, INSTCOL_ASCII, buf, sizeof buf, NULL);
	assert_string_equal(buf, "$0.200");
	/* unknown storage: "-" in the column, nothing in the burn */
	struct instance u = inst(7, IS_STOPPED, 1.0, NAN);
	assert_true(isnan(money_row_rate(&u)));
	instcol_format(IC_DPH, &u, NULL, 0, INSTCOL_ASCII, buf, sizeof buf, NULL);
	assert_string_equal(buf, "-");
	const struct instance *pu = &u;
	assert_true(money_burn_rate(&pu, 1) == 0);
	/* a running row without dph_total: base + storage */
	struct instance r = inst(8, IS_RUNNING, 1.0, 0.25);
	r.dph_total = NAN;
	assert_true(fabs(money_row_rate(&r) - 1.25) < 1e-9);
}

static void test_state_counts(void **state)
{
	(void)state;
	struct instance v[7] = {
		inst(1, IS_RUNNING, 1, 0),     inst(2, IS_PROVISIONING, 1, 0), inst(3, IS_REBOOTING, 1, 0),
		inst(4, IS_STOPPED, 1, 0),     inst(5, IS_EXITED, 1, 0),       inst(6, IS_OFFLINE, 1, 0),
		inst(7, IS_FROZEN, 1, 0),
	};
	struct state_counts c;
	const struct instance *pv[7] = { &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6] };
	model_count_states(pv, 7, &c);
	assert_int_equal(c.running, 1);
	assert_int_equal(c.booting, 2);
	assert_int_equal(c.stopped, 1);
	assert_int_equal(c.failed, 2);
	assert_int_equal(c.other, 1);
}

static void test_cost_so_far(void **state)
{
	(void)state;
	struct cost_estimate ce;
	/* running since its start (booted in 40 s): exact */
	struct instance x = inst(1, IS_RUNNING, 0.9, 0.1);
	x.start_date = 1000;
	x.uptime_mins = (7200.0 - 40.0) / 60.0;
	money_cost_so_far(&x, 1000 + 7200, &ce);
	assert_int_equal(ce.kind, COST_EXACT);
	assert_true(fabs(ce.storage - 0.2) < 1e-9);
	assert_true(fabs(ce.lo - (0.2 + 0.9 * 7160.0 / 3600.0)) < 1e-9);
	assert_true(ce.hi == ce.lo);
	/* stopped: storage is sure, the GPU time is not: a range with an upper bound */
	struct instance s = inst(2, IS_STOPPED, 0.9, 0.1);
	s.start_date = 1000;
	money_cost_so_far(&s, 1000 + 7200, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	assert_true(fabs(ce.lo - 0.2) < 1e-9);
	assert_true(fabs(ce.hi - 2.0) < 1e-9);
	/* running, but this run is younger than the instance: a range */
	x.uptime_mins = 60;
	money_cost_so_far(&x, 1000 + 7200, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	assert_true(fabs(ce.lo - (0.2 + 0.9)) < 1e-9);
	assert_true(fabs(ce.hi - 2.0) < 1e-9);
	/* no start date or no price: unknown */
	s.start_date = NAN;
	money_cost_so_far(&s, 5000, &ce);
	assert_int_equal(ce.kind, COST_UNKNOWN);
	struct instance p = inst(3, IS_STOPPED, NAN, NAN);
	p.dph_total = NAN;
	p.start_date = 1000;
	money_cost_so_far(&p, 5000, &ce);
	assert_int_equal(ce.kind, COST_UNKNOWN);
}

/* The boundaries of the cost so far: a stopped record that still carries
 * the uptime of its last run, a boot exactly the allowance long, and a
 * start_date of 0 (no start, not 1970). */
static void test_cost_so_far_boundaries(void **state)
{
	(void)state;
	struct cost_estimate ce;
	/* stopped, with uptime_mins left from its last run: the GPU is not
	 * billed now, so that uptime proves nothing: storage, as a range */
	struct instance s = inst(1, IS_STOPPED, 0.9, 0.1);
	s.start_date = 1000;
	s.uptime_mins = 120;
	money_cost_so_far(&s, 1000 + 7200, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	assert_true(ce.gpu_known_s == 0);
	assert_true(fabs(ce.lo - 0.2) < 1e-9);
	assert_true(fabs(ce.hi - 2.0) < 1e-9);
	/* running, uptime exactly the boot allowance (600 s) shorter than its age: exact */
	struct instance x = inst(2, IS_RUNNING, 0.9, 0.1);
	x.start_date = 1000;
	x.uptime_mins = (7200.0 - 600.0) / 60.0;
	money_cost_so_far(&x, 1000 + 7200, &ce);
	assert_int_equal(ce.kind, COST_EXACT);
	assert_true(fabs(ce.lo - (0.2 + 0.9 * 6600.0 / 3600.0)) < 1e-9);
	assert_true(ce.hi == ce.lo);
	/* one minute more of boot: a range */
	x.uptime_mins -= 1;
	money_cost_so_far(&x, 1000 + 7200, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	/* start_date 0: unknown, not counted from 1970 */
	x.start_date = 0;
	x.uptime_mins = 60;
	money_cost_so_far(&x, 1.7e9, &ce);
	assert_int_equal(ce.kind, COST_UNKNOWN);
	assert_true(isnan(ce.lo) && isnan(ce.hi));
	/* a start in the future (clock skew): unknown */
	x.start_date = 2000;
	money_cost_so_far(&x, 1500, &ce);
	assert_int_equal(ce.kind, COST_UNKNOWN);
}

/* A figure exactly at its alarm limit is a warning, not the alarm. */
static void test_levels_at_the_limits(void **state)
{
	(void)state;
	bool known;
	char why[120];
	struct money_limits cl = { 0, 0, 10, 2 };
	assert_int_equal(level(&cl, 2, 0, true, false, &known, why, sizeof why), ML_WARN);
	assert_non_null(strstr(why, "credit $2.00 under $10.00"));
	assert_int_equal(level(&cl, 1.99, 0, true, false, &known, why, sizeof why), ML_ALARM);
	/* exactly at the warning limit: OK */
	assert_int_equal(level(&cl, 10, 0, true, false, &known, why, sizeof why), ML_OK);
	assert_string_equal(why, "");
	/* $4 at $2/h is a runway of exactly 2 h = runway_alarm_h */
	struct money_limits rl = { 24, 2, 0, 0 };
	assert_int_equal(level(&rl, 4, 2, true, false, &known, why, sizeof why), ML_WARN);
	assert_non_null(strstr(why, "under 1d00h"));
	assert_int_equal(level(&rl, 3.9, 2, true, false, &known, why, sizeof why), ML_ALARM);
	assert_non_null(strstr(why, "under 2h00m"));
	/* exactly at runway_warn_h: OK */
	assert_int_equal(level(&rl, 48, 2, true, false, &known, why, sizeof why), ML_OK);
	/* no credit left at all: a runway of 0, the alarm */
	assert_int_equal(level(&rl, 0, 2, true, false, &known, why, sizeof why), ML_ALARM);
	/* credit and runway both low: the credit's reason when it is the worse */
	struct money_limits both = { 24, 0, 10, 5 };
	assert_int_equal(level(&both, 3, 0.01, true, false, &known, why, sizeof why),
			 ML_ALARM);
	assert_non_null(strstr(why, "credit $3.00 under $5.00"));
	/* a level with no room for the reason */
	assert_int_equal(level(&both, 3, 0.01, true, false, &known, why, 0), ML_ALARM);
}

/* Prices known only in part, uptimes that say nothing, bad amounts, burns
 * that are no figure. */
static void test_money_edges(void **state)
{
	(void)state;
	/* a running row with no total: base + storage, or base alone; none: NAN */
	struct instance r = inst(1, IS_RUNNING, 1.0, NAN);
	r.dph_total = NAN;
	assert_true(fabs(money_row_rate(&r) - 1.0) < 1e-9);
	r.dph_base = NAN;
	assert_true(isnan(money_row_rate(&r)));
	/* cost so far: storage or GPU price derived from the total */
	struct cost_estimate ce;
	struct instance x = inst(2, IS_STOPPED, 0.9, NAN);
	x.dph_total = 1.0;
	x.start_date = 1000;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	assert_true(fabs(ce.storage - 0.1) < 1e-9);
	assert_true(fabs(ce.hi - 1.0) < 1e-9);
	x = inst(3, IS_STOPPED, NAN, 0.1);
	x.dph_total = 1.0;
	x.start_date = 1000;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_true(fabs(ce.hi - 1.0) < 1e-9);
	/* storage alone: the GPU price is not known */
	x = inst(6, IS_STOPPED, NAN, 0.1);
	x.dph_total = NAN;
	x.start_date = 1000;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_int_equal(ce.kind, COST_UNKNOWN);
	/* only the total: neither part is known */
	x = inst(4, IS_STOPPED, NAN, NAN);
	x.dph_total = 1.0;
	x.start_date = 1000;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_int_equal(ce.kind, COST_UNKNOWN);
	/* running with no uptime, a zero uptime, or one longer than the age */
	x = inst(5, IS_RUNNING, 0.9, 0.1);
	x.start_date = 1000;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	assert_true(ce.gpu_known_s == 0);
	x.uptime_mins = 0;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_int_equal(ce.kind, COST_RANGE);
	x.uptime_mins = 120;
	money_cost_so_far(&x, 1000 + 3600, &ce);
	assert_int_equal(ce.kind, COST_EXACT);
	assert_true(ce.gpu_known_s == 3600);
	assert_true(fabs(ce.lo - 1.0) < 1e-9);
	/* prepay: no amount, no price */
	double m, d;
	assert_false(money_prepay_preview(NAN, 0.5, &m, &d));
	assert_false(money_prepay_preview(10, 0, &m, &d));
	assert_false(money_prepay_preview(10, -1, &m, &d));
	assert_true(isnan(m) && isnan(d));
	/* a burn said to be known that is no number: nothing to say of runway */
	struct money_limits lim = { 24, 2, 0, 0 };
	bool known;
	char why[120];
	assert_int_equal(level(&lim, 100, NAN, true, false, &known, why, sizeof why), ML_OK);
	assert_false(known);
	/* a lower-bound burn of nothing: an upper bound says nothing */
	level(&lim, 100, 0, true, true, &known, why, sizeof why);
	assert_false(known);
	/* ... but credit under its limit is sure whatever the burn */
	struct money_limits cl = { 24, 2, 10, 1 };
	assert_int_equal(level(&cl, 5, 0.01, true, true, &known, why, sizeof why), ML_WARN);
	assert_true(known);
	assert_non_null(strstr(why, "credit $5.00 under $10.00"));
}

static void test_prepay_preview(void **state)
{
	(void)state;
	double m, d;
	/* $0.50/h is $360 a month */
	assert_true(money_prepay_preview(360, 0.5, &m, &d));
	assert_true(fabs(m - 1.0) < 1e-9);
	assert_true(fabs(d - 0.4 / 12.0) < 1e-9);
	assert_true(money_prepay_preview(360 * 12, 0.5, &m, &d));
	assert_true(fabs(d - 0.4) < 1e-9);
	assert_true(money_prepay_preview(360 * 30, 0.5, &m, &d));
	assert_true(fabs(d - 0.4) < 1e-9); /* at most 40% */
	assert_false(money_prepay_preview(0, 0.5, &m, &d));
	assert_false(money_prepay_preview(10, NAN, &m, &d));
	/* the dialog's live note, as typed */
	char note[256];
	dialog_prepay_preview("360", 0.5, note, sizeof note);
	assert_non_null(strstr(note, "1.0 months"));
	assert_non_null(strstr(note, "discount 3.3%"));
	dialog_prepay_preview("", 0.5, note, sizeof note);
	assert_non_null(strstr(note, "type an amount"));
	dialog_prepay_preview("abc", 0.5, note, sizeof note);
	assert_non_null(strstr(note, "not a number"));
	/* it follows the keys */
	static struct dialog dl;
	dialog_input(&dl, 5, 42, "Prepay", "amount:", "", 20);
	dialog_set_preview(&dl, dialog_prepay_preview, 0.5);
	assert_non_null(strstr(dl.note, "type an amount"));
	dialog_key(&dl, '7');
	dialog_key(&dl, '2');
	dialog_key(&dl, '0');
	assert_non_null(strstr(dl.note, "2.0 months"));
	assert_non_null(strstr(dl.note, "discount 6.7%"));
}

static void test_bid_preview(void **state)
{
	(void)state;
	char note[256];
	dialog_bid_preview("0.05", 0.1, note, sizeof note);
	assert_non_null(strstr(note, "under min_bid $0.100/h"));
	assert_non_null(strstr(note, "outbid and stopped"));
	dialog_bid_preview("0.2", 0.1, note, sizeof note);
	assert_null(strstr(note, "outbid"));
	dialog_bid_preview("0.05", NAN, note, sizeof note);
	assert_string_equal(note, "");
}

static void test_levels(void **state)
{
	(void)state;
	struct money_limits lim = { 24, 2, 0, 0 };
	bool known;
	char why[120];
	/* $100 at $2/h: 50 h */
	assert_int_equal(level(&lim, 100, 2, true, false, &known, why, sizeof why), ML_OK);
	assert_true(known);
	/* 10 h: warn; 1 h: alarm */
	assert_int_equal(level(&lim, 20, 2, true, false, &known, why, sizeof why), ML_WARN);
	assert_non_null(strstr(why, "runway 10h00m under 1d00h"));
	assert_int_equal(level(&lim, 2, 2, true, false, &known, why, sizeof why), ML_ALARM);
	/* a lower-bound burn: an upper-bound runway says something only when under */
	level(&lim, 100, 2, true, true, &known, why, sizeof why);
	assert_false(known);
	assert_int_equal(level(&lim, 2, 2, true, true, &known, why, sizeof why), ML_ALARM);
	assert_true(known);
	assert_non_null(strstr(why, "at most"));
	/* no credit or no burn figure: nothing to say */
	level(&lim, NAN, 2, true, false, &known, why, sizeof why);
	assert_false(known);
	level(&lim, 100, 0, false, false, &known, why, sizeof why);
	assert_false(known);
	/* nothing burns: no runway limit, but credit limits apply */
	assert_int_equal(level(&lim, 1, 0, true, false, &known, why, sizeof why), ML_OK);
	assert_true(known);
	struct money_limits cl = { 0, 0, 10, 1 };
	assert_int_equal(level(&cl, 5, 0, true, false, &known, why, sizeof why), ML_WARN);
	assert_non_null(strstr(why, "credit $5.00 under $10.00"));
	assert_int_equal(level(&cl, 0.5, 0, true, false, &known, why, sizeof why), ML_ALARM);
	/* crossings: once each way */
	struct money_watch w = { ML_OK, false };
	assert_int_equal(money_watch_update(&w, ML_OK, true), 0);
	assert_int_equal(money_watch_update(&w, ML_WARN, true), 1);
	assert_int_equal(money_watch_update(&w, ML_WARN, true), 0);
	assert_int_equal(money_watch_update(&w, ML_WARN, false), 0);
	assert_int_equal(money_watch_update(&w, ML_ALARM, true), 1);
	assert_int_equal(money_watch_update(&w, ML_ALARM, true), 0);
	assert_int_equal(money_watch_update(&w, ML_OK, true), -1);
	/* already low at start: that is a crossing */
	struct money_watch w2 = { ML_OK, false };
	assert_int_equal(money_watch_update(&w2, ML_ALARM, true), 1);
}

static void test_config_limits(void **state)
{
	(void)state;
	char dir[] = "/tmp/rentop-test-money-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("HOME", dir, 1);
	setenv("XDG_CONFIG_HOME", dir, 1);
	struct config c;
	char err[300];
	char *av0[] = { "rentop" };
	assert_int_equal(config_load(&c, 1, av0, err, sizeof err), 0);
	assert_true(c.runway_warn_h == 24 && c.runway_alarm_h == 2);
	assert_true(c.credit_warn == 0 && c.credit_alarm == 0);
	config_free(&c);
	char *av[] = { "rentop", "--runway-warn", "48", "--runway-alarm=6", "--credit-warn", "20",
		       "--credit-alarm", "5" };
	assert_int_equal(config_load(&c, 8, av, err, sizeof err), 0);
	assert_true(c.runway_warn_h == 48 && c.runway_alarm_h == 6);
	assert_true(c.credit_warn == 20 && c.credit_alarm == 5);
	config_free(&c);
	char *bad[] = { "rentop", "--runway-warn", "-1" };
	assert_int_equal(config_load(&c, 3, bad, err, sizeof err), 2);
	assert_non_null(strstr(err, "--runway-warn: must be hours"));
	config_free(&c);
	memset(&c, 0, sizeof c);
	c.base_url = xstrdup("x");
	assert_int_equal(config_parse_text(&c, "runway_warn = 12\ncredit_alarm = 3.5\n", "config", err,
					   sizeof err), 0);
	assert_true(c.runway_warn_h == 12 && c.credit_alarm == 3.5);
	assert_int_equal(config_parse_text(&c, "credit_warn = lots\n", "config", err, sizeof err), 2);
	assert_non_null(strstr(err, "credit_warn must be dollars"));
	config_free(&c);
	rmdir(dir);
}

static void test_header_states(void **state)
{
	(void)state;
	static struct snapshot s;
	char err[200];
	memset(&s, 0, sizeof s);
	s.fresh[SRC_INSTANCES].last_ok = 990;
	s.fresh[SRC_USER].last_ok = 990;
	/* the key refused: AUTH, not STALE, with the text */
	s.auth_failed = true;
	s.fresh[SRC_INSTANCES].last_err_at = 995;
	s.fresh[SRC_INSTANCES].err_status = 401;
	strcpy(s.fresh[SRC_INSTANCES].err, "the API key from VAST_API_KEY was refused (401)");
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_AUTH);
	assert_non_null(strstr(err, "VAST_API_KEY"));
	s.auth_failed = false;
	/* the list times out while the balance still answers: STALE, not OFFLINE */
	s.fresh[SRC_INSTANCES].err_status = 0;
	strcpy(s.fresh[SRC_INSTANCES].err, "timed out");
	s.fresh[SRC_USER].last_ok = 998;
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_STALE);
	/* nothing answers at all: OFFLINE */
	s.fresh[SRC_USER].last_err_at = 999;
	s.fresh[SRC_USER].err_status = 0;
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_OFFLINE);
}

static void test_list_wait(void **state)
{
	(void)state;
	static struct snapshot s;
	struct list_wait w;
	char buf[200];
	memset(&s, 0, sizeof s);
	struct freshness *f = &s.fresh[SRC_INSTANCES];
	f->last_ok = f->last_attempt = 1000;
	/* answered recently: not late */
	assert_false(header_list_wait(&s, 1005, 10, 30, &w));
	/* a request out for less than an interval: not late; for more: late */
	f->in_flight = true;
	f->last_attempt = 1010;
	assert_false(header_list_wait(&s, 1015, 10, 30, &w));
	assert_true(header_list_wait(&s, 1025, 10, 30, &w));
	assert_true(w.in_flight && w.since == 1000 && w.next == 1040);
	assert_string_equal(header_wait_text(&w, 1025, buf, sizeof buf),
			    "instances: no answer for 25 s, this try gives up in 15 s");
	/* it failed: the countdown to the retry */
	f->in_flight = false;
	f->last_err_at = 1040;
	f->retry_at = 1048;
	assert_true(header_list_wait(&s, 1040, 10, 30, &w));
	assert_false(w.in_flight);
	assert_string_equal(header_wait_text(&w, 1040, buf, sizeof buf),
			    "instances: no answer for 40 s, retrying in 8 s");
	assert_string_equal(header_wait_text(&w, 1050, buf, sizeof buf),
			    "instances: no answer for 50 s, retrying now");
	/* an answer: no longer late */
	f->last_ok = f->last_attempt = 1052;
	f->last_err_at = 0;
	assert_false(header_list_wait(&s, 1053, 10, 30, &w));
}

/* Runway with prepaid instances: an instance pays from its own prepaid credit
 * first (at its discount) and draws on the account only once that is spent,
 * so a prepay never shortens the account's runway by its amount. */
static void test_runway_prepaid(void **state)
{
	(void)state;
	struct instance a = inst(1, IS_RUNNING, 0.9, 0.1), b = inst(2, IS_RUNNING, 2.9, 0.1);
	const struct instance *v[] = { &a, &b };
	/* nothing prepaid: credit / burn */
	assert_float_equal(money_runway_h(v, 2, 100), 25.0, 1e-9);
	assert_true(isnan(money_runway_h(v, 2, NAN)));
	assert_float_equal(money_runway_h(v, 2, 0), 0.0, 0);
	assert_float_equal(money_runway_h(v, 2, -5), 0.0, 0);
	/* b ($3/h) holds $150 of prepaid credit: 50 h on it; the account pays
	 * $1/h for 50 h, then $4/h: $120 lasts 50 h + $70 / 4 */
	b.credit_balance = 150;
	assert_float_equal(money_runway_h(v, 2, 120), 50.0 + 70.0 / 4.0, 1e-9);
	/* $40 is gone before b's credit is: 40 h */
	assert_float_equal(money_runway_h(v, 2, 40), 40.0, 1e-9);
	/* a 20 % discount: the $150 pays $2.40 of each $3 hour, 62.5 h */
	b.credit_discount = 0.2;
	assert_float_equal(money_runway_h(v, 2, 120), 62.5 + 57.5 / 4.0, 1e-9);
	b.credit_discount = NAN; /* not sent: no discount */
	assert_float_equal(money_runway_h(v, 2, 120), 50.0 + 70.0 / 4.0, 1e-9);
	/* every instance prepaid: the account waits for the first to run out */
	a.credit_balance = 10; /* $1/h: 10 h */
	assert_float_equal(money_runway_h(v, 2, 0), 10.0, 1e-9);
	assert_float_equal(money_runway_h(v, 2, 40), 50.0, 1e-9); /* 40 h at $1 */
	/* a stopped instance pays storage only, from its credit too */
	struct instance c = inst(3, IS_STOPPED, 0.5, 0.5);
	c.credit_balance = 1;
	const struct instance *w[] = { &c };
	assert_float_equal(money_runway_h(w, 1, 10), 1.0 / 0.5 + 10.0 / 0.5, 1e-9);
	/* nothing draws: no runway limit */
	assert_true(isinf(money_runway_h(NULL, 0, 100)));
	/* rows with no price or a zero one draw nothing */
	struct instance z = inst(4, IS_RUNNING, 0, 0), u = inst(5, IS_RUNNING, NAN, NAN);
	const struct instance *zu[] = { &z, &u };
	assert_true(isinf(money_runway_h(zu, 2, 100)));
	/* a discount outside 0-1 is no discount */
	struct instance p1 = inst(6, IS_RUNNING, 0.9, 0.1), p2 = inst(7, IS_RUNNING, 1.9, 0.1);
	p1.credit_balance = 10;
	p1.credit_discount = 1.5;
	const struct instance *one[] = { &p1 };
	assert_float_equal(money_runway_h(one, 1, 0), 10.0, 1e-9);
	p1.credit_discount = -0.2;
	assert_float_equal(money_runway_h(one, 1, 0), 10.0, 1e-9);
	/* two prepaid rows listed in the reverse of their run-out order:
	 * p2 ($2/h) runs out at 5 h, p1 ($1/h) at 10 h; $20 lasts 5 h at
	 * nothing, 5 h at $2 (10), then $10 at $3 */
	p1.credit_discount = 0;
	p2.credit_balance = 10;
	const struct instance *rev[] = { &p1, &p2 };
	assert_float_equal(money_runway_h(rev, 2, 20), 10.0 + 10.0 / 3.0, 1e-9);
	/* the level from a runway: the prepaid fleet is not a false alarm */
	struct money_limits lim = { 24, 2, 0, 0 };
	bool known;
	char why[120];
	a.credit_balance = 0;
	b.credit_balance = 300; /* 100 h of b */
	assert_int_equal(money_level(&lim, 30, money_runway_h(v, 2, 30), false, &known,
					    why, sizeof why),
			 ML_OK); /* 30 h at $1/h, where credit / burn said 7.5 h */
	assert_true(known);
	assert_int_equal(level(&lim, 30, 4, true, false, &known, why, sizeof why), ML_WARN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_rate_sums_to_burn),
		cmocka_unit_test(test_state_counts),
		cmocka_unit_test(test_cost_so_far),
		cmocka_unit_test(test_cost_so_far_boundaries),
		cmocka_unit_test(test_levels_at_the_limits),
		cmocka_unit_test(test_money_edges),
		cmocka_unit_test(test_prepay_preview),
		cmocka_unit_test(test_bid_preview),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_config_limits),
		cmocka_unit_test(test_header_states),
		cmocka_unit_test(test_list_wait),
		cmocka_unit_test(test_runway_prepaid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
