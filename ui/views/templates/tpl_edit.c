/* tpl_edit.c: create, edit and delete of templates over the templates
 * overlay (tpl_edit.h).  The form widget holds the fields; the fields the
 * create-instance form also has (launch mode, masked env, onstart in
 * $EDITOR) come from create_form.c; api_offers.c owns the rules and the
 * bodies (api_template_validate_at, api_template_create/edit/delete).  Each
 * change is one at-most-once jobs_call whose answer (the template's id
 * and new hash_id) is mapped on the poller thread; the overlay then
 * fetches its list again and selects the template changed.  The record an
 * edit or delete is about is copied when the modal opens, so a refresh
 * while it is open changes neither the form nor what is compared. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/templates/tpl_edit.h"

#include "net/apierr.h"
#include "app.h"
#include "views/offers/create_fields.h"
#include "widgets/dialog.h"
#include "widgets/modal_call.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "flow/offers.h"
#include "theme.h"
#include "base/util.h"

#define TPL_NAME_MAX 256
#define TPL_TAG_MAX 128
#define TPL_DESC_MAX 1024
#define TPL_LOGIN_FIELD_MAX 256

/* ---- pure: the form ----------------------------------------------------------------- */

void tpl_edit_form_build(struct form *fm, const struct template_rec *t)
{
	char title[64];
	snprintf(title, sizeof title, t ? " Edit template " : " New template ");
	form_init(fm, title);
	struct template_req r;
	memset(&r, 0, sizeof r);
	if (t)
		offers_template_req(t, &r);
	else
		r.launch = LAUNCH_SSH;
	form_add_text(fm, "name", "Name", r.name ? r.name : "", TPL_NAME_MAX, true);
	form_add_text(fm, "image", "Image", r.image ? r.image : "", CREATE_IMAGE_MAX, true);
	form_add_text(fm, "tag", "Tag (empty: latest)", r.tag ? r.tag : "", TPL_TAG_MAX, false);
	create_fields_add_launch(fm, r.launch);
	char disk[32];
	create_fields_num_text(disk, sizeof disk,
			     r.recommended_disk_space > 0 ? r.recommended_disk_space
							  : CREATE_DISK_DEFAULT, 1);
	form_add_number(fm, "disk", "Disk (GB)", disk, 1, 1e6, false, true);
	create_fields_add_env(fm, r.env);
	create_fields_add_onstart(fm, r.onstart, false);
	form_add_text(fm, "args", "Args (entrypoint/args)", r.args_str ? r.args_str : "",
		      CREATE_ARGS_MAX, false);
	form_add_text(fm, "desc", "Description", r.desc ? r.desc : "", TPL_DESC_MAX, false);
	form_add_toggle(fm, "private", "Private", r.private_);
	form_add_text(fm, "login_repo", "Registry (empty: none)", r.login_repo ? r.login_repo : "",
		      TPL_LOGIN_FIELD_MAX, false);
	form_add_text(fm, "login_user", "Registry user", r.login_user ? r.login_user : "",
		      TPL_LOGIN_FIELD_MAX, false);
	form_add_secret(fm, "login_pass", t ? "Registry password (empty: kept)" : "Registry password",
			TPL_LOGIN_FIELD_MAX, false);
}

bool tpl_edit_form_read(struct form *fm, struct template_req *r)
{
	memset(r, 0, sizeof *r);
	if (!form_validate_focus(fm))
		return false;
	r->name = form_value(fm, "name");
	r->image = form_value(fm, "image");
	r->tag = form_value(fm, "tag");
	int l = form_choice(fm, "launch");
	r->launch = l >= 0 && l < LAUNCH__COUNT ? (enum create_launch)l : LAUNCH_SSH;
	double d = 0;
	r->recommended_disk_space = form_number(fm, "disk", &d) ? d : 0;
	r->env = form_value(fm, "env");
	r->onstart = form_value(fm, "onstart");
	r->args_str = form_value(fm, "args");
	r->desc = form_value(fm, "desc");
	r->private_ = form_toggle(fm, "private");
	r->login_repo = form_value(fm, "login_repo");
	r->login_user = form_value(fm, "login_user");
	r->login_pass = form_value(fm, "login_pass");
	char err[160];
	const char *field = NULL;
	if (api_template_validate_at(r, err, sizeof err, &field))
		return true;
	int i = form_find(fm, field ? field : "name");
	form_mark(fm, i >= 0 ? i : 0, err);
	return false;
}

/* ---- the modals ----------------------------------------------------------------------- */

enum te_modal { TE_NONE, TE_CREATE, TE_EDIT, TE_DELETE };

