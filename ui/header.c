/* header.c: the header: views, data freshness markers, account money and
 * instances by state; the watch that turns outages, recoveries and
 * low-money crossings into events. */
#include "header.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "base/config.h"
#include "draw.h"
#include "state/model.h"
#include "state/money.h"
#include "theme.h"
#include "base/util.h"

enum data_state header_freshness(const struct snapshot *s, double now, int refresh_s,
				 double grace_s, char *err, size_t n)
{
	if (n)
		err[0] = '\0';
	static const enum model_source watched[] = { SRC_INSTANCES, SRC_USER };
	bool failed = false, old = false, loading = false;
	int tried = 0, down = 0; /* sources asked; those whose last try got no answer */
	for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) {
		const struct freshness *f = &s->fresh[watched[i]];
		if (f->last_ok > 0 || f->last_err_at > 0)
			tried++;
		if (f->last_err_at > 0 && f->last_err_at >= f->last_ok) {
			failed = true;
			if (f->err_status == 0)
				down++;
			if (n && !err[0])
				snprintf(err, n, "%s", f->err[0] ? f->err : "request failed");
		}
		if (watched[i] == SRC_INSTANCES) {
			double at = header_stale_at(s, refresh_s, grace_s);
			if (at > 0 && now >= at)
				old = true;
		}
		if (f->last_ok <= 0 && watched[i] == SRC_INSTANCES)
			loading = true;
	}
	if (s->auth_failed)
		return DS_AUTH;
	if (tried > 0 && down == tried) /* nothing answers at all */
		return DS_OFFLINE;
	if (failed || old)
		return DS_STALE;
	return loading ? DS_LOADING : DS_FRESH;
}

bool header_list_wait(const struct snapshot *s, double now, int refresh_s, double timeout_s,
		      struct list_wait *w)
{
	const struct freshness *f = &s->fresh[SRC_INSTANCES];
	if (refresh_s <= 0)
		return false;
	bool failed = f->last_err_at > 0 && f->last_err_at >= f->last_ok;
	double base = f->last_ok > 0 ? f->last_ok : failed ? f->last_err_at : f->last_attempt;
	bool late;
	if (failed)
		late = now - (f->last_ok > 0 ? f->last_ok : 0) >= refresh_s;
	else if (f->in_flight)
		late = f->last_attempt > 0 && now - f->last_attempt >= refresh_s;
	else
		late = f->last_ok > 0 && now - f->last_ok >= 3.0 * refresh_s;
	if (!late || !(base > 0))
		return false;
	w->since = f->last_ok > 0 ? f->last_ok : 0;
	w->in_flight = f->in_flight;
	if (f->in_flight)
		w->next = f->last_attempt + (timeout_s > 0 ? timeout_s : 0);
	else
		w->next = failed ? f->retry_at : 0;
	return true;
}

bool header_late(const struct app *a, struct list_wait *w)
{
	return a->snap && !a->paused &&
	       header_list_wait(a->snap, util_now(), a->cfg->refresh_s, a->cfg->total_timeout_s, w);
}

/* "25 s", "3m05s". */
static char *secs(char *buf, size_t n, double v)
{
	if (v < 0)
		v = 0;
	if (v < 100)
		snprintf(buf, n, "%.0f s", floor(v));
	else
		fmt_duration(buf, n, v);
	return buf;
}

char *header_wait_text(const struct list_wait *w, double now, char *buf, size_t n)
{
	char a[32], b[32];
	if (w->since > 0)
		snprintf(buf, n, "instances: no answer for %s", secs(a, sizeof a, now - w->since));
	else
		snprintf(buf, n, "instances: no answer yet");
	size_t len = strlen(buf);
	if (w->next > 0 && w->in_flight && w->next > now)
		snprintf(buf + len, n - len, ", this try gives up in %s", secs(b, sizeof b, ceil(w->next - now)));
	else if (w->next > 0 && w->next > now)
		snprintf(buf + len, n - len, ", retrying in %s", secs(b, sizeof b, ceil(w->next - now)));
	else
		snprintf(buf + len, n - len, ", retrying now");
	return buf;
}

double header_stale_at(const struct snapshot *s, int refresh_s, double grace_s)
{
	const struct freshness *f = &s->fresh[SRC_INSTANCES];
	if (!(f->last_ok > 0) || refresh_s <= 0)
		return 0;
	double at = f->last_ok + 3.0 * refresh_s;
	/* a fetch under way (many pages) is given its time, a hung one is not */
	if (f->in_flight && f->last_attempt > f->last_ok) {
		double busy = f->last_attempt + 3.0 * refresh_s + (grace_s > 0 ? grace_s : 0);
		if (busy > at)
			at = busy;
	}
	return at;
}

