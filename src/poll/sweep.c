/* sweep.c: owns the instance rows the poller holds and the plan of list
 * requests that keeps them true at any fleet size: per-page merging (rows
 * replace old ones by id at once), generations for safe removal, the
 * attention queries run before the sweep every cycle, and the one v1 paging
 * loop shared with --dump (api/pager.h).  No I/O, no clock: the callers pass the
 * answers and the wall time, which keeps every rule unit-testable. */
#include "poll/sweep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"
#include "json/json_stream.h"
#include "base/util.h"

const char SWEEP_COLS[] =
	"[\"id\",\"label\",\"actual_status\",\"intended_status\",\"cur_state\",\"next_state\","
	"\"status_msg\",\"machine_id\",\"host_id\",\"num_gpus\",\"gpu_name\",\"gpu_ram\","
	"\"gpu_totalram\",\"gpu_total_ram\",\"gpu_util\",\"gpu_temp\",\"cpu_name\","
	"\"cpu_cores_effective\",\"cpu_ram\",\"disk_space\",\"disk_usage\",\"inet_up\","
	"\"disk_util\",\"cpu_util\",\"mem_usage\",\"mem_limit\","
	"\"inet_down\",\"dph_base\",\"dph_total\",\"storage_cost\",\"storage_total_cost\","
	"\"is_bid\",\"min_bid\",\"bid_price\",\"current_bid\",\"image_uuid\",\"image\","
	"\"image_runtype\",\"runtype\",\"ssh_host\",\"ssh_port\",\"public_ipaddr\",\"ports\","
	"\"jupyter_token\",\"machine_dir_ssh_port\","
	"\"start_date\",\"end_date\",\"duration\",\"uptime_mins\",\"reliability2\","
	"\"reliability\",\"geolocation\",\"verification\",\"template_id\",\"template_hash_id\","
	"\"template_name\",\"credit_balance\",\"credit_discount\",\"prepaid_credit\","
	"\"credit_remaining\",\"cuda_max_good\",\"driver_version\",\"extra_env\",\"onstart\","
	"\"search\"]"; /* search: the listing's prices (docs, show_instances.yaml) */

static const char COLS_ID[] = "[\"id\"]";
static const char ORDER_NEWEST[] = "[{\"col\":\"id\",\"dir\":\"desc\"}]";
static const char *const FAIL_STATES[] = { "exited", "created", "unknown", "offline" };
/* The failure probes: host failures and run failures are counted apart, so
 * that a crashed instance whose host then drops out is seen as well.  A run
 * failure is one meant to run (an instance the operator stopped is exited
 * too, and a fleet keeps many: they would only lengthen the rotation). */
static const char *const FAIL_GROUPS[SWEEP_FAIL_GROUPS][2] = {
	{ "offline", "unknown" },
	{ "exited", "created" },
};
static const bool GROUP_MEANT_TO_RUN[SWEEP_FAIL_GROUPS] = { false, true };

/* (The mapper leaves no status NULL, "" when absent: the NULL checks below
 * are guards no answer reaches.) */
static bool in_group(const struct instance *x, int g)
{
	const char *s = x->actual_status;
	if (!s || (strcmp(s, FAIL_GROUPS[g][0]) && strcmp(s, FAIL_GROUPS[g][1])))
		return false;
	return !GROUP_MEANT_TO_RUN[g] || (x->intended_status && !strcmp(x->intended_status, "running"));
}

/* ---- rows ------------------------------------------------------------- */

void sweep_init(struct sweep *w)
{
	memset(w, 0, sizeof *w);
	w->pg.total = -1;
	w->total = -1;
	w->use_cols = true;
	w->hunt_group = -1;
	w->url_budget = SWEEP_URL_START;
	w->first_gap = SWEEP_FIRST_EVERY; /* the first failure listing right after the first page */
	for (int g = 0; g < SWEEP_FAIL_GROUPS; g++)
		w->rot[g] = LONG_MIN;
}

