/* test_ui_dialog.c: dialogs without a terminal: a confirmation starts on
 * Cancel (Enter alone cancels), Tab/Left/Right move, Esc cancels; inputs
 * edit with Backspace, C-u, Left/Right in UTF-8; and what is typed is
 * checked before anything is sent (bid range, amount, label, 2FA code); a
 * confirmed delete or suspend whose answer was lost locks its dialog
 * (Enter sends nothing) until a re-read says what the list holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <string.h>

#include "widgets/dialog.h"
#include "draw.h"
#include "poll/jobs.h"
#include "keymap.h"
#include "widgets/textbuf.h"

static void test_confirm_starts_on_cancel(void **state)
{
	(void)state;
	static struct dialog d;
	dialog_confirm(&d, 1, 42, "Destroy", "Destroy instance 42?", "Destroy");
	assert_true(dialog_open(&d));
	assert_int_equal(d.focus, 0);
	assert_int_equal(dialog_key(&d, '\n'), DLG_CANCEL);
	dialog_confirm(&d, 1, 42, "Destroy", "Destroy instance 42?", "Destroy");
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(d.focus, 1);
	assert_int_equal(dialog_key(&d, '\n'), DLG_SUBMIT);
	dialog_confirm(&d, 1, 42, "Destroy", "?", "Destroy");
	dialog_key(&d, KM_FN(KEY_RIGHT));
	assert_int_equal(d.focus, 1);
	dialog_key(&d, KM_FN(KEY_LEFT));
	assert_int_equal(d.focus, 0);
	dialog_key(&d, KM_FN(KEY_RIGHT));
	assert_int_equal(dialog_key(&d, 27), DLG_CANCEL); /* Esc always cancels */
	/* typing does nothing to a confirmation; q closes it */
	dialog_confirm(&d, 1, 42, "Destroy", "?", "Destroy");
	assert_int_equal(dialog_key(&d, 'y'), DLG_CONTINUE);
	assert_int_equal(d.focus, 0);
	assert_int_equal(dialog_key(&d, 'q'), DLG_CANCEL);
	dialog_close(&d);
	assert_false(dialog_open(&d));
}

static void type(struct dialog *d, const char *s)
{
	for (; *s; s++)
		assert_int_equal(dialog_key(d, (unsigned char)*s), DLG_CONTINUE);
}

static void test_input_editing(void **state)
{
	(void)state;
	static struct dialog d;
	dialog_input(&d, 2, 42, "Label", "New label:", "old", 1024);
	assert_string_equal(d.tb.s, "old");
	assert_int_equal(d.focus, 1); /* Enter submits */
	dialog_key(&d, KM_FN(KEY_BACKSPACE));
	assert_string_equal(d.tb.s, "ol");
	dialog_key(&d, KM_CTRL('u'));
	assert_string_equal(d.tb.s, "");
	type(&d, "abd");
	dialog_key(&d, KM_FN(KEY_LEFT));
	type(&d, "c");
	assert_string_equal(d.tb.s, "abcd");
	dialog_key(&d, KM_FN(KEY_RIGHT));
	type(&d, "e");
	assert_string_equal(d.tb.s, "abcde");
	/* control characters are refused */
	dialog_key(&d, 1 /* C-a moves home */);
	dialog_key(&d, 7);
	assert_string_equal(d.tb.s, "abcde");
	/* a typed error goes away on the next edit */
	strcpy(d.error, "bad");
	type(&d, "x");
	assert_string_equal(d.error, "");
	assert_string_equal(d.tb.s, "xabcde");
	/* in an input, q is text */
	assert_int_equal(dialog_key(&d, 'q'), DLG_CONTINUE);
	assert_string_equal(d.tb.s, "xqabcde");
	/* Tab to Cancel then Enter cancels, keeping the text until closed */
	dialog_key(&d, '\t');
	assert_int_equal(dialog_key(&d, '\n'), DLG_CANCEL);
	/* waiting for a result: only Esc does anything */
	dialog_input(&d, 2, 0, "2FA", "code", "", 14);
	d.waiting = true;
	assert_int_equal(dialog_key(&d, '1'), DLG_CONTINUE);
	assert_string_equal(d.tb.s, "");
	assert_int_equal(dialog_key(&d, '\n'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, 27), DLG_CANCEL);
}

