/* xmalloc.h: allocation that cannot fail silently: on failure these print a
 * short message and abort().  Any thread. */
#ifndef RENTOP_XMALLOC_H
#define RENTOP_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);              /* NULL -> "" */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