static void att_reset(struct sweep *w)
{
	w->att = ATT_IDLE;
	free(w->att_token);
	w->att_token = NULL;
	free(w->known);
	w->known = NULL;
	w->nknown = 0;
	free(w->pa);
	w->pa = NULL;
	w->nparts = w->part = w->parts_left = 0;
	w->att_pages = 0;
}

/* The departure hunt stops (done, failed, or the service changed). */
static void hunt_reset(struct sweep *w)
{
	free(w->hk);
	w->hk = NULL;
	w->nhk = w->hlo = w->hhi = 0;
	w->hunt_group = -1;
}

void sweep_free(struct sweep *w)
{
	for (size_t i = 0; i < w->n; i++)
		instance_row_unref(w->v[i].r);
	free(w->v);
	free(w->confirm);
	pager_reset(&w->pg);
	att_reset(w);
	hunt_reset(w);
	memset(w, 0, sizeof *w);
}

/* Index of id in w->v, or the insertion point (with *found false). */
static size_t find(const struct sweep *w, long id, bool *found)
{
	size_t lo = 0, hi = w->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < w->n && w->v[lo].id == id;
	return lo;
}

/* Merge mapped rows (taken over): each replaces the held row of its id
 * when it differs from it; a row found the same keeps the held record (and
 * its rev), so that the snapshots share it and the views do not reformat it. */
static void merge(struct sweep *w, struct instance *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool found;
		size_t at = find(w, v[i].id, &found);
		if (found && instance_same(&w->v[at].r->x, &v[i])) {
			instance_clear(&v[i]);
			w->v[at].gen = w->gen;
			continue;
		}
		struct irow *r = instance_row_new(&v[i]);
		if (found) {
			instance_row_unref(w->v[at].r);
		} else {
			if (w->n == w->cap) {
				w->cap = w->cap ? w->cap * 2 : 64;
				w->v = xrealloc(w->v, w->cap * sizeof *w->v);
			}
			memmove(&w->v[at + 1], &w->v[at], (w->n - at) * sizeof *w->v);
			w->n++;
			w->v[at].id = r->x.id;
		}
		w->v[at].r = r;
		w->v[at].gen = w->gen;
		w->changed = true;
	}
	free(v);
}

static void remove_at(struct sweep *w, size_t at)
{
	instance_row_unref(w->v[at].r);
	memmove(&w->v[at], &w->v[at + 1], (w->n - at - 1) * sizeof *w->v);
	w->n--;
	w->changed = true;
	w->removed++;
}

void sweep_forget(struct sweep *w, long id)
{
	bool found;
	size_t at = find(w, id, &found);
	if (found)
		remove_at(w, at);
}

bool sweep_take_changed(struct sweep *w)
{
	bool c = w->changed;
	w->changed = false;
	return c;
}

struct irow **sweep_rows(const struct sweep *w)
{
	struct irow **r = xmalloc((w->n ? w->n : 1) * sizeof *r);
	for (size_t i = 0; i < w->n; i++)
		r[i] = w->v[i].r;
	return r;
}

void sweep_progress(const struct sweep *w, struct inst_progress *pr)
{
	pr->total = w->total;
	pr->partial = !w->complete_once;
	pr->sweep_ok = w->sweep_ok;
}

unsigned long sweep_requests(const struct sweep *w)
{
	unsigned long n = 0;
	for (int i = 0; i < SW__COUNT; i++)
		n += w->requests[i];
	return n;
}

bool sweep_failure_status(const char *s)
{
	for (size_t i = 0; i < sizeof FAIL_STATES / sizeof *FAIL_STATES; i++)
		if (s && !strcmp(s, FAIL_STATES[i]))
			return true;
	return false;
}

/* ---- planning ---------------------------------------------------------- */

void sweep_use_v0(struct sweep *w)
{
	w->v0 = true;
	att_reset(w);
	hunt_reset(w);
}

/* A cycle's attention begins: the failure listings, group by group. */
static void att_start(struct sweep *w)
{
	w->att = ATT_FAILSCAN;
	w->group = 0;
	w->att_req = 0;
	w->cycles++;
	w->cycle_owed = false;
	w->since_att = 0;
}

