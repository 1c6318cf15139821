/* notify.h: which events reach the operator beyond the screen, and what a
 * notification says (the outputs are ui/notify_out.c's).
 *
 * An event notifies when one of its flags names a kind (notify_classify:
 * EVF_FAILED_INSTANCE is failed, or offline with EVF_OFFLINE; EVF_OUTBID,
 * EVF_IDLE, EVF_HOT, EVF_DISK, EVF_MONEY (runway), EVF_ENDPOINT,
 * EVF_TFA_EXPIRED (tfa)), the kind is switched on (notify_kinds), and the
 * rules let it through (notify_rules_pass):
 *  - one notification per instance and kind per NOTIFY_REPEAT_S (an hour)
 *    unless its text changed (another state, another message);
 *  - at most NOTIFY_BURST of a kind in NOTIFY_BURST_S (a host outage
 *    failing 200 instances wakes no one 200 times; a money alarm still
 *    passes): the rest are held back, counted, and the next notification
 *    of the kind that passes says how many ("(+12 more held back: see the
 *    event log)");
 *  - a failing notify_command is said once (notify_rules_cmd_failed) until
 *    it succeeds again.
 * Pure (no I/O, no clock: the caller passes now); a struct notify_rules
 * belongs to one thread (the UI's). */
#ifndef RENTOP_NOTIFY_H
#define RENTOP_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "state/instance.h"
#include "state/model.h"

#define NOTIFY_REPEAT_S 3600.0
#define NOTIFY_BURST 5
#define NOTIFY_BURST_S 60.0

/* One notification: the event's words and, about an instance, what the
 * snapshot knew of it.  Never a secret (event texts never hold one; a
 * label is the owner's). */
struct notice {
	enum notify_kind kind;
	enum ev_level level;
	long instance_id;   /* 0: not about one instance */
	double when;        /* wall epoch */
	char text[320];     /* sanitised */
	char label[64];     /* "" when none or unknown */
	char gpu[64];       /* "2x RTX 4090", "" when unknown */
	char state[24];     /* instance_state_name, "" when unknown */
	double price;       /* $/h the instance costs (dph_total), NAN when unknown */
};

/* The kind of notification e is; false when it is none. */
bool notify_classify(const struct event *e, enum notify_kind *kind);
/* Fill n from e (kind k) and x, the instance's record (NULL: unknown). */
void notify_notice(struct notice *n, const struct event *e, enum notify_kind k,
		   const struct instance *x);

struct notify_rules;
struct notify_rules *notify_rules_new(void);
void notify_rules_free(struct notify_rules *r);
/* Does n notify at wall time now, with kinds (1u << enum notify_kind) on?
 * True when it passes: it is remembered, and a count of notices held back
 * since the last one that passed is appended to n->text. */
bool notify_rules_pass(struct notify_rules *r, unsigned kinds, struct notice *n, double now);
/* notify_command failed: true the first time since the start or since it
 * last succeeded (say it then, not again). */
bool notify_rules_cmd_failed(struct notify_rules *r);
/* notify_command succeeded: its next failure is said again. */
void notify_rules_cmd_ok(struct notify_rules *r);

/* "info", "ok", "warn", "error". */
const char *notify_level_name(enum ev_level l);
/* n as one line of JSON and a newline (malloc'd): kind, level, text, time
 * (ISO 8601, UTC), and where known instance_id, label, gpu, state,
 * price_per_hour. */
char *notify_json(const struct notice *n);

/* The terminal's desktop notifications (malloc'd, NUL-terminated, no NUL
 * inside): OSC 9 "ESC ] 9 ; rentop: TEXT BEL" and OSC 777
 * "ESC ] 777 ; notify ; rentop: KIND [LABEL] ; TEXT BEL" (the label's ';'
 * made ',', the title at most 79 bytes); the text without control
 * bytes (C0, DEL, C1) or broken UTF-8, at most 200 bytes; under tmux
 * (in_tmux) wrapped for its passthrough: "ESC P tmux; ... ESC \" with each
 * ESC inside doubled. */
char *notify_osc9(const struct notice *n, bool in_tmux);
char *notify_osc777(const struct notice *n, bool in_tmux);
/* s made safe inside an OSC string into dst (n bytes): control bytes and
 * broken UTF-8 dropped, ';' made ',' when no_semicolon, cut on a character
 * boundary. */
void notify_osc_text(char *dst, size_t n, const char *s, bool no_semicolon);
/* seq wrapped for tmux's passthrough (malloc'd). */
char *notify_tmux_wrap(const char *seq);

#endif
