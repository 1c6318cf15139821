/* modal_call.h: the call a modal form or dialog waits on.  A view's change
 * (account sections, 2FA, serverless and template editors) is sent from an
 * open form or confirmation as an at-most-once action: sent, the modal
 * waits (form.waiting / dialog.waiting: keys but Esc ignored); refused
 * before sending, the reason is its answer; its result is taken once when
 * it comes; a refusal by the service gives the modal back with the
 * service's words; and a modal closed before the result drops it.  A job
 * submitted with reply set (the create form's) is awaited the same way.  One
 * struct modal_call per view state holds the id of the call awaited.
 * UI thread only. */
#ifndef RENTOP_UI_MODAL_CALL_H
#define RENTOP_UI_MODAL_CALL_H

#include <stdbool.h>

#include "poll/jobs.h"
#include "state/model.h"
#include "widgets/dialog.h"
#include "widgets/form.h"

struct modal_call {
	int id; /* the call awaited, 0: none */
};

/* Queue c as an action (c->action is set here) for the open form fm or
 * dialog dlg (the other NULL; both NULL: no modal to mark).  JOBS_OK: mc
 * holds its id and the modal waits.  Otherwise (j NULL: JOBS_EINVAL, the
 * call freed) nothing was sent and jobs_strerror of the code is the
 * modal's answer (form) or error (dialog). */
int modal_call_send(struct modal_call *mc, struct jobs *j, struct job_call *c, struct form *fm,
		    struct dialog *dlg);
/* A job submitted with reply set (jobs.h) under id: the open form fm or
 * dialog dlg (the other NULL) waits for its result as for a call's. */
void modal_call_wait(struct modal_call *mc, int id, struct form *fm, struct dialog *dlg);
/* Whether a call is awaited. */
bool modal_call_pending(const struct modal_call *mc);
/* The awaited call's result, once: true with *r filled (free it with
 * model_call_result_free); mc awaits nothing after. */
bool modal_call_take(struct modal_call *mc, struct model *m, struct call_result *r);
/* The modal closes first: the result, when it comes, is dropped. */
void modal_call_drop(struct modal_call *mc, struct model *m);
/* The call was refused: the modal (fm, else dlg) waits no more and says msg. */
void modal_call_refused(struct form *fm, struct dialog *dlg, const char *msg);

#endif
