/* pane_ports.c: the ports list of one instance (pane_ports.h): one row per
 * mapped port (rules/svc.h gives the address, the kind and the URL), the
 * Jupyter URL with its token masked until v, then the scp URL.  The token
 * never reaches argv, a log or a toast: o on the Jupyter row opens the URL
 * without it and copies the token, y copies the whole URL. */
#include "views/instances/pane_ports.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/errline.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "clip.h"
#include "draw.h"
#include "external.h"
#include "rules/secrets.h"
#include "rules/svc.h"
#include "state/model.h"
#include "theme.h"
#include "views/instances/inst_ssh.h"
#include "widgets/list.h"

#define PORTS_MAX 64

struct ports_view {
	long id;                 /* the instance shown */
	bool reveal;             /* the Jupyter token in clear */
	struct svc_port rows[PORTS_MAX];
	size_t n;
	struct list list;
};

bool pane_ports_opens(const char *browser, bool ssh_session)
{
	return !ssh_session && browser && browser[strspn(browser, " \t")];
}

int pane_ports_argv(const char *browser, const char *url, char *buf, size_t n, char **argv,
		    int max)
{
	util_strlcpy(buf, browser ? browser : "", n);
	int argc = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, " \t", &save); t && argc < max - 2; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc)
		return 0;
	argv[argc++] = (char *)url;
	argv[argc] = NULL;
	return argc;
}

static const struct instance *shown(const struct app *a, const struct ports_view *v)
{
	return a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
}

/* The rows of the instance shown, again (a sweep may have changed them). */
static void refresh_rows(struct app *a, struct ports_view *v)
{
	const struct instance *x = shown(a, v);
	v->n = x ? svc_ports(x, v->rows, PORTS_MAX) : 0;
	list_set_count(&v->list, v->n);
}

static void row_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct ports_view *v = ctx;
	const struct svc_port *p = &v->rows[i];
	snprintf(buf, n, "%s %d/%s %s", p->addr, p->container_port, p->proto, p->url);
}

static const struct list_ops ports_list_ops = { row_text, NULL, NULL, NULL };

static const char *kind_name(enum svc_kind k)
{
	switch (k) {
	case SVC_SSH: return "ssh";
	case SVC_JUPYTER: return "jupyter";
	case SVC_HTTP: return "http";
	case SVC_OTHER: return "-";
	}
	return "-";
}

/* The URL row p shows (Jupyter: with its token, masked unless reveal). */
static void shown_url(const struct instance *x, const struct svc_port *p, bool reveal, char *buf,
		      size_t n)
{
	if (p->kind != SVC_JUPYTER || !svc_jupyter_url(x, reveal, buf, n))
		util_strlcpy(buf, p->url, n);
}

struct ports_draw_ctx {
	struct app *a;
	const struct ports_view *v;
	const struct instance *x;
	const struct rect *r;
};

static void ports_line_draw(void *dctx, size_t k, bool sel, int y)
{
	const struct ports_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	unsigned long attr = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
	draw_fill(y, r->x, r->w, attr);
	if (k == LIST_NONE)
		return;
	const struct svc_port *p = &d->v->rows[k];
	char url[200], map[140], line[400];
	shown_url(d->x, p, d->v->reveal, url, sizeof url);
	snprintf(map, sizeof map, "%s -> %d/%s", p->addr, p->container_port, p->proto);
	snprintf(line, sizeof line, "%-34s %-8s %s", map, kind_name(p->kind),
		 url[0] ? url : p->kind == SVC_SSH ? "(x connects)" : "(no URL)");
	draw_text(y, r->x + 1, r->w - 2, line, attr);
}

static void ports_draw(struct app *a, void *st, const struct rect *r)
{
	struct ports_view *v = st;
	refresh_rows(a, v);
	const struct instance *x = shown(a, v);
	char title[200];
	snprintf(title, sizeof title,
		 " Ports of instance %ld  (o opens, y copies, v shows the token; Esc or q returns)", v->id);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_TITLE));
	if (!x) {
		char gone[120];
		snprintf(gone, sizeof gone, "instance %ld is no longer listed (destroyed?)", v->id);
		if (r->h > 1)
			draw_text(r->y + 1, r->x + 1, r->w - 1, gone, theme_attr(ROLE_WARNING));
		return;
	}
	int foot = r->h > 6 ? 2 : 0;
	struct ports_draw_ctx d = { a, v, x, r };
	list_draw(&v->list, r->y + 1, r->h - 1 - foot, ports_line_draw, &d);
	if (!v->n && r->h > 1)
		draw_text(r->y + 1, r->x + 1, r->w - 1,
			  "no ports mapped (an instance maps its ports while it runs)",
			  theme_attr(ROLE_DIM));
	if (foot) {
		char scp[300], line[340];
		if (svc_scp_url(x, scp, sizeof scp))
			snprintf(line, sizeof line, "scp: %s", scp);
		else
			snprintf(line, sizeof line, "scp: no SSH address yet");
		draw_fill(r->y + r->h - 2, r->x, r->w, theme_attr(ROLE_NORMAL));
		draw_text(r->y + r->h - 1, r->x + 1, r->w - 1, line, theme_attr(ROLE_DIM));
	}
}

