/* pane_offers.c: the offers view (`3`, `:offers [query]`).  It searches
 * the service's offers with the official CLI's query language (query.h)
 * and shows them as a generic table (table.h) in the order the service
 * sent them: the sort is the search's server-side `order` (applied before
 * the limit), chosen with < > among query_sort_keys and inverted with i,
 * each a new search; a sort on a figure the client prices itself ($/h:
 * a bid offer's min_bid, not the on-demand dph_total the service sorts;
 * DLP/$) then orders the rows by the figure shown (offers_sort_shown).  t cycles the offer type (on-demand, bid, reserved).
 * The header says the type (and the lowest minimum bid for bid offers),
 * the default filters in force and the sort.
 *
 * Searches happen only on demand (Enter in the query line, r, a change of
 * type or sort) through jobs_call, the answer mapped on the poller thread
 * straight from its bytes (offers_answer: no jansson tree), and
 * are paced at the published rate (offers_pace_*), the only client-side
 * gate on them: a search that would be refused waits as the pending one
 * ("next search in N s", counting down; a newer request replaces it) and
 * goes by itself when the pacer allows (next_wake/on_wake), and a 429 says
 * how long to wait while the table keeps the last results.  A line that does not parse
 * shows the parser's message with its column and sends nothing.  Enter on a
 * row shows every field of the offer.
 *
 * c on an offer opens the create form over the view (create_form.c).  O on
 * an instance (registered in the instance views) opens this view with a
 * search for offers like it (offers_similar) and reads the instance, so
 * that c then prefills the form from it; once the replacement is created,
 * the destroy of the old one is offered (on Cancel). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "views/offers/pane_offers.h"

#include "api/api.h"
#include "app.h"
#include "views/offers/create_form.h"
#include "views/offers/offers_gpunames.h"
#include "views/instances/inst_dialogs.h"
#include "views/instances/inst_ops.h"
#include "draw.h"
#include "poll/jobs.h"
#include "json/json_map.h"
#include "state/model.h"
#include "flow/offers.h"
#include "widgets/table.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"

enum ocol { OC_ID, OC_GPUS, OC_GPURAM, OC_DPH, OC_DLPERF, OC_DLPD, OC_REL, OC_CUDA, OC_NET,
	    OC_DISK, OC_LOC, OC_VERIFIED, OC_MAXDUR, OC__COUNT };

/* The mapped answer of a search (poller thread -> model -> view). */
struct offer_list {
	struct offer *v;
	size_t n;
};

/* The view's private state. */
struct off_view {
	struct query_cmd qc;      /* the search in force (line, type, order) */
	char line[600];           /* its canonical text: what `/` pre-fills */
	struct offer *offers;     /* the last answer, server order (row i of t is offers[i]) */
	size_t n;
	double fill_disk;         /* GB the rows are priced for (the search answered) */
	bool searched;            /* an answer arrived at least once */
	struct table t;
	int req;                  /* the search in flight (0: none) */
	struct query_cmd next;    /* the pending search: asked for while one was in
				   * flight or the pacer was empty; sent when both allow */
	bool queued;
	struct pace pace;
	char status[300];         /* the last search's outcome or refusal */
	enum role status_role;
	char defaults[160];       /* "defaults: verified, rentable, ..." */
	bool detail;              /* the detail of the selected offer is shown */
	int dtop;                 /* first line of the detail drawn */
	struct create_ui *cu;     /* the create form (c) */
	long replace_id;          /* O: the instance being replaced, 0: none */
	char replace_why[240];
	bool replace_fix;         /* O on an image the registry refused: fix it first */
	struct offers_similar replace_sim; /* O: the search for offers like it */
	char relax[700];          /* O's search came back empty: the filters to relax */
	int prefill_req;          /* O: the read of that instance in flight */
	long await_old, await_new;/* a replacement created: the old one's destroy is
				   * offered once the new one runs (0: none) */
	bool await_seen;          /* the new one has been listed */
	struct offers_prefill *prefill; /* O: what the form is prefilled with */
	struct offers_gpunames gn; /* the service's GPU names (gpu_name=: the note, Tab) */
	pane_offers_found_fn found; /* `:launch`: told the answer of its search (NULL: none) */
	int found_req;            /* that search's id; -1: held, not sent yet; -2: replaced */
	struct template_rec *rent_tpl;  /* renting with this template (c in the
					 * templates view), NULL: none */
};

/* ---- pure pieces --------------------------------------------------------- */

char *pane_offers_line(const struct query_cmd *c, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	const char *f = c->filters ? c->filters : "";
	bool space = false;
	for (; *f && len + 2 < n; f++) {
		if (isspace((unsigned char)*f)) {
			space = len > 0;
			continue;
		}
		if (space)
			buf[len++] = ' ';
		space = false;
		buf[len++] = *f;
	}
	buf[len] = '\0';
	char opt[200] = "";
	size_t ol = 0;
	if (c->order && *c->order && strcmp(c->order, "score-") != 0)
		ol += (size_t)snprintf(opt + ol, sizeof opt - ol, " -o %s", c->order);
	if (c->type[0] && strcmp(c->type, "on-demand") != 0 && ol < sizeof opt)
		ol += (size_t)snprintf(opt + ol, sizeof opt - ol, " -t %s", c->type);
	if (c->no_default && ol < sizeof opt)
		ol += (size_t)snprintf(opt + ol, sizeof opt - ol, " -n");
	if (c->limit > 0 && ol < sizeof opt)
		ol += (size_t)snprintf(opt + ol, sizeof opt - ol, " --limit %d", c->limit);
	if (c->storage > 0 && ol < sizeof opt)
		snprintf(opt + ol, sizeof opt - ol, " --storage %g", c->storage);
	const char *o = opt;
	if (len == 0)
		while (*o == ' ')
			o++;
	util_strlcpy(buf + len, o, n - len);
	return buf;
}

int pane_offers_sort_key(const char *order, int *inverted)
{
	*inverted = 0;
	if (!order || !*order)
		return 0; /* score desc: key 0, natural */
	if (strchr(order, ','))
		return -1;
	char field[64];
	util_strlcpy(field, order, sizeof field);
	size_t l = strlen(field);
	bool desc = false;
	if (l && (field[l - 1] == '-' || field[l - 1] == '+')) {
		desc = field[l - 1] == '-';
		field[--l] = '\0';
	}
	const char *canon = query_alias(field);
	for (size_t i = 0; i < query_nsort_keys; i++)
		if (strcmp(query_sort_keys[i].field, canon) == 0) {
			*inverted = desc != query_sort_keys[i].desc;
			return (int)i;
		}
	return -1;
}

const char *pane_offers_next_type(const char *type)
{
	if (strcmp(type, "bid") == 0)
		return "reserved";
	if (strcmp(type, "reserved") == 0)
		return "on-demand";
	return "bid";
}

/* ---- the search's answer (poller thread) --------------------------------- */

static void free_list(void *p)
{
	struct offer_list *l = p;
	if (!l)
		return;
	json_map_offers_free(l->v, l->n);
	free(l);
}

/* The mapper (poller thread): the answer's bytes, {"offers": [...]} or a
 * bare list, into an offer_list (offers_answer_xfer; no tree is built). */
