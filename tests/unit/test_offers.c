/* test_offers.c: the offers view's rules below the UI: $/h with the storage
 * for the chosen disk and bid, DLPerf/$, the figures' text, the "similar
 * offers" search from an instance of every failure kind (and a running one)
 * as the query line and as the body it becomes, the create-form pre-fill
 * from an old instance, and the search pacing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow/offers.h"
#include "base/config.h"
#include "rules/query.h"

static struct offer mk_offer(void)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	o.id = 1;
	o.num_gpus = 2;
	o.gpu_name = (char *)"RTX 4090";
	o.dph_base = 0.70;
	o.storage_cost = 0.15; /* $/GB/month */
	o.dph_total = 0.70 + 0.15 * 5 / 720.0;
	o.min_bid = 0.30;
	o.dlperf = 140;
	o.reliability = 0.9923;
	o.credit_discount_max = NAN;
	return o;
}

static void test_figures(void **state)
{
	(void)state;
	struct offer o = mk_offer();
	assert_true(fabs(offers_storage_dph(&o, 720) - 0.15) < 1e-12);
	/* on-demand: dph_base + storage for the disk chosen */
	assert_true(fabs(offers_dph(&o, 100, 0) - (0.70 + 0.15 * 100 / 720.0)) < 1e-12);
	/* a bid: the bid + storage */
	assert_true(fabs(offers_dph(&o, 100, 0.4) - (0.40 + 0.15 * 100 / 720.0)) < 1e-12);
	/* a bid-priced offer (type bid) starts at min_bid */
	o.is_bid = true;
	assert_true(fabs(offers_dph(&o, 10, 0) - (0.30 + 0.15 * 10 / 720.0)) < 1e-12);
	o.is_bid = false;
	/* DLPerf per $/h at that price */
	assert_true(fabs(offers_dlperf_per_dph(&o, 0, 0) - 200.0) < 1e-9);
	/* without the parts: the service's own dph_total */
	o.storage_cost = NAN;
	assert_true(offers_dph(&o, 100, 0) == o.dph_total);
	assert_true(isnan(offers_storage_dph(&o, 100)));
	o.dph_total = NAN;
	o.dph_base = NAN;
	assert_true(isnan(offers_dph(&o, 100, 0)));
	assert_true(isnan(offers_dlperf_per_dph(&o, 100, 0)));

	char b[64];
	assert_string_equal(offers_fmt_dph(b, sizeof b, 0.4121), "$0.412/h");
	assert_string_equal(offers_fmt_dph(b, sizeof b, NAN), "-");
	o = mk_offer();
	assert_string_equal(offers_fmt_gpus(b, sizeof b, &o), "2x RTX 4090");
	assert_string_equal(offers_fmt_reliability(b, sizeof b, 0.9923), "99.2%");
	assert_string_equal(offers_fmt_reliability(b, sizeof b, NAN), "-");
	assert_string_equal(offers_fmt_dlperf_per_dph(b, sizeof b, 123.44), "123.4");
	assert_string_equal(offers_fmt_max_duration(b, sizeof b, 86400 * 12.5), "12.5 d");
	assert_string_equal(offers_fmt_max_duration(b, sizeof b, 6.5 * 3600), "6 h");
	assert_string_equal(offers_fmt_max_duration(b, sizeof b, 45 * 60 + 10), "45 min");
	assert_string_equal(offers_fmt_max_duration(b, sizeof b, 0), "-");
}

/* Bid offers in the service's order by its on-demand dph_total come back
 * out of order by the price the $/h column shows (min_bid + storage:
 * 0.138, 0.096, 0.216 ...); offers_sort_shown puts them in the column's
 * order, ties and unknown prices after in the service's order. */
