/* test_ssh_route.c: the choice between direct and proxy ssh (issue 12):
 * each route's address, the route `x`/`y` take under `ssh = ask|direct|proxy`
 * (ask only when both exist; a missing preferred route gives way), the
 * config key and --ssh flag, and the choice dialog's keys (direct first,
 * d/p take an answer at once, Esc cancels). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "widgets/dialog.h"
#include "keymap.h"
#include "state/model.h"

static struct instance both(void)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = 9108111;
	x.public_ip = (char *)"203.0.113.7";
	x.direct_ssh_port = 41022;
	x.ssh_host = (char *)"ssh5.vast.ai";
	x.ssh_port = 12345;
	return x;
}

static void test_routes(void **state)
{
	(void)state;
	struct instance x = both();
	char host[64];
	int port = 0;
	assert_true(instance_ssh_route(&x, SSH_DIRECT, host, sizeof host, &port));
	assert_string_equal(host, "203.0.113.7");
	assert_int_equal(port, 41022);
	assert_true(instance_ssh_route(&x, SSH_PROXY, host, sizeof host, &port));
	assert_string_equal(host, "ssh5.vast.ai");
	assert_int_equal(port, 12345);
	x.direct_ssh_port = 0; /* no ports map: no direct route */
	assert_false(instance_ssh_route(&x, SSH_DIRECT, host, sizeof host, &port));
	x = both();
	x.ssh_host = (char *)"";
	assert_false(instance_ssh_route(&x, SSH_PROXY, host, sizeof host, &port));
}

static void test_pick(void **state)
{
	(void)state;
	struct instance x = both();
	enum ssh_route r = SSH_DIRECT;
	/* both exist: ask asks, a preference is taken as is */
	assert_true(instance_ssh_pick(&x, SSH_ASK, &r));
	assert_int_equal(r, SSH_ASK);
	assert_true(instance_ssh_pick(&x, SSH_DIRECT, &r));
	assert_int_equal(r, SSH_DIRECT);
	assert_true(instance_ssh_pick(&x, SSH_PROXY, &r));
	assert_int_equal(r, SSH_PROXY);
	/* only the proxy: no question, whatever the preference */
	x.public_ip = (char *)"";
	assert_true(instance_ssh_pick(&x, SSH_ASK, &r));
	assert_int_equal(r, SSH_PROXY);
	assert_true(instance_ssh_pick(&x, SSH_DIRECT, &r));
	assert_int_equal(r, SSH_PROXY);
	/* only the direct address */
	x = both();
	x.ssh_port = 0;
	assert_true(instance_ssh_pick(&x, SSH_ASK, &r));
	assert_int_equal(r, SSH_DIRECT);
	assert_true(instance_ssh_pick(&x, SSH_PROXY, &r));
	assert_int_equal(r, SSH_DIRECT);
	/* neither */
	x.public_ip = (char *)"";
	assert_false(instance_ssh_pick(&x, SSH_ASK, &r));
}

static void test_config(void **state)
{
	(void)state;
	setenv("XDG_CONFIG_HOME", "/nonexistent-rentop-test", 1);
	struct config c;
	char err[300];
	char *av0[] = { "rentop", NULL };
	assert_int_equal(config_load(&c, 1, av0, err, sizeof err), 0);
	assert_int_equal(c.ssh_route, SSH_ASK); /* the default asks */
	assert_int_equal(config_parse_text(&c, "ssh = proxy\n", "config", err, sizeof err), 0);
	assert_int_equal(c.ssh_route, SSH_PROXY);
	assert_int_equal(config_parse_text(&c, "ssh = direct  # always\n", "config", err, sizeof err), 0);
	assert_int_equal(c.ssh_route, SSH_DIRECT);
	assert_int_equal(config_parse_text(&c, "ssh = sideways\n", "config", err, sizeof err), 2);
	assert_non_null(strstr(err, "config:1: ssh must be ask, direct or proxy"));
	config_free(&c);
	char *av1[] = { "rentop", "--ssh", "proxy", NULL };
	assert_int_equal(config_load(&c, 3, av1, err, sizeof err), 0);
	assert_int_equal(c.ssh_route, SSH_PROXY);
	config_free(&c);
	char *av2[] = { "rentop", "--ssh=ask", NULL };
	assert_int_equal(config_load(&c, 2, av2, err, sizeof err), 0);
	assert_int_equal(c.ssh_route, SSH_ASK);
	config_free(&c);
	char *av3[] = { "rentop", "--ssh", "maybe", NULL };
	assert_int_equal(config_load(&c, 3, av3, err, sizeof err), 2);
	assert_non_null(strstr(err, "--ssh: must be ask, direct or proxy"));
	config_free(&c);
}

static void test_choice_dialog(void **state)
{
	(void)state;
	struct dialog d;
	dialog_choice(&d, 7, 9108111, "ssh", "direct or proxy?", "Direct", "Proxy");
	assert_true(dialog_open(&d));
	assert_int_equal(d.focus, 0); /* direct first */
	assert_int_equal(dialog_key(&d, '\n'), DLG_SUBMIT);
	assert_int_equal(d.focus, 0);
	/* Tab / Right move to the proxy, Enter takes it */
	dialog_choice(&d, 7, 9108111, "ssh", "direct or proxy?", "Direct", "Proxy");
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(d.focus, 1);
	assert_int_equal(dialog_key(&d, KM_FN(KEY_LEFT)), DLG_CONTINUE);
	assert_int_equal(d.focus, 0);
	assert_int_equal(dialog_key(&d, KM_FN(KEY_RIGHT)), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, '\n'), DLG_SUBMIT);
	assert_int_equal(d.focus, 1);
	/* the first letter takes an answer at once */
	dialog_choice(&d, 7, 9108111, "ssh", "direct or proxy?", "Direct", "Proxy");
	assert_int_equal(dialog_key(&d, 'p'), DLG_SUBMIT);
	assert_int_equal(d.focus, 1);
	assert_int_equal(dialog_key(&d, 'D'), DLG_SUBMIT);
	assert_int_equal(d.focus, 0);
	/* Esc and q cancel; another letter does nothing */
	assert_int_equal(dialog_key(&d, 'z'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, 27), DLG_CANCEL);
	assert_int_equal(dialog_key(&d, 'q'), DLG_CANCEL);
	/* three answers (O's on a failed image pull): Tab cycles over the three,
	 * Right stops at the last, the third's letter takes it */
	dialog_choice3(&d, 7, 9108111, "replace", "fix?", "Fix the image", "Template", "Recycle");
	assert_int_equal(d.nchoice, 3);
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(d.focus, 2);
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(d.focus, 0);
	assert_int_equal(dialog_key(&d, KM_FN(KEY_BTAB)), DLG_CONTINUE);
	assert_int_equal(d.focus, 2);
	assert_int_equal(dialog_key(&d, KM_FN(KEY_RIGHT)), DLG_CONTINUE);
	assert_int_equal(d.focus, 2);
	assert_int_equal(dialog_key(&d, KM_FN(KEY_LEFT)), DLG_CONTINUE);
	assert_int_equal(d.focus, 1);
	assert_int_equal(dialog_key(&d, 'r'), DLG_SUBMIT);
	assert_int_equal(d.focus, 2);
	/* a two-answer choice never reaches a third */
	dialog_choice(&d, 7, 9108111, "ssh", "direct or proxy?", "Direct", "Proxy");
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(d.focus, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_routes),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_choice_dialog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
