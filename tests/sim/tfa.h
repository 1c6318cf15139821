/* tfa.h: the simulator's two-factor authentication: TOTP (RFC 6238 through
 * liboath), SMS and email codes, backup codes, the 30-minute
 * authorize-new-method window, locks after repeated failures, and 2FA
 * session keys.  Called with the simulator's state lock held. */
#ifndef RENTOP_SIM_TFA_H
#define RENTOP_SIM_TFA_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct tfa;

/* seed: deterministic secrets and codes; email: the account's address. */
struct tfa *tfa_new(uint64_t seed, const char *email);
void tfa_free(struct tfa *t);

/* Enable 2FA with one TOTP method whose base32 secret is returned (stable for
 * a seed); used by --tfa on so tests and the demo can compute codes. */
const char *tfa_enable_totp(struct tfa *t, double now);

/* Enable 2FA with one SMS method only (a seeded +1555010NNNN number,
 * primary, label "Phone"): an SMS-only account, for --tfa sms.  Returns
 * the number (E.164).  A reset restores it, as for tfa_enable_totp. */
const char *tfa_enable_sms(struct tfa *t, double now);

/* Handle a request under /api/v0/tfa/.  Returns false when the path is not
 * a 2FA path (the caller routes on).  On true, *rs is filled. */
bool tfa_handle(struct tfa *t, const struct sim_req *rq, struct sim_resp *rs);

/* Session keys issued by POST /api/v0/tfa/ (CLI flow). */
enum tfa_session { TFA_SESSION_UNKNOWN, TFA_SESSION_VALID, TFA_SESSION_EXPIRED };
enum tfa_session tfa_session_check(struct tfa *t, const char *key, double now);

/* State for other modules. */
bool tfa_is_enabled(const struct tfa *t);
const char *tfa_status_string(const struct tfa *t); /* "enabled" "disabled" "legacy" */
/* The last code sent over "sms" or "email" (for /__sim/), or NULL. */
const char *tfa_last_code(const struct tfa *t, const char *channel);
/* The address the last email code was sent to (for /__sim/codes), or NULL. */
const char *tfa_last_email_to(const struct tfa *t);
/* A JSON description for /__sim/state: methods, secrets, backup codes left. */
json_t *tfa_debug_json(const struct tfa *t);
/* Every secret handed out since start (borrowed): TOTP secrets (seeded and
 * set up), backup codes, session keys, challenge secrets; and, apart, the
 * SMS/email codes sent. */
json_t *tfa_issued(const struct tfa *t);
json_t *tfa_codes(const struct tfa *t);
/* Session lifetime in seconds (default 24 h); for tests of expiry. */
void tfa_set_session_ttl(struct tfa *t, double seconds);
/* Forget everything (used by /__sim/reset), keeping seed, email and user id.
 * When tfa_enable_totp was called before, the same seeded TOTP method (same
 * secret) is enabled again, as at start-up; calling tfa_enable_totp after the
 * reset as well is harmless (it is idempotent). */
void tfa_reset(struct tfa *t);

/* Extensions (added by sim-tfa; all optional for callers). */
/* The account's user id, shown as user_id in method objects and as id in the
 * login answer (default 0 until set). */
void tfa_set_user_id(struct tfa *t, long user_id);
/* Whether the account's email is verified (default true); unverified accounts
 * cannot be sent codes (403 email_not_verified).  For /__sim/set
 * {"what":"user","field":"email_verified","value":false}. */
void tfa_set_email_verified(struct tfa *t, bool verified);
bool tfa_email_verified(const struct tfa *t);
/* Mark the account as a legacy 2FA user (tfa_status "legacy"; enables TOTP
 * first when 2FA is off).  For /__sim/set {"what":"user","field":"tfa_legacy"}. */
void tfa_set_legacy(struct tfa *t, bool legacy, double now);

#endif
