/* account_billing.c: the account view's Billing section (`:billing
 * [DAYS]`): the last DAYS days (14 unless chosen, `g` or `:billing N`) of
 * invoices and charges as flow/acctbill.h fetches them, one call after
 * the other (invoices, then the charges day by day; the older
 * /users/me/invoices where /api/v1/invoices/ is absent), drawn as a
 * column chart of the spend per UTC day (the shared chart widget) over
 * the list, which `s` switches between the rows (date, kind, instance or
 * endpoint, amount: deposits negative), the totals per day, per week and
 * per instance.  Amounts are sums of the service's rows in thousandths of
 * a dollar, shown to the cent.  UI thread only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "widgets/chart.h"
#include "draw.h"
#include "flow/acctbill.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "views/account/account.h"

#define CHART_H 6 /* rows of the chart */

static const char *const mode_names[BMODE__COUNT] = {
	[BMODE_ROWS] = "rows", [BMODE_DAY] = "per day", [BMODE_WEEK] = "per week",
	[BMODE_INSTANCE] = "per instance",
};

static const char *weekday(double t)
{
	static const char *const wd[7] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
	return wd[(int)((acctbill_day(t) - acctbill_week(t)) / BILL_DAY) % 7];
}

/* Rebuild the totals of the rows fetched (after a fetch ends or s). */
static void rebuild(struct acct_view *v)
{
	free(v->btot);
	v->btot = NULL;
	v->nbtot = 0;
	free(v->bday);
	v->bday = xcalloc((size_t)v->bdays + 1, sizeof *v->bday);
	v->btotal = acctbill_per_day(v->brows, v->bn, v->blo, v->bdays, v->bday);
	size_t n = v->bn;
	switch (v->bmode) {
	case BMODE_ROWS: break;
	case BMODE_DAY: n = (size_t)v->bdays; break;
	case BMODE_WEEK: n = v->nbtot = acctbill_per_week(v->brows, v->bn, v->blo, v->bdays, &v->btot); break;
	case BMODE_INSTANCE:
		n = v->nbtot = acctbill_per_instance(v->brows, v->bn, v->blo, v->bdays, &v->btot);
		break;
	case BMODE__COUNT: break;
	}
	list_set_count(&v->lst[SEC_BILLING], v->bn || v->bmode == BMODE_DAY ? n : 0);
}

void account_billing_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	char m[32], date[32];
	switch (v->bmode) {
	case BMODE_ROWS: {
		if (i >= v->bn)
			break;
		const struct bill_row *r = &v->brows[i];
		acctbill_date(r->t, date, sizeof date);
		snprintf(buf, n, "%-10s  %-10s  %-36.36s %11s  %s", date, acctbill_kind_name(r->kind),
			 r->what, acctbill_money(r->mills, m, sizeof m), r->desc);
		return;
	}
	case BMODE_DAY: {
		/* newest first, as the rows */
		size_t d = (size_t)v->bdays - 1 - i;
		if (i >= (size_t)v->bdays || !v->bday)
			break;
		double t = v->blo + (double)d * BILL_DAY;
		acctbill_date(t, date, sizeof date);
		snprintf(buf, n, "%-10s  %-3s  %11s", date, weekday(t),
			 acctbill_money(v->bday[d], m, sizeof m));
		return;
	}
	case BMODE_WEEK:
		if (i >= v->nbtot)
			break;
		acctbill_date(v->btot[i].t, date, sizeof date);
		snprintf(buf, n, "week of %-10s  %11s", date, acctbill_money(v->btot[i].mills, m, sizeof m));
		return;
	case BMODE_INSTANCE:
		if (i >= v->nbtot)
			break;
		snprintf(buf, n, "%-10s  %-40.40s %11s", acctbill_kind_name(v->btot[i].kind), v->btot[i].what,
			 acctbill_money(v->btot[i].mills, m, sizeof m));
		return;
	case BMODE__COUNT:
		break;
	}
	snprintf(buf, n, "%s", "");
}

static void list_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_billing_row(ctx, i, buf, n);
}

