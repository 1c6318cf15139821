/* inst_ops.c: recycle as a confirmed call (inst_ops.h). */
#include "views/instances/inst_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_inst_ops.h"
#include "app.h"
#include "poll/jobs.h"
#include "base/util.h"
#include "json/json_map.h"
#include "state/model.h"
#include "views/instances/inst_dialogs.h"
#include "views/instances/pane_keys.h"
#include "views/instances/pane_xfer.h"

#define OPS_MAX 16

/* The calls awaited: request id, instance, what ("recycle"). */
static struct {
	int req;
	long id;
	const char *what;
} sent[OPS_MAX];

/* The template update being confirmed (its dialog's answer sends it). */
static struct {
	long template_id;
	char hash[80];
} upd;

const char *inst_ops_why_not_recycle(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	switch (x->state) {
	case IS_STOPPED: case IS_STOPPING: case IS_OUTBID:
		snprintf(buf, n, "instance %ld is stopped: S starts it first (a stopped instance is not "
			 "recycled)", x->id);
		return buf;
	case IS_UNKNOWN: case IS_OFFLINE:
		snprintf(buf, n, "instance %ld is %s: its host does not answer, nothing can be recreated "
			 "there", x->id, instance_state_name(x->state));
		return buf;
	case IS_PROVISIONING:
		snprintf(buf, n, "instance %ld is still being provisioned", x->id);
		return buf;
	case IS_LOADING: case IS_RUNNING: case IS_STARTING: case IS_REBOOTING: case IS_EXITED:
	case IS_CREATED: case IS_FROZEN: case IS_OTHER: case IS__COUNT:
		break;
	}
	return NULL;
}

static bool awaited(long id)
{
	for (size_t i = 0; i < OPS_MAX; i++)
		if (sent[i].req && sent[i].id == id)
			return true;
	return false;
}

/* Send call (taken over) on instance id, what names it in messages. */
static void send_op(struct app *a, long id, struct api_call call, const char *what)
{
	size_t slot = OPS_MAX;
	for (size_t i = 0; i < OPS_MAX && slot == OPS_MAX; i++)
		if (!sent[i].req)
			slot = i;
	if (slot == OPS_MAX || awaited(id)) {
		app_toast(a, ROLE_WARNING, 8, "%s of instance %ld: %s", what, id,
			  awaited(id) ? "a change is already sent, waiting for its answer" : "too many waiting");
		api_call_free(&call);
		return;
	}
	struct job_call c = { 0 };
	c.call = call;
	c.action = true;
	snprintf(c.what, sizeof c.what, "%s of instance %ld", what, id);
	int rc = a->jobs ? jobs_call(a->jobs, &c, &sent[slot].req) : JOBS_EINVAL;
	if (rc != JOBS_OK) {
		sent[slot].req = 0;
		app_toast(a, ROLE_ERROR, 8, "%s of instance %ld: %s", what, id, jobs_strerror(rc));
		return;
	}
	sent[slot].id = id;
	sent[slot].what = what;
	app_toast(a, ROLE_DIM, 5, "%s of instance %ld sent", what, id);
}

static void send_recycle(struct app *a, long id)
{
	send_op(a, id, api_inst_recycle(a->cfg, id), "recycle");
}

static void recycle_answered(struct app *a, void *owner, enum dlg_result res)
{
	(void)owner;
	if (res == DLG_CANCEL) {
		app_dialog_cancelled(a);
		return;
	}
	if (res != DLG_SUBMIT)
		return;
	long id = a->dlg.instance_id;
	dialog_close(&a->dlg);
	send_recycle(a, id);
}

/* The confirmation of a recycle of x (its preconditions held). */
static void confirm_recycle(struct app *a, const struct instance *x)
{
	char who[160], text[700];
	inst_dialogs_who(x, who, sizeof who);
	snprintf(text, sizeof text,
		 "Recycle instance %s? Its container is destroyed and created again from its image "
		 "%s on the same machine: the rental, its GPUs, disk and volumes are kept, but whatever "
		 "the container changed outside its volumes is lost, and it boots again (a fixed image "
		 "or registry login is pulled anew).",
		 who, x->image[0] ? x->image : "(none)");
	dialog_confirm(&a->dlg, 0, x->id, "Recycle", text, "Recycle");
	app_dialog_own(a, recycle_answered, NULL);
	a->dirty |= DIRTY_ALL;
}

