/* api_inst_ops.c: execute's builder and decoders (api_inst_ops.h). */
#include "api/api_inst_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/api_account.h"
#include "api/api_serverless.h"
#include "base/config.h"
#include "base/util.h"
#include "base/xmalloc.h"

bool api_exec_check(const char *cmd, char *err, size_t n)
{
	size_t len = strlen(cmd);
	size_t w = strcspn(cmd, " \t");
	if (!len || w == 0) {
		snprintf(err, n, "no command: ls, du or rm with their arguments");
		return false;
	}
	if (len > API_EXEC_MAX) {
		snprintf(err, n, "the command is %zu characters long: at most %d", len, API_EXEC_MAX);
		return false;
	}
	for (const char *p = cmd; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f) {
			snprintf(err, n, "the command has a control character");
			return false;
		}
		if (strchr(";&|$<>()`", c)) {
			snprintf(err, n, "the service refuses shell syntax ('%c')", c);
			return false;
		}
	}
	if (!((w == 2 && (!strncmp(cmd, "ls", 2) || !strncmp(cmd, "du", 2) || !strncmp(cmd, "rm", 2))))) {
		snprintf(err, n, "the service runs only ls, du and rm, not \"%.*s\"", (int)(w > 40 ? 40 : w),
			 cmd);
		return false;
	}
	return true;
}

bool api_exec_removes(const char *cmd)
{
	return !strncmp(cmd, "rm", 2) && (cmd[2] == ' ' || cmd[2] == '\t' || cmd[2] == '\0');
}

struct api_call api_inst_execute(const struct config *c, long id, const char *cmd)
{
	return api_call_make(EP_EXECUTE, "PUT",
			     xasprintf("%s/api/v0/instances/command/%ld/", c->base_url, id),
			     json_pack("{s:s}", "command", cmd));
}

void *api_exec_answer(const json_t *root, struct api_error *e)
{
	char *url = api_instance_logs_url(root);
	if (!url) {
		apierr_protocol(e, 200, "the answer has no result_url");
		return NULL;
	}
	struct exec_answer *a = xcalloc(1, sizeof *a);
	a->result_url = url;
	const json_t *wp = json_object_get(root, "writeable_path");
	a->writeable_path = json_is_string(wp) ? util_sanitize(json_string_value(wp)) : xstrdup("");
	return a;
}

void api_exec_answer_free(void *v)
{
	struct exec_answer *a = v;
	if (!a)
		return;
	free(a->result_url);
	free(a->writeable_path);
	free(a);
}

char *api_exec_strip(const char *text, const char *prefix)
{
	size_t pl = prefix ? strlen(prefix) : 0, tl = strlen(text), o = 0;
	char *out = xmalloc(tl + 1);
	for (size_t i = 0; i < tl;) {
		if (pl && !strncmp(text + i, prefix, pl)) {
			i += pl;
			continue;
		}
		out[o++] = text[i++];
	}
	out[o] = '\0';
	return out;
}

struct api_call api_inst_recycle(const struct config *c, long id)
{
	return api_call_make(EP_RECYCLE, "PUT",
			     xasprintf("%s/api/v0/instances/recycle/%ld/", c->base_url, id),
			     json_object());
}

struct api_call api_inst_update_template(const struct config *c, long id, long template_id,
					 const char *template_hash_id)
{
	json_t *b = json_pack("{s:I, s:s}", "id", (json_int_t)id, "template_hash_id", template_hash_id);
	if (template_id > 0)
		json_object_set_new(b, "template_id", json_integer(template_id));
	return api_call_make(EP_UPDATE_TEMPLATE, "PUT",
			     xasprintf("%s/api/v0/instances/update_template/%ld/", c->base_url, id), b);
}

/* ---- copy ------------------------------------------------------------------ */

static bool copy_path_ok(const char *p, char *err, size_t n)
{
	if (!*p) {
		snprintf(err, n, "an empty path");
		return false;
	}
	if (strlen(p) > API_COPY_PATH_MAX) {
		snprintf(err, n, "a path longer than %d characters", API_COPY_PATH_MAX);
		return false;
	}
	for (const char *q = p; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f) {
			snprintf(err, n, "a path with a control character");
			return false;
		}
	return true;
}

/* A whole decimal id, > 0, from s[0..len). */
static bool copy_id(const char *s, size_t len, long *id)
{
	if (!len || len > 18)
		return false;
	long v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*id = v;
	return v > 0;
}

