/* dialog.h: modal dialogs: a confirmation that starts on Cancel, a choice
 * between two or three answers (Esc cancels), and a one-line input (text, or a number checked against a range by the caller)
 * that keeps what the user typed when the action fails.  A confirmed write
 * whose answer was lost locks its dialog (dialog_lost_*, the forms'
 * mechanism: form.h) until a re-read of the list says what happened.  Key
 * handling and input validation are pure; dialog_draw() needs curses.  UI
 * thread only. */
#ifndef RENTOP_UI_DIALOG_H
#define RENTOP_UI_DIALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "widgets/form.h"
#include "widgets/textbuf.h"

struct layout;

enum dlg_kind { DLG_NONE, DLG_CONFIRM, DLG_INPUT, DLG_CHOICE };
enum dlg_result { DLG_CONTINUE, DLG_CANCEL, DLG_SUBMIT };

struct dialog {
	enum dlg_kind kind;
	int purpose;        /* the caller's tag */
	long instance_id;   /* the instance it is about, 0 if none */
	char title[64];
	char text[512];     /* the question, or the input's prompt */
	char ok_label[24];  /* "Destroy", "OK", ... */
	int focus;          /* 0: Cancel, 1: the OK button; DLG_CHOICE: the answer (0 .. nchoice-1) */
	char choice[3][24]; /* DLG_CHOICE: the answers ("Direct", "Proxy") */
	int nchoice;        /* DLG_CHOICE: how many answers (2 or 3) */
	struct textbuf tb;  /* DLG_INPUT */
	char error[256];    /* shown under the input; kept until the next edit */
	bool waiting;       /* submitted; the result is awaited (2FA) */
	/* a live note under the input, recomputed from what is typed after each
	 * edit (the prepay dialog's months and discount); NULL: none */
	void (*preview)(const char *typed, double arg, char *out, size_t n);
	double preview_arg;
	char note[256];
	struct form_lost lost; /* a lost answer being checked (keys but Esc and q ignored) */
};

void dialog_confirm(struct dialog *d, int purpose, long id, const char *title, const char *text,
		    const char *ok_label);
/* Two answers, the first focused; Enter takes the focused one (DLG_SUBMIT
 * with focus 0 or 1), the first letter of an answer takes it at once,
 * Tab/Left/Right move, Esc or q cancels. */
void dialog_choice(struct dialog *d, int purpose, long id, const char *title, const char *text,
		   const char *first, const char *second);
/* As dialog_choice, with a third answer (focus 2). */
void dialog_choice3(struct dialog *d, int purpose, long id, const char *title, const char *text,
		    const char *first, const char *second, const char *third);
void dialog_input(struct dialog *d, int purpose, long id, const char *title, const char *prompt,
		  const char *initial, size_t max_chars);
/* Give an open input its live note (computed now and after each edit). */
void dialog_set_preview(struct dialog *d, void (*fn)(const char *, double, char *, size_t),
			double arg);
void dialog_update_preview(struct dialog *d); /* after the text was set from outside */
void dialog_close(struct dialog *d);
bool dialog_open(const struct dialog *d);
/* Feed one key (keymap codes): Tab/Left/Right move between buttons (Left and
 * Right edit the text in an input), Enter activates, Esc cancels (and q, in
 * a confirmation, where it is not text). */
enum dlg_result dialog_key(struct dialog *d, int key);

/* ---- a confirmed write whose answer was lost: at most once ------------------
 * As the forms' form_lost_* (form.h): dialog_lost_begin locks d (Enter
 * sends nothing; Esc and q close it) and says that the list is read
 * again; each re-read goes to dialog_lost_reread, which counts only a read
 * made after the loss and gives the verdict and its sentence (FV_WAIT: not
 * yet, or the read failed: d stays locked; FV_UNKNOWN: the list cannot
 * tell, d stays locked for good with the sentence, Esc closes it).  For
 * FV_DONE and FV_NOT_DONE the caller closes d and says the sentence: the
 * write is never sent again from this dialog; the operator's own key
 * opens a new one. */
void dialog_lost_begin(struct dialog *d, const struct form_lost_words *w, int before,
		       const char *why, double since);
/* Does d take no key but Esc and q (a result awaited, or a lost answer)? */
bool dialog_busy(const struct dialog *d);
/* Is d locked by a lost answer whose re-read has not decided yet? */
bool dialog_lost_checking(const struct dialog *d);
enum form_verdict dialog_lost_reread(struct dialog *d, double when, int after, const char *err,
				     char *msg, size_t n);

/* Input checks, before anything is sent: false with a message in err. */
/* A bid: 0.001 to max $/h (the instance's top: 32 per GPU, jobs_bid_max). */
bool dialog_parse_bid(const char *s, double max, double *out, char *err, size_t n);
bool dialog_parse_amount(const char *s, double *out, char *err, size_t n); /* > 0 */
bool dialog_check_label(const char *s, char *err, size_t n);
/* Live notes: what a prepay of the typed amount buys at dph_total $/h (the
 * months covered and the discount), and whether a typed bid is under the
 * instance's min_bid ($/h, NAN unknown). */
void dialog_prepay_preview(const char *typed, double dph_total, char *out, size_t n);
void dialog_bid_preview(const char *typed, double min_bid, char *out, size_t n);
/* The same for an outbid instance: whether the typed bid is above the
 * price that outbid it ($/h, NAN unknown), which starts it again. */
void dialog_outbid_preview(const char *typed, double price, char *out, size_t n);
/* "totp" for 6 digits, "backup" for XXXX-XXXX-XXXX, NULL otherwise. */
const char *dialog_tfa_method(const char *code);


/* curses: draw d centred over the screen. */
void dialog_draw(const struct dialog *d, const struct layout *l);

#endif
