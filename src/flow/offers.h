/* offers.h: what the offers view and the create form show and pre-fill,
 * below the UI: an offer's figures for a chosen disk and bid ($/h with the
 * storage, DLPerf/$, min bid, max duration) and their text; the "similar
 * offers" search for an instance (`O`, the failure rule of SPEC.md); the
 * create-form pre-fill from an old instance; and the offer search pacing
 * (about 10 searches a minute per address).  Pure; any thread; no curses. */
#ifndef RENTOP_OFFERS_H
#define RENTOP_OFFERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api_offers.h"
#include "json/json_map.h"
#include "state/model.h"
#include "net/pace.h"

/* ---- figures --------------------------------------------------------------- */

/* Storage of disk_gb on this offer, $/h: storage_cost ($/GB/month) x disk /
 * 720 (API-NOTES: storage_total_cost).  NAN when the offer has no
 * storage_cost. */
double offers_storage_dph(const struct offer *o, double disk_gb);
/* What the instance would cost, $/h, GPU + storage for disk_gb: the GPU
 * part is bid ($/h) when bid > 0, else min_bid for a bid-priced offer, else
 * dph_base.  Without dph_base or storage_cost it is the service's own
 * dph_total (priced for the allocated_storage of the search).  NAN when
 * nothing is known. */
double offers_dph(const struct offer *o, double disk_gb, double bid);
/* DLPerf per $/h at offers_dph(); NAN when either is unknown or zero. */
double offers_dlperf_per_dph(const struct offer *o, double disk_gb, double bid);
/* Put the n offers of a search's answer in the order of the figure their
 * column shows, when the search's order field is one the client prices
 * itself: "dph_total" by offers_dph(disk_gb) (a bid offer's min_bid, not
 * the service's on-demand dph_total), "dlperf_per_dphtotal" by
 * offers_dlperf_per_dph(); desc: high first.  Stable (ties keep the
 * service's order), unknown figures last.  False, v untouched, for any
 * other field (the service's order is the only one known).  Pure. */
bool offers_sort_shown(struct offer *v, size_t n, const char *field, bool desc, double disk_gb);

/* Text (into buf, returned): "$0.412/h" or "-"; "2x RTX 4090"; "99.2%";
 * "123.4" (DLPerf/$); max duration "12.5 d", "6 h", "45 min" or "-". */
char *offers_fmt_dph(char *buf, size_t n, double dph);
char *offers_fmt_gpus(char *buf, size_t n, const struct offer *o);
char *offers_fmt_reliability(char *buf, size_t n, double r);
char *offers_fmt_dlperf_per_dph(char *buf, size_t n, double v);
char *offers_fmt_max_duration(char *buf, size_t n, double seconds);

/* ---- similar offers (`O`) ----------------------------------------------------- */

#define OFFERS_SIMILAR_MIN_RELIABILITY 0.95

struct offers_similar {
	char filters[512];  /* query language: gpu_name=RTX_4090 num_gpus=2 gpu_ram>=24.564
			     * reliability>=0.95 machine_id!=4123 */
	char order[32];     /* "dph_total+": cheapest first */
	char type[16];      /* "bid" when the old one was interruptible, else "on-demand" */
	char line[640];     /* the search line for the query prompt: filters -o order [-t bid] */
	char why[240];      /* "instance 123 (RTX 4090) exited while meant to run: offers like it" */
	double disk;        /* GB: the old instance's disk, to price with (0 = unknown) */
};
/* The search for offers like instance x (any state; the failure states
 * say so in why): same gpu_name and num_gpus, gpu_ram >= its own,
 * reliability >= max(0.95, its machine's), not its machine, cheapest first.
 * False when x lacks a GPU name or count (nothing to match). */
bool offers_similar(const struct instance *x, struct offers_similar *out);

/* What a failed instance's status_msg says went wrong: its image
 * (OFAIL_IMAGE: the registry refused it: pull access denied, unauthorized,
 * manifest unknown, repository does not exist, no basic auth credentials...;
 * the same image fails on any machine, so the image or its template is
 * fixed rather than moved) or the machine (OFAIL_MACHINE: any other
 * failure); OFAIL_NONE when x is not in a failure state.  Pure. */
