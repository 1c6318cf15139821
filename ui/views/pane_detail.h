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

#endif
