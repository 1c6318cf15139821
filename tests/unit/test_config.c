/* test_config.c: settings precedence (flags > environment > file >
 * defaults), the config file format (keys, comments, quotes, bind lines,
 * bad lines with their line numbers), flag validation, and the rule that no
 * flag takes a key's value.  Each test runs with a fresh temporary HOME and
 * XDG_CONFIG_HOME. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "base/util.h"

static char tmpdir[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Write $XDG_CONFIG_HOME/rentop/config. */
static void write_config(const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/xdg/rentop", tmpdir);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/xdg/rentop/config", tmpdir);
	write_file(p, text);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rentop-test-config-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	char p[512];
	snprintf(p, sizeof p, "%s/xdg", tmpdir);
	mkdir(p, 0700);
	setenv("HOME", tmpdir, 1);
	setenv("XDG_CONFIG_HOME", p, 1);
	unsetenv("VAST_URL");
	unsetenv("NO_COLOR");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* config_load with argv "rentop" + the NULL-terminated arguments. */
static int load_args(struct config *c, char *err, size_t n, ...)
{
	char *av[32] = {"rentop"};
	int ac = 1;
	va_list ap;
	va_start(ap, n);
	for (char *a; ac < 31 && (a = va_arg(ap, char *)) != NULL;)
		av[ac++] = a;
	va_end(ap);
	return config_load(c, ac, av, err, n);
}

#define LOAD(c, err, ...) load_args((c), (err), sizeof(err), __VA_ARGS__, (char *)NULL)

static void defaults(void **state)
{
	(void)state;
	struct config c;
	char err[300];
	char *av[] = {"rentop"};
	assert_int_equal(config_load(&c, 1, av, err, sizeof err), 0);
	assert_string_equal(c.base_url, "https://console.vast.ai");
	assert_string_equal(c.run_url, "https://run.vast.ai");
	assert_int_equal(c.refresh_s, 10);
	assert_int_equal(c.slow_refresh_s, 30);
	assert_true(c.bell);
	assert_false(c.read_only);
	assert_false(c.no_color);
	assert_string_equal(c.theme, "default");
	assert_string_equal(c.ssh_command, "ssh");
	assert_int_equal(c.notify_out, NOTIFY_OUT_BELL); /* today's bell */
	assert_int_equal(c.notify_kinds, NOTIFY_KINDS_ALL);
	assert_null(c.notify_command);
	assert_true(c.notify_timeout_s == 30);
	assert_int_equal(c.dump, DUMP_NONE);
	assert_null(c.config_path); /* no file: fine */
	char want[512];
	snprintf(want, sizeof want, "%s/xdg/vastai", tmpdir);
	assert_string_equal(c.vast_config_dir, want);
	config_free(&c);
}

/* The idle watch's keys: defaults, values, bounds, the exempt list. */
static void idle_keys(void **state)
{
	(void)state;
	struct config c;
	char err[300];
	char *av[] = {"rentop"};
	assert_int_equal(config_load(&c, 1, av, err, sizeof err), 0);
	assert_true(c.idle_util == 5 && c.idle_minutes == 30 && c.hot_temp == 85 && c.disk_full == 90);
	assert_null(c.idle_exempt);
	config_free(&c);
	assert_true(c.idle_spend_limit == 0);
	write_config("idle_util = 2.5\nidle_minutes = 90\nhot_temp = 0\ndisk_full = 95\n"
		     "idle_exempt = 123, nightly\nidle_spend_limit = 2.5\n");
	assert_int_equal(config_load(&c, 1, av, err, sizeof err), 0);
	assert_true(c.idle_spend_limit == 2.5);
	assert_true(c.idle_util == 2.5 && c.idle_minutes == 90 && c.hot_temp == 0 && c.disk_full == 95);
	assert_string_equal(c.idle_exempt, "123, nightly");
	config_free(&c);
	static const char *const bad[] = { "idle_util = 101\n", "idle_minutes = 0\n",
					   "hot_temp = -1\n", "disk_full = x\n",
					   "idle_spend_limit = -1\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		write_config(bad[i]);
		assert_int_equal(config_load(&c, 1, av, err, sizeof err), 2);
		assert_non_null(strstr(err, "config:1:"));
		config_free(&c);
	}
}

