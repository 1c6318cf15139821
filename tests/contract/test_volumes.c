/* test_volumes.c: the account's volumes under the manual clock: the seeded
 * ones (local in use, local free, network), listing by type, offers search
 * (local and network), create (creating -> ready, the offer's free space
 * shrinking), clone (cloning for its size), delete (refused while an
 * instance uses the volume), billing per month by the sim's clock, and a
 * create-instance request's volume_info: a new volume made with the
 * instance, an existing one linked only on its machine (a network one in
 * its region). */
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

static json_t *volumes(const char *type)
{
	char path[96];
	snprintf(path, sizeof path, "/api/v0/volumes/?owner=me&type=%s", type);
	json_t *j = ct_expect("GET", path, NULL, 200);
	json_t *v = json_incref(json_object_get(j, "volumes"));
	json_decref(j);
	return v;
}

/* The volume with this label (borrowed from list), or fail. */
static json_t *by_label(json_t *list, const char *label)
{
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v)
		if (ct_str(v, "label") && !strcmp(ct_str(v, "label"), label))
			return v;
	fail_msg("no volume labelled %s", label);
	return NULL;
}

static json_t *by_id(json_t *list, long id)
{
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v)
		if ((long)ct_num(v, "id") == id)
			return v;
	return NULL;
}

static void test_seeded_volumes_by_type_and_the_instance_using_one(void **state)
{
	(void)state;
	json_t *all = volumes("all_volume"), *local = volumes("local_volume"), *net = volumes("network_volume");
	assert_int_equal(json_array_size(all), 3);
	assert_int_equal(json_array_size(local), 2);
	assert_int_equal(json_array_size(net), 1);
	json_t *used = by_label(local, "data_main");
	assert_string_equal(ct_str(used, "type"), "local_volume");
	assert_string_equal(ct_str(used, "status"), "ready");
	assert_float_equal(ct_num(used, "disk_space"), 50, 0);
	assert_float_equal(ct_num(used, "storage_total_cost"), ct_num(used, "storage_cost") * 50 / 720.0, 1e-12);
	assert_int_equal(json_array_size(json_object_get(used, "instances")), 1);
	long iid = (long)json_integer_value(json_array_get(json_object_get(used, "instances"), 0));
	json_t *in = ct_inst(iid);
	assert_float_equal(ct_num(in, "machine_id"), ct_num(used, "machine_id"), 0);
	json_t *vi = json_array_get(json_object_get(in, "volume_info"), 0);
	assert_float_equal(ct_num(vi, "id"), ct_num(used, "id"), 0);
	assert_string_equal(ct_str(vi, "mount_path"), "/data");
	assert_float_equal(ct_num(vi, "total_space"), 50, 0);
	json_decref(in);
	json_t *free_one = by_label(local, "scratch");
	assert_int_equal(json_array_size(json_object_get(free_one, "instances")), 0);
	json_t *nv = json_array_get(net, 0);
	assert_string_equal(ct_str(nv, "type"), "network_volume");
	assert_true(json_is_null(json_object_get(nv, "machine_id")));
	assert_true(ct_num(nv, "cluster_id") > 0);
	json_decref(all);
	json_decref(local);
	json_decref(net);
	/* no type: all of them; the CLI's path has no slash; a scoped key reads */
	json_t *j = ct_expect_as(ct_sim->ro_key, "GET", "/api/v0/volumes?owner=me", NULL, 200);
	assert_int_equal(json_array_size(json_object_get(j, "volumes")), 3);
	json_decref(j);
	ct_expect_error(ct_sim->full_key, "GET", "/api/v0/volumes/?type=floppy", NULL, 400, "invalid_args", NULL);
}

