/* account.h: what the account view's files share (not for other views:
 * pane_account.h is the view's face).  The view is one state, struct
 * acct_view, and one file a section: pane_account.c the shell (section
 * bar, lists, keys, modal dispatch, subscriptions), account_overview.c,
 * account_env.c, account_keys.c (API keys), account_ssh.c, account_roles.c
 * (team roles), account_reports.c (machine reports), account_scope.c (the
 * scope picker of API keys and team roles) and account_change.c (a change
 * sent, its answer, a lost answer's re-read).  UI thread only. */
#ifndef RENTOP_UI_ACCOUNT_H
#define RENTOP_UI_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "flow/acct_map.h"
#include "flow/acctbill.h"
#include "json/json_list.h"
#include "poll/jobs.h"
#include "widgets/dialog.h"
#include "widgets/form.h"
#include "widgets/list.h"
#include "widgets/modal_call.h"

struct app;
struct call_result;
struct form_field;

#define ACCOUNT_CADENCE 30.0 /* s, the account lists' refresh */
#define ENV_REVEAL_S 10.0       /* s an env value revealed with v stays shown */
#define ENV_VALUE_MAX 4096      /* bytes of an env value shown */

enum section { SEC_OVERVIEW, SEC_ENV, SEC_APIKEYS, SEC_SSH, SEC_ROLES, SEC_REPORTS, SEC_TEAM,
	       SEC_AUDIT, SEC_BILLING, SEC__COUNT };

/* What the billing section's list shows (s cycles). */
enum bill_mode { BMODE_ROWS, BMODE_DAY, BMODE_WEEK, BMODE_INSTANCE, BMODE__COUNT };
#define BILL_DAYS_DEFAULT 14

/* The lists the subscriptions fetch (mapper values). */
enum list_kind { L_ENV, L_APIKEYS, L_SSH, L_ROLES, L_TFA, L_MEMBERS, L_AUDIT, L__COUNT };

/* The newest value of list k (a struct json_list of T, NULL: none yet). */
#define LIST(v, k) ((const struct json_list *)(v)->val[k])
#define LIST_AT(v, k, T) json_list_at(LIST(v, k), const T)

/* What the open form or confirmation is for. */
enum modal_kind { MOD_NONE, MOD_ENV_ADD, MOD_ENV_EDIT, MOD_ENV_DELETE, MOD_SSH_ADD,
		  MOD_SSH_DELETE, MOD_ROLE_CREATE, MOD_ROLE_EDIT, MOD_ROLE_DELETE, MOD_KEY_CREATE,
		  MOD_KEY_SHOW, MOD_KEY_FILE, MOD_KEY_DELETE, MOD_KEY_DELETE_OWN, MOD_MACHINE,
		  MOD_BILL_RANGE, MOD_MEMBER_INVITE, MOD_MEMBER_ROLE, MOD_MEMBER_REMOVE, MOD_TRANSFER,
		  MOD_TRANSFER_CONFIRM, MOD_PRICE_ANSWER };

/* Whether the API key about to be deleted is the one rentop runs with. */
enum own_key { OWN_PENDING, OWN_YES, OWN_NO, OWN_UNKNOWN };

#define PUB_MAX 10 /* ~/.ssh/ *.pub files offered */
#define ROLE_CHOICES_MAX 16 /* team roles offered by the member forms */

