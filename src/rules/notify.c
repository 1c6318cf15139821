/* notify.c: the notification rules and what a notification says
 * (notify.h). */
#include "rules/notify.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "base/xmalloc.h"

bool notify_classify(const struct event *e, enum notify_kind *kind)
{
	static const struct {
		unsigned flag;
		enum notify_kind kind;
	} map[] = {
		{ EVF_OUTBID, NK_OUTBID },     { EVF_IDLE, NK_IDLE },
		{ EVF_HOT, NK_HOT },           { EVF_DISK, NK_DISK },
		{ EVF_MONEY, NK_RUNWAY },      { EVF_ENDPOINT, NK_ENDPOINT },
		{ EVF_TFA_EXPIRED, NK_TFA },
	};
	if (e->flags & EVF_FAILED_INSTANCE) {
		*kind = (e->flags & EVF_OFFLINE) ? NK_OFFLINE : NK_FAILED;
		return true;
	}
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (e->flags & map[i].flag) {
			*kind = map[i].kind;
			return true;
		}
	return false;
}

void notify_notice(struct notice *n, const struct event *e, enum notify_kind k,
		   const struct instance *x)
{
	memset(n, 0, sizeof *n);
	n->kind = k;
	n->level = e->level;
	n->instance_id = e->instance_id;
	n->when = e->when;
	n->price = NAN;
	util_strlcpy(n->text, e->text, sizeof n->text);
	if (!x)
		return;
	if (x->label)
		util_strlcpy(n->label, x->label, sizeof n->label);
	if (x->gpu_name && x->gpu_name[0])
		snprintf(n->gpu, sizeof n->gpu, "%dx %s", x->num_gpus, x->gpu_name);
	util_strlcpy(n->state, instance_state_name(x->state), sizeof n->state);
	if (isfinite(x->dph_total))
		n->price = x->dph_total;
}

/* What was last sent for one instance and kind. */
struct sent {
	long id;
	enum notify_kind kind;
	double at;      /* wall epoch */
	uint64_t hash;  /* of the text */
};

struct notify_rules {
	struct sent *v;
	size_t n, cap;
	/* by kind: the times of the last passes (a ring), and how many the
	 * burst held back since the last pass */
	double burst[NK__COUNT][NOTIFY_BURST];
	size_t bi[NK__COUNT];
	size_t held[NK__COUNT];
	bool cmd_said;              /* a command failure was said */
};

struct notify_rules *notify_rules_new(void)
{
	struct notify_rules *r = xcalloc(1, sizeof *r);
	for (size_t k = 0; k < NK__COUNT; k++)
		for (size_t i = 0; i < NOTIFY_BURST; i++)
			r->burst[k][i] = -INFINITY;
	return r;
}

void notify_rules_free(struct notify_rules *r)
{
	if (!r)
		return;
	free(r->v);
	free(r);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

bool notify_rules_pass(struct notify_rules *r, unsigned kinds, struct notice *n, double now)
{
	if ((unsigned)n->kind >= NK__COUNT || !(kinds & (1u << n->kind)))
		return false;
	uint64_t h = fnv1a(n->text);
	struct sent *hit = NULL;
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++) { /* forget what is past the window */
		if (now - r->v[i].at >= NOTIFY_REPEAT_S)
			continue;
		r->v[k] = r->v[i];
		if (r->v[k].id == n->instance_id && r->v[k].kind == n->kind)
			hit = &r->v[k];
		k++;
	}
	r->n = k;
	if (hit && hit->hash == h)
		return false; /* the same, within the hour */
	double *slot = &r->burst[n->kind][r->bi[n->kind]];
	if (now - *slot < NOTIFY_BURST_S) {
		r->held[n->kind]++; /* too many at once: the event log has it */
		return false;
	}
	*slot = now;
	r->bi[n->kind] = (r->bi[n->kind] + 1) % NOTIFY_BURST;
	if (!hit) {
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 16;
			r->v = xrealloc(r->v, r->cap * sizeof *r->v);
		}
		hit = &r->v[r->n++];
		hit->id = n->instance_id;
		hit->kind = n->kind;
	}
	hit->at = now;
	hit->hash = h;
	if (r->held[n->kind]) {
		size_t len = strlen(n->text);
		snprintf(n->text + len, sizeof n->text - len, " (+%zu more held back: see the event log)",
			 r->held[n->kind]);
		r->held[n->kind] = 0;
	}
	return true;
}

