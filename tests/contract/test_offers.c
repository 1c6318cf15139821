/* test_offers.c: offer search in its three forms (POST body, GET ?q=, PUT
 * search/asks) with string numbers and the CLI's operators, gpu_names,
 * instance creation (success shape, offer taken, cancel_unavail, onstart
 * limit, env ports, runtype names, vm without key, volume_info, price) and
 * the template endpoints (eight operators, create rules, edit changes
 * hash_id, delete, merge rules 3-5 at creation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0", NULL };
	return ct_start(args);
}

static void test_search_post_filters_order_limit(void **state)
{
	(void)state;
	struct http_result r = http_call(ct_sim, "POST", "/api/v0/bundles/", NULL,
					 "{\"num_gpus\":{\"gte\":\"2\"},\"verified\":{\"eq\":true},\"rentable\":{\"eq\":true},"
					 "\"gpu_name\":{\"in\":[\"RTX 4090\",\"RTX 3090\",\"A100 SXM4\"]},"
					 "\"type\":\"on-demand\",\"limit\":5,\"order\":[[\"dph_total\",\"asc\"]]}");
	assert_int_equal(r.status, 200);
	assert_string_equal(r.content_type, "application/json");
	json_t *offers = json_object_get(r.json, "offers");
	assert_true(json_array_size(offers) > 0 && json_array_size(offers) <= 5);
	double prev = 0;
	size_t i;
	json_t *o;
	json_array_foreach(offers, i, o) {
		assert_true(ct_num(o, "num_gpus") >= 2);
		assert_true(json_is_true(json_object_get(o, "verified")));
		assert_true(json_is_true(json_object_get(o, "rentable")));
		const char *g = ct_str(o, "gpu_name");
		assert_true(!strcmp(g, "RTX 4090") || !strcmp(g, "RTX 3090") || !strcmp(g, "A100 SXM4"));
		assert_true(ct_num(o, "dph_total") >= prev);
		prev = ct_num(o, "dph_total");
		static const char *const f[] = { "id", "gpu_ram", "reliability", "direct_port_count",
						 "dlperf_per_dphtotal", "min_bid", "geolocation", "cuda_max_good" };
		for (size_t k = 0; k < sizeof f / sizeof *f; k++)
			assert_non_null(json_object_get(o, f[k]));
	}
	http_result_free(&r);
}

static void test_search_limit_is_the_head_of_the_full_ordering(void **state)
{
	(void)state;
	json_t *full = ct_expect("POST", "/api/v0/bundles/",
				 "{\"order\":[[\"dph_total\",\"desc\"],[\"id\",\"asc\"]],\"limit\":100000}", 200);
	json_t *top = ct_expect("POST", "/api/v0/bundles/",
				"{\"order\":[[\"dph_total\",\"desc\"],[\"id\",\"asc\"]],\"limit\":17}", 200);
	json_t *fo = json_object_get(full, "offers"), *to = json_object_get(top, "offers");
	assert_int_equal(json_array_size(fo), 200);
	assert_int_equal(json_array_size(to), 17);
	for (size_t i = 0; i < 17; i++)
		assert_int_equal(json_integer_value(json_object_get(json_array_get(fo, i), "id")),
				 json_integer_value(json_object_get(json_array_get(to, i), "id")));
	for (size_t i = 1; i < json_array_size(fo); i++)
		assert_true(ct_num(json_array_get(fo, i - 1), "dph_total") >= ct_num(json_array_get(fo, i), "dph_total"));
	json_decref(full);
	json_decref(top);
}

static void test_search_get_q_and_put_search_asks_agree(void **state)
{
	(void)state;
	json_t *a = ct_expect("GET",
			      "/api/v0/bundles/?q=%7B%22gpu_ram%22%3A%7B%22gte%22%3A%2240000%22%7D%2C%22limit%22%3A4%2C"
			      "%22order%22%3A%5B%5B%22score%22%2C%22desc%22%5D%5D%7D",
			      NULL, 200);
	json_t *b = ct_expect("PUT", "/api/v0/search/asks/",
			      "{\"select_cols\":[\"*\"],\"q\":{\"gpu_ram\":{\"gte\":40000},\"limit\":4,"
			      "\"order\":[[\"score\",\"desc\"]]}}",
			      200);
	assert_true(json_array_size(json_object_get(a, "offers")) == 4);
	assert_true(json_equal(json_object_get(a, "offers"), json_object_get(b, "offers")));
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(a, "offers"), i, o)
		assert_true(ct_num(o, "gpu_ram") >= 40000);
	json_decref(a);
	json_decref(b);
}

static void test_search_rejects_unknown_operator(void **state)
{
	(void)state;
	ct_expect_error(NULL, "POST", "/api/v0/bundles/", "{\"num_gpus\":{\"approx\":2}}", 400, "invalid_args", NULL);
}

static void test_gpu_names_unique(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v0/gpu_names/unique/", NULL, 200);
	json_t *n = json_object_get(j, "gpu_names");
	assert_true(json_array_size(n) >= 3);
	for (size_t i = 1; i < json_array_size(n); i++)
		assert_true(strcmp(json_string_value(json_array_get(n, i - 1)), json_string_value(json_array_get(n, i))) < 0);
	json_decref(j);
}

static void test_create_success_shape_and_listing(void **state)
{
	(void)state;
	long offer = ct_offer();
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
	json_t *j = ct_expect("PUT", path,
			      "{\"image\":\"vllm/vllm-openai:v0.5.3\",\"label\":\"made-by-test\",\"disk\":40,"
			      "\"runtype\":\"jupyter_direct\"}",
			      200);
	assert_true(json_is_true(json_object_get(j, "success")));
	long id = (long)json_integer_value(json_object_get(j, "new_contract"));
	assert_true(id > 0);
	assert_true(strlen(ct_str(j, "instance_api_key")) >= 16);
	assert_null(json_object_get(j, "id"));
	json_decref(j);
	json_t *in = ct_inst(id);
	assert_string_equal(ct_str(in, "label"), "made-by-test");
	assert_string_equal(ct_str(in, "image_uuid"), "vllm/vllm-openai:v0.5.3");
	assert_string_equal(ct_str(in, "image_runtype"), "jupyter_direc ssh_direc ssh_proxy");
	assert_float_equal(ct_num(in, "disk_space"), 40, 1e-9);
	assert_false(json_is_true(json_object_get(in, "is_bid")));
	json_decref(in);
	/* the offer is now taken: 404 no_such_ask, 410 with cancel_unavail */
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\"}", 404, "no_such_ask", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"cancel_unavail\":true}", 410, NULL, NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/asks/1/", "{\"image\":\"a/b\"}", 404, "no_such_ask", NULL);
	/* POST works too */
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	json_decref(ct_expect("POST", path, "{\"image\":\"a/b\"}", 200));
}

