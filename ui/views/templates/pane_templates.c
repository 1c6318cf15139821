/* pane_templates.c: the templates overlay (`:templates`): the operator's
 * own templates and the recommended ones as one list (own first), or a
 * server-side template search in the CLI's query language (`:templates
 * QUERY`, `/` pre-filled with the query in force; api_templates_query_call,
 * the path of `--dump templates --query` too; a query that does not parse
 * sends nothing and says where); `&` narrows the rows shown as you type
 * (name, image, image:tag or hash_id), r fetches again, Enter shows every
 * field of one (env values and secret-looking onstart assignments masked;
 * the registry password is never known); c, e and d create, edit and
 * delete (tpl_edit.c).  The
 * list (struct tpl_list) is also what the create form's template picker
 * shows: both fetch it the same way, two template searches through
 * jobs_call, fetches retried by the poller's one rule. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "views/templates/pane_templates.h"

#include "api/api.h"
#include "api/api_offers.h"
#include "app.h"
#include "draw.h"
#include "widgets/form.h"
#include "widgets/list.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "flow/offers.h"
#include "rules/query.h"
#include "rules/secrets.h"
#include "theme.h"
#include "views/templates/tpl_edit.h"
#include "base/util.h"
#include "view.h"

/* ---- the list ------------------------------------------------------------------ */

static int send_search(struct app *a, struct api_call call, const char *what, char *err,
		       size_t n)
{
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = call;
	jc.map = offers_templates_map; /* the mapper --dump templates uses */
	jc.free_value = offers_templates_answer_free;
	util_strlcpy(jc.what, what, sizeof jc.what);
	int id = 0;
	int rc = jobs_call(a->jobs, &jc, &id);
	if (rc != 0) {
		snprintf(err, n, "template search not sent: %s", jobs_strerror(rc));
		return 0;
	}
	return id;
}

void pane_templates_list_fetch(struct app *a, struct tpl_list *l)
{
	if (l->req_own || l->req_rec)
		return;
	long uid = a->snap && a->snap->user ? a->snap->user->id : 0;
	l->status[0] = '\0';
	l->got_own = l->got_rec = false;
	if (l->query[0]) { /* one search: its answer is taken as the "own" half */
		struct api_call c;
		struct query_error qe;
		if (api_templates_query_call(a->cfg, l->query, &c, &qe))
			l->req_own = send_search(a, c, "template search", l->status, sizeof l->status);
		else
			snprintf(l->status, sizeof l->status, "query: %s (nothing sent)", qe.msg);
		if (!l->req_own)
			l->got_own = true;
		l->got_rec = true;
		return;
	}
	if (uid > 0)
		l->req_own = send_search(a, api_templates(a->cfg, api_templates_filters(TPL_OWN, uid)),
					 "own templates", l->status, sizeof l->status);
	if (!l->req_own)
		l->got_own = true; /* nothing to wait for */
	l->req_rec = send_search(a, api_templates(a->cfg, api_templates_filters(TPL_RECOMMENDED, 0)),
				 "recommended templates", l->status, sizeof l->status);
	if (!l->req_rec)
		l->got_rec = true;
}

void pane_templates_list_search(struct app *a, struct tpl_list *l, const char *query)
{
	if (l->req_own)
		model_drop_result(a->m, l->req_own);
	if (l->req_rec)
		model_drop_result(a->m, l->req_rec);
	l->req_own = l->req_rec = 0;
	json_map_templates_free(l->own, l->nown); /* a half of an earlier pair */
	json_map_templates_free(l->rec, l->nrec);
	l->own = l->rec = NULL;
	l->nown = l->nrec = 0;
	util_strlcpy(l->query, query, sizeof l->query);
	pane_templates_list_fetch(a, l);
}

