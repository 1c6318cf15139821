/* sv_edit.c: the serverless view's autoscaler edits (sv_edit.h): the keys
 * (c create an endpoint, a add a workergroup to the selected endpoint, e
 * edit the selected endpoint or workergroup, d delete it, s suspend or
 * resume the endpoint: rows of the serverless view's action table, every
 * one AF_MUTATES) open the form or dialog; the
 * one at-most-once call each sends (jobs_call, action) and its result: a
 * success closes the modal, says so and refreshes the lists; a refusal
 * stays in its form or dialog with the service's words; a form whose
 * answer was lost locks (form_lost_*) and says what the lists, read
 * again, show: it closes when its change took effect, opens again (C-s
 * sends again) when it did not.  A delete or a suspend whose answer was
 * lost locks its dialog the same way (dialog_lost_*) and closes once the
 * lists say what happened, saying it (d or s opens a new one to try
 * again).  The records a modal is about are copied when it opens, so a
 * refresh while it is open changes neither the form nor what is compared
 * against. */
#include "views/serverless/sv_edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_serverless.h"
#include "app.h"
#include "widgets/dialog.h"
#include "widgets/modal_call.h"
#include "poll/jobs.h"
#include "poll/poller.h"
#include "rules/svfields.h"
#include "theme.h"
#include "views/templates/tpl_picker.h"
#include "base/util.h"

enum ed_modal {
	ED_NONE,
	ED_EP_CREATE,
	ED_EP_EDIT,
	ED_WG_CREATE,
	ED_WG_EDIT,
	ED_EP_DELETE,
	ED_WG_DELETE,
	ED_EP_SUSPEND,
	ED_UPDATE_WORKERS,
};

struct sv_edit {
	enum ed_modal modal;
	struct form fm;
	struct dialog dlg;
	struct endpoint ep;         /* the endpoint the modal is about (a copy) */
	struct workergroup wg;      /* the workergroup it is about (a copy) */
	bool have_ep, have_wg;
	long endpoint_id;           /* ED_WG_CREATE: on this endpoint */
	char endpoint_name[96];
	bool suspend;               /* ED_EP_SUSPEND: suspend (else resume) */
	struct modal_call call;     /* the call awaited */
	int lost_before;            /* the form's send: lost_count over the lists it went on */
	struct tpl_picker pick;     /* a workergroup form: Enter on template_hash picks one */
};

struct sv_edit *sv_edit_new(void)
{
	return xcalloc(1, sizeof(struct sv_edit));
}

static void modal_close(struct app *a, struct sv_edit *ed)
{
	modal_call_drop(&ed->call, a->m);
	form_free(&ed->fm);
	dialog_close(&ed->dlg);
	tpl_picker_close(&ed->pick);
	if (ed->have_ep)
		model_endpoint_clear(&ed->ep);
	if (ed->have_wg)
		model_workergroup_clear(&ed->wg);
	ed->have_ep = ed->have_wg = false;
	ed->modal = ED_NONE;
	a->dirty |= DIRTY_ALL;
}

void sv_edit_free(struct app *a, struct sv_edit *ed)
{
	if (!ed)
		return;
	modal_close(a, ed);
	tpl_picker_free(a, &ed->pick);
	free(ed);
}

static const struct endpoint *find_ep(const struct app *a, long id)
{
	for (size_t i = 0; a->snap && i < a->snap->nendpoints; i++)
		if (a->snap->endpoints[i].id == id)
			return &a->snap->endpoints[i];
	return NULL;
}

static const struct workergroup *find_wg(const struct app *a, long id)
{
	for (size_t i = 0; a->snap && i < a->snap->nworkergroups; i++)
		if (a->snap->workergroups[i].id == id)
			return &a->snap->workergroups[i];
	return NULL;
}

