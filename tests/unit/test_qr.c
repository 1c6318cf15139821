/* test_qr.c: the QR rendering of the 2FA dialog: sizes and fit for both
 * modes, the module matrix read back from the rows (the quiet zone, the
 * finder patterns), half blocks equal to `qrencode -t UTF8` and ASCII equal
 * to `qrencode -t ASCIIi` for the same URIs, and a decoded round trip: the
 * drawn rows turned back into an image that zbarimg must read as the URI.
 * The tool comparisons skip with a message when qrencode or zbarimg is
 * missing (mk/deps.sh installs them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "widgets/qr.h"
#include "base/util.h"

static const char *const uris[] = {
	"otpauth://totp/rentop-sim:demo@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=rentop-sim",
	"otpauth://totp/Vast.ai:a.very.long.address+tag@example.org?secret=ABCDEFGHIJKLMNOPQRSTUVWXYZ234567&issuer=Vast.ai&algorithm=SHA1&digits=6&period=30",
	"x",
};

static void test_sizes_and_fit(void **state)
{
	(void)state;
	struct qr_text q;
	char err[64];
	assert_true(qr_render(uris[0], QR_HALF_BLOCKS, &q, err, sizeof err));
	assert_int_equal((q.modules - 2 * QR_QUIET - 17) % 4, 0); /* 21, 25, 29, ... */
	assert_int_equal(q.cols, q.modules);
	assert_int_equal(q.nrows, (q.modules + 1) / 2);
	int c, l;
	assert_true(qr_size(uris[0], QR_HALF_BLOCKS, &c, &l));
	assert_int_equal(c, q.cols);
	assert_int_equal(l, q.nrows);
	assert_true(qr_fits(&q, q.cols, q.nrows));
	assert_false(qr_fits(&q, q.cols - 1, q.nrows));
	assert_false(qr_fits(&q, q.cols, q.nrows - 1));
	if (setlocale(LC_CTYPE, "C.UTF-8"))
		for (int r = 0; r < q.nrows; r++)
			assert_int_equal(util_strwidth(q.rows[r]), q.cols);
	/* the quiet zone is light all round; the finder's corner is dark */
	for (int i = 0; i < q.modules; i++) {
		for (int k = 0; k < QR_QUIET; k++) {
			assert_false(qr_module_dark(&q, QR_HALF_BLOCKS, i, k));
			assert_false(qr_module_dark(&q, QR_HALF_BLOCKS, k, i));
			assert_false(qr_module_dark(&q, QR_HALF_BLOCKS, i, q.modules - 1 - k));
			assert_false(qr_module_dark(&q, QR_HALF_BLOCKS, q.modules - 1 - k, i));
		}
	}
	assert_true(qr_module_dark(&q, QR_HALF_BLOCKS, QR_QUIET, QR_QUIET));
	assert_false(qr_module_dark(&q, QR_HALF_BLOCKS, QR_QUIET + 1, QR_QUIET + 1));
	assert_true(qr_module_dark(&q, QR_HALF_BLOCKS, QR_QUIET + 2, QR_QUIET + 2));
	struct qr_text a;
	assert_true(qr_render(uris[0], QR_ASCII, &a, err, sizeof err));
	assert_int_equal(a.modules, q.modules);
	assert_int_equal(a.cols, 2 * a.modules);
	assert_int_equal(a.nrows, a.modules);
	/* both modes hold the same matrix */
	for (int y = 0; y < q.modules; y++)
		for (int x = 0; x < q.modules; x++)
			assert_int_equal(qr_module_dark(&q, QR_HALF_BLOCKS, x, y), qr_module_dark(&a, QR_ASCII, x, y));
	for (int r = 0; r < a.nrows; r++)
		assert_int_equal((int)strlen(a.rows[r]), a.cols);
	qr_free(&a);
	assert_null(a.rows);
	/* a TOTP URI fits an 80x24 terminal in half blocks, not in ASCII */
	assert_true(qr_fits(&q, 80, 24));
	qr_free(&q);
	assert_true(qr_size(uris[0], QR_ASCII, &c, &l));
	assert_false(c <= 80 && l <= 24);
	assert_false(qr_render("", QR_ASCII, &q, err, sizeof err));
	char *huge = xmalloc(8000);
	memset(huge, 'a', 7999);
	huge[7999] = '\0';
	assert_false(qr_render(huge, QR_HALF_BLOCKS, &q, err, sizeof err));
	assert_non_null(strstr(err, "too long"));
	assert_false(qr_size(huge, QR_HALF_BLOCKS, &c, &l));
	free(huge);
}

