/* tfa_totp.c: adding an authenticator app: the service's new secret as a
 * QR code of its provisioning URI with the secret in groups of four (drawn
 * only here), then the app's current code and a label.  UI thread only. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "rules/acct.h"
#include "theme.h"
#include "base/util.h"
#include "views/tfa/tfa.h"

void tfa_totp_start(struct app *a, struct tfa_view *v)
{
	char err[200];
	v->step = ST_QR;
	v->busy = true;
	if (!tfa_send(a, v, CK_SETUP, api_tfa_totp_setup(a->cfg), tfa_map_setup,
		       "2FA: TOTP set-up", err, sizeof err)) {
		tfa_flow_end(a, v);
		app_toast(a, ROLE_ERROR, 8, "%s", err);
	}
}

/* The set-up answered: the secret and its QR code. */
void tfa_totp_setup_done(struct tfa_view *v, const struct api_tfa_answer *ans)
{
	v->busy = false;
	if (!ans)
		return;
	util_strlcpy(v->totp_secret, ans->secret, sizeof v->totp_secret);
	util_strlcpy(v->totp_uri, ans->uri, sizeof v->totp_uri);
	if (!qr_render(v->totp_uri, draw_ascii() ? QR_ASCII : QR_HALF_BLOCKS, &v->qr, v->qr_err,
		       sizeof v->qr_err))
		v->qr.nrows = 0;
}

/* The QR dialog's Enter: the form for the current code. */
void tfa_totp_open_confirm(struct tfa_view *v)
{
	form_init(&v->fm, "Confirm the authenticator app");
	int k = form_add_secret(&v->fm, "code", "Current code (C-r shows)", 8, true);
	if (k >= 0)
		v->fm.f[k].check = tfa_add_check_code6;
	k = form_add_text(&v->fm, "label", "Label (optional)", "", TFA_LABEL_MAX, false);
	if (k >= 0)
		v->fm.f[k].check = tfa_add_check_label;
	v->step = ST_CONFIRM;
}

void tfa_totp_submit_confirm(struct app *a, struct tfa_view *v)
{
	char code[8], err[200];
	tfa_add_digits(form_value(&v->fm, "code"), code);
	const char *label = form_value(&v->fm, "label");
	struct api_call call = api_tfa_confirm_new(a->cfg, "totp", code, v->totp_secret, NULL,
						   *label ? label : NULL);
	explicit_bzero(code, sizeof code);
	if (tfa_send(a, v, CK_CONFIRM, call, tfa_map_codes, "2FA: confirm the TOTP method", err,
		      sizeof err))
		v->fm.waiting = true;
	else
		form_set_answer(&v->fm, NULL, err);
}

#define QR_PAIR_OFFSET 1 /* the pair after the theme's */

/* Black modules on white whatever the theme: white glyphs on black. */
static unsigned long qr_attr(void)
{
	int pair = ROLE__COUNT + QR_PAIR_OFFSET + 1;
	if (has_colors() && pair < COLOR_PAIRS) {
		init_pair((short)pair, COLOR_WHITE, COLOR_BLACK);
		return (unsigned long)COLOR_PAIR(pair);
	}
	return (unsigned long)A_NORMAL;
}

void tfa_totp_draw_qr(struct app *a, struct tfa_view *v)
{
	unsigned long bg = theme_attr(ROLE_DIALOG);
	if (v->busy) {
		struct rect in = tfa_box(a, 60, 5, "Add an authenticator app (TOTP)");
		int y = in.y + 1;
		tfa_draw_lines(&in, &y, "asking the service for a new secret...", theme_attr(ROLE_PENDING));
		return;
	}
	char groups[200];
	acct_base32_groups(v->totp_secret, groups, sizeof groups);
	/* the code whole, then the secret and two lines: the whole screen if need be */
	int need_w = v->qr.cols + 4 > 66 ? v->qr.cols + 4 : 66;
	int need_h = v->qr.nrows + 2 + 3;
	bool fits = v->qr.nrows > 0 && v->qr.cols + 4 <= a->lay.cols && need_h <= a->lay.rows;
	struct rect in;
	if (fits) {
		int w = need_w < a->lay.cols ? need_w : a->lay.cols;
		struct rect r = { (a->lay.rows - need_h) / 2, (a->lay.cols - w) / 2, need_h, w };
		in = tfa_box_at(r, "Add an authenticator app (TOTP)");
	} else {
		in = tfa_box(a, 72, 11, "Add an authenticator app (TOTP)");
	}
	int y = in.y;
	if (fits) {
		unsigned long qa = qr_attr();
		int x = in.x + (in.w - v->qr.cols) / 2;
		for (int i = 0; i < v->qr.nrows && y < in.y + in.h; i++)
			draw_text(y++, x, v->qr.cols, v->qr.rows[i], qa);
	} else {
		char msg[300];
		if (v->qr.nrows > 0)
			snprintf(msg, sizeof msg, "The terminal is too small to show the QR code whole "
				 "(it needs %dx%d, this one is %dx%d): enlarge it, or type the "
				 "secret below into the app.", v->qr.cols + 4, need_h, a->lay.cols,
				 a->lay.rows);
		else
			snprintf(msg, sizeof msg, "No QR code: %s. Type the secret below into the app.",
				 v->qr_err);
		tfa_draw_lines(&in, &y, msg, theme_attr(ROLE_WARNING));
		y++;
	}
	char line[300];
	snprintf(line, sizeof line, "Secret: %s", groups);
	explicit_bzero(groups, sizeof groups);
	if (y < in.y + in.h)
		draw_text(y++, in.x, in.w, line, bg | A_BOLD);
	explicit_bzero(line, sizeof line);
	if (y < in.y + in.h)
		draw_text(y++, in.x, in.w, "Scan it, or type the secret, in your authenticator app.",
			  bg);
	if (y < in.y + in.h)
		draw_text(y++, in.x, in.w, "Enter: type the code it shows   Esc: cancel (nothing is added)",
			  theme_attr(ROLE_HINT));
}

/* Esc cancels; Enter (the set-up answered) goes on to the code. */
void tfa_totp_qr_key(struct app *a, struct tfa_view *v, int key)
{
	if (key == 27 || key == 'q') {
		tfa_flow_end(a, v);
		app_toast(a, ROLE_DIM, 4, "TOTP set-up cancelled: nothing was added");
	} else if ((key == '\n' || key == '\r' || key == KM_FN(KEY_ENTER)) && !v->busy) {
		tfa_totp_open_confirm(v);
	}
}
