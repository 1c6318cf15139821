/* json_map.c: owns the translation of the service's JSON (jansson values) into
 * the model's C records: instances in every list shape the service and the
 * spec use, the user, workergroups, endpoints, offers and templates, the
 * account's 2FA status, env vars (secrets) and API keys, machine reports, and
 * the sorted key/value field lists the detail views show.  It is deliberately
 * forgiving: a missing, null or wrongly typed field reads as "not sent" (""
 * for strings, NAN for doubles, 0 for integers) and never disturbs another
 * field; numbers sent as strings ("41022", "0.5") are read as numbers.
 * Every string is sanitised on the way in, and secret fields are never
 * copied into a record (their value shows as "********" in field lists). */
#include "json/json_map.h"
#include "json/json_list.h"
#include "json/json_map_rec.h"
#include "rules/query.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/secrets.h"
#include "base/util.h"

#define FIELD_VALUE_MAX 512 /* bytes of JSON text kept per field in kv lists */
#define MASK "********"

/* ---- scalar readers --------------------------------------------------- */

/* Parse a whole string as a finite double (surrounding blanks allowed). */
static bool str_to_double(const char *s, double *out)
{
	if (!s)
		return false;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno == ERANGE)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* A JSON number, or a string holding one, as a double; NAN otherwise. */
static double val_num(const json_t *v)
{
	double d;
	if (json_is_integer(v))
		return (double)json_integer_value(v);
	if (json_is_real(v))
		return json_real_value(v);
	if (json_is_string(v) && str_to_double(json_string_value(v), &d))
		return d;
	return NAN;
}

static double get_num(const json_t *o, const char *key)
{
	return val_num(json_object_get(o, key));
}

/* An integral JSON value (or integral string / real) into *out. */
static bool val_long(const json_t *v, long *out)
{
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < LONG_MIN || i > LONG_MAX)
			return false;
		*out = (long)i;
		return true;
	}
	double d = val_num(v);
	if (!isfinite(d) || d != floor(d) || d < -9.2e18 || d > 9.2e18)
		return false;
	*out = (long)d;
	return true;
}

static long get_long(const json_t *o, const char *key)
{
	long v = 0;
	return val_long(json_object_get(o, key), &v) ? v : 0;
}

static int get_int(const json_t *o, const char *key)
{
	long v = get_long(o, key);
	return v > INT32_MAX || v < INT32_MIN ? 0 : (int)v;
}

/* Booleans as true/false, 0/1 or "true"/"false"; *known says whether it was sent. */
static bool val_bool(const json_t *v, bool *known)
{
	bool k = true, r = false;
	if (json_is_boolean(v))
		r = json_is_true(v);
	else if (json_is_integer(v))
		r = json_integer_value(v) != 0;
	else if (json_is_string(v) && (!strcmp(json_string_value(v), "true") ||
				       !strcmp(json_string_value(v), "True")))
		r = true;
	else if (json_is_string(v) && (!strcmp(json_string_value(v), "false") ||
				       !strcmp(json_string_value(v), "False")))
		r = false;
	else
		k = false;
	if (known)
		*known = k;
	return r;
}

static bool get_bool(const json_t *o, const char *key)
{
	return val_bool(json_object_get(o, key), NULL);
}

static bool plain_ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7F)
			return false;
	return true;
}

bool json_map_plain_ascii(const char *s, size_t len)
{
	return plain_ascii(s, len);
}

/* util_sanitize_n with a fast path for plain printable ASCII (most fields). */
static char *sanitize_str(const char *s, size_t len)
{
	return plain_ascii(s, len) ? xstrndup(s, len) : util_sanitize_n(s, len);
}

/* A sanitised copy of a string field; "" when missing or not a string. */
static char *get_str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_string(v))
		return xstrdup("");
	return sanitize_str(json_string_value(v), json_string_length(v));
}

/* Free a record's string unless it is interned. */
static void str_drop(char *s)
{
	if (!intern_has(s))
		free(s);
}

/* A multi-line text field (scripts): sanitised with its newlines kept. */
static char *get_text_ml(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_string(v))
		return xstrdup("");
	return util_sanitize_ml(json_string_value(v), json_string_length(v));
}

/* ---- secrets and kv lists ---------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

bool json_map_is_secret_key(const char *key)
{
	static const char *const secret[] = {
		"api_key", "instance_api_key", "jupyter_token", "session_key", "key",
		"docker_login_pass", "image_login", "tfa_secret", "secret", "password",
		"token", "backup_codes", "provisioning_uri", "totp_secret",
	};
	static const char *const safe[] = {
		"ssh_key", "template_hash_id", "public_key", "ssh_keys", "hash_id",
		"template_hash", "next_token", "after_token", "sort_key", "label_key",
	};
	static const char *const suffixes[] = { "_token", "_key", "password", "secret",
						"_pass", "_passwd" };
	if (!key)
		return false;
	char low[128];
	size_t n = 0;
	for (; key[n] && n < sizeof low - 1; n++)
		low[n] = (char)tolower((unsigned char)key[n]);
	low[n] = '\0';
	for (size_t i = 0; i < sizeof safe / sizeof *safe; i++)
		if (!strcmp(low, safe[i]))
			return false;
	for (size_t i = 0; i < sizeof secret / sizeof *secret; i++)
		if (!strcmp(low, secret[i]))
			return true;
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
		if (ends_with(low, suffixes[i]))
			return true;
	return false;
}

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* Cut a UTF-8 string to at most max bytes on a character boundary, adding "…". */
static void truncate_utf8(char *s, size_t max)
{
	size_t len = strlen(s);
	if (len <= max)
		return;
	size_t cut = max - 3; /* room for the 3-byte ellipsis */
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	memcpy(s + cut, "\xE2\x80\xA6", 4);
}

/* The field texts of one record are written into a struct json_map_tbuf
 * one after the other (each ends with its NUL), so a record's ~60 values
 * cost no malloc of their own. */
#define tbuf json_map_tbuf

static void tb_reserve(struct tbuf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more)
		cap *= 2;
	if (b->heap) {
		b->s = xrealloc(b->s, cap);
	} else {
		char *s = xmalloc(cap);
		if (b->len)
			memcpy(s, b->s, b->len);
		b->s = s;
		b->heap = true;
	}
	b->cap = cap;
}

static void tb_put(struct tbuf *b, const char *s, size_t n)
{
	tb_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

/* A JSON string of s (no escapes needed but " and \: it is sanitised). */
static void tb_quoted(struct tbuf *b, const char *s, size_t len)
{
	tb_reserve(b, 2 * len + 2);
	char *o = b->s + b->len;
	*o++ = '"';
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			*o++ = '\\';
		*o++ = s[i];
	}
	*o++ = '"';
	b->len = (size_t)(o - b->s);
}

/* Decimal digits of v (what "%lld" prints), into b. */
static void tb_long(struct tbuf *b, long long v)
{
	char d[24];
	size_t i = sizeof d;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		d[--i] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		d[--i] = '-';
	tb_put(b, d + i, sizeof d - i);
}

