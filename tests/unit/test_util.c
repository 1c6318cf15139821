/* test_util.c: the sanitiser against every kind of hostile text (CSI, OSC,
 * DCS, two-byte escapes, C1 controls, bidi overrides, invalid UTF-8), and the
 * money, rate, duration, size and age formatting, string helpers and width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void san(const char *in, const char *want)
{
	char *got = util_sanitize(in);
	if (strcmp(got, want))
		fail_msg("sanitize(%s) = '%s', want '%s'", in, got, want);
	free(got);
}

static void san_n(const char *in, size_t len, const char *want)
{
	char *got = util_sanitize_n(in, len);
	if (strcmp(got, want))
		fail_msg("sanitize_n = '%s', want '%s'", got, want);
	free(got);
}

static void test_sanitize_escapes(void **state)
{
	(void)state;
	san("plain text", "plain text");
	san("\x1b[31mred\x1b[0m", "red");
	san("a\x1b[1;38;5;196mb", "ab");
	san("\x1b[2J\x1b[Hclear", "clear");
	san("\x1b]0;evil title\x07" "after", "after");                 /* OSC ... BEL */
	san("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link");      /* OSC 8 hyperlink, ST */
	san("\x1b]52;c;ZXZpbA==\xc2\x9c" "after", "after");              /* OSC ... C1 ST */
	san("\x1bPq#0;2;0;0;0\x1b\\x", "x");                         /* DCS (sixel) */
	san("\x1b_apc\x1b\\y", "y");                                  /* APC */
	san("\x1b(Bz", "z");                                          /* charset select */
	san("\x1b" "7save\x1b" "8", "save");                          /* DECSC / DECRC */
	san("\x1b" "creset", "reset");                                /* RIS */
	san("abc\x1b[", "abc");                                       /* unterminated CSI */
	san("abc\x1b]0;never ends", "abc");                           /* unterminated OSC */
	san("abc\x1b", "abc");                                        /* lone ESC */
	san("a\xc2\x9b" "2Jb", "ab");                                 /* C1 CSI */
	san("a\xc2\x9d" "0;t\x07" "b", "ab");                         /* C1 OSC */
	san("a\xc2\x90" "dcs\x1b\\b", "ab");                          /* C1 DCS */
}

static void test_sanitize_controls(void **state)
{
	(void)state;
	san("a\x07" "b\x08" "c\x7f" "d", "abcd");     /* BEL, BS, DEL */
	san("a\rb", "ab");
	san("tab\there", "tab here");
	san("two\nlines", "two lines");
	san("nel\xc2\x85" "x", "nelx");               /* C1 NEL */
	san("\xe2\x80\xae" "evil" "\xe2\x80\xac", "evil"); /* RLO ... PDF */
	san("\xe2\x81\xa6" "iso" "\xe2\x81\xa9", "iso");    /* LRI ... PDI */
	san("\xe2\x80\x8f" "rlm\xd8\x9c", "rlm");           /* RLM, ALM */
	san_n("a\0b", 3, "ab");                        /* embedded NUL */
	const char *two = "line1\r\nline2\x1b[0m\n";
	char *ml = util_sanitize_ml(two, strlen(two));
	assert_string_equal(ml, "line1\nline2\n");
	free(ml);
	char *null = util_sanitize(NULL);
	assert_string_equal(null, "");
	free(null);
	char *nn = util_sanitize_n(NULL, 5);
	assert_string_equal(nn, "");
	free(nn);
}

static void test_sanitize_utf8(void **state)
{
	(void)state;
	san("h\xc3\xa9llo \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80", "h\xc3\xa9llo \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80");
	san("bad\xff" "byte", "bad?byte");
	san("\xc0\xaf", "??");                  /* overlong '/' */
	san("\xe0\x80\xaf", "???");             /* overlong, 3 bytes */
	san("\xed\xa0\x80", "???");             /* UTF-16 surrogate */
	san("\xf4\x90\x80\x80", "????");        /* above U+10FFFF */
	san("cut\xe2\x82", "cut??");            /* truncated sequence */
	san("\xe2\x28\xa1", "?(?");             /* bad continuation */
	san("\x80lone", "?lone");
}

/* Invisible characters are shown, so that "default" + U+200B never reads
 * as "default"; emoji and accents are untouched. */
static void test_sanitize_invisible(void **state)
{
	(void)state;
	san("default\xe2\x80\x8b", "default<U+200B>");
	san("\xef\xbb\xbf" "key", "<U+FEFF>key");
	san("a\xe2\x81\xa0" "b\xc2\xad" "c", "a<U+2060>b<U+00AD>c");
	san("tag\xf3\xa0\x81\x81", "tag<U+E0041>");
	san("caf\xc3\xa9 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xf0\x9f\x98\x80");
	/* many in a row: the output grows past the input's length */
	char in[3 * 200 + 1], want[8 * 200 + 1];
	for (int i = 0; i < 200; i++) {
		memcpy(in + 3 * i, "\xe2\x80\x8c", 3);
		memcpy(want + 8 * i, "<U+200C>", 8);
	}
	in[600] = '\0';
	want[1600] = '\0';
	san(in, want);
	char *ml = util_sanitize_ml("x\xe2\x80\x8d\ny", 6);
	assert_string_equal(ml, "x<U+200D>\ny");
	free(ml);
}

