/* account_team.c: the account view's Team section (members: name, e-mail,
 * role; invite by e-mail with a role, change a member's role, remove a
 * member, confirmed starting on Cancel) and its Audit log section (who did
 * what, when, from which address; `:audit`; the list widget's `/` filters
 * it).  Only the owner and managers (or a role granting team_write) may
 * change members: for anyone else the keys say why instead, from the
 * account's own member row and its role's permissions.  Changes go
 * through account_change.c (at most once; a lost answer is judged from
 * the members list read again).  UI thread only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_account.h"
#include "app.h"
#include "base/config.h"
#include "flow/acctteam.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "views/account/account.h"

const struct team_member *account_team_selected(const struct acct_view *v)
{
	return pane_account_selected(v, SEC_TEAM);
}

void account_team_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	const struct team_member *m = &LIST_AT(v, L_MEMBERS, struct team_member)[i];
	snprintf(buf, n, "%-9ld %-14.14s %-22.22s %-30.30s %s", m->id, m->username, m->fullname,
		 m->email, m->role[0] ? m->role : "-");
}

static void team_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_team_row(ctx, i, buf, n);
}

const struct list_ops account_team_list = { .text = team_text };

void account_audit_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	const struct audit_row *r = &LIST_AT(v, L_AUDIT, struct audit_row)[i];
	char when[32] = "-";
	if (isfinite(r->when)) {
		time_t t = (time_t)r->when;
		struct tm tm;
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
	}
	snprintf(buf, n, "%-16s  %-24.24s %-15.15s %-36.36s %s", when, r->who[0] ? r->who : "-",
		 r->ip[0] ? r->ip : "-", r->what, r->args);
}

static void audit_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_audit_row(ctx, i, buf, n);
}

const struct list_ops account_audit_list = { .text = audit_text };

/* The account's own member row (NULL: not known yet). */
static const struct team_member *me(const struct app *a, const struct acct_view *v)
{
	const struct json_list *l = LIST(v, L_MEMBERS);
	const struct user *u = a->snap ? a->snap->user : NULL;
	if (!l || !u)
		return NULL;
	return acctteam_me(l->v, l->n, u->id, u->email);
}

/* Why the account may not change members (into buf), NULL when it may. */
const char *account_team_why_not(const struct app *a, const struct acct_view *v, char *buf,
				 size_t n)
{
	if (v->err[L_MEMBERS][0] && !LIST(v, L_MEMBERS)) {
		snprintf(buf, n, "the team members could not be read: %s", v->err[L_MEMBERS]);
		return buf;
	}
	const struct team_member *m = me(a, v);
	if (!LIST(v, L_MEMBERS)) {
		snprintf(buf, n, "the team members are still being read");
		return buf;
	}
	const char *perm = NULL;
	const struct json_list *rl = LIST(v, L_ROLES);
	for (size_t i = 0; m && rl && i < rl->n; i++) {
		const struct team_role *r = &json_list_at(rl, const struct team_role)[i];
		if (r->name && !strcmp(r->name, m->role))
			perm = r->permissions;
	}
	if (m && acctteam_can_manage(m->role, perm))
		return NULL;
	snprintf(buf, n, "only the team's owner and managers can invite, change roles or remove "
		 "members (your role: %s)", m && m->role[0] ? m->role : "not a member");
	return buf;
}

void account_team_title(const struct app *a, const struct acct_view *v, char *buf, size_t n)
{
	char why[300];
	const struct team_member *m = me(a, v);
	if (!LIST(v, L_MEMBERS)) {
		snprintf(buf, n, "%s", v->err[L_MEMBERS][0] ? "" : "team members: fetching...");
		return;
	}
	if (a->cfg->read_only)
		snprintf(buf, n, "%zu members; your role: %s (read-only: no changes)", LIST(v, L_MEMBERS)->n,
			 m && m->role[0] ? m->role : "-");
	else if (account_team_why_not(a, v, why, sizeof why))
		snprintf(buf, n, "%zu members; %s", LIST(v, L_MEMBERS)->n, why);
	else
		snprintf(buf, n, "%zu members; your role: %s (a invite, e change role, d remove)",
			 LIST(v, L_MEMBERS)->n, m ? m->role : "-");
}

/* May the account change members? Says why not in a toast. */
static bool may(struct app *a, const struct acct_view *v)
{
	char why[300];
	if (!account_team_why_not(a, v, why, sizeof why))
		return true;
	app_toast(a, ROLE_WARNING, 8, "%s", why);
	return false;
}

