/* command.h: the `:` command line: parsing of ":help", ":q"/":quit",
 * ":sort COLUMN", ":filter TEXT", ":theme NAME", ":refresh"; any other
 * single word (":instances", ":stop") is CMD_WORD, which the app looks up
 * among the views and the action table.  Pure, UI thread only. */
#ifndef RENTOP_UI_COMMAND_H
#define RENTOP_UI_COMMAND_H

#include <stddef.h>

enum cmd {
	CMD_EMPTY, CMD_HELP, CMD_QUIT, CMD_SORT, CMD_FILTER, CMD_THEME, CMD_REFRESH,
	CMD_WORD,   /* one other word, in arg: a view or an action */
	CMD_UNKNOWN, CMD_MISSING_ARG
};

/* Parse a command line (with or without the leading ':'); the argument (or
 * the unknown word) is copied into arg. */
enum cmd command_parse(const char *line, char *arg, size_t n);

/* The app's own words (help, q, sort, theme, ...) for Tab completion: at
 * most max pointers to static strings; returns how many. */
size_t command_words(const char **out, size_t max);

#endif
