/* test_instances.c: contract tests of what the client polls and changes:
 * the v1 paged list, the v0 list (both --v0-list modes), one instance, the
 * user, workergroups, authentication bodies, state and label changes,
 * destroy (single and idempotent bulk), bid, and instance_api_key scope. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curl/curl.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	/* every v1 page of every field is checked against jansson's own dump
	 * of the instances (the simulator aborts on a difference) */
	setenv("RENTOP_SIM_CHECK_CACHE", "1", 1);
	/* the seeded instances alone: an endpoint's workers are instances too
	 * (counted in test_workers.c) */
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0",
					    "--endpoints", "0", NULL };
	return ct_start(args);
}

static void test_v1_list_first_page_has_every_seeded_instance(void **state)
{
	(void)state;
	struct http_result r = ct_req("GET", "/api/v1/instances/", NULL);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.content_type, "application/json");
	assert_non_null(r.json);
	assert_true(json_is_true(json_object_get(r.json, "success")));
	assert_int_equal(ct_num(r.json, "instances_found"), 12);
	assert_int_equal(ct_num(r.json, "total_instances"), 12);
	assert_true(json_is_null(json_object_get(r.json, "next_token")));
	assert_true(json_is_object(json_object_get(r.json, "label_counts")));
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(r.json, "instances"), i, o) {
		assert_true(json_is_integer(json_object_get(o, "id")));
		assert_true(json_is_number(json_object_get(o, "start_date")));
		assert_true(json_is_array(json_object_get(o, "extra_env")));
		assert_non_null(json_object_get(o, "actual_status"));
		assert_non_null(json_object_get(o, "intended_status"));
		assert_non_null(ct_str(o, "ssh_host"));
		assert_true(strstr(ct_str(o, "ssh_host"), ".vast.ai") != NULL);
		assert_true(json_is_integer(json_object_get(o, "ssh_port")));
		assert_true(ct_num(o, "dph_total") > 0);
		assert_null(json_object_get(o, "sim"));
	}
	http_result_free(&r);
}

static void test_v1_list_pages_with_limit_and_next_token(void **state)
{
	(void)state;
	char path[256] = "/api/v1/instances/?limit=5";
	json_t *seen = json_object();
	int pages = 0;
	for (;;) {
		json_t *j = ct_expect("GET", path, NULL, 200);
		pages++;
		assert_true(ct_num(j, "instances_found") <= 5);
		assert_int_equal(ct_num(j, "total_instances"), 12);
		size_t i;
		json_t *o;
		json_array_foreach(json_object_get(j, "instances"), i, o) {
			char id[32];
			snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(o, "id")));
			assert_null(json_object_get(seen, id));
			json_object_set_new(seen, id, json_true());
		}
		const char *next = ct_str(j, "next_token");
		if (!next) {
			json_decref(j);
			break;
		}
		snprintf(path, sizeof path, "/api/v1/instances/?limit=5&after_token=%s", next);
		json_decref(j);
		assert_true(pages < 10);
	}
	assert_int_equal(pages, 3);
	assert_int_equal(json_object_size(seen), 12);
	json_decref(seen);
}

static void test_v1_list_limit_is_capped_at_25(void **state)
{
	(void)state;
	static const char *const args[] = { "--instances", "60", "--rate-limits", "off", "--endpoints", "0", NULL };
	struct simproc *big = simproc_start(args);
	struct http_result r = http_call(big, "GET", "/api/v1/instances/?limit=100", big->full_key, NULL);
	assert_int_equal(r.status, 200);
	assert_int_equal(json_array_size(json_object_get(r.json, "instances")), 25);
	assert_int_equal(ct_num(r.json, "total_instances"), 60);
	assert_non_null(ct_str(r.json, "next_token"));
	http_result_free(&r);
	simproc_stop(big);
}

