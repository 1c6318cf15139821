/* dump.c: the non-interactive mode.  Owns fetching one resource completely
 * (every v1 page of the instance list, paced to the published threshold,
 * or unpaced as parallel id ranges (dumpread.h), with the v0 fall-back;
 * workergroups with the autojobs fall-back), the
 * table and JSON renderings, the removal of secret fields from JSON output,
 * and the mapping of failures to exit statuses. */
#include "dump/dump.h"

#include <errno.h>
#include <limits.h>
#include <langinfo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "api/api.h"
#include "api/api_serverless.h"
#include "net/auth.h"
#include "base/config.h"
#include "dump/dumpread.h"
#include "dump/instcol.h"
#include "json/json_map.h"
#include "json/json_text.h"
#include "flow/acctbill.h"
#include "flow/offers.h"
#include "net/pace.h"
#include "rules/query.h"
#include "rules/secrets.h"
#include "rules/svfields.h"
#include "poll/sweep.h"
#include "base/util.h"
#include "rules/workers.h"

#define DUMP_429_MAX 30 /* 429 answers in one dump before it gives up */

static int exit_for(const struct api_error *e)
{
	switch (e->cls) {
	case AE_AUTH:
	case AE_NEEDS_TFA:
	case AE_SESSION_EXPIRED:
		return DUMP_EXIT_AUTH;
	case AE_NONE: case AE_TRANSPORT: case AE_RATE_LIMIT: case AE_SERVER: case AE_CLIENT:
	case AE_PROTOCOL:
		return DUMP_EXIT_NET;
	}
	return DUMP_EXIT_NET;
}

static int report(FILE *err, struct auth *auth, const char *what, const struct api_error *e)
{
	char buf[400], src[300];
	apierr_format(e, buf, sizeof buf);
	fprintf(err, "rentop: %s: %s\n", what, buf);
	int rc = exit_for(e);
	if (e->cls == AE_SESSION_EXPIRED)
		fprintf(err, "rentop: the 2FA session expired and its file was removed; no normal "
			     "API key to fall back to: log in again with 2FA\n");
	else if (e->cls == AE_NEEDS_TFA)
		fprintf(err, "rentop: this needs a 2FA session: log in with 2FA first\n");
	else if (rc == DUMP_EXIT_AUTH && auth)
		fprintf(err, "rentop: the API key was refused (key from %s)\n",
			auth_source(auth, src, sizeof src));
	return rc;
}

