/* logview.c: owns the display rules of a log pane (logview.h): which lines
 * are shown (the `c` floor, the `&` filter), where the window is (following
 * the end, or a top line kept by sequence number), wrapping, search matches
 * and n/N, the level of a line and the masking of secrets in it.  Pure. */
#include "views/logs/logview.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "state/logtail.h"
#include "rules/secrets.h"
#include "base/util.h"

#define HEX_SECRET_MIN 48 /* hex digits in a row taken for a key (API keys: 64) */

void logview_init(struct logview *v)
{
	memset(v, 0, sizeof *v);
	v->follow = true;
	v->wrap = false;
	v->show_time = true;
}

void logview_free(struct logview *v)
{
	free(v->idx);
	v->idx = NULL;
	v->nidx = 0;
}

/* Does the text have an ASCII capital (then the search is case-sensitive)? */
static bool has_upper(const char *s)
{
	for (; *s; s++)
		if (isupper((unsigned char)*s))
			return true;
	return false;
}

void logview_sync(struct logview *v, const struct logtail *t, bool force)
{
	uint64_t first = logtail_first_seq(t);
	size_t n = logtail_count(t);
	if (!force && v->idx && first == v->built_first && n == v->built_count)
		return;
	free(v->idx);
	v->idx = NULL;
	v->nidx = 0;
	size_t from = 0;
	if (v->floor_seq > first)
		from = v->floor_seq - first < n ? (size_t)(v->floor_seq - first) : n;
	if (v->filter[0]) {
		size_t m = 0;
		size_t *all = logtail_filter(t, v->filter, !has_upper(v->filter), &m);
		v->idx = xmalloc((m ? m : 1) * sizeof *v->idx);
		for (size_t i = 0; i < m; i++)
			if (all[i] >= from)
				v->idx[v->nidx++] = all[i];
		free(all);
	} else {
		v->idx = xmalloc((n - from ? n - from : 1) * sizeof *v->idx);
		for (size_t i = from; i < n; i++)
			v->idx[v->nidx++] = i;
	}
	v->built_first = first;
	v->built_count = n;
}

size_t logview_count(const struct logview *v)
{
	return v->nidx;
}

size_t logview_line(const struct logview *v, size_t k)
{
	return k < v->nidx ? v->idx[k] : 0;
}

const char *logview_text(const struct logview *v, const char *line)
{
	if (!line)
		return "";
	return v->show_time ? line : line + logtail_time_prefix(line);
}

int logview_wrap_starts(const char *s, int w, size_t *starts, int max)
{
	int n = 0;
	if (max < 1)
		return 0;
	starts[n++] = 0;
	if (w < 1)
		return n;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t i = 0, len = strlen(s);
	int col = 0;
	while (i < len) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + i, len - i, &st);
		int cw = 1;
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			k = 1;
			memset(&st, 0, sizeof st);
		} else {
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 1;
		}
		if (col + cw > w && col > 0) {
			if (n >= max)
				return n;
			starts[n++] = i;
			col = 0;
		}
		col += cw;
		i += k;
	}
	return n;
}

int logview_rows(const struct logview *v, const char *line, int w)
{
	if (!v->wrap || w < 1)
		return 1;
	int cells = util_strwidth(logview_text(v, line));
	int r = (cells + w - 1) / w;
	return r < 1 ? 1 : r;
}

