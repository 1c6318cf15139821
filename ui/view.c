/* view.c: the list of views (VIEWS: their Tab order), their registration
 * (key context, actions, the view-NAME action on the number key, private
 * state), the current view and the one overlay (detail or help) shown over
 * it. */
#include "view.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "app_state.h"
#include "widgets/list.h"

/* Every view, in Tab order; overlays anywhere.  One line per view. */
#define VIEWS(X) \
	X(instances) \
	X(events) \
	X(offers) \
	X(serverless) \
	X(workergroup) \
	X(workers) \
	X(account) \
	X(tfa) \
	X(templates) \
	X(logs) \
	X(volumes) \
	X(detail) \
	X(ports) \
	X(exec) \
	X(tplupd) \
	X(transfers) \
	X(inst_keys) \
	X(help)

#define DECL(n) extern const struct view_ops view_##n;
VIEWS(DECL)
#undef DECL
#define REF(n) &view_##n,
static const struct view_ops *const registry[] = { VIEWS(REF) };
#undef REF
#define NREG (sizeof registry / sizeof registry[0])

/* The run of every view-NAME action: show that view. */
static void run_show(struct app *a, enum action act)
{
	for (int i = 0; i < a->nviews; i++)
		if (a->views[i].show == act)
			view_show(a, i, 0);
}

/* view-NAME's def (its strings live as long as the program). */
static enum action show_action(const struct view_ops *ops)
{
	static char names[VIEW_MAX][40], helps[VIEW_MAX][80];
	static int n;
	char name[40];
	snprintf(name, sizeof name, "view-%s", ops->name);
	enum action have = keymap_action_by_name(name);
	if (have != ACT_NONE || n >= VIEW_MAX)
		return have;
	snprintf(names[n], sizeof names[n], "%s", name);
	snprintf(helps[n], sizeof helps[n], "%s view", ops->title);
	struct action_def d = { .name = names[n], .help = helps[n], .flags = AF_GLOBAL,
				.run = run_show };
	n++;
	return keymap_action_register(&d);
}

int view_keys(struct keymap *km, const struct view_ops *ops)
{
	int parent = ops->ctx_parent ? keymap_ctx_by_name(ops->ctx_parent) : -1;
	unsigned flags = ops->ctx_flags | (ops->list ? CTXF_FILTER : 0u);
	int ctx = keymap_ctx_register(ops->name, ops->heading, flags, parent);
	if (ctx < 0)
		return CTX_GLOBAL;
	keymap_ctx_defaults(km, ctx);
	if (ops->keys)
		ops->keys(km, ctx);
	keymap_action_table(km, ctx, ops->actions, ops->nactions);
	if (ops->number_key) {
		enum action show = show_action(ops);
		if (show != ACT_NONE)
			keymap_bind(km, CTX_GLOBAL, ops->number_key, show);
	}
	return ctx;
}

void view_keys_all(struct keymap *km)
{
	for (size_t i = 0; i < NREG; i++)
		view_keys(km, registry[i]);
}

const struct view_ops *view_ops_at(size_t i)
{
	return i < NREG ? registry[i] : NULL;
}

bool view_send_action(struct app *a, enum action act)
{
	const struct action_def *d = keymap_action_get(act);
	if (!d)
		return false;
	char why[300];
	const char *no = keymap_action_refusal(act, view_row(a), a->read_only, why, sizeof why);
	if (no) {
		app_toast(a, (d->flags & AF_MUTATES) && a->read_only ? ROLE_ERROR : ROLE_WARNING, 8,
			  "%s", no);
		return true;
	}
	if (d->run) {
		d->run(a, act);
		return true;
	}
	struct view *v = view_current(a);
	return v && v->ops->action && v->ops->action(a, v->st, act);
}

void view_init_all(struct app *a)
{
	a->overlay = -1;
	a->overlay_back = 0;
	for (size_t i = 0; i < NREG && a->nviews < VIEW_MAX; i++) {
		struct view *v = &a->views[a->nviews++];
		v->ops = registry[i];
		v->ctx = view_keys(&a->km, v->ops);
		v->show = v->ops->number_key ? show_action(v->ops) : ACT_NONE;
		v->wake_at = -1;
		v->st = v->ops->init ? v->ops->init(a) : NULL;
	}
	/* the first Tab view is the one shown at start */
	for (int i = 0; i < a->nviews; i++)
		if (a->views[i].ops->number_key) {
			a->view = i;
			break;
		}
}

void view_fini_all(struct app *a)
{
	for (int i = 0; i < a->nviews; i++)
		if (a->views[i].ops->fini)
			a->views[i].ops->fini(a, a->views[i].st);
	a->nviews = 0;
}

struct view *view_current(const struct app *a)
{
	struct app *m = (struct app *)a; /* the views are the app's to hand out */
	if (a->overlay >= 0)
		return &m->views[a->overlay];
	return a->nviews ? &m->views[a->view] : NULL;
}

