/* test_json_map.c: json_map against fixtures of every shape the service
 * sends: the v1 page, the spec's v0 list, the one-instance form (object and
 * null), a bare array, a provisioning instance full of nulls, a hostile
 * instance (wrong types, numbers as strings, escape sequences, secrets,
 * unknown fields), the user, workergroups, endpoints, offers, templates,
 * 2FA status, env vars, API keys and machine reports (secrets never copied). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"
#include "state/model.h"
#include "state/money.h"
#include "base/util.h"

/* Load tests/unit/fixtures/<name> from $SRCDIR, else relative to the cwd. */
static json_t *fixture(const char *name)
{
	const char *src = getenv("SRCDIR");
	char path[1024];
	json_error_t err;
	json_t *j = NULL;
	if (src && *src) {
		snprintf(path, sizeof path, "%s/tests/unit/fixtures/%s", src, name);
		j = json_load_file(path, JSON_DECODE_ANY, &err);
	}
	if (!j) {
		snprintf(path, sizeof path, "tests/unit/fixtures/%s", name);
		j = json_load_file(path, JSON_DECODE_ANY, &err);
	}
	if (!j)
		fail_msg("fixture %s: %s (line %d)", name, err.text, err.line);
	return j;
}

/* Any byte of s that is a control character or ESC? */
static bool has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
			return true;
	return false;
}

static const char *field_value(const struct kv *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

static void test_v1_page(void **state)
{
	(void)state;
	json_t *j = fixture("instances_v1_page.json");
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = NULL;
	assert_true(json_map_instances(j, &v, &n, &tok));
	assert_int_equal(n, 3);
	assert_string_equal(tok, "eyJpZCI6IDEwMDAzfQ==");

	const struct instance *a = &v[0];
	assert_int_equal(a->id, 10001);
	assert_string_equal(a->label, "train");
	assert_int_equal(a->state, IS_RUNNING);
	assert_int_equal(a->machine_id, 4242);
	assert_int_equal(a->host_id, 77);
	assert_int_equal(a->num_gpus, 2);
	assert_string_equal(a->gpu_name, "RTX 4090");
	assert_float_equal(a->gpu_ram, 24564, 1e-9);
	assert_float_equal(a->gpu_totalram, 49128, 1e-9);
	assert_float_equal(a->gpu_util, 87.5, 1e-9);
	assert_float_equal(a->gpu_temp, 71, 1e-9);
	assert_float_equal(a->cpu_cores, 16, 1e-9);
	assert_float_equal(a->disk_usage, 12.5, 1e-9);
	assert_float_equal(a->disk_util, 0.125, 1e-9);
	assert_float_equal(a->cpu_util, 41.5, 1e-9);
	assert_float_equal(a->mem_usage, 12.25, 1e-9);
	assert_float_equal(a->mem_limit, 64, 1e-9);
	assert_float_equal(a->dph_total, 0.7138888, 1e-9);
	assert_float_equal(a->storage_total_cost, 0.0138888, 1e-9);
	assert_false(a->is_bid);
	assert_true(isnan(a->bid_price));
	assert_float_equal(a->min_bid, 0.35, 1e-9);
	assert_string_equal(a->image, "pytorch/pytorch:latest");
	assert_string_equal(a->ssh_host, "ssh4.vast.ai");
	assert_int_equal(a->ssh_port, 30001); /* not a jupyter runtype: as sent */
	assert_string_equal(a->public_ip, "203.0.113.7");
	assert_int_equal(a->direct_ssh_port, 41022); /* HostPort as a string */
	assert_int_equal(a->nports, 3);
	bool saw8080 = false;
	for (size_t i = 0; i < a->nports; i++)
		if (a->ports[i].container_port == 8080) {
			saw8080 = true;
			assert_int_equal(a->ports[i].host_port, 41080); /* HostPort as a number */
			assert_string_equal(a->ports[i].proto, "tcp");
		}
	assert_true(saw8080);
	assert_float_equal(a->start_date, 1763700000.25, 1e-6);
	assert_float_equal(a->reliability, 0.9921, 1e-9);
	assert_string_equal(a->geolocation, "Texas, US");
	assert_int_equal(a->template_id, 55);
	assert_string_equal(a->template_name, "PyTorch");
	assert_true(isnan(a->credit_balance)); /* null */
	/* fields: sorted, every key, secrets masked, public hashes kept */
	assert_true(a->nfields > 40);
	for (size_t i = 1; i < a->nfields; i++)
		assert_true(strcmp(a->fields[i - 1].key, a->fields[i].key) < 0);
	assert_string_equal(field_value(a->fields, a->nfields, "jupyter_token"), "********");
	assert_string_equal(field_value(a->fields, a->nfields, "label"), "\"train\"");
	/* env values are masked in the field list; the env list keeps them */
	assert_string_equal(field_value(a->fields, a->nfields, "extra_env"), "[[\"JUPYTER_DIR\",\"********\"]]");
	assert_int_equal(a->nenv, 1);
	assert_string_equal(a->env[0].key, "JUPYTER_DIR");
	assert_string_equal(a->env[0].value, "/");
	assert_string_equal(field_value(a->fields, a->nfields, "template_hash_id"),
			    "\"a1b2c3d4e5f60718293a4b5c6d7e8f90\"");
	assert_string_equal(field_value(a->fields, a->nfields, "volume_info"), "null");

	const struct instance *b = &v[1];
	assert_string_equal(b->label, ""); /* null label */
	assert_true(b->is_bid);
	assert_float_equal(b->bid_price, 0.6, 1e-9);
	assert_int_equal(b->ssh_port, 20011); /* jupyter runtype: proxy port + 1 */
	assert_int_equal(b->direct_ssh_port, 33022);
	assert_float_equal(b->credit_balance, 12.5, 1e-9);
	assert_float_equal(b->ondemand, 0.9, 1e-9); /* search.gpuCostPerHour: the listing's price */
	assert_true(isnan(a->ondemand));            /* not sent */
	assert_true(isnan(b->gpu_util)); /* not sent */
	assert_true(isnan(b->start_date) == false);

	const struct instance *c = &v[2];
	assert_int_equal(c->state, IS_STOPPED); /* exited + intended stopped */
	assert_true(c->is_bid);
	assert_float_equal(c->bid_price, 1.1, 1e-9); /* no bid field, no dph_base: the min bid */
	assert_int_equal(c->direct_ssh_port, 0);
	assert_int_equal(c->nports, 0);
	assert_string_equal(c->public_ip, "");

	instance_free_all(v, n);
	free(tok);
	json_decref(j);
}

static void test_v0_list_appends(void **state)
{
	(void)state;
	json_t *j = fixture("instances_v0.json");
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = (char *)1;
	assert_true(json_map_instances(j, &v, &n, &tok));
	assert_null(tok);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].state, IS_LOADING);
	assert_int_equal(v[1].state, IS_UNKNOWN);
	assert_true(instance_state_failed(v[1].state));
	/* a second page appends */
	assert_true(json_map_instances(j, &v, &n, NULL));
	assert_int_equal(n, 4);
	assert_int_equal(v[3].id, 2);
	assert_string_equal(v[3].ssh_host, "ssh2.example");
	assert_int_equal(v[3].ssh_port, 2202);
	instance_free_all(v, n);
	json_decref(j);
}

