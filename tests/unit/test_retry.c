/* test_retry.c: the one retry rule (retry.h) over every row: every HTTP
 * status 400-599 as the service's decoder classifies it, the special
 * envelopes (2FA, expired session, refused key, success:false, rate limit
 * in a 200), every transport failure class with and without request bytes
 * sent, unreadable answers, for a fetch and for every action the client
 * sends (each builder's endpoint must be an action). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/api_account.h"
#include "api/api_inst_ops.h"
#include "api/api_serverless.h"
#include "api/api_volumes.h"
#include "net/apierr.h"
#include "base/config.h"
#include "poll/jobs.h"
#include "net/retry.h"

/* The table restated independently of retry.c. */
static enum retry_decision expect(enum retry_kind k, enum retry_fail f)
{
	bool act = k == RK_ACTION;
	switch (f) {
	case RF_NOT_SENT: return RD_RETRY;
	case RF_TIMEOUT: return act ? RD_UNKNOWN : RD_FAIL;
	case RF_LOST: return act ? RD_UNKNOWN : RD_RETRY;
	case RF_RATE_LIMIT: return RD_RETRY;
	case RF_SESSION: return RD_RETRY;
	case RF_REFUSED: return RD_FAIL;
	case RF_REQ_TIMEOUT: return act ? RD_FAIL : RD_RETRY;
	case RF_GATEWAY: return act ? RD_UNKNOWN : RD_RETRY;
	case RF_SERVER: return act ? RD_UNKNOWN : RD_RETRY;
	case RF_BAD_ANSWER: return act ? RD_UNKNOWN : RD_FAIL;
	case RF__COUNT: break;
	}
	return RD_FAIL;
}

static void table_rows(void **state)
{
	(void)state;
	int rows = 0;
	for (int k = 0; k < RK__COUNT; k++)
		for (int f = 0; f < RF__COUNT; f++) {
			assert_int_equal(retry_decide((enum retry_kind)k, (enum retry_fail)f),
					 expect((enum retry_kind)k, (enum retry_fail)f));
			assert_string_not_equal(retry_fail_name((enum retry_fail)f), "?");
			rows++;
		}
	assert_int_equal(rows, 20);
	/* out of range: never a resend */
	assert_int_equal(retry_decide(RK__COUNT, RF_NOT_SENT), RD_FAIL);
	assert_int_equal(retry_decide(RK_FETCH, RF__COUNT), RD_FAIL);
	/* an action is resent only when it certainly did nothing */
	for (int f = 0; f < RF__COUNT; f++)
		if (retry_decide(RK_ACTION, (enum retry_fail)f) == RD_RETRY)
			assert_true(f == RF_NOT_SENT || f == RF_RATE_LIMIT || f == RF_SESSION);
}

/* What class a bare status (a plain-text body) must fall in. */
static enum retry_fail status_class(int st)
{
	if (st == 429)
		return RF_RATE_LIMIT;
	if (st == 408)
		return RF_REQ_TIMEOUT;
	if (st < 500 || st == 501 || st == 505)
		return RF_REFUSED;
	if (st == 502 || st == 504)
		return RF_GATEWAY;
	return RF_SERVER;
}

static void every_status(void **state)
{
	(void)state;
	int n = 0;
	for (int st = 400; st <= 599; st++) {
		const char *bodies[] = {"", "oops", "{\"success\":false,\"error\":\"x\",\"msg\":\"no\"}",
					"<html><body><h1>error</h1></body></html>"};
		for (size_t b = 0; b < sizeof bodies / sizeof *bodies; b++) {
			struct api_error e;
			assert_true(apierr_decode(st, bodies[b], strlen(bodies[b]), &e));
			enum retry_fail f = retry_classify(&e, CURLE_OK, true);
			assert_int_equal(f, status_class(st));
			for (int k = 0; k < RK__COUNT; k++)
				assert_int_equal(retry_decision_for((enum retry_kind)k, &e, CURLE_OK, true),
						 expect((enum retry_kind)k, f));
			n++;
		}
	}
	assert_int_equal(n, 800);
	/* the named cases of the issue */
	struct api_error e;
	apierr_decode(502, "", 0, &e);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_UNKNOWN);
	apierr_decode(504, "", 0, &e);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_UNKNOWN);
	apierr_decode(429, "{\"detail\":\"API requests too frequent endpoint threshold=1.0\"}", 62, &e);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_RETRY);
}