/* The JSON text of one value for display, appended to b with its NUL:
 * compact, sanitised, truncated.  Scalars are formatted here (the common
 * case, and much cheaper than json_dumps; an integral real below 1e15 is
 * printed as its digits, which is what "%.15g" prints); a string is
 * sanitised before quoting, so escape sequences vanish instead of showing
 * as \u001b text. */
static void mval_text_to(struct tbuf *b, const struct mval *v)
{
	size_t start = b->len;
	switch (v->t) {
	case MV_STR:
		if (plain_ascii(v->s, v->len)) {
			tb_quoted(b, v->s, v->len);
		} else {
			char *clean = util_sanitize_n(v->s, v->len);
			tb_quoted(b, clean, strlen(clean));
			free(clean);
		}
		break;
	case MV_INT:
		tb_long(b, v->i);
		break;
	case MV_REAL: {
		double d = v->d;
		if (d == trunc(d) && fabs(d) < 1e15 && !(d == 0 && signbit(d))) {
			tb_long(b, (long long)d);
		} else {
			char num[48];
			int k = snprintf(num, sizeof num, "%.15g", d);
			tb_put(b, num, k > 0 ? (size_t)k : 0);
		}
		break;
	}
	case MV_TRUE: tb_put(b, "true", 4); break;
	case MV_FALSE: tb_put(b, "false", 5); break;
	case MV_NULL: tb_put(b, "null", 4); break;
	case MV_JSON: {
		char *raw = json_dumps(v->j, JSON_ENCODE_ANY | JSON_COMPACT);
		if (!raw) {
			tb_put(b, "?", 1);
			break;
		}
		char *clean = util_sanitize(raw);
		free(raw);
		tb_put(b, clean, strlen(clean));
		free(clean);
		break;
	}
	case MV_NONE:
		break;
	}
	if (b->len == start) /* not a JSON type jansson knows */
		tb_put(b, "?", 1);
	tb_put(b, "", 1);
	truncate_utf8(b->s + start, FIELD_VALUE_MAX);
	b->len = start + strlen(b->s + start) + 1;
}

struct mval json_map_mval(const json_t *v)
{
	struct mval m = { .t = MV_NONE };
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_STRING:
		m.t = MV_STR;
		m.s = json_string_value(v);
		m.len = json_string_length(v);
		break;
	case JSON_INTEGER:
		m.t = MV_INT;
		m.i = (long long)json_integer_value(v);
		break;
	case JSON_REAL:
		m.t = MV_REAL;
		m.d = json_real_value(v);
		break;
	case JSON_TRUE: m.t = MV_TRUE; break;
	case JSON_FALSE: m.t = MV_FALSE; break;
	case JSON_NULL: m.t = v ? MV_NULL : MV_NONE; break;
	case JSON_OBJECT:
	case JSON_ARRAY:
		m.t = MV_JSON;
		m.j = v;
		break;
	}
	return m;
}

/* The JSON text of one value for display, appended to b with its NUL. */
static void value_text_to(struct tbuf *b, const json_t *v)
{
	struct mval m = json_map_mval(v);
	mval_text_to(b, &m);
}

/* The JSON text of one value for display (malloc'd). */
static char *value_text(const json_t *v)
{
	struct tbuf b = { NULL, 0, 0, true };
	value_text_to(&b, v);
	return b.s;
}

/* A jansson value for the mval (a new reference): the env masking
 * (secrets_masked) reads jansson values. */
json_t *json_map_mval_json(const struct mval *v)
{
	switch (v->t) {
	case MV_STR: return json_stringn_nocheck(v->s, v->len);
	case MV_INT: return json_integer((json_int_t)v->i);
	case MV_REAL: return json_real(v->d);
	case MV_TRUE: return json_true();
	case MV_FALSE: return json_false();
	case MV_JSON: return json_incref((json_t *)v->j);
	case MV_NULL:
	case MV_NONE:
		break;
	}
	return json_null();
}

void json_map_fb_init(struct json_map_fb *fb, size_t count)
{
	fb->count = count;
	fb->i = 0;
	fb->at = count <= JSON_MAP_FB_STACK ? fb->stack_at : xmalloc(count * sizeof *fb->at);
	fb->tb = (struct tbuf){ fb->stack_text, 0, sizeof fb->stack_text, false };
}

void json_map_fb_add(struct json_map_fb *fb, const char *key, size_t klen, const char *ikey,
		     bool secret, const struct mval *val)
{
	if (fb->i == fb->count)
		return;
	struct tbuf *tb = &fb->tb;
	struct json_map_field_at *f = &fb->at[fb->i];
	/* names repeat in every record: one interned copy, its secret
	 * check done once; a name that needs cleaning is kept apart */
	if (!ikey && plain_ascii(key, klen))
		ikey = intern_str(key, klen, json_map_is_secret_key, &secret);
	f->ikey = ikey;
	const char *shown = f->ikey;
	char *clean = NULL;
	if (!f->ikey) {
		/* judged on the name as shown: "im\x7fage_login" is image_login */
		clean = sanitize_str(key, klen);
		secret = json_map_is_secret_key(clean);
		f->key = tb->len;
		tb_put(tb, clean, strlen(clean) + 1);
		shown = clean;
	}
	f->value = tb->len;
	if (secrets_is_env_key(shown)) { /* env values: always masked */
		json_t *jv = json_map_mval_json(val);
		json_t *env = secrets_masked(shown, jv);
		value_text_to(tb, env);
		json_decref(env);
		json_decref(jv);
	} else if (secret && val->t != MV_NULL && !(val->t == MV_STR && val->len == 0)) {
		tb_put(tb, MASK, sizeof MASK);
	} else {
		mval_text_to(tb, val);
	}
	free(clean);
	fb->i++;
}

struct kv *json_map_fb_end(struct json_map_fb *fb, size_t *n)
{
	struct tbuf *tb = &fb->tb;
	size_t i = fb->i;
	/* one allocation for the whole list: the array, then the texts (a
	 * record's ~60 fields cost one malloc, not 120); instance_kv_free() frees it */
	struct kv *out = xmalloc(i * sizeof *out + tb->len);
	char *text = (char *)(out + i);
	memcpy(text, tb->s, tb->len);
	for (size_t k = 0; k < i; k++) {
		out[k].key = fb->at[k].ikey ? (char *)fb->at[k].ikey : text + fb->at[k].key;
		out[k].value = text + fb->at[k].value;
	}
	qsort(out, i, sizeof *out, cmp_kv);
	if (tb->heap)
		free(tb->s);
	if (fb->at != fb->stack_at)
		free(fb->at);
	*n = i;
	return out;
}

struct kv *json_map_fields(const json_t *obj, size_t *n)
{
	*n = 0;
	if (!json_is_object(obj) || json_object_size(obj) == 0)
		return NULL;
	struct json_map_fb fb;
	json_map_fb_init(&fb, json_object_size(obj));
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)obj, key, val) {
		struct mval m = json_map_mval(val);
		json_map_fb_add(&fb, key, strlen(key), NULL, false, &m);
	}
	return json_map_fb_end(&fb, n);
}