char *header_runway(double runway_h, bool ascii, char *buf, size_t n)
{
	if (!isfinite(runway_h))
		snprintf(buf, n, "%s", ascii ? "-" : "\u221e");
	else if (runway_h <= 0)
		snprintf(buf, n, "0");
	else
		fmt_duration(buf, n, runway_h * 3600.0);
	return buf;
}

/* The figures of the snapshot last asked for: the header's segments, its
 * money watch and the account view ask for the same snapshot, and each
 * figure is a pass over every row, so they are summed once per published
 * snapshot (its generation, never 0; a snapshot built by hand, generation
 * 0, is summed every time).  UI thread only. */
static struct {
	const struct snapshot *s;
	uint64_t generation;
	enum figure_kind fig;
	double burn, runway_h;
} money_memo;

enum figure_kind header_money(const struct snapshot *s, double *burn, double *runway_h)
{
	if (s->generation && s == money_memo.s && s->generation == money_memo.generation) {
		*burn = money_memo.burn;
		*runway_h = money_memo.runway_h;
		return money_memo.fig;
	}
	enum figure_kind fig = money_burn_figure(s, burn);
	*runway_h = s->user ? money_runway_h(s->instances, s->ninstances, s->user->credit) : NAN;
	if (s->generation) {
		money_memo.s = s;
		money_memo.generation = s->generation;
		money_memo.fig = fig;
		money_memo.burn = *burn;
		money_memo.runway_h = *runway_h;
	}
	return fig;
}

/* The low-money limits of the configuration. */
static struct money_limits header_limits(const struct config *c)
{
	struct money_limits l = { c->runway_warn_h, c->runway_alarm_h, c->credit_warn,
				  c->credit_alarm };
	return l;
}

/* The width of the kept segments, each with its two blanks. */
static int kept_width(const struct header_seg *seg)
{
	int total = 0;
	for (int i = 0; i < HSEG__N; i++)
		if (seg[i].keep)
			total += util_strwidth(seg[i].text) + 2;
	return total;
}

double header_clock_step(double shown, double last_ok, int refresh_s)
{
	if (!(shown > 0) || last_ok < shown || last_ok - shown >= 0.8 * refresh_s)
		return last_ok;
	return shown;
}

char *header_sweep_age(char *buf, size_t n, double secs)
{
	if (!isfinite(secs) || secs < 0)
		secs = 0;
	if (secs < 10)
		snprintf(buf, n, "<10s");
	else if (secs < 60)
		snprintf(buf, n, "%ds", (int)(secs / 10) * 10);
	else
		fmt_duration(buf, n, secs); /* minutes: "6m", "1h05m" */
	return buf;
}

char *header_sweep_said(const struct snapshot *s, double now, char *buf, size_t n)
{
	char age[32];
	if (!s || !(s->fresh[SRC_INSTANCES].last_ok > 0))
		snprintf(buf, n, "%s", "");
	else if (s->progress.partial || !(s->progress.sweep_ok > 0))
		snprintf(buf, n, "the first sweep is under way");
	else
		snprintf(buf, n, "the last whole sweep %s ago",
			 header_sweep_age(age, sizeof age, now - s->progress.sweep_ok));
	return buf;
}

