/* pane_xfer.c: copies and snapshots as watched jobs (pane_xfer.h).  A job
 * is sent once; its state is then read from the instance's status_msg on
 * every snapshot (api_job_track: an ending message that was already shown
 * when the job was sent is an earlier job's). */
#include "views/instances/pane_xfer.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_inst_ops.h"
#include "app.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "clip.h"
#include "draw.h"
#include "poll/jobs.h"
#include "rules/svc.h"
#include "state/model.h"
#include "theme.h"
#include "views/instances/inst_dialogs.h"
#include "widgets/dialog.h"
#include "widgets/form.h"
#include "widgets/list.h"
#include "widgets/modal_call.h"

#define XFER_MAX 32

/* How its request went. */
enum xfer_send { XS_SENT, XS_ACCEPTED, XS_LOST, XS_REFUSED };

struct xfer {
	bool snapshot;
	long inst;             /* the instance whose status_msg tells (a copy's destination) */
	char what[2 * API_COPY_PATH_MAX + 140]; /* "1:/workspace/ -> 2:/data" or "docker.io/me/img" */
	int req;               /* the call awaited, 0: none */
	enum xfer_send send;
	enum job_phase phase;
	char at_send[300];     /* the instance's status_msg when it was sent */
	char status[400];      /* the last words about it (status_msg, a refusal) */
	int cancel_req;        /* a cancel awaited */
	bool cancel_sent;
};

enum snap_modal { SN_NONE, SN_FORM, SN_CONFIRM };

struct xfer_view {
	struct xfer x[XFER_MAX];
	size_t n;
	struct list list;
	/* the copy being confirmed (a->dlg) */
	struct copy_loc src, dst;
	/* the copy whose cancel is being confirmed (a->dlg): its index */
	size_t cancel_idx;
	/* the snapshot form and its confirmation */
	enum snap_modal snap;
	long snap_id;
	struct form fm;
	struct dialog dlg;
	struct modal_call call;
	char snap_what[600];
	char snap_at_send[300];  /* the instance's status_msg when the snapshot was sent */
};

static struct xfer_view *the_view; /* the one view (init), for the actions */

void pane_xfer_scrub(char *msg, const char *secret)
{
	size_t sl = secret ? strlen(secret) : 0;
	if (!sl)
		return;
	for (char *p = strstr(msg, secret); p; p = strstr(p + sl, secret))
		memset(p, '*', sl);
}

static bool ended(const struct xfer *j)
{
	return j->send == XS_REFUSED || j->phase == JP_DONE || j->phase == JP_FAILED ||
	       j->phase == JP_CANCELED;
}

/* A new job row (the oldest ended one gives way when full); NULL: all busy. */
static struct xfer *add_job(struct xfer_view *v)
{
	if (v->n == XFER_MAX) {
		size_t k = XFER_MAX;
		for (size_t i = 0; i < v->n && k == XFER_MAX; i++)
			if (ended(&v->x[i]) && !v->x[i].req && !v->x[i].cancel_req)
				k = i;
		if (k == XFER_MAX)
			return NULL;
		memmove(&v->x[k], &v->x[k + 1], (v->n - k - 1) * sizeof v->x[0]);
		v->n--;
	}
	struct xfer *j = &v->x[v->n++];
	memset(j, 0, sizeof *j);
	list_set_count(&v->list, v->n);
	return j;
}

static const struct instance *find(const struct app *a, long id)
{
	return a->snap ? model_snapshot_find(a->snap, id) : NULL;
}

/* ---- :copy ------------------------------------------------------------------- */

/* A local side: the rsync command over the instance's SSH route, copied. */
static void copy_local(struct app *a, const struct copy_loc *src, const struct copy_loc *dst)
{
	bool upload = src->kind == COPY_LOCAL;
	const struct copy_loc *remote = upload ? dst : src, *local = upload ? src : dst;
	const struct instance *x = find(a, remote->id);
	if (!x) {
		app_toast(a, ROLE_ERROR, 8, "instance %ld is not listed", remote->id);
		return;
	}
	char cmd[3 * API_COPY_PATH_MAX + 400];
	if (!svc_rsync_command(x, a->cfg->ssh_route, remote->path, local->path, upload, cmd, sizeof cmd)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no SSH address yet", x->id);
		return;
	}
	app_copy(cmd);
	app_toast(a, ROLE_OK, 15, "a local side is copied by rsync over SSH (nothing sent to the "
		  "service); copied (OSC 52): %s%s", cmd, clip_advice_here());
}