static void test_sort_shown(void **state)
{
	(void)state;
	static const double min_bid[] = { 0.137, 0.095, 0.215, NAN, 0.095, 0.050 };
	static const double base[] = { 0.20, 0.25, 0.30, NAN, 0.40, 0.45 }; /* the service's order */
	enum { N = 6 };
	struct offer v[N];
	for (int i = 0; i < N; i++) {
		v[i] = mk_offer();
		v[i].id = 100 + i;
		v[i].is_bid = true;
		v[i].min_bid = min_bid[i];
		v[i].dph_base = base[i];
		v[i].storage_cost = 0.09; /* 8 GB: $0.001/h */
		v[i].dph_total = NAN;
		v[i].dlperf = 10;
	}
	struct offer w[N];
	memcpy(w, v, sizeof v);
	/* "-o dph+": cheapest shown price first */
	assert_true(offers_sort_shown(w, N, "dph_total", false, 8));
	static const long asc[N] = { 105, 101, 104, 100, 102, 103 };
	for (int i = 0; i < N; i++)
		assert_int_equal(w[i].id, asc[i]);
	for (int i = 1; i < N - 1; i++) /* never down, as the column shows it */
		assert_true(offers_dph(&w[i - 1], 8, 0) <= offers_dph(&w[i], 8, 0));
	/* "-o dph-": dearest first, the unknown price still last, ties in the service's order */
	memcpy(w, v, sizeof v);
	assert_true(offers_sort_shown(w, N, "dph_total", true, 8));
	static const long desc[N] = { 102, 100, 101, 104, 105, 103 };
	for (int i = 0; i < N; i++)
		assert_int_equal(w[i].id, desc[i]);
	/* DLP/$ (best first): the same prices, inverted */
	memcpy(w, v, sizeof v);
	assert_true(offers_sort_shown(w, N, "dlperf_per_dphtotal", true, 8));
	for (int i = 0; i < N; i++)
		assert_int_equal(w[i].id, asc[i]);
	/* a field the client does not price: the service's order stands */
	memcpy(w, v, sizeof v);
	assert_false(offers_sort_shown(w, N, "reliability", true, 8));
	assert_false(offers_sort_shown(w, N, NULL, false, 8));
	for (int i = 0; i < N; i++)
		assert_int_equal(w[i].id, v[i].id);
	/* on-demand offers: dph_base + storage, as shown */
	memcpy(w, v, sizeof v);
	for (int i = 0; i < N; i++)
		w[i].is_bid = false;
	assert_true(offers_sort_shown(w, N, "dph_total", true, 8));
	static const long od[N] = { 105, 104, 102, 101, 100, 103 };
	for (int i = 0; i < N; i++)
		assert_int_equal(w[i].id, od[i]);
}

static struct instance mk_inst(enum inst_state st)
{
	struct instance x;
	memset(&x, 0, sizeof x);
	x.id = 9108142;
	x.state = st;
	x.gpu_name = (char *)"RTX 4090";
	x.num_gpus = 2;
	x.gpu_ram = 24564;
	x.reliability = 0.9871;
	x.machine_id = 4123;
	x.disk_space = 40;
	return x;
}

/* The body the similar line becomes (through the same parser as the view). */
static json_t *similar_body(const struct offers_similar *s)
{
	struct query_cmd c;
	struct query_error err;
	if (!query_cmd_parse(s->line, &c, &err))
		fail_msg("'%s': %s", s->line, err.msg);
	json_t *b = query_cmd_body(&c, &err);
	query_cmd_free(&c);
	if (!b)
		fail_msg("'%s': %s", s->line, err.msg);
	return b;
}