int header_account(const struct snapshot *s, const struct config *cfg, enum data_state ds,
		   double now, double shown_ok, int width, struct header_seg seg[HSEG__N],
		   double idle_rate, size_t price_incs)
{
	char b1[32], b2[32], b3[32], when[16] = "";
	const struct user *u = s->user;
	double burn, runway_h;
	enum figure_kind fig = header_money(s, &burn, &runway_h);
	double credit = u ? u->credit : NAN;
	double ok = s->fresh[SRC_INSTANCES].last_ok;
	if (ok > 0) {
		time_t t = (time_t)(shown_ok > 0 && shown_ok <= ok ? shown_ok : ok);
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
	}
	for (int i = 0; i < HSEG__N; i++) {
		seg[i].text[0] = '\0';
		seg[i].role = -1;
	}
	const size_t n = sizeof seg[0].text;
	snprintf(seg[HSEG_EMAIL].text, n, "%s", u && u->email[0] ? u->email : "-");
	snprintf(seg[HSEG_CREDIT].text, n, "credit %s", u ? fmt_money(b1, sizeof b1, credit) : "-");
	/* partial figures while a sweep is incomplete: never $0 or infinity;
	 * with the service unreachable or the key refused: no figure at all */
	const char *ge = cfg->ascii ? ">=" : "\u2265", *le = cfg->ascii ? "<=" : "\u2264";
	const char *unk = cfg->ascii ? "..." : "\u2026";
	bool no_money = ds == DS_OFFLINE || ds == DS_AUTH;
	if (no_money) {
		snprintf(seg[HSEG_BURN].text, n, "burn ?");
	} else {
		switch (fig) {
		case FIG_EXACT:
			snprintf(seg[HSEG_BURN].text, n, "burn %s", fmt_rate(b2, sizeof b2, burn));
			snprintf(seg[HSEG_RUNWAY].text, n, "runway %s",
				 u ? header_runway(runway_h, cfg->ascii, b3, sizeof b3) : "-");
			break;
		case FIG_AT_LEAST:
			snprintf(seg[HSEG_BURN].text, n, "burn %s%s", ge, fmt_rate(b2, sizeof b2, burn));
			snprintf(seg[HSEG_RUNWAY].text, n, "runway %s%s", u && credit > 0 ? le : "",
				 u ? header_runway(runway_h, cfg->ascii, b3, sizeof b3) : "-");
			break;
		case FIG_UNKNOWN:
			snprintf(seg[HSEG_BURN].text, n, "burn %s", unk);
			snprintf(seg[HSEG_RUNWAY].text, n, "runway %s", unk);
			break;
		}
		/* low money: the figure that crossed its limit takes the colour */
		struct money_limits lim = header_limits(cfg);
		char why[120];
		bool known;
		enum money_level lv = money_level(&lim, credit,
							 fig != FIG_UNKNOWN ? runway_h : NAN,
							 fig == FIG_AT_LEAST, &known, why, sizeof why);
		if (known && lv != ML_OK)
			seg[strncmp(why, "credit", 6) == 0 ? HSEG_CREDIT : HSEG_RUNWAY].role =
				lv == ML_ALARM ? ROLE_ERROR : ROLE_WARNING;
		/* money burning on idle GPUs (rules/idle.h) */
		if (isfinite(idle_rate) && idle_rate > 0) {
			snprintf(seg[HSEG_IDLE].text, n, "idle $%.2f/h", idle_rate);
			seg[HSEG_IDLE].role = ROLE_WARNING;
		}
	}
	/* instances by state, next to the total */
	struct state_counts sc;
	model_count_states(s->instances, s->ninstances, &sc);
	char outbid[32] = ""; /* said only when there is one: a stop the market made */
	if (sc.outbid)
		snprintf(outbid, sizeof outbid, " %zu outbid", sc.outbid);
	if (s->ninstances || ok > 0)
		snprintf(seg[HSEG_COUNTS].text, n, "%zu running %zu booting %zu stopped %zu failed%s",
			 sc.running, sc.booting, sc.stopped, sc.failed, outbid);
	/* pending price increases: the rows carry the marker, the header the count */
	if (price_incs)
		snprintf(seg[HSEG_PRICES].text, n, "%zu price increase%s", price_incs,
			 price_incs == 1 ? "" : "s");
	seg[HSEG_PRICES].role = ROLE_WARNING;
	/* refreshed: the long form names the last whole sweep and queued actions */
	char shortf[64], age[32];
	if (ok > 0)
		snprintf(shortf, sizeof shortf, "refreshed %s", when);
	else
		snprintf(shortf, sizeof shortf, "loading...");
	/* the sweep age only when it says something: the list is stale (or
	 * unreachable), so rows may be as old as the last whole sweep; while
	 * fresh it would only tick (the refresh toast says it when asked) */
	bool show_age = ds == DS_STALE || ds == DS_OFFLINE || ds == DS_AUTH;
	if (show_age && ok > 0 && s->progress.sweep_ok > 0 && !s->progress.partial)
		snprintf(seg[HSEG_REFRESHED].text, n, "%s  sweep %s ago", shortf,
			 header_sweep_age(age, sizeof age, now - s->progress.sweep_ok));
	else
		snprintf(seg[HSEG_REFRESHED].text, n, "%s", shortf);
	if (s->actions_waiting > 0) { /* paced actions (poller_pace.h) */
		size_t l = strlen(seg[HSEG_REFRESHED].text);
		snprintf(seg[HSEG_REFRESHED].text + l, n - l, "  %d action%s queued",
			 s->actions_waiting, s->actions_waiting == 1 ? "" : "s");
	}
	/* when narrow, the least useful go first: the e-mail address (which
	 * does not change), the sweep age and the long form of the price
	 * increases before the counts of failed and booting instances, then
	 * the price increases (the rows keep their marker); the time of the
	 * last refresh (how fresh every other figure is) goes last */
	enum { SHORTEN = -1, SHORT_PRICES = -2 };
	static const int drop_order[] = { HSEG_EMAIL,  SHORTEN,	  SHORT_PRICES, HSEG_COUNTS,
					  HSEG_PRICES, HSEG_IDLE, HSEG_RUNWAY,  HSEG_BURN,
					  HSEG_CREDIT, HSEG_REFRESHED };
	for (int i = 0; i < HSEG__N; i++)
		seg[i].keep = seg[i].text[0] != '\0';
	for (size_t d = 0; d < sizeof drop_order / sizeof drop_order[0]; d++) {
		if (kept_width(seg) <= width)
			break;
		if (drop_order[d] == SHORTEN)
			util_strlcpy(seg[HSEG_REFRESHED].text, shortf, n);
		else if (drop_order[d] == SHORT_PRICES && price_incs)
			snprintf(seg[HSEG_PRICES].text, n, "%zu price %s", price_incs,
				 cfg->ascii ? "^" : "\u25b2");
		else if (drop_order[d] >= 0)
			seg[drop_order[d]].keep = false;
	}
	return kept_width(seg);
}

