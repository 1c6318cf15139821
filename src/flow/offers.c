/* offers.c: owns the rules behind the offers view that are not drawing:
 * an offer's price for the disk and bid the operator chose (the service's
 * billing: GPU + storage_cost x disk / 720), the figures' text, the search
 * for offers like an instance (the failure rule: destroy it and rent
 * another offer), the create-form pre-fill from the old instance, and the
 * pacing of searches at the service's published limit. */
#include "flow/offers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "net/apierr.h"
#include "net/http.h"
#include "json/json_stream.h"
#include "base/util.h"

/* ---- figures ------------------------------------------------------------------ */

double offers_storage_dph(const struct offer *o, double disk_gb)
{
	if (!isfinite(o->storage_cost) || !isfinite(disk_gb) || disk_gb < 0)
		return NAN;
	return o->storage_cost * disk_gb / 720.0;
}

double offers_dph(const struct offer *o, double disk_gb, double bid)
{
	double gpu = bid > 0 ? bid : o->is_bid && isfinite(o->min_bid) ? o->min_bid : o->dph_base;
	double st = offers_storage_dph(o, disk_gb);
	if (isfinite(gpu) && isfinite(st))
		return gpu + st;
	return o->dph_total; /* the service's own price for the searched storage */
}

double offers_dlperf_per_dph(const struct offer *o, double disk_gb, double bid)
{
	double p = offers_dph(o, disk_gb, bid);
	if (!isfinite(p) || p <= 0 || !isfinite(o->dlperf))
		return NAN;
	return o->dlperf / p;
}

struct shown_key {
	double k;
	size_t i; /* the service's place */
};

