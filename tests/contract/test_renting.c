/* test_renting.c: what the offers view and the create form rely on: the
 * "similar offers" search (eq, gte on string numbers, neq/notin on
 * machine_id, order before limit), bid and on-demand pricing of a search,
 * a create with every field the form sends stored on the new instance
 * (target_state stopped ends stopped), and the image errors: a malformed
 * name refused at once, a private image without credentials failing to
 * pull. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0",
					    "--offers", "400", NULL };
	return ct_start(args);
}

/* POST a search body; the offers array (owned by the returned root). */
static json_t *search(const char *body, json_t **root)
{
	*root = ct_expect("POST", "/api/v0/bundles/", body, 200);
	json_t *a = json_object_get(*root, "offers");
	assert_true(json_is_array(a));
	return a;
}

static void test_similar_search(void **state)
{
	(void)state;
	/* the most common GPU model among rentable offers, and one machine of it */
	json_t *root;
	json_t *all = search("{\"rentable\":{\"eq\":true},\"limit\":100000}", &root);
	const char *gpu = NULL;
	size_t best = 0, i, k;
	json_t *o, *p;
	json_array_foreach(all, i, o) {
		size_t n = 0;
		json_array_foreach(all, k, p) n += !strcmp(ct_str(p, "gpu_name"), ct_str(o, "gpu_name")) &&
						     ct_num(p, "num_gpus") == ct_num(o, "num_gpus");
		if (n > best) {
			best = n;
			gpu = ct_str(o, "gpu_name");
		}
	}
	assert_true(best >= 3);
	char gpu_name[64];
	snprintf(gpu_name, sizeof gpu_name, "%s", gpu);
	long machine = 0;
	double num_gpus = 0, gpu_ram = 0;
	json_array_foreach(all, i, o) if (!strcmp(ct_str(o, "gpu_name"), gpu_name))
	{
		machine = (long)ct_num(o, "machine_id");
		num_gpus = ct_num(o, "num_gpus");
		gpu_ram = ct_num(o, "gpu_ram");
		break;
	}
	json_decref(root);
	/* what offers_similar() sends: numbers as strings (the CLI's way), gpu_ram in MB */
	char body[1024];
	snprintf(body, sizeof body,
		 "{\"rentable\":{\"eq\":true},\"gpu_name\":{\"eq\":\"%s\"},\"num_gpus\":{\"eq\":\"%g\"},"
		 "\"gpu_ram\":{\"gte\":%.1f},\"reliability\":{\"gte\":\"0.5\"},"
		 "\"machine_id\":{\"neq\":\"%ld\"},\"order\":[[\"dph_total\",\"asc\"]],\"limit\":3,"
		 "\"type\":\"on-demand\",\"allocated_storage\":5.0}",
		 gpu_name, num_gpus, gpu_ram - 0.5, machine);
	json_t *got = search(body, &root);
	assert_true(json_array_size(got) >= 1 && json_array_size(got) <= 3);
	double prev = -1;
	json_array_foreach(got, i, o) {
		assert_string_equal(ct_str(o, "gpu_name"), gpu_name);
		assert_true(ct_num(o, "num_gpus") == num_gpus);
		assert_true(ct_num(o, "gpu_ram") >= gpu_ram - 0.5);
		assert_true(ct_num(o, "reliability") >= 0.5);
		assert_true((long)ct_num(o, "machine_id") != machine);
		assert_true(ct_num(o, "dph_total") >= prev);
		prev = ct_num(o, "dph_total");
	}
	/* the limit is the head of the whole ordering, not a sort of a sample */
	char *big = strdup(body);
	char *lim = strstr(big, "\"limit\":3");
	memcpy(lim, "\"limit\":9", 9);
	json_t *root2;
	json_t *more = search(big, &root2);
	for (i = 0; i < json_array_size(got); i++)
		assert_true(ct_num(json_array_get(got, i), "id") == ct_num(json_array_get(more, i), "id"));
	json_decref(root2);
	free(big);
	json_decref(root);
	/* notin with the machine excludes it just the same */
	snprintf(body, sizeof body,
		 "{\"gpu_name\":{\"eq\":\"%s\"},\"machine_id\":{\"notin\":[\"%ld\"]},\"limit\":1000}",
		 gpu_name, machine);
	got = search(body, &root);
	json_array_foreach(got, i, o) assert_true((long)ct_num(o, "machine_id") != machine);
	json_decref(root);
	/* and eq finds it (the exclusion is not vacuous) */
	snprintf(body, sizeof body, "{\"machine_id\":{\"eq\":\"%ld\"},\"limit\":1000}", machine);
	got = search(body, &root);
	assert_true(json_array_size(got) >= 1);
	json_decref(root);
}

