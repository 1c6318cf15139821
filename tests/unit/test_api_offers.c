/* test_api_offers.c: the create request below the form: launch modes to the
 * CLI's runtype strings and back, the -e/-p env format both ways (quotes,
 * bad forms), onstart encoding (decoded by the real base64/gunzip/bash),
 * per-field validation, the create body with every field, and the template
 * create/edit/delete calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_offers.h"
#include "base/config.h"
#include "rules/query.h"

static json_t *body_of(const struct api_call *a)
{
	json_t *b = json_loads(a->body, 0, NULL);
	assert_non_null(b);
	return b;
}

static void test_runtype_mapping(void **state)
{
	(void)state;
	/* the strings the official CLI sends (API-NOTES, spelling direc) */
	assert_string_equal(api_create_launch_runtype(LAUNCH_SSH), "ssh_proxy");
	assert_string_equal(api_create_launch_runtype(LAUNCH_SSH_DIRECT), "ssh_direc ssh_proxy");
	assert_string_equal(api_create_launch_runtype(LAUNCH_JUPYTER), "jupyter_proxy ssh_proxy");
	assert_string_equal(api_create_launch_runtype(LAUNCH_JUPYTER_DIRECT),
			    "jupyter_direc ssh_direc ssh_proxy");
	assert_string_equal(api_create_launch_runtype(LAUNCH_ARGS), "args");
	/* and back, from every spelling an instance's image_runtype may have */
	static const struct {
		const char *rt;
		enum create_launch m;
	} back[] = {
		{ "ssh", LAUNCH_SSH },
		{ "ssh_proxy", LAUNCH_SSH },
		{ "ssh_direct", LAUNCH_SSH_DIRECT },
		{ "ssh_direc ssh_proxy", LAUNCH_SSH_DIRECT },
		{ "ssh_proxy ssh_direc", LAUNCH_SSH_DIRECT },
		{ "jupyter", LAUNCH_JUPYTER },
		{ "jupyter_proxy ssh_proxy", LAUNCH_JUPYTER },
		{ "jupyter_direct", LAUNCH_JUPYTER_DIRECT },
		{ "jupyter_direc ssh_direc ssh_proxy", LAUNCH_JUPYTER_DIRECT },
		{ "args", LAUNCH_ARGS },
	};
	for (size_t i = 0; i < sizeof back / sizeof *back; i++) {
		enum create_launch m = LAUNCH__COUNT;
		if (!api_create_launch_from_runtype(back[i].rt, &m) || m != back[i].m)
			fail_msg("'%s' gave %d, want %d", back[i].rt, (int)m, (int)back[i].m);
	}
	/* each mode round-trips */
	for (int m = 0; m < LAUNCH__COUNT; m++) {
		enum create_launch got;
		assert_true(api_create_launch_from_runtype(api_create_launch_runtype((enum create_launch)m), &got));
		assert_int_equal(got, m);
	}
	enum create_launch m;
	assert_false(api_create_launch_from_runtype("", &m));
	assert_false(api_create_launch_from_runtype(NULL, &m));
	assert_false(api_create_launch_from_runtype("vnc", &m));
	assert_false(api_create_launch_from_runtype("args ssh_proxy", &m));
	assert_string_equal(api_create_launch_name(LAUNCH_JUPYTER_DIRECT), "jupyter direct");
	/* a template's runtype and flags */
	assert_int_equal(api_create_launch_from_template("ssh", true, false), LAUNCH_SSH_DIRECT);
	assert_int_equal(api_create_launch_from_template("ssh", false, false), LAUNCH_SSH);
	assert_int_equal(api_create_launch_from_template("jupyter", true, true), LAUNCH_JUPYTER_DIRECT);
	assert_int_equal(api_create_launch_from_template("jupyter", false, false), LAUNCH_JUPYTER);
	assert_int_equal(api_create_launch_from_template("args", true, true), LAUNCH_ARGS);
	assert_int_equal(api_create_launch_from_template(NULL, false, false), LAUNCH_ARGS);
}

