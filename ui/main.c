/* main.c: rentop's entry point.  Owns the start-up and shut-down order:
 * configuration, the debug log, curl, the API key, then either the --dump
 * mode (no curses, one fetch, exit status 0/2/3/4) or the dashboard: model,
 * jobs, the poller thread, ui_run() on this thread, and everything stopped,
 * joined and freed in reverse. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "net/auth.h"
#include "base/config.h"
#include "dump/dump.h"
#include "net/http.h"
#include "poll/jobs.h"
#include "base/log.h"
#include "state/model.h"
#include "poll/poller.h"
#include "ui.h"
#include "base/util.h"

/* Both URLs must be https (or http to loopback) before anything starts. */
static bool urls_ok(const struct config *cfg)
{
	char why[300];
	if (!http_url_allowed(cfg->base_url, why, sizeof why)) {
		fprintf(stderr, "rentop: --url: %s\n", why);
		return false;
	}
	if (!http_url_allowed(cfg->run_url, why, sizeof why)) {
		fprintf(stderr, "rentop: --run-url: %s\n", why);
		return false;
	}
	return true;
}

/* The key is in memory from now on: no core file may hold it (a core
 * limit of 0, and not dumpable: no core, no ptrace by other same-user
 * processes, /proc/self/mem closed to them). */
static void no_core_dumps(void)
{
	struct rlimit rl = { 0, 0 };
	if (setrlimit(RLIMIT_CORE, &rl) != 0)
		log_msg("setrlimit(RLIMIT_CORE): %s", strerror(errno));
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		log_msg("prctl(PR_SET_DUMPABLE): %s", strerror(errno));
}

/* The dashboard: threads up, UI, threads down. */
static int run_dashboard(const struct config *cfg, struct auth *auth)
{
	if (!auth_has_key(auth)) {
		fprintf(stderr,
			"rentop: no API key found: set VAST_API_KEY, use --api-key-file FILE, or "
			"put the key in %s/vast_api_key (mode 600)\n",
			cfg->vast_config_dir);
		return DUMP_EXIT_AUTH;
	}
	struct model *m = model_new();
	/* key warnings printed before curses would vanish behind it: each is
	 * also an event whose toast waits for a key press */
	for (size_t i = 0; i < auth_warning_count(auth); i++)
		model_event(m, EV_WARN, -1, 0, 0, EVF_HOLD, "%s", auth_warning(auth, i));
	struct jobs *j = jobs_new(m, cfg->read_only);
	struct poller *p = poller_new(cfg, auth, m, j);
	if (!p || poller_start(p) != 0) {
		fprintf(stderr, "rentop: cannot start the network thread\n");
		poller_free(p);
		jobs_free(j);
		model_free(m);
		return 1;
	}
	log_msg("dashboard started (refresh %d s)", cfg->refresh_s);
	int rc = ui_run(cfg, m, j, p, auth);
	poller_stop(p);
	poller_free(p);
	jobs_free(j);
	model_free(m);
	log_msg("dashboard stopped (status %d)", rc);
	return rc;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	signal(SIGPIPE, SIG_IGN);
	struct config cfg;
	char err[600];
	int rc = config_load(&cfg, argc, argv, err, sizeof err);
	if (rc) {
		fprintf(stderr, "rentop: %s\n", err);
		config_free(&cfg);
		return DUMP_EXIT_USAGE;
	}
	if (cfg.want_help) {
		config_usage(stdout);
		config_free(&cfg);
		return 0;
	}
	if (cfg.want_version) {
		printf("rentop %s\n", RENTOP_VERSION);
		config_free(&cfg);
		return 0;
	}
	if (cfg.dump == DUMP_NONE && !isatty(STDIN_FILENO)) {
		/* from cron, a unit or a script: a dashboard nobody sees must not run */
		fprintf(stderr, "rentop: standard input is not a terminal; use --dump for scripts\n");
		config_free(&cfg);
		return DUMP_EXIT_USAGE;
	}
	/* a locale that is not UTF-8 cannot show box drawing or arrows */
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		cfg.ascii = true;
	if (cfg.log_path && log_open(cfg.log_path) != 0) {
		fprintf(stderr, "rentop: --log %s: cannot open: %s\n", cfg.log_path,
			strerror(errno));
		config_free(&cfg);
		return DUMP_EXIT_USAGE;
	}
	if (http_global_init() != 0) {
		fprintf(stderr, "rentop: libcurl failed to initialise\n");
		config_free(&cfg);
		return 1;
	}
	if (!urls_ok(&cfg)) {
		rc = DUMP_EXIT_USAGE;
	} else {
		/* warnings about key files go out now, before curses starts */
		struct auth *auth = auth_new(&cfg, stderr);
		/* auth holds its own copy now: no child (ssh from the dashboard)
		 * inherits the key through the environment */
		unsetenv("VAST_API_KEY");
		no_core_dumps();
		char src[300];
		log_msg("rentop %s: base %s, key from %s", RENTOP_VERSION, cfg.base_url,
			auth_source(auth, src, sizeof src));
		if (auth_fatal(auth)) {
			/* a key source the user named gives the key or nothing */
			fprintf(stderr, "rentop: %s\n", auth_fatal(auth));
			rc = DUMP_EXIT_AUTH;
		} else if (cfg.dump != DUMP_NONE)
			rc = dump_run(&cfg, auth, stdout, stderr);
		else
			rc = run_dashboard(&cfg, auth);
		auth_free(auth);
	}
	http_global_cleanup();
	log_close();
	config_free(&cfg);
	return rc;
}