static void *map_offers(const struct http_xfer *x, struct api_error *e)
{
	struct offer_list *l = xcalloc(1, sizeof *l);
	if (!offers_answer_xfer(x, &l->v, &l->n, e)) {
		json_map_offers_free(l->v, l->n);
		free(l);
		return NULL;
	}
	return l;
}

/* ---- columns --------------------------------------------------------------- */

/* The disk priced in the $/h column, GB: --storage, else the create default. */
static double priced_disk(const struct query_cmd *c)
{
	return c->storage > 0 ? c->storage : CREATE_DISK_DEFAULT;
}

/* A cell of offer rec; ctx: the disk priced, GB (const double *). */
static void cell(const void *rec, const void *ctx, int arg, char *buf, size_t n, double *key)
{
	const struct offer *o = rec;
	double disk = *(const double *)ctx;
	*key = NAN;
	switch ((enum ocol)arg) {
	case OC_ID: snprintf(buf, n, "%ld", o->id); *key = (double)o->id; break;
	case OC_GPUS: offers_fmt_gpus(buf, n, o); break;
	case OC_GPURAM:
		*key = o->gpu_ram;
		if (isfinite(o->gpu_ram) && o->gpu_ram > 0)
			snprintf(buf, n, "%.0f GB", o->gpu_ram / 1024.0);
		else
			snprintf(buf, n, "-");
		break;
	case OC_DPH:
		*key = offers_dph(o, disk, 0);
		offers_fmt_dph(buf, n, *key);
		break;
	case OC_DLPERF:
		*key = o->dlperf;
		if (isfinite(o->dlperf))
			snprintf(buf, n, "%.1f", o->dlperf);
		else
			snprintf(buf, n, "-");
		break;
	case OC_DLPD:
		*key = offers_dlperf_per_dph(o, disk, 0);
		offers_fmt_dlperf_per_dph(buf, n, *key);
		break;
	case OC_REL: *key = o->reliability; offers_fmt_reliability(buf, n, o->reliability); break;
	case OC_CUDA:
		*key = o->cuda_max_good;
		if (isfinite(o->cuda_max_good) && o->cuda_max_good > 0)
			snprintf(buf, n, "%.1f", o->cuda_max_good);
		else
			snprintf(buf, n, "-");
		break;
	case OC_NET:
		*key = o->inet_down;
		snprintf(buf, n, "%.0f/%.0f", isfinite(o->inet_up) ? o->inet_up : 0,
			 isfinite(o->inet_down) ? o->inet_down : 0);
		break;
	case OC_DISK:
		*key = o->disk_space;
		if (isfinite(o->disk_space))
			snprintf(buf, n, "%.0f GB", o->disk_space);
		else
			snprintf(buf, n, "-");
		break;
	case OC_LOC: snprintf(buf, n, "%s", o->geolocation ? o->geolocation : "-"); break;
	case OC_VERIFIED: snprintf(buf, n, "%s", o->verified ? "yes" : "no"); break;
	case OC_MAXDUR: *key = o->duration; offers_fmt_max_duration(buf, n, o->duration); break;
	case OC__COUNT: buf[0] = '\0'; break;
	}
}

static const struct table_col cols[OC__COUNT] = {
	[OC_ID] = { "ID", 6, 10, 0, true, true, true, cell, OC_ID },
	[OC_GPUS] = { "GPUs", 8, 22, 0, false, false, false, cell, OC_GPUS },
	[OC_GPURAM] = { "GPU RAM", 7, 8, 3, true, true, true, cell, OC_GPURAM },
	[OC_DPH] = { "$/h", 8, 10, 0, true, true, true, cell, OC_DPH },
	[OC_DLPERF] = { "DLPerf", 6, 8, 4, true, true, true, cell, OC_DLPERF },
	[OC_DLPD] = { "DLP/$", 6, 8, 2, true, true, true, cell, OC_DLPD },
	[OC_REL] = { "Rel", 6, 7, 2, true, true, true, cell, OC_REL },
	[OC_CUDA] = { "CUDA", 4, 5, 5, true, true, true, cell, OC_CUDA },
	[OC_NET] = { "Up/Down", 7, 11, 5, true, true, true, cell, OC_NET },
	[OC_DISK] = { "Disk", 6, 8, 4, true, true, true, cell, OC_DISK },
	[OC_LOC] = { "Location", 8, 0, 3, false, false, false, cell, OC_LOC },
	[OC_VERIFIED] = { "Verified", 8, 8, 6, false, false, true, cell, OC_VERIFIED },
	[OC_MAXDUR] = { "Max dur", 7, 8, 6, true, true, true, cell, OC_MAXDUR },
};

static void finish(struct table_row *row, const void *rec, const void *ctx)
{
	(void)ctx;
	const struct offer *o = rec;
	row->id = o->id;
	row->role = o->rentable ? ROLE_NORMAL : ROLE_DIM;
	row->cell_role = -1;
	row->cell_role_col = -1;
}

const struct table_col *pane_offers_cols(int *n)
{
	*n = OC__COUNT;
	return cols;
}

/* util_strwidth, without its mbrtowc per character for printable ASCII (every
 * figure). */
static int text_width(const char *s)
{
	const char *p = s;
	while (*p >= 0x20 && *p < 0x7f)
		p++;
	return *p ? util_strwidth(s) : (int)(p - s);
}

/* Rows without cells: an answer of 1,000 offers is 13,000 cells, of which a
 * screen shows some 400; formatting and measuring them all (a malloc each)
 * took 3-10 ms of the UI thread per search.  The widths of the whole
 * columns are measured here on a stack buffer, the cells of a row made
 * when it is first drawn. */
void pane_offers_fill(struct table *t, const struct offer *v, size_t n, double disk)
{
	struct table_row *rows = xcalloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < TABLE_MAX_COLS; c++)
			rows[i].keys[c] = NAN;
		finish(&rows[i], &v[i], NULL);
	}
	table_set_rows(t, rows, n); /* the view and the selection (no cells: no widths) */
	for (int c = 0; c < t->ncols; c++) {
		t->natural[c] = 0;
		if (!cols[c].whole)
			continue;
		for (size_t i = 0; i < n; i++) {
			char buf[1024];
			double key;
			buf[0] = '\0';
			cell(&v[i], &disk, cols[c].arg, buf, sizeof buf, &key);
			int cw = text_width(buf);
			if (cw > t->natural[c])
				t->natural[c] = cw;
		}
	}
}

void pane_offers_cells(struct table_row *row, const struct offer *o, double disk)
{
	if (row->cells[0])
		return;
	for (int c = 0; c < OC__COUNT; c++) {
		char buf[1024];
		double key = NAN;
		buf[0] = '\0';
		cell(o, &disk, cols[c].arg, buf, sizeof buf, &key);
		row->cells[c] = xstrdup(buf);
		row->keys[c] = key;
	}
}

/* Row i's cells, made when it is first drawn or filtered (table.cells). */
static void off_cells(void *ctx, struct table_row *row, size_t i)
{
	const struct off_view *v = ctx;
	if (i < v->n)
		pane_offers_cells(row, &v->offers[i], v->fill_disk);
}

