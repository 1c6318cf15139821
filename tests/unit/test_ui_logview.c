/* test_ui_logview.c: the log pane's display rules (logview.c) over a real
 * logtail: following the end as lines arrive, pausing on scroll up and
 * keeping the top line while lines are appended and old ones evicted,
 * resuming with follow, the `c` floor (the next answer's overlap still
 * matched, nothing shown twice), the `&` filter, `/` search with n/N
 * wrapping and highlighting ranges, wrapping rows, the hidden time column,
 * levels, and the masking of secrets (what is saved is what is shown). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/logtail.h"
#include "views/logs/logview.h"

/* An answer with lines [from, to] "line N". */
static void feed(struct logtail *t, int from, int to)
{
	char buf[64 * 1024];
	size_t n = 0;
	for (int i = from; i <= to; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "[2026-11-23T09:00:%02dZ] line %d\n",
				      i % 60, i);
	logtail_merge(t, buf, n, NULL);
}

/* The text of shown line k. */
static const char *shown(struct logview *v, struct logtail *t, size_t k)
{
	return logtail_line(t, logview_line(v, k));
}

static void test_follow_and_pause(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(100);
	struct logview v;
	logview_init(&v);
	feed(t, 1, 30);
	size_t k;
	int skip;
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_int_equal(k, 20); /* the last 10 of 30 */
	assert_int_equal(skip, 0);
	assert_non_null(strstr(shown(&v, t, k), "line 21"));
	/* new lines: still at the end */
	feed(t, 21, 35);
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_non_null(strstr(shown(&v, t, k), "line 26"));
	/* scrolling down while following changes nothing */
	logview_scroll(&v, t, 10, 80, 3);
	assert_true(v.follow);
	/* up: paused, one line above the window */
	logview_scroll(&v, t, 10, 80, -1);
	assert_false(v.follow);
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_non_null(strstr(shown(&v, t, k), "line 25"));
	/* lines arrive: the window stays put */
	feed(t, 30, 50);
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_non_null(strstr(shown(&v, t, k), "line 25"));
	/* down past the end does not resume following */
	logview_scroll(&v, t, 10, 80, 1000);
	assert_false(v.follow);
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_non_null(strstr(shown(&v, t, k), "line 41")); /* the end's window */
	/* top, then evictions past the top line: clamped to the oldest held */
	logview_top(&v, t);
	feed(t, 45, 160); /* capacity 100: lines 1..60 evicted */
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_int_equal(k, 0);
	assert_non_null(strstr(shown(&v, t, 0), "line 61"));
	/* G: following again */
	logview_follow(&v);
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_non_null(strstr(shown(&v, t, k), "line 151"));
	logview_free(&v);
	logtail_free(t);
}

static void test_clear_floor(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	struct logview v;
	logview_init(&v);
	feed(t, 1, 20);
	logview_clear(&v, t);
	logview_sync(&v, t, false);
	assert_int_equal(logview_count(&v), 0);
	/* the next answer overlaps what is held: only the new lines show */
	feed(t, 5, 24);
	logview_sync(&v, t, false);
	assert_int_equal(logview_count(&v), 4);
	assert_non_null(strstr(shown(&v, t, 0), "line 21"));
	assert_non_null(strstr(shown(&v, t, 3), "line 24"));
	/* clearing an empty log hides nothing that comes later */
	struct logtail *e = logtail_new(0);
	struct logview w;
	logview_init(&w);
	logview_clear(&w, e);
	feed(e, 1, 3);
	logview_sync(&w, e, false);
	assert_int_equal(logview_count(&w), 3);
	logview_free(&w);
	logtail_free(e);
	logview_free(&v);
	logtail_free(t);
}

