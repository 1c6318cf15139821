/* test_json_text.c: the streaming --dump --json writer (json_text.c and
 * json_stream_instance_texts) against the tree path it replaced (jansson
 * tree of the page, json_map_strip_secrets, dump_json_text), byte for
 * byte: reals from their tokens and from doubles (random and edge ones),
 * strings with every escape class (controls, DEL, C1, bidi, surrogate
 * pairs, NUL), nested values, every fixture page and hand-written pages
 * (duplicate keys, the envelopes, scalar and array entries, secret keys at
 * any depth, env values masked, pages sent to the jansson path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/apierr.h"
#include "dump/dump.h"
#include "json/json_map.h"
#include "json/json_stream.h"
#include "json/json_text.h"
#include "base/util.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* dump_json_text of one value (as a top-level value). */
static char *tree_text(json_t *v)
{
	char *s = dump_json_text(v);
	assert_non_null(s);
	return s;
}

static void real_tok_check(const char *tok)
{
	double d = strtod(tok, NULL);
	if (!isfinite(d))
		return;
	json_t *j = json_real(d);
	char *want = tree_text(j);
	json_decref(j);
	struct util_buf a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	json_text_real_tok(&a, tok, strlen(tok), d);
	json_text_real(&b, d);
	if (strcmp(a.s, want) || strcmp(b.s, want))
		fail_msg("real %s: tree %s, token %s, double %s", tok, want, a.s, b.s);
	free(a.s);
	free(b.s);
	free(want);
}

static void reals(void **state)
{
	(void)state;
	static const char *const toks[] = {
		"0.0", "-0.0", "0.000", "1.50", "12.2", "0.1", "1806627908.924", "0.000123",
		"0.0000123", "123456789012345.5", "12345678901234.5", "1234567890123456.7",
		"100000000000000.0", "1000000000000000.0", "99999999999999.9", "64.0", "-64.25",
		"1e5", "1E-7", "2.5e-07", "1.7976931348623157e308", "4.9e-324", "0.30000000000000004",
		"246.219146637592", "0.210433333333333", "10930474.6769161", "3.14159265358979",
		"3.141592653589793", "0.00010000", "1.0000000000000002", "9007199254740993.0",
		"-0.0001", "-0.00001", "123.000000000000000000001",
	};
	for (size_t i = 0; i < sizeof toks / sizeof *toks; i++)
		real_tok_check(toks[i]);
	char tok[64];
	for (int i = 0; i < 20000; i++) {
		uint64_t r = next();
		double d;
		switch (i % 4) {
		case 0: /* any bit pattern */
			memcpy(&d, &r, sizeof d);
			if (!isfinite(d))
				continue;
			snprintf(tok, sizeof tok, "%.17g", d);
			break;
		case 1: /* money-like: few decimals */
			snprintf(tok, sizeof tok, "%.*f", (int)(r % 8), (double)(r >> 20) / 1e6);
			break;
		case 2: /* a value in its own shortest digits */
			snprintf(tok, sizeof tok, "%.*g", 1 + (int)(r % 17),
				 (double)(int64_t)(r >> 11) / pow(10, (double)(r % 23)));
			break;
		default: /* many digits, with trailing zeros */
			snprintf(tok, sizeof tok, "%.*f", 10 + (int)(r % 10), (double)(r % 100000) / 7);
			break;
		}
		if (!strchr(tok, '.') && !strchr(tok, 'e') && !strchr(tok, 'E'))
			continue; /* an integer token: not a real */
		real_tok_check(tok);
	}
}

static void ints(void **state)
{
	(void)state;
	static const long long v[] = { 0, -1, 1, 42, -9223372036854775807LL - 1, 9223372036854775807LL,
				       1806627908LL, -120 };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		json_t *j = json_integer(v[i]);
		char *want = tree_text(j);
		struct util_buf a = { NULL, 0, 0 };
		json_text_int(&a, v[i]);
		assert_string_equal(a.s, want);
		free(a.s);
		free(want);
		json_decref(j);
	}
}

