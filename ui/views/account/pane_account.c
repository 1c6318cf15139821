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
 * in memory with the key in use (auth_redact) and wiped.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "rules/acct.h"
#include "rules/acctops.h"
#include "api/api_account.h"
#include "api/api_account_map.h"
#include "api/apierr.h"
#include "app.h"
#include "base/config.h"
#include "net/auth.h"
#include "widgets/dialog.h"
#include "draw.h"
#include "widgets/form.h"
#include "header.h"
#include "state/jobs.h"
#include "json/json_list.h"
#include "json/json_map.h"
#include "layout.h"
#include "state/model.h"
#include "views/account/pane_account.h"
#include "rules/sshkey.h"
#include "theme.h"
#include "rules/tfaflow.h"
#include "base/util.h"
#include "view.h"

#define ACCOUNT_CADENCE 30.0 /* s, the account lists' refresh */
#define ENV_REVEAL_S 10.0       /* s an env value revealed with v stays shown */
#define ENV_VALUE_MAX 4096      /* bytes of an env value shown */

enum section { SEC_OVERVIEW, SEC_ENV, SEC_APIKEYS, SEC_SSH, SEC_ROLES, SEC_REPORTS, SEC__COUNT };

/* The lists the subscriptions fetch (mapper values). */
enum list_kind { L_ENV, L_APIKEYS, L_SSH, L_ROLES, L_TFA, L__COUNT };

/* The newest value of list k (a struct json_list of T, NULL: none yet). */
#define LIST(v, k) ((const struct json_list *)(v)->val[k])
#define LIST_AT(v, k, T) json_list_at(LIST(v, k), const T)

/* What the open form or confirmation is for. */
enum modal_kind { MOD_NONE, MOD_ENV_ADD, MOD_ENV_EDIT, MOD_ENV_DELETE, MOD_SSH_ADD,
		  MOD_SSH_DELETE, MOD_ROLE_CREATE, MOD_ROLE_EDIT, MOD_ROLE_DELETE, MOD_KEY_CREATE,
		  MOD_KEY_SHOW, MOD_KEY_FILE, MOD_KEY_DELETE, MOD_KEY_DELETE_OWN, MOD_MACHINE };

/* Whether the API key about to be deleted is the one rentop runs with. */
enum own_key { OWN_PENDING, OWN_YES, OWN_NO, OWN_UNKNOWN };

#define PUB_MAX 10 /* ~/.ssh/ *.pub files offered */

/* The view's private state. */
struct acct_view {
	enum section sec;
	size_t sel[SEC__COUNT];
	int sub[L__COUNT];          /* subscription ids, 0 before the first show */
	void *val[L__COUNT];        /* the newest value of each list, NULL: none yet */
	char err[L__COUNT][160];    /* the last fetch failure, "" when none */
	long machine;               /* the reports' machine, 0: none chosen */
	int rep_sub;                /* its subscription, 0: none */
	struct json_list *rep;      /* its newest reports (struct machine_report), NULL: none yet */
	char rep_err[160];
	enum modal_kind modal;
	struct form fm;             /* the forms */
	struct dialog dlg;          /* the confirmations */
	char target[130];           /* the env var or role (name) the modal is about */
	long target_id;             /* the SSH key, API key or role the modal is about */
	char *orig_perm;            /* MOD_ROLE_EDIT: the role's permissions (JSON text) */
	int scope_prev;             /* scope picker: the choice and ... */
	unsigned mask_prev;         /* ... the ticked categories after the last key */
	char *pub[PUB_MAX + 1];     /* MOD_SSH_ADD's choices: "(paste)", then the ~/.ssh/ *.pub paths */
	int npub;
	int action_id;              /* the action awaited, 0: none */
	int lost_before;            /* the form's send: acct_lost_count over the list it went on */
	/* MOD_KEY_SHOW (and MOD_KEY_FILE over it): the new key (secret) */
	char newkey[API_ACCOUNT_KEY_MAX];
	long newkey_id;
	char newkey_name[130];
	char show_msg[300];         /* what y or w did */
	/* MOD_KEY_DELETE: is it rentop's own key? */
	enum own_key own;
	int own_req;                /* the key-show fetch awaited, 0: none */
	char own_why[200];          /* OWN_UNKNOWN: why */
	bool under_tfa;             /* the 2FA view (t) was open over this one */
	/* MOD_SSH_ADD: the key is already on the account: the dialog asking
	 * before sending it again (v->dlg over the form), and the answer */
	bool ssh_dup, ssh_dup_ok;
	/* v on an env var: its value read now (a secret, wiped when hidden) */
	int reveal_req;             /* the read awaited, 0: none */
	char reveal_key[130];       /* the var it is for */
	bool reveal_on;             /* reveal_val is shown on its row */
	size_t reveal_sel;          /* the row it was read for */
	double reveal_until;        /* util_mono() when it is hidden again */
	char reveal_val[ENV_VALUE_MAX + 1];
};

static const char *const sec_names[SEC__COUNT] = { "Overview", "Env vars", "API keys",
						   "SSH keys", "Team roles", "Machine reports" };
/* The key context of each section (process-wide, like the action table);
 * 0 for the overview: the view's own. */
static int sec_ctx[SEC__COUNT];

/* The lists the view subscribes to: one row a list_kind. */
static const struct list_desc {
	const char *what;                         /* the job's words */
	struct api_call (*call)(const struct config *c);
	jobs_map_fn map;
	jobs_free_fn free_value;
} lists[L__COUNT] = {
	[L_ENV] = { "env vars", api_env_list, api_account_map_env, json_list_free },
	[L_APIKEYS] = { "API keys", api_apikeys_list, api_account_map_apikeys, json_list_free },
	[L_SSH] = { "SSH keys", api_ssh_list, api_account_map_ssh, json_list_free },
	[L_ROLES] = { "team roles", api_roles_list, api_account_map_roles, json_list_free },
	[L_TFA] = { "2FA status", api_tfa_status, tfaflow_map_status, tfaflow_status_free },
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
static void refresh_all(struct app *a, struct acct_view *v, bool visible)
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

/* Show the reports of machine id (a new subscription) in their section. */
static void set_machine(struct app *a, struct acct_view *v, long id)
{
	if (v->rep_sub)
		jobs_unsubscribe(a->jobs, v->rep_sub);
	v->rep_sub = 0;
	json_list_free(v->rep);
	v->rep = NULL;
	v->rep_err[0] = '\0';
	v->machine = id;
	v->sec = SEC_REPORTS;
	v->sel[SEC_REPORTS] = 0;
	struct job_call c = { 0 };
	c.call = api_machine_reports(a->cfg, id);
	c.map = api_account_map_reports;
	c.free_value = json_list_free;
	snprintf(c.what, sizeof c.what, "machine %ld reports", id);
	int sid = 0, rc = jobs_subscribe(a->jobs, &c, ACCOUNT_CADENCE, true, &sid);
	if (rc == JOBS_OK)
		v->rep_sub = sid;
	else
		snprintf(v->rep_err, sizeof v->rep_err, "%s", jobs_strerror(rc));
	a->dirty |= DIRTY_ALL;
}

/* ---- rows --------------------------------------------------------------------- */

static size_t section_rows(const struct acct_view *v, enum section s)
{
	switch (s) {
	case SEC_OVERVIEW: return 0;
	case SEC_ENV: return json_list_count(LIST(v, L_ENV));
	case SEC_APIKEYS: return json_list_count(LIST(v, L_APIKEYS));
	case SEC_SSH: return json_list_count(LIST(v, L_SSH));
	case SEC_ROLES: return json_list_count(LIST(v, L_ROLES));
	case SEC_REPORTS: return json_list_count(v->rep);
	case SEC__COUNT: return 0;
	}
	return 0;
}

static const struct env_var *env_selected(const struct acct_view *v)
{
	if (v->sec != SEC_ENV || v->sel[SEC_ENV] >= json_list_count(LIST(v, L_ENV)))
		return NULL;
	return &LIST_AT(v, L_ENV, struct env_var)[v->sel[SEC_ENV]];
}

static const struct api_key_rec *key_selected(const struct acct_view *v)
{
	if (v->sec != SEC_APIKEYS || v->sel[SEC_APIKEYS] >= json_list_count(LIST(v, L_APIKEYS)))
		return NULL;
	return &LIST_AT(v, L_APIKEYS, struct api_key_rec)[v->sel[SEC_APIKEYS]];
}

static const struct ssh_key_rec *ssh_selected(const struct acct_view *v)
{
	if (v->sec != SEC_SSH || v->sel[SEC_SSH] >= json_list_count(LIST(v, L_SSH)))
		return NULL;
	return &LIST_AT(v, L_SSH, struct ssh_key_rec)[v->sel[SEC_SSH]];
}

static const struct team_role *role_selected(const struct acct_view *v)
{
	if (v->sec != SEC_ROLES || v->sel[SEC_ROLES] >= json_list_count(LIST(v, L_ROLES)))
		return NULL;
	return &LIST_AT(v, L_ROLES, struct team_role)[v->sel[SEC_ROLES]];
}

static const void *acct_selected(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	switch (v->sec) {
	case SEC_ENV: return env_selected(v);
	case SEC_APIKEYS: return key_selected(v);
	case SEC_SSH: return ssh_selected(v);
	case SEC_ROLES: return role_selected(v);
	case SEC_REPORTS:
		return v->sel[SEC_REPORTS] < json_list_count(v->rep)
			       ? &json_list_at(v->rep, const struct machine_report)[v->sel[SEC_REPORTS]]
			       : NULL;
	case SEC_OVERVIEW:
	case SEC__COUNT:
		return NULL;
	}
	return NULL;
}

static int acct_key_ctx(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	return sec_ctx[v->sec] > 0 ? sec_ctx[v->sec] : -1;
}

/* ---- an env value shown on request (v) ------------------------------------------- */

/* Hide the revealed value (wiped). */
static void reveal_hide(struct app *a, struct acct_view *v)
{
	if (v->reveal_req)
		model_drop_result(a->m, v->reveal_req);
	v->reveal_req = 0;
	v->reveal_on = false;
	explicit_bzero(v->reveal_val, sizeof v->reveal_val);
	a->dirty |= DIRTY_BODY;
}

/* v: read the env vars now and show the selected one's value on its row
 * (v again hides it). */
static void reveal_start(struct app *a, struct acct_view *v)
{
	const struct env_var *e = env_selected(v);
	if (!e)
		return;
	bool same = v->reveal_on && !strcmp(v->reveal_key, e->key);
	reveal_hide(a, v);
	if (same)
		return;
	util_strlcpy(v->reveal_key, e->key, sizeof v->reveal_key);
	v->reveal_sel = v->sel[SEC_ENV];
	struct job_call c = { 0 };
	c.call = api_env_list(a->cfg);
	c.map = api_account_map_env_values;
	c.free_value = json_list_free;
	snprintf(c.what, sizeof c.what, "env var value");
	int id = 0, rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		app_toast(a, ROLE_ERROR, 8, "env var %s: %s", v->reveal_key, jobs_strerror(rc));
		return;
	}
	v->reveal_req = id;
}

