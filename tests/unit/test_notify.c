/* test_notify.c: the notification rules of issue 25 (rules/notify.c) on
 * sequences of events: which events are which kind, one notification per
 * instance and kind per hour unless its text changes, kinds switched off,
 * the burst cap, a failing command said once; the JSON a command gets, the
 * OSC 9 / OSC 777 bytes with and without tmux's passthrough; and the
 * splitting of notify_command into words (base/argv.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/argv.h"
#include "rules/notify.h"

static struct event ev(unsigned flags, long id, enum ev_level lvl, const char *text)
{
	struct event e;
	memset(&e, 0, sizeof e);
	e.seq = 1;
	e.when = 1795808096; /* 2026-11-27T19:34:56Z */
	e.level = lvl;
	e.job_kind = -1;
	e.instance_id = id;
	e.flags = flags;
	snprintf(e.text, sizeof e.text, "%s", text);
	return e;
}

/* The event's notice, as the UI makes it (no instance record). */
static bool kind_of(unsigned flags, enum notify_kind *k)
{
	struct event e = ev(flags, 1, EV_WARN, "x");
	return notify_classify(&e, k);
}

static void test_classify(void **state)
{
	(void)state;
	enum notify_kind k;
	assert_true(kind_of(EVF_FAILED_INSTANCE, &k));
	assert_int_equal(k, NK_FAILED);
	assert_true(kind_of(EVF_FAILED_INSTANCE | EVF_OFFLINE, &k));
	assert_int_equal(k, NK_OFFLINE);
	assert_true(kind_of(EVF_QUIET | EVF_STATE | EVF_OUTBID, &k));
	assert_int_equal(k, NK_OUTBID);
	assert_true(kind_of(EVF_QUIET | EVF_MONEY, &k));
	assert_int_equal(k, NK_RUNWAY);
	assert_true(kind_of(EVF_ENDPOINT, &k));
	assert_int_equal(k, NK_ENDPOINT);
	assert_true(kind_of(EVF_AUTH | EVF_TFA_EXPIRED, &k));
	assert_int_equal(k, NK_TFA);
	assert_true(kind_of(EVF_IDLE, &k));
	assert_int_equal(k, NK_IDLE);
	assert_true(kind_of(EVF_HOT, &k));
	assert_int_equal(k, NK_HOT);
	assert_true(kind_of(EVF_DISK, &k));
	assert_int_equal(k, NK_DISK);
	/* a plain state change, a job's end, a refused key: none */
	assert_false(kind_of(EVF_QUIET | EVF_STATE, &k));
	assert_false(kind_of(EVF_JOB_DONE, &k));
	assert_false(kind_of(EVF_AUTH, &k));
	assert_false(kind_of(0, &k));
	assert_string_equal(config_notify_kind_name(NK_TFA), "tfa");
	assert_null(config_notify_kind_name(NK__COUNT));
}

/* Offer e to r at now: did it pass? */
static bool offer(struct notify_rules *r, unsigned kinds, unsigned flags, long id, const char *text,
		  double now)
{
	struct event e = ev(flags, id, EV_ERROR, text);
	enum notify_kind k;
	if (!notify_classify(&e, &k))
		return false;
	struct notice n;
	notify_notice(&n, &e, k, NULL);
	return notify_rules_pass(r, kinds, &n, now);
}

#define F EVF_FAILED_INSTANCE
#define T0 1000000.0

/* One per instance and kind per hour; another instance, another kind, a
 * changed text pass; after the hour the same passes again. */
