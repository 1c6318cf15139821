/* argv.c: a config command line into words (argv.h). */
#include "base/argv.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

char **argv_split(const char *s, size_t *argc, char *err, size_t errlen)
{
	size_t len = strlen(s), n = 0;
	char **v = xcalloc(ARGV_MAX_WORDS + 1, sizeof *v);
	char *w = xmalloc(len + 1); /* a word is never longer than the line */
	const char *p = s;
	const char *why = NULL;
	while (!why) {
		while (blank(*p))
			p++;
		if (!*p)
			break;
		size_t k = 0;
		while (*p && !blank(*p) && !why) {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');
				if (!e) {
					why = "an unterminated ' quote";
					break;
				}
				memcpy(w + k, p + 1, (size_t)(e - p - 1));
				k += (size_t)(e - p - 1);
				p = e + 1;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					w[k++] = *p;
				}
				if (!*p)
					why = "an unterminated \" quote";
				else
					p++;
			} else if (*p == '\\') {
				if (!p[1])
					why = "a backslash at the end";
				else {
					w[k++] = p[1];
					p += 2;
				}
			} else {
				w[k++] = *p++;
			}
		}
		if (why)
			break;
		if (n == ARGV_MAX_WORDS) {
			why = "too many words";
			break;
		}
		v[n] = xmalloc(k + 1);
		memcpy(v[n], w, k);
		v[n][k] = '\0';
		n++;
	}
	if (!why && n == 0)
		why = "no command";
	free(w);
	if (why) {
		snprintf(err, errlen, "%s", why);
		argv_free(v);
		return NULL;
	}
	if (argc)
		*argc = n;
	return v;
}

void argv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}