/* One answer: its records into *v (replacing), or why it failed. */
static void take_one(struct app *a, int *req, struct template_rec **v, size_t *n, bool *got,
		     char *status, size_t sn)
{
	struct call_result r;
	if (!*req || !model_take_result(a->m, *req, &r))
		return;
	*req = 0;
	*got = true;
	json_map_templates_free(*v, *n);
	*v = NULL;
	*n = 0;
	if (r.outcome == CALL_OK && r.value) {
		struct offers_tpl_answer *t = r.value;
		*v = t->v;
		*n = t->n;
		t->v = NULL;
		t->n = 0;
	} else if (r.outcome != CALL_OK) {
		snprintf(status, sn, "template search failed: %s", r.err.msg);
	}
	model_call_result_free(&r);
}

bool pane_templates_list_take(struct app *a, struct tpl_list *l)
{
	bool had = l->got_own && l->got_rec;
	take_one(a, &l->req_own, &l->own, &l->nown, &l->got_own, l->status, sizeof l->status);
	take_one(a, &l->req_rec, &l->rec, &l->nrec, &l->got_rec, l->status, sizeof l->status);
	if (had || !l->got_own || !l->got_rec || l->req_own || l->req_rec)
		return false;
	json_map_templates_free(l->v, l->n);
	l->v = l->own;
	l->n = l->nown;
	l->own = NULL;
	l->nown = 0;
	offers_templates_merge(&l->v, &l->n, l->rec, l->nrec);
	l->rec = NULL;
	l->nrec = 0;
	l->loaded = true;
	return true;
}

void pane_templates_list_free(struct app *a, struct tpl_list *l)
{
	if (l->req_own)
		model_drop_result(a->m, l->req_own);
	if (l->req_rec)
		model_drop_result(a->m, l->req_rec);
	json_map_templates_free(l->own, l->nown);
	json_map_templates_free(l->rec, l->nrec);
	json_map_templates_free(l->v, l->n);
	memset(l, 0, sizeof *l);
}

size_t pane_templates_list_match(const struct tpl_list *l, const char *text, size_t *idx, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n && k < max; i++)
		if (offers_template_matches(&l->v[i], text))
			idx[k++] = i;
	return k;
}

char *pane_templates_list_summary(const struct template_rec *t, long user_id, char *buf, size_t n)
{
	char disk[32] = "-";
	if (isfinite(t->recommended_disk_space) && t->recommended_disk_space > 0)
		snprintf(disk, sizeof disk, "%g GB", t->recommended_disk_space);
	enum create_launch m = api_create_launch_from_template(t->runtype, t->ssh_direct, t->jup_direct);
	const char *whose = user_id > 0 && t->creator_id == user_id ? "own"
			    : t->recommended ? "recommended"
					     : "";
	snprintf(buf, n, "%-28.28s %-36.36s %-15s %7s  %s", t->name && *t->name ? t->name : "-",
		 t->image && *t->image ? t->image : "-", api_create_launch_name(m), disk, whose);
	if (t->tag && *t->tag && t->image && *t->image) {
		/* image:tag in the image column */
		char img[300];
		snprintf(img, sizeof img, "%s:%s", t->image, t->tag);
		snprintf(buf, n, "%-28.28s %-36.36s %-15s %7s  %s", t->name && *t->name ? t->name : "-",
			 img, api_create_launch_name(m), disk, whose);
	}
	return buf;
}

/* ---- the overlay ------------------------------------------------------------------ */

struct tpl_view {
	struct tpl_list list;
	struct list nav;      /* over list.v: `/` narrows the rows shown as you type */
	char line[256];       /* the query last entered (s is pre-filled with it) */
	char qerr[300];       /* why that query was not sent, "" when it was */
	bool detail;
	char dlines[64][200]; /* the detail's lines (built when drawn) */
	size_t ndlines;
	struct list dnav;     /* a pager over dlines */
	struct tpl_edit *ed;  /* create / edit / delete */
	long want_id;         /* select this template when the list comes (0: none) */
	bool refetch;         /* fetch again when the searches in flight answer */
	/* a delete whose answer was lost: the list fetched after it says
	 * whether the template is gone (form_lost_*, as the dialogs) */
	long lost_id;
	struct form_lost lost;
};