static int cmp_shown(const void *pa, const void *pb, void *arg)
{
	const struct shown_key *a = pa, *b = pb;
	bool desc = *(const bool *)arg;
	bool an = isnan(a->k), bn = isnan(b->k);
	int c = an || bn ? an - bn /* unknown last */
			 : desc ? (a->k < b->k) - (a->k > b->k) : (a->k > b->k) - (a->k < b->k);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

bool offers_sort_shown(struct offer *v, size_t n, const char *field, bool desc, double disk_gb)
{
	bool dph = field && !strcmp(field, "dph_total");
	if (!dph && !(field && !strcmp(field, "dlperf_per_dphtotal")))
		return false;
	if (n < 2)
		return true;
	struct shown_key *k = xmalloc(n * sizeof *k);
	for (size_t i = 0; i < n; i++) {
		k[i].k = dph ? offers_dph(&v[i], disk_gb, 0) : offers_dlperf_per_dph(&v[i], disk_gb, 0);
		k[i].i = i;
	}
	qsort_r(k, n, sizeof *k, cmp_shown, &desc);
	struct offer *tmp = xmalloc(n * sizeof *tmp);
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[k[i].i];
	memcpy(v, tmp, n * sizeof *v);
	free(tmp);
	free(k);
	return true;
}

char *offers_fmt_dph(char *buf, size_t n, double dph)
{
	return fmt_rate(buf, n, dph);
}

char *offers_fmt_gpus(char *buf, size_t n, const struct offer *o)
{
	snprintf(buf, n, "%dx %s", o->num_gpus, o->gpu_name ? o->gpu_name : "?");
	return buf;
}

char *offers_fmt_reliability(char *buf, size_t n, double r)
{
	if (!isfinite(r))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f%%", r * 100.0);
	return buf;
}

char *offers_fmt_dlperf_per_dph(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f", v);
	return buf;
}

char *offers_fmt_max_duration(char *buf, size_t n, double s)
{
	if (!isfinite(s) || s <= 0)
		snprintf(buf, n, "-");
	else if (s >= 86400)
		snprintf(buf, n, "%.1f d", s / 86400.0);
	else if (s >= 3600)
		snprintf(buf, n, "%.0f h", floor(s / 3600.0));
	else
		snprintf(buf, n, "%.0f min", floor(s / 60.0));
	return buf;
}

/* ---- similar offers ------------------------------------------------------------- */

/* v (>= 0) written with 3 decimals, rounded down so that the value read
 * back and multiplied by mult (the query language's unit) never exceeds
 * v x mult: a bound that must not exclude v itself. */
static void lower_bound(char *buf, size_t n, double v, double mult)
{
	double t = floor(v * 1000.0) / 1000.0;
	for (int i = 0; i < 3; i++) {
		snprintf(buf, n, "%.3f", t);
		if (strtod(buf, NULL) * mult <= v * mult)
			break;
		t -= 0.001;
	}
	/* "24.000" -> "24" */
	char *dot = strchr(buf, '.');
	if (dot) {
		char *e = buf + strlen(buf) - 1;
		while (e > dot && *e == '0')
			*e-- = '\0';
		if (e == dot)
			*e = '\0';
	}
}

static const char *failure_words(const struct instance *x)
{
	switch (x->state) {
	case IS_EXITED:
		return "exited while meant to run";
	case IS_CREATED:
		return "was created with an error";
	case IS_UNKNOWN:
		return "is unknown to its host";
	case IS_OFFLINE:
		return "is offline";
	case IS_PROVISIONING:
	case IS_LOADING:
	case IS_RUNNING:
	case IS_STOPPING:
	case IS_STOPPED:
	case IS_OUTBID:
	case IS_STARTING:
	case IS_REBOOTING:
	case IS_FROZEN:
	case IS_OTHER:
	case IS__COUNT:
		break;
	}
	return NULL;
}

enum offers_failure offers_read_failure(const struct instance *x)
{
	if (!instance_state_failed(x->state))
		return OFAIL_NONE;
	/* the Docker daemon's and registries' words for an image it cannot have */
	static const char *const image[] = {
		"pull access denied",    "unauthorized",         "manifest unknown",
		"manifest for",          "repository does not exist", "no basic auth credentials",
		"authentication required", "requested access to the resource is denied",
		"invalid reference format", "name unknown",
	};
	const char *m = x->status_msg ? x->status_msg : "";
	for (size_t i = 0; i < sizeof image / sizeof *image; i++)
		if (strcasestr(m, image[i]))
			return OFAIL_IMAGE;
	return OFAIL_MACHINE;
}

char *offers_similar_relax(const struct offers_similar *s, char *out, size_t n)
{
	/* the filters an operator can give up, most likely to have emptied
	 * the search first: a reliability floor above the default, the GPU
	 * RAM floor, the GPU count; the model itself last */
	static const char *const order[] = { "reliability>=", "gpu_ram>=", "num_gpus=", "gpu_name=" };
	size_t len = (size_t)snprintf(out, n, "no offer is like it: relax");
	bool first = true;
	for (size_t i = 0; i < sizeof order / sizeof *order && len < n; i++) {
		const char *f = strstr(s->filters, order[i]);
		if (!f)
			continue;
		size_t w = strcspn(f, " ");
		static const char dflt[] = "reliability>=0.95"; /* OFFERS_SIMILAR_MIN_RELIABILITY */
		bool own = i == 0 && !(w == sizeof dflt - 1 && strncmp(f, dflt, w) == 0);
		len += (size_t)snprintf(out + len, n - len, "%s %.*s%s", first ? "" : ", then",
					(int)w, f, own ? " (the old machine's)" : "");
		first = false;
	}
	if (first && len < n)
		snprintf(out + len, n - len, " the query");
	else if (len < n)
		snprintf(out + len, n - len, " (edit the query line: /)");
	return out;
}

size_t offers_lost_create_match(const struct create_req *r, long max_before,
				const struct instance *v, size_t n, long *id)
{
	size_t fit = 0;
	*id = 0;
	for (size_t i = 0; i < n; i++) {
		const struct instance *x = &v[i];
		if (x->id <= max_before || strcmp(x->label ? x->label : "", r->label) != 0)
			continue;
		if (r->image[0] && strcmp(x->image ? x->image : "", r->image) != 0)
			continue;
		if (fit++ == 0)
			*id = x->id;
	}
	if (fit != 1)
		*id = 0;
	return fit;
}

bool offers_similar(const struct instance *x, struct offers_similar *out)
{
	memset(out, 0, sizeof *out);
	if (!x->gpu_name || !*x->gpu_name || x->num_gpus <= 0)
		return false;
	/* the query language turns _ into spaces: the name's spaces become _ */
	char name[128];
	size_t k = 0;
	for (const char *c = x->gpu_name; *c && k < sizeof name - 1; c++)
		if ((unsigned char)*c > ' ' && *c != '"')
			name[k++] = *c;
		else if (*c == ' ')
			name[k++] = '_';
	name[k] = '\0';
	size_t len = (size_t)snprintf(out->filters, sizeof out->filters, "gpu_name=%s num_gpus=%d",
				      name, x->num_gpus);
	char num[32];
	if (isfinite(x->gpu_ram) && x->gpu_ram > 0 && len < sizeof out->filters) {
		lower_bound(num, sizeof num, x->gpu_ram / 1000.0, 1000.0);
		len += (size_t)snprintf(out->filters + len, sizeof out->filters - len,
					" gpu_ram>=%s", num);
	}
	double rel = OFFERS_SIMILAR_MIN_RELIABILITY;
	if (isfinite(x->reliability) && x->reliability > rel && x->reliability <= 1)
		rel = x->reliability;
	lower_bound(num, sizeof num, rel, 1.0);
	if (len < sizeof out->filters)
		len += (size_t)snprintf(out->filters + len, sizeof out->filters - len,
					" reliability>=%s", num);
	if (x->machine_id > 0 && len < sizeof out->filters)
		snprintf(out->filters + len, sizeof out->filters - len, " machine_id!=%ld",
			 x->machine_id);
	snprintf(out->order, sizeof out->order, "dph_total+");
	snprintf(out->type, sizeof out->type, "%s", x->is_bid ? "bid" : "on-demand");
	snprintf(out->line, sizeof out->line, "%s -o %s%s", out->filters, out->order,
		 x->is_bid ? " -t bid" : "");
	out->disk = isfinite(x->disk_space) && x->disk_space > 0 ? x->disk_space : 0;
	const char *fw = failure_words(x);
	char gpu[96];
	snprintf(gpu, sizeof gpu, "%dx %s", x->num_gpus, x->gpu_name);
	if (fw)
		snprintf(out->why, sizeof out->why,
			 "instance %ld (%s) %s: offers like it, cheapest first, not on machine %ld",
			 x->id, gpu, fw, x->machine_id);
	else
		snprintf(out->why, sizeof out->why,
			 "offers like instance %ld (%s), cheapest first, not on machine %ld", x->id,
			 gpu, x->machine_id);
	return true;
}

/* ---- pre-fill ------------------------------------------------------------------ */

static char *str_of(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return xstrdup(json_is_string(v) ? json_string_value(v) : "");
}

/* Variables the service sets on every instance, not the operator's. */
static bool service_var(const char *name)
{
	return !strncmp(name, "VAST_", 5) || !strcmp(name, "CONTAINER_API_KEY") ||
	       !strcmp(name, "CONTAINER_ID") || !strcmp(name, "PUBLIC_KEY");
}

void offers_prefill_from_json(const json_t *inst, struct offers_prefill *p)
{
	memset(p, 0, sizeof *p);
	p->image = str_of(inst, "image_uuid");
	p->template_hash_id = str_of(inst, "template_hash_id");
	p->label = str_of(inst, "label");
	p->args_str = str_of(inst, "args_str");
	const json_t *d = json_object_get(inst, "disk_space");
	p->disk = json_is_number(d) && json_number_value(d) > 0 ? json_number_value(d) : 0;
	/* extra_env: [[name, value], ...] (or an object), minus the service's */
	const json_t *ee = json_object_get(inst, "extra_env");
	json_t *mine = json_array();
	size_t i;
	const json_t *pair;
	if (json_is_array(ee)) {
		json_array_foreach(ee, i, pair) {
			const json_t *k = json_array_get(pair, 0);
			if (json_is_string(k) && !service_var(json_string_value(k)))
				json_array_append(mine, (json_t *)pair);
		}
	} else if (json_is_object(ee)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)ee, k, v) if (!service_var(k))
			json_array_append_new(mine, json_pack("[sO]", k, v));
	}
	p->env = api_create_env_format(mine);
	json_decref(mine);
	const json_t *os = json_object_get(inst, "onstart");
	if (json_is_string(os)) {
		p->onstart = api_create_onstart_decode(json_string_value(os));
		if (!p->onstart)
			p->onstart = xstrdup(json_string_value(os));
	} else {
		p->onstart = xstrdup("");
	}
	const json_t *rt = json_object_get(inst, "image_runtype");
	p->launch = LAUNCH_SSH;
	p->launch_known = json_is_string(rt) &&
			  api_create_launch_from_runtype(json_string_value(rt), &p->launch);
	if (!p->launch_known)
		p->launch = LAUNCH_SSH;
	const json_t *mid = json_object_get(inst, "machine_id");
	p->machine_id = json_is_integer(mid) ? (long)json_integer_value(mid) : 0;
	const json_t *geo = json_object_get(inst, "geolocation");
	p->geolocation = util_sanitize(json_is_string(geo) ? json_string_value(geo) : "");
	/* volume_info: a list of {id, name, mount_path, type} (the CLI's show
	 * instances), or one such object */
	const json_t *vi = json_object_get(inst, "volume_info"), *v;
	json_t *one = json_is_object(vi) ? json_pack("[O]", vi) : NULL;
	json_array_foreach(one ? one : vi, i, v) {
		const json_t *id = json_object_get(v, "id");
		if (!json_is_object(v) || !json_is_integer(id) || json_integer_value(id) <= 0)
			continue;
		if (!p->nvols++) {
			p->vol.id = (long)json_integer_value(id);
			const json_t *t = json_object_get(v, "type");
			p->vol.network = json_is_string(t) && strstr(json_string_value(t), "network");
			char *nm = util_sanitize(json_is_string(json_object_get(v, "name"))
						 ? json_string_value(json_object_get(v, "name")) : "");
			util_strlcpy(p->vol.name, nm, sizeof p->vol.name);
			free(nm);
			const json_t *mp = json_object_get(v, "mount_path");
			char *m = util_sanitize(json_is_string(mp) ? json_string_value(mp) : "");
			util_strlcpy(p->vol.mount, m, sizeof p->vol.mount);
			free(m);
		}
	}
	json_decref(one);
}