/* Copy text (OSC 52) and say so with shown (masked) in the toast. */
static void copy_said(struct app *a, const char *text, const char *what, const char *shown_text)
{
	app_copy(text);
	app_toast(a, ROLE_OK, 12, "copied %s with the terminal clipboard sequence (OSC 52): %s%s", what,
		  shown_text, clip_advice_here());
}

static enum action act_open = ACT_NONE, act_copy = ACT_NONE, act_reveal = ACT_NONE,
		   act_forward = ACT_NONE;

/* The selected port row, or a toast saying why there is none. */
static const struct svc_port *chosen(struct app *a, struct ports_view *v,
				     const struct instance **xp)
{
	refresh_rows(a, v);
	const struct instance *x = shown(a, v);
	size_t k = list_selected(&v->list);
	if (!x || k == LIST_NONE || k >= v->n) {
		app_toast(a, ROLE_WARNING, 6, "no port chosen");
		return NULL;
	}
	const struct svc_port *p = &v->rows[k];
	if (p->kind == SVC_SSH) {
		app_toast(a, ROLE_WARNING, 8, "%d/tcp is SSH: x connects, y copies the ssh command",
			  p->container_port);
		return NULL;
	}
	if (!p->url[0]) {
		app_toast(a, ROLE_WARNING, 8, "%d/%s has no URL (only TCP ports serve HTTP)",
			  p->container_port, p->proto);
		return NULL;
	}
	*xp = x;
	return p;
}

static void open_port(struct app *a, struct ports_view *v)
{
	const struct instance *x = NULL;
	const struct svc_port *p = chosen(a, v, &x);
	if (!p)
		return;
	char full[200], masked[200];
	shown_url(x, p, true, full, sizeof full);
	shown_url(x, p, false, masked, sizeof masked);
	const char *browser = getenv("BROWSER");
	bool ssh = getenv("SSH_CONNECTION") && *getenv("SSH_CONNECTION");
	if (!pane_ports_opens(browser, ssh)) {
		copy_said(a, full, ssh ? "the URL (over SSH: no browser here)" : "the URL (no $BROWSER set)",
			  masked);
		explicit_bzero(full, sizeof full);
		return;
	}
	/* the token stays out of argv: the browser gets the bare URL */
	char buf[512], *argv[24], why[ERRLINE_MAX + 1];
	if (!pane_ports_argv(browser, p->url, buf, sizeof buf, argv, 24)) {
		explicit_bzero(full, sizeof full);
		return;
	}
	int st = external_run_err(argv, NULL, why, sizeof why);
	a->dirty |= DIRTY_ALL;
	bool tok = p->kind == SVC_JUPYTER && x->jupyter_token && x->jupyter_token[0];
	if (st != 0)
		app_toast(a, ROLE_WARNING, 12, "%s %s ended with status %d%s%s", argv[0], p->url, st,
			  why[0] ? ": " : "", why);
	else if (tok) {
		app_copy(x->jupyter_token);
		app_toast(a, ROLE_OK, 12, "opened %s in %s; its Jupyter token is copied (OSC 52): paste it "
			  "at the login%s", p->url, argv[0], clip_advice_here());
	} else
		app_toast(a, ROLE_OK, 8, "opened %s in %s", p->url, argv[0]);
	explicit_bzero(full, sizeof full);
}

static bool ports_action(struct app *a, void *st, enum action act)
{
	struct ports_view *v = st;
	if (act == ACT_NONE)
		return false;
	if (act == act_open) {
		open_port(a, v);
	} else if (act == act_copy) {
		const struct instance *x = NULL;
		const struct svc_port *p = chosen(a, v, &x);
		if (!p)
			return true;
		char full[200], masked[200];
		shown_url(x, p, true, full, sizeof full);
		shown_url(x, p, false, masked, sizeof masked);
		copy_said(a, full, "the URL", masked);
		explicit_bzero(full, sizeof full);
	} else if (act == act_forward) {
		refresh_rows(a, v);
		size_t k = list_selected(&v->list);
		if (k != LIST_NONE && k < v->n && v->rows[k].kind == SVC_SSH) {
			inst_ssh_route(a, v->id, SSH_ASK, true); /* the ssh row: ssh as x does */
			return true;
		}
		const struct instance *x = NULL;
		const struct svc_port *p = chosen(a, v, &x);
		if (p)
			inst_ssh_forward(a, v->id, p->container_port, true);
	} else if (act == act_reveal) {
		const struct instance *x = shown(a, v);
		if (!x || svc_jupyter_port(x) == 0 || !x->jupyter_token || !x->jupyter_token[0]) {
			app_toast(a, ROLE_DIM, 4, "instance %ld runs no Jupyter with a token", v->id);
			return true;
		}
		v->reveal = !v->reveal;
	} else {
		return false;
	}
	a->dirty |= DIRTY_BODY;
	return true;
}