static void test_v1_list_select_filters_order_by_select_cols(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET",
			      "/api/v1/instances/?select_filters=%7B%22actual_status%22%3A%7B%22eq%22%3A%22running%22%7D%7D"
			      "&order_by=%5B%7B%22col%22%3A%22dph_total%22%2C%22dir%22%3A%22desc%22%7D%5D",
			      NULL, 200);
	size_t n = json_array_size(json_object_get(j, "instances"));
	assert_true(n >= 3);
	double prev = 1e9;
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		assert_string_equal(ct_str(o, "actual_status"), "running");
		assert_true(ct_num(o, "dph_total") <= prev);
		prev = ct_num(o, "dph_total");
	}
	json_decref(j);
	/* in / notin and select_cols */
	j = ct_expect("GET",
		      "/api/v1/instances/?select_filters=%7B%22actual_status%22%3A%7B%22notin%22%3A%5B%22running%22%5D%7D%7D"
		      "&select_cols=%5B%22id%22%2C%22label%22%5D",
		      NULL, 200);
	assert_int_equal(json_array_size(json_object_get(j, "instances")) + n, 12);
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		assert_non_null(json_object_get(o, "id"));
		assert_null(json_object_get(o, "actual_status"));
		assert_true(json_object_size(o) <= 2);
	}
	json_decref(j);
}

/* Every id of one range query, paged with `limit` (ids into out, in the
 * order sent); the total it reports. */
static long range_ids(struct simproc *sp, const char *filters, const char *order, int limit,
		      long *out, size_t *n)
{
	char *f = curl_easy_escape(NULL, filters, 0);
	char *o = order ? curl_easy_escape(NULL, order, 0) : NULL;
	char token[64] = "";
	long total = -1;
	*n = 0;
	for (int pages = 0; pages < 100; pages++) {
		char path[1024];
		snprintf(path, sizeof path, "/api/v1/instances/?limit=%d&select_filters=%s%s%s%s%s", limit,
			 f, o ? "&order_by=" : "", o ? o : "", token[0] ? "&after_token=" : "", token);
		struct http_result r = http_call(sp, "GET", path, sp->full_key, NULL);
		assert_int_equal(r.status, 200);
		total = ct_num(r.json, "total_instances");
		size_t i;
		json_t *x;
		json_array_foreach(json_object_get(r.json, "instances"), i, x)
			out[(*n)++] = (long)json_integer_value(json_object_get(x, "id"));
		const char *next = ct_str(r.json, "next_token");
		snprintf(token, sizeof token, "%s", next ? next : "");
		http_result_free(&r);
		if (!token[0])
			break;
	}
	curl_free(f);
	curl_free(o);
	return total;
}

/* The id ranges the parallel --dump reads: each paged range holds exactly
 * the ids of its range, in ascending id order (by default and with
 * order_by id asc; descending with desc), its total_instances their count;
 * the ranges together hold the whole list once; and the binary-searched
 * answer equals the general filter's (the same range with a filter that
 * matches everything, which scans the fleet). */
