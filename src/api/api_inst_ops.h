/* api_inst_ops.h: request builders and decoders for what one does with an
 * instance in place (issue 23): execute, the service's limited command
 * (PUT /api/v0/instances/command/{id}/, docs execute.yaml), whose output is
 * then fetched from the answer's result_url with no auth (the instance log
 * calls' api_instance_logs_fetch, api_serverless.h).  No I/O.  Pure; any
 * thread; results are the caller's. */
#ifndef RENTOP_API_INST_OPS_H
#define RENTOP_API_INST_OPS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"

struct config;

#define API_EXEC_MAX 512 /* characters of a command (the service refuses more) */

/* Is cmd one the service runs: ls, du or rm with arguments, at most
 * API_EXEC_MAX characters, no shell syntax (; & | $ < > ( ) `), no control
 * character?  False with why in err. */
bool api_exec_check(const char *cmd, char *err, size_t n);
/* Does cmd remove files (its first word is rm)?  It is then confirmed. */
bool api_exec_removes(const char *cmd);
/* PUT /api/v0/instances/command/{id}/ {"command": cmd} (EP_EXECUTE). */
struct api_call api_inst_execute(const struct config *c, long id, const char *cmd);

/* The answer: where the output will be and the container path prefix its
 * paths carry (the CLI strips it). */
struct exec_answer {
	char *result_url;     /* malloc'd; an http(s) URL without blanks */
	char *writeable_path; /* malloc'd, sanitised; "" when not sent */
};
/* The execute answer's fields: NULL with a protocol error in e when it has
 * no usable result_url (a malloc'd struct exec_answer otherwise). */
void *api_exec_answer(const json_t *root, struct api_error *e);
void api_exec_answer_free(void *v);
/* text with every occurrence of prefix taken out (the CLI's rule for the
 * output's paths); prefix "" or NULL: a copy.  Malloc'd. */
char *api_exec_strip(const char *text, const char *prefix);

/* PUT /api/v0/instances/recycle/{id}/ {} (EP_RECYCLE): the container
 * destroyed and created again on the same machine, the rental kept. */
struct api_call api_inst_recycle(const struct config *c, long id);
/* PUT /api/v0/instances/update_template/{id}/ {"id", "template_id" (when
 * > 0), "template_hash_id"} (EP_UPDATE_TEMPLATE), the CLI's update
 * instance: the instance recreated from that template. */
struct api_call api_inst_update_template(const struct config *c, long id, long template_id,
					 const char *template_hash_id);

/* ---- copy (the CLI's copy, cancel copy) ---------------------------------- */

#define API_COPY_PATH_MAX 1024

/* One side of a copy as the CLI writes it: `ID:/path` or `C.ID:/path` (an
 * instance), `V.ID:/path` (a volume, as a source), `local:path` or a path
 * with no colon (this machine), a bare `ID` (the instance's "/"). */
enum copy_kind { COPY_LOCAL, COPY_INST, COPY_VOL };
struct copy_loc {
	enum copy_kind kind;
	long id;                           /* COPY_INST, COPY_VOL */
	char path[API_COPY_PATH_MAX + 1];  /* not empty, no control character */
};
/* Parse one side; false with why in err (a cloud location such as s3.101:
 * or drive: is refused: the service's cloud copy is not rentop's). */
bool api_copy_parse(const char *text, struct copy_loc *out, char *err, size_t n);
/* `SRC DST` (two words): both parsed, at most one side local, a volume
 * only as a source of a copy into an instance; false with why in err. */
bool api_copy_args(const char *args, struct copy_loc *src, struct copy_loc *dst, char *err,
		   size_t n);
/* The side as written back ("12:/workspace/", "V.3:/data", "local:out"). */
void api_copy_loc_text(const struct copy_loc *l, char *buf, size_t n);
/* PUT /api/v0/commands/copy_direct/ {"client_id": "me", "src_id", "dst_id",
 * "src_path", "dst_path"} (EP_COPY): a copy between two remote sides. */
struct api_call api_inst_copy(const struct config *c, const struct copy_loc *src,
			      const struct copy_loc *dst);
/* DELETE /api/v0/commands/copy_direct/ {"client_id": "me", "dst_id"}
 * (EP_COPY): every copy into instance dst stops. */
struct api_call api_inst_copy_cancel(const struct config *c, long dst);

/* Where a copy or a snapshot is, as the instance's status_msg says it (the
 * service's "instance status bar"): "Remote copy in progress: ...",
 * "Remote copy finished|failed|canceled: ...", "Snapshot: ...", "Snapshot
 * pushed ...", "Snapshot failed: ...". */
enum job_phase { JP_WAITING, JP_RUNNING, JP_DONE, JP_FAILED, JP_CANCELED };
enum job_phase api_job_phase(bool snapshot, const char *status_msg);
/* The phase after a new status_msg, given the phase before and the message
 * the instance showed when the job was sent (at_send, NULL: none): an end
 * stays an end; an ending message still equal to at_send is an earlier
 * job's (still waiting); a message about something else keeps the phase. */
enum job_phase api_job_track(bool snapshot, const char *status_msg, const char *at_send,
			     enum job_phase before);
const char *api_job_phase_name(enum job_phase p); /* "waiting", "running", "done", ... */

/* ---- take_snapshot --------------------------------------------------------- */

/* Is repo a repository name to push to (not empty, no blank or control
 * character, at most 255) and registry a host (empty: docker.io)?  False
 * with why in err (never echoing a secret: none is checked here). */
bool api_snapshot_check(const char *registry, const char *repo, char *err, size_t n);
/* POST /api/v0/instances/take_snapshot/{id}/ {"id", "container_registry"
 * ("" -> "docker.io"), "personal_repo", "docker_login_user",
 * "docker_login_pass", "pause": "true"|"false"} (EP_SNAPSHOT), the CLI's
 * take snapshot.  The body holds the password: api_call_free wipes it. */
struct api_call api_inst_snapshot(const struct config *c, long id, const char *registry,
				  const char *repo, const char *user, const char *pass, bool pause);

/* ---- per-instance SSH keys --------------------------------------------------- */

struct ssh_key_rec;
/* GET /api/v0/instances/{id}/ssh/ (EP_INST_SSH). */
struct api_call api_inst_ssh_list(const struct config *c, long id);
/* Its answer {"success", "ssh_keys"}: the keys as a JSON text (the docs),
 * or a list.  A malloc'd struct inst_keys, NULL with a protocol error. */
struct inst_keys {
	struct ssh_key_rec *v;
	size_t n;
};
void *api_inst_ssh_answer(const json_t *root, struct api_error *e);
void api_inst_ssh_answer_free(void *v);
/* POST /api/v0/instances/{id}/ssh/ {"ssh_key": line} (EP_INST_SSH_WRITE;
 * validate first with sshkey_parse). */
struct api_call api_inst_ssh_attach(const struct config *c, long id, const char *line);
/* DELETE /api/v0/instances/{id}/ssh/{key}/ (EP_INST_SSH_WRITE). */
struct api_call api_inst_ssh_detach(const struct config *c, long id, long key);

#endif
