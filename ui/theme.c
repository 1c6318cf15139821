/* theme.c: theme files (parsing, search path, built-in default), colour
 * fallback from 256 to 16 and 8 colours, monochrome attributes, and the
 * curses colour pairs of the active theme. */
#include "theme.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "base/util.h"

#define ROLE_NAME(e, n) [ROLE_##e] = n,
static const char *const role_names[ROLE__COUNT] = { ROLES(ROLE_NAME) };
#undef ROLE_NAME

static unsigned long role_attr[ROLE__COUNT];

const char *theme_role_name(enum role r) { return (unsigned)r < ROLE__COUNT ? role_names[r] : "?"; }

int theme_role_by_name(const char *name)
{
	for (int i = 0; i < ROLE__COUNT; i++)
		if (strcasecmp(role_names[i], name) == 0)
			return i;
	return -1;
}

static const char *const color_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"brightblack", "brightred", "brightgreen", "brightyellow", "brightblue",
	"brightmagenta", "brightcyan", "brightwhite",
};

int theme_parse_color(const char *s)
{
	if (strcasecmp(s, "default") == 0 || strcmp(s, "-") == 0)
		return -1;
	for (int i = 0; i < 16; i++)
		if (strcasecmp(color_names[i], s) == 0)
			return i;
	if (strcasecmp(s, "gray") == 0 || strcasecmp(s, "grey") == 0)
		return 8;
	const char *p = s;
	if (strncasecmp(p, "color", 5) == 0)
		p += 5;
	if (!*p)
		return -2;
	char *end;
	errno = 0;
	long v = strtol(p, &end, 10);
	if (*end || errno || v < 0 || v > 255 || !isdigit((unsigned char)*p))
		return -2;
	return (int)v;
}

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "bold", TA_BOLD }, { "dim", TA_DIM }, { "reverse", TA_REVERSE },
	{ "underline", TA_UNDERLINE }, { "standout", TA_STANDOUT }, { "normal", 0 },
};

bool theme_parse_spec(const char *s, struct theme_spec *out, char *err, size_t errn)
{
	char buf[256];
	util_strlcpy(buf, s, sizeof buf);
	struct theme_spec sp = { -1, -1, 0, true };
	int ncolor = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		bool is_attr = false;
		for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
			if (strcasecmp(attr_names[i].name, tok) == 0) {
				sp.attrs |= attr_names[i].bit;
				is_attr = true;
			}
		if (is_attr)
			continue;
		int c = theme_parse_color(tok);
		if (c == -2) {
			snprintf(err, errn, "unknown colour or attribute \"%s\"", tok);
			return false;
		}
		if (ncolor >= 2) {
			snprintf(err, errn, "more than two colours in \"%s\"", s);
			return false;
		}
		if (ncolor++ == 0)
			sp.fg = (short)c;
		else
			sp.bg = (short)c;
	}
	*out = sp;
	return true;
}

struct parse_ctx {
	struct theme *t;
	char why[160]; /* the first error, without its line number */
};

/* libinih callback: one "role = fg bg [attributes]" line.  Other sections
 * (name, author...) are for people; keys before any section count as colours.
 * Returning 0 makes ini_parse_string() report this line. */
static int on_ini_line(void *user, const char *section, const char *key, const char *val)
{
	struct parse_ctx *c = user;
	if (c->why[0])
		return 1;
	if (*section && strcasecmp(section, "colors") != 0)
		return 1;
	int r = theme_role_by_name(key);
	if (r < 0) {
		snprintf(c->why, sizeof c->why, "unknown role \"%s\"", key);
		return 0;
	}
	if (!theme_parse_spec(val ? val : "", &c->t->role[r], c->why, sizeof c->why)) {
		if (!c->why[0])
			snprintf(c->why, sizeof c->why, "bad colour specification");
		return 0;
	}
	return 1;
}

bool theme_parse_text(struct theme *t, const char *text, char *err, size_t errn)
{
	struct parse_ctx c = { .t = t };
	int line = ini_parse_string(text, on_ini_line, &c);
	if (line == 0)
		return true;
	if (c.why[0])
		snprintf(err, errn, "line %d: %s", line, c.why);
	else /* a syntax error inih found itself */
		snprintf(err, errn, "line %d: expected \"role = fg bg [attributes]\" or [section]", line);
	return false;
}

