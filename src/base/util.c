/* util.c: the small helpers everything else uses: a growing buffer, string
 * helpers, clocks, and the sanitiser that every string from the server
 * passes through before it is stored in the model (so no escape sequence
 * can ever reach the terminal).  Allocation: xmalloc.c; figures: fmt.c. */
#include "base/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

void util_buf_reserve(struct util_buf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap * 2;
	if (cap < b->len + n + 1)
		cap = b->len + n + 1;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void util_buf_put(struct util_buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 128;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

size_t util_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = src ? strlen(src) : 0;
	if (size) {
		size_t c = len < size - 1 ? len : size - 1;
		if (c)
			memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return len;
}

/* Length of a valid UTF-8 sequence at s (1-4), or 0 when invalid; *cp gets
 * the code point. */
static size_t utf8_decode(const unsigned char *s, size_t left, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		len = 2; v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3; v = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4; v = c & 0x07;
	} else {
		return 0;
	}
	if (left < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
	    (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return len;
}

/* Skip an escape sequence starting at s[0] == ESC (or a C1 CSI/OSC/DCS as a
 * code point); returns the bytes consumed. */
static size_t skip_escape(const unsigned char *s, size_t left, int kind)
{
	size_t i = 1;
	if (kind == 0) { /* ESC */
		if (left < 2)
			return 1;
		unsigned char c = s[1];
		i = 2;
		if (c == '[')
			kind = '[';
		else if (c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X')
			kind = ']';
		else {
			/* ESC, intermediates 0x20-0x2F, one final byte */
			while (i - 1 < left && s[i - 1] >= 0x20 && s[i - 1] <= 0x2F && i < left)
				i++;
			return i;
		}
	}
	if (kind == '[') { /* CSI: parameters then a final byte 0x40-0x7E */
		while (i < left && !(s[i] >= 0x40 && s[i] <= 0x7E))
			i++;
		return i < left ? i + 1 : left;
	}
	/* string sequences: end at BEL, ESC \ or the C1 ST (0xC2 0x9C) */
	while (i < left) {
		if (s[i] == 0x07)
			return i + 1;
		if (s[i] == 0x1B && i + 1 < left && s[i + 1] == '\\')
			return i + 2;
		if (s[i] == 0xC2 && i + 1 < left && s[i + 1] == 0x9C)
			return i + 2;
		i++;
	}
	return left;
}

bool util_cp_invisible(uint32_t cp)
{
	return cp == 0x00AD || cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x17B4 ||
	       cp == 0x17B5 || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x200B && cp <= 0x200D) ||
	       (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x206A && cp <= 0x206F) || cp == 0x3164 ||
	       cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xE0000 && cp <= 0xE007F);
}

static char *sanitize(const char *in, size_t len, int multiline)
{
	const unsigned char *s = (const unsigned char *)(in ? in : "");
	if (!in)
		len = 0;
	/* every kept or replaced character takes at most the bytes it came from,
	 * but an invisible one shown as <U+XXXX>: room is grown for those alone */
	size_t cap = len + 1;
	char *out = xmalloc(cap);
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		if (n == 0) {
			out[o++] = '?';
			i++;
			continue;
		}
		if (cp == 0x1B) {
			i += skip_escape(s + i, len - i, 0);
			continue;
		}
		if (cp == 0x9B) { /* C1 CSI */
			i += n - 1 + skip_escape(s + i + n - 1, len - i - n + 1, '[');
			continue;
		}
		if (cp == 0x9D || cp == 0x90 || cp == 0x9E || cp == 0x9F || cp == 0x98) {
			i += n - 1 + skip_escape(s + i + n - 1, len - i - n + 1, ']');
			continue;
		}
		if (cp == '\n' && multiline) {
			out[o++] = '\n';
		} else if (cp == '\t' || cp == '\n') {
			out[o++] = ' ';
		} else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
			   (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
			   cp == 0x200E || cp == 0x200F || cp == 0x061C) {
			/* control or bidi override: dropped */
		} else if (util_cp_invisible(cp)) {
			/* shown, never silently joined: "default<U+200B>" is not "default" */
			char tag[16];
			int k = snprintf(tag, sizeof tag, "<U+%04" PRIX32 ">", cp);
			size_t need = o + (size_t)k + (len - i - n) + 1;
			if (need > cap) {
				cap = need + cap / 2;
				out = xrealloc(out, cap);
			}
			memcpy(out + o, tag, (size_t)k);
			o += (size_t)k;
		} else {
			memcpy(out + o, s + i, n);
			o += n;
		}
		i += n;
	}
	out[o] = '\0';
	return out;
}

char *util_sanitize(const char *s) { return sanitize(s, s ? strlen(s) : 0, 0); }
char *util_sanitize_n(const char *s, size_t len) { return sanitize(s, len, 0); }
char *util_sanitize_ml(const char *s, size_t len) { return sanitize(s, len, 1); }

/* Microseconds the test clock has been moved forward; only
 * util_clock_advance (reached from `--test-clock`) changes it. */
static atomic_llong clock_advance_us;

static double clock_read(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9 +
	       (double)atomic_load_explicit(&clock_advance_us, memory_order_relaxed) / 1e6;
}

double util_now(void) { return clock_read(CLOCK_REALTIME); }
double util_mono(void) { return clock_read(CLOCK_MONOTONIC); }

bool util_clock_advance(double secs)
{
	if (!(secs > 0) || secs > 1e6) /* NaN, going back and more than 11 days refused */
		return false;
	atomic_fetch_add(&clock_advance_us, (long long)llround(secs * 1e6));
	return true;
}

int util_strwidth(const char *s)
{
	int w = 0;
	/* ASCII first, without the conversion: one column for each printable
	 * byte, none for a control (wcwidth -1) */
	for (; *s && (unsigned char)*s < 0x80; s++)
		w += (unsigned char)*s >= 0x20 && *s != 0x7F;
	if (!*s)
		return w;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t left = strlen(s);
	while (left) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, left, &st);
		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&st, 0, sizeof st);
			w++;
			s++;
			left--;
			continue;
		}
		if (n == 0)
			break;
		int cw = wcwidth(wc);
		if (cw > 0)
			w += cw;
		s += n;
		left -= n;
	}
	return w;
}