static void test_rate_limit(void **state)
{
	(void)state;
	struct notify_rules *r = notify_rules_new();
	unsigned all = NOTIFY_KINDS_ALL;
	assert_true(offer(r, all, F, 7, "instance 7 is crashed", T0));
	assert_false(offer(r, all, F, 7, "instance 7 is crashed", T0 + 10));
	assert_false(offer(r, all, F, 7, "instance 7 is crashed", T0 + 3599));
	assert_true(offer(r, all, F, 8, "instance 8 is crashed", T0 + 20));         /* another instance */
	assert_true(offer(r, all, F | EVF_OFFLINE, 7, "instance 7 is crashed", T0 + 30)); /* another kind */
	assert_true(offer(r, all, F, 7, "instance 7 is failed start", T0 + 100));   /* it changed */
	assert_false(offer(r, all, F, 7, "instance 7 is failed start", T0 + 200));
	/* the hour counts from the last one sent */
	assert_false(offer(r, all, F, 7, "instance 7 is failed start", T0 + 3650));
	assert_true(offer(r, all, F, 7, "instance 7 is failed start", T0 + 100 + 3600));
	/* back to an earlier text: a change too */
	assert_true(offer(r, all, F, 7, "instance 7 is crashed", T0 + 3800));
	notify_rules_free(r);
}

static void test_kinds_off(void **state)
{
	(void)state;
	struct notify_rules *r = notify_rules_new();
	unsigned some = NOTIFY_KINDS_ALL & ~(1u << NK_OUTBID) & ~(1u << NK_RUNWAY);
	assert_false(offer(r, some, EVF_STATE | EVF_OUTBID, 3, "instance 3: running -> outbid", T0));
	assert_false(offer(r, some, EVF_MONEY, 0, "low money: runway 1 h", T0));
	assert_true(offer(r, some, F, 3, "instance 3 is crashed", T0));
	assert_false(offer(r, 0, F, 4, "instance 4 is crashed", T0));
	/* a kind switched off does not count against the hour */
	assert_true(offer(r, NOTIFY_KINDS_ALL, EVF_STATE | EVF_OUTBID, 3, "instance 3: running -> outbid",
			  T0 + 1));
	notify_rules_free(r);
}

/* More than NOTIFY_BURST of a kind in a minute: the rest held back,
 * counted, and said with the next of the kind that passes. */
static void test_burst(void **state)
{
	(void)state;
	struct notify_rules *r = notify_rules_new();
	char t[64];
	for (long id = 1; id <= NOTIFY_BURST; id++) {
		snprintf(t, sizeof t, "instance %ld is offline", id);
		assert_true(offer(r, NOTIFY_KINDS_ALL, F, id, t, T0 + (double)id));
	}
	assert_false(offer(r, NOTIFY_KINDS_ALL, F, 100, "instance 100 is offline", T0 + 10));
	assert_false(offer(r, NOTIFY_KINDS_ALL, F, 101, "instance 101 is offline", T0 + 20));
	/* another kind has its own count: a money alarm passes in a storm */
	assert_true(offer(r, NOTIFY_KINDS_ALL, EVF_MONEY, 0, "low money: runway 1h under 2h (alarm)", T0 + 21));
	struct event e = ev(F, 102, EV_ERROR, "instance 102 is offline");
	struct notice n;
	notify_notice(&n, &e, NK_FAILED, NULL);
	assert_false(notify_rules_pass(r, NOTIFY_KINDS_ALL, &n, T0 + 60)); /* the first slot is 59 s old */
	notify_notice(&n, &e, NK_FAILED, NULL);
	assert_true(notify_rules_pass(r, NOTIFY_KINDS_ALL, &n, T0 + 61.5));
	assert_string_equal(n.text, "instance 102 is offline (+3 more held back: see the event log)");
	/* the count starts again */
	notify_notice(&n, &e, NK_FAILED, NULL);
	snprintf(n.text, sizeof n.text, "instance 103 is offline");
	n.instance_id = 103;
	assert_true(notify_rules_pass(r, NOTIFY_KINDS_ALL, &n, T0 + 200));
	assert_string_equal(n.text, "instance 103 is offline");
	notify_rules_free(r);
}

