/* acct.c: owns the account view's pure rules: the permission category
 * catalogue and the scope picker (both ways), E.164 validation, the 2FA
 * countdowns and the grouped base32 secret. */
#include "rules/acct.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cat_names[CAT__COUNT] = {
	[CAT_MISC] = "misc",
	[CAT_USER_READ] = "user_read",
	[CAT_USER_WRITE] = "user_write",
	[CAT_INSTANCE_READ] = "instance_read",
	[CAT_INSTANCE_WRITE] = "instance_write",
	[CAT_BILLING_READ] = "billing_read",
	[CAT_BILLING_WRITE] = "billing_write",
	[CAT_MACHINE_READ] = "machine_read",
	[CAT_MACHINE_WRITE] = "machine_write",
	[CAT_TEAM_READ] = "team_read",
	[CAT_TEAM_WRITE] = "team_write",
};

const char *acct_category_name(enum acct_category c)
{
	return (unsigned)c < CAT__COUNT ? cat_names[c] : "?";
}

int acct_category_from_name(const char *name)
{
	for (int i = 0; name && i < CAT__COUNT; i++)
		if (!strcmp(cat_names[i], name))
			return i;
	return -1;
}

const char *acct_scope_name(enum acct_scope s)
{
	switch (s) {
	case SCOPE_FULL:
		return "full access";
	case SCOPE_READ_ONLY:
		return "read-only";
	case SCOPE_INSTANCES:
		return "instances";
	case SCOPE_CUSTOM:
		return "custom";
	}
	return "?";
}

#define BIT(c) (1u << (c))
#define MASK_READ_ONLY (BIT(CAT_USER_READ) | BIT(CAT_INSTANCE_READ))
#define MASK_INSTANCES (BIT(CAT_INSTANCE_READ) | BIT(CAT_INSTANCE_WRITE) | BIT(CAT_MISC))

unsigned acct_scope_mask(enum acct_scope s, unsigned custom_mask)
{
	switch (s) {
	case SCOPE_FULL:
		return ACCT_CAT_ALL;
	case SCOPE_READ_ONLY:
		return MASK_READ_ONLY;
	case SCOPE_INSTANCES:
		return MASK_INSTANCES;
	case SCOPE_CUSTOM:
		return custom_mask & ACCT_CAT_ALL;
	}
	return 0;
}

json_t *acct_scope_permissions(enum acct_scope s, unsigned custom_mask)
{
	unsigned m = acct_scope_mask(s, custom_mask);
	if (!m)
		return NULL;
	json_t *api = json_object();
	for (int i = 0; i < CAT__COUNT; i++)
		if (m & BIT(i))
			json_object_set_new(api, cat_names[i], json_object());
	return json_pack("{s:o}", "api", api);
}

unsigned acct_rights_mask(const json_t *rights, int *unknown)
{
	if (unknown)
		*unknown = 0;
	if (!rights || json_is_null(rights) ||
	    (json_is_object(rights) && json_object_size(rights) == 0))
		return ACCT_CAT_ALL;
	if (json_is_array(rights)) { /* the docs' list of names */
		size_t i;
		json_t *it;
		unsigned m = 0;
		json_array_foreach(rights, i, it) {
			int c = json_is_string(it) ? acct_category_from_name(json_string_value(it)) : -1;
			if (c >= 0)
				m |= BIT(c);
			else if (unknown)
				(*unknown)++;
		}
		return m;
	}
	if (!json_is_object(rights)) {
		if (unknown)
			*unknown = 1; /* a value that grants nothing we can name */
		return 0;
	}
	const json_t *api = json_object_get(rights, "api");
	if (json_is_object(api))
		rights = api;
	unsigned m = 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)rights, k, v) {
		int c = acct_category_from_name(k);
		if (c >= 0)
			m |= BIT(c);
		else if (unknown)
			(*unknown)++;
	}
	return m;
}

unsigned acct_rights_mask_text(const char *rights_json, int *unknown)
{
	if (!rights_json || !*rights_json) {
		if (unknown)
			*unknown = 0;
		return ACCT_CAT_ALL;
	}
	json_t *j = json_loads(rights_json, JSON_DECODE_ANY, NULL);
	if (!j) { /* text that is not JSON: nothing known granted, never "all" */
		if (unknown)
			*unknown = 1;
		return 0;
	}
	unsigned m = acct_rights_mask(j, unknown);
	json_decref(j);
	return m;
}

