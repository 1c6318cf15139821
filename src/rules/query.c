/* query.c: owns the official CLI's offer query language and the search body
 * built from it.  A query is a space-separated list of "field op value"
 * conditions: ops = == != < <= > >= and the words in notin nin eq neq noteq
 * gt gte lt lte ("not in", "not eq" too); values are a bare token, a
 * "quoted string" or a list [a,b].  As in the CLI: underscores become spaces
 * in string values, true/false and null/None are JSON literals (quoted or
 * not), numbers are sent as JSON strings except the fields given in GB
 * (cpu_ram, gpu_ram, gpu_total_ram: x1000 to MB) or days (duration:
 * x86400), which are sent as numbers, and a dotted driver_version
 * ("535.86.05"), sent as the integer 535086005; "field=any" (or ? or *)
 * drops a filter, a default one too; a few aliases name the real fields.  Several conditions on one field merge.
 * Errors carry the byte offset and length of the bad token and a message
 * naming it and its column. */
#include "rules/query.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const struct { const char *alias, *field; } aliases[] = {
	{ "display_active", "gpu_display_active" },
	{ "dph", "dph_total" },
	{ "dlperf_usd", "dlperf_per_dphtotal" },
	{ "flops_usd", "flops_per_dphtotal" },
	{ "cuda_vers", "cuda_max_good" },
};

/* What a field's value is, for the parser: text (sent as typed); a number
 * (sent as the CLI sends it, as the text typed, but refused when the text
 * is not a number: prices, sizes, counts, rates, ids); GB or days (sent as
 * a number, multiplied: x1000 to MB, x86400 to seconds); a dotted driver
 * version (sent as the CLI's integer).  Dates (end_date, created_at) and
 * version strings (ubuntu_version) are text. */
enum qf_type { QF_TEXT, QF_NUM, QF_GB, QF_DAYS, QF_VERSION };

struct qfield {
	const char *name;
	enum qf_type type;
};

/* The fields an offer search filters or sorts on: the official CLI's list
 * and the offer fields of API-NOTES.md (sorted by name, for bsearch). */
static const struct qfield offer_fields[] = {
	{ "ask_contract_id", QF_NUM }, { "bw_nvlink", QF_NUM }, { "compute_cap", QF_NUM },
	{ "cpu_arch", QF_TEXT }, { "cpu_cores", QF_NUM }, { "cpu_cores_effective", QF_NUM },
	{ "cpu_ghz", QF_NUM }, { "cpu_name", QF_TEXT }, { "cpu_ram", QF_GB },
	{ "credit_discount_max", QF_NUM }, { "cuda_max_good", QF_NUM },
	{ "datacenter", QF_TEXT }, { "direct_port_count", QF_NUM }, { "disk_bw", QF_NUM },
	{ "disk_space", QF_NUM }, { "dlperf", QF_NUM }, { "dlperf_per_dphtotal", QF_NUM },
	{ "dph_base", QF_NUM }, { "dph_total", QF_NUM }, { "driver_version", QF_VERSION },
	{ "duration", QF_DAYS }, { "end_date", QF_TEXT }, { "external", QF_TEXT },
	{ "flops_per_dphtotal", QF_NUM }, { "geolocation", QF_TEXT }, { "gpu_arch", QF_TEXT },
	{ "gpu_display_active", QF_TEXT }, { "gpu_frac", QF_NUM }, { "gpu_max_power", QF_NUM },
	{ "gpu_max_temp", QF_NUM }, { "gpu_mem_bw", QF_NUM }, { "gpu_name", QF_TEXT },
	{ "gpu_ram", QF_GB }, { "gpu_total_ram", QF_GB }, { "has_avx", QF_TEXT },
	{ "host_id", QF_NUM }, { "id", QF_NUM }, { "inet_down", QF_NUM },
	{ "inet_down_cost", QF_NUM }, { "inet_up", QF_NUM }, { "inet_up_cost", QF_NUM },
	{ "machine_id", QF_NUM }, { "min_bid", QF_NUM }, { "mobo_name", QF_TEXT },
	{ "num_gpus", QF_NUM }, { "pci_gen", QF_NUM }, { "pcie_bw", QF_NUM },
	{ "reliability", QF_NUM }, { "reliability2", QF_NUM }, { "rentable", QF_TEXT },
	{ "rented", QF_TEXT }, { "score", QF_NUM }, { "static_ip", QF_TEXT },
	{ "storage_cost", QF_NUM }, { "total_flops", QF_NUM }, { "ubuntu_version", QF_TEXT },
	{ "verification", QF_TEXT }, { "verified", QF_TEXT }, { "vms_enabled", QF_TEXT },
};