static void send_copy(struct app *a, struct xfer_view *v)
{
	struct xfer *j = add_job(v);
	if (!j) {
		app_toast(a, ROLE_WARNING, 8, "copy: %d transfers are still watched; wait for one to end",
			  XFER_MAX);
		return;
	}
	char s[API_COPY_PATH_MAX + 40], d[API_COPY_PATH_MAX + 40];
	api_copy_loc_text(&v->src, s, sizeof s);
	api_copy_loc_text(&v->dst, d, sizeof d);
	snprintf(j->what, sizeof j->what, "%s -> %s", s, d);
	j->inst = v->dst.id;
	const struct instance *x = find(a, j->inst);
	util_strlcpy(j->at_send, x && x->status_msg ? x->status_msg : "", sizeof j->at_send);
	struct job_call c = { 0 };
	c.call = api_inst_copy(a->cfg, &v->src, &v->dst);
	c.action = true;
	snprintf(c.what, sizeof c.what, "copy into instance %ld", j->inst);
	int rc = a->jobs ? jobs_call(a->jobs, &c, &j->req) : JOBS_EINVAL;
	if (rc != JOBS_OK) {
		j->req = 0;
		j->send = XS_REFUSED;
		snprintf(j->status, sizeof j->status, "not sent: %s", jobs_strerror(rc));
		app_toast(a, ROLE_ERROR, 8, "copy %s: %s", j->what, jobs_strerror(rc));
		return;
	}
	j->send = XS_SENT;
	snprintf(j->status, sizeof j->status, "sent, waiting for the answer");
	list_select(&v->list, v->n - 1);
	view_open(a, "transfers", 0);
}

/* The shared dialog's answer: true on its yes (closed); a Cancel is said. */
static bool said_yes(struct app *a, enum dlg_result res)
{
	if (res == DLG_CANCEL)
		app_dialog_cancelled(a);
	if (res != DLG_SUBMIT)
		return false;
	dialog_close(&a->dlg);
	return true;
}

static void copy_answered(struct app *a, void *owner, enum dlg_result res)
{
	if (!said_yes(a, res))
		return;
	send_copy(a, owner);
	a->dirty |= DIRTY_ALL;
}

/* `:copy SRC DST`. */
static void copy_args(struct app *a, enum action act, const char *args)
{
	(void)act;
	struct xfer_view *v = the_view;
	char err[300];
	struct copy_loc src, dst;
	if (!v)
		return;
	if (!api_copy_args(args, &src, &dst, err, sizeof err)) {
		app_toast(a, ROLE_ERROR, 10, ":copy %s", err);
		return;
	}
	if (src.kind == COPY_LOCAL || dst.kind == COPY_LOCAL) {
		copy_local(a, &src, &dst);
		return;
	}
	if (a->read_only) {
		app_toast(a, ROLE_ERROR, 8, "read-only mode: copy between instances is disabled");
		return;
	}
	const struct instance *d = find(a, dst.id);
	if (!d || (src.kind == COPY_INST && !find(a, src.id))) {
		app_toast(a, ROLE_ERROR, 8, "instance %ld is not listed", d ? src.id : dst.id);
		return;
	}
	v->src = src;
	v->dst = dst;
	char s[API_COPY_PATH_MAX + 40], who[160], text[3 * API_COPY_PATH_MAX + 600];
	api_copy_loc_text(&src, s, sizeof s);
	inst_dialogs_who(d, who, sizeof who);
	snprintf(text, sizeof text,
		 "Copy %.300s into instance %s at %.300s? The service copies machine to machine (rsync: a "
		 "source ending in / copies what is in it); files of the same names at the destination "
		 "are overwritten. :transfers shows its progress, d there cancels it.",
		 s, who, dst.path);
	dialog_confirm(&a->dlg, 0, dst.id, "Copy", text, "Copy");
	app_dialog_own(a, copy_answered, v);
	a->dirty |= DIRTY_ALL;
}

