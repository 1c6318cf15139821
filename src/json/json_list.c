/* json_list.c: see json_list.h. */
#include "json/json_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/apierr.h"
#include "base/util.h"

const json_t *json_list_array(const json_t *root, const char *const *keys)
{
	if (json_is_array(root))
		return root;
	if (!json_is_object(root))
		return NULL;
	const json_t *a = NULL;
	for (size_t i = 0; keys && keys[i] && !a; i++)
		a = json_object_get(root, keys[i]);
	return json_is_array(a) ? a : NULL;
}

bool json_list_decode(const json_t *root, const struct json_list_kind *k, void *vp, size_t *n)
{
	char *v;
	memcpy(&v, vp, sizeof v);
	if (k->decode)
		return k->decode(root, vp, n);
	const json_t *arr = json_list_array(root, k->keys);
	if (!arr)
		return false;
	size_t count = json_array_size(arr);
	v = xrealloc(v, (*n + count + 1) * k->size);
	for (size_t i = 0; i < count; i++) {
		const json_t *o = json_array_get(arr, i);
		void *rec = v + *n * k->size;
		memset(rec, 0, k->size);
		if (json_is_object(o) && k->one(o, rec))
			(*n)++;
	}
	memcpy(vp, &v, sizeof v);
	return true;
}

struct json_list *json_list_map(const struct json_list_kind *k, const json_t *root,
				struct api_error *e)
{
	struct json_list *l = xcalloc(1, sizeof *l);
	l->kind = k;
	if (!json_list_decode(root, k, &l->v, &l->n)) {
		json_list_free(l);
		char what[160];
		snprintf(what, sizeof what, "%s: unexpected answer", k->what);
		apierr_protocol(e, 200, what);
		return NULL;
	}
	return l;
}

void json_list_free(void *list)
{
	struct json_list *l = list;
	if (l)
		l->kind->free_recs(l->v, l->n);
	free(l);
}

size_t json_list_count(const struct json_list *l)
{
	return l ? l->n : 0;
}
