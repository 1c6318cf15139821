/* create_form.c: the create-instance form over the offers view.  The form
 * widget (form.h) holds the fields; api_offers.c owns the rules (what is
 * valid, the runtype strings, the env format, onstart over 4,048
 * characters compressed), so this file only maps fields to a create_form
 * and back, and runs the modal steps: form -> (template picker, tpl_picker.c) ->
 * billing confirmation (on Cancel) -> the JOB_CREATE job -> its result.
 * The job goes through the jobs queue as an action: at most once (retry.h);
 * its outcome comes back to the form by its request id (modal_call.h:
 * created, refused with the service's words, or lost: said by the
 * poller's event, never resent). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/offers/create_form.h"
#include "views/offers/create_recall.h"

#include "app.h"
#include "widgets/dialog.h"
#include "draw.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "views/templates/pane_templates.h"
#include "views/templates/tpl_picker.h"
#include "views/volumes/pane_volumes.h"
#include "views/volumes/vol_fields.h"
#include "theme.h"
#include "base/util.h"
#include "view.h"
#include "widgets/modal_call.h"

/* ---- pure: fields ------------------------------------------------------------------ */

void create_form_build(struct form *fm, const struct offer *o, const struct offers_prefill *p)
{
	char title[64];
	snprintf(title, sizeof title, " Rent offer %ld%s ", o->id, o->is_bid ? " (interruptible)" : "");
	form_init(fm, title);
	form_add_text(fm, "image", "Image", p ? p->image : "", CREATE_IMAGE_MAX, false);
	form_add_text(fm, "template", "Template (Enter picks)", p ? p->template_hash_id : "",
		      CREATE_HASH_MAX, false);
	char disk[32];
	create_fields_num_text(disk, sizeof disk, p && p->disk > 0 ? p->disk : CREATE_DISK_DEFAULT, 1);
	form_add_number(fm, "disk", "Disk (GB)", disk, 1, 1e6, false, true);
	form_add_text(fm, "label", "Label", p ? p->label : "", CREATE_LABEL_MAX, false);
	create_fields_add_launch(fm, p ? p->launch : LAUNCH_SSH);
	create_fields_add_env(fm, p ? p->env : NULL);
	create_fields_add_onstart(fm, p ? p->onstart : "", true);
	form_add_text(fm, "args", "Args (entrypoint/args)",
		      p && p->launch == LAUNCH_ARGS ? p->args_str : "", CREATE_ARGS_MAX, false);
	vol_fields_add(fm);
	form_add_toggle(fm, "stopped", "Start stopped", false);
	if (o->is_bid) {
		char bid[32] = "";
		if (isfinite(o->min_bid) && o->min_bid > 0) /* up to the 3 decimals shown: never under */
			create_fields_num_text(bid, sizeof bid,
				 o->min_bid < CREATE_BID_MIN ? CREATE_BID_MIN
							     : ceil(o->min_bid * 1000 - 1e-9) / 1000, 3);
		form_add_number(fm, "price", "Bid ($/h, 0.001-128)", bid, CREATE_BID_MIN,
				CREATE_BID_MAX, false, true);
	}
	form_add_secret(fm, "login", "Registry login (-u U -p T REG)", CREATE_LOGIN_MAX, false);
	form_add_toggle(fm, "remember", "Remember secrets (disk)", false);
}

void create_form_apply_template(struct form *fm, const struct template_rec *t,
				struct create_tpl *ct)
{
	struct create_form f;
	memset(&f, 0, sizeof f);
	offers_template_form(t, &f);
	create_form_tpl_clear(ct);
	util_strlcpy(ct->hash_id, t->hash_id ? t->hash_id : "", sizeof ct->hash_id);
	if (t->image && *t->image)
		snprintf(ct->image, sizeof ct->image, "%s%s%s", t->image, t->tag && *t->tag ? ":" : "",
			 t->tag && *t->tag ? t->tag : "");
	ct->launch = f.launch;
	ct->env = xstrdup(t->env ? t->env : "");
	ct->onstart = xstrdup(t->onstart ? t->onstart : "");
	ct->args_str = xstrdup(t->args_str ? t->args_str : "");
	int i;
	if ((i = form_find(fm, "template")) >= 0)
		textbuf_set(&fm->f[i].tb, ct->hash_id);
	if ((i = form_find(fm, "image")) >= 0)
		textbuf_set(&fm->f[i].tb, ct->image);
	if ((i = form_find(fm, "disk")) >= 0) {
		char d[32];
		create_fields_num_text(d, sizeof d, f.disk, 1);
		textbuf_set(&fm->f[i].tb, d);
	}
	if ((i = form_find(fm, "launch")) >= 0)
		fm->f[i].choice = (int)ct->launch;
	if ((i = form_find(fm, "env")) >= 0)
		textbuf_set(&fm->f[i].tb, ct->env);
	if ((i = form_find(fm, "onstart")) >= 0)
		form_set_text(fm, i, ct->onstart);
	if ((i = form_find(fm, "args")) >= 0)
		textbuf_set(&fm->f[i].tb, ct->launch == LAUNCH_ARGS ? ct->args_str : "");
	for (int k = 0; k < fm->n; k++)
		form_check_field(&fm->f[k]);
}

