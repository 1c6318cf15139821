/* fuzz_sanitize.c: libFuzzer target: util_sanitize_n and util_sanitize_ml on
 * any bytes.  The output must be valid UTF-8 with no C0/C1 control (except
 * '\n' in the multi-line form), no DEL, no ESC, no bidi override and no
 * invisible character left raw (each is shown as "<U+XXXX>": at most 8 bytes
 * for the 2 of U+00AD, so never over 4 times the input). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort unless s is clean UTF-8 as described above. */
static void check(const char *s, size_t inlen, int ml)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	if (len > 4 * inlen)
		abort();
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t n;
		if (c < 0x80) {
			cp = c;
			n = 1;
		} else if (c >= 0xC2 && c <= 0xDF) {
			cp = c & 0x1F;
			n = 2;
		} else if (c >= 0xE0 && c <= 0xEF) {
			cp = c & 0x0F;
			n = 3;
		} else if (c >= 0xF0 && c <= 0xF4) {
			cp = c & 0x07;
			n = 4;
		} else {
			abort();
		}
		if (i + n > len)
			abort();
		for (size_t k = 1; k < n; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				abort();
			cp = cp << 6 | (p[i + k] & 0x3F);
		}
		if ((cp < 0x20 && !(ml && cp == '\n')) || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
		    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
		    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF || util_cp_invisible(cp))
			abort();
		i += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = util_sanitize_n((const char *)data, size);
	check(a, size, 0);
	free(a);
	char *b = util_sanitize_ml((const char *)data, size);
	check(b, size, 1);
	free(b);
	return 0;
}
