/* json_text.c: owns the writer of JSON text in --dump --json's form
 * (json_text.h), byte for byte the text dump_json_text() makes from a
 * jansson tree (tests/unit/test_json_text.c compares the two). */
#include "json/json_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Characters that may act on a terminal or reorder text although jansson
 * writes them raw (dump.c's rule). */
static bool escape_cp(unsigned cp)
{
	return cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
	       cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       util_cp_invisible(cp);
}

static const char HEX_UP[] = "0123456789ABCDEF", HEX_LOW[] = "0123456789abcdef";

static void put_u(struct util_buf *o, unsigned cp, const char *hex)
{
	char e[6] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
		      hex[cp & 15] };
	util_buf_put(o, e, 6);
}

void json_text_string(struct util_buf *o, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	util_buf_put(o, "\"", 1);
	while (s < end) {
		const unsigned char *q = s;
		while (q < end && *q >= 0x20 && *q < 0x7F && *q != '"' && *q != '\\')
			q++;
		if (q > s) {
			util_buf_put(o, s, (size_t)(q - s));
			s = q;
			continue;
		}
		unsigned char c = *s;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			util_buf_put(o, e, 2);
			s++;
		} else if (c < 0x20) { /* jansson's escapes (upper-case hex) */
			const char *t = c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\n' ? "\\n"
				      : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
			if (t)
				util_buf_put(o, t, 2);
			else
				put_u(o, c, HEX_UP);
			s++;
		} else if (c == 0x7F) {
			put_u(o, 0x7F, HEX_LOW);
			s++;
		} else if ((c & 0xE0) == 0xC0 && end - s >= 2) {
			unsigned cp = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu);
			if (escape_cp(cp))
				put_u(o, cp, HEX_LOW);
			else
				util_buf_put(o, s, 2);
			s += 2;
		} else if ((c & 0xF0) == 0xE0 && end - s >= 3) {
			unsigned cp = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
			if (escape_cp(cp))
				put_u(o, cp, HEX_LOW);
			else
				util_buf_put(o, s, 3);
			s += 3;
		} else if ((c & 0xF8) == 0xF0 && end - s >= 4) {
			unsigned cp = ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) |
				      ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
			if (escape_cp(cp)) { /* a surrogate pair, as JSON writes one */
				put_u(o, 0xD800 + ((cp - 0x10000) >> 10), HEX_LOW);
				put_u(o, 0xDC00 + ((cp - 0x10000) & 0x3FF), HEX_LOW);
			} else {
				util_buf_put(o, s, 4);
			}
			s += 4;
		} else {
			util_buf_put(o, s, 1);
			s++;
		}
	}
	util_buf_put(o, "\"", 1);
}

void json_text_int(struct util_buf *o, long long i)
{
	char buf[24], *p = buf + sizeof buf;
	unsigned long long u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (i < 0)
		*--p = '-';
	util_buf_put(o, p, (size_t)(buf + sizeof buf - p));
}

void json_text_real(struct util_buf *o, double d)
{
	char buf[40];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	util_buf_put(o, buf, strlen(buf));
	if (!strpbrk(buf, ".eE"))
		util_buf_put(o, ".0", 2);
}

void json_text_real_tok(struct util_buf *o, const char *tok, size_t len, double d)
{
	if (!json_text_real_tok_only(o, tok, len))
		json_text_real(o, d);
}

bool json_text_real_tok_only(struct util_buf *o, const char *tok, size_t len)
{
	/* -?int(.frac)?: %.15g prints such a number of at most 15 significant
	 * digits whose decimal exponent is in [-4, 14] as the digits
	 * themselves, leading and trailing zeros dropped */
	size_t i = tok[0] == '-', ib = i;
	while (i < len && tok[i] >= '0' && tok[i] <= '9')
		i++;
	size_t ie = i, fb = i, fe = i;
	if (i < len && tok[i] == '.') {
		fb = ++i;
		while (i < len && tok[i] >= '0' && tok[i] <= '9')
			i++;
		fe = i;
	}
	if (i != len || ie == ib || ie - ib > 15)
		return false;
	size_t a = ib; /* first non-zero digit of the integer part */
	while (a < ie && tok[a] == '0')
		a++;
	while (fe > fb && tok[fe - 1] == '0') /* trailing zeros of the fraction */
		fe--;
	size_t sig;
	if (a < ie) {
		sig = (ie - a) + (fe - fb);
	} else {
		size_t z = fb; /* leading zeros of the fraction: exponent -(z - fb + 1) */
		while (z < fe && tok[z] == '0')
			z++;
		if (z == fe) { /* zero */
			util_buf_put(o, tok[0] == '-' ? "-0.0" : "0.0", tok[0] == '-' ? 4 : 3);
			return true;
		}
		if (z - fb + 1 > 4)
			return false;
		sig = fe - z;
	}
	if (sig > 15)
		return false;
	if (tok[0] == '-')
		util_buf_put(o, "-", 1);
	if (a < ie)
		util_buf_put(o, tok + a, ie - a);
	else
		util_buf_put(o, "0", 1);
	if (fe > fb) {
		util_buf_put(o, ".", 1);
		util_buf_put(o, tok + fb, fe - fb);
	} else {
		util_buf_put(o, ".0", 2);
	}
	return true;
}

void json_text_newline(struct util_buf *o, int depth)
{
	static const char sp[] = "\n                                                                ";
	size_t n = (size_t)depth * 2;
	util_buf_put(o, sp, 1);
	while (n > 0) {
		size_t k = n < sizeof sp - 2 ? n : sizeof sp - 2;
		util_buf_put(o, sp + 1, k);
		n -= k;
	}
}

/* The code point of the UTF-8 sequence at s (len bytes: 2, 3 or 4), for the
 * few ranges escaped below. */