static void test_volumes_bill_per_month_by_the_clock(void **state)
{
	(void)state;
	long none[] = { -1 };
	ct_keep_only(none);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":100}");
	json_t *all = volumes("all_volume");
	double month = 0;
	size_t i;
	json_t *v;
	json_array_foreach(all, i, v)
		month += ct_num(v, "storage_cost") * ct_num(v, "disk_space");
	/* the billing clock debits whole $0.001 per contract, carrying the
	 * rest: the credit lags the exact figure by less than $0.001 each */
	double carry = 0.001 * (double)(json_array_size(all) + 1);
	json_decref(all);
	ct_advance(720 * 3600.0); /* a month */
	assert_float_equal(ct_credit(), 100 - month, carry);
	/* a new one bills from its creation on; a deleted one no more */
	json_t *o = ct_expect("POST", "/api/v0/volumes/search/", "{\"order\":[[\"disk_space\",\"desc\"]],\"limit\":1}", 200);
	json_t *offer = json_array_get(json_object_get(o, "offers"), 0);
	double rate = ct_num(offer, "storage_cost") * 40 / 720.0;
	char body[128];
	snprintf(body, sizeof body, "{\"id\":%.0f,\"size\":40}", ct_num(offer, "id"));
	json_decref(o);
	json_t *c = ct_expect("PUT", "/api/v0/volumes/", body, 200);
	long id = (long)ct_num(c, "id");
	json_decref(c);
	double before = ct_credit();
	ct_advance(3600);
	assert_float_equal(ct_credit(), before - month / 720.0 - rate, carry);
	all = volumes("all_volume");
	json_array_foreach(all, i, v) {
		char path[96];
		snprintf(path, sizeof path, "/api/v0/volumes/?id=%.0f", ct_num(v, "id"));
		json_decref(ct_expect("DELETE", path, NULL, 200));
	}
	json_decref(all);
	before = ct_credit();
	ct_advance(86400);
	assert_float_equal(ct_credit(), before, 1e-12);
	(void)id;
}

/* The roomiest local volume offer (owned). */
static json_t *roomiest(void)
{
	json_t *o = ct_expect("POST", "/api/v0/volumes/search/", "{\"order\":[[\"disk_space\",\"desc\"]],\"limit\":1}", 200);
	json_t *offer = json_incref(json_array_get(json_object_get(o, "offers"), 0));
	json_decref(o);
	return offer;
}

static void test_create_volume_creating_then_ready_and_its_refusals(void **state)
{
	(void)state;
	json_t *offer = roomiest();
	double free0 = ct_num(offer, "disk_space");
	long oid = (long)ct_num(offer, "id");
	json_decref(offer);
	char body[160];
	snprintf(body, sizeof body, "{\"id\":%ld,\"size\":25,\"name\":\"my_data\"}", oid);
	json_t *c = ct_expect("PUT", "/api/v0/volumes/", body, 200);
	assert_true(json_is_true(json_object_get(c, "success")));
	long id = (long)ct_num(c, "id");
	char want[40];
	snprintf(want, sizeof want, "V.%ld", id);
	assert_string_equal(ct_str(c, "volume_name"), want);
	json_decref(c);
	json_t *all = volumes("local_volume");
	json_t *v = by_id(all, id);
	assert_non_null(v);
	assert_string_equal(ct_str(v, "status"), "creating");
	assert_string_equal(ct_str(v, "label"), "my_data");
	assert_float_equal(ct_num(v, "disk_space"), 25, 0);
	json_decref(all);
	ct_advance(6);
	all = volumes("local_volume");
	assert_string_equal(ct_str(by_id(all, id), "status"), "ready");
	json_decref(all);
	offer = roomiest();
	if ((long)ct_num(offer, "id") == oid)
		assert_float_equal(ct_num(offer, "disk_space"), free0 - 25, 1e-9);
	json_decref(offer);
	/* refusals */
	snprintf(body, sizeof body, "{\"id\":%ld,\"size\":1000000}", oid);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/volumes/", body, 400, "invalid_args", "free space");
	snprintf(body, sizeof body, "{\"id\":%ld,\"size\":5,\"name\":\"no spaces please\"}", oid);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/volumes/", body, 400, "invalid_args", "name");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/volumes/", "{\"id\":1,\"size\":5}", 404, "no_such_ask", NULL);
	snprintf(body, sizeof body, "{\"id\":%ld,\"size\":5}", oid);
	ct_expect_error(ct_sim->ro_key, "PUT", "/api/v0/volumes/", body, 401, "permission_denied", NULL);
	ct_ctl("set", "{\"what\":\"user\",\"field\":\"credit\",\"value\":0}");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/volumes/", body, 400, "insufficient_credit", NULL);
}

