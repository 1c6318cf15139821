/* pane_account.c: the account view (`5`, `:account`): the account side of
 * SPEC.md in sections, each a table: Overview (the user record, 2FA status
 * and key counts; never the user's api_key), Env vars (names, values masked
 * as the service masks them; add, edit, delete), API keys (id, name, scope
 * summary, team), SSH keys (type, comment, SHA256 fingerprint, created)
 * and Team roles (name, permission categories).
 *
 * Every list is a jobs_subscribe fetch at the account cadence (30 s) while
 * the view is shown, re-fetched at once after each change.  Changes are
 * at-most-once actions (jobs_call, action = true), AF_MUTATES: hidden and
 * refused under --read-only.  An env value is typed into a secret field
 * (C-r shows it), lives only in the form (wiped when it closes) and the
 * request body (wiped by api_call_free); it is never drawn after the form
 * closes: the list shows the service's mask.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acct.h"
#include "api_account.h"
#include "app.h"
#include "dialog.h"
#include "draw.h"
#include "form.h"
#include "jobs.h"
#include "sshkey.h"
#include "json_map.h"
#include "model.h"
#include "theme.h"
#include "util.h"
#include "view.h"

#define ACCOUNT_CADENCE 30.0 /* s, the account lists' refresh */

enum section { SEC_OVERVIEW, SEC_ENV, SEC_APIKEYS, SEC_SSH, SEC_ROLES, SEC__COUNT };

/* The lists the subscriptions fetch (mapper values). */
enum list_kind { L_ENV, L_APIKEYS, L_SSH, L_ROLES, L_TFA, L__COUNT };

struct env_list { struct env_var *v; size_t n; };
struct key_list { struct api_key_rec *v; size_t n; };
struct ssh_list { struct ssh_key_rec *v; size_t n; };
struct role_list { struct team_role *v; size_t n; };

/* What the open form or confirmation is for. */
enum modal_kind { MOD_NONE, MOD_ENV_ADD, MOD_ENV_EDIT, MOD_ENV_DELETE, MOD_SSH_ADD,
		  MOD_SSH_DELETE, MOD_ROLE_DELETE };

#define PUB_MAX 10 /* ~/.ssh/ *.pub files offered */

/* The view's private state. */
struct acct_view {
	enum section sec;
	size_t sel[SEC__COUNT];
	int sub[L__COUNT];          /* subscription ids, 0 before the first show */
	void *val[L__COUNT];        /* the newest value of each list, NULL: none yet */
	char err[L__COUNT][160];    /* the last fetch failure, "" when none */
	enum modal_kind modal;
	struct form fm;             /* MOD_ENV_ADD, MOD_ENV_EDIT */
	struct dialog dlg;          /* MOD_ENV_DELETE */
	char target[130];           /* the env var or role (name) the modal is about */
	long target_id;             /* the SSH key the modal is about */
	char *pub[PUB_MAX + 1];     /* MOD_SSH_ADD's choices: "(paste)", then the ~/.ssh/ *.pub paths */
	int npub;
	int action_id;              /* the action awaited, 0: none */
};

static const char *const sec_names[SEC__COUNT] = { "Overview", "Env vars", "API keys",
						   "SSH keys", "Team roles" };

/* ---- mappers (poller thread) ------------------------------------------------ */

static void *map_env(const json_t *root, struct api_error *e)
{
	struct env_list *l = xcalloc(1, sizeof *l);
	if (!json_map_env_vars(root, &l->v, &l->n)) {
		env_vars_free(l->v, l->n);
		free(l);
		apierr_protocol(e, 200, "env vars: unexpected answer");
		return NULL;
	}
	return l;
}

static void free_env(void *p)
{
	struct env_list *l = p;
	if (l)
		env_vars_free(l->v, l->n);
	free(l);
}

static void *map_keys(const json_t *root, struct api_error *e)
{
	struct key_list *l = xcalloc(1, sizeof *l);
	if (!json_map_api_keys(root, &l->v, &l->n)) {
		api_keys_free(l->v, l->n);
		free(l);
		apierr_protocol(e, 200, "API keys: unexpected answer");
		return NULL;
	}
	return l;
}

