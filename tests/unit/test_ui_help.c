/* test_ui_help.c: text generated from the bindings (help screen, hint bar)
 * with --read-only hiding every mutating action; theme files (parsing,
 * errors, colour fallback, the shipped themes), the header's freshness and
 * runway, and the detail view's derived lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"
#include "header.h"
#include "views/help/help.h"
#include "views/instances/inst_actions.h"
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
#include "state/model.h"
#include "views/instances/pane_detail.h"
#include "statusbar.h"
#include "theme.h"

static struct keymap km;
static struct help_line lines[400];

static bool help_has(size_t n, const char *keys, const char *text_part)
{
	for (size_t i = 0; i < n; i++)
		if (!lines[i].heading && strcmp(lines[i].keys, keys) == 0 &&
		    strstr(lines[i].text, text_part))
			return true;
	return false;
}

static void test_help_generated(void **state)
{
	(void)state;
	km_default(&km);
	size_t n = help_build(&km, false, lines, 400);
	assert_true(n > 30);
	assert_true(help_has(n, "D", "destroy"));
	assert_true(help_has(n, "s", "stop"));
	assert_true(help_has(n, "?/F1", "help")); /* htop's F1 too */
	assert_true(help_has(n, "C-c/F10", "quit at once"));
	assert_true(help_has(n, "Up/k", "up"));
	assert_true(help_has(n, "$", "prepay"));
	/* read-only: no mutating action anywhere */
	size_t r = help_build(&km, true, lines, 400);
	assert_true(r < n);
	for (int a = 0; a < keymap_action_count(); a++)
		if (keymap_action_flags((enum action)a) & AF_MUTATES)
			for (size_t i = 0; i < r; i++)
				if (!lines[i].heading && lines[i].keys[0])
					assert_string_not_equal(lines[i].text, keymap_action_help((enum action)a));
	assert_false(help_has(r, "D", "destroy"));
	assert_true(help_has(r, "x", "ssh"));
	/* an override shows up in the help */
	struct key_binding b[] = { { "instances", "K", "destroy" } };
	keymap_apply(&km, b, 1);
	n = help_build(&km, false, lines, 400);
	assert_true(help_has(n, "D/K", "destroy"));
}

/* An instance in state actual/intended with a proxy SSH address. */
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
	x.is_bid = false;
	return x;
}

/* Whether the help section under heading has a line with keys whose text
 * holds part. */
static bool section_has(const struct help_line *l, size_t n, const char *heading,
			const char *keys, const char *part)
{
	bool in = false;
	for (size_t i = 0; i < n; i++) {
		if (l[i].heading) {
			in = strcmp(l[i].text, heading) == 0;
			continue;
		}
		if (in && strcmp(l[i].keys, keys) == 0 && strstr(l[i].text, part))
			return true;
	}
	return false;
}

/* One language across the views: / filters every list view (its section
 * says so), the offers' and templates' service search is s, the offers'
 * section names r; the log view keeps less's / search; no & is left. */
static void test_help_one_language(void **state)
{
	(void)state;
	static struct help_line all[400];
	km_default(&km);
	size_t n = help_build(&km, false, all, 400);
	assert_true(section_has(all, n, "Offers view", "/", "filter the rows shown"));
	assert_true(section_has(all, n, "Offers view", "s", "new search"));
	assert_true(section_has(all, n, "Offers view", "s", "r: search again"));
	assert_true(section_has(all, n, "Templates (:templates [QUERY])", "/", "filter the rows shown"));
	assert_true(section_has(all, n, "Templates (:templates [QUERY])", "s", "search the service"));
	assert_true(section_has(all, n, "Events view", "/", "filter the rows shown"));
	assert_false(section_has(all, n, "Log view", "/", "filter the rows shown"));
	assert_true(section_has(all, n, "Log view", "/", "search the log"));
	/* a view without a list (the account's, until it has one) offers no / */
	for (int c = 1; c < keymap_ctx_count(); c++) {
		const struct view_ops *o = NULL;
		for (size_t i = 0; view_ops_at(i); i++)
			if (strcmp(view_ops_at(i)->name, keymap_ctx_name(c)) == 0)
				o = view_ops_at(i);
		if (o)
			assert_int_equal(section_has(all, n, o->heading, "/", "filter the rows shown"),
					 o->list != NULL);
	}
	for (size_t i = 0; i < n; i++)
		assert_true(strcmp(all[i].keys, "&") != 0 || strstr(all[i].text, "only the lines"));
	/* the hint bar offers / where it filters, and nowhere else (the
	 * account's sections follow their view) */
	struct hint h[24];
	int ctxs[] = { keymap_ctx_by_name("events"), keymap_ctx_by_name("account"),
		       keymap_ctx_by_name("account-apikeys"), keymap_ctx_by_name("offers") };
	for (size_t c = 0; c < sizeof ctxs / sizeof ctxs[0]; c++) {
		if (ctxs[c] < 0)
			continue;
		size_t nh = statusbar_hints(&km, ctxs[c], false, NULL, 0, h, 24);
		bool slash = false;
		for (size_t i = 0; i < nh; i++)
			slash |= strcmp(h[i].key, "/") == 0;
		int vc = (keymap_ctx_flags(ctxs[c]) & CTXF_SECTION) ? keymap_ctx_parent(ctxs[c]) : ctxs[c];
		assert_int_equal(slash, (keymap_ctx_flags(vc) & CTXF_FILTER) != 0);
	}
	assert_true(keymap_ctx_flags(keymap_ctx_by_name("events")) & CTXF_FILTER);
	assert_true(keymap_ctx_flags(keymap_ctx_by_name("offers")) & CTXF_FILTER);
}