static void test_similar_every_failure_kind(void **state)
{
	(void)state;
	static const struct {
		enum inst_state st;
		const char *words;
	} kinds[] = {
		{ IS_EXITED, "exited while meant to run" },
		{ IS_CREATED, "was created with an error" },
		{ IS_UNKNOWN, "is unknown to its host" },
		{ IS_OFFLINE, "is offline" },
		{ IS_RUNNING, NULL },
		{ IS_STOPPED, NULL },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		struct instance x = mk_inst(kinds[i].st);
		struct offers_similar s;
		assert_true(offers_similar(&x, &s));
		assert_string_equal(s.filters, "gpu_name=RTX_4090 num_gpus=2 gpu_ram>=24.564 "
					       "reliability>=0.987 machine_id!=4123");
		assert_string_equal(s.order, "dph_total+");
		assert_string_equal(s.type, "on-demand");
		assert_string_equal(s.line, "gpu_name=RTX_4090 num_gpus=2 gpu_ram>=24.564 "
					    "reliability>=0.987 machine_id!=4123 -o dph_total+");
		assert_true(s.disk == 40);
		if (kinds[i].words) {
			assert_non_null(strstr(s.why, kinds[i].words));
			assert_non_null(strstr(s.why, "instance 9108142 (2x RTX 4090)"));
		} else {
			assert_non_null(strstr(s.why, "offers like instance 9108142"));
		}
		json_t *b = similar_body(&s);
		json_t *want = json_loads(
			"{\"verified\":{\"eq\":true},\"external\":{\"eq\":false},\"rentable\":{\"eq\":true},"
			"\"rented\":{\"eq\":false},\"gpu_name\":{\"eq\":\"RTX 4090\"},"
			"\"num_gpus\":{\"eq\":\"2\"},\"reliability\":{\"gte\":\"0.987\"},"
			"\"machine_id\":{\"neq\":\"4123\"},\"order\":[[\"dph_total\",\"asc\"]],"
			"\"type\":\"on-demand\",\"allocated_storage\":5.0}", 0, NULL);
		/* gpu_ram: a number; never above the old instance's own (it must match itself) */
		double gr = json_number_value(json_object_get(json_object_get(b, "gpu_ram"), "gte"));
		assert_true(gr <= 24564 && gr > 24563);
		json_object_del(b, "gpu_ram");
		if (!json_equal(b, want))
			fail_msg("body %s", json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT));
		json_decref(b);
		json_decref(want);
	}
}

static void test_similar_edges(void **state)
{
	(void)state;
	struct offers_similar s;
	/* a machine below 0.95 asks for 0.95 */
	struct instance x = mk_inst(IS_EXITED);
	x.reliability = 0.80;
	assert_true(offers_similar(&x, &s));
	assert_non_null(strstr(s.filters, "reliability>=0.95 "));
	x.reliability = NAN;
	assert_true(offers_similar(&x, &s));
	assert_non_null(strstr(s.filters, "reliability>=0.95 "));
	/* a reliability with more digits is rounded down, never up */
	x.reliability = 0.99999;
	assert_true(offers_similar(&x, &s));
	assert_non_null(strstr(s.filters, "reliability>=0.999 "));
	x.reliability = 1.0;
	assert_true(offers_similar(&x, &s));
	assert_non_null(strstr(s.filters, "reliability>=1 "));
	/* whole GB and odd MB bounds hold */
	x.gpu_ram = 81920;
	assert_true(offers_similar(&x, &s));
	assert_non_null(strstr(s.filters, "gpu_ram>=81.92 "));
	for (double mb = 1000; mb < 200000; mb += 997.3) {
		x.gpu_ram = mb;
		assert_true(offers_similar(&x, &s));
		json_t *b = similar_body(&s);
		double gr = json_number_value(json_object_get(json_object_get(b, "gpu_ram"), "gte"));
		if (!(gr <= mb && gr > mb - 1.0001))
			fail_msg("gpu_ram %.3f gave a bound of %.6f", mb, gr);
		json_decref(b);
	}
	/* an interruptible one searches bid offers */
	x = mk_inst(IS_OFFLINE);
	x.is_bid = true;
	assert_true(offers_similar(&x, &s));
	assert_string_equal(s.type, "bid");
	assert_non_null(strstr(s.line, " -t bid"));
	json_t *b = similar_body(&s);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "bid");
	json_decref(b);
	/* no machine id: no exclusion; no GPU RAM: no bound */
	x = mk_inst(IS_UNKNOWN);
	x.machine_id = 0;
	x.gpu_ram = NAN;
	assert_true(offers_similar(&x, &s));
	assert_null(strstr(s.filters, "machine_id"));
	assert_null(strstr(s.filters, "gpu_ram"));
	/* a multi-word GPU name */
	x = mk_inst(IS_EXITED);
	x.gpu_name = (char *)"H100 SXM";
	assert_true(offers_similar(&x, &s));
	b = similar_body(&s);
	assert_string_equal(json_string_value(json_object_get(json_object_get(b, "gpu_name"), "eq")), "H100 SXM");
	json_decref(b);
	/* nothing to match */
	x.gpu_name = (char *)"";
	assert_false(offers_similar(&x, &s));
	x = mk_inst(IS_EXITED);
	x.num_gpus = 0;
	assert_false(offers_similar(&x, &s));
}

