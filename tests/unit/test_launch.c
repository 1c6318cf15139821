/* test_launch.c: `:launch` (flow/launch.h): the CLI's flags read, each bad
 * flag explained with the usage, the search line they make and the body
 * the offers view's parser makes of it (the CLI's default filters, the
 * GPU, count, region, disk, order, on-demand), and the create request. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "flow/launch.h"
#include "rules/query.h"

static void test_parse(void **state)
{
	(void)state;
	struct launch_args la;
	char err[400] = "";
	assert_true(launch_parse("-g RTX_4090 -n 1 --image pytorch/pytorch", &la, err, sizeof err));
	assert_string_equal(la.gpu_name, "RTX_4090");
	assert_int_equal(la.num_gpus, 1);
	assert_string_equal(la.image, "pytorch/pytorch");
	assert_string_equal(la.template_hash, "");
	assert_true(la.disk == LAUNCH_DISK_DEFAULT);
	assert_string_equal(la.order, "score-");
	assert_string_equal(la.region, "");

	assert_true(launch_parse("--gpu-name='RTX 3090' --num-gpus 4 --template_hash abc123 "
				 "-r North_America -d 32.5 --label 'my run' -o dph+",
				 &la, err, sizeof err));
	assert_string_equal(la.gpu_name, "RTX_3090");
	assert_int_equal(la.num_gpus, 4);
	assert_string_equal(la.template_hash, "abc123");
	assert_true(la.disk == 32.5);
	assert_string_equal(la.label, "my run");
	assert_string_equal(la.order, "dph+");
	assert_non_null(strstr(la.region, "[AG,"));
	assert_non_null(strstr(la.region, ",US]"));

	assert_true(launch_parse("-g A100_SXM4 -n 8 --template h -r '[us, ca]'", &la, err, sizeof err));
	assert_string_equal(la.region, "[US,CA]");
	assert_true(launch_parse("-g A100_SXM4 -n 8 --template h -r de", &la, err, sizeof err));
	assert_string_equal(la.region, "[DE]");
}

/* Each bad line: false, the reason and the usage in err. */
static void bad(const char *line, const char *why)
{
	struct launch_args la;
	char err[400] = "";
	assert_false(launch_parse(line, &la, err, sizeof err));
	if (!strstr(err, why) || !strstr(err, "usage: :launch -g GPU_NAME"))
		fail_msg("%s: %s", line, err);
}

static void test_bad(void **state)
{
	(void)state;
	bad("", "-g GPU_NAME and -n NUM_GPUS are required");
	bad("-n 1 -i img", "-g GPU_NAME is required");
	bad("-g RTX_4090 -i img", "-n NUM_GPUS is required");
	bad("-g RTX_4090 -n 1", "an image (-i) or a template");
	bad("-g RTX_4090 -n 3 -i img", "-n: the number of GPUs is one of 1, 2, 4, 8, 12, 14");
	bad("-g RTX_4090 -n x -i img", "-n: the number of GPUs");
	bad("-g RTX_4090 -n 1 -i img --bogus 1", "unknown flag --bogus");
	bad("-g RTX_4090 -n 1 -i img stray", "unexpected word stray");
	bad("-g RTX_4090 -n 1 -i", "-i needs a value");
	bad("-g RTX_4090 -n 1 -i img -d -5", "-d: the disk is a number of GB above 0");
	bad("-g RTX_4090 -n 1 -i img -d 10GB", "-d: the disk");
	bad("-g RTX_4090 -n 1 -i img -r Atlantis", "-r: a region is North_America");
	bad("-g RTX_4090 -n 1 -i img -r [USA]", "-r: a region");
	bad("-g 'RTX=4090' -n 1 -i img", "-g: a GPU name is letters");
	bad("-g RTX_4090 -n 1 -i img -o 'dph; x'", "-o: an order");
	bad("-g RTX_4090 -n 1 -i 'img", "quote");
}

