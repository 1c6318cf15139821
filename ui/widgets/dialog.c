/* dialog.c: the modal dialogs (confirm, choice, input), their keys, the checks of
 * what is typed into them, and their drawing. */
#include "widgets/dialog.h"
#include "widgets/form.h"

#define NCURSES_WIDECHAR 1
#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "poll/jobs.h"
#include "keymap.h"
#include "layout.h"
#include "state/money.h"
#include "theme.h"
#include "base/util.h"

void dialog_confirm(struct dialog *d, int purpose, long id, const char *title, const char *text,
		    const char *ok_label)
{
	memset(d, 0, sizeof *d);
	d->kind = DLG_CONFIRM;
	d->purpose = purpose;
	d->instance_id = id;
	util_strlcpy(d->title, title, sizeof d->title);
	util_strlcpy(d->text, text, sizeof d->text);
	util_strlcpy(d->ok_label, ok_label, sizeof d->ok_label);
	d->focus = 0; /* a destructive question starts on Cancel */
}

void dialog_choice(struct dialog *d, int purpose, long id, const char *title, const char *text,
		   const char *first, const char *second)
{
	dialog_confirm(d, purpose, id, title, text, "");
	d->kind = DLG_CHOICE;
	util_strlcpy(d->choice[0], first, sizeof d->choice[0]);
	util_strlcpy(d->choice[1], second, sizeof d->choice[1]);
	d->nchoice = 2;
	d->focus = 0;
}

void dialog_choice3(struct dialog *d, int purpose, long id, const char *title, const char *text,
		    const char *first, const char *second, const char *third)
{
	dialog_choice(d, purpose, id, title, text, first, second);
	util_strlcpy(d->choice[2], third, sizeof d->choice[2]);
	d->nchoice = 3;
}

void dialog_input(struct dialog *d, int purpose, long id, const char *title, const char *prompt,
		  const char *initial, size_t max_chars)
{
	memset(d, 0, sizeof *d);
	d->kind = DLG_INPUT;
	d->purpose = purpose;
	d->instance_id = id;
	util_strlcpy(d->title, title, sizeof d->title);
	util_strlcpy(d->text, prompt, sizeof d->text);
	util_strlcpy(d->ok_label, "OK", sizeof d->ok_label);
	d->tb.max_chars = max_chars;
	textbuf_set(&d->tb, initial ? initial : "");
	d->focus = 1;
}

void dialog_set_preview(struct dialog *d, void (*fn)(const char *, double, char *, size_t),
			double arg)
{
	d->preview = fn;
	d->preview_arg = arg;
	dialog_update_preview(d);
}

void dialog_update_preview(struct dialog *d)
{
	d->note[0] = '\0';
	if (d->preview)
		d->preview(d->tb.s, d->preview_arg, d->note, sizeof d->note);
}

void dialog_close(struct dialog *d)
{
	d->kind = DLG_NONE;
	memset(&d->lost, 0, sizeof d->lost);
}
bool dialog_open(const struct dialog *d) { return d->kind != DLG_NONE; }

enum dlg_result dialog_key(struct dialog *d, int key)
{
	if (d->kind == DLG_NONE)
		return DLG_CONTINUE;
	if (key == 27 || ((d->kind == DLG_CONFIRM || d->kind == DLG_CHOICE || d->lost.on) && key == 'q'))
		return DLG_CANCEL;
	if (d->lost.on)
		return DLG_CONTINUE; /* nothing is sent again from it */
	if (d->kind == DLG_CHOICE && key > 0 && key < 128 && !d->waiting) {
		for (int i = 0; i < d->nchoice; i++) /* an answer's first letter takes it */
			if (tolower(key) == tolower((unsigned char)d->choice[i][0])) {
				d->focus = i;
				return DLG_SUBMIT;
			}
	}
	if (d->waiting)
		return DLG_CONTINUE; /* only Esc while the result is awaited */
	switch (key) {
	case '\t': case KM_FN(KEY_BTAB):
		if (d->kind == DLG_CHOICE)
			d->focus = (d->focus + (key == '\t' ? 1 : d->nchoice - 1)) % d->nchoice;
		else
			d->focus = !d->focus;
		return DLG_CONTINUE;
	case '\n':
		return d->focus || d->kind == DLG_CHOICE ? DLG_SUBMIT : DLG_CANCEL;
	case KM_FN(KEY_LEFT): case KM_FN(KEY_RIGHT):
		if (d->kind == DLG_CHOICE) {
			int f = d->focus + (key == KM_FN(KEY_RIGHT) ? 1 : -1);
			d->focus = f < 0 ? 0 : f >= d->nchoice ? d->nchoice - 1 : f;
			return DLG_CONTINUE;
		}
		if (d->kind == DLG_CONFIRM) {
			d->focus = key == KM_FN(KEY_RIGHT);
			return DLG_CONTINUE;
		}
		break;
	default:
		break;
	}
	if (d->kind == DLG_INPUT && textbuf_key(&d->tb, key)) {
		d->error[0] = '\0';
		d->focus = 1;
		dialog_update_preview(d);
	}
	return DLG_CONTINUE;
}

