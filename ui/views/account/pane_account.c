/* pane_account.c: the account view (`5`, `:account`): the account side of
 * SPEC.md in sections, each a table with its own key context (keys, hints
 * and help follow the section shown): Overview (the user record, burn rate
 * and runway as the header says them, 2FA status and key counts; never the
 * user's api_key), Env vars (names, values as a fixed mask whatever their
 * length; add, edit, delete; v reads one value now and shows it on its row
 * until the selection moves or 10 s pass, wiped then: the service may send
 * it masked, and then that is said), API keys (id, name, scope
 * summary, team; create with a scope picker, the new key shown once; delete,
 * twice confirmed when it is the key rentop runs with), SSH keys (type,
 * comment, SHA256 fingerprint, created; add, asking first when the key is
 * already listed; delete), Team roles (name,
 * permission categories; create, edit with the scope picker, delete) and
 * Machine reports (a machine's problem reports: `M` on an instance,
 * `:reports MACHINE_ID`, `m` here).
 *
 * Every list is a jobs_subscribe fetch at the account cadence (30 s) while
 * the view is shown, re-fetched at once after each change.  Changes are
 * at-most-once actions (jobs_call, action = true), AF_MUTATES: hidden and
 * refused under --read-only.  A change whose answer was lost locks its
 * form (form_lost_*: nothing is sent again from it), or a delete's
 * dialog (dialog_lost_*), until the list it changes, read again, says
 * whether it took effect.  The 2FA view (t) opens over this one; when it
 * closes the 2FA status is read again (the backup codes left).  Secrets: an env value
 * is typed into a secret field (C-r shows it), lives only in the form
 * (wiped when it closes) and the request body (wiped by api_call_free).
 * A new API key lives in the
 * mapper's value (wiped when freed) and in this view's state while its
 * dialog is open (wiped when it closes); it reaches the screen only in that
 * dialog, the terminal's clipboard only on `y` (OSC 52) and a new 0600 file
 * only on `w`; never a toast, the event log or --log.  To tell whether a
 * key about to be deleted is rentop's own, its value is fetched, compared
 * in memory with the key in use (auth_redact) and wiped.
 *
 * This file is the shell: the section bar, each section's list (the list
 * widget moves, pages and filters it), the subscriptions, the keys and
 * the modal dispatch; each section lives in its own account_*.c
 * (account.h).  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/api_account.h"
#include "app.h"
#include "base/config.h"
#include "draw.h"
#include "flow/acctops.h"
#include "flow/tfaflow.h"
#include "flow/acctteam.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "views/account/account.h"
#include "views/account/pane_account.h"

/* The sections: their tab, their key context and help heading, their
 * column heads, their rows and their list's ops (the overview: none). */
static const struct section_desc {
	const char *name, *ctx, *heading, *head;
	void (*row)(const struct acct_view *v, size_t i, char *buf, size_t n);
	const struct list_ops *ops;
} secs[SEC__COUNT] = {
	[SEC_OVERVIEW] = { "Overview", NULL, NULL, "", NULL, NULL },
	[SEC_ENV] = { "Env vars", "account-env", "Account view: Env vars",
		      "NAME                             VALUE", account_env_row, &account_env_list },
	[SEC_APIKEYS] = { "API keys", "account-apikeys", "Account view: API keys",
			  "ID       NAME                     TEAM       SCOPE", account_keys_row,
			  &account_keys_list },
	[SEC_SSH] = { "SSH keys", "account-ssh", "Account view: SSH keys",
		      "ID       TYPE         COMMENT              CREATED     FINGERPRINT",
		      account_ssh_row, &account_ssh_list },
	[SEC_ROLES] = { "Team roles", "account-roles", "Account view: Team roles",
			"NAME                     PERMISSIONS", account_roles_row, &account_roles_list },
	[SEC_REPORTS] = { "Machine reports", "account-reports", "Account view: Machine reports",
			  "WHEN (UTC)                     PROBLEM          MESSAGE", account_reports_row,
			  &account_reports_list },
	[SEC_TEAM] = { "Team", "account-team", "Account view: Team",
		       "ID        USERNAME       NAME                   E-MAIL                         ROLE",
		       account_team_row, &account_team_list },
	[SEC_AUDIT] = { "Audit log", "account-audit", "Account view: Audit log (:audit)", /* no keys of its own: `/` */
			"WHEN (UTC)        WHO                      ADDRESS         WHAT                                 ARGUMENTS",
			account_audit_row, &account_audit_list },
	[SEC_BILLING] = { "Billing", "account-billing", "Account view: Billing", "", account_billing_row,
			  &account_billing_list },
};
/* The key context of each section (process-wide, like the action table);
 * 0 for the overview: the view's own. */
