/* ratelimit.c: token buckets, one per (endpoint class, caller).  A bucket
 * refills at the published threshold, read as requests per second, and holds
 * a small burst: the rate rounded up, plus one (so a 1.0/s endpoint takes two
 * requests back to back, then one per second); the instance list holds four,
 * so a client that pages a 100-instance list back to back, as the official
 * CLI does, gets its four pages, while a sustained 2 requests/s is refused
 * from the fifth second on.  Offer search is about ten
 * per minute: a bucket of ten refilled at one per six seconds. */
#include "ratelimit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct bucket {
	enum rl_class cls;
	char *caller;
	double tokens;
	double last;     /* s, monotonic */
};

struct rl {
	struct bucket *b;
	size_t n, cap;
	long allowed[RL_NCLASSES];
	long refused[RL_NCLASSES];
};

static const struct {
	const char *name;
	double rate;     /* requests per second */
	double burst;    /* bucket size */
	const char *text;
} classes[RL_NCLASSES] = {
	[RL_LIST] = { "instances_list", 1.0, 4, "1.0" },
	[RL_SHOW] = { "instance_show", 2.0, 3, "2.0" },
	[RL_STATE] = { "instance_state", 1.0, 2, "1.0" },
	[RL_DESTROY] = { "instance_destroy", 3.0, 4, "3.0" },
	[RL_CREATE] = { "instance_create", 4.5, 6, "4.5" },
	[RL_BID] = { "bid_price", 5.5, 7, "5.5" },
	[RL_PREPAY] = { "prepay", 2.0, 3, "2.0" },
	[RL_TEMPLATE] = { "template_search", 3.0, 4, "3.0" },
	[RL_WORKERGROUPS] = { "workergroups", 2.0, 3, "2.0" },
	[RL_SECRETS_GET] = { "secrets_get", 5.0, 6, "5.0" },
	[RL_SECRETS_SET] = { "secrets_set", 3.0, 4, "3.0" },
	[RL_APIKEYS] = { "apikeys_get", 1.0, 2, "1.0" },
	[RL_REPORTS] = { "machine_reports", 1.2, 3, "1.2" },
	[RL_SEARCH] = { "offer_search", 10.0 / 60.0, 10, "0.17" },
	[RL_TEAM_MEMBER] = { "team_member_remove", 3.0, 4, "3.0" },
	[RL_TRANSFER] = { "transfer_credit", 2.5, 4, "2.5" },
	[RL_EXECUTE] = { "instance_command", 1.5, 3, "1.5" },
	[RL_COPY] = { "copy", 3.5, 5, "3.5" },
	[RL_SSH_INST] = { "instance_ssh", 2.0, 3, "2.0" },
	[RL_VOLUMES] = { "volumes", 5.5, 7, "5.5" },
};

struct rl *rl_new(void)
{
	struct rl *r = calloc(1, sizeof *r);
	if (!r)
		abort();
	return r;
}

void rl_reset(struct rl *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->b[i].caller);
	r->n = 0;
	memset(r->allowed, 0, sizeof r->allowed);
	memset(r->refused, 0, sizeof r->refused);
}

void rl_free(struct rl *r)
{
	if (!r)
		return;
	rl_reset(r);
	free(r->b);
	free(r);
}

bool rl_take(struct rl *r, enum rl_class cls, const char *caller, double now)
{
	if (cls <= RL_NONE || cls >= RL_NCLASSES)
		return true;
	struct bucket *b = NULL;
	for (size_t i = 0; i < r->n; i++)
		if (r->b[i].cls == cls && !strcmp(r->b[i].caller, caller)) {
			b = &r->b[i];
			break;
		}
	if (!b) {
		if (r->n == r->cap) {
			r->cap = r->cap ? r->cap * 2 : 16;
			r->b = realloc(r->b, r->cap * sizeof *r->b);
			if (!r->b)
				abort();
		}
		b = &r->b[r->n++];
		b->cls = cls;
		b->caller = strdup(caller);
		b->tokens = classes[cls].burst;
		b->last = now;
	}
	b->tokens = fmin(classes[cls].burst, b->tokens + (now - b->last) * classes[cls].rate);
	b->last = now;
	if (b->tokens >= 1.0) {
		b->tokens -= 1.0;
		r->allowed[cls]++;
		return true;
	}
	r->refused[cls]++;
	return false;
}

const char *rl_threshold(enum rl_class cls)
{
	return cls > RL_NONE && cls < RL_NCLASSES ? classes[cls].text : "1.0";
}

json_t *rl_debug(const struct rl *r)
{
	json_t *o = json_object();
	for (int c = 0; c < RL_NCLASSES; c++)
		json_object_set_new(o, classes[c].name,
				    json_pack("{s:f,s:f,s:I,s:I}", "rate_per_s", classes[c].rate, "burst",
					      classes[c].burst, "allowed", (json_int_t)r->allowed[c], "refused",
					      (json_int_t)r->refused[c]));
	return o;
}
