/* api_offers.c: owns the create request and the template calls as data.
 * The create body (SPEC.md's fields, the CLI's runtype strings), the CLI's
 * env flag format both ways (stricter than the CLI: a token it would drop
 * silently is an error here), the onstart encoding for scripts over the
 * service's limit (gzip through zlib, base64 through libcrypto, a shell
 * line that undoes it), the per-field validation of the create form, and
 * the template create/edit/delete bodies.  No I/O. */
#include "api/api_offers.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "base/config.h"
#include "rules/query.h"
#include "base/util.h"

/* ---- launch modes ---------------------------------------------------------- */

static const struct {
	const char *wire, *name;
} launch_info[LAUNCH__COUNT] = {
	[LAUNCH_SSH] = {"ssh_proxy", "ssh"},
	[LAUNCH_SSH_DIRECT] = {"ssh_direc ssh_proxy", "ssh direct"},
	[LAUNCH_JUPYTER] = {"jupyter_proxy ssh_proxy", "jupyter"},
	[LAUNCH_JUPYTER_DIRECT] = {"jupyter_direc ssh_direc ssh_proxy", "jupyter direct"},
	[LAUNCH_ARGS] = {"args", "entrypoint/args"},
};

const char *api_create_launch_runtype(enum create_launch m)
{
	return (unsigned)m < LAUNCH__COUNT ? launch_info[m].wire : "ssh_proxy";
}

const char *api_create_launch_name(enum create_launch m)
{
	return (unsigned)m < LAUNCH__COUNT ? launch_info[m].name : "?";
}

bool api_create_launch_from_runtype(const char *rt, enum create_launch *m)
{
	bool sd = false, sp = false, jd = false, jp = false, args = false, any = false;
	if (!rt)
		return false;
	const char *p = rt;
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		size_t n = strcspn(p, " ,");
		if (!n)
			break;
#define TOK(s) (n == strlen(s) && !strncmp(p, s, n))
		if (TOK("ssh_direc") || TOK("ssh_direct"))
			sd = true;
		else if (TOK("ssh_proxy") || TOK("ssh"))
			sp = true;
		else if (TOK("jupyter_direc") || TOK("jupyter_direct"))
			jd = true;
		else if (TOK("jupyter_proxy") || TOK("jupyter"))
			jp = true;
		else if (TOK("args"))
			args = true;
		else
			return false;
#undef TOK
		any = true;
		p += n;
	}
	if (!any || (args && (sd || sp || jd || jp)))
		return false;
	if (args)
		*m = LAUNCH_ARGS;
	else if (jd)
		*m = LAUNCH_JUPYTER_DIRECT;
	else if (jp)
		*m = LAUNCH_JUPYTER;
	else if (sd)
		*m = LAUNCH_SSH_DIRECT;
	else
		*m = LAUNCH_SSH;
	return true;
}

enum create_launch api_create_launch_from_template(const char *runtype, bool ssh_direct,
					       bool jup_direct)
{
	if (runtype && !strncmp(runtype, "jupyter", 7))
		return jup_direct ? LAUNCH_JUPYTER_DIRECT : LAUNCH_JUPYTER;
	if (runtype && !strncmp(runtype, "ssh", 3))
		return ssh_direct ? LAUNCH_SSH_DIRECT : LAUNCH_SSH;
	enum create_launch m;
	if (runtype && api_create_launch_from_runtype(runtype, &m))
		return m;
	return LAUNCH_ARGS; /* SPEC: a template's runtype defaults to args */
}

/* ---- env ---------------------------------------------------------------------- */

/* The next space-separated token of s at *i, quotes (' or ") honoured and
 * removed; *start gets its offset.  NULL at the end; *bad on an open quote. */
static char *next_token(const char *s, size_t *i, size_t *start, bool *bad)
{
	while (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n')
		(*i)++;
	if (!s[*i])
		return NULL;
	*start = *i;
	size_t cap = strlen(s + *i) + 1, o = 0;
	char *out = xmalloc(cap);
	char q = 0;
	for (; s[*i]; (*i)++) {
		char c = s[*i];
		if (q) {
			if (c == q)
				q = 0;
			else
				out[o++] = c;
		} else if (c == '\'' || c == '"') {
			q = c;
		} else if (c == ' ' || c == '\t' || c == '\n') {
			break;
		} else {
			out[o++] = c;
		}
	}
	out[o] = '\0';
	if (q)
		*bad = true;
	return out;
}

static bool env_name_ok(const char *k)
{
	if (!(isalpha((unsigned char)*k) || *k == '_'))
		return false;
	for (; *k; k++)
		if (!(isalnum((unsigned char)*k) || *k == '_'))
			return false;
	return true;
}

/* One port number 1-65535 in [p, p+n). */
static bool port_ok(const char *p, size_t n)
{
	if (n == 0 || n > 5)
		return false;
	long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return false;
		v = v * 10 + (p[i] - '0');
	}
	return v >= 1 && v <= 65535;
}