static void test_filter(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	struct logview v;
	logview_init(&v);
	feed(t, 1, 30);
	logview_set_filter(&v, t, "line 1");
	/* 1, 10..19 */
	assert_int_equal(logview_count(&v), 11);
	assert_non_null(strstr(shown(&v, t, 0), "line 1\0"));
	feed(t, 25, 31); /* a new matching line? 31 no; the list follows the log */
	logview_sync(&v, t, false);
	assert_int_equal(logview_count(&v), 11);
	feed(t, 31, 100);
	logview_sync(&v, t, false);
	assert_int_equal(logview_count(&v), 12); /* + line 100 */
	/* the filter's case: lower case folds, a capital is exact */
	logview_set_filter(&v, t, "LINE 1");
	assert_int_equal(logview_count(&v), 0);
	logview_set_filter(&v, t, "");
	assert_int_equal(logview_count(&v), 100);
	logview_free(&v);
	logtail_free(t);
}

static void test_search(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	struct logview v;
	logview_init(&v);
	feed(t, 1, 50);
	bool wrapped;
	logview_set_search(&v, "nothing");
	assert_false(logview_next_match(&v, t, 10, 80, 1, &wrapped));
	assert_true(v.follow);
	logview_set_search(&v, "line 4");
	/* from the window (lines 41..50): 4, then 40..49 forward from its top */
	assert_true(logview_next_match(&v, t, 10, 80, 1, &wrapped));
	assert_false(v.follow);
	assert_non_null(strstr(logtail_line(t, v.match_seq - logtail_first_seq(t)), "line 41"));
	assert_false(wrapped);
	for (int i = 0; i < 8; i++)
		assert_true(logview_next_match(&v, t, 10, 80, 1, &wrapped));
	assert_non_null(strstr(logtail_line(t, v.match_seq - logtail_first_seq(t)), "line 49"));
	assert_true(logview_next_match(&v, t, 10, 80, 1, &wrapped));
	assert_true(wrapped);
	assert_non_null(strstr(logtail_line(t, v.match_seq - logtail_first_seq(t)), "line 4\0"));
	/* N: back across the start */
	assert_true(logview_next_match(&v, t, 10, 80, -1, &wrapped));
	assert_true(wrapped);
	assert_non_null(strstr(logtail_line(t, v.match_seq - logtail_first_seq(t)), "line 49"));
	/* the match is in the window (near the end: the end's window) */
	size_t k;
	int skip;
	logview_window(&v, t, 10, 80, &k, &skip);
	uint64_t top = logtail_first_seq(t) + logview_line(&v, k);
	assert_true(v.match_seq >= top && v.match_seq < top + 10);
	logview_set_search(&v, "line 1");
	assert_true(logview_next_match(&v, t, 10, 80, 1, &wrapped)); /* from 49: wraps to 1 */
	logview_window(&v, t, 10, 80, &k, &skip);
	assert_int_equal(logtail_first_seq(t) + logview_line(&v, k), v.match_seq); /* at the top */
	/* ranges to highlight */
	size_t s[8], e[8];
	logview_set_search(&v, "ab");
	assert_int_equal(logview_matches(&v, "xxABxabab", s, e, 8), 3); /* folded */
	assert_int_equal(s[0], 2);
	assert_int_equal(e[0], 4);
	assert_int_equal(s[2], 7);
	logview_set_search(&v, "Ab");
	assert_int_equal(logview_matches(&v, "xxABxabab", s, e, 8), 0);
	logview_set_search(&v, "");
	assert_int_equal(logview_matches(&v, "abc", s, e, 8), 0);
	logview_free(&v);
	logtail_free(t);
}

static void test_wrap_and_time(void **state)
{
	(void)state;
	struct logview v;
	logview_init(&v);
	const char *l = "[2026-11-23T09:24:13Z] 0123456789abcdefghij";
	assert_int_equal(logview_rows(&v, l, 10), 1); /* not wrapped */
	v.wrap = true;
	assert_int_equal(logview_rows(&v, l, 10), 5); /* 43 cells */
	v.show_time = false;
	assert_string_equal(logview_text(&v, l), "0123456789abcdefghij");
	assert_int_equal(logview_rows(&v, l, 10), 2);
	size_t st[8];
	assert_int_equal(logview_wrap_starts("0123456789abcdefghij", 10, st, 8), 2);
	assert_int_equal(st[1], 10);
	/* a wide character never straddles the edge */
	assert_int_equal(logview_wrap_starts("abc\xe4\xb8\xad", 4, st, 8), 2);
	assert_int_equal(st[1], 3);
	/* following with wrapped lines: the last line ends at the bottom */
	struct logtail *t = logtail_new(0);
	logtail_merge(t, "short\n0123456789012345678901234\n", 32, NULL);
	v.show_time = true;
	size_t k;
	int skip;
	logview_window(&v, t, 2, 10, &k, &skip); /* the long line takes 3 rows */
	assert_int_equal(k, 1);
	assert_int_equal(skip, 1);
	logview_free(&v);
	logtail_free(t);
}