/* ---- instances ---------------------------------------------------------- */

/* "22/tcp" -> 22, "tcp"; false when the key is not a port spec. */
static bool parse_port_key(const char *key, int *port, char proto[8])
{
	char *end;
	errno = 0;
	long p = strtol(key, &end, 10);
	if (end == key || errno || p <= 0 || p > 65535)
		return false;
	if (*end == '/') {
		end++;
		size_t len = strlen(end);
		if (len == 0 || len >= 8)
			return false;
		for (size_t i = 0; i < len; i++)
			if (!isalpha((unsigned char)end[i]))
				return false;
		memcpy(proto, end, len + 1);
	} else if (*end == '\0') {
		memcpy(proto, "tcp", 4);
	} else {
		return false;
	}
	*port = (int)p;
	return true;
}

/* A HostPort (string or number) as a port number, 0 when unusable. */
static int host_port(const json_t *binding)
{
	long p;
	if (json_is_object(binding) && val_long(json_object_get(binding, "HostPort"), &p) &&
	    p > 0 && p <= 65535)
		return (int)p;
	if (!json_is_object(binding) && val_long(binding, &p) && p > 0 && p <= 65535)
		return (int)p;
	return 0;
}

/* ports {"22/tcp":[{"HostIp":..,"HostPort":"41022"}], ...} into x->ports. */
static void map_ports(const json_t *ports, struct instance *x)
{
	if (!json_is_object(ports))
		return;
	size_t cap = 0;
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)ports, key, val) {
		int cport;
		char proto[8];
		if (!parse_port_key(key, &cport, proto))
			continue;
		size_t nb = json_is_array(val) ? json_array_size(val) : 1;
		for (size_t i = 0; i < nb; i++) {
			const json_t *b = json_is_array(val) ? json_array_get(val, i) : val;
			int hp = host_port(b);
			if (!hp)
				continue;
			if (x->nports == cap) {
				cap = cap ? cap * 2 : 4;
				x->ports = xrealloc(x->ports, cap * sizeof *x->ports);
			}
			struct port_map *pm = &x->ports[x->nports++];
			pm->container_port = cport;
			memcpy(pm->proto, proto, sizeof pm->proto);
			pm->host_port = hp;
			if (cport == 22 && !strcmp(proto, "tcp") && !x->direct_ssh_port)
				x->direct_ssh_port = hp;
		}
	}
}

/* extra_env ([name, value] pairs, or an object of name to value) into the
 * instance's env list, values in clear (sanitised) for the one-at-a-time
 * reveal of the detail view. */
static char *env_value(const json_t *v)
{
	if (json_is_string(v))
		return sanitize_str(json_string_value(v), json_string_length(v));
	return !v || json_is_null(v) ? xstrdup("") : value_text(v);
}

static void map_env(const json_t *ev, struct instance *x)
{
	size_t cnt = json_is_array(ev) ? json_array_size(ev) : json_is_object(ev) ? json_object_size(ev) : 0;
	if (!cnt)
		return;
	x->env = xcalloc(cnt, sizeof *x->env);
	if (json_is_object(ev)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)ev, k, v) {
			x->env[x->nenv].key = sanitize_str(k, strlen(k));
			x->env[x->nenv++].value = env_value(v);
		}
		return;
	}
	for (size_t i = 0; i < cnt; i++) {
		const json_t *p = json_array_get(ev, i);
		if (!json_is_array(p) || !json_is_string(json_array_get(p, 0)))
			continue;
		const json_t *k = json_array_get(p, 0);
		x->env[x->nenv].key = sanitize_str(json_string_value(k), json_string_length(k));
		x->env[x->nenv++].value = env_value(json_array_get(p, 1));
	}
}

const char *const JSON_MAP_IK_NAMES[IK__COUNT] = {
	[IK_ID] = "id", [IK_LABEL] = "label", [IK_ACTUAL_STATUS] = "actual_status",
	[IK_INTENDED_STATUS] = "intended_status", [IK_CUR_STATE] = "cur_state",
	[IK_NEXT_STATE] = "next_state", [IK_STATUS_MSG] = "status_msg",
	[IK_MACHINE_ID] = "machine_id", [IK_HOST_ID] = "host_id", [IK_NUM_GPUS] = "num_gpus",
	[IK_GPU_NAME] = "gpu_name", [IK_GPU_RAM] = "gpu_ram", [IK_GPU_TOTALRAM] = "gpu_totalram",
	[IK_GPU_TOTAL_RAM] = "gpu_total_ram", [IK_GPU_UTIL] = "gpu_util",
	[IK_GPU_TEMP] = "gpu_temp", [IK_CPU_CORES_EFFECTIVE] = "cpu_cores_effective",
	[IK_CPU_RAM] = "cpu_ram", [IK_DISK_SPACE] = "disk_space", [IK_DISK_USAGE] = "disk_usage",
	[IK_INET_UP] = "inet_up", [IK_INET_DOWN] = "inet_down", [IK_DPH_BASE] = "dph_base",
	[IK_DPH_TOTAL] = "dph_total", [IK_STORAGE_COST] = "storage_cost",
	[IK_STORAGE_TOTAL_COST] = "storage_total_cost", [IK_MIN_BID] = "min_bid",
	[IK_IS_BID] = "is_bid", [IK_BID_PRICE] = "bid_price", [IK_CURRENT_BID] = "current_bid",
	[IK_IMAGE_UUID] = "image_uuid", [IK_IMAGE] = "image",
	[IK_IMAGE_RUNTYPE] = "image_runtype", [IK_RUNTYPE] = "runtype",
	[IK_SSH_HOST] = "ssh_host", [IK_SSH_PORT] = "ssh_port",
	[IK_PUBLIC_IPADDR] = "public_ipaddr", [IK_PORTS] = "ports",
	[IK_START_DATE] = "start_date", [IK_END_DATE] = "end_date",
	[IK_UPTIME_MINS] = "uptime_mins", [IK_RELIABILITY2] = "reliability2",
	[IK_RELIABILITY] = "reliability", [IK_GEOLOCATION] = "geolocation",
	[IK_VERIFICATION] = "verification", [IK_TEMPLATE_ID] = "template_id",
	[IK_TEMPLATE_HASH_ID] = "template_hash_id", [IK_TEMPLATE_NAME] = "template_name",
	[IK_CREDIT_BALANCE] = "credit_balance", [IK_PREPAID_CREDIT] = "prepaid_credit",
	[IK_CREDIT_REMAINING] = "credit_remaining", [IK_CREDIT_DISCOUNT] = "credit_discount",
	[IK_EXTRA_ENV] = "extra_env", [IK_SEARCH] = "search",
	[IK_JUPYTER_TOKEN] = "jupyter_token", [IK_MACHINE_DIR_SSH_PORT] = "machine_dir_ssh_port",
	[IK_CPU_UTIL] = "cpu_util", [IK_MEM_USAGE] = "mem_usage", [IK_MEM_LIMIT] = "mem_limit",
	[IK_DISK_UTIL] = "disk_util",
	[IK_ASK_CONTRACT_ID] = "ask_contract_id", [IK_VERIFIED] = "verified",
	[IK_RENTABLE] = "rentable", [IK_DIRECT_PORT_COUNT] = "direct_port_count",
	[IK_DLPERF] = "dlperf", [IK_DLPERF_PER_DPHTOTAL] = "dlperf_per_dphtotal",
	[IK_TOTAL_FLOPS] = "total_flops", [IK_SCORE] = "score",
	[IK_CUDA_MAX_GOOD] = "cuda_max_good", [IK_DURATION] = "duration",
	[IK_CPU_GHZ] = "cpu_ghz", [IK_COMPUTE_CAP] = "compute_cap",
	[IK_DRIVER_VERSION] = "driver_version", [IK_CPU_NAME] = "cpu_name",
	[IK_CREDIT_DISCOUNT_MAX] = "credit_discount_max",
	[IK_INSTANCES] = "instances", [IK_NEXT_TOKEN] = "next_token",
	[IK_TOTAL_INSTANCES] = "total_instances", [IK_OFFERS] = "offers",
};