/* Append the UTF-8 of cp. */
static size_t put_cp(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static void strings(void **state)
{
	(void)state;
	static const unsigned pick[] = {
		0, 1, 8, 9, 10, 12, 13, 0x1b, 0x1f, ' ', '"', '\\', '/', 'a', 'Z', 0x7e, 0x7f, 0x80,
		0x9b, 0x9f, 0xa0, 0xe9, 0x7ff, 0x800, 0x61c, 0x200d, 0x200e, 0x200f, 0x2027, 0x2028,
		0x202e, 0x202f, 0x2065, 0x2066, 0x2069, 0x206a, 0xfeff, 0xffff, 0x10000, 0x1f600,
		0x10ffff, 0x65e5, 0x200b, 0xad, 0x2060, 0xe0041, 0x1f469,
	};
	char s[400];
	for (int i = 0; i < 5000; i++) {
		size_t len = 0, n = next() % 40;
		for (size_t k = 0; k < n; k++)
			len += put_cp(s + len, pick[next() % (sizeof pick / sizeof *pick)]);
		json_t *j = json_stringn(s, len);
		assert_non_null(j);
		char *want = tree_text(j);
		struct util_buf a = { NULL, 0, 0 };
		json_text_string(&a, s, len);
		if (strcmp(a.s, want))
			fail_msg("string %d: tree %s, writer %s", i, want, a.s);
		free(a.s);
		free(want);
		json_decref(j);
	}
}

/* A name that looks like another must not print like it: the invisible
 * characters are escaped, in the BMP and past it (a surrogate pair). */
static void invisible_escaped(void **state)
{
	(void)state;
	static const struct { const char *in, *want; } t[] = {
		{ "default\xe2\x80\x8b", "\"default\\u200b\"" },
		{ "\xef\xbb\xbfkey", "\"\\ufeffkey\"" },
		{ "soft\xc2\xadhyphen", "\"soft\\u00adhyphen\"" },
		{ "tag\xf3\xa0\x81\x81", "\"tag\\udb40\\udc41\"" },
		{ "caf\xc3\xa9 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct util_buf a = { NULL, 0, 0 };
		json_text_string(&a, t[i].in, strlen(t[i].in));
		assert_string_equal(a.s, t[i].want);
		free(a.s);
	}
}

/* The tree path's text of a page: its records (the list's entries, or the
 * one object under "instances") in an array, secrets removed, as print_json
 * wrote it; NULL when jansson refuses the text. */
static char *old_text(const char *text, size_t len)
{
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	if (!root)
		return NULL;
	json_t *arr = json_array();
	json_t *list = json_is_array(root) ? root : json_object_get(root, "instances");
	if (json_is_array(list))
		json_array_extend(arr, list);
	else if (json_is_object(list))
		json_array_append(arr, list);
	json_map_strip_secrets(arr);
	char *s = dump_json_text(arr);
	json_decref(arr);
	json_decref(root);
	return s;
}

/* The streaming writer's text of the same page, joined as dump.c prints
 * the records. */
static char *new_text(const struct json_stream_texts *t)
{
	struct util_buf o = { NULL, 0, 0 };
	if (!t->n) {
		util_buf_put(&o, "[]", 2);
		return o.s;
	}
	util_buf_put(&o, "[", 1);
	for (size_t i = 0; i < t->n; i++) {
		util_buf_put(&o, "\n  ", 3);
		util_buf_put(&o, t->text.s + t->r[i].off, t->r[i].len);
		if (i + 1 < t->n)
			util_buf_put(&o, ",", 1);
	}
	util_buf_put(&o, "\n]", 2);
	return o.s;
}

/* Compare the two on a page; returns the records written. */
static size_t check_page(const char *text, size_t len)
{
	struct json_stream_texts t = { 0 };
	char *tok = NULL, *tok2 = NULL, err[160];
	long total, total2;
	size_t n0 = 0;
	enum json_stream_rc rc = json_stream_instance_texts(text, len, &t, &tok, &total, err, sizeof err);
	/* the verdicts of the shape-only mapper */
	enum json_stream_rc rc2 = json_stream_instances(text, len, NULL, &n0, &tok2, &total2, err,
							sizeof err);
	assert_int_equal(rc, rc2);
	if (rc == JSTREAM_OK) {
		assert_int_equal(total, total2);
		assert_true((!tok && !tok2) || (tok && tok2 && !strcmp(tok, tok2)));
		char *want = old_text(text, len);
		assert_non_null(want);
		char *got = new_text(&t);
		if (strcmp(want, got))
			fail_msg("page differs:\n--- tree\n%s\n--- stream\n%s\n--- text: %.*s", want, got,
				 (int)(len > 400 ? 400 : len), text);
		/* the records follow each other with the array's separator */
		for (size_t i = 1; i < t.n; i++) {
			assert_int_equal(t.r[i - 1].off + t.r[i - 1].len + 4, t.r[i].off);
			assert_memory_equal(t.text.s + t.r[i].off - 4, ",\n  ", 4);
		}
		/* each record's id */
		json_t *back = json_loads(got, JSON_ALLOW_NUL, NULL);
		assert_non_null(back);
		assert_int_equal(json_array_size(back), t.n);
		for (size_t i = 0; i < t.n; i++) {
			json_t *id = json_object_get(json_array_get(back, i), "id");
			assert_int_equal(t.r[i].has_id, json_is_integer(id));
			if (t.r[i].has_id)
				assert_int_equal(t.r[i].id, json_integer_value(id));
		}
		json_decref(back);
		free(want);
		free(got);
	} else {
		assert_int_equal(t.n, 0);
	}
	size_t n = t.n;
	free(tok);
	free(tok2);
	json_stream_texts_free(&t);
	return n;
}

static size_t check_str(const char *s)
{
	return check_page(s, strlen(s));
}

static void pages(void **state)
{
	(void)state;
	assert_int_equal(check_str(
		"{\"instances\":[{\"id\":1,\"b\":\"x\",\"a\":null,\"api_key\":\"SECRET\","
		"\"extra_env\":[[\"HF_TOKEN\",\"hf_abc\"],[\"A\",\"b\"]],"
		"\"onstart\":\"export HF_TOKEN=abc; echo hi\",\"ports\":{\"22/tcp\":[{\"HostPort\":\"1\"}]},"
		"\"nested\":{\"token\":\"t\",\"z\":[1,2.50,{\"key\":\"k\",\"ok\":true,\"env\":{\"A\":\"b\"}}]},"
		"\"n\":-0,\"r\":1e5,\"r2\":0.1,\"r3\":1.50,\"r4\":1e-7,\"r5\":0.000123,"
		"\"r6\":1234567890123456.7,\"big\":123456789012345678,"
		"\"u\":\"\\u00e9\\u009b\\u202e\\ud83d\\ude00\\u0000x\\u001b\\u007f\",\"s\":\"tab\\tnl\\n\\/\","
		"\"e\":{},\"ea\":[],\"t\":true,\"f\":false}],\"next_token\":\"abc\",\"total_instances\":3}"), 1);
	/* duplicate keys: the last value wins; an id that ends as a string */
	assert_int_equal(check_str("{\"instances\":[{\"id\":1,\"a\":1,\"a\":\"two\",\"id\":2},"
				   "{\"id\":3,\"id\":\"x\"},{\"id\":4,\"id\":[1]},{\"id\":[1],\"id\":5}]}"), 4);
	/* the one object under "instances"; an empty list; null; a bare instance (nothing) */
	assert_int_equal(check_str("{\"instances\":{\"id\":5,\"x\":[],\"password\":\"p\"}}"), 1);
	assert_int_equal(check_str("{\"instances\":[],\"next_token\":null,\"total_instances\":0}"), 0);
	assert_int_equal(check_str("{\"instances\":null}"), 0);
	assert_int_equal(check_str("{\"id\":9,\"label\":\"x\"}"), 0);
	/* a bare array of anything */
	assert_int_equal(check_str("[1,\"s\",[1,{\"b\":1,\"a\":2,\"secret\":3}],{\"id\":3},null,{},1.25,true]"), 8);
	/* a later "instances" replaces the earlier */
	assert_int_equal(check_str("{\"instances\":[{\"id\":1}],\"instances\":[{\"id\":2},{\"id\":3}]}"), 2);
	/* secret keys holding containers; env values of every shape */
	assert_int_equal(check_str("{\"instances\":[{\"id\":1,\"api_key\":{\"x\":1},\"jupyter_token\":[1,{\"a\":2}],"
				   "\"env\":{\"A\":\"b\",\"-p 80:80\":\"1\"},\"extra_env\":null,\"launch_args\":\"-e X=1 --env=Y=2\","
				   "\"onstart_cmd\":7,\"template\":{\"env\":\"-e TOKEN=abc -p 8080:8080\"}}]}"), 1);
	/* the texts the jansson path judges: an escaped backslash before u, NUL, \f */
	assert_int_equal(check_str("{\"instances\":[{\"id\":1,\"s\":\"\\\\ud800\",\"api_key\":\"k\"}]}"), 1);
	check_str("{\"instances\":[{\"id\":1,\"s\":\"\\ud800\"}]}");
	check_str("{\"instances\":[{\"id\":1}]\f}");
	check_page("{\"instances\":[{\"id\":1}]}\0", 26);
	check_str("{\"instances\":[{\"id\":1,\"big\":123456789012345678901}]}");
	check_str("{\"instances\":[{\"id\":1,\"r\":1e400}]}");
	check_str("{\"instances\":[{\"id\":1,\"a\":\"x\"]}");
	check_str("{\"instances\":\"x\"}");
	check_str("\"x\"");
	check_str("[] x");
	/* keys that sort by bytes, non-ASCII keys, an escaped key */
	assert_int_equal(check_str("{\"instances\":[{\"\\u00e9\":1,\"Z\":2,\"a\":3,\"a b\":4,\"\":5,\"\\u202e\":6,\"id\":7},"
				   "{\"\\u00e9\":1,\"Z\":2,\"a\":3,\"a b\":4,\"\":5,\"\\u202e\":6,\"id\":8},"
				   "{\"Z\":2,\"\\u00e9\":1,\"id\":9}]}"), 3);
}

/* More key names than json_stream keeps in key order (SORTED_MAX): the
 * records past that point are sorted alone, the text the same. */
static void many_names(void **state)
{
	(void)state;
	struct util_buf b = { NULL, 0, 0 };
	util_buf_put(&b, "{\"instances\":[", 14);
	for (int r = 0; r < 24; r++) {
		util_buf_put(&b, r ? ",{\"id\":" : "{\"id\":", r ? 7 : 6);
		char m[64];
		int len = snprintf(m, sizeof m, "%d", r);
		util_buf_put(&b, m, (size_t)len);
		for (int k = 0; k < 300; k++) {
			/* names new in each record, and some every record has */
			len = snprintf(m, sizeof m, ",\"k%05d\":%d", k % 3 ? (int)(next() % 100000) : k, k);
			util_buf_put(&b, m, (size_t)len);
		}
		util_buf_put(&b, "}", 1);
	}
	util_buf_put(&b, "]}", 2);
	assert_int_equal(check_page(b.s, b.len), 24);
	free(b.s);
}

static void fixtures(void **state)
{
	(void)state;
	const char *src = getenv("SRCDIR");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/tests/unit/fixtures", src && *src ? src : ".");
	DIR *d = opendir(dir);
	assert_non_null(d);
	size_t records = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strstr(de->d_name, ".json"))
			continue;
		char path[1400];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char *buf = xmalloc(1 << 22);
		size_t len = fread(buf, 1, (1 << 22) - 1, f);
		fclose(f);
		records += check_page(buf, len);
		free(buf);
	}
	closedir(d);
	assert_true(records >= 5);
}

