/* test_api_table.c: tests/sim/API.md, the table of every endpoint rentop
 * uses, asked of the simulator in both dialects.  The table is read from
 * $SRCDIR/tests/sim/API.md; every row needs a probe below (a concrete
 * request and the status each dialect answers it with) and every probe a
 * row, so the two cannot drift apart.  A "yes" row must answer its probe
 * with the probe's status and carry the response fields the row lists; a
 * "no" row must get the dialect's route-miss 404 (default: the JSON
 * not_found "no such endpoint"; live: the HTML page). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ct.h"

struct probe {
	const char *method;
	const char *row;       /* the path as API.md writes it */
	const char *path;      /* concrete, with {placeholders} (see fill) */
	const char *body;      /* NULL: none */
	const char *body_live; /* NULL: body */
	long status;           /* the default dialect's answer when served */
	long status_live;      /* live's answer when served (0: as status) */
	bool fields;           /* check the row's response fields */
};

/* {key}: the full key; {inst}: a running on-demand instance; {bid}: a
 * running interruptible one; {machine}: {inst}'s machine; {offer}: a
 * rentable offer; {ep}, {ep_name}: the first endpoint; {wg}: the first
 * workergroup; {ro_key_id}: the read-only key's id; {ssh}: the first SSH
 * key; {tpl_hash}, {tpl_id}: a template of the user's; {result}: the path
 * of a request_logs result_url, ready; {vol}: a local volume no instance
 * uses; {vol_offer}: the roomiest volume offer; {nvol_offer}: a network
 * volume offer. */
