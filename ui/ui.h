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

#endif