static void test_create_validation_errors(void **state)
{
	(void)state;
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, "invalid_args", "image");
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"runtype\":\"telnet\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"price\":0.0001}", 400, "invalid_price", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"env\":\"-e A=1\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"target_state\":\"paused\"}", 400,
			"invalid_args", NULL);
	/* onstart: 4048 characters pass, 4049 fail */
	char *body = malloc(5000);
	char *s = malloc(4100);
	memset(s, 'e', 4049);
	s[4049] = '\0';
	snprintf(body, 5000, "{\"image\":\"a/b\",\"onstart\":\"%s\"}", s);
	ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "invalid_args", "4048");
	s[4048] = '\0';
	snprintf(body, 5000, "{\"image\":\"a/b\",\"onstart\":\"%s\"}", s);
	json_decref(ct_expect("PUT", path, body, 200));
	free(body);
	free(s);
}

static void test_create_runtype_spellings(void **state)
{
	(void)state;
	static const char *const in[] = { "ssh", "ssh_proxy", "ssh_direct", "ssh_direc ssh_proxy", "jupyter",
					  "jupyter_proxy", "jupyter_direc ssh_direc ssh_proxy", "args" };
	static const char *const want[] = { "ssh_proxy", "ssh_proxy", "ssh_direc ssh_proxy", "ssh_direc ssh_proxy",
					    "jupyter_proxy ssh_proxy", "jupyter_proxy ssh_proxy",
					    "jupyter_direc ssh_direc ssh_proxy", "args" };
	for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
		char f[128];
		snprintf(f, sizeof f, "{\"runtype\":\"%s\"}", in[i]);
		long id = ct_create(f, NULL, 0);
		json_t *o = ct_inst(id);
		assert_string_equal(ct_str(o, "image_runtype"), want[i]);
		json_decref(o);
	}
}

