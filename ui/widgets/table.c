/* table.c: the generic column table behind the instance and offer lists:
 * rows built through column accessors, their sort order and the filter's
 * match handed to the list widget (which filters, selects by id, scrolls
 * and marks), and column widths that fit the terminal by dropping the
 * least important columns first. */
#include "widgets/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "widgets/list.h"

/* The list under the table: its row k is rows[order[k]]; it filters with
 * the table's match (table_row_matches) and follows ids. */
static long nav_id(const void *ctx, size_t k)
{
	const struct table *t = ctx;
	return t->rows[t->order[k]].id;
}

/* A row keeps the filter's verdict until the filter, the visible columns
 * or the row change: a refresh that rebuilds a few of 10,000 rows matches
 * only those again. */
static bool nav_match(const void *ctx, size_t k, const char *filter)
{
	const struct table *t = ctx;
	size_t i = t->order[k];
	struct table_row *r = &t->rows[i];
	unsigned gen = t->nav.filter_gen ? t->nav.filter_gen : 1;
	if (r->match_gen == gen)
		return r->match_ok;
	if (t->cells && !r->cells[0]) /* made as drawn: the filter reads them */
		t->cells(t->cells_ctx, r, i);
	r->match_ok = table_row_matches(t, r, filter);
	r->match_gen = gen;
	return r->match_ok;
}

static const struct list_ops nav_ops = { NULL, NULL, nav_match, nav_id };

void table_init(struct table *t, const struct table_col *cols, int ncols, int sort_col)
{
	memset(t, 0, sizeof *t);
	t->cols = cols;
	t->ncols = ncols > TABLE_MAX_COLS ? TABLE_MAX_COLS : ncols;
	t->sort_col = sort_col;
	t->visible = ~0u;
	list_init(&t->nav, &nav_ops, t, false);
}

void table_row_free(struct table_row *r, int ncols)
{
	if (r->block) {
		free(r->block);
		r->block = NULL;
		return;
	}
	for (int c = 0; c < ncols; c++)
		free(r->cells[c]);
}

void table_row_build(struct table_row *row, const struct table_col *cols, int ncols,
		     const void *rec, const void *ctx)
{
	memset(row, 0, sizeof *row);
	row->cell_role = -1;
	if (ncols > TABLE_MAX_COLS)
		ncols = TABLE_MAX_COLS;
	/* the cells formatted side by side, then copied into one block */
	enum { CELL_MAX = 1024 };
	char buf[TABLE_MAX_COLS * CELL_MAX]; /* each cell fits in CELL_MAX */
	size_t off[TABLE_MAX_COLS], used = 0;
	for (int c = 0; c < ncols; c++) {
		double key = NAN;
		char *cell = buf + used;
		cell[0] = '\0';
		if (cols[c].cell)
			cols[c].cell(rec, ctx, cols[c].arg, cell, CELL_MAX, &key);
		off[c] = used;
		used += strlen(cell) + 1;
		row->keys[c] = key;
	}
	row->block = xmalloc(used ? used : 1);
	memcpy(row->block, buf, used);
	for (int c = 0; c < ncols; c++)
		row->cells[c] = row->block + off[c];
}

void table_fill(struct table *t, const void *recs, size_t n, size_t stride, const void *ctx,
		void (*finish)(struct table_row *row, const void *rec, const void *ctx))
{
	struct table_row *rows = xcalloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		const void *rec = (const char *)recs + i * stride;
		table_row_build(&rows[i], t->cols, t->ncols, rec, ctx);
		if (finish)
			finish(&rows[i], rec, ctx);
	}
	table_set_rows(t, rows, n);
}

static void free_rows(struct table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		table_row_free(&t->rows[i], t->ncols);
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

void table_free(struct table *t)
{
	free_rows(t);
	free(t->order);
	t->order = NULL;
	list_free(&t->nav);
}

/* The widest cell of whole column c over every row. */
static void natural_of(struct table *t, int c)
{
	t->natural[c] = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		int cw = t->rows[i].cells[c] ? util_strwidth(t->rows[i].cells[c]) : 0;
		if (cw > t->natural[c])
			t->natural[c] = cw;
	}
}

void table_set_rows(struct table *t, struct table_row *rows, size_t n)
{
	free_rows(t);
	t->rows = rows;
	t->nrows = n;
	t->by_id = false;
	for (int c = 0; c < t->ncols; c++)
		if (t->cols[c].whole)
			natural_of(t, c);
		else
			t->natural[c] = 0;
	table_apply(t);
}

