/* test_complete.c: Tab completion of the `:` line (issue 12): the command,
 * then the arguments of every command with a finite set: :sort columns,
 * :filter COLUMN= and the state names, :theme, the :offers query fields,
 * options, -o sort fields (after a comma too), -t types and flag values,
 * the account's sections and machine ids, :reports machine ids, :logs
 * endpoints and instance ids, :detail ids, :ssh routes; a view's short word
 * stands for its name; nothing completes where the set is open. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "complete.h"
#include "history.h"
#include "state/model.h"
#include "flow/gpunames.h"

static struct instance xs[3];
static const struct instance *const pxs[3] = { &xs[0], &xs[1], &xs[2] };
static struct endpoint eps[2];
static struct snapshot snap;
static struct complete_set cs;
static struct complete_src src;

static const char *const commands[] = { "help", "quit", "sort", "filter", "theme", "refresh",
					"instances", "offers", "account", "logs", "detail",
					"reports", "ssh", "stop" };
static const char *const vnames[] = { "instances", "offers", "account", "logs", "detail" };
static const char *const valiases[] = { "i", "o", NULL, NULL, NULL };
static const char *const themes[] = { "default", "light", "monochrome", "solarized-dark" };
static const char *const columns[] = { "ID", "LABEL", "STATUS", "GPUS", "$/H", "MACHINE" };
static const char *const sections[] = { "overview", "env", "apikeys", "ssh", "roles", "reports" };

static int setup(void **state)
{
	(void)state;
	static const long ids[] = { 9108111, 9108074, 9108080 };
	static const long machines[] = { 501, 77, 501 };
	memset(xs, 0, sizeof xs);
	for (int i = 0; i < 3; i++) {
		xs[i].id = ids[i];
		xs[i].machine_id = machines[i];
	}
	memset(eps, 0, sizeof eps);
	eps[0].id = 11;
	eps[0].endpoint_name = (char *)"llama-prod";
	eps[1].id = 12;
	eps[1].endpoint_name = (char *)"whisper";
	memset(&snap, 0, sizeof snap);
	snap.instances = pxs;
	snap.ninstances = 3;
	snap.endpoints = eps;
	snap.nendpoints = 2;
	memset(&src, 0, sizeof src);
	src.commands = commands;
	src.ncommands = sizeof commands / sizeof *commands;
	src.view_names = vnames;
	src.view_aliases = valiases;
	src.nviews = 5;
	src.themes = themes;
	src.nthemes = 4;
	src.columns = columns;
	src.ncolumns = 6;
	src.snap = &snap;
	return 0;
}

/* Complete line: how many distinct matches of the typed word, the common
 * prefix in out, the list in list. */
static char out[256], list[1024];
static size_t tab(const char *line)
{
	out[0] = list[0] = '\0';
	if (!complete_line(line, &src, &cs))
		return 0;
	return history_complete(line + cs.start, cs.c, cs.n, out, sizeof out, list, sizeof list);
}

static void test_command_word(void **state)
{
	(void)state;
	assert_int_equal(tab(":th"), 1);
	assert_string_equal(out, "theme");
	assert_int_equal(cs.start, 1);
	assert_int_equal(tab("s"), 3); /* sort ssh stop */
	assert_string_equal(out, "s");
	assert_int_equal(tab(":zz"), 0);
}

static void test_theme_sort_filter(void **state)
{
	(void)state;
	/* :theme <Tab> lists the themes */
	assert_int_equal(tab(":theme "), 4);
	assert_non_null(strstr(list, "solarized-dark"));
	assert_int_equal(tab(":theme so"), 1);
	assert_string_equal(out, "solarized-dark");
	assert_int_equal(cs.start, 7);
	/* :sort: the columns, lower case */
	assert_int_equal(tab(":sort st"), 1);
	assert_string_equal(out, "status");
	assert_false(cs.no_space);
	assert_int_equal(tab(":sort "), 6);
	assert_non_null(strstr(list, "$/h"));
	assert_int_equal(tab(":sort id x"), 0); /* one argument */
	/* :filter: COLUMN= (no space after), the state names after status= */
	assert_int_equal(tab(":filter sta"), 1);
	assert_string_equal(out, "status=");
	assert_true(cs.no_space);
	assert_int_equal(tab(":filter status=ru"), 1);
	assert_string_equal(out, "running");
	assert_int_equal(cs.start, strlen(":filter status="));
	assert_int_equal(tab(":filter gpus=4090 !sta"), 1); /* a negated term */
	assert_string_equal(out, "status=");
	assert_int_equal(cs.start, strlen(":filter gpus=4090 !"));
	assert_int_equal(tab(":filter label=x"), 0); /* free text */
}

static void test_offers(void **state)
{
	(void)state;
	/* query fields (and aliases), an operator follows: no space */
	assert_int_equal(tab(":offers gpu_na"), 1);
	assert_string_equal(out, "gpu_name");
	assert_true(cs.no_space);
	assert_int_equal(tab(":o num_gpus>=2 reliab"), 2); /* the alias of offers; reliability reliability2 */
	assert_string_equal(out, "reliability");
	assert_int_equal(tab(":offers dph"), 3); /* dph_base dph_total, and the alias dph */
	assert_non_null(strstr(list, "dph_total"));
	/* options */
	assert_int_equal(tab(":offers gpu_name=RTX_4090 --li"), 1);
	assert_string_equal(out, "--limit");
	assert_int_equal(tab(":offers --limit "), 0); /* a number */
	/* -o: sort fields, after a comma too */
	assert_int_equal(tab(":offers -o dph_t"), 1);
	assert_string_equal(out, "dph_total");
	assert_int_equal(tab(":offers --order score-,reliability2"), 1);
	assert_int_equal(cs.start, strlen(":offers --order score-,"));
	/* -t: the offer types */
	assert_int_equal(tab(":offers -t "), 4);
	assert_int_equal(tab(":offers -t re"), 1);
	assert_string_equal(out, "reserved");
	/* a flag's values */
	assert_int_equal(tab(":offers verified="), 3);
	assert_non_null(strstr(list, "any"));
	assert_int_equal(tab(":offers rented!=f"), 1);
	assert_string_equal(out, "false");
	assert_int_equal(tab(":offers gpu_name=RT"), 0);
}

