/* test_api_table.c: the endpoint table (api.h API_ENDPOINTS): one row per
 * endpoint carries its name, rate, retry class, pacing group and answer
 * cap, and the accessors agree with it.  The rules a row must keep: a
 * pacing group's members have the leader's rate and are their own group's
 * members only; every answer cap is within the transport's; the options of a
 * call take the smaller of the base cap and the endpoint's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "api/api.h"
#include "poll/poller_pace.h"

static void groups_are_closed(void **state)
{
	(void)state;
	for (int i = 0; i < EP__COUNT; i++) {
		enum api_ep e = (enum api_ep)i, g = api_ep_group(e);
		assert_true((unsigned)g < EP__COUNT);
		assert_int_equal(api_ep_group(g), g); /* a leader leads itself */
		assert_int_equal(poller_pace_group(e), g);
		if (api_ep_rate(e) != api_ep_rate(g))
			fail_msg("%s paces with %s at another rate", api_ep_name(e), api_ep_name(g));
		assert_true(api_ep_rate(e) > 0);
		assert_true(strcmp(api_ep_name(e), "?") != 0);
	}
	/* the two forms of one call share one limit */
	assert_int_equal(api_ep_group(EP_INSTANCES_V0), EP_INSTANCES_V1);
	assert_int_equal(api_ep_group(EP_AUTOJOBS), EP_WORKERGROUPS);
	assert_int_equal(api_ep_group(EP_LOGS_CLI), EP_LOGS);
	assert_int_equal(api_ep_group(EP_REBOOT), EP_STATE);
}

static void kinds(void **state)
{
	(void)state;
	/* the POSTs and PUTs that only read are fetches; every write is an action */
	assert_int_equal(api_ep_kind(EP_OFFERS), RK_FETCH);
	assert_int_equal(api_ep_kind(EP_WORKERS), RK_FETCH);
	assert_int_equal(api_ep_kind(EP_INSTANCE_LOGS), RK_FETCH);
	assert_int_equal(api_ep_kind(EP_GPU_NAMES), RK_FETCH);
	const enum api_ep writes[] = { EP_STATE, EP_REBOOT, EP_DESTROY, EP_BID, EP_PREPAY,
				       EP_CREATE, EP_TFA_LOGIN, EP_ENDPT_WRITE, EP_WG_WRITE,
				       EP_SECRETS_WRITE, EP_APIKEY_WRITE, EP_SSH_WRITE,
				       EP_ROLE_WRITE, EP_TFA_WRITE, EP_TEMPLATE_CREATE,
				       EP_TEMPLATE_EDIT, EP_TEMPLATE_DELETE };
	for (size_t i = 0; i < sizeof writes / sizeof *writes; i++)
		assert_int_equal(api_ep_kind(writes[i]), RK_ACTION);
	/* an endpoint the table does not know is never retried */
	assert_int_equal(api_ep_kind((enum api_ep)EP__COUNT), RK_ACTION);
	assert_int_equal(api_ep_kind((enum api_ep)-1), RK_ACTION);
}

static void answer_caps(void **state)
{
	(void)state;
	for (int i = 0; i < EP__COUNT; i++) {
		size_t cap = api_ep_answer_max((enum api_ep)i);
		assert_true(cap >= (size_t)1 << 20);
		assert_true(cap <= HTTP_MAX_RESPONSE);
	}
	assert_int_equal(api_ep_answer_max(EP_TEMPLATES), (size_t)8 << 20);
	assert_int_equal(api_ep_answer_max(EP_INSTANCES_V0), HTTP_MAX_RESPONSE);
	struct http_opts base = { 10, 30, 0, NULL };
	struct http_opts o = api_ep_opts(&base, EP_TEMPLATES);
	assert_int_equal(o.max_response, (size_t)8 << 20);
	assert_true(o.connect_timeout_s == 10 && o.total_timeout_s == 30);
	base.max_response = (size_t)2 << 20; /* a smaller base cap wins */
	assert_int_equal(api_ep_opts(&base, EP_TEMPLATES).max_response, (size_t)2 << 20);
	base.max_response = (size_t)60 << 20; /* a larger one does not */
	assert_int_equal(api_ep_opts(&base, EP_USER).max_response, (size_t)1 << 20);
}

/* The key rides in the body of the CLI's log forms and update_workers only
 * (the run server's calls the CLI sends it in); the answers of the
 * run server (logs, workers) and of a log window are starred out; no write
 * and no listing of the main service is either. */
static void wire_flags(void **state)
{
	(void)state;
	for (int i = 0; i < EP__COUNT; i++) {
		enum api_ep ep = (enum api_ep)i;
		bool run_key = ep == EP_LOGS_CLI || ep == EP_WG_LOGS || ep == EP_WG_LOGS_CLI ||
			       ep == EP_UPDATE_WORKERS;
		assert_int_equal(api_ep_key_in_body(ep), run_key);
		assert_int_equal(api_ep_scrub(ep), run_key || ep == EP_LOGS || ep == EP_WORKERS ||
							   ep == EP_LOG_RESULT);
		if (api_ep_key_in_body(ep)) /* a key sent is a key that may come back */
			assert_true(api_ep_scrub(ep));
	}
	assert_false(api_ep_key_in_body(EP__COUNT));
	assert_false(api_ep_scrub(EP__COUNT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_are_closed),
		cmocka_unit_test(kinds),
		cmocka_unit_test(answer_caps),
		cmocka_unit_test(wire_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