void table_touch(struct table *t) { t->touched = true; }

static int cmp_rows(const void *a, const void *b, void *arg);

/* Set bit c of *lost when a whole column's widest cell may have gone with
 * row r (its width is the column's natural width). */
static void note_lost(const struct table *t, const struct table_row *r, unsigned *lost)
{
	for (int c = 0; c < t->ncols; c++)
		if (t->cols[c].whole && !(*lost & (1u << c)) && r->cells[c] &&
		    util_strwidth(r->cells[c]) >= t->natural[c])
			*lost |= 1u << c;
}

bool table_refill(struct table *t, const void *recs, size_t n,
		  const void *(*rec_at)(const void *recs, size_t i), const void *ctx,
		  long (*id_of)(const void *rec), uint64_t (*rev_of)(const void *rec),
		  void (*finish)(struct table_row *row, const void *rec, const void *ctx))
{
	/* records out of id order (not expected): every row built afresh */
	bool sorted = true;
	for (size_t j = 1; j < n && sorted; j++)
		sorted = id_of(rec_at(recs, j - 1)) < id_of(rec_at(recs, j));
	bool all = t->touched || !t->by_id || !sorted;
	struct table_row *old = t->rows;
	size_t nold = t->nrows;
	/* the same ids at the same places (a page of known instances): the
	 * changed rows are built again where they are, the array kept */
	bool in_place = !all && n == nold;
	for (size_t j = 0; j < n && in_place; j++)
		in_place = old[j].id == id_of(rec_at(recs, j));
	struct table_row *rows = in_place ? old : xcalloc(n ? n : 1, sizeof *rows);
	size_t *remap = xmalloc((nold ? nold : 1) * sizeof *remap); /* old -> new, SIZE_MAX: none */
	size_t *built = xmalloc((n ? n : 1) * sizeof *built);
	size_t nbuilt = 0, ndropped = 0, i = 0;
	unsigned lost = 0; /* whole columns whose widest cell may be gone */
	for (size_t k = 0; k < nold; k++)
		remap[k] = SIZE_MAX;
	for (size_t j = 0; j < n; j++) {
		const void *rec = rec_at(recs, j);
		long id = id_of(rec);
		uint64_t rev = rev_of(rec);
		while (!all && i < nold && old[i].id < id) { /* gone */
			note_lost(t, &old[i], &lost);
			table_row_free(&old[i], t->ncols);
			ndropped++;
			i++;
		}
		if (!all && i < nold && old[i].id == id) {
			if (old[i].rev == rev) { /* unchanged: kept as it is */
				if (!in_place)
					rows[j] = old[i];
				remap[i++] = j;
				continue;
			}
			note_lost(t, &old[i], &lost);
			table_row_free(&old[i], t->ncols);
			i++;
		}
		table_row_build(&rows[j], t->cols, t->ncols, rec, ctx);
		if (finish)
			finish(&rows[j], rec, ctx);
		rows[j].rev = rev;
		built[nbuilt++] = j;
	}
	for (; i < nold; i++) { /* gone (or, with all, replaced) */
		if (!all) {
			note_lost(t, &old[i], &lost);
			ndropped++;
		}
		table_row_free(&old[i], t->ncols);
	}
	if (!in_place)
		free(old);
	t->rows = rows;
	t->nrows = n;
	t->by_id = sorted;
	t->touched = false;
	bool changed = all || nbuilt || ndropped;
	if (!changed) {
		/* the same rows at the same places: the view stands */
		free(remap);
		free(built);
		return false;
	}
	/* widest cells: grown by the new rows, recomputed where one went */
	for (int c = 0; c < t->ncols; c++) {
		if (!t->cols[c].whole)
			continue;
		if (all || (lost & (1u << c))) {
			natural_of(t, c);
			continue;
		}
		for (size_t b = 0; b < nbuilt; b++) {
			const char *cell = rows[built[b]].cells[c];
			int cw = cell ? util_strwidth(cell) : 0;
			if (cw > t->natural[c])
				t->natural[c] = cw;
		}
	}
	if (all || nbuilt > n / 4 + 16 || !t->order) {
		/* many changed: sort the whole list */
		free(remap);
		free(built);
		table_apply(t);
		return true;
	}
	/* the kept rows keep their order; the built ones are sorted and
	 * merged in; the list filters them */
	size_t *kept = xmalloc((n ? n : 1) * sizeof *kept);
	size_t nkeep = 0;
	for (size_t k = 0; k < nold; k++)
		if (remap[t->order[k]] != SIZE_MAX)
			kept[nkeep++] = remap[t->order[k]];
	bool sort = t->sort_col >= 0 && t->sort_col < t->ncols;
	if (sort)
		qsort_r(built, nbuilt, sizeof *built, cmp_rows, t);
	free(t->order);
	t->order = xmalloc((n ? n : 1) * sizeof *t->order);
	size_t a = 0, b = 0, k = 0;
	while (a < nkeep || b < nbuilt) {
		bool take_add = b < nbuilt &&
				(a == nkeep || (sort ? cmp_rows(&built[b], &kept[a], t) < 0
						     : built[b] < kept[a]));
		t->order[k++] = take_add ? built[b++] : kept[a++];
	}
	free(kept);
	free(remap);
	free(built);
	list_set_count(&t->nav, n);
	return true;
}

