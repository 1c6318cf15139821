/* routes_inst_ops.c: what one does with an instance in place (the docs'
 * execute.yaml, copy.yaml, cancel_copy.yaml, recycle_instance.yaml,
 * attach_ssh.yaml, detach_ssh.yaml, show_instance_ssh_keys.yaml; the CLI's
 * execute, copy, cancel copy, recycle instance, update instance, take
 * snapshot, attach ssh, detach ssh).  Each container has a small file tree
 * (made on first use) that execute's ls, du and rm read and change and that
 * a finished copy adds to; copies and snapshots are jobs whose progress the
 * destination's status_msg shows, as the service's "instance status bar"
 * does.  Registry credentials of a snapshot are checked and forgotten. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes_int.h"
#include "simops.h"

#define COMMAND_MAX 512        /* characters (execute.yaml) */
#define EXEC_READY 2.0         /* s at --speed 1 before an execute result serves */
#define COPY_START 5.0         /* s before a copy starts ("give it 5-10 seconds") */
#define COPY_RATE 100e6        /* bytes per second of a copy */
#define COPY_MIN 10.0          /* s, the shortest transfer */
#define SNAP_COMMIT 60.0       /* s committing the container */
#define SNAP_PUSH 240.0        /* s pushing it ("5-10 mins") */
#define T_RECREATE 8.0         /* s before a recreated container loads (world.c's T_PROVISION) */

enum job_kind { JOB_COPY, JOB_SNAPSHOT };
enum job_state { JS_QUEUED, JS_RUNNING, JS_DONE, JS_FAILED, JS_CANCELED };

struct copy_job {
	enum job_kind kind;
	enum job_state state;
	long src, dst;          /* instance ids (src: -1 for a volume source) */
	long src_vol;           /* volume id of a V. source, else -1 */
	char src_path[256], dst_path[256];
	char what[300];         /* snapshot: registry/repo */
	double start, end;      /* s, sim clock: transfer begins, ends */
	double bytes;
};

static void put(struct sim_resp *rs, int status, json_t *j)
{
	rs->status = status;
	rs->json = j;
}

