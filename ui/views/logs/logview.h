/* logview.h: the pure display state of one log pane over a struct logtail
 * (logtail.h): follow mode (the last lines shown, paused when the user
 * scrolls up, resumed with G/End/F), the top line kept by sequence number
 * so that it survives evictions, the `c` floor (lines before it hidden, the
 * overlap of the next answer still matched), the `&` filter (less's), the
 * `/` search with n/N, wrap and the time column, the rows a line takes when
 * wrapped, a level for colouring, and the masking of secrets in a line.
 * No terminal: pane_logs.c draws what these functions decide; the unit
 * tests drive them.  A struct logview belongs to the UI thread; the
 * functions that take only text (logview_mask*, logview_level,
 * logview_wrap_starts) are pure, any thread (the mappers mask on the
 * poller thread). */
#ifndef RENTOP_UI_LOGVIEW_H
#define RENTOP_UI_LOGVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct logtail;

#define LOGVIEW_PAT 256 /* bytes of a search or filter text */

struct logview {
	bool follow;             /* the last lines are shown (tail -f) */
	uint64_t top_seq;        /* !follow: the sequence number of the top line */
	uint64_t floor_seq;      /* `c`: lines with a lower sequence are hidden */
	bool wrap;               /* long lines wrap (else they are cut) */
	bool show_time;          /* the leading timestamp is drawn */
	char search[LOGVIEW_PAT];/* `/`: highlighted; n/N move between matches */
	uint64_t match_seq;      /* the line the last n/N landed on, 0: none */
	char filter[LOGVIEW_PAT];/* `&`: only lines containing it are shown */
	size_t *idx;             /* the shown lines as logtail indices (malloc'd) */
	size_t nidx;
	uint64_t built_first;    /* logtail_first_seq/count when idx was built */
	size_t built_count;
};

void logview_init(struct logview *v);
void logview_free(struct logview *v);

/* Rebuild the list of shown lines (floor and filter) when t changed since
 * the last call, or always with force (a new filter).  Cheap when nothing
 * changed. */
void logview_sync(struct logview *v, const struct logtail *t, bool force);
/* The shown lines, after logview_sync: count, and the logtail index of the
 * k-th. */
size_t logview_count(const struct logview *v);
size_t logview_line(const struct logview *v, size_t k);

/* Rows line takes at width w (cells): 1 unwrapped, else ceil(width/w),
 * at least 1.  The time prefix is left out when hidden. */
int logview_rows(const struct logview *v, const char *line, int w);
/* The text drawn for line (past the timestamp when the time column is
 * hidden). */
const char *logview_text(const struct logview *v, const char *line);
/* Byte offsets where each wrapped row of s starts at width w: the first is
 * 0; returns the count (at most max, at least 1). */
int logview_wrap_starts(const char *s, int w, size_t *starts, int max);

/* The window: which shown line is at the top and how many rows of it are
 * skipped (a wrapped line cut at the top when following), for a body of h
 * rows and w cells.  Following: the last line ends at the bottom.  Else
 * the top line (by sequence, clamped to what is shown) starts the body. */
void logview_window(struct logview *v, const struct logtail *t, int h, int w, size_t *top_k,
		    int *skip_rows);

/* Scroll by delta lines (negative: up).  Scrolling up while following
 * pauses following (from the window shown); scrolling past the end does
 * not resume it (G/End/F do). */
void logview_scroll(struct logview *v, const struct logtail *t, int h, int w, long delta);
void logview_top(struct logview *v, const struct logtail *t);      /* g/Home: pauses */
void logview_follow(struct logview *v);                             /* G/End/F: resumes */

/* `c`: hide every line held now (the pane shows only what comes next). */
void logview_clear(struct logview *v, const struct logtail *t);

/* Set the filter (NULL or "": none); rebuilds the shown lines. */
void logview_set_filter(struct logview *v, const struct logtail *t, const char *text);
/* Set the search text (no move). */
void logview_set_search(struct logview *v, const char *text);
/* n (dir > 0) / N (dir < 0): the next shown line containing the search,
 * from the last match (or the window's top/bottom), wrapping around; the
 * view pauses following and puts the match at the top.  False when no
 * shown line matches; *wrapped tells when the search passed an end. */
bool logview_next_match(struct logview *v, const struct logtail *t, int h, int w, int dir,
			bool *wrapped);
/* Byte ranges [start, end) of the search in s (ASCII case folded when the
 * search has no capital, as less -i); returns the count (at most max). */
int logview_matches(const struct logview *v, const char *s, size_t *start, size_t *end, int max);

enum logview_level { LVL_NONE, LVL_DEBUG, LVL_WARN, LVL_ERROR };
/* The level a line carries as a word (ERROR, FATAL, Traceback, WARN,
 * WARNING, DEBUG, TRACE, any case; "error:" and "[E]" styles), for colour. */
enum logview_level logview_level(const char *line);

/* A copy of line (malloc'd) with secrets masked: the value of a NAME=VALUE
 * whose name looks secret (secrets.h: HF_TOKEN=..., api_key=...) unless it
 * is a plain number (tokens=42 is a count), and runs of 48 or more hex
 * digits (API keys, session keys), shown as "<hidden>".  Applied before a line
 * is stored, so it is never drawn nor saved. */
char *logview_mask(const char *line);
/* The same over a whole answer ('\n'-separated), malloc'd. */
char *logview_mask_text(const char *text);

#endif
