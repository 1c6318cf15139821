/* tpl_edit.h: the templates overlay's changes (`:templates`): c creates a
 * template from a form, e edits the selected one (PUT by hash_id: the
 * new hash_id the service answers replaces the old in the list), d
 * deletes it after a confirmation that starts on Cancel (DELETE by the
 * numeric id).  Every one is AF_MUTATES (hidden and refused under
 * --read-only) and one at-most-once call (jobs_call, action): a refusal
 * stays in the open form or dialog with what was typed and the service's
 * words; a lost answer is said as unknown, the modal closes and nothing is
 * sent again (the list is fetched again to show what happened).
 *
 * tpl_edit_form_build / tpl_edit_form_read are pure (the tests drive them without a
 * terminal); the rest is UI thread only. */
#ifndef RENTOP_UI_TPL_EDIT_H
#define RENTOP_UI_TPL_EDIT_H

#include <stdbool.h>

#include "api/api_offers.h"
#include "widgets/form.h"
#include "json/json_map.h"
#include "keymap.h"

struct app;

/* The template form: empty (t NULL: create) or filled from t (edit; the
 * registry password is never known: blank keeps it). */
void tpl_edit_form_build(struct form *fm, const struct template_rec *t);
/* Read the form into *r (pointing into the form): true when valid; false
 * with each invalid field marked and the focus on the first. */
bool tpl_edit_form_read(struct form *fm, struct template_req *r);

/* ---- the stateful part (UI thread) ------------------------------------------ */

struct tpl_edit;

/* What a finished change asks of the list (tpl_edit_snapshot). */
struct tpl_done {
	bool changed;      /* a change finished (or its answer was lost): fetch the list */
	long select_id;    /* the template to select after the fetch (0: keep) */
	long id;           /* edit: the template whose hash_id is now new_hash */
	char new_hash[CREATE_HASH_MAX + 1];
	long deleted_id;   /* delete: the template gone (0: none) */
	long lost_id;      /* a delete whose answer was lost: the template (0: none) */
	char lost_name[128]; /* its name, sanitised */
	double lost_at;    /* wall epoch of the loss */
};

struct tpl_edit *tpl_edit_new(void);
void tpl_edit_free(struct app *a, struct tpl_edit *ed);
/* The changes, as the templates view's action table names them
 * (template-create c, template-edit e, template-delete d: AF_MUTATES, so
 * view_send_action has refused them under --read-only before). */
enum tpl_op { TPL_OP_CREATE, TPL_OP_EDIT, TPL_OP_DELETE };
/* Open op's form or confirmation on sel (NULL: none selected); user_id:
 * the operator's (0: unknown). */
void tpl_edit_open(struct app *a, struct tpl_edit *ed, enum tpl_op op,
		   const struct template_rec *sel, long user_id);
bool tpl_edit_is_open(const struct tpl_edit *ed);
/* Every key while a modal is open; true when taken. */
bool tpl_edit_modal_key(struct app *a, struct tpl_edit *ed, int key);
/* Draw the open modal; true when the cursor is wanted. */
bool tpl_edit_modal_draw(struct app *a, struct tpl_edit *ed);
/* A new snapshot: take the awaited call's result; true with *d filled
 * when a change finished. */
bool tpl_edit_snapshot(struct app *a, struct tpl_edit *ed, struct tpl_done *d);

#endif
