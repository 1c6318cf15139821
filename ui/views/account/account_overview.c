/* account_overview.c: the account view's overview section: the user
 * record (never its api_key), burn rate and runway as the header says
 * them, 2FA status and key counts; below, burn and credit over the
 * session and the runway forecast (account_money.c).  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "header.h"
#include "flow/tfaflow.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "views/account/account.h"
#include "views/account/account_money.h"

/* The kv value of a user field (JSON text), or NULL. */
static const char *user_field(const struct user *u, const char *key)
{
	for (size_t i = 0; u && i < u->nfields; i++)
		if (strcmp(u->fields[i].key, key) == 0)
			return u->fields[i].value;
	return NULL;
}

void account_overview_draw(struct app *a, struct acct_view *v, int y, int x, int w, int ymax)
{
	const struct user *u = a->snap ? a->snap->user : NULL;
	char line[14][200];
	int n = 0;
	if (!u) {
		snprintf(line[n++], sizeof line[0], "account: not fetched yet");
	} else {
		char *em = util_sanitize(u->email ? u->email : "");
		char *un = util_sanitize(u->username ? u->username : "");
		snprintf(line[n++], sizeof line[0], "email            %s", em);
		snprintf(line[n++], sizeof line[0], "username         %s", un);
		free(em);
		free(un);
		snprintf(line[n++], sizeof line[0], "credit           $%.2f", u->credit);
		if (isfinite(u->balance))
			snprintf(line[n++], sizeof line[0], "balance          $%.2f", u->balance);
		else
			snprintf(line[n++], sizeof line[0], "balance          -");
		/* burn and runway as the header says them (the partial-figures rule) */
		double burn;
		char b1[32], b2[32];
		const char *ge = a->cfg->ascii ? ">=" : "\u2265", *le = a->cfg->ascii ? "<=" : "\u2264";
		double runway_h;
		enum figure_kind fig = header_money(a->snap, &burn, &runway_h);
		switch (fig) {
		case FIG_EXACT:
		case FIG_AT_LEAST: {
			bool part = fig == FIG_AT_LEAST;
			snprintf(line[n++], sizeof line[0], "burn rate        %s%s", part ? ge : "",
				 fmt_rate(b1, sizeof b1, burn));
			snprintf(line[n++], sizeof line[0], "runway           %s%s",
				 part && u->credit > 0 ? le : "",
				 header_runway(runway_h, a->cfg->ascii, b2, sizeof b2));
			break;
		}
		case FIG_UNKNOWN:
			snprintf(line[n++], sizeof line[0], "burn rate        (instances still arriving)");
			break;
		}
		const char *ev = user_field(u, "email_verified");
		snprintf(line[n++], sizeof line[0], "email verified   %s",
			 !ev ? "-" : strcmp(ev, "true") == 0 ? "yes" : "no");
	}
	const struct tfa_status_rec *t = v->val[L_TFA];
	if (t)
		snprintf(line[n++], sizeof line[0], "2FA              %s, %zu method%s, %d backup code%s left",
			 t->tfa_enabled ? "on" : "off", t->nmethods, t->nmethods == 1 ? "" : "s",
			 t->backup_codes_remaining, t->backup_codes_remaining == 1 ? "" : "s");
	else
		snprintf(line[n++], sizeof line[0], "2FA              %s",
			 v->err[L_TFA][0] ? v->err[L_TFA] : "fetching...");
	if (LIST(v, L_SSH))
		snprintf(line[n++], sizeof line[0], "SSH keys         %zu", LIST(v, L_SSH)->n);
	if (LIST(v, L_ENV))
		snprintf(line[n++], sizeof line[0], "env vars         %zu", LIST(v, L_ENV)->n);
	if (LIST(v, L_APIKEYS))
		snprintf(line[n++], sizeof line[0], "API keys         %zu", LIST(v, L_APIKEYS)->n);
	for (int i = 0; i < n && y < ymax; i++, y++) {
		draw_fill(y, x - 1, w + 1, theme_attr(ROLE_NORMAL));
		draw_text(y, x, w, line[i], theme_attr(ROLE_NORMAL));
	}
	y += account_money_draw(a, y, x, w, ymax - y); /* burn, credit, forecast */
	for (; y < ymax; y++)
		draw_fill(y, x - 1, w + 1, theme_attr(ROLE_NORMAL));
}