/* Random pages of instance-like records: the two paths agree. */
static void random_pages(void **state)
{
	(void)state;
	static const char *const keys[] = { "id", "label", "api_key", "extra_env", "onstart", "ports",
					    "dph_total", "gpu_util", "a", "token", "env", "x_secret" };
	static const char *const vals[] = {
		"1", "-3", "0.5", "12.50", "1e3", "null", "true", "\"s\"", "\"\\u009b\\u202e\"",
		"[[\"HF_TOKEN\",\"v\"]]", "{\"k\":\"v\",\"key\":1}", "[]", "{}", "\"export A_TOKEN=1\"",
		"[1,[2,[3,{\"token\":4}]]]", "123456789", "0.000001",
	};
	struct util_buf b = { NULL, 0, 0 };
	for (int i = 0; i < 2000; i++) {
		b.len = 0;
		util_buf_put(&b, "{\"instances\":[", 14);
		int nrec = (int)(next() % 4);
		for (int r = 0; r < nrec; r++) {
			if (r)
				util_buf_put(&b, ",", 1);
			util_buf_put(&b, "{", 1);
			int nk = (int)(next() % 8);
			for (int k = 0; k < nk; k++) {
				const char *key = keys[next() % (sizeof keys / sizeof *keys)];
				const char *val = vals[next() % (sizeof vals / sizeof *vals)];
				char m[300];
				int len = snprintf(m, sizeof m, "%s\"%s\":%s", k ? "," : "", key, val);
				util_buf_put(&b, m, (size_t)len);
			}
			util_buf_put(&b, "}", 1);
		}
		util_buf_put(&b, "],\"next_token\":null}", 20);
		check_page(b.s, b.len);
	}
	free(b.s);
}

