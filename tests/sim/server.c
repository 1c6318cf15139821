/* server.c: the simulator's HTTP layer.  It owns the libmicrohttpd daemon
 * (bound to 127.0.0.1, a small pool of threads polling the connections;
 * a latency or hang fault suspends its connection and a sleeper thread
 * resumes it when the time is up, so a slow or hanging fault never blocks
 * other clients), collects each request's body (GET included,
 * by Content-Length), turns it into a struct sim_req, applies injected
 * faults (sleeping without the state lock), takes the lock, advances the
 * world to now, records the request for /__sim/state, routes it, serialises
 * the answer under the lock, and sends it.  It never sends Retry-After and
 * never logs bodies or keys: a request log line is "METHOD path -> status". */
#include "server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "routes.h"

#define MAX_BODY (8u << 20)      /* bytes accepted in a request body */
#define HUGE_CHUNK 65536
#define POOL_THREADS 4           /* threads serving the connections */

struct sleeper {                 /* a connection suspended by a fault's sleep */
	struct MHD_Connection *conn;
	double wake_at;          /* monotonic s */
	struct sleeper *next;
};

struct server {
	struct MHD_Daemon *d;
	struct simstate *st;
	int port;
	pthread_t sleeper_thread;
	pthread_mutex_t sleep_lock;
	pthread_cond_t sleep_cond;
	struct sleeper *sleepers; /* under sleep_lock */
	bool sleep_stop;          /* under sleep_lock: resume everyone and end */
};

struct reqbuf {                  /* per-request state kept by MHD for us */
	char *uri;               /* raw URI with the query string */
	char *body;
	size_t len, cap;
	bool too_big;
	bool started;            /* the headers-only first call was seen */
	bool fault_taken;        /* the fault queue was consulted (once) */
	bool faulted;            /* ... and gave this request f */
	struct fault f;
};

static const char *const fault_names[] = {
	[FAULT_LATENCY] = "latency", [FAULT_HANG] = "hang", [FAULT_500] = "500", [FAULT_502] = "502",
	[FAULT_503] = "503", [FAULT_429] = "429", [FAULT_MALFORMED] = "malformed",
	[FAULT_TRUNCATED] = "truncated", [FAULT_DROP] = "drop", [FAULT_HUGE] = "huge",
	[FAULT_LOST] = "lost",
	[FAULT_403] = "403", [FAULT_404] = "404",
};

bool server_fault_kind(const char *name, enum fault_kind *out)
{
	for (size_t i = 0; name && i < sizeof fault_names / sizeof *fault_names; i++)
		if (!strcmp(fault_names[i], name)) {
			*out = (enum fault_kind)i;
			return true;
		}
	return false;
}

const char *server_fault_name(enum fault_kind k)
{
	return fault_names[k];
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A fault's sleep: the connection is suspended (its pool thread goes on
 * serving others) until the sleeper thread resumes it at wake_at, or at
 * once when the server stops (a shutdown never waits for a two-minute
 * hang); libmicrohttpd then calls on_request again, which carries on.
 * False, nothing suspended, once the server is stopping (no sleep). */
static bool sleep_conn(struct server *sv, struct MHD_Connection *conn, long ms)
{
	struct sleeper *z = malloc(sizeof *z);
	if (!z)
		abort();
	z->conn = conn;
	z->wake_at = mono_now() + (double)ms / 1000.0;
	pthread_mutex_lock(&sv->sleep_lock);
	if (sv->sleep_stop) {
		pthread_mutex_unlock(&sv->sleep_lock);
		free(z);
		return false;
	}
	MHD_suspend_connection(conn); /* before the sleeper can see it */
	z->next = sv->sleepers;
	sv->sleepers = z;
	pthread_cond_signal(&sv->sleep_cond);
	pthread_mutex_unlock(&sv->sleep_lock);
	return true;
}