static void test_one_instance_forms(void **state)
{
	(void)state;
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = NULL;
	json_t *null_form = json_loads("{\"instances\": null}", 0, NULL);
	assert_true(json_map_instances(null_form, &v, &n, &tok));
	assert_int_equal(n, 0);
	assert_null(tok);
	json_decref(null_form);

	json_t *bare = json_loads("[{\"id\": 5}, 17, {\"id\": \"x\"}, {\"label\": \"no id\"}, {\"id\": 6}]",
				  0, NULL);
	assert_true(json_map_instances(bare, &v, &n, &tok));
	assert_int_equal(n, 2);
	assert_int_equal(v[0].id, 5);
	assert_int_equal(v[1].id, 6);
	assert_int_equal(v[0].state, IS_PROVISIONING);
	json_decref(bare);

	json_t *wrong = json_loads("{\"instances\": 7}", 0, NULL);
	assert_false(json_map_instances(wrong, &v, &n, &tok));
	json_decref(wrong);
	wrong = json_loads("{\"success\": true}", 0, NULL);
	assert_false(json_map_instances(wrong, &v, &n, &tok));
	json_decref(wrong);
	wrong = json_loads("\"text\"", JSON_DECODE_ANY, NULL);
	assert_false(json_map_instances(wrong, &v, &n, &tok));
	json_decref(wrong);
	assert_int_equal(n, 2);
	instance_free_all(v, n);

	struct instance x;
	assert_false(json_map_instance(NULL, &x));
	json_t *arr = json_array();
	assert_false(json_map_instance(arr, &x));
	json_decref(arr);
}

static void test_provisioning_nulls(void **state)
{
	(void)state;
	json_t *j = fixture("instance_provisioning.json");
	struct instance *v = NULL;
	size_t n = 0;
	assert_true(json_map_instances(j, &v, &n, NULL));
	assert_int_equal(n, 1);
	const struct instance *x = &v[0];
	assert_int_equal(x->id, 20001);
	assert_int_equal(x->state, IS_PROVISIONING);
	assert_string_equal(x->actual_status, "");
	assert_string_equal(x->status_msg, "");
	assert_string_equal(x->label, "");
	assert_string_equal(x->geolocation, "");
	assert_string_equal(x->template_hash_id, "");
	assert_string_equal(x->public_ip, "");
	assert_true(isnan(x->gpu_util));
	assert_true(isnan(x->gpu_temp));
	assert_true(isnan(x->cpu_util)); /* a field not sent is unknown, never 0 */
	assert_true(isnan(x->mem_usage));
	assert_true(isnan(x->mem_limit));
	assert_true(isnan(x->disk_util));
	assert_true(isnan(x->uptime_mins));
	assert_true(isnan(x->inet_up));
	assert_true(isnan(x->end_date));
	assert_true(isnan(x->min_bid));
	assert_true(isnan(x->bid_price));
	assert_float_equal(x->disk_usage, -1, 1e-9);
	assert_int_equal(x->template_id, 0);
	assert_int_equal(x->nports, 0);
	assert_int_equal(x->direct_ssh_port, 0);
	assert_int_equal(x->ssh_port, 16001);
	assert_string_equal(x->ssh_host, "ssh2.vast.ai");
	assert_float_equal(x->dph_total, 0.2044, 1e-9);
	/* burn rate counts provisioning as storage only */
	assert_float_equal(money_burn_rate(&x, 1), 0.0044, 1e-9);
	instance_free_all(v, n);
	json_decref(j);
}

