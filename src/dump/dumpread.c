/* dumpread.c: owns the parallel read of the instance list by id ranges for
 * the unpaced --dump (dumpread.h): the partition of the ids, the ranges'
 * transfers on one multi handle with the shared retry rule, the check that
 * the service honoured the id filters, and the merge by id. */
#include "dump/dumpread.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/config.h"
#include "net/http.h"
#include "base/log.h"
#include "poll/sweep.h"
#include "base/util.h"

size_t dumpread_partition(long lo, long hi, long total, size_t max, long *cuts)
{
	if (total <= 0 || max == 0)
		return 0;
	if (hi < lo)
		hi = lo;
	unsigned long long span = (unsigned long long)hi - (unsigned long long)lo + 1;
	if (span == 0) /* every long: the count wrapped */
		span = ~0ULL;
	unsigned long long pages = ((unsigned long long)total + API_PAGE_LIMIT - 1) / API_PAGE_LIMIT;
	unsigned long long k = max;
	if (k > pages)
		k = pages;
	if (k > span)
		k = span;
	for (unsigned long long i = 1; i < k; i++) {
		unsigned long long off = (span / k) * i + ((span % k) * i) / k;
		cuts[i - 1] = (long)((unsigned long long)lo + off);
	}
	return (size_t)k;
}

bool dumpread_in_range(const long *cuts, size_t k, size_t i, long id)
{
	if (i > 0 && id < cuts[i - 1])
		return false;
	if (i + 1 < k && id >= cuts[i])
		return false;
	return true;
}

void dumpread_recs_free(struct dump_recs *r)
{
	for (size_t i = 0; i < r->nset; i++)
		json_stream_texts_free(&r->set[i]);
	free(r->set);
	free(r->at);
	memset(r, 0, sizeof *r);
}

/* One row of the answer: its id and where it is (a record of a range's
 * texts, or an index in the mapped rows), with its arrival order (ties
 * keep it). */
struct row {
	long id;
	size_t seq;
	uint32_t set;
	size_t at;
};

struct range {
	size_t i;
	char *filters;            /* select_filters JSON text */
	struct pager pg;
	struct api_call call;
	struct http_xfer *x;
	struct api_attempt st;
	double due;               /* a retry waits until then (monotonic); 0: none */
	bool done;
	struct json_stream_texts texts; /* --json: the range's records */
};

struct reader {
	struct api_client *cl;
	CURLM *multi;
	const long *cuts;
	size_t k;
	bool json;
	struct range *r;
	struct row *rows;
	size_t nrows, cap;
	struct instance *v;       /* mapped rows (table) */
	size_t nv, vcap;
	enum dumpread_rc rc;
	struct api_error *e;
};

