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

/* String field k of o, sanitised, into buf ("" when missing). */
static void copy_str(const json_t *o, const char *k, char *buf, size_t n)
{
	json_t *v = json_object_get(o, k);
	char *s = util_sanitize(json_is_string(v) ? json_string_value(v) : "");
	util_strlcpy(buf, s, n);
	free(s);
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
		x->load_avg = jnum(o, "cur_load_rolling_avg");
		x->measured_perf = jnum(o, "measured_perf");
		x->uptime_mins = jnum(o, "uptime_mins");
		x->dph = jnum(o, "dph_total");
		double inst = jnum(o, "instance_id");
		x->instance_id = isnan(inst) ? 0 : (long)inst;
		copy_str(o, "gpu_name", x->gpu_name, sizeof x->gpu_name);
		copy_str(o, "status_msg", x->status_msg, sizeof x->status_msg);
	}
	qsort(w, k, sizeof *w, cmp_worker);
	*v = w;
	*n = k;
	return true;
}

enum worker_class workers_state_class(enum worker_state s)
{
	switch (s) {
	case WS_IDLE: case WS_RUNNING: return WC_READY;
	case WS_CREATING: case WS_CREATED: case WS_PENDING: case WS_LOADING:
	case WS_MODEL_LOADING: case WS_STARTING: case WS_REBOOTING:
		return WC_STARTING;
	case WS_UPDATING: case WS_UPDATE_READY: case WS_UPDATE_REBOOTING: case WS_UPDATE_STARTING:
		return WC_UPDATING;
	case WS_STOPPING: case WS_STOPPED: case WS_DESTROYING: return WC_STOPPED;
	case WS_ERROR: return WC_ERROR;
	case WS_OTHER: case WS__COUNT: break;
	}
	return WC_OTHER;
}

size_t workers_cost(const struct worker *v, size_t n, double *dph)
{
	size_t k = 0;
	*dph = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i].dph)) {
			*dph += v[i].dph;
			k++;
		}
	return k;
}

static const char *const col_titles[WK__COUNT] = {
	[WK_ID] = "id", [WK_STATE] = "state", [WK_LOAD] = "load", [WK_AVG] = "avg",
	[WK_PERF] = "perf", [WK_MPERF] = "measured", [WK_REQS] = "reqs", [WK_DISK] = "disk GB",
	[WK_REL] = "reliab", [WK_UPTIME] = "uptime", [WK_GPU] = "gpu", [WK_DPH] = "$/h",
	[WK_INSTANCE] = "instance", [WK_MSG] = "message",
};

const char *workers_col_title(enum worker_col c)
{
	return (unsigned)c < WK__COUNT ? col_titles[c] : "";
}

/* A figure with dec decimals and a suffix, "-" when missing. */
static char *fig(char *buf, size_t n, int dec, double v, const char *suffix)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.*f%s", dec, v, suffix);
	return buf;
}

char *workers_cell(const struct worker *w, enum worker_col c, char *buf, size_t n)
{
	switch (c) {
	case WK_ID: snprintf(buf, n, "%ld", w->id); break;
	case WK_STATE:
		snprintf(buf, n, "%s", w->state == WS_OTHER && w->status[0] ? w->status
									     : workers_state_name(w->state));
		break;
	case WK_LOAD: fig(buf, n, 1, w->cur_load, ""); break;
	case WK_AVG: fig(buf, n, 1, w->load_avg, ""); break;
	case WK_PERF: fig(buf, n, 1, w->perf, ""); break;
	case WK_MPERF: fig(buf, n, 1, w->measured_perf, ""); break;
	case WK_REQS: snprintf(buf, n, "%d", w->reqs_working); break;
	case WK_DISK: fig(buf, n, 1, w->disk_usage, ""); break;
	case WK_REL: fig(buf, n, 1, 100 * w->reliability, "%"); break;
	case WK_UPTIME:
		if (isnan(w->uptime_mins) || w->uptime_mins < 0)
			snprintf(buf, n, "-");
		else if (w->uptime_mins < 60)
			snprintf(buf, n, "%.0fm", w->uptime_mins);
		else if (w->uptime_mins < 48 * 60)
			snprintf(buf, n, "%.0fh%02.0fm", floor(w->uptime_mins / 60),
				 fmod(floor(w->uptime_mins), 60));
		else
			snprintf(buf, n, "%.0fd%02.0fh", floor(w->uptime_mins / 1440),
				 fmod(floor(w->uptime_mins / 60), 24));
		break;
	case WK_GPU: snprintf(buf, n, "%s", w->gpu_name[0] ? w->gpu_name : "-"); break;
	case WK_DPH: fig(buf, n, 3, w->dph, ""); break;
	case WK_INSTANCE:
		if (w->instance_id > 0)
			snprintf(buf, n, "%ld", w->instance_id);
		else
			snprintf(buf, n, "-");
		break;
	case WK_MSG: snprintf(buf, n, "%s", w->state == WS_ERROR ? w->status_msg : ""); break;
	case WK__COUNT: if (n) buf[0] = '\0'; break;
	}
	return buf;
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
