/* testsim.c: start, control and stop a rentop-sim for unit tests that talk
 * to it (see testsim.h). */
#include "testsim.h"

#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

int testsim_start(struct testsim *s, const char *const *args)
{
	const char *bin = getenv("RENTOP_SIM");
	memset(s, 0, sizeof *s);
	if (!bin || access(bin, X_OK) != 0) {
		fprintf(stderr, "# RENTOP_SIM is not set or not executable\n");
		return -1;
	}
	snprintf(s->dir, sizeof s->dir, "/tmp/rentop-testsim-XXXXXX");
	if (!mkdtemp(s->dir))
		return -1;
	char out[128];
	snprintf(out, sizeof out, "%s/sim.out", s->dir);
	const char *argv[40];
	size_t n = 0;
	argv[n++] = bin;
	argv[n++] = "--port";
	argv[n++] = "0";
	argv[n++] = "--quiet";
	for (size_t i = 0; args && args[i] && n < 38; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	s->pid = fork();
	if (s->pid == 0) {
		if (!freopen(out, "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(126);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	for (int i = 0; i < 200 && !(s->key[0] && s->ro_key[0]); i++) {
		usleep(50 * 1000);
		FILE *f = fopen(out, "r");
		char line[512];
		while (f && fgets(line, sizeof line, f)) {
			line[strcspn(line, "\r\n")] = '\0';
			const char *u = strstr(line, "listening on ");
			if (u)
				util_strlcpy(s->url, u + 13, sizeof s->url);
			if (!strncmp(line, "full-access key: ", 17))
				util_strlcpy(s->key, line + 17, sizeof s->key);
			if (!strncmp(line, "read-only key: ", 15))
				util_strlcpy(s->ro_key, line + 15, sizeof s->ro_key);
			if (!strncmp(line, "totp secret: ", 13))
				util_strlcpy(s->totp, line + 13, sizeof s->totp);
		}
		if (f)
			fclose(f);
	}
	s->cfg.base_url = s->url;
	s->cfg.run_url = s->url;
	s->cfg.vast_config_dir = s->dir;
	s->cfg.refresh_s = 10;
	s->cfg.slow_refresh_s = 30;
	s->cfg.connect_timeout_s = 5;
	s->cfg.total_timeout_s = 30;
	return s->url[0] && s->key[0] ? 0 : -1;
}

void testsim_stop(struct testsim *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		int i = 0;
		while (waitpid(s->pid, NULL, WNOHANG) == 0) {
			if (++i == 100)
				kill(s->pid, SIGKILL);
			usleep(20 * 1000);
		}
		s->pid = 0;
	}
	if (s->dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "# cannot remove %s\n", s->dir);
		s->dir[0] = '\0';
	}
}

struct buf {
	char *p;
	size_t n;
};

static size_t sink(char *p, size_t sz, size_t nm, void *arg)
{
	struct buf *b = arg;
	size_t add = sz * nm;
	b->p = xrealloc(b->p, b->n + add + 1);
	memcpy(b->p + b->n, p, add);
	b->n += add;
	b->p[b->n] = '\0';
	return add;
}

static long call(const struct testsim *s, const char *method, const char *path, const char *body,
		 struct buf *out)
{
	char url[512];
	snprintf(url, sizeof url, "%s%s", s->url, path);
	CURL *c = curl_easy_init();
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	if (body)
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
	long st = 0;
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &st);
	curl_easy_cleanup(c);
	return st;
}

long testsim_ctl(const struct testsim *s, const char *what, const char *body)
{
	char path[128];
	snprintf(path, sizeof path, "/__sim/%s", what);
	struct buf b = {0};
	long st = call(s, "POST", path, body ? body : "{}", &b);
	free(b.p);
	return st;
}

json_t *testsim_state(const struct testsim *s)
{
	struct buf b = {0};
	long st = call(s, "GET", "/__sim/state", NULL, &b);
	json_t *j = st == 200 && b.p ? json_loads(b.p, 0, NULL) : NULL;
	free(b.p);
	return j;
}
