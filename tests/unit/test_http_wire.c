/* test_http_wire.c: what http.c, api.c and dump.c put on the wire and do
 * with what comes back, against a tiny scripted HTTP server on loopback
 * (one thread, canned answers per path): User-Agent, Authorization,
 * Accept-Encoding and JSON bodies on every write (DELETE too); the size cap;
 * the v1 -> v0 instance list fall-back (and the v0 410 error), the
 * workergroups -> autojobs fall-back, which the simulator cannot show
 * because it always serves v1 and workergroups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api/api.h"
#include "net/auth.h"
#include "base/config.h"
#include "dump/dump.h"
#include "base/log.h"
#include "base/util.h"

struct route {
	const char *method; /* NULL = any */
	const char *path;   /* exact path, without the query */
	int status;
	const char *body;
};

#define MAX_REQ 32

static struct {
	int fd;
	int port;
	pthread_t th;
	pthread_mutex_t mu;
	const struct route *routes;
	size_t nroutes;
	char *reqs[MAX_REQ]; /* each whole request: head and body */
	size_t nreqs;
	size_t big;          /* > 0: answer every request with a body of this many bytes */
	bool drop;           /* close every connection after reading the request, no answer */
} srv;

static void serve_one(int c)
{
	char *buf = xmalloc(65536);
	size_t len = 0;
	char *end = NULL;
	ssize_t r;
	while (!end && len < 65535 && (r = read(c, buf + len, 65535 - len)) > 0) {
		len += (size_t)r;
		buf[len] = '\0';
		end = strstr(buf, "\r\n\r\n");
	}
	if (!end) {
		free(buf);
		return;
	}
	size_t clen = 0;
	const char *cl = strcasestr(buf, "\r\nContent-Length:");
	if (cl)
		clen = strtoul(cl + 17, NULL, 10);
	size_t want = (size_t)(end + 4 - buf) + clen;
	while (len < want && len < 65535 && (r = read(c, buf + len, 65535 - len)) > 0)
		len += (size_t)r;
	buf[len] = '\0';
	char method[16] = "", target[512] = "";
	sscanf(buf, "%15s %511s", method, target);
	target[strcspn(target, "?")] = '\0';
	int status = 404;
	const char *body = "{\"success\":false,\"error\":\"not_found\",\"msg\":\"no route\"}";
	char *bigbody = NULL;
	pthread_mutex_lock(&srv.mu);
	if (srv.nreqs < MAX_REQ)
		srv.reqs[srv.nreqs++] = xstrdup(buf);
	for (size_t i = 0; i < srv.nroutes; i++) {
		const struct route *rt = &srv.routes[i];
		if ((!rt->method || strcmp(rt->method, method) == 0) && strcmp(rt->path, target) == 0) {
			status = rt->status;
			body = rt->body;
			break;
		}
	}
	if (srv.drop) {
		pthread_mutex_unlock(&srv.mu);
		free(buf);
		return;
	}
	if (srv.big) {
		bigbody = xmalloc(srv.big + 1);
		memset(bigbody, ' ', srv.big);
		bigbody[0] = '{';
		bigbody[srv.big - 1] = '}';
		bigbody[srv.big] = '\0';
		status = 200;
		body = bigbody;
	}
	pthread_mutex_unlock(&srv.mu);
	char *head = xasprintf("HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
			       "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			       status, strlen(body));
	if (write(c, head, strlen(head)) < 0 || write(c, body, strlen(body)) < 0)
		fprintf(stderr, "# short write\n");
	free(head);
	free(bigbody);
	free(buf);
}

static void *serve(void *arg)
{
	(void)arg;
	for (;;) {
		int c = accept(srv.fd, NULL, NULL);
		if (c < 0)
			break;
		serve_one(c);
		close(c);
	}
	return NULL;
}

static int srv_start(void **state)
{
	(void)state;
	memset(&srv, 0, sizeof srv);
	pthread_mutex_init(&srv.mu, NULL);
	srv.fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof a;
	if (bind(srv.fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(srv.fd, 16) != 0 ||
	    getsockname(srv.fd, (struct sockaddr *)&a, &al) != 0)
		return -1;
	srv.port = ntohs(a.sin_port);
	return pthread_create(&srv.th, NULL, serve, NULL) == 0 ? 0 : -1;
}

static int srv_stop(void **state)
{
	(void)state;
	shutdown(srv.fd, SHUT_RDWR);
	close(srv.fd);
	pthread_join(srv.th, NULL);
	for (size_t i = 0; i < srv.nreqs; i++)
		free(srv.reqs[i]);
	pthread_mutex_destroy(&srv.mu);
	return 0;
}

static void set_routes(const struct route *r, size_t n)
{
	pthread_mutex_lock(&srv.mu);
	srv.routes = r;
	srv.nroutes = n;
	for (size_t i = 0; i < srv.nreqs; i++)
		free(srv.reqs[i]);
	srv.nreqs = 0;
	pthread_mutex_unlock(&srv.mu);
}

/* The i-th request received (copy). */
static char *request(size_t i)
{
	pthread_mutex_lock(&srv.mu);
	char *r = i < srv.nreqs ? xstrdup(srv.reqs[i]) : NULL;
	pthread_mutex_unlock(&srv.mu);
	return r;
}

static size_t nrequests(void)
{
	pthread_mutex_lock(&srv.mu);
	size_t n = srv.nreqs;
	pthread_mutex_unlock(&srv.mu);
	return n;
}

static char url[64];
static char dir[64];

static struct config test_cfg(void)
{
	struct config c;
	memset(&c, 0, sizeof c);
	snprintf(url, sizeof url, "http://127.0.0.1:%d", srv.port);
	c.base_url = url;
	c.run_url = url;
	snprintf(dir, sizeof dir, "/nonexistent/vastai");
	c.vast_config_dir = dir;
	c.connect_timeout_s = 5;
	c.total_timeout_s = 5;
	c.page_rate = 0;
	return c;
}

static void headers_and_bodies(void **state)
{
	(void)state;
	static const struct route routes[] = {
		{"GET", "/api/v0/users/current/", 200, "{\"id\":1,\"email\":\"a@b\"}"},
		{"DELETE", "/api/v0/instances/5/", 200, "{\"success\":true}"},
		{"PUT", "/api/v0/instances/5/", 200,
		 "{\"success\":false,\"error\":\"resources_unavailable\",\"msg\":\"Required resources "
		 "are currently unavailable, state change queued.\"}"},
	};
	set_routes(routes, 3);
	setenv("VAST_API_KEY", "wire-test-key", 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct api_client cl;
	api_client_init(&cl, &c, a);
	json_t *root;
	struct api_error e;
	struct api_call call = api_user(&c);
	assert_true(api_run(&cl, &call, &root, &e));
	api_call_free(&call);
	assert_string_equal(json_string_value(json_object_get(root, "email")), "a@b");
	json_decref(root);
	char *r = request(0);
	assert_non_null(r);
	assert_non_null(strstr(r, "GET /api/v0/users/current/ HTTP/1.1\r\n"));
	assert_non_null(strstr(r, "\r\nUser-Agent: rentop/" RENTOP_VERSION "\r\n"));
	assert_non_null(strstr(r, "\r\nAuthorization: Bearer wire-test-key\r\n"));
	assert_non_null(strcasestr(r, "\r\nAccept-Encoding: "));
	assert_null(strcasestr(r, "\r\nContent-Length:")); /* a GET carries no body */
	free(r);

	call = api_destroy(&c, 5);
	assert_true(api_run(&cl, &call, &root, &e));
	api_call_free(&call);
	json_decref(root);
	r = request(1);
	assert_non_null(strstr(r, "DELETE /api/v0/instances/5/ HTTP/1.1\r\n"));
	assert_non_null(strstr(r, "\r\nContent-Type: application/json\r\n"));
	assert_non_null(strstr(r, "\r\n\r\n{}"));
	free(r);

	/* HTTP 200 with success:false is an error, with the service's text */
	call = api_start(&c, 5);
	assert_false(api_run(&cl, &call, &root, &e));
	api_call_free(&call);
	assert_null(root);
	assert_int_equal(e.cls, AE_CLIENT);
	assert_string_equal(e.slug, "resources_unavailable");
	assert_non_null(strstr(e.msg, "state change queued"));
	r = request(2);
	assert_non_null(strstr(r, "\r\n\r\n{\"state\":\"running\"}"));
	free(r);
	assert_int_equal(nrequests(), 3); /* not retried */

	api_client_cleanup(&cl);
	auth_free(a);
	unsetenv("VAST_API_KEY");
}

static void size_cap(void **state)
{
	(void)state;
	set_routes(NULL, 0);
	pthread_mutex_lock(&srv.mu);
	srv.big = 20000;
	pthread_mutex_unlock(&srv.mu);
	struct config c = test_cfg();
	struct api_client cl;
	api_client_init(&cl, &c, NULL);
	cl.opts.max_response = 10000;
	json_t *root;
	struct api_error e;
	struct api_call call = api_user(&c);
	assert_false(api_run(&cl, &call, &root, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	assert_non_null(strstr(e.msg, "too large"));
	/* under the cap it is fine */
	cl.opts.max_response = 30000;
	assert_true(api_run(&cl, &call, &root, &e));
	json_decref(root);
	api_call_free(&call);
	api_client_cleanup(&cl);
	pthread_mutex_lock(&srv.mu);
	srv.big = 0;
	pthread_mutex_unlock(&srv.mu);
}

/* Run dump_run with output captured. */
static int dump(const struct config *c, char **out, char **err)
{
	size_t ol, el;
	FILE *o = open_memstream(out, &ol), *e = open_memstream(err, &el);
	setenv("VAST_API_KEY", "wire-test-key", 1);
	struct auth *a = auth_new(c, NULL);
	int rc = dump_run(c, a, o, e);
	auth_free(a);
	unsetenv("VAST_API_KEY");
	fclose(o);
	fclose(e);
	return rc;
}

static void v0_and_autojobs_fall_back(void **state)
{
	(void)state;
	static const struct route routes[] = {
		{"GET", "/api/v1/instances/", 404, "{\"detail\":\"Not Found\"}"},
		{"GET", "/api/v0/instances/", 200,
		 "{\"instances_found\":2,\"instances\":[{\"id\":11,\"actual_status\":\"running\","
		 "\"instance_api_key\":\"secret-1\"},{\"id\":12,\"actual_status\":null}]}"},
		{"GET", "/api/v0/workergroups/", 405, "{\"detail\":\"Method Not Allowed\"}"},
		{"GET", "/api/v0/autojobs/", 200,
		 "{\"success\":true,\"results\":[{\"id\":7,\"endpoint_name\":\"e\",\"api_key\":\"s\"}]}"},
	};
	set_routes(routes, 4);
	struct config c = test_cfg();
	c.dump = DUMP_INSTANCES;
	c.dump_json = true;
	char *out, *err;
	assert_int_equal(dump(&c, &out, &err), DUMP_EXIT_OK);
	json_t *j = json_loads(out, 0, NULL);
	assert_true(json_is_array(j));
	assert_int_equal(json_array_size(j), 2);
	assert_null(json_object_get(json_array_get(j, 0), "instance_api_key"));
	assert_null(strstr(out, "secret-1"));
	json_decref(j);
	free(out);
	free(err);
	/* v1's page with the highest-id probe beside it (unpaced), then v0 */
	assert_int_equal(nrequests(), 3);

	set_routes(routes, 4);
	c.dump = DUMP_WORKERGROUPS;
	assert_int_equal(dump(&c, &out, &err), DUMP_EXIT_OK);
	j = json_loads(out, 0, NULL);
	assert_int_equal(json_array_size(j), 1);
	assert_null(json_object_get(json_array_get(j, 0), "api_key"));
	json_decref(j);
	free(out);
	free(err);
	char *r = request(1);
	assert_non_null(strstr(r, "GET /api/v0/autojobs/ "));
	free(r);
}

static void v0_retired_is_an_error(void **state)
{
	(void)state;
	static const struct route routes[] = {
		{"GET", "/api/v1/instances/", 404, "{\"detail\":\"Not Found\"}"},
		{"GET", "/api/v0/instances/", 410,
		 "{\"success\":false,\"error\":\"deprecated_endpoint\",\"msg\":\"/api/v0/instances/ is "
		 "deprecated. Use /api/v1/instances/ instead.\"}"},
	};
	set_routes(routes, 2);
	struct config c = test_cfg();
	c.dump = DUMP_INSTANCES;
	char *out, *err;
	assert_int_equal(dump(&c, &out, &err), DUMP_EXIT_NET);
	assert_non_null(strstr(err, "deprecated"));
	assert_string_equal(out, "");
	free(out);
	free(err);
}

/* The body after the head of request i (copy), or NULL. */
static char *request_body(size_t i)
{
	char *r = request(i);
	char *b = r ? strstr(r, "\r\n\r\n") : NULL;
	char *out = b ? xstrdup(b + 4) : NULL;
	free(r);
	return out;
}

/* The whole content of a file (malloc'd, "" when absent). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xstrdup("");
	char *buf = xcalloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The endpoint log forms: the CLI's and the docs' first, byte for byte as
 * the CLI sends it ({"id","api_key","tail"}, the key in use in the body
 * and the Bearer header), the spec's form (slashless, {"endpoint","tail"},
 * no key in the body) on 404, 405, 301, 308 only; when both are absent,
 * the first form's error; a bare JSON string is the failure's text.  The
 * key never reaches the text, an error line or the --log file, even when
 * the run server echoes it. */
static void endpoint_logs_both_forms(void **state)
{
	(void)state;
	static const struct route cli[] = {
		{"POST", "/get_endpoint_logs/", 200, "{\"info0\":\"i0\",\"debug\":\"dbg\"}"},
	};
	static const struct route bare[] = {
		{"POST", "/get_endpoint_logs/", 200, "\"endpoint not found\""},
	};
	static const struct route neither[] = {
		{"POST", "/get_endpoint_logs/", 404, "{\"detail\":\"first form missing\"}"},
		{"POST", "/get_endpoint_logs", 301, ""},
	};
	static const struct route refused[] = {
		{"POST", "/get_endpoint_logs/", 400, "{\"msg\":\"bad tail\"}"},
		{"POST", "/get_endpoint_logs", 200, "{\"logs\":\"never\"}"},
	};
	static const struct route echo[] = {
		{"POST", "/get_endpoint_logs/", 200,
		 "{\"info0\":\"key=wire-test-key ok\\nagain wire-test-key\"}"},
	};
	static const struct route echo_err[] = {
		{"POST", "/get_endpoint_logs/", 200, "\"invalid api_key wire-test-key for 12\""},
	};
	char logpath[] = "/tmp/rentop-wire-log-XXXXXX";
	int lfd = mkstemp(logpath);
	assert_true(lfd >= 0);
	close(lfd);
	assert_int_equal(log_open(logpath), 0);
	setenv("VAST_API_KEY", "wire-test-key", 1);
	struct config c = test_cfg();
	struct auth *a = auth_new(&c, NULL);
	struct api_client cl;
	api_client_init(&cl, &c, a);
	struct api_error e;

	set_routes(cli, 1);
	char *t = api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e);
	assert_string_equal(t, "i0\ndbg");
	free(t);
	assert_int_equal(nrequests(), 1);
	char *r = request(0);
	assert_non_null(strstr(r, "POST /get_endpoint_logs/ HTTP/1.1\r\n"));
	assert_non_null(strstr(r, "\r\nAuthorization: Bearer wire-test-key\r\n"));
	free(r);
	char *b = request_body(0);
	assert_string_equal(b, "{\"id\":12,\"api_key\":\"wire-test-key\",\"tail\":50}");
	free(b);

	/* the spec's form on 404, 405 and the redirects, never followed */
	static const int absent[] = {404, 405, 301, 308};
	for (size_t i = 0; i < sizeof absent / sizeof *absent; i++) {
		struct route fb[] = {
			{"POST", "/get_endpoint_logs/", absent[i], "{\"detail\":\"Not Found\"}"},
			{"POST", "/get_endpoint_logs", 200, "{\"logs\":\"one\\ntwo\\u001b[2J\"}"},
		};
		set_routes(fb, 2);
		t = api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e);
		assert_non_null(t);
		assert_string_equal(t, "one\ntwo");
		free(t);
		assert_int_equal(nrequests(), 2);
		r = request(1);
		assert_non_null(strstr(r, "POST /get_endpoint_logs HTTP/1.1\r\n"));
		assert_non_null(strstr(r, "\r\nAuthorization: Bearer wire-test-key\r\n"));
		free(r);
		b = request_body(1);
		assert_string_equal(b, "{\"endpoint\":\"ep-a\",\"tail\":50}");
		free(b);
		set_routes(NULL, 0);
	}
	/* any other refusal is the answer: no second form */
	set_routes(refused, 2);
	assert_null(api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e));
	assert_int_equal(e.http_status, 400);
	assert_int_equal(nrequests(), 1);
	/* neither form: what the first said */
	set_routes(neither, 2);
	assert_null(api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e));
	assert_int_equal(nrequests(), 2);
	assert_int_equal(e.http_status, 404);
	assert_non_null(strstr(e.msg, "first form missing"));
	set_routes(bare, 1);
	assert_null(api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e));
	assert_non_null(strstr(e.msg, "endpoint not found"));

	/* a run server that echoes the key: starred out in the text */
	set_routes(echo, 1);
	t = api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e);
	assert_non_null(t);
	assert_null(strstr(t, "wire-test-key"));
	assert_string_equal(t, "key=************* ok\nagain *************");
	free(t);
	/* and in a failure's text */
	set_routes(echo_err, 1);
	assert_null(api_fetch_endpoint_logs(&cl, "ep-a", 12, 50, &e));
	assert_null(strstr(e.msg, "wire-test-key"));
	assert_non_null(strstr(e.msg, "invalid api_key *************"));
	char line[400];
	apierr_format(&e, line, sizeof line);
	assert_null(strstr(line, "wire-test-key"));

	api_client_cleanup(&cl);
	auth_free(a);
	unsetenv("VAST_API_KEY");
	log_close();
	char *logged = slurp(logpath);
	assert_non_null(strstr(logged, "/get_endpoint_logs/")); /* the log did run */
	assert_non_null(strstr(logged, "answer held a key"));
	assert_null(strstr(logged, "wire-test-key"));
	free(logged);
	unlink(logpath);
}

