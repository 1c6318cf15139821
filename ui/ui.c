/* ui.c: the UI thread: curses set-up and tear-down, the main loop, signals,
 * resize, suspend and running external programs (ssh) with the terminal.
 *
 * The loop sleeps in poll() on stdin and the model's wake fd, with no
 * timeout unless something is due (a toast to expire, the minute an age
 * changes, the moment data turns stale, a view's next_wake), and on the
 * test clock's FIFO when `--test-clock` named one (tests only).  Each iteration takes new events,
 * swaps in a newer snapshot unless paused, drains every key, redraws only
 * the dirty parts and calls doupdate() once.  Signal handlers only set a
 * flag and wake the loop.  The terminal is restored on every exit path:
 * normal return, exit() (atexit), and fatal signals (a handler that resets
 * the terminal with async-signal-safe calls, then re-raises). */
#include "ui.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <term.h> /* tigetstr; its capability macros are dropped below */
#include <termios.h>
#undef bell
#undef lines
#undef columns
#include <unistd.h>

#include "app.h"
#include "base/config.h"
#include "draw.h"
#include "command.h"
#include "idlewatch.h"
#include "complete.h"
#include "base/errline.h"
#include "base/log.h"
#include "header.h"
#include "notify_out.h"
#include "history.h"
#include "widgets/list.h"
#include "state/model.h"
#include "poll/poller.h"
#include "statusbar.h"
#include "tfa_challenge.h"
#include "flow/gpunames.h"
#include "base/util.h"

#define HANGUP_STATUS (128 + SIGHUP) /* the terminal hung up: as if SIGHUP */

static volatile sig_atomic_t sig_winch, sig_quit, sig_tstp, sig_cont;
static struct model *sig_model;
static struct termios orig_tio;
static bool have_tio;
static volatile sig_atomic_t curses_on;
static char restore_seq[256]; /* sgr0 + cnorm + rmkx + rmcup, captured at start */
static size_t restore_len;

static void on_signal(int sig)
{
	int saved = errno;
	switch (sig) {
	case SIGWINCH: sig_winch = 1; break;
	case SIGTSTP: sig_tstp = 1; break;
	case SIGCONT: sig_cont = 1; break;
	default: sig_quit = sig; break;
	}
	if (sig_model)
		model_wake(sig_model);
	errno = saved;
}

/* Async-signal-safe terminal restore for fatal paths. */
static void restore_async(void)
{
	if (!curses_on)
		return;
	if (restore_len) {
		ssize_t w = write(STDOUT_FILENO, restore_seq, restore_len);
		(void)w;
	}
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &orig_tio);
	curses_on = 0;
}

static void on_fatal(int sig)
{
	restore_async();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	if (curses_on && !isendwin())
		endwin();
	curses_on = 0;
}

static void set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static void install_signals(void)
{
	static const int flagged[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT };
	for (size_t i = 0; i < sizeof flagged / sizeof flagged[0]; i++)
		set_handler(flagged[i], on_signal, SA_RESTART);
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		set_handler(fatal[i], on_fatal, SA_RESETHAND | SA_NODEFER);
}

static void reset_signals(void)
{
	static const int all[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT,
				   SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		set_handler(all[i], SIG_DFL, 0);
}

/* Capture the strings that put the terminal back (for on_fatal): attributes
 * off, the cursor shown, keypad transmit off (else the shell's arrow keys
 * send application sequences), the alternate screen left. */
static void capture_restore(void)
{
	const char *caps[] = { "sgr0", "cnorm", "rmkx", "rmcup" };
	restore_len = 0;
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		char *s = tigetstr(caps[i]);
		if (!s || s == (char *)-1)
			continue;
		size_t n = strlen(s);
		if (restore_len + n < sizeof restore_seq) {
			memcpy(restore_seq + restore_len, s, n);
			restore_len += n;
		}
	}
}

/* Stop the process for the shell (C-z or SIGTSTP); back on SIGCONT. */
static void suspend(struct app *a)
{
	def_prog_mode();
	endwin();
	set_handler(SIGTSTP, SIG_DFL, 0);
	kill(getpid(), SIGTSTP);
	/* continued */
	set_handler(SIGTSTP, on_signal, SA_RESTART);
	reset_prog_mode();
	a->dirty |= DIRTY_ALL;
}

static void resize(struct app *a)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	layout_compute(&a->lay, LINES, COLS);
	erase();
	clearok(curscr, TRUE); /* what the terminal shows after a resize is unknown */
	a->dirty |= DIRTY_ALL;
}

