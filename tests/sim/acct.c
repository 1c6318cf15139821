/* acct.c: the account's money and team beside the world (acct.h).  The
 * ledger is filled by the billing clock, so that the charges a client reads
 * add up, to the cent, to the credit the simulator took; the invoices, the
 * members and the audit log are seeded for the demo and grow with the
 * writes the simulator serves. */
#include "acct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes_int.h"
#include "world.h"

#define DAY 86400.0
#define AUDIT_MAX 2000          /* audit rows kept */
#define OWNER_ID 148213

/* ---- the ledger -------------------------------------------------------- */

static struct charge *rec_new(struct acct *a, long contract, enum charge_kind kind, double day)
{
	if (a->nch == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 256;
		a->ch = realloc(a->ch, a->cap * sizeof *a->ch);
		if (!a->ch)
			abort();
	}
	struct charge *c = &a->ch[a->nch++];
	memset(c, 0, sizeof *c);
	c->contract = contract;
	c->kind = kind;
	c->day = day;
	c->t0 = INFINITY;
	c->endpoint_id = c->wg_id = c->template_id = -1;
	return c;
}

/* Add to c what was charged for [t0, t1]: gpu and disk in whole $0.001
 * (take_mills), at_gpu and at_disk: whether each was charging at all. */
static void rec_add(struct charge *c, double t0, double t1, double gpu, double disk, bool at_gpu, bool at_disk)
{
	if (t0 < c->t0)
		c->t0 = t0;
	if (t1 > c->t1)
		c->t1 = t1;
	c->gpu += gpu;
	c->disk += disk;
	if (at_gpu)
		c->gpu_s += t1 - t0;
	if (at_disk)
		c->disk_s += t1 - t0;
}

/* Add amount ($) to a contract's carry and take from it the whole
 * thousandths of a dollar it now holds: the ledger and the credit move in
 * the $0.001 units the charges are served in, the rest waits in the carry
 * for the next second billed, so nothing is lost over time. */
static double take_mills(double *carry, double amount)
{
	*carry += amount;
	double m = floor(*carry * 1000.0 + 1e-6);
	if (m < 0)
		m = 0;
	*carry -= m / 1000.0;
	return m / 1000.0;
}

/* The carry (gpu, disk) of a volume ("v" id). */
static double *carry_of(struct acct *a, const char *key)
{
	for (size_t i = 0; i < a->ncarry; i++)
		if (!strcmp(a->carry[i].key, key))
			return a->carry[i].v;
	if (a->ncarry == a->carry_cap) {
		a->carry_cap = a->carry_cap ? a->carry_cap * 2 : 32;
		a->carry = realloc(a->carry, a->carry_cap * sizeof *a->carry);
		if (!a->carry)
			abort();
	}
	struct carry *c = &a->carry[a->ncarry++];
	memset(c, 0, sizeof *c);
	snprintf(c->key, sizeof c->key, "%s", key);
	return c->v;
}

/* *ix (index + 1 of the contract's open record, 0: none) for the day,
 * opened when the day changed; fresh: set when it was opened. */
static struct charge *rec_for(struct acct *a, size_t *ix, long contract, enum charge_kind kind, double day,
			      bool *fresh)
{
	*fresh = false;
	if (*ix && a->ch[*ix - 1].day == day && a->ch[*ix - 1].contract == contract)
		return &a->ch[*ix - 1];
	struct charge *c = rec_new(a, contract, kind, day);
	*ix = a->nch;
	*fresh = true;
	return c;
}

static void rec_meta_inst(struct world *w, struct charge *c, const json_t *o)
{
	const char *l = jstr(o, "label");
	snprintf(c->label, sizeof c->label, "%s", l ? l : "");
	double t;
	c->template_id = jnum_value(json_object_get(o, "template_id"), &t) ? (long)t : -1;
	if (c->kind == CK_SERVERLESS) { /* a worker: its endpoint's name */
		c->endpoint_id = (long)jnum(o, "endpoint_id", -1);
		c->wg_id = (long)jnum(o, "workergroup_id", -1);
		json_t *ep = world_endpoint_by_id(w, c->endpoint_id);
		if (ep && jstr(ep, "endpoint_name"))
			snprintf(c->label, sizeof c->label, "%s", jstr(ep, "endpoint_name"));
	}
}

