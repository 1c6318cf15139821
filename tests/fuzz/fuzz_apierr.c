/* fuzz_apierr.c: libFuzzer target: the first two bytes pick an HTTP status,
 * the rest is the body.  Checks that the message is terminated, one clean
 * line, never empty for an error, and that apierr_format stays in bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/apierr.h"
#include "net/retry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int status = 100 + (((int)data[0] << 8 | data[1]) % 500);
	struct api_error e;
	if (!apierr_decode(status, (const char *)data + 2, size - 2, &e))
		return 0;
	if (!memchr(e.msg, '\0', sizeof e.msg) || !memchr(e.slug, '\0', sizeof e.slug))
		abort();
	if (!e.msg[0])
		abort();
	for (const unsigned char *p = (const unsigned char *)e.msg; *p; p++)
		if (*p < 0x20 || *p == 0x7F)
			abort();
	char buf[64];
	apierr_format(&e, buf, sizeof buf);
	if (strlen(buf) >= sizeof buf)
		abort();
	(void)retry_decision_for(RK_ACTION, &e, CURLE_OK, true);
	return 0;
}
