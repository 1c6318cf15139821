/* launch.c: `:launch` (launch.h): its flags read (flow/launch.c), the
 * offers view's search (pane_offers_search_for), the first offer of its
 * answer confirmed and rented through the create form's path. */
#include "views/offers/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/util.h"
#include "base/xmalloc.h"
#include "flow/launch.h"
#include "flow/offers.h"
#include "views/offers/create_form.h"
#include "views/offers/pane_offers.h"

/* The launch whose search is out (one at a time: a new one replaces it). */
static struct launch_args pending;
static char pending_line[800];

/* Its search answered: confirm its first offer. */
static void found(struct app *a, const struct offer *v, size_t n, const char *err,
		  struct create_ui *cu)
{
	if (err) {
		app_toast(a, ROLE_ERROR, 15, "launch: %s (nothing rented)", err);
		return;
	}
	if (n == 0) {
		app_toast(a, ROLE_ERROR, 20, "launch: no offer matches %s (nothing rented)",
			  pending_line);
		return;
	}
	if (create_form_ui_is_open(cu)) { /* a form typed meanwhile is not thrown away */
		app_toast(a, ROLE_WARNING, 15, "launch: the create form is open: nothing rented "
					       "(close it, then :launch again)");
		return;
	}
	const struct offer *o = &v[0];
	struct create_req *r = xcalloc(1, sizeof *r); /* large */
	char e[300];
	if (!launch_req(&pending, o->id, o->disk_space, r, e, sizeof e)) {
		app_toast(a, ROLE_ERROR, 15, "%s (nothing rented)", e);
		free(r);
		return;
	}
	char *geo = util_sanitize(o->geolocation && *o->geolocation ? o->geolocation : "-");
	char rel[32], lead[400];
	offers_fmt_reliability(rel, sizeof rel, o->reliability);
	snprintf(lead, sizeof lead,
		 "Launch %dx %s: the first of %zu offer%s (-o %s): machine %ld in %s, "
		 "reliability %s.", pending.num_gpus, pending.gpu_name, n, n == 1 ? "" : "s",
		 pending.order, o->machine_id, geo, rel);
	free(geo);
	create_form_ui_launch(a, cu, o, r, lead);
	free(r);
}

static void launch_args_run(struct app *a, enum action act, const char *args)
{
	(void)act;
	char err[400];
	struct launch_args la;
	if (!launch_parse(args, &la, err, sizeof err)) {
		app_toast(a, ROLE_ERROR, 20, "%s (nothing sent)", err);
		return;
	}
	char line[sizeof pending_line];
	launch_query_line(&la, line, sizeof line);
	if (pane_offers_search_for(a, line, found)) { /* answered later, never from inside */
		pending = la;
		util_strlcpy(pending_line, line, sizeof pending_line);
		app_toast(a, ROLE_PENDING, 0, "launch: searching %s", pending_line);
	} else
		app_toast(a, ROLE_ERROR, 15, "launch: the search was not sent (the offers view "
					     "says why); nothing rented");
}

/* `:launch` alone: what it takes. */
static void launch_run(struct app *a, enum action act)
{
	launch_args_run(a, act, "");
}

static const struct action_def launch_def = {
	"launch", "rent in one line, as the CLI's launch instance: :launch -g GPU_NAME -n NUM_GPUS "
		  "(-i IMAGE | --template HASH) [-r REGION] [-d GB] [--label L] [-o ORDER]; the "
		  "first offer found is confirmed with its price",
	NULL, AF_GLOBAL | AF_MUTATES, NULL, launch_run,
};

void launch_keys(struct keymap *km, int ctx)
{
	(void)km;
	enum action l = keymap_action_register(&launch_def);
	action_set_args(l, launch_args_run);
	keymap_action_allow(l, ctx);
}