static void fail(struct ctx *c, int status, const char *slug, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void fail(struct ctx *c, int status, const char *slug, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	routes_error(c->rs, status, slug, msg);
}

double ops_randf(struct ops_state *s)
{
	s->rng += 0x9e3779b97f4a7c15ULL;
	uint64_t z = s->rng;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

/* ---- a container's files -------------------------------------------------- */

/* The instance's file tree ({path: bytes}, files only), made on first use
 * from its id: the same instance, the same files. */
static json_t *inst_fs(struct world *w, struct inst *in)
{
	char key[32];
	snprintf(key, sizeof key, "%ld", in->id);
	json_t *fs = json_object_get(w->ops->fs, key);
	if (fs)
		return fs;
	fs = json_object();
	long k = in->id % 97;
	static const struct {
		const char *path;
		double bytes;
	} base[] = {
		{ "/root/.bashrc", 3771 },
		{ "/root/.ssh/authorized_keys", 402 },
		{ "/workspace/onstart.sh", 512 },
		{ "/workspace/requirements.txt", 184 },
		{ "/workspace/train.py", 6144 },
		{ "/workspace/data/train-00000.parquet", 268435456 },
		{ "/workspace/data/train-00001.parquet", 268435456 },
		{ "/workspace/data/valid-00000.parquet", 33554432 },
		{ "/workspace/checkpoints/step-1000.pt", 497954816 },
		{ "/workspace/checkpoints/step-2000.pt", 497954816 },
		{ "/workspace/.hf/hub/models--gpt2/model.safetensors", 548105171 },
	};
	for (size_t i = 0; i < sizeof base / sizeof *base; i++)
		json_object_set_new(fs, base[i].path, json_real(base[i].bytes + (double)(k * (long)(i + 1))));
	json_object_set_new(w->ops->fs, key, fs);
	return fs;
}

/* path made absolute (against "/") and without a trailing slash, into out. */
static void norm_path(const char *p, char *out, size_t n)
{
	if (p[0] == '/')
		snprintf(out, n, "%s", p);
	else
		snprintf(out, n, "/%s", !strcmp(p, ".") ? "" : p);
	size_t l = strlen(out);
	while (l > 1 && out[l - 1] == '/')
		out[--l] = '\0';
	if (l > 2 && !strcmp(out + l - 2, "/."))
		out[l - 2 > 0 ? l - 2 : 1] = '\0';
}

/* Whether file f lies under directory d ("/" holds everything). */
static bool under(const char *f, const char *d)
{
	size_t l = strlen(d);
	if (!strcmp(d, "/"))
		return true;
	return !strncmp(f, d, l) && f[l] == '/';
}

/* 0: no such path; 1: a file; 2: a directory.  *bytes: its size (a
 * directory's: everything under it). */
static int fs_stat(const json_t *fs, const char *p, double *bytes)
{
	const char *k;
	json_t *v;
	int kind = 0;
	*bytes = 0;
	json_object_foreach((json_t *)fs, k, v) {
		if (!strcmp(k, p)) {
			*bytes = json_number_value(v);
			return 1;
		}
		if (under(k, p)) {
			kind = 2;
			*bytes += json_number_value(v);
		}
	}
	return !strcmp(p, "/") ? 2 : kind;
}

static void human(double b, char *out, size_t n)
{
	static const char units[] = "KMGT";
	if (b < 1024) {
		snprintf(out, n, "%.0f", b);
		return;
	}
	int u = -1;
	while (b >= 1024 && u < 3) {
		b /= 1024;
		u++;
	}
	snprintf(out, n, b < 10 ? "%.1f%c" : "%.0f%c", b, units[u]);
}

struct out {
	char *p;
	size_t n, cap;
};

static void outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(struct out *o, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int l = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (l < 0)
		return;
	size_t ll = (size_t)l < sizeof line ? (size_t)l : sizeof line - 1;
	if (o->n + ll + 1 > o->cap) {
		o->cap = (o->cap + ll + 1) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p)
			abort();
	}
	memcpy(o->p + o->n, line, ll + 1);
	o->n += ll;
}

/* The names directly in directory d (sorted: the object keeps paths in
 * insertion order, so gather and sort). */
static json_t *children(const json_t *fs, const char *d)
{
	json_t *names = json_object();
	const char *k;
	json_t *v;
	size_t dl = !strcmp(d, "/") ? 0 : strlen(d);
	json_object_foreach((json_t *)fs, k, v) {
		if (!under(k, d))
			continue;
		const char *rest = k + dl + 1;
		const char *sl = strchr(rest, '/');
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(sl ? (size_t)(sl - rest) : strlen(rest)), rest);
		json_object_set_new(names, name, json_boolean(sl != NULL));
	}
	return names;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of children() in order (malloc'd; borrowed from names),
 * only the directories when dirs; their count in *n. */
static const char **sorted_names(json_t *names, bool dirs, size_t *n)
{
	const char **sorted = malloc((json_object_size(names) + 1) * sizeof *sorted);
	if (!sorted)
		abort();
	size_t j = 0;
	const char *k;
	json_t *v;
	json_object_foreach(names, k, v)
		if (!dirs || json_is_true(v))
			sorted[j++] = k;
	qsort(sorted, j, sizeof *sorted, cmp_str);
	*n = j;
	return sorted;
}

/* An operand of ls or du: made absolute into p and looked up (0: none,
 * said on o as the tool says it; 1: a file; 2: a directory). */
static int operand(const json_t *fs, const char *tool, const char *arg, char *p, size_t n, double *bytes,
		   struct out *o)
{
	norm_path(arg, p, n);
	int kind = fs_stat(fs, p, bytes);
	if (!kind)
		outf(o, "%s: cannot access '%s': No such file or directory\n", tool, arg);
	return kind;
}

/* ls [-laRrhto1...] [path...] */
static void run_ls(const json_t *fs, char **argv, int argc, const char *wp, struct out *o)
{
	bool lng = false, rev = false;
	int npaths = 0;
	const char *paths[64];
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-') {
			for (const char *f = argv[i] + 1; *f; f++) {
				if (*f == 'l' || *f == 'o' || *f == 'g')
					lng = true;
				else if (*f == 'r')
					rev = true;
				else if (!strchr("aAhtR1dSs", *f)) {
					outf(o, "ls: invalid option -- '%c'\nTry 'ls --help' for more information.\n", *f);
					return;
				}
			}
		} else {
			paths[npaths++] = argv[i];
		}
	if (!npaths)
		paths[npaths++] = ".";
	for (int i = 0; i < npaths; i++) {
		char p[512];
		double bytes;
		int kind = operand(fs, "ls", paths[i], p, sizeof p, &bytes, o);
		if (!kind)
			continue;
		if (kind == 1) {
			if (lng)
				outf(o, "-rw-r--r-- 1 root root %.0f Nov 27 12:00 %s%s\n", bytes, wp, p);
			else
				outf(o, "%s%s\n", wp, p);
			continue;
		}
		if (npaths > 1)
			outf(o, "%s%s:\n", wp, p);
		json_t *names = children(fs, p);
		size_t n;
		const char **sorted = sorted_names(names, false, &n);
		if (lng)
			outf(o, "total %zu\n", n * 4);
		for (size_t m = 0; m < n; m++) {
			const char *name = sorted[rev ? n - 1 - m : m];
			bool dir = json_is_true(json_object_get(names, name));
			if (lng) {
				char full[768];
				snprintf(full, sizeof full, "%s/%s", !strcmp(p, "/") ? "" : p, name);
				double sz;
				fs_stat(fs, full, &sz);
				outf(o, "%s 1 root root %.0f Nov 27 12:00 %s\n", dir ? "drwxr-xr-x" : "-rw-r--r--",
				     dir ? 4096.0 : sz, name);
			} else {
				outf(o, "%s\n", name);
			}
		}
		free(sorted);
		json_decref(names);
	}
}

/* The directories under d (d itself included), each once, deepest first
 * as du lists them, down to depth max (-1: any). */
static void du_dirs(const json_t *fs, const char *d, int depth, int max, bool hum, const char *wp,
		    struct out *o)
{
	json_t *names = children(fs, d);
	size_t j;
	const char **sorted = sorted_names(names, true, &j);
	for (size_t m = 0; m < j; m++) {
		char sub[768];
		snprintf(sub, sizeof sub, "%s/%s", !strcmp(d, "/") ? "" : d, sorted[m]);
		du_dirs(fs, sub, depth + 1, max, hum, wp, o);
	}
	free(sorted);
	json_decref(names);
	if (max >= 0 && depth > max)
		return;
	double bytes;
	fs_stat(fs, d, &bytes);
	char sz[32];
	if (hum)
		human(bytes, sz, sizeof sz);
	else
		snprintf(sz, sizeof sz, "%.0f", ceil(bytes / 1024));
	outf(o, "%s\t%s%s\n", sz, wp, d);
}

/* du [-h] [-s] [-d N | -dN | --max-depth=N] [path...] */
static void run_du(const json_t *fs, char **argv, int argc, const char *wp, struct out *o)
{
	bool hum = false;
	int max = -1, npaths = 0;
	const char *paths[64];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "--max-depth=", 12))
			max = atoi(a + 12);
		else if (!strcmp(a, "-d") && i + 1 < argc)
			max = atoi(argv[++i]);
		else if (a[0] == '-') {
			for (const char *f = a + 1; *f; f++) {
				if (*f == 'h')
					hum = true;
				else if (*f == 's')
					max = 0;
				else if (*f == 'd' && isdigit((unsigned char)f[1])) {
					max = atoi(f + 1);
					break;
				} else if (!strchr("ack", *f)) {
					outf(o, "du: invalid option -- '%c'\nTry 'du --help' for more information.\n", *f);
					return;
				}
			}
		} else {
			paths[npaths++] = a;
		}
	}
	if (!npaths)
		paths[npaths++] = ".";
	for (int i = 0; i < npaths; i++) {
		char p[512];
		double bytes;
		int kind = operand(fs, "du", paths[i], p, sizeof p, &bytes, o);
		if (kind == 1) {
			char sz[32];
			if (hum)
				human(bytes, sz, sizeof sz);
			else
				snprintf(sz, sizeof sz, "%.0f", ceil(bytes / 1024));
			outf(o, "%s\t%s%s\n", sz, wp, p);
		} else if (kind == 2) {
			du_dirs(fs, p, 0, max, hum, wp, o);
		}
	}
}