bool offers_prefill_vol_carried(const struct offers_prefill *p, const struct offer *o, char *buf,
				size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!p || !p->vol.id)
		return true;
	char what[VOLUME_NAME_MAX * 4 + VOLUME_MOUNT_MAX + 80];
	snprintf(what, sizeof what, "%s volume %ld (%.64s%sat %.200s)", p->vol.network ? "Network" : "Local",
		 p->vol.id, p->vol.name, p->vol.name[0] ? " " : "", p->vol.mount[0] ? p->vol.mount : "?");
	const char *og = o->geolocation ? o->geolocation : "";
	const char *pg = p->geolocation ? p->geolocation : "";
	bool ok = p->vol.network ? pg[0] && !strcmp(og, pg) : p->machine_id > 0 && o->machine_id == p->machine_id;
	if (ok)
		snprintf(buf, n, "%s is linked to the new instance.", what);
	else if (p->vol.network)
		snprintf(buf, n, "%s stays in %s (offer %ld is in %s): the new instance starts without it.",
			 what, pg[0] ? pg : "its region", o->id, og[0] ? og : "another region");
	else
		snprintf(buf, n, "%s stays on machine %ld: the new instance (machine %ld) starts without it.",
			 what, p->machine_id, o->machine_id);
	if (p->nvols > 1) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, " (%zu more volume%s not carried.)", p->nvols - 1,
			 p->nvols == 2 ? "" : "s");
	}
	return ok;
}