static int sec_ctx[SEC__COUNT];

/* The lists the view subscribes to: one row a list_kind. */
static const struct list_desc {
	const char *what;                         /* the job's words */
	struct api_call (*call)(const struct config *c);
	jobs_map_fn map;
	jobs_free_fn free_value;
	enum section sec;                         /* the section it fills, SEC_OVERVIEW: none */
} lists[L__COUNT] = {
	[L_ENV] = { "env vars", api_env_list, acct_map_env, json_list_free, SEC_ENV },
	[L_APIKEYS] = { "API keys", api_apikeys_list, acct_map_apikeys, json_list_free,
			SEC_APIKEYS },
	[L_SSH] = { "SSH keys", api_ssh_list, acct_map_ssh, json_list_free, SEC_SSH },
	[L_ROLES] = { "team roles", api_roles_list, acct_map_roles, json_list_free, SEC_ROLES },
	[L_TFA] = { "2FA status", api_tfa_status, tfaflow_map_status, tfaflow_status_free,
		    SEC_OVERVIEW },
	[L_MEMBERS] = { "team members", api_members_list, acctteam_map_members, json_list_free,
			SEC_TEAM },
	[L_AUDIT] = { "audit log", api_audit_logs, acctteam_map_audit, json_list_free, SEC_AUDIT },
};

/* ---- subscriptions ------------------------------------------------------------ */

/* Subscribe to every list (first show). */
static void subscribe_all(struct app *a, struct acct_view *v)
{
	for (int k = 0; k < L__COUNT; k++) {
		struct job_call c = { 0 };
		c.call = lists[k].call(a->cfg);
		c.map = lists[k].map;
		c.free_value = lists[k].free_value;
		snprintf(c.what, sizeof c.what, "%s", lists[k].what);
		int id = 0;
		if (jobs_subscribe(a->jobs, &c, ACCOUNT_CADENCE, true, &id) == JOBS_OK)
			v->sub[k] = id;
	}
}

/* Shown: re-fetch every list now (after a change, or on show; a hidden
 * subscription made visible is due at once); hidden: pause them. */
void pane_account_refresh(struct app *a, struct acct_view *v, bool visible)
{
	for (int k = 0; k <= L__COUNT; k++) {
		int sub = k < L__COUNT ? v->sub[k] : v->rep_sub;
		if (!sub)
			continue;
		if (visible)
			jobs_set_visible(a->jobs, sub, false);
		jobs_set_visible(a->jobs, sub, visible);
	}
}

/* The 2FA view (t) opens over this one, and what it changes (backup codes
 * regenerated, a method added or removed) shows in the overview: once it
 * has closed, the 2FA status is read again (its subscription made due). */
static void tfa_closed_check(struct app *a, struct acct_view *v)
{
	bool base = a->view >= 0 && a->view < a->nviews && view_is(a, &a->views[a->view], "account");
	if (base && a->overlay >= 0 && view_is(a, &a->views[a->overlay], "tfa")) {
		v->under_tfa = true;
		return;
	}
	if (!v->under_tfa || a->overlay >= 0)
		return;
	v->under_tfa = false;
	if (base && v->sub[L_TFA]) {
		jobs_set_visible(a->jobs, v->sub[L_TFA], false);
		jobs_set_visible(a->jobs, v->sub[L_TFA], true);
	}
}

/* ---- rows --------------------------------------------------------------------- */

static size_t section_rows(const struct acct_view *v, enum section s)
{
	for (int k = 0; k < L__COUNT; k++)
		if (s != SEC_OVERVIEW && lists[k].sec == s)
			return json_list_count(LIST(v, k));
	if (s == SEC_BILLING)
		return v->bmode == BMODE_ROWS ? v->bn : v->bn ? v->lst[SEC_BILLING].n : 0;
	return s == SEC_REPORTS ? json_list_count(v->rep) : 0;
}

size_t pane_account_sel(const struct acct_view *v, enum section s)
{
	return s != SEC_OVERVIEW ? list_selected(&v->lst[s]) : LIST_NONE;
}

