/* tfaflow.h: the pure side of the 2FA management dialogs (ui/views/tfa/tfa.c):
 * the "verify with" choices an account's methods give, the verification a
 * choice and a typed code make (code forms checked before anything is
 * sent), a method's row with its live lock countdown, the authorization
 * window, the line a failed step shows, and the backup codes as text and
 * as a 0600 file.
 *
 * Pure except tfaflow_write_codes (one file).  Any thread; no state.
 * Secrets: codes and challenge secrets pass through the caller's buffers
 * only; the caller wipes them.  No secret is ever put in an error text. */
#ifndef RENTOP_TFAFLOW_H
#define RENTOP_TFAFLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api_account.h"
#include "json/json_map.h"

/* One way to verify a step: a method of the account, or a backup code. */
struct tfaflow_choice {
	char kind[8];    /* "totp", "sms", "email" (the challenge only) or "backup" */
	long id;         /* the method's id (tfa_method_id), 0 for "email", "backup" and
			  * a method the status did not list */
	char text[80];   /* "totp 1234 Authenticator (primary)", "backup code" */
};

#define TFAFLOW_MAX_CHOICES 10

/* The choices for verifying with: the account's TOTP and SMS methods
 * (primary first), then "backup code" when any backup code is left (or
 * the count is unknown, < 0).  Returns how many (at most max). */
int tfaflow_choices(const struct tfa_status_rec *s, struct tfaflow_choice *out, int max);

/* The choices of the 2FA challenge an action asks for (the app's prompt):
 * every method of the account, the primary first with ", primary" (an SMS
 * one names its masked number: "SMS to +1******4321 (Phone), primary"),
 * then a code sent to the account's email, then "backup code" when any is
 * left (or the count is unknown).  s NULL (the status not read, or not
 * readable): an authenticator code, an SMS to the account's number, an
 * email code and a backup code.  Sanitised texts.  Returns how many. */
int tfaflow_challenge_choices(const struct tfa_status_rec *s, struct tfaflow_choice *out,
			      int max);
/* What to do with choice c in the challenge, in words: "type the current
 * code of your authenticator app", "Enter with the code empty sends a code
 * by SMS", ...  Into buf; returns buf. */
char *tfaflow_challenge_howto(const struct tfaflow_choice *c, char *buf, size_t n);

enum tfaflow_verify {
	TV_OK,         /* *out is ready to send */
	TV_BAD,        /* the typed code has the wrong form: err says what is expected */
	TV_SEND_SMS,   /* an SMS method without a challenge yet: send the code first */
	TV_SEND_EMAIL, /* an email code without a challenge yet: send the code first */
};
/* The verification the choice and the typed code make.  Blanks and '-'
 * inside a 6-digit code are dropped; a backup code is upper-cased and
 * must read XXXX-XXXX-XXXX.  sms_secret: the SMS (or email) challenge of
 * this choice ("" or NULL when none was sent: TV_SEND_SMS / TV_SEND_EMAIL,
 * unless a code was typed, which is then TV_BAD).  *out is wiped first. */
enum tfaflow_verify tfaflow_verify_build(const struct tfaflow_choice *c, const char *typed,
					 const char *sms_secret, struct tfa_verify *out,
					 char *err, size_t n);

/* A method's row at time now: "1234  totp  Authenticator  primary  -
 * 0 failed" and "locked for 14m32s" while locked_until is in the future.
 * Sanitised text (the label and the masked phone come from the server).
 * Into buf; returns buf. */
char *tfaflow_method_row(const struct tfa_method_rec *m, double now, char *buf, size_t n);
/* The method of the status with this id, or NULL. */
const struct tfa_method_rec *tfaflow_method(const struct tfa_status_rec *s, long id);

/* The authorize-new-method window: "open, 29m12s left" when this session
 * opened it at authorized_at (epoch s, 0: not by us), "open" when the
 * service says so without a time, "closed" otherwise. */
char *tfaflow_window_text(bool open, double authorized_at, double now, char *buf, size_t n);

/* The line a failed 2FA step shows: the kind in plain words, the
 * service's own message after a wrong code (it counts the attempts left),
 * and the lock countdown of method m (may be NULL) when it is locked. */
char *tfaflow_error_text(const struct api_error *e, const struct tfa_method_rec *m, double now,
			 char *buf, size_t n);

/* The codes one per line (for OSC 52 and the file); returns the length
 * (0 when they do not fit).  The caller wipes buf. */
size_t tfaflow_codes_text(const struct tfa_backup_codes *c, char *buf, size_t n);
/* Write the codes to path, created with mode 0600 (O_EXCL, O_NOFOLLOW: an
 * existing file or a symlink is refused).  False with the reason in err
 * (never a code). */
bool tfaflow_write_codes(const char *path, const struct tfa_backup_codes *c, char *err, size_t n);
/* The default file for the codes: $HOME/rentop-backup-codes-YYYYMMDD-HHMMSS.txt
 * at time now (local time); "" when HOME is unset. */
char *tfaflow_codes_path(double now, char *buf, size_t n);

/* A backup-code regeneration whose answer was lost is judged by the codes
 * the status says are left (form_lost_verdict's counts): remaining, the
 * status' backup_codes_remaining (-1: not known: -1).  Before the send: 0
 * when fewer than a full set (TFA_BACKUP_CODES) are left, -1 when a full
 * set is (a new full set cannot be told from it); after: 1 for a full set
 * (a new one), else 0. */
int tfaflow_regen_count(int remaining, bool before);

/* A send-code answer (POST tfa/sms/, tfa/sms/resend/, tfa/email/) as an
 * on-demand call's value: the challenge secret (a secret: wiped by
 * tfaflow_sent_free) and the service's "msg", sanitised.  NULL with e set
 * when the answer has no secret. */
struct tfaflow_sent {
	char secret[160];
	char msg[200];
};
void *tfaflow_map_sent(const json_t *root, struct api_error *e);
void tfaflow_sent_free(void *sent);

/* The 2FA status answer as an on-demand call's value (jobs_call /
 * jobs_subscribe mapper, poller thread): a struct tfa_status_rec, or NULL
 * with e set when the shape is wrong.  tfaflow_status_free frees it. */
void *tfaflow_map_status(const json_t *root, struct api_error *e);
void tfaflow_status_free(void *status);

#endif
