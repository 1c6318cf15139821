/* test_logtail.c: the log buffer: every merge case (first answer, no
 * overlap, full overlap, partial overlap, runs of identical lines at the
 * window's edge, a log rotated between polls, a stale answer, empty answers,
 * CRLF and a missing final newline), hostile lines stored inert, the ring at
 * capacity with sequence numbers, search with wrap-around both ways, the
 * filter, the time-column rule, saving (0600, no overwrite unless told, a
 * filtered save) and the default file name; the gap marker (stored
 * between the two answers of a gap only, never taken for a log line of the
 * same text, kept by a filter, saved, evicted as any line). */
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

#include "state/logtail.h"
#include "base/util.h"

/* The held lines joined by '|'. */
static char *held(const struct logtail *t)
{
	size_t cap = 1, len = 0;
	for (size_t i = 0; i < logtail_count(t); i++)
		cap += strlen(logtail_line(t, i)) + 1;
	char *s = xmalloc(cap);
	s[0] = '\0';
	for (size_t i = 0; i < logtail_count(t); i++) {
		if (i)
			s[len++] = '|';
		strcpy(s + len, logtail_line(t, i));
		len += strlen(logtail_line(t, i));
	}
	return s;
}

static void expect(const struct logtail *t, const char *want)
{
	char *got = held(t);
	if (strcmp(got, want))
		fail_msg("held '%s', want '%s'", got, want);
	free(got);
}

static size_t merge(struct logtail *t, const char *text, struct logtail_merge *r)
{
	return logtail_merge(t, text, strlen(text), r);
}

static void test_first_and_partial_overlap(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	assert_int_equal(logtail_capacity(t), LOGTAIL_DEFAULT_LINES);
	struct logtail_merge r;
	assert_int_equal(merge(t, "a\nb\nc\n", &r), 3);
	assert_false(r.gap);
	expect(t, "a|b|c");
	/* the window slid by two */
	assert_int_equal(merge(t, "c\nd\ne", &r), 2);
	assert_int_equal(r.overlap, 1);
	assert_int_equal(r.answer_lines, 3);
	expect(t, "a|b|c|d|e");
	/* a larger window than before, overlapping more */
	assert_int_equal(merge(t, "b\nc\nd\ne\nf\n", &r), 1);
	assert_int_equal(r.overlap, 4);
	expect(t, "a|b|c|d|e|f");
	logtail_free(t);
}

static void test_full_overlap_and_empty(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	merge(t, "a\nb\nc\n", NULL);
	struct logtail_merge r;
	assert_int_equal(merge(t, "a\nb\nc\n", &r), 0);
	assert_int_equal(r.overlap, 3);
	assert_false(r.gap);
	assert_int_equal(merge(t, "b\nc", &r), 0);
	assert_int_equal(logtail_merge(t, "", 0, &r), 0);
	assert_int_equal(r.answer_lines, 0);
	assert_int_equal(logtail_merge(t, NULL, 0, NULL), 0);
	expect(t, "a|b|c");
	/* an empty answer on an empty buffer */
	struct logtail *e = logtail_new(4);
	assert_int_equal(merge(e, "", &r), 0);
	assert_int_equal(logtail_count(e), 0);
	assert_int_equal(logtail_first_seq(e), 0);
	logtail_free(e);
	logtail_free(t);
}

static void test_no_overlap_is_a_gap(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	merge(t, "a\nb\nc\n", NULL);
	struct logtail_merge r;
	/* more lines came than the window holds */
	assert_int_equal(merge(t, "x\ny\nz\n", &r), 3);
	assert_true(r.gap);
	assert_int_equal(r.overlap, 0);
	expect(t, "a|b|c|x|y|z");
	logtail_free(t);
}

