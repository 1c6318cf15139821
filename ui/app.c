/* app.c: the shell around the views: toasts, job submission (pending
 * toast), the dialog slot (its results go to the view that opened it), the
 * event feed (log, toasts, notifications: notify_out.h, the bell on a new
 * failure by default; a 2FA refusal goes to the 2FA prompt through
 * a->needs_tfa), the `:` command line, themes and
 * copying to the clipboard.  It knows no job kind: a job's result goes to
 * the view that submitted it, by request id. */
#include "app.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clip.h"
#include "command.h"
#include "base/config.h"
#include "base/errline.h"
#include "poll/poller.h"
#include "external.h"
#include "notify_out.h"
#include "base/util.h"

void app_lost_logged(struct app *a, const char *what, const char *line)
{
	model_event(a->m, EV_WARN, -1, 0, 0, EVF_QUIET, "%s: %s", what, line);
}

enum form_verdict app_lost_verdict(struct app *a, enum form_verdict fv, const char *msg)
{
	if (fv != FV_WAIT)
		model_event(a->m, fv == FV_DONE ? EV_OK : EV_WARN, -1, 0, 0, EVF_QUIET, "%s", msg);
	return fv;
}

const struct instance *app_selected(const struct app *a)
{
	const struct view *v = view_current(a);
	if (!v || !v->ops->instance_rows)
		return NULL;
	return view_row(a);
}

void app_sent(struct app *a, const struct job_req *req)
{
	app_toast(a, ROLE_PENDING, 0, "%s: sent for instance %ld", jobs_kind_name(req->kind),
		  req->instance_id);
	a->dirty |= DIRTY_BODY;
}

/* A submit of req refused with rc: said. */
static void refused(struct app *a, const struct job_req *req, int rc)
{
	const char *what = jobs_kind_name(req->kind);
	if (rc == JOBS_EREADONLY)
		app_toast(a, ROLE_ERROR, 8, "read-only mode: %s is disabled", what);
	else
		app_toast(a, ROLE_ERROR, 8, "%s refused: %s", what, jobs_strerror(rc));
}

int app_submit(struct app *a, const struct job_req *req)
{
	int id = 0;
	int rc = jobs_submit(a->jobs, req, &id);
	if (rc != JOBS_OK) {
		refused(a, req, rc);
		return 0;
	}
	app_sent(a, req);
	return id;
}

void app_dialog_own(struct app *a, app_dialog_fn fn, void *owner)
{
	a->dlg_fn = fn;
	a->dlg_owner = owner;
	a->dlg_key = NULL;
}

void app_dialog_keys(struct app *a, bool (*fn)(struct app *a, void *owner, int key))
{
	a->dlg_key = fn;
}

void app_dialog_cancelled(struct app *a)
{
	app_toast(a, ROLE_DIM, 4, "cancelled");
	dialog_close(&a->dlg);
}

void app_dialog_result(struct app *a, enum dlg_result res)
{
	a->dirty |= DIRTY_ALL;
	a->dlg_key = NULL;
	if (a->dlg_fn)
		a->dlg_fn(a, a->dlg_owner, res);
	else if (res == DLG_CANCEL)
		app_dialog_cancelled(a);
	else if (res == DLG_SUBMIT)
		dialog_close(&a->dlg);
}