static const struct action_def copy_def = {
	"copy", "copy between instances through the service (:copy 1:/workspace/ 2:/workspace/, confirms; V.ID: a volume); with a local side (local:path or a path) copy its rsync command over SSH",
	NULL, 0, NULL, NULL,
};

/* ---- the cancel -------------------------------------------------------------- */

static enum action act_cancel = ACT_NONE;

static void cancel_answered(struct app *a, void *owner, enum dlg_result res)
{
	struct xfer_view *v = owner;
	if (!said_yes(a, res) || v->cancel_idx >= v->n)
		return;
	struct xfer *j = &v->x[v->cancel_idx];
	struct job_call c = { 0 };
	c.call = api_inst_copy_cancel(a->cfg, j->inst);
	c.action = true;
	snprintf(c.what, sizeof c.what, "cancel of the copies into instance %ld", j->inst);
	int rc = a->jobs ? jobs_call(a->jobs, &c, &j->cancel_req) : JOBS_EINVAL;
	if (rc != JOBS_OK) {
		j->cancel_req = 0;
		app_toast(a, ROLE_ERROR, 8, "cancel of the copy into instance %ld: %s", j->inst,
			  jobs_strerror(rc));
		return;
	}
	j->cancel_sent = true;
	app_toast(a, ROLE_DIM, 5, "cancel of the copies into instance %ld sent", j->inst);
	a->dirty |= DIRTY_ALL;
}

static void ask_cancel(struct app *a, struct xfer_view *v)
{
	size_t k = list_selected(&v->list);
	if (k == LIST_NONE || k >= v->n) {
		app_toast(a, ROLE_WARNING, 6, "no transfer chosen");
		return;
	}
	struct xfer *j = &v->x[k];
	if (j->snapshot) {
		app_toast(a, ROLE_WARNING, 8, "a snapshot cannot be cancelled (the service has no cancel for it)");
		return;
	}
	if (ended(j)) {
		app_toast(a, ROLE_WARNING, 6, "that copy has ended (%s)",
			  j->send == XS_REFUSED ? "refused" : api_job_phase_name(j->phase));
		return;
	}
	if (j->cancel_req || j->cancel_sent) {
		app_toast(a, ROLE_WARNING, 8, "a cancel of that copy is already sent");
		return;
	}
	v->cancel_idx = k;
	char text[sizeof j->what + 300];
	snprintf(text, sizeof text,
		 "Stop every copy into instance %ld (%s)? What is copied so far stays; the rest is not "
		 "copied.", j->inst, j->what);
	dialog_confirm(&a->dlg, 0, j->inst, "Cancel copy", text, "Stop copy");
	app_dialog_own(a, cancel_answered, v);
	a->dirty |= DIRTY_ALL;
}

/* ---- :snapshot ------------------------------------------------------------------ */

static void snap_close(struct app *a, struct xfer_view *v)
{
	modal_call_drop(&v->call, a->m);
	form_free(&v->fm); /* wipes the password */
	dialog_close(&v->dlg);
	v->snap = SN_NONE;
	a->dirty |= DIRTY_ALL;
}

static void snap_open(struct app *a, struct xfer_view *v, const struct instance *x)
{
	if (v->snap != SN_NONE)
		snap_close(a, v);
	if (x->state != IS_RUNNING) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld is %s: only a running container can be "
			  "snapshotted", x->id, instance_state_name(x->state));
		return;
	}
	v->snap_id = x->id;
	char title[64];
	snprintf(title, sizeof title, " Snapshot of instance %ld ", x->id);
	form_init(&v->fm, title);
	form_add_text(&v->fm, "registry", "Registry", "docker.io", 255, false);
	form_add_text(&v->fm, "repo", "Repository (user/name:tag)", "", 255, true);
	form_add_text(&v->fm, "user", "Registry login", "", 255, true);
	int p = form_add_secret(&v->fm, "pass", "Password or token", 1024, true);
	if (p >= 0)
		v->fm.f[p].fixed_mask = true;
	form_add_toggle(&v->fm, "pause", "Pause while committing", true);
	form_set_note(&v->fm, "The container is committed and pushed to your registry (minutes for a "
		      "large image); the login is sent once and kept nowhere.", false);
	v->snap = SN_FORM;
	view_open(a, "transfers", 0);
	a->dirty |= DIRTY_ALL;
}

