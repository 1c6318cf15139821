/* query.c: owns the official CLI's offer query language and the search body
 * built from it.  A query is a space-separated list of "field op value"
 * conditions: ops = == != < <= > >= and the words in notin nin eq neq noteq
 * gt gte lt lte ("not in", "not eq" too); values are a bare token, a
 * "quoted string" or a list [a,b].  As in the CLI: underscores become spaces
 * in string values, true/false and null/None are JSON literals, numbers are
 * sent as JSON strings except the fields given in GB (cpu_ram, gpu_ram,
 * gpu_total_ram: x1000 to MB) or days (duration: x86400), which are sent as
 * numbers; "field=any" (or ? or *) drops a filter, a default one too; a few
 * aliases name the real fields.  Several conditions on one field merge.
 * Errors carry the byte offset and length of the bad token and a message
 * naming it and its column. */
#include "query.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct { const char *alias, *field; } aliases[] = {
	{ "dph", "dph_total" },
	{ "dlperf_usd", "dlperf_per_dphtotal" },
	{ "flops_usd", "flops_per_dphtotal" },
	{ "cuda_vers", "cuda_max_good" },
};

static const struct { const char *field; double mult; } multipliers[] = {
	{ "cpu_ram", 1000.0 },     /* GB -> MB */
	{ "gpu_ram", 1000.0 },
	{ "gpu_total_ram", 1000.0 },
	{ "duration", 86400.0 },   /* days -> seconds */
};

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

static double multiplier(const char *field)
{
	for (size_t i = 0; i < sizeof multipliers / sizeof *multipliers; i++)
		if (!strcmp(field, multipliers[i].field))
			return multipliers[i].mult;
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
__attribute__((format(printf, 4, 5)))
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
			if (mult) {
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
	out = scalar_value(body, !quoted);
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
	if (err) {
		err->pos = -1;
		err->len = 0;
		err->msg[0] = '\0';
	}
	json_t *q = json_object();
	if (!no_defaults)
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
		const char *canon = query_alias(field);
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
		if (!json_is_object(cond)) {
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

/* "score-,dph+" into [["score","desc"],["dph_total","asc"]]. */
static json_t *parse_order(const char *order, struct query_error *err)
{
	json_t *arr = json_array();
	const char *p = order && *order ? order : "score-";
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
		if (!ok) {
			if (err) {
				char *t = show(start, (size_t)(p - start));
				err->pos = -1;
				err->len = 0;
				snprintf(err->msg, sizeof err->msg, "bad sort field '%s'", t);
				free(t);
			}
			json_decref(arr);
			return NULL;
		}
		memcpy(field, f, len);
		field[len] = '\0';
		json_array_append_new(arr, json_pack("[ss]", query_alias(field), dir));
	}
	return arr;
}

json_t *query_search_body(const char *text, const char *order, const char *type, int limit,
			  double allocated_storage, struct query_error *err)
{
	json_t *q = query_parse(text, false, err);
	if (!q)
		return NULL;
	json_t *ord = parse_order(order, err);
	if (!ord) {
		json_decref(q);
		return NULL;
	}
	json_object_set_new(q, "order", ord);
	const char *t = type && *type ? type : "on-demand";
	if (!strcmp(t, "interruptible"))
		t = "bid";
	else if (!strcmp(t, "ondemand"))
		t = "on-demand";
	if (strcmp(t, "on-demand") && strcmp(t, "bid") && strcmp(t, "reserved")) {
		if (err) {
			char *shown = show(t, strlen(t));
			err->pos = -1;
			err->len = 0;
			snprintf(err->msg, sizeof err->msg,
				 "unknown offer type '%s' (on-demand, bid or reserved)", shown);
			free(shown);
		}
		json_decref(q);
		return NULL;
	}
	json_object_set_new(q, "type", json_string(t));
	if (limit > 0)
		json_object_set_new(q, "limit", json_integer(limit));
	json_object_set_new(q, "allocated_storage",
			    json_real(allocated_storage > 0 ? allocated_storage : 5.0));
	return q;
}
