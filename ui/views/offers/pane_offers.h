/* pane_offers.h: the offers view's pure pieces, for the unit tests: the
 * search line in its canonical form (what `/` pre-fills), the sort key of
 * an order, and the table's rows built with their cells made on demand.  UI thread (pure: no curses, no I/O). */
#ifndef RENTOP_UI_PANE_OFFERS_H
#define RENTOP_UI_PANE_OFFERS_H

#include <stdbool.h>
#include <stddef.h>

#include "keymap.h"
#include "rules/query.h"

/* The line of c as the operator would type it: the filters with runs of
 * blanks collapsed, then "-o ORDER" (when not the default), "-t TYPE" (when
 * not on-demand), "-n", "--limit N", "--storage GB".  Into buf; returns buf. */
char *pane_offers_line(const struct query_cmd *c, char *buf, size_t n);
/* The index in query_sort_keys of order ("dph_total+"; NULL: score desc)
 * and whether it is the key's natural direction inverted; -1 when order is
 * none of the keys (a custom -o). */
int pane_offers_sort_key(const char *order, int *inverted);
/* The next type after type in the `t` cycle: on-demand -> bid -> reserved. */
const char *pane_offers_next_type(const char *type);

struct offer;
struct table;
struct table_col;
struct table_row;
/* The offers table's columns (*n of them). */
const struct table_col *pane_offers_cols(int *n);
/* t's rows for the offers v[0..n) priced for disk GB (row i is v[i]): ids
 * and roles, the view and the selection as table_fill() makes them, and the
 * widths of the whole columns (t->natural), but no cells yet:
 * pane_offers_cells() makes a row's when it is drawn. */
void pane_offers_fill(struct table *t, const struct offer *v, size_t n, double disk);
/* The cells of row (offer o priced for disk GB), made once: what
 * table_fill() would have given it. */
void pane_offers_cells(struct table_row *row, const struct offer *o, double disk);

/* What a built-in action does in the offers view, decided without touching
 * it (pure): the key handler applies it. */
enum off_op {
	OFF_PASS,          /* not the view's: the app's own (the moves: the
			    * table's list, view_ops.list) */
	OFF_NOTHING,       /* the view's, but nothing changes (nothing redrawn) */
	OFF_SORT,          /* a new search, the sort key delta steps on (< >) */
	OFF_INVERT,        /* a new search, the sort inverted (i) */
	OFF_REFRESH,       /* the search again (r) */
	OFF_STOP_REPLACE,  /* Esc: the replacement of an instance (O) stops */
	OFF_DETAIL_SCROLL, /* the offer's detail by delta lines */
	OFF_DETAIL_CLOSE,
};
struct off_intent {
	enum off_op op;
	long delta;
};
/* What the handler knows when a key comes. */
struct off_keyctx {
	bool detail;       /* the selected offer's detail is shown */
	int dtop;          /* its first line drawn */
	bool replacing;    /* an instance is being replaced (O) */
};

struct off_intent pane_offers_intent(enum action act, const struct off_keyctx *k);

struct keymap;
/* Register `O` (replace: offers like the selected instance, then the
 * create form prefilled from it) in ctx, a view whose rows are instances. */
void pane_offers_replace_keys(struct keymap *km, int ctx);
/* UI thread: the offers view on offers like instance id (O); fix_image:
 * its image failed to pull, the form is to fix it (said). */
void pane_offers_replace(struct app *a, long id, bool fix_image);
/* UI thread: the answer to O's question on an image that failed to pull
 * (its dialog's choice): focus 0 fixes the image in the form, 1 opens the
 * templates (an instance from a template) or rents the same image, 2 asks
 * the recycle of the instance on its machine (offers_fix_answer). */
void pane_offers_replace_answer(struct app *a, long id, int focus);
struct template_rec;
/* UI thread: rent with template t (copied): the offers view searches for
 * what it needs (offers_template_search) and c there opens the form filled
 * from it; Esc goes back to the templates. */
void pane_offers_rent_template(struct app *a, const struct template_rec *t);

/* The service's GPU names for gpu_name= completion: NULL until read (the
 * first call asks for them; the offers view takes the answer).  UI thread. */
struct gpu_names;
const struct gpu_names *pane_offers_gpu_names(struct app *a);

struct create_ui;
/* `:launch` (launch.c) told the answer of its search: offers v[0..n) in
 * the table's order (n 0: none matched), or err (the failure, n 0), and
 * the offers view's create form to confirm in. */
typedef void (*pane_offers_found_fn)(struct app *a, const struct offer *v, size_t n,
				     const char *err, struct create_ui *cu);
/* UI thread: the offers view shown searching line (as `:offers LINE`,
 * paced the same); fn is told once when that search answers (or with err
 * when another search replaces it before it is sent).  False, fn never
 * told, when the line is refused (the view's status says why). */
bool pane_offers_search_for(struct app *a, const char *line, pane_offers_found_fn fn);

#endif
