/* routes_volumes.c: the account's volumes (the docs' show_volumes.yaml,
 * search_volumes.yaml, rent_volume.yaml, delete_volume.yaml; the CLI's
 * show volumes, search volumes, search network volumes, create volume,
 * create network volume, clone volume, delete volume), their offers, their
 * billing per second of simulated time at storage_total_cost $/hour, and a
 * create-instance request's volume_info (--create-volume, --link-volume).
 * A local volume lives on one machine and links only to an instance on that
 * machine; a network volume links to one in its region (geolocation). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acct.h"
#include "filter.h"
#include "routes_int.h"
#include "simops.h"

#define VOL_SIZE_DEFAULT 15.0  /* GB (the CLI's default) */
#define VOL_CREATE 5.0         /* s at --speed 1 a new volume is "creating" */
#define CLONE_RATE 1.0         /* GB per second of a clone */
#define CLONE_MIN 20.0         /* s, the shortest clone */
#define SEARCH_LIMIT 64
#define NAME_MAX_LEN 64

struct vol {
	long id;
	bool network;
	json_t *o;              /* the public record */
	json_t *insts;          /* instance ids linked (destroyed ones dropped on advance) */
	double ready_at;        /* s, sim clock: "creating"/"cloning" until then */
	double last_bill;       /* s, sim clock */
};

struct vol *vols_find(struct world *w, long id)
{
	for (size_t i = 0; w->ops && i < w->ops->nvols; i++)
		if (w->ops->vols[i].id == id)
			return &w->ops->vols[i];
	return NULL;
}

static json_t *offer_find(json_t *offers, long id)
{
	size_t i;
	json_t *o;
	json_array_foreach(offers, i, o)
		if (json_integer_value(json_object_get(o, "id")) == id)
			return o;
	return NULL;
}

/* $/hour of size GB at storage_cost $/GB/month (a month is 720 hours, as
 * the instances' storage_total_cost counts it). */
static double per_hour(double storage_cost, double gb)
{
	return storage_cost * gb / 720.0;
}

/* ---- seeding ---------------------------------------------------------------- */

static const char *const disk_names[] = { "Samsung SSD 990 PRO 4TB", "FIKWOT FN955 4TB", "WD_BLACK SN850X 2000GB",
					  "Micron 7450 7.68TB" };
static const char *const mobos[] = { "ROME2D32GM-2T", "H12SSL-i", "ProArt X670E", "MZ32-AR0" };

static json_t *vol_offer_from(struct ops_state *s, const json_t *m, long id, double now)
{
	json_t *o = json_object();
	static const char *const copy[] = { "machine_id", "host_id", "cpu_name", "cuda_max_good", "driver_version",
					    "inet_up", "inet_down", "reliability2", "reliability", "geolocation",
					    "verification", "verified", "static_ip", "disk_bw", "cpu_ghz", "external",
					    "vms_enabled", "duration", "end_date", "storage_cost", "gpu_arch" };
	for (size_t i = 0; i < sizeof copy / sizeof *copy; i++) {
		json_t *v = json_object_get(m, copy[i]);
		if (v)
			json_object_set(o, copy[i], v);
	}
	json_object_set_new(o, "id", json_integer(id));
	json_object_set_new(o, "ask_contract_id", json_integer(id));
	json_object_set_new(o, "bundle_id", json_integer(id));
	json_object_set_new(o, "driver_vers", json_string(jstr(m, "driver_version") ? jstr(m, "driver_version") : ""));
	json_object_set_new(o, "disk_space", json_real(round(100 + ops_randf(s) * 1900)));
	json_object_set_new(o, "disk_name", json_string(disk_names[(size_t)(ops_randf(s) * 4) % 4]));
	json_object_set_new(o, "mobo_name", json_string(mobos[(size_t)(ops_randf(s) * 4) % 4]));
	json_object_set_new(o, "cpu_arch", json_string("amd64"));
	json_object_set_new(o, "start_date", json_real(now - 86400.0 * (1 + ops_randf(s) * 60)));
	json_object_set_new(o, "reliability_mult", json_real(1.0));
	json_object_set_new(o, "score", json_real(round_to(jnum(m, "reliability2", 0.9) * 100 / (1 + jnum(m, "storage_cost", 0.1)), 0.01)));
	return o;
}