/* words of s (runs of blanks as one), into out. */
static void words(const char *s, char *out, size_t n)
{
	size_t k = 0;
	bool blank = true;
	for (; *s && k + 1 < n; s++) {
		if (*s == ' ') {
			if (!blank)
				out[k++] = ' ';
			blank = true;
			continue;
		}
		out[k++] = *s;
		blank = false;
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}

/* The help at 80 and 120 columns: the new views' sections are there with
 * their headings (workers, transfers, an instance's SSH keys, billing,
 * team, the audit log, which has no key but the view's /), every line
 * fits its column (the keys in theirs), wrapped at words: the pieces of a
 * line are its words in order, none cut. */
static void test_help_fits_80_and_120(void **state)
{
	(void)state;
	static struct help_line built[HELP_MAX], wrapped[HELP_MAX];
	km_default(&km);
	size_t nb = help_build(&km, false, built, HELP_MAX);
	assert_true(nb < HELP_MAX);
	const char *const heads[] = { "Workers of an endpoint", "Transfers (copies, snapshots)",
				      "SSH keys of an instance", "Account view: Billing",
				      "Account view: Team", "Account view: Audit log (:audit)" };
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
		size_t at = nb;
		for (size_t i = 0; i < nb && at == nb; i++)
			if (built[i].heading && strcmp(built[i].text, heads[h]) == 0)
				at = i;
		assert_true(at < nb);
		assert_true(at + 1 < nb && !built[at + 1].heading && built[at + 1].keys[0]);
	}
	assert_true(section_has(built, nb, "Account view: Audit log (:audit)", "/", "filter the rows"));
	/* F1 in the audit log opens the help there */
	int audit = keymap_ctx_by_name("account-audit");
	assert_true(audit > 0);
	assert_string_equal(built[help_section_line(built, nb, audit)].text,
			    "Account view: Audit log (:audit)");
	const int widths[] = { 80, 120 };
	for (size_t wi = 0; wi < 2; wi++) {
		int tw = HELP_TEXT_W(widths[wi]);
		size_t n = help_wrap(built, nb, tw, wrapped, HELP_MAX);
		assert_true(n < HELP_MAX);
		assert_true(n >= nb);
		size_t i = 0;
		for (size_t b = 0; b < nb; b++) {
			assert_true(i < n);
			assert_int_equal(wrapped[i].src, b);
			assert_false(wrapped[i].cont);
			assert_string_equal(wrapped[i].keys, built[b].keys);
			assert_true(util_strwidth(built[b].keys) <= HELP_KEYS_W);
			char joined[1024] = "", want[1024];
			for (; i < n && wrapped[i].src == b; i++) {
				assert_true(wrapped[i].heading || util_strwidth(wrapped[i].text) <= tw ||
					    !strchr(wrapped[i].text, ' '));
				if (wrapped[i].heading)
					assert_true(util_strwidth(wrapped[i].text) <= widths[wi] - 1);
				if (wrapped[i].src == b && wrapped[i].cont)
					assert_string_equal(wrapped[i].keys, "");
				size_t len = strlen(joined);
				snprintf(joined + len, sizeof joined - len, "%s%s", len ? " " : "",
					 wrapped[i].text);
			}
			words(built[b].text, want, sizeof want);
			char got[1024];
			words(joined, got, sizeof got);
			assert_string_equal(got, want);
		}
		assert_int_equal(i, n);
		/* the headings keep their contexts: F1 lands on the same section */
		assert_string_equal(wrapped[help_section_line(wrapped, n, audit)].text,
				    "Account view: Audit log (:audit)");
	}
	/* at 80 columns something is wrapped (the help has long lines) */
	assert_true(help_wrap(built, nb, HELP_TEXT_W(80), wrapped, HELP_MAX) > nb);
	/* read-only: the audit log (nothing to change) stays */
	nb = help_build(&km, true, built, HELP_MAX);
	assert_true(section_has(built, nb, "Account view: Audit log (:audit)", "/", "filter the rows"));
}

