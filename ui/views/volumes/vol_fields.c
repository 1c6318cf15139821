/* vol_fields.c: the create form's volume fields (vol_fields.h). */
#include "views/volumes/vol_fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const char *const modes[] = { "none", "new volume (offer id)", "link my volume (id)" };

void vol_fields_add(struct form *fm)
{
	form_add_choice(fm, "vol", "Volume", modes, 3, CVOL_NONE);
	form_add_number(fm, "vol_id", "Volume offer / volume id", "", 1, 9e15, true, false);
	char size[32];
	snprintf(size, sizeof size, "%g", VOLUME_SIZE_DEFAULT);
	form_add_number(fm, "vol_size", "New volume size (GB)", size, 1, 1e6, false, false);
	form_add_text(fm, "vol_name", "New volume name", "", VOLUME_NAME_MAX, false);
	form_add_text(fm, "vol_mount", "Volume mount path", "/data", VOLUME_MOUNT_MAX, false);
}

void vol_fields_read(const struct form *fm, struct create_vol *v)
{
	memset(v, 0, sizeof *v);
	v->month = NAN;
	int m = form_choice(fm, "vol");
	if (m != CVOL_NEW && m != CVOL_LINK)
		return;
	v->mode = (enum create_vol_mode)m;
	double d = 0;
	v->id = form_number(fm, "vol_id", &d) && d > 0 ? (long)d : 0;
	v->size = form_number(fm, "vol_size", &d) ? d : VOLUME_SIZE_DEFAULT;
	util_strlcpy(v->name, form_value(fm, "vol_name"), sizeof v->name);
	util_strlcpy(v->mount, form_value(fm, "vol_mount"), sizeof v->mount);
}

void vol_fields_set(struct form *fm, enum create_vol_mode mode, long id)
{
	int i = form_find(fm, "vol");
	if (i >= 0)
		fm->f[i].choice = (int)mode;
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", id);
	form_set(fm, "vol_id", buf);
}