static void snap_submit(struct app *a, struct xfer_view *v)
{
	if (!form_validate_focus(&v->fm))
		return;
	char err[200];
	const char *reg = form_value(&v->fm, "registry"), *repo = form_value(&v->fm, "repo");
	if (!api_snapshot_check(reg, repo, err, sizeof err)) {
		form_set_answer(&v->fm, strstr(err, "registry") ? "registry" : "repo", err);
		return;
	}
	snprintf(v->snap_what, sizeof v->snap_what, "%.255s/%.255s", reg[0] ? reg : "docker.io", repo);
	const struct instance *x = find(a, v->snap_id);
	char who[160], text[1400];
	if (x)
		inst_dialogs_who(x, who, sizeof who);
	else
		snprintf(who, sizeof who, "%ld", v->snap_id);
	snprintf(text, sizeof text,
		 "Snapshot instance %s to %s as %.255s?%s The image is pushed with that login; the registry "
		 "may bill its storage.",
		 who, v->snap_what, form_value(&v->fm, "user"),
		 form_toggle(&v->fm, "pause") ? " The container is paused while it is committed." : "");
	dialog_confirm(&v->dlg, 0, v->snap_id, "Take snapshot", text, "Snapshot");
	v->snap = SN_CONFIRM;
}

static void snap_send(struct app *a, struct xfer_view *v)
{
	struct job_call c = { 0 };
	c.call = api_inst_snapshot(a->cfg, v->snap_id, form_value(&v->fm, "registry"),
				   form_value(&v->fm, "repo"), form_value(&v->fm, "user"),
				   form_value(&v->fm, "pass"), form_toggle(&v->fm, "pause"));
	snprintf(c.what, sizeof c.what, "snapshot of instance %ld", v->snap_id);
	const struct instance *x = find(a, v->snap_id);
	util_strlcpy(v->snap_at_send, x && x->status_msg ? x->status_msg : "", sizeof v->snap_at_send);
	modal_call_send(&v->call, a->jobs, &c, &v->fm, NULL);
}

/* The snapshot sent from the form as a job row (send: how its request
 * went); NULL when every row is busy. */
static struct xfer *snap_job(struct xfer_view *v, enum xfer_send send)
{
	struct xfer *j = add_job(v);
	if (!j)
		return NULL;
	j->snapshot = true;
	j->inst = v->snap_id;
	j->send = send;
	util_strlcpy(j->what, v->snap_what, sizeof j->what);
	util_strlcpy(j->at_send, v->snap_at_send, sizeof j->at_send);
	list_select(&v->list, v->n - 1);
	return j;
}

/* The snapshot's answer: a job to watch (accepted, or lost: not resent). */
static void snap_result(struct app *a, struct xfer_view *v)
{
	struct call_result r;
	if (v->snap == SN_NONE || !modal_call_take(&v->call, a->m, &r))
		return;
	char m[300];
	apierr_format(&r.err, m, sizeof m);
	pane_xfer_scrub(m, form_value(&v->fm, "pass"));
	switch (r.outcome) {
	case CALL_OK:
	case CALL_UNKNOWN: {
		bool lost = r.outcome == CALL_UNKNOWN;
		struct xfer *j = snap_job(v, lost ? XS_LOST : XS_ACCEPTED);
		if (j)
			snprintf(j->status, sizeof j->status, "%s",
				 lost ? "the answer was lost: it may have started (not sent again)"
				      : "accepted: committing and pushing take minutes");
		if (lost) {
			app_toast(a, ROLE_WARNING, 15, "snapshot of instance %ld: the answer was lost; it may "
				  "have started (not sent again): its status is watched here", v->snap_id);
			model_event(a->m, EV_WARN, -1, 0, v->snap_id, EVF_QUIET,
				    "snapshot of instance %ld to %s: the answer was lost, not sent again",
				    v->snap_id, v->snap_what);
		} else {
			app_toast(a, ROLE_OK, 10, "snapshot of instance %ld to %s accepted", v->snap_id,
				  v->snap_what);
			model_event(a->m, EV_INFO, -1, 0, v->snap_id, EVF_QUIET,
				    "snapshot of instance %ld to %s accepted", v->snap_id, v->snap_what);
		}
		snap_close(a, v);
		break;
	}
	case CALL_ERROR:
		modal_call_refused(&v->fm, NULL, m[0] ? m : "refused");
		break;
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_ALL;
}

static void run_snapshot(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, ":snapshot needs an instance: :snapshot ID");
		return;
	}
	if (the_view)
		snap_open(a, the_view, x);
}

