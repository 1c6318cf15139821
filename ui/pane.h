/* pane.h: the pane interface every view plugs into (instances, events, and
 * later offers, serverless+logs, account+2FA), and overlays opened over a
 * view (detail, help).  A pane draws itself into the body rectangle, handles
 * the actions of its key context, and may say which instance is selected.
 * UI thread only. */
#ifndef RENTOP_UI_PANE_H
#define RENTOP_UI_PANE_H

#include <stdbool.h>

#include "keymap.h"
#include "layout.h"

struct app;

struct pane {
	const char *name;   /* "instances", "events", ...: also its :command */
	const char *title;  /* shown in the view switcher */
	enum km_ctx ctx;    /* where its keys are looked up first */
	void (*draw)(struct app *a, const struct rect *body);
	/* An action of the pane's context; true when handled. */
	bool (*action)(struct app *a, enum action act);
	void (*on_show)(struct app *a);           /* may be NULL */
	void (*on_hide)(struct app *a);           /* may be NULL */
	long (*selected)(const struct app *a);    /* selected instance id, 0: none; may be NULL */
	/* Apply the `/` filter text; NULL when the pane has no filter. */
	void (*filter)(struct app *a, const char *text);
	const char *(*filter_text)(const struct app *a);
};

#define PANE_MAX_VIEWS 8

/* Register a view (in Tab order); returns its index or -1 when full. */
int pane_register(struct app *a, const struct pane *p);
/* The pane that gets keys and the body: the overlay if one is open. */
const struct pane *pane_current(const struct app *a);
int pane_find(const struct app *a, const char *name); /* view index or -1 */
void pane_show_view(struct app *a, int idx);
void pane_next_view(struct app *a);
void pane_open_overlay(struct app *a, const struct pane *p);
void pane_close_overlay(struct app *a);

extern const struct pane pane_instances;
extern const struct pane pane_events;
extern const struct pane pane_detail;
extern const struct pane pane_help;

#endif