/* Pages appended to one json_stream_texts (the key names kept from page to
 * page, layouts that change from record to record and from page to page)
 * give each page's records as the page read alone does. */
static void pages_in_one(void **state)
{
	(void)state;
	static const char *const keys[] = { "id", "label", "api_key", "extra_env", "b", "a", "zz",
					    "\u00e9", "a b", "", "Z", "env", "x_secret", "ab" };
	static const char *const vals[] = { "1", "0.50", "null", "\"s\"", "[[\"HF_TOKEN\",\"v\"]]",
					    "{\"k\":1}", "[]", "1e3" };
	struct json_stream_texts all = { 0 };
	struct util_buf b = { NULL, 0, 0 };
	for (int pg = 0; pg < 300; pg++) {
		b.len = 0;
		util_buf_put(&b, "{\"instances\":[", 14);
		int nrec = (int)(next() % 6);
		for (int r = 0; r < nrec; r++) {
			util_buf_put(&b, r ? ",{" : "{", r ? 2 : 1);
			int nk = (int)(next() % 12);
			for (int k = 0; k < nk; k++) {
				char m[200];
				int len = snprintf(m, sizeof m, "%s\"%s\":%s", k ? "," : "",
						   keys[next() % (sizeof keys / sizeof *keys)],
						   vals[next() % (sizeof vals / sizeof *vals)]);
				util_buf_put(&b, m, (size_t)len);
			}
			util_buf_put(&b, "}", 1);
		}
		util_buf_put(&b, "]}", 2);
		struct json_stream_texts one = { 0 };
		char *tok = NULL, err[160];
		long total;
		size_t n0 = all.n;
		assert_int_equal(json_stream_instance_texts(b.s, b.len, &one, &tok, &total, err, sizeof err),
				 JSTREAM_OK);
		bool sure = false;
		assert_int_equal(json_stream_answer_texts(b.s, b.len, &all, &tok, &total, &sure, err,
							  sizeof err),
				 JSTREAM_OK);
		assert_true(sure);
		assert_int_equal(all.n - n0, one.n);
		for (size_t i = 0; i < one.n; i++) {
			const struct json_stream_rec *x = &one.r[i], *y = &all.r[n0 + i];
			assert_int_equal(x->len, y->len);
			assert_memory_equal(one.text.s + x->off, all.text.s + y->off, x->len);
			assert_int_equal(x->has_id, y->has_id);
			assert_int_equal(x->id, y->id);
		}
		json_stream_texts_free(&one);
		for (size_t i = 1; i < all.n; i++)
			assert_int_equal(all.r[i - 1].off + all.r[i - 1].len + 4, all.r[i].off);
		/* now and then a page taken back, as a refused answer is */
		if (next() % 5 == 0)
			json_stream_texts_truncate(&all, n0, n0 ? all.r[n0 - 1].off + all.r[n0 - 1].len : 0);
	}
	json_stream_texts_free(&all);
	free(b.s);
}

