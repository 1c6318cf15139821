/* instance.h: one instance record as rentop holds it (struct instance,
 * mapped by json/json_map.c), the shared row that carries it between
 * snapshots (struct irow), and the pure rules about one record: its display
 * state and group, where to SSH, the money questions a bid or a prepay
 * asks.  Pure functions, any thread; an irow's count is atomic. */
#ifndef RENTOP_INSTANCE_H
#define RENTOP_INSTANCE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/config.h" /* enum ssh_route */

/* Display state derived from actual/intended/cur/next status (instance_derive_state). */
enum inst_state {
	IS_PROVISIONING, /* actual_status null: being provisioned */
	IS_LOADING,      /* image downloading */
	IS_RUNNING,
	IS_STOPPING,     /* intended stopped, still running */
	IS_STOPPED,      /* stopped by the user (intended_status stopped) */
	IS_OUTBID,       /* an interruptible stopped by a higher bid (instance_state) */
	IS_STARTING,     /* intended running again after a stop, not yet up */
	IS_REBOOTING,
	IS_EXITED,       /* crashed: exited while intended running (failure) */
	IS_CREATED,      /* failed start with a Docker error (failure) */
	IS_UNKNOWN,      /* no heartbeat from the host (failure) */
	IS_OFFLINE,      /* host disconnected (failure) */
	IS_FROZEN,
	IS_OTHER,
	IS__COUNT
};

struct kv {          /* one field as received, for the detail view */
	char *key;
	char *value;      /* JSON text of the value, sanitised; secrets masked */
};

struct port_map {
	int container_port;
	char proto[8];    /* "tcp" / "udp" */
	int host_port;
};

struct instance {
	long id;
	uint64_t rev;         /* the record's version: a new number for every irow made
				 (instance_row_new), kept while a sweep finds it unchanged; a
				 view reformats a row only when its rev moved */
	char *label;
	char *actual_status;  /* "" while provisioning (null) */
	char *intended_status;
	char *cur_state, *next_state;
	char *status_msg;
	enum inst_state state;
	long machine_id, host_id;
	int num_gpus;
	char *gpu_name;
	double gpu_ram;       /* MB per GPU */
	double gpu_totalram;  /* MB */
	double gpu_util;      /* %, NAN when unknown */
	double gpu_temp;      /* degrees C, NAN when unknown */
	double cpu_cores;     /* cpu_cores_effective */
	double cpu_ram;       /* MB */
	double disk_space;    /* GB */
	double disk_usage;    /* GB, NAN or <0 when unknown */
	double disk_util;     /* disk_usage / disk_space (0-1) as the service gives it, NAN or
				 <0 when unknown */
	double cpu_util;      /* %, NAN when unknown */
	double mem_usage;     /* GB the container uses, NAN when unknown */
	double mem_limit;     /* GB it may use, NAN when unknown */
	double inet_up, inet_down;     /* Mbit/s */
	double dph_base, dph_total;    /* $/hour */
	double storage_cost;           /* $/GB/month */
	double storage_total_cost;     /* $/hour */
	bool is_bid;                   /* interruptible */
	double min_bid;                /* $/hour */
	double bid_price;              /* $/hour, NAN when not an interruptible */
	char *image;                   /* image_uuid */
	char *runtype;                 /* image_runtype */
	char *ssh_host;                /* proxy SSH host */
	int ssh_port;                  /* proxy SSH port (already +1 for jupyter runtypes) */
	char *public_ip;
	int direct_ssh_port;           /* ports["22/tcp"][0].HostPort, 0 when none */
	struct port_map *ports;
	size_t nports;
	char *jupyter_token;           /* a secret (sanitised): shown masked, never logged;
					  "" when none (NULL in a record built by hand) */
	int machine_dir_ssh_port;      /* the machine's rsync/ssh port for copies, 0 when none */
	double start_date, end_date;   /* epoch seconds, NAN when unknown */
	double uptime_mins;
	double reliability;            /* 0-1 */
	char *geolocation, *verification;
	long template_id;
	char *template_hash_id, *template_name;
	double credit_balance;         /* prepaid credit left on the instance, $, NAN if not sent */
	double credit_discount;        /* the prepay's discount on what that credit pays, 0-1, NAN */
	double ondemand;               /* $/hour: the machine's listed on-demand price for these
					  GPUs (search.gpuCostPerHour), NAN if not sent */
	struct kv *fields;             /* every field as received (sorted by key; env values masked) */
	size_t nfields;
	struct kv *env;                /* extra_env in order: key = name, value = the value in
					  clear (sanitised, not JSON); shown masked, one revealed
					  on request; never printed by --dump */
	size_t nenv;
};