static void *sleeper_main(void *arg)
{
	struct server *sv = arg;
	pthread_mutex_lock(&sv->sleep_lock);
	for (;;) {
		double now = mono_now(), next = INFINITY;
		for (struct sleeper **p = &sv->sleepers; *p;) {
			struct sleeper *z = *p;
			if (sv->sleep_stop || z->wake_at <= now) {
				*p = z->next;
				MHD_resume_connection(z->conn);
				free(z);
			} else {
				if (z->wake_at < next)
					next = z->wake_at;
				p = &z->next;
			}
		}
		if (sv->sleep_stop)
			break;
		if (next == INFINITY) {
			pthread_cond_wait(&sv->sleep_cond, &sv->sleep_lock);
		} else {
			/* the condition's clock is CLOCK_MONOTONIC (server_start) */
			struct timespec ts;
			double at = next;
			ts.tv_sec = (time_t)at;
			ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
			pthread_cond_timedwait(&sv->sleep_cond, &sv->sleep_lock, &ts);
		}
	}
	pthread_mutex_unlock(&sv->sleep_lock);
	return NULL;
}

/* MHD: the raw URI, before any parsing; becomes the request's state. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	(void)cls;
	(void)conn;
	struct reqbuf *rb = calloc(1, sizeof *rb);
	if (!rb)
		abort();
	rb->uri = strdup(uri ? uri : "/");
	return rb;
}

static void on_done(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
	struct reqbuf *rb = *con_cls;
	if (rb) {
		free(rb->uri);
		free(rb->body);
		free(rb);
	}
	*con_cls = NULL;
}

static const char *key_name(enum sim_key_kind k)
{
	switch (k) {
	case KEY_NONE: return "none";
	case KEY_INVALID: return "invalid";
	case KEY_FULL: return "full";
	case KEY_READONLY: return "readonly";
	case KEY_SESSION: return "session";
	case KEY_SESSION_EXPIRED: return "session_expired";
	case KEY_INSTANCE: return "instance";
	}
	return "?";
}

/* Remember the request for /__sim/state. */
static void record(struct simstate *st, const struct sim_req *rq)
{
	json_t *e = json_object_get(st->requests, rq->path);
	if (!e) {
		e = json_pack("{s:i,s:{}}", "count", 0, "methods");
		json_object_set_new(st->requests, rq->path, e);
	}
	json_object_set_new(e, "count", json_integer(json_integer_value(json_object_get(e, "count")) + 1));
	json_t *m = json_object_get(e, "methods");
	json_object_set_new(m, rq->method, json_integer(json_integer_value(json_object_get(m, rq->method)) + 1));
	json_object_set_new(e, "last_method", json_string(rq->method));
	json_object_set_new(e, "last_query", json_string(rq->query));
	json_object_set_new(e, "last_auth", json_string(key_name(rq->key)));
	if (rq->body)
		json_object_set(e, "last_body", rq->body);
	else if (rq->body_len)
		json_object_set_new(e, "last_body", json_stringn_nocheck(rq->body_raw, rq->body_len));
	else
		json_object_set_new(e, "last_body", json_null());
}

/* Take the first fault matching this request (count decremented). */
static bool take_fault(struct simstate *st, const char *method, const char *path, struct fault *out)
{
	for (int i = 0; i < st->nfaults; i++) {
		struct fault *f = &st->faults[i];
		if (f->count <= 0 || strncmp(path, f->path, strlen(f->path)))
			continue;
		if (f->method[0] && strcmp(f->method, method))
			continue;
		if (f->skip > 0) { /* this one passes; the fault waits */
			f->skip--;
			return false;
		}
		*out = *f;
		if (--f->count == 0) {
			memmove(f, f + 1, (size_t)(st->nfaults - i - 1) * sizeof *f);
			st->nfaults--;
		}
		return true;
	}
	return false;
}

struct stream {                 /* a body sent through a callback */
	char *data;             /* truncated: the bytes to send, then an error */
	size_t len;
	uint64_t total;         /* huge: bytes to produce */
	bool huge;
};

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream *s = cls;
	if (s->huge) {
		static const char head[] = "{\"success\":true,\"instances\":[],\"padding\":\"";
		if (pos >= s->total)
			return MHD_CONTENT_READER_END_OF_STREAM;
		size_t n = 0;
		while (n < max && pos + n < s->total) {
			uint64_t p = pos + n;
			if (p < sizeof head - 1)
				buf[n] = head[p];
			else if (p == s->total - 2)
				buf[n] = '"';
			else if (p == s->total - 1)
				buf[n] = '}';
			else
				buf[n] = 'x';
			n++;
		}
		return (ssize_t)n;
	}
	if (pos >= s->len)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	size_t n = s->len - (size_t)pos < max ? s->len - (size_t)pos : max;
	memcpy(buf, s->data + pos, n);
	return (ssize_t)n;
}