static void test_v1_list_id_ranges_in_id_order(void **state)
{
	(void)state;
	static const char *const args[] = { "--instances", "200", "--rate-limits", "off", "--clock",
					    "manual", "--endpoints", "0", NULL };
	struct simproc *sp = simproc_start(args);
	static long all[400], got[400], ref[400];
	size_t nall, ngot, nref;
	assert_int_equal(range_ids(sp, "{}", NULL, 25, all, &nall), 200);
	assert_int_equal(nall, 200);
	for (size_t i = 1; i < nall; i++)
		assert_true(all[i] > all[i - 1]);
	long lo = all[0], hi = all[nall - 1];
	long cuts[] = { lo + (hi - lo) / 5, lo + (hi - lo) / 2, lo + (hi - lo) * 4 / 5 };
	size_t covered = 0;
	for (int r = 0; r < 4; r++) {
		char f[256], fscan[300];
		if (r == 0)
			snprintf(f, sizeof f, "{\"id\":{\"lt\":%ld}}", cuts[0]);
		else if (r == 3)
			snprintf(f, sizeof f, "{\"id\":{\"gte\":%ld}}", cuts[2]);
		else
			snprintf(f, sizeof f, "{\"id\":{\"gte\":%ld,\"lt\":%ld}}", cuts[r - 1], cuts[r]);
		for (int ord = 0; ord < 3; ord++) {
			const char *order = ord == 0 ? NULL : ord == 1 ? "[{\"col\":\"id\",\"dir\":\"asc\"}]"
								     : "[{\"col\":\"id\",\"dir\":\"desc\"}]";
			long total = range_ids(sp, f, order, ord == 2 ? 7 : 25, got, &ngot);
			assert_int_equal(total, (long)ngot);
			for (size_t i = 0; i < ngot; i++) {
				if (i > 0) {
					if (ord == 2)
						assert_true(got[i] < got[i - 1]);
					else
						assert_true(got[i] > got[i - 1]);
				}
				assert_true(r == 0 || got[i] >= cuts[r - 1]);
				assert_true(r == 3 || got[i] < cuts[r]);
			}
		}
		range_ids(sp, f, NULL, 25, got, &ngot);
		/* the same range through the general filter (a scan) */
		snprintf(fscan, sizeof fscan, "%.*s,\"machine_id\":{\"gte\":0}}", (int)strlen(f) - 1, f);
		long tref = range_ids(sp, fscan, NULL, 25, ref, &nref);
		assert_int_equal(tref, (long)nref);
		assert_int_equal(nref, ngot);
		assert_memory_equal(ref, got, ngot * sizeof *got);
		assert_memory_equal(all + covered, got, ngot * sizeof *got);
		covered += ngot;
	}
	assert_int_equal(covered, nall);
	/* the highest id, as the dump probes it */
	assert_int_equal(range_ids(sp, "{}", "[{\"col\":\"id\",\"dir\":\"desc\"}]", 1, got, &ngot), 200);
	assert_int_equal(got[0], hi);
	simproc_stop(sp);
}

/* A v1 list URL whose select_filters excludes (notin) the ids a..a+n-1
 * step 7, then the seeded ids in skip; malloc'd. */
static char *notin_url(long a, size_t n, const long *skip, size_t nskip)
{
	size_t cap = 64 + (n + nskip) * 24;
	char *u = malloc(cap);
	assert_non_null(u);
	size_t at = (size_t)snprintf(u, cap, "/api/v1/instances/?select_filters=%%7B%%22id%%22%%3A%%7B%%22notin%%22%%3A%%5B");
	for (size_t i = 0; i < n + nskip; i++)
		at += (size_t)snprintf(u + at, cap - at, "%s%ld", i ? "%2C" : "",
				       i < nskip ? skip[i] : a + (long)(i - nskip) * 7);
	snprintf(u + at, cap - at, "%%5D%%7D%%7D");
	return u;
}

/* notin takes a list as long as the URL allows (rentop's attention
 * listings exclude every held failure: 1,300 ids in 14,000 bytes); a
 * request target past --url-max (16 KiB by default) is 414, before the
 * routes: not recorded as a request, counted in refused_414. */
static void test_v1_list_long_notin_and_414(void **state)
{
	(void)state;
	long seeded[2];
	json_t *st = ct_state();
	size_t i;
	json_t *o;
	size_t k = 0;
	json_array_foreach(json_object_get(st, "instances"), i, o) if (k < 2) seeded[k++] =
		(long)ct_num(o, "id");
	assert_int_equal((long)json_integer_value(json_object_get(st, "url_max")), 16384);
	json_decref(st);
	char *u = notin_url(9000000, 1300, seeded, 2);
	assert_true(strlen(u) > 13000 && strlen(u) < 16384);
	json_t *j = ct_expect("GET", u, NULL, 200);
	assert_int_equal(json_array_size(json_object_get(j, "instances")), 10); /* 12 but 2 */
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		assert_true((long)ct_num(o, "id") != seeded[0]);
		assert_true((long)ct_num(o, "id") != seeded[1]);
	}
	json_decref(j);
	free(u);
	u = notin_url(9000000, 1700, seeded, 2);
	assert_true(strlen(u) > 16384);
	struct http_result r = ct_req("GET", u, NULL);
	assert_int_equal(r.status, 414);
	assert_non_null(strstr(r.body, "414"));
	http_result_free(&r);
	free(u);
	st = ct_state();
	assert_int_equal((long)json_integer_value(json_object_get(st, "refused_414")), 1);
	json_decref(st);
}