/* The searchable template fields of SPEC.md (sorted by name). */
static const struct qfield template_fields[] = {
	{ "count_created", QF_NUM }, { "created_at", QF_TEXT }, { "creator_id", QF_NUM },
	{ "default_tag", QF_TEXT }, { "docker_login_repo", QF_TEXT }, { "hash_id", QF_TEXT },
	{ "id", QF_NUM }, { "image", QF_TEXT }, { "jup_direct", QF_TEXT }, { "name", QF_TEXT },
	{ "recent_create_date", QF_TEXT }, { "recommended", QF_TEXT },
	{ "recommended_disk_space", QF_NUM }, { "ssh_direct", QF_TEXT }, { "tag", QF_TEXT },
	{ "use_ssh", QF_TEXT },
};

const struct query_sort_key query_sort_keys[] = {
	{ "score", "score", true },
	{ "dph_total", "$/h", false },
	{ "dlperf_per_dphtotal", "DLPerf/$", true },
	{ "reliability", "reliability", true },
	{ "gpu_ram", "GPU RAM", true },
	{ "inet_down", "inet down", true },
	{ "geolocation", "location", false },
};
const size_t query_nsort_keys = sizeof query_sort_keys / sizeof *query_sort_keys;

/* Operator spellings (symbols and words) and the body's operator names. */
static const struct { const char *text; const char *op; } ops[] = {
	{ "=", "eq" },       { "==", "eq" },   { "!=", "neq" },  { "<", "lt" },
	{ "<=", "lte" },     { ">", "gt" },    { ">=", "gte" },  { "eq", "eq" },
	{ "neq", "neq" },    { "noteq", "neq" }, { "not eq", "neq" }, { "gt", "gt" },
	{ "gte", "gte" },    { "lt", "lt" },   { "lte", "lte" }, { "in", "in" },
	{ "notin", "notin" }, { "not in", "notin" }, { "nin", "notin" },
};

/* Word operators, longest first so "not in" wins over "not". */
static const char *const word_ops[] = { "not eq", "not in", "noteq", "notin", "gte", "lte",
					"neq", "nin", "gt", "lt", "eq", "in" };

const char *query_alias(const char *field)
{
	if (!field)
		return field;
	for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
		if (!strcmp(field, aliases[i].alias))
			return aliases[i].field;
	return field;
}

static void fail(struct query_error *err, int pos, int len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static char *show(const char *s, size_t len);

static int cmp_field(const void *key, const void *row)
{
	return strcmp((const char *)key, ((const struct qfield *)row)->name);
}

static const struct qfield *field_list(enum query_target t, size_t *n);

static const struct qfield *field_find(enum query_target t, const char *field)
{
	size_t n;
	const struct qfield *list = field_list(t, &n);
	return list ? bsearch(field, list, n, sizeof *list, cmp_field) : NULL;
}

/* The type of a field of either list (an offer's first); text when unknown. */
static enum qf_type field_type(const char *field)
{
	const struct qfield *f = field_find(QUERY_OFFERS, field);
	if (!f)
		f = field_find(QUERY_TEMPLATES, field);
	return f ? f->type : QF_TEXT;
}

static bool numeric_field(const char *field)
{
	return field_type(field) == QF_NUM;
}

static const struct qfield *field_list(enum query_target t, size_t *n)
{
	switch (t) {
	case QUERY_OFFERS:
		*n = sizeof offer_fields / sizeof *offer_fields;
		return offer_fields;
	case QUERY_TEMPLATES:
		*n = sizeof template_fields / sizeof *template_fields;
		return template_fields;
	}
	*n = 0;
	return NULL;
}

size_t query_field_names(enum query_target t, const char **out, size_t max)
{
	size_t n, k = 0;
	const struct qfield *list = field_list(t, &n);
	for (size_t i = 0; list && i < n && k < max; i++)
		out[k++] = list[i].name;
	for (size_t i = 0; t == QUERY_OFFERS && i < sizeof aliases / sizeof *aliases && k < max; i++)
		out[k++] = aliases[i].alias;
	return k;
}

bool query_field_known(enum query_target t, const char *field)
{
	if (!field)
		return false;
	if (t == QUERY_OFFERS)
		field = query_alias(field);
	return field_find(t, field) != NULL;
}

/* Edit distance (insert, delete, substitute, swap of neighbours), capped. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63) /* (lb: every known name is shorter) */
		return 99;
	size_t d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *query_field_nearest(enum query_target t, const char *field)
{
	if (!field || !*field)
		return NULL;
	size_t n, best = 99;
	const struct qfield *list = field_list(t, &n);
	const char *pick = NULL;
	for (size_t i = 0; list && i < n; i++) {
		size_t d = distance(field, list[i].name);
		if (d < best) {
			best = d;
			pick = list[i].name;
		}
	}
	if (t == QUERY_OFFERS)
		for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++) {
			size_t d = distance(field, aliases[i].alias);
			if (d < best) {
				best = d;
				pick = aliases[i].alias;
			}
		}
	size_t len = strlen(field);
	size_t limit = len <= 2 ? 1 : len / 3 > 2 ? len / 3 : 2;
	if (best <= limit)
		return pick;
	/* a cut-short name: the first field it begins */
	for (size_t i = 0; list && len >= 4 && i < n; i++)
		if (!strncmp(list[i].name, field, len))
			return list[i].name;
	return NULL;
}

