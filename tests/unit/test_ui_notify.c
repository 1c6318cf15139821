/* test_ui_notify.c: a notification's outputs (ui/notify_out.c, issue 25):
 * notify_command started without a shell gets the event's JSON on its
 * standard input and is reaped without being waited for; a failing one
 * (exit status, no such program, past its timeout: killed) is said once
 * until it succeeds again, while later notifications still run it; the
 * OSC 9 / 777 bytes reach the terminal (tmux-wrapped under $TMUX) only for
 * the outputs and kinds switched on; the bell is asked for when on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/util.h"
#include "notify_out.h"
#include "state/instance.h"
#include "state/model.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/rentop-notify.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void cfg_init(struct config *c, const char *command, unsigned outs)
{
	memset(c, 0, sizeof *c);
	c->bell = true;
	c->notify_out = outs;
	c->notify_kinds = NOTIFY_KINDS_ALL;
	c->notify_command = command ? strdup(command) : NULL;
	c->notify_timeout_s = 30;
}

static struct event failed_ev(long id, const char *text)
{
	struct event e;
	memset(&e, 0, sizeof e);
	e.when = util_now();
	e.level = EV_ERROR;
	e.job_kind = -1;
	e.instance_id = id;
	e.flags = EVF_FAILED_INSTANCE;
	snprintf(e.text, sizeof e.text, "%s", text);
	return e;
}

/* Tick until no command runs (5 s at most). */
static void settle(struct notify_out *o)
{
	for (int i = 0; i < 500 && notify_out_running(o); i++) {
		usleep(10000);
		notify_out_tick(o);
	}
	assert_int_equal(notify_out_running(o), 0);
}

/* How many events of m hold needle. */
static int said(struct model *m, const char *needle, char *last, size_t n)
{
	struct event buf[64];
	size_t k = model_events(m, 0, buf, 64);
	int c = 0;
	for (size_t i = 0; i < k; i++)
		if (strstr(buf[i].text, needle)) {
			c++;
			if (last)
				snprintf(last, n, "%s", buf[i].text);
		}
	return c;
}

static void test_command_gets_json(void **state)
{
	(void)state;
	char out[128], cmd[256];
	snprintf(out, sizeof out, "%s/got.json", dir);
	snprintf(cmd, sizeof cmd, "tee '%s'", out); /* stdin to the file; its stdout is /dev/null */
	struct config c;
	cfg_init(&c, cmd, NOTIFY_OUT_BELL);
	struct model *m = model_new();
	struct notify_out *o = notify_out_new(&c, m);
	struct event e = failed_ev(42, "instance 42 (x) is crashed: destroy it and rent another offer");
	assert_true(notify_out_event(o, &e)); /* the bell too */
	assert_int_equal(notify_out_running(o), 1);
	assert_true(notify_out_next_wake(o) > 0);
	settle(o);
	assert_true(notify_out_next_wake(o) < 0);
	json_error_t err;
	json_t *j = json_load_file(out, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "kind")), "failed");
	assert_int_equal(json_integer_value(json_object_get(j, "instance_id")), 42);
	assert_string_equal(json_string_value(json_object_get(j, "text")), e.text);
	json_decref(j);
	/* the same again within the hour: nothing started */
	unlink(out);
	assert_false(notify_out_event(o, &e));
	assert_int_equal(notify_out_running(o), 0);
	assert_int_equal(said(m, "notify_command", NULL, 0), 0); /* a success says nothing */
	/* no bell when the config's bell is off */
	c.bell = false;
	struct event e2 = failed_ev(43, "instance 43 is crashed");
	assert_false(notify_out_event(o, &e2));
	settle(o);
	notify_out_free(o);
	model_free(m);
	free(c.notify_command);
}

/* A command failing on events without "ok" in them: said once, then again
 * only after a success; every notification still runs it. */