/* Keep a copy of the row's endpoint (the endpoint of a workergroup row). */
static bool take_ep(struct app *a, struct sv_edit *ed, const struct sv_row *row)
{
	const struct endpoint *e = row ? find_ep(a, row->endpoint_id) : NULL;
	if (!e) {
		app_toast(a, ROLE_WARNING, 6, "no endpoint selected");
		return false;
	}
	svfields_endpoint_copy(&ed->ep, e);
	ed->have_ep = true;
	return true;
}

static bool take_wg(struct app *a, struct sv_edit *ed, const struct sv_row *row)
{
	const struct workergroup *g =
		row && row->kind == SVR_WORKERGROUP ? find_wg(a, row->id) : NULL;
	if (!g)
		return false;
	svfields_workergroup_copy(&ed->wg, g);
	ed->have_wg = true;
	return true;
}

void sv_edit_open(struct app *a, struct sv_edit *ed, enum sv_op op, const struct sv_row *row)
{
	if (ed->modal != ED_NONE)
		modal_close(a, ed);
	char text[600];
	switch (op) {
	case SV_OP_EP_CREATE:
		sv_forms_endpoint(&ed->fm, NULL);
		ed->modal = ED_EP_CREATE;
		break;
	case SV_OP_WG_CREATE:
		if (!take_ep(a, ed, row))
			return;
		ed->endpoint_id = ed->ep.id;
		util_strlcpy(ed->endpoint_name, ed->ep.endpoint_name ? ed->ep.endpoint_name : "",
			     sizeof ed->endpoint_name);
		/* on a workergroup row: start from a copy of it */
		take_wg(a, ed, row);
		sv_forms_workergroup(&ed->fm, ed->have_wg ? &ed->wg : NULL, true, ed->endpoint_id,
				    ed->endpoint_name);
		ed->modal = ED_WG_CREATE;
		break;
	case SV_OP_EDIT:
		if (row && row->kind == SVR_WORKERGROUP) {
			if (!take_wg(a, ed, row))
				return;
			sv_forms_workergroup(&ed->fm, &ed->wg, false, ed->wg.endpoint_id,
					    ed->wg.endpoint_name);
			if (row->orphan) {
				snprintf(text, sizeof text, "Orphaned workergroup %ld: its endpoint %ld "
					 "is gone; this edits the workergroup itself.", ed->wg.id,
					 ed->wg.endpoint_id);
				form_set_answer(&ed->fm, NULL, text);
			}
			ed->modal = ED_WG_EDIT;
		} else {
			if (!take_ep(a, ed, row))
				return;
			sv_forms_endpoint(&ed->fm, &ed->ep);
			ed->modal = ED_EP_EDIT;
		}
		break;
	case SV_OP_DELETE:
		if (row && row->kind == SVR_WORKERGROUP) {
			if (!take_wg(a, ed, row))
				return;
			if (row->orphan)
				sv_tree_delete_orphan_text(&ed->wg, text, sizeof text);
			else
				sv_forms_delete_workergroup_text(&ed->wg, text, sizeof text);
			dialog_confirm(&ed->dlg, 0, ed->wg.id,
				       row->orphan ? "Delete orphaned workergroup" : "Delete workergroup",
				       text, "Delete");
			ed->modal = ED_WG_DELETE;
		} else {
			if (!take_ep(a, ed, row))
				return;
			sv_forms_delete_endpoint_text(&ed->ep, a->snap->workergroups, a->snap->nworkergroups,
						text, sizeof text);
			dialog_confirm(&ed->dlg, 0, ed->ep.id, "Delete endpoint", text, "Delete");
			ed->modal = ED_EP_DELETE;
		}
		break;
	case SV_OP_SUSPEND:
		if (!take_ep(a, ed, row))
			return;
		ed->suspend = sv_forms_endpoint_suspendable(&ed->ep);
		sv_forms_suspend_text(&ed->ep, ed->suspend, text, sizeof text);
		dialog_confirm(&ed->dlg, 0, ed->ep.id, ed->suspend ? "Suspend endpoint" : "Resume endpoint",
			       text, ed->suspend ? "Suspend" : "Resume");
		ed->modal = ED_EP_SUSPEND;
		break;
	case SV_OP_UPDATE_WORKERS: {
		const struct snapshot *s = a->snap;
		long id = row && row->kind == SVR_WORKERGROUP ? row->id : 0;
		if (!id && row && s) {
			char idtext[32];
			snprintf(idtext, sizeof idtext, "%ld", row->endpoint_id);
			id = sv_forms_update_target(idtext, s->endpoints, s->nendpoints, s->workergroups,
						   s->nworkergroups, text, sizeof text);
			if (!id) {
				app_toast(a, ROLE_WARNING, 8, "%s", text);
				return;
			}
		}
		sv_edit_update_workers(a, ed, id);
		return;
	}
	}
	a->dirty |= DIRTY_ALL;
}

