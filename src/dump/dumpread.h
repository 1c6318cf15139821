/* dumpread.h: the unpaced `--dump instances` (--page-rate 0) read as id
 * ranges in parallel.  After the first v1 page (its total_instances) and a
 * probe of the highest id, [lowest, highest] is cut into up to
 * DUMPREAD_RANGES id ranges (v1 select_filters {"id":{"gte","lt"}}, the
 * first open below, the last open above, so no id falls between them);
 * the ranges are read concurrently on one curl multi handle, each paged in
 * turn by the shared v1 pager (api/pager.h) with the shared request
 * builder (api_instances_v1_q), each failed attempt judged by the one retry
 * rule (api_after_failure).  The rows are merged in ascending id order,
 * each id once.  Main thread (the --dump process); blocking. */
#ifndef RENTOP_DUMPREAD_H
#define RENTOP_DUMPREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "state/model.h"

#define DUMPREAD_RANGES 8

/* Cut the ids [lo, hi] of a list of `total` rows into at most max ranges,
 * no more than the list has pages (API_PAGE_LIMIT rows each) and no more
 * than it has ids: returns the count k (0 when total <= 0) and the k - 1
 * cut points cuts[0..k-2], strictly ascending, each in (lo, hi]: range 0 is
 * every id < cuts[0], range i every id in [cuts[i-1], cuts[i]), range k-1
 * every id >= cuts[k-2].  Ids equally spread (the widths differ by at most
 * one).  hi < lo is taken as one id.  Pure. */
size_t dumpread_partition(long lo, long hi, long total, size_t max, long *cuts);

/* Is id in range i of k (cuts as above)? */
bool dumpread_in_range(const long *cuts, size_t k, size_t i, long id);

/* The records of a --dump --json read: the texts of its pages (one set
 * per sequence of pages) and the order they are printed in. */
struct dump_recs {
	struct json_stream_texts *set;
	size_t nset;
	struct dump_rec_at {
		uint32_t set;
		size_t rec;      /* set[set].r[rec] */
	} *at;
	size_t n;
};
void dumpread_recs_free(struct dump_recs *r);

enum dumpread_rc {
	DR_OK,            /* every range read: the rows are out */
	DR_FAILED,        /* a request failed for good (*e) */
	DR_RATE_LIMITED,  /* a 429: the caller reads on, paced, one page at a time */
	DR_IGNORED,       /* the service ignored the id filters (a row out of its
			   * range, or one without an id) or refused them (4xx):
			   * read sequentially */
};

#define DUMPREAD_HEAP_MAX ((size_t)16 << 20) /* twice it: glibc's largest mmap threshold */

/* Read every range.  recs non-NULL (--json): the records' texts into
 * *recs (empty before; secrets removed, json_stream_instance_texts), each
 * range's text given room for text_hint bytes at once (a guess, 0: none;
 * grown by doubling past it); otherwise the rows mapped (from the bytes)
 * into *v, *n (appended).  Either ordered by id, each id once.  On anything
 * but DR_OK nothing is added.
 * heap: about what the read will allocate (at most DUMPREAD_HEAP_MAX is
 * used).  While the first pages are on their way, the memory the process
 * frees is set to be kept for its next blocks (glibc's mallopt: no trim,
 * no separate mapping under twice heap) and that much heap is made present
 * in one call, where touching it would fault page by page (~10 us a fault
 * on a virtual machine, ~0.7 us a page made present).  For the --dump
 * process alone (short-lived, no other thread); nothing changes under a
 * sanitizer's allocator. */
enum dumpread_rc dumpread_ranges(struct api_client *cl, const long *cuts, size_t k,
				 struct dump_recs *recs, size_t text_hint, size_t heap, struct instance **v,
				 size_t *n, struct api_error *e);

#endif