/* "8080:8080", "53:53/udp", "8080" (the CLI's character set, checked). */
static bool port_spec_ok(const char *s)
{
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	if (slash && strcmp(slash, "/tcp") && strcmp(slash, "/udp"))
		return false;
	const char *colon = memchr(s, ':', n);
	if (!colon)
		return port_ok(s, n);
	return port_ok(s, (size_t)(colon - s)) && port_ok(colon + 1, n - (size_t)(colon - s) - 1);
}

/* A JSON string; "" when s is not valid UTF-8 (validation reports that). */
static json_t *text(const char *s)
{
	json_t *v = json_string(s);
	return v ? v : json_string("");
}

__attribute__((format(printf, 5, 6)))
static void env_fail(char *err, size_t errn, int *errpos, int pos, const char *fmt, ...)
{
	if (errpos)
		*errpos = pos;
	if (!err || !errn)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errn, fmt, ap);
	va_end(ap);
}

json_t *api_create_env_parse(const char *flags, char *err, size_t errn, int *errpos)
{
	json_t *o = json_object();
	if (errpos)
		*errpos = -1;
	if (!flags)
		return o;
	for (const char *c = flags; *c; c++)
		if ((unsigned char)*c < 0x20 && *c != ' ' && *c != '\t' && *c != '\n') {
			env_fail(err, errn, errpos, (int)(c - flags), "a control character at column %d",
				 (int)(c - flags) + 1);
			goto bad;
		}
	size_t i = 0, at = 0;
	bool open = false;
	char *flag;
	while ((flag = next_token(flags, &i, &at, &open))) {
		int fpos = (int)at;
		if (strcmp(flag, "-e") && strcmp(flag, "-p") && strcmp(flag, "-h")) {
			char *t = util_sanitize_n(flag, strlen(flag) > 20 ? 20 : strlen(flag));
			env_fail(err, errn, errpos, fpos,
				 "expected -e NAME=VALUE, -p HOST:CONTAINER or -h HOST at column %d, "
				 "not '%s'", fpos + 1, t);
			free(t);
			free(flag);
			goto bad;
		}
		char *val = next_token(flags, &i, &at, &open);
		if (!val) {
			env_fail(err, errn, errpos, fpos, "%s at column %d needs a value", flag,
				 fpos + 1);
			free(flag);
			goto bad;
		}
		if (open) {
			env_fail(err, errn, errpos, (int)at, "unclosed quote at column %d",
				 (int)at + 1);
			free(flag);
			free(val);
			goto bad;
		}
		bool ok = true;
		if (!strcmp(flag, "-e")) {
			char *eq = strchr(val, '=');
			if (!eq || eq == val) {
				env_fail(err, errn, errpos, (int)at,
					 "-e at column %d needs NAME=VALUE", fpos + 1);
				ok = false;
			} else {
				*eq = '\0';
				if (!env_name_ok(val)) {
					char *t = util_sanitize_n(val, strlen(val) > 40 ? 40 : strlen(val));
					env_fail(err, errn, errpos, (int)at,
						 "'%s' at column %d is not a variable name (letters, "
						 "digits, _)", t, (int)at + 1);
					free(t);
					ok = false;
				} else {
					json_object_set_new(o, val, text(eq + 1));
				}
			}
		} else if (!strcmp(flag, "-p")) {
			if (!port_spec_ok(val)) {
				char *t = util_sanitize_n(val, strlen(val) > 40 ? 40 : strlen(val));
				env_fail(err, errn, errpos, (int)at,
					 "'%s' at column %d is not a port mapping (HOST:CONTAINER, "
					 "ports 1-65535, optional /tcp or /udp)", t, (int)at + 1);
				free(t);
				ok = false;
			} else {
				char *k = xasprintf("-p %s", val);
				json_object_set_new(o, k, json_string("1"));
				free(k);
			}
		} else {
			json_object_set_new(o, "-h", text(val));
		}
		free(flag);
		free(val);
		if (!ok)
			goto bad;
	}
	if (open) {
		env_fail(err, errn, errpos, (int)at, "unclosed quote at column %d", (int)at + 1);
		goto bad;
	}
	return o;
bad:
	json_decref(o);
	return NULL;
}

