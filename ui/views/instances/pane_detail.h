/* pane_detail.h: the detail overlay of one instance (view_detail, in view.c).
 * detail_lines() is pure so that the tests can check the derived lines. */
#ifndef RENTOP_UI_PANE_DETAIL_H
#define RENTOP_UI_PANE_DETAIL_H

#include <stddef.h>

struct instance;

struct detail_line {
	char key[48];
	char value[512];
	int role; /* theme role of the value */
};

/* Derived lines (status, SSH commands, ports, template, cost so far, prepaid
 * credit) then every field as received; returns the number of lines. */
size_t pane_detail_lines(const struct instance *x, double now, struct detail_line *out,
			 size_t max);
/* The same with the env section's value number `reveal` in clear (-1: every
 * env value masked, as pane_detail_lines shows them). */
size_t pane_detail_lines_reveal(const struct instance *x, double now, int reveal,
				struct detail_line *out, size_t max);
/* One field as received (raw: its JSON text) made readable for the "all
 * fields" section: an epoch in a *_date or *_time field as the local
 * "2026-11-23 14:05 (3h ago)" (or "in 3h"), sizes and rates with units
 * (disk_space GB, gpu_ram/cpu_ram MB shown as GB, inet_up/inet_down Mb/s,
 * disk_bw MB/s, dph* $/h); anything else, or a non-number, unchanged.
 * now: epoch seconds.  Returns out. */
char *pane_detail_field_value(const char *key, const char *raw, double now, char *out, size_t n);

#endif
