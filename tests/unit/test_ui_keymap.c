/* test_ui_keymap.c: key names both ways, the default bindings the e2e suite
 * relies on, lookup with the global fallback, and `bind` overrides with
 * their error messages; plus the `:` command parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <string.h>

#include "command.h"
#include "base/config.h"
#include "views/help/help.h"
#include "keymap.h"
#include "view.h"

/* The contexts and actions the views register (view.c), by name. */
#define CTX_INSTANCES keymap_ctx_by_name("instances")
#define CTX_EVENTS keymap_ctx_by_name("events")
#define CTX_DETAIL keymap_ctx_by_name("detail")
#define ACT_DETAIL keymap_action_by_name("detail")
#define ACT_STOP keymap_action_by_name("stop")
#define ACT_START keymap_action_by_name("start")
#define ACT_REBOOT keymap_action_by_name("reboot")
#define ACT_LABEL keymap_action_by_name("label")
#define ACT_DESTROY keymap_action_by_name("destroy")
#define ACT_BID keymap_action_by_name("bid")
#define ACT_PREPAY keymap_action_by_name("prepay")
#define ACT_SSH keymap_action_by_name("ssh")
#define ACT_COPY_SSH keymap_action_by_name("copy-ssh")
#define ACT_VIEW_INSTANCES keymap_action_by_name("view-instances")
#define ACT_VIEW_EVENTS keymap_action_by_name("view-events")

/* The keymap as the app builds it: global defaults, then every view's. */
static void km_default(struct keymap *km)
{
	keymap_init(km);
	view_keys_all(km);
}

static void test_parse_key_names(void **state)
{
	(void)state;
	assert_int_equal(keymap_parse_key("x"), 'x');
	assert_int_equal(keymap_parse_key("$"), '$');
	assert_int_equal(keymap_parse_key("Enter"), '\n');
	assert_int_equal(keymap_parse_key("esc"), 27);
	assert_int_equal(keymap_parse_key("Tab"), '\t');
	assert_int_equal(keymap_parse_key("Space"), ' ');
	assert_int_equal(keymap_parse_key("C-d"), 4);
	assert_int_equal(keymap_parse_key("^L"), 12);
	assert_int_equal(keymap_parse_key("Up"), KM_FN(KEY_UP));
	assert_int_equal(keymap_parse_key("PgDn"), KM_FN(KEY_NPAGE));
	assert_int_equal(keymap_parse_key("F5"), KM_FN(KEY_F(5)));
	assert_int_equal(keymap_parse_key("S-Tab"), KM_FN(KEY_BTAB));
	assert_int_equal(keymap_parse_key("\xc3\xa9"), 0xe9); /* é */
	/* unknown or malformed */
	assert_int_equal(keymap_parse_key(""), -1);
	assert_int_equal(keymap_parse_key("F99"), -1);
	assert_int_equal(keymap_parse_key("xy"), -1);
	assert_int_equal(keymap_parse_key("C-1"), -1);
	assert_int_equal(keymap_parse_key("Hyper-x"), -1);
	assert_int_equal(keymap_parse_key("\x01"), -1);
}

static void test_key_names_round_trip(void **state)
{
	(void)state;
	const char *names[] = { "x", "D", "Enter", "Esc", "Tab", "Space", "C-c", "Up", "PgUp",
				"Home", "F12", "S-Tab", "Backspace", "$", "<" };
	char buf[32];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int k = keymap_parse_key(names[i]);
		assert_true(k >= 0);
		assert_string_equal(keymap_key_name(k, buf, sizeof buf), names[i]);
	}
}

static void test_normalize(void **state)
{
	(void)state;
	assert_int_equal(keymap_normalize(false, '\r'), '\n');
	assert_int_equal(keymap_normalize(true, KEY_ENTER), '\n');
	assert_int_equal(keymap_normalize(false, 127), KM_FN(KEY_BACKSPACE));
	assert_int_equal(keymap_normalize(false, 8), KM_FN(KEY_BACKSPACE));
	assert_int_equal(keymap_normalize(true, KEY_UP), KM_FN(KEY_UP));
	assert_int_equal(keymap_normalize(false, 'q'), 'q');
}