static json_t *nvol_offer(struct ops_state *s, long id, const char *geo, long cluster)
{
	double bw = round(200 + ops_randf(s) * 1800);
	double rel = round_to(0.95 + 0.049 * ops_randf(s), 0.0001);
	return json_pack("{s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:s,s:b,s:b,s:I,s:I,s:s,s:f,s:f,s:f,s:f}", "id",
			 (json_int_t)id, "ask_contract_id", (json_int_t)id, "disk_space", round(1000 + ops_randf(s) * 9000),
			 "storage_cost", round_to(0.12 + 0.1 * ops_randf(s), 0.01), "inet_up", round(1000 + ops_randf(s) * 9000),
			 "inet_down", round(1000 + ops_randf(s) * 9000), "reliability", rel, "reliability2", rel, "duration",
			 86400.0 * 90, "verification", "verified", "verified", 1, "external", 0, "host_id",
			 (json_int_t)(200000 + cluster), "cluster_id", (json_int_t)cluster, "geolocation", geo, "nw_disk_min_bw",
			 bw * 0.5, "nw_disk_max_bw", bw * 1.5, "nw_disk_avg_bw", bw, "score", round_to(rel * 100, 0.01));
}

/* A volume record on the machine (or region) m describes, rented at
 * start (s, sim clock), billed from now on. */
static struct vol *vol_add(struct world *w, bool network, const json_t *m, double gb, const char *name, double start,
			   double now)
{
	struct ops_state *s = w->ops;
	s->vols = realloc(s->vols, (s->nvols + 1) * sizeof *s->vols);
	if (!s->vols)
		abort();
	struct vol *v = &s->vols[s->nvols++];
	memset(v, 0, sizeof *v);
	v->id = s->next_vol_id;
	s->next_vol_id += 1 + (long)(ops_randf(s) * 5);
	v->network = network;
	v->insts = json_array();
	v->last_bill = now;
	v->ready_at = now;
	json_t *o = json_object();
	static const char *const copy[] = { "machine_id", "host_id", "public_ipaddr", "cpu_name", "cuda_max_good",
					    "driver_version", "inet_up", "inet_down", "reliability2", "geolocation",
					    "verification", "static_ip", "disk_name", "mobo_name", "cpu_arch",
					    "cluster_id", "storage_cost" };
	for (size_t i = 0; i < sizeof copy / sizeof *copy; i++) {
		json_t *x = json_object_get(m, copy[i]);
		json_object_set(o, copy[i], x ? x : json_null());
	}
	if (network)
		json_object_set_new(o, "machine_id", json_null());
	json_object_set_new(o, "id", json_integer(v->id));
	json_object_set_new(o, "label", name ? json_string(name) : json_null());
	json_object_set_new(o, "disk_space", json_real(gb));
	json_object_set_new(o, "type", json_string(network ? "network_volume" : "local_volume"));
	json_object_set_new(o, "os_version", json_string("22.04"));
	json_object_set_new(o, "start_date", json_real(round_to(start, 0.001)));
	json_object_set_new(o, "status", json_string("ready"));
	json_object_set_new(o, "storage_total_cost", json_real(per_hour(jnum(m, "storage_cost", 0.15), gb)));
	json_object_set_new(o, "instances", json_array());
	v->o = o;
	return v;
}

/* The instance's volume_info: the live list of {id, mount_path,
 * total_space, avail_space} (the CLI's show instances reads it). */
static void show_link(struct inst *in, const struct vol *v, const char *mount)
{
	json_t *vi = json_object_get(in->o, "volume_info");
	if (!json_is_array(vi)) {
		vi = json_array();
		json_object_set_new(in->o, "volume_info", vi);
	}
	double total = jnum(v->o, "disk_space", 0);
	json_array_append_new(vi, json_pack("{s:I,s:s?,s:s,s:s,s:f,s:f}", "id", (json_int_t)v->id, "name",
					    jstr(v->o, "label"), "mount_path", mount, "type",
					    v->network ? "network_volume" : "local_volume", "total_space", total,
					    "avail_space", round_to(total * 0.8, 0.01)));
}

static void link_inst(struct vol *v, struct inst *in, const char *mount)
{
	json_array_append_new(v->insts, json_integer(in->id));
	show_link(in, v, mount);
}