static void test_v1_list_rejects_bad_filters(void **state)
{
	(void)state;
	ct_expect_error(ct_sim->full_key, "GET", "/api/v1/instances/?select_filters=%7Bnot-json", NULL, 400,
			"invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "GET",
			"/api/v1/instances/?select_filters=%7B%22id%22%3A%7B%22like%22%3A1%7D%7D", NULL, 400,
			"invalid_args", "like");
}

static void test_v0_list_is_gone_by_default(void **state)
{
	(void)state;
	ct_expect_error(ct_sim->full_key, "GET", "/api/v0/instances/", NULL, 410, "deprecated_endpoint",
			"/api/v0/instances/ is deprecated. Use /api/v1/instances/ instead.");
}

static void test_v0_list_spec_shape_with_flag(void **state)
{
	(void)state;
	static const char *const args[] = { "--v0-list", "spec", "--rate-limits", "off", "--endpoints", "0", NULL };
	struct simproc *s = simproc_start(args);
	struct http_result r = http_call(s, "GET", "/api/v0/instances/", s->full_key, NULL);
	assert_int_equal(r.status, 200);
	assert_int_equal(ct_num(r.json, "instances_found"), 12);
	assert_int_equal(json_array_size(json_object_get(r.json, "instances")), 12);
	http_result_free(&r);
	simproc_stop(s);
}

static void test_single_instance_object_or_null(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/?owner=me", id);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *o = json_object_get(j, "instances");
	assert_true(json_is_object(o));
	assert_int_equal(json_integer_value(json_object_get(o, "id")), id);
	json_decref(j);
	snprintf(path, sizeof path, "/api/v0/instances/%ld", id);
	j = ct_expect("GET", path, NULL, 200);
	assert_true(json_is_object(json_object_get(j, "instances")));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/instances/1/", NULL, 200);
	assert_true(json_is_null(json_object_get(j, "instances")));
	json_decref(j);
}

static void test_seeded_instances_cover_every_state(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v1/instances/", NULL, 200);
	int running = 0, bid = 0, prov = 0, loading = 0, stopped = 0, crashed = 0, created = 0, lost = 0;
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		const char *a = ct_str(o, "actual_status");
		const char *in = ct_str(o, "intended_status");
		bool has_ports = json_object_get(o, "ports") != NULL;
		if (!a) {
			prov++;
			assert_string_equal(in, "running");
			assert_true(json_is_null(json_object_get(o, "gpu_util")));
			assert_int_equal(ct_num(o, "disk_usage"), -1);
		} else if (!strcmp(a, "running")) {
			running++;
			if (json_is_true(json_object_get(o, "is_bid"))) {
				bid++;
				assert_true(ct_num(o, "min_bid") > 0);
			}
			if (strstr(ct_str(o, "image_runtype"), "ssh_direc")) {
				json_t *p = json_array_get(json_object_get(json_object_get(o, "ports"), "22/tcp"), 0);
				assert_string_equal(ct_str(p, "HostIp"), "0.0.0.0");
				assert_true(json_is_string(json_object_get(p, "HostPort")));
			}
			continue;
		} else if (!strcmp(a, "loading")) {
			loading++;
		} else if (!strcmp(a, "exited") && !strcmp(in, "stopped")) {
			stopped++;
		} else if (!strcmp(a, "exited") && !strcmp(in, "running")) {
			crashed++;
			assert_non_null(ct_str(o, "status_msg"));
			/* a crash keeps the contract: unlike a start in progress
			 * (cur_state stopped, next_state running) */
			assert_string_equal(ct_str(o, "cur_state"), "running");
		} else if (!strcmp(a, "created")) {
			created++;
			assert_non_null(strstr(ct_str(o, "status_msg"), "Error"));
		} else if (!strcmp(a, "offline") || !strcmp(a, "unknown")) {
			lost++;
		}
		assert_false(has_ports);
	}
	assert_true(running >= 3);
	assert_true(bid >= 1);
	assert_true(prov >= 1 && loading >= 1 && stopped >= 1 && crashed >= 1 && created >= 1 && lost >= 1);
	json_decref(j);
}

