/* bench_ui.c: what the dashboard costs on a terminal, measured on a pty.
 *
 * Owns the pty side of the UI benchmarks: it starts rentop under forkpty()
 * with a fixed window size, reads everything rentop writes to the terminal,
 * and measures one of two things:
 *
 *   bench_ui idle SECONDS COLSxROWS RENTOP [ARGS...]
 *       after the first screen has settled, the bytes written to the terminal
 *       and the CPU time (utime+stime from /proc/PID/stat) over SECONDS of
 *       idling, both scaled to one minute, and the resident memory.
 *   bench_ui logs SECONDS COLSxROWS RENTOP [ARGS...]
 *       a busy log pane: once settled, types BENCH_OPEN (":logs NAME\r"),
 *       waits until BENCH_FULL (the pane's "10000 lines") is on the screen,
 *       runs the shell command BENCH_AFTER (the simulator's log rate set to
 *       the rate measured), then the figures of idle over SECONDS: bytes
 *       to the terminal and CPU per minute, and the resident memory.
 *   bench_ui keys COUNT COLSxROWS RENTOP [ARGS...]
 *       key-to-screen latency: COUNT times, send "j" and time until the
 *       output it causes has arrived and gone quiet; median, p95, max, and
 *       the resident memory afterwards.
 *   bench_ui offers COUNT COLSxROWS RENTOP [ARGS...]
 *       the offers view: 3, then BENCH_SEARCHES (default 8) searches typed
 *       as ":offers BENCH_QUERY -o ORDER" (default query "--limit 1000"),
 *       each with a new sort so that the whole table changes; the time
 *       from Enter until the answer's BENCH_EXPECT ("1000 offers") is on
 *       the screen and the output has gone quiet, searches spaced so that
 *       rentop's pacer (10 a minute, a burst of 5) never holds one; then
 *       the key-to-screen latency while scrolling the results: COUNT
 *       presses of j from the top, then PgDn to the end and PgUp back,
 *       each to the last byte of its answer (output quiet) and to the
 *       first byte of it (the first frame that shows the key).
 *   bench_ui merge COUNT COLSxROWS RENTOP [ARGS...]
 *       key-to-screen latency while the instance list is still arriving
 *       and being merged (the output never goes quiet then, so a key's
 *       answer is recognised by its text): COUNT times, "?" opens the help
 *       and the time until its text ("show this help") is on the screen is
 *       taken, then "?" closes it again.  Starts as soon as BENCH_READY has
 *       appeared (no quiet second), and says over how long the keys ran;
 *       then the resident memory.
 *
 * Settling: when BENCH_READY is set, the run waits until that text has
 * appeared in the output (escape sequences stripped), or in the file
 * BENCH_READY_LOG when that is set (rentop's --log: "first sweep complete"),
 * at most BENCH_SETTLE_MAX seconds (default 180), then until the output
 * has been quiet for a second.  BENCH_OUTPUT_AIM overrides the aim printed
 * beside idle's bytes per minute.  rentop's environment (HOME, TERM, the key in
 * VAST_API_KEY) is this program's; tests/bench/run.sh prepares it.  Prints
 * "name: value unit" lines on stdout; BENCH_NAME prefixes the names. */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QUIET_MS 60.0     /* ms of silence that ends the response to a key */
#define KEY_TIMEOUT 3.0   /* s: a key with no output by then counts as lost */
#define SETTLE_MAX 180.0  /* s: the longest wait for the first screen */

static int master = -1;
static pid_t child = -1;
static unsigned long long total_bytes; /* bytes read from the pty */
static char ready_buf[8192];            /* recent visible output, escapes stripped */
static size_t ready_len;
static int esc_state;                   /* 0 text, 1 after ESC, 2 in CSI, 3 in OSC */
static double last_byte_t;              /* monotonic s: when the last byte was read */
static int term_rows = 40;              /* the pty's height */