static void test_hostile_instance(void **state)
{
	(void)state;
	json_t *j = fixture("instance_hostile.json");
	struct instance x;
	assert_true(json_map_instance(j, &x));
	assert_int_equal(x.id, 30001); /* id as a string */
	/* escape sequences and bidi overrides gone, text kept */
	assert_false(has_control(x.label));
	assert_null(strstr(x.label, "\xE2\x80\xAE"));
	assert_non_null(strstr(x.label, "red"));
	assert_non_null(strstr(x.label, "title"));
	assert_null(strstr(x.label, "pwned"));
	assert_null(strstr(x.label, "[31m"));
	assert_non_null(strstr(x.label, "tab"));
	/* wrong types read as missing */
	assert_string_equal(x.actual_status, "");
	assert_string_equal(x.intended_status, "");
	assert_string_equal(x.gpu_name, "");
	assert_int_equal(x.state, IS_PROVISIONING);
	assert_true(isnan(x.gpu_util));  /* "87.5%" is not a number */
	assert_true(isnan(x.gpu_temp));  /* a boolean */
	assert_true(isnan(x.disk_space));
	assert_int_equal(x.machine_id, 0); /* 1.5 is not an id */
	/* numbers as strings */
	assert_int_equal(x.num_gpus, 2);
	assert_float_equal(x.gpu_ram, 24564, 1e-9);
	assert_float_equal(x.dph_total, 0.5, 1e-9);
	assert_float_equal(x.dph_base, 0.45, 1e-9);
	assert_int_equal(x.host_id, 77);
	assert_int_equal(x.ssh_port, 41022);
	assert_float_equal(x.start_date, 1763700000, 1e-9);
	assert_true(x.is_bid); /* "true" */
	assert_float_equal(x.bid_price, 0.45, 1e-9); /* no bid field: dph_base */
	/* ports: bad HostPort and bad keys skipped, udp kept */
	assert_int_equal(x.direct_ssh_port, 41023);
	assert_int_equal(x.nports, 2);
	bool udp = false;
	for (size_t i = 0; i < x.nports; i++)
		if (x.ports[i].container_port == 53) {
			udp = true;
			assert_string_equal(x.ports[i].proto, "udp");
			assert_int_equal(x.ports[i].host_port, 5353);
		}
	assert_true(udp);
	/* secrets masked, nothing of them anywhere in the fields */
	assert_string_equal(field_value(x.fields, x.nfields, "api_key"), "********");
	assert_string_equal(field_value(x.fields, x.nfields, "instance_api_key"), "********");
	assert_string_equal(field_value(x.fields, x.nfields, "docker_login_pass"), "********");
	assert_string_equal(field_value(x.fields, x.nfields, "image_login"), "********");
	assert_string_equal(field_value(x.fields, x.nfields, "my_custom_token"), "********");
	assert_string_equal(field_value(x.fields, x.nfields, "empty_secret"), "\"\"");
	for (size_t i = 0; i < x.nfields; i++) {
		assert_null(strstr(x.fields[i].value, "0123456789abcdef"));
		assert_null(strstr(x.fields[i].value, "hunter2"));
		assert_null(strstr(x.fields[i].value, "feedface"));
		assert_false(has_control(x.fields[i].value));
	}
	/* public key and template hash are not secrets */
	assert_non_null(strstr(field_value(x.fields, x.nfields, "ssh_key"), "ssh-ed25519"));
	assert_non_null(strstr(field_value(x.fields, x.nfields, "template_hash_id"), "0f0f"));
	/* unknown fields kept as JSON; long values truncated on a UTF-8 boundary */
	assert_string_equal(field_value(x.fields, x.nfields, "unknown_field"), "{\"nested\":[1,2,3]}");
	const char *big = field_value(x.fields, x.nfields, "big_onstart");
	assert_true(strlen(big) <= 512);
	assert_true(strlen(big) > 400);
	assert_non_null(strstr(big, "\xE2\x80\xA6"));
	instance_clear(&x);
	json_decref(j);
}

static void test_secret_keys(void **state)
{
	(void)state;
	const char *secret[] = { "api_key", "instance_api_key", "jupyter_token", "session_key",
				 "key", "docker_login_pass", "image_login", "foo_token", "aws_key",
				 "db_password", "client_secret", "API_KEY", "Jupyter_Token" };
	const char *open[] = { "ssh_key", "template_hash_id", "label", "id", "keyboard",
			       "token_count_x", "gpu_name", "public_key", "next_token" };
	for (size_t i = 0; i < sizeof secret / sizeof *secret; i++)
		assert_true(json_map_is_secret_key(secret[i]));
	for (size_t i = 0; i < sizeof open / sizeof *open; i++)
		assert_false(json_map_is_secret_key(open[i]));
	assert_false(json_map_is_secret_key(NULL));
}

