/* view.h: the view interface.  A view (instances, events, offers,
 * templates, serverless, logs, account, 2FA) or an overlay opened over one
 * (detail, help) is one file holding a table of operations and a private
 * state struct that only it sees; struct app keeps the list of views and
 * knows none of their insides.  tmux's mode-tree is the model: the view
 * supplies its callbacks and its data, the framework does the rest (Tab
 * order, number keys, `:` words, key contexts, help sections, the header's
 * list of views).
 *
 * How to add a view:
 *   1. Write ui/views/NAME/pane_NAME.c with `const struct view_ops view_NAME = {...}`:
 *      name (its `:` word and its `bind` context), title (header), heading
 *      (its help section), number_key ('3': a view in Tab order; 0: an
 *      overlay opened with view_open()), ctx_flags (CTXF_LIST gives it the
 *      navigation keys, CTXF_TABLE the sort keys), and the callbacks below
 *      (a list of rows: a struct list of widgets/list.h, returned by
 *      .list, which then owns moving, paging and the `/` filter)
 *      (draw is required; any other may be NULL).  Keep its state in a
 *      struct of its own, allocated by init and freed by fini.
 *   2. List its actions in a table (keymap.h's struct action_row) named by
 *      .actions/.nactions: each row a name, help line, flags (AF_MUTATES,
 *      AF_NEEDS_SEL, AF_HINT, ...), a row-state precondition (why_not), a
 *      handler (run, or the view's action callback, which finds its row
 *      with keymap_action_row_of()), its default keys and, for a section, the
 *      section's context.  view_keys() registers, allows and binds them;
 *      help, hints, `:NAME`, `bind` lines and --read-only follow from
 *      that, and every action goes through view_send_action(), which
 *      applies the preconditions in one place.  The keys callback is left
 *      for what a table cannot say (a key bound in another view's context).
 *   3. Add one line X(NAME) to VIEWS in view.c (its place sets Tab order).
 *
 * UI thread only.  Callbacks run on the UI thread with no lock held; the
 * snapshot they read is a->snap (held by the app). */
#ifndef RENTOP_UI_VIEW_H
#define RENTOP_UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "app_state.h"
#include "keymap.h"
#include "layout.h"

struct app;
struct event;
struct instance;
struct list;

struct view_ops {
	const char *name;       /* its `:` word and its `bind` context: "instances" */
	const char *alias;      /* a short `:` word ("i"), or NULL */
	const char *title;      /* in the header's list of views */
	const char *heading;    /* its section in the help */
	int number_key;         /* '1'..'9': a view in Tab order; 0: an overlay */
	unsigned ctx_flags;     /* CTXF_LIST, CTXF_TABLE */
	const char *ctx_parent; /* a context whose `bind` lines also apply here, or NULL */
	bool instance_rows;     /* selected_row is a struct instance * */

	/* Its action table (registered, allowed and bound in its context, or
	 * a row's section context, by view_keys after keys). */
	const struct action_row *actions;
	size_t nactions;
	/* More key setup, before the table: its section contexts, an action
	 * bound in another view's context.  Needs no app: the tests build
	 * the keymap with it.  NULL: none. */
	void (*keys)(struct keymap *km, int ctx);
	void *(*init)(struct app *a);                 /* the private state */
	void (*fini)(struct app *a, void *st);
	/* Shown (arg: what an overlay opens on, an instance id; 0 otherwise). */
	void (*enter)(struct app *a, void *st, long arg);
	void (*leave)(struct app *a, void *st);
	/* A new snapshot is in a->snap (rows: its rows or pending jobs changed). */
	void (*on_snapshot)(struct app *a, void *st, bool rows);
	void (*on_clock)(struct app *a, void *st);    /* a minute passed while shown (ages) */
	/* When (s, util_mono()) the view next has work due by the clock,
	 * shown or not (a paced search to send, a countdown to redraw); a
	 * negative value: none.  The loop's poll() wakes then and calls
	 * on_wake once that time has come; an idle view costs no wake-ups. */
	double (*next_wake)(const struct app *a, const void *st);
	void (*on_wake)(struct app *a, void *st);
	void (*on_event)(struct app *a, void *st, const struct event *e); /* every new event */
	void (*draw)(struct app *a, void *st, const struct rect *body);
	/* An action looked up in its context whose def has no run; true when handled. */
	bool (*action)(struct app *a, void *st, enum action act);
	/* An action on the view's marked rows, before the selected row's
	 * preconditions are checked: true when the view took it (rows are
	 * marked and act applies to marks).  NULL: the view marks nothing. */
	bool (*bulk)(struct app *a, void *st, enum action act);
	/* What its actions apply to (a struct instance * when instance_rows), NULL: none. */
	const void *(*selected_row)(const struct app *a, const void *st);
	/* The list the navigation keys, `/` and Esc act on now (NULL: none
	 * now): the list widget (widgets/list.h) moves, pages and filters it,
	 * so the view's action callback never sees ACT_UP..ACT_BOTTOM. */
	struct list *(*list)(struct app *a, void *st);
	/* `:NAME ARGS`: the view is shown and gets ARGS (`:offers gpu_name=...`);
	 * NULL: the word takes no arguments. */
	void (*command)(struct app *a, void *st, const char *args);
	/* More `:` words the view answers (a section's: "reports"), NULL-ended;
	 * `:WORD ARGS` shows the view and gives command "WORD ARGS".  NULL: none. */
	const char *const *words;
	/* `:sort COLUMN`: false with a message in err when there is no such column. */
	bool (*sort)(struct app *a, void *st, const char *col, char *err, size_t n);
	/* A modal of the view (a form, a confirmation) is open: every key goes
	 * here first; true when taken.  NULL: the view has none. */
	bool (*modal_key)(struct app *a, void *st, int key);
	/* Draw the open modal over the screen, last; true when it placed the
	 * cursor and wants it shown.  False (nothing drawn) when none is open. */
	bool (*modal_draw)(struct app *a, void *st);
	/* The key context in force now: a section's (a context registered
	 * with CTXF_SECTION and the view's as parent), or -1 for the view's
	 * own.  Keys, hints and `:ACTION` follow it.  NULL: always its own. */
	int (*key_ctx)(const struct app *a, const void *st);
	/* Extra text of its header tab (a count), into buf. */
	void (*tab_text)(const struct app *a, const void *st, char *buf, size_t n);
	/* Its column titles (`:sort COLUMN`, `:filter COLUMN=`), for Tab
	 * completion: at most max pointers; returns how many.  NULL: none. */
	size_t (*columns)(const struct app *a, const void *st, const char **out, size_t max);
	/* The fixed first arguments of `:NAME ARGS` (NULL-ended), for Tab
	 * completion (the account's sections).  NULL: none. */
	const char *const *args;
};