/* Take the model's newest snapshot (unless paused); rebuild what changed. */
static void take_snapshot(struct app *a)
{
	if (a->paused && a->snap)
		return;
	if (a->snap && model_generation(a->m) == a->snap->generation)
		return;
	const struct snapshot *old = a->snap;
	const struct snapshot *s = model_acquire(a->m);
	a->snap = s;
	bool rows_changed = !old || old->instances != s->instances ||
			    old->ninstances != s->ninstances || old->npending != s->npending ||
			    memcmp(old->pending, s->pending, s->npending * sizeof s->pending[0]) != 0 ||
			    old->nunsure != s->nunsure ||
			    memcmp(old->unsure, s->unsure, s->nunsure * sizeof s->unsure[0]) != 0;
	for (int i = 0; i < a->nviews; i++) {
		struct view *v = &a->views[i];
		if (v->ops->on_snapshot)
			v->ops->on_snapshot(a, v->st, rows_changed);
	}
	tfa_challenge_snapshot(a, a->chal);
	a->dirty |= DIRTY_HEADER | DIRTY_HINTS;
	model_release(old);
}

/* The app's own actions (those no view handled). */
static void global_action(struct app *a, enum action act)
{
	struct view *v = view_current(a);
	switch (act) {
	case ACT_HELP:
		if (view_is(a, v, "help"))
			view_close_overlay(a);
		else /* at the section of the keys in force here */
			view_open(a, "help", 1 + (long)view_key_ctx(a, v));
		break;
	case ACT_COMMAND:
		a->prompt = PROMPT_COMMAND;
		textbuf_clear(&a->ptb);
		history_reset(&a->hist_cmd);
		break;
	case ACT_FILTER:
		if (!view_can_filter(a, v))
			break;
		a->prompt = PROMPT_FILTER;
		a->prompt_view = v;
		textbuf_set(&a->ptb, view_filter_text(a, v));
		history_reset(&a->hist_filter);
		break;
	case ACT_REFRESH: {
		char said[64]; /* the sweep age, asked for */
		if (a->poller)
			poller_refresh_now(a->poller);
		if (header_sweep_said(a->snap, util_now(), said, sizeof said)[0])
			app_toast(a, ROLE_DIM, 3, "refreshing... (%s)", said);
		else
			app_toast(a, ROLE_DIM, 3, "refreshing...");
		break;
	}
	case ACT_PAUSE:
		a->paused = !a->paused;
		app_toast(a, ROLE_DIM, 3, a->paused ? "display paused (p resumes)" : "display resumed");
		take_snapshot(a);
		break;
	case ACT_QUIT:
		if (a->overlay >= 0)
			view_close_overlay(a);
		else if (a->view != 0)
			view_show(a, 0, 0);
		else
			a->quit = true;
		break;
	case ACT_QUIT_NOW: a->quit = true; break;
	case ACT_SUSPEND: suspend(a); break;
	case ACT_REDRAW:
		clear();
		a->dirty |= DIRTY_ALL;
		break;
	case ACT_NEXT_VIEW: view_next(a); break;
	case ACT_BACK: /* the filter first (an overlay's own too), then the overlay */
		if (view_filter_text(a, v)[0])
			view_filter_set(a, v, "");
		else if (a->overlay >= 0)
			view_close_overlay(a);
		else
			a->msg[0] = '\0';
		break;
	case ACT_UP: case ACT_DOWN: case ACT_PAGE_UP: case ACT_PAGE_DOWN: case ACT_TOP:
	case ACT_BOTTOM: {
		struct list *l = view_list(a, v); /* the view's list moves */
		if (l)
			list_action(l, act);
		break;
	}
	case ACT_NONE: case ACT_SORT_PREV: case ACT_SORT_NEXT: case ACT_SORT_INVERT:
		break; /* sorts in a view without them */
	}
	/* a registered action no view handled falls through the switch: nothing */
	a->dirty |= DIRTY_ALL;
}

/* Keep a line entered at a prompt in its history and save both (a
 * failure is said once, not at every line). */
static void remember_line(struct app *a, struct history *h, const char *line)
{
	if (!history_add(h, line) || !a->hist_path[0])
		return;
	char err[300];
	if (!history_save(&a->hist_cmd, &a->hist_filter, a->hist_path, err, sizeof err)) {
		app_toast(a, ROLE_WARNING, 8, "%s (history not saved)", err);
		a->hist_path[0] = '\0';
	}
}

