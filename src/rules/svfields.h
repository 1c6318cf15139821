/* svfields.h: the one mapping of serverless endpoint and workergroup fields
 * between the model's structs, text and the autoscaler forms: for each field
 * its key (as the service names it), label, kind and accepted range; the
 * value of a field as text (the form's initial text, the --dump cell); the
 * check and the parse of a typed value (ranges, the query language for a
 * workergroup's search query, a template hash, an endpoint name); a record
 * built from a copy of the old one plus typed values, and the checks across
 * fields (cold_workers <= max_workers, target_queue_time <=
 * max_queue_time).  An optional number left empty is missing (NAN: the
 * service's default; an empty inactivity_timeout: never scaled to zero).  The serverless view's forms and
 * --dump endpoints / workergroups both go through it; the PUT of only the
 * changed fields is api_serverless.c's.  No secret field is mapped (the
 * api_key of either is never kept).  Pure; any thread. */
#ifndef RENTOP_SVFIELDS_H
#define RENTOP_SVFIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "state/model.h"
#include "rules/workers.h"

enum svf_target { SVF_ENDPOINT, SVF_WORKERGROUP };

enum svf_kind {
	SVK_NUMBER,   /* a real in [lo, hi] */
	SVK_INTEGER,  /* a whole number in [lo, hi] */
	SVK_NAME,     /* an endpoint name: 1-64 of letters, digits, - _ . */
	SVK_HASH,     /* a template hash: 32 hex digits (empty: none) */
	SVK_QUERY,    /* an offer query in the CLI's language (query.h) */
	SVK_TEXT,     /* free text of at most hi characters (launch args) */
	SVK_STATE,    /* an endpoint state: active, suspended or stopped */
};

/* Where a field appears. */
#define SVF_CREATE 0x1u   /* in the create form */
#define SVF_EDIT 0x2u     /* in the edit form (sent when changed) */
#define SVF_REQUIRED 0x4u /* not empty */

struct svfields_def {
	const char *key;    /* the service's name (the form's field name) */
	const char *label;  /* "target_util (0-1)" */
	enum svf_kind kind;
	double lo, hi;      /* NUMBER, INTEGER: the range; TEXT: hi is the length */
	unsigned flags;     /* SVF_* */
	const char *deflt;  /* the create form's initial text */
};

/* The fields of a target in form order; *n gets the count. */
const struct svfields_def *svfields_defs(enum svf_target t, size_t *n);
/* The field called key, or NULL. */
const struct svfields_def *svfields_def(enum svf_target t, const char *key);

/* Is text a valid value of d?  False with a message in err ("target_util
 * must be between 0 and 1", "unknown field gpu_nam (did you mean
 * gpu_name?) at column 1"). Leading and trailing blanks are ignored. */
bool svfields_check(const struct svfields_def *d, const char *text, char *err, size_t n);

/* The value of field key of e (g) as text, into buf: "0.9", "10", the name;
 * "" for a missing number (NAN) or string; NULL when key is not mapped. */
const char *svfields_endpoint_text(const struct endpoint *e, const char *key, char *buf, size_t n);
const char *svfields_workergroup_text(const struct workergroup *g, const char *key, char *buf,
				 size_t n);

/* Deep copies (strings malloc'd); released with model_endpoint_clear() and
 * model_workergroup_clear() (model.h). */
void svfields_endpoint_copy(struct endpoint *dst, const struct endpoint *src);
void svfields_workergroup_copy(struct workergroup *dst, const struct workergroup *src);

/* Check text and store it in field key of e (g).  False with err (nothing
 * changed) when it is invalid or key is not a field of the target. */
bool svfields_endpoint_set(struct endpoint *e, const char *key, const char *text, char *err, size_t n);
bool svfields_workergroup_set(struct workergroup *g, const char *key, const char *text, char *err,
			 size_t n);

/* Checks across fields, after every field was set: false with the field
 * to blame in *field and a message in err (cold_workers above
 * max_workers). */
bool svfields_endpoint_consistent(const struct endpoint *e, const char **field, char *err, size_t n);
bool svfields_workergroup_consistent(const struct workergroup *g, const char **field, char *err,
				size_t n);

/* ---- the --dump tables --------------------------------------------------- */

/* The worker health of an endpoint for a table cell: "5 (3 run 1 load 0
 * idle 1 err)" and "42.0/120.0"; "?" for both when have is false (the
 * fetch failed). */
void svfields_workers_cells(const struct workers_health *h, bool have, char *workers, size_t wn,
		       char *load, size_t ln);

#endif