static void test_hints(void **state)
{
	(void)state;
	km_default(&km);
	struct instance running = row_inst(1, "running", "running");
	const void *row = &running;
	struct hint h[24];
	char buf[400];
	size_t n = statusbar_hints(&km, CTX_INSTANCES, false, row, 0, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "s stop"));
	assert_non_null(strstr(buf, "D destroy"));
	assert_non_null(strstr(buf, "? help"));
	assert_non_null(strstr(buf, "q quit"));
	/* the context's own actions come before the global ones */
	assert_true(strstr(buf, "s stop") < strstr(buf, "? help"));
	/* a failed selection puts destroy first */
	n = statusbar_hints(&km, CTX_INSTANCES, false, row, AF_FIRST_ON_FAILED, h, 24);
	assert_string_equal(h[0].key, "D");
	assert_string_equal(h[0].label, "destroy");
	/* read-only hides every mutating action, even on a failed row */
	n = statusbar_hints(&km, CTX_INSTANCES, true, row, AF_FIRST_ON_FAILED, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_null(strstr(buf, "destroy"));
	assert_null(strstr(buf, "stop"));
	assert_non_null(strstr(buf, "x ssh"));
	/* the event log has no instance actions */
	n = statusbar_hints(&km, CTX_EVENTS, false, NULL, AF_FIRST_ON_FAILED, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_null(strstr(buf, "destroy"));
	/* cut to the width, whole items only */
	n = statusbar_hints(&km, CTX_INSTANCES, false, row, 0, h, 24);
	statusbar_hints_text(h, n, 20, buf, sizeof buf);
	assert_true(strlen(buf) <= 20);
	assert_string_equal(buf, "Enter detail  s stop");
	/* rebinding changes the hint */
	struct key_binding b[] = { { "instances", "F8", "destroy" }, { "instances", "D", "none" } };
	keymap_apply(&km, b, 2);
	n = statusbar_hints(&km, CTX_INSTANCES, false, row, AF_FIRST_ON_FAILED, h, 24);
	assert_string_equal(h[0].key, "F8");
}

/* issue 12: the hint bar shows only what fits the selected row. */
static void test_hints_fit_the_row(void **state)
{
	(void)state;
	km_default(&km);
	struct hint h[24];
	char buf[400];
	struct instance running = row_inst(1, "running", "running");
	struct instance stopped = row_inst(2, "exited", "stopped");
	size_t n = statusbar_hints(&km, CTX_INSTANCES, false, &running, 0, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "s stop"));
	assert_null(strstr(buf, "S start"));
	assert_non_null(strstr(buf, "x ssh"));
	n = statusbar_hints(&km, CTX_INSTANCES, false, &stopped, 0, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "S start"));
	assert_null(strstr(buf, "s stop"));
	assert_null(strstr(buf, "x ssh"));
	assert_non_null(strstr(buf, "D destroy"));
	/* the same in the detail view */
	n = statusbar_hints(&km, CTX_DETAIL, false, &stopped, 0, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "S start"));
	assert_null(strstr(buf, "s stop"));
	/* no row: no row action at all */
	n = statusbar_hints(&km, CTX_INSTANCES, false, NULL, 0, h, 24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_null(strstr(buf, "destroy"));
	assert_non_null(strstr(buf, "? help"));
	/* an outbid row: b first, no S (the start is refused), no x */
	struct instance outbid = row_inst(3, "exited", "stopped");
	outbid.is_bid = true;
	outbid.status_msg = (char *)"Outbid: a higher bid took this machine";
	outbid.state = instance_state(&outbid);
	n = statusbar_hints(&km, CTX_INSTANCES, false, &outbid, statusbar_first_flags(&outbid), h,
			    24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_non_null(strstr(buf, "b bid"));
	assert_true(strstr(buf, "b bid") == buf); /* first */
	assert_null(strstr(buf, "S start"));
	assert_null(strstr(buf, "x ssh"));
	/* a failed start: no x (it explains instead), D first */
	struct instance failed = row_inst(4, "created", "running");
	n = statusbar_hints(&km, CTX_INSTANCES, false, &failed, statusbar_first_flags(&failed), h,
			    24);
	statusbar_hints_text(h, n, 400, buf, sizeof buf);
	assert_true(strstr(buf, "D destroy") == buf);
	assert_null(strstr(buf, "x ssh"));
	char why[300];
	failed.status_msg = (char *)"Error response from daemon: pull access denied for a/b";
	assert_non_null(inst_actions_why_not_ssh(&failed, why, sizeof why));
	assert_non_null(strstr(why, "never started"));
	assert_non_null(strstr(why, "pull access denied"));
	assert_non_null(inst_actions_why_not_start(&outbid, why, sizeof why));
	assert_non_null(strstr(why, "b bids"));
}

static void test_theme_parse(void **state)
{
	(void)state;
	struct theme_spec sp;
	char err[200];
	assert_true(theme_parse_spec("red default bold", &sp, err, sizeof err));
	assert_int_equal(sp.fg, 1);
	assert_int_equal(sp.bg, -1);
	assert_int_equal(sp.attrs, TA_BOLD);
	assert_true(theme_parse_spec("214 color24 reverse underline", &sp, err, sizeof err));
	assert_int_equal(sp.fg, 214);
	assert_int_equal(sp.bg, 24);
	assert_int_equal(sp.attrs, TA_REVERSE | TA_UNDERLINE);
	assert_true(theme_parse_spec("brightwhite", &sp, err, sizeof err));
	assert_int_equal(sp.fg, 15);
	assert_false(theme_parse_spec("purple", &sp, err, sizeof err));
	assert_non_null(strstr(err, "purple"));
	assert_false(theme_parse_spec("256 red", &sp, err, sizeof err));
	assert_false(theme_parse_spec("red green blue", &sp, err, sizeof err));

	struct theme t;
	theme_builtin(&t);
	assert_true(theme_parse_text(&t, "# c\n[colors]\nfailed = 196 default bold\n\n[about]\nx = y\n",
				     err, sizeof err));
	assert_int_equal(t.role[ROLE_FAILED].fg, 196);
	assert_false(theme_parse_text(&t, "[colors]\nrunning = green\nbogus = red\n", err, sizeof err));
	assert_non_null(strstr(err, "line 3"));
	assert_non_null(strstr(err, "bogus"));
	assert_false(theme_parse_text(&t, "[colors]\nrunning green\n", err, sizeof err));
	assert_non_null(strstr(err, "line 2"));
}

static void test_theme_fallback(void **state)
{
	(void)state;
	bool bold;
	assert_int_equal(theme_fallback_color(-1, 8, &bold), -1);
	assert_int_equal(theme_fallback_color(200, 256, &bold), 200);
	assert_int_equal(theme_fallback_color(196, 16, &bold), 9);   /* bright red */
	assert_int_equal(theme_fallback_color(196, 8, &bold), 1);
	assert_true(bold);
	assert_int_equal(theme_fallback_color(9, 8, &bold), 1);
	assert_true(bold);
	assert_int_equal(theme_fallback_color(2, 8, &bold), 2);
	assert_false(bold);
	assert_int_equal(theme_fallback_color(16, 16, &bold), 0);    /* cube black */
	assert_int_equal(theme_fallback_color(231, 16, &bold), 15);  /* cube white */
	assert_int_equal(theme_fallback_color(232, 16, &bold), 0);   /* dark grey ramp */
	assert_int_equal(theme_fallback_color(255, 16, &bold), 15);
	assert_int_equal(theme_fallback_color(28, 16, &bold), 2);    /* dark green */
	/* every role has monochrome attributes that tell the important ones apart */
	assert_true(theme_mono_attrs(ROLE_SELECTION) & TA_REVERSE);
	assert_true(theme_mono_attrs(ROLE_FAILED) & TA_BOLD);
	assert_int_equal(theme_mono_attrs(ROLE_NORMAL), 0);
}

static void test_shipped_themes(void **state)
{
	(void)state;
	const char *src = getenv("SRCDIR");
	char pat[1024];
	snprintf(pat, sizeof pat, "%s/themes/*.theme", src && *src ? src : ".");
	glob_t g;
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 4);
	const char *need[] = { "default", "light", "monochrome", "solarized-dark" };
	for (size_t k = 0; k < 4; k++) {
		bool found = false;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char want[64];
			snprintf(want, sizeof want, "/%s.theme", need[k]);
			size_t lw = strlen(want), lp = strlen(g.gl_pathv[i]);
			if (lp >= lw && strcmp(g.gl_pathv[i] + lp - lw, want) == 0)
				found = true;
		}
		assert_true(found);
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct theme t;
		char err[300];
		memset(&t, 0, sizeof t);
		if (!theme_load(&t, g.gl_pathv[i], err, sizeof err))
			fail_msg("%s", err);
		/* every shipped theme names every role itself */
		struct theme only;
		memset(&only, 0, sizeof only);
		FILE *f = fopen(g.gl_pathv[i], "r");
		assert_non_null(f);
		static char text[65536];
		size_t len = fread(text, 1, sizeof text - 1, f);
		text[len] = '\0';
		fclose(f);
		assert_true(theme_parse_text(&only, text, err, sizeof err));
		for (int r = 0; r < ROLE__COUNT; r++)
			if (!only.role[r].set)
				fail_msg("%s does not set role %s", g.gl_pathv[i], theme_role_name((enum role)r));
	}
	globfree(&g);
	/* found by name through RENTOP_THEMES; a missing one is an error */
	char dir[1100];
	snprintf(dir, sizeof dir, "%s/themes", src && *src ? src : ".");
	setenv("RENTOP_THEMES", dir, 1);
	struct theme t;
	char err[300];
	assert_true(theme_load(&t, "light", err, sizeof err));
	assert_string_equal(t.name, "light");
	assert_false(theme_load(&t, "no-such-theme", err, sizeof err));
	assert_non_null(strstr(err, "not found"));
	unsetenv("RENTOP_THEMES");
}