/* "unknown field X (did you mean Y?)" into *err at the field. */
static void unknown_field(struct query_error *err, enum query_target t, const char *field,
			  int pos, int len, const char *what)
{
	const char *near = query_field_nearest(t, field);
	char *shown = show(field, strlen(field));
	if (near)
		fail(err, pos, len, "unknown %s %s (did you mean %s?)", what, shown, near);
	else
		fail(err, pos, len, "unknown %s %s", what, shown);
	free(shown);
}

static double multiplier(const char *field)
{
	switch (field_type(field)) {
	case QF_GB: return 1000.0;    /* GB -> MB */
	case QF_DAYS: return 86400.0; /* days -> seconds */
	case QF_TEXT: case QF_NUM: case QF_VERSION: return 0;
	}
	return 0;
}

static const char *op_name(const char *text, size_t len)
{
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (strlen(ops[i].text) == len && !strncmp(text, ops[i].text, len))
			return ops[i].op;
	return NULL;
}

/* Fill *err: the token at [pos, pos+len) and a message (its column is appended). */
static void fail(struct query_error *err, int pos, int len, const char *fmt, ...)
{
	if (!err)
		return;
	err->pos = pos;
	err->len = len;
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (pos >= 0)
		snprintf(err->msg, sizeof err->msg, "%s at column %d", what, pos + 1);
	else
		snprintf(err->msg, sizeof err->msg, "%s", what);
}

/* A token quoted for an error message: sanitised and cut short. */
static char *show(const char *s, size_t len)
{
	if (len > 40)
		len = 40;
	return util_sanitize_n(s, len);
}