/* Up/Down at a prompt: the older/newer line of h; true when the key was one. */
static bool browse_key(struct app *a, struct history *h, int key)
{
	const char *s;
	if (key == KM_FN(KEY_UP))
		s = history_prev(h, a->ptb.s);
	else if (key == KM_FN(KEY_DOWN))
		s = history_next(h);
	else
		return false;
	if (s)
		textbuf_set(&a->ptb, s);
	return true;
}

/* Tab at the `:` prompt: complete the word left of the cursor, the command
 * among the app's words, the views and the actions, or an argument by the
 * command's grammar (complete.h: columns, themes, query fields and options,
 * sections, ids, routes, GPU names); several candidates: the common prefix,
 * and the candidates in the message line.  grammar: the command a view's
 * search prompt completes as (its line is that command's arguments), NULL
 * at the `:` prompt. */
static void complete_command(struct app *a, const char *grammar)
{
	char line[TEXTBUF_BYTES + 64];
	size_t plen = grammar ? (size_t)snprintf(line, sizeof line, "%.40s ", grammar) : 0;
	/* complete what is left of the cursor */
	snprintf(line + plen, sizeof line - plen, "%.*s", (int)a->ptb.cur, a->ptb.s);
	enum { MAXC = 256, MAXCOLS = 32 };
	const char *cmds[MAXC], *cols[MAXCOLS], *vnames[VIEW_MAX], *valiases[VIEW_MAX];
	static char themes[64][64];
	const char *tnames[64];
	struct complete_src src;
	memset(&src, 0, sizeof src);
	size_t nc = command_words(cmds, MAXC);
	for (int i = 0; i < a->nviews && nc < MAXC; i++) {
		const struct view_ops *o = a->views[i].ops;
		cmds[nc++] = o->name;
		vnames[i] = o->name;
		valiases[i] = o->alias;
		for (const char *const *w = o->words; w && *w && nc < MAXC; w++)
			cmds[nc++] = *w; /* a section's word: ":reports" */
	}
	for (int i = 0; i < keymap_action_count() && nc < MAXC; i++) {
		enum action act = (enum action)i;
		const char *n = keymap_action_name(act);
		if (n && *n && act != ACT_COMMAND && !(a->read_only && (keymap_action_flags(act) & AF_MUTATES)))
			cmds[nc++] = n;
	}
	src.commands = cmds;
	src.ncommands = nc;
	src.view_names = vnames;
	src.view_aliases = valiases;
	src.nviews = (size_t)a->nviews;
	size_t nt = theme_list(themes, 64);
	for (size_t i = 0; i < nt; i++)
		tnames[i] = themes[i];
	src.themes = tnames;
	src.nthemes = nt;
	/* the columns of the view :sort and :filter act on (the current one,
	 * else the first that sorts) */
	const struct view *cv = view_current(a);
	if (!cv || !cv->ops->columns)
		for (int i = 0; i < a->nviews && (!cv || !cv->ops->columns); i++)
			if (a->views[i].ops->columns && a->views[i].ops->number_key)
				cv = &a->views[i];
	if (cv && cv->ops->columns) {
		src.columns = cols;
		src.ncolumns = cv->ops->columns(a, cv->st, cols, MAXCOLS);
	}
	/* the fixed arguments of the view the command names */
	const char *p = line;
	while (*p == ' ' || *p == ':')
		p++;
	char word[40];
	size_t wl = strcspn(p, " ");
	if (p[wl] == ' ' && wl < sizeof word) {
		memcpy(word, p, wl);
		word[wl] = '\0';
		int vi = view_find(a, word);
		if (vi >= 0 && a->views[vi].ops->args) {
			src.view_args = a->views[vi].ops->args;
			while (src.view_args[src.nview_args])
				src.nview_args++;
		}
	}
	src.snap = a->snap;
	bool gpu = strstr(line, "gpu_name") != NULL;
	if (gpu && a->gpu_names) /* asked for on the first Tab that may need them */
		src.gpu_names = a->gpu_names(a);
	static struct complete_set cs; /* 20 kB: not on the stack */
	if (!complete_line(line, &src, &cs) || cs.start < plen) {
		if (gpu && !src.gpu_names && strstr(line, "gpu_name="))
			app_toast(a, ROLE_DIM, 4, "reading the GPU names... (Tab again)");
		else
			app_toast(a, ROLE_DIM, 4, "no completion here");
		return;
	}
	const char *typed = line + cs.start;
	char out[256], list[300];
	/* a fragment: the candidates all contain it; their common prefix
	 * replaces it only when that still contains it */
	size_t m = history_complete(cs.fragment ? "" : typed, cs.c, cs.n, out, sizeof out, list,
				    sizeof list);
	if (cs.fragment && m && !gpunames_contains(out, typed))
		util_strlcpy(out, typed, sizeof out);
	if (m == 0) {
		app_toast(a, ROLE_DIM, 4, "no match for \"%s\"", typed);
		return;
	}
	char tail[TEXTBUF_BYTES + 1];
	util_strlcpy(tail, a->ptb.s + a->ptb.cur, sizeof tail);
	char nl[TEXTBUF_BYTES + 1];
	size_t ol = strlen(out);
	bool space = m == 1 && !*tail && !cs.no_space && !(ol && out[ol - 1] == '=');
	snprintf(nl, sizeof nl, "%.*s%s%s", (int)(cs.start - plen), line + plen, out,
		 space ? " " : "");
	size_t cur = strlen(nl);
	char full[2 * TEXTBUF_BYTES + 2];
	snprintf(full, sizeof full, "%s%s", nl, tail);
	textbuf_set(&a->ptb, full);
	a->ptb.cur = cur < a->ptb.len ? cur : a->ptb.len;
	if (m > 1)
		app_toast(a, ROLE_DIM, 0, "%s", list);
	else
		a->msg[0] = '\0';
}

