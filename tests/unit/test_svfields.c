/* test_svfields.c: the one mapping of serverless fields (svfields.c) and
 * the autoscaler forms built on it (sv_forms.c): ranges and checks (numbers,
 * whole numbers, names, template hashes, the query language, launch args),
 * the text of each field, set and copy, the checks across fields; the forms
 * hold the record's values; a submitted edit PUTs only the changed fields,
 * an unchanged one sends nothing, an invalid one keeps the form with the
 * reason on the field; create bodies carry the defaults; the delete and
 * suspend confirmations name what stops; the dump's worker cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_serverless.h"
#include "base/config.h"
#include "widgets/form.h"
#include "views/serverless/sv_edit.h"
#include "rules/svfields.h"
#include "base/util.h"

static struct config fake_cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "https://console.example";
	c.run_url = "https://run.example";
	return c;
}

static struct endpoint ep(void)
{
	struct endpoint e = {.id = 42, .endpoint_name = "llm-chat", .endpoint_state = "active",
			     .min_load = 10, .target_util = 0.9, .cold_mult = 2.5, .cold_workers = 1,
			     .max_workers = 4};
	return e;
}

static struct workergroup wg(void)
{
	struct workergroup g = {.id = 7, .endpoint_id = 42, .template_id = 3,
				.endpoint_name = "llm-chat",
				.template_hash = "0123456789abcdef0123456789abcdef",
				.search_query = "gpu_ram>=24 num_gpus=1", .launch_args = "",
				.min_load = 10, .target_util = 0.9, .cold_mult = 2.5, .gpu_ram = 24,
				.test_workers = 3};
	return g;
}

static bool check(enum svf_target t, const char *key, const char *text, char *err)
{
	const struct svfields_def *d = svfields_def(t, key);
	assert_non_null(d);
	return svfields_check(d, text, err, 200);
}

static void test_ranges(void **state)
{
	(void)state;
	char err[200];
	assert_true(check(SVF_ENDPOINT, "target_util", "0.75", err));
	assert_true(check(SVF_ENDPOINT, "target_util", " 1 ", err));
	assert_false(check(SVF_ENDPOINT, "target_util", "1.5", err));
	assert_string_equal(err, "target_util must be between 0 and 1");
	assert_false(check(SVF_ENDPOINT, "target_util", "-0.1", err));
	assert_false(check(SVF_ENDPOINT, "target_util", "abc", err));
	assert_string_equal(err, "target_util must be a number");
	assert_false(check(SVF_ENDPOINT, "target_util", "nan", err));
	assert_false(check(SVF_ENDPOINT, "min_load", "", err));
	assert_string_equal(err, "min_load is required");
	assert_true(check(SVF_ENDPOINT, "cold_workers", "0", err));
	assert_false(check(SVF_ENDPOINT, "cold_workers", "2.5", err));
	assert_string_equal(err, "cold_workers must be a whole number");
	assert_false(check(SVF_ENDPOINT, "max_workers", "0", err));
	assert_false(check(SVF_WORKERGROUP, "gpu_ram", "2000", err));
	assert_true(check(SVF_WORKERGROUP, "test_workers", "3", err));
	assert_false(check(SVF_WORKERGROUP, "test_workers", "101", err));
	/* names */
	assert_true(check(SVF_ENDPOINT, "endpoint_name", "vLLM-Qwen3_8B.v2", err));
	assert_false(check(SVF_ENDPOINT, "endpoint_name", "has space", err));
	assert_false(check(SVF_ENDPOINT, "endpoint_name", "", err));
	char longname[80];
	memset(longname, 'a', 70);
	longname[70] = '\0';
	assert_false(check(SVF_ENDPOINT, "endpoint_name", longname, err));
	/* template hashes: 32 hex digits, or none */
	assert_true(check(SVF_WORKERGROUP, "template_hash", "0123456789abcdef0123456789ABCDEF", err));
	assert_true(check(SVF_WORKERGROUP, "template_hash", "", err));
	assert_false(check(SVF_WORKERGROUP, "template_hash", "not-a-hash", err));
	assert_false(check(SVF_WORKERGROUP, "template_hash", "0123456789abcdef0123456789abcdeg", err));
	/* the query language, with the parser's message */
	assert_true(check(SVF_WORKERGROUP, "search_query", "gpu_ram>=24 num_gpus=1 verified=true", err));
	assert_true(check(SVF_WORKERGROUP, "search_query", "", err));
	assert_false(check(SVF_WORKERGROUP, "search_query", "gpu_nam=RTX_4090", err));
	assert_non_null(strstr(err, "gpu_name"));
	assert_false(check(SVF_WORKERGROUP, "search_query", "num_gpus=>2", err));
	/* launch args: text without controls */
	assert_true(check(SVF_WORKERGROUP, "launch_args", "--max-model-len 8192", err));
	assert_false(check(SVF_WORKERGROUP, "launch_args", "a\x1b[31mb", err));
	/* every field: an edit field is also a create field (but the state: an
	 * endpoint is created active), ranges are sane */
	for (int t = 0; t < 2; t++) {
		size_t n;
		const struct svfields_def *d = svfields_defs((enum svf_target)t, &n);
		assert_true(n > 4);
		for (size_t i = 0; i < n; i++) {
			assert_true((svfields_def((enum svf_target)t, d[i].key)->flags & SVF_CREATE) ||
				    d[i].kind == SVK_STATE);
			assert_true(d[i].lo <= d[i].hi);
			assert_true(svfields_check(&d[i], d[i].deflt, err, sizeof err) ||
				    (d[i].flags & SVF_REQUIRED));
			assert_null(strstr(d[i].key, "api_key"));
		}
	}
}