/* `:snapshot ID` (no ID: the selected instance). */
static void snapshot_args(struct app *a, enum action act, const char *args)
{
	if (!*args) {
		run_snapshot(a, act);
		return;
	}
	char *end;
	long id = strtol(args, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	const struct instance *x = id > 0 && !*end ? find(a, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_ERROR, 8, ":snapshot takes the id of a listed instance, not \"%.40s\"", args);
		return;
	}
	if (the_view)
		snap_open(a, the_view, x);
}

static const struct action_def snapshot_def = {
	"snapshot", "snapshot the instance's container to a registry (a form: repository, registry login; confirms); :snapshot ID",
	NULL, AF_MUTATES, NULL, run_snapshot,
};

void pane_xfer_keys(struct keymap *km, int ctx)
{
	(void)km;
	enum action c = keymap_action_register(&copy_def);
	action_set_args(c, copy_args);
	keymap_action_allow(c, ctx);
	enum action s = keymap_action_register(&snapshot_def);
	action_set_args(s, snapshot_args);
	keymap_action_allow(s, ctx);
}

/* ---- the watch ------------------------------------------------------------------- */

static void take_results(struct app *a, struct xfer_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		struct xfer *j = &v->x[i];
		struct call_result r;
		char m[300];
		if (j->req && model_take_result(a->m, j->req, &r)) {
			const char *kind = j->snapshot ? "snapshot" : "copy";
			j->req = 0;
			apierr_format(&r.err, m, sizeof m);
			switch (r.outcome) {
			case CALL_OK:
				j->send = XS_ACCEPTED;
				snprintf(j->status, sizeof j->status, "accepted: %s",
					 j->snapshot ? "committing and pushing take minutes" : "the copy starts in a few seconds");
				model_event(a->m, EV_INFO, -1, 0, j->inst, EVF_QUIET, "%s %s accepted", kind, j->what);
				break;
			case CALL_UNKNOWN:
				j->send = XS_LOST;
				snprintf(j->status, sizeof j->status,
					 "the answer was lost: it may have started (not sent again)");
				app_toast(a, ROLE_WARNING, 15, "%s on instance %ld: the answer was lost; it may "
					  "have started (not sent again): :transfers watches its status", kind, j->inst);
				model_event(a->m, EV_WARN, -1, 0, j->inst, EVF_QUIET,
					    "%s %s: the answer was lost, not sent again", kind, j->what);
				break;
			case CALL_ERROR:
				j->send = XS_REFUSED;
				if (j->snapshot) /* the form that held the login is gone: no words to scrub by */
					snprintf(m, sizeof m, "the service refused it (:snapshot again shows why)");
				snprintf(j->status, sizeof j->status, "refused: %s", m[0] ? m : "no reason given");
				app_toast(a, ROLE_ERROR, 12, "%s %s refused: %s", kind, j->what, m[0] ? m : "no reason");
				model_event(a->m, EV_ERROR, -1, 0, j->inst, EVF_QUIET, "%s %s refused: %s", kind, j->what,
					    m[0] ? m : "no reason");
				break;
			}
			model_call_result_free(&r);
		}
		if (j->cancel_req && model_take_result(a->m, j->cancel_req, &r)) {
			j->cancel_req = 0;
			apierr_format(&r.err, m, sizeof m);
			switch (r.outcome) {
			case CALL_OK:
				app_toast(a, ROLE_OK, 8, "the copies into instance %ld are being stopped", j->inst);
				break;
			case CALL_UNKNOWN:
				app_toast(a, ROLE_WARNING, 12, "cancel of the copy into instance %ld: the answer was "
					  "lost; it may have stopped (not sent again)", j->inst);
				break;
			case CALL_ERROR:
				j->cancel_sent = false;
				app_toast(a, ROLE_ERROR, 10, "cancel of the copy into instance %ld refused: %s",
					  j->inst, m[0] ? m : "no reason");
				break;
			}
			model_call_result_free(&r);
		}
	}
}

