/* tfa_manage.c: a method's label and primary flag, its removal (asked
 * first, then a code), and the lock of a regeneration or a removal whose
 * answer was lost until the status, read again, tells.  UI thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

void tfa_manage_open_update(struct tfa_view *v, const struct tfa_method_rec *m)
{
	v->target = m->id;
	char title[64];
	snprintf(title, sizeof title, "2FA method %ld", m->id);
	form_init(&v->fm, title);
	char *label = util_sanitize(m->label ? m->label : "");
	int k = form_add_text(&v->fm, "label", "Label", label, TFA_LABEL_MAX, false);
	free(label);
	if (k >= 0)
		v->fm.f[k].check = tfa_add_check_label;
	form_add_toggle(&v->fm, "primary", "Primary method", m->is_primary);
	v->step = ST_UPDATE;
}

void tfa_manage_submit_update(struct app *a, struct tfa_view *v)
{
	const struct tfa_method_rec *m = tfaflow_method(v->st, v->target);
	bool was = m && m->is_primary, now = form_toggle(&v->fm, "primary");
	char err[200];
	struct api_call call = api_tfa_update(a->cfg, v->target, form_value(&v->fm, "label"),
					      now == was ? -1 : now ? 1 : 0);
	if (tfa_send(a, v, CK_UPDATE, call, NULL, "2FA: update a method", err, sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

void tfa_manage_updated(struct app *a, struct tfa_view *v)
{
	app_toast(a, ROLE_OK, 6, "2FA method %ld updated", v->target);
	tfa_flow_end(a, v);
}

void tfa_manage_ask_remove(struct tfa_view *v, const struct tfa_method_rec *m)
{
	v->target = m->id;
	char *label = util_sanitize(m->label ? m->label : "");
	char text[400];
	bool last = v->st->nmethods == 1;
	snprintf(text, sizeof text, "Remove 2FA method %ld (%s%s%s)?%s", m->id,
		 m->method ? m->method : "?", *label ? " " : "", label,
		 last ? " It is the last one: two-factor authentication will be OFF and the "
			"backup codes deleted."
		      : " A code from a method or a backup code is asked next.");
	snprintf(v->target_text, sizeof v->target_text, "Removing method %ld%s.", m->id,
		 last ? " (the last: 2FA goes off)" : "");
	free(label);
	dialog_confirm(&v->dlg, 0, 0, "Remove 2FA method", text, "Remove");
	v->step = ST_REMOVE_ASK;
}

/* The removal's question: Remove goes on to the code. */
void tfa_manage_remove_key(struct app *a, struct tfa_view *v, int key)
{
	enum dlg_result r = dialog_key(&v->dlg, key);
	if (r == DLG_CANCEL) {
		tfa_flow_end(a, v);
		app_toast(a, ROLE_DIM, 4, "cancelled");
	} else if (r == DLG_SUBMIT) {
		dialog_close(&v->dlg);
		tfa_verify_open(a, v, VP_REMOVE);
	}
}

void tfa_manage_removed(struct app *a, struct tfa_view *v, const struct api_tfa_answer *ans)
{
	if (ans && (ans->disabled || ans->remaining == 0))
		app_toast(a, ROLE_WARNING, 10,
			  "2FA method %ld removed: two-factor authentication is now OFF", v->target);
	else if (ans && ans->remaining > 0)
		app_toast(a, ROLE_OK, 8, "2FA method %ld removed: %d method%s left", v->target,
			  ans->remaining, ans->remaining == 1 ? "" : "s");
	else
		app_toast(a, ROLE_OK, 8, "2FA method %ld removed", v->target);
	tfa_flow_end(a, v);
}

/* The answer to a backup-code regeneration or a method's removal was lost:
 * the form locks (a new code and C-s would send it again) until the status,
 * read again, says whether the codes are a new set or the method is gone. */
void tfa_manage_lost_begin(struct app *a, struct tfa_view *v, const struct call_result *r)
{
	static const struct form_lost_words regen = {
		.what = "the backup codes", .found = "are a full set",
		.missing = "are as before", .done = "regenerated", .undone = "not regenerated" };
	char what[64];
	snprintf(what, sizeof what, "2FA method %ld", v->target);
	const struct form_lost_words removal = {
		.what = what, .found = "is gone", .missing = "is still listed", .done = "removed",
		.undone = "not removed", .again = "d to try again", .removes = true };
	bool rg = v->purpose == VP_REGEN;
	char why[300];
	apierr_format(&r->err, why, sizeof why);
	form_lost_begin(&v->fm, rg ? &regen : &removal, rg ? v->regen_before : v->st ? 1 : -1, why,
			r->when);
	app_lost_logged(a, rg ? regen.what : what, v->fm.answer);
	tfa_refresh(a, v);
}

/* The status was read again (r): say what it shows of a lost regeneration
 * or removal. */
void tfa_manage_lost_reread(struct app *a, struct tfa_view *v, const struct call_result *r)
{
	bool rg = v->purpose == VP_REGEN;
	if (v->step != ST_VERIFY || (!rg && v->purpose != VP_REMOVE) || !form_lost_checking(&v->fm))
		return;
	int after = -1;
	if (r->outcome == CALL_OK && v->st)
		after = rg ? tfaflow_regen_count(v->st->backup_codes_remaining, false)
			   : tfaflow_method(v->st, v->target) ? 1 : 0;
	char msg[400];
	enum form_verdict fv = app_lost_verdict(
		a, form_lost_reread(&v->fm, r->when, after, r->err.msg, msg, sizeof msg), msg);
	if (rg && fv == FV_DONE) {
		app_answer(a, ROLE_WARNING, 0, "%s: the new codes were lost with the answer and "
			   "the old ones no longer work; b makes another set (a code first)", msg);
		tfa_flow_end(a, v);
	} else if (!rg && (fv == FV_DONE || fv == FV_NOT_DONE)) {
		/* closed either way: d asks again from the start */
		tfa_flow_end(a, v);
		app_answer(a, fv == FV_DONE ? ROLE_OK : ROLE_WARNING, 0, "%s", msg);
	}
	a->dirty |= DIRTY_ALL;
}
