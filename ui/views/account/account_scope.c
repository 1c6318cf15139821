/* account_scope.c: the scope picker of the API key and team role forms:
 * a preset (full access, read-only, instances, custom) and one toggle per
 * permission category, kept in step (a preset ticks its categories; a
 * category changed by hand makes the scope the one they are).  UI thread
 * only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/acct.h"
#include "flow/acctops.h"
#include "views/account/account.h"

static const char *const scope_choices[] = { "full access", "read-only", "instances", "custom" };

/* Add the scope choice and one toggle per category, set from mask. */
void account_scope_add(struct form *fm, unsigned mask)
{
	enum acct_scope sc = acctops_scope_of(mask);
	form_add_choice(fm, "scope", "Scope", scope_choices, 4, (int)sc);
	for (int c = 0; c < CAT__COUNT; c++)
		form_add_toggle(fm, acct_category_name((enum acct_category)c),
				acct_category_name((enum acct_category)c), (mask >> c) & 1u);
}

unsigned account_scope_mask(const struct form *fm)
{
	unsigned m = 0;
	for (int c = 0; c < CAT__COUNT; c++)
		if (form_toggle(fm, acct_category_name((enum acct_category)c)))
			m |= 1u << c;
	return m;
}

/* After a key: a preset chosen ticks its categories; a category ticked or
 * cleared by hand makes the scope the one those categories are. */
void account_scope_sync(struct acct_view *v)
{
	int si = form_find(&v->fm, "scope");
	if (si < 0)
		return;
	int sc = v->fm.f[si].choice;
	unsigned m = account_scope_mask(&v->fm);
	if (sc != v->scope_prev) {
		if (sc != SCOPE_CUSTOM) {
			unsigned want = acct_scope_mask((enum acct_scope)sc, 0);
			for (int c = 0; c < CAT__COUNT; c++) {
				int i = form_find(&v->fm, acct_category_name((enum acct_category)c));
				if (i >= 0)
					v->fm.f[i].on = (want >> c) & 1u;
			}
			m = want;
		}
	} else if (m != v->mask_prev) {
		v->fm.f[si].choice = (int)acctops_scope_of(m);
	}
	v->scope_prev = v->fm.f[si].choice;
	v->mask_prev = m;
}

void account_scope_start(struct acct_view *v)
{
	int si = form_find(&v->fm, "scope");
	v->scope_prev = si >= 0 ? v->fm.f[si].choice : 0;
	v->mask_prev = account_scope_mask(&v->fm);
}

bool account_scope_check_name(const struct form_field *f, char *err, size_t n)
{
	for (const unsigned char *p = (const unsigned char *)f->tb.s; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(err, n, "no control characters");
			return false;
		}
	return true;
}