static void test_textbuf_utf8(void **state)
{
	(void)state;
	static struct textbuf b;
	memset(&b, 0, sizeof b);
	textbuf_set(&b, "h\xc3\xa9llo"); /* héllo */
	assert_int_equal(textbuf_chars(&b), 5);
	textbuf_end(&b);
	textbuf_left(&b);
	textbuf_left(&b);
	textbuf_left(&b);
	textbuf_backspace(&b); /* removes é whole */
	assert_string_equal(b.s, "hllo");
	textbuf_insert(&b, 0x5bbd); /* 宽 */
	assert_string_equal(b.s, "h\xe5\xae\xbdllo");
	textbuf_left(&b);
	textbuf_delete(&b);
	assert_string_equal(b.s, "hllo");
	textbuf_home(&b);
	textbuf_backspace(&b);
	assert_string_equal(b.s, "hllo");
	/* the character limit */
	b.max_chars = 5;
	textbuf_end(&b);
	assert_true(textbuf_insert(&b, 'x'));
	assert_false(textbuf_insert(&b, 'y'));
	assert_string_equal(b.s, "hllox");
	assert_false(textbuf_insert(&b, 0x9b)); /* C1 */
	/* invalid UTF-8 in set() becomes '?' */
	b.max_chars = 0;
	textbuf_set(&b, "a\xff" "b");
	assert_string_equal(b.s, "a?b");
}

static void test_bid_range(void **state)
{
	(void)state;
	double v;
	char err[200];
	double one = jobs_bid_max(1);
	assert_true(dialog_parse_bid("0.001", one, &v, err, sizeof err));
	assert_true(v > 0.00099 && v < 0.00101);
	assert_true(dialog_parse_bid(" 32 ", one, &v, err, sizeof err));
	assert_true(dialog_parse_bid("$0.35", one, &v, err, sizeof err));
	assert_false(dialog_parse_bid("0.0009", one, &v, err, sizeof err));
	assert_non_null(strstr(err, "0.001-32 $/hour (32 per GPU)"));
	assert_false(dialog_parse_bid("32.01", one, &v, err, sizeof err));
	assert_false(dialog_parse_bid("-1", one, &v, err, sizeof err));
	assert_false(dialog_parse_bid("abc", one, &v, err, sizeof err));
	assert_non_null(strstr(err, "not a number"));
	assert_false(dialog_parse_bid("", one, &v, err, sizeof err));
	assert_false(dialog_parse_bid("1.5x", one, &v, err, sizeof err));
	assert_false(dialog_parse_bid("nan", one, &v, err, sizeof err));
	assert_false(dialog_parse_bid("inf", one, &v, err, sizeof err));
	/* the docs' range (change_bid.yaml): up to 32 per GPU; 0 GPUs count as 1 */
	assert_true(jobs_bid_max(0) == 32.0);
	assert_true(jobs_bid_max(4) == 128.0);
	assert_true(dialog_parse_bid("128", jobs_bid_max(4), &v, err, sizeof err));
	assert_true(dialog_parse_bid("40", jobs_bid_max(2), &v, err, sizeof err));
	assert_false(dialog_parse_bid("128.01", jobs_bid_max(4), &v, err, sizeof err));
	assert_non_null(strstr(err, "0.001-128 $/hour"));
	/* an outbid instance: the price that outbid it, not min_bid's words */
	char note[200];
	dialog_outbid_preview("0.5", 0.42, note, sizeof note);
	assert_non_null(strstr(note, "above the $0.420/h that outbid it: the instance starts again"));
	dialog_outbid_preview("0.42", 0.42, note, sizeof note);
	assert_non_null(strstr(note, "not above the $0.420/h that outbid it"));
	assert_null(strstr(note, "min_bid"));
}

