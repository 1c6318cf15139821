/* ct.c: the contract tests' shared helpers (see ct.h).  Failures print the
 * offending response body before cmocka stops the test. */
#include "ct.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curl/curl.h>

struct simproc *ct_sim;

int ct_start(const char *const *args)
{
	ct_sim = simproc_start(args);
	return ct_sim ? 0 : -1;
}

int ct_stop(void **state)
{
	(void)state;
	simproc_stop(ct_sim);
	ct_sim = NULL;
	return 0;
}

int ct_reset(void **state)
{
	(void)state;
	struct http_result r = sim_ctl(ct_sim, "reset", "{}");
	long st = r.status;
	http_result_free(&r);
	return st == 200 ? 0 : -1;
}

struct http_result ct_req(const char *method, const char *path, const char *body)
{
	return http_call(ct_sim, method, path, ct_sim->full_key, body);
}

json_t *ct_expect_as(const char *bearer, const char *method, const char *path, const char *body, long status)
{
	struct http_result r = http_call(ct_sim, method, path, bearer, body);
	if (r.status != status)
		fail_msg("%s %s: expected HTTP %ld, got %ld: %.600s", method, path, status, r.status, r.body);
	json_t *j = r.json;
	r.json = NULL;
	http_result_free(&r);
	return j;
}

json_t *ct_expect(const char *method, const char *path, const char *body, long status)
{
	return ct_expect_as(ct_sim->full_key, method, path, body, status);
}

void ct_expect_error(const char *bearer, const char *method, const char *path, const char *body, long status,
		     const char *slug, const char *msg_part)
{
	json_t *j = ct_expect_as(bearer, method, path, body, status);
	if (!j)
		fail_msg("%s %s: no JSON body", method, path);
	if (slug) {
		const char *e = json_string_value(json_object_get(j, "error"));
		if (!e || strcmp(e, slug))
			fail_msg("%s %s: expected error %s, got %s", method, path, slug, e ? e : "(none)");
	}
	if (msg_part) {
		const char *m = json_string_value(json_object_get(j, "msg"));
		if (!m)
			m = json_string_value(json_object_get(j, "detail"));
		if (!m || !strstr(m, msg_part))
			fail_msg("%s %s: expected msg containing '%s', got '%s'", method, path, msg_part, m ? m : "(none)");
	}
	json_decref(j);
}

json_t *ct_state(void)
{
	struct http_result r = http_call(ct_sim, "GET", "/__sim/state", NULL, NULL);
	if (r.status != 200 || !r.json)
		fail_msg("/__sim/state: HTTP %ld", r.status);
	json_t *j = r.json;
	r.json = NULL;
	http_result_free(&r);
	return j;
}

json_t *ct_state_inst(json_t *st, long id)
{
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(st, "instances"), i, o)
		if (json_integer_value(json_object_get(o, "id")) == id)
			return o;
	return NULL;
}

json_t *ct_inst(long id)
{
	json_t *st = ct_state();
	json_t *o = ct_state_inst(st, id);
	if (!o)
		fail_msg("instance %ld is not in the simulator's state", id);
	json_incref(o);
	json_decref(st);
	return o;
}

void ct_ctl(const char *what, const char *body)
{
	struct http_result r = sim_ctl(ct_sim, what, body);
	if (r.status != 200)
		fail_msg("/__sim/%s %s: HTTP %ld %.300s", what, body, r.status, r.body);
	http_result_free(&r);
}

void ct_keep_only(const long *keep)
{
	/* serverless workers bill the account too: no endpoint stays */
	json_t *eps = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	size_t n;
	json_t *e;
	json_array_foreach(json_object_get(eps, "results"), n, e) {
		char path[64];
		snprintf(path, sizeof path, "/api/v0/endptjobs/%lld/", (long long)json_integer_value(json_object_get(e, "id")));
		json_decref(ct_expect("DELETE", path, "{}", 200));
	}
	json_decref(eps);
	json_t *st = ct_state();
	json_t *ids = json_array();
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(st, "instances"), i, o) {
		long id = (long)json_integer_value(json_object_get(o, "id"));
		bool k = false;
		for (const long *p = keep; *p >= 0; p++)
			k |= *p == id;
		if (!k)
			json_array_append_new(ids, json_integer(id));
	}
	json_decref(st);
	json_t *b = json_pack("{s:o}", "instance_ids", ids);
	char *body = json_dumps(b, JSON_COMPACT);
	json_decref(ct_expect("DELETE", "/api/v0/instances/", body, 200));
	free(body);
	json_decref(b);
}