static void test_failure_said_once(void **state)
{
	(void)state;
	char cnt[128], cmd[300];
	snprintf(cnt, sizeof cnt, "%s/runs", dir);
	snprintf(cmd, sizeof cmd, "sh -c 'echo run >> \"$0\"; grep -q good' '%s'", cnt);
	struct config c;
	cfg_init(&c, cmd, 0);
	struct model *m = model_new();
	struct notify_out *o = notify_out_new(&c, m);
	const char *texts[] = { "bad 1", "bad 2", "bad 3", "good 4", "bad 5" };
	for (long i = 0; i < 5; i++) {
		struct event e = failed_ev(100 + i, texts[i]);
		assert_false(notify_out_event(o, &e)); /* no bell output */
		settle(o);
		if (i == 2)
			assert_int_equal(said(m, "notify_command", NULL, 0), 1);
	}
	char last[300];
	assert_int_equal(said(m, "notify_command", last, sizeof last), 2);
	assert_string_equal(last, "notify_command sh failed: exit status 1 (said once: later failures "
				  "are not, until it succeeds)");
	assert_null(strstr(last, "grep")); /* the program's name, never its arguments */
	FILE *f = fopen(cnt, "r");
	assert_non_null(f);
	int runs = 0;
	char line[16];
	while (fgets(line, sizeof line, f))
		runs++;
	fclose(f);
	assert_int_equal(runs, 5); /* tried once per notification, never again */
	notify_out_free(o);
	model_free(m);
	free(c.notify_command);
}

static void test_no_such_program(void **state)
{
	(void)state;
	struct config c;
	cfg_init(&c, "/nonexistent/rentop-notify --token s3cret", 0);
	struct model *m = model_new();
	struct notify_out *o = notify_out_new(&c, m);
	struct event e = failed_ev(1, "one");
	notify_out_event(o, &e);
	e = failed_ev(2, "two");
	notify_out_event(o, &e);
	assert_int_equal(notify_out_running(o), 0);
	char last[300];
	assert_int_equal(said(m, "notify_command", last, sizeof last), 1);
	assert_non_null(strstr(last, "rentop-notify cannot be run: No such file or directory"));
	assert_null(strstr(last, "s3cret"));
	notify_out_free(o);
	model_free(m);
	free(c.notify_command);
}

/* A command still running past notify_timeout is ended (its group), and
 * that is a failure. */
static void test_timeout_kills(void **state)
{
	(void)state;
	struct config c;
	cfg_init(&c, "sleep 60", 0);
	c.notify_timeout_s = 5;
	struct model *m = model_new();
	struct notify_out *o = notify_out_new(&c, m);
	struct event e = failed_ev(1, "one");
	notify_out_event(o, &e);
	notify_out_tick(o);
	assert_int_equal(notify_out_running(o), 1);
	double at = notify_out_next_wake(o);
	assert_true(at > 0 && at <= util_mono() + 0.25); /* reaped on a short tick */
	usleep(100000);
	notify_out_tick(o);
	assert_int_equal(notify_out_running(o), 1); /* not yet due */
	util_clock_advance(6);
	notify_out_tick(o); /* SIGTERM */
	settle(o);
	char last[300];
	assert_int_equal(said(m, "notify_command", last, sizeof last), 1);
	assert_non_null(strstr(last, "notify_command sleep timed out after 5 s: ended"));
	notify_out_free(o);
	model_free(m);
	free(c.notify_command);
}

/* One instance as the mapper makes it (the strings the model reads). */
static struct instance *one_inst(long id, const char *actual)
{
	struct instance *x = calloc(1, sizeof *x);
	x->id = id;
	x->label = strdup("trainer");
	x->actual_status = strdup(actual);
	x->intended_status = strdup("running");
	x->cur_state = strdup("");
	x->next_state = strdup("");
	x->status_msg = strdup("OOM");
	x->gpu_name = strdup("RTX 4090");
	x->num_gpus = 2;
	x->state = instance_derive_state(actual, "running", "", "");
	x->dph_total = 0.5;
	x->gpu_util = x->gpu_temp = x->disk_usage = x->bid_price = NAN;
	return x;
}

/* The model's own failure event, through to the command: the instance's
 * fields are those of the model's current snapshot (its new state). */
