/* test_ui_form.c: the form widget without a terminal: readline editing in
 * a field, validation of every field kind (messages, marks, nothing
 * submitted until all are valid), focus order, choices and toggles, the
 * secret's show toggle, the service's answer keeping what was typed, and
 * secrets wiped when the form is freed; a write whose answer was lost:
 * the verdict of a re-read, and the form locked until one decides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "widgets/form.h"
#include "keymap.h"
#include "base/util.h"

static struct form fm;

static void type(struct form *f, const char *s)
{
	for (; *s; s++)
		assert_int_equal(form_key(f, (unsigned char)*s), FORM_CONTINUE);
}

static void keys(struct form *f, const int *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		form_key(f, k[i]);
}

static void test_editing(void **state)
{
	(void)state;
	form_init(&fm, "Edit");
	form_add_text(&fm, "image", "Image", "", 200, true);
	type(&fm, "pytorch latest");
	assert_string_equal(form_value(&fm, "image"), "pytorch latest");
	form_key(&fm, KM_CTRL('w')); /* the word before the cursor */
	assert_string_equal(form_value(&fm, "image"), "pytorch ");
	form_key(&fm, KM_CTRL('a'));
	type(&fm, "x/");
	assert_string_equal(form_value(&fm, "image"), "x/pytorch ");
	form_key(&fm, KM_CTRL('e'));
	type(&fm, ":2");
	assert_string_equal(form_value(&fm, "image"), "x/pytorch :2");
	int left2[] = { KM_FN(KEY_LEFT), KM_FN(KEY_LEFT), KM_FN(KEY_BACKSPACE) };
	keys(&fm, left2, 3);
	assert_string_equal(form_value(&fm, "image"), "x/pytorch:2");
	int del[] = { KM_FN(KEY_DC), KM_FN(KEY_RIGHT) };
	keys(&fm, del, 2);
	assert_string_equal(form_value(&fm, "image"), "x/pytorch2");
	form_key(&fm, KM_CTRL('a'));
	form_key(&fm, KM_FN(KEY_RIGHT));
	form_key(&fm, KM_FN(KEY_RIGHT));
	form_key(&fm, KM_CTRL('u'));
	assert_string_equal(form_value(&fm, "image"), "pytorch2");
	/* UTF-8 is edited by character */
	form_key(&fm, KM_CTRL('e'));
	form_key(&fm, 0xe9);
	assert_string_equal(form_value(&fm, "image"), "pytorch2\xc3\xa9");
	form_key(&fm, KM_FN(KEY_BACKSPACE));
	assert_string_equal(form_value(&fm, "image"), "pytorch2");
	form_free(&fm);
}

static void test_focus_order(void **state)
{
	(void)state;
	form_init(&fm, "Focus");
	form_add_text(&fm, "a", "A", "", 10, false);
	form_add_number(&fm, "b", "B", "1", 0, 10, false, false);
	form_add_toggle(&fm, "c", "C", false);
	assert_int_equal(fm.focus, 0);
	form_key(&fm, '\t');
	assert_int_equal(fm.focus, 1);
	form_key(&fm, KM_FN(KEY_DOWN));
	assert_int_equal(fm.focus, 2);
	form_key(&fm, '\t'); /* wraps */
	assert_int_equal(fm.focus, 0);
	form_key(&fm, KM_FN(KEY_BTAB));
	assert_int_equal(fm.focus, 2);
	form_key(&fm, KM_FN(KEY_UP));
	assert_int_equal(fm.focus, 1);
	/* Enter moves on; on the last field it submits */
	form_key(&fm, '\n');
	assert_int_equal(fm.focus, 2);
	form_key(&fm, KM_FN(KEY_UP));
	form_key(&fm, KM_FN(KEY_UP));
	form_key(&fm, '\n');
	assert_int_equal(fm.focus, 1);
	/* typing goes to the focused field only */
	type(&fm, "0");
	assert_string_equal(form_value(&fm, "b"), "10");
	assert_string_equal(form_value(&fm, "a"), "");
	/* Esc cancels from anywhere */
	assert_int_equal(form_key(&fm, 27), FORM_CANCEL);
	form_free(&fm);
}

static bool no_spaces(const struct form_field *f, char *err, size_t n)
{
	if (!strchr(f->tb.s, ' '))
		return true;
	snprintf(err, n, "no spaces in an image name");
	return false;
}