static void free_keys(void *p)
{
	struct key_list *l = p;
	if (l)
		api_keys_free(l->v, l->n);
	free(l);
}

static void *map_ssh(const json_t *root, struct api_error *e)
{
	struct ssh_list *l = xcalloc(1, sizeof *l);
	if (!api_ssh_keys(root, &l->v, &l->n)) {
		ssh_keys_free(l->v, l->n);
		free(l);
		apierr_protocol(e, 200, "SSH keys: unexpected answer");
		return NULL;
	}
	return l;
}

static void free_ssh(void *p)
{
	struct ssh_list *l = p;
	if (l)
		ssh_keys_free(l->v, l->n);
	free(l);
}

static void *map_roles(const json_t *root, struct api_error *e)
{
	struct role_list *l = xcalloc(1, sizeof *l);
	if (!api_team_roles(root, &l->v, &l->n)) {
		team_roles_free(l->v, l->n);
		free(l);
		apierr_protocol(e, 200, "team roles: unexpected answer");
		return NULL;
	}
	return l;
}

static void free_roles(void *p)
{
	struct role_list *l = p;
	if (l)
		team_roles_free(l->v, l->n);
	free(l);
}

static void *map_tfa(const json_t *root, struct api_error *e)
{
	struct tfa_status_rec *s = xcalloc(1, sizeof *s);
	if (!json_map_tfa_status(root, s)) {
		tfa_status_free(s);
		free(s);
		apierr_protocol(e, 200, "2FA status: unexpected answer");
		return NULL;
	}
	return s;
}

static void free_tfa(void *p)
{
	struct tfa_status_rec *s = p;
	if (s)
		tfa_status_free(s);
	free(s);
}

static void free_list(enum list_kind k, void *p)
{
	switch (k) {
	case L_ENV: free_env(p); break;
	case L_APIKEYS: free_keys(p); break;
	case L_SSH: free_ssh(p); break;
	case L_ROLES: free_roles(p); break;
	case L_TFA: free_tfa(p); break;
	case L__COUNT: break;
	}
}

/* ---- subscriptions ------------------------------------------------------------ */

/* Subscribe to every list (first show). */
static void subscribe_all(struct app *a, struct acct_view *v)
{
	for (int k = 0; k < L__COUNT; k++) {
		struct job_call c = { 0 };
		switch ((enum list_kind)k) {
		case L_ENV:
			c.call = api_env_list(a->cfg);
			c.map = map_env;
			c.free_value = free_env;
			snprintf(c.what, sizeof c.what, "env vars");
			break;
		case L_APIKEYS:
			c.call = api_apikeys_list(a->cfg);
			c.map = map_keys;
			c.free_value = free_keys;
			snprintf(c.what, sizeof c.what, "API keys");
			break;
		case L_SSH:
			c.call = api_ssh_list(a->cfg);
			c.map = map_ssh;
			c.free_value = free_ssh;
			snprintf(c.what, sizeof c.what, "SSH keys");
			break;
		case L_ROLES:
			c.call = api_roles_list(a->cfg);
			c.map = map_roles;
			c.free_value = free_roles;
			snprintf(c.what, sizeof c.what, "team roles");
			break;
		case L_TFA:
			c.call = api_tfa_status(a->cfg);
			c.map = map_tfa;
			c.free_value = free_tfa;
			snprintf(c.what, sizeof c.what, "2FA status");
			break;
		case L__COUNT:
			break;
		}
		int id = 0;
		if (jobs_subscribe(a->jobs, &c, ACCOUNT_CADENCE, true, &id) == JOBS_OK)
			v->sub[k] = id;
	}
}

/* Shown: re-fetch every list now (after a change, or on show; a hidden
 * subscription made visible is due at once); hidden: pause them. */
static void refresh_all(struct app *a, struct acct_view *v, bool visible)
{
	for (int k = 0; k < L__COUNT; k++) {
		if (!v->sub[k])
			continue;
		if (visible)
			jobs_set_visible(a->jobs, v->sub[k], false);
		jobs_set_visible(a->jobs, v->sub[k], visible);
	}
}

/* ---- rows --------------------------------------------------------------------- */