/* The readers of json_map's rules over a struct mval (val_num, val_long,
 * val_bool, get_str, get_istr for the record's keys). */
static double mv_num(const struct mval *v)
{
	double d;
	switch (v->t) {
	case MV_INT: return (double)v->i;
	case MV_REAL: return v->d;
	case MV_STR: {
		/* str_to_double reads a C string: up to an embedded NUL, as jansson's */
		char buf[64];
		const char *s = v->s;
		char *heap = NULL;
		if (v->len < sizeof buf) {
			memcpy(buf, v->s, v->len);
			buf[v->len] = '\0';
			s = buf;
		} else {
			s = heap = xstrndup(v->s, v->len);
		}
		bool ok = str_to_double(s, &d);
		free(heap);
		return ok ? d : NAN;
	}
	case MV_NONE: case MV_NULL: case MV_TRUE: case MV_FALSE: case MV_JSON:
		break;
	}
	return NAN;
}

static bool mv_long(const struct mval *v, long *out)
{
	if (v->t == MV_INT) {
		if (v->i < LONG_MIN || v->i > LONG_MAX)
			return false;
		*out = (long)v->i;
		return true;
	}
	double d = mv_num(v);
	if (!isfinite(d) || d != floor(d) || d < -9.2e18 || d > 9.2e18)
		return false;
	*out = (long)d;
	return true;
}

static bool mv_bool(const struct mval *v, bool *known)
{
	bool k = true, r = false;
	size_t n = v->t == MV_STR ? strnlen(v->s, v->len) : 0; /* as a C string */
	if (v->t == MV_TRUE || v->t == MV_FALSE)
		r = v->t == MV_TRUE;
	else if (v->t == MV_INT)
		r = v->i != 0;
	else if (v->t == MV_STR && n == 4 && (!memcmp(v->s, "true", 4) || !memcmp(v->s, "True", 4)))
		r = true;
	else if (v->t == MV_STR && n == 5 && (!memcmp(v->s, "false", 5) || !memcmp(v->s, "False", 5)))
		r = false;
	else
		k = false;
	if (known)
		*known = k;
	return r;
}

static char *mv_str(const struct mval *v)
{
	return v->t == MV_STR ? sanitize_str(v->s, v->len) : xstrdup("");
}

/* A string field whose values repeat across a fleet (states, GPU and CPU
 * names, images, places): one interned copy shared by every record (no
 * malloc, less memory); a long, odd or new value past the pool's room is
 * an ordinary copy.  instance_clear() frees only what is not interned. */
static char *mv_istr(const struct mval *v)
{
	if (v->t != MV_STR)
		return (char *)intern_str("", 0, NULL, NULL);
	const char *r = NULL;
	if (v->len <= 64 && plain_ascii(v->s, v->len))
		r = intern_str(v->s, v->len, NULL, NULL);
	return r ? (char *)r : sanitize_str(v->s, v->len);
}

static double r_num(const struct json_map_rec *r, enum json_map_ik k)
{
	struct mval v = r->get(r, k);
	return mv_num(&v);
}

static long r_long(const struct json_map_rec *r, enum json_map_ik k)
{
	struct mval v = r->get(r, k);
	long out = 0;
	return mv_long(&v, &out) ? out : 0;
}

static int r_int(const struct json_map_rec *r, enum json_map_ik k)
{
	long v = r_long(r, k);
	return v > INT32_MAX || v < INT32_MIN ? 0 : (int)v;
}

static char *r_str(const struct json_map_rec *r, enum json_map_ik k)
{
	struct mval v = r->get(r, k);
	return mv_str(&v);
}

static char *r_istr(const struct json_map_rec *r, enum json_map_ik k)
{
	struct mval v = r->get(r, k);
	return mv_istr(&v);
}

/* A container member as jansson holds it (ports, extra_env), else NULL. */
static const json_t *r_json(const struct json_map_rec *r, enum json_map_ik k)
{
	struct mval v = r->get(r, k);
	return v.t == MV_JSON ? v.j : NULL;
}