static void sleep_until(double t)
{
	double d = t - util_mono();
	if (d <= 0)
		return;
	struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* The probe of the highest id: ordered by id descending, one row. */
static struct api_call probe_call(const struct config *cfg)
{
	return api_instances_v1_q(cfg, NULL, 1, NULL, "[\"id\"]", "[{\"col\":\"id\",\"dir\":\"desc\"}]");
}

/* The unpaced read after its first page (total rows in the list): the
 * highest id probed (the answer of *probe, sent beside the first page, or
 * when that failed asked again), the ids from the first page's lowest cut
 * into ranges read in parallel (dumpread.h).  1: every row is out (the
 * first page's replaced); 0: read on in sequence (*refused: the service
 * answered 429); -1: failed (*e). */
static int read_ranges(struct api_client *cl, struct dump_recs *recs, struct instance **v,
		       size_t *n, long total, struct http_xfer **probe, bool *refused,
		       struct api_error *e)
{
	bool json = cl->cfg->dump_json;
	long lo = LONG_MAX;
	size_t i;
	if (json) {
		const struct json_stream_texts *t = &recs->set[0];
		for (i = 0; i < t->n; i++)
			if (t->r[i].has_id && t->r[i].id < lo)
				lo = t->r[i].id;
	} else {
		for (i = 0; i < *n; i++)
			if ((*v)[i].id < lo)
				lo = (*v)[i].id;
	}
	json_t *root = NULL;
	struct api_error pe;
	bool ok = false;
	if (*probe) {
		ok = api_parse(*probe, &root, &pe);
		http_xfer_free(*probe);
		*probe = NULL;
	}
	if (!ok) { /* not sent, or failed: asked by the retry rule */
		struct api_call c = probe_call(cl->cfg);
		ok = api_run_with(cl, &c, 0, &root, &pe);
		api_call_free(&c);
	}
	if (!ok) {
		*refused = pe.cls == AE_RATE_LIMIT;
		return 0; /* the sequential read says what fails */
	}
	json_t *list = json_object_get(root, "instances");
	json_t *top = json_is_array(list) ? json_array_get(list, 0) : NULL;
	json_t *hid = json_object_get(top, "id");
	long hi = json_is_integer(hid) ? (long)json_integer_value(hid) : LONG_MIN;
	json_decref(root);
	if (hi == LONG_MIN || lo == LONG_MAX)
		return 0;
	long cuts[DUMPREAD_RANGES];
	size_t k = dumpread_partition(lo, hi, total, DUMPREAD_RANGES, cuts);
	if (k < 2)
		return 0;
	struct dump_recs rows = { 0 };
	struct instance *rv = NULL;
	size_t rn = 0;
	/* each range's text at once (a copy on each doubling touches twice
	 * the memory): its share of the rows at the first page's bytes a
	 * record, half as much again for ranges of ids that hold more */
	size_t hint = 0;
	if (json && recs->set[0].n) {
		size_t per = recs->set[0].text.len / recs->set[0].n + 1;
		size_t share = (size_t)total / k + 1;
		if (share <= SIZE_MAX / 2 / per)
			hint = share * per + share * per / 2;
		if (hint > (64u << 20))
			hint = 64u << 20;
	}
	/* the heap the read will use: the ranges' texts (or rows mapped, ~2 KB
	 * each), and a megabyte for the pages' bodies and the transfers */
	size_t heap = (json ? hint * k : (size_t)total * 2048) + ((size_t)1 << 20);
	enum dumpread_rc rc = dumpread_ranges(cl, cuts, k, json ? &rows : NULL, hint, heap, &rv, &rn, e);
	switch (rc) {
	case DR_OK:
		if (json) {
			dumpread_recs_free(recs);
			*recs = rows;
		}
		instance_free_all(*v, *n);
		*v = rv;
		*n = rn;
		return 1;
	case DR_FAILED:
		return -1;
	case DR_RATE_LIMITED:
		*refused = true;
		break;
	case DR_IGNORED:
		break;
	}
	dumpread_recs_free(&rows);
	instance_free_all(rv, rn);
	return 0;
}

/* Every instance: the shared pager (api/pager.h) over v1 pages until next_token
 * is null, paced by the list's token bucket; v0 when v1 is absent.  A 429
 * slows the pace (jittered, past the window) and asks the same page again,
 * keeping the pages already fetched.  Unpaced (--page-rate 0), the pages
 * after the first are read as id ranges in parallel (read_ranges), and in
 * sequence as above when the service ignores the ranges or answers 429. */
static bool fetch_pages(struct api_client *cl, struct dump_recs *recs, struct instance **v,
			size_t *n, struct http_xfer **probe, struct api_error *e)
{
	struct pace pace;
	pace_init(&pace, cl->cfg->page_rate, 1, util_mono());
	struct pager pg = { .total = -1 };
	bool v0 = false; /* the spec's v0 list: one answer, no pages */
	bool ranges = cl->cfg->page_rate <= 0; /* try the parallel read once */
	int refusals = 0;
	bool probe_sent = false;
	uint64_t rng = (uint64_t)(util_now() * 1e6) | 1;
	while (!pg.done) {
		sleep_until(util_mono() + pace_wait(&pace, util_mono()));
		pace_take(&pace, util_mono());
		struct api_call c = v0 ? api_instances_v0(cl->cfg) : api_instances_v1(cl->cfg, pg.token);
		/* --json writes each page's records as text, the table maps
		 * them, both straight from the bytes (json_stream, no tree) */
		bool json = cl->cfg->dump_json;
		struct inst_page pd;
		bool ok;
		if (*probe && !probe_sent) { /* the first page: the probe beside it */
			probe_sent = true;
			ok = api_run_page_beside(cl, &c, true, json ? &recs->set[0] : NULL, *probe,
						 &pd, e);
		} else {
			ok = json ? api_run_page_texts(cl, &c, &recs->set[0], &pd, e)
				  : api_run_page(cl, &c, true, &pd, e);
		}
		api_call_free(&c);
		if (!ok && pg.pages == 0 && !v0 && api_should_fall_back(e)) {
			v0 = true;
			continue;
		}
		if (!ok && e->http_status == 429 && ++refusals <= DUMP_429_MAX) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			if (pace.rate <= 0) /* unpaced and refused: the published rate */
				pace.rate = api_ep_rate(EP_INSTANCES_V1);
			double until = pace_refused(&pace, util_mono(),
						    (double)(rng >> 11) / 9007199254740992.0);
			sleep_until(until);
			continue;
		}
		if (!ok) {
			pager_reset(&pg);
			return false;
		}
		pace_answered(&pace);
		if (!pager_page_mapped(&pg, &pd, json ? NULL : v, n, e)) {
			pager_reset(&pg);
			return false;
		}
		if (v0)
			break;
		if (ranges && cl->rate_limited) {
			/* the first page was refused (and waited out): the limits
			 * are on, read on in sequence at the published pace */
			ranges = false;
			pace.rate = api_ep_rate(EP_INSTANCES_V1);
		}
		if (ranges && !pg.done && pg.pages == 1 && pg.total > 0) {
			ranges = false;
			bool refused = false;
			int r = read_ranges(cl, recs, v, n, pg.total, probe, &refused, e);
			if (r != 0) {
				pager_reset(&pg);
				return r > 0;
			}
			if (refused) { /* limits are on: the published pace from now */
				rng ^= rng << 13;
				rng ^= rng >> 7;
				rng ^= rng << 17;
				pace.rate = api_ep_rate(EP_INSTANCES_V1);
				sleep_until(pace_refused(&pace, util_mono(),
							 (double)(rng >> 11) / 9007199254740992.0));
			}
		}
	}
	pager_reset(&pg);
	return true;
}

/* fetch_pages; unpaced, the highest id's probe (read_ranges) goes out with
 * the first page, not one round trip after it. */
static bool fetch_instances(struct api_client *cl, struct dump_recs *recs, struct instance **v,
			    size_t *n, struct api_error *e)
{
	struct http_xfer *probe = NULL;
	struct api_call pc = { 0 };
	if (cl->cfg->page_rate <= 0) {
		struct api_error pe;
		pc = probe_call(cl->cfg);
		probe = api_xfer_new(cl, &pc, &pe); /* NULL: asked later, as it says */
	}
	bool ok = fetch_pages(cl, recs, v, n, &probe, e);
	http_xfer_free(probe); /* not needed (one page, v0, limits on) */
	api_call_free(&pc);
	return ok;
}

char *dump_json_text(const json_t *v)
{
	return json_text_dump(v);
}

