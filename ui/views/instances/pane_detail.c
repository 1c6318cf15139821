/* pane_detail.c: every field of one instance (instance.fields as received)
 * after the derived lines an operator looks for first: status and its
 * message, SSH commands, ports, template, an estimate of the cost so far and
 * the prepaid credit; above them, the last hour's charts (detail_hist.c).
 * Scrolls; Esc or q returns to the table; instance keys act on the
 * instance shown. */
#include "views/instances/pane_detail.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "views/instances/inst_actions.h"
#include "views/instances/detail_hist.h"
#include "views/offers/pane_offers.h"
#include "views/account/pane_account.h"
#include "draw.h"
#include "widgets/list.h"
#include "state/model.h"
#include "state/money.h"
#include "rules/secrets.h"
#include "rules/svc.h"
#include "theme.h"
#include "base/util.h"

static size_t add(struct detail_line *out, size_t n, size_t max, const char *k, int role,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static size_t add(struct detail_line *out, size_t n, size_t max, const char *k, int role,
		  const char *fmt, ...)
{
	if (n >= max)
		return n;
	util_strlcpy(out[n].key, k, sizeof out[n].key);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out[n].value, sizeof out[n].value, fmt, ap);
	va_end(ap);
	out[n].role = role;
	return n + 1;
}

/* True when key ends with suffix. */
static bool ends_with(const char *key, const char *suffix)
{
	size_t k = strlen(key), s = strlen(suffix);
	return k >= s && !strcmp(key + k - s, suffix);
}

char *pane_detail_field_value(const char *key, const char *raw, double now, char *out, size_t n)
{
	char *end;
	double v = strtod(raw, &end);
	bool num = end != raw && *end == '\0' && isfinite(v);
	char b[64];
	if (num && (ends_with(key, "_date") || ends_with(key, "_time")) && v >= 1e8 && v < 1e11) {
		/* an epoch (a duration such as host_run_time stays under 1e8 s) */
		time_t t = (time_t)v;
		struct tm tm;
		char when[32];
		if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm)) {
			util_strlcpy(out, raw, n);
			return out;
		}
		if (v <= now)
			snprintf(out, n, "%s (%s ago)", when, fmt_duration(b, sizeof b, now - v));
		else
			snprintf(out, n, "%s (in %s)", when, fmt_duration(b, sizeof b, v - now));
	} else if (num && !strcmp(key, "disk_space")) {
		snprintf(out, n, "%.1f GB", v);
	} else if (num && (!strcmp(key, "gpu_ram") || !strcmp(key, "cpu_ram"))) {
		snprintf(out, n, "%s", fmt_mb(b, sizeof b, v));
	} else if (num && (!strcmp(key, "inet_up") || !strcmp(key, "inet_down"))) {
		snprintf(out, n, "%.1f Mb/s", v);
	} else if (num && !strcmp(key, "disk_bw")) {
		snprintf(out, n, "%.1f MB/s", v);
	} else if (num && (!strcmp(key, "dph") || !strncmp(key, "dph_", 4))) {
		snprintf(out, n, "%s", fmt_rate(b, sizeof b, v));
	} else {
		util_strlcpy(out, raw, n);
	}
	return out;
}

size_t pane_detail_lines(const struct instance *x, double now, struct detail_line *out, size_t max)
{
	return pane_detail_lines_reveal(x, now, -1, out, max);
}