/* The rows of the answer (the `/` filter makes the cells it reads:
 * off_cells). */
static void fill(struct off_view *v)
{
	v->fill_disk = priced_disk(&v->qc);
	pane_offers_fill(&v->t, v->offers, v->n, v->fill_disk);
}

/* ---- searching ---------------------------------------------------------------- */

static void say(struct app *a, struct off_view *v, enum role r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(struct app *a, struct off_view *v, enum role r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->status, sizeof v->status, fmt, ap);
	va_end(ap);
	v->status_role = r;
	a->dirty |= DIRTY_BODY;
}

static void cmd_copy(struct query_cmd *dst, const struct query_cmd *src)
{
	*dst = *src;
	dst->filters = src->filters ? xstrdup(src->filters) : NULL;
	dst->order = src->order ? xstrdup(src->order) : NULL;
}

/* c becomes the pending search (taken over; it replaces any pending one). */
static void hold(struct off_view *v, struct query_cmd *c)
{
	if (v->queued)
		query_cmd_free(&v->next);
	if (v->queued && v->found_req == -1)
		v->found_req = -2; /* `:launch`'s search, replaced before it went */
	v->next = *c;
	v->queued = true;
}

/* The status while a search waits for the pacer: the whole seconds left. */
static void say_wait(struct app *a, struct off_view *v, double now)
{
	char wait[160];
	if (offers_pace_ready(&v->pace, now, wait, sizeof wait))
		return;
	if (v->pace.blocked_until > now)
		say(a, v, ROLE_WARNING, "offer searches refused by the service (429): %s%s", wait,
		    v->searched ? "; showing the previous results" : "");
	else
		say(a, v, ROLE_WARNING, "%s (about 10 searches a minute)", wait);
}

/* Search for c (taken over: it becomes the search in force once sent).
 * Nothing is sent when the line does not make a body (the status says
 * why; false); while a search is in flight or the pacer would refuse, c
 * becomes the pending search, sent by itself later (true). */
static bool search(struct app *a, struct off_view *v, struct query_cmd *c)
{
	struct query_error qe;
	json_t *body = query_cmd_body(c, &qe);
	if (json_object_get(body, "gpu_name"))
		offers_gpunames_want(a, &v->gn); /* for the answer's gpu_name note */
	if (!body) {
		say(a, v, ROLE_ERROR, "query: %s (nothing sent)", qe.msg);
		query_cmd_free(c);
		return false;
	}
	if (v->req) {
		/* one search at a time: the latest asked for goes when it answers */
		json_decref(body);
		hold(v, c);
		say(a, v, ROLE_DIM, "searching... (then the new search)");
		return true;
	}
	double now = util_mono();
	if (pace_wait(&v->pace, now) > 0) {
		/* not lost: it goes by itself when the pacer allows (on_wake) */
		json_decref(body);
		hold(v, c);
		say_wait(a, v, now);
		return true;
	}
	char defs[160];
	query_defaults_desc(body, defs, sizeof defs);
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_offers(a->cfg, body);
	jc.map_http = map_offers;
	jc.free_value = free_list;
	snprintf(jc.what, sizeof jc.what, "offer search");
	int id = 0;
	int rc = jobs_call(a->jobs, &jc, &id);
	if (rc != 0) {
		query_cmd_free(c);
		say(a, v, ROLE_ERROR, "offer search not sent: %s", jobs_strerror(rc));
		return false;
	}
	pace_take(&v->pace, now);
	v->req = id;
	if (v->found && v->found_req == -1) /* the held search of `:launch` goes now */
		v->found_req = id;
	util_strlcpy(v->defaults, defs, sizeof v->defaults);
	query_cmd_free(&v->qc);
	v->qc = *c;
	pane_offers_line(&v->qc, v->line, sizeof v->line);
	say(a, v, ROLE_DIM, "searching...");
	return true;
}

/* Run a typed line: parse it (a bad one shows the parser's message, with
 * the column, and sends nothing), then search. */
static void run_line(struct app *a, struct off_view *v, const char *line)
{
	struct query_cmd c;
	struct query_error qe;
	if (!query_cmd_parse(line, &c, &qe)) {
		say(a, v, ROLE_ERROR, "query: %s (nothing sent)", qe.msg);
		app_toast(a, ROLE_ERROR, 8, "query: %s", qe.msg);
		return;
	}
	if (!search(a, v, &c) && v->status_role == ROLE_ERROR)
		app_toast(a, ROLE_ERROR, 8, "%s", v->status);
}

/* Search again with the type or order changed. */
/* What the operator last asked for: the pending search if one waits (a key
 * pressed twice while a search is out builds on the first), else the one in
 * force. */
static const struct query_cmd *intent(const struct off_view *v)
{
	return v->queued ? &v->next : &v->qc;
}

static void research(struct app *a, struct off_view *v, const char *type, const char *order)
{
	struct query_cmd c;
	cmd_copy(&c, intent(v));
	if (type)
		util_strlcpy(c.type, type, sizeof c.type);
	if (order) {
		free(c.order);
		c.order = xstrdup(order);
	}
	search(a, v, &c);
}

/* The sort key after delta steps (< >) or inverted (i). */
static void resort(struct app *a, struct off_view *v, int delta, bool invert)
{
	int inv = 0;
	int k = pane_offers_sort_key(intent(v)->order, &inv);
	if (k < 0) {
		k = 0;
		inv = 0;
	}
	if (invert)
		inv = !inv;
	else {
		int nk = (int)query_nsort_keys;
		k = ((k + delta) % nk + nk) % nk;
		inv = 0;
	}
	char order[64];
	query_sort_order((size_t)k, inv, order, sizeof order);
	research(a, v, NULL, order);
}

/* ---- O: replace an instance ------------------------------------------------------ */

static void free_prefill(void *p)
{
	if (!p)
		return;
	offers_prefill_free(p);
	free(p);
}

/* The mapper (poller thread): GET /api/v0/instances/{id}/ -> a prefill. */
static void *map_prefill(const json_t *root, struct api_error *e)
{
	const json_t *inst = json_is_object(root) ? json_object_get(root, "instances") : NULL;
	if (json_is_array(inst))
		inst = json_array_get(inst, 0);
	if (!json_is_object(inst)) {
		apierr_protocol(e, 200, "no instance in the answer");
		return NULL;
	}
	struct offers_prefill *p = xcalloc(1, sizeof *p);
	offers_prefill_from_json(inst, p);
	return p;
}

