/* test_ui_create.c: the create form's pure parts (create_form.c): the
 * fields built for an on-demand and a bid offer (bid prefilled with the
 * minimum bid, disk 8 by default), the prefill from an old instance, the
 * form read into the create request (runtype as the CLI sends it, env,
 * disk, price; a long onstart compressed, one too long even compressed
 * refused with the reason; invalid fields marked with the focus on the
 * first), a picked template (what it supplies is not sent again, a changed
 * launch mode is); the billing confirmation text (offers.c); the template
 * list's search and summary line (pane_templates.c); and the form's create
 * job on an app with a real model and jobs queue: its result comes back by
 * its request id (another's is left alone), a refusal or a cancelled 2FA
 * prompt ends the wait with the form kept, a success closes it with the
 * new instance's id. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "keymap.h"
#include "poll/jobs.h"
#include "state/model.h"
#include "views/offers/create_form.h"
#include "widgets/form.h"
#include "flow/offers.h"
#include "views/templates/pane_templates.h"

static struct offer mk_offer(bool bid)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	o.id = 7110585;
	o.num_gpus = 1;
	o.gpu_name = (char *)"RTX 3060";
	o.dph_base = 0.060;
	o.storage_cost = 0.36; /* $/GB/month: 20 GB = $0.01/h */
	o.dph_total = 0.064;
	o.min_bid = 0.3;
	o.disk_space = 750;
	o.rentable = true;
	o.is_bid = bid;
	o.credit_discount_max = NAN;
	return o;
}

/* Type text into field name (replacing what is there). */
static void set(struct form *fm, const char *name, const char *text)
{
	assert_true(form_set(fm, name, text));
}

static void test_build(void **s)
{
	(void)s;
	struct offer o = mk_offer(false);
	struct form fm;
	create_form_build(&fm, &o, NULL);
	assert_string_equal(form_value(&fm, "disk"), "8");
	assert_string_equal(form_value(&fm, "launch"), "ssh");
	assert_int_equal(form_find(&fm, "price"), -1); /* on-demand: no bid */
	assert_true(form_find(&fm, "onstart") >= 0);
	assert_int_equal(fm.f[form_find(&fm, "env")].kind, FK_SECRET);
	assert_int_equal(fm.f[form_find(&fm, "login")].kind, FK_SECRET);
	assert_int_equal(fm.focus, form_find(&fm, "image"));
	form_free(&fm);

	o = mk_offer(true);
	create_form_build(&fm, &o, NULL);
	assert_true(form_find(&fm, "price") >= 0);
	assert_string_equal(form_value(&fm, "price"), "0.3"); /* the minimum bid */
	assert_non_null(strstr(fm.title, "interruptible"));
	form_free(&fm);
}

static void test_prefill(void **s)
{
	(void)s;
	json_t *inst = json_loads(
		"{\"image_uuid\":\"vllm/vllm-openai:v0.5.3\",\"disk_space\":32,\"label\":\"old\","
		"\"image_runtype\":\"jupyter_direc ssh_direc ssh_proxy\",\"onstart\":\"echo hi\","
		"\"extra_env\":[[\"HF_TOKEN\",\"hf_x\"],[\"VAST_CONTAINERLABEL\",\"C.1\"]]}", 0, NULL);
	assert_non_null(inst);
	struct offers_prefill p;
	offers_prefill_from_json(inst, &p);
	struct offer o = mk_offer(false);
	struct form fm;
	create_form_build(&fm, &o, &p);
	assert_string_equal(form_value(&fm, "image"), "vllm/vllm-openai:v0.5.3");
	assert_string_equal(form_value(&fm, "disk"), "32");
	assert_string_equal(form_value(&fm, "label"), "old");
	assert_string_equal(form_value(&fm, "launch"), "jupyter direct");
	assert_string_equal(form_value(&fm, "onstart"), "echo hi");
	assert_non_null(strstr(form_value(&fm, "env"), "HF_TOKEN=hf_x"));
	assert_null(strstr(form_value(&fm, "env"), "VAST_")); /* the service's own */
	struct create_req *r = calloc(1, sizeof *r);
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_string_equal(r->runtype, "jupyter_direc ssh_direc ssh_proxy");
	assert_true(fabs(r->disk - 32) < 1e-9);
	form_free(&fm);
	offers_prefill_free(&p);
	json_decref(inst);
	free(r);
}

