/* external.h: a program run with the terminal while the dashboard is on
 * screen (ssh, $EDITOR): curses left and restored around it.  UI thread
 * only. */
#ifndef RENTOP_UI_EXTERNAL_H
#define RENTOP_UI_EXTERNAL_H

#include <stddef.h>
#include <sys/types.h>

/* UI thread, while curses is on (ui_run): leave curses (def_prog_mode, endwin),
 * posix_spawnp argv (no shell, no fork; signals at their defaults, only
 * descriptors 0-2 open) with the terminal, wait for it, then restore the
 * screen (reset_prog_mode, refresh).  Returns the exit status, 127 when argv
 * could not be run. */
int external_run(char *const argv[]);
/* As external_run, but the child's stderr is a pipe whose bytes the UI
 * thread copies on to the terminal while the child runs, keeping the last
 * non-empty line (sanitised, at most n - 1 bytes; "" when none) in errline;
 * banner (NULL: none; sanitised by the caller, no secret) is written on the
 * terminal as a line of its own once curses is left, before the child runs
 * ("connecting to ..." while ssh starts). */
int external_run_err(char *const argv[], const char *banner, char *errline, size_t n);
/* UI thread (any time): start argv in the background, not waited for (the
 * caller reaps *pid): the spawn rules of external_run, with infd as its
 * standard input, its output and errors to /dev/null (never the screen),
 * in a process group of its own (kill(-*pid, sig) reaches what it
 * started), and without VAST_API_KEY in its environment.  0, or an errno
 * value (ENOENT: no such program). */
int external_spawn_bg(pid_t *pid, char *const argv[], int infd);

#endif
