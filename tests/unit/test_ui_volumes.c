/* test_ui_volumes.c: the volumes pieces of the UI that need no terminal:
 * the create form's volume fields (none by default; a link read into the
 * request; a new one with a bad mount path marked beside the volume id,
 * nothing built), the billing confirmation's volume sentence (a new one's
 * cost per month, a linked one's, one whose price is unknown), and what a
 * lost write's re-read counts (vol_edit_count). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flow/offers.h"
#include "views/offers/create_form.h"
#include "views/volumes/vol_edit.h"
#include "views/volumes/vol_fields.h"
#include "widgets/form.h"

static struct offer mk_offer(void)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	o.id = 7110585;
	o.num_gpus = 1;
	o.gpu_name = (char *)"RTX 3060";
	o.dph_base = 0.060;
	o.storage_cost = 0.36;
	o.dph_total = 0.064;
	o.min_bid = NAN;
	o.disk_space = 750;
	o.rentable = true;
	o.credit_discount_max = NAN;
	return o;
}

static void form_volume(void **state)
{
	(void)state;
	struct offer o = mk_offer();
	struct form fm;
	create_form_build(&fm, &o, NULL);
	assert_true(form_find(&fm, "vol") >= 0);
	assert_string_equal(form_value(&fm, "vol_mount"), "/data");
	assert_true(form_set(&fm, "image", "vastai/base-image:latest"));
	struct create_req *r = calloc(1, sizeof *r);
	/* none by default: no volume in the request */
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_int_equal(r->vol.mode, CVOL_NONE);
	/* link my volume 31047672 at /scratch */
	vol_fields_set(&fm, CVOL_LINK, 31047672);
	assert_true(form_set(&fm, "vol_mount", "/scratch"));
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_int_equal(r->vol.mode, CVOL_LINK);
	assert_int_equal(r->vol.id, 31047672);
	assert_string_equal(r->vol.mount, "/scratch");
	/* a new one with a relative mount path: marked at the volume id */
	vol_fields_set(&fm, CVOL_NEW, 6202155);
	assert_true(form_set(&fm, "vol_mount", "scratch"));
	memset(r, 0, sizeof *r);
	assert_false(create_form_read(&fm, &o, NULL, r));
	int i = form_find(&fm, VOL_FIELDS_ERR_FIELD);
	assert_non_null(strstr(fm.f[i].error, "mount path"));
	assert_int_equal(fm.focus, i);
	assert_true(form_set(&fm, "vol_mount", "/mnt/vol"));
	assert_true(form_set(&fm, "vol_size", "30"));
	assert_true(create_form_read(&fm, &o, NULL, r));
	assert_int_equal(r->vol.mode, CVOL_NEW);
	assert_float_equal(r->vol.size, 30, 0);
	free(r);
	form_free(&fm);
}

static void confirm_counts_the_volume(void **state)
{
	(void)state;
	struct offer o = mk_offer();
	struct create_req *r = calloc(1, sizeof *r);
	r->offer_id = o.id;
	r->disk = 20;
	char b[1024];
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_null(strstr(b, "volume"));
	r->vol.mode = CVOL_NEW;
	r->vol.size = 30;
	strcpy(r->vol.mount, "/mnt/vol");
	r->vol.month = 4.5;
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_non_null(strstr(b, "Plus a new 30 GB volume at /mnt/vol ($4.50/month), billed until it is deleted."));
	r->vol.month = NAN; /* the offers were not read: said so, with where to look */
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_non_null(strstr(b, "its price: o in :volumes"));
	r->vol.mode = CVOL_LINK;
	r->vol.id = 31047672;
	strcpy(r->vol.mount, "/scratch");
	r->vol.month = 12;
	offers_confirm_text(&o, r, false, b, sizeof b);
	assert_non_null(strstr(b, "Volume 31047672 mounted at /scratch ($12.00/month): already billed."));
	free(r);
}

static void lost_counts(void **state)
{
	(void)state;
	struct volume_rec v[3];
	memset(v, 0, sizeof v);
	v[0].id = 1;
	v[0].label = (char *)"data_main";
	v[1].id = 2;
	v[1].label = (char *)"scratch_clone";
	v[2].id = 3;
	v[2].label = (char *)"scratch_clone";
	assert_int_equal(vol_edit_count(v, 3, 1, NULL), 1);   /* a delete: that id */
	assert_int_equal(vol_edit_count(v, 3, 9, NULL), 0);
	assert_int_equal(vol_edit_count(v, 3, 0, "scratch_clone"), 2); /* a clone: by label */
	assert_int_equal(vol_edit_count(v, 3, 0, ""), 3);     /* unnamed create: every volume */
	assert_int_equal(vol_edit_count(NULL, 0, 0, "x"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(form_volume),
		cmocka_unit_test(confirm_counts_the_volume),
		cmocka_unit_test(lost_counts),
	};
	return cmocka_run_group_tests_name("ui_volumes", tests, NULL, NULL);
}