int header_markers(enum data_state ds, bool paused, bool read_only, int width,
		   const char **out)
{
	const char *all[3];
	int n = 0, kept = 0, need = 0;
	if (ds == DS_AUTH)
		all[n++] = "AUTH";
	else if (ds == DS_OFFLINE)
		all[n++] = "OFFLINE";
	else if (ds == DS_STALE)
		all[n++] = "STALE";
	if (paused)
		all[n++] = "PAUSED";
	if (read_only)
		all[n++] = "READ-ONLY";
	/* the freshness marker first: when narrow it is the last to go */
	for (int i = 0; i < n; i++) {
		int w = (int)strlen(all[i]) + 3; /* " X " and the gap */
		if (need + w > width)
			break;
		need += w;
		out[kept++] = all[i];
	}
	return kept;
}

void header_draw(struct app *a)
{
	const struct rect *r = &a->lay.header;
	const struct snapshot *s = a->snap;
	unsigned long hd = theme_attr(ROLE_HEADER);
	draw_fill(r->y, r->x, r->w, hd);
	draw_fill(r->y + 1, r->x, r->w, hd);

	/* line 1, right: markers; left: name and views */
	char err[200] = "";
	enum data_state ds = header_freshness(s, util_now(), a->cfg->refresh_s,
					      a->cfg->total_timeout_s, err, sizeof err);
	const char *marks[3];
	int nm = header_markers(ds, a->paused, a->read_only, r->w, marks);
	int right = r->x + r->w;
	for (int i = nm - 1; i >= 0; i--) {
		int w = (int)strlen(marks[i]) + 2;
		right -= w;
		char m[16];
		snprintf(m, sizeof m, " %s ", marks[i]);
		draw_text(r->y, right, w, m, theme_attr(ROLE_MARKER));
		right--;
	}
	int x = r->x;
	x += draw_text(r->y, x, right - x, " rentop ", theme_attr(ROLE_TITLE));
	/* the views in Tab order, each with its number key and its tab text */
	for (int i = 0; i < a->nviews && x < right; i++) {
		const struct view *v = &a->views[i];
		if (!v->ops->number_key)
			continue;
		char tab[64], extra[32] = "";
		if (v->ops->tab_text)
			v->ops->tab_text(a, v->st, extra, sizeof extra);
		snprintf(tab, sizeof tab, " %c %s%s%s ", v->ops->number_key, v->ops->title,
			 extra[0] ? " " : "", extra);
		x += draw_text(r->y, x + 1, right - x - 1, tab,
			       theme_attr(i == a->view ? ROLE_TAB_ACTIVE : ROLE_TAB)) + 1;
	}
	if (a->overlay >= 0 && x + 2 < right) {
		char ov[64];
		snprintf(ov, sizeof ov, " > %s ", a->views[a->overlay].ops->title);
		draw_text(r->y, x + 1, right - x - 1, ov, theme_attr(ROLE_TAB_ACTIVE));
	}

	/* line 2: account */
	struct header_seg seg[HSEG__N];
	a->shown_ok = header_clock_step(a->shown_ok, s->fresh[SRC_INSTANCES].last_ok,
					a->cfg->refresh_s);
	header_account(s, a->cfg, ds, util_now(), a->shown_ok, r->w, seg,
		       watch_idle_rate(&a->watch, s->instances, s->ninstances, NULL), a->price_incs);
	int used = 0;
	for (int i = 0; i < HSEG__N && used < r->w; i++)
		if (seg[i].keep) {
			unsigned long at = seg[i].role >= 0 ? theme_attr((enum role)seg[i].role) : hd;
			used += draw_text(r->y + 1, r->x + used, r->w - used, " ", hd);
			used += draw_text(r->y + 1, r->x + used, r->w - used, seg[i].text, at);
			used += draw_text(r->y + 1, r->x + used, r->w - used, " ", hd);
		}
	if ((ds == DS_STALE || ds == DS_OFFLINE || ds == DS_AUTH) && err[0] && used + 4 < r->w) {
		char e[240];
		snprintf(e, sizeof e, "  %s", err);
		draw_text(r->y + 1, r->x + used, r->w - used, e, theme_attr(ROLE_ERROR));
	}
}

