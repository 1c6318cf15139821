/* inst_bulk.h: actions on the marked rows of the instance table (stop,
 * start, destroy, label) and `:destroy-failed`: which marked instances an
 * action fits and which it skips (the same row-state preconditions as the
 * one-row keys), the confirmation's text listing them, and the mapper of
 * the service's bulk answers.  Pure (no curses, no app); the mapper runs on
 * the poller thread, the rest on the UI thread. */
#ifndef RENTOP_UI_INST_BULK_H
#define RENTOP_UI_INST_BULK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"
#include "state/model.h"

struct table;

enum bulk_op { BULK_STOP, BULK_START, BULK_DESTROY, BULK_LABEL };

/* What a bulk action does to the marked instances. */
struct bulk_plan {
	enum bulk_op op;
	long *ids;        /* the instances it fits, in marking order (malloc'd) */
	size_t n;
	long *skip;       /* marked instances whose state does not allow it (malloc'd) */
	enum inst_state *skip_state;
	size_t nskip;
	size_t gone;      /* marked ids no longer listed (dropped silently) */
	bool failed;      /* the plan of :destroy-failed (not of marks) */
};

/* The answer of a bulk form: how many it changed, queued (a start that
 * waits for its GPU) and did not find. */
struct bulk_answer {
	int done, queued, missing;
};

const char *inst_bulk_name(enum bulk_op op); /* "stop", "start", "destroy", "label" */
/* Plan op over the marked ids (nmarked of them) against the listed rows. */
void inst_bulk_plan(struct bulk_plan *p, enum bulk_op op, const struct instance *const *rows,
		    size_t nrows, const long *marked, size_t nmarked);
/* The plan of `:destroy-failed`: every listed instance in a failure state
 * (instance_state_failed). */
void inst_bulk_plan_failed(struct bulk_plan *p, const struct instance *const *rows, size_t nrows);
void inst_bulk_free(struct bulk_plan *p);
/* The confirmation's text: the question naming the instances (id and
 * label; "and N more" past what fits), what happens, and the skipped ones
 * with their state.  Sanitised.  Returns buf. */
char *inst_bulk_text(const struct bulk_plan *p, const struct instance *const *rows, size_t nrows,
		     char *buf, size_t n);
/* Marks a filter hides: the marked ids (nmarks) split into those the
 * table shows (shown: the ids of the rows in view, sorted ascending) and
 * those it hides, each list in marking order (vis, hid: room for nmarks). */
void inst_bulk_split(const long *marks, size_t nmarks, const long *shown, size_t nshown,
		     long *vis, size_t *nvis, long *hid, size_t *nhid);
/* The same for the marks of the instance table (its list's, widgets/list.h)
 * against the rows its filter shows: vis and hid malloc'd (the caller
 * frees both). */
void inst_bulk_split_table(const struct table *t, long **vis, size_t *nvis, long **hid,
			   size_t *nhid);

/* The question asked before a bulk key acts while nhid marked rows are
 * hidden by the filter: which rows to act on. */
enum bulk_hidden_q {
	BHQ_VISIBLE_OR_ALL,   /* some marks shown: "Visible only" or "All marked" */
	BHQ_SELECTED_OR_MARKED, /* none shown: the selected row or the hidden marks */
	BHQ_MARKED_ONLY,      /* none shown, no row selected: the hidden marks or nothing */
};
/* The question's kind, text (sanitised) and its two answers (first,
 * second: room for 24 bytes; BHQ_MARKED_ONLY: the confirmation's button in
 * second, first empty).  filter: the table's filter text; sel_id: the
 * selected row, 0 when none. */
enum bulk_hidden_q inst_bulk_hidden_text(enum bulk_op op, size_t nvis, size_t nhid,
					 const char *filter, long sel_id, char *text, size_t n,
					 char *first, char *second);

/* jobs_map_fn of the bulk forms ({"changed","queued","not_found"} or
 * {"destroyed","not_found"}): a malloc'd struct bulk_answer. */
void *inst_bulk_map(const json_t *root, struct api_error *e);

#endif
