/* api_account.h: request builders and decoders for the account side of
 * SPEC.md (the account view and its 2FA dialogs): env vars (secrets), API
 * keys, SSH keys, team roles, machine reports, and two-factor
 * authentication (status, TOTP set-up, authorize-new-method, confirm-new,
 * SMS and email codes, update, backup-code regeneration, method removal,
 * login with any method, logout), plus the decoding of 2FA failures into
 * one struct a dialog can show.
 *
 * No I/O in the builders or decoders; the caller runs the calls (jobs,
 * poller, api_run).  Pure; any thread; results are the caller's.
 * Secrets: bodies that carry a secret (env values, codes, challenge
 * secrets, backup codes) live only in api_call.body, which api_call_free()
 * wipes.  Decoders of secrets (a new API key, a TOTP secret and URI, backup
 * codes, challenge secrets) write into the caller's buffers; the caller
 * wipes them (explicit_bzero) when the dialog closes.  No secret ever goes
 * into an api_error or the text helpers here. */
#ifndef RENTOP_API_ACCOUNT_H
#define RENTOP_API_ACCOUNT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"

struct json_list_kind;

struct auth;

/* ---- env vars (secrets) ------------------------------------------------------ */

/* GET /api/v0/secrets/: decode with json_map_env_vars(). */
struct api_call api_env_list(const struct config *c);
/* POST (add) or PUT (edit) /api/v0/secrets/ {"key","value"}. */
struct api_call api_env_add(const struct config *c, const char *key, const char *value);
struct api_call api_env_edit(const struct config *c, const char *key, const char *value);
/* DELETE /api/v0/secrets/ {"key"}. */
struct api_call api_env_delete(const struct config *c, const char *key);
/* Is this a valid variable name ([A-Za-z_][A-Za-z0-9_]*, at most 128)? */
bool api_env_name_valid(const char *key);

/* The text a dialog shows for an account failure: known slugs of the
 * service in plain words (existing_key, nonexistent_key, max_secrets,
 * missing_input, permission_denied, tfa_required, ...), else the service's
 * own message.  Into buf; returns buf. */
char *api_account_error_text(const struct api_error *e, char *buf, size_t n);

/* ---- API keys -------------------------------------------------------------------- */

/* GET /api/v0/auth/apikeys/: decode with json_map_api_keys(). */
struct api_call api_apikeys_list(const struct config *c);
/* POST /api/v0/auth/apikeys/ {"name","permissions"}; permissions (taken
 * over) NULL means full access (no permissions sent). */
struct api_call api_apikey_create(const struct config *c, const char *name, json_t *permissions);
/* The answer {"id","key","permissions"}: the key into key[keyn] (the
 * caller wipes it), the id into *id (0 when absent).  False when there is
 * no key or it does not fit. */
bool api_apikey_created(const json_t *root, char *key, size_t keyn, long *id);
/* DELETE /api/v0/auth/apikeys/{id}/ {} (answers a bare JSON string). */
struct api_call api_apikey_delete(const struct config *c, long id);
/* GET /api/v0/auth/apikeys/{id}/ ("show api key"): the key itself, a bare
 * JSON string (or {"key"}).  Asked only to tell whether a key about to be
 * deleted is the one rentop runs with. */
struct api_call api_apikey_show(const struct config *c, long id);
/* That answer's key into key[keyn] (the caller compares and wipes it).
 * False when there is none or it does not fit. */
bool api_apikey_shown(const json_t *root, char *key, size_t keyn);

/* ---- SSH keys ---------------------------------------------------------------------- */

struct ssh_key_rec {
	long id;
	char *type;        /* "ssh-ed25519", ... ("" when the line is not valid) */
	char *comment;     /* sanitised, "" when none */
	char *fingerprint; /* "SHA256:...", "" when the line is not valid */
	char *public_key;  /* the line as sent, sanitised (public, not a secret) */
	double created_at; /* epoch s, NAN when missing (ISO text is parsed) */
};
/* GET /api/v0/ssh/. */
struct api_call api_ssh_list(const struct config *c);
/* A bare list (live) or {"ssh_keys":[...]} / {"keys":[...]} of {id, key or
 * public_key, created_at}; appends to *v, *n.  False when the shape is wrong. */
