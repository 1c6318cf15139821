/* theme.h: colours as semantic roles.  A theme file (themes/NAME.theme) maps
 * each role to "fg bg [bold|dim|reverse|underline|standout]" under [colors];
 * colours are names (black red green yellow blue magenta cyan white, bright*,
 * default) or numbers 0-255.  Colours beyond the terminal's fall back to the
 * nearest of 16 or 8; without colours (or NO_COLOR/--no-color) each role has
 * monochrome attributes.  Parsing is pure; theme_activate() needs curses.
 * UI thread only. */
#ifndef RENTOP_UI_THEME_H
#define RENTOP_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>

/* X(ENUM, "name") */
#define ROLES(X) \
	X(NORMAL, "normal") X(HEADER, "header") X(TITLE, "title") X(SELECTION, "selection") \
	X(RUNNING, "running") X(LOADING, "loading") X(STOPPED, "stopped") X(FAILED, "failed") \
	X(PENDING, "pending") X(ERROR, "error") X(WARNING, "warning") X(OK, "ok") X(DIM, "dim") \
	X(BORDER, "border") X(HINT, "hint") X(KEY, "key") X(DIALOG, "dialog") \
	X(BUTTON, "button") X(BUTTON_FOCUS, "button_focus") X(INPUT, "input") X(TAB, "tab") \
	X(TAB_ACTIVE, "tab_active") X(MARKER, "marker") X(COLHEAD, "colhead")

#define ROLE_ENUM(e, n) ROLE_##e,
enum role { ROLES(ROLE_ENUM) ROLE__COUNT };
#undef ROLE_ENUM

#define TA_BOLD 0x1u
#define TA_DIM 0x2u
#define TA_REVERSE 0x4u
#define TA_UNDERLINE 0x8u
#define TA_STANDOUT 0x10u

struct theme_spec {
	short fg, bg;   /* -1: terminal default; 0-255 */
	unsigned attrs; /* TA_* */
	bool set;
};

struct theme {
	char name[64];
	struct theme_spec role[ROLE__COUNT];
};

const char *theme_role_name(enum role r);
int theme_role_by_name(const char *name); /* -1 if unknown */
/* Parse a colour name or number; -2 when unknown. */
int theme_parse_color(const char *s);
/* "fg bg [attrs...]" -> spec; false with a message in err. */
bool theme_parse_spec(const char *s, struct theme_spec *out, char *err, size_t errn);
/* Parse a whole theme file's text onto t (roles not named keep their value);
 * false with "line N: ..." in err at the first bad line. */
bool theme_parse_text(struct theme *t, const char *text, char *err, size_t errn);
/* The built-in default theme (used when no file is found). */
void theme_builtin(struct theme *t);
/* Find NAME (or a path containing '/') in $RENTOP_THEMES, ./themes,
 * ~/.config/rentop/themes, <binary>/../share/rentop/themes, the checkout of
 * a build/<variant>/rentop (<binary>/../../themes), RENTOP_DATADIR/themes;
 * false if not found. */
bool theme_find(const char *name, char *path, size_t n);
/* The names of the themes found in those directories (no ".theme"),
 * sorted, without duplicates; at most max.  Returns how many. */
size_t theme_list(char names[][64], size_t max);
/* Load by name or path onto the built-in defaults; false with err.
 * "default" found nowhere is the built-in theme (the same colours). */
bool theme_load(struct theme *t, const char *name, char *err, size_t errn);
/* Nearest colour a terminal with ncolors can show (8, 16, 256). */
int theme_fallback_color(int c, int ncolors, bool *bold);
/* Monochrome attributes of a role (TA_*). */
unsigned theme_mono_attrs(enum role r);

/* curses side: set up colour pairs for t (color false: attributes only). */
void theme_activate(const struct theme *t, bool color);
/* The curses attributes (attr_t) of a role after theme_activate(). */
unsigned long theme_attr(enum role r);

#endif
