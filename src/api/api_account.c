/* api_account.c: owns the paths and bodies of the account calls (env vars,
 * API keys, SSH keys, team roles, machine reports, every 2FA step), the
 * decoding of their answers into records or the caller's secret buffers,
 * and the decoding of 2FA failures (fail_count, locked_until) into one
 * struct with a line of text a dialog can show. */
#include "api/api_account.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/acct.h"
#include "net/auth.h"
#include "base/config.h"
#include "json/json_list.h"
#include "json/json_map.h"
#include "rules/sshkey.h"
#include "base/util.h"

static struct api_call mk(enum api_ep ep, const char *method, char *url, json_t *body)
{
	return api_call_make(ep, method, url, body);
}

/* URL-encode s (malloc'd). */
static char *uenc(const char *s)
{
	char *e = curl_easy_escape(NULL, s ? s : "", 0);
	char *r = xstrdup(e);
	curl_free(e);
	return r;
}

/* Copy a string member into buf when it fits; false otherwise. */
static bool take_str(const json_t *o, const char *k, char *buf, size_t n)
{
	json_t *v = json_object_get(o, k);
	if (!json_is_string(v) || !json_string_length(v) || json_string_length(v) >= n)
		return false;
	memcpy(buf, json_string_value(v), json_string_length(v) + 1);
	return true;
}

/* ---- env vars -------------------------------------------------------------------- */

struct api_call api_env_list(const struct config *c)
{
	return mk(EP_SECRETS, "GET", xasprintf("%s/api/v0/secrets/", c->base_url), NULL);
}

struct api_call api_env_add(const struct config *c, const char *key, const char *value)
{
	return mk(EP_SECRETS_WRITE, "POST", xasprintf("%s/api/v0/secrets/", c->base_url),
		  json_pack("{s:s,s:s}", "key", key ? key : "", "value", value ? value : ""));
}

struct api_call api_env_edit(const struct config *c, const char *key, const char *value)
{
	return mk(EP_SECRETS_WRITE, "PUT", xasprintf("%s/api/v0/secrets/", c->base_url),
		  json_pack("{s:s,s:s}", "key", key ? key : "", "value", value ? value : ""));
}

struct api_call api_env_delete(const struct config *c, const char *key)
{
	return mk(EP_SECRETS_WRITE, "DELETE", xasprintf("%s/api/v0/secrets/", c->base_url),
		  json_pack("{s:s}", "key", key ? key : ""));
}

