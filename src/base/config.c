/* config.c: rentop's settings, from defaults, the config file, the
 * environment and the command line, in rising precedence.  Owns the parsing
 * of the config file and of argv, and the --help text.  Holds no secret: the
 * API key is found and kept by auth.c, and no flag takes a key's value.
 *
 * The config file is $XDG_CONFIG_HOME/rentop/config (default
 * ~/.config/rentop/config), or the file given with --config.  Format:
 *
 *     # a comment (a line whose first non-blank character is '#', or a '#'
 *       after a blank outside double quotes: `refresh = 15  # seconds`)
 *     url = https://console.vast.ai      key = value; blanks around '=' ignored
 *     run_url = https://run.vast.ai
 *     refresh = 10                       seconds, 2-3600
 *     timeout = 30                       total request timeout, seconds
 *     connect_timeout = 10               seconds
 *     page_rate = 1.0                    list pages per second, 0 = unpaced
 *     log_lines = 10000                  lines kept per open log pane, 100-1000000
 *     theme = default                    a name (themes/NAME.theme) or a path
 *     read_only = false                  booleans: true/false yes/no on/off 1/0
 *     no_color = false
 *     ascii = false
 *     bell = true
 *     ssh_command = ssh
 *     ssh = ask                          ask | direct | proxy: the address x and y use
 *                                        when an instance has both
 *     ssh_forwards = 8080,8888           container ports x forwards (-L P:localhost:P)
 *                                        when the instance maps them (at most 16)
 *     runway_warn = 24                   hours of runway: under it the header warns
 *     runway_alarm = 2                   hours: under it, the alarm (0 = off)
 *     credit_warn = 0                    $ of credit: under it the header warns (0 = off)
 *     credit_alarm = 0                   $ of credit: under it, the alarm (0 = off)
 *     idle_util = 5                      GPU % under which a running instance idles (0 = off)
 *     idle_minutes = 30                  minutes under idle_util before it is called idle
 *     idle_exempt = 123, nightly         instance ids and labels never called idle
 *     idle_spend_limit = 0               $/h the idle instances may burn before it is an event (0 = off)
 *     hot_temp = 85                      GPU degrees C over which it runs hot (0 = off)
 *     disk_full = 90                     % of disk_space over which its disk is filling (0 = off)
 *     api_key_file = ~/keys/vast         a file holding the key (not the key)
 *     notify = bell                      outputs of a notification: bell, osc9, osc777
 *                                        (a list, or none)
 *     notify_kinds = all                 which kinds notify: failed, offline, outbid,
 *                                        idle, hot, disk, runway, endpoint, tfa (a
 *                                        list, all or none)
 *     notify_command = notify-send -u critical rentop   run per notification, the
 *                                        event as JSON on stdin (argv.h's quoting;
 *                                        no shell)
 *     notify_timeout = 30                seconds before a running notify_command is killed
 *     bind x destroy                     a global key binding
 *     bind instances C-d destroy         a binding in one context
 *     bind instances d none              unbind
 *
 * A value may be wrapped in double quotes.  A leading "~/" in a path means
 * $HOME.  A bad line is an error "config:LINE: message". */
#include "base/config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/argv.h"
#include "base/util.h"

/* Text from the user (a config line, an argument) for a message: escape
 * sequences and control bytes removed, cut to max bytes (a char boundary). */
static const char *shown(const char *s, char *buf, size_t n, size_t max)
{
	char *clean = util_sanitize(s);
	if (max < n)
		n = max + 1;
	size_t len = util_strlcpy(buf, clean, n);
	if (len >= n) {
		size_t cut = n - 1;
		while (cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80)
			cut--;
		buf[cut] = '\0';
	}
	free(clean);
	return buf;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* "~/x" -> "$HOME/x"; anything else copied. */
static char *expand_home(const char *v)
{
	const char *home = getenv("HOME");
	if (v[0] == '~' && (v[1] == '/' || v[1] == '\0') && home && *home)
		return xasprintf("%s%s", home, v + 1);
	return xstrdup(v);
}

static bool parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return false;
}