/* Append v to the buffer, quoted when it has spaces or quotes or is empty. */
static void append_quoted(char **buf, const char *prefix, const char *v)
{
	bool plain = *v != '\0';
	for (const char *c = v; *c && plain; c++)
		plain = *c != ' ' && *c != '\t' && *c != '"' && *c != '\'' && *c != '\n';
	char q = strchr(v, '"') ? '\'' : '"';
	char *n = plain ? xasprintf("%s%s%s%s", *buf, **buf ? " " : "", prefix, v)
			: xasprintf("%s%s%s%c%s%c", *buf, **buf ? " " : "", prefix, q, v, q);
	free(*buf);
	*buf = n;
}

/* One name/value pair into the flag string. */
static void format_pair(char **buf, const char *k, const json_t *v)
{
	if (!strncmp(k, "-p ", 3)) {
		append_quoted(buf, "-p ", k + 3);
		return;
	}
	const char *s = json_is_string(v) ? json_string_value(v) : "";
	if (!strcmp(k, "-h")) {
		append_quoted(buf, "-h ", s);
		return;
	}
	char *pre = xasprintf("-e %s=", k);
	bool plain = *s != '\0';
	for (const char *c = s; *c && plain; c++)
		plain = *c != ' ' && *c != '\t' && *c != '"' && *c != '\'' && *c != '\n';
	char *n;
	if (plain) {
		n = xasprintf("%s%s%s%s", *buf, **buf ? " " : "", pre, s);
	} else {
		char q = strchr(s, '"') ? '\'' : '"';
		n = xasprintf("%s%s-e %c%s=%s%c", *buf, **buf ? " " : "", q, k, s, q);
	}
	free(pre);
	free(*buf);
	*buf = n;
}

char *api_create_env_format(const json_t *env)
{
	char *buf = xstrdup("");
	if (json_is_object(env)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)env, k, v) format_pair(&buf, k, v);
	} else if (json_is_array(env)) {
		size_t i;
		json_t *pair;
		json_array_foreach(env, i, pair) {
			const json_t *k = json_array_get(pair, 0);
			if (json_is_array(pair) && json_is_string(k))
				format_pair(&buf, json_string_value(k), json_array_get(pair, 1));
		}
	}
	return buf;
}

/* ---- onstart ------------------------------------------------------------------ */

#define ONSTART_PREFIX "echo "
#define ONSTART_SUFFIX " | base64 -d | gunzip | bash"

/* Base64 of n bytes (malloc'd), through libcrypto. */
static char *base64_encode(const unsigned char *in, size_t n)
{
	char *out = xmalloc(4 * ((n + 2) / 3) + 1);
	EVP_EncodeBlock((unsigned char *)out, in, (int)n);
	return out;
}

/* Decode base64 of length n (a multiple of 4, standard alphabet, padded)
 * into a malloc'd buffer; false when it is not base64. */
static bool base64_decode(const char *in, size_t n, unsigned char **out, size_t *outn)
{
	if (n == 0 || n % 4 || n > (size_t)1 << 24)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)in[i]) || in[i] == '+' || in[i] == '/' ||
		      (in[i] == '=' && i >= n - 2)))
			return false;
	unsigned char *buf = xmalloc(n / 4 * 3 + 1);
	int len = EVP_DecodeBlock(buf, (const unsigned char *)in, (int)n);
	if (len < 0) {
		free(buf);
		return false;
	}
	/* EVP_DecodeBlock counts the padding as zero bytes */
	len -= (in[n - 1] == '=') + (in[n - 2] == '=');
	*out = buf;
	*outn = (size_t)len;
	return true;
}

char *api_create_onstart_encode(const char *script, size_t *wire_len)
{
	if (!script)
		script = "";
	size_t n = strlen(script);
	if (wire_len)
		*wire_len = n;
	if (n <= CREATE_ONSTART_MAX)
		return xstrdup(script);
	z_stream z;
	memset(&z, 0, sizeof z);
	/* 15 + 16: a gzip header and trailer, which gunzip wants */
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	uLong cap = deflateBound(&z, (uLong)n);
	unsigned char *gz = xmalloc(cap);
	z.next_in = (unsigned char *)(uintptr_t)script;
	z.avail_in = (uInt)n;
	z.next_out = gz;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	size_t gzn = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(gz);
		return NULL;
	}
	char *enc = base64_encode(gz, gzn);
	free(gz);
	char *wire = xasprintf(ONSTART_PREFIX "%s" ONSTART_SUFFIX, enc);
	free(enc);
	if (wire_len)
		*wire_len = strlen(wire);
	if (strlen(wire) > CREATE_ONSTART_MAX) {
		free(wire);
		return NULL;
	}
	return wire;
}