static void test_prefill(void **state)
{
	(void)state;
	size_t wl;
	char *script = malloc(9000);
	size_t o = 0;
	while (o < 8000)
		o += (size_t)sprintf(script + o, "pip install something-%zu\n", o);
	char *wire = api_create_onstart_encode(script, &wl);
	assert_non_null(wire);
	json_t *inst = json_pack(
		"{s:I,s:s,s:f,s:s,s:[[s,s],[s,s],[s,s],[s,s]],s:s,s:s,s:s}", "id", (json_int_t)5,
		"image_uuid", "pytorch/pytorch:latest", "disk_space", 40.0, "label", "train-7",
		"extra_env", "HF_TOKEN", "hf secret", "VAST_CONTAINERLABEL", "C.5", "CONTAINER_API_KEY",
		"k", "MODE", "fast", "onstart", wire, "image_runtype", "jupyter_direc ssh_direc ssh_proxy",
		"template_hash_id", "abc");
	struct offers_prefill p;
	offers_prefill_from_json(inst, &p);
	assert_string_equal(p.image, "pytorch/pytorch:latest");
	assert_true(p.disk == 40);
	assert_string_equal(p.label, "train-7");
	assert_string_equal(p.env, "-e \"HF_TOKEN=hf secret\" -e MODE=fast");
	assert_string_equal(p.onstart, script); /* decoded back */
	assert_true(p.launch_known);
	assert_int_equal(p.launch, LAUNCH_JUPYTER_DIRECT);
	assert_string_equal(p.template_hash_id, "abc");
	/* into the form: it validates and sends the same fields */
	struct create_form f;
	memset(&f, 0, sizeof f);
	offers_prefill_form(&p, &f);
	struct create_limits lim = { false, NAN, 100 };
	struct create_req r;
	struct create_errors e;
	assert_true(api_create_form_to_req(&f, &lim, 77, &r, &e));
	json_t *b = api_offers_create_body(&r);
	assert_string_equal(json_string_value(json_object_get(b, "image")), "pytorch/pytorch:latest");
	assert_string_equal(json_string_value(json_object_get(b, "label")), "train-7");
	assert_true(json_number_value(json_object_get(b, "disk")) == 40);
	assert_string_equal(json_string_value(json_object_get(b, "runtype")), "jupyter_direc ssh_direc ssh_proxy");
	assert_string_equal(json_string_value(json_object_get(json_object_get(b, "env"), "HF_TOKEN")), "hf secret");
	assert_null(json_object_get(json_object_get(b, "env"), "VAST_CONTAINERLABEL"));
	assert_string_equal(json_string_value(json_object_get(b, "onstart")), wire);
	json_decref(b);
	offers_prefill_free(&p);
	json_decref(inst);

	/* a provisioning row: nulls and nothing else */
	inst = json_pack("{s:I,s:n,s:n,s:n}", "id", (json_int_t)6, "label", "onstart", "image_runtype");
	offers_prefill_from_json(inst, &p);
	assert_string_equal(p.image, "");
	assert_string_equal(p.label, "");
	assert_string_equal(p.env, "");
	assert_string_equal(p.onstart, "");
	assert_false(p.launch_known);
	assert_int_equal(p.launch, LAUNCH_SSH);
	assert_true(p.disk == 0);
	offers_prefill_free(&p);
	json_decref(inst);
	/* a plain onstart stays as it is; args mode keeps args_str */
	inst = json_pack("{s:s,s:s,s:s}", "onstart", "echo hi", "image_runtype", "args", "args_str", "-c x");
	offers_prefill_from_json(inst, &p);
	assert_string_equal(p.onstart, "echo hi");
	assert_int_equal(p.launch, LAUNCH_ARGS);
	memset(&f, 0, sizeof f);
	offers_prefill_form(&p, &f);
	assert_string_equal(f.args_str, "-c x");
	offers_prefill_free(&p);
	json_decref(inst);
	free(wire);
	free(script);
}