/* The view's private state. */
struct acct_view {
	enum section sec;
	struct list lst[SEC__COUNT]; /* each section's rows (the overview's unused) */
	int sub[L__COUNT];          /* subscription ids, 0 before the first show */
	void *val[L__COUNT];        /* the newest value of each list, NULL: none yet */
	char err[L__COUNT][160];    /* the last fetch failure, "" when none */
	long machine;               /* the reports' machine, 0: none chosen */
	int rep_sub;                /* its subscription, 0: none */
	struct json_list *rep;      /* its newest reports (struct machine_report), NULL: none yet */
	char rep_err[160];
	enum modal_kind modal;
	struct form fm;             /* the forms */
	struct dialog dlg;          /* the confirmations */
	char target[130];           /* the env var or role (name) the modal is about */
	long target_id;             /* the SSH key, API key or role the modal is about */
	char *orig_perm;            /* MOD_ROLE_EDIT: the role's permissions (JSON text) */
	int scope_prev;             /* scope picker: the choice and ... */
	unsigned mask_prev;         /* ... the ticked categories after the last key */
	char *pub[PUB_MAX + 1];     /* MOD_SSH_ADD's choices: "(paste)", then the ~/.ssh/ *.pub paths */
	int npub;
	struct modal_call call;     /* the action the open modal awaits */
	int lost_before;            /* the form's send: acct_lost_count over the list it went on */
	/* MOD_KEY_SHOW (and MOD_KEY_FILE over it): the new key (secret) */
	char newkey[API_ACCOUNT_KEY_MAX];
	long newkey_id;
	char newkey_name[130];
	char show_msg[300];         /* what y or w did */
	/* MOD_KEY_DELETE: is it rentop's own key? */
	enum own_key own;
	int own_req;                /* the key-show fetch awaited, 0: none */
	char own_why[200];          /* OWN_UNKNOWN: why */
	bool under_tfa;             /* the 2FA view (t) was open over this one */
	/* MOD_SSH_ADD: the key is already on the account: the dialog asking
	 * before sending it again (v->dlg over the form), and the answer */
	bool ssh_dup, ssh_dup_ok;
	/* v on an env var: its value read now (a secret, wiped when hidden) */
	int reveal_req;             /* the read awaited, 0: none */
	char reveal_key[130];       /* the var it is for */
	bool reveal_on;             /* reveal_val is shown on its row */
	size_t reveal_sel;          /* the row it was read for (list_selected) */
	double reveal_until;        /* util_mono() when it is hidden again */
	char reveal_val[ENV_VALUE_MAX + 1];
	/* the billing section (account_billing.c) */
	struct bill_fetch bf;       /* the fetch under way */
	bool bfetching;             /* bf is under way */
	int breq;                   /* its call awaited, 0: none */
	int bwant;                  /* days chosen, 0: the default */
	bool bhave;                 /* a fetch has ended (brows, berr) */
	struct bill_row *brows;     /* the rows of the last fetch, newest first */
	size_t bn;
	double blo;                 /* their range: the first day's start ... */
	int bdays;                  /* ... and the days */
	bool bold;                  /* the older invoices form was used */
	char berr[160];             /* the last fetch's failure, "" when none */
	long long *bday;            /* spend per day of the range ($/1000) */
	long long btotal;
	enum bill_mode bmode;
	struct bill_total *btot;    /* BMODE_WEEK, BMODE_INSTANCE: the totals */
	size_t nbtot;
	/* the member forms' role names (account_team.c) */
	char *role_choice[ROLE_CHOICES_MAX];
	int nrole_choice;
	/* a credit transfer (account_transfer.c) */
	char xfer_to[130];          /* the recipient, sanitised */
	double xfer_amount;         /* $, to the cent */
	int xfer_step;              /* 1, 2: the confirmation shown; 3: sent */
	double xfer_before;         /* the credit when it was sent, NAN: not known */
	bool xfer_lost_on;          /* a transfer's answer was lost: xfer_lost is said */
	double xfer_lost_at;        /* wall epoch of the loss */
	char xfer_lost[300];
	/* pending price increases (account_prices.c) */
	int price_sub;              /* the subscription, 0: none */
	bool price_accept;          /* MOD_PRICE_ANSWER: accept (else reject) */
};

/* ---- pane_account.c: the shell ---- */
/* The selected row of section s (list_selected), LIST_NONE when none. */
size_t pane_account_sel(const struct acct_view *v, enum section s);
/* Its record when s is the section shown (a struct env_var, ...), else NULL. */
const void *pane_account_selected(const struct acct_view *v, enum section s);
/* Close the open form or confirmation, wiping what it held. */
void pane_account_modal_close(struct acct_view *v);
/* Shown: re-fetch every list now; hidden: pause them. */
void pane_account_refresh(struct app *a, struct acct_view *v, bool visible);

