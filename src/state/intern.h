/* intern.h: interned strings for the records (field names repeat in every
 * record).  Any thread. */
#ifndef RENTOP_INTERN_H
#define RENTOP_INTERN_H

#include <stdbool.h>
#include <stddef.h>

/* Interned strings (field names repeat in every record): one copy for the
 * process, never freed, in a fixed pool.  Any thread (a mutex guards the
 * table).  Returns the shared copy of s[0..len), or NULL when the pool is
 * full (the caller then keeps its own copy).  On first insertion classify(s)
 * is called once under the lock and its answer is kept: *flag receives it
 * on every call (the secret check once per key name). */
const char *intern_str(const char *s, size_t len, bool (*classify)(const char *), bool *flag);
/* Is p a pointer into the intern pool?  Any thread, no lock. */
bool intern_has(const char *p);

#endif