static void test_validation(void **state)
{
	(void)state;
	form_init(&fm, "Create");
	int img = form_add_text(&fm, "image", "Image", "", 200, true);
	fm.f[img].check = no_spaces;
	int disk = form_add_number(&fm, "disk", "Disk (GB)", "8", 1, 2048, true, true);
	int bid = form_add_number(&fm, "bid", "Bid ($/h)", "", 0.001, 32, false, false);
	int on = form_add_multiline(&fm, "onstart", "On-start", "", 10, false);
	/* nothing is submitted until all are valid; the first invalid gets the focus */
	form_key(&fm, '\t');
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	assert_int_equal(fm.focus, img);
	assert_string_equal(fm.f[img].error, "required");
	assert_true(fm.f[img].touched);
	assert_string_equal(fm.f[disk].error, "");
	type(&fm, "my image");
	assert_string_equal(fm.f[img].error, "no spaces in an image name"); /* checked as typed */
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	form_key(&fm, KM_CTRL('u'));
	type(&fm, "pytorch");
	assert_string_equal(fm.f[img].error, "");
	/* number: range and whole numbers */
	form_key(&fm, '\t');
	form_key(&fm, KM_CTRL('u'));
	type(&fm, "4096");
	assert_non_null(strstr(fm.f[disk].error, "out of range"));
	form_key(&fm, KM_CTRL('u'));
	type(&fm, "8.5");
	assert_non_null(strstr(fm.f[disk].error, "whole number"));
	form_key(&fm, KM_CTRL('u'));
	type(&fm, "abc");
	assert_non_null(strstr(fm.f[disk].error, "not a number"));
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	assert_int_equal(fm.focus, disk);
	form_key(&fm, KM_CTRL('u'));
	type(&fm, "16");
	/* an optional number may stay empty, but not be wrong */
	form_key(&fm, '\t');
	type(&fm, "40");
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	assert_int_equal(fm.focus, bid);
	form_key(&fm, KM_CTRL('u'));
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_SUBMIT);
	double d;
	assert_true(form_number(&fm, "disk", &d));
	assert_true(d == 16);
	assert_false(form_number(&fm, "bid", &d));
	/* multi-line: Enter asks for the editor; its length is checked */
	fm.focus = on;
	assert_int_equal(form_key(&fm, '\n'), FORM_EDIT);
	form_set_text(&fm, on, "echo hello world");
	assert_non_null(strstr(fm.f[on].error, "at most 10"));
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	form_set_text(&fm, on, "echo hi");
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_SUBMIT);
	assert_string_equal(form_value(&fm, "onstart"), "echo hi");
	/* the service's answer: the form keeps what was typed, marks the field */
	form_set_answer(&fm, "image", "bad image: \x1b[31mnot found");
	assert_string_equal(form_value(&fm, "image"), "pytorch");
	assert_null(strchr(fm.answer, '\x1b')); /* sanitised */
	assert_non_null(strstr(fm.f[img].error, "not found"));
	assert_int_equal(fm.focus, img);
	form_free(&fm);
}

static void test_choice_toggle_secret(void **state)
{
	(void)state;
	static const char *const modes[] = { "ssh", "ssh direct", "jupyter" };
	form_init(&fm, "Kinds");
	form_add_choice(&fm, "mode", "Launch mode", modes, 3, 0);
	form_add_toggle(&fm, "stopped", "Start stopped", false);
	int sec = form_add_secret(&fm, "pw", "Password", 64, true);
	form_key(&fm, KM_FN(KEY_RIGHT));
	assert_string_equal(form_value(&fm, "mode"), "ssh direct");
	form_key(&fm, KM_FN(KEY_LEFT));
	form_key(&fm, KM_FN(KEY_LEFT)); /* wraps */
	assert_int_equal(form_choice(&fm, "mode"), 2);
	type(&fm, "x"); /* letters do not change a choice */
	assert_int_equal(form_choice(&fm, "mode"), 2);
	form_key(&fm, '\t');
	form_key(&fm, ' ');
	assert_true(form_toggle(&fm, "stopped"));
	form_key(&fm, '\n'); /* Enter flips a toggle */
	assert_false(form_toggle(&fm, "stopped"));
	form_key(&fm, '\t');
	type(&fm, "hunter2");
	assert_false(fm.f[sec].reveal);
	form_key(&fm, KM_CTRL('r'));
	assert_true(fm.f[sec].reveal);
	assert_string_equal(form_value(&fm, "pw"), "hunter2");
	form_key(&fm, KM_CTRL('r'));
	assert_false(fm.f[sec].reveal);
	/* freed: the secret's bytes are gone (the struct outlives form_free) */
	form_free(&fm);
	const char *p = (const char *)&fm;
	for (size_t i = 0; i + 7 <= sizeof fm; i++)
		if (memcmp(p + i, "hunter2", 7) == 0)
			fail_msg("the secret is still in memory at offset %zu", i);
	assert_int_equal(fm.n, 0);
}

