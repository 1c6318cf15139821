/* test_inst_ops.c: what one does with an instance in place, under the
 * manual clock: execute (ls, du, rm over the container's files, its
 * result_url served later, the commands refused), copy between instances
 * (progress in the destination's status_msg, the files arriving, a cancel,
 * a copy failing half way when its source drops out, the rsync answer for
 * a local side), recycle (back through provisioning and loading, refused
 * when stopped or unreachable), update_template, take_snapshot,
 * per-instance SSH keys, 404s on unknown ids, scoped keys and faults; the
 * services an instance record shows (ports, the Jupyter token). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

static int setup(void **state)
{
	(void)state;
	static const char *const args[] = { "--rate-limits", "off", "--clock", "manual", "--fail-rate", "0", NULL };
	return ct_start(args);
}

/* Two running on-demand seeded instances. */
static void two_running(long *a, long *b)
{
	*a = *b = -1;
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		const char *s = ct_str(o, "actual_status");
		if (!s || strcmp(s, "running") || json_is_true(json_object_get(o, "vm")))
			continue;
		if (*a < 0)
			*a = (long)ct_num(o, "id");
		else if (*b < 0)
			*b = (long)ct_num(o, "id");
	}
	json_decref(j);
	assert_true(*a > 0 && *b > 0);
}

/* Run cmd on id; the output once served (malloc'd), writeable_path stripped. */
static char *exec_out(long id, const char *cmd)
{
	char path[96], body[700];
	snprintf(path, sizeof path, "/api/v0/instances/command/%ld/", id);
	json_t *jc = json_pack("{s:s}", "command", cmd);
	char *b = json_dumps(jc, JSON_COMPACT);
	snprintf(body, sizeof body, "%s", b);
	free(b);
	json_decref(jc);
	json_t *j = ct_expect("PUT", path, body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	const char *url = ct_str(j, "result_url");
	char wp[256];
	snprintf(wp, sizeof wp, "%s", ct_str(j, "writeable_path"));
	assert_non_null(url);
	const char *rp = strstr(url, "/instance_logs/");
	assert_non_null(rp);
	char rpath[256];
	snprintf(rpath, sizeof rpath, "%s", rp);
	json_decref(j);
	struct http_result r = http_call(ct_sim, "GET", rpath, NULL, NULL);
	assert_int_equal(r.status, 404); /* not uploaded yet */
	http_result_free(&r);
	ct_advance(3);
	r = http_call(ct_sim, "GET", rpath, NULL, NULL);
	assert_int_equal(r.status, 200);
	/* the CLI's rule: the output's paths carry writeable_path, stripped */
	size_t wl = strlen(wp), o = 0;
	char *out = malloc(r.len + 1);
	for (size_t i = 0; i < r.len;) {
		if (wl && !strncmp(r.body + i, wp, wl)) {
			i += wl;
			continue;
		}
		out[o++] = r.body[i++];
	}
	out[o] = '\0';
	http_result_free(&r);
	return out;
}

static void status_msg_has(long id, const char *part)
{
	json_t *in = ct_inst(id);
	const char *m = ct_str(in, "status_msg");
	if (!m || !strstr(m, part))
		fail_msg("instance %ld: status_msg %s lacks %s", id, m ? m : "(null)", part);
	json_decref(in);
}

static void test_execute_ls_du_rm_change_the_files(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	char *out = exec_out(a, "ls -l /workspace");
	assert_non_null(strstr(out, "checkpoints"));
	assert_non_null(strstr(out, "train.py"));
	free(out);
	out = exec_out(a, "du -d1 -h /workspace");
	assert_non_null(strstr(out, "\t/workspace/checkpoints\n"));
	assert_non_null(strstr(out, "\t/workspace\n"));
	assert_null(strstr(out, "overlay2")); /* writeable_path stripped as the CLI does */
	free(out);
	out = exec_out(a, "rm /workspace/checkpoints");
	assert_non_null(strstr(out, "Is a directory"));
	free(out);
	out = exec_out(a, "rm -r /workspace/checkpoints");
	assert_string_equal(out, "");
	free(out);
	out = exec_out(a, "ls /workspace");
	assert_null(strstr(out, "checkpoints"));
	assert_non_null(strstr(out, "train.py"));
	free(out);
	out = exec_out(a, "ls /nope");
	assert_non_null(strstr(out, "No such file or directory"));
	free(out);
	/* a stopped instance's files can still be listed and freed */
	long stopped = ct_find("exited", "stopped");
	out = exec_out(stopped, "du -s -h /");
	assert_non_null(strstr(out, "\t/\n"));
	free(out);
}

static void test_execute_refusals(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/command/%ld/", a);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"command\":\"cat /etc/passwd\"}", 400, "invalid_args",
			"Invalid command given.");
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"command\":\"ls; rm -rf /\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"command\":\"ls $(id)\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, "invalid_args", NULL);
	char big[700];
	snprintf(big, sizeof big, "{\"command\":\"ls %0600d\"}", 0);
	ct_expect_error(ct_sim->full_key, "PUT", path, big, 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->ro_key, "PUT", path, "{\"command\":\"ls\"}", 401, "permission_denied", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/command/1/", "{\"command\":\"ls\"}", 400,
			"invalid_container_id", NULL);
	long prov = ct_find("null", NULL), off = ct_find("offline", NULL);
	snprintf(path, sizeof path, "/api/v0/instances/command/%ld/", prov);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"command\":\"ls\"}", 400, "invalid_container", NULL);
	snprintf(path, sizeof path, "/api/v0/instances/command/%ld/", off);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"command\":\"ls\"}", 400, "invalid_container", NULL);
}