/* heap: dumpread_ranges' heap (dumpread.h) */
static void heap_ready(size_t n)
{
	if (n > DUMPREAD_HEAP_MAX)
		n = DUMPREAD_HEAP_MAX;
	/* glibc: no trim of the heap's top and no separate mapping for a
	 * block under 2n, so what is freed (a page's body, a transfer) is
	 * taken again from pages already present */
	mallopt(M_TRIM_THRESHOLD, (int)(2 * n));
	mallopt(M_MMAP_THRESHOLD, (int)(2 * n)); /* over n: the block below is the heap's */
#ifdef MADV_POPULATE_WRITE
	long pg = sysconf(_SC_PAGESIZE);
	char *p = malloc(n);
	if (p && pg > 0) {
		uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
		uintptr_t b = ((uintptr_t)p + n) & ~((uintptr_t)pg - 1);
		if (b > a)
			(void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
	}
	free(p); /* back to the heap's top, its pages kept */
#endif
}

static const char ORDER_ID[] = "[{\"col\":\"id\",\"dir\":\"asc\"}]";

static char *range_filters(const long *cuts, size_t k, size_t i)
{
	json_t *id = json_object();
	if (i > 0)
		json_object_set_new(id, "gte", json_integer(cuts[i - 1]));
	if (i + 1 < k)
		json_object_set_new(id, "lt", json_integer(cuts[i]));
	return sweep_filters_text(json_pack("{s:o}", "id", id));
}

static void add_row(struct reader *rd, long id, uint32_t set, size_t at)
{
	if (rd->nrows == rd->cap) {
		rd->cap = rd->cap ? rd->cap * 2 : 256;
		rd->rows = xrealloc(rd->rows, rd->cap * sizeof *rd->rows);
	}
	rd->rows[rd->nrows] = (struct row){ id, rd->nrows, set, at };
	rd->nrows++;
}

/* Send the range's next page (the pager's token). */
static bool send_page(struct reader *rd, struct range *g)
{
	api_call_free(&g->call);
	/* every field, as the sequential dump asks (cols NULL) */
	g->call = api_instances_v1_q(rd->cl->cfg, g->pg.token, API_PAGE_LIMIT, g->filters, NULL,
				     ORDER_ID);
	g->x = api_xfer_new(rd->cl, &g->call, rd->e);
	if (!g->x)
		return false;
	curl_easy_setopt(http_xfer_easy(g->x), CURLOPT_PRIVATE, g);
	if (curl_multi_add_handle(rd->multi, http_xfer_easy(g->x)) != CURLM_OK) {
		http_xfer_free(g->x);
		g->x = NULL;
		apierr_protocol(rd->e, 0, "could not start a transfer");
		return false;
	}
	return true;
}

/* A range's transfer finished: take its page, send its next one, or judge
 * the failure by the one retry rule. */
static void page_done(struct reader *rd, struct range *g, CURLcode res)
{
	struct http_xfer *x = g->x;
	g->x = NULL;
	http_xfer_done(x, res);
	struct inst_page pd;
	size_t r0 = g->texts.n;
	bool ok = api_parse_page_texts(x, true, rd->json ? &g->texts : NULL, &pd, rd->e);
	CURLcode rc = http_xfer_code(x);
	bool sent = http_xfer_sent(x);
	http_xfer_free(x);
	if (!ok) {
		double delay;
		if (rd->e->cls == AE_RATE_LIMIT) {
			rd->rc = DR_RATE_LIMITED;
			return;
		}
		if (api_after_failure(rd->cl, &g->call, &g->st, rc, sent, rd->e, &delay) != API_RETRY) {
			/* a range query refused as such (400, 404, 422: filters
			 * or ordering it does not take): the sequential read
			 * needs neither */
			rd->rc = rd->e->cls == AE_CLIENT ? DR_IGNORED : DR_FAILED;
			return;
		}
		g->due = util_mono() + (delay > 0 ? delay : 0.000001);
		return;
	}
	g->st = (struct api_attempt){ 0 };
	bool in = true;
	size_t n0 = rd->nv;
	if (rd->json) {
		in = pager_page_mapped(&g->pg, &pd, NULL, NULL, rd->e);
		for (size_t i = r0; in && i < g->texts.n; i++) {
			const struct json_stream_rec *r = &g->texts.r[i];
			if (!r->has_id || !dumpread_in_range(rd->cuts, rd->k, g->i, r->id)) {
				rd->rc = DR_IGNORED;
				return;
			}
			add_row(rd, r->id, (uint32_t)g->i, i);
		}
	} else {
		/* the page's rows, then onto the reader's (grown by doubling) */
		struct instance *pv = NULL;
		size_t pn = 0;
		in = pager_page_mapped(&g->pg, &pd, &pv, &pn, rd->e);
		if (rd->nv + pn > rd->vcap) {
			while (rd->nv + pn > rd->vcap)
				rd->vcap = rd->vcap ? rd->vcap * 2 : 256;
			rd->v = xrealloc(rd->v, rd->vcap * sizeof *rd->v);
		}
		if (pn)
			memcpy(rd->v + rd->nv, pv, pn * sizeof *pv);
		rd->nv += pn;
		free(pv);
		for (size_t i = n0; in && i < rd->nv; i++) {
			if (!dumpread_in_range(rd->cuts, rd->k, g->i, rd->v[i].id)) {
				rd->rc = DR_IGNORED;
				return;
			}
			add_row(rd, rd->v[i].id, 0, i);
		}
	}
	if (!in) { /* a wrong shape, a repeated token: as the sequential read */
		rd->rc = DR_FAILED;
		return;
	}
	if (g->pg.done)
		g->done = true;
	else if (!send_page(rd, g))
		rd->rc = DR_FAILED;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Until every range is done or one fails. */
static void run(struct reader *rd)
{
	for (;;) {
		int running = 0;
		curl_multi_perform(rd->multi, &running);
		CURLMsg *msg;
		int left;
		while (rd->rc == DR_OK && (msg = curl_multi_info_read(rd->multi, &left))) {
			if (msg->msg != CURLMSG_DONE)
				continue;
			struct range *g = NULL;
			CURL *easy = msg->easy_handle;
			CURLcode res = msg->data.result;
			curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&g);
			curl_multi_remove_handle(rd->multi, easy);
			if (g)
				page_done(rd, g, res);
		}
		if (rd->rc != DR_OK)
			return;
		double now = util_mono(), next = -1;
		bool busy = false;
		for (size_t i = 0; i < rd->k; i++) {
			struct range *g = &rd->r[i];
			if (g->done)
				continue;
			busy = true;
			if (g->due > 0 && g->due <= now) {
				g->due = 0;
				if (!send_page(rd, g)) {
					rd->rc = DR_FAILED;
					return;
				}
			} else if (g->due > 0 && (next < 0 || g->due < next)) {
				next = g->due;
			}
		}
		if (!busy)
			return;
		int ms = 1000;
		if (next >= 0) {
			double w = (next - now) * 1000;
			ms = w < 1 ? 1 : w > 1000 ? 1000 : (int)w;
		}
		curl_multi_poll(rd->multi, NULL, 0, ms, NULL);
	}
}

enum dumpread_rc dumpread_ranges(struct api_client *cl, const long *cuts, size_t k,
				 struct dump_recs *recs, size_t text_hint, size_t heap, struct instance **v,
				 size_t *n, struct api_error *e)
{
	memset(e, 0, sizeof *e);
	bool json = recs != NULL;
	struct reader rd = { .cl = cl, .cuts = cuts, .k = k, .json = json, .rc = DR_OK, .e = e };
	rd.multi = curl_multi_init();
	if (!rd.multi) {
		apierr_protocol(e, 0, "out of memory");
		return DR_FAILED;
	}
	rd.r = xcalloc(k ? k : 1, sizeof *rd.r);
	for (size_t i = 0; i < k; i++) {
		rd.r[i].i = i;
		rd.r[i].filters = range_filters(cuts, k, i);
		rd.r[i].pg.total = -1;
	}
	for (size_t i = 0; i < k && rd.rc == DR_OK; i++)
		if (!send_page(&rd, &rd.r[i]))
			rd.rc = DR_FAILED;
	if (rd.rc == DR_OK) {
		/* while the first pages are on their way */
		heap_ready(heap);
		for (size_t i = 0; json && text_hint && i < k; i++)
			util_buf_reserve(&rd.r[i].texts.text, text_hint);
		run(&rd);
	}
	for (size_t i = 0; i < k; i++) {
		struct range *g = &rd.r[i];
		if (g->x) {
			curl_multi_remove_handle(rd.multi, http_xfer_easy(g->x));
			http_xfer_free(g->x);
		}
		api_call_free(&g->call);
		pager_reset(&g->pg);
		free(g->filters);
	}
	curl_multi_cleanup(rd.multi);
	if (rd.rc == DR_OK) {
		/* ascending ids, each once (a row that moved between two pages
		 * of a range while it was read comes twice: the first kept) */
		qsort(rd.rows, rd.nrows, sizeof *rd.rows, row_cmp);
		size_t keep = 0;
		for (size_t i = 0; i < rd.nrows; i++) {
			if (keep > 0 && rd.rows[i].id == rd.rows[keep - 1].id)
				continue;
			rd.rows[keep++] = rd.rows[i];
		}
		rd.nrows = keep;
		if (json) {
			recs->set = xcalloc(k, sizeof *recs->set);
			recs->nset = k;
			for (size_t i = 0; i < k; i++) {
				recs->set[i] = rd.r[i].texts;
				memset(&rd.r[i].texts, 0, sizeof rd.r[i].texts); /* taken */
			}
			recs->at = xmalloc((keep + 1) * sizeof *recs->at);
			recs->n = keep;
			for (size_t i = 0; i < keep; i++)
				recs->at[i] = (struct dump_rec_at){ rd.rows[i].set, rd.rows[i].at };
		} else {
			*v = xrealloc(*v, (*n + keep + 1) * sizeof **v);
			for (size_t i = 0; i < keep; i++) {
				(*v)[(*n)++] = rd.v[rd.rows[i].at];
				memset(&rd.v[rd.rows[i].at], 0, sizeof *rd.v); /* taken */
			}
		}
	} else if (rd.rc == DR_IGNORED) {
		log_msg("instances: the service ignored the id ranges: read in sequence");
	}
	for (size_t i = 0; i < k; i++)
		json_stream_texts_free(&rd.r[i].texts);
	free(rd.r);
	free(rd.rows);
	instance_free_all(rd.v, rd.nv); /* the duplicates, or every row on failure */
	return rd.rc;
}
