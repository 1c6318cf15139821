/* inst_ssh.h: ssh to an instance or copy its ssh command, by the direct
 * route or the service's proxy (x, y, `:ssh ROUTE`, `:copy-ssh ROUTE`).
 * UI thread only. */
#ifndef RENTOP_UI_INST_SSH_H
#define RENTOP_UI_INST_SSH_H

#include <stdbool.h>

#include "keymap.h"
#include "state/model.h"

struct app;

/* ssh (run) or copy the ssh command of instance id by route r (SSH_ASK:
 * the configured way, asking when both exist); false when it is gone. */
bool inst_ssh_route(struct app *a, long id, enum ssh_route r, bool run);
/* `:ssh ROUTE` and `:copy-ssh ROUTE` (act: ssh or copy-ssh; args: direct,
 * proxy or ask): x or y on the selected instance by that route (the
 * action's action_args, keymap.h). */
void inst_ssh_args(struct app *a, enum action act, const char *args);

#endif
