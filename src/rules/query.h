/* query.h: the official CLI's offer query language ("gpu_name=RTX_4090
 * num_gpus>=2 reliability>0.98 dph<1.5 verified=any") to the JSON body of
 * POST /api/v0/bundles/.  Pure; any thread. */
#ifndef RENTOP_QUERY_H
#define RENTOP_QUERY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct query_error {
	int pos;            /* byte offset of the bad token in the text, -1 when none */
	int len;            /* its length */
	char msg[200];      /* "unknown operator '=>' at column 12" */
};

/* What a query filters: offers (POST /api/v0/bundles/) or templates
 * (GET /api/v0/template/?select_filters=); each has its own field list. */
enum query_target {
	QUERY_OFFERS,
	QUERY_TEMPLATES,
};

/* Parse text into a new filters object, starting from the CLI's defaults
 * (verified eq true, external eq false, rentable eq true, rented eq false)
 * unless no_defaults.  Returns NULL and fills *err on a syntax error. */
json_t *query_parse(const char *text, bool no_defaults, struct query_error *err);
/* The same for either target.  A field the target does not have is an error
 * at that field naming the nearest valid one: "unknown field gpu_nam (did
 * you mean gpu_name?) at column 1".  Templates never get default filters. */
json_t *query_parse_for(enum query_target t, const char *text, bool no_defaults,
			struct query_error *err);
/* The query-language text of a filters object (what query_parse builds, or
 * a service's parsed search, as the docs give a workergroup's search_query):
 * "field op value" for each condition, GB and day fields divided back
 * (gpu_ram 24000 -> 24), a driver_version integer dotted again (535086005 ->
 * 535.86.5), booleans and null as words, spaces in strings as underscores,
 * lists as [a,b]; parsing it gives the same filters.  NULL when a part has
 * no such form (an unknown operator, a nested value, a string the language
 * cannot carry): the caller shows the JSON.  malloc'd. */
char *query_text(const json_t *filters);
/* Is field (or its alias) a field of target?  The nearest known name to a
 * misspelt one, or NULL when nothing is close. */
bool query_field_known(enum query_target t, const char *field);
const char *query_field_nearest(enum query_target t, const char *field);

/* The full search body: filters plus "order" ([[field, dir]]; order may be
 * "score-" style: a trailing '-' means desc; NULL = [["score","desc"]]),
 * "type" ("on-demand", "bid", "reserved"; NULL = on-demand), "limit" (0 = none)
 * and "allocated_storage" (GB; 0 = 5.0). */
json_t *query_search_body(const char *text, const char *order, const char *type, int limit,
			  double allocated_storage, struct query_error *err);

/* The operator's search line, as `:offers` and `--dump offers --query`
 * take it: filters in the query language mixed with the CLI's options
 *   -o/--order ORDER     "dph+", "score-", "dph+,reliability-" (CLI syntax)
 *   -t/--type TYPE       on-demand | bid (interruptible) | reserved
 *   -d/--on-demand, -b/--bid, -i/--interruptible, -r/--reserved
 *   -n/--no-default      drop the default filters
 *   --limit N            at most N offers (the service's order first)
 *   --storage GB, --disk GB   disk to price (allocated_storage; default 5)
 * Option tokens are blanked out of `filters`, so a filter error's column is
 * the column in the line as typed. */
struct query_cmd {
	char *filters;       /* malloc'd, same length as the line */
	char *order;         /* malloc'd, NULL = score desc */
	char type[16];       /* "on-demand", "bid" or "reserved" */
	bool no_default;
	int limit;           /* 0 = the service's default */
	double storage;      /* GB, 0 = the CLI's 5 */
};
/* Parse line into *c (zeroed first; free with query_cmd_free).  False with
 * *err (pos = byte offset in line) on a bad option or value; the filters
 * themselves are checked by query_cmd_body. */
bool query_cmd_parse(const char *line, struct query_cmd *c, struct query_error *err);
/* The POST /api/v0/bundles/ body of a parsed line, or NULL with *err (pos
 * in the line as typed). */
json_t *query_cmd_body(const struct query_cmd *c, struct query_error *err);
void query_cmd_free(struct query_cmd *c);

/* Which CLI default filters are in force in a search body (or filters
 * object), for the view to show: "defaults: verified, rentable, not rented,
 * not external", "defaults: verified, rentable (rented, external changed)",
 * or "no default filters".  Into buf; returns buf. */
char *query_defaults_desc(const json_t *body, char *buf, size_t n);

/* The sort keys the offers view offers, in its order (data, not code). */
struct query_sort_key {
	const char *field;   /* the order field sent */
	const char *label;   /* for the header/help */
	bool desc;           /* the natural direction (best first) */
};
extern const struct query_sort_key query_sort_keys[];
extern const size_t query_nsort_keys;
/* The -o text for key i, inverted or not ("dph_total+", "score-"), into buf. */
char *query_sort_order(size_t i, bool invert, char *buf, size_t n);

/* The field names of target (and, for offers, their aliases: dph, ...) for
 * completion: at most max pointers to static strings; returns how many. */
size_t query_field_names(enum query_target t, const char **out, size_t max);

/* Canonical field name for an alias (dph -> dph_total, ...); the input when none. */
const char *query_alias(const char *field);

#endif
