/* test_inst_ops.c: using an instance in place (issue 23, "Connect"): the
 * record's services as both mappers take them (ports, public_ipaddr,
 * jupyter_token, machine_dir_ssh_port), the ports list's rows (address,
 * kind, URL), the Jupyter URL with its token masked unless asked, the scp
 * URL as the CLI's scp-url prints it, the scp/rsync commands, and what o
 * does with $BROWSER (open, or copy over SSH) and its argv (no shell). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_inst_ops.h"
#include "base/config.h"
#include "base/xmalloc.h"
#include "json/json_map.h"
#include "json/json_stream.h"
#include "rules/secrets.h"
#include "rules/svc.h"
#include "state/instance.h"
#include "views/instances/inst_ops.h"
#include "views/instances/pane_detail.h"
#include "views/instances/pane_ports.h"
#include "views/instances/pane_xfer.h"
#include "views/instances/inst_ssh.h"
#include "api/api_account.h"

static const char *const REC =
	"{\"id\":9108111,\"actual_status\":\"running\",\"intended_status\":\"running\","
	"\"image_runtype\":\"jupyter_direc ssh_direc ssh_proxy\",\"ssh_host\":\"ssh5.vast.ai\","
	"\"ssh_port\":20010,\"public_ipaddr\":\"203.0.113.7\",\"machine_dir_ssh_port\":41999,"
	"\"jupyter_token\":\"0123456789abcdef0123456789abcdef\","
	"\"ports\":{\"8080/tcp\":[{\"HostIp\":\"0.0.0.0\",\"HostPort\":\"41080\"}],"
	"\"22/tcp\":[{\"HostIp\":\"0.0.0.0\",\"HostPort\":\"41022\"}],"
	"\"8000/tcp\":[{\"HostIp\":\"0.0.0.0\",\"HostPort\":\"41000\"}],"
	"\"5353/udp\":[{\"HostIp\":\"0.0.0.0\",\"HostPort\":\"41053\"}]}}";

static void check_mapped(const struct instance *x)
{
	assert_string_equal(x->public_ip, "203.0.113.7");
	assert_int_equal(x->machine_dir_ssh_port, 41999);
	assert_string_equal(x->jupyter_token, "0123456789abcdef0123456789abcdef");
	assert_int_equal(x->nports, 4);
	assert_int_equal(x->direct_ssh_port, 41022);
}

static void test_both_mappers_take_the_services(void **state)
{
	(void)state;
	json_error_t je;
	json_t *o = json_loads(REC, 0, &je);
	assert_non_null(o);
	struct instance x;
	assert_true(json_map_instance(o, &x));
	json_decref(o);
	check_mapped(&x);
	/* the token stays masked among the fields as received */
	for (size_t i = 0; i < x.nfields; i++)
		if (!strcmp(x.fields[i].key, "jupyter_token"))
			assert_null(strstr(x.fields[i].value, "0123456789abcdef"));
	char page[2048];
	snprintf(page, sizeof page, "{\"instances\":[%s]}", REC);
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = NULL, err[200];
	long total;
	assert_int_equal(json_stream_instances(page, strlen(page), &v, &n, &tok, &total, err, sizeof err),
			 JSTREAM_OK);
	assert_int_equal(n, 1);
	check_mapped(&v[0]);
	assert_true(instance_same(&x, &v[0]));
	/* a new token is a changed record */
	free(v[0].jupyter_token);
	v[0].jupyter_token = strdup("ffffffffffffffffffffffffffffffff");
	assert_false(instance_same(&x, &v[0]));
	instance_free_all(v, n);
	free(tok);
	instance_clear(&x);
	/* no token, a bad machine_dir_ssh_port: "" and 0 */
	o = json_loads("{\"id\":5,\"machine_dir_ssh_port\":\"x\"}", 0, &je);
	assert_true(json_map_instance(o, &x));
	json_decref(o);
	assert_string_equal(x.jupyter_token, "");
	assert_int_equal(x.machine_dir_ssh_port, 0);
	instance_clear(&x);
}

static struct instance mapped(void)
{
	json_error_t je;
	json_t *o = json_loads(REC, 0, &je);
	struct instance x;
	assert_true(json_map_instance(o, &x));
	json_decref(o);
	return x;
}

