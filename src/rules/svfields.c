/* svfields.c: owns the field tables of serverless endpoints and
 * workergroups (keys, labels, ranges, which form shows them), the text of a
 * field's value, the check and parse of a typed value and the checks across
 * fields; used by the serverless view's forms and by --dump (svfields.h).
 * Ranges: where the spec is silent, the CLI's documented meaning (a load in
 * perf units/s, a utilisation fraction, a multiple, worker counts) bounded
 * to values an operator could mean. */
#include "rules/svfields.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/query.h"
#include "base/util.h"

#define NAME_MAX_LEN 64
#define HASH_LEN 32
#define ARGS_MAX 1024
#define QUERY_MAX 1024

/* The endpoint's autoscaler: the CLI's names, ranges and create defaults
 * (vast-cli create endpoint: min_load 0, min_cold_load 0, target_util 0.9,
 * cold_mult 2.5, cold_workers 5, max_workers 20; max_queue_time and
 * target_queue_time left to the service (30 s and 10 s), no
 * inactivity_timeout: never scaled to zero).  Renaming and the state
 * (active, suspended, stopped: vast-cli update endpoint) are edits. */
static const struct svfields_def ep_defs[] = {
	{ "endpoint_name", "name", SVK_NAME, 0, 0, SVF_CREATE | SVF_REQUIRED, "" },
	{ "min_load", "min_load (load/s)", SVK_NUMBER, 0, 1e6, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "0" },
	{ "target_util", "target_util (0-1)", SVK_NUMBER, 0, 1, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "0.9" },
	{ "cold_mult", "cold_mult (x)", SVK_NUMBER, 0, 100, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "2.5" },
	{ "cold_workers", "cold_workers", SVK_INTEGER, 0, 1000, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "5" },
	{ "max_workers", "max_workers", SVK_INTEGER, 1, 1000, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "20" },
	{ "min_cold_load", "min_cold_load (load/s)", SVK_NUMBER, 0, 1e6, SVF_CREATE | SVF_EDIT,
	  "0" },
	{ "max_queue_time", "max_queue_time (s)", SVK_NUMBER, 0, 86400, SVF_CREATE | SVF_EDIT,
	  "30" },
	{ "target_queue_time", "target_queue_time (s)", SVK_NUMBER, 0, 86400,
	  SVF_CREATE | SVF_EDIT, "10" },
	{ "inactivity_timeout", "inactivity_timeout (s; empty: never to 0)", SVK_INTEGER, 0,
	  31536000, SVF_CREATE | SVF_EDIT, "" },
	/* the edit form's rename and state, after the figures (the create
	 * form's name comes first: the row above) */
	{ "endpoint_name", "name", SVK_NAME, 0, 0, SVF_EDIT | SVF_REQUIRED, "" },
	{ "endpoint_state", "state (active/suspended/stopped)", SVK_STATE, 0, 0,
	  SVF_EDIT | SVF_REQUIRED, "active" },
};

/* The states an endpoint can be set to (vast-cli update endpoint). */
static const char *const ep_states[] = { "active", "suspended", "stopped" };

static const struct svfields_def wg_defs[] = {
	{ "template_hash", "template hash (Enter picks)", SVK_HASH, 0, 0, SVF_CREATE, "" },
	{ "template_id", "template id (0: none)", SVK_INTEGER, 0, 1e12, SVF_CREATE, "0" },
	{ "min_load", "min_load (load/s)", SVK_NUMBER, 0, 1e6, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "10" },
	{ "target_util", "target_util (0-1)", SVK_NUMBER, 0, 1, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "0.9" },
	{ "cold_mult", "cold_mult (x)", SVK_NUMBER, 0, 100, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "2.5" },
	{ "test_workers", "test_workers", SVK_INTEGER, 0, 100, SVF_CREATE | SVF_EDIT | SVF_REQUIRED,
	  "3" },
	{ "gpu_ram", "gpu_ram (GB)", SVK_NUMBER, 0, 1024, SVF_CREATE | SVF_EDIT | SVF_REQUIRED, "24" },
	{ "search_query", "search query", SVK_QUERY, 0, QUERY_MAX, SVF_CREATE | SVF_EDIT, "" },
	{ "launch_args", "launch args", SVK_TEXT, 0, ARGS_MAX, SVF_CREATE | SVF_EDIT, "" },
	/* the edit form's template, last (Enter picks, as in the create form;
	 * then U rolls the workers onto it) */
	{ "template_hash", "template hash (Enter picks)", SVK_HASH, 0, 0, SVF_EDIT, "" },
};