/* The shown line at or after sequence seq (the last when none). */
static size_t k_of_seq(const struct logview *v, const struct logtail *t, uint64_t seq)
{
	uint64_t first = logtail_first_seq(t);
	size_t i = seq > first ? (size_t)(seq - first) : 0;
	/* idx is ascending: binary search for the first >= i */
	size_t lo = 0, hi = v->nidx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->idx[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->nidx ? lo : (v->nidx ? v->nidx - 1 : 0);
}

static uint64_t seq_of_k(const struct logview *v, const struct logtail *t, size_t k)
{
	return logtail_first_seq(t) + (k < v->nidx ? v->idx[k] : 0);
}

/* Following: the top line and skipped rows such that the last line ends at
 * the bottom of h rows. */
static void bottom_window(const struct logview *v, const struct logtail *t, int h, int w,
			  size_t *top_k, int *skip)
{
	*top_k = 0;
	*skip = 0;
	if (!v->nidx || h < 1)
		return;
	int rows = 0;
	size_t k = v->nidx;
	while (k > 0) {
		int r = logview_rows(v, logtail_line(t, v->idx[k - 1]), w);
		if (rows + r >= h) {
			*top_k = k - 1;
			*skip = rows + r - h;
			return;
		}
		rows += r;
		k--;
	}
}

void logview_window(struct logview *v, const struct logtail *t, int h, int w, size_t *top_k,
		    int *skip_rows)
{
	logview_sync(v, t, false);
	if (v->follow || !v->nidx) {
		bottom_window(v, t, h, w, top_k, skip_rows);
		return;
	}
	size_t k = k_of_seq(v, t, v->top_seq);
	/* never leave the bottom half empty: past the end it is the end's window */
	size_t bk;
	int bskip;
	bottom_window(v, t, h, w, &bk, &bskip);
	if (k > bk || (k == bk && bskip > 0)) {
		*top_k = bk;
		*skip_rows = bskip;
		return;
	}
	*top_k = k;
	*skip_rows = 0;
}

void logview_scroll(struct logview *v, const struct logtail *t, int h, int w, long delta)
{
	logview_sync(v, t, false);
	if (!v->nidx || delta == 0)
		return;
	size_t k;
	int skip;
	logview_window(v, t, h, w, &k, &skip);
	if (v->follow) {
		if (delta > 0)
			return; /* already at the end */
		v->follow = false;
	}
	long nk = (long)k + delta;
	if (nk < 0)
		nk = 0;
	if (nk >= (long)v->nidx)
		nk = (long)v->nidx - 1;
	v->top_seq = seq_of_k(v, t, (size_t)nk);
}

void logview_top(struct logview *v, const struct logtail *t)
{
	logview_sync(v, t, false);
	v->follow = false;
	v->top_seq = v->nidx ? seq_of_k(v, t, 0) : 0;
}

void logview_follow(struct logview *v)
{
	v->follow = true;
}

void logview_clear(struct logview *v, const struct logtail *t)
{
	uint64_t first = logtail_first_seq(t);
	v->floor_seq = first + logtail_count(t);
	if (!logtail_count(t)) /* empty: the next line stored gets the next number */
		v->floor_seq = 0;
	v->match_seq = 0;
	v->follow = true;
	logview_sync(v, t, true);
}

void logview_set_filter(struct logview *v, const struct logtail *t, const char *text)
{
	util_strlcpy(v->filter, text ? text : "", sizeof v->filter);
	logview_sync(v, t, true);
}

void logview_set_search(struct logview *v, const char *text)
{
	util_strlcpy(v->search, text ? text : "", sizeof v->search);
	v->match_seq = 0;
}

bool logview_next_match(struct logview *v, const struct logtail *t, int h, int w, int dir,
			bool *wrapped)
{
	*wrapped = false;
	logview_sync(v, t, false);
	if (!v->search[0] || !v->nidx)
		return false;
	bool icase = !has_upper(v->search);
	long n = (long)v->nidx, cur;
	if (v->match_seq && v->match_seq >= logtail_first_seq(t)) {
		cur = (long)k_of_seq(v, t, v->match_seq);
	} else {
		/* the first n/N: from the window shown (forward from its top,
		 * the top line included; backward from its bottom) */
		size_t tk;
		int skip, rows = 0;
		logview_window(v, t, h, w, &tk, &skip);
		if (dir > 0) {
			cur = (long)tk - 1;
		} else {
			long k = (long)tk;
			rows = -skip;
			while (k < n && rows < h)
				rows += logview_rows(v, logtail_line(t, v->idx[k++]), w);
			cur = k;
		}
	}
	for (long step = 1; step <= n; step++) {
		long k = cur + (dir > 0 ? step : -step);
		if (k < 0 || k >= n) {
			*wrapped = true;
			k = ((k % n) + n) % n;
		}
		size_t off;
		const char *line = logview_text(v, logtail_line(t, v->idx[k]));
		if (logtail_find(line, v->search, icase, 0, &off)) {
			v->match_seq = seq_of_k(v, t, (size_t)k);
			v->top_seq = v->match_seq;
			v->follow = false;
			return true;
		}
	}
	return false;
}

int logview_matches(const struct logview *v, const char *s, size_t *start, size_t *end, int max)
{
	int n = 0;
	if (!v->search[0])
		return 0;
	bool icase = !has_upper(v->search);
	size_t len = strlen(v->search), from = 0, off;
	while (n < max && logtail_find(s, v->search, icase, from, &off)) {
		start[n] = off;
		end[n] = off + len;
		n++;
		from = off + (len ? len : 1);
	}
	return n;
}

/* Is word (lower case) at s, as a whole word (not inside another)? */
static bool word_at(const char *line, const char *s, const char *word)
{
	size_t l = strlen(word);
	if (strncasecmp(s, word, l) != 0)
		return false;
	if (s > line && isalnum((unsigned char)s[-1]))
		return false;
	return !isalnum((unsigned char)s[l]);
}

enum logview_level logview_level(const char *line)
{
	static const struct {
		const char *w;
		enum logview_level l;
	} words[] = {
		{ "error", LVL_ERROR }, { "fatal", LVL_ERROR }, { "critical", LVL_ERROR },
		{ "traceback", LVL_ERROR }, { "panic", LVL_ERROR }, { "exception", LVL_ERROR },
		{ "warn", LVL_WARN }, { "warning", LVL_WARN }, { "debug", LVL_DEBUG },
		{ "trace", LVL_DEBUG },
	};
	enum logview_level best = LVL_NONE;
	for (const char *s = line; s && *s; s++) {
		if (!isalpha((unsigned char)*s) || (s > line && isalpha((unsigned char)s[-1])))
			continue;
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if (word_at(line, s, words[i].w) && words[i].l > best)
				best = words[i].l;
		if (best == LVL_ERROR)
			break;
	}
	/* "[E]" / "[W]" styles */
	if (best < LVL_ERROR && line && strstr(line, "[E]"))
		best = LVL_ERROR;
	else if (best < LVL_WARN && line && strstr(line, "[W]"))
		best = LVL_WARN;
	return best;
}

/* Where the value of a NAME=VALUE at s[j] ('=' at j) ends (a blank, a
 * quote, a comma or a semicolon). */
static size_t value_end(const char *s, size_t j)
{
	size_t e = j + 1;
	if (s[e] == '"' || s[e] == '\'') {
		const char *close = strchr(s + e + 1, s[e]);
		return close ? (size_t)(close - s) + 1 : strlen(s);
	}
	while (s[e] && !strchr(" \t\"',;)]}", s[e]))
		e++;
	return e;
}

/* Is v[0, n) a plain number (a count, a size: no secret)? */
static bool numeric(const char *v, size_t n)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)v[i]) && !strchr(".-+", v[i]))
			return false;
	return true;
}