static void test_full_and_waiting(void **state)
{
	(void)state;
	form_init(&fm, "Full");
	for (int i = 0; i < FORM_MAX_FIELDS; i++)
		assert_int_equal(form_add_toggle(&fm, "t", "T", false), i);
	assert_int_equal(form_add_toggle(&fm, "t", "T", false), -1);
	fm.waiting = true; /* submitted: only Esc */
	assert_int_equal(form_key(&fm, '\t'), FORM_CONTINUE);
	assert_int_equal(fm.focus, 0);
	assert_int_equal(form_key(&fm, 27), FORM_CANCEL);
	form_free(&fm);
}

/* The decision alone: what a re-read's count says against the count the
 * write was sent over. */
static void test_lost_verdict(void **state)
{
	(void)state;
	assert_int_equal(form_lost_verdict(0, 1), FV_DONE);      /* a create: one more */
	assert_int_equal(form_lost_verdict(2, 3), FV_DONE);      /* a second of the same name */
	assert_int_equal(form_lost_verdict(0, 0), FV_NOT_DONE);  /* still none */
	assert_int_equal(form_lost_verdict(1, 1), FV_NOT_DONE);
	assert_int_equal(form_lost_verdict(0, -1), FV_WAIT);     /* the re-read failed */
	assert_int_equal(form_lost_verdict(-1, -1), FV_WAIT);
	assert_int_equal(form_lost_verdict(-1, 1), FV_UNKNOWN);  /* the list cannot show it */
	assert_int_equal(form_lost_verdict(-1, 0), FV_UNKNOWN);
	assert_int_equal(form_lost_verdict(2, 1), FV_UNKNOWN);   /* one removed meanwhile */
}

static const struct form_lost_words key_words = { .what = "API key dup-key",
						  .found = "exists", .missing = "not found",
						  .done = "created", .undone = "not created" };

static void lost_form(void)
{
	form_init(&fm, "Create API key");
	form_add_text(&fm, "name", "Name", "", 64, true);
	type(&fm, "dup-key");
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_SUBMIT);
	fm.waiting = true;
	form_lost_begin(&fm, &key_words, 0, "HTTP 502", 100.0);
}

/* Locked: no key but Esc acts, C-s submits nothing; what was typed is kept. */
static void test_lost_locks(void **state)
{
	(void)state;
	lost_form();
	assert_false(fm.waiting);
	assert_true(form_busy(&fm));
	assert_true(form_lost_checking(&fm));
	assert_non_null(strstr(fm.answer, "the answer was lost (HTTP 502)"));
	assert_non_null(strstr(fm.answer, "the list is read again before anything is sent"));
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	assert_int_equal(form_key(&fm, '\n'), FORM_CONTINUE);
	assert_int_equal(form_key(&fm, 'x'), FORM_CONTINUE);
	assert_string_equal(form_value(&fm, "name"), "dup-key");
	assert_int_equal(form_key(&fm, 27), FORM_CANCEL);
	form_free(&fm);
}

/* A read older than the loss does not count; a failed one keeps it locked. */
static void test_lost_stale_and_failed(void **state)
{
	(void)state;
	char msg[400];
	lost_form();
	assert_int_equal(form_lost_reread(&fm, 99.0, 1, NULL, msg, sizeof msg), FV_WAIT);
	assert_int_equal(form_lost_reread(&fm, 100.0, 1, NULL, msg, sizeof msg), FV_WAIT);
	assert_true(form_lost_checking(&fm));
	assert_int_equal(form_lost_reread(&fm, 101.0, -1, "HTTP 503", msg, sizeof msg), FV_WAIT);
	assert_non_null(strstr(fm.answer, "the re-read failed (HTTP 503)"));
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	/* the next read decides */
	assert_int_equal(form_lost_reread(&fm, 102.0, 1, NULL, msg, sizeof msg), FV_DONE);
	assert_string_equal(msg, "API key dup-key exists: created");
	assert_false(form_busy(&fm));
	form_free(&fm);
}

/* Not done: unlocked with the words, and a C-s is the operator's own. */
static void test_lost_not_done(void **state)
{
	(void)state;
	char msg[400];
	lost_form();
	assert_int_equal(form_lost_reread(&fm, 101.0, 0, NULL, msg, sizeof msg), FV_NOT_DONE);
	assert_string_equal(msg, "API key dup-key not found: not created; press C-s to send again");
	assert_string_equal(fm.answer, msg);
	assert_false(form_busy(&fm));
	assert_string_equal(form_value(&fm, "name"), "dup-key");
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_SUBMIT);
	/* once decided, later reads say nothing more */
	assert_int_equal(form_lost_reread(&fm, 103.0, 1, NULL, msg, sizeof msg), FV_WAIT);
	form_free(&fm);
}

