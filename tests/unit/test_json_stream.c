/* test_json_stream.c: the streaming mapper (json_stream.c, yajl) against
 * the jansson path (json_loadb + json_map_instances), field by field: every
 * fixture, hand-written edge cases (duplicate keys, the envelopes, numbers
 * that overflow, depth, NUL, surrogates, bad UTF-8), thousands of random
 * instance pages of perturbed types and their byte-level mutations; the
 * shape-only pager (--dump --json) against its jansson twin; and a secret
 * key whose name was first met as a value stays masked.  The offer
 * answers' mapper (json_stream_offers) against json_map_offers the same
 * way: every text above read as an offer answer too, offer edge cases
 * (both shapes, missing, null and wrongly typed fields, unicode, huge
 * numbers), random offer answers and their mutations, and offers_answer()'s
 * errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/apierr.h"
#include "fuzz/instcmp.h"
#include "json/json_map.h"
#include "json/json_stream.h"
#include "flow/offers.h"
#include "poll/sweep.h"
#include "base/util.h"

/* Compare the two mappers on text (and the shape-only pagers); fail with
 * the difference. */
static size_t check_text(const char *text, size_t len)
{
	char why[600];
	size_t mapped;
	if (!instcmp_page(text, len, why, sizeof why, &mapped))
		fail_msg("mappers differ: %s\n  text: %.*s", why, (int)(len > 600 ? 600 : len), text);
	/* the same text as an offer search answer */
	size_t offers;
	if (!instcmp_offers(text, len, why, sizeof why, &offers))
		fail_msg("offer mappers differ: %s\n  text: %.*s", why, (int)(len > 600 ? 600 : len),
			 text);
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
	instance_free_all(v, n);
	v = NULL;
	n = 0;
	const char *stext = "[{\"id\":1,\"template_name\":\"spath_api_key\"},"
			    "{\"id\":2,\"spath_api_key\":\"k-456\"}]";
	long total;
	assert_int_equal(json_stream_instances(stext, strlen(stext), &v, &n, &tok, &total, err,
					       sizeof err), JSTREAM_OK);
	assert_int_equal(n, 2);
	assert_string_equal(field_of(&v[1], "spath_api_key"), "********");
	instance_free_all(v, n);
}

/* ---- offers ----------------------------------------------------------------- */

static size_t check_offers(const char *text, size_t len)
{
	char why[600];
	size_t mapped;
	if (!instcmp_offers(text, len, why, sizeof why, &mapped))
		fail_msg("offer mappers differ: %s\n  text: %.*s", why, (int)(len > 600 ? 600 : len),
			 text);
	return mapped;
}

static size_t check_offers_str(const char *text)
{
	return check_offers(text, strlen(text));
}