static void print_json(FILE *out, json_t *v)
{
	json_map_strip_secrets(v);
	char *text = dump_json_text(v);
	if (text) {
		fputs(text, out);
		free(text);
	}
	fputc('\n', out);
}

/* A plain table: columns padded to their widest cell (display width), each
 * cell cut to a cap (one 100 KB label must not pad every line to 100 KB). */
struct table {
	size_t ncols, nrows;
	char **cells; /* nrows x ncols, row 0 is the header */
	size_t cap;   /* rows the cells have room for */
};

static void table_add(struct table *t, char **row)
{
	if (t->nrows == t->cap) { /* doubling: 1,000 rows are not 1,000 copies */
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = xrealloc(t->cells, t->cap * t->ncols * sizeof *t->cells);
	}
	for (size_t c = 0; c < t->ncols; c++) {
		char *clean = util_sanitize(row[c] ? row[c] : "");
		t->cells[t->nrows * t->ncols + c] =
			dump_cut_cell(clean, c + 1 < t->ncols ? DUMP_CELL_MAX : DUMP_LAST_CELL_MAX);
		free(clean);
	}
	t->nrows++;
}

char *dump_cut_cell(const char *s, int max_cols)
{
	if (util_strwidth(s) <= max_cols)
		return xstrdup(s);
	bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	const char *ell = utf8 ? "\xE2\x80\xA6" : "...";
	int room = max_cols - (utf8 ? 1 : 3), w = 0;
	size_t i = 0;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	while (s[i]) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + i, MB_CUR_MAX, &st);
		int cw = 1;
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof st);
			n = 1; /* not a character here: one byte, one column */
			while (s[i + n] && ((unsigned char)s[i + n] & 0xC0) == 0x80)
				n++;
		} else {
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 0;
		}
		if (w + cw > room)
			break;
		w += cw;
		i += n;
	}
	return xasprintf("%.*s%s", (int)i, s, ell);
}

static void table_print(struct table *t, FILE *out)
{
	int *w = xcalloc(t->ncols, sizeof *w);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			int cw = util_strwidth(t->cells[r * t->ncols + c]);
			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			fputs(s, out);
			if (c + 1 < t->ncols)
				fprintf(out, "%*s", w[c] - util_strwidth(s) + 2, "");
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(w);
}

/* A number with `prec` decimals (-1: shortest form), "-" when unknown. */
static char *fnum(double d, int prec)
{
	if (!isfinite(d))
		return xstrdup("-");
	return prec < 0 ? xasprintf("%g", d) : xasprintf("%.*f", prec, d);
}

/* The dashboard's columns, in its order, formatted by instcol.c; an empty
 * cell prints "-" so that every line splits into the same fields. */
static void instances_table(const struct instance *v, size_t n, enum ssh_route ssh, FILE *out)
{
	unsigned opts = instcol_opts(true, ssh);
	struct table t = {IC__DUMP, 0, NULL, 0};
	char *row[IC__DUMP];
	for (int c = 0; c < IC__DUMP; c++)
		row[c] = (char *)instcol_title((enum instcol)c);
	table_add(&t, row);
	double now = util_now();
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < IC__DUMP; c++) {
			char buf[1024];
			instcol_format((enum instcol)c, &v[i], NULL, now, opts, buf, sizeof buf, NULL);
			row[c] = xstrdup(buf[0] ? buf : "-");
		}
		table_add(&t, row);
		for (int c = 0; c < IC__DUMP; c++)
			free(row[c]);
	}
	table_print(&t, out);
}

static void offers_table(const struct offer *v, size_t n, FILE *out)
{
	struct table t = {8, 0, NULL, 0};
	char *hdr[] = {"ID", "GPUS", "VRAM", "$/H", "DLP/$", "RELIAB", "VERIFIED", "LOCATION"};
	table_add(&t, hdr);
	for (size_t i = 0; i < n; i++) {
		const struct offer *o = &v[i];
		char mb[32];
		char *row[8];
		row[0] = xasprintf("%ld", o->id);
		row[1] = xasprintf("%dx %s", o->num_gpus, o->gpu_name ? o->gpu_name : "");
		row[2] = xstrdup(isfinite(o->gpu_ram) ? fmt_mb(mb, sizeof mb, o->gpu_ram) : "-");
		row[3] = fnum(o->dph_total, 3);
		row[4] = fnum(o->dlperf_per_dphtotal, 1);
		row[5] = fnum(o->reliability, 3);
		row[6] = xstrdup(o->verified ? "yes" : "no");
		row[7] = xstrdup(o->geolocation ? o->geolocation : "");
		table_add(&t, row);
		for (int c = 0; c < 8; c++)
			free(row[c]);
	}
	table_print(&t, out);
}

/* A field that holds a time ("created_at", "email_verified_at",
 * "start_date", "last_login_time") with an epoch value: ISO 8601 in UTC. */
static bool iso_time(const char *key, const char *value, char *buf, size_t n)
{
	static const char *const suffixes[] = { "_at", "_date", "_time", "_ts" };
	bool timeish = !strcmp(key, "created") || !strcmp(key, "updated") ||
		       !strcmp(key, "timestamp");
	size_t kl = strlen(key);
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		size_t sl = strlen(suffixes[i]);
		if (kl > sl && !strcmp(key + kl - sl, suffixes[i]))
			timeish = true;
	}
	char *end;
	double t = strtod(value, &end);
	if (!timeish || end == value || *end || !isfinite(t) || t < 1e8 || t > 1e11)
		return false;
	time_t secs = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&secs, &tm))
		return false;
	return strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0;
}