/* The form's field for a create_field. */
static const char *field_name(enum create_field f)
{
	switch (f) {
	case CF_IMAGE: return "image";
	case CF_TEMPLATE: return "template";
	case CF_DISK: return "disk";
	case CF_LABEL: return "label";
	case CF_LAUNCH: return "launch";
	case CF_ENV: return "env";
	case CF_ONSTART: return "onstart";
	case CF_ARGS: return "args";
	case CF_PRICE: return "price";
	case CF_LOGIN: return "login";
	case CF_VOLUME: return VOL_FIELDS_ERR_FIELD;
	case CF__COUNT: break;
	}
	return "image";
}

/* s, or NULL when it is what the template supplies (then not sent). */
static const char *unless_same(const char *s, const char *tpl, bool have_tpl)
{
	if (have_tpl && tpl && strcmp(s, tpl) == 0)
		return NULL;
	return s;
}

bool create_form_read(struct form *fm, const struct offer *o, const struct create_tpl *ct,
		      struct create_req *r)
{
	if (!form_validate_focus(fm))
		return false;
	const char *hash = form_value(fm, "template");
	bool tpl = ct && ct->hash_id[0] && strcmp(hash, ct->hash_id) == 0;
	struct create_form f;
	memset(&f, 0, sizeof f);
	f.image = unless_same(form_value(fm, "image"), ct ? ct->image : NULL, tpl);
	f.template_hash_id = hash;
	double d = 0;
	f.disk = form_number(fm, "disk", &d) ? d : 0;
	f.label = form_value(fm, "label");
	int l = form_choice(fm, "launch");
	f.launch = l >= 0 && l < LAUNCH__COUNT ? (enum create_launch)l : LAUNCH_SSH;
	f.launch_from_template = tpl && f.launch == ct->launch;
	f.env = unless_same(form_value(fm, "env"), ct ? ct->env : NULL, tpl);
	const char *os = form_value(fm, "onstart");
	f.onstart = unless_same(os, ct ? ct->onstart : NULL, tpl);
	const char *args = form_value(fm, "args");
	f.args_str = f.launch_from_template ? unless_same(args, ct->args_str, true) : args;
	f.start_stopped = form_toggle(fm, "stopped");
	double p = 0;
	f.price = o->is_bid && form_number(fm, "price", &p) ? p : 0;
	f.image_login = form_value(fm, "login");
	vol_fields_read(fm, &f.vol);
	struct create_limits lim = { o->is_bid, o->min_bid, o->disk_space };
	struct create_errors errs;
	if (api_create_form_to_req(&f, &lim, o->id, r, &errs))
		return true;
	bool first = true;
	for (int k = 0; k < CF__COUNT; k++) {
		if (!errs.msg[k][0])
			continue;
		int i = form_find(fm, field_name((enum create_field)k));
		if (i < 0) /* no such field here (a price on an on-demand offer): say it */
			i = form_find(fm, "image");
		if (i < 0)
			continue;
		int focus = fm->focus;
		form_mark(fm, i, errs.msg[k]);
		if (!first)
			fm->focus = focus; /* the focus stays on the first */
		first = false;
	}
	return false;
}

uint64_t create_form_print(const struct form *fm)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a over every value */
	for (int i = 0; i < fm->n; i++) {
		const char *v = form_value(fm, fm->f[i].name);
		for (const char *p = v;; p++) {
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
			if (!*p)
				break;
		}
	}
	return h;
}

