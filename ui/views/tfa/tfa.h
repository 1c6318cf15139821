/* tfa.h: what the 2FA view's files share (not for other views).  The view
 * is one state, struct tfa_view, and one file a flow: tfa.c the shell (the
 * status and the methods list, keys, modal dispatch, the awaited call and
 * its result's dispatch, login), tfa_verify.c (a code from a method or a
 * backup code, for an authorization, a regeneration, a removal or a
 * login), tfa_add.c (adding a method: the entry and what TOTP and SMS
 * share), tfa_totp.c (the QR code and the confirmation), tfa_sms.c (a
 * phone), tfa_email.c (the email code that authorizes the first method),
 * tfa_codes.c (backup codes shown once) and tfa_manage.c (a method's
 * label and primary flag, its removal, a lost regeneration's or removal's
 * re-read).  UI thread only. */
#ifndef RENTOP_UI_TFA_H
#define RENTOP_UI_TFA_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api_account.h"
#include "flow/tfa_map.h"
#include "layout.h"
#include "flow/tfaflow.h"
#include "poll/jobs.h"
#include "widgets/dialog.h"
#include "widgets/form.h"
#include "widgets/list.h"
#include "widgets/modal_call.h"
#include "widgets/qr.h"

struct app;
struct call_result;
struct form_field;

#define TFA_CADENCE 30.0 /* s, the status refresh while shown */

/* The dialog open over the status. */
enum step {
	ST_NONE,
	ST_VERIFY,     /* form: a code from a method or a backup code, for `purpose` */
	ST_QR,         /* the QR code and the secret of a new TOTP method */
	ST_CONFIRM,    /* form: the authenticator's current code and a label */
	ST_BACKUP,     /* the backup codes, shown once */
	ST_REMOVE_ASK, /* confirmation (starts on Cancel) before removing a method */
	ST_UPDATE,     /* form: label and primary */
	ST_SMS,        /* form: phone, label, then the code sent by SMS */
	ST_EMAIL,      /* form: the code sent to the account's email (no method yet) */
};

/* What a verification is for. */
enum purpose { VP_AUTHORIZE, VP_REGEN, VP_REMOVE, VP_LOGIN };

/* What the awaited call is. */
enum callk {
	CK_NONE,
	CK_SETUP,       /* totp-setup */
	CK_AUTH_START,  /* authorize-new-method step 1 */
	CK_AUTH_FINISH, /* authorize-new-method step 2 */
	CK_SMS_CODE,    /* an SMS code to verify with an SMS method */
	CK_CONFIRM,     /* confirm-new */
	CK_REGEN,       /* regen-backup-codes */
	CK_REMOVE,      /* DELETE tfa */
	CK_LOGIN,       /* POST tfa */
	CK_UPDATE,      /* tfa/update */
	CK_SMS_NEW,     /* an SMS code to a new phone */
	CK_SMS_RESEND,  /* resend it */
	CK_EMAIL_START, /* authorize-new-method step 1, forced to email (no method yet) */
	CK_EMAIL_SEND,  /* POST tfa/email/ {secret}: the code of that challenge */
};

/* What comes after the authorization. */
enum after { AFTER_TOTP, AFTER_SMS };

/* The view's state. */
struct tfa_view {
	int sub;                        /* the status subscription, 0 before the first show */
	struct tfa_status_rec *st;      /* the newest status, NULL: none yet */
	char err[300];                  /* the last status failure */
	struct list lst;                /* the method rows (the list widget moves and filters them) */
	bool shown;
	double authorized_at;           /* wall epoch this session opened the window, 0: not */

	enum step step;
	enum purpose purpose;
	enum after after;
	struct form fm;
	struct dialog dlg;
	struct modal_call call;         /* the awaited call */
	enum callk callk;
	long target;                    /* the method a step is about */
	char target_text[80];
	struct tfaflow_choice ch[TFAFLOW_MAX_CHOICES];
	int nch;
	const char *chp[TFAFLOW_MAX_CHOICES];

	/* secrets of the flow (flow_end wipes them) */
	struct tfa_verify pending;      /* the verification of a two-call step */
	char challenge[160];            /* the challenge secret of the verifying SMS method */
	long challenge_for;             /* the method it was sent for */
	char totp_secret[160];
	char totp_uri[768];
	struct qr_text qr;
	char qr_err[160];
	struct tfa_backup_codes codes;
	bool codes_first;               /* the codes of the first method (2FA just turned on) */
	char codes_note[1400];           /* "written to ..." */
	char sms_phone[32];
	char sms_label[64];
	int email_sends;                /* ST_EMAIL: codes the service said it sent */
	double sent_at;                 /* util_mono() of the last SMS/email code sent, 0: none */
	bool busy;                      /* ST_QR: the set-up call is awaited */
	double tick_at;                 /* util_mono() of the next countdown redraw, 0: none */
	int regen_before;               /* VP_REGEN sent: tfaflow_regen_count before it */
};