void table_set_filter(struct table *t, const char *filter)
{
	list_set_filter(&t->nav, filter);
}

const char *table_filter(const struct table *t) { return list_filter(&t->nav); }

struct list *table_list(struct table *t) { return &t->nav; }

void table_set_sort(struct table *t, int col, bool rev)
{
	if (col < 0 || col >= t->ncols)
		return;
	t->sort_col = col;
	t->sort_rev = rev;
	table_apply(t);
}

void table_sort_step(struct table *t, int delta)
{
	if (t->ncols <= 0)
		return;
	int c = ((t->sort_col + delta) % t->ncols + t->ncols) % t->ncols;
	table_set_sort(t, c, t->sort_rev);
}

void table_set_visible(struct table *t, unsigned mask)
{
	if (mask == t->visible)
		return;
	t->visible = mask;
	t->nav.filter_gen++; /* the verdicts cached on the rows are stale */
	if (list_filter(&t->nav)[0])
		list_set_count(&t->nav, t->nrows);
}

/* The column a filter term names ("status", "gpu" for GPUS: a prefix of
 * the title, case-insensitive; an exact title first), -1 if none. */
static int term_col(const struct table *t, const char *name, size_t len)
{
	int prefix = -1;
	for (int c = 0; c < t->ncols; c++) {
		const char *title = t->cols[c].title;
		if (!title || strncasecmp(title, name, len) != 0)
			continue;
		if (strlen(title) == len)
			return c;
		if (prefix < 0)
			prefix = c;
	}
	return prefix;
}

struct term_arg {
	const struct table *t;
	const struct table_row *r;
};

/* Whether cell c of r (or its group word, in the group's column) holds value. */
static bool cell_has(const struct table_row *r, int c, const char *value)
{
	return (r->cells[c] && list_contains(r->cells[c], value)) ||
	       (r->group && c == r->cell_role_col && list_contains(r->group, value));
}

/* One term (list_filter_match's parser): TEXT in any visible cell,
 * COLUMN=VALUE in that column's cell (whether shown or not). */
static int term_matches(const void *arg, const char *col, size_t ncol, const char *value)
{
	const struct term_arg *ta = arg;
	if (col) {
		int c = term_col(ta->t, col, ncol);
		return c < 0 ? -1 : cell_has(ta->r, c, value);
	}
	for (int c = 0; c < ta->t->ncols; c++)
		if ((ta->t->visible & (1u << c)) && cell_has(ta->r, c, value))
			return 1;
	return 0;
}

bool table_row_matches(const struct table *t, const struct table_row *r, const char *filter)
{
	struct term_arg ta = { t, r };
	return list_filter_match(filter, term_matches, &ta);
}

/* Order two rows by the sort column (numeric key or text), then by id. */
static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct table *t = arg;
	const struct table_row *x = &t->rows[*(const size_t *)a], *y = &t->rows[*(const size_t *)b];
	int c = t->sort_col, r = 0;
	if (t->cols[c].numeric) {
		double p = x->keys[c], q = y->keys[c];
		bool pn = isnan(p), qn = isnan(q);
		if (pn || qn)
			r = pn - qn; /* unknown values last */
		else
			r = (p > q) - (p < q);
	} else {
		r = strcasecmp(x->cells[c] ? x->cells[c] : "", y->cells[c] ? y->cells[c] : "");
	}
	if (r == 0)
		r = (x->id > y->id) - (x->id < y->id);
	return t->sort_rev ? -r : r;
}