static void test_same_seed_same_world(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0",
					    "--endpoints", "0", NULL };
	struct simproc *s = simproc_start(args);
	struct http_result a = http_call(s, "GET", "/api/v1/instances/?select_cols=%5B%22id%22%2C%22label%22%2C%22gpu_name%22%5D",
					 s->full_key, NULL);
	json_t *b = ct_expect("GET", "/api/v1/instances/?select_cols=%5B%22id%22%2C%22label%22%2C%22gpu_name%22%5D", NULL, 200);
	assert_true(json_equal(json_object_get(a.json, "instances"), json_object_get(b, "instances")));
	assert_string_equal(s->full_key, ct_sim->full_key);
	http_result_free(&a);
	json_decref(b);
	simproc_stop(s);
}

static void test_user_current_with_and_without_slash(void **state)
{
	(void)state;
	json_t *u = ct_expect("GET", "/api/v0/users/current", NULL, 200);
	assert_string_equal(ct_str(u, "email"), "demo@example.com");
	assert_true(ct_num(u, "credit") > 240 && ct_num(u, "credit") <= 250);
	assert_string_equal(ct_str(u, "tfa_status"), "disabled");
	assert_true(json_is_integer(json_object_get(u, "id")));
	assert_true(strncmp(ct_str(u, "ssh_key"), "ssh-", 4) == 0);
	json_decref(u);
	u = ct_expect("GET", "/api/v0/users/current/", NULL, 200);
	assert_non_null(ct_str(u, "email"));
	json_decref(u);
}

static void test_auth_bodies_missing_bad_and_read_only_keys(void **state)
{
	(void)state;
	ct_expect_error(NULL, "GET", "/api/v1/instances/", NULL, 403, NULL, "This action requires login.");
	json_t *j = ct_expect_as("not-a-key", "GET", "/api/v1/instances/", NULL, 401);
	json_t *want = json_pack("{s:b,s:s,s:s}", "success", 0, "error", "auth_error", "msg", "Invalid user key");
	assert_true(json_equal(j, want));
	json_decref(want);
	json_decref(j);
	/* read-only key: reads work, writes are refused with 401 */
	j = ct_expect_as(ct_sim->ro_key, "GET", "/api/v1/instances/", NULL, 200);
	json_decref(j);
	j = ct_expect_as(ct_sim->ro_key, "GET", "/api/v0/users/current/", NULL, 200);
	json_decref(j);
	long id = ct_find("running", NULL);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	ct_expect_error(ct_sim->ro_key, "PUT", path, "{\"state\":\"stopped\"}", 401, NULL, NULL);
	ct_expect_error(ct_sim->ro_key, "DELETE", path, "{}", 401, NULL, NULL);
	ct_expect_error(ct_sim->ro_key, "POST", "/api/v0/secrets/", "{\"key\":\"A\",\"value\":\"b\"}", 401, NULL, NULL);
	json_t *inst = ct_inst(id);
	assert_string_equal(ct_str(inst, "intended_status"), "running");
	json_decref(inst);
}