size_t pane_detail_lines_reveal(const struct instance *x, double now, int reveal,
				struct detail_line *out, size_t max)
{
	size_t n = 0;
	char b1[64], b2[64];
	n = add(out, n, max, "instance", ROLE_TITLE, "%ld%s%s%s", x->id, x->label[0] ? " (" : "",
		x->label, x->label[0] ? ")" : "");
	n = add(out, n, max, "status", instance_state_failed(x->state) ? ROLE_FAILED : ROLE_NORMAL,
		"%s (actual %s, intended %s), %s", instance_state_name(x->state),
		x->actual_status[0] ? x->actual_status : "null",
		x->intended_status[0] ? x->intended_status : "-",
		x->is_bid ? "interruptible" : "on-demand");
	if (instance_was_outbid(x))
		n = add(out, n, max, "", ROLE_WARNING,
			"outbid: a higher bid (%s) took its machine; its disk is kept and b bids above "
			"it to start it again",
			isfinite(x->min_bid) ? fmt_rate(b1, sizeof b1, x->min_bid) : "price not sent");
	if (instance_state_failed(x->state))
		n = add(out, n, max, "", ROLE_FAILED, "%s",
			"this instance has failed: it will not reach running; destroy it (D) and rent another offer");
	n = add(out, n, max, "status_msg", ROLE_NORMAL, "%s", x->status_msg[0] ? x->status_msg : "-");
	if (x->public_ip[0] && x->direct_ssh_port > 0)
		n = add(out, n, max, "ssh (direct)", ROLE_OK, "ssh -p %d root@%s", x->direct_ssh_port,
			x->public_ip);
	if (x->ssh_host[0] && x->ssh_port > 0)
		n = add(out, n, max, "ssh (proxy)", ROLE_OK, "ssh -p %d root@%s", x->ssh_port, x->ssh_host);
	char host[256];
	int port;
	if (!instance_ssh_target(x, host, sizeof host, &port))
		n = add(out, n, max, "ssh", ROLE_DIM, "no address yet");
	struct svc_port sp[64];
	size_t np = svc_ports(x, sp, sizeof sp / sizeof *sp);
	for (size_t i = 0; i < np; i++) {
		char ju[200] = "";
		if (sp[i].kind == SVC_JUPYTER)
			svc_jupyter_url(x, false, ju, sizeof ju);
		n = add(out, n, max, i ? "" : "ports", ROLE_NORMAL, "%s -> %d/%s%s%s%s", sp[i].addr,
			sp[i].container_port, sp[i].proto,
			sp[i].kind == SVC_SSH ? "  ssh" : sp[i].url[0] ? "  " : "",
			ju[0] ? ju : sp[i].url, sp[i].kind == SVC_JUPYTER ? "  (Jupyter)" : "");
	}
	if (np)
		n = add(out, n, max, "", ROLE_DIM, "%s",
			"P lists the ports: o opens a URL, y copies it, v shows the Jupyter token");
	else
		n = add(out, n, max, "ports", ROLE_DIM, "none mapped");
	if (x->template_name[0] || x->template_hash_id[0] || x->template_id > 0)
		n = add(out, n, max, "template", ROLE_NORMAL, "%s (hash %s, id %ld)",
			x->template_name[0] ? x->template_name : "-",
			x->template_hash_id[0] ? x->template_hash_id : "-", x->template_id);
	else
		n = add(out, n, max, "template", ROLE_DIM, "none");
	char util[16] = "-", temp[16] = "-", b3[64];
	if (isfinite(x->gpu_util))
		snprintf(util, sizeof util, "%.0f%%", x->gpu_util);
	if (isfinite(x->gpu_temp))
		snprintf(temp, sizeof temp, "%.0fC", x->gpu_temp);
	n = add(out, n, max, "gpus", ROLE_NORMAL, "%dx %s, %s each, util %s, temp %s", x->num_gpus,
		x->gpu_name[0] ? x->gpu_name : "-", fmt_mb(b1, sizeof b1, x->gpu_ram), util, temp);
	n = add(out, n, max, "price", ROLE_NORMAL, "%s total (GPU %s, storage %s), %s",
		fmt_rate(b1, sizeof b1, x->dph_total), fmt_rate(b2, sizeof b2, x->dph_base),
		fmt_rate(b3, sizeof b3, x->storage_total_cost),
		x->is_bid ? "interruptible" : "on-demand");
	char pi[200];
	if (pane_account_price_text(x->id, pi, sizeof pi))
		n = add(out, n, max, "price increase", ROLE_WARNING, "%s (^ or :prices accept|reject)", pi);
	if (x->is_bid)
		n = add(out, n, max, "bid", ROLE_NORMAL, "%s (min %s)",
			fmt_rate(b1, sizeof b1, x->bid_price), fmt_rate(b2, sizeof b2, x->min_bid));
	struct cost_estimate ce; /* money.h: storage for the whole age, GPU for what is known */
	char b4[32], b5[32];
	money_cost_so_far(x, now, &ce);
	switch (ce.kind) {
	case COST_EXACT:
		n = add(out, n, max, "cost so far", ROLE_NORMAL,
			"~%s (storage %s over %s, GPU for this run of %s)",
			fmt_money(b1, sizeof b1, ce.lo), fmt_money(b2, sizeof b2, ce.storage),
			fmt_duration(b3, sizeof b3, ce.age_s), fmt_duration(b4, sizeof b4, ce.gpu_known_s));
		break;
	case COST_RANGE:
		n = add(out, n, max, "cost so far", ROLE_NORMAL,
			"%s to %s (upper bound: GPU billed for the whole %s; known: storage %s, GPU %s of this run)",
			fmt_money(b1, sizeof b1, ce.lo), fmt_money(b2, sizeof b2, ce.hi),
			fmt_duration(b3, sizeof b3, ce.age_s), fmt_money(b5, sizeof b5, ce.storage),
			ce.gpu_known_s > 0 ? fmt_duration(b4, sizeof b4, ce.gpu_known_s) : "none");
		break;
	case COST_UNKNOWN:
		n = add(out, n, max, "cost so far", ROLE_DIM, "unknown (no start date or price)");
		break;
	}
	n = add(out, n, max, "prepaid credit", ROLE_NORMAL, "%s",
		isfinite(x->credit_balance) ? fmt_money(b1, sizeof b1, x->credit_balance) : "-");
	n = add(out, n, max, "age", ROLE_NORMAL, "%s", fmt_age(b1, sizeof b1, now, x->start_date));
	/* env values are secrets (HF_TOKEN, WANDB_API_KEY): masked, one at a time in clear */
	for (size_t i = 0; i < x->nenv; i++)
		n = add(out, n, max, i ? "" : "env", (int)i == reveal ? ROLE_WARNING : ROLE_NORMAL,
			"%s=%s", x->env[i].key, (int)i == reveal ? x->env[i].value : SECRETS_MASK);
	if (x->nenv)
		n = add(out, n, max, "", ROLE_DIM, "%s",
			reveal >= 0 && reveal < (int)x->nenv ? "v: the next value (one in clear at a time)"
							      : "values hidden: v shows one at a time");
	n = add(out, n, max, "", ROLE_NORMAL, "%s", "");
	n = add(out, n, max, "all fields", ROLE_TITLE, "(as received, env values masked)");
	for (size_t i = 0; i < x->nfields; i++) {
		char v[512];
		pane_detail_field_value(x->fields[i].key, x->fields[i].value, now, v, sizeof v);
		n = add(out, n, max, x->fields[i].key, ROLE_NORMAL, "%s", v);
	}
	return n;
}