/* rm [-r] [-f] path...: changes the tree. */
static void run_rm(json_t *fs, char **argv, int argc, struct out *o)
{
	bool rec = false, force = false;
	int npaths = 0;
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-') {
			for (const char *f = argv[i] + 1; *f; f++)
				if (*f == 'r' || *f == 'R')
					rec = true;
				else if (*f == 'f')
					force = true;
				else if (*f != 'v' && *f != 'd') {
					outf(o, "rm: invalid option -- '%c'\nTry 'rm --help' for more information.\n", *f);
					return;
				}
		} else {
			npaths++;
		}
	if (!npaths && !force) {
		outf(o, "rm: missing operand\nTry 'rm --help' for more information.\n");
		return;
	}
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		char p[512];
		norm_path(argv[i], p, sizeof p);
		double bytes;
		int kind = fs_stat(fs, p, &bytes);
		if (!kind) {
			if (!force)
				outf(o, "rm: cannot remove '%s': No such file or directory\n", argv[i]);
		} else if (kind == 2 && !rec) {
			outf(o, "rm: cannot remove '%s': Is a directory\n", argv[i]);
		} else if (kind == 1) {
			json_object_del(fs, p);
		} else {
			const char *k;
			json_t *v;
			void *tmp;
			json_object_foreach_safe(fs, tmp, k, v)
				if (under(k, p))
					json_object_del(fs, k);
		}
	}
}

/* ---- execute ------------------------------------------------------------- */

/* The container cannot be reached: no container yet, or its host gone. */
static bool unreachable(const struct inst *in)
{
	const char *a = jstr(in->o, "actual_status");
	return !a || !strcmp(a, "offline") || !strcmp(a, "unknown");
}

/* PUT /api/v0/instances/command/{id}/ {"command"} -> result_url. */
static void h_execute(struct ctx *c)
{
	struct inst *in = c->id >= 0 ? world_find(c->w, c->id) : NULL;
	if (!in) {
		fail(c, 400, "invalid_container_id", "No such instance: %s", c->seg ? c->seg : "");
		return;
	}
	const char *cmd = jstr(c->body, "command");
	if (!cmd || !*cmd || strlen(cmd) > COMMAND_MAX || strpbrk(cmd, ";&|`$<>()\\\n\r")) {
		routes_error(c->rs, 400, "invalid_args", "Invalid command given.");
		return;
	}
	char *dup = strdup(cmd), *save = NULL;
	char *argv[64];
	int argc = 0;
	for (char *t = strtok_r(dup, " \t", &save); t && argc < 64; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc || (strcmp(argv[0], "ls") && strcmp(argv[0], "du") && strcmp(argv[0], "rm"))) {
		free(dup);
		routes_error(c->rs, 400, "invalid_args", "Invalid command given.");
		return;
	}
	if (unreachable(in)) {
		free(dup);
		fail(c, 400, "invalid_container", "The container of instance %ld cannot be reached", in->id);
		return;
	}
	/* the container's writeable layer as the host sees it: the answer names
	 * it and the output's paths carry it (the CLI strips it) */
	char wp[160];
	snprintf(wp, sizeof wp, "/var/lib/docker/overlay2/%016lx%016lx/merged", (unsigned long)in->id * 2654435761UL,
		 (unsigned long)jnum(in->o, "machine_id", 0));
	json_t *fs = inst_fs(c->w, in);
	struct out o = { 0 };
	outf(&o, "%s", "");
	if (!strcmp(argv[0], "ls"))
		run_ls(fs, argv, argc, wp, &o);
	else if (!strcmp(argv[0], "du"))
		run_du(fs, argv, argc, wp, &o);
	else
		run_rm(fs, argv, argc, &o);
	free(dup);
	char url[256];
	routes_result_url(c->w, o.p, c->rq->now + EXEC_READY / c->w->opt.speed, url, sizeof url);
	put(c->rs, 200, json_pack("{s:b,s:s,s:s,s:s}", "success", 1, "writeable_path", wp, "result_url", url, "msg",
				  "Command is executing, wait a few seconds and then view the result_url"));
}