static void test_identical_lines_do_not_fool_the_merge(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	merge(t, "a\nb\nx\nx\nx\n", NULL);
	struct logtail_merge r;
	/* one more x and a c: the overlap is the three x's, not the last one */
	assert_int_equal(merge(t, "x\nx\nx\nx\nc\n", &r), 2);
	assert_int_equal(r.overlap, 3);
	expect(t, "a|b|x|x|x|x|c");
	/* the same answer again adds nothing */
	assert_int_equal(merge(t, "x\nx\nx\nx\nc\n", &r), 0);
	/* a window that starts inside the run of x's */
	assert_int_equal(merge(t, "x\nx\nc\nd\n", &r), 1);
	assert_int_equal(r.overlap, 3);
	expect(t, "a|b|x|x|x|x|c|d");
	/* many repeats, then a new line */
	struct logtail *u = logtail_new(0);
	char big[4096] = "";
	for (int i = 0; i < 200; i++)
		strcat(big, "same\n");
	assert_int_equal(merge(u, big, NULL), 200);
	strcat(big, "next\n");
	assert_int_equal(merge(u, big + 5, &r), 1); /* the window slid by one */
	assert_int_equal(logtail_count(u), 201);
	assert_string_equal(logtail_line(u, 200), "next");
	logtail_free(u);
	logtail_free(t);
}

static void test_rotated_log_and_stale_answer(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	merge(t, "boot 1\nserve 1\nserve 2\nserve 3\n", NULL);
	struct logtail_merge r;
	/* the log restarted: a fresh, shorter log whose lines were never held */
	assert_int_equal(merge(t, "boot 2\n", &r), 1);
	assert_true(r.gap);
	expect(t, "boot 1|serve 1|serve 2|serve 3|boot 2");
	/* then it grows normally */
	assert_int_equal(merge(t, "boot 2\nready\n", &r), 1);
	assert_false(r.gap);
	/* an older answer (a lagging replica): entirely inside, not at the end */
	assert_int_equal(merge(t, "serve 1\nserve 2\n", &r), 0);
	assert_true(r.stale);
	assert_false(r.gap);
	expect(t, "boot 1|serve 1|serve 2|serve 3|boot 2|ready");
	logtail_free(t);
}

static void test_crlf_hostile_and_sanitised(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	const char raw[] = "one\r\n\x1b]0;pwned\x07title\r\n\x1b[31mred\x1b[0m \xc2\x9b" "1m\xe2\x80\xae"
			   "bidi\xff\n\ttab";
	assert_int_equal(logtail_merge(t, raw, sizeof raw - 1, NULL), 4);
	assert_string_equal(logtail_line(t, 0), "one");
	assert_string_equal(logtail_line(t, 3), " tab");
	assert_string_equal(logtail_line(t, 1), "title");
	const char *l2 = logtail_line(t, 2);
	for (const char *p = l2; *p; p++)
		assert_true((unsigned char)*p >= 0x20 && (unsigned char)*p != 0x7f &&
			    (unsigned char)*p != 0x1b);
	assert_null(strstr(l2, "\xe2\x80\xae"));
	assert_null(strstr(l2, "\xc2\x9b"));
	assert_non_null(strstr(l2, "red"));
	/* the same hostile text again: compared after sanitising, so no duplicate */
	assert_int_equal(logtail_merge(t, raw, sizeof raw - 1, NULL), 0);
	/* a blank line in the middle is a line */
	assert_int_equal(merge(t, "x\n\ny\n", NULL), 3);
	assert_string_equal(logtail_line(t, 5), "");
	logtail_append(t, "\x1b[2J-- marker --");
	assert_string_equal(logtail_line(t, logtail_count(t) - 1), "-- marker --");
	logtail_free(t);
}

