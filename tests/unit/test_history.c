/* test_history.c: the `:` and `/` prompts' histories (issue 12): Up/Down
 * browsing keeping the typed line, no repeat of the newest entry, the cap,
 * the file's round trip with mode 0600 under XDG_STATE_HOME, lines that
 * could hold a secret never kept, and Tab completion of the command words
 * and of theme names. */
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

#include "command.h"
#include "history.h"
#include "theme.h"

static void test_ring(void **state)
{
	(void)state;
	struct history h;
	history_init(&h);
	assert_null(history_prev(&h, "typed")); /* empty: nothing older */
	assert_true(history_add(&h, "sort gpus"));
	assert_true(history_add(&h, "theme light"));
	assert_false(history_add(&h, "theme light")); /* consecutive repeat */
	assert_false(history_add(&h, ""));
	assert_true(history_add(&h, "sort gpus")); /* not consecutive: kept */
	assert_int_equal(h.n, 3);
	assert_string_equal(history_prev(&h, "half"), "sort gpus");
	assert_string_equal(history_prev(&h, "ignored"), "theme light");
	assert_string_equal(history_prev(&h, "ignored"), "sort gpus");
	assert_null(history_prev(&h, "ignored")); /* at the oldest */
	assert_string_equal(history_next(&h), "theme light");
	assert_string_equal(history_next(&h), "sort gpus");
	assert_string_equal(history_next(&h), "half"); /* the line being typed comes back */
	assert_null(history_next(&h));
	history_reset(&h);
	assert_string_equal(history_prev(&h, ""), "sort gpus");
	history_free(&h);
}

static void test_cap(void **state)
{
	(void)state;
	struct history h;
	history_init(&h);
	char line[32];
	for (int i = 0; i < HISTORY_CAP + 50; i++) {
		snprintf(line, sizeof line, "filter %d", i);
		assert_true(history_add(&h, line));
	}
	assert_int_equal(h.n, HISTORY_CAP);
	assert_string_equal(h.e[0], "filter 50"); /* the oldest went */
	snprintf(line, sizeof line, "filter %d", HISTORY_CAP + 49);
	assert_string_equal(h.e[HISTORY_CAP - 1], line);
	history_free(&h);
}

static void test_secrets(void **state)
{
	(void)state;
	assert_true(history_secret("filter KEY=abc"));
	assert_true(history_secret("my-Token-123"));
	assert_true(history_secret("SECRET"));
	assert_true(history_secret("set password hunter2"));
	assert_true(history_secret("api_key"));
	assert_false(history_secret("status=running"));
	struct history h;
	history_init(&h);
	assert_false(history_add(&h, "apikey 0123456789abcdef"));
	assert_int_equal(h.n, 0);
	history_free(&h);
}

static char dir[256];

static void test_save_load(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/rentop-hist-XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("XDG_STATE_HOME", dir, 1);
	char path[1024], want[1024];
	assert_true(history_path(path, sizeof path));
	snprintf(want, sizeof want, "%s/rentop/history", dir);
	assert_string_equal(path, want);

	struct history c, f;
	history_init(&c);
	history_init(&f);
	history_add(&c, "theme light");
	history_add(&c, "sort $/H");
	history_add(&f, "gpu=4090");
	/* a secret forced into memory (as an older build might) is still not written */
	snprintf(f.e[f.n++], HISTORY_LINE, "token abc");
	char err[300] = "";
	assert_true(history_save(&c, &f, path, err, sizeof err));
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	char sub[1100];
	snprintf(sub, sizeof sub, "%s/rentop", dir);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	/* a hand-edited file: a secret line there is dropped on load */
	FILE *fp = fopen(path, "a");
	assert_non_null(fp);
	fputs(":apikey 1234\n/password\n", fp);
	fclose(fp);

	struct history c2, f2;
	history_init(&c2);
	history_init(&f2);
	assert_true(history_load(&c2, &f2, path, err, sizeof err));
	assert_int_equal(c2.n, 2);
	assert_string_equal(c2.e[0], "theme light");
	assert_string_equal(c2.e[1], "sort $/H");
	assert_int_equal(f2.n, 1);
	assert_string_equal(f2.e[0], "gpu=4090");

	/* missing file: empty, no error */
	struct history c3, f3;
	history_init(&c3);
	history_init(&f3);
	char missing[1100];
	snprintf(missing, sizeof missing, "%s/none", dir);
	assert_true(history_load(&c3, &f3, missing, err, sizeof err));
	assert_int_equal(c3.n + f3.n, 0);

	unlink(path);
	rmdir(sub);
	rmdir(dir);
	history_free(&c);
	history_free(&f);
	history_free(&c2);
	history_free(&f2);
	history_free(&c3);
	history_free(&f3);
}

