/* keymap.h: keys are data.  The action catalogue (one X-macro giving the
 * enum, the name used in `bind` lines, the contexts it may be bound in, its
 * flags and its help text), the default bindings per context, user overrides
 * from the config file, and key names both ways.  Pure: no terminal needed,
 * UI thread only (no shared state). */
#ifndef RENTOP_UI_KEYMAP_H
#define RENTOP_UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

struct key_binding;

/* Contexts: where a key is looked up first (then in global). */
enum km_ctx { CTX_GLOBAL, CTX_INSTANCES, CTX_EVENTS, CTX_DETAIL, CTX_HELP, CTX__COUNT };

#define CTXM(c) (1u << (c))
#define CM_ALL ((1u << CTX__COUNT) - 1u)
#define CM_LIST (CTXM(CTX_INSTANCES) | CTXM(CTX_EVENTS) | CTXM(CTX_DETAIL) | CTXM(CTX_HELP))
#define CM_INST (CTXM(CTX_INSTANCES) | CTXM(CTX_DETAIL))
#define CM_TABLE CTXM(CTX_INSTANCES)

/* Action flags. */
#define AF_MUTATES  0x1u /* changes something on the service: hidden and refused under --read-only */
#define AF_NEEDS_SEL 0x2u /* needs a selected instance */
#define AF_HINT     0x4u /* shown in the hint bar of its context */

/* X(ENUM, "name", contexts, flags, "help text") */
#define ACTIONS(X) \
	X(HELP, "help", CM_ALL, AF_HINT, "show this help") \
	X(COMMAND, "command", CM_ALL, 0, "command line (:instances :events :sort COL :filter TEXT :theme NAME :refresh :q)") \
	X(FILTER, "filter", CM_ALL, AF_HINT, "filter the list as you type (Esc clears)") \
	X(REFRESH, "refresh", CM_ALL, AF_HINT, "refresh now") \
	X(PAUSE, "pause", CM_ALL, 0, "pause or resume display updates") \
	X(QUIT, "quit", CM_ALL, AF_HINT, "quit (closes a view or dialog first)") \
	X(QUIT_NOW, "quit-now", CM_ALL, 0, "quit at once") \
	X(SUSPEND, "suspend", CM_ALL, 0, "suspend to the shell (fg resumes)") \
	X(REDRAW, "redraw", CM_ALL, 0, "redraw the whole screen") \
	X(VIEW_INSTANCES, "view-instances", CM_ALL, 0, "instances view") \
	X(VIEW_EVENTS, "view-events", CM_ALL, 0, "event log view") \
	X(NEXT_VIEW, "next-view", CM_ALL, 0, "next view") \
	X(BACK, "back", CM_ALL, 0, "back; clear the filter") \
	X(UP, "up", CM_LIST, 0, "move up") \
	X(DOWN, "down", CM_LIST, 0, "move down") \
	X(PAGE_UP, "page-up", CM_LIST, 0, "page up") \
	X(PAGE_DOWN, "page-down", CM_LIST, 0, "page down") \
	X(TOP, "top", CM_LIST, 0, "first row") \
	X(BOTTOM, "bottom", CM_LIST, 0, "last row") \
	X(DETAIL, "detail", CM_TABLE, AF_NEEDS_SEL | AF_HINT, "every field of the selected instance") \
	X(STOP, "stop", CM_INST, AF_MUTATES | AF_NEEDS_SEL | AF_HINT, "stop (halts compute billing; disk charges continue)") \
	X(START, "start", CM_INST, AF_MUTATES | AF_NEEDS_SEL | AF_HINT, "start a stopped instance") \
	X(REBOOT, "reboot", CM_INST, AF_MUTATES | AF_NEEDS_SEL, "reboot the instance") \
	X(LABEL, "label", CM_INST, AF_MUTATES | AF_NEEDS_SEL, "change the label") \
	X(DESTROY, "destroy", CM_INST, AF_MUTATES | AF_NEEDS_SEL | AF_HINT, "destroy (stops all billing, deletes the disk)") \
	X(BID, "bid", CM_INST, AF_MUTATES | AF_NEEDS_SEL, "change the bid (interruptible instances)") \
	X(PREPAY, "prepay", CM_INST, AF_MUTATES | AF_NEEDS_SEL, "prepay credit on the instance") \
	X(SSH, "ssh", CM_INST, AF_NEEDS_SEL | AF_HINT, "ssh into the instance") \
	X(COPY_SSH, "copy-ssh", CM_INST, AF_NEEDS_SEL, "copy the ssh command to the clipboard") \
	X(SORT_PREV, "sort-prev", CM_TABLE, 0, "sort by the previous column") \
	X(SORT_NEXT, "sort-next", CM_TABLE, 0, "sort by the next column") \
	X(SORT_INVERT, "sort-invert", CM_TABLE, 0, "reverse the sort order")

#define ACT_ENUM(e, name, ctx, flags, help) ACT_##e,
enum action { ACT_NONE = -1, ACTIONS(ACT_ENUM) ACT__COUNT };
#undef ACT_ENUM

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
	struct km_entry e[CTX__COUNT][KM_MAX_PER_CTX];
	int n[CTX__COUNT];
	char errors[KM_MAX_ERRORS][160]; /* messages from keymap_apply, shown at start */
	int nerrors;
};

const char *action_name(enum action a);
const char *action_help(enum action a);
unsigned action_flags(enum action a);
unsigned action_contexts(enum action a);
enum action action_by_name(const char *name); /* ACT_NONE if unknown */

const char *km_ctx_name(enum km_ctx c);
int km_ctx_by_name(const char *name); /* -1 if unknown; "" means global */

/* Key names: "x", "C-d", "Enter", "Esc", "Tab", "S-Tab", "Space", "Backspace",
 * "Up", "PgDn", "F5", ...  Returns -1 for an unknown name. */
int keymap_parse_key(const char *name);
/* The name of a key code, into buf; returns buf. */
char *keymap_key_name(int key, char *buf, size_t n);
/* Normalise what get_wch() returned (fn: it was KEY_CODE_YES). */
int keymap_normalize(bool fn, unsigned ch);

/* The default bindings. */
void keymap_init(struct keymap *km);
/* Apply `bind [CONTEXT] KEY ACTION` overrides; errors go to km->errors.
 * `bind KEY none` (global) unbinds KEY in every context; a line for the
 * instances context applies to the detail view too (it shares the table's
 * instance keys), so an unbinding never leaves the key working elsewhere.
 * Returns the number of bindings refused. */
int keymap_apply(struct keymap *km, const struct key_binding *b, size_t n);
/* Bind one key (action ACT_NONE unbinds); false when the context is full. */
bool keymap_bind(struct keymap *km, enum km_ctx ctx, int key, enum action act);
/* The action of key in ctx, falling back to global; ACT_NONE when unbound. */
enum action keymap_lookup(const struct keymap *km, enum km_ctx ctx, int key);
/* The keys reaching act from ctx ("Up/k"), "" when none; returns buf. */
char *keymap_keys_for(const struct keymap *km, enum km_ctx ctx, enum action act, char *buf,
		      size_t n);

#endif