static void test_header(void **state)
{
	(void)state;
	char buf[64], err[200];
	assert_string_equal(header_runway(INFINITY, true, buf, sizeof buf), "-");
	assert_string_equal(header_runway(INFINITY, false, buf, sizeof buf), "\u221e");
	assert_string_equal(header_runway(NAN, false, buf, sizeof buf), "\u221e");
	assert_string_equal(header_runway(25, true, buf, sizeof buf), "1d01h");
	assert_string_equal(header_runway(0, true, buf, sizeof buf), "0");
	static struct snapshot s;
	memset(&s, 0, sizeof s);
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_LOADING);
	s.fresh[SRC_INSTANCES].last_ok = 990;
	s.fresh[SRC_USER].last_ok = 990;
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_FRESH);
	/* older than three refresh intervals */
	assert_int_equal(header_freshness(&s, 1021, 10, 30, err, sizeof err), DS_STALE);
	assert_true(header_stale_at(&s, 10, 30) == 1020);
	/* a paged fetch under way since 1005 gets its grace, a hung one does not */
	s.fresh[SRC_INSTANCES].in_flight = true;
	s.fresh[SRC_INSTANCES].last_attempt = 1005;
	assert_true(header_stale_at(&s, 10, 30) == 1065);
	assert_int_equal(header_freshness(&s, 1040, 10, 30, err, sizeof err), DS_FRESH);
	assert_int_equal(header_freshness(&s, 1066, 10, 30, err, sizeof err), DS_STALE);
	s.fresh[SRC_INSTANCES].in_flight = false;
	/* the last attempt failed with an HTTP error: stale, with its text */
	s.fresh[SRC_USER].last_err_at = 995;
	s.fresh[SRC_USER].err_status = 500;
	strcpy(s.fresh[SRC_USER].err, "HTTP 500: boom");
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_STALE);
	assert_string_equal(err, "HTTP 500: boom");
	/* transport failure of every source: offline */
	s.fresh[SRC_INSTANCES].last_err_at = 996;
	s.fresh[SRC_INSTANCES].err_status = 0;
	strcpy(s.fresh[SRC_INSTANCES].err, "connection refused");
	s.fresh[SRC_USER].err_status = 0;
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_OFFLINE);
	assert_string_equal(err, "connection refused");
	/* the balance answers (HTTP 500 is an answer): stale, not offline */
	s.fresh[SRC_USER].err_status = 500;
	assert_int_equal(header_freshness(&s, 1000, 10, 30, err, sizeof err), DS_STALE);
}