/* The key context of ops (registered on first use), its actions, its
 * default keys and its view-NAME action; returns the context.  Pure. */
int view_keys(struct keymap *km, const struct view_ops *ops);
/* view_keys for every view in VIEWS (the tests' complete keymap). */
void view_keys_all(struct keymap *km);
/* The i-th view of VIEWS, NULL past the last (the tests walk them). */
const struct view_ops *view_ops_at(size_t i);
/* Run act as a key or `:ACTION` does, on the current view: its
 * preconditions first, from its row of the action table (--read-only
 * refuses AF_MUTATES, AF_NEEDS_SEL wants a selected row, then the
 * row-state why_not), said in a toast when one fails; then its run, else
 * the current view's action op.  True when refused or handled; false when
 * no one handled it (the app's own actions then). */
bool view_send_action(struct app *a, enum action act);
/* Register every view in VIEWS into a (keys into a->km, init). */
void view_init_all(struct app *a);
void view_fini_all(struct app *a);

/* The view that gets keys and the body: the overlay if one is open. */
struct view *view_current(const struct app *a);
/* The key context of v now (its section's, else its own). */
int view_key_ctx(const struct app *a, const struct view *v);
/* The current view's selected row (NULL: none). */
const void *view_row(const struct app *a);
int view_find(const struct app *a, const char *name); /* index or -1 (name or alias) */
int view_find_word(const struct app *a, const char *word); /* index of a view's `words`, or -1 */
/* The list v's keys act on now (ops->list), NULL: none. */
struct list *view_list(struct app *a, const struct view *v);
/* Whether v has a `/` filter (a list); the text in force ("" when none);
 * apply text. */
bool view_can_filter(struct app *a, const struct view *v);
const char *view_filter_text(struct app *a, const struct view *v);
void view_filter_set(struct app *a, const struct view *v, const char *text);
/* Open a search line for the current view (a search the service runs,
 * the log's less-like search: a view's own key), pre-filled with text;
 * Enter runs the line with run(a, the view's state, line), Esc drops it;
 * edit (NULL: none) gets the line as it is typed, and "" on Esc (the log
 * highlights its matches as you type). */
void view_search_prompt(struct app *a, const char *text,
			void (*run)(struct app *a, void *st, const char *line),
			void (*edit)(struct app *a, void *st, const char *line));
/* Bind row (an action a view offers in other views' contexts: t, L, M)
 * in the context of each name of names (NULL-ended; one not registered
 * yet is skipped) and, with children, in every context whose parent that
 * is (a view's sections).  Pure (the tests build the keymap with it). */
void view_bind_in(struct keymap *km, const struct action_row *row, const char *const *names,
		  bool children);
/* Show view idx (a Tab view, or open an overlay on arg). */
void view_show(struct app *a, int idx, long arg);
void view_open(struct app *a, const char *name, long arg); /* by name */
/* Open overlay name on arg from the overlay shown, which opens again (on
 * back_arg) when the new one closes (Esc, q) rather than the view below;
 * showing anything else forgets it. */
void view_open_from(struct app *a, const char *name, long arg, long back_arg);
void view_next(struct app *a);
void view_close_overlay(struct app *a);
bool view_is(const struct app *a, const struct view *v, const char *name);

#endif
