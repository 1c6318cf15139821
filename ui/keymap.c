/* keymap.c: the action catalogue, the default binding tables, the user's
 * `bind` overrides and key names.  Everything a key can do is listed once
 * here (ACTIONS in keymap.h); help and the hint bar are generated from the
 * same tables, so they cannot drift from what the keys really do. */
#include "keymap.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "config.h"
#include "util.h"

struct action_info {
	const char *name;
	unsigned ctx;
	unsigned flags;
	const char *help;
};

#define ACT_INFO(e, nm, c, f, h) [ACT_##e] = { nm, c, f, h },
static const struct action_info actions[ACT__COUNT] = { ACTIONS(ACT_INFO) };
#undef ACT_INFO

/* Contexts that share another's bindings of the actions both allow: the
 * detail view acts on its instance with the table's keys, so a `bind
 * instances KEY ...` line applies to the detail view as well. */
static const int ctx_parent[CTX__COUNT] = {
	[CTX_GLOBAL] = -1, [CTX_INSTANCES] = -1, [CTX_EVENTS] = -1,
	[CTX_DETAIL] = CTX_INSTANCES, [CTX_HELP] = -1,
};

static const char *const ctx_names[CTX__COUNT] = {
	[CTX_GLOBAL] = "global", [CTX_INSTANCES] = "instances", [CTX_EVENTS] = "events",
	[CTX_DETAIL] = "detail", [CTX_HELP] = "help",
};

const char *action_name(enum action a)
{
	return (unsigned)a < ACT__COUNT ? actions[a].name : "none";
}

const char *action_help(enum action a) { return (unsigned)a < ACT__COUNT ? actions[a].help : ""; }
unsigned action_flags(enum action a) { return (unsigned)a < ACT__COUNT ? actions[a].flags : 0; }
unsigned action_contexts(enum action a) { return (unsigned)a < ACT__COUNT ? actions[a].ctx : 0; }

enum action action_by_name(const char *name)
{
	for (int i = 0; i < ACT__COUNT; i++)
		if (strcmp(actions[i].name, name) == 0)
			return (enum action)i;
	return ACT_NONE;
}

const char *km_ctx_name(enum km_ctx c) { return (unsigned)c < CTX__COUNT ? ctx_names[c] : "?"; }

int km_ctx_by_name(const char *name)
{
	if (!name || !*name)
		return CTX_GLOBAL;
	for (int i = 0; i < CTX__COUNT; i++)
		if (strcasecmp(ctx_names[i], name) == 0)
			return i;
	return -1;
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
	enum km_ctx ctx;
	const char *key;
	enum action act;
};

static const struct default_bind defaults[] = {
	{ CTX_GLOBAL, "?", ACT_HELP },        { CTX_GLOBAL, ":", ACT_COMMAND },
	{ CTX_GLOBAL, "/", ACT_FILTER },      { CTX_GLOBAL, "r", ACT_REFRESH },
	{ CTX_GLOBAL, "p", ACT_PAUSE },       { CTX_GLOBAL, "q", ACT_QUIT },
	{ CTX_GLOBAL, "C-c", ACT_QUIT_NOW },  { CTX_GLOBAL, "C-z", ACT_SUSPEND },
	{ CTX_GLOBAL, "C-l", ACT_REDRAW },    { CTX_GLOBAL, "1", ACT_VIEW_INSTANCES },
	{ CTX_GLOBAL, "2", ACT_VIEW_EVENTS }, { CTX_GLOBAL, "Tab", ACT_NEXT_VIEW },
	{ CTX_GLOBAL, "Esc", ACT_BACK },
	{ CTX_INSTANCES, "Enter", ACT_DETAIL },
	{ CTX_INSTANCES, "<", ACT_SORT_PREV }, { CTX_INSTANCES, ">", ACT_SORT_NEXT },
	{ CTX_INSTANCES, "i", ACT_SORT_INVERT },
};

/* Navigation, bound in every list context. */
static const struct { const char *key; enum action act; } nav[] = {
	{ "Up", ACT_UP }, { "k", ACT_UP }, { "Down", ACT_DOWN }, { "j", ACT_DOWN },
	{ "PgUp", ACT_PAGE_UP }, { "PgDn", ACT_PAGE_DOWN }, { "Home", ACT_TOP }, { "g", ACT_TOP },
	{ "End", ACT_BOTTOM }, { "G", ACT_BOTTOM },
};

