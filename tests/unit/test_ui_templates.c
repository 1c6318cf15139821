/* test_ui_templates.c: the template form's pure parts (tpl_edit.c) and the
 * requests it leads to (api_offers.c): the fields of a new template (env
 * and registry password masked, launch mode and onstart as the create
 * form has them) and of an edit (filled from the record, the password
 * never known); the form read into a template_req and the POST body built
 * from it (every field, the registry triple always sent); invalid input
 * marked on the field it is about (api_template_validate_at) with nothing to
 * send; an edit sending only what changed, a blank password kept, an
 * untouched form nothing at all; the search's one mapper (offers.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/api_offers.h"
#include "base/config.h"
#include "widgets/form.h"
#include "flow/offers.h"
#include "views/templates/tpl_edit.h"

static struct config cfg;

static void set(struct form *fm, const char *name, const char *text)
{
	assert_true(form_set(fm, name, text));
}

static json_t *body_of(const struct api_call *c)
{
	json_t *b = json_loads(c->body, 0, NULL);
	assert_non_null(b);
	return b;
}

static const char *str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A record as the search answers it (creator 148213, a registry login). */
static struct template_rec *record(void)
{
	json_t *root = json_loads(
		"{\"templates\":[{\"id\":31,\"hash_id\":\"0123456789abcdef0123456789abcdef\",\"name\":\"mine\","
		"\"image\":\"reg.example.com/me/app\",\"tag\":\"v2\",\"runtype\":\"jupyter\",\"jup_direct\":true,"
		"\"ssh_direct\":true,\"use_ssh\":true,\"env\":\"-e A=1 -p 8080:8080\",\"onstart\":\"echo hi\","
		"\"recommended_disk_space\":24,\"docker_login_repo\":\"reg.example.com\",\"docker_login_user\":\"bob\","
		"\"docker_login_pass\":\"pa55\",\"creator_id\":148213,\"desc\":\"d\"}]}",
		0, NULL);
	struct api_error e;
	memset(&e, 0, sizeof e);
	struct offers_tpl_answer *a = offers_templates_map(root, &e);
	json_decref(root);
	assert_non_null(a);
	assert_int_equal(a->n, 1);
	struct template_rec *t = offers_template_dup(&a->v[0]);
	offers_templates_answer_free(a);
	return t;
}