int view_key_ctx(const struct app *a, const struct view *v)
{
	if (!v)
		return CTX_GLOBAL;
	int c = v->ops->key_ctx ? v->ops->key_ctx(a, v->st) : -1;
	return c > 0 ? c : v->ctx;
}

const void *view_row(const struct app *a)
{
	const struct view *v = view_current(a);
	return v && v->ops->selected_row ? v->ops->selected_row(a, v->st) : NULL;
}

int view_find(const struct app *a, const char *name)
{
	for (int i = 0; i < a->nviews; i++) {
		const struct view_ops *o = a->views[i].ops;
		if (strcasecmp(o->name, name) == 0 || (o->alias && strcasecmp(o->alias, name) == 0))
			return i;
	}
	return -1;
}

int view_find_word(const struct app *a, const char *word)
{
	for (int i = 0; i < a->nviews; i++)
		for (const char *const *w = a->views[i].ops->words; w && *w; w++)
			if (strcasecmp(*w, word) == 0)
				return a->views[i].ops->command ? i : -1;
	return -1;
}

bool view_is(const struct app *a, const struct view *v, const char *name)
{
	(void)a;
	return v && strcmp(v->ops->name, name) == 0;
}

void view_close_overlay(struct app *a)
{
	int back = a->overlay_back - 1;
	a->overlay_back = 0;
	if (a->overlay < 0)
		return;
	struct view *v = &a->views[a->overlay];
	if (v->ops->leave)
		v->ops->leave(a, v->st);
	a->overlay = -1;
	a->dirty |= DIRTY_ALL;
	if (back >= 0 && back < a->nviews && back != (int)(v - a->views)) { /* where it was opened from */
		struct view *b = &a->views[back];
		a->overlay = back;
		if (b->ops->enter)
			b->ops->enter(a, b->st, a->overlay_back_arg);
	}
}

void view_show(struct app *a, int idx, long arg)
{
	if (idx < 0 || idx >= a->nviews)
		return;
	a->overlay_back = 0; /* shown otherwise: nothing to go back to */
	struct view *v = &a->views[idx];
	if (!v->ops->number_key) { /* an overlay over the current view */
		if (a->overlay >= 0 && a->overlay != idx)
			view_close_overlay(a);
		a->overlay = idx;
		if (v->ops->enter)
			v->ops->enter(a, v->st, arg);
		a->dirty |= DIRTY_ALL;
		return;
	}
	view_close_overlay(a);
	if (idx != a->view) {
		struct view *old = &a->views[a->view];
		if (old->ops->leave)
			old->ops->leave(a, old->st);
		a->view = idx;
		if (v->ops->enter)
			v->ops->enter(a, v->st, arg);
	}
	a->dirty |= DIRTY_ALL;
}

void view_open(struct app *a, const char *name, long arg) { view_show(a, view_find(a, name), arg); }

void view_open_from(struct app *a, const char *name, long arg, long back_arg)
{
	int back = a->overlay;
	view_open(a, name, arg);
	if (back >= 0 && a->overlay >= 0 && a->overlay != back) {
		a->overlay_back = back + 1;
		a->overlay_back_arg = back_arg;
	}
}

void view_next(struct app *a)
{
	for (int k = 1; k <= a->nviews; k++) {
		int i = (a->view + k) % a->nviews;
		if (a->views[i].ops->number_key) {
			view_show(a, i, 0);
			return;
		}
	}
}

struct list *view_list(struct app *a, const struct view *v)
{
	return v && v->ops->list ? v->ops->list(a, v->st) : NULL;
}

bool view_can_filter(struct app *a, const struct view *v)
{
	return view_list(a, v) != NULL;
}

const char *view_filter_text(struct app *a, const struct view *v)
{
	struct list *l = view_list(a, v);
	return l ? list_filter(l) : "";
}

void view_filter_set(struct app *a, const struct view *v, const char *text)
{
	struct list *l = view_list(a, v);
	if (l)
		list_set_filter(l, text);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS | DIRTY_HEADER; /* a tab's count: "3/12" */
}

void view_search_prompt(struct app *a, const char *text,
			void (*run)(struct app *a, void *st, const char *line),
			void (*edit)(struct app *a, void *st, const char *line))
{
	struct view *v = view_current(a);
	if (!v)
		return;
	a->prompt = PROMPT_SEARCH;
	a->prompt_view = v;
	a->prompt_run = run;
	a->prompt_edit = edit;
	a->prompt_grammar = NULL;
	textbuf_set(&a->ptb, text);
	history_reset(&a->hist_filter);
	a->dirty |= DIRTY_MSG | DIRTY_HINTS;
}

void view_bind_in(struct keymap *km, const struct action_row *row, const char *const *names,
		  bool children)
{
	for (size_t i = 0; names[i]; i++) {
		int ctx = keymap_ctx_by_name(names[i]);
		for (int c = 1; ctx >= 0 && c < keymap_ctx_count(); c++)
			if (c == ctx || (children && keymap_ctx_parent(c) == ctx))
				keymap_action_bind(km, c, row);
	}
}
