/* account_env.c: the account view's env vars section: names and a fixed
 * mask; add, edit, delete; v reads one value now and shows it on its row
 * until the selection moves or 10 s pass (wiped then).  A value is typed
 * into a secret field and lives only in the form and the request body.
 * UI thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "app.h"
#include "flow/acctops.h"
#include "state/model.h"
#include "base/util.h"
#include "views/account/account.h"

const struct env_var *account_env_selected(const struct acct_view *v)
{
	return pane_account_selected(v, SEC_ENV);
}

/* One row: the name and a fixed mask (the value read with v while shown). */
void account_env_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
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
}

/* The `/` filter's text of a row: its name (never a revealed value). */
static void list_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct acct_view *v = ctx;
	snprintf(buf, n, "%s", LIST_AT(v, L_ENV, struct env_var)[i].key);
}

const struct list_ops account_env_list = { .text = list_text };

/* ---- the value shown on request (v) ---- */

/* Hide the revealed value (wiped). */
void account_env_reveal_hide(struct app *a, struct acct_view *v)
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
void account_env_reveal_start(struct app *a, struct acct_view *v)
{
	const struct env_var *e = account_env_selected(v);
	if (!e)
		return;
	bool same = v->reveal_on && !strcmp(v->reveal_key, e->key);
	account_env_reveal_hide(a, v);
	if (same)
		return;
	util_strlcpy(v->reveal_key, e->key, sizeof v->reveal_key);
	v->reveal_sel = pane_account_sel(v, SEC_ENV);
	struct job_call c = { 0 };
	c.call = api_env_list(a->cfg);
	c.map = acct_map_env_values;
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
void account_env_reveal_done(struct app *a, struct acct_view *v, const struct call_result *r)
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
	} else if (v->sec == SEC_ENV && pane_account_sel(v, SEC_ENV) == v->reveal_sel) {
		util_strlcpy(v->reveal_val, e->value, sizeof v->reveal_val);
		v->reveal_on = true;
		v->reveal_until = util_mono() + ENV_REVEAL_S;
	}
	a->dirty |= DIRTY_BODY;
}

/* Hide the value once the selection moved or its time is up. */
void account_env_reveal_check(struct app *a, struct acct_view *v)
{
	if (!v->reveal_on)
		return;
	const struct env_var *e = account_env_selected(v);
	if (!e || pane_account_sel(v, SEC_ENV) != v->reveal_sel || strcmp(e->key, v->reveal_key) != 0 ||
	    util_mono() >= v->reveal_until)
		account_env_reveal_hide(a, v);
}

/* ---- add, edit, delete ---- */

static bool check_env_name(const struct form_field *f, char *err, size_t n)
{
	if (api_env_name_valid(f->tb.s))
		return true;
	snprintf(err, n, "letters, digits and _, not starting with a digit (at most 128)");
	return false;
}

/* Open the add (edit: the selected var) form. */
void account_env_open(struct acct_view *v, bool edit)
{
	const struct env_var *e = account_env_selected(v);
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

/* Send the form's change as an at-most-once action. */
void account_env_submit(struct app *a, struct acct_view *v)
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
	account_change_send(a, v, &c, true);
}

/* d: the confirmation of a delete of the selected var. */
void account_env_open_delete(struct acct_view *v)
{
	char text[512];
	const struct env_var *e = account_env_selected(v);
	if (!e)
		return;
	util_strlcpy(v->target, e->key, sizeof v->target);
	snprintf(text, sizeof text,
		 "Delete the env var %s? New instances will no longer get it.", e->key);
	dialog_confirm(&v->dlg, 0, 0, "Delete env var", text, "Delete");
	v->modal = MOD_ENV_DELETE;
}
