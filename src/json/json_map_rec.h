/* json_map_rec.h: what json_map.c shares with the streaming mapper
 * (json_stream.c), not for other callers.  An instance record is read
 * through struct json_map_rec, whichever parser produced it: jansson (a
 * json_t object) or the streaming mapper (members decoded from the tokens),
 * so that both fill struct instance by the one set of rules.  Pure; any
 * thread. */
#ifndef RENTOP_JSON_MAP_REC_H
#define RENTOP_JSON_MAP_REC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "state/model.h"

/* A member's value: a scalar decoded in place, or a jansson value (every
 * container; on the jansson path every value).  MV_NONE: not sent. */
enum mv_type { MV_NONE, MV_NULL, MV_TRUE, MV_FALSE, MV_INT, MV_REAL, MV_STR, MV_JSON };
struct mval {
	enum mv_type t;
	long long i;        /* MV_INT */
	double d;           /* MV_REAL */
	const char *s;      /* MV_STR: len bytes (NULs possible), not terminated */
	size_t len;
	const json_t *j;    /* MV_JSON: an object or an array (jansson path: any value) */
};

/* The keys an instance's or an offer's mapping reads, in one enum (a key
 * dispatch by index, not by name); JSON_MAP_IK_NAMES[k] is the name of
 * key k. */
enum json_map_ik {
	IK_ID, IK_LABEL, IK_ACTUAL_STATUS, IK_INTENDED_STATUS, IK_CUR_STATE, IK_NEXT_STATE,
	IK_STATUS_MSG, IK_MACHINE_ID, IK_HOST_ID, IK_NUM_GPUS, IK_GPU_NAME, IK_GPU_RAM,
	IK_GPU_TOTALRAM, IK_GPU_TOTAL_RAM, IK_GPU_UTIL, IK_GPU_TEMP, IK_CPU_CORES_EFFECTIVE,
	IK_CPU_RAM, IK_DISK_SPACE, IK_DISK_USAGE, IK_INET_UP, IK_INET_DOWN, IK_DPH_BASE,
	IK_DPH_TOTAL, IK_STORAGE_COST, IK_STORAGE_TOTAL_COST, IK_MIN_BID, IK_IS_BID,
	IK_BID_PRICE, IK_CURRENT_BID, IK_IMAGE_UUID, IK_IMAGE, IK_IMAGE_RUNTYPE, IK_RUNTYPE,
	IK_SSH_HOST, IK_SSH_PORT, IK_PUBLIC_IPADDR, IK_PORTS, IK_START_DATE, IK_END_DATE,
	IK_UPTIME_MINS, IK_RELIABILITY2, IK_RELIABILITY, IK_GEOLOCATION, IK_VERIFICATION,
	IK_TEMPLATE_ID, IK_TEMPLATE_HASH_ID, IK_TEMPLATE_NAME, IK_CREDIT_BALANCE,
	IK_PREPAID_CREDIT, IK_CREDIT_REMAINING, IK_CREDIT_DISCOUNT, IK_EXTRA_ENV, IK_SEARCH,
	IK_JUPYTER_TOKEN, IK_MACHINE_DIR_SSH_PORT, IK_CPU_UTIL, IK_MEM_USAGE, IK_MEM_LIMIT,
	IK_DISK_UTIL,
	/* read from an offer only (with many of the above) */
	IK_ASK_CONTRACT_ID, IK_VERIFIED, IK_RENTABLE, IK_DIRECT_PORT_COUNT, IK_DLPERF,
	IK_DLPERF_PER_DPHTOTAL, IK_TOTAL_FLOPS, IK_SCORE, IK_CUDA_MAX_GOOD, IK_DURATION,
	IK_CPU_GHZ, IK_COMPUTE_CAP, IK_DRIVER_VERSION, IK_CPU_NAME, IK_CREDIT_DISCOUNT_MAX,
	/* the list envelopes' keys (not read from a record) */
	IK_INSTANCES, IK_NEXT_TOKEN, IK_TOTAL_INSTANCES, IK_OFFERS,
	IK__COUNT
};
extern const char *const JSON_MAP_IK_NAMES[IK__COUNT];

/* One record, as either mapper holds it. */
struct json_map_rec {
	/* the value of key k (MV_NONE when not sent) */
	struct mval (*get)(const struct json_map_rec *r, enum json_map_ik k);
	/* every member as the sorted, masked field list (json_map_fields) */
	struct kv *(*fields)(const struct json_map_rec *r, size_t *n);
	const void *ctx;    /* the mapper's own record */
};

/* The jansson value v as a struct mval (containers as MV_JSON). */
struct mval json_map_mval(const json_t *v);
/* The reverse: a jansson value for v (a new reference; MV_JSON's own value
 * with a reference added, json null for no value). */
json_t *json_map_mval_json(const struct mval *v);

/* An instance from a record (the rules of json_map_instance).  *x zeroed
 * first; false without an integral id. */
bool json_map_instance_rec(const struct json_map_rec *r, struct instance *x);

/* An offer from a record (the rules of json_map_offers).  *f zeroed
 * first; false without an integral id (or ask_contract_id).  fields is
 * not called. */
bool json_map_offer_rec(const struct json_map_rec *r, struct offer *f);
/* Free what an offer owns (its strings), leaving *f zeroed. */
void json_map_offer_clear(struct offer *f);

/* The field list of a record, built member by member (json_map_fields'
 * rules: names interned, the secret check per name, env values masked,
 * sorted).  The builder lives on the caller's stack: init, add each
 * member, end (which frees what the builder took from the heap). */
#define JSON_MAP_FB_STACK 128       /* fields of a record kept on the stack */
#define JSON_MAP_FB_TEXT 8192       /* bytes of their texts kept on the stack */
struct json_map_field_at {
	const char *ikey;           /* interned name, or NULL: the name is at key */
	size_t key, value;          /* offsets into the text */
};
/* A growing text buffer: it may start on the caller's stack (heap false)
 * and moves to the heap only when it outgrows that. */
struct json_map_tbuf {
	char *s;
	size_t len, cap;
	bool heap;                  /* s is malloc'd (the owner frees it) */
};
struct json_map_fb {
	struct json_map_field_at stack_at[JSON_MAP_FB_STACK], *at;
	size_t count, i;            /* room in at, fields added */
	char stack_text[JSON_MAP_FB_TEXT];
	struct json_map_tbuf tb;    /* the texts, one after the other, each with its NUL */
};
void json_map_fb_init(struct json_map_fb *fb, size_t count);
/* One member: its name as sent (klen bytes), the interned name and its
 * secret flag when the caller has them (ikey NULL: interned and judged
 * here).  Members past count are ignored. */
void json_map_fb_add(struct json_map_fb *fb, const char *key, size_t klen, const char *ikey,
		     bool secret, const struct mval *v);
struct kv *json_map_fb_end(struct json_map_fb *fb, size_t *n);

/* Is s[0..len) printable ASCII (no sanitising needed)? */
bool json_map_plain_ascii(const char *s, size_t len);

#endif
