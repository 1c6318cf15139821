/* fuzz_logtail.c: libFuzzer target: the log buffer fed with hostile
 * answers.  The input is split at NUL bytes into successive answers merged
 * into a small ring; after each: the count never exceeds the capacity, the
 * merge's numbers add up, every held line is free of ESC, C0/C1 controls,
 * DEL and bidi overrides, and search/filter/time-prefix stay in bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/logtail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_line(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			abort();
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			abort(); /* C1 */
		if (p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae)
			abort(); /* LRE..RLO */
		if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
			abort(); /* LRI..PDI */
	}
	if (logtail_time_prefix(s) > strlen(s))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct logtail *t = logtail_new(64);
	size_t start = 0;
	for (size_t i = 0; i <= size; i++) {
		if (i < size && data[i] != 0)
			continue;
		size_t before = logtail_count(t);
		struct logtail_merge r;
		size_t added = logtail_merge(t, (const char *)data + start, i - start, &r);
		if (added != r.added || r.added + r.overlap > r.answer_lines ||
		    (r.gap && r.stale) || logtail_count(t) > logtail_capacity(t) ||
		    logtail_count(t) != (before + added > 64 ? 64 : before + added))
			abort();
		start = i + 1;
	}
	for (size_t i = 0; i < logtail_count(t); i++)
		check_line(logtail_line(t, i));
	size_t n, f;
	size_t *v = logtail_filter(t, "a", 1, &n);
	for (size_t i = 0; i < n; i++)
		if (v[i] >= logtail_count(t))
			abort();
	free(v);
	if (logtail_search(t, "x", 0, 0, 1, &f, NULL) && f >= logtail_count(t))
		abort();
	logtail_free(t);
	return 0;
}
