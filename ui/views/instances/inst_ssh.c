/* inst_ssh.c: x and y on an instance: ssh to it (curses left and come back
 * intact) or copy its ssh command (OSC 52), by the direct address or the
 * service's proxy, asking which when both exist and the config says ask;
 * and `:ssh ROUTE`, `:copy-ssh ROUTE`. */
#include "views/instances/inst_ssh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/config.h"
#include "base/errline.h"
#include "base/util.h"
#include "clip.h"
#include "external.h"
#include "views/instances/inst_dialogs.h"

/* The route question's purposes (a->dlg.purpose). */
enum { ROUTE_SSH = 1, ROUTE_COPY };

/* The answer to "by which route?": ssh or copy by the route chosen. */
static void route_answered(struct app *a, void *owner, enum dlg_result res)
{
	(void)owner;
	if (res == DLG_CANCEL) {
		app_dialog_cancelled(a);
		return;
	}
	if (res != DLG_SUBMIT)
		return;
	long id = a->dlg.instance_id;
	bool run = a->dlg.purpose == ROUTE_SSH;
	enum ssh_route r = a->dlg.focus == 0 ? SSH_DIRECT : SSH_PROXY;
	dialog_close(&a->dlg);
	inst_ssh_route(a, id, r, run);
}

/* Leave curses and ssh to x by route r (direct or proxy); come back intact. */
static void do_ssh(struct app *a, const struct instance *x, enum ssh_route r)
{
	char host[256], target[300], port[16];
	int p;
	if (!instance_ssh_route(x, r, host, sizeof host, &p)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no %sSSH address yet", x->id,
			  r == SSH_PROXY ? "proxy " : r == SSH_DIRECT ? "direct " : "");
		return;
	}
	snprintf(target, sizeof target, "root@%s", host);
	snprintf(port, sizeof port, "%d", p);
	/* ssh_command may carry options ("ssh -o X"): split on spaces, no shell */
	char cmd[512];
	util_strlcpy(cmd, a->cfg->ssh_command && *a->cfg->ssh_command ? a->cfg->ssh_command : "ssh",
		     sizeof cmd);
	char *argv[24];
	int argc = 0;
	char *save = NULL;
	for (char *t = strtok_r(cmd, " \t", &save); t && argc < 20; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc)
		argv[argc++] = (char *)"ssh";
	argv[argc++] = (char *)"-p";
	argv[argc++] = port;
	argv[argc++] = target;
	argv[argc] = NULL;
	char why[ERRLINE_MAX + 1]; /* ssh's last stderr line, sanitised */
	char banner[512];
	snprintf(banner, sizeof banner,
		 "rentop: connecting to instance %ld (%s port %d)... (ssh's own messages follow; "
		 "leaving ssh returns to rentop)",
		 x->id, target, p);
	int st = external_run_err(argv, banner, why, sizeof why);
	a->dirty |= DIRTY_ALL;
	if ((st == 127 || st < 0) && !why[0]) {
		app_toast(a, ROLE_ERROR, 10, "could not run %s", argv[0]);
	} else if (st != 0) {
		/* the toast and the event log keep the reason ssh gave */
		app_toast(a, ROLE_WARNING, 12, "ssh to instance %ld ended with status %d%s%s", x->id,
			  st, why[0] ? ": " : "", why);
		model_event(a->m, EV_WARN, -1, 0, x->id, EVF_QUIET,
			    "ssh to instance %ld ended with status %d%s%s", x->id, st,
			    why[0] ? ": " : "", why);
	} else
		app_toast(a, ROLE_OK, 5, "back from ssh to instance %ld", x->id);
}

/* Copy the ssh command of x by route r (OSC 52). */
static void copy_ssh(struct app *a, const struct instance *x, enum ssh_route r)
{
	char host[256];
	int p;
	if (!instance_ssh_route(x, r, host, sizeof host, &p)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no %sSSH address yet", x->id,
			  r == SSH_PROXY ? "proxy " : r == SSH_DIRECT ? "direct " : "");
		return;
	}
	char cmd[320];
	snprintf(cmd, sizeof cmd, "ssh -p %d root@%s", p, host);
	app_copy(cmd);
	app_toast(a, ROLE_OK, 12, "copied with the terminal clipboard sequence (OSC 52): %s%s", cmd,
		  clip_advice_here());
}

/* x (run) or y (copy): by the configured route, or ask when the instance
 * has both a direct address and the proxy and the config says ask. */
static void ssh_or_ask(struct app *a, const struct instance *x, bool run)
{
	enum ssh_route r;
	if (!instance_ssh_pick(x, a->cfg->ssh_route, &r)) {
		app_toast(a, ROLE_WARNING, 8, "instance %ld has no SSH address yet", x->id);
		return;
	}
	if (r != SSH_ASK) {
		if (run)
			do_ssh(a, x, r);
		else
			copy_ssh(a, x, r);
		return;
	}
	char dh[96], ph[96], text[768], w[160];
	int dp = 0, pp = 0;
	instance_ssh_route(x, SSH_DIRECT, dh, sizeof dh, &dp);
	instance_ssh_route(x, SSH_PROXY, ph, sizeof ph, &pp);
	inst_dialogs_who(x, w, sizeof w);
	snprintf(text, sizeof text,
		 "%s instance %s by which route? direct %s:%d or the service's proxy %s:%d "
		 "(d or p; Esc cancels; ssh = direct or proxy in the config skips this question)",
		 run ? "ssh to" : "Copy the ssh command of", w, dh, dp, ph, pp);
	dialog_choice(&a->dlg, run ? ROUTE_SSH : ROUTE_COPY, x->id, run ? "ssh" : "Copy ssh", text,
		      "Direct", "Proxy");
	app_dialog_own(a, route_answered, NULL);
}

bool inst_ssh_route(struct app *a, long id, enum ssh_route r, bool run)
{
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return false;
	}
	if (r == SSH_ASK)
		ssh_or_ask(a, x, run);
	else if (run)
		do_ssh(a, x, r);
	else
		copy_ssh(a, x, r);
	a->dirty |= DIRTY_ALL;
	return true;
}

void inst_ssh_args(struct app *a, enum action act, const char *args)
{
	const char *word = keymap_action_name(act);
	char route[16], extra[8];
	int n = sscanf(args, "%15s %7s", route, extra);
	enum ssh_route r;
	if (n != 1)
		r = (enum ssh_route)-1;
	else if (strcmp(route, "direct") == 0)
		r = SSH_DIRECT;
	else if (strcmp(route, "proxy") == 0)
		r = SSH_PROXY;
	else if (strcmp(route, "ask") == 0)
		r = SSH_ASK;
	else
		r = (enum ssh_route)-1;
	if ((int)r < 0) {
		app_toast(a, ROLE_ERROR, 8, ":%s takes direct, proxy or ask", word);
		return;
	}
	const struct instance *x = app_selected(a);
	if (!x) {
		app_toast(a, ROLE_WARNING, 8, "no instance selected");
		return;
	}
	inst_ssh_route(a, x->id, r, strcmp(word, "ssh") == 0);
}
