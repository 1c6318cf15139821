/* app_state.c: the toast (app_state.h): the message line's text, how long
 * it stays, and the hold that keeps the answer to a key readable against
 * background events' toasts. */
#include "app_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

enum { KEYED_HOLD_S = 8 };

/* Put a message on the status line; held: a refusal or warning that answers
 * the operator, not replaced by a background event's toast for KEYED_HOLD_S. */
static void vtoast(struct app *a, enum role r, double secs, bool answer, const char *fmt,
		   va_list ap)
{
	if (a->msg_sticky)
		return; /* the event log keeps what would have replaced it */
	char raw[sizeof a->msg];
	vsnprintf(raw, sizeof raw, fmt, ap);
	char *clean = util_sanitize(raw);
	util_strlcpy(a->msg, clean, sizeof a->msg);
	free(clean);
	a->msg_role = r;
	a->msg_until = secs > 0 ? util_mono() + secs : 0;
	/* a refusal or warning that answers a key stays readable: background
	 * events wait up to KEYED_HOLD_S (a job's own answer still replaces it) */
	bool held = answer && (r == ROLE_ERROR || r == ROLE_WARNING);
	a->msg_keyed_until = held ? util_mono() + (secs > 0 && secs < KEYED_HOLD_S ? secs
										  : KEYED_HOLD_S)
				  : 0;
	a->dirty |= DIRTY_MSG;
}

void app_toast(struct app *a, enum role r, double secs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vtoast(a, r, secs, a->in_key, fmt, ap);
	va_end(ap);
}

void app_answer(struct app *a, enum role r, double secs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vtoast(a, r, secs, true, fmt, ap);
	va_end(ap);
}

void app_show_later(struct app *a)
{
	if (!a->msg_later[0])
		return;
	/* after the hold of an answer; else once the line is free (a job's answer
	 * that replaced the held one is read first) */
	if (a->msg_keyed_until > 0 ? util_mono() < a->msg_keyed_until : a->msg[0] != '\0')
		return;
	app_toast(a, a->msg_later_role, a->msg_later_secs, "%s", a->msg_later);
	a->msg_later[0] = '\0';
}
