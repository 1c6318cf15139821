/* insttext.h: answer bodies built as text, and each instance's every-field
 * JSON text kept between requests.
 *
 * A v1 page of every field is mostly the instances' objects, and nearly all
 * of an object's fields change only on events, while a few (duration,
 * gpu_util, gpu_temp, uptime_mins, cur_load, credit_balance, and the
 * utilisation of util.h: cpu_util, mem_usage, mem_limit, vmem_usage,
 * disk_usage, disk_util) move with the
 * simulated clock.  So each instance keeps the text jansson wrote for it,
 * with holes where those live fields' values go, and a 64-bit fingerprint
 * of everything else in the object (every key in order, every other value,
 * nested ones too).  A read fingerprints the object again: the same, the
 * text is reused and only the holes are dumped; different (any of the many
 * places that change in->o did), the text is written again.  The result is
 * byte for byte what json_dump_callback writes for the object with
 * SIM_JSON_FLAGS; RENTOP_SIM_CHECK_CACHE=1 makes every use compare itself
 * with that and abort on a difference. */
#ifndef RENTOP_SIM_INSTTEXT_H
#define RENTOP_SIM_INSTTEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* How the simulator serialises every answer. */
#define SIM_JSON_FLAGS (JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15))

/* A growing text buffer for an answer built as text. */
struct tbuf {
	char *p;
	size_t n, cap;
};

void tb_put(struct tbuf *b, const char *s, size_t n);

/* v dumped with SIM_JSON_FLAGS onto b. */
void tb_json(struct tbuf *b, const json_t *v);

/* ,"key":value (the comma when more), value dumped as the server dumps. */
void tb_member(struct tbuf *b, bool more, const char *key, const json_t *v);

struct inst_text;

/* o's text (o is the instance's object; *cache its text, created on first
 * use) appended to b, exactly as tb_json(b, o) would append it. */
void insttext_put(struct inst_text **cache, const json_t *o, struct tbuf *b);

void insttext_free(struct inst_text *t);

/* RENTOP_SIM_CHECK_CACHE=1 in the environment: every cached answer is
 * compared with the one jansson writes from scratch. */
bool insttext_check_mode(void);

/* Check mode: abort, naming what, unless the text a (na bytes) is the text
 * b (nb bytes) both byte for byte and as parsed JSON (json_equal). */
void insttext_check(const char *what, const char *a, size_t na, const char *b, size_t nb);

#endif
