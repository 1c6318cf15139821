/* acctprice.h: pending price increases on the account's instances
 * (/api/v0/instances/pending-price-increases/): the record, its jobs mapper
 * (a struct json_list) and its one-line text.  Pure; any thread. */
#ifndef RENTOP_ACCTPRICE_H
#define RENTOP_ACCTPRICE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/apierr.h"

struct price_inc {
	long id;              /* pending_price_increase_id */
	long contract;        /* the instance */
	double new_gpu_dph;   /* $/hour (new_gpu_costpersec x 3600), NAN when not sent */
	double old_gpu_dph;   /* $/hour, NAN when not sent */
	double from;          /* epoch s: the current terms' end (contract_end_date), NAN when not sent */
	double extends_to;    /* epoch s: the end if accepted (ask_end_date), NAN when not sent */
};
/* {"pending_price_increases":[...]} (or a bare list). */
void *acctprice_map(const json_t *root, struct api_error *e);
/* "GPU $0.246/h (now $0.197/h) from 2027-04-01 UTC; accepting extends to 2027-05-01" */
char *acctprice_text(const struct price_inc *p, char *buf, size_t n);
/* The increase on instance id in v[0..n), NULL when none. */
const struct price_inc *acctprice_of(const struct price_inc *v, size_t n, long id);

#endif