/* Renting with a template (issue 23): its extra_filters as the offers
 * search, with its recommended disk; a template without either: "". */
static void test_template_search(void **state)
{
	(void)state;
	json_t *j = json_loads("{\"templates\": [{\"id\": 1, \"hash_id\": \"h1\", "
			       "\"recommended_disk_space\": 32, \"extra_filters\": "
			       "{\"cuda_max_good\": {\"gte\": 12}, \"gpu_name\": {\"eq\": \"RTX 4090\"}}}, "
			       "{\"id\": 2, \"hash_id\": \"h2\"}, "
			       "{\"id\": 3, \"hash_id\": \"h3\", \"extra_filters\": {\"num_gpus\": {\"gte\": 2}}}]}",
			       0, NULL);
	assert_non_null(j);
	struct template_rec *t = NULL;
	size_t n = 0;
	assert_true(json_map_templates(j, &t, &n));
	assert_int_equal(n, 3);
	char buf[300];
	offers_template_search(&t[0], buf, sizeof buf);
	assert_non_null(strstr(buf, "cuda_max_good>=12"));
	assert_non_null(strstr(buf, "gpu_name=RTX_4090"));
	assert_non_null(strstr(buf, " --storage 32"));
	/* the line parses as a search with those filters */
	struct query_cmd c;
	struct query_error qe;
	assert_true(query_cmd_parse(buf, &c, &qe));
	json_t *body = query_cmd_body(&c, &qe);
	assert_non_null(body);
	assert_non_null(json_object_get(json_object_get(body, "cuda_max_good"), "gte"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(body, "gpu_name"), "eq")),
			    "RTX 4090");
	assert_int_equal((int)json_real_value(json_object_get(body, "allocated_storage")), 32);
	json_decref(body);
	query_cmd_free(&c);
	assert_string_equal(offers_template_search(&t[1], buf, sizeof buf), "");
	assert_string_equal(offers_template_search(&t[2], buf, sizeof buf), "num_gpus>=2");
	/* a copy carries it */
	struct template_rec *d = offers_template_dup(&t[0]);
	assert_string_equal(d->search, t[0].search);
	assert_ptr_not_equal(d->search, t[0].search);
	json_map_templates_free(d, 1);
	json_map_templates_free(t, n);
	json_decref(j);
}

