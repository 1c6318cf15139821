/* pane_exec.c: `:exec ID CMD` and its output (pane_exec.h).  One command at
 * a time: the execute is an action (at most once: a lost answer is said,
 * never resent), then the output is read from the result_url as the
 * instance log pane reads its copies (a non-200 is "not written yet", asked
 * again every API_LOG_RESULT_DELAY_S, API_LOG_RESULT_TRIES times). */
#include "views/instances/pane_exec.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_inst_ops.h"
#include "api/api_serverless.h"
#include "app.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "draw.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "theme.h"
#include "views/instances/inst_ops.h"
#include "widgets/list.h"

enum exec_phase { EX_IDLE, EX_SENT, EX_FETCH, EX_DONE };

#define EXEC_LINES 2000

struct exec_view {
	enum exec_phase phase;
	long id;                 /* the instance */
	char cmd[API_EXEC_MAX + 1];
	int req;                 /* the call awaited, 0: none */
	struct exec_answer *ans; /* the execute's answer (EX_FETCH, EX_DONE) */
	double next_at;          /* util_mono() of the next output read */
	int tries;
	char status[API_EXEC_MAX + 400]; /* what the pager's title says */
	char *text;              /* the output, malloc'd */
	char **lines;            /* into text */
	size_t n;
	struct list list;        /* a pager */
};

static struct exec_view *the_view; /* the one exec view (init), for the action */

static void exec_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct exec_view *v = ctx;
	util_strlcpy(buf, v->lines[i], n);
}

static const struct list_ops exec_list_ops = { exec_text, NULL, NULL, NULL };

static void set_output(struct exec_view *v, char *text)
{
	free(v->text);
	free(v->lines);
	v->text = text;
	v->lines = NULL;
	v->n = 0;
	if (!text)
		return;
	v->lines = xcalloc(EXEC_LINES, sizeof *v->lines);
	/* every line, empty ones too; no line after a final newline */
	for (char *l = text; *l && v->n < EXEC_LINES;) {
		char *nl = strchr(l, '\n');
		v->lines[v->n++] = l;
		if (!nl)
			break;
		*nl = '\0';
		l = nl + 1;
	}
}

static void reset(struct app *a, struct exec_view *v)
{
	if (v->req)
		model_drop_result(a->m, v->req);
	v->req = 0;
	api_exec_answer_free(v->ans);
	v->ans = NULL;
	set_output(v, NULL);
	list_set_count(&v->list, 0);
	v->phase = EX_IDLE;
}

/* Send the execute of v->cmd on v->id (its checks passed). */
static void send_exec(struct app *a, struct exec_view *v)
{
	struct job_call c = { 0 };
	c.call = api_inst_execute(a->cfg, v->id, v->cmd);
	c.action = true;
	c.map = api_exec_answer;
	c.free_value = api_exec_answer_free;
	snprintf(c.what, sizeof c.what, "execute on instance %ld", v->id);
	int rc = a->jobs ? jobs_call(a->jobs, &c, &v->req) : JOBS_EINVAL;
	if (rc != JOBS_OK) {
		v->req = 0;
		app_toast(a, ROLE_ERROR, 8, "execute on instance %ld: %s", v->id, jobs_strerror(rc));
		return;
	}
	v->phase = EX_SENT;
	snprintf(v->status, sizeof v->status, "running \"%s\" on instance %ld...", v->cmd, v->id);
	view_open(a, "exec-output", v->id);
}

/* The result_url's transfer -> the output text (a non-200: not written yet). */
static void *map_output(const struct http_xfer *x, struct api_error *e)
{
	return api_instance_logs_text(x, e);
}

