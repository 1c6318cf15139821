/* sv_tree.c: the pure parts of the serverless view (sv_tree.h): the tree's
 * rows, each row's text, the worker-health bar and the workergroup detail
 * lines.  Model strings are already sanitised (json_map.c). */
#include "sv_tree.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

bool sv_collapsed_has(const struct sv_collapsed *c, long id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->ids[i] == id)
			return true;
	return false;
}

void sv_collapsed_set(struct sv_collapsed *c, long id, bool collapsed)
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
		bool closed = sv_collapsed_has(c, e[i].id);
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
	bool closed = sv_collapsed_has(c, SV_ORPHANS_GROUP);
	out[k++] = (struct sv_row){ .kind = SVR_ORPHANS, .idx = orphans, .collapsed = closed };
	return closed ? k : add_groups(g, ng, 0, true, e, ne, out, k, max);
}

long sv_row_key(const struct sv_row *r)
{
	switch (r->kind) {
	case SVR_ENDPOINT: return r->id;
	case SVR_WORKERGROUP: return -r->id;
	case SVR_ORPHANS: return LONG_MIN;
	}
	return 0;
}

long sv_row_group(const struct sv_row *r)
{
	switch (r->kind) {
	case SVR_ENDPOINT: return r->id;
	case SVR_WORKERGROUP: return r->orphan ? SV_ORPHANS_GROUP : r->endpoint_id;
	case SVR_ORPHANS: return SV_ORPHANS_GROUP;
	}
	return 0;
}

char *sv_orphans_text(size_t count, bool open, bool ascii, char *buf, size_t n)
{
	const char *mark = ascii ? (open ? "-" : "+") : (open ? "\u25be" : "\u25b8");
	snprintf(buf, n, "%s orphaned workergroups (%zu): their endpoint is gone; e and d act on "
		 "the workergroup itself", mark, count);
	return buf;
}

const char *sv_orphan_refusal(const struct sv_row *r, const char *what, char *buf, size_t n)
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

char *sv_delete_orphan_text(const struct workergroup *g, char *buf, size_t n)
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

char *sv_endpoint_text(const struct endpoint *e, bool open, bool ascii, char *buf, size_t n)
{
	char b1[32], b2[32], b3[32];
	const char *mark = ascii ? (open ? "-" : "+") : (open ? "\u25be" : "\u25b8");
	snprintf(buf, n, "%s %s (%ld)  %s  min_load %s  util %s  cold_mult %s  workers %d/%d", mark,
		 e->endpoint_name && e->endpoint_name[0] ? e->endpoint_name : "-", e->id,
		 e->endpoint_state && e->endpoint_state[0] ? e->endpoint_state : "-",
		 num(e->min_load, b1, sizeof b1), num(e->target_util, b2, sizeof b2),
		 num(e->cold_mult, b3, sizeof b3), e->cold_workers, e->max_workers);
	return buf;
}

const char *sv_template_name(const char *hash, const struct instance *const *v, size_t n)
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

char *sv_workergroup_text(const struct workergroup *g, const char *tmpl_name, bool last,
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

#define BAR_CELLS 10

char *sv_health_text(const struct workers_health *h, bool ascii, char *buf, size_t n)
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
	char bar[BAR_CELLS * 3 + 3];
	size_t k = 0;
	bar[k++] = '[';
	for (int i = 0; i < BAR_CELLS; i++) {
		const char *c = i < fill ? (ascii ? "#" : "\u2588") : (ascii ? "." : "\u2591");
		size_t l = strlen(c);
		memcpy(bar + k, c, l);
		k += l;
	}
	bar[k++] = ']';
	bar[k] = '\0';
	char t[160];
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

size_t sv_workergroup_lines(const struct workergroup *g, const char *name,
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

const char *sv_names_get(const struct sv_names *t, const char *hash)
{
	for (size_t i = 0; hash && *hash && i < t->n; i++)
		if (strcmp(t->hash[i], hash) == 0)
			return t->name[i];
	return NULL;
}

void sv_names_put(struct sv_names *t, const char *hash, const char *name)
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

const char *sv_names_of(const struct sv_names *t, const char *hash,
			const struct instance *const *v, size_t nv)
{
	const char *s = sv_names_get(t, hash);
	return s && *s ? s : sv_template_name(hash, v, nv);
}