/* ---- copy ---------------------------------------------------------------- */

enum loc_kind { LOC_LOCAL, LOC_INST, LOC_VOL, LOC_BAD };

/* A copy location as the CLI sends it: null or "local", an instance id (a
 * number, its text, or "C.N"), a volume "V.N"; anything else (a cloud
 * connection) is not served here. */
static enum loc_kind loc(const json_t *v, long *id)
{
	*id = -1;
	if (!v || json_is_null(v))
		return LOC_LOCAL;
	if (json_is_integer(v)) {
		*id = (long)json_integer_value(v);
		return LOC_INST;
	}
	const char *s = json_string_value(v);
	if (!s)
		return LOC_BAD;
	if (!strcmp(s, "local"))
		return LOC_LOCAL;
	enum loc_kind k = LOC_INST;
	if ((s[0] == 'C' || s[0] == 'V') && s[1] == '.') {
		k = s[0] == 'C' ? LOC_INST : LOC_VOL;
		s += 2;
	}
	char *end;
	long n = strtol(s, &end, 10);
	if (end == s || *end || n < 0)
		return LOC_BAD;
	*id = n;
	return k;
}

static void job_msg(struct world *w, struct copy_job *j, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void job_msg(struct world *w, struct copy_job *j, const char *fmt, ...)
{
	struct inst *in = world_find(w, j->dst);
	if (!in)
		return;
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	json_object_set_new(in->o, "status_msg", json_string(msg));
}

static struct copy_job *job_add(struct world *w)
{
	struct ops_state *s = w->ops;
	s->jobs = realloc(s->jobs, (s->njobs + 1) * sizeof *s->jobs);
	if (!s->jobs)
		abort();
	struct copy_job *j = &s->jobs[s->njobs++];
	memset(j, 0, sizeof *j);
	j->src_vol = -1;
	return j;
}

/* The bytes under src_path of the copy's source (a volume's: its used space). */
static double copy_bytes(struct world *w, struct inst *src, const char *path)
{
	if (!src)
		return 2e9;
	char p[512];
	norm_path(path, p, sizeof p);
	double b;
	return fs_stat(inst_fs(w, src), p, &b) ? b : -1;
}

/* PUT /api/v0/commands/copy_direct/ and /commands/rsync/ (the CLI's copy:
 * rsync when one side is local). */
static void h_copy(struct ctx *c, bool rsync)
{
	long sid, did;
	enum loc_kind sk = loc(json_object_get(c->body, "src_id"), &sid);
	enum loc_kind dk = loc(json_object_get(c->body, "dst_id"), &did);
	const char *sp = jstr(c->body, "src_path"), *dp = jstr(c->body, "dst_path");
	if (!sp || !*sp) {
		routes_error(c->rs, 400, "invalid_args", "Invalid src_path.");
		return;
	}
	if (!dp || !*dp) {
		routes_error(c->rs, 400, "invalid_args", "Invalid dst_path.");
		return;
	}
	if (sk == LOC_BAD || dk == LOC_BAD) {
		routes_error(c->rs, 400, "invalid_args", "Invalid src_id or dst_id: an instance id, C.ID, V.ID or local");
		return;
	}
	bool local = sk == LOC_LOCAL || dk == LOC_LOCAL;
	if (local != rsync || (sk == LOC_LOCAL && dk == LOC_LOCAL)) {
		routes_error(c->rs, 400, "invalid_args",
			     rsync ? "rsync copies between one instance and the local machine"
				   : "copy_direct copies between two remote locations; use rsync for local");
		return;
	}
	if ((sk == LOC_VOL && dk == LOC_LOCAL) || dk == LOC_VOL) {
		routes_error(c->rs, 400, "invalid_args",
			     dk == LOC_VOL ? "Copying into a volume is not supported here: copy into an instance"
					   : "Volume copy is only supported to other volumes, instances or cloud services, "
					     "not local");
		return;
	}
	struct inst *src = sk == LOC_INST ? world_find(c->w, sid) : NULL;
	struct inst *dst = dk == LOC_INST ? world_find(c->w, did) : NULL;
	bool vol_ok = sk != LOC_VOL || vols_find(c->w, sid) != NULL;
	if ((sk == LOC_INST && !src) || (dk == LOC_INST && !dst) || !vol_ok) {
		routes_error(c->rs, 404, "no_such_user", "No such user.");
		return;
	}
	if (rsync) {
		struct inst *in = src ? src : dst;
		const char *ip = jstr(in->o, "public_ipaddr") ? jstr(in->o, "public_ipaddr") : "";
		put(c->rs, 200, json_pack("{s:b,s:s,s:I}", "success", 1, src ? "src_addr" : "dst_addr", ip,
					  src ? "src_port" : "dst_port",
					  (json_int_t)jnum(in->o, "machine_dir_ssh_port", 0)));
		return;
	}
	bool svm = src && json_is_true(json_object_get(src->o, "vm"));
	bool dvm = dst && json_is_true(json_object_get(dst->o, "vm"));
	if (svm && strcmp(sp, "/")) {
		routes_error(c->rs, 400, "invalid_args", "src_path not supported VMs.");
		return;
	}
	if (dvm && strcmp(dp, "/")) {
		routes_error(c->rs, 400, "invalid_args", "dst_path not supported for VMs.");
		return;
	}
	if (dvm && dst->c_running) {
		routes_error(c->rs, 400, "invalid_args", "The destination VM must be stopped during the transfer.");
		return;
	}
	struct copy_job *j = job_add(c->w);
	j->kind = JOB_COPY;
	j->state = JS_QUEUED;
	j->src = src ? src->id : -1;
	j->src_vol = sk == LOC_VOL ? sid : -1;
	j->dst = dst->id;
	snprintf(j->src_path, sizeof j->src_path, "%s", sp);
	snprintf(j->dst_path, sizeof j->dst_path, "%s", dp);
	j->bytes = copy_bytes(c->w, src, sp);
	j->start = c->rq->now + COPY_START / c->w->opt.speed;
	j->end = j->start + fmax(COPY_MIN, (j->bytes > 0 ? j->bytes : 0) / COPY_RATE) / c->w->opt.speed;
	put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg",
				  "Remote to Remote copy initiated - check instance status bar for progress updates "
				  "(~30 seconds delayed)."));
}

