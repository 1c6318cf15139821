/* bench_parse.c: the core's cost of one big instance list.  Builds a v1-style
 * response of 10,000 instances in memory (every field the live service sends,
 * realistic values and a mix of states, runtypes and interruptibles), then
 * times jansson's parse and json_map's mapping separately and together over
 * several rounds.  Prints "name: value unit" lines: the median ms per parse,
 * per map and per parse+map, and the throughput in MB/s, by the wall clock
 * and by the process's CPU time (one thread: the figure "on one core" that a
 * loaded machine does not distort). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json/json_map.h"
#include "json/json_stream.h"
#include "state/model.h"
#include "base/util.h"

#define N_INSTANCES 10000
#define ROUNDS 7

/* The streaming mapper (json_stream: yajl's tokens, no tree) over the same
 * text: median wall ms and CPU ms of map + free over ROUNDS, and the count. */
static size_t stream_rounds(const char *text, size_t len, double *wall, double *cpu);

/* One instance object with the live service's fields. */
static json_t *make_instance(long i)
{
	static const char *const gpus[] = { "RTX 4090", "RTX 3090", "A100 SXM4", "H100 SXM",
					    "RTX A6000", "L40S" };
	static const char *const status[] = { "running", "running", "running", "loading",
					      "exited", "created", NULL };
	static const char *const runtypes[] = { "ssh_direc ssh_proxy", "jupyter_direc ssh_direc ssh_proxy",
						"jupyter_proxy ssh_proxy", "args" };
	const char *st = status[i % 7 == 6 ? 6 : i % 6];
	bool bid = i % 5 == 0;
	double dph = 0.2 + (double)(i % 97) / 20.0;
	json_t *o = json_pack(
		"{s:I, s:I, s:I, s:s?, s:o, s:s, s:s, s:s, s:o, s:i, s:s, s:f, s:f, s:o, s:o, s:f,"
		" s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:f, s:s, s:s}",
		"id", (json_int_t)(10000000 + i), "machine_id", (json_int_t)(4000 + i % 3000),
		"host_id", (json_int_t)(100 + i % 700),
		"label", i % 3 ? "training-run" : NULL,
		"actual_status", st ? json_string(st) : json_null(),
		"intended_status", i % 11 == 0 ? "stopped" : "running",
		"cur_state", "running", "next_state", "running",
		"status_msg", st ? json_sprintf("success, running %s/%ld", "pytorch/pytorch", i) : json_null(),
		"num_gpus", (int)(1 << (i % 4)), "gpu_name", gpus[i % 6],
		"gpu_ram", 24564.0, "gpu_totalram", 24564.0 * (1 << (i % 4)),
		"gpu_util", st ? json_real((double)(i % 100)) : json_null(),
		"gpu_temp", st ? json_real(40.0 + i % 45) : json_null(),
		"cpu_cores_effective", 8.0 + i % 24, "cpu_ram", 64000.0 + i % 7 * 16000,
		"disk_space", 50.0 + i % 200, "disk_usage", (double)(i % 50),
		"inet_up", 500.0 + i % 400, "inet_down", 700.0 + i % 300,
		"dph_base", dph, "dph_total", dph + 0.014, "storage_cost", 0.1,
		"storage_total_cost", 0.014, "is_bid", bid, "min_bid", dph / 2,
		"image_uuid", "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
		"image_runtype", runtypes[i % 4]);
	json_object_set_new(o, "extra_env", json_pack("[[ss][ss]]", "JUPYTER_DIR", "/", "OPEN_BUTTON_PORT", "8080"));
	json_object_set_new(o, "onstart", json_string("env >> /etc/environment; pip install -r requirements.txt"));
	json_object_set_new(o, "start_date", json_real(1763700000.0 + i * 13.5));
	json_object_set_new(o, "end_date", json_real(1766300000.0 + i));
	json_object_set_new(o, "duration", json_real(2600000.0 - i));
	json_object_set_new(o, "uptime_mins", json_real((double)(i % 5000)));
	json_object_set_new(o, "reliability2", json_real(0.9 + (i % 100) / 1000.0));
	json_object_set_new(o, "geolocation", json_string(i % 2 ? "Texas, US" : "Quebec, CA"));
	json_object_set_new(o, "verification", json_string("verified"));
	json_object_set_new(o, "public_ipaddr", json_sprintf("203.0.%ld.%ld", i / 250 % 250, i % 250));
	json_object_set_new(o, "ssh_host", json_sprintf("ssh%ld.vast.ai", i % 9));
	json_object_set_new(o, "ssh_port", json_integer(10000 + i % 50000));
	json_object_set_new(o, "ssh_idx", json_sprintf("%ld", i % 9));
	if (st && !strcmp(st, "running"))
		json_object_set_new(o, "ports",
				    json_pack("{s:[{s:s,s:o},{s:s,s:o}],s:[{s:s,s:o}]}", "22/tcp",
					      "HostIp", "0.0.0.0", "HostPort", json_sprintf("%ld", 40000 + i % 20000),
					      "HostIp", "::", "HostPort", json_sprintf("%ld", 40000 + i % 20000),
					      "8080/tcp", "HostIp", "0.0.0.0", "HostPort",
					      json_sprintf("%ld", 30000 + i % 20000)));
	json_object_set_new(o, "jupyter_token", json_string("4f9c1e2a8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e"));
	json_object_set_new(o, "template_id", json_integer(55));
	json_object_set_new(o, "template_hash_id", json_string("a1b2c3d4e5f60718293a4b5c6d7e8f90"));
	json_object_set_new(o, "template_name", json_string("PyTorch (Vast)"));
	if (bid)
		json_object_set_new(o, "bid_price", json_real(dph * 0.8));
	json_object_set_new(o, "credit_balance", json_null());
	json_object_set_new(o, "volume_info", json_null());
	return o;
}

