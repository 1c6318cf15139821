/* acctbill.h: the billing section's records and the jobs mappers of its
 * answers: /api/v0/charges/ (one row per contract over the day asked),
 * /api/v1/invoices/ (deposits, transfers, prepays) and the older
 * /api/v0/users/me/invoices (charges per contract and day, payments,
 * transfers, prepays), all into struct bill_row with one sign: what left
 * the balance is positive (a charge, a transfer, a prepay), what came in
 * negative (a deposit), as /api/v1/invoices/ signs them.  Strings are
 * sanitised.  Pure; any thread (the mappers run on the poller thread). */
#ifndef RENTOP_ACCTBILL_H
#define RENTOP_ACCTBILL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"

#define BILL_DAY 86400.0 /* s */

enum bill_kind {
	BILL_INSTANCE,   /* an instance's compute and disk */
	BILL_STORAGE,    /* a volume */
	BILL_SERVERLESS, /* a serverless worker (its endpoint) */
	BILL_DEPOSIT,    /* credit bought (negative) */
	BILL_TRANSFER,   /* credit sent to another account */
	BILL_PREPAY,     /* an instance's prepaid balance (then charged as consumed) */
	BILL_OTHER,
	BILL__COUNT
};
/* "instance", "storage", "serverless", "deposit", "transfer", "prepay", "other". */
const char *acctbill_kind_name(enum bill_kind k);
/* Is it spending (a charge of the day: instance, storage, serverless)? */
bool acctbill_is_charge(enum bill_kind k);

struct bill_row {
	double t;            /* epoch s; a charge: the start of its UTC day */
	enum bill_kind kind;
	long contract;       /* the instance or volume, 0 when none */
	long endpoint;       /* a serverless charge's endpoint, 0 when none */
	char what[64];       /* "instance 9108074 train-llama", "endpoint 3", a recipient */
	char desc[96];
	long long mills;     /* $ / 1000, the sign above (exact sums) */
};

/* One answer (a page) of rows; next: the paging token, "" when the last. */
struct bill_page {
	struct bill_row *v;
	size_t n;
	char next[160];
};
void acctbill_page_free(void *page); /* a jobs_free_fn */

/* The decoders (pure): append to *p; false when the shape is wrong (with
 * the service's own message, sanitised, in why[whyn] when it sent one). */
bool acctbill_charges(const json_t *root, struct bill_page *p, char *why, size_t whyn);
bool acctbill_invoices(const json_t *root, struct bill_page *p, char *why, size_t whyn);
bool acctbill_invoices_old(const json_t *root, struct bill_page *p, char *why, size_t whyn);

/* The jobs mappers: a struct bill_page, NULL with a protocol error. */
void *acctbill_map_charges(const json_t *root, struct api_error *e);
void *acctbill_map_invoices(const json_t *root, struct api_error *e);
void *acctbill_map_invoices_old(const json_t *root, struct api_error *e);

/* The UTC day start of epoch t. */
double acctbill_day(double t);
/* Epoch t as its UTC date "2026-11-27" into buf; returns buf. */
char *acctbill_date(double t, char *buf, size_t n);

/* ---- sums (pure) ----------------------------------------------------------
 * The range of days, spend per UTC day, per week (Monday to Sunday, UTC)
 * and per instance or endpoint, and money in cents.  Sums are exact
 * (thousandths of a dollar); a total is rounded to the cent once, half
 * away from zero. */
#define BILL_DAYS_MAX 92 /* the longest range (days) */

/* The range of the last ndays UTC days up to the day of now: its first
 * day's start into *lo (the days are lo, lo + BILL_DAY, ...).  ndays is
 * clamped to 1..BILL_DAYS_MAX; returns it. */
int acctbill_range(double now, int ndays, double *lo);

/* Spend (charges only) per day of the range into mills[0..ndays) ($/1000);
 * rows outside it are left out.  Returns the range's total. */
long long acctbill_per_day(const struct bill_row *v, size_t n, double lo, int ndays,
			   long long *mills);

/* One line of a total. */
struct bill_total {
	double t;          /* per day, per week: the start; per instance: 0 */
	enum bill_kind kind; /* per instance: the kind of its charges */
	long id;           /* per instance: the instance, volume or endpoint */
	char what[64];     /* its name (the first row's what) */
	long long mills;
};
/* The start (Monday 00:00 UTC) of the week holding epoch t. */
double acctbill_week(double t);
/* Totals of the charges within [lo, lo + ndays days): per week (oldest
 * first), per instance (largest first; a serverless worker counts for its
 * endpoint).  *out malloc'd (free it); returns the count. */
size_t acctbill_per_week(const struct bill_row *v, size_t n, double lo, int ndays,
			 struct bill_total **out);
size_t acctbill_per_instance(const struct bill_row *v, size_t n, double lo, int ndays,
			     struct bill_total **out);

/* mills as dollars to the cent, half away from zero: "$12.35", "-$100.00". */
char *acctbill_money(long long mills, char *buf, size_t n);
/* mills rounded to whole cents. */
long long acctbill_cents(long long mills);


/* ---- the fetch of a range ----------------------------------------------------
 *
 * One range's rows come from several calls made one after the other:
 * /api/v1/invoices/ of the range, then /api/v0/charges/ day by day (each
 * page).  Where /api/v1/invoices/ answers 404 (or 405) the older
 * /api/v0/users/me/invoices gives everything instead; where only the
 * charges answer 404 it gives their rows.  The caller (the view through
 * jobs, the dump through api_run) runs acctbill_fetch_call's call, maps
 * its answer with the mapper given, and hands the outcome to
 * acctbill_fetch_put, until acctbill_fetch_call says there is none.
 * One owner (any thread). */
enum bill_step { BSTEP_INVOICES, BSTEP_CHARGES, BSTEP_OLD, BSTEP_DONE };
struct bill_fetch {
	double lo, hi;       /* epoch s: the first day's start, the end (now) */
	int ndays;
	enum bill_step step;
	int day;             /* BSTEP_CHARGES: the day asked (0..ndays) */
	char tok[160];       /* the next page's token, "" for the first */
	bool inv_v1;         /* the deposits and transfers came from /api/v1/invoices/ */
	bool old;            /* the older form was used */
	struct bill_row *v;  /* the rows so far */
	size_t n;
	char err[160];       /* BSTEP_DONE on a failure: why ("" when none) */
};
struct config;
struct api_call;
typedef void *(*acctbill_map_fn)(const json_t *root, struct api_error *e);
/* Start a fetch of [lo, hi] (ndays days from lo). */
void acctbill_fetch_init(struct bill_fetch *f, double lo, int ndays, double hi);
void acctbill_fetch_free(struct bill_fetch *f);
/* The next call and its mapper; false when the fetch is over. */
bool acctbill_fetch_call(const struct bill_fetch *f, const struct config *c,
			 struct api_call *call, acctbill_map_fn *map);
/* The outcome of that call: its page (taken over, NULL on a failure) or
 * its error (e, NULL when it succeeded). */
void acctbill_fetch_put(struct bill_fetch *f, struct bill_page *p, const struct api_error *e);

#endif