static void test_workergroups_and_autojobs(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", NULL }; /* the default three endpoints */
	struct simproc *s = simproc_start(args);
	struct http_result r = http_call(s, "GET", "/api/v0/workergroups/", s->full_key, NULL);
	assert_int_equal(r.status, 200);
	assert_true(json_is_true(json_object_get(r.json, "success")));
	json_t *res = json_object_get(r.json, "results");
	assert_int_equal(json_array_size(res), 3);
	static const char *const fields[] = { "id", "min_load", "target_util", "cold_mult", "test_workers",
					      "template_hash", "template_id", "search_query", "launch_args", "gpu_ram",
					      "endpoint_name", "endpoint_id", "api_key", "created_at", "user_id" };
	json_t *g = json_array_get(res, 0);
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		assert_non_null(json_object_get(g, fields[i]));
	assert_null(json_object_get(g, "sim_worker_ids")); /* the simulator's own */
	http_result_free(&r);
	r = http_call(s, "GET", "/api/v0/workergroups", s->full_key, NULL);
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	r = http_call(s, "GET", "/api/v0/autojobs/", s->full_key, NULL);
	assert_int_equal(json_array_size(json_object_get(r.json, "results")), 3);
	http_result_free(&r);
	simproc_stop(s);
}

/* The instance id's object in a v1 page of every field (owned), and the
 * same instance as GET /api/v0/instances/{id}/ answers it (owned). */
static json_t *page_inst(long id)
{
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	json_t *found = NULL;
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o)
		if (json_integer_value(json_object_get(o, "id")) == id)
			found = json_incref(o);
	json_decref(j);
	if (!found)
		fail_msg("instance %ld is not in the page", id);
	return found;
}

static json_t *show_inst(long id)
{
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/?owner=me", id);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *o = json_incref(json_object_get(j, "instances"));
	json_decref(j);
	assert_true(json_is_object(o));
	return o;
}

/* The page's text of each instance is kept between requests (the
 * simulator's insttext.c): a change made by a control call, by an action
 * and by the clock shows in the next page, nested values too, and the page
 * agrees with the single-instance answer (made without that text). */
static void test_v1_list_text_follows_every_change(void **state)
{
	(void)state;
	json_t *st = ct_state();
	assert_true(json_is_true(json_object_get(st, "check_cache")));
	json_decref(st);
	long id = ct_find("running", NULL);
	json_t *a = page_inst(id), *b = show_inst(id);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	a = page_inst(id); /* now from the kept text */
	b = show_inst(id);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);

	/* a control call: top-level and nested values */
	char body[512];
	snprintf(body, sizeof body,
		 "{\"id\":%ld,\"gpu_name\":\"RTX 9999\",\"extra_env\":[[\"A\",\"1\"],[\"B\",\"x\"]]}", id);
	ct_ctl("instance", body);
	a = page_inst(id);
	assert_string_equal(ct_str(a, "gpu_name"), "RTX 9999");
	assert_string_equal(json_string_value(json_array_get(json_array_get(json_object_get(a, "extra_env"), 1), 1)),
			    "x");
	json_decref(a);
	snprintf(body, sizeof body, "{\"id\":%ld,\"extra_env\":[[\"A\",\"1\"],[\"B\",\"y\"]]}", id);
	ct_ctl("instance", body);
	a = page_inst(id);
	assert_string_equal(json_string_value(json_array_get(json_array_get(json_object_get(a, "extra_env"), 1), 1)),
			    "y");
	b = show_inst(id);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);

	/* actions: a label, then a stop that the clock completes */
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_decref(ct_expect("PUT", path, "{\"label\":\"kept-text-test\"}", 200));
	a = page_inst(id);
	assert_string_equal(ct_str(a, "label"), "kept-text-test");
	assert_true(json_is_integer(json_object_get(a, "gpu_util")));
	json_decref(a);
	json_decref(ct_expect("PUT", path, "{\"state\":\"stopped\"}", 200));
	ct_advance(120);
	a = page_inst(id);
	assert_string_equal(ct_str(a, "actual_status"), "exited");
	assert_string_equal(ct_str(a, "intended_status"), "stopped");
	assert_true(json_is_null(json_object_get(a, "gpu_util")));
	b = show_inst(id);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
}

