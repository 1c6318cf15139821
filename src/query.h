/* query.h: the official CLI's offer query language ("gpu_name=RTX_4090
 * num_gpus>=2 reliability>0.98 dph<1.5 verified=any") to the JSON body of
 * POST /api/v0/bundles/.  Pure; any thread. */
#ifndef RENTOP_QUERY_H
#define RENTOP_QUERY_H

#include <jansson.h>
#include <stdbool.h>

struct query_error {
	int pos;            /* byte offset of the bad token in the text, -1 when none */
	int len;            /* its length */
	char msg[200];      /* "unknown operator '=>' at column 12" */
};

/* Parse text into a new filters object, starting from the CLI's defaults
 * (verified eq true, external eq false, rentable eq true, rented eq false)
 * unless no_defaults.  Returns NULL and fills *err on a syntax error. */
json_t *query_parse(const char *text, bool no_defaults, struct query_error *err);

/* The full search body: filters plus "order" ([[field, dir]]; order may be
 * "score-" style: a trailing '-' means desc; NULL = [["score","desc"]]),
 * "type" ("on-demand", "bid", "reserved"; NULL = on-demand), "limit" (0 = none)
 * and "allocated_storage" (GB; 0 = 5.0). */
json_t *query_search_body(const char *text, const char *order, const char *type, int limit,
			  double allocated_storage, struct query_error *err);

/* Canonical field name for an alias (dph -> dph_total, ...); the input when none. */
const char *query_alias(const char *field);

#endif
