/* logtail.c: owns the log pane's line store: a ring of sanitised lines with
 * a 64-bit hash each (so the overlap search compares hashes first), the
 * merge of "last N lines" answers by their overlap with what is held, the
 * search, filter and time-column rules, and saving the lines to a file. */
#include "state/logtail.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

struct line {
	char *text;
	uint64_t hash;
	bool marker; /* a gap marker (logtail_merge_gap), not a log line */
};

struct logtail {
	struct line *ring;
	size_t cap, head, n;
	uint64_t next_seq; /* seq of the next line stored */
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

struct logtail *logtail_new(size_t capacity)
{
	struct logtail *t = xcalloc(1, sizeof *t);
	t->cap = capacity ? capacity : LOGTAIL_DEFAULT_LINES;
	t->ring = xcalloc(t->cap, sizeof *t->ring);
	t->next_seq = 1;
	return t;
}

void logtail_clear(struct logtail *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->ring[(t->head + i) % t->cap].text);
	t->head = t->n = 0;
}

void logtail_free(struct logtail *t)
{
	if (!t)
		return;
	logtail_clear(t);
	free(t->ring);
	free(t);
}

size_t logtail_count(const struct logtail *t)
{
	return t->n;
}

size_t logtail_capacity(const struct logtail *t)
{
	return t->cap;
}

static const struct line *at(const struct logtail *t, size_t i)
{
	return &t->ring[(t->head + i) % t->cap];
}

const char *logtail_line(const struct logtail *t, size_t i)
{
	return i < t->n ? at(t, i)->text : NULL;
}

bool logtail_is_marker(const struct logtail *t, size_t i)
{
	return i < t->n && at(t, i)->marker;
}

uint64_t logtail_first_seq(const struct logtail *t)
{
	return t->n ? t->next_seq - t->n : 0;
}

/* Store a sanitised line (taken over); true when the oldest was evicted. */
static bool push(struct logtail *t, char *text, uint64_t hash)
{
	bool evicted = false;
	if (t->n == t->cap) {
		free(t->ring[t->head].text);
		t->ring[t->head] = (struct line){text, hash, false};
		t->head = (t->head + 1) % t->cap;
		evicted = true;
	} else {
		t->ring[(t->head + t->n) % t->cap] = (struct line){text, hash, false};
		t->n++;
	}
	t->next_seq++;
	return evicted;
}

void logtail_append(struct logtail *t, const char *line)
{
	char *s = util_sanitize(line ? line : "");
	push(t, s, fnv1a(s));
}

/* Split text into sanitised lines (a final empty piece after '\n' is not a
 * line; a '\r' before '\n' is dropped). */
static struct line *split(const char *text, size_t len, size_t *m)
{
	size_t cap = 16, n = 0;
	struct line *v = xmalloc(cap * sizeof *v);
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && text[j] != '\n')
			j++;
		size_t l = j - i;
		if (l && text[i + l - 1] == '\r')
			l--;
		if (n == cap)
			v = xrealloc(v, (cap *= 2) * sizeof *v);
		v[n].text = util_sanitize_n(text + i, l);
		v[n].hash = fnv1a(v[n].text);
		v[n].marker = false;
		n++;
		i = j + 1;
	}
	*m = n;
	return v;
}

static bool same(const struct line *a, const struct line *b)
{
	/* a marker never equals a log line, whatever the log writes */
	return a->marker == b->marker && a->hash == b->hash && strcmp(a->text, b->text) == 0;
}

/* Largest k <= min(m, held) with held[n-k..n) == a[0..k). */
static size_t overlap(const struct logtail *t, const struct line *a, size_t m)
{
	size_t kmax = m < t->n ? m : t->n;
	for (size_t k = kmax; k > 0; k--) {
		size_t base = t->n - k, j = 0;
		while (j < k && same(at(t, base + j), &a[j]))
			j++;
		if (j == k)
			return k;
	}
	return 0;
}

/* Does a[0..m) occur as a contiguous run of the held lines? */
static bool contained(const struct logtail *t, const struct line *a, size_t m)
{
	if (m == 0 || m > t->n)
		return false;
	for (size_t s = 0; s + m <= t->n; s++) {
		size_t j = 0;
		while (j < m && same(at(t, s + j), &a[j]))
			j++;
		if (j == m)
			return true;
	}
	return false;
}

