/* ui.h: the full-screen dashboard's entry point.  Called by main() on the
 * main thread, which becomes the UI thread: the only thread that touches
 * curses.  Includes no curses header, so ui/main.c may include it without curses. */
#ifndef RENTOP_UI_H
#define RENTOP_UI_H

#include <stddef.h>

struct config;
struct model;
struct jobs;
struct poller;
struct auth;

/* Runs until the user quits, a signal (SIGTERM, SIGHUP, SIGINT) or a hangup
 * of the terminal (end of file, EIO, POLLHUP); restores the terminal on every
 * path.  Returns the process exit status: 0 on a normal quit, 128 + the
 * signal number after a signal, 129 (as SIGHUP) after a hangup, 2 when the
 * terminal cannot be used (unknown, TERM=dumb, no cursor addressing). */
int ui_run(const struct config *cfg, struct model *m, struct jobs *j, struct poller *p,
	   struct auth *auth);

/* UI thread, while ui_run() is active: leave curses (def_prog_mode, endwin),
 * posix_spawnp argv (no shell, no fork; signals at their defaults, only
 * descriptors 0-2 open) with the terminal, wait for it, then restore the
 * screen (reset_prog_mode, refresh).  Returns the exit status, 127 when argv
 * could not be run. */
int ui_run_external(char *const argv[]);
/* As ui_run_external, but the child's stderr is a pipe whose bytes the UI
 * thread copies on to the terminal while the child runs, keeping the last
 * non-empty line (sanitised, at most n - 1 bytes; "" when none) in errline;
 * banner (NULL: none; sanitised by the caller, no secret) is written on the
 * terminal as a line of its own once curses is left, before the child runs
 * ("connecting to ..." while ssh starts). */
int ui_run_external_err(char *const argv[], const char *banner, char *errline, size_t n);

#endif