bool api_ssh_keys(const json_t *root, struct ssh_key_rec **v, size_t *n);
void api_ssh_keys_free(struct ssh_key_rec *v, size_t n);
extern const struct json_list_kind api_account_ssh_list; /* api_ssh_keys as a list kind */
/* POST /api/v0/ssh/ {"ssh_key": line} (validate first with sshkey_parse()). */
struct api_call api_ssh_add(const struct config *c, const char *line);
/* DELETE /api/v0/ssh/{id}/ {}. */
struct api_call api_ssh_delete(const struct config *c, long id);

/* ---- team roles --------------------------------------------------------------------- */

struct team_role {
	long id;                /* 0 when not sent */
	char *name;             /* sanitised */
	char *permissions;      /* the object as compact JSON text, sanitised; "" when none */
	char *summary;          /* acct_rights_summary() of it */
};
/* GET /api/v0/team/roles-full/. */
struct api_call api_roles_list(const struct config *c);
/* A bare list or {"roles"|"results":[...]}; appends.  False on a wrong shape. */
bool api_team_roles(const json_t *root, struct team_role **v, size_t *n);
void api_team_roles_free(struct team_role *v, size_t n);
extern const struct json_list_kind api_account_roles_list; /* api_team_roles as a list kind */
/* POST /api/v0/team/roles/ {"name","permissions"} (permissions taken over;
 * NULL sends none, and the service answers "Missing permissions parameter"). */
struct api_call api_role_create(const struct config *c, const char *name, json_t *permissions);
/* PUT /api/v0/team/roles/{ident}/ with "name" when new_name is not NULL and
 * "permissions" when permissions is not NULL (taken over).  ident: the id
 * or the name (URL-encoded). */
struct api_call api_role_edit(const struct config *c, const char *ident, const char *new_name,
			      json_t *permissions);
/* DELETE /api/v0/team/roles/{ident}/ {}. */
struct api_call api_role_delete(const struct config *c, const char *ident);

/* ---- machine reports ------------------------------------------------------------------ */

/* GET /api/v0/machines/{id}/reports/: decode with json_map_machine_reports(). */
struct api_call api_machine_reports(const struct config *c, long machine_id);

/* ---- two-factor authentication ------------------------------------------------------------ */

/* How a step is verified: a code from a method, or a backup code. */
struct tfa_verify {
	char method[8];      /* "totp", "sms", "email", or "backup" */
	long method_id;      /* tfa_method_id, 0 = not sent */
	char code[32];       /* 6 digits, or XXXX-XXXX-XXXX for "backup" (secret) */
	char secret[160];    /* the SMS/email challenge secret (secret) */
};
/* Wipe a struct tfa_verify (explicit_bzero). */
void api_tfa_verify_wipe(struct tfa_verify *v);

/* GET /api/v0/tfa/status/: decode with json_map_tfa_status(). */
struct api_call api_tfa_status(const struct config *c);
/* POST /api/v0/tfa/ with the verification (sms/email carry the secret and
 * method id): the login with any method; the session key is
 * api_tfa_session_key() of the answer. */
struct api_call api_tfa_login_with(const struct config *c, const struct tfa_verify *v);
/* Log out: drop the session key (the vast_tfa_key file and the key in
 * memory; the normal key is used again).  True when a session was held. */
bool api_tfa_logout(struct auth *a);

/* POST /api/v0/tfa/totp-setup/ {}. */
struct api_call api_tfa_totp_setup(const struct config *c);
/* Its answer: the base32 secret and the otpauth:// provisioning URI into
 * the caller's buffers (wiped by the caller).  False when either is missing,
 * does not fit, or the URI is not otpauth://totp/. */
bool api_tfa_totp_setup_result(const json_t *root, char *secret, size_t secretn, char *uri,
			       size_t urin);

/* Step 1, POST /api/v0/tfa/authorize-new-method/: with a backup code
 * ({"backup_code"}; the window opens at once), or asking for a code from a
 * method ({"tfa_method","tfa_method_id"}; "email" when the account has no
 * method).  v->code is not sent here. */