static void test_templates(void **state)
{
	(void)state;
	json_t *own = json_loads(
		"{\"templates\":[{\"id\":1,\"hash_id\":\"h1\",\"name\":\"My trainer\",\"image\":\"me/train\","
		"\"tag\":\"v2\",\"runtype\":\"ssh\",\"ssh_direct\":true,\"env\":\"-e A=1 -p 8080:8080\","
		"\"onstart\":\"line1\\nline2\",\"recommended_disk_space\":40,\"docker_login_repo\":\"ghcr.io\","
		"\"docker_login_user\":\"bob\",\"docker_login_pass\":\"pa55\",\"creator_id\":7},"
		"{\"id\":2,\"hash_id\":\"h2\",\"name\":\"Shared\",\"image\":\"x/y\",\"runtype\":\"args\","
		"\"args_str\":\"-c go\",\"recommended\":true}]}", 0, NULL);
	json_t *rec = json_loads(
		"{\"templates\":[{\"id\":2,\"hash_id\":\"h2\",\"name\":\"Shared\",\"image\":\"x/y\","
		"\"recommended\":true},{\"id\":3,\"hash_id\":\"h3\",\"name\":\"PyTorch\","
		"\"image\":\"pytorch/pytorch\",\"runtype\":\"jupyter\",\"jup_direct\":true,"
		"\"ssh_direct\":true,\"recommended\":true}]}", 0, NULL);
	struct template_rec *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	assert_true(json_map_templates(own, &a, &na));
	assert_true(json_map_templates(rec, &b, &nb));
	assert_int_equal(na, 2);
	assert_int_equal(nb, 2);
	/* the password is never decoded; scripts keep their newlines */
	assert_string_equal(a[0].onstart, "line1\nline2");
	assert_string_equal(a[0].docker_login_user, "bob");
	offers_templates_merge(&a, &na, b, nb);
	assert_int_equal(na, 3); /* h2 once */
	assert_string_equal(a[2].hash_id, "h3");
	/* the picker's text search */
	assert_true(offers_template_matches(&a[0], ""));
	assert_true(offers_template_matches(&a[0], "TRAINER"));
	assert_true(offers_template_matches(&a[0], "me/train:v2"));
	assert_true(offers_template_matches(&a[2], "pytorch"));
	assert_true(offers_template_matches(&a[2], "h3"));
	assert_false(offers_template_matches(&a[2], "trainer"));
	/* picked into the form: its values, and it validates */
	struct create_form f;
	memset(&f, 0, sizeof f);
	offers_template_form(&a[0], &f);
	assert_string_equal(f.template_hash_id, "h1");
	assert_true(f.disk == 40);
	assert_int_equal(f.launch, LAUNCH_SSH_DIRECT);
	assert_true(f.launch_from_template);
	assert_string_equal(f.env, "-e A=1 -p 8080:8080");
	struct create_limits lim = { false, NAN, 100 };
	struct create_errors e;
	assert_true(api_create_validate(&f, &lim, &e));
	memset(&f, 0, sizeof f);
	offers_template_form(&a[1], &f);
	assert_int_equal(f.launch, LAUNCH_ARGS);
	assert_string_equal(f.args_str, "-c go");
	assert_true(f.disk == CREATE_DISK_DEFAULT);
	memset(&f, 0, sizeof f);
	offers_template_form(&a[2], &f);
	assert_int_equal(f.launch, LAUNCH_JUPYTER_DIRECT);
	/* for the edit form: an unchanged edit sends nothing but the hash */
	struct template_req r;
	offers_template_req(&a[0], &r);
	assert_null(r.login_pass);
	assert_int_equal(r.launch, LAUNCH_SSH_DIRECT);
	struct config c;
	memset(&c, 0, sizeof c);
	c.base_url = (char *)"http://h";
	int changed = -1;
	struct api_call call = api_template_edit(&c, a[0].hash_id, &r, &r, &changed);
	assert_int_equal(changed, 0);
	api_call_free(&call);
	json_map_templates_free(a, na);
	json_decref(own);
	json_decref(rec);
}

static void test_pacing(void **state)
{
	(void)state;
	struct pace p;
	char msg[160];
	offers_pace_init(&p, 1000.0);
	/* a burst goes at once, then one every 6 s (10 a minute) */
	for (int i = 0; i < (int)OFFERS_PACE_BURST; i++) {
		assert_true(offers_pace_ready(&p, 1000.0, msg, sizeof msg));
		assert_string_equal(msg, "");
		assert_true(pace_take(&p, 1000.0));
	}
	assert_false(offers_pace_ready(&p, 1000.0, msg, sizeof msg));
	assert_string_equal(msg, "next search in 6 s");
	assert_false(offers_pace_ready(&p, 1002.5, msg, sizeof msg));
	assert_string_equal(msg, "next search in 4 s");
	assert_true(offers_pace_ready(&p, 1006.0, msg, sizeof msg));
	assert_true(pace_take(&p, 1006.0));
	/* a 429: at least the 6 s interval, doubling */
	double w = offers_pace_refused(&p, 1010.0, 0, msg, sizeof msg);
	assert_true(w >= 6.0 && w < 6.01);
	assert_string_equal(msg, "offer search refused by the service (429): next search in 6 s");
	assert_false(offers_pace_ready(&p, 1015.0, msg, sizeof msg));
	double w2 = offers_pace_refused(&p, 1016.0, 0, msg, sizeof msg);
	assert_true(w2 >= 12.0 && w2 < 12.01);
	pace_answered(&p);
	/* never more than 10 in any minute when taken as fast as allowed */
	offers_pace_init(&p, 0);
	int sent = 0;
	for (double t = 0; t < 60.0; t += 0.05)
		if (offers_pace_ready(&p, t, msg, sizeof msg) && pace_take(&p, t))
			sent++;
	assert_true(sent <= (int)OFFERS_PACE_BURST + 10);
	assert_true(sent >= 10);
}

