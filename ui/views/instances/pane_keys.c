/* pane_keys.c: one instance's SSH keys, attach and detach (pane_keys.h).
 * The list is read on entering and after every write (and its loss); a
 * lost write's verdict comes from that read. */
#include "views/instances/pane_keys.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_account.h"
#include "api/api_inst_ops.h"
#include "app.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "draw.h"
#include "flow/acctops.h"
#include "poll/jobs.h"
#include "rules/sshkey.h"
#include "state/model.h"
#include "theme.h"
#include "widgets/dialog.h"
#include "widgets/form.h"
#include "widgets/list.h"
#include "widgets/modal_call.h"

#define KEYS_PUB_MAX 10 /* ~/.ssh/ *.pub files offered */

enum keys_modal { KM_NONE, KM_ATTACH, KM_DETACH };

struct keys_view {
	long id;                 /* the instance */
	struct inst_keys *keys;  /* the last list read, NULL: none yet */
	char status[400];        /* how the read went ("" when it did) */
	int read_req;            /* the read awaited, 0: none */
	struct list list;
	enum keys_modal modal;
	struct form fm;
	struct dialog dlg;
	struct modal_call call;
	char *pub[KEYS_PUB_MAX + 1]; /* the attach form's choices: "(paste below)", the .pub paths */
	const char *pub_names[KEYS_PUB_MAX + 1];
	int npub;
	char fingerprint[128];   /* what an attach adds (SHA256:...) */
	long key_id;             /* what a detach takes away */
	int before;              /* its count in the list the write was sent over */
};

static const struct ssh_key_rec *rows(const struct keys_view *v, size_t *n)
{
	*n = v->keys ? v->keys->n : 0;
	return v->keys ? v->keys->v : NULL;
}

static int count_id(const struct keys_view *v, long id)
{
	size_t n;
	const struct ssh_key_rec *k = rows(v, &n);
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += k[i].id == id;
	return c;
}

/* Read the instance's keys (a fetch: retried as any read). */
static void read_list(struct app *a, struct keys_view *v)
{
	if (v->read_req || !a->jobs)
		return;
	struct job_call c = { 0 };
	c.call = api_inst_ssh_list(a->cfg, v->id);
	c.map = api_inst_ssh_answer;
	c.free_value = api_inst_ssh_answer_free;
	snprintf(c.what, sizeof c.what, "SSH keys of instance %ld", v->id);
	if (jobs_call(a->jobs, &c, &v->read_req) != JOBS_OK)
		v->read_req = 0;
	else if (!v->keys)
		snprintf(v->status, sizeof v->status, "reading the keys of instance %ld...", v->id);
}

static void row_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct keys_view *v = ctx;
	size_t cnt;
	const struct ssh_key_rec *k = &rows(v, &cnt)[i];
	char when[64] = "-";
	if (isfinite(k->created_at)) {
		time_t t = (time_t)k->created_at;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%Y-%m-%d", &tm);
	}
	snprintf(buf, n, "%-8ld %-12.12s %-20.20s %-11s %s", k->id, k->type[0] ? k->type : "(not valid)",
		 k->comment, when, k->fingerprint);
}

static const struct list_ops keys_list_ops = { row_text, NULL, NULL, NULL };

static void modal_close(struct app *a, struct keys_view *v)
{
	modal_call_drop(&v->call, a->m);
	form_free(&v->fm);
	dialog_close(&v->dlg);
	for (int i = 0; i < v->npub; i++)
		free(v->pub[i]);
	v->npub = 0;
	v->modal = KM_NONE;
	a->dirty |= DIRTY_ALL;
}

static bool check_line(const struct form_field *f, char *err, size_t n)
{
	struct sshkey_info ki;
	return !f->tb.s[0] || sshkey_parse(f->tb.s, &ki, err, n); /* empty: a file is chosen */
}

/* a: the attach form (a .pub file of ~/.ssh, or a pasted line). */
static void open_attach(struct app *a, struct keys_view *v)
{
	modal_close(a, v);
	char title[64];
	snprintf(title, sizeof title, " Attach an SSH key to instance %ld ", v->id);
	form_init(&v->fm, title);
	v->pub[v->npub++] = xstrdup("(paste below)");
	const char *home = getenv("HOME");
	if (home && *home) {
		char dir[1024], **paths = NULL;
		snprintf(dir, sizeof dir, "%s/.ssh", home);
		size_t n = sshkey_list_pub(dir, &paths);
		for (size_t i = 0; i < n; i++) {
			if (v->npub <= KEYS_PUB_MAX)
				v->pub[v->npub++] = paths[i];
			else
				free(paths[i]);
		}
		free(paths);
	}
	for (int i = 0; i < v->npub; i++) {
		const char *slash = strrchr(v->pub[i], '/');
		v->pub_names[i] = slash ? slash + 1 : v->pub[i];
	}
	form_add_choice(&v->fm, "file", "Key file", v->pub_names, v->npub, v->npub > 1 ? 1 : 0);
	int k = form_add_text(&v->fm, "line", "Or paste the line", "", TEXTBUF_BYTES / 2, false);
	if (k >= 0)
		v->fm.f[k].check = check_line;
	form_set_note(&v->fm, "The key gets into this instance only; a key the account lacks is added "
		      "to the account too (the service's rule).", false);
	v->modal = KM_ATTACH;
}