#define DETAIL_MAX 400

/* The view's private state. */
struct detail_view {
	long id;    /* the instance shown */
	int reveal; /* the env value shown in clear, -1: all masked */
	struct detail_line *lines; /* DETAIL_MAX, built again when drawn */
	size_t n;
	struct list list; /* a pager over lines */
};

static void detail_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct detail_view *v = ctx;
	snprintf(buf, n, "%s %s", v->lines[i].key, v->lines[i].value);
}

static const struct list_ops detail_list_ops = { detail_text, NULL, NULL, NULL };

static enum action reveal_act = ACT_NONE; /* "reveal-env" (detail_rows) */

/* The detail's own action table: v shows the env values in clear one at
 * a time. */
static const struct action_row detail_rows[] = {
	{ { .name = "reveal-env",
	    .help = "show the next env value in clear (one at a time; after the last, all masked again)",
	    .hint = "reveal env", .flags = AF_HINT },
	  "v", NULL, &reveal_act },
};

/* The instance keys (shared with the table; their table is inst_actions.c's). */
static void detail_keys(struct keymap *km, int ctx)
{
	inst_actions_keys(km, ctx);
	pane_offers_replace_keys(km, ctx);
	pane_account_inst_keys(km, ctx);
}

struct detail_draw_ctx {
	const struct detail_view *v;
	const struct rect *r;
	int kw;
};

