/* test_clip.c: what a copy says (issue 12): OSC 52, and under tmux
 * whether set-clipboard lets it through; tmux asked without a shell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip.h"

static void test_advice(void **state)
{
	(void)state;
	assert_string_equal(clip_advice(false, NULL), "");
	assert_string_equal(clip_advice(true, "on"), "");
	assert_non_null(strstr(clip_advice(true, "off"), "set-clipboard off"));
	assert_non_null(strstr(clip_advice(true, "external"), "set -g set-clipboard on"));
	assert_non_null(strstr(clip_advice(true, NULL), "set -g set-clipboard on"));
}

/* Not under tmux: nothing is spawned, nothing said. */
static void test_not_tmux(void **state)
{
	(void)state;
	unsetenv("TMUX");
	char v[16];
	assert_false(clip_tmux_setting(v, sizeof v));
	assert_string_equal(clip_advice_here(), "");
}

/* Under tmux with no tmux to ask (PATH empty): said plainly, no hang. */
static void test_tmux_unreachable(void **state)
{
	(void)state;
	setenv("TMUX", "/nonexistent/sock,1,0", 1);
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", "/nonexistent", 1);
	char v[16];
	assert_false(clip_tmux_setting(v, sizeof v));
	assert_non_null(strstr(clip_advice_here(), "set-clipboard on"));
	if (path) {
		setenv("PATH", path, 1);
		free(path);
	}
	unsetenv("TMUX");
}

/* A real tmux server of our own: its set-clipboard value is read back. */
static void test_tmux_real(void **state)
{
	(void)state;
	char dir[] = "/tmp/rentop-clip.XXXXXX";
	if (!mkdtemp(dir) || system("command -v tmux >/dev/null 2>&1") != 0) {
		skip();
		return;
	}
	char cmd[1024], sock[100], env[160];
	snprintf(sock, sizeof sock, "%s/s", dir);
	snprintf(cmd, sizeof cmd,
		 "tmux -S %s -f /dev/null new -d -s c 'sleep 30' && tmux -S %s set -g set-clipboard off",
		 sock, sock);
	if (system(cmd) != 0) {
		skip();
		return;
	}
	snprintf(env, sizeof env, "%s,1,0", sock);
	setenv("TMUX", env, 1);
	char v[16];
	bool got = clip_tmux_setting(v, sizeof v);
	snprintf(cmd, sizeof cmd, "tmux -S %s set -g set-clipboard on", sock);
	int rc = system(cmd);
	char v2[16];
	bool got2 = clip_tmux_setting(v2, sizeof v2);
	snprintf(cmd, sizeof cmd, "tmux -S %s kill-server; rm -rf %s", sock, dir);
	if (system(cmd) != 0) { /* best effort */
	}
	unsetenv("TMUX");
	assert_true(got);
	assert_string_equal(v, "off");
	assert_int_equal(rc, 0);
	assert_true(got2);
	assert_string_equal(v2, "on");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advice),
		cmocka_unit_test(test_not_tmux),
		cmocka_unit_test(test_tmux_unreachable),
		cmocka_unit_test(test_tmux_real),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