const void *pane_account_selected(const struct acct_view *v, enum section s)
{
	if (s == SEC_BILLING) {
		size_t k = pane_account_sel(v, s);
		return v->sec == s && v->bmode == BMODE_ROWS && k < v->bn ? &v->brows[k] : NULL;
	}
	const struct json_list *l = s == SEC_REPORTS ? v->rep : NULL;
	for (int k = 0; k < L__COUNT && !l; k++)
		if (s != SEC_OVERVIEW && lists[k].sec == s)
			l = LIST(v, k);
	size_t i = pane_account_sel(v, s);
	if (v->sec != s || !l || i >= l->n)
		return NULL;
	return (const char *)l->v + i * l->kind->size;
}

static const void *acct_selected(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	return pane_account_selected(v, v->sec);
}

static int acct_key_ctx(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	return sec_ctx[v->sec] > 0 ? sec_ctx[v->sec] : -1;
}

static double acct_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	return v->reveal_on ? v->reveal_until : -1;
}

static void acct_wake(struct app *a, void *st)
{
	account_env_reveal_check(a, st);
}

/* ---- drawing ------------------------------------------------------------------ */

/* The section's fetch state: its error ("" when none) and whether a value came. */
static void section_state(const struct acct_view *v, enum section s, const char **err,
			  bool *have)
{
	enum list_kind k = L_TFA;
	switch (s) {
	case SEC_ENV: k = L_ENV; break;
	case SEC_APIKEYS: k = L_APIKEYS; break;
	case SEC_SSH: k = L_SSH; break;
	case SEC_ROLES: k = L_ROLES; break;
	case SEC_TEAM: k = L_MEMBERS; break;
	case SEC_AUDIT: k = L_AUDIT; break;
	case SEC_REPORTS:
		*err = v->rep_err;
		*have = v->rep != NULL;
		return;
	case SEC_BILLING:
		*err = v->berr;
		*have = v->bhave;
		return;
	case SEC_OVERVIEW:
	case SEC__COUNT:
		break;
	}
	*err = v->err[k];
	*have = v->val[k] != NULL;
}

/* What list_draw needs to draw one row. */
struct row_ctx {
	const struct acct_view *v;
	const struct rect *r;
};

static void draw_row(void *dctx, size_t i, bool sel, int y)
{
	const struct row_ctx *c = dctx;
	unsigned long attr = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, c->r->x, c->r->w, attr);
	if (i == LIST_NONE)
		return;
	char buf[400];
	secs[c->v->sec].row(c->v, i, buf, sizeof buf);
	draw_text(y, c->r->x + 1, c->r->w - 1, buf, attr);
	explicit_bzero(buf, sizeof buf); /* a revealed value */
}

static void acct_draw(struct app *a, void *st, const struct rect *r)
{
	struct acct_view *v = st;
	tfa_closed_check(a, v);
	account_env_reveal_check(a, v);
	/* the section bar */
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_NORMAL));
	int x = r->x + 1;
	for (int s = 0; s < SEC__COUNT; s++) {
		char t[40];
		snprintf(t, sizeof t, " %s ", secs[s].name);
		x += draw_text(r->y, x, r->x + r->w - x, t,
			       theme_attr(s == (int)v->sec ? ROLE_TAB_ACTIVE : ROLE_TAB)) + 1;
	}
	int y = r->y + 1, ymax = r->y + r->h;
	if (v->sec == SEC_OVERVIEW) {
		account_overview_draw(a, v, y, r->x + 1, r->w - 1, ymax);
		return;
	}
	if (v->sec == SEC_REPORTS && y < ymax) {
		char t[200];
		account_reports_title(v, t, sizeof t);
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		draw_text(y, r->x + 1, r->w - 1, t, theme_attr(ROLE_TITLE));
		y++;
	}
	if (v->sec == SEC_BILLING && v->xfer_lost_on && y < ymax) {
		char t[400];
		account_transfer_status(a, v, t, sizeof t);
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		draw_text(y, r->x + 1, r->w - 1, t, theme_attr(ROLE_WARNING));
		y++;
	}
	if (v->sec == SEC_BILLING)
		y += account_billing_draw_top(a, v, y, r->x + 1, r->w - 1, ymax);
	if (v->sec == SEC_TEAM && y < ymax) {
		char t[400];
		account_team_title(a, v, t, sizeof t);
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		draw_text(y, r->x + 1, r->w - 1, t, theme_attr(ROLE_TITLE));
		y++;
	}
	if (y >= ymax)
		return;
	draw_cell(y, r->x, r->w, v->sec == SEC_BILLING ? account_billing_head(v) : secs[v->sec].head,
		  false, theme_attr(ROLE_COLHEAD));
	y++;
	struct row_ctx rc = { v, r };
	struct list *l = &v->lst[v->sec];
	list_draw(l, y, ymax > y ? ymax - y : 0, draw_row, &rc);
	const char *err;
	bool have;
	section_state(v, v->sec, &err, &have);
	if (!list_count_shown(l) && y < ymax && (v->sec != SEC_REPORTS || v->machine)) {
		const char *msg = err[0]		   ? err
				  : !have		   ? "fetching..."
				  : section_rows(v, v->sec) ? "no row matches the filter (Esc clears it)"
							    : "none";
		draw_text(y, r->x + 1, r->w - 1, msg, theme_attr(err[0] ? ROLE_ERROR : ROLE_DIM));
	}
}

