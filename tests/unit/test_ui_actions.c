/* test_ui_actions.c: the one action table: row-state preconditions of the
 * instance actions (issue 12: s on a stopped row, S on a running row, x on
 * a stopped row say why instead of sending), the order of the checks
 * (--read-only, selection, row state), --read-only filtering, help
 * generated from the table, and a context and action registered the way a
 * new view registers them, with `bind` overrides reaching it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "base/config.h"
#include "views/help/help.h"
#include "views/instances/inst_actions.h"
#include "keymap.h"
#include "state/model.h"
#include "statusbar.h"
#include "view.h"

static struct keymap km;
static struct help_line lines[HELP_MAX + 1];

static struct instance row_inst(long id, const char *actual, const char *intended)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = id;
	x.label = x.cur_state = x.next_state = x.status_msg = x.public_ip = (char *)"";
	x.actual_status = (char *)actual;
	x.intended_status = (char *)intended;
	x.state = instance_derive_state(actual, intended, "", "");
	x.ssh_host = (char *)"ssh4.example";
	x.ssh_port = 20001;
	return x;
}

static void km_default(void)
{
	keymap_init(&km);
	view_keys_all(&km);
}

static void test_row_state_preconditions(void **state)
{
	(void)state;
	km_default();
	enum action stop = keymap_action_by_name("stop"), start = keymap_action_by_name("start"),
		    ssh = keymap_action_by_name("ssh"), reboot = keymap_action_by_name("reboot"),
		    bid = keymap_action_by_name("bid"), destroy = keymap_action_by_name("destroy");
	char buf[300];
	struct instance stopped = row_inst(9108111, "exited", "stopped");
	struct instance running = row_inst(9108112, "running", "running");
	struct instance crashed = row_inst(9108113, "exited", "running");
	assert_int_equal(stopped.state, IS_STOPPED);
	/* the wording */
	assert_string_equal(keymap_action_refusal(stop, &stopped, false, buf, sizeof buf),
			    "instance 9108111 is stopped: S starts it");
	assert_non_null(strstr(keymap_action_refusal(start, &running, false, buf, sizeof buf),
			       "instance 9108112 is running"));
	assert_non_null(strstr(keymap_action_refusal(ssh, &stopped, false, buf, sizeof buf),
			       "instance 9108111 is stopped: S starts it"));
	assert_non_null(keymap_action_refusal(reboot, &stopped, false, buf, sizeof buf));
	/* what fits */
	assert_null(keymap_action_refusal(stop, &running, false, buf, sizeof buf));
	assert_null(keymap_action_refusal(start, &stopped, false, buf, sizeof buf));
	assert_null(keymap_action_refusal(ssh, &running, false, buf, sizeof buf));
	assert_null(keymap_action_refusal(reboot, &running, false, buf, sizeof buf));
	assert_null(keymap_action_refusal(destroy, &stopped, false, buf, sizeof buf));
	assert_null(keymap_action_refusal(stop, &crashed, false, buf, sizeof buf)); /* stop a crash loop */
	assert_null(keymap_action_refusal(start, &crashed, false, buf, sizeof buf));
	/* bid only on interruptible instances */
	assert_non_null(strstr(keymap_action_refusal(bid, &running, false, buf, sizeof buf), "on-demand"));
	running.is_bid = true;
	assert_null(keymap_action_refusal(bid, &running, false, buf, sizeof buf));
	/* no address yet: ssh says so */
	struct instance loading = row_inst(9108114, "loading", "running");
	loading.ssh_host = (char *)"";
	loading.ssh_port = 0;
	assert_non_null(strstr(keymap_action_refusal(ssh, &loading, false, buf, sizeof buf),
			       "no SSH address yet"));
	/* every state has an answer for every instance action (no crash, a
	 * reason names the instance) */
	static const char *const st[][2] = {
		{ "", "running" }, { "loading", "running" }, { "running", "running" },
		{ "running", "stopped" }, { "exited", "stopped" }, { "stopped", "running" },
		{ "rebooting", "running" }, { "exited", "running" }, { "created", "running" },
		{ "unknown", "running" }, { "offline", "running" }, { "frozen", "running" },
	};
	for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
		struct instance x = row_inst(700 + (long)i, st[i][0], st[i][1]);
		for (int a = ACT__BUILTIN; a < keymap_action_count(); a++) {
			const char *why = keymap_action_refusal((enum action)a, &x, false, buf, sizeof buf);
			char id[16];
			snprintf(id, sizeof id, "%ld", x.id);
			if (why && !strstr(why, id))
				fail_msg("%s on %s/%s: \"%s\" does not name the instance",
					 keymap_action_name((enum action)a), st[i][0], st[i][1], why);
		}
	}
}

