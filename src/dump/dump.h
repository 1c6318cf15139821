/* dump.h: `rentop --dump WHAT [--json] [--query Q]`: one fetch without
 * curses, a plain aligned table (or the raw records as a JSON array, secrets
 * removed) on stdout, errors on stderr.  Main thread. */
#ifndef RENTOP_DUMP_H
#define RENTOP_DUMP_H

#include <jansson.h>
#include <stdio.h>

struct config;
struct auth;

/* Exit statuses. */
#define DUMP_EXIT_OK 0
#define DUMP_EXIT_USAGE 2
#define DUMP_EXIT_AUTH 3
#define DUMP_EXIT_NET 4

/* Runs the dump of cfg->dump; returns the process exit status. */
int dump_run(const struct config *cfg, struct auth *auth, FILE *out, FILE *err);

/* Display columns a plain-table cell may take: every column but the last,
 * and the last (which pads nothing but its own line). */
#define DUMP_CELL_MAX 64
#define DUMP_LAST_CELL_MAX 200

/* The JSON text of v as --dump --json prints it: indented, keys sorted,
 * reals in their shortest exact form (12.2, not 12.199999999999999), DEL,
 * C1 controls, bidi marks and overrides and line separators escaped
 * (\u009b, \u202e) as jansson does not.  malloc'd; NULL if v cannot be
 * encoded. */
char *dump_json_text(const json_t *v);
/* s cut to max_cols display columns, ending with an ellipsis ("..." when
 * the locale is not UTF-8) when it was longer.  malloc'd. */
char *dump_cut_cell(const char *s, int max_cols);

#endif