void sweep_cycle(struct sweep *w)
{
	if (!w->active && !w->nconfirm) {
		w->gen++;
		w->active = true;
		w->interrupted = false;
		pager_reset(&w->pg);
	}
	/* a fleet that fits in one page needs no attention: the page is it */
	if (!w->v0 && !w->small) {
		if (w->att == ATT_IDLE)
			att_start(w);
		else
			w->cycle_owed = true;
	}
	w->hunt_req = 0;
}

/* The select_filters of group g's failures (the id condition is added). */
static json_t *group_filters(int g)
{
	json_t *f = json_pack("{s:{s:[s,s]}}", "actual_status", "in", FAIL_GROUPS[g][0],
			      FAIL_GROUPS[g][1]);
	if (GROUP_MEANT_TO_RUN[g])
		json_object_set_new(f, "intended_status", json_pack("{s:s}", "eq", "running"));
	return f;
}

char *sweep_filters_text(json_t *f)
{
	char *s = json_dumps(f, JSON_COMPACT);
	json_decref(f);
	if (!s)
		abort(); /* json_dumps of an object fails only without memory */
	char *r = xstrdup(s);
	free(s);
	return r;
}

/* The ids held in failure group g, sorted (they are held sorted by id). */
static long *held_failures(const struct sweep *w, int g, size_t *n)
{
	long *k = xmalloc((w->n ? w->n : 1) * sizeof *k); /* never 0 bytes (a hunt holds some) */
	*n = 0;
	for (size_t i = 0; i < w->n; i++)
		if (in_group(&w->v[i].r->x, g))
			k[(*n)++] = w->v[i].id;
	return k;
}

size_t sweep_enc_len(const char *s)
{
	size_t n = 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			     (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
		n += plain ? 1 : 3;
	}
	return n;
}

static size_t dec_len(long v)
{
	char b[32];
	return (size_t)snprintf(b, sizeof b, "%ld", v);
}

/* Encoded bytes of group g's part filter with an empty notin list and the
 * widest id bounds: each excluded id then adds its digits and a comma. */
static size_t part_base(int g)
{
	json_t *f = group_filters(g);
	json_object_set_new(f, "id",
			    json_pack("{s:I,s:I,s:[]}", "gte", (json_int_t)LONG_MIN, "lt",
				      (json_int_t)LONG_MIN, "notin"));
	char *t = sweep_filters_text(f);
	size_t n = sweep_enc_len(t);
	free(t);
	return n;
}

/* Split the known failures into parts whose filters fit url_budget bytes
 * (at least one id a part). */
static void plan_parts(struct sweep *w)
{
	free(w->pa);
	w->pa = xmalloc((w->nknown + 2) * sizeof *w->pa);
	size_t base = part_base(w->group), cur = base, np = 0, in_part = 0;
	w->pa[np++] = 0;
	for (size_t i = 0; i < w->nknown; i++) {
		size_t c = dec_len(w->known[i]) + (in_part ? 3 : 0); /* %2C */
		if (in_part && cur + c > w->url_budget) {
			w->pa[np++] = i;
			cur = base;
			in_part = 0;
			c = dec_len(w->known[i]);
		}
		cur += c;
		in_part++;
	}
	w->nparts = np;
	w->pa[np] = w->nknown;
}

/* The part to list first: the one holding id rot - 1 (the rotation goes
 * down the ids; LONG_MIN: it wrapped, the newest part). */
static size_t part_holding_rot(const struct sweep *w)
{
	long r = w->rot[w->group];
	if (r == LONG_MIN)
		return w->nparts - 1;
	size_t i = w->nparts - 1;
	while (i > 0 && w->known[w->pa[i]] > r - 1)
		i--;
	return i;
}

/* Parts a cycle lists: all when at most two, else half (rounded up), so
 * every part is listed within two cycles. */
static size_t parts_per_cycle(size_t nparts)
{
	return nparts <= 2 ? nparts : (nparts + 1) / 2;
}

/* A failure group's listings begin: the held ones, their parts, the first. */
static void begin_group(struct sweep *w)
{
	free(w->known);
	w->known = held_failures(w, w->group, &w->nknown);
	plan_parts(w);
	w->part = part_holding_rot(w);
	w->parts_left = parts_per_cycle(w->nparts);
	w->att_pages = 0;
	free(w->att_token);
	w->att_token = NULL;
}

