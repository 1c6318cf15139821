/* test_auth.c: key discovery in the official CLI's order (--api-key-file,
 * VAST_API_KEY, vast_tfa_key, vast_api_key, ~/.vast_api_key), the
 * permission warning, the 0600 session file written atomically, dropping it
 * on "session expired", and that no message ever carries a key.  Runs in a
 * temporary HOME. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/auth.h"
#include "base/config.h"
#include "base/util.h"

static char home[256];
static char vast[300];

static void put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static char *path_in(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static int setup(void **state)
{
	(void)state;
	snprintf(home, sizeof home, "/tmp/rentop-test-auth-XXXXXX");
	assert_non_null(mkdtemp(home));
	snprintf(vast, sizeof vast, "%s/.config/vastai", home);
	char p[400];
	snprintf(p, sizeof p, "%s/.config", home);
	mkdir(p, 0700);
	mkdir(vast, 0700);
	setenv("HOME", home, 1);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("VAST_API_KEY");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
	return system(cmd) == 0 ? 0 : -1;
}

static struct config cfg_with(const char *key_file)
{
	struct config c;
	memset(&c, 0, sizeof c);
	c.vast_config_dir = vast;
	c.api_key_file = (char *)key_file;
	return c;
}

/* The bearer value auth would send. */
static void assert_bearer(struct auth *a, const char *want)
{
	char *h = auth_header(a);
	assert_non_null(h);
	char *exp = xasprintf("Authorization: Bearer %s", want);
	assert_string_equal(h, exp);
	free(exp);
	auth_header_free(h);
}

/* Run auth_new with warnings captured into a string (returned, malloc'd). */
static struct auth *discover(const struct config *c, char **warnings)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	struct auth *a = auth_new(c, w);
	fclose(w);
	*warnings = buf;
	return a;
}

static void discovery_order(void **state)
{
	(void)state;
	char *legacy = path_in(home, ".vast_api_key");
	char *normal = path_in(vast, "vast_api_key");
	char *session = path_in(vast, "vast_tfa_key");
	char *flagf = path_in(home, "flagkey");
	char *w;
	struct config c = cfg_with(NULL);

	/* nothing */
	struct auth *a = discover(&c, &w);
	assert_false(auth_has_key(a));
	assert_null(auth_header(a));
	auth_free(a);
	free(w);

	/* 5: legacy */
	put(legacy, "legacykey\n", 0600);
	a = discover(&c, &w);
	assert_bearer(a, "legacykey");
	auth_free(a);
	free(w);

	/* 4: the normal key file beats legacy; blanks trimmed */
	put(normal, "  normalkey \n", 0600);
	a = discover(&c, &w);
	assert_bearer(a, "normalkey");
	assert_false(auth_using_session(a));
	auth_free(a);
	free(w);

	/* 3: a session key beats the normal key file */
	put(session, "sessionkey", 0600);
	a = discover(&c, &w);
	assert_bearer(a, "sessionkey");
	assert_true(auth_using_session(a));
	auth_free(a);
	free(w);

	/* 2: the environment beats the files */
	setenv("VAST_API_KEY", "envkey", 1);
	a = discover(&c, &w);
	assert_bearer(a, "envkey");
	char src[300];
	assert_string_equal(auth_source(a, src, sizeof src), "VAST_API_KEY");
	auth_free(a);
	free(w);

	/* 1: --api-key-file beats everything */
	put(flagf, "flagkey\n", 0600);
	c = cfg_with(flagf);
	a = discover(&c, &w);
	assert_bearer(a, "flagkey");
	assert_string_equal(auth_source(a, src, sizeof src), flagf);
	assert_string_equal(w, "");
	auth_free(a);
	free(w);
	unsetenv("VAST_API_KEY");
	free(legacy);
	free(normal);
	free(session);
	free(flagf);
}

static void permission_warning(void **state)
{
	(void)state;
	char *normal = path_in(vast, "vast_api_key");
	put(normal, "normalkey\n", 0644);
	struct config c = cfg_with(NULL);
	char *w;
	struct auth *a = discover(&c, &w);
	assert_bearer(a, "normalkey"); /* still used */
	assert_non_null(strstr(w, "readable by group or others"));
	assert_non_null(strstr(w, normal));
	assert_null(strstr(w, "normalkey\n"));
	assert_null(strstr(w, " normalkey"));
	auth_free(a);
	free(w);
	/* group-readable only also warns; 0600 does not */
	chmod(normal, 0640);
	assert_true(auth_check_perms(normal, NULL));
	chmod(normal, 0600);
	a = discover(&c, &w);
	assert_string_equal(w, "");
	auth_free(a);
	free(w);
	free(normal);
}

