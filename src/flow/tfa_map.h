/* tfa_map.h: the jobs mappers of the 2FA view's calls (they run on the
 * poller thread: jobs.h's jobs_map_fn).  Each answer is one struct
 * api_tfa_answer, which holds secrets (a TOTP or challenge secret, backup
 * codes, a session key): tfa_map_free wipes it.  Any thread. */
#ifndef RENTOP_TFA_MAP_H
#define RENTOP_TFA_MAP_H

#include <jansson.h>
#include <stdbool.h>

#include "api/api_account.h"
#include "net/apierr.h"

struct api_tfa_answer {
	char secret[160];               /* TOTP secret or challenge secret */
	char uri[768];                  /* the provisioning URI */
	struct tfa_backup_codes codes;  /* new backup codes */
	char session[512];              /* the session key of a login */
	int remaining;                  /* methods left after a removal, -1: not said */
	bool disabled;                  /* 2FA is off after a removal */
	char msg[200];                  /* a send's "sent to ..." (sanitised; not a secret) */
};

void tfa_map_free(void *p); /* wiped, then freed (a jobs_free_fn) */

/* totp-setup: the secret and the URI; NULL with a protocol error without them. */
void *tfa_map_setup(const json_t *root, struct api_error *e);
/* A challenge's secret ("" when none: the backup-code authorization sends none). */
void *tfa_map_secret(const json_t *root, struct api_error *e);
/* A send: the challenge's secret ("" when none) and where the code went (msg). */
void *tfa_map_sent(const json_t *root, struct api_error *e);
/* confirm-new: the backup codes of the first method (none: codes.n 0). */
void *tfa_map_codes(const json_t *root, struct api_error *e);
/* regen-backup-codes: the new codes; NULL with a protocol error without them. */
void *tfa_map_regen(const json_t *root, struct api_error *e);
/* A login: the session key; NULL with a protocol error without one or
 * when it does not fit. */
void *tfa_map_session(const json_t *root, struct api_error *e);
/* A removal: the methods left and whether 2FA is off. */
void *tfa_map_removed(const json_t *root, struct api_error *e);

#endif