static void test_label_set_and_too_long(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_t *j = ct_expect("PUT", path, "{\"label\":\"renamed-by-test\"}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	json_t *in = ct_inst(id);
	assert_string_equal(ct_str(in, "label"), "renamed-by-test");
	json_decref(in);
	char *big = malloc(1100);
	memset(big, 'x', 1030);
	big[1030] = '\0';
	char *body = malloc(1200);
	snprintf(body, 1200, "{\"label\":\"%s\"}", big);
	ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "label_too_long", NULL);
	free(big);
	free(body);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"state\":\"paused\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/1/", "{\"state\":\"stopped\"}", 404,
			"no_such_instance", NULL);
}

static void test_destroy_single_then_404_and_invalid_id(void **state)
{
	(void)state;
	long id = ct_find("exited", "stopped");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_t *j = ct_expect("DELETE", path, "{}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_non_null(ct_str(j, "msg"));
	json_decref(j);
	j = ct_expect("GET", path, NULL, 200);
	assert_true(json_is_null(json_object_get(j, "instances")));
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "DELETE", path, "{}", 404, "not_found", NULL);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/instances/abc/", "{}", 400, "invalid_args", NULL);
}

static void test_bulk_destroy_is_idempotent(void **state)
{
	(void)state;
	long a = ct_find("offline", NULL) , b = ct_find("created", NULL);
	(void)a;
	long c = ct_find("exited", "running");
	char body[128];
	snprintf(body, sizeof body, "{\"instance_ids\":[%ld,%ld]}", b, c);
	json_t *j = ct_expect("DELETE", "/api/v0/instances/", body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_int_equal(json_array_size(json_object_get(j, "destroyed")), 2);
	json_decref(j);
	j = ct_expect("DELETE", "/api/v0/instances/", body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_int_equal(json_array_size(json_object_get(j, "destroyed")), 0);
	json_decref(j);
	j = ct_expect("GET", "/api/v1/instances/", NULL, 200);
	assert_int_equal(ct_num(j, "total_instances"), 10);
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/instances/", "{}", 400, "invalid_args", NULL);
}

static void test_bulk_state_stops_listed_instances(void **state)
{
	(void)state;
	long id = ct_find("running", NULL);
	char body[128];
	snprintf(body, sizeof body, "{\"state\":\"stopped\",\"ids\":[%ld,1]}", id);
	json_t *j = ct_expect("PUT", "/api/v0/instances/", body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	json_t *in = ct_inst(id);
	assert_string_equal(ct_str(in, "intended_status"), "stopped");
	json_decref(in);
}

static void test_bid_change_and_errors(void **state)
{
	(void)state;
	json_t *st = ct_state();
	long bid = -1, od = -1;
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(st, "instances"), i, o) {
		if (json_is_true(json_object_get(o, "is_bid")) && bid < 0)
			bid = (long)json_integer_value(json_object_get(o, "id"));
		if (!json_is_true(json_object_get(o, "is_bid")) && od < 0)
			od = (long)json_integer_value(json_object_get(o, "id"));
	}
	json_decref(st);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/bid_price/%ld/", bid);
	json_t *j = ct_expect("PUT", path, "{\"client_id\":\"me\",\"price\":1.234}", 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	json_t *in = ct_inst(bid);
	assert_float_equal(ct_num(in, "dph_base"), 1.234, 1e-9);
	assert_float_equal(ct_num(in, "dph_total"), 1.234 + ct_num(in, "storage_total_cost"), 1e-9);
	json_decref(in);
	snprintf(path, sizeof path, "/api/v0/instances/bid_price/%ld", bid);
	j = ct_expect("PUT", path, "{\"client_id\":\"me\",\"price\":\"0.5\"}", 200);
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"client_id\":\"me\",\"price\":0.0005}", 400, "invalid_args", NULL);
	/* the docs' range (change_bid.yaml): up to 32 x the instance's GPUs */
	in = ct_inst(bid);
	double top = 32.0 * (ct_num(in, "num_gpus") >= 1 ? ct_num(in, "num_gpus") : 1);
	json_decref(in);
	char body[96];
	snprintf(body, sizeof body, "{\"client_id\":\"me\",\"price\":%g}", top + 0.5);
	ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "invalid_args", NULL);
	snprintf(body, sizeof body, "{\"client_id\":\"me\",\"price\":%g}", top);
	j = ct_expect("PUT", path, body, 200);
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/bid_price/1/", "{\"client_id\":\"me\",\"price\":1}", 404,
			"no_such_instance", NULL);
	snprintf(path, sizeof path, "/api/v0/instances/bid_price/%ld/", od);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"client_id\":\"me\",\"price\":1}", 400, "invalid_args", NULL);
}

