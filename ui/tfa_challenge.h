/* tfa_challenge.h: the two-factor challenge an action asks for (the
 * service refused it for want of a 2FA session): a box over every view
 * naming the action, offering every way the account can answer (each of
 * its methods, the primary first and said so; a code sent to the account's
 * email; a backup code), sending the SMS or email code when one is chosen
 * (Enter with the code empty; C-n sends another), and logging in with the
 * typed code through a JOB_TFA_LOGIN job whose end it takes by its id.
 * The poller keeps the refused jobs and calls (parked) and, after the
 * login, sends them again under their ids: each result reaches whoever
 * asked.  Cancelled, each asker gets the refusal (poller_cancel_parked).
 *
 * Its calls (the 2FA status, the sends) are jobs_call on-demand calls
 * whose answers are taken in tfa_challenge_snapshot.  Secrets (the typed
 * code, the challenge secret of a sent code) live only here and in the
 * jobs module's copy of the login job; tfa_challenge_close wipes them.
 * UI thread only. */
#ifndef RENTOP_UI_TFA_CHALLENGE_H
#define RENTOP_UI_TFA_CHALLENGE_H

#include <stdbool.h>

struct app;
struct event;
struct tfa_challenge;

struct tfa_challenge *tfa_challenge_new(void);
void tfa_challenge_free(struct app *a, struct tfa_challenge *c);

/* Open the challenge for what ("destroy 9108142", "delete env var"): the
 * account's methods are read again.  Already open: nothing changes. */
void tfa_challenge_open(struct app *a, struct tfa_challenge *c, const char *what);
bool tfa_challenge_active(const struct tfa_challenge *c);
/* Event e says an action needs a 2FA login (EVF_NEEDS_TFA): a toast naming
 * it, and the challenge opens for it (the app's a->needs_tfa). */
void tfa_challenge_asked(struct app *a, struct tfa_challenge *c, const struct event *e);
/* Esc: the actions waiting for the login are cancelled (said in a toast;
 * each asker gets the refusal as its result), the challenge closed. */
void tfa_challenge_cancel(struct app *a, struct tfa_challenge *c);
/* Close it and wipe its secrets (the login went through, or was cancelled). */
void tfa_challenge_close(struct app *a, struct tfa_challenge *c);

/* A key while it is open: false when it was Esc (the caller cancels). */
bool tfa_challenge_key(struct app *a, struct tfa_challenge *c, int key);
/* Take the answers of its calls and of its login (after each new snapshot). */
void tfa_challenge_snapshot(struct app *a, struct tfa_challenge *c);
/* curses: draw it over the screen; true when the cursor is placed. */
bool tfa_challenge_draw(struct app *a, struct tfa_challenge *c);

#endif