static void copy(long src, long dst, const char *sp, const char *dp)
{
	char body[400];
	snprintf(body, sizeof body,
		 "{\"client_id\":\"me\",\"src_id\":\"C.%ld\",\"dst_id\":%ld,\"src_path\":\"%s\",\"dst_path\":\"%s\"}", src,
		 dst, sp, dp);
	json_t *j = ct_expect("PUT", "/api/v0/commands/copy_direct/", body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	assert_non_null(strstr(ct_str(j, "msg"), "status bar"));
	json_decref(j);
}

static void test_copy_progresses_and_the_files_arrive(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	copy(a, b, "/workspace/data/", "/workspace/in/");
	ct_advance(6); /* it starts after 5 s */
	status_msg_has(b, "Remote copy in progress: ");
	ct_advance(4);
	status_msg_has(b, "%");
	char *out = exec_out(b, "ls /workspace/in");
	assert_null(strstr(out, "train-00000.parquet")); /* not yet */
	free(out);
	ct_advance(30);
	status_msg_has(b, "Remote copy finished");
	out = exec_out(b, "ls /workspace/in");
	assert_non_null(strstr(out, "train-00000.parquet"));
	assert_non_null(strstr(out, "valid-00000.parquet"));
	free(out);
	/* without the trailing slash the directory itself is copied */
	copy(a, b, "/workspace/data", "/workspace/nest");
	ct_advance(60);
	out = exec_out(b, "ls /workspace/nest/data");
	assert_non_null(strstr(out, "train-00001.parquet"));
	free(out);
	/* a source path that does not exist fails at the start */
	copy(a, b, "/workspace/none/", "/workspace/x/");
	ct_advance(6);
	status_msg_has(b, "Remote copy failed: rsync: link_stat");
}

static void test_copy_fails_half_way_when_the_source_drops(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	copy(a, b, "/workspace/", "/workspace/all/");
	ct_advance(10);
	status_msg_has(b, "Remote copy in progress");
	char body[96];
	snprintf(body, sizeof body, "{\"id\":%ld,\"actual_status\":\"offline\"}", a);
	ct_ctl("instance", body);
	ct_advance(1);
	status_msg_has(b, "Remote copy failed at ");
	status_msg_has(b, "source instance");
	ct_advance(100);
	status_msg_has(b, "Remote copy failed at "); /* it stays failed */
	char *out = exec_out(b, "ls /workspace");
	assert_null(strstr(out, "all"));
	free(out);
}

static void test_copy_cancel(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	copy(a, b, "/workspace/", "/workspace/c/");
	ct_advance(8);
	char body[96];
	snprintf(body, sizeof body, "{\"client_id\":\"me\",\"dst_id\":\"%ld\"}", b);
	json_t *j = ct_expect("DELETE", "/api/v0/commands/copy_direct/", body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	status_msg_has(b, "Remote copy canceled");
	ct_advance(100);
	status_msg_has(b, "Remote copy canceled");
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/commands/copy_direct/", "{\"dst_id\":\"1\"}", 404,
			"no_such_user", NULL);
	ct_expect_error(ct_sim->full_key, "DELETE", "/api/v0/commands/copy_direct/", "{}", 400, "invalid_args",
			"dst_id");
}

static void test_copy_refusals_and_the_rsync_answer(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	char body[300];
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":%ld,\"dst_path\":\"/w/\"}", a, b);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/copy_direct/", body, 400, "invalid_args",
			"src_path");
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":1,\"src_path\":\"/w/\",\"dst_path\":\"/w/\"}", a);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/copy_direct/", body, 404, "no_such_user", NULL);
	snprintf(body, sizeof body, "{\"src_id\":\"s3.101\",\"dst_id\":%ld,\"src_path\":\"/w/\",\"dst_path\":\"/w/\"}", b);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/copy_direct/", body, 400, "invalid_args", NULL);
	snprintf(body, sizeof body, "{\"src_id\":\"local\",\"dst_id\":%ld,\"src_path\":\"d\",\"dst_path\":\"/w/\"}", b);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/copy_direct/", body, 400, "invalid_args", "rsync");
	ct_expect_error(ct_sim->ro_key, "PUT", "/api/v0/commands/rsync/", body, 401, "permission_denied", NULL);
	/* rsync: where the local side's rsync goes (cli/commands/storage.py copy) */
	json_t *j = ct_expect("PUT", "/api/v0/commands/rsync/", body, 200);
	json_t *in = ct_inst(b);
	assert_string_equal(ct_str(j, "dst_addr"), ct_str(in, "public_ipaddr"));
	assert_int_equal(ct_num(j, "dst_port"), ct_num(in, "machine_dir_ssh_port"));
	json_decref(j);
	json_decref(in);
	snprintf(body, sizeof body, "{\"src_id\":\"C.%ld\",\"dst_id\":null,\"src_path\":\"/w/\",\"dst_path\":\"d\"}", a);
	j = ct_expect("PUT", "/api/v0/commands/rsync/", body, 200);
	assert_non_null(ct_str(j, "src_addr"));
	assert_true(ct_num(j, "src_port") > 0);
	json_decref(j);
}