static void test_port_rows(void **state)
{
	(void)state;
	struct instance x = mapped();
	struct svc_port p[8];
	size_t n = svc_ports(&x, p, 8);
	assert_int_equal(n, 4);
	/* sorted by container port */
	assert_int_equal(p[0].container_port, 22);
	assert_int_equal(p[0].kind, SVC_SSH);
	assert_string_equal(p[0].addr, "203.0.113.7:41022");
	assert_string_equal(p[0].url, "");
	assert_int_equal(p[1].container_port, 5353);
	assert_string_equal(p[1].proto, "udp");
	assert_int_equal(p[1].kind, SVC_OTHER);
	assert_string_equal(p[1].url, "");
	assert_int_equal(p[2].container_port, 8000);
	assert_int_equal(p[2].kind, SVC_HTTP);
	assert_string_equal(p[2].url, "http://203.0.113.7:41000/");
	assert_int_equal(p[3].container_port, 8080);
	assert_int_equal(p[3].kind, SVC_JUPYTER);
	assert_string_equal(p[3].url, "https://203.0.113.7:41080/"); /* never the token */
	/* max is kept */
	assert_int_equal(svc_ports(&x, p, 2), 2);
	/* not a Jupyter runtype: 8080 is plain HTTP */
	char *rt = x.runtype;
	x.runtype = (char *)"ssh_direc ssh_proxy";
	n = svc_ports(&x, p, 8);
	assert_int_equal(p[3].kind, SVC_HTTP);
	assert_string_equal(p[3].url, "http://203.0.113.7:41080/");
	x.runtype = rt;
	instance_clear(&x);
}

static void test_jupyter_url_masked_unless_asked(void **state)
{
	(void)state;
	struct instance x = mapped();
	char u[200];
	assert_true(svc_jupyter_url(&x, false, u, sizeof u));
	assert_string_equal(u, "https://203.0.113.7:41080/?token=" SECRETS_MASK);
	assert_true(svc_jupyter_url(&x, true, u, sizeof u));
	assert_string_equal(u, "https://203.0.113.7:41080/?token=0123456789abcdef0123456789abcdef");
	/* JUPYTER_PORT moves it (the docs' networking guide) */
	struct kv env[1] = { { (char *)"JUPYTER_PORT", (char *)"8000" } };
	struct kv *oldenv = x.env;
	size_t oldn = x.nenv;
	x.env = env;
	x.nenv = 1;
	assert_int_equal(svc_jupyter_port(&x), 8000);
	assert_true(svc_jupyter_url(&x, false, u, sizeof u));
	assert_string_equal(u, "https://203.0.113.7:41000/?token=" SECRETS_MASK);
	x.env = oldenv;
	x.nenv = oldn;
	/* no token: no query; no Jupyter: no URL */
	char *t = x.jupyter_token;
	x.jupyter_token = NULL;
	assert_true(svc_jupyter_url(&x, true, u, sizeof u));
	assert_string_equal(u, "https://203.0.113.7:41080/");
	x.jupyter_token = t;
	char *rt = x.runtype;
	x.runtype = (char *)"ssh";
	assert_int_equal(svc_jupyter_port(&x), 0);
	assert_false(svc_jupyter_url(&x, true, u, sizeof u));
	assert_string_equal(u, "");
	x.runtype = rt;
	instance_clear(&x);
}

static void test_scp_url_and_copy_commands(void **state)
{
	(void)state;
	struct instance x = mapped();
	char b[300];
	/* the CLI's scp-url: direct when 22/tcp is mapped */
	assert_true(svc_scp_url(&x, b, sizeof b));
	assert_string_equal(b, "scp://root@203.0.113.7:41022");
	assert_true(svc_copy_command(&x, SSH_ASK, false, b, sizeof b));
	assert_string_equal(b, "scp -P 41022 -r root@203.0.113.7:/workspace/ .");
	assert_true(svc_copy_command(&x, SSH_PROXY, true, b, sizeof b));
	/* a jupyter runtype's proxy port is ssh_port + 1, as the CLI adds */
	assert_string_equal(b, "rsync -avP -e 'ssh -p 20011' root@ssh5.vast.ai:/workspace/ ./");
	/* no direct route: the proxy */
	x.direct_ssh_port = 0;
	assert_true(svc_scp_url(&x, b, sizeof b));
	assert_string_equal(b, "scp://root@ssh5.vast.ai:20011");
	char *h = x.ssh_host;
	x.ssh_host = (char *)"";
	assert_false(svc_scp_url(&x, b, sizeof b));
	assert_false(svc_copy_command(&x, SSH_ASK, true, b, sizeof b));
	x.ssh_host = h;
	instance_clear(&x);
}