static void test_read(void **s)
{
	(void)s;
	struct offer o = mk_offer(false);
	struct form fm;
	struct create_req *r = calloc(1, sizeof *r);
	create_form_build(&fm, &o, NULL);
	set(&fm, "image", "nginx:latest");
	set(&fm, "disk", "20");
	set(&fm, "label", "web");
	set(&fm, "env", "-e A=1 -p 8080:8080");
	fm.f[form_find(&fm, "launch")].choice = LAUNCH_SSH_DIRECT;
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_int_equal(r->offer_id, 7110585);
	assert_string_equal(r->image, "nginx:latest");
	assert_string_equal(r->label, "web");
	assert_string_equal(r->runtype, "ssh_direc ssh_proxy");
	assert_string_equal(r->env, "-e A=1 -p 8080:8080");
	assert_true(fabs(r->disk - 20) < 1e-9);
	assert_true(r->price == 0);
	assert_false(r->start_stopped);

	/* an onstart over 4,048 characters that compresses is sent encoded */
	char *big = malloc(12000);
	size_t k = 0;
	for (int i = 0; k < 11000; i++)
		k += (size_t)snprintf(big + k, 12000 - k, "echo line %d of the setup\n", i);
	set(&fm, "onstart", big);
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_true(strlen(r->onstart) <= CREATE_ONSTART_MAX);
	assert_non_null(strstr(r->onstart, "base64 -d | gunzip"));
	char *back = api_create_onstart_decode(r->onstart);
	assert_non_null(back);
	free(back);
	/* one that does not compress enough is refused, with the reason */
	unsigned x = 12345;
	for (size_t i = 0; i < 11000; i++) {
		x = x * 1103515245u + 12345u;
		big[i] = (char)('!' + (x >> 16) % 90);
	}
	big[11000] = '\0';
	set(&fm, "onstart", big);
	assert_false(create_form_read(&fm, &o, NULL, r));
	int os = form_find(&fm, "onstart");
	assert_non_null(strstr(fm.f[os].error, "over the service's 4048"));
	assert_int_equal(fm.focus, os);
	set(&fm, "onstart", "");
	free(big);

	/* invalid fields are marked, the first gets the focus */
	set(&fm, "image", "Not An Image");
	set(&fm, "disk", "900"); /* over the offer's 750 GB */
	assert_false(create_form_read(&fm, &o, NULL, r));
	int im = form_find(&fm, "image"), dk = form_find(&fm, "disk");
	assert_true(fm.f[im].error[0] != '\0');
	assert_true(fm.f[dk].error[0] != '\0');
	assert_int_equal(fm.focus, im);
	form_free(&fm);

	/* a bid offer: the price is sent, out of range refused */
	o = mk_offer(true);
	create_form_build(&fm, &o, NULL);
	set(&fm, "image", "nginx");
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_true(fabs(r->price - 0.3) < 1e-9);
	set(&fm, "price", "40"); /* the docs' create range is 0.001-128 (create_instance.yaml) */
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_true(fabs(r->price - 40) < 1e-9);
	set(&fm, "price", "128.5");
	assert_false(create_form_read(&fm, &o, NULL, r));
	assert_true(fm.f[form_find(&fm, "price")].error[0] != '\0');
	form_free(&fm);
	free(r);
}

