/* modal_call.c: see modal_call.h. */
#include "widgets/modal_call.h"

#include "api/api.h"
#include "base/util.h"

int modal_call_send(struct modal_call *mc, struct jobs *j, struct job_call *c, struct form *fm,
		    struct dialog *dlg)
{
	c->action = true;
	int id = 0, rc = j ? jobs_call(j, c, &id) : JOBS_EINVAL;
	if (!j)
		api_call_free(&c->call);
	if (rc != JOBS_OK) {
		if (fm)
			form_set_answer(fm, NULL, jobs_strerror(rc));
		else if (dlg)
			util_strlcpy(dlg->error, jobs_strerror(rc), sizeof dlg->error);
		return rc;
	}
	modal_call_wait(mc, id, fm, dlg);
	return JOBS_OK;
}

void modal_call_wait(struct modal_call *mc, int id, struct form *fm, struct dialog *dlg)
{
	mc->id = id;
	if (fm)
		fm->waiting = true;
	else if (dlg)
		dlg->waiting = true;
}

bool modal_call_pending(const struct modal_call *mc)
{
	return mc->id != 0;
}

bool modal_call_take(struct modal_call *mc, struct model *m, struct call_result *r)
{
	if (!mc->id || !model_take_result(m, mc->id, r))
		return false;
	mc->id = 0;
	return true;
}

void modal_call_drop(struct modal_call *mc, struct model *m)
{
	if (mc->id)
		model_drop_result(m, mc->id);
	mc->id = 0;
}

void modal_call_refused(struct form *fm, struct dialog *dlg, const char *msg)
{
	if (fm) {
		fm->waiting = false;
		form_set_answer(fm, NULL, msg);
	} else if (dlg) {
		dlg->waiting = false;
		util_strlcpy(dlg->error, msg, sizeof dlg->error);
	}
}