static const struct probe probes[] = {
	{ "GET", "/api/v1/instances/", "/api/v1/instances/?limit=5", NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/instances/", "/api/v0/instances/", NULL, NULL, 410, 0, true },
	{ "GET", "/api/v0/instances/{id}/?owner=me", "/api/v0/instances/{inst}/?owner=me", NULL, NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/{id}/", "/api/v0/instances/{inst}/", "{\"label\":\"probe\"}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/", "/api/v0/instances/", "{\"state\":\"stopped\",\"ids\":[{inst}]}", NULL, 200, 0,
	  true },
	{ "DELETE", "/api/v0/instances/{id}/", "/api/v0/instances/{inst}/", "{}", NULL, 200, 0, true },
	{ "DELETE", "/api/v0/instances/", "/api/v0/instances/", "{\"instance_ids\":[{inst}]}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/reboot/{id}/", "/api/v0/instances/reboot/{inst}/", "{}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/bid_price/{id}/", "/api/v0/instances/bid_price/{bid}/",
	  "{\"client_id\":\"me\",\"price\":2.5}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/prepay/{id}/", "/api/v0/instances/prepay/{inst}/", "{\"amount\":10}", NULL, 200, 0,
	  true },
	{ "PUT", "/api/v0/instances/request_logs/{id}/", "/api/v0/instances/request_logs/{inst}/",
	  "{\"tail\":\"100\"}", NULL, 200, 0, true },
	{ "GET", "{result_url}", "{result}", NULL, NULL, 200, 0, true },
	{ "PUT", "/api/v0/asks/{id}/", "/api/v0/asks/{offer}/", "{\"image\":\"vastai/base-image:latest\",\"disk\":8}",
	  NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/recycle/{id}/", "/api/v0/instances/recycle/{inst}/", "{}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/update_template/{id}/", "/api/v0/instances/update_template/{inst}/",
	  "{\"id\":{inst},\"template_hash_id\":\"{tpl_hash}\"}", NULL, 200, 0, true },
	{ "POST", "/api/v0/instances/take_snapshot/{id}/", "/api/v0/instances/take_snapshot/{inst}/",
	  "{\"id\":\"{inst}\",\"container_registry\":\"docker.io\",\"personal_repo\":\"me/snap\","
	  "\"docker_login_user\":\"me\",\"docker_login_pass\":\"probe-pass\",\"pause\":\"true\"}",
	  NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/command/{id}/", "/api/v0/instances/command/{inst}/",
	  "{\"command\":\"ls -l /workspace\"}", NULL, 200, 0, true },
	{ "GET", "/api/v0/instances/{id}/ssh/", "/api/v0/instances/{inst}/ssh/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/instances/{id}/ssh/", "/api/v0/instances/{inst}/ssh/",
	  "{\"ssh_key\":\"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIprobe probe\"}", NULL, 200, 0, true },
	{ "DELETE", "/api/v0/instances/{id}/ssh/{key_id}/", "/api/v0/instances/{inst}/ssh/{ssh}/", NULL, NULL, 200, 0,
	  true },
	{ "PUT", "/api/v0/commands/copy_direct/", "/api/v0/commands/copy_direct/",
	  "{\"client_id\":\"me\",\"src_id\":\"C.{bid}\",\"dst_id\":{inst},\"src_path\":\"/workspace/\","
	  "\"dst_path\":\"/workspace/\"}",
	  NULL, 200, 0, true },
	{ "DELETE", "/api/v0/commands/copy_direct/", "/api/v0/commands/copy_direct/",
	  "{\"client_id\":\"me\",\"dst_id\":\"{inst}\"}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/commands/rsync/", "/api/v0/commands/rsync/",
	  "{\"client_id\":\"me\",\"src_id\":null,\"dst_id\":\"C.{inst}\",\"src_path\":\"data/\","
	  "\"dst_path\":\"/workspace/\"}",
	  NULL, 200, 0, true },
	{ "GET", "/api/v0/volumes/", "/api/v0/volumes/?owner=me&type=all_volume", NULL, NULL, 200, 0, true },
	{ "PUT", "/api/v0/volumes/", "/api/v0/volumes/", "{\"id\":{vol_offer},\"size\":20,\"name\":\"probe\"}", NULL,
	  200, 0, true },
	{ "POST", "/api/v0/volumes/copy/", "/api/v0/volumes/copy/", "{\"src_id\":{vol},\"dst_id\":{vol_offer}}", NULL,
	  200, 0, true },
	{ "DELETE", "/api/v0/volumes/", "/api/v0/volumes/?id={vol}", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/volumes/search/", "/api/v0/volumes/search/",
	  "{\"verified\":{\"eq\":true},\"order\":[[\"score\",\"desc\"]],\"limit\":3,\"allocated_storage\":1.0}",
	  NULL, 200, 0, true },
	{ "PUT", "/api/v0/network_volumes/", "/api/v0/network_volumes/", "{\"id\":{nvol_offer},\"size\":20}", NULL,
	  200, 0, true },
	{ "POST", "/api/v0/network_volumes/search/", "/api/v0/network_volumes/search/",
	  "{\"verified\":{\"eq\":true},\"limit\":2,\"allocated_storage\":1.0}", NULL, 200, 0, true },
	{ "POST", "/api/v0/bundles/", "/api/v0/bundles/", "{\"rentable\":{\"eq\":true},\"limit\":3}", NULL, 200, 0,
	  true },
	{ "GET", "/api/v0/gpu_names/unique/", "/api/v0/gpu_names/unique/", NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/template/?select_filters=", "/api/v0/template/?select_filters=%7B%7D", NULL, NULL, 200, 0,
	  true },
	{ "POST", "/api/v0/template/", "/api/v0/template/",
	  "{\"name\":\"probe\",\"image\":\"vastai/base-image\",\"docker_login_repo\":\"\",\"docker_login_user\":\"\","
	  "\"docker_login_pass\":\"\"}",
	  "{\"name\":\"probe\",\"image\":\"vastai/base-image\"}", 200, 0, true },
	{ "PUT", "/api/v0/template/", "/api/v0/template/", "{\"hash_id\":\"{tpl_hash}\",\"desc\":\"probe\"}", NULL, 200,
	  0, true },
	{ "DELETE", "/api/v0/template/", "/api/v0/template/", "{\"template_id\":{tpl_id}}", NULL, 200, 0, true },
	{ "GET", "/api/v0/users/current/", "/api/v0/users/current/", NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/secrets/", "/api/v0/secrets/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/secrets/", "/api/v0/secrets/", "{\"key\":\"PROBE\",\"value\":\"v\"}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/secrets/", "/api/v0/secrets/", "{\"key\":\"HF_TOKEN\",\"value\":\"v\"}", NULL, 200, 0, true },
	{ "DELETE", "/api/v0/secrets/", "/api/v0/secrets/", "{\"key\":\"HF_TOKEN\"}", NULL, 200, 0, true },
	{ "GET", "/api/v0/auth/apikeys/", "/api/v0/auth/apikeys/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/auth/apikeys/", "/api/v0/auth/apikeys/",
	  "{\"name\":\"probe\",\"permissions\":{\"api\":{\"misc\":{}}}}", NULL, 200, 0, true },
	{ "GET", "/api/v0/auth/apikeys/{id}/", "/api/v0/auth/apikeys/{ro_key_id}/", NULL, NULL, 200, 0, true },
	{ "DELETE", "/api/v0/auth/apikeys/{id}/", "/api/v0/auth/apikeys/{ro_key_id}/", "{}", NULL, 200, 0, true },
	{ "GET", "/api/v0/ssh/", "/api/v0/ssh/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/ssh/", "/api/v0/ssh/", "{\"ssh_key\":\"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIprobe probe\"}",
	  NULL, 200, 0, true },
	{ "DELETE", "/api/v0/ssh/{id}/", "/api/v0/ssh/{ssh}/", "{}", NULL, 200, 0, true },
	{ "GET", "/api/v0/team/roles-full/", "/api/v0/team/roles-full/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/team/roles/", "/api/v0/team/roles/",
	  "{\"name\":\"probe\",\"permissions\":{\"api\":{\"misc\":{}}}}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/team/roles/{id}/", "/api/v0/team/roles/member/",
	  "{\"permissions\":{\"api\":{\"misc\":{}}}}", NULL, 200, 0, true },
	{ "DELETE", "/api/v0/team/roles/{id}/", "/api/v0/team/roles/member/", "{}", NULL, 200, 0, true },
	{ "GET", "/api/v0/machines/{id}/reports/", "/api/v0/machines/{machine}/reports/", NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/tfa/status/", "/api/v0/tfa/status/", NULL, NULL, 200, 0, true },
	/* 2FA is off: each of these reaches its handler and is refused for
	 * what it lacks */
	{ "POST", "/api/v0/tfa/", "/api/v0/tfa/", "{\"tfa_method\":\"totp\",\"code\":\"000000\"}", NULL, 400, 0, false },
	{ "DELETE", "/api/v0/tfa/", "/api/v0/tfa/", "{\"tfa_method\":\"totp\",\"code\":\"000000\"}", NULL, 400, 0,
	  false },
	{ "POST", "/api/v0/tfa/email/", "/api/v0/tfa/email/", "{}", NULL, 200, 0, true },
	{ "POST", "/api/v0/tfa/sms/", "/api/v0/tfa/sms/", "{\"phone_number\":\"+15555550123\"}", NULL, 200, 0, false },
	{ "POST", "/api/v0/tfa/sms/resend/", "/api/v0/tfa/sms/resend/", "{\"phone_number\":\"+15555550123\"}", NULL,
	  200, 0, true },
	{ "POST", "/api/v0/tfa/totp-setup/", "/api/v0/tfa/totp-setup/", "{}", NULL, 200, 0, true },
	{ "POST", "/api/v0/tfa/authorize-new-method/", "/api/v0/tfa/authorize-new-method/", "{}", NULL, 200, 0,
	  false },
	{ "PUT", "/api/v0/tfa/authorize-new-method/", "/api/v0/tfa/authorize-new-method/",
	  "{\"code\":\"000000\",\"secret\":\"nope\"}", NULL, 400, 0, false },
	{ "POST", "/api/v0/tfa/confirm-new/", "/api/v0/tfa/confirm-new/",
	  "{\"tfa_method\":\"totp\",\"code\":\"000000\",\"secret\":\"JBSWY3DPEHPK3PXP\"}", NULL, 403, 0, false },
	{ "PUT", "/api/v0/tfa/update/", "/api/v0/tfa/update/", "{\"tfa_method_id\":1,\"label\":\"x\"}", NULL, 404, 0,
	  false },
	{ "PUT", "/api/v0/tfa/regen-backup-codes/", "/api/v0/tfa/regen-backup-codes/",
	  "{\"tfa_method\":\"totp\",\"code\":\"000000\"}", NULL, 400, 0, false },
	{ "GET", "/api/v0/endptjobs/", "/api/v0/endptjobs/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/endptjobs/", "/api/v0/endptjobs/", "{\"endpoint_name\":\"probe\",\"max_workers\":3}", NULL,
	  200, 0, true },
	{ "PUT", "/api/v0/endptjobs/{id}/", "/api/v0/endptjobs/{ep}/", "{\"max_workers\":7,\"endpoint_name\":null}",
	  NULL, 200, 0, true },
	{ "DELETE", "/api/v0/endptjobs/{id}/", "/api/v0/endptjobs/{ep}/", "{}", NULL, 200, 0, true },
	{ "GET", "/api/v0/workergroups/", "/api/v0/workergroups/", NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/autojobs/", "/api/v0/autojobs/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/workergroups/", "/api/v0/workergroups/",
	  "{\"endpoint_id\":{ep},\"template_hash\":\"{tpl_hash}\",\"search_params\":\"gpu_name=RTX_4090\"}", NULL, 200,
	  0, true },
	{ "PUT", "/api/v0/workergroups/{id}/", "/api/v0/workergroups/{wg}/", "{\"min_load\":5,\"launch_args\":null}",
	  NULL, 200, 0, true },
	{ "DELETE", "/api/v0/workergroups/{id}/", "/api/v0/workergroups/{wg}/", "{}", NULL, 200, 0, true },
	{ "POST", "{run_url}/get_endpoint_logs", "/get_endpoint_logs", "{\"endpoint\":\"{ep_name}\",\"tail\":5}", NULL,
	  200, 0, true },
	{ "POST", "{run_url}/get_endpoint_logs/", "/get_endpoint_logs/",
	  "{\"id\":{ep},\"api_key\":\"{key}\",\"tail\":5}", NULL, 200, 0, true },
	{ "POST", "{run_url}/get_endpoint_workers/", "/get_endpoint_workers/", "{\"id\":{ep}}", NULL, 200, 0, true },
	{ "POST", "{run_url}/get_workergroup_logs/", "/get_workergroup_logs/",
	  "{\"id\":{wg},\"api_key\":\"{key}\",\"tail\":5}", NULL, 200, 0, true },
	{ "POST", "{run_url}/get_autogroup_logs/", "/get_autogroup_logs/",
	  "{\"id\":{wg},\"api_key\":\"{key}\",\"tail\":5}", NULL, 200, 0, true },
	{ "POST", "{run_url}/update_workers/", "/update_workers/", "{\"workergroup_id\":{wg},\"api_key\":\"{key}\"}",
	  NULL, 200, 0, true },
	{ "GET", "/api/v0/team/members/", "/api/v0/team/members/", NULL, NULL, 200, 0, true },
	{ "POST", "/api/v0/team/invite/", "/api/v0/team/invite/?email=zed%40example.com&role=member", NULL, NULL, 200,
	  0, true },
	{ "PUT", "/api/v0/team/members/{id}/roles/", "/api/v0/team/members/148301/roles/", "{\"role\":\"manager\"}",
	  NULL, 200, 0, true },
	{ "DELETE", "/api/v0/team/members/{id}/", "/api/v0/team/members/148301/", NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/audit_logs/", "/api/v0/audit_logs/", NULL, NULL, 200, 0, true },
	{ "PUT", "/api/v0/commands/transfer_credit/", "/api/v0/commands/transfer_credit/",
	  "{\"sender\":\"me\",\"recipient\":\"carol@example.com\",\"amount\":1}", NULL, 200, 0, true },
	{ "GET", "/api/v0/charges/?select_filters=",
	  "/api/v0/charges/?select_filters=%7B%22day%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%7D&limit=5",
	  NULL, NULL, 200, 0, true },
	{ "GET", "/api/v1/invoices/?select_filters=",
	  "/api/v1/invoices/?select_filters=%7B%22when%22%3A%7B%22gte%22%3A0%2C%22lte%22%3A9999999999%7D%7D&limit=5",
	  NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/users/me/invoices", "/api/v0/users/me/invoices?owner=me&sdate=0&edate=9999999999&inc_charges=true",
	  NULL, NULL, 200, 0, true },
	{ "GET", "/api/v0/instances/pending-price-increases/", "/api/v0/instances/pending-price-increases/", NULL, NULL,
	  200, 0, true },
	{ "PUT", "/api/v0/instances/accept-price-increase/", "/api/v0/instances/accept-price-increase/",
	  "{\"pending_price_increase_id\":5500}", NULL, 200, 0, true },
	{ "PUT", "/api/v0/instances/reject-price-increase/", "/api/v0/instances/reject-price-increase/",
	  "{\"pending_price_increase_id\":5500}", NULL, 200, 0, true },
};
#define NPROBES (sizeof probes / sizeof *probes)

struct row {
	char method[16];
	char path[200];
	char fields[1024];
	bool served[2]; /* [0] default, [1] live */
	bool seen;      /* a probe named it */
};

static struct row rows[128];
static size_t nrows;

/* The i-th '|' cell of a table line, trimmed (into out). */
static bool cell(const char *line, int i, char *out, size_t n)
{
	const char *p = line;
	for (int k = 0; k <= i; k++) {
		p = strchr(p, '|');
		if (!p)
			return false;
		p++;
	}
	const char *e = strchr(p, '|');
	if (!e)
		return false;
	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	snprintf(out, n, "%.*s", (int)(e - p), p);
	return true;
}

static void read_table(void)
{
	const char *src = getenv("SRCDIR");
	char fn[1024];
	snprintf(fn, sizeof fn, "%s/tests/sim/API.md", src && *src ? src : ".");
	FILE *f = fopen(fn, "r");
	if (!f)
		fail_msg("cannot read %s", fn);
	char line[4096];
	nrows = 0;
	while (fgets(line, sizeof line, f)) {
		char m[16], path[200], dflt[16], live[16];
		if (!cell(line, 0, m, sizeof m) ||
		    (strcmp(m, "GET") && strcmp(m, "POST") && strcmp(m, "PUT") && strcmp(m, "DELETE")))
			continue;
		if (nrows == sizeof rows / sizeof *rows)
			fail_msg("API.md has more rows than the test holds");
		struct row *r = &rows[nrows++];
		memset(r, 0, sizeof *r);
		snprintf(r->method, sizeof r->method, "%s", m);
		if (!cell(line, 1, path, sizeof path) || path[0] != '`')
			fail_msg("API.md: a row's path is not in backticks: %s", line);
		snprintf(r->path, sizeof r->path, "%.*s", (int)strlen(path) - 2, path + 1);
		if (!cell(line, 3, r->fields, sizeof r->fields) || !cell(line, 5, dflt, sizeof dflt) ||
		    !cell(line, 6, live, sizeof live))
			fail_msg("API.md: a row lacks a cell: %s", line);
		if ((strcmp(dflt, "yes") && strcmp(dflt, "no")) || (strcmp(live, "yes") && strcmp(live, "no")))
			fail_msg("API.md: the dialect cells are yes or no: %s", line);
		r->served[0] = !strcmp(dflt, "yes");
		r->served[1] = !strcmp(live, "yes");
	}
	fclose(f);
	if (nrows < 40)
		fail_msg("API.md: only %zu rows read", nrows);
}

static struct row *row_of(const struct probe *p)
{
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].method, p->method) && !strcmp(rows[i].path, p->row))
			return &rows[i];
	return NULL;
}

/* ---- placeholders -------------------------------------------------------- */

struct ids {
	char key[128], inst[32], bid[32], machine[32], offer[32], ep[32], ep_name[64], wg[32], ro_key_id[32],
		ssh[32], tpl_hash[96], tpl_id[32], vol[32], vol_offer[32], nvol_offer[32];
};

static void setnum(char *out, size_t n, const json_t *v)
{
	if (!json_is_integer(v))
		fail_msg("expected an integer id");
	snprintf(out, n, "%lld", (long long)json_integer_value(v));
}

static void find_ids(struct ids *d)
{
	memset(d, 0, sizeof *d);
	snprintf(d->key, sizeof d->key, "%s", ct_sim->full_key);
	json_t *j = ct_expect("GET", "/api/v1/instances/?limit=25", NULL, 200);
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(j, "instances"), i, o) {
		const char *a = ct_str(o, "actual_status");
		if (!a || strcmp(a, "running"))
			continue;
		bool bid = json_is_true(json_object_get(o, "is_bid"));
		if (bid && !d->bid[0])
			setnum(d->bid, sizeof d->bid, json_object_get(o, "id"));
		if (!bid && !d->inst[0]) {
			setnum(d->inst, sizeof d->inst, json_object_get(o, "id"));
			setnum(d->machine, sizeof d->machine, json_object_get(o, "machine_id"));
		}
	}
	json_decref(j);
	j = ct_expect("POST", "/api/v0/bundles/", "{\"rentable\":{\"eq\":true},\"limit\":1}", 200);
	setnum(d->offer, sizeof d->offer, json_object_get(json_array_get(json_object_get(j, "offers"), 0), "id"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/endptjobs/", NULL, 200);
	o = json_array_get(json_object_get(j, "results"), 0);
	setnum(d->ep, sizeof d->ep, json_object_get(o, "id"));
	snprintf(d->ep_name, sizeof d->ep_name, "%s", ct_str(o, "endpoint_name"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/workergroups/", NULL, 200);
	setnum(d->wg, sizeof d->wg, json_object_get(json_array_get(json_object_get(j, "results"), 0), "id"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/auth/apikeys/", NULL, 200);
	json_array_foreach(json_object_get(j, "apikeys"), i, o)
		if (json_is_object(json_object_get(o, "rights")))
			setnum(d->ro_key_id, sizeof d->ro_key_id, json_object_get(o, "id"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/ssh/", NULL, 200);
	setnum(d->ssh, sizeof d->ssh, json_object_get(json_array_get(j, 0), "id"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/template/?select_filters=%7B%22creator_id%22%3A%7B%22eq%22%3A148213%7D%7D", NULL,
		      200);
	o = json_array_get(json_object_get(j, "templates"), 0);
	snprintf(d->tpl_hash, sizeof d->tpl_hash, "%s", ct_str(o, "hash_id") ? ct_str(o, "hash_id") : "");
	setnum(d->tpl_id, sizeof d->tpl_id, json_object_get(o, "id"));
	json_decref(j);
	j = ct_expect("GET", "/api/v0/volumes/?owner=me&type=local_volume", NULL, 200);
	json_array_foreach(json_object_get(j, "volumes"), i, o)
		if (!json_array_size(json_object_get(o, "instances")) && !d->vol[0])
			setnum(d->vol, sizeof d->vol, json_object_get(o, "id"));
	json_decref(j);
	/* the roomiest offer: a clone of the unused volume fits */
	j = ct_expect("POST", "/api/v0/volumes/search/", "{\"order\":[[\"disk_space\",\"desc\"]],\"limit\":1}", 200);
	setnum(d->vol_offer, sizeof d->vol_offer, json_object_get(json_array_get(json_object_get(j, "offers"), 0), "id"));
	json_decref(j);
	j = ct_expect("POST", "/api/v0/network_volumes/search/", "{\"limit\":1}", 200);
	setnum(d->nvol_offer, sizeof d->nvol_offer, json_object_get(json_array_get(json_object_get(j, "offers"), 0), "id"));
	json_decref(j);
	if (!d->inst[0] || !d->bid[0] || !d->ssh[0] || !d->ro_key_id[0] || !d->tpl_hash[0] || !d->vol[0])
		fail_msg("the seeded world lacks an id the probes need");
}

/* A request_logs result_url's path, once served. */
static void result_path(const struct ids *d, char *out, size_t n)
{
	char p[96];
	snprintf(p, sizeof p, "/api/v0/instances/request_logs/%s/", d->inst);
	json_t *j = ct_expect("PUT", p, "{\"tail\":\"50\"}", 200);
	const char *u = ct_str(j, "result_url");
	const char *path = u ? strstr(u, "/instance_logs/") : NULL;
	if (!path)
		fail_msg("request_logs gave no result_url");
	snprintf(out, n, "%s", path);
	json_decref(j);
	ct_advance(10);
}

/* t with every {name} replaced (malloc'd). */
static char *fill(const char *t, const struct ids *d)
{
	static const struct {
		const char *name;
		size_t off;
	} names[] = {
		{ "{key}", offsetof(struct ids, key) },         { "{inst}", offsetof(struct ids, inst) },
		{ "{bid}", offsetof(struct ids, bid) },         { "{machine}", offsetof(struct ids, machine) },
		{ "{offer}", offsetof(struct ids, offer) },     { "{ep}", offsetof(struct ids, ep) },
		{ "{ep_name}", offsetof(struct ids, ep_name) }, { "{wg}", offsetof(struct ids, wg) },
		{ "{ro_key_id}", offsetof(struct ids, ro_key_id) }, { "{ssh}", offsetof(struct ids, ssh) },
		{ "{tpl_hash}", offsetof(struct ids, tpl_hash) }, { "{tpl_id}", offsetof(struct ids, tpl_id) },
		{ "{vol}", offsetof(struct ids, vol) }, { "{vol_offer}", offsetof(struct ids, vol_offer) },
		{ "{nvol_offer}", offsetof(struct ids, nvol_offer) },
	};
	size_t cap = strlen(t) * 4 + 256, len = 0;
	char *out = malloc(cap);
	if (!out)
		fail_msg("out of memory");
	while (*t) {
		bool done = false;
		for (size_t i = 0; i < sizeof names / sizeof *names && !done; i++) {
			size_t nl = strlen(names[i].name);
			if (strncmp(t, names[i].name, nl))
				continue;
			const char *v = (const char *)d + names[i].off;
			if (len + strlen(v) + 1 > cap)
				fail_msg("probe text too long");
			memcpy(out + len, v, strlen(v));
			len += strlen(v);
			t += nl;
			done = true;
		}
		if (!done) {
			if (len + 2 > cap)
				fail_msg("probe text too long");
			out[len++] = *t++;
		}
	}
	out[len] = '\0';
	return out;
}

/* ---- response fields ------------------------------------------------------ */

/* Does v carry the field path f ("a", "a.b", "a[].b", "[].b")? */
static bool has_path(const json_t *v, const char *f)
{
	if (!*f)
		return v != NULL;
	if (!strncmp(f, "[].", 3) || !strcmp(f, "[]")) {
		if (!json_is_array(v))
			return false;
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
			if (!has_path(e, f[2] == '.' ? f + 3 : f + 2))
				return false;
		return true;
	}
	size_t n = strcspn(f, ".[");
	char key[64];
	snprintf(key, sizeof key, "%.*s", (int)n, f);
	const json_t *c = json_object_get(v, key);
	if (!c)
		return false;
	const char *rest = f + n;
	if (*rest == '.')
		rest++;
	return has_path(c, rest);
}

/* Check every backticked token outside parentheses of the row's fields. */
static void check_fields(const struct row *r, const struct http_result *res, const char *dialect)
{
	int depth = 0;
	for (const char *p = r->fields; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '`') {
			const char *e = strchr(p + 1, '`');
			if (!e)
				fail_msg("API.md: unbalanced backtick in %s %s", r->method, r->path);
			char tok[128];
			snprintf(tok, sizeof tok, "%.*s", (int)(e - p - 1), p + 1);
			p = e;
			if (depth)
				continue;
			bool ok;
			if (!strcmp(tok, "(string)"))
				ok = json_is_string(res->json);
			else if (!strcmp(tok, "(text)"))
				ok = res->len > 0 && !res->json;
			else
				ok = res->json && has_path(res->json, tok);
			if (!ok)
				fail_msg("%s: %s %s: response field %s missing: %.400s", dialect, r->method, r->path, tok,
					 res->body);
		}
	}
}

/* ---- the walk -------------------------------------------------------------- */

static int start_default(void **state)
{
	(void)state;
	const char *args[] = { "--clock", "manual", "--rate-limits", "off", "--dialect", "spec", NULL };
	return ct_start(args);
}

static int start_live(void **state)
{
	(void)state;
	const char *args[] = { "--clock", "manual", "--rate-limits", "off", "--dialect", "live", NULL };
	return ct_start(args);
}

static void walk(bool live)
{
	const char *dialect = live ? "live" : "default";
	read_table();
	struct ids d;
	for (size_t i = 0; i < NPROBES; i++) {
		const struct probe *p = &probes[i];
		struct row *r = row_of(p);
		if (!r) {
			fail_msg("probe %s %s has no row in API.md", p->method, p->row);
			return;
		}
		r->seen = true;
		ct_reset(NULL);
		find_ids(&d); /* after the reset: a template's hash_id moves with the clock */
		char rp[256];
		const char *tpath = p->path;
		if (!strcmp(p->path, "{result}")) {
			result_path(&d, rp, sizeof rp);
			tpath = rp;
		}
		char *path = fill(tpath, &d);
		const char *tb = live && p->body_live ? p->body_live : p->body;
		char *body = tb ? fill(tb, &d) : NULL;
		struct http_result res = http_call(ct_sim, p->method, path, ct_sim->full_key, body);
		if (r->served[live]) {
			long want = live && p->status_live ? p->status_live : p->status;
			if (res.status != want)
				fail_msg("%s: %s %s: expected %ld, got %ld: %.400s", dialect, p->method, path, want,
					 res.status, res.body);
			if (p->fields)
				check_fields(r, &res, dialect);
		} else {
			bool miss = res.status == 404 &&
				    (live ? strstr(res.content_type, "text/html") != NULL
					  : res.json && strstr(ct_str(res.json, "msg") ? ct_str(res.json, "msg") : "",
							      "no such endpoint"));
			if (!miss)
				fail_msg("%s: %s %s is marked not served, but got %ld: %.300s", dialect, p->method, path,
					 res.status, res.body);
		}
		http_result_free(&res);
		free(path);
		free(body);
	}
	for (size_t i = 0; i < nrows; i++)
		if (!rows[i].seen)
			fail_msg("API.md row %s %s has no probe in test_api_table.c", rows[i].method, rows[i].path);
}

static void test_table_default(void **state)
{
	(void)state;
	walk(false);
}

static void test_table_live(void **state)
{
	(void)state;
	walk(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table_default, start_default, ct_stop),
		cmocka_unit_test_setup_teardown(test_table_live, start_live, ct_stop),
	};
	return cmocka_run_group_tests_name("contract_api_table", tests, NULL, NULL);
}