char *api_create_onstart_decode(const char *wire)
{
	size_t pl = strlen(ONSTART_PREFIX), sl = strlen(ONSTART_SUFFIX);
	size_t n = wire ? strlen(wire) : 0;
	if (n <= pl + sl || strncmp(wire, ONSTART_PREFIX, pl) || strcmp(wire + n - sl, ONSTART_SUFFIX))
		return NULL;
	unsigned char *gz;
	size_t gzn;
	if (!base64_decode(wire + pl, n - pl - sl, &gz, &gzn))
		return NULL;
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		free(gz);
		return NULL;
	}
	size_t cap = 1 << 16, len = 0;
	char *out = xmalloc(cap);
	z.next_in = gz;
	z.avail_in = (uInt)gzn;
	int rc;
	do {
		if (cap - len < 4096) {
			if (cap >= (size_t)16 << 20) { /* a script, not a bomb */
				rc = Z_DATA_ERROR;
				break;
			}
			cap *= 2;
			out = xrealloc(out, cap);
		}
		z.next_out = (unsigned char *)out + len;
		z.avail_out = (uInt)(cap - len - 1);
		rc = inflate(&z, Z_NO_FLUSH);
		len = z.total_out;
	} while (rc == Z_OK);
	inflateEnd(&z);
	free(gz);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	out[len] = '\0';
	return out;
}

/* ---- the create body ------------------------------------------------------------- */

json_t *api_offers_create_body(const struct create_req *r)
{
	json_t *env = NULL;
	if (r->env[0] && !(env = api_create_env_parse(r->env, NULL, 0, NULL)))
		return NULL;
	json_t *b = json_pack("{s:s}", "client_id", "me");
	if (r->image[0])
		json_object_set_new(b, "image", json_string(r->image));
	if (r->template_hash_id[0])
		json_object_set_new(b, "template_hash_id", json_string(r->template_hash_id));
	if (r->label[0])
		json_object_set_new(b, "label", json_string(r->label));
	if (r->disk > 0)
		json_object_set_new(b, "disk", json_real(r->disk));
	if (r->runtype[0])
		json_object_set_new(b, "runtype", json_string(r->runtype));
	if (r->price > 0)
		json_object_set_new(b, "price", json_real(r->price));
	if (env)
		json_object_set_new(b, "env", env);
	if (r->onstart[0])
		json_object_set_new(b, "onstart", json_string(r->onstart));
	if (r->args_str[0])
		json_object_set_new(b, "args_str", json_string(r->args_str));
	if (r->image_login[0])
		json_object_set_new(b, "image_login", json_string(r->image_login));
	if (r->start_stopped)
		json_object_set_new(b, "target_state", json_string("stopped"));
	if (r->cancel_unavail)
		json_object_set_new(b, "cancel_unavail", json_true());
	json_t *vi = api_create_vol_info(&r->vol);
	if (vi)
		json_object_set_new(b, "volume_info", vi);
	/* json_string refuses invalid UTF-8: a field that vanished is an error */
	if ((r->label[0] && !json_object_get(b, "label")) ||
	    (r->onstart[0] && !json_object_get(b, "onstart")) ||
	    (r->args_str[0] && !json_object_get(b, "args_str"))) {
		json_decref(b);
		return NULL;
	}
	return b;
}

struct api_call api_create(const struct config *c, const struct create_req *r)
{
	json_t *b = api_offers_create_body(r);
	if (!b) /* validated before it was queued; never send a half body */
		b = json_pack("{s:s,s:b}", "client_id", "me", "invalid", 1);
	return api_call_make(EP_CREATE, "PUT",
			     xasprintf("%s/api/v0/asks/%ld/", c->base_url, r->offer_id), b);
}

/* ---- the create form ----------------------------------------------------------------- */

__attribute__((format(printf, 3, 4)))
static void field_err(struct create_errors *e, enum create_field f, const char *fmt, ...)
{
	if (e->msg[f][0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg[f], sizeof e->msg[f], fmt, ap);
	va_end(ap);
	e->count++;
}

static bool empty(const char *s)
{
	return !s || !*s;
}

/* Characters (UTF-8 code points) in s; -1 when s is not valid UTF-8 or has a
 * control character other than those allowed. */
static long utf8_chars(const char *s, bool allow_newlines)
{
	long n = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
		if (!len)
			return -1;
		for (int k = 1; k < len; k++)
			if ((p[k] & 0xC0) != 0x80)
				return -1;
		if (len == 1 && (*p < 0x20 || *p == 0x7F) &&
		    !(allow_newlines && (*p == '\n' || *p == '\t' || *p == '\r')))
			return -1;
		p += len;
		n++;
	}
	return n;
}