static void test_text_set_copy(void **state)
{
	(void)state;
	char b[200], err[200];
	struct endpoint e0 = ep();
	assert_string_equal(svfields_endpoint_text(&e0, "target_util", b, sizeof b), "0.9");
	assert_string_equal(svfields_endpoint_text(&e0, "max_workers", b, sizeof b), "4");
	assert_string_equal(svfields_endpoint_text(&e0, "endpoint_name", b, sizeof b), "llm-chat");
	assert_null(svfields_endpoint_text(&e0, "api_key", b, sizeof b));
	e0.min_load = NAN;
	assert_string_equal(svfields_endpoint_text(&e0, "min_load", b, sizeof b), "");
	struct workergroup g0 = wg();
	assert_string_equal(svfields_workergroup_text(&g0, "search_query", b, sizeof b),
			    "gpu_ram>=24 num_gpus=1");
	assert_string_equal(svfields_workergroup_text(&g0, "gpu_ram", b, sizeof b), "24");
	assert_null(svfields_workergroup_text(&g0, "api_key", b, sizeof b));

	struct endpoint e;
	struct endpoint src = ep();
	svfields_endpoint_copy(&e, &src);
	assert_ptr_not_equal(e.endpoint_name, src.endpoint_name);
	assert_true(svfields_endpoint_set(&e, "cold_workers", " 3 ", err, sizeof err));
	assert_int_equal(e.cold_workers, 3);
	assert_false(svfields_endpoint_set(&e, "target_util", "2", err, sizeof err));
	assert_true(fabs(e.target_util - 0.9) < 1e-12); /* unchanged */
	assert_false(svfields_endpoint_set(&e, "gpu_ram", "2", err, sizeof err)); /* not an endpoint field */
	assert_true(svfields_endpoint_set(&e, "endpoint_name", "renamed", err, sizeof err));
	assert_string_equal(e.endpoint_name, "renamed");
	const char *field = NULL;
	assert_true(svfields_endpoint_consistent(&e, &field, err, sizeof err));
	assert_true(svfields_endpoint_set(&e, "cold_workers", "9", err, sizeof err));
	assert_false(svfields_endpoint_consistent(&e, &field, err, sizeof err));
	assert_string_equal(field, "cold_workers");
	assert_non_null(strstr(err, "max_workers"));
	model_endpoint_clear(&e);

	struct workergroup g;
	struct workergroup gsrc = wg();
	svfields_workergroup_copy(&g, &gsrc);
	assert_true(svfields_workergroup_set(&g, "search_query", "num_gpus>=2", err, sizeof err));
	assert_string_equal(g.search_query, "num_gpus>=2");
	assert_false(svfields_workergroup_set(&g, "search_query", "bogus_field=1", err, sizeof err));
	assert_string_equal(g.search_query, "num_gpus>=2");
	assert_true(svfields_workergroup_consistent(&g, &field, err, sizeof err));
	assert_true(svfields_workergroup_set(&g, "template_hash", "", err, sizeof err));
	assert_true(svfields_workergroup_set(&g, "template_id", "0", err, sizeof err));
	assert_false(svfields_workergroup_consistent(&g, &field, err, sizeof err));
	assert_string_equal(field, "template_hash");
	model_workergroup_clear(&g);
}

