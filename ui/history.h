/* history.h: the `:` and `/` prompts' histories (a capped list with Up/Down
 * browsing, saved in $XDG_STATE_HOME/rentop/history, mode 0600) and Tab
 * completion of one word against a list of candidates.  Pure (no curses),
 * UI thread only. */
#ifndef RENTOP_UI_HISTORY_H
#define RENTOP_UI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define HISTORY_CAP 200    /* entries kept per kind */
#define HISTORY_LINE 512   /* bytes of one entry, NUL included; longer lines are not kept */

struct history {
	char (*e)[HISTORY_LINE]; /* oldest first, n of them */
	size_t n;
	size_t browse;           /* index shown by Up/Down; n: the line being edited */
	char stash[HISTORY_LINE]; /* the line being edited when browsing began */
};

void history_init(struct history *h);
void history_free(struct history *h);
/* True when a line could hold a secret (it names a key, token, secret or
 * password, case-insensitively): such a line is never kept nor saved. */
bool history_secret(const char *line);
/* Append a line (ends browsing).  Empty, secret or too long lines and a
 * repeat of the newest entry are not added; the oldest entry goes past
 * HISTORY_CAP.  True when added. */
bool history_add(struct history *h, const char *line);
/* Up: the next older entry, or NULL at the oldest; cur (the line being
 * edited) is kept when browsing begins. */
const char *history_prev(struct history *h, const char *cur);
/* Down: the next newer entry, the kept line past the newest, NULL when not browsing. */
const char *history_next(struct history *h);
void history_reset(struct history *h); /* end browsing */

/* $XDG_STATE_HOME/rentop/history, or ~/.local/state/rentop/history; false
 * when neither variable is set. */
bool history_path(char *out, size_t n);
/* The same directory's file name ($XDG_STATE_HOME/rentop/NAME, or
 * ~/.local/state/rentop/NAME): the other persisted state (the create form's
 * remembered forms, create_recall.h). */
bool history_state_path(const char *name, char *out, size_t n);
/* A private file written whole: history_private_open makes path's
 * directories (0700) and opens path.tmp (into tmp) mode 0600 (NULL with err);
 * history_private_close flushes, closes and renames it over path (false with
 * err, the temporary removed). */
FILE *history_private_open(const char *path, char *tmp, size_t tmpn, char *err, size_t errn);
bool history_private_close(FILE *f, const char *tmp, const char *path, char *err, size_t errn);
/* Read the file: lines ":CMD" go to cmd, "/TEXT" to filt (secret lines are
 * dropped here too).  A missing file is no error; false with err otherwise. */
bool history_load(struct history *cmd, struct history *filt, const char *path, char *err,
		  size_t errn);
/* Write both histories (directories made 0700, the file 0600, replaced
 * through a temporary file and rename); false with err. */
bool history_save(const struct history *cmd, const struct history *filt, const char *path,
		  char *err, size_t errn);

/* Complete word (a prefix) against cands (duplicates allowed): out gets the
 * longest common prefix of the matches (the whole candidate when one
 * matches), list the matches separated by two spaces (may be truncated).
 * Returns the number of distinct matches. */
size_t history_complete(const char *word, const char *const *cands, size_t ncands, char *out,
			size_t outn, char *list, size_t listn);

#endif
