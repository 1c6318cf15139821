/* keymap.c: the key contexts, the one action table (the app's own actions
 * from ACTIONS in keymap.h, then those the views register), the default
 * binding tables, the user's `bind` overrides and key names.  Help, the
 * hint bar, `:` commands and --read-only read the same table, so they
 * cannot drift from what the keys really do. */
#include "keymap.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "base/config.h"
#include "base/util.h"

/* ---- contexts ------------------------------------------------------------ */

struct ctx_info {
	const char *name, *heading;
	unsigned flags;
	int parent;
};

static struct ctx_info ctxs[KM_MAX_CTX] = {
	[CTX_GLOBAL] = { "global", "Everywhere", 0, -1 },
};
static int nctx = 1;

int keymap_ctx_register(const char *name, const char *heading, unsigned flags, int parent)
{
	int have = keymap_ctx_by_name(name);
	if (have >= 0 && *name)
		return have;
	if (nctx >= KM_MAX_CTX)
		return -1;
	ctxs[nctx] = (struct ctx_info){ name, heading, flags, parent };
	return nctx++;
}

int keymap_ctx_count(void) { return nctx; }
const char *keymap_ctx_name(int c) { return c >= 0 && c < nctx ? ctxs[c].name : "?"; }
const char *keymap_ctx_heading(int c) { return c >= 0 && c < nctx ? ctxs[c].heading : "?"; }
unsigned keymap_ctx_flags(int c) { return c >= 0 && c < nctx ? ctxs[c].flags : 0; }
int keymap_ctx_parent(int c) { return c >= 0 && c < nctx ? ctxs[c].parent : -1; }