static void stream_free(void *cls)
{
	struct stream *s = cls;
	free(s->data);
	free(s);
}

static enum MHD_Result send_buf(struct MHD_Connection *conn, int status, char *body, size_t len, const char *ctype)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(r, "Content-Type", ctype ? ctype : "application/json");
	enum MHD_Result ret = MHD_queue_response(conn, (unsigned)status, r);
	MHD_destroy_response(r);
	return ret;
}

static char *dup_str(const char *s, size_t *len)
{
	*len = strlen(s);
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

/* Answer with an injected failure (no state touched). */
static enum MHD_Result send_fault(struct MHD_Connection *conn, const struct fault *f, char *real, size_t real_len)
{
	size_t len;
	char *b;
	switch (f->kind) {
	case FAULT_500:
		b = dup_str("{\"success\":false,\"error\":\"server_error\",\"msg\":\"Internal Server Error\"}", &len);
		return send_buf(conn, 500, b, len, NULL);
	case FAULT_502:
		b = dup_str("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad "
			    "Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n", &len);
		return send_buf(conn, 502, b, len, "text/html");
	case FAULT_503:
		b = dup_str("<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>\n", &len);
		return send_buf(conn, 503, b, len, "text/html");
	case FAULT_429:
		b = dup_str("{\"detail\":\"API requests too frequent endpoint threshold=1.0\"}", &len);
		return send_buf(conn, 429, b, len, NULL);
	case FAULT_403: /* an object store's refusal (a result_url not written yet) */
		b = dup_str(OBJSTORE_403, &len);
		return send_buf(conn, 403, b, len, "application/xml");
	case FAULT_404:
		b = dup_str("{\"detail\":\"Not Found\"}", &len);
		return send_buf(conn, 404, b, len, NULL);
	case FAULT_MALFORMED:
		b = dup_str("{\"success\": true, \"instances\": [{\"id\": 1,, \"actual_status\": \"runn", &len);
		return send_buf(conn, 200, b, len, NULL);
	case FAULT_TRUNCATED: {
		struct stream *s = calloc(1, sizeof *s);
		if (!s)
			abort();
		s->data = real;
		s->len = real_len / 2;
		struct MHD_Response *r = MHD_create_response_from_callback(real_len, 4096, stream_read, s, stream_free);
		MHD_add_response_header(r, "Content-Type", "application/json");
		enum MHD_Result ret = MHD_queue_response(conn, 200, r);
		MHD_destroy_response(r);
		return ret;
	}
	case FAULT_HUGE: {
		struct stream *s = calloc(1, sizeof *s);
		if (!s)
			abort();
		s->huge = true;
		s->total = (uint64_t)f->mb << 20;
		struct MHD_Response *r = MHD_create_response_from_callback(s->total, HUGE_CHUNK, stream_read, s, stream_free);
		MHD_add_response_header(r, "Content-Type", "application/json");
		enum MHD_Result ret = MHD_queue_response(conn, 200, r);
		MHD_destroy_response(r);
		return ret;
	}
	case FAULT_LATENCY:
	case FAULT_HANG:
	case FAULT_DROP:
	case FAULT_LOST:
		break;
	}
	return MHD_NO;
}

/* json_dump_callback's sink: the body grows in place (json_dumps would
 * build it in jansson's buffer and then copy it whole). */
struct body_buf {
	char *s;
	size_t len, cap;
};

static int body_put(const char *p, size_t n, void *data)
{
	struct body_buf *b = data;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	return 0;
}

/* Route under the lock and serialise; returns the body (malloc'd). */
static char *process(struct server *sv, struct sim_req *rq, const char *peer, int *status, const char **ctype,
		     size_t *len)
{
	struct simstate *st = sv->st;
	struct sim_resp rs = { 0 };
	pthread_mutex_lock(&st->lock);
	rq->now = world_now(st->w);
	bool ctl = !strncmp(rq->path, "/__sim/", 7);
	if (ctl) {
		rq->key = KEY_NONE;
		ctl_handle(st, rq, &rs);
	} else {
		world_advance(st->w, rq->now);
		long iid;
		rq->key = routes_classify_key(st->w, rq->bearer, rq->now, &iid);
		rq->key_instance_id = iid;
		record(st, rq);
		rq->peer = peer;
		const char *caller = rq->bearer ? rq->bearer : peer;
		routes_handle(st->w, st->rate_limits ? st->rl : NULL, caller, mono_now(), rq, &rs);
	}
	char *body;
	if (rs.json) {
		struct body_buf b = { 0 };
		if (json_dump_callback(rs.json, body_put, &b,
				       JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15)) ||
		    body_put("", 0, &b)) {
			free(b.s);
			b.s = NULL;
			b.len = 0;
		} else {
			b.s[b.len] = '\0';
		}
		json_decref(rs.json);
		body = b.s;
		*len = b.len;
		*ctype = "application/json";
	} else if (rs.raw) {
		body = rs.raw;
		*len = rs.raw_len;
		*ctype = rs.content_type ? rs.content_type : "application/json";
	} else {
		body = strdup("");
		*len = 0;
		*ctype = "application/json";
	}
	pthread_mutex_unlock(&st->lock);
	*status = rs.status ? rs.status : 200;
	if (!st->quiet)
		fprintf(stderr, "rentop-sim: %s %s -> %d\n", rq->method, rq->path, *status);
	return body;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	(void)url;
	(void)version;
	struct server *sv = cls;
	struct reqbuf *rb = *con_cls;
	if (!rb->started) {
		rb->started = true;
		return MHD_YES;
	}
	if (*upload_size) {
		if (rb->len + *upload_size > MAX_BODY) {
			rb->too_big = true;
		} else {
			if (rb->len + *upload_size + 1 > rb->cap) {
				rb->cap = (rb->len + *upload_size + 1) * 2;
				rb->body = realloc(rb->body, rb->cap);
				if (!rb->body)
					abort();
			}
			memcpy(rb->body + rb->len, upload, *upload_size);
			rb->len += *upload_size;
			rb->body[rb->len] = '\0';
		}
		*upload_size = 0;
		return MHD_YES;
	}
	/* The whole request is here.  A request target longer than --url-max
	 * is refused before routing, as a front server's request-line limit
	 * does: 414, an HTML body, not counted by the rate limits nor logged
	 * as a request (the service never saw it). */
	if ((long)strlen(rb->uri) > sv->st->url_max) {
		size_t len;
		char *b = dup_str("<html><head><title>414 Request-URI Too Large</title></head><body>"
				  "<center><h1>414 Request-URI Too Large</h1></center></body></html>\n",
				  &len);
		if (!sv->st->quiet)
			fprintf(stderr, "rentop-sim: %s (%zu bytes) -> 414\n", method, strlen(rb->uri));
		pthread_mutex_lock(&sv->st->lock);
		sv->st->refused_414++;
		pthread_mutex_unlock(&sv->st->lock);
		return send_buf(conn, 414, b, len, "text/html");
	}
	char *path = strdup(rb->uri);
	char *qm = strchr(path, '?');
	const char *query = "";
	if (qm) {
		*qm = '\0';
		query = qm + 1;
	}
	char peer[64] = "127.0.0.1";
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr, peer,
			  sizeof peer);
	const char *auth = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
	const char *bearer = NULL;
	if (auth) {
		bearer = auth;
		if (!strncasecmp(auth, "Bearer ", 7))
			bearer = auth + 7;
		while (*bearer == ' ')
			bearer++;
	}
	json_t *body = rb->len ? json_loadb(rb->body, rb->len, JSON_DECODE_ANY, NULL) : NULL;
	struct sim_req rq = {
		.method = method, .path = path, .query = query, .body_raw = rb->body ? rb->body : "",
		.body_len = rb->len, .body = body, .bearer = bearer, .key = KEY_NONE, .key_instance_id = -1,
	};
	enum MHD_Result ret;
	if (rb->too_big) {
		size_t len;
		char *b = dup_str("{\"success\":false,\"error\":\"invalid_args\",\"msg\":\"Request body too large\"}", &len);
		ret = send_buf(conn, 413, b, len, NULL);
		goto out;
	}
	if (!rb->fault_taken) { /* not when called again after a fault's sleep */
		rb->fault_taken = true;
		if (strncmp(path, "/__sim/", 7)) {
			pthread_mutex_lock(&sv->st->lock);
			rb->faulted = take_fault(sv->st, method, path, &rb->f);
			pthread_mutex_unlock(&sv->st->lock);
		}
		if (rb->faulted && !sv->st->quiet)
			fprintf(stderr, "rentop-sim: %s %s: fault %s\n", method, path, server_fault_name(rb->f.kind));
		if (rb->faulted && (rb->f.kind == FAULT_LATENCY || rb->f.kind == FAULT_HANG) && rb->f.ms > 0 &&
		    sleep_conn(sv, conn, rb->f.ms)) {
			ret = MHD_YES;
			goto out;
		}
	}
	struct fault f = rb->f;
	bool faulted = rb->faulted;
	int status;
	const char *ctype;
	size_t len;
	char *out;
	if (faulted && f.kind != FAULT_LATENCY && f.kind != FAULT_TRUNCATED && f.kind != FAULT_LOST) {
		/* the request arrived: it is counted, though not acted on */
		pthread_mutex_lock(&sv->st->lock);
		long iid;
		rq.key = routes_classify_key(sv->st->w, rq.bearer, world_now(sv->st->w), &iid);
		rq.key_instance_id = iid;
		record(sv->st, &rq);
		pthread_mutex_unlock(&sv->st->lock);
		if (f.kind == FAULT_HANG || f.kind == FAULT_DROP) {
			ret = MHD_NO;
			goto out;
		}
		ret = send_fault(conn, &f, NULL, 0);
		goto out;
	}
	out = process(sv, &rq, peer, &status, &ctype, &len);
	if (faulted && f.kind == FAULT_LOST) {
		/* acted on, then the connection closes with no answer */
		free(out);
		ret = MHD_NO;
		goto out;
	}
	if (faulted && f.kind == FAULT_TRUNCATED)
		ret = send_fault(conn, &f, out, len);
	else
		ret = send_buf(conn, status, out, len, ctype);
