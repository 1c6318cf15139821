/* pager.c: the v1 paging loop of the instance list (pager.h). */
#include "api/pager.h"

#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"
#include "base/util.h"

void pager_reset(struct pager *pg)
{
	free(pg->token);
	pg->token = NULL;
	pg->pages = 0;
	pg->total = -1;
	pg->done = false;
}

/* The list's shape and next_token without mapping a row (for callers that
 * keep the raw JSON only): the shapes json_map_instances() accepts.
 * (json_is_*() test for NULL first; root is never NULL, list is checked:
 * those branches are never taken.) */
static bool shape_only(const json_t *root, char **token)
{
	*token = NULL;
	if (json_is_array(root))
		return true;
	if (!json_is_object(root))
		return false;
	const json_t *list = json_object_get(root, "instances");
	if (!list)
		return json_object_get(root, "id") != NULL;
	if (!json_is_array(list) && !json_is_object(list) && !json_is_null(list))
		return false;
	const json_t *tok = json_object_get(root, "next_token");
	if (json_is_string(tok) && json_string_length(tok) > 0)
		*token = xstrndup(json_string_value(tok), json_string_length(tok));
	else if (json_is_integer(tok))
		*token = xasprintf("%lld", (long long)json_integer_value(tok));
	return true;
}

/* The stream mapper's verdict rc on a page, into *out and *e (err: why
 * the text is not JSON). */
static bool page_verdict(enum json_stream_rc rc, const char *err, struct inst_page *out,
			 struct api_error *e)
{
	switch (rc) { /* every json_stream_rc is named: no other value comes */
	case JSTREAM_OK:
		out->shape_ok = true;
		return true;
	case JSTREAM_BAD_SHAPE:
		out->shape_ok = false;
		return true;
	case JSTREAM_BAD_JSON:
		break;
	}
	char m[220];
	snprintf(m, sizeof m, "malformed JSON from the service (%s)", err);
	apierr_protocol(e, 200, m);
	pager_page_free(out);
	return false;
}

bool pager_map_text(const char *text, size_t len, bool map, struct inst_page *out,
		    struct api_error *e)
{
	memset(out, 0, sizeof *out);
	char err[160];
	enum json_stream_rc rc = json_stream_instances(text, len, map ? &out->v : NULL, &out->n,
						       &out->token, &out->total, err, sizeof err);
	return page_verdict(rc, err, out, e);
}

bool pager_texts(const char *text, size_t len, struct json_stream_texts *texts,
		 struct inst_page *out, struct api_error *e)
{
	memset(out, 0, sizeof *out);
	char err[160];
	enum json_stream_rc rc = json_stream_answer_texts(text, len, texts, &out->token,
							  &out->total, &out->surely_ok, err, sizeof err);
	return page_verdict(rc, err, out, e);
}

void pager_page_free(struct inst_page *pd)
{
	instance_free_all(pd->v, pd->n);
	free(pd->token);
	memset(pd, 0, sizeof *pd);
}

void pager_page_of_root(const json_t *root, bool map, struct inst_page *pd)
{
	memset(pd, 0, sizeof *pd);
	pd->shape_ok = map ? json_map_instances(root, &pd->v, &pd->n, &pd->token)
			   : shape_only(root, &pd->token);
	json_t *t = json_is_object(root) ? json_object_get(root, "total_instances") : NULL;
	pd->total = json_is_integer(t) ? (long)json_integer_value(t) : -1;
}

bool pager_page_mapped(struct pager *pg, struct inst_page *pd, struct instance **v, size_t *n,
		       struct api_error *e)
{
	if (!pd->shape_ok) {
		apierr_protocol(e, 200, "unexpected instance list shape");
		pager_page_free(pd);
		return false;
	}
	if (v && pd->n) { /* take the rows */
		*v = xrealloc(*v, (*n + pd->n) * sizeof **v);
		memcpy(*v + *n, pd->v, pd->n * sizeof *pd->v);
		*n += pd->n;
		free(pd->v);
		pd->v = NULL;
		pd->n = 0;
	}
	char *token = pd->token;
	pd->token = NULL;
	pg->total = pd->total;
	pager_page_free(pd);
	pg->pages++;
	if (token && *token && pg->token && !strcmp(token, pg->token)) {
		apierr_protocol(e, 200, "the instance list repeats its next_token");
		free(token);
		return false;
	}
	if (pg->pages > PAGER_PAGE_MAX) {
		apierr_protocol(e, 200, "the instance list never ends");
		free(token);
		return false;
	}
	free(pg->token);
	pg->token = NULL;
	if (token && *token) {
		pg->token = token;
		pg->done = false;
	} else {
		free(token);
		pg->done = true;
	}
	return true;
}

bool pager_page(struct pager *pg, const json_t *root, struct instance **v, size_t *n,
		struct api_error *e)
{
	struct inst_page pd;
	pager_page_of_root(root, v != NULL, &pd);
	return pager_page_mapped(pg, &pd, v, n, e);
}
