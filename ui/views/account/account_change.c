/* account_change.c: a change of the account view (add, edit, create,
 * delete) sent as an at-most-once action (jobs_call, action = true) and
 * its answer: the form or dialog closes on success (the lists read again),
 * keeps the service's words on a refusal, and locks when the answer was
 * lost (form_lost_*, dialog_lost_*: nothing is sent again from it) until
 * the list it changes, read again, says whether it took effect.  UI thread
 * only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "net/apierr.h"
#include "app.h"
#include "flow/acctops.h"
#include "flow/acctteam.h"
#include "state/model.h"
#include "base/util.h"
#include "views/account/account.h"

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
	case MOD_MEMBER_ROLE:
	case MOD_MEMBER_REMOVE: return L_MEMBERS;
	case MOD_MEMBER_INVITE: /* an invitation shows as a member only once accepted */
	case MOD_TRANSFER:
	case MOD_TRANSFER_CONFIRM:
	case MOD_PRICE_ANSWER:
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
	case MOD_BILL_RANGE:
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
	case MOD_MEMBER_REMOVE:
		return true;
	case MOD_MEMBER_INVITE:
	case MOD_MEMBER_ROLE:
	case MOD_TRANSFER:
	case MOD_TRANSFER_CONFIRM:
	case MOD_PRICE_ANSWER:
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
	case MOD_BILL_RANGE:
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
					  name, account_scope_mask(&v->fm));
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
	case MOD_MEMBER_ROLE:
		return acctteam_count(l->v, l->n, v->target_id, account_team_role_chosen(v));
	case MOD_MEMBER_REMOVE:
		return acctteam_count(l->v, l->n, v->target_id, NULL);
	case MOD_MEMBER_INVITE:
	case MOD_TRANSFER:
	case MOD_TRANSFER_CONFIRM:
	case MOD_PRICE_ANSWER:
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
	case MOD_BILL_RANGE:
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
	if (v->modal == MOD_ENV_EDIT || ((v->modal == MOD_ROLE_EDIT || v->modal == MOD_MEMBER_ROLE) && n != 0))
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
				   : v->modal == MOD_SSH_ADD || v->modal == MOD_MEMBER_INVITE ||
						   v->modal == MOD_MEMBER_ROLE || dlg
					   ? v->target
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
	case MOD_MEMBER_ROLE:
		snprintf(what, sizeof what, "team member %s", name);
		w.found = "holds the new role";
		w.missing = "does not hold the new role";
		w.done = "changed";
		w.undone = "not changed";
		break;
	case MOD_MEMBER_REMOVE:
		snprintf(what, sizeof what, "team member %s", name);
		w.done = "removed";
		w.undone = "not removed";
		break;
	case MOD_MEMBER_INVITE:
		snprintf(what, sizeof what, "the invitation of %s", name);
		w.done = "sent";
		w.undone = "not sent";
		break;
	case MOD_TRANSFER:
	case MOD_TRANSFER_CONFIRM:
	case MOD_PRICE_ANSWER:
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
	case MOD_BILL_RANGE:
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
void account_change_reread(struct app *a, struct acct_view *v, enum list_kind k,
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
		pane_account_modal_close(v);
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
		pane_account_modal_close(v);
		break;
	case FV_NOT_DONE:
	case FV_UNKNOWN:
	case FV_WAIT:
		break;
	}
	a->dirty |= DIRTY_ALL;
}

/* Queue an action; false (the reason in the open form or dialog) when refused. */
bool account_change_send(struct app *a, struct acct_view *v, struct job_call *c, bool form)
{
	if (modal_call_send(&v->call, a->jobs, c, form ? &v->fm : NULL, form ? NULL : &v->dlg) !=
	    JOBS_OK)
		return false;
	lost_note_before(v);
	return true;
}

/* Send the confirmed delete. */
void account_change_delete(struct app *a, struct acct_view *v)
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
			v->dlg.waiting = true; /* account_keys_own_done goes on */
			util_strlcpy(v->dlg.error, "checking whether rentop runs with this key...",
				     sizeof v->dlg.error);
			return;
		case OWN_YES:
		case OWN_UNKNOWN:
			account_keys_own_confirm(v);
			return;
		case OWN_NO:
			break;
		}
		/* fall through */
	case MOD_KEY_DELETE_OWN:
		c.call = api_apikey_delete(a->cfg, v->target_id);
		snprintf(c.what, sizeof c.what, "delete API key");
		break;
	case MOD_MEMBER_REMOVE:
		c.call = api_member_remove(a->cfg, v->target_id);
		snprintf(c.what, sizeof c.what, "remove team member");
		break;
	case MOD_MEMBER_INVITE:
	case MOD_MEMBER_ROLE:
	case MOD_TRANSFER:
	case MOD_TRANSFER_CONFIRM:
	case MOD_PRICE_ANSWER:
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
	case MOD_BILL_RANGE:
		return;
	}
	account_change_send(a, v, &c, false);
}

/* The awaited action finished: close on success (and re-fetch), keep the
 * modal open with the service's words otherwise. */
void account_change_done(struct app *a, struct acct_view *v, struct call_result *r)
{
	char msg[400];
	bool ok = r->outcome == CALL_OK;
	if (r->outcome == CALL_UNKNOWN)
		snprintf(msg, sizeof msg, "the answer was lost: the change may have been made (%s)",
			 r->err.msg);
	else if (!ok)
		api_account_error_text(&r->err, msg, sizeof msg);
	switch (v->modal) {
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
	case MOD_ROLE_CREATE:
	case MOD_ROLE_EDIT:
	case MOD_KEY_CREATE:
	case MOD_MEMBER_INVITE:
	case MOD_MEMBER_ROLE:
		if (r->outcome == CALL_UNKNOWN) { /* never sent again from this form */
			lost_begin(a, v, r);
			break;
		}
		if (!ok) {
			modal_call_refused(&v->fm, NULL, msg);
			break;
		}
		if (v->modal == MOD_KEY_CREATE) {
			account_keys_created(v, r);
			break;
		}
		if (v->modal == MOD_MEMBER_INVITE) {
			app_toast(a, ROLE_OK, 6, "%s invited as %s (a member once accepted)", v->target,
				  account_team_role_chosen(v));
		} else if (v->modal == MOD_MEMBER_ROLE) {
			app_toast(a, ROLE_OK, 4, "%s is now %s", v->target, account_team_role_chosen(v));
		} else if (v->modal == MOD_SSH_ADD) {
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
		pane_account_modal_close(v);
		break;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
	case MOD_KEY_DELETE:
	case MOD_KEY_DELETE_OWN:
	case MOD_MEMBER_REMOVE:
		if (r->outcome == CALL_UNKNOWN) { /* never sent again from this dialog */
			lost_begin(a, v, r);
			break;
		}
		if (!ok) {
			modal_call_refused(NULL, &v->dlg, msg);
			break;
		}
		if (v->modal == MOD_MEMBER_REMOVE)
			app_toast(a, ROLE_OK, 4, "%s removed from the team", v->target);
		else if (v->modal == MOD_SSH_DELETE)
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
		pane_account_modal_close(v);
		break;
	case MOD_TRANSFER_CONFIRM:
		account_transfer_done(a, v, r);
		break;
	case MOD_PRICE_ANSWER:
		account_prices_done(a, v, r);
		break;
	case MOD_TRANSFER:
	case MOD_NONE:
	case MOD_KEY_SHOW:
	case MOD_KEY_FILE:
	case MOD_MACHINE:
	case MOD_BILL_RANGE:
		break;
	}
	pane_account_refresh(a, v, true);
	a->dirty |= DIRTY_ALL;
}
