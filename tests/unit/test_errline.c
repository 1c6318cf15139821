/* test_errline.c: the last non-empty line of a child's stderr, fed in
 * arbitrary pieces: blank lines and CR/LF endings, an unterminated last line,
 * escape sequences removed, an over-long line capped, none at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/errline.h"

static const char *last_of(struct errline *e)
{
	static char out[ERRLINE_MAX + 1];
	return errline_last(e, out, sizeof out);
}

static void test_last_line_in_pieces(void **state)
{
	(void)state;
	struct errline e;
	errline_init(&e);
	assert_string_equal(last_of(&e), "");
	const char *text = "Warning: Permanently added '[1.2.3.4]:2222' (ED25519)\r\n"
			   "root@1.2.3.4: Permission denied (publickey).\r\n\r\n   \n";
	for (size_t i = 0; i < strlen(text); i++) /* one byte at a time */
		errline_feed(&e, text + i, 1);
	assert_string_equal(last_of(&e), "root@1.2.3.4: Permission denied (publickey).");
}

static void test_unterminated_and_blank(void **state)
{
	(void)state;
	struct errline e;
	errline_init(&e);
	errline_feed(&e, "first\n", 6);
	errline_feed(&e, "  ssh: connect to host 10.0.0.1 port 22: Network is unre", 56);
	errline_feed(&e, "achable", 7);
	assert_string_equal(last_of(&e), "ssh: connect to host 10.0.0.1 port 22: Network is unreachable");
	errline_feed(&e, "\n\t \n", 4);
	assert_string_equal(last_of(&e), "ssh: connect to host 10.0.0.1 port 22: Network is unreachable");
}

static void test_sanitised_and_capped(void **state)
{
	(void)state;
	struct errline e;
	errline_init(&e);
	const char *hostile = "\x1b]52;c;aGk=\x07" "bad\x1b[2Jthing\x07\n";
	errline_feed(&e, hostile, strlen(hostile));
	assert_string_equal(last_of(&e), "badthing");
	char big[3 * ERRLINE_MAX];
	memset(big, 'a', sizeof big);
	errline_feed(&e, big, sizeof big);
	errline_feed(&e, "\n", 1);
	assert_int_equal(strlen(last_of(&e)), ERRLINE_MAX);
	char small[8];
	errline_last(&e, small, sizeof small);
	assert_string_equal(small, "aaaaaaa");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_line_in_pieces),
		cmocka_unit_test(test_unterminated_and_blank),
		cmocka_unit_test(test_sanitised_and_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