static bool parse_double(const char *v, double *out)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(d))
		return false;
	*out = d;
	return true;
}

/* A refresh interval in whole seconds, 2-3600. */
static bool parse_refresh(const char *v, int *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < 2 || n > 3600)
		return false;
	*out = (int)n;
	return true;
}

static bool parse_timeout(const char *v, double *out)
{
	double d;
	if (!parse_double(v, &d) || d <= 0 || d > 3600)
		return false;
	*out = d;
	return true;
}

static bool parse_rate(const char *v, double *out)
{
	double d;
	if (!parse_double(v, &d) || d < 0 || d > 1000)
		return false;
	*out = d;
	return true;
}

/* Built-in defaults; the vastai key directory follows XDG like the CLI. */
static void set_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->base_url = xstrdup(CONFIG_DEFAULT_URL);
	cfg->run_url = xstrdup(CONFIG_DEFAULT_RUN_URL);
	cfg->refresh_s = 10;
	cfg->slow_refresh_s = 30;
	cfg->connect_timeout_s = 10;
	cfg->total_timeout_s = 30;
	cfg->page_rate = 1.0;
	cfg->log_lines = 10000;
	cfg->bell = true;
	cfg->runway_warn_h = 24;
	cfg->runway_alarm_h = 2;
	cfg->idle_util = 5;
	cfg->idle_minutes = 30;
	cfg->hot_temp = 85;
	cfg->disk_full = 90;
	cfg->theme = xstrdup("default");
	cfg->ssh_command = xstrdup("ssh");
	cfg->ssh_route = SSH_ASK;
	cfg->notify_out = NOTIFY_OUT_BELL;
	cfg->notify_kinds = NOTIFY_KINDS_ALL;
	cfg->notify_timeout_s = 30;
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg)
		cfg->vast_config_dir = xasprintf("%s/vastai", xdg);
	else
		cfg->vast_config_dir = xasprintf("%s/.config/vastai", home && *home ? home : ".");
}

void config_free(struct config *cfg)
{
	free(cfg->base_url);
	free(cfg->run_url);
	free(cfg->config_path);
	free(cfg->api_key_file);
	free(cfg->vast_config_dir);
	free(cfg->theme);
	free(cfg->ssh_command);
	free(cfg->binds);
	free(cfg->dump_query);
	free(cfg->log_path);
	free(cfg->test_clock);
	free(cfg->notify_command);
	free(cfg->idle_exempt);
	memset(cfg, 0, sizeof *cfg);
}

/* Strip surrounding blanks in place; then one pair of double quotes. */
static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s[n - 1] = '\0';
		s++;
	}
	return s;
}

/* Cut a trailing comment in place: a '#' after a blank, outside double
 * quotes ("refresh = 15  # seconds"; bind the '#' key as "#"). */
static void strip_comment(char *s)
{
	bool quoted = false;
	for (char *p = s; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '#' && !quoted && p > s && isspace((unsigned char)p[-1])) {
			*p = '\0';
			return;
		}
	}
}

/* bind [CONTEXT] KEY ACTION: split rest into 2 or 3 words (a word may be
 * double-quoted). */
bool config_parse_ports(const char *val, int *out, size_t max, size_t *n, char *msg, size_t mn)
{
	size_t k = 0;
	const char *p = val;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 65535 || (*end && *end != ',' && *end != ' ' && *end != '\t')) {
			snprintf(msg, mn, "ssh_forwards takes port numbers 1-65535 separated by commas");
			return false;
		}
		if (k == max) {
			snprintf(msg, mn, "ssh_forwards takes at most %zu ports", max);
			return false;
		}
		bool dup = false;
		for (size_t i = 0; i < k; i++)
			dup |= out[i] == (int)v;
		if (!dup)
			out[k++] = (int)v;
		p = end;
	}
	*n = k;
	return true;
}

