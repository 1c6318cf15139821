/* table.h: the generic table widget: a sortable, filterable table of rows
 * keyed by id, with column widths computed from the terminal width.  A
 * view's table is a column list (title, width rule, accessor, sort key)
 * and its records: table_fill() builds the rows by calling each column's
 * accessor, so the instance, offer, template, workergroup or env var
 * tables are data, not copies of one another.  Whole columns (an id, an
 * address) are dropped rather than cut mid-value.  Pure (no curses): the
 * views draw it.  The selection is an id and follows its row across
 * refreshes, sorts and filters: the table supplies its rows in sort order
 * and their cells to a list widget (widgets/list.h), which owns the `/`
 * filter (the table's match: COLUMN=VALUE on its columns), the selection,
 * the scroll, the moves, paging and the marks.
 * UI thread only. */
#ifndef RENTOP_UI_TABLE_H
#define RENTOP_UI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "widgets/list.h"

#define TABLE_MAX_COLS 16

/* A column's accessor: the text of cell arg of record rec into buf, and
 * (numeric columns) its sort key into *key (NAN: unknown, sorted last);
 * ctx is what table_fill() was given. */
typedef void (*table_cell_fn)(const void *rec, const void *ctx, int arg, char *buf, size_t n,
			      double *key);

struct table_col {
	const char *title;
	int min_w;    /* cells */
	int max_w;    /* cells; 0: takes any spare width */
	int prio;     /* 0: never dropped; a larger number is dropped first */
	bool right;   /* right-aligned (numbers) */
	bool numeric; /* sorts by the row's key, not its text */
	bool whole;   /* never cut (an address, an id): as wide as its widest
		       * cell, and dropped rather than truncated when that does not fit */
	table_cell_fn cell; /* the accessor (NULL: the view fills the rows itself) */
	int arg;            /* passed to cell: which field */
};

struct table_row {
	long id;
	int role;      /* a theme role for the whole row (the pane's choice) */
	int cell_role; /* a theme role for cell cell_role_col, -1: none */
	int cell_role_col;
	/* a word (static) that a COLUMN=VALUE term on cell_role_col, or a
	 * plain term, also matches: the instance's state group ("failed" for
	 * crashed, failed start, unknown, offline); NULL: none */
	const char *group;
	char *cells[TABLE_MAX_COLS]; /* owned, sanitised text (in block when set) */
	double keys[TABLE_MAX_COLS]; /* sort keys of numeric columns */
	char *block;   /* table_row_build: every cell in one allocation; NULL:
			* each cell is its own allocation */
	uint64_t rev;  /* table_refill: the record's version the cells show */
	/* the filter's verdict on the row, cached: valid while match_gen is
	 * the list's filter_gen (0, as built: not known) */
	unsigned match_gen;
	bool match_ok;
};

struct table {
	const struct table_col *cols;
	int ncols;
	struct table_row *rows;
	size_t nrows;
	size_t *order;    /* every row (an index into rows) in sort order: the
			   * list's rows */
	int sort_col;
	bool sort_rev;
	unsigned visible; /* bitmask of drawn columns (filter matches these) */
	/* The list over order (widgets/list.h): the `/` filter, the rows
	 * passing it, the selection (by id), the scroll, the moves and the
	 * marks are its; a view hands it to the framework (view_ops.list). */
	struct list nav;
	/* Rows made without cells (a view that formats a row when it is
	 * first drawn): cells(cells_ctx, row, i) fills row i's cells before
	 * the filter reads them.  NULL: every row has its cells. */
	void (*cells)(void *cells_ctx, struct table_row *row, size_t i);
	void *cells_ctx;
	int natural[TABLE_MAX_COLS]; /* widest cell of each whole column, in cells */
	bool by_id;       /* rows are sorted by id with their revs (table_refill) */
	bool touched;     /* table_touch(): the next refill rebuilds every row */
};