void vols_seed(struct world *w, double now)
{
	struct ops_state *s = w->ops;
	s->next_vol_id = 31000000 + (long)(ops_randf(s) * 100000);
	s->vol_offers = json_array();
	long vid = 6200000 + (long)(ops_randf(s) * 10000);
	size_t n = json_array_size(w->offers);
	for (size_t i = 0; i < n && json_array_size(s->vol_offers) < 80; i += 3) {
		vid += 1 + (long)(ops_randf(s) * 7);
		json_array_append_new(s->vol_offers, vol_offer_from(s, json_array_get(w->offers, i), vid, now));
	}
	s->nvol_offers = json_array();
	static const char *const regions[] = { "Texas, US", "Quebec, CA", "Bavaria, DE", "Oregon, US" };
	for (size_t i = 0; i < sizeof regions / sizeof *regions; i++)
		json_array_append_new(s->nvol_offers, nvol_offer(s, 8100000 + (long)i * 11, regions[i], 700 + (long)i));
	/* a local volume in use by the first running instance, mounted at /data */
	for (size_t i = 0; i < w->ninst; i++)
		if (w->inst[i]->c_running) {
			json_t *m = json_deep_copy(w->inst[i]->o);
			json_object_set_new(m, "disk_name", json_string(disk_names[0]));
			json_object_set_new(m, "mobo_name", json_string(mobos[0]));
			json_object_set_new(m, "cpu_arch", json_string("amd64"));
			struct vol *v = vol_add(w, false, m, 50, "data_main", now - 3 * 86400.0, now);
			json_decref(m);
			link_inst(v, w->inst[i], "/data");
			break;
		}
	/* an unused one on the machine of the first volume offer that is
	 * rentable as an instance too (an instance can be made to link it) */
	size_t i;
	json_t *vo;
	json_array_foreach(s->vol_offers, i, vo) {
		json_t *off = NULL, *o;
		size_t k;
		json_array_foreach(w->offers, k, o)
			if (json_equal(json_object_get(o, "machine_id"), json_object_get(vo, "machine_id")) &&
			    json_is_true(json_object_get(o, "rentable")))
				off = o;
		if (off) {
			vol_add(w, false, vo, 100, "scratch", now - 86400.0, now);
			break;
		}
	}
	/* a network volume in the first region, unused */
	vol_add(w, true, json_array_get(s->nvol_offers, 0), 200, "shared_datasets", now - 10 * 86400.0, now);
}

void vols_free(struct ops_state *s)
{
	for (size_t i = 0; i < s->nvols; i++) {
		json_decref(s->vols[i].o);
		json_decref(s->vols[i].insts);
	}
	free(s->vols);
	s->vols = NULL;
	s->nvols = 0;
	json_decref(s->vol_offers);
	json_decref(s->nvol_offers);
	s->vol_offers = s->nvol_offers = NULL;
}

void vols_advance(struct world *w, double now)
{
	struct ops_state *s = w->ops;
	for (size_t i = 0; i < s->nvols; i++) {
		struct vol *v = &s->vols[i];
		double dt = now - v->last_bill;
		if (dt > 0) {
			w->credit -= acct_charge_volume(w, v->id, v->last_bill, now,
							 jnum(v->o, "storage_total_cost", 0) * dt / 3600.0);
			v->last_bill = now;
		}
		if (now >= v->ready_at && jstr(v->o, "status") && strcmp(jstr(v->o, "status"), "ready"))
			json_object_set_new(v->o, "status", json_string("ready"));
		/* instances destroyed since: no longer using it */
		for (size_t k = json_array_size(v->insts); k-- > 0;)
			if (!world_find(w, (long)json_integer_value(json_array_get(v->insts, k))))
				json_array_remove(v->insts, k);
		if (!json_equal(v->insts, json_object_get(v->o, "instances")))
			json_object_set_new(v->o, "instances", json_deep_copy(v->insts));
	}
}

/* ---- the routes ----------------------------------------------------------------- */

static void put(struct sim_resp *rs, int status, json_t *j)
{
	rs->status = status;
	rs->json = j;
}

static char *qparam(const char *q, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = q; p && *p;) {
		const char *amp = strchr(p, '&');
		size_t len = amp ? (size_t)(amp - p) : strlen(p);
		if (len > nl && p[nl] == '=' && !strncmp(p, name, nl))
			return strndup(p + nl + 1, len - nl - 1);
		p = amp ? amp + 1 : NULL;
	}
	return NULL;
}

