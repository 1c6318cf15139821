/* svc.c: an instance's services (svc.h). */
#include "rules/svc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/secrets.h"

int svc_jupyter_port(const struct instance *x)
{
	for (size_t i = 0; i < x->nenv; i++)
		if (x->env[i].key && !strcmp(x->env[i].key, "JUPYTER_PORT")) {
			char *end;
			long p = strtol(x->env[i].value ? x->env[i].value : "", &end, 10);
			if (end != x->env[i].value && *end == '\0' && p > 0 && p <= 65535)
				return (int)p;
		}
	return x->runtype && strstr(x->runtype, "jupyter") ? 8080 : 0;
}

static int cmp_port(const void *pa, const void *pb)
{
	const struct svc_port *a = pa, *b = pb;
	if (a->container_port != b->container_port)
		return a->container_port < b->container_port ? -1 : 1;
	int c = strcmp(a->proto, b->proto);
	if (c)
		return c;
	return (a->host_port > b->host_port) - (a->host_port < b->host_port);
}

static const char *ip_of(const struct instance *x)
{
	return x->public_ip ? x->public_ip : "";
}

size_t svc_ports(const struct instance *x, struct svc_port *out, size_t max)
{
	size_t n = 0;
	int jp = svc_jupyter_port(x);
	const char *ip = ip_of(x);
	for (size_t i = 0; i < x->nports && n < max; i++) {
		const struct port_map *pm = &x->ports[i];
		struct svc_port *s = &out[n++];
		memset(s, 0, sizeof *s);
		s->container_port = pm->container_port;
		util_strlcpy(s->proto, pm->proto, sizeof s->proto);
		s->host_port = pm->host_port;
		snprintf(s->addr, sizeof s->addr, "%s:%d", ip, pm->host_port);
		bool tcp = !strcmp(pm->proto, "tcp");
		if (!tcp)
			s->kind = SVC_OTHER;
		else if (pm->container_port == 22)
			s->kind = SVC_SSH;
		else if (pm->container_port == jp)
			s->kind = SVC_JUPYTER;
		else
			s->kind = SVC_HTTP;
		if ((s->kind == SVC_HTTP || s->kind == SVC_JUPYTER) && ip[0])
			snprintf(s->url, sizeof s->url, "%s://%s:%d/",
				 s->kind == SVC_JUPYTER || pm->container_port == 443 ? "https" : "http", ip,
				 pm->host_port);
	}
	qsort(out, n, sizeof *out, cmp_port);
	return n;
}

bool svc_jupyter_url(const struct instance *x, bool reveal, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	int jp = svc_jupyter_port(x);
	if (!jp || !ip_of(x)[0])
		return false;
	for (size_t i = 0; i < x->nports; i++) {
		const struct port_map *pm = &x->ports[i];
		if (pm->container_port != jp || strcmp(pm->proto, "tcp"))
			continue;
		const char *tok = x->jupyter_token ? x->jupyter_token : "";
		snprintf(buf, n, "https://%s:%d/%s%s", x->public_ip, pm->host_port,
			 tok[0] ? "?token=" : "", tok[0] ? (reveal ? tok : SECRETS_MASK) : "");
		return true;
	}
	return false;
}

bool svc_scp_url(const struct instance *x, char *buf, size_t n)
{
	char host[256];
	int port;
	if (n)
		buf[0] = '\0';
	if (!instance_ssh_target(x, host, sizeof host, &port))
		return false;
	snprintf(buf, n, "scp://root@%s:%d", host, port);
	return true;
}

/* The address a copy command uses: the route picked under pref (SSH_ASK:
 * the direct one when there is one); false when x has none.  buf is "". */
static bool copy_route(const struct instance *x, enum ssh_route pref, char *host, size_t hn,
		       int *port, char *buf, size_t n)
{
	enum ssh_route r;
	if (n)
		buf[0] = '\0';
	if (!instance_ssh_pick(x, pref, &r))
		return false;
	if (r == SSH_ASK)
		r = SSH_DIRECT;
	return instance_ssh_route(x, r, host, hn, port);
}

bool svc_copy_command(const struct instance *x, enum ssh_route pref, bool rsync, char *buf,
		      size_t n)
{
	char host[256];
	int port;
	if (!copy_route(x, pref, host, sizeof host, &port, buf, n))
		return false;
	if (rsync)
		return svc_rsync_command(x, pref, "/workspace/", "./", false, buf, n);
	snprintf(buf, n, "scp -P %d -r root@%s:/workspace/ .", port, host);
	return true;
}

/* s quoted for a POSIX shell (as is when it needs no quotes) into out. */
static bool shell_word(const char *s, char *out, size_t n)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p && plain; p++)
		plain = isalnum((unsigned char)*p) || strchr("-_./~+=,@%:", *p);
	size_t o = 0;
	if (plain)
		return (size_t)snprintf(out, n, "%s", s) < n;
	if (o + 1 >= n)
		return false;
	out[o++] = '\'';
	for (const char *p = s; *p; p++) {
		const char *piece = *p == '\'' ? "'\\''" : NULL;
		size_t pl = piece ? strlen(piece) : 1;
		if (o + pl + 2 > n)
			return false;
		if (piece)
			memcpy(out + o, piece, pl);
		else
			out[o] = *p;
		o += pl;
	}
	out[o++] = '\'';
	out[o] = '\0';
	return true;
}

bool svc_rsync_command(const struct instance *x, enum ssh_route pref, const char *remote,
		       const char *local, bool upload, char *buf, size_t n)
{
	char host[256], rq[2 * 1100], lq[2 * 1100], rside[2 * 1100 + 300];
	int port;
	if (!copy_route(x, pref, host, sizeof host, &port, buf, n))
		return false;
	if (!shell_word(remote, rq, sizeof rq) || !shell_word(local, lq, sizeof lq))
		return false;
	snprintf(rside, sizeof rside, "root@%s:%s", host, rq);
	int w = snprintf(buf, n, "rsync -avP -e 'ssh -p %d' %s %s", port, upload ? lq : rside,
			 upload ? rside : lq);
	if (w < 0 || (size_t)w >= n) {
		if (n)
			buf[0] = '\0';
		return false;
	}
	return true;
}

size_t svc_forwards(const struct instance *x, const int *want, size_t nwant, int *out,
		    size_t max)
{
	size_t k = 0;
	for (size_t w = 0; w < nwant && k < max; w++) {
		bool have = false;
		for (size_t i = 0; i < x->nports && !have; i++)
			have = x->ports[i].container_port == want[w] && want[w] != 22 &&
			       !strcmp(x->ports[i].proto, "tcp");
		bool dup = false;
		for (size_t j = 0; j < k; j++)
			dup |= out[j] == want[w];
		if (have && !dup)
			out[k++] = want[w];
	}
	return k;
}

size_t svc_forward_ports(const struct instance *x, int *out, size_t max)
{
	struct svc_port p[64];
	size_t n = svc_ports(x, p, 64), k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if ((p[i].kind == SVC_HTTP || p[i].kind == SVC_JUPYTER) && !strcmp(p[i].proto, "tcp") &&
		    (!k || out[k - 1] != p[i].container_port))
			out[k++] = p[i].container_port;
	return k;
}

void svc_ssh_command(const char *host, int port, const int *fw, size_t nfw, char *buf, size_t n)
{
	snprintf(buf, n, "ssh -p %d root@%s", port, host);
	for (size_t i = 0; i < nfw; i++) {
		size_t len = strlen(buf);
		if (len + 1 >= n)
			break;
		snprintf(buf + len, n - len, " -L %d:localhost:%d", fw[i], fw[i]);
	}
}
