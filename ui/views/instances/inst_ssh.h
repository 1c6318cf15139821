/* inst_ssh.h: ssh to an instance or copy its ssh command, by the direct
 * route or the service's proxy (x, y, `:ssh ROUTE`, `:copy-ssh ROUTE`).
 * UI thread only. */
#ifndef RENTOP_UI_INST_SSH_H
#define RENTOP_UI_INST_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "keymap.h"
#include "state/model.h"

struct app;

/* ssh (run) or copy the ssh command of instance id by route r (SSH_ASK:
 * the configured way, asking when both exist), with a -L P:localhost:P
 * forward for each port of the config's ssh_forwards that the instance
 * maps; false when it is gone. */
bool inst_ssh_route(struct app *a, long id, enum ssh_route r, bool run);
/* The same by the configured route with one forward: container_port (a
 * port of the ports list) to the same local port. */
bool inst_ssh_forward(struct app *a, long id, int container_port, bool run);
/* The route question's checklist of -L forwards: "-L forwards (Up/Down,
 * Space toggles; y copies the command): [x] 8080 >[ ] 8188", the box at
 * cursor marked '>'; "no HTTP port to forward" when n is 0.  Pure. */
void inst_ssh_checklist(const int *ports, const bool *on, size_t n, size_t cursor, char *buf,
			size_t len);

/* `:ssh ROUTE` and `:copy-ssh ROUTE` (act: ssh or copy-ssh; args: direct,
 * proxy or ask): x or y on the selected instance by that route (the
 * action's action_args, keymap.h). */
void inst_ssh_args(struct app *a, enum action act, const char *args);

#endif
