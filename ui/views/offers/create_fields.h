/* create_fields.h: the fields the create-instance form (create_form.c)
 * and the template editor (views/templates/tpl_edit.c) share.  Pure (the
 * form widget only); UI thread. */
#ifndef RENTOP_UI_CREATE_FIELDS_H
#define RENTOP_UI_CREATE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api_offers.h"
#include "widgets/form.h"

#define CREATE_ONSTART_EDIT_MAX (256 * 1024) /* bytes of script the editor may give */

/* The fields the template form shares (create-instance and template
 * forms): the launch-mode choice ("launch"), the masked env and ports
 * field ("env"), the onstart script in $EDITOR ("onstart"; compress: up
 * to 256 KiB accepted when it compresses under the wire limit, else at
 * most CREATE_ONSTART_MAX characters).  Each returns its index or -1. */
int create_fields_add_launch(struct form *fm, enum create_launch initial);
int create_fields_add_env(struct form *fm, const char *initial);
int create_fields_add_onstart(struct form *fm, const char *initial, bool compress);
/* A number as the form shows it: "8", "0.125" (at most decimals places). */
void create_fields_num_text(char *buf, size_t n, double v, int decimals);

#endif