static bool is_field_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Parse a whole string as a finite number. */
static bool parse_number(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* One scalar value as the CLI sends it: literals, else a string with
 * underscores turned into spaces. */
static json_t *scalar_value(const char *s, bool literals)
{
	if (literals) {
		if (!strcmp(s, "true") || !strcmp(s, "True"))
			return json_true();
		if (!strcmp(s, "false") || !strcmp(s, "False"))
			return json_false();
		if (!strcmp(s, "null") || !strcmp(s, "None"))
			return json_null();
	}
	char *t = xstrdup(s);
	for (char *c = t; *c; c++)
		if (*c == '_')
			*c = ' ';
	json_t *v = json_string(t);
	free(t);
	return v ? v : json_string("?"); /* json_string refuses invalid UTF-8 */
}

/* A driver version "535.86.05" as the CLI sends it (vastai/api/query.py
 * numeric_version): the integer major x 1,000,000 + minor x 1,000 + patch.
 * False when s is not three dot-separated numbers of 1-3 digits. */
static bool driver_version_number(const char *s, json_int_t *out)
{
	json_int_t v = 0;
	int parts = 0;
	for (const char *p = s;; p++) {
		size_t d = 0;
		json_int_t part = 0;
		while (isdigit((unsigned char)p[d]) && d < 4)
			part = part * 10 + (p[d++] - '0');
		if (d == 0 || d > 3)
			return false;
		v = v * 1000 + part;
		parts++;
		p += d;
		if (*p == '\0')
			break;
		if (*p != '.' || parts == 3)
			return false;
	}
	if (parts != 3)
		return false;
	*out = v;
	return true;
}

/* Strip one pair of surrounding double quotes from a list item, in place. */
static char *unquote(char *s)
{
	size_t len = strlen(s);
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s[len - 1] = '\0';
		return s + 1;
	}
	return s;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* Build the JSON value of one condition.  raw is the value token as typed
 * ([..] lists keep their brackets, quoted strings their quotes). */
static json_t *make_value(const char *field, const char *op, const char *raw, size_t rawlen,
			  int vpos, struct query_error *err)
{
	bool is_list_op = !strcmp(op, "in") || !strcmp(op, "notin");
	bool bracketed = raw[0] == '[';
	bool quoted = raw[0] == '"';
	double mult = multiplier(field);
	bool version = field_type(field) == QF_VERSION; /* dotted: the CLI's integer */
	char *body = xstrndup(raw + (bracketed || quoted), rawlen - (bracketed || quoted ? 2 : 0));
	json_t *out = NULL;

	if (bracketed && !is_list_op) {
		char *t = show(raw, rawlen);
		fail(err, vpos, (int)rawlen, "a list like '%s' needs 'in' or 'notin'", t);
		free(t);
		goto done;
	}
	if (is_list_op) {
		out = json_array();
		char *save = NULL;
		for (char *item = strtok_r(body, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
			char *it = unquote(trim(item));
			if (!*it)
				continue;
			json_t *v;
			double d;
			json_int_t dv;
			if (version && strchr(it, '.')) {
				if (!driver_version_number(it, &dv)) {
					char *t = show(it, strlen(it));
					fail(err, vpos, (int)rawlen,
					     "'%s' is not a driver version like 535.86.05", t);
					free(t);
					json_decref(out);
					out = NULL;
					goto done;
				}
				v = json_integer(dv);
			} else if (mult) {
				if (!parse_number(it, &d)) {
					char *t = show(it, strlen(it));
					fail(err, vpos, (int)rawlen,
					     "'%s' is not a number (%s is a number)", t, field);
					free(t);
					json_decref(out);
					out = NULL;
					goto done;
				}
				v = json_real(d * mult);
			} else if (numeric_field(field) && !parse_number(it, &d)) {
				char *t = show(it, strlen(it));
				fail(err, vpos, (int)rawlen, "'%s' is not a number (%s is a number)", t,
				     field);
				free(t);
				json_decref(out);
				out = NULL;
				goto done;
			} else {
				v = scalar_value(it, false);
			}
			json_array_append_new(out, v);
		}
		if (json_array_size(out) == 0) {
			fail(err, vpos, (int)rawlen, "empty list for '%s'", field);
			json_decref(out);
			out = NULL;
		}
		goto done;
	}
	if (mult) {
		double d;
		if (!strcmp(body, "null") || !strcmp(body, "None")) {
			out = json_null();
		} else if (!parse_number(body, &d)) {
			char *t = show(raw, rawlen);
			fail(err, vpos, (int)rawlen, "'%s' is not a number (%s is in %s)", t,
			     field, mult == 86400.0 ? "days" : "GB");
			free(t);
		} else {
			out = json_real(d * mult);
		}
		goto done;
	}
	if (version && strchr(body, '.')) {
		json_int_t dv;
		if (driver_version_number(body, &dv)) {
			out = json_integer(dv);
		} else {
			char *t = show(raw, rawlen);
			fail(err, vpos, (int)rawlen, "'%s' is not a driver version like 535.86.05", t);
			free(t);
		}
		goto done;
	}
	if (numeric_field(field)) { /* the CLI's text, once it is a number */
		double d;
		if (strcmp(body, "null") && strcmp(body, "None") && !parse_number(body, &d)) {
			char *t = show(raw, rawlen);
			fail(err, vpos, (int)rawlen, "'%s' is not a number (%s is a number)", t, field);
			free(t);
			goto done;
		}
	}
	/* as the CLI: quotes are stripped before the literal check too */
	out = scalar_value(body, true);
done:
	free(body);
	return out;
}

/* Is value token v (length len) the wildcard that drops a filter? */
static bool is_wildcard(const char *v, size_t len)
{
	return (len == 3 && !strncmp(v, "any", 3)) || (len == 1 && (v[0] == '?' || v[0] == '*'));
}

/* Add the CLI's default filters. */
static void add_defaults(json_t *q)
{
	json_object_set_new(q, "verified", json_pack("{s:b}", "eq", 1));
	json_object_set_new(q, "external", json_pack("{s:b}", "eq", 0));
	json_object_set_new(q, "rentable", json_pack("{s:b}", "eq", 1));
	json_object_set_new(q, "rented", json_pack("{s:b}", "eq", 0));
}

json_t *query_parse(const char *text, bool no_defaults, struct query_error *err)
{
	return query_parse_for(QUERY_OFFERS, text, no_defaults, err);
}

json_t *query_parse_for(enum query_target target, const char *text, bool no_defaults,
			struct query_error *err)
{
	if (err) {
		err->pos = -1;
		err->len = 0;
		err->msg[0] = '\0';
	}
	json_t *q = json_object();
	if (!no_defaults && target == QUERY_OFFERS)
		add_defaults(q);
	if (!text)
		return q;
	size_t n = strlen(text), i = 0;
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)text[k];
		if ((c < 0x20 && !isspace(c)) || c == 0x7F) {
			fail(err, (int)k, 1, "control character 0x%02X", c);
			goto bad;
		}
	}
	while (i < n) {
		while (i < n && isspace((unsigned char)text[i]))
			i++;
		if (i >= n)
			break;
		/* field */
		size_t fstart = i;
		while (i < n && is_field_char(text[i]))
			i++;
		if (i == fstart) {
			size_t e = i;
			while (e < n && !isspace((unsigned char)text[e]))
				e++;
			char *t = show(text + i, e - i);
			fail(err, (int)i, (int)(e - i), "expected a field name, not '%s'", t);
			free(t);
			goto bad;
		}
		char field[64];
		size_t flen = i - fstart;
		if (flen >= sizeof field) {
			fail(err, (int)fstart, (int)flen, "field name too long");
			goto bad;
		}
		memcpy(field, text + fstart, flen);
		field[flen] = '\0';
		if (!query_field_known(target, field)) {
			unknown_field(err, target, field, (int)fstart, (int)flen, "field");
			goto bad;
		}
		/* operator */
		size_t sp = i;
		while (i < n && text[i] == ' ')
			i++;
		const char *op = NULL;
		size_t opos = i, olen = 0;
		if (i < n && strchr("=<>!", text[i])) {
			while (i + olen < n && strchr("=<>!", text[i + olen]))
				olen++;
			op = op_name(text + i, olen);
			if (!op) {
				char *t = show(text + i, olen);
				fail(err, (int)i, (int)olen, "unknown operator '%s'", t);
				free(t);
				goto bad;
			}
		} else if (i > sp) {
			for (size_t w = 0; w < sizeof word_ops / sizeof *word_ops && !op; w++) {
				size_t wl = strlen(word_ops[w]);
				if (i + wl <= n && !strncmp(text + i, word_ops[w], wl) &&
				    (i + wl == n || text[i + wl] == ' ')) {
					op = op_name(word_ops[w], wl);
					olen = wl;
				}
			}
		}
		if (!op) {
			size_t e = i;
			while (e < n && !isspace((unsigned char)text[e]))
				e++;
			if (e > i) {
				char *t = show(text + i, e - i);
				fail(err, (int)i, (int)(e - i),
				     "unknown operator '%s' after '%s'", t, field);
				free(t);
			} else {
				fail(err, (int)fstart, (int)flen, "missing operator after '%s'",
				     field);
			}
			goto bad;
		}
		i += olen;
		/* value */
		while (i < n && text[i] == ' ')
			i++;
		size_t vpos = i, vlen = 0;
		if (i < n && (text[i] == '[' || text[i] == '"')) {
			char close = text[i] == '[' ? ']' : '"';
			const char *end = memchr(text + i + 1, close, n - i - 1);
			if (!end) {
				fail(err, (int)i, (int)(n - i), "unclosed %s",
				     close == ']' ? "list '['" : "quote '\"'");
				goto bad;
			}
			vlen = (size_t)(end - (text + i)) + 1;
			if (vlen == 2) {
				fail(err, (int)i, 2, "empty value for '%s'", field);
				goto bad;
			}
		} else {
			while (i + vlen < n && !isspace((unsigned char)text[i + vlen]))
				vlen++;
		}
		if (vlen == 0) {
			fail(err, (int)opos, (int)olen, "missing value after '%s %.*s'", field,
			     (int)olen, text + opos);
			goto bad;
		}
		if (vpos + vlen < n && !isspace((unsigned char)text[vpos + vlen])) {
			size_t e = vpos + vlen;
			while (e < n && !isspace((unsigned char)text[e]))
				e++;
			char *t = show(text + vpos + vlen, e - vpos - vlen);
			fail(err, (int)(vpos + vlen), (int)(e - vpos - vlen),
			     "unexpected '%s' after the value of '%s'", t, field);
			free(t);
			goto bad;
		}
		i = vpos + vlen;
		const char *canon = target == QUERY_OFFERS ? query_alias(field) : field;
		if (is_wildcard(text + vpos, vlen)) {
			if (strcmp(op, "eq")) {
				fail(err, (int)opos, (int)olen,
				     "'%.*s' only works with '=' (to drop the filter on %s)",
				     (int)vlen, text + vpos, canon);
				goto bad;
			}
			json_object_del(q, canon);
			continue;
		}
		json_t *v = make_value(canon, op, text + vpos, vlen, (int)vpos, err);
		if (!v)
			goto bad;
		json_t *cond = json_object_get(q, canon);
		if (!json_is_object(cond)) { /* NULL (every condition in q is an object) */
			cond = json_object();
			json_object_set_new(q, canon, cond);
		}
		json_object_set_new(cond, op, v);
	}
	return q;
bad:
	json_decref(q);
	return NULL;
}