/* Each job's phase from its instance's status_msg. */
static void watch(struct app *a, struct xfer_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		struct xfer *j = &v->x[i];
		if (ended(j) || j->send == XS_SENT)
			continue;
		const struct instance *x = find(a, j->inst);
		if (!x) {
			if (a->snap) {
				j->phase = JP_FAILED;
				snprintf(j->status, sizeof j->status, "instance %ld is no longer listed", j->inst);
			}
			continue;
		}
		const char *msg = x->status_msg ? x->status_msg : "";
		enum job_phase before = j->phase;
		j->phase = api_job_track(j->snapshot, msg, j->at_send, before);
		if (j->phase != JP_WAITING && msg[0])
			util_strlcpy(j->status, msg, sizeof j->status);
		if (j->phase == before || !ended(j))
			continue;
		enum role role = j->phase == JP_DONE ? ROLE_OK : ROLE_WARNING;
		app_toast(a, role, 10, "%s %s: %s", j->snapshot ? "snapshot" : "copy", j->what, j->status);
		model_event(a->m, j->phase == JP_DONE ? EV_INFO : EV_WARN, -1, 0, j->inst, EVF_QUIET, "%s %s: %s",
			    j->snapshot ? "snapshot" : "copy", j->what, j->status);
	}
}

/* ---- the view ------------------------------------------------------------------- */

static const char *state_text(const struct xfer *j)
{
	if (j->send == XS_SENT)
		return "sending";
	if (j->send == XS_REFUSED)
		return "refused";
	if (j->send == XS_LOST && j->phase == JP_WAITING)
		return "unknown";
	if (j->cancel_sent && !ended(j))
		return "stopping";
	return api_job_phase_name(j->phase);
}

void pane_xfer_cols(int width, int inst_w, int what_w, int status_w, struct xfer_cols *c)
{
	c->kind = 8; /* "snapshot" */
	c->state = 9;
	c->inst = inst_w > 8 ? inst_w : 8; /* "INSTANCE" */
	int rest = width - (c->kind + 1 + c->state + 1 + c->inst + 1) - 2;
	if (rest < 0)
		rest = 0;
	if (what_w < 4)
		what_w = 4; /* "WHAT" */
	if (what_w + status_w <= rest) {
		c->what = what_w;
	} else {
		int keep = rest / 4 > 12 ? rest / 4 : 12;
		c->what = what_w < keep ? what_w : keep;
		if (c->what > rest)
			c->what = rest;
		if (status_w < rest - c->what) /* a short status leaves WHAT the rest */
			c->what = rest - status_w;
	}
	c->status = rest - c->what;
}

static void row_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct xfer_view *v = ctx;
	const struct xfer *j = &v->x[i];
	snprintf(buf, n, "%-8s %-9s %-10ld %s  %s", j->snapshot ? "snapshot" : "copy", state_text(j),
		 j->inst, j->what, j->status);
}

static const struct list_ops xfer_list_ops = { row_text, NULL, NULL, NULL };

struct xfer_draw_ctx {
	const struct xfer_view *v;
	const struct rect *r;
	struct xfer_cols c;
};

static void xfer_line_draw(void *dctx, size_t k, bool sel, int y)
{
	const struct xfer_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	unsigned long attr = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, r->x, r->w, attr);
	if (k == LIST_NONE)
		return;
	const struct xfer *j = &d->v->x[k];
	if (!sel)
		attr = theme_attr(j->send == XS_REFUSED || j->phase == JP_FAILED ? ROLE_ERROR
				  : j->phase == JP_DONE ? ROLE_OK
				  : j->send == XS_LOST || j->phase == JP_CANCELED ? ROLE_WARNING
										 : ROLE_NORMAL);
	const struct xfer_cols *c = &d->c;
	char inst[32];
	snprintf(inst, sizeof inst, "%ld", j->inst);
	int x = r->x + 1;
	draw_cell(y, x, c->kind, j->snapshot ? "snapshot" : "copy", false, attr);
	x += c->kind + 1;
	draw_cell(y, x, c->state, state_text(j), false, attr);
	x += c->state + 1;
	draw_cell(y, x, c->inst, inst, false, attr);
	x += c->inst + 1;
	draw_cell(y, x, c->what, j->what, false, attr);
	x += c->what + 2;
	draw_cell(y, x, c->status, j->status, false, attr);
}

