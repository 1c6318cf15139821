/* form.c: the form widget: fields and their values, key handling (focus
 * order, readline editing, choices and toggles, secrets shown on C-r),
 * validation with a message per field, the service's answer, drawing that
 * fits any screen size, and multi-line fields edited in $EDITOR. */
#include "widgets/form.h"

#define NCURSES_WIDECHAR 1
#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "draw.h"
#include "keymap.h"
#include "layout.h"
#include "theme.h"
#include "external.h"
#include "base/util.h"

void form_init(struct form *fm, const char *title)
{
	memset(fm, 0, sizeof *fm);
	util_strlcpy(fm->title, title, sizeof fm->title);
}

void form_free(struct form *fm)
{
	for (int i = 0; i < fm->n; i++) {
		struct form_field *f = &fm->f[i];
		if (f->kind == FK_SECRET)
			explicit_bzero(&f->tb, sizeof f->tb);
		free(f->text);
		f->text = NULL;
	}
	fm->n = 0;
	fm->focus = 0;
}

/* A new field of kind k, or NULL when the form is full. */
static struct form_field *add(struct form *fm, enum field_kind k, const char *name,
			      const char *label)
{
	if (fm->n >= FORM_MAX_FIELDS)
		return NULL;
	struct form_field *f = &fm->f[fm->n++];
	memset(f, 0, sizeof *f);
	f->kind = k;
	util_strlcpy(f->name, name, sizeof f->name);
	util_strlcpy(f->label, label, sizeof f->label);
	return f;
}

int form_add_text(struct form *fm, const char *name, const char *label, const char *initial,
		  size_t max_chars, bool required)
{
	struct form_field *f = add(fm, FK_TEXT, name, label);
	if (!f)
		return -1;
	f->required = required;
	f->tb.max_chars = max_chars;
	textbuf_set(&f->tb, initial ? initial : "");
	return fm->n - 1;
}

int form_add_secret(struct form *fm, const char *name, const char *label, size_t max_chars,
		    bool required)
{
	int i = form_add_text(fm, name, label, "", max_chars, required);
	if (i >= 0)
		fm->f[i].kind = FK_SECRET;
	return i;
}

int form_add_number(struct form *fm, const char *name, const char *label, const char *initial,
		    double lo, double hi, bool integer, bool required)
{
	int i = form_add_text(fm, name, label, initial, 32, required);
	if (i < 0)
		return -1;
	struct form_field *f = &fm->f[i];
	f->kind = FK_NUMBER;
	f->lo = lo;
	f->hi = hi;
	f->integer = integer;
	return i;
}

int form_add_choice(struct form *fm, const char *name, const char *label,
		    const char *const *choices, int n, int initial)
{
	struct form_field *f = add(fm, FK_CHOICE, name, label);
	if (!f)
		return -1;
	if (n > FORM_MAX_CHOICES)
		n = FORM_MAX_CHOICES;
	for (int i = 0; i < n; i++)
		f->choices[i] = choices[i];
	f->nchoices = n;
	f->choice = initial >= 0 && initial < n ? initial : 0;
	return fm->n - 1;
}

int form_add_toggle(struct form *fm, const char *name, const char *label, bool on)
{
	struct form_field *f = add(fm, FK_TOGGLE, name, label);
	if (!f)
		return -1;
	f->on = on;
	return fm->n - 1;
}

/* A multi-line field's text as its one-line edit buffer holds it, when it
 * can: then typing edits it in place. */
static void ml_sync(struct form_field *f)
{
	textbuf_set(&f->tb, f->text ? f->text : "");
}

/* Is the multi-line field f one line that its edit buffer holds whole
 * (no newline, no character the buffer refuses, not too long)? */
static bool ml_inline(const struct form_field *f)
{
	return f->kind == FK_MULTILINE && strcmp(f->tb.s, f->text ? f->text : "") == 0;
}

int form_add_multiline(struct form *fm, const char *name, const char *label, const char *initial,
		       size_t max_bytes, bool required)
{
	struct form_field *f = add(fm, FK_MULTILINE, name, label);
	if (!f)
		return -1;
	f->required = required;
	f->max_bytes = max_bytes;
	f->text = xstrdup(initial ? initial : "");
	ml_sync(f);
	return fm->n - 1;
}