static void test_cmd_failed_once(void **state)
{
	(void)state;
	struct notify_rules *r = notify_rules_new();
	assert_true(notify_rules_cmd_failed(r));
	assert_false(notify_rules_cmd_failed(r));
	assert_false(notify_rules_cmd_failed(r));
	notify_rules_cmd_ok(r);
	assert_true(notify_rules_cmd_failed(r));
	notify_rules_free(r);
}

static struct notice sample(void)
{
	struct event e = ev(F, 9108074, EV_ERROR,
			    "instance 9108074 (trainer) is crashed: OOM killed: destroy it and rent another offer");
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = 9108074;
	x.label = (char *)"trainer";
	x.gpu_name = (char *)"RTX 4090";
	x.num_gpus = 2;
	x.state = IS_EXITED;
	x.dph_total = 0.845;
	struct notice n;
	notify_notice(&n, &e, NK_FAILED, &x);
	return n;
}

static void test_json(void **state)
{
	(void)state;
	struct notice n = sample();
	char *s = notify_json(&n);
	size_t len = strlen(s);
	assert_true(len > 2 && s[len - 1] == '\n');
	assert_null(strchr(s, '\n') != s + len - 1 ? s : NULL); /* one line */
	json_error_t err;
	json_t *o = json_loads(s, 0, &err);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "failed");
	assert_string_equal(json_string_value(json_object_get(o, "level")), "error");
	assert_int_equal(json_integer_value(json_object_get(o, "instance_id")), 9108074);
	assert_string_equal(json_string_value(json_object_get(o, "text")), n.text);
	assert_string_equal(json_string_value(json_object_get(o, "time")), "2026-11-27T19:34:56Z");
	assert_string_equal(json_string_value(json_object_get(o, "label")), "trainer");
	assert_string_equal(json_string_value(json_object_get(o, "gpu")), "2x RTX 4090");
	assert_string_equal(json_string_value(json_object_get(o, "state")), "crashed");
	assert_true(fabs(json_real_value(json_object_get(o, "price_per_hour")) - 0.845) < 1e-9);
	json_decref(o);
	free(s);
	/* not about an instance: no instance fields at all */
	struct event e = ev(EVF_MONEY, 0, EV_WARN, "low money: runway 20 h under 24 h");
	notify_notice(&n, &e, NK_RUNWAY, NULL);
	s = notify_json(&n);
	o = json_loads(s, 0, &err);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "runway");
	assert_string_equal(json_string_value(json_object_get(o, "level")), "warn");
	assert_null(json_object_get(o, "instance_id"));
	assert_null(json_object_get(o, "price_per_hour"));
	assert_null(json_object_get(o, "label"));
	assert_int_equal(json_object_size(o), 4);
	json_decref(o);
	free(s);
}

static void test_osc(void **state)
{
	(void)state;
	struct notice n = sample();
	snprintf(n.text, sizeof n.text, "instance 5 (a;b) is crashed");
	char *s = notify_osc9(&n, false);
	assert_string_equal(s, "\033]9;rentop: instance 5 (a;b) is crashed\a");
	free(s);
	s = notify_osc777(&n, false);
	assert_string_equal(s, "\033]777;notify;rentop: failed trainer;instance 5 (a;b) is crashed\a");
	free(s);
	n.label[0] = '\0';
	/* tmux: its passthrough, every ESC inside doubled */
	s = notify_osc9(&n, true);
	assert_string_equal(s, "\033Ptmux;\033\033]9;rentop: instance 5 (a;b) is crashed\a\033\\");
	free(s);
	s = notify_osc777(&n, true);
	assert_string_equal(s, "\033Ptmux;\033\033]777;notify;rentop: failed;instance 5 (a;b) is crashed\a\033\\");
	free(s);
	char *w = notify_tmux_wrap("\033]9;x\033\\");
	assert_string_equal(w, "\033Ptmux;\033\033]9;x\033\033\\\033\\");
	free(w);
}

