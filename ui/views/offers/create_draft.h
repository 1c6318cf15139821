/* create_draft.h: what the create form (create_form.c) keeps of itself:
 * what a picked template supplies, and a form's values by field name (the
 * draft kept in memory when a form is discarded, create_form.h; the forms
 * remembered on disk, create_recall.h).  Pure; UI thread. */
#ifndef RENTOP_UI_CREATE_DRAFT_H
#define RENTOP_UI_CREATE_DRAFT_H

#include <stdbool.h>

#include "api/api_offers.h"
#include "widgets/form.h"

/* What a picked template supplies (compared at submit: a value left as
 * the template gave it is not sent, the template's applies). */
struct create_tpl {
	char hash_id[CREATE_HASH_MAX + 1];   /* "" = no template */
	char image[CREATE_IMAGE_MAX + 1];    /* image:tag as shown */
	enum create_launch launch;
	char *env, *onstart, *args_str;      /* owned; NULL = none */
};
void create_form_tpl_clear(struct create_tpl *t);

/* The last form discarded with Esc (after "Discard the form?"), kept in
 * memory for the session and never written anywhere, so that the next `c`
 * can start from it: every field's value by name, secrets (env and ports,
 * registry login) included but filled in again only when asked (wiped
 * when cleared). */
struct create_draft_field {
	char name[32];
	enum field_kind kind;
	char *text;    /* form_value: owned */
	int choice;
	bool on;
};
struct create_draft {
	bool have;
	bool secrets;  /* a secret field held text */
	long offer_id; /* the offer it was typed for */
	struct create_draft_field f[FORM_MAX_FIELDS];
	int n;
	struct create_tpl tpl; /* the template it had picked */
};
void create_form_draft_clear(struct create_draft *d);
/* Keep fm's values (and t, the picked template: may be NULL) in d. */
void create_form_draft_save(struct create_draft *d, const struct form *fm, const struct create_tpl *t,
		       long offer_id);
/* Fill fm's fields of the same name and kind from d; secret fields only
 * when secrets; t (may be NULL) gets the draft's template. */
void create_form_draft_apply(const struct create_draft *d, struct form *fm, struct create_tpl *t,
			bool secrets);
#endif