/* "score-,dph+" into [["score","desc"],["dph_total","asc"]]; base is the
 * offset of order in the line as typed (for the error's column), -1 when
 * it was not typed in a line. */
static json_t *parse_order(const char *order, int base, struct query_error *err)
{
	json_t *arr = json_array();
	const char *p = order && *order ? order : "score-";
	const char *text = p;
	while (*p) {
		while (*p == ',' || *p == ' ')
			p++;
		if (!*p)
			break;
		const char *start = p;
		while (*p && *p != ',' && *p != ' ')
			p++;
		size_t len = (size_t)(p - start);
		const char *dir = "asc";
		const char *f = start;
		while (len && (f[len - 1] == '-' || f[len - 1] == '+')) {
			if (f[len - 1] == '-')
				dir = "desc";
			len--;
		}
		while (len && (*f == '-' || *f == '+')) {
			if (*f == '-')
				dir = "desc";
			f++;
			len--;
		}
		char field[64];
		bool ok = len > 0 && len < sizeof field;
		for (size_t k = 0; ok && k < len; k++)
			ok = is_field_char(f[k]);
		int pos = base >= 0 ? base + (int)(start - text) : -1;
		if (!ok) {
			char *t = show(start, (size_t)(p - start));
			fail(err, pos, (int)(p - start), "bad sort field '%s'", t);
			free(t);
			json_decref(arr);
			return NULL;
		}
		memcpy(field, f, len);
		field[len] = '\0';
		if (!query_field_known(QUERY_OFFERS, field)) {
			unknown_field(err, QUERY_OFFERS, field,
				      base >= 0 ? base + (int)(f - text) : -1, (int)len, "sort field");
			json_decref(arr);
			return NULL;
		}
		json_array_append_new(arr, json_pack("[ss]", query_alias(field), dir));
	}
	return arr;
}

