/* app.h: the shell's behaviour behind the keys that is not one view's: job
 * submission, the dialog slot, the event feed, the command line and
 * copying; struct app and the toast are app_state.h's.  UI thread only. */
#ifndef RENTOP_UI_APP_H
#define RENTOP_UI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app_state.h"
#include "poll/jobs.h"
#include "view.h"

/* The event log's quiet lines of a write whose answer was lost (the form
 * or dialog says it on screen; form_lost_*, dialog_lost_*): the loss (what:
 * "API key dup-key"; line: the form's or dialog's words), and the verdict
 * of a re-read (nothing while it waits: FV_WAIT); app_lost_verdict returns
 * fv. */
void app_lost_logged(struct app *a, const char *what, const char *line);
enum form_verdict app_lost_verdict(struct app *a, enum form_verdict fv, const char *msg);
/* The instance the current view has selected, or NULL. */
const struct instance *app_selected(const struct app *a);

/* Run act as a key would from the current view: preconditions (read-only,
 * selection, row state: refused with a toast saying why), then its
 * handler. */
void app_run_action(struct app *a, enum action act);
/* The open dialog returned res: its owner gets it. */
void app_dialog_result(struct app *a, enum dlg_result res);
/* Who opened a->dlg (just now) gets its results: fn(a, owner, res). */
void app_dialog_own(struct app *a, app_dialog_fn fn, void *owner);
/* After app_dialog_own: fn sees each key first (a checklist in the
 * dialog's text); a key it takes goes no further.  Cleared by the next
 * app_dialog_own and when the dialog answers. */
void app_dialog_keys(struct app *a, bool (*fn)(struct app *a, void *owner, int key));
/* Esc on a dialog: "cancelled", closed. */
void app_dialog_cancelled(struct app *a);
/* Pull new events from the model: log, toasts, bell, 2FA. */
void app_pull_events(struct app *a);
/* Run a `:` command line. */
void app_command(struct app *a, const char *line);
/* Load and activate a theme by name; false (with a toast) when missing. */
bool app_set_theme(struct app *a, const char *name);
/* Submit a job; a toast says what happened; the job id or 0. */
int app_submit(struct app *a, const struct job_req *req);
/* req was submitted (jobs_submit): the pending toast.  (A job the service
 * refuses for want of 2FA is sent again by the poller after the login.) */
void app_sent(struct app *a, const struct job_req *req);
/* Copy text to the terminal's clipboard (OSC 52). */
void app_copy(const char *text);
/* Base64 of n bytes into out (4*ceil(n/3)+1 bytes); returns out. */
char *app_base64(const unsigned char *in, size_t n, char *out);

#endif
