/* test_api_volumes.c: the volume calls (api_volumes.h): each builder's
 * method, URL, body and endpoint row (reads are fetches, writes actions);
 * the list and offer decoders (a hostile label sanitised, a record without
 * an id skipped, instances as ids or records, network told from local);
 * the cost per month; the name, mount path and size rules; a create's
 * volume_info (new with the CLI's default size, linked, none) in the
 * create body, and a bad one refused by the form check and by the job
 * check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/api_offers.h"
#include "api/api_volumes.h"
#include "base/config.h"
#include "json/json_list.h"

static struct config fake_cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "https://console.example";
	return c;
}

static json_t *body_of(const struct api_call *c)
{
	json_error_t je;
	json_t *b = json_loads(c->body, 0, &je);
	assert_non_null(b);
	return b;
}

static void builders(void **state)
{
	(void)state;
	struct config cfg = fake_cfg();
	struct api_call c = api_volumes(&cfg);
	assert_string_equal(c.method, "GET");
	assert_string_equal(c.url, "https://console.example/api/v0/volumes/?owner=me&type=all_volume");
	assert_null(c.body);
	assert_int_equal(api_ep_kind(c.ep), RK_FETCH);
	api_call_free(&c);

	c = api_volume_offers(&cfg, false, 20, 64);
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.url, "https://console.example/api/v0/volumes/search/");
	assert_int_equal(api_ep_kind(c.ep), RK_FETCH); /* a search only reads */
	json_t *b = body_of(&c);
	assert_true(json_is_true(json_object_get(json_object_get(b, "verified"), "eq")));
	assert_true(json_is_false(json_object_get(json_object_get(b, "external"), "eq")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(b, "disk_space"), "gte")), 1);
	assert_string_equal(json_string_value(json_array_get(json_array_get(json_object_get(b, "order"), 0), 0)),
			    "score");
	assert_float_equal(json_number_value(json_object_get(b, "allocated_storage")), 20, 0);
	assert_int_equal(json_integer_value(json_object_get(b, "limit")), 64);
	json_decref(b);
	api_call_free(&c);

	c = api_volume_offers(&cfg, true, 0, 0);
	assert_string_equal(c.url, "https://console.example/api/v0/network_volumes/search/");
	assert_int_equal(c.ep, EP_NET_VOLUME_OFFERS);
	b = body_of(&c);
	assert_null(json_object_get(b, "external"));
	assert_float_equal(json_number_value(json_object_get(b, "allocated_storage")), 1, 0);
	json_decref(b);
	api_call_free(&c);

	c = api_volume_create(&cfg, false, 6202155, 25, "my_data");
	assert_string_equal(c.method, "PUT");
	assert_string_equal(c.url, "https://console.example/api/v0/volumes/");
	assert_int_equal(api_ep_kind(c.ep), RK_ACTION);
	b = body_of(&c);
	assert_int_equal(json_integer_value(json_object_get(b, "id")), 6202155);
	assert_float_equal(json_number_value(json_object_get(b, "size")), 25, 0);
	assert_string_equal(json_string_value(json_object_get(b, "name")), "my_data");
	json_decref(b);
	api_call_free(&c);

	c = api_volume_create(&cfg, true, 8100022, 500, "");
	assert_string_equal(c.url, "https://console.example/api/v0/network_volumes/");
	assert_int_equal(c.ep, EP_NET_VOLUME_CREATE);
	assert_int_equal(api_ep_kind(c.ep), RK_ACTION);
	b = body_of(&c);
	assert_null(json_object_get(b, "name")); /* none typed: not sent */
	json_decref(b);
	api_call_free(&c);

	c = api_volume_clone(&cfg, 31047672, 6202155, 0);
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.url, "https://console.example/api/v0/volumes/copy/");
	assert_int_equal(api_ep_kind(c.ep), RK_ACTION);
	b = body_of(&c);
	assert_int_equal(json_integer_value(json_object_get(b, "src_id")), 31047672);
	assert_int_equal(json_integer_value(json_object_get(b, "dst_id")), 6202155);
	assert_null(json_object_get(b, "size"));
	json_decref(b);
	api_call_free(&c);
	c = api_volume_clone(&cfg, 1, 2, 150);
	b = body_of(&c);
	assert_float_equal(json_number_value(json_object_get(b, "size")), 150, 0);
	json_decref(b);
	api_call_free(&c);

	c = api_volume_delete(&cfg, 31047669);
	assert_string_equal(c.method, "DELETE");
	assert_string_equal(c.url, "https://console.example/api/v0/volumes/?id=31047669");
	assert_int_equal(api_ep_kind(c.ep), RK_ACTION);
	api_call_free(&c);

	/* one pacing bucket each (the docs' limit of each endpoint: 5.5/s) */
	const enum api_ep eps[] = { EP_VOLUMES, EP_VOLUME_OFFERS, EP_NET_VOLUME_OFFERS, EP_VOLUME_CREATE,
				    EP_NET_VOLUME_CREATE, EP_VOLUME_CLONE, EP_VOLUME_DELETE };
	for (size_t i = 0; i < sizeof eps / sizeof *eps; i++) {
		assert_int_equal(api_ep_group(eps[i]), eps[i]);
		assert_float_equal(api_ep_rate(eps[i]), 5.5, 0);
	}
}