/* kind=deposit, date=2026-11-2, what=... in the rows. */
static bool list_field(const void *ctx, size_t i, const char *col, size_t ncol, char *buf, size_t n)
{
	const struct acct_view *v = ctx;
	if (v->bmode != BMODE_ROWS || i >= v->bn)
		return false;
	const struct bill_row *r = &v->brows[i];
	if (ncol == 4 && !strncmp(col, "kind", 4))
		util_strlcpy(buf, acctbill_kind_name(r->kind), n);
	else if (ncol == 4 && !strncmp(col, "date", 4))
		acctbill_date(r->t, buf, n);
	else if (ncol == 4 && !strncmp(col, "what", 4))
		util_strlcpy(buf, r->what, n);
	else
		return false;
	return true;
}

const struct list_ops account_billing_list = { .text = list_text, .field = list_field };

const char *account_billing_head(const struct acct_view *v)
{
	switch (v->bmode) {
	case BMODE_ROWS:
		return "DATE        KIND        WHAT                                      AMOUNT  DESCRIPTION";
	case BMODE_DAY: return "DAY (UTC)   DAY        SPENT";
	case BMODE_WEEK: return "WEEK (MON-SUN UTC)         SPENT";
	case BMODE_INSTANCE: return "KIND        INSTANCE OR ENDPOINT                           SPENT";
	case BMODE__COUNT: break;
	}
	return "";
}

/* Issue the fetch's next call; the fetch ends when there is none. */
static void next_call(struct app *a, struct acct_view *v)
{
	struct job_call c = { 0 };
	acctbill_map_fn map;
	if (!acctbill_fetch_call(&v->bf, a->cfg, &c.call, &map)) {
		v->bfetching = false;
		/* newest first */
		free(v->brows);
		v->brows = v->bf.v;
		v->bn = v->bf.n;
		v->bf.v = NULL;
		v->bf.n = 0;
		for (size_t i = 1; i < v->bn; i++)
			for (size_t j = i; j > 0 && v->brows[j - 1].t < v->brows[j].t; j--) {
				struct bill_row t = v->brows[j];
				v->brows[j] = v->brows[j - 1];
				v->brows[j - 1] = t;
			}
		v->blo = v->bf.lo;
		v->bdays = v->bf.ndays;
		v->bold = v->bf.old;
		util_strlcpy(v->berr, v->bf.err, sizeof v->berr);
		v->bhave = true;
		rebuild(v);
		a->dirty |= DIRTY_ALL;
		return;
	}
	c.map = map;
	c.free_value = acctbill_page_free;
	snprintf(c.what, sizeof c.what, "billing");
	int rc = jobs_call(a->jobs, &c, &v->breq);
	if (rc != JOBS_OK) {
		util_strlcpy(v->berr, jobs_strerror(rc), sizeof v->berr);
		v->breq = 0;
		v->bfetching = false;
	}
}

void account_billing_fetch(struct app *a, struct acct_view *v, int days)
{
	if (v->breq)
		model_drop_result(a->m, v->breq);
	v->breq = 0;
	acctbill_fetch_free(&v->bf);
	double now = util_now(), lo;
	days = acctbill_range(now, days > 0 ? days : v->bwant > 0 ? v->bwant : BILL_DAYS_DEFAULT, &lo);
	v->bwant = days;
	acctbill_fetch_init(&v->bf, lo, days, now);
	v->bfetching = true;
	v->berr[0] = '\0';
	next_call(a, v);
}

bool account_billing_result(struct app *a, struct acct_view *v)
{
	struct call_result r;
	if (!v->breq || !model_take_result(a->m, v->breq, &r))
		return false;
	v->breq = 0;
	struct bill_page *p = r.outcome == CALL_OK ? r.value : NULL;
	if (p)
		r.value = NULL;
	else if (r.outcome == CALL_OK)
		apierr_protocol(&r.err, 200, "billing: empty answer");
	acctbill_fetch_put(&v->bf, p, p ? NULL : &r.err);
	model_call_result_free(&r);
	next_call(a, v);
	return true;
}

void account_billing_mode(struct acct_view *v)
{
	v->bmode = (enum bill_mode)(((int)v->bmode + 1) % BMODE__COUNT);
	rebuild(v);
}

void account_billing_open_range(struct acct_view *v)
{
	form_init(&v->fm, "Billing range");
	char init[16];
	snprintf(init, sizeof init, "%d", v->bwant > 0 ? v->bwant : BILL_DAYS_DEFAULT);
	form_add_number(&v->fm, "days", "Days (up to today)", init, 1, BILL_DAYS_MAX, true, true);
	v->modal = MOD_BILL_RANGE;
}