/* The read of a reveal answered: show the value, or say why there is none. */
static void reveal_done(struct app *a, struct acct_view *v, const struct call_result *r)
{
	v->reveal_req = 0;
	const struct json_list *l = r->value;
	if (r->outcome != CALL_OK || !l) {
		app_toast(a, ROLE_ERROR, 8, "env var %s: its value could not be read: %s", v->reveal_key,
			  r->err.msg[0] ? r->err.msg : "no answer");
		return;
	}
	const struct env_value *e = NULL;
	const struct env_value *vals = json_list_at(l, const struct env_value);
	for (size_t i = 0; i < l->n && !e; i++)
		if (!strcmp(vals[i].key, v->reveal_key))
			e = &vals[i];
	if (!e) {
		app_answer(a, ROLE_WARNING, 8, "env var %s is no longer there", v->reveal_key);
	} else if (acctops_env_masked(e->value)) {
		app_answer(a, ROLE_WARNING, 8, "env var %s: the service sends its value masked "
			   "(*****): there is no value to show", v->reveal_key);
	} else if (v->sec == SEC_ENV && v->sel[SEC_ENV] == v->reveal_sel) {
		util_strlcpy(v->reveal_val, e->value, sizeof v->reveal_val);
		v->reveal_on = true;
		v->reveal_until = util_mono() + ENV_REVEAL_S;
	}
	a->dirty |= DIRTY_BODY;
}

/* Hide the value once the selection moved or its time is up. */
static void reveal_check(struct app *a, struct acct_view *v)
{
	if (!v->reveal_on)
		return;
	const struct env_var *e = env_selected(v);
	if (!e || v->sel[SEC_ENV] != v->reveal_sel || strcmp(e->key, v->reveal_key) != 0 ||
	    util_mono() >= v->reveal_until)
		reveal_hide(a, v);
}

static double acct_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	return v->reveal_on ? v->reveal_until : -1;
}

static void acct_wake(struct app *a, void *st)
{
	reveal_check(a, st);
}

/* ---- drawing ------------------------------------------------------------------ */

/* The kv value of a user field (JSON text), or NULL. */
static const char *user_field(const struct user *u, const char *key)
{
	for (size_t i = 0; u && i < u->nfields; i++)
		if (strcmp(u->fields[i].key, key) == 0)
			return u->fields[i].value;
	return NULL;
}

static void draw_overview(struct app *a, struct acct_view *v, int y, int x, int w, int ymax)
{
	const struct user *u = a->snap ? a->snap->user : NULL;
	char line[14][200];
	int n = 0;
	if (!u) {
		snprintf(line[n++], sizeof line[0], "account: not fetched yet");
	} else {
		char *em = util_sanitize(u->email ? u->email : "");
		char *un = util_sanitize(u->username ? u->username : "");
		snprintf(line[n++], sizeof line[0], "email            %s", em);
		snprintf(line[n++], sizeof line[0], "username         %s", un);
		free(em);
		free(un);
		snprintf(line[n++], sizeof line[0], "credit           $%.2f", u->credit);
		if (isfinite(u->balance))
			snprintf(line[n++], sizeof line[0], "balance          $%.2f", u->balance);
		else
			snprintf(line[n++], sizeof line[0], "balance          -");
		/* burn and runway as the header says them (the partial-figures rule) */
		double burn;
		char b1[32], b2[32];
		const char *ge = a->cfg->ascii ? ">=" : "\u2265", *le = a->cfg->ascii ? "<=" : "\u2264";
		double runway_h;
		enum figure_kind fig = header_money(a->snap, &burn, &runway_h);
		switch (fig) {
		case FIG_EXACT:
		case FIG_AT_LEAST: {
			bool part = fig == FIG_AT_LEAST;
			snprintf(line[n++], sizeof line[0], "burn rate        %s%s", part ? ge : "",
				 fmt_rate(b1, sizeof b1, burn));
			snprintf(line[n++], sizeof line[0], "runway           %s%s",
				 part && u->credit > 0 ? le : "",
				 header_runway(runway_h, a->cfg->ascii, b2, sizeof b2));
			break;
		}
		case FIG_UNKNOWN:
			snprintf(line[n++], sizeof line[0], "burn rate        (instances still arriving)");
			break;
		}
		const char *ev = user_field(u, "email_verified");
		snprintf(line[n++], sizeof line[0], "email verified   %s",
			 !ev ? "-" : strcmp(ev, "true") == 0 ? "yes" : "no");
	}
	const struct tfa_status_rec *t = v->val[L_TFA];
	if (t)
		snprintf(line[n++], sizeof line[0], "2FA              %s, %zu method%s, %d backup code%s left",
			 t->tfa_enabled ? "on" : "off", t->nmethods, t->nmethods == 1 ? "" : "s",
			 t->backup_codes_remaining, t->backup_codes_remaining == 1 ? "" : "s");
	else
		snprintf(line[n++], sizeof line[0], "2FA              %s",
			 v->err[L_TFA][0] ? v->err[L_TFA] : "fetching...");
	if (LIST(v, L_SSH))
		snprintf(line[n++], sizeof line[0], "SSH keys         %zu", LIST(v, L_SSH)->n);
	if (LIST(v, L_ENV))
		snprintf(line[n++], sizeof line[0], "env vars         %zu", LIST(v, L_ENV)->n);
	if (LIST(v, L_APIKEYS))
		snprintf(line[n++], sizeof line[0], "API keys         %zu", LIST(v, L_APIKEYS)->n);
	for (int i = 0; i < n && y < ymax; i++, y++) {
		draw_fill(y, x - 1, w + 1, theme_attr(ROLE_NORMAL));
		draw_text(y, x, w, line[i], theme_attr(ROLE_NORMAL));
	}
	for (; y < ymax; y++)
		draw_fill(y, x - 1, w + 1, theme_attr(ROLE_NORMAL));
}

