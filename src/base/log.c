/* log.c: the debug log.  Owns the log's file descriptor.  A line is
 * formatted with no lock held and written with one write(2) to a file opened
 * O_APPEND, which the kernel appends whole: lines from the poller and UI
 * threads never interleave, nothing is buffered (a crash loses nothing), and
 * no lock is held across the I/O.  The descriptor is set by log_open and
 * cleared by log_close on the main thread while no other thread runs. */
#include "base/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

static _Atomic int log_fd = -1;

int log_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int old = atomic_exchange(&log_fd, fd);
	if (old >= 0)
		close(old);
	return 0;
}

void log_close(void)
{
	int old = atomic_exchange(&log_fd, -1);
	if (old >= 0)
		close(old);
}

bool log_enabled(void)
{
	return atomic_load(&log_fd) >= 0;
}

void log_msg(const char *fmt, ...)
{
	int fd = atomic_load(&log_fd);
	if (fd < 0)
		return;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct tm tm;
	gmtime_r(&ts.tv_sec, &tm);
	char stamp[32];
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
	va_list ap;
	va_start(ap, fmt);
	char *line = xvasprintf(fmt, ap);
	va_end(ap);
	/* the text may hold server strings: keep the log one line per entry */
	char *clean = util_sanitize(line);
	char *out = xasprintf("%s.%03ldZ %s\n", stamp, ts.tv_nsec / 1000000, clean);
	size_t len = strlen(out), done = 0;
	while (done < len) {
		ssize_t w = write(fd, out + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break; /* a full disk must not stop rentop */
		done += (size_t)w;
	}
	free(out);
	free(clean);
	free(line);
}