void account_billing_submit_range(struct app *a, struct acct_view *v)
{
	double d = 0;
	if (form_number(&v->fm, "days", &d)) {
		pane_account_modal_close(v);
		account_billing_fetch(a, v, (int)d);
	}
}

/* The chart and its summary over the list; returns the lines taken. */
int account_billing_draw_top(struct app *a, struct acct_view *v, int y, int x, int w, int ymax)
{
	char line[300], m1[32], m2[32], m3[32];
	int y0 = y;
	unsigned long norm = theme_attr(ROLE_NORMAL);
	if (y >= ymax)
		return 0;
	draw_fill(y, x - 1, w + 1, norm);
	if (!v->bhave) {
		snprintf(line, sizeof line, "billing: fetching the last %d days...",
			 v->bwant > 0 ? v->bwant : BILL_DAYS_DEFAULT);
		draw_text(y, x, w, line, theme_attr(ROLE_DIM));
		return 1;
	}
	long long today = v->bdays > 0 ? v->bday[v->bdays - 1] : 0;
	snprintf(line, sizeof line, "last %d days: spent %s, today %s, %s a day on average%s%s%s  [s: %s]",
		 v->bdays, acctbill_money(v->btotal, m1, sizeof m1), acctbill_money(today, m2, sizeof m2),
		 acctbill_money(v->bdays > 0 ? v->btotal / v->bdays : 0, m3, sizeof m3),
		 v->bold ? " (older invoices form)" : "", v->bfetching ? ", refreshing..." : "",
		 "", mode_names[v->bmode]);
	draw_text(y, x, w, line, theme_attr(ROLE_TITLE));
	y++;
	if (v->berr[0] && y < ymax) {
		draw_fill(y, x - 1, w + 1, norm);
		draw_text(y, x, w, v->berr, theme_attr(ROLE_ERROR));
		y++;
	}
	if (ymax - y < CHART_H + 8 || v->bdays <= 0)
		return y - y0; /* too short a screen: the list only */
	/* one day a column group: colw - 1 columns of its value and a gap */
	int lab = 9, avail = w - lab - 1;
	int colw = avail / v->bdays;
	if (colw > 4)
		colw = 4;
	if (colw < 1)
		return y - y0;
	size_t ncols = (size_t)(colw * v->bdays);
	double *vals = xcalloc(ncols + 1, sizeof *vals), *days = xcalloc((size_t)v->bdays + 1, sizeof *days);
	for (int d = 0; d < v->bdays; d++) {
		days[d] = (double)v->bday[d] / 1000.0;
		for (int k = 0; k < colw; k++)
			vals[d * colw + k] = colw > 1 && k == colw - 1 ? NAN : days[d];
	}
	double top = chart_nice_max(days, (size_t)v->bdays);
	for (int r = 0; r < CHART_H; r++) {
		draw_fill(y + r, x - 1, w + 1, norm);
		if (r == 0 || r == CHART_H - 1) {
			snprintf(line, sizeof line, "%8s", r == 0 ? acctbill_money(llround(top * 1000), m1, sizeof m1)
								  : "$0");
			draw_text(y + r, x, lab, line, theme_attr(ROLE_DIM));
		}
	}
	chart_draw(y, x + lab, CHART_H, vals, ncols, 0, top, a->cfg->ascii, theme_attr(ROLE_RUNNING));
	y += CHART_H;
	draw_fill(y, x - 1, w + 1, norm);
	char d0[32], d1[32];
	acctbill_date(v->blo, d0, sizeof d0);
	acctbill_date(v->blo + (v->bdays - 1) * BILL_DAY, d1, sizeof d1);
	snprintf(line, sizeof line, "%s", d0);
	draw_text(y, x + lab, w - lab, line, theme_attr(ROLE_DIM));
	int dw = (int)strlen(d1);
	if ((int)ncols > dw + (int)strlen(d0) + 1)
		draw_text(y, x + lab + (int)ncols - dw, dw, d1, theme_attr(ROLE_DIM));
	y++;
	free(vals);
	free(days);
	return y - y0;
}

void account_billing_free(struct app *a, struct acct_view *v)
{
	if (v->breq)
		model_drop_result(a->m, v->breq);
	v->breq = 0;
	acctbill_fetch_free(&v->bf);
	free(v->brows);
	free(v->btot);
	free(v->bday);
	v->brows = NULL;
	v->btot = NULL;
	v->bday = NULL;
}
