/* acct.h: pure helpers of the account view and its 2FA dialogs: the API-key
 * and team-role scope picker (scope -> permissions object) and the reverse
 * (rights -> a short summary), E.164 phone numbers, the 2FA lock and
 * authorization-window countdowns, and a base32 secret in groups of four for
 * manual entry.  Pure; any thread; no state. */
#ifndef RENTOP_ACCT_H
#define RENTOP_ACCT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- scopes ----------------------------------------------------------------- */

/* The permission categories the picker offers (SPEC.md names misc,
 * user_read, instance_read, instance_write; the live console adds the
 * others).  Bit i of a mask is acct_category_name(i). */
enum acct_category {
	CAT_MISC,
	CAT_USER_READ,
	CAT_USER_WRITE,
	CAT_INSTANCE_READ,
	CAT_INSTANCE_WRITE,
	CAT_BILLING_READ,
	CAT_BILLING_WRITE,
	CAT_MACHINE_READ,
	CAT_MACHINE_WRITE,
	CAT_TEAM_READ,
	CAT_TEAM_WRITE,
	CAT__COUNT
};
#define ACCT_CAT_ALL ((1u << CAT__COUNT) - 1u)
const char *acct_category_name(enum acct_category c); /* "instance_read" */
/* Category by name; -1 when unknown. */
int acct_category_from_name(const char *name);

enum acct_scope {
	SCOPE_FULL,       /* every category */
	SCOPE_READ_ONLY,  /* user_read + instance_read */
	SCOPE_INSTANCES,  /* instance_read + instance_write + misc */
	SCOPE_CUSTOM,     /* the categories of a mask */
};
/* The picker's label: "full access", "read-only", "instances", "custom". */
const char *acct_scope_name(enum acct_scope s);
/* The mask of a scope (custom_mask for SCOPE_CUSTOM). */
unsigned acct_scope_mask(enum acct_scope s, unsigned custom_mask);
/* {"api":{"<category>":{}, ...}} for the scope (new reference), or NULL
 * for a custom scope with an empty mask (nothing would be allowed). */
json_t *acct_scope_permissions(enum acct_scope s, unsigned custom_mask);

/* The categories granted by a permissions object ({"api":{...}} or the
 * categories directly; a JSON text or a value) or by a list of category
 * names (the docs' shape of a role's permissions).  *unknown counts names
 * outside the catalogue (may be NULL); any other value, or text that is not
 * JSON, grants none known (unknown 1).  NULL/empty/null rights: ACCT_CAT_ALL
 * (a key without rights is a full-access key). */
unsigned acct_rights_mask(const json_t *rights, int *unknown);
unsigned acct_rights_mask_text(const char *rights_json, int *unknown);
/* A short summary for a table cell: "full access", "read-only",
 * "instances", or "custom: instance_read, misc" (categories in catalogue
 * order; unknown ones as "+N other"); a list of names as "list: read,
 * write"; any other value or text as "as sent: TEXT".  Into buf; returns
 * buf. */
char *acct_rights_summary(const char *rights_json, char *buf, size_t n);

/* ---- phone numbers ------------------------------------------------------------- */

/* E.164: '+', a non-zero first digit, 8 to 15 digits in all. */
bool acct_e164_valid(const char *s);
/* Normalise typed input: drop blanks, '-', '.', '(' and ')'; "00" prefix
 * becomes '+'.  Into out; true when the result is valid E.164. */
bool acct_e164_normalize(const char *in, char *out, size_t n);

/* ---- countdowns ------------------------------------------------------------------ */

/* "14m32s", "1h02m03s", "45s" for a number of seconds (rounded up). */
char *acct_fmt_countdown(char *buf, size_t n, double seconds);
/* "locked for 14m32s" while locked_until > now (true), else "" (false).
 * locked_until NAN or 0: not locked. */
bool acct_lock_countdown(char *buf, size_t n, double locked_until, double now);

#define ACCT_TFA_WINDOW 1800.0 /* s: the authorize-new-method window */
/* Seconds left of the window opened at authorized_at (0 when closed or
 * unknown, authorized_at <= 0). */
double acct_window_left(double authorized_at, double now);

/* ---- base32 --------------------------------------------------------------------- */

/* The secret upper-cased, blanks and '=' padding dropped, in groups of four
 * separated by a space ("JBSW Y3DP EHPK 3PXP").  Into buf; returns buf (""
 * when it does not fit).  The caller wipes buf: it holds the secret. */
char *acct_base32_groups(const char *secret, char *buf, size_t n);

#endif
