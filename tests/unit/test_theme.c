/* test_theme.c: the theme files' search and the built-in default.  The
 * built-in colours are themes/default.theme's, so that a rentop run where no
 * theme file can be found (from outside the checkout, not installed) still
 * has its default theme, with no warning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "theme.h"
#include "base/util.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = xmalloc(65536);
	size_t n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void builtin_is_default_theme(void **state)
{
	(void)state;
	const char *src = getenv("SRCDIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/themes/default.theme", src && *src ? src : ".");
	char *text = slurp(path);
	assert_non_null(text);
	struct theme file, built;
	theme_builtin(&built);
	/* parse onto an empty theme: every role must come from the file */
	memset(&file, 0, sizeof file);
	char err[200];
	assert_true(theme_parse_text(&file, text, err, sizeof err));
	free(text);
	for (int r = 0; r < ROLE__COUNT; r++) {
		if (!file.role[r].set)
			fail_msg("default.theme does not set %s", theme_role_name((enum role)r));
		if (file.role[r].fg != built.role[r].fg || file.role[r].bg != built.role[r].bg ||
		    file.role[r].attrs != built.role[r].attrs)
			fail_msg("role %s: default.theme %d %d %#x, built-in %d %d %#x",
				 theme_role_name((enum role)r), file.role[r].fg, file.role[r].bg,
				 file.role[r].attrs, built.role[r].fg, built.role[r].bg,
				 built.role[r].attrs);
	}
}

/* No theme directory anywhere: "default" is the built-in one, silently; any
 * other name is still an error that names it. */
static void default_found_nowhere(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/rentop-theme.XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	char cwd[1024];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	setenv("RENTOP_THEMES", dir, 1);
	setenv("HOME", dir, 1);
	unsetenv("XDG_CONFIG_HOME");
	char path[1200];
	bool installed = theme_find("default", path, sizeof path);
	struct theme t;
	char err[300] = "";
	assert_true(theme_load(&t, "default", err, sizeof err));
	assert_string_equal(err, "");
	assert_string_equal(t.name, "default");
	if (!installed) {
		struct theme b;
		theme_builtin(&b);
		assert_memory_equal(t.role, b.role, sizeof b.role);
	}
	assert_false(theme_load(&t, "no-such-theme", err, sizeof err));
	assert_non_null(strstr(err, "\"no-such-theme\" not found"));
	assert_int_equal(chdir(cwd), 0);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtin_is_default_theme),
		cmocka_unit_test(default_found_nowhere),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