/* Parse flags, compare with want (JSON text). */
static void env_ok(const char *flags, const char *want)
{
	char err[200] = "";
	int pos;
	json_t *got = api_create_env_parse(flags, err, sizeof err, &pos);
	if (!got)
		fail_msg("'%s': %s", flags, err);
	json_t *w = json_loads(want, 0, NULL);
	assert_non_null(w);
	if (!json_equal(got, w))
		fail_msg("'%s' gave %s", flags, json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS));
	json_decref(got);
	json_decref(w);
}

static void env_bad(const char *flags, int want_pos, const char *needle)
{
	char err[200] = "";
	int pos = -2;
	json_t *got = api_create_env_parse(flags, err, sizeof err, &pos);
	if (got)
		fail_msg("'%s' parsed", flags);
	if (!strstr(err, needle))
		fail_msg("'%s': '%s' lacks '%s'", flags, err, needle);
	assert_int_equal(pos, want_pos);
}

static void test_env_parse(void **state)
{
	(void)state;
	env_ok("", "{}");
	env_ok(NULL, "{}");
	env_ok("-e TZ=UTC -p 8080:8080", "{\"TZ\":\"UTC\",\"-p 8080:8080\":\"1\"}");
	env_ok("-e TZ=PDT -e XNAME=XX4 -p 22:22 -p 8080:8080",
	       "{\"TZ\":\"PDT\",\"XNAME\":\"XX4\",\"-p 22:22\":\"1\",\"-p 8080:8080\":\"1\"}");
	env_ok("-p 8081:8081/udp -h billybob", "{\"-p 8081:8081/udp\":\"1\",\"-h\":\"billybob\"}");
	/* quotes keep spaces; = in a value stays */
	env_ok("-e MODEL_ARGS='--model-id X --quantize gptq'",
	       "{\"MODEL_ARGS\":\"--model-id X --quantize gptq\"}");
	env_ok("-e \"GREETING=hello world\" -e EMPTY=", "{\"GREETING\":\"hello world\",\"EMPTY\":\"\"}");
	env_ok("-e URL=http://x/?a=b", "{\"URL\":\"http://x/?a=b\"}");
	env_ok("  -e   A=1   ", "{\"A\":\"1\"}");
	env_ok("-p 7000", "{\"-p 7000\":\"1\"}");
	/* bad forms: the offset of the bad token, never a value in the message */
	env_bad("TZ=UTC", 0, "expected -e NAME=VALUE");
	env_bad("-e TZ=UTC --env B=2", 10, "not '--env'");
	env_bad("-e", 0, "-e at column 1 needs a value");
	env_bad("-e NOVALUE", 3, "needs NAME=VALUE");
	env_bad("-e =x", 3, "needs NAME=VALUE");
	env_bad("-e 1BAD=x", 3, "not a variable name");
	env_bad("-e A-B=x", 3, "not a variable name");
	env_bad("-p 8080:http", 3, "not a port mapping");
	env_bad("-p 0:80", 3, "not a port mapping");
	env_bad("-p 70000:80", 3, "not a port mapping");
	env_bad("-p 80:80/sctp", 3, "not a port mapping");
	env_bad("-e 'A=open", 3, "unclosed quote");
	env_bad("-e A=\x1b[2J", 5, "control character");
	char err[200];
	json_t *x = api_create_env_parse("-e SECRET=hunter2 -p bad", err, sizeof err, NULL);
	assert_null(x);
	assert_null(strstr(err, "hunter2"));
}

