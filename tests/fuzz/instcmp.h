/* instcmp.h: the differential check of the two instance-page mappers, for
 * the unit test (tests/unit/test_json_stream.c) and the fuzz target
 * (fuzz_json_stream.c).  instcmp_page() maps a text with jansson
 * (json_loadb as api_parse does, then json_map_instances and the pager's
 * total) and with the streaming mapper (json_stream_instances), and
 * compares the verdicts and every field of every record; instcmp_offers()
 * does the same for an offer search answer (json_map_offers against
 * json_stream_offers).  Header-only: static functions, included once per
 * program. */
#ifndef RENTOP_INSTCMP_H
#define RENTOP_INSTCMP_H

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"
#include "json/json_stream.h"
#include "json/json_text.h"
#include "state/model.h"

/* Same double: both NAN, or equal with the same sign. */
static bool instcmp_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static bool instcmp_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The first difference between two records, into why; false when any. */
static bool instcmp_one(const struct instance *a, const struct instance *b, char *why, size_t n)
{
#define S(f) if (!instcmp_str(a->f, b->f)) { snprintf(why, n, #f ": \"%s\" vs \"%s\"", a->f ? a->f : "(null)", b->f ? b->f : "(null)"); return false; }
#define L(f) if (a->f != b->f) { snprintf(why, n, #f ": %lld vs %lld", (long long)a->f, (long long)b->f); return false; }
#define D(f) if (!instcmp_num(a->f, b->f)) { snprintf(why, n, #f ": %.17g vs %.17g", a->f, b->f); return false; }
	L(id) S(label) S(actual_status) S(intended_status) S(cur_state) S(next_state)
	S(status_msg) L(state) L(machine_id) L(host_id) L(num_gpus) S(gpu_name) D(gpu_ram)
	D(gpu_totalram) D(gpu_util) D(gpu_temp) D(cpu_cores) D(cpu_ram) D(disk_space)
	D(disk_usage) D(inet_up) D(inet_down) D(dph_base) D(dph_total) D(storage_cost)
	D(storage_total_cost) L(is_bid) D(min_bid) D(bid_price) S(image) S(runtype) S(ssh_host)
	L(ssh_port) S(public_ip) L(direct_ssh_port) L(nports) D(start_date) D(end_date)
	D(uptime_mins) D(reliability) S(geolocation) S(verification) L(template_id)
	S(template_hash_id) S(template_name) D(credit_balance) L(nfields) L(nenv)
#undef S
#undef L
#undef D
	for (size_t i = 0; i < a->nports; i++)
		if (a->ports[i].container_port != b->ports[i].container_port ||
		    a->ports[i].host_port != b->ports[i].host_port ||
		    strcmp(a->ports[i].proto, b->ports[i].proto)) {
			snprintf(why, n, "ports[%zu]", i);
			return false;
		}
	for (size_t i = 0; i < a->nfields; i++)
		if (strcmp(a->fields[i].key, b->fields[i].key) ||
		    strcmp(a->fields[i].value, b->fields[i].value)) {
			snprintf(why, n, "fields[%zu]: %s=%s vs %s=%s", i, a->fields[i].key,
				 a->fields[i].value, b->fields[i].key, b->fields[i].value);
			return false;
		}
	for (size_t i = 0; i < a->nenv; i++)
		if (strcmp(a->env[i].key, b->env[i].key) || strcmp(a->env[i].value, b->env[i].value)) {
			snprintf(why, n, "env[%zu]", i);
			return false;
		}
	return true;
}

/* Map text both ways and compare; false (why says what differs) when the
 * mappers disagree.  *mapped gets the number of records (for statistics). */
/* The --dump --json text of a page both ways: the tree path (the page's
 * records in an array, json_map_strip_secrets, json_text_dump, which is
 * dump_json_text) and the
 * streaming writer's records joined as dump.c prints them.  Same verdict
 * as the shape-only mapper, same text when it is a list. */
static bool instcmp_texts(const char *text, size_t len, char *why, size_t n)
{
	struct json_stream_texts t = { 0 };
	char *tok = NULL, err[200];
	long total;
	enum json_stream_rc got = json_stream_instance_texts(text, len, &t, &tok, &total, err, sizeof err);
	free(tok);
	json_t *root = got == JSTREAM_OK ? json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL) : NULL;
	bool same = true;
	if (got != JSTREAM_OK) {
		if (t.n) {
			snprintf(why, n, "texts: a refused page left %zu records", t.n);
			same = false;
		}
	} else if (!root) {
		snprintf(why, n, "texts: a page jansson refuses was written");
		same = false;
	} else {
		json_t *arr = json_array();
		json_t *list = json_is_array(root) ? root : json_object_get(root, "instances");
		if (json_is_array(list))
			json_array_extend(arr, list);
		else if (json_is_object(list))
			json_array_append(arr, list);
		json_map_strip_secrets(arr);
		char *want = json_text_dump(arr);
		json_decref(arr);
		size_t cap = t.text.len + 16 * t.n + 8, k = 0;
		char *mine = malloc(cap);
		if (!mine)
			abort();
		if (!t.n) {
			memcpy(mine, "[]", 3);
		} else {
			mine[k++] = '[';
			for (size_t i = 0; i < t.n; i++) {
				memcpy(mine + k, "\n  ", 3);
				k += 3;
				memcpy(mine + k, t.text.s + t.r[i].off, t.r[i].len);
				k += t.r[i].len;
				if (i + 1 < t.n)
					mine[k++] = ',';
			}
			memcpy(mine + k, "\n]", 3);
			k += 2;
			mine[k] = '\0';
		}
		if (!want || strcmp(want, mine)) {
			size_t d = 0;
			while (want && want[d] && want[d] == mine[d])
				d++;
			snprintf(why, n, "texts differ at byte %zu: tree \"%.40s\" stream \"%.40s\"", d,
				 want ? want + d : "(null)", mine + d);
			same = false;
		}
		free(want);
		free(mine);
	}
	json_decref(root);
	json_stream_texts_free(&t);
	return same;
}

