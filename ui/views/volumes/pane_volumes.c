/* pane_volumes.c: the volumes view (`:volumes`, 7; pane_volumes.h).  The
 * list is one fetch (GET /api/v0/volumes/?type=all_volume, through
 * jobs_call: a fetch, retried by the poller's one rule) read when the view
 * is shown, on r, after each change and every few seconds while a volume
 * is creating or cloning.  o switches to the volume offers: the local and
 * the network searches (the CLI's default query), one list.  The writes
 * are vol_edit.c's.  Every string drawn was sanitised when decoded. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "views/volumes/pane_volumes.h"

#include "api/api.h"
#include "app.h"
#include "base/util.h"
#include "draw.h"
#include "json/json_list.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "theme.h"
#include "view.h"
#include "views/volumes/vol_edit.h"
#include "views/volumes/vol_fields.h"
#include "widgets/list.h"

#define VOL_BUSY_POLL 3.0 /* s between reads while a volume is creating or cloning */
#define VOL_OFFERS_MAX 64

struct vol_view {
	struct json_list *vols;          /* struct volume_rec */
	struct json_list *off[2];        /* struct volume_offer_rec: local, network */
	int req, req_off[2];             /* calls in flight (0: none) */
	bool loaded, off_loaded, offers; /* offers: the offers are shown */
	bool again;                      /* read the list again when the read in flight answers */
	char status[300];                /* why the last read failed, "" */
	struct list nav, onav;
	struct vol_edit *ed;
	double wake;                     /* util_mono() of the next read while busy, -1: none */
	/* i: the volume the next create form on machine preset_machine starts
	 * with (pane_volumes_preset_apply; preset_machine 0: none) */
	long preset_machine, preset_id;
	enum create_vol_mode preset_mode;
};

static const struct volume_rec *vrec(const struct vol_view *v, size_t i)
{
	return &json_list_at(v->vols, struct volume_rec)[i];
}

static size_t noff(const struct vol_view *v, int k)
{
	return json_list_count(v->off[k]);
}

static const struct volume_offer_rec *orec(const struct vol_view *v, size_t i)
{
	size_t nl = noff(v, 0);
	return i < nl ? &json_list_at(v->off[0], struct volume_offer_rec)[i]
		      : &json_list_at(v->off[1], struct volume_offer_rec)[i - nl];
}

/* ---- rows ---------------------------------------------------------------------------- */

static void fmt_month(char *buf, size_t n, double m)
{
	if (isfinite(m))
		snprintf(buf, n, "$%.2f", m);
	else
		snprintf(buf, n, "-");
}

static void vol_row(const struct volume_rec *r, char *buf, size_t n)
{
	char where[64], month[24], used[64] = "-", size[24] = "-";
	if (r->network)
		snprintf(where, sizeof where, "%s", r->geolocation[0] ? r->geolocation : "-");
	else
		snprintf(where, sizeof where, "machine %ld", r->machine_id);
	fmt_month(month, sizeof month, api_volume_month(r));
	if (isfinite(r->disk_space))
		snprintf(size, sizeof size, "%g GB", r->disk_space);
	size_t len = 0;
	for (size_t k = 0; k < r->ninst && len < sizeof used; k++)
		len += (size_t)snprintf(used + len, sizeof used - len, "%s%ld", k ? "," : "", r->inst[k]);
	snprintf(buf, n, "%-9ld %-7s %-20.20s %9s %-18.18s %-9.9s %10s  %s", r->id,
		 api_volume_kind(r->network), r->label[0] ? r->label : "-", size, where,
		 r->status[0] ? r->status : "-", month, used);
}

static void offer_row(const struct volume_offer_rec *o, char *buf, size_t n)
{
	char where[64], free_[24] = "-", rel[16] = "-";
	if (o->network)
		snprintf(where, sizeof where, "%s", o->geolocation[0] ? o->geolocation : "-");
	else
		snprintf(where, sizeof where, "machine %ld", o->machine_id);
	if (isfinite(o->disk_space))
		snprintf(free_, sizeof free_, "%.0f GB", o->disk_space);
	if (isfinite(o->reliability))
		snprintf(rel, sizeof rel, "%.1f%%", o->reliability * 100);
	snprintf(buf, n, "%-9ld %-7s %-24.24s %10s %9.4f %7s", o->id, api_volume_kind(o->network),
		 where, free_, o->storage_cost, rel);
}