size_t logtail_merge(struct logtail *t, const char *text, size_t len, struct logtail_merge *out)
{
	return logtail_merge_gap(t, text, len, NULL, out);
}

size_t logtail_merge_gap(struct logtail *t, const char *text, size_t len, const char *gap_line,
			 struct logtail_merge *out)
{
	struct logtail_merge r = {0};
	size_t m = 0;
	struct line *a = text && len ? split(text, len, &m) : NULL;
	r.answer_lines = m;
	size_t from = 0;
	if (m && t->n) {
		r.overlap = overlap(t, a, m);
		from = r.overlap;
		if (r.overlap == 0) {
			if (contained(t, a, m)) {
				r.stale = true;
				from = m;
			} else {
				r.gap = true;
			}
		}
	}
	if (r.gap && gap_line) {
		char *g = util_sanitize(gap_line);
		r.evicted += push(t, g, fnv1a(g));
		t->ring[(t->head + t->n - 1) % t->cap].marker = true;
		r.marked = true;
	}
	for (size_t i = 0; i < m; i++) {
		if (i < from) {
			free(a[i].text);
			continue;
		}
		r.evicted += push(t, a[i].text, a[i].hash);
		r.added++;
	}
	free(a);
	if (out)
		*out = r;
	return r.added;
}

/* ---- search and filter ---------------------------------------------------- */

bool logtail_find(const char *line, const char *needle, bool icase, size_t from, size_t *off)
{
	size_t nl = needle ? strlen(needle) : 0, ll = line ? strlen(line) : 0;
	if (!nl || from > ll)
		return false;
	for (size_t i = from; i + nl <= ll; i++) {
		size_t j = 0;
		if (icase)
			while (j < nl && tolower((unsigned char)line[i + j]) ==
						 tolower((unsigned char)needle[j]))
				j++;
		else
			while (j < nl && line[i + j] == needle[j])
				j++;
		if (j == nl) {
			*off = i;
			return true;
		}
	}
	return false;
}

static bool line_has(const char *line, const char *needle, bool icase)
{
	size_t off;
	return logtail_find(line, needle, icase, 0, &off);
}

bool logtail_search(const struct logtail *t, const char *needle, bool icase, size_t from,
		    int dir, size_t *found, bool *wrapped)
{
	if (wrapped)
		*wrapped = false;
	if (!t->n || !needle || !*needle)
		return false;
	if (from >= t->n)
		from = dir > 0 ? t->n - 1 : 0;
	for (size_t step = 1; step <= t->n; step++) {
		size_t i;
		bool wrap;
		if (dir > 0) {
			i = (from + step) % t->n;
			wrap = from + step >= t->n;
		} else {
			wrap = step > from;
			i = wrap ? t->n - (step - from) : from - step;
		}
		if (line_has(at(t, i)->text, needle, icase)) {
			*found = i;
			if (wrapped)
				*wrapped = wrap;
			return true;
		}
	}
	return false;
}

size_t *logtail_filter(const struct logtail *t, const char *needle, bool icase, size_t *n)
{
	size_t *v = NULL, cnt = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (needle && *needle && !at(t, i)->marker && !line_has(at(t, i)->text, needle, icase))
			continue;
		if (!v)
			v = xmalloc(t->n * sizeof *v);
		v[cnt++] = i;
	}
	*n = cnt;
	return v;
}

/* ---- time column ----------------------------------------------------------- */

/* Match the digits pattern at s: 'd' a digit, other characters literal.
 * Returns the bytes matched, 0 when it does not match. */
