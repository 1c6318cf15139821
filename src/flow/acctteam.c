/* acctteam.c: see acctteam.h. */
#include "flow/acctteam.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_list.h"
#include "rules/acct.h"
#include "base/util.h"

static void text(const json_t *o, const char *k, char *buf, size_t n)
{
	const char *s = json_string_value(json_object_get(o, k));
	char *c = util_sanitize(s ? s : "");
	util_strlcpy(buf, c, n);
	free(c);
}

static long id_of(const json_t *o, const char *k)
{
	const json_t *x = json_object_get(o, k);
	double d = json_is_number(x) ? json_number_value(x)
		   : json_is_string(x) ? strtod(json_string_value(x), NULL) : 0;
	return isfinite(d) && d > 0 && d < 1e15 ? (long)d : 0;
}

static bool one_member(const json_t *o, void *rec)
{
	struct team_member *m = rec;
	if (!json_is_object(o))
		return false;
	m->id = id_of(o, "id");
	text(o, "username", m->username, sizeof m->username);
	text(o, "email", m->email, sizeof m->email);
	text(o, "fullname", m->fullname, sizeof m->fullname);
	const json_t *roles = json_object_get(o, "roles");
	const json_t *r = json_is_array(roles) ? json_array_get(roles, 0) : json_object_get(o, "role");
	if (json_is_object(r)) /* {"name": ...} */
		r = json_object_get(r, "name");
	char *c = util_sanitize(json_is_string(r) ? json_string_value(r) : "");
	util_strlcpy(m->role, c, sizeof m->role);
	free(c);
	return m->id > 0 || m->email[0];
}

static void free_plain(void *v, size_t n)
{
	(void)n;
	free(v);
}

static const char *const member_keys[] = { "members", "results", NULL };
static const struct json_list_kind members_kind = {
	.what = "team members", .keys = member_keys, .size = sizeof(struct team_member),
	.one = one_member, .free_recs = free_plain,
};

void *acctteam_map_members(const json_t *root, struct api_error *e)
{
	return json_list_map(&members_kind, root, e);
}

static bool one_audit(const json_t *o, void *rec)
{
	struct audit_row *a = rec;
	if (!json_is_object(o))
		return false;
	const json_t *w = json_object_get(o, "created_at");
	a->when = json_is_number(w) ? json_number_value(w) : NAN;
	text(o, "user_email", a->who, sizeof a->who);
	long uid = id_of(o, "user_id");
	a->api_key_id = id_of(o, "api_key_id");
	if (!a->who[0] && uid)
		snprintf(a->who, sizeof a->who, "user %ld", uid);
	text(o, "api_route", a->what, sizeof a->what);
	if (!a->what[0])
		text(o, "path", a->what, sizeof a->what);
	text(o, "ip_address", a->ip, sizeof a->ip);
	const json_t *args = json_object_get(o, "args");
	if (args && !json_is_null(args)) {
		char *js = json_dumps(args, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		char *c = util_sanitize(js ? js : "");
		util_strlcpy(a->args, c, sizeof a->args);
		free(c);
		free(js);
	}
	return true;
}

static const char *const audit_keys[] = { "results", "audit_logs", NULL };
static const struct json_list_kind audit_kind = {
	.what = "audit log", .keys = audit_keys, .size = sizeof(struct audit_row), .one = one_audit,
	.free_recs = free_plain,
};

void *acctteam_map_audit(const json_t *root, struct api_error *e)
{
	return json_list_map(&audit_kind, root, e);
}

bool acctteam_can_manage(const char *role, const char *role_perm)
{
	if (!role)
		return false;
	if (!strcmp(role, "owner") || !strcmp(role, "manager"))
		return true;
	if (!role_perm || !*role_perm)
		return false;
	int unknown = 0;
	return (acct_rights_mask_text(role_perm, &unknown) & (1u << CAT_TEAM_WRITE)) != 0;
}

const struct team_member *acctteam_me(const struct team_member *v, size_t n, long user_id,
				      const char *email)
{
	for (size_t i = 0; i < n; i++)
		if (user_id > 0 && v[i].id == user_id)
			return &v[i];
	for (size_t i = 0; i < n; i++)
		if (email && *email && !strcmp(v[i].email, email))
			return &v[i];
	return NULL;
}

int acctteam_count(const struct team_member *v, size_t n, long id, const char *role)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += v[i].id == id && (!role || !strcmp(v[i].role, role));
	return c;
}