int form_find(const struct form *fm, const char *name)
{
	for (int i = 0; i < fm->n; i++)
		if (strcmp(fm->f[i].name, name) == 0)
			return i;
	return -1;
}

/* The field's text with blanks around it ignored: is there any? */
static bool blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

bool form_check_field(struct form_field *f)
{
	f->error[0] = '\0';
	switch (f->kind) {
	case FK_TEXT:
	case FK_SECRET:
		if (f->required && blank(f->tb.s)) {
			snprintf(f->error, sizeof f->error, "required");
			return false;
		}
		break;
	case FK_NUMBER: {
		if (blank(f->tb.s)) {
			if (f->required) {
				snprintf(f->error, sizeof f->error, "required (%g-%g)", f->lo, f->hi);
				return false;
			}
			break;
		}
		double v;
		char why[160];
		if (!form_parse_number(f->tb.s, f->lo, f->hi, &v, why, sizeof why)) {
			util_strlcpy(f->error, why, sizeof f->error);
			return false;
		}
		if (f->integer && v != floor(v)) {
			snprintf(f->error, sizeof f->error, "a whole number (%g-%g)", f->lo, f->hi);
			return false;
		}
		break;
	}
	case FK_CHOICE:
		if (f->nchoices == 0) {
			snprintf(f->error, sizeof f->error, "nothing to choose from");
			return false;
		}
		break;
	case FK_TOGGLE:
		break;
	case FK_MULTILINE:
		if (f->required && (!f->text || blank(f->text))) {
			snprintf(f->error, sizeof f->error, "required (Enter opens $EDITOR)");
			return false;
		}
		if (f->text && f->max_bytes && strlen(f->text) > f->max_bytes) {
			snprintf(f->error, sizeof f->error, "%zu bytes, at most %zu", strlen(f->text),
				 f->max_bytes);
			return false;
		}
		break;
	}
	if (f->check && !f->check(f, f->error, sizeof f->error))
		return false;
	return true;
}

bool form_validate(struct form *fm)
{
	bool ok = true;
	for (int i = 0; i < fm->n; i++) {
		fm->f[i].touched = true;
		ok = form_check_field(&fm->f[i]) && ok;
	}
	return ok;
}

static void move_focus(struct form *fm, int delta)
{
	if (fm->n)
		fm->focus = ((fm->focus + delta) % fm->n + fm->n) % fm->n;
}

bool form_validate_focus(struct form *fm)
{
	if (form_validate(fm))
		return true;
	for (int i = 0; i < fm->n; i++)
		if (fm->f[i].error[0]) {
			fm->focus = i;
			break;
		}
	return false;
}

/* C-s, or Enter on the last field: submit when every field is valid,
 * else focus the first invalid one. */
static enum form_result try_submit(struct form *fm)
{
	if (!form_validate_focus(fm))
		return FORM_CONTINUE;
	fm->answer[0] = '\0';
	return FORM_SUBMIT;
}

