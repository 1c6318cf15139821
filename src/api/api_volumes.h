/* api_volumes.h: the account's storage volumes (tests/sim/API.md
 * "Volumes"): the list of local and network volumes, the search of volume
 * offers (local: on a machine; network: in a region), create on an offer,
 * clone into an offer, delete; and a create-instance request's
 * `volume_info` (a new volume made with the instance, or an existing one
 * linked at a mount path), as the official CLI builds them (storage.py,
 * offers.py search_volumes, instances.py validate_volume_params).
 *
 * The records' strings are sanitised when decoded (they are drawn).  No
 * I/O; pure; any thread; results are the caller's. */
#ifndef RENTOP_API_VOLUMES_H
#define RENTOP_API_VOLUMES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"

struct json_list_kind;

#define VOLUME_NAME_MAX 64     /* letters, digits, underscores (the docs) */
#define VOLUME_MOUNT_MAX 255
#define VOLUME_SIZE_DEFAULT 15.0 /* GB: the CLI's when none is given */
#define VOLUME_INST_MAX 8

/* One volume of GET /api/v0/volumes/. */
struct volume_rec {
	long id;
	bool network;          /* type network_volume (else local_volume) */
	char *label;           /* sanitised, "" when none */
	char *status;          /* "ready", "creating", "cloning", ... sanitised */
	char *geolocation;     /* sanitised, "" when none */
	double disk_space;     /* GB, NAN unknown */
	long machine_id;       /* 0: none (a network volume) */
	long cluster_id;       /* 0: none */
	double storage_cost;   /* $/GB/month, NAN unknown */
	double total_dph;      /* storage_total_cost: $/hour, NAN unknown */
	long inst[VOLUME_INST_MAX]; /* the instances using it */
	size_t ninst;
};

/* One offer of a volume search (local or network). */
struct volume_offer_rec {
	long id;
	bool network;
	long machine_id;       /* local: the machine; 0 for network */
	long cluster_id;       /* network: its cluster; 0 unknown */
	double disk_space;     /* GB free */
	double storage_cost;   /* $/GB/month */
	double reliability;    /* 0..1, NAN unknown */
	char *geolocation;     /* sanitised, "" when none */
};

/* The list kinds (json_list.h): {"volumes":[...]} and {"offers":[...]}. */
extern const struct json_list_kind api_volumes_list;
extern const struct json_list_kind api_volume_offers_list;
void api_volumes_free(struct volume_rec *v, size_t n);
void api_volume_offers_free(struct volume_offer_rec *v, size_t n);

/* A volume's cost per month ($): storage_cost * disk_space, else the
 * hourly total * 720; NAN when neither is known. */
double api_volume_month(const struct volume_rec *v);
/* An offer's cost per month for size GB ($), NAN unknown. */
double api_volume_offer_month(const struct volume_offer_rec *o, double size);
/* "local" or "network". */
const char *api_volume_kind(bool network);

/* GET /api/v0/volumes/?owner=me&type=all_volume (EP_VOLUMES). */
struct api_call api_volumes(const struct config *c);
/* POST /api/v0/volumes/search/ (network: /api/v0/network_volumes/search/)
 * with the CLI's default query (verified, local: not external, at least 1
 * GB free; ordered by score, best first) for size GB, up to limit offers. */
struct api_call api_volume_offers(const struct config *c, bool network, double size, int limit);
/* PUT /api/v0/volumes/ (network: /api/v0/network_volumes/) {"id": offer,
 * "size", "name" (omitted when empty)}. */
struct api_call api_volume_create(const struct config *c, bool network, long offer_id,
				  double size, const char *name);
/* POST /api/v0/volumes/copy/ {"src_id", "dst_id": an offer, "size" (when
 * > 0)}. */
struct api_call api_volume_clone(const struct config *c, long src_id, long dst_offer, double size);
/* DELETE /api/v0/volumes/?id=N (the CLI's form). */
struct api_call api_volume_delete(const struct config *c, long id);
/* The id of a create or clone answer ({"success", "id", "volume_name"}):
 * false when it has none. */
bool api_volume_result(const json_t *root, long *id);

/* Input checks (false with why in err): a name (may be empty: none) of
 * letters, digits and underscores, at most 64; a mount path as the CLI
 * takes it (absolute here: /a/b, no empty segment, no NUL, no control
 * character); a size > 0 GB, at most max (NAN: no bound). */
bool api_volume_name_valid(const char *name, char *err, size_t n);
bool api_volume_mount_valid(const char *path, char *err, size_t n);
bool api_volume_size_valid(double size, double max, char *err, size_t n);

/* A create-instance request's volume (struct create_req's `vol`). */
enum create_vol_mode { CVOL_NONE, CVOL_NEW, CVOL_LINK };
struct create_vol {
	enum create_vol_mode mode;
	long id;                         /* NEW: a volume offer; LINK: a volume */
	double size;                     /* NEW: GB */
	char name[VOLUME_NAME_MAX + 1];  /* NEW: "" = none */
	char mount[VOLUME_MOUNT_MAX + 1];
	double month;                    /* $/month it adds or keeps, NAN unknown (the confirmation) */
};
/* Is v whole (mode NONE, or an id > 0, a valid mount, and for NEW a valid
 * size and name)?  False with why. */
bool api_create_vol_valid(const struct create_vol *v, char *err, size_t n);
/* The `volume_info` object of v ({"volume_id", "mount_path", "create_new",
 * "size" (NEW), "name" (NEW, when set)}; new reference); NULL for NONE. */
json_t *api_create_vol_info(const struct create_vol *v);

#endif