static void submit_attach(struct app *a, struct keys_view *v)
{
	if (!form_validate_focus(&v->fm))
		return;
	char line[SSHKEY_LINE_MAX], err[200];
	int file = form_choice(&v->fm, "file");
	const char *field;
	struct sshkey_info ki;
	if (!sshkey_from_input(form_value(&v->fm, "line"), file > 0 && file < v->npub ? v->pub[file] : NULL,
			       line, sizeof line, &ki, err, sizeof err, &field)) {
		form_set_answer(&v->fm, field, err);
		return;
	}
	size_t n;
	const struct ssh_key_rec *have = rows(v, &n);
	if (acctops_ssh_count(have, n, ki.fingerprint) > 0) {
		char msg[200];
		snprintf(msg, sizeof msg, "not sent: %s is already on instance %ld", ki.fingerprint, v->id);
		form_set_answer(&v->fm, NULL, msg);
		return;
	}
	util_strlcpy(v->fingerprint, ki.fingerprint, sizeof v->fingerprint);
	v->before = v->keys ? acctops_ssh_count(have, n, ki.fingerprint) : -1;
	struct job_call c = { 0 };
	c.call = api_inst_ssh_attach(a->cfg, v->id, line);
	snprintf(c.what, sizeof c.what, "attach SSH key to instance %ld", v->id);
	modal_call_send(&v->call, a->jobs, &c, &v->fm, NULL);
}

/* d: the detach confirmation of the chosen key (starting on Cancel). */
static void open_detach(struct app *a, struct keys_view *v)
{
	size_t n, k = list_selected(&v->list);
	const struct ssh_key_rec *r = rows(v, &n);
	if (k == LIST_NONE || k >= n) {
		app_toast(a, ROLE_WARNING, 6, "no key chosen");
		return;
	}
	modal_close(a, v);
	v->key_id = r[k].id;
	v->before = 1;
	char text[600];
	snprintf(text, sizeof text,
		 "Detach SSH key %ld (%s %.60s %s) from instance %ld? ssh with that key no longer gets "
		 "into this instance; the account keeps the key.%s",
		 r[k].id, r[k].type[0] ? r[k].type : "?", r[k].comment, r[k].fingerprint, v->id,
		 n == 1 ? " It is the instance's last key: no key will get in." : "");
	dialog_confirm(&v->dlg, 0, v->id, "Detach SSH key", text, "Detach");
	v->modal = KM_DETACH;
}

static void send_detach(struct app *a, struct keys_view *v)
{
	struct job_call c = { 0 };
	c.call = api_inst_ssh_detach(a->cfg, v->id, v->key_id);
	snprintf(c.what, sizeof c.what, "detach SSH key %ld from instance %ld", v->key_id, v->id);
	modal_call_send(&v->call, a->jobs, &c, NULL, &v->dlg);
}

/* The write's result: done (the list read again), refused (kept in the
 * modal), lost (the modal locked, the list read again for the verdict). */
