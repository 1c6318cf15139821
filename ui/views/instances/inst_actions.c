/* inst_actions.c: the instance actions of the action table: name, help
 * line, flags, default keys, the precondition on the row's state (so that
 * `s` on a stopped row says why instead of sending a request, and the hint
 * bar shows only what fits the selected row) and the handler, which opens
 * the action's dialog or submits its job through inst_dialogs_action()
 * (ssh and copy-ssh: inst_ssh_route()). */
#include "views/instances/inst_actions.h"

#include <stdbool.h>
#include <stdio.h>

#include "app.h"
#include "views/instances/inst_dialogs.h"
#include "views/instances/inst_ssh.h"
#include "views/instances/inst_ops.h"
#include "views/instances/pane_exec.h"
#include "views/instances/pane_ports.h"
#include "views/offers/launch.h"
#include "state/model.h"

const char *inst_actions_why_not_stop(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	switch (x->state) {
	case IS_STOPPED:
		snprintf(buf, n, "instance %ld is stopped: S starts it", x->id);
		return buf;
	case IS_STOPPING:
		snprintf(buf, n, "instance %ld is already stopping", x->id);
		return buf;
	case IS_OUTBID:
		snprintf(buf, n, "instance %ld is stopped (outbid): b bids for it again", x->id);
		return buf;
	case IS_PROVISIONING: case IS_LOADING: case IS_RUNNING: case IS_STARTING:
	case IS_REBOOTING: case IS_EXITED: case IS_CREATED: case IS_UNKNOWN: case IS_OFFLINE:
	case IS_FROZEN: case IS_OTHER: case IS__COUNT:
		break;
	}
	return NULL;
}

const char *inst_actions_why_not_start(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	switch (x->state) {
	case IS_RUNNING:
		snprintf(buf, n, "instance %ld is running: s stops it, R reboots it", x->id);
		return buf;
	case IS_PROVISIONING: case IS_LOADING: case IS_STARTING: case IS_REBOOTING:
		snprintf(buf, n, "instance %ld is already starting (%s)", x->id,
			 instance_state_name(x->state));
		return buf;
	case IS_STOPPING:
		snprintf(buf, n, "instance %ld is stopping: S starts it once it has stopped", x->id);
		return buf;
	case IS_OUTBID:
		/* a start is refused while a higher bid holds the machine */
		snprintf(buf, n, "instance %ld was outbid: b bids above the winning price to start it",
			 x->id);
		return buf;
	case IS_STOPPED: case IS_EXITED: case IS_CREATED: case IS_UNKNOWN: case IS_OFFLINE:
	case IS_FROZEN: case IS_OTHER: case IS__COUNT:
		break;
	}
	return NULL;
}

const char *inst_actions_why_not_reboot(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	if (x->state == IS_RUNNING)
		return NULL;
	if (x->state == IS_STOPPED)
		snprintf(buf, n, "instance %ld is stopped: S starts it (only a running instance reboots)",
			 x->id);
	else if (x->state == IS_OUTBID)
		snprintf(buf, n, "instance %ld was outbid: b bids for it again (only a running "
			 "instance reboots)", x->id);
	else
		snprintf(buf, n, "instance %ld is %s: only a running instance can be rebooted", x->id,
			 instance_state_name(x->state));
	return buf;
}

const char *inst_actions_why_not_bid(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	if (x->is_bid)
		return NULL;
	snprintf(buf, n, "instance %ld is on-demand: no bid to change", x->id);
	return buf;
}

