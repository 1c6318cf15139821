/* qr.h: a QR code (libqrencode) as rows of text for the 2FA set-up dialog:
 * the TOTP provisioning URI an authenticator app scans off the terminal.
 * Pure: no curses here, so it is unit-testable; the caller draws the rows.
 *
 * Colours: in every mode the glyphs ("ink") are the LIGHT modules and the
 * blanks the dark ones, with a 4-module light quiet zone all round (the
 * convention of `qrencode -t UTF8`).  Draw the rows with one fixed colour
 * pair, foreground white on background black, whatever the theme: the code
 * then shows black modules on white.  Never draw it with the theme's
 * colours or in reverse video.
 *
 * The rows hold the secret (the URI carries it): qr_free() wipes them.
 * Any thread; the result is the caller's. */
#ifndef RENTOP_UI_QR_H
#define RENTOP_UI_QR_H

#include <stdbool.h>
#include <stddef.h>

#define QR_QUIET 4 /* modules of quiet zone on each side */

enum qr_mode {
	QR_HALF_BLOCKS, /* Unicode half blocks: two modules per cell, stacked
			 * (U+2580 upper, U+2584 lower, U+2588 full, space) */
	QR_ASCII,       /* "##" for a light module, "  " for a dark one: one
			 * module per row, two columns per module */
};

struct qr_text {
	char **rows;     /* nrows NUL-terminated UTF-8 rows (malloc'd) */
	int nrows;       /* terminal lines needed */
	int cols;        /* terminal columns needed (every row is this wide) */
	int modules;     /* modules per side, quiet zone included */
};

/* Encode text (mixed segments, no Kanji, error correction level L, the smallest version
 * that holds it, as `qrencode` does by default) and render it.  False with
 * a reason in err when the text cannot be encoded (too long, empty). */
bool qr_render(const char *text, enum qr_mode mode, struct qr_text *out, char *err, size_t n);
/* Wipes and frees the rows; zeroes *q. */
void qr_free(struct qr_text *q);

/* Does the rendering fit a window of cols x lines? */
bool qr_fits(const struct qr_text *q, int cols, int lines);
/* The size a text needs in a mode without keeping a rendering (cols and
 * lines out); false when it cannot be encoded. */
bool qr_size(const char *text, enum qr_mode mode, int *cols, int *lines);

/* The module at (x, y) of a rendering, quiet zone included (0 <= x, y <
 * modules): true for a dark module.  Reads the rows back (used by the tests'
 * round trip; the caller never needs it to draw). */
bool qr_module_dark(const struct qr_text *q, enum qr_mode mode, int x, int y);

#endif
