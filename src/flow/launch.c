/* launch.c: `:launch` flags -> the offer search line and the create
 * request (launch.h). */
#include "flow/launch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/argv.h"
#include "base/util.h"

const char launch_usage[] =
	"usage: :launch -g GPU_NAME -n NUM_GPUS (-i IMAGE | --template HASH) [-r REGION] "
	"[-d DISK_GB] [--label TEXT] [-o ORDER]";

/* The CLI's regions, as country codes (its REGIONS table's facts). */
static const struct {
	const char *name, *codes;
} regions[] = {
	{ "North_America", "AG,BS,BB,BZ,CA,CR,CU,DM,DO,SV,GD,GT,HT,HN,JM,MX,NI,PA,KN,LC,VC,TT,US" },
	{ "South_America", "AR,BO,BR,CL,CO,EC,FK,GF,GY,PY,PE,SR,UY,VE" },
	{ "Europe", "AL,AD,AT,BY,BE,BA,BG,HR,CY,CZ,DK,EE,FI,FR,DE,GR,HU,IS,IE,IT,LV,LI,LT,LU,MT,MD,"
		    "MC,ME,NL,MK,NO,PL,PT,RO,RU,SM,RS,SK,SI,ES,SE,CH,UA,GB,VA,XK" },
	{ "Asia", "AF,AM,AZ,BH,BD,BT,BN,KH,CN,GE,IN,ID,IR,IQ,IL,JP,JO,KZ,KW,KG,LA,LB,MY,MV,MN,MM,NP,"
		  "KP,OM,PK,PH,QA,SA,SG,KR,LK,SY,TW,TJ,TH,TL,TR,TM,AE,UZ,VN,YE,HK,MO" },
	{ "Oceania", "AS,AU,CK,FJ,PF,GU,KI,MH,FM,NR,NC,NZ,NU,MP,PW,PG,PN,WS,SB,TK,TO,TV,VU,WF" },
	{ "Africa", "DZ,AO,BJ,BW,BF,BI,CV,CM,CF,TD,KM,CG,CD,CI,DJ,EG,GQ,ER,SZ,ET,GA,GM,GH,GN,GW,KE,LS,"
		    "LR,LY,MG,MW,ML,MR,MU,MA,MZ,NA,NE,NG,RW,ST,SN,SC,SL,SO,ZA,SS,SD,TZ,TG,TN,UG,ZM,ZW" },
};

static const int gpu_counts[] = { 1, 2, 4, 8, 12, 14 }; /* the CLI's choices */

/* A region as "[A,B]": a name of the table, or country codes ("US",
 * "US,CA", "[US, CA]").  False when neither. */
static bool region_codes(const char *in, char *out, size_t n)
{
	for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++)
		if (!strcasecmp(in, regions[i].name)) {
			snprintf(out, n, "[%s]", regions[i].codes);
			return true;
		}
	const char *p = in;
	size_t len = strlen(p);
	if (*p == '[') {
		if (len < 2 || p[len - 1] != ']')
			return false;
		p++;
		len -= 2;
	}
	char buf[400];
	size_t o = 0;
	buf[o++] = '[';
	int letters = 0;
	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? p[i] : ',';
		if (c == ' ')
			continue;
		if (c == ',') {
			if (letters != 2)
				return false;
			letters = 0;
			if (i < len)
				buf[o++] = ',';
		} else if (isalpha((unsigned char)c) && letters < 2 && o < sizeof buf - 3) {
			buf[o++] = (char)toupper((unsigned char)c);
			letters++;
		} else {
			return false;
		}
	}
	buf[o++] = ']';
	buf[o] = '\0';
	util_strlcpy(out, buf, n);
	return true;
}

/* A GPU name the query language carries as one word: letters, digits and
 * _ - . + / (spaces typed become underscores). */
static bool gpu_name_ok(char *s)
{
	if (!*s)
		return false;
	for (char *p = s; *p; p++) {
		if (*p == ' ')
			*p = '_';
		else if (!isalnum((unsigned char)*p) && !strchr("_-.+/", *p))
			return false;
	}
	return true;
}

/* An order in the CLI's syntax: fields of letters, digits and _, each
 * with an optional trailing + or -, separated by commas. */
static bool order_ok(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_+-,", *p))
			return false;
	return true;
}

static bool fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t n, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, n, "launch: %s; %s", msg, launch_usage);
	return false;
}

enum lflag { LF_GPU, LF_NUM, LF_IMAGE, LF_TEMPLATE, LF_REGION, LF_DISK, LF_LABEL, LF_ORDER };

static const struct {
	const char *s, *l, *l2;
	enum lflag f;
} flags[] = {
	{ "-g", "--gpu-name", "--gpu_name", LF_GPU },
	{ "-n", "--num-gpus", "--num_gpus", LF_NUM },
	{ "-i", "--image", NULL, LF_IMAGE },
	{ NULL, "--template", "--template_hash", LF_TEMPLATE },
	{ NULL, "--template-hash", NULL, LF_TEMPLATE },
	{ "-r", "--region", NULL, LF_REGION },
	{ "-d", "--disk", NULL, LF_DISK },
	{ NULL, "--label", NULL, LF_LABEL },
	{ "-o", "--order", NULL, LF_ORDER },
};

/* The flag named by word (its length nl: up to a '='), or -1. */
static int flag_of(const char *word, size_t nl)
{
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		const char *names[3] = { flags[i].s, flags[i].l, flags[i].l2 };
		for (int k = 0; k < 3; k++)
			if (names[k] && strlen(names[k]) == nl && !strncmp(names[k], word, nl))
				return (int)i;
	}
	return -1;
}