/* ---- tfa.c: the shell ---- */
/* Information (a code was sent, what to type) in the form's note. */
void tfa_info(struct form *fm, const char *field, const char *msg);
/* Read the status again now (while shown). */
void tfa_refresh(struct app *a, struct tfa_view *v);
/* Close whatever dialog is open and wipe every secret of the flow. */
void tfa_flow_end(struct app *a, struct tfa_view *v);
/* Queue call (what: for messages); the call id or 0 with a message in err. */
int tfa_send(struct app *a, struct tfa_view *v, enum callk k, struct api_call call,
	     jobs_map_fn map, const char *what, char *err, size_t n);
/* The form's answer after a failed step, the code field emptied. */
void tfa_form_failed(struct tfa_view *v, const char *msg);
bool tfa_window_open(const struct tfa_view *v, double now);
const struct tfa_method_rec *tfa_selected_method(const struct tfa_view *v);
/* A dialog box of (at most) want_w x want_h centred over the screen, or
 * at r; its inner rect.  Lines of s wrapped into in from *y. */
struct rect tfa_box(const struct app *a, int want_w, int want_h, const char *title);
struct rect tfa_box_at(struct rect r, const char *title);
void tfa_draw_lines(const struct rect *in, int *y, const char *s, unsigned long attr);

/* ---- tfa_verify.c ---- */
void tfa_verify_open(struct app *a, struct tfa_view *v, enum purpose p);
void tfa_verify_submit(struct app *a, struct tfa_view *v);
/* The window is open: on to the method being added. */
void tfa_verify_authorized(struct app *a, struct tfa_view *v);
/* The locked method's live countdown in the form's answer. */
void tfa_verify_lock_line(struct tfa_view *v);
/* An authorization's step (CK_AUTH_START, CK_AUTH_FINISH) or an SMS code
 * to verify with (CK_SMS_CODE) answered. */
void tfa_verify_done(struct app *a, struct tfa_view *v, enum callk k,
		     const struct api_tfa_answer *ans);

/* ---- tfa_add.c ---- */
/* a or s: add a method (authorize first when needed). */
void tfa_add_method(struct app *a, struct tfa_view *v, enum after what);
bool tfa_add_check_code6(const struct form_field *f, char *err, size_t n);
bool tfa_add_check_label(const struct form_field *f, char *err, size_t n);
void tfa_add_digits(const char *s, char out[8]);
/* The line for a refused send in the SMS or email form ("" for other failures). */
void tfa_add_refused_text(const struct tfa_view *v, const struct tfa_error *te, char *buf,
			  size_t n);
/* confirm-new answered: the method is added (the first: its backup codes). */
void tfa_add_confirmed(struct app *a, struct tfa_view *v, const struct api_tfa_answer *ans);

/* ---- tfa_totp.c ---- */
void tfa_totp_start(struct app *a, struct tfa_view *v);
void tfa_totp_setup_done(struct tfa_view *v, const struct api_tfa_answer *ans);
void tfa_totp_open_confirm(struct tfa_view *v);
void tfa_totp_submit_confirm(struct app *a, struct tfa_view *v);
void tfa_totp_draw_qr(struct app *a, struct tfa_view *v);
void tfa_totp_qr_key(struct app *a, struct tfa_view *v, int key);

/* ---- tfa_sms.c ---- */
void tfa_sms_open(struct tfa_view *v);
void tfa_sms_submit(struct app *a, struct tfa_view *v, bool resend);
void tfa_sms_done(struct tfa_view *v, enum callk k, const struct api_tfa_answer *ans);

/* ---- tfa_email.c ---- */
void tfa_email_open(struct app *a, struct tfa_view *v);
void tfa_email_submit(struct app *a, struct tfa_view *v, bool resend);
void tfa_email_done(struct app *a, struct tfa_view *v, enum callk k,
		    const struct api_tfa_answer *ans);

/* ---- tfa_codes.c ---- */
void tfa_codes_show(struct app *a, struct tfa_view *v, const struct tfa_backup_codes *c,
		    bool first);
void tfa_codes_draw(struct app *a, struct tfa_view *v);
void tfa_codes_key(struct app *a, struct tfa_view *v, int key);
void tfa_codes_regen_done(struct app *a, struct tfa_view *v, const struct api_tfa_answer *ans);

/* ---- tfa_manage.c ---- */
void tfa_manage_open_update(struct tfa_view *v, const struct tfa_method_rec *m);
void tfa_manage_submit_update(struct app *a, struct tfa_view *v);
void tfa_manage_updated(struct app *a, struct tfa_view *v);
/* d: ask before removing m. */
void tfa_manage_ask_remove(struct tfa_view *v, const struct tfa_method_rec *m);
void tfa_manage_remove_key(struct app *a, struct tfa_view *v, int key);
void tfa_manage_removed(struct app *a, struct tfa_view *v, const struct api_tfa_answer *ans);
void tfa_manage_lost_begin(struct app *a, struct tfa_view *v, const struct call_result *r);
void tfa_manage_lost_reread(struct app *a, struct tfa_view *v, const struct call_result *r);

#endif
