/* fuzz_sshkey.c: libFuzzer target: sshkey_parse on any bytes (as one line).
 * It must never crash; an accepted line has a known type, a fingerprint of
 * "SHA256:" and 43 base64 characters, and a comment free of controls. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/sshkey.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	struct sshkey_info k;
	char err[160];
	if (sshkey_parse(line, &k, err, sizeof err)) {
		if (strncmp(k.fingerprint, "SHA256:", 7) || strlen(k.fingerprint) != 7 + 43 || !k.type[0])
			abort();
		for (const unsigned char *p = (const unsigned char *)k.comment; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	free(line);
	return 0;
}
