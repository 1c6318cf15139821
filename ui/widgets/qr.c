/* qr.c: owns the QR rendering of the 2FA dialog: libqrencode's module
 * matrix, framed by the quiet zone, turned into rows of Unicode half blocks
 * or ASCII pairs, the size those need, and reading a module back from the
 * rows.  No curses. */
#include "widgets/qr.h"

#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define UPPER "\xe2\x96\x80" /* U+2580 upper half block */
#define LOWER "\xe2\x96\x84" /* U+2584 lower half block */
#define FULL "\xe2\x96\x88"  /* U+2588 full block */

static QRcode *encode(const char *text, char *err, size_t n)
{
	if (!text || !*text) {
		snprintf(err, n, "nothing to encode");
		return NULL;
	}
	/* as the qrencode tool: mixed segments, no Kanji, case-sensitive */
	QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
	if (!qr)
		snprintf(err, n, "the text is too long for a QR code");
	return qr;
}

/* Light module at (x, y) of the framed matrix? Outside the matrix: light
 * (the quiet zone goes on). */
static bool light(const QRcode *qr, int x, int y)
{
	int mx = x - QR_QUIET, my = y - QR_QUIET;
	if (mx < 0 || my < 0 || mx >= qr->width || my >= qr->width)
		return true;
	return !(qr->data[my * qr->width + mx] & 1);
}

static void dims(int modules, enum qr_mode mode, int *cols, int *lines)
{
	switch (mode) {
	case QR_HALF_BLOCKS:
		*cols = modules;
		*lines = (modules + 1) / 2;
		break;
	case QR_ASCII:
		*cols = 2 * modules;
		*lines = modules;
		break;
	}
}

bool qr_render(const char *text, enum qr_mode mode, struct qr_text *out, char *err, size_t n)
{
	memset(out, 0, sizeof *out);
	QRcode *qr = encode(text, err, n);
	if (!qr)
		return false;
	int m = qr->width + 2 * QR_QUIET;
	out->modules = m;
	dims(m, mode, &out->cols, &out->nrows);
	out->rows = xcalloc((size_t)out->nrows, sizeof *out->rows);
	for (int r = 0; r < out->nrows; r++) {
		/* at most 3 bytes per column (half blocks) or 2 (ASCII) */
		char *row = xmalloc((size_t)m * 3 + 1), *p = row;
		for (int x = 0; x < m; x++) {
			switch (mode) {
			case QR_HALF_BLOCKS: {
				/* the bottom half of the last line, past the frame, stays
				 * light (qrencode -t UTF8 does the same) */
				bool top = light(qr, x, 2 * r), bot = 2 * r + 1 >= m || light(qr, x, 2 * r + 1);
				const char *g = top && bot ? FULL : top ? UPPER : bot ? LOWER : " ";
				size_t gl = strlen(g);
				memcpy(p, g, gl);
				p += gl;
				break;
			}
			case QR_ASCII:
				memcpy(p, light(qr, x, r) ? "##" : "  ", 2);
				p += 2;
				break;
			}
		}
		*p = '\0';
		out->rows[r] = row;
	}
	QRcode_free(qr);
	return true;
}

void qr_free(struct qr_text *q)
{
	for (int r = 0; q->rows && r < q->nrows; r++) {
		explicit_bzero(q->rows[r], strlen(q->rows[r]));
		free(q->rows[r]);
	}
	free(q->rows);
	memset(q, 0, sizeof *q);
}

bool qr_fits(const struct qr_text *q, int cols, int lines)
{
	return q->cols <= cols && q->nrows <= lines;
}

bool qr_size(const char *text, enum qr_mode mode, int *cols, int *lines)
{
	char err[64];
	QRcode *qr = encode(text, err, sizeof err);
	if (!qr)
		return false;
	dims(qr->width + 2 * QR_QUIET, mode, cols, lines);
	QRcode_free(qr);
	return true;
}

bool qr_module_dark(const struct qr_text *q, enum qr_mode mode, int x, int y)
{
	if (x < 0 || y < 0 || x >= q->modules || y >= q->modules)
		return false;
	switch (mode) {
	case QR_HALF_BLOCKS: {
		const char *p = q->rows[y / 2];
		for (int i = 0; i < x; i++) /* a glyph is 1 (space) or 3 bytes */
			p += *p == ' ' ? 1 : 3;
		bool top = !strncmp(p, FULL, 3) || !strncmp(p, UPPER, 3);
		bool bot = !strncmp(p, FULL, 3) || !strncmp(p, LOWER, 3);
		return !(y % 2 ? bot : top);
	}
	case QR_ASCII:
		return q->rows[y][2 * x] != '#';
	}
	return false;
}