enum offers_failure { OFAIL_NONE, OFAIL_IMAGE, OFAIL_MACHINE };
enum offers_failure offers_read_failure(const struct instance *x);
/* O on an image failure asks three answers: fix the image (0), its
 * template when it has one, else the same image anyway (1), or recycle it
 * on its machine (2).  What the answer at focus means.  Pure. */
enum offers_fix_answer { OFIX_FIX_IMAGE, OFIX_SAME_IMAGE, OFIX_TEMPLATE, OFIX_RECYCLE };
enum offers_fix_answer offers_fix_answer(int focus, bool has_template);

/* An empty search for offers like an instance: which filter of s to relax
 * first, as a sentence ("relax reliability>=0.982 (the old machine's), then
 * gpu_ram>=16.384 ..."), naming each filter the search had, loosest last.
 * Pure. */
char *offers_similar_relax(const struct offers_similar *s, char *out, size_t n);

/* ---- a create whose answer was lost ---------------------------------------------- */

/* Which of the instances v (re-read after a create whose answer was lost)
 * the create r made: one whose id is above max_before (the highest id the
 * list held when it was sent: the service numbers contracts in order),
 * whose label is r's (the label is what the create body carries back:
 * SPEC.md's create) and whose image is r's when r named one.  Returns how
 * many fit; *id gets the one when exactly one does (else 0).  Pure. */
size_t offers_lost_create_match(const struct create_req *r, long max_before,
				const struct instance *v, size_t n, long *id);

/* ---- create-form pre-fill -------------------------------------------------------- */

struct offers_prefill {
	char *image;            /* image_uuid */
	char *template_hash_id; /* the template it came from ("" = none): its registry login carries over */
	double disk;            /* GB (disk_space), 0 = unknown */
	char *label;
	char *env;              /* extra_env as a flag string (service-set VAST_* and
				 * CONTAINER_API_KEY dropped); SECRET values */
	char *onstart;          /* the script (decoded when rentop had encoded it) */
	char *args_str;
	enum create_launch launch;
	bool launch_known;      /* image_runtype was understood */
	long machine_id;        /* the instance's machine, 0 = unknown */
	char *geolocation;      /* its region, sanitised ("" = unknown) */
	struct offers_prefill_vol {
		long id;        /* 0: the instance links no volume */
		bool network;   /* a network volume (reachable in its region), else local */
		char name[VOLUME_NAME_MAX * 4 + 1];  /* sanitised, "" when none */
		char mount[VOLUME_MOUNT_MAX + 1];
	} vol;                  /* the first volume of its volume_info */
	size_t nvols;           /* how many volumes it links */
};
/* From an instance object as the service sends it (GET
 * /api/v0/instances/{id}/ or a list row): everything owned by *p. */
void offers_prefill_from_json(const json_t *inst, struct offers_prefill *p);
void offers_prefill_free(struct offers_prefill *p);
/* Can the replacement on offer o link p's volume: a local volume only on
 * its machine, a network volume only in its region (the offer's
 * geolocation the old instance's)?  True with "" in buf when p links none;
 * false with the plain sentence in buf ("Local volume 5 (data_main at
 * /data) stays on machine 12: the new instance (machine 34) starts without
 * it."); true with what is carried in buf otherwise.  Pure. */
bool offers_prefill_vol_carried(const struct offers_prefill *p, const struct offer *o, char *buf,
				size_t n);
/* Point the form's fields at p's (p must outlive f); disk, label and
 * launch included; price, login and start-stopped left as they are. */
void offers_prefill_form(const struct offers_prefill *p, struct create_form *f);

/* ---- the billing confirmation of a create ------------------------------------- */

/* Does the launch mode log in with ssh (every mode but entrypoint/args)? */
bool offers_launch_uses_ssh(enum create_launch m);
/* The confirmation shown before a create is sent (into buf, returned):
 * the offer, its $/h for the request's disk and bid (GPU + storage), what
 * starts billing, the interruption risk of a bid (a warning when it is
 * under the offer's min_bid: outbid at once), a start-stopped note, and
 * when no_ssh_key the warning that ssh will not work with the way to add a
 * key (the account view, 5).  Never a secret (no env, no login). */