enum form_result form_key(struct form *fm, int key)
{
	if (key == 27)
		return FORM_CANCEL;
	if (form_busy(fm) || fm->n == 0)
		return FORM_CONTINUE;
	struct form_field *f = &fm->f[fm->focus];
	switch (key) {
	case '\t': case KM_FN(KEY_DOWN): move_focus(fm, 1); return FORM_CONTINUE;
	case KM_FN(KEY_BTAB): case KM_FN(KEY_UP): move_focus(fm, -1); return FORM_CONTINUE;
	case KM_CTRL('s'): return try_submit(fm);
	case '\n':
		if (f->kind == FK_MULTILINE)
			return FORM_EDIT;
		if (f->kind == FK_TOGGLE) {
			f->on = !f->on;
			f->touched = true;
			return FORM_CONTINUE;
		}
		if (fm->focus == fm->n - 1)
			return try_submit(fm);
		move_focus(fm, 1);
		return FORM_CONTINUE;
	default:
		break;
	}
	switch (f->kind) {
	case FK_CHOICE:
		if (f->nchoices && (key == KM_FN(KEY_RIGHT) || key == ' '))
			f->choice = (f->choice + 1) % f->nchoices;
		else if (f->nchoices && key == KM_FN(KEY_LEFT))
			f->choice = (f->choice + f->nchoices - 1) % f->nchoices;
		else
			return FORM_CONTINUE;
		break;
	case FK_TOGGLE:
		if (key == ' ' || key == KM_FN(KEY_LEFT) || key == KM_FN(KEY_RIGHT))
			f->on = !f->on;
		else
			return FORM_CONTINUE;
		break;
	case FK_SECRET:
		if (key == KM_CTRL('r')) {
			f->reveal = !f->reveal;
			return FORM_CONTINUE;
		}
		if (!textbuf_key(&f->tb, key))
			return FORM_CONTINUE;
		break;
	case FK_TEXT:
	case FK_NUMBER:
		if (!textbuf_key(&f->tb, key))
			return FORM_CONTINUE;
		break;
	case FK_MULTILINE: {
		bool typed = !(key & KM_FN_BIT) && key >= 0x20;
		if (ml_inline(f) && textbuf_key(&f->tb, key)) {
			free(f->text);
			f->text = xstrdup(f->tb.s);
			break;
		}
		if (typed) { /* several lines, or a line as long as the field takes: said */
			size_t lines = 1;
			for (const char *p = f->text ? f->text : ""; *p; p++)
				lines += *p == '\n' && p[1];
			char m[200];
			snprintf(m, sizeof m, "%s holds %zu line%s%s: Enter edits %s in $EDITOR (typing "
				 "here changes nothing)", f->label, lines, lines == 1 ? "" : "s",
				 lines == 1 ? " as long as typing takes" : "", lines == 1 ? "it" : "them");
			form_set_note(fm, m, true);
		}
		return FORM_CONTINUE;
	}
	}
	/* an edit: re-check the field as it is typed */
	f->touched = true;
	form_check_field(f);
	return FORM_CONTINUE;
}

const char *form_value(const struct form *fm, const char *name)
{
	int i = form_find(fm, name);
	if (i < 0)
		return "";
	const struct form_field *f = &fm->f[i];
	switch (f->kind) {
	case FK_TEXT: case FK_SECRET: case FK_NUMBER: return f->tb.s;
	case FK_CHOICE: return f->nchoices ? f->choices[f->choice] : "";
	case FK_TOGGLE: return f->on ? "yes" : "no";
	case FK_MULTILINE: return f->text ? f->text : "";
	}
	return "";
}

bool form_number(const struct form *fm, const char *name, double *out)
{
	int i = form_find(fm, name);
	if (i < 0 || fm->f[i].kind != FK_NUMBER || blank(fm->f[i].tb.s))
		return false;
	char why[160];
	return form_parse_number(fm->f[i].tb.s, fm->f[i].lo, fm->f[i].hi, out, why, sizeof why);
}

bool form_toggle(const struct form *fm, const char *name)
{
	int i = form_find(fm, name);
	return i >= 0 && fm->f[i].kind == FK_TOGGLE && fm->f[i].on;
}

int form_choice(const struct form *fm, const char *name)
{
	int i = form_find(fm, name);
	return i >= 0 && fm->f[i].kind == FK_CHOICE ? fm->f[i].choice : -1;
}

void form_set_text(struct form *fm, int idx, const char *text)
{
	if (idx < 0 || idx >= fm->n || fm->f[idx].kind != FK_MULTILINE)
		return;
	free(fm->f[idx].text);
	fm->f[idx].text = xstrdup(text ? text : "");
	ml_sync(&fm->f[idx]);
	fm->f[idx].touched = true;
	form_check_field(&fm->f[idx]);
}

bool form_set(struct form *fm, const char *name, const char *text)
{
	int i = form_find(fm, name);
	if (i < 0)
		return false;
	if (fm->f[i].kind == FK_MULTILINE)
		form_set_text(fm, i, text);
	else
		textbuf_set(&fm->f[i].tb, text ? text : "");
	return true;
}