static void test_amount_label_tfa(void **state)
{
	(void)state;
	double v;
	char err[200];
	assert_true(dialog_parse_amount("25", &v, err, sizeof err));
	assert_true(v == 25);
	assert_false(dialog_parse_amount("0", &v, err, sizeof err));
	assert_false(dialog_parse_amount("-5", &v, err, sizeof err));
	assert_false(dialog_parse_amount("ten", &v, err, sizeof err));
	assert_true(dialog_check_label("train-7b", err, sizeof err));
	assert_false(dialog_check_label("   ", err, sizeof err));
	assert_false(dialog_check_label("a\x1b[31m", err, sizeof err));
	char big[1100];
	memset(big, 'a', 1025);
	big[1025] = '\0';
	assert_false(dialog_check_label(big, err, sizeof err));
	big[1024] = '\0';
	assert_true(dialog_check_label(big, err, sizeof err));
	assert_string_equal(dialog_tfa_method("123456"), "totp");
	assert_string_equal(dialog_tfa_method("AB12-CD34-EF56"), "backup");
	assert_null(dialog_tfa_method("12345"));
	assert_null(dialog_tfa_method("1234567"));
	assert_null(dialog_tfa_method("12a456"));
	assert_null(dialog_tfa_method("AB12CD34EF56"));
	assert_null(dialog_tfa_method("AB12-CD34-EF5!"));
	assert_null(dialog_tfa_method(""));
}

static void test_wrap(void **state)
{
	(void)state;
	char lines[8][256];
	int n = draw_wrap("Destroy instance 42 (job)? This stops all billing and permanently "
			    "deletes its disk.", 30, lines, 8);
	assert_true(n >= 3);
	for (int i = 0; i < n; i++)
		assert_true(strlen(lines[i]) <= 30);
	assert_string_equal(lines[0], "Destroy instance 42 (job)?");
	/* a word longer than the width gets a line of its own */
	n = draw_wrap("a verylongwordthatdoesnotfit b", 10, lines, 8);
	assert_int_equal(n, 3);
	assert_string_equal(lines[2], "b");
	assert_int_equal(draw_wrap("", 10, lines, 8), 0);
}

/* A delete's answer lost: the dialog is locked (Enter, Tab, letters do
 * nothing; Esc and q close it); a read older than the loss or a failed
 * one keeps it locked; the re-read says gone (deleted) or still there
 * (not deleted; the key to try again), and later reads say nothing. */