void offers_prefill_free(struct offers_prefill *p)
{
	free(p->image);
	free(p->template_hash_id);
	free(p->label);
	free(p->args_str);
	free(p->onstart);
	free(p->geolocation);
	if (p->env) /* secret values: wipe before freeing */
		memset(p->env, 0, strlen(p->env));
	free(p->env);
	memset(p, 0, sizeof *p);
}

void offers_prefill_form(const struct offers_prefill *p, struct create_form *f)
{
	f->image = p->image;
	f->template_hash_id = p->template_hash_id;
	f->disk = p->disk;
	f->label = p->label;
	f->launch = p->launch;
	f->launch_from_template = false;
	f->env = p->env;
	f->onstart = p->onstart;
	f->args_str = p->launch == LAUNCH_ARGS ? p->args_str : NULL;
}

/* ---- the billing confirmation ---------------------------------------------------- */

bool offers_launch_uses_ssh(enum create_launch m)
{
	switch (m) {
	case LAUNCH_SSH:
	case LAUNCH_SSH_DIRECT:
	case LAUNCH_JUPYTER:
	case LAUNCH_JUPYTER_DIRECT:
		return true;
	case LAUNCH_ARGS:
	case LAUNCH__COUNT:
		break;
	}
	return false;
}

char *offers_confirm_text(const struct offer *o, const struct create_req *r, bool no_ssh_key,
			  char *buf, size_t n)
{
	double disk = r->disk > 0 ? r->disk : CREATE_DISK_DEFAULT;
	double total = offers_dph(o, disk, r->price);
	double st = offers_storage_dph(o, disk);
	char gpus[96], t[32], s[32], g[32];
	offers_fmt_gpus(gpus, sizeof gpus, o);
	offers_fmt_dph(t, sizeof t, total);
	size_t len = 0;
#define ADD(...)                                                                   \
	do {                                                                       \
		if (len < n)                                                       \
			len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__); \
	} while (0)
	if (isfinite(total) && isfinite(st)) {
		offers_fmt_dph(s, sizeof s, st);
		offers_fmt_dph(g, sizeof g, total - st);
		ADD("Rent offer %ld (%s) for %s: %s GPU + %s storage of %g GB.", o->id, gpus, t, g,
		    s, disk);
	} else {
		ADD("Rent offer %ld (%s) for %s (with %g GB of disk).", o->id, gpus, t, disk);
	}
	if (r->start_stopped)
		ADD(" It is created stopped: its storage is billed from now, the GPU once "
		    "started.");
	else
		ADD(" Billing starts when it is created: the GPU while it runs, the storage "
		    "until it is destroyed.");
	if (r->price > 0 && isfinite(o->min_bid) && r->price < o->min_bid) {
		offers_fmt_dph(g, sizeof g, r->price);
		offers_fmt_dph(s, sizeof s, o->min_bid);
		ADD(" WARNING: your bid %s is under the offer's min_bid %s: it will be outbid "
		    "and stopped at once (storage still billed).", g, s);
	} else if (r->price > 0) {
		offers_fmt_dph(g, sizeof g, r->price);
		ADD(" Interruptible: your bid is %s; when outbid it is stopped (storage still "
		    "billed).", g);
	}
	if (r->vol.mode != CVOL_NONE) {
		char m[48] = "";
		if (isfinite(r->vol.month))
			snprintf(m, sizeof m, " ($%.2f/month)", r->vol.month);
		if (r->vol.mode == CVOL_NEW)
			ADD(" Plus a new %g GB volume at %s%s, billed until it is deleted%s.", r->vol.size,
			    r->vol.mount, m, m[0] ? "" : " (its price: o in :volumes lists the offers)");
		else
			ADD(" Volume %ld mounted at %s%s: already billed.", r->vol.id, r->vol.mount, m);
	}
	if (no_ssh_key)
		ADD(" The account has no SSH key: ssh into it will not work (add one in the "
		    "account view, 5, before renting).");
