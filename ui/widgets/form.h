/* form.h: the form widget: a modal box of typed fields (text, secret,
 * number with a range, choice, toggle, multi-line text edited in $EDITOR),
 * each validated with its message drawn beside it, a focus order, and an
 * area for the service's answer, which keeps the form open with what was
 * typed.  The create-instance, template, env var, API key, SSH key, 2FA and
 * workergroup forms are lists of these fields.
 *
 * Keys: Tab / Down next field, S-Tab / Up previous, readline editing in a
 * field (C-a, C-e, C-u, C-w, Left/Right, Backspace, Delete), Left/Right or
 * Space change a choice or a toggle, C-r shows or hides a secret, Enter on
 * a multi-line field asks for $EDITOR (FORM_EDIT; typing edits it in place
 * while it holds one line, and says so when it holds more), Enter elsewhere moves on
 * (on the last field it submits), C-s submits from any field, Esc cancels.
 * Nothing is submitted until every field is valid: the first invalid one
 * gets the focus and every invalid one is marked.
 *
 * A write whose answer was lost (form_lost_*, below) locks the form: the
 * service may have acted, so nothing is sent again until a read of the
 * list made after the loss says what the service holds.
 *
 * Everything but form_draw() and form_edit_external() is pure (the tests
 * drive it without a terminal).  Secret values are wiped (explicit_bzero)
 * when the form is freed or reset.  UI thread only. */
#ifndef RENTOP_UI_FORM_H
#define RENTOP_UI_FORM_H

#include <stdbool.h>
#include <stddef.h>

#include "widgets/textbuf.h"

struct layout;

enum field_kind { FK_TEXT, FK_SECRET, FK_NUMBER, FK_CHOICE, FK_TOGGLE, FK_MULTILINE };

#define FORM_MAX_FIELDS 24
#define FORM_MASK "********" /* a fixed_mask secret field's text, hidden */
#define FORM_MAX_CHOICES 12

struct form_field {
	enum field_kind kind;
	char name[32];       /* the caller's key */
	char label[48];
	bool required;       /* text, secret, number, multi-line: not empty */
	struct textbuf tb;   /* text, secret, number */
	double lo, hi;       /* number: the range */
	bool integer;        /* number: whole numbers only */
	const char *choices[FORM_MAX_CHOICES]; /* choice: static strings */
	int nchoices, choice;
	bool on;             /* toggle */
	char *text;          /* multi-line: owned, may be NULL */
	size_t max_bytes;    /* multi-line: the longest accepted */
	bool reveal;         /* secret: shown in clear (C-r) */
	bool fixed_mask;     /* secret: hidden as FORM_MASK whatever its length (not one * a character) */
	bool touched;        /* edited, or a submit was tried: its error is shown */
	/* Extra validation after the kind's own: false with a message. */
	bool (*check)(const struct form_field *f, char *err, size_t n);
	char error[160];     /* why it is invalid, "" when valid */
};

/* What a lost write's re-read looks for, in words (form_lost_begin,
 * dialog_lost_begin). */
struct form_lost_words {
	const char *what;    /* "API key dup-key", "endpoint 12" */
	const char *found;   /* the re-read shows it: "exists", "holds the new values", "is gone" */
	const char *missing; /* it does not: "not found", "holds the old values", "is still there" */
	const char *done;    /* "created", "changed", "deleted" */
	const char *undone;  /* "not created", "not changed", "not deleted" */
	const char *again;   /* how to send it again: NULL "press C-s to send again" */
	bool removes;        /* the write takes records away (a delete): done when fewer */
};

/* The state of a lost write (inside the form or the dialog). */
struct form_lost {
	bool on;             /* the outcome is unknown: the form is locked */
	bool final;          /* no re-read can tell: it stays locked (Esc closes) */
	bool removes;        /* form_lost_words.removes */
	double since;        /* wall epoch of the loss: only a read after it counts */
	int before;          /* matches in the list the write was sent over, -1: not known */
	char what[128], found[48], missing[48], done[24], undone[24], again[48];
};

