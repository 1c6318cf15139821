/* test_create_recall.c: the create form's remembered forms (issue 23,
 * "Launch again"): kept per template hash or image, the newest replacing
 * the older one of its key; the secrets (env and ports, registry login, an
 * onstart or args that secrets.c would mask, a template's env) never kept
 * unless "Remember secrets" was on; the file mode 0600 under
 * XDG_STATE_HOME; a file that is not the store set aside as FILE.bad
 * (nothing lost) with a message, the store empty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "views/offers/create_form.h"
#include "views/offers/create_recall.h"
#include "widgets/form.h"

static struct offer mk_offer(long id)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	o.id = id;
	o.num_gpus = 1;
	o.gpu_name = (char *)"RTX 3060";
	o.disk_space = 750;
	o.rentable = true;
	o.min_bid = NAN;
	o.credit_discount_max = NAN;
	return o;
}

/* A sent form for offer id: image, template, env, login, onstart. */
static void sent(struct create_draft *d, long id, const char *image, const char *tpl,
		 const char *env, const char *onstart, bool remember)
{
	struct offer o = mk_offer(id);
	struct form fm;
	create_form_build(&fm, &o, NULL);
	assert_true(form_set(&fm, "image", image));
	assert_true(form_set(&fm, "template", tpl));
	assert_true(form_set(&fm, "disk", "32"));
	assert_true(form_set(&fm, "label", "trainer"));
	assert_true(form_set(&fm, "env", env));
	assert_true(form_set(&fm, "login", "-u bob -p regpass123 docker.io"));
	assert_true(form_set(&fm, "onstart", onstart));
	int r = form_find(&fm, "remember");
	assert_true(r >= 0);
	fm.f[r].on = remember;
	memset(d, 0, sizeof *d);
	create_form_draft_save(d, &fm, NULL, id);
	form_free(&fm);
}

static const char *field(const struct create_draft *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->f[i].name, name))
			return d->f[i].text;
	fail_msg("no field %s", name);
	return NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_keys(void **s)
{
	(void)s;
	char k[RECALL_KEY_MAX];
	assert_true(recall_key("abc123", "pytorch/pytorch:2", k, sizeof k));
	assert_string_equal(k, "tpl:abc123");
	assert_true(recall_key("", "pytorch/pytorch:2", k, sizeof k));
	assert_string_equal(k, "img:pytorch/pytorch:2");
	assert_false(recall_key("", "", k, sizeof k));
	assert_string_equal(k, "");
	char w[100];
	assert_string_equal(recall_key_words("img:vllm/vllm", w, sizeof w), "image vllm/vllm");
	assert_string_equal(recall_key_words("tpl:ab12", w, sizeof w), "template ab12");
}

static void test_no_secrets_unless_asked(void **s)
{
	(void)s;
	struct recall_store st;
	recall_init(&st);
	struct create_draft d;
	sent(&d, 11, "vllm/vllm:latest", "", "-e HF_TOKEN=hf_topsecret -p 8000:8000",
	     "export WANDB_API_KEY=wb_secret\npython serve.py", false);
	assert_true(recall_put(&st, &d, false));
	assert_false(d.have); /* taken over */
	const struct recall_entry *e = recall_find(&st, "img:vllm/vllm:latest");
	assert_non_null(e);
	assert_false(e->d.secrets);
	assert_string_equal(field(&e->d, "label"), "trainer");
	assert_string_equal(field(&e->d, "disk"), "32");
	assert_string_equal(field(&e->d, "env"), "");
	assert_string_equal(field(&e->d, "login"), "");
	assert_string_equal(field(&e->d, "onstart"), ""); /* secrets.c would mask it */
	/* a harmless onstart is kept */
	sent(&d, 12, "busybox", "", "-e A=1", "echo hi", false);
	assert_true(recall_put(&st, &d, false));
	assert_string_equal(field(&recall_find(&st, "img:busybox")->d, "onstart"), "echo hi");
	/* asked for: kept */
	sent(&d, 13, "ubuntu:22.04", "", "-e HF_TOKEN=hf_keepme", "", true);
	assert_true(recall_put(&st, &d, true));
	e = recall_find(&st, "img:ubuntu:22.04");
	assert_true(e->d.secrets);
	assert_string_equal(field(&e->d, "env"), "-e HF_TOKEN=hf_keepme");

	char dir[] = "/tmp/test_recall_XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_STATE_HOME", dir, 1);
	char path[1024], err[1300];
	assert_true(recall_path(path, sizeof path));
	char want[1100];
	snprintf(want, sizeof want, "%s/rentop/forms", dir);
	assert_string_equal(path, want);
	assert_true(recall_save(&st, path, err, sizeof err));
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	const char *text = slurp(path);
	assert_null(strstr(text, "hf_topsecret"));
	/* the registry login of the forms that did not ask */
	assert_int_equal(count(text, "regpass123"), 1); /* only the form that asked */
	assert_null(strstr(text, "wb_secret"));
	assert_non_null(strstr(text, "hf_keepme")); /* the form that asked */

	/* read back: the same entries, newest last */
	struct recall_store back;
	recall_init(&back);
	assert_true(recall_load(&back, path, err, sizeof err));
	assert_int_equal(back.n, 3);
	assert_string_equal(recall_last(&back)->key, "img:ubuntu:22.04");
	assert_int_equal(recall_find(&back, "img:busybox")->d.offer_id, 12);
	assert_string_equal(field(&recall_find(&back, "img:vllm/vllm:latest")->d, "label"), "trainer");
	recall_free(&back);
	recall_free(&st);
	unlink(path);
	snprintf(want, sizeof want, "%s/rentop", dir);
	rmdir(want);
	rmdir(dir);
}

