/* bench_sim.c: request throughput and latency of rentop-sim on loopback.
 *
 * Owns one measurement: a libcurl easy handle reused for every request (so
 * the connection is kept alive, as a real client's is) sends the same
 * request in a loop, bounded by a count and by a time budget, and the
 * program prints "name: value unit" lines: requests per second, and the
 * median and 95th percentile latency of one request.  Called by
 * tests/bench/run.sh; the simulator is started there.
 *
 *   bench_sim NAME URL [BODY] [MAX_REQUESTS] [MAX_SECONDS]
 *
 * A BODY (JSON) makes it a POST, else a GET.  The bearer key comes from the
 * environment (BENCH_KEY), never from argv; BENCH_AIM, when set, is printed
 * beside the median latency. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* monotonic clock in seconds */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* count the body bytes; the content itself is not needed */
static size_t sink(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	(void)ptr;
	*(size_t *)userdata += size * nmemb;
	return size * nmemb;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* the q-quantile (0..1) of n sorted values */
static double quantile(const double *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_sim NAME URL [BODY] [MAX_REQUESTS] [MAX_SECONDS]\n");
		return 2;
	}
	const char *name = argv[1], *url = argv[2];
	const char *body = argc > 3 && argv[3][0] ? argv[3] : NULL;
	long max_req = argc > 4 ? strtol(argv[4], NULL, 10) : 2000;
	double max_s = argc > 5 ? strtod(argv[5], NULL) : 10.0;
	const char *key = getenv("BENCH_KEY");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (max_req < 1)
		max_req = 1;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	CURL *h = curl_easy_init();
	if (!h)
		return 1;
	struct curl_slist *hdr = NULL;
	char auth[512];
	if (key && key[0]) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", key);
		hdr = curl_slist_append(hdr, auth);
	}
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	size_t bytes = 0;
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &bytes);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	if (body)
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);

	double *lat = calloc((size_t)max_req, sizeof *lat);
	if (!lat)
		return 1;
	size_t n = 0;
	long failures = 0;
	double t0 = now_s();
	/* one warm-up request opens the connection */
	curl_easy_perform(h);
	bytes = 0;
	t0 = now_s();
	while ((long)n < max_req && now_s() - t0 < max_s) {
		double a = now_s();
		CURLcode rc = curl_easy_perform(h);
		long status = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		if (rc != CURLE_OK || status != 200) {
			if (failures++ == 0)
				fprintf(stderr, "bench_sim %s: %s (HTTP %ld)\n", name,
				        rc != CURLE_OK ? curl_easy_strerror(rc) : "bad status", status);
			if (failures > 10)
				break;
			continue;
		}
		lat[n++] = now_s() - a;
	}
	double elapsed = now_s() - t0;
	curl_easy_cleanup(h);
	curl_slist_free_all(hdr);
	curl_global_cleanup();
	if (n == 0) {
		fprintf(stderr, "bench_sim %s: no successful request\n", name);
		free(lat);
		return 1;
	}
	qsort(lat, n, sizeof *lat, cmp_double);
	printf("%s_rps: %.0f req/s (%zu requests in %.2f s, keep-alive)\n", name, (double)n / elapsed, n, elapsed);
	const char *aim = getenv("BENCH_AIM");
	printf("%s_latency_p50: %.3f ms%s%s%s\n", name, quantile(lat, n, 0.5) * 1e3, aim ? " (aim " : "",
	       aim ? aim : "", aim ? ")" : "");
	printf("%s_latency_p95: %.3f ms\n", name, quantile(lat, n, 0.95) * 1e3);
	printf("%s_body: %.1f KB per response\n", name, (double)bytes / (double)n / 1024.0);
	free(lat);
	return failures > 10 ? 1 : 0;
}
