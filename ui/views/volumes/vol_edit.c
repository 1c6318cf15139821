/* vol_edit.c: create, clone and delete of volumes (vol_edit.h).  The
 * record a modal is about is copied when it opens (a refresh meanwhile
 * changes neither the form nor what is compared). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/volumes/vol_edit.h"

#include "app.h"
#include "base/util.h"
#include "net/apierr.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "theme.h"
#include "widgets/dialog.h"
#include "widgets/form.h"
#include "widgets/modal_call.h"

int vol_edit_count(const struct volume_rec *v, size_t n, long id, const char *label)
{
	int c = 0;
	for (size_t i = 0; v && i < n; i++) {
		if (id > 0)
			c += v[i].id == id;
		else
			c += !label || !*label || (v[i].label && strcmp(v[i].label, label) == 0);
	}
	return c;
}

enum ve_modal { VE_NONE, VE_CREATE, VE_CLONE, VE_DELETE };

struct vol_edit {
	enum ve_modal modal;
	struct form fm;
	struct dialog dlg;
	struct modal_call call;
	bool network;       /* create: a network volume offer */
	long offer_id;      /* create: the offer */
	double offer_free;  /* create: its free GB (NAN unknown) */
	long vol_id;        /* clone: the source; delete: the volume */
	char label[VOLUME_NAME_MAX * 4 + 1]; /* its label, sanitised */
	double size;        /* clone: the source's size */
	char counted[VOLUME_NAME_MAX + 16]; /* a lost create/clone: the label looked for ("": every volume) */
	int before;         /* its count in the list the write was sent over */
};

struct vol_edit *vol_edit_new(void)
{
	return xcalloc(1, sizeof(struct vol_edit));
}

static void modal_close(struct app *a, struct vol_edit *ed)
{
	modal_call_drop(&ed->call, a->m);
	form_free(&ed->fm);
	dialog_close(&ed->dlg);
	ed->modal = VE_NONE;
	a->dirty |= DIRTY_ALL;
}

void vol_edit_free(struct app *a, struct vol_edit *ed)
{
	if (!ed)
		return;
	modal_close(a, ed);
	free(ed);
}

bool vol_edit_is_open(const struct vol_edit *ed)
{
	return ed && ed->modal != VE_NONE;
}

static void open_common(struct app *a, struct vol_edit *ed, enum ve_modal m)
{
	if (ed->modal != VE_NONE)
		modal_close(a, ed);
	ed->modal = m;
	ed->counted[0] = '\0';
	ed->before = -1;
	a->dirty |= DIRTY_ALL;
}

void vol_edit_create(struct app *a, struct vol_edit *ed, const struct volume_offer_rec *o)
{
	open_common(a, ed, VE_CREATE);
	ed->network = o->network;
	ed->offer_id = o->id;
	ed->offer_free = o->disk_space;
	char title[64], size[32], where[80];
	snprintf(title, sizeof title, " New %s volume on offer %ld ", api_volume_kind(o->network), o->id);
	form_init(&ed->fm, title);
	double s = VOLUME_SIZE_DEFAULT;
	if (isfinite(o->disk_space) && o->disk_space < s)
		s = floor(o->disk_space);
	snprintf(size, sizeof size, "%g", s);
	form_add_number(&ed->fm, "size", "Size (GB)", size, 1, isfinite(o->disk_space) ? o->disk_space : 1e6,
			false, true);
	form_add_text(&ed->fm, "name", "Name (letters, digits, _)", "", VOLUME_NAME_MAX, false);
	if (o->network)
		snprintf(where, sizeof where, "region %s", o->geolocation);
	else
		snprintf(where, sizeof where, "machine %ld", o->machine_id);
	char note[200];
	snprintf(note, sizeof note, "%s, %g GB free, $%.4f/GB/month: billed until deleted", where,
		 o->disk_space, o->storage_cost);
	form_set_note(&ed->fm, note, false);
}