void form_mark(struct form *fm, int idx, const char *msg)
{
	if (idx < 0 || idx >= fm->n)
		return;
	util_strlcpy(fm->f[idx].error, msg ? msg : "", sizeof fm->f[idx].error);
	fm->f[idx].touched = true;
	fm->focus = idx;
}

void form_set_answer(struct form *fm, const char *field, const char *msg)
{
	char *clean = util_sanitize(msg ? msg : "");
	util_strlcpy(fm->answer, clean, sizeof fm->answer);
	free(clean);
	fm->waiting = false;
	fm->note[0] = '\0'; /* the answer supersedes any note */
	form_mark(fm, field ? form_find(fm, field) : -1, fm->answer);
}

/* ---- a write whose answer was lost ------------------------------------------ */

enum form_verdict form_lost_verdict(int before, int after)
{
	if (after < 0)
		return FV_WAIT;
	if (before < 0 || after < before)
		return FV_UNKNOWN;
	return after > before ? FV_DONE : FV_NOT_DONE;
}

enum form_verdict form_lost_verdict_removal(int before, int after)
{
	if (after < 0)
		return FV_WAIT;
	if (before < 0 || after > before)
		return FV_UNKNOWN;
	return after < before ? FV_DONE : FV_NOT_DONE;
}

void form_lost_start(struct form_lost *l, const struct form_lost_words *w, int before,
		     double since)
{
	memset(l, 0, sizeof *l);
	l->on = true;
	l->since = since;
	l->before = before;
	l->removes = w->removes;
	util_strlcpy(l->what, w->what ? w->what : "", sizeof l->what);
	util_strlcpy(l->found, w->found ? w->found : "", sizeof l->found);
	util_strlcpy(l->missing, w->missing ? w->missing : "", sizeof l->missing);
	util_strlcpy(l->done, w->done ? w->done : "", sizeof l->done);
	util_strlcpy(l->undone, w->undone ? w->undone : "", sizeof l->undone);
	util_strlcpy(l->again, w->again ? w->again : "press C-s to send again", sizeof l->again);
}

void form_lost_text(const char *why, char *msg, size_t n)
{
	snprintf(msg, n, "the answer was lost (%s): the change may have been made; "
		 "the list is read again before anything is sent", why && *why ? why : "no answer");
}

enum form_verdict form_lost_check(struct form_lost *l, double when, int after, const char *err,
			     char *msg, size_t n)
{
	if (n)
		msg[0] = '\0';
	if (!l->on || l->final || when <= l->since)
		return FV_WAIT;
	enum form_verdict v = l->removes ? form_lost_verdict_removal(l->before, after)
					 : form_lost_verdict(l->before, after);
	switch (v) {
	case FV_WAIT:
		snprintf(msg, n, "the answer was lost and the re-read failed (%s): the outcome is "
			 "still unknown; the list is read again", err && *err ? err : "no answer");
		return FV_WAIT;
	case FV_DONE:
		snprintf(msg, n, "%s %s: %s", l->what, l->found, l->done);
		l->on = false;
		return FV_DONE;
	case FV_NOT_DONE:
		snprintf(msg, n, "%s %s: %s; %s", l->what, l->missing, l->undone, l->again);
		l->on = false;
		return FV_NOT_DONE;
	case FV_UNKNOWN: {
		bool shows = l->removes ? after == 0 : after > 0;
		snprintf(msg, n, "%s %s, but the re-read cannot tell whether it was %s: check it "
			 "before sending again (Esc closes)", l->what, shows ? l->found : l->missing,
			 l->done);
		l->final = true;
		return FV_UNKNOWN;
	}
	}
	return FV_WAIT;
}

void form_lost_begin(struct form *fm, const struct form_lost_words *w, int before,
		     const char *why, double since)
{
	char msg[400];
	form_lost_text(why, msg, sizeof msg);
	form_set_answer(fm, NULL, msg);
	form_lost_start(&fm->lost, w, before, since);
}

bool form_busy(const struct form *fm)
{
	return fm->waiting || fm->lost.on;
}

bool form_lost_checking(const struct form *fm)
{
	return fm->lost.on && !fm->lost.final;
}