void create_form_bid_note(struct form *fm, const struct offer *o)
{
	int i = form_find(fm, "price");
	if (i < 0 || !o->is_bid)
		return;
	char note[256];
	dialog_bid_preview(fm->f[i].tb.s, isfinite(o->min_bid) ? o->min_bid : NAN, note, sizeof note);
	form_set_note(fm, note, strstr(note, "under min_bid") != NULL);
}

/* ---- the modal steps ---------------------------------------------------------------- */

/* CU_DRAFT: use the last draft?  CU_SECRETS: its secrets too?  CU_DISCARD:
 * discard a filled form? */
enum cu_mode { CU_CLOSED, CU_FORM, CU_PICK, CU_CONFIRM, CU_DRAFT, CU_SECRETS, CU_DISCARD };

struct create_ui {
	enum cu_mode mode;
	struct form fm;
	struct dialog dlg;
	struct offer o;            /* a copy: gpu_name owned, the other strings NULL */
	long replace_id;           /* the failed instance it replaces, 0: none */
	struct create_tpl tpl;     /* what the picked template supplies */
	struct tpl_picker pick;    /* the template picker (tpl_picker.c) */
	struct create_req *req;    /* the create as confirmed (heap: it is large) */
	struct modal_call mc;      /* the create job awaited (its result by id) */
	uint64_t opened;           /* create_form_print as it opened: Esc asks when it differs */
	char price[40];            /* the bid as last judged against min_bid */
	struct create_draft draft; /* the last form discarded (memory only), for the next c */
	char vol_note[400];        /* a replacement: whether the old one's volume is carried ("": none) */
	long vol_carried;          /* that volume's id when it is linked to the new one, else 0 */
	char launch[400];          /* `:launch` (launch.c): what it found, said first in the
				    * confirmation, whose Cancel closes all ("": a form's) */
	struct recall_store rs;    /* the remembered forms (create_recall.h), read at the first c */
	bool rs_loaded;
	char rs_path[1024];        /* "": not kept on disk (no state directory, or it failed) */
	char recall[RECALL_KEY_MAX]; /* the remembered form C-g recalls ("": none) */
	struct create_draft sent;  /* the form as sent: remembered once the create is not refused */
	bool sent_secrets;         /* its "Remember secrets" toggle */
};

struct create_ui *create_form_ui_new(void)
{
	struct create_ui *c = xcalloc(1, sizeof *c);
	c->req = xcalloc(1, sizeof *c->req);
	return c;
}

static void wipe_req(struct create_ui *c)
{
	explicit_bzero(c->req, sizeof *c->req); /* env values and the registry token */
}

static void close_ui(struct create_ui *c)
{
	form_free(&c->fm);
	dialog_close(&c->dlg);
	create_form_tpl_clear(&c->tpl);
	tpl_picker_close(&c->pick);
	wipe_req(c);
	free(c->o.gpu_name);
	memset(&c->o, 0, sizeof c->o);
	c->mode = CU_CLOSED;
	c->mc.id = 0; /* a result still due is dropped by whoever closes a waiting form */
	c->replace_id = 0;
	c->vol_note[0] = '\0';
	c->vol_carried = 0;
	c->launch[0] = '\0';
	c->recall[0] = '\0';
	create_form_draft_clear(&c->sent); /* remembered before the form closes, or dropped */
}

void create_form_ui_free(struct app *a, struct create_ui *c)
{
	if (!c)
		return;
	close_ui(c);
	create_form_draft_clear(&c->draft);
	create_form_draft_clear(&c->sent);
	recall_free(&c->rs);
	tpl_picker_free(a, &c->pick);
	free(c->req);
	free(c);
}

bool create_form_ui_is_open(const struct create_ui *c) { return c && c->mode != CU_CLOSED; }

/* The bid's note, judged again when the bid changed. */
static void bid_judged(struct create_ui *c)
{
	int i = form_find(&c->fm, "price");
	if (i < 0 || !strcmp(c->price, c->fm.f[i].tb.s))
		return;
	util_strlcpy(c->price, c->fm.f[i].tb.s, sizeof c->price);
	create_form_bid_note(&c->fm, &c->o);
}

/* The same after an answer cleared the note. */
static void rejudge_bid(struct create_ui *c)
{
	c->price[0] = '\0';
	bid_judged(c);
}

static void recall_offer(struct app *a, struct create_ui *c, bool any);