double acct_charge_inst(struct world *w, struct inst *in, double t0, double t1, double gpu, double disk)
{
	struct acct *a = w->acct;
	if (!a || !(t1 > t0) || (gpu <= 0 && disk <= 0))
		return gpu + disk;
	double span = t1 - t0, taken = 0;
	for (double t = t0; t < t1;) {
		double day = floor(t / DAY) * DAY, e = fmin(t1, day + DAY), f = (e - t) / span;
		bool fresh;
		/* a serverless worker's instance is charged as serverless */
		enum charge_kind kind = json_object_get(in->o, "workergroup_id") ? CK_SERVERLESS : CK_INSTANCE;
		struct charge *c = rec_for(a, &in->led, in->id, kind, day, &fresh);
		if (fresh)
			rec_meta_inst(w, c, in->o);
		double g = take_mills(&in->carry[0], gpu * f), d = take_mills(&in->carry[1], disk * f);
		rec_add(c, t, e, g, d, gpu > 0, disk > 0);
		taken += g + d;
		t = e;
	}
	return taken;
}

double acct_charge_volume(struct world *w, long id, double t0, double t1, double cost)
{
	struct acct *a = w->acct;
	if (!a || !(t1 > t0) || cost <= 0 || w->credit <= 0)
		return cost;
	char key[32];
	snprintf(key, sizeof key, "v%ld", id);
	double *carry = carry_of(a, key), taken = 0;
	for (double t = t0; t < t1;) {
		double day = floor(t / DAY) * DAY, e = fmin(t1, day + DAY);
		size_t ix = (size_t)json_integer_value(json_object_get(a->worker_ix, key));
		bool fresh;
		struct charge *c = rec_for(a, &ix, id, CK_VOLUME, day, &fresh);
		if (fresh)
			json_object_set_new(a->worker_ix, key, json_integer((json_int_t)ix));
		double d = take_mills(&carry[1], cost * (e - t) / (t1 - t0));
		rec_add(c, t, e, 0, d, false, true);
		taken += d;
		t = e;
	}
	return taken;
}

static void accept_invites(struct world *w, double now);

void acct_advance(struct world *w, double now)
{
	if (w->acct)
		accept_invites(w, now);
}

/* ---- invoices ---------------------------------------------------------- */

void acct_invoice(struct world *w, double when, const char *type, const char *source, const char *service,
		  const char *description, double amount)
{
	struct acct *a = w->acct;
	json_array_append_new(a->invoices,
			      json_pack("{s:f,s:f,s:s,s:s,s:s,s:f,s:{s:I,s:s},s:[]}", "start", when, "end", when, "type",
					type, "source", source, "description", description, "amount",
					round(amount * 100) / 100, "metadata", "invoice_id", (json_int_t)a->next_invoice++,
					"service", service, "items"));
}

/* ---- members ----------------------------------------------------------- */

static void accept_invites(struct world *w, double now)
{
	struct acct *a = w->acct;
	for (size_t i = 0; i < json_array_size(a->invites);) {
		json_t *iv = json_array_get(a->invites, i);
		if (jnum(iv, "accept_at", INFINITY) > now) {
			i++;
			continue;
		}
		const char *email = jstr(iv, "email");
		long id = -1;
		size_t k;
		json_t *u;
		json_array_foreach(a->users, k, u)
			if (!strcmp(jstr(u, "email"), email))
				id = (long)jnum(u, "id", -1);
		if (id < 0) {
			id = a->next_member++;
			json_array_append_new(a->users, json_pack("{s:I,s:s}", "id", (json_int_t)id, "email", email));
		}
		char user[64];
		snprintf(user, sizeof user, "%.*s", (int)strcspn(email, "@"), email);
		json_array_append_new(a->members, json_pack("{s:I,s:s,s:s,s:s,s:[s]}", "id", (json_int_t)id, "username",
							    user, "email", email, "fullname", "", "roles",
							    jstr(iv, "role")));
		json_array_remove(a->invites, i);
	}
}