double ct_credit(void)
{
	json_t *u = ct_expect("GET", "/api/v0/users/current/", NULL, 200);
	double c = ct_num(u, "credit");
	json_decref(u);
	return c;
}

void ct_advance(double seconds)
{
	char b[64];
	snprintf(b, sizeof b, "{\"advance\":%.6f}", seconds);
	ct_ctl("clock", b);
}

double ct_num(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	if (!json_is_number(v))
		fail_msg("field %s is not a number", k);
	return json_number_value(v);
}

const char *ct_str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

long ct_find(const char *actual, const char *intended)
{
	json_t *st = ct_state();
	size_t i;
	json_t *o;
	long id = -1;
	json_array_foreach(json_object_get(st, "instances"), i, o) {
		const char *a = ct_str(o, "actual_status");
		const char *in = ct_str(o, "intended_status");
		bool am = !strcmp(actual, "null") ? a == NULL : a && !strcmp(a, actual);
		if (am && (!intended || (in && !strcmp(in, intended)))) {
			id = (long)json_integer_value(json_object_get(o, "id"));
			break;
		}
	}
	json_decref(st);
	if (id < 0)
		fail_msg("no seeded instance with status %s/%s", actual, intended ? intended : "*");
	return id;
}

long ct_offer(void)
{
	json_t *j = ct_expect("POST", "/api/v0/bundles/",
			      "{\"rentable\":{\"eq\":true},\"disk_space\":{\"gte\":100},\"order\":[[\"dph_total\",\"asc\"]],\"limit\":1}",
			      200);
	json_t *o = json_array_get(json_object_get(j, "offers"), 0);
	if (!o)
		fail_msg("no rentable offer left");
	long id = (long)json_integer_value(json_object_get(o, "id"));
	json_decref(j);
	return id;
}

long ct_create(const char *fields, char *ikey, size_t ikey_n)
{
	long offer = ct_offer();
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
	json_t *b = fields ? json_loads(fields, 0, NULL) : json_object();
	if (!b)
		fail_msg("bad JSON in test: %s", fields);
	if (!json_object_get(b, "image"))
		json_object_set_new(b, "image", json_string("pytorch/pytorch:latest"));
	if (!json_object_get(b, "runtype"))
		json_object_set_new(b, "runtype", json_string("ssh_direct"));
	char *body = json_dumps(b, JSON_COMPACT);
	json_decref(b);
	json_t *j = ct_expect("PUT", path, body, 200);
	free(body);
	assert_true(json_is_true(json_object_get(j, "success")));
	long id = (long)json_integer_value(json_object_get(j, "new_contract"));
	assert_true(id > 0);
	if (ikey)
		snprintf(ikey, ikey_n, "%s", ct_str(j, "instance_api_key"));
	json_decref(j);
	return id;
}

struct hdrscan {
	const char *name;
	bool found;
};

static size_t on_header(char *data, size_t size, size_t n, void *ud)
{
	struct hdrscan *h = ud;
	size_t len = size * n, nl = strlen(h->name);
	if (len > nl && data[nl] == ':' && !strncasecmp(data, h->name, nl))
		h->found = true;
	return len;
}

static size_t discard(char *data, size_t size, size_t n, void *ud)
{
	(void)data;
	(void)ud;
	return size * n;
}

bool ct_has_header(const char *method, const char *path, const char *name, long *status)
{
	char url[1024], auth[256];
	snprintf(url, sizeof url, "%s%s", ct_sim->url, path);
	snprintf(auth, sizeof auth, "Authorization: Bearer %s", ct_sim->full_key);
	struct hdrscan h = { name, false };
	CURL *c = curl_easy_init();
	struct curl_slist *hl = curl_slist_append(NULL, auth);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	*status = 0;
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_slist_free_all(hl);
	curl_easy_cleanup(c);
	return h.found;
}
