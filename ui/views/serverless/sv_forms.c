/* sv_forms.c: the pure parts of the autoscaler edits (sv_edit.h): the
 * endpoint and workergroup forms built from svfields.c's tables, the
 * request a submitted form makes (every field checked, then the record
 * built from a copy of the old one and only the changed fields sent), and
 * the texts of the delete and suspend confirmations.  No terminal. */
#include "views/serverless/sv_edit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_serverless.h"
#include "rules/svfields.h"
#include "base/util.h"

/* The form's extra check of a field: svfields' rules for its name. */
static bool check_field(const struct form_field *f, char *err, size_t n)
{
	const struct svfields_def *d = svfields_def(SVF_WORKERGROUP, f->name);
	if (!d)
		d = svfields_def(SVF_ENDPOINT, f->name);
	return !d || svfields_check(d, f->tb.s, err, n);
}

/* Add the fields of t shown in the form (flag), with initial texts. */
static void add_fields(struct form *fm, enum svf_target t, unsigned flag, const void *rec)
{
	size_t n;
	const struct svfields_def *d = svfields_defs(t, &n);
	for (size_t i = 0; i < n; i++) {
		if (!(d[i].flags & flag))
			continue;
		char b[1100];
		const char *init = d[i].deflt;
		if (rec)
			init = t == SVF_ENDPOINT ? svfields_endpoint_text(rec, d[i].key, b, sizeof b)
						 : svfields_workergroup_text(rec, d[i].key, b, sizeof b);
		bool req = (d[i].flags & SVF_REQUIRED) != 0;
		int k = -1;
		switch (d[i].kind) {
		case SVK_NUMBER:
		case SVK_INTEGER:
			k = form_add_number(fm, d[i].key, d[i].label, init, d[i].lo, d[i].hi,
					    d[i].kind == SVK_INTEGER, req);
			break;
		case SVK_NAME:
		case SVK_HASH:
		case SVK_STATE:
			k = form_add_text(fm, d[i].key, d[i].label, init, 64, req);
			break;
		case SVK_QUERY:
		case SVK_TEXT:
			k = form_add_text(fm, d[i].key, d[i].label, init, (size_t)d[i].hi, req);
			break;
		}
		if (k >= 0)
			fm->f[k].check = check_field;
	}
}

void sv_forms_endpoint(struct form *fm, const struct endpoint *e)
{
	char title[64];
	if (e)
		snprintf(title, sizeof title, "Edit endpoint %.30s (%ld)",
			 e->endpoint_name ? e->endpoint_name : "", e->id);
	else
		snprintf(title, sizeof title, "Create an endpoint");
	form_init(fm, title);
	add_fields(fm, SVF_ENDPOINT, e ? SVF_EDIT : SVF_CREATE, e);
}

void sv_forms_workergroup(struct form *fm, const struct workergroup *g, bool create,
			 long endpoint_id, const char *endpoint_name)
{
	char title[64];
	if (create)
		snprintf(title, sizeof title, "New workergroup on %.30s (%ld)",
			 endpoint_name ? endpoint_name : "", endpoint_id);
	else
		snprintf(title, sizeof title, "Edit workergroup %ld (%.30s)", g ? g->id : 0,
			 g && g->endpoint_name ? g->endpoint_name : "");
	form_init(fm, title);
	add_fields(fm, SVF_WORKERGROUP, create ? SVF_CREATE : SVF_EDIT, g);
}

/* Set every field of the form into the record (svf set); false with the
 * answer on the field that failed. */
static bool fill(struct form *fm, enum svf_target t, void *rec)
{
	for (int i = 0; i < fm->n; i++) {
		char err[200];
		const char *key = fm->f[i].name;
		const char *val = form_value(fm, key);
		bool ok = t == SVF_ENDPOINT ? svfields_endpoint_set(rec, key, val, err, sizeof err)
					    : svfields_workergroup_set(rec, key, val, err, sizeof err);
		if (!ok) {
			form_set_answer(fm, key, err);
			return false;
		}
	}
	return true;
}

static void empty_call(struct api_call *out)
{
	memset(out, 0, sizeof *out);
}