static void test_v1_token_shapes(void **state)
{
	(void)state;
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = NULL;
	json_t *j = json_loads("{\"instances\": [], \"next_token\": null}", 0, NULL);
	assert_true(json_map_instances(j, &v, &n, &tok));
	assert_null(tok);
	json_decref(j);
	j = json_loads("{\"instances\": [], \"next_token\": 25}", 0, NULL);
	assert_true(json_map_instances(j, &v, &n, &tok));
	assert_string_equal(tok, "25");
	free(tok);
	json_decref(j);
	j = json_loads("{\"instances\": [], \"next_token\": \"\"}", 0, NULL);
	assert_true(json_map_instances(j, &v, &n, &tok));
	assert_null(tok);
	json_decref(j);
	assert_int_equal(n, 0);
	free(v);
}

static void test_user(void **state)
{
	(void)state;
	json_t *j = fixture("user.json");
	struct user u;
	assert_true(json_map_user(j, &u));
	assert_int_equal(u.id, 501);
	assert_string_equal(u.email, "ops@example.com");
	assert_false(has_control(u.fullname));
	assert_non_null(strstr(u.fullname, "Team"));
	assert_float_equal(u.credit, 123.45, 1e-9);
	assert_float_equal(u.balance, -2.5, 1e-9);
	assert_true(u.can_pay);
	assert_string_equal(u.tfa_status, "enabled");
	assert_string_equal(u.ssh_key, "ssh-ed25519 AAAAC3Nz ops@bastion");
	assert_string_equal(field_value(u.fields, u.nfields, "api_key"), "********");
	for (size_t i = 0; i < u.nfields; i++)
		assert_null(strstr(u.fields[i].value, "abcdef0123456789"));
	/* model_user_free() frees a heap user; free the parts of this stack one */
	free(u.email); free(u.username); free(u.fullname); free(u.tfa_status); free(u.ssh_key);
	instance_kv_free(u.fields, u.nfields);
	json_decref(j);

	json_t *bad = json_loads("{\"email\": \"x\"}", 0, NULL);
	assert_false(json_map_user(bad, &u));
	json_decref(bad);
	json_t *wrapped = json_loads("{\"user\": {\"id\": 3}}", 0, NULL);
	struct user *h = calloc(1, sizeof *h);
	assert_true(json_map_user(wrapped, h));
	assert_int_equal(h->id, 3);
	assert_true(isnan(h->credit));
	assert_true(isnan(h->balance));
	assert_string_equal(h->email, "");
	model_user_free(h);
	json_decref(wrapped);
}

static void test_workergroups_endpoints(void **state)
{
	(void)state;
	json_t *j = fixture("workergroups.json");
	struct workergroup *w = NULL;
	size_t n = 0;
	assert_true(json_map_workergroups(j, &w, &n));
	assert_int_equal(n, 2);
	assert_int_equal(w[0].id, 7);
	assert_string_equal(w[0].endpoint_name, "llm");
	assert_string_equal(w[0].search_query, "gpu_ram>=23 num_gpus=1");
	assert_int_equal(w[0].test_workers, 3);
	assert_float_equal(w[0].target_util, 0.9, 1e-9);
	assert_int_equal(w[0].endpoint_id, 3);
	assert_int_equal(w[1].id, 8);
	assert_float_equal(w[1].min_load, 5, 1e-9);
	assert_string_equal(w[1].endpoint_name, "");
	assert_true(isnan(w[1].cold_mult));
	model_workergroups_free(w, n);
	json_decref(j);

	j = fixture("endpoints.json");
	struct endpoint *e = NULL;
	n = 0;
	assert_true(json_map_endpoints(j, &e, &n));
	assert_int_equal(n, 2);
	assert_string_equal(e[0].endpoint_state, "active");
	assert_int_equal(e[0].max_workers, 16);
	assert_string_equal(e[0].created_at, "1763000000"); /* epoch number as text */
	assert_string_equal(e[1].created_at, "2026-02-01T00:00:00Z");
	model_endpoints_free(e, n);
	json_decref(j);

	json_t *arr = json_loads("[{\"id\": 1}]", 0, NULL);
	w = NULL;
	n = 0;
	assert_true(json_map_workergroups(arr, &w, &n));
	assert_int_equal(n, 1);
	model_workergroups_free(w, n);
	json_decref(arr);
	/* the docs type search_query as the parsed filters object: shown in the
	 * query language (GB and version forms back), never blank; one with no
	 * such form as its JSON; an empty one falls to search_params */
	arr = json_loads("{\"success\":true,\"results\":["
			 "{\"id\":1,\"search_query\":{\"verified\":{\"eq\":true},\"gpu_ram\":{\"gte\":24000.0},"
			 "\"gpu_name\":{\"in\":[\"RTX 4090\",\"H100 SXM\"]},\"num_gpus\":{\"eq\":\"1\"},"
			 "\"driver_version\":{\"gte\":535086005},\"geolocation\":{\"neq\":null}},"
			 "\"search_params\":\"ignored\"},"
			 "{\"id\":2,\"search_query\":{\"gpu_name\":{\"eq\":\"RTX 4090\"},\"x\":{\"like\":\"\\u001b[31ma\"}}},"
			 "{\"id\":3,\"search_query\":{},\"search_params\":\"gpu_ram>=23\"},"
			 "{\"id\":4,\"search_query\":\"num_gpus=2\"}]}",
			 0, NULL);
	assert_non_null(arr);
	w = NULL;
	n = 0;
	assert_true(json_map_workergroups(arr, &w, &n));
	assert_int_equal(n, 4);
	assert_string_equal(w[0].search_query, "verified=true gpu_ram>=24 gpu_name in [RTX_4090,H100_SXM] "
					       "num_gpus=1 driver_version>=535.86.5 geolocation!=null");
	assert_string_equal(w[1].search_query, "{\"gpu_name\":{\"eq\":\"RTX 4090\"},\"x\":{\"like\":\"a\"}}");
	assert_false(has_control(w[1].search_query));
	assert_string_equal(w[2].search_query, "gpu_ram>=23");
	assert_string_equal(w[3].search_query, "num_gpus=2");
	model_workergroups_free(w, n);
	json_decref(arr);
	json_t *wrong = json_loads("{\"results\": {}}", 0, NULL);
	w = NULL;
	n = 0;
	assert_false(json_map_workergroups(wrong, &w, &n));
	assert_false(json_map_endpoints(wrong, &e, &n));
	json_decref(wrong);
}