struct api_call api_tfa_authorize_start(const struct config *c, const struct tfa_verify *v);
/* Step 2, PUT /api/v0/tfa/authorize-new-method/ {"code","secret"}. */
struct api_call api_tfa_authorize_finish(const struct config *c, const char *code,
					 const char *secret);
/* The challenge secret of a step-1 / sms / email answer into buf (wiped by
 * the caller).  False when the answer has none (the backup-code flow). */
bool api_tfa_challenge_secret(const json_t *root, char *buf, size_t n);

#define TFA_LABEL_MAX 30 /* characters */
/* POST /api/v0/tfa/confirm-new/ {"tfa_method","code","secret",
 * ["phone_number"], ["label"]}.  method "totp" (secret = the base32 TOTP
 * secret) or "sms" (secret = the SMS challenge secret).  NULL label: none. */
struct api_call api_tfa_confirm_new(const struct config *c, const char *method, const char *code,
				    const char *secret, const char *phone, const char *label);
/* Is a label acceptable (at most 30 UTF-8 characters, valid UTF-8, no
 * control characters)? */
bool api_tfa_label_valid(const char *label);

/* POST /api/v0/tfa/sms/ {"phone_number"} or {"tfa_method_id"}; with a
 * secret (a resend of an existing challenge) it is added. */
struct api_call api_tfa_sms_send(const struct config *c, const char *phone, long method_id);
/* POST /api/v0/tfa/sms/resend/ {"secret", ["phone_number"|"tfa_method_id"]}. */
struct api_call api_tfa_sms_resend(const struct config *c, const char *secret, const char *phone,
				   long method_id);
/* POST /api/v0/tfa/email/ {} (a fresh challenge), or {"secret"}: the code of
 * that challenge (an authorize-new-method one, or a resend). */
struct api_call api_tfa_email_send(const struct config *c, const char *secret);
/* The "msg" of a send answer ("Verification code sent to d***@example.com"),
 * sanitised, into buf; false (buf "") when there is none.  Not a secret. */
bool api_tfa_sent_msg(const json_t *root, char *buf, size_t n);

/* PUT /api/v0/tfa/update/ {"tfa_method_id", ["label"], ["is_primary"]}:
 * label NULL = unchanged; primary < 0 unchanged, 0 or 1 sets it. */
struct api_call api_tfa_update(const struct config *c, long method_id, const char *label,
			       int primary);
/* PUT /api/v0/tfa/regen-backup-codes/ with the verification. */
struct api_call api_tfa_regen_backup(const struct config *c, const struct tfa_verify *v);
/* DELETE /api/v0/tfa/ with the verification and target_id (the method to
 * remove; 0 = the verifying method; required with a backup code). */
struct api_call api_tfa_remove(const struct config *c, const struct tfa_verify *v,
			       long target_id);
/* The remove answer: remaining methods (-1 when not said) and whether 2FA
 * is now off ("2FA Successfully Disabled" or remaining 0). */
bool api_tfa_removed(const json_t *root, int *remaining, bool *disabled);

#define TFA_BACKUP_CODES 10
struct tfa_backup_codes {
	char code[TFA_BACKUP_CODES][16]; /* XXXX-XXXX-XXXX (secrets) */
	size_t n;
};
/* The backup_codes of a confirm-new (first method) or regen answer into
 * *out (wiped by the caller with explicit_bzero).  False when absent. */
bool api_tfa_backup_codes(const json_t *root, struct tfa_backup_codes *out);

/* ---- 2FA failures ------------------------------------------------------------------------- */