/* monotonic clock in seconds */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* keep the visible characters of a chunk of output, for the ready check */
static void strip_into_ready(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		switch (esc_state) {
		case 1:
			esc_state = c == '[' ? 2 : c == ']' ? 3 : 0;
			continue;
		case 2:
			if (c >= 0x40 && c <= 0x7e)
				esc_state = 0;
			continue;
		case 3:
			if (c == 0x07 || c == 0x1b)
				esc_state = c == 0x1b ? 1 : 0;
			continue;
		default:
			break;
		}
		if (c == 0x1b) {
			esc_state = 1;
			continue;
		}
		if (c < 0x20)
			continue;
		if (ready_len == sizeof ready_buf - 1) {
			memmove(ready_buf, ready_buf + sizeof ready_buf / 2, sizeof ready_buf / 2 - 1);
			ready_len = sizeof ready_buf / 2 - 1;
		}
		ready_buf[ready_len++] = (char)c;
		ready_buf[ready_len] = '\0';
	}
}

/* read whatever the pty has within timeout_s; returns bytes read, -1 on EOF */
static long pump(double timeout_s)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	int ms = timeout_s <= 0 ? 0 : (int)(timeout_s * 1000.0 + 0.5);
	int r = poll(&pfd, 1, ms);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (r == 0)
		return 0;
	char buf[65536];
	ssize_t n = read(master, buf, sizeof buf);
	if (n <= 0)
		return n < 0 && errno == EINTR ? 0 : -1;
	total_bytes += (unsigned long long)n;
	last_byte_t = now_s();
	strip_into_ready(buf, (size_t)n);
	return (long)n;
}

/* read until the output has been quiet for quiet_s or deadline passes;
 * returns the time of the last byte seen (0 when none), -1 on EOF */
static double drain_until_quiet(double quiet_s, double deadline)
{
	double last = 0, start = now_s();
	for (;;) {
		double t = now_s();
		double since = t - (last > 0 ? last : start);
		if (since >= quiet_s || t >= deadline)
			return last;
		long n = pump(quiet_s - since);
		if (n < 0)
			return -1;
		if (n > 0)
			last = now_s();
	}
}

/* CPU time of the child in seconds (utime + stime) */
static double child_cpu_s(void)
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)child);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	if (!p)
		return -1;
	unsigned long long ut = 0, st = 0;
	/* after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* resident memory of the child in MB (VmRSS) */
static double child_rss_mb(void)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)child);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	double kb = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %lf kB", &kb) == 1)
			break;
	fclose(f);
	return kb / 1024.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Does the file at path hold text? */
static bool file_has(const char *path, const char *text)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[1024];
	bool has = false;
	while (!has && fgets(line, sizeof line, f))
		has = strstr(line, text) != NULL;
	fclose(f);
	return has;
}

/* wait for the first screen: the ready text (if any), then a quiet second
 * (quiet false: not that) */
static int settle(bool quiet)
{
	const char *ready = getenv("BENCH_READY"), *log = getenv("BENCH_READY_LOG");
	double most = getenv("BENCH_SETTLE_MAX") ? strtod(getenv("BENCH_SETTLE_MAX"), NULL) : 0;
	double deadline = now_s() + (most > 0 ? most : SETTLE_MAX);
	if (ready && ready[0] && log && log[0]) {
		/* the text in rentop's debug log (--log FILE) instead */
		while (!file_has(log, ready)) {
			if (now_s() >= deadline) {
				fprintf(stderr, "bench_ui: \"%s\" never appeared in %s\n", ready, log);
				return -1;
			}
			if (pump(0.5) < 0) {
				fprintf(stderr, "bench_ui: rentop exited before its log said it was ready\n");
				return -1;
			}
		}
	} else if (ready && ready[0]) {
		while (!strstr(ready_buf, ready)) {
			if (now_s() >= deadline) {
				fprintf(stderr, "bench_ui: \"%s\" never appeared on the screen\n", ready);
				return -1;
			}
			if (pump(0.5) < 0) {
				fprintf(stderr, "bench_ui: rentop exited before its screen was ready\n");
				return -1;
			}
		}
	} else if (drain_until_quiet(3.0, deadline) < 0) {
		fprintf(stderr, "bench_ui: rentop exited at start\n");
		return -1;
	}
	if (!quiet)
		return 0;
	return drain_until_quiet(1.0, now_s() + 30.0) < 0 ? -1 : 0;
}

