/* dump.h: `rentop --dump WHAT [--json] [--query Q]`: one fetch without
 * curses, a plain aligned table (or the raw records as a JSON array, secrets
 * removed) on stdout, errors on stderr.  Main thread. */
#ifndef RENTOP_DUMP_H
#define RENTOP_DUMP_H

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

#endif