char *offers_confirm_text(const struct offer *o, const struct create_req *r, bool no_ssh_key,
			  char *buf, size_t n);

/* ---- templates ------------------------------------------------------------------- */

/* Append the records of b to *a (own first, then recommended) without a
 * second copy of a hash_id already there; b's records are moved (b is
 * freed; *na updated).  For the list of both searches. */
void offers_templates_merge(struct template_rec **a, size_t *na, struct template_rec *b,
			    size_t nb);
/* Does the template match the picker's text (case-insensitive substring of
 * name, image, image:tag or hash_id; "" matches all)? */
bool offers_template_matches(const struct template_rec *t, const char *text);
/* The form the create dialog shows when a template is picked: its hash,
 * image:tag (shown, sent only if the operator changes it: the caller
 * decides), disk (recommended_disk_space, else 8), launch mode from its
 * runtype and flags (launch_from_template: no runtype sent), env, onstart,
 * args.  Points into t. */
void offers_template_form(const struct template_rec *t, struct create_form *f);
/* The offers search for renting with template t (the console's
 * template-then-offers flow): its extra_filters as a query line (t->search)
 * and "--storage GB" for its recommended disk; into buf, returned. */
char *offers_template_search(const struct template_rec *t, char *buf, size_t n);
/* A template record as the template form edits it (points into t; the
 * password is never known: login_pass NULL). */
void offers_template_req(const struct template_rec *t, struct template_req *r);
/* The template search's answer as the view and --dump templates map it. */
struct offers_tpl_answer {
	struct template_rec *v;
	size_t n;
};
/* The mapper of a template search (jobs_map_fn; any thread): {"templates":
 * [...]} into a malloc'd offers_tpl_answer; NULL with e set (a protocol
 * error) when the answer has another shape. */
void *offers_templates_map(const json_t *root, struct api_error *e);
void offers_templates_answer_free(void *answer);
/* A deep copy of t as a one-record array (json_map_templates_free(d, 1) frees it). */
struct template_rec *offers_template_dup(const struct template_rec *t);

/* ---- the search's answer ------------------------------------------------------- */

/* An offer search's answer (len bytes of JSON text) onto *v and *n
 * (appended, realloc'd), mapped straight from the bytes (json_stream_offers:
 * no jansson tree), by json_map_offers' rules.  False with *e set
 * (AE_PROTOCOL, status 200) when the text is not JSON ("malformed JSON from
 * the service (...)", jansson's words as api_parse says them) or not an
 * offer list ("unexpected offer list shape"); nothing appended then.  The
 * one mapping of the view's search and of --dump offers. */
struct http_xfer;
bool offers_answer(const char *text, size_t len, struct offer **v, size_t *n,
		   struct api_error *e);
/* The same from a finished transfer: a failed one (http_xfer_failed: a
 * status, a transport error) is *e as api_parse makes it; e->http_status is
 * the transfer's.  *e is zeroed first (AE_NONE on success). */
bool offers_answer_xfer(const struct http_xfer *x, struct offer **v, size_t *n,
			struct api_error *e);

/* ---- search pacing -------------------------------------------------------------- */

#define OFFERS_PACE_BURST 5.0 /* searches sent back to back before pacing */

/* A pacer for offer searches at the published rate (api_ep_rate(EP_OFFERS),
 * 10 a minute), full at now (s, monotonic). */
void offers_pace_init(struct pace *p, double now);
/* May a search go at now?  True: yes (nothing taken: pace_take() when it is
 * sent).  False: buf says "next search in 4 s". */
bool offers_pace_ready(const struct pace *p, double now, char *buf, size_t n);
/* A search was refused with 429 at now (jitter in [0,1)): the seconds to
 * wait, and buf says "offer search refused by the service (429): next
 * search in 6 s". */
double offers_pace_refused(struct pace *p, double now, double jitter, char *buf, size_t n);

#endif