/* How the service answers, worst last (header_watch). */
enum health { HL_OK, HL_LATE, HL_OFFLINE, HL_AUTH };

void header_watch(struct app *a)
{
	const struct snapshot *s = a->snap;
	if (!s || a->paused)
		return; /* a paused display's snapshot is old on purpose */
	double now = util_now();
	char err[200], b[32];
	enum data_state ds = header_freshness(s, now, a->cfg->refresh_s, a->cfg->total_timeout_s,
					      err, sizeof err);
	struct list_wait w;
	bool late = header_late(a, &w);
	enum health h = ds == DS_AUTH ? HL_AUTH : ds == DS_OFFLINE ? HL_OFFLINE : late ? HL_LATE : HL_OK;
	if ((int)h != a->health) {
		enum health was = (enum health)a->health;
		if (was == HL_OK)
			a->outage_since = late && w.since > 0 ? w.since : now;
		switch (h) {
		case HL_LATE:
			if (was == HL_OK)
				model_event(a->m, EV_WARN, -1, 0, 0, EVF_QUIET,
					    "instances: no answer for %s%s%s", fmt_duration(b, sizeof b, now - a->outage_since),
					    err[0] ? ": " : "", err);
			else
				model_event(a->m, EV_INFO, -1, 0, 0, EVF_QUIET,
					    "the service answers again; the instance list does not yet");
			break;
		case HL_OFFLINE:
			model_event(a->m, EV_ERROR, -1, 0, 0, EVF_QUIET,
				    "the service does not answer at all (offline)%s%s", err[0] ? ": " : "", err);
			break;
		case HL_AUTH: /* the poller said it (EVF_AUTH) */
			break;
		case HL_OK:
			if (was == HL_AUTH)
				model_event(a->m, EV_OK, -1, 0, 0, 0, "the API key is accepted again");
			else
				model_event(a->m, EV_OK, -1, 0, 0, EVF_QUIET, /* the rows say it */
					    "the service answers again after %s without an instance list",
					    fmt_duration(b, sizeof b, now - a->outage_since));
			break;
		}
		a->health = (int)h;
		a->dirty |= DIRTY_ALL;
	}
	if (h == HL_OFFLINE || h == HL_AUTH)
		return; /* no money figure to judge */
	double burn, runway_h;
	enum figure_kind fig = header_money(s, &burn, &runway_h);
	struct money_limits lim = header_limits(a->cfg);
	char why[120];
	bool known;
	enum money_level lv = money_level(&lim, s->user ? s->user->credit : NAN,
						 fig != FIG_UNKNOWN ? runway_h : NAN,
						 fig == FIG_AT_LEAST, &known, why, sizeof why);
	int moved = money_watch_update(&a->money_w, lv, known);
	if (moved > 0) {
		/* the header's colour and the notification (the bell by default,
		 * app.c) say it; a toast would hide an action's answer (a
		 * prepay's own result crossed the limit) */
		model_event(a->m, lv == ML_ALARM ? EV_ERROR : EV_WARN, -1, 0, 0, EVF_QUIET | EVF_MONEY,
			    "low money: %s%s", why, lv == ML_ALARM ? " (alarm)" : "");
	} else if (moved < 0) {
		if (lv == ML_OK)
			model_event(a->m, EV_OK, -1, 0, 0, EVF_QUIET,
				    "money: runway and credit above their limits again");
		else
			model_event(a->m, EV_WARN, -1, 0, 0, EVF_QUIET,
				    "money: out of the alarm, still low: %s", why);
	}
}
