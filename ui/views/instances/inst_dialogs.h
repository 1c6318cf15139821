/* inst_dialogs.h: what an action on one instance does once its
 * preconditions passed: its confirmation or input dialog (in the app's
 * dialog slot, a->dlg, whose results come back here), the second
 * confirmation of a bid under min_bid or above the on-demand price, the
 * job it submits, and that job's result: the instances view's jobs are
 * submitted with reply set (jobs.h), their ends taken from the model by
 * request id as calls' results are, and a failed input opens again with
 * what was typed and why.  The state (inst_dialogs_new) is the first
 * member of the instances view's state.  UI thread only. */
#ifndef RENTOP_UI_INST_DIALOGS_H
#define RENTOP_UI_INST_DIALOGS_H

#include <stdbool.h>

#include "state/model.h"

struct app;
struct event;
struct job_req;

/* What an instance action does (inst_actions.c maps its actions here). */
enum inst_op { IOP_STOP, IOP_START, IOP_REBOOT, IOP_LABEL, IOP_DESTROY, IOP_BID, IOP_PREPAY,
	       IOP_SSH, IOP_COPY_SSH };

/* The purposes of its dialogs (a->dlg.purpose). */
enum inst_dlg { IDLG_NONE, IDLG_STOP, IDLG_REBOOT, IDLG_DESTROY, IDLG_BID, IDLG_PREPAY,
		IDLG_LABEL,
		IDLG_BID_LOW /* the second confirmation of a bid under min_bid */,
		IDLG_BID_HIGH /* ... of a bid above the on-demand price */,
		IDLG_PREPAY_FAILED /* prepay on an instance in a failure state: asked first */ };

struct inst_dialogs;

struct inst_dialogs *inst_dialogs_new(void);
/* Frees d; the results still awaited are dropped from m. */
void inst_dialogs_free(struct inst_dialogs *d, struct model *m);

/* An instance operation on instance id: opens its dialog (confirmation or
 * input) or submits its job.  The action's preconditions were checked.
 * IOP_SSH and IOP_COPY_SSH are inst_ssh_route's. */
void inst_dialogs_action(struct app *a, enum inst_op op, long id);
/* The destroy confirmation of instance id with the asker's words (the
 * offers view's "destroy the failed instance" after a replacement). */
void inst_dialogs_confirm_destroy(struct app *a, long id, const char *title, const char *text);
/* Submit an instance job (app_submit) as this view's: its result comes
 * back to the view by its request id.  typed: what was typed into the
 * dialog (shown again if it fails), or NULL.  The job id or 0. */
int inst_dialogs_submit(struct app *a, const struct job_req *req, const char *typed);
/* "N (label)" (else its GPU) for the questions about instance x. */
void inst_dialogs_who(const struct instance *x, char *buf, size_t n);
/* Take the results of the jobs this view submitted (by their request ids,
 * model_take_result; others' are left alone): a bid, prepay or label that
 * failed opens its input again with what was typed and why. */
void inst_dialogs_results(struct app *a);
#endif