/* A template's text for `/`: name, image, image:tag, hash_id (as the
 * picker's offers_template_matches), its launch mode and whose. */
static void tv_text(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct tpl_view *v = ctx;
	const struct template_rec *t = &v->list.v[i];
	char sum[400];
	pane_templates_list_summary(t, 0, sum, sizeof sum);
	snprintf(buf, n, "%s %s:%s %s %s", t->name ? t->name : "", t->image ? t->image : "",
		 t->tag ? t->tag : "", t->hash_id ? t->hash_id : "", sum);
}

static bool tv_field(const void *ctx, size_t i, const char *col, size_t ncol, char *buf, size_t n)
{
	const struct tpl_view *v = ctx;
	const struct template_rec *t = &v->list.v[i];
	const char *val;
	if (ncol && strncasecmp("name", col, ncol) == 0)
		val = t->name;
	else if (ncol && strncasecmp("image", col, ncol) == 0)
		val = t->image;
	else if (ncol && strncasecmp("hash_id", col, ncol) == 0)
		val = t->hash_id;
	else if (ncol && strncasecmp("tag", col, ncol) == 0)
		val = t->tag;
	else
		return false;
	snprintf(buf, n, "%s", val ? val : "");
	return true;
}

static long tv_id(const void *ctx, size_t i)
{
	const struct tpl_view *v = ctx;
	return v->list.v[i].id;
}

static const struct list_ops tv_list_ops = { tv_text, tv_field, NULL, tv_id };

static void tv_dtext(const void *ctx, size_t i, char *buf, size_t n)
{
	const struct tpl_view *v = ctx;
	snprintf(buf, n, "%s", v->dlines[i]);
}

static const struct list_ops tv_dlist_ops = { tv_dtext, NULL, NULL, NULL };

/* The records changed: the rows again (the selection kept on its id, or
 * put on the template asked for). */
static void refilter(struct tpl_view *v)
{
	list_set_count(&v->nav, v->list.n);
	for (size_t i = 0; v->want_id && i < v->list.n; i++)
		if (v->list.v[i].id == v->want_id && list_select(&v->nav, i))
			v->want_id = 0;
}

static const struct template_rec *tv_selected(const struct tpl_view *v)
{
	size_t i = list_selected(&v->nav);
	return i != LIST_NONE && i < v->list.n ? &v->list.v[i] : NULL;
}

static long user_id(const struct app *a)
{
	return a->snap && a->snap->user ? a->snap->user->id : 0;
}

/* Every field of t, one line each (masked where it carries secrets). */
static int tpl_detail_lines(const struct template_rec *t, long uid, char lines[][200], int max)
{
	int n = 0;
#define L(...) do { if (n < max) snprintf(lines[n++], 200, __VA_ARGS__); } while (0)
	L("name: %s", t->name ? t->name : "-");
	L("hash_id: %s", t->hash_id ? t->hash_id : "-");
	L("id: %ld", t->id);
	L("image: %s%s%s", t->image ? t->image : "-", t->tag && *t->tag ? ":" : "",
	  t->tag ? t->tag : "");
	L("launch mode: %s (runtype %s%s%s)",
	  api_create_launch_name(api_create_launch_from_template(t->runtype, t->ssh_direct, t->jup_direct)),
	  t->runtype ? t->runtype : "-", t->ssh_direct ? ", ssh direct" : "",
	  t->jup_direct ? ", jupyter direct" : "");
	if (isfinite(t->recommended_disk_space) && t->recommended_disk_space > 0)
		L("recommended disk: %g GB", t->recommended_disk_space);
	else
		L("recommended disk: - (8 GB by default)");
	char *env = secrets_mask_flags(t->env ? t->env : "");
	L("env: %s", env && *env ? env : "-");
	free(env);
	L("args: %s", t->args_str && *t->args_str ? t->args_str : "-");
	L("registry login: %s%s%s", t->docker_login_user && *t->docker_login_user ? t->docker_login_user : "-",
	  t->docker_login_repo && *t->docker_login_repo ? " at " : "",
	  t->docker_login_repo ? t->docker_login_repo : "");
	L("private: %s   recommended: %s   yours: %s", t->private_ ? "yes" : "no",
	  t->recommended ? "yes" : "no", uid > 0 && t->creator_id == uid ? "yes" : "no");
	L("created: %ld times", t->count_created);
	L("description: %s", t->desc && *t->desc ? t->desc : "-");
	char *os = secrets_mask_script(t->onstart ? t->onstart : "");
	if (!os || !*os) {
		L("onstart: -");
	} else {
		L("onstart:");
		for (char *p = os; *p && n < max;) {
			size_t len = strcspn(p, "\n");
			L("  %.*s", (int)(len > 190 ? 190 : len), p);
			p += len;
			if (*p)
				p++;
		}
	}
	free(os);
#undef L
	return n;
}