/* One row's cells for section s, row i (sanitised text, fixed columns). */
static void row_cells(const struct acct_view *v, enum section s, size_t i, char *buf, size_t n)
{
	char when[64] = "-", sum[160];
	switch (s) {
	case SEC_ENV: {
		const struct env_var *e = &LIST_AT(v, L_ENV, struct env_var)[i];
		/* a fixed mask, whatever the service's mask says of the length;
		 * the value read with v on its row while shown */
		if (v->reveal_on && i == v->reveal_sel && !strcmp(e->key, v->reveal_key)) {
			char *clean = util_sanitize(v->reveal_val);
			snprintf(buf, n, "%-32.32s %s", e->key, clean);
			explicit_bzero(clean, strlen(clean));
			free(clean);
		} else {
			snprintf(buf, n, "%-32.32s %s", e->key, FORM_MASK);
		}
		break;
	}
	case SEC_APIKEYS: {
		const struct api_key_rec *k = &LIST_AT(v, L_APIKEYS, struct api_key_rec)[i];
		acct_rights_summary(k->rights, sum, sizeof sum);
		char team[24] = "-";
		if (k->team_id)
			snprintf(team, sizeof team, "%ld", k->team_id);
		snprintf(buf, n, "%-8ld %-24.24s %-10s %s", k->id, k->name ? k->name : "", team, sum);
		break;
	}
	case SEC_SSH: {
		const struct ssh_key_rec *k = &LIST_AT(v, L_SSH, struct ssh_key_rec)[i];
		if (isfinite(k->created_at)) {
			time_t t = (time_t)k->created_at;
			struct tm tm;
			gmtime_r(&t, &tm);
			strftime(when, sizeof when, "%Y-%m-%d", &tm);
		}
		snprintf(buf, n, "%-8ld %-12.12s %-20.20s %-11s %s", k->id,
			 k->type[0] ? k->type : "(not valid)", k->comment, when, k->fingerprint);
		break;
	}
	case SEC_ROLES: {
		const struct team_role *r = &LIST_AT(v, L_ROLES, struct team_role)[i];
		snprintf(buf, n, "%-24.24s %s", r->name ? r->name : "", r->summary ? r->summary : "");
		break;
	}
	case SEC_REPORTS: {
		const struct machine_report *r = &json_list_at(v->rep, const struct machine_report)[i];
		acctops_report_when(r->created_at, util_now(), when, sizeof when);
		snprintf(buf, n, "%-30.30s %-16.16s %s", when, r->problem ? r->problem : "",
			 r->message ? r->message : "");
		break;
	}
	case SEC_OVERVIEW:
	case SEC__COUNT:
		buf[0] = '\0';
		break;
	}
}

static const char *section_head(enum section s)
{
	switch (s) {
	case SEC_ENV: return "NAME                             VALUE";
	case SEC_APIKEYS: return "ID       NAME                     TEAM       SCOPE";
	case SEC_SSH: return "ID       TYPE         COMMENT              CREATED     FINGERPRINT";
	case SEC_ROLES: return "NAME                     PERMISSIONS";
	case SEC_REPORTS: return "WHEN (UTC)                     PROBLEM          MESSAGE";
	case SEC_OVERVIEW:
	case SEC__COUNT:
		return "";
	}
	return "";
}

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
	case SEC_REPORTS:
		*err = v->rep_err;
		*have = v->rep != NULL;
		return;
	case SEC_OVERVIEW:
	case SEC__COUNT:
		break;
	}
	*err = v->err[k];
	*have = v->val[k] != NULL;
}

static void acct_draw(struct app *a, void *st, const struct rect *r)
{
	struct acct_view *v = st;
	tfa_closed_check(a, v);
	reveal_check(a, v);
	/* the section bar */
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_NORMAL));
	int x = r->x + 1;
	for (int s = 0; s < SEC__COUNT; s++) {
		char t[40];
		snprintf(t, sizeof t, " %s ", sec_names[s]);
		x += draw_text(r->y, x, r->x + r->w - x, t,
			       theme_attr(s == (int)v->sec ? ROLE_TAB_ACTIVE : ROLE_TAB)) + 1;
	}
	int y = r->y + 1, ymax = r->y + r->h;
	if (v->sec == SEC_OVERVIEW) {
		draw_overview(a, v, y, r->x + 1, r->w - 1, ymax);
		return;
	}
	if (v->sec == SEC_REPORTS && y < ymax) {
		char t[200];
		if (!v->machine)
			snprintf(t, sizeof t, "no machine chosen: M on an instance, m here, or :reports MACHINE_ID");
		else if (!v->rep)
			snprintf(t, sizeof t, "machine %ld: fetching...", v->machine);
		else
			snprintf(t, sizeof t, "machine %ld: %zu report%s", v->machine, v->rep->n,
				 v->rep->n == 1 ? "" : "s");
		draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
		draw_text(y, r->x + 1, r->w - 1, t, theme_attr(ROLE_TITLE));
		y++;
	}
	draw_cell(y, r->x, r->w, section_head(v->sec), false, theme_attr(ROLE_COLHEAD));
	y++;
	int top_y = y;
	size_t n = section_rows(v, v->sec);
	int h = ymax - y;
	if (n && v->sel[v->sec] >= n)
		v->sel[v->sec] = n - 1;
	size_t top = h > 0 && v->sel[v->sec] >= (size_t)h ? v->sel[v->sec] - (size_t)h + 1 : 0;
	for (size_t i = top; i < n && y < ymax; i++, y++) {
		char buf[400];
		row_cells(v, v->sec, i, buf, sizeof buf);
		bool sel = i == v->sel[v->sec];
		unsigned long attr = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
		draw_fill(y, r->x, r->w, attr);
		draw_text(y, r->x + 1, r->w - 1, buf, attr);
		explicit_bzero(buf, sizeof buf); /* a revealed value */
	}
	for (int yy = y; yy < ymax; yy++)
		draw_fill(yy, r->x, r->w, theme_attr(ROLE_NORMAL));
	const char *err;
	bool have;
	section_state(v, v->sec, &err, &have);
	if (!n && top_y < ymax && (v->sec != SEC_REPORTS || v->machine)) {
		const char *msg = err[0] ? err : !have ? "fetching..." : "none";
		draw_text(top_y, r->x + 1, r->w - 1, msg, theme_attr(err[0] ? ROLE_ERROR : ROLE_DIM));
	}
}

/* ---- the scope picker (API keys and team roles) ------------------------------- */

static const char *const scope_choices[] = { "full access", "read-only", "instances", "custom" };

/* Add the scope choice and one toggle per category, set from mask. */
static void add_scope_fields(struct form *fm, unsigned mask)
{
	enum acct_scope sc = acctops_scope_of(mask);
	form_add_choice(fm, "scope", "Scope", scope_choices, 4, (int)sc);
	for (int c = 0; c < CAT__COUNT; c++)
		form_add_toggle(fm, acct_category_name((enum acct_category)c),
				acct_category_name((enum acct_category)c), (mask >> c) & 1u);
}

static unsigned form_mask(const struct form *fm)
{
	unsigned m = 0;
	for (int c = 0; c < CAT__COUNT; c++)
		if (form_toggle(fm, acct_category_name((enum acct_category)c)))
			m |= 1u << c;
	return m;
}

/* After a key: a preset chosen ticks its categories; a category ticked or
 * cleared by hand makes the scope the one those categories are. */
static void scope_sync(struct acct_view *v)
{
	int si = form_find(&v->fm, "scope");
	if (si < 0)
		return;
	int sc = v->fm.f[si].choice;
	unsigned m = form_mask(&v->fm);
	if (sc != v->scope_prev) {
		if (sc != SCOPE_CUSTOM) {
			unsigned want = acct_scope_mask((enum acct_scope)sc, 0);
			for (int c = 0; c < CAT__COUNT; c++) {
				int i = form_find(&v->fm, acct_category_name((enum acct_category)c));
				if (i >= 0)
					v->fm.f[i].on = (want >> c) & 1u;
			}
			m = want;
		}
	} else if (m != v->mask_prev) {
		v->fm.f[si].choice = (int)acctops_scope_of(m);
	}
	v->scope_prev = v->fm.f[si].choice;
	v->mask_prev = m;
}

static void scope_start(struct acct_view *v)
{
	int si = form_find(&v->fm, "scope");
	v->scope_prev = si >= 0 ? v->fm.f[si].choice : 0;
	v->mask_prev = form_mask(&v->fm);
}

/* ---- modals ------------------------------------------------------------------- */

static void modal_close(struct acct_view *v)
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
	v->action_id = 0;
	v->own_req = 0;
	v->ssh_dup = v->ssh_dup_ok = false;
}

/* ---- a form change whose answer was lost -------------------------------------- */