static void special_envelopes(void **state)
{
	(void)state;
	struct {
		int st;
		const char *body;
		enum retry_fail f;
	} rows[] = {
		{401, "{\"error\":\"tfa_required\",\"msg\":\"This action requires Two Factor "
		      "Authentication. Please log in with 2FA.\"}", RF_REFUSED},
		{404, "{\"success\":false,\"msg\":\"Session expired. Please log in again.\"}",
		 RF_SESSION},
		{404, "{\"msg\":\"Invalid user key\"}", RF_REFUSED},
		{403, "{\"msg\":\"This action requires login.\"}", RF_REFUSED},
		{429, "{\"error\":\"tfa_locked\",\"msg\":\"Too many attempts\"}", RF_REFUSED},
		{200, "{\"success\":false,\"error\":\"resources_unavailable\",\"msg\":\"no\"}",
		 RF_REFUSED},
		{200, "{\"success\":false,\"error\":\"rate_limit_exceeded\",\"msg\":\"slow\"}",
		 RF_RATE_LIMIT},
		{411, "{\"msg\":\"Insufficient credit\"}", RF_REFUSED},
		{410, "{\"error\":\"deprecated_endpoint\",\"msg\":\"gone\"}", RF_REFUSED},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		struct api_error e;
		assert_true(apierr_decode(rows[i].st, rows[i].body, strlen(rows[i].body), &e));
		assert_int_equal(retry_classify(&e, CURLE_OK, true), rows[i].f);
	}
	/* unreadable 2xx and oversize answers: the service acted */
	struct api_error e;
	apierr_protocol(&e, 200, "malformed JSON");
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_BAD_ANSWER);
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_UNKNOWN);
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
	apierr_protocol(&e, 502, "too large");
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_GATEWAY);
	apierr_protocol(&e, 500, "too large");
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_SERVER);
	/* an unreadable 504 is a gateway's failure, a 503 the server's: the
	 * decision is the same, the words the user reads differ */
	apierr_protocol(&e, 504, "malformed JSON");
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_GATEWAY);
	assert_string_equal(retry_fail_name(retry_classify(&e, CURLE_OK, true)), "gateway error");
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_UNKNOWN);
	apierr_protocol(&e, 503, "malformed JSON");
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_SERVER);
	assert_string_equal(retry_fail_name(retry_classify(&e, CURLE_OK, true)), "server error");
	assert_int_equal(retry_decision_for(RK_ACTION, &e, CURLE_OK, true), RD_UNKNOWN);
	apierr_protocol(&e, 499, "malformed JSON");
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_BAD_ANSWER);
	/* no error at all is never a reason to send again */
	memset(&e, 0, sizeof e);
	e.cls = AE_NONE;
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_BAD_ANSWER);
	assert_int_equal(retry_decision_for(RK_FETCH, &e, CURLE_OK, true), RD_FAIL);
	/* the names the log and the messages use */
	assert_string_equal(retry_decision_name(RD_UNKNOWN), "unknown");
	assert_string_equal(retry_decision_name(RD_RETRY), "retry");
	assert_string_equal(retry_decision_name(RD_FAIL), "fail");
	assert_string_equal(retry_decision_name((enum retry_decision)99), "?");
	assert_string_equal(retry_fail_name(RF__COUNT), "?");
	assert_string_equal(retry_fail_name((enum retry_fail)-1), "?");
	/* an error class outside the enum: never a reason to resend */
	e.cls = (enum apierr_class)99;
	assert_int_equal(retry_classify(&e, CURLE_OK, true), RF_BAD_ANSWER);
}

/* The official CLI's second session signal: a 401 "Invalid user key" to a
 * request sent with a 2FA session key is RF_SESSION (resent once with the
 * normal key, a write too: refused, nothing done); sent with the normal
 * key, or any other 401, it stays refused. */
