/* create_draft.c: a create form's values kept by field name, and what a
 * picked template supplies (create_draft.h). */
#include "views/offers/create_draft.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void create_form_tpl_clear(struct create_tpl *t)
{
	free(t->env);
	free(t->onstart);
	free(t->args_str);
	memset(t, 0, sizeof *t);
}

/* ---- the draft ---------------------------------------------------------------------- */

void create_form_draft_clear(struct create_draft *d)
{
	for (int i = 0; i < d->n; i++) {
		if (d->f[i].text)
			explicit_bzero(d->f[i].text, strlen(d->f[i].text)); /* env values, a token */
		free(d->f[i].text);
	}
	create_form_tpl_clear(&d->tpl);
	memset(d, 0, sizeof *d);
}

/* A copy of what template t supplies. */
static void tpl_copy(struct create_tpl *to, const struct create_tpl *from)
{
	create_form_tpl_clear(to);
	*to = *from;
	to->env = from->env ? xstrdup(from->env) : NULL;
	to->onstart = from->onstart ? xstrdup(from->onstart) : NULL;
	to->args_str = from->args_str ? xstrdup(from->args_str) : NULL;
}

void create_form_draft_save(struct create_draft *d, const struct form *fm, const struct create_tpl *t,
		       long offer_id)
{
	create_form_draft_clear(d);
	for (int i = 0; i < fm->n && d->n < FORM_MAX_FIELDS; i++) {
		const struct form_field *f = &fm->f[i];
		struct create_draft_field *g = &d->f[d->n++];
		util_strlcpy(g->name, f->name, sizeof g->name);
		g->kind = f->kind;
		g->choice = f->choice;
		g->on = f->on;
		g->text = xstrdup(form_value(fm, f->name));
		if (f->kind == FK_SECRET && *g->text)
			d->secrets = true;
	}
	if (t)
		tpl_copy(&d->tpl, t);
	d->offer_id = offer_id;
	d->have = true;
}

void create_form_draft_apply(const struct create_draft *d, struct form *fm, struct create_tpl *t,
			bool secrets)
{
	for (int k = 0; k < d->n; k++) {
		const struct create_draft_field *g = &d->f[k];
		int i = form_find(fm, g->name);
		if (i < 0 || fm->f[i].kind != g->kind)
			continue; /* not on this form (a bid on an on-demand offer) */
		struct form_field *f = &fm->f[i];
		switch (g->kind) {
		case FK_CHOICE:
			if (g->choice >= 0 && g->choice < f->nchoices)
				f->choice = g->choice;
			break;
		case FK_TOGGLE: f->on = g->on; break;
		case FK_SECRET:
			if (secrets)
				textbuf_set(&f->tb, g->text);
			break;
		case FK_TEXT: case FK_NUMBER: case FK_MULTILINE:
			form_set(fm, g->name, g->text);
			break;
		}
		form_check_field(f);
	}
	if (t && d->tpl.hash_id[0])
		tpl_copy(t, &d->tpl);
}

