/* tfa_codes.c: backup codes, shown once (when 2FA is turned on, and after
 * a regeneration): w writes them to a new 0600 file, y copies them (OSC
 * 52); wiped when the dialog closes.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "keymap.h"
#include "theme.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

/* Show new backup codes (once). */
void tfa_codes_show(struct app *a, struct tfa_view *v, const struct tfa_backup_codes *c,
		       bool first)
{
	form_free(&v->fm);
	v->codes = *c;
	v->codes_first = first;
	v->codes_note[0] = '\0';
	v->step = ST_BACKUP;
	a->dirty |= DIRTY_ALL;
}

void tfa_codes_draw(struct app *a, struct tfa_view *v)
{
	unsigned long bg = theme_attr(ROLE_DIALOG);
	struct rect in = tfa_box(a, 66, 17 + (int)(v->codes.n + 1) / 2 - 5,
				   v->codes_first ? "Two-factor authentication is on: backup codes"
						  : "New backup codes");
	int y = in.y;
	tfa_draw_lines(&in, &y, "Each code works once, when no other method is at hand. "
		   "They are shown ONCE: they will not be shown again after this dialog closes.",
		   theme_attr(ROLE_WARNING));
	y++;
	for (size_t i = 0; i < v->codes.n && y < in.y + in.h; i += 2) {
		char row[64];
		snprintf(row, sizeof row, "  %-16s  %s", v->codes.code[i],
			 i + 1 < v->codes.n ? v->codes.code[i + 1] : "");
		draw_text(y++, in.x, in.w, row, bg | A_BOLD);
		explicit_bzero(row, sizeof row);
	}
	y++;
	if (v->codes_note[0])
		tfa_draw_lines(&in, &y, v->codes_note, theme_attr(ROLE_OK));
	tfa_draw_lines(&in, &y, "w write them to a file (mode 0600)   y copy (OSC 52)   Enter/Esc close",
		   theme_attr(ROLE_HINT));
}

/* w in the backup-codes dialog. */
static void write_codes(struct tfa_view *v)
{
	char path[1024], err[1200];
	tfaflow_codes_path(util_now(), path, sizeof path);
	if (!path[0]) {
		snprintf(v->codes_note, sizeof v->codes_note, "HOME is not set: nowhere to write");
		return;
	}
	if (tfaflow_write_codes(path, &v->codes, err, sizeof err))
		snprintf(v->codes_note, sizeof v->codes_note, "written to %s (mode 0600)", path);
	else
		snprintf(v->codes_note, sizeof v->codes_note, "not written: %s", err);
}

/* w, y, Enter or Esc over the codes. */
void tfa_codes_key(struct app *a, struct tfa_view *v, int key)
{
	if (key == 'w') {
		write_codes(v);
	} else if (key == 'y') {
		char text[TFA_BACKUP_CODES * 16 + 8];
		if (tfaflow_codes_text(&v->codes, text, sizeof text)) {
			app_copy(text);
			snprintf(v->codes_note, sizeof v->codes_note,
				 "copied with OSC 52 (under tmux: set-clipboard on)");
		}
		explicit_bzero(text, sizeof text);
	} else if (key == 27 || key == '\n' || key == '\r' || key == 'q' ||
		   key == KM_FN(KEY_ENTER)) {
		tfa_flow_end(a, v);
		app_toast(a, ROLE_DIM, 6, "backup codes closed: they will not be shown again");
	}
}

/* The regeneration answered: the new codes. */
void tfa_codes_regen_done(struct app *a, struct tfa_view *v, const struct api_tfa_answer *ans)
{
	app_toast(a, ROLE_OK, 8, "new backup codes made: the old ones no longer work");
	if (ans)
		tfa_codes_show(a, v, &ans->codes, false);
	else
		tfa_flow_end(a, v);
}
