/* keymap.h: keys are data.  The one action table (name, help line, hint
 * word, flags, a row-state precondition and the handler), the key contexts
 * (global, then one per view, registered by the views), the default
 * bindings, user overrides from the config file, and key names both ways.
 *
 * The app's own actions (help, quit, moving in a list, sorting a table, ...)
 * are the built-in enum below; a view lists its own in an action table
 * (struct action_row: view_ops.actions), which view_keys registers with
 * keymap_action_register() and binds in its context, so a new view never edits
 * this file.  Bindings, the `:` commands, the help screen, the hint
 * bar and --read-only all read this table.
 *
 * Pure: no terminal needed.  UI thread only: the registries are
 * process-wide, filled at start (registration is idempotent by name). */
#ifndef RENTOP_UI_KEYMAP_H
#define RENTOP_UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct key_binding;
struct keymap;

/* ---- key contexts ---------------------------------------------------------- */

/* Where a key is looked up first (then in global).  Context 0 is global;
 * the others are registered by the views (keymap_ctx_register). */
#define CTX_GLOBAL 0
#define KM_MAX_CTX 40 /* at most 64: allowed[] keeps one bit per context */

#define CTXF_LIST 0x1u  /* a list: the navigation actions are bound and allowed */
#define CTXF_TABLE 0x2u /* a sortable table: the sort actions are bound and allowed */
/* A section of its parent's view (the account view's API keys): its keys are
 * looked up while that section is shown (view_ops.key_ctx); no `:` word of
 * its own; help lists under it only what the parent context does not allow. */
#define CTXF_SECTION 0x4u
/* A view whose `/` filters it (set by view_keys when the view has a
 * list, view_ops.list): the help lists `/` in its section. */
#define CTXF_FILTER 0x8u

/* Register a context (idempotent by name): heading is its help section;
 * parent (-1: none) is a context whose `bind` lines also apply here, for
 * the actions both allow (the detail view shares the table's instance
 * keys).  Returns its id, or -1 when KM_MAX_CTX are registered. */
int keymap_ctx_register(const char *name, const char *heading, unsigned flags, int parent);
int keymap_ctx_count(void);
const char *keymap_ctx_name(int ctx);
const char *keymap_ctx_heading(int ctx);
unsigned keymap_ctx_flags(int ctx);
int keymap_ctx_parent(int ctx); /* -1: none */
int keymap_ctx_by_name(const char *name); /* -1 if unknown; "" means global */

/* ---- actions --------------------------------------------------------------- */

/* Action flags. */
#define AF_MUTATES   0x01u /* changes something on the service: hidden and refused under --read-only */
#define AF_NEEDS_SEL 0x02u /* needs a selected row */
#define AF_HINT      0x04u /* shown in the hint bar of its context */
#define AF_NEEDS_TFA 0x08u /* the service asks for a two-factor code first (said in help) */
#define AF_GLOBAL    0x10u /* may be bound in every context */
#define AF_LIST      0x20u /* may be bound in every list context (CTXF_LIST) */
#define AF_TABLE     0x40u /* may be bound in every table context (CTXF_TABLE) */
#define AF_FIRST_ON_FAILED 0x80u /* first in the hint bar when the selected instance has failed */
#define AF_FIRST_ON_OUTBID 0x100u /* first in the hint bar when the selected instance was outbid */