static void v_text(const void *ctx, size_t i, char *buf, size_t n)
{
	vol_row(vrec(ctx, i), buf, n);
}

static long v_id(const void *ctx, size_t i)
{
	return vrec(ctx, i)->id;
}

static void o_text(const void *ctx, size_t i, char *buf, size_t n)
{
	offer_row(orec(ctx, i), buf, n);
}

static long o_id(const void *ctx, size_t i)
{
	return orec(ctx, i)->id;
}

static const struct list_ops v_ops = { .text = v_text, .id = v_id };
static const struct list_ops o_ops = { .text = o_text, .id = o_id };

static const struct volume_rec *sel_vol(const struct vol_view *v)
{
	size_t i = list_selected(&v->nav);
	return i != LIST_NONE && i < json_list_count(v->vols) ? vrec(v, i) : NULL;
}

static const struct volume_offer_rec *sel_offer(const struct vol_view *v)
{
	size_t i = list_selected(&v->onav);
	return i != LIST_NONE && i < noff(v, 0) + noff(v, 1) ? orec(v, i) : NULL;
}

/* ---- reads --------------------------------------------------------------------------- */

static void *map_vols(const json_t *root, struct api_error *e)
{
	return json_list_map(&api_volumes_list, root, e);
}

static void *map_offers(const json_t *root, struct api_error *e)
{
	return json_list_map(&api_volume_offers_list, root, e);
}

static int send_read(struct app *a, struct api_call call, jobs_map_fn map, const char *what,
		     char *status, size_t n)
{
	struct job_call c = { .call = call, .map = map, .free_value = json_list_free };
	util_strlcpy(c.what, what, sizeof c.what);
	int id = 0;
	int rc = jobs_call(a->jobs, &c, &id);
	if (rc != JOBS_OK) {
		snprintf(status, n, "%s not read: %s", what, jobs_strerror(rc));
		return 0;
	}
	return id;
}

static void fetch(struct app *a, struct vol_view *v)
{
	if (v->req) {
		v->again = true; /* it may predate a change: once more after it */
		return;
	}
	v->req = send_read(a, api_volumes(a->cfg), map_vols, "volumes", v->status, sizeof v->status);
}

static void fetch_offers(struct app *a, struct vol_view *v)
{
	for (int k = 0; k < 2; k++)
		if (!v->req_off[k])
			v->req_off[k] = send_read(a, api_volume_offers(a->cfg, k == 1, VOLUME_SIZE_DEFAULT,
								       VOL_OFFERS_MAX),
						  map_offers, k ? "network volume offers" : "volume offers",
						  v->status, sizeof v->status);
}

static bool busy(const struct vol_view *v)
{
	for (size_t i = 0; i < json_list_count(v->vols); i++) {
		const char *s = vrec(v, i)->status;
		if (!strcmp(s, "creating") || !strcmp(s, "cloning"))
			return true;
	}
	return false;
}

/* A result of req: its list into *into (replacing it) or the reason in
 * status; true when one came. */
static bool take(struct app *a, int *req, struct json_list **into, char *status, size_t n,
		 struct call_result *r)
{
	if (!*req || !model_take_result(a->m, *req, r))
		return false;
	*req = 0;
	if (r->outcome == CALL_OK && r->value) {
		json_list_free(*into);
		*into = r->value;
		r->value = NULL;
		status[0] = '\0';
	} else if (r->outcome != CALL_OK) {
		char why[256];
		apierr_format(&r->err, why, sizeof why);
		snprintf(status, n, "read failed: %s", why);
	}
	return true;
}

static void vv_snapshot(struct app *a, void *st, bool rows)
{
	(void)rows;
	struct vol_view *v = st;
	if (vol_edit_snapshot(a, v->ed))
		fetch(a, v);
	struct call_result r;
	if (take(a, &v->req, &v->vols, v->status, sizeof v->status, &r)) {
		bool ok = r.outcome == CALL_OK;
		v->loaded |= ok;
		list_set_count(&v->nav, json_list_count(v->vols));
		const struct volume_rec *recs = v->vols ? vrec(v, 0) : NULL;
		vol_edit_reread(a, v->ed, recs, json_list_count(v->vols), r.when, ok ? NULL : r.err.msg);
		model_call_result_free(&r);
		v->wake = busy(v) ? util_mono() + VOL_BUSY_POLL : -1;
		if (v->again) {
			v->again = false;
			fetch(a, v);
		}
		a->dirty |= DIRTY_BODY | DIRTY_HINTS;
	}
	for (int k = 0; k < 2; k++)
		if (take(a, &v->req_off[k], &v->off[k], v->status, sizeof v->status, &r)) {
			model_call_result_free(&r);
			if (v->req_off[0] || v->req_off[1])
				continue; /* the rows once both searches answered: the best first */
			bool first = !v->off_loaded;
			v->off_loaded = true;
			list_set_count(&v->onav, noff(v, 0) + noff(v, 1));
			if (first)
				list_action(&v->onav, ACT_TOP);
			a->dirty |= DIRTY_BODY | DIRTY_HINTS;
		}
}