static void test_env_format_round_trip(void **state)
{
	(void)state;
	static const char *const in[] = {
		"-e TZ=UTC -p 8080:8080",
		"-e MODEL_ARGS='--model-id X' -e Q=\"it's\" -h box -p 53:53/udp",
		"-e EMPTY= -e B=2",
	};
	for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
		json_t *a = api_create_env_parse(in[i], NULL, 0, NULL);
		assert_non_null(a);
		char *f = api_create_env_format(a);
		json_t *b = api_create_env_parse(f, NULL, 0, NULL);
		if (!b || !json_equal(a, b))
			fail_msg("'%s' -> '%s' did not round-trip", in[i], f);
		free(f);
		json_decref(a);
		json_decref(b);
	}
	/* an instance's extra_env list */
	json_t *pairs = json_loads("[[\"A\",\"1\"],[\"B\",\"two words\"],[\"C\",\"say \\\"hi\\\"\"]]", 0, NULL);
	char *f = api_create_env_format(pairs);
	assert_string_equal(f, "-e A=1 -e \"B=two words\" -e 'C=say \"hi\"'");
	json_t *back = api_create_env_parse(f, NULL, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(back, "C")), "say \"hi\"");
	json_decref(back);
	free(f);
	json_decref(pairs);
}

/* A script of about n bytes that prints MARK when run. */
static char *long_script(size_t n)
{
	char *s = malloc(n + 64);
	size_t o = 0;
	for (int i = 0; o < n; i++)
		o += (size_t)sprintf(s + o, "# line %d of padding, which compresses well\n", i);
	strcpy(s + o, "echo decoded-and-run\n");
	return s;
}

static void test_onstart_encoding(void **state)
{
	(void)state;
	size_t wl = 0;
	/* short: as is */
	char *w = api_create_onstart_encode("echo hi", &wl);
	assert_string_equal(w, "echo hi");
	assert_int_equal(wl, 7);
	free(w);
	assert_null(api_create_onstart_decode("echo hi"));
	/* exactly at the limit: as is */
	char *edge = malloc(CREATE_ONSTART_MAX + 1);
	memset(edge, '#', CREATE_ONSTART_MAX);
	edge[CREATE_ONSTART_MAX] = '\0';
	w = api_create_onstart_encode(edge, NULL);
	assert_string_equal(w, edge);
	free(w);
	free(edge);
	/* long: encoded under the limit, decodes back, and the shell runs it */
	char *script = long_script(20000);
	w = api_create_onstart_encode(script, &wl);
	assert_non_null(w);
	assert_true(strlen(w) <= CREATE_ONSTART_MAX);
	assert_int_equal(wl, strlen(w));
	assert_int_equal(strncmp(w, "echo ", 5), 0);
	char *back = api_create_onstart_decode(w);
	assert_non_null(back);
	assert_string_equal(back, script);
	free(back);
	FILE *p = popen(w, "r");
	assert_non_null(p);
	char out[128] = "";
	if (!fgets(out, sizeof out, p))
		out[0] = '\0';
	int rc = pclose(p);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "decoded-and-run\n");
	free(w);
	free(script);
	/* incompressible and long: refused with the encoded size */
	char *noise = malloc(9001);
	unsigned x = 12345;
	for (int i = 0; i < 9000; i++) {
		x = x * 1103515245u + 12345u;
		noise[i] = (char)(33 + (x >> 16) % 90);
	}
	noise[9000] = '\0';
	assert_null(api_create_onstart_encode(noise, &wl));
	assert_true(wl > CREATE_ONSTART_MAX);
	free(noise);
	/* not ours: not decoded */
	assert_null(api_create_onstart_decode("echo !!!! | base64 -d | gunzip | bash"));
	assert_null(api_create_onstart_decode("echo QUJD | base64 -d | gunzip | bash")); /* not gzip */
}

static const struct create_limits ondemand = { false, NAN, 100 };
static const struct create_limits bidlim = { true, 0.12, 100 };

/* Validate f; expect exactly the fields in want (CF__COUNT-terminated) to be bad. */
static void expect_bad(const struct create_form *f, const struct create_limits *lim,
		       enum create_field field, const char *needle)
{
	struct create_errors e;
	assert_false(api_create_validate(f, lim, &e));
	if (!strstr(e.msg[field], needle))
		fail_msg("field %d: '%s' lacks '%s'", (int)field, e.msg[field], needle);
	for (int i = 0; i < CF__COUNT; i++)
		if (i != (int)field && e.msg[i][0])
			fail_msg("field %d also bad: %s", i, e.msg[i]);
	assert_int_equal(e.count, 1);
}

