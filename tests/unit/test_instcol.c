/* test_instcol.c: the GPU column keeps the model when narrow (issue 12:
 * "V100", not "Tesla V1"): brand words are dropped from the cell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "dump/instcol.h"
#include "state/model.h"

static void test_gpu_model(void **state)
{
	(void)state;
	assert_string_equal(instcol_gpu_model("Tesla V100"), "V100");
	assert_string_equal(instcol_gpu_model("NVIDIA GeForce RTX 4090"), "RTX 4090");
	assert_string_equal(instcol_gpu_model("RTX A6000"), "RTX A6000");
	assert_string_equal(instcol_gpu_model("A100 SXM4"), "A100 SXM4");
	assert_string_equal(instcol_gpu_model("Tesla "), "Tesla "); /* nothing left: kept */
	assert_string_equal(instcol_gpu_model(""), "");
	assert_string_equal(instcol_gpu_model(NULL), "");
}

static void test_gpu_cell(void **state)
{
	(void)state;
	struct instance x;
	memset(&x, 0, sizeof x);
	x.num_gpus = 2;
	x.gpu_name = (char *)"Tesla V100";
	char buf[64];
	double key;
	instcol_format(IC_GPUS, &x, NULL, 0, 0, buf, sizeof buf, &key);
	assert_string_equal(buf, "2x V100"); /* fits the 80-column minimum of 10 cells */
	assert_true(key == 2);
}

/* The SSH cell names the address `x` takes without asking: the direct one
 * first under ssh = ask or direct, the proxy first under ssh = proxy; the
 * one there is when only one is. */
static void test_ssh_cell_follows_the_route(void **state)
{
	(void)state;
	struct instance x;
	memset(&x, 0, sizeof x);
	x.public_ip = (char *)"203.0.113.7";
	x.direct_ssh_port = 40022;
	x.ssh_host = (char *)"ssh5.example.com";
	x.ssh_port = 12345;
	char buf[128];
	instcol_format(IC_SSH, &x, NULL, 0, instcol_opts(false, SSH_ASK), buf, sizeof buf, NULL);
	assert_string_equal(buf, "203.0.113.7:40022");
	instcol_format(IC_SSH, &x, NULL, 0, instcol_opts(false, SSH_DIRECT), buf, sizeof buf, NULL);
	assert_string_equal(buf, "203.0.113.7:40022");
	instcol_format(IC_SSH, &x, NULL, 0, instcol_opts(true, SSH_PROXY), buf, sizeof buf, NULL);
	assert_string_equal(buf, "ssh5.example.com:12345");
	x.ssh_host = (char *)""; /* only the direct address: shown whatever the route */
	instcol_format(IC_SSH, &x, NULL, 0, INSTCOL_SSH_PROXY, buf, sizeof buf, NULL);
	assert_string_equal(buf, "203.0.113.7:40022");
	x.ssh_host = (char *)"ssh5.example.com";
	x.public_ip = (char *)""; /* only the proxy */
	instcol_format(IC_SSH, &x, NULL, 0, 0, buf, sizeof buf, NULL);
	assert_string_equal(buf, "ssh5.example.com:12345");
	x.ssh_host = (char *)"";
	instcol_format(IC_SSH, &x, NULL, 0, 0, buf, sizeof buf, NULL);
	assert_string_equal(buf, "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_model),
		cmocka_unit_test(test_gpu_cell),
		cmocka_unit_test(test_ssh_cell_follows_the_route),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