static void kv_table(const struct kv *f, size_t n, FILE *out)
{
	struct table t = {2, 0, NULL, 0};
	char *hdr[] = {"FIELD", "VALUE"};
	table_add(&t, hdr);
	for (size_t i = 0; i < n; i++) {
		char iso[40];
		char *row[] = {f[i].key, iso_time(f[i].key, f[i].value, iso, sizeof iso) ? iso
											    : f[i].value};
		table_add(&t, row);
	}
	table_print(&t, out);
}

/* ---- serverless: one mapping with the view (svfields.c) ------------------- */

/* The worker health of the endpoints a dump names, fetched once each
 * (get_endpoint_workers); a failure is said on stderr and shows as "?". */
struct health_cache {
	long id[64];
	bool have[64];
	struct workers_health h[64];
	size_t n;
};

/* The health of endpoint id (fetched on first use); NULL when it failed. */
static const struct workers_health *health_of(struct api_client *cl, struct health_cache *hc,
					      long id, FILE *err)
{
	for (size_t i = 0; i < hc->n; i++)
		if (hc->id[i] == id)
			return hc->have[i] ? &hc->h[i] : NULL;
	size_t k = hc->n < 64 ? hc->n++ : 63;
	hc->id[k] = id;
	hc->have[k] = false;
	memset(&hc->h[k], 0, sizeof hc->h[k]);
	struct api_call c = api_endpoint_workers(cl->cfg, id);
	json_t *root = NULL;
	struct api_error e;
	bool ok = api_run(cl, &c, &root, &e);
	api_call_free(&c);
	struct worker *v = NULL;
	size_t n = 0;
	if (ok && !workers_decode(root, &v, &n)) {
		ok = false;
		char *t = json_is_string(root) ? util_sanitize(json_string_value(root)) : NULL;
		apierr_protocol(&e, 200, t ? t : "unexpected get_endpoint_workers answer");
		free(t);
	}
	json_decref(root);
	if (!ok) {
		fprintf(err, "rentop: workers of endpoint %ld: %s\n", id, e.msg);
		return NULL;
	}
	workers_summary(v, n, &hc->h[k]);
	free(v);
	hc->have[k] = true;
	return &hc->h[k];
}

/* The health as a JSON object (numbers), or null: total, ready (IDLE and
 * RUNNING), states (every state with workers by its documented name, an
 * unknown one by its own), load, capacity; and the first counts it had
 * (running, loading, idle, error, other: every state but those four). */
static json_t *health_json(const struct workers_health *h)
{
	if (!h)
		return json_null();
	json_t *states = json_object();
	for (int s = 0; s < WS_OTHER; s++)
		if (h->count[s])
			json_object_set_new(states, workers_state_name((enum worker_state)s),
					    json_integer((json_int_t)h->count[s]));
	size_t named = 0;
	for (size_t i = 0; i < h->nother; i++) {
		json_object_set_new(states, h->other[i].name, json_integer((json_int_t)h->other[i].n));
		named += h->other[i].n;
	}
	if (h->count[WS_OTHER] > named)
		json_object_set_new(states, "OTHER", json_integer((json_int_t)(h->count[WS_OTHER] - named)));
	size_t four = h->count[WS_RUNNING] + h->count[WS_LOADING] + h->count[WS_IDLE] +
		      h->count[WS_ERROR];
	return json_pack("{s:I,s:I,s:o,s:I,s:I,s:I,s:I,s:I,s:f,s:f}", "total", (json_int_t)h->total,
			 "ready", (json_int_t)workers_ready(h), "states", states, "running",
			 (json_int_t)h->count[WS_RUNNING], "loading", (json_int_t)h->count[WS_LOADING],
			 "idle", (json_int_t)h->count[WS_IDLE], "error", (json_int_t)h->count[WS_ERROR],
			 "other", (json_int_t)(h->total - four), "load", round(h->load * 1000) / 1000,
			 "capacity", round(h->capacity * 1000) / 1000);
}

/* A row of cells: the fields named by keys through get (svfields), then
 * the workers and load cells of h. */
typedef const char *(*field_text_fn)(const void *rec, const char *key, char *buf, size_t n);

static const char *ep_text(const void *rec, const char *key, char *buf, size_t n)
{
	return svfields_endpoint_text(rec, key, buf, n);
}

static const char *wg_text(const void *rec, const char *key, char *buf, size_t n)
{
	return svfields_workergroup_text(rec, key, buf, n);
}

#define SV_COLS_MAX 16

/* One table: the header, then per record its fields (keys; "@workers" and
 * "@load" the endpoint's health, h[i]). */
static void serverless_table(const char *const *hdr, const char *const *keys, size_t ncols,
			     const void *recs, size_t size, size_t n, field_text_fn get,
			     const struct workers_health *const *h, FILE *out)
{
	struct table t = {ncols, 0, NULL, 0};
	table_add(&t, (char **)hdr);
	for (size_t i = 0; i < n; i++) {
		const void *rec = (const char *)recs + i * size;
		char cell[SV_COLS_MAX][1100], wk[160], ld[64];
		char *row[SV_COLS_MAX];
		svfields_workers_cells(h[i], h[i] != NULL, wk, sizeof wk, ld, sizeof ld);
		for (size_t c = 0; c < ncols; c++) {
			const char *v;
			if (!strcmp(keys[c], "@workers"))
				v = wk;
			else if (!strcmp(keys[c], "@load"))
				v = ld;
			else
				v = get(rec, keys[c], cell[c], sizeof cell[c]);
			if (v != cell[c])
				util_strlcpy(cell[c], v ? v : "", sizeof cell[c]);
			if (!cell[c][0])
				util_strlcpy(cell[c], "-", sizeof cell[c]);
			row[c] = cell[c];
		}
		table_add(&t, row);
	}
	table_print(&t, out);
}

