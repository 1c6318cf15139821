/* pager.h: the one v1 paging loop of the instance list, shared by the
 * poller's sweep (poll/sweep.h) and --dump: a page's rows mapped from its
 * bytes (json_stream) or from a tree, its next_token and total taken, a
 * repeated token or a list that never ends refused.  Pure; a pager belongs
 * to one thread. */
#ifndef RENTOP_PAGER_H
#define RENTOP_PAGER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"
#include "json/json_stream.h"
#include "state/model.h"

#define PAGER_PAGE_MAX 100000 /* a list that never ends is a protocol error */

struct pager {
	char *token;      /* after_token of the next page; NULL: the first */
	unsigned pages;   /* answered so far */
	long total;       /* total_instances of the last page, -1 when not sent */
	bool done;        /* the last page had no next_token */
};

void pager_reset(struct pager *pg);   /* frees the token; a fresh first page */

/* An instance list page, mapped (by json_stream from the bytes, or from a
 * jansson tree) and not yet taken by a pager. */
struct inst_page {
	bool shape_ok;            /* false: JSON, but not an instance list */
	struct instance *v;       /* the rows (NULL, 0 when only the shape was checked) */
	size_t n;
	char *token;              /* next_token, malloc'd, NULL when none */
	long total;               /* total_instances, -1 when not sent */
	bool surely_ok;           /* pager_texts: json_stream_answer_texts' verdict */
};
/* Map a page's text straight from the bytes (json_stream.h; map false:
 * the shape only).  False (with *e: "malformed JSON from the service")
 * when it is not JSON; a wrong shape is left to the pager. */
bool pager_map_text(const char *text, size_t len, bool map, struct inst_page *out,
		    struct api_error *e);
/* For --dump --json: the page's records as it prints them
 * (json_stream_instance_texts) appended to *texts, the token and total
 * (the shape only, no rows) into *out; the verdicts of pager_map_text. */
bool pager_texts(const char *text, size_t len, struct json_stream_texts *texts,
		 struct inst_page *out, struct api_error *e);
void pager_page_free(struct inst_page *pd);
/* A page from a jansson tree (map false: the shape only) into *pd. */
void pager_page_of_root(const json_t *root, bool map, struct inst_page *pd);
/* A mapped page arrived: as pager_page, the rows (taken from *pd, which
 * is left empty) appended to *v, *n. */
bool pager_page_mapped(struct pager *pg, struct inst_page *pd, struct instance **v, size_t *n,
		       struct api_error *e);
/* A page arrived: map its instances (appended to *v, *n; v NULL: check the
 * shape only, mapping nothing), take its next_token and total.  False (with *e) when the shape is wrong, the token
 * repeats or the list never ends. */
bool pager_page(struct pager *pg, const json_t *root, struct instance **v, size_t *n,
		struct api_error *e);

#endif