static void session_store_and_expiry(void **state)
{
	(void)state;
	/* the vastai dir does not exist yet: it is created */
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", vast);
	assert_int_equal(system(cmd), 0);
	setenv("VAST_API_KEY", "envkey", 1);
	struct config c = cfg_with(NULL);
	char *w;
	struct auth *a = discover(&c, &w);
	free(w);
	assert_bearer(a, "envkey");
	/* nothing to fall back from */
	assert_false(auth_session_expired(a));

	char err[300];
	assert_int_equal(auth_store_session(a, "sess-123", err, sizeof err), 0);
	assert_bearer(a, "sess-123");
	assert_true(auth_using_session(a));
	char *session = path_in(vast, "vast_tfa_key");
	struct stat st;
	assert_int_equal(stat(session, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	FILE *f = fopen(session, "r");
	char buf[64] = {0};
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_string_equal(buf, "sess-123");
	/* no temporary file left behind */
	snprintf(cmd, sizeof cmd, "ls '%s' | grep -c tmp >/dev/null", vast);
	assert_int_not_equal(system(cmd), 0);
	/* the source names the file, never the key */
	char src[300];
	auth_source(a, src, sizeof src);
	assert_null(strstr(src, "sess-123"));
	assert_non_null(strstr(src, "vast_tfa_key"));

	/* an empty session key is refused */
	assert_int_equal(auth_store_session(a, "", err, sizeof err), -1);

	/* expiry: file dropped, back to the normal key */
	assert_true(auth_session_expired(a));
	assert_int_equal(stat(session, &st), -1);
	assert_bearer(a, "envkey");
	assert_false(auth_using_session(a));
	assert_false(auth_session_expired(a)); /* only once */
	auth_free(a);
	unsetenv("VAST_API_KEY");
	free(session);
}

static void session_without_normal_key(void **state)
{
	(void)state;
	char *session = path_in(vast, "vast_tfa_key");
	put(session, "onlysession\n", 0600);
	struct config c = cfg_with(NULL);
	char *w;
	struct auth *a = discover(&c, &w);
	free(w);
	assert_bearer(a, "onlysession");
	/* expired and nothing to retry with */
	assert_false(auth_session_expired(a));
	assert_false(auth_has_key(a));
	struct stat st;
	assert_int_equal(stat(session, &st), -1);
	auth_free(a);
	free(session);
}

/* A named key file that is missing, empty, a directory, too big or holding
 * control characters is fatal, and nothing else is tried: not
 * VAST_API_KEY, not the vastai files. */
static void named_source_is_the_only_one(void **state)
{
	(void)state;
	char *normal = path_in(vast, "vast_api_key");
	put(normal, "normalkey\n", 0600);
	setenv("VAST_API_KEY", "envkey", 1);
	char *empty = path_in(home, "empty");
	put(empty, " \n\n", 0600);
	char *big = path_in(home, "big");
	char *text = xmalloc(5000);
	memset(text, 'k', 4999);
	text[4999] = '\0';
	put(big, text, 0600);
	text[4095] = '\0'; /* 4,095 bytes is still a key */
	char *edge = path_in(home, "edge");
	put(edge, text, 0600);
	free(text);
	char *ctl = path_in(home, "ctl");
	put(ctl, "abc\033def\n", 0600);
	struct {
		const char *path, *want;
	} cases[] = {
		{ "/nonexistent/rentop-key", "No such file" },
		{ empty, "is empty" },
		{ home, "not a regular file" },
		{ "/dev/zero", "not a regular file" },
		{ big, "larger than 4095 bytes" },
		{ ctl, "control characters" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct config c = cfg_with(cases[i].path);
		char *w;
		struct auth *a = discover(&c, &w);
		assert_false(auth_has_key(a));
		assert_null(auth_header(a));
		assert_non_null(auth_fatal(a));
		assert_non_null(strstr(auth_fatal(a), cases[i].want));
		assert_non_null(strstr(auth_fatal(a), cases[i].path));
		assert_null(strstr(auth_fatal(a), "abc"));
		auth_free(a);
		free(w);
	}
	struct config c = cfg_with(edge);
	char *w;
	struct auth *a = discover(&c, &w);
	assert_null(auth_fatal(a));
	assert_true(auth_has_key(a));
	auth_free(a);
	free(w);
	unsetenv("VAST_API_KEY");
	free(normal);
	free(empty);
	free(big);
	free(edge);
	free(ctl);
}

/* VAST_API_KEY is trimmed like a key file; control characters (a header
 * injection) and blanks only are fatal, never a fall-back to the files. */
static void env_key_rules(void **state)
{
	(void)state;
	char *normal = path_in(vast, "vast_api_key");
	put(normal, "normalkey\n", 0600);
	struct config c = cfg_with(NULL);
	char *w;
	setenv("VAST_API_KEY", "  envkey\t\n", 1);
	struct auth *a = discover(&c, &w);
	assert_null(auth_fatal(a));
	assert_bearer(a, "envkey");
	auth_free(a);
	free(w);
	const char *bad[] = { "abc\r\nX-Injected: yes", "ab\001c", "   " };
	for (size_t i = 0; i < 3; i++) {
		setenv("VAST_API_KEY", bad[i], 1);
		a = discover(&c, &w);
		assert_non_null(auth_fatal(a));
		assert_non_null(strstr(auth_fatal(a), "VAST_API_KEY"));
		assert_null(strstr(auth_fatal(a), "Injected"));
		assert_false(auth_has_key(a));
		auth_free(a);
		free(w);
	}
	unsetenv("VAST_API_KEY");
	free(normal);
}

/* The permission warning is kept for the dashboard as well as printed. */
static void warnings_kept(void **state)
{
	(void)state;
	char *normal = path_in(vast, "vast_api_key");
	put(normal, "normalkey\n", 0644);
	struct config c = cfg_with(NULL);
	char *w;
	struct auth *a = discover(&c, &w);
	assert_int_equal(auth_warning_count(a), 1);
	assert_non_null(strstr(auth_warning(a, 0), "readable by group or others"));
	assert_non_null(strstr(auth_warning(a, 0), normal));
	assert_null(auth_fatal(a));
	auth_free(a);
	free(w);
	free(normal);
}

static void redaction(void **state)
{
	(void)state;
	setenv("VAST_API_KEY", "envkey-abcdef", 1);
	struct config c = cfg_with(NULL);
	char *w;
	struct auth *a = discover(&c, &w);
	free(w);
	char err[200];
	assert_int_equal(auth_store_session(a, "sess-zyxwvu", err, sizeof err), 0);
	char msg[200] = "bad bearer envkey-abcdef, also sess-zyxwvu and envkey-abcdef";
	assert_true(auth_redact(a, msg));
	assert_string_equal(msg, "bad bearer *************, also *********** and *************");
	char clean[] = "nothing to hide";
	assert_false(auth_redact(a, clean));
	assert_string_equal(clean, "nothing to hide");
	assert_false(auth_redact(NULL, clean));
	auth_free(a);
	unsetenv("VAST_API_KEY");
}

/* The key in the body of the run server's log form, read with the header
 * under one lock; a refused session key dropped once, by the generation
 * that was sent (an older refusal does not drop a newer login). */
static void body_key_and_session_refusal(void **state)
{
	(void)state;
	char *normal = path_in(vast, "vast_api_key");
	char *session = path_in(vast, "vast_tfa_key");
	put(normal, "normal\"key\\1\n", 0600);
	put(session, "sessionkey1", 0600);
	char *w;
	struct config c = cfg_with(NULL);
	struct auth *a = discover(&c, &w);
	free(w);
	char *body;
	unsigned gen;
	char *h = auth_request(a, "{\"id\":7,\"api_key\":\"\",\"tail\":10}", "api_key", &body, &gen);
	assert_string_equal(h, "Authorization: Bearer sessionkey1");
	assert_string_equal(body, "{\"id\":7,\"api_key\":\"sessionkey1\",\"tail\":10}");
	assert_true(gen != 0);
	auth_header_free(h);
	auth_header_free(body);
	/* no such member: no body */
	h = auth_request(a, "{\"id\":7}", "api_key", &body, NULL);
	assert_null(body);
	auth_header_free(h);
	/* the normal key sent: nothing to fall back to */
	bool dropped;
	assert_false(auth_session_refused(a, 0, &dropped));
	assert_false(dropped);
	assert_true(auth_using_session(a));
	/* a new login since the refused request: kept, and resent with it */
	char err[200];
	assert_int_equal(auth_store_session(a, "sessionkey2", err, sizeof err), 0);
	assert_true(auth_session_refused(a, gen, &dropped));
	assert_false(dropped);
	assert_bearer(a, "sessionkey2");
	/* the session key in use refused: dropped, its file gone, the normal key */
	unsigned gen2;
	h = auth_request(a, NULL, NULL, NULL, &gen2);
	auth_header_free(h);
	assert_true(gen2 != gen);
	assert_true(auth_session_refused(a, gen2, &dropped));
	assert_true(dropped);
	assert_false(auth_using_session(a));
	assert_int_equal(access(session, F_OK), -1);
	h = auth_request(a, "{\"api_key\":\"\"}", "api_key", &body, &gen);
	assert_int_equal(gen, 0);
	assert_string_equal(body, "{\"api_key\":\"normal\\\"key\\\\1\"}"); /* JSON-escaped */
	auth_header_free(h);
	auth_header_free(body);
	/* a second refusal of the same generation: dropped already, resend */
	assert_true(auth_session_refused(a, gen2, &dropped));
	assert_false(dropped);
	auth_free(a);
	free(normal);
	free(session);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(discovery_order, setup, teardown),
		cmocka_unit_test_setup_teardown(permission_warning, setup, teardown),
		cmocka_unit_test_setup_teardown(session_store_and_expiry, setup, teardown),
		cmocka_unit_test_setup_teardown(session_without_normal_key, setup, teardown),
		cmocka_unit_test_setup_teardown(named_source_is_the_only_one, setup, teardown),
		cmocka_unit_test_setup_teardown(env_key_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(warnings_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(redaction, setup, teardown),
		cmocka_unit_test_setup_teardown(body_key_and_session_refusal, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