/* The detail view's port lines: IP:port -> container port with the URL;
 * the Jupyter URL masked, the token on no line. */
static void test_detail_port_lines(void **state)
{
	(void)state;
	struct instance x = mapped();
	static struct detail_line out[400];
	size_t n = pane_detail_lines(&x, 1.8e9, out, 400);
	bool ssh = false, http = false, jup = false, udp = false;
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(out[i].value, "0123456789abcdef"));
		ssh |= !strcmp(out[i].value, "203.0.113.7:41022 -> 22/tcp  ssh");
		http |= !strcmp(out[i].value, "203.0.113.7:41000 -> 8000/tcp  http://203.0.113.7:41000/");
		jup |= !strcmp(out[i].value, "203.0.113.7:41080 -> 8080/tcp  https://203.0.113.7:41080/?token="
					     SECRETS_MASK "  (Jupyter)");
		udp |= !strcmp(out[i].value, "203.0.113.7:41053 -> 5353/udp");
	}
	assert_true(ssh);
	assert_true(http);
	assert_true(jup);
	assert_true(udp);
	instance_clear(&x);
}

/* ssh_forwards: the config key, the forwards an instance maps, the command. */
static void test_ssh_forwards(void **state)
{
	(void)state;
	struct config c;
	char err[300];
	memset(&c, 0, sizeof c);
	c.base_url = xstrdup("x");
	assert_int_equal(config_parse_text(&c, "ssh_forwards = 8080, 8888,8080\n", "config", err, sizeof err), 0);
	assert_int_equal(c.nssh_forwards, 2);
	assert_int_equal(c.ssh_forwards[0], 8080);
	assert_int_equal(c.ssh_forwards[1], 8888);
	assert_int_equal(config_parse_text(&c, "ssh_forwards = 8080,http\n", "config", err, sizeof err), 2);
	assert_non_null(strstr(err, "config:1: ssh_forwards takes port numbers"));
	assert_int_equal(config_parse_text(&c, "ssh_forwards = 70000\n", "config", err, sizeof err), 2);
	assert_int_equal(config_parse_text(&c, "ssh_forwards = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n",
					   "config", err, sizeof err), 2);
	assert_non_null(strstr(err, "at most 16"));
	assert_int_equal(config_parse_text(&c, "ssh_forwards =\n", "config", err, sizeof err), 0);
	assert_int_equal(c.nssh_forwards, 0);
	config_free(&c);

	struct instance x = mapped(); /* 22, 5353/udp, 8000, 8080 */
	int want[] = { 8888, 8080, 22, 5353, 8000 }, out[8];
	size_t n = svc_forwards(&x, want, 5, out, 8);
	assert_int_equal(n, 2); /* 8888 unmapped, 22 is ssh, 5353 is udp */
	assert_int_equal(out[0], 8080);
	assert_int_equal(out[1], 8000);
	char b[200];
	svc_ssh_command("203.0.113.7", 41022, out, n, b, sizeof b);
	assert_string_equal(b, "ssh -p 41022 root@203.0.113.7 -L 8080:localhost:8080 -L 8000:localhost:8000");
	svc_ssh_command("h", 2, NULL, 0, b, sizeof b);
	assert_string_equal(b, "ssh -p 2 root@h");
	instance_clear(&x);
}