static int parse_bind(struct config *cfg, char *rest, char *msg, size_t n)
{
	char *w[4];
	int nw = 0;
	for (char *tok = strtok(rest, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (nw == 4)
			break;
		size_t tl = strlen(tok);
		if (tl >= 3 && tok[0] == '"' && tok[tl - 1] == '"') {
			tok[tl - 1] = '\0';
			tok++;
		}
		w[nw++] = tok;
	}
	if (nw < 2 || nw > 3) {
		snprintf(msg, n, "bind needs [CONTEXT] KEY ACTION");
		return -1;
	}
	struct key_binding b;
	memset(&b, 0, sizeof b);
	const char *ctx = nw == 3 ? w[0] : "";
	const char *key = w[nw - 2], *act = w[nw - 1];
	if (strlen(ctx) >= sizeof b.context || strlen(key) >= sizeof b.key ||
	    strlen(act) >= sizeof b.action) {
		snprintf(msg, n, "bind: context, key or action name too long");
		return -1;
	}
	for (const char *p = act; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-')) {
			char sb[48];
			snprintf(msg, n, "bind: bad action name '%s'", shown(act, sb, sizeof sb, 40));
			return -1;
		}
	util_strlcpy(b.context, ctx, sizeof b.context);
	util_strlcpy(b.key, key, sizeof b.key);
	util_strlcpy(b.action, act, sizeof b.action);
	cfg->binds = xrealloc(cfg->binds, (cfg->nbinds + 1) * sizeof *cfg->binds);
	cfg->binds[cfg->nbinds++] = b;
	return 0;
}

static const char *const notify_kind_names[NK__COUNT] = {
	[NK_FAILED] = "failed", [NK_OFFLINE] = "offline", [NK_OUTBID] = "outbid",
	[NK_IDLE] = "idle",     [NK_HOT] = "hot",         [NK_DISK] = "disk",
	[NK_RUNWAY] = "runway", [NK_ENDPOINT] = "endpoint", [NK_TFA] = "tfa",
};

const char *config_notify_kind_name(enum notify_kind k)
{
	return (unsigned)k < NK__COUNT ? notify_kind_names[k] : NULL;
}

/* A list of names ("bell, osc9"; blanks and commas between) into a mask:
 * names[i] sets bit i; "none" is 0, all_word (NULL: none) every bit. */
static bool parse_names(const char *val, const char *const *names, size_t nnames,
			const char *all_word, unsigned *out, char *msg, size_t mn, const char *key)
{
	unsigned m = 0;
	const char *p = val;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		size_t l = strcspn(p, " \t,");
		size_t i = 0;
		while (i < nnames && !(strlen(names[i]) == l && strncmp(p, names[i], l) == 0))
			i++;
		if (i < nnames)
			m |= 1u << i;
		else if (l == 4 && strncmp(p, "none", 4) == 0)
			;
		else if (all_word && strlen(all_word) == l && strncmp(p, all_word, l) == 0)
			m |= (1u << nnames) - 1;
		else {
			char w[48], sb[48];
			snprintf(w, sizeof w, "%.*s", (int)(l < 40 ? l : 40), p);
			snprintf(msg, mn, "%s: unknown word '%s'", key, shown(w, sb, sizeof sb, 40));
			return false;
		}
		p += l;
	}
	*out = m;
	return true;
}