/* The app's own actions: X(ENUM, "name", flags, "help text"). */
#define ACTIONS(X) \
	X(HELP, "help", AF_GLOBAL | AF_HINT, "show this help") \
	X(COMMAND, "command", AF_GLOBAL, "command line (:VIEW :ACTION :sort COL :filter TEXT :theme NAME :refresh :q; Tab completes)") \
	X(FILTER, "filter", AF_GLOBAL | AF_HINT, "filter as you type: text, column=value (status=running, gpu=4090), !text (Esc clears)") \
	X(REFRESH, "refresh", AF_GLOBAL | AF_HINT, "refresh now") \
	X(PAUSE, "pause", AF_GLOBAL, "pause or resume display updates") \
	X(QUIT, "quit", AF_GLOBAL | AF_HINT, "quit (closes a view or dialog first)") \
	X(QUIT_NOW, "quit-now", AF_GLOBAL, "quit at once") \
	X(SUSPEND, "suspend", AF_GLOBAL, "suspend to the shell (fg resumes)") \
	X(REDRAW, "redraw", AF_GLOBAL, "redraw the whole screen") \
	X(NEXT_VIEW, "next-view", AF_GLOBAL, "next view") \
	X(BACK, "back", AF_GLOBAL, "back; clear the filter") \
	X(UP, "up", AF_LIST, "move up") \
	X(DOWN, "down", AF_LIST, "move down") \
	X(PAGE_UP, "page-up", AF_LIST, "page up") \
	X(PAGE_DOWN, "page-down", AF_LIST, "page down") \
	X(TOP, "top", AF_LIST, "first row") \
	X(BOTTOM, "bottom", AF_LIST, "last row") \
	X(SORT_PREV, "sort-prev", AF_TABLE, "sort by the previous column") \
	X(SORT_NEXT, "sort-next", AF_TABLE, "sort by the next column") \
	X(SORT_INVERT, "sort-invert", AF_TABLE, "reverse the sort order")

#define ACT_ENUM(e, name, flags, help) ACT_##e,
/* An action id.  Its enumerators are exactly what a switch can name: no
 * action and the built-ins.  The type is open-ended: an action a view
 * registers is a value of it too (ids ACT__BUILTIN .. ACT_MAX - 1, given
 * out at run time, so never a case label).  A switch over it names
 * ACT_NONE and every built-in (no `default:`), after the view has tested
 * its registered ids (or keymap_action_builtin()): adding a built-in is then a
 * compile error (-Wswitch-enum) in every view that has not decided about it. */
enum action { ACT_NONE = -1, ACTIONS(ACT_ENUM) };
#undef ACT_ENUM
#define ACT_ONE(e, name, flags, help) +1
/* Not actions, so not enumerators of enum action: the first registered id
 * (the number of built-ins) and the capacity. */
enum { ACT__BUILTIN = 0 ACTIONS(ACT_ONE), ACT_MAX = 256 };
#undef ACT_ONE
_Static_assert(sizeof(enum action) == sizeof(int), "registered ids are enum action values");

struct action_def {
	const char *name;  /* in `bind` lines and as a `:` command */
	const char *help;  /* the help line */
	const char *hint;  /* the hint bar's word; NULL: the name */
	unsigned flags;    /* AF_* */
	/* Why the action cannot run on row now (row: what the view has
	 * selected, a struct instance for the instance views), into buf;
	 * NULL when it can.  NULL: always can.  Pure. */
	const char *(*why_not)(const void *row, char *buf, size_t n);
	/* The handler, after every precondition held; NULL: the view's
	 * action op handles it. */
	void (*run)(struct app *a, enum action act);
};

/* Register an action (idempotent by name); its id, or ACT_NONE when full. */
enum action keymap_action_register(const struct action_def *d);
/* Allow act to be bound in ctx (registered actions; built-ins follow their flags). */
void keymap_action_allow(enum action act, int ctx);
bool keymap_action_allowed(enum action act, int ctx);
int keymap_action_count(void); /* ids are 0 .. keymap_action_count() - 1 */
bool keymap_action_builtin(enum action a); /* one of the app's own (an enumerator but ACT_NONE) */
const struct action_def *keymap_action_get(enum action a); /* NULL when out of range */
/* `:NAME ARGS` for a registered action that takes arguments: fn runs it
 * with ARGS after the same preconditions as its key (app.c); NULL (the
 * default): `:NAME` takes none.  action_args: its fn, or NULL. */
typedef void (*action_args_fn)(struct app *a, enum action act, const char *args);
void action_set_args(enum action act, action_args_fn fn);
action_args_fn action_args(enum action act);
const char *keymap_action_name(enum action a);
const char *keymap_action_help(enum action a);
const char *keymap_action_hint(enum action a);
unsigned keymap_action_flags(enum action a);
enum action keymap_action_by_name(const char *name); /* ACT_NONE if unknown */
/* Every precondition of act, in order: --read-only (AF_MUTATES), a
 * selection (AF_NEEDS_SEL, row NULL), then the row-state predicate.  NULL
 * when act may run, else why not (into buf). */