static void test_template(void **s)
{
	(void)s;
	json_t *j = json_loads(
		"{\"templates\":[{\"id\":3,\"hash_id\":\"h3\",\"name\":\"PyTorch\","
		"\"image\":\"pytorch/pytorch\",\"tag\":\"2.3\",\"runtype\":\"jupyter\","
		"\"jup_direct\":true,\"ssh_direct\":true,\"recommended\":true,"
		"\"recommended_disk_space\":40,\"env\":\"-e JUPYTER_DIR=/ -p 8888:8888\","
		"\"onstart\":\"pip install x\",\"creator_id\":9}]}", 0, NULL);
	struct template_rec *t = NULL;
	size_t n = 0;
	assert_true(json_map_templates(j, &t, &n));
	struct offer o = mk_offer(false);
	struct form fm;
	struct create_tpl ct;
	memset(&ct, 0, sizeof ct);
	struct create_req *r = calloc(1, sizeof *r);
	create_form_build(&fm, &o, NULL);
	create_form_apply_template(&fm, &t[0], &ct);
	/* the form shows what the template supplies */
	assert_string_equal(form_value(&fm, "template"), "h3");
	assert_string_equal(form_value(&fm, "image"), "pytorch/pytorch:2.3");
	assert_string_equal(form_value(&fm, "disk"), "40");
	assert_string_equal(form_value(&fm, "launch"), "jupyter direct");
	assert_string_equal(form_value(&fm, "env"), "-e JUPYTER_DIR=/ -p 8888:8888");
	assert_string_equal(form_value(&fm, "onstart"), "pip install x");
	/* unchanged: the template's values apply, not sent again */
	assert_true(create_form_read(&fm, &o, &ct, r));
	assert_string_equal(r->template_hash_id, "h3");
	assert_string_equal(r->image, "");
	assert_string_equal(r->runtype, "");
	assert_string_equal(r->env, "");
	assert_string_equal(r->onstart, "");
	assert_true(fabs(r->disk - 40) < 1e-9);
	/* changed: sent */
	fm.f[form_find(&fm, "launch")].choice = LAUNCH_SSH;
	set(&fm, "image", "pytorch/pytorch:2.4");
	assert_true(create_form_read(&fm, &o, &ct, r));
	assert_string_equal(r->runtype, "ssh_proxy");
	assert_string_equal(r->image, "pytorch/pytorch:2.4");

	/* the list's search and summary */
	struct tpl_list l;
	memset(&l, 0, sizeof l);
	l.v = t;
	l.n = n;
	size_t idx[4];
	assert_int_equal(pane_templates_list_match(&l, "", idx, 4), 1);
	assert_int_equal(pane_templates_list_match(&l, "torch:2.3", idx, 4), 1);
	assert_int_equal(pane_templates_list_match(&l, "nomatch", idx, 4), 0);
	char line[300];
	pane_templates_list_summary(&t[0], 5, line, sizeof line);
	assert_non_null(strstr(line, "PyTorch"));
	assert_non_null(strstr(line, "pytorch/pytorch:2.3"));
	assert_non_null(strstr(line, "recommended"));
	pane_templates_list_summary(&t[0], 9, line, sizeof line);
	assert_non_null(strstr(line, "own"));

	form_free(&fm);
	create_form_tpl_clear(&ct);
	json_map_templates_free(t, n);
	json_decref(j);
	free(r);
}

static void test_confirm_text(void **s)
{
	(void)s;
	struct offer o = mk_offer(false);
	struct create_req *r = calloc(1, sizeof *r);
	r->offer_id = o.id;
	r->disk = 20;
	snprintf(r->env, sizeof r->env, "-e HF_TOKEN=hf_secret_value");
	snprintf(r->image_login, sizeof r->image_login, "-u bob -p tok_secret ghcr.io");
	char b[512];
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_non_null(strstr(b, "Rent offer 7110585 (1x RTX 3060) for $0.070/h"));
	assert_non_null(strstr(b, "$0.060/h GPU + $0.010/h storage of 20 GB"));
	assert_non_null(strstr(b, "Billing starts when it is created"));
	assert_null(strstr(b, "Interruptible"));
	assert_null(strstr(b, "SSH key"));
	assert_null(strstr(b, "secret"));
	/* a bid: its price and the risk */
	o = mk_offer(true);
	r->price = 0.35;
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_non_null(strstr(b, "for $0.360/h"));
	assert_non_null(strstr(b, "Interruptible: your bid is $0.350/h"));
	assert_null(strstr(b, "WARNING"));
	/* a bid under the offer's min_bid: warned, named */
	r->price = 0.1;
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_non_null(strstr(b, "WARNING: your bid $0.100/h is under the offer's min_bid $0.300/h"));
	assert_non_null(strstr(b, "outbid and stopped at once"));
	r->price = 0.35;
	/* stopped; no SSH key: how to add one */
	r->start_stopped = true;
	offers_confirm_text(&o, r, true, b, sizeof b);
	assert_non_null(strstr(b, "created stopped"));
	assert_non_null(strstr(b, "no SSH key"));
	assert_non_null(strstr(b, "account view, 5"));
	/* a small buffer is cut, terminated */
	char small[40];
	offers_confirm_text(&o, r, true, small, sizeof small);
	assert_int_equal(strlen(small), sizeof small - 1);
	/* launch modes and ssh */
	assert_true(offers_launch_uses_ssh(LAUNCH_SSH));
	assert_true(offers_launch_uses_ssh(LAUNCH_JUPYTER_DIRECT));
	assert_false(offers_launch_uses_ssh(LAUNCH_ARGS));
	free(r);
}