/* ---- audit ------------------------------------------------------------- */

/* Body fields whose values are secrets: masked in the audit log. */
static bool secret_field(const char *k)
{
	static const char *const s[] = { "value", "password", "docker_login_pass", "image_login", "code", "secret",
					  "backup_code", "api_key", "key", "ssh_key", "env", "token", NULL };
	for (size_t i = 0; s[i]; i++)
		if (!strcmp(k, s[i]))
			return true;
	return false;
}

const json_t *acct_key_rights(struct world *w, const char *bearer)
{
	size_t i;
	json_t *k;
	if (!bearer)
		return NULL;
	json_array_foreach(w->apikeys, i, k) {
		const char *kk = jstr(k, "key");
		if (!kk || strcmp(kk, bearer))
			continue;
		json_t *rights = json_object_get(k, "rights");
		if (!json_is_object(rights))
			return NULL;
		json_t *api = json_object_get(rights, "api");
		return api ? api : rights;
	}
	return NULL;
}

bool acct_key_has(struct world *w, const char *bearer, const char *scope)
{
	const json_t *r = acct_key_rights(w, bearer);
	return !r || json_object_get(r, scope) != NULL;
}

bool acct_require(struct world *w, const char *bearer, const char *scope, struct sim_resp *rs)
{
	if (acct_key_has(w, bearer, scope))
		return true;
	char msg[160];
	snprintf(msg, sizeof msg, "This API key does not have permission for this action (scoped key: needs %s)",
		 scope);
	routes_error(rs, 401, "permission_denied", msg);
	return false;
}

static json_t *key_id_of(struct world *w, const char *bearer)
{
	size_t i;
	json_t *k;
	if (bearer)
		json_array_foreach(w->apikeys, i, k)
			if (jstr(k, "key") && !strcmp(jstr(k, "key"), bearer))
				return json_incref(json_object_get(k, "id"));
	return json_null();
}

void acct_audit(struct world *w, const struct sim_req *rq, const char *route)
{
	struct acct *a = w->acct;
	json_t *args = json_object();
	if (json_is_object(rq->body)) {
		const char *k;
		json_t *v;
		json_object_foreach(rq->body, k, v)
			json_object_set_new(args, k, secret_field(k) ? json_string("*****") : json_deep_copy(v));
	}
	/* query parameters too (the CLI's invite sends its fields there) */
	for (const char *q = rq->query; q && *q;) {
		size_t kl = strcspn(q, "=&");
		char k[64];
		snprintf(k, sizeof k, "%.*s", (int)(kl < sizeof k ? kl : sizeof k - 1), q);
		char *v = routes_query_param(rq->query, k);
		if (v && *k && !json_object_get(args, k))
			json_object_set_new(args, k, json_string(secret_field(k) ? "*****" : v));
		free(v);
		q += strcspn(q, "&");
		if (*q == '&')
			q++;
	}
	char r[256];
	snprintf(r, sizeof r, "%s %s", rq->method, route);
	json_array_append_new(a->audit, json_pack("{s:s,s:o,s:f,s:s,s:s,s:o,s:I,s:s}", "ip_address",
						  rq->peer ? rq->peer : "127.0.0.1", "api_key_id",
						  key_id_of(w, rq->bearer), "created_at", rq->now, "api_route", r,
						  "path", rq->path, "args", args, "user_id", (json_int_t)OWNER_ID,
						  "user_email", jstr(w->user, "email")));
	while (json_array_size(a->audit) > AUDIT_MAX)
		json_array_remove(a->audit, 0);
}

/* ---- seeding ----------------------------------------------------------- */

