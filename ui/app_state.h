/* app_state.h: the UI thread's state (struct app): the shell's fields, the
 * list of registered views (their slots; view.c runs them) and the toast
 * that every part says things with.  The shell (app.c, ui.c), the view
 * framework (view.c) and the views work on it; it includes neither, so
 * the framework and the shell do not include each other.  UI thread only;
 * the model is read through the held snapshot (no lock held while
 * drawing). */
#ifndef RENTOP_UI_APP_STATE_H
#define RENTOP_UI_APP_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "widgets/dialog.h"
#include "history.h"
#include "keymap.h"
#include "layout.h"
#include "state/model.h"
#include "state/money.h"
#include "rules/watch.h"
#include "widgets/textbuf.h"
#include "theme.h"

struct config;
struct poller;
struct auth;
struct event;
struct jobs;
struct tfa_challenge;
struct notify_out;
struct gpu_names;
struct view_ops;

#define VIEW_MAX 24

/* One registered view (view.h: view_init_all fills the slots). */
struct view {
	const struct view_ops *ops;
	void *st;              /* the view's private state */
	int ctx;               /* its key context */
	enum action show;      /* view-NAME (number key), ACT_NONE for an overlay */
	double wake_at;        /* util_mono() time of the wake the loop planned, -1: none */
};

#define DIRTY_HEADER 0x1u
#define DIRTY_BODY 0x2u
#define DIRTY_MSG 0x4u
#define DIRTY_HINTS 0x8u
#define DIRTY_ALL 0xfu

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_SEARCH /* the view's search op */, PROMPT_COMMAND };

struct app;
/* The owner of the open dialog (a->dlg): gets its results. */
typedef void (*app_dialog_fn)(struct app *a, void *owner, enum dlg_result res);

struct template_rec;

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
	int overlay_back;   /* 1 + the overlay it was opened from (view_open_from),
			     * shown again when it closes; 0: none */
	long overlay_back_arg; /* that overlay's arg */

	uint64_t last_seq;  /* the last model event taken */

	/* message line */
	enum prompt prompt;
	struct view *prompt_view; /* the view the filter (or search) applies to */
	/* PROMPT_SEARCH (view_search_prompt): Enter runs the line with
	 * prompt_run; prompt_edit (NULL: none) sees it as it is typed, and ""
	 * on Esc */
	void (*prompt_run)(struct app *a, void *st, const char *text);
	void (*prompt_edit)(struct app *a, void *st, const char *text);
	const char *prompt_grammar; /* PROMPT_SEARCH: the `:` command whose Tab completion
				     * its line gets ("offers"), NULL: none */
	/* The service's GPU names for gpu_name= completion, given by the offers
	 * view (pane_offers_gpu_names, set by its init: the shell includes no
	 * view); NULL until read, the first call asking for them. */
	const struct gpu_names *(*gpu_names)(struct app *a);
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
	/* the owner's key filter, before the dialog's own keys (app_dialog_keys):
	 * true when it took the key; NULL: none */
	bool (*dlg_key)(struct app *a, void *owner, int key);
	struct tfa_challenge *chal; /* the 2FA prompt (tfa_challenge.h) */
	/* An event says an action needs a 2FA login: the prompt opens (ui.c
	 * sets it: tfa_challenge_asked; NULL: nothing opens) */
	void (*needs_tfa)(struct app *a, struct tfa_challenge *c, const struct event *e);
	/* c in the templates view: rent with that template (the offers view
	 * sets it: pane_offers_rent_template; NULL until then). */
	void (*rent_template)(struct app *a, const struct template_rec *t);

	/* the app's own actions (ui.c), run when no view handled an action */
	void (*global)(struct app *a, enum action act);

	unsigned dirty;
	bool quit;
	bool bell_pending;
	struct notify_out *notify; /* notifications beyond the screen (notify_out.h), NULL: none */

	/* header_watch (header.c): the service's health (enum health there)
	 * since outage_since (wall epoch), and the low-money level */
	int health;
	double outage_since;
	double shown_ok;    /* wall epoch the header's "refreshed" shows (header_clock_step) */
	size_t price_incs;  /* pending price increases on the account's instances (the
			     * account view keeps it, the header counts them) */
	struct money_watch money_w;
	/* idlewatch.c: the idle/hot/disk watch, the model generation and the
	 * list answer (last_ok) it last sampled */
	struct watch watch;
	uint64_t watch_seen;
	double watch_ok;
};

/* A toast in the message line (secs 0: until replaced). */
void app_toast(struct app *a, enum role r, double secs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* app_toast for the outcome of what the operator sent, shown by a view when
 * its answer comes: held against background toasts as a key's answer is. */
void app_answer(struct app *a, enum role r, double secs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Show the background toast held back by the answer to a key, when due. */
void app_show_later(struct app *a);

#endif