static void test_bid_and_on_demand_pricing(void **state)
{
	(void)state;
	json_t *r1, *r2;
	json_t *od = search("{\"rentable\":{\"eq\":true},\"order\":[[\"id\",\"asc\"]],\"limit\":20,"
			    "\"type\":\"on-demand\",\"allocated_storage\":100}", &r1);
	json_t *bid = search("{\"rentable\":{\"eq\":true},\"order\":[[\"id\",\"asc\"]],\"limit\":20,"
			     "\"type\":\"bid\",\"allocated_storage\":100}", &r2);
	assert_int_equal(json_array_size(od), json_array_size(bid));
	for (size_t i = 0; i < json_array_size(od); i++) {
		json_t *a = json_array_get(od, i), *b = json_array_get(bid, i);
		double st = ct_num(a, "storage_cost") * 100 / 720.0;
		assert_float_equal(ct_num(a, "dph_total"), ct_num(a, "dph_base") + st, 1e-9);
		assert_float_equal(ct_num(b, "dph_total"), ct_num(b, "min_bid") + st, 1e-9);
		assert_true(json_is_true(json_object_get(b, "is_bid")));
		assert_true(ct_num(b, "min_bid") > 0 && ct_num(b, "min_bid") < ct_num(a, "dph_base"));
	}
	json_decref(r1);
	json_decref(r2);
}

static void test_create_every_field_stored(void **state)
{
	(void)state;
	/* an encoded onstart as rentop sends a long script (it fits the limit) */
	const char *onstart = "echo H4sIAAAAAAACA0tNzshXSM7PS0nNKylRSM7PS0nNAwBHFOU4FgAAAA== | base64 -d | gunzip | bash";
	char fields[1024];
	snprintf(fields, sizeof fields,
		 "{\"image\":\"ghcr.io/me/trainer:1.2\",\"disk\":33,\"label\":\"replacement of 42\","
		 "\"env\":{\"HF_HOME\":\"/workspace/hf\",\"MODE\":\"two words\",\"-p 8888:8888\":\"1\"},"
		 "\"runtype\":\"ssh_direc ssh_proxy\",\"price\":0.25,\"onstart\":\"%s\","
		 "\"target_state\":\"stopped\",\"image_login\":\"-u bob -p S3cr3tTok ghcr.io\"}",
		 onstart);
	long id = ct_create(fields, NULL, 0);
	json_t *in = ct_inst(id);
	assert_string_equal(ct_str(in, "image_uuid"), "ghcr.io/me/trainer:1.2");
	assert_float_equal(ct_num(in, "disk_space"), 33, 1e-9);
	assert_string_equal(ct_str(in, "label"), "replacement of 42");
	assert_string_equal(ct_str(in, "image_runtype"), "ssh_direc ssh_proxy");
	assert_string_equal(ct_str(in, "onstart"), onstart);
	assert_string_equal(ct_str(in, "intended_status"), "stopped");
	assert_true(json_is_true(json_object_get(in, "is_bid")));
	assert_float_equal(ct_num(in, "dph_base"), 0.25, 1e-9);
	/* env: the variables as [name, value] pairs; the port is a mapping, not a variable */
	json_t *ee = json_object_get(in, "extra_env");
	int seen = 0;
	size_t i;
	json_t *pair;
	json_array_foreach(ee, i, pair) {
		const char *k = json_string_value(json_array_get(pair, 0));
		const char *v = json_string_value(json_array_get(pair, 1));
		if (!strcmp(k, "HF_HOME"))
			seen += !strcmp(v, "/workspace/hf");
		else if (!strcmp(k, "MODE"))
			seen += !strcmp(v, "two words");
		else if (!strncmp(k, "-p", 2))
			fail_msg("a port mapping in extra_env");
	}
	assert_int_equal(seen, 2);
	json_decref(in);
	/* registry credentials are never shown back by the API */
	char path[80];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/?owner=me", id);
	struct http_result r = ct_req("GET", path, NULL);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.body, "replacement of 42"));
	assert_null(strstr(r.body, "S3cr3tTok"));
	http_result_free(&r);
	/* started stopped: it boots to exited + intended stopped, never running */
	ct_advance(120);
	in = ct_inst(id);
	assert_string_equal(ct_str(in, "actual_status"), "exited");
	assert_string_equal(ct_str(in, "intended_status"), "stopped");
	json_decref(in);
	/* args mode keeps args_str */
	id = ct_create("{\"image\":\"me/img\",\"runtype\":\"args\",\"args_str\":\"-c 'sleep infinity'\"}", NULL, 0);
	in = ct_inst(id);
	assert_string_equal(ct_str(in, "image_runtype"), "args");
	assert_string_equal(ct_str(in, "args_str"), "-c 'sleep infinity'");
	json_decref(in);
}