/* Open for offer o, prefilled from p or from template t (either may be NULL). */
static void open_form(struct app *a, struct create_ui *c, const struct offer *o,
		      const struct offers_prefill *p, long replace_id, const struct template_rec *t)
{
	if (a->read_only) { /* the action is hidden and refused; this is the last guard */
		app_toast(a, ROLE_ERROR, 8, "read-only mode: create is disabled");
		return;
	}
	close_ui(c);
	c->price[0] = '\0';
	c->o = *o;
	c->o.gpu_name = xstrdup(o->gpu_name);
	c->o.geolocation = c->o.verification = c->o.driver_version = c->o.cpu_name = NULL;
	c->replace_id = replace_id;
	create_form_build(&c->fm, &c->o, p);
	pane_volumes_preset_apply(a, o->machine_id, &c->fm);
	/* a replacement carries the failed one's volume where the offer reaches it */
	if (replace_id && p && p->vol.id) {
		if (offers_prefill_vol_carried(p, o, c->vol_note, sizeof c->vol_note)) {
			vol_fields_set(&c->fm, CVOL_LINK, p->vol.id);
			if (p->vol.mount[0])
				form_set(&c->fm, "vol_mount", p->vol.mount);
			c->vol_carried = p->vol.id;
		}
		form_set_note(&c->fm, c->vol_note, c->vol_carried == 0);
	}
	c->mode = CU_FORM;
	if (t)
		create_form_apply_template(&c->fm, t, &c->tpl);
	if (c->draft.have && !p && !t) { /* the last draft first: use it? */
		char text[300];
		snprintf(text, sizeof text,
			 "A form for offer %ld was discarded in this session. Start from it "
			 "(its fields, on this offer) or from an empty form?",
			 c->draft.offer_id);
		dialog_choice(&c->dlg, 0, 0, "Last draft", text, "Draft", "Empty form");
		c->mode = CU_DRAFT;
	}
	bid_judged(c);
	recall_offer(a, c, p == NULL && t == NULL); /* after the bid's note */
	c->opened = create_form_print(&c->fm);
	a->dirty |= DIRTY_ALL;
}

static void confirm(struct app *a, struct create_ui *c);

void create_form_ui_launch(struct app *a, struct create_ui *c, const struct offer *o,
			   const struct create_req *r, const char *lead)
{
	struct offers_prefill p;
	memset(&p, 0, sizeof p); /* the form behind: what a refusal gives back to edit */
	p.image = (char *)r->image;
	p.template_hash_id = (char *)r->template_hash_id;
	p.disk = r->disk;
	p.label = (char *)r->label;
	p.onstart = p.args_str = (char *)"";
	p.launch = LAUNCH_SSH;
	create_form_ui_open(a, c, o, &p, 0);
	if (c->mode != CU_FORM)
		return; /* refused (read-only) */
	if (r->template_hash_id[0]) { /* its launch mode is the template's, as in the request */
		util_strlcpy(c->tpl.hash_id, r->template_hash_id, sizeof c->tpl.hash_id);
		c->tpl.launch = LAUNCH_SSH;
	}
	*c->req = *r;
	util_strlcpy(c->launch, lead && *lead ? lead : " ", sizeof c->launch);
	confirm(a, c);
}

/* ---- the remembered forms (create_recall.h) ------------------------------------------ */

/* Read the store at the first use (a file that is not one: said, set aside). */
static void recall_loaded(struct app *a, struct create_ui *c)
{
	if (c->rs_loaded)
		return;
	c->rs_loaded = true;
	recall_init(&c->rs);
	char err[1300];
	if (!recall_path(c->rs_path, sizeof c->rs_path))
		c->rs_path[0] = '\0';
	else if (!recall_load(&c->rs, c->rs_path, err, sizeof err))
		app_toast(a, ROLE_WARNING, 12, "%s", err);
}

/* Say under the fields that a remembered form for the form's template or
 * image (any: the newest of all) can be recalled with C-g. */
