/* acct_map.c: see acct_map.h. */
#include "flow/acct_map.h"

#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "json/json_map.h"
#include "flow/acctops.h"
#include "base/util.h"

void *acct_map_env(const json_t *root, struct api_error *e)
{
	return json_list_map(&json_map_env_list, root, e);
}

void *acct_map_apikeys(const json_t *root, struct api_error *e)
{
	return json_list_map(&json_map_api_keys_list, root, e);
}

void *acct_map_ssh(const json_t *root, struct api_error *e)
{
	return json_list_map(&api_account_ssh_list, root, e);
}

void *acct_map_roles(const json_t *root, struct api_error *e)
{
	return json_list_map(&api_account_roles_list, root, e);
}

void *acct_map_reports(const json_t *root, struct api_error *e)
{
	return json_list_map(&json_map_reports_list, root, e);
}

static bool decode_values(const json_t *root, void *v, size_t *n)
{
	return acctops_env_values(root, v, n);
}

static void free_values(void *v, size_t n)
{
	acctops_env_values_free(v, n);
}

static const struct json_list_kind values_kind = {
	.what = "env vars", .size = sizeof(struct env_value), .decode = decode_values,
	.free_recs = free_values,
};

void *acct_map_env_values(const json_t *root, struct api_error *e)
{
	return json_list_map(&values_kind, root, e);
}

void acct_map_key_free(void *p)
{
	if (p)
		explicit_bzero(p, sizeof(struct api_account_key));
	free(p);
}

void *acct_map_key_created(const json_t *root, struct api_error *e)
{
	struct api_account_key *k = xcalloc(1, sizeof *k);
	if (!api_apikey_created(root, k->key, sizeof k->key, &k->id)) {
		acct_map_key_free(k);
		apierr_protocol(e, 200, "the answer holds no key");
		return NULL;
	}
	return k;
}

void *acct_map_key_shown(const json_t *root, struct api_error *e)
{
	struct api_account_key *k = xcalloc(1, sizeof *k);
	if (!api_apikey_shown(root, k->key, sizeof k->key)) {
		acct_map_key_free(k);
		apierr_protocol(e, 200, "the answer holds no key");
		return NULL;
	}
	return k;
}