static size_t section_rows(const struct acct_view *v, enum section s)
{
	switch (s) {
	case SEC_OVERVIEW: return 0;
	case SEC_ENV: return v->val[L_ENV] ? ((struct env_list *)v->val[L_ENV])->n : 0;
	case SEC_APIKEYS: return v->val[L_APIKEYS] ? ((struct key_list *)v->val[L_APIKEYS])->n : 0;
	case SEC_SSH: return v->val[L_SSH] ? ((struct ssh_list *)v->val[L_SSH])->n : 0;
	case SEC_ROLES: return v->val[L_ROLES] ? ((struct role_list *)v->val[L_ROLES])->n : 0;
	case SEC__COUNT: return 0;
	}
	return 0;
}

static const struct env_var *env_selected(const struct acct_view *v)
{
	const struct env_list *l = v->val[L_ENV];
	if (v->sec != SEC_ENV || !l || v->sel[SEC_ENV] >= l->n)
		return NULL;
	return &l->v[v->sel[SEC_ENV]];
}

static const struct ssh_key_rec *ssh_selected(const struct acct_view *v)
{
	const struct ssh_list *l = v->val[L_SSH];
	if (v->sec != SEC_SSH || !l || v->sel[SEC_SSH] >= l->n)
		return NULL;
	return &l->v[v->sel[SEC_SSH]];
}

static const struct team_role *role_selected(const struct acct_view *v)
{
	const struct role_list *l = v->val[L_ROLES];
	if (v->sec != SEC_ROLES || !l || v->sel[SEC_ROLES] >= l->n)
		return NULL;
	return &l->v[v->sel[SEC_ROLES]];
}

static const void *acct_selected(const struct app *a, const void *st)
{
	(void)a;
	const struct acct_view *v = st;
	switch (v->sec) {
	case SEC_ENV: return env_selected(v);
	case SEC_SSH: return ssh_selected(v);
	case SEC_ROLES: return role_selected(v);
	case SEC_OVERVIEW:
	case SEC_APIKEYS:
	case SEC__COUNT:
		return NULL;
	}
	return NULL;
}

/* ---- drawing ------------------------------------------------------------------ */

/* The kv value of a user field (JSON text), or NULL. */
static const char *user_field(const struct user *u, const char *key)
{
	for (size_t i = 0; u && i < u->nfields; i++)
		if (strcmp(u->fields[i].key, key) == 0)
			return u->fields[i].value;
	return NULL;
}

static void draw_overview(struct app *a, struct acct_view *v, int y, int x, int w, int ymax)
{
	const struct user *u = a->snap ? a->snap->user : NULL;
	char line[12][200];
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
	const struct ssh_list *sl = v->val[L_SSH];
	if (sl)
		snprintf(line[n++], sizeof line[0], "SSH keys         %zu", sl->n);
	const struct env_list *el = v->val[L_ENV];
	if (el)
		snprintf(line[n++], sizeof line[0], "env vars         %zu", el->n);
	const struct key_list *kl = v->val[L_APIKEYS];
	if (kl)
		snprintf(line[n++], sizeof line[0], "API keys         %zu", kl->n);
	for (int i = 0; i < n && y < ymax; i++, y++) {
		draw_fill(y, x - 1, w + 1, theme_attr(ROLE_NORMAL));
		draw_text(y, x, w, line[i], theme_attr(ROLE_NORMAL));
	}
	for (; y < ymax; y++)
		draw_fill(y, x - 1, w + 1, theme_attr(ROLE_NORMAL));
}

