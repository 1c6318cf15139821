/* test_secrets.c: the masking of environment values over every shape the
 * service sends (extra_env pairs, env objects and flag strings, onstart
 * scripts, launch_args), the secret-name rule, the in-place tree walk that
 * --dump --json uses, and the instance mapping: the detail view's field
 * list shows no env value while the instance's env list keeps them for the
 * one-at-a-time reveal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"
#include "state/model.h"
#include "rules/secrets.h"

/* The compact JSON of secrets_masked(key, text parsed as JSON). */
static char *masked(const char *key, const char *json)
{
	json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
	assert_non_null(v);
	json_t *m = secrets_masked(key, v);
	json_decref(v);
	if (!m)
		return NULL;
	char *s = json_dumps(m, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
	json_decref(m);
	return s;
}

static void check(const char *key, const char *json, const char *want)
{
	char *got = masked(key, json);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void names(void **state)
{
	(void)state;
	const char *yes[] = { "HF_TOKEN", "WANDB_API_KEY", "aws_secret_access_key", "DB_PASSWORD",
			      "PGPASS", "GITHUB_AUTH", "GOOGLE_APPLICATION_CREDENTIALS",
			      "SSH_PRIVATE", "SESSION_ID", "Cookie" };
	const char *no[] = { "HF_HOME", "PYTHONUNBUFFERED", "PATH", "CUDA_VISIBLE_DEVICES", "MODEL" };
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		assert_true(secrets_name_looks_secret(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		assert_false(secrets_name_looks_secret(no[i]));
	assert_true(secrets_is_env_key("extra_env"));
	assert_true(secrets_is_env_key("env"));
	assert_true(secrets_is_env_key("onstart"));
	assert_false(secrets_is_env_key("label"));
	assert_null(masked("label", "\"HF_TOKEN=x\""));
}

static void extra_env_pairs(void **state)
{
	(void)state;
	/* every value masked, whatever its name; names kept; empty stays empty */
	check("extra_env", "[[\"HF_TOKEN\",\"hf_abc\"],[\"HF_HOME\",\"/workspace/.hf\"],[\"E\",\"\"]]",
	      "[[\"HF_TOKEN\",\"********\"],[\"HF_HOME\",\"********\"],[\"E\",\"\"]]");
	/* entry objects, NAME=VALUE strings, a number, null */
	check("extra_env", "[{\"key\":\"A\",\"value\":\"s\"},\"B=t\",[\"C\",5],[\"D\",null]]",
	      "[{\"key\":\"A\",\"value\":\"********\"},\"B=********\",[\"C\",\"********\"],[\"D\",null]]");
	check("extra_env", "null", "null");
	check("extra_env", "[]", "[]");
}

static void env_object(void **state)
{
	(void)state;
	check("env", "{\"WANDB_API_KEY\":\"w1\",\"-p 8000:8000\":\"1\",\"X\":\"\"}",
	      "{\"-p 8000:8000\":\"1\",\"WANDB_API_KEY\":\"********\",\"X\":\"\"}");
	/* a key starting with - that is not a port mapping: its value masked */
	check("env", "{\"-e HF_TOKEN\":\"hf_x\",\"-p 70:70/udp\":\"1\"}",
	      "{\"-e HF_TOKEN\":\"********\",\"-p 70:70/udp\":\"1\"}");
	check("env", "{\"-pHF_TOKEN\":\"hf_x\",\"-p HF_TOKEN\":\"hf_y\",\"-p \":\"z\",\"-p\":\"w\"}",
	      "{\"-p\":\"********\",\"-p \":\"********\",\"-p HF_TOKEN\":\"********\","
	      "\"-pHF_TOKEN\":\"********\"}");
}

static void env_flags(void **state)
{
	(void)state;
	check("env", "\"-e JUPYTER_DIR=/ -p 8080:8080\"", "\"-e JUPYTER_DIR=******** -p 8080:8080\"");
	check("env", "\"-e A=1 --env B=two -e 'C=three four' --env=D=5 -eE=6 -e F\"",
	      "\"-e A=******** --env B=******** -e 'C=********' --env=D=******** -eE=******** -e F\"");
	check("env", "\"-e X=\\\"quoted value\\\" -p 1:1\"", "\"-e X=******** -p 1:1\"");
	check("env", "\"\"", "\"\"");
	check("launch_args", "\"--env '-e HF_TOKEN=abc' --disk 20\"",
	      "\"--env '-e HF_TOKEN=********' --disk 20\"");
	char *s = secrets_mask_flags("-e HF_TOKEN=abc -e  B=c\td");
	assert_string_equal(s, "-e HF_TOKEN=******** -e  B=********\td");
	free(s);
}

static void onstart_script(void **state)
{
	(void)state;
	check("onstart", "\"export HF_TOKEN=hf_abc; python run.py\"",
	      "\"export HF_TOKEN=********; python run.py\"");
	check("onstart", "\"HOME=/root WANDB_API_KEY='a b' python x.py\\nexport PASSWORD=\\\"p w\\\"\"",
	      "\"HOME=/root WANDB_API_KEY=******** python x.py\\nexport PASSWORD=********\"");
	check("onstart", "\"echo 'AWS_SECRET_ACCESS_KEY=zz' >> /etc/environment\"",
	      "\"echo 'AWS_SECRET_ACCESS_KEY=********' >> /etc/environment\"");
	/* not secret names, and assignments inside words, are left alone */
	check("onstart", "\"bash /workspace/onstart.sh && MODEL=x run --a=b XTOKEN\"",
	      "\"bash /workspace/onstart.sh && MODEL=x run --a=b XTOKEN\"");
	check("onstart", "\"x=1;API_KEY=k&&y\"", "\"x=1;API_KEY=********&&y\"");
}

static void tree(void **state)
{
	(void)state;
	json_t *v = json_loads("{\"instances\":[{\"id\":1,\"extra_env\":[[\"HF_TOKEN\",\"hf_secret\"]],"
			       "\"onstart\":\"export HF_TOKEN=hf_secret2\",\"label\":\"keep\"}],"
			       "\"templates\":[{\"env\":\"-e K=hf_secret3\"}]}",
			       0, NULL);
	assert_non_null(v);
	secrets_mask_tree(v);
	char *s = json_dumps(v, JSON_COMPACT);
	assert_null(strstr(s, "hf_secret"));
	assert_non_null(strstr(s, "\"keep\""));
	assert_non_null(strstr(s, "HF_TOKEN"));
	free(s);
	json_decref(v);
}

/* The detail view's fields show no env value; the env list keeps them. */
static void instance_mapping(void **state)
{
	(void)state;
	json_t *o = json_loads("{\"id\":7,\"extra_env\":[[\"HF_TOKEN\",\"hf_zzz\"],[\"B\",\"bee\"]],"
			       "\"onstart\":\"export HF_TOKEN=hf_zzz\"}",
			       0, NULL);
	struct instance x;
	assert_true(json_map_instance(o, &x));
	for (size_t i = 0; i < x.nfields; i++) {
		assert_null(strstr(x.fields[i].value, "hf_zzz"));
		assert_null(strstr(x.fields[i].value, "bee"));
	}
	assert_int_equal(x.nenv, 2);
	assert_string_equal(x.env[0].key, "HF_TOKEN");
	assert_string_equal(x.env[0].value, "hf_zzz");
	assert_string_equal(x.env[1].value, "bee");
	instance_clear(&x);
	json_decref(o);
}

/* The edges: no text, quotes and backslashes, empty values, flags that are
 * not assignments, entry objects by "name", values of every JSON type. */
static void edges(void **state)
{
	(void)state;
	assert_false(secrets_name_looks_secret(NULL));
	assert_false(secrets_is_env_key(NULL));
	assert_false(secrets_is_env_key("label"));
	json_t *v = json_string("x");
	assert_null(secrets_masked("label", v));
	json_decref(v);
	assert_true(json_is_null(secrets_masked("env", NULL)));
	char *s = secrets_mask_flags(NULL);
	assert_string_equal(s, "");
	free(s);
	s = secrets_mask_script(NULL);
	assert_string_equal(s, "");
	free(s);
	/* a quoted value with an escaped quote, an escaped blank, an empty
	 * value, "-e-x" and "-eNAME" (no value): only values are masked */
	/* a backslash at the very end, inside quotes or not */
	s = secrets_mask_flags("-e A=x\\");
	assert_string_equal(s, "-e A=********");
	free(s);
	s = secrets_mask_flags("-e \"A=x\\");
	assert_string_equal(s, "-e \"A=********\"");
	free(s);
	s = secrets_mask_flags("-e \"A=x\\\"y z\" -e B=a\\ b -e C= -e-x -eNOEQ -e");
	assert_string_equal(s, "-e \"A=********\" -e B=******** -e C= -e-x -eNOEQ -e");
	free(s);
	/* scripts: a value inside quotes runs to the closing quote (or the end
	 * when there is none); a name may start with _; an empty value stays */
	s = secrets_mask_script("echo \"TOKEN=abc def\" x; _TOKEN=y; TOKEN= z; 'KEY=unclosed w");
	assert_string_equal(s, "echo \"TOKEN=********\" x; _TOKEN=********; TOKEN= z; 'KEY=********");
	free(s);
	/* objects: an entry by "name", null and non-string values */
	check("env", "{\"name\":\"A\",\"value\":\"s\"}", "{\"name\":\"A\",\"value\":\"********\"}");
	check("env", "{\"A\":null,\"B\":5,\"C\":[1]}", "{\"A\":null,\"B\":\"********\",\"C\":\"********\"}");
	/* lists: what is no assignment is kept as it is */
	check("extra_env", "[5,\"NOEQ\",\"E=\",true,{\"X\":\"y\"}]",
	      "[5,\"NOEQ\",\"E=\",true,{\"X\":\"********\"}]");
	/* a value that is no string, list or object is kept */
	check("env", "5", "5");
	check("onstart", "null", "null");
	/* the tree: arrays at any depth, scalars left alone */
	json_t *t = json_loads("[{\"env\":\"-e A=b\",\"n\":[{\"onstart\":\"export KEY=k\"}]},3]", 0, NULL);
	assert_non_null(t);
	secrets_mask_tree(t);
	char *d = json_dumps(t, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(d, "[{\"env\":\"-e A=********\",\"n\":[{\"onstart\":\"export KEY=********\"}]},3]");
	free(d);
	json_decref(t);
	json_t *n = json_integer(1);
	secrets_mask_tree(n);
	assert_int_equal(json_integer_value(n), 1);
	json_decref(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),           cmocka_unit_test(extra_env_pairs),
		cmocka_unit_test(edges),
		cmocka_unit_test(env_object),      cmocka_unit_test(env_flags),
		cmocka_unit_test(onstart_script),  cmocka_unit_test(tree),
		cmocka_unit_test(instance_mapping),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