void sv_edit_update_workers(struct app *a, struct sv_edit *ed, long wg_id)
{
	if (ed->modal != ED_NONE)
		modal_close(a, ed);
	const struct workergroup *g = find_wg(a, wg_id);
	if (!g) {
		app_toast(a, ROLE_WARNING, 6, "no workergroup %ld", wg_id);
		return;
	}
	svfields_workergroup_copy(&ed->wg, g);
	ed->have_wg = true;
	char text[600];
	sv_forms_update_workers_text(&ed->wg, text, sizeof text);
	dialog_confirm(&ed->dlg, 0, ed->wg.id, "Update workers", text, "Update");
	ed->modal = ED_UPDATE_WORKERS;
	a->dirty |= DIRTY_ALL;
}

/* Queue call as an at-most-once action for the open form (else the
 * dialog): it waits; false with the reason in it. */
/* update_workers' answer, mapped (poller thread). */
struct sv_update_answer {
	bool ok;
	char msg[200];
};

static void *map_update(const json_t *root, struct api_error *e)
{
	(void)e;
	struct sv_update_answer *u = xcalloc(1, sizeof *u);
	u->ok = api_update_workers_ok(root, u->msg, sizeof u->msg);
	return u;
}

static bool send_action(struct app *a, struct sv_edit *ed, struct api_call call, const char *what,
			bool form)
{
	struct job_call c = { .call = call };
	if (call.ep == EP_UPDATE_WORKERS)
		c.map = map_update;
	util_strlcpy(c.what, what, sizeof c.what);
	return modal_call_send(&ed->call, a->jobs, &c, form ? &ed->fm : NULL,
			       form ? NULL : &ed->dlg) == JOBS_OK;
}

static bool is_form(enum ed_modal m)
{
	switch (m) {
	case ED_EP_CREATE:
	case ED_EP_EDIT:
	case ED_WG_CREATE:
	case ED_WG_EDIT:
		return true;
	case ED_NONE:
	case ED_EP_DELETE:
	case ED_WG_DELETE:
	case ED_EP_SUSPEND:
	case ED_UPDATE_WORKERS:
		return false;
	}
	return false;
}

/* ---- a form whose answer was lost ------------------------------------------------ */

/* The endpoints whose id is id and, when state is not NULL, whose state is
 * state ("suspended", "active"). */
static int count_ep(const struct snapshot *s, long id, const char *state)
{
	int c = 0;
	for (size_t i = 0; i < s->nendpoints; i++) {
		const struct endpoint *e = &s->endpoints[i];
		if (e->id != id)
			continue;
		if (!state)
			c++;
		else if (!strcmp(state, "active") ? sv_forms_endpoint_suspendable(e)
						  : e->endpoint_state && !strcmp(e->endpoint_state, state))
			c++;
	}
	return c;
}

/* How many records of the snapshot's lists hold what the open form sends
 * (a delete: the record it deletes; a suspend: the endpoint in the state
 * asked for). */