enum form_verdict form_lost_reread(struct form *fm, double when, int after, const char *err,
				   char *msg, size_t n)
{
	if (!form_lost_checking(fm)) {
		if (n)
			msg[0] = '\0';
		return FV_WAIT;
	}
	bool waited = when > fm->lost.since;
	enum form_verdict v = form_lost_check(&fm->lost, when, after, err, msg, n);
	if (v != FV_DONE && (v != FV_WAIT || waited))
		form_set_answer(fm, NULL, msg);
	return v;
}

void form_set_note(struct form *fm, const char *msg, bool warn)
{
	char *clean = util_sanitize(msg ? msg : "");
	util_strlcpy(fm->note, clean, sizeof fm->note);
	free(clean);
	fm->note_warn = warn;
}

/* Does "! msg" fit in w cells (where it is drawn beside or over a field)? */
static bool fits_beside(const char *msg, int w)
{
	return w > 2 && util_strwidth(msg) + 2 <= w;
}

int form_message_lines(const struct form *fm, int inner, int ew, int fw, char (*out)[256],
		       int max, int *nerr)
{
	int n = 0;
	char m[300];
	/* the focused field's error first, then the others in field order */
	for (int k = -1; k < fm->n && n < max; k++) {
		int i = k < 0 ? fm->focus : k;
		if (i < 0 || i >= fm->n || (k >= 0 && i == fm->focus))
			continue;
		const struct form_field *f = &fm->f[i];
		if (!f->touched || !f->error[0])
			continue;
		/* shown whole beside the field (or over a field not focused) */
		if (ew ? fits_beside(f->error, ew) : i != fm->focus && fits_beside(f->error, fw))
			continue;
		if (!strcmp(f->error, fm->answer))
			continue; /* the answer marked on its field: said once, below */
		snprintf(m, sizeof m, "%s: %s", f->label, f->error);
		n += draw_wrap(m, inner, out + n, max - n);
	}
	if (fm->answer[0] && n < max)
		n += draw_wrap(fm->answer, inner, out + n, max - n);
	*nerr = n;
	if (fm->note[0] && n < max)
		n += draw_wrap(fm->note, inner, out + n, max - n);
	return n;
}

/* ---- drawing ----------------------------------------------------------------- */

void form_shown_value(const struct form_field *f, char *buf, size_t n)
{
	switch (f->kind) {
	case FK_TEXT: case FK_NUMBER: util_strlcpy(buf, f->tb.s, n); return;
	case FK_SECRET:
		if (f->reveal) {
			util_strlcpy(buf, f->tb.s, n);
		} else if (f->fixed_mask) {
			util_strlcpy(buf, f->tb.s[0] ? FORM_MASK : "", n);
		} else {
			size_t k = textbuf_chars(&f->tb), o = 0;
			for (size_t i = 0; i < k && o + 1 < n; i++)
				buf[o++] = '*';
			buf[o] = '\0';
		}
		return;
	case FK_CHOICE:
		snprintf(buf, n, "< %s >", f->nchoices ? f->choices[f->choice] : "-");
		return;
	case FK_TOGGLE: snprintf(buf, n, "[%s]", f->on ? "x" : " "); return;
	case FK_MULTILINE: {
		const char *t = f->text ? f->text : "";
		size_t first = strcspn(t, "\n");
		size_t lines = 0;
		for (const char *p = t; *p; p++)
			lines += *p == '\n';
		char line[128];
		snprintf(line, sizeof line, "%.*s", (int)(first < 60 ? first : 60), t);
		if (!*t)
			snprintf(buf, n, "(empty: Enter edits)");
		else
			snprintf(buf, n, "%s%s (%zu bytes, Enter edits)", line, lines ? " ..." : "",
				 strlen(t));
		return;
	}
	}
	buf[0] = '\0';
}