static void test_create_vm_needs_ssh_key(void **state)
{
	(void)state;
	json_t *keys = ct_expect("GET", "/api/v0/ssh/", NULL, 200);
	size_t i;
	json_t *k;
	json_array_foreach(keys, i, k) {
		char path[64];
		snprintf(path, sizeof path, "/api/v0/ssh/%lld/", (long long)json_integer_value(json_object_get(k, "id")));
		json_decref(ct_expect("DELETE", path, "{}", 200));
	}
	json_decref(keys);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"vm\":true}", 400, "no_ssh_key_for_vm", NULL);
	json_decref(ct_expect("PUT", path, "{\"image\":\"a/b\",\"vm\":false}", 200));
}

static void test_create_volume_info_and_bid_price(void **state)
{
	(void)state;
	/* a volume_info naming no volume is refused (test_volumes.c links real ones) */
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	ct_expect_error(ct_sim->full_key, "PUT", path,
			"{\"image\":\"a/b\",\"volume_info\":{\"volume_id\":555,\"mount_path\":\"/data\",\"create_new\":false}}",
			400, "no_such_volume", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"image\":\"a/b\",\"volume_info\":{\"volume_id\":555}}", 400,
			"invalid_args", "mount_path");
	long id = ct_create("{\"price\":\"0.25\"}", NULL, 0);
	json_t *o = ct_inst(id);
	assert_true(json_is_null(json_object_get(o, "volume_info")));
	assert_true(json_is_true(json_object_get(o, "is_bid")));
	assert_float_equal(ct_num(o, "dph_base"), 0.25, 1e-12);
	json_decref(o);
}

static json_t *templates(const char *filters_urlencoded)
{
	char path[512];
	snprintf(path, sizeof path, "/api/v0/template/?select_filters=%s", filters_urlencoded);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *t = json_incref(json_object_get(j, "templates"));
	json_decref(j);
	return t;
}

static void test_template_search_all_eight_operators(void **state)
{
	(void)state;
	json_t *all = ct_expect("GET", "/api/v0/template/", NULL, 200);
	size_t n = json_array_size(json_object_get(all, "templates"));
	assert_int_equal(n, 5);
	json_t *first = json_array_get(json_object_get(all, "templates"), 0);
	long id0 = (long)json_integer_value(json_object_get(first, "id"));
	json_decref(all);
	char f[256];
	struct {
		const char *op;
		size_t want;
	} cases[] = { { "eq", 1 }, { "neq", 4 }, { "lt", 0 }, { "lte", 1 }, { "gt", 4 }, { "gte", 5 } };
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		snprintf(f, sizeof f, "%%7B%%22id%%22%%3A%%7B%%22%s%%22%%3A%ld%%7D%%7D", cases[i].op, id0);
		json_t *t = templates(f);
		if (json_array_size(t) != cases[i].want)
			fail_msg("operator %s: %zu templates, expected %zu", cases[i].op, json_array_size(t), cases[i].want);
		json_decref(t);
	}
	json_t *t = templates("%7B%22name%22%3A%7B%22in%22%3A%5B%22TensorFlow%22%2C%22CUDA%20devel%22%5D%7D%7D");
	assert_int_equal(json_array_size(t), 2);
	json_decref(t);
	t = templates("%7B%22name%22%3A%7B%22notin%22%3A%5B%22TensorFlow%22%5D%7D%2C%22recommended%22%3A%7B%22eq%22%3Atrue%7D%7D");
	assert_int_equal(json_array_size(t), 2);
	json_decref(t);
	ct_expect_error(ct_sim->full_key, "GET", "/api/v0/template/?select_filters=%7B%22id%22%3A%7B%22near%22%3A1%7D%7D",
			NULL, 400, "invalid_args", NULL);
}