static void take_prefill(struct app *a, struct off_view *v)
{
	struct call_result r;
	if (!v->prefill_req || !model_take_result(a->m, v->prefill_req, &r))
		return;
	v->prefill_req = 0;
	if (r.outcome == CALL_OK && r.value) {
		free_prefill(v->prefill);
		v->prefill = r.value;
		r.value = NULL;
	} else {
		app_toast(a, ROLE_ERROR, 10, "instance %ld could not be read to prefill the form: %s",
			  v->replace_id, r.err.msg);
		v->replace_id = 0;
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_BODY;
}

/* Shown with an instance id (O): search offers like it, read it for the form. */
static void off_enter(struct app *a, void *st, long arg)
{
	struct off_view *v = st;
	if (arg <= 0)
		return;
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, arg) : NULL;
	struct offers_similar sim;
	if (!x || !offers_similar(x, &sim)) {
		app_toast(a, ROLE_ERROR, 8, "instance %ld: nothing to match offers against", arg);
		return;
	}
	if (v->prefill_req)
		model_drop_result(a->m, v->prefill_req);
	v->prefill_req = 0;
	free_prefill(v->prefill);
	v->prefill = NULL;
	v->replace_id = arg;
	util_strlcpy(v->replace_why, sim.why, sizeof v->replace_why);
	v->replace_sim = sim;
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_instance(a->cfg, arg);
	jc.map = map_prefill;
	jc.free_value = free_prefill;
	snprintf(jc.what, sizeof jc.what, "instance %ld for the create form", arg);
	int rc = jobs_call(a->jobs, &jc, &v->prefill_req);
	if (rc != 0) {
		v->prefill_req = 0;
		v->replace_id = 0;
		app_toast(a, ROLE_ERROR, 8, "instance %ld not read: %s", arg, jobs_strerror(rc));
		return;
	}
	char line[700];
	if (sim.disk > 0)
		snprintf(line, sizeof line, "%s --storage %g", sim.line, sim.disk);
	else
		util_strlcpy(line, sim.line, sizeof line);
	run_line(a, v, line);
	if (v->replace_fix)
		app_toast(a, ROLE_WARNING, 20,
			  "instance %ld could not pull its image %s: the same image fails on any "
			  "machine; c opens the form: fix the image name or give its registry login "
			  "(image login) before C-s", arg, x->image[0] ? x->image : "(none)");
	else
		app_toast(a, ROLE_NORMAL, 10, "%s", sim.why);
}

void pane_offers_replace(struct app *a, long id, bool fix_image)
{
	int i = view_find(a, "offers");
	if (i < 0)
		return;
	struct off_view *v = a->views[i].st;
	v->replace_fix = fix_image;
	view_show(a, i, id);
}

/* The create form's create went through (id: the new instance, 1: not
 * named): a replacement's destroy of the old one is offered once it runs. */
static void created(struct app *a, struct off_view *v, long id)
{
	if (id && v->replace_id) {
		if (id > 1) { /* the old one's destroy is offered once this one runs */
			v->await_old = v->replace_id;
			v->await_new = id;
			v->await_seen = false;
			/* an event of its own: said after the create's answer, and kept */
			model_event(a->m, EV_OK, -1, 0, id, 0,
				    "instance %ld created to replace instance %ld: its destroy is "
				    "offered once %ld runs", id, v->replace_id, id);
		}
		v->replace_id = 0;
		free_prefill(v->prefill);
		v->prefill = NULL;
	}
}

/* A replacement was created: once it runs, offer the destroy of the
 * instance it replaces (asked, starting on Cancel); if it fails too, or
 * either goes, nothing is offered and the old one is kept. */
static void replace_watch(struct app *a, struct off_view *v)
{
	if (!v->await_new || !a->snap)
		return;
	const struct instance *n = model_snapshot_find(a->snap, v->await_new);
	const struct instance *o = model_snapshot_find(a->snap, v->await_old);
	if (!o || (!n && v->await_seen)) {
		v->await_new = v->await_old = 0; /* gone: nothing to offer */
		return;
	}
	if (!n)
		return; /* not listed yet */
	v->await_seen = true;
	if (instance_state_failed(n->state)) {
		app_toast(a, ROLE_WARNING, 15,
			  "replacement %ld is %s too: instance %ld is kept (nothing destroyed)", n->id,
			  instance_state_name(n->state), o->id);
		v->await_new = v->await_old = 0;
		return;
	}
	if (n->state != IS_RUNNING || dialog_open(&a->dlg) || a->prompt != PROMPT_NONE ||
	    create_form_ui_is_open(v->cu))
		return; /* asked once it runs and nothing else is being typed */
	char text[480];
	bool lab = o->label && o->label[0];
	snprintf(text, sizeof text,
		 "Instance %ld, created to replace instance %ld%s%s%s, is running. Destroy instance "
		 "%ld now? Its disk is deleted and all its billing stops.",
		 n->id, o->id, lab ? " (" : "", lab ? o->label : "", lab ? ")" : "", o->id);
	inst_dialogs_confirm_destroy(a, o->id, "Destroy the failed instance", text);
	v->await_new = v->await_old = 0;
	a->dirty |= DIRTY_ALL;
}

static bool off_modal_key(struct app *a, void *st, int key)
{
	struct off_view *v = st;
	return create_form_ui_key(a, v->cu, key);
}

static bool off_modal_draw(struct app *a, void *st)
{
	struct off_view *v = st;
	return create_form_ui_draw(a, v->cu);
}

/* The search's gpu_name is not exactly a GPU name: said with the count. */
static void gpu_note(struct app *a, struct off_view *v)
{
	char m[240];
	if (offers_gpunames_note(&v->gn, &v->qc, m, sizeof m))
		say(a, v, ROLE_WARNING, "%zu offer%s; %s", v->n, v->n == 1 ? "" : "s", m);
}

const struct gpu_names *pane_offers_gpu_names(struct app *a)
{
	int i = view_find(a, "offers");
	struct off_view *v = i >= 0 ? a->views[i].st : NULL;
	if (!v)
		return NULL;
	offers_gpunames_want(a, &v->gn);
	return v->gn.g;
}

/* Take the answer of the search in flight. */
static void off_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct off_view *v = st;
	struct call_result r;
	created(a, v, create_form_ui_snapshot(a, v->cu));
	take_prefill(a, v);
	replace_watch(a, v);
	if (offers_gpunames_take(a, &v->gn) && v->searched && !v->req && v->status_role == ROLE_OK)
		gpu_note(a, v); /* the names came after the search's answer */
	if (v->found && v->found_req == -2) {
		pane_offers_found_fn fn = v->found;
		v->found = NULL;
		fn(a, NULL, 0, "a new search replaced the launch's before it was sent", v->cu);
	}
	if (!v->req || !model_take_result(a->m, v->req, &r))
		return;
	int answered = v->req;
	v->req = 0;
	bool answered_ok = r.outcome == CALL_OK;
	switch (r.outcome) {
	case CALL_OK: {
		struct offer_list *l = r.value;
		pace_answered(&v->pace);
		json_map_offers_free(v->offers, v->n);
		v->offers = l ? l->v : NULL;
		v->n = l ? l->n : 0;
		if (l)
			l->v = NULL, l->n = 0;
		v->searched = true;
		int inv, k = pane_offers_sort_key(v->qc.order, &inv);
		if (k >= 0) /* the column's price, not the service's dph_total */
			offers_sort_shown(v->offers, v->n, query_sort_keys[k].field,
					  query_sort_keys[k].desc != (bool)inv, priced_disk(&v->qc));
		fill(v);
		table_home(&v->t);
		v->relax[0] = '\0';
		if (v->n == 0 && v->replace_id) /* which filter to give up, in the table */
			offers_similar_relax(&v->replace_sim, v->relax, sizeof v->relax);
		say(a, v, v->relax[0] ? ROLE_WARNING : ROLE_OK, "%zu offer%s", v->n,
		    v->n == 1 ? "" : "s");
		gpu_note(a, v);
		break;
	}
	case CALL_ERROR:
	case CALL_UNKNOWN:
		if (r.err.cls == AE_RATE_LIMIT) {
			char buf[200];
			offers_pace_refused(&v->pace, util_mono(), (double)rand() / RAND_MAX * 0.999,
					    buf, sizeof buf);
			say(a, v, ROLE_WARNING, "%s%s", buf,
			    v->searched ? "; showing the previous results" : "");
		} else {
			say(a, v, ROLE_ERROR, "offer search failed: %s", r.err.msg);
		}
		break;
	}
	model_call_result_free(&r);
	a->dirty |= DIRTY_BODY;
	if (v->found && v->found_req == answered) { /* `:launch`: its offers, table order */
		pane_offers_found_fn fn = v->found;
		v->found = NULL;
		v->found_req = 0;
		fn(a, v->offers, answered_ok ? v->n : 0, answered_ok ? NULL : v->status, v->cu);
	}
	if (v->queued) {
		struct query_cmd c = v->next;
		v->queued = false;
		search(a, v, &c);
	}
}

