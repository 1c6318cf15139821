/* sv_tree.c: the pure parts of the serverless view (sv_tree.h): the tree's
 * rows, each row's text, the worker-health bar and the workergroup detail
 * lines.  Model strings are already sanitised (json_map.c). */
#include "views/serverless/sv_tree.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "widgets/chart.h"
#include "widgets/table.h"
#include "base/util.h"

/* The fold mark of an endpoint or of the orphans' group. */
static const char *fold_mark(bool open, bool ascii)
{
	return ascii ? (open ? "-" : "+") : (open ? "\u25be" : "\u25b8");
}

bool sv_tree_collapsed_has(const struct sv_collapsed *c, long id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->ids[i] == id)
			return true;
	return false;
}

void sv_tree_collapsed_set(struct sv_collapsed *c, long id, bool collapsed)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->ids[i] == id) {
			if (!collapsed)
				c->ids[i] = c->ids[--c->n];
			return;
		}
	if (collapsed && c->n < SV_MAX_ENDPOINTS)
		c->ids[c->n++] = id;
}

/* Append the workergroups of endpoint eid (sorted by id) after out[k]. */
static size_t add_groups(const struct workergroup *g, size_t ng, long eid, bool orphans,
			 const struct endpoint *e, size_t ne, struct sv_row *out, size_t k,
			 size_t max)
{
	long prev = -1;
	size_t first = k;
	for (;;) {
		/* the next workergroup by id: a selection sort keeps the snapshot untouched */
		size_t best = ng;
		for (size_t i = 0; i < ng; i++) {
			bool mine;
			if (orphans) {
				mine = true;
				for (size_t j = 0; j < ne; j++)
					if (e[j].id == g[i].endpoint_id)
						mine = false;
			} else {
				mine = g[i].endpoint_id == eid;
			}
			if (mine && g[i].id > prev && (best == ng || g[i].id < g[best].id))
				best = i;
		}
		if (best == ng || k >= max)
			break;
		prev = g[best].id;
		out[k++] = (struct sv_row){ .kind = SVR_WORKERGROUP, .endpoint_id = g[best].endpoint_id,
					    .id = g[best].id, .idx = best, .orphan = orphans };
	}
	if (k > first)
		out[k - 1].last = true;
	return k;
}

size_t sv_tree_rows(const struct endpoint *e, size_t ne, const struct workergroup *g, size_t ng,
		    const struct sv_collapsed *c, struct sv_row *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < ne && k < max; i++) {
		bool closed = sv_tree_collapsed_has(c, e[i].id);
		out[k++] = (struct sv_row){ .kind = SVR_ENDPOINT, .endpoint_id = e[i].id, .id = e[i].id,
					    .idx = i, .collapsed = closed };
		if (!closed)
			k = add_groups(g, ng, e[i].id, false, e, ne, out, k, max);
	}
	size_t orphans = 0;
	for (size_t i = 0; i < ng; i++) {
		bool listed = false;
		for (size_t j = 0; j < ne && !listed; j++)
			listed = e[j].id == g[i].endpoint_id;
		orphans += !listed;
	}
	if (!orphans || k >= max)
		return k;
	bool closed = sv_tree_collapsed_has(c, SV_ORPHANS_GROUP);
	out[k++] = (struct sv_row){ .kind = SVR_ORPHANS, .idx = orphans, .collapsed = closed };
	return closed ? k : add_groups(g, ng, 0, true, e, ne, out, k, max);
}

long sv_tree_row_key(const struct sv_row *r)
{
	switch (r->kind) {
	case SVR_ENDPOINT: return r->id;
	case SVR_WORKERGROUP: return -r->id;
	case SVR_ORPHANS: return LONG_MIN;
	}
	return 0;
}

long sv_tree_row_group(const struct sv_row *r)
{
	switch (r->kind) {
	case SVR_ENDPOINT: return r->id;
	case SVR_WORKERGROUP: return r->orphan ? SV_ORPHANS_GROUP : r->endpoint_id;
	case SVR_ORPHANS: return SV_ORPHANS_GROUP;
	}
	return 0;
}