/* The output of cmd (malloc'd), NULL when it fails. */
static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *buf = xmalloc(cap);
	size_t r;
	while ((r = fread(buf + len, 1, cap - len - 1, p)) > 0)
		len += r;
	buf[len] = '\0';
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *joined(const struct qr_text *q)
{
	size_t len = 1;
	for (int r = 0; r < q->nrows; r++)
		len += strlen(q->rows[r]) + 1;
	char *s = xmalloc(len), *p = s;
	for (int r = 0; r < q->nrows; r++) {
		size_t l = strlen(q->rows[r]);
		memcpy(p, q->rows[r], l);
		p += l;
		*p++ = '\n';
	}
	*p = '\0';
	return s;
}

static void compare_with_tool(enum qr_mode mode, const char *type)
{
	if (system("command -v qrencode >/dev/null 2>&1") != 0) {
		fprintf(stderr, "# qrencode (the Debian package qrencode) is missing: comparison skipped\n");
		skip();
	}
	for (size_t i = 0; i < sizeof uris / sizeof *uris; i++) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "qrencode -t %s -l L -m %d '%s'", type, QR_QUIET, uris[i]);
		char *want = run(cmd);
		assert_non_null(want);
		struct qr_text q;
		char err[64];
		assert_true(qr_render(uris[i], mode, &q, err, sizeof err));
		char *got = joined(&q);
		if (strcmp(got, want))
			fail_msg("%s differs from qrencode -t %s:\n%s\n---\n%s", uris[i], type, got, want);
		free(got);
		free(want);
		qr_free(&q);
	}
}

static void test_half_blocks_equal_qrencode(void **state)
{
	(void)state;
	compare_with_tool(QR_HALF_BLOCKS, "UTF8");
}

static void test_ascii_equals_qrencode(void **state)
{
	(void)state;
	compare_with_tool(QR_ASCII, "ASCIIi");
}

/* Write the rendering back as a PBM image (4 px per module; dark = 1). */
static void write_pbm(const struct qr_text *q, enum qr_mode mode, const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	int px = 4, side = q->modules * px;
	fprintf(f, "P1\n%d %d\n", side, side);
	for (int y = 0; y < side; y++) {
		for (int x = 0; x < side; x++)
			fputs(qr_module_dark(q, mode, x / px, y / px) ? "1 " : "0 ", f);
		fputc('\n', f);
	}
	fclose(f);
}

static void test_round_trip_with_zbarimg(void **state)
{
	(void)state;
	if (system("command -v zbarimg >/dev/null 2>&1") != 0) {
		fprintf(stderr, "# zbarimg (zbar-tools) is missing: round trip skipped\n");
		skip();
	}
	char dir[] = "/tmp/rentop-test-qr-XXXXXX";
	assert_non_null(mkdtemp(dir));
	static const enum qr_mode modes[] = {QR_HALF_BLOCKS, QR_ASCII};
	for (size_t m = 0; m < 2; m++) {
		for (size_t i = 0; i < 2; i++) {
			struct qr_text q;
			char err[64], path[128], cmd[256];
			assert_true(qr_render(uris[i], modes[m], &q, err, sizeof err));
			snprintf(path, sizeof path, "%s/q%zu%zu.pbm", dir, m, i);
			write_pbm(&q, modes[m], path);
			qr_free(&q);
			snprintf(cmd, sizeof cmd, "zbarimg --quiet --raw '%s' 2>/dev/null", path);
			char *out = run(cmd);
			assert_non_null(out);
			out[strcspn(out, "\n")] = '\0';
			assert_string_equal(out, uris[i]);
			free(out);
			unlink(path);
		}
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_fit),
		cmocka_unit_test(test_half_blocks_equal_qrencode),
		cmocka_unit_test(test_ascii_equals_qrencode),
		cmocka_unit_test(test_round_trip_with_zbarimg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