bool api_env_name_valid(const char *key)
{
	if (!key || !*key || strlen(key) > 128 || isdigit((unsigned char)key[0]))
		return false;
	for (const char *p = key; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

char *api_account_error_text(const struct api_error *e, char *buf, size_t n)
{
	static const struct {
		const char *slug, *text;
	} known[] = {
		{"existing_key", "A variable of that name exists: edit it instead."},
		{"nonexistent_key", "No variable of that name (deleted meanwhile?)."},
		{"max_secrets", "The account holds the most variables allowed: delete one first."},
		{"missing_input", "A required field is empty."},
		{"permission_denied", "This API key is not allowed to do that (scoped key)."},
		{"tfa_required", "This needs a 2FA session: log in with 2FA first."},
		{"user_blacklisted", "The account is blocked: contact support."},
		{"label_too_long", "The label is longer than 30 characters."},
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcmp(e->slug, known[i].slug)) {
			snprintf(buf, n, "%s (%s)", known[i].text, e->msg);
			return buf;
		}
	if (e->cls == AE_NEEDS_TFA)
		snprintf(buf, n, "This needs a 2FA session: log in with 2FA first (%s)", e->msg);
	else
		apierr_format(e, buf, n);
	return buf;
}

/* ---- API keys ----------------------------------------------------------------------- */

struct api_call api_apikeys_list(const struct config *c)
{
	return mk(EP_APIKEYS, "GET", xasprintf("%s/api/v0/auth/apikeys/", c->base_url), NULL);
}

struct api_call api_apikey_create(const struct config *c, const char *name, json_t *permissions)
{
	json_t *b = json_pack("{s:s}", "name", name ? name : "");
	if (permissions)
		json_object_set_new(b, "permissions", permissions);
	return mk(EP_APIKEY_WRITE, "POST", xasprintf("%s/api/v0/auth/apikeys/", c->base_url), b);
}

bool api_apikey_created(const json_t *root, char *key, size_t keyn, long *id)
{
	*id = 0;
	json_t *v = json_object_get(root, "id");
	if (json_is_integer(v))
		*id = (long)json_integer_value(v);
	return take_str(root, "key", key, keyn);
}

struct api_call api_apikey_delete(const struct config *c, long id)
{
	return mk(EP_APIKEY_WRITE, "DELETE",
		  xasprintf("%s/api/v0/auth/apikeys/%ld/", c->base_url, id), json_object());
}

struct api_call api_apikey_show(const struct config *c, long id)
{
	return mk(EP_APIKEYS, "GET", xasprintf("%s/api/v0/auth/apikeys/%ld/", c->base_url, id), NULL);
}

bool api_apikey_shown(const json_t *root, char *key, size_t keyn)
{
	if (json_is_string(root)) {
		const char *s = json_string_value(root);
		size_t len = strlen(s);
		if (!len || len >= keyn)
			return false;
		memcpy(key, s, len + 1);
		return true;
	}
	return json_is_object(root) && take_str(root, "key", key, keyn);
}

/* ---- SSH keys ---------------------------------------------------------------------------- */

struct api_call api_ssh_list(const struct config *c)
{
	return mk(EP_SSH, "GET", xasprintf("%s/api/v0/ssh/", c->base_url), NULL);
}

/* A time as epoch seconds: a number, or ISO 8601 text ("2026-11-23T09:24:13Z"
 * or with a space and fraction). */
static double when(const json_t *v)
{
	if (json_is_number(v))
		return json_number_value(v);
	if (!json_is_string(v))
		return NAN;
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *s = json_string_value(v);
	const char *e = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!e)
		e = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!e)
		return NAN;
	return (double)timegm(&tm);
}

static bool one_ssh_key(const json_t *o, void *rec)
{
	struct ssh_key_rec *k = rec;
	json_t *idv = json_object_get(o, "id");
	if (!json_is_number(idv))
		return false;
	json_t *kv = json_object_get(o, "public_key");
	if (!json_is_string(kv))
		kv = json_object_get(o, "key");
	if (!json_is_string(kv))
		kv = json_object_get(o, "ssh_key");
	const char *line = json_is_string(kv) ? json_string_value(kv) : "";
	k->id = (long)json_number_value(idv);
	k->public_key = util_sanitize(line);
	struct sshkey_info info;
	char err[128];
	if (sshkey_parse(line, &info, err, sizeof err)) {
		k->type = xstrdup(info.type);
		k->comment = xstrdup(info.comment);
		k->fingerprint = xstrdup(info.fingerprint);
	} else {
		k->type = xstrdup("");
		sshkey_comment(line, info.comment, sizeof info.comment);
		k->comment = xstrdup(info.comment);
		k->fingerprint = xstrdup("");
	}
	k->created_at = when(json_object_get(o, "created_at"));
	return true;
}

void api_ssh_keys_free(struct ssh_key_rec *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].type);
		free(v[i].comment);
		free(v[i].fingerprint);
		free(v[i].public_key);
	}
	free(v);
}

static void free_ssh_keys(void *v, size_t n)
{
	api_ssh_keys_free(v, n);
}

static const char *const ssh_keys_keys[] = { "ssh_keys", "keys", "results", NULL };
const struct json_list_kind api_account_ssh_list = {
	.what = "SSH keys", .keys = ssh_keys_keys, .size = sizeof(struct ssh_key_rec),
	.one = one_ssh_key, .free_recs = free_ssh_keys,
};