static void workergroups_table(const struct workergroup *v, size_t n,
			       const struct workers_health *const *h, FILE *out)
{
	static const char *const hdr[] = {"ID", "ENDPOINT", "ENDPOINT_ID", "TEMPLATE_HASH",
					  "MIN_LOAD", "TARGET_UTIL", "COLD_MULT", "TEST_WORKERS",
					  "GPU_RAM", "EP_WORKERS", "EP_LOAD", "LAUNCH_ARGS",
					  "QUERY"};
	static const char *const keys[] = {"id", "endpoint_name", "endpoint_id", "template_hash",
					   "min_load", "target_util", "cold_mult", "test_workers",
					   "gpu_ram", "@workers", "@load", "launch_args",
					   "search_query"};
	serverless_table(hdr, keys, sizeof keys / sizeof *keys, v, sizeof *v, n, wg_text, h, out);
}

static void endpoints_table(const struct endpoint *v, size_t n,
			    const struct workers_health *const *h, FILE *out)
{
	static const char *const hdr[] = {"ID", "NAME", "STATE", "MIN_LOAD", "TARGET_UTIL",
					  "COLD_MULT", "COLD_WORKERS", "MAX_WORKERS", "LOAD",
					  "WORKERS"};
	static const char *const keys[] = {"id", "endpoint_name", "endpoint_state", "min_load",
					   "target_util", "cold_mult", "cold_workers", "max_workers",
					   "@load", "@workers"};
	serverless_table(hdr, keys, sizeof keys / sizeof *keys, v, sizeof *v, n, ep_text, h, out);
}

static void templates_table(const struct template_rec *v, size_t n, FILE *out)
{
	struct table t = {6, 0, NULL, 0};
	char *hdr[] = {"ID", "HASH_ID", "NAME", "IMAGE", "RUNTYPE", "DISK"};
	table_add(&t, hdr);
	for (size_t i = 0; i < n; i++) {
		const struct template_rec *x = &v[i];
		char *row[6];
		row[0] = xasprintf("%ld", x->id);
		row[1] = xstrdup(x->hash_id);
		row[2] = xstrdup(x->name);
		row[3] = x->tag && *x->tag ? xasprintf("%s:%s", x->image ? x->image : "", x->tag)
					   : xstrdup(x->image);
		row[4] = xstrdup(x->runtype);
		row[5] = fnum(x->recommended_disk_space, -1);
		table_add(&t, row);
		for (int c = 0; c < 6; c++)
			free(row[c]);
	}
	table_print(&t, out);
}

/* The list inside an envelope ({"results":[...]}, {"offers":[...]}, ...) as
 * a new reference to an array. */
static json_t *list_of(json_t *root, const char *key)
{
	json_t *a = json_is_array(root) ? root : json_object_get(root, key);
	return json_is_array(a) ? json_incref(a) : json_array();
}

/* The records of a --json read as one array, as print_json writes a tree
 * of them (each record's text is already in that form).  A sequential
 * read's records print in the order they came.  Records that follow each
 * other in their set are written as one piece, separators and all
 * (json_stream.h): a few large writes straight from the texts. */
static void print_recs(FILE *out, struct dump_recs *r)
{
	if (!r->at && r->nset == 1) {
		r->n = r->set[0].n;
		r->at = xmalloc((r->n + 1) * sizeof *r->at);
		for (size_t i = 0; i < r->n; i++)
			r->at[i] = (struct dump_rec_at){ 0, i };
	}
	if (!r->n) {
		fputs("[]\n", out);
		return;
	}
	fputs("[\n  ", out);
	for (size_t i = 0, j; i < r->n; i = j) {
		const struct json_stream_texts *t = &r->set[r->at[i].set];
		for (j = i + 1; j < r->n && r->at[j].set == r->at[i].set &&
				r->at[j].rec == r->at[j - 1].rec + 1;
		     j++)
			;
		const struct json_stream_rec *a = &t->r[r->at[i].rec], *z = &t->r[r->at[j - 1].rec];
		fwrite(t->text.s + a->off, 1, z->off + z->len - a->off, out);
		if (j < r->n)
			fputs(",\n  ", out);
	}
	fputs("\n]\n", out);
}

static int dump_instances(struct api_client *cl, FILE *out, FILE *err)
{
	struct dump_recs recs = { 0 };
	recs.set = xcalloc(1, sizeof *recs.set);
	recs.nset = 1;
	struct instance *v = NULL;
	size_t n = 0;
	struct api_error e;
	int rc = DUMP_EXIT_OK;
	if (!fetch_instances(cl, &recs, &v, &n, &e))
		rc = report(err, cl->auth, "instances", &e);
	else if (cl->cfg->dump_json)
		print_recs(out, &recs);
	else
		instances_table(v, n, cl->cfg->ssh_route, out);
	instance_free_all(v, n);
	dumpread_recs_free(&recs);
	return rc;
}

/* A 429 on the search: say what happens (the wait is api_run's, paced at
 * the published 10 searches a minute). */
static void offers_wait_notice(void *ctx, const struct api_call *call, const struct api_error *e,
			       double delay)
{
	(void)call;
	if (e->cls == AE_RATE_LIMIT)
		fprintf((FILE *)ctx, "rentop: offers: refused by the service (429; about 10 searches "
				     "a minute per address): retrying in %.0f s\n", ceil(delay));
}