static void test_ring_at_capacity(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(5);
	struct logtail_merge r;
	merge(t, "1\n2\n3\n4\n", &r);
	assert_int_equal(logtail_first_seq(t), 1);
	assert_int_equal(merge(t, "3\n4\n5\n6\n7\n", &r), 3);
	assert_int_equal(r.evicted, 2);
	expect(t, "3|4|5|6|7");
	assert_int_equal(logtail_first_seq(t), 3);
	/* the overlap is still found after eviction */
	assert_int_equal(merge(t, "6\n7\n8\n", &r), 1);
	expect(t, "4|5|6|7|8");
	assert_int_equal(logtail_first_seq(t), 4);
	assert_null(logtail_line(t, 5));
	/* an answer larger than the capacity keeps its last lines */
	assert_int_equal(merge(t, "a\nb\nc\nd\ne\nf\ng\n", &r), 7);
	assert_int_equal(r.evicted, 7);
	expect(t, "c|d|e|f|g");
	/* 100000 lines through a ring of 1000 */
	struct logtail *big = logtail_new(1000);
	for (int i = 0; i < 100000; i += 50) {
		char buf[2048] = "";
		for (int j = i - 50 < 0 ? 0 : i - 50; j < i + 50; j++)
			sprintf(buf + strlen(buf), "line %d\n", j);
		merge(big, buf, NULL);
	}
	assert_int_equal(logtail_count(big), 1000);
	assert_string_equal(logtail_line(big, 999), "line 99999");
	assert_string_equal(logtail_line(big, 0), "line 99000");
	assert_int_equal(logtail_first_seq(big), 99001);
	logtail_free(big);
	logtail_clear(t);
	assert_int_equal(logtail_count(t), 0);
	merge(t, "z\n", NULL);
	assert_int_equal(logtail_first_seq(t), 16); /* sequence numbers go on */
	logtail_free(t);
}

static void test_search_and_filter(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	merge(t, "GET /a 200\nPOST /b 500\nget /c 200\nhealth ok\nGET /d 404\n", NULL);
	size_t off;
	assert_true(logtail_find("POST /b 500", "/b", false, 0, &off));
	assert_int_equal(off, 5);
	assert_false(logtail_find("POST /b 500", "/b", false, 6, &off));
	assert_true(logtail_find("aXbxc", "x", true, 2, &off));
	assert_int_equal(off, 3);
	assert_false(logtail_find("abc", "", false, 0, &off));
	size_t f;
	bool wrapped;
	assert_true(logtail_search(t, "GET", false, 0, 1, &f, &wrapped));
	assert_int_equal(f, 4);
	assert_false(wrapped);
	assert_true(logtail_search(t, "GET", false, 4, 1, &f, &wrapped));
	assert_int_equal(f, 0);
	assert_true(wrapped);
	assert_true(logtail_search(t, "GET", true, 0, 1, &f, &wrapped));
	assert_int_equal(f, 2);
	assert_true(logtail_search(t, "GET", false, 0, -1, &f, &wrapped));
	assert_int_equal(f, 4);
	assert_true(wrapped);
	assert_true(logtail_search(t, "GET", false, 4, -1, &f, &wrapped));
	assert_int_equal(f, 0);
	assert_false(wrapped);
	/* the only match is the current line: found last */
	assert_true(logtail_search(t, "health", false, 3, 1, &f, &wrapped));
	assert_int_equal(f, 3);
	assert_false(logtail_search(t, "nothing", false, 0, 1, &f, NULL));
	size_t n;
	size_t *v = logtail_filter(t, "get", true, &n);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 2);
	assert_int_equal(v[2], 4);
	free(v);
	v = logtail_filter(t, "", false, &n);
	assert_int_equal(n, 5);
	free(v);
	assert_null(logtail_filter(t, "zzz", false, &n));
	assert_int_equal(n, 0);
	logtail_free(t);
}