struct tv_draw_ctx {
	const struct tpl_view *v;
	const struct rect *r;
	long uid;
};

static void tv_row(void *dctx, size_t i, bool sel, int y)
{
	const struct tv_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	enum role role = sel ? ROLE_SELECTION : ROLE_NORMAL;
	draw_fill(y, r->x, r->w, theme_attr(role));
	if (i == LIST_NONE)
		return;
	char line[400];
	pane_templates_list_summary(&d->v->list.v[i], d->uid, line + 1, sizeof line - 1);
	line[0] = ' ';
	draw_text(y, r->x, r->w, line, theme_attr(role));
}

static void tv_dline(void *dctx, size_t i, bool sel, int y)
{
	(void)sel;
	const struct tv_draw_ctx *d = dctx;
	const struct rect *r = d->r;
	draw_fill(y, r->x + 1, r->w - 2, theme_attr(ROLE_NORMAL));
	if (i != LIST_NONE)
		draw_text(y, r->x + 2, r->w - 4, d->v->dlines[i], theme_attr(ROLE_NORMAL));
}

static void tv_draw(struct app *a, void *st, const struct rect *r)
{
	struct tpl_view *v = st;
	if (r->h < 4)
		return;
	char head[700], filt[300] = "";
	size_t shown = list_count_shown(&v->nav);
	if (list_filter(&v->nav)[0])
		snprintf(filt, sizeof filt, " | filter: %s", list_filter(&v->nav));
	if (v->list.query[0])
		snprintf(head, sizeof head, " Templates: %zu%s for query: %s | s edits the query%s",
			 shown, shown != v->list.n ? " shown" : "", v->list.query, filt);
	else
		snprintf(head, sizeof head,
			 " Templates: %zu%s (own first, then recommended) | / filters, s searches%s",
			 shown, shown != v->list.n ? " shown" : "", filt);
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_TITLE));
	draw_text(r->y, r->x, r->w, head, theme_attr(ROLE_TITLE));
	draw_fill(r->y + 1, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (v->qerr[0])
		draw_text(r->y + 1, r->x + 1, r->w - 1, v->qerr, theme_attr(ROLE_ERROR));
	else if (v->list.status[0])
		draw_text(r->y + 1, r->x + 1, r->w - 1, v->list.status, theme_attr(ROLE_ERROR));
	else if (v->list.req_own || v->list.req_rec)
		draw_text(r->y + 1, r->x + 1, r->w - 1, "searching templates...", theme_attr(ROLE_DIM));
	int y0 = r->y + 2, h = r->h - 2;
	struct tv_draw_ctx d = { v, r, user_id(a) };
	const struct template_rec *sel = tv_selected(v);
	if (v->detail && sel) {
		v->ndlines = (size_t)tpl_detail_lines(sel, d.uid, v->dlines, 64);
		list_set_count(&v->dnav, v->ndlines);
		char title[120];
		snprintf(title, sizeof title, " Template %s ", sel->name ? sel->name : "");
		draw_box(y0, r->x, h, r->w, title, theme_attr(ROLE_BORDER));
		list_draw(&v->dnav, y0 + 1, h - 2, tv_dline, &d);
		return;
	}
	v->detail = false;
	char ch[200];
	snprintf(ch, sizeof ch, " %-28s %-36s %-15s %7s  %s", "Name", "Image", "Launch", "Disk", "Whose");
	draw_fill(y0, r->x, r->w, theme_attr(ROLE_COLHEAD));
	draw_text(y0, r->x, r->w, ch, theme_attr(ROLE_COLHEAD));
	list_draw(&v->nav, y0 + 1, h - 1, tv_row, &d);
	if (!shown && h > 1)
		draw_text(y0 + 1, r->x + 1, r->w - 1,
			  !v->list.loaded ? "loading templates..."
			  : v->list.n	  ? "no template matches the filter"
			  : v->list.query[0] ? "no template matches the query"
					     : "no templates",
			  theme_attr(ROLE_DIM));
}

