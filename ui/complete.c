/* complete.c: the grammars of the `:` commands' arguments for Tab
 * completion: which finite set of words fits the word being typed
 * (columns, themes, query fields and options, sections, ids, routes). */
#include "complete.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "state/model.h"
#include "rules/query.h"
#include "flow/gpunames.h"
#include "base/util.h"

/* Add one candidate (static text, or text owned by src). */
static void add(struct complete_set *o, const char *s)
{
	if (s && *s && o->n < COMPLETE_MAX)
		o->c[o->n++] = s;
}

/* Add a candidate made here: its text goes into the pool. */
static void add_copy(struct complete_set *o, const char *s)
{
	size_t l = strlen(s) + 1;
	if (o->n >= COMPLETE_MAX || o->used + l > sizeof o->pool)
		return;
	char *p = o->pool + o->used;
	memcpy(p, s, l);
	o->used += l;
	o->c[o->n++] = p;
}

static void add_list(struct complete_set *o, const char *const *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		add(o, v[i]);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The ids of the listed instances (machines: their machine ids), each once,
 * ascending. */
static void add_ids(struct complete_set *o, const struct snapshot *s, bool machines)
{
	if (!s || !s->ninstances)
		return;
	long *v = xcalloc(s->ninstances, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < s->ninstances; i++) {
		long id = machines ? s->instances[i]->machine_id : s->instances[i]->id;
		if (id > 0)
			v[n++] = id;
	}
	qsort(v, n, sizeof *v, cmp_long);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1]) {
			char b[24];
			snprintf(b, sizeof b, "%ld", v[i]);
			add_copy(o, b);
		}
	free(v);
}