/* Percent-encode s for a query string (unreserved bytes kept). */
static void url_encode(const char *s, char *out, size_t n)
{
	size_t k = 0;
	for (; *s && k + 4 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-_.~", c))
			out[k++] = (char)c;
		else
			k += (size_t)snprintf(out + k, n - k, "%%%02X", c);
	}
	out[k] = '\0';
}

/* A value as the CLI's query language sends it: true/false literals,
 * numbers as the text typed, strings as typed (underscores already
 * turned into spaces by the client). */
static json_t *as_cli_sends(const json_t *v)
{
	char num[64];
	if (json_is_boolean(v))
		return json_boolean(json_is_true(v));
	if (json_is_integer(v)) {
		snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
		return json_string(num);
	}
	if (json_is_real(v)) {
		snprintf(num, sizeof num, "%.17g", json_real_value(v));
		return json_string(num);
	}
	return json_deep_copy(v);
}

/* Every searchable template field of SPEC.md, as the CLI sends it (what
 * rentop's `:templates QUERY` and `--dump templates --query` send through
 * api_templates_query_call): field=VALUE of a template finds that template and
 * only templates with that value; field!=VALUE leaves it out. */
static void test_template_search_every_field_as_the_cli_sends_it(void **state)
{
	(void)state;
	static const char *const fields[] = {
		"count_created", "created_at", "creator_id", "default_tag", "docker_login_repo", "hash_id",
		"id", "image", "jup_direct", "name", "recent_create_date", "recommended",
		"recommended_disk_space", "ssh_direct", "tag", "use_ssh",
	};
	json_t *j = ct_expect("GET", "/api/v0/template/", NULL, 200);
	json_t *all = json_object_get(j, "templates");
	assert_true(json_array_size(all) > 0);
	for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
		const char *name = fields[f];
		json_t *t = NULL, *x;
		size_t i;
		json_array_foreach(all, i, x)
			if (!t && json_object_get(x, name) && !json_is_null(json_object_get(x, name)))
				t = x;
		if (!t)
			fail_msg("no simulator template has a value for %s", name);
		json_t *want = json_object_get(t, name);
		json_t *sent = as_cli_sends(want);
		for (int neg = 0; neg < 2; neg++) {
			json_t *filt = json_pack("{s:{s:O}}", name, neg ? "neq" : "eq", sent);
			char *js = json_dumps(filt, JSON_COMPACT);
			char enc[1024];
			url_encode(js, enc, sizeof enc);
			json_t *got = templates(enc);
			bool found = false;
			json_array_foreach(got, i, x) {
				if (json_equal(json_object_get(x, "id"), json_object_get(t, "id")))
					found = true;
				bool same = json_equal(json_object_get(x, name), want);
				if (same == (bool)neg)
					fail_msg("%s: template %lld has %s, the wrong side of %s", js,
						 (long long)json_integer_value(json_object_get(x, "id")),
						 same ? "that value" : "another value", neg ? "neq" : "eq");
			}
			if (found == (bool)neg)
				fail_msg("%s: the template it was taken from is %s", js, neg ? "in" : "missing");
			json_decref(got);
			free(js);
			json_decref(filt);
		}
		json_decref(sent);
	}
	json_decref(j);
}