/* Apply one `key = value` setting; false with msg on a bad key or value. */
static bool apply_setting(struct config *cfg, const char *key, const char *val, bool *run_url_set,
			  char *msg, size_t n)
{
	bool b;
	if (strcmp(key, "url") == 0) {
		if (!*val)
			goto empty;
		set_str(&cfg->base_url, val);
	} else if (strcmp(key, "run_url") == 0) {
		if (!*val)
			goto empty;
		set_str(&cfg->run_url, val);
		*run_url_set = true;
	} else if (strcmp(key, "refresh") == 0) {
		if (!parse_refresh(val, &cfg->refresh_s)) {
			snprintf(msg, n, "refresh must be a whole number of seconds, 2-3600");
			return false;
		}
	} else if (strcmp(key, "timeout") == 0) {
		if (!parse_timeout(val, &cfg->total_timeout_s)) {
			snprintf(msg, n, "timeout must be seconds, above 0 and at most 3600");
			return false;
		}
	} else if (strcmp(key, "connect_timeout") == 0) {
		if (!parse_timeout(val, &cfg->connect_timeout_s)) {
			snprintf(msg, n, "connect_timeout must be seconds, above 0 and at most 3600");
			return false;
		}
	} else if (strcmp(key, "log_lines") == 0) {
		char *end;
		errno = 0;
		long l = strtol(val, &end, 10);
		if (errno || end == val || *end || l < 100 || l > 1000000) {
			snprintf(msg, n, "log_lines must be a number of lines, 100-1000000");
			return false;
		}
		cfg->log_lines = (int)l;
	} else if (strcmp(key, "page_rate") == 0) {
		if (!parse_rate(val, &cfg->page_rate)) {
			snprintf(msg, n, "page_rate must be requests per second, 0-1000");
			return false;
		}
	} else if (strcmp(key, "runway_warn") == 0 || strcmp(key, "runway_alarm") == 0 ||
		   strcmp(key, "credit_warn") == 0 || strcmp(key, "credit_alarm") == 0) {
		double d;
		bool runway = key[0] == 'r';
		if (!parse_double(val, &d) || d < 0 || d > 1e6) {
			snprintf(msg, n, "%s must be %s, 0 (off) or more", key,
				 runway ? "hours" : "dollars");
			return false;
		}
		double *dst = runway ? (strstr(key, "warn") ? &cfg->runway_warn_h : &cfg->runway_alarm_h)
				     : (strstr(key, "warn") ? &cfg->credit_warn : &cfg->credit_alarm);
		*dst = d;
	} else if (strcmp(key, "idle_util") == 0 || strcmp(key, "idle_minutes") == 0 ||
		   strcmp(key, "hot_temp") == 0 || strcmp(key, "disk_full") == 0) {
		double d;
		bool minutes = key[0] == 'i' && key[5] == 'm', temp = key[0] == 'h';
		double lo = minutes ? 1 : 0, hi = minutes ? 10080 : temp ? 200 : 100;
		if (!parse_double(val, &d) || d < lo || d > hi) {
			snprintf(msg, n, "%s must be %s, %g-%g", key,
				 minutes ? "minutes" : temp ? "degrees C" : "a percentage", lo, hi);
			return false;
		}
		*(minutes ? &cfg->idle_minutes : temp ? &cfg->hot_temp
			    : key[0] == 'i' ? &cfg->idle_util : &cfg->disk_full) = d;
	} else if (strcmp(key, "idle_spend_limit") == 0) {
		double d;
		if (!parse_double(val, &d) || d < 0 || d > 1e6) {
			snprintf(msg, n, "idle_spend_limit must be dollars an hour, 0-1000000 (0 = off)");
			return false;
		}
		cfg->idle_spend_limit = d;
	} else if (strcmp(key, "idle_exempt") == 0) {
		free(cfg->idle_exempt);
		cfg->idle_exempt = *val ? xstrdup(val) : NULL;
	} else if (strcmp(key, "theme") == 0) {
		if (!*val)
			goto empty;
		free(cfg->theme);
		cfg->theme = expand_home(val);
	} else if (strcmp(key, "ssh_command") == 0) {
		if (!*val)
			goto empty;
		set_str(&cfg->ssh_command, val);
	} else if (strcmp(key, "ssh") == 0) {
		if (strcmp(val, "ask") == 0)
			cfg->ssh_route = SSH_ASK;
		else if (strcmp(val, "direct") == 0)
			cfg->ssh_route = SSH_DIRECT;
		else if (strcmp(val, "proxy") == 0)
			cfg->ssh_route = SSH_PROXY;
		else {
			snprintf(msg, n, "ssh must be ask, direct or proxy");
			return false;
		}
	} else if (strcmp(key, "ssh_forwards") == 0) {
		if (!config_parse_ports(val, cfg->ssh_forwards, CONFIG_FORWARDS_MAX, &cfg->nssh_forwards,
					msg, n))
			return false;
	} else if (strcmp(key, "notify") == 0) {
		static const char *const outs[] = { "bell", "osc9", "osc777" };
		if (!parse_names(val, outs, 3, NULL, &cfg->notify_out, msg, n, key))
			return false;
	} else if (strcmp(key, "notify_kinds") == 0) {
		if (!parse_names(val, notify_kind_names, NK__COUNT, "all", &cfg->notify_kinds, msg, n,
				 key))
			return false;
	} else if (strcmp(key, "notify_command") == 0) {
		free(cfg->notify_command);
		cfg->notify_command = NULL;
		if (*val) { /* "" is none */
			char why[80];
			char **v = argv_split(val, NULL, why, sizeof why);
			if (!v) {
				snprintf(msg, n, "notify_command: %s", why);
				return false;
			}
			argv_free(v);
			cfg->notify_command = xstrdup(val);
		}
	} else if (strcmp(key, "notify_timeout") == 0) {
		if (!parse_timeout(val, &cfg->notify_timeout_s)) {
			snprintf(msg, n, "notify_timeout must be seconds, above 0 and at most 3600");
			return false;
		}
	} else if (strcmp(key, "api_key_file") == 0) {
		if (!*val)
			goto empty;
		free(cfg->api_key_file);
		cfg->api_key_file = expand_home(val);
	} else if (strcmp(key, "read_only") == 0 || strcmp(key, "no_color") == 0 ||
		   strcmp(key, "ascii") == 0 || strcmp(key, "bell") == 0) {
		if (!parse_bool(val, &b)) {
			snprintf(msg, n, "%s must be true or false", key);
			return false;
		}
		if (key[0] == 'r')
			cfg->read_only = b;
		else if (key[0] == 'n')
			cfg->no_color = b;
		else if (key[0] == 'a')
			cfg->ascii = b;
		else
			cfg->bell = b;
	} else {
		char sb[48];
		snprintf(msg, n, "unknown key '%s'", shown(key, sb, sizeof sb, 40));
		return false;
	}
	return true;
empty:
	snprintf(msg, n, "%s needs a value", key);
	return false;
}

