/* log.h: an optional debug log file (--log FILE).  Off unless opened.  Never
 * given a secret: callers log methods, paths, statuses and timings only.
 * log_msg: any thread, no lock (each line is one O_APPEND write(2), so lines
 * never interleave, and no lock is ever held across the write).  log_open
 * and log_close: the main thread, while no other thread logs. */
#ifndef RENTOP_LOG_H
#define RENTOP_LOG_H

#include <stdbool.h>

/* Main thread, before other threads start: open (append, mode 0600).
 * Returns 0, or -1 with errno set. */
int log_open(const char *path);
void log_close(void);
bool log_enabled(void);
/* One line, prefixed with a UTC timestamp. */
void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