/* The listing of the current part: the group's failures in its id range
 * but the held ones. */
static char *scan_filters(const struct sweep *w)
{
	size_t r = w->part;
	json_t *id = json_object();
	if (r > 0)
		json_object_set_new(id, "gte", json_integer(w->known[w->pa[r]]));
	if (r + 1 < w->nparts)
		json_object_set_new(id, "lt", json_integer(w->known[w->pa[r + 1]]));
	if (w->pa[r + 1] > w->pa[r]) {
		json_t *notin = json_array();
		for (size_t i = w->pa[r]; i < w->pa[r + 1]; i++)
			json_array_append_new(notin, json_integer(w->known[i]));
		json_object_set_new(id, "notin", notin);
	}
	json_t *f = group_filters(w->group);
	if (json_object_size(id))
		json_object_set_new(f, "id", id);
	else
		json_decref(id);
	return sweep_filters_text(f);
}

/* A departure hunt's count: the group's failures with an id from the
 * first candidate up to (not including) hk[mid]. */
static char *hunt_filters(const struct sweep *w, size_t mid)
{
	json_t *f = group_filters(w->hunt_group);
	json_t *id = json_pack("{s:I}", "lt", (json_int_t)w->hk[mid]);
	if (w->hlo > 0)
		json_object_set_new(id, "gte", json_integer(w->hk[w->hlo]));
	json_object_set_new(f, "id", id);
	return sweep_filters_text(f);
}

static char *ids_filters(const long *ids, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(ids[i]));
	return sweep_filters_text(json_pack("{s:{s:o}}", "id", "in", a));
}

static char *booting_filters(void)
{
	return sweep_filters_text(json_pack("{s:{s:[n,s,s]},s:{s:s}}", "actual_status", "in", "loading",
				      "rebooting", "intended_status", "eq", "running"));
}

static char *confirm_filters(const struct sweep *w)
{
	return ids_filters(w->confirm, w->nconfirm < SWEEP_PAGE_LIMIT ? w->nconfirm
								       : SWEEP_PAGE_LIMIT);
}

/* The next step of the departure hunt, if one is due: starts one for a
 * group known to hold departed failures. */
static bool hunt_next(struct sweep *w, struct sweep_query *q)
{
	/* (sweep_next asks only when no attention step is due: att is idle) */
	if (w->att != ATT_IDLE || w->hunt_req >= SWEEP_HUNT_PER_CYCLE)
		return false;
	if (w->hunt_group < 0) {
		for (int g = 0; g < SWEEP_FAIL_GROUPS && w->hunt_group < 0; g++) {
			if (!w->departed[g])
				continue;
			w->hk = held_failures(w, g, &w->nhk);
			if (!w->nhk) {
				free(w->hk);
				w->hk = NULL;
				w->departed[g] = false;
				continue;
			}
			w->hunt_group = g;
			w->hlo = 0;
			w->hhi = w->nhk;
		}
		if (w->hunt_group < 0)
			return false;
	}
	if (w->hhi - w->hlo <= SWEEP_PAGE_LIMIT) {
		q->step = SW_RECHECK;
		q->filters = ids_filters(w->hk + w->hlo, w->hhi - w->hlo);
	} else {
		q->step = SW_HUNT;
		q->limit = 1;
		q->cols = COLS_ID;
		q->filters = hunt_filters(w, w->hlo + (w->hhi - w->hlo) / 2);
	}
	w->hunt_req++;
	return true;
}

