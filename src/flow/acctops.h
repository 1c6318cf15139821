/* acctops.h: pure rules of the account view's changes that acct.h does not
 * hold: the scope picker read back from a permissions object (a role being
 * edited opens on its own scope), the permissions of an edited role (the
 * categories chosen, everything rentop does not know kept as it was), a
 * secret written once to a new 0600 file (a new API key), the machine id of
 * `:reports`, the age of a machine report, and how many records of a list
 * hold what a write makes (the re-read after a lost answer).  Pure but for
 * acctops_write_secret (one file); any thread; no state. */
#ifndef RENTOP_ACCTOPS_H
#define RENTOP_ACCTOPS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "rules/acct.h"
#include "api/api_account.h"
#include "json/json_map.h"

/* The picker's scope of a category mask: full access (every category),
 * read-only, instances, else custom (the mask's categories ticked). */
enum acct_scope acctops_scope_of(unsigned mask);

/* The permissions object of an edited role or key: the original (JSON text,
 * "" or NULL: none) with its known categories replaced by those of mask
 * (a category kept keeps its original value, constraints and all; a new one
 * is {}), and every name rentop does not know kept as it was.  Written
 * under "api" when the original had it or was empty.  New reference; NULL
 * when nothing at all would be granted. */
json_t *acctops_permissions_merge(const char *orig_json, unsigned mask);

/* A path as typed: "~/x" becomes $HOME/x (home: the value of $HOME; NULL
 * or "" leaves "~" alone).  Into out; false when it does not fit or is "". */
bool acctops_expand_path(const char *typed, const char *home, char *out, size_t n);

/* Write text and a newline to a NEW file at path, mode 0600 (O_EXCL and
 * O_NOFOLLOW: an existing file or a symlink is never overwritten), fsync'd.
 * False with the reason in err (the path named, never the text); a file
 * half written is removed. */
bool acctops_write_secret(const char *path, const char *text, char *err, size_t n);

/* A machine id as typed after `:reports` (blanks around allowed): a
 * positive integer.  False otherwise. */
bool acctops_machine_id(const char *s, long *out);

/* "2026-11-20 14:02 (3d04h ago)" for a report's created_at as sent (ISO
 * 8601 with or without a zone, or epoch seconds as text); the text as sent
 * (already sanitised by the mapper) when it cannot be read.  Into buf. */
char *acctops_report_when(const char *created_at, double now, char *buf, size_t n);

/* The records of a re-read list that hold what a write makes (the count a
 * lost answer's re-read gives form_lost_reread): env vars named key; API
 * keys named name; SSH keys of fingerprint ("SHA256:..."); team roles named
 * name (id > 0: only role id, and only when its permissions give exactly
 * the categories of mask). */
int acctops_env_count(const struct env_var *v, size_t n, const char *key);
int acctops_apikey_count(const struct api_key_rec *v, size_t n, const char *name);
int acctops_ssh_count(const struct ssh_key_rec *v, size_t n, const char *fingerprint);
int acctops_role_count(const struct team_role *v, size_t n, long id, const char *name,
		       unsigned mask);

/* The SSH key of v[0..n) that a new line repeats (the same fingerprint, or
 * the same base64 blob when a listed line is not valid and has none),
 * or NULL. */
const struct ssh_key_rec *acctops_ssh_duplicate(const struct ssh_key_rec *v, size_t n,
						const char *fingerprint, const char *line);

/* An env var's value as GET /api/v0/secrets/ sends it (for `v`, shown on
 * request): a secret, wiped when freed. */
struct env_value {
	char *key;   /* as sent */
	char *value; /* as sent: the value, or the service's mask */
};
/* Every name and value of the answer (the shapes json_map_env_vars reads);
 * false when the shape is wrong.  *v and *n are set (NULL, 0 on failure). */
bool acctops_env_values(const json_t *root, struct env_value **v, size_t *n);
void acctops_env_values_free(struct env_value *v, size_t n); /* the values wiped first */
/* Is value the service's mask (a run of '*', or empty): no value to show? */
bool acctops_env_masked(const char *value);

#endif
