/* app.h: the UI thread's state (struct app) shared by ui.c, the panes and
 * the status bar, and the behaviour behind the keys that is not one pane's:
 * toasts, job submission, the dialog slot, the event feed,
 * the command line and copying.  UI thread only; the model is read
 * through the held snapshot (no lock held while drawing). */
#ifndef RENTOP_UI_APP_H
#define RENTOP_UI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "widgets/dialog.h"
#include "history.h"
#include "poll/jobs.h"
#include "keymap.h"
#include "layout.h"
#include "state/model.h"
#include "state/money.h"
#include "widgets/textbuf.h"
#include "theme.h"
#include "view.h"

struct config;
struct poller;
struct auth;
struct tfa_challenge;

#define DIRTY_HEADER 0x1u
#define DIRTY_BODY 0x2u
#define DIRTY_MSG 0x4u
#define DIRTY_HINTS 0x8u
#define DIRTY_ALL 0xfu

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_SEARCH /* the view's search op */, PROMPT_COMMAND };

struct app;
/* The owner of the open dialog (a->dlg): gets its results. */
typedef void (*app_dialog_fn)(struct app *a, void *owner, enum dlg_result res);

struct app {
	const struct config *cfg;
	struct model *m;
	struct jobs *jobs;
	struct poller *poller;
	struct auth *auth;  /* the key in use (auth.h; thread-safe, never drawn) */
	bool read_only;
	struct keymap km;
	struct theme theme;
	bool color;
	struct layout lay;

	const struct snapshot *snap; /* displayed; held reference */
	bool paused;

	/* the views (view.h): their state is theirs alone */
	struct view views[VIEW_MAX];
	int nviews;
	int view;           /* index of the Tab view shown */
	int overlay;        /* index of the overlay open over it, -1: none */

	uint64_t last_seq;  /* the last model event taken */

	/* message line */
	enum prompt prompt;
	struct view *prompt_view; /* the view the filter (or search) applies to */
	/* PROMPT_SEARCH (view_search_prompt): Enter runs the line with
	 * prompt_run; prompt_edit (NULL: none) sees it as it is typed, and ""
	 * on Esc */
	void (*prompt_run)(struct app *a, void *st, const char *text);
	void (*prompt_edit)(struct app *a, void *st, const char *text);
	struct textbuf ptb;
	struct history hist_cmd, hist_filter; /* the `:` and `/` histories (history.h) */
	char hist_path[1024]; /* where they are saved, "" when nowhere */
	char msg[300];
	enum role msg_role;
	double msg_until;   /* monotonic seconds; 0: stays until replaced */
	bool msg_sticky;    /* start-up warnings: kept, not replaced by toasts,
			     * until a key is pressed */
	bool in_key;        /* a key is being handled: its toasts answer the user */
	double msg_keyed_until; /* monotonic; until then a refusal or warning that
				 * answered a key is not replaced by a background
				 * event's toast, which waits in msg_later */
	char msg_later[300];    /* the latest held background toast, "" when none */
	enum role msg_later_role;
	double msg_later_secs;

	struct dialog dlg;  /* the one dialog slot, opened by a view */
	app_dialog_fn dlg_fn; /* who opened it (app_dialog_own), NULL: closed on any answer */
	void *dlg_owner;
	struct tfa_challenge *chal; /* the 2FA prompt (tfa_challenge.h) */
	/* An event says an action needs a 2FA login: the prompt opens (ui.c
	 * sets it: tfa_challenge_asked; NULL: nothing opens) */
	void (*needs_tfa)(struct app *a, struct tfa_challenge *c, const struct event *e);

	/* the app's own actions (ui.c), run when no view handled an action */
	void (*global)(struct app *a, enum action act);

	unsigned dirty;
	bool quit;
	bool bell_pending;

	/* header_watch (header.c): the service's health (enum health there)
	 * since outage_since (wall epoch), and the low-money level */
	int health;
	double outage_since;
	double shown_ok;    /* wall epoch the header's "refreshed" shows (header_clock_step) */
	struct money_watch money_w;
};

/* A toast in the message line (secs 0: until replaced). */
void app_toast(struct app *a, enum role r, double secs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* app_toast for the outcome of what the operator sent, shown by a view when
 * its answer comes: held against background toasts as a key's answer is. */
void app_answer(struct app *a, enum role r, double secs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
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
/* Esc on a dialog: "cancelled", closed. */
void app_dialog_cancelled(struct app *a);
/* Pull new events from the model: log, toasts, bell, 2FA. */
void app_pull_events(struct app *a);
/* Show the background toast held back by the answer to a key, when due. */
void app_show_later(struct app *a);
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
