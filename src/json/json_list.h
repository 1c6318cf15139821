/* json_list.h: one skeleton for "decode a list of records", and one value
 * type for a list handed from the poller thread to a view.
 *
 * A list answer is a bare array or an object holding the array under one of
 * a few keys ({"apikeys":[...]}, {"results":[...]}).  A struct json_list_kind
 * says which keys, how big a record is, how one element becomes a record
 * (elements it refuses are skipped) and how a record is cleared; the
 * record decoders of json_map.c and api_account.c are each one such kind.
 * A kind may instead decode the whole answer itself (decode: env vars,
 * whose answer is a map).
 *
 * struct json_list is the value a list's jobs mapper returns: the records
 * and the kind that frees them, so that one free function (json_list_free)
 * serves every list.  Pure; any thread; no json_t is kept. */
#ifndef RENTOP_JSON_LIST_H
#define RENTOP_JSON_LIST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct api_error;

struct json_list_kind {
	const char *what;          /* "API keys": the protocol error's words */
	const char *const *keys;   /* an object's keys of the array, tried in order, NULL-ended */
	size_t size;               /* bytes of one record */
	/* One element into rec (zeroed); false: skipped (rec owns nothing then). */
	bool (*one)(const json_t *o, void *rec);
	/* The whole answer at once, instead of keys and one: appends to *v (a
	 * T **) and *n; false when the shape is wrong. */
	bool (*decode)(const json_t *root, void *v, size_t *n);
	/* Frees the records v[0..n) and the array (wiping secrets if they are). */
	void (*free_recs)(void *v, size_t n);
};

/* The array of a list answer: root when it is an array, else the value of
 * the first of keys root holds (NULL when that is not an array). */
const json_t *json_list_array(const json_t *root, const char *const *keys);

/* Appends the records of root to *v (vp: a T **, realloc'd, room for one
 * more kept) and *n.  False when root is not a list answer of kind k. */
bool json_list_decode(const json_t *root, const struct json_list_kind *k, void *vp, size_t *n);

/* A decoded list, as a jobs mapper's value. */
struct json_list {
	const struct json_list_kind *kind;
	void *v;                   /* kind->size bytes a record */
	size_t n;
};

/* The list of root (a jobs_map_fn's body): NULL with a protocol error
 * ("<what>: unexpected answer") in e when root is not one. */
struct json_list *json_list_map(const struct json_list_kind *k, const json_t *root,
				struct api_error *e);
/* Frees a struct json_list (a jobs_free_fn; NULL is fine). */
void json_list_free(void *list);
/* The records of l (not NULL), as T *: json_list_at(l, struct ssh_key_rec). */
#define json_list_at(l, T) ((T *)(l)->v)
/* How many records l holds (0 when NULL). */
size_t json_list_count(const struct json_list *l);

#endif