static void test_model_failure_to_json(void **state)
{
	(void)state;
	char out[128], cmd[256];
	snprintf(out, sizeof out, "%s/model.json", dir);
	snprintf(cmd, sizeof cmd, "tee '%s'", out);
	struct config c;
	cfg_init(&c, cmd, 0);
	struct model *m = model_new();
	model_set_instances(m, one_inst(77, "running"), 1, util_now());
	model_set_instances(m, one_inst(77, "exited"), 1, util_now());
	struct notify_out *o = notify_out_new(&c, m);
	struct event buf[16];
	size_t n = model_events(m, 0, buf, 16);
	int failed = 0;
	for (size_t i = 0; i < n; i++) {
		failed += (buf[i].flags & EVF_FAILED_INSTANCE) != 0;
		notify_out_event(o, &buf[i]); /* the "running -> crashed" state change: no kind */
	}
	assert_int_equal(failed, 1);
	assert_int_equal(notify_out_running(o), 1);
	settle(o);
	json_error_t err;
	json_t *j = json_load_file(out, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "kind")), "failed");
	assert_string_equal(json_string_value(json_object_get(j, "state")), "crashed");
	assert_string_equal(json_string_value(json_object_get(j, "label")), "trainer");
	assert_string_equal(json_string_value(json_object_get(j, "gpu")), "2x RTX 4090");
	assert_true(json_real_value(json_object_get(j, "price_per_hour")) == 0.5);
	json_decref(j);
	notify_out_free(o);
	model_free(m);
	free(c.notify_command);
}

/* The command's environment has no VAST_API_KEY (the rest is kept). */
static void test_no_key_in_env(void **state)
{
	(void)state;
	char out[128], cmd[256];
	snprintf(out, sizeof out, "%s/env", dir);
	snprintf(cmd, sizeof cmd, "sh -c 'env > \"$0\"' '%s'", out);
	setenv("VAST_API_KEY", "k-0123456789abcdef", 1);
	setenv("RENTOP_NOTIFY_PROBE", "kept", 1);
	struct config c;
	cfg_init(&c, cmd, 0);
	struct model *m = model_new();
	struct notify_out *o = notify_out_new(&c, m);
	struct event e = failed_ev(9, "nine");
	notify_out_event(o, &e);
	settle(o);
	unsetenv("VAST_API_KEY");
	FILE *f = fopen(out, "r");
	assert_non_null(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "RENTOP_NOTIFY_PROBE=kept"));
	assert_null(strstr(buf, "VAST_API_KEY"));
	assert_null(strstr(buf, "0123456789abcdef"));
	notify_out_free(o);
	model_free(m);
	free(c.notify_command);
}

/* What the outputs write to the terminal (stdout into a file here). */
static char *terminal_bytes(const struct config *c, const struct event *e, const char *tmux)
{
	char path[128];
	snprintf(path, sizeof path, "%s/tty", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	if (tmux)
		setenv("TMUX", tmux, 1);
	else
		unsetenv("TMUX");
	struct model *m = model_new();
	struct notify_out *o = notify_out_new(c, m);
	notify_out_event(o, e);
	notify_out_free(o);
	model_free(m);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	unsetenv("TMUX");
	static char buf[1024];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_terminal_sequences(void **state)
{
	(void)state;
	struct config c;
	struct event e = failed_ev(5, "instance 5 is crashed");
	cfg_init(&c, NULL, NOTIFY_OUT_OSC9);
	assert_string_equal(terminal_bytes(&c, &e, NULL), "\033]9;rentop: instance 5 is crashed\a");
	assert_string_equal(terminal_bytes(&c, &e, "/tmp/tmux-1/default,1,0"),
			    "\033Ptmux;\033\033]9;rentop: instance 5 is crashed\a\033\\");
	cfg_init(&c, NULL, NOTIFY_OUT_OSC9 | NOTIFY_OUT_OSC777);
	assert_string_equal(terminal_bytes(&c, &e, NULL),
			    "\033]9;rentop: instance 5 is crashed\a"
			    "\033]777;notify;rentop: failed;instance 5 is crashed\a");
	/* the bell alone writes nothing itself (curses rings it) */
	cfg_init(&c, NULL, NOTIFY_OUT_BELL);
	assert_string_equal(terminal_bytes(&c, &e, NULL), "");
	/* the kind switched off: nothing */
	cfg_init(&c, NULL, NOTIFY_OUT_OSC9);
	c.notify_kinds = NOTIFY_KINDS_ALL & ~(1u << NK_FAILED);
	assert_string_equal(terminal_bytes(&c, &e, NULL), "");
	/* an event of no kind: nothing */
	c.notify_kinds = NOTIFY_KINDS_ALL;
	e.flags = EVF_STATE | EVF_QUIET;
	assert_string_equal(terminal_bytes(&c, &e, NULL), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_gets_json),
		cmocka_unit_test(test_model_failure_to_json),
		cmocka_unit_test(test_no_key_in_env),
		cmocka_unit_test(test_failure_said_once),
		cmocka_unit_test(test_no_such_program),
		cmocka_unit_test(test_timeout_kills),
		cmocka_unit_test(test_terminal_sequences),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