static void invalid_key_with_session(void **state)
{
	(void)state;
	const char *body = "{\"success\":false,\"error\":\"auth_error\",\"msg\":\"Invalid user key\"}";
	struct api_error e;
	assert_true(apierr_decode(401, body, strlen(body), &e));
	assert_true(apierr_invalid_key(&e));
	assert_int_equal(retry_classify_sent(&e, CURLE_OK, true, true), RF_SESSION);
	assert_int_equal(retry_decide(RK_ACTION, RF_SESSION), RD_RETRY);
	assert_int_equal(retry_classify_sent(&e, CURLE_OK, true, false), RF_REFUSED);
	/* other refusals stay refusals, with a session key too */
	static const struct {
		int st;
		const char *body;
	} other[] = {
		{401, "{\"msg\":\"This action requires Two Factor Authentication.\"}"},
		{403, "{\"msg\":\"Invalid user key\"}"},
		{404, "{\"msg\":\"Invalid user key\"}"},
		{401, "{\"msg\":\"Invalid user key for this team\"}"},
	};
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		assert_true(apierr_decode(other[i].st, other[i].body, strlen(other[i].body), &e));
		assert_false(apierr_invalid_key(&e));
		assert_int_not_equal(retry_classify_sent(&e, CURLE_OK, true, true), RF_SESSION);
	}
	/* nothing else changes class: a 500 to an action stays unknown */
	apierr_decode(500, "", 0, &e);
	assert_int_equal(retry_decide(RK_ACTION, retry_classify_sent(&e, CURLE_OK, true, true)),
			 RD_UNKNOWN);
}

static void transport_classes(void **state)
{
	(void)state;
	/* before any request byte can leave: not sent, whatever curl counted */
	const CURLcode before[] = {
		CURLE_UNSUPPORTED_PROTOCOL, CURLE_FAILED_INIT, CURLE_URL_MALFORMAT,
		CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT,
		CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
		CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
		CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE,
		CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
	};
	/* after sending: lost (or timed out) when request bytes left */
	const CURLcode after[] = {
		CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
		CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_READ_ERROR, CURLE_WEIRD_SERVER_REPLY,
		CURLE_BAD_CONTENT_ENCODING, CURLE_ABORTED_BY_CALLBACK, CURLE_OUT_OF_MEMORY,
		CURLE_OPERATION_TIMEDOUT, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR,
	};
	struct api_error e;
	apierr_transport(&e, "network error");
	for (size_t i = 0; i < sizeof before / sizeof *before; i++)
		for (int sent = 0; sent < 2; sent++) {
			assert_int_equal(retry_classify(&e, before[i], sent), RF_NOT_SENT);
			assert_int_equal(retry_decision_for(RK_ACTION, &e, before[i], sent), RD_RETRY);
			assert_int_equal(retry_decision_for(RK_FETCH, &e, before[i], sent), RD_RETRY);
		}
	for (size_t i = 0; i < sizeof after / sizeof *after; i++) {
		/* nothing handed to the connection (a connect timeout): not sent */
		assert_int_equal(retry_classify(&e, after[i], false), RF_NOT_SENT);
		enum retry_fail f = retry_classify(&e, after[i], true);
		enum retry_fail want = after[i] == CURLE_OPERATION_TIMEDOUT ? RF_TIMEOUT : RF_LOST;
		assert_int_equal(f, want);
		assert_int_equal(retry_decision_for(RK_ACTION, &e, after[i], true), RD_UNKNOWN);
		assert_int_equal(retry_decision_for(RK_FETCH, &e, after[i], true),
				 want == RF_TIMEOUT ? RD_FAIL : RD_RETRY);
	}
}