bool api_ssh_keys(const json_t *root, struct ssh_key_rec **v, size_t *n)
{
	return json_list_decode(root, &api_account_ssh_list, v, n);
}

struct api_call api_ssh_add(const struct config *c, const char *line)
{
	/* one line, trimmed: a pasted key often ends with a newline */
	const char *p = line ? line : "";
	while (*p == ' ' || *p == '\t')
		p++;
	size_t l = strcspn(p, "\r\n");
	while (l && (p[l - 1] == ' ' || p[l - 1] == '\t'))
		l--;
	char *k = xstrndup(p, l);
	struct api_call call = mk(EP_SSH_WRITE, "POST", xasprintf("%s/api/v0/ssh/", c->base_url),
				  json_pack("{s:s}", "ssh_key", k));
	free(k);
	return call;
}

struct api_call api_ssh_delete(const struct config *c, long id)
{
	return mk(EP_SSH_WRITE, "DELETE", xasprintf("%s/api/v0/ssh/%ld/", c->base_url, id),
		  json_object());
}

/* ---- team roles --------------------------------------------------------------------------- */

struct api_call api_roles_list(const struct config *c)
{
	return mk(EP_ROLES, "GET", xasprintf("%s/api/v0/team/roles-full/", c->base_url), NULL);
}

static bool one_team_role(const json_t *o, void *rec)
{
	struct team_role *r = rec;
	json_t *nm = json_object_get(o, "name");
	if (!json_is_string(nm))
		return false;
	json_t *idv = json_object_get(o, "id");
	r->id = json_is_number(idv) ? (long)json_number_value(idv) : 0;
	r->name = util_sanitize(json_string_value(nm));
	/* an object, or the docs' list of names, or text: shown, never blanked */
	r->permissions = json_map_rights_text(json_object_get(o, "permissions"));
	char sum[256];
	/* a role without permissions grants none (unlike a key without rights) */
	if (r->permissions[0])
		acct_rights_summary(r->permissions, sum, sizeof sum);
	else
		snprintf(sum, sizeof sum, "none");
	r->summary = xstrdup(sum);
	return true;
}

static void free_team_roles(void *v, size_t n);

static const char *const roles_keys[] = { "roles", "results", NULL };
const struct json_list_kind api_account_roles_list = {
	.what = "team roles", .keys = roles_keys, .size = sizeof(struct team_role),
	.one = one_team_role, .free_recs = free_team_roles,
};

bool api_team_roles(const json_t *root, struct team_role **v, size_t *n)
{
	return json_list_decode(root, &api_account_roles_list, v, n);
}

void api_team_roles_free(struct team_role *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].permissions);
		free(v[i].summary);
	}
	free(v);
}

static void free_team_roles(void *v, size_t n)
{
	api_team_roles_free(v, n);
}

struct api_call api_role_create(const struct config *c, const char *name, json_t *permissions)
{
	json_t *b = json_pack("{s:s}", "name", name ? name : "");
	if (permissions)
		json_object_set_new(b, "permissions", permissions);
	return mk(EP_ROLE_WRITE, "POST", xasprintf("%s/api/v0/team/roles/", c->base_url), b);
}

struct api_call api_role_edit(const struct config *c, const char *ident, const char *new_name,
			      json_t *permissions)
{
	json_t *b = json_object();
	if (new_name)
		json_object_set_new(b, "name", json_string(new_name));
	if (permissions)
		json_object_set_new(b, "permissions", permissions);
	char *id = uenc(ident);
	struct api_call call = mk(EP_ROLE_WRITE, "PUT",
				  xasprintf("%s/api/v0/team/roles/%s/", c->base_url, id), b);
	free(id);
	return call;
}

struct api_call api_role_delete(const struct config *c, const char *ident)
{
	char *id = uenc(ident);
	struct api_call call = mk(EP_ROLE_WRITE, "DELETE",
				  xasprintf("%s/api/v0/team/roles/%s/", c->base_url, id), json_object());
	free(id);
	return call;
}