out:
	json_decref(body);
	free(path);
	return ret;
}

/* libmicrohttpd's own messages, shown unless --quiet. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	const struct simstate *st = cls;
	if (st->quiet)
		return;
	fputs("rentop-sim: ", stderr);
	vfprintf(stderr, fmt, ap);
}

static void stop_sleeper(struct server *sv)
{
	pthread_mutex_lock(&sv->sleep_lock);
	sv->sleep_stop = true;
	pthread_cond_signal(&sv->sleep_cond);
	pthread_mutex_unlock(&sv->sleep_lock);
	pthread_join(sv->sleeper_thread, NULL);
}

struct server *server_start(struct simstate *st, int port)
{
	struct server *sv = calloc(1, sizeof *sv);
	if (!sv)
		abort();
	sv->st = st;
	struct sockaddr_in addr;
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t)port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	pthread_mutex_init(&sv->sleep_lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sv->sleep_cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&sv->sleeper_thread, NULL, sleeper_main, sv)) {
		free(sv);
		return NULL;
	}
	/* a pool of threads, not one per connection: a thread and its stack
	 * per connection was 10-20 % of the simulator's CPU in a --dump */
	sv->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
				     MHD_USE_ERROR_LOG,
				 (uint16_t)port, NULL, NULL, on_request, sv,
				 MHD_OPTION_EXTERNAL_LOGGER, mhd_log, st,
				 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
				 MHD_OPTION_URI_LOG_CALLBACK, on_uri, NULL,
				 MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL,
				 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)900,
				 MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)POOL_THREADS,
				 /* room for a request line past --url-max, so that the
				  * limit answered is ours (414 above), not the pool's,
				  * for targets up to ~15 KiB past it; no more: the pool
				  * is zeroed on every request and, above 32 KiB, mapped
				  * and unmapped per connection (at +64 KiB that was a
				  * quarter of the simulator's CPU in a --dump) */
				 MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				 (size_t)(st->url_max + 16384),
				 MHD_OPTION_END);
	if (!sv->d) {
		stop_sleeper(sv);
		free(sv);
		return NULL;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(sv->d, MHD_DAEMON_INFO_BIND_PORT);
	sv->port = di ? di->port : port;
	return sv;
}

int server_port(const struct server *s)
{
	return s->port;
}

void server_stop(struct server *s)
{
	if (!s)
		return;
	stop_sleeper(s); /* every sleeping connection resumed first */
	MHD_stop_daemon(s->d);
	free(s);
}