/* The offer type as sent, or NULL when unknown. */
static const char *canon_type(const char *t)
{
	if (!t || !*t)
		return "on-demand";
	if (!strcmp(t, "interruptible") || !strcmp(t, "bid"))
		return "bid";
	if (!strcmp(t, "ondemand") || !strcmp(t, "on-demand"))
		return "on-demand";
	if (!strcmp(t, "reserved"))
		return "reserved";
	return NULL;
}

/* The whole body; order_base as for parse_order. */
static json_t *build_body(const char *text, bool no_defaults, const char *order, int order_base,
			  const char *type, int limit, double storage, struct query_error *err)
{
	json_t *q = query_parse_for(QUERY_OFFERS, text, no_defaults, err);
	if (!q)
		return NULL;
	json_t *ord = parse_order(order, order_base, err);
	if (!ord) {
		json_decref(q);
		return NULL;
	}
	json_object_set_new(q, "order", ord);
	const char *t = canon_type(type);
	if (!t) {
		char *shown = show(type, strlen(type));
		fail(err, -1, 0, "unknown offer type '%s' (on-demand, bid or reserved)", shown);
		free(shown);
		json_decref(q);
		return NULL;
	}
	json_object_set_new(q, "type", json_string(t));
	if (limit > 0)
		json_object_set_new(q, "limit", json_integer(limit));
	json_object_set_new(q, "allocated_storage", json_real(storage > 0 ? storage : 5.0));
	return q;
}

json_t *query_search_body(const char *text, const char *order, const char *type, int limit,
			  double allocated_storage, struct query_error *err)
{
	return build_body(text, false, order, -1, type, limit, allocated_storage, err);
}

/* ---- the search line ----------------------------------------------------- */

/* Options of the search line: long and short spellings, whether a value follows. */
static const struct {
	const char *lng, *shrt;
	bool has_value;
} cmd_opts[] = {
	{ "--order", "-o", true },     { "--type", "-t", true },   { "--limit", NULL, true },
	{ "--storage", NULL, true },   { "--disk", NULL, true },   { "--no-default", "-n", false },
	{ "--on-demand", "-d", false }, { "--bid", "-b", false },  { "--interruptible", "-i", false },
	{ "--reserved", "-r", false },
};

void query_cmd_free(struct query_cmd *c)
{
	free(c->filters);
	free(c->order);
	c->filters = c->order = NULL;
}

/* Blank [from, to) of the filter copy. */
static void blank(char *f, size_t from, size_t to)
{
	memset(f + from, ' ', to - from);
}

