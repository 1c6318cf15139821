/* create_recall.c: the create form's remembered forms (create_recall.h).
 * The file is one JSON object: {"rentop_forms": 1, "forms": [{"key",
 * "offer", "secrets", "fields": [{"name", "kind", "text", "choice", "on"}],
 * "template": {"hash_id", "image", "launch", "env", "onstart", "args"}}]},
 * oldest first. */
#include "views/offers/create_recall.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "history.h"
#include "rules/secrets.h"

#define RECALL_VERSION 1

void recall_init(struct recall_store *s) { memset(s, 0, sizeof *s); }

void recall_free(struct recall_store *s)
{
	for (size_t i = 0; i < s->n; i++)
		create_form_draft_clear(&s->e[i].d);
	free(s->e);
	memset(s, 0, sizeof *s);
}

bool recall_key(const char *tpl_hash, const char *image, char *out, size_t n)
{
	int w = -1;
	if (tpl_hash && *tpl_hash)
		w = snprintf(out, n, "tpl:%s", tpl_hash);
	else if (image && *image)
		w = snprintf(out, n, "img:%s", image);
	if (w > 0 && (size_t)w < n && !strchr(out, '\n'))
		return true;
	if (n)
		out[0] = '\0';
	return false;
}

/* The text of the draft's field name ("" when it has none). */
static const char *draft_text(const struct create_draft *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->f[i].name, name))
			return d->f[i].text ? d->f[i].text : "";
	return "";
}

bool recall_key_of_form(const struct form *fm, char *out, size_t n)
{
	return recall_key(form_value(fm, "template"), form_value(fm, "image"), out, n);
}

/* Wipe and empty a kept string. */
static void wipe(char **s)
{
	if (!*s)
		return;
	explicit_bzero(*s, strlen(*s));
	free(*s);
	*s = xstrdup("");
}

/* Would secrets.c mask something in script (onstart) or flags (args, env)? */
static bool holds_secret(const char *s, bool script)
{
	if (!s || !*s)
		return false;
	char *m = script ? secrets_mask_script(s) : secrets_mask_flags(s);
	bool differs = !m || strcmp(m, s) != 0;
	free(m);
	return differs;
}

/* Drop every secret of d: the secret fields, an onstart or args that would
 * be masked, the template's env (every env value is a secret). */
static void strip_secrets(struct create_draft *d)
{
	for (int i = 0; i < d->n; i++) {
		struct create_draft_field *g = &d->f[i];
		if (g->kind == FK_SECRET || (!strcmp(g->name, "onstart") && holds_secret(g->text, true)) ||
		    (!strcmp(g->name, "args") && holds_secret(g->text, false)))
			wipe(&g->text);
	}
	struct create_tpl *t = &d->tpl;
	wipe(&t->env);
	if (holds_secret(t->onstart, true))
		wipe(&t->onstart);
	if (holds_secret(t->args_str, false))
		wipe(&t->args_str);
	d->secrets = false;
}

/* Take entry i out of s (its draft cleared). */
static void drop(struct recall_store *s, size_t i)
{
	create_form_draft_clear(&s->e[i].d);
	memmove(&s->e[i], &s->e[i + 1], (s->n - i - 1) * sizeof s->e[0]);
	s->n--;
}

/* Append (key, *d) as the newest (d taken over). */
static void append(struct recall_store *s, const char *key, struct create_draft *d)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].key, key)) {
			drop(s, i);
			break;
		}
	if (s->n == RECALL_CAP)
		drop(s, 0);
	if (!s->e)
		s->e = xcalloc(RECALL_CAP, sizeof s->e[0]);
	struct recall_entry *e = &s->e[s->n++];
	util_strlcpy(e->key, key, sizeof e->key);
	e->d = *d;
	e->d.have = true;
	memset(d, 0, sizeof *d);
}

bool recall_put(struct recall_store *s, struct create_draft *d, bool secrets)
{
	char key[RECALL_KEY_MAX];
	if (!recall_key(draft_text(d, "template"), draft_text(d, "image"), key, sizeof key)) {
		create_form_draft_clear(d);
		return false;
	}
	if (!secrets)
		strip_secrets(d);
	append(s, key, d);
	return true;
}

const struct recall_entry *recall_find(const struct recall_store *s, const char *key)
{
	for (size_t i = s->n; key && *key && i-- > 0;)
		if (!strcmp(s->e[i].key, key))
			return &s->e[i];
	return NULL;
}

const struct recall_entry *recall_last(const struct recall_store *s)
{
	return s->n ? &s->e[s->n - 1] : NULL;
}

char *recall_key_words(const char *key, char *buf, size_t n)
{
	bool tpl = !strncmp(key, "tpl:", 4);
	char *clean = util_sanitize(strlen(key) > 4 ? key + 4 : "");
	snprintf(buf, n, "%s %s", tpl ? "template" : "image", clean);
	free(clean);
	return buf;
}

bool recall_path(char *out, size_t n) { return history_state_path("forms", out, n); }

/* ---- the file ------------------------------------------------------------------------ */

static json_t *str_or_empty(const char *s) { return json_string(s ? s : ""); }

static json_t *entry_json(const struct recall_entry *e)
{
	const struct create_draft *d = &e->d;
	json_t *fields = json_array();
	for (int i = 0; i < d->n; i++) {
		const struct create_draft_field *g = &d->f[i];
		json_array_append_new(fields, json_pack("{s:s, s:i, s:o, s:i, s:b}", "name", g->name,
							"kind", (int)g->kind, "text",
							str_or_empty(g->text), "choice", g->choice,
							"on", g->on));
	}
	const struct create_tpl *t = &d->tpl;
	json_t *tpl = json_pack("{s:s, s:s, s:i, s:o, s:o, s:o}", "hash_id", t->hash_id, "image",
				t->image, "launch", (int)t->launch, "env", str_or_empty(t->env),
				"onstart", str_or_empty(t->onstart), "args", str_or_empty(t->args_str));
	return json_pack("{s:s, s:I, s:b, s:o, s:o}", "key", e->key, "offer", (json_int_t)d->offer_id,
			 "secrets", d->secrets, "fields", fields, "template", tpl);
}

