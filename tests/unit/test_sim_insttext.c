/* test_sim_insttext.c: rentop-sim's kept instance text (tests/sim/insttext.c,
 * compiled in here: it needs only jansson) against jansson's own dump of
 * the object, byte for byte, across the changes its fingerprint must see
 * without being told: values replaced and changed in place at any depth,
 * keys removed, re-added (moved to the end) and added, a type changed with
 * the same printed digits, -0.0, escapes in keys and strings, the live
 * fields (holes) changing value and type; a random walk of such changes;
 * and the check mode's comparison (abort on other bytes or other JSON). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/insttext.c"

/* o's kept text (through *cache) equals jansson's dump of o. */
static void same(struct inst_text **cache, const json_t *o)
{
	struct tbuf b = { 0 };
	tb_put(&b, "[", 1); /* not at the buffer's start */
	insttext_put(cache, o, &b);
	char *fresh = json_dumps(o, SIM_JSON_FLAGS);
	assert_non_null(fresh);
	assert_int_equal(b.n - 1, strlen(fresh));
	assert_memory_equal(b.p + 1, fresh, b.n - 1);
	free(fresh);
	free(b.p);
}

static json_t *instance(void)
{
	json_t *o = json_loads("{\"id\":9108074,\"gpu_name\":\"RTX 3090\",\"duration\":10930472.7260032,"
			       "\"extra_env\":[[\"HF_HOME\",\"/workspace/.hf\"],[\"A\",\"1\"]],\"gpu_util\":20,"
			       "\"ports\":{\"22/tcp\":[{\"HostIp\":\"0.0.0.0\",\"HostPort\":\"59841\"}]},"
			       "\"gpu_temp\":53,\"uptime_mins\":1930.91,\"dph_total\":0.210433333333333,"
			       "\"label\":null,\"is_bid\":false,\"cur_load\":0.6,\"disk_space\":64.0}",
			       0, NULL);
	assert_non_null(o);
	return o;
}

