/* clip.c: the OSC 52 copy's advice: tmux passes the sequence on to the
 * outer terminal only with set-clipboard on; its value is read from tmux
 * with posix_spawnp (no shell, no fork of this threaded process), stdout
 * through a pipe, within a second. */
#include "clip.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

extern char **environ;

const char *clip_advice(bool in_tmux, const char *setting)
{
	if (!in_tmux)
		return "";
	if (!setting)
		return " (under tmux it reaches your terminal only with `set -g set-clipboard on`)";
	if (strcmp(setting, "on") == 0)
		return "";
	if (strcmp(setting, "external") == 0)
		return " (tmux has set-clipboard external: `set -g set-clipboard on` lets rentop's copy through)";
	return " (tmux has set-clipboard off: the copy stays in tmux; `set -g set-clipboard on` lets it through)";
}

bool clip_tmux_setting(char *buf, size_t n)
{
	const char *t = getenv("TMUX");
	if (!t || !*t || n < 2)
		return false;
	int fd[2];
	if (pipe2(fd, O_CLOEXEC) != 0)
		return false;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	char *argv[] = { (char *)"tmux", (char *)"show", (char *)"-gv", (char *)"set-clipboard", NULL };
	pid_t pid;
	int rc = posix_spawnp(&pid, "tmux", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc != 0) {
		close(fd[0]);
		return false;
	}
	size_t got = 0;
	bool eof = false;
	char sink[64];
	struct pollfd p = { .fd = fd[0], .events = POLLIN };
	while (!eof && poll(&p, 1, 1000) > 0) {
		bool room = got + 1 < n;
		ssize_t r = read(fd[0], room ? buf + got : sink, room ? n - 1 - got : sizeof sink);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			eof = true;
		else if (room)
			got += (size_t)r;
	}
	close(fd[0]);
	if (!eof) /* tmux did not answer within a second: do not wait on it */
		kill(pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	buf[got] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 && buf[0];
}

const char *clip_advice_here(void)
{
	const char *t = getenv("TMUX");
	bool in_tmux = t && *t;
	char v[32];
	return clip_advice(in_tmux, in_tmux && clip_tmux_setting(v, sizeof v) ? v : NULL);
}

void clip_term_write(const char *seq, size_t n)
{
	fflush(stdout);
	while (n) {
		ssize_t w = write(STDOUT_FILENO, seq, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* the terminal is gone: nothing to tell */
		seq += w;
		n -= (size_t)w;
	}
}
