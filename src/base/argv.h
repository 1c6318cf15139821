/* argv.h: a command line from the config file (notify_command) split into
 * an argument vector for posix_spawnp, without a shell.  The rules, simple
 * on purpose (rentop.1, CONFIGURATION):
 *  - words are separated by blanks (spaces, tabs);
 *  - '...' quotes literally (no escape inside);
 *  - "..." quotes, with \" and \\ the only escapes inside;
 *  - outside quotes a backslash makes the next character literal;
 *  - quoted parts join the word they touch (a'b'"c" is abc); '' is an
 *    empty word;
 *  - nothing else is special: no variables, no ~, no globbing, no ; | & >.
 * Pure, any thread. */
#ifndef RENTOP_ARGV_H
#define RENTOP_ARGV_H

#include <stddef.h>

#define ARGV_MAX_WORDS 64

/* Split s into a NULL-terminated vector (malloc'd, free with argv_free);
 * the word count in *argc.  NULL with a message in err (an unterminated
 * quote, a trailing backslash, no word at all, more than ARGV_MAX_WORDS
 * words); the message never quotes s (it may hold a token). */
char **argv_split(const char *s, size_t *argc, char *err, size_t errlen);
void argv_free(char **v);

#endif