/* Recycle x after its precondition (said in a toast when it fails). */
void inst_ops_recycle(struct app *a, const struct instance *x)
{
	char why[300];
	if (inst_ops_why_not_recycle(x, why, sizeof why)) {
		app_toast(a, ROLE_WARNING, 8, "%s", why);
		return;
	}
	confirm_recycle(a, x);
}

static void run_recycle(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, ":recycle needs an instance: :recycle ID");
		return;
	}
	inst_ops_recycle(a, x);
}

/* `:recycle ID` (no ID: the selected instance, as the key would). */
static void recycle_args(struct app *a, enum action act, const char *args)
{
	if (!*args) {
		run_recycle(a, act);
		return;
	}
	char *end;
	long id = strtol(args, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	const struct instance *x = id > 0 && !*end && a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_ERROR, 8, ":recycle takes the id of a listed instance, not \"%.40s\"", args);
		return;
	}
	inst_ops_recycle(a, x);
}

static const struct action_def recycle_def = {
	"recycle", "recycle: destroy the container and create it again on the same machine, keeping the rental (confirms); :recycle ID",
	NULL, AF_MUTATES, NULL, run_recycle,
};

void inst_ops_keys(struct keymap *km, int ctx)
{
	enum action r = keymap_action_register(&recycle_def);
	action_set_args(r, recycle_args);
	keymap_action_allow(r, ctx);
	pane_xfer_keys(km, ctx);
	pane_keys_keys(km, ctx);
}

void inst_ops_results(struct app *a)
{
	for (size_t i = 0; i < OPS_MAX; i++) {
		struct call_result r;
		if (!sent[i].req || !model_take_result(a->m, sent[i].req, &r))
			continue;
		long id = sent[i].id;
		const char *what = sent[i].what;
		sent[i].req = 0;
		char m[256];
		apierr_format(&r.err, m, sizeof m);
		switch (r.outcome) {
		case CALL_OK:
			app_toast(a, ROLE_OK, 10, "%s of instance %ld accepted: it is recreated and boots again "
				  "on the same machine", what, id);
			model_event(a->m, EV_INFO, -1, 0, id, EVF_QUIET, "%s of instance %ld accepted", what, id);
			break;
		case CALL_UNKNOWN:
			app_toast(a, ROLE_WARNING, 15, "%s of instance %ld: the answer was lost; it may have "
				  "happened (not sent again): watch its status", what, id);
			model_event(a->m, EV_WARN, -1, 0, id, EVF_QUIET,
				    "%s of instance %ld: the answer was lost, not sent again", what, id);
			break;
		case CALL_ERROR:
			app_toast(a, ROLE_ERROR, 12, "%s of instance %ld failed: %s", what, id, m[0] ? m : "refused");
			model_event(a->m, EV_ERROR, -1, 0, id, EVF_QUIET, "%s of instance %ld failed: %s", what, id,
				    m[0] ? m : "refused");
			break;
		}
		model_call_result_free(&r);
	}
}

static void update_answered(struct app *a, void *owner, enum dlg_result res)
{
	(void)owner;
	if (res == DLG_CANCEL) {
		app_dialog_cancelled(a);
		return;
	}
	if (res != DLG_SUBMIT)
		return;
	long id = a->dlg.instance_id;
	dialog_close(&a->dlg);
	send_op(a, id, api_inst_update_template(a->cfg, id, upd.template_id, upd.hash),
		"template update");
}

void inst_ops_confirm_update(struct app *a, long id, const struct template_rec *t)
{
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return;
	}
	if (!t->hash_id || !t->hash_id[0]) {
		app_toast(a, ROLE_ERROR, 8, "template %s has no hash: it cannot be applied", t->name);
		return;
	}
	upd.template_id = t->id;
	util_strlcpy(upd.hash, t->hash_id, sizeof upd.hash);
	char who[160], text[512];
	inst_dialogs_who(x, who, sizeof who);
	snprintf(text, sizeof text,
		 "Update instance %s to template %.60s (image %.80s)? Its container is recreated "
		 "from the template on the same machine, keeping the rental; what the container "
		 "changed outside its volumes is lost.",
		 who, t->name && t->name[0] ? t->name : t->hash_id, t->image && t->image[0] ? t->image : "-");
	dialog_confirm(&a->dlg, 0, id, "Update template", text, "Update");
	app_dialog_own(a, update_answered, NULL);
	a->dirty |= DIRTY_ALL;
}
