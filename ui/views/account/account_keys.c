/* account_keys.c: the account view's API keys section: id, name, scope
 * summary, team; create with the scope picker, the new key shown once in
 * its dialog (y copies it with OSC 52, w writes it to a new 0600 file);
 * delete, twice confirmed when it is the key rentop runs with (its value
 * fetched, compared in memory with the key in use, wiped).  The new key
 * lives in the mapper's value and this view's state while its dialog is
 * open (wiped when it closes); never a toast, the event log or --log.
 * UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_account.h"
#include "net/apierr.h"
#include "app.h"
#include "draw.h"
#include "layout.h"
#include "net/auth.h"
#include "rules/acct.h"
#include "flow/acctops.h"
#include "state/model.h"
#include "theme.h"
#include "base/util.h"
#include "views/account/account.h"

const struct api_key_rec *account_keys_selected(const struct acct_view *v)
{
	return pane_account_selected(v, SEC_APIKEYS);
}

void account_keys_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	char sum[160];
	const struct api_key_rec *k = &LIST_AT(v, L_APIKEYS, struct api_key_rec)[i];
	acct_rights_summary(k->rights, sum, sizeof sum);
	char team[24] = "-";
	if (k->team_id)
		snprintf(team, sizeof team, "%ld", k->team_id);
	snprintf(buf, n, "%-8ld %-24.24s %-10s %s", k->id, k->name ? k->name : "", team, sum);
}

static void list_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_keys_row(ctx, i, buf, n);
}

const struct list_ops account_keys_list = { .text = list_text };

/* Open the API key form: a name and the scope picker (full access first). */
void account_keys_open(struct acct_view *v)
{
	form_init(&v->fm, "Create API key");
	int k = form_add_text(&v->fm, "name", "Name", "", 64, true);
	if (k >= 0)
		v->fm.f[k].check = account_scope_check_name;
	account_scope_add(&v->fm, ACCT_CAT_ALL);
	account_scope_start(v);
	v->modal = MOD_KEY_CREATE;
}

/* Send the new key's name and scope; the answer opens the key's dialog. */
void account_keys_submit(struct app *a, struct acct_view *v)
{
	unsigned m = account_scope_mask(&v->fm);
	if (!m) {
		form_set_answer(&v->fm, "scope", "tick at least one category (or choose a preset)");
		return;
	}
	util_strlcpy(v->newkey_name, form_value(&v->fm, "name"), sizeof v->newkey_name);
	struct job_call c = { .action = true };
	/* every category: a full-access key, sent without permissions as the
	 * console does */
	c.call = api_apikey_create(a->cfg, v->newkey_name,
				   m == ACCT_CAT_ALL ? NULL : acct_scope_permissions(SCOPE_CUSTOM, m));
	c.map = acct_map_key_created;
	c.free_value = acct_map_key_free;
	snprintf(c.what, sizeof c.what, "create API key");
	account_change_send(a, v, &c, true);
}

/* The creation answered: the new key (a secret) into the key's dialog. */
void account_keys_created(struct acct_view *v, const struct call_result *r)
{
	const struct api_account_key *k = r->value;
	if (!k) { /* cannot happen: the mapper fails without a key */
		v->fm.waiting = false;
		form_set_answer(&v->fm, NULL, "the answer held no key");
		return;
	}
	memcpy(v->newkey, k->key, sizeof v->newkey);
	v->newkey_id = k->id;
	form_free(&v->fm);
	v->show_msg[0] = '\0';
	v->modal = MOD_KEY_SHOW;
}

/* w over the new key: ask for a new file to write it to. */
void account_keys_open_file(struct acct_view *v)
{
	char init[80];
	snprintf(init, sizeof init, "~/vast-api-key-%ld", v->newkey_id);
	form_init(&v->fm, "Write the new API key to a file");
	form_add_text(&v->fm, "file", "File (new, mode 0600)", init, 400, true);
	v->modal = MOD_KEY_FILE;
}

/* Write the new key to the file asked for (new, 0600); back to the key. */
void account_keys_submit_file(struct acct_view *v)
{
	char path[1024], err[600];
	if (!acctops_expand_path(form_value(&v->fm, "file"), getenv("HOME"), path, sizeof path)) {
		form_set_answer(&v->fm, "file", "give a file name");
		return;
	}
	if (!acctops_write_secret(path, v->newkey, err, sizeof err)) {
		form_set_answer(&v->fm, "file", err);
		return;
	}
	form_free(&v->fm);
	char *clean = util_sanitize(path);
	snprintf(v->show_msg, sizeof v->show_msg, "written to %s (mode 0600)", clean);
	free(clean);
	v->modal = MOD_KEY_SHOW;
}

/* Ask the service for the value of key id, to compare it with ours. */
static void start_own_check(struct app *a, struct acct_view *v, long id)
{
	struct job_call c = { 0 };
	c.call = api_apikey_show(a->cfg, id);
	c.map = acct_map_key_shown;
	c.free_value = acct_map_key_free;
	snprintf(c.what, sizeof c.what, "API key %ld (own-key check)", id);
	int rid = 0, rc = jobs_call(a->jobs, &c, &rid);
	v->own = rc == JOBS_OK ? OWN_PENDING : OWN_UNKNOWN;
	v->own_req = rc == JOBS_OK ? rid : 0;
	if (rc != JOBS_OK)
		util_strlcpy(v->own_why, jobs_strerror(rc), sizeof v->own_why);
}

/* d: the confirmation of a delete of the selected key, and the check
 * whether it is rentop's own. */