static size_t pat(const char *s, const char *p)
{
	size_t i = 0;
	for (; p[i]; i++) {
		if (p[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != p[i])
			return 0;
	}
	return i;
}

/* hh:mm:ss with an optional fraction; bytes matched or 0. */
static size_t clock_part(const char *s)
{
	size_t n = pat(s, "dd:dd:dd");
	if (!n)
		return 0;
	if ((s[n] == '.' || s[n] == ',') && isdigit((unsigned char)s[n + 1])) {
		n++;
		while (isdigit((unsigned char)s[n]))
			n++;
	}
	return n;
}

/* A timestamp at s (no brackets, no trailing blanks); bytes or 0. */
static size_t stamp(const char *s)
{
	size_t n = pat(s, "dddd-dd-dd");
	if (n) {
		if (s[n] != 'T' && s[n] != ' ')
			return 0;
		size_t c = clock_part(s + n + 1);
		if (!c)
			return 0;
		n += 1 + c;
		if (s[n] == 'Z')
			return n + 1;
		if (s[n] == '+' || s[n] == '-') {
			size_t z = pat(s + n + 1, "dd:dd");
			if (!z)
				z = pat(s + n + 1, "dddd");
			if (z)
				return n + 1 + z;
		}
		return n;
	}
	static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	for (size_t i = 0; i < 12; i++) {
		if (strncmp(s, mon[i], 3) || s[3] != ' ')
			continue;
		size_t d = 4;
		if (s[d] == ' ')
			d++;
		if (!isdigit((unsigned char)s[d]))
			return 0;
		d++;
		if (isdigit((unsigned char)s[d]))
			d++;
		if (s[d] != ' ')
			return 0;
		size_t c = clock_part(s + d + 1);
		return c ? d + 1 + c : 0;
	}
	return clock_part(s);
}

size_t logtail_time_prefix(const char *line)
{
	if (!line)
		return 0;
	size_t n;
	if (line[0] == '[') {
		n = stamp(line + 1);
		if (!n || line[n + 1] != ']')
			return 0;
		n += 2;
	} else {
		n = stamp(line);
		if (!n)
			return 0;
		/* a stamp must end the word: "12:00:00abc" is not one */
		if (line[n] && line[n] != ' ' && line[n] != '\t' && line[n] != ':' && line[n] != '|')
			return 0;
	}
	if (line[n] == ':' || line[n] == '|')
		n++;
	while (line[n] == ' ' || line[n] == '\t')
		n++;
	if (line[n] == '|') { /* "09:24:13 | text" */
		n++;
		while (line[n] == ' ' || line[n] == '\t')
			n++;
	}
	return n;
}

/* ---- save ------------------------------------------------------------------ */

int logtail_save(const struct logtail *t, const size_t *idx, size_t nidx, const char *path,
		 bool overwrite, char *err, size_t errlen)
{
	struct stat st;
	if (!overwrite && lstat(path, &st) == 0) {
		snprintf(err, errlen, "%s exists", path);
		return 1;
	}
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	bool ok = f != NULL;
	size_t cnt = idx ? nidx : t->n;
	for (size_t k = 0; ok && k < cnt; k++) {
		size_t i = idx ? idx[k] : k;
		if (i >= t->n)
			continue;
		ok = fputs(at(t, i)->text, f) >= 0 && fputc('\n', f) != EOF;
	}
	if (f) {
		ok = fflush(f) == 0 && ok;
		ok = fsync(fileno(f)) == 0 && ok;
		ok = fclose(f) == 0 && ok;
	} else {
		close(fd);
	}
	int rc = 0;
	if (!ok) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	} else if (overwrite) {
		if (rename(tmp, path) != 0) {
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
			rc = -1;
		}
	} else if (link(tmp, path) != 0) {
		/* link() never replaces: a file that appeared meanwhile is kept */
		int e = errno;
		snprintf(err, errlen, e == EEXIST ? "%s exists" : "cannot write %s: %s", path,
			 strerror(e));
		rc = e == EEXIST ? 1 : -1;
	}
	unlink(tmp);
	free(tmp);
	return rc;
}

char *logtail_default_name(char *buf, size_t n, const char *name, double now)
{
	char nm[96];
	size_t j = 0;
	for (const char *p = name ? name : ""; *p && j + 1 < sizeof nm; p++) {
		unsigned char c = (unsigned char)*p;
		nm[j++] = isalnum(c) || c == '.' || c == '_' || c == '-' ? (char)c : '_';
	}
	nm[j] = '\0';
	if (nm[0] == '.')
		nm[0] = '_'; /* never a hidden file */
	time_t tt = (time_t)now;
	struct tm tm;
	localtime_r(&tt, &tm);
	char ts[32];
	strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, n, "%s-%s.log", j ? nm : "log", ts);
	return buf;
}
