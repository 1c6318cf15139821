/* notify_out.c: a notification's outputs (notify_out.h). */
#include "notify_out.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/argv.h"
#include "base/config.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "clip.h"
#include "external.h"
#include "rules/notify.h"

struct child {
	pid_t pid;
	double deadline;  /* monotonic: SIGTERM then */
	double kill_at;   /* monotonic: SIGKILL then, 0 before the SIGTERM */
};

struct notify_out {
	const struct config *cfg;
	struct model *m;
	struct notify_rules *rules;
	char **argv;      /* notify_command split, NULL: none */
	char prog[64];    /* its program's name, for the failure's words */
	struct child kids[NOTIFY_MAX_RUNNING];
	int nkids;
};

struct notify_out *notify_out_new(const struct config *cfg, struct model *m)
{
	struct notify_out *o = xcalloc(1, sizeof *o);
	o->cfg = cfg;
	o->m = m;
	o->rules = notify_rules_new();
	if (cfg->notify_command && *cfg->notify_command) {
		char err[80];
		o->argv = argv_split(cfg->notify_command, NULL, err, sizeof err); /* checked at load */
		if (o->argv) {
			const char *base = strrchr(o->argv[0], '/');
			char *clean = util_sanitize(base ? base + 1 : o->argv[0]);
			util_strlcpy(o->prog, clean, sizeof o->prog);
			free(clean);
		}
	}
	return o;
}

void notify_out_free(struct notify_out *o)
{
	if (!o)
		return;
	notify_out_tick(o); /* the ended ones reaped; the rest finish on their own */
	argv_free(o->argv);
	notify_rules_free(o->rules);
	free(o);
}

/* Say a command failure once (until a success). */
static void cmd_failed(struct notify_out *o, const char *why)
{
	if (notify_rules_cmd_failed(o->rules))
		model_event(o->m, EV_WARN, -1, 0, 0, 0,
			    "notify_command %s %s (said once: later failures are not, until it succeeds)",
			    o->prog, why);
}

static void run_command(struct notify_out *o, const struct notice *n)
{
	if (o->nkids >= NOTIFY_MAX_RUNNING) {
		cmd_failed(o, "not started: " "the last commands are all still running");
		return;
	}
	int fd[2];
	if (pipe2(fd, O_CLOEXEC) != 0) {
		cmd_failed(o, "not started: no pipe");
		return;
	}
	pid_t pid;
	int rc = external_spawn_bg(&pid, o->argv, fd[0]);
	close(fd[0]);
	if (rc != 0) {
		close(fd[1]);
		char why[160];
		snprintf(why, sizeof why, "cannot be run: %s", strerror(rc));
		cmd_failed(o, why);
		return;
	}
	/* a few hundred bytes into an empty pipe: never blocks; a command that
	 * does not read them, or has ended (EPIPE, SIGPIPE ignored), is fine */
	char *json = notify_json(n);
	fcntl(fd[1], F_SETFL, O_NONBLOCK);
	ssize_t w = write(fd[1], json, strlen(json));
	(void)w;
	free(json);
	close(fd[1]);
	o->kids[o->nkids++] = (struct child){ pid, util_mono() + o->cfg->notify_timeout_s, 0 };
}

bool notify_out_event(struct notify_out *o, const struct event *e)
{
	enum notify_kind k;
	if (!o || !notify_classify(e, &k))
		return false;
	struct notice n;
	/* the model's snapshot, not the display's: that one may be older than
	 * the event (taken after the events, or paused) */
	const struct snapshot *s = e->instance_id ? model_acquire(o->m) : NULL;
	notify_notice(&n, e, k, s ? model_snapshot_find(s, e->instance_id) : NULL);
	model_release(s);
	if (!notify_rules_pass(o->rules, o->cfg->notify_kinds, &n, util_now()))
		return false;
	const char *t = getenv("TMUX");
	bool tmux = t && *t;
	if (o->cfg->notify_out & NOTIFY_OUT_OSC9) {
		char *seq = notify_osc9(&n, tmux);
		clip_term_write(seq, strlen(seq));
		free(seq);
	}
	if (o->cfg->notify_out & NOTIFY_OUT_OSC777) {
		char *seq = notify_osc777(&n, tmux);
		clip_term_write(seq, strlen(seq));
		free(seq);
	}
	if (o->argv)
		run_command(o, &n);
	return (o->cfg->notify_out & NOTIFY_OUT_BELL) && o->cfg->bell;
}

void notify_out_tick(struct notify_out *o)
{
	double now = util_mono();
	for (int i = 0; i < o->nkids;) {
		struct child *c = &o->kids[i];
		int st;
		pid_t r = waitpid(c->pid, &st, WNOHANG);
		if (r == c->pid || (r < 0 && errno == ECHILD)) {
			char why[120];
			if (r < 0)
				why[0] = '\0'; /* reaped elsewhere: its end is not known */
			else if (c->kill_at > 0)
				snprintf(why, sizeof why, "timed out after %.0f s: ended",
					 o->cfg->notify_timeout_s);
			else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
				snprintf(why, sizeof why, "failed: exit status %d", WEXITSTATUS(st));
			else if (WIFSIGNALED(st))
				snprintf(why, sizeof why, "failed: killed by signal %d", WTERMSIG(st));
			else
				why[0] = '\0';
			if (why[0])
				cmd_failed(o, why);
			else if (r == c->pid)
				notify_rules_cmd_ok(o->rules);
			o->kids[i] = o->kids[--o->nkids];
			continue;
		}
		if (c->kill_at == 0 && now >= c->deadline) {
			kill(-c->pid, SIGTERM);
			c->kill_at = now + NOTIFY_KILL_GRACE_S;
		} else if (c->kill_at > 0 && now >= c->kill_at) {
			kill(-c->pid, SIGKILL);
			c->kill_at = now + 3600; /* once */
		}
		i++;
	}
}

double notify_out_next_wake(const struct notify_out *o)
{
	if (!o || !o->nkids)
		return -1;
	double now = util_mono(), at = now + 0.2; /* reaped within 0.2 s of its end */
	for (int i = 0; i < o->nkids; i++) {
		double d = o->kids[i].kill_at > 0 ? o->kids[i].kill_at : o->kids[i].deadline;
		if (d < at)
			at = d;
	}
	return at;
}

int notify_out_running(const struct notify_out *o)
{
	return o ? o->nkids : 0;
}