const struct svfields_def *svfields_defs(enum svf_target t, size_t *n)
{
	switch (t) {
	case SVF_ENDPOINT:
		*n = sizeof ep_defs / sizeof ep_defs[0];
		return ep_defs;
	case SVF_WORKERGROUP:
		*n = sizeof wg_defs / sizeof wg_defs[0];
		return wg_defs;
	}
	*n = 0;
	return NULL;
}

const struct svfields_def *svfields_def(enum svf_target t, const char *key)
{
	size_t n;
	const struct svfields_def *d = svfields_defs(t, &n);
	for (size_t i = 0; key && i < n; i++)
		if (strcmp(d[i].key, key) == 0)
			return &d[i];
	return NULL;
}

/* text without its leading and trailing blanks, into buf. */
static const char *trimmed(const char *text, char *buf, size_t n)
{
	while (*text && isspace((unsigned char)*text))
		text++;
	util_strlcpy(buf, text, n);
	size_t l = strlen(buf);
	while (l && isspace((unsigned char)buf[l - 1]))
		buf[--l] = '\0';
	return buf;
}

/* A whole string as a finite number. */
static bool parse_num(const char *s, double *out)
{
	if (!*s)
		return false;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* "%g" with enough digits to read back what was typed. */
static void fmt_num(double v, char *buf, size_t n)
{
	snprintf(buf, n, "%.10g", v);
}

bool svfields_check(const struct svfields_def *d, const char *text, char *err, size_t n)
{
	char t[QUERY_MAX + ARGS_MAX + 2];
	trimmed(text ? text : "", t, sizeof t);
	if (!t[0]) {
		if (d->flags & SVF_REQUIRED) {
			snprintf(err, n, "%s is required", d->key);
			return false;
		}
		return true;
	}
	switch (d->kind) {
	case SVK_NUMBER:
	case SVK_INTEGER: {
		double v;
		char lo[32], hi[32];
		fmt_num(d->lo, lo, sizeof lo);
		fmt_num(d->hi, hi, sizeof hi);
		if (!parse_num(t, &v)) {
			snprintf(err, n, "%s must be a number", d->key);
			return false;
		}
		if (d->kind == SVK_INTEGER && v != floor(v)) {
			snprintf(err, n, "%s must be a whole number", d->key);
			return false;
		}
		if (v < d->lo || v > d->hi) {
			snprintf(err, n, "%s must be between %s and %s", d->key, lo, hi);
			return false;
		}
		return true;
	}
	case SVK_NAME: {
		size_t l = strlen(t);
		if (l > NAME_MAX_LEN) {
			snprintf(err, n, "a name has at most %d characters", NAME_MAX_LEN);
			return false;
		}
		for (size_t i = 0; i < l; i++)
			if (!isalnum((unsigned char)t[i]) && !strchr("-_.", t[i])) {
				snprintf(err, n, "a name is letters, digits, '-', '_' and '.'");
				return false;
			}
		return true;
	}
	case SVK_HASH: {
		size_t l = strlen(t);
		bool hex = l == HASH_LEN;
		for (size_t i = 0; hex && i < l; i++)
			hex = isxdigit((unsigned char)t[i]) != 0;
		if (!hex) {
			snprintf(err, n, "a template hash is %d hex digits", HASH_LEN);
			return false;
		}
		return true;
	}
	case SVK_QUERY: {
		if (strlen(t) > (size_t)d->hi) {
			snprintf(err, n, "a query has at most %.0f characters", d->hi);
			return false;
		}
		struct query_error qe;
		json_t *f = query_parse_for(QUERY_OFFERS, t, true, &qe);
		if (!f) {
			snprintf(err, n, "query: %s", qe.msg);
			return false;
		}
		json_decref(f);
		return true;
	}
	case SVK_STATE:
		for (size_t i = 0; i < sizeof ep_states / sizeof ep_states[0]; i++)
			if (!strcmp(t, ep_states[i]))
				return true;
		snprintf(err, n, "%s is active, suspended or stopped", d->key);
		return false;
	case SVK_TEXT: {
		if (strlen(t) > (size_t)d->hi) {
			snprintf(err, n, "%s has at most %.0f characters", d->key, d->hi);
			return false;
		}
		for (const char *p = t; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f) {
				snprintf(err, n, "%s has a control character", d->key);
				return false;
			}
		return true;
	}
	}
	snprintf(err, n, "unknown field");
	return false;
}

static const char *num_text(double v, char *buf, size_t n)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		fmt_num(v, buf, n);
	return buf;
}

