/* api_volumes.c: volumes' calls, records and rules (api_volumes.h). */
#include "api/api_volumes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"
#include "json/json_list.h"

/* ---- records --------------------------------------------------------------------------- */

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static long id_of(const json_t *o, const char *k)
{
	double d = num(o, k);
	return isfinite(d) && d > 0 && d < 9e15 ? (long)d : 0;
}

static char *str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return util_sanitize(json_is_string(v) ? json_string_value(v) : "");
}

static bool is_network(const json_t *o)
{
	const json_t *t = json_object_get(o, "type");
	return json_is_string(t) && strcmp(json_string_value(t), "network_volume") == 0;
}

static bool one_volume(const json_t *o, void *rec)
{
	struct volume_rec *v = rec;
	if (!json_is_object(o) || !(v->id = id_of(o, "id")))
		return false;
	v->network = is_network(o);
	v->label = str(o, "label");
	v->status = str(o, "status");
	v->geolocation = str(o, "geolocation");
	v->disk_space = num(o, "disk_space");
	v->machine_id = id_of(o, "machine_id");
	v->cluster_id = id_of(o, "cluster_id");
	v->storage_cost = num(o, "storage_cost");
	v->total_dph = num(o, "storage_total_cost");
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(o, "instances"), i, x) {
		/* ids, or records with an id */
		double d = json_is_number(x) ? json_number_value(x) : num(x, "id");
		if (isfinite(d) && d > 0 && v->ninst < VOLUME_INST_MAX)
			v->inst[v->ninst++] = (long)d;
	}
	return true;
}

void api_volumes_free(struct volume_rec *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].label);
		free(v[i].status);
		free(v[i].geolocation);
	}
	free(v);
}

static void free_volumes(void *v, size_t n)
{
	api_volumes_free(v, n);
}

static const char *const volumes_keys[] = { "volumes", "results", NULL };
const struct json_list_kind api_volumes_list = {
	.what = "volumes", .keys = volumes_keys, .size = sizeof(struct volume_rec),
	.one = one_volume, .free_recs = free_volumes,
};

static bool one_offer(const json_t *o, void *rec)
{
	struct volume_offer_rec *v = rec;
	if (!json_is_object(o) || !(v->id = id_of(o, "id")))
		return false;
	v->cluster_id = id_of(o, "cluster_id");
	v->machine_id = id_of(o, "machine_id");
	v->network = !v->machine_id && v->cluster_id;
	v->disk_space = num(o, "disk_space");
	v->storage_cost = num(o, "storage_cost");
	v->reliability = num(o, "reliability");
	v->geolocation = str(o, "geolocation");
	return true;
}

void api_volume_offers_free(struct volume_offer_rec *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].geolocation);
	free(v);
}

static void free_offers(void *v, size_t n)
{
	api_volume_offers_free(v, n);
}

static const char *const offers_keys[] = { "offers", "results", NULL };
const struct json_list_kind api_volume_offers_list = {
	.what = "volume offers", .keys = offers_keys, .size = sizeof(struct volume_offer_rec),
	.one = one_offer, .free_recs = free_offers,
};

double api_volume_month(const struct volume_rec *v)
{
	if (isfinite(v->storage_cost) && isfinite(v->disk_space))
		return v->storage_cost * v->disk_space;
	if (isfinite(v->total_dph))
		return v->total_dph * 720.0;
	return NAN;
}

double api_volume_offer_month(const struct volume_offer_rec *o, double size)
{
	return isfinite(o->storage_cost) && isfinite(size) ? o->storage_cost * size : NAN;
}

const char *api_volume_kind(bool network)
{
	return network ? "network" : "local";
}

/* ---- calls ----------------------------------------------------------------------------- */

struct api_call api_volumes(const struct config *c)
{
	return api_call_make(EP_VOLUMES, "GET",
			     xasprintf("%s/api/v0/volumes/?owner=me&type=all_volume", c->base_url),
			     NULL);
}

struct api_call api_volume_offers(const struct config *c, bool network, double size, int limit)
{
	json_t *b = json_pack("{s:{s:b},s:{s:i},s:[[s,s]],s:f,s:i}", "verified", "eq", 1,
			      "disk_space", "gte", 1, "order", "score", "desc", "allocated_storage",
			      size > 0 ? size : 1.0, "limit", limit > 0 ? limit : 64);
	if (!network)
		json_object_set_new(b, "external", json_pack("{s:b}", "eq", 0));
	return api_call_make(network ? EP_NET_VOLUME_OFFERS : EP_VOLUME_OFFERS, "POST",
			     xasprintf("%s/api/v0/%s/search/", c->base_url,
				       network ? "network_volumes" : "volumes"),
			     b);
}

