/* util.c: instances' utilisation over time (util.h). */
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"

#define IDLE_CYCLE (4 * 3600.0) /* s at --speed 1: an idler's cycle */
#define IDLE_SPAN (2.5 * 3600.0) /* s of it spent under 5 % GPU */
#define DISK_CAP 0.995          /* a disk fills up to this fraction */

static struct inst_util *get(struct inst *in)
{
	if (!in->util) {
		in->util = calloc(1, sizeof *in->util);
		if (!in->util)
			abort();
		in->util->pin_gpu_util = in->util->pin_gpu_temp = NAN;
		in->util->pin_cpu_util = in->util->pin_mem_usage = NAN;
		in->util->disk_rate = 0.2;
	}
	return in->util;
}

void util_seed(struct inst *in, int i, double now, double disk)
{
	struct inst_util *u = get(in);
	unsigned long h = (unsigned long)in->id * 2654435761UL;
	if (i >= 0 && i < 12)
		u->profile = i == 1 ? UP_IDLER : i == 3 ? UP_HOT : i == 4 ? UP_FILLER : UP_BUSY;
	else
		u->profile = h % 10 < 2 ? UP_IDLER : h % 10 == 2 ? UP_HOT : h % 10 == 3 ? UP_FILLER : UP_BUSY;
	/* seeded idlers start a cycle now (idle from the start); new ones an
	 * hour after they are created */
	u->t_base = i >= 0 ? now : now + 3600.0;
	u->disk = disk > 0 ? disk : 0;
	double space = jnum(in->o, "disk_space", 32);
	u->run_base = in->run_secs;
	/* a filler goes from where it is to full in about 3 hours of running */
	u->disk_rate = u->profile == UP_FILLER ? fmax(space * DISK_CAP - u->disk, 1) / 3.0 : 0.05 + 0.01 * (double)(h % 20);
}

void util_free(struct inst_util *u)
{
	free(u);
}

/* GB used now: the disk grows only while running (in->run_secs, kept by
 * the billing clock), up to DISK_CAP of the disk. */
static double disk_now(const struct inst *in, double space, double speed)
{
	const struct inst_util *u = in->util;
	double d = u->disk + u->disk_rate * (in->run_secs - u->run_base) * speed / 3600.0;
	return fmax(u->disk, fmin(d, space * DISK_CAP));
}

static bool idle_now(const struct inst_util *u, double now, double speed)
{
	if (u->profile != UP_IDLER)
		return false;
	double t = (now - u->t_base) * speed;
	return t >= 0 && fmod(t, IDLE_CYCLE) < IDLE_SPAN;
}

static void put_num(json_t *o, const char *k, double v)
{
	json_t *x = json_object_get(o, k);
	if (json_is_real(x) && x->refcount == 1)
		json_real_set(x, v);
	else
		json_object_set_new(o, k, json_real(v));
}

static void put_int(json_t *o, const char *k, long v)
{
	json_t *x = json_object_get(o, k);
	if (json_is_integer(x) && x->refcount == 1)
		json_integer_set(x, v);
	else
		json_object_set_new(o, k, json_integer(v));
}

static void put_null(json_t *o, const char *k)
{
	if (!json_is_null(json_object_get(o, k)))
		json_object_set_new(o, k, json_null());
}