/* Each seeded instance's charges since it started (at most 30 days back),
 * at its present rates, up to the start of today (UTC): the days before
 * the simulator started.  Today's charges are what the billing clock takes
 * from then on, so that they add up to the credit spent. */
static void seed_history(struct world *w, double now)
{
	double today = floor(now / DAY) * DAY;
	for (size_t i = 0; i < w->ninst; i++) {
		struct inst *in = w->inst[i];
		double start = fmax(jnum(in->o, "start_date", now), today - 30 * DAY);
		if (!(start < today))
			continue;
		bool run = in->c_running;
		double h = (today - start) / 3600.0;
		acct_charge_inst(w, in, start, today, run ? in->c_dph_base * h : 0, in->c_storage * h);
		in->led = 0; /* today's record opens with the billing clock */
		in->carry[0] = in->carry[1] = 0; /* the seeded past is not the credit's to pay */
	}
}

static void seed_members(struct acct *a, struct world *w, double now)
{
	a->users = json_pack("[{s:i,s:s},{s:i,s:s},{s:i,s:s},{s:i,s:s}]", "id", 148300, "email", "alice@example.com",
			     "id", 148301, "email", "bob@example.com", "id", 151000, "email", "carol@example.com",
			     "id", 152222, "email", "ml-team@example.com");
	a->members = json_pack("[{s:i,s:s,s:s,s:s,s:[s]},{s:i,s:s,s:s,s:s,s:[s]},{s:i,s:s,s:s,s:s,s:[s]}]", "id",
			       OWNER_ID, "username", "demo", "email", jstr(w->user, "email"), "fullname",
			       "Demo Operator", "roles", "owner", "id", 148300, "username", "alice", "email",
			       "alice@example.com", "fullname", "Alice Martin", "roles", "manager", "id", 148301,
			       "username", "bob", "email", "bob@example.com", "fullname", "Bob Okafor", "roles",
			       "member");
	a->invites = json_array();
	a->next_member = 153000;
	(void)now;
}

/* A price increase pending on the first two running seeded instances. */
static void seed_pending(struct acct *a, struct world *w, double now)
{
	a->pending = json_array();
	a->next_pending = 5500;
	int n = 0;
	for (size_t i = 0; i < w->ninst && i < 12 && n < 2; i++) {
		struct inst *in = w->inst[i];
		if (!in->c_running || in->c_bid)
			continue;
		double gpu = jnum(in->o, "dph_base", 0) / 3600.0;
		double disk = jnum(in->o, "storage_cost", 0) / (30.0 * 86400.0);
		double end = jnum(in->o, "end_date", now + 30 * DAY);
		json_array_append_new(
			a->pending,
			json_pack("{s:I,s:I,s:I,s:f,s:f,s:n,s:n,s:n,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}",
				  "pending_price_increase_id", (json_int_t)a->next_pending++, "contract_id",
				  (json_int_t)in->id, "host_id", (json_int_t)jnum(in->o, "host_id", 0),
				  "new_gpu_costpersec", gpu * (n ? 1.10 : 1.25), "new_disk_ram_costpersec", disk,
				  "new_bwu_cost", "new_bwd_cost", "new_platform_fee", "old_gpu_costpersec", gpu,
				  "old_disk_ram_costpersec", disk, "old_bwu_cost", 0.0, "old_bwd_cost", 0.0,
				  "old_platform_fee", 0.0, "contract_end_date", end, "ask_end_date", end + 30 * DAY,
				  "created_at", now - (double)(n + 1) * DAY));
		n++;
	}
}