static void detail_line_draw(void *dctx, size_t k, bool sel, int y)
{
	(void)sel;
	const struct detail_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	draw_fill(y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (k == LIST_NONE)
		return;
	const struct detail_line *l = &d->v->lines[k];
	draw_text(y, r->x + 1, d->kw, l->key, theme_attr(ROLE_COLHEAD) & ~A_UNDERLINE);
	draw_text(y, r->x + 2 + d->kw, r->w - 3 - d->kw, l->value, theme_attr((enum role)l->role));
}

static void detail_draw(struct app *a, void *st, const struct rect *r)
{
	struct detail_view *v = st;
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
	const char *f = list_filter(&v->list);
	char title[300];
	snprintf(title, sizeof title, " Instance %ld  (Esc or q returns; Up/Down scroll)%s%s", v->id,
		 f[0] ? "  matching: " : "", f);
	draw_cell(r->y, r->x, r->w, title, false, theme_attr(ROLE_TITLE));
	v->n = x ? pane_detail_lines_reveal(x, util_now(), v->reveal, v->lines, DETAIL_MAX) : 0;
	list_set_count(&v->list, v->n);
	/* the name column fits the longest name (cpu_cores_effective whole),
	 * leaving at least half the width to the values */
	int kw = 12;
	for (size_t k = 0; k < v->n; k++) {
		int w = (int)strlen(v->lines[k].key);
		if (w > kw)
			kw = w;
	}
	if (kw > r->w / 2)
		kw = r->w / 2;
	struct detail_draw_ctx d = { v, r, kw };
	/* the last hour's charts on top when the pane is tall enough (detail_hist.c) */
	int ch = x && r->h - 1 >= DETAIL_HIST_H + 6 ? detail_hist_draw(a, v->id, r->y + 1, r->x, r->w,
								       r->h - 1)
						: 0;
	list_draw(&v->list, r->y + 1 + ch, r->h - 1 - ch, detail_line_draw, &d);
	if (!x && r->h > 1) {
		char gone[120];
		snprintf(gone, sizeof gone, "instance %ld is no longer listed (destroyed?)", v->id);
		draw_text(r->y + 1, r->x + 1, r->w - 1, gone, theme_attr(ROLE_WARNING));
	}
}

static bool detail_action(struct app *a, void *st, enum action act)
{
	struct detail_view *v = st;
	if (act != reveal_act || act == ACT_NONE)
		return false; /* the moves are the list's; another action's run handles it */
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
	int nenv = x ? (int)x->nenv : 0;
	v->reveal = v->reveal + 1 < nenv ? v->reveal + 1 : -1;
	if (!nenv)
		app_toast(a, ROLE_DIM, 3, "this instance has no env values");
	a->dirty |= DIRTY_BODY;
	return true;
}

static struct list *detail_list(struct app *a, void *st)
{
	(void)a;
	struct detail_view *v = st;
	return &v->list;
}

static void *detail_init(struct app *a)
{
	(void)a;
	struct detail_view *v = xcalloc(1, sizeof *v);
	v->lines = xcalloc(DETAIL_MAX, sizeof *v->lines);
	list_init(&v->list, &detail_list_ops, v, true);
	return v;
}

static void detail_fini(struct app *a, void *st)
{
	(void)a;
	struct detail_view *v = st;
	list_free(&v->list);
	free(v->lines);
	free(v);
}

static void detail_enter(struct app *a, void *st, long id)
{
	(void)a;
	struct detail_view *v = st;
	v->id = id;
	v->reveal = -1;
	list_set_filter(&v->list, ""); /* the top, unfiltered */
}

static void detail_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	/* only when shown: behind another view (the offers) a sweep's every
	 * page would redraw that view's body */
	const struct view *cur = view_current(a);
	if (cur && cur->st == st)
		a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

static void detail_clock(struct app *a, void *st)
{
	(void)st;
	a->dirty |= DIRTY_BODY;
}

static const void *detail_row(const struct app *a, const void *st)
{
	const struct detail_view *v = st;
	return a->snap ? model_snapshot_find(a->snap, v->id) : NULL;
}

const struct view_ops view_detail = {
	.name = "detail",
	.title = "Detail",
	.heading = "Instance detail",
	.number_key = 0, /* an overlay */
	.ctx_flags = CTXF_LIST,
	.ctx_parent = "instances", /* `bind instances ...` reaches it too */
	.instance_rows = true,
	.actions = detail_rows,
	.nactions = sizeof detail_rows / sizeof detail_rows[0],
	.keys = detail_keys,
	.init = detail_init,
	.fini = detail_fini,
	.enter = detail_enter,
	.on_snapshot = detail_snapshot,
	.on_clock = detail_clock,
	.draw = detail_draw,
	.action = detail_action,
	.list = detail_list,
	.selected_row = detail_row,
};