static double vv_next_wake(const struct app *a, const void *st)
{
	(void)a;
	const struct vol_view *v = st;
	return v->wake;
}

static void vv_wake(struct app *a, void *st)
{
	struct vol_view *v = st;
	v->wake = -1;
	fetch(a, v);
}

/* ---- drawing ------------------------------------------------------------------------- */

struct vv_draw {
	const struct vol_view *v;
	const struct rect *r;
};

static void draw_row(void *dctx, size_t i, bool sel, int y)
{
	const struct vv_draw *d = dctx;
	enum role role = sel ? ROLE_SELECTION : ROLE_NORMAL;
	draw_fill(y, d->r->x, d->r->w, theme_attr(role));
	if (i == LIST_NONE)
		return;
	char line[300];
	line[0] = ' ';
	if (d->v->offers)
		offer_row(orec(d->v, i), line + 1, sizeof line - 1);
	else
		vol_row(vrec(d->v, i), line + 1, sizeof line - 1);
	draw_text(y, d->r->x, d->r->w, line, theme_attr(role));
}

static void vv_draw(struct app *a, void *st, const struct rect *r)
{
	struct vol_view *v = st;
	if (r->h < 4)
		return;
	struct list *l = v->offers ? &v->onav : &v->nav;
	char head[400], filt[200] = "";
	if (list_filter(l)[0])
		snprintf(filt, sizeof filt, " | filter: %s", list_filter(l));
	if (v->offers) {
		snprintf(head, sizeof head,
			 " Volume offers: %zu local, %zu network (verified, by score) | %so back to "
			 "your volumes%s",
			 noff(v, 0), noff(v, 1), a->read_only ? "" : "c creates on the selected offer, ",
			 filt);
	} else {
		double month = 0;
		for (size_t i = 0; i < json_list_count(v->vols); i++) {
			double m = api_volume_month(vrec(v, i));
			month += isfinite(m) ? m : 0;
		}
		snprintf(head, sizeof head, " Volumes: %zu, $%.2f/month in all%s",
			 json_list_count(v->vols), month, filt);
	}
	draw_fill(r->y, r->x, r->w, theme_attr(ROLE_TITLE));
	draw_text(r->y, r->x, r->w, head, theme_attr(ROLE_TITLE));
	draw_fill(r->y + 1, r->x, r->w, theme_attr(ROLE_NORMAL));
	bool reading = v->offers ? v->req_off[0] || v->req_off[1] : v->req;
	if (v->status[0])
		draw_text(r->y + 1, r->x + 1, r->w - 1, v->status, theme_attr(ROLE_ERROR));
	else if (reading)
		draw_text(r->y + 1, r->x + 1, r->w - 1, "reading...", theme_attr(ROLE_DIM));
	char ch[200];
	if (v->offers)
		snprintf(ch, sizeof ch, " %-9s %-7s %-24s %10s %9s %7s", "Offer", "Kind", "Where", "Free",
			 "$/GB/mo", "Reliab");
	else
		snprintf(ch, sizeof ch, " %-9s %-7s %-20s %9s %-18s %-9s %10s  %s", "Id", "Kind", "Label",
			 "Size", "Where", "State", "Per month", "Instances");
	draw_fill(r->y + 2, r->x, r->w, theme_attr(ROLE_COLHEAD));
	draw_text(r->y + 2, r->x, r->w, ch, theme_attr(ROLE_COLHEAD));
	struct vv_draw d = { v, r };
	list_draw(l, r->y + 3, r->h - 3, draw_row, &d);
	if (!list_count_shown(l) && r->h > 3) {
		bool loaded = v->offers ? v->off_loaded : v->loaded;
		draw_text(r->y + 3, r->x + 1, r->w - 1,
			  !loaded			       ? "reading..."
			  : list_filter(l)[0]		       ? "nothing matches the filter"
			  : v->offers			       ? "no volume offers"
							       : "no volumes (o lists the offers, c creates one)",
			  theme_attr(ROLE_DIM));
	}
}