bool api_copy_parse(const char *text, struct copy_loc *out, char *err, size_t n)
{
	memset(out, 0, sizeof *out);
	const char *colon = strchr(text, ':');
	const char *path = text;
	out->kind = COPY_LOCAL;
	if (!colon) {
		if (copy_id(text, strlen(text), &out->id)) { /* a bare id: its "/" */
			out->kind = COPY_INST;
			path = "/";
		}
	} else {
		size_t pl = (size_t)(colon - text);
		path = colon + 1;
		if (pl == 5 && !strncmp(text, "local", 5)) {
			out->kind = COPY_LOCAL;
		} else if (copy_id(text, pl, &out->id)) {
			out->kind = COPY_INST;
		} else if (pl > 2 && (text[0] == 'C' || text[0] == 'V') && text[1] == '.' &&
			   copy_id(text + 2, pl - 2, &out->id)) {
			out->kind = text[0] == 'C' ? COPY_INST : COPY_VOL;
		} else {
			snprintf(err, n, "\"%.*s\" is not an instance (ID: or C.ID:), a volume (V.ID:) or "
				 "local: (cloud copy is the CLI's, not rentop's)", (int)(pl > 40 ? 40 : pl), text);
			return false;
		}
	}
	if (!copy_path_ok(path, err, n))
		return false;
	util_strlcpy(out->path, path, sizeof out->path);
	return true;
}

bool api_copy_args(const char *args, struct copy_loc *src, struct copy_loc *dst, char *err,
		   size_t n)
{
	char a[2][API_COPY_PATH_MAX + 64];
	const char *p = args;
	int k = 0;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		size_t w = strcspn(p, " \t");
		if (k == 2 || w >= sizeof a[0]) {
			snprintf(err, n, k == 2 ? "takes two locations: SRC DST (paths without blanks)"
						: "a location is too long");
			return false;
		}
		memcpy(a[k], p, w);
		a[k++][w] = '\0';
		p += w;
	}
	if (k != 2) {
		snprintf(err, n, "takes two locations: SRC DST (ID:/path, V.ID:/path, local:path)");
		return false;
	}
	char why[200];
	if (!api_copy_parse(a[0], src, why, sizeof why)) {
		snprintf(err, n, "source: %s", why);
		return false;
	}
	if (!api_copy_parse(a[1], dst, why, sizeof why)) {
		snprintf(err, n, "destination: %s", why);
		return false;
	}
	if (src->kind == COPY_LOCAL && dst->kind == COPY_LOCAL) {
		snprintf(err, n, "both sides are local: one must be an instance (ID:/path)");
		return false;
	}
	if (dst->kind == COPY_VOL) {
		snprintf(err, n, "a volume is only a source: copy into an instance that mounts it");
		return false;
	}
	if (src->kind == COPY_VOL && dst->kind == COPY_LOCAL) {
		snprintf(err, n, "a volume copies to an instance, not to this machine");
		return false;
	}
	if (src->kind == COPY_INST && dst->kind == COPY_INST && src->id == dst->id &&
	    !strcmp(src->path, dst->path)) {
		snprintf(err, n, "source and destination are the same");
		return false;
	}
	return true;
}

void api_copy_loc_text(const struct copy_loc *l, char *buf, size_t n)
{
	switch (l->kind) {
	case COPY_LOCAL: snprintf(buf, n, "local:%s", l->path); break;
	case COPY_INST: snprintf(buf, n, "%ld:%s", l->id, l->path); break;
	case COPY_VOL: snprintf(buf, n, "V.%ld:%s", l->id, l->path); break;
	}
}

static json_t *copy_id_json(const struct copy_loc *l)
{
	switch (l->kind) {
	case COPY_LOCAL: return json_null();
	case COPY_INST: return json_sprintf("%ld", l->id);
	case COPY_VOL: return json_sprintf("V.%ld", l->id);
	}
	return json_null();
}

struct api_call api_inst_copy(const struct config *c, const struct copy_loc *src,
			      const struct copy_loc *dst)
{
	json_t *b = json_pack("{s:s, s:o, s:o, s:s, s:s}", "client_id", "me", "src_id", copy_id_json(src),
			      "dst_id", copy_id_json(dst), "src_path", src->path, "dst_path", dst->path);
	return api_call_make(EP_COPY, "PUT", xasprintf("%s/api/v0/commands/copy_direct/", c->base_url), b);
}

struct api_call api_inst_copy_cancel(const struct config *c, long dst)
{
	return api_call_make(EP_COPY, "DELETE", xasprintf("%s/api/v0/commands/copy_direct/", c->base_url),
			     json_pack("{s:s, s:o}", "client_id", "me", "dst_id", json_sprintf("%ld", dst)));
}