void dialog_lost_begin(struct dialog *d, const struct form_lost_words *w, int before,
		       const char *why, double since)
{
	form_lost_text(why, d->error, sizeof d->error);
	d->waiting = false;
	form_lost_start(&d->lost, w, before, since);
}

bool dialog_busy(const struct dialog *d)
{
	return d->waiting || d->lost.on;
}

bool dialog_lost_checking(const struct dialog *d)
{
	return d->lost.on && !d->lost.final;
}

enum form_verdict dialog_lost_reread(struct dialog *d, double when, int after, const char *err,
				     char *msg, size_t n)
{
	if (!dialog_lost_checking(d)) {
		if (n)
			msg[0] = '\0';
		return FV_WAIT;
	}
	bool waited = when > d->lost.since;
	enum form_verdict v = form_lost_check(&d->lost, when, after, err, msg, n);
	if ((v == FV_WAIT && waited) || v == FV_UNKNOWN) /* FV_UNKNOWN: it stays locked */
		util_strlcpy(d->error, msg, sizeof d->error);
	return v;
}

bool dialog_parse_bid(const char *s, double max, double *out, char *err, size_t n)
{
	char why[200];
	if (!form_parse_number(s, BID_MIN, max, out, why, sizeof why)) {
		snprintf(err, n, "%s; a bid here is 0.001-%g $/hour (32 per GPU)", why, max);
		return false;
	}
	return true;
}

bool dialog_parse_amount(const char *s, double *out, char *err, size_t n)
{
	if (!form_parse_number(s, 0, 1e7, out, err, n))
		return false;
	if (!(*out > 0)) {
		snprintf(err, n, "the amount must be more than $0");
		return false;
	}
	return true;
}

bool dialog_check_label(const char *s, char *err, size_t n)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p) {
		snprintf(err, n, "the label cannot be empty");
		return false;
	}
	size_t chars = 0;
	for (p = s; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(err, n, "the label cannot hold control characters");
			return false;
		}
		if (((unsigned char)*p & 0xc0) != 0x80)
			chars++;
	}
	if (chars > LABEL_MAX) {
		snprintf(err, n, "the label is longer than %d characters", LABEL_MAX);
		return false;
	}
	return true;
}

void dialog_prepay_preview(const char *typed, double dph_total, char *out, size_t n)
{
	double amount, months, disc;
	char err[200], b1[32], b2[32], b3[32];
	const char *p = typed;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p) {
		snprintf(out, n, "type an amount: the months it covers and the discount show here");
		return;
	}
	if (!dialog_parse_amount(typed, &amount, err, sizeof err)) {
		snprintf(out, n, "%s", err);
		return;
	}
	if (!money_prepay_preview(amount, dph_total, &months, &disc)) {
		snprintf(out, n, "the instance's price is not known: no estimate");
		return;
	}
	/* the service's rule: months = amount / ($/h x 720), discount 0.4 x months / 12, at most 40% */
	snprintf(out, n, "%s covers %.1f months at %s: discount %.1f%% (0.4 x months / 12, 40%% from a year), about %s",
		 fmt_money(b1, sizeof b1, amount), months, fmt_rate(b2, sizeof b2, dph_total),
		 disc * 100.0, fmt_money(b3, sizeof b3, amount * disc));
}

void dialog_bid_preview(const char *typed, double min_bid, char *out, size_t n)
{
	double bid;
	char err[200], b1[32], b2[32];
	out[0] = '\0';
	if (!form_parse_number(typed, 0, 1e9, &bid, err, sizeof err) || !isfinite(min_bid))
		return;
	if (bid < min_bid)
		snprintf(out, n, "%s is under min_bid %s: the instance will be outbid and stopped",
			 fmt_rate(b1, sizeof b1, bid), fmt_rate(b2, sizeof b2, min_bid));
	else
		snprintf(out, n, "%s is at or above min_bid %s", fmt_rate(b1, sizeof b1, bid),
			 fmt_rate(b2, sizeof b2, min_bid));
}

void dialog_outbid_preview(const char *typed, double price, char *out, size_t n)
{
	double bid;
	char err[200], b1[32], b2[32];
	out[0] = '\0';
	if (!form_parse_number(typed, 0, 1e9, &bid, err, sizeof err) || !isfinite(price))
		return;
	if (bid > price)
		snprintf(out, n, "%s is above the %s that outbid it: the instance starts again",
			 fmt_rate(b1, sizeof b1, bid), fmt_rate(b2, sizeof b2, price));
	else
		snprintf(out, n, "%s is not above the %s that outbid it: the instance stays stopped",
			 fmt_rate(b1, sizeof b1, bid), fmt_rate(b2, sizeof b2, price));
}