static void test_lost_delete(void **state)
{
	(void)state;
	static struct dialog d;
	static const struct form_lost_words w = {
		.what = "env var E2E_DEL", .found = "is gone", .missing = "is still there",
		.done = "deleted", .undone = "not deleted", .again = "d to try again",
		.removes = true };
	char msg[400];
	dialog_confirm(&d, 0, 0, "Delete env var", "Delete the env var E2E_DEL?", "Delete");
	dialog_key(&d, '\t');
	assert_int_equal(dialog_key(&d, '\n'), DLG_SUBMIT);
	d.waiting = true;
	assert_true(dialog_busy(&d));
	dialog_lost_begin(&d, &w, 1, "HTTP 502", 100.0);
	assert_false(d.waiting);
	assert_true(dialog_busy(&d));
	assert_true(dialog_lost_checking(&d));
	assert_non_null(strstr(d.error, "the answer was lost (HTTP 502)"));
	assert_int_equal(d.focus, 1); /* still on Delete, yet Enter sends nothing */
	assert_int_equal(dialog_key(&d, '\n'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, '\t'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, 'D'), DLG_CONTINUE);
	assert_int_equal(dialog_key(&d, '\n'), DLG_CONTINUE);
	assert_int_equal(dialog_lost_reread(&d, 99.0, 0, NULL, msg, sizeof msg), FV_WAIT);
	assert_int_equal(dialog_lost_reread(&d, 101.0, -1, "HTTP 503", msg, sizeof msg), FV_WAIT);
	assert_non_null(strstr(d.error, "the re-read failed (HTTP 503)"));
	assert_int_equal(dialog_key(&d, '\n'), DLG_CONTINUE);
	assert_int_equal(dialog_lost_reread(&d, 102.0, 1, NULL, msg, sizeof msg), FV_NOT_DONE);
	assert_string_equal(msg, "env var E2E_DEL is still there: not deleted; d to try again");
	assert_int_equal(dialog_lost_reread(&d, 103.0, 0, NULL, msg, sizeof msg), FV_WAIT);
	/* gone: deleted */
	dialog_confirm(&d, 0, 0, "Delete env var", "?", "Delete");
	assert_false(dialog_busy(&d));
	dialog_lost_begin(&d, &w, 1, "the answer was cut short", 10.0);
	assert_int_equal(dialog_lost_reread(&d, 11.0, 0, NULL, msg, sizeof msg), FV_DONE);
	assert_string_equal(msg, "env var E2E_DEL is gone: deleted");
	/* the list cannot tell (one more than before): locked for good, saying so */
	dialog_lost_begin(&d, &w, 1, "no answer", 10.0);
	assert_int_equal(dialog_lost_reread(&d, 11.0, 2, NULL, msg, sizeof msg), FV_UNKNOWN);
	assert_string_equal(d.error, msg);
	assert_true(dialog_busy(&d));
	assert_false(dialog_lost_checking(&d));
	assert_int_equal(dialog_key(&d, '\n'), DLG_CONTINUE);
	/* locked: q and Esc close it */
	dialog_lost_begin(&d, &w, 1, "no answer", 10.0);
	assert_int_equal(dialog_key(&d, 'q'), DLG_CANCEL);
	assert_int_equal(dialog_key(&d, 27), DLG_CANCEL);
	dialog_close(&d);
	assert_false(dialog_busy(&d));
}

/* A removal's verdict: fewer is done, as many not, more (one added
 * meanwhile) or before unknown cannot tell; a failed re-read waits. */
static void test_lost_removal_verdict(void **state)
{
	(void)state;
	assert_int_equal(form_lost_verdict_removal(1, 0), FV_DONE);
	assert_int_equal(form_lost_verdict_removal(2, 1), FV_DONE);
	assert_int_equal(form_lost_verdict_removal(1, 1), FV_NOT_DONE);
	assert_int_equal(form_lost_verdict_removal(1, -1), FV_WAIT);
	assert_int_equal(form_lost_verdict_removal(1, 2), FV_UNKNOWN);
	assert_int_equal(form_lost_verdict_removal(-1, 0), FV_UNKNOWN);
	/* a suspend counts up: the endpoint in the state asked for */
	static struct dialog d;
	static const struct form_lost_words w = {
		.what = "endpoint llm-chat (3)", .found = "is suspended", .missing = "is not suspended",
		.done = "suspended", .undone = "not suspended", .again = "s to try again" };
	char msg[400];
	dialog_confirm(&d, 0, 3, "Suspend endpoint", "?", "Suspend");
	dialog_lost_begin(&d, &w, 0, "HTTP 502", 5.0);
	assert_int_equal(dialog_lost_reread(&d, 6.0, 1, NULL, msg, sizeof msg), FV_DONE);
	assert_string_equal(msg, "endpoint llm-chat (3) is suspended: suspended");
	dialog_lost_begin(&d, &w, 0, "HTTP 502", 5.0);
	assert_int_equal(dialog_lost_reread(&d, 6.0, 0, NULL, msg, sizeof msg), FV_NOT_DONE);
	assert_string_equal(msg, "endpoint llm-chat (3) is not suspended: not suspended; s to try again");
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_confirm_starts_on_cancel),
		cmocka_unit_test(test_input_editing),
		cmocka_unit_test(test_textbuf_utf8),
		cmocka_unit_test(test_bid_range),
		cmocka_unit_test(test_amount_label_tfa),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_lost_delete),
		cmocka_unit_test(test_lost_removal_verdict),
	};
	return cmocka_run_group_tests_name("ui_dialog", tests, NULL, NULL);
}