bool sweep_next(struct sweep *w, struct sweep_query *q)
{
	memset(q, 0, sizeof *q);
	q->limit = SWEEP_PAGE_LIMIT;
	q->cols = w->use_cols ? SWEEP_COLS : NULL;
	if (w->att != ATT_IDLE && w->att_req >= SWEEP_ATT_MAX_REQ)
		att_reset(w);
	if (w->att == ATT_IDLE && w->cycle_owed && w->since_att >= 1 && !w->v0 && !w->small)
		att_start(w); /* the cycle that began while attention ran */
	if (w->active && !w->complete_once && !w->nconfirm &&
	    (w->pg.pages == 0 || w->first_gap + 1 < SWEEP_FIRST_EVERY)) {
		/* the very first page first: rows on screen and the total at
		 * once; then, until the first sweep is complete, nearly every
		 * request is one of its pages (sweep.h) */
		q->step = SW_PAGE;
		q->v0 = w->v0;
		q->token = w->pg.token ? xstrdup(w->pg.token) : NULL;
		if (w->pg.pages > 0) {
			w->first_gap++;
			w->since_att++;
		}
		w->requests[q->step]++;
		return true;
	}
	if (w->att == ATT_FAILSCAN) {
		if (!w->pa)
			begin_group(w);
		q->step = SW_FAILSCAN;
		q->filters = scan_filters(w);
		q->order = ORDER_NEWEST;
		q->token = w->att_token ? xstrdup(w->att_token) : NULL;
	} else if (w->att == ATT_FAILCOUNT) {
		q->step = SW_FAILCOUNT;
		q->limit = 1;
		q->cols = COLS_ID;
		q->filters = sweep_filters_text(group_filters(w->group));
	} else if (w->att == ATT_BOOTING) {
		q->step = SW_BOOTING;
		q->filters = booting_filters();
		q->token = w->att_token ? xstrdup(w->att_token) : NULL;
	}
	if (q->step != SW_NONE) {
		w->att_req++;
		w->first_gap = 0;
	} else if (hunt_next(w, q)) {
		w->since_att++;
		w->first_gap = 0;
	} else if (w->nconfirm) {
		q->step = SW_CONFIRM;
		q->filters = confirm_filters(w);
		w->since_att++;
	} else if (w->active) {
		q->step = SW_PAGE;
		q->v0 = w->v0;
		q->token = w->pg.token ? xstrdup(w->pg.token) : NULL;
		w->since_att++;
		w->first_gap++;
	} else if (w->cycle_owed && w->att == ATT_IDLE && !w->v0 && !w->small) {
		/* nothing else to ask: the owed cycle at once */
		w->since_att = 1;
		return sweep_next(w, q);
	} else {
		return false;
	}
	w->requests[q->step]++;
	return true;
}

void sweep_query_free(struct sweep_query *q)
{
	free(q->filters);
	free(q->token);
	memset(q, 0, sizeof *q);
}

static size_t held_count(const struct sweep *w, int g)
{
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++)
		n += in_group(&w->v[i].r->x, g);
	return n;
}

/* The failure group's listings are done: the next group; after the last,
 * every SWEEP_COUNT_EVERY cycles one group's count (for departures; the
 * groups take turns), then the booting instances. */
static void next_group(struct sweep *w)
{
	free(w->known);
	w->known = NULL;
	w->nknown = 0;
	free(w->pa);
	w->pa = NULL;
	w->nparts = w->part = w->parts_left = 0;
	w->att_pages = 0;
	free(w->att_token);
	w->att_token = NULL;
	if (++w->group < SWEEP_FAIL_GROUPS) {
		w->att = ATT_FAILSCAN;
		return;
	}
	if (!w->complete_once) {
		/* the first sweep reads every row: no count, no booting listing */
		att_reset(w);
		return;
	}
	int cg = (int)((w->cycles / SWEEP_COUNT_EVERY) % SWEEP_FAIL_GROUPS);
	if (w->cycles % SWEEP_COUNT_EVERY == 1 && held_count(w, cg) > 0) {
		w->group = cg;
		w->att = ATT_FAILCOUNT;
		return;
	}
	w->att = ATT_BOOTING;
}

/* The current part's listing ended (complete, or cut at SWEEP_LIST_PAGES:
 * the rest is asked next time round): the rotation moves below it. */
static void part_done(struct sweep *w)
{
	w->rot[w->group] = w->part == 0 ? LONG_MIN : w->known[w->pa[w->part]];
	w->att_pages = 0;
	if (--w->parts_left == 0) {
		next_group(w);
		return;
	}
	w->part = w->part ? w->part - 1 : w->nparts - 1;
}