/* Nothing in the text ends the sequence early or starts another. */
static void test_osc_text(void **state)
{
	(void)state;
	char b[64];
	notify_osc_text(b, sizeof b, "a\033]0;t\a\x9c" "b\x7f\tc\xc2\x9c" "d \xc3\xa9", false);
	assert_string_equal(b, "a]0;tbcd \xc3\xa9");
	notify_osc_text(b, sizeof b, "a;b;c", true);
	assert_string_equal(b, "a,b,c");
	/* broken UTF-8: a lead byte without its continuation, a surrogate */
	notify_osc_text(b, sizeof b, "x\xe2\x82y\xed\xa0\x80z", false);
	assert_string_equal(b, "xyz");
	/* cut on a character boundary */
	notify_osc_text(b, 5, "ab\xc3\xa9\xc3\xa9", false);
	assert_string_equal(b, "ab\xc3\xa9");
	/* at most 200 bytes of text in a sequence */
	struct notice n = sample();
	memset(n.text, 'x', sizeof n.text - 1);
	n.text[sizeof n.text - 1] = '\0';
	char *s = notify_osc9(&n, false);
	assert_int_equal(strlen(s), strlen("\033]9;rentop: \a") + 200);
	free(s);
	/* a title with a ';' would move the body: the label's is ','; the
	 * body keeps its own */
	snprintf(n.text, sizeof n.text, "x;y\033z");
	snprintf(n.label, sizeof n.label, "a;b\033]9;c");
	s = notify_osc777(&n, false);
	assert_string_equal(s, "\033]777;notify;rentop: failed a,b]9,c;x;yz\a");
	free(s);
}

static void split_ok(const char *s, const char *const *want)
{
	char err[80];
	size_t n;
	char **v = argv_split(s, &n, err, sizeof err);
	assert_non_null(v);
	size_t i = 0;
	for (; want[i]; i++) {
		assert_non_null(v[i]);
		assert_string_equal(v[i], want[i]);
	}
	assert_null(v[i]);
	assert_int_equal(n, i);
	argv_free(v);
}

static void split_bad(const char *s, const char *why)
{
	char err[80];
	assert_null(argv_split(s, NULL, err, sizeof err));
	assert_string_equal(err, why);
}

static void test_argv(void **state)
{
	(void)state;
	split_ok("notify-send -u critical rentop", (const char *[]){ "notify-send", "-u", "critical", "rentop", NULL });
	split_ok("  a\t b  ", (const char *[]){ "a", "b", NULL });
	split_ok("curl -d @- 'https://h/x?a=1&b=2'", (const char *[]){ "curl", "-d", "@-", "https://h/x?a=1&b=2", NULL });
	split_ok("echo 'it''s' \"say \\\"hi\\\" \\\\ \\n\"", (const char *[]){ "echo", "its", "say \"hi\" \\ \\n", NULL });
	split_ok("a'b c'\"d\"e", (const char *[]){ "ab cde", NULL });
	split_ok("x '' \"\"", (const char *[]){ "x", "", "", NULL });
	split_ok("a\\ b \\'c", (const char *[]){ "a b", "'c", NULL });
	/* nothing else is special: no shell */
	split_ok("sh;rm $HOME|x > y &", (const char *[]){ "sh;rm", "$HOME|x", ">", "y", "&", NULL });
	split_bad("", "no command");
	split_bad("   ", "no command");
	split_bad("a 'b", "an unterminated ' quote");
	split_bad("a \"b\\\"", "an unterminated \" quote");
	split_bad("a b\\", "a backslash at the end");
	char many[400] = "";
	for (int i = 0; i <= ARGV_MAX_WORDS; i++)
		strcat(many, "w ");
	split_bad(many, "too many words");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_rate_limit),
		cmocka_unit_test(test_kinds_off),
		cmocka_unit_test(test_burst),
		cmocka_unit_test(test_cmd_failed_once),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_osc),
		cmocka_unit_test(test_osc_text),
		cmocka_unit_test(test_argv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