/* GET /api/v0/volumes/?owner=me&type=local_volume|network_volume|all_volume */
static void h_vols_get(struct ctx *c)
{
	char *type = qparam(c->rq->query, "type");
	int want = 0; /* 0 all, 1 local, 2 network */
	if (type && !strcmp(type, "local_volume"))
		want = 1;
	else if (type && !strcmp(type, "network_volume"))
		want = 2;
	else if (type && strcmp(type, "all_volume")) {
		free(type);
		routes_error(c->rs, 400, "invalid_args", "type must be local_volume, network_volume or all_volume");
		return;
	}
	free(type);
	json_t *arr = json_array();
	for (size_t i = 0; i < c->w->ops->nvols; i++) {
		struct vol *v = &c->w->ops->vols[i];
		if (!want || (want == 2) == v->network)
			json_array_append(arr, v->o);
	}
	put(c->rs, 200, json_pack("{s:o}", "volumes", arr));
}

/* The volume id a delete names: ?id=N (the CLI) or {"id"} (the docs). */
static bool vol_id_arg(struct ctx *c, long *id)
{
	char *q = qparam(c->rq->query, "id");
	double d;
	bool ok;
	if (q) {
		char *end;
		*id = strtol(q, &end, 10);
		ok = end != q && !*end && *id >= 0;
		free(q);
		return ok;
	}
	ok = jnum_value(json_object_get(c->body, "id"), &d) && d >= 0 && d == floor(d);
	*id = ok ? (long)d : -1;
	return ok;
}

/* DELETE /api/v0/volumes/: refused while an instance uses it. */
static void h_vols_delete(struct ctx *c)
{
	long id;
	if (!vol_id_arg(c, &id)) {
		routes_error(c->rs, 400, "invalid_args", "Please provide a valid volume ID.");
		return;
	}
	struct vol *v = vols_find(c->w, id);
	if (!v) {
		routes_error(c->rs, 404, "no_such_volume", "Volume with that ID does not exist.");
		return;
	}
	vols_advance(c->w, c->rq->now); /* drop destroyed instances first */
	if (json_array_size(v->insts)) {
		char msg[200];
		snprintf(msg, sizeof msg, "Volume %ld is in use by instance %lld: destroy the instance first", id,
			 (long long)json_integer_value(json_array_get(v->insts, 0)));
		routes_error(c->rs, 400, "volume_in_use", msg);
		return;
	}
	struct ops_state *s = c->w->ops;
	size_t k = (size_t)(v - s->vols);
	json_decref(v->o);
	json_decref(v->insts);
	memmove(&s->vols[k], &s->vols[k + 1], (s->nvols - k - 1) * sizeof *s->vols);
	s->nvols--;
	char msg[96];
	snprintf(msg, sizeof msg, "Volume %ld deleted.", id);
	put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg", msg));
}

/* A name as the docs allow it: alphanumeric with underscores, 64 at most. */
static bool name_ok(const char *n)
{
	if (!n)
		return true;
	size_t l = strlen(n);
	if (!l || l > NAME_MAX_LEN)
		return false;
	for (size_t i = 0; i < l; i++)
		if (!(n[i] == '_' || (n[i] >= 'a' && n[i] <= 'z') || (n[i] >= 'A' && n[i] <= 'Z') ||
		      (n[i] >= '0' && n[i] <= '9')))
			return false;
	return true;
}

/* Make a volume of gb on offer o (its free space shrinks); NULL and rs
 * filled when it cannot. */
static struct vol *rent(struct ctx *c, bool network, json_t *o, double gb, const char *name, double ready_in)
{
	if (!(gb >= 1) || gb > jnum(o, "disk_space", 0)) {
		char msg[160];
		snprintf(msg, sizeof msg, "size must be between 1 and %.0f GB (the offer's free space)",
			 jnum(o, "disk_space", 0));
		routes_error(c->rs, 400, "invalid_args", msg);
		return NULL;
	}
	if (!name_ok(name)) {
		routes_error(c->rs, 400, "invalid_args", "name: letters, digits and underscores, at most 64");
		return NULL;
	}
	if (c->w->credit < per_hour(jnum(o, "storage_cost", 0), gb)) {
		routes_error(c->rs, 400, "insufficient_credit", "Your account lacks credit for this volume");
		return NULL;
	}
	json_object_set_new(o, "disk_space", json_real(jnum(o, "disk_space", 0) - gb));
	struct vol *v = vol_add(c->w, network, o, gb, name, c->rq->now, c->rq->now);
	v->ready_at = c->rq->now + ready_in / c->w->opt.speed;
	json_object_set_new(v->o, "status", json_string(ready_in > VOL_CREATE ? "cloning" : "creating"));
	return v;
}