char *sv_tree_orphans_text(size_t count, bool open, bool ascii, char *buf, size_t n)
{
	const char *mark = fold_mark(open, ascii);
	snprintf(buf, n, "%s orphaned workergroups (%zu): their endpoint is gone; e and d act on "
		 "the workergroup itself", mark, count);
	return buf;
}

const char *sv_tree_orphan_refusal(const struct sv_row *r, const char *what, char *buf, size_t n)
{
	if (r && r->kind == SVR_ORPHANS)
		snprintf(buf, n, "the orphaned workergroups have no endpoint: select an endpoint to %s",
			 what);
	else if (r && r->kind == SVR_WORKERGROUP && r->orphan)
		snprintf(buf, n, "workergroup %ld is orphaned: its endpoint %ld is gone; select an "
			 "endpoint to %s", r->id, r->endpoint_id, what);
	else
		return NULL;
	return buf;
}

char *sv_tree_delete_orphan_text(const struct workergroup *g, char *buf, size_t n)
{
	snprintf(buf, n,
		 "Delete orphaned workergroup %ld? Its endpoint %s (%ld) is gone; this deletes the "
		 "workergroup itself (no endpoint is touched). Instances it already created are not "
		 "destroyed by this.",
		 g->id, g->endpoint_name && *g->endpoint_name ? g->endpoint_name : "-", g->endpoint_id);
	return buf;
}