/* quit rentop with q, then make sure it is gone */
static void stop_child(void)
{
	if (write(master, "q", 1) != 1)
		kill(child, SIGTERM);
	double deadline = now_s() + 5.0;
	int status;
	while (waitpid(child, &status, WNOHANG) == 0) {
		if (now_s() >= deadline) {
			kill(child, SIGKILL);
			waitpid(child, &status, 0);
			break;
		}
		pump(0.05);
	}
}

/* the figures over secs seconds (what: "idle", "busy") */
static int bench_idle(const char *name, const char *what, double secs)
{
	unsigned long long b0 = total_bytes;
	double c0 = child_cpu_s(), t0 = now_s();
	while (now_s() - t0 < secs)
		if (pump(t0 + secs - now_s()) < 0) {
			fprintf(stderr, "bench_ui: rentop exited while idle\n");
			return -1;
		}
	double c1 = child_cpu_s(), t1 = now_s();
	double span = t1 - t0;
	double bytes_min = (double)(total_bytes - b0) * 60.0 / span;
	double cpu_frac = (c1 - c0) / span;
	bool idle = strcmp(what, "idle") == 0;
	printf("%s_%s_cpu: %.3f %% of a core (%.0f ms CPU per minute over %.0f s%s)\n", name, what,
	       cpu_frac * 100.0, cpu_frac * 60000.0, span, idle ? "; aim < 0.5 %" : "");
	const char *aim = getenv("BENCH_OUTPUT_AIM"); /* the run's own aim, bytes/min */
	if (!aim || !aim[0])
		aim = idle ? "2048" : NULL;
	printf("%s_%s_output: %.0f bytes/min to the terminal", name, what, bytes_min);
	printf(aim ? " (aim < %s)\n" : "%s\n", aim ? aim : "");
	printf("%s_%s_rss: %.1f MB\n", name, what, child_rss_mb());
	return 0;
}

/* open the log pane, wait for it to hold BENCH_FULL, run BENCH_AFTER */
static int logs_fill(void)
{
	const char *open = getenv("BENCH_OPEN"), *full = getenv("BENCH_FULL");
	const char *after = getenv("BENCH_AFTER");
	if (!open || !full) {
		fprintf(stderr, "bench_ui: logs needs BENCH_OPEN and BENCH_FULL\n");
		return -1;
	}
	for (const char *p = open; *p; p++) {
		char c = *p;
		if (write(master, &c, 1) != 1)
			return -1;
		pump(0.02);
	}
	ready_len = 0;
	ready_buf[0] = '\0';
	double deadline = now_s() + SETTLE_MAX;
	while (!strstr(ready_buf, full)) {
		if (now_s() >= deadline) {
			fprintf(stderr, "bench_ui: \"%s\" never appeared on the screen\n", full);
			return -1;
		}
		if (pump(0.5) < 0)
			return -1;
	}
	if (after && after[0] && system(after) != 0)
		fprintf(stderr, "bench_ui: BENCH_AFTER failed\n");
	return 0;
}