int keymap_ctx_by_name(const char *name)
{
	if (!name || !*name)
		return CTX_GLOBAL;
	for (int i = 0; i < nctx; i++)
		if (strcasecmp(ctxs[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- the action table ------------------------------------------------------ */

#define ACT_DEF(e, nm, f, h) [ACT_##e] = { .name = nm, .help = h, .flags = f },
static struct action_def actions[ACT_MAX] = { ACTIONS(ACT_DEF) };
#undef ACT_DEF
static uint64_t allowed[ACT_MAX]; /* registered actions: bit c set when bindable in context c */
static action_args_fn args_fn[ACT_MAX]; /* `:NAME ARGS` handlers (action_set_args) */
static int nactions = ACT__BUILTIN;

enum action keymap_action_register(const struct action_def *d)
{
	enum action have = keymap_action_by_name(d->name);
	if (have != ACT_NONE)
		return have;
	if (nactions >= ACT_MAX)
		return ACT_NONE;
	actions[nactions] = *d;
	return (enum action)nactions++;
}

void keymap_action_allow(enum action act, int ctx)
{
	if ((int)act >= 0 && (int)act < nactions && ctx >= 0 && ctx < KM_MAX_CTX)
		allowed[act] |= (uint64_t)1 << ctx;
}

bool keymap_action_allowed(enum action act, int ctx)
{
	if ((int)act < 0 || (int)act >= nactions || ctx < 0 || ctx >= nctx)
		return false;
	unsigned f = actions[act].flags;
	if (f & AF_GLOBAL)
		return true;
	if (ctx == CTX_GLOBAL)
		return false;
	if ((f & AF_LIST) && (ctxs[ctx].flags & CTXF_LIST))
		return true;
	if ((f & AF_TABLE) && (ctxs[ctx].flags & CTXF_TABLE))
		return true;
	return (allowed[act] >> ctx) & 1u;
}

int keymap_action_count(void) { return nactions; }

bool keymap_action_builtin(enum action a) { return (int)a >= 0 && (int)a < ACT__BUILTIN; }

const struct action_def *keymap_action_get(enum action a)
{
	return (int)a >= 0 && (int)a < nactions ? &actions[a] : NULL;
}

void action_set_args(enum action act, action_args_fn fn)
{
	if ((int)act >= 0 && (int)act < nactions)
		args_fn[act] = fn;
}

action_args_fn action_args(enum action act)
{
	return (int)act >= 0 && (int)act < nactions ? args_fn[act] : NULL;
}

const char *keymap_action_name(enum action a)
{
	return (int)a >= 0 && (int)a < nactions ? actions[a].name : "none";
}

const char *keymap_action_help(enum action a) { return (int)a >= 0 && (int)a < nactions ? actions[a].help : ""; }
unsigned keymap_action_flags(enum action a) { return (int)a >= 0 && (int)a < nactions ? actions[a].flags : 0; }

const char *keymap_action_hint(enum action a)
{
	const struct action_def *d = keymap_action_get(a);
	return d ? (d->hint ? d->hint : d->name) : "";
}

enum action keymap_action_by_name(const char *name)
{
	for (int i = 0; i < nactions; i++)
		if (strcmp(actions[i].name, name) == 0)
			return (enum action)i;
	return ACT_NONE;
}

const char *keymap_action_refusal(enum action act, const void *row, bool read_only, char *buf,
			   size_t n)
{
	const struct action_def *d = keymap_action_get(act);
	if (!d)
		return NULL;
	if (read_only && (d->flags & AF_MUTATES)) {
		snprintf(buf, n, "read-only mode: %s is disabled", d->name);
		return buf;
	}
	if (!row && (d->flags & AF_NEEDS_SEL)) {
		snprintf(buf, n, "nothing selected: %s needs a row", d->name);
		return buf;
	}
	if (row && d->why_not)
		return d->why_not(row, buf, n);
	return NULL;
}

struct named_key {
	const char *name;
	int key;
};

/* First spelling of each key is the one keymap_key_name() prints. */
static const struct named_key named_keys[] = {
	{ "Enter", '\n' }, { "Return", '\n' }, { "Esc", 27 }, { "Escape", 27 },
	{ "Tab", '\t' }, { "S-Tab", KM_FN(KEY_BTAB) }, { "BTab", KM_FN(KEY_BTAB) },
	{ "Space", ' ' }, { "Backspace", KM_FN(KEY_BACKSPACE) }, { "BS", KM_FN(KEY_BACKSPACE) },
	{ "Up", KM_FN(KEY_UP) }, { "Down", KM_FN(KEY_DOWN) }, { "Left", KM_FN(KEY_LEFT) },
	{ "Right", KM_FN(KEY_RIGHT) }, { "PgUp", KM_FN(KEY_PPAGE) }, { "PageUp", KM_FN(KEY_PPAGE) },
	{ "PgDn", KM_FN(KEY_NPAGE) }, { "PageDown", KM_FN(KEY_NPAGE) }, { "Home", KM_FN(KEY_HOME) },
	{ "End", KM_FN(KEY_END) }, { "Insert", KM_FN(KEY_IC) }, { "Ins", KM_FN(KEY_IC) },
	{ "Delete", KM_FN(KEY_DC) }, { "Del", KM_FN(KEY_DC) },
};

int keymap_parse_key(const char *name)
{
	if (!name || !*name)
		return -1;
	for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
		if (strcasecmp(named_keys[i].name, name) == 0)
			return named_keys[i].key;
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
		char *end;
		long f = strtol(name + 1, &end, 10);
		if (*end == '\0' && f >= 1 && f <= 24)
			return KM_FN(KEY_F((int)f));
		return -1;
	}
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3]) {
		char c = name[2];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || strchr("@[\\]^_", c))
			return KM_CTRL(c);
		return -1;
	}
	if (name[0] == '^' && name[1] && !name[2])
		return keymap_parse_key((char[]){ 'C', '-', name[1], 0 });
	/* exactly one printable character */
	mbstate_t st;
	memset(&st, 0, sizeof st);
	wchar_t wc;
	size_t len = strlen(name);
	size_t k = mbrtowc(&wc, name, len, &st);
	if (k == (size_t)-1 || k == (size_t)-2 || k == 0 || k != len)
		return -1;
	if (wc < 0x21 || wc == 0x7f || (wc >= 0x80 && wc < 0xa0))
		return -1;
	return (int)wc;
}

char *keymap_key_name(int key, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
		if (named_keys[i].key == key) {
			snprintf(buf, n, "%s", named_keys[i].name);
			return buf;
		}
	if (key & KM_FN_BIT) {
		int k = key & ~KM_FN_BIT;
		if (k >= KEY_F(1) && k <= KEY_F(24))
			snprintf(buf, n, "F%d", k - KEY_F(0));
		else
			snprintf(buf, n, "key%d", k);
		return buf;
	}
	if (key >= 1 && key <= 31) {
		snprintf(buf, n, "C-%c", key + 'a' - 1);
		return buf;
	}
	char mb[MB_LEN_MAX + 1];
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t k = wcrtomb(mb, (wchar_t)key, &st);
	if (k == (size_t)-1)
		snprintf(buf, n, "U+%04X", (unsigned)key);
	else {
		mb[k] = '\0';
		snprintf(buf, n, "%s", mb);
	}
	return buf;
}

int keymap_normalize(bool fn, unsigned ch)
{
	if (fn) {
		if (ch == KEY_ENTER)
			return '\n';
		return KM_FN((int)ch);
	}
	if (ch == '\r')
		return '\n';
	if (ch == 127 || ch == 8)
		return KM_FN(KEY_BACKSPACE);
	return (int)ch;
}

