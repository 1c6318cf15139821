/* gpunames.c: see gpunames.h. */
#include "flow/gpunames.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void *gpunames_from_json(const json_t *root, struct api_error *e)
{
	const json_t *list = json_object_get(root, "gpu_names");
	if (!json_is_array(list)) {
		apierr_protocol(e, 200, "no gpu_names list in the answer");
		return NULL;
	}
	struct gpu_names *g = xcalloc(1, sizeof *g);
	g->v = xcalloc(json_array_size(list) + 1, sizeof *g->v);
	size_t i;
	const json_t *s;
	json_array_foreach(list, i, s) {
		const char *t = json_string_value(s);
		if (t && *t)
			g->v[g->n++] = util_sanitize_n(t, strlen(t));
	}
	return g;
}

void gpunames_free(void *p)
{
	struct gpu_names *g = p;
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i]);
	free(g->v);
	free(g);
}

/* One character folded: lower case, '_' as ' '. */
static int fold(char c)
{
	return c == '_' ? ' ' : tolower((unsigned char)c);
}

bool gpunames_contains(const char *name, const char *frag)
{
	size_t fl = strlen(frag);
	for (const char *p = name;; p++) {
		size_t k = 0;
		while (k < fl && p[k] && fold(p[k]) == fold(frag[k]))
			k++;
		if (k == fl)
			return true;
		if (!*p)
			return false;
	}
}

size_t gpunames_match(const struct gpu_names *g, const char *frag, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; g && i < g->n && n < max; i++)
		if (gpunames_contains(g->v[i], frag))
			out[n++] = g->v[i];
	return n;
}

static bool is_name(const struct gpu_names *g, const char *s)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i], s))
			return true;
	return false;
}

/* The message for value s (not a name) into msg. */
static void say(const struct gpu_names *g, const char *s, char *msg, size_t n)
{
	char typed[80];
	size_t k = 0;
	for (const char *c = s; *c && k + 1 < sizeof typed; c++)
		typed[k++] = *c == ' ' ? '_' : *c;
	typed[k] = '\0';
	char *clean = util_sanitize_n(typed, k);
	size_t len = (size_t)snprintf(msg, n, "gpu_name=%s is not a GPU name", clean);
	free(clean);
	const char *m[16];
	size_t nm = gpunames_match(g, s, m, sizeof m / sizeof *m);
	if (!nm) {
		if (len < n)
			snprintf(msg + len, n - len, " (none contains it)");
		return;
	}
	for (size_t i = 0; i < nm && len < n; i++)
		len += (size_t)snprintf(msg + len, n - len, "%s%s", i ? ", " : ": ", m[i]);
	if (len < n)
		snprintf(msg + len, n - len, " — Tab completes");
}

bool gpunames_check(const struct gpu_names *g, const json_t *body, char *msg, size_t n)
{
	if (n)
		msg[0] = '\0';
	const json_t *cond = json_object_get(body, "gpu_name");
	if (!g || !g->n || !json_is_object(cond) || !n)
		return false;
	const char *s = json_string_value(json_object_get(cond, "eq"));
	if (s && !is_name(g, s)) {
		say(g, s, msg, n);
		return true;
	}
	const json_t *in = json_object_get(cond, "in");
	size_t i;
	const json_t *x;
	json_array_foreach(in, i, x) {
		s = json_string_value(x);
		if (s && !is_name(g, s)) {
			say(g, s, msg, n);
			return true;
		}
	}
	return false;
}
