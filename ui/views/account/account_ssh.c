/* account_ssh.c: the account view's SSH keys section: type, comment,
 * SHA256 fingerprint, created; add (paste a line or choose a ~/.ssh/ .pub file),
 * asking first when the key is already listed; delete.  UI thread only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_account.h"
#include "app.h"
#include "flow/acctops.h"
#include "rules/sshkey.h"
#include "base/util.h"
#include "views/account/account.h"

const struct ssh_key_rec *account_ssh_selected(const struct acct_view *v)
{
	return pane_account_selected(v, SEC_SSH);
}

void account_ssh_row(const struct acct_view *v, size_t i, char *buf, size_t n)
{
	char when[64] = "-";
	const struct ssh_key_rec *k = &LIST_AT(v, L_SSH, struct ssh_key_rec)[i];
	if (isfinite(k->created_at)) {
		time_t t = (time_t)k->created_at;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%Y-%m-%d", &tm);
	}
	snprintf(buf, n, "%-8ld %-12.12s %-20.20s %-11s %s", k->id,
		 k->type[0] ? k->type : "(not valid)", k->comment, when, k->fingerprint);
}

static void list_text(const void *ctx, size_t i, char *buf, size_t n)
{
	account_ssh_row(ctx, i, buf, n);
}

const struct list_ops account_ssh_list = { .text = list_text };

static bool check_ssh_line(const struct form_field *f, char *err, size_t n)
{
	struct sshkey_info ki;
	if (!f->tb.s[0])
		return true; /* a file may be chosen instead */
	return sshkey_parse(f->tb.s, &ki, err, n);
}

/* Open the SSH key form: paste a line, or choose a .pub file of ~/.ssh. */
void account_ssh_open(struct acct_view *v)
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
void account_ssh_submit(struct app *a, struct acct_view *v)
{
	char line[SSHKEY_LINE_MAX], err[200];
	int file = form_choice(&v->fm, "file");
	const char *field;
	struct sshkey_info ki;
	if (!sshkey_from_input(form_value(&v->fm, "line"), file > 0 && file < v->npub ? v->pub[file] : NULL,
			       line, sizeof line, &ki, err, sizeof err, &field)) {
		form_set_answer(&v->fm, field, err);
		return;
	}
	const struct json_list *sl = LIST(v, L_SSH);
	const struct ssh_key_rec *dup =
		sl && !v->ssh_dup_ok ? acctops_ssh_duplicate(sl->v, sl->n, ki.fingerprint, line) : NULL;
	v->ssh_dup_ok = false;
	if (dup) { /* ask first, starting on Cancel */
		char text[512];
		snprintf(text, sizeof text, "This key (%s) is already on the account as SSH key %ld%s%s%s. "
			 "Add it again?", ki.fingerprint, dup->id, dup->comment[0] ? " (" : "",
			 dup->comment, dup->comment[0] ? ")" : "");
		dialog_confirm(&v->dlg, 0, dup->id, "SSH key already added", text, "Add again");
		v->ssh_dup = true;
		return;
	}
	struct job_call c = { .action = true };
	c.call = api_ssh_add(a->cfg, line);
	snprintf(c.what, sizeof c.what, "add SSH key");
	if (account_change_send(a, v, &c, true))
		util_strlcpy(v->target, ki.fingerprint, sizeof v->target);
}

/* A key while the question "already added: add again?" is open: sent
 * again only on "Add again". */
void account_ssh_dup_key(struct app *a, struct acct_view *v, int key)
{
	enum dlg_result dr = dialog_key(&v->dlg, key);
	if (dr == DLG_CONTINUE)
		return;
	v->ssh_dup = false;
	long id = v->dlg.instance_id;
	dialog_close(&v->dlg);
	if (dr == DLG_SUBMIT) {
		v->ssh_dup_ok = true;
		account_ssh_submit(a, v);
	} else {
		char msg[120];
		snprintf(msg, sizeof msg, "not sent: the key is already there as SSH key %ld", id);
		form_set_answer(&v->fm, NULL, msg);
	}
}

/* d: the confirmation of a delete of the selected key. */
void account_ssh_open_delete(struct acct_view *v)
{
	char text[512];
	const struct ssh_key_rec *k = account_ssh_selected(v);
	if (!k)
		return;
	v->target_id = k->id;
	snprintf(text, sizeof text,
		 "Delete SSH key %ld (%s %s)? Instances created after this will not accept it.",
		 k->id, k->type[0] ? k->type : "?", k->fingerprint);
	dialog_confirm(&v->dlg, 0, 0, "Delete SSH key", text, "Delete");
	v->modal = MOD_SSH_DELETE;
}