/* the key-to-screen latency over count presses of j */
static int bench_keys(const char *name, int count)
{
	double *lat = calloc((size_t)count, sizeof *lat);
	if (!lat)
		return -1;
	int n = 0, lost = 0;
	for (int i = 0; i < count; i++) {
		if (drain_until_quiet(0.2, now_s() + 5.0) < 0)
			break;
		double sent = now_s();
		if (write(master, "j", 1) != 1)
			break;
		double last = drain_until_quiet(QUIET_MS / 1000.0, sent + KEY_TIMEOUT);
		if (last < 0)
			break;
		if (last == 0) {
			/* nothing within QUIET_MS: wait for a late answer, up to KEY_TIMEOUT */
			long r = pump(sent + KEY_TIMEOUT - now_s());
			if (r <= 0) {
				lost++;
				continue;
			}
			last = drain_until_quiet(QUIET_MS / 1000.0, sent + KEY_TIMEOUT);
			if (last <= 0)
				last = now_s();
		}
		lat[n++] = (last - sent) * 1e3;
	}
	if (n == 0) {
		fprintf(stderr, "bench_ui: no key produced output\n");
		free(lat);
		return -1;
	}
	qsort(lat, (size_t)n, sizeof *lat, cmp_double);
	printf("%s_key_to_screen_p50: %.2f ms (%d keys; aim < 16 ms)\n", name, lat[n / 2], n);
	printf("%s_key_to_screen_p95: %.2f ms\n", name, lat[(size_t)((n - 1) * 0.95 + 0.5)]);
	printf("%s_key_to_screen_max: %.2f ms\n", name, lat[n - 1]);
	if (lost)
		printf("%s_keys_without_output: %d\n", name, lost);
	printf("%s_rss: %.1f MB\n", name, child_rss_mb());
	free(lat);
	return 0;
}

/* Send s to rentop. */
static int send_str(const char *s)
{
	size_t n = strlen(s);
	return write(master, s, n) == (ssize_t)n ? 0 : -1;
}

/* Forget the visible text read so far (what comes next is the answer). */
static void ready_clear(void)
{
	ready_len = 0;
	ready_buf[0] = '\0';
}

/* Forget the visible text up to the end of text's first occurrence. */
static void ready_keep_after(const char *text)
{
	const char *p = strstr(ready_buf, text);
	if (!p)
		return;
	p += strlen(text);
	ready_len = strlen(p);
	memmove(ready_buf, p, ready_len + 1);
}

/* Read until text is on the screen (escapes stripped) or deadline passes:
 * 0 once seen, -1 on timeout, -2 when rentop has gone. */
static int await_text(const char *text, double deadline)
{
	while (!strstr(ready_buf, text)) {
		if (now_s() >= deadline)
			return -1;
		if (pump(0.05) < 0)
			return -2;
	}
	return 0;
}

/* Say why a wait for text ended without it. */
static void await_failed(int rc, const char *text, double secs, const char *what)
{
	if (rc == -2)
		fprintf(stderr, "bench_ui: rentop exited while waiting for \"%s\" (%s)\n", text, what);
	else
		fprintf(stderr, "bench_ui: \"%s\" not on the screen after %.0f s (%s)\n", text, secs,
			what);
}

#define SEARCH_WAIT 60.0 /* s: the longest wait for a search's answer */
#define PACE_BURST 5     /* rentop's offer searches sent back to back (OFFERS_PACE_BURST) */
#define PACE_GAP 6.2     /* s: then one a token (10 a minute) comes back, and a margin */
#define SCROLL_MAX 240.0 /* s: the longest the scrolling may take in all */

/* Type one search with sort order `order`, Enter, and time it until the
 * table is drawn: "searching..." (the key was taken and the request went),
 * then the answer's "N offers" in the view's status, then the output
 * quiet for QUIET_MS; the time is the last byte's.  Each search has a sort
 * different from the one before, so the whole table is redrawn.  Returns
 * the ms, -1 when it failed (said on stderr), -2 when rentop's pacer held
 * the search (not a figure: the wait is the published rate, not code). */