/* ---- actions ------------------------------------------------------------------------- */

static struct vol_view *vstate(struct app *a)
{
	int i = view_find(a, "volumes");
	return i >= 0 ? a->views[i].st : NULL;
}

static void show_offers(struct app *a, struct vol_view *v, bool on)
{
	v->offers = on;
	if (on && !v->off_loaded)
		fetch_offers(a, v);
	a->dirty |= DIRTY_BODY | DIRTY_HINTS;
}

static void run_offers(struct app *a, enum action act)
{
	(void)act;
	struct vol_view *v = vstate(a);
	if (v)
		show_offers(a, v, !v->offers);
}

enum { VR_OFFERS, VR_CREATE, VR_CLONE, VR_DELETE, VR_RENT, VR__COUNT };
static enum action vv_ids[VR__COUNT];
static const struct action_row vv_rows[VR__COUNT] = {
	[VR_OFFERS] = { { .name = "volume-offers",
			  .help = "volume offers (local and network, the CLI's default search) or "
				  "back to your volumes",
			  .hint = "offers", .flags = AF_HINT, .run = run_offers },
			"o", NULL, &vv_ids[VR_OFFERS] },
	[VR_CREATE] = { { .name = "volume-create",
			  .help = "create a volume on the selected offer (form: size, name); from "
				  "your volumes: the offers first",
			  .hint = "create", .flags = AF_MUTATES | AF_HINT },
			"c", NULL, &vv_ids[VR_CREATE] },
	[VR_CLONE] = { { .name = "volume-clone",
			 .help = "clone the selected volume into a volume offer (form)",
			 .hint = "clone", .flags = AF_MUTATES | AF_HINT },
		       "C", NULL, &vv_ids[VR_CLONE] },
	[VR_DELETE] = { { .name = "volume-delete",
			  .help = "delete the selected volume and its data (confirm)",
			  .hint = "delete", .flags = AF_MUTATES | AF_HINT },
			"d", NULL, &vv_ids[VR_DELETE] },
	[VR_RENT] = { { .name = "volume-rent",
			.help = "rent an instance with it: the offers on its machine, whose create "
				"form (c) starts with this volume linked (a volume offer: a new volume "
				"on it)",
			.hint = "rent with", .flags = AF_MUTATES | AF_HINT },
		      "i", NULL, &vv_ids[VR_RENT] },
};

/* i: the offers on the machine of the selected volume (or volume offer),
 * and the create form's volume preset for that machine. */
static void rent_with(struct app *a, struct vol_view *v)
{
	const struct volume_rec *vol = v->offers ? NULL : sel_vol(v);
	const struct volume_offer_rec *off = v->offers ? sel_offer(v) : NULL;
	if ((vol && vol->network) || (off && off->network)) {
		app_toast(a, ROLE_WARNING, 8, "a network volume serves its region: rent there (3, "
					      "geolocation=...) and link it in the form");
		return;
	}
	long m = vol ? vol->machine_id : off ? off->machine_id : 0;
	if (m <= 0) {
		app_toast(a, ROLE_WARNING, 6, "select a local volume or volume offer first");
		return;
	}
	v->preset_machine = m;
	v->preset_mode = vol ? CVOL_LINK : CVOL_NEW;
	v->preset_id = vol ? vol->id : off->id;
	char line[64];
	snprintf(line, sizeof line, "offers machine_id=%ld", m);
	app_command(a, line);
}

