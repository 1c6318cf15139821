/* test_json_stream.c: the streaming mapper (json_stream.c, yajl) against
 * the jansson path (json_loadb + json_map_instances), field by field: every
 * fixture, hand-written edge cases (duplicate keys, the envelopes, numbers
 * that overflow, depth, NUL, surrogates, bad UTF-8), thousands of random
 * instance pages of perturbed types and their byte-level mutations; the
 * shape-only pager (--dump --json) against its jansson twin; and a secret
 * key whose name was first met as a value stays masked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/instcmp.h"
#include "json_map.h"
#include "json_stream.h"
#include "sweep.h"
#include "util.h"

/* Compare the two mappers on text (and the shape-only pagers); fail with
 * the difference. */
static size_t check_text(const char *text, size_t len)
{
	char why[600];
	size_t mapped;
	if (!instcmp_page(text, len, why, sizeof why, &mapped))
		fail_msg("mappers differ: %s\n  text: %.*s", why, (int)(len > 600 ? 600 : len), text);
	/* the shape only, as --dump --json pages it */
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	struct pager a = { .total = -1 }, b = { .total = -1 };
	struct api_error ea, eb;
	memset(&ea, 0, sizeof ea);
	memset(&eb, 0, sizeof eb);
	size_t n0 = 0;
	bool oka = root && pager_page(&a, root, NULL, &n0, &ea);
	struct inst_page pd;
	bool okb = pager_map_text(text, len, false, &pd, &eb) && pager_page_mapped(&b, &pd, NULL, &n0, &eb);
	if (oka != okb || (oka && (a.total != b.total || a.done != b.done ||
				   !instcmp_str(a.token, b.token))))
		fail_msg("shape-only pagers differ (%d/%d, total %ld/%ld, token %s/%s): %.*s", oka, okb,
			 a.total, b.total, a.token ? a.token : "-", b.token ? b.token : "-",
			 (int)(len > 600 ? 600 : len), text);
	pager_reset(&a);
	pager_reset(&b);
	json_decref(root);
	return mapped;
}

static size_t check_str(const char *text)
{
	return check_text(text, strlen(text));
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n + 4096 > cap)
			buf = xrealloc(buf, cap = cap ? cap * 2 : 8192);
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

static void each_fixture(const char *dir, size_t *files, size_t *records)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		size_t len;
		char *text = read_file(path, &len);
		if (!text)
			continue;
		*records += check_text(text, len);
		(*files)++;
		free(text);
	}
	closedir(d);
}

static void test_fixtures(void **state)
{
	(void)state;
	const char *src = getenv("SRCDIR");
	char dir[1024];
	size_t files = 0, records = 0;
	snprintf(dir, sizeof dir, "%s/tests/unit/fixtures", src && *src ? src : ".");
	each_fixture(dir, &files, &records);
	snprintf(dir, sizeof dir, "%s/tests/unit/fixtures/errors", src && *src ? src : ".");
	each_fixture(dir, &files, &records);
	assert_true(files >= 14);
	assert_true(records >= 5); /* the instance fixtures were mapped, not refused */
}

