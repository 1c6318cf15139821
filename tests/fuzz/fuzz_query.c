/* fuzz_query.c: libFuzzer target: any text through query_parse (with and
 * without defaults) and query_search_body.  Checks that an error points
 * inside the text and that a success is a JSON object. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	size_t len = strlen(text);
	for (int d = 0; d < 2; d++) {
		struct query_error err;
		json_t *q = query_parse(text, d, &err);
		if (q) {
			if (!json_is_object(q))
				abort();
			json_decref(q);
		} else if (err.pos < 0 || (size_t)err.pos + (size_t)err.len > len || !err.msg[0]) {
			abort();
		}
	}
	struct query_error err;
	json_t *b = query_search_body(text, text, text, 10, 0, &err);
	json_decref(b);
	free(text);
	return 0;
}