bool json_map_instance_rec(const struct json_map_rec *r, struct instance *x)
{
	memset(x, 0, sizeof *x);
	long id;
	struct mval idv = r->get(r, IK_ID);
	if (!mv_long(&idv, &id))
		return false;
	x->id = id;
	x->label = r_str(r, IK_LABEL);
	x->actual_status = r_istr(r, IK_ACTUAL_STATUS);
	x->intended_status = r_istr(r, IK_INTENDED_STATUS);
	x->cur_state = r_istr(r, IK_CUR_STATE);
	x->next_state = r_istr(r, IK_NEXT_STATE);
	x->status_msg = r_str(r, IK_STATUS_MSG);
	x->machine_id = r_long(r, IK_MACHINE_ID);
	x->host_id = r_long(r, IK_HOST_ID);
	x->num_gpus = r_int(r, IK_NUM_GPUS);
	x->gpu_name = r_istr(r, IK_GPU_NAME);
	x->gpu_ram = r_num(r, IK_GPU_RAM);
	x->gpu_totalram = r_num(r, IK_GPU_TOTALRAM);
	if (!isfinite(x->gpu_totalram))
		x->gpu_totalram = r_num(r, IK_GPU_TOTAL_RAM);
	x->gpu_util = r_num(r, IK_GPU_UTIL);
	x->gpu_temp = r_num(r, IK_GPU_TEMP);
	x->cpu_cores = r_num(r, IK_CPU_CORES_EFFECTIVE);
	x->cpu_ram = r_num(r, IK_CPU_RAM);
	x->disk_space = r_num(r, IK_DISK_SPACE);
	x->disk_usage = r_num(r, IK_DISK_USAGE);
	x->disk_util = r_num(r, IK_DISK_UTIL);
	x->cpu_util = r_num(r, IK_CPU_UTIL);
	x->mem_usage = r_num(r, IK_MEM_USAGE);
	x->mem_limit = r_num(r, IK_MEM_LIMIT);
	x->inet_up = r_num(r, IK_INET_UP);
	x->inet_down = r_num(r, IK_INET_DOWN);
	x->dph_base = r_num(r, IK_DPH_BASE);
	x->dph_total = r_num(r, IK_DPH_TOTAL);
	x->storage_cost = r_num(r, IK_STORAGE_COST);
	x->storage_total_cost = r_num(r, IK_STORAGE_TOTAL_COST);
	x->min_bid = r_num(r, IK_MIN_BID);
	bool bid_known;
	struct mval isb = r->get(r, IK_IS_BID);
	x->is_bid = mv_bool(&isb, &bid_known);
	/* An interruptible pays its bid: the service reports it as dph_base (a
	 * bid change rewrites dph_base); an explicit bid field wins, the
	 * offer's minimum bid is the last resort. */
	double bid = r_num(r, IK_BID_PRICE);
	if (!isfinite(bid))
		bid = r_num(r, IK_CURRENT_BID);
	if (!bid_known && isfinite(bid))
		x->is_bid = true;
	if (!x->is_bid)
		x->bid_price = NAN;
	else if (isfinite(bid))
		x->bid_price = bid;
	else if (isfinite(x->dph_base))
		x->bid_price = x->dph_base;
	else
		x->bid_price = x->min_bid;
	x->image = r_istr(r, IK_IMAGE_UUID);
	if (!x->image[0]) {
		str_drop(x->image);
		x->image = r_istr(r, IK_IMAGE);
	}
	x->runtype = r_istr(r, IK_IMAGE_RUNTYPE);
	if (!x->runtype[0]) {
		str_drop(x->runtype);
		x->runtype = r_istr(r, IK_RUNTYPE);
	}
	x->ssh_host = r_str(r, IK_SSH_HOST);
	long sp = r_long(r, IK_SSH_PORT);
	if (sp > 0 && sp < 65535 && strstr(x->runtype, "jupyter"))
		sp++;
	x->ssh_port = sp > 0 && sp <= 65535 ? (int)sp : 0;
	x->public_ip = r_str(r, IK_PUBLIC_IPADDR);
	map_ports(r_json(r, IK_PORTS), x);
	x->jupyter_token = r_str(r, IK_JUPYTER_TOKEN);
	long mdp = r_long(r, IK_MACHINE_DIR_SSH_PORT);
	x->machine_dir_ssh_port = mdp > 0 && mdp <= 65535 ? (int)mdp : 0;
	x->start_date = r_num(r, IK_START_DATE);
	x->end_date = r_num(r, IK_END_DATE);
	x->uptime_mins = r_num(r, IK_UPTIME_MINS);
	x->reliability = r_num(r, IK_RELIABILITY2);
	if (!isfinite(x->reliability))
		x->reliability = r_num(r, IK_RELIABILITY);
	x->geolocation = r_istr(r, IK_GEOLOCATION);
	x->verification = r_istr(r, IK_VERIFICATION);
	x->template_id = r_long(r, IK_TEMPLATE_ID);
	x->template_hash_id = r_str(r, IK_TEMPLATE_HASH_ID);
	x->template_name = r_istr(r, IK_TEMPLATE_NAME);
	x->credit_balance = r_num(r, IK_CREDIT_BALANCE);
	if (!isfinite(x->credit_balance))
		x->credit_balance = r_num(r, IK_PREPAID_CREDIT);
	if (!isfinite(x->credit_balance))
		x->credit_balance = r_num(r, IK_CREDIT_REMAINING);
	x->credit_discount = r_num(r, IK_CREDIT_DISCOUNT);
	/* the listing's prices (docs: show_instances.yaml "search"); an
	 * interruptible's own dph_base is its bid */
	const json_t *srch = r_json(r, IK_SEARCH);
	const json_t *gc = json_is_object(srch) ? json_object_get(srch, "gpuCostPerHour") : NULL;
	x->ondemand = json_is_number(gc) && json_number_value(gc) >= 0 ? json_number_value(gc) : NAN;
	x->fields = r->fields(r, &x->nfields);
	map_env(r_json(r, IK_EXTRA_ENV), x);
	x->state = instance_state(x); /* after is_bid: an outbid is a bid's */
	return true;
}

/* The jansson path's record: a json_t object. */
static struct mval jrec_get(const struct json_map_rec *r, enum json_map_ik k)
{
	return json_map_mval(json_object_get(r->ctx, JSON_MAP_IK_NAMES[k]));
}

static struct kv *jrec_fields(const struct json_map_rec *r, size_t *n)
{
	return json_map_fields(r->ctx, n);
}

bool json_map_instance(const json_t *o, struct instance *x)
{
	memset(x, 0, sizeof *x);
	if (!json_is_object(o))
		return false;
	struct json_map_rec r = { jrec_get, jrec_fields, o };
	return json_map_instance_rec(&r, x);
}

/* Append the instances of an array to *v and *n; non-objects and id-less entries are skipped. */
static void append_instances(const json_t *arr, struct instance **v, size_t *n)
{
	size_t count = json_array_size(arr);
	if (!count)
		return;
	*v = xrealloc(*v, (*n + count) * sizeof **v);
	for (size_t i = 0; i < count; i++) {
		if (json_map_instance(json_array_get(arr, i), &(*v)[*n]))
			(*n)++;
		else
			instance_clear(&(*v)[*n]);
	}
}

bool json_map_instances(const json_t *root, struct instance **v, size_t *n, char **next_token)
{
	if (next_token)
		*next_token = NULL;
	if (json_is_array(root)) {
		append_instances(root, v, n);
		return true;
	}
	if (!json_is_object(root))
		return false;
	const json_t *list = json_object_get(root, "instances");
	if (!list && json_object_get(root, "id")) { /* a bare instance object */
		*v = xrealloc(*v, (*n + 1) * sizeof **v);
		if (json_map_instance(root, &(*v)[*n])) {
			(*n)++;
			return true;
		}
		instance_clear(&(*v)[*n]);
		return false;
	}
	if (json_is_array(list)) {
		append_instances(list, v, n);
	} else if (json_is_object(list)) {
		*v = xrealloc(*v, (*n + 1) * sizeof **v);
		if (json_map_instance(list, &(*v)[*n]))
			(*n)++;
		else
			instance_clear(&(*v)[*n]);
	} else if (!json_is_null(list)) {
		return false; /* missing or a wrong type */
	}
	const json_t *tok = json_object_get(root, "next_token");
	if (next_token && json_is_string(tok) && json_string_length(tok) > 0)
		*next_token = xstrndup(json_string_value(tok), json_string_length(tok));
	else if (next_token && json_is_integer(tok))
		*next_token = xasprintf("%lld", (long long)json_integer_value(tok));
	return true;
}

/* ---- user, serverless ---------------------------------------------------- */