static void test_edges(void **state)
{
	(void)state;
	static const char *const cases[] = {
		"", " ", "null", "1", "\"x\"", "[]", "{}", "[1,\"a\",null,[{}],{\"id\":1}]",
		"{\"instances\":[]}", "{\"instances\":null}", "{\"instances\":5}",
		"{\"instances\":\"x\"}", "{\"instances\":{\"id\":7,\"label\":\"one\"}}",
		"{\"instances\":{\"label\":\"no id\"}}", "{\"id\":9,\"label\":\"bare\"}",
		"{\"id\":\"x\"}", "{\"id\":null}", "{\"label\":\"neither\"}",
		/* duplicates: the last value wins, in the first one's place */
		"{\"instances\":[{\"id\":1}],\"instances\":[{\"id\":2},{\"id\":3}]}",
		"{\"instances\":[{\"id\":1}],\"instances\":null}",
		"{\"instances\":[{\"id\":1}],\"instances\":7}",
		"[{\"id\":1,\"label\":\"a\",\"gpu_name\":\"x\",\"label\":\"b\"}]",
		"[{\"id\":1,\"ports\":{\"22/tcp\":[{\"HostPort\":\"1\"}]},\"ports\":5}]",
		"[{\"id\":1,\"ports\":5,\"ports\":{\"22/tcp\":[{\"HostPort\":\"2\"}]}}]",
		"[{\"id\":1,\"id\":\"2\"}]", "[{\"id\":1,\"id\":null}]",
		/* tokens and totals */
		"{\"instances\":[],\"next_token\":\"abc\",\"total_instances\":10}",
		"{\"instances\":[],\"next_token\":12,\"total_instances\":10.0}",
		"{\"instances\":[],\"next_token\":\"\",\"total_instances\":\"10\"}",
		"{\"instances\":[],\"next_token\":\"a\\u0000b\"}",
		"{\"id\":3,\"next_token\":\"zz\",\"total_instances\":4}",
		/* numbers */
		"[{\"id\":9223372036854775807}]", "[{\"id\":9223372036854775808}]",
		"[{\"id\":-9223372036854775809}]", "[{\"id\":1,\"gpu_ram\":1e400}]",
		"[{\"id\":1,\"gpu_ram\":-1e400}]", "[{\"id\":1,\"gpu_ram\":1e-400}]",
		"[{\"id\":-0,\"gpu_ram\":-0.0,\"cpu_ram\":0.1,\"disk_space\":1E2}]",
		"[{\"id\":1.0}]", "[{\"id\":1.5}]", "[{\"id\":\" 42 \"}]", "[{\"id\":01}]",
		"[{\"id\":1,\"x\":[1e400]}]", "[{\"id\":1,\"x\":{\"y\":99999999999999999999}}]",
		/* strings */
		"[{\"id\":1,\"label\":\"a\\u0000b\",\"gpu_name\":\"\\u00e9\\n\\u001b[31m\"}]",
		"[{\"id\":1,\"a\\u0000b\":1}]", "[{\"id\":1,\"x\":{\"a\\u0000\":1}}]",
		"[{\"id\":1,\"label\":\"\\ud83d\\ude00\"}]", "[{\"id\":1,\"label\":\"\\ud83d\"}]",
		"[{\"id\":1,\"label\":\"\\ude00\"}]", "[{\"id\":1,\"label\":\"\\ud83d\\u0041\"}]",
		"[{\"id\":1,\"label\":\"\\\\ud83d\"}]", "[{\"id\":1,\"label\":\"\xc3\xa9\"}]",
		"[{\"id\":1,\"label\":\"\xc0\x80\"}]", "[{\"id\":1,\"label\":\"\xed\xa0\x80\"}]",
		"[{\"id\":1,\"label\":\"\xf4\x90\x80\x80\"}]", "[{\"id\":1,\"label\":\"\xff\"}]",
		"[{\"id\":1,\"label\":\"a\tb\"}]", "[{\"id\":1,\"label\":\"\x7f\xc2\x9b\"}]",
		"[{\"id\":1,\"lab\xc3\xa9l\":\"x\",\"im\\u007fage_login\":\"s\"}]",
		/* secrets, env, booleans */
		"[{\"id\":1,\"jupyter_token\":\"t\",\"api_key\":\"\",\"x_key\":null,\"secret\":{\"a\":1}}]",
		"[{\"id\":1,\"extra_env\":[[\"A\",\"b\"],[\"C\"],[1,2],\"D=e\",{\"key\":\"K\",\"value\":\"v\"}]}]",
		"[{\"id\":1,\"extra_env\":{\"A\":\"b\",\"-p 8000:8000\":\"1\"},\"onstart\":\"HF_TOKEN=abc x\"}]",
		"[{\"id\":1,\"extra_env\":\"-e A=b\",\"env\":null,\"launch_args\":5}]",
		"[{\"id\":1,\"is_bid\":\"True\",\"bid_price\":\"0.5\"},{\"id\":2,\"is_bid\":\"true\\u0000x\"}]",
		"[{\"id\":1,\"is_bid\":2,\"current_bid\":0.3},{\"id\":2,\"current_bid\":0.3}]",
		"[{\"id\":1,\"ssh_port\":\"22\",\"image_runtype\":\"jupyter\",\"ports\":{\"22\":\"41022\",\"8080/udp\":[{\"HostPort\":8080},5,{}],\"x\":[]}}]",
		/* structure */
		"[{\"id\":1}] x", "[{\"id\":1}][]", "[{\"id\":1},]", "{\"id\":1,}", "[{\"id\":1}",
		"{\"a\":1 \"b\":2}", "[\"\\x\"]", "[\"\\u12G4\"]", "[tru]", "/* c */ []",
		"\xef\xbb\xbf[]", "[1.]", "[-]", "[.5]", "[1e]", "[+1]",
		/* what yajl alone lets pass: a partial token after the root, \v and \f */
		"\"\"\"", "[]\"", "{\"instances\":[]} \"ab", "[1,\v2]", "[1\f]", "[] \t\r\n",
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		check_str(cases[i]);
	check_text("[1\0]", 4); /* jansson takes a NUL after a number for nothing */
	check_text("[{\"id\":1}\0]", 11);
}

/* Nesting at jansson's limit (2048 levels) and one past it. */
static void test_depth(void **state)
{
	(void)state;
	for (int depth = 2045; depth <= 2050; depth++) {
		size_t len = 0;
		char *t = xmalloc((size_t)depth * 2 + 64);
		len += (size_t)sprintf(t, "[{\"id\":1,\"x\":");
		for (int i = 3; i < depth; i++)
			t[len++] = '[';
		t[len++] = '1';
		for (int i = 3; i < depth; i++)
			t[len++] = ']';
		len += (size_t)sprintf(t + len, "}]");
		check_text(t, len);
		free(t);
	}
}

/* ---- random pages ---------------------------------------------------------- */

struct gen {
	uint64_t s;
	char *b;
	size_t len, cap;
};

static uint64_t rnd(struct gen *g)
{
	g->s ^= g->s << 13;
	g->s ^= g->s >> 7;
	g->s ^= g->s << 17;
	return g->s;
}

static unsigned pick(struct gen *g, unsigned n)
{
	return (unsigned)(rnd(g) % n);
}

static void put(struct gen *g, const char *s)
{
	size_t n = strlen(s);
	if (g->len + n + 1 > g->cap) {
		g->cap = (g->len + n + 1) * 2;
		g->b = xrealloc(g->b, g->cap);
	}
	memcpy(g->b + g->len, s, n + 1);
	g->len += n;
}

static void putf(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct gen *g, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	put(g, buf);
}

static const char *const STRS[] = {
	"\"running\"", "\"exited\"", "\"\"", "\"RTX 4090\"", "\"41022\"", "\" 3.5 \"", "\"true\"",
	"\"False\"", "\"-0\"", "\"1e400\"", "\"ssh_direc ssh_proxy jupyter\"", "\"Qu\\u00e9bec, CA\"",
	"\"Montr\xc3\xa9" "al\"", "\"\\u001b[2Jboom\"", "\"tab\\there\"", "\"\\ud83d\\ude00 gpu\"",
	"\"a\\\\b\\\"c\"", "\"\\u0000x\"", "\"\\u202eevil\"", "\"\xc2\x9b" "31m\"",
	"\"HF_TOKEN=abc python x.py\"", "\"-e A=b -p 22:22\"", "\"jupyter_token\"", "\"0x10\"",
};

static void gen_value(struct gen *g, int depth);

static void gen_scalar(struct gen *g)
{
	switch (pick(g, 9)) {
	case 0: putf(g, "%d", (int)pick(g, 200000) - 1000); break;
	case 1: putf(g, "%.*g", 1 + (int)pick(g, 17), ((double)rnd(g) / 1e15) - 9000.0); break;
	case 2: put(g, pick(g, 2) ? "true" : "false"); break;
	case 3: put(g, "null"); break;
	case 4: put(g, pick(g, 2) ? "1e300" : "-0.0"); break;
	case 5: putf(g, "%lld", (long long)(rnd(g) >> pick(g, 64))); break;
	case 6: put(g, pick(g, 3) ? "4.5e-320" : "12.0"); break;
	default: put(g, STRS[pick(g, sizeof STRS / sizeof *STRS)]); break;
	}
}

static void gen_value(struct gen *g, int depth)
{
	unsigned k = pick(g, 10);
	if (depth < 3 && k == 0) {
		put(g, "[");
		for (unsigned i = 0, n = pick(g, 4); i < n; i++) {
			if (i)
				put(g, ",");
			gen_value(g, depth + 1);
		}
		put(g, "]");
	} else if (depth < 3 && k == 1) {
		put(g, "{");
		for (unsigned i = 0, n = pick(g, 4); i < n; i++) {
			if (i)
				put(g, ",");
			put(g, pick(g, 2) ? "\"HostPort\":" : pick(g, 2) ? "\"key\":" : "\"value\":");
			gen_value(g, depth + 1);
		}
		put(g, "}");
	} else {
		gen_scalar(g);
	}
}

static const char *const KEYS[] = {
	"id", "label", "actual_status", "intended_status", "cur_state", "next_state",
	"status_msg", "machine_id", "host_id", "num_gpus", "gpu_name", "gpu_ram", "gpu_totalram",
	"gpu_total_ram", "gpu_util", "gpu_temp", "cpu_cores_effective", "cpu_ram", "disk_space",
	"disk_usage", "inet_up", "inet_down", "dph_base", "dph_total", "storage_cost",
	"storage_total_cost", "min_bid", "is_bid", "bid_price", "current_bid", "image_uuid",
	"image", "image_runtype", "runtype", "ssh_host", "ssh_port", "public_ipaddr", "ports",
	"start_date", "end_date", "uptime_mins", "reliability2", "reliability", "geolocation",
	"verification", "template_id", "template_hash_id", "template_name", "credit_balance",
	"prepaid_credit", "credit_remaining", "extra_env", "onstart", "jupyter_token", "api_key",
	"instance_api_key", "ssh_key", "volume_info", "cpu_name", "weird\\u0007key",
	"caf\xc3\xa9", "next_token", "total_instances", "instances", "",
};

static void gen_instance(struct gen *g)
{
	put(g, "{");
	bool first = true;
	if (pick(g, 8)) {
		putf(g, "\"id\":%u", pick(g, 100000));
		first = false;
	}
	for (unsigned i = 0, n = pick(g, 40); i < n; i++) {
		if (!first)
			put(g, ",");
		first = false;
		const char *k = KEYS[pick(g, sizeof KEYS / sizeof *KEYS)];
		putf(g, "\"%s\":", k);
		if (!strcmp(k, "ports") && pick(g, 2))
			putf(g, "{\"22/tcp\":[{\"HostIp\":\"0.0.0.0\",\"HostPort\":\"%u\"}],\"%u/udp\":%u}",
			     pick(g, 70000), pick(g, 70000), pick(g, 70000));
		else if (!strcmp(k, "extra_env") && pick(g, 2))
			put(g, "[[\"JUPYTER_DIR\",\"/\"],[\"HF_TOKEN\",\"hf_abc\"],[\"X\"]]");
		else
			gen_value(g, 0);
	}
	put(g, "}");
}

static void gen_page(struct gen *g)
{
	g->len = 0;
	put(g, "");
	unsigned shape = pick(g, 20);
	unsigned n = pick(g, 6);
	if (shape < 2) { /* a bare array */
		put(g, "[");
		for (unsigned i = 0; i < n; i++) {
			if (i)
				put(g, ",");
			if (pick(g, 10))
				gen_instance(g);
			else
				gen_value(g, 0);
		}
		put(g, "]");
		return;
	}
	if (shape == 2) { /* a bare instance */
		gen_instance(g);
		return;
	}
	put(g, "{\"success\":true,");
	if (pick(g, 4) == 0) {
		put(g, "\"label_counts\":");
		gen_value(g, 0);
		put(g, ",");
	}
	put(g, "\"instances\":");
	if (shape == 3)
		gen_instance(g);
	else if (shape == 4)
		gen_value(g, 0);
	else {
		put(g, "[");
		for (unsigned i = 0; i < n; i++) {
			if (i)
				put(g, ",");
			gen_instance(g);
		}
		put(g, "]");
	}
	if (pick(g, 2)) {
		put(g, ",\"next_token\":");
		gen_scalar(g);
	}
	if (pick(g, 2)) {
		put(g, ",\"total_instances\":");
		gen_scalar(g);
	}
	if (pick(g, 10) == 0)
		put(g, ",\"instances\":[{\"id\":5}]");
	put(g, "}");
}

static void test_random_pages(void **state)
{
	(void)state;
	struct gen g = { .s = 0x9E3779B97F4A7C15ull };
	size_t records = 0, pages = 3000;
	for (size_t i = 0; i < pages; i++) {
		gen_page(&g);
		records += check_text(g.b, g.len);
		/* the same page with a few bytes flipped, dropped or cut */
		for (int m = 0; m < 2; m++) {
			char *t = xmalloc(g.len + 1);
			memcpy(t, g.b, g.len + 1);
			size_t len = g.len;
			for (unsigned k = 0, nm = 1 + pick(&g, 3); k < nm && len; k++) {
				size_t at = pick(&g, (unsigned)len);
				switch (pick(&g, 4)) {
				case 0: t[at] = (char)pick(&g, 256); break;
				case 1: memmove(t + at, t + at + 1, len - at); len--; break;
				case 2: len = at; break;
				default: t[at] = "\"{}[],:\\0e."[pick(&g, 11)]; break;
				}
			}
			check_text(t, len);
			free(t);
		}
	}
	free(g.b);
	assert_true(records > pages); /* most pages held records that were compared */
}

/* The value of field key in record x, or NULL. */
static const char *field_of(const struct instance *x, const char *key)
{
	for (size_t i = 0; i < x->nfields; i++)
		if (!strcmp(x->fields[i].key, key))
			return x->fields[i].value;
	return NULL;
}

/* A name first interned as a value (a template named "x_api_key" in one
 * record) is still judged a secret when a later record has it as a key, on
 * either path (the intern pool kept the value's "not a secret"). */
static void test_secret_name_seen_as_value(void **state)
{
	(void)state;
	const char *jtext = "[{\"id\":1,\"template_name\":\"jpath_api_key\"},"
			    "{\"id\":2,\"jpath_api_key\":\"k-123\"}]";
	json_t *root = json_loads(jtext, 0, NULL);
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = NULL, err[100];
	assert_true(json_map_instances(root, &v, &n, &tok));
	json_decref(root);
	assert_int_equal(n, 2);
	assert_string_equal(field_of(&v[1], "jpath_api_key"), "********");
	instances_free(v, n);
	v = NULL;
	n = 0;
	const char *stext = "[{\"id\":1,\"template_name\":\"spath_api_key\"},"
			    "{\"id\":2,\"spath_api_key\":\"k-456\"}]";
	long total;
	assert_int_equal(json_stream_instances(stext, strlen(stext), &v, &n, &tok, &total, err,
					       sizeof err), JSTREAM_OK);
	assert_int_equal(n, 2);
	assert_string_equal(field_of(&v[1], "spath_api_key"), "********");
	instances_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_secret_name_seen_as_value),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_random_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