static bool starts(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

enum job_phase api_job_phase(bool snapshot, const char *m)
{
	if (!m)
		return JP_WAITING;
	if (snapshot) {
		if (starts(m, "Snapshot pushed"))
			return JP_DONE;
		if (starts(m, "Snapshot failed"))
			return JP_FAILED;
		return starts(m, "Snapshot") ? JP_RUNNING : JP_WAITING;
	}
	if (starts(m, "Remote copy in progress"))
		return JP_RUNNING;
	if (starts(m, "Remote copy finished"))
		return JP_DONE;
	if (starts(m, "Remote copy failed"))
		return JP_FAILED;
	if (starts(m, "Remote copy canceled") || starts(m, "Remote copy cancelled"))
		return JP_CANCELED;
	return JP_WAITING;
}

enum job_phase api_job_track(bool snapshot, const char *m, const char *at_send,
			     enum job_phase before)
{
	if (before == JP_DONE || before == JP_FAILED || before == JP_CANCELED)
		return before;
	enum job_phase p = api_job_phase(snapshot, m);
	if (p == JP_WAITING)
		return before;
	bool ending = p != JP_RUNNING;
	if (ending && before == JP_WAITING && at_send && m && !strcmp(m, at_send))
		return JP_WAITING; /* the end of an earlier job, still shown */
	return p;
}

const char *api_job_phase_name(enum job_phase p)
{
	switch (p) {
	case JP_WAITING: return "waiting";
	case JP_RUNNING: return "running";
	case JP_DONE: return "done";
	case JP_FAILED: return "failed";
	case JP_CANCELED: return "canceled";
	}
	return "?";
}

/* ---- take_snapshot ------------------------------------------------------------ */

bool api_snapshot_check(const char *registry, const char *repo, char *err, size_t n)
{
	if (!repo || !*repo) {
		snprintf(err, n, "the repository to push to (user/name[:tag])");
		return false;
	}
	if (strlen(repo) > 255 || strlen(registry ? registry : "") > 255) {
		snprintf(err, n, "at most 255 characters");
		return false;
	}
	for (int k = 0; k < 2; k++)
		for (const char *p = k ? registry : repo; p && *p; p++)
			if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
				snprintf(err, n, "the %s has a blank or a control character",
					 k ? "registry" : "repository");
				return false;
			}
	return true;
}

struct api_call api_inst_snapshot(const struct config *c, long id, const char *registry,
				  const char *repo, const char *user, const char *pass, bool pause)
{
	json_t *b = json_pack("{s:I, s:s, s:s, s:s, s:s, s:s}", "id", (json_int_t)id, "container_registry",
			      registry && *registry ? registry : "docker.io", "personal_repo", repo,
			      "docker_login_user", user, "docker_login_pass", pass, "pause",
			      pause ? "true" : "false");
	return api_call_make(EP_SNAPSHOT, "POST",
			     xasprintf("%s/api/v0/instances/take_snapshot/%ld/", c->base_url, id), b);
}

/* ---- per-instance SSH keys ----------------------------------------------------- */

struct api_call api_inst_ssh_list(const struct config *c, long id)
{
	return api_call_make(EP_INST_SSH, "GET", xasprintf("%s/api/v0/instances/%ld/ssh/", c->base_url, id),
			     NULL);
}

void *api_inst_ssh_answer(const json_t *root, struct api_error *e)
{
	struct inst_keys *k = xcalloc(1, sizeof *k);
	const json_t *sk = json_is_object(root) ? json_object_get(root, "ssh_keys") : NULL;
	bool ok;
	if (json_is_string(sk)) { /* the docs: a JSON text of the list */
		json_error_t je;
		json_t *list = json_loads(json_string_value(sk), 0, &je);
		ok = list && api_ssh_keys(list, &k->v, &k->n);
		json_decref(list);
	} else {
		ok = api_ssh_keys(root, &k->v, &k->n);
	}
	if (!ok) {
		api_inst_ssh_answer_free(k);
		apierr_protocol(e, 200, "the instance's SSH keys are not a list");
		return NULL;
	}
	return k;
}

void api_inst_ssh_answer_free(void *v)
{
	struct inst_keys *k = v;
	if (!k)
		return;
	api_ssh_keys_free(k->v, k->n);
	free(k);
}

struct api_call api_inst_ssh_attach(const struct config *c, long id, const char *line)
{
	const char *p = line ? line : "";
	while (*p == ' ' || *p == '\t')
		p++;
	char *k = xstrndup(p, strcspn(p, "\r\n"));
	for (size_t l = strlen(k); l && (k[l - 1] == ' ' || k[l - 1] == '\t'); l--)
		k[l - 1] = '\0';
	struct api_call call = api_call_make(EP_INST_SSH_WRITE, "POST",
					     xasprintf("%s/api/v0/instances/%ld/ssh/", c->base_url, id),
					     json_pack("{s:s}", "ssh_key", k));
	free(k);
	return call;
}

struct api_call api_inst_ssh_detach(const struct config *c, long id, long key)
{
	return api_call_make(EP_INST_SSH_WRITE, "DELETE",
			     xasprintf("%s/api/v0/instances/%ld/ssh/%ld/", c->base_url, id, key), NULL);
}