/* ---- account_overview.c ---- */
void account_overview_draw(struct app *a, struct acct_view *v, int y, int x, int w, int ymax);

/* ---- account_env.c ---- */
extern const struct list_ops account_env_list;
const struct env_var *account_env_selected(const struct acct_view *v);
void account_env_row(const struct acct_view *v, size_t i, char *buf, size_t n);
void account_env_open(struct acct_view *v, bool edit);
void account_env_submit(struct app *a, struct acct_view *v);
void account_env_open_delete(struct acct_view *v);
void account_env_reveal_hide(struct app *a, struct acct_view *v);
void account_env_reveal_start(struct app *a, struct acct_view *v);
void account_env_reveal_done(struct app *a, struct acct_view *v, const struct call_result *r);
void account_env_reveal_check(struct app *a, struct acct_view *v);

/* ---- account_keys.c: API keys ---- */
extern const struct list_ops account_keys_list;
const struct api_key_rec *account_keys_selected(const struct acct_view *v);
void account_keys_row(const struct acct_view *v, size_t i, char *buf, size_t n);
void account_keys_open(struct acct_view *v);
void account_keys_submit(struct app *a, struct acct_view *v);
/* The creation answered (r OK): the new key's dialog. */
void account_keys_created(struct acct_view *v, const struct call_result *r);
void account_keys_open_file(struct acct_view *v);
void account_keys_submit_file(struct acct_view *v);
/* d: the confirmation, and the check whether the key is rentop's own. */
void account_keys_open_delete(struct app *a, struct acct_view *v);
void account_keys_own_done(struct app *a, struct acct_view *v, struct call_result *r);
void account_keys_own_confirm(struct acct_view *v);
void account_keys_draw_show(struct app *a, struct acct_view *v);
/* A key over the new key's dialog (MOD_KEY_SHOW). */
void account_keys_show_key(struct app *a, struct acct_view *v, int key);

/* ---- account_ssh.c ---- */
extern const struct list_ops account_ssh_list;
const struct ssh_key_rec *account_ssh_selected(const struct acct_view *v);
void account_ssh_row(const struct acct_view *v, size_t i, char *buf, size_t n);
void account_ssh_open(struct acct_view *v);
void account_ssh_submit(struct app *a, struct acct_view *v);
void account_ssh_open_delete(struct acct_view *v);
/* A key while the "already added" question is open (v->ssh_dup). */
void account_ssh_dup_key(struct app *a, struct acct_view *v, int key);

/* ---- account_roles.c: team roles ---- */
extern const struct list_ops account_roles_list;
const struct team_role *account_roles_selected(const struct acct_view *v);
void account_roles_row(const struct acct_view *v, size_t i, char *buf, size_t n);
void account_roles_open(struct acct_view *v, bool edit);
void account_roles_submit(struct app *a, struct acct_view *v);
void account_roles_open_delete(struct acct_view *v);

/* ---- account_reports.c: machine reports ---- */
extern const struct list_ops account_reports_list;
/* M's row (bound by pane_account_inst_keys). */
extern const struct action_row account_reports_m_row;
void account_reports_row(const struct acct_view *v, size_t i, char *buf, size_t n);
/* Show the reports of machine id (a new subscription) in their section. */
void account_reports_show(struct app *a, struct acct_view *v, long id);
void account_reports_open(struct acct_view *v);
void account_reports_submit(struct app *a, struct acct_view *v);
/* The line over the reports: the machine and how many. */
void account_reports_title(const struct acct_view *v, char *buf, size_t n);