/* ---- machine reports ---------------------------------------------------------------------------- */

struct api_call api_machine_reports(const struct config *c, long machine_id)
{
	return mk(EP_REPORTS, "GET",
		  xasprintf("%s/api/v0/machines/%ld/reports/", c->base_url, machine_id), NULL);
}

/* ---- 2FA ------------------------------------------------------------------------------------------ */

void api_tfa_verify_wipe(struct tfa_verify *v)
{
	explicit_bzero(v, sizeof *v);
}

/* The verification fields of a body. */
static void add_verify(json_t *b, const struct tfa_verify *v)
{
	if (!strcmp(v->method, "backup")) {
		json_object_set_new(b, "backup_code", json_string(v->code));
		return;
	}
	if (v->method[0])
		json_object_set_new(b, "tfa_method", json_string(v->method));
	if (v->code[0])
		json_object_set_new(b, "code", json_string(v->code));
	if (v->secret[0])
		json_object_set_new(b, "secret", json_string(v->secret));
	if (v->method_id > 0)
		json_object_set_new(b, "tfa_method_id", json_integer(v->method_id));
}

static char *tfa_url(const struct config *c, const char *sub)
{
	return xasprintf("%s/api/v0/tfa/%s", c->base_url, sub);
}

struct api_call api_tfa_status(const struct config *c)
{
	return mk(EP_TFA_STATUS, "GET", tfa_url(c, "status/"), NULL);
}

struct api_call api_tfa_login_with(const struct config *c, const struct tfa_verify *v)
{
	json_t *b = json_object();
	add_verify(b, v);
	return mk(EP_TFA_LOGIN, "POST", tfa_url(c, ""), b);
}

bool api_tfa_logout(struct auth *a)
{
	bool had = auth_using_session(a);
	auth_session_expired(a); /* drops the session file and key */
	return had;
}

struct api_call api_tfa_totp_setup(const struct config *c)
{
	return mk(EP_TFA_WRITE, "POST", tfa_url(c, "totp-setup/"), json_object());
}

bool api_tfa_totp_setup_result(const json_t *root, char *secret, size_t secretn, char *uri,
			       size_t urin)
{
	if (!take_str(root, "secret", secret, secretn))
		return false;
	for (const char *p = secret; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '=') {
			explicit_bzero(secret, secretn);
			return false;
		}
	if (!take_str(root, "provisioning_uri", uri, urin) || strncmp(uri, "otpauth://totp/", 15)) {
		explicit_bzero(secret, secretn);
		explicit_bzero(uri, urin);
		return false;
	}
	for (const char *p = uri; *p; p++)
		if ((unsigned char)*p < 0x21 || (unsigned char)*p == 0x7f) {
			explicit_bzero(secret, secretn);
			explicit_bzero(uri, urin);
			return false;
		}
	return true;
}

struct api_call api_tfa_authorize_start(const struct config *c, const struct tfa_verify *v)
{
	json_t *b = json_object();
	if (!strcmp(v->method, "backup")) {
		json_object_set_new(b, "backup_code", json_string(v->code));
	} else {
		if (v->method[0])
			json_object_set_new(b, "tfa_method", json_string(v->method));
		if (v->method_id > 0)
			json_object_set_new(b, "tfa_method_id", json_integer(v->method_id));
	}
	return mk(EP_TFA_WRITE, "POST", tfa_url(c, "authorize-new-method/"), b);
}

struct api_call api_tfa_authorize_finish(const struct config *c, const char *code,
					 const char *secret)
{
	return mk(EP_TFA_WRITE, "PUT", tfa_url(c, "authorize-new-method/"),
		  json_pack("{s:s,s:s}", "code", code ? code : "", "secret", secret ? secret : ""));
}

bool api_tfa_challenge_secret(const json_t *root, char *buf, size_t n)
{
	return take_str(root, "secret", buf, n);
}