/* A string member of o that fits in n bytes (NUL included), else NULL. */
static const char *member(const json_t *o, const char *name, size_t n)
{
	const char *s = json_string_value(json_object_get(o, name));
	return s && strlen(s) < n ? s : NULL;
}

/* One entry of the file into *e; false when it is not one. */
static bool entry_read(const json_t *o, struct recall_entry *e)
{
	memset(e, 0, sizeof *e);
	const char *key = member(o, "key", sizeof e->key);
	const json_t *fields = json_object_get(o, "fields"), *t = json_object_get(o, "template");
	if (!key || !json_is_array(fields) || json_array_size(fields) > FORM_MAX_FIELDS ||
	    !json_is_object(t))
		return false;
	struct create_draft *d = &e->d;
	util_strlcpy(e->key, key, sizeof e->key);
	d->secrets = json_is_true(json_object_get(o, "secrets"));
	d->offer_id = (long)json_integer_value(json_object_get(o, "offer"));
	size_t i;
	const json_t *f;
	json_array_foreach(fields, i, f) {
		struct create_draft_field *g = &d->f[d->n];
		const char *name = member(f, "name", sizeof g->name), *text = member(f, "text", 1 << 20);
		json_int_t kind = json_integer_value(json_object_get(f, "kind"));
		if (!name || !text || !json_is_integer(json_object_get(f, "kind")) || kind < FK_TEXT ||
		    kind > FK_MULTILINE)
			return false;
		util_strlcpy(g->name, name, sizeof g->name);
		g->kind = (enum field_kind)kind;
		g->text = xstrdup(text);
		g->choice = (int)json_integer_value(json_object_get(f, "choice"));
		g->on = json_is_true(json_object_get(f, "on"));
		d->n++;
	}
	struct create_tpl *ct = &d->tpl;
	const char *hash = member(t, "hash_id", sizeof ct->hash_id),
		   *image = member(t, "image", sizeof ct->image);
	json_int_t launch = json_integer_value(json_object_get(t, "launch"));
	if (!hash || !image || launch < 0 || launch >= LAUNCH__COUNT)
		return false;
	util_strlcpy(ct->hash_id, hash, sizeof ct->hash_id);
	util_strlcpy(ct->image, image, sizeof ct->image);
	ct->launch = (enum create_launch)launch;
	const char *env = member(t, "env", 1 << 20), *os = member(t, "onstart", 1 << 20),
		   *args = member(t, "args", 1 << 20);
	ct->env = xstrdup(env ? env : "");
	ct->onstart = xstrdup(os ? os : "");
	ct->args_str = xstrdup(args ? args : "");
	if (!d->secrets) /* a file edited by hand: what was not asked for is not used */
		strip_secrets(d);
	d->have = true;
	return true;
}

bool recall_load(struct recall_store *s, const char *path, char *err, size_t errn)
{
	recall_free(s);
	FILE *f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return true;
		snprintf(err, errn, "remembered forms %s: %s", path, strerror(errno));
		return false;
	}
	json_error_t je;
	json_t *root = json_loadf(f, 0, &je);
	fclose(f);
	const json_t *forms = json_object_get(root, "forms");
	bool ok = json_integer_value(json_object_get(root, "rentop_forms")) == RECALL_VERSION &&
		  json_is_array(forms) && json_array_size(forms) <= RECALL_CAP;
	size_t i;
	const json_t *o;
	if (ok)
		json_array_foreach(forms, i, o) {
			struct recall_entry e;
			if (!entry_read(o, &e)) {
				create_form_draft_clear(&e.d);
				ok = false;
				break;
			}
			append(s, e.key, &e.d);
		}
	json_decref(root);
	if (ok)
		return true;
	recall_free(s);
	char bad[1100];
	snprintf(bad, sizeof bad, "%s.bad", path);
	if (rename(path, bad) == 0)
		snprintf(err, errn, "remembered forms %s: not readable, ignored (kept as %s)", path,
			 bad);
	else
		snprintf(err, errn, "remembered forms %s: not readable, ignored (%s)", path,
			 strerror(errno));
	return false;
}

bool recall_save(const struct recall_store *s, const char *path, char *err, size_t errn)
{
	json_t *forms = json_array();
	for (size_t i = 0; i < s->n; i++) {
		json_t *one = entry_json(&s->e[i]); /* NULL: a text that is not UTF-8, left out */
		if (one)
			json_array_append_new(forms, one);
	}
	json_t *root = json_pack("{s:i, s:o}", "rentop_forms", RECALL_VERSION, "forms", forms);
	char tmp[1100], e[400];
	FILE *f = history_private_open(path, tmp, sizeof tmp, e, sizeof e);
	bool ok = f != NULL;
	if (f && (!root || json_dumpf(root, f, JSON_INDENT(1)) != 0)) {
		snprintf(e, sizeof e, "%s: not written", path);
		fclose(f);
		unlink(tmp);
		ok = false;
	} else if (f) {
		fputc('\n', f);
		ok = history_private_close(f, tmp, path, e, sizeof e);
	}
	json_decref(root);
	if (!ok)
		snprintf(err, errn, "remembered forms %s", e);
	return ok;
}