/* Replace the text of a form field. */
static void type_into(struct form *fm, const char *name, const char *text)
{
	int i = form_find(fm, name);
	assert_true(i >= 0);
	textbuf_set(&fm->f[i].tb, text);
}

static json_t *body_of(const struct api_call *c)
{
	json_t *j = json_loads(c->body, 0, NULL);
	assert_non_null(j);
	return j;
}

static void test_endpoint_form(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct endpoint old = ep();
	struct form fm;
	sv_forms_endpoint(&fm, &old);
	assert_non_null(strstr(fm.title, "llm-chat (42)"));
	assert_string_equal(form_value(&fm, "endpoint_name"), "llm-chat"); /* renaming */
	assert_string_equal(form_value(&fm, "endpoint_state"), "active");
	assert_string_equal(form_value(&fm, "target_util"), "0.9");
	assert_string_equal(form_value(&fm, "max_workers"), "4");
	struct api_call c;
	/* unchanged: nothing is sent */
	assert_false(sv_forms_endpoint_call(&cfg, &fm, &old, &c));
	assert_null(c.url);
	assert_non_null(strstr(fm.answer, "nothing changed"));
	/* out of range: the form keeps it, nothing is built */
	type_into(&fm, "target_util", "1.5");
	assert_false(sv_forms_endpoint_call(&cfg, &fm, &old, &c));
	assert_null(c.url);
	assert_string_equal(form_value(&fm, "target_util"), "1.5");
	/* across fields */
	type_into(&fm, "target_util", "0.75");
	type_into(&fm, "cold_workers", "9");
	assert_false(sv_forms_endpoint_call(&cfg, &fm, &old, &c));
	assert_null(c.url);
	assert_int_equal(fm.focus, form_find(&fm, "cold_workers"));
	assert_non_null(strstr(fm.answer, "max_workers"));
	/* valid: only what changed */
	type_into(&fm, "cold_workers", "2");
	assert_true(sv_forms_endpoint_call(&cfg, &fm, &old, &c));
	assert_string_equal(c.method, "PUT");
	assert_string_equal(c.url, "https://console.example/api/v0/endptjobs/42/");
	json_t *b = body_of(&c);
	assert_int_equal(json_object_size(b), 2);
	assert_true(fabs(json_real_value(json_object_get(b, "target_util")) - 0.75) < 1e-12);
	assert_int_equal(json_integer_value(json_object_get(b, "cold_workers")), 2);
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);

	/* create: the defaults, the name required */
	sv_forms_endpoint(&fm, NULL);
	assert_true(form_find(&fm, "endpoint_name") >= 0);
	assert_false(sv_forms_endpoint_call(&cfg, &fm, NULL, &c));
	type_into(&fm, "endpoint_name", "new-ep");
	assert_true(sv_forms_endpoint_call(&cfg, &fm, NULL, &c));
	assert_string_equal(c.method, "POST");
	b = body_of(&c);
	assert_string_equal(json_string_value(json_object_get(b, "endpoint_name")), "new-ep");
	assert_int_equal(json_integer_value(json_object_get(b, "max_workers")), 20);
	assert_int_equal(json_integer_value(json_object_get(b, "cold_workers")), 5);
	assert_true(fabs(json_real_value(json_object_get(b, "target_util")) - 0.9) < 1e-12);
	assert_null(json_object_get(b, "api_key"));
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);
}