static void test_image_errors(void **state)
{
	(void)state;
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
	static const char *const bad[] = { "Pytorch/Pytorch", "a b", "a//b", "/a", "a/", "a:", "a:bad/tag",
					   "a@md5:00", "img:" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char body[128];
		snprintf(body, sizeof body, "{\"image\":\"%s\"}", bad[i]);
		ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "invalid_args", "invalid image name");
	}
	/* the offer is still there after the refusals; good names pass */
	static const char *const good[] = { "ubuntu", "nvidia/cuda:12.4.1-devel-ubuntu22.04",
					    "localhost:5000/team/app:v2", "ghcr.io/Org/app:Tag_1",
					    "img@sha256:0123" };
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		char body[160];
		snprintf(body, sizeof body, "{\"image\":\"%s\"}", good[i]);
		snprintf(path, sizeof path, "/api/v0/asks/%ld/", ct_offer());
		if (i == 3) /* the registry host may have capitals; the path may not */
			snprintf(body, sizeof body, "{\"image\":\"%s\"}", "ghcr.io/org/app:Tag_1");
		json_decref(ct_expect("PUT", path, body, 200));
	}
	/* a private image without credentials is accepted, then fails to pull */
	long id = ct_create("{\"image\":\"private/trainer:2\"}", NULL, 0);
	ct_advance(120);
	json_t *in = ct_inst(id);
	assert_string_equal(ct_str(in, "actual_status"), "created");
	assert_string_equal(ct_str(in, "intended_status"), "running");
	assert_non_null(strstr(ct_str(in, "status_msg"), "pull access denied for private/trainer:2"));
	json_decref(in);
	/* with credentials it runs */
	id = ct_create("{\"image\":\"private/trainer:2\",\"image_login\":\"-u u -p p docker.io\"}", NULL, 0);
	ct_advance(120);
	in = ct_inst(id);
	assert_string_equal(ct_str(in, "actual_status"), "running");
	json_decref(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_similar_search, ct_reset),
		cmocka_unit_test_setup(test_bid_and_on_demand_pricing, ct_reset),
		cmocka_unit_test_setup(test_create_every_field_stored, ct_reset),
		cmocka_unit_test_setup(test_image_errors, ct_reset),
	};
	return cmocka_run_group_tests(tests, setup, ct_stop);
}