/* Unknown: stays locked for good, saying why; Esc closes. */
static void test_lost_unknown(void **state)
{
	(void)state;
	char msg[400];
	static const struct form_lost_words env = { .what = "env var TOKEN", .found = "exists",
						    .missing = "not found", .done = "changed",
						    .undone = "not changed" };
	form_init(&fm, "Edit env var");
	form_add_text(&fm, "key", "Name", "TOKEN", 128, true);
	form_lost_begin(&fm, &env, -1, "the answer was cut short", 50.0);
	assert_int_equal(form_lost_reread(&fm, 51.0, 1, NULL, msg, sizeof msg), FV_UNKNOWN);
	assert_string_equal(msg, "env var TOKEN exists, but the re-read cannot tell whether it was "
				 "changed: check it before sending again (Esc closes)");
	assert_true(form_busy(&fm));
	assert_false(form_lost_checking(&fm));
	assert_int_equal(form_key(&fm, KM_CTRL('s')), FORM_CONTINUE);
	assert_int_equal(form_lost_reread(&fm, 52.0, 0, NULL, msg, sizeof msg), FV_WAIT);
	assert_int_equal(form_key(&fm, 27), FORM_CANCEL);
	/* a new form is not locked */
	form_init(&fm, "Again");
	assert_false(form_busy(&fm));
	form_free(&fm);
}

/* The lines under the fields joined back with spaces. */
static void joined(char (*l)[256], int n, char *out, size_t cap)
{
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t len = strlen(out);
		snprintf(out + len, cap - len, "%s%s", i ? " " : "", l[i]);
	}
}

/* Errors too long for the space beside their field are wrapped whole
 * under the fields, never cut at the box edge ("! out of range: 1.5 is not
 * bet"); the service's answer too; a note (information) comes after them
 * and is not counted as an error. */
static void test_message_lines(void **state)
{
	(void)state;
	char l[FORM_MSG_LINES][256], all[2048];
	int nerr = -1;
	form_init(&fm, "Msgs");
	form_add_text(&fm, "label", "Label", "", 64, false);
	form_add_number(&fm, "bid", "Bid", "", 0.001, 1, false, true);
	fm.focus = 1;
	type(&fm, "1.5");
	const char *want = "out of range: 1.5 is not between 0.001 and 1";
	assert_string_equal(fm.f[1].error, want);
	/* 120 columns: 28 cells beside the field, the message is 46 */
	int n = form_message_lines(&fm, 60, 28, 40, l, FORM_MSG_LINES, &nerr);
	assert_int_equal(n, 1);
	assert_int_equal(nerr, 1);
	assert_string_equal(l[0], "Bid: out of range: 1.5 is not between 0.001 and 1");
	/* a narrow box: wrapped onto lines that fit */
	n = form_message_lines(&fm, 30, 28, 40, l, FORM_MSG_LINES, &nerr);
	assert_true(n >= 2);
	for (int i = 0; i < n; i++)
		assert_true(util_strwidth(l[i]) <= 30);
	joined(l, n, all, sizeof all);
	assert_non_null(strstr(all, want));
	/* room beside it: nothing under the fields */
	assert_int_equal(form_message_lines(&fm, 120, 60, 40, l, FORM_MSG_LINES, &nerr), 0);
	/* no room beside (narrow): the focused field's message goes under */
	n = form_message_lines(&fm, 76, 0, 40, l, FORM_MSG_LINES, &nerr);
	assert_int_equal(n, 1);
	assert_string_equal(l[0], "Bid: out of range: 1.5 is not between 0.001 and 1");
	/* another field focused: its message fits over the value (60 cells) */
	fm.focus = 0;
	assert_int_equal(form_message_lines(&fm, 76, 0, 60, l, FORM_MSG_LINES, &nerr), 0);
	/* the service's answer, wrapped, then a note that is not an error */
	form_set_answer(&fm, NULL, "the service refused the create: insufficient credit for this "
				   "offer, add credit in the account view and try again");
	form_set_note(&fm, "0.05 $/h is under min_bid 0.1 $/h: the instance will be outbid", true);
	n = form_message_lines(&fm, 40, 60, 40, l, FORM_MSG_LINES, &nerr);
	assert_true(nerr >= 3);
	assert_true(n > nerr);
	joined(l, nerr, all, sizeof all);
	assert_non_null(strstr(all, "add credit in the account view and try again"));
	joined(l + nerr, n - nerr, all, sizeof all);
	assert_string_equal(all, "0.05 $/h is under min_bid 0.1 $/h: the instance will be outbid");
	form_set_note(&fm, NULL, false);
	assert_int_equal(form_message_lines(&fm, 40, 60, 40, l, FORM_MSG_LINES, &nerr), nerr);
	/* an answer supersedes a note */
	form_set_note(&fm, "A code was sent by SMS: type it and submit.", false);
	assert_false(fm.f[0].error[0]);
	form_set_answer(&fm, NULL, "wrong code");
	assert_string_equal(fm.note, "");
	form_free(&fm);
}

