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

#include "model.h"

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
};
bool json_map_offers(const json_t *root, struct offer **v, size_t *n); /* {"offers":[...]} or array */
void offers_free(struct offer *v, size_t n);

struct template_rec {
	long id;
	char *hash_id, *name, *image, *tag, *runtype, *desc;
	double recommended_disk_space;        /* GB */
	long creator_id, count_created;
	double created_at;                    /* epoch */
	bool private_;
};
bool json_map_templates(const json_t *root, struct template_rec **v, size_t *n); /* {"templates":[...]} */
void templates_free(struct template_rec *v, size_t n);

/* Every field of an object as sorted key/value text (secrets masked, values
 * sanitised).  Used for detail views. */
struct kv *json_map_fields(const json_t *obj, size_t *n);

/* Is this key a secret whose value must never be shown? */
bool json_map_is_secret_key(const char *key);

#endif