static void test_time_prefix(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		size_t n;
	} cases[] = {
		{"2026-11-23T09:24:13Z worker ready", 21},
		{"2026-11-23T09:24:13.123456+00:00 x", 33},
		{"2026-11-23 09:24:13,120 INFO x", 24},
		{"2026-11-23T09:24:13+0100 x", 25},
		{"[2026-11-23T09:24:13Z] x", 23},
		{"Nov 23 09:24:13 host x", 16},
		{"Nov  3 09:24:13 host x", 16},
		{"09:24:13.5 | x", 13},
		{"12:00:00: started", 10},
		{"2026-11-23T09:24:13Z", 20},
		{"loaded model in 12:00:00", 0},
		{"12:00:00abc", 0},
		{"2026-11-23 x", 0},
		{"[09:24 x", 0},
		{"", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t got = logtail_time_prefix(cases[i].line);
		if (got != cases[i].n)
			fail_msg("time_prefix('%s') = %zu, want %zu", cases[i].line, got, cases[i].n);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = xmalloc(4096);
	size_t n = fread(buf, 1, 4095, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_save(void **state)
{
	(void)state;
	char dir[] = "/tmp/rentop-test-logtail-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/ep.log", dir);
	struct logtail *t = logtail_new(0);
	merge(t, "one\ntwo\nthree\n", NULL);
	char err[256];
	assert_int_equal(logtail_save(t, NULL, 0, path, false, err, sizeof err), 0);
	char *got = slurp(path);
	assert_string_equal(got, "one\ntwo\nthree\n");
	free(got);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* refuses to overwrite unless told */
	merge(t, "three\nfour\n", NULL);
	assert_int_equal(logtail_save(t, NULL, 0, path, false, err, sizeof err), 1);
	assert_non_null(strstr(err, "exists"));
	got = slurp(path);
	assert_string_equal(got, "one\ntwo\nthree\n");
	free(got);
	assert_int_equal(logtail_save(t, NULL, 0, path, true, err, sizeof err), 0);
	got = slurp(path);
	assert_string_equal(got, "one\ntwo\nthree\nfour\n");
	free(got);
	/* a filtered save writes the filter's lines */
	size_t n;
	size_t *v = logtail_filter(t, "o", false, &n);
	assert_int_equal(logtail_save(t, v, n, path, true, err, sizeof err), 0);
	free(v);
	got = slurp(path);
	assert_string_equal(got, "one\ntwo\nfour\n");
	free(got);
	/* an unwritable place is an error with a message */
	char *bad = xasprintf("%s/no/such/dir/x.log", dir);
	assert_int_equal(logtail_save(t, NULL, 0, bad, false, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot write"));
	free(bad);
	unlink(path);
	rmdir(dir);
	free(path);
	logtail_free(t);
	char buf[128];
	logtail_default_name(buf, sizeof buf, "llm chat/../x", 0);
	assert_int_equal(strncmp(buf, "llm_chat_.._x-", 14), 0);
	assert_non_null(strstr(buf, ".log"));
	logtail_default_name(buf, sizeof buf, ".hidden", 0);
	assert_int_equal(buf[0], '_');
}

#define GAP "--- lines may be missing here (not polled for 45s) ---"

/* A gap gets the marker between what was held and the new lines; no gap,
 * the first answer and a stale answer get none. */
static void test_gap_marker(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	struct logtail_merge r;
	assert_int_equal(logtail_merge_gap(t, "a\nb\n", 4, GAP, &r), 2);
	assert_false(r.marked); /* the first answer: nothing held, no gap */
	assert_int_equal(logtail_merge_gap(t, "b\nc\n", 4, GAP, &r), 1);
	assert_false(r.marked);
	assert_int_equal(logtail_merge_gap(t, "a\nb\n", 4, GAP, &r), 0); /* stale */
	assert_true(r.stale);
	assert_false(r.marked);
	/* more lines came than the answer holds: c..f lost */
	assert_int_equal(logtail_merge_gap(t, "g\nh\n", 4, GAP, &r), 2);
	assert_true(r.gap);
	assert_true(r.marked);
	expect(t, "a|b|c|" GAP "|g|h");
	assert_false(logtail_is_marker(t, 2));
	assert_true(logtail_is_marker(t, 3));
	assert_false(logtail_is_marker(t, 4));
	assert_false(logtail_is_marker(t, 99));
	/* the next answer overlaps past the marker as usual */
	assert_int_equal(logtail_merge_gap(t, "g\nh\ni\n", 6, GAP, &r), 1);
	assert_false(r.marked);
	expect(t, "a|b|c|" GAP "|g|h|i");
	/* without a gap line: the gap is reported, nothing stored for it */
	assert_int_equal(logtail_merge(t, "x\n", 2, &r), 1);
	assert_true(r.gap);
	assert_false(r.marked);
	expect(t, "a|b|c|" GAP "|g|h|i|x");
	logtail_free(t);
}

/* The log writes the marker's text itself: a line of the log, never taken
 * for the marker in the overlap, and not flagged as one. */
static void test_gap_marker_not_spoofed(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(0);
	struct logtail_merge r;
	logtail_merge_gap(t, "a\n", 2, GAP, &r);
	logtail_merge_gap(t, "z\n", 2, GAP, &r); /* a gap: a|MARK|z */
	assert_true(r.marked);
	/* an answer starting with the marker's text and z: the held marker is
	 * no match for it (a gap again), the log's line is stored as a line */
	const char *ans = GAP "\nz\nq\n";
	logtail_merge_gap(t, ans, strlen(ans), GAP, &r);
	assert_true(r.gap);
	assert_int_equal(logtail_count(t), 7);
	assert_true(logtail_is_marker(t, 1));
	assert_true(logtail_is_marker(t, 3));
	assert_false(logtail_is_marker(t, 4)); /* the log's own line */
	assert_string_equal(logtail_line(t, 4), GAP);
	logtail_free(t);
}

/* A filter keeps the marker; a save writes it; at capacity it is evicted
 * as any line. */
static void test_gap_marker_filter_save_evict(void **state)
{
	(void)state;
	struct logtail *t = logtail_new(4);
	const char *a1 = "err 1\nok 2\n", *a2 = "err 9\n", *a3 = "err 9\na\nb\nc\n";
	logtail_merge_gap(t, a1, strlen(a1), GAP, NULL);
	logtail_merge_gap(t, a2, strlen(a2), GAP, NULL);
	expect(t, "err 1|ok 2|" GAP "|err 9");
	size_t n;
	size_t *idx = logtail_filter(t, "err", false, &n);
	assert_int_equal(n, 3);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 2);
	assert_int_equal(idx[2], 3);
	char path[] = "/tmp/test_logtail_gap_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char err[200];
	assert_int_equal(logtail_save(t, idx, n, path, true, err, sizeof err), 0);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char buf[400];
	size_t got = fread(buf, 1, sizeof buf - 1, f);
	buf[got] = '\0';
	fclose(f);
	unlink(path);
	assert_string_equal(buf, "err 1\n" GAP "\nerr 9\n");
	free(idx);
	logtail_merge_gap(t, a3, strlen(a3), GAP, NULL); /* ring of 4: the marker goes */
	expect(t, "err 9|a|b|c");
	for (size_t i = 0; i < 4; i++)
		assert_false(logtail_is_marker(t, i));
	logtail_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_and_partial_overlap),
		cmocka_unit_test(test_full_overlap_and_empty),
		cmocka_unit_test(test_no_overlap_is_a_gap),
		cmocka_unit_test(test_identical_lines_do_not_fool_the_merge),
		cmocka_unit_test(test_rotated_log_and_stale_answer),
		cmocka_unit_test(test_crlf_hostile_and_sanitised),
		cmocka_unit_test(test_ring_at_capacity),
		cmocka_unit_test(test_search_and_filter),
		cmocka_unit_test(test_time_prefix),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_gap_marker),
		cmocka_unit_test(test_gap_marker_not_spoofed),
		cmocka_unit_test(test_gap_marker_filter_save_evict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