static void stop_replace(struct app *a, struct off_view *v);

bool pane_offers_search_for(struct app *a, const char *line, pane_offers_found_fn fn)
{
	int i = view_find(a, "offers");
	if (i < 0)
		return false;
	struct off_view *v = a->views[i].st;
	view_show(a, i, 0);
	struct query_cmd c;
	struct query_error qe;
	if (!query_cmd_parse(line, &c, &qe)) {
		say(a, v, ROLE_ERROR, "query: %s (nothing sent)", qe.msg);
		return false;
	}
	if (v->replace_id) /* what it rents replaces nothing */
		stop_replace(a, v);
	if (v->found) { /* an earlier launch still waiting: this one replaces it */
		pane_offers_found_fn old = v->found;
		v->found = NULL;
		old(a, NULL, 0, "a new :launch replaced it", v->cu);
	}
	int before = v->req;
	v->found_req = 0;
	if (!search(a, v, &c))
		return false;
	v->found = fn;
	v->found_req = !before && v->req ? v->req : -1;
	return true;
}

/* The pending search waits for the pacer: wake when it may go, or when
 * the whole seconds of the countdown change. */
static double off_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct off_view *v = st;
	if (!v->queued || v->req)
		return -1;
	double now = util_mono();
	double w = pace_wait(&v->pace, now);
	if (w <= 0)
		return now;
	double step = w - (ceil(w) - 1.0); /* until ceil(w) drops, (0, 1] */
	return now + step + 0.001;
}

/* Send the pending search if the pacer allows, else redraw the countdown. */
static void off_on_wake(struct app *a, void *st)
{
	struct off_view *v = st;
	if (!v->queued || v->req)
		return;
	double now = util_mono();
	if (pace_wait(&v->pace, now) > 0) {
		say_wait(a, v, now);
		return;
	}
	struct query_cmd c = v->next;
	v->queued = false;
	if (!search(a, v, &c) && v->status_role == ROLE_ERROR)
		app_toast(a, ROLE_ERROR, 8, "%s", v->status);
}

/* ---- drawing -------------------------------------------------------------------- */

/* The lowest minimum bid among the results, $/h (NAN: none). */
static double lowest_min_bid(const struct off_view *v)
{
	double m = NAN;
	for (size_t i = 0; i < v->n; i++)
		if (isfinite(v->offers[i].min_bid) && v->offers[i].min_bid > 0 &&
		    (isnan(m) || v->offers[i].min_bid < m))
			m = v->offers[i].min_bid;
	return m;
}

static const struct offer *selected_offer(const struct off_view *v)
{
	const struct table *t = &v->t;
	size_t i = table_index(t, list_selected(&t->nav));
	return i < v->n ? &v->offers[i] : NULL; /* row i is offers[i] */
}

/* The header: type (and min bid), sort, defaults, disk priced; then the
 * query and the status. */
static void draw_header(struct app *a, struct off_view *v, const struct rect *r)
{
	(void)a;
	char sort[80];
	int inv = 0;
	int k = pane_offers_sort_key(v->qc.order, &inv);
	if (k >= 0)
		snprintf(sort, sizeof sort, "%s %s", query_sort_keys[k].label,
			 (query_sort_keys[k].desc != (bool)inv) ? "high first" : "low first");
	else
		snprintf(sort, sizeof sort, "%s", v->qc.order);
	char bid[64] = "";
	if (strcmp(v->qc.type, "bid") == 0) {
		double mb = lowest_min_bid(v);
		char p[32];
		if (isfinite(mb))
			snprintf(bid, sizeof bid, " (min bid from %s)", offers_fmt_dph(p, sizeof p, mb));
	}
	char l1[900];
	char rep[300] = "";
	if (v->replace_id)
		snprintf(rep, sizeof rep, " REPLACE %ld%s (c rents, Esc stops) |", v->replace_id,
			 v->replace_fix ? ", FIX ITS IMAGE" : "");
	snprintf(l1, sizeof l1, "%s Offers: %s%s | sort: %s | %s | $/h with %g GB disk", rep,
		 v->qc.type, bid, sort, v->defaults[0] ? v->defaults : "defaults: (not searched yet)",
		 priced_disk(&v->qc));
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_TITLE));
	draw_text(r->y, r->x, r->w, l1, theme_attr(ROLE_TITLE));
	char l2[900], filt[200] = "";
	if (table_filter(&v->t)[0])
		snprintf(filt, sizeof filt, " | filter: %s (%zu of %zu shown)", table_filter(&v->t),
			 table_count(&v->t), v->t.nrows);
	snprintf(l2, sizeof l2, " query: %s%s", v->line[0] ? v->line : "(none: every offer)", filt);
	draw_fill(r->y + 1, r->x, r->w, theme_attr(ROLE_NORMAL));
	/* the status (searching, the answer, the pacer's wait, an error) is
	 * never pushed off by a long query: the query is cut instead, with an
	 * ellipsis, leaving it at least half of the line */
	int qw = draw_width(l2), sw = v->status[0] ? draw_width(v->status) : 0;
	int room = sw ? r->w - sw - 3 : r->w;
	if (room < r->w / 2)
		room = r->w / 2;
	int used;
	if (qw > room) {
		draw_cell(r->y + 1, r->x, room, l2, false, theme_attr(ROLE_NORMAL));
		used = room;
	} else {
		used = draw_text(r->y + 1, r->x, r->w, l2, theme_attr(ROLE_NORMAL));
	}
	if (sw && used + 3 < r->w)
		draw_text(r->y + 1, r->x + used + 3, r->w - used - 3, v->status,
			  theme_attr(v->status_role));
}