static void test_clone_is_cloning_for_its_size(void **state)
{
	(void)state;
	json_t *local = volumes("local_volume");
	long src = (long)ct_num(by_label(local, "scratch"), "id"); /* 100 GB */
	json_decref(local);
	json_t *offer = roomiest();
	long oid = (long)ct_num(offer, "id");
	json_decref(offer);
	char body[160];
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":%ld,\"size\":50}", src, oid);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/volumes/copy/", body, 400, "invalid_args", "at least");
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":%ld}", src, oid);
	json_t *c = ct_expect("POST", "/api/v0/volumes/copy/", body, 200);
	long id = (long)ct_num(c, "id");
	json_decref(c);
	local = volumes("local_volume");
	json_t *v = by_id(local, id);
	assert_string_equal(ct_str(v, "status"), "cloning");
	assert_float_equal(ct_num(v, "disk_space"), 100, 0);
	assert_string_equal(ct_str(v, "label"), "scratch_clone");
	json_decref(local);
	ct_advance(90);
	local = volumes("local_volume");
	assert_string_equal(ct_str(by_id(local, id), "status"), "cloning");
	json_decref(local);
	ct_advance(11);
	local = volumes("local_volume");
	assert_string_equal(ct_str(by_id(local, id), "status"), "ready");
	json_decref(local);
	snprintf(body, sizeof body, "{\"src_id\":1,\"dst_id\":%ld}", oid);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/volumes/copy/", body, 404, "no_such_volume", NULL);
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":1}", src);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/volumes/copy/", body, 404, "no_such_ask", NULL);
}

static void test_delete_refused_while_an_instance_uses_it(void **state)
{
	(void)state;
	json_t *local = volumes("local_volume");
	json_t *used = by_label(local, "data_main");
	long id = (long)ct_num(used, "id");
	long iid = (long)json_integer_value(json_array_get(json_object_get(used, "instances"), 0));
	json_decref(local);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/volumes/?id=%ld", id);
	ct_expect_error(ct_sim->full_key, "DELETE", path, NULL, 400, "volume_in_use", "destroy the instance first");
	/* a stopped instance holds it too */
	char ip[96];
	snprintf(ip, sizeof ip, "/api/v0/instances/%ld/", iid);
	json_decref(ct_expect("PUT", ip, "{\"state\":\"stopped\"}", 200));
	ct_advance(10);
	ct_expect_error(ct_sim->full_key, "DELETE", path, NULL, 400, "volume_in_use", NULL);
	json_decref(ct_expect("DELETE", ip, "{}", 200));
	/* the docs' form: the id in the body */
	char body[64];
	snprintf(body, sizeof body, "{\"id\":%ld}", id);
	json_t *j = ct_expect("DELETE", "/api/v0/volumes/", body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	local = volumes("local_volume");
	assert_null(by_id(local, id));
	json_decref(local);
	ct_expect_error(ct_sim->full_key, "DELETE", path, NULL, 404, "no_such_volume",
			"Volume with that ID does not exist.");
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/volumes/", "{}", 400, "invalid_args", "valid volume ID");
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/volumes/?id=abc", NULL, 400, "invalid_args", NULL);
}

/* A rentable instance offer on machine m (or in region geo when m < 0),
 * or -1. */
static long offer_on(long m, const char *geo, bool other)
{
	char body[256];
	if (m >= 0)
		snprintf(body, sizeof body, "{\"machine_id\":{\"%s\":%ld},\"rentable\":{\"eq\":true},\"limit\":1}",
			 other ? "neq" : "eq", m);
	else
		snprintf(body, sizeof body, "{\"geolocation\":{\"%s\":\"%s\"},\"rentable\":{\"eq\":true},\"limit\":1}",
			 other ? "neq" : "eq", geo);
	json_t *j = ct_expect("POST", "/api/v0/bundles/", body, 200);
	json_t *o = json_array_get(json_object_get(j, "offers"), 0);
	long id = o ? (long)ct_num(o, "id") : -1;
	json_decref(j);
	return id;
}

static long rent_with(long offer, const char *vi)
{
	char path[64], body[400];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer);
	snprintf(body, sizeof body, "{\"image\":\"vastai/base-image:latest\",\"disk\":8,\"volume_info\":%s}", vi);
	json_t *j = ct_expect("PUT", path, body, 200);
	long id = (long)ct_num(j, "new_contract");
	json_decref(j);
	return id;
}