/* The offers of an answer, decoded as the transfer ends (api_run_decode). */
struct offers_got {
	struct offer *v;
	size_t n;
};

static bool decode_offers(const struct http_xfer *x, void *ctx, struct api_error *e)
{
	struct offers_got *g = ctx;
	return offers_answer_xfer(x, &g->v, &g->n, e);
}

static int dump_offers(struct api_client *cl, FILE *out, FILE *err)
{
	struct query_error qe;
	struct query_cmd qc;
	json_t *body = NULL;
	if (query_cmd_parse(cl->cfg->dump_query ? cl->cfg->dump_query : "", &qc, &qe)) {
		body = query_cmd_body(&qc, &qe);
		query_cmd_free(&qc);
	}
	if (!body) {
		fprintf(err, "rentop: --query: %s\n", qe.msg);
		return DUMP_EXIT_USAGE;
	}
	struct api_call c = api_offers(cl->cfg, body);
	json_t *root = NULL;
	struct api_error e;
	struct offers_got got = { NULL, 0 };
	/* 429s wait from the published interval (6 s, doubling), said on stderr */
	offers_pace_init(&cl->pace[EP_OFFERS], util_mono());
	cl->on_wait = offers_wait_notice;
	cl->on_wait_ctx = err;
	/* the table is mapped straight from the answer's bytes (offers_answer,
	 * as the view does); --json prints the answer's own list, so keeps it */
	bool ok = cl->cfg->dump_json ? api_run(cl, &c, &root, &e)
				     : api_run_decode(cl, &c, decode_offers, &got, &e);
	cl->on_wait = NULL;
	api_call_free(&c);
	if (!ok)
		return report(err, cl->auth, "offers", &e);
	int rc = DUMP_EXIT_OK;
	if (!cl->cfg->dump_json) {
		offers_table(got.v, got.n, out);
	} else if (!json_map_offers(root, &got.v, &got.n)) {
		apierr_protocol(&e, 200, "unexpected offer list shape");
		rc = report(err, cl->auth, "offers", &e);
	} else {
		json_t *a = list_of(root, "offers");
		print_json(out, a);
		json_decref(a);
	}
	json_map_offers_free(got.v, got.n);
	json_decref(root);
	return rc;
}

static int dump_user(struct api_client *cl, FILE *out, FILE *err)
{
	struct api_call c = api_user(cl->cfg);
	json_t *root;
	struct api_error e;
	bool ok = api_run(cl, &c, &root, &e);
	api_call_free(&c);
	if (!ok)
		return report(err, cl->auth, "user", &e);
	int rc = DUMP_EXIT_OK;
	struct user *u = xcalloc(1, sizeof *u);
	if (!json_is_object(root) || !json_map_user(root, u)) {
		apierr_protocol(&e, 200, "unexpected user shape");
		rc = report(err, cl->auth, "user", &e);
	} else if (cl->cfg->dump_json) {
		print_json(out, root);
	} else {
		kv_table(u->fields, u->nfields, out);
	}
	model_user_free(u); /* frees u itself */
	json_decref(root);
	return rc;
}

/* Add each record of the JSON list the health of its endpoint (fetched
 * through the cache) under key, matching records by idkey. */
static void add_health_json(struct api_client *cl, struct health_cache *hc, json_t *a,
			    const char *idkey, const char *key, FILE *err)
{
	size_t i;
	json_t *o;
	json_array_foreach(a, i, o) {
		json_t *idv = json_object_get(o, idkey);
		if (!json_is_integer(idv))
			continue;
		json_object_set_new(o, key, health_json(health_of(cl, hc, (long)json_integer_value(idv),
								  err)));
	}
}

static int dump_workergroups(struct api_client *cl, FILE *out, FILE *err)
{
	struct api_call c = api_workergroups(cl->cfg, false);
	json_t *root;
	struct api_error e;
	bool ok = api_run(cl, &c, &root, &e);
	api_call_free(&c);
	if (!ok && api_should_fall_back(&e)) {
		c = api_workergroups(cl->cfg, true);
		ok = api_run(cl, &c, &root, &e);
		api_call_free(&c);
	}
	if (!ok)
		return report(err, cl->auth, "workergroups", &e);
	int rc = DUMP_EXIT_OK;
	struct workergroup *v = NULL;
	size_t n = 0;
	struct health_cache *hc = xcalloc(1, sizeof *hc);
	if (!json_map_workergroups(root, &v, &n)) {
		apierr_protocol(&e, 200, "unexpected workergroup list shape");
		rc = report(err, cl->auth, "workergroups", &e);
	} else if (cl->cfg->dump_json) {
		json_t *a = list_of(root, "results");
		add_health_json(cl, hc, a, "endpoint_id", "endpoint_workers", err);
		print_json(out, a);
		json_decref(a);
	} else {
		const struct workers_health **h = xcalloc(n + 1, sizeof *h);
		for (size_t i = 0; i < n; i++)
			h[i] = health_of(cl, hc, v[i].endpoint_id, err);
		workergroups_table(v, n, h, out);
		free(h);
	}
	free(hc);
	model_workergroups_free(v, n);
	json_decref(root);
	return rc;
}

