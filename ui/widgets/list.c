/* list.c: the list/pager widget: the filter language's one parser, the
 * rows passing the filter, the selection (kept by id), scrolling, paging
 * and marks. */
#include "widgets/list.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

bool list_contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	if (!n)
		return true;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

/* One term: !TERM negates; COLUMN=VALUE names a column (unless there is
 * no such column); else plain text. */
static bool term_match(const char *term, list_term_fn fn, const void *arg)
{
	if (term[0] == '!' && term[1])
		return !term_match(term + 1, fn, arg);
	const char *eq = strchr(term, '=');
	if (eq && eq > term) {
		int r = fn(arg, term, (size_t)(eq - term), eq + 1);
		if (r >= 0)
			return r > 0;
	}
	return fn(arg, NULL, 0, term) > 0;
}

bool list_filter_match(const char *filter, list_term_fn fn, const void *arg)
{
	if (!filter || !*filter)
		return true;
	/* plain text is one term (spaces and all); with a COLUMN=VALUE or
	 * !TEXT term, every space-separated term must match */
	bool terms = filter[0] == '!' || strchr(filter, '=') || strstr(filter, " !");
	if (!terms)
		return term_match(filter, fn, arg);
	char buf[256];
	util_strlcpy(buf, filter, sizeof buf);
	char *save = NULL;
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (!term_match(w, fn, arg))
			return false;
	return true;
}

/* ---- a list's rows and the filter ------------------------------------------ */

struct row_arg {
	const struct list *l;
	size_t i;
};

static int row_term(const void *arg, const char *col, size_t ncol, const char *value)
{
	const struct row_arg *ra = arg;
	const struct list *l = ra->l;
	char buf[1024];
	if (col) {
		if (!l->ops->field || !l->ops->field(l->ctx, ra->i, col, ncol, buf, sizeof buf))
			return -1;
		return list_contains(buf, value);
	}
	if (!l->ops->text)
		return 0;
	buf[0] = '\0';
	l->ops->text(l->ctx, ra->i, buf, sizeof buf);
	return list_contains(buf, value);
}

static bool row_passes(const struct list *l, size_t i)
{
	if (!l->filter[0])
		return true;
	if (l->ops->match)
		return l->ops->match(l->ctx, i, l->filter);
	struct row_arg ra = { l, i };
	return list_filter_match(l->filter, row_term, &ra);
}

static long id_of(const struct list *l, size_t i)
{
	return l->ops->id ? l->ops->id(l->ctx, i) : (long)i;
}

void list_init(struct list *l, const struct list_ops *ops, const void *ctx, bool pager)
{
	memset(l, 0, sizeof *l);
	l->ops = ops;
	l->ctx = ctx;
	l->pager = pager;
}

void list_free(struct list *l)
{
	free(l->shown);
	free(l->marks);
	l->shown = NULL;
	l->marks = NULL;
	l->nshown = l->cap = l->nmarks = l->capmarks = 0;
}

/* The view's rows again through the filter; the selection back on its id
 * (when the view gives ids), else at its position; with first, on the
 * first row when its own is gone. */
static void refilter(struct list *l, bool first)
{
	size_t old_pos = l->sel;
	if (l->cap < l->n) {
		l->cap = l->n;
		l->shown = xrealloc(l->shown, l->cap * sizeof *l->shown);
	}
	l->nshown = 0;
	for (size_t i = 0; i < l->n; i++)
		if (row_passes(l, i))
			l->shown[l->nshown++] = i;
	if (l->pager) {
		if (first)
			l->top = 0;
		list_set_height(l, l->height);
		return;
	}
	if (!l->nshown) {
		l->sel = 0;
		l->top = 0;
		return;
	}
	if (l->has_sel && (l->ops->id || first))
		for (size_t k = 0; k < l->nshown; k++)
			if (id_of(l, l->shown[k]) == l->sel_id) {
				l->sel = k;
				list_set_height(l, l->height);
				return;
			}
	l->sel = first || !l->has_sel ? 0 : old_pos < l->nshown ? old_pos : l->nshown - 1;
	l->sel_id = id_of(l, l->shown[l->sel]);
	l->has_sel = true;
	list_set_height(l, l->height);
}

void list_set_count(struct list *l, size_t n)
{
	l->n = n;
	refilter(l, false);
}

void list_set_filter(struct list *l, const char *filter)
{
	util_strlcpy(l->filter, filter ? filter : "", sizeof l->filter);
	l->filter_gen++;
	refilter(l, true);
}

const char *list_filter(const struct list *l) { return l->filter; }

/* ---- moving and scrolling ---------------------------------------------------- */

void list_set_height(struct list *l, int h)
{
	l->height = h;
	size_t n = l->nshown;
	if (h <= 0 || !n) {
		l->top = 0;
		return;
	}
	size_t hh = (size_t)h;
	if (!l->pager) {
		if (l->sel < l->top)
			l->top = l->sel;
		if (l->sel >= l->top + hh)
			l->top = l->sel - hh + 1;
	}
	if (l->top + hh > n)
		l->top = n > hh ? n - hh : 0;
}

