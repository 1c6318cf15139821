/* create_fields.c: the fields of a create request that the create form
 * and the template editor share (create_fields.h). */
#include "views/offers/create_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "widgets/textbuf.h"

static const char *launch_names[LAUNCH__COUNT];

static void init_names(void)
{
	for (int i = 0; i < LAUNCH__COUNT; i++)
		launch_names[i] = api_create_launch_name((enum create_launch)i);
}

/* The onstart field: refused when even compressed it is over the limit. */
static bool check_onstart(const struct form_field *f, char *err, size_t n)
{
	const char *t = f->text ? f->text : "";
	if (strlen(t) <= CREATE_ONSTART_MAX)
		return true;
	size_t wl = 0;
	char *w = api_create_onstart_encode(t, &wl);
	if (w) {
		free(w);
		return true;
	}
	snprintf(err, n, "%zu bytes; compressed still %zu, over the service's %d", strlen(t), wl,
		 CREATE_ONSTART_MAX);
	return false;
}

int create_fields_add_launch(struct form *fm, enum create_launch initial)
{
	init_names();
	return form_add_choice(fm, "launch", "Launch mode", launch_names, LAUNCH__COUNT,
			       (int)initial);
}

int create_fields_add_env(struct form *fm, const char *initial)
{
	int e = form_add_secret(fm, "env", "Env, ports (-e K=V -p H:C)", CREATE_ENV_MAX, false);
	if (e >= 0 && initial)
		textbuf_set(&fm->f[e].tb, initial);
	return e;
}

int create_fields_add_onstart(struct form *fm, const char *initial, bool compress)
{
	int os = form_add_multiline(fm, "onstart", "Onstart script", initial ? initial : "",
				    compress ? CREATE_ONSTART_EDIT_MAX : CREATE_ONSTART_MAX, false);
	if (os >= 0 && compress)
		fm->f[os].check = check_onstart;
	return os;
}

/* A number as the form shows it: "8", "0.125". */
void create_fields_num_text(char *buf, size_t n, double v, int decimals)
{
	snprintf(buf, n, "%.*f", decimals, v);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *e = buf + strlen(buf) - 1;
		while (e > dot && *e == '0')
			*e-- = '\0';
		if (e == dot)
			*e = '\0';
	}
}
