/* acctbill.c: see acctbill.h.  The three answers become one kind of row;
 * amounts are kept in thousandths of a dollar (the service rounds each row
 * to three decimals), so that sums are exact and a day's total is the sum
 * of its rows to the cent. */
#include "flow/acctbill.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/api_account.h"
#include "base/util.h"
#include "base/xmalloc.h"

static const char *const kind_names[BILL__COUNT] = {
	[BILL_INSTANCE] = "instance", [BILL_STORAGE] = "storage", [BILL_SERVERLESS] = "serverless",
	[BILL_DEPOSIT] = "deposit",   [BILL_TRANSFER] = "transfer", [BILL_PREPAY] = "prepay",
	[BILL_OTHER] = "other",
};

const char *acctbill_kind_name(enum bill_kind k)
{
	return (unsigned)k < BILL__COUNT ? kind_names[k] : "other";
}

bool acctbill_is_charge(enum bill_kind k)
{
	switch (k) {
	case BILL_INSTANCE:
	case BILL_STORAGE:
	case BILL_SERVERLESS:
		return true;
	case BILL_DEPOSIT:
	case BILL_TRANSFER:
	case BILL_PREPAY:
	case BILL_OTHER:
	case BILL__COUNT:
		break;
	}
	return false;
}

double acctbill_day(double t)
{
	return floor(t / BILL_DAY) * BILL_DAY;
}