/* One instance row shared between snapshots: the poller keeps its rows as
 * irows, and a snapshot points at their records (snapshot.instances), so an
 * unchanged row costs a pointer and a reference, not a copy, and two
 * snapshots show the same row at the same address.  The record is immutable
 * once made an irow. */
struct irow {
	atomic_int refs;
	struct instance x;
};
/* Takes over the contents of *x (which is zeroed); refs 1; gives the
 * record a new rev (any thread: the counter is atomic). */
struct irow *instance_row_new(struct instance *x);
/* Are two records the same in every field kept (strings, numbers, ports,
 * the received fields and env)?  rev is not compared.  Pure. */
bool instance_same(const struct instance *a, const struct instance *b);
struct irow *instance_row_ref(struct irow *r);
void instance_row_unref(struct irow *r);   /* NULL ok; frees at the last reference */

/* Pure helpers. */
enum inst_state instance_derive_state(const char *actual, const char *intended,
				   const char *cur, const char *next);
/* The display state of a mapped record: instance_derive_state of its statuses,
 * IS_OUTBID for an interruptible (is_bid) that is stopped or exited while
 * its status_msg says it was outbid (the service stops it, intended_status
 * "stopped", and keeps its disk: only the message tells it from a stop by
 * the user).  The one place an outbid is recognised. */
enum inst_state instance_state(const struct instance *x);
const char *instance_state_name(enum inst_state s);  /* "running", "stopped", "crashed", ... */
/* The one grouping of states that the header counts, the filter's
 * status=GROUP and the status column's colour all use: running; booting
 * (provisioning, loading, starting, rebooting); stopped (stopped,
 * stopping); failed (SPEC rule 1: crashed, failed start, unknown,
 * offline); other (frozen, other). */
enum inst_group { IG_RUNNING, IG_BOOTING, IG_STOPPED, IG_FAILED, IG_OUTBID, IG_OTHER, IG__COUNT };
enum inst_group instance_state_group(enum inst_state s);
const char *instance_group_name(enum inst_group g);  /* "running", "booting", ..., "failed", "outbid", "other" */
bool instance_state_failed(enum inst_state s);        /* instance_state_group() == IG_FAILED */
bool instance_state_billing_compute(enum inst_state s); /* GPU billed now */
/* Where to SSH: the direct address (public_ip, ports["22/tcp"]) when the
 * instance has one, else the service's proxy (ssh_host:ssh_port).  False when
 * neither is known yet.  Pure. */
bool instance_ssh_target(const struct instance *x, char *host, size_t n, int *port);
/* The address of one route (SSH_DIRECT: public_ip and ports["22/tcp"];
 * SSH_PROXY: ssh_host:ssh_port); false when x has none of that kind.  Pure. */
bool instance_ssh_route(const struct instance *x, enum ssh_route r, char *host, size_t n,
			int *port);
/* The route ssh takes under the configured preference: SSH_ASK only when
 * pref is SSH_ASK and both exist; a preferred route that is missing gives
 * way to the other.  False when x has no address at all.  Pure. */
bool instance_ssh_pick(const struct instance *x, enum ssh_route pref, enum ssh_route *out);

/* The money questions.  Which second question a typed bid ($/h) needs:
 * under min_bid (the instance will be outbid) or above the on-demand price
 * (it costs more than renting on demand); none where a price is unknown.
 * Pure. */
enum bid_ask { BID_ASK_NONE, BID_ASK_LOW, BID_ASK_HIGH };
enum bid_ask instance_bid_ask(const struct instance *x, double bid);
/* Was x outbid (its state is IS_OUTBID: an interruptible stopped because a
 * higher bid took its machine, as status_msg says)?  Its min_bid is then the
 * winning price.  Pure. */
bool instance_was_outbid(const struct instance *x);
/* Did x's container never start (a failed start: created with an error,
 * or exited with the Docker daemon's error before it ran)?  Pure. */
bool instance_never_started(const struct instance *x);
/* Does a prepay on x ask first (x in a failure state)?  Pure. */
bool instance_prepay_asks(const struct instance *x);

/* Freeing records (used by the model and by mappers on error paths). */
void instance_clear(struct instance *x);
void instance_free_all(struct instance *v, size_t n);
void instance_kv_free(struct kv *v, size_t n); /* a list made by json_map_fields() (one block) */

#endif