/* A multi-line field (onstart) takes what is typed while it holds one line
 * (it is not dropped), and says so when it holds several. */
static void test_multiline_typed(void **state)
{
	(void)state;
	form_init(&fm, "Script");
	int os = form_add_multiline(&fm, "onstart", "Onstart script", "", 4096, false);
	fm.focus = os;
	type(&fm, "apt update");
	assert_string_equal(form_value(&fm, "onstart"), "apt update");
	form_key(&fm, KM_FN(KEY_BACKSPACE));
	form_key(&fm, KM_CTRL('a'));
	type(&fm, "sudo ");
	assert_string_equal(form_value(&fm, "onstart"), "sudo apt updat");
	assert_int_equal(form_key(&fm, '\n'), FORM_EDIT); /* Enter: $EDITOR */
	form_set_text(&fm, os, "line 1\nline 2");
	assert_string_equal(fm.note, "");
	type(&fm, "x");
	assert_string_equal(form_value(&fm, "onstart"), "line 1\nline 2");
	assert_non_null(strstr(fm.note, "2 lines: Enter edits them in $EDITOR"));
	form_set_text(&fm, os, "echo one line");
	type(&fm, "!");
	assert_string_equal(form_value(&fm, "onstart"), "echo one line!");
	/* one line as long as the edit buffer takes: the next character is said */
	char *full = malloc(TEXTBUF_BYTES + 1);
	assert_non_null(full);
	memset(full, 'a', TEXTBUF_BYTES);
	full[TEXTBUF_BYTES] = '\0';
	form_set_text(&fm, os, full);
	fm.note[0] = '\0';
	type(&fm, "b");
	assert_string_equal(form_value(&fm, "onstart"), full);
	assert_non_null(strstr(fm.note, "Enter edits it in $EDITOR"));
	free(full);
	form_free(&fm);
}

/* A hidden secret shows one * a character, or, with fixed_mask (the env
 * var form), the same FORM_MASK whatever its length; C-r shows it. */
static void test_secret_mask(void **state)
{
	(void)state;
	char buf[TEXTBUF_BYTES + 1];
	form_init(&fm, "Add env var");
	int plain = form_add_secret(&fm, "code", "Code", 20, false);
	int fixed = form_add_secret(&fm, "value", "Value", 4096, true);
	fm.f[fixed].fixed_mask = true;
	form_shown_value(&fm.f[fixed], buf, sizeof buf);
	assert_string_equal(buf, "");
	fm.focus = plain;
	type(&fm, "abc");
	form_shown_value(&fm.f[plain], buf, sizeof buf);
	assert_string_equal(buf, "***");
	fm.focus = fixed;
	type(&fm, "x");
	form_shown_value(&fm.f[fixed], buf, sizeof buf);
	assert_string_equal(buf, FORM_MASK);
	type(&fm, "a-much-longer-secret-value-0123456789");
	form_shown_value(&fm.f[fixed], buf, sizeof buf);
	assert_string_equal(buf, FORM_MASK);
	assert_int_equal(form_key(&fm, KM_CTRL('r')), FORM_CONTINUE);
	form_shown_value(&fm.f[fixed], buf, sizeof buf);
	assert_string_equal(buf, "xa-much-longer-secret-value-0123456789");
	form_free(&fm);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_editing),
		cmocka_unit_test(test_focus_order),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_choice_toggle_secret),
		cmocka_unit_test(test_full_and_waiting),
		cmocka_unit_test(test_lost_verdict),
		cmocka_unit_test(test_lost_locks),
		cmocka_unit_test(test_lost_stale_and_failed),
		cmocka_unit_test(test_lost_not_done),
		cmocka_unit_test(test_lost_unknown),
		cmocka_unit_test(test_message_lines),
		cmocka_unit_test(test_multiline_typed),
		cmocka_unit_test(test_secret_mask),
	};
	return cmocka_run_group_tests_name("ui_form", tests, NULL, NULL);
}
