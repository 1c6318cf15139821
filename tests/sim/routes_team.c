/* routes_team.c: the team's members, invitations, the audit log and
 * transfers of credit (docs show_team_members.yaml, invite_team_member.yaml,
 * remove_team_member.yaml, transfer_credit.yaml; CLI teams.py, auth.py
 * show_audit_logs); its table is routes_team (routes_int.h).  Scopes as the live service's table has them
 * (team_read, team_write, misc, billing_write): a scoped key without one is
 * refused as routes.c refuses a read-only key's write.  Managing members
 * takes the owner or manager role (or a role granting team_write). */
#include "routes_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "acct.h"

#define OWNER_ID 148213
#define INVITE_ACCEPT 120.0   /* s at --speed 1 before an invitation is accepted */
#define INVITE_REPEAT 300.0   /* s: a second invitation to the same address is refused before */

static bool scope_ok(struct ctx *c, const char *scope)
{
	return acct_require(c->w, c->rq->bearer, scope, c->rs);
}

static json_t *member_by_id(struct world *w, long id, size_t *idx)
{
	size_t i;
	json_t *m;
	json_array_foreach(w->acct->members, i, m)
		if ((long)jnum(m, "id", -1) == id) {
			if (idx)
				*idx = i;
			return m;
		}
	return NULL;
}

static json_t *role_named(struct world *w, const char *name)
{
	size_t i;
	json_t *r;
	json_array_foreach(w->roles, i, r)
		if (name && jstr(r, "name") && !strcmp(jstr(r, "name"), name))
			return r;
	return NULL;
}

/* The caller's (the account's own member's) first role. */
static const char *own_role(struct world *w)
{
	json_t *me = member_by_id(w, OWNER_ID, NULL);
	return json_string_value(json_array_get(json_object_get(me, "roles"), 0));
}

/* May the caller manage members: owner or manager, or a role granting
 * team_write. */
static bool manager_ok(struct ctx *c)
{
	const char *r = own_role(c->w);
	json_t *role = role_named(c->w, r);
	json_t *perm = json_object_get(json_object_get(role, "permissions"), "api");
	if (r && (!strcmp(r, "owner") || !strcmp(r, "manager") || json_object_get(perm, "team_write")))
		return true;
	char msg[160];
	snprintf(msg, sizeof msg, "Your team role (%s) does not allow managing team members", r ? r : "none");
	routes_error(c->rs, 401, "permission_denied", msg);
	return false;
}

static void msg_only(struct ctx *c, int status, const char *msg)
{
	ctx_reply(c, status, json_pack("{s:s}", "msg", msg));
}

static void h_team_members(struct ctx *c)
{
	if (scope_ok(c, "team_read"))
		ctx_reply(c, 200, json_deep_copy(c->w->acct->members));
}

static bool email_ok(const char *e)
{
	const char *at = e ? strchr(e, '@') : NULL;
	if (!at || at == e || !strchr(at, '.') || at[1] == '.' || strchr(at + 1, '@'))
		return false;
	for (const char *p = e; *p; p++)
		if (isspace((unsigned char)*p) || !isprint((unsigned char)*p))
			return false;
	return e[strlen(e) - 1] != '.';
}

static void h_team_invite(struct ctx *c)
{
	if (!scope_ok(c, "team_write") || !manager_ok(c))
		return;
	/* the docs send a JSON body, the CLI query parameters */
	char *qe = routes_query_param(c->rq->query, "email"), *qr = routes_query_param(c->rq->query, "role");
	const char *email = jstr(c->body, "email") ? jstr(c->body, "email") : qe;
	const char *role = jstr(c->body, "role") ? jstr(c->body, "role") : qr;
	struct acct *a = c->w->acct;
	char msg[256];
	if (!email || !role || !*role) {
		routes_error(c->rs, 400, "invalid_args", "email and role are required");
	} else if (!email_ok(email)) {
		routes_error(c->rs, 400, "invalid_args", "email is not a valid e-mail address");
	} else if (!role_named(c->w, role)) {
		snprintf(msg, sizeof msg, "Role %s does not exist in this team", role);
		routes_error(c->rs, 400, "invalid_args", msg);
	} else if (!strcasecmp(email, jstr(c->w->user, "email"))) {
		msg_only(c, 400, "User cannot be invited to their own team.");
	} else {
		size_t i;
		json_t *m;
		bool member = false;
		json_array_foreach(a->members, i, m)
			member |= !strcasecmp(jstr(m, "email"), email);
		double since = INFINITY;
		json_array_foreach(a->invites, i, m)
			if (!strcasecmp(jstr(m, "email"), email))
				since = c->rq->now - jnum(m, "sent_at", 0);
		if (member) {
			msg_only(c, 400, "User is already a member of this team.");
		} else if (since < INVITE_REPEAT) {
			snprintf(msg, sizeof msg, "Error: invitation already sent to %s only %.0f seconds ago.", email,
				 since);
			msg_only(c, 429, msg);
		} else {
			for (i = json_array_size(a->invites); i-- > 0;)
				if (!strcasecmp(jstr(json_array_get(a->invites, i), "email"), email))
					json_array_remove(a->invites, i);
			json_array_append_new(a->invites,
					      json_pack("{s:s,s:s,s:f,s:f}", "email", email, "role", role, "sent_at",
							c->rq->now, "accept_at",
							c->rq->now + INVITE_ACCEPT / c->w->opt.speed));
			snprintf(msg, sizeof msg, "New invitation sent to %s", email);
			ctx_reply(c, 200, json_pack("{s:b,s:s}", "success", 1, "msg", msg));
		}
	}
	free(qe);
	free(qr);
}

