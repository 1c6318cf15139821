/* workers.c: the serverless workers' figures (workers.h). */
#include "workers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "world.h"

static const struct {
	const char *name;
	double dph;       /* $/hour, GPU */
	double dlperf;
} wgpus[] = {
	{ "RTX 4090", 0.40, 68.0 }, { "RTX 3090", 0.22, 38.0 }, { "A100 SXM4", 1.10, 110.0 }, { "L40S", 0.75, 90.0 },
};
#define NWGPUS (sizeof wgpus / sizeof *wgpus)
#define STOPPED "sim_workers_stopped" /* in the endpoint: its workers stopped with it */
#define WORKER_CREDIT_HOURS 48.0 /* seeded credit kept for the seeded workers */

long workers_count(const json_t *ep)
{
	const char *mode = jstr(ep, "sim_workers");
	if (mode && !strcmp(mode, "none"))
		return 0;
	long n = (long)jnum(ep, "cold_workers", 1) + 2;
	return n < 0 ? 0 : n;
}

const char *workers_gpu(long eid, long i)
{
	return wgpus[(size_t)(eid + i) % NWGPUS].name;
}

double workers_gpu_dph(long eid, long i)
{
	return wgpus[(size_t)(eid + i) % NWGPUS].dph;
}

json_t *workers_group(struct world *w, const json_t *ep)
{
	long eid = (long)jnum(ep, "id", -1);
	size_t i;
	json_t *g;
	json_array_foreach(w->workergroups, i, g)
		if ((long)jnum(g, "endpoint_id", -2) == eid)
			return g;
	return NULL;
}

const json_t *workers_ids(struct world *w, const json_t *ep)
{
	json_t *g = workers_group(w, ep);
	return g ? json_object_get(g, WORKERS_IDS) : NULL;
}

void workers_drop(struct world *w, json_t *g)
{
	size_t i;
	json_t *id;
	json_array_foreach(json_object_get(g, WORKERS_IDS), i, id)
		world_remove(w, (long)json_integer_value(id));
	json_object_del(g, WORKERS_IDS);
}

static void sync(struct world *w, double now, bool seeding)
{
	size_t k;
	json_t *ep;
	json_array_foreach(w->endpoints, k, ep) {
		json_t *g = workers_group(w, ep);
		if (!g)
			continue;
		long want = workers_count(ep);
		json_t *ids = json_object_get(g, WORKERS_IDS);
		if (!ids) {
			ids = json_array();
			json_object_set_new(g, WORKERS_IDS, ids);
		}
		while ((long)json_array_size(ids) > want) {
			size_t last = json_array_size(ids) - 1;
			world_remove(w, (long)json_integer_value(json_array_get(ids, last)));
			json_array_remove(ids, last);
		}
		for (long i = 0; i < want; i++) {
			json_t *id = json_array_get(ids, (size_t)i);
			if (id && world_find(w, (long)json_integer_value(id)))
				continue;
			/* launched now (a replacement too); the seeded ones an hour or more ago */
			double age = seeding ? 3600.0 * (double)(i + 1) / w->opt.speed : 0;
			struct inst *in = world_worker_create(w, ep, g, i, now, age);
			if (id)
				json_array_set_new(ids, (size_t)i, json_integer(in->id));
			else
				json_array_append_new(ids, json_integer(in->id));
		}
		const char *st = jstr(ep, "endpoint_state");
		bool stopped = st && !strcmp(st, "stopped");
		if (stopped == json_is_true(json_object_get(ep, STOPPED)))
			continue;
		json_object_set_new(ep, STOPPED, json_boolean(stopped));
		size_t i;
		json_t *id;
		json_array_foreach(ids, i, id) {
			struct inst *in = world_find(w, (long)json_integer_value(id));
			if (in && stopped)
				world_inst_stop(w, in, now, "Stopped: its endpoint is stopped");
			else if (in)
				world_inst_start(w, in, now);
		}
	}
}

void workers_sync(struct world *w, double now)
{
	sync(w, now, false);
}