/* One row's cells for section s, row i (sanitised text, fixed columns). */
static void row_cells(const struct acct_view *v, enum section s, size_t i, char *buf, size_t n)
{
	char when[32] = "-", sum[160];
	switch (s) {
	case SEC_ENV: {
		const struct env_var *e = &((struct env_list *)v->val[L_ENV])->v[i];
		snprintf(buf, n, "%-32.32s %s", e->key, e->value);
		break;
	}
	case SEC_APIKEYS: {
		const struct api_key_rec *k = &((struct key_list *)v->val[L_APIKEYS])->v[i];
		acct_rights_summary(k->rights, sum, sizeof sum);
		char team[24] = "-";
		if (k->team_id)
			snprintf(team, sizeof team, "%ld", k->team_id);
		snprintf(buf, n, "%-8ld %-24.24s %-10s %s", k->id, k->name ? k->name : "", team, sum);
		break;
	}
	case SEC_SSH: {
		const struct ssh_key_rec *k = &((struct ssh_list *)v->val[L_SSH])->v[i];
		if (isfinite(k->created_at)) {
			time_t t = (time_t)k->created_at;
			struct tm tm;
			gmtime_r(&t, &tm);
			strftime(when, sizeof when, "%Y-%m-%d", &tm);
		}
		snprintf(buf, n, "%-8ld %-12.12s %-20.20s %-11s %s", k->id,
			 k->type[0] ? k->type : "(not valid)", k->comment, when, k->fingerprint);
		break;
	}
	case SEC_ROLES: {
		const struct team_role *r = &((struct role_list *)v->val[L_ROLES])->v[i];
		snprintf(buf, n, "%-24.24s %s", r->name ? r->name : "", r->summary ? r->summary : "");
		break;
	}
	case SEC_OVERVIEW:
	case SEC__COUNT:
		buf[0] = '\0';
		break;
	}
}

static const char *section_head(enum section s)
{
	switch (s) {
	case SEC_ENV: return "NAME                             VALUE";
	case SEC_APIKEYS: return "ID       NAME                     TEAM       SCOPE";
	case SEC_SSH: return "ID       TYPE         COMMENT              CREATED     FINGERPRINT";
	case SEC_ROLES: return "NAME                     PERMISSIONS";
	case SEC_OVERVIEW:
	case SEC__COUNT:
		return "";
	}
	return "";
}

static enum list_kind section_list(enum section s)
{
	switch (s) {
	case SEC_ENV: return L_ENV;
	case SEC_APIKEYS: return L_APIKEYS;
	case SEC_SSH: return L_SSH;
	case SEC_ROLES: return L_ROLES;
	case SEC_OVERVIEW:
	case SEC__COUNT:
		return L_TFA;
	}
	return L_TFA;
}

static void acct_draw(struct app *a, void *st, const struct rect *r)
{
	struct acct_view *v = st;
	/* the section bar */
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_NORMAL));
	int x = r->x + 1;
	for (int s = 0; s < SEC__COUNT; s++) {
		char t[40];
		snprintf(t, sizeof t, " %s ", sec_names[s]);
		x += draw_text(r->y, x, r->x + r->w - x, t,
			       theme_attr(s == (int)v->sec ? ROLE_TAB_ACTIVE : ROLE_TAB)) + 1;
	}
	int y = r->y + 1, ymax = r->y + r->h;
	if (v->sec == SEC_OVERVIEW) {
		draw_overview(a, v, y, r->x + 1, r->w - 1, ymax);
		return;
	}
	draw_cell(y, r->x, r->w, section_head(v->sec), false, theme_attr(ROLE_COLHEAD));
	y++;
	size_t n = section_rows(v, v->sec);
	enum list_kind lk = section_list(v->sec);
	int h = ymax - y;
	if (n && v->sel[v->sec] >= n)
		v->sel[v->sec] = n - 1;
	size_t top = h > 0 && v->sel[v->sec] >= (size_t)h ? v->sel[v->sec] - (size_t)h + 1 : 0;
	for (size_t i = top; i < n && y < ymax; i++, y++) {
		char buf[400];
		row_cells(v, v->sec, i, buf, sizeof buf);
		bool sel = i == v->sel[v->sec];
		unsigned long attr = theme_attr(sel ? ROLE_SELECTION : ROLE_NORMAL);
		draw_fill(y, r->x, r->w, attr);
		draw_text(y, r->x + 1, r->w - 1, buf, attr);
	}
	for (int yy = y; yy < ymax; yy++)
		draw_fill(yy, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (!n && r->h > 2) {
		const char *msg = v->err[lk][0] ? v->err[lk] : !v->val[lk] ? "fetching..." : "none";
		draw_text(r->y + 2, r->x + 1, r->w - 1, msg,
			  theme_attr(v->err[lk][0] ? ROLE_ERROR : ROLE_DIM));
	}
}

/* ---- modals ------------------------------------------------------------------- */