/* Characters (code points) of valid UTF-8 text, -1 when invalid. */
static long utf8_chars(const char *s)
{
	long n = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
					: (*p & 0xF8) == 0xF0 ? 4 : 0;
		if (!len || (len == 2 && *p < 0xC2))
			return -1;
		for (int i = 1; i < len; i++)
			if ((p[i] & 0xC0) != 0x80)
				return -1;
		p += len;
		n++;
	}
	return n;
}

bool api_tfa_label_valid(const char *label)
{
	if (!label)
		return true;
	for (const unsigned char *p = (const unsigned char *)label; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	long n = utf8_chars(label);
	if (n < 0 || n > TFA_LABEL_MAX)
		return false;
	/* C1 controls (U+0080-U+009F) and bidi overrides would be dropped on
	 * display: refuse them so the label reads as typed */
	char *clean = util_sanitize(label);
	bool same = !strcmp(clean, label);
	free(clean);
	return same;
}

struct api_call api_tfa_confirm_new(const struct config *c, const char *method, const char *code,
				    const char *secret, const char *phone, const char *label)
{
	json_t *b = json_pack("{s:s,s:s,s:s}", "tfa_method", method ? method : "totp", "code",
			      code ? code : "", "secret", secret ? secret : "");
	if (phone && *phone)
		json_object_set_new(b, "phone_number", json_string(phone));
	if (label && *label)
		json_object_set_new(b, "label", json_string(label));
	return mk(EP_TFA_WRITE, "POST", tfa_url(c, "confirm-new/"), b);
}

struct api_call api_tfa_sms_send(const struct config *c, const char *phone, long method_id)
{
	json_t *b = json_object();
	if (method_id > 0)
		json_object_set_new(b, "tfa_method_id", json_integer(method_id));
	else if (phone && *phone)
		json_object_set_new(b, "phone_number", json_string(phone));
	return mk(EP_TFA_WRITE, "POST", tfa_url(c, "sms/"), b);
}

struct api_call api_tfa_sms_resend(const struct config *c, const char *secret, const char *phone,
				   long method_id)
{
	json_t *b = json_object();
	if (secret && *secret)
		json_object_set_new(b, "secret", json_string(secret));
	if (method_id > 0)
		json_object_set_new(b, "tfa_method_id", json_integer(method_id));
	else if (phone && *phone)
		json_object_set_new(b, "phone_number", json_string(phone));
	return mk(EP_TFA_WRITE, "POST", tfa_url(c, "sms/resend/"), b);
}

struct api_call api_tfa_email_send(const struct config *c, const char *secret)
{
	json_t *b = json_object();
	if (secret && *secret)
		json_object_set_new(b, "secret", json_string(secret));
	return mk(EP_TFA_WRITE, "POST", tfa_url(c, "email/"), b);
}

bool api_tfa_sent_msg(const json_t *root, char *buf, size_t n)
{
	const json_t *m = json_is_object(root) ? json_object_get(root, "msg") : NULL;
	if (n)
		buf[0] = '\0';
	if (!json_is_string(m) || !json_string_length(m) || !n)
		return false;
	char *clean = util_sanitize(json_string_value(m));
	util_strlcpy(buf, clean, n);
	free(clean);
	return buf[0] != '\0';
}

struct api_call api_tfa_update(const struct config *c, long method_id, const char *label,
			       int primary)
{
	json_t *b = json_pack("{s:I}", "tfa_method_id", (json_int_t)method_id);
	if (label)
		json_object_set_new(b, "label", json_string(label));
	if (primary >= 0)
		json_object_set_new(b, "is_primary", json_boolean(primary));
	return mk(EP_TFA_WRITE, "PUT", tfa_url(c, "update/"), b);
}

struct api_call api_tfa_regen_backup(const struct config *c, const struct tfa_verify *v)
{
	json_t *b = json_object();
	add_verify(b, v);
	return mk(EP_TFA_WRITE, "PUT", tfa_url(c, "regen-backup-codes/"), b);
}

struct api_call api_tfa_remove(const struct config *c, const struct tfa_verify *v,
			       long target_id)
{
	json_t *b = json_object();
	add_verify(b, v);
	if (target_id > 0)
		json_object_set_new(b, "target_id", json_integer(target_id));
	return mk(EP_TFA_WRITE, "DELETE", tfa_url(c, ""), b);
}

bool api_tfa_removed(const json_t *root, int *remaining, bool *disabled)
{
	*remaining = -1;
	*disabled = false;
	if (!json_is_object(root))
		return false;
	json_t *r = json_object_get(root, "remaining_methods");
	if (json_is_integer(r))
		*remaining = (int)json_integer_value(r);
	json_t *m = json_object_get(root, "msg");
	if (json_is_string(m) && strstr(json_string_value(m), "Disabled"))
		*disabled = true;
	if (*remaining == 0)
		*disabled = true;
	return true;
}

bool api_tfa_backup_codes(const json_t *root, struct tfa_backup_codes *out)
{
	explicit_bzero(out, sizeof *out);
	json_t *arr = json_object_get(root, "backup_codes");
	if (!json_is_array(arr) || !json_array_size(arr))
		return false;
	for (size_t i = 0; i < json_array_size(arr) && out->n < TFA_BACKUP_CODES; i++) {
		json_t *s = json_array_get(arr, i);
		if (!json_is_string(s) || json_string_length(s) >= sizeof out->code[0])
			continue;
		const char *t = json_string_value(s);
		bool ok = true;
		for (const char *p = t; *p && ok; p++)
			ok = isalnum((unsigned char)*p) || *p == '-';
		if (ok)
			util_strlcpy(out->code[out->n++], t, sizeof out->code[0]);
	}
	return out->n > 0;
}

/* ---- 2FA failures ------------------------------------------------------------------------------ */

/* The kind of a 2FA failure from its slug. */
static enum tfa_err_kind tfa_kind_of(const char *slug)
{
	static const struct {
		const char *slug;
		enum tfa_err_kind kind;
	} map[] = {
		{"2fa_verification_failed", TFAE_WRONG_CODE},
		{"tfa_locked", TFAE_LOCKED},
		{"2fa_expired", TFAE_EXPIRED},
		{"challenge_not_found", TFAE_NO_CHALLENGE},
		{"no_pending_authorization", TFAE_NO_CHALLENGE},
		{"authorization_required", TFAE_AUTH_REQUIRED},
		{"duplicate_tfa_method", TFAE_DUPLICATE},
		{"email_not_verified", TFAE_EMAIL_NOT_VERIFIED},
		{"sms_rate_limited", TFAE_SMS_RATE_LIMITED},
		{"tfa_challenge_exists", TFAE_CHALLENGE_EXISTS},
		{"invalid_backup_code", TFAE_INVALID_BACKUP},
		{"phone_number_mismatch", TFAE_PHONE_MISMATCH},
		{"label_too_long", TFAE_LABEL_TOO_LONG},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (!strcmp(slug, map[i].slug))
			return map[i].kind;
	return TFAE_OTHER;
}

void api_tfa_error_from_api(const struct api_error *e, struct tfa_error *out)
{
	memset(out, 0, sizeof *out);
	out->api = *e;
	out->fail_count = -1;
	out->locked_until = NAN;
	out->kind = e->cls == AE_TRANSPORT || e->cls == AE_PROTOCOL ? TFAE_OTHER
								     : tfa_kind_of(e->slug);
}

bool api_tfa_error_decode(int http_status, const char *body, size_t len, struct tfa_error *out)
{
	memset(out, 0, sizeof *out);
	out->fail_count = -1;
	out->locked_until = NAN;
	if (!apierr_decode(http_status, body, len, &out->api))
		return false;
	out->kind = tfa_kind_of(out->api.slug);
	json_t *j = body && len ? json_loadb(body, len, JSON_DECODE_ANY, NULL) : NULL;
	if (json_is_object(j)) {
		json_t *fc = json_object_get(j, "fail_count");
		if (json_is_number(fc))
			out->fail_count = (int)json_number_value(fc);
		json_t *lu = json_object_get(j, "locked_until");
		if (json_is_number(lu) && json_number_value(lu) > 0)
			out->locked_until = json_number_value(lu);
	}
	json_decref(j);
	return true;
}

bool api_tfa_error_from_xfer(const struct http_xfer *x, struct tfa_error *out)
{
	struct api_error e;
	if (http_xfer_failed(x, &e) && (e.cls == AE_TRANSPORT || e.cls == AE_PROTOCOL) &&
	    e.http_status != 200) {
		memset(out, 0, sizeof *out);
		out->kind = TFAE_OTHER;
		out->api = e;
		out->fail_count = -1;
		out->locked_until = NAN;
		return true;
	}
	size_t len;
	const char *body = http_xfer_body(x, &len);
	return api_tfa_error_decode((int)http_xfer_status(x), body, len, out);
}

#define TFA_LOCK_FAILS 5 /* failures that lock a method (API-NOTES) */

char *api_tfa_error_text(const struct tfa_error *e, double now, char *buf, size_t n)
{
	char lock[64] = "";
	bool locked = acct_lock_countdown(lock, sizeof lock, e->locked_until, now);
	switch (e->kind) {
	case TFAE_NONE:
		snprintf(buf, n, "Done.");
		break;
	case TFAE_WRONG_CODE:
		if (locked)
			snprintf(buf, n, "Wrong code: the method is now %s.", lock);
		else if (e->fail_count > 0)
			snprintf(buf, n, "Wrong code: %d of %d attempts used.", e->fail_count,
				 TFA_LOCK_FAILS);
		else
			snprintf(buf, n, "Wrong code.");
		break;
	case TFAE_LOCKED:
		if (locked)
			snprintf(buf, n, "Too many wrong codes: %s; no code can be checked until then.",
				 lock);
		else
			snprintf(buf, n, "Too many wrong codes: the lock has ended, try again.");
		break;
	case TFAE_EXPIRED:
		snprintf(buf, n, "The code expired: ask for a new one.");
		break;
	case TFAE_NO_CHALLENGE:
		snprintf(buf, n, "No pending code or authorization (expired?): start again.");
		break;
	case TFAE_AUTH_REQUIRED:
		snprintf(buf, n, "Adding a method needs authorization with an existing method or a "
				 "backup code first.");
		break;
	case TFAE_DUPLICATE:
		snprintf(buf, n, "That method is already set up on this account.");
		break;
	case TFAE_EMAIL_NOT_VERIFIED:
		snprintf(buf, n, "The account's email is not verified: verify it in the web console "
				 "first.");
		break;
	case TFAE_SMS_RATE_LIMITED:
		snprintf(buf, n, "Too many SMS messages: wait a little before asking again.");
		break;
	case TFAE_CHALLENGE_EXISTS:
		snprintf(buf, n, "A code was sent recently: use resend instead.");
		break;
	case TFAE_INVALID_BACKUP:
		snprintf(buf, n, "That backup code is wrong or already used.");
		break;
	case TFAE_PHONE_MISMATCH:
		snprintf(buf, n, "The phone number differs from the one the code was sent to.");
		break;
	case TFAE_LABEL_TOO_LONG:
		snprintf(buf, n, "The label is longer than %d characters.", TFA_LABEL_MAX);
		break;
	case TFAE_OTHER:
		apierr_format(&e->api, buf, n);
		break;
	}
	return buf;
}

bool api_tfa_may_send(const struct tfa_error *e, double now)
{
	return isnan(e->locked_until) || e->locked_until <= now;
}

/* ---- team members, audit log ------------------------------------------------------------ */

struct api_call api_members_list(const struct config *c)
{
	return mk(EP_MEMBERS, "GET", xasprintf("%s/api/v0/team/members/", c->base_url), NULL);
}

struct api_call api_member_invite(const struct config *c, const char *email, const char *role)
{
	return mk(EP_MEMBER_WRITE, "POST", xasprintf("%s/api/v0/team/invite/", c->base_url),
		  json_pack("{s:s,s:s}", "email", email ? email : "", "role", role ? role : ""));
}

struct api_call api_member_role(const struct config *c, long id, const char *role)
{
	return mk(EP_MEMBER_WRITE, "PUT",
		  xasprintf("%s/api/v0/team/members/%ld/roles/", c->base_url, id),
		  json_pack("{s:s}", "role", role ? role : ""));
}

struct api_call api_member_remove(const struct config *c, long id)
{
	return mk(EP_MEMBER_WRITE, "DELETE",
		  xasprintf("%s/api/v0/team/members/%ld/", c->base_url, id), NULL);
}

struct api_call api_audit_logs(const struct config *c)
{
	return mk(EP_AUDIT, "GET", xasprintf("%s/api/v0/audit_logs/", c->base_url), NULL);
}

/* ---- billing -------------------------------------------------------------------------- */

/* url?select_filters={"<col>":{"gte":lo,"lte":hi}}&limit=N[&after_token=T] */
static char *ranged(const char *base, const char *col, double lo, double hi, const char *after)
{
	json_t *f = json_pack("{s:{s:I,s:I}}", col, "gte", (json_int_t)lo, "lte", (json_int_t)hi);
	char *js = json_dumps(f, JSON_COMPACT);
	json_decref(f);
	char *q = uenc(js ? js : "{}");
	free(js);
	char *url = xasprintf("%s?select_filters=%s&limit=%d", base, q, API_BILL_PAGE);
	free(q);
	if (after && *after) {
		char *e = uenc(after), *u = xasprintf("%s&after_token=%s", url, e);
		free(e);
		free(url);
		url = u;
	}
	return url;
}

struct api_call api_charges_day(const struct config *c, double day, const char *after)
{
	char *base = xasprintf("%s/api/v0/charges/", c->base_url);
	char *url = ranged(base, "day", day, day, after);
	free(base);
	return mk(EP_CHARGES, "GET", url, NULL);
}

struct api_call api_invoices(const struct config *c, double lo, double hi, const char *after)
{
	char *base = xasprintf("%s/api/v1/invoices/", c->base_url);
	char *url = ranged(base, "when", lo, hi, after);
	free(base);
	char *u = xasprintf("%s&latest_first=false", url);
	free(url);
	return mk(EP_INVOICES, "GET", u, NULL);
}

struct api_call api_invoices_old(const struct config *c, double lo, double hi)
{
	return mk(EP_INVOICES_OLD, "GET",
		  xasprintf("%s/api/v0/users/me/invoices?owner=me&sdate=%lld&edate=%lld&inc_charges=true",
			    c->base_url, (long long)lo, (long long)hi),
		  NULL);
}

struct api_call api_transfer_credit(const struct config *c, const char *recipient, double amount)
{
	return mk(EP_TRANSFER, "PUT", xasprintf("%s/api/v0/commands/transfer_credit/", c->base_url),
		  json_pack("{s:s,s:f}", "recipient", recipient ? recipient : "", "amount",
			    round(amount * 100) / 100));
}

/* ---- pending price increases ----------------------------------------------------------- */

struct api_call api_price_increases(const struct config *c)
{
	return mk(EP_PRICE_INC, "GET",
		  xasprintf("%s/api/v0/instances/pending-price-increases/", c->base_url), NULL);
}

struct api_call api_price_increase_answer(const struct config *c, long id, bool accept)
{
	return mk(EP_PRICE_INC_WRITE, "PUT",
		  xasprintf("%s/api/v0/instances/%s-price-increase/", c->base_url,
			    accept ? "accept" : "reject"),
		  json_pack("{s:I}", "pending_price_increase_id", (json_int_t)id));
}