static void file_keys_and_binds(void **state)
{
	(void)state;
	write_config("# rentop config\n"
		     "\n"
		     "  url = http://127.0.0.1:9999  \n"
		     "refresh=20\n"
		     "theme = \"light\"\n"
		     "read_only = yes\n"
		     "no_color = on\n"
		     "ascii = 1\n"
		     "bell = false\n"
		     "ssh_command = ssh -A\n"
		     "api_key_file = ~/keyfile\n"
		     "timeout = 2.5\n"
		     "bind x destroy\n"
		     "bind instances C-d destroy\n"
		     "   # indented comment\n"
		     "bind instances\td  none\n");
	struct config c;
	char err[300];
	char *av[] = {"rentop"};
	assert_int_equal(config_load(&c, 1, av, err, sizeof err), 0);
	assert_non_null(c.config_path);
	assert_string_equal(c.base_url, "http://127.0.0.1:9999");
	/* off the default service, the run URL follows the base */
	assert_string_equal(c.run_url, "http://127.0.0.1:9999");
	assert_int_equal(c.refresh_s, 20);
	assert_int_equal(c.slow_refresh_s, 30);
	assert_string_equal(c.theme, "light");
	assert_true(c.read_only && c.no_color && c.ascii);
	assert_false(c.bell);
	assert_string_equal(c.ssh_command, "ssh -A");
	char want[512];
	snprintf(want, sizeof want, "%s/keyfile", tmpdir);
	assert_string_equal(c.api_key_file, want);
	assert_true(c.total_timeout_s > 2.49 && c.total_timeout_s < 2.51);
	assert_int_equal(c.nbinds, 3);
	assert_string_equal(c.binds[0].context, "");
	assert_string_equal(c.binds[0].key, "x");
	assert_string_equal(c.binds[0].action, "destroy");
	assert_string_equal(c.binds[1].context, "instances");
	assert_string_equal(c.binds[1].key, "C-d");
	assert_string_equal(c.binds[2].key, "d");
	assert_string_equal(c.binds[2].action, "none");
	config_free(&c);
}

static void inline_comments(void **state)
{
	(void)state;
	write_config("refresh = 15   # seconds\n"
		     "ssh_command = \"ssh -o 'x #y'\"  # quoted hash kept\n"
		     "theme = solarized-dark#no blank, not a comment\n"
		     "bind D none\t# unbind destroy\n"
		     "bind instances \"#\" help # the hash key, quoted\n");
	struct config c;
	char err[300];
	char *av[] = {"rentop"};
	assert_int_equal(config_load(&c, 1, av, err, sizeof err), 0);
	assert_int_equal(c.refresh_s, 15);
	assert_string_equal(c.ssh_command, "ssh -o 'x #y'");
	assert_string_equal(c.theme, "solarized-dark#no blank, not a comment");
	assert_int_equal(c.nbinds, 2);
	assert_string_equal(c.binds[0].key, "D");
	assert_string_equal(c.binds[0].action, "none");
	assert_string_equal(c.binds[1].context, "instances");
	assert_string_equal(c.binds[1].key, "#");
	assert_string_equal(c.binds[1].action, "help");
	config_free(&c);
}

static void bad_lines(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{"url = https://x\nfrobnicate = 1\n", "config:2: unknown key 'frobnicate'"},
		{"# c\n\nrefresh = 1\n", "config:3: refresh must be"},
		{"refresh = 3601\n", "config:1: refresh"},
		{"refresh = ten\n", "config:1: refresh"},
		{"bell = maybe\n", "config:1: bell must be true or false"},
		{"just some words\n", "config:1: expected 'key = value'"},
		{"bind x\n", "config:1: bind needs"},
		{"bind a b c d\n", "config:1: bind needs"},
		{"\n\n\nbind x de$troy\n", "config:4: bind: bad action name"},
		{"url =\n", "config:1: url needs a value"},
		{"notify = bell, osc99\n", "config:1: notify: unknown word 'osc99'"},
		{"notify_kinds = failed,idel\n", "config:1: notify_kinds: unknown word 'idel'"},
		{"notify_command = curl 'https://x\n", "config:1: notify_command: an unterminated ' quote"},
		{"notify_timeout = 0\n", "config:1: notify_timeout must be seconds"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct config c;
		char err[300];
		memset(&c, 0, sizeof c);
		c.base_url = xstrdup("x");
		int rc = config_parse_text(&c, cases[i].text, "config", err, sizeof err);
		assert_int_equal(rc, 2);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
			fail_msg("case %zu: got '%s', want prefix '%s'", i, err, cases[i].want);
		config_free(&c);
	}
	/* through config_load too */
	write_config("ok = no\n");
	struct config c;
	char err[300];
	char *av[] = {"rentop"};
	assert_int_equal(config_load(&c, 1, av, err, sizeof err), 2);
	assert_string_equal(err, "config:1: unknown key 'ok'");
	config_free(&c);
}

/* The notification keys (issue 25): lists of words, a command checked
 * for its quoting at load. */
