/* vol_fields.h: the create-instance form's volume (the CLI's
 * --create-volume OFFER / --link-volume ID with --mount-path,
 * --volume-size, --volume-label): a choice (none, a new volume, link one
 * of yours), the id (a volume offer on the instance's machine, or your
 * volume), the new one's size and name, and the mount path.  Pure (the
 * tests drive it without a terminal); UI thread only. */
#ifndef RENTOP_UI_VOL_FIELDS_H
#define RENTOP_UI_VOL_FIELDS_H

#include <stdbool.h>

#include "api/api_volumes.h"
#include "widgets/form.h"

/* The form field CF_VOLUME's message goes beside. */
#define VOL_FIELDS_ERR_FIELD "vol_id"

/* Add the volume fields to fm (mode none). */
void vol_fields_add(struct form *fm);
/* Read them into *v (month NAN): what the choice asks for, unchecked
 * (api_create_vol_valid judges it).  A form without them: mode NONE. */
void vol_fields_read(const struct form *fm, struct create_vol *v);
/* Preset them (the volumes view's "rent with this volume"): mode, id. */
void vol_fields_set(struct form *fm, enum create_vol_mode mode, long id);

#endif
