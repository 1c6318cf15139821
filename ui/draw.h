/* draw.h: the one way text reaches the screen.  Refuses control characters
 * (defence in depth: model text is already sanitised), clips by display
 * width (wide characters never straddle the edge) and draws boxes with
 * Unicode or ASCII lines.  UI thread only, on stdscr. */
#ifndef RENTOP_UI_DRAW_H
#define RENTOP_UI_DRAW_H

#include <stdbool.h>

/* Line drawing: ASCII (+ - |) instead of Unicode. */
void draw_set_ascii(bool ascii);
bool draw_ascii(void);
/* Draw s at (y, x) in at most maxw cells with attributes attr (a
 * theme_attr()); returns the cells used. */
int draw_text(int y, int x, int maxw, const char *s, unsigned long attr);
/* Fill w cells with spaces. */
void draw_fill(int y, int x, int w, unsigned long attr);
/* Text padded with spaces (or right-aligned) to exactly w cells. */
void draw_cell(int y, int x, int w, const char *s, bool right, unsigned long attr);
/* A box with an optional title in its top edge. */
void draw_box(int y, int x, int h, int w, const char *title, unsigned long attr);
/* Display width of s as draw_text() would draw it. */
int draw_width(const char *s);

/* Word-wrap s into lines of at most w cells; returns the number of lines
 * (at most max), each copied into out[i] (cap bytes). */
int draw_wrap(const char *s, int w, char (*out)[256], int max);

#endif