static void test_create_instance_with_a_new_volume_or_a_linked_one(void **state)
{
	(void)state;
	/* --create-volume: a volume offer on the instance offer's machine */
	json_t *o = ct_expect("POST", "/api/v0/volumes/search/", "{\"limit\":64}", 200);
	long voffer = -1, ioffer = -1, m = -1;
	size_t i;
	json_t *vo;
	json_array_foreach(json_object_get(o, "offers"), i, vo) {
		m = (long)ct_num(vo, "machine_id");
		ioffer = offer_on(m, NULL, false);
		if (ioffer >= 0) {
			voffer = (long)ct_num(vo, "id");
			break;
		}
	}
	json_decref(o);
	assert_true(voffer >= 0);
	char vi[256];
	snprintf(vi, sizeof vi, "{\"volume_id\":%ld,\"mount_path\":\"/mnt/vol\",\"create_new\":true,\"size\":30,"
		 "\"name\":\"made_with\"}", voffer);
	long other = offer_on(m, NULL, true);
	char path[64];
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", other);
	char body[400];
	snprintf(body, sizeof body, "{\"image\":\"vastai/base-image:latest\",\"volume_info\":%s}", vi);
	ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "invalid_args", "another machine");
	long iid = rent_with(ioffer, vi);
	json_t *in = ct_inst(iid);
	json_t *v0 = json_array_get(json_object_get(in, "volume_info"), 0);
	assert_string_equal(ct_str(v0, "mount_path"), "/mnt/vol");
	assert_float_equal(ct_num(v0, "total_space"), 30, 0);
	long vid = (long)ct_num(v0, "id");
	json_decref(in);
	json_t *local = volumes("local_volume");
	json_t *v = by_id(local, vid);
	assert_non_null(v);
	assert_string_equal(ct_str(v, "label"), "made_with");
	assert_float_equal(ct_num(v, "machine_id"), (double)m, 0);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(v, "instances"), 0)), iid);
	json_decref(local);
	/* --link-volume: the unused seeded one, only from its machine */
	local = volumes("local_volume");
	json_t *scratch = by_label(local, "scratch");
	long sid = (long)ct_num(scratch, "id"), sm = (long)ct_num(scratch, "machine_id");
	json_decref(local);
	snprintf(vi, sizeof vi, "{\"volume_id\":%ld,\"mount_path\":\"/scratch\",\"create_new\":false}", sid);
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer_on(sm, NULL, true));
	snprintf(body, sizeof body, "{\"image\":\"vastai/base-image:latest\",\"volume_info\":%s}", vi);
	ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "invalid_args", "another machine");
	long same = offer_on(sm, NULL, false);
	assert_true(same >= 0);
	long lid = rent_with(same, vi);
	in = ct_inst(lid);
	assert_float_equal(ct_num(json_array_get(json_object_get(in, "volume_info"), 0), "id"), (double)sid, 0);
	json_decref(in);
	local = volumes("local_volume");
	assert_int_equal(json_array_size(json_object_get(by_id(local, sid), "instances")), 1);
	json_decref(local);
	/* destroyed, the instance no longer uses it */
	char ip[64];
	snprintf(ip, sizeof ip, "/api/v0/instances/%ld/", lid);
	json_decref(ct_expect("DELETE", ip, "{}", 200));
	local = volumes("local_volume");
	assert_int_equal(json_array_size(json_object_get(by_id(local, sid), "instances")), 0);
	json_decref(local);
	/* a network volume: any machine of its region */
	json_t *net = volumes("network_volume");
	json_t *nv = json_array_get(net, 0);
	long nid = (long)ct_num(nv, "id");
	char geo[64];
	snprintf(geo, sizeof geo, "%s", ct_str(nv, "geolocation"));
	json_decref(net);
	snprintf(vi, sizeof vi, "{\"volume_id\":%ld,\"mount_path\":\"/datasets\",\"create_new\":false}", nid);
	snprintf(path, sizeof path, "/api/v0/asks/%ld/", offer_on(-1, geo, true));
	snprintf(body, sizeof body, "{\"image\":\"vastai/base-image:latest\",\"volume_info\":%s}", vi);
	ct_expect_error(ct_sim->full_key, "PUT", path, body, 400, "invalid_args", "another region");
	long in_region = offer_on(-1, geo, false);
	if (in_region >= 0) {
		long nidst = rent_with(in_region, vi);
		in = ct_inst(nidst);
		assert_string_equal(ct_str(json_array_get(json_object_get(in, "volume_info"), 0), "type"), "network_volume");
		json_decref(in);
	}
}