void util_view(struct inst *in, double now, bool running, double speed)
{
	struct inst_util *u = get(in);
	json_t *o = in->o;
	double space = jnum(o, "disk_space", 32);
	double ram = jnum(o, "cpu_ram", 65536) / 1024.0;  /* GB */
	double vram = jnum(o, "gpu_totalram", 24576) / 1024.0;
	double ph = (double)(in->id % 97) + now / 37.0;
	if (running) {
		bool idle = idle_now(u, now, speed);
		double gpu = idle ? 1.5 + 1.5 * sin(ph) : 55 + 40 * sin(ph);
		double temp = u->profile == UP_HOT ? 87 + 3 * sin(ph * 0.7) : idle ? 36 + 2 * sin(ph * 0.7)
										  : 62 + 12 * sin(ph * 0.7);
		double cpu = idle ? 0.8 + 0.5 * sin(ph * 1.1) : 20 + 15 * sin(ph * 1.1);
		double mem = ram * (idle ? 0.05 : 0.35 + 0.15 * sin(ph * 0.3));
		if (!isnan(u->pin_gpu_util))
			gpu = u->pin_gpu_util;
		if (!isnan(u->pin_gpu_temp))
			temp = u->pin_gpu_temp;
		if (!isnan(u->pin_cpu_util))
			cpu = u->pin_cpu_util;
		if (!isnan(u->pin_mem_usage))
			mem = u->pin_mem_usage;
		put_int(o, "gpu_util", (long)lround(gpu));
		put_int(o, "gpu_temp", (long)lround(temp));
		put_num(o, "cpu_util", round_to(cpu, 0.1));
		put_num(o, "mem_usage", round_to(mem, 0.001));
		put_num(o, "mem_limit", round_to(ram, 0.001));
		put_num(o, "vmem_usage", round_to(vram * (gpu > 5 ? 0.6 : 0.02), 0.001));
	} else {
		put_null(o, "gpu_util");
		put_null(o, "gpu_temp");
		put_num(o, "cpu_util", 0.0);
		put_null(o, "mem_usage");
		put_null(o, "vmem_usage");
	}
	if (u->disk <= 0 && jnum(o, "disk_usage", -1) > 0) { /* set by the lifecycle (loading) */
		u->disk = jnum(o, "disk_usage", -1);
		u->run_base = in->run_secs;
	}
	if (u->disk > 0) { /* -1 (not yet known) until the container has written */
		double d = disk_now(in, space, speed);
		put_num(o, "disk_usage", round_to(d, 0.01));
		put_num(o, "disk_util", round_to(space > 0 ? d / space : 0, 0.0001));
	}
}

bool util_set(struct inst *in, const char *key, const json_t *v, double now, double speed, bool *bad)
{
	struct inst_util *u = get(in);
	double d;
	bool num = jnum_value(v, &d);
	double *pin = !strcmp(key, "gpu_util") ? &u->pin_gpu_util : !strcmp(key, "gpu_temp") ? &u->pin_gpu_temp
		      : !strcmp(key, "cpu_util") ? &u->pin_cpu_util : !strcmp(key, "mem_usage") ? &u->pin_mem_usage
		      : NULL;
	*bad = false;
	if (pin) {
		if (json_is_null(v))
			*pin = NAN;
		else if (num && d >= 0)
			*pin = d;
		else
			*bad = true;
		return true;
	}
	if (!strcmp(key, "disk_usage") || !strcmp(key, "disk_rate")) {
		if (!num || d < 0)
			*bad = true;
		else if (key[5] == 'u')
			u->disk = d, u->run_base = in->run_secs;
		else /* the growth so far is kept, the new rate applies from now */
			u->disk = disk_now(in, jnum(in->o, "disk_space", 32), speed), u->run_base = in->run_secs,
			u->disk_rate = d;
		return true;
	}
	if (!strcmp(key, "util_profile")) {
		const char *p = json_string_value(v);
		if (p && !strcmp(p, "busy"))
			u->profile = UP_BUSY;
		else if (p && !strcmp(p, "idler"))
			u->profile = UP_IDLER, u->t_base = now;
		else if (p && !strcmp(p, "hot"))
			u->profile = UP_HOT;
		else if (p && !strcmp(p, "filler"))
			u->profile = UP_FILLER;
		else
			*bad = true;
		return true;
	}
	return false;
}

json_t *util_debug(const struct inst *in)
{
	static const char *const names[] = { "busy", "idler", "hot", "filler" };
	const struct inst_util *u = in->util;
	if (!u)
		return json_null();
	json_t *pins = json_object();
	if (!isnan(u->pin_gpu_util))
		json_object_set_new(pins, "gpu_util", json_real(u->pin_gpu_util));
	if (!isnan(u->pin_gpu_temp))
		json_object_set_new(pins, "gpu_temp", json_real(u->pin_gpu_temp));
	if (!isnan(u->pin_cpu_util))
		json_object_set_new(pins, "cpu_util", json_real(u->pin_cpu_util));
	if (!isnan(u->pin_mem_usage))
		json_object_set_new(pins, "mem_usage", json_real(u->pin_mem_usage));
	return json_pack("{s:s,s:f,s:f,s:f,s:f,s:o}", "profile", names[u->profile], "cycle_base", u->t_base,
			 "disk_gb", u->disk, "disk_rate_gb_h", u->disk_rate, "run_secs", in->run_secs - u->run_base,
			 "pins", pins);
}