static void h_team_member_remove(struct ctx *c)
{
	if (!scope_ok(c, "team_write") || !manager_ok(c))
		return;
	size_t idx;
	json_t *m = c->id >= 0 ? member_by_id(c->w, c->id, &idx) : NULL;
	if (!m) {
		ctx_reply(c, 404, json_pack("{s:s,s:s}", "status", "failure", "message",
					    "No user was removed from the team."));
		return;
	}
	if (c->id == OWNER_ID) {
		msg_only(c, 400, "Cannot remove the team owner from the team");
		return;
	}
	json_array_remove(c->w->acct->members, idx);
	ctx_reply(c, 200, json_pack("{s:s,s:s}", "status", "success", "message", "User removed from the team."));
}

static void h_team_member_role(struct ctx *c)
{
	if (!scope_ok(c, "team_write") || !manager_ok(c))
		return;
	json_t *m = c->id >= 0 ? member_by_id(c->w, c->id, NULL) : NULL;
	const char *role = jstr(c->body, "role");
	if (!m) {
		routes_error(c->rs, 404, "not_found", "No such team member");
	} else if (!role || !role_named(c->w, role)) {
		routes_error(c->rs, 400, "invalid_args", "role (the name of one of the team's roles) is required");
	} else if (c->id == OWNER_ID || !strcmp(role, "owner")) {
		msg_only(c, 400, "The team owner's role cannot be changed");
	} else {
		json_object_set_new(m, "roles", json_pack("[s]", role));
		ctx_reply(c, 200, json_pack("{s:b,s:s}", "success", 1, "msg", "Member role updated."));
	}
}

static void h_audit_logs(struct ctx *c)
{
	if (scope_ok(c, "misc"))
		ctx_reply(c, 200, json_deep_copy(c->w->acct->audit));
}

static void h_transfer_credit(struct ctx *c)
{
	if (!scope_ok(c, "billing_write"))
		return;
	struct world *w = c->w;
	double amount;
	json_t *rj = json_object_get(c->body, "recipient");
	char rbuf[128] = "";
	if (json_is_string(rj))
		snprintf(rbuf, sizeof rbuf, "%s", json_string_value(rj));
	else if (json_is_integer(rj))
		snprintf(rbuf, sizeof rbuf, "%lld", (long long)json_integer_value(rj));
	if (!jnum_value(json_object_get(c->body, "amount"), &amount) || !(amount >= 0.01) || !isfinite(amount)) {
		routes_error(c->rs, 400, "invalid_args", "Invalid amount");
		return;
	}
	if (!rbuf[0]) {
		routes_error(c->rs, 400, "invalid_params", "recipient (an e-mail address or a user id) is required");
		return;
	}
	char *end;
	long rid = strtol(rbuf, &end, 10);
	bool by_id = end != rbuf && *end == '\0';
	if ((by_id && rid == OWNER_ID) || (!by_id && !strcasecmp(rbuf, jstr(w->user, "email")))) {
		routes_error(c->rs, 400, "invalid_recipient", "Cannot transfer credit to yourself");
		return;
	}
	json_t *to = NULL;
	size_t i;
	json_t *u;
	json_array_foreach(w->acct->users, i, u)
		if (by_id ? (long)jnum(u, "id", -1) == rid : !strcasecmp(jstr(u, "email"), rbuf))
			to = u;
	if (!to) {
		routes_error(c->rs, 400, "invalid_recipient", "No user with that e-mail address or id");
		return;
	}
	amount = round(amount * 100) / 100;
	if (amount > w->credit) {
		routes_error(c->rs, 400, "insufficient_balance", "Insufficient balance for this transfer");
		return;
	}
	world_set_credit(w, w->credit - amount);
	char desc[192];
	snprintf(desc, sizeof desc, "Transfer to %s", jstr(to, "email"));
	acct_invoice(w, c->rq->now, "transfer", jstr(to, "email"), "transfer", desc, amount);
	json_t *meta = json_object_get(json_array_get(w->acct->invoices, json_array_size(w->acct->invoices) - 1),
				       "metadata");
	json_object_set_new(meta, "sender", json_string(jstr(w->user, "email")));
	json_object_set_new(meta, "recipient", json_string(jstr(to, "email")));
	json_object_set(meta, "recipient_id", json_object_get(to, "id"));
	ctx_reply(c, 200, json_pack("{s:b}", "success", 1));
}

#define A SL_ANY
#define S SL_SLASH
#define B SL_BARE
const struct route routes_team[] = {
	{ "GET", "/api/v0/team/members", h_team_members, RL_NONE, 0, A, S },
	/* the docs write no slash, the CLI one */
	{ "DELETE", "/api/v0/team/members/{}", h_team_member_remove, RL_TEAM_MEMBER, R_WRITE, A, A },
	{ "PUT", "/api/v0/team/members/{}/roles", h_team_member_role, RL_NONE, R_WRITE, A, S },
	{ "POST", "/api/v0/team/invite", h_team_invite, RL_NONE, R_WRITE, A, S },
	{ "GET", "/api/v0/audit_logs", h_audit_logs, RL_NONE, 0, A, S },
	{ "PUT", "/api/v0/commands/transfer_credit", h_transfer_credit, RL_TRANSFER, R_WRITE, A, S },
	{ NULL, NULL, NULL, RL_NONE, 0, SL_NONE, SL_NONE },
};
#undef A
#undef S
#undef B