/* An image reference: [registry[:port]/]path[:tag][@digest], no spaces. */
static const char *image_problem(const char *s)
{
	size_t n = strlen(s);
	if (n > CREATE_IMAGE_MAX)
		return "the image name is longer than 255 characters";
	for (const char *c = s; *c; c++)
		if (!(isalnum((unsigned char)*c) || strchr("._-/:@", *c)))
			return "an image name has only letters, digits and . _ - / : @ "
			       "(like pytorch/pytorch:latest)";
	if (s[0] == '/' || s[0] == ':' || s[0] == '-' || s[n - 1] == '/' || s[n - 1] == ':' ||
	    strstr(s, "//"))
		return "not an image name (like pytorch/pytorch:latest)";
	return NULL;
}

/* "-u USER -p TOKEN REGISTRY" (the CLI's --login); the token is never echoed. */
static const char *login_problem(const char *s)
{
	size_t i = 0, at;
	bool open = false, have_u = false, have_p = false, have_reg = false;
	char *t;
	const char *why = NULL;
	while (!why && (t = next_token(s, &i, &at, &open))) {
		if (!strcmp(t, "-u") || !strcmp(t, "-p")) {
			bool u = t[1] == 'u';
			free(t);
			t = next_token(s, &i, &at, &open);
			if (!t || !*t)
				why = u ? "-u needs the registry user" : "-p needs the registry token";
			else if (u)
				have_u = true;
			else
				have_p = true;
		} else if (t[0] == '-') {
			why = "registry login is -u USER -p TOKEN REGISTRY";
		} else if (have_reg) {
			why = "registry login names one registry (-u USER -p TOKEN REGISTRY)";
		} else {
			have_reg = true;
		}
		free(t);
	}
	if (!why && open)
		why = "unclosed quote in the registry login";
	if (!why && !(have_u && have_p && have_reg))
		why = "registry login is -u USER -p TOKEN REGISTRY";
	return why;
}