static void test_offer_edges(void **state)
{
	(void)state;
	static const char *const cases[] = {
		/* the shapes: under "offers", a bare list, and what is neither */
		"{\"offers\":[]}", "[]", "{}", "{\"offers\":null}", "{\"offers\":{\"id\":1}}",
		"{\"offers\":5}", "{\"offers\":\"x\"}", "{\"id\":1}", "null", "7",
		"{\"success\":true,\"offers\":[{\"id\":1}],\"count\":{\"a\":[1,2]}}",
		"{\"offers\":[{\"id\":1}],\"offers\":[{\"id\":2},{\"id\":3}]}",
		"{\"offers\":[{\"id\":1}],\"offers\":null}",
		"{\"offers\":7,\"offers\":[{\"id\":4}]}",
		"{\"offers\":[{\"id\":1}],\"offers\":{\"id\":2}}",
		"{\"instances\":[{\"id\":1}]}",
		"[1,\"a\",null,[{}],{\"id\":1},{\"gpu_name\":\"no id\"},true]",
		/* ids */
		"[{\"ask_contract_id\":5}]", "[{\"id\":null,\"ask_contract_id\":\"6\"}]",
		"[{\"id\":\"x\",\"ask_contract_id\":7.0}]", "[{\"id\":1.5}]",
		"[{\"id\":{\"a\":1},\"ask_contract_id\":[8]}]", "[{\"id\":1,\"id\":2}]",
		"[{\"id\":9223372036854775807}]", "[{\"id\":9223372036854775808}]",
		"[{\"id\":-9223372036854775808}]", "[{\"id\":1e19}]", "[{\"id\":\" 42 \"}]",
		/* missing, null and wrongly typed fields */
		"[{\"id\":1,\"num_gpus\":null,\"gpu_name\":5,\"dph_total\":\"0.5\","
		"\"reliability\":null,\"reliability2\":\"0.9\",\"verified\":null,"
		"\"verification\":\"verified\",\"rentable\":\"True\",\"gpu_ram\":[1],"
		"\"direct_port_count\":\"12\",\"geolocation\":{\"c\":\"US\"},\"is_bid\":1}]",
		"[{\"id\":1,\"verification\":\"verified\"},{\"id\":2,\"verification\":\"verified\\u0000x\"},"
		"{\"id\":3,\"verification\":\"unverified\"},{\"id\":4,\"verified\":{}}]",
		"[{\"id\":1,\"verified\":\"false\",\"rentable\":\"true\\u0000\",\"is_bid\":\"False\"}]",
		"[{\"id\":1,\"num_gpus\":4294967297,\"direct_port_count\":-2147483649}]",
		"[{\"id\":1,\"num_gpus\":\"2.0\",\"machine_id\":\"12a\",\"host_id\":1e300}]",
		/* numbers */
		"[{\"id\":1,\"dph_total\":1e400}]", "[{\"id\":1,\"dph_total\":-1e400}]",
		"[{\"id\":1,\"dph_total\":1e-400,\"score\":-0.0,\"dlperf\":1E2}]",
		"[{\"id\":1,\"total_flops\":99999999999999999999}]",
		"[{\"id\":1,\"total_flops\":\"1e400\",\"duration\":\"inf\",\"cpu_ghz\":\"nan\"}]",
		"[{\"id\":1,\"x\":[1e400]}]", "[{\"id\":1,\"x\":{\"y\":99999999999999999999}}]",
		"[{\"id\":1,\"storage_cost\":0.1,\"credit_discount_max\":\" 0.4 \",\"compute_cap\":890}]",
		/* strings: escapes, unicode, control bytes, bad UTF-8 */
		"[{\"id\":1,\"gpu_name\":\"RTX\\u00a04090\",\"geolocation\":\"Z\xc3\xbcrich, CH\"}]",
		"[{\"id\":1,\"gpu_name\":\"a\\u0000b\",\"cpu_name\":\"\\u001b[31mred\"}]",
		"[{\"id\":1,\"geolocation\":\"\\ud83d\\ude00\"}]", "[{\"id\":1,\"geolocation\":\"\\ud83d\"}]",
		"[{\"id\":1,\"geolocation\":\"\xc3\xa9\xe6\x97\xa5\"}]", "[{\"id\":1,\"geolocation\":\"\xff\"}]",
		"[{\"id\":1,\"geolocation\":\"\xed\xa0\x80\"}]", "[{\"id\":1,\"driver_version\":\"a\tb\"}]",
		"[{\"id\":1,\"g\\u0000pu\":1}]", "[{\"id\":1,\"\xc3\xa9\":{\"a\\u0000\":1}}]",
		/* structure */
		"[{\"id\":1}] x", "[{\"id\":1},]", "{\"offers\":[{\"id\":1}]", "[{\"id\":1}][]",
		"[]\"", "[1,\v2]", "[1\f]", "\"\"\"", "{\"offers\":[]} \"ab", "[] \t\r\n",
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		check_offers_str(cases[i]);
	check_offers("[{\"id\":1}\0]", 11);
	for (int depth = 2045; depth <= 2050; depth++) {
		char *t = xmalloc((size_t)depth * 2 + 64);
		size_t len = (size_t)sprintf(t, "{\"offers\":[{\"id\":1,\"x\":");
		for (int i = 4; i < depth; i++)
			t[len++] = '[';
		for (int i = 4; i < depth; i++)
			t[len++] = ']';
		len += (size_t)sprintf(t + len, "}]}");
		check_offers(t, len);
		free(t);
	}
}

/* What the stream mapper makes of the shapes, by value (not only "the same
 * as jansson"). */
static void test_offer_values(void **state)
{
	(void)state;
	const char *t = "{\"offers\":[{\"ask_contract_id\":\"900002\",\"num_gpus\":\"8\","
			"\"gpu_name\":\"H100\\u001b[2J SXM\",\"dph_total\":\"19.9\","
			"\"verification\":\"verified\",\"rentable\":1,\"geolocation\":\"Z\xc3\xbcrich\","
			"\"search\":{\"x\":[1,2,{\"y\":null}]},\"reliability2\":0.5},"
			"{\"gpu_name\":\"no id\"},5,{\"id\":7,\"verified\":false,"
			"\"verification\":\"verified\",\"is_bid\":\"true\",\"dph_total\":null}],"
			"\"count\":3}";
	struct offer *v = NULL;
	size_t n = 0;
	char err[160];
	assert_int_equal(json_stream_offers(t, strlen(t), &v, &n, err, sizeof err), JSTREAM_OK);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].id, 900002);
	assert_int_equal(v[0].num_gpus, 8);
	assert_null(strchr(v[0].gpu_name, '\033')); /* sanitised */
	assert_true(v[0].dph_total > 19.89 && v[0].dph_total < 19.91);
	assert_true(v[0].verified && v[0].rentable && !v[0].is_bid);
	assert_string_equal(v[0].geolocation, "Z\xc3\xbcrich");
	assert_true(v[0].reliability == 0.5);
	assert_string_equal(v[0].cpu_name, "");
	assert_true(isnan(v[0].min_bid));
	assert_int_equal(v[1].id, 7);
	assert_false(v[1].verified); /* "verified" sent wins over "verification" */
	assert_true(v[1].is_bid);
	assert_true(isnan(v[1].dph_total));
	json_map_offers_free(v, n);
	/* a bare list appends to what is there */
	v = NULL;
	n = 0;
	const char *a = "[{\"id\":1}]", *b = "[{\"id\":2},{\"id\":3}]";
	assert_int_equal(json_stream_offers(a, strlen(a), &v, &n, err, sizeof err), JSTREAM_OK);
	assert_int_equal(json_stream_offers(b, strlen(b), &v, &n, err, sizeof err), JSTREAM_OK);
	assert_int_equal(n, 3);
	assert_int_equal(v[2].id, 3);
	/* a refused answer appends nothing and keeps what was there */
	const char *c = "{\"offers\":[{\"id\":4}],\"offers\":1}", *d = "[{\"id\":4},";
	assert_int_equal(json_stream_offers(c, strlen(c), &v, &n, err, sizeof err),
			 JSTREAM_BAD_SHAPE);
	assert_int_equal(n, 3);
	assert_int_equal(json_stream_offers(d, strlen(d), &v, &n, err, sizeof err),
			 JSTREAM_BAD_JSON);
	assert_true(err[0] != '\0');
	assert_int_equal(n, 3);
	json_map_offers_free(v, n);
	/* an empty list is an (empty) array, as json_map_offers gives */
	v = NULL;
	n = 0;
	const char *e = "{\"offers\":[]}";
	assert_int_equal(json_stream_offers(e, strlen(e), &v, &n, err, sizeof err), JSTREAM_OK);
	assert_non_null(v);
	assert_int_equal(n, 0);
	json_map_offers_free(v, n);
}

