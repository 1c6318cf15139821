/* workers.c: owns the decoding of an endpoint's worker list, the documented
 * worker states, the health summary (counts by state, unknown ones by name,
 * load against the ready workers' capacity), the flag rule and its "said
 * once" memo. */
#include "rules/workers.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

static const char *const state_names[WS__COUNT] = {
	[WS_IDLE] = "IDLE",
	[WS_RUNNING] = "RUNNING",
	[WS_CREATING] = "CREATING",
	[WS_CREATED] = "CREATED",
	[WS_PENDING] = "PENDING",
	[WS_LOADING] = "LOADING",
	[WS_MODEL_LOADING] = "MODEL_LOADING",
	[WS_STARTING] = "STARTING",
	[WS_REBOOTING] = "REBOOTING",
	[WS_UPDATING] = "UPDATING",
	[WS_UPDATE_READY] = "UPDATE_READY",
	[WS_UPDATE_REBOOTING] = "UPDATE_REBOOTING",
	[WS_UPDATE_STARTING] = "UPDATE_STARTING",
	[WS_STOPPING] = "STOPPING",
	[WS_STOPPED] = "STOPPED",
	[WS_DESTROYING] = "DESTROYING",
	[WS_ERROR] = "ERROR",
	[WS_OTHER] = "OTHER",
};

const char *workers_state_name(enum worker_state s)
{
	return (unsigned)s < WS__COUNT ? state_names[s] : "OTHER";
}

enum worker_state workers_state(const char *status)
{
	for (int s = 0; s < WS_OTHER; s++)
		if (status && !strcasecmp(status, state_names[s]))
			return (enum worker_state)s;
	return WS_OTHER;
}

bool workers_state_ready(enum worker_state s)
{
	return s == WS_IDLE || s == WS_RUNNING;
}

static double jnum(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		char *end;
		double d = strtod(json_string_value(v), &end);
		if (end != json_string_value(v) && !*end)
			return d;
	}
	return NAN;
}

static int cmp_worker(const void *a, const void *b)
{
	long x = ((const struct worker *)a)->id, y = ((const struct worker *)b)->id;
	return (x > y) - (x < y);
}

bool workers_decode(const json_t *root, struct worker **v, size_t *n)
{
	*v = NULL;
	*n = 0;
	const json_t *arr = root;
	if (json_is_object(root)) {
		arr = json_object_get(root, "workers");
		if (!arr)
			arr = json_object_get(root, "results");
	}
	if (!json_is_array(arr))
		return false;
	size_t cnt = json_array_size(arr), k = 0;
	struct worker *w = xcalloc(cnt ? cnt : 1, sizeof *w);
	for (size_t i = 0; i < cnt; i++) {
		json_t *o = json_array_get(arr, i);
		double id = jnum(o, "id");
		if (!json_is_object(o) || isnan(id))
			continue;
		struct worker *x = &w[k++];
		x->id = (long)id;
		json_t *st = json_object_get(o, "status");
		char *s = util_sanitize(json_is_string(st) ? json_string_value(st) : "");
		util_strlcpy(x->status, s, sizeof x->status);
		free(s);
		x->state = workers_state(x->status);
		x->cur_load = jnum(o, "cur_load");
		x->perf = jnum(o, "perf");
		x->reliability = jnum(o, "reliability");
		double r = jnum(o, "reqs_working");
		x->reqs_working = isnan(r) ? 0 : (int)r;
		x->disk_usage = jnum(o, "disk_usage");
		x->started_at = jnum(o, "started_at");
	}
	qsort(w, k, sizeof *w, cmp_worker);
	*v = w;
	*n = k;
	return true;
}

void workers_summary(const struct worker *v, size_t n, struct workers_health *h)
{
	memset(h, 0, sizeof *h);
	for (size_t i = 0; i < n; i++) {
		enum worker_state st = (unsigned)v[i].state < WS__COUNT ? v[i].state : WS_OTHER;
		h->count[st]++;
		h->total++;
		if (!isnan(v[i].cur_load))
			h->load += v[i].cur_load;
		if (workers_state_ready(st) && !isnan(v[i].perf))
			h->capacity += v[i].perf;
		if (st != WS_OTHER)
			continue;
		/* an unknown state: kept by its own name */
		const char *name = v[i].status[0] ? v[i].status : "(none)";
		size_t k = 0;
		while (k < h->nother && strcmp(h->other[k].name, name))
			k++;
		if (k == h->nother && k < WORKERS_OTHER_NAMES)
			util_strlcpy(h->other[h->nother++].name, name, sizeof h->other[k].name);
		if (k < h->nother)
			h->other[k].n++;
	}
}