const char *keymap_action_refusal(enum action act, const void *row, bool read_only, char *buf,
			   size_t n);

/* ---- a view's action table ------------------------------------------------- */

/* One row of a view's action table (view_ops.actions): the action, the
 * keys it has by default ("c", "Enter Space"; NULL: none, a `:` word
 * only), the context it is bound in (a section's, by name; NULL: the
 * view's own) and where its id is kept for the view's handler (NULL: not
 * needed, the def's run handles it). */
struct action_row {
	struct action_def def;
	const char *keys;
	const char *ctx;
	enum action *id;
};

/* Register row's action (idempotent by name), keep its id, allow it in
 * ctx and bind its default keys there; the id (ACT_NONE: the table is full). */
enum action keymap_action_bind(struct keymap *km, int ctx, const struct action_row *row);
/* keymap_action_bind every row: in the context its ctx names (registered before),
 * else in ctx. */
void keymap_action_table(struct keymap *km, int ctx, const struct action_row *rows, size_t n);
/* The row of rows whose action is act (by the ids keymap_action_bind kept, else
 * by name); -1 when none. */
int keymap_action_row_of(const struct action_row *rows, size_t n, enum action act);
/* The context a row is bound in: its ctx by name, else ctx. */
int keymap_action_row_ctx(const struct action_row *row, int ctx);

/* ---- keys ------------------------------------------------------------------ */

/* Key codes: a Unicode code point (control characters included: Enter is
 * '\n', Tab 9, Esc 27, C-a 1), or KM_FN(curses KEY_*) for function keys.
 * Backspace always arrives as KM_FN(KEY_BACKSPACE). */
#define KM_FN_BIT 0x40000000
#define KM_FN(k) (KM_FN_BIT | (k))
#define KM_CTRL(c) ((c) & 0x1f)

#define KM_MAX_PER_CTX 128
#define KM_MAX_ERRORS 8

struct km_entry {
	int key;
	enum action act; /* ACT_NONE: explicitly unbound here */
};

struct keymap {
	struct km_entry e[KM_MAX_CTX][KM_MAX_PER_CTX];
	int n[KM_MAX_CTX];
	char errors[KM_MAX_ERRORS][160]; /* messages from keymap_apply, shown at start */
	int nerrors;
};

/* Key names: "x", "C-d", "Enter", "Esc", "Tab", "S-Tab", "Space", "Backspace",
 * "Up", "PgDn", "F5", ...  Returns -1 for an unknown name. */
int keymap_parse_key(const char *name);
/* The name of a key code, into buf; returns buf. */
char *keymap_key_name(int key, char *buf, size_t n);
/* Normalise what get_wch() returned (fn: it was KEY_CODE_YES). */
int keymap_normalize(bool fn, unsigned ch);

/* The global default bindings, and the list/table keys of every context
 * registered so far. */
void keymap_init(struct keymap *km);
/* Bind the list/table defaults of ctx (after keymap_ctx_register). */
void keymap_ctx_defaults(struct keymap *km, int ctx);
/* Bind act to each key named in keys ("D X"), as a default. */
void keymap_default(struct keymap *km, int ctx, const char *keys, enum action act);
/* Apply `bind [CONTEXT] KEY ACTION` overrides; errors go to km->errors.
 * `bind KEY none` (global) unbinds KEY in every context; a line for a
 * context also applies to the contexts that share its keys (the detail
 * view shares the table's), so an unbinding never leaves the key working
 * elsewhere.  Returns the number of bindings refused. */
int keymap_apply(struct keymap *km, const struct key_binding *b, size_t n);
/* Bind one key (action ACT_NONE unbinds); false when the context is full. */
bool keymap_bind(struct keymap *km, int ctx, int key, enum action act);
/* The action of key in ctx, falling back to global; ACT_NONE when unbound. */
enum action keymap_lookup(const struct keymap *km, int ctx, int key);
/* The keys reaching act from ctx ("Up/k"), "" when none; returns buf. */
char *keymap_keys_for(const struct keymap *km, int ctx, enum action act, char *buf, size_t n);

#endif
