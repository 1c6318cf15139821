/* inst_bulk.c: planning of the actions on marked instances: the per-row
 * preconditions of inst_actions.c decide which marked rows an action fits
 * (the rest are listed as skipped, nothing is sent for them), the text of
 * the one confirmation that lists them, and the decoding of the bulk forms'
 * answers (PUT/DELETE /api/v0/instances/). */
#include "views/instances/inst_bulk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/instances/inst_actions.h"
#include "widgets/table.h"
#include "base/util.h"

const char *inst_bulk_name(enum bulk_op op)
{
	switch (op) {
	case BULK_STOP: return "stop";
	case BULK_START: return "start";
	case BULK_DESTROY: return "destroy";
	case BULK_LABEL: return "label";
	}
	return "?";
}

static const struct instance *find(const struct instance *const *rows, size_t n, long id)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i]->id == id)
			return rows[i];
	return NULL;
}

/* Why op does not fit x (the one-row key's precondition), NULL when it does. */
static const char *why_not(enum bulk_op op, const struct instance *x, char *buf, size_t n)
{
	switch (op) {
	case BULK_STOP: return inst_actions_why_not_stop(x, buf, n);
	case BULK_START: return inst_actions_why_not_start(x, buf, n);
	case BULK_DESTROY: case BULK_LABEL: return NULL;
	}
	return NULL;
}

static void plan_alloc(struct bulk_plan *p, enum bulk_op op, size_t cap)
{
	memset(p, 0, sizeof *p);
	p->op = op;
	p->ids = xcalloc(cap ? cap : 1, sizeof *p->ids);
	p->skip = xcalloc(cap ? cap : 1, sizeof *p->skip);
	p->skip_state = xcalloc(cap ? cap : 1, sizeof *p->skip_state);
}

void inst_bulk_plan(struct bulk_plan *p, enum bulk_op op, const struct instance *const *rows,
		    size_t nrows, const long *marked, size_t nmarked)
{
	plan_alloc(p, op, nmarked);
	for (size_t i = 0; i < nmarked; i++) {
		const struct instance *x = find(rows, nrows, marked[i]);
		char why[200];
		if (!x) {
			p->gone++;
		} else if (why_not(op, x, why, sizeof why)) {
			p->skip_state[p->nskip] = x->state;
			p->skip[p->nskip++] = x->id;
		} else {
			p->ids[p->n++] = x->id;
		}
	}
}

void inst_bulk_plan_failed(struct bulk_plan *p, const struct instance *const *rows, size_t nrows)
{
	plan_alloc(p, BULK_DESTROY, nrows);
	p->failed = true;
	for (size_t i = 0; i < nrows; i++)
		if (instance_state_failed(rows[i]->state))
			p->ids[p->n++] = rows[i]->id;
}

void inst_bulk_free(struct bulk_plan *p)
{
	free(p->ids);
	free(p->skip);
	free(p->skip_state);
	memset(p, 0, sizeof *p);
}

/* Append to buf (bounded). */
static void add(char *buf, size_t n, const char *s)
{
	size_t len = strlen(buf);
	if (len + 1 < n)
		snprintf(buf + len, n - len, "%s", s);
}

/* "101 (train), 102, 103 and 4 more" within budget bytes. */
static void list_ids(char *out, size_t n, const long *ids, const enum inst_state *states,
		     size_t cnt, const struct instance *const *rows, size_t nrows, size_t budget)
{
	out[0] = '\0';
	for (size_t i = 0; i < cnt; i++) {
		char item[96];
		const struct instance *x = find(rows, nrows, ids[i]);
		if (states)
			snprintf(item, sizeof item, "%ld (%s)", ids[i], instance_state_name(states[i]));
		else if (x && x->label && x->label[0])
			snprintf(item, sizeof item, "%ld (%.20s%s)", ids[i], x->label,
				 strlen(x->label) > 20 ? "..." : "");
		else
			snprintf(item, sizeof item, "%ld", ids[i]);
		size_t len = strlen(out);
		if (len + strlen(item) + 2 > budget && i > 0) {
			char more[48];
			snprintf(more, sizeof more, " and %zu more", cnt - i);
			add(out, n, more);
			return;
		}
		add(out, n, i ? ", " : "");
		add(out, n, item);
	}
}