bool query_cmd_parse(const char *line, struct query_cmd *c, struct query_error *err)
{
	memset(c, 0, sizeof *c);
	strcpy(c->type, "on-demand");
	if (err) {
		err->pos = -1;
		err->len = 0;
		err->msg[0] = '\0';
	}
	if (!line)
		line = "";
	c->filters = xstrdup(line);
	size_t n = strlen(line), i = 0;
	char open = 0; /* inside a quoted value or a list */
	while (i < n) {
		if (open) {
			if (line[i] == open)
				open = 0;
			i++;
			continue;
		}
		if (line[i] == '"' || line[i] == '[') {
			open = line[i] == '"' ? '"' : ']';
			i++;
			continue;
		}
		bool at_token = i == 0 || isspace((unsigned char)line[i - 1]);
		if (!at_token || line[i] != '-') {
			i++;
			continue;
		}
		size_t e = i;
		while (e < n && !isspace((unsigned char)line[e]))
			e++;
		size_t tl = e - i;
		const char *tok = line + i;
		/* --opt=value */
		const char *eqs = memchr(tok, '=', tl);
		size_t nl = eqs ? (size_t)(eqs - tok) : tl;
		int which = -1;
		for (size_t k = 0; k < sizeof cmd_opts / sizeof *cmd_opts && which < 0; k++)
			if ((strlen(cmd_opts[k].lng) == nl && !strncmp(tok, cmd_opts[k].lng, nl)) ||
			    (cmd_opts[k].shrt && strlen(cmd_opts[k].shrt) == nl &&
			     !strncmp(tok, cmd_opts[k].shrt, nl)))
				which = (int)k;
		if (which < 0) {
			if (tl > 1 && !isdigit((unsigned char)tok[1]) && tok[1] != '.') {
				char *t = show(tok, tl);
				fail(err, (int)i, (int)tl, "unknown option '%s' (-o, -t, -n, --limit, "
							  "--storage)", t);
				free(t);
				goto bad;
			}
			i = e;
			continue;
		}
		const char *name = cmd_opts[which].lng;
		char *val = NULL;
		size_t vpos = 0, vend = e;
		if (cmd_opts[which].has_value) {
			if (eqs) {
				vpos = (size_t)(eqs + 1 - line);
			} else {
				vpos = e;
				while (vpos < n && isspace((unsigned char)line[vpos]))
					vpos++;
				vend = vpos;
				while (vend < n && !isspace((unsigned char)line[vend]))
					vend++;
			}
			if (vend <= vpos) {
				fail(err, (int)i, (int)tl, "%s needs a value", name);
				goto bad;
			}
			val = xstrndup(line + vpos, vend - vpos);
		} else if (eqs) {
			fail(err, (int)i, (int)tl, "%s takes no value", name);
			goto bad;
		}
		bool ok = true;
		if (!strcmp(name, "--order")) {
			free(c->order);
			c->order = val;
			val = NULL;
			/* checked here for the column; query_cmd_body checks again */
			json_t *o = parse_order(c->order, (int)vpos, err);
			ok = o != NULL;
			json_decref(o);
		} else if (!strcmp(name, "--type")) {
			const char *t = canon_type(val);
			if (!t) {
				char *sh = show(val, strlen(val));
				fail(err, (int)vpos, (int)(vend - vpos),
				     "unknown offer type '%s' (on-demand, bid or reserved)", sh);
				free(sh);
				ok = false;
			} else {
				util_strlcpy(c->type, t, sizeof c->type);
			}
		} else if (!strcmp(name, "--limit")) {
			char *end;
			long v = strtol(val, &end, 10);
			if (*end || v < 1 || v > 100000) {
				fail(err, (int)vpos, (int)(vend - vpos), "--limit is a count from 1");
				ok = false;
			} else {
				c->limit = (int)v;
			}
		} else if (!strcmp(name, "--storage") || !strcmp(name, "--disk")) {
			double d;
			if (!parse_number(val, &d) || d <= 0 || d > 1e6) {
				fail(err, (int)vpos, (int)(vend - vpos), "%s is a size in GB", name);
				ok = false;
			} else {
				c->storage = d;
			}
		} else if (!strcmp(name, "--no-default")) {
			c->no_default = true;
		} else if (!strcmp(name, "--on-demand")) {
			strcpy(c->type, "on-demand");
		} else if (!strcmp(name, "--bid") || !strcmp(name, "--interruptible")) {
			strcpy(c->type, "bid");
		} else if (!strcmp(name, "--reserved")) { /* the last name: never false */
			strcpy(c->type, "reserved");
		}
		free(val);
		if (!ok)
			goto bad;
		blank(c->filters, i, vend);
		i = vend;
	}
	return true;
bad:
	query_cmd_free(c);
	return false;
}

json_t *query_cmd_body(const struct query_cmd *c, struct query_error *err)
{
	return build_body(c->filters, c->no_default, c->order, -1, c->type, c->limit, c->storage,
			  err);
}

/* One value as query-language text appended to *out (field: for the GB,
 * day and driver version forms); false when it has none (a string with an
 * underscore, which would come back a space, or a character that ends a
 * token or a list item). */