static int parse_text(struct config *cfg, const char *text, const char *name, bool *run_url_set,
		      char *err, size_t errlen)
{
	char *copy = xstrdup(text);
	char *save = NULL;
	int lineno = 0, rc = 0;
	char msg[160];
	/* strtok_r would merge empty lines and miscount; walk by hand. */
	for (char *line = copy; line; line = save) {
		lineno++;
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		strip_comment(s);
		s = trim(s);
		msg[0] = '\0';
		if (strncmp(s, "bind", 4) == 0 && (s[4] == ' ' || s[4] == '\t')) {
			if (parse_bind(cfg, s + 5, msg, sizeof msg) == 0)
				continue;
		} else {
			char *eq = strchr(s, '=');
			if (!eq) {
				snprintf(msg, sizeof msg, "expected 'key = value' or 'bind ...'");
			} else {
				*eq = '\0';
				char *k = trim(s), *v = trim(eq + 1);
				if (apply_setting(cfg, k, v, run_url_set, msg, sizeof msg))
					continue;
			}
		}
		snprintf(err, errlen, "%s:%d: %s", name, lineno, msg);
		rc = 2;
		break;
	}
	free(copy);
	return rc;
}

int config_parse_text(struct config *cfg, const char *text, const char *name, char *err,
		      size_t errlen)
{
	bool run_url_set = false;
	return parse_text(cfg, text, name, &run_url_set, err, errlen);
}

