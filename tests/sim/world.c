/* world.c: the simulator's account and market.  It owns the seeded data (the
 * user, instances covering every state, offers, templates, keys, serverless
 * endpoints and their logs), the simulated clock (real or manual), and the
 * lazy advance of time: lifecycle steps, billing per second of simulated
 * time, outbidding of interruptible instances, and stopping everything at
 * zero credit.  Same seed, same world. */
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acct.h"
#include "insttext.h"
#include "simops.h"
#include "tfa.h"
#include "util.h"
#include "workers.h"

/* Lifecycle durations at --speed 1, in seconds. */
#define T_PROVISION 8.0
#define T_LOAD 30.0
#define T_RESTART 12.0
#define T_STOP 4.0
#define T_REBOOT 10.0
#define EPLOG_CAP 500        /* lines kept per endpoint */
#define EPLOG_EVERY 3.0      /* s of sim time between generated log lines */

struct gpu_model {
	const char *name;
	int ram;         /* MB per GPU */
	double price;    /* $/hour per GPU, typical */
	double dlperf;   /* per GPU */
	double tflops;   /* per GPU */
	const char *arch;
	int cc;          /* compute capability x100 */
	double cuda;
};

static const struct gpu_model gpus[] = {
	{ "RTX 4090", 24564, 0.40, 68.0, 82.6, "nvidia", 890, 12.4 },
	{ "RTX 3090", 24576, 0.22, 38.0, 35.6, "nvidia", 860, 12.2 },
	{ "A100 SXM4", 81920, 1.10, 110.0, 156.0, "nvidia", 800, 12.4 },
	{ "H100 SXM", 81559, 2.20, 220.0, 267.0, "nvidia", 900, 12.4 },
	{ "RTX A6000", 49140, 0.45, 52.0, 38.7, "nvidia", 860, 12.2 },
	{ "L40S", 46068, 0.75, 90.0, 91.6, "nvidia", 890, 12.4 },
	{ "RTX 4080", 16376, 0.25, 45.0, 48.7, "nvidia", 890, 12.2 },
	{ "A40", 46068, 0.40, 48.0, 37.4, "nvidia", 860, 12.0 },
	{ "Tesla V100", 16384, 0.18, 26.0, 15.7, "nvidia", 700, 11.8 },
	{ "RTX 3060", 12288, 0.08, 12.0, 12.7, "nvidia", 860, 12.0 },
};
#define NGPUS (sizeof gpus / sizeof gpus[0])

static const char *const geos[] = {
	"Texas, US", "Quebec, CA", "Bavaria, DE", "Oregon, US", "Ontario, CA",
	"Noord-Holland, NL", "Tokyo, JP", "New South Wales, AU", "Ile-de-France, FR",
	"Virginia, US", "Stockholm, SE", "Utah, US",
};
static const char *const images[] = {
	"pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime",
	"vastai/tensorflow:2.15.0-cuda-12.2",
	"nvidia/cuda:12.4.1-devel-ubuntu22.04",
	"vllm/vllm-openai:v0.5.3",
	"ghcr.io/huggingface/text-generation-inference:2.0.4",
	"vastai/comfy:v0.2.2-cuda-12.1",
	"jupyter/base-notebook:latest",
};
static const char *const labels[] = {
	"train-llama-7b", "sd-webui", "vllm-serve", "bert-finetune", "render-farm-03",
	"whisper-batch", "kaggle-dev", "lora-sweep-2", "embeddings", "tgi-mistral",
};
static const char *const cpus[] = {
	"AMD EPYC 7543 32-Core Processor", "AMD Ryzen 9 7950X 16-Core Processor",
	"Intel Xeon Gold 6338 CPU @ 2.00GHz", "AMD EPYC 9354 32-Core Processor",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- small helpers ---------------------------------------------------- */

double round_to(double v, double step)
{
	return round(v / step) * step;
}

bool jnum_value(const json_t *v, double *out)
{
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return true;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		double d = strtod(s, &end);
		if (end != s && *end == '\0') {
			*out = d;
			return true;
		}
	}
	return false;
}

double jnum(const json_t *o, const char *k, double def)
{
	double d;
	return jnum_value(json_object_get(o, k), &d) ? d : def;
}

const char *jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