void table_apply(struct table *t)
{
	free(t->order);
	t->order = xmalloc((t->nrows ? t->nrows : 1) * sizeof *t->order);
	for (size_t i = 0; i < t->nrows; i++)
		t->order[i] = i;
	if (t->sort_col >= 0 && t->sort_col < t->ncols)
		qsort_r(t->order, t->nrows, sizeof *t->order, cmp_rows, t);
	list_set_count(&t->nav, t->nrows);
}

size_t table_index(const struct table *t, size_t r)
{
	return r < t->nrows ? t->order[r] : LIST_NONE;
}

const struct table_row *table_row_of(const struct table *t, size_t r)
{
	return r < t->nrows ? &t->rows[t->order[r]] : NULL;
}

size_t table_count(const struct table *t) { return list_count_shown(&t->nav); }

const struct table_row *table_row_at(const struct table *t, size_t k)
{
	return table_row_of(t, list_row_at(&t->nav, k));
}

bool table_select_id(struct table *t, long id)
{
	for (size_t k = 0; k < list_count_shown(&t->nav); k++) {
		size_t r = list_row_at(&t->nav, k);
		if (t->rows[t->order[r]].id == id)
			return list_select(&t->nav, r);
	}
	return false;
}

void table_move(struct table *t, long delta) { list_move(&t->nav, delta); }
void table_home(struct table *t) { list_action(&t->nav, ACT_TOP); }
void table_end(struct table *t) { list_action(&t->nav, ACT_BOTTOM); }

const struct table_row *table_selected(const struct table *t)
{
	return table_row_of(t, list_selected(&t->nav));
}

void table_scroll(struct table *t, int h) { list_set_height(&t->nav, h); }

int table_col_by_name(const struct table *t, const char *name)
{
	for (int c = 0; c < t->ncols; c++)
		if (strcasecmp(t->cols[c].title, name) == 0)
			return c;
	return -1;
}

unsigned table_widths(const struct table_col *cols, int ncols, int width, int *w)
{
	return table_widths_fit(cols, ncols, width, NULL, w);
}

/* The widest a column may become: its max, or exactly its natural width
 * when it is whole; 0 means unbounded. */
static int col_cap(const struct table_col *col, const int *natural, int c)
{
	if (col->whole && natural && natural[c] > 0)
		return natural[c] > col->min_w ? natural[c] : col->min_w;
	return col->max_w;
}

unsigned table_widths_fit(const struct table_col *cols, int ncols, int width, const int *natural,
			  int *w)
{
	unsigned shown = 0;
	for (int c = 0; c < ncols; c++) {
		w[c] = cols[c].min_w;
		if (cols[c].whole && natural && natural[c] > w[c])
			w[c] = natural[c];
		shown |= 1u << c;
	}
	/* drop the least important columns until the rest fit */
	for (;;) {
		int need = -1;
		for (int c = 0; c < ncols; c++)
			if (shown & (1u << c))
				need += w[c] + 1;
		if (need <= width)
			break;
		int drop = -1;
		for (int c = 0; c < ncols; c++)
			if ((shown & (1u << c)) && cols[c].prio > 0 &&
			    (drop < 0 || cols[c].prio >= cols[drop].prio))
				drop = c;
		if (drop < 0) {
			/* only essential columns left: shrink the last one that
			 * may be cut (the last one of all if every one is whole) */
			int last = -1, last_any = -1;
			for (int c = 0; c < ncols; c++)
				if (shown & (1u << c)) {
					last_any = c;
					if (!cols[c].whole)
						last = c;
				}
			if (last < 0)
				last = last_any;
			if (last >= 0) {
				w[last] -= need - width;
				if (w[last] < 1)
					w[last] = 1;
			}
			break;
		}
		shown &= ~(1u << drop);
		w[drop] = 0;
	}
	int used = -1;
	for (int c = 0; c < ncols; c++)
		if (shown & (1u << c))
			used += w[c] + 1;
	int spare = width - used;
	/* share the spare width one cell at a time among the columns that can
	 * grow (bounded ones up to their max, flexible ones without limit) */
	while (spare > 0) {
		bool grew = false;
		for (int c = 0; c < ncols && spare > 0; c++)
			if ((shown & (1u << c)) &&
			    (col_cap(&cols[c], natural, c) == 0 || w[c] < col_cap(&cols[c], natural, c))) {
				w[c]++;
				spare--;
				grew = true;
			}
		if (!grew)
			break;
	}
	return shown;
}