char *inst_bulk_text(const struct bulk_plan *p, const struct instance *const *rows, size_t nrows,
		     char *buf, size_t n)
{
	char list[400], skipped[200];
	list_ids(list, sizeof list, p->ids, NULL, p->n, rows, nrows, p->nskip ? 200 : 260);
	list_ids(skipped, sizeof skipped, p->skip, p->skip_state, p->nskip, rows, nrows, 110);
	const char *effect = "";
	switch (p->op) {
	case BULK_STOP: effect = "This halts compute billing; disk charges continue."; break;
	case BULK_START: effect = "Each is billed in full once running."; break;
	case BULK_DESTROY:
		effect = "This stops all billing and permanently deletes their disks.";
		break;
	case BULK_LABEL: effect = ""; break;
	}
	char raw[1024];
	const char *verb = p->op == BULK_STOP ? "Stop" : p->op == BULK_START ? "Start"
			   : p->op == BULK_DESTROY ? "Destroy" : "New label for";
	if (p->n)
		snprintf(raw, sizeof raw, "%s %zu %sinstance%s%s: %s%s %s", verb, p->n,
			 p->failed ? "" : "marked ", p->n == 1 ? "" : "s",
			 p->failed ? " in a failure state" : "", list, p->op == BULK_LABEL ? "" : "?", effect);
	else
		snprintf(raw, sizeof raw, "No marked instance can be %s.",
			 p->op == BULK_STOP ? "stopped" : p->op == BULK_START ? "started"
			 : p->op == BULK_DESTROY ? "destroyed" : "labelled");
	if (p->nskip) {
		size_t len = strlen(raw);
		snprintf(raw + len, sizeof raw - len, " Skipped (%s does not fit their state): %s.",
			 inst_bulk_name(p->op), skipped);
	}
	double credit = 0;
	size_t ncredit = 0;
	for (size_t i = 0; p->op == BULK_DESTROY && i < p->n; i++) {
		const struct instance *x = find(rows, nrows, p->ids[i]);
		if (x && isfinite(x->credit_balance) && x->credit_balance >= 0.005) {
			credit += x->credit_balance;
			ncredit++;
		}
	}
	if (ncredit) {
		char b[32];
		size_t len = strlen(raw);
		snprintf(raw + len, sizeof raw - len,
			 " %zu of them hold%s %s of prepaid credit, refunded only in part.", ncredit,
			 ncredit == 1 ? "s" : "", fmt_money(b, sizeof b, credit));
	}
	char *clean = util_sanitize(raw);
	util_strlcpy(buf, clean, n);
	free(clean);
	return buf;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

void inst_bulk_split(const long *marks, size_t nmarks, const long *shown, size_t nshown,
		     long *vis, size_t *nvis, long *hid, size_t *nhid)
{
	*nvis = *nhid = 0;
	for (size_t i = 0; i < nmarks; i++) {
		if (nshown && bsearch(&marks[i], shown, nshown, sizeof *shown, cmp_long))
			vis[(*nvis)++] = marks[i];
		else
			hid[(*nhid)++] = marks[i];
	}
}

void inst_bulk_split_table(const struct table *t, long **vis, size_t *nvis, long **hid,
			   size_t *nhid)
{
	size_t nshown = table_count(t), nmarks;
	const long *marks = list_marks(&t->nav, &nmarks);
	long *shown = xcalloc(nshown ? nshown : 1, sizeof *shown);
	for (size_t k = 0; k < nshown; k++)
		shown[k] = t->rows[table_index(t, list_row_at(&t->nav, k))].id;
	qsort(shown, nshown, sizeof *shown, cmp_long);
	*vis = xcalloc(nmarks ? nmarks : 1, sizeof **vis);
	*hid = xcalloc(nmarks ? nmarks : 1, sizeof **hid);
	inst_bulk_split(marks, nmarks, shown, nshown, *vis, nvis, *hid, nhid);
	free(shown);
}

enum bulk_hidden_q inst_bulk_hidden_text(enum bulk_op op, size_t nvis, size_t nhid,
					 const char *filter, long sel_id, char *text, size_t n,
					 char *first, char *second)
{
	const char *name = inst_bulk_name(op);
	char raw[600], f[64];
	snprintf(f, sizeof f, "%.40s%s", filter, strlen(filter) > 40 ? "..." : "");
	enum bulk_hidden_q q;
	if (nvis) {
		q = BHQ_VISIBLE_OR_ALL;
		snprintf(raw, sizeof raw,
			 "%zu marked row%s %s hidden by the filter \"%s\": %s them too? "
			 "v: %s the %zu visible marked row%s only; a: all %zu marked rows; "
			 "Esc cancels. Marks left out stay marked.",
			 nhid, nhid == 1 ? "" : "s", nhid == 1 ? "is" : "are", f, name, name, nvis,
			 nvis == 1 ? "" : "s", nvis + nhid);
		snprintf(first, 24, "Visible only");
		snprintf(second, 24, "All marked");
	} else if (sel_id > 0) {
		q = BHQ_SELECTED_OR_MARKED;
		snprintf(raw, sizeof raw,
			 "Every marked row (%zu) is hidden by the filter \"%s\". Which to %s: the "
			 "selected instance %ld only (s), or the %zu hidden marked row%s (m)? Esc "
			 "cancels.",
			 nhid, f, name, sel_id, nhid, nhid == 1 ? "" : "s");
		snprintf(first, 24, "Selected row");
		snprintf(second, 24, "Marked rows");
	} else {
		q = BHQ_MARKED_ONLY;
		snprintf(raw, sizeof raw, "Every marked row (%zu) is hidden by the filter \"%s\": %s "
			 "them?", nhid, f, name);
		first[0] = '\0';
		snprintf(second, 24, "Marked rows");
	}
	raw[0] = (char)(raw[0] >= 'a' && raw[0] <= 'z' ? raw[0] - 'a' + 'A' : raw[0]);
	char *clean = util_sanitize(raw);
	util_strlcpy(text, clean, n);
	free(clean);
	return q;
}

void *inst_bulk_map(const json_t *root, struct api_error *e)
{
	const json_t *done = json_object_get(root, "changed");
	if (!done)
		done = json_object_get(root, "destroyed");
	const json_t *queued = json_object_get(root, "queued");
	const json_t *missing = json_object_get(root, "not_found");
	if (!json_is_object(root)) {
		apierr_protocol(e, 200, "the bulk answer is not an object");
		return NULL;
	}
	struct bulk_answer *b = xcalloc(1, sizeof *b);
	/* a service that answers only {"success":true} did them all: done -1 */
	b->done = json_is_array(done) ? (int)json_array_size(done) : -1;
	b->queued = json_is_array(queued) ? (int)json_array_size(queued) : 0;
	b->missing = json_is_array(missing) ? (int)json_array_size(missing) : 0;
	return b;
}