static double one_search(const char *q, const char *order, const char *expect)
{
	char line[512];
	snprintf(line, sizeof line, ":offers %s -o %s", q, order);
	if (send_str(line) < 0 || drain_until_quiet(0.3, now_s() + 10) < 0)
		return -1;
	ready_clear();
	double sent = now_s();
	if (send_str("\r") < 0)
		return -1;
	int rc = await_text("searching...", sent + SEARCH_WAIT);
	if (rc == -1 && strstr(ready_buf, "next search in")) {
		/* held by the pacer: let it go and answer, then say so */
		await_text(expect, now_s() + SEARCH_WAIT);
		drain_until_quiet(QUIET_MS / 1000.0, now_s() + 10);
		return -2;
	}
	if (rc < 0) {
		await_failed(rc, "searching...", SEARCH_WAIT, "the search was not sent");
		return -1;
	}
	bool paced = strstr(ready_buf, "next search in") != NULL;
	ready_keep_after("searching...");
	rc = await_text(expect, sent + SEARCH_WAIT);
	if (rc < 0) {
		await_failed(rc, expect, SEARCH_WAIT, "the search's answer");
		return -1;
	}
	double seen = last_byte_t;
	double last = drain_until_quiet(QUIET_MS / 1000.0, now_s() + 10);
	if (last < 0)
		return -1;
	if (last < seen)
		last = seen; /* nothing after the text itself */
	return paced ? -2 : (last - sent) * 1e3;
}

/* One key's latency, ms: send it and take the last byte of what it caused
 * once the output has been quiet QUIET_MS; *first (ms) gets the time to the
 * first byte of it, the first frame that shows the key's effect (a later
 * write of the same answer, a status line or a second frame, counts in the
 * last byte's figure only).  Before sending, the output must have been
 * quiet QUIET_MS too.  -1: no output within KEY_TIMEOUT (a lost key, or one
 * with nothing to redraw); -2: rentop has gone. */
static double key_latency(const char *key, double *first)
{
	*first = -1;
	if (drain_until_quiet(QUIET_MS / 1000.0, now_s() + 5.0) < 0)
		return -2;
	double sent = now_s();
	if (send_str(key) < 0)
		return -2;
	long r = 0;
	while (r == 0 && now_s() < sent + KEY_TIMEOUT)
		r = pump(sent + KEY_TIMEOUT - now_s());
	if (r < 0)
		return -2;
	if (r == 0)
		return -1;
	double ff = last_byte_t;
	double last = drain_until_quiet(QUIET_MS / 1000.0, sent + KEY_TIMEOUT);
	if (last < 0)
		return -2;
	if (last < ff)
		last = ff;
	*first = (ff - sent) * 1e3;
	return (last - sent) * 1e3;
}

/* p50, p95 and max of v[0..n) (sorted here) as "name: value ms" lines. */
static void print_lat(const char *name, const char *what, double *v, int n, const char *note)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	printf("%s_%s_p50: %.2f ms (%d keys%s)\n", name, what, v[n / 2], n, note);
	printf("%s_%s_p95: %.2f ms (aim < 16 ms)\n", name, what, v[(size_t)((n - 1) * 0.95 + 0.5)]);
	printf("%s_%s_max: %.2f ms\n", name, what, v[n - 1]);
}

/* The offers view: BENCH_SEARCHES (default 8) searches of BENCH_QUERY
 * (default "--limit 1000") typed as ":offers QUERY -o ORDER", each with a
 * new sort, timed from Enter to the table drawn (one_search); the first
 * PACE_BURST go back to back, the others PACE_GAP apart so that rentop's
 * pacer never holds one (a held one is not counted and is said).  Then
 * scrolling the 1,000 results: count presses of j from the top (a page of
 * moving the selection, then every key scrolls the table a row), then PgDn
 * to the end and PgUp back, each key's latency as key_latency. */
