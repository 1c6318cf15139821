/* sweep.h: the instance list at fleet scale, as a plan of v1 list requests
 * and the rows they produced.  Pure: it decides what to ask next and merges
 * the answers; the poller (async) sends the requests, --dump uses the same
 * pager in its blocking loop.  One sweep object belongs to one thread; no
 * locking.
 *
 * Four kinds of request share the list endpoint's budget, in this order:
 *  - attention, once per cycle (sweep_cycle), at most SWEEP_ATT_MAX_REQ
 *    requests: per failure group (host: offline/unknown; run:
 *    exited/created while meant to run) listings of the group's failures
 *    that exclude (id notin) every failure rentop holds, over id-range
 *    parts: each part's select_filters is at most url_budget bytes once
 *    URL-encoded (SWEEP_URL_START; halved on a 414, down to
 *    SWEEP_URL_FLOOR), so a listing answers only failures not held yet and
 *    its cost does not grow with the failures already known (about 10
 *    bytes per held id: 1,300 held ids a part at the start).  The parts of
 *    a group are listed newest first and rotate: a cycle lists all of them
 *    when there are at most two, else half, so every part of the id space
 *    is listed within two cycles.  A swap (a held failure leaves its state
 *    while another instance fails) is no blind spot: the new failure is in
 *    its part's answer whatever the counts.  Then, every SWEEP_COUNT_EVERY
 *    cycles, one group's failures are counted (the groups take turns;
 *    limit 1, total_instances): fewer than
 *    rentop holds means held failures left their state unseen; the
 *    departure hunt finds them (below).  Then the instances meant to run
 *    that are still booting or loading;
 *  - the departure hunt, at most SWEEP_HUNT_PER_CYCLE requests a cycle
 *    after attention: a binary search over the held failures' id ranges
 *    with count probes (a range counting fewer than it holds has a
 *    departed one), down to SWEEP_PAGE_LIMIT ids, which are then read by
 *    id (rows not returned are removed: the by-id proof of the removal
 *    check); about log2(held / 25) + 1 requests per departure, once;
 *  - removal checks: ids a complete sweep did not contain, asked for by id;
 *    the ones the service does not return are removed;
 *  - the full sweep: every page of the list, round-robin, marking each row
 *    with the sweep's generation.
 * Until the first sweep is complete nothing is held yet for attention to
 * watch, and the sweep itself finds the failures: the sweep then takes
 * nearly all of the budget.  Its first page goes first (rows on screen and
 * the total), then one listing of the failures not held yet (the newest,
 * which the sweep reads last), then at most one attention request in
 * SWEEP_FIRST_EVERY, each one page of a failure group's listing (the groups
 * take turns; no count, no booting listing, no hunt).  At the default
 * 1 request/s the first complete table of 1,000 takes about 46 requests
 * instead of 208, of 10,000 about 460.  A listing answers the group's 25
 * newest failures not held yet, so a host that drops out meanwhile is
 * listed within 2 * SWEEP_FIRST_EVERY requests once it is among those (at
 * once among high ids, which the sweep reads last; at any id once the
 * listings and the sweep hold the failures that were there).
 * A row is removed only when a by-id read that the service honoured lacks
 * it (the removal check after a complete, uninterrupted sweep lacked it, or
 * the hunt's last step), or when the operator destroyed it (sweep_forget);
 * never because a request failed. */
#ifndef RENTOP_SWEEP_H
#define RENTOP_SWEEP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/apierr.h"
#include "json/json_stream.h"
#include "api/pager.h"
#include "state/model.h"

#define SWEEP_PAGE_LIMIT 25   /* the v1 list's largest page */
#define SWEEP_FAIL_GROUPS 2   /* offline/unknown, exited/created */
#define SWEEP_URL_START 14000 /* bytes of an attention listing's select_filters, URL-encoded */
#define SWEEP_URL_FLOOR 1500  /* ... after halvings on 414, at least */
#define SWEEP_ATT_MAX_REQ 12  /* attention requests per cycle, at most */
#define SWEEP_LIST_PAGES 2    /* pages of one part's listing per cycle, at most */
#define SWEEP_COUNT_EVERY 4   /* cycles between departure counts (a group each) */
#define SWEEP_BOOT_PAGES 2    /* pages of booting instances per cycle, at most */
#define SWEEP_HUNT_PER_CYCLE 2 /* departure hunt requests per cycle, at most */
#define SWEEP_FIRST_EVERY 8   /* first sweep: one attention request in this many, at most */

/* The columns rentop's table, detail, ssh and header read (select_cols). */
extern const char SWEEP_COLS[];

/* f (taken over) as compact JSON text for a select_filters (malloc'd). */
char *sweep_filters_text(json_t *f);

/* ---- the fleet ----------------------------------------------------- */

enum sweep_step {
	SW_NONE,
	SW_PAGE,      /* a page of the full sweep */
	SW_FAILCOUNT, /* attention: count of a group's failures (departures) */
	SW_FAILSCAN,  /* attention: failures not yet held, over one id-range part */
	SW_BOOTING,   /* attention: meant to run, still booting or loading */
	SW_CONFIRM,   /* removal check: ids the last complete sweep lacked */
	SW_HUNT,      /* departure hunt: count of a group's failures in an id range */
	SW_RECHECK,   /* departure hunt: the last candidates read by id */
	SW__COUNT
};

struct sweep_query {
	enum sweep_step step;
	int limit;           /* page size */
	char *filters;       /* select_filters JSON text, NULL for none */
	const char *cols;    /* select_cols JSON text (static), NULL for every field */
	const char *order;   /* order_by JSON text (static), NULL for the default */
	char *token;         /* after_token, NULL for the first page */
	bool v0;             /* the spec's v0 list instead (no paging, no filters) */
};
void sweep_query_free(struct sweep_query *q);