static void changes_are_seen(void **state)
{
	(void)state;
	struct inst_text *t = NULL;
	json_t *o = instance();
	same(&t, o);
	same(&t, o); /* kept */
	/* live fields: in place, replaced, another type */
	json_real_set(json_object_get(o, "duration"), 10930400.5);
	json_integer_set(json_object_get(o, "gpu_util"), 99);
	same(&t, o);
	json_object_set_new(o, "gpu_util", json_null());
	json_object_set_new(o, "uptime_mins", json_null());
	same(&t, o);
	json_object_set_new(o, "gpu_util", json_real(1e300));
	same(&t, o);
	/* nested values changed in place */
	json_string_set(json_array_get(json_array_get(json_object_get(o, "extra_env"), 1), 1), "2");
	same(&t, o);
	json_t *port = json_array_get(json_object_get(json_object_get(o, "ports"), "22/tcp"), 0);
	json_string_set(json_object_get(port, "HostPort"), "59842");
	same(&t, o);
	json_object_set_new(port, "HostIp", json_string("::"));
	same(&t, o);
	/* same length, other bytes */
	json_string_set(json_object_get(o, "gpu_name"), "RTX 3091");
	same(&t, o);
	/* the same digits, another type; -0.0 */
	json_object_set_new(o, "disk_space", json_integer(64));
	same(&t, o);
	json_object_set_new(o, "disk_space", json_real(0.0));
	same(&t, o);
	json_object_set_new(o, "disk_space", json_real(-0.0));
	same(&t, o);
	/* a key removed, re-added at the end, a new one; a live key moved */
	json_object_del(o, "label");
	same(&t, o);
	json_object_set_new(o, "label", json_string("back"));
	same(&t, o);
	json_object_del(o, "duration");
	same(&t, o);
	json_object_set_new(o, "duration", json_real(5.5));
	same(&t, o);
	/* escapes in keys and values, a key with a NUL byte, a live key's name
	 * as a nested key (not a hole there) */
	json_object_set_new(o, "we\"ird\nkey\u00e9", json_string("tab\there \u2028 \x01"));
	json_object_setn_new(o, "nul\0key", 7, json_true());
	json_object_set_new(port, "duration", json_integer(7));
	same(&t, o);
	json_integer_set(json_object_get(port, "duration"), 8);
	same(&t, o);
	/* emptied */
	json_object_clear(o);
	same(&t, o);
	insttext_free(t);
	json_decref(o);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static json_t *random_value(int depth)
{
	switch (next() % (depth > 2 ? 5 : 7)) {
	case 0: return json_integer((json_int_t)(next() % 2000) - 1000);
	case 1: return json_real((double)(int64_t)(next() % 2000000) / 997.0);
	case 2: return json_string(next() % 2 ? "x" : "y");
	case 3: return json_null();
	case 4: return json_boolean(next() % 2);
	case 5: {
		json_t *a = json_array();
		for (int i = (int)(next() % 3); i > 0; i--)
			json_array_append_new(a, random_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (int i = (int)(next() % 3); i > 0; i--) {
			char k[8];
			snprintf(k, sizeof k, "k%d", (int)(next() % 4));
			json_object_set_new(o, k, random_value(depth + 1));
		}
		return o;
	}
	}
}

/* Some value inside v (v itself included), for changing in place. */
static json_t *random_inside(json_t *v)
{
	while (next() % 3) {
		json_t *c = NULL;
		if (json_is_array(v) && json_array_size(v))
			c = json_array_get(v, next() % json_array_size(v));
		else if (json_is_object(v) && json_object_size(v)) {
			size_t n = next() % json_object_size(v);
			void *it = json_object_iter(v);
			while (n--)
				it = json_object_iter_next(v, it);
			c = json_object_iter_value(it);
		}
		if (!c)
			break;
		v = c;
	}
	return v;
}

static void random_walk(void **state)
{
	(void)state;
	static const char *const keys[] = { "id", "duration", "gpu_util", "label", "ports", "cur_load",
					    "extra_env", "credit_balance", "uptime_mins", "x" };
	struct inst_text *t = NULL;
	json_t *o = json_object();
	for (int step = 0; step < 20000; step++) {
		const char *k = keys[next() % (sizeof keys / sizeof *keys)];
		json_t *v = json_object_get(o, k);
		switch (next() % 6) {
		case 0: json_object_set_new(o, k, random_value(0)); break;
		case 1: json_object_del(o, k); break;
		case 2: /* in place, at some depth */
			if (v) {
				json_t *x = random_inside(v);
				if (json_is_integer(x))
					json_integer_set(x, json_integer_value(x) + 1);
				else if (json_is_real(x))
					json_real_set(x, json_real_value(x) * 0.5 + 1);
				else if (json_is_string(x))
					json_string_set(x, json_string_value(x)[0] == 'x' ? "y" : "x");
				else if (json_is_array(x))
					json_array_append_new(x, random_value(2));
				else if (json_is_object(x))
					json_object_set_new(x, "k9", random_value(2));
			}
			break;
		default: break; /* unchanged: from the kept text */
		}
		same(&t, o);
	}
	insttext_free(t);
	json_decref(o);
}

/* insttext_check in a child: its exit status or signal. */
static int check_in_child(const char *a, const char *b)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		insttext_check("test", a, strlen(a), b, strlen(b));
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFSIGNALED(st) ? -WTERMSIG(st) : WEXITSTATUS(st);
}

static void check_aborts_on_a_difference(void **state)
{
	(void)state;
	assert_int_equal(check_in_child("{\"a\":1}", "{\"a\":1}"), 0);
	assert_int_equal(check_in_child("{\"a\":1}", "{\"a\":2}"), -SIGABRT);
	assert_int_equal(check_in_child("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}"), -SIGABRT); /* bytes */
	assert_int_equal(check_in_child("{\"a\":1.0}", "{\"a\":1}"), -SIGABRT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(changes_are_seen),
		cmocka_unit_test(random_walk),
		cmocka_unit_test(check_aborts_on_a_difference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