/* The default keys the end-to-end suite uses. */
static void test_defaults(void **state)
{
	(void)state;
	static struct keymap km;
	km_default(&km);
	struct {
		int ctx;
		const char *key;
		enum action act;
	} want[] = {
		{ CTX_INSTANCES, "?", ACT_HELP }, { CTX_INSTANCES, ":", ACT_COMMAND },
		{ CTX_INSTANCES, "/", ACT_FILTER }, { CTX_INSTANCES, "r", ACT_REFRESH },
		{ CTX_INSTANCES, "p", ACT_PAUSE }, { CTX_INSTANCES, "q", ACT_QUIT },
		{ CTX_INSTANCES, "C-c", ACT_QUIT_NOW }, { CTX_INSTANCES, "C-z", ACT_SUSPEND },
		{ CTX_INSTANCES, "C-l", ACT_REDRAW }, { CTX_EVENTS, "1", ACT_VIEW_INSTANCES },
		{ CTX_INSTANCES, "2", ACT_VIEW_EVENTS }, { CTX_INSTANCES, "Tab", ACT_NEXT_VIEW },
		{ CTX_DETAIL, "Esc", ACT_BACK }, { CTX_INSTANCES, "Up", ACT_UP },
		{ CTX_INSTANCES, "j", ACT_DOWN }, { CTX_INSTANCES, "k", ACT_UP },
		{ CTX_INSTANCES, "PgDn", ACT_PAGE_DOWN }, { CTX_INSTANCES, "g", ACT_TOP },
		{ CTX_INSTANCES, "G", ACT_BOTTOM }, { CTX_INSTANCES, "Enter", ACT_DETAIL },
		{ CTX_INSTANCES, "s", ACT_STOP }, { CTX_INSTANCES, "S", ACT_START },
		{ CTX_INSTANCES, "R", ACT_REBOOT }, { CTX_INSTANCES, "l", ACT_LABEL },
		{ CTX_INSTANCES, "D", ACT_DESTROY }, { CTX_INSTANCES, "b", ACT_BID },
		{ CTX_INSTANCES, "$", ACT_PREPAY }, { CTX_INSTANCES, "x", ACT_SSH },
		{ CTX_INSTANCES, "y", ACT_COPY_SSH }, { CTX_INSTANCES, "<", ACT_SORT_PREV },
		{ CTX_INSTANCES, ">", ACT_SORT_NEXT }, { CTX_INSTANCES, "i", ACT_SORT_INVERT },
		{ CTX_DETAIL, "D", ACT_DESTROY }, { CTX_EVENTS, "j", ACT_DOWN },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		enum action got = keymap_lookup(&km, want[i].ctx, keymap_parse_key(want[i].key));
		if (got != want[i].act)
			fail_msg("%s in %s: got %s, want %s", want[i].key, keymap_ctx_name(want[i].ctx),
				 keymap_action_name(got), keymap_action_name(want[i].act));
	}
	/* instance actions are not bound in the event log */
	assert_int_equal(keymap_lookup(&km, CTX_EVENTS, 'D'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_EVENTS, 's'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'Z'), ACT_NONE);
}

static void test_catalogue(void **state)
{
	(void)state;
	assert_int_equal(keymap_action_by_name("destroy"), ACT_DESTROY);
	assert_int_equal(keymap_action_by_name("frobnicate"), ACT_NONE);
	assert_true(keymap_action_flags(ACT_DESTROY) & AF_MUTATES);
	assert_true(keymap_action_flags(ACT_DESTROY) & AF_NEEDS_SEL);
	assert_false(keymap_action_flags(ACT_SSH) & AF_MUTATES);
	assert_false(keymap_action_flags(ACT_HELP) & AF_MUTATES);
	for (int a = 0; a < keymap_action_count(); a++) {
		assert_int_equal(keymap_action_by_name(keymap_action_name((enum action)a)), a);
		assert_true(strlen(keymap_action_help((enum action)a)) > 0);
	}
	assert_int_equal(keymap_ctx_by_name(""), CTX_GLOBAL);
	assert_int_equal(keymap_ctx_by_name("instances"), CTX_INSTANCES);
	assert_int_equal(keymap_ctx_by_name("nowhere"), -1);
}