static void test_template_create_edit_delete(void **state)
{
	(void)state;
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/template/", "{\"name\":\"x\",\"image\":\"a/b\"}", 400,
			"missing_input", "docker_login_repo");
	json_t *j = ct_expect("POST", "/api/v0/template/",
			      "{\"name\":\"mine\",\"image\":\"me/img\",\"docker_login_repo\":\"\",\"docker_login_user\":\"\","
			      "\"docker_login_pass\":\"\",\"env\":\"-e A=1 -p 7860:7860\"}",
			      200);
	json_t *t = json_object_get(j, "template");
	long id = (long)json_integer_value(json_object_get(t, "id"));
	char *hash = strdup(ct_str(t, "hash_id"));
	assert_string_equal(ct_str(t, "tag"), "latest");
	assert_string_equal(ct_str(t, "runtype"), "args");
	assert_float_equal(ct_num(t, "recommended_disk_space"), 8, 1e-9);
	json_decref(j);
	char body[256];
	snprintf(body, sizeof body, "{\"hash_id\":\"%s\",\"desc\":\"edited\"}", hash);
	j = ct_expect("PUT", "/api/v0/template/", body, 200);
	t = json_object_get(j, "template");
	assert_string_equal(ct_str(t, "desc"), "edited");
	assert_string_not_equal(ct_str(t, "hash_id"), hash);
	assert_int_equal(json_integer_value(json_object_get(t, "id")), id);
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/template/", body, 404, "not_found", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/template/", "{\"desc\":\"x\"}", 400, "missing_input", NULL);
	free(hash);
	snprintf(body, sizeof body, "{\"template_id\":%ld}", id);
	json_decref(ct_expect("DELETE", "/api/v0/template/", body, 200));
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/template/", body, 404, "not_found", NULL);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/template/", "{}", 400, "missing_input", NULL);
}

/* The stored template of this id in the simulator's state (owned), or NULL. */
static json_t *state_template(long id)
{
	json_t *st = ct_state();
	json_t *found = NULL, *t;
	size_t i;
	json_array_foreach(json_object_get(st, "templates"), i, t)
		if (json_integer_value(json_object_get(t, "id")) == id)
			found = json_incref(t);
	json_decref(st);
	return found;
}

static void test_template_validation(void **state)
{
	(void)state;
	static const char *const base = "\"docker_login_repo\":\"\",\"docker_login_user\":\"\",\"docker_login_pass\":\"\"";
	char body[512];
	/* required fields: each one missing is named */
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/template/",
			"{\"image\":\"a/b\",\"docker_login_repo\":\"\",\"docker_login_user\":\"\",\"docker_login_pass\":\"\"}",
			400, "missing_input", "name");
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/template/",
			"{\"name\":\"n\",\"image\":\"a/b\",\"docker_login_repo\":\"\",\"docker_login_user\":\"\"}", 400,
			"missing_input", "docker_login_pass");
	/* empty name or image, wrong types, unknown runtype: refused, nothing stored */
	json_t *before = ct_expect("GET", "/api/v0/template/", NULL, 200);
	size_t n0 = json_array_size(json_object_get(before, "templates"));
	json_decref(before);
	static const struct {
		const char *fields, *msg;
	} bad[] = {
		{ "\"name\":\"\",\"image\":\"a/b\"", "name must not be empty" },
		{ "\"name\":\"n\",\"image\":\"\"", "image must not be empty" },
		{ "\"name\":\"n\",\"image\":\"a/b\",\"runtype\":\"vm\"", "runtype" },
		{ "\"name\":\"n\",\"image\":\"a/b\",\"recommended_disk_space\":-3", "recommended_disk_space" },
		{ "\"name\":\"n\",\"image\":\"a/b\",\"ssh_direct\":\"yes\"", "ssh_direct" },
		{ "\"name\":\"n\",\"image\":\"a/b\",\"env\":{\"A\":\"1\"}", "env" },
		{ "\"name\":\"n\",\"image\":\"a/b\",\"onstart\":7", "onstart" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(body, sizeof body, "{%s,%s}", bad[i].fields, base);
		ct_expect_error(ct_sim->full_key, "POST", "/api/v0/template/", body, 400, "invalid_args", bad[i].msg);
	}
	json_t *after = ct_expect("GET", "/api/v0/template/", NULL, 200);
	assert_int_equal(json_array_size(json_object_get(after, "templates")), n0);
	json_decref(after);
	/* every field typed is stored, the password included */
	json_t *j = ct_expect("POST", "/api/v0/template/",
			      "{\"name\":\"full\",\"image\":\"reg.example.com/me/app\",\"tag\":\"v1\",\"runtype\":\"ssh\","
			      "\"ssh_direct\":true,\"use_ssh\":true,\"env\":\"-e A=1\",\"onstart\":\"echo hi\","
			      "\"recommended_disk_space\":24,\"docker_login_repo\":\"reg.example.com\","
			      "\"docker_login_user\":\"bob\",\"docker_login_pass\":\"s3cret\"}",
			      200);
	json_t *t = json_object_get(j, "template");
	long id = (long)json_integer_value(json_object_get(t, "id"));
	char *hash = strdup(ct_str(t, "hash_id"));
	json_decref(j);
	json_t *st = state_template(id);
	assert_non_null(st);
	assert_string_equal(ct_str(st, "docker_login_pass"), "s3cret");
	assert_string_equal(ct_str(st, "runtype"), "ssh");
	assert_float_equal(ct_num(st, "recommended_disk_space"), 24, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(st, "creator_id")), 148213);
	json_decref(st);
	/* a refused edit changes nothing, the hash_id included */
	snprintf(body, sizeof body, "{\"hash_id\":\"%s\",\"name\":\"\"}", hash);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/template/", body, 400, "invalid_args", "name");
	snprintf(body, sizeof body, "{\"hash_id\":\"%s\",\"desc\":\"d\",\"runtype\":\"vm\"}", hash);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/template/", body, 400, "invalid_args", "runtype");
	st = state_template(id);
	assert_string_equal(ct_str(st, "hash_id"), hash);
	assert_string_equal(ct_str(st, "name"), "full");
	assert_string_equal(ct_str(st, "desc"), "");
	json_decref(st);
	/* an edit of only the password changes the hash_id too; the id stays */
	snprintf(body, sizeof body, "{\"hash_id\":\"%s\",\"docker_login_pass\":\"n3w\"}", hash);
	j = ct_expect("PUT", "/api/v0/template/", body, 200);
	t = json_object_get(j, "template");
	assert_string_not_equal(ct_str(t, "hash_id"), hash);
	assert_int_equal(json_integer_value(json_object_get(t, "id")), id);
	json_decref(j);
	st = state_template(id);
	assert_string_equal(ct_str(st, "docker_login_pass"), "n3w");
	json_decref(st);
	free(hash);
}