static int bench_offers(const char *name, int count)
{
	static const char *const orders[] = { "dph+", "dph-", "score-", "reliability-",
					      "gpu_ram-", "inet_down-", "dlperf_per_dphtotal-",
					      "geolocation+" };
	const size_t norders = sizeof orders / sizeof *orders;
	const char *q = getenv("BENCH_QUERY") ? getenv("BENCH_QUERY") : "--limit 1000";
	const char *expect = getenv("BENCH_EXPECT") ? getenv("BENCH_EXPECT") : "1000 offers";
	int searches = getenv("BENCH_SEARCHES") ? atoi(getenv("BENCH_SEARCHES")) : 8;
	if (searches < 1)
		searches = 1;
	if (searches > 64)
		searches = 64;
	if (send_str("3") < 0 || drain_until_quiet(0.5, now_s() + 10) < 0)
		return -1;
	double ms[64];
	int n = 0, held = 0;
	double prev = 0;
	for (int i = 0; i < searches; i++) {
		if (i >= PACE_BURST) {
			double until = prev + PACE_GAP;
			while (now_s() < until)
				if (pump(until - now_s()) < 0)
					return -1;
		}
		prev = now_s();
		double t = one_search(q, orders[(size_t)i % norders], expect);
		if (t == -1)
			return -1;
		if (t == -2)
			held++;
		else
			ms[n++] = t;
	}
	if (n > 0) {
		qsort(ms, (size_t)n, sizeof *ms, cmp_double);
		printf("%s_search_to_table_p50: %.1f ms (%d searches of \"%s\", each a new sort, "
		       "Enter to the table drawn; aim < 50 ms)\n", name, ms[n / 2], n, q);
		printf("%s_search_to_table_p95: %.1f ms\n", name, ms[(size_t)((n - 1) * 0.95 + 0.5)]);
		printf("%s_search_to_table_max: %.1f ms\n", name, ms[n - 1]);
	}
	if (held)
		printf("%s_searches_held_by_the_pacer: %d (not counted)\n", name, held);

	/* scrolling: from the top of the last search's 1,000 results */
	double ff;
	if (key_latency("g", &ff) == -2)
		return -1;
	int cap = count + 200;
	double *all = calloc((size_t)cap, sizeof *all), *pg = calloc(200, sizeof *pg);
	double *first = calloc((size_t)cap, sizeof *first);
	if (!all || !pg || !first) {
		free(all);
		free(pg);
		free(first);
		return -1;
	}
	int na = 0, npg = 0, lost = 0;
	double t0 = now_s();
	bool gone = false, over = false;
	for (int i = 0; i < count && !gone; i++) {
		if (now_s() - t0 > SCROLL_MAX) {
			over = true;
			break;
		}
		double t = key_latency("j", &ff);
		if (t == -2) {
			gone = true;
		} else if (t < 0) {
			lost++;
		} else {
			first[na] = ff;
			all[na++] = t;
		}
	}
	/* PgDn to the end, PgUp back: a page is at least the screen less
	 * the header, tabs, column titles, hints and status (8 rows) */
	static const char *const pages[] = { "\033[6~", "\033[5~" };
	int page = term_rows > 12 ? term_rows - 8 : 4;
	int left = count < 1000 ? 1000 - count : 0; /* rows below the selection */
	for (int dir = 0; dir < 2 && !gone && !over; dir++) {
		int npages = ((dir == 0 ? left : 1000) + page - 1) / page;
		if (npages > 100)
			npages = 100;
		for (int i = 0; i < npages; i++) {
			if (now_s() - t0 > SCROLL_MAX) {
				over = true;
				break;
			}
			double t = key_latency(pages[dir], &ff);
			if (t == -2)
				gone = true;
			if (t < 0)
				break;
			pg[npg++] = t;
			first[na] = ff;
			all[na++] = t;
		}
	}
	if (gone)
		fprintf(stderr, "bench_ui: rentop exited during the scrolling\n");
	if (over)
		fprintf(stderr, "bench_ui: the scrolling was cut after %.0f s\n", SCROLL_MAX);
	if (na > 0) {
		char note[200];
		snprintf(note, sizeof note, ": %d j from the top, %d PgDn/PgUp over the results", na - npg,
			 npg);
		print_lat(name, "scroll_key_to_screen", all, na, note);
		print_lat(name, "scroll_key_to_first_frame", first, na,
			  ": the same keys, to the first byte of the frame they caused");
	}
	if (npg > 0)
		print_lat(name, "scroll_page_key_to_screen", pg, npg, ": PgDn to the end, PgUp back");
	if (lost)
		printf("%s_scroll_keys_without_output: %d\n", name, lost);
	printf("%s_rss: %.1f MB\n", name, child_rss_mb());
	free(all);
	free(pg);
	free(first);
	return gone || na == 0 ? -1 : 0;
}