static void test_validation(void **state)
{
	(void)state;
	struct create_form ok = { .image = "pytorch/pytorch:2.1.0-cuda12.1", .disk = 20,
				  .label = "train", .launch = LAUNCH_SSH_DIRECT,
				  .env = "-e TZ=UTC -p 8080:8080", .onstart = "echo hi" };
	struct create_errors e;
	assert_true(api_create_validate(&ok, &ondemand, &e));
	assert_int_equal(e.count, 0);
	struct create_form f;

	f = ok;
	f.image = NULL;
	expect_bad(&f, &ondemand, CF_IMAGE, "an image (or a template) is required");
	f.template_hash_id = "abc123";
	assert_true(api_create_validate(&f, &ondemand, &e));
	f.template_hash_id = "abc 123";
	expect_bad(&f, &ondemand, CF_TEMPLATE, "hash_id");
	f = ok;
	f.image = "pytorch pytorch";
	expect_bad(&f, &ondemand, CF_IMAGE, "only letters");
	f.image = "/pytorch";
	expect_bad(&f, &ondemand, CF_IMAGE, "not an image name");
	f = ok;
	f.disk = 0; /* default 8 */
	assert_true(api_create_validate(&f, &ondemand, &e));
	f.disk = 0.5;
	expect_bad(&f, &ondemand, CF_DISK, "at least 1 GB");
	f.disk = 101;
	expect_bad(&f, &ondemand, CF_DISK, "100 GB of disk at most");
	f.disk = NAN;
	expect_bad(&f, &ondemand, CF_DISK, "size in GB");
	f = ok;
	char *big = malloc(1100);
	memset(big, 'a', 1025);
	big[1025] = '\0';
	f.label = big;
	expect_bad(&f, &ondemand, CF_LABEL, "1025 characters; at most 1024");
	/* 1024 three-byte characters are 1024 characters */
	char *wide = malloc(1024 * 3 + 1);
	for (int i = 0; i < 1024; i++)
		memcpy(wide + 3 * i, "\xE2\x82\xAC", 3);
	wide[1024 * 3] = '\0';
	f.label = wide;
	assert_true(api_create_validate(&f, &ondemand, &e));
	f.label = "a\tb";
	expect_bad(&f, &ondemand, CF_LABEL, "control character");
	f = ok;
	f.env = "-e SECRET=s3cr3t -p nope";
	expect_bad(&f, &ondemand, CF_ENV, "not a port mapping");
	struct create_errors e2;
	api_create_validate(&f, &ondemand, &e2);
	assert_null(strstr(e2.msg[CF_ENV], "s3cr3t"));
	f = ok;
	f.args_str = "-c 'sleep infinity'";
	expect_bad(&f, &ondemand, CF_ARGS, "only to the entrypoint/args");
	f.launch = LAUNCH_ARGS;
	assert_true(api_create_validate(&f, &ondemand, &e));
	f = ok;
	f.launch = (enum create_launch)99;
	expect_bad(&f, &ondemand, CF_LAUNCH, "choose ssh");
	/* price: required and in range for bid offers, refused for on-demand */
	f = ok;
	expect_bad(&f, &bidlim, CF_PRICE, "0.001 to 128");
	f.price = 0.0005;
	expect_bad(&f, &bidlim, CF_PRICE, "0.001 to 128");
	f.price = 128.5; /* the docs' create range: 0.001-128 (create_instance.yaml) */
	expect_bad(&f, &bidlim, CF_PRICE, "0.001 to 128");
	f.price = 33;
	assert_true(api_create_validate(&f, &bidlim, &e));
	f.price = 0.15;
	assert_true(api_create_validate(&f, &bidlim, &e));
	expect_bad(&f, &ondemand, CF_PRICE, "only to interruptible");
	/* onstart: long and compressible is fine; long noise is refused with sizes */
	f = ok;
	char *script = long_script(12000);
	f.onstart = script;
	assert_true(api_create_validate(&f, &ondemand, &e));
	char *noise = malloc(6001);
	unsigned x = 7;
	for (int i = 0; i < 6000; i++) {
		x = x * 1103515245u + 12345u;
		noise[i] = (char)(33 + (x >> 16) % 90);
	}
	noise[6000] = '\0';
	f.onstart = noise;
	expect_bad(&f, &ondemand, CF_ONSTART, "6000 bytes; compressed it is still");
	/* registry login: the shape, never the token in the message */
	f = ok;
	f.image_login = "-u bob -p 9d8df!fd89ufZ docker.io";
	assert_true(api_create_validate(&f, &ondemand, &e));
	f.image_login = "-u bob docker.io";
	expect_bad(&f, &ondemand, CF_LOGIN, "-u USER -p TOKEN REGISTRY");
	f.image_login = "-u bob -p tok3n";
	expect_bad(&f, &ondemand, CF_LOGIN, "-u USER -p TOKEN REGISTRY");
	f.image_login = "-u bob -p tok3n a b";
	expect_bad(&f, &ondemand, CF_LOGIN, "one registry");
	api_create_validate(&f, &ondemand, &e2);
	assert_null(strstr(e2.msg[CF_LOGIN], "tok3n"));
	/* several bad fields at once: each has its message */
	f = ok;
	f.image = "";
	f.disk = -1;
	f.env = "junk";
	assert_false(api_create_validate(&f, &ondemand, &e));
	assert_int_equal(e.count, 3);
	assert_true(e.msg[CF_IMAGE][0] && e.msg[CF_DISK][0] && e.msg[CF_ENV][0]);
	free(big);
	free(wide);
	free(script);
	free(noise);
}