static void notify_keys(void **state)
{
	(void)state;
	struct config c;
	char err[300];
	memset(&c, 0, sizeof c);
	assert_int_equal(config_parse_text(&c,
					   "notify = osc9,  osc777\n"
					   "notify_kinds = failed offline, tfa\n"
					   "notify_command = notify-send -u critical 'rentop alert'\n"
					   "notify_timeout = 5\n",
					   "config", err, sizeof err), 0);
	assert_int_equal(c.notify_out, NOTIFY_OUT_OSC9 | NOTIFY_OUT_OSC777);
	assert_int_equal(c.notify_kinds, (1u << NK_FAILED) | (1u << NK_OFFLINE) | (1u << NK_TFA));
	assert_string_equal(c.notify_command, "notify-send -u critical 'rentop alert'");
	assert_true(c.notify_timeout_s == 5);
	assert_int_equal(config_parse_text(&c, "notify = none\nnotify_kinds = all\nnotify_command =\n",
					   "config", err, sizeof err), 0);
	assert_int_equal(c.notify_out, 0);
	assert_int_equal(c.notify_kinds, NOTIFY_KINDS_ALL);
	assert_null(c.notify_command);
	assert_int_equal(config_parse_text(&c, "notify_kinds = none\nnotify = bell\n", "config", err,
					   sizeof err), 0);
	assert_int_equal(c.notify_kinds, 0);
	assert_int_equal(c.notify_out, NOTIFY_OUT_BELL);
	/* every kind has its word */
	for (int k = 0; k < NK__COUNT; k++) {
		char line[64];
		snprintf(line, sizeof line, "notify_kinds = %s\n", config_notify_kind_name((enum notify_kind)k));
		assert_int_equal(config_parse_text(&c, line, "config", err, sizeof err), 0);
		assert_int_equal(c.notify_kinds, 1u << k);
	}
	config_free(&c);
}

static void precedence(void **state)
{
	(void)state;
	write_config("url = https://file.example\nrefresh = 20\nrun_url = https://run.file\n");
	struct config c;
	char err[300];
	/* file only */
	assert_int_equal(LOAD(&c, err, "--json", "--dump", "user"), 0);
	assert_string_equal(c.base_url, "https://file.example");
	assert_string_equal(c.run_url, "https://run.file"); /* set explicitly: kept */
	config_free(&c);
	/* env beats file */
	setenv("VAST_URL", "https://env.example/", 1);
	assert_int_equal(LOAD(&c, err, "--refresh", "30"), 0);
	assert_string_equal(c.base_url, "https://env.example"); /* trailing slash dropped */
	assert_int_equal(c.refresh_s, 30);                      /* flag beats file */
	config_free(&c);
	/* flag beats env */
	assert_int_equal(LOAD(&c, err, "--url=https://flag.example", "--run-url",
			      "https://run.flag"),
			 0);
	assert_string_equal(c.base_url, "https://flag.example");
	assert_string_equal(c.run_url, "https://run.flag");
	config_free(&c);
	unsetenv("VAST_URL");
	/* NO_COLOR (non-empty) sets no_color; empty does not */
	setenv("NO_COLOR", "", 1);
	assert_int_equal(LOAD(&c, err, "--theme", "x"), 0);
	assert_false(c.no_color);
	config_free(&c);
	setenv("NO_COLOR", "1", 1);
	assert_int_equal(LOAD(&c, err, "--theme", "x"), 0);
	assert_true(c.no_color);
	config_free(&c);
	unsetenv("NO_COLOR");
}

static void explicit_config_file(void **state)
{
	(void)state;
	char p[512];
	snprintf(p, sizeof p, "%s/other.conf", tmpdir);
	write_file(p, "refresh = 7\n");
	write_config("refresh = 20\n");
	struct config c;
	char err[300];
	assert_int_equal(LOAD(&c, err, "--config", p), 0);
	assert_int_equal(c.refresh_s, 7);
	config_free(&c);
	/* a missing explicit file is an error; a missing default one is not */
	snprintf(p, sizeof p, "%s/missing.conf", tmpdir);
	assert_int_equal(LOAD(&c, err, "--config", p), 2);
	assert_non_null(strstr(err, "missing.conf"));
	config_free(&c);
	/* an error in an explicit file names it */
	snprintf(p, sizeof p, "%s/bad.conf", tmpdir);
	write_file(p, "\nbogus\n");
	assert_int_equal(LOAD(&c, err, "--config", p), 2);
	assert_non_null(strstr(err, "config:2:"));
	assert_non_null(strstr(err, "bad.conf"));
	config_free(&c);
}

