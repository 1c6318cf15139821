/* draw.c: low-level drawing on stdscr: clipped, control-free text, padded
 * cells, filled spans and boxes (Unicode or ASCII). */
#include "draw.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <string.h>
#include <wchar.h>

#include "base/util.h"

static bool ascii_lines;

void draw_set_ascii(bool ascii) { ascii_lines = ascii; }
bool draw_ascii(void) { return ascii_lines; }

/* Walk s; for each printable character call out (when not NULL) while it
 * fits in maxw cells.  Returns the cells used. */
static int walk(const char *s, int maxw, int y, int x, bool put, attr_t attr)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t left = s ? strlen(s) : 0;
	int used = 0;
	while (left && used < maxw) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, left, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof st);
			wc = L'?';
			k = 1;
		}
		s += k;
		left -= k;
		/* refuse C0, DEL, C1 and anything that is not printable */
		if (wc < 0x20 || wc == 0x7f || (wc >= 0x80 && wc < 0xa0))
			continue;
		int w = wcwidth(wc);
		if (w < 0)
			continue;
		if (w == 0) {
			/* combining marks: attach to what was drawn */
			if (put && used > 0) {
				cchar_t cc;
				wchar_t one[2] = { wc, 0 };
				if (setcchar(&cc, one, attr & ~A_COLOR, (short)PAIR_NUMBER(attr),
					     NULL) == OK)
					wadd_wch(stdscr, &cc);
			}
			continue;
		}
		if (used + w > maxw)
			break;
		if (put) {
			cchar_t cc;
			wchar_t one[2] = { wc, 0 };
			if (setcchar(&cc, one, attr & ~A_COLOR, (short)PAIR_NUMBER(attr), NULL) == OK)
				mvadd_wch(y, x + used, &cc);
		}
		used += w;
	}
	return used;
}

int draw_text(int y, int x, int maxw, const char *s, unsigned long attr)
{
	if (maxw <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + maxw > COLS)
		maxw = COLS - x;
	return walk(s, maxw, y, x, true, (attr_t)attr);
}

int draw_width(const char *s) { return walk(s, 1 << 30, 0, 0, false, 0); }

void draw_fill(int y, int x, int w, unsigned long attr)
{
	if (y < 0 || y >= LINES || x < 0 || x >= COLS || w <= 0)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attr_t a = (attr_t)attr;
	short pair = (short)PAIR_NUMBER(a);
	cchar_t sp;
	setcchar(&sp, L" ", a & ~A_COLOR, pair, NULL);
	mvhline_set(y, x, &sp, w);
}

void draw_cell(int y, int x, int w, const char *s, bool right, unsigned long attr)
{
	if (w <= 0)
		return;
	draw_fill(y, x, w, attr);
	if (w >= 2 && util_strwidth(s) > w) { /* cut: say so with an ellipsis */
		draw_text(y, x, w - 1, s, attr);
		draw_text(y, x + w - 1, 1, ascii_lines ? "~" : "\u2026", attr);
		return;
	}
	int tw = walk(s, w, 0, 0, false, 0);
	draw_text(y, right ? x + w - tw : x, w, s, attr);
}

/* One line-drawing cell. */
static void line_char(int y, int x, const cchar_t *uni, char asc, attr_t attr)
{
	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return;
	if (ascii_lines) {
		mvaddch(y, x, (chtype)(unsigned char)asc | attr);
	} else {
		wchar_t wch[CCHARW_MAX + 1] = { 0 };
		attr_t oa = 0;
		short op = 0;
		cchar_t c;
		if (getcchar(uni, wch, &oa, &op, NULL) != OK)
			return;
		if (setcchar(&c, wch, (oa & A_ALTCHARSET) | (attr & ~A_COLOR), (short)PAIR_NUMBER(attr),
			     NULL) == OK)
			mvadd_wch(y, x, &c);
	}
}

void draw_box(int y, int x, int h, int w, const char *title, unsigned long attr)
{
	if (h < 2 || w < 2)
		return;
	attr_t a = (attr_t)attr;
	for (int i = 1; i < w - 1; i++) {
		line_char(y, x + i, WACS_HLINE, '-', a);
		line_char(y + h - 1, x + i, WACS_HLINE, '-', a);
	}
	for (int j = 1; j < h - 1; j++) {
		line_char(y + j, x, WACS_VLINE, '|', a);
		line_char(y + j, x + w - 1, WACS_VLINE, '|', a);
	}
	line_char(y, x, WACS_ULCORNER, '+', a);
	line_char(y, x + w - 1, WACS_URCORNER, '+', a);
	line_char(y + h - 1, x, WACS_LLCORNER, '+', a);
	line_char(y + h - 1, x + w - 1, WACS_LRCORNER, '+', a);
	if (title && *title && w > 6) {
		draw_text(y, x + 2, 1, " ", a);
		int tw = draw_text(y, x + 3, w - 6, title, a | A_BOLD);
		draw_text(y, x + 3 + tw, 1, " ", a);
	}
}

int draw_wrap(const char *s, int w, char (*out)[256], int max)
{
	int n = 0;
	if (w < 1)
		w = 1;
	char line[256] = "";
	int lw = 0;
	const char *p = s;
	while (*p && n < max) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t wl = strcspn(p, " ");
		char word[256];
		if (wl >= sizeof word)
			wl = sizeof word - 1;
		memcpy(word, p, wl);
		word[wl] = '\0';
		p += strcspn(p, " ");
		int ww = util_strwidth(word);
		if (lw && lw + 1 + ww > w) {
			util_strlcpy(out[n++], line, 256);
			line[0] = '\0';
			lw = 0;
			if (n >= max)
				break;
		}
		size_t len = strlen(line);
		if (lw && len + 1 < sizeof line) {
			line[len++] = ' ';
			line[len] = '\0';
		}
		util_strlcpy(line + len, word, sizeof line - len);
		lw += (lw ? 1 : 0) + ww;
	}
	if (lw && n < max)
		util_strlcpy(out[n++], line, 256);
	return n;
}