static void test_create_body_every_field(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "http://127.0.0.1:1";
	char *script = long_script(6000);
	struct create_form f = {
		.image = "vastai/base:cuda-12",
		.template_hash_id = "4fa3c0",
		.disk = 32,
		.label = "replacement",
		.launch = LAUNCH_JUPYTER_DIRECT,
		.env = "-e HF_HOME=/workspace -p 8080:8080",
		.onstart = script,
		.start_stopped = true,
		.price = 0.2,
		.image_login = "-u bob -p tok docker.io",
		.cancel_unavail = true,
	};
	struct create_req r;
	struct create_errors e;
	assert_true(api_create_form_to_req(&f, &bidlim, 5551, &r, &e));
	struct api_call a = api_create(&c, &r);
	assert_string_equal(a.method, "PUT");
	assert_string_equal(a.url, "http://127.0.0.1:1/api/v0/asks/5551/");
	json_t *b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "client_id")), "me");
	assert_string_equal(json_string_value(json_object_get(b, "image")), "vastai/base:cuda-12");
	assert_string_equal(json_string_value(json_object_get(b, "template_hash_id")), "4fa3c0");
	assert_string_equal(json_string_value(json_object_get(b, "label")), "replacement");
	assert_true(json_number_value(json_object_get(b, "disk")) == 32);
	assert_string_equal(json_string_value(json_object_get(b, "runtype")),
			    "jupyter_direc ssh_direc ssh_proxy");
	assert_true(json_number_value(json_object_get(b, "price")) == 0.2);
	json_t *env = json_object_get(b, "env");
	assert_string_equal(json_string_value(json_object_get(env, "HF_HOME")), "/workspace");
	assert_string_equal(json_string_value(json_object_get(env, "-p 8080:8080")), "1");
	const char *os = json_string_value(json_object_get(b, "onstart"));
	assert_true(strlen(os) <= CREATE_ONSTART_MAX);
	char *dec = api_create_onstart_decode(os);
	assert_string_equal(dec, script);
	free(dec);
	assert_string_equal(json_string_value(json_object_get(b, "target_state")), "stopped");
	assert_string_equal(json_string_value(json_object_get(b, "image_login")), "-u bob -p tok docker.io");
	assert_true(json_is_true(json_object_get(b, "cancel_unavail")));
	assert_null(json_object_get(b, "args_str"));
	json_decref(b);
	api_call_free(&a);

	/* on-demand, args mode, from a template's runtype: no price, no runtype */
	struct create_form g = { .image = "img", .launch = LAUNCH_ARGS, .launch_from_template = true };
	assert_true(api_create_form_to_req(&g, &ondemand, 7, &r, &e));
	a = api_create(&c, &r);
	b = body_of(&a);
	assert_null(json_object_get(b, "price"));
	assert_null(json_object_get(b, "runtype"));
	assert_null(json_object_get(b, "target_state"));
	assert_null(json_object_get(b, "env"));
	assert_null(json_object_get(b, "disk"));
	json_decref(b);
	api_call_free(&a);
	g.launch_from_template = false;
	g.args_str = "-c 'echo hi; sleep infinity'";
	assert_true(api_create_form_to_req(&g, &ondemand, 7, &r, &e));
	a = api_create(&c, &r);
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "runtype")), "args");
	assert_string_equal(json_string_value(json_object_get(b, "args_str")), "-c 'echo hi; sleep infinity'");
	json_decref(b);
	api_call_free(&a);
	/* an invalid form fills no request */
	g.disk = -3;
	assert_false(api_create_form_to_req(&g, &ondemand, 7, &r, &e));
	free(script);
}