static int lost_count(const struct app *a, const struct sv_edit *ed)
{
	const struct snapshot *s = a->snap;
	if (!s)
		return -1;
	switch (ed->modal) {
	case ED_EP_CREATE: return sv_forms_endpoint_count(&ed->fm, NULL, s->endpoints, s->nendpoints);
	case ED_EP_EDIT: return sv_forms_endpoint_count(&ed->fm, &ed->ep, s->endpoints, s->nendpoints);
	case ED_WG_CREATE:
		return sv_forms_workergroup_count(&ed->fm, NULL, ed->endpoint_id, s->workergroups,
						 s->nworkergroups);
	case ED_WG_EDIT:
		return sv_forms_workergroup_count(&ed->fm, &ed->wg, 0, s->workergroups,
						 s->nworkergroups);
	case ED_EP_DELETE: return count_ep(s, ed->ep.id, NULL);
	case ED_WG_DELETE: {
		int c = 0;
		for (size_t i = 0; i < s->nworkergroups; i++)
			c += s->workergroups[i].id == ed->wg.id;
		return c;
	}
	case ED_EP_SUSPEND: return count_ep(s, ed->ep.id, ed->suspend ? "suspended" : "active");
	case ED_UPDATE_WORKERS: /* no list says whether an update started */
	case ED_NONE:
		break;
	}
	return -1;
}

/* The answer to the open form's (or dialog's) change was lost: lock it
 * until a re-read (said in the modal and, quietly, in the event log). */
static void lost_begin(struct app *a, struct sv_edit *ed, const struct call_result *r)
{
	char what[200];
	struct form_lost_words w = { .what = what, .found = "exists", .missing = "not found",
				     .done = "created", .undone = "not created" };
	bool edit = ed->modal == ED_EP_EDIT || ed->modal == ED_WG_EDIT;
	if (edit) {
		w.found = "holds the new values";
		w.missing = "does not hold the new values";
		w.done = "changed";
		w.undone = "not changed";
	} else if (ed->modal == ED_EP_DELETE || ed->modal == ED_WG_DELETE) {
		w.found = "is gone";
		w.missing = "is still there";
		w.done = "deleted";
		w.undone = "not deleted";
		w.again = "d to try again";
		w.removes = true;
	} else if (ed->modal == ED_EP_SUSPEND) {
		w.found = ed->suspend ? "is suspended" : "is active";
		w.missing = ed->suspend ? "is not suspended" : "is not active";
		w.done = ed->suspend ? "suspended" : "resumed";
		w.undone = ed->suspend ? "not suspended" : "not resumed";
		w.again = "s to try again";
	}
	bool on_ep = ed->modal == ED_EP_EDIT || ed->modal == ED_EP_DELETE || ed->modal == ED_EP_SUSPEND;
	char *name = util_sanitize(ed->modal == ED_EP_CREATE ? form_value(&ed->fm, "endpoint_name")
				   : on_ep && ed->ep.endpoint_name ? ed->ep.endpoint_name
								   : ed->endpoint_name);
	switch (ed->modal) {
	case ED_EP_CREATE: snprintf(what, sizeof what, "endpoint %s", name); break;
	case ED_EP_EDIT: snprintf(what, sizeof what, "endpoint %s (%ld)", name, ed->ep.id); break;
	case ED_WG_CREATE:
		snprintf(what, sizeof what, "a new workergroup on endpoint %s", name);
		break;
	case ED_WG_EDIT:
	case ED_WG_DELETE: snprintf(what, sizeof what, "workergroup %ld", ed->wg.id); break;
	case ED_EP_DELETE:
	case ED_EP_SUSPEND: snprintf(what, sizeof what, "endpoint %s (%ld)", name, ed->ep.id); break;
	case ED_UPDATE_WORKERS:
		snprintf(what, sizeof what, "update workers of workergroup %ld", ed->wg.id);
		break;
	case ED_NONE:
		snprintf(what, sizeof what, "the change");
		break;
	}
	free(name);
	char why[300];
	apierr_format(&r->err, why, sizeof why);
	if (!is_form(ed->modal)) {
		dialog_lost_begin(&ed->dlg, &w, ed->lost_before, why, r->when);
		app_lost_logged(a, what, ed->dlg.error);
		return;
	}
	form_lost_begin(&ed->fm, &w, ed->lost_before, why, r->when);
	app_lost_logged(a, what, ed->fm.answer);
}