/* issue 21: a lost create is matched to the instance it made: a newer id,
 * its label and image; none, or several, match nothing. */
static void test_lost_create_match(void **state)
{
	(void)state;
	struct create_req r;
	memset(&r, 0, sizeof r);
	strcpy(r.label, "train-7");
	strcpy(r.image, "pytorch/pytorch");
	struct instance v[4];
	for (int i = 0; i < 4; i++) {
		memset(&v[i], 0, sizeof v[i]);
		v[i].label = (char *)"train-7";
		v[i].image = (char *)"pytorch/pytorch";
	}
	v[0].id = 100; /* older than the create: listed before it */
	v[1].id = 205;
	v[1].image = (char *)"nginx:latest"; /* another image */
	v[2].id = 210;
	v[3].id = 220;
	v[3].label = (char *)"train-8"; /* another label */
	long id = -1;
	assert_int_equal(offers_lost_create_match(&r, 200, v, 4, &id), 1);
	assert_int_equal(id, 210);
	/* before anything was listed: the older one fits too, so nothing is named */
	assert_int_equal(offers_lost_create_match(&r, 0, v, 4, &id), 2);
	assert_int_equal(id, 0);
	assert_int_equal(offers_lost_create_match(&r, 210, v, 4, &id), 0);
	assert_int_equal(id, 0);
	/* no label sent: an unlabelled newer instance of the image */
	r.label[0] = '\0';
	v[2].label = (char *)"";
	assert_int_equal(offers_lost_create_match(&r, 200, v, 4, &id), 1);
	assert_int_equal(id, 210);
	/* no image named (a template's): the label alone */
	strcpy(r.label, "train-8");
	r.image[0] = '\0';
	assert_int_equal(offers_lost_create_match(&r, 200, v, 4, &id), 1);
	assert_int_equal(id, 220);
}

/* issue 21: O reads the failure: an image the registry refused is the
 * image's (fixed, not moved), anything else the machine's; an empty search
 * for offers like it names the filters to relax, the old machine's
 * reliability floor first. */
static void test_replace_reads_failure(void **state)
{
	(void)state;
	struct instance x = mk_inst(IS_CREATED);
	static const char *const image[] = {
		"Error response from daemon: pull access denied for private/trainer, repository does "
		"not exist or may require 'docker login'",
		"Error response from daemon: Head \"https://ghcr.io/v2/x/y/manifests/1\": unauthorized",
		"Error response from daemon: manifest unknown: manifest unknown",
		"Error response from daemon: Get https://r.example/v2/: no basic auth credentials",
	};
	for (size_t i = 0; i < sizeof image / sizeof *image; i++) {
		x.status_msg = (char *)image[i];
		assert_int_equal(offers_read_failure(&x), OFAIL_IMAGE);
	}
	x.status_msg = (char *)"Error response from daemon: failed to create task for container: "
			       "OCI runtime create failed: nvidia-container-cli: device error";
	assert_int_equal(offers_read_failure(&x), OFAIL_MACHINE);
	x.state = IS_EXITED;
	x.status_msg = (char *)"Error: container exited with code 1";
	assert_int_equal(offers_read_failure(&x), OFAIL_MACHINE);
	x.state = IS_RUNNING; /* not failed: nothing to read */
	x.status_msg = (char *)"pull access denied";
	assert_int_equal(offers_read_failure(&x), OFAIL_NONE);

	/* the question's answers: fix, template or same image, recycle (issue 23) */
	assert_int_equal(offers_fix_answer(0, true), OFIX_FIX_IMAGE);
	assert_int_equal(offers_fix_answer(0, false), OFIX_FIX_IMAGE);
	assert_int_equal(offers_fix_answer(1, true), OFIX_TEMPLATE);
	assert_int_equal(offers_fix_answer(1, false), OFIX_SAME_IMAGE);
	assert_int_equal(offers_fix_answer(2, true), OFIX_RECYCLE);
	assert_int_equal(offers_fix_answer(2, false), OFIX_RECYCLE);

	struct offers_similar sim;
	char out[700];
	x = mk_inst(IS_CREATED);
	assert_true(offers_similar(&x, &sim));
	offers_similar_relax(&sim, out, sizeof out);
	assert_non_null(strstr(out, "relax reliability>=0.987 (the old machine's), then gpu_ram>="));
	assert_non_null(strstr(out, ", then num_gpus=2, then gpu_name=RTX_4090"));
	x.reliability = 0.5; /* the default floor is not the old machine's */
	assert_true(offers_similar(&x, &sim));
	offers_similar_relax(&sim, out, sizeof out);
	assert_non_null(strstr(out, "relax reliability>=0.95, then"));
	assert_null(strstr(out, "old machine"));
}