static bool instcmp_page(const char *text, size_t len, char *why, size_t n, size_t *mapped)
{
	*mapped = 0;
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	struct instance *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	char *ta = NULL, *tb = NULL, err[200];
	long total_a = -1, total_b;
	enum json_stream_rc want = JSTREAM_BAD_JSON;
	if (root) {
		want = json_map_instances(root, &a, &na, &ta) ? JSTREAM_OK : JSTREAM_BAD_SHAPE;
		const json_t *t = json_is_object(root) ? json_object_get(root, "total_instances") : NULL;
		total_a = json_is_integer(t) ? (long)json_integer_value(t) : -1;
		json_decref(root);
	}
	enum json_stream_rc got = json_stream_instances(text, len, &b, &nb, &tb, &total_b, err, sizeof err);
	bool same = true;
	if (want != got) {
		snprintf(why, n, "verdict: jansson %d, stream %d (%s)", (int)want, (int)got, err);
		same = false;
	} else if (got == JSTREAM_OK && na != nb) {
		snprintf(why, n, "count: %zu vs %zu", na, nb);
		same = false;
	} else if (got == JSTREAM_OK && !instcmp_str(ta, tb)) {
		snprintf(why, n, "next_token: %s vs %s", ta ? ta : "(null)", tb ? tb : "(null)");
		same = false;
	} else if (got == JSTREAM_OK && total_a != total_b) {
		snprintf(why, n, "total: %ld vs %ld", total_a, total_b);
		same = false;
	} else if (got != JSTREAM_OK && nb) {
		snprintf(why, n, "a refused page left %zu records", nb);
		same = false;
	}
	for (size_t i = 0; same && got == JSTREAM_OK && i < na; i++) {
		char w[400];
		if (!instcmp_one(&a[i], &b[i], w, sizeof w)) {
			snprintf(why, n, "record %zu: %s", i, w);
			same = false;
		}
	}
	if (same)
		same = instcmp_texts(text, len, why, n);
	*mapped = nb;
	instance_free_all(a, na);
	instance_free_all(b, nb);
	free(ta);
	free(tb);
	return same;
}

/* The first difference between two offers, into why; false when any. */
static bool instcmp_offer(const struct offer *a, const struct offer *b, char *why, size_t n)
{
#define S(f) if (!instcmp_str(a->f, b->f)) { snprintf(why, n, #f ": \"%s\" vs \"%s\"", a->f ? a->f : "(null)", b->f ? b->f : "(null)"); return false; }
#define L(f) if (a->f != b->f) { snprintf(why, n, #f ": %lld vs %lld", (long long)a->f, (long long)b->f); return false; }
#define D(f) if (!instcmp_num(a->f, b->f)) { snprintf(why, n, #f ": %.17g vs %.17g", a->f, b->f); return false; }
	L(id) L(machine_id) L(num_gpus) S(gpu_name) D(dph_total) D(dph_base) D(min_bid)
	D(reliability) L(verified) L(rentable) D(gpu_ram) L(direct_port_count) D(dlperf)
	D(dlperf_per_dphtotal) D(total_flops) D(score) D(cpu_ram) D(disk_space) D(inet_up)
	D(inet_down) D(cuda_max_good) S(geolocation) S(verification) D(duration)
	D(storage_cost) L(host_id) D(cpu_cores_effective) D(cpu_ghz) D(compute_cap)
	S(driver_version) S(cpu_name) D(credit_discount_max) L(is_bid)
#undef S
#undef L
#undef D
	return true;
}

/* An offer search answer mapped both ways (json_loadb + json_map_offers,
 * json_stream_offers) and compared; false (why says what differs) when the
 * mappers disagree.  *mapped gets the number of offers. */
static bool instcmp_offers(const char *text, size_t len, char *why, size_t n, size_t *mapped)
{
	*mapped = 0;
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	struct offer *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	char err[200];
	enum json_stream_rc want = JSTREAM_BAD_JSON;
	if (root) {
		want = json_map_offers(root, &a, &na) ? JSTREAM_OK : JSTREAM_BAD_SHAPE;
		json_decref(root);
	}
	enum json_stream_rc got = json_stream_offers(text, len, &b, &nb, err, sizeof err);
	bool same = true;
	if (want != got) {
		snprintf(why, n, "offers verdict: jansson %d, stream %d (%s)", (int)want, (int)got, err);
		same = false;
	} else if (got == JSTREAM_OK && na != nb) {
		snprintf(why, n, "offers count: %zu vs %zu", na, nb);
		same = false;
	} else if (got == JSTREAM_OK && !b) {
		snprintf(why, n, "offers: no array for a list of %zu", nb);
		same = false;
	} else if (got != JSTREAM_OK && nb) {
		snprintf(why, n, "a refused answer left %zu offers", nb);
		same = false;
	}
	for (size_t i = 0; same && got == JSTREAM_OK && i < na; i++) {
		char w[400];
		if (!instcmp_offer(&a[i], &b[i], w, sizeof w)) {
			snprintf(why, n, "offer %zu: %s", i, w);
			same = false;
		}
	}
	*mapped = nb;
	json_map_offers_free(a, na);
	json_map_offers_free(b, nb);
	return same;
}

#endif
