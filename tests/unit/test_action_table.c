/* test_action_table.c: every view's action table (view_ops.actions, the
 * rows view_keys registers): each row has a name unique across the tables
 * and a help line; its default keys parse and reach it in its context
 * (no other row or binding took them: the keys are unique); the help
 * screen is generated from the rows (and leaves the mutating ones out
 * under --read-only); and view_send_action, the one gate every key and
 * `:ACTION` goes through, refuses each AF_MUTATES row under --read-only
 * and each AF_NEEDS_SEL row with nothing selected, before any handler. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "views/help/help.h"
#include "keymap.h"
#include "view.h"

static struct app app; /* large: not on the stack */
static struct help_line lines[400];

static int setup(void **state)
{
	(void)state;
	memset(&app, 0, sizeof app);
	keymap_init(&app.km);
	view_init_all(&app); /* the keys of every view into app.km, their states */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	view_fini_all(&app);
	return 0;
}

/* Each key named in keys ("Enter Space") in turn: its code into *code;
 * false when the list is done.  *p walks the list. */
static bool next_key(const char **p, int *code, char *name, size_t n)
{
	while (**p == ' ')
		(*p)++;
	if (!**p)
		return false;
	size_t len = strcspn(*p, " ");
	snprintf(name, n, "%.*s", (int)len, *p);
	*p += len;
	*code = keymap_parse_key(name);
	return true;
}

static void test_rows_named_helped_and_bound(void **state)
{
	(void)state;
	size_t tables = 0, rows = 0;
	const char *seen[256];
	size_t nseen = 0;
	for (size_t i = 0; view_ops_at(i); i++) {
		const struct view_ops *o = view_ops_at(i);
		int vi = view_find(&app, o->name);
		assert_true(vi >= 0);
		int vctx = app.views[vi].ctx;
		if (o->nactions)
			tables++;
		assert_true(o->nactions == 0 || o->actions != NULL);
		for (size_t r = 0; r < o->nactions; r++) {
			const struct action_row *row = &o->actions[r];
			rows++;
			if (!row->def.name || !*row->def.name)
				fail_msg("view %s: row %zu has no name", o->name, r);
			if (!row->def.help || strlen(row->def.help) < 8)
				fail_msg("view %s: %s has no help line", o->name, row->def.name);
			for (size_t k = 0; k < nseen; k++)
				if (!strcmp(seen[k], row->def.name))
					fail_msg("action %s is in two tables (or twice in one)", row->def.name);
			if (nseen < 256)
				seen[nseen++] = row->def.name;
			/* what is registered is this row (registration is by name) */
			enum action id = keymap_action_by_name(row->def.name);
			assert_int_not_equal(id, ACT_NONE);
			if (row->id && *row->id != id)
				fail_msg("%s: the id kept for the handler is not the one registered",
					 row->def.name);
			assert_int_equal(keymap_action_row_of(o->actions, o->nactions, id), (int)r);
			const struct action_def *d = keymap_action_get(id);
			assert_string_equal(d->help, row->def.help);
			assert_int_equal(d->flags, row->def.flags);
			int ctx = keymap_action_row_ctx(row, vctx);
			if (row->ctx && keymap_ctx_by_name(row->ctx) <= 0)
				fail_msg("%s: its context %s is not registered", row->def.name, row->ctx);
			assert_true(keymap_action_allowed(id, ctx));
			/* each default key parses and reaches this row there */
			const char *p = row->keys ? row->keys : "";
			char name[32];
			int code;
			while (next_key(&p, &code, name, sizeof name)) {
				if (code < 0)
					fail_msg("%s: key \"%s\" does not parse", row->def.name, name);
				enum action got = keymap_lookup(&app.km, ctx, code);
				if (got != id)
					fail_msg("view %s: key %s is %s in context %s, not %s", o->name, name,
						 keymap_action_name(got), keymap_ctx_name(ctx), row->def.name);
			}
		}
	}
	/* the views whose keys were hand-coded now have tables */
	static const char *const tabled[] = { "templates", "serverless", "tfa", "account", "logs",
					      "events", "detail" };
	for (size_t k = 0; k < sizeof tabled / sizeof *tabled; k++) {
		int vi = view_find(&app, tabled[k]);
		assert_true(vi >= 0);
		if (app.views[vi].ops->nactions == 0)
			fail_msg("view %s has no action table", tabled[k]);
	}
	assert_true(tables >= 7);
	assert_true(rows >= 45);
	assert_int_equal(keymap_action_row_of(NULL, 0, ACT_HELP), -1);
	assert_int_equal(keymap_action_row_of(view_ops_at(0)->actions, view_ops_at(0)->nactions, ACT_NONE), -1);
}

/* The help line of act in the help built (read_only or not): its index or -1. */
static long help_index(bool read_only, const char *help)
{
	size_t n = help_build(&app.km, read_only, lines, sizeof lines / sizeof lines[0]);
	for (size_t i = 0; i < n; i++)
		if (!lines[i].heading && !strncmp(lines[i].text, help, sizeof lines[i].text - 1))
			return (long)i;
	return -1;
}

