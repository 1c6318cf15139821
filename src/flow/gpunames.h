/* gpunames.h: the service's GPU names (GET /api/v0/gpu_names/unique/) and
 * what the offers view and the completion do with them: the names that
 * contain a fragment (case-insensitively, an underscore standing for a
 * space as in the query language, query.h), and the check of a search's
 * gpu_name condition: a value that is not one of the names is said, with
 * the names that contain it.  Pure; any thread; results are the caller's. */
#ifndef RENTOP_FLOW_GPUNAMES_H
#define RENTOP_FLOW_GPUNAMES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"

struct gpu_names {
	char **v;  /* the names as the service spells them ("RTX 4090"), sanitised */
	size_t n;
};

/* The answer {"gpu_names":[...]} as names (a jobs_map_fn: the strings kept,
 * anything else in the list skipped); NULL with *e when there is no list. */
void *gpunames_from_json(const json_t *root, struct api_error *e);
void gpunames_free(void *g);

/* Does name contain frag, case-insensitively, '_' and ' ' alike? */
bool gpunames_contains(const char *name, const char *frag);
/* The names that contain frag, at most max, in the service's order, into out
 * (pointers into g); returns how many. */
size_t gpunames_match(const struct gpu_names *g, const char *frag, const char **out, size_t max);

/* A search's gpu_name condition (body: a filters object or a whole search
 * body, query.h) against g: for each "eq" (or "in" item) value that is not
 * exactly one of the names, msg gets "gpu_name=4090 is not a GPU name:
 * RTX 4090, RTX 4090D — Tab completes" (the value as typed, underscores for
 * spaces), or "... is not a GPU name (none contains it)".  True when msg was
 * written; false (msg "") for an exact name, no gpu_name condition, or no
 * names known. */
bool gpunames_check(const struct gpu_names *g, const json_t *body, char *msg, size_t n);

#endif
