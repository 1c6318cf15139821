/* acctteam.h: the team members and audit log of the account view: their
 * records and list kinds (jobs mappers: struct json_list), who may manage
 * members, and the counts a lost change's re-read compares.  Strings are
 * sanitised.  Pure; any thread (the mappers run on the poller thread). */
#ifndef RENTOP_ACCTTEAM_H
#define RENTOP_ACCTTEAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"

struct team_member {
	long id;
	char username[64];
	char email[128];
	char fullname[96];
	char role[64];      /* the first of its roles, "" when none */
};
/* GET /api/v0/team/members/: a bare list (or {"members"|"results":[...]})
 * of {id, username, email, fullname, roles: [names] or role}. */
void *acctteam_map_members(const json_t *root, struct api_error *e);

struct audit_row {
	double when;        /* epoch s, NAN when not sent */
	char who[128];      /* user_email, else "user N", else "key N" */
	char what[128];     /* api_route ("PUT /api/v0/instances/{}"), else the path */
	char args[200];     /* the arguments as compact JSON (as the service masked them) */
	char ip[64];
	long api_key_id;    /* 0: none (a 2FA session) */
};
/* GET /api/v0/audit_logs/: a bare list (or {"results"|"audit_logs":[...]}). */
void *acctteam_map_audit(const json_t *root, struct api_error *e);

/* May a member of role manage members (invite, change roles, remove)? The
 * service lets the owner and managers (a role granting team_write too:
 * role_perm, the role's permissions as JSON text, may be NULL). */
bool acctteam_can_manage(const char *role, const char *role_perm);
/* The member of the account (by user id, else e-mail); NULL when absent. */
const struct team_member *acctteam_me(const struct team_member *v, size_t n, long user_id,
				      const char *email);
/* Members with id (and, role not NULL, holding role). */
int acctteam_count(const struct team_member *v, size_t n, long id, const char *role);

#endif