struct form {
	char title[64];
	struct form_field f[FORM_MAX_FIELDS];
	int n;
	int focus;
	char answer[300];    /* the service's answer to the last submit, "" when none */
	char note[300];      /* information under the fields (not an error), "" when none */
	bool note_warn;      /* the note is a warning (drawn in the warning colour) */
	bool waiting;        /* submitted; the answer is awaited (keys but Esc ignored) */
	struct form_lost lost; /* a lost answer being checked (keys but Esc ignored) */
};

enum form_result { FORM_CONTINUE, FORM_CANCEL, FORM_SUBMIT, FORM_EDIT };

void form_init(struct form *fm, const char *title);
/* Wipe secret values, free multi-line texts; the form is empty after. */
void form_free(struct form *fm);

/* Add a field; its index, or -1 when the form is full. */
int form_add_text(struct form *fm, const char *name, const char *label, const char *initial,
		  size_t max_chars, bool required);
int form_add_secret(struct form *fm, const char *name, const char *label, size_t max_chars,
		    bool required);
int form_add_number(struct form *fm, const char *name, const char *label, const char *initial,
		    double lo, double hi, bool integer, bool required);
int form_add_choice(struct form *fm, const char *name, const char *label,
		    const char *const *choices, int n, int initial);
int form_add_toggle(struct form *fm, const char *name, const char *label, bool on);
int form_add_multiline(struct form *fm, const char *name, const char *label, const char *initial,
		       size_t max_bytes, bool required);

int form_find(const struct form *fm, const char *name); /* index or -1 */
/* Feed one key (keymap codes). */
enum form_result form_key(struct form *fm, int key);
/* Check every field (each error set or cleared); true when all are valid. */
bool form_validate(struct form *fm);
/* form_validate, and when a field is invalid the focus on the first one. */
bool form_validate_focus(struct form *fm);
/* Mark field idx invalid with msg (shown beside it) and focus it. */
void form_mark(struct form *fm, int idx, const char *msg);
/* Check one field; true when valid. */
bool form_check_field(struct form_field *f);

/* Values: a field's text (text, secret, number, multi-line: "" when none;
 * choice: the chosen string; toggle: "yes"/"no"). */
const char *form_value(const struct form *fm, const char *name);
bool form_number(const struct form *fm, const char *name, double *out);
bool form_toggle(const struct form *fm, const char *name);
int form_choice(const struct form *fm, const char *name);
/* Replace the text of field name (any kind with text); false: no such field. */
bool form_set(struct form *fm, const char *name, const char *text);
/* Replace a multi-line field's text (after $EDITOR). */
void form_set_text(struct form *fm, int idx, const char *text);
/* The service's answer (the form stays open; any note is cleared); field:
 * mark that field too (NULL: none). */
void form_set_answer(struct form *fm, const char *field, const char *msg);
/* Information under the fields, drawn apart from the errors (warn: in the
 * warning colour); NULL or "" clears it. */
void form_set_note(struct form *fm, const char *msg, bool warn);

/* The lines under the fields of a box inner cells wide whose messages
 * beside the fields have ew cells (0: none, a message then takes the
 * field's place, fw cells): every shown error that does not fit there in
 * full ("Label: message", the focused field's first), then the service's
 * answer, each wrapped to inner; then the note.  At most max lines into
 * out; *nerr gets how many of them are errors (the rest is the note).
 * Pure. */
#define FORM_MSG_LINES 12
int form_message_lines(const struct form *fm, int inner, int ew, int fw, char (*out)[256],
		       int max, int *nerr);