static void modal_close(struct acct_view *v)
{
	form_free(&v->fm);
	dialog_close(&v->dlg);
	explicit_bzero(v->target, sizeof v->target);
	v->target_id = 0;
	for (int i = 0; i < v->npub; i++)
		free(v->pub[i]);
	v->npub = 0;
	v->modal = MOD_NONE;
	v->action_id = 0;
}

static bool check_env_name(const struct form_field *f, char *err, size_t n)
{
	if (api_env_name_valid(f->tb.s))
		return true;
	snprintf(err, n, "letters, digits and _, not starting with a digit (at most 128)");
	return false;
}

/* Open the add (edit: the selected var) form. */
static void open_env_form(struct acct_view *v, bool edit)
{
	const struct env_var *e = env_selected(v);
	if (edit && !e)
		return;
	form_init(&v->fm, edit ? "Edit env var" : "Add env var");
	int k = form_add_text(&v->fm, "key", "Name", edit ? e->key : "", 128, true);
	if (k >= 0)
		v->fm.f[k].check = check_env_name;
	form_add_secret(&v->fm, "value", "Value (C-r shows)", 4096, true);
	if (edit) {
		util_strlcpy(v->target, e->key, sizeof v->target);
		v->fm.focus = 1;
	}
	v->modal = edit ? MOD_ENV_EDIT : MOD_ENV_ADD;
}

static bool check_ssh_line(const struct form_field *f, char *err, size_t n)
{
	struct sshkey_info ki;
	if (!f->tb.s[0])
		return true; /* a file may be chosen instead */
	return sshkey_parse(f->tb.s, &ki, err, n);
}

/* Open the SSH key form: paste a line, or choose a .pub file of ~/.ssh. */
static void open_ssh_form(struct acct_view *v)
{
	form_init(&v->fm, "Add SSH key");
	v->pub[v->npub++] = xstrdup("(paste below)");
	const char *home = getenv("HOME");
	if (home && *home) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/.ssh", home);
		char **paths = NULL;
		size_t n = sshkey_list_pub(dir, &paths);
		for (size_t i = 0; i < n; i++) {
			if (v->npub <= PUB_MAX) {
				v->pub[v->npub++] = paths[i];
			} else {
				free(paths[i]);
			}
		}
		free(paths);
	}
	const char *ch[PUB_MAX + 1];
	for (int i = 0; i < v->npub; i++) { /* shown by file name */
		const char *slash = strrchr(v->pub[i], '/');
		ch[i] = slash ? slash + 1 : v->pub[i];
	}
	form_add_choice(&v->fm, "file", "Key file", ch, v->npub, v->npub > 1 ? 1 : 0);
	int k = form_add_text(&v->fm, "line", "Or paste the line", "", TEXTBUF_BYTES / 2, false);
	if (k >= 0)
		v->fm.f[k].check = check_ssh_line;
	v->modal = MOD_SSH_ADD;
}

/* Validate the chosen or pasted key and send it. */
static void submit_ssh(struct app *a, struct acct_view *v)
{
	char line[SSHKEY_LINE_MAX], err[200];
	const char *pasted = form_value(&v->fm, "line");
	int file = form_choice(&v->fm, "file");
	if (pasted[0]) {
		util_strlcpy(line, pasted, sizeof line);
	} else if (file > 0 && file < v->npub) {
		if (!sshkey_read_file(v->pub[file], line, sizeof line, err, sizeof err)) {
			form_set_answer(&v->fm, "file", err);
			return;
		}
	} else {
		form_set_answer(&v->fm, "line", "paste a public key line or choose a .pub file");
		return;
	}
	struct sshkey_info ki;
	if (!sshkey_parse(line, &ki, err, sizeof err)) {
		form_set_answer(&v->fm, pasted[0] ? "line" : "file", err);
		return;
	}
	struct job_call c = { .action = true };
	c.call = api_ssh_add(a->cfg, line);
	snprintf(c.what, sizeof c.what, "add SSH key");
	int id = 0, rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		form_set_answer(&v->fm, NULL, jobs_strerror(rc));
		return;
	}
	util_strlcpy(v->target, ki.fingerprint, sizeof v->target);
	v->action_id = id;
	v->fm.waiting = true;
}

