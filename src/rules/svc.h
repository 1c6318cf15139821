/* svc.h: an instance's services as an operator reaches them: every mapped
 * port as "IP:port -> container port", a ready URL for an HTTP port, the
 * Jupyter URL (https, as the service's Jupyter-direct launch serves it)
 * with its token, the scp URL the CLI's scp-url prints, and the scp and
 * rsync commands over the instance's SSH route.  The Jupyter token is a
 * secret: every text here has it masked unless the caller asks for it in
 * clear.  Pure, any thread. */
#ifndef RENTOP_RULES_SVC_H
#define RENTOP_RULES_SVC_H

#include <stdbool.h>
#include <stddef.h>

#include "state/instance.h"

enum svc_kind {
	SVC_SSH,     /* 22/tcp */
	SVC_JUPYTER, /* the Jupyter port (JUPYTER_PORT, else 8080) of a Jupyter runtype */
	SVC_HTTP,    /* any other TCP port: a URL to open */
	SVC_OTHER    /* UDP: no URL */
};

struct svc_port {
	int container_port;
	char proto[8];
	int host_port;
	enum svc_kind kind;
	char addr[96];  /* "IP:host_port" (no IP yet: ":host_port") */
	char url[160];  /* "" for SSH and UDP; the Jupyter URL without its token */
};

/* The container port Jupyter listens on: the env's JUPYTER_PORT when set
 * (the docs' networking guide), else 8080 when the runtype is a Jupyter
 * one; 0 when the instance runs no Jupyter. */
int svc_jupyter_port(const struct instance *x);
/* Every mapped port of x, sorted by container port then protocol, into
 * out (at most max); returns how many. */
size_t svc_ports(const struct instance *x, struct svc_port *out, size_t max);
/* The Jupyter URL "https://IP:PORT/?token=TOKEN": the token in clear when
 * reveal, else SECRETS_MASK (no token known: no query).  False (buf "")
 * when x runs no Jupyter or its port is not mapped or it has no IP. */
bool svc_jupyter_url(const struct instance *x, bool reveal, char *buf, size_t n);
/* "scp://root@HOST:PORT" as the CLI's scp-url builds it (the direct
 * address when 22/tcp is mapped, else the proxy); false when none. */
bool svc_scp_url(const struct instance *x, char *buf, size_t n);
/* The copy commands over the instance's SSH route (instance_ssh_pick
 * under pref; SSH_ASK: the direct one when there is one):
 *   scp -P PORT -r root@HOST:/workspace/ .
 *   rsync -avP -e 'ssh -p PORT' root@HOST:/workspace/ ./
 * rsync when rsync, else scp.  False when x has no SSH address. */
bool svc_copy_command(const struct instance *x, enum ssh_route pref, bool rsync, char *buf,
		      size_t n);
/* The rsync command of a copy between this machine and x over its SSH
 * route (as svc_copy_command picks it), `:copy` with a local side:
 *   rsync -avP -e 'ssh -p PORT' LOCAL root@HOST:REMOTE   (upload)
 *   rsync -avP -e 'ssh -p PORT' root@HOST:REMOTE LOCAL   (download)
 * each path single-quoted for a POSIX shell when it holds anything but
 * letters, digits and -_./~+=,@% (a quote inside as '\'').  False (buf "")
 * when x has no SSH address or the command does not fit. */
bool svc_rsync_command(const struct instance *x, enum ssh_route pref, const char *remote,
		       const char *local, bool upload, char *buf, size_t n);

/* The ports of want (container ports, the ssh_forwards setting) that x
 * maps as TCP services other than SSH (an HTTP port or Jupyter), in want's
 * order, into out (at most max); how many. */
size_t svc_forwards(const struct instance *x, const int *want, size_t nwant, int *out,
		    size_t max);
/* Every container port x maps as a TCP service other than SSH (an HTTP
 * port or Jupyter: what a -L forward is for), ascending, into out (at most
 * max); how many. */
size_t svc_forward_ports(const struct instance *x, int *out, size_t max);
/* "ssh -p PORT root@HOST -L P:localhost:P ..." (one -L per forward: the
 * local port is the container port), into buf. */
void svc_ssh_command(const char *host, int port, const int *fw, size_t nfw, char *buf, size_t n);

#endif