bool api_create_validate(const struct create_form *f, const struct create_limits *lim,
		     struct create_errors *errs)
{
	memset(errs, 0, sizeof *errs);
	const char *why;
	/* image or template */
	if (empty(f->image) && empty(f->template_hash_id))
		field_err(errs, CF_IMAGE, "an image (or a template) is required");
	else if (!empty(f->image) && (why = image_problem(f->image)))
		field_err(errs, CF_IMAGE, "%s", why);
	if (!empty(f->template_hash_id)) {
		bool ok = strlen(f->template_hash_id) <= CREATE_HASH_MAX;
		for (const char *c = f->template_hash_id; ok && *c; c++)
			ok = isalnum((unsigned char)*c) || *c == '-' || *c == '_';
		if (!ok)
			field_err(errs, CF_TEMPLATE, "a template hash_id has only letters and digits");
	}
	/* disk */
	if (!isfinite(f->disk) || f->disk < 0)
		field_err(errs, CF_DISK, "disk is a size in GB");
	else if (f->disk > 0 && f->disk < 1)
		field_err(errs, CF_DISK, "disk is at least 1 GB");
	else if (lim && isfinite(lim->max_disk) && lim->max_disk > 0 &&
		 (f->disk > 0 ? f->disk : CREATE_DISK_DEFAULT) > lim->max_disk)
		field_err(errs, CF_DISK, "this offer has %.0f GB of disk at most", lim->max_disk);
	/* label */
	if (!empty(f->label)) {
		long n = utf8_chars(f->label, false);
		if (n < 0)
			field_err(errs, CF_LABEL, "the label has a control character or invalid UTF-8");
		else if (n > CREATE_LABEL_MAX)
			field_err(errs, CF_LABEL, "the label is %ld characters; at most %d", n,
				  CREATE_LABEL_MAX);
	}
	/* launch mode and args */
	if ((unsigned)f->launch >= LAUNCH__COUNT)
		field_err(errs, CF_LAUNCH, "choose ssh, ssh direct, jupyter, jupyter direct or "
					   "entrypoint/args");
	if (!empty(f->args_str)) {
		if (f->launch != LAUNCH_ARGS || f->launch_from_template)
			field_err(errs, CF_ARGS, "arguments apply only to the entrypoint/args launch mode");
		else if (strlen(f->args_str) > CREATE_ARGS_MAX)
			field_err(errs, CF_ARGS, "the arguments are longer than %d bytes",
				  CREATE_ARGS_MAX);
		else if (utf8_chars(f->args_str, false) < 0)
			field_err(errs, CF_ARGS, "the arguments have a control character or invalid UTF-8");
	}
	/* env */
	if (!empty(f->env)) {
		char msg[180];
		int pos;
		json_t *e = api_create_env_parse(f->env, msg, sizeof msg, &pos);
		if (!e)
			field_err(errs, CF_ENV, "%s", msg);
		else if (strlen(f->env) > CREATE_ENV_MAX)
			field_err(errs, CF_ENV, "env and ports are longer than %d bytes", CREATE_ENV_MAX);
		else {
			/* every value must be sendable text */
			const char *k;
			json_t *v;
			json_object_foreach(e, k, v) if (utf8_chars(json_string_value(v), true) < 0)
			{
				field_err(errs, CF_ENV, "the value of %s has a control character or "
							"invalid UTF-8", k);
				break;
			}
		}
		json_decref(e);
	}
	/* onstart */
	if (!empty(f->onstart)) {
		if (utf8_chars(f->onstart, true) < 0) {
			field_err(errs, CF_ONSTART, "the onstart script is not UTF-8 text");
		} else if (strlen(f->onstart) > CREATE_ONSTART_MAX) {
			size_t wl = 0;
			char *w = api_create_onstart_encode(f->onstart, &wl);
			if (!w)
				field_err(errs, CF_ONSTART,
					  "the onstart script is %zu bytes; compressed it is still %zu, "
					  "over the service's %d: fetch the rest from a URL",
					  strlen(f->onstart), wl, CREATE_ONSTART_MAX);
			free(w);
		}
	}
	/* price */
	if (lim && lim->bid) {
		if (!isfinite(f->price) || f->price < CREATE_BID_MIN || f->price > CREATE_BID_MAX)
			field_err(errs, CF_PRICE, "a bid is %.3f to %.0f $/h", CREATE_BID_MIN,
				  CREATE_BID_MAX);
	} else if (isfinite(f->price) && f->price != 0) {
		field_err(errs, CF_PRICE, "a price applies only to interruptible (bid) offers");
	}
	/* registry login */
	if (!empty(f->image_login)) {
		if (strlen(f->image_login) > CREATE_LOGIN_MAX)
			field_err(errs, CF_LOGIN, "the registry login is longer than %d bytes",
				  CREATE_LOGIN_MAX);
		else if (utf8_chars(f->image_login, false) < 0)
			field_err(errs, CF_LOGIN, "the registry login has a control character");
		else if ((why = login_problem(f->image_login)))
			field_err(errs, CF_LOGIN, "%s", why);
	}
	char verr[200];
	if (!api_create_vol_valid(&f->vol, verr, sizeof verr))
		field_err(errs, CF_VOLUME, "%s", verr);
	return errs->count == 0;
}

bool api_create_form_to_req(const struct create_form *f, const struct create_limits *lim,
			long offer_id, struct create_req *r, struct create_errors *errs)
{
	if (!api_create_validate(f, lim, errs))
		return false;
	memset(r, 0, sizeof *r);
	r->offer_id = offer_id;
	util_strlcpy(r->image, f->image ? f->image : "", sizeof r->image);
	util_strlcpy(r->template_hash_id, f->template_hash_id ? f->template_hash_id : "",
		     sizeof r->template_hash_id);
	util_strlcpy(r->label, f->label ? f->label : "", sizeof r->label);
	r->disk = f->disk;
	if (!f->launch_from_template)
		util_strlcpy(r->runtype, api_create_launch_runtype(f->launch), sizeof r->runtype);
	r->price = lim && lim->bid ? f->price : 0;
	char *w = api_create_onstart_encode(f->onstart, NULL);
	util_strlcpy(r->onstart, w ? w : "", sizeof r->onstart);
	free(w);
	r->cancel_unavail = f->cancel_unavail;
	r->start_stopped = f->start_stopped;
	util_strlcpy(r->env, f->env ? f->env : "", sizeof r->env);
	util_strlcpy(r->args_str, f->args_str ? f->args_str : "", sizeof r->args_str);
	util_strlcpy(r->image_login, f->image_login ? f->image_login : "", sizeof r->image_login);
	r->vol = f->vol;
	return true;
}

#define TERMINATED(a) (memchr((a), 0, sizeof(a)) != NULL)