static unsigned utf8_cp(const unsigned char *s, int len)
{
	return len == 2 ? ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu)
	       : len == 3 ? ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu)
			  : ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) |
				    ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
}

/* The text is built in a struct util_buf (no stdio per character). */

/* A real in the shortest form that reads back as the same double (12.2, not
 * 12.199999999999999), still a real for the reader ("12.0", not "12").  The
 * common integral case ("24564.0", up to 15 digits: exact) is kept as
 * written without converting it twice. */
static void put_real(struct util_buf *o, const char *tok, size_t len)
{
	char in[64];
	size_t dig = tok[0] == '-';
	while (dig < len && tok[dig] >= '0' && tok[dig] <= '9')
		dig++;
	if (dig + 2 == len && tok[dig] == '.' && tok[dig + 1] == '0' && dig <= 15) {
		util_buf_put(o, tok, len);
		return;
	}
	if (len >= sizeof in) {
		util_buf_put(o, tok, len);
		return;
	}
	memcpy(in, tok, len);
	in[len] = '\0';
	json_text_real(o, strtod(in, NULL));
}

char *json_text_dump(const json_t *v)
{
	char *raw = json_dumps(v, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENCODE_ANY |
					  JSON_REAL_PRECISION(17));
	if (!raw)
		return NULL;
	size_t rawlen = strlen(raw);
	struct util_buf o = { xmalloc(rawlen + rawlen / 8 + 64), 0, rawlen + rawlen / 8 + 64 };
	o.s[0] = '\0';
	bool in_str = false;
	for (const unsigned char *p = (const unsigned char *)raw; *p;) {
		if (in_str) {
			/* a run of plain bytes (printable ASCII but " and \) at once */
			const unsigned char *q = p;
			while (*q >= 0x20 && *q < 0x7F && *q != '"' && *q != '\\')
				q++;
			if (q > p) {
				util_buf_put(&o, p, (size_t)(q - p));
				p = q;
				continue;
			}
			if (*p == '\\') { /* an escape jansson wrote: copy it whole */
				util_buf_put(&o, p, p[1] ? 2 : 1);
				p += p[1] ? 2 : 1;
				continue;
			}
			if (*p == '"')
				in_str = false;
			int len = *p == 0x7F ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
				  : (*p & 0xF8) == 0xF0 ? 4 : 0;
			if (len && escape_cp(len == 1 ? 0x7F : utf8_cp(p, len))) {
				unsigned cp = len == 1 ? 0x7Fu : utf8_cp(p, len);
				if (cp >= 0x10000) {
					put_u(&o, 0xD800 + ((cp - 0x10000) >> 10), HEX_LOW);
					put_u(&o, 0xDC00 + ((cp - 0x10000) & 0x3FF), HEX_LOW);
				} else {
					put_u(&o, cp, HEX_LOW);
				}
				p += len;
				continue;
			}
			util_buf_put(&o, p++, 1);
			continue;
		}
		if (*p == '"') {
			in_str = true;
			util_buf_put(&o, p++, 1);
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			size_t n = strspn((const char *)p, "-+0123456789.eE");
			if (memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n))
				put_real(&o, (const char *)p, n);
			else
				util_buf_put(&o, p, n);
			p += n;
		} else {
			/* structure and indentation: up to the next string or number */
			size_t n = strcspn((const char *)p, "\"-0123456789");
			util_buf_put(&o, p, n ? n : 1);
			p += n ? n : 1;
		}
	}
	free(raw);
	return o.s;
}

struct kl {
	const char *k;
	size_t len;
	const json_t *v;
};

static int kl_cmp(const void *a, const void *b)
{
	const struct kl *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->k, y->k, n);
	return r ? r : (x->len > y->len) - (x->len < y->len);
}

void json_text_value(struct util_buf *o, const json_t *v, int depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		size_t n = json_object_size(v), i = 0;
		if (!n) {
			util_buf_put(o, "{}", 2);
			return;
		}
		struct kl *ks = xmalloc(n * sizeof *ks);
		const char *k;
		size_t klen;
		json_t *x;
		json_object_keylen_foreach((json_t *)v, k, klen, x) {
			ks[i++] = (struct kl){ k, klen, x };
		}
		qsort(ks, n, sizeof *ks, kl_cmp);
		util_buf_put(o, "{", 1);
		for (i = 0; i < n; i++) {
			json_text_newline(o, depth + 1);
			json_text_string(o, ks[i].k, ks[i].len);
			util_buf_put(o, ": ", 2);
			json_text_value(o, ks[i].v, depth + 1);
			if (i + 1 < n)
				util_buf_put(o, ",", 1);
		}
		json_text_newline(o, depth);
		util_buf_put(o, "}", 1);
		free(ks);
		return;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		if (!n) {
			util_buf_put(o, "[]", 2);
			return;
		}
		util_buf_put(o, "[", 1);
		for (size_t i = 0; i < n; i++) {
			json_text_newline(o, depth + 1);
			json_text_value(o, json_array_get(v, i), depth + 1);
			if (i + 1 < n)
				util_buf_put(o, ",", 1);
		}
		json_text_newline(o, depth);
		util_buf_put(o, "]", 1);
		return;
	}
	case JSON_STRING:
		json_text_string(o, json_string_value(v), json_string_length(v));
		return;
	case JSON_INTEGER:
		json_text_int(o, (long long)json_integer_value(v));
		return;
	case JSON_REAL:
		json_text_real(o, json_real_value(v));
		return;
	case JSON_TRUE:
		util_buf_put(o, "true", 4);
		return;
	case JSON_FALSE:
		util_buf_put(o, "false", 5);
		return;
	case JSON_NULL:
		util_buf_put(o, "null", 4);
		return;
	}
}