/* A bid under min_bid is warned in the form's note (not as an error: it
 * may be sent); at or above it the note says so, as information. */
static void test_bid_note(void **s)
{
	(void)s;
	struct offer o = mk_offer(true);
	struct form fm;
	create_form_build(&fm, &o, NULL);
	create_form_bid_note(&fm, &o);
	assert_non_null(strstr(fm.note, "at or above min_bid"));
	assert_false(fm.note_warn);
	set(&fm, "price", "0.1");
	create_form_bid_note(&fm, &o);
	assert_non_null(strstr(fm.note, "under min_bid"));
	assert_true(fm.note_warn);
	assert_true(form_validate(&fm) || fm.f[form_find(&fm, "image")].error[0]);
	assert_string_equal(fm.f[form_find(&fm, "price")].error, ""); /* not an error */
	form_free(&fm);
	/* a min_bid finer than the 3 decimals shown: the prefill rounds up, never under */
	o.min_bid = 0.0254;
	create_form_build(&fm, &o, NULL);
	assert_string_equal(form_value(&fm, "price"), "0.026");
	create_form_bid_note(&fm, &o);
	assert_false(fm.note_warn);
	form_free(&fm);
	/* on-demand: no bid, no note */
	o = mk_offer(false);
	create_form_build(&fm, &o, NULL);
	create_form_bid_note(&fm, &o);
	assert_string_equal(fm.note, "");
	form_free(&fm);
}

/* The draft of a discarded form: every value kept by name, applied to a
 * new form of another offer; the secrets (env, registry login) only when
 * asked; the fingerprint tells a filled form from one as it opened. */
static void test_draft(void **s)
{
	(void)s;
	struct offer o = mk_offer(true);
	struct form fm;
	create_form_build(&fm, &o, NULL);
	uint64_t opened = create_form_print(&fm);
	assert_true(create_form_print(&fm) == opened);
	set(&fm, "image", "nginx:latest");
	assert_true(create_form_print(&fm) != opened);
	set(&fm, "label", "draft-label");
	set(&fm, "env", "-e TOKEN=s3cret");
	set(&fm, "onstart", "echo hi");
	set(&fm, "price", "0.4");
	fm.f[form_find(&fm, "stopped")].on = true;
	fm.f[form_find(&fm, "launch")].choice = 2;
	struct create_draft d;
	memset(&d, 0, sizeof d);
	struct create_tpl t;
	memset(&t, 0, sizeof t);
	create_form_draft_save(&d, &fm, &t, o.id);
	form_free(&fm);
	assert_true(d.have);
	assert_true(d.secrets);
	assert_int_equal(d.offer_id, 7110585);

	/* an on-demand offer: no price field; no secrets unless asked */
	struct offer o2 = mk_offer(false);
	o2.id = 42;
	create_form_build(&fm, &o2, NULL);
	create_form_draft_apply(&d, &fm, &t, false);
	assert_string_equal(form_value(&fm, "image"), "nginx:latest");
	assert_string_equal(form_value(&fm, "label"), "draft-label");
	assert_string_equal(form_value(&fm, "onstart"), "echo hi");
	assert_string_equal(form_value(&fm, "env"), "");
	assert_true(form_toggle(&fm, "stopped"));
	assert_int_equal(form_choice(&fm, "launch"), 2);
	assert_int_equal(form_find(&fm, "price"), -1);
	create_form_draft_apply(&d, &fm, &t, true);
	assert_string_equal(form_value(&fm, "env"), "-e TOKEN=s3cret");
	form_free(&fm);
	/* a bid offer takes the bid back */
	create_form_build(&fm, &o, NULL);
	create_form_draft_apply(&d, &fm, &t, false);
	assert_string_equal(form_value(&fm, "price"), "0.4");
	form_free(&fm);
	create_form_draft_clear(&d);
	assert_false(d.have);
	assert_int_equal(d.n, 0);
	create_form_tpl_clear(&t);
}

/* C-s on the form, then Rent on the billing confirmation: the create job
 * queued (taken as the poller would); its id. */