static void prompt_key(struct app *a, int key)
{
	a->dirty |= DIRTY_MSG | DIRTY_HINTS;
	if (a->prompt == PROMPT_FILTER || a->prompt == PROMPT_SEARCH) {
		/* the filter applies as it is typed; a search runs on Enter
		 * (its edit hook, if any, sees the line as it is typed) */
		struct view *v = a->prompt_view;
		bool filter = a->prompt == PROMPT_FILTER;
		if (key == 27) {
			if (filter)
				view_filter_set(a, v, "");
			else if (a->prompt_edit)
				a->prompt_edit(a, v->st, "");
			a->prompt = PROMPT_NONE;
		} else if (key == '\n') {
			a->prompt = PROMPT_NONE;
			char line[TEXTBUF_BYTES + 1];
			util_strlcpy(line, a->ptb.s, sizeof line);
			remember_line(a, &a->hist_filter, line);
			if (!filter)
				a->prompt_run(a, v->st, line);
		} else if (key == '\t' && !filter && a->prompt_grammar) {
			complete_command(a, a->prompt_grammar);
		} else if (browse_key(a, &a->hist_filter, key) || textbuf_key(&a->ptb, key)) {
			if (filter)
				view_filter_set(a, v, a->ptb.s);
			else if (a->prompt_edit)
				a->prompt_edit(a, v->st, a->ptb.s);
		}
		a->dirty |= DIRTY_BODY | DIRTY_HEADER;
		return;
	}
	a->msg[0] = '\0'; /* the last Tab's candidates go with the next key */
	if (key == 27 || (key == KM_FN(KEY_BACKSPACE) && a->ptb.len == 0)) {
		a->prompt = PROMPT_NONE;
	} else if (key == '\n') {
		a->prompt = PROMPT_NONE;
		char line[TEXTBUF_BYTES + 1];
		util_strlcpy(line, a->ptb.s, sizeof line);
		size_t ll = strlen(line); /* Tab leaves a space after a completed word */
		while (ll && line[ll - 1] == ' ')
			line[--ll] = '\0';
		remember_line(a, &a->hist_cmd, line);
		app_command(a, line);
	} else if (key == '\t') {
		complete_command(a, NULL);
	} else if (!browse_key(a, &a->hist_cmd, key)) {
		textbuf_key(&a->ptb, key);
	}
}