static void test_level(void **state)
{
	(void)state;
	assert_int_equal(logview_level("worker 1: request done"), LVL_NONE);
	assert_int_equal(logview_level("ERROR: CUDA out of memory"), LVL_ERROR);
	assert_int_equal(logview_level("[W] low disk"), LVL_WARN);
	assert_int_equal(logview_level("level=warning msg=x"), LVL_WARN);
	assert_int_equal(logview_level("Traceback (most recent call last):"), LVL_ERROR);
	assert_int_equal(logview_level("DEBUG health check"), LVL_DEBUG);
	assert_int_equal(logview_level("no errors here"), LVL_NONE); /* "errors" is no level */
	assert_int_equal(logview_level("terror"), LVL_NONE);
}

static void test_mask(void **state)
{
	(void)state;
	char key[65];
	memset(key, 'a', 64);
	memcpy(key, "0123456789", 10);
	key[64] = '\0';
	char line[200];
	snprintf(line, sizeof line, "auth Bearer %s ok", key);
	char *m = logview_mask(line);
	assert_string_equal(m, "auth Bearer <hidden> ok");
	free(m);
	m = logview_mask("HF_TOKEN=hf_abcdef tokens=42 api_key=\"s3cr3t\" x=1");
	assert_string_equal(m, "HF_TOKEN=<hidden> tokens=42 api_key=<hidden> x=1");
	free(m);
	/* a template hash (32 hex) stays */
	m = logview_mask("template 0123456789abcdef0123456789abcdef");
	assert_string_equal(m, "template 0123456789abcdef0123456789abcdef");
	free(m);
	/* short values after secret names grow the text: no overflow */
	m = logview_mask("K=x,TOKEN=y,SECRET=z;PASSWORD=w");
	assert_non_null(strstr(m, "TOKEN=<hidden>"));
	assert_non_null(strstr(m, "PASSWORD=<hidden>"));
	free(m);
	m = logview_mask_text("a\nHF_TOKEN=abc\n\nb");
	assert_string_equal(m, "a\nHF_TOKEN=<hidden>\n\nb");
	free(m);
}

/* What `s` writes is the lines shown (floor and filter), masked. */
static void test_save_shown(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	struct logview v;
	logview_init(&v);
	char *masked = logview_mask_text("a 1\nHF_TOKEN=zzz b 2\nc 3\nb 4\n");
	logtail_merge(t, masked, strlen(masked), NULL);
	free(masked);
	logview_set_filter(&v, t, "b");
	char path[] = "/tmp/test_ui_logview.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char err[200];
	assert_int_equal(logtail_save(t, v.idx, logview_count(&v), path, false, err, sizeof err), 1);
	assert_int_equal(logtail_save(t, v.idx, logview_count(&v), path, true, err, sizeof err), 0);
	FILE *f = fopen(path, "r");
	char buf[200] = "";
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	assert_string_equal(buf, "HF_TOKEN=<hidden> b 2\nb 4\n");
	logview_free(&v);
	logtail_free(t);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follow_and_pause), cmocka_unit_test(test_clear_floor),
		cmocka_unit_test(test_filter),           cmocka_unit_test(test_search),
		cmocka_unit_test(test_wrap_and_time),    cmocka_unit_test(test_level),
		cmocka_unit_test(test_mask),             cmocka_unit_test(test_save_shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