/* ---- modals ------------------------------------------------------------------- */

void pane_account_modal_close(struct acct_view *v)
{
	form_free(&v->fm);
	dialog_close(&v->dlg);
	explicit_bzero(v->target, sizeof v->target);
	explicit_bzero(v->newkey, sizeof v->newkey);
	v->newkey_id = 0;
	v->newkey_name[0] = '\0';
	v->show_msg[0] = '\0';
	v->target_id = 0;
	free(v->orig_perm);
	v->orig_perm = NULL;
	for (int i = 0; i < v->npub; i++)
		free(v->pub[i]);
	v->npub = 0;
	v->modal = MOD_NONE;
	v->call.id = 0; /* a cancel drops its result first (modal_call_drop) */
	v->own_req = 0;
	v->ssh_dup = v->ssh_dup_ok = false;
	account_team_choices_free(v);
	v->xfer_step = 0;
}

/* A key in a form modal. */
static void form_modal_key(struct app *a, struct acct_view *v, int key)
{
	/* a key being created cannot be abandoned: its answer is the only copy */
	if (v->fm.waiting && (key != 27 || v->modal == MOD_KEY_CREATE))
		return;
	enum form_result r = form_key(&v->fm, key);
	if (v->modal == MOD_KEY_CREATE || v->modal == MOD_ROLE_CREATE || v->modal == MOD_ROLE_EDIT)
		account_scope_sync(v);
	switch (r) {
	case FORM_CANCEL:
		if (v->modal == MOD_KEY_FILE) { /* back to the key */
			form_free(&v->fm);
			v->modal = MOD_KEY_SHOW;
			break;
		}
		modal_call_drop(&v->call, a->m);
		pane_account_modal_close(v);
		break;
	case FORM_SUBMIT:
		switch (v->modal) {
		case MOD_SSH_ADD: account_ssh_submit(a, v); break;
		case MOD_ENV_ADD:
		case MOD_ENV_EDIT: account_env_submit(a, v); break;
		case MOD_KEY_CREATE: account_keys_submit(a, v); break;
		case MOD_ROLE_CREATE:
		case MOD_ROLE_EDIT: account_roles_submit(a, v); break;
		case MOD_KEY_FILE: account_keys_submit_file(v); break;
		case MOD_MACHINE: account_reports_submit(a, v); break;
		case MOD_BILL_RANGE: account_billing_submit_range(a, v); break;
		case MOD_MEMBER_INVITE:
		case MOD_MEMBER_ROLE: account_team_submit(a, v); break;
		case MOD_TRANSFER: account_transfer_submit(a, v); break;
		case MOD_MEMBER_REMOVE:
		case MOD_TRANSFER_CONFIRM:
		case MOD_PRICE_ANSWER:
		case MOD_NONE:
		case MOD_ENV_DELETE:
		case MOD_SSH_DELETE:
		case MOD_ROLE_DELETE:
		case MOD_KEY_SHOW:
		case MOD_KEY_DELETE:
		case MOD_KEY_DELETE_OWN:
			break;
		}
		break;
	case FORM_CONTINUE:
	case FORM_EDIT:
		break;
	}
}

