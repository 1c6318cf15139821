/* intern.c: the intern pool (intern.h). */
#include "state/intern.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define INTERN_SLOTS 8192         /* open addressing, power of two */
#define INTERN_MAX 4096           /* entries, at most half full */
#define INTERN_POOL (256 * 1024)  /* bytes of string text */

static struct {
	pthread_mutex_t mu;
	const char *s[INTERN_SLOTS];
	size_t len[INTERN_SLOTS];
	bool flag[INTERN_SLOTS];
	bool classified[INTERN_SLOTS]; /* flag holds classify's answer (a value interned
					  first, unclassified, is classified when first
					  interned as a key) */
	size_t count, used;
	char pool[INTERN_POOL];
} intern = { .mu = PTHREAD_MUTEX_INITIALIZER };

const char *intern_str(const char *s, size_t len, bool (*classify)(const char *), bool *flag)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	const char *r = NULL;
	pthread_mutex_lock(&intern.mu);
	size_t at = (size_t)h & (INTERN_SLOTS - 1);
	while (intern.s[at] && !(intern.len[at] == len && !memcmp(intern.s[at], s, len)))
		at = (at + 1) & (INTERN_SLOTS - 1);
	if (intern.s[at]) {
		r = intern.s[at];
		if (classify && !intern.classified[at]) {
			intern.flag[at] = classify(r);
			intern.classified[at] = true;
		}
	} else if (intern.count < INTERN_MAX && intern.used + len + 1 <= INTERN_POOL &&
		   !memchr(s, '\0', len)) {
		char *c = intern.pool + intern.used;
		memcpy(c, s, len);
		c[len] = '\0';
		intern.used += len + 1;
		intern.count++;
		intern.len[at] = len;
		intern.flag[at] = classify ? classify(c) : false;
		intern.classified[at] = classify != NULL;
		intern.s[at] = c;
		r = c;
	}
	if (r && flag)
		*flag = intern.flag[at];
	pthread_mutex_unlock(&intern.mu);
	return r;
}

bool intern_has(const char *p)
{
	return p >= intern.pool && p < intern.pool + INTERN_POOL;
}