static void test_offers_templates(void **state)
{
	(void)state;
	json_t *j = fixture("offers.json");
	struct offer *o = NULL;
	size_t n = 0;
	assert_true(json_map_offers(j, &o, &n));
	assert_int_equal(n, 2);
	assert_int_equal(o[0].id, 900001);
	assert_true(o[0].verified);
	assert_float_equal(o[0].dlperf_per_dphtotal, 195.4, 1e-9);
	assert_float_equal(o[0].duration, 864000, 1e-9);
	assert_int_equal(o[1].id, 900002); /* ask_contract_id as a string */
	assert_int_equal(o[1].num_gpus, 8);
	assert_float_equal(o[1].dph_total, 19.9, 1e-9);
	assert_true(o[1].verified); /* from verification */
	assert_true(o[1].rentable); /* 1 */
	assert_true(isnan(o[1].reliability));
	json_map_offers_free(o, n);
	json_decref(j);

	j = fixture("templates.json");
	struct template_rec *t = NULL;
	n = 0;
	assert_true(json_map_templates(j, &t, &n));
	assert_int_equal(n, 2);
	assert_string_equal(t[0].hash_id, "a1b2c3");
	assert_int_equal(t[0].count_created, 1234);
	assert_float_equal(t[0].recommended_disk_space, 32, 1e-9);
	assert_false(t[0].private_);
	assert_int_equal(t[1].id, 0);
	assert_true(t[1].private_);
	json_map_templates_free(t, n);
	json_decref(j);

	json_t *one = json_loads("{\"template\": {\"id\": 9, \"hash_id\": \"h\"}}", 0, NULL);
	t = NULL;
	n = 0;
	assert_true(json_map_templates(one, &t, &n));
	assert_int_equal(n, 1);
	assert_int_equal(t[0].id, 9);
	json_map_templates_free(t, n);
	json_decref(one);
}

/* A secret's name with a control character in it is judged as drawn
 * ("im\x7fage_login" shows as image_login: masked), and an instance's env
 * list is freed whole (ASan's leak check runs this under make check). */