static void answer_created(struct ctx *c, const struct vol *v)
{
	char name[40];
	snprintf(name, sizeof name, "V.%ld", v->id);
	put(c->rs, 200, json_pack("{s:b,s:s,s:I}", "success", 1, "volume_name", name, "id", (json_int_t)v->id));
}

/* PUT /api/v0/volumes/ and /api/v0/network_volumes/ {"id" (offer), "size", "name"} */
static void create(struct ctx *c, bool network)
{
	double oid;
	json_t *o = jnum_value(json_object_get(c->body, "id"), &oid)
			    ? offer_find(network ? c->w->ops->nvol_offers : c->w->ops->vol_offers, (long)oid)
			    : NULL;
	if (!o) {
		routes_error(c->rs, 404, "no_such_ask", "No such volume offer: give the id search volumes returned");
		return;
	}
	double gb = jnum(c->body, "size", VOL_SIZE_DEFAULT);
	struct vol *v = rent(c, network, o, gb, jstr(c->body, "name"), VOL_CREATE);
	if (v)
		answer_created(c, v);
}

static void h_vols_put(struct ctx *c)
{
	create(c, false);
}

static void h_nvols_put(struct ctx *c)
{
	create(c, true);
}

/* POST /api/v0/volumes/copy/ {"src_id" (volume), "dst_id" (offer), "size"} */
static void h_vols_clone(struct ctx *c)
{
	double sid, did;
	struct vol *src = jnum_value(json_object_get(c->body, "src_id"), &sid) ? vols_find(c->w, (long)sid) : NULL;
	if (!src) {
		routes_error(c->rs, 404, "no_such_volume", "Volume with that ID does not exist.");
		return;
	}
	json_t *o = jnum_value(json_object_get(c->body, "dst_id"), &did)
			    ? offer_find(src->network ? c->w->ops->nvol_offers : c->w->ops->vol_offers, (long)did)
			    : NULL;
	if (!o) {
		routes_error(c->rs, 404, "no_such_ask", "No such volume offer for the clone");
		return;
	}
	double from = jnum(src->o, "disk_space", 0);
	double gb = jnum(c->body, "size", from);
	if (gb < from) {
		char msg[128];
		snprintf(msg, sizeof msg, "size must be at least the source volume's %.0f GB", from);
		routes_error(c->rs, 400, "invalid_args", msg);
		return;
	}
	char name[80];
	snprintf(name, sizeof name, "%.60s_clone", jstr(src->o, "label") ? jstr(src->o, "label") : "volume");
	struct vol *v = rent(c, src->network, o, gb, name, fmax(CLONE_MIN, from / CLONE_RATE));
	if (v)
		answer_created(c, v);
}

/* POST /api/v0/volumes/search/ and /api/v0/network_volumes/search/: the
 * offers' filters and order as an instance search's, storage_total_cost
 * priced for allocated_storage GB (the CLI sends 1.0). */
static void search(struct ctx *c, json_t *offers)
{
	static const char *const skip[] = { "order", "limit", "allocated_storage", "type", NULL };
	json_t *filters = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(c->body, k, v) {
		bool s = false;
		for (size_t i = 0; skip[i]; i++)
			s |= !strcmp(skip[i], k);
		if (!s)
			json_object_set(filters, k, v);
	}
	char err[256];
	if (!filter_valid(filters, err, sizeof err)) {
		json_decref(filters);
		routes_error(c->rs, 400, "invalid_args", err);
		return;
	}
	double alloc = jnum(c->body, "allocated_storage", 1.0);
	double lim = jnum(c->body, "limit", SEARCH_LIMIT);
	struct filter_prog *p = filter_compile(filters, skip);
	size_t n = json_array_size(offers), m = 0;
	json_t **hits = malloc((n + 1) * sizeof *hits);
	if (!hits)
		abort();
	for (size_t i = 0; i < n; i++)
		if (filter_prog_match(p, json_array_get(offers, i)))
			hits[m++] = json_array_get(offers, i);
	filter_prog_free(p);
	json_decref(filters);
	struct sort_key keys[3];
	memset(keys, 0, sizeof keys);
	json_t *order = json_object_get(c->body, "order");
	size_t nk = order ? filter_parse_order(order, keys, 3) : 0;
	if (!nk) {
		keys[0].field = "score";
		keys[0].desc = true;
		nk = 1;
	}
	filter_sort(hits, m, keys, nk);
	json_t *arr = json_array();
	for (size_t i = 0; i < m && i < (size_t)(lim >= 1 ? lim : SEARCH_LIMIT); i++) {
		json_t *o = json_copy(hits[i]);
		json_object_set_new(o, "storage_total_cost", json_real(per_hour(jnum(o, "storage_cost", 0), alloc)));
		json_array_append_new(arr, o);
	}
	free(hits);
	put(c->rs, 200, json_pack("{s:o}", "offers", arr));
}