void vol_edit_clone(struct app *a, struct vol_edit *ed, const struct volume_rec *src,
		    const struct volume_offer_rec *dst)
{
	open_common(a, ed, VE_CLONE);
	ed->vol_id = src->id;
	ed->size = src->disk_space;
	util_strlcpy(ed->label, src->label ? src->label : "", sizeof ed->label);
	char title[64], dtext[32] = "", size[32] = "";
	snprintf(title, sizeof title, " Clone volume %ld ", src->id);
	form_init(&ed->fm, title);
	if (dst)
		snprintf(dtext, sizeof dtext, "%ld", dst->id);
	form_add_number(&ed->fm, "dst", "Into volume offer (id)", dtext, 1, 9e15, true, true);
	if (isfinite(src->disk_space))
		snprintf(size, sizeof size, "%g", src->disk_space);
	form_add_number(&ed->fm, "size", "Size (GB, at least the source's)", size, 1, 1e6, false, false);
	char note[200];
	snprintf(note, sizeof note, "copies %.64s (%g GB); the clone is billed on its own until deleted",
		 ed->label[0] ? ed->label : "the volume", src->disk_space);
	form_set_note(&ed->fm, note, false);
	/* the service names a clone SOURCE_clone */
	if (ed->label[0] && strlen(ed->label) <= VOLUME_NAME_MAX)
		snprintf(ed->counted, sizeof ed->counted, "%.64s_clone", ed->label);
}

void vol_edit_delete(struct app *a, struct vol_edit *ed, const struct volume_rec *v)
{
	open_common(a, ed, VE_DELETE);
	ed->vol_id = v->id;
	util_strlcpy(ed->label, v->label ? v->label : "", sizeof ed->label);
	char where[80], month[40] = "", text[512];
	if (v->network)
		snprintf(where, sizeof where, "network, %s", v->geolocation[0] ? v->geolocation : "?");
	else
		snprintf(where, sizeof where, "local, on machine %ld", v->machine_id);
	double m = api_volume_month(v);
	if (isfinite(m))
		snprintf(month, sizeof month, " It costs $%.2f/month until then.", m);
	snprintf(text, sizeof text,
		 "Delete volume %ld%s%.64s (%g GB, %s)? Every file on it is lost for good; "
		 "this cannot be undone.%s%s",
		 v->id, ed->label[0] ? " " : "", ed->label, v->disk_space,
		 where, month, v->ninst ? " An instance uses it: the service refuses while it does." : "");
	dialog_confirm(&ed->dlg, 0, v->id, "Delete volume", text, "Delete");
	ed->before = 1;
}

/* A create's or clone's answer (poller thread): the new volume's id, or
 * NULL (a success that names none). */
static void *map_id(const json_t *root, struct api_error *e)
{
	(void)e;
	long id = 0;
	if (!api_volume_result(root, &id))
		return NULL;
	long *p = xmalloc(sizeof *p);
	*p = id;
	return p;
}

static bool send_call(struct app *a, struct vol_edit *ed, struct api_call call, const char *what)
{
	struct job_call c = { .call = call };
	if (ed->modal != VE_DELETE)
		c.map = map_id; /* free_value NULL: free() */
	util_strlcpy(c.what, what, sizeof c.what);
	bool form = ed->modal != VE_DELETE;
	return modal_call_send(&ed->call, a->jobs, &c, form ? &ed->fm : NULL, form ? NULL : &ed->dlg) ==
	       JOBS_OK;
}