size_t workers_ready(const struct workers_health *h)
{
	return h->count[WS_IDLE] + h->count[WS_RUNNING];
}

enum workers_flag workers_flag(const struct workers_health *h, double load, double min_load)
{
	if (h->total > 0 && h->count[WS_ERROR] == h->total)
		return WF_ALL_ERROR;
	if (isnan(load))
		load = h->load;
	if (workers_ready(h) == 0 && !isnan(min_load) && load > min_load)
		return WF_NO_READY;
	return WF_NONE;
}

char *workers_flag_text(char *buf, size_t n, const char *endpoint_name, enum workers_flag f,
			const struct workers_health *h, double load, double min_load)
{
	const char *name = endpoint_name && *endpoint_name ? endpoint_name : "endpoint";
	if (isnan(load))
		load = h->load;
	switch (f) {
	case WF_NONE:
		snprintf(buf, n, "%s: healthy", name);
		break;
	case WF_ALL_ERROR:
		snprintf(buf, n, "%s: every worker (%zu) in ERROR", name, h->total);
		break;
	case WF_NO_READY:
		snprintf(buf, n, "%s: no ready worker, load %.1f > min_load %.1f", name, load,
			 min_load);
		break;
	}
	return buf;
}

/* Append "fmt" to buf at *k (cut at n). */
static void add(char *buf, size_t n, size_t *k, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	if (*k >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
	if (r > 0)
		*k = *k + (size_t)r < n ? *k + (size_t)r : n - 1;
}

char *workers_counts_text(char *buf, size_t n, const struct workers_health *h)
{
	if (!n)
		return buf;
	size_t k = 0;
	buf[0] = '\0';
	add(buf, n, &k, "%zu ready", workers_ready(h));
	for (int s = 0; s < WS_OTHER; s++) {
		if (workers_state_ready((enum worker_state)s) || !h->count[s])
			continue;
		char low[24];
		util_strlcpy(low, state_names[s], sizeof low);
		for (char *c = low; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		add(buf, n, &k, " %zu %s", h->count[s], low);
	}
	size_t named = 0;
	for (size_t i = 0; i < h->nother; i++) {
		add(buf, n, &k, " %zu %s", h->other[i].n, h->other[i].name);
		named += h->other[i].n;
	}
	if (h->count[WS_OTHER] > named)
		add(buf, n, &k, " +%zu more", h->count[WS_OTHER] - named);
	return buf;
}

char *workers_load_text(char *buf, size_t n, const struct workers_health *h)
{
	snprintf(buf, n, "load %.0f/%.0f", h->load, h->capacity);
	return buf;
}

char *workers_health_text(char *buf, size_t n, const struct workers_health *h)
{
	char c[200], l[64];
	workers_counts_text(c, sizeof c, h);
	snprintf(buf, n, "%s %s", c, workers_load_text(l, sizeof l, h));
	return buf;
}

/* ---- said once ------------------------------------------------------------ */

struct memo_ent {
	long id;
	enum workers_flag f;
};

struct workers_memo {
	struct memo_ent *v;
	size_t n, cap;
};

struct workers_memo *workers_memo_new(void)
{
	return xcalloc(1, sizeof(struct workers_memo));
}

void workers_memo_free(struct workers_memo *m)
{
	if (!m)
		return;
	free(m->v);
	free(m);
}

bool workers_memo_update(struct workers_memo *m, long endpoint_id, enum workers_flag f)
{
	size_t i = 0;
	while (i < m->n && m->v[i].id != endpoint_id)
		i++;
	if (f == WF_NONE) {
		if (i < m->n)
			m->v[i] = m->v[--m->n];
		return false;
	}
	if (i < m->n) {
		bool changed = m->v[i].f != f;
		m->v[i].f = f;
		return changed;
	}
	if (m->n == m->cap)
		m->v = xrealloc(m->v, (m->cap = m->cap ? 2 * m->cap : 8) * sizeof *m->v);
	m->v[m->n++] = (struct memo_ent){endpoint_id, f};
	return true;
}

void workers_memo_keep(struct workers_memo *m, const long *ids, size_t n)
{
	for (size_t i = 0; i < m->n;) {
		bool keep = false;
		for (size_t j = 0; j < n && !keep; j++)
			keep = ids[j] == m->v[i].id;
		if (keep)
			i++;
		else
			m->v[i] = m->v[--m->n];
	}
}