bool json_map_user(const json_t *root, struct user *u)
{
	memset(u, 0, sizeof *u);
	const json_t *o = root;
	if (json_is_object(root) && json_is_object(json_object_get(root, "user")))
		o = json_object_get(root, "user");
	long id;
	if (!json_is_object(o) || !val_long(json_object_get(o, "id"), &id))
		return false;
	u->id = id;
	u->email = get_str(o, "email");
	u->username = get_str(o, "username");
	u->fullname = get_str(o, "fullname");
	u->credit = get_num(o, "credit");
	u->balance = get_num(o, "balance");
	u->can_pay = get_bool(o, "can_pay");
	u->tfa_status = get_str(o, "tfa_status");
	u->ssh_key = get_str(o, "ssh_key");
	u->fields = json_map_fields(o, &u->nfields);
	return true;
}

static json_t *clean_copy(const json_t *v);

/* A workergroup's offer search as query-language text: "search_query" (the
 * docs type it as the parsed filters object; older answers send the text),
 * else "search_params" (the text it was created with).  An object is written
 * back in the query language (query_text); one that has no such form is
 * shown as its compact JSON: never blanked. */
static char *search_text(const json_t *o)
{
	static const char *const keys[] = {"search_query", "search_params"};
	for (size_t i = 0; i < 2; i++) {
		const json_t *v = json_object_get(o, keys[i]);
		if (json_is_string(v) && json_string_length(v))
			return sanitize_str(json_string_value(v), json_string_length(v));
		if (!json_is_object(v) || !json_object_size(v))
			continue;
		char *t = query_text(v);
		if (!t) {
			json_t *c = clean_copy(v);
			t = json_dumps(c, JSON_COMPACT);
			json_decref(c);
		}
		char *out = t ? sanitize_str(t, strlen(t)) : xstrdup("");
		free(t);
		return out;
	}
	return xstrdup("");
}

static const char *const results_keys[] = { "results", NULL };

static bool one_workergroup(const json_t *o, void *rec)
{
	struct workergroup *w = rec;
	long id;
	if (!val_long(json_object_get(o, "id"), &id))
		return false;
	w->id = id;
	w->endpoint_id = get_long(o, "endpoint_id");
	w->template_id = get_long(o, "template_id");
	w->user_id = get_long(o, "user_id");
	w->endpoint_name = get_str(o, "endpoint_name");
	w->template_hash = get_str(o, "template_hash");
	w->search_query = search_text(o);
	w->launch_args = get_str(o, "launch_args");
	w->created_at = get_str(o, "created_at");
	w->min_load = get_num(o, "min_load");
	w->target_util = get_num(o, "target_util");
	w->cold_mult = get_num(o, "cold_mult");
	w->gpu_ram = get_num(o, "gpu_ram");
	w->test_workers = get_int(o, "test_workers");
	return true;
}

static void free_workergroups(void *v, size_t n)
{
	model_workergroups_free(v, n);
}

static const struct json_list_kind workergroups_kind = {
	.what = "workergroups", .keys = results_keys, .size = sizeof(struct workergroup),
	.one = one_workergroup, .free_recs = free_workergroups,
};

bool json_map_workergroups(const json_t *root, struct workergroup **v, size_t *n)
{
	return json_list_decode(root, &workergroups_kind, v, n);
}

static bool one_endpoint(const json_t *o, void *rec)
{
	struct endpoint *e = rec;
	long id;
	if (!val_long(json_object_get(o, "id"), &id))
		return false;
	e->id = id;
	e->endpoint_name = get_str(o, "endpoint_name");
	e->endpoint_state = get_str(o, "endpoint_state");
	e->min_load = get_num(o, "min_load");
	e->target_util = get_num(o, "target_util");
	e->cold_mult = get_num(o, "cold_mult");
	e->cold_workers = get_int(o, "cold_workers");
	e->max_workers = get_int(o, "max_workers");
	e->min_cold_load = get_num(o, "min_cold_load");
	e->max_queue_time = get_num(o, "max_queue_time");
	e->target_queue_time = get_num(o, "target_queue_time");
	e->inactivity_timeout = get_num(o, "inactivity_timeout");
	e->user_id = get_long(o, "user_id");
	e->created_at = get_str(o, "created_at");
	if (!e->created_at[0] && isfinite(get_num(o, "created_at"))) {
		free(e->created_at);
		e->created_at = xasprintf("%.0f", get_num(o, "created_at"));
	}
	return true;
}

static void free_endpoints(void *v, size_t n)
{
	model_endpoints_free(v, n);
}

static const struct json_list_kind endpoints_kind = {
	.what = "endpoints", .keys = results_keys, .size = sizeof(struct endpoint),
	.one = one_endpoint, .free_recs = free_endpoints,
};

bool json_map_endpoints(const json_t *root, struct endpoint **v, size_t *n)
{
	return json_list_decode(root, &endpoints_kind, v, n);
}

/* ---- offers and templates ------------------------------------------------ */

bool json_map_offer_rec(const struct json_map_rec *r, struct offer *f)
{
	memset(f, 0, sizeof *f);
	long id;
	struct mval idv = r->get(r, IK_ID);
	if (!mv_long(&idv, &id)) {
		idv = r->get(r, IK_ASK_CONTRACT_ID);
		if (!mv_long(&idv, &id))
			return false;
	}
	f->id = id;
	f->machine_id = r_long(r, IK_MACHINE_ID);
	f->num_gpus = r_int(r, IK_NUM_GPUS);
	f->gpu_name = r_str(r, IK_GPU_NAME);
	f->dph_total = r_num(r, IK_DPH_TOTAL);
	f->dph_base = r_num(r, IK_DPH_BASE);
	f->min_bid = r_num(r, IK_MIN_BID);
	f->reliability = r_num(r, IK_RELIABILITY);
	if (!isfinite(f->reliability))
		f->reliability = r_num(r, IK_RELIABILITY2);
	struct mval ver = r->get(r, IK_VERIFIED);
	if (ver.t != MV_NONE) {
		f->verified = mv_bool(&ver, NULL);
	} else {
		/* "verified" as a C string (jansson's strcmp stops at a NUL) */
		struct mval vn = r->get(r, IK_VERIFICATION);
		f->verified = vn.t == MV_STR && strnlen(vn.s, vn.len) == 8 &&
			      !memcmp(vn.s, "verified", 8);
	}
	struct mval rent = r->get(r, IK_RENTABLE);
	f->rentable = mv_bool(&rent, NULL);
	f->gpu_ram = r_num(r, IK_GPU_RAM);
	f->direct_port_count = r_int(r, IK_DIRECT_PORT_COUNT);
	f->dlperf = r_num(r, IK_DLPERF);
	f->dlperf_per_dphtotal = r_num(r, IK_DLPERF_PER_DPHTOTAL);
	f->total_flops = r_num(r, IK_TOTAL_FLOPS);
	f->score = r_num(r, IK_SCORE);
	f->cpu_ram = r_num(r, IK_CPU_RAM);
	f->disk_space = r_num(r, IK_DISK_SPACE);
	f->inet_up = r_num(r, IK_INET_UP);
	f->inet_down = r_num(r, IK_INET_DOWN);
	f->cuda_max_good = r_num(r, IK_CUDA_MAX_GOOD);
	f->geolocation = r_str(r, IK_GEOLOCATION);
	f->verification = r_str(r, IK_VERIFICATION);
	f->duration = r_num(r, IK_DURATION);
	f->storage_cost = r_num(r, IK_STORAGE_COST);
	f->host_id = r_long(r, IK_HOST_ID);
	f->cpu_cores_effective = r_num(r, IK_CPU_CORES_EFFECTIVE);
	f->cpu_ghz = r_num(r, IK_CPU_GHZ);
	f->compute_cap = r_num(r, IK_COMPUTE_CAP);
	f->driver_version = r_str(r, IK_DRIVER_VERSION);
	f->cpu_name = r_str(r, IK_CPU_NAME);
	f->credit_discount_max = r_num(r, IK_CREDIT_DISCOUNT_MAX);
	struct mval isb = r->get(r, IK_IS_BID);
	f->is_bid = mv_bool(&isb, NULL);
	return true;
}