/* Replace (O) carries the failed instance's volume link: a local volume
 * only to an offer on its machine, a network one only in its region;
 * otherwise the sentence says it stays behind. */
static void test_replace_carries_volume(void **state)
{
	(void)state;
	json_error_t je;
	json_t *inst = json_loads("{\"id\":7,\"machine_id\":12,\"geolocation\":\"Texas, US\","
				  "\"volume_info\":[{\"id\":5,\"name\":\"data_main\",\"mount_path\":\"/data\","
				  "\"type\":\"local_volume\"},{\"id\":6,\"mount_path\":\"/x\"}]}", 0, &je);
	assert_non_null(inst);
	struct offers_prefill p;
	offers_prefill_from_json(inst, &p);
	json_decref(inst);
	assert_int_equal(p.machine_id, 12);
	assert_string_equal(p.geolocation, "Texas, US");
	assert_int_equal(p.vol.id, 5);
	assert_false(p.vol.network);
	assert_string_equal(p.vol.mount, "/data");
	assert_int_equal(p.nvols, 2);
	struct offer o;
	memset(&o, 0, sizeof o);
	o.id = 900;
	o.machine_id = 34;
	o.geolocation = (char *)"Texas, US";
	char b[400];
	assert_false(offers_prefill_vol_carried(&p, &o, b, sizeof b));
	assert_string_equal(b, "Local volume 5 (data_main at /data) stays on machine 12: the new instance "
			       "(machine 34) starts without it. (1 more volume not carried.)");
	o.machine_id = 12;
	assert_true(offers_prefill_vol_carried(&p, &o, b, sizeof b));
	assert_non_null(strstr(b, "Local volume 5 (data_main at /data) is linked to the new instance."));
	/* a network volume: its region, whatever the machine */
	p.vol.network = true;
	p.nvols = 1;
	o.machine_id = 34;
	assert_true(offers_prefill_vol_carried(&p, &o, b, sizeof b));
	o.geolocation = (char *)"Quebec, CA";
	assert_false(offers_prefill_vol_carried(&p, &o, b, sizeof b));
	assert_string_equal(b, "Network volume 5 (data_main at /data) stays in Texas, US (offer 900 is in "
			       "Quebec, CA): the new instance starts without it.");
	offers_prefill_free(&p);
	/* no volume_info (null, the seed's), or one object */
	inst = json_loads("{\"volume_info\":null}", 0, &je);
	offers_prefill_from_json(inst, &p);
	json_decref(inst);
	assert_int_equal(p.vol.id, 0);
	assert_true(offers_prefill_vol_carried(&p, &o, b, sizeof b));
	assert_string_equal(b, "");
	offers_prefill_free(&p);
	inst = json_loads("{\"volume_info\":{\"id\":8,\"type\":\"network_volume\",\"mount_path\":\"/n\"}}", 0, &je);
	offers_prefill_from_json(inst, &p);
	json_decref(inst);
	assert_int_equal(p.vol.id, 8);
	assert_true(p.vol.network);
	offers_prefill_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_sort_shown),
		cmocka_unit_test(test_similar_every_failure_kind),
		cmocka_unit_test(test_similar_edges),
		cmocka_unit_test(test_prefill),
		cmocka_unit_test(test_templates),
		cmocka_unit_test(test_template_search),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_lost_create_match),
		cmocka_unit_test(test_replace_reads_failure),
		cmocka_unit_test(test_replace_carries_volume),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