char *app_base64(const unsigned char *in, size_t n, char *out)
{
	static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		out[o++] = tbl[(v >> 18) & 63];
		out[o++] = tbl[(v >> 12) & 63];
		out[o++] = i + 1 < n ? tbl[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? tbl[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

void app_copy(const char *text)
{
	size_t n = strlen(text);
	char *b64 = xmalloc(4 * (n / 3 + 1) + 1);
	app_base64((const unsigned char *)text, n, b64);
	char *seq = xasprintf("\033]52;c;%s\a", b64);
	clip_term_write(seq, strlen(seq));
	explicit_bzero(seq, strlen(seq)); /* it may be a secret (backup codes) */
	explicit_bzero(b64, strlen(b64));
	free(seq);
	free(b64);
}

void app_run_action(struct app *a, enum action act)
{
	const struct action_def *d = keymap_action_get(act);
	if (!d)
		return;
	struct view *bv = view_current(a);
	if (bv && bv->ops->bulk && bv->ops->bulk(a, bv->st, act))
		return; /* on the marked rows: each row's preconditions are the view's */
	if (!view_send_action(a, act) && a->global)
		a->global(a, act);
}

static enum role level_role(enum ev_level l)
{
	switch (l) {
	case EV_OK: return ROLE_OK;
	case EV_WARN: return ROLE_WARNING;
	case EV_ERROR: return ROLE_ERROR;
	case EV_INFO: return ROLE_NORMAL;
	}
	return ROLE_NORMAL;
}

static void handle_event(struct app *a, const struct event *e)
{
	for (int i = 0; i < a->nviews; i++) /* the event log view keeps it */
		if (a->views[i].ops->on_event)
			a->views[i].ops->on_event(a, a->views[i].st, e);
	if (notify_out_event(a->notify, e)) /* a quiet one too (low money) */
		a->bell_pending = true;
	if (e->flags & EVF_QUIET)
		return;
	if (e->flags & EVF_NEEDS_TFA) { /* the 2FA prompt (a->needs_tfa) */
		if (a->needs_tfa)
			a->needs_tfa(a, a->chal, e);
		return;
	}
	if (e->flags & EVF_HOLD) { /* a key warning: kept until a key, ahead of others */
		bool more = a->msg_sticky;
		a->msg_sticky = false;
		app_toast(a, level_role(e->level), 0, "%s%s  [any key dismisses]", e->text,
			  more ? " (+more: 2 shows the event log)" : "");
		a->msg_sticky = true;
		return;
	}
	double secs = e->level == EV_ERROR ? 20 : 10;
	if ((e->flags & EVF_JOB_DONE) || util_mono() >= a->msg_keyed_until) {
		app_toast(a, level_role(e->level), secs, "%s", e->text);
	} else { /* shown when the answer's hold ends (app_show_later) */
		util_strlcpy(a->msg_later, e->text, sizeof a->msg_later);
		a->msg_later_role = level_role(e->level);
		a->msg_later_secs = secs;
	}
	if (e->flags & EVF_FAILED_INSTANCE)
		a->dirty |= DIRTY_HINTS;
}

void app_pull_events(struct app *a)
{
	struct event buf[64];
	for (;;) {
		size_t n = model_events(a->m, a->last_seq, buf, 64);
		for (size_t i = 0; i < n; i++) {
			a->last_seq = buf[i].seq;
			handle_event(a, &buf[i]);
		}
		if (n < 64)
			break;
	}
}

bool app_set_theme(struct app *a, const char *name)
{
	struct theme t;
	char err[300];
	if (!theme_load(&t, name, err, sizeof err)) {
		app_toast(a, ROLE_WARNING, 10, "%s; keeping theme %s", err, a->theme.name);
		return false;
	}
	a->theme = t;
	theme_activate(&a->theme, a->color);
	bkgdset((chtype)' ' | (attr_t)theme_attr(ROLE_NORMAL));
	a->dirty |= DIRTY_ALL;
	app_toast(a, ROLE_OK, 4, "theme %s", t.name);
	return true;
}

/* `:WORD`: a view by name (or alias), else an action by name, run as its
 * key would run it; false when WORD is neither. */
static bool command_word(struct app *a, const char *word)
{
	int v = view_find(a, word);
	if (v >= 0) {
		const struct instance *x = app_selected(a);
		const struct view_ops *o = a->views[v].ops;
		if (!o->number_key && o->instance_rows && !x) {
			app_toast(a, ROLE_WARNING, 6, ":%s needs a selected instance", word);
			return true;
		}
		view_show(a, v, o->instance_rows && x ? x->id : 0);
		return true;
	}
	if ((v = view_find_word(a, word)) >= 0) { /* a section's word: ":reports" */
		if (a->views[v].ops->number_key)
			view_show(a, v, 0);
		a->views[v].ops->command(a, a->views[v].st, word);
		return true;
	}
	enum action act = keymap_action_by_name(word);
	if (act == ACT_NONE || act == ACT_COMMAND)
		return false;
	struct view *cur = view_current(a);
	if (!keymap_action_allowed(act, view_key_ctx(a, cur))) {
		app_toast(a, ROLE_WARNING, 8, ":%s does not apply in the %s view", word,
			  cur ? cur->ops->name : "current");
		return true;
	}
	app_run_action(a, act);
	return true;
}

/* :sort COLUMN on the current view, else the first view that sorts. */
static void command_sort(struct app *a, const char *col)
{
	int idx = -1;
	struct view *cur = view_current(a);
	if (cur && cur->ops->sort)
		idx = (int)(cur - a->views);
	for (int i = 0; idx < 0 && i < a->nviews; i++)
		if (a->views[i].ops->sort && a->views[i].ops->number_key)
			idx = i;
	if (idx < 0) {
		app_toast(a, ROLE_ERROR, 8, "no view here sorts by column");
		return;
	}
	char err[200];
	struct view *v = &a->views[idx];
	if (!v->ops->sort(a, v->st, col, err, sizeof err)) {
		app_toast(a, ROLE_ERROR, 8, "%s", err);
		return;
	}
	if (v->ops->number_key)
		view_show(a, idx, 0);
}

/* `:VIEW ARGS` for a view that takes arguments: shown, then given ARGS.
 * False when the first word is no such view. */
static bool view_command(struct app *a, const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == ':')
		line++;
	size_t wl = strcspn(line, " \t");
	char word[40];
	if (wl == 0 || wl >= sizeof word)
		return false;
	memcpy(word, line, wl);
	word[wl] = '\0';
	int i = view_find(a, word);
	const char *args = line + wl;
	if (i < 0 && (i = view_find_word(a, word)) >= 0)
		args = line; /* a section's word: the command gets "reports 42" */
	if (i < 0)
		return false;
	while (*args == ' ' || *args == '\t')
		args++;
	const struct view_ops *o = a->views[i].ops;
	if (!o->command && !o->number_key && o->instance_rows) {
		/* an overlay on an instance (`:detail 9108111`): that instance */
		char *end;
		long id = strtol(args, &end, 10);
		while (*end == ' ' || *end == '\t')
			end++;
		if (id <= 0 || *end || !a->snap || !model_snapshot_find(a->snap, id)) {
			app_toast(a, ROLE_ERROR, 8, ":%s takes the id of a listed instance, not \"%.40s\"",
				  word, args);
			return true;
		}
		view_show(a, i, id);
		return true;
	}
	if (!o->command)
		return false;
	struct view *v = &a->views[i];
	if (v->ops->number_key)
		view_show(a, i, 0);
	v->ops->command(a, v->st, args);
	return true;
}

/* `:ACTION ARGS` for an action that takes arguments (action_args), as its key
 * would run it on the current view.  False when the first word is none. */
static bool action_command(struct app *a, const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == ':')
		line++;
	size_t wl = strcspn(line, " \t");
	char word[40];
	if (wl == 0 || wl >= sizeof word)
		return false;
	memcpy(word, line, wl);
	word[wl] = '\0';
	enum action act = keymap_action_by_name(word);
	action_args_fn run = action_args(act);
	if (!run)
		return false;
	struct view *cur = view_current(a);
	if (!keymap_action_allowed(act, view_key_ctx(a, cur))) {
		app_toast(a, ROLE_WARNING, 8, ":%s does not apply in the %s view", word,
			  cur ? cur->ops->name : "current");
		return true;
	}
	char why[300];
	const char *no = keymap_action_refusal(act, view_row(a), a->read_only, why, sizeof why);
	if (no) {
		app_toast(a, ROLE_WARNING, 8, "%s", no);
		return true;
	}
	const char *args = line + wl;
	while (*args == ' ' || *args == '\t')
		args++;
	run(a, act, args);
	return true;
}

void app_command(struct app *a, const char *line)
{
	char arg[256];
	enum cmd c = command_parse(line, arg, sizeof arg);
	switch (c) {
	case CMD_EMPTY: break;
	case CMD_HELP: view_open(a, "help", 0); break;
	case CMD_QUIT: a->quit = true; break;
	case CMD_SORT: command_sort(a, arg); break;
	case CMD_FILTER: {
		struct view *v = view_current(a);
		if (!view_can_filter(a, v))
			v = &a->views[a->view];
		if (view_can_filter(a, v))
			view_filter_set(a, v, arg);
		break;
	}
	case CMD_THEME: app_set_theme(a, arg); break;
	case CMD_REFRESH: /* as the key: the app's own action (ui.c) */
		if (a->global)
			a->global(a, ACT_REFRESH);
		else if (a->poller)
			poller_refresh_now(a->poller);
		break;
	case CMD_MISSING_ARG: app_toast(a, ROLE_ERROR, 8, ":%s needs an argument", arg); break;
	case CMD_WORD:
		if (!command_word(a, arg))
			app_toast(a, ROLE_ERROR, 8, "unknown command: %s", arg);
		break;
	case CMD_UNKNOWN:
		if (!action_command(a, line) && !view_command(a, line))
			app_toast(a, ROLE_ERROR, 8, "unknown command: %s", arg);
		break;
	}
	a->dirty |= DIRTY_ALL;
}
