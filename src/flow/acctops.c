/* acctops.c: owns the account view's change rules beyond acct.c: the scope
 * of a mask, the merge of an edited permissions object (unknown names
 * kept), the one-time 0600 secret file, the `:reports` machine id, a
 * report's age, and the counts a lost write's re-read is judged by. */
#include "flow/acctops.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json/json_map.h"
#include "base/util.h"

enum acct_scope acctops_scope_of(unsigned mask)
{
	mask &= ACCT_CAT_ALL;
	if (mask == acct_scope_mask(SCOPE_FULL, 0))
		return SCOPE_FULL;
	if (mask == acct_scope_mask(SCOPE_READ_ONLY, 0))
		return SCOPE_READ_ONLY;
	if (mask == acct_scope_mask(SCOPE_INSTANCES, 0))
		return SCOPE_INSTANCES;
	return SCOPE_CUSTOM;
}

json_t *acctops_permissions_merge(const char *orig_json, unsigned mask)
{
	json_t *orig = orig_json && *orig_json ? json_loads(orig_json, JSON_DECODE_ANY, NULL) : NULL;
	if (orig && !json_is_object(orig)) {
		json_decref(orig);
		orig = NULL;
	}
	/* the categories live under "api" (the console's shape) or at the top */
	const json_t *old_api = orig ? json_object_get(orig, "api") : NULL;
	bool nested = !orig || json_object_size(orig) == 0 || json_is_object(old_api);
	const json_t *cats = nested ? (json_is_object(old_api) ? old_api : NULL) : orig;
	json_t *out_cats = json_object();
	size_t granted = 0;
	const char *k;
	json_t *v;
	if (cats) {
		json_object_foreach((json_t *)cats, k, v) {
			int c = acct_category_from_name(k);
			if (c < 0 || (mask & (1u << c))) { /* unknown: kept; chosen: kept as it was */
				json_object_set(out_cats, k, v);
				granted++;
			}
		}
	}
	for (int c = 0; c < CAT__COUNT; c++) {
		const char *name = acct_category_name((enum acct_category)c);
		if ((mask & (1u << c)) && !json_object_get(out_cats, name)) {
			json_object_set_new(out_cats, name, json_object());
			granted++;
		}
	}
	json_t *out;
	if (nested) {
		out = orig ? json_deep_copy(orig) : json_object();
		json_object_set_new(out, "api", out_cats);
	} else {
		out = out_cats;
	}
	json_decref(orig);
	if (!granted) {
		json_decref(out);
		return NULL;
	}
	return out;
}

bool acctops_expand_path(const char *typed, const char *home, char *out, size_t n)
{
	while (*typed == ' ' || *typed == '\t')
		typed++;
	size_t len = strlen(typed);
	while (len && (typed[len - 1] == ' ' || typed[len - 1] == '\t'))
		len--;
	if (!len || !n)
		return false;
	int w;
	if (typed[0] == '~' && (len == 1 || typed[1] == '/') && home && *home)
		w = snprintf(out, n, "%s%.*s", home, (int)(len - 1), typed + 1);
	else
		w = snprintf(out, n, "%.*s", (int)len, typed);
	return w > 0 && (size_t)w < n;
}

bool acctops_write_secret(const char *path, const char *text, char *err, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			snprintf(err, n, "%s exists: choose a new file (rentop never overwrites one)",
				 path);
		else
			snprintf(err, n, "%s: %s", path, strerror(errno));
		return false;
	}
	size_t len = strlen(text), off = 0;
	bool ok = fchmod(fd, 0600) == 0; /* whatever the umask did */
	while (ok && off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		if (ok)
			off += (size_t)w;
	}
	ok = ok && write(fd, "\n", 1) == 1 && fsync(fd) == 0;
	int saved = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		unlink(path);
		snprintf(err, n, "%s: %s (nothing kept)", path, strerror(saved));
	}
	return ok;
}

bool acctops_machine_id(const char *s, long *out)
{
	if (!s)
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (errno || *end || v <= 0)
		return false;
	*out = v;
	return true;
}

