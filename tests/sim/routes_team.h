/* routes_team.h: the team's members, invitations, the audit log and
 * transfers of credit (docs show_team_members.yaml, invite_team_member.yaml,
 * remove_team_member.yaml, transfer_credit.yaml; CLI teams.py, auth.py
 * show_audit_logs).  Handlers for routes.c's table (routes_ext.h). */
#ifndef RENTOP_SIM_ROUTES_TEAM_H
#define RENTOP_SIM_ROUTES_TEAM_H

#include "routes_ext.h"

void h_team_members(struct ctx *c);      /* GET /api/v0/team/members/ */
void h_team_invite(struct ctx *c);       /* POST /api/v0/team/invite/ */
void h_team_member_remove(struct ctx *c); /* DELETE /api/v0/team/members/{id}/ */
void h_team_member_role(struct ctx *c);  /* PUT /api/v0/team/members/{id}/roles/ */
void h_audit_logs(struct ctx *c);        /* GET /api/v0/audit_logs/ */
void h_transfer_credit(struct ctx *c);   /* PUT /api/v0/commands/transfer_credit/ */

#endif
