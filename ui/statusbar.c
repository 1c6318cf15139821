/* statusbar.c: the message line (prompt, toast, filter reminder) and the
 * hint bar generated from the key bindings. */
#include "statusbar.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "base/config.h"
#include "header.h"
#include "draw.h"
#include "theme.h"
#include "base/util.h"

/* Add the hint of act (first key bound in ctx) unless already there. */
static size_t add_hint(const struct keymap *km, int ctx, enum action act, struct hint *out,
		       size_t n, size_t max)
{
	if (n >= max)
		return n;
	for (size_t i = 0; i < n; i++)
		if (out[i].label == keymap_action_hint(act))
			return n;
	char keys[64];
	keymap_keys_for(km, ctx, act, keys, sizeof keys);
	if (!keys[0])
		return n;
	char *slash = strchr(keys + 1, '/');
	if (slash)
		*slash = '\0';
	util_strlcpy(out[n].key, keys, sizeof out[n].key);
	out[n].label = keymap_action_hint(act);
	return n + 1;
}

unsigned statusbar_first_flags(const struct instance *x)
{
	if (!x)
		return 0;
	return (instance_state_failed(x->state) ? AF_FIRST_ON_FAILED : 0u) |
	       (instance_was_outbid(x) ? AF_FIRST_ON_OUTBID : 0u);
}

size_t statusbar_hints(const struct keymap *km, int ctx, bool read_only, const void *row,
		       unsigned first, struct hint *out, size_t max)
{
	size_t n = 0;
	char why[200];
	/* `/` is offered where it filters: the view's context (or a section's view) */
	int vctx = (keymap_ctx_flags(ctx) & CTXF_SECTION) ? keymap_ctx_parent(ctx) : ctx;
	bool filters = keymap_ctx_flags(vctx) & CTXF_FILTER;
	/* the context's own actions first (the urgent one first of all), then
	 * the global ones; only what may run on the selected row now */
	for (int pass = 0; pass < 3; pass++)
		for (int a = 0; a < keymap_action_count(); a++) {
			enum action act = (enum action)a;
			unsigned f = keymap_action_flags(act);
			/* an action the row calls for is hinted even when it is
			 * not one of the context's usual hints (b on an outbid row) */
			if (!((f & AF_HINT) || (pass == 0 && (f & first))) ||
			    !keymap_action_allowed(act, ctx))
				continue;
			bool global = f & AF_GLOBAL;
			if (pass == 0 && !((f & first) && !global))
				continue;
			if (pass == 1 && global)
				continue;
			if (pass == 2 && !global)
				continue;
			if (keymap_action_refusal(act, row, read_only, why, sizeof why))
				continue;
			if (act == ACT_FILTER && !filters)
				continue;
			n = add_hint(km, ctx, act, out, n, max);
		}
	return n;
}

char *statusbar_hints_text(const struct hint *h, size_t n, int width, char *buf, size_t bufn)
{
	buf[0] = '\0';
	int used = 0;
	for (size_t i = 0; i < n; i++) {
		char item[96];
		snprintf(item, sizeof item, "%s%s %s", i ? "  " : "", h[i].key, h[i].label);
		int w = util_strwidth(item);
		if (used + w > width)
			break;
		size_t len = strlen(buf);
		snprintf(buf + len, bufn - len, "%s", item);
		used += w;
	}
	return buf;
}

void statusbar_draw_message(struct app *a)
{
	const struct rect *r = &a->lay.message;
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_NORMAL));
	if (a->prompt != PROMPT_NONE) {
		const char *lead = a->prompt == PROMPT_FILTER   ? "/"
				   : a->prompt == PROMPT_SEARCH ? "search: "
								: ":";
		int lw = draw_text(r->y, r->x, r->w, lead, theme_attr(ROLE_KEY));
		const struct textbuf *tb = &a->ptb;
		char before[TEXTBUF_BYTES + 1];
		memcpy(before, tb->s, tb->cur);
		before[tb->cur] = '\0';
		int avail = r->w - lw - 1;
		const char *start = tb->s;
		while (util_strwidth(before + (start - tb->s)) > avail && *start) {
			start++;
			while ((*start & 0xc0) == 0x80)
				start++;
		}
		int tw = draw_text(r->y, r->x + lw, avail + 1, start, theme_attr(ROLE_NORMAL));
		/* Tab's candidates (or a toast) after the typed text */
		int room = r->w - lw - tw - 3;
		if (a->msg[0] && room > 8)
			draw_text(r->y, r->x + lw + tw + 3, room, a->msg, theme_attr(a->msg_role));
		move(r->y, r->x + lw + util_strwidth(before + (start - tb->s)));
		return;
	}
	if (a->msg[0]) {
		draw_text(r->y, r->x, r->w, a->msg, theme_attr(a->msg_role));
		return;
	}
	struct list_wait lw; /* the instance list has gone an interval without an answer */
	if (header_late(a, &lw)) {
		char line[200];
		draw_text(r->y, r->x, r->w, header_wait_text(&lw, util_now(), line, sizeof line),
			  theme_attr(ROLE_WARNING));
		return;
	}
	const struct view *v = view_current(a);
	const char *f = view_filter_text(a, v);
	if (*f) {
		char line[200];
		snprintf(line, sizeof line, "filter: %s   (/ edits, Esc clears)", f);
		draw_text(r->y, r->x, r->w, line, theme_attr(ROLE_DIM));
	}
}

void statusbar_draw_hints(struct app *a)
{
	const struct rect *r = &a->lay.hints;
	unsigned long bg = theme_attr(ROLE_HINT), kattr = theme_attr(ROLE_KEY);
	draw_fill(r->y, r->x, r->w, bg);
	struct hint h[24];
	size_t n;
	static const char *const dlg_labels[] = { "move", "activate", "cancel" };
	static const char *const prompt_labels[] = { "apply", "clear", "cancel" };
	if (dialog_open(&a->dlg)) {
		n = 3;
		snprintf(h[0].key, sizeof h[0].key, "Tab");
		snprintf(h[1].key, sizeof h[1].key, "Enter");
		snprintf(h[2].key, sizeof h[2].key, "Esc");
		for (size_t i = 0; i < 3; i++)
			h[i].label = dlg_labels[i];
	} else if (a->prompt != PROMPT_NONE) {
		n = 2;
		snprintf(h[0].key, sizeof h[0].key, "Enter");
		snprintf(h[1].key, sizeof h[1].key, "Esc");
		h[0].label = a->prompt == PROMPT_SEARCH ? "search" : prompt_labels[0];
		h[1].label = prompt_labels[a->prompt == PROMPT_FILTER ? 1 : 2];
	} else {
		const struct view *v = view_current(a);
		const struct instance *x = app_selected(a);
		n = statusbar_hints(&a->km, view_key_ctx(a, v), a->read_only, view_row(a),
				    statusbar_first_flags(x), h, 24);
	}
	int x = r->x + 1, end = r->x + r->w;
	for (size_t i = 0; i < n; i++) {
		int need = util_strwidth(h[i].key) + 1 + util_strwidth(h[i].label) + (i ? 2 : 0);
		if (x + need > end)
			break;
		if (i)
			x += 2;
		x += draw_text(r->y, x, end - x, h[i].key, kattr);
		x += draw_text(r->y, x, end - x, " ", bg);
		x += draw_text(r->y, x, end - x, h[i].label, bg);
	}
}