static void submit_form(struct app *a, struct vol_edit *ed, const struct volume_rec *vols,
			size_t n)
{
	if (!form_validate_focus(&ed->fm))
		return;
	char err[160], what[64];
	double size = 0;
	if (ed->modal == VE_CREATE) {
		const char *name = form_value(&ed->fm, "name");
		if (!form_number(&ed->fm, "size", &size) ||
		    !api_volume_size_valid(size, ed->offer_free, err, sizeof err)) {
			form_set_answer(&ed->fm, "size", err);
			return;
		}
		if (!api_volume_name_valid(name, err, sizeof err)) {
			form_set_answer(&ed->fm, "name", err);
			return;
		}
		/* a lost answer looks for one more of that name (else one more volume) */
		util_strlcpy(ed->counted, name, sizeof ed->counted);
		ed->before = vol_edit_count(vols, n, 0, ed->counted);
		snprintf(what, sizeof what, "create volume on offer %ld", ed->offer_id);
		if (!send_call(a, ed, api_volume_create(a->cfg, ed->network, ed->offer_id, size, name), what))
			return;
	} else {
		double dst = 0;
		if (!form_number(&ed->fm, "dst", &dst) || dst < 1) {
			form_set_answer(&ed->fm, "dst", "the id of a volume offer");
			return;
		}
		if (!form_number(&ed->fm, "size", &size))
			size = 0;
		if (size > 0 && isfinite(ed->size) && size < ed->size) {
			snprintf(err, sizeof err, "size: at least the source's %g GB", ed->size);
			form_set_answer(&ed->fm, "size", err);
			return;
		}
		ed->before = vol_edit_count(vols, n, 0, ed->counted);
		snprintf(what, sizeof what, "clone volume %ld", ed->vol_id);
		if (!send_call(a, ed, api_volume_clone(a->cfg, ed->vol_id, (long)dst, size), what))
			return;
	}
	ed->fm.answer[0] = '\0';
}

static void submit_delete(struct app *a, struct vol_edit *ed)
{
	char what[64];
	snprintf(what, sizeof what, "delete volume %ld", ed->vol_id);
	if (send_call(a, ed, api_volume_delete(a->cfg, ed->vol_id), what))
		ed->dlg.error[0] = '\0';
}

bool vol_edit_key(struct app *a, struct vol_edit *ed, int key, const struct volume_rec *vols,
		  size_t n)
{
	if (!ed || ed->modal == VE_NONE)
		return false;
	a->dirty |= DIRTY_ALL;
	if (ed->modal == VE_DELETE) {
		if (dialog_busy(&ed->dlg) && key != 27 && key != 'q')
			return true;
		switch (dialog_key(&ed->dlg, key)) {
		case DLG_CANCEL:
			if (ed->dlg.waiting)
				app_toast(a, ROLE_PENDING, 0, "the delete of volume %ld is under way: the "
							      "list shows it when done", ed->vol_id);
			modal_close(a, ed);
			break;
		case DLG_SUBMIT:
			submit_delete(a, ed);
			break;
		case DLG_CONTINUE:
			break;
		}
		return true;
	}
	if (form_lost_checking(&ed->fm) && key != 27)
		return true;
	switch (form_key(&ed->fm, key)) {
	case FORM_CANCEL:
		if (ed->fm.waiting)
			app_toast(a, ROLE_PENDING, 0, "the volume change is under way: the list shows it "
						      "when done");
		modal_close(a, ed);
		break;
	case FORM_SUBMIT:
		submit_form(a, ed, vols, n);
		break;
	case FORM_EDIT:
	case FORM_CONTINUE:
		break;
	}
	return true;
}

bool vol_edit_draw(struct app *a, struct vol_edit *ed)
{
	if (!ed || ed->modal == VE_NONE)
		return false;
	if (ed->modal == VE_DELETE) {
		dialog_draw(&ed->dlg, &a->lay);
		return false;
	}
	form_draw(&ed->fm, &a->lay);
	return !form_lost_checking(&ed->fm);
}

