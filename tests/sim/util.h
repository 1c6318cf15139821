/* util.h: an instance's utilisation over time, as the live record carries
 * it (gpu_util, gpu_temp, cpu_util, mem_usage, mem_limit, vmem_usage,
 * disk_usage, disk_util): each instance follows a profile (busy, idle for
 * long stretches, hot, disk filling) chosen when it is seeded or created,
 * and the control API can pin any figure (/__sim/instance).  Called with
 * the state lock held, from world.c. */
#ifndef RENTOP_SIM_UTIL_H
#define RENTOP_SIM_UTIL_H

#include <jansson.h>
#include <stdbool.h>

struct inst;

enum util_profile { UP_BUSY, UP_IDLER, UP_HOT, UP_FILLER };

struct inst_util {
	enum util_profile profile;
	double t_base;          /* s: the profile's cycles start here */
	double disk;            /* GB used when the instance had run run_base s */
	double run_base;        /* s: in->run_secs when disk was last set */
	double disk_rate;       /* GB per hour of running */
	/* pinned figures (control API); NAN: not pinned */
	double pin_gpu_util, pin_gpu_temp, pin_cpu_util, pin_mem_usage;
};

/* Give in a profile: seeded instance number i (the first twelve are fixed:
 * #1 idles from the start, #3 runs hot, #4 fills its disk), or i < 0 for a
 * new one (by its id).  disk: the GB it already uses. */
void util_seed(struct inst *in, int i, double now, double disk);
void util_free(struct inst_util *u);
/* Write the live figures into in->o (running: every figure; else the GPU
 * figures null, cpu 0, disk kept). */
void util_view(struct inst *in, double now, bool running, double speed);
/* Control API: set a figure ("gpu_util", "gpu_temp", "cpu_util",
 * "mem_usage": pinned, null unpins; "disk_usage": GB now; "disk_rate": GB
 * per hour; "util_profile": busy, idler, hot, filler).  False: not one of
 * these keys, or a bad value (*bad set). */
bool util_set(struct inst *in, const char *key, const json_t *v, double now, double speed, bool *bad);
/* The model's state for /__sim/state (disk_gb as of run_secs ago). */
json_t *util_debug(const struct inst *in);

#endif