/* ---- a write whose answer was lost: at most once ------------------------------
 * When a form's send ends with an unknown outcome (its answer truncated,
 * dropped, timed out, or a 500/502/503 from a server in front), the form
 * does not go back to editing: form_lost_begin locks it (every key but Esc
 * does nothing, C-s sends nothing) and says so; the caller reads its list
 * again and gives each read to form_lost_reread, which counts only a read
 * made after the loss and says what it shows:
 *   FV_DONE      the write took effect ("API key dup-key exists: created"):
 *                the caller closes the form and says the message;
 *   FV_NOT_DONE  it did not ("... not found: not created; press C-s to send
 *                again"): the form is unlocked, everything typed kept, and a
 *                C-s is the operator's own decision to send again;
 *   FV_UNKNOWN   the list cannot tell: the form stays locked with why (Esc
 *                closes it; nothing is sent from it);
 *   FV_WAIT      not yet: the read is older than the loss, or failed (the
 *                form stays locked; the next read is looked at). */
enum form_verdict { FV_WAIT, FV_DONE, FV_NOT_DONE, FV_UNKNOWN };

/* The decision alone: before, the matches of what the write makes in the
 * list it was sent over (-1: the list cannot show it, e.g. a masked value);
 * after, the matches in the re-read (-1: the re-read failed).  More than
 * before: done; as many: not done; fewer (something else removed one
 * meanwhile) or before unknown: unknown; a failed re-read: wait. */
enum form_verdict form_lost_verdict(int before, int after);
/* The same for a write that takes records away (a delete): fewer than
 * before: done; as many: not done; more, or before unknown: unknown. */
enum form_verdict form_lost_verdict_removal(int before, int after);
/* The shared core of form_lost_* and dialog_lost_* (no widget): start
 * checking l; a re-read (the verdict, and its sentence in msg as
 * form_lost_reread says it).  l->on is cleared for FV_DONE and
 * FV_NOT_DONE, l->final set for FV_UNKNOWN. */
void form_lost_start(struct form_lost *l, const struct form_lost_words *w, int before,
		     double since);
void form_lost_text(const char *why, char *msg, size_t n);
enum form_verdict form_lost_check(struct form_lost *l, double when, int after, const char *err,
			     char *msg, size_t n);
/* Lock fm after a lost answer (why: the transport's or server's words;
 * since: the wall epoch of the loss); the answer line says what happened
 * and that the list is read again. */
void form_lost_begin(struct form *fm, const struct form_lost_words *w, int before,
		     const char *why, double since);
/* Does fm take no key but Esc (waiting for an answer, or locked by a lost
 * one)?  Its cursor is hidden then. */
bool form_busy(const struct form *fm);
/* Is fm locked by a lost answer whose re-read has not decided yet? */
bool form_lost_checking(const struct form *fm);
/* A re-read made at wall epoch `when` holding `after` matches (-1: it
 * failed; err: why, or NULL).  The verdict; for every verdict but FV_WAIT
 * the sentence to say is in msg (also the form's answer when it stays
 * open), and for FV_DONE and FV_NOT_DONE the form is unlocked. */
enum form_verdict form_lost_reread(struct form *fm, double when, int after, const char *err,
				   char *msg, size_t n);

/* What field f shows (pure): its text, a hidden secret as stars (one a
 * character, or FORM_MASK when fixed_mask and not empty), "< x >" for a
 * choice, "[x]" for a toggle, a multi-line field's first line and size. */
void form_shown_value(const struct form_field *f, char *buf, size_t n);

/* curses: draw the form centred over the screen, whatever its size (a
 * clear "too small" notice when the fields cannot be shown); places the
 * cursor in the focused field. */
void form_draw(const struct form *fm, const struct layout *l);
/* curses: edit multi-line field idx in $VISUAL / $EDITOR (vi when unset)
 * through a private temporary file (the text and a final newline; the
 * final newlines are taken off again); false with a message in err. */
bool form_edit_external(struct form *fm, int idx, char *err, size_t n);

/* A number typed in a field, lo..hi ("$" and spaces allowed): false with
 * a message in err ("not a number", "out of range"). */
bool form_parse_number(const char *s, double lo, double hi, double *out, char *err, size_t n);

#endif
