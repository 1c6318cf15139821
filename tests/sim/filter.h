/* filter.h: the service's query filters and orderings over JSON records:
 * select_filters `{"field":{"op":value}}` with eq, neq, lt, lte, gt, gte, in,
 * notin (numbers may arrive as strings), and multi-key sorting.  Pure
 * functions; no locking needed. */
#ifndef RENTOP_SIM_FILTER_H
#define RENTOP_SIM_FILTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Check that filters is an object of {op: value} objects (or bare values,
 * meaning eq) with known operators; on failure write a message to err. */
bool filter_valid(const json_t *filters, char *err, size_t errn);
/* True when obj passes every filter.  Fields obj lacks are not filtered on;
 * keys listed in skip (NULL-terminated) are ignored. */
bool filter_match(const json_t *obj, const json_t *filters, const char *const *skip);

/* The same filters compiled once for many records (searches over
 * thousands of offers or instances). */
struct filter_prog;
struct filter_prog *filter_compile(const json_t *filters, const char *const *skip);
bool filter_prog_match(const struct filter_prog *p, const json_t *obj);
/* Its conditions, each on one field: filter_prog_field(p, k) for k <
 * filter_prog_nconds(p); filter_prog_match_vals tests a record given the
 * value of each condition's field (vals[k], NULL when the record lacks it),
 * for callers that keep the fields' values in columns. */
size_t filter_prog_nconds(const struct filter_prog *p);
const char *filter_prog_field(const struct filter_prog *p, size_t k);
bool filter_prog_match_vals(const struct filter_prog *p, const json_t *const *vals);
void filter_prog_free(struct filter_prog *p);

/* One sort key: a field, or (value not NULL) a figure computed from the
 * record, NAN when none (a search's dph_total priced for its storage or
 * bid, as the answer states it). */
struct sort_key {
	const char *field;
	bool desc;
	double (*value)(const json_t *rec, const void *arg);
	const void *arg;
};
/* Parse an ordering: [["f","desc"],...], [{"col":"f","dir":"desc"}], or
 * ["f", ...]; at most max keys; returns the count. */
size_t filter_parse_order(const json_t *order, struct sort_key *keys, size_t max);
/* Stable sort of n records by the keys (ties keep input order). */
void filter_sort(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys);
/* Like filter_sort, but only the first k records need to be the sorted
 * top k (the rest are left in any order): O(n) selection plus O(k log k). */
void filter_top(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys, size_t k);
/* filter_top, and pos[i] (when not NULL, n entries) the input position of
 * the record now at i. */
void filter_top_pos(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys, size_t k,
		    size_t *pos);

#endif