const char *dialog_tfa_method(const char *code)
{
	size_t n = strlen(code);
	if (n == 6) {
		for (size_t i = 0; i < 6; i++)
			if (!isdigit((unsigned char)code[i]))
				return NULL;
		return "totp";
	}
	if (n == 14) {
		for (size_t i = 0; i < 14; i++) {
			if (i == 4 || i == 9) {
				if (code[i] != '-')
					return NULL;
			} else if (!isalnum((unsigned char)code[i])) {
				return NULL;
			}
		}
		return "backup";
	}
	return NULL;
}

/* The input's visible part: the tail around the cursor that fits in w. */
static void draw_input(const struct textbuf *tb, int y, int x, int w, unsigned long attr)
{
	draw_fill(y, x, w, attr);
	char before[TEXTBUF_BYTES + 1];
	memcpy(before, tb->s, tb->cur);
	before[tb->cur] = '\0';
	const char *start = tb->s;
	/* scroll so the cursor stays visible */
	while (util_strwidth(before + (start - tb->s)) > w - 1 && *start) {
		start++;
		while ((*start & 0xc0) == 0x80)
			start++;
	}
	draw_text(y, x, w, start, attr);
	int cx = x + util_strwidth(before + (start - tb->s));
	if (cx >= x + w)
		cx = x + w - 1;
	move(y, cx);
}

void dialog_draw(const struct dialog *d, const struct layout *l)
{
	if (d->kind == DLG_NONE || l->too_small)
		return;
	int want_w = util_strwidth(d->text) + 6;
	if (want_w < 50)
		want_w = 50;
	if (want_w > 72)
		want_w = 72;
	struct rect probe = layout_dialog(l, want_w, l->rows);
	int inner = probe.w - 4;
	/* every line of the text, the error and the note, wrapped: the box grows */
	char lines[12][256];
	int nl = draw_wrap(d->text, inner, lines, 12);
	char elines[7][256], nlines[7][256];
	int ne = d->error[0] ? draw_wrap(d->error, inner, elines, 7) : 0;
	int nn = d->kind == DLG_INPUT && d->note[0] ? draw_wrap(d->note, inner, nlines, 7) : 0;
	int h = 2 + 1 + nl + (d->kind == DLG_INPUT ? 2 : 0) + (ne ? ne + 1 : 0) + (nn ? nn + 1 : 0) +
		(d->waiting || d->lost.on ? 2 : 0) + 2;
	struct rect r = layout_dialog(l, want_w, h);
	unsigned long bg = theme_attr(ROLE_DIALOG);
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, d->title, bg);
	int y = r.y + 2, bottom = r.y + r.h - 2;
	for (int i = 0; i < nl && y < bottom; i++)
		draw_text(y++, r.x + 2, inner, lines[i], bg);
	int iy = -1;
	if (d->kind == DLG_INPUT && y + 1 < bottom) {
		y++;
		iy = y++;
	}
	if (nn && y + 1 <= bottom) { /* the live note */
		y++;
		for (int i = 0; i < nn && y < bottom; i++)
			draw_text(y++, r.x + 2, inner, nlines[i], bg);
	}
	if (ne && y + 1 <= bottom) {
		y++;
		for (int i = 0; i < ne && y < bottom; i++)
			draw_text(y++, r.x + 2, inner, elines[i], theme_attr(ROLE_ERROR));
	}
	if ((d->waiting || d->lost.on) && y + 1 <= bottom) {
		y++;
		draw_text(y++, r.x + 2, inner,
			  dialog_lost_checking(d) ? "outcome unknown: checking the list (Esc closes)"
			  : d->lost.on ? "outcome unknown: nothing is sent again (Esc closes)"
				     : "checking with the service...",
			  theme_attr(ROLE_PENDING));
	}
	/* buttons, right-aligned: [ Cancel ]  [ OK ], or the answers */
	char b[3][40];
	int nb = d->kind == DLG_CHOICE ? d->nchoice : 2, bw[3], total = 0;
	for (int i = 0; i < nb; i++) {
		snprintf(b[i], sizeof b[i], "[ %s ]",
			 d->kind == DLG_CHOICE ? d->choice[i] : i == 0 ? "Cancel" : d->ok_label);
		bw[i] = util_strwidth(b[i]);
		total += bw[i] + (i ? 2 : 0);
	}
	int bx = r.x + r.w - 2 - total;
	if (bx < r.x + 1)
		bx = r.x + 1;
	for (int i = 0; i < nb; i++) {
		draw_text(bottom, bx, bw[i], b[i],
			  theme_attr(d->focus == i ? ROLE_BUTTON_FOCUS : ROLE_BUTTON));
		bx += bw[i] + 2;
	}
	if (iy >= 0) {
		draw_input(&d->tb, iy, r.x + 2, inner, theme_attr(ROLE_INPUT));
		curs_set(1);
	}
}