static void test_hidden_secret_names_and_env(void **state)
{
	(void)state;
	json_t *o = json_pack("{s:i,s:s,s:s,s:[[s,s],[s,s]]}", "id", 7, "im\x7f" "age_login",
			      "-u me -p tok registry.example", "my\x01_token", "tok-123",
			      "extra_env", "HF_TOKEN", "hf_abc", "PLAIN", "1");
	assert_non_null(o);
	struct instance x;
	assert_true(json_map_instance(o, &x));
	size_t seen = 0;
	for (size_t i = 0; i < x.nfields; i++) {
		if (!strcmp(x.fields[i].key, "image_login") || !strcmp(x.fields[i].key, "my_token")) {
			assert_non_null(strstr(x.fields[i].value, "****"));
			assert_null(strstr(x.fields[i].value, "tok"));
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(x.nenv, 2);
	instance_clear(&x);
	json_decref(o);
}

static void test_fields_empty(void **state)
{
	(void)state;
	size_t n = 99;
	assert_null(json_map_fields(NULL, &n));
	assert_int_equal(n, 0);
	json_t *o = json_object();
	assert_null(json_map_fields(o, &n));
	json_object_set_new(o, "b", json_integer(2));
	json_object_set_new(o, "a", json_string("x\x1b[2Jy"));
	struct kv *f = json_map_fields(o, &n);
	assert_int_equal(n, 2);
	assert_string_equal(f[0].key, "a");
	assert_false(has_control(f[0].value));
	assert_string_equal(f[1].value, "2");
	instance_kv_free(f, n);
	json_decref(o);
}

static void test_tfa_status(void **state)
{
	(void)state;
	json_t *j = fixture("tfa_status.json");
	struct tfa_status_rec s;
	assert_true(json_map_tfa_status(j, &s));
	assert_true(s.tfa_enabled);
	assert_false(s.new_method_authorized); /* "false" */
	assert_int_equal(s.backup_codes_remaining, 7); /* "7" */
	assert_int_equal(s.nmethods, 3); /* the id-less, number and null entries skipped */

	const struct tfa_method_rec *a = &s.methods[0];
	assert_int_equal(a->id, 41);
	assert_int_equal(a->user_id, 501);
	assert_string_equal(a->method, "sms");
	assert_string_equal(a->phone_number, "+1******4321"); /* masked, kept as sent */
	assert_false(has_control(a->label));
	assert_non_null(strstr(a->label, "work"));
	assert_non_null(strstr(a->label, "phone"));
	assert_null(strstr(a->label, "[31m"));
	assert_null(strstr(a->label, "pwned"));
	assert_true(a->is_primary);
	assert_int_equal(a->fail_count, 2);
	assert_true(isnan(a->locked_until)); /* null: not locked */
	assert_float_equal(a->created_at, 1763000000.5, 1e-6);
	assert_float_equal(a->last_used, 1763100000, 1e-9);

	const struct tfa_method_rec *b = &s.methods[1];
	assert_int_equal(b->id, 42); /* strings for numbers */
	assert_int_equal(b->user_id, 501);
	assert_string_equal(b->method, "totp");
	assert_string_equal(b->label, "");
	assert_string_equal(b->phone_number, "");
	assert_false(b->is_primary);
	assert_int_equal(b->fail_count, 5);
	assert_float_equal(b->locked_until, 1763200900, 1e-9);
	assert_float_equal(b->created_at, 1763000100, 1e-9);
	assert_true(isnan(b->last_used));

	const struct tfa_method_rec *c = &s.methods[2]; /* wrong types read as missing */
	assert_int_equal(c->id, 43);
	assert_int_equal(c->user_id, 0);
	assert_string_equal(c->method, "");
	assert_string_equal(c->label, "");
	assert_string_equal(c->phone_number, ""); /* a number is not a masked phone */
	assert_false(c->is_primary);
	assert_int_equal(c->fail_count, 0);
	assert_true(isnan(c->locked_until));
	assert_true(isnan(c->created_at));
	assert_true(isnan(c->last_used));

	/* the methods' secrets are never copied */
	for (size_t i = 0; i < s.nmethods; i++) {
		const char *f[] = { s.methods[i].method, s.methods[i].label, s.methods[i].phone_number };
		for (size_t k = 0; k < 3; k++) {
			assert_non_null(f[k]);
			assert_null(strstr(f[k], "SMSSECRET"));
			assert_null(strstr(f[k], "JBSWY3DP"));
		}
	}
	json_map_tfa_status_free(&s);
	assert_null(s.methods);
	assert_int_equal(s.nmethods, 0);
	json_decref(j);

	/* shapes */
	json_t *x = json_loads("{\"tfa_enabled\": false}", 0, NULL);
	assert_true(json_map_tfa_status(x, &s));
	assert_false(s.tfa_enabled);
	assert_int_equal(s.nmethods, 0);
	assert_null(s.methods);
	json_map_tfa_status_free(&s);
	json_decref(x);
	x = json_loads("{\"tfa_enabled\": 1, \"methods\": null, \"backup_codes_remaining\": null}", 0, NULL);
	assert_true(json_map_tfa_status(x, &s));
	assert_true(s.tfa_enabled);
	assert_int_equal(s.backup_codes_remaining, 0);
	json_map_tfa_status_free(&s);
	json_decref(x);
	x = json_loads("{\"methods\": []}", 0, NULL);
	assert_true(json_map_tfa_status(x, &s));
	assert_false(s.tfa_enabled);
	json_map_tfa_status_free(&s);
	json_decref(x);
	const char *bad[] = { "{\"tfa_enabled\": true, \"methods\": {\"id\": 1}}",
			      "{\"tfa_enabled\": true, \"methods\": \"sms\"}",
			      "{\"error\": \"tfa_locked\", \"fail_count\": 5}",
			      "[{\"id\": 1}]", "\"text\"", "null" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		x = json_loads(bad[i], JSON_DECODE_ANY, NULL);
		assert_non_null(x);
		s.nmethods = 99;
		assert_false(json_map_tfa_status(x, &s));
		assert_int_equal(s.nmethods, 0); /* zeroed, nothing to free */
		assert_null(s.methods);
		json_decref(x);
	}
	assert_false(json_map_tfa_status(NULL, &s));
	json_map_tfa_status_free(NULL);
}

/* Is this env var value a run of one or more '*'? */
static bool all_stars(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s != '*')
			return false;
	return true;
}

static void test_env_vars(void **state)
{
	(void)state;
	json_t *j = fixture("secrets.json");
	struct env_var *v = NULL;
	size_t n = 0;
	assert_true(json_map_env_vars(j, &v, &n));
	const char *keys[] = { "ALPHA", "EMPTY", "ESCNAME", "LEAKY", "NUL", "NUM", "OBJ",
			       "STARS_THEN_TEXT", "ZETA" };
	assert_int_equal(n, sizeof keys / sizeof *keys); /* the empty name skipped */
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(v[i].key, keys[i]); /* sorted, escape sequence cleaned */
		assert_false(has_control(v[i].key));
		assert_true(all_stars(v[i].value));
		assert_null(strstr(v[i].key, "hunter"));
		assert_null(strstr(v[i].value, "hunter"));
	}
	assert_string_equal(v[0].value, "*****");    /* already masked: as sent */
	assert_string_equal(v[1].value, "********"); /* "" */
	assert_string_equal(v[3].value, "********"); /* plain text masked */
	assert_string_equal(v[4].value, "********"); /* null */
	assert_string_equal(v[5].value, "********"); /* a number */
	assert_string_equal(v[6].value, "********"); /* an object */
	assert_string_equal(v[7].value, "********"); /* "**x**" is not a run of '*' */
	json_decref(j);

	/* a list of {"key","value"} appends, and the whole list stays sorted */
	j = json_loads("[{\"key\": \"BETA\", \"value\": \"secret-b\"}, {\"key\": \"AAA\", \"value\": \"***\"},"
		       " {\"value\": \"orphan-secret\"}, 7, {\"key\": 5, \"value\": \"x\"}, null]", 0, NULL);
	assert_true(json_map_env_vars(j, &v, &n));
	assert_int_equal(n, 11);
	assert_string_equal(v[0].key, "AAA");
	assert_string_equal(v[0].value, "***");
	assert_string_equal(v[1].key, "ALPHA");
	assert_string_equal(v[2].key, "BETA");
	assert_string_equal(v[2].value, "********");
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(v[i - 1].key, v[i].key) <= 0);
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(v[i].value, "secret"));
		assert_null(strstr(v[i].key, "orphan"));
	}
	json_map_env_vars_free(v, n);
	json_decref(j);

	/* a bare object; the list under "secrets" */
	v = NULL;
	n = 0;
	j = json_loads("{\"X\": \"*****\", \"W\": \"open-value\"}", 0, NULL);
	assert_true(json_map_env_vars(j, &v, &n));
	assert_int_equal(n, 2);
	assert_string_equal(v[0].key, "W");
	assert_string_equal(v[0].value, "********");
	assert_string_equal(v[1].value, "*****");
	json_decref(j);
	j = json_loads("{\"success\": true, \"secrets\": [{\"key\": \"K\", \"value\": \"v\"}]}", 0, NULL);
	assert_true(json_map_env_vars(j, &v, &n));
	assert_int_equal(n, 3);
	assert_string_equal(v[0].key, "K"); /* sorted in among W and X */
	assert_string_equal(v[0].value, "********");
	assert_string_equal(v[2].key, "X");
	json_decref(j);
	j = json_loads("{\"success\": true, \"secrets\": {}}", 0, NULL);
	assert_true(json_map_env_vars(j, &v, &n));
	assert_int_equal(n, 3);
	json_decref(j);

	/* wrong shapes: nothing appended */
	const char *bad[] = { "{\"success\": false, \"error\": \"missing_input\", \"msg\": \"m\"}",
			      "{\"success\": true}", "{\"secrets\": 7}", "{\"secrets\": null}",
			      "\"text\"", "42" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		j = json_loads(bad[i], JSON_DECODE_ANY, NULL);
		assert_non_null(j);
		assert_false(json_map_env_vars(j, &v, &n));
		json_decref(j);
	}
	assert_false(json_map_env_vars(NULL, &v, &n));
	assert_int_equal(n, 3);
	json_map_env_vars_free(v, n);
}