/* Every field of o, one "name: value" line each, into lines (returns count). */
static int detail_lines(const struct offer *o, const struct off_view *v, char lines[][160],
			int max)
{
	int n = 0;
	char b[64];
	double disk = priced_disk(&v->qc);
#define L(...) do { if (n < max) snprintf(lines[n++], 160, __VA_ARGS__); } while (0)
	L("id: %ld", o->id);
	L("machine_id: %ld", o->machine_id);
	L("host_id: %ld", o->host_id);
	L("gpus: %s", offers_fmt_gpus(b, sizeof b, o));
	L("gpu_ram: %.0f MB per GPU", o->gpu_ram);
	L("compute_cap: %.1f", o->compute_cap / 100.0);
	L("cuda_max_good: %.1f", o->cuda_max_good);
	L("driver_version: %s", o->driver_version ? o->driver_version : "-");
	L("$/h for %g GB disk: %s", disk, offers_fmt_dph(b, sizeof b, offers_dph(o, disk, 0)));
	L("storage for %g GB: %s", disk, offers_fmt_dph(b, sizeof b, offers_storage_dph(o, disk)));
	L("dph_total (as searched): %s", offers_fmt_dph(b, sizeof b, o->dph_total));
	L("dph_base: %s", offers_fmt_dph(b, sizeof b, o->dph_base));
	L("min_bid: %s", offers_fmt_dph(b, sizeof b, o->min_bid));
	L("storage_cost: %.3f $/GB/month", o->storage_cost);
	L("credit_discount_max: %.2f", o->credit_discount_max);
	L("dlperf: %.2f", o->dlperf);
	L("dlperf per $/h: %s",
	  offers_fmt_dlperf_per_dph(b, sizeof b, offers_dlperf_per_dph(o, disk, 0)));
	L("total_flops: %.1f TFLOPS", o->total_flops);
	L("score: %.2f", o->score);
	L("reliability: %s", offers_fmt_reliability(b, sizeof b, o->reliability));
	L("verified: %s (%s)", o->verified ? "yes" : "no",
	  o->verification ? o->verification : "-");
	L("rentable: %s", o->rentable ? "yes" : "no");
	L("priced as: %s", o->is_bid ? "interruptible (bid)" : "on-demand");
	L("cpu: %s, %.1f cores at %.1f GHz", o->cpu_name ? o->cpu_name : "-",
	  o->cpu_cores_effective, o->cpu_ghz);
	L("cpu_ram: %.0f MB", o->cpu_ram);
	L("disk_space: %.0f GB", o->disk_space);
	L("inet_up: %.0f Mbit/s", o->inet_up);
	L("inet_down: %.0f Mbit/s", o->inet_down);
	L("direct_port_count: %d", o->direct_port_count);
	L("geolocation: %s", o->geolocation ? o->geolocation : "-");
	L("max duration: %s", offers_fmt_max_duration(b, sizeof b, o->duration));
#undef L
	return n;
}

static void draw_detail(struct app *a, struct off_view *v, const struct rect *r)
{
	(void)a;
	const struct offer *o = selected_offer(v);
	if (!o) {
		v->detail = false;
		return;
	}
	char lines[48][160];
	int n = detail_lines(o, v, lines, 48);
	char title[80];
	snprintf(title, sizeof title, " Offer %ld ", o->id);
	draw_box(r->y, r->x, r->h, r->w, title, theme_attr(ROLE_BORDER));
	int h = r->h - 2;
	if (v->dtop > n - h)
		v->dtop = n - h > 0 ? n - h : 0;
	for (int i = 0; i < h; i++) {
		int y = r->y + 1 + i;
		draw_fill(y, r->x + 1, r->w - 2, theme_attr(ROLE_NORMAL));
		if (v->dtop + i < n)
			draw_text(y, r->x + 2, r->w - 4, lines[v->dtop + i], theme_attr(ROLE_NORMAL));
	}
}

/* What each line of the table needs (list_draw's dctx). */
struct off_lines {
	struct off_view *v;
	const struct rect *body;
	const int *w;
	unsigned shown;
};

/* Line y: row r of the table's list (LIST_NONE: below the last). */
static void off_line(void *dctx, size_t r, bool sel, int y)
{
	const struct off_lines *d = dctx;
	struct off_view *v = d->v;
	const struct rect *body = d->body;
	size_t i = table_index(&v->t, r);
	if (i == LIST_NONE) {
		draw_fill(y, body->x, body->w, theme_attr(ROLE_NORMAL));
		if (y == body->y + 1 && !table_count(&v->t))
			draw_text(y, body->x + 1, body->w - 1,
				  v->req ? "searching..."
				  : v->searched && v->replace_id && v->relax[0] ? v->relax
				  : v->n && table_filter(&v->t)[0]
					  ? "no offer matches the filter (Esc clears)"
				  : v->searched ? "no offer matches the query"
						: "no search yet: s types a query, r searches",
				  theme_attr(ROLE_DIM));
		return;
	}
	struct table_row *row = &v->t.rows[i];
	off_cells(v, row, i);
	unsigned long base = theme_attr(sel ? ROLE_SELECTION : (enum role)row->role);
	draw_fill(y, body->x, body->w, base);
	int x = body->x;
	for (int c = 0; c < OC__COUNT; c++) {
		if (!(d->shown & (1u << c)))
			continue;
		draw_cell(y, x, d->w[c], row->cells[c], cols[c].right, base);
		x += d->w[c] + 1;
	}
}

static void off_draw(struct app *a, void *st, const struct rect *r)
{
	struct off_view *v = st;
	if (r->h < 4)
		return;
	draw_header(a, v, r);
	struct rect body = { r->y + 2, r->x, r->h - 2, r->w };
	if (v->detail) {
		draw_detail(a, v, &body);
		if (v->detail)
			return;
	}
	struct table *t = &v->t;
	int w[OC__COUNT];
	unsigned shown = table_widths_fit(cols, OC__COUNT, body.w, t->natural, w);
	table_set_visible(t, shown);
	unsigned long ch = theme_attr(ROLE_COLHEAD);
	draw_fill(body.y, body.x, body.w, ch);
	int x = body.x;
	for (int c = 0; c < OC__COUNT; c++) {
		if (!(shown & (1u << c)))
			continue;
		draw_cell(body.y, x, w[c], cols[c].title, cols[c].right, ch);
		x += w[c] + 1;
	}
	struct off_lines d = { v, &body, w, shown };
	list_draw(table_list(t), body.y + 1, body.h - 1, off_line, &d);
}

/* ---- keys ------------------------------------------------------------------------ */

static void run_type(struct app *a, enum action act);
static void run_detail(struct app *a, enum action act);
static void run_create(struct app *a, enum action act);
static void run_replace(struct app *a, enum action act);
static const char *why_not_create(const void *row, char *buf, size_t n);
static const char *why_not_replace(const void *row, char *buf, size_t n);

static const struct action_def type_def = {
	"offer-type", "offer type: on-demand, interruptible (bid), reserved (searches again)",
	"type", AF_HINT, NULL, run_type,
};
static void run_search(struct app *a, enum action act);
static const struct action_def search_def = {
	"offer-search", "query line for a new search (r: search again)",
	"search", AF_HINT, NULL, run_search,
};
static const struct action_def detail_def = {
	"offer-detail", "every field of the selected offer", "detail", AF_NEEDS_SEL | AF_HINT,
	NULL, run_detail,
};