void list_move(struct list *l, long delta)
{
	if (!l->nshown)
		return;
	long at = (long)(l->pager ? l->top : l->sel) + delta;
	long last = (long)l->nshown - 1;
	if (l->pager && l->height > 0)
		last = (long)l->nshown - l->height;
	if (at > last)
		at = last;
	if (at < 0)
		at = 0;
	if (l->pager) {
		l->top = (size_t)at;
		return;
	}
	l->sel = (size_t)at;
	l->sel_id = id_of(l, l->shown[l->sel]);
	l->has_sel = true;
	list_set_height(l, l->height);
}

bool list_action(struct list *l, enum action act)
{
	long page = l->height > 1 ? l->height - 1 : 1;
	long all = (long)l->nshown;
	if (!keymap_action_builtin(act))
		return false;
	switch (act) {
	case ACT_UP: list_move(l, -1); return true;
	case ACT_DOWN: list_move(l, 1); return true;
	case ACT_PAGE_UP: list_move(l, -page); return true;
	case ACT_PAGE_DOWN: list_move(l, page); return true;
	case ACT_TOP: list_move(l, -all); return true;
	case ACT_BOTTOM: list_move(l, all); return true;
	case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
	case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
	case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
	case ACT_SORT_INVERT:
		return false;
	}
	return false;
}

bool list_select(struct list *l, size_t i)
{
	for (size_t k = 0; k < l->nshown; k++)
		if (l->shown[k] == i) {
			if (l->pager) {
				l->top = k;
				list_set_height(l, l->height);
			} else {
				l->sel = k;
				l->sel_id = id_of(l, i);
				l->has_sel = true;
				list_set_height(l, l->height);
			}
			return true;
		}
	return false;
}

size_t list_selected(const struct list *l)
{
	return !l->pager && l->sel < l->nshown ? l->shown[l->sel] : LIST_NONE;
}

size_t list_selected_pos(const struct list *l)
{
	return !l->pager && l->sel < l->nshown ? l->sel : LIST_NONE;
}

size_t list_count_shown(const struct list *l) { return l->nshown; }

size_t list_row_at(const struct list *l, size_t k)
{
	return k < l->nshown ? l->shown[k] : LIST_NONE;
}

void list_draw(struct list *l, int y, int h, list_draw_fn draw, void *dctx)
{
	list_set_height(l, h);
	for (int j = 0; j < h; j++) {
		size_t k = l->top + (size_t)j;
		if (k < l->nshown)
			draw(dctx, l->shown[k], !l->pager && k == l->sel, y + j);
		else
			draw(dctx, LIST_NONE, false, y + j);
	}
}

/* ---- marks ------------------------------------------------------------------- */

static size_t mark_at(const struct list *l, long id)
{
	for (size_t m = 0; m < l->nmarks; m++)
		if (l->marks[m] == id)
			return m;
	return LIST_NONE;
}

bool list_mark_toggle(struct list *l, size_t row)
{
	if (row >= l->n)
		return false;
	long id = id_of(l, row);
	size_t m = mark_at(l, id);
	if (m != LIST_NONE) { /* the others keep their marking order */
		memmove(&l->marks[m], &l->marks[m + 1], (--l->nmarks - m) * sizeof *l->marks);
		return false;
	}
	if (l->nmarks == l->capmarks) {
		l->capmarks = l->capmarks ? 2 * l->capmarks : 8;
		l->marks = xrealloc(l->marks, l->capmarks * sizeof *l->marks);
	}
	l->marks[l->nmarks++] = id;
	return true;
}

bool list_marked(const struct list *l, size_t row)
{
	return row < l->n && mark_at(l, id_of(l, row)) != LIST_NONE;
}

size_t list_nmarks(const struct list *l) { return l->nmarks; }

size_t list_marks_hidden(const struct list *l)
{
	size_t seen = 0;
	for (size_t k = 0; k < l->nshown; k++)
		if (mark_at(l, id_of(l, l->shown[k])) != LIST_NONE)
			seen++;
	return l->nmarks - seen;
}

void list_marks_clear(struct list *l) { l->nmarks = 0; }

const long *list_marks(const struct list *l, size_t *n)
{
	*n = l->nmarks;
	return l->marks;
}

void list_marks_drop(struct list *l, const long *ids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t m = mark_at(l, ids[i]);
		if (m != LIST_NONE)
			memmove(&l->marks[m], &l->marks[m + 1], (--l->nmarks - m) * sizeof *l->marks);
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

void list_marks_prune(struct list *l)
{
	if (!l->nmarks)
		return;
	long *ids = xmalloc((l->n ? l->n : 1) * sizeof *ids);
	for (size_t i = 0; i < l->n; i++)
		ids[i] = id_of(l, i);
	qsort(ids, l->n, sizeof *ids, cmp_long);
	size_t k = 0;
	for (size_t m = 0; m < l->nmarks; m++)
		if (l->n && bsearch(&l->marks[m], ids, l->n, sizeof *ids, cmp_long))
			l->marks[k++] = l->marks[m];
	l->nmarks = k;
	free(ids);
}
