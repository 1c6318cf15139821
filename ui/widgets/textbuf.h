/* textbuf.h: a one-line UTF-8 edit buffer with a cursor, behind the filter
 * and command prompts and the dialogs' inputs.  Pure, UI thread only. */
#ifndef RENTOP_UI_TEXTBUF_H
#define RENTOP_UI_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

#define TEXTBUF_BYTES 4100 /* a 1,024-character label in UTF-8 fits */

struct textbuf {
	char s[TEXTBUF_BYTES + 1];
	size_t len;     /* bytes */
	size_t cur;     /* byte offset of the cursor, on a character boundary */
	size_t max_chars; /* 0: only the byte limit */
};

void textbuf_set(struct textbuf *b, const char *s);
void textbuf_clear(struct textbuf *b);
/* Insert one character (a code point >= 0x20, not DEL/C1); false if refused. */
bool textbuf_insert(struct textbuf *b, unsigned wc);
void textbuf_backspace(struct textbuf *b);
void textbuf_delete(struct textbuf *b);
void textbuf_left(struct textbuf *b);
void textbuf_right(struct textbuf *b);
void textbuf_home(struct textbuf *b);
void textbuf_end(struct textbuf *b);
void textbuf_kill_to_start(struct textbuf *b); /* C-u */
void textbuf_kill_word(struct textbuf *b);     /* C-w: the word before the cursor */
size_t textbuf_chars(const struct textbuf *b);
/* Apply an editing key (keymap codes); true when the key was an edit. */
bool textbuf_key(struct textbuf *b, int key);

#endif
