/* config.h: settings from flags > environment > ~/.config/rentop/config.
 * Built once by the main thread before any other thread starts, then read
 * only.  Holds no secret: API keys live in auth.c. */
#ifndef RENTOP_CONFIG_H
#define RENTOP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct key_binding {
	char context[24];  /* "global", "instances", ... ("" = global) */
	char key[32];      /* as written: "x", "C-d", "F5", "Enter", "S-Tab" */
	char action[48];   /* action catalogue name, or "none" to unbind */
};

enum dump_what { DUMP_NONE, DUMP_INSTANCES, DUMP_OFFERS, DUMP_USER, DUMP_WORKERGROUPS, DUMP_TEMPLATES,
		DUMP_ENDPOINTS, DUMP_CHARGES };

/* Which address `x` (ssh) and `y` (copy) use when an instance has both a
 * direct one and the service's proxy: ask (a choice, direct first), or
 * always the one named (the other when it is the only one). */
enum ssh_route { SSH_ASK, SSH_DIRECT, SSH_PROXY };

#define CONFIG_FORWARDS_MAX 16

/* The kinds of event that can notify beyond the screen (rules/notify.h),
 * by their config names (notify_kinds = failed, offline, ...). */
enum notify_kind {
	NK_FAILED,   /* an instance entered a failure state (crashed, failed start) */
	NK_OFFLINE,  /* an instance's host went offline or silent */
	NK_OUTBID,   /* an interruptible instance was outbid */
	NK_IDLE,     /* an instance idles (EVF_IDLE) */
	NK_HOT,      /* a GPU runs hot (EVF_HOT) */
	NK_DISK,     /* a disk fills up (EVF_DISK) */
	NK_RUNWAY,   /* runway or credit fell under a limit */
	NK_ENDPOINT, /* a serverless endpoint's workers in error or none ready */
	NK_TFA,      /* the 2FA session expired or was refused */
	NK__COUNT
};
#define NOTIFY_KINDS_ALL ((1u << NK__COUNT) - 1)
/* The outputs of a notification (notify = bell, osc9, osc777). */
#define NOTIFY_OUT_BELL   0x1u
#define NOTIFY_OUT_OSC9   0x2u
#define NOTIFY_OUT_OSC777 0x4u

struct config {
	char *base_url;        /* default https://console.vast.ai; VAST_URL; --url */
	char *run_url;         /* default https://run.vast.ai (the base when --url is not the default) */
	char *config_path;     /* the file read, or NULL */
	char *api_key_file;    /* --api-key-file */
	char *vast_config_dir; /* ~/.config/vastai (where the official CLI keeps keys) */
	int refresh_s;         /* instances poll, 2-3600, default 10 */
	int slow_refresh_s;    /* user and workergroups, default 30 */
	double connect_timeout_s; /* default 10 */
	double total_timeout_s;   /* default 30 */
	bool read_only;
	bool no_color;         /* --no-color or NO_COLOR set */
	bool ascii;            /* --ascii line drawing */
	bool bell;             /* ring the bell when an instance fails (default on) */
	char *theme;           /* name (themes/NAME.theme) or path; default "default" */
	char *ssh_command;     /* default "ssh" */
	struct key_binding *binds;
	size_t nbinds;
	/* --dump */
	enum dump_what dump;
	bool dump_json;
	char *dump_query;
	/* Added by core-net (backward-compatible: new fields at the end). */
	char *log_path;        /* --log FILE: debug log, NULL = none */
	double page_rate;      /* paged list requests per second, default 1.0
				  (the v1 list threshold); 0 = unpaced */
	int log_lines;         /* lines kept per open log pane, 100-1000000 (default 10000) */
	bool want_help;        /* --help */
	bool want_version;     /* --version */
	/* Low-money alerts (header colour, one bell and an event per crossing). */
	double runway_warn_h;  /* hours of runway under which the header warns, default 24, 0 = off */
	double runway_alarm_h; /* hours, default 2, 0 = off */
	double credit_warn;    /* $ of credit under which the header warns, default 0 = off */
	double credit_alarm;   /* $, default 0 = off */
	enum ssh_route ssh_route; /* ssh = ask|direct|proxy, --ssh; default ask */
	/* ssh_forwards = 8080,8888: the container ports x forwards to the same
	   local port (-L P:localhost:P) when the instance maps them; none by default */
	int ssh_forwards[CONFIG_FORWARDS_MAX];
	size_t nssh_forwards;
	/* The watch on running instances (rules/idle.h): idle under idle_util %
	   GPU for idle_minutes; hot over hot_temp C (0 = off); a disk over
	   disk_full % of its disk_space (0 = off); idle_exempt: instance ids and
	   labels never called idle ("123, nightly"; NULL = none) */
	double idle_util;      /* percent, 0-100, default 5; 0 = off */
	double idle_minutes;   /* minutes, 1-10080, default 30 */
	double hot_temp;       /* degrees C, default 85 */
	double disk_full;      /* percent, default 90 */
	double idle_spend_limit; /* $/h: the idle instances' spend over it is an event
				    (a notification of kind idle); 0 = off, the default */
	char *idle_exempt;
	char *test_clock;      /* --test-clock FIFO: seconds written there move the
				  clocks forward (tests only; no config key), NULL = none */
	/* Notifications (rules/notify.h, notify_out.h). */
	unsigned notify_out;   /* NOTIFY_OUT_*, default bell (the bell also needs `bell`) */
	unsigned notify_kinds; /* 1u << enum notify_kind, default all */
	char *notify_command;  /* run with the event as JSON on stdin; NULL = none.
				  Split by argv_split (checked at load) */
	double notify_timeout_s; /* a command still running after this is killed, default 30 */
};

/* "failed", "offline", ... (the config's names); NULL out of range. */
const char *config_notify_kind_name(enum notify_kind k);

/* "8080, 8888" into out (at most max, repeats once): false with a message in
 * msg when a word is not a port 1-65535 or there are more than max.  "" is
 * none.  Pure. */
bool config_parse_ports(const char *val, int *out, size_t max, size_t *n, char *msg, size_t mn);

/* Main thread, before any other thread.  Fills *cfg from defaults, the config
 * file, the environment and argv (in rising precedence).  Returns 0 on
 * success, 2 on a usage or config-file error with a message in err
 * ("config:12: unknown key 'foo'", "--refresh: must be 2-3600").  The caller
 * must config_free() *cfg in both cases. */
int config_load(struct config *cfg, int argc, char **argv, char *err, size_t errlen);
/* Parse one config file's text into *cfg (keys and bind lines); name is used
 * in messages.  Returns 0, or 2 with "name:LINE: message" in err. */
int config_parse_text(struct config *cfg, const char *text, const char *name, char *err,
		      size_t errlen);
void config_free(struct config *cfg);
/* The --help text. */
void config_usage(FILE *out);

#define CONFIG_DEFAULT_URL "https://console.vast.ai"
#define CONFIG_DEFAULT_RUN_URL "https://run.vast.ai"

#endif
