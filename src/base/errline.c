/* errline.c: the last non-empty line of a child's stderr.  Bytes arrive in
 * arbitrary pieces (a pipe read); a line is kept only once complete or at the
 * end, capped at ERRLINE_MAX bytes, and sanitised only when asked for, since
 * it comes from another program (and through it from a remote host). */
#include "base/errline.h"

#include <string.h>
#include <stdlib.h>

#include "base/util.h"

void errline_init(struct errline *e) { memset(e, 0, sizeof *e); }

/* True when s[0..n) holds something other than blanks. */
static int has_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 1;
	return 0;
}

/* End the current line: keep it when it has text. */
static void end_line(struct errline *e)
{
	if (has_text(e->cur, e->curlen)) {
		memcpy(e->last, e->cur, e->curlen);
		e->last[e->curlen] = '\0';
	}
	e->curlen = 0;
}

void errline_feed(struct errline *e, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		if (c == '\n' || c == '\r')
			end_line(e);
		else if (e->curlen < ERRLINE_MAX)
			e->cur[e->curlen++] = c;
	}
}

char *errline_last(const struct errline *e, char *out, size_t n)
{
	const char *src = e->last;
	size_t len = strlen(e->last);
	if (has_text(e->cur, e->curlen)) { /* an unterminated last line */
		src = e->cur;
		len = e->curlen;
	}
	char *s = util_sanitize_n(src, len);
	char *p = s;
	while (*p == ' ')
		p++;
	size_t l = strlen(p);
	while (l && p[l - 1] == ' ')
		l--;
	p[l] = '\0';
	util_strlcpy(out, p, n);
	free(s);
	return out;
}