static void decode_volumes(void **state)
{
	(void)state;
	json_error_t je;
	json_t *root = json_loads(
		"{\"volumes\":["
		"{\"id\":31047669,\"type\":\"local_volume\",\"label\":\"data\\u001b[31mmain\",\"disk_space\":50,"
		"\"status\":\"ready\",\"machine_id\":54326,\"storage_cost\":0.15,\"storage_total_cost\":0.0104,"
		"\"instances\":[9108074]},"
		"{\"label\":\"no id: skipped\"},"
		"{\"id\":31047674,\"type\":\"network_volume\",\"label\":null,\"disk_space\":200,"
		"\"status\":\"creating\",\"machine_id\":null,\"cluster_id\":3,\"geolocation\":\"Texas, US\","
		"\"storage_total_cost\":0.0444,\"instances\":[{\"id\":77},{\"id\":78}]}"
		"]}",
		0, &je);
	assert_non_null(root);
	struct api_error e;
	struct json_list *l = json_list_map(&api_volumes_list, root, &e);
	assert_non_null(l);
	assert_int_equal(json_list_count(l), 2);
	const struct volume_rec *v = json_list_at(l, struct volume_rec);
	assert_int_equal(v[0].id, 31047669);
	assert_false(v[0].network);
	assert_null(strchr(v[0].label, '\x1b')); /* drawn: no escape reaches the screen */
	assert_non_null(strstr(v[0].label, "main"));
	assert_int_equal(v[0].machine_id, 54326);
	assert_int_equal(v[0].ninst, 1);
	assert_int_equal(v[0].inst[0], 9108074);
	assert_float_equal(api_volume_month(&v[0]), 7.5, 1e-9);
	assert_true(v[1].network);
	assert_string_equal(v[1].label, "");
	assert_int_equal(v[1].machine_id, 0);
	assert_string_equal(v[1].geolocation, "Texas, US");
	assert_int_equal(v[1].ninst, 2);
	assert_int_equal(v[1].inst[1], 78);
	/* no storage_cost: from the hourly total */
	assert_float_equal(api_volume_month(&v[1]), 0.0444 * 720, 1e-9);
	json_list_free(l);
	json_decref(root);
	/* not a list answer: a protocol error naming what */
	root = json_loads("{\"volumes\":7}", 0, &je);
	assert_null(json_list_map(&api_volumes_list, root, &e));
	assert_non_null(strstr(e.msg, "volumes"));
	json_decref(root);
}

static void decode_offers(void **state)
{
	(void)state;
	json_error_t je;
	json_t *root = json_loads(
		"{\"offers\":[{\"id\":6202155,\"machine_id\":35804,\"disk_space\":604,\"storage_cost\":0.08,"
		"\"reliability\":0.934},"
		"{\"id\":8100022,\"cluster_id\":9,\"disk_space\":5190,\"storage_cost\":0.15,"
		"\"geolocation\":\"Bavaria, DE\"}]}",
		0, &je);
	struct api_error e;
	struct json_list *l = json_list_map(&api_volume_offers_list, root, &e);
	assert_non_null(l);
	assert_int_equal(json_list_count(l), 2);
	const struct volume_offer_rec *o = json_list_at(l, struct volume_offer_rec);
	assert_false(o[0].network);
	assert_int_equal(o[0].machine_id, 35804);
	assert_float_equal(api_volume_offer_month(&o[0], 30), 2.4, 1e-9);
	assert_true(o[1].network);
	assert_string_equal(o[1].geolocation, "Bavaria, DE");
	assert_true(isnan(o[1].reliability));
	json_list_free(l);
	json_decref(root);
	long id = 0;
	root = json_loads("{\"success\":true,\"id\":41,\"volume_name\":\"V.41\"}", 0, &je);
	assert_true(api_volume_result(root, &id));
	assert_int_equal(id, 41);
	json_decref(root);
	root = json_loads("{\"success\":true}", 0, &je);
	assert_false(api_volume_result(root, &id));
	json_decref(root);
}