static bool acct_modal_key(struct app *a, void *st, int key)
{
	struct acct_view *v = st;
	switch (v->modal) {
	case MOD_NONE:
		return false;
	case MOD_SSH_ADD:
		if (v->ssh_dup) { /* the key is already there: sent again only on "Add again" */
			account_ssh_dup_key(a, v, key);
			return true;
		}
		form_modal_key(a, v, key);
		return true;
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
	case MOD_BILL_RANGE:
	case MOD_MEMBER_INVITE:
	case MOD_MEMBER_ROLE:
	case MOD_TRANSFER:
		form_modal_key(a, v, key);
		return true;
	case MOD_TRANSFER_CONFIRM: {
		if (v->dlg.waiting) /* sent: its outcome is shown, whatever it is */
			return true;
		enum dlg_result r = dialog_key(&v->dlg, key);
		switch (r) {
		case DLG_CANCEL:
			modal_call_drop(&v->call, a->m);
			pane_account_modal_close(v);
			break;
		case DLG_SUBMIT: account_transfer_confirm(a, v); break;
		case DLG_CONTINUE: break;
		}
		return true;
	}
	case MOD_PRICE_ANSWER: {
		if (v->dlg.waiting && key != 27)
			return true;
		enum dlg_result r = dialog_key(&v->dlg, key);
		switch (r) {
		case DLG_CANCEL:
			modal_call_drop(&v->call, a->m);
			pane_account_modal_close(v);
			break;
		case DLG_SUBMIT: account_prices_send(a, v); break;
		case DLG_CONTINUE: break;
		}
		return true;
	}
	case MOD_KEY_SHOW:
		account_keys_show_key(a, v, key);
		return true;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN:
	case MOD_MEMBER_REMOVE: {
		if (v->dlg.waiting && key != 27)
			return true;
		enum dlg_result r = dialog_key(&v->dlg, key);
		switch (r) {
		case DLG_CANCEL:
			modal_call_drop(&v->call, a->m);
			if (v->own_req)
				model_drop_result(a->m, v->own_req);
			pane_account_modal_close(v);
			break;
		case DLG_SUBMIT: account_change_delete(a, v); break;
		case DLG_CONTINUE: break;
		}
		return true;
	}
	}
	return false;
}

static bool acct_modal_draw(struct app *a, void *st)
{
	struct acct_view *v = st;
	switch (v->modal) {
	case MOD_NONE: return false;
	case MOD_KEY_FILE:
		account_keys_draw_show(a, v);
		form_draw(&v->fm, &a->lay);
		return true;
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
	case MOD_MACHINE:
	case MOD_BILL_RANGE:
	case MOD_MEMBER_INVITE:
	case MOD_MEMBER_ROLE:
	case MOD_TRANSFER:
		form_draw(&v->fm, &a->lay);
		if (v->modal == MOD_SSH_ADD && v->ssh_dup) {
			dialog_draw(&v->dlg, &a->lay);
			return false;
		}
		return !form_busy(&v->fm);
	case MOD_KEY_SHOW:
		account_keys_draw_show(a, v);
		return false;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN:
	case MOD_MEMBER_REMOVE:
	case MOD_TRANSFER_CONFIRM:
	case MOD_PRICE_ANSWER:
		dialog_draw(&v->dlg, &a->lay);
		return false;
	}
	return false;
}

/* ---- view callbacks ------------------------------------------------------------ */

static void acct_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct acct_view *v = st;
	bool changed = false;
	struct call_result r;
	for (int k = 0; k < L__COUNT; k++) {
		if (!v->sub[k] || !model_take_result(a->m, v->sub[k], &r))
			continue;
		if (r.outcome == CALL_OK && r.value) {
			lists[k].free_value(v->val[k]);
			v->val[k] = r.value;
			r.value = NULL;
			v->err[k][0] = '\0';
			if (lists[k].sec != SEC_OVERVIEW)
				list_set_count(&v->lst[lists[k].sec], section_rows(v, lists[k].sec));
		} else if (r.outcome != CALL_OK) {
			util_strlcpy(v->err[k], r.err.msg, sizeof v->err[k]);
		}
		account_change_reread(a, v, (enum list_kind)k, &r);
		model_call_result_free(&r);
		changed = true;
	}
	if (v->rep_sub && model_take_result(a->m, v->rep_sub, &r)) {
		if (r.outcome == CALL_OK && r.value) {
			json_list_free(v->rep);
			v->rep = r.value;
			r.value = NULL;
			v->rep_err[0] = '\0';
			list_set_count(&v->lst[SEC_REPORTS], json_list_count(v->rep));
		} else if (r.outcome != CALL_OK) {
			util_strlcpy(v->rep_err, r.err.msg, sizeof v->rep_err);
		}
		model_call_result_free(&r);
		changed = true;
	}
	if (v->reveal_req && model_take_result(a->m, v->reveal_req, &r)) {
		account_env_reveal_done(a, v, &r);
		model_call_result_free(&r);
		changed = true;
	}
	if (v->own_req && model_take_result(a->m, v->own_req, &r)) {
		account_keys_own_done(a, v, &r);
		model_call_result_free(&r);
		changed = true;
	}
	if (account_billing_result(a, v))
		changed = true;
	if (!v->price_sub && a->jobs) /* from the first snapshot on, shown or not */
		account_prices_start(a, v);
	if (account_prices_take(a, v))
		changed = true;
	if (modal_call_take(&v->call, a->m, &r)) {
		account_change_done(a, v, &r);
		model_call_result_free(&r);
		changed = true;
	}
	tfa_closed_check(a, v);
	if (changed && view_is(a, view_current(a), "account"))
		a->dirty |= DIRTY_BODY;
}

