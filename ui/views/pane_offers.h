/* pane_offers.h: the offers view's pure pieces, for the unit tests: the
 * search line in its canonical form (what `/` pre-fills) and the sort key
 * of an order.  UI thread (pure: no curses, no I/O). */
#ifndef RENTOP_UI_PANE_OFFERS_H
#define RENTOP_UI_PANE_OFFERS_H

#include <stddef.h>

#include "query.h"

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

struct keymap;
/* Register `O` (replace: offers like the selected instance, then the
 * create form prefilled from it) in ctx, a view whose rows are instances. */
void pane_offers_replace_keys(struct keymap *km, int ctx);

#endif