/* the latency of opening the help while the output keeps coming (a list
 * being merged): until its text is on the screen */
static int bench_merge(const char *name, int count)
{
	static const char mark[] = "Help  (Esc or q closes"; /* the help's title: it opens at the view's own section */
	double *lat = calloc((size_t)count, sizeof *lat);
	if (!lat)
		return -1;
	int n = 0, lost = 0;
	double t_first = now_s();
	for (int i = 0; i < count; i++) {
		pump(0); /* what was already written is not the answer */
		ready_len = 0;
		ready_buf[0] = '\0';
		double sent = now_s();
		if (write(master, "?", 1) != 1)
			break;
		bool seen = false;
		while (!seen && now_s() < sent + KEY_TIMEOUT) {
			if (pump(sent + KEY_TIMEOUT - now_s()) < 0) {
				free(lat);
				fprintf(stderr, "bench_ui: rentop exited during the keys\n");
				return -1;
			}
			seen = strstr(ready_buf, mark) != NULL;
		}
		if (!seen) {
			lost++;
		} else {
			lat[n++] = (now_s() - sent) * 1e3;
		}
		if (write(master, "?", 1) != 1) /* close it again */
			break;
		double until = now_s() + 0.1;
		while (now_s() < until)
			if (pump(until - now_s()) < 0)
				break;
	}
	double span = now_s() - t_first;
	if (n == 0) {
		fprintf(stderr, "bench_ui: the help never appeared\n");
		free(lat);
		return -1;
	}
	qsort(lat, (size_t)n, sizeof *lat, cmp_double);
	printf("%s_merge_key_to_screen_p50: %.2f ms (%d keys over %.1f s while the list is merged)\n",
	       name, lat[n / 2], n, span);
	printf("%s_merge_key_to_screen_p95: %.2f ms (aim < 16 ms)\n", name,
	       lat[(size_t)((n - 1) * 0.95 + 0.5)]);
	printf("%s_merge_key_to_screen_max: %.2f ms\n", name, lat[n - 1]);
	if (lost)
		printf("%s_merge_keys_without_answer: %d\n", name, lost);
	printf("%s_merge_rss: %.1f MB (aim < 64 MB)\n", name, child_rss_mb());
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: bench_ui idle SECONDS|logs SECONDS|keys COUNT|offers COUNT|"
			"merge COUNT COLSxROWS RENTOP [ARGS...]\n");
		return 2;
	}
	const char *mode = argv[1];
	double amount = strtod(argv[2], NULL);
	struct winsize ws = { .ws_col = 120, .ws_row = 40 };
	unsigned cols, rows;
	if (sscanf(argv[3], "%ux%u", &cols, &rows) == 2) {
		ws.ws_col = (unsigned short)cols;
		ws.ws_row = (unsigned short)rows;
		term_rows = (int)rows;
	}
	const char *name = getenv("BENCH_NAME") ? getenv("BENCH_NAME") : "ui";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!getenv("TERM"))
		setenv("TERM", "xterm-256color", 1);

	child = forkpty(&master, NULL, NULL, &ws);
	if (child < 0) {
		perror("bench_ui: forkpty");
		return 1;
	}
	if (child == 0) {
		execv(argv[4], argv + 4);
		perror("bench_ui: exec");
		_exit(127);
	}
	bool merge = strcmp(mode, "merge") == 0;
	int rc = settle(!merge);
	if (rc == 0 && strcmp(mode, "logs") == 0) {
		rc = logs_fill();
		if (rc == 0)
			rc = bench_idle(name, "busy", amount);
	} else if (rc == 0) {
		rc = merge			   ? bench_merge(name, (int)amount)
		     : strcmp(mode, "keys") == 0	   ? bench_keys(name, (int)amount)
		     : strcmp(mode, "offers") == 0 ? bench_offers(name, (int)amount)
						   : bench_idle(name, "idle", amount);
	}
	stop_child();
	close(master);
	return rc == 0 ? 0 : 1;
}