static void acct_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	struct acct_view *v = st;
	if (!v->sub[L_ENV])
		subscribe_all(a, v);
	else
		pane_account_refresh(a, v, true);
	if (v->sec == SEC_BILLING && !v->bfetching)
		account_billing_fetch(a, v, 0);
}

/* Show section s (the billing section fetches its range when it has none). */
static void show_section(struct app *a, struct acct_view *v, enum section s)
{
	v->sec = s;
	if (s == SEC_BILLING && !v->bhave && !v->bfetching)
		account_billing_fetch(a, v, 0);
}

static void acct_leave(struct app *a, void *st)
{
	account_env_reveal_hide(a, st);
	pane_account_refresh(a, st, false);
}

/* The view's actions: moving between sections, then each section's own. */
enum acct_act { AA_NEXT, AA_PREV, AA_ENV_ADD, AA_ENV_EDIT, AA_ENV_DELETE, AA_ENV_REVEAL, AA_KEY_CREATE,
		AA_KEY_DELETE, AA_SSH_ADD, AA_SSH_DELETE, AA_ROLE_CREATE, AA_ROLE_EDIT,
		AA_ROLE_DELETE, AA_MACHINE, AA_BILL_MODE, AA_BILL_RANGE, AA_MEMBER_INVITE, AA_MEMBER_ROLE,
		AA_MEMBER_REMOVE, AA_TRANSFER, AA__COUNT };
static enum action acts[AA__COUNT];

/* The view's action table: a section's rows are bound in its context
 * (the sections' contexts: acct_keys); account-next and account-prev in
 * the view's and, by acct_keys, every section's. */
#define ROW(e, cx, k, ...) [e] = { { __VA_ARGS__ }, k, cx, &acts[e] }
static const struct action_row acct_rows[AA__COUNT] = {
	ROW(AA_NEXT, NULL, "]", .name = "account-next", .help = "next account section",
	    .hint = "section", .flags = AF_HINT),
	ROW(AA_PREV, NULL, "[", .name = "account-prev", .help = "previous account section"),
	ROW(AA_ENV_ADD, "account-env", "a", .name = "env-add",
	    .help = "add an env var (value typed masked)", .hint = "add",
	    .flags = AF_MUTATES | AF_HINT),
	ROW(AA_ENV_EDIT, "account-env", "e", .name = "env-edit",
	    .help = "change the selected env var's value", .hint = "edit",
	    .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_ENV_DELETE, "account-env", "d", .name = "env-delete",
	    .help = "delete the selected env var (confirm)", .hint = "delete",
	    .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_ENV_REVEAL, "account-env", "v", .name = "env-reveal",
	    .help = "show the selected env var's value, read now (hidden when the selection moves, "
		    "after 10 s, or on v)", .hint = "reveal", .flags = AF_HINT | AF_NEEDS_SEL),
	ROW(AA_KEY_CREATE, "account-apikeys", "a", .name = "apikey-create",
	    .help = "create an API key (name, scope); shown once", .hint = "create",
	    .flags = AF_MUTATES | AF_HINT),
	ROW(AA_KEY_DELETE, "account-apikeys", "d", .name = "apikey-delete",
	    .help = "delete the selected API key (confirm; twice for rentop's own)",
	    .hint = "delete", .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_SSH_ADD, "account-ssh", "a", .name = "ssh-key-add",
	    .help = "add an SSH key (paste it or choose ~/.ssh/*.pub)", .hint = "add",
	    .flags = AF_MUTATES | AF_HINT),
	ROW(AA_SSH_DELETE, "account-ssh", "d", .name = "ssh-key-delete",
	    .help = "delete the selected SSH key (confirm)", .hint = "delete",
	    .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_ROLE_CREATE, "account-roles", "a", .name = "role-create",
	    .help = "create a team role (name, permissions)", .hint = "create",
	    .flags = AF_MUTATES | AF_HINT),
	ROW(AA_ROLE_EDIT, "account-roles", "e", .name = "role-edit",
	    .help = "change the selected role's name or permissions", .hint = "edit",
	    .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_ROLE_DELETE, "account-roles", "d", .name = "role-delete",
	    .help = "delete the selected team role (confirm)", .hint = "delete",
	    .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_MACHINE, "account-reports", "m", .name = "reports-machine",
	    .help = "choose the machine whose reports are shown", .hint = "machine",
	    .flags = AF_HINT),
	ROW(AA_BILL_MODE, "account-billing", "s", .name = "billing-totals",
	    .help = "billing: the rows, then the totals per day, per week, per instance", .hint = "totals",
	    .flags = AF_HINT),
	ROW(AA_BILL_RANGE, "account-billing", "g", .name = "billing-range",
	    .help = "billing: choose the days shown (fetched again)", .hint = "range", .flags = AF_HINT),
	ROW(AA_MEMBER_INVITE, "account-team", "a", .name = "member-invite",
	    .help = "invite a team member by e-mail with a role (owner, managers)", .hint = "invite",
	    .flags = AF_MUTATES | AF_HINT),
	ROW(AA_MEMBER_ROLE, "account-team", "e", .name = "member-role",
	    .help = "change the selected member's role (owner, managers)", .hint = "role",
	    .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_MEMBER_REMOVE, "account-team", "d", .name = "member-remove",
	    .help = "remove the selected member from the team (confirm; owner, managers)",
	    .hint = "remove", .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL),
	ROW(AA_TRANSFER, "account-billing", "T", .name = "credit-transfer",
	    .help = "transfer credit to another user or team (confirmed twice; sent once)",
	    .hint = "transfer", .flags = AF_MUTATES | AF_HINT),
};
#undef ROW