/* gpu_name= (=, ==, !=): the service's GPU names that contain the typed
 * fragment anywhere, case-insensitively, written with underscores; none
 * while the names are unknown; other operators and fields get none. */
static void test_gpu_names(void **state)
{
	(void)state;
	static char *v[] = { (char *)"A100 SXM4", (char *)"RTX 3090", (char *)"RTX 4090",
			     (char *)"RTX 4090D", (char *)"Odd, Name" };
	struct gpu_names g = { v, 5 };
	assert_int_equal(complete_line(":offers gpu_name=40", &src, &cs), 0); /* names unknown */
	src.gpu_names = &g;
	assert_int_equal(complete_line(":offers num_gpus=1 gpu_name=40", &src, &cs), 2);
	assert_true(cs.fragment);
	assert_int_equal(cs.start, strlen(":offers num_gpus=1 gpu_name="));
	assert_string_equal(cs.c[0], "RTX_4090");
	assert_string_equal(cs.c[1], "RTX_4090D");
	assert_int_equal(complete_line(":o gpu_name==rtx_", &src, &cs), 3); /* case, _ as space */
	assert_int_equal(complete_line(":offers gpu_name!=sxm", &src, &cs), 1);
	assert_string_equal(cs.c[0], "A100_SXM4");
	assert_int_equal(complete_line(":offers gpu_name=", &src, &cs), 4); /* "Odd, Name": no token */
	assert_int_equal(complete_line(":offers gpu_name=H200", &src, &cs), 0);
	assert_int_equal(complete_line(":offers gpu_name<40", &src, &cs), 0);
	assert_int_equal(complete_line(":offers gpu_ram=40", &src, &cs), 0);
	assert_false(complete_line(":offers verified=t", &src, &cs) && cs.fragment);
	src.gpu_names = NULL;
}

/* `:templates QUERY`: the template search fields (not the offers'), and
 * true/false after a boolean field's operator. */
static void test_templates(void **state)
{
	(void)state;
	assert_int_equal(tab(":templates recomm"), 2); /* recommended recommended_disk_space */
	assert_string_equal(out, "recommended");
	assert_true(cs.no_space);
	assert_int_equal(tab(":templates name=x creat"), 2); /* created_at creator_id */
	assert_int_equal(cs.start, strlen(":templates name=x "));
	assert_int_equal(tab(":templates gpu_na"), 0); /* an offer field */
	assert_int_equal(tab(":templates "), 16);       /* SPEC.md's sixteen */
	assert_int_equal(tab(":templates ssh_direct="), 2);
	assert_int_equal(tab(":templates use_ssh!=f"), 1);
	assert_string_equal(out, "false");
	assert_int_equal(cs.start, strlen(":templates use_ssh!="));
	assert_int_equal(tab(":templates name=Py"), 0); /* free text */
}

static void test_ids_sections_routes(void **state)
{
	(void)state;
	/* the account's sections (its view's fixed arguments); reports: machines */
	src.view_args = sections;
	src.nview_args = 6;
	assert_int_equal(tab(":account r"), 2);
	assert_string_equal(list, "roles  reports");
	assert_int_equal(tab(":account reports "), 2);
	assert_string_equal(list, "77  501"); /* each machine once, ascending */
	assert_int_equal(tab(":account env x"), 0);
	src.view_args = NULL;
	src.nview_args = 0;
	assert_int_equal(tab(":reports 5"), 1);
	assert_string_equal(out, "501");
	/* :logs: endpoints and instances; :detail: instances */
	assert_int_equal(tab(":logs "), 5);
	assert_string_equal(list, "llama-prod  whisper  9108074  9108080  9108111");
	assert_int_equal(tab(":logs wh"), 1);
	assert_string_equal(out, "whisper");
	/* :workers and :update-workers: endpoint names */
	assert_int_equal(tab(":workers "), 2);
	assert_string_equal(list, "llama-prod  whisper");
	assert_int_equal(tab(":update-workers wh"), 1);
	assert_string_equal(out, "whisper");
	assert_int_equal(tab(":detail 91081"), 1);
	assert_string_equal(out, "9108111");
	assert_int_equal(tab(":detail 9108"), 3);
	assert_string_equal(out, "9108");
	/* no snapshot yet: nothing to offer */
	src.snap = NULL;
	assert_int_equal(tab(":detail "), 0);
	src.snap = &snap;
	/* :ssh ROUTE */
	assert_int_equal(tab(":ssh p"), 1);
	assert_string_equal(out, "proxy");
	assert_int_equal(tab(":ssh "), 3);
	/* commands without arguments complete nothing */
	assert_int_equal(tab(":help "), 0);
	assert_int_equal(tab(":stop "), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_command_word, setup),
		cmocka_unit_test_setup(test_theme_sort_filter, setup),
		cmocka_unit_test_setup(test_offers, setup),
		cmocka_unit_test_setup(test_gpu_names, setup),
		cmocka_unit_test_setup(test_templates, setup),
		cmocka_unit_test_setup(test_ids_sections_routes, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
