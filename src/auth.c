/* auth.c: owns the API key and the 2FA session key: discovery in the
 * official CLI's order, the permission warning, storing and dropping the
 * session file where the CLI keeps it (so a login in one works for both),
 * and the Authorization header.  Keys are wiped from memory when replaced
 * or freed and never formatted into any message. */
#include "auth.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util.h"

struct auth {
	pthread_mutex_t mu;
	char *primary;        /* the normal key, NULL when none */
	char *primary_src;    /* where it came from */
	char *session;        /* a 2FA session key, NULL when none */
	char *session_path;   /* <vastai dir>/vast_tfa_key */
	char *vast_dir;
};

/* Zero a secret string before freeing it. */
static void wipe_free(char *s)
{
	if (!s)
		return;
	explicit_bzero(s, strlen(s));
	free(s);
}

bool auth_check_perms(const char *path, FILE *warn)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (st.st_mode & (S_IRGRP | S_IROTH)) {
		if (warn)
			fprintf(warn,
				"rentop: warning: key file %s is readable by group or others; "
				"run: chmod 600 %s\n",
				path, path);
		return true;
	}
	return false;
}

/* Read a key file: the first line, blanks trimmed.  NULL when missing or
 * empty; warns about permissions and read errors other than "missing". */
static char *read_key_file(const char *path, FILE *warn)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT && warn)
			fprintf(warn, "rentop: warning: cannot read key file %s: %s\n", path,
				strerror(errno));
		return NULL;
	}
	char buf[4096];
	size_t len = 0;
	ssize_t r;
	while (len < sizeof buf - 1 && (r = read(fd, buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)r;
	close(fd);
	buf[len] = '\0';
	char *s = buf;
	while (*s && isspace((unsigned char)*s))
		s++;
	size_t n = strcspn(s, "\r\n");
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	char *key = n ? xstrndup(s, n) : NULL;
	explicit_bzero(buf, sizeof buf);
	if (key)
		auth_check_perms(path, warn);
	return key;
}

/* Discovery in the official CLI's order; the session file only when neither
 * --api-key-file nor VAST_API_KEY gave a key (as the CLI does). */
struct auth *auth_new(const struct config *cfg, FILE *warn)
{
	struct auth *a = xcalloc(1, sizeof *a);
	pthread_mutex_init(&a->mu, NULL);
	a->vast_dir = xstrdup(cfg->vast_config_dir ? cfg->vast_config_dir : ".");
	a->session_path = xasprintf("%s/vast_tfa_key", a->vast_dir);
	/* 1: --api-key-file (the CLI's --api-key) */
	if (cfg->api_key_file) {
		a->primary = read_key_file(cfg->api_key_file, warn);
		if (a->primary)
			a->primary_src = xstrdup(cfg->api_key_file);
		else if (warn)
			fprintf(warn, "rentop: warning: no key in %s\n", cfg->api_key_file);
	}
	/* 2: the environment */
	const char *env = getenv("VAST_API_KEY");
	if (!a->primary && env && *env) {
		a->primary = xstrdup(env);
		a->primary_src = xstrdup("VAST_API_KEY");
	}
	if (!a->primary) {
		/* 3: a 2FA session key beats the normal key file */
		a->session = read_key_file(a->session_path, warn);
		/* 4, 5: the normal key file, then the legacy one (the fallback) */
		char *p = xasprintf("%s/vast_api_key", a->vast_dir);
		a->primary = read_key_file(p, warn);
		if (a->primary) {
			a->primary_src = p;
		} else {
			free(p);
			const char *home = getenv("HOME");
			if (home && *home) {
				p = xasprintf("%s/.vast_api_key", home);
				a->primary = read_key_file(p, warn);
				if (a->primary)
					a->primary_src = p;
				else
					free(p);
			}
		}
	}
	return a;
}

void auth_free(struct auth *a)
{
	if (!a)
		return;
	wipe_free(a->primary);
	wipe_free(a->session);
	free(a->primary_src);
	free(a->session_path);
	free(a->vast_dir);
	pthread_mutex_destroy(&a->mu);
	free(a);
}

bool auth_has_key(struct auth *a)
{
	pthread_mutex_lock(&a->mu);
	bool r = a->session || a->primary;
	pthread_mutex_unlock(&a->mu);
	return r;
}

bool auth_using_session(struct auth *a)
{
	pthread_mutex_lock(&a->mu);
	bool r = a->session != NULL;
	pthread_mutex_unlock(&a->mu);
	return r;
}

const char *auth_source(struct auth *a, char *buf, size_t n)
{
	pthread_mutex_lock(&a->mu);
	if (a->session)
		snprintf(buf, n, "2FA session key %s", a->session_path);
	else if (a->primary)
		snprintf(buf, n, "%s", a->primary_src);
	else
		snprintf(buf, n, "no key");
	pthread_mutex_unlock(&a->mu);
	return buf;
}

char *auth_header(struct auth *a)
{
	pthread_mutex_lock(&a->mu);
	const char *k = a->session ? a->session : a->primary;
	char *h = k ? xasprintf("Authorization: Bearer %s", k) : NULL;
	pthread_mutex_unlock(&a->mu);
	return h;
}

void auth_header_free(char *h)
{
	wipe_free(h);
}

/* mkdir -p for the vastai directory (mode 0700 for what we create). */
static int make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, 0700) != 0 && errno != EEXIST) {
				rc = -1;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return rc;
}