static bool vv_action(struct app *a, void *st, enum action act)
{
	struct vol_view *v = st;
	if (act == ACT_REFRESH) {
		fetch(a, v);
		if (v->offers) {
			v->off_loaded = false;
			fetch_offers(a, v);
		}
		a->dirty |= DIRTY_BODY;
		return true;
	}
	if (act == ACT_BACK && v->offers) {
		show_offers(a, v, false);
		return true;
	}
	if (keymap_action_builtin(act))
		return false;
	int row = keymap_action_row_of(vv_rows, VR__COUNT, act);
	switch (row) {
	case VR_CREATE:
		if (!v->offers) {
			show_offers(a, v, true);
			app_toast(a, ROLE_PENDING, 6, "pick a volume offer, then c");
		} else if (sel_offer(v)) {
			vol_edit_create(a, v->ed, sel_offer(v));
		} else {
			app_toast(a, ROLE_WARNING, 6, "no volume offer selected");
		}
		return true;
	case VR_RENT:
		rent_with(a, v);
		return true;
	case VR_CLONE:
	case VR_DELETE:
		if (v->offers || !sel_vol(v)) {
			app_toast(a, ROLE_WARNING, 6, "select one of your volumes first%s",
				  v->offers ? " (o: back to them)" : "");
			return true;
		}
		if (row == VR_DELETE) {
			vol_edit_delete(a, v->ed, sel_vol(v));
		} else {
			/* the roomiest local offer read, as a starting point */
			const struct volume_offer_rec *best = NULL;
			for (size_t i = 0; i < noff(v, 0); i++)
				if (!best || orec(v, i)->disk_space > best->disk_space)
					best = orec(v, i);
			vol_edit_clone(a, v->ed, sel_vol(v), best);
			if (!v->off_loaded)
				fetch_offers(a, v);
		}
		return true;
	default:
		return false;
	}
}

static struct list *vv_list(struct app *a, void *st)
{
	(void)a;
	struct vol_view *v = st;
	return v->offers ? &v->onav : &v->nav;
}

static const void *vv_selected_row(const struct app *a, const void *st)
{
	(void)a;
	const struct vol_view *v = st;
	return v->offers ? (const void *)sel_offer(v) : (const void *)sel_vol(v);
}

static void vv_enter(struct app *a, void *st, long arg)
{
	(void)arg;
	fetch(a, st);
}

static bool vv_modal_key(struct app *a, void *st, int key)
{
	struct vol_view *v = st;
	return vol_edit_key(a, v->ed, key, v->vols ? vrec(v, 0) : NULL, json_list_count(v->vols));
}

static bool vv_modal_draw(struct app *a, void *st)
{
	return vol_edit_draw(a, ((struct vol_view *)st)->ed);
}

static void *vv_init(struct app *a)
{
	(void)a;
	struct vol_view *v = xcalloc(1, sizeof *v);
	v->ed = vol_edit_new();
	v->wake = -1;
	list_init(&v->nav, &v_ops, v, false);
	list_init(&v->onav, &o_ops, v, false);
	return v;
}

static void vv_fini(struct app *a, void *st)
{
	struct vol_view *v = st;
	vol_edit_free(a, v->ed);
	if (v->req)
		model_drop_result(a->m, v->req);
	for (int k = 0; k < 2; k++) {
		if (v->req_off[k])
			model_drop_result(a->m, v->req_off[k]);
		json_list_free(v->off[k]);
	}
	json_list_free(v->vols);
	list_free(&v->nav);
	list_free(&v->onav);
	free(v);
}

double pane_volumes_month_of(struct app *a, const struct create_vol *cv)
{
	const struct vol_view *v = vstate(a);
	if (!v)
		return NAN;
	switch (cv->mode) {
	case CVOL_NONE:
		return NAN;
	case CVOL_NEW:
		for (size_t i = 0; i < noff(v, 0) + noff(v, 1); i++)
			if (orec(v, i)->id == cv->id)
				return api_volume_offer_month(orec(v, i), cv->size);
		return NAN;
	case CVOL_LINK:
		for (size_t i = 0; i < json_list_count(v->vols); i++)
			if (vrec(v, i)->id == cv->id)
				return api_volume_month(vrec(v, i));
		return NAN;
	}
	return NAN;
}

void pane_volumes_preset_apply(struct app *a, long machine_id, struct form *fm)
{
	struct vol_view *v = vstate(a);
	if (!v || !v->preset_machine || v->preset_machine != machine_id)
		return;
	vol_fields_set(fm, v->preset_mode, v->preset_id);
	v->preset_machine = 0; /* once */
}

const struct view_ops view_volumes = {
	.name = "volumes",
	.title = "Volumes",
	.heading = "Volumes (:volumes)",
	.number_key = '7',
	.ctx_flags = CTXF_LIST,
	.actions = vv_rows,
	.nactions = VR__COUNT,
	.init = vv_init,
	.fini = vv_fini,
	.enter = vv_enter,
	.on_snapshot = vv_snapshot,
	.next_wake = vv_next_wake,
	.on_wake = vv_wake,
	.draw = vv_draw,
	.action = vv_action,
	.selected_row = vv_selected_row,
	.list = vv_list,
	.modal_key = vv_modal_key,
	.modal_draw = vv_modal_draw,
};
