/* json_stream.h: the instance list pages (and the offer search answers)
 * mapped straight from the bytes
 * (yajl's callback parser: no tree), into the same records json_map
 * produces from a jansson tree: the same tolerant rules (json_map_rec.h),
 * the same envelopes (v1 {"instances":[...],"next_token":..,
 * "total_instances":..}, v0 {"instances":[...]}, a bare array, the
 * one-instance forms), and the same verdicts on malformed text as jansson
 * with JSON_DECODE_ANY | JSON_ALLOW_NUL (what api_parse uses).  A page whose
 * \u escapes hold an unpaired surrogate, or that holds a raw \v, \f or NUL, is
 * read by jansson instead (yajl lets them through).  Pure; any thread; no state kept between calls. */
#ifndef RENTOP_JSON_STREAM_H
#define RENTOP_JSON_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "state/model.h"
#include "base/util.h"

enum json_stream_rc {
	JSTREAM_OK,
	JSTREAM_BAD_JSON,   /* not JSON (err says why) */
	JSTREAM_BAD_SHAPE,  /* JSON, but not an instance list (json_map_instances false) */
};

/* Map an instance list page (len bytes of text) onto *v and *n (appended,
 * realloc'd; v NULL: check the shape only, mapping nothing).  *next_token
 * gets a malloc'd token or NULL, *total the integer total_instances of an
 * object page or -1.  On JSTREAM_BAD_JSON nothing is appended; err (errlen
 * bytes) gets the parser's message. */
enum json_stream_rc json_stream_instances(const char *text, size_t len, struct instance **v,
					  size_t *n, char **next_token, long *total, char *err,
					  size_t errlen);

/* ---- the records as --dump --json prints them ---------------------------- */

/* One record of a page: the entries the tree path appends to its output (a
 * list's entries, whatever they are, or the one object under "instances";
 * nothing for a bare instance object), each written as dump_json_text
 * writes it as an entry of the top-level array (first line unindented,
 * the rest indented from depth 1), secret keys dropped and env values
 * masked as json_map_strip_secrets does. */
struct json_stream_rec {
	long id;          /* its integer "id" when has_id */
	bool has_id;
	size_t off, len;  /* its text in the page's text */
};
/* The records are appended one after the other with ",\n  " between two
 * (the separator of the top-level array's entries): records n to m are the
 * one piece of text from r[n].off to r[m].off + r[m].len, as printed. */
struct json_stream_keys;
struct json_stream_texts {
	struct util_buf text;
	struct json_stream_rec *r;
	size_t n, cap;
	struct json_stream_keys *keys; /* the key names met, kept for the next page */
};
void json_stream_texts_free(struct json_stream_texts *t);
/* The page's records appended to *out (their texts without a tree of the
 * page), its next_token and total; the verdicts of json_stream_instances
 * with v NULL (the shape only).  On anything but JSTREAM_OK nothing is
 * appended. */
enum json_stream_rc json_stream_instance_texts(const char *text, size_t len,
					       struct json_stream_texts *out, char **next_token,
					       long *total, char *err, size_t errlen);
/* As json_stream_instance_texts, for a 2xx answer: *surely_ok true when
 * the text was read by yajl (jansson would read it so) and has no
 * top-level "success" member whose (last) value is false or the integer
 * 0, so apierr_decode would find no failure in it and need not read it
 * again; false whenever that is not sure (then the caller checks the
 * answer as before, after json_stream_texts_truncate). */
enum json_stream_rc json_stream_answer_texts(const char *text, size_t len,
					     struct json_stream_texts *out, char **next_token,
					     long *total, bool *surely_ok, char *err, size_t errlen);
/* Drop the records from the n-th on and the text from len on (what a
 * page appended). */
void json_stream_texts_truncate(struct json_stream_texts *t, size_t n, size_t len);
/* An offer search answer (len bytes of text) onto *v and *n (appended,
 * realloc'd), by json_map_offers' rules: {"offers":[...]} (other members
 * ignored) or a bare array; non-objects and id-less entries skipped.
 * JSTREAM_BAD_SHAPE when neither shape (json_map_offers false), then
 * nothing appended; on JSTREAM_BAD_JSON nothing is appended and err (errlen
 * bytes) gets the parser's message (yajl's words, not jansson's). */
struct offer;
enum json_stream_rc json_stream_offers(const char *text, size_t len, struct offer **v,
				       size_t *n, char *err, size_t errlen);

#endif