/* The role names the forms offer (the team roles read, else the three
 * built-in ones), into v->role_choice; the index of current, else of "member". */
static int role_choices(struct acct_view *v, const char *current)
{
	static const char *const builtin[] = { "owner", "manager", "member" };
	const struct json_list *rl = LIST(v, L_ROLES);
	account_team_choices_free(v);
	for (size_t i = 0; rl && i < rl->n && v->nrole_choice < ROLE_CHOICES_MAX; i++) {
		const struct team_role *r = &json_list_at(rl, const struct team_role)[i];
		if (r->name && *r->name && strcmp(r->name, "owner"))
			v->role_choice[v->nrole_choice++] = xstrdup(r->name);
	}
	for (size_t i = 1; !v->nrole_choice && i < 3; i++)
		v->role_choice[v->nrole_choice++] = xstrdup(builtin[i]);
	int pick = 0;
	for (int i = 0; i < v->nrole_choice; i++)
		if (!strcmp(v->role_choice[i], current ? current : "member"))
			pick = i;
	return pick;
}

void account_team_choices_free(struct acct_view *v)
{
	for (int i = 0; i < v->nrole_choice; i++)
		free(v->role_choice[i]);
	v->nrole_choice = 0;
}

void account_team_open_invite(struct app *a, struct acct_view *v)
{
	if (!may(a, v))
		return;
	form_init(&v->fm, "Invite a team member");
	form_add_text(&v->fm, "email", "E-mail", "", 120, true);
	int pick = role_choices(v, "member");
	form_add_choice(&v->fm, "role", "Role", (const char *const *)v->role_choice, v->nrole_choice,
			pick);
	v->modal = MOD_MEMBER_INVITE;
}

void account_team_open_role(struct app *a, struct acct_view *v)
{
	const struct team_member *m = account_team_selected(v);
	if (!m || !may(a, v))
		return;
	if (!strcmp(m->role, "owner")) {
		app_toast(a, ROLE_WARNING, 8, "the team's owner keeps the owner role");
		return;
	}
	char title[200];
	snprintf(title, sizeof title, "Role of %s", m->email[0] ? m->email : m->username);
	form_init(&v->fm, title);
	int pick = role_choices(v, m->role);
	form_add_choice(&v->fm, "role", "Role", (const char *const *)v->role_choice, v->nrole_choice,
			pick);
	v->target_id = m->id;
	util_strlcpy(v->target, m->email[0] ? m->email : m->username, sizeof v->target);
	v->modal = MOD_MEMBER_ROLE;
}

/* The chosen role's name ("" when none). */
const char *account_team_role_chosen(const struct acct_view *v)
{
	int k = form_choice(&v->fm, "role");
	return k >= 0 && k < v->nrole_choice ? v->role_choice[k] : "";
}

void account_team_submit(struct app *a, struct acct_view *v)
{
	struct job_call c = { .action = true };
	if (v->modal == MOD_MEMBER_INVITE) {
		const char *email = form_value(&v->fm, "email");
		if (!strchr(email, '@') || strchr(email, ' ')) {
			form_set_answer(&v->fm, "email", "an e-mail address (name@example.com)");
			return;
		}
		util_strlcpy(v->target, email, sizeof v->target);
		c.call = api_member_invite(a->cfg, email, account_team_role_chosen(v));
		snprintf(c.what, sizeof c.what, "invite team member");
	} else {
		c.call = api_member_role(a->cfg, v->target_id, account_team_role_chosen(v));
		snprintf(c.what, sizeof c.what, "change team member role");
	}
	account_change_send(a, v, &c, true);
}

void account_team_open_remove(struct app *a, struct acct_view *v)
{
	const struct team_member *m = account_team_selected(v);
	if (!m || !may(a, v))
		return;
	char text[400];
	util_strlcpy(v->target, m->email[0] ? m->email : m->username, sizeof v->target);
	v->target_id = m->id;
	snprintf(text, sizeof text, "Remove %s (%s, role %s) from the team? They lose access to "
		 "the team's instances at once.", m->username, m->email, m->role[0] ? m->role : "-");
	dialog_confirm(&v->dlg, 0, 0, "Remove team member", text, "Remove");
	v->modal = MOD_MEMBER_REMOVE;
}