void account_keys_open_delete(struct app *a, struct acct_view *v)
{
	char text[512];
	const struct api_key_rec *k = account_keys_selected(v);
	if (!k)
		return;
	char sum[160];
	acct_rights_summary(k->rights, sum, sizeof sum);
	v->target_id = k->id;
	snprintf(text, sizeof text,
		 "Delete API key %ld \"%s\" (%s)? Every program and person using it loses "
		 "access at once.", k->id, k->name ? k->name : "", sum);
	dialog_confirm(&v->dlg, 0, 0, "Delete API key", text, "Delete");
	v->modal = MOD_KEY_DELETE;
	start_own_check(a, v, k->id);
}

/* The own-key check answered. */
void account_keys_own_done(struct app *a, struct acct_view *v, struct call_result *r)
{
	v->own_req = 0;
	const struct api_account_key *k = r->value;
	if (r->outcome == CALL_OK && k) {
		char tmp[API_ACCOUNT_KEY_MAX];
		memcpy(tmp, k->key, sizeof tmp);
		bool mine = a->auth && auth_redact(a->auth, tmp);
		explicit_bzero(tmp, sizeof tmp);
		v->own = mine ? OWN_YES : OWN_NO;
	} else {
		v->own = OWN_UNKNOWN;
		snprintf(v->own_why, sizeof v->own_why, "the service did not show it: %.150s",
			 r->err.msg[0] ? r->err.msg : "no answer");
	}
	if (v->modal == MOD_KEY_DELETE && v->dlg.waiting && !modal_call_pending(&v->call)) {
		/* Delete was pressed meanwhile: go on */
		v->dlg.waiting = false;
		v->dlg.error[0] = '\0';
		account_change_delete(a, v);
	}
}

/* The second confirmation of a delete of rentop's own key (or of a key
 * that may be it). */
void account_keys_own_confirm(struct acct_view *v)
{
	char text[512];
	if (v->own == OWN_YES)
		snprintf(text, sizeof text,
			 "API key %ld is the key rentop is running with. Once it is deleted every "
			 "refresh and action of rentop fails until you start it with another key. "
			 "Delete it anyway?", v->target_id);
	else
		snprintf(text, sizeof text,
			 "rentop could not tell whether it runs with API key %ld (%s). If it does, "
			 "every refresh and action fails once it is deleted, until you start rentop "
			 "with another key. Delete it anyway?", v->target_id, v->own_why);
	dialog_confirm(&v->dlg, 0, 0, v->own == OWN_YES ? "Delete rentop's own API key" : "Delete API key",
		       text, "Delete anyway");
	v->modal = MOD_KEY_DELETE_OWN;
}

/* The dialog that shows a new API key, this once. */
void account_keys_draw_show(struct app *a, struct acct_view *v)
{
	const struct layout *l = &a->lay;
	if (l->too_small)
		return;
	char intro[400], lines[8][256], keyl[8][256];
	char *name = util_sanitize(v->newkey_name);
	snprintf(intro, sizeof intro,
		 "API key %ld \"%s\" is created. Copy it now: rentop shows it only this once and "
		 "forgets it when this closes.", v->newkey_id, name);
	free(name);
	int want_w = 76;
	struct rect probe = layout_dialog(l, want_w, l->rows);
	int inner = probe.w - 4;
	int ni = draw_wrap(intro, inner, lines, 4);
	/* the key itself, cut into lines of the inner width (no word breaks) */
	int nk = 0;
	size_t len = strlen(v->newkey), step = inner > 8 ? (size_t)inner : 8;
	for (size_t off = 0; off < len && nk < 8; off += step, nk++)
		snprintf(keyl[nk], sizeof keyl[nk], "%.*s", (int)(len - off < step ? len - off : step),
			 v->newkey + off);
	char msgl[3][256];
	int nm = v->show_msg[0] ? draw_wrap(v->show_msg, inner, msgl, 2) : 0;
	int h = 2 + ni + 1 + nk + 1 + 1 + (nm ? nm + 1 : 0) + 2;
	struct rect r = layout_dialog(l, want_w, h);
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, "New API key (shown once)", bg);
	int y = r.y + 2, bottom = r.y + r.h - 1;
	for (int i = 0; i < ni && y < bottom; i++)
		draw_text(y++, r.x + 2, inner, lines[i], bg);
	y++;
	for (int i = 0; i < nk && y < bottom; i++)
		draw_text(y++, r.x + 2, inner, keyl[i], theme_attr(ROLE_INPUT));
	y++;
	if (y < bottom)
		draw_text(y++, r.x + 2, inner, "y copy (OSC 52)   w write to a new 0600 file   Enter close",
			  theme_attr(ROLE_KEY));
	if (nm && y + 1 < bottom) {
		y++;
		for (int i = 0; i < nm && y < bottom; i++)
			draw_text(y++, r.x + 2, inner, msgl[i], theme_attr(ROLE_OK));
	}
}

/* y, w, Enter over the new key's dialog. */
void account_keys_show_key(struct app *a, struct acct_view *v, int key)
{
	if (key == 'y') {
		app_copy(v->newkey);
		snprintf(v->show_msg, sizeof v->show_msg,
			 "sent to the terminal's clipboard (OSC 52; the terminal must allow it)");
	} else if (key == 'w') {
		account_keys_open_file(v);
	} else if (key == '\n' || key == 27 || key == 'q') {
		app_toast(a, ROLE_OK, 6, "API key %ld created; its value is forgotten",
			  v->newkey_id);
		pane_account_modal_close(v);
	}
}