/* Read a whole (small) file; NULL with errno set on failure. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re"); /* e: close-on-exec */
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	size_t r;
	while ((r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += r;
		if (len + 1 == cap) {
			if (cap > (1u << 20))
				break; /* a config file is never this big */
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

void config_usage(FILE *out)
{
	fputs("usage: rentop [options]\n"
	      "A terminal dashboard for rented GPU instances.\n"
	      "\n"
	      "  --url URL             API base URL (env VAST_URL; default " CONFIG_DEFAULT_URL ")\n"
	      "  --run-url URL         serverless log URL (default " CONFIG_DEFAULT_RUN_URL
	      ",\n"
	      "                        or the base URL when that is not the default)\n"
	      "  --api-key-file FILE   read the API key from FILE (keys are never given as flags;\n"
	      "                        else VAST_API_KEY, ~/.config/vastai/vast_tfa_key,\n"
	      "                        ~/.config/vastai/vast_api_key, ~/.vast_api_key)\n"
	      "  --refresh S           instance refresh interval, 2-3600 seconds (default 10)\n"
	      "  --timeout S           total timeout of one request (default 30)\n"
	      "  --connect-timeout S   connect timeout (default 10)\n"
	      "  --page-rate R         paged list requests per second (default 1, 0 = unpaced)\n"
	      "  --log-lines N         lines kept per open log pane, 100-1000000 (default 10000)\n"
	      "  --read-only           refuse every action that changes anything\n"
	      "  --theme NAME          colour theme (a name or a file)\n"
	      "  --no-color            monochrome (also env NO_COLOR)\n"
	      "  --ascii               ASCII line drawing\n"
	      "  --ssh MODE            ask|direct|proxy: the address x and y use when an\n"
	      "                        instance has a direct one and the proxy (default ask)\n"
	      "  --no-bell             no bell when an instance fails or money runs low\n"
	      "  --runway-warn H       warn when the credit lasts under H hours (default 24, 0 off)\n"
	      "  --runway-alarm H      alarm under H hours of runway (default 2, 0 off)\n"
	      "  --credit-warn D       warn when the credit is under $D (default 0: off)\n"
	      "  --credit-alarm D      alarm when the credit is under $D (default 0: off)\n"
	      "  --config FILE         config file (default $XDG_CONFIG_HOME/rentop/config)\n"
	      "  --log FILE            write a debug log (never contains keys)\n"
	      "  --dump WHAT           print instances|offers|user|workergroups|endpoints|templates|\n"
	      "                        charges once and exit (0 ok, 2 usage, 3 authentication,\n"
	      "                        4 network/server)\n"
	      "  --json                with --dump: the raw records as JSON\n"
	      "  --query Q             with --dump offers|templates: a search query; with --dump\n"
	      "                        charges: the days (default 14)\n"
	      "                        (e.g. 'gpu_name=RTX_4090 num_gpus>=2 dph<1.5')\n"
	      "  --version             print the version\n"
	      "  -h, --help            this text\n",
	      out);
}

static const struct {
	const char *name;
	enum dump_what what;
} dump_names[] = {
	{"instances", DUMP_INSTANCES}, {"offers", DUMP_OFFERS},       {"user", DUMP_USER},
	{"workergroups", DUMP_WORKERGROUPS}, {"templates", DUMP_TEMPLATES},
	{"endpoints", DUMP_ENDPOINTS}, {"charges", DUMP_CHARGES},
};

/* Flags that take a value. */
static bool flag_takes_value(const char *f)
{
	static const char *const v[] = {"--url", "--run-url", "--api-key-file", "--refresh",
					"--timeout", "--connect-timeout", "--page-rate", "--log-lines",
					"--theme", "--config", "--log", "--dump", "--query",
					"--runway-warn", "--runway-alarm", "--credit-warn",
					"--credit-alarm", "--ssh", "--test-clock"};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (strcmp(f, v[i]) == 0)
			return true;
	return false;
}

/* Split argv[i] into flag and value ("--x=v" or "--x v"); advances *i. */
static int next_flag(int argc, char **argv, int *i, char *flag, size_t fn, const char **val,
		     char *err, size_t errlen)
{
	const char *a = argv[*i];
	const char *eq = strchr(a, '=');
	*val = NULL;
	char b[72];
	if (strcmp(a, "-h") == 0)
		a = "--help"; /* the one short option, as every tool has it */
	if (strncmp(a, "--", 2) != 0 || !a[2]) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", shown(a, b, sizeof b, 60));
		return 2;
	}
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	if (len >= fn) {
		snprintf(err, errlen, "unknown option '%s' (see --help)", shown(a, b, sizeof b, 60));
		return 2;
	}
	memcpy(flag, a, len);
	flag[len] = '\0';
	if (flag_takes_value(flag)) {
		if (eq)
			*val = eq + 1;
		else if (*i + 1 < argc)
			*val = argv[++*i];
		else {
			snprintf(err, errlen, "%s needs a value", flag);
			return 2;
		}
	} else if (eq) {
		snprintf(err, errlen, "%s takes no value", flag);
		return 2;
	}
	return 0;
}

/* The config file to read: --config, else the XDG default (may not exist). */
static char *find_config_path(int argc, char **argv, bool *explicit_)
{
	*explicit_ = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			*explicit_ = true;
			return expand_home(argv[i + 1]);
		}
		if (strncmp(argv[i], "--config=", 9) == 0) {
			*explicit_ = true;
			return expand_home(argv[i] + 9);
		}
		if (flag_takes_value(argv[i]))
			i++; /* skip a value that might look like --config */
	}
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (xdg && *xdg)
		return xasprintf("%s/rentop/config", xdg);
	if (home && *home)
		return xasprintf("%s/.config/rentop/config", home);
	return NULL;
}