static void test_instance_api_key_acts_on_its_own_instance_only(void **state)
{
	(void)state;
	char ikey[128];
	long id = ct_create(NULL, ikey, sizeof ikey);
	long other = ct_find("running", NULL);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", other);
	ct_expect_error(ikey, "PUT", path, "{\"state\":\"stopped\"}", 401, NULL, NULL);
	ct_expect_error(ikey, "GET", "/api/v0/users/current/", NULL, 401, NULL, NULL);
	ct_expect_error(ikey, "GET", "/api/v1/instances/", NULL, 401, NULL, NULL);
	snprintf(path, sizeof path, "/api/v0/instances/%ld/", id);
	json_t *j = ct_expect_as(ikey, "PUT", path, "{\"state\":\"stopped\"}", 200);
	json_decref(j);
	j = ct_expect_as(ikey, "DELETE", path, "{}", 200);
	json_decref(j);
	json_t *st = ct_state();
	assert_null(ct_state_inst(st, id));
	json_decref(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_v1_list_first_page_has_every_seeded_instance, ct_reset),
		cmocka_unit_test_setup(test_v1_list_pages_with_limit_and_next_token, ct_reset),
		cmocka_unit_test_setup(test_v1_list_limit_is_capped_at_25, ct_reset),
		cmocka_unit_test_setup(test_v1_list_select_filters_order_by_select_cols, ct_reset),
		cmocka_unit_test_setup(test_v1_list_id_ranges_in_id_order, ct_reset),
		cmocka_unit_test_setup(test_v1_list_long_notin_and_414, ct_reset),
		cmocka_unit_test_setup(test_v1_list_rejects_bad_filters, ct_reset),
		cmocka_unit_test_setup(test_v0_list_is_gone_by_default, ct_reset),
		cmocka_unit_test_setup(test_v0_list_spec_shape_with_flag, ct_reset),
		cmocka_unit_test_setup(test_single_instance_object_or_null, ct_reset),
		cmocka_unit_test_setup(test_seeded_instances_cover_every_state, ct_reset),
		cmocka_unit_test_setup(test_same_seed_same_world, ct_reset),
		cmocka_unit_test_setup(test_user_current_with_and_without_slash, ct_reset),
		cmocka_unit_test_setup(test_auth_bodies_missing_bad_and_read_only_keys, ct_reset),
		cmocka_unit_test_setup(test_workergroups_and_autojobs, ct_reset),
		cmocka_unit_test_setup(test_label_set_and_too_long, ct_reset),
		cmocka_unit_test_setup(test_v1_list_text_follows_every_change, ct_reset),
		cmocka_unit_test_setup(test_destroy_single_then_404_and_invalid_id, ct_reset),
		cmocka_unit_test_setup(test_bulk_destroy_is_idempotent, ct_reset),
		cmocka_unit_test_setup(test_bulk_state_stops_listed_instances, ct_reset),
		cmocka_unit_test_setup(test_bid_change_and_errors, ct_reset),
		cmocka_unit_test_setup(test_instance_api_key_acts_on_its_own_instance_only, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_instances", tests, setup, ct_stop);
}
