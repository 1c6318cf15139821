/* secrets.h: the masking of environment values wherever the service sends
 * them: an instance's extra_env ([name, value] pairs), a template's env
 * (the "-e NAME=VALUE -p H:C" flag string), a creation request's or a
 * workergroup's env (an object of name to value), launch_args flag strings,
 * and onstart scripts that assign a variable whose name looks like a secret
 * (HF_TOKEN=..., export WANDB_API_KEY=...).  Every env value is masked, not
 * only the ones whose names look secret: names do not reliably tell.  Pure
 * functions, any thread. */
#ifndef RENTOP_SECRETS_H
#define RENTOP_SECRETS_H

#include <jansson.h>
#include <stdbool.h>

#define SECRETS_MASK "********"

/* Does an environment variable name look like it holds a secret (TOKEN,
 * KEY, SECRET, PASS, AUTH, CRED, PRIVATE, SESSION, COOKIE, any case)? */
bool secrets_name_looks_secret(const char *name);

/* Is this record key one whose value carries environment values (extra_env,
 * env, onstart, launch_args)? */
bool secrets_is_env_key(const char *key);

/* A masked copy (new reference) of the value of an env-carrying key, or
 * NULL when key is not one of them.  Shapes: a list of [name, value] pairs
 * or of {"key"/"name", "value"} objects, an object of name to value (port
 * mappings "-p H:C" kept), a flag string ("-e NAME=VALUE", "--env NAME=V",
 * "--env=NAME=V"), an onstart script (secret-looking assignments only).
 * Names are kept; an empty or null value stays as it is. */
json_t *secrets_masked(const char *key, const json_t *val);

/* Mask every env-carrying member of v in place, recursively (objects and
 * arrays). */
void secrets_mask_tree(json_t *v);

/* The flag string with every -e/--env value masked; a new string. */
char *secrets_mask_flags(const char *s);
/* The script with the value of every secret-looking NAME=VALUE masked. */
char *secrets_mask_script(const char *s);

#endif