/* The chosen job's description and status, whole (wrapped: up to 3 and
 * 4 lines), at the bottom of r when draw; the lines it takes (0: none
 * chosen, or no room: the list keeps 3 rows). */
static int xfer_footer(const struct xfer_view *v, const struct rect *r, bool draw)
{
	size_t k = list_selected(&v->list);
	if (k == LIST_NONE || k >= v->n || r->w < 20)
		return 0;
	const struct xfer *j = &v->x[k];
	char what[3][256], status[4][256];
	int nw = draw_wrap(j->what, r->w - 2, what, 3);
	int ns = draw_wrap(j->status, r->w - 2, status, 4);
	int h = 1 + nw + ns;
	if (r->h - 2 - h < 3) /* the list keeps three rows */
		return 0;
	if (!draw)
		return h;
	int y = r->y + r->h - h;
	char head[200];
	snprintf(head, sizeof head, "%s instance %ld (%s)", j->snapshot ? "snapshot of" : "copy into",
		 j->inst, state_text(j));
	draw_fill(y, r->x, r->w, theme_attr(ROLE_HEADER));
	draw_text(y, r->x + 1, r->w - 2, head, theme_attr(ROLE_HEADER));
	unsigned long at = theme_attr(ROLE_NORMAL);
	for (int i = 0; i < nw + ns; i++) {
		draw_fill(++y, r->x, r->w, at);
		draw_text(y, r->x + 1, r->w - 2, i < nw ? what[i] : status[i - nw], at);
	}
	return h;
}

static void xfer_draw(struct app *a, void *st, const struct rect *r)
{
	(void)a;
	struct xfer_view *v = st;
	draw_cell(r->y, r->x, r->w,
		  " Transfers: copies and snapshots sent this session  (Esc or q returns)",
		  false, theme_attr(ROLE_TITLE));
	if (r->h < 2)
		return;
	struct xfer_draw_ctx d = { v, r, { 0 } };
	int iw = 0, ww = 0, sw = 0;
	for (size_t i = 0; i < v->n; i++) {
		char inst[32];
		int w = snprintf(inst, sizeof inst, "%ld", v->x[i].inst);
		iw = w > iw ? w : iw;
		w = util_strwidth(v->x[i].what);
		ww = w > ww ? w : ww;
		w = util_strwidth(v->x[i].status);
		sw = w > sw ? w : sw;
	}
	pane_xfer_cols(r->w - 2, iw, ww, sw, &d.c);
	unsigned long hd = theme_attr(ROLE_HEADER);
	draw_fill(r->y + 1, r->x, r->w, hd);
	int x = r->x + 1;
	draw_cell(r->y + 1, x, d.c.kind, "KIND", false, hd);
	x += d.c.kind + 1;
	draw_cell(r->y + 1, x, d.c.state, "STATE", false, hd);
	x += d.c.state + 1;
	draw_cell(r->y + 1, x, d.c.inst, "INSTANCE", false, hd);
	x += d.c.inst + 1;
	draw_cell(r->y + 1, x, d.c.what, "WHAT", false, hd);
	x += d.c.what + 2;
	draw_cell(r->y + 1, x, d.c.status, "STATUS", false, hd);
	int fh = xfer_footer(v, r, false);
	list_draw(&v->list, r->y + 2, r->h - 2 - fh, xfer_line_draw, &d);
	xfer_footer(v, r, true);
	if (!v->n && r->h > 2)
		draw_text(r->y + 2, r->x + 1, r->w - 2,
			  "nothing sent yet: :copy SRC DST (ID:/path) copies between instances, :snapshot ID "
			  "pushes a container to a registry",
			  theme_attr(ROLE_DIM));
}