void theme_builtin(struct theme *t)
{
	static const struct {
		enum role r;
		short fg, bg;
		unsigned a;
	} d[] = {
		{ ROLE_NORMAL, -1, -1, 0 },           { ROLE_HEADER, 15, 24, 0 },
		{ ROLE_TITLE, 15, 24, TA_BOLD },      { ROLE_SELECTION, 16, 117, 0 },
		{ ROLE_RUNNING, 2, -1, 0 },           { ROLE_LOADING, 3, -1, 0 },
		{ ROLE_STOPPED, 8, -1, 0 },           { ROLE_FAILED, 9, -1, TA_BOLD },
		{ ROLE_PENDING, 13, -1, TA_BOLD },    { ROLE_ERROR, 15, 1, TA_BOLD },
		{ ROLE_WARNING, 11, -1, TA_BOLD },    { ROLE_OK, 10, -1, 0 },
		{ ROLE_DIM, 8, -1, 0 },               { ROLE_BORDER, 6, -1, 0 },
		{ ROLE_HINT, 7, 236, 0 },             { ROLE_KEY, 14, 236, TA_BOLD },
		{ ROLE_DIALOG, 15, 236, 0 },          { ROLE_BUTTON, 7, 238, 0 },
		{ ROLE_BUTTON_FOCUS, 16, 214, TA_BOLD }, { ROLE_INPUT, 15, 240, 0 },
		{ ROLE_TAB, 250, 24, 0 },             { ROLE_TAB_ACTIVE, 16, 117, TA_BOLD },
		{ ROLE_MARKER, 15, 1, TA_BOLD },      { ROLE_COLHEAD, 15, -1, TA_BOLD | TA_UNDERLINE },
	};
	memset(t, 0, sizeof *t);
	util_strlcpy(t->name, "built-in", sizeof t->name);
	for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
		t->role[d[i].r] = (struct theme_spec){ d[i].fg, d[i].bg, d[i].a, true };
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The theme directories, searched in this order; returns how many. */
static int theme_dirs(char dirs[][1024])
{
	const char *env = getenv("RENTOP_THEMES");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int nd = 0;
	if (env && *env)
		snprintf(dirs[nd++], 1024, "%s", env);
	snprintf(dirs[nd++], 1024, "./themes");
	if (xdg && *xdg)
		snprintf(dirs[nd++], 1024, "%s/rentop/themes", xdg);
	else if (home && *home)
		snprintf(dirs[nd++], 1024, "%s/.config/rentop/themes", home);
	/* installed beside the binary: <prefix>/bin/rentop -> <prefix>/share/rentop,
	 * whatever PREFIX was when it was built */
	char exe[900];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dirs[nd++], 1024, "%s/../share/rentop/themes", exe);
			/* or a build of the checkout, build/<variant>/rentop, run
			 * from anywhere */
			snprintf(dirs[nd++], 1024, "%s/../../themes", exe);
		}
	}
	snprintf(dirs[nd++], 1024, "%s/themes", RENTOP_DATADIR);
	return nd;
}

bool theme_find(const char *name, char *path, size_t n)
{
	if (!name || !*name)
		return false;
	if (strchr(name, '/')) {
		util_strlcpy(path, name, n);
		return is_file(path);
	}
	char dirs[6][1024];
	int nd = theme_dirs(dirs);
	for (int i = 0; i < nd; i++) {
		snprintf(path, n, "%s/%s.theme", dirs[i], name);
		if (is_file(path))
			return true;
	}
	return false;
}

size_t theme_list(char names[][64], size_t max)
{
	char dirs[6][1024];
	int nd = theme_dirs(dirs);
	size_t n = 0;
	for (int i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *e;
		while ((e = readdir(d)) != NULL && n < max) {
			size_t len = strlen(e->d_name);
			if (len <= 6 || len - 6 >= 64 || strcmp(e->d_name + len - 6, ".theme") != 0 ||
			    e->d_name[0] == '.')
				continue;
			char name[64];
			memcpy(name, e->d_name, len - 6);
			name[len - 6] = '\0';
			size_t j = 0;
			while (j < n && strcmp(names[j], name) != 0)
				j++;
			if (j < n)
				continue;
			/* sorted insert */
			j = n;
			while (j > 0 && strcmp(names[j - 1], name) > 0) {
				memcpy(names[j], names[j - 1], 64);
				j--;
			}
			memcpy(names[j], name, 64);
			n++;
		}
		closedir(d);
	}
	return n;
}

