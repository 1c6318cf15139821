/* money.h: the money figures of the dashboard in one place, so that the
 * instance table's $/H column, the header's burn, the detail view's cost so
 * far, the prepay preview and the low-runway alert cannot disagree.
 *
 * Billing (SPEC rule 7, API-NOTES "Billing"): storage is charged from
 * creation in every state; the GPU only while the instance runs
 * (instance_state_billing_compute).  dph_total = dph_base + storage_total_cost.
 *
 * Pure, any thread; no curses, no I/O. */
#ifndef RENTOP_MONEY_H
#define RENTOP_MONEY_H

#include <stdbool.h>
#include <stddef.h>

struct instance;
struct snapshot;

/* What x costs now ($/hour): dph_total (or dph_base + storage) while the GPU
 * is billed, else storage_total_cost alone.  NAN when the price needed is not
 * known.  The header's burn is the sum of this over the rows. */
double money_row_rate(const struct instance *x);
/* True when money_row_rate(x) is storage only (the GPU is not billed now). */
bool money_storage_only(const struct instance *x);

/* Burn rate of everything billing now: running in full, the rest storage only
 * (the sum of money_row_rate, the $/H column). */
double money_burn_rate(const struct instance *const *v, size_t n); /* $/hour */
/* How far a money figure over the loaded instances can be trusted. */
enum figure_kind {
	FIG_EXACT,    /* the whole fleet is loaded */
	FIG_AT_LEAST, /* a part is loaded: the burn is at least this (runway at most) */
	FIG_UNKNOWN,  /* a part is loaded and it bills nothing yet: no honest figure */
};
/* The burn rate of a snapshot and how to show it (the partial-figures rule:
 * never $0 or an infinite runway while instances are still arriving). */
enum figure_kind money_burn_figure(const struct snapshot *s, double *burn);

/* How far the cost-so-far estimate of one instance can be trusted. */
enum cost_kind {
	COST_UNKNOWN, /* no start date or no price */
	COST_EXACT,   /* lo == hi: storage for the whole age, GPU for the whole run */
	COST_RANGE,   /* lo: what is known to have been billed; hi: an upper bound */
};

struct cost_estimate {
	enum cost_kind kind;
	double lo, hi;        /* $ */
	double age_s;         /* since start_date, s */
	double gpu_known_s;   /* GPU-billed time known (the current run's uptime), s */
	double storage;       /* $ of storage over the whole age (billed in every state) */
};

/* The cost of x from start_date to now: storage for the whole age (it is
 * billed in every state), plus dph_base for the GPU time known to have been
 * billed (uptime_mins of the current run) as the low figure, and for the
 * whole age as the upper bound.  Exact when the instance has run since its
 * start (its uptime covers the age up to the boot time, boot_s). */
void money_cost_so_far(const struct instance *x, double now, struct cost_estimate *out);

/* The prepay rule (the service's: months = amount / (dph_total x 720);
 * discount = min(0.4, 0.4 x months / 12)): false when the amount or the
 * price is not a positive number. */
bool money_prepay_preview(double amount, double dph_total, double *months, double *discount);

/* Low-money levels, worst last. */
enum money_level { ML_OK, ML_WARN, ML_ALARM };

struct money_limits {
	double runway_warn_h, runway_alarm_h;  /* hours; 0 = off */
	double credit_warn, credit_alarm;      /* $; 0 = off */
};

/* The level of an account with credit (NAN unknown) whose credit lasts
 * runway_h hours (money_runway_h: INFINITY when nothing draws on it, NAN
 * when unknown), exact (at_least false) or an upper bound (true: the burn
 * behind it is a lower bound, so a runway under a limit is still under it).
 * *known is false when nothing can be said (no credit, no runway figure);
 * why gets a short reason ("runway 1h40m < 2h", "credit $3.00 < $5.00"),
 * "" when OK. */
enum money_level money_level(const struct money_limits *lim, double credit, double runway_h,
			     bool at_least, bool *known, char *why, size_t n);

/* How long the account's credit lasts (hours) at the rows' rates
 * (money_row_rate), where an instance with prepaid credit (credit_balance > 0)
 * pays from it first, at its discount (credit_discount: the credit pays
 * rate x (1 - discount) an hour, as the service bills it), and draws on the
 * account only once that is spent.  INFINITY when nothing draws on it, 0 when
 * the credit is gone and something does, NAN when credit is unknown. */
double money_runway_h(const struct instance *const *v, size_t n, double credit);

/* The level tracker: remembers the last level and says when it crossed.
 * Returns +1 when the level rose (worse: ring the bell once), -1 when it fell
 * (better), 0 when unchanged or unknown (the last known level is kept). */
struct money_watch {
	enum money_level level;
	bool have;
};
int money_watch_update(struct money_watch *w, enum money_level level, bool known);

#endif
