/* instcol.c: titles and cell formatting of the instance columns (id,
 * label, status with pending badges, GPUs, utilisation, price, age, SSH
 * address, image, machine, location, reliability, uptime) for both the
 * dashboard and --dump.  $/H is what
 * the row costs now (money.h): the header's burn is the sum of the column. */
#include "dump/instcol.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "poll/jobs.h"
#include "state/model.h"
#include "state/money.h"
#include "base/util.h"
#include "rules/watch.h"

static const char *const titles[IC__COUNT] = {
	[IC_ID] = "ID",       [IC_LABEL] = "LABEL", [IC_STATUS] = "STATUS", [IC_GPUS] = "GPUS",
	[IC_UTIL] = "UTIL",   [IC_DPH] = "$/H",     [IC_AGE] = "AGE",       [IC_SSH] = "SSH",
	[IC_IMAGE] = "IMAGE", [IC_MACHINE] = "MACHINE", [IC_LOCATION] = "LOCATION",
	[IC_RELIAB] = "RELIAB", [IC_UPTIME] = "UPTIME", [IC_HIST] = "GPU 1H",
};

const char *instcol_title(enum instcol c) { return (unsigned)c < IC__COUNT ? titles[c] : "?"; }

const char *instcol_gpu_model(const char *name)
{
	static const char *const brands[] = { "NVIDIA ", "Tesla ", "GeForce ", "Quadro ", "AMD ",
					      "Radeon " };
	if (!name)
		return "";
	for (bool again = true; again;) {
		again = false;
		for (size_t i = 0; i < sizeof brands / sizeof brands[0]; i++) {
			size_t l = strlen(brands[i]);
			if (strncmp(name, brands[i], l) == 0 && name[l]) {
				name += l;
				again = true;
			}
		}
	}
	return name;
}

bool instcol_pending(const struct instance *x, const struct snapshot *s)
{
	for (size_t i = 0; s && i < s->npending; i++)
		if (s->pending[i].instance_id == x->id)
			return true;
	return s && model_snapshot_unsure(s, x->id);
}

char *instcol_age(char *buf, size_t n, double now, double start)
{
	if (!isfinite(start) || !(start > 0))
		return fmt_duration(buf, n, -1);
	double age = now > start ? now - start : 0;
	if (age < 60) {
		util_strlcpy(buf, "<1m", n);
		return buf;
	}
	return fmt_duration(buf, n, age); /* 5m, 2h05m, 3d04h: by the minute at most */
}

unsigned instcol_opts(bool ascii, enum ssh_route ssh)
{
	return (ascii ? INSTCOL_ASCII : 0u) | (ssh == SSH_PROXY ? INSTCOL_SSH_PROXY : 0u);
}

char *instcol_format(enum instcol c, const struct instance *x, const struct snapshot *s,
		     double now, unsigned opts, char *buf, size_t n, double *key)
{
	return instcol_format_w(c, x, s, NULL, now, opts, buf, n, key);
}

char *instcol_format_w(enum instcol c, const struct instance *x, const struct snapshot *s,
		       const struct watch *w, double now, unsigned opts, char *buf, size_t n,
		       double *key)
{
	bool ascii = opts & INSTCOL_ASCII;
	double k = NAN;
	buf[0] = '\0';
	switch (c) {
	case IC_ID:
		snprintf(buf, n, "%ld", x->id);
		k = (double)x->id;
		break;
	case IC_LABEL: util_strlcpy(buf, x->label, n); break;
	case IC_STATUS: {
		/* "(bid)": an interruptible, which a higher bid can stop */
		snprintf(buf, n, "%s%s", instance_state_name(x->state), x->is_bid ? " (bid)" : "");
		for (size_t i = 0; s && i < s->npending; i++)
			if (s->pending[i].instance_id == x->id) {
				size_t len = strlen(buf);
				snprintf(buf + len, n - len, " %s%s", ascii ? "*" : "\u27f3",
					 jobs_kind_name((enum job_kind)s->pending[i].kind));
			}
		const struct unsure *u = s ? model_snapshot_unsure(s, x->id) : NULL;
		if (u) { /* an action whose answer was lost, until a re-read tells */
			size_t len = strlen(buf);
			snprintf(buf + len, n - len, " ?%s", jobs_kind_name((enum job_kind)u->kind));
		}
		unsigned f = w ? watch_flags(w, x->id) : 0;
		if (f) { /* idle, hot, disk (rules/idle.h) */
			char words[32];
			size_t len = strlen(buf);
			snprintf(buf + len, n - len, " %s", idle_flags_text(f, words, sizeof words));
		}
		break;
	}
	case IC_GPUS: {
		const char *g = instcol_gpu_model(x->gpu_name);
		if (x->num_gpus > 0)
			snprintf(buf, n, "%dx %s", x->num_gpus, g);
		else
			util_strlcpy(buf, g[0] ? g : "-", n);
		k = x->num_gpus;
		break;
	}
	case IC_UTIL:
		if (isfinite(x->gpu_util)) {
			snprintf(buf, n, "%.0f%%", x->gpu_util);
			k = x->gpu_util;
		} else {
			util_strlcpy(buf, "-", n);
		}
		break;
	case IC_DPH: { /* what the row costs now: storage only while the GPU is not billed */
		double rate = money_row_rate(x);
		if (isfinite(rate)) {
			snprintf(buf, n, rate < 10 ? "$%.3f" : "$%.2f", rate);
			k = rate;
		} else {
			util_strlcpy(buf, "-", n);
		}
		break;
	}
	case IC_AGE: /* by the minute, so that a table is not redrawn every second */
		instcol_age(buf, n, now, x->start_date);
		if (isfinite(x->start_date) && x->start_date > 0)
			k = -x->start_date; /* the age's order, whatever the clock */
		break;
	case IC_SSH: {
		char host[256];
		int port;
		enum ssh_route r;
		if (instance_ssh_pick(x, opts & INSTCOL_SSH_PROXY ? SSH_PROXY : SSH_DIRECT, &r) &&
		    instance_ssh_route(x, r, host, sizeof host, &port))
			snprintf(buf, n, "%s:%d", host, port);
		else
			util_strlcpy(buf, "-", n);
		break;
	}
	case IC_IMAGE: util_strlcpy(buf, x->image, n); break;
	case IC_MACHINE:
		if (x->machine_id > 0) {
			snprintf(buf, n, "%ld", x->machine_id);
			k = (double)x->machine_id;
		} else {
			util_strlcpy(buf, "-", n);
		}
		break;
	case IC_LOCATION: util_strlcpy(buf, x->geolocation && x->geolocation[0] ? x->geolocation : "-", n); break;
	case IC_RELIAB: /* reliability2, 0-1 */
		if (isfinite(x->reliability) && x->reliability >= 0) {
			snprintf(buf, n, "%.1f%%", x->reliability * 100.0);
			k = x->reliability;
		} else {
			util_strlcpy(buf, "-", n);
		}
		break;
	case IC_UPTIME: /* uptime_mins: null while the container is not up */
		if (isfinite(x->uptime_mins) && x->uptime_mins >= 0) {
			fmt_duration(buf, n, x->uptime_mins * 60.0);
			k = x->uptime_mins;
		} else {
			util_strlcpy(buf, "-", n);
		}
		break;
	case IC_HIST: /* drawn by the dashboard from its watch (pane_instances.c) */
	case IC__COUNT: break;
	}
	if (key)
		*key = k;
	return buf;
}
