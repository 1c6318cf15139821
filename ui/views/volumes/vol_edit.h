/* vol_edit.h: the volumes view's writes (`:volumes`): create a volume on
 * an offer (a form: size, name), clone a volume into an offer (a form:
 * the destination offer, the size), delete a volume (a confirmation that
 * starts on Cancel and names what is lost).  Each is AF_MUTATES in the
 * view's action table (refused under --read-only before it gets here) and
 * one at-most-once call (jobs_call, action, modal_call.h): a refusal stays
 * in the open form or dialog with the service's words (a volume in use:
 * "destroy the instance first"); a lost answer locks the modal
 * (form_lost_*, dialog_lost_*), the view reads its list again and
 * vol_edit_reread says the verdict; nothing is sent again by itself.
 *
 * vol_edit_count is pure; the rest is UI thread only. */
#ifndef RENTOP_UI_VOL_EDIT_H
#define RENTOP_UI_VOL_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api_volumes.h"

struct app;
struct vol_edit;

/* What a lost write looks for in a re-read: a create or clone counts the
 * volumes labelled label (label NULL or "": every volume); a delete the
 * volumes with id.  Pure. */
int vol_edit_count(const struct volume_rec *v, size_t n, long id, const char *label);

struct vol_edit *vol_edit_new(void);
void vol_edit_free(struct app *a, struct vol_edit *ed);
bool vol_edit_is_open(const struct vol_edit *ed);
/* Open a modal over the view (any one open is closed first). */
void vol_edit_create(struct app *a, struct vol_edit *ed, const struct volume_offer_rec *o);
/* dst: the offer preset as the destination (NULL: typed). */
void vol_edit_clone(struct app *a, struct vol_edit *ed, const struct volume_rec *src,
		    const struct volume_offer_rec *dst);
void vol_edit_delete(struct app *a, struct vol_edit *ed, const struct volume_rec *v);
/* Every key while a modal is open; true when taken.  vols: the list in
 * force (what a lost answer's re-read is compared with). */
bool vol_edit_key(struct app *a, struct vol_edit *ed, int key, const struct volume_rec *vols,
		  size_t n);
/* Draw the open modal; true when the cursor is wanted. */
bool vol_edit_draw(struct app *a, struct vol_edit *ed);
/* A new snapshot: take the awaited call's result.  True when the list
 * should be read again (a change made, or its answer lost). */
bool vol_edit_snapshot(struct app *a, struct vol_edit *ed);
/* The list was read again at wall epoch when (err: why it failed, else
 * NULL): when a lost answer waits on it, say the verdict. */
void vol_edit_reread(struct app *a, struct vol_edit *ed, const struct volume_rec *v, size_t n,
		     double when, const char *err);

#endif