/* ---- account_billing.c: invoices, charges, the daily spend chart ---- */
extern const struct list_ops account_billing_list;
void account_billing_row(const struct acct_view *v, size_t i, char *buf, size_t n);
const char *account_billing_head(const struct acct_view *v);
/* Fetch the last days days again (0: the days chosen before, or 14). */
void account_billing_fetch(struct app *a, struct acct_view *v, int days);
/* The awaited call answered: the fetch's next step.  False when none was. */
bool account_billing_result(struct app *a, struct acct_view *v);
void account_billing_mode(struct acct_view *v);
void account_billing_open_range(struct acct_view *v);
void account_billing_submit_range(struct app *a, struct acct_view *v);
int account_billing_draw_top(struct app *a, struct acct_view *v, int y, int x, int w, int ymax);
void account_billing_free(struct app *a, struct acct_view *v);

/* ---- account_team.c: team members and the audit log ---- */
extern const struct list_ops account_team_list;
extern const struct list_ops account_audit_list;
const struct team_member *account_team_selected(const struct acct_view *v);
void account_team_row(const struct acct_view *v, size_t i, char *buf, size_t n);
void account_audit_row(const struct acct_view *v, size_t i, char *buf, size_t n);
/* Why the account may not change members (into buf), NULL when it may. */
const char *account_team_why_not(const struct app *a, const struct acct_view *v, char *buf,
				 size_t n);
void account_team_title(const struct app *a, const struct acct_view *v, char *buf, size_t n);
void account_team_choices_free(struct acct_view *v);
const char *account_team_role_chosen(const struct acct_view *v);
void account_team_open_invite(struct app *a, struct acct_view *v);
void account_team_open_role(struct app *a, struct acct_view *v);
void account_team_submit(struct app *a, struct acct_view *v);
void account_team_open_remove(struct app *a, struct acct_view *v);

/* ---- account_transfer.c: a credit transfer ---- */
/* The form (recipient and amount prefilled when given); refused under --read-only. */
void account_transfer_open(struct app *a, struct acct_view *v, const char *to, const char *amount);
void account_transfer_submit(struct app *a, struct acct_view *v);
/* A confirmation's Enter: the second, then the request (once). */
void account_transfer_confirm(struct app *a, struct acct_view *v);
void account_transfer_done(struct app *a, struct acct_view *v, const struct call_result *r);
/* The lost transfer's line (xfer_lost_on) with the credit read again. */
void account_transfer_status(const struct app *a, const struct acct_view *v, char *buf, size_t n);

/* ---- account_prices.c: pending price increases ---- */
void account_prices_start(struct app *a, struct acct_view *v);
bool account_prices_take(struct app *a, struct acct_view *v);
void account_prices_stop(struct app *a, struct acct_view *v);
void account_prices_command(struct app *a, struct acct_view *v, const char *args);
/* ^'s row, price-answer (bound by pane_account_inst_keys). */
extern const struct action_row account_prices_row;
/* The question's answer (DLG_SUBMIT): sent once; on ^'s, Cancel closes it. */
void account_prices_send(struct app *a, struct acct_view *v);
void account_prices_done(struct app *a, struct acct_view *v, const struct call_result *r);

/* ---- account_scope.c: the scope picker (API keys, team roles) ---- */
void account_scope_add(struct form *fm, unsigned mask);
unsigned account_scope_mask(const struct form *fm);
void account_scope_sync(struct acct_view *v);
void account_scope_start(struct acct_view *v);
bool account_scope_check_name(const struct form_field *f, char *err, size_t n);

/* ---- account_change.c: a change sent and its answer ---- */
/* Queue an action; false (the reason in the open form or dialog) when refused. */
bool account_change_send(struct app *a, struct acct_view *v, struct job_call *c, bool form);
/* Send the confirmed delete. */
void account_change_delete(struct app *a, struct acct_view *v);
/* The awaited action finished. */
void account_change_done(struct app *a, struct acct_view *v, struct call_result *r);
/* List k was read again (r): a lost answer's verdict. */
void account_change_reread(struct app *a, struct acct_view *v, enum list_kind k,
			   const struct call_result *r);

#endif