static struct tpl_view *tstate(struct app *a)
{
	int i = view_find(a, "templates");
	return i >= 0 ? a->views[i].st : NULL;
}

static void run_tdetail(struct app *a, enum action act)
{
	(void)act;
	struct tpl_view *v = tstate(a);
	if (!v)
		return;
	v->detail = !v->detail && tv_selected(v);
	list_set_filter(&v->dnav, ""); /* the detail from its top */
	a->dirty |= DIRTY_BODY;
}

/* s: the query line (the service searches), pre-filled with the query in force. */
static void tv_command(struct app *a, void *st, const char *args);

static void run_search(struct app *a, enum action act)
{
	(void)act;
	struct tpl_view *v = tstate(a);
	if (v)
		view_search_prompt(a, v->line, tv_command, NULL); /* as `:templates QUERY` */
}

/* c: rent with the selected template (the offers view's, a->rent_template). */
static void run_rent(struct app *a, enum action act)
{
	(void)act;
	struct tpl_view *v = tstate(a);
	const struct template_rec *t = v ? tv_selected(v) : NULL;
	if (t && a->rent_template) {
		v->detail = false;
		a->rent_template(a, t);
	}
}

/* The templates view's action table (the changes' handler: tpl_edit.c). */
enum { TR_DETAIL, TR_SEARCH, TR_RENT, TR_CREATE, TR_EDIT, TR_DELETE, TR__COUNT };
static enum action tv_ids[TR__COUNT];
static const struct action_row tv_rows[TR__COUNT] = {
	[TR_DETAIL] = { { .name = "template-detail", .help = "every field of the selected template",
			  .hint = "detail", .flags = AF_NEEDS_SEL | AF_HINT, .run = run_tdetail },
			"Enter", NULL, &tv_ids[TR_DETAIL] },
	[TR_SEARCH] = { { .name = "template-search",
			  .help = "search the service with a query (name=..., image=..., the "
				  "query language); empty: your own and the recommended ones",
			  .hint = "search", .flags = AF_HINT, .run = run_search },
			"s", NULL, &tv_ids[TR_SEARCH] },
	[TR_RENT] = { { .name = "template-rent",
			.help = "rent with the selected template: the offers for what it needs "
				"(its extra_filters, its disk), then c opens the form filled from it",
			.hint = "rent", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT, .run = run_rent },
		      "c", NULL, &tv_ids[TR_RENT] },
	[TR_CREATE] = { { .name = "template-create", .help = "create a template (form)",
			  .hint = "new", .flags = AF_MUTATES | AF_HINT },
			"n", NULL, &tv_ids[TR_CREATE] },
	[TR_EDIT] = { { .name = "template-edit",
			.help = "edit the selected template (yours; it gets a new hash_id)",
			.hint = "edit", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT },
		      "e", NULL, &tv_ids[TR_EDIT] },
	[TR_DELETE] = { { .name = "template-delete",
			  .help = "delete the selected template (yours; confirm)",
			  .hint = "delete", .flags = AF_MUTATES | AF_NEEDS_SEL | AF_HINT },
			"d", NULL, &tv_ids[TR_DELETE] },
};