enum tfa_err_kind {
	TFAE_NONE,
	TFAE_WRONG_CODE,        /* 2fa_verification_failed (fail_count, locked_until) */
	TFAE_LOCKED,            /* tfa_locked: no code may be sent until locked_until */
	TFAE_EXPIRED,           /* 2fa_expired: the code or challenge expired */
	TFAE_NO_CHALLENGE,      /* challenge_not_found, no_pending_authorization */
	TFAE_AUTH_REQUIRED,     /* authorization_required: offer the authorize step */
	TFAE_DUPLICATE,         /* duplicate_tfa_method */
	TFAE_EMAIL_NOT_VERIFIED,/* email_not_verified */
	TFAE_SMS_RATE_LIMITED,  /* sms_rate_limited */
	TFAE_CHALLENGE_EXISTS,  /* tfa_challenge_exists: use resend */
	TFAE_INVALID_BACKUP,    /* invalid_backup_code */
	TFAE_PHONE_MISMATCH,    /* phone_number_mismatch */
	TFAE_LABEL_TOO_LONG,    /* label_too_long */
	TFAE_OTHER,             /* anything else (transport, rate limit, ...) */
};
struct tfa_error {
	enum tfa_err_kind kind;
	struct api_error api;   /* status, slug, sanitised message */
	int fail_count;         /* -1 when not sent */
	double locked_until;    /* epoch s, NAN when not sent or null */
};
/* Decode a finished 2FA call.  False when it succeeded; otherwise true with
 * *out filled (never a secret: the service's message is sanitised and
 * key-like runs are masked by apierr). */
bool api_tfa_error_decode(int http_status, const char *body, size_t len, struct tfa_error *out);
bool api_tfa_error_from_xfer(const struct http_xfer *x, struct tfa_error *out);
/* The same from an api_error alone (a call result: no fail_count nor
 * locked_until, which stay -1 and NAN; the kind from the slug). */
void api_tfa_error_from_api(const struct api_error *e, struct tfa_error *out);
/* One line for the dialog at time now (epoch s): "Wrong code: 2 of 5
 * attempts used.", "Locked: try again in 14m32s.", "The code expired: ask
 * for a new one.", ... Into buf; returns buf. */
char *api_tfa_error_text(const struct tfa_error *e, double now, char *buf, size_t n);
/* May a code be sent now? (false while locked_until is in the future) */
bool api_tfa_may_send(const struct tfa_error *e, double now);

/* ---- team members, audit log ------------------------------------------------------------ */

/* GET /api/v0/team/members/: decode with acct_map_members(). */
struct api_call api_members_list(const struct config *c);
/* POST /api/v0/team/invite/ {"email","role"}. */
struct api_call api_member_invite(const struct config *c, const char *email, const char *role);
/* PUT /api/v0/team/members/{id}/roles/ {"role"}. */
struct api_call api_member_role(const struct config *c, long id, const char *role);
/* DELETE /api/v0/team/members/{id}/. */
struct api_call api_member_remove(const struct config *c, long id);
/* GET /api/v0/audit_logs/: decode with acct_map_audit(). */
struct api_call api_audit_logs(const struct config *c);

/* ---- billing -------------------------------------------------------------------------- */

#define API_BILL_PAGE 100 /* rows asked per page of charges and invoices (the CLI's most) */
/* GET /api/v0/charges/ of the UTC day starting at day (epoch s), one
 * contract a row, after a paging token (NULL: the first page). */
struct api_call api_charges_day(const struct config *c, double day, const char *after);
/* GET /api/v1/invoices/ of [lo, hi] (epoch s), oldest first. */
struct api_call api_invoices(const struct config *c, double lo, double hi, const char *after);
/* GET /api/v0/users/me/invoices?owner=me&sdate&edate (the older form, where
 * /api/v1/invoices/ answers 404): charges per contract and day, payments,
 * transfers. */
struct api_call api_invoices_old(const struct config *c, double lo, double hi);
/* PUT /api/v0/commands/transfer_credit/ {"recipient","amount"} (amount in
 * dollars, rounded to the cent).  No idempotency field: never resent. */
struct api_call api_transfer_credit(const struct config *c, const char *recipient, double amount);

/* ---- pending price increases ----------------------------------------------------------- */

/* GET /api/v0/instances/pending-price-increases/: acct_map_price_incs(). */
struct api_call api_price_increases(const struct config *c);
/* PUT /api/v0/instances/{accept,reject}-price-increase/ {"pending_price_increase_id"}. */
struct api_call api_price_increase_answer(const struct config *c, long id, bool accept);

#endif