bool api_create_req_valid(const struct create_req *r, char *why, size_t n)
{
	const char *bad = NULL;
	if (r->offer_id <= 0)
		bad = "no offer";
	else if (!TERMINATED(r->image) || !TERMINATED(r->template_hash_id) ||
		 !TERMINATED(r->label) || !TERMINATED(r->runtype) || !TERMINATED(r->onstart) ||
		 !TERMINATED(r->env) || !TERMINATED(r->args_str) || !TERMINATED(r->image_login))
		bad = "a field is not terminated";
	else if (!r->image[0] && !r->template_hash_id[0])
		bad = "an image or a template is required";
	else if (!isfinite(r->disk) || r->disk < 0)
		bad = "disk is a size in GB";
	else if (r->price != 0 &&
		 (!isfinite(r->price) || r->price < CREATE_BID_MIN || r->price > CREATE_BID_MAX))
		bad = "a bid is 0.001 to 128 $/h";
	else if (strlen(r->onstart) > CREATE_ONSTART_MAX)
		bad = "onstart is over 4048 characters";
	else if (r->args_str[0] && r->runtype[0] && strcmp(r->runtype, "args"))
		bad = "arguments apply only to runtype args";
	else if (r->runtype[0]) {
		enum create_launch m;
		if (!api_create_launch_from_runtype(r->runtype, &m))
			bad = "unknown runtype";
	}
	if (!bad && r->env[0]) {
		json_t *e = api_create_env_parse(r->env, why, n, NULL);
		if (!e)
			return false;
		json_decref(e);
	}
	if (!bad && r->image_login[0] && login_problem(r->image_login))
		bad = "registry login is -u USER -p TOKEN REGISTRY";
	if (!bad && !api_create_vol_valid(&r->vol, why, n))
		return false;
	if (bad) {
		snprintf(why, n, "%s", bad);
		return false;
	}
	return true;
}

/* ---- templates ----------------------------------------------------------------------- */

json_t *api_templates_filters(enum template_scope scope, long user_id)
{
	switch (scope) {
	case TPL_OWN:
		return json_pack("{s:{s:I}}", "creator_id", "eq", (json_int_t)user_id);
	case TPL_RECOMMENDED:
		return json_pack("{s:{s:b}}", "recommended", "eq", 1);
	}
	return json_object();
}

bool api_templates_query_call(const struct config *c, const char *query, struct api_call *out,
			  struct query_error *err)
{
	json_t *f = query_parse_for(QUERY_TEMPLATES, query ? query : "", true, err);
	if (!f)
		return false;
	*out = api_templates(c, f); /* takes f */
	return true;
}

bool api_template_validate(const struct template_req *t, char *err, size_t errn)
{
	return api_template_validate_at(t, err, errn, NULL);
}

bool api_template_validate_at(const struct template_req *t, char *err, size_t errn,
			  const char **field)
{
	const char *why = NULL, *at = "name";
	if (empty(t->name))
		why = "a template needs a name";
	else if (utf8_chars(t->name, false) < 0 || strlen(t->name) > 256)
		why = "the name is text of at most 256 bytes";
	else if ((at = "image"), empty(t->image))
		why = "a template needs an image";
	else if ((why = image_problem(t->image)))
		;
	else if ((at = "tag"), !empty(t->tag) && strpbrk(t->tag, " /:@\t\n"))
		why = "a tag has no spaces, / : or @";
	else if ((at = "launch"), (unsigned)t->launch >= LAUNCH__COUNT)
		why = "unknown launch mode";
	else if ((at = "args"), !empty(t->args_str) && t->launch != LAUNCH_ARGS)
		why = "arguments apply only to the entrypoint/args launch mode";
	else if ((at = "disk"), !isfinite(t->recommended_disk_space) || t->recommended_disk_space < 0)
		why = "the recommended disk is a size in GB";
	else if ((at = "onstart"), !empty(t->onstart) && strlen(t->onstart) > CREATE_ONSTART_MAX)
		why = "a template's onstart is at most 4048 characters";
	else if ((at = "login_repo"),
		 (!empty(t->login_user) || !empty(t->login_pass)) && empty(t->login_repo))
		why = "registry credentials need the registry (docker_login_repo)";
	if (!why && !empty(t->env)) {
		json_t *e = api_create_env_parse(t->env, err, errn, NULL);
		if (field)
			*field = "env";
		if (!e)
			return false;
		json_decref(e);
	}
	if (why) {
		snprintf(err, errn, "%s", why);
		if (field)
			*field = at;
		return false;
	}
	return true;
}