/* Send the form's change as an at-most-once action. */
static void submit_env(struct app *a, struct acct_view *v)
{
	struct job_call c = { .action = true };
	const char *key = form_value(&v->fm, "key");
	const char *val = form_value(&v->fm, "value");
	if (v->modal == MOD_ENV_EDIT && strcmp(key, v->target) != 0) {
		form_set_answer(&v->fm, "key", "a var cannot be renamed: add a new one instead");
		return;
	}
	c.call = v->modal == MOD_ENV_ADD ? api_env_add(a->cfg, key, val)
					 : api_env_edit(a->cfg, key, val);
	snprintf(c.what, sizeof c.what, "%s env var", v->modal == MOD_ENV_ADD ? "add" : "edit");
	int id = 0, rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		form_set_answer(&v->fm, NULL, jobs_strerror(rc));
		return;
	}
	v->action_id = id;
	v->fm.waiting = true;
}

/* Send the confirmed delete. */
static void submit_delete(struct app *a, struct acct_view *v)
{
	struct job_call c = { .action = true };
	switch (v->modal) {
	case MOD_ENV_DELETE:
		c.call = api_env_delete(a->cfg, v->target);
		snprintf(c.what, sizeof c.what, "delete env var");
		break;
	case MOD_SSH_DELETE:
		c.call = api_ssh_delete(a->cfg, v->target_id);
		snprintf(c.what, sizeof c.what, "delete SSH key");
		break;
	case MOD_ROLE_DELETE:
		c.call = api_role_delete(a->cfg, v->target);
		snprintf(c.what, sizeof c.what, "delete team role");
		break;
	case MOD_NONE:
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
		return;
	}
	int id = 0, rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		snprintf(v->dlg.error, sizeof v->dlg.error, "%s", jobs_strerror(rc));
		return;
	}
	v->action_id = id;
	v->dlg.waiting = true;
}

static bool acct_modal_key(struct app *a, void *st, int key)
{
	struct acct_view *v = st;
	switch (v->modal) {
	case MOD_NONE:
		return false;
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD: {
		if (v->fm.waiting && key != 27)
			return true;
		enum form_result r = form_key(&v->fm, key);
		switch (r) {
		case FORM_CANCEL:
			if (v->action_id)
				model_drop_result(a->m, v->action_id);
			modal_close(v);
			break;
		case FORM_SUBMIT:
			if (v->modal == MOD_SSH_ADD)
				submit_ssh(a, v);
			else
				submit_env(a, v);
			break;
		case FORM_CONTINUE:
		case FORM_EDIT:
			break;
		}
		return true;
	}
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE: {
		if (v->dlg.waiting && key != 27)
			return true;
		enum dlg_result r = dialog_key(&v->dlg, key);
		switch (r) {
		case DLG_CANCEL:
			if (v->action_id)
				model_drop_result(a->m, v->action_id);
			modal_close(v);
			break;
		case DLG_SUBMIT: submit_delete(a, v); break;
		case DLG_CONTINUE: break;
		}
		return true;
	}
	}
	return false;
}

static bool acct_modal_draw(struct app *a, void *st)
{
	struct acct_view *v = st;
	switch (v->modal) {
	case MOD_NONE: return false;
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
	case MOD_SSH_ADD:
		form_draw(&v->fm, &a->lay);
		return !v->fm.waiting;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
		dialog_draw(&v->dlg, &a->lay);
		return false;
	}
	return false;
}

/* The awaited action finished: close on success (and re-fetch), keep the
 * modal open with the service's words otherwise. */