static void h_copy_direct(struct ctx *c)
{
	h_copy(c, false);
}

static void h_rsync(struct ctx *c)
{
	h_copy(c, true);
}

/* DELETE /api/v0/commands/copy_direct/ {"dst_id"}: every copy into dst
 * that has not ended stops (none: still a success). */
static void h_copy_cancel(struct ctx *c)
{
	long did;
	if (loc(json_object_get(c->body, "dst_id"), &did) != LOC_INST) {
		routes_error(c->rs, 400, "invalid_args", "Invalid dst_id.");
		return;
	}
	if (!world_find(c->w, did)) {
		routes_error(c->rs, 404, "no_such_user", "No such user.");
		return;
	}
	struct ops_state *s = c->w->ops;
	for (size_t i = 0; i < s->njobs; i++) {
		struct copy_job *j = &s->jobs[i];
		if (j->kind == JOB_COPY && j->dst == did && (j->state == JS_QUEUED || j->state == JS_RUNNING)) {
			j->state = JS_CANCELED;
			job_msg(c->w, j, "Remote copy canceled: %s -> %s", j->src_path, j->dst_path);
		}
	}
	put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg",
				  "Remote copy canceled - check instance status bar for progress updates (~30 seconds "
				  "delayed)."));
}

/* A finished copy's files: rsync's rule, a source ending in '/' copies
 * what is in it, else the directory (or file) itself into dst_path. */
static void copy_apply(struct world *w, const struct copy_job *j)
{
	struct inst *dst = world_find(w, j->dst);
	if (!dst)
		return;
	json_t *dfs = inst_fs(w, dst);
	char sp[512], dp[512];
	norm_path(j->src_path, sp, sizeof sp);
	norm_path(j->dst_path, dp, sizeof dp);
	const char *base = strrchr(sp, '/');
	bool contents = j->src_path[strlen(j->src_path) - 1] == '/';
	struct inst *src = j->src >= 0 ? world_find(w, j->src) : NULL;
	if (!src) { /* a volume's data: one archive of it */
		char to[1100];
		snprintf(to, sizeof to, "%s/volume-%ld%s", !strcmp(dp, "/") ? "" : dp, j->src_vol, base ? base : "");
		json_object_set_new(dfs, to, json_real(2e9));
		return;
	}
	json_t *sfs = json_deep_copy(inst_fs(w, src)); /* src may be dst */
	const char *k;
	json_t *v;
	json_object_foreach(sfs, k, v) {
		bool file = !strcmp(k, sp);
		if (!file && !under(k, sp))
			continue;
		char to[1100];
		const char *into = !strcmp(dp, "/") ? "" : dp;
		const char *rest = k + (file ? (size_t)(base - sp) : strlen(sp));
		if (contents && !file)
			snprintf(to, sizeof to, "%s%s", into, !strcmp(sp, "/") ? k : rest);
		else /* the file, or the directory by its name */
			snprintf(to, sizeof to, "%s%s%s", into, file ? "" : base, rest);
		json_object_set(dfs, to, v);
	}
	json_decref(sfs);
}

static void human_or(double b, char *out, size_t n)
{
	human(b > 0 ? b : 0, out, n);
	strncat(out, "B", n - strlen(out) - 1);
}

