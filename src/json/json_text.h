/* json_text.h: the text of JSON values in the form --dump --json prints
 * (dump_json_text): jansson's JSON_INDENT(2) | JSON_SORT_KEYS layout, its
 * string escapes, plus DEL, the C1 controls, the bidi marks and overrides
 * and the line separators escaped (\u009b, \u202e); reals in their
 * shortest exact form, still reals (12.2, 12.0); integers as jansson
 * writes them.  Written piece by piece into a util_buf, for the streaming
 * writer of instance pages (json_stream.h) that never builds a tree of the
 * page.  Pure; any thread. */
#ifndef RENTOP_JSON_TEXT_H
#define RENTOP_JSON_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* A string value or key (len bytes of valid UTF-8, NULs possible), quoted. */
void json_text_string(struct util_buf *o, const char *s, size_t len);
void json_text_int(struct util_buf *o, long long i);
/* A real (finite). */
void json_text_real(struct util_buf *o, double d);
/* A real read from the number token tok (len bytes; d its value): the
 * same text as json_text_real(d), from the token when it is a plain
 * decimal of at most 15 significant digits (no conversion). */
void json_text_real_tok(struct util_buf *o, const char *tok, size_t len, double d);
/* That text from the token alone; false (nothing written) when it needs
 * the value (more digits, an exponent). */
bool json_text_real_tok_only(struct util_buf *o, const char *tok, size_t len);
/* Any value whose first line is at indentation `depth` (its nested lines
 * deeper, keys sorted); nothing is removed or masked here. */
void json_text_value(struct util_buf *o, const json_t *v, int depth);
/* The whole text of v as --dump --json prints it, from jansson's own
 * json_dumps (JSON_INDENT(2) | JSON_SORT_KEYS, JSON_REAL_PRECISION(17))
 * rewritten: the reference the writers above are tested against
 * (dump_json_text).  malloc'd; NULL if v cannot be encoded. */
char *json_text_dump(const json_t *v);
/* A line break and the indentation of depth. */
void json_text_newline(struct util_buf *o, int depth);

#endif
