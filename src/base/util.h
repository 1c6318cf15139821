/* util.h: a growing text buffer, string helpers, the sanitiser every server
 * string passes through, the clocks.  All functions are thread-safe (no
 * shared state).  It includes xmalloc.h (allocation that cannot fail
 * silently) and fmt.h (money, sizes, durations as text), which nearly
 * every file wants with it. */
#ifndef RENTOP_UTIL_H
#define RENTOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/fmt.h"
#include "base/xmalloc.h"

/* A growing text buffer, always NUL-terminated once written to (s is NULL
 * before the first put; the caller frees s). */
struct util_buf {
	char *s;
	size_t len, cap;
};
/* Append n bytes of p to b (doubling its room as needed). */
void util_buf_put(struct util_buf *b, const void *p, size_t n);
/* Room for n more bytes and the NUL (grown at least twofold). */
void util_buf_reserve(struct util_buf *b, size_t n);

/* Copy with truncation, always NUL-terminated; returns strlen(src). */
size_t util_strlcpy(char *dst, const char *src, size_t size);

/* Sanitise text from the server for drawing: escape sequences (CSI, OSC, DCS,
 * two-byte ESC forms) are removed whole, C0/C1 controls and DEL dropped,
 * bidirectional overrides dropped, invisible characters shown as "<U+200B>"
 * (util_cp_invisible), invalid UTF-8 bytes become '?', tabs and
 * (single-line form) newlines become spaces.  Returns a new string. */
char *util_sanitize(const char *s);
/* Invisible characters (zero-width spaces and joiners, the BOM, soft hyphen,
 * fillers, tags) that would make two names look alike: the sanitiser shows
 * each as "<U+200B>", --dump --json escapes it as \u200b. */
bool util_cp_invisible(uint32_t cp);
char *util_sanitize_n(const char *s, size_t len);
/* Multi-line form: keeps '\n' (drops '\r'), otherwise as above. */
char *util_sanitize_ml(const char *s, size_t len);

/* Wall-clock epoch seconds and monotonic seconds, both plus the test
 * clock's advance (0 unless a test moved it). */
double util_now(void);
double util_mono(void);
/* The test clock (`--test-clock`, tests only): move both clocks forward by
 * secs (> 0 and at most 1e6; anything else, NaN too, is refused: false),
 * as if that much time had passed.  Any thread; the offset is one atomic.
 * A thread asleep on a timeout computed from the clock is not woken here:
 * the caller wakes it. */
bool util_clock_advance(double secs);

/* Display width in terminal columns of a UTF-8 string (wcwidth-based;
 * unprintables count 0).  Locale must be set for wide characters. */
int util_strwidth(const char *s);

#endif
