/* logtail.h: the text buffer behind a log pane (endpoint logs, instance
 * container logs).  A ring of sanitised lines with a fixed capacity, fed with
 * whole answers of a "last N lines" service: each answer is merged by finding
 * its overlap with what is held, so only new lines are appended.  Search,
 * filter (less's `&`), the time-column rule and saving to a file work on it.
 *
 * Thread rules: a struct logtail is not locked.  One thread owns it at a
 * time (the poller thread may build one and hand it over, or the UI thread
 * merges text that came back in the model); no function keeps a pointer to
 * the caller's text.  The helpers that take only a line are pure, any
 * thread. */
#ifndef RENTOP_LOGTAIL_H
#define RENTOP_LOGTAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOGTAIL_DEFAULT_LINES 10000 /* lines kept per open log (--log-lines) */

struct logtail;

/* capacity 0 means LOGTAIL_DEFAULT_LINES. */
struct logtail *logtail_new(size_t capacity);
void logtail_free(struct logtail *t);

/* What one merge did. */
struct logtail_merge {
	size_t answer_lines;  /* lines in the answer */
	size_t overlap;       /* of them, already held (the matched overlap) */
	size_t added;         /* appended (answer_lines - overlap, or 0 when stale) */
	size_t evicted;       /* oldest lines dropped to stay within capacity */
	bool gap;             /* held lines and no overlap: the log was rotated, or
			       * more than N lines came since the last answer */
	bool stale;           /* the whole answer lies inside what is held, but not
			       * at its end (an older answer): nothing appended */
	bool marked;          /* a gap, and the gap line was stored before the new
			       * lines (logtail_merge_gap) */
};

/* Merge one answer (the last N lines of the log, '\n'-separated, "\r\n"
 * accepted, a final newline optional).  Each line is sanitised
 * (util_sanitize: escape sequences, C0/C1 controls, bidi overrides dropped,
 * invalid UTF-8 made '?', tabs as spaces) before it is compared or stored.
 * The rule: the largest k such that the last k held lines equal the first k
 * lines of the answer; the remaining lines are appended.  With a run of
 * identical lines at the boundary this prefers the larger overlap (a line
 * is never shown twice; a repeat of an identical line that arrives exactly
 * at the window's edge may be taken for an old one).  An empty answer
 * (len 0 or NULL) changes nothing.  `out` may be NULL.  Returns added. */
size_t logtail_merge(struct logtail *t, const char *text, size_t len, struct logtail_merge *out);
/* The same, and on a gap (held lines, no overlap: lines between the two
 * answers may be lost) gap_line is stored first as a marker line
 * (logtail_is_marker), between what was held and the answer, so that the
 * screen and a saved file both show where lines may be missing.  gap_line
 * NULL: as logtail_merge.  The marker is not counted in added. */
size_t logtail_merge_gap(struct logtail *t, const char *text, size_t len, const char *gap_line,
			 struct logtail_merge *out);

/* Append one line as is (after sanitising), with no overlap search: for a
 * marker such as "-- log restarted --" drawn by the view. */
void logtail_append(struct logtail *t, const char *line);

size_t logtail_count(const struct logtail *t);
size_t logtail_capacity(const struct logtail *t);
/* Line i, 0 = the oldest held; NULL when out of range.  The pointer is valid
 * until the next merge, append, clear or free. */
const char *logtail_line(const struct logtail *t, size_t i);
/* Is line i a gap marker stored by logtail_merge_gap (never a line of the
 * log itself, whatever its text)?  False when out of range. */
bool logtail_is_marker(const struct logtail *t, size_t i);
/* Sequence number of line 0: every line ever stored has one (1, 2, ...), so
 * a view can keep its position as old lines are evicted:
 * index = seq - logtail_first_seq(t).  0 when empty. */
uint64_t logtail_first_seq(const struct logtail *t);
/* Drop every line (the next merge starts afresh; sequence numbers go on). */
void logtail_clear(struct logtail *t);

/* ---- search and filter (less's / n N &) ---------------------------------- */

/* The first match of needle in line at or after byte offset `from`: its byte
 * offset in *off; false when none (or needle empty).  icase: ASCII case
 * folding. Pure. */
bool logtail_find(const char *line, const char *needle, bool icase, size_t from, size_t *off);
/* The next line (dir > 0) or previous line (dir < 0) strictly after/before
 * line index `from` that contains needle, wrapping around the buffer (the
 * line `from` itself is tried last).  *found gets its index; *wrapped whether
 * the search passed the end.  False when no line matches. */
bool logtail_search(const struct logtail *t, const char *needle, bool icase, size_t from,
		    int dir, size_t *found, bool *wrapped);
/* Indices of the lines containing needle, ascending (malloc'd, the caller's;
 * NULL with *n = 0 when none).  An empty needle selects every line; a gap
 * marker is always selected (a filtered view still shows where lines may
 * be missing). */
size_t *logtail_filter(const struct logtail *t, const char *needle, bool icase, size_t *n);

/* ---- time column --------------------------------------------------------- */

/* Length in bytes of a leading timestamp in line, with the blanks after it
 * (0 when the line does not start with one).  Recognised, optionally in
 * [brackets]: ISO 8601 / RFC 3339 "2026-11-23T09:24:13Z" (also with a space
 * for T, fractions with '.' or ',', "Z", "+01:00" or "+0100"), syslog
 * "Nov 23 09:24:13", a bare "09:24:13" (with a fraction).  The view hides
 * this prefix when the time column is off.  Pure. */
size_t logtail_time_prefix(const char *line);

/* ---- save ----------------------------------------------------------------- */

/* Write the held lines (or, with idx, only those lines: a filter's result)
 * to path, one per line, mode 0600 via a temporary file and rename.  When
 * the path exists and overwrite is false: refused, returns 1 (the view asks,
 * then calls again with overwrite).  0 on success, -1 on error with a
 * message in err. */
int logtail_save(const struct logtail *t, const size_t *idx, size_t nidx, const char *path,
		 bool overwrite, char *err, size_t errlen);
/* The default file name "<name>-<YYYYmmdd-HHMMSS>.log" for the save prompt
 * (name reduced to [A-Za-z0-9._-], others as '_'); into buf, returns buf. */
char *logtail_default_name(char *buf, size_t n, const char *name, double now);

#endif