/* Write to a private temporary file, fsync, rename over vast_tfa_key. */
int auth_store_session(struct auth *a, const char *session_key, char *err, size_t n)
{
	if (!session_key || !*session_key) {
		snprintf(err, n, "the service sent no session key");
		return -1;
	}
	pthread_mutex_lock(&a->mu);
	int rc = -1;
	char *tmp = xasprintf("%s.tmp.%ld", a->session_path, (long)getpid());
	if (make_dirs(a->vast_dir) != 0) {
		snprintf(err, n, "cannot create %s: %s", a->vast_dir, strerror(errno));
		goto out;
	}
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, n, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	size_t len = strlen(session_key);
	bool ok = write(fd, session_key, len) == (ssize_t)len && fchmod(fd, 0600) == 0 &&
		  fsync(fd) == 0;
	int saved = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (!ok || rename(tmp, a->session_path) != 0) {
		if (ok)
			saved = errno;
		snprintf(err, n, "cannot write %s: %s", a->session_path, strerror(saved));
		unlink(tmp);
		goto out;
	}
	wipe_free(a->session);
	a->session = xstrdup(session_key);
	rc = 0;
out:
	free(tmp);
	pthread_mutex_unlock(&a->mu);
	return rc;
}

bool auth_session_expired(struct auth *a)
{
	pthread_mutex_lock(&a->mu);
	bool had = a->session != NULL;
	if (had) {
		wipe_free(a->session);
		a->session = NULL;
		unlink(a->session_path);
	}
	bool retry = had && a->primary != NULL;
	pthread_mutex_unlock(&a->mu);
	return retry;
}

/* Star out every occurrence of key in buf. */
static bool redact_one(char *buf, const char *key)
{
	size_t n = key ? strlen(key) : 0;
	bool hit = false;
	if (n < 4) /* too short to be a key; would mangle ordinary text */
		return false;
	for (char *p = strstr(buf, key); p; p = strstr(p + n, key)) {
		memset(p, '*', n);
		hit = true;
	}
	return hit;
}

bool auth_redact(struct auth *a, char *buf)
{
	if (!a || !buf)
		return false;
	pthread_mutex_lock(&a->mu);
	bool hit = redact_one(buf, a->primary);
	hit |= redact_one(buf, a->session);
	pthread_mutex_unlock(&a->mu);
	return hit;
}