/* A new snapshot while the open form waits on a re-read: the list it
 * changes, read after the loss (or failed after it), says what happened. */
static void lost_reread(struct app *a, struct sv_edit *ed)
{
	bool form = is_form(ed->modal);
	if (ed->modal == ED_NONE || !a->snap ||
	    !(form ? form_lost_checking(&ed->fm) : dialog_lost_checking(&ed->dlg)))
		return;
	bool ep = ed->modal == ED_EP_CREATE || ed->modal == ED_EP_EDIT ||
		  ed->modal == ED_EP_DELETE || ed->modal == ED_EP_SUSPEND;
	const struct freshness *f = &a->snap->fresh[ep ? SRC_ENDPOINTS : SRC_WORKERGROUPS];
	double since = form ? ed->fm.lost.since : ed->dlg.lost.since;
	int after;
	double when;
	if (f->last_ok > since) {
		after = lost_count(a, ed);
		when = f->last_ok;
	} else if (f->last_err_at > since) {
		after = -1;
		when = f->last_err_at;
	} else {
		return;
	}
	char msg[400];
	enum form_verdict fv = app_lost_verdict(
		a, form ? form_lost_reread(&ed->fm, when, after, f->err, msg, sizeof msg)
			: dialog_lost_reread(&ed->dlg, when, after, f->err, msg, sizeof msg),
		msg);
	if (!form) { /* never sent again from the dialog: d or s opens a new one */
		if (fv == FV_DONE || fv == FV_NOT_DONE) { /* FV_UNKNOWN: locked, saying why */
			app_answer(a, fv == FV_DONE ? ROLE_OK : ROLE_WARNING, 0, "%s", msg);
			modal_close(a, ed);
		}
		a->dirty |= DIRTY_ALL;
		return;
	}
	switch (fv) {
	case FV_DONE:
		app_answer(a, ROLE_OK, 0, "%s", msg);
		modal_close(a, ed);
		break;
	case FV_NOT_DONE:
	case FV_UNKNOWN:
	case FV_WAIT:
		break;
	}
	a->dirty |= DIRTY_ALL;
}

static void submit_form(struct app *a, struct sv_edit *ed)
{
	struct api_call call;
	bool ok = false;
	char what[64];
	switch (ed->modal) {
	case ED_EP_CREATE:
		ok = sv_forms_endpoint_call(a->cfg, &ed->fm, NULL, &call);
		snprintf(what, sizeof what, "create endpoint %.40s", form_value(&ed->fm, "endpoint_name"));
		break;
	case ED_EP_EDIT:
		ok = sv_forms_endpoint_call(a->cfg, &ed->fm, &ed->ep, &call);
		snprintf(what, sizeof what, "edit endpoint %ld", ed->ep.id);
		break;
	case ED_WG_CREATE:
		ok = sv_forms_workergroup_call(a->cfg, &ed->fm, NULL, ed->endpoint_id,
					      ed->endpoint_name, &call);
		snprintf(what, sizeof what, "create workergroup on %.40s", ed->endpoint_name);
		break;
	case ED_WG_EDIT:
		ok = sv_forms_workergroup_call(a->cfg, &ed->fm, &ed->wg, 0, NULL, &call);
		snprintf(what, sizeof what, "edit workergroup %ld", ed->wg.id);
		break;
	case ED_NONE:
	case ED_EP_DELETE:
	case ED_WG_DELETE:
	case ED_EP_SUSPEND:
	case ED_UPDATE_WORKERS:
		return;
	}
	if (!ok)
		return;
	if (!send_action(a, ed, call, what, true))
		return;
	ed->fm.answer[0] = '\0';
	/* what the lists hold of it now: a lost answer's re-read is compared
	 * with this (an edit that changes nothing the list shows: not known) */
	ed->lost_before = lost_count(a, ed);
	if ((ed->modal == ED_EP_EDIT || ed->modal == ED_WG_EDIT) && ed->lost_before != 0)
		ed->lost_before = -1;
}

