/* api_offers.h: renting, below the UI.  The create request (struct
 * create_req, what a JOB_CREATE carries) and its body; the create form's
 * fields as typed, their validation (one message per field, for the form to
 * show beside it) and their conversion into a create_req; the launch modes
 * and the runtype strings the official CLI sends; the CLI's "-e K=V -p H:C"
 * env format both ways; onstart scripts over the service's 4,048 characters
 * (gzip + base64 behind a one-line decoder); and the template calls
 * (search filters, create, edit by hash_id, delete by id) with their
 * answers.  Pure: no I/O; any thread; results are the caller's. */
#ifndef RENTOP_API_OFFERS_H
#define RENTOP_API_OFFERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "api/api_volumes.h"

#define CREATE_IMAGE_MAX 255
#define CREATE_HASH_MAX 127
#define CREATE_LABEL_MAX 1024     /* characters, SPEC */
#define CREATE_ONSTART_MAX 4048   /* characters on the wire, SPEC */
#define CREATE_ENV_MAX 4096       /* bytes of the flag string */
#define CREATE_ARGS_MAX 2048
#define CREATE_LOGIN_MAX 512
#define CREATE_DISK_DEFAULT 8.0   /* GB, SPEC */
#define CREATE_BID_MIN 0.001      /* $/hour, SPEC */
#define CREATE_BID_MAX 128.0     /* docs: create_instance.yaml, price maximum */

/* What a create sends: PUT /api/v0/asks/{offer_id}/.  Plain data (copied by
 * value into a job); every string NUL-terminated, "" = not sent. */
struct create_req {
	long offer_id;
	char image[CREATE_IMAGE_MAX + 1];
	char template_hash_id[CREATE_HASH_MAX + 1];
	char label[CREATE_LABEL_MAX * 4 + 1];   /* UTF-8 */
	double disk;                            /* GB, 0 = service default (8) */
	char runtype[48];                       /* wire string, "" = not sent */
	double price;                           /* $/hour bid; 0 = on-demand */
	char onstart[CREATE_ONSTART_MAX + 1];   /* as sent (encoded when it was longer) */
	bool cancel_unavail;
	bool start_stopped;                     /* target_state "stopped" */
	char env[CREATE_ENV_MAX + 1];           /* "-e K=V -p 8080:8080", validated */
	char args_str[CREATE_ARGS_MAX + 1];     /* only with runtype args */
	char image_login[CREATE_LOGIN_MAX + 1]; /* SECRET: "-u USER -p TOKEN REGISTRY" */
	struct create_vol vol;                  /* volume_info (api_volumes.h); mode NONE: not sent */
};

/* The body of the create (env parsed into the object form); NULL when the
 * env string does not parse (api_create_env_parse says why). */
json_t *api_offers_create_body(const struct create_req *r);

/* ---- launch modes -------------------------------------------------------- */

enum create_launch {
	LAUNCH_SSH,            /* ssh through the service's proxy */
	LAUNCH_SSH_DIRECT,     /* direct ssh (plus the proxy) */
	LAUNCH_JUPYTER,        /* jupyter and ssh through the proxy */
	LAUNCH_JUPYTER_DIRECT, /* direct jupyter and ssh (plus the proxy) */
	LAUNCH_ARGS,           /* the image's entrypoint, args_str as its arguments */
	LAUNCH__COUNT
};
/* The runtype string the official CLI sends: "ssh_proxy",
 * "ssh_direc ssh_proxy", "jupyter_proxy ssh_proxy",
 * "jupyter_direc ssh_direc ssh_proxy", "args". */
const char *api_create_launch_runtype(enum create_launch m);
/* "ssh", "ssh direct", "jupyter", "jupyter direct", "entrypoint/args". */
const char *api_create_launch_name(enum create_launch m);
/* An instance's image_runtype (either spelling, any order; the spec's
 * aliases too) as a launch mode; false when unknown or empty. */
bool api_create_launch_from_runtype(const char *runtype, enum create_launch *m);
/* A template's runtype ("ssh", "jupyter", "args") and direct flags. */
enum create_launch api_create_launch_from_template(const char *runtype, bool ssh_direct,
					       bool jup_direct);

/* ---- env ------------------------------------------------------------------ */

/* The CLI's env string ("-e K=V -e 'A=b c' -p 8080:8080 -p 53:53/udp
 * -h host") as the object of the create body: -e gives K: V, -p gives
 * "-p H:C": "1", -h gives "-h": host.  Values may be quoted with ' or ".
 * Unlike the CLI (which stops silently at the first token it does not
 * understand), any bad token is an error: NULL, *errpos its byte offset,
 * err a message naming it (env values are secrets: never quoted). */
json_t *api_create_env_parse(const char *flags, char *err, size_t errn, int *errpos);
/* The other way: an env object, or an instance's extra_env list of
 * [name, value] pairs, as a flag string (values quoted when needed). */
char *api_create_env_format(const json_t *env);

/* ---- onstart --------------------------------------------------------------- */