static void test_bind_overrides(void **state)
{
	(void)state;
	static struct keymap km;
	km_default(&km);
	struct key_binding b[] = {
		{ "", "F5", "refresh" },               /* new global key */
		{ "instances", "X", "destroy" },       /* context key */
		{ "instances", "D", "none" },          /* unbind */
		{ "global", "r", "none" },             /* unbind a global */
		{ "instances", "F5", "help" },         /* context beats global */
	};
	assert_int_equal(keymap_apply(&km, b, 5), 0);
	assert_int_equal(km.nerrors, 0);
	assert_int_equal(keymap_lookup(&km, CTX_EVENTS, KM_FN(KEY_F(5))), ACT_REFRESH);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, KM_FN(KEY_F(5))), ACT_HELP);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'X'), ACT_DESTROY);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'D'), ACT_NONE);
	/* the detail view shares the table's instance keys: unbound there too */
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 'D'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 'X'), ACT_DESTROY);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'r'), ACT_NONE);
	char keys[64];
	assert_string_equal(keymap_keys_for(&km, CTX_INSTANCES, ACT_DESTROY, keys, sizeof keys), "X");
	assert_string_equal(keymap_keys_for(&km, CTX_INSTANCES, ACT_UP, keys, sizeof keys), "Up/k");
	/* a global key shadowed in the context is not listed there */
	assert_string_equal(keymap_keys_for(&km, CTX_INSTANCES, ACT_REFRESH, keys, sizeof keys), "");
	assert_string_equal(keymap_keys_for(&km, CTX_EVENTS, ACT_REFRESH, keys, sizeof keys), "F5");
}

/* issue 12: the README's `bind D none` must take D away everywhere, and
 * the help (generated from the bindings) must stop listing it. */
static void test_unbind_everywhere(void **state)
{
	(void)state;
	static struct keymap km;
	km_default(&km);
	struct key_binding b[] = { { "", "D", "none" } };
	assert_int_equal(keymap_apply(&km, b, 1), 0);
	for (int c = 0; c < keymap_ctx_count(); c++)
		if (keymap_lookup(&km, c, 'D') != ACT_NONE)
			fail_msg("D still does %s in %s",
				 keymap_action_name(keymap_lookup(&km, c, 'D')),
				 keymap_ctx_name(c));
	char keys[64];
	assert_string_equal(keymap_keys_for(&km, CTX_INSTANCES, ACT_DESTROY, keys, sizeof keys), "");
	assert_string_equal(keymap_keys_for(&km, CTX_DETAIL, ACT_DESTROY, keys, sizeof keys), "");
	static struct help_line lines[200];
	size_t n = help_build(&km, false, lines, 200);
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i].text, "destroy (stops"))
			fail_msg("help still lists destroy with keys \"%s\"", lines[i].keys);
	/* other keys are untouched */
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 's'), ACT_STOP);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'd'), ACT_NONE);

	/* a context line: instances reaches the detail view, not the event log */
	km_default(&km);
	struct key_binding c[] = { { "instances", "s", "none" }, { "instances", "Esc", "none" },
				   { "instances", "Z", "stop" } };
	assert_int_equal(keymap_apply(&km, c, 3), 0);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 's'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 's'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 'Z'), ACT_STOP);
	/* Esc is a global key: the table's unbinding does not take it from the detail view */
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 27), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 27), ACT_BACK);
	assert_int_equal(keymap_lookup(&km, CTX_EVENTS, 27), ACT_BACK);
	/* a detail line stays in the detail view */
	km_default(&km);
	struct key_binding d[] = { { "detail", "S", "none" } };
	assert_int_equal(keymap_apply(&km, d, 1), 0);
	assert_int_equal(keymap_lookup(&km, CTX_DETAIL, 'S'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'S'), ACT_START);
}