bool sv_forms_endpoint_call(const struct config *c, struct form *fm, const struct endpoint *old,
			   struct api_call *out)
{
	empty_call(out);
	if (!form_validate(fm)) {
		form_set_answer(fm, NULL, "fix the marked fields");
		return false;
	}
	struct endpoint e;
	if (old) {
		svfields_endpoint_copy(&e, old);
	} else {
		memset(&e, 0, sizeof e);
		e.min_load = e.target_util = e.cold_mult = NAN;
		e.min_cold_load = e.max_queue_time = e.target_queue_time = NAN;
		e.inactivity_timeout = NAN;
	}
	bool ok = fill(fm, SVF_ENDPOINT, &e);
	const char *field = NULL;
	char err[200];
	if (ok && !svfields_endpoint_consistent(&e, &field, err, sizeof err)) {
		form_set_answer(fm, field, err);
		ok = false;
	}
	if (ok) {
		if (!old) {
			*out = api_endpoint_create(c, &e);
		} else {
			size_t nchanged = 0;
			*out = api_endpoint_edit(c, old, &e, &nchanged);
			if (!nchanged) {
				form_set_answer(fm, NULL, "nothing changed: edit a field, or Esc");
				ok = false;
			}
		}
	}
	model_endpoint_clear(&e);
	return ok;
}

bool sv_forms_workergroup_call(const struct config *c, struct form *fm,
			      const struct workergroup *old, long endpoint_id,
			      const char *endpoint_name, struct api_call *out)
{
	empty_call(out);
	if (!form_validate(fm)) {
		form_set_answer(fm, NULL, "fix the marked fields");
		return false;
	}
	struct workergroup g;
	if (old) {
		svfields_workergroup_copy(&g, old);
	} else {
		memset(&g, 0, sizeof g);
		g.endpoint_id = endpoint_id;
		g.endpoint_name = xstrdup(endpoint_name);
	}
	bool ok = fill(fm, SVF_WORKERGROUP, &g);
	const char *field = NULL;
	char err[200];
	if (ok && !old && !svfields_workergroup_consistent(&g, &field, err, sizeof err)) {
		form_set_answer(fm, field, err);
		ok = false;
	}
	if (ok) {
		if (!old) {
			*out = api_workergroup_create(c, &g);
		} else {
			size_t nchanged = 0;
			*out = api_workergroup_edit(c, old, &g, &nchanged);
			if (!nchanged) {
				form_set_answer(fm, NULL, "nothing changed: edit a field, or Esc");
				ok = false;
			}
		}
	}
	model_workergroup_clear(&g);
	return ok;
}

/* Does record rec hold every value of the form?  Each field's text is set
 * into a copy of rec as a submit would, then read back beside rec's own, so
 * that "0.50" typed and 0.5 sent compare equal. */
static bool holds(const struct form *fm, enum svf_target t, const void *rec)
{
	struct endpoint e;
	struct workergroup g;
	if (t == SVF_ENDPOINT)
		svfields_endpoint_copy(&e, rec);
	else
		svfields_workergroup_copy(&g, rec);
	bool ok = true;
	for (int i = 0; ok && i < fm->n; i++) {
		char err[200], b1[1100], b2[1100];
		const char *key = fm->f[i].name;
		const char *val = form_value(fm, key);
		if (t == SVF_ENDPOINT)
			ok = svfields_endpoint_set(&e, key, val, err, sizeof err) &&
			     !strcmp(svfields_endpoint_text(&e, key, b1, sizeof b1),
				     svfields_endpoint_text(rec, key, b2, sizeof b2));
		else
			ok = svfields_workergroup_set(&g, key, val, err, sizeof err) &&
			     !strcmp(svfields_workergroup_text(&g, key, b1, sizeof b1),
				     svfields_workergroup_text(rec, key, b2, sizeof b2));
	}
	if (t == SVF_ENDPOINT)
		model_endpoint_clear(&e);
	else
		model_workergroup_clear(&g);
	return ok;
}

int sv_forms_endpoint_count(const struct form *fm, const struct endpoint *old,
			   const struct endpoint *v, size_t n)
{
	const char *name = form_value(fm, "endpoint_name");
	int k = 0;
	for (size_t i = 0; v && i < n; i++) {
		if (old)
			k += v[i].id == old->id && holds(fm, SVF_ENDPOINT, &v[i]);
		else
			k += v[i].endpoint_name && !strcmp(v[i].endpoint_name, name);
	}
	return k;
}

int sv_forms_workergroup_count(const struct form *fm, const struct workergroup *old,
			      long endpoint_id, const struct workergroup *v, size_t n)
{
	int k = 0;
	for (size_t i = 0; v && i < n; i++) {
		if (old)
			k += v[i].id == old->id && holds(fm, SVF_WORKERGROUP, &v[i]);
		else
			k += v[i].endpoint_id == endpoint_id;
	}
	return k;
}