static void test_query(void **state)
{
	(void)state;
	struct launch_args la;
	char err[400], line[800];
	assert_true(launch_parse("-g RTX_4090 -n 2 -i pytorch/pytorch -r [US,CA] -d 20", &la, err,
				 sizeof err));
	assert_string_equal(launch_query_line(&la, line, sizeof line),
			    "gpu_name=RTX_4090 num_gpus=2 geolocation in [US,CA] disk_space>=20 "
			    "-o score- --storage 20");
	/* the offers view's parser: the CLI's defaults, on-demand, its order */
	struct query_cmd c;
	struct query_error qe;
	assert_true(query_cmd_parse(line, &c, &qe));
	json_t *body = query_cmd_body(&c, &qe);
	assert_non_null(body);
	assert_true(json_is_true(json_object_get(json_object_get(body, "verified"), "eq")));
	assert_true(json_is_true(json_object_get(json_object_get(body, "rentable"), "eq")));
	assert_true(json_is_false(json_object_get(json_object_get(body, "rented"), "eq")));
	assert_true(json_is_false(json_object_get(json_object_get(body, "external"), "eq")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(body, "gpu_name"), "eq")),
			    "RTX 4090");
	json_t *geo = json_object_get(json_object_get(body, "geolocation"), "in");
	assert_int_equal(json_array_size(geo), 2);
	assert_string_equal(json_string_value(json_array_get(geo, 1)), "CA");
	assert_non_null(json_object_get(json_object_get(body, "disk_space"), "gte"));
	assert_string_equal(json_string_value(json_object_get(body, "type")), "on-demand");
	json_t *o0 = json_array_get(json_object_get(body, "order"), 0);
	assert_string_equal(json_string_value(json_array_get(o0, 0)), "score");
	assert_string_equal(json_string_value(json_array_get(o0, 1)), "desc");
	assert_true(json_number_value(json_object_get(body, "allocated_storage")) == 20.0);
	json_decref(body);
	query_cmd_free(&c);

	/* a region by name: every code of it goes, and it parses */
	assert_true(launch_parse("-g H100_SXM -n 8 --template t -r Europe", &la, err, sizeof err));
	launch_query_line(&la, line, sizeof line);
	assert_true(query_cmd_parse(line, &c, &qe));
	body = query_cmd_body(&c, &qe);
	assert_non_null(body);
	assert_int_equal(json_array_size(json_object_get(json_object_get(body, "geolocation"), "in")), 46);
	json_decref(body);
	query_cmd_free(&c);
}

static void test_req(void **state)
{
	(void)state;
	struct launch_args la;
	struct create_req r;
	char err[400];
	assert_true(launch_parse("-g RTX_4090 -n 1 -i pytorch/pytorch --label x", &la, err, sizeof err));
	assert_true(launch_req(&la, 77, 100, &r, err, sizeof err));
	assert_int_equal(r.offer_id, 77);
	assert_string_equal(r.image, "pytorch/pytorch");
	assert_string_equal(r.template_hash_id, "");
	assert_string_equal(r.runtype, "ssh_proxy");
	assert_string_equal(r.label, "x");
	assert_true(r.disk == 16.0);
	assert_true(r.price == 0);

	/* a template: its own launch mode (no runtype, as the CLI) */
	assert_true(launch_parse("-g RTX_4090 -n 1 --template abc", &la, err, sizeof err));
	assert_true(launch_req(&la, 5, NAN, &r, err, sizeof err));
	assert_string_equal(r.template_hash_id, "abc");
	assert_string_equal(r.runtype, "");
	assert_string_equal(r.image, "");

	/* more disk than the offer has: the validator's words */
	assert_true(launch_parse("-g RTX_4090 -n 1 -i img -d 500", &la, err, sizeof err));
	assert_false(launch_req(&la, 5, 100, &r, err, sizeof err));
	assert_non_null(strstr(err, "launch: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_req),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