/* api_run (--dump and one-shot calls) under the one retry rule: an action
 * whose answer is lost or came from a failing gateway is sent once and
 * reported unknown; a fetch is retried; an action that never reached the
 * service (connection refused) is retried and is not unknown. */
static void api_run_at_most_once(void **state)
{
	(void)state;
	static const struct route routes[] = {
		{"PUT", "/api/v0/instances/prepay/5/", 502, "<html>502 Bad Gateway</html>"},
		{"GET", "/api/v0/users/current/", 502, "<html>502 Bad Gateway</html>"},
	};
	set_routes(routes, 2);
	struct config c = test_cfg();
	struct api_client cl;
	api_client_init(&cl, &c, NULL);
	struct api_call call = api_prepay(&c, 5, 10);
	json_t *root = NULL;
	struct api_error e;
	assert_false(api_run(&cl, &call, &root, &e));
	assert_true(cl.unknown);
	assert_int_equal(cl.requests, 1);
	assert_int_equal(nrequests(), 1);
	api_call_free(&call);

	set_routes(routes, 2);
	cl.requests = 0;
	call = api_user(&c);
	assert_false(api_run(&cl, &call, &root, &e));
	assert_false(cl.unknown);
	assert_int_equal(cl.requests, 4); /* the fetch: 1 + 3 retries */
	assert_int_equal(nrequests(), 4);
	api_call_free(&call);

	/* the connection closes with no answer after the request arrived */
	set_routes(routes, 2);
	pthread_mutex_lock(&srv.mu);
	srv.drop = true;
	pthread_mutex_unlock(&srv.mu);
	cl.requests = 0;
	call = api_destroy(&c, 7);
	assert_false(api_run(&cl, &call, &root, &e));
	assert_true(cl.unknown);
	assert_int_equal(e.cls, AE_TRANSPORT);
	assert_int_equal(cl.requests, 1);
	assert_int_equal(nrequests(), 1);
	api_call_free(&call);
	pthread_mutex_lock(&srv.mu);
	srv.drop = false;
	pthread_mutex_unlock(&srv.mu);

	/* nothing listens: certainly not sent, so retried, and not unknown */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
	char dead[64];
	snprintf(dead, sizeof dead, "http://127.0.0.1:%d", ntohs(a.sin_port));
	struct config dc = c;
	dc.base_url = dead;
	cl.requests = 0;
	call = api_prepay(&dc, 5, 10);
	struct http_xfer *x = http_xfer_new(&cl.opts, call.method, call.url, call.body, NULL, &e);
	http_xfer_at_most_once(x);
	http_xfer_perform(x);
	assert_int_equal(http_xfer_code(x), CURLE_COULDNT_CONNECT);
	assert_false(http_xfer_sent(x));
	http_xfer_free(x);
	assert_false(api_run(&cl, &call, &root, &e));
	assert_false(cl.unknown);
	assert_int_equal(cl.requests, 4);
	api_call_free(&call);
	close(fd);
	api_client_cleanup(&cl);
}

int main(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(headers_and_bodies),
		cmocka_unit_test(size_cap),
		cmocka_unit_test(v0_and_autojobs_fall_back),
		cmocka_unit_test(v0_retired_is_an_error),
		cmocka_unit_test(endpoint_logs_both_forms),
		cmocka_unit_test(api_run_at_most_once),
	};
	int rc = cmocka_run_group_tests(tests, srv_start, srv_stop);
	curl_global_cleanup();
	return rc;
}