static void flags(void **state)
{
	(void)state;
	struct config c;
	char err[300];
	assert_int_equal(LOAD(&c, err, "--dump", "instances", "--json", "--read-only",
			      "--no-color", "--ascii", "--no-bell", "--log", "/tmp/x.log",
			      "--timeout", "3", "--connect-timeout", "1", "--page-rate", "0"),
			 0);
	assert_int_equal(c.dump, DUMP_INSTANCES);
	assert_true(c.dump_json && c.read_only && c.no_color && c.ascii && !c.bell);
	assert_string_equal(c.log_path, "/tmp/x.log");
	assert_true(c.total_timeout_s == 3 && c.connect_timeout_s == 1);
	assert_true(c.page_rate == 0);
	assert_int_equal(c.log_lines, 10000); /* the default */
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--log-lines", "500"), 0);
	assert_int_equal(c.log_lines, 500);
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--log-lines=1000000"), 0);
	assert_int_equal(c.log_lines, 1000000);
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--dump", "offers", "--query", "num_gpus>=2"), 0);
	assert_int_equal(c.dump, DUMP_OFFERS);
	assert_string_equal(c.dump_query, "num_gpus>=2");
	assert_null(c.test_clock); /* the test clock only when asked */
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--test-clock", "/tmp/clock"), 0);
	assert_string_equal(c.test_clock, "/tmp/clock");
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--test-clock="), 2);
	assert_non_null(strstr(err, "--test-clock needs a FIFO"));
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--version"), 0);
	assert_true(c.want_version);
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--help"), 0);
	assert_true(c.want_help);
	config_free(&c);

	static const char *const bad[][3] = {
		{"--refresh", "1", "--refresh: must be"},
		{"--refresh", "3601", "--refresh: must be"},
		{"--dump", "everything", "--dump: 'everything' is not one of"},
		{"--frob", "", "unknown option '--frob'"},
		{"--timeout", "0", "--timeout: must be"},
		{"--log-lines", "99", "--log-lines: must be a number of lines, 100-1000000"},
		{"--log-lines", "2000000", "--log-lines: must be"},
		{"--log-lines", "lots", "--log-lines: must be"},
		{"positional", "", "unexpected argument"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *av[] = {"rentop", (char *)bad[i][0], (char *)bad[i][1]};
		int ac = bad[i][1][0] ? 3 : 2;
		assert_int_equal(config_load(&c, ac, av, err, sizeof err), 2);
		if (!strstr(err, bad[i][2]))
			fail_msg("%s: got '%s'", bad[i][0], err);
		config_free(&c);
	}
	/* a flag that needs a value at the end */
	assert_int_equal(LOAD(&c, err, "--url"), 2);
	assert_string_equal(err, "--url needs a value");
	config_free(&c);
	/* --json and --query need --dump */
	assert_int_equal(LOAD(&c, err, "--json"), 2);
	assert_string_equal(err, "--json needs --dump");
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--dump", "user", "--query", "x=1"), 2);
	config_free(&c);
	/* boolean flags take no value */
	assert_int_equal(LOAD(&c, err, "--read-only=yes"), 2);
	config_free(&c);
}

static void no_flag_takes_a_key(void **state)
{
	(void)state;
	struct config c;
	char err[300];
	assert_int_equal(LOAD(&c, err, "--api-key", "SECRETKEY123"), 2);
	assert_null(strstr(err, "SECRETKEY123"));
	assert_non_null(strstr(err, "--api-key-file"));
	config_free(&c);
	assert_int_equal(LOAD(&c, err, "--api-key=SECRETKEY123"), 2);
	assert_null(strstr(err, "SECRETKEY123"));
	config_free(&c);
}

static void usage_mentions_every_flag(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	config_usage(f);
	fclose(f);
	static const char *const flags_[] = {
		"--url", "--run-url", "--api-key-file", "--refresh", "--read-only", "--theme",
		"--no-color", "--ascii", "--no-bell", "--config", "--log", "--dump", "--json",
		"--query", "--version", "--help", "--timeout"};
	for (size_t i = 0; i < sizeof flags_ / sizeof *flags_; i++)
		if (!strstr(buf, flags_[i]))
			fail_msg("usage lacks %s", flags_[i]);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(file_keys_and_binds, setup, teardown),
		cmocka_unit_test_setup_teardown(idle_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(inline_comments, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(precedence, setup, teardown),
		cmocka_unit_test_setup_teardown(explicit_config_file, setup, teardown),
		cmocka_unit_test_setup_teardown(flags, setup, teardown),
		cmocka_unit_test_setup_teardown(notify_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(no_flag_takes_a_key, setup, teardown),
		cmocka_unit_test_setup_teardown(usage_mentions_every_flag, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
