/* ui.h: the full-screen dashboard's entry point.  Called by main() on the
 * main thread, which becomes the UI thread: the only thread that touches
 * curses.  Includes no curses header, so src/main.c may include it. */
#ifndef RENTOP_UI_H
#define RENTOP_UI_H

struct config;
struct model;
struct jobs;
struct poller;

/* Runs until the user quits or SIGHUP/SIGTERM; restores the terminal on every
 * path.  Returns the process exit status (0 on a normal quit). */
int ui_run(const struct config *cfg, struct model *m, struct jobs *j, struct poller *p);

/* UI thread, while ui_run() is active: leave curses (def_prog_mode, endwin),
 * fork/exec argv (no shell) with the terminal, wait for it, then restore the
 * screen (reset_prog_mode, refresh).  Returns the exit status, 127 when argv
 * could not be run, -1 when it could not be started. */
int ui_run_external(char *const argv[]);

#endif
