/* secrets.c: owns the masking of environment values in records from the
 * service (see secrets.h for the shapes).  The detail views and --dump --json
 * both go through here, so an env value never reaches the screen, a pipe or
 * a log unless the user asks for one value in the detail view (which reads
 * it from the instance's env list, not from these masked copies).  Shell
 * words are split the way sh does for quoting ('...', "...", backslash), so
 * a quoted value is masked whole. */
#include "rules/secrets.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

bool secrets_name_looks_secret(const char *name)
{
	static const char *const parts[] = { "TOKEN", "KEY",     "SECRET",  "PASS",  "AUTH",
					     "CRED",  "PRIVATE", "SESSION", "COOKIE" };
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		if (strcasestr(name, parts[i]))
			return true;
	return false;
}

bool secrets_is_env_key(const char *key)
{
	static const char *const keys[] = { "extra_env", "env", "onstart", "onstart_cmd",
					    "launch_args" };
	if (!key)
		return false;
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* The masked text is written into a struct util_buf (no stdio). */
static void sb_putc(struct util_buf *b, char c)
{
	util_buf_put(b, &c, 1);
}

static void sb_puts(struct util_buf *b, const char *s)
{
	util_buf_put(b, s, strlen(s));
}

/* The text written (never NULL). */
static char *sb_end(struct util_buf *b)
{
	return b->s ? b->s : xstrdup("");
}

/* The end of the shell word starting at s[i]: unquoted blank, or (script)
 * an unquoted ; & | ( ) ` ends it.  Quotes and backslashes are followed. */
static size_t word_end(const char *s, size_t i, bool script)
{
	char q = 0;
	for (; s[i]; i++) {
		char c = s[i];
		if (q) {
			if (c == q)
				q = 0;
			else if (q == '"' && c == '\\' && s[i + 1])
				i++;
			continue;
		}
		if (c == '\'' || c == '"') {
			q = c;
		} else if (c == '\\' && s[i + 1]) {
			i++;
		} else if (isspace((unsigned char)c) ||
			   (script && strchr(";&|()`", c))) {
			break;
		}
	}
	return i;
}

/* Write an assignment word NAME=VALUE with its value masked; a word that
 * opened with a quote ("NAME=v w") gets the quote closed after the mask. */
static void put_assign(struct util_buf *o, const char *w, size_t len)
{
	const char *eq = memchr(w, '=', len);
	if (!eq || (size_t)(eq - w) + 1 == len) {
		util_buf_put(o, w, len); /* "-e NAME" (passed through) or an empty value */
		return;
	}
	util_buf_put(o, w, (size_t)(eq - w) + 1);
	sb_puts(o, SECRETS_MASK);
	if (w[0] == '"' || w[0] == '\'')
		sb_putc(o, w[0]);
}

char *secrets_mask_flags(const char *s)
{
	struct util_buf ob = { NULL, 0, 0 }, *o = &ob;
	bool want_assign = false;
	size_t i = 0;
	while (s && s[i]) {
		if (isspace((unsigned char)s[i])) {
			sb_putc(o, s[i++]);
			continue;
		}
		size_t e = word_end(s, i, false), len = e - i;
		const char *w = s + i;
		if (want_assign) {
			put_assign(o, w, len);
			want_assign = false;
		} else if ((len == 2 && !strncmp(w, "-e", 2)) || (len == 5 && !strncmp(w, "--env", 5))) {
			util_buf_put(o, w, len);
			want_assign = true;
		} else if (len > 6 && !strncmp(w, "--env=", 6)) {
			sb_puts(o, "--env=");
			put_assign(o, w + 6, len - 6);
		} else if (len > 2 && !strncmp(w, "-e", 2) && w[2] != '-' && memchr(w, '=', len)) {
			sb_puts(o, "-e");
			put_assign(o, w + 2, len - 2);
		} else {
			util_buf_put(o, w, len);
		}
		i = e;
	}
	return sb_end(o);
}

char *secrets_mask_script(const char *s)
{
	struct util_buf ob = { NULL, 0, 0 }, *o = &ob;
	size_t i = 0;
	while (s && s[i]) {
		char prev = i ? s[i - 1] : ' ';
		bool at_word = isspace((unsigned char)prev) || strchr(";&|(`'\"{", prev);
		if (at_word && (isalpha((unsigned char)s[i]) || s[i] == '_')) {
			size_t j = i;
			while (isalnum((unsigned char)s[j]) || s[j] == '_')
				j++;
			if (s[j] == '=') {
				char *name = xstrndup(s + i, j - i);
				bool secret = secrets_name_looks_secret(name);
				free(name);
				if (secret) {
					util_buf_put(o, s + i, j + 1 - i);
					size_t e;
					if (i && (prev == '"' || prev == '\'')) {
						/* inside quotes: the value runs to the closing quote */
						const char *close = strchr(s + j + 1, prev);
						e = close ? (size_t)(close - s) : strlen(s);
					} else {
						e = word_end(s, j + 1, true);
					}
					if (e > j + 1)
						sb_puts(o, SECRETS_MASK);
					i = e;
					continue;
				}
				util_buf_put(o, s + i, j - i);
				i = j;
				continue;
			}
		}
		sb_putc(o, s[i++]);
	}
	return sb_end(o);
}

/* A value as masked: null and "" stay (nothing to hide), anything else is
 * the mask.  (v is never NULL here, and json_is_*() and the foreach macros
 * below test for NULL first: those branches are never taken.) */
static json_t *mask_value(const json_t *v)
{
	if (!v || json_is_null(v))
		return json_null();
	if (json_is_string(v) && json_string_length(v) == 0)
		return json_string("");
	return json_string(SECRETS_MASK);
}

/* A port mapping's key as the service writes it: "-p " and the mapping,
 * in the characters the CLI allows there ("-p 8000:8000/tcp").  "-e NAME",
 * "-pNAME" or any other key starting with - is not one. */
static bool port_key(const char *k)
{
	return !strncmp(k, "-p ", 3) && k[3] && !k[3 + strspn(k + 3, "0123456789:/tcpud")];
}

/* {"NAME": value, "-p 8000:8000": "1"}: values masked, port mappings kept;
 * a {"key"/"name": NAME, "value": V} entry keeps its name. */
static json_t *mask_object(const json_t *obj)
{
	json_t *r = json_object();
	const char *k;
	json_t *v;
	bool entry = json_object_get(obj, "value") &&
		     (json_is_string(json_object_get(obj, "key")) ||
		      json_is_string(json_object_get(obj, "name")));
	json_object_foreach((json_t *)obj, k, v) {
		bool keep = entry ? strcmp(k, "value") != 0 : port_key(k);
		json_object_set_new(r, k, keep ? json_deep_copy(v) : mask_value(v));
	}
	return r;
}

/* A list of [name, value] pairs (or entry objects, or flag strings). */
static json_t *mask_list(const json_t *arr)
{
	json_t *r = json_array();
	size_t i;
	json_t *x;
	json_array_foreach((json_t *)arr, i, x) {
		if (json_is_array(x)) {
			json_t *pair = json_array();
			for (size_t k = 0; k < json_array_size(x); k++) {
				const json_t *e = json_array_get(x, k);
				json_array_append_new(pair, k == 0 ? json_deep_copy(e) : mask_value(e));
			}
			json_array_append_new(r, pair);
		} else if (json_is_object(x)) {
			json_array_append_new(r, mask_object(x));
		} else if (json_is_string(x)) {
			/* "NAME=VALUE" */
			const char *s = json_string_value(x);
			const char *eq = strchr(s, '=');
			json_array_append_new(r, eq && eq[1] ? json_sprintf("%.*s=%s", (int)(eq - s), s,
									    SECRETS_MASK)
							     : json_deep_copy(x));
		} else {
			json_array_append_new(r, json_deep_copy(x));
		}
	}
	return r;
}

json_t *secrets_masked(const char *key, const json_t *val)
{
	if (!secrets_is_env_key(key))
		return NULL;
	if (!val || json_is_null(val))
		return json_null();
	bool script = !strcmp(key, "onstart") || !strcmp(key, "onstart_cmd");
	if (json_is_string(val)) {
		char *m = script ? secrets_mask_script(json_string_value(val))
				 : secrets_mask_flags(json_string_value(val));
		json_t *r = json_string(m);
		free(m);
		/* a guard: valid UTF-8 cut at ASCII bytes and ASCII masks stay valid */
		return r ? r : json_string(SECRETS_MASK); /* not UTF-8: hide it whole */
	}
	if (json_is_array(val))
		return mask_list(val);
	if (json_is_object(val))
		return mask_object(val);
	return json_deep_copy(val);
}

void secrets_mask_tree(json_t *v)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x) {
			json_t *m = secrets_masked(k, x);
			if (m)
				json_object_set_new(v, k, m); /* replaces x in place */
			else
				secrets_mask_tree(x);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) secrets_mask_tree(x);
	}
}