static bool xfer_action(struct app *a, void *st, enum action act)
{
	if (act == ACT_NONE || act != act_cancel)
		return false;
	ask_cancel(a, st);
	return true;
}

static bool xfer_modal_key(struct app *a, void *st, int key)
{
	struct xfer_view *v = st;
	if (v->snap == SN_NONE)
		return false;
	a->dirty |= DIRTY_ALL;
	if (v->snap == SN_CONFIRM) {
		switch (dialog_key(&v->dlg, key)) {
		case DLG_CANCEL:
			dialog_close(&v->dlg);
			v->snap = SN_FORM;
			form_set_answer(&v->fm, NULL, "not sent");
			break;
		case DLG_SUBMIT:
			dialog_close(&v->dlg);
			v->snap = SN_FORM;
			snap_send(a, v);
			break;
		case DLG_CONTINUE:
			break;
		}
		return true;
	}
	if (form_busy(&v->fm) && key != 27)
		return true;
	switch (form_key(&v->fm, key)) {
	case FORM_CANCEL:
		if (v->fm.waiting && modal_call_pending(&v->call)) {
			/* sent: its answer is the job row's now (the form closes) */
			struct xfer *j = snap_job(v, XS_SENT);
			if (j) {
				j->req = v->call.id;
				v->call.id = 0;
				snprintf(j->status, sizeof j->status, "sent, waiting for the answer");
			}
			app_toast(a, ROLE_PENDING, 0, "the snapshot of instance %ld is sent: the transfers list "
				  "shows its answer", v->snap_id);
		}
		snap_close(a, v);
		break;
	case FORM_SUBMIT:
		snap_submit(a, v);
		break;
	case FORM_EDIT:
	case FORM_CONTINUE:
		break;
	}
	return true;
}

static bool xfer_modal_draw(struct app *a, void *st)
{
	struct xfer_view *v = st;
	if (v->snap == SN_NONE)
		return false;
	form_draw(&v->fm, &a->lay);
	if (v->snap == SN_CONFIRM) {
		dialog_draw(&v->dlg, &a->lay);
		return false;
	}
	return !form_busy(&v->fm);
}

static void xfer_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct xfer_view *v = st;
	take_results(a, v);
	snap_result(a, v);
	watch(a, v);
	const struct view *cur = view_current(a);
	if (cur && cur->st == st)
		a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

static struct list *xfer_list(struct app *a, void *st)
{
	(void)a;
	struct xfer_view *v = st;
	return &v->list;
}

static const void *xfer_row(const struct app *a, const void *st)
{
	const struct xfer_view *v = st;
	size_t k = list_selected(&v->list);
	return k != LIST_NONE && k < v->n ? find(a, v->x[k].inst) : NULL;
}

static void *xfer_init(struct app *a)
{
	(void)a;
	struct xfer_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &xfer_list_ops, v, false);
	the_view = v;
	return v;
}

static void xfer_fini(struct app *a, void *st)
{
	struct xfer_view *v = st;
	snap_close(a, v);
	for (size_t i = 0; i < v->n; i++) {
		if (v->x[i].req)
			model_drop_result(a->m, v->x[i].req);
		if (v->x[i].cancel_req)
			model_drop_result(a->m, v->x[i].cancel_req);
	}
	list_free(&v->list);
	if (the_view == v)
		the_view = NULL;
	free(v);
}

static const struct action_row xfer_rows[] = {
	{ { .name = "cancel-copy",
	    .help = "stop the chosen copy (every copy into its destination; confirms)",
	    .hint = "cancel", .flags = AF_MUTATES | AF_HINT },
	  "d", NULL, &act_cancel },
};

const struct view_ops view_transfers = {
	.name = "transfers",
	.title = "Transfers",
	.heading = "Transfers (copies, snapshots)",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.ctx_parent = "instances",
	.instance_rows = true,
	.actions = xfer_rows,
	.nactions = sizeof xfer_rows / sizeof xfer_rows[0],
	.init = xfer_init,
	.fini = xfer_fini,
	.on_snapshot = xfer_snapshot,
	.draw = xfer_draw,
	.action = xfer_action,
	.list = xfer_list,
	.selected_row = xfer_row,
	.modal_key = xfer_modal_key,
	.modal_draw = xfer_modal_draw,
};
