/* sv_edit.h: the autoscaler edits of the serverless view: create, edit and
 * delete endpoints and workergroups, suspend and resume endpoints.  Forms
 * hold the fields of svfields.c with their ranges and checks; nothing is
 * sent until every field is valid; an edit PUTs only the changed fields;
 * a delete or a suspend confirms in a dialog starting on Cancel that names
 * what stops; each goes once through jobs_call (an action: at most once,
 * refused under --read-only), and a failure stays in the open form or
 * dialog with the service's words.  After a success the lists refresh.
 * A form whose answer was lost locks (form_lost_*) until the lists, read
 * again, say whether its change took effect; it is never sent again by
 * itself.  Enter on a workergroup form's template hash field (create, and
 * the edit form's last field) opens the template picker (tpl_picker.h, the
 * create form's); a hash may still be typed.
 *
 * sv_forms.c holds the pure parts (the forms, the calls built from them,
 * the confirmation texts) for the tests; sv_edit.c the view's glue (keys,
 * modal, results).  UI thread only. */
#ifndef RENTOP_UI_SV_EDIT_H
#define RENTOP_UI_SV_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "widgets/form.h"
#include "keymap.h"
#include "state/model.h"
#include "views/serverless/sv_tree.h"

struct app;
struct config;

/* ---- pure (sv_forms.c) -------------------------------------------------------- */

/* The endpoint form: create (e NULL: the create fields with their defaults)
 * or edit (the edit fields holding e's values). */
void sv_forms_endpoint(struct form *fm, const struct endpoint *e);
/* The workergroup form: create on endpoint (endpoint_id, name), starting
 * from g's values when g is not NULL (a copy of a workergroup), else the
 * defaults; or edit g (create false). */
void sv_forms_workergroup(struct form *fm, const struct workergroup *g, bool create,
			 long endpoint_id, const char *endpoint_name);

/* The request of a submitted endpoint form: old NULL creates, else PUTs
 * the fields changed from old.  False with the reason set in the form
 * (form_set_answer: on the field to blame) when a value is invalid or
 * nothing changed; *out is then empty. */
bool sv_forms_endpoint_call(const struct config *c, struct form *fm, const struct endpoint *old,
			   struct api_call *out);
/* The same for a workergroup: create on endpoint_id when old is NULL. */
bool sv_forms_workergroup_call(const struct config *c, struct form *fm,
			      const struct workergroup *old, long endpoint_id,
			      const char *endpoint_name, struct api_call *out);

/* A lost answer's re-read (form_lost_*): how many records of a list hold
 * what the submitted form sends.  Create (old NULL): the endpoints named as
 * the form's endpoint_name; the workergroups of endpoint_id.  Edit: 1 when
 * record old->id is in the list holding every value of the form (each read
 * as svfields reads it), else 0. */
int sv_forms_endpoint_count(const struct form *fm, const struct endpoint *old,
			   const struct endpoint *v, size_t n);
int sv_forms_workergroup_count(const struct form *fm, const struct workergroup *old,
			      long endpoint_id, const struct workergroup *v, size_t n);

/* The confirmation of an endpoint's delete, naming it and its workergroups
 * (those of g[0..ng) with its id), into buf. */
char *sv_forms_delete_endpoint_text(const struct endpoint *e, const struct workergroup *g, size_t ng,
			      char *buf, size_t n);
char *sv_forms_delete_workergroup_text(const struct workergroup *g, char *buf, size_t n);
/* Suspend (true) or resume: the question, into buf. */
char *sv_forms_suspend_text(const struct endpoint *e, bool suspend, char *buf, size_t n);
/* Does the endpoint's state call for a suspend (active) or a resume? */
bool sv_forms_endpoint_suspendable(const struct endpoint *e);

/* `:update-workers ARG` (and U on a row): the workergroup ARG names, an
 * endpoint's name or id (its one workergroup) or a workergroup's id.  Its
 * id, or 0 with why in err (no such endpoint or workergroup; an endpoint
 * with none, or with several: they are listed, to pick one by id). */
long sv_forms_update_target(const char *arg, const struct endpoint *e, size_t ne,
			   const struct workergroup *g, size_t ng, char *err, size_t n);
/* The confirmation of update_workers on g, into buf. */
char *sv_forms_update_workers_text(const struct workergroup *g, char *buf, size_t n);

/* ---- the view's glue (sv_edit.c) ---------------------------------------------- */

struct sv_edit;
struct sv_edit *sv_edit_new(void);
void sv_edit_free(struct app *a, struct sv_edit *ed);
/* The changes, as the serverless view's action table names them
 * (endpoint-create c, workergroup-create a, serverless-edit e,
 * serverless-delete d, endpoint-suspend s: AF_MUTATES, so
 * view_send_action has refused them under --read-only before). */
enum sv_op { SV_OP_EP_CREATE, SV_OP_WG_CREATE, SV_OP_EDIT, SV_OP_DELETE, SV_OP_SUSPEND,
	     SV_OP_UPDATE_WORKERS };
/* Open op's form or confirmation on row (NULL: none selected). */
void sv_edit_open(struct app *a, struct sv_edit *ed, enum sv_op op, const struct sv_row *row);
/* The update_workers confirmation (starting on Cancel) for workergroup
 * wg_id; confirmed, one at-most-once call: a lost answer is said, logged
 * and never sent again. */
void sv_edit_update_workers(struct app *a, struct sv_edit *ed, long wg_id);
/* The open form or dialog takes the key: true when one is open. */
bool sv_edit_modal_key(struct app *a, struct sv_edit *ed, int key);
/* Draw the open form or dialog; true when the cursor is to be shown. */
bool sv_edit_modal_draw(struct app *a, struct sv_edit *ed);
/* A new snapshot: take the awaited action's result. */
void sv_edit_snapshot(struct app *a, struct sv_edit *ed);

#endif
