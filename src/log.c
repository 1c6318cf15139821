/* log.c: the debug log.  Owns the log FILE and its mutex.  A line is written
 * with one fprintf under the mutex, then flushed, so a crash loses nothing
 * and lines from the poller and UI threads never interleave. */
#include "log.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static FILE *log_file;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;

int log_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "a");
	if (!f) {
		close(fd);
		return -1;
	}
	pthread_mutex_lock(&log_mu);
	if (log_file)
		fclose(log_file);
	log_file = f;
	pthread_mutex_unlock(&log_mu);
	return 0;
}

void log_close(void)
{
	pthread_mutex_lock(&log_mu);
	if (log_file)
		fclose(log_file);
	log_file = NULL;
	pthread_mutex_unlock(&log_mu);
}

bool log_enabled(void)
{
	pthread_mutex_lock(&log_mu);
	bool on = log_file != NULL;
	pthread_mutex_unlock(&log_mu);
	return on;
}

void log_msg(const char *fmt, ...)
{
	pthread_mutex_lock(&log_mu);
	if (!log_file) {
		pthread_mutex_unlock(&log_mu);
		return;
	}
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
	fprintf(log_file, "%s.%03ldZ %s\n", stamp, ts.tv_nsec / 1000000, clean);
	fflush(log_file);
	pthread_mutex_unlock(&log_mu);
	free(clean);
	free(line);
}