static void test_template_ownership(void **state)
{
	(void)state;
	/* the recommended templates are the platform's: not editable, not deletable */
	json_t *j = ct_expect("GET", "/api/v0/template/?select_filters=%7B%22recommended%22%3A%7B%22eq%22%3Atrue%7D%7D",
			      NULL, 200);
	json_t *t = json_array_get(json_object_get(j, "templates"), 0);
	assert_non_null(t);
	assert_int_not_equal(json_integer_value(json_object_get(t, "creator_id")), 148213);
	long id = (long)json_integer_value(json_object_get(t, "id"));
	char *hash = strdup(ct_str(t, "hash_id"));
	json_decref(j);
	char body[256];
	snprintf(body, sizeof body, "{\"hash_id\":\"%s\",\"desc\":\"mine now\"}", hash);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/template/", body, 403, "forbidden", "creator");
	snprintf(body, sizeof body, "{\"template_id\":%ld}", id);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/template/", body, 403, "forbidden", "creator");
	json_t *st = state_template(id);
	assert_non_null(st);
	assert_string_equal(ct_str(st, "hash_id"), hash);
	json_decref(st);
	free(hash);
	/* the operator's own search (creator_id eq) has no recommended one */
	j = ct_expect("GET", "/api/v0/template/?select_filters=%7B%22creator_id%22%3A%7B%22eq%22%3A148213%7D%7D", NULL,
		      200);
	size_t i;
	json_array_foreach(json_object_get(j, "templates"), i, t)
		assert_false(json_is_true(json_object_get(t, "recommended")));
	assert_true(json_array_size(json_object_get(j, "templates")) > 0);
	json_decref(j);
}