static void test_workergroup_form(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct workergroup old = wg();
	struct form fm;
	sv_forms_workergroup(&fm, &old, false, old.endpoint_id, old.endpoint_name);
	/* the template last (the picker's field), holding the current hash */
	assert_int_equal(form_find(&fm, "template_hash"), fm.n - 1);
	assert_string_equal(form_value(&fm, "template_hash"), old.template_hash);
	assert_string_equal(form_value(&fm, "search_query"), "gpu_ram>=24 num_gpus=1");
	struct api_call c;
	type_into(&fm, "search_query", "gpu_nam=RTX_4090");
	assert_false(sv_forms_workergroup_call(&cfg, &fm, &old, 0, NULL, &c));
	assert_null(c.url);
	type_into(&fm, "search_query", "gpu_ram>=48");
	type_into(&fm, "gpu_ram", "48");
	assert_true(sv_forms_workergroup_call(&cfg, &fm, &old, 0, NULL, &c));
	assert_string_equal(c.url, "https://console.example/api/v0/workergroups/7/");
	json_t *b = body_of(&c);
	assert_int_equal(json_object_size(b), 2);
	assert_string_equal(json_string_value(json_object_get(b, "search_params")), "gpu_ram>=48");
	assert_true(fabs(json_real_value(json_object_get(b, "gpu_ram")) - 48) < 1e-12);
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);

	/* create on an endpoint, from a copy of a workergroup; a template needed */
	sv_forms_workergroup(&fm, &old, true, 42, "llm-chat");
	assert_non_null(strstr(fm.title, "llm-chat (42)"));
	assert_string_equal(form_value(&fm, "template_hash"), old.template_hash);
	type_into(&fm, "template_hash", "");
	type_into(&fm, "template_id", "0");
	assert_false(sv_forms_workergroup_call(&cfg, &fm, NULL, 42, "llm-chat", &c));
	assert_int_equal(fm.focus, form_find(&fm, "template_hash"));
	type_into(&fm, "template_hash", "fedcba9876543210fedcba9876543210");
	assert_true(sv_forms_workergroup_call(&cfg, &fm, NULL, 42, "llm-chat", &c));
	assert_string_equal(c.method, "POST");
	b = body_of(&c);
	assert_int_equal(json_integer_value(json_object_get(b, "endpoint_id")), 42);
	assert_string_equal(json_string_value(json_object_get(b, "template_hash")),
			    "fedcba9876543210fedcba9876543210");
	assert_string_equal(json_string_value(json_object_get(b, "search_params")),
			    "gpu_ram>=24 num_gpus=1");
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);
}

/* A lost answer's re-read: creates count by name (endpoints) or by
 * endpoint (workergroups); an edit counts its record when it holds every
 * value of the form, numbers compared as read ("0.50" is 0.5). */
static void test_lost_counts(void **state)
{
	(void)state;
	struct form fm;
	struct endpoint es[3] = { ep(), ep(), ep() };
	es[1].id = 43;
	es[1].endpoint_name = "embed";
	es[2].id = 44;
	sv_forms_endpoint(&fm, NULL);
	type_into(&fm, "endpoint_name", "llm-chat");
	assert_int_equal(sv_forms_endpoint_count(&fm, NULL, es, 3), 2);
	type_into(&fm, "endpoint_name", "new-one");
	assert_int_equal(sv_forms_endpoint_count(&fm, NULL, es, 3), 0);
	form_free(&fm);

	struct endpoint old = ep();
	sv_forms_endpoint(&fm, &old);
	assert_int_equal(sv_forms_endpoint_count(&fm, &old, es, 3), 1); /* unchanged: holds */
	type_into(&fm, "target_util", "0.50");
	assert_int_equal(sv_forms_endpoint_count(&fm, &old, es, 3), 0); /* the list: 0.9 */
	es[0].target_util = 0.5;
	assert_int_equal(sv_forms_endpoint_count(&fm, &old, es, 3), 1); /* changed */
	assert_int_equal(sv_forms_endpoint_count(&fm, &old, es + 1, 2), 0); /* record gone */
	form_free(&fm);

	struct workergroup gs[3] = { wg(), wg(), wg() };
	gs[1].id = 8;
	gs[2].id = 9;
	gs[2].endpoint_id = 43;
	struct workergroup g = wg();
	sv_forms_workergroup(&fm, &g, true, 42, "llm-chat");
	assert_int_equal(sv_forms_workergroup_count(&fm, NULL, 42, gs, 3), 2);
	assert_int_equal(sv_forms_workergroup_count(&fm, NULL, 41, gs, 3), 0);
	form_free(&fm);
	sv_forms_workergroup(&fm, &g, false, 42, "llm-chat");
	type_into(&fm, "gpu_ram", "48");
	assert_int_equal(sv_forms_workergroup_count(&fm, &g, 0, gs, 3), 0);
	gs[0].gpu_ram = 48;
	assert_int_equal(sv_forms_workergroup_count(&fm, &g, 0, gs, 3), 1);
	form_free(&fm);
}

