/* common.c: the contract tests' harness.  It owns the child rentop-sim
 * process of one test file (spawned from $RENTOP_SIM on a free loopback port,
 * its startup lines parsed for URL and keys, killed and reaped at the end) and
 * a small libcurl client that sends one request, collects status, body and
 * Content-Type, and parses the body as JSON when it is JSON. */
#include "common.h"

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <curl/curl.h>

#define STARTUP_TIMEOUT_MS 15000 /* ms to wait for the startup lines */
#define HTTP_TIMEOUT_S 60        /* s, whole transfer */

/* True when args ask for 2FA on, so a "totp secret:" line will follow. */
static bool args_tfa_on(const char *const *args)
{
	for (size_t i = 0; args && args[i]; i++)
		if (!strcmp(args[i], "--tfa") && args[i + 1] && !strcmp(args[i + 1], "on"))
			return true;
	return false;
}

/* Read one '\n'-terminated line from fd into buf, waiting at most until
 * deadline (monotonic ms).  Returns false on EOF, error or timeout. */
static bool read_line(int fd, char *buf, size_t n, int64_t deadline_ms)
{
	size_t len = 0;
	for (;;) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
		if (now >= deadline_ms)
			return false;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, (int)(deadline_ms - now));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		char c;
		ssize_t got = read(fd, &c, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		if (c == '\n') {
			buf[len] = '\0';
			return true;
		}
		if (len + 1 < n)
			buf[len++] = c;
	}
}

/* Copy the text after prefix in line into dst when line starts with prefix. */
static bool take_after(const char *line, const char *prefix, char *dst, size_t n)
{
	size_t pl = strlen(prefix);
	if (strncmp(line, prefix, pl) != 0)
		return false;
	size_t len = strlen(line + pl);
	if (len >= n)
		len = n - 1;
	memcpy(dst, line + pl, len);
	dst[len] = '\0';
	return true;
}

struct simproc *simproc_start(const char *const *args)
{
	const char *bin = getenv("RENTOP_SIM");
	if (!bin || !*bin)
		fail_msg("RENTOP_SIM is not set");
	size_t nargs = 0;
	while (args && args[nargs])
		nargs++;
	const char **argv = calloc(nargs + 6, sizeof *argv);
	if (!argv)
		fail_msg("out of memory");
	size_t k = 0;
	argv[k++] = bin;
	argv[k++] = "--port";
	argv[k++] = "0";
	if (!getenv("RENTOP_SIM_VERBOSE"))
		argv[k++] = "--quiet";
	for (size_t i = 0; i < nargs; i++)
		argv[k++] = args[i];
	argv[k] = NULL;

	int pfd[2];
	if (pipe(pfd) != 0)
		fail_msg("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		fail_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execv(bin, (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", bin, strerror(errno));
		_exit(127);
	}
	free(argv);
	close(pfd[1]);

	struct simproc *s = calloc(1, sizeof *s);
	if (!s)
		fail_msg("out of memory");
	s->pid = (int)pid;
	bool want_totp = args_tfa_on(args);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t deadline = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + STARTUP_TIMEOUT_MS;
	char line[512];
	bool have_url = false, have_full = false, have_ro = false, have_totp = !want_totp;
	while (!(have_url && have_full && have_ro && have_totp)) {
		if (!read_line(pfd[0], line, sizeof line, deadline)) {
			close(pfd[0]);
			simproc_stop(s);
			fail_msg("rentop-sim did not print its startup lines");
		}
		have_url |= take_after(line, "rentop-sim listening on ", s->url, sizeof s->url);
		have_full |= take_after(line, "full-access key: ", s->full_key, sizeof s->full_key);
		have_ro |= take_after(line, "read-only key: ", s->ro_key, sizeof s->ro_key);
		if (want_totp)
			have_totp |= take_after(line, "totp secret: ", s->totp_secret,
						sizeof s->totp_secret);
	}
	/* Nothing else is printed on stdout after these lines (request logs go to
	 * stderr), so the pipe can be closed; the simulator ignores SIGPIPE. */
	close(pfd[0]);
	return s;
}

void simproc_stop(struct simproc *s)
{
	if (!s)
		return;
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		int st;
		bool reaped = false;
		for (int i = 0; i < 300 && !reaped; i++) {
			pid_t r = waitpid(s->pid, &st, WNOHANG);
			if (r == s->pid || (r < 0 && errno != EINTR))
				reaped = true;
			else
				usleep(10000);
		}
		if (!reaped) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &st, 0);
		}
	}
	free(s);
}

struct buf {
	char *p;
	size_t len;
};

/* libcurl write callback: append to a growing buffer. */
static size_t on_data(char *data, size_t size, size_t nmemb, void *ud)
{
	struct buf *b = ud;
	size_t n = size * nmemb;
	char *q = realloc(b->p, b->len + n + 1);
	if (!q)
		return 0;
	b->p = q;
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return n;
}

static void global_init(void)
{
	static bool done;
	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = true;
	}
}

struct http_result http_call(const struct simproc *s, const char *method, const char *path,
			     const char *bearer, const char *body)
{
	global_init();
	struct http_result r = { 0 };
	struct buf b = { 0 };
	size_t ulen = strlen(s->url) + strlen(path) + 1; /* long query strings too (414 tests) */
	char *url = malloc(ulen);
	if (!url)
		abort();
	snprintf(url, ulen, "%s%s", s->url, path);
	CURL *c = curl_easy_init();
	if (!c)
		fail_msg("curl_easy_init failed");
	struct curl_slist *hdr = NULL;
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	hdr = curl_slist_append(hdr, "Expect:");
	char auth[512];
	if (bearer) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", bearer);
		hdr = curl_slist_append(hdr, auth);
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)HTTP_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	bool is_get = !strcmp(method, "GET");
	const char *send = body;
	if (!send && !is_get)
		send = "{}";
	if (send) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, send);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(send));
	}
	CURLcode rc = curl_easy_perform(c);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
		char *ct = NULL;
		curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ct);
		if (ct)
			snprintf(r.content_type, sizeof r.content_type, "%s", ct);
	} else {
		r.status = 0;
	}
	curl_slist_free_all(hdr);
	curl_easy_cleanup(c);
	free(url);
	if (!b.p) {
		b.p = calloc(1, 1);
		if (!b.p)
			fail_msg("out of memory");
	}
	r.body = b.p;
	r.len = b.len;
	if (rc == CURLE_OK && r.len > 0)
		r.json = json_loadb(r.body, r.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	return r;
}

void http_result_free(struct http_result *r)
{
	if (!r)
		return;
	free(r->body);
	r->body = NULL;
	json_decref(r->json);
	r->json = NULL;
}

struct http_result sim_ctl(const struct simproc *s, const char *what, const char *body)
{
	char path[256];
	snprintf(path, sizeof path, "/__sim/%s", what);
	return http_call(s, "POST", path, NULL, body ? body : "{}");
}