void form_draw(const struct form *fm, const struct layout *l)
{
	if (l->too_small)
		return;
	int lw = 0;
	for (int i = 0; i < fm->n; i++) {
		int w = util_strwidth(fm->f[i].label);
		if (w > lw)
			lw = w;
	}
	/* label, field (at least 24), the error beside it when room */
	int want_w = 4 + lw + 2 + 40 + 2 + 30;
	struct rect probe = layout_dialog(l, want_w, l->rows);
	int inner = probe.w - 4;
	int fx = probe.x + 2 + lw + 2;      /* field column */
	int fw = inner - lw - 2;            /* field and error share this */
	int ew = fw > 64 ? fw - 42 : 0;     /* error beside the field when it fits */
	if (ew)
		fw -= ew + 1;
	/* under the fields: the errors that do not fit beside, the answer, the
	 * note, each wrapped inside the box (which grows to hold them) */
	char msg[FORM_MSG_LINES][256];
	int nerr = 0;
	int nmsg = form_message_lines(fm, inner, ew, fw, msg, FORM_MSG_LINES, &nerr);
	int want_h = 2 + fm->n + 1 + (nmsg ? nmsg + 1 : 0) + 2;
	struct rect r = layout_dialog(l, want_w, want_h);
	fx += r.x - probe.x;
	unsigned long bg = theme_attr(ROLE_DIALOG);
	int need_w = 4 + lw + 2 + 12;
	if (r.w < need_w || r.h < 2 + fm->n + 2) {
		for (int j = 0; j < r.h; j++)
			draw_fill(r.y + j, r.x, r.w, bg);
		char small[120];
		snprintf(small, sizeof small, "terminal too small for this form: need %dx%d (Esc cancels)",
			 need_w + 2, 2 + fm->n + 4);
		draw_text(r.y + r.h / 2, r.x + 1, r.w - 2, small, theme_attr(ROLE_WARNING));
		curs_set(0);
		return;
	}
	for (int j = 0; j < r.h; j++)
		draw_fill(r.y + j, r.x, r.w, bg);
	draw_box(r.y, r.x, r.h, r.w, fm->title, bg);
	int cy = -1, cx = -1;
	for (int i = 0; i < fm->n; i++) {
		const struct form_field *f = &fm->f[i];
		int y = r.y + 2 + i;
		bool invalid = f->touched && f->error[0];
		draw_text(y, r.x + 2, lw, f->label,
			  theme_attr(invalid ? ROLE_ERROR : i == fm->focus ? ROLE_KEY : ROLE_DIALOG));
		char val[TEXTBUF_BYTES + 1];
		bool edit = f->kind == FK_TEXT || f->kind == FK_NUMBER || f->kind == FK_SECRET ||
			    (ml_inline(f) && i == fm->focus); /* a one-line script typed in place */
		if (f->kind == FK_MULTILINE && edit)
			util_strlcpy(val, f->tb.s, sizeof val);
		else
			form_shown_value(f, val, sizeof val);
		unsigned long at = theme_attr(i == fm->focus ? ROLE_INPUT : ROLE_DIALOG);
		draw_fill(y, fx, fw, at);
		/* keep the cursor in view: show the tail when the text is wider */
		const char *start = val;
		int cur_w = 0;
		if (edit && i == fm->focus) {
			char before[TEXTBUF_BYTES + 1];
			if (f->kind == FK_SECRET && !f->reveal && f->fixed_mask) {
				util_strlcpy(before, val, sizeof before); /* the cursor after the mask */
			} else if (f->kind == FK_SECRET && !f->reveal) {
				size_t k = 0;
				for (size_t b = 0; b < f->tb.cur; b++)
					k += ((unsigned char)f->tb.s[b] & 0xc0) != 0x80;
				memset(before, '*', k);
				before[k] = '\0';
			} else {
				memcpy(before, f->tb.s, f->tb.cur);
				before[f->tb.cur] = '\0';
			}
			size_t skip = 0;
			while (util_strwidth(before + skip) > fw - 1 && before[skip]) {
				skip++;
				while ((before[skip] & 0xc0) == 0x80)
					skip++;
			}
			start = val + skip;
			cur_w = util_strwidth(before + skip);
			cy = y;
			cx = fx + cur_w;
		}
		draw_text(y, fx, fw, start, at);
		if (invalid) { /* whole, or "see below" where the lines under the fields say it */
			char e[200];
			int w = ew ? ew : fw;
			if (fits_beside(f->error, w))
				snprintf(e, sizeof e, "! %s", f->error);
			else
				snprintf(e, sizeof e, "! see below");
			if (ew)
				draw_text(y, fx + fw + 1, ew, e, theme_attr(ROLE_ERROR));
			else if (i != fm->focus)
				draw_text(y, fx, fw, e, theme_attr(ROLE_ERROR)); /* over the value */
		}
	}
	int y = r.y + 2 + fm->n + 1;
	for (int k = 0; k < nmsg && y < r.y + r.h - 2; k++)
		draw_text(y++, r.x + 2, inner, msg[k],
			  theme_attr(k < nerr ? ROLE_ERROR : fm->note_warn ? ROLE_WARNING : ROLE_DIALOG));
	const struct form_field *ff = fm->n ? &fm->f[fm->focus] : NULL;
	const char *keys = fm->waiting		    ? "sending... (Esc closes)"
			   : form_lost_checking(fm) ? "outcome unknown: checking the list (Esc closes)"
			   : fm->lost.on	    ? "outcome unknown: nothing is sent again (Esc closes)"
			   : ff && ff->kind == FK_MULTILINE
				   ? "C-s submit  Esc cancel  Tab next field  Enter edits in $EDITOR"
				   : "C-s submit  Esc cancel  Tab next field";
	draw_text(r.y + r.h - 2, r.x + 2, inner, keys, theme_attr(ROLE_DIM));
	if (cy >= 0 && !form_busy(fm)) {
		move(cy, cx < fx + fw ? cx : fx + fw - 1);
		curs_set(1);
	} else {
		curs_set(0);
	}
}

