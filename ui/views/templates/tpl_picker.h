/* tpl_picker.h: the template picker: the operator's own and the
 * recommended templates (pane_templates.h's tpl_list, fetched when it
 * first opens) in a box over a form, searched as you type; Up/Down choose,
 * Enter picks, C-r fetches again, Esc goes back to the form.  The create
 * form opens it with Enter on its template field, the serverless view's
 * workergroup form with Enter on its template hash field (a hash may still
 * be typed there).  UI thread only. */
#ifndef RENTOP_UI_TPL_PICKER_H
#define RENTOP_UI_TPL_PICKER_H

#include <stdbool.h>
#include <stddef.h>

#include "json/json_map.h"
#include "views/templates/pane_templates.h"
#include "widgets/textbuf.h"

struct app;

struct tpl_picker {
	bool open;
	struct tpl_list list;   /* kept while closed: the next open shows it at once */
	struct textbuf q;       /* the search text */
	size_t sel;             /* index into the matches */
};

enum tpl_pick_result {
	TPK_CONTINUE, /* still open */
	TPK_BACK,     /* closed by Esc: nothing picked */
	TPK_PICKED,   /* closed: *picked is the template (valid until the next snapshot) */
};

/* Is key the one that opens the picker from its form field (Enter)? */
bool tpl_picker_opens(int key);
/* Open it with an empty search (the list fetched the first time). */
void tpl_picker_open(struct app *a, struct tpl_picker *p);
/* Close it (the list is kept). */
void tpl_picker_close(struct tpl_picker *p);
/* The open picker takes key. */
enum tpl_pick_result tpl_picker_key(struct app *a, struct tpl_picker *p, int key,
				    const struct template_rec **picked);
/* Draw the open picker over what is drawn. */
void tpl_picker_draw(struct app *a, const struct tpl_picker *p);
/* A new snapshot: take the template answers; true when it is to be drawn again. */
bool tpl_picker_snapshot(struct app *a, struct tpl_picker *p);
/* Free the list (and drop a search in flight). */
void tpl_picker_free(struct app *a, struct tpl_picker *p);

#endif