static bool value_text(const char *field, const json_t *v, char **out)
{
	char buf[64];
	const char *t = buf;
	char *owned = NULL;
	double mult = multiplier(field);
	switch (json_typeof(v)) {
	case JSON_TRUE: t = "true"; break;
	case JSON_FALSE: t = "false"; break;
	case JSON_NULL: t = "null"; break;
	case JSON_INTEGER:
	case JSON_REAL: {
		double d = json_number_value(v);
		if (!strcmp(field, "driver_version") && json_is_integer(v) && d >= 0) {
			json_int_t i = json_integer_value(v);
			snprintf(buf, sizeof buf, "%d.%d.%d", (int)(i / 1000000),
				 (int)(i / 1000 % 1000), (int)(i % 1000));
		} else {
			snprintf(buf, sizeof buf, "%.15g", mult ? d / mult : d);
		}
		break;
	}
	case JSON_STRING: {
		const char *sv = json_string_value(v);
		if (!*sv || strpbrk(sv, "\"[],_"))
			return false; /* no token can carry it back */
		for (const char *c = sv; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return false;
		owned = xstrdup(sv);
		for (char *c = owned; *c; c++)
			if (*c == ' ')
				*c = '_'; /* the CLI turns it back into a space */
		if (mult || !strcmp(field, "driver_version") || !strcmp(owned, "true") ||
		    !strcmp(owned, "false") || !strcmp(owned, "null") || !strcmp(owned, "True") ||
		    !strcmp(owned, "False") || !strcmp(owned, "None")) {
			/* would be read back as a number in GB, a version or a literal */
			double d;
			if (!mult || !parse_number(owned, &d)) {
				free(owned);
				return false;
			}
		}
		t = owned;
		break;
	}
	case JSON_OBJECT:
	case JSON_ARRAY:
		return false;
	}
	char *n = xasprintf("%s%s", *out, t);
	free(*out);
	*out = n;
	free(owned);
	return true;
}

char *query_text(const json_t *filters)
{
	static const struct { const char *op, *text; } back[] = {
		{ "eq", "=" }, { "neq", "!=" }, { "gt", ">" }, { "gte", ">=" }, { "lt", "<" },
		{ "lte", "<=" }, { "in", " in " }, { "notin", " notin " },
	};
	if (!json_is_object(filters))
		return NULL;
	char *out = xstrdup("");
	const char *field;
	json_t *conds;
	json_object_foreach((json_t *)filters, field, conds) {
		if (!json_is_object(conds) || !*field || strspn(field, "abcdefghijklmnopqrstuvwxyz"
							   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
								  strlen(field))
			goto none;
		const char *op;
		json_t *v;
		json_object_foreach(conds, op, v) {
			size_t k = 0;
			while (k < sizeof back / sizeof *back && strcmp(back[k].op, op))
				k++;
			if (k == sizeof back / sizeof *back)
				goto none;
			char *n = xasprintf("%s%s%s%s", out, *out ? " " : "", field, back[k].text);
			free(out);
			out = n;
			bool list = k >= 6;
			if (list != json_is_array(v) || (list && !json_array_size(v)))
				goto none;
			if (!list) {
				if (!value_text(field, v, &out))
					goto none;
				continue;
			}
			size_t i;
			json_t *it;
			json_array_foreach(v, i, it) {
				n = xasprintf("%s%s", out, i ? "," : "[");
				free(out);
				out = n;
				if (!value_text(field, it, &out))
					goto none;
			}
			n = xasprintf("%s]", out);
			free(out);
			out = n;
		}
	}
	return out;
none:
	free(out);
	return NULL;
}

char *query_defaults_desc(const json_t *body, char *buf, size_t n)
{
	static const struct {
		const char *field, *name;
		bool val;
	} defs[] = { { "verified", "verified", true },
		     { "rentable", "rentable", true },
		     { "rented", "not rented", false },
		     { "external", "not external", false } };
	char on[120] = "", changed[120] = "";
	for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
		const json_t *cond = json_object_get(body, defs[i].field);
		const json_t *eq = json_object_get(cond, "eq");
		bool is_default = json_is_object(cond) && json_object_size(cond) == 1 &&
				  json_is_boolean(eq) && json_boolean_value(eq) == defs[i].val;
		char *dst = is_default ? on : changed;
		const char *name = is_default ? defs[i].name : defs[i].field;
		size_t len = strlen(dst);
		snprintf(dst + len, sizeof on - len, "%s%s", len ? ", " : "", name);
	}
	if (!on[0])
		snprintf(buf, n, "no default filters");
	else if (!changed[0])
		snprintf(buf, n, "defaults: %s", on);
	else
		snprintf(buf, n, "defaults: %s (%s yours or off)", on, changed);
	return buf;
}

char *query_sort_order(size_t i, bool invert, char *buf, size_t n)
{
	if (i >= query_nsort_keys) {
		snprintf(buf, n, "score-");
		return buf;
	}
	bool desc = query_sort_keys[i].desc != invert;
	snprintf(buf, n, "%s%c", query_sort_keys[i].field, desc ? '-' : '+');
	return buf;
}
