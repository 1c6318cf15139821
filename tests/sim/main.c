/* main.c: rentop-sim's entry point.  It owns the command line (see
 * tests/sim/README.md), derives the API keys from the seed unless given,
 * builds the world, starts the HTTP server on 127.0.0.1, prints the startup
 * lines (address, keys, and with --tfa on the TOTP secret) and flushes them,
 * then waits for SIGINT or SIGTERM and shuts down cleanly. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "tfa.h"
#include "world.h"

static void usage(FILE *f)
{
	fputs("usage: rentop-sim [--port N] [--seed N] [--instances N] [--offers N] [--endpoints N]\n"
	      "                  [--speed X] [--clock real|manual] [--v0-list spec|gone] [--dialect spec|live]\n"
	      "                  [--rate-limits on|off] [--tfa on|off|sms] [--fail-rate F]\n"
	      "                  [--api-key K] [--ro-key K] [--account-email E] [--url-max BYTES]\n"
	      "                  [--quiet]\n",
	      f);
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A 64-hex-digit key derived from the seed and a salt. */
static void derive_key(char *out, size_t n, uint64_t seed, uint64_t salt)
{
	size_t p = 0;
	uint64_t x = seed * 31 + salt;
	while (p + 16 < n && p < 64) {
		x = mix(x);
		snprintf(out + p, n - p, "%016llx", (unsigned long long)x);
		p += 16;
	}
}

static bool parse_onoff(const char *v, bool *out)
{
	if (!strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "off"))
		*out = false;
	else
		return false;
	return true;
}

static bool parse_long(const char *v, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

int main(int argc, char **argv)
{
	struct sim_opts o = {
		.port = 0, .seed = 1, .instances = 12, .offers = 200, .endpoints = 3, .speed = 1.0,
		.manual_clock = false, .v0_spec = false, .rate_limits = true, .tfa = false, .quiet = false,
		.fail_rate = 0.1,
	};
	snprintf(o.email, sizeof o.email, "demo@example.com");
	bool port_given = false;
	long url_max = SIM_URL_MAX;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		long n;
		bool okv = true;
		if (!strcmp(a, "--quiet")) {
			o.quiet = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!v) {
			fprintf(stderr, "rentop-sim: %s needs a value\n", a);
			usage(stderr);
			return 2;
		}
		i++;
		if (!strcmp(a, "--port"))
			okv = parse_long(v, 0, 65535, &n) && (o.port = (int)n, port_given = true);
		else if (!strcmp(a, "--seed"))
			okv = parse_long(v, 0, LONG_MAX, &n) && (o.seed = (uint64_t)n, true);
		else if (!strcmp(a, "--instances"))
			okv = parse_long(v, 0, 1000000, &n) && (o.instances = (int)n, true);
		else if (!strcmp(a, "--offers"))
			okv = parse_long(v, 0, 1000000, &n) && (o.offers = (int)n, true);
		else if (!strcmp(a, "--endpoints"))
			okv = parse_long(v, 0, 1000, &n) && (o.endpoints = (int)n, true);
		else if (!strcmp(a, "--url-max"))
			okv = parse_long(v, 256, 1000000, &url_max);
		else if (!strcmp(a, "--speed"))
			okv = (o.speed = strtod(v, NULL)) > 0;
		else if (!strcmp(a, "--fail-rate"))
			okv = (o.fail_rate = strtod(v, NULL)) >= 0 && o.fail_rate <= 1;
		else if (!strcmp(a, "--clock"))
			okv = !strcmp(v, "real") || !strcmp(v, "manual") ? (o.manual_clock = !strcmp(v, "manual"), true) : false;
		else if (!strcmp(a, "--v0-list"))
			okv = !strcmp(v, "spec") || !strcmp(v, "gone") ? (o.v0_spec = !strcmp(v, "spec"), true) : false;
		else if (!strcmp(a, "--dialect"))
			okv = !strcmp(v, "spec") || !strcmp(v, "live") ? (o.live = !strcmp(v, "live"), true) : false;
		else if (!strcmp(a, "--rate-limits"))
			okv = parse_onoff(v, &o.rate_limits);
		else if (!strcmp(a, "--tfa"))
			okv = !strcmp(v, "sms") ? (o.tfa = o.tfa_sms = true) : parse_onoff(v, &o.tfa);
		else if (!strcmp(a, "--api-key"))
			okv = *v && strlen(v) < sizeof o.api_key && snprintf(o.api_key, sizeof o.api_key, "%s", v) > 0;
		else if (!strcmp(a, "--ro-key"))
			okv = *v && strlen(v) < sizeof o.ro_key && snprintf(o.ro_key, sizeof o.ro_key, "%s", v) > 0;
		else if (!strcmp(a, "--account-email"))
			okv = *v && strlen(v) < sizeof o.email && snprintf(o.email, sizeof o.email, "%s", v) > 0;
		else {
			fprintf(stderr, "rentop-sim: unknown option %s\n", a);
			usage(stderr);
			return 2;
		}
		if (!okv) {
			fprintf(stderr, "rentop-sim: bad value for %s\n", a);
			return 2;
		}
	}
	(void)port_given;
	if (!o.api_key[0])
		derive_key(o.api_key, sizeof o.api_key, o.seed, 0xf011);
	if (!o.ro_key[0])
		derive_key(o.ro_key, sizeof o.ro_key, o.seed, 0x7ead);

	/* SIGPIPE ignored (closed client sockets); INT/TERM taken by sigwait. */
	signal(SIGPIPE, SIG_IGN);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	struct simstate st = { .rate_limits = o.rate_limits, .quiet = o.quiet, .url_max = url_max };
	pthread_mutex_init(&st.lock, NULL);
	st.w = world_new(&o);
	st.rl = rl_new();
	st.requests = json_object();
	const char *totp = o.tfa && !o.tfa_sms ? tfa_enable_totp(st.w->tfa, world_now(st.w)) : NULL;
	if (o.tfa_sms)
		tfa_enable_sms(st.w->tfa, world_now(st.w));
	struct server *sv = server_start(&st, o.port);
	if (!sv) {
		fprintf(stderr, "rentop-sim: cannot listen on 127.0.0.1:%d\n", o.port);
		return 1;
	}
	pthread_mutex_lock(&st.lock);
	snprintf(st.w->base_url, sizeof st.w->base_url, "http://127.0.0.1:%d", server_port(sv));
	pthread_mutex_unlock(&st.lock);
	printf("rentop-sim listening on http://127.0.0.1:%d\n", server_port(sv));
	printf("full-access key: %s\n", o.api_key);
	printf("read-only key: %s\n", o.ro_key);
	if (totp)
		printf("totp secret: %s\n", totp);
	fflush(stdout);

	int sig = 0;
	sigwait(&set, &sig);
	server_stop(sv);
	world_free(st.w);
	rl_free(st.rl);
	json_decref(st.requests);
	pthread_mutex_destroy(&st.lock);
	return 0;
}