static void test_req_valid(void **state)
{
	(void)state;
	struct create_req r;
	memset(&r, 0, sizeof r);
	char why[200];
	r.offer_id = 5;
	strcpy(r.image, "a/b");
	assert_true(api_create_req_valid(&r, why, sizeof why));
	r.offer_id = 0;
	assert_false(api_create_req_valid(&r, why, sizeof why));
	r.offer_id = 5;
	r.image[0] = '\0';
	assert_false(api_create_req_valid(&r, why, sizeof why));
	assert_non_null(strstr(why, "image or a template"));
	strcpy(r.template_hash_id, "abc");
	assert_true(api_create_req_valid(&r, why, sizeof why));
	r.price = 128.5;
	assert_false(api_create_req_valid(&r, why, sizeof why));
	r.price = 40;
	assert_true(api_create_req_valid(&r, why, sizeof why));
	r.price = 0.5;
	assert_true(api_create_req_valid(&r, why, sizeof why));
	r.disk = -1;
	assert_false(api_create_req_valid(&r, why, sizeof why));
	r.disk = 10;
	strcpy(r.env, "-e K=secretvalue -p x");
	assert_false(api_create_req_valid(&r, why, sizeof why));
	assert_null(strstr(why, "secretvalue"));
	strcpy(r.env, "-e K=v -p 1:1");
	assert_true(api_create_req_valid(&r, why, sizeof why));
	strcpy(r.runtype, "telnet");
	assert_false(api_create_req_valid(&r, why, sizeof why));
	strcpy(r.runtype, "ssh_proxy");
	strcpy(r.args_str, "x");
	assert_false(api_create_req_valid(&r, why, sizeof why));
	strcpy(r.runtype, "args");
	assert_true(api_create_req_valid(&r, why, sizeof why));
	strcpy(r.image_login, "-u a docker.io");
	assert_false(api_create_req_valid(&r, why, sizeof why));
	r.image_login[0] = '\0';
	memset(r.onstart, 'x', sizeof r.onstart);
	assert_false(api_create_req_valid(&r, why, sizeof why)); /* not terminated */
}

/* The select_filters of a GET /api/v0/template/ URL, decoded and parsed. */
static json_t *url_filters(const char *url)
{
	const char *q = strstr(url, "?select_filters=");
	assert_non_null(q);
	q += strlen("?select_filters=");
	char dec[2048];
	size_t k = 0;
	for (; *q && k + 1 < sizeof dec; q++) {
		if (*q == '%' && q[1] && q[2]) {
			char hex[3] = { q[1], q[2], 0 };
			dec[k++] = (char)strtol(hex, NULL, 16);
			q += 2;
		} else {
			dec[k++] = *q == '+' ? ' ' : *q;
		}
	}
	dec[k] = '\0';
	json_t *j = json_loads(dec, 0, NULL);
	assert_non_null(j);
	return j;
}

/* api_templates_query_call: the request the view's `:templates QUERY` and
 * `--dump templates --query` send, and a bad query builds nothing. */