static void test_new_form(void **s)
{
	(void)s;
	struct form fm;
	tpl_edit_form_build(&fm, NULL);
	assert_non_null(strstr(fm.title, "New template"));
	static const char *const names[] = { "name", "image", "tag", "launch", "disk", "env", "onstart",
					     "args", "desc", "private", "login_repo", "login_user",
					     "login_pass" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		assert_true(form_find(&fm, names[i]) >= 0);
	assert_int_equal(fm.f[form_find(&fm, "login_pass")].kind, FK_SECRET);
	assert_int_equal(fm.f[form_find(&fm, "env")].kind, FK_SECRET);
	assert_int_equal(fm.f[form_find(&fm, "onstart")].kind, FK_MULTILINE);
	assert_string_equal(form_value(&fm, "launch"), "ssh");
	assert_string_equal(form_value(&fm, "disk"), "8");
	/* nothing typed: name and image required, nothing to read */
	struct template_req r;
	assert_false(tpl_edit_form_read(&fm, &r));
	assert_int_equal(fm.focus, form_find(&fm, "name"));
	form_free(&fm);
}

static void test_create_body(void **s)
{
	(void)s;
	struct form fm;
	tpl_edit_form_build(&fm, NULL);
	set(&fm, "name", "e2e");
	set(&fm, "image", "reg.example.com/me/app");
	set(&fm, "tag", "v1");
	fm.f[form_find(&fm, "launch")].choice = LAUNCH_SSH_DIRECT;
	set(&fm, "disk", "40");
	set(&fm, "env", "-e MODE=fast -p 8080:8080");
	set(&fm, "onstart", "echo start");
	set(&fm, "login_repo", "reg.example.com");
	set(&fm, "login_user", "bob");
	set(&fm, "login_pass", "s3cret");
	struct template_req r;
	assert_true(tpl_edit_form_read(&fm, &r));
	struct api_call c = api_template_create(&cfg, &r);
	assert_string_equal(c.method, "POST");
	assert_string_equal(c.url, "http://sim/api/v0/template/");
	json_t *b = body_of(&c);
	assert_string_equal(str(b, "name"), "e2e");
	assert_string_equal(str(b, "image"), "reg.example.com/me/app");
	assert_string_equal(str(b, "tag"), "v1");
	assert_string_equal(str(b, "runtype"), "ssh");
	assert_true(json_is_true(json_object_get(b, "ssh_direct")));
	assert_true(json_is_false(json_object_get(b, "jup_direct")));
	assert_float_equal(json_number_value(json_object_get(b, "recommended_disk_space")), 40, 1e-9);
	assert_string_equal(str(b, "env"), "-e MODE=fast -p 8080:8080");
	assert_string_equal(str(b, "onstart"), "echo start");
	assert_string_equal(str(b, "docker_login_repo"), "reg.example.com");
	assert_string_equal(str(b, "docker_login_user"), "bob");
	assert_string_equal(str(b, "docker_login_pass"), "s3cret");
	json_decref(b);
	api_call_free(&c);
	/* no registry: the three fields still sent, empty (SPEC: required) */
	set(&fm, "login_repo", "");
	set(&fm, "login_user", "");
	set(&fm, "login_pass", "");
	assert_true(tpl_edit_form_read(&fm, &r));
	c = api_template_create(&cfg, &r);
	b = body_of(&c);
	assert_string_equal(str(b, "docker_login_repo"), "");
	assert_string_equal(str(b, "docker_login_user"), "");
	assert_string_equal(str(b, "docker_login_pass"), "");
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);
}

