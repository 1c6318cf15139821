/* test_ui_tfa_challenge.c: the 2FA prompt of an action (tfa_challenge.c)
 * on an app with a real model and jobs queue, no curses, no network: an
 * event saying an action needs 2FA opens it (through a->needs_tfa, the
 * app knowing no job kind) naming the action; the typed code goes out as a
 * login job whose end comes back by its request id (another's result is
 * left alone): refused, the prompt stays and says so; accepted, it closes
 * with the login's words; Esc cancels and says what was cancelled. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/config.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "tfa_challenge.h"

struct fixture {
	struct app a;
	struct config cfg;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cfg.base_url = (char *)"http://127.0.0.1:9";
	f->cfg.run_url = f->cfg.base_url;
	struct app *a = &f->a;
	a->cfg = &f->cfg;
	a->m = model_new();
	a->jobs = jobs_new(a->m, false);
	a->overlay = -1;
	a->chal = tfa_challenge_new();
	a->needs_tfa = tfa_challenge_asked;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	tfa_challenge_free(&f->a, f->a.chal);
	jobs_free(f->a.jobs);
	model_free(f->a.m);
	free(f);
	return 0;
}

/* Type code and Enter: the login job queued (taken as the poller would); its id. */
static int send_code(struct app *a, const char *code)
{
	for (const char *p = code; *p; p++)
		assert_true(tfa_challenge_key(a, a->chal, *p));
	assert_true(tfa_challenge_key(a, a->chal, '\n'));
	struct job_req r;
	int id = 0;
	assert_true(jobs_take(a->jobs, &r, &id));
	assert_int_equal(r.kind, JOB_TFA_LOGIN);
	assert_true(r.reply); /* its end comes back by its id */
	assert_string_equal(r.text, code);
	jobs_finish(a->jobs, id);
	explicit_bzero(&r, sizeof r);
	return id;
}

static void put(struct model *m, int id, enum call_outcome out, const char *msg)
{
	struct call_result r;
	memset(&r, 0, sizeof r);
	r.req_id = id;
	r.outcome = out;
	snprintf(r.err.msg, sizeof r.err.msg, "%s", msg);
	model_put_result(m, &r);
}

static void test_login_by_id(void **state)
{
	struct fixture *f = *state;
	struct app *a = &f->a;
	/* the poller's event: a destroy refused for want of 2FA */
	model_event(a->m, EV_WARN, JOB_DESTROY, 41, 9108111, EVF_JOB_DONE | EVF_NEEDS_TFA,
		    "destroy instance 9108111 needs a two-factor code: not done yet");
	app_pull_events(a);
	assert_true(tfa_challenge_active(a->chal));
	assert_non_null(strstr(a->msg, "destroy 9108111 needs a two-factor code"));

	int id = send_code(a, "123456");
	put(a->m, id + 100, CALL_OK, "another's"); /* not the login's */
	tfa_challenge_snapshot(a, a->chal);
	assert_true(tfa_challenge_active(a->chal));
	struct call_result r;
	assert_true(model_take_result(a->m, id + 100, &r)); /* left to its owner */
	model_call_result_free(&r);

	/* refused: the prompt stays, says so, takes another code */
	put(a->m, id, CALL_ERROR, "2FA login failed: HTTP 400 2fa_verification_failed: bad code");
	tfa_challenge_snapshot(a, a->chal);
	assert_true(tfa_challenge_active(a->chal));
	assert_non_null(strstr(a->msg, "destroy 9108111 still needs a two-factor code"));
	assert_false(model_take_result(a->m, id, &r)); /* taken once */

	/* accepted: closed, with the login's words */
	int id2 = send_code(a, "654321");
	assert_true(id2 != id);
	put(a->m, id2, CALL_OK, "2FA login ok: session key stored");
	tfa_challenge_snapshot(a, a->chal);
	assert_false(tfa_challenge_active(a->chal));
	assert_non_null(strstr(a->msg, "session key stored"));
}

static void test_cancel(void **state)
{
	struct fixture *f = *state;
	struct app *a = &f->a;
	/* an on-demand call's refusal names itself in its text */
	model_event(a->m, EV_WARN, -1, 12, 0, EVF_NEEDS_TFA,
		    "add env var needs a 2FA login: 2FA session required");
	app_pull_events(a);
	assert_true(tfa_challenge_active(a->chal));
	assert_non_null(strstr(a->msg, "add env var needs a two-factor code"));
	int id = send_code(a, "123456");
	assert_false(tfa_challenge_key(a, a->chal, 27)); /* Esc: the caller cancels */
	tfa_challenge_cancel(a, a->chal);
	assert_false(tfa_challenge_active(a->chal));
	assert_non_null(strstr(a->msg, "add env var cancelled: no two-factor code was given"));
	/* the login's late end is no one's: dropped, the prompt stays closed */
	put(a->m, id, CALL_OK, "2FA login ok");
	tfa_challenge_snapshot(a, a->chal);
	assert_false(tfa_challenge_active(a->chal));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_login_by_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cancel, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