/* Read the output once it is due. */
static void fetch(struct app *a, struct exec_view *v)
{
	if (v->phase != EX_FETCH || v->req || util_mono() < v->next_at || !a->jobs)
		return;
	struct job_call c = { 0 };
	char err[160];
	c.call = api_instance_logs_fetch(v->ans->result_url, err, sizeof err);
	if (!c.call.url) {
		v->phase = EX_DONE;
		snprintf(v->status, sizeof v->status, "\"%s\" on instance %ld: its output cannot be read: %s",
			 v->cmd, v->id, err);
		return;
	}
	c.map_http = map_output;
	c.free_value = free;
	snprintf(c.what, sizeof c.what, "execute output of instance %ld", v->id);
	if (jobs_call(a->jobs, &c, &v->req) != JOBS_OK) {
		v->req = 0;
		v->next_at = util_mono() + API_LOG_RESULT_DELAY_S;
	}
}

/* Take the answer awaited, if it came. */
static void take(struct app *a, struct exec_view *v)
{
	struct call_result r;
	if (!v->req || !model_take_result(a->m, v->req, &r))
		return;
	v->req = 0;
	char m[256];
	apierr_format(&r.err, m, sizeof m);
	if (v->phase == EX_SENT) {
		if (r.outcome == CALL_OK && r.value) {
			v->ans = r.value;
			r.value = NULL;
			v->phase = EX_FETCH;
			v->tries = 0;
			v->next_at = util_mono() + API_LOG_RESULT_DELAY_S;
			snprintf(v->status, sizeof v->status, "\"%s\" on instance %ld: sent, reading its output...",
				 v->cmd, v->id);
		} else {
			v->phase = EX_DONE;
			if (r.outcome == CALL_UNKNOWN)
				snprintf(v->status, sizeof v->status,
					 "\"%s\" on instance %ld: the answer was lost; it may have run (not sent again)",
					 v->cmd, v->id);
			else
				snprintf(v->status, sizeof v->status, "\"%s\" on instance %ld failed: %s", v->cmd,
					 v->id, m[0] ? m : "no answer");
			app_toast(a, ROLE_ERROR, 10, "%s", v->status);
		}
	} else if (v->phase == EX_FETCH) {
		if (r.outcome == CALL_OK) {
			char *out = api_exec_strip(r.value ? r.value : "", v->ans->writeable_path);
			set_output(v, out);
			list_set_count(&v->list, v->n);
			v->phase = EX_DONE;
			snprintf(v->status, sizeof v->status, "\"%s\" on instance %ld: %zu line%s", v->cmd, v->id,
				 v->n, v->n == 1 ? "" : "s");
			model_event(a->m, EV_INFO, -1, 0, v->id, EVF_QUIET, "execute on instance %ld: %s (%zu lines)",
				    v->id, v->cmd, v->n);
		} else if (api_instance_logs_pending(&r.err) && ++v->tries < API_LOG_RESULT_TRIES) {
			v->next_at = util_mono() + API_LOG_RESULT_DELAY_S;
		} else {
			v->phase = EX_DONE;
			snprintf(v->status, sizeof v->status, "\"%s\" on instance %ld ran; its output could not be read: %s",
				 v->cmd, v->id, m[0] ? m : "no answer");
		}
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_BODY;
}

/* The rm confirmation's answer. */
static void confirm_answered(struct app *a, void *owner, enum dlg_result res)
{
	struct exec_view *v = owner;
	if (res == DLG_CANCEL) {
		app_dialog_cancelled(a);
		return;
	}
	if (res != DLG_SUBMIT)
		return;
	dialog_close(&a->dlg);
	send_exec(a, v);
}

/* `:exec ID CMD`. */
static void exec_args(struct app *a, enum action act, const char *args)
{
	(void)act;
	struct exec_view *v = the_view;
	char *end;
	long id = strtol(args, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (id <= 0 || end == args) {
		app_toast(a, ROLE_ERROR, 8, ":exec takes an instance id and a command: :exec ID ls -l /workspace");
		return;
	}
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_ERROR, 8, "instance %ld is not listed", id);
		return;
	}
	char err[200];
	if (!api_exec_check(end, err, sizeof err)) {
		app_toast(a, ROLE_ERROR, 10, ":exec: %s", err);
		return;
	}
	if (v->phase == EX_SENT || v->phase == EX_FETCH) {
		app_toast(a, ROLE_WARNING, 8, "\"%s\" on instance %ld is still running", v->cmd, v->id);
		return;
	}
	reset(a, v);
	v->id = id;
	util_strlcpy(v->cmd, end, sizeof v->cmd);
	if (!api_exec_removes(v->cmd)) {
		send_exec(a, v);
		return;
	}
	char text[800];
	snprintf(text, sizeof text,
		 "Run \"%s\" on instance %ld? It deletes files in the container; there is no undo.", v->cmd,
		 id);
	dialog_confirm(&a->dlg, 0, id, "Remove files", text, "Remove");
	app_dialog_own(a, confirm_answered, v);
}

