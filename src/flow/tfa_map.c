/* tfa_map.c: see tfa_map.h. */
#include "flow/tfa_map.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void tfa_map_free(void *p)
{
	if (!p)
		return;
	explicit_bzero(p, sizeof(struct api_tfa_answer));
	free(p);
}

static struct api_tfa_answer *answer_new(void)
{
	struct api_tfa_answer *a = xcalloc(1, sizeof *a);
	a->remaining = -1;
	return a;
}

void *tfa_map_setup(const json_t *root, struct api_error *e)
{
	struct api_tfa_answer *a = answer_new();
	if (!api_tfa_totp_setup_result(root, a->secret, sizeof a->secret, a->uri, sizeof a->uri)) {
		tfa_map_free(a);
		apierr_protocol(e, 200, "TOTP set-up: no secret or provisioning URI in the answer");
		return NULL;
	}
	return a;
}

void *tfa_map_secret(const json_t *root, struct api_error *e)
{
	(void)e;
	struct api_tfa_answer *a = answer_new();
	if (!api_tfa_challenge_secret(root, a->secret, sizeof a->secret))
		a->secret[0] = '\0'; /* the backup-code authorization sends none */
	return a;
}

void *tfa_map_sent(const json_t *root, struct api_error *e)
{
	(void)e;
	struct api_tfa_answer *a = answer_new();
	if (!api_tfa_challenge_secret(root, a->secret, sizeof a->secret))
		a->secret[0] = '\0';
	api_tfa_sent_msg(root, a->msg, sizeof a->msg);
	return a;
}

void *tfa_map_codes(const json_t *root, struct api_error *e)
{
	(void)e;
	struct api_tfa_answer *a = answer_new();
	if (!api_tfa_backup_codes(root, &a->codes))
		a->codes.n = 0;
	return a;
}

void *tfa_map_regen(const json_t *root, struct api_error *e)
{
	struct api_tfa_answer *a = answer_new();
	if (!api_tfa_backup_codes(root, &a->codes)) {
		tfa_map_free(a);
		apierr_protocol(e, 200, "regenerate backup codes: no codes in the answer");
		return NULL;
	}
	return a;
}

void *tfa_map_session(const json_t *root, struct api_error *e)
{
	char *key = api_tfa_session_key(root);
	if (!key) {
		apierr_protocol(e, 200, "2FA login: the service sent no session key");
		return NULL;
	}
	struct api_tfa_answer *a = answer_new();
	bool fits = util_strlcpy(a->session, key, sizeof a->session) < sizeof a->session;
	explicit_bzero(key, strlen(key));
	free(key);
	if (!fits) {
		tfa_map_free(a);
		apierr_protocol(e, 200, "2FA login: the session key is too long");
		return NULL;
	}
	return a;
}

void *tfa_map_removed(const json_t *root, struct api_error *e)
{
	(void)e;
	struct api_tfa_answer *a = answer_new();
	api_tfa_removed(root, &a->remaining, &a->disabled);
	return a;
}