/* The list a form's change shows in, L__COUNT: none. */
static enum list_kind lost_list(enum modal_kind m)
{
	switch (m) {
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT: return L_ENV;
	case MOD_SSH_ADD: return L_SSH;
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT: return L_ROLES;
	case MOD_KEY_CREATE: return L_APIKEYS;
	case MOD_ENV_DELETE: return L_ENV;
	case MOD_SSH_DELETE: return L_SSH;
	case MOD_ROLE_DELETE: return L_ROLES;
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN: return L_APIKEYS;
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
		break;
	}
	return L__COUNT;
}

/* Is the open modal a confirmation of a delete (a dialog, not a form)? */
static bool is_delete(enum modal_kind m)
{
	switch (m) {
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN:
		return true;
	case MOD_NONE:
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
		break;
	}
	return false;
}

/* How many records of the newest list hold what the open form sends (a
 * delete: the record it deletes), -1 when the list is not there (or cannot
 * show it: an env value is masked). */
static int acct_lost_count(const struct acct_view *v)
{
	enum list_kind k = lost_list(v->modal);
	const struct json_list *l = k < L__COUNT ? LIST(v, k) : NULL;
	if (!l)
		return -1;
	const char *name = form_value(&v->fm, "name");
	switch (v->modal) {
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT: {
		const struct env_var *r = l->v;
		return acctops_env_count(r, l->n, form_value(&v->fm, "key"));
	}
	case MOD_SSH_ADD: {
		const struct ssh_key_rec *r = l->v;
		return acctops_ssh_count(r, l->n, v->target);
	}
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT: {
		const struct team_role *r = l->v;
		return acctops_role_count(r, l->n, v->modal == MOD_ROLE_EDIT ? v->target_id : 0,
					  name, form_mask(&v->fm));
	}
	case MOD_KEY_CREATE: {
		const struct api_key_rec *r = l->v;
		return acctops_apikey_count(r, l->n, name);
	}
	case MOD_ENV_DELETE: {
		const struct env_var *r = l->v;
		return acctops_env_count(r, l->n, v->target);
	}
	case MOD_SSH_DELETE: {
		const struct ssh_key_rec *r = l->v;
		int c = 0;
		for (size_t i = 0; i < l->n; i++)
			c += r[i].id == v->target_id;
		return c;
	}
	case MOD_ROLE_DELETE: {
		const struct team_role *r = l->v;
		int c = 0;
		for (size_t i = 0; i < l->n; i++)
			c += v->target_id > 0 ? r[i].id == v->target_id
					      : r[i].name && strcmp(r[i].name, v->target) == 0;
		return c;
	}
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN: {
		const struct api_key_rec *r = l->v;
		int c = 0;
		for (size_t i = 0; i < l->n; i++)
			c += r[i].id == v->target_id;
		return c;
	}
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
		break;
	}
	return -1;
}

/* A form's change was sent: what the list holds of it now, to compare a
 * re-read with if the answer is lost.  An edit's values cannot be told
 * apart from the old ones when the list masks them (env) or when they are
 * the old ones: -1. */
static void lost_note_before(struct acct_view *v)
{
	int n = acct_lost_count(v);
	if (v->modal == MOD_ENV_EDIT || (v->modal == MOD_ROLE_EDIT && n != 0))
		n = -1;
	v->lost_before = n;
}

/* The answer to the open form's or delete's change was lost: lock it until
 * a re-read (said in the modal and, quietly, in the event log). */
static void lost_begin(struct app *a, struct acct_view *v, const struct call_result *r)
{
	bool dlg = is_delete(v->modal);
	char *name = util_sanitize(v->modal == MOD_ENV_ADD || v->modal == MOD_ENV_EDIT
					   ? form_value(&v->fm, "key")
				   : v->modal == MOD_SSH_ADD || dlg ? v->target
								    : form_value(&v->fm, "name"));
	char what[160];
	struct form_lost_words w = { .what = what, .found = "exists", .missing = "not found",
				     .done = "created", .undone = "not created" };
	if (dlg) {
		w.found = "is gone";
		w.missing = "is still there";
		w.done = "deleted";
		w.undone = "not deleted";
		w.again = "d to try again";
		w.removes = true;
	}
	switch (v->modal) {
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
		snprintf(what, sizeof what, "env var %s", name);
		w.done = v->modal == MOD_ENV_ADD ? "added" : "changed";
		w.undone = v->modal == MOD_ENV_ADD ? "not added" : "not changed";
		break;
	case MOD_SSH_ADD:
		snprintf(what, sizeof what, "SSH key %s", name);
		w.done = "added";
		w.undone = "not added";
		break;
	case MOD_ROLE_EDIT:
		snprintf(what, sizeof what, "team role %s", name);
		w.found = "holds the new name and scope";
		w.missing = "does not hold the new name and scope";
		w.done = "changed";
		w.undone = "not changed";
		break;
	case MOD_ROLE_CREATE:
	case MOD_ROLE_DELETE: snprintf(what, sizeof what, "team role %s", name); break;
	case MOD_KEY_CREATE: snprintf(what, sizeof what, "API key %s", name); break;
	case MOD_ENV_DELETE: snprintf(what, sizeof what, "env var %s", name); break;
	case MOD_SSH_DELETE: snprintf(what, sizeof what, "SSH key %ld", v->target_id); break;
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN: snprintf(what, sizeof what, "API key %ld", v->target_id); break;
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
		snprintf(what, sizeof what, "the change");
		break;
	}
	free(name);
	char why[300];
	apierr_format(&r->err, why, sizeof why);
	if (dlg) {
		dialog_lost_begin(&v->dlg, &w, v->lost_before, why, r->when);
		app_lost_logged(a, what, v->dlg.error);
		return;
	}
	form_lost_begin(&v->fm, &w, v->lost_before, why, r->when);
	app_lost_logged(a, what, v->fm.answer);
}

/* List k was read again (r): when the open form waits on it after a lost
 * answer, say what it shows; the form closes when the change took effect. */
static void lost_reread(struct app *a, struct acct_view *v, enum list_kind k,
			const struct call_result *r)
{
	bool dlg = is_delete(v->modal);
	if (lost_list(v->modal) != k ||
	    !(dlg ? dialog_lost_checking(&v->dlg) : form_lost_checking(&v->fm)))
		return;
	char msg[400];
	int after = r->outcome == CALL_OK ? acct_lost_count(v) : -1;
	enum form_verdict fv = app_lost_verdict(
		a, dlg ? dialog_lost_reread(&v->dlg, r->when, after, r->err.msg, msg, sizeof msg)
		       : form_lost_reread(&v->fm, r->when, after, r->err.msg, msg, sizeof msg),
		msg);
	if (dlg) { /* a delete is never sent again from its dialog: d opens a new one */
		if (fv == FV_WAIT || fv == FV_UNKNOWN) { /* locked, saying why */
			a->dirty |= DIRTY_ALL;
			return;
		}
		if (fv == FV_DONE && v->modal == MOD_KEY_DELETE_OWN && v->own == OWN_YES)
			app_answer(a, ROLE_WARNING, 0, "%s: it was rentop's own key; restart rentop "
				   "with another key", msg);
		else
			app_answer(a, fv == FV_DONE ? ROLE_OK : ROLE_WARNING, 0, "%s", msg);
		modal_close(v);
		a->dirty |= DIRTY_ALL;
		return;
	}
	switch (fv) {
	case FV_DONE:
		if (v->modal == MOD_KEY_CREATE)
			app_answer(a, ROLE_WARNING, 0, "%s; its value was lost with the answer and is "
				   "never shown: delete the key (d) if it is not needed", msg);
		else
			app_answer(a, ROLE_OK, 0, "%s", msg);
		modal_close(v);
		break;
	case FV_NOT_DONE:
	case FV_UNKNOWN:
	case FV_WAIT:
		break;
	}
	a->dirty |= DIRTY_ALL;
}

/* Queue an action; false (the reason in the open form or dialog) when refused. */
static bool send_action(struct app *a, struct acct_view *v, struct job_call *c, bool form)
{
	int id = 0, rc = jobs_call(a->jobs, c, &id);
	if (rc != JOBS_OK) {
		if (form)
			form_set_answer(&v->fm, NULL, jobs_strerror(rc));
		else
			util_strlcpy(v->dlg.error, jobs_strerror(rc), sizeof v->dlg.error);
		return false;
	}
	v->action_id = id;
	lost_note_before(v);
	if (form)
		v->fm.waiting = true;
	else
		v->dlg.waiting = true;
	return true;
}

static bool check_env_name(const struct form_field *f, char *err, size_t n)
{
	if (api_env_name_valid(f->tb.s))
		return true;
	snprintf(err, n, "letters, digits and _, not starting with a digit (at most 128)");
	return false;
}

