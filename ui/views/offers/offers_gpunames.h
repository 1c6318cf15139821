/* offers_gpunames.h: the offers view's copy of the service's GPU names
 * (flow/gpunames.h), read once through the poller's one-shot call path when
 * a search or the completion first needs them, and the note a search on a
 * gpu_name that is not exactly a name gets.  UI thread only. */
#ifndef RENTOP_UI_OFFERS_GPUNAMES_H
#define RENTOP_UI_OFFERS_GPUNAMES_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct gpu_names;
struct query_cmd;

struct offers_gpunames {
	struct gpu_names *g; /* NULL until read */
	int req;             /* the read in flight (0: none) */
	bool asked;          /* read (or being read): never asked again, unless it failed */
};

/* Ask for the names unless they are known or being read. */
void offers_gpunames_want(struct app *a, struct offers_gpunames *o);
/* Take the read's answer: true when the names have just arrived (a failure
 * is logged, and the next want asks again). */
bool offers_gpunames_take(struct app *a, struct offers_gpunames *o);
/* The note for the search qc (gpunames_check's message), into msg; false
 * (msg "") when nothing is to be said or the names are not known yet. */
bool offers_gpunames_note(const struct offers_gpunames *o, const struct query_cmd *qc, char *msg,
			  size_t n);
void offers_gpunames_fini(struct app *a, struct offers_gpunames *o);

#endif