char *acct_rights_summary(const char *rights_json, char *buf, size_t n)
{
	int unknown = 0;
	unsigned m = acct_rights_mask_text(rights_json, &unknown);
	if (!n)
		return buf;
	buf[0] = '\0';
	json_t *j = rights_json && *rights_json ? json_loads(rights_json, JSON_DECODE_ANY, NULL)
						: NULL;
	bool other = rights_json && *rights_json && (!j || !(json_is_object(j) || json_is_null(j)));
	if (other) {
		/* a list of names, or a value or text outside the object form:
		 * what it holds, as sent */
		size_t len = 0;
		if (json_is_array(j)) {
			size_t i;
			json_t *it;
			len = (size_t)snprintf(buf, n, "list:");
			json_array_foreach(j, i, it) {
				if (len >= n)
					break;
				char *t = json_is_string(it) ? NULL : json_dumps(it, JSON_COMPACT | JSON_ENCODE_ANY);
				len += (size_t)snprintf(buf + len, n - len, "%s %s", i ? "," : "",
							t ? t : json_string_value(it));
				free(t);
			}
			if (!json_array_size(j) && len < n)
				snprintf(buf + len, n - len, " none");
		} else {
			snprintf(buf, n, "as sent: %s", rights_json);
		}
		json_decref(j);
		return buf;
	}
	json_decref(j);
	if (!unknown) {
		const char *named = m == ACCT_CAT_ALL	   ? "full access"
				    : m == MASK_READ_ONLY ? "read-only"
				    : m == MASK_INSTANCES ? "instances"
							  : NULL;
		if (named) {
			snprintf(buf, n, "%s", named);
			return buf;
		}
	}
	size_t len = (size_t)snprintf(buf, n, "custom:");
	bool first = true;
	for (int i = 0; i < CAT__COUNT && len < n; i++) {
		if (!(m & BIT(i)))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s %s", first ? "" : ",", cat_names[i]);
		first = false;
	}
	if (unknown && len < n)
		len += (size_t)snprintf(buf + len, n - len, "%s +%d other", first ? "" : ",", unknown);
	if (first && !unknown && len < n)
		snprintf(buf + len, n - len, " none");
	return buf;
}

/* ---- phone numbers ------------------------------------------------------------ */

bool acct_e164_valid(const char *s)
{
	if (!s || s[0] != '+' || s[1] < '1' || s[1] > '9')
		return false;
	size_t d = 0;
	for (const char *p = s + 1; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return false;
		d++;
	}
	return d >= 8 && d <= 15;
}

bool acct_e164_normalize(const char *in, char *out, size_t n)
{
	if (!n)
		return false;
	size_t j = 0;
	const char *p = in ? in : "";
	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '0' && p[1] == '0') {
		p += 2;
		if (j + 1 < n)
			out[j++] = '+';
	}
	for (; *p && j + 1 < n; p++) {
		if (strchr(" \t-.()", *p))
			continue;
		out[j++] = *p;
	}
	out[j] = '\0';
	return *p == '\0' && acct_e164_valid(out);
}

/* ---- countdowns ----------------------------------------------------------------- */

char *acct_fmt_countdown(char *buf, size_t n, double seconds)
{
	long s = isnan(seconds) || seconds <= 0 ? 0 : (long)ceil(seconds);
	long h = s / 3600, m = s % 3600 / 60, sec = s % 60;
	if (h)
		snprintf(buf, n, "%ldh%02ldm%02lds", h, m, sec);
	else if (m)
		snprintf(buf, n, "%ldm%02lds", m, sec);
	else
		snprintf(buf, n, "%lds", sec);
	return buf;
}

bool acct_lock_countdown(char *buf, size_t n, double locked_until, double now)
{
	if (n)
		buf[0] = '\0';
	if (isnan(locked_until) || locked_until <= 0 || locked_until <= now)
		return false;
	char d[32];
	acct_fmt_countdown(d, sizeof d, locked_until - now);
	snprintf(buf, n, "locked for %s", d);
	return true;
}

double acct_window_left(double authorized_at, double now)
{
	if (isnan(authorized_at) || authorized_at <= 0)
		return 0;
	double left = authorized_at + ACCT_TFA_WINDOW - now;
	return left > 0 ? left : 0;
}

/* ---- base32 ------------------------------------------------------------------------ */

char *acct_base32_groups(const char *secret, char *buf, size_t n)
{
	size_t j = 0, k = 0;
	bool fits = n > 0;
	for (const char *p = secret ? secret : ""; *p && fits; p++) {
		if (*p == ' ' || *p == '=' || *p == '-')
			continue;
		if (k && k % 4 == 0) {
			if (j + 1 >= n) {
				fits = false;
				break;
			}
			buf[j++] = ' ';
		}
		if (j + 1 >= n) {
			fits = false;
			break;
		}
		buf[j++] = (char)toupper((unsigned char)*p);
		k++;
	}
	if (!fits) {
		if (n) {
			memset(buf, 0, n); /* half a secret is no use and should not linger */
		}
		return buf;
	}
	buf[j] = '\0';
	return buf;
}