static void take_write(struct app *a, struct keys_view *v)
{
	struct call_result r;
	if (v->modal == KM_NONE || !modal_call_take(&v->call, a->m, &r))
		return;
	char why[300], what[160];
	apierr_format(&r.err, why, sizeof why);
	bool attach = v->modal == KM_ATTACH;
	switch (r.outcome) {
	case CALL_OK:
		if (attach)
			app_answer(a, ROLE_OK, 8, "SSH key %s attached to instance %ld", v->fingerprint, v->id);
		else
			app_answer(a, ROLE_OK, 8, "SSH key %ld detached from instance %ld", v->key_id, v->id);
		modal_close(a, v);
		read_list(a, v);
		break;
	case CALL_UNKNOWN: {
		struct form_lost_words w = { .what = what };
		if (attach) {
			snprintf(what, sizeof what, "SSH key %s on instance %ld", v->fingerprint, v->id);
			w.found = "is there";
			w.missing = "is not there";
			w.done = "attached";
			w.undone = "not attached";
			form_lost_begin(&v->fm, &w, v->before, why, r.when);
			app_lost_logged(a, what, v->fm.answer);
		} else {
			snprintf(what, sizeof what, "SSH key %ld on instance %ld", v->key_id, v->id);
			w.found = "is gone";
			w.missing = "is still there";
			w.done = "detached";
			w.undone = "not detached";
			w.again = "d to try again";
			w.removes = true;
			dialog_lost_begin(&v->dlg, &w, v->before, why, r.when);
			app_lost_logged(a, what, v->dlg.error);
		}
		read_list(a, v);
		break;
	}
	case CALL_ERROR:
		modal_call_refused(attach ? &v->fm : NULL, &v->dlg, why[0] ? why : "refused");
		break;
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_ALL;
}

/* A list read at when (err: why it failed): a locked modal's verdict. */
static void lost_verdict(struct app *a, struct keys_view *v, double when, const char *err)
{
	bool attach = v->modal == KM_ATTACH;
	if (v->modal == KM_NONE || !(attach ? form_lost_checking(&v->fm) : dialog_lost_checking(&v->dlg)))
		return;
	size_t n;
	const struct ssh_key_rec *k = rows(v, &n);
	int after = err ? -1 : attach ? acctops_ssh_count(k, n, v->fingerprint) : count_id(v, v->key_id);
	char msg[400];
	enum form_verdict fv = app_lost_verdict(
		a, attach ? form_lost_reread(&v->fm, when, after, err, msg, sizeof msg)
			  : dialog_lost_reread(&v->dlg, when, after, err, msg, sizeof msg),
		msg);
	switch (fv) {
	case FV_DONE:
		app_answer(a, ROLE_OK, 0, "%s", msg);
		modal_close(a, v);
		break;
	case FV_NOT_DONE:
		app_answer(a, ROLE_WARNING, 0, "%s", msg);
		if (!attach) /* a detach is never sent again from its dialog: d opens a new one */
			modal_close(a, v);
		break;
	case FV_UNKNOWN:
	case FV_WAIT:
		break;
	}
}

static void take_read(struct app *a, struct keys_view *v)
{
	struct call_result r;
	if (!v->read_req || !model_take_result(a->m, v->read_req, &r))
		return;
	v->read_req = 0;
	char why[300] = "";
	if (r.outcome == CALL_OK && r.value) {
		api_inst_ssh_answer_free(v->keys);
		v->keys = r.value;
		r.value = NULL;
		v->status[0] = '\0';
		list_set_count(&v->list, v->keys->n);
		lost_verdict(a, v, r.when, NULL);
	} else {
		apierr_format(&r.err, why, sizeof why);
		snprintf(v->status, sizeof v->status, "the keys of instance %ld could not be read: %s", v->id,
			 why[0] ? why : "no answer");
		lost_verdict(a, v, r.when, why[0] ? why : "no answer");
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

static enum action act_attach = ACT_NONE, act_detach = ACT_NONE;

static bool keys_action(struct app *a, void *st, enum action act)
{
	struct keys_view *v = st;
	if (act == ACT_NONE)
		return false;
	if (act == act_attach)
		open_attach(a, v);
	else if (act == act_detach)
		open_detach(a, v);
	else
		return false;
	a->dirty |= DIRTY_ALL;
	return true;
}

static bool keys_modal_key(struct app *a, void *st, int key)
{
	struct keys_view *v = st;
	if (v->modal == KM_NONE)
		return false;
	a->dirty |= DIRTY_ALL;
	if (v->modal == KM_DETACH) {
		if (dialog_busy(&v->dlg) && key != 27 && key != 'q')
			return true;
		switch (dialog_key(&v->dlg, key)) {
		case DLG_CANCEL:
			modal_close(a, v);
			break;
		case DLG_SUBMIT:
			send_detach(a, v);
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
		modal_close(a, v);
		break;
	case FORM_SUBMIT:
		submit_attach(a, v);
		break;
	case FORM_EDIT:
	case FORM_CONTINUE:
		break;
	}
	return true;
}

static bool keys_modal_draw(struct app *a, void *st)
{
	struct keys_view *v = st;
	switch (v->modal) {
	case KM_NONE:
		return false;
	case KM_DETACH:
		dialog_draw(&v->dlg, &a->lay);
		return false;
	case KM_ATTACH:
		break;
	}
	form_draw(&v->fm, &a->lay);
	return !form_busy(&v->fm);
}

struct keys_draw_ctx {
	const struct keys_view *v;
	const struct rect *r;
};

static void keys_line_draw(void *dctx, size_t k, bool sel, int y)
{
	const struct keys_draw_ctx *d = dctx;
	unsigned long attr = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, d->r->x, d->r->w, attr);
	if (k == LIST_NONE)
		return;
	char line[400];
	row_text(d->v, k, line, sizeof line);
	draw_text(y, d->r->x + 1, d->r->w - 2, line, attr);
}

static void keys_draw(struct app *a, void *st, const struct rect *r)
{
	(void)a;
	struct keys_view *v = st;
	char title[200];
	snprintf(title, sizeof title, " SSH keys of instance %ld  (a attaches, d detaches; Esc or q returns)",
		 v->id);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_TITLE));
	if (r->h < 3)
		return;
	char head[160];
	snprintf(head, sizeof head, "%-8s %-12s %-20s %-11s %s", "ID", "TYPE", "COMMENT", "CREATED",
		 "FINGERPRINT");
	draw_fill(r->y + 1, r->x, r->w, theme_attr(ROLE_HEADER));
	draw_text(r->y + 1, r->x + 1, r->w - 2, head, theme_attr(ROLE_HEADER));
	struct keys_draw_ctx d = { v, r };
	list_draw(&v->list, r->y + 2, r->h - 2, keys_line_draw, &d);
	if (v->status[0])
		draw_text(r->y + 2, r->x + 1, r->w - 2, v->status, theme_attr(ROLE_DIM));
	else if (v->keys && !v->keys->n)
		draw_text(r->y + 2, r->x + 1, r->w - 2, "no key: ssh gets into this instance with none (a attaches one)",
			  theme_attr(ROLE_WARNING));
}

static void keys_enter(struct app *a, void *st, long id)
{
	struct keys_view *v = st;
	if (id != v->id) {
		modal_close(a, v);
		api_inst_ssh_answer_free(v->keys);
		v->keys = NULL;
		list_set_count(&v->list, 0);
		if (v->read_req)
			model_drop_result(a->m, v->read_req);
		v->read_req = 0;
	}
	v->id = id;
	list_set_filter(&v->list, "");
	read_list(a, v);
}

static void keys_snapshot(struct app *a, void *st, bool rows_changed)
{
	(void)rows_changed;
	struct keys_view *v = st;
	take_write(a, v);
	take_read(a, v);
}

static struct list *keys_list(struct app *a, void *st)
{
	(void)a;
	struct keys_view *v = st;
	return &v->list;
}

static const void *keys_row(const struct app *a, const void *st)
{
	const struct keys_view *v = st;
	return a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
}

static void *keys_init(struct app *a)
{
	(void)a;
	struct keys_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &keys_list_ops, v, false);
	return v;
}