static void h_vols_search(struct ctx *c)
{
	search(c, c->w->ops->vol_offers);
}

static void h_nvols_search(struct ctx *c)
{
	search(c, c->w->ops->nvol_offers);
}

/* ---- a create's volume_info ----------------------------------------------------- */

const char *vols_check_link(struct world *w, const json_t *offer, const json_t *vi, const char **slug)
{
	*slug = "invalid_args";
	if (!vi || json_is_null(vi))
		return NULL;
	const char *mount = jstr(vi, "mount_path");
	double id;
	if (!json_is_object(vi) || !mount || !*mount || strstr(mount, "//") ||
	    !jnum_value(json_object_get(vi, "volume_id"), &id))
		return "volume_info needs an object with volume_id, mount_path (a Linux path), create_new, size";
	if (json_is_true(json_object_get(vi, "create_new"))) {
		json_t *vo = offer_find(w->ops->vol_offers, (long)id);
		if (!vo)
			return "volume_info.volume_id: no such volume offer (give an id search volumes returned)";
		if (!json_equal(json_object_get(vo, "machine_id"), json_object_get(offer, "machine_id")))
			return "volume_info: the volume offer is on another machine than this offer";
		double gb = jnum(vi, "size", VOL_SIZE_DEFAULT);
		if (!(gb >= 1) || gb > jnum(vo, "disk_space", 0))
			return "volume_info.size: more than the volume offer's free space";
		if (!name_ok(jstr(vi, "name")))
			return "volume_info.name: letters, digits and underscores, at most 64";
		return NULL;
	}
	struct vol *v = vols_find(w, (long)id);
	if (!v) {
		*slug = "no_such_volume";
		return "volume_info.volume_id: Volume with that ID does not exist.";
	}
	if (v->network ? !json_equal(json_object_get(v->o, "geolocation"), json_object_get(offer, "geolocation"))
		       : !json_equal(json_object_get(v->o, "machine_id"), json_object_get(offer, "machine_id")))
		return v->network ? "volume_info: the network volume is in another region than this offer"
				  : "volume_info: the volume lives on another machine than this offer";
	return NULL;
}

void vols_link(struct world *w, struct inst *in, const json_t *offer, const json_t *vi, double now)
{
	if (!json_is_object(vi))
		return;
	(void)offer;
	long id = (long)jnum(vi, "volume_id", -1);
	struct vol *v;
	if (json_is_true(json_object_get(vi, "create_new"))) {
		json_t *vo = offer_find(w->ops->vol_offers, id);
		double gb = jnum(vi, "size", VOL_SIZE_DEFAULT);
		json_object_set_new(vo, "disk_space", json_real(jnum(vo, "disk_space", 0) - gb));
		v = vol_add(w, false, vo, gb, jstr(vi, "name"), now, now);
		v->ready_at = now + VOL_CREATE / w->opt.speed;
		json_object_set_new(v->o, "status", json_string("creating"));
	} else {
		v = vols_find(w, id);
	}
	if (v)
		link_inst(v, in, jstr(vi, "mount_path"));
}

#define A SL_ANY
#define S SL_SLASH
const struct route routes_volumes[] = {
	/* the docs write a slash, the CLI none */
	{ "GET", "/api/v0/volumes", h_vols_get, RL_VOLUMES, 0, A, A },
	{ "PUT", "/api/v0/volumes", h_vols_put, RL_VOLUMES, R_WRITE, A, S },
	{ "DELETE", "/api/v0/volumes", h_vols_delete, RL_VOLUMES, R_WRITE, A, S },
	{ "POST", "/api/v0/volumes/search", h_vols_search, RL_VOLUMES, 0, A, S },
	{ "POST", "/api/v0/volumes/copy", h_vols_clone, RL_VOLUMES, R_WRITE, A, S },
	{ "PUT", "/api/v0/network_volumes", h_nvols_put, RL_VOLUMES, R_WRITE, A, S },
	{ "POST", "/api/v0/network_volumes/search", h_nvols_search, RL_VOLUMES, 0, A, S },
	{ NULL, NULL, NULL, RL_NONE, 0, SL_NONE, SL_NONE },
};
#undef A
#undef S
