/* filter.c: evaluation of select_filters against JSON records and sorting
 * of records by one or more fields.  Numbers given as strings compare as
 * numbers (the CLI's query language sends them so); strings compare
 * bytewise; null equals only null. */
#include "filter.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"

static const char *const ops[] = { "eq", "neq", "lt", "lte", "gt", "gte", "in", "notin", NULL };

static bool known_op(const char *op)
{
	for (size_t i = 0; ops[i]; i++)
		if (!strcmp(ops[i], op))
			return true;
	return false;
}

bool filter_valid(const json_t *filters, char *err, size_t errn)
{
	if (!filters || json_is_null(filters))
		return true;
	if (!json_is_object(filters)) {
		snprintf(err, errn, "select_filters must be an object");
		return false;
	}
	const char *field;
	json_t *cond;
	json_object_foreach((json_t *)filters, field, cond) {
		if (!json_is_object(cond))
			continue;
		const char *op;
		json_t *v;
		json_object_foreach(cond, op, v) {
			if (!known_op(op)) {
				snprintf(err, errn, "invalid operator '%s' for field '%s'", op, field);
				return false;
			}
			if ((!strcmp(op, "in") || !strcmp(op, "notin")) && !json_is_array(v)) {
				snprintf(err, errn, "operator '%s' needs an array for field '%s'", op, field);
				return false;
			}
		}
	}
	return true;
}

/* Compare a record value with a filter value: <0, 0, >0, or 2 when they
 * cannot be compared (different kinds). */
static int cmp_values(const json_t *a, const json_t *b)
{
	if (json_is_null(a) || json_is_null(b))
		return json_is_null(a) && json_is_null(b) ? 0 : 2;
	if (json_is_boolean(a)) {
		bool bv;
		if (json_is_boolean(b))
			bv = json_is_true(b);
		else if (json_is_string(b) && (!strcmp(json_string_value(b), "true") || !strcmp(json_string_value(b), "True")))
			bv = true;
		else if (json_is_string(b) && (!strcmp(json_string_value(b), "false") || !strcmp(json_string_value(b), "False")))
			bv = false;
		else if (json_is_number(b))
			bv = json_number_value(b) != 0;
		else
			return 2;
		return (int)json_is_true(a) - (int)bv;
	}
	if (json_is_number(a)) {
		double x = json_number_value(a), y;
		if (!jnum_value(b, &y))
			return 2;
		return x < y ? -1 : x > y ? 1 : 0;
	}
	if (json_is_string(a)) {
		if (!json_is_string(b)) {
			double x, y;
			if (jnum_value(a, &x) && jnum_value(b, &y))
				return x < y ? -1 : x > y ? 1 : 0;
			return 2;
		}
		int c = strcmp(json_string_value(a), json_string_value(b));
		return c < 0 ? -1 : c > 0 ? 1 : 0;
	}
	return json_equal((json_t *)a, (json_t *)b) ? 0 : 2;
}

static bool in_list(const json_t *v, const json_t *list)
{
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e)
		if (cmp_values(v, e) == 0)
			return true;
	return false;
}

enum op { OP_EQ, OP_NEQ, OP_LT, OP_LTE, OP_GT, OP_GTE, OP_IN, OP_NOTIN };
static const char *const opnames[] = { "eq", "neq", "lt", "lte", "gt", "gte", "in", "notin" };

static enum op op_of(const char *op)
{
	for (size_t i = 0; i < sizeof opnames / sizeof *opnames; i++)
		if (!strcmp(opnames[i], op))
			return (enum op)i;
	return OP_EQ;
}

static bool test_op_e(const json_t *v, enum op op, const json_t *want)
{
	if (op == OP_IN)
		return in_list(v, want);
	if (op == OP_NOTIN)
		return !in_list(v, want);
	int c = cmp_values(v, want);
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NEQ: return c != 0;
	case OP_LT: return c != 2 && c < 0;
	case OP_LTE: return c != 2 && c <= 0;
	case OP_GT: return c != 2 && c > 0;
	case OP_GTE: return c != 2 && c >= 0;
	case OP_IN:
	case OP_NOTIN:
		break;
	}
	return false;
}