static const struct action_row ports_rows[] = {
	{ { .name = "open-url",
	    .help = "open the port's URL in $BROWSER (over SSH or without $BROWSER: copy it; Jupyter: the token is copied, never passed)",
	    .hint = "open", .flags = AF_HINT },
	  "o Enter", NULL, &act_open },
	{ { .name = "copy-url", .help = "copy the port's URL (Jupyter: with its token) with OSC 52",
	    .hint = "copy", .flags = AF_HINT },
	  "y", NULL, &act_copy },
	{ { .name = "ssh-forward",
	    .help = "ssh to the instance forwarding the chosen port to the same local port (-L P:localhost:P)",
	    .hint = "ssh -L", .flags = AF_HINT },
	  "x", NULL, &act_forward },
	{ { .name = "reveal-token", .help = "show or hide the Jupyter token",
	    .hint = "token", .flags = AF_HINT },
	  "v", NULL, &act_reveal },
};

static void run_list_ports(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	if (x)
		view_open(a, "ports", x->id);
}

static const struct action_def list_ports_def = {
	"list-ports", "the instance's ports, their URLs and the Jupyter URL (o opens, y copies)",
	"ports", AF_NEEDS_SEL, NULL, run_list_ports,
};

/* Copy the scp (or rsync) command of instance id and say its scp URL. */
static void copy_scp(struct app *a, long id, bool rsync)
{
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is not listed", id);
		return;
	}
	char url[300], cmd[400];
	if (!svc_scp_url(x, url, sizeof url) ||
	    !svc_copy_command(x, a->cfg->ssh_route, rsync, cmd, sizeof cmd)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no SSH address yet", id);
		return;
	}
	app_copy(cmd);
	app_toast(a, ROLE_OK, 15, "%s; copied (OSC 52): %s%s", url, cmd, clip_advice_here());
}

static void run_scp(struct app *a, enum action act)
{
	const struct instance *x = app_selected(a);
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, ":%s needs an instance: :%s ID", keymap_action_name(act),
			  keymap_action_name(act));
		return;
	}
	copy_scp(a, x->id, !strcmp(keymap_action_name(act), "rsync"));
}

/* `:scp [ID]`, `:rsync [ID]`. */
static void scp_args(struct app *a, enum action act, const char *args)
{
	if (!*args) {
		run_scp(a, act);
		return;
	}
	char *end;
	long id = strtol(args, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (id <= 0 || *end) {
		app_toast(a, ROLE_ERROR, 8, ":%s takes an instance id, not \"%.40s\"",
			  keymap_action_name(act), args);
		return;
	}
	copy_scp(a, id, !strcmp(keymap_action_name(act), "rsync"));
}

static const struct action_def scp_def = {
	"scp", "copy the scp command of /workspace over the instance's SSH route and show its scp:// URL (as the CLI's scp-url); :scp ID",
	NULL, 0, NULL, run_scp,
};
static const struct action_def rsync_def = {
	"rsync", "copy the rsync command of /workspace over the instance's SSH route; :rsync ID",
	NULL, 0, NULL, run_scp,
};

void pane_ports_keys(struct keymap *km, int ctx)
{
	enum action d = keymap_action_register(&list_ports_def);
	keymap_action_allow(d, ctx);
	keymap_default(km, ctx, "P", d);
	enum action sc = keymap_action_register(&scp_def), rs = keymap_action_register(&rsync_def);
	action_set_args(sc, scp_args);
	action_set_args(rs, scp_args);
	keymap_action_allow(sc, ctx);
	keymap_action_allow(rs, ctx);
	keymap_default(km, ctx, "Y", sc);
}

static struct list *ports_list(struct app *a, void *st)
{
	(void)a;
	struct ports_view *v = st;
	return &v->list;
}

static void *ports_init(struct app *a)
{
	(void)a;
	struct ports_view *v = xcalloc(1, sizeof *v);
	list_init(&v->list, &ports_list_ops, v, false);
	return v;
}

static void ports_fini(struct app *a, void *st)
{
	(void)a;
	struct ports_view *v = st;
	list_free(&v->list);
	free(v);
}

static void ports_enter(struct app *a, void *st, long id)
{
	struct ports_view *v = st;
	v->id = id;
	v->reveal = false;
	list_set_filter(&v->list, "");
	refresh_rows(a, v);
	list_select(&v->list, 0);
}

static void ports_leave(struct app *a, void *st)
{
	(void)a;
	struct ports_view *v = st;
	v->reveal = false; /* the token is masked again next time */
}

static void ports_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	const struct view *cur = view_current(a);
	if (cur && cur->st == st)
		a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

static const void *ports_row(const struct app *a, const void *st)
{
	return shown(a, st);
}

const struct view_ops view_ports = {
	.name = "ports",
	.title = "Ports",
	.heading = "Instance ports",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.ctx_parent = "instances",
	.instance_rows = true,
	.actions = ports_rows,
	.nactions = sizeof ports_rows / sizeof ports_rows[0],
	.init = ports_init,
	.fini = ports_fini,
	.enter = ports_enter,
	.leave = ports_leave,
	.on_snapshot = ports_snapshot,
	.draw = ports_draw,
	.action = ports_action,
	.list = ports_list,
	.selected_row = ports_row,
};