#undef ADD
	if (len >= n && n > 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

/* ---- templates ------------------------------------------------------------------ */

/* Free one record's strings (not the record). */
static void template_rec_clear(struct template_rec *t)
{
	char **f[] = { &t->hash_id, &t->name, &t->image, &t->tag, &t->runtype, &t->desc, &t->env,
		       &t->onstart, &t->args_str, &t->docker_login_repo, &t->docker_login_user,
		       &t->search };
	for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
		free(*f[i]);
		*f[i] = NULL;
	}
}

void offers_templates_merge(struct template_rec **a, size_t *na, struct template_rec *b,
			    size_t nb)
{
	*a = xrealloc(*a, (*na + nb + 1) * sizeof **a);
	for (size_t i = 0; i < nb; i++) {
		bool dup = false;
		for (size_t k = 0; k < *na && !dup; k++)
			dup = !strcmp((*a)[k].hash_id ? (*a)[k].hash_id : "",
				      b[i].hash_id ? b[i].hash_id : "");
		if (dup)
			template_rec_clear(&b[i]);
		else
			(*a)[(*na)++] = b[i];
	}
	free(b);
}

/* Case-insensitive substring. */
static bool has_text(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

bool offers_template_matches(const struct template_rec *t, const char *text)
{
	if (!text || !*text)
		return true;
	if (has_text(t->name, text) || has_text(t->image, text) || has_text(t->hash_id, text))
		return true;
	char full[512];
	snprintf(full, sizeof full, "%s:%s", t->image ? t->image : "", t->tag ? t->tag : "");
	return has_text(full, text);
}

void offers_template_form(const struct template_rec *t, struct create_form *f)
{
	f->template_hash_id = t->hash_id;
	f->image = t->image;
	f->disk = isfinite(t->recommended_disk_space) && t->recommended_disk_space > 0
			  ? t->recommended_disk_space
			  : CREATE_DISK_DEFAULT;
	f->launch = api_create_launch_from_template(t->runtype, t->ssh_direct, t->jup_direct);
	f->launch_from_template = true;
	f->env = t->env;
	f->onstart = t->onstart;
	f->args_str = f->launch == LAUNCH_ARGS ? t->args_str : NULL;
}

char *offers_template_search(const struct template_rec *t, char *buf, size_t n)
{
	const char *q = t->search ? t->search : "";
	if (isfinite(t->recommended_disk_space) && t->recommended_disk_space > 0)
		snprintf(buf, n, "%s%s--storage %g", q, *q ? " " : "", t->recommended_disk_space);
	else
		snprintf(buf, n, "%s", q);
	return buf;
}

void offers_template_req(const struct template_rec *t, struct template_req *r)
{
	memset(r, 0, sizeof *r);
	r->name = t->name;
	r->image = t->image;
	r->tag = t->tag;
	r->desc = t->desc;
	r->env = t->env;
	r->onstart = t->onstart;
	r->args_str = t->args_str;
	r->launch = api_create_launch_from_template(t->runtype, t->ssh_direct, t->jup_direct);
	r->recommended_disk_space = isfinite(t->recommended_disk_space) ? t->recommended_disk_space : 0;
	r->login_repo = t->docker_login_repo;
	r->login_user = t->docker_login_user;
	r->login_pass = NULL;
	r->private_ = t->private_;
}

void *offers_templates_map(const json_t *root, struct api_error *e)
{
	struct offers_tpl_answer *t = xcalloc(1, sizeof *t);
	if (!json_map_templates(root, &t->v, &t->n)) {
		free(t);
		apierr_protocol(e, 200, "unexpected template list shape");
		return NULL;
	}
	return t;
}

void offers_templates_answer_free(void *answer)
{
	struct offers_tpl_answer *t = answer;
	if (!t)
		return;
	json_map_templates_free(t->v, t->n);
	free(t);
}

struct template_rec *offers_template_dup(const struct template_rec *t)
{
	struct template_rec *d = xcalloc(1, sizeof *d);
	*d = *t;
	char **s[] = { &d->hash_id, &d->name, &d->image, &d->tag, &d->runtype, &d->desc, &d->env,
		       &d->onstart, &d->args_str, &d->docker_login_repo, &d->docker_login_user,
		       &d->search };
	for (size_t i = 0; i < sizeof s / sizeof *s; i++)
		*s[i] = *s[i] ? xstrdup(*s[i]) : NULL;
	return d;
}

/* ---- pacing ------------------------------------------------------------------- */

void offers_pace_init(struct pace *p, double now)
{
	pace_init(p, api_ep_rate(EP_OFFERS), OFFERS_PACE_BURST, now);
}

bool offers_pace_ready(const struct pace *p, double now, char *buf, size_t n)
{
	double w = pace_wait(p, now);
	if (w <= 0) {
		if (n)
			buf[0] = '\0';
		return true;
	}
	snprintf(buf, n, "next search in %.0f s", ceil(w));
	return false;
}

double offers_pace_refused(struct pace *p, double now, double jitter, char *buf, size_t n)
{
	double until = pace_refused(p, now, jitter);
	double w = until > now ? until - now : 0;
	snprintf(buf, n, "offer search refused by the service (429): next search in %.0f s",
		 ceil(w));
	return w;
}

/* ---- the search's answer ------------------------------------------------------- */

bool offers_answer(const char *text, size_t len, struct offer **v, size_t *n,
		   struct api_error *e)
{
	char err[160];
	switch (json_stream_offers(text, len, v, n, err, sizeof err)) {
	case JSTREAM_OK:
		return true;
	case JSTREAM_BAD_SHAPE:
		apierr_protocol(e, 200, "unexpected offer list shape");
		return false;
	case JSTREAM_BAD_JSON:
		break;
	}
	/* not JSON (rare): jansson judges it again, for its own words (as
	 * every other answer says it) and in case it reads it after all */
	json_error_t je;
	json_t *j = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (j) {
		bool ok = json_map_offers(j, v, n);
		json_decref(j);
		if (!ok)
			apierr_protocol(e, 200, "unexpected offer list shape");
		return ok;
	}
	char m[220];
	snprintf(m, sizeof m, "malformed JSON from the service (%s)", je.text);
	apierr_protocol(e, 200, m);
	return false;
}

bool offers_answer_xfer(const struct http_xfer *x, struct offer **v, size_t *n,
			struct api_error *e)
{
	memset(e, 0, sizeof *e);
	if (http_xfer_failed(x, e))
		return false;
	size_t len;
	const char *body = http_xfer_body(x, &len);
	bool ok = offers_answer(body, len, v, n, e);
	if (ok)
		e->cls = AE_NONE;
	e->http_status = (int)http_xfer_status(x);
	return ok;
}

enum offers_fix_answer offers_fix_answer(int focus, bool has_template)
{
	if (focus == 2)
		return OFIX_RECYCLE;
	if (focus == 1)
		return has_template ? OFIX_TEMPLATE : OFIX_SAME_IMAGE;
	return OFIX_FIX_IMAGE;
}
