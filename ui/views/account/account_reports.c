/* account_reports.c: the account view's machine reports section: the
 * problem reports of one machine (`M` on an instance, `:reports
 * MACHINE_ID`, `m` here), a subscription of their own.  UI thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "flow/acctops.h"
#include "state/model.h"
#include "base/util.h"
#include "view.h"
#include "views/account/account.h"

void account_reports_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	char when[64] = "-";
	const struct machine_report *r = &json_list_at(v->rep, const struct machine_report)[i];
	acctops_report_when(r->created_at, util_now(), when, sizeof when);
	snprintf(buf, n, "%-30.30s %-16.16s %s", when, r->problem ? r->problem : "",
		 r->message ? r->message : "");
}

static void list_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_reports_row(ctx, i, buf, n);
}

const struct list_ops account_reports_list = { .text = list_text };

/* Show the reports of machine id (a new subscription) in their section. */
void account_reports_show(struct app *a, struct acct_view *v, long id)
{
	if (v->rep_sub)
		jobs_unsubscribe(a->jobs, v->rep_sub);
	v->rep_sub = 0;
	json_list_free(v->rep);
	v->rep = NULL;
	list_set_count(&v->lst[SEC_REPORTS], 0);
	v->rep_err[0] = '\0';
	v->machine = id;
	v->sec = SEC_REPORTS;
	struct job_call c = { 0 };
	c.call = api_machine_reports(a->cfg, id);
	c.map = acct_map_reports;
	c.free_value = json_list_free;
	snprintf(c.what, sizeof c.what, "machine %ld reports", id);
	int sid = 0, rc = jobs_subscribe(a->jobs, &c, ACCOUNT_CADENCE, true, &sid);
	if (rc == JOBS_OK)
		v->rep_sub = sid;
	else
		snprintf(v->rep_err, sizeof v->rep_err, "%s", jobs_strerror(rc));
	a->dirty |= DIRTY_ALL;
}

/* m: ask for the machine whose reports are shown. */
void account_reports_open(struct acct_view *v)
{
	form_init(&v->fm, "Machine reports");
	char init[32] = "";
	if (v->machine)
		snprintf(init, sizeof init, "%ld", v->machine);
	form_add_number(&v->fm, "machine", "Machine id", init, 1, 1e15, true, true);
	v->modal = MOD_MACHINE;
}

/* The machine form's Enter: its reports. */
void account_reports_submit(struct app *a, struct acct_view *v)
{
	double id = 0;
	if (form_number(&v->fm, "machine", &id)) {
		pane_account_modal_close(v);
		account_reports_show(a, v, (long)id);
	}
}

void account_reports_title(const struct acct_view *v, char *buf, size_t n)
{
	if (!v->machine)
		snprintf(buf, n, "no machine chosen: M on an instance, m here, or :reports MACHINE_ID");
	else if (!v->rep)
		snprintf(buf, n, "machine %ld: fetching...", v->machine);
	else
		snprintf(buf, n, "machine %ld: %zu report%s", v->machine, v->rep->n,
			 v->rep->n == 1 ? "" : "s");
}

/* M needs an instance that has a machine. */
static const char *why_not_machine(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	if (x->machine_id > 0)
		return NULL;
	snprintf(buf, n, "instance %ld has no machine yet", x->id);
	return buf;
}

/* M: the selected instance's machine, in the account view's reports section. */
static void run_machine_reports(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	int idx = view_find(a, "account");
	if (!x || x->machine_id <= 0 || idx < 0)
		return;
	long machine = x->machine_id;
	view_show(a, idx, 0);
	account_reports_show(a, a->views[idx].st, machine);
}

const struct action_row account_reports_m_row = {
	{ .name = "machine-reports", .help = "the machine's problem reports (account view)",
	  .hint = "reports", .flags = AF_NEEDS_SEL, .why_not = why_not_machine,
	  .run = run_machine_reports },
	"M", NULL, NULL,
};
