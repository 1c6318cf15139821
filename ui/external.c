/* external.c: running a program with the terminal (external.h). */
#include "external.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/errline.h"

/* posix_spawnp (no fork of this threaded process): the child starts with
 * every signal at its default and none blocked, and with only descriptors
 * 0-2 open (whatever curl, the resolver or a library left without
 * close-on-exec); fds[i] (-1: ours; FD_NULL: /dev/null) becomes its
 * descriptor i; own_group: in a process group of its own (off the
 * terminal's keys, killable whole).  0 with *pid set, or an errno value. */
#define FD_NULL (-2)
static int spawn_child(pid_t *pid, char *const argv[], const int fds[3], bool own_group,
		       char *const envp[])
{
	posix_spawnattr_t at;
	posix_spawn_file_actions_t fa;
	if (posix_spawnattr_init(&at) != 0)
		return ENOMEM;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		posix_spawnattr_destroy(&at);
		return ENOMEM;
	}
	sigset_t none, dfl;
	sigemptyset(&none);
	sigemptyset(&dfl);
	static const int sigs[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT,
				    SIGQUIT, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&dfl, sigs[i]);
	int rc = posix_spawnattr_setsigmask(&at, &none);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &dfl);
	if (!rc && own_group)
		rc = posix_spawnattr_setpgroup(&at, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
						   (own_group ? POSIX_SPAWN_SETPGROUP : 0));
	for (int i = 0; i < 3 && !rc; i++) {
		if (fds[i] >= 0)
			rc = posix_spawn_file_actions_adddup2(&fa, fds[i], i);
		else if (fds[i] == FD_NULL)
			rc = posix_spawn_file_actions_addopen(&fa, i, "/dev/null", i ? O_WRONLY : O_RDONLY, 0);
	}
	if (!rc)
		rc = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	if (!rc)
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return rc;
}

/* Copy what the child writes to the pipe rd on to our own stderr (the
 * terminal) and into e, until end of file or until the child has ended
 * (a grandchild may keep the pipe open: then only what is buffered is
 * taken).  Returns true when the child was reaped, its status in *st. */
static bool tee_stderr(int rd, pid_t pid, struct errline *e, int *st)
{
	char buf[4096];
	bool reaped = false;
	for (;;) {
		if (!reaped) {
			pid_t r = waitpid(pid, st, WNOHANG);
			if (r == pid)
				reaped = true;
		}
		struct pollfd pfd = { .fd = rd, .events = POLLIN };
		int pr = poll(&pfd, 1, reaped ? 0 : 200);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			if (reaped || pr < 0)
				break;
			continue;
		}
		ssize_t n = read(rd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		errline_feed(e, buf, (size_t)n);
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(STDERR_FILENO, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			off += w;
		}
	}
	return reaped;
}

/* Both entry points: errline NULL gives the child our stderr as it is. */
static int run_external(char *const argv[], const char *banner, char *errline_out,
			size_t errline_n)
{
	def_prog_mode();
	endwin();
	if (banner && *banner) {
		/* the terminal is the child's now: one plain line, then the child */
		fprintf(stdout, "\r\n%s\r\n", banner);
		fflush(stdout);
	}
	struct sigaction ign, old_int, old_quit, old_tstp;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigaction(SIGTSTP, &ign, &old_tstp);
	int status = -1;
	pid_t pid;
	int pfd[2] = { -1, -1 };
	if (errline_out) {
		errline_out[0] = '\0';
		if (pipe2(pfd, O_CLOEXEC) != 0)
			pfd[0] = pfd[1] = -1;
	}
	if (spawn_child(&pid, argv, (const int[3]){ -1, -1, pfd[1] }, false, environ) == 0) {
		int st = 0;
		bool reaped = false;
		if (pfd[0] >= 0) {
			close(pfd[1]);
			pfd[1] = -1;
			struct errline e;
			errline_init(&e);
			reaped = tee_stderr(pfd[0], pid, &e, &st);
			errline_last(&e, errline_out, errline_n);
		}
		while (!reaped && waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	} else {
		status = 127; /* as a shell says "command not found" */
	}
	for (int i = 0; i < 2; i++)
		if (pfd[i] >= 0)
			close(pfd[i]);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTSTP, &old_tstp, NULL);
	reset_prog_mode();
	refresh();
	return status;
}

int external_run(char *const argv[]) { return run_external(argv, NULL, NULL, 0); }

int external_run_err(char *const argv[], const char *banner, char *errline, size_t n)
{
	return run_external(argv, banner, errline, n);
}

int external_spawn_bg(pid_t *pid, char *const argv[], int infd)
{
	/* the environment without the API key (a webhook's curl has no use
	 * for it) */
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 1, sizeof *env);
	if (!env)
		return ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "VAST_API_KEY=", 13) != 0)
			env[k++] = environ[i];
	int rc = spawn_child(pid, argv, (const int[3]){ infd, FD_NULL, FD_NULL }, true, env);
	free(env);
	return rc;
}