static void handle_key(struct app *a, int key)
{
	if (a->msg_sticky) { /* a key dismisses the start-up warnings, then acts */
		a->msg_sticky = false;
		a->msg[0] = '\0';
		a->dirty |= DIRTY_MSG;
	}
	/* control keys bound to quit-now, suspend or redraw work everywhere,
	 * dialogs and prompts included */
	if (key > 0 && key < 0x20 && key != '\t' && key != '\n' && key != 27) {
		enum action g = keymap_lookup(&a->km, CTX_GLOBAL, key);
		if (g == ACT_QUIT_NOW || g == ACT_SUSPEND || g == ACT_REDRAW) {
			global_action(a, g);
			return;
		}
	}
	if (tfa_challenge_active(a->chal)) { /* over every dialog and view */
		if (!tfa_challenge_key(a, a->chal, key))
			tfa_challenge_cancel(a, a->chal);
		return;
	}
	if (dialog_open(&a->dlg) && a->dlg_key && a->dlg_key(a, a->dlg_owner, key)) {
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (dialog_open(&a->dlg)) {
		enum dlg_result r = dialog_key(&a->dlg, key);
		if (r != DLG_CONTINUE)
			app_dialog_result(a, r);
		a->dirty |= DIRTY_ALL;
		return;
	}
	if (a->prompt != PROMPT_NONE) {
		prompt_key(a, key);
		return;
	}
	struct view *v = view_current(a);
	if (v->ops->modal_key && v->ops->modal_key(a, v->st, key)) {
		a->dirty |= DIRTY_ALL;
		return;
	}
	enum action act = keymap_lookup(&a->km, view_key_ctx(a, v), key);
	if (act != ACT_NONE)
		app_run_action(a, act);
}

static void draw_too_small(void)
{
	erase();
	const char *l1 = "terminal too small";
	char l2[64];
	snprintf(l2, sizeof l2, "need %dx%d, have %dx%d", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, COLS,
		 LINES);
	struct rect all = { 0, 0, LINES, COLS };
	int y = LINES / 2 - 1;
	if (y < 0)
		y = 0;
	draw_text(y, layout_center_x(&all, (int)strlen(l1)), COLS, l1, theme_attr(ROLE_WARNING));
	if (y + 1 < LINES)
		draw_text(y + 1, layout_center_x(&all, (int)strlen(l2)), COLS, l2,
			  theme_attr(ROLE_NORMAL));
}

static void draw(struct app *a)
{
	if (a->lay.too_small) {
		draw_too_small();
		curs_set(0);
		leaveok(stdscr, TRUE);
		return;
	}
	struct view *v = view_current(a);
	bool dlg = dialog_open(&a->dlg);
	if (a->prompt != PROMPT_NONE)
		a->dirty |= DIRTY_MSG;
	if (a->dirty & DIRTY_HEADER)
		header_draw(a);
	if ((a->dirty & DIRTY_BODY) && v)
		v->ops->draw(a, v->st, &a->lay.body);
	if (a->dirty & DIRTY_HINTS)
		statusbar_draw_hints(a);
	if (a->dirty & DIRTY_MSG)
		statusbar_draw_message(a);
	bool cursor = a->prompt != PROMPT_NONE && !dlg;
	if (dlg) {
		dialog_draw(&a->dlg, &a->lay);
		cursor = a->dlg.kind == DLG_INPUT && !a->dlg.waiting;
	} else if (v && v->ops->modal_draw && v->ops->modal_draw(a, v->st)) {
		cursor = true;
	}
	if (tfa_challenge_active(a->chal))
		cursor = tfa_challenge_draw(a, a->chal);
	curs_set(cursor ? 1 : 0);
	leaveok(stdscr, !cursor); /* a hidden cursor need not be moved after each update */
}

/* Milliseconds until something on screen changes by itself; -1: never. */
static int next_timeout(struct app *a)
{
	double now = util_now(), mono = util_mono();
	double wait = -1;
	if (a->msg[0] && a->msg_until > 0)
		wait = a->msg_until - mono;
	if (a->msg_later[0] && a->msg_keyed_until > mono && (wait < 0 || a->msg_keyed_until - mono < wait))
		wait = a->msg_keyed_until - mono; /* the held toast's turn */
	const struct view *v = view_current(a);
	if (v && v->ops->on_clock && a->snap && a->snap->ninstances) {
		double w = 60.0 - fmod(now, 60.0) + 0.05; /* ages change with the minute */
		if (wait < 0 || w < wait)
			wait = w;
	}
	double stale = a->snap ? header_stale_at(a->snap, a->cfg->refresh_s,
						 a->cfg->total_timeout_s)
			       : 0;
	if (stale > now) {
		double w = stale - now + 0.05;
		if (wait < 0 || w < wait)
			wait = w;
	}
	/* late: the countdown ticks each second; a request out: wake when it
	 * has gone one interval without an answer */
	struct list_wait lw;
	const struct freshness *lf = a->snap ? &a->snap->fresh[SRC_INSTANCES] : NULL;
	double tick = -1;
	if (header_late(a, &lw))
		tick = now + 1.0 - fmod(now, 1.0) + 0.02;
	else if (!a->paused && lf && lf->in_flight && lf->last_attempt > 0)
		tick = lf->last_attempt + a->cfg->refresh_s + 0.05;
	if (tick > 0) {
		double w = tick > now ? tick - now : 0.25; /* never a busy loop */
		if (wait < 0 || w < wait)
			wait = w;
	}
	double nw = notify_out_next_wake(a->notify);
	if (nw >= 0 && (wait < 0 || nw - mono < wait))
		wait = nw > mono ? nw - mono : 0;
	for (int i = 0; i < a->nviews; i++) {
		struct view *vi = &a->views[i];
		if (!vi->ops->next_wake)
			continue;
		double at = vi->ops->next_wake(a, vi->st);
		vi->wake_at = at;
		if (at < 0)
			continue;
		double w = at > mono ? at - mono : 0;
		if (wait < 0 || w < wait)
			wait = w;
	}
	if (wait < 0)
		return -1;
	return wait < 0.001 ? 1 : (int)(wait * 1000.0) + 1;
}

/* Work that is due by the clock. */
static void clock_tick(struct app *a, double *last_minute)
{
	if (a->msg[0] && a->msg_until > 0 && util_mono() >= a->msg_until) {
		a->msg[0] = '\0';
		a->dirty |= DIRTY_MSG;
	}
	app_show_later(a);
	notify_out_tick(a->notify); /* notify_command: reaped, or ended past its time */
	double minute = floor(util_now() / 60.0);
	if (minute != *last_minute) {
		*last_minute = minute;
		struct view *v = view_current(a);
		if (v && v->ops->on_clock)
			v->ops->on_clock(a, v->st);
		a->dirty |= DIRTY_HEADER;
	}
	double stale = a->snap ? header_stale_at(a->snap, a->cfg->refresh_s,
						 a->cfg->total_timeout_s)
			       : 0;
	if (stale > 0 && util_now() >= stale)
		a->dirty |= DIRTY_HEADER;
	struct list_wait lw; /* the countdown and the dimmed rows */
	if (header_late(a, &lw))
		a->dirty |= DIRTY_MSG | DIRTY_BODY | DIRTY_HEADER;
	for (int i = 0; i < a->nviews; i++) {
		struct view *vi = &a->views[i];
		if (!vi->ops->next_wake || !vi->ops->on_wake)
			continue;
		/* due: the time the loop planned to wake for (a view's next_wake
		 * is always ahead of the moment it is asked), or one already past */
		double at = vi->ops->next_wake(a, vi->st), mono = util_mono();
		if (at >= 0 && (mono >= at || (vi->wake_at >= 0 && mono >= vi->wake_at))) {
			vi->wake_at = -1;
			vi->ops->on_wake(a, vi->st);
		}
	}
}

/* Start-up warnings (refused bind lines, a missing theme): into the event
 * log, and into the message line where they stay until a key is pressed. */
static void start_messages(struct app *a, const char *theme_err)
{
	int n = a->km.nerrors + (theme_err && *theme_err ? 1 : 0);
	for (int i = 0; i < a->km.nerrors; i++)
		model_event(a->m, EV_WARN, -1, 0, 0, 0, "config: %s", a->km.errors[i]);
	if (theme_err && *theme_err)
		model_event(a->m, EV_WARN, -1, 0, 0, 0, "%s", theme_err);
	if (!n)
		return;
	char first[400];
	if (a->km.nerrors)
		snprintf(first, sizeof first, "config: %s", a->km.errors[0]);
	else
		snprintf(first, sizeof first, "%s", theme_err);
	char more[64] = "";
	if (n > 1)
		snprintf(more, sizeof more, " (+%d more: 2 shows the event log)", n - 1);
	app_toast(a, ROLE_WARNING, 0, "%s%s  [any key dismisses]", first, more);
	a->msg_sticky = true;
}

static void set_up_theme(struct app *a, char *err, size_t n)
{
	const char *name = a->cfg->theme && *a->cfg->theme ? a->cfg->theme : "default";
	err[0] = '\0';
	theme_builtin(&a->theme);
	if (!theme_load(&a->theme, name, err, n)) {
		size_t len = strlen(err);
		if (strcmp(name, "default") != 0 && theme_load(&a->theme, "default", err + len, 1))
			snprintf(err + len, n - len, "; using the default theme");
		else
			snprintf(err + len, n - len, "; using the built-in colours");
	}
	const char *nc = getenv("NO_COLOR");
	a->color = !a->cfg->no_color && !(nc && *nc);
	theme_activate(&a->theme, a->color);
	bkgdset((chtype)' ' | (attr_t)theme_attr(ROLE_NORMAL));
}

/* The terminal in curses mode (keys raw, no echo, the cursor hidden); NULL,
 * with why said on stderr, when this terminal cannot be driven. */
static SCREEN *curses_start(void)
{
	SCREEN *scr = newterm(NULL, stdout, stdin);
	const char *cup = scr ? tigetstr("cup") : NULL;
	if (!scr || !cup || cup == (char *)-1 || tigetflag("hc") > 0) {
		/* a blank screen helps no one: say why, before anything is drawn */
		if (scr) {
			endwin();
			delscreen(scr);
		}
		reset_signals();
		fprintf(stderr,
			"rentop: %s (TERM=%s); run it in a terminal such as xterm, or use "
			"--dump for scripts\n",
			scr ? "this terminal cannot address the cursor" : "cannot use this terminal",
			getenv("TERM") ? getenv("TERM") : "unset");
		return NULL;
	}
	curses_on = 1;
	capture_restore();
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	set_escdelay(25);
	curs_set(0);
	leaveok(stdscr, FALSE);
	idlok(stdscr, TRUE); /* rows that move by one are scrolled, not rewritten */
	return scr;
}

/* The app's own state once curses is on: theme, views, histories, the
 * config's bind lines, the layout, start-up warnings, the first snapshot. */
static void app_start(struct app *a)
{
	char theme_err[400];
	set_up_theme(a, theme_err, sizeof theme_err);
	a->global = global_action;
	a->chal = tfa_challenge_new();
	a->needs_tfa = tfa_challenge_asked;
	view_init_all(a);
	history_init(&a->hist_cmd);
	history_init(&a->hist_filter);
	if (history_path(a->hist_path, sizeof a->hist_path)) {
		char herr[300];
		if (!history_load(&a->hist_cmd, &a->hist_filter, a->hist_path, herr, sizeof herr))
			model_event(a->m, EV_WARN, -1, 0, 0, 0, "%s", herr);
	}
	keymap_apply(&a->km, a->cfg->binds, a->cfg->nbinds); /* after the views bound their keys */
	layout_compute(&a->lay, LINES, COLS);
	start_messages(a, theme_err);
	take_snapshot(a);
	a->dirty = DIRTY_ALL;
}

/* The signals that arrived: a quit ends the loop (false, *status set). */
static bool take_signals(struct app *a, int *status)
{
	if (sig_quit) {
		*status = 128 + sig_quit; /* as a shell reports a killed program */
		return false;
	}
	if (sig_winch) {
		sig_winch = 0;
		resize(a);
	}
	if (sig_tstp) {
		sig_tstp = 0;
		suspend(a);
	}
	if (sig_cont) {
		sig_cont = 0;
		resize(a); /* the size may have changed while stopped */
	}
	return true;
}

/* What changed since the last turn: events, the snapshot, the clock, the
 * header's watch; then what is dirty is drawn. */
static void update_screen(struct app *a, double *last_minute)
{
	model_wake_drain(a->m);
	app_pull_events(a);
	idlewatch_step(a); /* idle, hot and disk: sampled even while paused, before
			    * the views take the snapshot (their rows show the flags) */
	take_snapshot(a);
	clock_tick(a, last_minute);
	header_watch(a); /* outages, recoveries, low money: events and the bell */
	if (a->bell_pending) {
		a->bell_pending = false;
		beep();
	}
	if (a->dirty) {
		draw(a);
		a->dirty = 0;
		wnoutrefresh(stdscr);
		doupdate();
	}
}

/* The terminal is readable: handle every key waiting.  False (*status set)
 * when the terminal went away; *empty_reads counts readable turns with
 * nothing to read. */
static bool read_keys(struct app *a, short revents, int *empty_reads, int *status)
{
	wint_t ch;
	int got, n = 0;
	while (!a->quit && (got = get_wch(&ch)) != ERR) {
		n++;
		if (got == KEY_CODE_YES && ch == KEY_RESIZE) {
			sig_winch = 1;
			continue;
		}
		a->in_key = true;
		handle_key(a, keymap_normalize(got == KEY_CODE_YES, (unsigned)ch));
		a->in_key = false;
	}
	if (n == 0 && (revents & POLLHUP)) {
		*status = HANGUP_STATUS;
		return false;
	}
	/* readable, yet no key and no byte waiting: end of file or EIO
	 * (a terminal that went away without SIGHUP).  Never spin on it. */
	int avail = 0;
	if (n == 0 && (ioctl(STDIN_FILENO, FIONREAD, &avail) != 0 || avail == 0)) {
		if (++*empty_reads >= 3) {
			*status = HANGUP_STATUS;
			return false;
		}
	} else {
		*empty_reads = 0;
	}
	return true;
}

/* --test-clock FIFO (tests only): each number written there (seconds,
 * blank-separated) moves util_now and util_mono forward at once, as if that
 * much time had passed; the poller is woken to plan again and the loop
 * computes its next timeout afresh.  Opened read-write so that a writer
 * closing never leaves it at end of file.  -1: none; -2: cannot open. */
static int test_clock_open(const struct config *cfg)
{
	if (!cfg->test_clock)
		return -1;
	int fd = open(cfg->test_clock, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd < 0) {
		fprintf(stderr, "rentop: --test-clock %s: not a FIFO: %s\n", cfg->test_clock,
			strerror(errno));
		return -2;
	}
	return fd;
}

static void test_clock_read(struct app *a, int fd)
{
	char buf[256];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	char *p = buf, *end;
	for (double s; (s = strtod(p, &end)), end != p; p = end)
		if (util_clock_advance(s))
			log_msg("test clock: +%.3fs", s);
	if (a->poller)
		poller_wake(a->poller);
	a->dirty |= DIRTY_ALL;
}

/* The loop: draw, wait for a key, the model's wake, the test clock or the
 * next timer; until quit, a signal to end or the terminal going away.  Its
 * status. */
static int main_loop(struct app *a, int clock_fd)
{
	int status = 0;
	int empty_reads = 0; /* poll said readable, nothing came: 3 in a row is end of file */
	double last_minute = floor(util_now() / 60.0);
	struct pollfd fds[3] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = model_wake_fd(a->m), .events = POLLIN },
		{ .fd = clock_fd, .events = POLLIN }, /* -1: none, poll skips it */
	};
	while (!a->quit) {
		if (!take_signals(a, &status))
			break;
		update_screen(a, &last_minute);
		int r = poll(fds, 3, next_timeout(a));
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (fds[2].revents & POLLIN)) /* before the keys sent after it */
			test_clock_read(a, clock_fd);
		if (r > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) &&
		    !(fds[0].revents & POLLIN)) {
			status = HANGUP_STATUS; /* the terminal went away */
			break;
		}
		if (r > 0 && (fds[0].revents & POLLIN) &&
		    !read_keys(a, fds[0].revents, &empty_reads, &status))
			break;
	}
	return status;
}