void ops_jobs_advance(struct world *w, double now)
{
	struct ops_state *s = w->ops;
	for (size_t i = 0; i < s->njobs; i++) {
		struct copy_job *j = &s->jobs[i];
		if (j->state != JS_QUEUED && j->state != JS_RUNNING)
			continue;
		struct inst *dst = world_find(w, j->dst);
		if (!dst) {
			j->state = JS_FAILED;
			continue;
		}
		if (now < j->start)
			continue;
		double frac = fmin(1.0, (now - j->start) / (j->end - j->start));
		if (j->kind == JOB_SNAPSHOT) {
			if (!dst->c_running) {
				j->state = JS_FAILED;
				job_msg(w, j, "Snapshot failed: the container stopped before %s was pushed", j->what);
			} else if (frac >= 1.0) {
				j->state = JS_DONE;
				job_msg(w, j, "Snapshot pushed to %s", j->what);
			} else if (now < j->start + SNAP_COMMIT / w->opt.speed) {
				j->state = JS_RUNNING;
				job_msg(w, j, "Snapshot: committing the container");
			} else {
				j->state = JS_RUNNING;
				job_msg(w, j, "Snapshot: pushing to %s (%.0f%%)", j->what, 100.0 * frac);
			}
			continue;
		}
		struct inst *src = j->src >= 0 ? world_find(w, j->src) : NULL;
		if (j->state == JS_QUEUED && j->bytes < 0) {
			j->state = JS_FAILED;
			job_msg(w, j, "Remote copy failed: rsync: link_stat \"%s\" failed: No such file or directory (2)",
				j->src_path);
			continue;
		}
		if ((j->src >= 0 && (!src || unreachable(src))) || unreachable(dst)) {
			j->state = JS_FAILED;
			job_msg(w, j, "Remote copy failed at %.0f%%: %s instance %ld is not reachable", 100.0 * frac,
				(j->src >= 0 && (!src || unreachable(src))) ? "source" : "destination",
				(j->src >= 0 && (!src || unreachable(src))) ? j->src : j->dst);
			continue;
		}
		char done[32], total[32];
		human_or(j->bytes * frac, done, sizeof done);
		human_or(j->bytes, total, sizeof total);
		if (frac >= 1.0) {
			j->state = JS_DONE;
			copy_apply(w, j);
			job_msg(w, j, "Remote copy finished: %s copied to %s", total, j->dst_path);
		} else {
			j->state = JS_RUNNING;
			job_msg(w, j, "Remote copy in progress: %.0f%% (%s of %s) %s -> %s", 100.0 * frac, done, total,
				j->src_path, j->dst_path);
		}
	}
}

void ops_jobs_free(struct ops_state *s)
{
	free(s->jobs);
	s->jobs = NULL;
	s->njobs = 0;
}

/* ---- recycle, update_template -------------------------------------------- */

/* A fresh container from the (possibly new) image on the same machine:
 * back through provisioning and loading, the rental kept.  Refused when
 * the host cannot be reached or the instance is stopped. */
static bool recreate(struct ctx *c, struct inst *in, const char *what)
{
	const char *a = jstr(in->o, "actual_status");
	const char *intended = jstr(in->o, "intended_status");
	if (a && (!strcmp(a, "offline") || !strcmp(a, "unknown"))) {
		fail(c, 400, "invalid_state", "The host is not reachable; the instance cannot be %s", what);
		return false;
	}
	if (intended && !strcmp(intended, "stopped")) {
		fail(c, 400, "invalid_state", "The instance is stopped: start it before it is %s", what);
		return false;
	}
	in->phase = PH_PROVISION;
	in->plan = in->image_login || strncmp(jstr(in->o, "image_uuid") ? jstr(in->o, "image_uuid") : "", "private/", 8)
			   ? BOOT_OK
			   : BOOT_PULL;
	in->outbid = false;
	in->t_next = c->rq->now + T_RECREATE / c->w->opt.speed;
	json_object_set_new(in->o, "actual_status", json_null());
	json_object_set_new(in->o, "intended_status", json_string("running"));
	json_object_set_new(in->o, "next_state", json_string("running"));
	json_object_set_new(in->o, "cur_state", json_string("stopped"));
	json_object_set_new(in->o, "status_msg", json_string("recycling"));
	json_object_del(in->o, "ports");
	world_inst_sync(c->w, in);
	return true;
}

/* PUT /api/v0/instances/recycle/{id}/ */
static void h_recycle(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (in && recreate(c, in, "recycled"))
		put(c->rs, 200, json_pack("{s:b}", "success", 1));
}

static json_t *template_find(struct world *w, const json_t *id, const char *hash)
{
	size_t i;
	json_t *t;
	json_array_foreach(w->templates, i, t) {
		if (hash && jstr(t, "hash_id") && !strcmp(jstr(t, "hash_id"), hash))
			return t;
		if (json_is_integer(id) && json_equal(json_object_get(t, "id"), id))
			return t;
	}
	return NULL;
}

/* env as the CLI sends it (an object of name -> value, or the "-e A=1"
 * flags text) as extra_env pairs; NULL when it is neither. */
static json_t *env_pairs(const json_t *env)
{
	json_t *pairs = json_array();
	if (json_is_object(env)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)env, k, v)
			if (strncmp(k, "-p ", 3) && json_is_string(v))
				json_array_append_new(pairs, json_pack("[s,O]", k, v));
		return pairs;
	}
	const char *s = json_string_value(env);
	if (!s) {
		json_decref(pairs);
		return NULL;
	}
	char *dup = strdup(s), *save = NULL;
	bool e = false;
	for (char *t = strtok_r(dup, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(t, '=');
		if (e && eq) {
			*eq = '\0';
			json_array_append_new(pairs, json_pack("[s,s]", t, eq + 1));
		}
		e = !strcmp(t, "-e");
	}
	free(dup);
	return pairs;
}

/* PUT /api/v0/instances/update_template/{id}/: the instance takes the
 * template's (or the given) image, env and onstart and is recreated. */
