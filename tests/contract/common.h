/* common.h: what every contract test uses: start a fresh rentop-sim (path in
 * $RENTOP_SIM) on a free loopback port with given flags, make HTTP calls to
 * it, read JSON back, and stop it. */
#ifndef RENTOP_CONTRACT_COMMON_H
#define RENTOP_CONTRACT_COMMON_H

#include <jansson.h>
#include <stddef.h>

struct simproc {
	int pid;
	char url[128];         /* "http://127.0.0.1:PORT" */
	char full_key[128];    /* the full-access key it printed */
	char ro_key[128];      /* the read-only scoped key it printed */
	char totp_secret[128]; /* with --tfa on: the seeded TOTP method's base32 secret */
};

/* Start rentop-sim with these extra arguments (NULL-terminated array);
 * --port 0 is added.  Aborts the test on failure. */
struct simproc *simproc_start(const char *const *args);
void simproc_stop(struct simproc *s);

struct http_result {
	long status;
	char *body;            /* NUL-terminated raw body */
	size_t len;
	json_t *json;          /* parsed body or NULL */
	char content_type[128];
};

/* method, url path (appended to s->url; may include a query), bearer key (NULL:
 * none), JSON body text (NULL: none). */
struct http_result http_call(const struct simproc *s, const char *method, const char *path,
			     const char *bearer, const char *body);
void http_result_free(struct http_result *r);

/* Control API conveniences: POST /__sim/<what> with body. */
struct http_result sim_ctl(const struct simproc *s, const char *what, const char *body);

#endif