static void test_confirmations(void **state)
{
	(void)state;
	char b[600];
	struct endpoint e = ep();
	struct workergroup g[3] = {wg(), wg(), wg()};
	g[1].id = 8;
	g[2].id = 9;
	g[2].endpoint_id = 99; /* another endpoint's */
	sv_forms_delete_endpoint_text(&e, g, 3, b, sizeof b);
	assert_non_null(strstr(b, "Delete endpoint llm-chat (42)?"));
	assert_non_null(strstr(b, "2 workergroups (7, 8)"));
	assert_null(strstr(b, "9"));
	sv_forms_delete_endpoint_text(&e, g, 0, b, sizeof b);
	assert_non_null(strstr(b, "no workergroup"));
	sv_forms_delete_workergroup_text(&g[0], b, sizeof b);
	assert_non_null(strstr(b, "workergroup 7 of endpoint llm-chat (42)"));
	assert_true(sv_forms_endpoint_suspendable(&e));
	sv_forms_suspend_text(&e, true, b, sizeof b);
	assert_non_null(strstr(b, "Suspend endpoint llm-chat (42)?"));
	e.endpoint_state = "suspended";
	assert_false(sv_forms_endpoint_suspendable(&e));
	sv_forms_suspend_text(&e, false, b, sizeof b);
	assert_non_null(strstr(b, "Resume endpoint llm-chat (42)"));
}

static void test_worker_cells(void **state)
{
	(void)state;
	struct workers_health h;
	memset(&h, 0, sizeof h);
	h.total = 5;
	h.count[WS_RUNNING] = 3;
	h.count[WS_ERROR] = 2;
	h.load = 42.04;
	h.capacity = 120;
	char w[100], l[50];
	svfields_workers_cells(&h, true, w, sizeof w, l, sizeof l);
	assert_string_equal(w, "5 (3 ready 2 error)");
	assert_string_equal(l, "42.0/120.0");
	svfields_workers_cells(&h, false, w, sizeof w, l, sizeof l);
	assert_string_equal(w, "?");
	assert_string_equal(l, "?");
}

/* The whole autoscaler: the CLI's create defaults (min_load 0, not 10),
 * the new fields checked and sent, renaming and the state as edits, an
 * emptied timeout cleared (null). */