static void keys_fini(struct app *a, void *st)
{
	struct keys_view *v = st;
	modal_close(a, v);
	if (v->read_req)
		model_drop_result(a->m, v->read_req);
	api_inst_ssh_answer_free(v->keys);
	list_free(&v->list);
	free(v);
}

static const struct action_row keys_rows[] = {
	{ { .name = "attach-ssh-key",
	    .help = "attach an SSH key to this instance (a ~/.ssh/ .pub file or a pasted line)",
	    .hint = "attach", .flags = AF_MUTATES | AF_HINT },
	  "a", NULL, &act_attach },
	{ { .name = "detach-ssh-key", .help = "detach the chosen SSH key from this instance (confirms)",
	    .hint = "detach", .flags = AF_MUTATES | AF_HINT },
	  "d", NULL, &act_detach },
};

static void run_keys(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	if (x)
		view_open(a, "inst-keys", x->id);
}

/* `:keys ID` (no ID: the selected instance). */
static void keys_args(struct app *a, enum action act, const char *args)
{
	if (!*args) {
		run_keys(a, act);
		return;
	}
	char *end;
	long id = strtol(args, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (id <= 0 || *end || !a->snap || !model_snapshot_find(a->snap, id)) {
		app_toast(a, ROLE_ERROR, 8, ":keys takes the id of a listed instance, not \"%.40s\"", args);
		return;
	}
	view_open(a, "inst-keys", id);
}

static const struct action_def keys_def = {
	"keys", "the instance's SSH keys: attach (a) and detach (d) a key on this instance only; :keys ID",
	NULL, AF_NEEDS_SEL, NULL, run_keys,
};

void pane_keys_keys(struct keymap *km, int ctx)
{
	enum action k = keymap_action_register(&keys_def);
	action_set_args(k, keys_args);
	keymap_action_allow(k, ctx);
	keymap_default(km, ctx, "K", k);
}

const struct view_ops view_inst_keys = {
	.name = "inst-keys",
	.title = "Instance keys",
	.heading = "SSH keys of an instance",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.ctx_parent = "instances",
	.instance_rows = true,
	.actions = keys_rows,
	.nactions = sizeof keys_rows / sizeof keys_rows[0],
	.init = keys_init,
	.fini = keys_fini,
	.enter = keys_enter,
	.on_snapshot = keys_snapshot,
	.draw = keys_draw,
	.action = keys_action,
	.list = keys_list,
	.selected_row = keys_row,
	.modal_key = keys_modal_key,
	.modal_draw = keys_modal_draw,
};
