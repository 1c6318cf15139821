/* api_inst_ops.c: execute's builder and decoders (api_inst_ops.h). */
#include "api/api_inst_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
