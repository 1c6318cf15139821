/* account_roles.c: the account view's team roles section: name and
 * permission categories; create, edit (the scope picker; permissions
 * merged into the role's own), delete.  UI thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "rules/acct.h"
#include "flow/acctops.h"
#include "base/util.h"
#include "views/account/account.h"

const struct team_role *account_roles_selected(const struct acct_view *v)
{
	return pane_account_selected(v, SEC_ROLES);
}

void account_roles_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	const struct team_role *r = &LIST_AT(v, L_ROLES, struct team_role)[i];
	snprintf(buf, n, "%-24.24s %s", r->name ? r->name : "", r->summary ? r->summary : "");
}

static void list_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_roles_row(ctx, i, buf, n);
}

const struct list_ops account_roles_list = { .text = list_text };

/* Open the role form: create (empty, instances preset) or edit the selected role. */
void account_roles_open(struct acct_view *v, bool edit)
{
	const struct team_role *r = account_roles_selected(v);
	if (edit && !r)
		return;
	form_init(&v->fm, edit ? "Edit team role" : "Create team role");
	int k = form_add_text(&v->fm, "name", "Name", edit && r->name ? r->name : "", 64, true);
	if (k >= 0)
		v->fm.f[k].check = account_scope_check_name;
	unsigned mask = edit ? acct_rights_mask_text(r->permissions, NULL)
			     : acct_scope_mask(SCOPE_READ_ONLY, 0);
	if (edit && (!r->permissions || !r->permissions[0]))
		mask = 0; /* a role without permissions grants nothing */
	account_scope_add(&v->fm, mask);
	account_scope_start(v);
	if (edit) {
		util_strlcpy(v->target, r->name ? r->name : "", sizeof v->target);
		v->target_id = r->id;
		v->orig_perm = xstrdup(r->permissions ? r->permissions : "");
		v->fm.focus = 1;
	}
	v->modal = edit ? MOD_ROLE_EDIT : MOD_ROLE_CREATE;
}

/* Send the role: created, or edited (name when changed, permissions merged). */
void account_roles_submit(struct app *a, struct acct_view *v)
{
	unsigned m = account_scope_mask(&v->fm);
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
	account_change_send(a, v, &c, true);
}

/* d: the confirmation of a delete of the selected role. */
void account_roles_open_delete(struct acct_view *v)
{
	char text[512];
	const struct team_role *r = account_roles_selected(v);
	if (!r || !r->name)
		return;
	util_strlcpy(v->target, r->name, sizeof v->target);
	v->target_id = r->id;
	snprintf(text, sizeof text,
		 "Delete the team role %s? Members holding it lose its permissions.",
		 r->name);
	dialog_confirm(&v->dlg, 0, 0, "Delete team role", text, "Delete");
	v->modal = MOD_ROLE_DELETE;
}
