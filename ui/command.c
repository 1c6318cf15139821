/* command.c: the app's own words of the `:` command line and their
 * arguments (views and actions are looked up by the app). */
#include "command.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

static const struct {
	const char *word;
	enum cmd cmd;
	int needs_arg; /* 1: required, 0: none, 2: optional */
} words[] = {
	{ "help", CMD_HELP, 0 },           { "h", CMD_HELP, 0 },
	{ "q", CMD_QUIT, 0 },              { "quit", CMD_QUIT, 0 },
	{ "sort", CMD_SORT, 1 },           { "filter", CMD_FILTER, 2 },
	{ "theme", CMD_THEME, 1 },         { "refresh", CMD_REFRESH, 0 },
};

size_t command_words(const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof words / sizeof words[0] && n < max; i++)
		out[n++] = words[i].word;
	return n;
}

enum cmd command_parse(const char *line, char *arg, size_t n)
{
	arg[0] = '\0';
	while (isspace((unsigned char)*line))
		line++;
	if (*line == ':')
		line++;
	while (isspace((unsigned char)*line))
		line++;
	if (!*line)
		return CMD_EMPTY;
	size_t wl = strcspn(line, " \t");
	const char *rest = line + wl;
	while (isspace((unsigned char)*rest))
		rest++;
	char tail[256];
	util_strlcpy(tail, rest, sizeof tail);
	size_t tl = strlen(tail);
	while (tl && isspace((unsigned char)tail[tl - 1]))
		tail[--tl] = '\0';
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strlen(words[i].word) != wl || strncasecmp(words[i].word, line, wl) != 0)
			continue;
		if (words[i].needs_arg == 1 && !*tail) {
			util_strlcpy(arg, words[i].word, n);
			return CMD_MISSING_ARG;
		}
		if (words[i].needs_arg)
			util_strlcpy(arg, tail, n);
		else if (*tail) {
			util_strlcpy(arg, line, n);
			return CMD_UNKNOWN;
		}
		return words[i].cmd;
	}
	util_strlcpy(arg, line, n);
	size_t al = strlen(arg);
	while (al && isspace((unsigned char)arg[al - 1]))
		arg[--al] = '\0';
	return *tail ? CMD_UNKNOWN : CMD_WORD;
}
