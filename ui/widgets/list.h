/* list.h: the list/pager widget.  A view supplies its rows (a count, the
 * text of a row for the `/` filter, a stable id when it has one) and draws
 * a row; the widget owns the rest: the rows passing the filter, the
 * selection and the scroll offset, the moves (up, down, page, top, bottom:
 * ACT_UP..ACT_BOTTOM), paging by the height last drawn, keeping the
 * selection visible, and marks.  A pager (help, a detail) has no
 * selection: the moves scroll the text.  htop's InfoScreen and tmux's
 * mode-tree are the model.
 *
 * The filter language is the instance table's, and list_filter_match() is
 * its one parser (table.c uses it too): plain text (spaces and all) in the
 * row's text; with a COLUMN=VALUE or !TEXT term, every space-separated term
 * must match; COLUMN=VALUE in the row's field COLUMN (a view without that
 * field: the term is plain text); !TERM negates.  Case-insensitive.
 *
 * Pure (no curses: list_draw calls the view's draw for each line).  UI
 * thread only. */
#ifndef RENTOP_UI_LIST_H
#define RENTOP_UI_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "keymap.h"

#define LIST_NONE ((size_t)-1)

/* One term of a filter, its `!` taken off: col (ncol bytes, not NUL-ended)
 * is the COLUMN of a COLUMN=VALUE term and value its VALUE; col NULL: a
 * plain term (value).  Returns 1 when arg matches, 0 when not, -1 when
 * there is no column col (the term is then tried as plain text). */
typedef int (*list_term_fn)(const void *arg, const char *col, size_t ncol, const char *value);
/* Whether arg passes filter ("" and NULL pass everything). */
bool list_filter_match(const char *filter, list_term_fn term, const void *arg);
/* Case-insensitive (ASCII) substring; an empty needle is in everything. */
bool list_contains(const char *hay, const char *needle);

/* What a view supplies; ctx is what list_init was given. */
struct list_ops {
	/* The text of row i that a plain term searches, into buf (NULL:
	 * nothing to search: every plain term fails). */
	void (*text)(const void *ctx, size_t i, char *buf, size_t n);
	/* The text of row i's field col (ncol bytes) for COLUMN=VALUE, into
	 * buf; false: no such field.  NULL: the view has no fields. */
	bool (*field)(const void *ctx, size_t i, const char *col, size_t ncol, char *buf,
		      size_t n);
	/* Instead of text and field: whether row i passes filter (a view
	 * with its own rows, the table's).  NULL: text and field. */
	bool (*match)(const void *ctx, size_t i, const char *filter);
	/* A stable id of row i: the selection and the marks follow it when
	 * rows come and go.  NULL: they stay at their position. */
	long (*id)(const void *ctx, size_t i);
};

struct list {
	const struct list_ops *ops;
	const void *ctx;
	bool pager;      /* no selection: the moves scroll */
	size_t n;        /* the view's rows */
	size_t *shown;   /* the rows passing the filter, in the view's order */
	size_t nshown;
	size_t cap;
	size_t sel;      /* position in shown (not a pager) */
	long sel_id;     /* ops->id of the selected row */
	bool has_sel;    /* sel_id is one (kept while a filter hides every row) */
	size_t top;      /* first position drawn */
	int height;      /* lines the last draw had (paging) */
	char filter[128];
	unsigned filter_gen; /* bumped by each list_set_filter: a view that
			      * caches its rows' matches compares it */
	long *marks;     /* ids (ops->id) or row indices of the marked rows */
	size_t nmarks;
	size_t capmarks;
};

void list_init(struct list *l, const struct list_ops *ops, const void *ctx, bool pager);
void list_free(struct list *l);
/* The view's rows changed (now n): filter again; the selection stays on
 * its id (ops->id), else at its position; scrolled to stay visible. */
void list_set_count(struct list *l, size_t n);
/* Apply a filter: the selection stays on its row when it passes, else
 * goes to the first row. */
void list_set_filter(struct list *l, const char *filter);
const char *list_filter(const struct list *l);
/* A move (ACT_UP, ACT_DOWN, ACT_PAGE_UP, ACT_PAGE_DOWN, ACT_TOP,
 * ACT_BOTTOM): true when act is one (moved or already at the end). */
bool list_action(struct list *l, enum action act);
/* Move the selection (a pager: the top line) by delta positions, clamped. */
void list_move(struct list *l, long delta);
/* Select row i (a pager: scroll it to the top); false when it is filtered out. */
bool list_select(struct list *l, size_t i);
/* The selected row, LIST_NONE when none (no row, or a pager). */
size_t list_selected(const struct list *l);
/* Its position among the shown rows (0 first), LIST_NONE when none. */
size_t list_selected_pos(const struct list *l);
size_t list_count_shown(const struct list *l);
/* The row at position k of the shown rows, LIST_NONE past the last. */
size_t list_row_at(const struct list *l, size_t k);
/* Lines of h: keep the selection visible (a pager: the top in range). */
void list_set_height(struct list *l, int h);

/* Draw h lines from line y: draw(dctx, row, selected, y) for each line,
 * row LIST_NONE for a line below the last row (to be cleared). */
typedef void (*list_draw_fn)(void *dctx, size_t row, bool selected, int y);
void list_draw(struct list *l, int y, int h, list_draw_fn draw, void *dctx);

/* Marks, by id (ops->id) else by row index, kept in marking order.  A
 * mark survives a filter that hides its row, and a refresh that drops
 * its row until list_marks_prune; list_marks_hidden counts the marks on
 * no row shown. */
bool list_mark_toggle(struct list *l, size_t row); /* true: now marked */
bool list_marked(const struct list *l, size_t row);
size_t list_nmarks(const struct list *l);
size_t list_marks_hidden(const struct list *l);
void list_marks_clear(struct list *l);
/* The marked ids (ops->id, else row indices) in marking order (n of them). */
const long *list_marks(const struct list *l, size_t *n);
/* Unmark the ids (n of them) that are marked. */
void list_marks_drop(struct list *l, const long *ids, size_t n);
/* Forget the marks of ids that no row has any more (the rows gone). */
void list_marks_prune(struct list *l);

#endif
