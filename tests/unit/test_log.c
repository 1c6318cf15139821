/* test_log.c: the debug log written from several threads at once: every
 * line arrives whole (one O_APPEND write each, no lock held across I/O),
 * none is lost, and server text is sanitised to one line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"

#define THREADS 4
#define LINES 2000

static void *writer(void *arg)
{
	long t = (long)arg;
	for (int i = 0; i < LINES; i++)
		log_msg("thread %ld line %d %s end", t, i,
			"padding-padding-padding-padding-padding-padding-padding-padding");
	return NULL;
}

static void concurrent_lines(void **state)
{
	(void)state;
	char path[] = "/tmp/rentop-test-log-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_false(log_enabled());
	assert_int_equal(log_open(path), 0);
	assert_true(log_enabled());
	pthread_t th[THREADS];
	for (long t = 0; t < THREADS; t++)
		assert_int_equal(pthread_create(&th[t], NULL, writer, (void *)t), 0);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	log_msg("server says \x1b[31mred\nsecond line");
	log_close();
	assert_false(log_enabled());
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512];
	int n = 0, whole = 0, last = 0;
	while (fgets(line, sizeof line, f)) {
		n++;
		long t;
		int i;
		char end[8];
		if (sscanf(line, "%*s thread %ld line %d %*s %7s", &t, &i, end) == 3 && !strcmp(end, "end"))
			whole++;
		else if (strstr(line, "server says"))
			last = !strchr(line, '\x1b') && strstr(line, "red second line") != NULL;
	}
	fclose(f);
	unlink(path);
	assert_int_equal(whole, THREADS * LINES);
	assert_int_equal(n, THREADS * LINES + 1);
	assert_true(last);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(concurrent_lines) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