static const struct action_def create_def = {
	"create", "rent the selected offer: the create-instance form, then a billing confirmation",
	"rent", AF_MUTATES | AF_NEEDS_SEL | AF_HINT, why_not_create, run_create,
};
static const struct action_def replace_def = {
	"replace", "rent a replacement: offers like this instance, c prefilled from it, then "
		   "destroy it (confirms)",
	NULL, AF_MUTATES | AF_NEEDS_SEL, why_not_replace, run_replace,
};

static const char *why_not_create(const void *row, char *buf, size_t n)
{
	const struct offer *o = row;
	if (o->rentable)
		return NULL;
	snprintf(buf, n, "offer %ld is already rented: search again (r)", o->id);
	return buf;
}

static const char *why_not_replace(const void *row, char *buf, size_t n)
{
	const struct instance *x = row;
	if (x->gpu_name && *x->gpu_name && x->num_gpus > 0)
		return NULL;
	snprintf(buf, n, "instance %ld has no GPU model to match offers against", x->id);
	return buf;
}

void pane_offers_replace_keys(struct keymap *km, int ctx)
{
	enum action r = keymap_action_register(&replace_def);
	keymap_action_allow(r, ctx);
	keymap_default(km, ctx, "O", r);
}

static struct off_view *state(struct app *a)
{
	int i = view_find(a, "offers");
	return i >= 0 ? a->views[i].st : NULL;
}

static void run_type(struct app *a, enum action act)
{
	(void)act;
	struct off_view *v = state(a);
	if (v)
		research(a, v, pane_offers_next_type(intent(v)->type), NULL);
}

static void off_command(struct app *a, void *st, const char *args);

/* s: the query line, pre-filled with the search in force; Enter runs it. */
static void run_search(struct app *a, enum action act)
{
	(void)act;
	struct off_view *v = state(a);
	if (!v)
		return;
	view_search_prompt(a, v->line, off_command, NULL); /* as `:offers QUERY` */
	a->prompt_grammar = "offers";                      /* and Tab completes as there */
}

static void run_detail(struct app *a, enum action act)
{
	(void)act;
	struct off_view *v = state(a);
	if (!v)
		return;
	v->detail = !v->detail && selected_offer(v);
	v->dtop = 0;
	a->dirty |= DIRTY_BODY;
}

/* Stop renting with a template (its record freed). */
static void rent_tpl_stop(struct off_view *v)
{
	if (v->rent_tpl)
		json_map_templates_free(v->rent_tpl, 1);
	v->rent_tpl = NULL;
}

void pane_offers_rent_template(struct app *a, const struct template_rec *t)
{
	int i = view_find(a, "offers");
	if (i < 0 || !t)
		return;
	struct off_view *v = a->views[i].st;
	rent_tpl_stop(v);
	if (v->replace_id) { /* a replacement under way gives way */
		v->replace_id = 0;
		if (v->prefill_req)
			model_drop_result(a->m, v->prefill_req);
		v->prefill_req = 0;
		free_prefill(v->prefill);
		v->prefill = NULL;
	}
	v->rent_tpl = offers_template_dup(t);
	view_show(a, i, 0);
	char line[700];
	offers_template_search(t, line, sizeof line);
	run_line(a, v, line);
	char *name = util_sanitize(t->name ? t->name : t->hash_id ? t->hash_id : "");
	app_toast(a, ROLE_NORMAL, 15, "renting with template %s: offers for what it needs%s%s; c "
		  "opens the form filled from it, Esc goes back", name, *line ? ": " : "", line);
	free(name);
}

static void run_create(struct app *a, enum action act)
{
	(void)act;
	struct off_view *v = state(a);
	const struct offer *o = v ? selected_offer(v) : NULL;
	if (!o)
		return;
	if (v->replace_id && !v->prefill) {
		app_toast(a, ROLE_PENDING, 4, "still reading instance %ld to prefill the form...",
			  v->replace_id);
		return;
	}
	v->detail = false;
	if (v->rent_tpl && !v->replace_id) {
		create_form_ui_open_template(a, v->cu, o, v->rent_tpl);
		return;
	}
	create_form_ui_open(a, v->cu, o, v->prefill, v->replace_id);
}

/* The answer to the question on an image that failed to pull. */
static void replace_answered(struct app *a, void *owner, enum dlg_result res)
{
	(void)owner;
	if (res == DLG_CANCEL) {
		app_dialog_cancelled(a);
	} else if (res == DLG_SUBMIT) {
		long id = a->dlg.instance_id;
		int focus = a->dlg.focus;
		dialog_close(&a->dlg);
		pane_offers_replace_answer(a, id, focus);
	}
}

/* O: the offers view on the selected instance (off_enter does the rest). */
static void run_replace(struct app *a, enum action act)
{
	(void)act;
	const struct instance *x = app_selected(a);
	if (!x)
		return;
	if (offers_read_failure(x) != OFAIL_IMAGE) {
		pane_offers_replace(a, x->id, false);
		return;
	}
	/* the registry refused the image: moving it to another machine fails
	 * the same way; fixing the image (or its template) is offered first */
	bool tpl = x->template_hash_id[0] || x->template_id > 0;
	char text[700];
	snprintf(text, sizeof text,
		 "Instance %ld could not pull its image %s: %.140s. The same image fails on any "
		 "machine. Fix the image: offers like it, then c opens the form to change the image "
		 "or give its registry login.%s%s%s Or Recycle: the container anew on its "
		 "machine, the rental kept.",
		 x->id, x->image[0] ? x->image : "(none)", x->status_msg,
		 tpl ? " Or edit its template " : " Or rent the same image anyway.",
		 tpl ? (x->template_name[0] ? x->template_name : x->template_hash_id) : "",
		 tpl ? " (its image and registry login), then O again." : "");
	dialog_choice3(&a->dlg, 0, x->id, "Replace: its image failed", text, "Fix the image",
		       tpl ? "Template" : "Same image anyway", "Recycle");
	app_dialog_own(a, replace_answered, NULL);
	a->dirty |= DIRTY_ALL;
}

void pane_offers_replace_answer(struct app *a, long id, int focus)
{
	const struct instance *x = a->snap ? model_snapshot_find(a->snap, id) : NULL;
	if (!x) {
		app_toast(a, ROLE_WARNING, 6, "instance %ld is no longer listed", id);
		return;
	}
	bool tpl = x->template_hash_id[0] || x->template_id > 0;
	enum offers_fix_answer ans = offers_fix_answer(focus, tpl);
	switch (ans) {
	case OFIX_FIX_IMAGE:
	case OFIX_SAME_IMAGE:
		pane_offers_replace(a, id, ans == OFIX_FIX_IMAGE);
		return;
	case OFIX_RECYCLE:
		inst_ops_recycle(a, x);
		return;
	case OFIX_TEMPLATE:
		break;
	}
	view_open(a, "templates", 0);
	app_toast(a, ROLE_NORMAL, 20,
		  "template %s (hash %s): e edits its image and registry login; then O on instance "
		  "%ld rents again, or :recycle %ld recreates it on its machine, keeping the rental",
		  x->template_name[0] ? x->template_name : "-",
		  x->template_hash_id[0] ? x->template_hash_id : "-", id, id);
}

