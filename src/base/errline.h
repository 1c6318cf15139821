/* errline.h: keeps the last non-empty line of a byte stream (a child's
 * stderr) as it is fed in pieces, so a failure message ("Permission denied
 * (publickey).") can be shown after the child ends.  Pure; one owner, no
 * locking. */
#ifndef RENTOP_ERRLINE_H
#define RENTOP_ERRLINE_H

#include <stddef.h>

#define ERRLINE_MAX 160 /* bytes kept of one line; the rest of a longer line is dropped */

struct errline {
	char cur[ERRLINE_MAX + 1];  /* the line being received */
	size_t curlen;              /* bytes in cur */
	char last[ERRLINE_MAX + 1]; /* the last complete non-blank line */
};

void errline_init(struct errline *e);
/* Feed n bytes; '\n' or '\r' ends a line, a line of only blanks is ignored. */
void errline_feed(struct errline *e, const char *buf, size_t n);
/* The last non-blank line (an unterminated last line counts), sanitised
 * (util_sanitize), blanks trimmed, cut to out's size; "" when none.
 * Returns out. */
char *errline_last(const struct errline *e, char *out, size_t n);

#endif
