/* idle.c: the idle, hot and disk rules of one instance over its samples
 * (idle.h). */
#include "rules/idle.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

void idle_conf_from(struct idle_conf *c, const struct config *cfg)
{
	c->util = cfg->idle_util;
	c->window_s = cfg->idle_minutes * 60.0;
	c->hot_temp = cfg->hot_temp;
	c->disk_full = cfg->disk_full / 100.0;
	c->exempt = cfg->idle_exempt;
}

void idle_track_init(struct idle_track *t)
{
	memset(t, 0, sizeof *t);
	t->uptime = NAN;
}

double idle_disk_frac(const struct instance *x)
{
	if (isfinite(x->disk_usage) && x->disk_usage >= 0 && isfinite(x->disk_space) &&
	    x->disk_space > 0)
		return x->disk_usage / x->disk_space;
	if (isfinite(x->disk_util) && x->disk_util >= 0)
		return x->disk_util;
	return NAN;
}

/* Does the word w (n bytes) name x: its id, or its label (case-insensitive)? */
static bool names(const struct instance *x, const char *w, size_t n)
{
	if (!n)
		return false;
	char id[24];
	int l = snprintf(id, sizeof id, "%ld", x->id);
	if ((size_t)l == n && memcmp(id, w, n) == 0)
		return true;
	return x->label && strlen(x->label) == n && strncasecmp(x->label, w, n) == 0;
}

bool idle_exempt(const struct instance *x, const char *exempt)
{
	const char *lb = x->label ? x->label : "";
	for (const char *p = lb; (p = strcasestr(p, "noidle")) != NULL; p += 6) {
		bool start = p == lb || !isalnum((unsigned char)p[-1]);
		bool end = !isalnum((unsigned char)p[6]);
		if (start && end)
			return true;
	}
	for (const char *p = exempt; p && *p;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		const char *e = p;
		while (*e && *e != ',')
			e++;
		const char *t = e;
		while (t > p && isspace((unsigned char)t[-1]))
			t--;
		if (names(x, p, (size_t)(t - p)))
			return true;
		p = e;
	}
	return false;
}

unsigned idle_step(struct idle_track *t, const struct instance *x, const struct idle_conf *c,
		   double now)
{
	unsigned was = t->flags, f = 0;
	bool gap = t->last_at > 0 && now - t->last_at > IDLE_GAP_S;
	double up = x->uptime_mins;
	bool restarted = isfinite(up) && isfinite(t->uptime) && up < t->uptime;
	t->last_at = now;
	t->uptime = up;
	if (x->state != IS_RUNNING) { /* stopped, booting, failed, rebooting: a new window */
		t->low_since = 0;
		t->flags = 0;
		return 0;
	}
	/* idle: under the limit since low_since, sampled without a gap in one run */
	if (gap || restarted || !isfinite(x->gpu_util) || !(c->util > 0) ||
	    x->gpu_util >= c->util)
		t->low_since = 0;
	if (isfinite(x->gpu_util) && c->util > 0 && x->gpu_util < c->util) {
		if (t->low_since == 0)
			t->low_since = now;
		if (now - t->low_since >= c->window_s && !idle_exempt(x, c->exempt))
			f |= IDLE_F_IDLE;
	}
	if (c->hot_temp > 0 && isfinite(x->gpu_temp) &&
	    x->gpu_temp > c->hot_temp - ((was & IDLE_F_HOT) ? IDLE_HOT_CLEAR : 0))
		f |= IDLE_F_HOT;
	double d = idle_disk_frac(x);
	if (c->disk_full > 0 && isfinite(d) &&
	    d > c->disk_full - ((was & IDLE_F_DISK) ? IDLE_DISK_CLEAR : 0))
		f |= IDLE_F_DISK;
	t->flags = (uint8_t)f;
	return f;
}

const char *idle_flag_name(unsigned flag)
{
	switch (flag) {
	case IDLE_F_IDLE: return "idle";
	case IDLE_F_HOT: return "hot";
	case IDLE_F_DISK: return "disk";
	default: return "";
	}
}

char *idle_flags_text(unsigned flags, char *buf, size_t n)
{
	size_t l = 0;
	if (n)
		buf[0] = '\0';
	for (unsigned f = IDLE_F_IDLE; f <= IDLE_F_DISK; f <<= 1)
		if (flags & f) {
			int k = snprintf(buf + l, l < n ? n - l : 0, "%s%s", l ? " " : "", idle_flag_name(f));
			l += k > 0 ? (size_t)k : 0;
		}
	return buf;
}