static void test_login_never_written(void **s)
{
	(void)s;
	struct recall_store st;
	recall_init(&st);
	struct create_draft d;
	sent(&d, 21, "private/img:1", "", "", "", false);
	assert_true(recall_put(&st, &d, false));
	char path[] = "/tmp/test_recall_login_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char err[1300];
	assert_true(recall_save(&st, path, err, sizeof err));
	assert_null(strstr(slurp(path), "regpass123"));
	recall_free(&st);
	unlink(path);
}

static void test_per_key_newest(void **s)
{
	(void)s;
	struct recall_store st;
	recall_init(&st);
	struct create_draft d;
	sent(&d, 31, "img/a", "", "", "", false);
	recall_put(&st, &d, false);
	sent(&d, 32, "img/b", "tplhash9", "", "", false);
	recall_put(&st, &d, false);
	sent(&d, 33, "img/a", "", "", "", false);
	recall_put(&st, &d, false);
	assert_int_equal(st.n, 2); /* img/a replaced, not added */
	assert_int_equal(recall_find(&st, "img:img/a")->d.offer_id, 33);
	assert_string_equal(recall_last(&st)->key, "img:img/a");
	assert_non_null(recall_find(&st, "tpl:tplhash9")); /* by the template, not its image */
	assert_null(recall_find(&st, "img:img/b"));
	/* the form fills from it: the same fields back, secrets left as they are */
	struct offer o = mk_offer(40);
	struct form fm;
	create_form_build(&fm, &o, NULL);
	assert_true(form_set(&fm, "env", "-e TYPED=1"));
	create_form_draft_apply(&recall_find(&st, "img:img/a")->d, &fm, NULL, false);
	assert_string_equal(form_value(&fm, "image"), "img/a");
	assert_string_equal(form_value(&fm, "label"), "trainer");
	assert_string_equal(form_value(&fm, "env"), "-e TYPED=1");
	form_free(&fm);
	/* the cap: the oldest goes */
	for (int i = 0; i < RECALL_CAP + 3; i++) {
		char img[32];
		snprintf(img, sizeof img, "many/%d", i);
		sent(&d, 100 + i, img, "", "", "", false);
		recall_put(&st, &d, false);
	}
	assert_int_equal(st.n, RECALL_CAP);
	assert_null(recall_find(&st, "img:img/a"));
	assert_non_null(recall_find(&st, "img:many/34"));
	/* nothing to key it by: not kept */
	sent(&d, 50, "", "", "", "", false);
	assert_false(recall_put(&st, &d, false));
	assert_int_equal(st.n, RECALL_CAP);
	recall_free(&st);
}

static void test_corrupt_file(void **s)
{
	(void)s;
	char path[] = "/tmp/test_recall_bad_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *junk = "{\"rentop_forms\": 1, \"forms\": [{\"key\": 5}]";
	assert_int_equal(write(fd, junk, strlen(junk)), (ssize_t)strlen(junk));
	close(fd);
	struct recall_store st;
	recall_init(&st);
	char err[1300] = "";
	assert_false(recall_load(&st, path, err, sizeof err));
	assert_int_equal(st.n, 0);
	assert_non_null(strstr(err, "not readable, ignored"));
	char bad[200];
	snprintf(bad, sizeof bad, "%s.bad", path);
	assert_non_null(strstr(err, bad));
	assert_string_equal(slurp(bad), junk); /* nothing lost */
	assert_int_not_equal(access(path, F_OK), 0);
	/* a wrong entry inside a good file: the same */
	FILE *f = fopen(path, "w");
	fputs("{\"rentop_forms\": 1, \"forms\": [{\"key\": \"img:x\", \"fields\": [{\"name\": "
	      "\"image\", \"kind\": 99, \"text\": \"x\"}], \"template\": {}}]}", f);
	fclose(f);
	assert_false(recall_load(&st, path, err, sizeof err));
	assert_int_equal(st.n, 0);
	/* a missing file is no error */
	assert_true(recall_load(&st, path, err, sizeof err));
	unlink(bad);
	recall_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_no_secrets_unless_asked),
		cmocka_unit_test(test_login_never_written),
		cmocka_unit_test(test_per_key_newest),
		cmocka_unit_test(test_corrupt_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
