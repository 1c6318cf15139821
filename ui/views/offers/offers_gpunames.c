/* offers_gpunames.c: see offers_gpunames.h. */
#include "views/offers/offers_gpunames.h"

#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "app.h"
#include "base/log.h"
#include "flow/gpunames.h"
#include "poll/jobs.h"
#include "rules/query.h"
#include "state/model.h"

void offers_gpunames_want(struct app *a, struct offers_gpunames *o)
{
	if (o->g || o->asked || !a->jobs)
		return;
	struct job_call jc;
	memset(&jc, 0, sizeof jc);
	jc.call = api_gpu_names(a->cfg);
	jc.map = gpunames_from_json;
	jc.free_value = gpunames_free;
	snprintf(jc.what, sizeof jc.what, "GPU names");
	int id = 0;
	if (jobs_call(a->jobs, &jc, &id) != JOBS_OK)
		return; /* asked again by the next search or Tab */
	o->req = id;
	o->asked = true;
}

bool offers_gpunames_take(struct app *a, struct offers_gpunames *o)
{
	struct call_result r;
	if (!o->req || !model_take_result(a->m, o->req, &r))
		return false;
	o->req = 0;
	bool got = r.outcome == CALL_OK && r.value;
	if (got) {
		gpunames_free(o->g);
		o->g = r.value;
		r.value = NULL;
	} else {
		o->asked = false;
		log_msg("GPU names not read: %s", r.err.msg);
	}
	model_call_result_free(&r);
	return got;
}

bool offers_gpunames_note(const struct offers_gpunames *o, const struct query_cmd *qc, char *msg,
			  size_t n)
{
	if (n)
		msg[0] = '\0';
	if (!o->g)
		return false;
	struct query_error qe;
	json_t *body = query_cmd_body(qc, &qe);
	bool said = body && gpunames_check(o->g, body, msg, n);
	json_decref(body);
	return said;
}

void offers_gpunames_fini(struct app *a, struct offers_gpunames *o)
{
	if (o->req)
		model_drop_result(a->m, o->req);
	o->req = 0;
	gpunames_free(o->g);
	o->g = NULL;
}