/* The attention listing moved on: next page, next part, or the next step. */
static void att_advance(struct sweep *w, const struct pager *pg)
{
	free(w->att_token);
	w->att_token = NULL;
	w->att_pages++;
	if (w->att == ATT_BOOTING) {
		if (!pg->done && w->att_pages < SWEEP_BOOT_PAGES)
			w->att_token = xstrdup(pg->token);
		else
			att_reset(w);
		return;
	}
	/* ATT_FAILSCAN */
	if (!w->complete_once) {
		/* the first sweep: one page a group; the part's next page is
		 * the next listing's first (the ones found are held now) */
		if (pg->done)
			w->rot[w->group] = w->part == 0 ? LONG_MIN : w->known[w->pa[w->part]];
		next_group(w);
		return;
	}
	if (!pg->done && w->att_pages < SWEEP_LIST_PAGES) {
		w->att_token = xstrdup(pg->token);
		return;
	}
	part_done(w);
}

/* A complete sweep and its removal checks re-read every row: a failure
 * that left its state before is corrected, so no hunt is needed. */
static void rows_fresh(struct sweep *w)
{
	for (int g = 0; g < SWEEP_FAIL_GROUPS; g++)
		w->departed[g] = false;
	hunt_reset(w);
}

/* A complete sweep ended: rows it did not see become removal checks. */
static void sweep_complete(struct sweep *w, double now_wall)
{
	w->active = false;
	w->complete_once = true;
	w->sweep_ok = now_wall;
	w->small = w->pg.pages <= 1 && !w->v0;
	if (w->pg.total >= 0)
		w->total = w->pg.total;
	if (w->interrupted)
		return; /* a failed page may have hidden rows: remove nothing */
	size_t nc = 0;
	for (size_t i = 0; i < w->n; i++)
		nc += w->v[i].gen != w->gen;
	if (!nc) {
		rows_fresh(w);
		return;
	}
	if (w->v0) {
		/* one complete answer, no filters to ask with: it is the truth */
		for (size_t i = w->n; i-- > 0;)
			if (w->v[i].gen != w->gen)
				remove_at(w, i);
		return;
	}
	free(w->confirm);
	w->confirm = xmalloc(nc * sizeof *w->confirm);
	w->nconfirm = 0;
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].gen != w->gen)
			w->confirm[w->nconfirm++] = w->v[i].id;
}

/* A by-id read answered rows (taken over): asked ids it lacks are gone.
 * A server that ignored the filter (answered an id not asked for) proves
 * nothing: then nothing is removed. */
static void byid_answer(struct sweep *w, const long *asked, size_t nasked, struct instance *v,
			size_t n)
{
	bool honoured = true;
	for (size_t i = 0; i < n && honoured; i++) {
		bool in = false;
		for (size_t k = 0; k < nasked; k++)
			in = in || asked[k] == v[i].id;
		honoured = in;
	}
	if (honoured) {
		for (size_t k = 0; k < nasked; k++) {
			bool back = false;
			for (size_t i = 0; i < n; i++)
				back = back || v[i].id == asked[k];
			if (!back)
				sweep_forget(w, asked[k]);
		}
	}
	if (honoured)
		merge(w, v, n);
	else
		instance_free_all(v, n);
}

/* The removal check answered. */
static void confirm_answer(struct sweep *w, struct instance *v, size_t n)
{
	size_t asked = w->nconfirm < SWEEP_PAGE_LIMIT ? w->nconfirm : SWEEP_PAGE_LIMIT;
	byid_answer(w, w->confirm, asked, v, n);
	memmove(w->confirm, w->confirm + asked, (w->nconfirm - asked) * sizeof *w->confirm);
	w->nconfirm -= asked;
	if (!w->nconfirm)
		rows_fresh(w);
}

bool sweep_answer(struct sweep *w, const struct sweep_query *q, const json_t *root,
		  double now_wall, struct api_error *e)
{
	struct inst_page pd;
	pager_page_of_root(root, true, &pd);
	return sweep_answer_page(w, q, &pd, now_wall, e);
}

