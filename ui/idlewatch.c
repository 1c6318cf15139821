/* idlewatch.c: sampling the fleet for the idle, hot and disk watch and
 * saying each rise as an event (idlewatch.h). */
#include "idlewatch.h"

#include <math.h>
#include <stdio.h>

#include "app_state.h"
#include "header.h"
#include "base/util.h"
#include "rules/watch.h"
#include "state/model.h"
#include "state/money.h"
#include "widgets/chart.h"

static unsigned event_flag(unsigned flag)
{
	return flag == IDLE_F_IDLE ? EVF_IDLE : flag == IDLE_F_HOT ? EVF_HOT : EVF_DISK;
}

char *idlewatch_text(const struct instance *x, unsigned flag, const struct idle_conf *c, char *buf,
		     size_t n)
{
	char who[160];
	if (x->label && x->label[0])
		snprintf(who, sizeof who, "instance %ld (%s)", x->id, x->label);
	else
		snprintf(who, sizeof who, "instance %ld", x->id);
	switch (flag) {
	case IDLE_F_IDLE: {
		double rate = money_row_rate(x);
		char cost[32] = "";
		if (isfinite(rate))
			snprintf(cost, sizeof cost, ", $%.3f/h", rate);
		snprintf(buf, n, "%s idle: GPU under %g%% for %g min%s", who, c->util,
			 c->window_s / 60.0, cost);
		break;
	}
	case IDLE_F_HOT:
		snprintf(buf, n, "%s hot: GPU at %.0f C (limit %g C)", who, x->gpu_temp, c->hot_temp);
		break;
	default:
		snprintf(buf, n, "%s disk %.0f%% full (limit %g%%)", who, idle_disk_frac(x) * 100.0,
			 c->disk_full * 100.0);
		break;
	}
	return buf;
}

void idlewatch_step(struct app *a)
{
	uint64_t g = model_generation(a->m);
	if (g == a->watch_seen)
		return;
	a->watch_seen = g;
	const struct snapshot *s = model_acquire(a->m);
	if (!(s->fresh[SRC_INSTANCES].last_ok > a->watch_ok)) { /* no new answer of the list */
		model_release(s);
		return;
	}
	a->watch_ok = s->fresh[SRC_INSTANCES].last_ok;
	struct idle_conf c;
	idle_conf_from(&c, a->cfg);
	struct watch_rise rise[IDLEWATCH_EVENTS];
	uint64_t gen = a->watch.gen;
	size_t n = watch_sample(&a->watch, s->instances, s->ninstances, &c, util_now(), rise,
				IDLEWATCH_EVENTS);
	char text[256];
	for (size_t i = 0; i < n && i < IDLEWATCH_EVENTS; i++) {
		const struct instance *x = model_snapshot_find(s, rise[i].id);
		if (!x)
			continue;
		idlewatch_text(x, rise[i].flag, &c, text, sizeof text);
		model_event(a->m, EV_WARN, -1, 0, x->id, event_flag(rise[i].flag), "%s", text);
	}
	if (n > IDLEWATCH_EVENTS)
		model_event(a->m, EV_WARN, -1, 0, 0, EVF_IDLE | EVF_HOT | EVF_DISK,
			    "%zu more instances became idle, hot or filling (/idle, /hot, /disk)",
			    n - IDLEWATCH_EVENTS);
	/* money burning on idle GPUs over the configured limit: said once a rise */
	size_t nidle = 0;
	double idle_rate = watch_idle_rate(&a->watch, s->instances, s->ninstances, &nidle);
	if (watch_idle_spend(&a->watch, idle_rate, a->cfg->idle_spend_limit))
		model_event(a->m, EV_WARN, -1, 0, 0, EVF_IDLE,
			    "%zu idle instance%s burn $%.2f/h, over idle_spend_limit $%.2f/h (/idle)",
			    nidle, nidle == 1 ? "" : "s", idle_rate, a->cfg->idle_spend_limit);
	/* the account's burn and credit over the session (the account view's
	 * charts): an exact burn only, never a partial sweep's bound */
	double burn, runway_h;
	enum figure_kind fig = header_money(s, &burn, &runway_h);
	watch_money_put(&a->watch.money, util_now(), fig == FIG_EXACT ? burn : NAN,
			s->user ? s->user->credit : NAN);
	if (a->watch.gen != gen)
		a->dirty |= DIRTY_HEADER | DIRTY_BODY;
	model_release(s);
}

char *idlewatch_spark(const struct watch_row *r, double now, bool ascii, char *buf, size_t n,
		      double *key)
{
	double v[IDLEWATCH_SPARK], sum = 0;
	size_t k = 0;
	buf[0] = '\0';
	if (key)
		*key = NAN;
	if (!r)
		return buf;
	series8_values(&r->util, now, v, IDLEWATCH_SPARK);
	for (size_t i = 0; i < IDLEWATCH_SPARK; i++)
		if (isfinite(v[i])) {
			sum += v[i];
			k++;
		}
	if (!k) /* nothing in the hour: an empty cell, as for an instance never sampled */
		return buf;
	chart_spark(buf, n, v, IDLEWATCH_SPARK, 0, 100, ascii);
	if (key)
		*key = sum / (double)k;
	return buf;
}
