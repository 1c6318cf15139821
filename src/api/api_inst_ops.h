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

#endif