static void test_detail_lines(void **state)
{
	(void)state;
	struct kv fields[2] = { { (char *)"gpu_name", (char *)"\"RTX 4090\"" },
				{ (char *)"id", (char *)"42" } };
	struct port_map ports[1] = { { 22, "tcp", 41022 } };
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = 42;
	x.label = (char *)"train";
	x.actual_status = (char *)"exited";
	x.intended_status = (char *)"running";
	x.cur_state = x.next_state = (char *)"";
	x.status_msg = (char *)"OOM killed";
	x.state = IS_EXITED;
	x.gpu_name = (char *)"RTX 4090";
	x.num_gpus = 1;
	x.gpu_util = x.gpu_temp = x.storage_total_cost = x.min_bid = x.bid_price = NAN;
	x.dph_total = 0.5;
	x.dph_base = 0.45;
	x.ssh_host = (char *)"ssh4.example";
	x.ssh_port = 2200;
	x.public_ip = (char *)"203.0.113.9";
	x.direct_ssh_port = 41022;
	x.ports = ports;
	x.nports = 1;
	x.start_date = 1000;
	x.credit_balance = 12.5;
	x.template_hash_id = (char *)"abc";
	x.template_name = (char *)"PyTorch";
	x.template_id = 7;
	x.image = x.runtype = x.geolocation = x.verification = (char *)"";
	x.fields = fields;
	x.nfields = 2;
	struct detail_line out[64];
	size_t n = pane_detail_lines(&x, 1000 + 7200, out, 64);
	bool cost = false, ssh_direct = false, ssh_proxy = false, credit = false, failed = false,
	     msg = false, port = false, tmpl = false, field = false;
	for (size_t i = 0; i < n; i++) {
		/* crashed 2 h in: storage is sure ($0.10), the GPU time is not (upper bound $1.00) */
		if (!strcmp(out[i].key, "cost so far") && strstr(out[i].value, "$0.10 to $1.00") &&
		    strstr(out[i].value, "upper bound"))
			cost = true;
		if (!strcmp(out[i].key, "ssh (direct)") &&
		    !strcmp(out[i].value, "ssh -p 41022 root@203.0.113.9"))
			ssh_direct = true;
		if (!strcmp(out[i].key, "ssh (proxy)") &&
		    !strcmp(out[i].value, "ssh -p 2200 root@ssh4.example"))
			ssh_proxy = true;
		if (!strcmp(out[i].key, "prepaid credit") && !strcmp(out[i].value, "$12.50"))
			credit = true;
		if (strstr(out[i].value, "destroy it"))
			failed = true;
		if (!strcmp(out[i].key, "status_msg") && !strcmp(out[i].value, "OOM killed"))
			msg = true;
		if (!strcmp(out[i].key, "ports") && strstr(out[i].value, "203.0.113.9:41022 -> 22/tcp  ssh"))
			port = true;
		if (!strcmp(out[i].key, "template") && strstr(out[i].value, "PyTorch"))
			tmpl = true;
		if (!strcmp(out[i].key, "gpu_name") && !strcmp(out[i].value, "\"RTX 4090\""))
			field = true;
	}
	assert_true(cost);
	assert_true(ssh_direct);
	assert_true(ssh_proxy);
	assert_true(credit);
	assert_true(failed);
	assert_true(msg);
	assert_true(port);
	assert_true(tmpl);
	assert_true(field);
	/* the cap is respected */
	assert_int_equal(pane_detail_lines(&x, 8200, out, 3), 3);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_generated),
		cmocka_unit_test(test_help_one_language),
		cmocka_unit_test(test_help_fits_80_and_120),
		cmocka_unit_test(test_hints),
		cmocka_unit_test(test_hints_fit_the_row),
		cmocka_unit_test(test_theme_parse),
		cmocka_unit_test(test_theme_fallback),
		cmocka_unit_test(test_shipped_themes),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_detail_lines),
	};
	return cmocka_run_group_tests_name("ui_help", tests, NULL, NULL);
}