static void test_api_keys(void **state)
{
	(void)state;
	json_t *j = fixture("apikeys.json");
	struct api_key_rec *v = NULL;
	size_t n = 0;
	assert_true(json_map_api_keys(j, &v, &n));
	assert_int_equal(n, 5); /* the id-less, string and null entries skipped */

	assert_int_equal(v[0].id, 11);
	assert_int_equal(v[0].user_id, 501);
	assert_int_equal(v[0].team_id, 0); /* null */
	assert_string_equal(v[0].name, "ci");
	assert_string_equal(v[0].rights, "{\"api\":{\"instance_read\":{},\"misc\":{}}}");
	assert_float_equal(v[0].created_at, 1763000000.5, 1e-6);

	assert_int_equal(v[1].id, 12); /* strings for numbers */
	assert_int_equal(v[1].user_id, 501);
	assert_int_equal(v[1].team_id, 9);
	assert_false(has_control(v[1].name));
	assert_null(strstr(v[1].name, "pwned"));
	assert_null(strstr(v[1].name, "\xE2\x80\xAE"));
	assert_non_null(strstr(v[1].name, "evil"));
	assert_string_equal(v[1].rights, "{\"api\":{\"user_read\":{}}}"); /* JSON text in a string */
	assert_float_equal(v[1].created_at, 1763000001, 1e-9);

	assert_int_equal(v[2].id, 13); /* wrong types read as missing */
	assert_int_equal(v[2].user_id, 0);
	assert_int_equal(v[2].team_id, 0);
	assert_string_equal(v[2].name, "");
	assert_true(isnan(v[2].created_at));
	/* nested keys and strings cleaned, a nested secret masked */
	assert_string_equal(v[2].rights, "{\"api\":{\"xy\":{\"note\":\"ab\",\"token\":\"********\"}}}");

	assert_int_equal(v[3].id, 14);
	assert_string_equal(v[3].rights, "{\"api\":{\"instance_write\":{}}}"); /* "permissions" */
	assert_true(isnan(v[3].created_at));
	assert_int_equal(v[4].id, 15);
	assert_string_equal(v[4].rights, "not json: read, write"); /* not JSON: as sent, not blanked */

	/* the key (the secret) appears in no mapped string */
	for (size_t i = 0; i < n; i++) {
		const char *f[] = { v[i].name, v[i].rights };
		for (size_t k = 0; k < 2; k++) {
			assert_non_null(f[k]);
			assert_false(has_control(f[k]));
			assert_null(strstr(f[k], "deadbeef"));
		}
	}
	json_decref(j);

	/* a bare array appends; wrong shapes append nothing */
	j = json_loads("[{\"id\": 99, \"key\": \"deadbeef99\"}]", 0, NULL);
	assert_true(json_map_api_keys(j, &v, &n));
	assert_int_equal(n, 6);
	assert_int_equal(v[5].id, 99);
	assert_string_equal(v[5].name, "");
	assert_string_equal(v[5].rights, "");
	assert_true(isnan(v[5].created_at));
	json_decref(j);
	const char *bad[] = { "{\"apikeys\": {\"id\": 1}}", "{\"apikeys\": null}", "{\"id\": 1}",
			      "\"Successfully Deleted API Key\"" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		j = json_loads(bad[i], JSON_DECODE_ANY, NULL);
		assert_non_null(j);
		assert_false(json_map_api_keys(j, &v, &n));
		json_decref(j);
	}
	assert_int_equal(n, 6);
	json_map_api_keys_free(v, n);
}