static void h_update_template(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	json_t *tid = json_object_get(c->body, "template_id");
	const char *hash = jstr(c->body, "template_hash_id");
	json_t *img = json_object_get(c->body, "image"), *env = json_object_get(c->body, "env");
	json_t *onstart = json_object_get(c->body, "onstart"), *args = json_object_get(c->body, "args");
	json_t *tpl = NULL;
	if ((hash || json_is_integer(tid)) && !(tpl = template_find(c->w, tid, hash))) {
		fail(c, 400, "invalid_args", "No such template: %s", hash ? hash : "(template_id)");
		return;
	}
	if (!tpl && !json_is_string(img) && !env && !json_is_string(onstart) && !args) {
		routes_error(c->rs, 400, "invalid_args",
			     "Nothing to update: give template_id, template_hash_id, image, args, env or onstart");
		return;
	}
	const char *image = json_string_value(img);
	if (image && (!*image || strpbrk(image, " \t"))) {
		routes_error(c->rs, 400, "invalid_args", "invalid image name");
		return;
	}
	json_t *pairs = env ? env_pairs(env) : NULL;
	if (env && !pairs) {
		routes_error(c->rs, 400, "invalid_args", "env must be an object of name to value or -e flags");
		return;
	}
	if (!recreate(c, in, "updated")) {
		json_decref(pairs);
		return;
	}
	if (tpl) {
		json_object_set(in->o, "template_id", json_object_get(tpl, "id"));
		json_object_set(in->o, "template_hash_id", json_object_get(tpl, "hash_id"));
		json_object_set(in->o, "template_name", json_object_get(tpl, "name"));
		char buf[600];
		const char *ti = jstr(tpl, "image"), *tag = jstr(tpl, "tag");
		if (ti) {
			snprintf(buf, sizeof buf, "%s%s%s", ti, tag && *tag && !strchr(ti, ':') ? ":" : "",
				 tag && *tag && !strchr(ti, ':') ? tag : "");
			json_object_set_new(in->o, "image_uuid", json_string(buf));
		}
		if (jstr(tpl, "onstart"))
			json_object_set(in->o, "onstart", json_object_get(tpl, "onstart"));
		if (!pairs && jstr(tpl, "env")) {
			json_t *flags = json_string(jstr(tpl, "env"));
			pairs = env_pairs(flags);
			json_decref(flags);
		}
	}
	if (image)
		json_object_set(in->o, "image_uuid", img);
	if (json_is_string(onstart))
		json_object_set(in->o, "onstart", onstart);
	if (json_is_string(args))
		json_object_set(in->o, "args_str", args);
	if (pairs)
		json_object_set_new(in->o, "extra_env", pairs);
	world_inst_sync(c->w, in);
	in->plan = !strncmp(jstr(in->o, "image_uuid") ? jstr(in->o, "image_uuid") : "", "private/", 8) &&
			   !in->image_login
		   ? BOOT_PULL
		   : BOOT_OK;
	put(c->rs, 200, json_pack("{s:b,s:O}", "success", 1, "updated_instance", in->o));
}

/* ---- take_snapshot --------------------------------------------------------- */

/* POST /api/v0/instances/take_snapshot/{id}/ {container_registry,
 * personal_repo, docker_login_user, docker_login_pass, pause}: a running
 * container is committed and pushed; the login is checked and forgotten. */
static void h_snapshot(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	const char *repo = jstr(c->body, "personal_repo");
	const char *reg = jstr(c->body, "container_registry");
	const char *user = jstr(c->body, "docker_login_user"), *pass = jstr(c->body, "docker_login_pass");
	if (!repo || !*repo || strpbrk(repo, " \t")) {
		routes_error(c->rs, 400, "invalid_args", "personal_repo (the repository to push to) is required");
		return;
	}
	if (!user || !*user || !pass || !*pass) {
		routes_error(c->rs, 400, "invalid_args",
			     "docker_login_user and docker_login_pass are required to push to the registry");
		return;
	}
	if (!in->c_running) {
		fail(c, 400, "invalid_state", "Instance %ld is not running: only a running container can be snapshotted",
		     in->id);
		return;
	}
	struct copy_job *j = job_add(c->w);
	j->kind = JOB_SNAPSHOT;
	j->state = JS_QUEUED;
	j->src = j->dst = in->id;
	snprintf(j->what, sizeof j->what, "%s/%s", reg && *reg ? reg : "docker.io", repo);
	j->start = c->rq->now;
	j->end = c->rq->now + (SNAP_COMMIT + SNAP_PUSH) / c->w->opt.speed;
	put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg", "Snapshot request sent successfully."));
}

/* ---- per-instance SSH keys ------------------------------------------------- */

/* The account key ids attached to the instance (made on first use: the
 * keys the account had when the instance was created, as the service
 * installs them then). */
static json_t *inst_keys(struct world *w, struct inst *in)
{
	long id = in->id;
	char key[32];
	snprintf(key, sizeof key, "%ld", id);
	json_t *a = json_object_get(w->ops->ssh, key);
	if (a)
		return a;
	a = json_array();
	size_t i;
	json_t *k;
	json_array_foreach(w->ssh_keys, i, k)
		if (jnum(k, "created_at", 0) <= jnum(in->o, "start_date", 0))
			json_array_append(a, json_object_get(k, "id"));
	json_object_set_new(w->ops->ssh, key, a);
	return a;
}

static json_t *account_key(struct world *w, const json_t *id, const char *pub)
{
	size_t i;
	json_t *k;
	json_array_foreach(w->ssh_keys, i, k)
		if ((id && json_equal(json_object_get(k, "id"), id)) ||
		    (pub && jstr(k, "public_key") && !strcmp(jstr(k, "public_key"), pub)))
			return k;
	return NULL;
}

/* GET /api/v0/instances/{id}/ssh/: {"success", "ssh_keys"}, the keys as a
 * JSON text (show_instance_ssh_keys.yaml). */