/* CPU seconds this process has used. */
static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

int main(void)
{
	json_t *arr = json_array();
	for (long i = 0; i < N_INSTANCES; i++)
		json_array_append_new(arr, make_instance(i));
	json_t *root = json_pack("{s:b,s:i,s:i,s:{},s:n,s:o}", "success", 1, "instances_found",
				 N_INSTANCES, "total_instances", N_INSTANCES, "label_counts",
				 "next_token", "instances", arr);
	char *text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	size_t len = strlen(text);

	double t_parse[ROUNDS], t_map[ROUNDS], t_all[ROUNDS], c_all[ROUNDS], c_parse[ROUNDS], c_map[ROUNDS];
	size_t mapped = 0;
	for (int r = -1; r < ROUNDS; r++) { /* round -1 warms up caches and the allocator */
		double c0 = cpu_s();
		double t0 = util_mono();
		json_error_t err;
		json_t *j = json_loadb(text, len, 0, &err);
		double t1 = util_mono(), c1 = cpu_s();
		if (!j) {
			fprintf(stderr, "bench_parse: generated JSON does not parse: %s\n", err.text);
			return 1;
		}
		struct instance *v = NULL;
		size_t n = 0;
		char *tok = NULL;
		if (!json_map_instances(j, &v, &n, &tok)) {
			fprintf(stderr, "bench_parse: mapping failed\n");
			return 1;
		}
		double t2 = util_mono(), c2 = cpu_s();
		json_decref(j);
		instance_free_all(v, n);
		free(tok);
		double t3 = util_mono();
		double c3 = cpu_s();
		mapped = n;
		if (r >= 0) {
			t_parse[r] = (t1 - t0) * 1e3;
			t_map[r] = (t2 - t1) * 1e3;
			t_all[r] = (t3 - t0) * 1e3;
			c_all[r] = (c3 - c0) * 1e3;
			c_parse[r] = (c1 - c0) * 1e3;
			c_map[r] = (c2 - c1) * 1e3;
		}
	}
	if (mapped != N_INSTANCES) {
		fprintf(stderr, "bench_parse: mapped %zu of %d instances\n", mapped, N_INSTANCES);
		return 1;
	}
	double s_wall, s_cpu;
	size_t s_n = stream_rounds(text, len, &s_wall, &s_cpu);
	if (s_n != N_INSTANCES) {
		fprintf(stderr, "bench_parse: the streaming mapper mapped %zu of %d\n", s_n, N_INSTANCES);
		return 1;
	}
	double mb = (double)len / 1e6;
	double p = median(t_parse, ROUNDS), m = median(t_map, ROUNDS), a = median(t_all, ROUNDS);
	double c = median(c_all, ROUNDS);
	printf("parse_input: %.1f MB (%d instances, v1 page JSON)\n", mb, N_INSTANCES);
	printf("parse_json_10k: %.1f ms median of %d (jansson only)\n", p, ROUNDS);
	printf("map_10k: %.1f ms median of %d (json_map_instances only)\n", m, ROUNDS);
	printf("parse_map_free_10k: %.1f ms median of %d (parse + map + free)\n", a, ROUNDS);
	printf("parse_map_throughput: %.1f MB/s (wall)\n", mb / (a / 1e3));
	printf("parse_map_cpu_10k: %.1f ms CPU median of %d (parse %.1f, map %.1f, free the rest)\n",
	       c, ROUNDS, median(c_parse, ROUNDS), median(c_map, ROUNDS));
	printf("parse_map_cpu_throughput: %.1f MB/s of CPU time, one core (aim >= 60)\n",
	       mb / (c / 1e3));
	printf("parse_map_per_instance: %.2f us\n", a * 1e3 / N_INSTANCES);
	printf("stream_map_free_10k: %.1f ms median of %d (json_stream: yajl tokens, no tree; map + free)\n",
	       s_wall, ROUNDS);
	printf("stream_map_cpu_10k: %.1f ms CPU median of %d\n", s_cpu, ROUNDS);
	printf("stream_map_cpu_throughput: %.1f MB/s of CPU time, one core (aim >= 60; the poller's and --dump's path)\n",
	       mb / (s_cpu / 1e3));
	free(text);
	return 0;
}

static size_t stream_rounds(const char *text, size_t len, double *wall, double *cpu)
{
	double t[ROUNDS], c[ROUNDS];
	size_t mapped = 0;
	for (int r = -1; r < ROUNDS; r++) {
		double c0 = cpu_s(), t0 = util_mono();
		struct instance *v = NULL;
		size_t n = 0;
		char *tok = NULL, err[200];
		long total;
		if (json_stream_instances(text, len, &v, &n, &tok, &total, err, sizeof err) != JSTREAM_OK) {
			fprintf(stderr, "bench_parse: the streaming mapper failed: %s\n", err);
			return 0;
		}
		instance_free_all(v, n);
		free(tok);
		double t1 = util_mono(), c1 = cpu_s();
		mapped = n;
		if (r >= 0) {
			t[r] = (t1 - t0) * 1e3;
			c[r] = (c1 - c0) * 1e3;
		}
	}
	*wall = median(t, ROUNDS);
	*cpu = median(c, ROUNDS);
	return mapped;
}
