/* instance.c: one instance record and its rules (instance.h). */
#include "state/instance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "state/intern.h"
#include "base/util.h"

struct irow *instance_row_new(struct instance *x)
{
	static atomic_uint_fast64_t revs;
	struct irow *r = xmalloc(sizeof *r);
	atomic_init(&r->refs, 1);
	r->x = *x;
	r->x.rev = atomic_fetch_add(&revs, 1) + 1;
	memset(x, 0, sizeof *x);
	return r;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_num(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

static bool same_kv(const struct kv *a, const struct kv *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!same_str(a[i].key, b[i].key) || !same_str(a[i].value, b[i].value))
			return false;
	return true;
}

bool instance_same(const struct instance *a, const struct instance *b)
{
	if (a->id != b->id || a->state != b->state || a->machine_id != b->machine_id ||
	    a->host_id != b->host_id || a->num_gpus != b->num_gpus || a->is_bid != b->is_bid ||
	    a->ssh_port != b->ssh_port || a->direct_ssh_port != b->direct_ssh_port ||
	    a->machine_dir_ssh_port != b->machine_dir_ssh_port ||
	    a->template_id != b->template_id || a->nports != b->nports ||
	    a->nfields != b->nfields || a->nenv != b->nenv)
		return false;
	const char *const sa[] = { a->label,	 a->actual_status,    a->intended_status,
				   a->cur_state, a->next_state,	      a->status_msg,
				   a->gpu_name,	 a->image,	      a->runtype,
				   a->ssh_host,	 a->public_ip,	      a->geolocation,
				   a->verification, a->template_hash_id, a->template_name };
	const char *const sb[] = { b->label,	 b->actual_status,    b->intended_status,
				   b->cur_state, b->next_state,	      b->status_msg,
				   b->gpu_name,	 b->image,	      b->runtype,
				   b->ssh_host,	 b->public_ip,	      b->geolocation,
				   b->verification, b->template_hash_id, b->template_name };
	for (size_t i = 0; i < sizeof sa / sizeof *sa; i++)
		if (!same_str(sa[i], sb[i]))
			return false;
	if (!same_str(a->jupyter_token ? a->jupyter_token : "", b->jupyter_token ? b->jupyter_token : ""))
		return false;
	const double na[] = { a->gpu_ram,    a->gpu_totalram, a->gpu_util,   a->gpu_temp,
			      a->cpu_cores,  a->cpu_ram,      a->disk_space, a->disk_usage,
			      a->inet_up,    a->inet_down,    a->dph_base,   a->dph_total,
			      a->storage_cost, a->storage_total_cost, a->min_bid, a->bid_price,
			      a->start_date, a->end_date,     a->uptime_mins, a->reliability,
			      a->credit_balance, a->credit_discount, a->ondemand,
			      a->disk_util, a->cpu_util, a->mem_usage, a->mem_limit };
	const double nb[] = { b->gpu_ram,    b->gpu_totalram, b->gpu_util,   b->gpu_temp,
			      b->cpu_cores,  b->cpu_ram,      b->disk_space, b->disk_usage,
			      b->inet_up,    b->inet_down,    b->dph_base,   b->dph_total,
			      b->storage_cost, b->storage_total_cost, b->min_bid, b->bid_price,
			      b->start_date, b->end_date,     b->uptime_mins, b->reliability,
			      b->credit_balance, b->credit_discount, b->ondemand,
			      b->disk_util, b->cpu_util, b->mem_usage, b->mem_limit };
	for (size_t i = 0; i < sizeof na / sizeof *na; i++)
		if (!same_num(na[i], nb[i]))
			return false;
	for (size_t i = 0; i < a->nports; i++)
		if (a->ports[i].container_port != b->ports[i].container_port ||
		    a->ports[i].host_port != b->ports[i].host_port ||
		    strcmp(a->ports[i].proto, b->ports[i].proto) != 0)
			return false;
	return same_kv(a->fields, b->fields, a->nfields) && same_kv(a->env, b->env, a->nenv);
}

struct irow *instance_row_ref(struct irow *r)
{
	atomic_fetch_add(&r->refs, 1);
	return r;
}

void instance_row_unref(struct irow *r)
{
	if (!r || atomic_fetch_sub(&r->refs, 1) != 1)
		return;
	instance_clear(&r->x);
	free(r);
}

static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

enum inst_state instance_derive_state(const char *actual, const char *intended, const char *cur,
				   const char *next)
{
	bool want_stop = streq(intended, "stopped");
	bool want_run = streq(intended, "running") || !intended || !*intended;
	if (!actual || !*actual)
		return (want_stop && (streq(cur, "stopped") || streq(next, "stopped"))) ? IS_STOPPED
											: IS_PROVISIONING;
	if (streq(actual, "running"))
		return want_stop ? IS_STOPPING : IS_RUNNING;
	if (streq(actual, "loading"))
		return want_stop ? IS_STOPPING : IS_LOADING;
	if (streq(actual, "rebooting"))
		return IS_REBOOTING;
	if (streq(actual, "stopped") || streq(actual, "exited")) {
		if (want_stop)
			return IS_STOPPED;
		if (want_run && (streq(cur, "stopped") || streq(cur, "unloaded")) &&
		    streq(next, "running"))
			return IS_STARTING;
		if (streq(actual, "stopped"))
			return IS_STOPPED;
		return IS_EXITED;
	}
	if (streq(actual, "created"))
		return want_stop ? IS_STOPPED : IS_CREATED;
	if (streq(actual, "unknown"))
		return IS_UNKNOWN;
	if (streq(actual, "offline"))
		return IS_OFFLINE;
	if (streq(actual, "frozen"))
		return IS_FROZEN;
	return IS_OTHER;
}

enum inst_state instance_state(const struct instance *x)
{
	enum inst_state s = instance_derive_state(x->actual_status, x->intended_status, x->cur_state,
					       x->next_state);
	if (x->is_bid && (s == IS_STOPPED || s == IS_EXITED) && x->status_msg &&
	    strcasestr(x->status_msg, "outbid"))
		return IS_OUTBID;
	return s;
}

const char *instance_state_name(enum inst_state s)
{
	static const char *const names[IS__COUNT] = {
		[IS_PROVISIONING] = "provisioning", [IS_LOADING] = "loading",
		[IS_RUNNING] = "running",           [IS_STOPPING] = "stopping",
		[IS_STOPPED] = "stopped",           [IS_OUTBID] = "outbid",
		[IS_STARTING] = "starting",
		[IS_REBOOTING] = "rebooting",       [IS_EXITED] = "crashed",
		[IS_CREATED] = "failed start",      [IS_UNKNOWN] = "unknown",
		[IS_OFFLINE] = "offline",           [IS_FROZEN] = "frozen",
		[IS_OTHER] = "other",
	};
	return (unsigned)s < IS__COUNT ? names[s] : "other";
}

enum inst_group instance_state_group(enum inst_state s)
{
	switch (s) {
	case IS_RUNNING: return IG_RUNNING;
	case IS_PROVISIONING: case IS_LOADING: case IS_STARTING: case IS_REBOOTING:
		return IG_BOOTING;
	case IS_STOPPED: case IS_STOPPING: return IG_STOPPED;
	case IS_EXITED: case IS_CREATED: case IS_UNKNOWN: case IS_OFFLINE: return IG_FAILED;
	case IS_OUTBID: return IG_OUTBID;
	case IS_FROZEN: case IS_OTHER: case IS__COUNT: break;
	}
	return IG_OTHER;
}

const char *instance_group_name(enum inst_group g)
{
	switch (g) {
	case IG_RUNNING: return "running";
	case IG_BOOTING: return "booting";
	case IG_STOPPED: return "stopped";
	case IG_FAILED: return "failed";
	case IG_OUTBID: return "outbid";
	case IG_OTHER: case IG__COUNT: break;
	}
	return "other";
}

bool instance_state_failed(enum inst_state s)
{
	return instance_state_group(s) == IG_FAILED;
}

bool instance_state_billing_compute(enum inst_state s)
{
	return s == IS_RUNNING || s == IS_LOADING || s == IS_STOPPING || s == IS_REBOOTING;
}

bool instance_ssh_target(const struct instance *x, char *host, size_t n, int *port)
{
	if (x->public_ip[0] && x->direct_ssh_port > 0) {
		util_strlcpy(host, x->public_ip, n);
		*port = x->direct_ssh_port;
		return true;
	}
	if (x->ssh_host[0] && x->ssh_port > 0) {
		util_strlcpy(host, x->ssh_host, n);
		*port = x->ssh_port;
		return true;
	}
	return false;
}

bool instance_ssh_route(const struct instance *x, enum ssh_route r, char *host, size_t n,
			int *port)
{
	switch (r) {
	case SSH_DIRECT:
		if (!x->public_ip[0] || x->direct_ssh_port <= 0)
			return false;
		util_strlcpy(host, x->public_ip, n);
		*port = x->direct_ssh_port;
		return true;
	case SSH_PROXY:
		if (!x->ssh_host[0] || x->ssh_port <= 0)
			return false;
		util_strlcpy(host, x->ssh_host, n);
		*port = x->ssh_port;
		return true;
	case SSH_ASK:
		return instance_ssh_target(x, host, n, port);
	}
	return false;
}

bool instance_ssh_pick(const struct instance *x, enum ssh_route pref, enum ssh_route *out)
{
	char h[8];
	int p;
	bool direct = instance_ssh_route(x, SSH_DIRECT, h, sizeof h, &p);
	bool proxy = instance_ssh_route(x, SSH_PROXY, h, sizeof h, &p);
	if (!direct && !proxy)
		return false;
	if (direct && proxy)
		*out = pref;
	else
		*out = direct ? SSH_DIRECT : SSH_PROXY;
	return true;
}

void instance_kv_free(struct kv *v, size_t n)
{
	(void)n; /* json_map_fields() packs a list, texts and all, in one block */
	free(v);
}

void instance_clear(struct instance *x)
{
	char **strs[] = { &x->label, &x->actual_status, &x->intended_status, &x->cur_state,
			  &x->next_state, &x->status_msg, &x->gpu_name, &x->image, &x->runtype,
			  &x->ssh_host, &x->public_ip, &x->geolocation, &x->verification,
			  &x->template_hash_id, &x->template_name };
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
		if (!intern_has(*strs[i])) /* repeated values are interned (json_map) */
			free(*strs[i]);
		*strs[i] = NULL;
	}
	free(x->ports);
	x->ports = NULL;
	if (x->jupyter_token && !intern_has(x->jupyter_token)) {
		explicit_bzero(x->jupyter_token, strlen(x->jupyter_token));
		free(x->jupyter_token);
	}
	x->jupyter_token = NULL;
	instance_kv_free(x->fields, x->nfields);
	x->fields = NULL;
	x->nfields = 0;
	/* the env list is built item by item (map_env), not packed: free each */
	for (size_t i = 0; i < x->nenv; i++) {
		explicit_bzero(x->env[i].value, strlen(x->env[i].value));
		free(x->env[i].key);
		free(x->env[i].value);
	}
	free(x->env);
	x->env = NULL;
	x->nenv = 0;
}

void instance_free_all(struct instance *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		instance_clear(&v[i]);
	free(v);
}

enum bid_ask instance_bid_ask(const struct instance *x, double bid)
{
	if (isfinite(x->min_bid) && bid < x->min_bid)
		return BID_ASK_LOW;
	if (x->ondemand > 0 && bid > x->ondemand)
		return BID_ASK_HIGH;
	return BID_ASK_NONE;
}

bool instance_was_outbid(const struct instance *x)
{
	return x->state == IS_OUTBID;
}

bool instance_never_started(const struct instance *x)
{
	if (x->state == IS_CREATED)
		return true;
	return x->state == IS_EXITED && x->status_msg &&
	       strncasecmp(x->status_msg, "Error response from daemon", 26) == 0;
}

bool instance_prepay_asks(const struct instance *x)
{
	return instance_state_failed(x->state);
}