struct tpl_edit {
	enum te_modal modal;
	struct form fm;
	struct dialog dlg;
	struct template_rec *t;     /* the template edited or deleted (a copy), NULL: none */
	struct modal_call call;     /* the call awaited */
};

struct tpl_edit *tpl_edit_new(void)
{
	return xcalloc(1, sizeof(struct tpl_edit));
}

static void modal_close(struct app *a, struct tpl_edit *ed)
{
	modal_call_drop(&ed->call, a->m);
	form_free(&ed->fm);
	dialog_close(&ed->dlg);
	json_map_templates_free(ed->t, ed->t ? 1 : 0);
	ed->t = NULL;
	ed->modal = TE_NONE;
	a->dirty |= DIRTY_ALL;
}

void tpl_edit_free(struct app *a, struct tpl_edit *ed)
{
	if (!ed)
		return;
	modal_close(a, ed);
	free(ed);
}

bool tpl_edit_is_open(const struct tpl_edit *ed)
{
	return ed && ed->modal != TE_NONE;
}

/* May the operator change t?  Only their own (when their id is known). */
static bool may_change(struct app *a, const struct template_rec *t, long uid)
{
	if (uid <= 0 || t->creator_id == uid)
		return true;
	app_toast(a, ROLE_WARNING, 6, "template %s is not yours: only your own templates change",
		  t->name ? t->name : "");
	return false;
}

void tpl_edit_open(struct app *a, struct tpl_edit *ed, enum tpl_op op,
		   const struct template_rec *sel, long user_id)
{
	if (ed->modal != TE_NONE)
		modal_close(a, ed);
	switch (op) {
	case TPL_OP_CREATE:
		tpl_edit_form_build(&ed->fm, NULL);
		ed->modal = TE_CREATE;
		break;
	case TPL_OP_EDIT:
		if (!sel || !may_change(a, sel, user_id))
			return;
		ed->t = offers_template_dup(sel);
		tpl_edit_form_build(&ed->fm, ed->t);
		ed->modal = TE_EDIT;
		break;
	case TPL_OP_DELETE: {
		if (!sel || !may_change(a, sel, user_id))
			return;
		ed->t = offers_template_dup(sel);
		char text[512];
		snprintf(text, sizeof text,
			 "Delete template %s (id %ld, image %s)? Instances made from it keep "
			 "running; new ones can no longer use it.",
			 ed->t->name ? ed->t->name : "", ed->t->id, ed->t->image ? ed->t->image : "-");
		dialog_confirm(&ed->dlg, 0, ed->t->id, "Delete template", text, "Delete");
		ed->modal = TE_DELETE;
		break;
	}
	}
	a->dirty |= DIRTY_ALL;
}

/* The answer of a create or edit (poller thread): the id and hash_id, or
 * NULL (a success whose answer names no template: the list tells). */
struct te_answer {
	long id;
	char *hash_id;
};

static void free_answer(void *p)
{
	struct te_answer *x = p;
	if (x)
		free(x->hash_id);
	free(x);
}

static void *map_answer(const json_t *root, struct api_error *e)
{
	(void)e;
	struct te_answer *x = xcalloc(1, sizeof *x);
	if (!api_template_result(root, &x->id, &x->hash_id)) {
		free(x);
		return NULL;
	}
	return x;
}

/* Queue call as an at-most-once action for the open form (else the
 * dialog): it waits; false with the reason in it. */
static bool send_action(struct app *a, struct tpl_edit *ed, struct api_call call, bool answer,
			const char *what)
{
	struct job_call c = { .call = call };
	if (answer) {
		c.map = map_answer;
		c.free_value = free_answer;
	}
	util_strlcpy(c.what, what, sizeof c.what);
	bool form = ed->modal != TE_DELETE;
	return modal_call_send(&ed->call, a->jobs, &c, form ? &ed->fm : NULL,
			       form ? NULL : &ed->dlg) == JOBS_OK;
}

static void submit_form(struct app *a, struct tpl_edit *ed)
{
	struct template_req r;
	if (!tpl_edit_form_read(&ed->fm, &r))
		return;
	struct api_call call;
	char what[64];
	if (ed->modal == TE_CREATE) {
		call = api_template_create(a->cfg, &r);
		snprintf(what, sizeof what, "create template %.40s", r.name);
	} else {
		struct template_req old;
		offers_template_req(ed->t, &old);
		if (!(old.recommended_disk_space > 0)) /* the form showed the default */
			old.recommended_disk_space = CREATE_DISK_DEFAULT;
		int changed = 0;
		call = api_template_edit(a->cfg, ed->t->hash_id, &old, &r, &changed);
		if (!changed) {
			api_call_free(&call);
			form_set_note(&ed->fm, "nothing changed: nothing to send", false);
			return;
		}
		snprintf(what, sizeof what, "edit template %ld", ed->t->id);
	}
	if (!send_action(a, ed, call, true, what))
		return;
	ed->fm.answer[0] = '\0';
}