static void action_done(struct app *a, struct acct_view *v, struct call_result *r)
{
	char msg[400];
	bool ok = r->outcome == CALL_OK;
	if (r->outcome == CALL_UNKNOWN)
		snprintf(msg, sizeof msg, "the answer was lost: the change may have been made (%s)",
			 r->err.msg);
	else if (!ok)
		api_account_error_text(&r->err, msg, sizeof msg);
	v->action_id = 0;
	switch (v->modal) {
	case MOD_ENV_ADD:
	case MOD_ENV_EDIT:
		if (ok) {
			app_toast(a, ROLE_OK, 4, "env var %s %s", form_value(&v->fm, "key"),
				  v->modal == MOD_ENV_ADD ? "added" : "changed");
			modal_close(v);
		} else {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, msg);
		}
		break;
	case MOD_SSH_ADD:
		if (ok) {
			app_toast(a, ROLE_OK, 4, "SSH key %s added", v->target);
			modal_close(v);
		} else {
			v->fm.waiting = false;
			form_set_answer(&v->fm, NULL, msg);
		}
		break;
	case MOD_ENV_DELETE:
	case MOD_SSH_DELETE:
	case MOD_ROLE_DELETE:
		if (ok) {
			if (v->modal == MOD_SSH_DELETE)
				app_toast(a, ROLE_OK, 4, "SSH key %ld deleted", v->target_id);
			else
				app_toast(a, ROLE_OK, 4, "%s %s deleted",
					  v->modal == MOD_ENV_DELETE ? "env var" : "team role", v->target);
			modal_close(v);
		} else {
			v->dlg.waiting = false;
			util_strlcpy(v->dlg.error, msg, sizeof v->dlg.error);
		}
		break;
	case MOD_NONE:
		break;
	}
	refresh_all(a, v, true);
	a->dirty |= DIRTY_ALL;
}

/* ---- view callbacks ------------------------------------------------------------ */

static void acct_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct acct_view *v = st;
	bool changed = false;
	for (int k = 0; k < L__COUNT; k++) {
		struct call_result r;
		if (!v->sub[k] || !model_take_result(a->m, v->sub[k], &r))
			continue;
		if (r.outcome == CALL_OK && r.value) {
			free_list((enum list_kind)k, v->val[k]);
			v->val[k] = r.value;
			r.value = NULL;
			v->err[k][0] = '\0';
		} else if (r.outcome != CALL_OK) {
			util_strlcpy(v->err[k], r.err.msg, sizeof v->err[k]);
		}
		call_result_free(&r);
		changed = true;
	}
	struct call_result r;
	if (v->action_id && model_take_result(a->m, v->action_id, &r)) {
		action_done(a, v, &r);
		call_result_free(&r);
		changed = true;
	}
	if (changed && view_is(a, view_current(a), "account"))
		a->dirty |= DIRTY_BODY;
}

static void acct_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	struct acct_view *v = st;
	if (!v->sub[L_ENV])
		subscribe_all(a, v);
	else
		refresh_all(a, v, true);
}

static void acct_leave(struct app *a, void *st)
{
	refresh_all(a, st, false);
}

enum acct_act { AA_NEXT, AA_PREV, AA_ADD, AA_EDIT, AA_DELETE, AA__COUNT };
static enum action acts[AA__COUNT];

/* a, e, d in the current section. */
static void section_change(struct app *a, struct acct_view *v, enum action act)
{
	char text[400];
	bool add = act == acts[AA_ADD], edit = act == acts[AA_EDIT];
	switch (v->sec) {
	case SEC_ENV: {
		if (add || edit) {
			open_env_form(v, edit);
			return;
		}
		const struct env_var *e = env_selected(v);
		if (!e)
			return;
		util_strlcpy(v->target, e->key, sizeof v->target);
		snprintf(text, sizeof text,
			 "Delete the env var %s? New instances will no longer get it.", e->key);
		dialog_confirm(&v->dlg, 0, 0, "Delete env var", text, "Delete");
		v->modal = MOD_ENV_DELETE;
		return;
	}
	case SEC_SSH: {
		if (add) {
			open_ssh_form(v);
			return;
		}
		const struct ssh_key_rec *k = ssh_selected(v);
		if (edit || !k)
			break;
		v->target_id = k->id;
		snprintf(text, sizeof text,
			 "Delete SSH key %ld (%s %s)? Instances created after this will not accept it.",
			 k->id, k->type[0] ? k->type : "?", k->fingerprint);
		dialog_confirm(&v->dlg, 0, 0, "Delete SSH key", text, "Delete");
		v->modal = MOD_SSH_DELETE;
		return;
	}
	case SEC_ROLES: {
		const struct team_role *r = role_selected(v);
		if (add || edit || !r || !r->name)
			break;
		util_strlcpy(v->target, r->name, sizeof v->target);
		snprintf(text, sizeof text,
			 "Delete the team role %s? Members holding it lose its permissions.",
			 r->name);
		dialog_confirm(&v->dlg, 0, 0, "Delete team role", text, "Delete");
		v->modal = MOD_ROLE_DELETE;
		return;
	}
	case SEC_OVERVIEW:
	case SEC_APIKEYS:
	case SEC__COUNT:
		break;
	}
	app_toast(a, ROLE_WARNING, 4, "%s: not in the %s section (use the web console or the CLI)",
		  action_name(act), sec_names[v->sec]);
}