/* Every builder's endpoint: reads are fetches, everything else an action. */
static void builders_kinds(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = "http://127.0.0.1:1";
	c.run_url = "http://127.0.0.1:1";
	struct create_req cr;
	memset(&cr, 0, sizeof cr);
	cr.offer_id = 5;
	strcpy(cr.image, "img");
	struct template_req tr = { .name = "n", .image = "img", .launch = LAUNCH_ARGS };
	struct copy_loc cs = { .kind = COPY_INST, .id = 1, .path = "/a/" }, cd = { .kind = COPY_INST, .id = 2, .path = "/b/" };
	struct api_call act[] = {
		api_start(&c, 1), api_stop(&c, 1), api_label(&c, 1, "x"), api_reboot(&c, 1),
		api_destroy(&c, 1), api_bid(&c, 1, 0.5), api_prepay(&c, 1, 10), api_create(&c, &cr),
		api_tfa_login(&c, "totp", "123456"), api_template_create(&c, &tr),
		api_template_edit(&c, "h", &tr, &tr, NULL), api_template_delete(&c, 3),
		api_inst_execute(&c, 1, "ls"), api_inst_recycle(&c, 1),
		api_inst_update_template(&c, 1, 0, "h"),
		api_volume_create(&c, false, 1, 10, ""), api_volume_create(&c, true, 1, 10, "n"),
		api_volume_clone(&c, 1, 2, 0), api_volume_delete(&c, 1), api_update_workers(&c, 5),
		api_inst_copy(&c, &cs, &cd), api_inst_copy_cancel(&c, 2),
		api_inst_snapshot(&c, 1, "", "me/x", "u", "p", true),
		api_inst_ssh_attach(&c, 1, "ssh-ed25519 AAAA"), api_inst_ssh_detach(&c, 1, 2),
		api_transfer_credit(&c, "carol@example.com", 1), api_member_invite(&c, "a@b.c", "member"),
		api_member_role(&c, 1, "manager"), api_member_remove(&c, 1),
		api_price_increase_answer(&c, 5500, true), api_price_increase_answer(&c, 5500, false),
	};
	struct api_call rd[] = {
		api_instances_v1(&c, NULL), api_instances_v0(&c), api_instance(&c, 1), api_user(&c),
		api_workergroups(&c, false), api_workergroups(&c, true), api_endptjobs(&c),
		api_offers(&c, NULL), api_templates(&c, NULL), api_endpoint_logs(&c, "e", 10),
		api_endpoint_logs_cli(&c, 1, 10), api_volumes(&c), api_volume_offers(&c, false, 1, 8),
		api_volume_offers(&c, true, 1, 8), api_workergroup_logs(&c, 5, 10, true),
		api_workergroup_logs(&c, 5, 10, false), api_inst_ssh_list(&c, 1), api_charges_day(&c, 0, NULL),
		api_invoices(&c, 0, 1, NULL), api_invoices_old(&c, 0, 1), api_members_list(&c),
		api_audit_logs(&c), api_price_increases(&c),
	};
	for (size_t i = 0; i < sizeof act / sizeof *act; i++) {
		assert_int_equal(api_ep_kind(act[i].ep), RK_ACTION);
		assert_string_not_equal(act[i].method, "GET");
		/* a lost answer is never resent, a refused connect is */
		struct api_error e;
		apierr_transport(&e, "reset");
		assert_int_equal(retry_decision_for(api_ep_kind(act[i].ep), &e, CURLE_RECV_ERROR, true),
				 RD_UNKNOWN);
		assert_int_equal(retry_decision_for(api_ep_kind(act[i].ep), &e, CURLE_COULDNT_CONNECT,
						    false), RD_RETRY);
		api_call_free(&act[i]);
	}
	for (size_t i = 0; i < sizeof rd / sizeof *rd; i++) {
		assert_int_equal(api_ep_kind(rd[i].ep), RK_FETCH);
		api_call_free(&rd[i]);
	}
	/* every endpoint has a kind, and only reads are fetches */
	int actions = 0;
	for (int ep = 0; ep < EP__COUNT; ep++)
		actions += api_ep_kind((enum api_ep)ep) == RK_ACTION;
	/* state, reboot, destroy, bid, prepay, create, 2FA login, and the writes of
	 * endpoints, workergroups, secrets, API keys, SSH keys, roles and 2FA, and
	 * template create, edit and delete; execute, recycle, update template;
	 * volume create (local and network), clone and delete; update_workers;
	 * copy (and its cancel), snapshot, per-instance SSH key attach and detach;
	 * credit transfer, team member changes, price increase answers */
	assert_int_equal(actions, 31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_rows),
		cmocka_unit_test(every_status),
		cmocka_unit_test(special_envelopes),
		cmocka_unit_test(invalid_key_with_session),
		cmocka_unit_test(transport_classes),
		cmocka_unit_test(builders_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