bool sweep_answer_page(struct sweep *w, const struct sweep_query *q, struct inst_page *pd,
		       double now_wall, struct api_error *e)
{
	struct pager one = { .token = q->token ? xstrdup(q->token) : NULL, .total = -1 };
	struct pager *pg = q->step == SW_PAGE ? &w->pg : &one;
	struct instance *v = NULL;
	size_t n = 0;
	if (!pager_page_mapped(pg, pd, &v, &n, e)) {
		instance_free_all(v, n);
		pager_reset(&one);
		return false;
	}
	switch (q->step) {
	case SW_PAGE:
		merge(w, v, n);
		if (q->v0 || pg->done)
			sweep_complete(w, now_wall);
		else if (!w->complete_once && pg->total >= 0)
			w->total = pg->total;
		break;
	case SW_FAILCOUNT:
		instance_free_all(v, n); /* ids only: nothing to merge */
		if (w->att == ATT_FAILCOUNT) {
			/* fewer counted than held: held ones left their state unseen */
			if (one.total >= 0 && one.total < (long)held_count(w, w->group))
				w->departed[w->group] = true;
			w->att = ATT_BOOTING;
		}
		break;
	case SW_FAILSCAN:
		merge(w, v, n);
		if (w->att == ATT_FAILSCAN)
			att_advance(w, &one);
		break;
	case SW_BOOTING:
		merge(w, v, n);
		if (w->att == ATT_BOOTING)
			att_advance(w, &one);
		break;
	case SW_CONFIRM:
		confirm_answer(w, v, n);
		break;
	case SW_HUNT:
		instance_free_all(v, n);
		if (w->hunt_group >= 0 && w->hhi - w->hlo > SWEEP_PAGE_LIMIT) {
			size_t mid = w->hlo + (w->hhi - w->hlo) / 2;
			/* the lower half counts fewer than it holds: a departed one
			 * is there; else it is in the upper half */
			if (one.total >= 0 && one.total < (long)(mid - w->hlo))
				w->hhi = mid;
			else
				w->hlo = mid;
		}
		break;
	case SW_RECHECK:
		if (w->hunt_group >= 0) {
			byid_answer(w, w->hk + w->hlo, w->hhi - w->hlo, v, n);
			/* the next probes tell whether more departed ones remain */
			w->departed[w->hunt_group] = false;
			hunt_reset(w);
		} else {
			instance_free_all(v, n);
		}
		break;
	case SW_NONE: /* never handed out by sweep_next */
	case SW__COUNT:
		instance_free_all(v, n);
		break;
	}
	pager_reset(&one);
	return true;
}

void sweep_failed(struct sweep *w, const struct sweep_query *q)
{
	switch (q->step) {
	case SW_PAGE:
		w->interrupted = true; /* resume at the same page, remove nothing */
		break;
	case SW_FAILCOUNT:
	case SW_FAILSCAN:
	case SW_BOOTING:
		att_reset(w);
		break;
	case SW_HUNT:
	case SW_RECHECK:
		hunt_reset(w); /* begun again next cycle (departed stays) */
		break;
	case SW_CONFIRM: /* asked again later */
	case SW_NONE:
	case SW__COUNT:
		break;
	}
}

bool sweep_too_long(struct sweep *w, const struct sweep_query *q)
{
	if (q->step != SW_FAILSCAN || w->att != ATT_FAILSCAN || !w->pa ||
	    w->url_budget <= SWEEP_URL_FLOOR)
		return false;
	w->url_budget = w->url_budget / 2 > SWEEP_URL_FLOOR ? w->url_budget / 2 : SWEEP_URL_FLOOR;
	w->too_long++;
	/* from the refused part's top, in smaller parts */
	w->rot[w->group] = w->part + 1 < w->nparts ? w->known[w->pa[w->part + 1]] : LONG_MIN;
	plan_parts(w);
	w->part = part_holding_rot(w);
	w->parts_left = parts_per_cycle(w->nparts);
	w->att_pages = 0;
	free(w->att_token);
	w->att_token = NULL;
	return true;
}