/* Open the add (edit: the selected var) form. */
static void open_env_form(struct acct_view *v, bool edit)
{
	const struct env_var *e = env_selected(v);
	if (edit && !e)
		return;
	form_init(&v->fm, edit ? "Edit env var" : "Add env var");
	int k = form_add_text(&v->fm, "key", "Name", edit ? e->key : "", 128, true);
	if (k >= 0)
		v->fm.f[k].check = check_env_name;
	int val = form_add_secret(&v->fm, "value", "Value (C-r shows)", 4096, true);
	if (val >= 0)
		v->fm.f[val].fixed_mask = true; /* the length is not shown either */
	if (edit) {
		util_strlcpy(v->target, e->key, sizeof v->target);
		v->fm.focus = 1;
	}
	v->modal = edit ? MOD_ENV_EDIT : MOD_ENV_ADD;
}

static bool check_ssh_line(const struct form_field *f, char *err, size_t n)
{
	struct sshkey_info ki;
	if (!f->tb.s[0])
		return true; /* a file may be chosen instead */
	return sshkey_parse(f->tb.s, &ki, err, n);
}

/* Open the SSH key form: paste a line, or choose a .pub file of ~/.ssh. */
static void open_ssh_form(struct acct_view *v)
{
	form_init(&v->fm, "Add SSH key");
	v->pub[v->npub++] = xstrdup("(paste below)");
	const char *home = getenv("HOME");
	if (home && *home) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/.ssh", home);
		char **paths = NULL;
		size_t n = sshkey_list_pub(dir, &paths);
		for (size_t i = 0; i < n; i++) {
			if (v->npub <= PUB_MAX) {
				v->pub[v->npub++] = paths[i];
			} else {
				free(paths[i]);
			}
		}
		free(paths);
	}
	const char *ch[PUB_MAX + 1];
	for (int i = 0; i < v->npub; i++) { /* shown by file name */
		const char *slash = strrchr(v->pub[i], '/');
		ch[i] = slash ? slash + 1 : v->pub[i];
	}
	form_add_choice(&v->fm, "file", "Key file", ch, v->npub, v->npub > 1 ? 1 : 0);
	int k = form_add_text(&v->fm, "line", "Or paste the line", "", TEXTBUF_BYTES / 2, false);
	if (k >= 0)
		v->fm.f[k].check = check_ssh_line;
	v->modal = MOD_SSH_ADD;
}

/* Validate the chosen or pasted key and send it. */
static void submit_ssh(struct app *a, struct acct_view *v)
{
	char line[SSHKEY_LINE_MAX], err[200];
	const char *pasted = form_value(&v->fm, "line");
	int file = form_choice(&v->fm, "file");
	if (pasted[0]) {
		util_strlcpy(line, pasted, sizeof line);
	} else if (file > 0 && file < v->npub) {
		if (!sshkey_read_file(v->pub[file], line, sizeof line, err, sizeof err)) {
			form_set_answer(&v->fm, "file", err);
			return;
		}
	} else {
		form_set_answer(&v->fm, "line", "paste a public key line or choose a .pub file");
		return;
	}
	struct sshkey_info ki;
	if (!sshkey_parse(line, &ki, err, sizeof err)) {
		form_set_answer(&v->fm, pasted[0] ? "line" : "file", err);
		return;
	}
	const struct json_list *sl = LIST(v, L_SSH);
	const struct ssh_key_rec *dup =
		sl && !v->ssh_dup_ok ? acctops_ssh_duplicate(sl->v, sl->n, ki.fingerprint, line) : NULL;
	v->ssh_dup_ok = false;
	if (dup) { /* ask first, starting on Cancel */
		char text[512];
		snprintf(text, sizeof text, "This key (%s) is already on the account as SSH key %ld%s%s%s. "
			 "Add it again?", ki.fingerprint, dup->id, dup->comment[0] ? " (" : "",
			 dup->comment, dup->comment[0] ? ")" : "");
		dialog_confirm(&v->dlg, 0, dup->id, "SSH key already added", text, "Add again");
		v->ssh_dup = true;
		return;
	}
	struct job_call c = { .action = true };
	c.call = api_ssh_add(a->cfg, line);
	snprintf(c.what, sizeof c.what, "add SSH key");
	if (send_action(a, v, &c, true))
		util_strlcpy(v->target, ki.fingerprint, sizeof v->target);
}

/* Send the form's change as an at-most-once action. */
static void submit_env(struct app *a, struct acct_view *v)
{
	struct job_call c = { .action = true };
	const char *key = form_value(&v->fm, "key");
	const char *val = form_value(&v->fm, "value");
	if (v->modal == MOD_ENV_EDIT && strcmp(key, v->target) != 0) {
		form_set_answer(&v->fm, "key", "a var cannot be renamed: add a new one instead");
		return;
	}
	c.call = v->modal == MOD_ENV_ADD ? api_env_add(a->cfg, key, val)
					 : api_env_edit(a->cfg, key, val);
	snprintf(c.what, sizeof c.what, "%s env var", v->modal == MOD_ENV_ADD ? "add" : "edit");
	send_action(a, v, &c, true);
}

static bool check_name(const struct form_field *f, char *err, size_t n)
{
	for (const unsigned char *p = (const unsigned char *)f->tb.s; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(err, n, "no control characters");
			return false;
		}
	return true;
}

/* Open the API key form: a name and the scope picker (full access first). */
static void open_key_form(struct acct_view *v)
{
	form_init(&v->fm, "Create API key");
	int k = form_add_text(&v->fm, "name", "Name", "", 64, true);
	if (k >= 0)
		v->fm.f[k].check = check_name;
	add_scope_fields(&v->fm, ACCT_CAT_ALL);
	scope_start(v);
	v->modal = MOD_KEY_CREATE;
}

/* Send the new key's name and scope; the answer opens the key's dialog. */
static void submit_key(struct app *a, struct acct_view *v)
{
	unsigned m = form_mask(&v->fm);
	if (!m) {
		form_set_answer(&v->fm, "scope", "tick at least one category (or choose a preset)");
		return;
	}
	util_strlcpy(v->newkey_name, form_value(&v->fm, "name"), sizeof v->newkey_name);
	struct job_call c = { .action = true };
	/* every category: a full-access key, sent without permissions as the
	 * console does */
	c.call = api_apikey_create(a->cfg, v->newkey_name,
				   m == ACCT_CAT_ALL ? NULL : acct_scope_permissions(SCOPE_CUSTOM, m));
	c.map = api_account_map_key_created;
	c.free_value = api_account_map_key_free;
	snprintf(c.what, sizeof c.what, "create API key");
	send_action(a, v, &c, true);
}

/* Open the role form: create (empty, instances preset) or edit the selected role. */
static void open_role_form(struct acct_view *v, bool edit)
{
	const struct team_role *r = role_selected(v);
	if (edit && !r)
		return;
	form_init(&v->fm, edit ? "Edit team role" : "Create team role");
	int k = form_add_text(&v->fm, "name", "Name", edit && r->name ? r->name : "", 64, true);
	if (k >= 0)
		v->fm.f[k].check = check_name;
	unsigned mask = edit ? acct_rights_mask_text(r->permissions, NULL)
			     : acct_scope_mask(SCOPE_READ_ONLY, 0);
	if (edit && (!r->permissions || !r->permissions[0]))
		mask = 0; /* a role without permissions grants nothing */
	add_scope_fields(&v->fm, mask);
	scope_start(v);
	if (edit) {
		util_strlcpy(v->target, r->name ? r->name : "", sizeof v->target);
		v->target_id = r->id;
		v->orig_perm = xstrdup(r->permissions ? r->permissions : "");
		v->fm.focus = 1;
	}
	v->modal = edit ? MOD_ROLE_EDIT : MOD_ROLE_CREATE;
}

/* Send the role: created, or edited (name when changed, permissions merged). */
static void submit_role(struct app *a, struct acct_view *v)
{
	unsigned m = form_mask(&v->fm);
	const char *name = form_value(&v->fm, "name");
	json_t *perm = v->modal == MOD_ROLE_EDIT ? acctops_permissions_merge(v->orig_perm, m)
						 : acct_scope_permissions(SCOPE_CUSTOM, m);
	if (!perm) {
		form_set_answer(&v->fm, "scope", "tick at least one category (or choose a preset)");
		return;
	}
	struct job_call c = { .action = true };
	if (v->modal == MOD_ROLE_CREATE) {
		c.call = api_role_create(a->cfg, name, perm);
		snprintf(c.what, sizeof c.what, "create team role");
	} else {
		char ident[40];
		if (v->target_id > 0)
			snprintf(ident, sizeof ident, "%ld", v->target_id);
		c.call = api_role_edit(a->cfg, v->target_id > 0 ? ident : v->target,
				       strcmp(name, v->target) != 0 ? name : NULL, perm);
		snprintf(c.what, sizeof c.what, "edit team role");
	}
	send_action(a, v, &c, true);
}