/* The columns in lower case, each followed by suffix ("" or "="). */
static void add_columns(struct complete_set *o, const struct complete_src *src, const char *suffix)
{
	for (size_t i = 0; src->columns && i < src->ncolumns; i++) {
		char b[48];
		snprintf(b, sizeof b, "%s%s", src->columns[i], suffix);
		for (char *p = b; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		add_copy(o, b);
	}
}

/* The offer-search options (query.h's query_cmd). */
static const char *const offer_opts[] = { "-o", "--order", "-t", "--type", "-d", "--on-demand",
					  "-b", "--bid", "-i", "--interruptible", "-r", "--reserved",
					  "-n", "--no-default", "--limit", "--storage", "--disk" };
static const char *const offer_types[] = { "on-demand", "bid", "interruptible", "reserved" };
/* Fields that take true/false (or any: the filter dropped). */
static const char *const offer_flags[] = { "verified", "rentable", "rented", "external",
					   "static_ip", "vms_enabled" };
static const char *const bool_values[] = { "true", "false", "any" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The GPU names that contain frag, as the query language writes them
 * (underscores for spaces); a name with a character no bare token carries
 * is left out. */
static void gpu_name_values(struct complete_set *o, const struct gpu_names *g, const char *frag)
{
	o->fragment = true;
	for (size_t i = 0; i < g->n; i++) {
		if (!gpunames_contains(g->v[i], frag) || strpbrk(g->v[i], "\"[],_"))
			continue;
		char b[128];
		util_strlcpy(b, g->v[i], sizeof b);
		for (char *p = b; *p; p++)
			if (*p == ' ')
				*p = '_';
		add_copy(o, b);
	}
}

/* `:offers LINE`: word is the token being typed (at line offset start),
 * prev the token before it ("" when none). */
static void offers_args(struct complete_set *o, const struct complete_src *src, const char *line,
			size_t start, const char *prev)
{
	const char *word = line + start;
	const char *names[256];
	if (!strcmp(prev, "-o") || !strcmp(prev, "--order")) {
		/* sort fields, comma-separated, each with an optional +/- */
		const char *comma = strrchr(word, ',');
		if (comma)
			o->start = (size_t)(comma + 1 - line);
		size_t n = query_field_names(QUERY_OFFERS, names, NELEM(names));
		add_list(o, names, n);
		o->no_space = true; /* a direction or another field may follow */
		return;
	}
	if (!strcmp(prev, "-t") || !strcmp(prev, "--type")) {
		add_list(o, offer_types, NELEM(offer_types));
		return;
	}
	if (!strcmp(prev, "--limit") || !strcmp(prev, "--storage") || !strcmp(prev, "--disk"))
		return; /* a number */
	if (word[0] == '-') {
		add_list(o, offer_opts, NELEM(offer_opts));
		return;
	}
	size_t fl = strcspn(word, "=<>!");
	if (word[fl]) { /* FIELD OP VALUE: the flags' values */
		size_t ol = strspn(word + fl, "=<>!");
		const char *op = word + fl;
		bool eq = (ol == 1 && *op == '=') ||
			  (ol == 2 && (!strncmp(op, "==", 2) || !strncmp(op, "!=", 2)));
		if (eq && fl == 8 && !strncmp(word, "gpu_name", 8) && src->gpu_names) {
			gpu_name_values(o, src->gpu_names, word + fl + ol);
			o->start = start + fl + ol;
			return;
		}
		for (size_t i = 0; i < NELEM(offer_flags); i++)
			if (strlen(offer_flags[i]) == fl && !strncmp(word, offer_flags[i], fl)) {
				o->start = start + fl + ol;
				add_list(o, bool_values, NELEM(bool_values));
			}
		return;
	}
	size_t n = query_field_names(QUERY_OFFERS, names, NELEM(names));
	add_list(o, names, n);
	o->no_space = true; /* an operator follows */
}

/* The boolean fields of a template search (SPEC.md's searchable fields). */
static const char *const template_flags[] = { "jup_direct", "recommended", "ssh_direct", "use_ssh" };
static const char *const tf_values[] = { "true", "false" };

/* `:templates QUERY`: the template search fields, true/false after a
 * boolean field's operator. */
static void templates_args(struct complete_set *o, const char *line, size_t start)
{
	const char *word = line + start;
	size_t fl = strcspn(word, "=<>!");
	if (word[fl]) {
		size_t ol = strspn(word + fl, "=<>!");
		for (size_t i = 0; i < NELEM(template_flags); i++)
			if (strlen(template_flags[i]) == fl && !strncmp(word, template_flags[i], fl)) {
				o->start = start + fl + ol;
				add_list(o, tf_values, NELEM(tf_values));
			}
		return;
	}
	const char *names[64];
	size_t n = query_field_names(QUERY_TEMPLATES, names, NELEM(names));
	add_list(o, names, n);
	o->no_space = true; /* an operator follows */
}

/* `:filter TERM`: [!]COLUMN=VALUE, the state names after status=. */
static void filter_args(struct complete_set *o, const struct complete_src *src, const char *line,
			size_t start)
{
	const char *word = line + start;
	if (*word == '!') { /* a negated term: complete what follows */
		word++;
		o->start++;
	}
	const char *eq = strchr(word, '=');
	if (!eq) {
		add_columns(o, src, "=");
		o->no_space = true;
		return;
	}
	if ((size_t)(eq - word) == 6 && !strncasecmp(word, "status", 6)) {
		o->start = (size_t)(eq + 1 - line);
		for (int s = 0; s < IS__COUNT; s++)
			add(o, instance_state_name((enum inst_state)s));
		for (int g = 0; g < IG__COUNT; g++) { /* the header's groups: status=failed */
			const char *name = instance_group_name((enum inst_group)g);
			bool dup = false;
			for (int s = 0; s < IS__COUNT && !dup; s++)
				dup = !strcmp(name, instance_state_name((enum inst_state)s));
			if (!dup)
				add(o, name);
		}
	}
}

/* The canonical name of a command word (a view's alias gives its name). */
static const char *canonical(const struct complete_src *src, const char *w)
{
	for (size_t i = 0; i < src->nviews; i++)
		if (src->view_aliases && src->view_aliases[i] && !strcmp(src->view_aliases[i], w))
			return src->view_names[i];
	return w;
}

size_t complete_line(const char *line, const struct complete_src *src, struct complete_set *out)
{
	out->n = 0;
	out->used = 0;
	out->no_space = false;
	out->fragment = false;
	const char *p = line;
	while (*p == ' ' || *p == ':')
		p++;
	/* the tokens so far: the command, the one before the last, the last */
	const char *sp = strchr(p, ' ');
	if (!sp) {
		out->start = (size_t)(p - line);
		add_list(out, src->commands, src->ncommands);
		return out->n;
	}
	char cmd[40];
	size_t cl = (size_t)(sp - p);
	if (cl >= sizeof cmd)
		return 0;
	memcpy(cmd, p, cl);
	cmd[cl] = '\0';
	const char *c = canonical(src, cmd);
	const char *last = strrchr(line, ' ') + 1; /* the word being typed */
	out->start = (size_t)(last - line);
	/* the token before it and how many arguments come before it */
	char prev[40] = "";
	int nargs = 0;
	const char *q = sp;
	while (*q == ' ')
		q++;
	while (q < last) {
		size_t tl = strcspn(q, " ");
		if (q + tl > last)
			break;
		nargs++;
		snprintf(prev, sizeof prev, "%.*s", (int)(tl < sizeof prev ? tl : sizeof prev - 1), q);
		q += tl;
		while (*q == ' ')
			q++;
	}
	if (!strcmp(c, "offers")) {
		offers_args(out, src, line, out->start, nargs ? prev : "");
	} else if (!strcmp(c, "templates")) {
		templates_args(out, line, out->start);
	} else if (!strcmp(c, "filter")) {
		filter_args(out, src, line, out->start);
	} else if (nargs > 0 && !(nargs == 1 && !strcmp(c, "account") && !strcmp(prev, "reports"))) {
		return 0; /* the other commands take one argument (account: two) */
	} else if (!strcmp(c, "sort")) {
		add_columns(out, src, "");
	} else if (!strcmp(c, "theme")) {
		add_list(out, src->themes, src->nthemes);
	} else if (!strcmp(c, "account")) {
		if (nargs)
			add_ids(out, src->snap, true);
		else
			add_list(out, src->view_args, src->nview_args);
	} else if (!strcmp(c, "reports")) {
		add_ids(out, src->snap, true);
	} else if (!strcmp(c, "logs")) {
		const struct snapshot *s = src->snap;
		for (size_t i = 0; s && i < s->nendpoints; i++)
			add(out, s->endpoints[i].endpoint_name);
		add_ids(out, s, false);
	} else if (!strcmp(c, "workers") || !strcmp(c, "update-workers")) {
		const struct snapshot *s = src->snap;
		for (size_t i = 0; s && i < s->nendpoints; i++)
			add(out, s->endpoints[i].endpoint_name);
	} else if (!strcmp(c, "detail")) {
		add_ids(out, src->snap, false);
	} else if (!strcmp(c, "ssh") || !strcmp(c, "copy-ssh")) {
		static const char *const routes[] = { "direct", "proxy", "ask" };
		add_list(out, routes, NELEM(routes));
	} else {
		add_list(out, src->view_args, src->nview_args);
	}
	return out->n;
}