/* A number without useless decimals: "10", "0.9", "2.5"; "-" for NAN. */
static const char *num(double v, char *b, size_t n)
{
	if (isnan(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%g", v);
	return b;
}

#define BAR_CELLS 10

/* "[####......]": load against capacity. */
static char *bar_text(const struct workers_health *h, bool ascii, char *bar, size_t n)
{
	int fill = 0;
	if (h->capacity > 0)
		fill = (int)lround(BAR_CELLS * h->load / h->capacity);
	else if (h->load > 0)
		fill = BAR_CELLS;
	if (fill > BAR_CELLS)
		fill = BAR_CELLS;
	if (fill < 0)
		fill = 0;
	size_t k = 0;
	bar[k++] = '[';
	for (int i = 0; i < BAR_CELLS; i++) {
		const char *c = i < fill ? (ascii ? "#" : "\u2588") : (ascii ? "." : "\u2591");
		size_t l = strlen(c);
		if (k + l + 2 > n)
			break;
		memcpy(bar + k, c, l);
		k += l;
	}
	bar[k++] = ']';
	bar[k] = '\0';
	return bar;
}

void sv_tree_series_init(struct sv_ep_series *s)
{
	seriesf_init(&s->load);
	seriesf_init(&s->workers);
	seriesf_init(&s->cost);
}

/* Append "label " and the sparkline of f to buf at *k. */
static void spark_part(const struct seriesf *f, const char *label, double now, int cols, bool ascii,
		       char *buf, size_t n, size_t *k)
{
	double v[SERIES_BUCKETS];
	size_t nc = cols > 0 && cols <= SERIES_BUCKETS ? (size_t)cols : SV_SPARK_COLS;
	seriesf_values(f, now, v, nc);
	char sp[SERIES_BUCKETS * 4 + 1];
	chart_spark(sp, sizeof sp, v, nc, 0, chart_nice_max(v, nc), ascii);
	if (*k < n)
		*k += (size_t)snprintf(buf + *k, n - *k, "%s%s %s", *k ? " " : "", label, sp);
	if (*k >= n)
		*k = n - 1;
}

char *sv_tree_spark_text(const struct sv_ep_series *s, double now, int cols, bool ascii, char *buf,
			 size_t n)
{
	size_t k = 0;
	if (!n)
		return buf;
	buf[0] = '\0';
	spark_part(&s->load, "load", now, cols, ascii, buf, n, &k);
	spark_part(&s->workers, "n", now, cols, ascii, buf, n, &k);
	spark_part(&s->cost, "$", now, cols, ascii, buf, n, &k);
	return buf;
}

void sv_tree_endpoint_cells(const struct endpoint *e, const struct sv_ep_health *h, bool open,
		       bool ascii, struct sv_ep_cells *out)
{
	char b1[32];
	memset(out, 0, sizeof *out);
	snprintf(out->cell[SVE_NAME], sizeof out->cell[SVE_NAME], "%s %s (%ld)",
		 fold_mark(open, ascii), e->endpoint_name && e->endpoint_name[0] ? e->endpoint_name : "-",
		 e->id);
	snprintf(out->cell[SVE_STATE], sizeof out->cell[SVE_STATE], "%s",
		 e->endpoint_state && e->endpoint_state[0] ? e->endpoint_state : "-");
	snprintf(out->cell[SVE_MIN_LOAD], sizeof out->cell[SVE_MIN_LOAD], "min_load %s",
		 num(e->min_load, b1, sizeof b1));
	snprintf(out->cell[SVE_UTIL], sizeof out->cell[SVE_UTIL], "util %s",
		 num(e->target_util, b1, sizeof b1));
	snprintf(out->cell[SVE_COLD_MULT], sizeof out->cell[SVE_COLD_MULT], "cold_mult %s",
		 num(e->cold_mult, b1, sizeof b1));
	/* labelled: "workers 1/4" read as "1 of 4 workers" */
	snprintf(out->cell[SVE_LIMITS], sizeof out->cell[SVE_LIMITS],
		 "cold_workers %d max_workers %d", e->cold_workers, e->max_workers);
	if (!h || !h->asked)
		return;
	bool err = h->err && h->err[0];
	if (!h->have) {
		snprintf(out->cell[SVE_COUNTS], sizeof out->cell[SVE_COUNTS], "workers: %s",
			 err ? h->err : "...");
		return;
	}
	bar_text(&h->h, ascii, out->cell[SVE_BAR], sizeof out->cell[SVE_BAR]);
	workers_counts_text(out->cell[SVE_COUNTS], sizeof out->cell[SVE_COUNTS], &h->h);
	workers_load_text(out->cell[SVE_LOAD], sizeof out->cell[SVE_LOAD], &h->h);
	if (h->series)
		sv_tree_spark_text(h->series, h->now, SV_SPARK_COLS, ascii, out->cell[SVE_SPARK],
				   sizeof out->cell[SVE_SPARK]);
	if (h->stale) {
		snprintf(out->cell[SVE_STALE], sizeof out->cell[SVE_STALE], "(stale %.0fs)",
			 h->age > 0 ? h->age : 0);
		if (err)
			snprintf(out->cell[SVE_WHY], sizeof out->cell[SVE_WHY], "%s", h->err);
	}
}

/* Drop order: a larger number goes first; 0 never (table_col.prio). */
static const int sve_prio[SVE__COUNT] = {
	[SVE_NAME] = 0,   [SVE_STATE] = 3, [SVE_MIN_LOAD] = 7, [SVE_UTIL] = 8, [SVE_COLD_MULT] = 9,
	[SVE_LIMITS] = 4, [SVE_BAR] = 5,   [SVE_COUNTS] = 1,   [SVE_LOAD] = 2, [SVE_STALE] = 0,
	[SVE_WHY] = 6,    [SVE_SPARK] = 10,
};

unsigned sv_tree_endpoint_layout(const struct sv_ep_cells *rows, size_t n, int width,
			    int w[SVE__COUNT])
{
	/* one column per field that some row fills; each but the first is
	 * one cell wider for the second cell of the gap */
	struct table_col cols[SVE__COUNT];
	int natural[SVE__COUNT], field[SVE__COUNT], tw[SVE__COUNT], nc = 0;
	for (int f = 0; f < SVE__COUNT; f++) {
		w[f] = 0;
		int wide = 0;
		for (size_t i = 0; i < n; i++) {
			int cw = util_strwidth(rows[i].cell[f]);
			if (cw > wide)
				wide = cw;
		}
		if (!wide)
			continue;
		if (nc)
			wide++;
		/* the name may be cut (last of all); every other field is whole */
		cols[nc] = (struct table_col){ .title = "", .min_w = wide, .max_w = wide,
					       .prio = sve_prio[f], .whole = f != SVE_NAME };
		natural[nc] = wide;
		field[nc++] = f;
	}
	unsigned shown = nc ? table_widths_fit(cols, nc, width, natural, tw) : 0, mask = 0;
	for (int c = 0; c < nc; c++)
		if (shown & (1u << c)) {
			w[field[c]] = tw[c] - (c > 0);
			mask |= 1u << field[c];
		}
	return mask;
}

int sv_tree_endpoint_field_x(const int w[SVE__COUNT], int f)
{
	if (f < 0 || f >= SVE__COUNT || w[f] <= 0)
		return -1;
	int x = 0;
	for (int g = 0; g < f; g++)
		if (w[g] > 0)
			x += w[g] + 2;
	return x;
}

/* Append s to buf at *k, cut or padded to exactly width cells. */
static void put_cell(char *buf, size_t n, size_t *k, const char *s, int width)
{
	int used = 0;
	const char *p = s;
	while (*p) {
		/* one code point, taken only when it fits */
		size_t l = 1;
		while ((p[l] & 0xc0) == 0x80)
			l++;
		char cp[8] = "";
		if (l < sizeof cp)
			memcpy(cp, p, l);
		int cw = util_strwidth(cp);
		if (used + cw > width || *k + l + 1 > n)
			break;
		memcpy(buf + *k, p, l);
		*k += l;
		used += cw;
		p += l;
	}
	for (; used < width && *k + 2 <= n; used++)
		buf[(*k)++] = ' ';
	buf[*k] = '\0';
}

char *sv_tree_endpoint_line(const struct sv_ep_cells *c, const int w[SVE__COUNT], char *buf,
		       size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int f = 0; f < SVE__COUNT; f++) {
		if (w[f] <= 0)
			continue;
		if (k)
			put_cell(buf, n, &k, "", 2);
		put_cell(buf, n, &k, c->cell[f], w[f]);
	}
	while (k && buf[k - 1] == ' ') /* no trailing blanks */
		buf[--k] = '\0';
	return buf;
}

char *sv_tree_endpoint_text(const struct endpoint *e, bool open, bool ascii, char *buf, size_t n)
{
	struct sv_ep_cells c;
	sv_tree_endpoint_cells(e, NULL, open, ascii, &c);
	int w[SVE__COUNT];
	for (int f = 0; f < SVE__COUNT; f++)
		w[f] = util_strwidth(c.cell[f]);
	return sv_tree_endpoint_line(&c, w, buf, n);
}

const char *sv_tree_template_name(const char *hash, const struct instance *const *v, size_t n)
{
	if (!hash || !*hash)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (v[i]->template_hash_id && strcmp(v[i]->template_hash_id, hash) == 0 &&
		    v[i]->template_name && v[i]->template_name[0])
			return v[i]->template_name;
	return NULL;
}

/* The template as shown: its name when known, else its hash, else its id. */
static const char *template_text(const struct workergroup *g, const char *name, char *b,
				 size_t n)
{
	if (name && *name)
		return name;
	if (g->template_hash && g->template_hash[0])
		return g->template_hash;
	if (g->template_id > 0) {
		snprintf(b, n, "#%ld", g->template_id);
		return b;
	}
	return "-";
}

static const char *str(const char *s)
{
	return s && *s ? s : "-";
}

char *sv_tree_workergroup_text(const struct workergroup *g, const char *tmpl_name, bool last,
			  bool orphan, bool ascii, char *buf, size_t n)
{
	char b1[32], b2[32], o[64] = "";
	const char *branch = ascii ? (last ? "`-" : "|-") : (last ? "\u2514\u2500" : "\u251c\u2500");
	if (orphan)
		snprintf(o, sizeof o, "  ORPHANED (endpoint %ld gone)", g->endpoint_id);
	snprintf(buf, n, "  %s wg %ld%s  template %s  gpu_ram %s  test_workers %d  query %s  args %s",
		 branch, g->id, o, template_text(g, tmpl_name, b2, sizeof b2),
		 num(g->gpu_ram, b1, sizeof b1), g->test_workers, str(g->search_query),
		 str(g->launch_args));
	return buf;
}

char *sv_tree_health_text(const struct workers_health *h, bool ascii, char *buf, size_t n)
{
	char bar[BAR_CELLS * 3 + 3], t[160];
	bar_text(h, ascii, bar, sizeof bar);
	workers_health_text(t, sizeof t, h);
	snprintf(buf, n, "%s %s", bar, t);
	return buf;
}

static size_t line(struct sv_line *out, size_t k, size_t max, const char *key, const char *val)
{
	if (k >= max)
		return k;
	util_strlcpy(out[k].key, key, sizeof out[k].key);
	util_strlcpy(out[k].value, val, sizeof out[k].value);
	return k + 1;
}

size_t sv_tree_workergroup_lines(const struct workergroup *g, const char *name,
			    struct sv_line *out, size_t max)
{
	char b[64];
	size_t k = 0;
	snprintf(b, sizeof b, "%ld", g->id);
	k = line(out, k, max, "id", b);
	snprintf(b, sizeof b, "%ld", g->endpoint_id);
	k = line(out, k, max, "endpoint_id", b);
	k = line(out, k, max, "endpoint_name", str(g->endpoint_name));
	k = line(out, k, max, "template", name && *name ? name : "(name not known)");
	k = line(out, k, max, "template_hash", str(g->template_hash));
	snprintf(b, sizeof b, "%ld", g->template_id);
	k = line(out, k, max, "template_id", g->template_id > 0 ? b : "-");
	k = line(out, k, max, "min_load", num(g->min_load, b, sizeof b));
	k = line(out, k, max, "target_util", num(g->target_util, b, sizeof b));
	k = line(out, k, max, "cold_mult", num(g->cold_mult, b, sizeof b));
	k = line(out, k, max, "gpu_ram", num(g->gpu_ram, b, sizeof b));
	snprintf(b, sizeof b, "%d", g->test_workers);
	k = line(out, k, max, "test_workers", b);
	k = line(out, k, max, "search_query", str(g->search_query));
	k = line(out, k, max, "launch_args", str(g->launch_args));
	snprintf(b, sizeof b, "%ld", g->user_id);
	k = line(out, k, max, "user_id", g->user_id > 0 ? b : "-");
	k = line(out, k, max, "created_at", str(g->created_at));
	k = line(out, k, max, "api_key", "<hidden>");
	return k;
}

const char *sv_tree_names_get(const struct sv_names *t, const char *hash)
{
	for (size_t i = 0; hash && *hash && i < t->n; i++)
		if (strcmp(t->hash[i], hash) == 0)
			return t->name[i];
	return NULL;
}

void sv_tree_names_put(struct sv_names *t, const char *hash, const char *name)
{
	if (!hash || !*hash || !name)
		return;
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->hash[i], hash) == 0) {
			util_strlcpy(t->name[i], name, sizeof t->name[i]);
			return;
		}
	if (t->n >= SV_MAX_NAMES)
		return;
	util_strlcpy(t->hash[t->n], hash, sizeof t->hash[t->n]);
	util_strlcpy(t->name[t->n], name, sizeof t->name[t->n]);
	t->n++;
}

const char *sv_tree_names_of(const struct sv_names *t, const char *hash,
			const struct instance *const *v, size_t nv)
{
	const char *s = sv_tree_names_get(t, hash);
	return s && *s ? s : sv_tree_template_name(hash, v, nv);
}