static void recall_offer(struct app *a, struct create_ui *c, bool any)
{
	recall_loaded(a, c);
	char key[RECALL_KEY_MAX];
	const struct recall_entry *e = NULL;
	if (recall_key_of_form(&c->fm, key, sizeof key))
		e = recall_find(&c->rs, key);
	else if (any)
		e = recall_last(&c->rs);
	c->recall[0] = '\0';
	if (!e)
		return;
	util_strlcpy(c->recall, e->key, sizeof c->recall);
	char words[RECALL_KEY_MAX + 16], note[sizeof c->fm.note + sizeof words + 128]; /* cut to the note's size */
	/* after a note already there (a replacement's volume, a bid's min_bid) */
	snprintf(note, sizeof note, "%s%sLast form sent for %s (offer %ld): C-g recalls it%s.",
		 c->fm.note, c->fm.note[0] ? " " : "", recall_key_words(e->key, words, sizeof words),
		 e->d.offer_id, e->d.secrets ? ", secrets included" : " (its secrets were not kept)");
	form_set_note(&c->fm, note, c->fm.note_warn);
}

/* C-g: fill the form from the remembered form offered. */
static void recall_apply(struct app *a, struct create_ui *c)
{
	const struct recall_entry *e = recall_find(&c->rs, c->recall);
	if (!e)
		return;
	create_form_draft_apply(&e->d, &c->fm, &c->tpl, e->d.secrets);
	char words[RECALL_KEY_MAX + 16], note[300];
	snprintf(note, sizeof note, "Recalled the last form sent for %s%s.",
		 recall_key_words(e->key, words, sizeof words),
		 e->d.secrets ? "" : ": type its secrets again (env, registry login)");
	c->recall[0] = '\0';
	form_set_note(&c->fm, note, false);
	rejudge_bid(c);
	a->dirty |= DIRTY_ALL;
}

/* The create was sent and not refused: remember its form (its secrets
 * only when the form asked). */
static void recall_sent(struct app *a, struct create_ui *c)
{
	if (!c->sent.have)
		return;
	recall_loaded(a, c);
	recall_put(&c->rs, &c->sent, c->sent_secrets);
	char err[1300];
	if (c->rs_path[0] && !recall_save(&c->rs, c->rs_path, err, sizeof err)) {
		app_toast(a, ROLE_WARNING, 8, "%s (form not remembered on disk)", err);
		c->rs_path[0] = '\0';
	}
}

void create_form_ui_open(struct app *a, struct create_ui *c, const struct offer *o,
			 const struct offers_prefill *p, long replace_id)
{
	open_form(a, c, o, p, replace_id, NULL);
}

void create_form_ui_open_template(struct app *a, struct create_ui *c, const struct offer *o,
				  const struct template_rec *t)
{
	open_form(a, c, o, NULL, 0, t);
}

/* ---- the picker (tpl_picker.c) ------------------------------------------------------ */

static void pick_key(struct app *a, struct create_ui *c, int key)
{
	const struct template_rec *t = NULL;
	switch (tpl_picker_key(a, &c->pick, key, &t)) {
	case TPK_PICKED:
		create_form_apply_template(&c->fm, t, &c->tpl);
		c->mode = CU_FORM;
		if (c->recall[0]) { /* the note offered another's: the bid's alone again */
			form_set_note(&c->fm, NULL, false);
			rejudge_bid(c);
		}
		recall_offer(a, c, false);
		break;
	case TPK_BACK:
		c->mode = CU_FORM;
		break;
	case TPK_CONTINUE:
		break;
	}
}

/* ---- submit -------------------------------------------------------------------------- */

/* Is the account known to have no SSH key? */
static bool no_ssh_key(const struct app *a)
{
	const struct user *u = a->snap ? a->snap->user : NULL;
	return u && (!u->ssh_key || !*u->ssh_key);
}

/* The form is valid: ask for the billing confirmation. */
static void confirm(struct app *a, struct create_ui *c)
{
	char text[1024];
	int l = form_choice(&c->fm, "launch");
	bool ssh = l >= 0 && l < LAUNCH__COUNT && offers_launch_uses_ssh((enum create_launch)l);
	c->req->vol.month = pane_volumes_month_of(a, &c->req->vol);
	/* a replacement: first whether the old one's volume comes along (as the
	 * form now says: carried, or left behind) */
	bool carried = c->vol_carried && c->req->vol.mode == CVOL_LINK && c->req->vol.id == c->vol_carried;
	size_t len = 0;
	text[0] = '\0';
	if (c->vol_note[0] && (carried || c->req->vol.mode == CVOL_NONE))
		len = (size_t)snprintf(text, sizeof text, "%s ", c->vol_note);
	else if (c->launch[0])
		len = (size_t)snprintf(text, sizeof text, "%s ", c->launch);
	if (len >= sizeof text)
		len = sizeof text - 1;
	offers_confirm_text(&c->o, c->req, ssh && no_ssh_key(a), text + len, sizeof text - len);
	len = strlen(text); /* the keys, as dialog_key takes them */
	snprintf(text + len, sizeof text - len, " Tab, Enter: rent. Enter on Cancel, Esc or q: %s.",
		 c->launch[0] ? "nothing is rented" : "back to the form");
	dialog_confirm(&c->dlg, 0, 0, "Confirm billing", text, "Rent");
	c->mode = CU_CONFIRM;
	(void)a;
}

