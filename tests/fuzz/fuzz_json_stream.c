/* fuzz_json_stream.c: libFuzzer target: any bytes through the streaming
 * mappers (json_stream.c) and, differentially, through the jansson path
 * (json_loadb + json_map_instances, json_map_offers): read as an instance
 * page, the verdicts (not JSON, not a list, a list), next_token,
 * total_instances and every field of every record must agree; read as an
 * offer search answer, the verdicts and every field of every offer; any
 * difference aborts with it on stderr. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "instcmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[600];
	size_t mapped;
	if (!instcmp_page((const char *)data, size, why, sizeof why, &mapped)) {
		fprintf(stderr, "json_stream and json_map differ: %s\n", why);
		abort();
	}
	if (!instcmp_offers((const char *)data, size, why, sizeof why, &mapped)) {
		fprintf(stderr, "json_stream and json_map differ on offers: %s\n", why);
		abort();
	}
	return 0;
}
