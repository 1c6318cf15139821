/* auth.c: owns the API key and the 2FA session key: discovery in the
 * official CLI's order, the permission warning, storing and dropping the
 * session file where the CLI keeps it (so a login in one works for both),
 * and the Authorization header.  Keys are wiped from memory when replaced
 * or freed and never formatted into any message. */
#include "net/auth.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "base/util.h"

#define AUTH_MAX_WARN 8
#define KEY_FILE_MAX 4095 /* bytes; a bigger file is not a key file */

struct auth {
	pthread_mutex_t mu;   /* guards primary and session; never held across I/O */
	char *primary;        /* the normal key, NULL when none */
	char *primary_src;    /* where it came from */
	char *session;        /* a 2FA session key, NULL when none */
	unsigned session_gen; /* bumped whenever session is set (never 0 then) */
	char *session_path;   /* <vastai dir>/vast_tfa_key (set once, then read only) */
	char *vast_dir;
	char fatal[400];      /* why the named key source gave no key; "" when none */
	char warns[AUTH_MAX_WARN][400]; /* set by auth_new only */
	size_t nwarn;
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

/* Record a warning (kept for the dashboard) and print it to warn. */
static void add_warning(struct auth *a, FILE *warn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_warning(struct auth *a, FILE *warn, const char *fmt, ...)
{
	char line[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (warn)
		fprintf(warn, "rentop: warning: %s\n", line);
	if (a->nwarn < AUTH_MAX_WARN)
		util_strlcpy(a->warns[a->nwarn++], line, sizeof a->warns[0]);
}

/* Record why the named key source gave no key (the first reason wins). */
static void set_fatal(struct auth *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_fatal(struct auth *a, const char *fmt, ...)
{
	if (a->fatal[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->fatal, sizeof a->fatal, fmt, ap);
	va_end(ap);
}

/* A key trimmed of surrounding blanks; NULL with the reason in why when it
 * is empty or holds a control character (a key is one header value: a line
 * break in it would add a header line to every request). */
static char *clean_key(const char *s, size_t len, const char **why)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!len) {
		*why = "is empty";
		return NULL;
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f) {
			*why = "holds control characters (a line break or an escape?), so it "
			       "cannot be a key";
			return NULL;
		}
	return xstrndup(s, len);
}

/* Read a key file: the first line, blanks trimmed.  A missing file is
 * silent unless the user named it; any other failure (unreadable, not a
 * regular file, over 4,095 bytes, empty when named, control characters) is
 * fatal for a named file and for an oversized or corrupt one, a warning
 * for an unreadable file found by discovery.  Warns about permissions. */
static char *read_key_file(struct auth *a, const char *path, bool named, FILE *warn)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (named)
			set_fatal(a, "--api-key-file %s: %s", path, strerror(errno));
		else if (errno != ENOENT)
			add_warning(a, warn, "cannot read key file %s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		if (named)
			set_fatal(a, "--api-key-file %s: not a regular file", path);
		else
			add_warning(a, warn, "key file %s is not a regular file; ignored", path);
		return NULL;
	}
	char buf[KEY_FILE_MAX + 2];
	size_t len = 0;
	ssize_t r;
	while (len < sizeof buf - 1 && (r = read(fd, buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)r;
	close(fd);
	if (len > KEY_FILE_MAX) {
		explicit_bzero(buf, sizeof buf);
		set_fatal(a, "key file %s is larger than %d bytes: not a key file", path,
			  KEY_FILE_MAX);
		return NULL;
	}
	const char *why = NULL;
	/* the first line that is not blank */
	size_t start = 0;
	while (start < len && isspace((unsigned char)buf[start]))
		start++;
	size_t end = start;
	while (end < len && buf[end] != '\n' && buf[end] != '\r')
		end++;
	char *key = clean_key(buf + start, end - start, &why);
	explicit_bzero(buf, sizeof buf);
	if (!key) {
		bool empty = why && !strcmp(why, "is empty");
		if (named)
			set_fatal(a, "--api-key-file %s: the file %s", path,
				  empty ? "is empty (no key in it)" : why);
		else if (!empty)
			set_fatal(a, "key file %s: the key %s", path, why);
		return NULL;
	}
	if (auth_check_perms(path, NULL))
		add_warning(a, warn, "key file %s is readable by group or others; run: chmod 600 %s",
			    path, path);
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
	/* 1: --api-key-file (the CLI's --api-key): named, so the only source */
	if (cfg->api_key_file) {
		a->primary = read_key_file(a, cfg->api_key_file, true, warn);
		if (a->primary)
			a->primary_src = xstrdup(cfg->api_key_file);
		return a;
	}
	/* 2: the environment: set, it is the only source too */
	const char *env = getenv("VAST_API_KEY");
	if (env && *env) {
		const char *why = NULL;
		a->primary = clean_key(env, strlen(env), &why);
		if (a->primary)
			a->primary_src = xstrdup("VAST_API_KEY");
		else
			set_fatal(a, "VAST_API_KEY %s", !strcmp(why, "is empty") ? "holds only blanks" : why);
		return a;
	}
	/* 3: a 2FA session key beats the normal key file */
	a->session = read_key_file(a, a->session_path, false, warn);
	a->session_gen = 1;
	/* 4, 5: the normal key file, then the legacy one (the fallback) */
	char *p = xasprintf("%s/vast_api_key", a->vast_dir);
	a->primary = read_key_file(a, p, false, warn);
	if (a->primary) {
		a->primary_src = p;
	} else {
		free(p);
		const char *home = getenv("HOME");
		if (!a->fatal[0] && home && *home) {
			p = xasprintf("%s/.vast_api_key", home);
			a->primary = read_key_file(a, p, false, warn);
			if (a->primary)
				a->primary_src = p;
			else
				free(p);
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

const char *auth_fatal(const struct auth *a)
{
	return a->fatal[0] ? a->fatal : NULL;
}

size_t auth_warning_count(const struct auth *a)
{
	return a->nwarn;
}

const char *auth_warning(const struct auth *a, size_t i)
{
	return i < a->nwarn ? a->warns[i] : "";
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
	return auth_request(a, NULL, NULL, NULL, NULL);
}

/* body with "member":"" turned into "member":"<key>" (JSON-escaped; a key
 * holds no control character), or NULL when body lacks that member. */
static char *splice_key(const char *body, const char *member, const char *key)
{
	char *pat = xasprintf("\"%s\":\"\"", member);
	const char *at = strstr(body, pat);
	size_t plen = strlen(pat);
	free(pat);
	if (!at)
		return NULL;
	size_t klen = strlen(key), pre = (size_t)(at - body) + plen - 1; /* up to the opening quote */
	size_t cap = strlen(body) + 2 * klen + 1, n = 0;
	char *out = xmalloc(cap);
	memcpy(out, body, pre);
	n = pre;
	for (const char *k = key; *k; k++) {
		if (*k == '"' || *k == '\\')
			out[n++] = '\\';
		out[n++] = *k;
	}
	strcpy(out + n, at + plen - 1); /* the closing quote and the rest */
	return out;
}

char *auth_request(struct auth *a, const char *body, const char *member, char **body_out,
		   unsigned *session_gen)
{
	if (body_out)
		*body_out = NULL;
	pthread_mutex_lock(&a->mu);
	const char *k = a->session ? a->session : a->primary;
	char *h = k ? xasprintf("Authorization: Bearer %s", k) : NULL;
	if (k && body && member && body_out)
		*body_out = splice_key(body, member, k);
	if (session_gen)
		*session_gen = a->session ? a->session_gen : 0;
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

/* Write to a private temporary file, fsync, rename over vast_tfa_key; then
 * swap the key in under the mutex (the file I/O runs with no lock held:
 * session_path and vast_dir never change after auth_new). */
int auth_store_session(struct auth *a, const char *session_key, char *err, size_t n)
{
	if (!session_key || !*session_key) {
		snprintf(err, n, "the service sent no session key");
		return -1;
	}
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
	char *fresh = xstrdup(session_key);
	pthread_mutex_lock(&a->mu);
	char *old = a->session;
	a->session = fresh;
	if (++a->session_gen == 0)
		a->session_gen = 1;
	pthread_mutex_unlock(&a->mu);
	wipe_free(old);
	rc = 0;
out:
	free(tmp);
	return rc;
}

bool auth_login(struct auth *a, const char *session_key, char *msg, size_t n)
{
	char err[300];
	if (!session_key || !*session_key) {
		snprintf(msg, n, "2FA login: the service sent no session key");
		return false;
	}
	if (auth_store_session(a, session_key, err, sizeof err) != 0) {
		snprintf(msg, n, "2FA login succeeded but the session key could not be stored: %s",
			 err);
		return false;
	}
	snprintf(msg, n, "2FA login succeeded: session key stored in %s/vast_tfa_key (mode 0600)",
		 a->vast_dir);
	return true;
}

bool auth_session_expired(struct auth *a)
{
	pthread_mutex_lock(&a->mu);
	char *old = a->session;
	a->session = NULL;
	bool retry = old && a->primary != NULL;
	pthread_mutex_unlock(&a->mu);
	if (old) {
		wipe_free(old);
		unlink(a->session_path); /* after the unlock: no I/O under the mutex */
	}
	return retry;
}

bool auth_session_refused(struct auth *a, unsigned session_gen, bool *dropped)
{
	if (dropped)
		*dropped = false;
	if (!session_gen)
		return false; /* the normal key was sent: nothing to fall back to */
	pthread_mutex_lock(&a->mu);
	char *old = NULL;
	if (a->session && a->session_gen == session_gen) {
		old = a->session;
		a->session = NULL;
	}
	/* dropped already (by another request's refusal), or replaced by a
	 * fresh login since: the key to resend with is the one in use now */
	bool retry = a->primary != NULL || a->session != NULL;
	pthread_mutex_unlock(&a->mu);
	if (old) {
		wipe_free(old);
		unlink(a->session_path); /* after the unlock: no I/O under the mutex */
		if (dropped)
			*dropped = true;
	}
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

/* Star out every occurrence of key in buf[0..len) (NULs allowed). */
static bool redact_mem(char *buf, size_t len, const char *key)
{
	size_t n = key ? strlen(key) : 0;
	bool hit = false;
	if (n < 4)
		return false;
	char *p = buf, *end = buf + len;
	while ((p = memmem(p, (size_t)(end - p), key, n)) != NULL) {
		memset(p, '*', n);
		p += n;
		hit = true;
	}
	return hit;
}

bool auth_redact_mem(struct auth *a, char *buf, size_t len)
{
	if (!a || !buf)
		return false;
	pthread_mutex_lock(&a->mu);
	bool hit = redact_mem(buf, len, a->primary);
	hit |= redact_mem(buf, len, a->session);
	pthread_mutex_unlock(&a->mu);
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
