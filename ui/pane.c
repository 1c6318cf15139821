/* pane.c: the registry of views (in Tab order) and the overlay stack of one
 * (detail or help) shown over the current view. */
#include "pane.h"

#include <string.h>

#include "app.h"

int pane_register(struct app *a, const struct pane *p)
{
	if (a->nviews >= PANE_MAX_VIEWS)
		return -1;
	a->views[a->nviews] = p;
	return a->nviews++;
}

const struct pane *pane_current(const struct app *a)
{
	if (a->overlay)
		return a->overlay;
	return a->nviews ? a->views[a->view] : NULL;
}

int pane_find(const struct app *a, const char *name)
{
	for (int i = 0; i < a->nviews; i++)
		if (strcmp(a->views[i]->name, name) == 0)
			return i;
	return -1;
}

void pane_show_view(struct app *a, int idx)
{
	if (idx < 0 || idx >= a->nviews)
		return;
	pane_close_overlay(a);
	if (idx != a->view) {
		const struct pane *old = a->views[a->view];
		if (old->on_hide)
			old->on_hide(a);
		a->view = idx;
		if (a->views[idx]->on_show)
			a->views[idx]->on_show(a);
	}
	a->dirty |= DIRTY_ALL;
}

void pane_next_view(struct app *a)
{
	if (a->nviews)
		pane_show_view(a, (a->view + 1) % a->nviews);
}

void pane_open_overlay(struct app *a, const struct pane *p)
{
	if (a->overlay && a->overlay->on_hide)
		a->overlay->on_hide(a);
	a->overlay = p;
	if (p->on_show)
		p->on_show(a);
	a->dirty |= DIRTY_ALL;
}

void pane_close_overlay(struct app *a)
{
	if (!a->overlay)
		return;
	if (a->overlay->on_hide)
		a->overlay->on_hide(a);
	a->overlay = NULL;
	a->dirty |= DIRTY_ALL;
}