static const char *str_text(const char *s, char *buf, size_t n)
{
	util_strlcpy(buf, s ? s : "", n);
	return buf;
}

const char *svfields_endpoint_text(const struct endpoint *e, const char *key, char *buf, size_t n)
{
	if (!strcmp(key, "endpoint_name"))
		return str_text(e->endpoint_name, buf, n);
	if (!strcmp(key, "endpoint_state"))
		return str_text(e->endpoint_state, buf, n);
	if (!strcmp(key, "min_load"))
		return num_text(e->min_load, buf, n);
	if (!strcmp(key, "target_util"))
		return num_text(e->target_util, buf, n);
	if (!strcmp(key, "cold_mult"))
		return num_text(e->cold_mult, buf, n);
	if (!strcmp(key, "cold_workers"))
		return num_text(e->cold_workers, buf, n);
	if (!strcmp(key, "max_workers"))
		return num_text(e->max_workers, buf, n);
	if (!strcmp(key, "min_cold_load"))
		return num_text(e->min_cold_load, buf, n);
	if (!strcmp(key, "max_queue_time"))
		return num_text(e->max_queue_time, buf, n);
	if (!strcmp(key, "target_queue_time"))
		return num_text(e->target_queue_time, buf, n);
	if (!strcmp(key, "inactivity_timeout"))
		return num_text(e->inactivity_timeout, buf, n);
	if (!strcmp(key, "id"))
		return num_text((double)e->id, buf, n);
	return NULL;
}

