/* textbuf.c: editing of one line of UTF-8 text (insert, Backspace, Delete,
 * Left/Right, Home/End, C-u), refusing control characters. */
#include "widgets/textbuf.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <limits.h>
#include <string.h>
#include <wchar.h>

#include "keymap.h"
#include "base/util.h"

void textbuf_clear(struct textbuf *b)
{
	b->s[0] = '\0';
	b->len = b->cur = 0;
}

void textbuf_set(struct textbuf *b, const char *s)
{
	textbuf_clear(b);
	/* insert character by character so that limits and filtering apply */
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t left = s ? strlen(s) : 0;
	while (left) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, left, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof st);
			k = 1;
			wc = '?';
		}
		textbuf_insert(b, (unsigned)wc);
		s += k;
		left -= k;
	}
}

size_t textbuf_chars(const struct textbuf *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->len; i++)
		if (((unsigned char)b->s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

bool textbuf_insert(struct textbuf *b, unsigned wc)
{
	if (wc < 0x20 || wc == 0x7f || (wc >= 0x80 && wc < 0xa0) || wc > 0x10ffff)
		return false;
	if (b->max_chars && textbuf_chars(b) >= b->max_chars)
		return false;
	char mb[MB_LEN_MAX];
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t k = wcrtomb(mb, (wchar_t)wc, &st);
	if (k == (size_t)-1 || b->len + k > TEXTBUF_BYTES)
		return false;
	memmove(b->s + b->cur + k, b->s + b->cur, b->len - b->cur + 1);
	memcpy(b->s + b->cur, mb, k);
	b->len += k;
	b->cur += k;
	return true;
}

/* Byte offset of the character before/after off. */
static size_t prev_char(const struct textbuf *b, size_t off)
{
	if (off == 0)
		return 0;
	off--;
	while (off > 0 && ((unsigned char)b->s[off] & 0xc0) == 0x80)
		off--;
	return off;
}

static size_t next_char(const struct textbuf *b, size_t off)
{
	if (off >= b->len)
		return b->len;
	off++;
	while (off < b->len && ((unsigned char)b->s[off] & 0xc0) == 0x80)
		off++;
	return off;
}

/* Remove bytes [from, to). */
static void cut(struct textbuf *b, size_t from, size_t to)
{
	memmove(b->s + from, b->s + to, b->len - to + 1);
	b->len -= to - from;
	b->cur = from;
}

void textbuf_backspace(struct textbuf *b)
{
	if (b->cur)
		cut(b, prev_char(b, b->cur), b->cur);
}

void textbuf_delete(struct textbuf *b)
{
	if (b->cur < b->len) {
		size_t keep = b->cur;
		cut(b, b->cur, next_char(b, b->cur));
		b->cur = keep;
	}
}

void textbuf_left(struct textbuf *b) { b->cur = prev_char(b, b->cur); }
void textbuf_right(struct textbuf *b) { b->cur = next_char(b, b->cur); }
void textbuf_home(struct textbuf *b) { b->cur = 0; }
void textbuf_end(struct textbuf *b) { b->cur = b->len; }
void textbuf_kill_to_start(struct textbuf *b) { cut(b, 0, b->cur); }

void textbuf_kill_word(struct textbuf *b)
{
	size_t from = b->cur;
	while (from && b->s[from - 1] == ' ')
		from = prev_char(b, from);
	while (from && b->s[from - 1] != ' ')
		from = prev_char(b, from);
	cut(b, from, b->cur);
}

bool textbuf_key(struct textbuf *b, int key)
{
	switch (key) {
	case KM_FN(KEY_BACKSPACE): textbuf_backspace(b); return true;
	case KM_FN(KEY_DC): textbuf_delete(b); return true;
	case KM_FN(KEY_LEFT): textbuf_left(b); return true;
	case KM_FN(KEY_RIGHT): textbuf_right(b); return true;
	case KM_FN(KEY_HOME): case KM_CTRL('a'): textbuf_home(b); return true;
	case KM_FN(KEY_END): case KM_CTRL('e'): textbuf_end(b); return true;
	case KM_CTRL('u'): textbuf_kill_to_start(b); return true;
	case KM_CTRL('w'): textbuf_kill_word(b); return true;
	default:
		if (!(key & KM_FN_BIT) && key >= 0x20)
			return textbuf_insert(b, (unsigned)key);
		return false;
	}
}