static void submit_dialog(struct app *a, struct sv_edit *ed)
{
	struct api_call call;
	char what[64];
	switch (ed->modal) {
	case ED_EP_DELETE:
		call = api_endpoint_delete(a->cfg, ed->ep.id);
		snprintf(what, sizeof what, "delete endpoint %ld", ed->ep.id);
		break;
	case ED_WG_DELETE:
		call = api_workergroup_delete(a->cfg, ed->wg.id);
		snprintf(what, sizeof what, "delete workergroup %ld", ed->wg.id);
		break;
	case ED_EP_SUSPEND:
		call = api_endpoint_suspend(a->cfg, ed->ep.id, ed->suspend);
		snprintf(what, sizeof what, "%s endpoint %ld", ed->suspend ? "suspend" : "resume",
			 ed->ep.id);
		break;
	case ED_UPDATE_WORKERS:
		call = api_update_workers(a->cfg, ed->wg.id);
		snprintf(what, sizeof what, "update workers of workergroup %ld", ed->wg.id);
		break;
	case ED_NONE:
	case ED_EP_CREATE:
	case ED_EP_EDIT:
	case ED_WG_CREATE:
	case ED_WG_EDIT:
		return;
	}
	if (!send_action(a, ed, call, what, false))
		return;
	ed->dlg.error[0] = '\0';
	ed->lost_before = lost_count(a, ed); /* a lost answer's re-read is compared with it */
}

/* The open template picker takes key: a pick fills template_hash and says
 * which template it is. */
static void pick_key(struct app *a, struct sv_edit *ed, int key)
{
	const struct template_rec *t = NULL;
	if (tpl_picker_key(a, &ed->pick, key, &t) != TPK_PICKED || !t)
		return;
	if (!form_set(&ed->fm, "template_hash", t->hash_id ? t->hash_id : ""))
		return;
	char note[200];
	snprintf(note, sizeof note, "template %.80s picked", t->name && *t->name ? t->name : "-");
	form_set_note(&ed->fm, note, false);
}

bool sv_edit_modal_key(struct app *a, struct sv_edit *ed, int key)
{
	if (!ed || ed->modal == ED_NONE)
		return false;
	if (is_form(ed->modal)) {
		if (ed->pick.open) {
			pick_key(a, ed, key);
			return true;
		}
		if (ed->fm.waiting && key != 27)
			return true;
		int tf = form_find(&ed->fm, "template_hash");
		if (tf >= 0 && ed->fm.focus == tf && !form_busy(&ed->fm) && tpl_picker_opens(key)) {
			tpl_picker_open(a, &ed->pick);
			return true;
		}
		switch (form_key(&ed->fm, key)) {
		case FORM_CANCEL: modal_close(a, ed); break;
		case FORM_SUBMIT: submit_form(a, ed); break;
		case FORM_CONTINUE:
		case FORM_EDIT:
			break;
		}
		return true;
	}
	if (ed->dlg.waiting && key != 27)
		return true;
	switch (dialog_key(&ed->dlg, key)) {
	case DLG_CANCEL: modal_close(a, ed); break;
	case DLG_SUBMIT: submit_dialog(a, ed); break;
	case DLG_CONTINUE: break;
	}
	return true;
}

bool sv_edit_modal_draw(struct app *a, struct sv_edit *ed)
{
	if (!ed || ed->modal == ED_NONE)
		return false;
	if (is_form(ed->modal)) {
		form_draw(&ed->fm, &a->lay);
		if (ed->pick.open) {
			tpl_picker_draw(a, &ed->pick);
			return true;
		}
		return !form_busy(&ed->fm);
	}
	dialog_draw(&ed->dlg, &a->lay);
	return false;
}