bool theme_load(struct theme *t, const char *name, char *err, size_t errn)
{
	char path[1200];
	if (name && strcmp(name, "default") == 0 && !theme_find(name, path, sizeof path)) {
		/* the built-in colours are themes/default.theme's (test_theme
		 * holds them equal): a rentop with no theme files still has it */
		theme_builtin(t);
		util_strlcpy(t->name, "default", sizeof t->name);
		return true;
	}
	if (!theme_find(name, path, sizeof path)) {
		snprintf(err, errn, "theme \"%s\" not found", name ? name : "");
		return false;
	}
	FILE *f = fopen(path, "re"); /* e: close-on-exec */
	if (!f) {
		snprintf(err, errn, "theme %s: %s", path, strerror(errno));
		return false;
	}
	char *text = xmalloc(65537);
	size_t len = fread(text, 1, 65536, f);
	text[len] = '\0';
	fclose(f);
	struct theme nt;
	theme_builtin(&nt);
	char why[200];
	bool ok = theme_parse_text(&nt, text, why, sizeof why);
	free(text);
	if (!ok) {
		snprintf(err, errn, "theme %s: %s", path, why);
		return false;
	}
	const char *base = strrchr(name, '/');
	util_strlcpy(nt.name, base ? base + 1 : name, sizeof nt.name);
	*t = nt;
	return true;
}

/* Nearest of the 16 basic colours to an xterm-256 index. */
static int to16(int c)
{
	if (c < 16)
		return c;
	if (c >= 232) {
		int level = (c - 232) * 10 + 8; /* 8..238 */
		return level < 60 ? 0 : level < 140 ? 8 : level < 210 ? 7 : 15;
	}
	int v = c - 16, r = v / 36, g = (v / 6) % 6, b = v % 6;
	int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
	if (mx == 0)
		return 0;
	int thr = mx >= 3 ? mx - 1 : 1;
	int base = (r >= thr ? 1 : 0) | (g >= thr ? 2 : 0) | (b >= thr ? 4 : 0);
	if (base == 7)
		return mx >= 4 ? 15 : 7;
	return base + (mx >= 4 ? 8 : 0);
}

int theme_fallback_color(int c, int ncolors, bool *bold)
{
	if (bold)
		*bold = false;
	if (c < 0 || c < ncolors)
		return c;
	if (ncolors >= 16)
		return to16(c);
	int b = to16(c);
	if (b >= 8) {
		if (bold)
			*bold = true;
		b -= 8;
	}
	return b;
}

unsigned theme_mono_attrs(enum role r)
{
	switch (r) {
	case ROLE_HEADER: case ROLE_SELECTION: case ROLE_TAB: case ROLE_BUTTON_FOCUS:
	case ROLE_HINT:
		return TA_REVERSE;
	case ROLE_MARKER: case ROLE_ERROR: case ROLE_TITLE: case ROLE_KEY:
		return TA_REVERSE | TA_BOLD;
	case ROLE_TAB_ACTIVE: /* normal video stands out of the reversed header */
	case ROLE_FAILED: case ROLE_PENDING: case ROLE_WARNING:
		return TA_BOLD;
	case ROLE_COLHEAD:
		return TA_BOLD | TA_UNDERLINE;
	case ROLE_INPUT:
		return TA_UNDERLINE;
	case ROLE_DIM: case ROLE_STOPPED: case ROLE_LOADING:
		return TA_DIM;
	case ROLE_NORMAL: case ROLE_RUNNING: case ROLE_OK: case ROLE_BORDER: case ROLE_DIALOG:
	case ROLE_BUTTON:
		return 0;
	case ROLE__COUNT:
		break; /* not a role */
	}
	return 0;
}

static attr_t ta_to_curses(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & TA_BOLD)
		r |= A_BOLD;
	if (a & TA_DIM)
		r |= A_DIM;
	if (a & TA_REVERSE)
		r |= A_REVERSE;
	if (a & TA_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & TA_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

void theme_activate(const struct theme *t, bool color)
{
	bool use = color && has_colors() && start_color() == OK;
	if (use)
		use_default_colors();
	int ncolors = use ? COLORS : 0;
	for (int i = 0; i < ROLE__COUNT; i++) {
		if (!use || i + 1 >= COLOR_PAIRS) {
			role_attr[i] = ta_to_curses(theme_mono_attrs((enum role)i));
			continue;
		}
		struct theme_spec sp = t->role[i].set ? t->role[i] : t->role[ROLE_NORMAL];
		bool bf = false, bb = false;
		int fg = theme_fallback_color(sp.fg, ncolors, &bf);
		int bg = theme_fallback_color(sp.bg, ncolors, &bb);
		init_pair((short)(i + 1), (short)fg, (short)bg);
		role_attr[i] = COLOR_PAIR(i + 1) | ta_to_curses(sp.attrs) | (bf ? A_BOLD : 0);
	}
}

unsigned long theme_attr(enum role r) { return (unsigned)r < ROLE__COUNT ? role_attr[r] : 0; }
