/* fuzz_json_map.c: libFuzzer target: any bytes, parsed as JSON, through every
 * json_map entry point.  Besides crashes and sanitizer reports it checks the
 * mapper's promises: strings never NULL and free of control characters, and
 * secret values never copied into field lists. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort unless s is a clean, non-NULL display string. */
static void check_str(const char *s)
{
	if (!s)
		abort();
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
			abort();
}

static void check_fields(const struct kv *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		check_str(f[i].key);
		check_str(f[i].value);
		if (i && strcmp(f[i - 1].key, f[i].key) > 0)
			abort();
		if (json_map_is_secret_key(f[i].key) && strcmp(f[i].value, "********") &&
		    strcmp(f[i].value, "null") && strcmp(f[i].value, "\"\""))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *root = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	if (!root)
		return 0;
	struct instance *v = NULL;
	size_t n = 0;
	char *tok = NULL;
	if (json_map_instances(root, &v, &n, &tok)) {
		for (size_t i = 0; i < n; i++) {
			const struct instance *x = &v[i];
			const char *strs[] = { x->label, x->actual_status, x->intended_status,
					       x->cur_state, x->next_state, x->status_msg,
					       x->gpu_name, x->image, x->runtype, x->ssh_host,
					       x->public_ip, x->geolocation, x->verification,
					       x->template_hash_id, x->template_name };
			for (size_t k = 0; k < sizeof strs / sizeof *strs; k++)
				check_str(strs[k]);
			if (x->ssh_port < 0 || x->ssh_port > 65535 || x->direct_ssh_port < 0 ||
			    x->direct_ssh_port > 65535 || (unsigned)x->state >= IS__COUNT)
				abort();
			check_fields(x->fields, x->nfields);
		}
	}
	instance_free_all(v, n);
	free(tok);

	struct user u;
	if (json_map_user(root, &u)) {
		check_str(u.email);
		check_fields(u.fields, u.nfields);
		free(u.email); free(u.username); free(u.fullname); free(u.tfa_status); free(u.ssh_key);
		instance_kv_free(u.fields, u.nfields);
	}
	struct workergroup *w = NULL;
	n = 0;
	json_map_workergroups(root, &w, &n);
	model_workergroups_free(w, n);
	struct endpoint *e = NULL;
	n = 0;
	json_map_endpoints(root, &e, &n);
	model_endpoints_free(e, n);
	struct offer *o = NULL;
	n = 0;
	json_map_offers(root, &o, &n);
	json_map_offers_free(o, n);
	struct template_rec *t = NULL;
	n = 0;
	json_map_templates(root, &t, &n);
	json_map_templates_free(t, n);
	json_decref(root);
	return 0;
}