static void test_check_order(void **state)
{
	(void)state;
	km_default();
	char buf[300];
	enum action stop = keymap_action_by_name("stop"), ssh = keymap_action_by_name("ssh");
	struct instance stopped = row_inst(5, "exited", "stopped");
	/* read-only comes first, whatever the row */
	assert_string_equal(keymap_action_refusal(stop, &stopped, true, buf, sizeof buf),
			    "read-only mode: stop is disabled");
	assert_string_equal(keymap_action_refusal(stop, NULL, true, buf, sizeof buf),
			    "read-only mode: stop is disabled");
	/* then the selection */
	assert_non_null(strstr(keymap_action_refusal(stop, NULL, false, buf, sizeof buf), "nothing selected"));
	/* ssh does not change anything: allowed read-only on a running row */
	struct instance running = row_inst(6, "running", "running");
	assert_null(keymap_action_refusal(ssh, &running, true, buf, sizeof buf));
	/* global actions have no precondition */
	assert_null(keymap_action_refusal(ACT_HELP, NULL, true, buf, sizeof buf));
	assert_null(keymap_action_refusal(ACT_REFRESH, NULL, false, buf, sizeof buf));
}

static void test_read_only_filtering(void **state)
{
	(void)state;
	km_default();
	size_t n = help_build(&km, true, lines, HELP_MAX + 1);
	assert_true(n <= HELP_MAX); /* the help view shows every line */
	for (int a = 0; a < keymap_action_count(); a++) {
		if (!(keymap_action_flags((enum action)a) & AF_MUTATES))
			continue;
		for (size_t i = 0; i < n; i++)
			if (!lines[i].heading && strcmp(lines[i].text, keymap_action_help((enum action)a)) == 0)
				fail_msg("read-only help lists %s", keymap_action_name((enum action)a));
	}
	struct instance stopped = row_inst(5, "exited", "stopped");
	struct hint h[24];
	size_t k = statusbar_hints(&km, keymap_ctx_by_name("instances"), true, &stopped, AF_FIRST_ON_FAILED, h, 24);
	for (size_t i = 0; i < k; i++) {
		enum action a = keymap_action_by_name(h[i].label);
		if (a != ACT_NONE && (keymap_action_flags(a) & AF_MUTATES))
			fail_msg("read-only hint bar shows %s", h[i].label);
	}
}

/* Every action the table holds is in the help, under its context, with the
 * keys bound to it; nothing is listed that has no key. */
static void test_help_from_table(void **state)
{
	(void)state;
	km_default();
	size_t n = help_build(&km, false, lines, HELP_MAX + 1);
	for (int a = 0; a < keymap_action_count(); a++) {
		bool found = false;
		for (size_t i = 0; i < n && !found; i++)
			found = !lines[i].heading && strcmp(lines[i].text, keymap_action_help((enum action)a)) == 0;
		bool bound = false;
		char keys[64];
		for (int c = 0; c < keymap_ctx_count() && !bound; c++)
			bound = keymap_keys_for(&km, c, (enum action)a, keys, sizeof keys)[0] != '\0' &&
				keymap_action_allowed((enum action)a, c);
		if (found != bound)
			fail_msg("%s: in help %d, bound %d", keymap_action_name((enum action)a), found, bound);
	}
	/* the headings are the contexts' */
	bool inst = false, detail = false;
	for (size_t i = 0; i < n; i++) {
		inst |= lines[i].heading && strcmp(lines[i].text, "Instances view") == 0;
		detail |= lines[i].heading && strcmp(lines[i].text, "Instance detail") == 0;
	}
	assert_true(inst && detail);
}

static int offers_runs;
static void run_search(struct app *a, enum action act)
{
	(void)a;
	(void)act;
	offers_runs++;
}

static const char *why_not_cheap(const void *row, char *buf, size_t n)
{
	const int *price = row;
	if (*price < 10)
		return NULL;
	snprintf(buf, n, "too dear");
	return buf;
}

/* What a new view does: a context, an action with a precondition and a
 * default key; bind lines, help and hints follow without editing keymap.h. */