static void test_templates_query_call(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "http://h";
	struct api_call a;
	struct query_error qe;
	assert_true(api_templates_query_call(&c, "name=PyTorch_2 recommended=true creator_id>=7 "
					     "image in [a/b,c/d] recommended_disk_space<=40", &a, &qe));
	assert_string_equal(a.method, "GET");
	assert_int_equal(a.ep, EP_TEMPLATES);
	assert_true(strncmp(a.url, "http://h/api/v0/template/?select_filters=", 41) == 0);
	json_t *f = url_filters(a.url);
	/* as the CLI sends them: no default filters, numbers as text,
	 * underscores as spaces, true as a literal, lists as arrays */
	json_t *want = json_loads("{\"name\":{\"eq\":\"PyTorch 2\"},\"recommended\":{\"eq\":true},"
				  "\"creator_id\":{\"gte\":\"7\"},\"image\":{\"in\":[\"a/b\",\"c/d\"]},"
				  "\"recommended_disk_space\":{\"lte\":\"40\"}}", 0, NULL);
	assert_non_null(want);
	if (!json_equal(f, want)) {
		char *got = json_dumps(f, JSON_SORT_KEYS);
		fail_msg("filters sent: %s", got);
	}
	json_decref(f);
	json_decref(want);
	api_call_free(&a);
	/* an empty query: every template (no filter) */
	assert_true(api_templates_query_call(&c, "", &a, &qe));
	f = url_filters(a.url);
	assert_int_equal(json_object_size(f), 0);
	json_decref(f);
	api_call_free(&a);
	/* a bad query: nothing built, the parser's message with the column */
	memset(&a, 0x5a, sizeof a);
	struct api_call untouched = a;
	assert_false(api_templates_query_call(&c, "imag=pytorch", &a, &qe));
	assert_non_null(strstr(qe.msg, "did you mean image?"));
	assert_non_null(strstr(qe.msg, "column 1"));
	assert_false(api_templates_query_call(&c, "name=x gpu_name=RTX_4090", &a, &qe));
	assert_non_null(strstr(qe.msg, "column 8"));
	assert_int_equal(qe.pos, 7);
	assert_false(api_templates_query_call(&c, "name=TensorFlow recommended>>true", &a, &qe));
	assert_non_null(strstr(qe.msg, "unknown operator '>>' at column 28"));
	assert_memory_equal(&a, &untouched, sizeof a);
}