static int rent(struct app *a, struct create_ui *c)
{
	assert_true(create_form_ui_key(a, c, KM_CTRL('s')));
	assert_true(create_form_ui_key(a, c, '\t')); /* the confirmation starts on Cancel */
	assert_true(create_form_ui_key(a, c, '\n'));
	struct job_req r;
	int id = 0;
	assert_int_equal(jobs_queued(a->jobs), 1);
	assert_true(jobs_take(a->jobs, &r, &id));
	assert_int_equal(r.kind, JOB_CREATE);
	assert_true(r.reply); /* its end comes back by its id */
	assert_string_equal(r.create.image, "nginx");
	jobs_finish(a->jobs, id);
	explicit_bzero(&r, sizeof r);
	return id;
}

/* The poller's end of job id: outcome, msg, a create's new instance (0: none). */
static void put(struct model *m, int id, enum call_outcome out, const char *msg, long made)
{
	struct call_result r;
	memset(&r, 0, sizeof r);
	r.req_id = id;
	r.outcome = out;
	snprintf(r.err.msg, sizeof r.err.msg, "%s", msg);
	if (made) {
		long *v = malloc(sizeof *v);
		*v = made;
		r.value = v;
	}
	model_put_result(m, &r);
}

static void test_result_by_id(void **s)
{
	(void)s;
	struct app a;
	memset(&a, 0, sizeof a);
	a.m = model_new();
	a.jobs = jobs_new(a.m, false);
	a.overlay = -1;
	struct create_ui *c = create_form_ui_new();
	struct offer o = mk_offer(false);
	struct offers_prefill p;
	memset(&p, 0, sizeof p);
	p.image = (char *)"nginx";
	create_form_ui_open(&a, c, &o, &p, 0);
	assert_true(create_form_ui_is_open(c));
	int id = rent(&a, c);

	/* another's result is not the form's: left to its owner */
	put(a.m, id + 1, CALL_OK, "", 77);
	assert_int_equal(create_form_ui_snapshot(&a, c), 0);
	assert_true(create_form_ui_is_open(c));
	struct call_result r;
	assert_true(model_take_result(a.m, id + 1, &r));
	model_call_result_free(&r);

	/* its 2FA prompt cancelled: the wait ends, the form is kept with why */
	put(a.m, id, CALL_ERROR, "cancelled: no two-factor code was given", 0);
	assert_int_equal(create_form_ui_snapshot(&a, c), 0);
	assert_true(create_form_ui_is_open(c));
	assert_false(model_take_result(a.m, id, &r)); /* taken once */
	/* no longer waiting: a key edits it, so Esc asks before discarding
	 * (while waiting, keys are ignored and Esc closes it, the create going on) */
	assert_true(create_form_ui_key(&a, c, 'x'));
	assert_true(create_form_ui_key(&a, c, 27));
	assert_true(create_form_ui_is_open(c)); /* the question */
	assert_true(create_form_ui_key(&a, c, '\t'));
	assert_true(create_form_ui_key(&a, c, '\n')); /* discarded (kept as a draft) */
	assert_false(create_form_ui_is_open(c));

	/* sent again: created, the form closes with the new instance's id */
	create_form_ui_open(&a, c, &o, &p, 0);
	int id2 = rent(&a, c);
	assert_true(id2 != id);
	put(a.m, id, CALL_OK, "", 55); /* a stale id: not this create's */
	assert_int_equal(create_form_ui_snapshot(&a, c), 0);
	put(a.m, id2, CALL_OK, "", 4242);
	assert_int_equal(create_form_ui_snapshot(&a, c), 4242);
	assert_false(create_form_ui_is_open(c));

	/* refused by the service: the form again, with its words; lost: closed */
	create_form_ui_open(&a, c, &o, &p, 0);
	int id3 = rent(&a, c);
	put(a.m, id3, CALL_ERROR, "create failed: no_such_ask", 0);
	assert_int_equal(create_form_ui_snapshot(&a, c), 0);
	assert_true(create_form_ui_is_open(c));
	int id4 = rent(&a, c);
	put(a.m, id4, CALL_UNKNOWN, "no answer came in time", 0);
	assert_int_equal(create_form_ui_snapshot(&a, c), 0);
	assert_false(create_form_ui_is_open(c));

	create_form_ui_free(&a, c);
	jobs_free(a.jobs);
	model_free(a.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_prefill),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_template),
		cmocka_unit_test(test_confirm_text),
		cmocka_unit_test(test_bid_note),
		cmocka_unit_test(test_draft),
		cmocka_unit_test(test_result_by_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