static void test_complete_commands(void **state)
{
	(void)state;
	const char *w[64];
	size_t n = command_words(w, 64);
	assert_true(n >= 6);
	char out[64], list[300];
	assert_int_equal(history_complete("the", w, n, out, sizeof out, list, sizeof list), 1);
	assert_string_equal(out, "theme");
	/* "q" and "quit" both match: the common prefix, both listed */
	assert_int_equal(history_complete("q", w, n, out, sizeof out, list, sizeof list), 2);
	assert_string_equal(out, "q");
	assert_non_null(strstr(list, "quit"));
	/* "re" is refresh alone among the app's words */
	assert_int_equal(history_complete("re", w, n, out, sizeof out, list, sizeof list), 1);
	assert_string_equal(out, "refresh");
	assert_int_equal(history_complete("zz", w, n, out, sizeof out, list, sizeof list), 0);
	assert_string_equal(out, "zz");
	/* duplicates among the candidates count once */
	const char *d[] = { "stop", "stop", "start" };
	assert_int_equal(history_complete("st", d, 3, out, sizeof out, list, sizeof list), 2);
	assert_string_equal(out, "st");
	assert_string_equal(list, "stop  start");
	assert_int_equal(history_complete("sto", d, 3, out, sizeof out, list, sizeof list), 1);
	assert_string_equal(out, "stop");
}

static void test_complete_themes(void **state)
{
	(void)state;
	char tdir[] = "/tmp/rentop-themes-XXXXXX";
	assert_non_null(mkdtemp(tdir));
	const char *names[] = { "qq-two", "qq-one", "zebra" };
	char p[512];
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s.theme", tdir, names[i]);
		FILE *fp = fopen(p, "w");
		assert_non_null(fp);
		fputs("[colors]\n", fp);
		fclose(fp);
	}
	snprintf(p, sizeof p, "%s/notes.txt", tdir);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fclose(fp);
	setenv("RENTOP_THEMES", tdir, 1);
	static char t[64][64];
	size_t n = theme_list(t, 64);
	const char *c[64];
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		c[i] = t[i];
		if (i && strcmp(t[i - 1], t[i]) >= 0)
			fail_msg("not sorted: %s %s", t[i - 1], t[i]);
		if (!strcmp(t[i], "qq-one") || !strcmp(t[i], "qq-two") || !strcmp(t[i], "zebra"))
			found++;
		assert_null(strstr(t[i], "notes"));
	}
	assert_int_equal(found, 3);
	char out[64], list[300];
	assert_int_equal(history_complete("q", c, n, out, sizeof out, list, sizeof list), 2);
	assert_string_equal(out, "qq-"); /* the common prefix of qq-one and qq-two */
	assert_string_equal(list, "qq-one  qq-two");
	assert_int_equal(history_complete("zeb", c, n, out, sizeof out, list, sizeof list), 1);
	assert_string_equal(out, "zebra");
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s.theme", tdir, names[i]);
		unlink(p);
	}
	snprintf(p, sizeof p, "%s/notes.txt", tdir);
	unlink(p);
	rmdir(tdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_secrets),
		cmocka_unit_test(test_save_load),
		cmocka_unit_test(test_complete_commands),
		cmocka_unit_test(test_complete_themes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