void json_map_offer_clear(struct offer *f)
{
	free(f->gpu_name);
	free(f->geolocation);
	free(f->verification);
	free(f->driver_version);
	free(f->cpu_name);
	memset(f, 0, sizeof *f);
}

static bool one_offer(const json_t *o, void *rec)
{
	struct json_map_rec r = { jrec_get, jrec_fields, o };
	return json_map_offer_rec(&r, rec);
}

static void free_offers(void *v, size_t n)
{
	json_map_offers_free(v, n);
}

static const char *const offers_keys[] = { "offers", NULL };
static const struct json_list_kind offers_kind = {
	.what = "offers", .keys = offers_keys, .size = sizeof(struct offer),
	.one = one_offer, .free_recs = free_offers,
};

bool json_map_offers(const json_t *root, struct offer **v, size_t *n)
{
	return json_list_decode(root, &offers_kind, v, n);
}

void json_map_offers_free(struct offer *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		json_map_offer_clear(&v[i]);
	free(v);
}

/* One template object into *t; false without an id or hash_id. */
static bool map_template(const json_t *o, struct template_rec *t)
{
	memset(t, 0, sizeof *t);
	if (!json_is_object(o))
		return false;
	long id = 0;
	bool has_id = val_long(json_object_get(o, "id"), &id);
	if (!has_id && !json_is_string(json_object_get(o, "hash_id")))
		return false;
	t->id = id;
	t->hash_id = get_str(o, "hash_id");
	t->name = get_str(o, "name");
	t->image = get_str(o, "image");
	t->tag = get_str(o, "tag");
	t->runtype = get_str(o, "runtype");
	t->desc = get_str(o, "desc");
	t->recommended_disk_space = get_num(o, "recommended_disk_space");
	t->creator_id = get_long(o, "creator_id");
	t->count_created = get_long(o, "count_created");
	t->created_at = get_num(o, "created_at");
	t->private_ = get_bool(o, "private");
	t->recommended = get_bool(o, "recommended");
	t->env = get_str(o, "env");
	t->onstart = get_text_ml(o, "onstart");
	t->args_str = get_str(o, "args_str");
	t->ssh_direct = get_bool(o, "ssh_direct");
	t->jup_direct = get_bool(o, "jup_direct");
	t->use_ssh = get_bool(o, "use_ssh");
	t->docker_login_repo = get_str(o, "docker_login_repo");
	t->docker_login_user = get_str(o, "docker_login_user");
	const json_t *ef = json_object_get(o, "extra_filters");
	if (json_is_object(ef) && json_object_size(ef))
		t->search = query_text(ef);
	return true;
}

bool json_map_templates(const json_t *root, struct template_rec **v, size_t *n)
{
	static const char *const keys[] = { "templates", NULL };
	const json_t *arr = json_list_array(root, keys);
	const json_t *one = json_is_object(root) ? json_object_get(root, "template") : NULL;
	if (!arr && !json_is_object(one))
		return false;
	size_t count = arr ? json_array_size(arr) : 1;
	*v = xrealloc(*v, (*n + count + 1) * sizeof **v);
	for (size_t i = 0; i < count; i++)
		if (map_template(arr ? json_array_get(arr, i) : one, &(*v)[*n]))
			(*n)++;
	return true;
}

void json_map_templates_free(struct template_rec *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].hash_id);
		free(v[i].name);
		free(v[i].image);
		free(v[i].tag);
		free(v[i].runtype);
		free(v[i].desc);
		free(v[i].env);
		free(v[i].onstart);
		free(v[i].args_str);
		free(v[i].docker_login_repo);
		free(v[i].docker_login_user);
		free(v[i].search);
	}
	free(v);
}

/* ---- account: 2FA status, env vars, API keys; machine reports ------------- */

/* One 2FA method object into *m; false (nothing allocated) without an id. */
static bool map_tfa_method(const json_t *o, struct tfa_method_rec *m)
{
	memset(m, 0, sizeof *m);
	long id;
	if (!json_is_object(o) || !val_long(json_object_get(o, "id"), &id))
		return false;
	m->id = id;
	m->user_id = get_long(o, "user_id");
	m->method = get_str(o, "method");
	m->label = get_str(o, "label");
	m->phone_number = get_str(o, "phone_number");
	m->is_primary = get_bool(o, "is_primary");
	m->fail_count = get_int(o, "fail_count");
	m->locked_until = get_num(o, "locked_until");
	m->created_at = get_num(o, "created_at");
	m->last_used = get_num(o, "last_used");
	return true;
}

bool json_map_tfa_status(const json_t *root, struct tfa_status_rec *out)
{
	memset(out, 0, sizeof *out);
	if (!json_is_object(root))
		return false;
	const json_t *methods = json_object_get(root, "methods");
	if (methods && !json_is_array(methods) && !json_is_null(methods))
		return false;
	if (!methods && !json_object_get(root, "tfa_enabled"))
		return false;
	out->tfa_enabled = get_bool(root, "tfa_enabled");
	out->new_method_authorized = get_bool(root, "new_method_authorized");
	out->backup_codes_remaining = get_int(root, "backup_codes_remaining");
	size_t count = json_array_size(methods);
	if (!count)
		return true;
	out->methods = xcalloc(count, sizeof *out->methods);
	for (size_t i = 0; i < count; i++)
		if (map_tfa_method(json_array_get(methods, i), &out->methods[out->nmethods]))
			out->nmethods++;
	return true;
}

void json_map_tfa_status_free(struct tfa_status_rec *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->methods && i < s->nmethods; i++) {
		free(s->methods[i].method);
		free(s->methods[i].label);
		free(s->methods[i].phone_number);
	}
	free(s->methods);
	memset(s, 0, sizeof *s);
}

/* Is v a string of one or more '*' (a value the service already masked)? */
static bool is_star_run(const json_t *v)
{
	if (!json_is_string(v) || json_string_length(v) == 0)
		return false;
	const char *s = json_string_value(v);
	for (size_t i = 0; i < json_string_length(v); i++)
		if (s[i] != '*')
			return false;
	return true;
}

