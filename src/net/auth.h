/* auth.h: the API key.  Found like the official CLI does (first hit wins):
 * --api-key-file, env VAST_API_KEY, <vastai dir>/vast_tfa_key (a 2FA session
 * key), <vastai dir>/vast_api_key, legacy ~/.vast_api_key.  A source the
 * user named (--api-key-file or api_key_file in the config, VAST_API_KEY
 * when set) is the only one: if it gives no usable key, auth_fatal() says
 * why and nothing else is tried.  Keys are trimmed of blanks; a key with a
 * control character, or a key file over 4,095 bytes, is refused.  The key
 * lives in this module's memory only; it leaves it solely as an
 * Authorization header line (auth_header) and never reaches a message.
 *
 * Threads: auth_new, auth_fatal and the warnings belong to the main thread
 * before other threads start.  The rest is thread-safe: a mutex guards the
 * keys (the poller may store or drop a session key while the main thread
 * reads), and no file I/O happens while it is held (the session file is
 * written, fsynced and renamed first, then the key is swapped in). */
#ifndef RENTOP_AUTH_H
#define RENTOP_AUTH_H

#include <stdbool.h>
#include <stdio.h>

struct config;
struct auth;

/* Main thread, before curses: discover the key.  Warnings (a key file
 * readable by group or others, an unreadable file) go to `warn` (may be
 * NULL) and are kept for the dashboard (auth_warning).  Never NULL;
 * auth_fatal() says whether a named source failed, auth_has_key() whether a
 * key was found. */
struct auth *auth_new(const struct config *cfg, FILE *warn);
void auth_free(struct auth *a); /* wipes the keys */

/* Why no key may be used ("--api-key-file F: No such file or directory",
 * "VAST_API_KEY holds control characters ..."), never the key; NULL when
 * discovery went well.  The caller exits with status 3. */
const char *auth_fatal(const struct auth *a);
/* The warnings auth_new gave (without the "rentop: warning: " prefix). */
size_t auth_warning_count(const struct auth *a);
const char *auth_warning(const struct auth *a, size_t i);

bool auth_has_key(struct auth *a);
/* Where the key in use came from ("VAST_API_KEY", a file path, ...), for
 * messages; never the key.  Copied into buf. */
const char *auth_source(struct auth *a, char *buf, size_t n);
/* Is the key in use a 2FA session key? */
bool auth_using_session(struct auth *a);

/* A malloc'd "Authorization: Bearer <key>" line, or NULL when there is no
 * key.  The caller hands it to curl and frees it with auth_header_free()
 * (which wipes it). */
char *auth_header(struct auth *a);
void auth_header_free(char *h);
/* auth_header() and, with one key read under one lock, the body of a call
 * that carries the key in it as the official CLI sends it (the run
 * server's log form: {"id":N,"api_key":"<key>","tail":N}): when body and
 * member are given and body holds the member as an empty string
 * ("api_key":""), *body_out is a copy of body with the key in that string
 * (JSON-escaped), else NULL.  Free it with auth_header_free (it wipes).
 * *session_gen (may be NULL) gets which 2FA session key was sent (0: the
 * normal key), for auth_session_refused(). */
char *auth_request(struct auth *a, const char *body, const char *member, char **body_out,
		   unsigned *session_gen);

/* Store a session key from a 2FA login: written to <vastai dir>/vast_tfa_key
 * (mode 0600, atomic rename) and used from now on.  Returns 0, or -1 with a
 * message (no key in it) in err. */
int auth_store_session(struct auth *a, const char *session_key, char *err, size_t n);
/* The one end of a 2FA login (the poller's login job and the 2FA view's
 * login): store session_key (NULL or "": the service sent none) as
 * auth_store_session does; msg gets the operator's sentence (where it was
 * stored, or why not; never the key).  True when stored. */
bool auth_login(struct auth *a, const char *session_key, char *msg, size_t n);
/* The service said the session expired: delete the session file, fall back
 * to the normal key.  True when there is a normal key to retry with. */
bool auth_session_expired(struct auth *a);
/* A request sent with session key session_gen (auth_request) was refused
 * as an invalid key (401 "Invalid user key", as the official CLI reads
 * it): that session key is dropped (its file deleted) unless it is gone or
 * was replaced since.  True when there is a key to resend with (the normal
 * key, or a session key newer than the refused one); false when the
 * normal key itself was sent (session_gen 0).  *dropped (may be NULL):
 * whether this call dropped it (the one to say so). */
bool auth_session_refused(struct auth *a, unsigned session_gen, bool *dropped);

/* Defence in depth: overwrite every occurrence of a key this module holds
 * (normal or session) in buf with '*' (a server could echo the bearer back
 * in an error message).  Returns true when something was hidden. */
bool auth_redact(struct auth *a, char *buf);
/* The same over buf[0..len), NULs allowed (an answer's raw bytes). */
bool auth_redact_mem(struct auth *a, char *buf, size_t len);

/* Check a key file's permissions; print a warning to warn when readable by
 * group or others.  True when it warned. */
bool auth_check_perms(const char *path, FILE *warn);

#endif