char *sv_forms_delete_endpoint_text(const struct endpoint *e, const struct workergroup *g, size_t ng,
			      char *buf, size_t n)
{
	char groups[300] = "";
	size_t k = 0, count = 0;
	for (size_t i = 0; i < ng; i++) {
		if (g[i].endpoint_id != e->id)
			continue;
		count++;
		if (k + 24 < sizeof groups)
			k += (size_t)snprintf(groups + k, sizeof groups - k, "%s%ld", count > 1 ? ", " : "",
					      g[i].id);
	}
	const char *name = e->endpoint_name && *e->endpoint_name ? e->endpoint_name : "-";
	if (count)
		snprintf(buf, n,
			 "Delete endpoint %s (%ld)? It stops serving requests, and its %zu "
			 "workergroup%s (%s) %s deleted with it and %s workers destroyed.",
			 name, e->id, count, count == 1 ? "" : "s", groups, count == 1 ? "is" : "are",
			 count == 1 ? "its" : "their");
	else
		snprintf(buf, n, "Delete endpoint %s (%ld)? It stops serving requests. It has no "
				 "workergroup.", name, e->id);
	return buf;
}

char *sv_forms_delete_workergroup_text(const struct workergroup *g, char *buf, size_t n)
{
	snprintf(buf, n,
		 "Delete workergroup %ld of endpoint %s (%ld)? It stops recruiting workers for "
		 "the endpoint; instances it already created are not destroyed by this.",
		 g->id, g->endpoint_name && *g->endpoint_name ? g->endpoint_name : "-",
		 g->endpoint_id);
	return buf;
}

bool sv_forms_endpoint_suspendable(const struct endpoint *e)
{
	return !e->endpoint_state || strcmp(e->endpoint_state, "active") == 0 ||
	       !e->endpoint_state[0];
}

char *sv_forms_suspend_text(const struct endpoint *e, bool suspend, char *buf, size_t n)
{
	const char *name = e->endpoint_name && *e->endpoint_name ? e->endpoint_name : "-";
	if (suspend)
		snprintf(buf, n,
			 "Suspend endpoint %s (%ld)? It stops taking requests and scaling until it is "
			 "resumed.", name, e->id);
	else
		snprintf(buf, n, "Resume endpoint %s (%ld) (now %s)? It takes requests and scales "
				 "again.", name, e->id,
			 e->endpoint_state && *e->endpoint_state ? e->endpoint_state : "-");
	return buf;
}

long sv_forms_update_target(const char *arg, const struct endpoint *e, size_t ne,
			   const struct workergroup *g, size_t ng, char *err, size_t n)
{
	char t[128];
	util_strlcpy(t, arg ? arg : "", sizeof t);
	size_t l = strlen(t);
	while (l && (t[l - 1] == ' ' || t[l - 1] == '\t'))
		t[--l] = '\0';
	const char *name = t;
	while (*name == ' ' || *name == '\t')
		name++;
	if (!*name) {
		snprintf(err, n, ":update-workers takes an endpoint's name or a workergroup's id");
		return 0;
	}
	char *end;
	long id = strtol(name, &end, 10);
	bool num = *end == '\0' && id > 0;
	const struct endpoint *ep = NULL;
	for (size_t i = 0; i < ne && !ep; i++)
		if ((e[i].endpoint_name && !strcmp(e[i].endpoint_name, name)) || (num && e[i].id == id))
			ep = &e[i];
	if (!ep && num)
		for (size_t i = 0; i < ng; i++)
			if (g[i].id == id)
				return id;
	if (!ep) {
		char *s = util_sanitize(name);
		snprintf(err, n, "no endpoint or workergroup named %.60s", s);
		free(s);
		return 0;
	}
	size_t count = 0, k = 0;
	long found = 0;
	char ids[200] = "";
	for (size_t i = 0; i < ng; i++) {
		if (g[i].endpoint_id != ep->id)
			continue;
		found = g[i].id;
		count++;
		if (k + 24 < sizeof ids)
			k += (size_t)snprintf(ids + k, sizeof ids - k, "%s%ld", count > 1 ? ", " : "",
					      g[i].id);
	}
	const char *en = ep->endpoint_name && *ep->endpoint_name ? ep->endpoint_name : "-";
	if (count == 1)
		return found;
	if (!count)
		snprintf(err, n, "endpoint %.60s has no workergroup: no workers to update", en);
	else
		snprintf(err, n, "endpoint %.60s has %zu workergroups (%s): :update-workers ID", en, count,
			 ids);
	return 0;
}

char *sv_forms_update_workers_text(const struct workergroup *g, char *buf, size_t n)
{
	snprintf(buf, n,
		 "Update the workers of workergroup %ld (endpoint %s)? The run server rolls its "
		 "workers onto the template's current version: each ready worker is UPDATING in "
		 "turn and takes no requests meanwhile.",
		 g->id, g->endpoint_name && *g->endpoint_name ? g->endpoint_name : "-");
	return buf;
}