static void h_inst_ssh_get(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	json_t *list = json_array();
	size_t i;
	json_t *id;
	json_array_foreach(inst_keys(c->w, in), i, id) {
		json_t *k = account_key(c->w, id, NULL);
		if (k)
			json_array_append_new(list, json_pack("{s:O,s:s?,s:O}", "id", id, "name", jstr(k, "name"),
							      "public_key", json_object_get(k, "public_key")));
	}
	char *text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "ssh_keys", text ? text : "[]"));
	free(text);
}

/* POST /api/v0/instances/{id}/ssh/ {"ssh_key"}: a key the account lacks is
 * registered with it (its id is what detach takes). */
static void h_inst_ssh_attach(struct ctx *c)
{
	struct inst *in = routes_need_inst(c, 404, "no_such_instance");
	if (!in)
		return;
	const char *pub = jstr(c->body, "ssh_key");
	if (!pub || (strncmp(pub, "ssh-", 4) && strncmp(pub, "ecdsa-", 6) && strncmp(pub, "sk-", 3)) ||
	    strlen(pub) > 16384 || strchr(pub, '\n')) {
		routes_error(c->rs, 400, "invalid_args", "ssh_key must be one OpenSSH public key line");
		return;
	}
	json_t *k = account_key(c->w, NULL, pub);
	if (!k) {
		k = json_pack("{s:I,s:I,s:s,s:s,s:f}", "id", (json_int_t)c->w->next_ssh_id++, "user_id",
			      json_integer_value(json_object_get(c->w->user, "id")), "public_key", pub, "key", pub,
			      "created_at", c->rq->now);
		json_array_append_new(c->w->ssh_keys, k);
	}
	json_t *ids = inst_keys(c->w, in);
	size_t i;
	json_t *id;
	bool have = false;
	json_array_foreach(ids, i, id)
		have |= json_equal(id, json_object_get(k, "id"));
	if (!have)
		json_array_append(ids, json_object_get(k, "id"));
	put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg", "SSH key attached successfully"));
}

/* DELETE /api/v0/instances/{id}/ssh/{ssh_key_id}/ */
static void h_inst_ssh_detach(struct ctx *c)
{
	long iid = -1, kid = -1;
	char tail;
	if (sscanf(c->rq->path, "/api/v0/instances/%ld/ssh/%ld%c", &iid, &kid, &tail) < 2 || kid < 0) {
		routes_error(c->rs, 400, "invalid_request", "Invalid request parameters");
		return;
	}
	struct inst *in = world_find(c->w, iid);
	if (!in) {
		routes_error(c->rs, 404, "no_such_instance", "Instance not found.");
		return;
	}
	json_t *ids = inst_keys(c->w, in);
	size_t i;
	json_t *id;
	json_array_foreach(ids, i, id)
		if (json_integer_value(id) == kid) {
			json_array_remove(ids, i);
			put(c->rs, 200, json_pack("{s:b,s:s}", "success", 1, "msg", "SSH key removed from instance."));
			return;
		}
	routes_error(c->rs, 404, "no_such_ssh_key", "SSH key not found on this instance.");
}

/* ---- the state, the table ---------------------------------------------------- */

struct ops_state *ops_new(struct world *w, double now)
{
	struct ops_state *s = calloc(1, sizeof *s);
	if (!s)
		abort();
	s->rng = w->opt.seed * 0x2545f4914f6cdd1dULL + 23;
	s->fs = json_object();
	s->ssh = json_object();
	w->ops = s;
	vols_seed(w, now);
	return s;
}

void ops_free(struct ops_state *s)
{
	if (!s)
		return;
	json_decref(s->fs);
	json_decref(s->ssh);
	ops_jobs_free(s);
	vols_free(s);
	free(s);
}

void ops_advance(struct world *w, double now)
{
	if (!w->ops)
		return;
	ops_jobs_advance(w, now);
	vols_advance(w, now);
}

#define A SL_ANY
#define S SL_SLASH
const struct route routes_inst_ops[] = {
	{ "PUT", "/api/v0/instances/command/{}", h_execute, RL_EXECUTE, R_WRITE, A, S },
	{ "PUT", "/api/v0/instances/recycle/{}", h_recycle, RL_STATE, R_WRITE, A, S },
	{ "PUT", "/api/v0/instances/update_template/{}", h_update_template, RL_NONE, R_WRITE, A, S },
	{ "POST", "/api/v0/instances/take_snapshot/{}", h_snapshot, RL_NONE, R_WRITE, A, S },
	{ "GET", "/api/v0/instances/{}/ssh", h_inst_ssh_get, RL_SSH_INST, 0, A, S },
	{ "POST", "/api/v0/instances/{}/ssh", h_inst_ssh_attach, RL_SSH_INST, R_WRITE, A, S },
	{ "DELETE", "/api/v0/instances/{}/ssh/{}", h_inst_ssh_detach, RL_SSH_INST, R_WRITE, A, S },
	{ "PUT", "/api/v0/commands/copy_direct", h_copy_direct, RL_COPY, R_WRITE, A, S },
	{ "DELETE", "/api/v0/commands/copy_direct", h_copy_cancel, RL_COPY, R_WRITE, A, S },
	{ "PUT", "/api/v0/commands/rsync", h_rsync, RL_COPY, R_WRITE, A, S },
	{ NULL, NULL, NULL, RL_NONE, 0, SL_NONE, SL_NONE },
};
#undef A
#undef S
