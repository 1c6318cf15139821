/* inst_ssh.c: x and y on an instance: ssh to it (curses left and come back
 * intact) or copy its ssh command (OSC 52), by the direct address or the
 * service's proxy, asking which when both exist and the config says ask;
 * and `:ssh ROUTE`, `:copy-ssh ROUTE`. */
#include "views/instances/inst_ssh.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/config.h"
#include "base/errline.h"
#include "base/util.h"
#include "clip.h"
#include "external.h"
#include "rules/svc.h"
#include "keymap.h"
#include "views/instances/inst_dialogs.h"

/* The -L forwards of the ssh being asked about or run (container ports,
 * each to the same local port): set by each entry point (the config's
 * ssh_forwards the instance maps, or the port chosen in the ports list),
 * kept across the route question. */
static int fw_ports[CONFIG_FORWARDS_MAX];
static size_t fw_n;
/* The route question's checklist: every HTTP port the instance maps (its
 * container port), which are ticked (preselected from fw_ports), the box
 * Up/Down is on. */
static int ck_ports[CONFIG_FORWARDS_MAX];
static bool ck_on[CONFIG_FORWARDS_MAX];
static size_t ck_n, ck_cursor;
static char ck_question[300]; /* the question before the checklist */

static void ssh_go(struct app *a, const struct instance *x, enum ssh_route r, bool run);

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
	fw_n = 0; /* the ticked ports, in the list's order */
	for (size_t i = 0; i < ck_n; i++)
		if (ck_on[i])
			fw_ports[fw_n++] = ck_ports[i];
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return;
	}
	ssh_go(a, x, r, run);
	a->dirty |= DIRTY_ALL;
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
	char *argv[24 + 2 * CONFIG_FORWARDS_MAX];
	char fwd[CONFIG_FORWARDS_MAX][32];
	int argc = 0;
	char *save = NULL;
	for (char *t = strtok_r(cmd, " \t", &save); t && argc < 20; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc)
		argv[argc++] = (char *)"ssh";
	argv[argc++] = (char *)"-p";
	argv[argc++] = port;
	argv[argc++] = target;
	for (size_t i = 0; i < fw_n; i++) {
		snprintf(fwd[i], sizeof fwd[i], "%d:localhost:%d", fw_ports[i], fw_ports[i]);
		argv[argc++] = (char *)"-L";
		argv[argc++] = fwd[i];
	}
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
	char cmd[320 + 32 * CONFIG_FORWARDS_MAX];
	svc_ssh_command(host, p, fw_ports, fw_n, cmd, sizeof cmd);
	app_copy(cmd);
	app_toast(a, ROLE_OK, 12, "copied with the terminal clipboard sequence (OSC 52): %s%s", cmd,
		  clip_advice_here());
}

void inst_ssh_checklist(const int *ports, const bool *on, size_t n, size_t cursor, char *buf,
			size_t len)
{
	if (!n) {
		snprintf(buf, len, "(no HTTP port to forward)");
		return;
	}
	snprintf(buf, len, "-L forwards (Up/Down, Space toggles; y copies the command):");
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(buf);
		if (l + 1 >= len)
			break;
		snprintf(buf + l, len - l, " %s[%c] %d", i == cursor ? ">" : "", on[i] ? 'x' : ' ', ports[i]);
	}
}

/* The question's text again, after a tick or a move. */
static void route_text(struct app *a)
{
	char ck[200];
	inst_ssh_checklist(ck_ports, ck_on, ck_n, ck_cursor, ck, sizeof ck);
	snprintf(a->dlg.text, sizeof a->dlg.text, "%s %s", ck_question, ck);
}

/* Keys of the route question before the dialog's: Up/Down move in the
 * checklist, Space ticks, y copies the command as ticked (x's question). */
static bool route_key(struct app *a, void *owner, int key)
{
	(void)owner;
	if (key == KM_FN(KEY_UP) || key == KM_FN(KEY_DOWN)) {
		if (ck_n)
			ck_cursor = (ck_cursor + (key == KM_FN(KEY_UP) ? ck_n - 1 : 1)) % ck_n;
	} else if (key == ' ') {
		if (ck_n)
			ck_on[ck_cursor] = !ck_on[ck_cursor];
	} else if (key == 'y' && a->dlg.purpose == ROUTE_SSH) {
		a->dlg.purpose = ROUTE_COPY;
		app_dialog_result(a, DLG_SUBMIT);
		return true;
	} else {
		return false;
	}
	route_text(a);
	return true;
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
		ssh_go(a, x, r, run);
		return;
	}
	char dh[96], ph[96], w[160];
	int dp = 0, pp = 0;
	instance_ssh_route(x, SSH_DIRECT, dh, sizeof dh, &dp);
	instance_ssh_route(x, SSH_PROXY, ph, sizeof ph, &pp);
	inst_dialogs_who(x, w, sizeof w);
	/* every HTTP port, those of the forwards asked for ticked */
	ck_n = svc_forward_ports(x, ck_ports, CONFIG_FORWARDS_MAX);
	ck_cursor = 0;
	for (size_t i = 0; i < ck_n; i++) {
		ck_on[i] = false;
		for (size_t j = 0; j < fw_n; j++)
			ck_on[i] |= ck_ports[i] == fw_ports[j];
	}
	snprintf(ck_question, sizeof ck_question,
		 "%s instance %.80s by which route? direct %.48s:%d or the service's proxy %.48s:%d "
		 "(d or p; Esc cancels).",
		 run ? "ssh to" : "Copy the ssh command of", w, dh, dp, ph, pp);
	dialog_choice(&a->dlg, run ? ROUTE_SSH : ROUTE_COPY, x->id, run ? "ssh" : "Copy ssh", "",
		      "Direct", "Proxy");
	route_text(a);
	app_dialog_own(a, route_answered, NULL);
	app_dialog_keys(a, route_key);
}

static void ssh_go(struct app *a, const struct instance *x, enum ssh_route r, bool run)
{
	if (r == SSH_ASK)
		ssh_or_ask(a, x, run);
	else if (run)
		do_ssh(a, x, r);
	else
		copy_ssh(a, x, r);
}

bool inst_ssh_route(struct app *a, long id, enum ssh_route r, bool run)
{
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return false;
	}
	fw_n = svc_forwards(x, a->cfg->ssh_forwards, a->cfg->nssh_forwards, fw_ports,
			    CONFIG_FORWARDS_MAX);
	ssh_go(a, x, r, run);
	a->dirty |= DIRTY_ALL;
	return true;
}

bool inst_ssh_forward(struct app *a, long id, int container_port, bool run)
{
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return false;
	}
	fw_n = svc_forwards(x, &container_port, 1, fw_ports, CONFIG_FORWARDS_MAX);
	ssh_go(a, x, SSH_ASK, run);
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