/* What a finished action did, for the toast. */
static void done_text(const struct sv_edit *ed, char *buf, size_t n)
{
	switch (ed->modal) {
	case ED_EP_CREATE:
		snprintf(buf, n, "endpoint %s created", form_value(&ed->fm, "endpoint_name"));
		break;
	case ED_EP_EDIT: snprintf(buf, n, "endpoint %ld changed", ed->ep.id); break;
	case ED_WG_CREATE:
		snprintf(buf, n, "workergroup created on %s", ed->endpoint_name);
		break;
	case ED_WG_EDIT: snprintf(buf, n, "workergroup %ld changed", ed->wg.id); break;
	case ED_EP_DELETE: snprintf(buf, n, "endpoint %ld deleted", ed->ep.id); break;
	case ED_WG_DELETE: snprintf(buf, n, "workergroup %ld deleted", ed->wg.id); break;
	case ED_EP_SUSPEND:
		snprintf(buf, n, "endpoint %ld %s", ed->ep.id, ed->suspend ? "suspended" : "resumed");
		break;
	case ED_UPDATE_WORKERS:
		snprintf(buf, n, "workergroup %ld: its workers are being updated", ed->wg.id);
		break;
	case ED_NONE: buf[0] = '\0'; break;
	}
}

void sv_edit_snapshot(struct app *a, struct sv_edit *ed)
{
	struct call_result r;
	if (ed && tpl_picker_snapshot(a, &ed->pick))
		a->dirty |= DIRTY_ALL;
	if (ed)
		lost_reread(a, ed);
	if (!ed || !modal_call_take(&ed->call, a->m, &r))
		return;
	char msg[400];
	if (r.outcome == CALL_UNKNOWN && ed->modal == ED_UPDATE_WORKERS) {
		/* no list tells whether it started: said, logged, never sent again */
		char why[300], line[500];
		apierr_format(&r.err, why, sizeof why);
		snprintf(line, sizeof line, "update workers of workergroup %ld: the answer was lost (%s); "
			 "it may have started, not sent again: watch its workers (UPDATING)",
			 ed->wg.id, why);
		app_answer(a, ROLE_WARNING, 0, "%s", line);
		snprintf(msg, sizeof msg, "update workers of workergroup %ld", ed->wg.id);
		app_lost_logged(a, msg, line);
		modal_close(a, ed);
	} else if (r.outcome == CALL_OK && ed->modal == ED_UPDATE_WORKERS && r.value) {
		const struct sv_update_answer *u = r.value;
		if (u->ok) {
			app_toast(a, ROLE_OK, 8, "workergroup %ld: its workers are being updated%s%s",
				  ed->wg.id, u->msg[0] ? ": " : "", u->msg);
			modal_close(a, ed);
		} else {
			modal_call_refused(NULL, &ed->dlg, u->msg[0] ? u->msg : "the run server refused");
		}
	} else if (r.outcome == CALL_UNKNOWN) {
		/* never sent again from this form or dialog: locked until the lists are read */
		lost_begin(a, ed, &r);
	} else if (r.outcome == CALL_OK) {
		done_text(ed, msg, sizeof msg);
		app_toast(a, ROLE_OK, 5, "%s", msg);
		modal_close(a, ed);
	} else {
		char why[300];
		apierr_format(&r.err, why, sizeof why);
		snprintf(msg, sizeof msg, "%s", why);
		modal_call_refused(is_form(ed->modal) ? &ed->fm : NULL, &ed->dlg, msg);
	}
	model_call_result_free(&r);
	/* a success, a refusal or an unknown outcome: read the lists again */
	if (a->poller)
		poller_refresh_now(a->poller);
	a->dirty |= DIRTY_ALL;
}