const char *svfields_workergroup_text(const struct workergroup *g, const char *key, char *buf,
				 size_t n)
{
	if (!strcmp(key, "id"))
		return num_text((double)g->id, buf, n);
	if (!strcmp(key, "endpoint_id"))
		return num_text((double)g->endpoint_id, buf, n);
	if (!strcmp(key, "endpoint_name"))
		return str_text(g->endpoint_name, buf, n);
	if (!strcmp(key, "template_hash"))
		return str_text(g->template_hash, buf, n);
	if (!strcmp(key, "template_id"))
		return num_text((double)g->template_id, buf, n);
	if (!strcmp(key, "min_load"))
		return num_text(g->min_load, buf, n);
	if (!strcmp(key, "target_util"))
		return num_text(g->target_util, buf, n);
	if (!strcmp(key, "cold_mult"))
		return num_text(g->cold_mult, buf, n);
	if (!strcmp(key, "test_workers"))
		return num_text(g->test_workers, buf, n);
	if (!strcmp(key, "gpu_ram"))
		return num_text(g->gpu_ram, buf, n);
	if (!strcmp(key, "search_query"))
		return str_text(g->search_query, buf, n);
	if (!strcmp(key, "launch_args"))
		return str_text(g->launch_args, buf, n);
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void svfields_endpoint_copy(struct endpoint *dst, const struct endpoint *src)
{
	*dst = *src;
	dst->endpoint_name = dup_or_null(src->endpoint_name);
	dst->endpoint_state = dup_or_null(src->endpoint_state);
	dst->created_at = dup_or_null(src->created_at);
}

void svfields_workergroup_copy(struct workergroup *dst, const struct workergroup *src)
{
	*dst = *src;
	dst->endpoint_name = dup_or_null(src->endpoint_name);
	dst->template_hash = dup_or_null(src->template_hash);
	dst->search_query = dup_or_null(src->search_query);
	dst->launch_args = dup_or_null(src->launch_args);
	dst->created_at = dup_or_null(src->created_at);
}


/* Check text against d; its trimmed form into t and its number into *v. */
static bool take(const struct svfields_def *d, const char *key, const char *text, char *t, size_t tn,
		 double *v, char *err, size_t n)
{
	if (!d) {
		snprintf(err, n, "%s is not a field here", key ? key : "?");
		return false;
	}
	if (!svfields_check(d, text, err, n))
		return false;
	trimmed(text ? text : "", t, tn);
	*v = 0;
	if ((d->kind == SVK_NUMBER || d->kind == SVK_INTEGER) && t[0])
		parse_num(t, v);
	return true;
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrdup(s);
}

bool svfields_endpoint_set(struct endpoint *e, const char *key, const char *text, char *err, size_t n)
{
	char t[QUERY_MAX + ARGS_MAX + 2];
	double v;
	if (!take(svfields_def(SVF_ENDPOINT, key), key, text, t, sizeof t, &v, err, n))
		return false;
	if (!strcmp(key, "endpoint_name"))
		set_str(&e->endpoint_name, t);
	else if (!strcmp(key, "min_load"))
		e->min_load = v;
	else if (!strcmp(key, "target_util"))
		e->target_util = v;
	else if (!strcmp(key, "cold_mult"))
		e->cold_mult = v;
	else if (!strcmp(key, "cold_workers"))
		e->cold_workers = (int)v;
	else if (!strcmp(key, "max_workers"))
		e->max_workers = (int)v;
	else if (!strcmp(key, "endpoint_state"))
		set_str(&e->endpoint_state, t);
	else if (!strcmp(key, "min_cold_load"))
		e->min_cold_load = t[0] ? v : NAN;
	else if (!strcmp(key, "max_queue_time"))
		e->max_queue_time = t[0] ? v : NAN;
	else if (!strcmp(key, "target_queue_time"))
		e->target_queue_time = t[0] ? v : NAN;
	else if (!strcmp(key, "inactivity_timeout"))
		e->inactivity_timeout = t[0] ? v : NAN;
	return true;
}

bool svfields_workergroup_set(struct workergroup *g, const char *key, const char *text, char *err,
			 size_t n)
{
	char t[QUERY_MAX + ARGS_MAX + 2];
	double v;
	if (!take(svfields_def(SVF_WORKERGROUP, key), key, text, t, sizeof t, &v, err, n))
		return false;
	if (!strcmp(key, "template_hash"))
		set_str(&g->template_hash, t);
	else if (!strcmp(key, "template_id"))
		g->template_id = (long)v;
	else if (!strcmp(key, "min_load"))
		g->min_load = v;
	else if (!strcmp(key, "target_util"))
		g->target_util = v;
	else if (!strcmp(key, "cold_mult"))
		g->cold_mult = v;
	else if (!strcmp(key, "test_workers"))
		g->test_workers = (int)v;
	else if (!strcmp(key, "gpu_ram"))
		g->gpu_ram = v;
	else if (!strcmp(key, "search_query"))
		set_str(&g->search_query, t);
	else if (!strcmp(key, "launch_args"))
		set_str(&g->launch_args, t);
	return true;
}

bool svfields_endpoint_consistent(const struct endpoint *e, const char **field, char *err, size_t n)
{
	if (e->cold_workers > e->max_workers) {
		*field = "cold_workers";
		snprintf(err, n, "cold_workers (%d) cannot exceed max_workers (%d)", e->cold_workers,
			 e->max_workers);
		return false;
	}
	if (!isnan(e->max_queue_time) && !isnan(e->target_queue_time) &&
	    e->target_queue_time > e->max_queue_time) {
		*field = "target_queue_time";
		snprintf(err, n, "target_queue_time (%g s) cannot exceed max_queue_time (%g s)",
			 e->target_queue_time, e->max_queue_time);
		return false;
	}
	return true;
}

bool svfields_workergroup_consistent(const struct workergroup *g, const char **field, char *err,
				size_t n)
{
	if ((!g->template_hash || !g->template_hash[0]) && g->template_id <= 0) {
		*field = "template_hash";
		snprintf(err, n, "a workergroup needs a template: its hash or its id");
		return false;
	}
	return true;
}

void svfields_workers_cells(const struct workers_health *h, bool have, char *workers, size_t wn,
		       char *load, size_t ln)
{
	if (!have) {
		snprintf(workers, wn, "?");
		snprintf(load, ln, "?");
		return;
	}
	char c[200];
	snprintf(workers, wn, "%zu (%s)", h->total, workers_counts_text(c, sizeof c, h));
	snprintf(load, ln, "%.1f/%.1f", h->load, h->capacity);
}