static void test_network_volume_offers_and_create(void **state)
{
	(void)state;
	json_t *o = ct_expect("POST", "/api/v0/network_volumes/search/",
			      "{\"verified\":{\"eq\":true},\"geolocation\":{\"eq\":\"Quebec, CA\"},\"allocated_storage\":10}",
			      200);
	json_t *offers = json_object_get(o, "offers");
	assert_int_equal(json_array_size(offers), 1);
	json_t *nv = json_array_get(offers, 0);
	assert_string_equal(ct_str(nv, "geolocation"), "Quebec, CA");
	assert_float_equal(ct_num(nv, "storage_total_cost"), ct_num(nv, "storage_cost") * 10 / 720.0, 1e-12);
	assert_non_null(json_object_get(nv, "nw_disk_avg_bw"));
	char body[128];
	snprintf(body, sizeof body, "{\"id\":%.0f,\"size\":500,\"name\":\"team_data\"}", ct_num(nv, "id"));
	json_decref(o);
	json_t *c = ct_expect("PUT", "/api/v0/network_volumes/", body, 200);
	long id = (long)ct_num(c, "id");
	json_decref(c);
	json_t *net = volumes("network_volume");
	json_t *v = by_id(net, id);
	assert_non_null(v);
	assert_string_equal(ct_str(v, "geolocation"), "Quebec, CA");
	assert_float_equal(ct_num(v, "disk_space"), 500, 0);
	json_decref(net);
	json_t *local = volumes("local_volume");
	assert_null(by_id(local, id));
	json_decref(local);
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/network_volumes/search/", "{\"disk_space\":{\"approx\":1}}",
			400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/network_volumes/", "{\"id\":1}", 404, "no_such_ask", NULL);
	/* local volume offers: the CLI's default query and order */
	o = ct_expect("POST", "/api/v0/volumes/search/",
		      "{\"verified\":{\"eq\":true},\"external\":{\"eq\":false},\"disk_space\":{\"gte\":1},"
		      "\"order\":[[\"score\",\"desc\"]],\"allocated_storage\":1.0}",
		      200);
	offers = json_object_get(o, "offers");
	assert_true(json_array_size(offers) > 0);
	size_t i;
	json_t *x;
	double last = 1e300;
	json_array_foreach(offers, i, x) {
		assert_true(json_is_true(json_object_get(x, "verified")));
		assert_false(json_is_true(json_object_get(x, "external")));
		assert_true(ct_num(x, "score") <= last);
		last = ct_num(x, "score");
		assert_non_null(json_object_get(x, "machine_id"));
	}
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_seeded_volumes_by_type_and_the_instance_using_one, ct_reset),
		cmocka_unit_test_setup(test_volumes_bill_per_month_by_the_clock, ct_reset),
		cmocka_unit_test_setup(test_create_volume_creating_then_ready_and_its_refusals, ct_reset),
		cmocka_unit_test_setup(test_clone_is_cloning_for_its_size, ct_reset),
		cmocka_unit_test_setup(test_delete_refused_while_an_instance_uses_it, ct_reset),
		cmocka_unit_test_setup(test_create_instance_with_a_new_volume_or_a_linked_one, ct_reset),
		cmocka_unit_test_setup(test_network_volume_offers_and_create, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_volumes", tests, setup, ct_stop);
}