struct acct *acct_new(struct world *w, double now)
{
	struct acct *a = calloc(1, sizeof *a);
	if (!a)
		abort();
	w->acct = a;
	a->worker_ix = json_object();
	a->seeded_at = now;
	a->invoices = json_array();
	a->audit = json_array();
	a->next_invoice = 2185000 + (long)(world_rand(w) % 1000);
	/* a deposit every week for eight weeks, then the seeded history */
	for (int k = 8; k >= 1; k--)
		acct_invoice(w, now - 7 * DAY * k + 3600 * k, "credit", "stripe", "stripe_payments",
			     "Stripe payment from VISA ...4242", -100.0);
	seed_history(w, now);
	seed_members(a, w, now);
	/* the audit log's past: the team's writes of the last days */
	static const struct {
		double ago;
		const char *ip, *route, *path, *args, *email;
		long user, key;
	} past[] = {
		{ 3 * DAY, "203.0.113.7", "PUT /api/v0/asks/{}", "/api/v0/asks/7104417/", "{\"image\":\"vllm/vllm-openai:v0.5.3\",\"disk\":64}",
		  "alice@example.com", 148300, 6101 },
		{ 2 * DAY, "198.51.100.23", "PUT /api/v0/instances/{}", "/api/v0/instances/9100417/", "{\"label\":\"tgi-mistral\"}", "bob@example.com",
		  148301, 6102 },
		{ 1 * DAY, "203.0.113.7", "POST /api/v0/team/invite", "/api/v0/team/invite/", "{\"email\":\"bob@example.com\",\"role\":\"member\"}",
		  "alice@example.com", 148300, 6101 },
		{ 6 * 3600.0, "192.0.2.10", "DELETE /api/v0/instances/{}", "/api/v0/instances/9100388/", "{}", "demo@example.com", OWNER_ID, 0 },
	};
	for (size_t i = 0; i < sizeof past / sizeof *past; i++)
		json_array_append_new(a->audit, json_pack("{s:s,s:o,s:f,s:s,s:s,s:o,s:I,s:s}", "ip_address", past[i].ip,
							  "api_key_id", past[i].key ? json_integer(past[i].key) : json_null(),
							  "created_at", now - past[i].ago, "api_route", past[i].route, "path",
							  past[i].path, "args",
							  json_loads(past[i].args, 0, NULL), "user_id", (json_int_t)past[i].user,
							  "user_email", past[i].email));
	seed_pending(a, w, now);
	return a;
}

void acct_free(struct acct *a)
{
	if (!a)
		return;
	free(a->ch);
	free(a->carry);
	json_decref(a->worker_ix);
	json_decref(a->invoices);
	json_decref(a->members);
	json_decref(a->invites);
	json_decref(a->users);
	json_decref(a->audit);
	json_decref(a->pending);
	free(a);
}

bool acct_set_member(struct world *w, long id, const char *field, const json_t *value)
{
	size_t i, k;
	json_t *m, *r;
	if (strcmp(field, "roles") || !json_is_array(value) || !json_array_size(value))
		return false;
	json_array_foreach(value, k, r)
		if (!json_is_string(r))
			return false;
	json_array_foreach(w->acct->members, i, m)
		if ((long)jnum(m, "id", -1) == id) {
			json_object_set_new(m, "roles", json_deep_copy(value));
			return true;
		}
	return false;
}

json_t *acct_debug(struct world *w)
{
	struct acct *a = w->acct;
	json_t *days = json_object();
	double total = 0, since = 0;
	for (size_t i = 0; i < a->nch; i++) {
		const struct charge *c = &a->ch[i];
		char key[32];
		snprintf(key, sizeof key, "%.0f", c->day);
		json_object_set_new(days, key, json_real(jnum(days, key, 0) + c->gpu + c->disk));
		total += c->gpu + c->disk;
		if (c->t1 > a->seeded_at)
			since += (c->gpu + c->disk) * (c->t1 - fmax(c->t0, a->seeded_at)) / fmax(c->t1 - c->t0, 1e-9);
	}
	return json_pack("{s:f,s:f,s:o,s:I,s:O,s:O,s:I,s:O}", "charged", total, "charged_since_start", since,
			 "charged_per_day", days, "charge_records", (json_int_t)a->nch, "members", a->members,
			 "invites", a->invites, "audit_rows", (json_int_t)json_array_size(a->audit), "pending",
			 a->pending);
}