static int dump_endpoints(struct api_client *cl, FILE *out, FILE *err)
{
	struct api_call c = api_endptjobs(cl->cfg);
	json_t *root;
	struct api_error e;
	bool ok = api_run(cl, &c, &root, &e);
	api_call_free(&c);
	if (!ok)
		return report(err, cl->auth, "endpoints", &e);
	int rc = DUMP_EXIT_OK;
	struct endpoint *v = NULL;
	size_t n = 0;
	struct health_cache *hc = xcalloc(1, sizeof *hc);
	if (!json_map_endpoints(root, &v, &n)) {
		apierr_protocol(&e, 200, "unexpected endpoint list shape");
		rc = report(err, cl->auth, "endpoints", &e);
	} else if (cl->cfg->dump_json) {
		json_t *a = list_of(root, "results");
		add_health_json(cl, hc, a, "id", "workers", err);
		print_json(out, a);
		json_decref(a);
	} else {
		const struct workers_health **h = xcalloc(n + 1, sizeof *h);
		for (size_t i = 0; i < n; i++)
			h[i] = health_of(cl, hc, v[i].id, err);
		endpoints_table(v, n, h, out);
		free(h);
	}
	free(hc);
	model_endpoints_free(v, n);
	json_decref(root);
	return rc;
}

/* Run call c (freed) into *root; on failure report it as what: the exit status. */
static int fetch(struct api_client *cl, struct api_call c, const char *what, json_t **root,
		 FILE *err)
{
	struct api_error e;
	bool ok = api_run(cl, &c, root, &e);
	api_call_free(&c);
	return ok ? DUMP_EXIT_OK : report(err, cl->auth, what, &e);
}

/* One template search through the view's builder and mapper: the records
 * into *t, the raw list (for --json) into *raw.  An exit status. */
static int search_templates(struct api_client *cl, struct api_call call,
			    struct offers_tpl_answer **t, json_t **raw, FILE *err)
{
	json_t *root;
	int rc = fetch(cl, call, "templates", &root, err);
	if (rc != DUMP_EXIT_OK)
		return rc;
	struct api_error e;
	*t = offers_templates_map(root, &e);
	if (!*t)
		rc = report(err, cl->auth, "templates", &e);
	else
		*raw = list_of(root, "templates");
	json_decref(root);
	return rc;
}

/* Append the raw records of b not already in a (by hash_id), as
 * offers_templates_merge does with the mapped ones. */
static void merge_raw(json_t *a, const json_t *b)
{
	size_t i, j;
	json_t *x, *y;
	json_array_foreach(b, i, x) {
		const char *h = json_string_value(json_object_get(x, "hash_id"));
		bool dup = false;
		json_array_foreach(a, j, y)
			if (h && !dup)
				dup = json_equal(json_object_get(y, "hash_id"), json_object_get(x, "hash_id"));
		if (!dup)
			json_array_append(a, x);
	}
}

/* --query Q: one search with Q's select_filters (the CLI's `search
 * templates`), built by api_templates_query_call as the view's `:templates Q`
 * is; without it the view's list: the operator's own templates (the
 * user's id fetched first), then the recommended ones. */
static int dump_templates(struct api_client *cl, FILE *out, FILE *err)
{
	struct api_call calls[2];
	int nsearch = 1;
	if (cl->cfg->dump_query && *cl->cfg->dump_query) {
		struct query_error qe;
		if (!api_templates_query_call(cl->cfg, cl->cfg->dump_query, &calls[0], &qe)) {
			fprintf(err, "rentop: --query: %s\n", qe.msg);
			return DUMP_EXIT_USAGE;
		}
	} else {
		json_t *root;
		int rc = fetch(cl, api_user(cl->cfg), "user", &root, err);
		if (rc != DUMP_EXIT_OK)
			return rc;
		const json_t *id = json_object_get(root, "id");
		long uid = json_is_integer(id) ? (long)json_integer_value(id) : 0;
		json_decref(root);
		nsearch = 0;
		if (uid > 0)
			calls[nsearch++] = api_templates(cl->cfg, api_templates_filters(TPL_OWN, uid));
		calls[nsearch++] = api_templates(cl->cfg, api_templates_filters(TPL_RECOMMENDED, 0));
	}
	struct offers_tpl_answer *t[2] = { NULL, NULL };
	json_t *raw[2] = { NULL, NULL };
	int rc = DUMP_EXIT_OK;
	for (int i = 0; i < nsearch; i++) {
		if (rc == DUMP_EXIT_OK)
			rc = search_templates(cl, calls[i], &t[i], &raw[i], err);
		else
			api_call_free(&calls[i]);
	}
	if (rc == DUMP_EXIT_OK) {
		struct template_rec *v = t[0]->v;
		size_t n = t[0]->n;
		t[0]->v = NULL;
		t[0]->n = 0;
		if (nsearch > 1) {
			offers_templates_merge(&v, &n, t[1]->v, t[1]->n);
			t[1]->v = NULL;
			t[1]->n = 0;
			merge_raw(raw[0], raw[1]);
		}
		if (cl->cfg->dump_json)
			print_json(out, raw[0]);
		else
			templates_table(v, n, out);
		json_map_templates_free(v, n);
	}
	for (int i = 0; i < 2; i++) {
		offers_templates_answer_free(t[i]);
		json_decref(raw[i]);
	}
	return rc;
}

#define DUMP_BILL_DAYS 14 /* --dump charges without --query DAYS */

/* The billing rows of the last DAYS days (--query DAYS, else 14) as the
 * billing section fetches them (flow/acctbill.h: invoices, then charges
 * day by day, the older form where the new is absent): a table of date,
 * kind, what, amount and description with the day totals after it, or
 * with --json one object a row (amount in dollars, to the thousandth). */