void table_init(struct table *t, const struct table_col *cols, int ncols, int sort_col);
void table_free(struct table *t);
/* Take over rows (and their cells); re-filter, re-sort, keep the selection. */
void table_set_rows(struct table *t, struct table_row *rows, size_t n);
void table_set_filter(struct table *t, const char *filter);
void table_set_sort(struct table *t, int col, bool rev);
void table_sort_step(struct table *t, int delta); /* previous/next column */
void table_set_visible(struct table *t, unsigned mask);
/* Sort again, filter again (the list), the selection back on its id. */
void table_apply(struct table *t);

/* The list under the table (a view's .list: the framework moves it,
 * pages it and filters it). */
struct list *table_list(struct table *t);
const char *table_filter(const struct table *t);
/* The rows passing the filter, and the k-th of them (0 first) in sort
 * order, NULL past the last. */
size_t table_count(const struct table *t);
const struct table_row *table_row_at(const struct table *t, size_t k);
/* Row r of the list (list_row_at, list_draw, list_selected: a place in
 * the sort order), NULL when none; table_index gives its index in rows
 * (LIST_NONE when none). */
const struct table_row *table_row_of(const struct table *t, size_t r);
size_t table_index(const struct table *t, size_t r);

/* Moves: by delta rows (clamped), to the first or last row. */
void table_move(struct table *t, long delta);
void table_home(struct table *t);
void table_end(struct table *t);
bool table_select_id(struct table *t, long id);
const struct table_row *table_selected(const struct table *t);
/* Scroll so that the selection is visible in a window of h rows. */
void table_scroll(struct table *t, int h);
/* Column index by title, case-insensitive ("$/h", "gpus"); -1 if none. */
int table_col_by_name(const struct table *t, const char *name);

/* Column widths for a total width: w[i] = 0 for a dropped column.  Columns
 * are separated by one space; the least important columns are dropped
 * until the rest fit, spare width goes to flexible columns.  Returns the
 * bitmask of shown columns. */
unsigned table_widths(const struct table_col *cols, int ncols, int width, int *w);
/* The same, where natural[c] (may be NULL) is the width of the widest cell
 * of each column: a whole column is given exactly that (at least its
 * minimum), never less. */
unsigned table_widths_fit(const struct table_col *cols, int ncols, int width, const int *natural,
			  int *w);
/* The filter: case-insensitive text in any visible cell; COLUMN=VALUE
 * (status=running, gpu=4090: the column by a prefix of its title) in that
 * column, the row's group word counting as text of column cell_role_col
 * (status=failed: every failed state); !TERM negates (!running); with such
 * terms, every space-separated term must match. */
bool table_row_matches(const struct table *t, const struct table_row *r, const char *filter);
void table_row_free(struct table_row *r, int ncols);
/* One row from rec through the columns' accessors (id and roles are the
 * caller's: set them after). */
void table_row_build(struct table_row *row, const struct table_col *cols, int ncols,
		     const void *rec, const void *ctx);
/* Rows from n records stride bytes apart: table_row_build(), then
 * finish(row, rec, ctx) (may be NULL) sets id and roles; the selection
 * stays on its id. */
void table_fill(struct table *t, const void *recs, size_t n, size_t stride, const void *ctx,
		void (*finish)(struct table_row *row, const void *rec, const void *ctx));
/* The same for n records sorted by id that carry a version, record i being
 * rec_at(recs, i) (an array of records, or of pointers to records shared
 * between snapshots): a row whose id and rev are those held keeps its cells
 * and its place in the order; only new and changed rows are built
 * (table_row_build, finish), filtered and inserted where the sort puts them;
 * rows whose id is gone are dropped.
 * The selection stays on its id.  Returns whether any row was built or
 * dropped (false: the table is as it was). */
bool table_refill(struct table *t, const void *recs, size_t n,
		  const void *(*rec_at)(const void *recs, size_t i), const void *ctx,
		  long (*id_of)(const void *rec), uint64_t (*rev_of)(const void *rec),
		  void (*finish)(struct table_row *row, const void *rec, const void *ctx));
/* Something every row shows besides its record changed (the clock, the
 * pending jobs): the next table_refill() builds every row again. */
void table_touch(struct table *t);

#endif