static bool test_op(const json_t *v, const char *op, const json_t *want)
{
	return test_op_e(v, op_of(op), want);
}

static bool skipped(const char *field, const char *const *skip)
{
	for (size_t i = 0; skip && skip[i]; i++)
		if (!strcmp(skip[i], field))
			return true;
	return false;
}

bool filter_match(const json_t *obj, const json_t *filters, const char *const *skip)
{
	if (!json_is_object(filters))
		return true;
	const char *field;
	json_t *cond;
	json_object_foreach((json_t *)filters, field, cond) {
		if (skipped(field, skip))
			continue;
		json_t *v = json_object_get(obj, field);
		if (!v)
			continue;
		if (!json_is_object(cond)) {
			if (!test_op(v, "eq", cond))
				return false;
			continue;
		}
		const char *op;
		json_t *want;
		json_object_foreach(cond, op, want)
			if (!test_op(v, op, want))
				return false;
	}
	return true;
}

struct cond {
	const char *field;
	enum op op;
	const json_t *want;
};

struct filter_prog {
	struct cond *c;
	size_t n;
};

struct filter_prog *filter_compile(const json_t *filters, const char *const *skip)
{
	struct filter_prog *p = calloc(1, sizeof *p);
	if (!p)
		abort();
	if (!json_is_object(filters))
		return p;
	size_t cap = 0;
	const char *field;
	json_t *cond;
	json_object_foreach((json_t *)filters, field, cond) {
		if (skipped(field, skip))
			continue;
		const char *op;
		json_t *want;
		json_t *single = json_is_object(cond) ? NULL : cond;
		size_t k = single ? 1 : json_object_size(cond);
		if (p->n + k > cap) {
			cap = (p->n + k) * 2;
			p->c = realloc(p->c, cap * sizeof *p->c);
			if (!p->c)
				abort();
		}
		if (single) {
			p->c[p->n++] = (struct cond){ field, OP_EQ, single };
			continue;
		}
		json_object_foreach(cond, op, want)
			p->c[p->n++] = (struct cond){ field, op_of(op), want };
	}
	return p;
}

bool filter_prog_match(const struct filter_prog *p, const json_t *obj)
{
	for (size_t i = 0; i < p->n; i++) {
		const json_t *v = json_object_get(obj, p->c[i].field);
		if (!v)
			continue;
		if (!test_op_e(v, p->c[i].op, p->c[i].want))
			return false;
	}
	return true;
}

size_t filter_prog_nconds(const struct filter_prog *p)
{
	return p->n;
}

const char *filter_prog_field(const struct filter_prog *p, size_t k)
{
	return p->c[k].field;
}

bool filter_prog_match_vals(const struct filter_prog *p, const json_t *const *vals)
{
	for (size_t i = 0; i < p->n; i++)
		if (vals[i] && !test_op_e(vals[i], p->c[i].op, p->c[i].want))
			return false;
	return true;
}

void filter_prog_free(struct filter_prog *p)
{
	if (p) {
		free(p->c);
		free(p);
	}
}

size_t filter_parse_order(const json_t *order, struct sort_key *keys, size_t max)
{
	size_t n = 0;
	if (json_is_string(order)) {
		keys[0].field = json_string_value(order);
		keys[0].desc = false;
		keys[0].value = NULL;
		keys[0].arg = NULL;
		return max ? 1 : 0;
	}
	size_t i;
	json_t *e;
	json_array_foreach(order, i, e) {
		if (n >= max)
			break;
		const char *f = NULL, *dir = NULL;
		if (json_is_array(e)) {
			f = json_string_value(json_array_get(e, 0));
			dir = json_string_value(json_array_get(e, 1));
		} else if (json_is_object(e)) {
			f = jstr(e, "col");
			dir = jstr(e, "dir");
		} else if (json_is_string(e)) {
			f = json_string_value(e);
			if (f && f[0] == '-') {
				f++;
				dir = "desc";
			}
		}
		if (!f)
			continue;
		keys[n].field = f;
		keys[n].desc = dir && (!strcmp(dir, "desc") || !strcmp(dir, "DESC") || !strcmp(dir, "-"));
		keys[n].value = NULL;
		keys[n].arg = NULL;
		n++;
	}
	return n;
}