struct api_call api_volume_create(const struct config *c, bool network, long offer_id,
				  double size, const char *name)
{
	json_t *b = json_pack("{s:I,s:f}", "id", (json_int_t)offer_id, "size", size);
	if (name && *name)
		json_object_set_new(b, "name", json_string(name));
	return api_call_make(network ? EP_NET_VOLUME_CREATE : EP_VOLUME_CREATE, "PUT",
			     xasprintf("%s/api/v0/%s/", c->base_url,
				       network ? "network_volumes" : "volumes"),
			     b);
}

struct api_call api_volume_clone(const struct config *c, long src_id, long dst_offer, double size)
{
	json_t *b = json_pack("{s:I,s:I}", "src_id", (json_int_t)src_id, "dst_id",
			      (json_int_t)dst_offer);
	if (size > 0)
		json_object_set_new(b, "size", json_real(size));
	return api_call_make(EP_VOLUME_CLONE, "POST", xasprintf("%s/api/v0/volumes/copy/", c->base_url),
			     b);
}

struct api_call api_volume_delete(const struct config *c, long id)
{
	return api_call_make(EP_VOLUME_DELETE, "DELETE",
			     xasprintf("%s/api/v0/volumes/?id=%ld", c->base_url, id), NULL);
}

bool api_volume_result(const json_t *root, long *id)
{
	long v = json_is_object(root) ? id_of(root, "id") : 0;
	if (!v)
		return false;
	*id = v;
	return true;
}

/* ---- rules ----------------------------------------------------------------------------- */

bool api_volume_name_valid(const char *name, char *err, size_t n)
{
	size_t len = 0;
	for (const char *p = name ? name : ""; *p; p++, len++) {
		char ch = *p;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '_')) {
			snprintf(err, n, "name: letters, digits and underscores only");
			return false;
		}
	}
	if (len > VOLUME_NAME_MAX) {
		snprintf(err, n, "name: at most %d characters", VOLUME_NAME_MAX);
		return false;
	}
	return true;
}

bool api_volume_mount_valid(const char *path, char *err, size_t n)
{
	const char *p = path ? path : "";
	if (p[0] != '/' || !p[1]) {
		snprintf(err, n, "mount path: an absolute path, such as /data");
		return false;
	}
	if (strlen(p) > VOLUME_MOUNT_MAX) {
		snprintf(err, n, "mount path: at most %d characters", VOLUME_MOUNT_MAX);
		return false;
	}
	for (const unsigned char *q = (const unsigned char *)p; *q; q++) {
		if (*q < 0x20 || *q == 0x7f) {
			snprintf(err, n, "mount path: no control characters");
			return false;
		}
		if (q[0] == '/' && q[1] == '/') {
			snprintf(err, n, "mount path: no empty segment (//)");
			return false;
		}
	}
	return true;
}

bool api_volume_size_valid(double size, double max, char *err, size_t n)
{
	if (!isfinite(size) || size <= 0) {
		snprintf(err, n, "size: more than 0 GB");
		return false;
	}
	if (isfinite(max) && size > max) {
		snprintf(err, n, "size: at most %g GB (the offer's free space)", max);
		return false;
	}
	return true;
}

bool api_create_vol_valid(const struct create_vol *v, char *err, size_t n)
{
	switch (v->mode) {
	case CVOL_NONE:
		return true;
	case CVOL_NEW:
	case CVOL_LINK:
		break;
	}
	if (v->id <= 0) {
		snprintf(err, n, v->mode == CVOL_NEW ? "volume: the id of a volume offer on this machine"
						     : "volume: the id of one of your volumes");
		return false;
	}
	if (!memchr(v->name, '\0', sizeof v->name) || !memchr(v->mount, '\0', sizeof v->mount)) {
		snprintf(err, n, "volume: a field is not terminated");
		return false;
	}
	if (!api_volume_mount_valid(v->mount, err, n))
		return false;
	if (v->mode == CVOL_NEW)
		return api_volume_size_valid(v->size, NAN, err, n) && api_volume_name_valid(v->name, err, n);
	return true;
}

json_t *api_create_vol_info(const struct create_vol *v)
{
	switch (v->mode) {
	case CVOL_NONE:
		return NULL;
	case CVOL_NEW:
	case CVOL_LINK:
		break;
	}
	json_t *o = json_pack("{s:I,s:s,s:b}", "volume_id", (json_int_t)v->id, "mount_path", v->mount,
			      "create_new", v->mode == CVOL_NEW);
	if (!o)
		return NULL;
	if (v->mode == CVOL_NEW) {
		json_object_set_new(o, "size", json_real(v->size > 0 ? v->size : VOLUME_SIZE_DEFAULT));
		if (v->name[0])
			json_object_set_new(o, "name", json_string(v->name));
	}
	return o;
}
