/* json_map.h: jansson values to the model's C records.  Tolerant: missing,
 * null, wrongly typed and unknown fields never crash and never corrupt other
 * fields (a wrong type reads as missing).  Every string is sanitised; secret
 * fields (api_key, instance_api_key, jupyter_token, session_key, ...) are
 * never copied into a record (in kv field lists their value is "********").
 * Pure; any thread; no json_t is kept. */
#ifndef RENTOP_JSON_MAP_H
#define RENTOP_JSON_MAP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "json/json_list.h"
#include "state/model.h"

/* One instance object into *out (zeroed first).  False if obj is not an
 * object or has no integer id. */
bool json_map_instance(const json_t *obj, struct instance *out);

/* An instance list response in any of its shapes: v1 {"instances":[...],
 * "next_token":...}, v0 {"instances":[...]}, a bare array, or the one-instance
 * form {"instances": {...} | null}.  Appends to *v and *n (realloc'd).
 * *next_token gets a malloc'd token or NULL.  False if the shape is wrong. */
bool json_map_instances(const json_t *root, struct instance **v, size_t *n, char **next_token);

bool json_map_user(const json_t *root, struct user *out);            /* zeroed first */
bool json_map_workergroups(const json_t *root, struct workergroup **v, size_t *n); /* {"results":[...]} or array */
bool json_map_endpoints(const json_t *root, struct endpoint **v, size_t *n);

/* Offers, templates and the rest (for later views and --dump). */
struct offer {
	long id;
	long machine_id;
	int num_gpus;
	char *gpu_name;
	double dph_total, dph_base, min_bid;  /* $/hour */
	double reliability;                   /* 0-1 */
	bool verified, rentable;
	double gpu_ram;                       /* MB per GPU */
	int direct_port_count;
	double dlperf, dlperf_per_dphtotal, total_flops, score;
	double cpu_ram;                       /* MB */
	double disk_space;                    /* GB */
	double inet_up, inet_down;            /* Mbit/s */
	double cuda_max_good;
	char *geolocation, *verification;
	double duration;                      /* s of availability left */
	double storage_cost;                  /* $/GB/month, NAN when not sent */
	long host_id;
	double cpu_cores_effective, cpu_ghz;
	double compute_cap;                   /* 890 = 8.9 */
	char *driver_version, *cpu_name;
	double credit_discount_max;           /* 0-0.4, NAN when not sent */
	bool is_bid;                          /* priced as an interruptible (type bid) */
};
bool json_map_offers(const json_t *root, struct offer **v, size_t *n); /* {"offers":[...]} or array */
void json_map_offers_free(struct offer *v, size_t n);

struct template_rec {
	long id;
	char *hash_id, *name, *image, *tag, *runtype, *desc;
	double recommended_disk_space;        /* GB */
	long creator_id, count_created;
	double created_at;                    /* epoch */
	bool private_;
	bool recommended;
	char *env;                            /* flag string "-e K=V -p H:C" */
	char *onstart;                        /* newlines kept */
	char *args_str;
	bool ssh_direct, jup_direct, use_ssh;
	char *docker_login_repo, *docker_login_user; /* the password is never kept */
	char *search;                         /* extra_filters as a query line (query_text:
					       * "cuda_max_good>=12"); NULL: none, or not
					       * one the query language carries */
};
bool json_map_templates(const json_t *root, struct template_rec **v, size_t *n); /* {"templates":[...]} */
void json_map_templates_free(struct template_rec *v, size_t n);

/* Every field of an object as sorted key/value text (secrets masked, values
 * sanitised).  Used for detail views. */
struct kv *json_map_fields(const json_t *obj, size_t *n);

/* Is this key a secret whose value must never be shown? */
/* Drop secret keys (json_map_is_secret_key) everywhere in v (objects and
 * arrays, recursively) and mask every environment value (secrets_masked):
 * what --dump --json prints. */
void json_map_strip_secrets(json_t *v);
bool json_map_is_secret_key(const char *key);
/* Permissions (an API key's rights, a team role's permissions) as text fit
 * for display: an object, an array (the docs type a role's as a list of
 * names) or any other value as compact JSON (strings sanitised, nested
 * secrets masked), a string holding JSON as that JSON, a string that is not
 * JSON as itself (sanitised); "" for null or absent.  Never blanks what the
 * service sent.  malloc'd. */
char *json_map_rights_text(const json_t *v);

/* ---- account: 2FA, env vars, API keys; machine reports ------------------ */

struct tfa_method_rec {
	long id, user_id;                     /* id is usable as tfa_method_id */
	char *method;                         /* sms|totp|email */
	char *label;
	char *phone_number;                   /* masked as sent ("+1******4321"), SMS only */
	bool is_primary;
	int fail_count;                       /* failed attempts */
	double locked_until;                  /* epoch s, NAN when null (not locked) */
	double created_at, last_used;         /* epoch s, NAN when missing */
};
struct tfa_status_rec {
	bool tfa_enabled, new_method_authorized;
	int backup_codes_remaining;
	struct tfa_method_rec *methods;       /* as sent; id-less entries skipped */
	size_t nmethods;
};
/* GET /api/v0/tfa/status/ into *out (zeroed first).  False when root is not
 * an object, "methods" has a wrong type, or neither tfa_enabled nor methods
 * was sent (an error body). */
bool json_map_tfa_status(const json_t *root, struct tfa_status_rec *out);
void json_map_tfa_status_free(struct tfa_status_rec *s); /* frees what *s owns, zeroes *s */

struct env_var {
	char *key;
	char *value;  /* as sent when a run of '*' (the service masks values), else "********" */
};
/* Each name (len bytes, as sent: not sanitised) and value of an env var
 * answer, in every shape it comes in: {"success":true,"secrets":{"NAME":
 * "*****"}}, a bare object of name->value, or a list of {"key","value"}
 * objects (bare or under "secrets").  False if the shape is wrong (an object
 * with "error" or "success" but no "secrets" is an error body). */
typedef void (*json_map_env_fn)(const char *name, size_t len, const json_t *value, void *ctx);
bool json_map_env_each(const json_t *root, json_map_env_fn fn, void *ctx);
/* The same answer as a list: appends to *v and *n (realloc'd), each value
 * masked unless it is a run of stars, and sorts the whole list by key. */
bool json_map_env_vars(const json_t *root, struct env_var **v, size_t *n);
void json_map_env_vars_free(struct env_var *v, size_t n);
extern const struct json_list_kind json_map_env_list; /* json_map_env_vars as a list kind */

struct api_key_rec {
	long id, user_id, team_id;
	char *name;
	char *rights;      /* the permissions object as compact JSON text, sanitised; "" if not sent */
	double created_at; /* epoch s */
};
/* {"apikeys":[...]} or a bare array; appends.  The key itself is never copied. */
bool json_map_api_keys(const json_t *root, struct api_key_rec **v, size_t *n);
void json_map_api_keys_free(struct api_key_rec *v, size_t n);
extern const struct json_list_kind json_map_api_keys_list; /* json_map_api_keys as a list kind */

struct machine_report {
	char *problem, *message;
	char *created_at;  /* date-time text as sent (an epoch number as "%.0f") */
};
/* A bare array (live) or {"reports":[...]}; appends; every object is a report. */
bool json_map_machine_reports(const json_t *root, struct machine_report **v, size_t *n);
void json_map_machine_reports_free(struct machine_report *v, size_t n);
extern const struct json_list_kind json_map_reports_list; /* json_map_machine_reports as a list kind */

#endif