/* Instance actions, bound in the table and in the detail view. */
static const struct { const char *key; enum action act; } inst[] = {
	{ "s", ACT_STOP }, { "S", ACT_START }, { "R", ACT_REBOOT }, { "l", ACT_LABEL },
	{ "D", ACT_DESTROY }, { "b", ACT_BID }, { "$", ACT_PREPAY }, { "x", ACT_SSH },
	{ "y", ACT_COPY_SSH },
};

bool keymap_bind(struct keymap *km, enum km_ctx ctx, int key, enum action act)
{
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

void keymap_init(struct keymap *km)
{
	memset(km, 0, sizeof *km);
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
		keymap_bind(km, defaults[i].ctx, keymap_parse_key(defaults[i].key), defaults[i].act);
	for (int c = CTX_INSTANCES; c < CTX__COUNT; c++)
		for (size_t i = 0; i < sizeof nav / sizeof nav[0]; i++)
			keymap_bind(km, (enum km_ctx)c, keymap_parse_key(nav[i].key), nav[i].act);
	for (size_t i = 0; i < sizeof inst / sizeof inst[0]; i++) {
		keymap_bind(km, CTX_INSTANCES, keymap_parse_key(inst[i].key), inst[i].act);
		keymap_bind(km, CTX_DETAIL, keymap_parse_key(inst[i].key), inst[i].act);
	}
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

static const struct km_entry *find(const struct keymap *km, enum km_ctx ctx, int key);

/* One `bind` line: act (ACT_NONE: unbind) on key in ctx, and where else it
 * must reach so that what the user wrote holds everywhere.  Unbinding in
 * global takes the key away in every context that binds it; a line for a
 * context also applies to the contexts that share its bindings (the detail
 * view shares the table's), where the key is bound to an action both
 * allow (unbinding) or where act may be bound (binding).  False when a
 * context is full. */
static bool bind_everywhere(struct keymap *km, enum km_ctx ctx, int key, enum action act)
{
	bool ok = keymap_bind(km, ctx, key, act);
	for (int c = 0; c < CTX__COUNT; c++) {
		if (c == (int)ctx)
			continue;
		const struct km_entry *e = find(km, (enum km_ctx)c, key);
		if (ctx == CTX_GLOBAL) {
			if (act == ACT_NONE && e && e->act != ACT_NONE)
				ok = keymap_bind(km, (enum km_ctx)c, key, ACT_NONE) && ok;
			continue;
		}
		if (ctx_parent[c] != (int)ctx)
			continue;
		if (act == ACT_NONE) {
			if (e && e->act != ACT_NONE && (action_contexts(e->act) & CTXM(ctx)))
				ok = keymap_bind(km, (enum km_ctx)c, key, ACT_NONE) && ok;
		} else if (action_contexts(act) & CTXM(c)) {
			ok = keymap_bind(km, (enum km_ctx)c, key, act) && ok;
		}
	}
	return ok;
}

int keymap_apply(struct keymap *km, const struct key_binding *b, size_t n)
{
	int refused = 0;
	for (size_t i = 0; i < n; i++) {
		int ctx = km_ctx_by_name(b[i].context);
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
			act = action_by_name(b[i].action);
			if (act == ACT_NONE) {
				km_error(km, "bind: unknown action \"%s\" (key %s)", b[i].action,
					 b[i].key);
				refused++;
				continue;
			}
			unsigned where = action_contexts(act);
			bool ok = ctx == CTX_GLOBAL ? where == CM_ALL : (where & CTXM(ctx)) != 0;
			if (!ok) {
				km_error(km, "bind: action \"%s\" cannot be bound in context %s",
					 b[i].action, ctx_names[ctx]);
				refused++;
				continue;
			}
		}
		if (!bind_everywhere(km, (enum km_ctx)ctx, key, act)) {
			km_error(km, "bind: too many bindings in context %s (key %s)", ctx_names[ctx],
				 b[i].key);
			refused++;
		}
	}
	return refused;
}

static const struct km_entry *find(const struct keymap *km, enum km_ctx ctx, int key)
{
	for (int i = 0; i < km->n[ctx]; i++)
		if (km->e[ctx][i].key == key)
			return &km->e[ctx][i];
	return NULL;
}

enum action keymap_lookup(const struct keymap *km, enum km_ctx ctx, int key)
{
	if ((unsigned)ctx >= CTX__COUNT)
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

char *keymap_keys_for(const struct keymap *km, enum km_ctx ctx, enum action act, char *buf,
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