/* :exec: the commands the service runs, the builder, its answer, the strip. */
static void test_exec_builder_and_answer(void **state)
{
	(void)state;
	char err[200];
	assert_true(api_exec_check("ls -l /workspace", err, sizeof err));
	assert_true(api_exec_check("du -d1 -h /", err, sizeof err));
	assert_true(api_exec_check("rm -r /workspace/x", err, sizeof err));
	assert_false(api_exec_check("cat /etc/passwd", err, sizeof err));
	assert_non_null(strstr(err, "only ls, du and rm"));
	assert_false(api_exec_check("lsof", err, sizeof err));
	assert_false(api_exec_check("ls; rm -rf /", err, sizeof err));
	assert_non_null(strstr(err, "shell syntax (';')"));
	assert_false(api_exec_check("ls $(id)", err, sizeof err));
	assert_false(api_exec_check("ls `id`", err, sizeof err));
	assert_false(api_exec_check("ls\x1b[2J", err, sizeof err));
	assert_false(api_exec_check("", err, sizeof err));
	assert_false(api_exec_check(" ls", err, sizeof err));
	char big[600];
	snprintf(big, sizeof big, "ls %0513d", 0);
	assert_false(api_exec_check(big, err, sizeof err));
	assert_non_null(strstr(err, "at most 512"));
	assert_true(api_exec_removes("rm -r /x"));
	assert_true(api_exec_removes("rm"));
	assert_false(api_exec_removes("rmdir /x"));
	assert_false(api_exec_removes("ls rm"));

	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"https://console.example";
	struct api_call k = api_inst_execute(&c, 9108093, "ls -l \"/work space\"");
	assert_int_equal(k.ep, EP_EXECUTE);
	assert_string_equal(k.method, "PUT");
	assert_string_equal(k.url, "https://console.example/api/v0/instances/command/9108093/");
	assert_string_equal(k.body, "{\"command\":\"ls -l \\\"/work space\\\"\"}");
	assert_false(k.no_auth);
	assert_true(api_ep_kind(EP_EXECUTE) == RK_ACTION);
	api_call_free(&k);

	json_error_t je;
	json_t *r = json_loads("{\"success\":true,\"writeable_path\":\"/var/lib/docker/overlay2/abc/diff\","
			       "\"result_url\":\"https://s3.example/instance_logs/t.log\"}", 0, &je);
	struct api_error e;
	memset(&e, 0, sizeof e);
	struct exec_answer *a = api_exec_answer(r, &e);
	json_decref(r);
	assert_non_null(a);
	assert_string_equal(a->result_url, "https://s3.example/instance_logs/t.log");
	assert_string_equal(a->writeable_path, "/var/lib/docker/overlay2/abc/diff");
	char *out = api_exec_strip("12K\t/var/lib/docker/overlay2/abc/diff/workspace/data\n"
				   "20K\t/var/lib/docker/overlay2/abc/diff/workspace\n", a->writeable_path);
	assert_string_equal(out, "12K\t/workspace/data\n20K\t/workspace\n");
	free(out);
	out = api_exec_strip("as is", "");
	assert_string_equal(out, "as is");
	free(out);
	api_exec_answer_free(a);
	/* no result_url, or one with a blank: a protocol error */
	r = json_loads("{\"success\":true,\"result_url\":\"https://x/a b\"}", 0, &je);
	memset(&e, 0, sizeof e);
	assert_null(api_exec_answer(r, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	json_decref(r);
}

static void test_recycle(void **state)
{
	(void)state;
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"https://console.example";
	struct api_call k = api_inst_recycle(&c, 42);
	assert_int_equal(k.ep, EP_RECYCLE);
	assert_string_equal(k.method, "PUT");
	assert_string_equal(k.url, "https://console.example/api/v0/instances/recycle/42/");
	assert_string_equal(k.body, "{}");
	assert_true(api_ep_kind(EP_RECYCLE) == RK_ACTION);
	api_call_free(&k);
	/* update template: the CLI's update instance body */
	k = api_inst_update_template(&c, 42, 7, "abc123");
	assert_int_equal(k.ep, EP_UPDATE_TEMPLATE);
	assert_string_equal(k.method, "PUT");
	assert_string_equal(k.url, "https://console.example/api/v0/instances/update_template/42/");
	json_error_t je;
	json_t *b = json_loads(k.body, 0, &je);
	assert_int_equal(json_integer_value(json_object_get(b, "id")), 42);
	assert_int_equal(json_integer_value(json_object_get(b, "template_id")), 7);
	assert_string_equal(json_string_value(json_object_get(b, "template_hash_id")), "abc123");
	json_decref(b);
	api_call_free(&k);
	k = api_inst_update_template(&c, 42, 0, "abc123");
	assert_null(strstr(k.body, "template_id\":"));
	api_call_free(&k);
	struct instance x = mapped();
	char why[300];
	assert_null(inst_ops_why_not_recycle(&x, why, sizeof why)); /* running */
	x.state = IS_CREATED; /* a failed pull: the case it is for */
	assert_null(inst_ops_why_not_recycle(&x, why, sizeof why));
	x.state = IS_STOPPED;
	assert_non_null(inst_ops_why_not_recycle(&x, why, sizeof why));
	assert_non_null(strstr(why, "S starts it first"));
	x.state = IS_OFFLINE;
	assert_non_null(inst_ops_why_not_recycle(&x, why, sizeof why));
	assert_non_null(strstr(why, "does not answer"));
	instance_clear(&x);
}

static void test_browser_open_or_copy(void **state)
{
	(void)state;
	assert_true(pane_ports_opens("firefox", false));
	assert_false(pane_ports_opens("firefox", true)); /* over SSH: copy */
	assert_false(pane_ports_opens(NULL, false));
	assert_false(pane_ports_opens("  ", false));
	char buf[128], *argv[8];
	assert_int_equal(pane_ports_argv("open -a  Safari", "http://h:1/", buf, sizeof buf, argv, 8), 4);
	assert_string_equal(argv[0], "open");
	assert_string_equal(argv[1], "-a");
	assert_string_equal(argv[2], "Safari");
	assert_string_equal(argv[3], "http://h:1/");
	assert_null(argv[4]);
	/* words past max are dropped, the URL and the NULL kept */
	assert_int_equal(pane_ports_argv("a b c d e f", "u", buf, sizeof buf, argv, 4), 3);
	assert_string_equal(argv[2], "u");
	assert_null(argv[3]);
	assert_int_equal(pane_ports_argv("", "u", buf, sizeof buf, argv, 8), 0);
}

/* :copy's locations as the CLI writes them, its body, its cancel. */
static void test_copy_locations_and_body(void **state)
{
	(void)state;
	struct copy_loc l, d;
	char err[300], t[200];
	assert_true(api_copy_parse("12:/workspace/", &l, err, sizeof err));
	assert_int_equal(l.kind, COPY_INST);
	assert_int_equal(l.id, 12);
	assert_string_equal(l.path, "/workspace/");
	assert_true(api_copy_parse("C.11824:/data/test", &l, err, sizeof err));
	assert_int_equal(l.kind, COPY_INST);
	assert_int_equal(l.id, 11824);
	assert_true(api_copy_parse("V.7:/file", &l, err, sizeof err));
	assert_int_equal(l.kind, COPY_VOL);
	api_copy_loc_text(&l, t, sizeof t);
	assert_string_equal(t, "V.7:/file");
	assert_true(api_copy_parse("local:data/test", &l, err, sizeof err));
	assert_int_equal(l.kind, COPY_LOCAL);
	assert_string_equal(l.path, "data/test");
	assert_true(api_copy_parse("./out", &l, err, sizeof err));
	assert_int_equal(l.kind, COPY_LOCAL);
	assert_true(api_copy_parse("6003036", &l, err, sizeof err)); /* a bare id: its "/" */
	assert_int_equal(l.kind, COPY_INST);
	assert_string_equal(l.path, "/");
	assert_false(api_copy_parse("s3.101:/data/", &l, err, sizeof err));
	assert_non_null(strstr(err, "cloud copy"));
	assert_false(api_copy_parse("drive:/f", &l, err, sizeof err));
	assert_false(api_copy_parse("12:", &l, err, sizeof err));
	assert_false(api_copy_parse("12:/a\x1b[2J", &l, err, sizeof err));
	assert_false(api_copy_parse("0:/x", &l, err, sizeof err));

	assert_true(api_copy_args("  1:/workspace/data/   2:/workspace/in/ ", &l, &d, err, sizeof err));
	assert_int_equal(d.id, 2);
	assert_false(api_copy_args("1:/a", &l, &d, err, sizeof err));
	assert_false(api_copy_args("1:/a 2:/b 3:/c", &l, &d, err, sizeof err));
	assert_false(api_copy_args("a b", &l, &d, err, sizeof err));
	assert_non_null(strstr(err, "both sides are local"));
	assert_false(api_copy_args("1:/a V.3:/b", &l, &d, err, sizeof err));
	assert_false(api_copy_args("V.3:/a ./b", &l, &d, err, sizeof err));
	assert_false(api_copy_args("1:/a 1:/a", &l, &d, err, sizeof err));
	assert_true(api_copy_args("V.3:/a C.4:/b", &l, &d, err, sizeof err));

	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"https://console.example";
	struct api_call k = api_inst_copy(&c, &l, &d);
	assert_int_equal(k.ep, EP_COPY);
	assert_string_equal(k.method, "PUT");
	assert_string_equal(k.url, "https://console.example/api/v0/commands/copy_direct/");
	assert_string_equal(k.body, "{\"client_id\":\"me\",\"src_id\":\"V.3\",\"dst_id\":\"4\",\"src_path\":\"/a\","
				    "\"dst_path\":\"/b\"}");
	assert_true(api_ep_kind(EP_COPY) == RK_ACTION);
	api_call_free(&k);
	k = api_inst_copy_cancel(&c, 4);
	assert_string_equal(k.method, "DELETE");
	assert_string_equal(k.body, "{\"client_id\":\"me\",\"dst_id\":\"4\"}");
	api_call_free(&k);
}

/* A job's phase from the status bar; an earlier job's end is not this one's. */
static void test_job_phase_tracking(void **state)
{
	(void)state;
	assert_int_equal(api_job_phase(false, "Remote copy in progress: 40% (1G of 2G) /a -> /b"), JP_RUNNING);
	assert_int_equal(api_job_phase(false, "Remote copy finished: 2GB copied to /b"), JP_DONE);
	assert_int_equal(api_job_phase(false, "Remote copy failed at 3%: source instance 1 is not reachable"),
			 JP_FAILED);
	assert_int_equal(api_job_phase(false, "Remote copy canceled: /a -> /b"), JP_CANCELED);
	assert_int_equal(api_job_phase(false, "success, running pytorch/pytorch"), JP_WAITING);
	assert_int_equal(api_job_phase(false, NULL), JP_WAITING);
	assert_int_equal(api_job_phase(true, "Snapshot: committing the container"), JP_RUNNING);
	assert_int_equal(api_job_phase(true, "Snapshot pushed to docker.io/me/x"), JP_DONE);
	assert_int_equal(api_job_phase(true, "Snapshot failed: the container stopped"), JP_FAILED);
	assert_int_equal(api_job_phase(true, "Remote copy finished: x"), JP_WAITING);
	const char *old = "Remote copy finished: 1GB copied to /old";
	/* the last copy's end still shown: waiting, not done */
	assert_int_equal(api_job_track(false, old, old, JP_WAITING), JP_WAITING);
	assert_int_equal(api_job_track(false, "Remote copy in progress: 1%", old, JP_WAITING), JP_RUNNING);
	assert_int_equal(api_job_track(false, "Remote copy finished: 2GB copied to /b", old, JP_RUNNING), JP_DONE);
	/* after it ran, the same words as at send are this job's end */
	assert_int_equal(api_job_track(false, old, old, JP_RUNNING), JP_DONE);
	/* an end stays; an unrelated message keeps the phase */
	assert_int_equal(api_job_track(false, "Remote copy in progress: 1%", old, JP_CANCELED), JP_CANCELED);
	assert_int_equal(api_job_track(false, "recycling", old, JP_RUNNING), JP_RUNNING);
	assert_string_equal(api_job_phase_name(JP_DONE), "done");
}

/* take_snapshot: the checks, the CLI's body, the password wiped on free. */
static void test_snapshot_builder(void **state)
{
	(void)state;
	char err[200];
	assert_true(api_snapshot_check("", "me/img:v1", err, sizeof err));
	assert_false(api_snapshot_check("", "", err, sizeof err));
	assert_false(api_snapshot_check("", "bad repo", err, sizeof err));
	assert_non_null(strstr(err, "blank"));
	assert_false(api_snapshot_check("ghcr .io", "me/x", err, sizeof err));
	assert_non_null(strstr(err, "registry"));
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"https://console.example";
	struct api_call k = api_inst_snapshot(&c, 42, "", "me/img:v1", "me", "pw-secret", false);
	assert_int_equal(k.ep, EP_SNAPSHOT);
	assert_string_equal(k.method, "POST");
	assert_string_equal(k.url, "https://console.example/api/v0/instances/take_snapshot/42/");
	assert_string_equal(k.body, "{\"id\":42,\"container_registry\":\"docker.io\",\"personal_repo\":\"me/img:v1\","
				    "\"docker_login_user\":\"me\",\"docker_login_pass\":\"pw-secret\",\"pause\":\"false\"}");
	assert_true(api_ep_kind(EP_SNAPSHOT) == RK_ACTION);
	api_call_free(&k);
	char m[] = "denied: login pw-secret refused (pw-secret)";
	pane_xfer_scrub(m, "pw-secret");
	assert_null(strstr(m, "pw-secret"));
	assert_string_equal(m, "denied: login ********* refused (*********)");
	pane_xfer_scrub(m, "");
}

/* Per-instance SSH keys: the docs' answer (a JSON text) and a list; the writes. */
/* The transfers list's columns: at 120 columns (118 inside) the sim's
 * running copy keeps its status past the percentage (the sizes copied),
 * and the description gives way first; wide enough, both whole; at 80
 * (78) the percentage still shows; a short status leaves the rest to WHAT. */
static void test_transfer_columns(void **state)
{
	(void)state;
	const char *what = "9108074:/workspace/data/ -> 9108080:/workspace/in/";
	const char *status = "Remote copy in progress: 20% (109MB of 544MB) /workspace/data/ -> /workspace/in/";
	int ww = (int)strlen(what), sw = (int)strlen(status);
	struct xfer_cols c;
	pane_xfer_cols(118, 7, ww, sw, &c);
	assert_int_equal(c.kind + 1 + c.state + 1 + c.inst + 1 + c.what + 2 + c.status, 118);
	assert_int_equal(c.inst, 8);
	assert_true(c.status >= (int)strlen("Remote copy in progress: 20% (109MB of 544MB)"));
	assert_true(c.status > c.what);
	assert_true(c.what >= 12);
	pane_xfer_cols(200, 7, ww, sw, &c);
	assert_int_equal(c.what, ww);
	assert_true(c.status >= sw);
	pane_xfer_cols(78, 7, ww, sw, &c);
	assert_int_equal(c.kind + 1 + c.state + 1 + c.inst + 1 + c.what + 2 + c.status, 78);
	assert_int_equal(c.what, 12);
	assert_true(c.status >= (int)strlen("Remote copy in progress: 20%"));
	pane_xfer_cols(118, 7, ww, 30, &c); /* both fit: STATUS runs to the edge */
	assert_int_equal(c.what, ww);
	assert_int_equal(c.status, 88 - ww);
	pane_xfer_cols(118, 7, 80, 30, &c); /* a long WHAT is cut only as far as needed */
	assert_int_equal(c.status, 30);
	assert_int_equal(c.what, 88 - 30);
	/* nothing yet, or too narrow: never negative */
	pane_xfer_cols(118, 0, 0, 0, &c);
	assert_true(c.what >= 4 && c.status >= 0);
	pane_xfer_cols(20, 7, ww, sw, &c);
	assert_true(c.what >= 0 && c.status >= 0);
}

static void test_instance_ssh_keys(void **state)
{
	(void)state;
	const char *k1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop";
	char *text = NULL;
	json_t *list = json_pack("[{s:i, s:s}]", "id", 7, "public_key", k1);
	text = json_dumps(list, JSON_COMPACT);
	json_t *root = json_pack("{s:b, s:s}", "success", 1, "ssh_keys", text);
	struct api_error e;
	memset(&e, 0, sizeof e);
	struct inst_keys *ik = api_inst_ssh_answer(root, &e);
	assert_non_null(ik);
	assert_int_equal(ik->n, 1);
	assert_int_equal(ik->v[0].id, 7);
	assert_string_equal(ik->v[0].comment, "me@laptop");
	api_inst_ssh_answer_free(ik);
	json_decref(root);
	root = json_pack("{s:O}", "ssh_keys", list);
	ik = api_inst_ssh_answer(root, &e);
	assert_non_null(ik);
	assert_int_equal(ik->n, 1);
	api_inst_ssh_answer_free(ik);
	json_decref(root);
	root = json_pack("{s:s}", "ssh_keys", "not json");
	assert_null(api_inst_ssh_answer(root, &e));
	json_decref(root);
	json_decref(list);
	free(text);
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"https://console.example";
	struct api_call k = api_inst_ssh_list(&c, 5);
	assert_string_equal(k.method, "GET");
	assert_string_equal(k.url, "https://console.example/api/v0/instances/5/ssh/");
	assert_true(api_ep_kind(k.ep) == RK_FETCH);
	api_call_free(&k);
	k = api_inst_ssh_attach(&c, 5, "  ssh-ed25519 AAAA x \r\n");
	assert_string_equal(k.method, "POST");
	assert_string_equal(k.body, "{\"ssh_key\":\"ssh-ed25519 AAAA x\"}");
	assert_true(api_ep_kind(k.ep) == RK_ACTION);
	api_call_free(&k);
	k = api_inst_ssh_detach(&c, 5, 9);
	assert_string_equal(k.method, "DELETE");
	assert_string_equal(k.url, "https://console.example/api/v0/instances/5/ssh/9/");
	api_call_free(&k);
}

/* :copy with a local side: rsync over the SSH route, paths quoted. */
static void test_rsync_command_local(void **state)
{
	(void)state;
	struct instance x = mapped();
	char b[600];
	assert_true(svc_rsync_command(&x, SSH_ASK, "/workspace/out/", "./here", false, b, sizeof b));
	assert_string_equal(b, "rsync -avP -e 'ssh -p 41022' root@203.0.113.7:/workspace/out/ ./here");
	assert_true(svc_rsync_command(&x, SSH_PROXY, "/work space/it's", "my data", true, b, sizeof b));
	assert_string_equal(b, "rsync -avP -e 'ssh -p 20011' 'my data' root@ssh5.vast.ai:'/work space/it'\\''s'");
	assert_true(svc_rsync_command(&x, SSH_ASK, "/a;rm -rf ~", "$(id)", true, b, sizeof b));
	assert_string_equal(b, "rsync -avP -e 'ssh -p 41022' '$(id)' root@203.0.113.7:'/a;rm -rf ~'");
	char small[40];
	assert_false(svc_rsync_command(&x, SSH_ASK, "/workspace/", "./", false, small, sizeof small));
	assert_string_equal(small, "");
	instance_clear(&x);
}

/* The route question's checklist: every HTTP (or Jupyter) TCP port, not
 * SSH nor UDP, ascending; the ticked boxes and the cursor. */
static void test_route_checklist(void **state)
{
	(void)state;
	struct instance x = mapped();
	int p[8];
	size_t n = svc_forward_ports(&x, p, 8);
	assert_int_equal(n, 2);
	assert_int_equal(p[0], 8000);
	assert_int_equal(p[1], 8080);
	assert_int_equal(svc_forward_ports(&x, p, 1), 1);
	bool on[2] = { false, true };
	char b[200];
	inst_ssh_checklist(p, on, 2, 0, b, sizeof b);
	assert_string_equal(b, "-L forwards (Up/Down, Space toggles; y copies the command): >[ ] 8000 [x] 8080");
	inst_ssh_checklist(p, on, 2, 1, b, sizeof b);
	assert_non_null(strstr(b, "[ ] 8000 >[x] 8080"));
	inst_ssh_checklist(p, on, 0, 0, b, sizeof b);
	assert_string_equal(b, "(no HTTP port to forward)");
	char small[70];
	inst_ssh_checklist(p, on, 2, 0, small, sizeof small); /* truncated, terminated */
	assert_true(strlen(small) < sizeof small);
	instance_clear(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_mappers_take_the_services),
		cmocka_unit_test(test_port_rows),
		cmocka_unit_test(test_jupyter_url_masked_unless_asked),
		cmocka_unit_test(test_scp_url_and_copy_commands),
		cmocka_unit_test(test_detail_port_lines),
		cmocka_unit_test(test_ssh_forwards),
		cmocka_unit_test(test_exec_builder_and_answer),
		cmocka_unit_test(test_recycle),
		cmocka_unit_test(test_browser_open_or_copy),
		cmocka_unit_test(test_copy_locations_and_body),
		cmocka_unit_test(test_job_phase_tracking),
		cmocka_unit_test(test_snapshot_builder),
		cmocka_unit_test(test_transfer_columns),
		cmocka_unit_test(test_instance_ssh_keys),
		cmocka_unit_test(test_rsync_command_local),
		cmocka_unit_test(test_route_checklist),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