static void test_recycle_goes_back_through_loading_and_keeps_the_rental(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	json_t *before = ct_inst(a);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/recycle/%ld/", a);
	json_decref(ct_expect("PUT", path, "{}", 200));
	json_t *in = ct_inst(a);
	assert_true(json_is_null(json_object_get(in, "actual_status")));
	assert_null(json_object_get(in, "ports"));
	assert_float_equal(ct_num(in, "machine_id"), ct_num(before, "machine_id"), 0); /* same machine */
	assert_float_equal(ct_num(in, "start_date"), ct_num(before, "start_date"), 0); /* same rental */
	json_decref(in);
	json_decref(before);
	ct_advance(9);
	in = ct_inst(a);
	assert_string_equal(ct_str(in, "actual_status"), "loading");
	json_decref(in);
	ct_advance(31);
	in = ct_inst(a);
	assert_string_equal(ct_str(in, "actual_status"), "running");
	assert_non_null(json_object_get(in, "ports"));
	json_decref(in);
	/* refused: stopped, host unreachable, unknown id, a scoped key */
	snprintf(path, sizeof path, "/api/v0/instances/recycle/%ld/", ct_find("exited", "stopped"));
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, "invalid_state", "stopped");
	snprintf(path, sizeof path, "/api/v0/instances/recycle/%ld/", ct_find("offline", NULL));
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, "invalid_state", "not reachable");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/recycle/1/", "{}", 404, "no_such_instance", NULL);
	snprintf(path, sizeof path, "/api/v0/instances/recycle/%ld/", b);
	ct_expect_error(ct_sim->ro_key, "PUT", path, "{}", 401, "permission_denied", NULL);
	/* a crashed instance (the failure O offers it for) is recycled */
	snprintf(path, sizeof path, "/api/v0/instances/recycle/%ld/", ct_find("exited", "running"));
	json_decref(ct_expect("PUT", path, "{}", 200));
}