#define MAXK 3
struct ent {
	json_t *o;
	size_t pos;
	double d[MAXK];
	const char *s[MAXK];
	bool num[MAXK];
};

/* sort context (qsort has no user data); callers hold the state lock */
static const struct sort_key *g_keys;
static size_t g_nkeys;

static int cmp_ent(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;
	for (size_t k = 0; k < g_nkeys; k++) {
		int c = 0;
		if (a->num[k] && b->num[k])
			c = a->d[k] < b->d[k] ? -1 : a->d[k] > b->d[k] ? 1 : 0;
		else if (a->s[k] && b->s[k])
			c = strcmp(a->s[k], b->s[k]);
		else
			c = (a->num[k] || a->s[k]) ? -1 : (b->num[k] || b->s[k]) ? 1 : 0; /* nulls last */
		if (c)
			return g_keys[k].desc && ((a->num[k] || a->s[k]) && (b->num[k] || b->s[k])) ? -c : c;
	}
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void swap_ent(struct ent *a, struct ent *b)
{
	struct ent t = *a;
	*a = *b;
	*b = t;
}

/* Quickselect: afterwards e[0..k) hold the k smallest entries (unordered). */
static void select_k(struct ent *e, size_t n, size_t k)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1 && k > lo && k < hi) {
		swap_ent(&e[lo + (hi - lo) / 2], &e[hi - 1]); /* middle as pivot */
		size_t store = lo;
		for (size_t i = lo; i + 1 < hi; i++)
			if (cmp_ent(&e[i], &e[hi - 1]) < 0)
				swap_ent(&e[i], &e[store++]);
		swap_ent(&e[store], &e[hi - 1]);
		if (store == k || store + 1 == k)
			return;
		if (store > k)
			hi = store;
		else
			lo = store + 1;
	}
}

static void sort_impl(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys, size_t topk,
		      size_t *pos)
{
	if (pos)
		for (size_t i = 0; i < n; i++)
			pos[i] = i;
	if (nkeys == 0 || n < 2)
		return;
	if (nkeys > MAXK)
		nkeys = MAXK;
	struct ent *e = calloc(n, sizeof *e);
	if (!e)
		abort();
	for (size_t i = 0; i < n; i++) {
		e[i].o = recs[i];
		e[i].pos = i;
		for (size_t k = 0; k < nkeys; k++) {
			if (keys[k].value) {
				double d = keys[k].value(recs[i], keys[k].arg);
				e[i].num[k] = !isnan(d);
				e[i].d[k] = d;
				continue;
			}
			json_t *v = json_object_get(recs[i], keys[k].field);
			if (json_is_number(v)) {
				e[i].num[k] = true;
				e[i].d[k] = json_number_value(v);
			} else if (json_is_boolean(v)) {
				e[i].num[k] = true;
				e[i].d[k] = json_is_true(v);
			} else if (json_is_string(v)) {
				e[i].s[k] = json_string_value(v);
			}
		}
	}
	g_keys = keys;
	g_nkeys = nkeys;
	if (topk < n) {
		select_k(e, n, topk);
		qsort(e, topk, sizeof *e, cmp_ent);
	} else {
		qsort(e, n, sizeof *e, cmp_ent);
	}
	for (size_t i = 0; i < n; i++) {
		recs[i] = e[i].o;
		if (pos)
			pos[i] = e[i].pos;
	}
	free(e);
}

void filter_sort(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys)
{
	sort_impl(recs, n, keys, nkeys, n, NULL);
}

void filter_top(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys, size_t k)
{
	sort_impl(recs, n, keys, nkeys, k, NULL);
}

void filter_top_pos(json_t **recs, size_t n, const struct sort_key *keys, size_t nkeys, size_t k,
		    size_t *pos)
{
	sort_impl(recs, n, keys, nkeys, k, pos);
}