/* m: ask for the machine whose reports are shown. */
static void open_machine_form(struct acct_view *v)
{
	form_init(&v->fm, "Machine reports");
	char init[32] = "";
	if (v->machine)
		snprintf(init, sizeof init, "%ld", v->machine);
	form_add_number(&v->fm, "machine", "Machine id", init, 1, 1e15, true, true);
	v->modal = MOD_MACHINE;
}

/* w over the new key: ask for a new file to write it to. */
static void open_file_form(struct acct_view *v)
{
	char init[80];
	snprintf(init, sizeof init, "~/vast-api-key-%ld", v->newkey_id);
	form_init(&v->fm, "Write the new API key to a file");
	form_add_text(&v->fm, "file", "File (new, mode 0600)", init, 400, true);
	v->modal = MOD_KEY_FILE;
}

/* Write the new key to the file asked for (new, 0600); back to the key. */
static void submit_file(struct acct_view *v)
{
	char path[1024], err[600];
	if (!acctops_expand_path(form_value(&v->fm, "file"), getenv("HOME"), path, sizeof path)) {
		form_set_answer(&v->fm, "file", "give a file name");
		return;
	}
	if (!acctops_write_secret(path, v->newkey, err, sizeof err)) {
		form_set_answer(&v->fm, "file", err);
		return;
	}
	form_free(&v->fm);
	char *clean = util_sanitize(path);
	snprintf(v->show_msg, sizeof v->show_msg, "written to %s (mode 0600)", clean);
	free(clean);
	v->modal = MOD_KEY_SHOW;
}

/* Ask the service for the value of key id, to compare it with ours. */
static void start_own_check(struct app *a, struct acct_view *v, long id)
{
	struct job_call c = { 0 };
	c.call = api_apikey_show(a->cfg, id);
	c.map = api_account_map_key_shown;
	c.free_value = api_account_map_key_free;
	snprintf(c.what, sizeof c.what, "API key %ld (own-key check)", id);
	int rid = 0, rc = jobs_call(a->jobs, &c, &rid);
	v->own = rc == JOBS_OK ? OWN_PENDING : OWN_UNKNOWN;
	v->own_req = rc == JOBS_OK ? rid : 0;
	if (rc != JOBS_OK)
		util_strlcpy(v->own_why, jobs_strerror(rc), sizeof v->own_why);
}

static void submit_delete(struct app *a, struct acct_view *v);

/* The own-key check answered. */
static void own_done(struct app *a, struct acct_view *v, struct call_result *r)
{
	v->own_req = 0;
	const struct api_account_key *k = r->value;
	if (r->outcome == CALL_OK && k) {
		char tmp[API_ACCOUNT_KEY_MAX];
		memcpy(tmp, k->key, sizeof tmp);
		bool mine = a->auth && auth_redact(a->auth, tmp);
		explicit_bzero(tmp, sizeof tmp);
		v->own = mine ? OWN_YES : OWN_NO;
	} else {
		v->own = OWN_UNKNOWN;
		snprintf(v->own_why, sizeof v->own_why, "the service did not show it: %.150s",
			 r->err.msg[0] ? r->err.msg : "no answer");
	}
	if (v->modal == MOD_KEY_DELETE && v->dlg.waiting && !v->action_id) {
		/* Delete was pressed meanwhile: go on */
		v->dlg.waiting = false;
		v->dlg.error[0] = '\0';
		submit_delete(a, v);
	}
}

/* The second confirmation of a delete of rentop's own key (or of a key
 * that may be it). */
static void open_own_confirm(struct acct_view *v)
{
	char text[512];
	if (v->own == OWN_YES)
		snprintf(text, sizeof text,
			 "API key %ld is the key rentop is running with. Once it is deleted every "
			 "refresh and action of rentop fails until you start it with another key. "
			 "Delete it anyway?", v->target_id);
	else
		snprintf(text, sizeof text,
			 "rentop could not tell whether it runs with API key %ld (%s). If it does, "
			 "every refresh and action fails once it is deleted, until you start rentop "
			 "with another key. Delete it anyway?", v->target_id, v->own_why);
	dialog_confirm(&v->dlg, 0, 0, v->own == OWN_YES ? "Delete rentop's own API key" : "Delete API key",
		       text, "Delete anyway");
	v->modal = MOD_KEY_DELETE_OWN;
}

/* Send the confirmed delete. */
static void submit_delete(struct app *a, struct acct_view *v)
{
	struct job_call c = { .action = true };
	switch (v->modal) {
	case MOD_ENV_DELETE:
		c.call = api_env_delete(a->cfg, v->target);
		snprintf(c.what, sizeof c.what, "delete env var");
		break;
	case MOD_SSH_DELETE:
		c.call = api_ssh_delete(a->cfg, v->target_id);
		snprintf(c.what, sizeof c.what, "delete SSH key");
		break;
	case MOD_ROLE_DELETE:
		c.call = api_role_delete(a->cfg, v->target);
		snprintf(c.what, sizeof c.what, "delete team role");
		break;
	case MOD_KEY_DELETE:
		switch (v->own) {
		case OWN_PENDING:
			v->dlg.waiting = true; /* own_done goes on */
			util_strlcpy(v->dlg.error, "checking whether rentop runs with this key...",
				     sizeof v->dlg.error);
			return;
		case OWN_YES:
		case OWN_UNKNOWN:
			open_own_confirm(v);
			return;
		case OWN_NO:
			break;
		}
		/* fall through */
	case MOD_KEY_DELETE_OWN:
		c.call = api_apikey_delete(a->cfg, v->target_id);
		snprintf(c.what, sizeof c.what, "delete API key");
		break;
	case MOD_NONE:
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
		return;
	}
	send_action(a, v, &c, false);
}