static bool acct_action(struct app *a, void *st, enum action act)
{
	struct acct_view *v = st;
	int which = keymap_action_row_of(acct_rows, AA__COUNT, act);
	if (which < 0) /* not one of ours: the list moves (view_ops.list), or another's run */
		return false;
	switch ((enum acct_act)which) {
	case AA_NEXT:
	case AA_PREV: {
		int d = which == AA_NEXT ? 1 : SEC__COUNT - 1;
		show_section(a, v, (enum section)(((int)v->sec + d) % SEC__COUNT));
		break;
	}
	case AA_ENV_ADD: account_env_open(v, false); break;
	case AA_ENV_REVEAL: account_env_reveal_start(a, v); break;
	case AA_ENV_EDIT: account_env_open(v, true); break;
	case AA_KEY_CREATE: account_keys_open(v); break;
	case AA_SSH_ADD: account_ssh_open(v); break;
	case AA_ROLE_CREATE: account_roles_open(v, false); break;
	case AA_ROLE_EDIT: account_roles_open(v, true); break;
	case AA_MACHINE: account_reports_open(v); break;
	case AA_BILL_MODE: account_billing_mode(v); break;
	case AA_BILL_RANGE: account_billing_open_range(v); break;
	case AA_MEMBER_INVITE: account_team_open_invite(a, v); break;
	case AA_MEMBER_ROLE: account_team_open_role(a, v); break;
	case AA_MEMBER_REMOVE: account_team_open_remove(a, v); break;
	case AA_TRANSFER: account_transfer_open(a, v, NULL, NULL); break;
	case AA_ENV_DELETE: account_env_open_delete(v); break;
	case AA_KEY_DELETE: account_keys_open_delete(a, v); break;
	case AA_SSH_DELETE: account_ssh_open_delete(v); break;
	case AA_ROLE_DELETE: account_roles_open_delete(v); break;
	case AA__COUNT:
		break;
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

/* The list the moves and `/` act on: the section's (the overview has none). */
static struct list *acct_list(struct app *a, void *st)
{
	(void)a;
	struct acct_view *v = st;
	return v->sec != SEC_OVERVIEW ? &v->lst[v->sec] : NULL;
}

/* The sections' `:account` words, in enum section order (NULL-ended). */
static const char *const section_words[SEC__COUNT + 1] = { "overview", "env",     "apikeys", "ssh",
							   "roles",    "reports", "team",
							   "audit",    "billing", NULL };

/* `:account [SECTION]`, `:reports [MACHINE_ID]`. */
static void acct_command(struct app *a, void *st, const char *args)
{
	struct acct_view *v = st;
	char w[32] = "";
	size_t wl = strcspn(args, " \t");
	if (wl < sizeof w)
		snprintf(w, sizeof w, "%.*s", (int)wl, args);
	const char *rest = args + wl;
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (strcasecmp(w, "prices") == 0) { /* :prices accept|reject [INSTANCE_ID] */
		account_prices_command(a, v, rest);
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (strcasecmp(w, "transfer") == 0) { /* :transfer [RECIPIENT [AMOUNT]] */
		char to[130] = "", amt[32] = "";
		sscanf(rest, "%129s %31s", to, amt);
		v->sec = SEC_BILLING;
		if (!v->bhave && !v->bfetching)
			account_billing_fetch(a, v, 0);
		account_transfer_open(a, v, to, amt);
		a->dirty |= DIRTY_ALL;
		return;
	}
	for (int s = 0; s < SEC__COUNT; s++) {
		if (strcasecmp(w, section_words[s]) != 0)
			continue;
		if (s == SEC_BILLING && *rest) {
			char *end;
			long d = strtol(rest, &end, 10);
			if (*end || d < 1 || d > BILL_DAYS_MAX)
				app_toast(a, ROLE_ERROR, 8, ":billing takes a number of days, 1 to %d", BILL_DAYS_MAX);
			else {
				v->sec = SEC_BILLING;
				account_billing_fetch(a, v, (int)d);
			}
		} else if (s != SEC_REPORTS || !*rest) {
			show_section(a, v, (enum section)s);
		} else {
			long id;
			if (acctops_machine_id(rest, &id))
				account_reports_show(a, v, id);
			else
				app_toast(a, ROLE_ERROR, 8, ":reports needs a machine id (a positive number), not \"%.40s\"",
					  rest);
		}
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (*w)
		app_toast(a, ROLE_ERROR, 8,
			  "no account section \"%.40s\" (overview env apikeys ssh roles reports team audit billing)", w);
}

void pane_account_inst_keys(struct keymap *km, int ctx)
{
	keymap_action_bind(km, ctx, &account_reports_m_row);
	keymap_action_bind(km, ctx, &account_prices_row);
}

/* The sections' contexts (before the table binds their rows), and the
 * section moves bound in each of them as in the view's. */
static void acct_keys(struct keymap *km, int ctx)
{
	for (int s = 0; s < SEC__COUNT; s++) {
		if (!secs[s].ctx)
			continue;
		sec_ctx[s] = keymap_ctx_register(secs[s].ctx, secs[s].heading, CTXF_LIST | CTXF_SECTION, ctx);
		if (sec_ctx[s] < 0) {
			sec_ctx[s] = 0; /* full: the section falls back to the view's keys */
			continue;
		}
		keymap_ctx_defaults(km, sec_ctx[s]);
		keymap_action_bind(km, sec_ctx[s], &acct_rows[AA_NEXT]);
		keymap_action_bind(km, sec_ctx[s], &acct_rows[AA_PREV]);
	}
}

static void *acct_init(struct app *a)
{
	(void)a;
	struct acct_view *v = xcalloc(1, sizeof *v);
	for (int s = 0; s < SEC__COUNT; s++)
		if (secs[s].ops)
			list_init(&v->lst[s], secs[s].ops, v, false);
	return v;
}

static void acct_fini(struct app *a, void *st)
{
	struct acct_view *v = st;
	if (v->own_req)
		model_drop_result(a->m, v->own_req);
	account_env_reveal_hide(a, v);
	pane_account_modal_close(v);
	for (int k = 0; k < L__COUNT; k++) {
		if (v->sub[k])
			jobs_unsubscribe(a->jobs, v->sub[k]);
		lists[k].free_value(v->val[k]);
	}
	if (v->rep_sub)
		jobs_unsubscribe(a->jobs, v->rep_sub);
	json_list_free(v->rep);
	account_billing_free(a, v);
	account_prices_stop(a, v);
	for (int s = 0; s < SEC__COUNT; s++)
		list_free(&v->lst[s]);
	free(v);
}

static const char *const acct_words[] = { "reports", "billing", "audit", "transfer", "prices", NULL };

const struct view_ops view_account = {
	.name = "account",
	.title = "Account",
	.heading = "Account view",
	.number_key = '5',
	.ctx_flags = CTXF_LIST,
	.actions = acct_rows,
	.nactions = AA__COUNT,
	.keys = acct_keys,
	.init = acct_init,
	.fini = acct_fini,
	.enter = acct_enter,
	.leave = acct_leave,
	.on_snapshot = acct_snapshot,
	.next_wake = acct_next_wake,
	.on_wake = acct_wake,
	.draw = acct_draw,
	.action = acct_action,
	.list = acct_list,
	.selected_row = acct_selected,
	.command = acct_command,
	.words = acct_words,
	.args = section_words,
	.modal_key = acct_modal_key,
	.modal_draw = acct_modal_draw,
	.key_ctx = acct_key_ctx,
};