static void test_update_template_recreates_from_the_template(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	json_t *t = ct_expect("GET", "/api/v0/template/", NULL, 200);
	json_t *tpl = json_array_get(json_object_get(t, "templates"), 0);
	char hash[96], image[256];
	snprintf(hash, sizeof hash, "%s", ct_str(tpl, "hash_id"));
	snprintf(image, sizeof image, "%s", ct_str(tpl, "image"));
	json_decref(t);
	char path[96], body[256];
	snprintf(path, sizeof path, "/api/v0/instances/update_template/%ld/", a);
	snprintf(body, sizeof body, "{\"id\":%ld,\"template_hash_id\":\"%s\"}", a, hash);
	json_t *j = ct_expect("PUT", path, body, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	json_t *in = ct_inst(a);
	assert_string_equal(ct_str(in, "template_hash_id"), hash);
	assert_non_null(strstr(ct_str(in, "image_uuid"), image));
	assert_true(json_is_null(json_object_get(in, "actual_status")));
	json_decref(in);
	ct_advance(40);
	in = ct_inst(a);
	assert_string_equal(ct_str(in, "actual_status"), "running");
	json_decref(in);
	/* an image and env of one's own */
	snprintf(body, sizeof body, "{\"id\":%ld,\"image\":\"vastai/base-image:v2\",\"env\":{\"MODE\":\"x\"}}", a);
	json_decref(ct_expect("PUT", path, body, 200));
	in = ct_inst(a);
	assert_string_equal(ct_str(in, "image_uuid"), "vastai/base-image:v2");
	assert_string_equal(json_string_value(json_array_get(json_array_get(json_object_get(in, "extra_env"), 0), 0)),
			    "MODE");
	json_decref(in);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{\"template_hash_id\":\"nope\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 400, "invalid_args", "Nothing to update");
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/instances/update_template/1/", body, 404, "no_such_instance",
			NULL);
}

static void test_snapshot_commits_and_pushes_and_needs_a_login(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/take_snapshot/%ld/", a);
	ct_expect_error(ct_sim->full_key, "PUT", path, "{}", 405, NULL, NULL);
	ct_expect_error(ct_sim->full_key, "POST", path, "{\"docker_login_user\":\"u\",\"docker_login_pass\":\"p\"}", 400,
			"invalid_args", "personal_repo");
	ct_expect_error(ct_sim->full_key, "POST", path, "{\"personal_repo\":\"me/snap\"}", 400, "invalid_args",
			"docker_login");
	const char *ok = "{\"container_registry\":\"ghcr.io\",\"personal_repo\":\"me/snap\",\"docker_login_user\":\"me\","
			 "\"docker_login_pass\":\"s3cr3t-registry-token\",\"pause\":\"true\"}";
	json_t *j = ct_expect("POST", path, ok, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	json_decref(j);
	ct_advance(10);
	status_msg_has(a, "Snapshot: committing");
	ct_advance(120);
	status_msg_has(a, "Snapshot: pushing to ghcr.io/me/snap");
	ct_advance(200);
	status_msg_has(a, "Snapshot pushed to ghcr.io/me/snap");
	/* the registry login is in no answer */
	json_t *in = ct_inst(a);
	char *text = json_dumps(in, JSON_COMPACT);
	assert_null(strstr(text, "s3cr3t-registry-token"));
	free(text);
	json_decref(in);
	char p2[96];
	snprintf(p2, sizeof p2, "/api/v0/instances/take_snapshot/%ld/", ct_find("exited", "stopped"));
	ct_expect_error(ct_sim->full_key, "POST", p2, ok, 400, "invalid_state", "not running");
	ct_expect_error(ct_sim->full_key, "POST", "/api/v0/instances/take_snapshot/1/", ok, 404, "no_such_instance",
			NULL);
}

static json_t *inst_keys(long id)
{
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/ssh/", id);
	json_t *j = ct_expect("GET", path, NULL, 200);
	assert_true(json_is_true(json_object_get(j, "success")));
	/* show_instance_ssh_keys.yaml: the keys as a JSON text */
	json_t *keys = json_loads(ct_str(j, "ssh_keys"), 0, NULL);
	assert_true(json_is_array(keys));
	json_decref(j);
	return keys;
}

static void test_instance_ssh_keys_attach_list_detach(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	json_t *keys = inst_keys(a);
	assert_int_equal(json_array_size(keys), 1); /* the account's key */
	json_decref(keys);
	char path[96], kpath[128];
	snprintf(path, sizeof path, "/api/v0/instances/%ld/ssh/", a);
	const char *pub = "{\"ssh_key\":\"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIcontract laptop\"}";
	json_t *j = ct_expect("POST", path, pub, 200);
	assert_string_equal(ct_str(j, "msg"), "SSH key attached successfully");
	json_decref(j);
	json_decref(ct_expect("POST", path, pub, 200)); /* again: still once */
	keys = inst_keys(a);
	assert_int_equal(json_array_size(keys), 2);
	long kid = (long)ct_num(json_array_get(keys, 1), "id");
	assert_string_equal(ct_str(json_array_get(keys, 1), "public_key"),
			    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIcontract laptop");
	json_decref(keys);
	/* the key is the account's now too (its id is the one detach takes) */
	json_t *acct = ct_expect("GET", "/api/v0/ssh/", NULL, 200);
	assert_int_equal(json_array_size(acct), 2);
	json_decref(acct);
	keys = inst_keys(b); /* other instances keep theirs */
	assert_int_equal(json_array_size(keys), 1);
	json_decref(keys);
	snprintf(kpath, sizeof kpath, "/api/v0/instances/%ld/ssh/%ld/", a, kid);
	j = ct_expect("DELETE", kpath, NULL, 200);
	assert_string_equal(ct_str(j, "msg"), "SSH key removed from instance.");
	json_decref(j);
	keys = inst_keys(a);
	assert_int_equal(json_array_size(keys), 1);
	json_decref(keys);
	ct_expect_error(ct_sim->full_key, "DELETE", kpath, NULL, 404, "no_such_ssh_key", NULL);
	snprintf(kpath, sizeof kpath, "/api/v0/instances/1/ssh/%ld/", kid);
	ct_expect_error(ct_sim->full_key, "DELETE", kpath, NULL, 404, "no_such_instance", NULL);
	snprintf(kpath, sizeof kpath, "/api/v0/instances/%ld/ssh/abc/", a);
	ct_expect_error(ct_sim->full_key, "DELETE", kpath, NULL, 400, "invalid_request", NULL);
	ct_expect_error(ct_sim->full_key, "POST", path, "{\"ssh_key\":\"not a key\"}", 400, "invalid_args", NULL);
	ct_expect_error(ct_sim->full_key, "GET", "/api/v0/instances/1/ssh/", NULL, 404, "no_such_instance", NULL);
	ct_expect_error(ct_sim->ro_key, "POST", path, pub, 401, "permission_denied", NULL);
	/* a read-only key may list */
	json_decref(ct_expect_as(ct_sim->ro_key, "GET", path, NULL, 200));
}

static void test_faults_apply_to_the_new_paths(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	ct_ctl("fault", "{\"path\":\"/api/v0/instances/command/\",\"kind\":\"500\",\"count\":1}");
	char path[96];
	snprintf(path, sizeof path, "/api/v0/instances/command/%ld/", a);
	struct http_result r = ct_req("PUT", path, "{\"command\":\"ls\"}");
	assert_int_equal(r.status, 500);
	http_result_free(&r);
	r = ct_req("PUT", path, "{\"command\":\"ls\"}");
	assert_int_equal(r.status, 200);
	http_result_free(&r);
	ct_ctl("fault", "{\"path\":\"/api/v0/commands/copy_direct/\",\"kind\":\"lost\",\"count\":1}");
	char body[300];
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":%ld,\"src_path\":\"/workspace/\",\"dst_path\":\"/l/\"}", a,
		 b);
	r = ct_req("PUT", "/api/v0/commands/copy_direct/", body);
	assert_true(r.status == 0 || r.status >= 500);
	http_result_free(&r);
	/* the lost answer's copy was made all the same */
	ct_advance(6);
	status_msg_has(b, "Remote copy in progress");
}

/* The services an instance exposes: the seeded HTTP ports, Jupyter's
 * 8080 and token, a create's -p ports (udp too) and JUPYTER_TOKEN. */
static void test_services_ports_and_the_jupyter_token(void **state)
{
	(void)state;
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	size_t i;
	json_t *o;
	int http = 0, jupyter = 0;
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		json_t *ports = json_object_get(o, "ports");
		const char *img = ct_str(o, "image_uuid"), *rt = ct_str(o, "image_runtype");
		if (!ports)
			continue;
		assert_non_null(ct_str(o, "public_ipaddr"));
		if (strstr(img, "vllm")) {
			assert_non_null(json_object_get(ports, "8000/tcp"));
			http++;
		}
		if (strstr(img, "comfy"))
			assert_non_null(json_object_get(ports, "8188/tcp"));
		if (rt && strstr(rt, "jupyter_direc")) {
			json_t *p = json_array_get(json_object_get(ports, "8080/tcp"), 0);
			assert_true(json_is_string(json_object_get(p, "HostPort")));
			assert_int_equal(strlen(ct_str(o, "jupyter_token")), 32);
			jupyter++;
		}
	}
	json_decref(j);
	assert_true(http > 0);
	assert_true(jupyter > 0);
	long id = ct_create("{\"runtype\":\"jupyter_direct\",\"env\":{\"-p 7860:7860\":\"1\",\"-p 9000:9000/udp\":\"1\","
			    "\"JUPYTER_TOKEN\":\"mytoken\"}}",
			    NULL, 0);
	ct_advance(40);
	json_t *in = ct_inst(id);
	json_t *ports = json_object_get(in, "ports");
	assert_non_null(json_object_get(ports, "22/tcp"));
	assert_non_null(json_object_get(ports, "8080/tcp"));
	assert_non_null(json_object_get(ports, "7860/tcp"));
	assert_non_null(json_object_get(ports, "9000/udp"));
	assert_string_equal(ct_str(in, "jupyter_token"), "mytoken");
	json_decref(in);
}

/* A volume's data copied into an instance (V.ID as the source). */
static void test_copy_from_a_volume(void **state)
{
	(void)state;
	long a, b;
	two_running(&a, &b);
	json_t *j = ct_expect("GET", "/api/v0/volumes/?type=local_volume", NULL, 200);
	long vid = (long)ct_num(json_array_get(json_object_get(j, "volumes"), 0), "id");
	json_decref(j);
	char body[300];
	snprintf(body, sizeof body,
		 "{\"client_id\":\"me\",\"src_id\":\"V.%ld\",\"dst_id\":\"C.%ld\",\"src_path\":\"/data\","
		 "\"dst_path\":\"/workspace/fromvol/\"}",
		 vid, b);
	json_decref(ct_expect("PUT", "/api/v0/commands/copy_direct/", body, 200));
	ct_advance(60);
	status_msg_has(b, "Remote copy finished");
	char *out = exec_out(b, "ls /workspace/fromvol");
	char want[64];
	snprintf(want, sizeof want, "volume-%ld", vid);
	assert_non_null(strstr(out, want));
	free(out);
	snprintf(body, sizeof body, "{\"src_id\":\"V.1\",\"dst_id\":%ld,\"src_path\":\"/d\",\"dst_path\":\"/w/\"}", b);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/copy_direct/", body, 404, "no_such_user", NULL);
	snprintf(body, sizeof body, "{\"src_id\":%ld,\"dst_id\":\"V.%ld\",\"src_path\":\"/d\",\"dst_path\":\"/w/\"}", a,
		 vid);
	ct_expect_error(ct_sim->full_key, "PUT", "/api/v0/commands/copy_direct/", body, 400, "invalid_args", "volume");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_execute_ls_du_rm_change_the_files, ct_reset),
		cmocka_unit_test_setup(test_execute_refusals, ct_reset),
		cmocka_unit_test_setup(test_copy_progresses_and_the_files_arrive, ct_reset),
		cmocka_unit_test_setup(test_copy_fails_half_way_when_the_source_drops, ct_reset),
		cmocka_unit_test_setup(test_copy_cancel, ct_reset),
		cmocka_unit_test_setup(test_copy_refusals_and_the_rsync_answer, ct_reset),
		cmocka_unit_test_setup(test_recycle_goes_back_through_loading_and_keeps_the_rental, ct_reset),
		cmocka_unit_test_setup(test_update_template_recreates_from_the_template, ct_reset),
		cmocka_unit_test_setup(test_snapshot_commits_and_pushes_and_needs_a_login, ct_reset),
		cmocka_unit_test_setup(test_instance_ssh_keys_attach_list_detach, ct_reset),
		cmocka_unit_test_setup(test_faults_apply_to_the_new_paths, ct_reset),
		cmocka_unit_test_setup(test_services_ports_and_the_jupyter_token, ct_reset),
		cmocka_unit_test_setup(test_copy_from_a_volume, ct_reset),
	};
	return cmocka_run_group_tests_name("contract_inst_ops", tests, setup, ct_stop);
}