/* A key in a form modal. */
static void form_modal_key(struct app *a, struct acct_view *v, int key)
{
	/* a key being created cannot be abandoned: its answer is the only copy */
	if (v->fm.waiting && (key != 27 || v->modal == MOD_KEY_CREATE))
		return;
	enum form_result r = form_key(&v->fm, key);
	if (v->modal == MOD_KEY_CREATE || v->modal == MOD_ROLE_CREATE || v->modal == MOD_ROLE_EDIT)
		scope_sync(v);
	switch (r) {
	case FORM_CANCEL:
		if (v->modal == MOD_KEY_FILE) { /* back to the key */
			form_free(&v->fm);
			v->modal = MOD_KEY_SHOW;
			break;
		}
		if (v->action_id)
			model_drop_result(a->m, v->action_id);
		modal_close(v);
		break;
	case FORM_SUBMIT:
		switch (v->modal) {
		case MOD_SSH_ADD: submit_ssh(a, v); break;
		case MOD_ENV_ADD:
		case MOD_ENV_EDIT: submit_env(a, v); break;
		case MOD_KEY_CREATE: submit_key(a, v); break;
		case MOD_ROLE_CREATE:
		case MOD_ROLE_EDIT: submit_role(a, v); break;
		case MOD_KEY_FILE: submit_file(v); break;
		case MOD_MACHINE: {
			double id = 0;
			if (form_number(&v->fm, "machine", &id)) {
				modal_close(v);
				set_machine(a, v, (long)id);
			}
			break;
		}
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
			enum dlg_result dr = dialog_key(&v->dlg, key);
			if (dr == DLG_CONTINUE)
				return true;
			v->ssh_dup = false;
			long id = v->dlg.instance_id;
			dialog_close(&v->dlg);
			if (dr == DLG_SUBMIT) {
				v->ssh_dup_ok = true;
				submit_ssh(a, v);
			} else {
				char msg[120];
				snprintf(msg, sizeof msg, "not sent: the key is already there as SSH key %ld", id);
				form_set_answer(&v->fm, NULL, msg);
			}
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
		form_modal_key(a, v, key);
		return true;
	case MOD_KEY_SHOW:
		if (key == 'y') {
			app_copy(v->newkey);
			snprintf(v->show_msg, sizeof v->show_msg,
				 "sent to the terminal's clipboard (OSC 52; the terminal must allow it)");
		} else if (key == 'w') {
			open_file_form(v);
		} else if (key == '\n' || key == 27 || key == 'q') {
			app_toast(a, ROLE_OK, 6, "API key %ld created; its value is forgotten",
				  v->newkey_id);
			modal_close(v);
		}
		return true;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN: {
		if (v->dlg.waiting && key != 27)
			return true;
		enum dlg_result r = dialog_key(&v->dlg, key);
		switch (r) {
		case DLG_CANCEL:
			if (v->action_id)
				model_drop_result(a->m, v->action_id);
			if (v->own_req)
				model_drop_result(a->m, v->own_req);
			modal_close(v);
			break;
		case DLG_SUBMIT: submit_delete(a, v); break;
		case DLG_CONTINUE: break;
		}
		return true;
	}
	}
	return false;
}

/* The dialog that shows a new API key, this once. */
static void draw_key_show(struct app *a, struct acct_view *v)
{
	const struct layout *l = &a->lay;
	if (l->too_small)
		return;
	char intro[400], lines[8][256], keyl[8][256];
	char *name = util_sanitize(v->newkey_name);
	snprintf(intro, sizeof intro,
		 "API key %ld \"%s\" is created. Copy it now: rentop shows it only this once and "
		 "forgets it when this closes.", v->newkey_id, name);
	free(name);
	int want_w = 76;
	struct rect probe = layout_dialog(l, want_w, l->rows);
	int inner = probe.w - 4;
	int ni = dialog_wrap(intro, inner, lines, 4);
	/* the key itself, cut into lines of the inner width (no word breaks) */
	int nk = 0;
	size_t len = strlen(v->newkey), step = inner > 8 ? (size_t)inner : 8;
	for (size_t off = 0; off < len && nk < 8; off += step, nk++)
		snprintf(keyl[nk], sizeof keyl[nk], "%.*s", (int)(len - off < step ? len - off : step),
			 v->newkey + off);
	char msgl[3][256];
	int nm = v->show_msg[0] ? dialog_wrap(v->show_msg, inner, msgl, 2) : 0;
	int h = 2 + ni + 1 + nk + 1 + 1 + (nm ? nm + 1 : 0) + 2;
	struct rect r = layout_dialog(l, want_w, h);
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, "New API key (shown once)", bg);
	int y = r.y + 2, bottom = r.y + r.h - 1;
	for (int i = 0; i < ni && y < bottom; i++)
		draw_text(y++, r.x + 2, inner, lines[i], bg);
	y++;
	for (int i = 0; i < nk && y < bottom; i++)
		draw_text(y++, r.x + 2, inner, keyl[i], theme_attr(ROLE_INPUT));
	y++;
	if (y < bottom)
		draw_text(y++, r.x + 2, inner, "y copy (OSC 52)   w write to a new 0600 file   Enter close",
			  theme_attr(ROLE_KEY));
	if (nm && y + 1 < bottom) {
		y++;
		for (int i = 0; i < nm && y < bottom; i++)
			draw_text(y++, r.x + 2, inner, msgl[i], theme_attr(ROLE_OK));
	}
}

static bool acct_modal_draw(struct app *a, void *st)
{
	struct acct_view *v = st;
	switch (v->modal) {
	case MOD_NONE: return false;
	case MOD_KEY_FILE:
		draw_key_show(a, v);
		form_draw(&v->fm, &a->lay);
		return true;
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
	case MOD_MACHINE:
		form_draw(&v->fm, &a->lay);
		if (v->modal == MOD_SSH_ADD && v->ssh_dup) {
			dialog_draw(&v->dlg, &a->lay);
			return false;
		}
		return !form_busy(&v->fm);
	case MOD_KEY_SHOW:
		draw_key_show(a, v);
		return false;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN:
		dialog_draw(&v->dlg, &a->lay);
		return false;
	}
	return false;
}

/* The awaited action finished: close on success (and re-fetch), keep the
 * modal open with the service's words otherwise. */
static void action_done(struct app *a, struct acct_view *v, struct call_result *r)
{
	char msg[400];
	bool ok = r->outcome == CALL_OK;
	if (r->outcome == CALL_UNKNOWN)
		snprintf(msg, sizeof msg, "the answer was lost: the change may have been made (%s)",
			 r->err.msg);
	else if (!ok)
		api_account_error_text(&r->err, msg, sizeof msg);
	v->action_id = 0;
	switch (v->modal) {
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
		if (r->outcome == CALL_UNKNOWN) { /* never sent again from this form */
			lost_begin(a, v, r);
			break;
		}
		if (!ok) {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, msg);
			break;
		}
		if (v->modal == MOD_KEY_CREATE) {
			const struct api_account_key *k = r->value;
			if (!k) { /* cannot happen: the mapper fails without a key */
				v->fm.waiting = false;
				form_set_answer(&v->fm, NULL, "the answer held no key");
				break;
			}
			memcpy(v->newkey, k->key, sizeof v->newkey);
			v->newkey_id = k->id;
			form_free(&v->fm);
			v->show_msg[0] = '\0';
			v->modal = MOD_KEY_SHOW;
			break;
		}
		if (v->modal == MOD_SSH_ADD) {
			app_toast(a, ROLE_OK, 4, "SSH key %s added", v->target);
		} else if (v->modal == MOD_ROLE_CREATE || v->modal == MOD_ROLE_EDIT) {
			char *name = util_sanitize(form_value(&v->fm, "name"));
			app_toast(a, ROLE_OK, 4, "team role %s %s", name,
				  v->modal == MOD_ROLE_CREATE ? "created" : "changed");
			free(name);
		} else {
			app_toast(a, ROLE_OK, 4, "env var %s %s", form_value(&v->fm, "key"),
				  v->modal == MOD_ENV_ADD ? "added" : "changed");
		}
		modal_close(v);
		break;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN:
		if (r->outcome == CALL_UNKNOWN) { /* never sent again from this dialog */
			lost_begin(a, v, r);
			break;
		}
		if (!ok) {
			v->dlg.waiting = false;
			util_strlcpy(v->dlg.error, msg, sizeof v->dlg.error);
			break;
		}
		if (v->modal == MOD_SSH_DELETE)
			app_toast(a, ROLE_OK, 4, "SSH key %ld deleted", v->target_id);
		else if (v->modal == MOD_KEY_DELETE_OWN && v->own == OWN_YES)
			/* an event: kept in the event log, past the refusals that follow */
			model_event(a->m, EV_WARN, -1, 0, 0, 0,
				    "API key %ld deleted: it was rentop's own key; restart rentop with another key",
				    v->target_id);
		else if (v->modal == MOD_KEY_DELETE || v->modal == MOD_KEY_DELETE_OWN)
			app_toast(a, ROLE_OK, 4, "API key %ld deleted", v->target_id);
		else
			app_toast(a, ROLE_OK, 4, "%s %s deleted",
				  v->modal == MOD_ENV_DELETE ? "env var" : "team role", v->target);
		modal_close(v);
		break;
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
		break;
	}
	refresh_all(a, v, true);
	a->dirty |= DIRTY_ALL;
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
		} else if (r.outcome != CALL_OK) {
			util_strlcpy(v->err[k], r.err.msg, sizeof v->err[k]);
		}
		lost_reread(a, v, (enum list_kind)k, &r);
		call_result_free(&r);
		changed = true;
	}
	if (v->rep_sub && model_take_result(a->m, v->rep_sub, &r)) {
		if (r.outcome == CALL_OK && r.value) {
			json_list_free(v->rep);
			v->rep = r.value;
			r.value = NULL;
			v->rep_err[0] = '\0';
		} else if (r.outcome != CALL_OK) {
			util_strlcpy(v->rep_err, r.err.msg, sizeof v->rep_err);
		}
		call_result_free(&r);
		changed = true;
	}
	if (v->reveal_req && model_take_result(a->m, v->reveal_req, &r)) {
		reveal_done(a, v, &r);
		call_result_free(&r);
		changed = true;
	}
	if (v->own_req && model_take_result(a->m, v->own_req, &r)) {
		own_done(a, v, &r);
		call_result_free(&r);
		changed = true;
	}
	if (v->action_id && model_take_result(a->m, v->action_id, &r)) {
		action_done(a, v, &r);
		call_result_free(&r);
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
		refresh_all(a, v, true);
}

static void acct_leave(struct app *a, void *st)
{
	reveal_hide(a, st);
	refresh_all(a, st, false);
}

/* The view's actions: moving between sections, then each section's own. */
enum acct_act { AA_NEXT, AA_PREV, AA_ENV_ADD, AA_ENV_EDIT, AA_ENV_DELETE, AA_ENV_REVEAL, AA_KEY_CREATE,
		AA_KEY_DELETE, AA_SSH_ADD, AA_SSH_DELETE, AA_ROLE_CREATE, AA_ROLE_EDIT,
		AA_ROLE_DELETE, AA_MACHINE, AA__COUNT };
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
};
#undef ROW