/* Set the flag's value: false with err. */
static bool set(struct launch_args *la, enum lflag f, const char *name, const char *v, char *err,
		size_t n)
{
	char *end;
	switch (f) {
	case LF_GPU:
		if (strlen(v) >= sizeof la->gpu_name)
			return fail(err, n, "%s: the GPU name is too long", name);
		util_strlcpy(la->gpu_name, v, sizeof la->gpu_name);
		if (!gpu_name_ok(la->gpu_name))
			return fail(err, n, "%s: a GPU name is letters, digits and _ (RTX_4090)", name);
		return true;
	case LF_NUM: {
		errno = 0;
		long k = strtol(v, &end, 10);
		for (size_t i = 0; !errno && *v && !*end && i < sizeof gpu_counts / sizeof *gpu_counts; i++)
			if (k == gpu_counts[i]) {
				la->num_gpus = (int)k;
				return true;
			}
		return fail(err, n, "%s: the number of GPUs is one of 1, 2, 4, 8, 12, 14", name);
	}
	case LF_IMAGE:
		if (!*v || strlen(v) > CREATE_IMAGE_MAX)
			return fail(err, n, "%s: an image name (pytorch/pytorch), at most 255 characters", name);
		util_strlcpy(la->image, v, sizeof la->image);
		return true;
	case LF_TEMPLATE:
		if (!*v || strlen(v) > CREATE_HASH_MAX)
			return fail(err, n, "%s: a template's hash (templates view, 9)", name);
		util_strlcpy(la->template_hash, v, sizeof la->template_hash);
		return true;
	case LF_REGION:
		if (!region_codes(v, la->region, sizeof la->region))
			return fail(err, n, "%s: a region is North_America, South_America, Europe, "
					    "Asia, Oceania, Africa or country codes like [US,CA]", name);
		return true;
	case LF_DISK: {
		errno = 0;
		double d = strtod(v, &end);
		if (errno || !*v || *end || !isfinite(d) || d <= 0 || d > 1e6)
			return fail(err, n, "%s: the disk is a number of GB above 0", name);
		la->disk = d;
		return true;
	}
	case LF_LABEL:
		if (strlen(v) >= sizeof la->label)
			return fail(err, n, "%s: the label is too long", name);
		util_strlcpy(la->label, v, sizeof la->label);
		return true;
	case LF_ORDER:
		if (strlen(v) >= sizeof la->order || !order_ok(v))
			return fail(err, n, "%s: an order is fields with + or - (score-, dph+)", name);
		util_strlcpy(la->order, v, sizeof la->order);
		return true;
	}
	return false;
}

bool launch_parse(const char *line, struct launch_args *la, char *err, size_t n)
{
	memset(la, 0, sizeof *la);
	la->disk = LAUNCH_DISK_DEFAULT;
	util_strlcpy(la->order, "score-", sizeof la->order);
	size_t argc = 0;
	char aerr[160];
	char **v = argv_split(line ? line : "", &argc, aerr, sizeof aerr);
	if (!v) {
		if (!line || strspn(line, " \t") == strlen(line))
			return fail(err, n, "%s", "-g GPU_NAME and -n NUM_GPUS are required");
		return fail(err, n, "%s", aerr);
	}
	bool ok = true;
	for (size_t i = 0; ok && i < argc; i++) {
		const char *w = v[i];
		size_t nl = strcspn(w, "=");
		bool inline_v = w[0] == '-' && w[1] == '-' && w[nl] == '=';
		int k = flag_of(w, inline_v ? nl : strlen(w));
		char name[40];
		snprintf(name, sizeof name, "%.*s", (int)(inline_v ? nl : strlen(w)), w);
		if (k < 0) {
			ok = w[0] == '-' ? fail(err, n, "unknown flag %s", name)
					: fail(err, n, "unexpected word %s", name);
			break;
		}
		const char *val;
		if (inline_v)
			val = w + nl + 1;
		else if (i + 1 < argc)
			val = v[++i];
		else {
			ok = fail(err, n, "%s needs a value", name);
			break;
		}
		ok = set(la, flags[k].f, name, val, err, n);
	}
	argv_free(v);
	if (!ok)
		return false;
	if (!la->gpu_name[0])
		return fail(err, n, "%s", "-g GPU_NAME is required");
	if (!la->num_gpus)
		return fail(err, n, "%s", "-n NUM_GPUS is required");
	if (!la->image[0] && !la->template_hash[0])
		return fail(err, n, "%s", "an image (-i) or a template (--template HASH) is required");
	return true;
}

char *launch_query_line(const struct launch_args *la, char *buf, size_t n)
{
	char geo[440] = "";
	if (la->region[0])
		snprintf(geo, sizeof geo, " geolocation in %s", la->region);
	snprintf(buf, n, "gpu_name=%s num_gpus=%d%s disk_space>=%g -o %s --storage %g", la->gpu_name,
		 la->num_gpus, geo, la->disk, la->order, la->disk);
	return buf;
}

bool launch_req(const struct launch_args *la, long offer_id, double max_disk,
		struct create_req *r, char *err, size_t n)
{
	struct create_form f;
	memset(&f, 0, sizeof f);
	f.image = la->image;
	f.template_hash_id = la->template_hash;
	f.disk = la->disk;
	f.label = la->label;
	f.launch = LAUNCH_SSH;
	f.launch_from_template = la->template_hash[0] != '\0'; /* as the CLI: no runtype */
	struct create_limits lim = { false, NAN, max_disk };
	struct create_errors errs;
	if (api_create_form_to_req(&f, &lim, offer_id, r, &errs))
		return true;
	for (int k = 0; k < CF__COUNT; k++)
		if (errs.msg[k][0]) {
			snprintf(err, n, "launch: %s", errs.msg[k]);
			return false;
		}
	snprintf(err, n, "launch: the request is not valid");
	return false;
}