static void send_create(struct app *a, struct create_ui *c)
{
	struct job_req *req = xcalloc(1, sizeof *req);
	req->kind = JOB_CREATE;
	req->create = *c->req;
	req->reply = true; /* its end comes back by its id (create_form_ui_snapshot) */
	int id = app_submit(a, req);
	explicit_bzero(req, sizeof *req);
	free(req);
	c->mode = CU_FORM;
	c->launch[0] = '\0'; /* from now on a form's: a refusal gives it back to edit */
	if (!id) { /* refused before sending (its toast says why): the form stays */
		form_set_answer(&c->fm, NULL, a->msg);
		rejudge_bid(c);
		return;
	}
	modal_call_wait(&c->mc, id, &c->fm, NULL);
	create_form_draft_save(&c->sent, &c->fm, &c->tpl, c->o.id);
	c->sent_secrets = form_toggle(&c->fm, "remember");
	app_toast(a, ROLE_PENDING, 0, "create: sent for offer %ld", c->o.id);
}

/* The draft's questions: use it, its secrets too, discard a filled form. */
static void draft_key(struct app *a, struct create_ui *c, int key)
{
	enum dlg_result r = dialog_key(&c->dlg, key);
	if (r == DLG_CONTINUE)
		return;
	bool yes = r == DLG_SUBMIT && (c->mode == CU_DISCARD ? c->dlg.focus == 1 : c->dlg.focus == 0);
	if (c->mode == CU_SECRETS) /* "Leave out" first, "Fill in" second */
		yes = r == DLG_SUBMIT && c->dlg.focus == 1;
	dialog_close(&c->dlg);
	a->dirty |= DIRTY_ALL;
	switch (c->mode) {
	case CU_DRAFT:
		c->mode = CU_FORM;
		if (r == DLG_CANCEL) {
			close_ui(c);
			return;
		}
		if (!yes)
			break;
		create_form_draft_apply(&c->draft, &c->fm, &c->tpl, false);
		if (c->draft.secrets) {
			dialog_choice(&c->dlg, 0, 0, "The draft's secrets",
				      "The draft's env, ports and registry login may hold secrets "
				      "(kept in memory for this session only). Fill them in too?",
				      "Leave out", "Fill in");
			c->mode = CU_SECRETS;
		}
		break;
	case CU_SECRETS:
		c->mode = CU_FORM;
		if (yes)
			create_form_draft_apply(&c->draft, &c->fm, &c->tpl, true);
		break;
	case CU_DISCARD:
		c->mode = CU_FORM;
		if (!yes)
			return; /* back to the form, as it was */
		create_form_draft_save(&c->draft, &c->fm, &c->tpl, c->o.id);
		close_ui(c);
		app_toast(a, ROLE_DIM, 8, "form discarded: kept as a draft for this session "
				       "(the next c offers it)");
		return;
	case CU_CLOSED: case CU_FORM: case CU_PICK: case CU_CONFIRM:
		return;
	}
	rejudge_bid(c);
	c->opened = create_form_print(&c->fm);
}