bool form_edit_external(struct form *fm, int idx, char *err, size_t n)
{
	if (idx < 0 || idx >= fm->n || fm->f[idx].kind != FK_MULTILINE) {
		snprintf(err, n, "not a multi-line field");
		return false;
	}
	const char *tmpdir = getenv("TMPDIR");
	char path[512];
	snprintf(path, sizeof path, "%s/rentop-edit.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemp(path); /* mode 0600 */
	if (fd < 0) {
		snprintf(err, n, "cannot create a temporary file: %s", strerror(errno));
		return false;
	}
	const char *t = fm->f[idx].text ? fm->f[idx].text : "";
	size_t len = strlen(t), off = 0;
	/* the text and a final newline (a text file's last line ends with one;
	 * editors warn without it, and it is taken off again after) */
	bool nl = len && t[len - 1] != '\n';
	while (off < len + nl) {
		ssize_t w = off < len ? write(fd, t + off, len - off) : write(fd, "\n", 1);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fd);
	const char *ed = getenv("VISUAL");
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	char edbuf[256];
	util_strlcpy(edbuf, ed, sizeof edbuf);
	char *argv[18];
	int argc = 0;
	char *save = NULL;
	for (char *w = strtok_r(edbuf, " \t", &save); w && argc < 16; w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc++] = path;
	argv[argc] = NULL;
	int st = external_run(argv);
	bool ok = false;
	if (st != 0) {
		snprintf(err, n, "%s ended with status %d; the text is unchanged", argv[0], st);
	} else {
		FILE *in = fopen(path, "r");
		if (!in) {
			snprintf(err, n, "cannot read the edited file: %s", strerror(errno));
		} else {
			size_t cap = fm->f[idx].max_bytes ? fm->f[idx].max_bytes + 2 : 65536;
			char *buf = xmalloc(cap);
			size_t got = fread(buf, 1, cap - 1, in);
			buf[got] = '\0';
			fclose(in);
			while (got && buf[got - 1] == '\n') /* editors add a final newline */
				buf[--got] = '\0';
			form_set_text(fm, idx, buf);
			free(buf);
			ok = true;
		}
	}
	unlink(path);
	return ok;
}

bool form_parse_number(const char *s, double lo, double hi, double *out, char *err, size_t n)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '$')
		s++;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno || !isfinite(v)) {
		snprintf(err, n, "not a number: \"%s\"", s);
		return false;
	}
	if (v < lo || v > hi) {
		snprintf(err, n, "out of range: %g is not between %g and %g", v, lo, hi);
		return false;
	}
	*out = v;
	return true;
}