static void test_registered_view_context(void **state)
{
	(void)state;
	km_default();
	/* every view of VIEWS got its own context (a full table would leave a
	 * view's keys on the global one), with room left for this one */
	for (size_t i = 0; view_ops_at(i); i++)
		assert_true(keymap_ctx_by_name(view_ops_at(i)->name) > 0);
	assert_true(keymap_ctx_count() < KM_MAX_CTX);
	int ctx = keymap_ctx_register("offers-test", "Offers (test) view", CTXF_LIST | CTXF_TABLE, -1);
	assert_true(ctx > 0);
	assert_int_equal(keymap_ctx_register("offers-test", "again", 0, -1), ctx); /* idempotent */
	keymap_ctx_defaults(&km, ctx);
	static const struct action_def rent = { "rent-test", "rent the selected offer", "rent",
						AF_MUTATES | AF_NEEDS_SEL | AF_HINT | AF_NEEDS_TFA,
						why_not_cheap, run_search };
	enum action act = keymap_action_register(&rent);
	assert_true((int)act >= ACT__BUILTIN);
	/* a registered id is a value of enum action but not a built-in: the
	 * views' switches over the built-ins never see it */
	assert_false(keymap_action_builtin(act));
	assert_true(keymap_action_builtin(ACT_HELP) && keymap_action_builtin(ACT_SORT_INVERT));
	assert_false(keymap_action_builtin(ACT_NONE));
	assert_int_equal(ACT__BUILTIN, ACT_SORT_INVERT + 1);
	assert_int_equal(keymap_action_register(&rent), act);
	keymap_action_allow(act, ctx);
	keymap_default(&km, ctx, "c", act);
	assert_int_equal(keymap_lookup(&km, ctx, 'c'), act);
	assert_int_equal(keymap_lookup(&km, ctx, 'j'), ACT_DOWN); /* a list context */
	assert_int_equal(keymap_lookup(&km, ctx, '<'), ACT_SORT_PREV); /* a table context */
	assert_int_equal(keymap_lookup(&km, keymap_ctx_by_name("events"), 'c'), ACT_NONE);
	/* bind lines reach it */
	struct key_binding b[] = { { "offers-test", "C", "rent-test" }, { "offers-test", "c", "none" },
				   { "events", "C", "rent-test" } };
	assert_int_equal(keymap_apply(&km, b, 3), 1);
	assert_int_equal(keymap_lookup(&km, ctx, 'C'), act);
	assert_int_equal(keymap_lookup(&km, ctx, 'c'), ACT_NONE);
	assert_non_null(strstr(km.errors[0], "cannot be bound in context events"));
	/* help lists it under its heading, with the 2FA note */
	size_t n = help_build(&km, false, lines, HELP_MAX + 1);
	bool heading = false, line = false;
	for (size_t i = 0; i < n; i++) {
		heading |= lines[i].heading && strcmp(lines[i].text, "Offers (test) view") == 0;
		line |= !lines[i].heading && strcmp(lines[i].keys, "C") == 0 &&
			strstr(lines[i].text, "rent the selected offer") &&
			strstr(lines[i].text, "two-factor");
	}
	assert_true(heading && line);
	/* hints: its word, only when the row fits, never read-only */
	int cheap = 5, dear = 50;
	struct hint h[24];
	char buf[300];
	size_t k = statusbar_hints(&km, ctx, false, &cheap, 0, h, 24);
	statusbar_hints_text(h, k, 300, buf, sizeof buf);
	assert_non_null(strstr(buf, "C rent"));
	k = statusbar_hints(&km, ctx, false, &dear, 0, h, 24);
	statusbar_hints_text(h, k, 300, buf, sizeof buf);
	assert_null(strstr(buf, "rent"));
	k = statusbar_hints(&km, ctx, true, &cheap, 0, h, 24);
	statusbar_hints_text(h, k, 300, buf, sizeof buf);
	assert_null(strstr(buf, "rent"));
	assert_string_equal(keymap_action_refusal(act, &dear, false, buf, sizeof buf), "too dear");
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_state_preconditions),
		cmocka_unit_test(test_check_order),
		cmocka_unit_test(test_read_only_filtering),
		cmocka_unit_test(test_help_from_table),
		cmocka_unit_test(test_registered_view_context),
	};
	return cmocka_run_group_tests_name("ui_actions", tests, NULL, NULL);
}