static void test_help_from_the_tables(void **state)
{
	(void)state;
	for (size_t i = 0; view_ops_at(i); i++) {
		const struct view_ops *o = view_ops_at(i);
		for (size_t r = 0; r < o->nactions; r++) {
			const struct action_row *row = &o->actions[r];
			if (!row->keys)
				continue;
			long k = help_index(false, row->def.help);
			if (k < 0)
				fail_msg("%s is not in the help", row->def.name);
			/* the help's keys are the row's */
			char first[32];
			snprintf(first, sizeof first, "%.*s", (int)strcspn(row->keys, " "), row->keys);
			char want[32];
			keymap_key_name(keymap_parse_key(first), want, sizeof want);
			if (!strstr(lines[k].keys, want))
				fail_msg("%s: help says keys \"%s\", the row \"%s\"", row->def.name,
					 lines[k].keys, row->keys);
			bool hidden = help_index(true, row->def.help) < 0;
			if (hidden != !!(row->def.flags & AF_MUTATES))
				fail_msg("%s: %s under --read-only", row->def.name,
					 hidden ? "hidden" : "still in the help");
		}
	}
}

/* Help opens at the section of the view asked from (F1 in the offers view:
 * the offers' keys on top), a section's own keys under its heading or its
 * parent's; the `:` command lines fit their column, one view a line. */
static void test_help_sections(void **state)
{
	(void)state;
	size_t n = help_build(&app.km, false, lines, sizeof lines / sizeof lines[0]);
	int found = 0;
	for (int c = 1; c < keymap_ctx_count(); c++) {
		size_t at = help_section_line(lines, n, c);
		if (!at)
			continue;
		assert_true(lines[at].heading);
		int p = c;
		while (p > 0 && lines[at].ctx != p)
			p = keymap_ctx_parent(p);
		if (lines[at].ctx != p || strcmp(lines[at].text, keymap_ctx_heading(p)) != 0)
			fail_msg("help for %s opens at \"%s\"", keymap_ctx_name(c), lines[at].text);
		found++;
	}
	assert_true(found >= 8);
	int off = keymap_ctx_by_name("offers");
	assert_true(off > 0);
	assert_string_equal(lines[help_section_line(lines, n, off)].text, keymap_ctx_heading(off));
	assert_int_equal(help_section_line(lines, n, CTX_GLOBAL), 0);
	int cmds = 0;
	for (size_t i = 0; i < n; i++)
		if (!lines[i].heading && lines[i].keys[0] == ':' && !strncmp(lines[i].text, "open: ", 6)) {
			if (strlen(lines[i].keys) > 22) /* the keys column of the help view */
				fail_msg("command line keys cut: %s", lines[i].keys);
			cmds++;
		}
	assert_true(cmds >= 8);
}

/* Make view vi the one keys go to. */
static void show(int vi)
{
	if (app.views[vi].ops->number_key) {
		app.view = vi;
		app.overlay = -1;
	} else {
		app.overlay = vi;
	}
}

static void test_send_action_refuses_by_the_table(void **state)
{
	(void)state;
	size_t refused_ro = 0, refused_sel = 0;
	for (size_t i = 0; view_ops_at(i); i++) {
		const struct view_ops *o = view_ops_at(i);
		int vi = view_find(&app, o->name);
		show(vi);
		/* the states are fresh: nothing loaded, nothing selected */
		assert_null(view_row(&app));
		for (size_t r = 0; r < o->nactions; r++) {
			const struct action_row *row = &o->actions[r];
			enum action id = keymap_action_by_name(row->def.name);
			unsigned f = row->def.flags;
			if (f & AF_MUTATES) {
				app.read_only = true;
				app.msg[0] = '\0';
				assert_true(view_send_action(&app, id));
				if (!strstr(app.msg, "read-only"))
					fail_msg("%s under --read-only: \"%s\"", row->def.name, app.msg);
				refused_ro++;
			}
			if (f & AF_NEEDS_SEL) {
				app.read_only = false;
				app.msg[0] = '\0';
				assert_true(view_send_action(&app, id));
				if (!strstr(app.msg, "nothing selected"))
					fail_msg("%s with no row: \"%s\"", row->def.name, app.msg);
				refused_sel++;
			}
		}
		app.overlay = -1;
	}
	app.read_only = false;
	/* templates c/e/d, serverless c/a/e/d/s, 2FA, env, API keys, SSH keys, roles */
	assert_true(refused_ro >= 25);
	assert_true(refused_sel >= 10);
	/* an action of no view is nobody's: not handled, nothing said */
	app.msg[0] = '\0';
	assert_false(view_send_action(&app, ACT_NONE));
}

/* An action offered in other views' contexts (view_bind_in): t in the
 * account view and each of its sections, L in the serverless tree and the
 * instance table, M in the instance table and the detail. */
static void test_bound_in_other_views(void **state)
{
	(void)state;
	static const struct {
		const char *action, *ctx;
		int key;
	} want[] = {
		{ "account-tfa", "account", 't' },
		{ "account-tfa", "account-env", 't' },
		{ "account-tfa", "account-reports", 't' },
		{ "logs-open", "serverless", 'L' },
		{ "logs-open", "instances", 'L' },
		{ "machine-reports", "instances", 'M' },
		{ "machine-reports", "detail", 'M' },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		enum action id = keymap_action_by_name(want[i].action);
		int ctx = keymap_ctx_by_name(want[i].ctx);
		assert_int_not_equal(id, ACT_NONE);
		assert_true(ctx > 0);
		if (keymap_lookup(&app.km, ctx, want[i].key) != id)
			fail_msg("%c in %s is not %s", want[i].key, want[i].ctx, want[i].action);
	}
	/* not where it is not offered */
	assert_int_not_equal(keymap_lookup(&app.km, keymap_ctx_by_name("offers"), 't'),
			     keymap_action_by_name("account-tfa"));
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_named_helped_and_bound),
		cmocka_unit_test(test_help_from_the_tables),
		cmocka_unit_test(test_help_sections),
		cmocka_unit_test(test_send_action_refuses_by_the_table),
		cmocka_unit_test(test_bound_in_other_views),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