/* Open the confirmation of a delete (the selected row of the section). */
static void open_delete(struct app *a, struct acct_view *v, enum acct_act which)
{
	char text[512];
	switch (which) {
	case AA_ENV_DELETE: {
		const struct env_var *e = env_selected(v);
		if (!e)
			return;
		util_strlcpy(v->target, e->key, sizeof v->target);
		snprintf(text, sizeof text,
			 "Delete the env var %s? New instances will no longer get it.", e->key);
		dialog_confirm(&v->dlg, 0, 0, "Delete env var", text, "Delete");
		v->modal = MOD_ENV_DELETE;
		return;
	}
	case AA_SSH_DELETE: {
		const struct ssh_key_rec *k = ssh_selected(v);
		if (!k)
			return;
		v->target_id = k->id;
		snprintf(text, sizeof text,
			 "Delete SSH key %ld (%s %s)? Instances created after this will not accept it.",
			 k->id, k->type[0] ? k->type : "?", k->fingerprint);
		dialog_confirm(&v->dlg, 0, 0, "Delete SSH key", text, "Delete");
		v->modal = MOD_SSH_DELETE;
		return;
	}
	case AA_ROLE_DELETE: {
		const struct team_role *r = role_selected(v);
		if (!r || !r->name)
			return;
		util_strlcpy(v->target, r->name, sizeof v->target);
		v->target_id = r->id;
		snprintf(text, sizeof text,
			 "Delete the team role %s? Members holding it lose its permissions.",
			 r->name);
		dialog_confirm(&v->dlg, 0, 0, "Delete team role", text, "Delete");
		v->modal = MOD_ROLE_DELETE;
		return;
	}
	case AA_KEY_DELETE: {
		const struct api_key_rec *k = key_selected(v);
		if (!k)
			return;
		char sum[160];
		acct_rights_summary(k->rights, sum, sizeof sum);
		v->target_id = k->id;
		snprintf(text, sizeof text,
			 "Delete API key %ld \"%s\" (%s)? Every program and person using it loses "
			 "access at once.", k->id, k->name ? k->name : "", sum);
		dialog_confirm(&v->dlg, 0, 0, "Delete API key", text, "Delete");
		v->modal = MOD_KEY_DELETE;
		start_own_check(a, v, k->id);
		return;
	}
	case AA_NEXT:
	case AA_PREV:
	case AA_ENV_ADD:
	case AA_ENV_EDIT:
	case AA_ENV_REVEAL:
	case AA_KEY_CREATE:
	case AA_SSH_ADD:
	case AA_ROLE_CREATE:
	case AA_ROLE_EDIT:
	case AA_MACHINE:
	case AA__COUNT:
		return;
	}
}

static bool acct_action(struct app *a, void *st, enum action act)
{
	struct acct_view *v = st;
	size_t n = section_rows(v, v->sec);
	size_t page = a->lay.body.h > 3 ? (size_t)a->lay.body.h - 3 : 1;
	size_t *sel = &v->sel[v->sec];
	int which = action_row_of(acct_rows, AA__COUNT, act);
	if (which < 0) { /* not one of ours: the navigation keys */
		if (!action_builtin(act)) /* another registered action: its run handles it */
			return false;
		switch (act) {
		case ACT_UP: if (*sel) (*sel)--; break;
		case ACT_DOWN: if (*sel + 1 < n) (*sel)++; break;
		case ACT_PAGE_UP: *sel = *sel > page ? *sel - page : 0; break;
		case ACT_PAGE_DOWN: *sel = *sel + page < n ? *sel + page : (n ? n - 1 : 0); break;
		case ACT_TOP: *sel = 0; break;
		case ACT_BOTTOM: *sel = n ? n - 1 : 0; break;
		case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
		case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
		case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
		case ACT_SORT_INVERT:
			return false;
		}
		a->dirty |= DIRTY_ALL;
		return true;
	}
	switch ((enum acct_act)which) {
	case AA_NEXT:
	case AA_PREV: {
		int d = which == AA_NEXT ? 1 : SEC__COUNT - 1;
		v->sec = (enum section)(((int)v->sec + d) % SEC__COUNT);
		break;
	}
	case AA_ENV_ADD: open_env_form(v, false); break;
	case AA_ENV_REVEAL: reveal_start(a, v); break;
	case AA_ENV_EDIT: open_env_form(v, true); break;
	case AA_KEY_CREATE: open_key_form(v); break;
	case AA_SSH_ADD: open_ssh_form(v); break;
	case AA_ROLE_CREATE: open_role_form(v, false); break;
	case AA_ROLE_EDIT: open_role_form(v, true); break;
	case AA_MACHINE: open_machine_form(v); break;
	case AA_ENV_DELETE:
	case AA_KEY_DELETE:
	case AA_SSH_DELETE:
	case AA_ROLE_DELETE:
		open_delete(a, v, (enum acct_act)which);
		break;
	case AA__COUNT:
		break;
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

/* The sections' `:account` words, in enum section order (NULL-ended). */
static const char *const section_words[SEC__COUNT + 1] = { "overview", "env",     "apikeys", "ssh",
							   "roles",    "reports", NULL };

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
	for (int s = 0; s < SEC__COUNT; s++) {
		if (strcasecmp(w, section_words[s]) != 0)
			continue;
		if (s != SEC_REPORTS || !*rest) {
			v->sec = (enum section)s;
		} else {
			long id;
			if (acctops_machine_id(rest, &id))
				set_machine(a, v, id);
			else
				app_toast(a, ROLE_ERROR, 8, ":reports needs a machine id (a positive number), not \"%.40s\"",
					  rest);
		}
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (*w)
		app_toast(a, ROLE_ERROR, 8,
			  "no account section \"%.40s\" (overview env apikeys ssh roles reports)", w);
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
	set_machine(a, a->views[idx].st, machine);
}

void pane_account_reports_keys(struct keymap *km, int ctx)
{
	static const struct action_row row = {
		{ .name = "machine-reports", .help = "the machine's problem reports (account view)",
		  .hint = "reports", .flags = AF_NEEDS_SEL, .why_not = why_not_machine,
		  .run = run_machine_reports },
		"M", NULL, NULL,
	};
	action_bind(km, ctx, &row);
}

/* The sections' contexts (before the table binds their rows), and the
 * section moves bound in each of them as in the view's. */
static void acct_keys(struct keymap *km, int ctx)
{
	static const struct {
		const char *name, *heading;
	} secs[SEC__COUNT] = {
		[SEC_ENV] = { "account-env", "Account view: Env vars" },
		[SEC_APIKEYS] = { "account-apikeys", "Account view: API keys" },
		[SEC_SSH] = { "account-ssh", "Account view: SSH keys" },
		[SEC_ROLES] = { "account-roles", "Account view: Team roles" },
		[SEC_REPORTS] = { "account-reports", "Account view: Machine reports" },
	};
	for (int s = 0; s < SEC__COUNT; s++) {
		if (!secs[s].name)
			continue;
		sec_ctx[s] = km_ctx_register(secs[s].name, secs[s].heading, CTXF_LIST | CTXF_SECTION, ctx);
		if (sec_ctx[s] < 0) {
			sec_ctx[s] = 0; /* full: the section falls back to the view's keys */
			continue;
		}
		keymap_ctx_defaults(km, sec_ctx[s]);
		action_bind(km, sec_ctx[s], &acct_rows[AA_NEXT]);
		action_bind(km, sec_ctx[s], &acct_rows[AA_PREV]);
	}
}

static void *acct_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct acct_view));
}

static void acct_fini(struct app *a, void *st)
{
	struct acct_view *v = st;
	if (v->own_req)
		model_drop_result(a->m, v->own_req);
	reveal_hide(a, v);
	modal_close(v);
	for (int k = 0; k < L__COUNT; k++) {
		if (v->sub[k])
			jobs_unsubscribe(a->jobs, v->sub[k]);
		lists[k].free_value(v->val[k]);
	}
	if (v->rep_sub)
		jobs_unsubscribe(a->jobs, v->rep_sub);
	json_list_free(v->rep);
	free(v);
}

static const char *const acct_words[] = { "reports", NULL };

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
	.selected_row = acct_selected,
	.command = acct_command,
	.words = acct_words,
	.args = section_words,
	.modal_key = acct_modal_key,
	.modal_draw = acct_modal_draw,
	.key_ctx = acct_key_ctx,
};
