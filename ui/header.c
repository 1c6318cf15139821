/* header.c: the header: views, data freshness markers, account money. */
#include "header.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "config.h"
#include "draw.h"
#include "model.h"
#include "theme.h"
#include "util.h"

enum data_state header_freshness(const struct snapshot *s, double now, int refresh_s,
				 double grace_s, char *err, size_t n)
{
	if (n)
		err[0] = '\0';
	static const enum model_source watched[] = { SRC_INSTANCES, SRC_USER };
	bool failed = false, transport = false, old = false, loading = false;
	for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) {
		const struct freshness *f = &s->fresh[watched[i]];
		if (f->last_err_at > 0 && f->last_err_at >= f->last_ok) {
			failed = true;
			if (f->err_status == 0)
				transport = true;
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
	if (s->offline || transport)
		return DS_OFFLINE;
	if (failed || old)
		return DS_STALE;
	return loading ? DS_LOADING : DS_FRESH;
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

char *header_runway(double credit, double burn, bool ascii, char *buf, size_t n)
{
	if (!isfinite(burn) || burn <= 0 || !isfinite(credit))
		snprintf(buf, n, "%s", ascii ? "-" : "\u221e");
	else if (credit <= 0)
		snprintf(buf, n, "0");
	else
		fmt_duration(buf, n, credit / burn * 3600.0);
	return buf;
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
	const char *marks[4];
	int nm = 0;
	if (ds == DS_OFFLINE)
		marks[nm++] = "OFFLINE";
	else if (ds == DS_STALE)
		marks[nm++] = "STALE";
	if (a->paused)
		marks[nm++] = "PAUSED";
	if (a->read_only)
		marks[nm++] = "READ-ONLY";
	int right = r->x + r->w;
	for (int i = nm - 1; i >= 0; i--) {
		int w = (int)strlen(marks[i]) + 2;
		if (right - w < r->x)
			break;
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
	char line[600], b1[32], b2[32], b3[32], when[16] = "";
	const struct user *u = s->user;
	double burn;
	enum figure_kind fig = model_burn_figure(s, &burn);
	double credit = u ? u->credit : NAN;
	double ok = s->fresh[SRC_INSTANCES].last_ok;
	if (ok > 0) {
		time_t t = (time_t)ok;
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
	}
	/* segments in display order; when narrow, the least useful go first */
	char seg[5][128];
	snprintf(seg[0], sizeof seg[0], "%s", u && u->email[0] ? u->email : "-");
	snprintf(seg[1], sizeof seg[1], "credit %s", u ? fmt_money(b1, sizeof b1, credit) : "-");
	/* partial figures while a sweep is incomplete: never $0 or infinity */
	const char *ge = a->cfg->ascii ? ">=" : "\u2265", *le = a->cfg->ascii ? "<=" : "\u2264";
	const char *unk = a->cfg->ascii ? "..." : "\u2026";
	switch (fig) {
	case FIG_EXACT:
		snprintf(seg[2], sizeof seg[2], "burn %s", fmt_rate(b2, sizeof b2, burn));
		snprintf(seg[3], sizeof seg[3], "runway %s",
			 u ? header_runway(credit, burn, a->cfg->ascii, b3, sizeof b3) : "-");
		break;
	case FIG_AT_LEAST:
		snprintf(seg[2], sizeof seg[2], "burn %s%s", ge, fmt_rate(b2, sizeof b2, burn));
		snprintf(seg[3], sizeof seg[3], "runway %s%s", u && credit > 0 ? le : "",
			 u ? header_runway(credit, burn, a->cfg->ascii, b3, sizeof b3) : "-");
		break;
	case FIG_UNKNOWN:
		snprintf(seg[2], sizeof seg[2], "burn %s", unk);
		snprintf(seg[3], sizeof seg[3], "runway %s", unk);
		break;
	}
	char age[32];
	if (ok > 0 && s->progress.sweep_ok > 0 && !s->progress.partial)
		snprintf(seg[4], sizeof seg[4], "refreshed %s  sweep %s ago", when,
			 fmt_duration(age, sizeof age, util_now() - s->progress.sweep_ok));
	else if (ok > 0)
		snprintf(seg[4], sizeof seg[4], "refreshed %s", when);
	else
		snprintf(seg[4], sizeof seg[4], "loading...");
	if (s->actions_waiting > 0) { /* paced actions (poller_pace.h) */
		size_t l = strlen(seg[4]);
		snprintf(seg[4] + l, sizeof seg[4] - l, "  %d action%s queued", s->actions_waiting,
			 s->actions_waiting == 1 ? "" : "s");
	}
	static const int drop_order[] = { 0, 4, 3, 2, 1 };
	bool keep[5] = { true, true, true, true, true };
	for (size_t d = 0; d < 5; d++) {
		int total = 0;
		for (int i = 0; i < 5; i++)
			if (keep[i])
				total += util_strwidth(seg[i]) + 2;
		if (total <= r->w)
			break;
		keep[drop_order[d]] = false;
	}
	line[0] = '\0';
	for (int i = 0; i < 5; i++)
		if (keep[i]) {
			size_t len = strlen(line);
			if (len + 2 < sizeof line) {
				line[len++] = ' ';
				len += util_strlcpy(line + len, seg[i], sizeof line - len);
				if (len + 1 < sizeof line)
					memcpy(line + len, " ", 2);
			}
		}
	int used = draw_text(r->y + 1, r->x, r->w, line, hd);
	if ((ds == DS_STALE || ds == DS_OFFLINE) && err[0] && used + 4 < r->w) {
		char e[240];
		snprintf(e, sizeof e, "  %s", err);
		draw_text(r->y + 1, r->x + used, r->w - used, e, theme_attr(ROLE_ERROR));
	}
}