void workers_seed(struct world *w, double now)
{
	size_t n0 = w->ninst;
	sync(w, now, true);
	/* the account keeps credit for them: two days of their cost on top of
	 * the seeded credit, so that the seeded runway stays the instances' */
	double dph = 0;
	for (size_t i = n0; i < w->ninst; i++)
		dph += w->inst[i]->c_dph_total;
	world_set_credit(w, w->credit + round(WORKER_CREDIT_HOURS * dph * 100.0) / 100.0);
}

static bool ready(const char *s)
{
	return !strcmp(s, "RUNNING") || !strcmp(s, "IDLE");
}

void workers_fields(json_t *wk, long eid, long i, const struct inst *in, double now, double speed)
{
	const char *s = jstr(wk, "status") ? jstr(wk, "status") : "";
	bool run = ready(s);
	bool busy = !strcmp(s, "RUNNING");
	double ph = now / 30.0 + (double)i;
	size_t g = (size_t)(eid + i) % NWGPUS;
	double perf = round_to(28 + 6 * cos(ph), 0.1);
	/* the load now, and its average over the last few minutes (the mean of
	 * the same wave over the 5 minutes behind: its integral) */
	double load = busy ? round_to(50 + 40 * sin(ph), 0.1) : run ? round_to(5 + 4 * sin(ph), 0.1) : 0.0;
	double w = 300.0 / 30.0, avg = 0;
	if (busy)
		avg = 50 + 40 * (cos(ph - w) - cos(ph)) / w;
	else if (run)
		avg = 5 + 4 * (cos(ph - w) - cos(ph)) / w;
	double started = now - 3600.0 * (double)(i + 1) / (speed > 0 ? speed : 1);
	double disk = 21.5 + (double)i + fmod(now / 3600.0, 10.0);
	json_object_set_new(wk, "cur_load", json_real(load));
	json_object_set_new(wk, "new_load", json_real(run ? round_to(load * 1.05, 0.1) : 0.0));
	json_object_set_new(wk, "cur_load_rolling_avg", json_real(round_to(avg, 0.1)));
	json_object_set_new(wk, "perf", json_real(perf));
	json_object_set_new(wk, "cur_perf", json_real(run ? round_to(perf * 0.9, 0.1) : 0.0));
	json_object_set_new(wk, "measured_perf", json_real(run ? round_to(perf * 0.95, 0.1) : 0.0));
	json_object_set_new(wk, "dlperf", json_real(wgpus[g].dlperf));
	json_object_set_new(wk, "reliability", json_real(round_to(0.999 - 0.01 * (double)((eid + i) % 4), 0.0001)));
	json_object_set_new(wk, "reqs_working", json_integer(busy ? (long)(2 + 2 * sin(ph)) : 0));
	json_object_set_new(wk, "disk_usage", json_real(round_to(disk, 0.01)));
	json_object_set_new(wk, "disk_space", json_real(WORKER_DISK_GB));
	json_object_set_new(wk, "started_at", json_real(started));
	json_object_set_new(wk, "loaded_at", run ? json_real(started + 90.0) : json_real(0));
	json_object_set_new(wk, "uptime_mins", run ? json_real(round_to((now - started) / 60.0, 0.01)) : json_null());
	/* its instance's GPU and price: what the billing clock charges */
	json_object_set_new(wk, "gpu_name", json_string(jstr(in->o, "gpu_name") ? jstr(in->o, "gpu_name") : wgpus[g].name));
	json_object_set_new(wk, "num_gpus", json_integer((long)jnum(in->o, "num_gpus", 1)));
	json_object_set_new(wk, "dph_total", json_real(round_to(jnum(in->o, "dph_total", 0), 0.0001)));
	json_object_set_new(wk, "instance_id", json_integer(in->id));
	/* the docs' url and created_at (get_endpoint_workers.yaml) */
	char url[64], ts[32];
	snprintf(url, sizeof url, "http://10.%ld.%ld.%ld:8000", (eid / 256) % 256, eid % 256, 10 + i % 200);
	time_t ct = (time_t)started;
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&ct));
	json_object_set_new(wk, "url", json_string(url));
	json_object_set_new(wk, "created_at", json_string(ts));
	if (!strcmp(s, "ERROR"))
		json_object_set_new(wk, "status_msg",
				    json_string("Error: model server exited with code 137 (out of memory) while "
						"loading weights"));
}