static void submit_delete(struct app *a, struct tpl_edit *ed)
{
	char what[64];
	snprintf(what, sizeof what, "delete template %ld", ed->t->id);
	if (!send_action(a, ed, api_template_delete(a->cfg, ed->t->id), false, what))
		return;
	ed->dlg.error[0] = '\0';
}

bool tpl_edit_modal_key(struct app *a, struct tpl_edit *ed, int key)
{
	if (!ed || ed->modal == TE_NONE)
		return false;
	if (ed->modal == TE_DELETE) {
		if (ed->dlg.waiting && key != 27)
			return true;
		switch (dialog_key(&ed->dlg, key)) {
		case DLG_CANCEL:
			if (ed->dlg.waiting) /* Esc while it is under way: the outcome still shows */
				app_toast(a, ROLE_PENDING, 0, "the delete of template %ld is under way",
					  ed->t->id);
			modal_close(a, ed);
			break;
		case DLG_SUBMIT: submit_delete(a, ed); break;
		case DLG_CONTINUE: break;
		}
		a->dirty |= DIRTY_ALL;
		return true;
	}
	if (ed->fm.waiting && key != 27)
		return true;
	switch (form_key(&ed->fm, key)) {
	case FORM_CANCEL:
		if (ed->fm.waiting)
			app_toast(a, ROLE_PENDING, 0, "the template change is under way: "
						      "the list shows it when done");
		modal_close(a, ed);
		break;
	case FORM_SUBMIT:
		submit_form(a, ed);
		break;
	case FORM_EDIT: {
		char err[200];
		if (!form_edit_external(&ed->fm, ed->fm.focus, err, sizeof err))
			form_set_answer(&ed->fm, NULL, err);
		clearok(curscr, TRUE);
		break;
	}
	case FORM_CONTINUE:
		break;
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

bool tpl_edit_modal_draw(struct app *a, struct tpl_edit *ed)
{
	if (!ed || ed->modal == TE_NONE)
		return false;
	if (ed->modal == TE_DELETE) {
		dialog_draw(&ed->dlg, &a->lay);
		return false;
	}
	form_draw(&ed->fm, &a->lay);
	return !ed->fm.waiting;
}

bool tpl_edit_snapshot(struct app *a, struct tpl_edit *ed, struct tpl_done *d)
{
	struct call_result r;
	if (!ed || !modal_call_take(&ed->call, a->m, &r))
		return false;
	memset(d, 0, sizeof *d);
	d->changed = true;
	const char *name = ed->modal == TE_CREATE ? form_value(&ed->fm, "name")
			   : ed->t && ed->t->name ? ed->t->name : "";
	char why[300];
	if (r.outcome == CALL_OK) {
		const struct te_answer *x = r.value;
		switch (ed->modal) {
		case TE_CREATE:
			d->select_id = x ? x->id : 0;
			app_answer(a, ROLE_OK, 8, "template %s created%s%s", name,
				  x ? ": hash_id " : "", x ? x->hash_id : "");
			break;
		case TE_EDIT:
			d->select_id = ed->t->id;
			if (x) {
				d->id = ed->t->id;
				util_strlcpy(d->new_hash, x->hash_id, sizeof d->new_hash);
			}
			app_answer(a, ROLE_OK, 8, "template %s saved%s%s", name,
				  x ? ": new hash_id " : "", x ? x->hash_id : "");
			break;
		case TE_DELETE:
			d->deleted_id = ed->t->id;
			app_answer(a, ROLE_OK, 8, "template %s deleted", name);
			break;
		case TE_NONE:
			break;
		}
		modal_close(a, ed);
	} else if (r.outcome == CALL_UNKNOWN) {
		/* never sent again: the modal closes so that no second submit repeats
		 * it; a delete's re-read is judged by the overlay (lost_id) */
		apierr_format(&r.err, why, sizeof why);
		if (ed->modal == TE_DELETE) {
			d->lost_id = ed->t->id;
			char *clean = util_sanitize(name);
			util_strlcpy(d->lost_name, clean, sizeof d->lost_name);
			free(clean);
			d->lost_at = r.when;
		}
		app_answer(a, ROLE_ERROR, 0,
			  "template %s: the answer was lost (%s): the change may have been made; "
			  "the list is fetched again", name, why);
		modal_close(a, ed);
	} else {
		apierr_format(&r.err, why, sizeof why);
		d->changed = false;
		modal_call_refused(ed->modal == TE_DELETE ? NULL : &ed->fm, &ed->dlg, why);
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_ALL;
	return true;
}