/* Epoch seconds of a report's time text, NAN when unreadable. */
static double report_time(const char *s)
{
	if (!s || !*s)
		return NAN;
	char *end;
	double t = strtod(s, &end);
	if (end != s && !*end)
		return t;
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *e = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!e)
		e = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!e)
		return NAN;
	return (double)timegm(&tm);
}

char *acctops_report_when(const char *created_at, double now, char *buf, size_t n)
{
	double t = report_time(created_at);
	if (!isfinite(t) || t <= 0) {
		snprintf(buf, n, "%s", created_at && *created_at ? created_at : "-");
		return buf;
	}
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	char day[32], age[32];
	strftime(day, sizeof day, "%Y-%m-%d %H:%M", &tm);
	if (now >= t)
		snprintf(buf, n, "%s (%s ago)", day, fmt_duration(age, sizeof age, now - t));
	else
		snprintf(buf, n, "%s", day);
	return buf;
}

/* ---- a lost write's re-read ---------------------------------------------------- */

static bool same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int acctops_env_count(const struct env_var *v, size_t n, const char *key)
{
	int k = 0;
	for (size_t i = 0; v && i < n; i++)
		k += same(v[i].key, key);
	return k;
}

int acctops_apikey_count(const struct api_key_rec *v, size_t n, const char *name)
{
	int k = 0;
	for (size_t i = 0; v && i < n; i++)
		k += same(v[i].name, name);
	return k;
}

int acctops_ssh_count(const struct ssh_key_rec *v, size_t n, const char *fingerprint)
{
	int k = 0;
	for (size_t i = 0; v && fingerprint && *fingerprint && i < n; i++)
		k += same(v[i].fingerprint, fingerprint);
	return k;
}

int acctops_role_count(const struct team_role *v, size_t n, long id, const char *name,
		       unsigned mask)
{
	int k = 0;
	for (size_t i = 0; v && i < n; i++) {
		if (!same(v[i].name, name))
			continue;
		if (id > 0 && (v[i].id != id ||
			       (acct_rights_mask_text(v[i].permissions, NULL) & ACCT_CAT_ALL) !=
				       (mask & ACCT_CAT_ALL)))
			continue;
		k++;
	}
	return k;
}

/* The base64 blob of a public key line (its second word), into out. */
static bool ssh_blob(const char *line, char *out, size_t n)
{
	if (!line)
		return false;
	line += strspn(line, " \t");
	line += strcspn(line, " \t");
	line += strspn(line, " \t");
	size_t k = strcspn(line, " \t\r\n");
	if (!k || k >= n)
		return false;
	memcpy(out, line, k);
	out[k] = '\0';
	return true;
}

const struct ssh_key_rec *acctops_ssh_duplicate(const struct ssh_key_rec *v, size_t n,
						const char *fingerprint, const char *line)
{
	char blob[16384], other[16384];
	bool have = ssh_blob(line, blob, sizeof blob);
	for (size_t i = 0; v && i < n; i++) {
		if (fingerprint && *fingerprint && same(v[i].fingerprint, fingerprint))
			return &v[i];
		if (have && ssh_blob(v[i].public_key, other, sizeof other) && !strcmp(blob, other))
			return &v[i];
	}
	return NULL;
}

struct env_values_ctx {
	struct env_value *v;
	size_t n, cap;
};

static void add_value(const char *key, size_t len, const json_t *val, void *ctx)
{
	(void)len;
	struct env_values_ctx *c = ctx;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n].key = xstrdup(key);
	c->v[c->n].value = xstrdup(json_is_string(val) ? json_string_value(val) : "");
	c->n++;
}

bool acctops_env_values(const json_t *root, struct env_value **v, size_t *n)
{
	struct env_values_ctx c = { NULL, 0, 0 };
	bool ok = json_map_env_each(root, add_value, &c);
	*v = c.v;
	*n = c.n;
	return ok;
}

void acctops_env_values_free(struct env_value *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].key);
		if (v[i].value)
			explicit_bzero(v[i].value, strlen(v[i].value));
		free(v[i].value);
	}
	free(v);
}

bool acctops_env_masked(const char *value)
{
	if (!value)
		return true;
	while (*value == '*')
		value++;
	return !*value;
}