/* json_stream_answer_texts' surely_ok: true only when apierr_decode finds
 * no failure in a 2xx answer. */
static void answer_verdict(void **state)
{
	(void)state;
	static const struct { const char *text; bool sure; } cases[] = {
		{ "{\"success\":true,\"instances\":[{\"id\":1}]}", true },
		{ "{\"instances\":[{\"id\":1}]}", true },
		{ "[{\"id\":1}]", true },
		{ "{\"success\":false,\"instances\":[{\"id\":1}],\"msg\":\"no\"}", false },
		{ "{\"instances\":[],\"success\":0}", false },
		{ "{\"instances\":[],\"success\":-0}", false },
		{ "{\"instances\":[],\"success\":0.0}", true },
		{ "{\"instances\":[],\"success\":1}", true },
		{ "{\"instances\":[],\"success\":null}", true },
		{ "{\"instances\":[],\"success\":\"false\"}", true },
		{ "{\"instances\":[],\"success\":{\"success\":false}}", true },
		{ "{\"instances\":[{\"id\":1,\"success\":false}]}", true },
		{ "{\"success\":false,\"instances\":[],\"success\":true}", true },
		{ "{\"success\":true,\"instances\":[],\"success\":false}", false },
		{ "{\"success\":[],\"instances\":[],\"success\":0}", false },
		{ "{\"instances\":[{\"id\":1}]\f}", false },   /* jansson's to judge */
		{ "{\"instances\":[{\"id\":1}]} x", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct json_stream_texts t = { 0 };
		char *tok = NULL, err[160];
		long total;
		bool sure = !cases[i].sure;
		json_stream_answer_texts(cases[i].text, strlen(cases[i].text), &t, &tok, &total, &sure,
					 err, sizeof err);
		if (sure != cases[i].sure)
			fail_msg("surely_ok %d for %s", sure, cases[i].text);
		struct api_error e;
		if (sure)
			assert_false(apierr_decode(200, cases[i].text, strlen(cases[i].text), &e));
		free(tok);
		json_stream_texts_free(&t);
	}
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reals),
		cmocka_unit_test(ints),
		cmocka_unit_test(strings),
		cmocka_unit_test(invisible_escaped),
		cmocka_unit_test(pages),
		cmocka_unit_test(fixtures),
		cmocka_unit_test(random_pages),
		cmocka_unit_test(pages_in_one),
		cmocka_unit_test(many_names),
		cmocka_unit_test(answer_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