static void test_machine_reports(void **state)
{
	(void)state;
	json_t *j = fixture("machine_reports.json");
	struct machine_report *v = NULL;
	size_t n = 0;
	assert_true(json_map_machine_reports(j, &v, &n));
	assert_int_equal(n, 4); /* "junk" skipped */
	assert_string_equal(v[0].problem, "GPU fell off the bus");
	assert_false(has_control(v[0].message));
	assert_null(strstr(v[0].message, "[2J"));
	assert_non_null(strstr(v[0].message, "Xid 79"));
	assert_non_null(strstr(v[0].message, "reboot needed"));
	assert_string_equal(v[0].created_at, "2026-11-20T10:00:00Z");
	assert_string_equal(v[1].problem, "");
	assert_string_equal(v[1].message, "");
	assert_string_equal(v[1].created_at, "1763000000"); /* epoch number as text */
	assert_string_equal(v[2].problem, "");
	assert_string_equal(v[2].message, "");
	assert_string_equal(v[2].created_at, "");
	assert_null(strstr(v[3].problem, "\xE2\x80\xAE"));
	assert_non_null(strstr(v[3].problem, "full"));
	assert_string_equal(v[3].created_at, "1763000000");
	json_decref(j);

	j = json_loads("{\"success\": true, \"reports\": [{\"problem\": \"p\", \"message\": \"m\"}]}", 0, NULL);
	assert_true(json_map_machine_reports(j, &v, &n));
	assert_int_equal(n, 5);
	assert_string_equal(v[4].problem, "p");
	assert_string_equal(v[4].message, "m");
	assert_string_equal(v[4].created_at, "");
	json_decref(j);
	const char *bad[] = { "{\"reports\": {}}", "{\"error\": \"no_such_machine\"}", "7", "null" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		j = json_loads(bad[i], JSON_DECODE_ANY, NULL);
		assert_non_null(j);
		assert_false(json_map_machine_reports(j, &v, &n));
		json_decref(j);
	}
	assert_int_equal(n, 5);
	json_map_machine_reports_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1_page),
		cmocka_unit_test(test_v0_list_appends),
		cmocka_unit_test(test_one_instance_forms),
		cmocka_unit_test(test_provisioning_nulls),
		cmocka_unit_test(test_hostile_instance),
		cmocka_unit_test(test_secret_keys),
		cmocka_unit_test(test_v1_token_shapes),
		cmocka_unit_test(test_user),
		cmocka_unit_test(test_workergroups_endpoints),
		cmocka_unit_test(test_offers_templates),
		cmocka_unit_test(test_fields_empty),
		cmocka_unit_test(test_hidden_secret_names_and_env),
		cmocka_unit_test(test_tfa_status),
		cmocka_unit_test(test_env_vars),
		cmocka_unit_test(test_api_keys),
		cmocka_unit_test(test_machine_reports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
