/* launch.h: `:launch`, the official CLI's `launch instance` in one line:
 *   -g/--gpu-name NAME   the GPU model (spaces as underscores: RTX_4090)
 *   -n/--num-gpus N      how many (the CLI's choices: 1 2 4 8 12 14)
 *   -i/--image IMAGE     the docker image, or
 *   --template HASH      a template's hash (--template_hash, --template-hash)
 *   -r/--region REGION   North_America, South_America, Europe, Asia,
 *                        Oceania, Africa, or country codes [US,CA]
 *   -d/--disk GB         disk to rent (the CLI's default 16)
 *   --label TEXT         the new instance's label
 *   -o/--order ORDER     the CLI's order ("score-": best score first)
 * (--flag=value too).  What it searches: the offers view's search line
 * (query.h: the CLI's default filters, on-demand, the order, the disk
 * priced); what it rents: the first offer of the answer, the CLI's pick,
 * with the create request made here.  Pure; any thread. */
#ifndef RENTOP_LAUNCH_H
#define RENTOP_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api_offers.h"

#define LAUNCH_DISK_DEFAULT 16.0 /* GB: the CLI's launch default */

struct launch_args {
	char gpu_name[64];                       /* spaces as underscores */
	int num_gpus;
	char image[CREATE_IMAGE_MAX + 1];        /* "" = the template's */
	char template_hash[CREATE_HASH_MAX + 1]; /* "" = none */
	char region[400];                        /* "[US,CA]", "" = anywhere */
	double disk;                             /* GB */
	char label[256];
	char order[64];                          /* "score-" unless -o */
};

/* The usage line the errors end with. */
extern const char launch_usage[];

/* Parse the arguments of `:launch` into *la (zeroed first).  False with
 * the reason in err (the flag and what is wrong with it: an unknown flag, a
 * missing value, -g or -n missing, neither image nor template, a bad
 * number, an unknown region). */
bool launch_parse(const char *line, struct launch_args *la, char *err, size_t n);
/* The offer search of la as the offers view's search line (query.h's
 * query_cmd_parse takes it): "gpu_name=RTX_4090 num_gpus=1 [geolocation in
 * [US,CA]] disk_space>=16 -o score- --storage 16".  Into buf; returns buf. */
char *launch_query_line(const struct launch_args *la, char *buf, size_t n);
/* The create request of la on offer offer_id (an on-demand offer of
 * max_disk GB, NAN when unknown): image and/or template (a template's own
 * launch mode then, no runtype sent; else ssh), disk, label.  False with
 * the validator's first message in err. */
bool launch_req(const struct launch_args *la, long offer_id, double max_disk,
		struct create_req *r, char *err, size_t n);

#endif