/* Apply argv (after the file and the environment). */
static int apply_flags(struct config *cfg, int argc, char **argv, bool *run_url_set, char *err,
		       size_t errlen)
{
	char flag[40];
	const char *v;
	char msg[160];
	for (int i = 1; i < argc; i++) {
		int rc = next_flag(argc, argv, &i, flag, sizeof flag, &v, err, errlen);
		if (rc)
			return rc;
		msg[0] = '\0';
		if (strcmp(flag, "--url") == 0 || strcmp(flag, "--run-url") == 0 ||
		    strcmp(flag, "--refresh") == 0 || strcmp(flag, "--timeout") == 0 ||
		    strcmp(flag, "--connect-timeout") == 0 || strcmp(flag, "--page-rate") == 0 ||
		    strcmp(flag, "--log-lines") == 0 ||
		    strcmp(flag, "--theme") == 0 || strcmp(flag, "--api-key-file") == 0 ||
		    strcmp(flag, "--runway-warn") == 0 || strcmp(flag, "--runway-alarm") == 0 ||
		    strcmp(flag, "--credit-warn") == 0 || strcmp(flag, "--credit-alarm") == 0 ||
		    strcmp(flag, "--ssh") == 0) {
			/* "--run-url" -> "run_url", the config key of the same meaning */
			char key[40];
			util_strlcpy(key, flag + 2, sizeof key);
			for (char *p = key; *p; p++)
				if (*p == '-')
					*p = '_';
			if (strcmp(key, "page_rate") != 0 && !*v) {
				snprintf(err, errlen, "%s needs a value", flag);
				return 2;
			}
			if (!apply_setting(cfg, key, v, run_url_set, msg, sizeof msg)) {
				/* "refresh must be ..." -> "--refresh: must be ..." */
				const char *m = msg;
				if (strncmp(m, key, strlen(key)) == 0)
					m += strlen(key) + 1;
				snprintf(err, errlen, "%s: %s", flag, m);
				return 2;
			}
		} else if (strcmp(flag, "--config") == 0) {
			/* read before the other flags */
		} else if (strcmp(flag, "--log") == 0) {
			if (!*v) {
				snprintf(err, errlen, "--log needs a file name");
				return 2;
			}
			free(cfg->log_path);
			cfg->log_path = expand_home(v);
		} else if (strcmp(flag, "--test-clock") == 0) {
			if (!*v) {
				snprintf(err, errlen, "--test-clock needs a FIFO");
				return 2;
			}
			free(cfg->test_clock);
			cfg->test_clock = xstrdup(v);
		} else if (strcmp(flag, "--dump") == 0) {
			cfg->dump = DUMP_NONE;
			for (size_t k = 0; k < sizeof dump_names / sizeof *dump_names; k++)
				if (strcmp(v, dump_names[k].name) == 0)
					cfg->dump = dump_names[k].what;
			if (cfg->dump == DUMP_NONE) {
				char b[48];
				snprintf(err, errlen,
					 "--dump: '%s' is not one of instances, offers, user, "
					 "workergroups, endpoints, templates, charges",
					 shown(v, b, sizeof b, 40));
				return 2;
			}
		} else if (strcmp(flag, "--query") == 0) {
			set_str(&cfg->dump_query, v);
		} else if (strcmp(flag, "--json") == 0) {
			cfg->dump_json = true;
		} else if (strcmp(flag, "--read-only") == 0) {
			cfg->read_only = true;
		} else if (strcmp(flag, "--no-color") == 0) {
			cfg->no_color = true;
		} else if (strcmp(flag, "--ascii") == 0) {
			cfg->ascii = true;
		} else if (strcmp(flag, "--no-bell") == 0) {
			cfg->bell = false;
		} else if (strcmp(flag, "--version") == 0) {
			cfg->want_version = true;
		} else if (strcmp(flag, "--help") == 0) {
			cfg->want_help = true;
		} else if (strcmp(flag, "--api-key") == 0) {
			snprintf(err, errlen,
				 "--api-key is not supported: a key on the command line is visible "
				 "to other users; use --api-key-file FILE or VAST_API_KEY");
			return 2;
		} else {
			char b[48];
			snprintf(err, errlen, "unknown option '%s' (see --help)", shown(flag, b, sizeof b, 40));
			return 2;
		}
	}
	if ((cfg->dump_json || cfg->dump_query) && cfg->dump == DUMP_NONE) {
		snprintf(err, errlen, "%s needs --dump", cfg->dump_json ? "--json" : "--query");
		return 2;
	}
	if (cfg->dump_query && cfg->dump != DUMP_OFFERS && cfg->dump != DUMP_TEMPLATES &&
	    cfg->dump != DUMP_CHARGES) {
		snprintf(err, errlen, "--query applies to --dump offers, templates and charges only");
		return 2;
	}
	return 0;
}

