/* ctl.h: the control API under /__sim/ (no auth, loopback only): faults,
 * the manual clock, last 2FA codes, forcing instance status and fields,
 * reset, and a full state dump.  Called with the state lock held. */
#ifndef RENTOP_SIM_CTL_H
#define RENTOP_SIM_CTL_H

#include "server.h"
#include "sim.h"

void ctl_handle(struct simstate *st, const struct sim_req *rq, struct sim_resp *rs);

#endif