int ui_run(const struct config *cfg, struct model *m, struct jobs *j, struct poller *p,
	   struct auth *auth)
{
	setlocale(LC_ALL, "");
	int clock_fd = test_clock_open(cfg);
	if (clock_fd == -2)
		return 2;
	struct app *a = xcalloc(1, sizeof *a);
	a->cfg = cfg;
	a->m = m;
	a->jobs = j;
	a->poller = p;
	a->auth = auth;
	a->read_only = cfg->read_only;
	keymap_init(&a->km);
	watch_init(&a->watch);
	draw_set_ascii(cfg->ascii);

	have_tio = tcgetattr(STDIN_FILENO, &orig_tio) == 0;
	sig_model = m;
	sig_quit = sig_winch = sig_tstp = sig_cont = 0;
	install_signals(); /* before curses, so that it keeps ours */
	static bool atexit_done;
	if (!atexit_done) {
		atexit(at_exit);
		atexit_done = true;
	}
	SCREEN *scr = curses_start();
	if (!scr) {
		free(a);
		if (clock_fd >= 0)
			close(clock_fd);
		return 2;
	}
	a->notify = notify_out_new(cfg, m);
	app_start(a);
	int status = main_loop(a, clock_fd);
	if (clock_fd >= 0)
		close(clock_fd);

	model_release(a->snap);
	view_fini_all(a);
	tfa_challenge_free(a, a->chal);
	notify_out_free(a->notify);
	history_free(&a->hist_cmd);
	history_free(&a->hist_filter);
	watch_free(&a->watch);
	endwin();
	curses_on = 0;
	delscreen(scr);
	sig_model = NULL;
	reset_signals();
	free(a);
	return status;
}