static const struct action_def exec_def = {
	"exec", "run the service's limited command on an instance: :exec ID ls|du|rm ARGS (rm confirms); its output in a pager",
	NULL, AF_MUTATES, NULL, NULL,
};

void pane_exec_keys(struct keymap *km, int ctx)
{
	(void)km;
	enum action e = keymap_action_register(&exec_def);
	action_set_args(e, exec_args);
	keymap_action_allow(e, ctx);
}

struct exec_draw_ctx {
	const struct exec_view *v;
	const struct rect *r;
};

static void exec_line_draw(void *dctx, size_t k, bool sel, int y)
{
	(void)sel;
	const struct exec_draw_ctx *d = dctx;
	draw_fill(y, d->r->x, d->r->w, theme_attr(ROLE_NORMAL));
	if (k != LIST_NONE)
		draw_text(y, d->r->x + 1, d->r->w - 2, d->v->lines[k], theme_attr(ROLE_NORMAL));
}

static void exec_draw(struct app *a, void *st, const struct rect *r)
{
	(void)a;
	struct exec_view *v = st;
	char title[sizeof ((struct exec_view *)0)->status + 40];
	snprintf(title, sizeof title, " %s  (Esc or q returns)", v->status);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_TITLE));
	struct exec_draw_ctx d = { v, r };
	list_draw(&v->list, r->y + 1, r->h - 1, exec_line_draw, &d);
	if (v->phase == EX_DONE && !v->n && v->text && r->h > 1)
		draw_text(r->y + 1, r->x + 1, r->w - 2, "(no output)", theme_attr(ROLE_DIM));
}

static struct list *exec_list(struct app *a, void *st)
{
	(void)a;
	struct exec_view *v = st;
	return &v->list;
}

static void *exec_init(struct app *a)
{
	(void)a;
	struct exec_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &exec_list_ops, v, true);
	the_view = v;
	return v;
}

static void exec_fini(struct app *a, void *st)
{
	struct exec_view *v = st;
	reset(a, v);
	list_free(&v->list);
	if (the_view == v)
		the_view = NULL;
	free(v);
}

static void exec_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct exec_view *v = st;
	take(a, v);
	fetch(a, v);
	inst_ops_results(a); /* the recycles' ends (inst_ops.c has no view of its own) */
}

static double exec_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct exec_view *v = st;
	return v->phase == EX_FETCH && !v->req ? v->next_at : -1;
}

static void exec_wake(struct app *a, void *st)
{
	fetch(a, st);
}

static const void *exec_row(const struct app *a, const void *st)
{
	const struct exec_view *v = st;
	return a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
}

const struct view_ops view_exec = {
	.name = "exec-output",
	.title = "Exec",
	.heading = "Execute output",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.ctx_parent = "instances",
	.instance_rows = true,
	.init = exec_init,
	.fini = exec_fini,
	.on_snapshot = exec_snapshot,
	.next_wake = exec_next_wake,
	.on_wake = exec_wake,
	.draw = exec_draw,
	.list = exec_list,
	.selected_row = exec_row,
};