static void test_autoscaler_fields(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	char err[200];
	const struct svfields_def *d = svfields_def(SVF_ENDPOINT, "min_load");
	assert_string_equal(d->deflt, "0");
	assert_string_equal(svfields_def(SVF_ENDPOINT, "min_cold_load")->deflt, "0");
	assert_string_equal(svfields_def(SVF_ENDPOINT, "max_queue_time")->deflt, "30");
	assert_string_equal(svfields_def(SVF_ENDPOINT, "target_queue_time")->deflt, "10");
	assert_string_equal(svfields_def(SVF_ENDPOINT, "inactivity_timeout")->deflt, "");
	/* checks */
	assert_false(check(SVF_ENDPOINT, "max_queue_time", "-1", err));
	assert_false(check(SVF_ENDPOINT, "inactivity_timeout", "1.5", err));
	assert_true(check(SVF_ENDPOINT, "inactivity_timeout", "", err));
	assert_true(check(SVF_ENDPOINT, "endpoint_state", "stopped", err));
	assert_false(check(SVF_ENDPOINT, "endpoint_state", "paused", err));
	assert_non_null(strstr(err, "stopped"));
	/* create: the defaults sent */
	struct form fm;
	struct api_call c;
	sv_forms_endpoint(&fm, NULL);
	assert_int_equal(form_find(&fm, "endpoint_state"), -1); /* created active */
	type_into(&fm, "endpoint_name", "ep2");
	assert_true(sv_forms_endpoint_call(&cfg, &fm, NULL, &c));
	json_t *b = body_of(&c);
	assert_true(json_real_value(json_object_get(b, "min_load")) == 0);
	assert_true(json_real_value(json_object_get(b, "min_cold_load")) == 0);
	assert_true(json_real_value(json_object_get(b, "max_queue_time")) == 30);
	assert_true(json_real_value(json_object_get(b, "target_queue_time")) == 10);
	assert_true(json_is_null(json_object_get(b, "inactivity_timeout")));
	json_decref(b);
	api_call_free(&c);
	/* across fields: the target above the maximum */
	type_into(&fm, "target_queue_time", "40");
	assert_false(sv_forms_endpoint_call(&cfg, &fm, NULL, &c));
	assert_int_equal(fm.focus, form_find(&fm, "target_queue_time"));
	assert_string_equal(form_value(&fm, "target_queue_time"), "40"); /* kept */
	form_free(&fm);
	/* edit: rename, stop, scale to zero after 300 s; only those sent */
	struct endpoint old = ep();
	old.max_queue_time = 30;
	old.target_queue_time = 10;
	old.inactivity_timeout = NAN;
	sv_forms_endpoint(&fm, &old);
	type_into(&fm, "endpoint_name", "llm-chat-2");
	type_into(&fm, "endpoint_state", "stopped");
	type_into(&fm, "inactivity_timeout", "300");
	type_into(&fm, "min_cold_load", "5");
	assert_true(sv_forms_endpoint_call(&cfg, &fm, &old, &c));
	b = body_of(&c);
	assert_int_equal(json_object_size(b), 4);
	assert_string_equal(json_string_value(json_object_get(b, "endpoint_name")), "llm-chat-2");
	assert_string_equal(json_string_value(json_object_get(b, "endpoint_state")), "stopped");
	assert_int_equal(json_integer_value(json_object_get(b, "inactivity_timeout")), 300);
	assert_true(json_real_value(json_object_get(b, "min_cold_load")) == 5);
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);
	/* an emptied timeout: null (never scaled to zero) */
	old.inactivity_timeout = 600;
	sv_forms_endpoint(&fm, &old);
	assert_string_equal(form_value(&fm, "inactivity_timeout"), "600");
	type_into(&fm, "inactivity_timeout", "");
	assert_true(sv_forms_endpoint_call(&cfg, &fm, &old, &c));
	b = body_of(&c);
	assert_int_equal(json_object_size(b), 1);
	assert_true(json_is_null(json_object_get(b, "inactivity_timeout")));
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);
}

/* :update-workers ARG: an endpoint with one workergroup, a workergroup id;
 * several or none said, naming them. */
static void test_update_target(void **state)
{
	(void)state;
	struct endpoint e[2] = { ep(), ep() };
	e[1].id = 43;
	e[1].endpoint_name = "two";
	struct workergroup g[3] = { wg(), wg(), wg() };
	g[1].id = 8;
	g[1].endpoint_id = 43;
	g[2].id = 9;
	g[2].endpoint_id = 43;
	char err[200];
	assert_int_equal(sv_forms_update_target("llm-chat", e, 2, g, 3, err, sizeof err), 7);
	assert_int_equal(sv_forms_update_target(" 42 ", e, 2, g, 3, err, sizeof err), 7);
	assert_int_equal(sv_forms_update_target("9", e, 2, g, 3, err, sizeof err), 9);
	assert_int_equal(sv_forms_update_target("two", e, 2, g, 3, err, sizeof err), 0);
	assert_non_null(strstr(err, "8, 9"));
	assert_int_equal(sv_forms_update_target("two", e, 2, g, 1, err, sizeof err), 0);
	assert_non_null(strstr(err, "no workergroup"));
	assert_int_equal(sv_forms_update_target("nope\x1b[31m", e, 2, g, 3, err, sizeof err), 0);
	assert_null(strchr(err, 0x1b));
	assert_int_equal(sv_forms_update_target("", e, 2, g, 3, err, sizeof err), 0);
	char text[400];
	sv_forms_update_workers_text(&g[0], text, sizeof text);
	assert_non_null(strstr(text, "workergroup 7"));
	assert_non_null(strstr(text, "llm-chat"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_text_set_copy),
		cmocka_unit_test(test_endpoint_form),
		cmocka_unit_test(test_workergroup_form),
		cmocka_unit_test(test_lost_counts),
		cmocka_unit_test(test_confirmations),
		cmocka_unit_test(test_worker_cells),
		cmocka_unit_test(test_autoscaler_fields),
		cmocka_unit_test(test_update_target),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
