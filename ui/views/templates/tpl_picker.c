/* tpl_picker.c: the template picker (tpl_picker.h) the create form and the
 * serverless workergroup form share. */
#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "views/templates/tpl_picker.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "keymap.h"
#include "theme.h"
#include "base/util.h"

#define PICK_MAX 512

static size_t matches(const struct tpl_picker *p, size_t *idx)
{
	return pane_templates_list_match(&p->list, p->q.s, idx, PICK_MAX);
}

bool tpl_picker_opens(int key)
{
	return key == '\n' || key == '\r' || key == KM_FN(KEY_ENTER);
}

void tpl_picker_open(struct app *a, struct tpl_picker *p)
{
	p->open = true;
	textbuf_clear(&p->q);
	p->sel = 0;
	if (!p->list.loaded)
		pane_templates_list_fetch(a, &p->list);
	a->dirty |= DIRTY_ALL;
}

void tpl_picker_close(struct tpl_picker *p)
{
	p->open = false;
	textbuf_clear(&p->q);
	p->sel = 0;
}

enum tpl_pick_result tpl_picker_key(struct app *a, struct tpl_picker *p, int key,
				    const struct template_rec **picked)
{
	size_t idx[PICK_MAX];
	size_t n = matches(p, idx);
	a->dirty |= DIRTY_ALL;
	if (key == 27) {
		tpl_picker_close(p);
		return TPK_BACK;
	}
	if (tpl_picker_opens(key)) { /* Enter picks */
		if (p->sel < n) {
			*picked = &p->list.v[idx[p->sel]];
			tpl_picker_close(p);
			return TPK_PICKED;
		}
		if (!p->list.loaded)
			app_toast(a, ROLE_DIM, 4, "the templates are still loading: Enter again once they show");
	} else if (key == KM_FN(KEY_UP) || key == KM_CTRL('p')) {
		if (p->sel)
			p->sel--;
	} else if (key == KM_FN(KEY_DOWN) || key == KM_CTRL('n')) {
		if (p->sel + 1 < n)
			p->sel++;
	} else if (key == KM_CTRL('r')) {
		pane_templates_list_fetch(a, &p->list);
	} else if (textbuf_key(&p->q, key)) {
		p->sel = 0;
	}
	return TPK_CONTINUE;
}

void tpl_picker_draw(struct app *a, const struct tpl_picker *p)
{
	const struct layout *l = &a->lay;
	struct rect r = layout_dialog(l, 110, 24);
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, " Pick a template (own and recommended) ", bg);
	if (r.h < 6 || r.w < 20)
		return;
	char line[400];
	draw_text(r.y + 1, r.x + 2, r.w - 4, "search: ", theme_attr(ROLE_INPUT));
	draw_text(r.y + 1, r.x + 10, r.w - 12, p->q.s, theme_attr(ROLE_INPUT));
	size_t idx[PICK_MAX];
	size_t n = matches(p, idx);
	long uid = a->snap && a->snap->user ? a->snap->user->id : 0;
	int rows = r.h - 5;
	size_t top = p->sel >= (size_t)rows ? p->sel - (size_t)rows + 1 : 0;
	for (int i = 0; i < rows; i++) {
		size_t k = top + (size_t)i;
		int y = r.y + 2 + i;
		if (k >= n) {
			if (k == 0) {
				const char *m = p->list.status[0] ? p->list.status
						: !p->list.loaded ? "loading templates..."
						: "no template matches";
				draw_text(y, r.x + 2, r.w - 4, m,
					  theme_attr(p->list.status[0] ? ROLE_ERROR : ROLE_DIM));
			}
			continue;
		}
		pane_templates_list_summary(&p->list.v[idx[k]], uid, line, sizeof line);
		enum role role = k == p->sel ? ROLE_SELECTION : ROLE_DIALOG;
		draw_fill(y, r.x + 1, r.w - 2, theme_attr(role));
		draw_text(y, r.x + 2, r.w - 4, line, theme_attr(role));
	}
	draw_text(r.y + r.h - 2, r.x + 2, r.w - 4,
		  "type to search  Up/Down choose  Enter picks  C-r fetches again  Esc back",
		  theme_attr(ROLE_DIM));
	move(r.y + 1, r.x + 2 + 8 + util_strwidth(p->q.s));
}

bool tpl_picker_snapshot(struct app *a, struct tpl_picker *p)
{
	bool busy = p->list.req_own || p->list.req_rec;
	return pane_templates_list_take(a, &p->list) || (busy && !p->list.req_own && !p->list.req_rec);
}

void tpl_picker_free(struct app *a, struct tpl_picker *p)
{
	tpl_picker_close(p);
	pane_templates_list_free(a, &p->list);
}