struct default_bind {
	const char *key;
	enum action act;
};

static const struct default_bind global_defaults[] = {
	{ "?", ACT_HELP },    { ":", ACT_COMMAND },   { "/", ACT_FILTER },  { "r", ACT_REFRESH },
	{ "p", ACT_PAUSE },   { "q", ACT_QUIT },      { "C-c", ACT_QUIT_NOW }, { "C-z", ACT_SUSPEND },
	{ "C-l", ACT_REDRAW }, { "Tab", ACT_NEXT_VIEW }, { "Esc", ACT_BACK },
	{ "F1", ACT_HELP },   { "F10", ACT_QUIT_NOW }, /* htop's habits */
};

/* Navigation, bound in every list context. */
static const struct default_bind nav[] = {
	{ "Up", ACT_UP }, { "k", ACT_UP }, { "Down", ACT_DOWN }, { "j", ACT_DOWN },
	{ "PgUp", ACT_PAGE_UP }, { "PgDn", ACT_PAGE_DOWN }, { "Home", ACT_TOP }, { "g", ACT_TOP },
	{ "End", ACT_BOTTOM }, { "G", ACT_BOTTOM },
};

/* Sorting, bound in every table context. */
static const struct default_bind sort[] = {
	{ "<", ACT_SORT_PREV }, { ">", ACT_SORT_NEXT }, { "i", ACT_SORT_INVERT },
};

bool keymap_bind(struct keymap *km, int ctx, int key, enum action act)
{
	if (ctx < 0 || ctx >= KM_MAX_CTX)
		return false;
	for (int i = 0; i < km->n[ctx]; i++)
		if (km->e[ctx][i].key == key) {
			km->e[ctx][i].act = act;
			return true;
		}
	if (km->n[ctx] >= KM_MAX_PER_CTX)
		return false;
	km->e[ctx][km->n[ctx]++] = (struct km_entry){ key, act };
	return true;
}

void keymap_ctx_defaults(struct keymap *km, int ctx)
{
	unsigned f = keymap_ctx_flags(ctx);
	if (f & CTXF_LIST)
		for (size_t i = 0; i < sizeof nav / sizeof nav[0]; i++)
			keymap_bind(km, ctx, keymap_parse_key(nav[i].key), nav[i].act);
	if (f & CTXF_TABLE)
		for (size_t i = 0; i < sizeof sort / sizeof sort[0]; i++)
			keymap_bind(km, ctx, keymap_parse_key(sort[i].key), sort[i].act);
}

