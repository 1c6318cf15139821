/* acct_map.h: the jobs mappers of the account view's calls (they run
 * on the poller thread: jobs.h's jobs_map_fn): the lists (env vars, API
 * keys, SSH keys, team roles, a machine's reports) as struct json_list, the
 * env values read by the reveal, and the secret answers of an API key's
 * creation and of a key show.  Secrets (a key, an env value) are wiped when
 * their value is freed.  Any thread. */
#ifndef RENTOP_ACCT_MAP_H
#define RENTOP_ACCT_MAP_H

#include <jansson.h>

#include "net/apierr.h"
#include "json/json_list.h"

/* The lists: a struct json_list (free it with json_list_free), NULL with a
 * protocol error ("<list>: unexpected answer") when the shape is wrong. */
void *acct_map_env(const json_t *root, struct api_error *e);     /* struct env_var */
void *acct_map_apikeys(const json_t *root, struct api_error *e); /* struct api_key_rec */
void *acct_map_ssh(const json_t *root, struct api_error *e);     /* struct ssh_key_rec */
void *acct_map_roles(const json_t *root, struct api_error *e);   /* struct team_role */
void *acct_map_reports(const json_t *root, struct api_error *e); /* struct machine_report */
/* The env list with its values as sent (struct env_value: secrets, wiped
 * by json_list_free). */
void *acct_map_env_values(const json_t *root, struct api_error *e);

#define API_ACCOUNT_KEY_MAX 512 /* bytes of an API key accepted */

/* A secret answer: a new key (id set) or the key a show sent. */
struct api_account_key {
	long id;
	char key[API_ACCOUNT_KEY_MAX];
};
/* The answer of an API key creation / of a key show: a struct
 * api_account_key, NULL with a protocol error when it holds no key. */
void *acct_map_key_created(const json_t *root, struct api_error *e);
void *acct_map_key_shown(const json_t *root, struct api_error *e);
/* Wipes, then frees, a struct api_account_key (a jobs_free_fn). */
void acct_map_key_free(void *p);

#endif
