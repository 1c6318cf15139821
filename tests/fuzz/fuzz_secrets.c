/* fuzz_secrets.c: libFuzzer target: any bytes through the env masking, as a
 * flag string, as an onstart script and (parsed as JSON) as a record tree.
 * Besides crashes and sanitizer reports it checks the promises: the result
 * is never NULL, a flag string's "-e NAME=VALUE" value never survives, and
 * a masked tree still encodes as JSON. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/secrets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	char *f = secrets_mask_flags(s);
	char *o = secrets_mask_script(s);
	if (!f || !o)
		abort();
	/* a plain "-e NAME=VALUE" (no quotes, no blanks in the value) is masked */
	if (!strncmp(s, "-e A=", 5) && strlen(s) > 5 && !strpbrk(s + 5, " \t\n\v\f\r'\"\\") &&
	    strcmp(f, "-e A=" SECRETS_MASK))
		abort();
	free(f);
	free(o);
	json_t *v = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	if (v) {
		json_t *w = json_pack("{s:O,s:O,s:O,s:O}", "extra_env", v, "env", v, "onstart", v,
				      "nested", v);
		if (w) {
			secrets_mask_tree(w);
			char *text = json_dumps(w, JSON_ENCODE_ANY);
			if (!text)
				abort();
			free(text);
			json_decref(w);
		}
		json_decref(v);
	}
	free(s);
	return 0;
}