const char *inst_actions_why_not_ssh(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	if (x->state == IS_STOPPED || x->state == IS_STOPPING) {
		snprintf(buf, n, "instance %ld is %s: S starts it, then x connects", x->id,
			 instance_state_name(x->state));
		return buf;
	}
	if (x->state == IS_OUTBID) {
		snprintf(buf, n, "instance %ld was outbid and is stopped: b bids for it again, then x "
			 "connects", x->id);
		return buf;
	}
	if (x->state == IS_CREATED || x->state == IS_EXITED) {
		/* no container runs: ssh would only time out or be refused */
		snprintf(buf, n, "no ssh: instance %ld %s, so nothing answers on its ssh port (%.110s); "
			 "O rents a replacement, D destroys it", x->id,
			 instance_never_started(x) ? "never started (failed start)"
						   : "has exited (crashed)",
			 x->status_msg[0] ? x->status_msg : "no status message");
		return buf;
	}
	char host[256];
	int port;
	if (!instance_ssh_target(x, host, sizeof host, &port)) {
		snprintf(buf, n, "instance %ld has no SSH address yet", x->id);
		return buf;
	}
	return NULL;
}

static bool op_of(enum action act, enum inst_op *op);

/* The handler of every instance action: on the selected instance. */
static void run(struct app *a, enum action act)
{
	const struct instance *x = app_selected(a);
	enum inst_op op;
	if (!x || !op_of(act, &op))
		return;
	if (op == IOP_SSH || op == IOP_COPY_SSH)
		inst_ssh_route(a, x->id, SSH_ASK, op == IOP_SSH);
	else
		inst_dialogs_action(a, op, x->id);
}

struct inst_action {
	enum inst_op op;
	const char *keys; /* default keys */
	struct action_def def;
};

#define MUT (AF_MUTATES | AF_NEEDS_SEL)
static const struct inst_action table[] = {
	{ IOP_STOP, "s", { "stop", "stop (halts compute billing; disk charges continue)", NULL,
			   MUT | AF_HINT, inst_actions_why_not_stop, run } },
	{ IOP_START, "S", { "start", "start a stopped instance", NULL, MUT | AF_HINT,
			    inst_actions_why_not_start, run } },
	{ IOP_REBOOT, "R", { "reboot", "reboot the instance (confirms: the work on it is interrupted)",
			     NULL, MUT, inst_actions_why_not_reboot, run } },
	{ IOP_LABEL, "l", { "label", "change the label", NULL, MUT, NULL, run } },
	{ IOP_DESTROY, "D", { "destroy", "destroy (stops all billing, deletes the disk)", NULL,
			      MUT | AF_HINT | AF_FIRST_ON_FAILED, NULL, run } },
	{ IOP_BID, "b", { "bid", "change the bid (interruptible instances; an outbid one starts again above the winning bid)", NULL, MUT | AF_FIRST_ON_OUTBID,
			  inst_actions_why_not_bid, run } },
	{ IOP_PREPAY, "$", { "prepay", "prepay credit on the instance", NULL, MUT, NULL, run } },
	{ IOP_SSH, "x", { "ssh", "ssh into the instance", NULL, AF_NEEDS_SEL | AF_HINT,
			  inst_actions_why_not_ssh, run } },
	{ IOP_COPY_SSH, "y", { "copy-ssh", "copy the ssh command to the clipboard (OSC 52; under tmux: set-clipboard on)", NULL,
			       AF_NEEDS_SEL, inst_actions_why_not_ssh, run } },
};
#undef MUT
#define NTABLE (sizeof table / sizeof table[0])

static enum action ids[NTABLE];

static bool op_of(enum action act, enum inst_op *op)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (ids[i] == act) {
			*op = table[i].op;
			return true;
		}
	return false;
}

void inst_actions_keys(struct keymap *km, int ctx)
{
	for (size_t i = 0; i < NTABLE; i++) {
		ids[i] = keymap_action_register(&table[i].def);
		if (table[i].op == IOP_SSH || table[i].op == IOP_COPY_SSH)
			action_set_args(ids[i], inst_ssh_args); /* `:ssh ROUTE` */
		keymap_action_allow(ids[i], ctx);
		keymap_default(km, ctx, table[i].keys, ids[i]);
	}
	pane_ports_keys(km, ctx);
	pane_exec_keys(km, ctx);
	launch_keys(km, ctx); /* `:launch`: any view (AF_GLOBAL) */
	inst_ops_keys(km, ctx);
}