/* Defaults, then the file, then the environment, then the flags. */
int config_load(struct config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	set_defaults(cfg);
	err[0] = '\0';
	bool run_url_set = false, explicit_ = false;
	char *path = find_config_path(argc, argv, &explicit_);
	struct stat st;
	if (path && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a directory or a device is not an empty config: say so */
		snprintf(err, errlen, "%s: not a regular file (a config file is expected)", path);
		free(path);
		return 2;
	}
	if (path) {
		char *text = slurp(path);
		if (!text && (explicit_ || errno != ENOENT)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(path);
			return 2;
		}
		if (text) {
			cfg->config_path = path;
			path = NULL;
			int rc = parse_text(cfg, text, "config", &run_url_set, err, errlen);
			free(text);
			if (rc) {
				/* name the file in the message when it is not the default */
				if (explicit_) {
					char tmp[512];
					util_strlcpy(tmp, err, sizeof tmp);
					snprintf(err, errlen, "%s (%s)", tmp, cfg->config_path);
				}
				return rc;
			}
		}
		free(path);
	}
	/* environment */
	const char *e = getenv("VAST_URL");
	if (e && *e)
		set_str(&cfg->base_url, e);
	e = getenv("NO_COLOR");
	if (e && *e)
		cfg->no_color = true;
	int rc = apply_flags(cfg, argc, argv, &run_url_set, err, errlen);
	if (rc)
		return rc;
	/* strip trailing slashes so paths join cleanly */
	for (char **u = &cfg->base_url; u; u = u == &cfg->base_url ? &cfg->run_url : NULL) {
		size_t n = strlen(*u);
		while (n > 1 && (*u)[n - 1] == '/')
			(*u)[--n] = '\0';
	}
	/* like the official CLI: off the default service, run-url calls go to the base */
	if (!run_url_set && strcmp(cfg->base_url, CONFIG_DEFAULT_URL) != 0 &&
	    strcmp(cfg->base_url, "https://cloud.vast.ai") != 0)
		set_str(&cfg->run_url, cfg->base_url);
	if (cfg->slow_refresh_s < cfg->refresh_s)
		cfg->slow_refresh_s = cfg->refresh_s;
	return 0;
}
