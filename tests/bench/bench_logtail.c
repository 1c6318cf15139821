/* bench_logtail.c: the core's cost of a busy log pane: a log growing by
 * 100 lines/s polled every 3 s (answers of the last 1,000 lines, so 300 new
 * lines merged into 700 held each time) into a ring of 10,000 lines, for
 * 60 simulated seconds past a full ring; then the memory the 10,000 lines
 * hold, and a search and a filter over them.  Prints "name: value unit". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state/logtail.h"
#include "base/util.h"

#define TAIL 1000
#define PER_POLL 300 /* 100 lines/s x 3 s */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The answer ending at line `last` (the last TAIL lines). */
static char *answer(long last, size_t *len)
{
	size_t cap = (size_t)TAIL * 120, n = 0;
	char *s = xmalloc(cap);
	for (long i = last - TAIL + 1; i <= last; i++) {
		if (i < 1)
			continue;
		n += (size_t)snprintf(s + n, cap - n,
				      "[2026-11-23T09:%02ld:%02ldZ] worker %ld: request done in %ld ms (tokens=%ld)\n",
				      i / 60 % 60, i % 60, i % 7, 40 + i % 900, 10 + i % 400);
	}
	*len = n;
	return s;
}

int main(void)
{
	struct logtail *t = logtail_new(LOGTAIL_DEFAULT_LINES);
	long last = 0;
	/* fill the ring first */
	while (logtail_count(t) < LOGTAIL_DEFAULT_LINES) {
		last += PER_POLL;
		size_t len;
		char *a = answer(last, &len);
		logtail_merge(t, a, len, NULL);
		free(a);
	}
	double total = 0, worst = 0;
	int polls = 60 / 3;
	size_t bytes_in = 0;
	for (int p = 0; p < polls; p++) {
		last += PER_POLL;
		size_t len;
		char *a = answer(last, &len);
		bytes_in += len;
		double t0 = now_ms();
		struct logtail_merge r;
		logtail_merge(t, a, len, &r);
		double dt = now_ms() - t0;
		free(a);
		if (r.added != PER_POLL) {
			fprintf(stderr, "bench_logtail: merged %zu lines, want %d\n", r.added, PER_POLL);
			return 1;
		}
		total += dt;
		worst = dt > worst ? dt : worst;
	}
	size_t mem = 0;
	for (size_t i = 0; i < logtail_count(t); i++)
		mem += strlen(logtail_line(t, i)) + 1 + 16 /* hash + pointer */;
	double t0 = now_ms();
	size_t n;
	size_t *v = logtail_filter(t, "tokens=99", false, &n);
	double filt = now_ms() - t0;
	free(v);
	size_t found;
	t0 = now_ms();
	logtail_search(t, "no such text", true, 0, 1, &found, NULL);
	double srch = now_ms() - t0;
	printf("logtail_merge_1000_line_answer: %.3f ms (mean of %d polls, worst %.3f ms)\n", total / polls,
	       polls, worst);
	printf("logtail_cpu_per_minute_at_100_lines_s: %.1f ms\n", total);
	printf("logtail_answer_bytes_per_minute: %zu bytes\n", bytes_in);
	printf("logtail_memory_10000_lines: %.2f MB (text, hashes, pointers)\n", (double)mem / 1e6);
	printf("logtail_filter_10000_lines: %.3f ms (%zu matches)\n", filt, n);
	printf("logtail_search_miss_10000_lines_icase: %.3f ms\n", srch);
	logtail_free(t);
	return 0;
}