/* Each invalid input is marked on its field, the focus there, nothing read. */
static void test_invalid_marked(void **s)
{
	(void)s;
	static const struct {
		const char *field, *value, *marked, *msg;
	} cases[] = {
		{ "login_user", "bob", "login_repo", "registry" },
		{ "login_pass", "x", "login_repo", "registry" },
		{ "env", "-e =1", "env", "" },
		{ "args", "--port 1", "args", "arguments" },
		{ "tag", "a b", "tag", "tag" },
		{ "image", "has space", "image", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct form fm;
		tpl_edit_form_build(&fm, NULL);
		set(&fm, "name", "n");
		set(&fm, "image", "me/img");
		set(&fm, cases[i].field, cases[i].value);
		struct template_req r;
		if (tpl_edit_form_read(&fm, &r))
			fail_msg("case %zu (%s=%s) read as valid", i, cases[i].field, cases[i].value);
		int k = form_find(&fm, cases[i].marked);
		if (fm.focus != k || !fm.f[k].error[0])
			fail_msg("case %zu: focus %d, want %s (%d) marked; error '%s'", i, fm.focus,
				 cases[i].marked, k, fm.f[k].error);
		assert_non_null(strstr(fm.f[k].error, cases[i].msg));
		assert_null(strstr(fm.f[k].error, "x\""));
		form_free(&fm);
	}
	/* the password never appears in a message */
	struct template_req t;
	memset(&t, 0, sizeof t);
	t.name = "n";
	t.image = "me/img";
	t.login_pass = "pa55-not-shown";
	char err[200];
	const char *field = NULL;
	assert_false(api_template_validate_at(&t, err, sizeof err, &field));
	assert_string_equal(field, "login_repo");
	assert_null(strstr(err, "pa55"));
}

static void test_edit_form_and_diff(void **s)
{
	(void)s;
	struct template_rec *t = record();
	struct form fm;
	tpl_edit_form_build(&fm, t);
	assert_non_null(strstr(fm.title, "Edit template"));
	assert_string_equal(form_value(&fm, "name"), "mine");
	assert_string_equal(form_value(&fm, "image"), "reg.example.com/me/app");
	assert_string_equal(form_value(&fm, "tag"), "v2");
	assert_string_equal(form_value(&fm, "launch"), "jupyter direct");
	assert_string_equal(form_value(&fm, "disk"), "24");
	assert_string_equal(form_value(&fm, "env"), "-e A=1 -p 8080:8080");
	assert_string_equal(form_value(&fm, "onstart"), "echo hi");
	assert_string_equal(form_value(&fm, "login_user"), "bob");
	assert_string_equal(form_value(&fm, "login_pass"), ""); /* never known */
	struct template_req old, r;
	offers_template_req(t, &old);
	/* untouched: nothing to send */
	assert_true(tpl_edit_form_read(&fm, &r));
	int changed = -1;
	struct api_call c = api_template_edit(&cfg, t->hash_id, &old, &r, &changed);
	assert_int_equal(changed, 0);
	api_call_free(&c);
	/* the description and the launch mode changed: only those (and the flags
	 * of the launch mode) go, by the old hash_id; a blank password is kept */
	set(&fm, "desc", "new words");
	fm.f[form_find(&fm, "launch")].choice = LAUNCH_SSH;
	assert_true(tpl_edit_form_read(&fm, &r));
	c = api_template_edit(&cfg, t->hash_id, &old, &r, &changed);
	assert_int_equal(changed, 2);
	assert_string_equal(c.method, "PUT");
	json_t *b = body_of(&c);
	assert_string_equal(str(b, "hash_id"), "0123456789abcdef0123456789abcdef");
	assert_string_equal(str(b, "desc"), "new words");
	assert_string_equal(str(b, "runtype"), "ssh");
	assert_null(json_object_get(b, "name"));
	assert_null(json_object_get(b, "env"));
	assert_null(json_object_get(b, "docker_login_pass"));
	json_decref(b);
	api_call_free(&c);
	/* a new password typed: sent */
	set(&fm, "login_pass", "n3w");
	assert_true(tpl_edit_form_read(&fm, &r));
	c = api_template_edit(&cfg, t->hash_id, &old, &r, &changed);
	b = body_of(&c);
	assert_string_equal(str(b, "docker_login_pass"), "n3w");
	json_decref(b);
	api_call_free(&c);
	form_free(&fm);
	json_map_templates_free(t, 1);
}

static void test_delete_and_answer(void **s)
{
	(void)s;
	struct api_call c = api_template_delete(&cfg, 31);
	assert_string_equal(c.method, "DELETE");
	json_t *b = body_of(&c);
	assert_int_equal(json_integer_value(json_object_get(b, "template_id")), 31);
	assert_int_equal(json_object_size(b), 1);
	json_decref(b);
	api_call_free(&c);
	/* the one mapper: a wrong shape is a protocol error */
	json_t *bad = json_loads("{\"templates\":{}}", 0, NULL);
	struct api_error e;
	memset(&e, 0, sizeof e);
	assert_null(offers_templates_map(bad, &e));
	assert_int_equal(e.cls, AE_PROTOCOL);
	json_decref(bad);
	/* the copy is deep: the original freed, the copy intact */
	struct template_rec *t = record();
	struct template_rec *d = offers_template_dup(t);
	json_map_templates_free(t, 1);
	assert_string_equal(d->name, "mine");
	assert_string_equal(d->docker_login_user, "bob");
	json_map_templates_free(d, 1);
}

int main(void)
{
	cfg.base_url = "http://sim";
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_form),
		cmocka_unit_test(test_create_body),
		cmocka_unit_test(test_invalid_marked),
		cmocka_unit_test(test_edit_form_and_diff),
		cmocka_unit_test(test_delete_and_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