bool notify_rules_cmd_failed(struct notify_rules *r)
{
	bool first = !r->cmd_said;
	r->cmd_said = true;
	return first;
}

void notify_rules_cmd_ok(struct notify_rules *r)
{
	r->cmd_said = false;
}

const char *notify_level_name(enum ev_level l)
{
	switch (l) {
	case EV_INFO: return "info";
	case EV_OK: return "ok";
	case EV_WARN: return "warn";
	case EV_ERROR: return "error";
	}
	return "info";
}

char *notify_json(const struct notice *n)
{
	char t[32] = "";
	time_t secs = (time_t)n->when;
	struct tm tm;
	if (gmtime_r(&secs, &tm))
		strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(config_notify_kind_name(n->kind)));
	json_object_set_new(o, "level", json_string(notify_level_name(n->level)));
	json_object_set_new(o, "text", json_string(n->text));
	json_object_set_new(o, "time", json_string(t));
	if (n->instance_id)
		json_object_set_new(o, "instance_id", json_integer(n->instance_id));
	if (n->label[0])
		json_object_set_new(o, "label", json_string(n->label));
	if (n->gpu[0])
		json_object_set_new(o, "gpu", json_string(n->gpu));
	if (n->state[0])
		json_object_set_new(o, "state", json_string(n->state));
	if (isfinite(n->price))
		json_object_set_new(o, "price_per_hour", json_real(n->price));
	/* a string jansson refuses (not UTF-8) is left out, never the whole */
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(o);
	char *line = xasprintf("%s\n", s ? s : "{}");
	free(s);
	return line;
}

/* The length of the well-formed UTF-8 character at s that is no C1
 * control; 0 when s starts none. */
static size_t utf8_ok(const unsigned char *s)
{
	size_t len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
	if (!len || s[0] > 0xF4)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if (len == 2 && s[0] == 0xC2 && s[1] < 0xA0)
		return 0; /* U+0080-U+009F: C1 controls (ST among them) */
	if (len == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
		return 0; /* overlong, surrogate */
	if (len == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
		return 0;
	return len;
}

void notify_osc_text(char *dst, size_t n, const char *s, bool no_semicolon)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && n) {
		if (*p < 0x80) {
			if (*p >= 0x20 && *p != 0x7F) {
				if (o + 1 >= n)
					break;
				dst[o++] = (char)(*p == ';' && no_semicolon ? ',' : *p);
			}
			p++;
			continue;
		}
		size_t l = utf8_ok(p);
		if (!l) {
			p++; /* a stray byte: 0x9C alone is ST to some terminals */
			continue;
		}
		if (o + l >= n)
			break;
		memcpy(dst + o, p, l);
		o += l;
		p += l;
	}
	if (n)
		dst[o] = '\0';
}

char *notify_tmux_wrap(const char *seq)
{
	struct util_buf b = { 0 };
	util_buf_put(&b, "\033Ptmux;", 7);
	for (const char *p = seq; *p; p++) /* an ESC inside is doubled */
		util_buf_put(&b, *p == '\033' ? "\033\033" : p, *p == '\033' ? 2 : 1);
	util_buf_put(&b, "\033\\", 2);
	return b.s;
}

static char *finish(char *seq, bool in_tmux)
{
	if (!in_tmux)
		return seq;
	char *w = notify_tmux_wrap(seq);
	free(seq);
	return w;
}

#define OSC_TEXT 201 /* 200 bytes and the NUL */

char *notify_osc9(const struct notice *n, bool in_tmux)
{
	char body[OSC_TEXT];
	notify_osc_text(body, sizeof body, n->text, false);
	return finish(xasprintf("\033]9;rentop: %s\a", body), in_tmux);
}

char *notify_osc777(const struct notice *n, bool in_tmux)
{
	char body[OSC_TEXT], title[OSC_TEXT], raw[OSC_TEXT];
	notify_osc_text(body, sizeof body, n->text, false);
	const char *k = config_notify_kind_name(n->kind);
	/* the title ends at the first ';': none in the label */
	snprintf(raw, sizeof raw, "rentop: %s%s%s", k ? k : "event", n->label[0] ? " " : "", n->label);
	notify_osc_text(title, 80, raw, true);
	return finish(xasprintf("\033]777;notify;%s;%s\a", title, body), in_tmux);
}