uint64_t world_rand(struct world *w)
{
	uint64_t z = (w->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double world_randf(struct world *w)
{
	return (double)(world_rand(w) >> 11) / 9007199254740992.0;
}

static long randi(struct world *w, long lo, long hi) /* inclusive */
{
	return lo + (long)(world_rand(w) % (uint64_t)(hi - lo + 1));
}

void world_make_token(struct world *w, char *buf, size_t n, const char *prefix)
{
	static const char hex[] = "0123456789abcdef";
	size_t p = (size_t)snprintf(buf, n, "%s", prefix);
	while (p + 1 < n && p < 64 + strlen(prefix)) {
		buf[p++] = hex[world_rand(w) & 15];
	}
	buf[p < n ? p : n - 1] = '\0';
}

void world_issue(struct world *w, const char *secret)
{
	if (!secret || !*secret || !w->issued || json_object_get(w->issued_set, secret))
		return;
	json_object_set_new(w->issued_set, secret, json_true());
	json_array_append_new(w->issued, json_string(secret));
}

void world_make_key(struct world *w, char *buf, size_t n, const char *prefix)
{
	world_make_token(w, buf, n, prefix);
	world_issue(w, buf);
}

static void set_str(json_t *o, const char *k, const char *v)
{
	json_object_set_new(o, k, v ? json_string(v) : json_null());
}
static void set_num(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, json_real(v));
}
static void set_int(json_t *o, const char *k, long v)
{
	json_object_set_new(o, k, json_integer(v));
}

/* ---- the clock -------------------------------------------------------- */

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double world_now(struct world *w)
{
	double t = w->t0_wall + w->manual_offset;
	if (!w->opt.manual_clock)
		t += mono() - w->t0_mono;
	if (t < w->last_now)
		t = w->last_now;
	w->last_now = t;
	return t;
}

void world_advance_clock(struct world *w, double seconds)
{
	if (seconds > 0)
		w->manual_offset += seconds;
}

/* ---- instances: derived fields, status changes ------------------------ */

static const char *actual(const struct inst *in)
{
	return jstr(in->o, "actual_status");
}

static bool is_running(const struct inst *in)
{
	return in->c_running;
}

/* Recompute storage_total_cost and dph_total from their parts, and the
 * listing's prices ("search", as the docs' show_instances.yaml gives them:
 * the on-demand GPU price, which an interruptible's bid does not change). */
static void recompute_prices(json_t *o)
{
	double storage = jnum(o, "storage_cost", 0) * jnum(o, "disk_space", 0) / 720.0;
	set_num(o, "storage_total_cost", storage);
	set_num(o, "dph_total", jnum(o, "dph_base", 0) + storage);
	json_t *s = json_object_get(o, "search");
	if (json_is_object(s)) {
		double gpu = jnum(s, "gpuCostPerHour", 0);
		set_num(s, "diskHour", storage);
		set_num(s, "totalHour", gpu + storage);
		set_num(s, "discountTotalHour", 0);
		set_num(s, "discountedTotalPerHour", gpu + storage);
	}
}

/* Refresh the cached copies of the fields billing and outbidding read. */
static void cache(struct inst *in)
{
	const char *a = jstr(in->o, "actual_status");
	in->c_running = a && !strcmp(a, "running");
	in->c_bid = json_is_true(json_object_get(in->o, "is_bid"));
	in->c_prepaid = json_is_number(json_object_get(in->o, "credit_balance"));
	in->c_dph_total = jnum(in->o, "dph_total", 0);
	in->c_storage = jnum(in->o, "storage_total_cost", 0);
	in->c_dph_base = jnum(in->o, "dph_base", 0);
}

void world_inst_sync(struct world *w, struct inst *in)
{
	(void)w;
	recompute_prices(in->o);
	cache(in);
}

/* Set the four status fields and the message in one go (NULL actual = null). */
static void set_status(struct inst *in, const char *act_in, const char *intended_in, const char *cur,
		       const char *msg)
{
	/* the arguments may point into in->o's own strings: copy them first */
	char act_buf[64], int_buf[64];
	const char *act = act_in ? (snprintf(act_buf, sizeof act_buf, "%s", act_in), act_buf) : NULL;
	const char *intended = intended_in ? (snprintf(int_buf, sizeof int_buf, "%s", intended_in), int_buf) : NULL;
	set_str(in->o, "actual_status", act);
	if (intended) {
		set_str(in->o, "intended_status", intended);
		set_str(in->o, "next_state", intended);
	}
	if (cur)
		set_str(in->o, "cur_state", cur);
	if (msg)
		set_str(in->o, "status_msg", msg);
	bool run = act && !strcmp(act, "running");
	if (run) {
		json_t *p = in->ports_run;
		if (p)
			json_object_set(in->o, "ports", p);
		else
			json_object_set_new(in->o, "ports", json_object());
	} else {
		json_object_del(in->o, "ports");
	}
	cache(in);
}

/* Port map an instance shows while running: direct SSH, direct Jupyter, and
 * the "-p host:container" keys of its env. */
static json_t *make_ports(struct world *w, const char *runtype, json_t *env)
{
	json_t *ports = json_object();
	long base = randi(w, 20000, 60000);
	char hp[24];
	if (runtype && strstr(runtype, "ssh_direc")) {
		snprintf(hp, sizeof hp, "%ld", base);
		json_object_set_new(ports, "22/tcp",
				    json_pack("[{s:s,s:s}]", "HostIp", "0.0.0.0", "HostPort", hp));
	}
	if (runtype && strstr(runtype, "jupyter_direc")) {
		snprintf(hp, sizeof hp, "%ld", base + 1);
		json_object_set_new(ports, "8080/tcp",
				    json_pack("[{s:s,s:s}]", "HostIp", "0.0.0.0", "HostPort", hp));
	}
	const char *k;
	json_t *v;
	long n = 2;
	json_object_foreach(env, k, v) {
		int host, cont;
		char proto[8] = "tcp";
		if (sscanf(k, "-p %d:%d/%7[a-z]", &host, &cont, proto) >= 2) {
			char key[32];
			snprintf(key, sizeof key, "%d/%s", cont, strcmp(proto, "udp") ? "tcp" : "udp");
			snprintf(hp, sizeof hp, "%ld", base + n++);
			json_object_set_new(ports, key,
					    json_pack("[{s:s,s:s}]", "HostIp", "0.0.0.0", "HostPort", hp));
		}
	}
	return ports;
}

void world_inst_force_status(struct world *w, struct inst *in, const char *status, double now)
{
	(void)w;
	(void)now;
	in->phase = PH_STEADY;
	in->t_next = INFINITY;
	const char *intended = jstr(in->o, "intended_status");
	const char *cur = status && !strcmp(status, "running") ? "running" : "stopped";
	set_status(in, status, intended, cur, NULL);
}

void world_inst_start(struct world *w, struct inst *in, double now)
{
	const char *a = actual(in);
	if (in->phase == PH_STOPPING) {
		in->phase = PH_STEADY;
		in->t_next = INFINITY;
		set_status(in, a, "running", "running", NULL);
		return;
	}
	if (a && !strcmp(a, "exited") && (in->outbid || in->phase == PH_STEADY) &&
	    jstr(in->o, "intended_status") && !strcmp(jstr(in->o, "intended_status"), "stopped")) {
		in->outbid = false;
		in->phase = PH_LOADING;
		in->plan = BOOT_OK;
		in->t_next = now + T_RESTART / w->opt.speed;
		set_status(in, "loading", "running", "stopped", "Starting container");
		return;
	}
	/* Provisioning or loading: keep going, now towards running.  Crashed,
	 * created, unknown and offline instances never reach running. */
	set_str(in->o, "intended_status", "running");
	set_str(in->o, "next_state", "running");
}

void world_inst_stop(struct world *w, struct inst *in, double now, const char *msg)
{
	const char *a = actual(in);
	set_str(in->o, "intended_status", "stopped");
	set_str(in->o, "next_state", "stopped");
	if (a && !strcmp(a, "running")) {
		in->phase = PH_STOPPING;
		in->t_next = now + T_STOP / w->opt.speed;
		if (msg)
			set_str(in->o, "status_msg", msg);
	} else if (!a || !strcmp(a, "loading") || !strcmp(a, "rebooting")) {
		in->phase = PH_STOPPING;
		in->t_next = now + T_STOP / w->opt.speed;
	}
}

void world_inst_reboot(struct world *w, struct inst *in, double now)
{
	in->phase = PH_LOADING;
	in->plan = BOOT_OK;
	in->t_next = now + T_REBOOT / w->opt.speed;
	set_status(in, "rebooting", NULL, NULL, "Rebooting");
}

/* One lifecycle step, taken at time t. */
static void step(struct world *w, struct inst *in, double t)
{
	const char *intended = jstr(in->o, "intended_status");
	bool want_run = !intended || !strcmp(intended, "running");
	switch (in->phase) {
	case PH_PROVISION:
		in->phase = PH_LOADING;
		in->t_next = t + T_LOAD / w->opt.speed;
		set_status(in, "loading", NULL, NULL, "Pulling image layers");
		set_num(in->o, "disk_usage", 0.2);
		return;
	case PH_LOADING:
		in->phase = PH_STEADY;
		in->t_next = INFINITY;
		if (in->plan == BOOT_CRASH) {
			/* a crashed container keeps its contract (cur_state running): only
			 * intended running + exited tells it from a user stop */
			set_status(in, "exited", NULL, "running",
				   "Error: container exited with code 1: python: can't open file "
				   "'/workspace/train.py': [Errno 2] No such file or directory");
		} else if (in->plan == BOOT_DOCKER) {
			set_status(in, "created", NULL, "stopped",
				   "Error response from daemon: failed to create task for container: "
				   "OCI runtime create failed: nvidia-container-cli: device error: "
				   "unknown device");
		} else if (in->plan == BOOT_PULL) {
			char msg[512];
			snprintf(msg, sizeof msg,
				 "Error response from daemon: pull access denied for %s, repository does "
				 "not exist or may require 'docker login': denied: requested access to the "
				 "resource is denied",
				 jstr(in->o, "image_uuid") ? jstr(in->o, "image_uuid") : "?");
			set_status(in, "created", NULL, "stopped", msg);
		} else if (want_run) {
			set_status(in, "running", NULL, "running", "success, running");
			in->running_since = t;
		} else {
			set_status(in, "exited", NULL, "stopped", "Stopped");
		}
		return;
	case PH_STOPPING:
		in->phase = PH_STEADY;
		in->t_next = INFINITY;
		set_status(in, "exited", NULL, "stopped", NULL);
		return;
	case PH_STEADY:
		in->t_next = INFINITY;
		return;
	}
}

/* Charge the account (and the instance's prepaid balance first) for the
 * time from in->last_bill to t. */
static void bill(struct world *w, struct inst *in, double t)
{
	double dt = t - in->last_bill;
	if (dt <= 0)
		return;
	double t0 = in->last_bill;
	in->last_bill = t;
	double rate = in->c_running ? in->c_dph_total : in->c_storage;
	double cost = rate * dt / 3600.0, full = cost, charged = cost;
	json_t *cbj = in->c_prepaid ? json_object_get(in->o, "credit_balance") : NULL;
	bool balance_paid = json_is_number(cbj) && json_number_value(cbj) > 0;
	if (balance_paid) {
		double cb = json_number_value(cbj);
		charged = cb;
		double disc = jnum(in->o, "credit_discount", 0);
		double dcost = cost * (1.0 - disc);
		if (dcost <= cb) {
			cb -= dcost;
			cost = 0;
		} else {
			cost = cost * (1.0 - cb / dcost);
			cb = 0;
		}
		set_num(in->o, "credit_balance", cb);
		charged = charged - cb + cost; /* from the prepaid balance, then the credit */
	}
	if (w->credit > 0 && full > 0) { /* the ledger: what was taken, split as the rate is */
		double taken = acct_charge_inst(w, in, t0, t,
						(in->c_running ? in->c_dph_base * dt / 3600.0 : 0) * charged / full,
						in->c_storage * dt / 3600.0 * charged / full);
		if (!balance_paid) /* the credit alone paid: it moves as the ledger, in $0.001 */
			cost = taken;
	}
	if (in->c_running)
		in->run_secs += dt;
	w->credit -= cost;
}

/* Time at which a running interruptible instance is outbid, or INFINITY. */
static double outbid_time(const struct inst *in)
{
	if (!in->c_running || !in->c_bid || in->outbid || in->compete_at == INFINITY)
		return INFINITY;
	if (!(in->compete_price > in->c_dph_base))
		return INFINITY;
	return in->compete_at > in->last_bill ? in->compete_at : in->last_bill;
}

/* Time at which a running instance's host drops out, or INFINITY. */
static double drop_time(const struct inst *in)
{
	if (!in->c_running || in->drop_at == INFINITY)
		return INFINITY;
	return in->drop_at > in->last_bill ? in->drop_at : in->last_bill;
}

static void advance_inst(struct world *w, struct inst *in, double now)
{
	for (int guard = 0; guard < 16; guard++) {
		double tb = outbid_time(in), td = drop_time(in);
		double te = in->t_next < tb ? in->t_next : tb;
		if (td < te)
			te = td;
		if (te > now)
			break;
		bill(w, in, te);
		if (te == td) {
			in->drop_at = INFINITY;
			in->phase = PH_STEADY;
			in->t_next = INFINITY;
			set_status(in, in->drop_offline ? "offline" : "unknown", NULL, NULL,
				   in->drop_offline ? "Host is offline" : "No heartbeat from host");
		} else if (te == tb && tb <= in->t_next) {
			in->outbid = true;
			in->phase = PH_STEADY;
			in->t_next = INFINITY;
			/* the winning bid is now the machine's minimum */
			if (jnum(in->o, "min_bid", 0) < in->compete_price)
				set_num(in->o, "min_bid", in->compete_price);
			set_status(in, "exited", "stopped", "stopped",
				   "Outbid: a higher bid took this machine; the instance is stopped and "
				   "keeps its disk");
		} else {
			step(w, in, te);
		}
	}
	bill(w, in, now);
}

void world_advance(struct world *w, double now)
{
	for (size_t i = 0; i < w->ninst; i++)
		advance_inst(w, w->inst[i], now);
	workers_sync(w, now);
	ops_advance(w, now);
	acct_advance(w, now);
	if (w->credit <= 0) {
		w->credit = 0;
		for (size_t i = 0; i < w->ninst; i++) {
			struct inst *in = w->inst[i];
			if (is_running(in) || in->phase == PH_PROVISION || in->phase == PH_LOADING) {
				in->phase = PH_STEADY;
				in->t_next = INFINITY;
				set_status(in, "exited", "stopped", "stopped",
					   "Stopped: account balance exhausted");
			}
		}
	}
	world_set_credit(w, w->credit);
}

void world_set_credit(struct world *w, double credit)
{
	w->credit = credit;
	set_num(w->user, "credit", credit);
}

/* The live figures a read writes: in place when the field already holds a
 * value of that type that nothing else references (no allocation per field
 * per read), else a new value as set_num/set_int/set_str do. */
static void view_num(json_t *o, const char *k, double v)
{
	json_t *x = json_object_get(o, k);
	if (json_is_real(x) && x->refcount == 1)
		json_real_set(x, v);
	else
		set_num(o, k, v);
}

static void view_null(json_t *o, const char *k)
{
	if (!json_is_null(json_object_get(o, k)))
		json_object_set_new(o, k, json_null());
}

void world_inst_view(struct world *w, struct inst *in, double now)
{
	json_t *o = in->o;
	double end = jnum(o, "end_date", now);
	view_num(o, "duration", end - now);
	if (is_running(in)) {
		double since = isnan(in->running_since) ? now : in->running_since;
		double phase = (double)(in->id % 97) + now / 37.0;
		view_num(o, "uptime_mins", round_to((now - since) / 60.0, 0.01));
		view_num(o, "cur_load", round_to(0.5 + 0.45 * sin(phase * 1.3), 0.01));
	} else {
		if (!w->keep_uptime)
			view_null(o, "uptime_mins");
	}
	util_view(in, now, is_running(in), w->opt.speed);
}

size_t world_lower(const struct world *w, long long id)
{
	size_t lo = 0, hi = w->ninst;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (w->inst[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct inst *world_find(struct world *w, long id)
{
	size_t lo = world_lower(w, id);
	return lo < w->ninst && w->inst[lo]->id == id ? w->inst[lo] : NULL;
}

static void inst_free(struct inst *in)
{
	json_decref(in->o);
	json_decref(in->ports_run);
	free(in->image_login);
	insttext_free(in->text);
	util_free(in->util);
	free(in);
}

bool world_remove(struct world *w, long id)
{
	struct inst *in = world_find(w, id);
	if (!in)
		return false;
	size_t i = 0;
	while (w->inst[i] != in)
		i++;
	memmove(&w->inst[i], &w->inst[i + 1], (w->ninst - i - 1) * sizeof *w->inst);
	w->ninst--;
	inst_free(in);
	world_touch_labels(w);
	return true;
}

void world_touch_labels(struct world *w) { w->labels_gen++; }

void world_count_label(json_t *counts, const json_t *o)
{
	const char *l = json_string_value(json_object_get(o, "label"));
	if (!l)
		l = ""; /* unlabelled (null): the docs key these by the empty string */
	json_t *cnt = json_object_get(counts, l);
	if (cnt)
		json_integer_set(cnt, json_integer_value(cnt) + 1);
	else
		json_object_set_new(counts, l, json_integer(1));
}

/* {label: count} of w->inst[a..b), in the order the labels come. */
static json_t *count_labels(const struct world *w, size_t a, size_t b)
{
	json_t *counts = json_object();
	for (size_t i = a; i < b; i++)
		world_count_label(counts, w->inst[i]->o);
	return counts;
}

const json_t *world_label_counts(struct world *w)
{
	if (w->label_counts && w->label_counts_gen == w->labels_gen)
		return w->label_counts;
	json_decref(w->label_counts);
	w->label_counts = count_labels(w, 0, w->ninst);
	w->label_counts_gen = w->labels_gen;
	return w->label_counts;
}

const json_t *world_range_label_counts(struct world *w, size_t a, size_t b)
{
	if (a == 0 && b == w->ninst)
		return world_label_counts(w);
	size_t n = sizeof w->range_counts / sizeof *w->range_counts;
	for (size_t i = 0; i < n; i++) {
		const struct range_counts *r = &w->range_counts[i];
		if (r->counts && r->a == a && r->b == b && r->gen == w->labels_gen)
			return r->counts;
	}
	struct range_counts *r = &w->range_counts[w->range_next++ % n];
	json_decref(r->counts);
	r->a = a;
	r->b = b;
	r->gen = w->labels_gen;
	r->counts = count_labels(w, a, b);
	return r->counts;
}

static struct inst *inst_append(struct world *w, long id)
{
	if (w->ninst == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		w->inst = realloc(w->inst, w->cap * sizeof *w->inst);
		if (!w->inst)
			abort();
	}
	struct inst *in = calloc(1, sizeof *in);
	if (!in)
		abort();
	in->id = id;
	in->t_next = INFINITY;
	in->compete_at = INFINITY;
	in->drop_at = INFINITY;
	in->running_since = NAN;
	w->inst[w->ninst++] = in;
	world_touch_labels(w);
	return in;
}

/* ---- offers ------------------------------------------------------------ */

/* The machine part shared by offers and instances. */
static void machine_fields(struct world *w, json_t *o, const struct gpu_model *g, int num)
{
	long machine = randi(w, 10000, 59999);
	set_int(o, "machine_id", machine);
	set_int(o, "host_id", 1000 + machine % 9000);
	set_int(o, "num_gpus", num);
	set_str(o, "gpu_name", g->name);
	set_int(o, "gpu_ram", g->ram);
	set_int(o, "gpu_totalram", (long)g->ram * num);
	set_str(o, "gpu_arch", g->arch);
	set_num(o, "cpu_cores_effective", (double)(num * randi(w, 4, 16)));
	set_int(o, "cpu_ram", (long)num * randi(w, 32, 128) * 1024);
	set_str(o, "cpu_name", cpus[world_rand(w) % NELEM(cpus)]);
	set_num(o, "inet_up", (double)randi(w, 100, 9000));
	set_num(o, "inet_down", (double)randi(w, 200, 9500));
	set_num(o, "reliability2", round_to(0.9 + 0.0999 * world_randf(w), 0.0001));
	set_str(o, "geolocation", geos[world_rand(w) % NELEM(geos)]);
	double v = world_randf(w);
	set_str(o, "verification", v < 0.8 ? "verified" : v < 0.95 ? "unverified" : "deverified");
	char ip[32];
	snprintf(ip, sizeof ip, "%s.%ld", (world_rand(w) & 1) ? "203.0.113" : "198.51.100", randi(w, 2, 254));
	set_str(o, "public_ipaddr", ip);
	set_num(o, "storage_cost", round_to(0.05 + 0.25 * world_randf(w), 0.01));
	set_num(o, "cuda_max_good", g->cuda);
	set_str(o, "driver_version", g->cuda >= 12.4 ? "550.90.07" : "535.183.01");
	set_int(o, "compute_cap", g->cc);
	set_num(o, "dlperf", round_to(g->dlperf * num * (0.85 + 0.3 * world_randf(w)), 0.01));
	set_num(o, "total_flops", round_to(g->tflops * num, 0.1));
}

static json_t *make_offer(struct world *w, long id, double now)
{
	const struct gpu_model *g = &gpus[world_rand(w) % NGPUS];
	static const int nums[] = { 1, 1, 1, 2, 2, 4, 8 };
	int num = nums[world_rand(w) % NELEM(nums)];
	json_t *o = json_object();
	set_int(o, "id", id);
	set_int(o, "ask_contract_id", id);
	machine_fields(w, o, g, num);
	double base = round_to(g->price * num * (0.7 + 0.6 * world_randf(w)), 0.0001);
	set_num(o, "dph_base", base);
	set_num(o, "min_bid", round_to(base * (0.35 + 0.3 * world_randf(w)), 0.0001));
	double disk = (double)(50 * randi(w, 1, 40));
	set_num(o, "disk_space", disk);
	set_num(o, "disk_bw", (double)randi(w, 500, 6000));
	/* dph_total of an offer prices the CLI's default 5 GB of storage */
	set_num(o, "dph_total", round_to(base + jnum(o, "storage_cost", 0) * 5.0 / 720.0, 0.000001));
	set_num(o, "reliability", jnum(o, "reliability2", 0.95));
	bool verified = !strcmp(jstr(o, "verification"), "verified");
	json_object_set_new(o, "verified", json_boolean(verified));
	bool rented = world_randf(w) < 0.05;
	json_object_set_new(o, "rented", json_boolean(rented));
	json_object_set_new(o, "rentable", json_boolean(!rented));
	json_object_set_new(o, "external", json_boolean(world_randf(w) < 0.1));
	json_object_set_new(o, "static_ip", json_boolean(world_randf(w) < 0.5));
	json_object_set_new(o, "vms_enabled", json_boolean(world_randf(w) < 0.3));
	set_int(o, "direct_port_count", randi(w, 0, 500));
	set_num(o, "pcie_bw", round_to(3 + 22 * world_randf(w), 0.1));
	set_num(o, "cpu_ghz", round_to(2.0 + 2.5 * world_randf(w), 0.1));
	double dur = 86400.0 * (double)randi(w, 3, 180);
	set_num(o, "duration", dur);
	set_num(o, "end_date", now + dur);
	set_num(o, "credit_discount_max", round_to(0.1 + 0.3 * world_randf(w), 0.01));
	double dlperf = jnum(o, "dlperf", 1);
	double total = jnum(o, "dph_total", 1);
	set_num(o, "dlperf_per_dphtotal", round_to(dlperf / total, 0.01));
	set_num(o, "flops_per_dphtotal", round_to(jnum(o, "total_flops", 1) / total, 0.01));
	set_num(o, "score", round_to(dlperf / total * jnum(o, "reliability", 0.9), 0.01));
	return o;
}

/* The index of offer id in w->offers (bisect: ids increase), or the
 * index where it would be. */
static size_t offer_index(struct world *w, long id)
{
	size_t lo = 0, hi = json_array_size(w->offers);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		long mid_id = (long)json_integer_value(json_object_get(json_array_get(w->offers, mid), "id"));
		if (mid_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

json_t *world_offer_by_id(struct world *w, long id)
{
	json_t *o = json_array_get(w->offers, offer_index(w, id));
	return o && json_integer_value(json_object_get(o, "id")) == id ? o : NULL;
}

/* An offer has changed: drop its cached text, read its columns again
 * (a replaced value is a new object). */
static void offer_changed(struct world *w, const json_t *o)
{
	size_t i = offer_index(w, (long)json_integer_value(json_object_get(o, "id")));
	if (json_array_get(w->offers, i) != o)
		return; /* not one of the offers (an instance's machine) */
	if (i < w->noffer_text) {
		free(w->offer_text[i]);
		w->offer_text[i] = NULL;
	}
	for (size_t k = 0; k < w->noffer_cols; k++)
		w->offer_cols[k].v[i] = json_object_get(o, w->offer_cols[k].field);
}

/* Forget every cache over the offers. */
static void offer_caches_free(struct world *w)
{
	for (size_t i = 0; i < w->noffer_text; i++)
		free(w->offer_text[i]);
	free(w->offer_text);
	free(w->offer_text_len);
	w->offer_text = NULL;
	w->offer_text_len = NULL;
	w->noffer_text = 0;
	for (size_t k = 0; k < w->noffer_cols; k++) {
		free(w->offer_cols[k].field);
		free(w->offer_cols[k].v);
	}
	free(w->offer_cols);
	w->offer_cols = NULL;
	w->noffer_cols = 0;
}

const json_t *const *world_offer_column(struct world *w, const char *field)
{
	if (w->noffer_cols && w->offer_cols_n != json_array_size(w->offers))
		offer_caches_free(w); /* built over another list */
	for (size_t k = 0; k < w->noffer_cols; k++)
		if (!strcmp(w->offer_cols[k].field, field))
			return w->offer_cols[k].v;
	size_t n = json_array_size(w->offers);
	struct offer_col *cols = realloc(w->offer_cols, (w->noffer_cols + 1) * sizeof *cols);
	if (!cols)
		abort();
	w->offer_cols = cols;
	struct offer_col *c = &cols[w->noffer_cols];
	c->field = strdup(field);
	c->v = calloc(n ? n : 1, sizeof *c->v);
	if (!c->field || !c->v)
		abort();
	for (size_t i = 0; i < n; i++)
		c->v[i] = json_object_get(json_array_get(w->offers, i), field);
	w->noffer_cols++;
	w->offer_cols_n = n;
	return c->v;
}

const char *world_offer_text(struct world *w, size_t i, size_t *len)
{
	size_t n = json_array_size(w->offers);
	const json_t *o = json_array_get(w->offers, i);
	if (!o)
		return NULL;
	if (w->noffer_text != n) {
		for (size_t k = 0; k < w->noffer_text; k++)
			free(w->offer_text[k]);
		free(w->offer_text);
		free(w->offer_text_len);
		w->offer_text = calloc(n, sizeof *w->offer_text);
		w->offer_text_len = calloc(n, sizeof *w->offer_text_len);
		if (!w->offer_text || !w->offer_text_len)
			abort();
		w->noffer_text = n;
	}
	if (!w->offer_text[i]) {
		json_t *c = json_copy((json_t *)o);
		json_object_del(c, "dph_total");
		json_object_del(c, "is_bid");
		w->offer_text[i] = json_dumps(c, JSON_COMPACT | JSON_REAL_PRECISION(15));
		json_decref(c);
		if (!w->offer_text[i])
			abort();
		w->offer_text_len[i] = strlen(w->offer_text[i]);
	}
	*len = w->offer_text_len[i];
	return w->offer_text[i];
}

/* ---- instance creation ------------------------------------------------ */

/* A complete instance object on a machine described by an offer-like
 * object; status fields are left to the caller. */
static json_t *inst_base(struct world *w, long id, json_t *m, double now, double age)
{
	json_t *o = json_object();
	set_int(o, "id", id);
	static const char *const copy[] = { "machine_id", "host_id", "num_gpus", "gpu_name", "gpu_ram",
					    "gpu_totalram", "cpu_cores_effective", "cpu_ram", "inet_up",
					    "inet_down", "reliability2", "geolocation", "verification",
					    "public_ipaddr", "storage_cost", "dph_base", "min_bid",
					    "cuda_max_good", "driver_version", "cpu_name", "gpu_arch",
					    "compute_cap", "dlperf", "total_flops" };
	for (size_t i = 0; i < NELEM(copy); i++) {
		json_t *v = json_object_get(m, copy[i]);
		json_object_set(o, copy[i], v ? v : json_null());
	}
	long sshn = randi(w, 1, 9);
	char host[32];
	snprintf(host, sizeof host, "ssh%ld.vast.ai", sshn);
	set_str(o, "ssh_host", host);
	set_int(o, "ssh_port", randi(w, 10000, 39999));
	/* the machine's rsync-over-ssh port (the CLI's copy to and from local) */
	set_int(o, "machine_dir_ssh_port", 5000 + (long)jnum(m, "machine_id", 0) % 4000);
	char idx[8];
	snprintf(idx, sizeof idx, "%ld", sshn);
	set_str(o, "ssh_idx", idx);
	set_num(o, "start_date", round_to(now - age, 0.001));
	set_num(o, "end_date", round_to(now - age + jnum(m, "duration", 30 * 86400.0), 0.001));
	set_num(o, "disk_space", 32);
	set_num(o, "disk_usage", -1);
	json_t *srch = json_object();
	set_num(srch, "gpuCostPerHour", jnum(m, "dph_base", 0)); /* the listing's on-demand price */
	json_object_set_new(o, "search", srch);
	json_object_set_new(o, "is_bid", json_false());
	json_object_set_new(o, "gpu_util", json_null());
	json_object_set_new(o, "gpu_temp", json_null());
	json_object_set_new(o, "uptime_mins", json_null());
	json_object_set_new(o, "extra_env", json_array());
	json_object_set_new(o, "onstart", json_null());
	json_object_set_new(o, "template_id", json_null());
	json_object_set_new(o, "template_hash_id", json_null());
	json_object_set_new(o, "template_name", json_null());
	json_object_set_new(o, "label", json_null());
	json_object_set_new(o, "volume_info", json_null());
	json_object_set_new(o, "status_msg", json_null());
	json_object_set_new(o, "vm", json_false());
	char tok[80];
	world_make_token(w, tok, sizeof tok, "");
	tok[32] = '\0';
	world_issue(w, tok);
	set_str(o, "jupyter_token", tok);
	char uuid[80];
	set_str(o, "image_uuid", images[0]);
	(void)uuid;
	set_str(o, "image_runtype", "ssh_direc ssh_proxy");
	return o;
}

struct inst *world_inst_create(struct world *w, json_t *offer, json_t *fields, double now,
			       bool bid, double price)
{
	long id = w->next_id;
	w->next_id += 1 + (long)(world_rand(w) % 7);
	struct inst *in = inst_append(w, id);
	in->o = inst_base(w, id, offer, now, 0);
	json_object_update(in->o, fields);
	json_object_set_new(in->o, "is_bid", json_boolean(bid));
	if (bid)
		set_num(in->o, "dph_base", price);
	in->created = now;
	in->last_bill = now;
	util_seed(in, -1, now, 0);
	world_make_token(w, in->key, sizeof in->key, "ik_");
	in->key[40] = '\0';
	world_issue(w, in->key);
	json_t *env = json_object_get(fields, "_env_obj");
	in->ports_run = make_ports(w, jstr(in->o, "image_runtype"), env);
	if (jstr(env, "JUPYTER_TOKEN")) /* the env sets the Jupyter token (the docs' networking guide) */
		set_str(in->o, "jupyter_token", jstr(env, "JUPYTER_TOKEN"));
	json_object_del(in->o, "_env_obj");
	recompute_prices(in->o);
	cache(in);
	double r = world_randf(w);
	in->plan = r < w->opt.fail_rate / 2 ? BOOT_CRASH : r < w->opt.fail_rate ? BOOT_DOCKER : BOOT_OK;
	in->start_unavailable = world_randf(w) < w->opt.fail_rate / 2;
	if (world_randf(w) < w->opt.fail_rate / 4) {
		/* the host drops out two hours after the boot */
		in->drop_at = now + (T_PROVISION + T_LOAD + 7200.0) / w->opt.speed;
		in->drop_offline = world_rand(w) & 1;
	}
	if (bid) {
		in->compete_at = now + 3600.0 / w->opt.speed;
		in->compete_price = round_to(jnum(offer, "min_bid", price) * 1.25, 0.0001);
	}
	const char *target = jstr(fields, "intended_status");
	set_str(in->o, "intended_status", target ? target : "running");
	set_str(in->o, "next_state", target ? target : "running");
	set_str(in->o, "cur_state", "stopped");
	set_status(in, NULL, NULL, NULL, NULL);
	json_object_set_new(in->o, "status_msg", json_null());
	in->phase = PH_PROVISION;
	in->t_next = now + T_PROVISION / w->opt.speed;
	json_object_set_new(offer, "rented", json_true());
	json_object_set_new(offer, "rentable", json_false());
	offer_changed(w, offer);
	return in;
}

/* The seeded instance number i: the first twelve cover every state. */
static void seed_instance(struct world *w, int i, double now)
{
	json_t *m = make_offer(w, 0, now);
	long id = w->next_id;
	w->next_id += 1 + (long)(world_rand(w) % 13);
	struct inst *in = inst_append(w, id);
	double age = 600 + world_randf(w) * 5 * 86400;
	in->o = inst_base(w, id, m, now, age);
	json_t *o = in->o;
	in->created = now - age;
	in->last_bill = now;
	world_make_token(w, in->key, sizeof in->key, "ik_");
	in->key[40] = '\0';
	world_issue(w, in->key);
	const char *img = images[world_rand(w) % NELEM(images)];
	set_str(o, "image_uuid", img);
	double dr = world_randf(w);
	const char *rt = dr < 0.5 ? "ssh_direc ssh_proxy" : dr < 0.8 ? "jupyter_direc ssh_direc ssh_proxy" : "args";
	set_str(o, "image_runtype", rt);
	static const double disks[] = { 16, 32, 50, 64, 100, 200 };
	set_num(o, "disk_space", disks[world_rand(w) % NELEM(disks)]);
	if (world_randf(w) < 0.85)
		set_str(o, "label", labels[world_rand(w) % NELEM(labels)]);
	json_object_set_new(o, "extra_env",
			    json_pack("[[s,s],[s,s]]", "HF_HOME", "/workspace/.hf", "PYTHONUNBUFFERED", "1"));
	set_str(o, "onstart", "bash /workspace/onstart.sh");
	set_num(o, "disk_usage", round_to(jnum(o, "disk_space", 32) * (0.1 + 0.6 * world_randf(w)), 0.01));
	json_t *env = json_object();
	if (!strcmp(rt, "args") || strstr(img, "vllm"))
		json_object_set_new(env, "-p 8000:8000", json_string("1")); /* an HTTP API (vLLM's) */
	else if (strstr(img, "comfy"))
		json_object_set_new(env, "-p 8188:8188", json_string("1")); /* ComfyUI's web UI */
	in->ports_run = make_ports(w, rt, env);
	json_decref(env);
	in->plan = BOOT_OK;

	/* which state */
	int kind = i;
	if (i >= 12) {
		double r = world_randf(w);
		kind = r < 0.70 ? (int)(world_rand(w) % 5) : r < 0.85 ? 7 : 5 + (int)(world_rand(w) % 7);
	}
	bool bid = kind == 2 || kind == 3 || (i >= 12 && kind <= 4 && world_randf(w) < 0.25);
	if (bid) {
		json_object_set_new(o, "is_bid", json_true());
		double mb = jnum(o, "min_bid", 0.1);
		set_num(o, "dph_base", round_to(mb * 1.1, 0.0001));
		/* kind 2 is outbid an hour in (scaled); the others hold their machine */
		in->compete_at = kind == 2 ? now + 3600.0 / w->opt.speed : INFINITY;
		in->compete_price = round_to(mb * 1.4, 0.0001);
	}
	recompute_prices(o);
	cache(in);
	switch (kind) {
	case 0: case 1: case 2: case 3: case 4:
		set_status(in, "running", "running", "running", "success, running");
		in->running_since = now - age * 0.9;
		if (i >= 12 && world_randf(w) < 0.03) {
			in->drop_at = now + (3600.0 + 18000.0 * world_randf(w)) / w->opt.speed;
			in->drop_offline = world_rand(w) & 1;
		}
		break;
	case 5:
		set_status(in, NULL, "running", "stopped", NULL);
		json_object_set_new(o, "status_msg", json_null());
		set_num(o, "disk_usage", -1);
		set_num(o, "start_date", now - 5);
		in->phase = PH_PROVISION;
		in->t_next = now + T_PROVISION / w->opt.speed;
		break;
	case 6:
		set_status(in, "loading", "running", "stopped", "Pulling image layers: 6/11 complete");
		set_num(o, "start_date", now - 40);
		in->phase = PH_LOADING;
		in->t_next = now + (T_LOAD * 0.6) / w->opt.speed;
		break;
	case 7:
		set_status(in, "exited", "stopped", "stopped", "Stopped by user");
		break;
	case 8:
		set_status(in, "exited", "running", "running",
			   "Error: process exited with code 137 (out of memory: killed by the kernel)");
		break;
	case 9:
		set_status(in, "created", "running", "stopped",
			   "Error response from daemon: pull access denied for private/trainer, repository "
			   "does not exist or may require 'docker login'");
		break;
	case 10:
		set_status(in, "offline", "running", "running", "Host is offline");
		break;
	default:
		set_status(in, "unknown", "running", "running", "No heartbeat from host for 12 minutes");
		break;
	}
	in->start_unavailable = kind != 7 && world_randf(w) < 0.2;
	util_seed(in, i, now, jnum(o, "disk_usage", -1));
	json_decref(m);
}

/* A serverless worker's instance (world.h). */
struct inst *world_worker_create(struct world *w, const json_t *ep, const json_t *g, long i, double now, double age)
{
	long eid = (long)jnum(ep, "id", -1), gid = (long)jnum(g, "id", -1);
	/* its own random stream: the account's draws stay as they were */
	uint64_t keep = w->rng;
	w->rng = (w->opt.seed * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)gid << 20) ^ ((uint64_t)i * 0xbf58476d1ce4e5b9ULL) ^
		 (uint64_t)w->next_id;
	w->rng |= 1;
	json_t *m = make_offer(w, 0, now);
	long id = w->next_id;
	w->next_id += 1 + (long)(world_rand(w) % 5);
	struct inst *in = inst_append(w, id);
	in->o = inst_base(w, id, m, now, age);
	json_decref(m);
	json_t *o = in->o;
	in->created = now - age;
	in->last_bill = now;
	world_make_token(w, in->key, sizeof in->key, "ik_");
	in->key[40] = '\0';
	world_issue(w, in->key);
	/* what the workergroup launches: its template's image on the GPU and
	 * price its worker row reports (workers.h) */
	const char *hash = jstr(g, "template_hash"), *img = NULL;
	size_t k;
	json_t *t;
	json_array_foreach(w->templates, k, t)
		if (hash && jstr(t, "hash_id") && !strcmp(jstr(t, "hash_id"), hash)) {
			img = jstr(t, "image");
			json_object_set(o, "template_id", json_object_get(t, "id"));
			set_str(o, "template_hash_id", hash);
			json_object_set(o, "template_name", json_object_get(t, "name"));
		}
	set_str(o, "image_uuid", img ? img : images[0]);
	set_str(o, "image_runtype", "args");
	set_str(o, "gpu_name", workers_gpu(eid, i));
	set_int(o, "num_gpus", 1);
	set_num(o, "dph_base", workers_gpu_dph(eid, i));
	set_num(o, "disk_space", WORKER_DISK_GB);
	set_num(o, "storage_cost", WORKER_STORAGE_COST);
	json_t *srch = json_object_get(o, "search");
	set_num(srch, "gpuCostPerHour", workers_gpu_dph(eid, i));
	set_num(o, "disk_usage", round_to(WORKER_DISK_GB * 0.5, 0.01));
	/* which endpoint and workergroup it serves (the charges' metadata names) */
	set_int(o, "endpoint_id", eid);
	set_int(o, "workergroup_id", gid);
	json_t *env = json_object();
	json_object_set_new(env, "-p 8000:8000", json_string("1")); /* the worker's HTTP API */
	in->ports_run = make_ports(w, "args", env);
	json_decref(env);
	in->plan = BOOT_OK;
	recompute_prices(o);
	cache(in);
	set_status(in, "running", "running", "running", "success, running");
	in->running_since = now - age;
	util_seed(in, 0, now, jnum(o, "disk_usage", -1)); /* busy and cool: it serves */
	w->rng = keep;
	return in;
}

/* ---- templates, endpoints, keys ---------------------------------------- */

/* The recommended templates are the platform's, not the operator's. */
#define PLATFORM_CREATOR_ID 1

static void seed_templates(struct world *w, double now)
{
	static const struct {
		const char *name, *image, *tag, *env, *onstart, *runtype;
		bool recommended;
	} t[] = {
		{ "PyTorch (CUDA 12.1)", "pytorch/pytorch", "2.3.1-cuda12.1-cudnn8-runtime",
		  "-e JUPYTER_DIR=/ -p 8080:8080", "pip install -r /workspace/requirements.txt", "jupyter", true },
		{ "TensorFlow", "vastai/tensorflow", "2.15.0-cuda-12.2", "-e TF_CPP_MIN_LOG_LEVEL=2", "",
		  "ssh", true },
		{ "vLLM OpenAI server", "vllm/vllm-openai", "v0.5.3",
		  "-e MODEL=mistralai/Mistral-7B-Instruct-v0.3 -p 8000:8000", "", "args", true },
		{ "ComfyUI", "vastai/comfy", "v0.2.2-cuda-12.1", "-p 8188:8188", "bash /opt/start.sh", "ssh", false },
		{ "CUDA devel", "nvidia/cuda", "12.4.1-devel-ubuntu22.04", "", "", "ssh", false },
	};
	for (size_t i = 0; i < NELEM(t); i++) {
		json_t *o = json_pack("{s:I,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:b,s:b,s:s,s:b,s:s,s:s,s:s,s:f,s:b,s:I,s:f,s:I,s:f,s:b,s:s,s:s}",
				      "id", (json_int_t)(w->next_template_id++), "name", t[i].name,
				      "image", t[i].image, "tag", t[i].tag, "env", t[i].env,
				      "onstart", t[i].onstart, "runtype", t[i].runtype,
				      "ssh_direct", true, "use_ssh", true, "jup_direct", !strcmp(t[i].runtype, "jupyter"),
				      "jupyter_dir", "/", "use_jupyter_lab", true, "docker_login_repo", "",
				      "docker_login_user", "", "docker_login_pass", "",
				      "recommended_disk_space", 32.0, "recommended", t[i].recommended,
				      "creator_id", (json_int_t)(t[i].recommended ? PLATFORM_CREATOR_ID : 148213),
				      "created_at", now - 86400.0 * (double)(40 - i),
				      "count_created", (json_int_t)(100 + 37 * i), "recent_create_date", now - 3600.0 * (double)i,
				      "private", false, "default_tag", t[i].tag, "desc", "");
		json_object_set_new(o, "extra_filters", json_pack("{s:{s:i}}", "cuda_max_good", "gte", 12));
		json_object_set_new(o, "_version", json_integer(0));
		world_template_rehash(o);
		json_array_append_new(w->templates, o);
	}
}

void world_template_rehash(json_t *t)
{
	json_t *c = json_deep_copy(t);
	json_object_del(c, "hash_id");
	json_object_del(c, "id");
	char *s = json_dumps(c, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(c);
	uint64_t h1 = 0xcbf29ce484222325ULL, h2 = 0x84222325cbf29ce4ULL;
	for (const char *p = s; p && *p; p++) {
		h1 = (h1 ^ (unsigned char)*p) * 0x100000001b3ULL;
		h2 = (h2 ^ (unsigned char)*p) * 0x100000001b3ULL + 7;
	}
	free(s);
	char hex[40];
	snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
	json_object_set_new(t, "hash_id", json_string(hex));
}

static void seed_serverless(struct world *w, double now)
{
	static const char *const names[] = { "llm-chat", "sdxl-gen", "whisper-asr", "embed-svc",
					     "rerank", "tts-fast", "ocr-batch", "code-complete" };
	w->neplog = 0;
	for (int i = 0; i < w->opt.endpoints; i++) {
		long id = w->next_endpoint_id++;
		char name[64];
		if ((size_t)i < NELEM(names))
			snprintf(name, sizeof name, "%s", names[i]);
		else
			snprintf(name, sizeof name, "endpoint-%d", i);
		char key[80];
		world_make_key(w, key, sizeof key, "ep_");
		json_t *e = json_pack("{s:I,s:s,s:s,s:f,s:f,s:f,s:i,s:i,s:s,s:I,s:f}", "id", (json_int_t)id,
				      "endpoint_name", name, "endpoint_state", i % 4 == 3 ? "suspended" : "active",
				      "min_load", 10.0 * (double)(i + 1), "target_util", 0.9, "cold_mult", 2.5,
				      "cold_workers", 1 + i % 3, "max_workers", 4 + 2 * i, "api_key", key,
				      "user_id", (json_int_t)148213, "created_at", now - 86400.0 * (double)(10 + i));
		json_object_set_new(e, "min_cold_load", json_real(0)); /* the CLI's defaults */
		json_object_set_new(e, "max_queue_time", json_real(30));
		json_object_set_new(e, "target_queue_time", json_real(10));
		json_object_set_new(e, "inactivity_timeout", json_null());
		if (i == 2) /* whisper-asr: every worker in ERROR (the flag rule's case) */
			json_object_set_new(e, "sim_workers", json_string("error"));
		json_array_append_new(w->endpoints, e);
		json_t *tpl = json_array_get(w->templates, (size_t)i % json_array_size(w->templates));
		char created[32];
		time_t ct = (time_t)(now - 86400.0 * (double)(9 + i));
		strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&ct));
		json_t *g = json_pack("{s:I,s:f,s:f,s:f,s:i,s:s,s:I,s:s,s:s,s:f,s:s,s:I,s:s,s:s,s:I}",
				      "id", (json_int_t)w->next_wg_id++, "min_load", 10.0 * (double)(i + 1),
				      "target_util", 0.9, "cold_mult", 2.5, "test_workers", 3,
				      "template_hash", jstr(tpl, "hash_id"),
				      "template_id", (json_int_t)json_integer_value(json_object_get(tpl, "id")),
				      "search_query", "gpu_ram>=24 num_gpus=1 reliability>0.98 verified=true",
				      "launch_args", "", "gpu_ram", 24.0, "endpoint_name", name,
				      "endpoint_id", (json_int_t)id, "api_key", "<API_KEY>", "created_at", created,
				      "user_id", (json_int_t)148213);
		json_array_append_new(w->workergroups, g);
		w->eplogs = realloc(w->eplogs, (w->neplog + 1) * sizeof *w->eplogs);
		w->eplog_ids = realloc(w->eplog_ids, (w->neplog + 1) * sizeof *w->eplog_ids);
		if (!w->eplogs || !w->eplog_ids)
			abort();
		memset(&w->eplogs[w->neplog], 0, sizeof w->eplogs[0]);
		w->eplogs[w->neplog].cap = EPLOG_CAP;
		w->eplogs[w->neplog].lines = calloc(EPLOG_CAP, sizeof(char *));
		w->eplogs[w->neplog].last_gen = now - 60.0;
		w->eplog_ids[w->neplog] = id;
		w->neplog++;
	}
}

json_t *world_endpoint_by_id(struct world *w, long id)
{
	size_t i;
	json_t *e;
	json_array_foreach(w->endpoints, i, e)
		if (json_integer_value(json_object_get(e, "id")) == id)
			return e;
	return NULL;
}

json_t *world_endpoint_by_name(struct world *w, const char *name)
{
	size_t i;
	json_t *e;
	json_array_foreach(w->endpoints, i, e) {
		const char *n = jstr(e, "endpoint_name");
		if (n && name && !strcmp(n, name))
			return e;
	}
	return NULL;
}

static struct eplog *eplog_of(struct world *w, long id)
{
	for (size_t i = 0; i < w->neplog; i++)
		if (w->eplog_ids[i] == id)
			return &w->eplogs[i];
	return NULL;
}

static void ring_push(struct eplog *l, char *line)
{
	size_t pos = (l->head + l->n) % l->cap;
	if (l->n == l->cap) {
		free(l->lines[l->head]);
		l->lines[l->head] = line;
		l->head = (l->head + 1) % l->cap;
	} else {
		l->lines[pos] = line;
		l->n++;
	}
}

void world_eplog_append(struct world *w, long endpoint_id, const char *line)
{
	struct eplog *l = eplog_of(w, endpoint_id);
	if (!l) {
		w->eplogs = realloc(w->eplogs, (w->neplog + 1) * sizeof *w->eplogs);
		w->eplog_ids = realloc(w->eplog_ids, (w->neplog + 1) * sizeof *w->eplog_ids);
		if (!w->eplogs || !w->eplog_ids)
			abort();
		l = &w->eplogs[w->neplog];
		memset(l, 0, sizeof *l);
		l->cap = EPLOG_CAP;
		l->lines = calloc(EPLOG_CAP, sizeof(char *));
		l->last_gen = world_now(w);
		w->eplog_ids[w->neplog++] = endpoint_id;
	}
	ring_push(l, strdup(line));
}

char *world_eplog_tail(struct world *w, long endpoint_id, double now, long tail)
{
	struct eplog *l = eplog_of(w, endpoint_id);
	if (!l)
		return strdup("");
	double every = w->eplog_every > 0 ? w->eplog_every : EPLOG_EVERY;
	long total = now > l->last_gen ? (long)((now - l->last_gen) / every) : 0;
	long n = total > EPLOG_CAP ? EPLOG_CAP : total;
	for (long i = 0; i < n; i++) {
		l->seq++;
		double t = l->last_gen + every * (double)(total - n + i + 1);
		time_t tt = (time_t)t;
		char ts[32], msg[160], line[224];
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
		uint64_t s = l->seq * 2654435761u + (uint64_t)endpoint_id;
		int a = (int)(s % 7), b = (int)(s % 900 + 40), d = (int)(s % 400 + 10);
		switch (s % 4) {
		case 0: snprintf(msg, sizeof msg, "worker %d: request done in %d ms (tokens=%d)", a, b, d); break;
		case 1: snprintf(msg, sizeof msg, "worker %d: loaded model shard %d/%d", a, a + 1, a + 2); break;
		case 2: snprintf(msg, sizeof msg, "autoscaler: load %d.%d, workers %d", b / 10, b % 10, a + 1); break;
		default: snprintf(msg, sizeof msg, "worker %d: health check ok (queue=%d, %d ms)", a, a, d); break;
		}
		snprintf(line, sizeof line, "[%s] %s", ts, msg);
		ring_push(l, strdup(line));
	}
	l->last_gen += every * (double)total;
	if (tail < 0 || tail > (long)l->n)
		tail = (long)l->n;
	size_t len = 1;
	for (long i = (long)l->n - tail; i < (long)l->n; i++)
		len += strlen(l->lines[(l->head + (size_t)i) % l->cap]) + 1;
	char *out = malloc(len);
	if (!out)
		abort();
	size_t p = 0;
	for (long i = (long)l->n - tail; i < (long)l->n; i++) {
		const char *s = l->lines[(l->head + (size_t)i) % l->cap];
		size_t sl = strlen(s);
		memcpy(out + p, s, sl);
		p += sl;
		if (i + 1 < (long)l->n)
			out[p++] = '\n';
	}
	out[p] = '\0';
	return out;
}

/* ---- the whole world --------------------------------------------------- */

static void seed_user(struct world *w, double now)
{
	w->user = json_pack("{s:I,s:s,s:s,s:s,s:f,s:f,s:b,s:b,s:f,s:s,s:s,s:b,s:s}", "id", (json_int_t)148213,
			    "email", w->opt.email, "username", "demo", "fullname", "Demo Operator",
			    "credit", 0.0, "balance", 0.0, "can_pay", true, "email_verified", true,
			    "email_verified_at", now - 200 * 86400.0, "tfa_status", "disabled", "ssh_key", "",
			    "billing_creditonly", true, "api_key", w->opt.api_key);
	set_int(w->user, "team_id", 0);
	json_object_set_new(w->user, "is_team", json_false());
	json_object_set_new(w->user, "sid", json_string("u148213"));
	double credit = 250.0 - (double)(world_rand(w) % 500) / 100.0;
	world_set_credit(w, credit);
}

static void seed_all(struct world *w)
{
	w->rng = w->opt.seed * 0x2545f4914f6cdd1dULL + 1;
	double now = world_now(w);
	w->next_id = 9100000 + (long)(world_rand(w) % 100000);
	w->next_template_id = 310000 + (long)(world_rand(w) % 1000);
	w->next_apikey_id = 5100 + (long)(world_rand(w) % 100);
	w->next_ssh_id = 7700 + (long)(world_rand(w) % 100);
	w->next_role_id = 40;
	w->next_endpoint_id = 1200 + (long)(world_rand(w) % 100);
	w->next_wg_id = 8800 + (long)(world_rand(w) % 100);
	seed_user(w, now);
	w->templates = json_array();
	w->secrets = json_pack("{s:s,s:s}", "HF_TOKEN", "hf_simulated0000000000000000000000",
			       "WANDB_API_KEY", "0000000000000000000000000000000000000000");
	world_issue(w, "hf_simulated0000000000000000000000");
	world_issue(w, "0000000000000000000000000000000000000000");
	world_issue(w, w->opt.api_key);
	world_issue(w, w->opt.ro_key);
	w->apikeys = json_array();
	json_array_append_new(w->apikeys, json_pack("{s:I,s:I,s:n,s:n,s:s,s:f,s:s}", "id",
						     (json_int_t)w->next_apikey_id++, "user_id", (json_int_t)148213,
						     "rights", "team_id", "name", "default", "created_at",
						     now - 300 * 86400.0, "key", w->opt.api_key));
	json_array_append_new(w->apikeys,
			      json_pack("{s:I,s:I,s:{s:{s:{},s:{},s:{}}},s:n,s:s,s:f,s:s}", "id",
					(json_int_t)w->next_apikey_id++, "user_id", (json_int_t)148213, "rights",
					"api", "misc", "user_read", "instance_read", "team_id", "name",
					"read-only monitor", "created_at", now - 30 * 86400.0, "key",
					w->opt.ro_key));
	const char *pub = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAX6BZyIxoNtZa6WVUT39lDF0aKhT8dNRvozdxH0aYYT demo@laptop";
	w->ssh_keys = json_array();
	json_array_append_new(w->ssh_keys, json_pack("{s:I,s:I,s:s,s:s,s:f}", "id", (json_int_t)w->next_ssh_id++,
						     "user_id", (json_int_t)148213, "public_key", pub, "key", pub,
						     "created_at", now - 100 * 86400.0));
	set_str(w->user, "ssh_key", pub);
	w->roles = json_array();
	static const char *const rn[] = { "owner", "manager", "member" };
	for (size_t i = 0; i < NELEM(rn); i++) {
		json_t *perm = i == 2 ? json_pack("{s:{s:{},s:{}}}", "api", "instance_read", "user_read")
				      : json_pack("{s:{s:{},s:{},s:{},s:{}}}", "api", "misc", "user_read",
						  "instance_read", "instance_write");
		json_array_append_new(w->roles, json_pack("{s:I,s:s,s:o,s:I}", "id", (json_int_t)w->next_role_id++,
							  "name", rn[i], "permissions", perm, "team_id",
							  (json_int_t)0));
	}
	seed_templates(w, now);
	w->endpoints = json_array();
	w->workergroups = json_array();
	seed_serverless(w, now);
	/* offers: ids increase so lookups can bisect */
	w->offers = json_array();
	long oid = 7100000 + (long)(world_rand(w) % 10000);
	for (int i = 0; i < w->opt.offers; i++) {
		oid += 1 + (long)(world_rand(w) % 9);
		json_array_append_new(w->offers, make_offer(w, oid, now));
	}
	/* every offer's text now, so that no search pays for building it */
	for (size_t i = 0, len; i < json_array_size(w->offers); i++)
		world_offer_text(w, i, &len);
	for (int i = 0; i < w->opt.instances; i++)
		seed_instance(w, i, now);
	w->next_id += 1000;
	w->reports = json_object();
	w->ops = ops_new(w, now);
	workers_seed(w, now); /* the endpoints' workers: instances too */
	acct_new(w, now);
}

static void free_all(struct world *w)
{
	ops_free(w->ops);
	w->ops = NULL;
	for (size_t i = 0; i < w->ninst; i++)
		inst_free(w->inst[i]);
	free(w->inst);
	w->inst = NULL;
	w->ninst = w->cap = 0;
	json_decref(w->label_counts);
	w->label_counts = NULL;
	for (size_t i = 0; i < sizeof w->range_counts / sizeof *w->range_counts; i++) {
		json_decref(w->range_counts[i].counts);
		w->range_counts[i].counts = NULL;
	}
	world_touch_labels(w);
	for (size_t i = 0; i < w->neplog; i++) {
		for (size_t j = 0; j < w->eplogs[i].cap; j++)
			free(w->eplogs[i].lines[j]);
		free(w->eplogs[i].lines);
	}
	free(w->eplogs);
	free(w->eplog_ids);
	w->eplogs = NULL;
	w->eplog_ids = NULL;
	w->neplog = 0;
	for (size_t i = 0; i < w->nlogreq; i++)
		free(w->logreqs[i].text);
	free(w->logreqs);
	w->logreqs = NULL;
	w->nlogreq = 0;
	json_decref(w->user);
	json_decref(w->offers);
	w->offers = NULL;
	offer_caches_free(w);
	json_decref(w->templates);
	json_decref(w->secrets);
	json_decref(w->apikeys);
	json_decref(w->ssh_keys);
	json_decref(w->roles);
	json_decref(w->endpoints);
	json_decref(w->workergroups);
	json_decref(w->reports);
	acct_free(w->acct);
	w->acct = NULL;
}

struct world *world_new(const struct sim_opts *opt)
{
	struct world *w = calloc(1, sizeof *w);
	if (!w)
		abort();
	w->opt = *opt;
	if (!(w->opt.speed > 0))
		w->opt.speed = 1;
	w->t0_wall = floor((double)time(NULL));
	w->t0_mono = mono();
	w->issued = json_array();
	w->issued_set = json_object();
	seed_all(w);
	w->tfa = tfa_new(w->opt.seed, w->opt.email);
	tfa_set_user_id(w->tfa, (long)json_integer_value(json_object_get(w->user, "id")));
	return w;
}

void world_reset(struct world *w)
{
	free_all(w);
	w->logs_cli_only = false;
	w->keep_uptime = false;
	w->eplog_every = 0;
	w->manual_offset = 0;
	w->t0_wall = floor((double)time(NULL));
	w->t0_mono = mono();
	w->last_now = 0;
	seed_all(w);
	tfa_reset(w->tfa);
	tfa_set_user_id(w->tfa, (long)json_integer_value(json_object_get(w->user, "id")));
}

void world_free(struct world *w)
{
	if (!w)
		return;
	free_all(w);
	tfa_free(w->tfa);
	json_decref(w->issued);
	json_decref(w->issued_set);
	free(w);
}