static bool tv_action(struct app *a, void *st, enum action act)
{
	struct tpl_view *v = st;
	if (!keymap_action_builtin(act)) { /* a row of tv_rows without run: a change */
		static const enum tpl_op ops[TR__COUNT] = { [TR_CREATE] = TPL_OP_CREATE,
							    [TR_EDIT] = TPL_OP_EDIT,
							    [TR_DELETE] = TPL_OP_DELETE };
		int r = keymap_action_row_of(tv_rows, TR__COUNT, act);
		if (r != TR_CREATE && r != TR_EDIT && r != TR_DELETE)
			return false;
		tpl_edit_open(a, v->ed, ops[r], tv_selected(v), user_id(a));
		return true;
	}
	if (act == ACT_BACK && v->detail) {
		v->detail = false;
		a->dirty |= DIRTY_BODY;
		return true;
	}
	if (act != ACT_REFRESH)
		return false; /* the moves are the list's */
	pane_templates_list_fetch(a, &v->list);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
	return true;
}

/* The detail's pager while it is shown, else the templates. */
static struct list *tv_list(struct app *a, void *st)
{
	(void)a;
	struct tpl_view *v = st;
	return v->detail ? &v->dnav : &v->nav;
}

/* A change finished: the edited template's new hash_id at once, the
 * deleted one gone, then the list fetched again with the selection kept
 * on the template changed. */
static void after_change(struct app *a, struct tpl_view *v, const struct tpl_done *d)
{
	for (size_t i = 0; i < v->list.n; i++) {
		struct template_rec *t = &v->list.v[i];
		if (d->id && t->id == d->id && d->new_hash[0]) {
			free(t->hash_id);
			t->hash_id = xstrdup(d->new_hash);
		}
		if (d->deleted_id && t->id == d->deleted_id) {
			struct template_rec *gone = xcalloc(1, sizeof *gone);
			*gone = *t;
			memmove(t, t + 1, (v->list.n - i - 1) * sizeof *t);
			v->list.n--;
			json_map_templates_free(gone, 1);
			break;
		}
	}
	if (d->select_id)
		v->want_id = d->select_id;
	if (d->lost_id) {
		char what[160];
		snprintf(what, sizeof what, "template %s", d->lost_name);
		struct form_lost_words w = { .what = what, .found = "is gone",
					     .missing = "is still there", .done = "deleted",
					     .undone = "not deleted", .again = "d to try again",
					     .removes = true };
		/* a search of its own (:templates QUERY) cannot tell a template gone */
		form_lost_start(&v->lost, &w, v->list.query[0] ? -1 : 1, d->lost_at);
		v->lost_id = d->lost_id;
	}
	refilter(v);
	if (d->changed) {
		/* a search in flight may predate the change: fetch again after it */
		v->refetch = v->list.req_own || v->list.req_rec;
		pane_templates_list_fetch(a, &v->list);
	}
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

/* The list came again: when a delete's answer was lost before it (and no
 * fetch is still to come), say what it shows. */
static void lost_reread(struct app *a, struct tpl_view *v)
{
	if (!v->lost_id || v->refetch || v->list.req_own || v->list.req_rec)
		return;
	int after = 0;
	for (size_t i = 0; i < v->list.n; i++)
		after += v->list.v[i].id == v->lost_id;
	char msg[400];
	enum form_verdict fv = form_lost_check(&v->lost, util_now(), v->list.status[0] ? -1 : after,
					       v->list.status, msg, sizeof msg);
	if (fv == FV_WAIT && !msg[0])
		return;
	model_event(a->m, fv == FV_DONE ? EV_OK : EV_WARN, -1, 0, 0, EVF_QUIET, "%s", msg);
	app_answer(a, fv == FV_DONE ? ROLE_OK : ROLE_WARNING, 0, "%s", msg);
	if (fv != FV_WAIT) /* a failed re-read: the next list the overlay gets decides */
		v->lost_id = 0;
}

static void tv_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct tpl_view *v = st;
	struct tpl_done d;
	if (tpl_edit_snapshot(a, v->ed, &d))
		after_change(a, v, &d);
	bool busy = v->list.req_own || v->list.req_rec;
	if (pane_templates_list_take(a, &v->list) || (busy && !v->list.req_own && !v->list.req_rec)) {
		refilter(v);
		a->dirty |= DIRTY_BODY | DIRTY_HINTS;
		if (v->refetch && !v->list.req_own && !v->list.req_rec) {
			v->refetch = false;
			pane_templates_list_fetch(a, &v->list);
		}
		lost_reread(a, v);
	}
}