static void test_create_from_template_merges(void **state)
{
	(void)state;
	json_t *j = ct_expect("POST", "/api/v0/template/",
			      "{\"name\":\"priv\",\"image\":\"reg.example.com/me/app\",\"tag\":\"v2\",\"docker_login_repo\":"
			      "\"reg.example.com\",\"docker_login_user\":\"bob\",\"docker_login_pass\":\"tok\","
			      "\"env\":\"-e A=1 -e B=2 -p 7860:7860\",\"onstart\":\"echo tpl\",\"runtype\":\"ssh\","
			      "\"volume_info\":{\"volume_id\":9,\"mount_path\":\"/tpl\",\"create_new\":false}}",
			      200);
	char *hash = strdup(ct_str(json_object_get(j, "template"), "hash_id"));
	json_decref(j);
	char f[512];
	snprintf(f, sizeof f, "{\"template_hash_id\":\"%s\",\"image\":null,\"runtype\":null,\"env\":{\"B\":\"over\",\"C\":\"3\"},"
			      "\"label\":\"from-tpl\"}", hash);
	long offer = ct_offer();
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
	j = ct_expect("PUT", path, f, 200);
	long id = (long)json_integer_value(json_object_get(j, "new_contract"));
	json_decref(j);
	json_t *in = ct_inst(id);
	assert_string_equal(ct_str(in, "image_uuid"), "reg.example.com/me/app:v2");
	assert_string_equal(ct_str(in, "onstart"), "echo tpl");
	assert_string_equal(ct_str(in, "image_runtype"), "ssh_proxy");
	assert_string_equal(ct_str(in, "template_hash_id"), hash);
	assert_string_equal(ct_str(in, "label"), "from-tpl");
	/* rule 4: the template's volume_info is ignored */
	assert_true(json_is_null(json_object_get(in, "volume_info")));
	/* rule 3: env merged, request wins */
	json_t *env = json_object_get(in, "extra_env");
	json_t *m = json_object();
	size_t i;
	json_t *p;
	json_array_foreach(env, i, p)
		json_object_set(m, json_string_value(json_array_get(p, 0)), json_array_get(p, 1));
	assert_string_equal(ct_str(m, "A"), "1");
	assert_string_equal(ct_str(m, "B"), "over");
	assert_string_equal(ct_str(m, "C"), "3");
	json_decref(m);
	/* rule 5: registry credentials carried over */
	assert_string_equal(ct_str(in, "docker_login_user"), "bob");
	assert_non_null(strstr(ct_str(json_object_get(in, "sim"), "image_login"), "-u bob -p tok reg.example.com"));
	json_decref(in);
	/* request scalars override the template */
	snprintf(f, sizeof f, "{\"template_hash_id\":\"%s\",\"image\":\"other/img:1\",\"onstart\":\"echo req\"}", hash);
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	j = ct_expect("PUT", path, f, 200);
	id = (long)json_integer_value(json_object_get(j, "new_contract"));
	json_decref(j);
	in = ct_inst(id);
	assert_string_equal(ct_str(in, "image_uuid"), "other/img:1");
	assert_string_equal(ct_str(in, "onstart"), "echo req");
	json_decref(in);
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"template_hash_id\":\"nope\"}", 400, "invalid_args", NULL);
	free(hash);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_search_post_filters_order_limit, ct_reset),
		cmocka_unit_test_setup(test_search_limit_is_the_head_of_the_full_ordering, ct_reset),
		cmocka_unit_test_setup(test_search_get_q_and_put_search_asks_agree, ct_reset),
		cmocka_unit_test_setup(test_search_rejects_unknown_operator, ct_reset),
		cmocka_unit_test_setup(test_gpu_names_unique, ct_reset),
		cmocka_unit_test_setup(test_create_success_shape_and_listing, ct_reset),
		cmocka_unit_test_setup(test_create_validation_errors, ct_reset),
		cmocka_unit_test_setup(test_create_runtype_spellings, ct_reset),
		cmocka_unit_test_setup(test_create_vm_needs_ssh_key, ct_reset),
		cmocka_unit_test_setup(test_create_volume_info_and_bid_price, ct_reset),
		cmocka_unit_test_setup(test_template_search_all_eight_operators, ct_reset),
		cmocka_unit_test_setup(test_template_search_every_field_as_the_cli_sends_it, ct_reset),
		cmocka_unit_test_setup(test_template_create_edit_delete, ct_reset),
		cmocka_unit_test_setup(test_template_validation, ct_reset),
		cmocka_unit_test_setup(test_template_ownership, ct_reset),
		cmocka_unit_test_setup(test_create_from_template_merges, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_offers", tests, setup, ct_stop);
}