static int dump_charges(struct api_client *cl, FILE *out, FILE *err)
{
	int days = DUMP_BILL_DAYS;
	if (cl->cfg->dump_query && *cl->cfg->dump_query) {
		char *end;
		long d = strtol(cl->cfg->dump_query, &end, 10);
		if (*end || d < 1 || d > BILL_DAYS_MAX) {
			fprintf(err, "rentop: --query: --dump charges takes a number of days, 1 to %d\n",
				BILL_DAYS_MAX);
			return DUMP_EXIT_USAGE;
		}
		days = (int)d;
	}
	double now = util_now(), lo;
	days = acctbill_range(now, days, &lo);
	struct bill_fetch f;
	acctbill_fetch_init(&f, lo, days, now);
	struct api_call c;
	acctbill_map_fn map;
	int rc = DUMP_EXIT_OK;
	while (rc == DUMP_EXIT_OK && acctbill_fetch_call(&f, cl->cfg, &c, &map)) {
		json_t *root = NULL;
		struct api_error e;
		bool ok = api_run(cl, &c, &root, &e);
		api_call_free(&c);
		struct bill_page *p = ok ? map(root, &e) : NULL;
		json_decref(root);
		acctbill_fetch_put(&f, p, p ? NULL : &e);
		if (!p && f.step == BSTEP_DONE)
			rc = report(err, cl->auth, "charges", &e);
	}
	if (rc == DUMP_EXIT_OK && cl->cfg->dump_json) {
		json_t *a = json_array();
		for (size_t i = 0; i < f.n; i++) {
			const struct bill_row *r = &f.v[i];
			char date[32];
			acctbill_date(r->t, date, sizeof date);
			json_array_append_new(a, json_pack("{s:s,s:f,s:s,s:I,s:I,s:s,s:s,s:f}", "date", date,
							   "time", r->t, "kind", acctbill_kind_name(r->kind),
							   "contract", (json_int_t)r->contract, "endpoint",
							   (json_int_t)r->endpoint, "what", r->what, "description",
							   r->desc, "amount", (double)r->mills / 1000.0));
		}
		print_json(out, a);
		json_decref(a);
	} else if (rc == DUMP_EXIT_OK) {
		char m[32];
		fprintf(out, "%-10s  %-10s  %-40s  %10s  %s\n", "DATE", "KIND", "WHAT", "AMOUNT",
			"DESCRIPTION");
		for (size_t i = 0; i < f.n; i++) {
			const struct bill_row *r = &f.v[i];
			char date[32];
			acctbill_date(r->t, date, sizeof date);
			fprintf(out, "%-10s  %-10s  %-40.40s  %10s  %s\n", date, acctbill_kind_name(r->kind),
				r->what, acctbill_money(r->mills, m, sizeof m), r->desc);
		}
		long long *day = xcalloc((size_t)days, sizeof *day);
		long long total = acctbill_per_day(f.v, f.n, lo, days, day);
		fprintf(out, "\n%-10s  %10s\n", "DAY", "SPENT");
		for (int d = 0; d < days; d++) {
			char date[32];
			acctbill_date(lo + d * BILL_DAY, date, sizeof date);
			fprintf(out, "%-10s  %10s\n", date, acctbill_money(day[d], m, sizeof m));
		}
		fprintf(out, "%-10s  %10s\n", "total", acctbill_money(total, m, sizeof m));
		free(day);
	}
	acctbill_fetch_free(&f);
	return rc;
}

/* The official CLI says it too: a refused 2FA session key is dropped and
 * the call resent once with the normal key. */
static void session_notice(void *ctx, const struct api_call *call, const struct api_error *e)
{
	fprintf(ctx, "rentop: %s: the 2FA session key was refused (HTTP %d) and its file "
		     "removed: retrying once with the normal API key\n",
		api_ep_name(call->ep), e->http_status);
}

int dump_run(const struct config *cfg, struct auth *auth, FILE *out, FILE *err)
{
	/* offers search works without a key; everything else needs one */
	if (cfg->dump != DUMP_OFFERS && !auth_has_key(auth)) {
		fprintf(err, "rentop: no API key found: set VAST_API_KEY, use --api-key-file FILE, "
			     "or put the key in %s/vast_api_key\n",
			cfg->vast_config_dir);
		return DUMP_EXIT_AUTH;
	}
	struct api_client cl;
	api_client_init(&cl, cfg, auth);
	cl.on_session = session_notice;
	cl.on_wait_ctx = err;
	int rc = -1;
	switch (cfg->dump) {
	case DUMP_INSTANCES: rc = dump_instances(&cl, out, err); break;
	case DUMP_OFFERS: rc = dump_offers(&cl, out, err); break;
	case DUMP_USER: rc = dump_user(&cl, out, err); break;
	case DUMP_WORKERGROUPS: rc = dump_workergroups(&cl, out, err); break;
	case DUMP_TEMPLATES: rc = dump_templates(&cl, out, err); break;
	case DUMP_ENDPOINTS: rc = dump_endpoints(&cl, out, err); break;
	case DUMP_CHARGES: rc = dump_charges(&cl, out, err); break;
	case DUMP_NONE: break;
	}
	if (rc < 0) {
		fprintf(err, "rentop: nothing to dump\n");
		rc = DUMP_EXIT_USAGE;
	}
	api_client_cleanup(&cl);
	if (rc == DUMP_EXIT_OK && (fflush(out) != 0 || ferror(out))) {
		/* a reader that went away (| head) is not worth a message */
		if (errno != EPIPE)
			fprintf(err, "rentop: writing the output failed: %s\n", strerror(errno));
		rc = DUMP_EXIT_NET;
	}
	return rc;
}