struct sweep_held {
	long id;
	struct irow *r;
	uint64_t gen;        /* the sweep generation that last saw it */
};

enum sweep_att { ATT_IDLE, ATT_FAILSCAN, ATT_FAILCOUNT, ATT_BOOTING };

struct sweep {
	struct sweep_held *v;       /* sorted by id */
	size_t n, cap;
	bool changed;               /* rows changed since sweep_take_changed() */
	bool v0;                    /* the service has only the v0 list */
	bool use_cols;              /* send select_cols (false: every field) */
	/* the full sweep */
	struct pager pg;
	uint64_t gen;               /* the current (or last) sweep, 1, 2, ... */
	bool active;
	bool interrupted;           /* a page of this sweep failed */
	bool complete_once;
	bool small;                 /* the last complete sweep was one page */
	double sweep_ok;            /* wall epoch of the last complete sweep, 0 = never */
	long total;                 /* total_instances of the whole list, -1 unknown */
	/* removal checks */
	long *confirm;
	size_t nconfirm;
	/* attention */
	enum sweep_att att;
	unsigned att_req;           /* requests spent this cycle */
	unsigned att_pages;         /* pages of the current part's listing */
	char *att_token;            /* next page of the current listing */
	int group;                  /* the failure group being listed */
	size_t url_budget;          /* bytes of a listing's select_filters, URL-encoded */
	unsigned long cycles;       /* attention cycles begun */
	long *known;                /* the group's held failure ids when it began, sorted */
	size_t nknown;
	size_t *pa;                 /* part i excludes known[pa[i]..pa[i+1]) and lists ids */
	size_t nparts;              /* from known[pa[i]] (i > 0) below known[pa[i+1]] (last: open) */
	size_t part;                /* the part being listed */
	size_t parts_left;          /* parts still to list this cycle, the current one included */
	long rot[SWEEP_FAIL_GROUPS]; /* the next cycle starts at the part holding id rot - 1
				     * (LONG_MIN: the newest part) */
	bool departed[SWEEP_FAIL_GROUPS]; /* holds failures the service no longer counts */
	unsigned long too_long;     /* 414 answers (the budget halved) */
	bool cycle_owed;            /* a cycle began while attention was still under way */
	unsigned since_att;         /* other requests since attention last ended */
	unsigned first_gap;         /* first sweep: pages since the last attention request */
	/* the departure hunt */
	int hunt_group;             /* -1: none under way */
	long *hk;                   /* the group's held failure ids when it began, sorted */
	size_t nhk, hlo, hhi;       /* candidates hk[hlo..hhi) */
	unsigned hunt_req;          /* hunt requests this cycle */
	/* figures */
	unsigned long requests[SW__COUNT];
	unsigned long removed;
};

void sweep_init(struct sweep *w);
void sweep_free(struct sweep *w);

/* A refresh cycle begins: starts a sweep when none is under way and no
 * removal check is pending, and the attention queries (large fleets).  When
 * the last cycle's attention is still under way (more requests than a
 * cycle's budget: many parts after 414s), the new cycle's attention starts
 * as soon as it ends and one other request (a sweep page) has gone, not a
 * whole cycle later. */
void sweep_cycle(struct sweep *w);
/* The next request to send, or false when there is none until the next
 * cycle.  q is the caller's (sweep_query_free). */
bool sweep_next(struct sweep *w, struct sweep_query *q);
/* The answer to q arrived; merges it.  False (with *e) on a wrong shape,
 * which the caller treats as a failure of q (it still calls sweep_failed). */
bool sweep_answer(struct sweep *w, const struct sweep_query *q, const json_t *root,
		  double now_wall, struct api_error *e);
/* The same for a page mapped by pager_map_text (its rows taken, *pd left
 * empty). */
bool sweep_answer_page(struct sweep *w, const struct sweep_query *q, struct inst_page *pd,
		       double now_wall, struct api_error *e);
/* q failed for good (after retries): a sweep page marks the sweep
 * interrupted (it resumes at the same page later, and removes nothing);
 * attention ends for this cycle; a removal check is asked again later. */
void sweep_failed(struct sweep *w, const struct sweep_query *q);
/* q was refused with 414 (URI too long): an attention listing's byte budget
 * is halved (not below SWEEP_URL_FLOOR) and the group's parts planned again
 * from the same place; true when it was, and the 414 is no failure (the
 * next sweep_next asks again, smaller).  False: treat it as sweep_failed. */
bool sweep_too_long(struct sweep *w, const struct sweep_query *q);
/* Bytes of s once URL-encoded (curl_easy_escape: all but A-Z a-z 0-9 - . _ ~
 * take three). */
size_t sweep_enc_len(const char *s);
/* The service could not serve v1 (404/405/410): use the v0 list. */
void sweep_use_v0(struct sweep *w);
/* The operator destroyed it: drop the row at once. */
void sweep_forget(struct sweep *w, long id);
/* Rows changed since the last call? (clears the flag) */
bool sweep_take_changed(struct sweep *w);
/* The held rows, sorted by id (malloc'd array of references the caller
 * does not own: valid until the next call that changes w). */
struct irow **sweep_rows(const struct sweep *w);
void sweep_progress(const struct sweep *w, struct inst_progress *pr);
/* List requests handed out so far, of every step. */
unsigned long sweep_requests(const struct sweep *w);

/* Is this actual_status one the failure probe asks for? */
bool sweep_failure_status(const char *actual_status);

#endif