/* The answer was lost: lock the modal until a re-read says what happened. */
static void lost_begin(struct app *a, struct vol_edit *ed, const struct call_result *r)
{
	char what[160], why[300];
	apierr_format(&r->err, why, sizeof why);
	struct form_lost_words w = { .what = what, .found = "exists", .missing = "not found",
				     .done = "created", .undone = "not created" };
	switch (ed->modal) {
	case VE_CREATE:
		if (ed->counted[0])
			snprintf(what, sizeof what, "volume %s", ed->counted);
		else
			snprintf(what, sizeof what, "a new volume on offer %ld", ed->offer_id);
		w.found = ed->counted[0] ? "exists" : "is listed";
		break;
	case VE_CLONE:
		snprintf(what, sizeof what, "the clone of volume %ld", ed->vol_id);
		w.done = "cloned";
		w.undone = "not cloned";
		break;
	case VE_DELETE:
		snprintf(what, sizeof what, "volume %ld", ed->vol_id);
		w.found = "is gone";
		w.missing = "is still there";
		w.done = "deleted";
		w.undone = "not deleted";
		w.again = "d to try again";
		w.removes = true;
		dialog_lost_begin(&ed->dlg, &w, ed->before, why, r->when);
		app_lost_logged(a, what, ed->dlg.error);
		return;
	case VE_NONE:
		return;
	}
	form_lost_begin(&ed->fm, &w, ed->before, why, r->when);
	app_lost_logged(a, what, ed->fm.answer);
}

bool vol_edit_snapshot(struct app *a, struct vol_edit *ed)
{
	struct call_result r;
	if (!ed || !modal_call_take(&ed->call, a->m, &r))
		return false;
	bool reread = true;
	char why[300];
	char made[40] = "";
	if (r.outcome == CALL_OK && r.value)
		snprintf(made, sizeof made, " %ld", *(const long *)r.value);
	switch (r.outcome) {
	case CALL_OK:
		switch (ed->modal) {
		case VE_CREATE:
			app_answer(a, ROLE_OK, 8, "volume%s created on offer %ld (creating: ready in a few "
						  "seconds)", made, ed->offer_id);
			break;
		case VE_CLONE:
			app_answer(a, ROLE_OK, 8, "volume %ld is being cloned%s%s", ed->vol_id,
				   made[0] ? " into volume" : "", made);
			break;
		case VE_DELETE:
			app_answer(a, ROLE_OK, 8, "volume %ld deleted", ed->vol_id);
			break;
		case VE_NONE:
			break;
		}
		modal_close(a, ed);
		break;
	case CALL_UNKNOWN:
		lost_begin(a, ed, &r);
		break;
	case CALL_ERROR:
		apierr_format(&r.err, why, sizeof why);
		modal_call_refused(ed->modal == VE_DELETE ? NULL : &ed->fm, &ed->dlg, why);
		reread = false;
		break;
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_ALL;
	return reread;
}

void vol_edit_reread(struct app *a, struct vol_edit *ed, const struct volume_rec *v, size_t n,
		     double when, const char *err)
{
	if (!ed || ed->modal == VE_NONE)
		return;
	bool dlg = ed->modal == VE_DELETE;
	if (!(dlg ? dialog_lost_checking(&ed->dlg) : form_lost_checking(&ed->fm)))
		return;
	int after = err ? -1
		    : dlg ? vol_edit_count(v, n, ed->vol_id, NULL)
			  : vol_edit_count(v, n, 0, ed->counted);
	char msg[400];
	enum form_verdict fv = app_lost_verdict(
		a, dlg ? dialog_lost_reread(&ed->dlg, when, after, err, msg, sizeof msg)
		       : form_lost_reread(&ed->fm, when, after, err, msg, sizeof msg),
		msg);
	a->dirty |= DIRTY_ALL;
	switch (fv) {
	case FV_DONE:
		app_answer(a, ROLE_OK, 0, "%s", msg);
		modal_close(a, ed);
		break;
	case FV_NOT_DONE:
		app_answer(a, ROLE_WARNING, 0, "%s", msg);
		if (dlg) /* a delete is never sent again from its dialog: d opens a new one */
			modal_close(a, ed);
		break;
	case FV_UNKNOWN:
	case FV_WAIT:
		break;
	}
}
