/* create_form.h: the create-instance form the offers view opens over
 * itself (`c` on an offer, and the replacement flow of `O`): image or a
 * template picked from a searchable list (own and recommended), disk,
 * label, launch mode, env and ports in the CLI's "-e K=V -p H:C" format,
 * onstart script in $EDITOR, start stopped, bid for interruptible offers
 * and a registry login; then the billing confirmation (starting on
 * Cancel) and the create job (JOB_CREATE: sent at most once, retry.h).
 * A refused create keeps the form with what was typed and the service's
 * words; a lost answer is said as such and nothing is sent again; a
 * created instance is shown selected in the instance table (and, when it
 * replaces a failed one, the destroy of that one is offered, on Cancel).
 * Esc on a form changed since it opened asks before discarding it; a
 * discarded form is kept in memory as the draft the next `c` offers (its
 * secrets filled in only when asked).  A form sent and not refused is
 * remembered on disk per image or template (create_recall.h; its secrets
 * only with the form's "Remember secrets" toggle) and the next c on that
 * image or template offers it: C-g fills it in.  A bid under the offer's min_bid is
 * warned in the form's note and in the confirmation.
 *
 * create_form_build/apply_template/read, the draft's functions,
 * create_form_print and create_form_bid_note are pure (the tests drive them
 * without a terminal); the rest is UI thread only. */
#ifndef RENTOP_UI_CREATE_FORM_H
#define RENTOP_UI_CREATE_FORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api_offers.h"
#include "widgets/form.h"
#include "views/offers/create_draft.h"
#include "views/offers/create_fields.h"
#include "json/json_map.h"
#include "flow/offers.h"

struct app;
struct event;




/* The form's fields for offer o (is_bid: a bid field prefilled with
 * min_bid), prefilled from p (NULL: defaults: 8 GB, ssh). */
void create_form_build(struct form *fm, const struct offer *o, const struct offers_prefill *p);
/* Fill the form from template t (image:tag, disk, launch, env, onstart,
 * args) and remember in *ct what it supplied. */
void create_form_apply_template(struct form *fm, const struct template_rec *t,
				struct create_tpl *ct);
/* Read the form into *r for offer o: true when valid; false with each
 * invalid field marked (its message beside it) and the focus on the first. */
bool create_form_read(struct form *fm, const struct offer *o, const struct create_tpl *ct,
		      struct create_req *r);

/* A fingerprint of every value of fm (has it changed since it opened?). */
uint64_t create_form_print(const struct form *fm);
/* The note under the fields for the bid of a bid offer o: under min_bid
 * (a warning: it would be outbid at once), or at or above it. */
void create_form_bid_note(struct form *fm, const struct offer *o);

/* ---- the stateful part (UI thread) --------------------------------------------- */

struct create_ui;

struct create_ui *create_form_ui_new(void);
void create_form_ui_free(struct app *a, struct create_ui *c);
/* Open over the view for offer o (copied); p: a prefill (copied; NULL:
 * none); replace_id: the failed instance it replaces (0: none). */
void create_form_ui_open(struct app *a, struct create_ui *c, const struct offer *o,
		    const struct offers_prefill *p, long replace_id);
/* `:launch` (launch.c): straight to the billing confirmation of r (valid,
 * on offer o), lead (what was searched and found) said first; Cancel
 * closes it (nothing sent); Rent sends it as the form's C-s does (at most
 * once; a refusal gives back the form filled from r). */
void create_form_ui_launch(struct app *a, struct create_ui *c, const struct offer *o,
			   const struct create_req *r, const char *lead);
/* The same, the form filled from template t (its hash sent as
 * template_hash_id, what it supplies left to it) and no draft question. */
void create_form_ui_open_template(struct app *a, struct create_ui *c, const struct offer *o,
				  const struct template_rec *t);
bool create_form_ui_is_open(const struct create_ui *c);
/* Every key while open; true when taken. */
bool create_form_ui_key(struct app *a, struct create_ui *c, int key);
/* Draw over the screen; true when the cursor is wanted. */
bool create_form_ui_draw(struct app *a, struct create_ui *c);
/* A new snapshot: take the template list's answers and the create job's
 * result (by its id: another's is left alone); returns the new instance's
 * id when this form's create succeeded (1 when the answer named none; 0
 * otherwise).  Refused, or its 2FA prompt cancelled, the form is given back
 * with the reason; lost, it closes. */
long create_form_ui_snapshot(struct app *a, struct create_ui *c);

#endif
