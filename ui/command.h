/* command.h: the `:` command line: parsing of ":instances", ":events",
 * ":help", ":q"/":quit", ":sort COLUMN", ":filter TEXT", ":theme NAME",
 * ":refresh".  Pure, UI thread only. */
#ifndef RENTOP_UI_COMMAND_H
#define RENTOP_UI_COMMAND_H

#include <stddef.h>

enum cmd {
	CMD_EMPTY, CMD_INSTANCES, CMD_EVENTS, CMD_HELP, CMD_QUIT, CMD_SORT, CMD_FILTER, CMD_THEME,
	CMD_REFRESH, CMD_UNKNOWN, CMD_MISSING_ARG
};

/* Parse a command line (with or without the leading ':'); the argument (or
 * the unknown word) is copied into arg. */
enum cmd command_parse(const char *line, char *arg, size_t n);

#endif