static void off_keys(struct keymap *km, int ctx)
{
	enum action c = keymap_action_register(&create_def);
	keymap_action_allow(c, ctx);
	keymap_default(km, ctx, "c", c);
	enum action t = keymap_action_register(&type_def);
	keymap_action_allow(t, ctx);
	keymap_default(km, ctx, "t", t);
	enum action s = keymap_action_register(&search_def);
	keymap_action_allow(s, ctx);
	keymap_default(km, ctx, "s", s);
	enum action d = keymap_action_register(&detail_def);
	keymap_action_allow(d, ctx);
	keymap_default(km, ctx, "Enter", d);
}

struct off_intent pane_offers_intent(enum action act, const struct off_keyctx *k)
{
	struct off_intent in = { OFF_PASS, 0 };
	if (!keymap_action_builtin(act)) /* a registered action: its run handles it */
		return in;
	if (k->detail) {
		switch (act) {
		case ACT_UP:
			in.op = k->dtop > 0 ? OFF_DETAIL_SCROLL : OFF_NOTHING;
			in.delta = -1;
			return in;
		case ACT_DOWN: /* kept within the lines when drawn */
			in.op = OFF_DETAIL_SCROLL;
			in.delta = 1;
			return in;
		case ACT_BACK:
		case ACT_QUIT: in.op = OFF_DETAIL_CLOSE; return in;
		case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_REFRESH:
		case ACT_PAUSE: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW:
		case ACT_NEXT_VIEW: case ACT_PAGE_UP: case ACT_PAGE_DOWN: case ACT_TOP:
		case ACT_BOTTOM: case ACT_SORT_PREV: case ACT_SORT_NEXT: case ACT_SORT_INVERT:
			break; /* they act on the table under the detail */
		}
	}
	switch (act) {
	case ACT_SORT_PREV: in.op = OFF_SORT; in.delta = -1; return in;
	case ACT_SORT_NEXT: in.op = OFF_SORT; in.delta = 1; return in;
	case ACT_SORT_INVERT: in.op = OFF_INVERT; return in;
	case ACT_BACK: in.op = k->replacing ? OFF_STOP_REPLACE : OFF_PASS; return in;
	case ACT_REFRESH: in.op = OFF_REFRESH; return in;
	case ACT_UP: case ACT_DOWN: case ACT_PAGE_UP: case ACT_PAGE_DOWN: case ACT_TOP:
	case ACT_BOTTOM: /* the table's list moves (view_ops.list) */
	case ACT_NONE: case ACT_HELP: case ACT_COMMAND: case ACT_FILTER: case ACT_PAUSE:
	case ACT_QUIT: case ACT_QUIT_NOW: case ACT_SUSPEND: case ACT_REDRAW: case ACT_NEXT_VIEW:
		return in;
	}
	return in;
}

/* The replacement of an instance (O) stops: nothing more is prefilled or offered. */
static void stop_replace(struct app *a, struct off_view *v)
{
	app_toast(a, ROLE_DIM, 4, "replacement of instance %ld stopped", v->replace_id);
	v->replace_id = 0;
	if (v->prefill_req)
		model_drop_result(a->m, v->prefill_req);
	v->prefill_req = 0;
	if (v->prefill) {
		offers_prefill_free(v->prefill);
		free(v->prefill);
		v->prefill = NULL;
	}
}

static bool off_action(struct app *a, void *st, enum action act)
{
	struct off_view *v = st;
	if (act == ACT_BACK && v->rent_tpl && !v->detail && !v->replace_id) {
		rent_tpl_stop(v); /* back to the templates */
		int t = view_find(a, "templates");
		if (t >= 0)
			view_show(a, t, 0);
		return true;
	}
	struct off_keyctx k = { v->detail, v->dtop, v->replace_id != 0 };
	struct off_intent in = pane_offers_intent(act, &k);
	switch (in.op) {
	case OFF_PASS: return false;
	case OFF_NOTHING: return true;
	case OFF_SORT: resort(a, v, (int)in.delta, false); break;
	case OFF_INVERT: resort(a, v, 0, true); break;
	case OFF_REFRESH: {
		struct query_cmd c;
		cmd_copy(&c, intent(v));
		search(a, v, &c);
		break;
	}
	case OFF_STOP_REPLACE:
		stop_replace(a, v);
		break;
	case OFF_DETAIL_SCROLL:
		v->dtop += (int)in.delta;
		a->dirty |= DIRTY_BODY;
		return true;
	case OFF_DETAIL_CLOSE:
		v->detail = false;
		a->dirty |= DIRTY_BODY;
		return true;
	}
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
	return true;
}

/* The list the moves, `/` (the rows shown, narrowed as it is typed:
 * nothing is sent) and Esc act on: the table's. */
static struct list *off_list(struct app *a, void *st)
{
	(void)a;
	struct off_view *v = st;
	return table_list(&v->t);
}

/* `:offers QUERY`: run it. */
static void off_command(struct app *a, void *st, const char *args)
{
	run_line(a, st, args);
}

static const void *off_selected(const struct app *a, const void *st)
{
	(void)a;
	return selected_offer(st);
}

static void off_tab_text(const struct app *a, const void *st, char *buf, size_t n)
{
	(void)a;
	const struct off_view *v = st;
	if (v->searched)
		snprintf(buf, n, "%zu", v->n);
	else
		buf[0] = '\0';
}

static void *off_init(struct app *a)
{
	a->gpu_names = pane_offers_gpu_names;
	a->rent_template = pane_offers_rent_template; /* c in the templates view */
	struct off_view *v = xcalloc(1, sizeof *v);
	struct query_error qe;
	query_cmd_parse("", &v->qc, &qe);
	pane_offers_line(&v->qc, v->line, sizeof v->line);
	table_init(&v->t, cols, OC__COUNT, -1); /* the service's order */
	v->t.cells = off_cells;
	v->t.cells_ctx = v;
	offers_pace_init(&v->pace, util_mono());
	v->cu = create_form_ui_new();
	return v;
}

static void off_fini(struct app *a, void *st)
{
	struct off_view *v = st;
	v->found = NULL;
	if (v->req)
		model_drop_result(a->m, v->req);
	if (v->prefill_req)
		model_drop_result(a->m, v->prefill_req);
	free_prefill(v->prefill);
	offers_gpunames_fini(a, &v->gn);
	rent_tpl_stop(v);
	create_form_ui_free(a, v->cu);
	json_map_offers_free(v->offers, v->n);
	query_cmd_free(&v->qc);
	if (v->queued)
		query_cmd_free(&v->next);
	table_free(&v->t);
	free(v);
}

const struct view_ops view_offers = {
	.name = "offers",
	.alias = "o",
	.title = "Offers",
	.heading = "Offers view",
	.number_key = '3',
	.ctx_flags = CTXF_LIST | CTXF_TABLE,
	.keys = off_keys,
	.init = off_init,
	.fini = off_fini,
	.enter = off_enter,
	.on_snapshot = off_snapshot,
	.modal_key = off_modal_key,
	.modal_draw = off_modal_draw,
	.next_wake = off_next_wake,
	.on_wake = off_on_wake,
	.draw = off_draw,
	.action = off_action,
	.selected_row = off_selected,
	.list = off_list,
	.command = off_command,
	.tab_text = off_tab_text,
};
