/* pane_templates.h: the templates overlay (`:templates`, view_templates,
 * registered in view.c) and the template list it shares with the create
 * form's picker: the operator's own templates and the recommended ones,
 * fetched as two template searches through jobs_call (fetches, paced by
 * the poller) and merged (own first, no hash_id twice); the overlay may
 * instead search with a query (`:templates QUERY`, `/`).  UI thread only. */
#ifndef RENTOP_UI_PANE_TEMPLATES_H
#define RENTOP_UI_PANE_TEMPLATES_H

#include <stdbool.h>
#include <stddef.h>

#include "json/json_map.h"

struct app;

struct tpl_list {
	int req_own, req_rec;        /* the searches in flight (0: none) */
	struct template_rec *own, *rec; /* answers waiting for the other one */
	size_t nown, nrec;
	bool got_own, got_rec;
	struct template_rec *v;      /* the merged list: own first, then recommended */
	size_t n;
	bool loaded;                 /* both searches answered (or failed) at least once */
	char status[320];            /* "" or why a search failed */
	/* A template search in the CLI's query language (the view's
	 * `:templates QUERY`): one search, api_templates_query_call's, instead
	 * of the pair.  "": the pair (the picker's list). */
	char query[256];
};

/* Send both searches (own: only when the user's id is known), or the one
 * search of l->query.  Nothing is sent while a previous one is in flight. */
void pane_templates_list_fetch(struct app *a, struct tpl_list *l);
/* Search with query instead ("" : the own and recommended pair): what is
 * in flight is dropped (its answer would be another query's) and the new
 * search sent.  The caller has checked the query (api_templates_query_call). */
void pane_templates_list_search(struct app *a, struct tpl_list *l, const char *query);
/* Take the answers that came; true when the list changed. */
bool pane_templates_list_take(struct app *a, struct tpl_list *l);
void pane_templates_list_free(struct app *a, struct tpl_list *l);
/* Indices of the records matching text (offers_template_matches), in
 * order, into idx (at most max); the count.  Pure. */
size_t pane_templates_list_match(const struct tpl_list *l, const char *text, size_t *idx, size_t max);
/* A record's one-line summary: "name  image:tag  ssh  16 GB  own" (pure). */
char *pane_templates_list_summary(const struct template_rec *t, long user_id, char *buf, size_t n);

#endif