bool create_form_ui_key(struct app *a, struct create_ui *c, int key)
{
	switch (c->mode) {
	case CU_CLOSED:
		return false;
	case CU_PICK:
		pick_key(a, c, key);
		return true;
	case CU_DRAFT: case CU_SECRETS: case CU_DISCARD:
		draft_key(a, c, key);
		return true;
	case CU_CONFIRM: {
		enum dlg_result r = dialog_key(&c->dlg, key);
		switch (r) {
		case DLG_CANCEL:
			dialog_close(&c->dlg);
			wipe_req(c);
			c->mode = CU_FORM;
			app_toast(a, ROLE_DIM, 8, "not rented: nothing was sent");
			if (c->launch[0]) /* `:launch`: no form was typed to go back to */
				close_ui(c);
			a->dirty |= DIRTY_ALL;
			break;
		case DLG_SUBMIT:
			dialog_close(&c->dlg);
			send_create(a, c);
			break;
		case DLG_CONTINUE:
			break;
		}
		return true;
	}
	case CU_FORM:
		break;
	}
	if (c->fm.waiting) {
		if (key == 27) { /* the create goes on; its outcome is still reported */
			app_toast(a, ROLE_PENDING, 0,
				  "the create of offer %ld is under way: its outcome shows in the "
				  "events (2)", c->o.id);
			modal_call_drop(&c->mc, a->m);
			close_ui(c);
		}
		return true;
	}
	if (key == KM_CTRL('g') && c->recall[0]) {
		recall_apply(a, c);
		return true;
	}
	int tf = form_find(&c->fm, "template");
	if (c->fm.focus == tf && tpl_picker_opens(key)) {
		tpl_picker_open(a, &c->pick);
		c->mode = CU_PICK;
		return true;
	}
	enum form_result r = form_key(&c->fm, key);
	switch (r) {
	case FORM_CANCEL:
		if (create_form_print(&c->fm) != c->opened) { /* filled: ask first */
			char text[300];
			snprintf(text, sizeof text,
				 "Discard the form for offer %ld? What you typed is kept as a draft "
				 "for this session only (in memory, never on disk): the next c on an "
				 "offer offers it.", c->o.id);
			dialog_confirm(&c->dlg, 0, 0, "Discard the form", text, "Discard");
			c->mode = CU_DISCARD;
			break;
		}
		close_ui(c);
		a->dirty |= DIRTY_ALL;
		break;
	case FORM_SUBMIT:
		if (create_form_read(&c->fm, &c->o, &c->tpl, c->req))
			confirm(a, c);
		break;
	case FORM_EDIT: {
		char err[200];
		if (!form_edit_external(&c->fm, c->fm.focus, err, sizeof err)) {
			form_set_answer(&c->fm, NULL, err);
			rejudge_bid(c);
		}
		clearok(curscr, TRUE);
		a->dirty |= DIRTY_ALL;
		break;
	}
	case FORM_CONTINUE:
		break;
	}
	bid_judged(c);
	return true;
}

bool create_form_ui_draw(struct app *a, struct create_ui *c)
{
	switch (c->mode) {
	case CU_CLOSED:
		return false;
	case CU_FORM:
		form_draw(&c->fm, &a->lay);
		return !c->fm.waiting;
	case CU_PICK:
		form_draw(&c->fm, &a->lay);
		tpl_picker_draw(a, &c->pick);
		return true;
	case CU_CONFIRM: case CU_DRAFT: case CU_SECRETS: case CU_DISCARD:
		form_draw(&c->fm, &a->lay);
		dialog_draw(&c->dlg, &a->lay);
		return false;
	}
	return false;
}

/* The create's result r: created (the instance's id, 1 when the answer
 * named none), refused (the form again, with the service's words; 0) or
 * lost (the form closes: nothing is resent by a second C-s; 0). */
static long take_create(struct app *a, struct create_ui *c, const struct call_result *r)
{
	a->dirty |= DIRTY_ALL;
	if (r->outcome == CALL_UNKNOWN) { /* never sent again: the poller's event says so */
		recall_sent(a, c); /* it was sent */
		close_ui(c);
		return 0;
	}
	if (r->outcome != CALL_OK) { /* refused, or its 2FA prompt cancelled */
		create_form_draft_clear(&c->sent); /* a refused form is not remembered */
		modal_call_refused(&c->fm, NULL, r->err.msg);
		rejudge_bid(c);
		return 0;
	}
	long id = r->value ? *(const long *)r->value : 0;
	recall_sent(a, c);
	close_ui(c);
	create_form_draft_clear(&c->draft); /* rented: the draft has served */
	if (id > 0)
		view_open(a, "instances", id);
	/* a replacement: the offers view offers the old one's destroy once
	 * this one runs (pane_offers.c) */
	return id > 0 ? id : 1;
}

long create_form_ui_snapshot(struct app *a, struct create_ui *c)
{
	if (tpl_picker_snapshot(a, &c->pick))
		a->dirty |= DIRTY_ALL;
	struct call_result r;
	if (!modal_call_take(&c->mc, a->m, &r))
		return 0;
	long id = take_create(a, c, &r);
	model_call_result_free(&r);
	return id;
}
