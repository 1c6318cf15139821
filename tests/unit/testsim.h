/* testsim.h: for unit tests that run the client's request builders against a
 * real rentop-sim ($RENTOP_SIM, as tests/run.sh provides): start it on a free
 * port with given flags, read its URL, keys and TOTP secret, make control
 * calls, read /__sim/state, build a config pointing at it, and stop it. */
#ifndef RENTOP_TESTSIM_H
#define RENTOP_TESTSIM_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "base/config.h"

struct testsim {
	pid_t pid;
	char url[128];
	char key[160];
	char ro_key[160];
	char totp[128];
	char dir[64];         /* a private directory (also the vastai config dir) */
	struct config cfg;    /* base_url = run_url = url, vast_config_dir = dir */
};

/* Start with extra args (NULL-terminated); 0 on success, -1 when the
 * simulator is missing or did not start. */
int testsim_start(struct testsim *s, const char *const *args);
void testsim_stop(struct testsim *s);
/* POST /__sim/<what> with a JSON body; returns the HTTP status. */
long testsim_ctl(const struct testsim *s, const char *what, const char *body);
/* GET /__sim/state (the caller's), NULL on failure. */
json_t *testsim_state(const struct testsim *s);

#endif