static void tv_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	struct tpl_view *v = st;
	v->detail = false;
	pane_templates_list_fetch(a, &v->list);
	refilter(v);
}

/* `:templates QUERY` and Enter in the `/` line: a template search with
 * QUERY (api_templates_query_call, as --dump templates --query); "" goes back
 * to the own and recommended list.  A query that does not parse sends
 * nothing: the parser's message (with its column) is shown instead. */
static void run_query(struct app *a, struct tpl_view *v, const char *text)
{
	char q[256];
	util_strlcpy(q, text, sizeof q);
	size_t l = strlen(q);
	while (l && (q[l - 1] == ' ' || q[l - 1] == '\t'))
		q[--l] = '\0';
	const char *p = q + strspn(q, " \t");
	util_strlcpy(v->line, p, sizeof v->line);
	struct api_call c;
	struct query_error qe;
	if (*p && !api_templates_query_call(a->cfg, p, &c, &qe)) {
		snprintf(v->qerr, sizeof v->qerr, "query: %s (nothing sent)", qe.msg);
		app_toast(a, ROLE_ERROR, 8, "query: %s", qe.msg);
		a->dirty |= DIRTY_BODY;
		return;
	}
	if (*p)
		api_call_free(&c); /* checked; pane_templates_list_fetch builds the one it sends */
	v->qerr[0] = '\0';
	v->detail = false;
	v->refetch = false;
	pane_templates_list_search(a, &v->list, p);
	refilter(v);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

/* `:templates QUERY`: opened (if it was not) with that search. */
static void tv_command(struct app *a, void *st, const char *args)
{ /* also Enter in the s line (view_search_prompt) */
	struct tpl_view *v = st;
	int i = view_find(a, "templates");
	if (i >= 0 && a->overlay != i)
		view_show(a, i, 0);
	run_query(a, v, args);
}

static const void *tv_selected_row(const struct app *a, const void *st)
{
	(void)a;
	return tv_selected(st);
}

static void *tv_init(struct app *a)
{
	(void)a;
	struct tpl_view *v = xcalloc(1, sizeof *v);
	v->ed = tpl_edit_new();
	list_init(&v->nav, &tv_list_ops, v, false);
	list_init(&v->dnav, &tv_dlist_ops, v, true);
	return v;
}

static void tv_fini(struct app *a, void *st)
{
	struct tpl_view *v = st;
	tpl_edit_free(a, v->ed);
	pane_templates_list_free(a, &v->list);
	list_free(&v->nav);
	list_free(&v->dnav);
	free(v);
}

static bool tv_modal_key(struct app *a, void *st, int key)
{
	return tpl_edit_modal_key(a, ((struct tpl_view *)st)->ed, key);
}

static bool tv_modal_draw(struct app *a, void *st)
{
	return tpl_edit_modal_draw(a, ((struct tpl_view *)st)->ed);
}

const struct view_ops view_templates = {
	.name = "templates",
	.title = "Templates",
	.heading = "Templates (:templates [QUERY])",
	.number_key = 0,
	.ctx_flags = CTXF_LIST,
	.actions = tv_rows,
	.nactions = TR__COUNT,
	.init = tv_init,
	.fini = tv_fini,
	.enter = tv_enter,
	.on_snapshot = tv_snapshot,
	.draw = tv_draw,
	.action = tv_action,
	.selected_row = tv_selected_row,
	.list = tv_list,
	.command = tv_command,
	.modal_key = tv_modal_key,
	.modal_draw = tv_modal_draw,
};