static void test_bind_errors(void **state)
{
	(void)state;
	static struct keymap km;
	km_default(&km);
	struct key_binding b[] = {
		{ "", "F99", "help" },
		{ "instances", "z", "frobnicate" },
		{ "nowhere", "z", "help" },
		{ "", "z", "destroy" },       /* an instance action cannot be global */
		{ "events", "z", "stop" },    /* nor bound in the event log */
		{ "events", "z", "help" },    /* fine */
	};
	assert_int_equal(keymap_apply(&km, b, 6), 5);
	assert_int_equal(km.nerrors, 5);
	assert_non_null(strstr(km.errors[0], "unknown key \"F99\""));
	assert_non_null(strstr(km.errors[1], "unknown action \"frobnicate\""));
	assert_non_null(strstr(km.errors[2], "unknown context \"nowhere\""));
	assert_non_null(strstr(km.errors[3], "\"destroy\" cannot be bound in context global"));
	assert_non_null(strstr(km.errors[4], "\"stop\" cannot be bound in context events"));
	assert_int_equal(keymap_lookup(&km, CTX_EVENTS, 'z'), ACT_HELP);
	assert_int_equal(keymap_lookup(&km, CTX_INSTANCES, 'z'), ACT_NONE);
}

static void test_commands(void **state)
{
	(void)state;
	char arg[256];
	/* views and actions are words the app looks up */
	assert_int_equal(command_parse(":instances", arg, sizeof arg), CMD_WORD);
	assert_string_equal(arg, "instances");
	assert_int_equal(command_parse("events", arg, sizeof arg), CMD_WORD);
	assert_int_equal(command_parse(":stop", arg, sizeof arg), CMD_WORD);
	assert_string_equal(arg, "stop");
	assert_int_equal(command_parse(":help", arg, sizeof arg), CMD_HELP);
	assert_int_equal(command_parse(":q", arg, sizeof arg), CMD_QUIT);
	assert_int_equal(command_parse(":quit", arg, sizeof arg), CMD_QUIT);
	assert_int_equal(command_parse(":refresh", arg, sizeof arg), CMD_REFRESH);
	assert_int_equal(command_parse(":sort $/H", arg, sizeof arg), CMD_SORT);
	assert_string_equal(arg, "$/H");
	assert_int_equal(command_parse(":filter  rtx 4090 ", arg, sizeof arg), CMD_FILTER);
	assert_string_equal(arg, "rtx 4090");
	assert_int_equal(command_parse(":filter", arg, sizeof arg), CMD_FILTER);
	assert_string_equal(arg, "");
	assert_int_equal(command_parse(":theme light", arg, sizeof arg), CMD_THEME);
	assert_string_equal(arg, "light");
	assert_int_equal(command_parse(":sort", arg, sizeof arg), CMD_MISSING_ARG);
	assert_int_equal(command_parse(":frobnicate now", arg, sizeof arg), CMD_UNKNOWN);
	assert_string_equal(arg, "frobnicate now");
	assert_int_equal(command_parse(":q!", arg, sizeof arg), CMD_WORD); /* neither a view nor an action */
	assert_int_equal(command_parse(":help me", arg, sizeof arg), CMD_UNKNOWN);
	assert_int_equal(command_parse(":", arg, sizeof arg), CMD_EMPTY);
	assert_int_equal(command_parse("   ", arg, sizeof arg), CMD_EMPTY);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_key_names),
		cmocka_unit_test(test_key_names_round_trip),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_bind_overrides),
		cmocka_unit_test(test_unbind_everywhere),
		cmocka_unit_test(test_bind_errors),
		cmocka_unit_test(test_commands),
	};
	return cmocka_run_group_tests_name("ui_keymap", tests, NULL, NULL);
}