void keymap_default(struct keymap *km, int ctx, const char *keys, enum action act)
{
	char buf[64];
	util_strlcpy(buf, keys, sizeof buf);
	char *save = NULL;
	for (char *k = strtok_r(buf, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
		int code = keymap_parse_key(k);
		if (code >= 0)
			keymap_bind(km, ctx, code, act);
	}
}

void keymap_init(struct keymap *km)
{
	memset(km, 0, sizeof *km);
	for (size_t i = 0; i < sizeof global_defaults / sizeof global_defaults[0]; i++)
		keymap_bind(km, CTX_GLOBAL, keymap_parse_key(global_defaults[i].key),
			    global_defaults[i].act);
	for (int c = 1; c < nctx; c++)
		keymap_ctx_defaults(km, c);
}

static void km_error(struct keymap *km, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void km_error(struct keymap *km, const char *fmt, ...)
{
	if (km->nerrors >= KM_MAX_ERRORS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(km->errors[km->nerrors++], sizeof km->errors[0], fmt, ap);
	va_end(ap);
}

static const struct km_entry *find(const struct keymap *km, int ctx, int key);

/* One `bind` line: act (ACT_NONE: unbind) on key in ctx, and where else it
 * must reach so that what the user wrote holds everywhere.  Unbinding in
 * global takes the key away in every context that binds it; a line for a
 * context also applies to the contexts that share its bindings (the detail
 * view shares the table's), where the key is bound to an action both
 * allow (unbinding) or where act may be bound (binding).  False when a
 * context is full. */
static bool bind_everywhere(struct keymap *km, int ctx, int key, enum action act)
{
	bool ok = keymap_bind(km, ctx, key, act);
	for (int c = 0; c < nctx; c++) {
		if (c == ctx)
			continue;
		const struct km_entry *e = find(km, c, key);
		if (ctx == CTX_GLOBAL) {
			if (act == ACT_NONE && e && e->act != ACT_NONE)
				ok = keymap_bind(km, c, key, ACT_NONE) && ok;
			continue;
		}
		if (ctxs[c].parent != ctx)
			continue;
		if (act == ACT_NONE) {
			if (e && e->act != ACT_NONE && keymap_action_allowed(e->act, ctx))
				ok = keymap_bind(km, c, key, ACT_NONE) && ok;
		} else if (keymap_action_allowed(act, c)) {
			ok = keymap_bind(km, c, key, act) && ok;
		}
	}
	return ok;
}

int keymap_apply(struct keymap *km, const struct key_binding *b, size_t n)
{
	int refused = 0;
	for (size_t i = 0; i < n; i++) {
		int ctx = keymap_ctx_by_name(b[i].context);
		if (ctx < 0) {
			km_error(km, "bind: unknown context \"%s\" (key %s)", b[i].context, b[i].key);
			refused++;
			continue;
		}
		int key = keymap_parse_key(b[i].key);
		if (key < 0) {
			km_error(km, "bind: unknown key \"%s\" (action %s)", b[i].key, b[i].action);
			refused++;
			continue;
		}
		enum action act = ACT_NONE;
		if (strcmp(b[i].action, "none") != 0) {
			act = keymap_action_by_name(b[i].action);
			if (act == ACT_NONE) {
				km_error(km, "bind: unknown action \"%s\" (key %s)", b[i].action,
					 b[i].key);
				refused++;
				continue;
			}
			if (!keymap_action_allowed(act, ctx)) {
				km_error(km, "bind: action \"%s\" cannot be bound in context %s",
					 b[i].action, ctxs[ctx].name);
				refused++;
				continue;
			}
		}
		if (!bind_everywhere(km, ctx, key, act)) {
			km_error(km, "bind: too many bindings in context %s (key %s)", ctxs[ctx].name,
				 b[i].key);
			refused++;
		}
	}
	return refused;
}

static const struct km_entry *find(const struct keymap *km, int ctx, int key)
{
	for (int i = 0; i < km->n[ctx]; i++)
		if (km->e[ctx][i].key == key)
			return &km->e[ctx][i];
	return NULL;
}

enum action keymap_lookup(const struct keymap *km, int ctx, int key)
{
	if (ctx < 0 || ctx >= nctx)
		ctx = CTX_GLOBAL;
	const struct km_entry *e = find(km, ctx, key);
	if (!e && ctx != CTX_GLOBAL)
		e = find(km, CTX_GLOBAL, key);
	return e ? e->act : ACT_NONE;
}

/* Append key's name to buf ("/"-separated). */
static void add_key(char *buf, size_t n, int key)
{
	char name[32];
	keymap_key_name(key, name, sizeof name);
	size_t len = strlen(buf);
	snprintf(buf + len, n - len, "%s%s", len ? "/" : "", name);
}

char *keymap_keys_for(const struct keymap *km, int ctx, enum action act, char *buf,
		      size_t n)
{
	buf[0] = '\0';
	for (int i = 0; i < km->n[ctx]; i++)
		if (km->e[ctx][i].act == act)
			add_key(buf, n, km->e[ctx][i].key);
	if (ctx != CTX_GLOBAL)
		for (int i = 0; i < km->n[CTX_GLOBAL]; i++)
			if (km->e[CTX_GLOBAL][i].act == act && !find(km, ctx, km->e[CTX_GLOBAL][i].key))
				add_key(buf, n, km->e[CTX_GLOBAL][i].key);
	return buf;
}

/* ---- a view's action table ----------------------------------------------- */

enum action keymap_action_bind(struct keymap *km, int ctx, const struct action_row *row)
{
	enum action act = keymap_action_register(&row->def);
	if (row->id)
		*row->id = act;
	if (act == ACT_NONE)
		return act;
	keymap_action_allow(act, ctx);
	if (row->keys)
		keymap_default(km, ctx, row->keys, act);
	return act;
}

int keymap_action_row_ctx(const struct action_row *row, int ctx)
{
	int c = row->ctx ? keymap_ctx_by_name(row->ctx) : -1;
	return c > 0 ? c : ctx;
}

void keymap_action_table(struct keymap *km, int ctx, const struct action_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		keymap_action_bind(km, keymap_action_row_ctx(&rows[i], ctx), &rows[i]);
}

int keymap_action_row_of(const struct action_row *rows, size_t n, enum action act)
{
	if (act == ACT_NONE)
		return -1;
	for (size_t i = 0; i < n; i++) {
		enum action id = rows[i].id ? *rows[i].id : keymap_action_by_name(rows[i].def.name);
		if (id == act)
			return (int)i;
	}
	return -1;
}