/* The runtype and flags of a template for a launch mode. */
static void set_launch(json_t *b, enum create_launch m)
{
	bool jup = m == LAUNCH_JUPYTER || m == LAUNCH_JUPYTER_DIRECT;
	bool ssh = m == LAUNCH_SSH || m == LAUNCH_SSH_DIRECT;
	json_object_set_new(b, "runtype", json_string(jup ? "jupyter" : ssh ? "ssh" : "args"));
	json_object_set_new(b, "use_ssh", json_boolean(jup || ssh));
	json_object_set_new(b, "ssh_direct", json_boolean(m == LAUNCH_SSH_DIRECT ||
							 m == LAUNCH_JUPYTER_DIRECT));
	json_object_set_new(b, "jup_direct", json_boolean(m == LAUNCH_JUPYTER_DIRECT));
}

static void set_str(json_t *b, const char *k, const char *v)
{
	json_t *s = json_string(v ? v : "");
	json_object_set_new(b, k, s ? s : json_string(""));
}

struct api_call api_template_create(const struct config *c, const struct template_req *t)
{
	json_t *b = json_object();
	set_str(b, "name", t->name);
	set_str(b, "image", t->image);
	if (!empty(t->tag))
		set_str(b, "tag", t->tag);
	set_str(b, "desc", t->desc);
	set_str(b, "env", t->env);
	set_str(b, "onstart", t->onstart);
	if (!empty(t->args_str))
		set_str(b, "args_str", t->args_str);
	set_launch(b, t->launch);
	if (t->recommended_disk_space > 0)
		json_object_set_new(b, "recommended_disk_space", json_real(t->recommended_disk_space));
	set_str(b, "docker_login_repo", t->login_repo);
	set_str(b, "docker_login_user", t->login_user);
	set_str(b, "docker_login_pass", t->login_pass);
	json_object_set_new(b, "private", json_boolean(t->private_));
	return api_call_make(EP_TEMPLATE_CREATE, "POST",
			     xasprintf("%s/api/v0/template/", c->base_url), b);
}

static bool differs(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") != 0;
}

struct api_call api_template_edit(const struct config *c, const char *hash_id,
				  const struct template_req *old,
				  const struct template_req *edited, int *changed)
{
	json_t *b = json_object();
	set_str(b, "hash_id", hash_id);
	static const size_t offs[] = {
		offsetof(struct template_req, name),       offsetof(struct template_req, image),
		offsetof(struct template_req, tag),        offsetof(struct template_req, desc),
		offsetof(struct template_req, env),        offsetof(struct template_req, onstart),
		offsetof(struct template_req, args_str),   offsetof(struct template_req, login_repo),
		offsetof(struct template_req, login_user),
	};
	static const char *const keys[] = { "name", "image", "tag", "desc", "env", "onstart",
					    "args_str", "docker_login_repo", "docker_login_user" };
	int n = 0;
	for (size_t i = 0; i < sizeof offs / sizeof *offs; i++) {
		const char *a = *(const char *const *)(const void *)((const char *)old + offs[i]);
		const char *e = *(const char *const *)(const void *)((const char *)edited + offs[i]);
		if (differs(a, e)) {
			set_str(b, keys[i], e);
			n++;
		}
	}
	if (old->launch != edited->launch) {
		set_launch(b, edited->launch);
		n++;
	}
	if (old->recommended_disk_space != edited->recommended_disk_space) {
		json_object_set_new(b, "recommended_disk_space",
				    json_real(edited->recommended_disk_space > 0
						      ? edited->recommended_disk_space
						      : CREATE_DISK_DEFAULT));
		n++;
	}
	if (old->private_ != edited->private_) {
		json_object_set_new(b, "private", json_boolean(edited->private_));
		n++;
	}
	if (!empty(edited->login_pass)) { /* the old one is never known */
		set_str(b, "docker_login_pass", edited->login_pass);
		n++;
	}
	if (changed)
		*changed = n;
	return api_call_make(EP_TEMPLATE_EDIT, "PUT", xasprintf("%s/api/v0/template/", c->base_url),
			     b);
}

struct api_call api_template_delete(const struct config *c, long template_id)
{
	return api_call_make(EP_TEMPLATE_DELETE, "DELETE",
			     xasprintf("%s/api/v0/template/", c->base_url),
			     json_pack("{s:I}", "template_id", (json_int_t)template_id));
}

bool api_template_result(const json_t *root, long *id, char **hash_id)
{
	const json_t *t = json_is_object(root) ? json_object_get(root, "template") : NULL;
	const json_t *h = json_object_get(t, "hash_id");
	const json_t *i = json_object_get(t, "id");
	if (!json_is_object(t) || !json_is_string(h) || !json_is_integer(i))
		return false;
	if (id)
		*id = (long)json_integer_value(i);
	if (hash_id)
		*hash_id = util_sanitize(json_string_value(h));
	return true;
}