/* Append one env var (name, value) unless the name is empty after sanitising. */
static void add_env_var(const char *name, size_t len, const json_t *value, struct env_var **v,
			size_t *n, size_t *cap)
{
	char *key = sanitize_str(name, len);
	if (!key[0]) {
		free(key);
		return;
	}
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : *n + 8;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[*n].key = key;
	(*v)[*n].value = is_star_run(value) ? xstrndup(json_string_value(value),
						       json_string_length(value))
					    : xstrdup(MASK);
	(*n)++;
}

static int cmp_env_var(const void *a, const void *b)
{
	return strcmp(((const struct env_var *)a)->key, ((const struct env_var *)b)->key);
}

bool json_map_env_each(const json_t *root, json_map_env_fn fn, void *ctx)
{
	const json_t *src = root;
	if (json_is_object(root)) {
		const json_t *s = json_object_get(root, "secrets");
		if (s)
			src = s;
		else if (json_object_get(root, "error") || json_object_get(root, "success"))
			return false; /* an error or empty envelope, not a map of names */
	}
	if (json_is_object(src)) {
		const char *key;
		json_t *val;
		json_object_foreach((json_t *)src, key, val)
			fn(key, strlen(key), val, ctx);
	} else if (json_is_array(src)) {
		for (size_t i = 0; i < json_array_size(src); i++) {
			const json_t *o = json_array_get(src, i);
			const json_t *k = json_object_get(o, "key");
			if (json_is_string(k))
				fn(json_string_value(k), json_string_length(k), json_object_get(o, "value"),
				   ctx);
		}
	} else {
		return false;
	}
	return true;
}

struct env_list_ctx {
	struct env_var **v;
	size_t *n, cap;
};

static void env_var_each(const char *name, size_t len, const json_t *value, void *ctx)
{
	struct env_list_ctx *c = ctx;
	add_env_var(name, len, value, c->v, c->n, &c->cap);
}

bool json_map_env_vars(const json_t *root, struct env_var **v, size_t *n)
{
	struct env_list_ctx c = { v, n, *n };
	if (!json_map_env_each(root, env_var_each, &c))
		return false;
	if (*n > 1)
		qsort(*v, *n, sizeof **v, cmp_env_var);
	return true;
}

void json_map_env_vars_free(struct env_var *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

static bool decode_env(const json_t *root, void *v, size_t *n)
{
	return json_map_env_vars(root, v, n);
}

static void free_env(void *v, size_t n)
{
	json_map_env_vars_free(v, n);
}

const struct json_list_kind json_map_env_list = {
	.what = "env vars", .size = sizeof(struct env_var), .decode = decode_env,
	.free_recs = free_env,
};

/* A copy of a JSON value fit for display: strings and keys sanitised, the
 * values of secret keys replaced by the mask (so no secret nested in a
 * permissions object can leak into its text). */
static json_t *clean_copy(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: {
		char *s = sanitize_str(json_string_value(v), json_string_length(v));
		json_t *r = json_string(s);
		free(s);
		return r ? r : json_string("?");
	}
	case JSON_OBJECT: {
		json_t *r = json_object();
		const char *key;
		json_t *val;
		json_object_foreach((json_t *)v, key, val) {
			char *k = sanitize_str(key, strlen(key));
			bool masked = json_map_is_secret_key(key) && !json_is_null(val);
			json_object_set_new(r, k, masked ? json_string(MASK) : clean_copy(val));
			free(k);
		}
		return r;
	}
	case JSON_ARRAY: {
		json_t *r = json_array();
		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_append_new(r, clean_copy(json_array_get(v, i)));
		return r;
	}
	case JSON_INTEGER: case JSON_REAL: case JSON_TRUE: case JSON_FALSE: case JSON_NULL:
		break; /* nothing to clean in a number, a boolean or null */
	}
	return json_copy((json_t *)v);
}

char *json_map_rights_text(const json_t *v)
{
	json_t *parsed = NULL;
	if (json_is_string(v)) {
		parsed = json_loadb(json_string_value(v), json_string_length(v), 0, NULL);
		if (!parsed) /* not JSON: shown as sent, never blanked */
			return sanitize_str(json_string_value(v), json_string_length(v));
		v = parsed;
	}
	char *out;
	if (v && !json_is_null(v)) {
		json_t *c = clean_copy(v);
		char *raw = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		out = raw ? util_sanitize(raw) : xstrdup("");
		free(raw);
		json_decref(c);
	} else {
		out = xstrdup("");
	}
	json_decref(parsed);
	return out;
}

static bool one_api_key(const json_t *o, void *rec)
{
	struct api_key_rec *k = rec;
	long id;
	if (!val_long(json_object_get(o, "id"), &id))
		return false;
	k->id = id;
	k->user_id = get_long(o, "user_id");
	k->team_id = get_long(o, "team_id");
	k->name = get_str(o, "name");
	const json_t *rights = json_object_get(o, "rights");
	k->rights = json_map_rights_text(rights && !json_is_null(rights)
					? rights
					: json_object_get(o, "permissions"));
	k->created_at = get_num(o, "created_at");
	return true;
}

void json_map_api_keys_free(struct api_key_rec *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].rights);
	}
	free(v);
}

static void free_api_keys(void *v, size_t n)
{
	json_map_api_keys_free(v, n);
}

static const char *const api_keys_keys[] = { "apikeys", NULL };
const struct json_list_kind json_map_api_keys_list = {
	.what = "API keys", .keys = api_keys_keys, .size = sizeof(struct api_key_rec),
	.one = one_api_key, .free_recs = free_api_keys,
};

bool json_map_api_keys(const json_t *root, struct api_key_rec **v, size_t *n)
{
	return json_list_decode(root, &json_map_api_keys_list, v, n);
}

static bool one_report(const json_t *o, void *rec)
{
	struct machine_report *r = rec;
	r->problem = get_str(o, "problem");
	r->message = get_str(o, "message");
	r->created_at = get_str(o, "created_at");
	double t = get_num(o, "created_at");
	if (!json_is_string(json_object_get(o, "created_at")) && isfinite(t)) {
		free(r->created_at);
		r->created_at = xasprintf("%.0f", t);
	}
	return true;
}

void json_map_machine_reports_free(struct machine_report *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].problem);
		free(v[i].message);
		free(v[i].created_at);
	}
	free(v);
}

static void free_reports(void *v, size_t n)
{
	json_map_machine_reports_free(v, n);
}

static const char *const reports_keys[] = { "reports", NULL };
const struct json_list_kind json_map_reports_list = {
	.what = "machine reports", .keys = reports_keys, .size = sizeof(struct machine_report),
	.one = one_report, .free_recs = free_reports,
};

bool json_map_machine_reports(const json_t *root, struct machine_report **v, size_t *n)
{
	return json_list_decode(root, &json_map_reports_list, v, n);
}

void json_map_strip_secrets(json_t *v)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		void *tmp;
		json_object_foreach_safe(v, tmp, k, x) {
			json_t *m = secrets_masked(k, x);
			if (json_map_is_secret_key(k))
				json_object_del(v, k);
			else if (m)
				json_object_set(v, k, m);
			else
				json_map_strip_secrets(x);
			json_decref(m);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) json_map_strip_secrets(x);
	}
}