/* offers_answer(): the errors as the view and --dump say them. */
static void test_offers_answer(void **state)
{
	(void)state;
	struct offer *v = NULL;
	size_t n = 0;
	struct api_error e;
	memset(&e, 0, sizeof e);
	const char *ok = "{\"offers\":[{\"id\":3}]}", *obj = "{\"offers\":{}}";
	assert_true(offers_answer(ok, strlen(ok), &v, &n, &e));
	assert_int_equal(n, 1);
	assert_false(offers_answer(obj, strlen(obj), &v, &n, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_string_equal(e.msg, "unexpected offer list shape");
	/* not JSON: jansson's words, as api_parse gives them for any answer */
	const char *bad = "{\"offers\":[{\"id\":3}";
	json_error_t je;
	assert_null(json_loadb(bad, strlen(bad), JSON_DECODE_ANY | JSON_ALLOW_NUL, &je));
	char want[300];
	snprintf(want, sizeof want, "malformed JSON from the service (%s)", je.text);
	assert_false(offers_answer(bad, strlen(bad), &v, &n, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_string_equal(e.msg, want);
	assert_int_equal(n, 1);
	/* what yajl would read differently goes to jansson, which judges it */
	const char *pair = "[{\"id\":4,\"gpu_name\":\"\\ud83d\\ude00\"}]";
	const char *lone = "[{\"id\":5,\"gpu_name\":\"\\ud83d\"}]";
	assert_true(offers_answer(pair, strlen(pair), &v, &n, &e));
	assert_int_equal(n, 2);
	assert_false(offers_answer(lone, strlen(lone), &v, &n, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_int_equal(n, 2);
	json_map_offers_free(v, n);
}

/* A random offer: the keys the mapping reads (and others), values of any type. */
static const char *const OKEYS[] = {
	"id", "ask_contract_id", "machine_id", "num_gpus", "gpu_name", "dph_total", "dph_base",
	"min_bid", "reliability", "reliability2", "verified", "verification", "rentable", "gpu_ram",
	"direct_port_count", "dlperf", "dlperf_per_dphtotal", "total_flops", "score", "cpu_ram",
	"disk_space", "inet_up", "inet_down", "cuda_max_good", "geolocation", "duration",
	"storage_cost", "host_id", "cpu_cores_effective", "cpu_ghz", "compute_cap",
	"driver_version", "cpu_name", "credit_discount_max", "is_bid", "offers", "search",
	"caf\xc3\xa9", "",
};

static void gen_offer(struct gen *g)
{
	put(g, "{");
	bool first = true;
	if (pick(g, 6)) {
		putf(g, "\"%s\":%u", pick(g, 4) ? "id" : "ask_contract_id", pick(g, 100000));
		first = false;
	}
	for (unsigned i = 0, n = pick(g, 36); i < n; i++) {
		if (!first)
			put(g, ",");
		first = false;
		putf(g, "\"%s\":", OKEYS[pick(g, sizeof OKEYS / sizeof *OKEYS)]);
		gen_value(g, 0);
	}
	put(g, "}");
}

static void gen_offers(struct gen *g)
{
	g->len = 0;
	put(g, "");
	unsigned shape = pick(g, 10), n = pick(g, 6);
	if (shape >= 3)
		put(g, "{\"success\":true,\"offers\":");
	if (shape == 3) {
		gen_value(g, 0);
	} else {
		put(g, "[");
		for (unsigned i = 0; i < n; i++) {
			if (i)
				put(g, ",");
			if (pick(g, 10))
				gen_offer(g);
			else
				gen_value(g, 0);
		}
		put(g, "]");
	}
	if (shape >= 3) {
		if (pick(g, 3) == 0) {
			put(g, ",\"count\":");
			gen_value(g, 0);
		}
		if (pick(g, 10) == 0)
			put(g, ",\"offers\":[{\"id\":5}]");
		put(g, "}");
	}
}

static void test_random_offers(void **state)
{
	(void)state;
	struct gen g = { .s = 0xD1B54A32D192ED03ull };
	size_t offers = 0, answers = 3000;
	for (size_t i = 0; i < answers; i++) {
		gen_offers(&g);
		offers += check_offers(g.b, g.len);
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
				default: t[at] = "\"{}[],:\0e."[pick(&g, 11)]; break;
				}
			}
			check_offers(t, len);
			free(t);
		}
	}
	free(g.b);
	assert_true(offers > answers); /* most answers held offers that were compared */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_secret_name_seen_as_value),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_random_pages),
		cmocka_unit_test(test_offer_edges),
		cmocka_unit_test(test_offer_values),
		cmocka_unit_test(test_offers_answer),
		cmocka_unit_test(test_random_offers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