char *logview_mask(const char *line)
{
	const char *m = line ? line : "";
	size_t n = strlen(m);
	/* "<hidden>" replaces a value of at least one byte after "N=" and a
	 * delimiter ("N=x," -> "N=<hidden>,": 4 -> 11 bytes): at most 3n */
	char *out = xmalloc(3 * n + 16);
	size_t o = 0;
	static const char hid[] = "<hidden>";
	for (size_t i = 0; i < n;) {
		bool word_start = i == 0 || !(isalnum((unsigned char)m[i - 1]) || m[i - 1] == '_');
		/* NAME=VALUE with a secret-looking name and a value that is not a number */
		if (word_start && (isalpha((unsigned char)m[i]) || m[i] == '_')) {
			size_t j = i;
			while (isalnum((unsigned char)m[j]) || m[j] == '_')
				j++;
			if (m[j] == '=') {
				char *name = xstrndup(m + i, j - i);
				bool secret = secrets_name_looks_secret(name);
				free(name);
				size_t e = value_end(m, j);
				if (secret && !numeric(m + j + 1, e - j - 1)) {
					memcpy(out + o, m + i, j + 1 - i);
					o += j + 1 - i;
					memcpy(out + o, hid, sizeof hid - 1);
					o += sizeof hid - 1;
					i = e;
					continue;
				}
			}
		}
		size_t j = i;
		while (j < n && isxdigit((unsigned char)m[j]))
			j++;
		if (j - i >= HEX_SECRET_MIN) { /* a whole run: "ep_<64 hex>" too */
			memcpy(out + o, hid, sizeof hid - 1);
			o += sizeof hid - 1;
			i = j;
		} else if (j > i) {
			memcpy(out + o, m + i, j - i);
			o += j - i;
			i = j;
		} else {
			out[o++] = m[i++];
		}
	}
	out[o] = '\0';
	return out;
}

char *logview_mask_text(const char *text)
{
	size_t cap = strlen(text ? text : "") + 1, len = 0;
	char *out = xmalloc(cap);
	out[0] = '\0';
	const char *p = text ? text : "";
	while (*p) {
		size_t l = strcspn(p, "\n");
		char *line = xstrndup(p, l);
		char *m = logview_mask(line);
		size_t ml = strlen(m);
		if (len + ml + 2 > cap)
			out = xrealloc(out, cap = (len + ml + 2) * 2);
		memcpy(out + len, m, ml);
		len += ml;
		if (p[l] == '\n')
			out[len++] = '\n';
		out[len] = '\0';
		free(m);
		free(line);
		p += l + (p[l] == '\n');
	}
	return out;
}
