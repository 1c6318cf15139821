/* inst_ops.h: fixing an instance in place, sent as calls (jobs.h, at most
 * once): `:recycle [ID]` (the container destroyed and created again on the
 * same machine, the rental kept), confirmed by a dialog that says so and
 * starts on Cancel; a template update (the template picker's choice, also
 * confirmed).  Each call's end is taken by its request id
 * (inst_ops_results, on every snapshot) and said in a toast and the event
 * log.  UI thread only. */
#ifndef RENTOP_UI_INST_OPS_H
#define RENTOP_UI_INST_OPS_H

#include <stddef.h>

#include "keymap.h"

struct app;
struct instance;

/* Register the recycle action (`:recycle [ID]`; no key) and allow it in ctx. */
void inst_ops_keys(struct keymap *km, int ctx);
/* Why instance row (a struct instance) cannot be recycled (stopped,
 * unreachable, provisioning), into buf; NULL when it can.  Pure. */
const char *inst_ops_why_not_recycle(const void *row, char *buf, size_t n);
/* The recycle confirmation of x (starting on Cancel), or a toast saying
 * why it cannot be recycled (O's answer on an image failure). */
void inst_ops_recycle(struct app *a, const struct instance *x);
/* The confirmation (starting on Cancel) of updating instance id to
 * template t (picked in the template picker: pane_tplupd.c), then its call. */
struct template_rec;
void inst_ops_confirm_update(struct app *a, long id, const struct template_rec *t);
/* Take the ends of the calls sent here (by request id). */
void inst_ops_results(struct app *a);

#endif