char *acctbill_date(double t, char *buf, size_t n)
{
	time_t tt = (time_t)floor(t);
	struct tm tm;
	if (!isfinite(t) || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		util_strlcpy(buf, "-", n);
	return buf;
}

void acctbill_page_free(void *page)
{
	struct bill_page *p = page;
	if (!p)
		return;
	free(p->v);
	free(p);
}

/* A number of o[k] (a number or numeric text); NAN when neither. */
static double num(const json_t *o, const char *k)
{
	const json_t *x = json_object_get(o, k);
	if (json_is_number(x))
		return json_number_value(x);
	if (json_is_string(x)) {
		char *end;
		double d = strtod(json_string_value(x), &end);
		if (end != json_string_value(x) && !*end)
			return d;
	}
	return NAN;
}

static long num_id(const json_t *o, const char *k)
{
	double d = num(o, k);
	return isfinite(d) && d > 0 && d < 1e15 ? (long)d : 0;
}

/* o[k] sanitised into buf ("" when not text). */
static void text(const json_t *o, const char *k, char *buf, size_t n)
{
	const char *s = json_string_value(json_object_get(o, k));
	char *c = util_sanitize(s ? s : "");
	util_strlcpy(buf, c, n);
	free(c);
}

static struct bill_row *add(struct bill_page *p)
{
	p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
	struct bill_row *r = &p->v[p->n++];
	memset(r, 0, sizeof *r);
	return r;
}

static long long mills_of(double dollars)
{
	return llround(dollars * 1000.0);
}

/* The service's words of a refusal sent with HTTP 200 ({"success":false,"msg"|"error"}). */
static bool refused(const json_t *root, char *why, size_t whyn)
{
	if (!json_is_false(json_object_get(root, "success")))
		return false;
	const json_t *m = json_object_get(root, "msg");
	if (!json_is_string(m))
		m = json_object_get(root, "error");
	char *c = util_sanitize(json_is_string(m) ? json_string_value(m) : "refused");
	util_strlcpy(why, c, whyn);
	free(c);
	return true;
}

static void take_next(const json_t *root, struct bill_page *p)
{
	const char *t = json_string_value(json_object_get(root, "next_token"));
	p->next[0] = '\0';
	if (t && strlen(t) < sizeof p->next)
		util_strlcpy(p->next, t, sizeof p->next);
}

/* "instance-9108074" -> 9108074 (0 when it ends in no number). */
static long source_id(const char *src)
{
	const char *d = src ? strrchr(src, '-') : NULL;
	if (!d || !d[1])
		return 0;
	char *end;
	long v = strtol(d + 1, &end, 10);
	return *end || v < 0 ? 0 : v;
}

/* One charge row (a tree's endpoint and workergroup rows: their items). */
static void one_charge(const json_t *o, struct bill_page *p, int depth)
{
	const char *type = json_string_value(json_object_get(o, "type"));
	const char *src = json_string_value(json_object_get(o, "source"));
	const json_t *items = json_object_get(o, "items");
	if (depth < 3 && src && (!strncmp(src, "endpoint-", 9) || !strncmp(src, "workergroup-", 12)) &&
	    json_array_size(items)) {
		size_t i;
		const json_t *x;
		json_array_foreach(items, i, x)
			one_charge(x, p, depth + 1);
		return;
	}
	double amount = num(o, "amount"), start = num(o, "start");
	if (!isfinite(amount) || !isfinite(start))
		return;
	const json_t *meta = json_object_get(o, "metadata");
	struct bill_row *r = add(p);
	r->t = acctbill_day(start);
	r->mills = mills_of(amount);
	r->contract = source_id(src);
	r->endpoint = num_id(meta, "endpoint_id");
	bool vol = (type && !strcmp(type, "volume")) || (src && !strncmp(src, "volume-", 7));
	r->kind = r->endpoint ? BILL_SERVERLESS : vol ? BILL_STORAGE : BILL_INSTANCE;
	char label[40];
	text(meta, "label", label, sizeof label);
	if (r->kind == BILL_SERVERLESS)
		snprintf(r->what, sizeof r->what, "endpoint %ld (worker %ld)", r->endpoint, r->contract);
	else
		snprintf(r->what, sizeof r->what, "%s %ld%s%s", vol ? "volume" : "instance", r->contract,
			 label[0] ? " " : "", label);
	text(o, "description", r->desc, sizeof r->desc);
}

/* The rows of a charges or invoices answer (a bare array or {"results": [...]}),
 * or NULL with why said (a refusal's own words, or what was unexpected). */
static const json_t *rows_of(const json_t *root, const char *what, char *why, size_t whyn)
{
	if (refused(root, why, whyn))
		return NULL;
	const json_t *a = json_is_array(root) ? root : json_object_get(root, "results");
	if (!json_is_array(a)) {
		snprintf(why, whyn, "%s: unexpected answer", what);
		return NULL;
	}
	return a;
}

bool acctbill_charges(const json_t *root, struct bill_page *p, char *why, size_t whyn)
{
	const json_t *a = rows_of(root, "charges", why, whyn);
	if (!a)
		return false;
	size_t i;
	const json_t *o;
	json_array_foreach(a, i, o)
		if (json_is_object(o))
			one_charge(o, p, 0);
	take_next(root, p);
	return true;
}

/* A type of /api/v1/invoices/ (or of the older form's non-charge rows). */
static enum bill_kind invoice_kind(const char *type)
{
	if (!type)
		return BILL_OTHER;
	if (!strcmp(type, "credit") || !strcmp(type, "payment") || !strcmp(type, "deposit"))
		return BILL_DEPOSIT;
	if (!strcmp(type, "transfer"))
		return BILL_TRANSFER;
	if (!strcmp(type, "reserved") || !strcmp(type, "prepay"))
		return BILL_PREPAY;
	return BILL_OTHER;
}

bool acctbill_invoices(const json_t *root, struct bill_page *p, char *why, size_t whyn)
{
	const json_t *a = rows_of(root, "invoices", why, whyn);
	if (!a)
		return false;
	size_t i;
	const json_t *o;
	json_array_foreach(a, i, o) {
		double amount = num(o, "amount"), t = num(o, "start");
		if (!json_is_object(o) || !isfinite(amount) || !isfinite(t))
			continue;
		const json_t *meta = json_object_get(o, "metadata");
		struct bill_row *r = add(p);
		r->t = t;
		r->kind = invoice_kind(json_string_value(json_object_get(o, "type")));
		r->mills = mills_of(amount);
		if (r->kind == BILL_DEPOSIT && r->mills > 0) /* a deposit is credit in */
			r->mills = -r->mills;
		if (r->kind == BILL_TRANSFER)
			text(meta, "recipient", r->what, sizeof r->what);
		if (!r->what[0])
			text(o, "source", r->what, sizeof r->what);
		r->contract = num_id(meta, "instance_id");
		text(o, "description", r->desc, sizeof r->desc);
	}
	take_next(root, p);
	return true;
}

/* The older form's charge row: its description names the kind
 * ("Instance 9108074: label", "Volume 12", "Serverless worker 88"). */
static void old_charge(const json_t *o, double t, double amount, struct bill_page *p)
{
	struct bill_row *r = add(p);
	/* a row's timestamp is the end of what it charges: a whole day ends
	 * on the next midnight */
	r->t = (ceil(t / BILL_DAY) - 1) * BILL_DAY;
	r->mills = mills_of(amount);
	text(o, "description", r->desc, sizeof r->desc);
	r->contract = num_id(o, "instance_id");
	r->kind = !strncmp(r->desc, "Serverless", 10) ? BILL_SERVERLESS
		  : !strncmp(r->desc, "Volume", 6)    ? BILL_STORAGE
						      : BILL_INSTANCE;
	const char *colon = strchr(r->desc, ':');
	snprintf(r->what, sizeof r->what, "%s %ld%s", acctbill_kind_name(r->kind), r->contract,
		 colon ? colon + 1 : "");
}

bool acctbill_invoices_old(const json_t *root, struct bill_page *p, char *why, size_t whyn)
{
	if (refused(root, why, whyn))
		return false;
	const json_t *a = json_object_get(root, "invoices");
	if (!json_is_array(a)) {
		util_strlcpy(why, "invoices: unexpected answer", whyn);
		return false;
	}
	size_t i;
	const json_t *o;
	json_array_foreach(a, i, o) {
		double amount = num(o, "amount"), t = num(o, "timestamp");
		if (!json_is_object(o) || !isfinite(amount) || !isfinite(t))
			continue;
		const char *type = json_string_value(json_object_get(o, "type"));
		if (type && !strcmp(type, "charge")) {
			old_charge(o, t, amount, p);
			continue;
		}
		/* the older form signs the other way: a payment positive */
		struct bill_row *r = add(p);
		r->t = t;
		r->kind = invoice_kind(type);
		r->mills = -mills_of(amount);
		text(o, "description", r->desc, sizeof r->desc);
		util_strlcpy(r->what, r->kind == BILL_DEPOSIT ? "payment" : acctbill_kind_name(r->kind),
			     sizeof r->what);
	}
	p->next[0] = '\0';
	return true;
}

static void *map(bool (*dec)(const json_t *, struct bill_page *, char *, size_t),
		 const json_t *root, struct api_error *e)
{
	struct bill_page *p = xcalloc(1, sizeof *p);
	char why[160] = "";
	if (!dec(root, p, why, sizeof why)) {
		acctbill_page_free(p);
		apierr_protocol(e, 200, why[0] ? why : "billing: unexpected answer");
		return NULL;
	}
	return p;
}

void *acctbill_map_charges(const json_t *root, struct api_error *e)
{
	return map(acctbill_charges, root, e);
}

void *acctbill_map_invoices(const json_t *root, struct api_error *e)
{
	return map(acctbill_invoices, root, e);
}

void *acctbill_map_invoices_old(const json_t *root, struct api_error *e)
{
	return map(acctbill_invoices_old, root, e);
}

/* ---- the fetch of a range ---------------------------------------------------- */

void acctbill_fetch_init(struct bill_fetch *f, double lo, int ndays, double hi)
{
	memset(f, 0, sizeof *f);
	f->lo = lo;
	f->hi = hi;
	f->ndays = ndays;
	f->step = BSTEP_INVOICES;
}

void acctbill_fetch_free(struct bill_fetch *f)
{
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

bool acctbill_fetch_call(const struct bill_fetch *f, const struct config *c,
			 struct api_call *call, acctbill_map_fn *map)
{
	switch (f->step) {
	case BSTEP_INVOICES:
		*call = api_invoices(c, f->lo, f->hi, f->tok);
		*map = acctbill_map_invoices;
		return true;
	case BSTEP_CHARGES:
		*call = api_charges_day(c, f->lo + f->day * BILL_DAY, f->tok);
		*map = acctbill_map_charges;
		return true;
	case BSTEP_OLD:
		*call = api_invoices_old(c, f->lo, f->hi);
		*map = acctbill_map_invoices_old;
		return true;
	case BSTEP_DONE:
		break;
	}
	return false;
}

/* Take the rows of p that belong (the older form's deposits and transfers
 * only when /api/v1/invoices/ did not give them). */
static void take(struct bill_fetch *f, const struct bill_page *p, bool charges_only)
{
	f->v = xrealloc(f->v, (f->n + p->n + 1) * sizeof *f->v);
	for (size_t i = 0; i < p->n; i++)
		if (!charges_only || acctbill_is_charge(p->v[i].kind))
			f->v[f->n++] = p->v[i];
}

/* Is e the answer of an endpoint the service does not have? */
static bool absent(const struct api_error *e)
{
	return api_should_fall_back(e);
}

void acctbill_fetch_put(struct bill_fetch *f, struct bill_page *p, const struct api_error *e)
{
	if (f->step == BSTEP_DONE) {
		acctbill_page_free(p);
		return;
	}
	if (!p) {
		if (e && absent(e) && f->step != BSTEP_OLD) {
			f->step = BSTEP_OLD;
			f->tok[0] = '\0';
		} else {
			util_strlcpy(f->err, e && e->msg[0] ? e->msg : "billing: no answer", sizeof f->err);
			f->step = BSTEP_DONE;
		}
		return;
	}
	switch (f->step) {
	case BSTEP_INVOICES:
		take(f, p, false);
		f->inv_v1 = true;
		util_strlcpy(f->tok, p->next, sizeof f->tok);
		if (!f->tok[0])
			f->step = BSTEP_CHARGES;
		break;
	case BSTEP_CHARGES:
		take(f, p, false);
		util_strlcpy(f->tok, p->next, sizeof f->tok);
		if (!f->tok[0] && ++f->day >= f->ndays)
			f->step = BSTEP_DONE;
		break;
	case BSTEP_OLD:
		/* the rows of the range only: the older form filters by the row's end */
		{
			size_t k = 0;
			for (size_t i = 0; i < p->n; i++)
				if (p->v[i].t >= f->lo)
					p->v[k++] = p->v[i];
			p->n = k;
		}
		take(f, p, f->inv_v1);
		f->old = true;
		f->step = BSTEP_DONE;
		break;
	case BSTEP_DONE:
		break;
	}
	acctbill_page_free(p);
}

/* ---- sums ---- */

int acctbill_range(double now, int ndays, double *lo)
{
	if (ndays < 1)
		ndays = 1;
	if (ndays > BILL_DAYS_MAX)
		ndays = BILL_DAYS_MAX;
	*lo = acctbill_day(now) - (ndays - 1) * BILL_DAY;
	return ndays;
}

/* The day index of t in the range, -1 when outside. */
static int day_index(double t, double lo, int ndays)
{
	double d = floor((t - lo) / BILL_DAY);
	return d >= 0 && d < ndays ? (int)d : -1;
}

long long acctbill_per_day(const struct bill_row *v, size_t n, double lo, int ndays,
			   long long *mills)
{
	long long total = 0;
	for (int d = 0; d < ndays; d++)
		mills[d] = 0;
	for (size_t i = 0; i < n; i++) {
		int d = day_index(v[i].t, lo, ndays);
		if (d < 0 || !acctbill_is_charge(v[i].kind))
			continue;
		mills[d] += v[i].mills;
		total += v[i].mills;
	}
	return total;
}

double acctbill_week(double t)
{
	double day = acctbill_day(t);
	long dn = (long)floor(day / BILL_DAY); /* 1970-01-01 was a Thursday: day 0, weekday 3 */
	long wd = ((dn % 7) + 7 + 3) % 7;       /* 0 = Monday */
	return day - (double)wd * BILL_DAY;
}

/* Add m to the total keyed (t, id), appending it when new. */
static void bump(struct bill_total **out, size_t *n, double t, long id, const struct bill_row *r)
{
	for (size_t i = 0; i < *n; i++) {
		if ((*out)[i].t == t && (*out)[i].id == id) {
			(*out)[i].mills += r->mills;
			return;
		}
	}
	*out = xrealloc(*out, (*n + 1) * sizeof **out);
	struct bill_total *x = &(*out)[(*n)++];
	memset(x, 0, sizeof *x);
	x->t = t;
	x->id = id;
	x->kind = r->kind;
	x->mills = r->mills;
	if (r->kind == BILL_SERVERLESS)
		snprintf(x->what, sizeof x->what, "endpoint %ld", id);
	else
		util_strlcpy(x->what, r->what, sizeof x->what);
}

size_t acctbill_per_week(const struct bill_row *v, size_t n, double lo, int ndays,
			 struct bill_total **out)
{
	size_t k = 0;
	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		if (day_index(v[i].t, lo, ndays) < 0 || !acctbill_is_charge(v[i].kind))
			continue;
		bump(out, &k, acctbill_week(v[i].t), 0, &v[i]);
	}
	for (size_t i = 0; i < k; i++) {
		snprintf((*out)[i].what, sizeof (*out)[i].what, "week");
		(*out)[i].kind = BILL_OTHER;
	}
	/* oldest first (rows arrive by day, but not necessarily in order) */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && (*out)[j - 1].t > (*out)[j].t; j--) {
			struct bill_total t = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return k;
}

size_t acctbill_per_instance(const struct bill_row *v, size_t n, double lo, int ndays,
			     struct bill_total **out)
{
	size_t k = 0;
	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		if (day_index(v[i].t, lo, ndays) < 0 || !acctbill_is_charge(v[i].kind))
			continue;
		long id = v[i].kind == BILL_SERVERLESS ? v[i].endpoint : v[i].contract;
		/* volumes and instances are numbered apart: a volume's key is negative */
		bump(out, &k, v[i].kind == BILL_STORAGE ? -1 : 0, id, &v[i]);
	}
	for (size_t i = 0; i < k; i++)
		(*out)[i].t = 0;
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && (*out)[j - 1].mills < (*out)[j].mills; j--) {
			struct bill_total t = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return k;
}

long long acctbill_cents(long long mills)
{
	return mills >= 0 ? (mills + 5) / 10 : -((-mills + 5) / 10);
}

char *acctbill_money(long long mills, char *buf, size_t n)
{
	long long c = acctbill_cents(mills);
	long long a = c < 0 ? -c : c;
	snprintf(buf, n, "%s$%lld.%02lld", c < 0 ? "-" : "", a / 100, a % 100);
	return buf;
}