static void test_templates(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "http://h";
	json_t *f = api_templates_filters(TPL_OWN, 42);
	json_t *want = json_loads("{\"creator_id\":{\"eq\":42}}", 0, NULL);
	assert_true(json_equal(f, want));
	json_decref(f);
	json_decref(want);
	f = api_templates_filters(TPL_RECOMMENDED, 42);
	want = json_loads("{\"recommended\":{\"eq\":true}}", 0, NULL);
	assert_true(json_equal(f, want));
	json_decref(f);
	json_decref(want);

	struct template_req t = { .name = "tgi", .image = "ghcr.io/hf/tgi", .tag = "1.0.3",
				  .env = "-p 3000:3000 -e MODEL=x", .onstart = "echo go",
				  .launch = LAUNCH_SSH_DIRECT, .recommended_disk_space = 40,
				  .login_repo = "ghcr.io", .login_user = "bob",
				  .login_pass = "pa55", .private_ = true };
	char err[200];
	assert_true(api_template_validate(&t, err, sizeof err));
	struct api_call a = api_template_create(&c, &t);
	assert_string_equal(a.method, "POST");
	assert_string_equal(a.url, "http://h/api/v0/template/");
	json_t *b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "name")), "tgi");
	assert_string_equal(json_string_value(json_object_get(b, "env")), "-p 3000:3000 -e MODEL=x");
	assert_string_equal(json_string_value(json_object_get(b, "runtype")), "ssh");
	assert_true(json_is_true(json_object_get(b, "ssh_direct")));
	assert_true(json_is_true(json_object_get(b, "use_ssh")));
	assert_true(json_is_false(json_object_get(b, "jup_direct")));
	assert_true(json_number_value(json_object_get(b, "recommended_disk_space")) == 40);
	assert_string_equal(json_string_value(json_object_get(b, "docker_login_pass")), "pa55");
	assert_true(json_is_true(json_object_get(b, "private")));
	json_decref(b);
	api_call_free(&a);
	/* unused registry fields are sent empty (SPEC: required) */
	struct template_req plain = { .name = "n", .image = "img", .launch = LAUNCH_ARGS };
	a = api_template_create(&c, &plain);
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "docker_login_repo")), "");
	assert_string_equal(json_string_value(json_object_get(b, "docker_login_user")), "");
	assert_string_equal(json_string_value(json_object_get(b, "docker_login_pass")), "");
	assert_string_equal(json_string_value(json_object_get(b, "runtype")), "args");
	json_decref(b);
	api_call_free(&a);

	/* edit: only what changed, the password only when typed */
	struct template_req ed = t;
	ed.login_pass = NULL;
	ed.onstart = "echo changed";
	ed.launch = LAUNCH_JUPYTER;
	int changed = -1;
	a = api_template_edit(&c, "oldhash", &t, &ed, &changed);
	assert_string_equal(a.method, "PUT");
	b = body_of(&a);
	assert_int_equal(changed, 2);
	assert_string_equal(json_string_value(json_object_get(b, "hash_id")), "oldhash");
	assert_string_equal(json_string_value(json_object_get(b, "onstart")), "echo changed");
	assert_string_equal(json_string_value(json_object_get(b, "runtype")), "jupyter");
	assert_null(json_object_get(b, "name"));
	assert_null(json_object_get(b, "image"));
	assert_null(json_object_get(b, "docker_login_pass"));
	json_decref(b);
	api_call_free(&a);
	ed = t;
	ed.login_pass = NULL;
	a = api_template_edit(&c, "h", &t, &ed, &changed);
	assert_int_equal(changed, 0);
	api_call_free(&a);
	ed.login_pass = "newpass";
	a = api_template_edit(&c, "h", &t, &ed, &changed);
	assert_int_equal(changed, 1);
	b = body_of(&a);
	assert_string_equal(json_string_value(json_object_get(b, "docker_login_pass")), "newpass");
	json_decref(b);
	api_call_free(&a);

	a = api_template_delete(&c, 77);
	assert_string_equal(a.method, "DELETE");
	b = body_of(&a);
	assert_int_equal(json_integer_value(json_object_get(b, "template_id")), 77);
	json_decref(b);
	api_call_free(&a);

	json_t *ans = json_loads("{\"success\":true,\"template\":{\"id\":9,\"hash_id\":\"abc\"}}", 0, NULL);
	long id = 0;
	char *h = NULL;
	assert_true(api_template_result(ans, &id, &h));
	assert_int_equal(id, 9);
	assert_string_equal(h, "abc");
	free(h);
	json_decref(ans);
	ans = json_loads("{\"success\":false,\"msg\":\"no\"}", 0, NULL);
	assert_false(api_template_result(ans, &id, &h));
	json_decref(ans);

	/* validation */
	struct template_req bad = t;
	bad.name = "";
	assert_false(api_template_validate(&bad, err, sizeof err));
	assert_non_null(strstr(err, "name"));
	bad = t;
	bad.env = "-e PASS=pa55 junk";
	assert_false(api_template_validate(&bad, err, sizeof err));
	assert_null(strstr(err, "pa55"));
	bad = t;
	bad.login_repo = "";
	assert_false(api_template_validate(&bad, err, sizeof err));
	assert_null(strstr(err, "pa55"));
	bad = t;
	bad.args_str = "x";
	assert_false(api_template_validate(&bad, err, sizeof err));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtype_mapping),
		cmocka_unit_test(test_env_parse),
		cmocka_unit_test(test_env_format_round_trip),
		cmocka_unit_test(test_onstart_encoding),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_create_body_every_field),
		cmocka_unit_test(test_req_valid),
		cmocka_unit_test(test_templates),
		cmocka_unit_test(test_templates_query_call),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