static void test_money_rate(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(fmt_money(b, sizeof b, 1234.56), "$1,234.56");
	assert_string_equal(fmt_money(b, sizeof b, -0.05), "-$0.05");
	assert_string_equal(fmt_money(b, sizeof b, 0), "$0.00");
	assert_string_equal(fmt_money(b, sizeof b, 1234567.891), "$1,234,567.89");
	assert_string_equal(fmt_money(b, sizeof b, 999.999), "$1,000.00");
	assert_string_equal(fmt_money(b, sizeof b, 100), "$100.00");
	assert_string_equal(fmt_money(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_rate(b, sizeof b, 0.412), "$0.412/h");
	assert_string_equal(fmt_rate(b, sizeof b, 12.5), "$12.50/h");
	assert_string_equal(fmt_rate(b, sizeof b, INFINITY), "-");
	char tiny[4];
	fmt_money(tiny, sizeof tiny, 1234.5);
	assert_int_equal(strlen(tiny), 3);
}

static void test_duration_size_age(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(fmt_duration(b, sizeof b, 0), "0s");
	assert_string_equal(fmt_duration(b, sizeof b, 45), "45s");
	assert_string_equal(fmt_duration(b, sizeof b, 720), "12m");
	assert_string_equal(fmt_duration(b, sizeof b, 3 * 3600 + 5 * 60 + 59), "3h05m");
	assert_string_equal(fmt_duration(b, sizeof b, 2 * 86400 + 4 * 3600), "2d04h");
	assert_string_equal(fmt_duration(b, sizeof b, 150 * 86400.0), "150d");
	assert_string_equal(fmt_duration(b, sizeof b, -1), "-");
	assert_string_equal(fmt_duration(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_mb(b, sizeof b, 24564), "24GB");  /* RTX 4090 */
	assert_string_equal(fmt_mb(b, sizeof b, 81920), "80GB");  /* A100 80GB */
	assert_string_equal(fmt_mb(b, sizeof b, 49140), "48GB");  /* RTX A6000 */
	assert_string_equal(fmt_mb(b, sizeof b, 512), "512MB");
	assert_string_equal(fmt_mb(b, sizeof b, 1.5 * 1024 * 1024), "1.5TB");
	assert_string_equal(fmt_mb(b, sizeof b, -1), "-");
	assert_string_equal(fmt_mb(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_age(b, sizeof b, 1000, 400), "10m");
	assert_string_equal(fmt_age(b, sizeof b, 1000, 0), "-");
	assert_string_equal(fmt_age(b, sizeof b, 1000, 2000), "0s");
	assert_string_equal(fmt_age(b, sizeof b, 1000, NAN), "-");
}

static void test_strings(void **state)
{
	(void)state;
	char b[6];
	assert_int_equal(util_strlcpy(b, "hello world", sizeof b), 11);
	assert_string_equal(b, "hello");
	assert_int_equal(util_strlcpy(b, NULL, sizeof b), 0);
	assert_string_equal(b, "");
	char *s = xstrndup("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = xstrdup(NULL);
	assert_string_equal(s, "");
	free(s);
	s = xasprintf("%d-%s", 42, "x");
	assert_string_equal(s, "42-x");
	free(s);
	assert_true(util_now() > 1.6e9);
	double m1 = util_mono(), m2 = util_mono();
	assert_true(m2 >= m1);
}

/* The test clock moves both clocks forward, never back, never by NaN. */
static void test_clock_advance(void **state)
{
	(void)state;
	double n0 = util_now(), m0 = util_mono();
	assert_false(util_clock_advance(0));
	assert_false(util_clock_advance(-5));
	assert_false(util_clock_advance(NAN));
	assert_false(util_clock_advance(INFINITY));
	assert_true(util_mono() - m0 < 30); /* none of those moved it */
	assert_true(util_clock_advance(3600));
	assert_true(util_clock_advance(0.5));
	double n1 = util_now(), m1 = util_mono();
	assert_true(m1 - m0 >= 3600.5 && m1 - m0 < 3630);
	assert_true(n1 - n0 >= 3600.5 && n1 - n0 < 3630);
}

static void test_width(void **state)
{
	(void)state;
	if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8"))
		skip();
	assert_int_equal(util_strwidth("abc"), 3);
	assert_int_equal(util_strwidth("\xe6\x97\xa5\xe6\x9c\xac"), 4); /* two wide CJK */
	assert_int_equal(util_strwidth("h\xc3\xa9"), 2);
	assert_int_equal(util_strwidth(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sanitize_escapes),
		cmocka_unit_test(test_sanitize_controls),
		cmocka_unit_test(test_sanitize_utf8),
		cmocka_unit_test(test_sanitize_invisible),
		cmocka_unit_test(test_money_rate),
		cmocka_unit_test(test_duration_size_age),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_clock_advance), /* last: it moves the clocks */
};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