static bool acct_action(struct app *a, void *st, enum action act)
{
	struct acct_view *v = st;
	size_t n = section_rows(v, v->sec);
	size_t page = a->lay.body.h > 3 ? (size_t)a->lay.body.h - 3 : 1;
	size_t *sel = &v->sel[v->sec];
	if (act == acts[AA_NEXT] || act == acts[AA_PREV]) {
		int d = act == acts[AA_NEXT] ? 1 : SEC__COUNT - 1;
		v->sec = (enum section)(((int)v->sec + d) % SEC__COUNT);
	} else if (act == acts[AA_ADD] || act == acts[AA_EDIT] || act == acts[AA_DELETE]) {
		section_change(a, v, act);
	} else if (!action_builtin(act)) { /* another registered action: its run handles it */
		return false;
	} else {
		switch (act) {
		case ACT_UP: if (*sel) (*sel)--; break;
		case ACT_DOWN: if (*sel + 1 < n) (*sel)++; break;
		case ACT_PAGE_UP: *sel = *sel > page ? *sel - page : 0; break;
		case ACT_PAGE_DOWN: *sel = *sel + page < n ? *sel + page : (n ? n - 1 : 0); break;
		case ACT_TOP: *sel = 0; break;
		case ACT_BOTTOM: *sel = n ? n - 1 : 0; break;
		case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
		case ACT_PAUSE: case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
		case ACT_NEXT_VIEW: case ACT_BACK: case ACT_SORT_PREV: case ACT_SORT_NEXT:
		case ACT_SORT_INVERT:
			return false;
		}
	}
	a->dirty |= DIRTY_ALL;
	return true;
}

static void acct_keys(struct keymap *km, int ctx)
{
	static const struct action_def defs[AA__COUNT] = {
		[AA_NEXT] = { .name = "account-next", .help = "next account section",
			      .hint = "section", .flags = AF_HINT },
		[AA_PREV] = { .name = "account-prev", .help = "previous account section" },
		[AA_ADD] = { .name = "account-add", .help = "add an env var or an SSH key (in its section)", .hint = "add",
			     .flags = AF_MUTATES | AF_HINT },
		[AA_EDIT] = { .name = "account-edit", .help = "change the selected env var's value",
			      .hint = "edit", .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL },
		[AA_DELETE] = { .name = "account-delete", .help = "delete the selected env var, SSH key or team role (confirm)",
				.hint = "delete", .flags = AF_MUTATES | AF_HINT | AF_NEEDS_SEL },
	};
	static const char *const keys[AA__COUNT] = { "]", "[", "a", "e", "d" };
	for (int i = 0; i < AA__COUNT; i++) {
		acts[i] = action_register(&defs[i]);
		action_allow(acts[i], ctx);
		keymap_default(km, ctx, keys[i], acts[i]);
	}
}

static void *acct_init(struct app *a)
{
	(void)a;
	return xcalloc(1, sizeof(struct acct_view));
}

static void acct_fini(struct app *a, void *st)
{
	struct acct_view *v = st;
	modal_close(v);
	for (int k = 0; k < L__COUNT; k++) {
		if (v->sub[k])
			jobs_unsubscribe(a->jobs, v->sub[k]);
		free_list((enum list_kind)k, v->val[k]);
	}
	free(v);
}

const struct view_ops view_account = {
	.name = "account",
	.title = "Account",
	.heading = "Account view",
	.number_key = '5',
	.ctx_flags = CTXF_LIST,
	.keys = acct_keys,
	.init = acct_init,
	.fini = acct_fini,
	.enter = acct_enter,
	.leave = acct_leave,
	.on_snapshot = acct_snapshot,
	.draw = acct_draw,
	.action = acct_action,
	.selected_row = acct_selected,
	.modal_key = acct_modal_key,
	.modal_draw = acct_modal_draw,
};