static void rules(void **state)
{
	(void)state;
	char err[160];
	assert_true(api_volume_name_valid("", err, sizeof err));
	assert_true(api_volume_name_valid("team_data_2", err, sizeof err));
	assert_false(api_volume_name_valid("no spaces", err, sizeof err));
	assert_non_null(strstr(err, "letters"));
	char longname[80];
	memset(longname, 'a', 65);
	longname[65] = '\0';
	assert_false(api_volume_name_valid(longname, err, sizeof err));
	longname[64] = '\0';
	assert_true(api_volume_name_valid(longname, err, sizeof err));
	assert_true(api_volume_mount_valid("/data", err, sizeof err));
	assert_true(api_volume_mount_valid("/mnt/vol/", err, sizeof err));
	assert_false(api_volume_mount_valid("", err, sizeof err));
	assert_false(api_volume_mount_valid("/", err, sizeof err));
	assert_false(api_volume_mount_valid("data", err, sizeof err));
	assert_false(api_volume_mount_valid("/a//b", err, sizeof err));
	assert_false(api_volume_mount_valid("/a\nb", err, sizeof err));
	assert_true(api_volume_size_valid(15, NAN, err, sizeof err));
	assert_false(api_volume_size_valid(0, NAN, err, sizeof err));
	assert_false(api_volume_size_valid(NAN, NAN, err, sizeof err));
	assert_false(api_volume_size_valid(700, 604, err, sizeof err));
	assert_non_null(strstr(err, "604"));
}

static void create_volume_info(void **state)
{
	(void)state;
	struct create_req *r = calloc(1, sizeof *r);
	r->offer_id = 7;
	strcpy(r->image, "vastai/base-image:latest");
	char why[200];
	/* none: no volume_info */
	json_t *b = api_offers_create_body(r);
	assert_null(json_object_get(b, "volume_info"));
	json_decref(b);
	/* --create-volume OFFER --volume-size 30 --volume-label made_with --mount-path /mnt/vol */
	r->vol.mode = CVOL_NEW;
	r->vol.id = 6202155;
	r->vol.size = 30;
	strcpy(r->vol.name, "made_with");
	strcpy(r->vol.mount, "/mnt/vol");
	assert_true(api_create_req_valid(r, why, sizeof why));
	b = api_offers_create_body(r);
	json_t *vi = json_object_get(b, "volume_info");
	assert_int_equal(json_integer_value(json_object_get(vi, "volume_id")), 6202155);
	assert_true(json_is_true(json_object_get(vi, "create_new")));
	assert_string_equal(json_string_value(json_object_get(vi, "mount_path")), "/mnt/vol");
	assert_float_equal(json_number_value(json_object_get(vi, "size")), 30, 0);
	assert_string_equal(json_string_value(json_object_get(vi, "name")), "made_with");
	json_decref(b);
	/* --link-volume ID --mount-path /scratch: no size, no name */
	r->vol.mode = CVOL_LINK;
	r->vol.id = 31047672;
	strcpy(r->vol.mount, "/scratch");
	b = api_offers_create_body(r);
	vi = json_object_get(b, "volume_info");
	assert_true(json_is_false(json_object_get(vi, "create_new")));
	assert_int_equal(json_integer_value(json_object_get(vi, "volume_id")), 31047672);
	assert_null(json_object_get(vi, "size"));
	assert_null(json_object_get(vi, "name"));
	json_decref(b);
	/* a job with a bad volume is refused before sending */
	strcpy(r->vol.mount, "scratch");
	assert_false(api_create_req_valid(r, why, sizeof why));
	assert_non_null(strstr(why, "mount path"));
	strcpy(r->vol.mount, "/scratch");
	r->vol.id = 0;
	assert_false(api_create_req_valid(r, why, sizeof why));
	free(r);
	/* the form's check: the message on CF_VOLUME */
	struct create_form f;
	memset(&f, 0, sizeof f);
	f.image = "vastai/base-image:latest";
	f.vol.mode = CVOL_NEW;
	f.vol.id = 5;
	f.vol.size = 10;
	strcpy(f.vol.name, "bad name");
	strcpy(f.vol.mount, "/data");
	struct create_limits lim = { false, NAN, NAN };
	struct create_errors errs;
	assert_false(api_create_validate(&f, &lim, &errs));
	assert_int_equal(errs.count, 1);
	assert_non_null(strstr(errs.msg[CF_VOLUME], "name"));
	strcpy(f.vol.name, "good_name");
	struct create_req *r2 = calloc(1, sizeof *r2);
	assert_true(api_create_form_to_req(&f, &lim, 9, r2, &errs));
	assert_int_equal(r2->vol.mode, CVOL_NEW);
	assert_string_equal(r2->vol.name, "good_name");
	free(r2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builders),
		cmocka_unit_test(decode_volumes),
		cmocka_unit_test(decode_offers),
		cmocka_unit_test(rules),
		cmocka_unit_test(create_volume_info),
	};
	return cmocka_run_group_tests_name("api_volumes", tests, NULL, NULL);
}