/* The onstart string to send for script: itself when it fits in
 * CREATE_ONSTART_MAX characters, else a line that decodes and runs it:
 * echo <base64 of gzip> | base64 -d | gunzip | bash  (coreutils and gzip
 * in the image; the official CLI sends long scripts as they are, and the
 * service refuses them).  Returns the malloc'd wire string, or NULL with
 * *wire_len set to the encoded length when even that is too long. */
char *api_create_onstart_encode(const char *script, size_t *wire_len);
/* The script inside an onstart made by api_create_onstart_encode (malloc'd), or
 * NULL when wire is not one (then it is the script itself). */
char *api_create_onstart_decode(const char *wire);

/* ---- the create form -------------------------------------------------------- */

enum create_field {
	CF_IMAGE,
	CF_TEMPLATE,
	CF_DISK,
	CF_LABEL,
	CF_LAUNCH,
	CF_ENV,
	CF_ONSTART,
	CF_ARGS,
	CF_PRICE,
	CF_LOGIN,
	CF_VOLUME,
	CF__COUNT
};

/* What the operator typed (strings may be NULL = empty). */
struct create_form {
	const char *image;
	const char *template_hash_id;
	double disk;                /* GB; 0 = default (8, or the template's) */
	const char *label;
	enum create_launch launch;
	bool launch_from_template;  /* send no runtype: the template's applies */
	const char *env;            /* flag string */
	const char *onstart;        /* the script, any length */
	const char *args_str;
	bool start_stopped;
	double price;               /* $/hour; bid offers only */
	const char *image_login;    /* SECRET */
	bool cancel_unavail;
	struct create_vol vol;      /* a volume made or linked with it (mode NONE: none) */
};

/* What the offer allows. */
struct create_limits {
	bool bid;                   /* an interruptible offer: a price is required */
	double min_bid;             /* $/hour, NAN when unknown */
	double max_disk;            /* GB (the offer's disk_space), NAN when unknown */
};

struct create_errors {
	int count;
	char msg[CF__COUNT][200];   /* "" = the field is valid */
};

/* Check every field; the messages name the field's problem and never
 * contain a secret (env values, the registry token).  True when all valid. */
bool api_create_validate(const struct create_form *f, const struct create_limits *lim,
		     struct create_errors *errs);
/* Validate, then fill *r (onstart encoded when long).  False with errs. */
bool api_create_form_to_req(const struct create_form *f, const struct create_limits *lim,
			long offer_id, struct create_req *r, struct create_errors *errs);

/* A request as a job receives it (any thread may have filled it): every
 * string terminated, an image or template, disk >= 0, a price 0 or within
 * the bid range, env that parses, onstart within the wire limit, args only
 * with runtype args.  False with the reason in why (no secret in it). */
bool api_create_req_valid(const struct create_req *r, char *why, size_t n);

/* ---- templates ---------------------------------------------------------------- */

enum template_scope {
	TPL_OWN,          /* creator_id eq the operator's user id */
	TPL_RECOMMENDED,  /* recommended eq true */
};
/* The select_filters object of a template search (new reference). */
json_t *api_templates_filters(enum template_scope scope, long user_id);
struct query_error;
/* The template search of query, in the CLI's query language as its `search
 * templates` takes it ("name=PyTorch recommended=true", no default
 * filters): GET /api/v0/template/?select_filters=<the parsed filters>.
 * The one path of the templates view (`:templates QUERY`, `/`) and of
 * `--dump templates --query Q`.  False (nothing built; *out untouched)
 * with the parser's message, its column included, in *err. */
bool api_templates_query_call(const struct config *c, const char *query, struct api_call *out,
			  struct query_error *err);

/* A template as the form edits it. */
struct template_req {
	const char *name, *image, *tag, *desc;
	const char *env;             /* flag string */
	const char *onstart;
	const char *args_str;
	enum create_launch launch;
	double recommended_disk_space; /* GB, 0 = not sent */
	const char *login_repo, *login_user;
	const char *login_pass;      /* SECRET; NULL/"" = unchanged (edit) or none */
	bool private_;
};
/* Check name, image, env, launch/args and the registry fields; messages
 * never contain the password.  True when valid (err untouched). */
bool api_template_validate(const struct template_req *t, char *err, size_t errn);
/* The same, and *field (when not NULL and invalid) names the field the
 * message is about: "name", "image", "tag", "launch", "args", "disk",
 * "onstart", "login_repo" or "env" (the template form's field names). */
bool api_template_validate_at(const struct template_req *t, char *err, size_t errn,
			  const char **field);
/* POST /api/v0/template/ with every field (registry fields "" when unused). */
struct api_call api_template_create(const struct config *c, const struct template_req *t);
/* PUT /api/v0/template/ {"hash_id", only the fields where edited differs
 * from old}; NULL body fields mean nothing changed (*changed = 0). */
struct api_call api_template_edit(const struct config *c, const char *hash_id,
				  const struct template_req *old,
				  const struct template_req *edited, int *changed);
/* DELETE /api/v0/template/ {"template_id": id}. */
struct api_call api_template_delete(const struct config *c, long template_id);
/* The answer of create or edit: the template's id and (new) hash_id
 * (malloc'd).  False when the answer has no template. */
bool api_template_result(const json_t *root, long *id, char **hash_id);

#endif
