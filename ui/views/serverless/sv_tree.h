/* sv_tree.h: the pure parts of the serverless view: the rows of the
 * endpoint/workergroup tree (collapsed endpoints hide their workergroups),
 * the text of an endpoint row, of a workergroup row (the template's name
 * when an instance of the snapshot tells it, else its hash), the worker
 * health with its load bar, and the workergroup detail lines (every field,
 * api_key as <hidden>).  No terminal; UI thread (no shared state). */
#ifndef RENTOP_UI_SV_TREE_H
#define RENTOP_UI_SV_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "state/model.h"
#include "state/series.h"
#include "rules/workers.h"

#define SV_MAX_ENDPOINTS 256
#define SV_MAX_ROWS 2048

/* SVR_ORPHANS heads the orphaned workergroups: those whose endpoint is
 * not in the list (deleted, or never there).  They are a group of their
 * own, last, never drawn under an endpoint. */
enum sv_row_kind { SVR_ENDPOINT, SVR_WORKERGROUP, SVR_ORPHANS };

/* The collapse key of the orphans' group (endpoint ids are > 0). */
#define SV_ORPHANS_GROUP (-1L)

struct sv_row {
	enum sv_row_kind kind;
	long endpoint_id;   /* a workergroup's endpoint_id (an orphan's names no listed
			     * endpoint); 0 for SVR_ORPHANS */
	long id;            /* the endpoint's or the workergroup's id; 0 for SVR_ORPHANS */
	size_t idx;         /* into the snapshot's endpoints or workergroups; SVR_ORPHANS:
			     * how many orphans */
	bool collapsed;     /* SVR_ENDPOINT, SVR_ORPHANS: its workergroups hidden */
	bool last;          /* SVR_WORKERGROUP: the last of its group */
	bool orphan;        /* SVR_WORKERGROUP: its endpoint is not listed */
};

/* The endpoints whose workergroups are hidden. */
struct sv_collapsed {
	long ids[SV_MAX_ENDPOINTS];
	size_t n;
};
bool sv_tree_collapsed_has(const struct sv_collapsed *c, long endpoint_id);
void sv_tree_collapsed_set(struct sv_collapsed *c, long endpoint_id, bool collapsed);

/* The rows: endpoints in the order given, each followed (unless collapsed)
 * by its workergroups (matched by endpoint_id, by id); then, when there are
 * any, an SVR_ORPHANS row followed (unless SV_ORPHANS_GROUP is collapsed)
 * by the workergroups of no listed endpoint, each marked orphan.  Returns
 * the count. */
size_t sv_tree_rows(const struct endpoint *e, size_t ne, const struct workergroup *g, size_t ng,
		    const struct sv_collapsed *c, struct sv_row *out, size_t max);
/* A key for a row that survives rebuilds (endpoints > 0, workergroups < 0,
 * the orphans' row LONG_MIN). */
long sv_tree_row_key(const struct sv_row *r);
/* The collapse key of the group a row is in or heads (an endpoint's id,
 * or SV_ORPHANS_GROUP). */
long sv_tree_row_group(const struct sv_row *r);
/* "v orphaned workergroups (2): their endpoint is gone" */
char *sv_tree_orphans_text(size_t count, bool open, bool ascii, char *buf, size_t n);
/* Why an endpoint action cannot apply to row r (an orphaned workergroup or
 * the orphans' row: "workergroup 9 is orphaned: its endpoint 99 is gone;
 * select an endpoint to WHAT"), into buf; NULL when r is not of the
 * orphans' group.  what: "add a workergroup to", "suspend". */
const char *sv_tree_orphan_refusal(const struct sv_row *r, const char *what, char *buf, size_t n);
/* The confirmation of deleting an orphaned workergroup g: it says it is
 * orphaned and which endpoint is gone. */
char *sv_tree_delete_orphan_text(const struct workergroup *g, char *buf, size_t n);

/* The fields of an endpoint row, in the order drawn.  A row too wide for
 * the terminal drops whole fields, the least useful first, as the instance
 * table drops columns (table_widths_fit): cold_mult, util, min_load, why
 * the figures are stale, the bar, the worker limits, the state, the load,
 * the counts; the name (cut last) and the stale marker are never dropped,
 * so stale figures never look live. */
enum sv_ep_field {
	SVE_NAME,       /* "v llm-chat (1)": the fold mark, the name and the id */
	SVE_STATE,      /* "active" */
	SVE_MIN_LOAD,   /* "min_load 10" */
	SVE_UTIL,       /* "util 0.9" (target_util) */
	SVE_COLD_MULT,  /* "cold_mult 2.5" */
	SVE_LIMITS,     /* "cold_workers 1 max_workers 4" */
	SVE_BAR,        /* "[####......]": load against capacity */
	SVE_COUNTS,     /* "3 ready 1 error"; "workers: ..." before an answer */
	SVE_LOAD,       /* "load 42/120" */
	SVE_SPARK,      /* "load ▁▂▅▇ n ▂▂▃ $ ▂▂▃": the last hour (dropped first) */
	SVE_STALE,      /* "(stale 30s)": the figures are old */
	SVE_WHY,        /* why: the last failure of the worker fetch */
	SVE__COUNT
};

/* An endpoint's last hour, kept while the serverless view is shown: its
 * load (the workers' summed cur_load), its worker count and its cost ($/h,
 * the workers' summed dph_total), one sample per worker answer. */
struct sv_ep_series {
	struct seriesf load, workers, cost;
};
void sv_tree_series_init(struct sv_ep_series *s);
#define SV_SPARK_COLS 10 /* cells of each sparkline in a row (6 min a cell) */
/* "load ▁▂▅▇ n ▂▂▃ $ ▂▂▃": each figure's last hour ending at now in cols
 * cells, scaled from 0 to its hour's round maximum (chart_nice_max); gaps
 * blank; --ascii levels `_.-=#`.  Into buf. */
char *sv_tree_spark_text(const struct sv_ep_series *s, double now, int cols, bool ascii, char *buf,
			 size_t n);

/* The worker health of an endpoint as the row shows it. */
struct sv_ep_health {
	bool asked;             /* a worker fetch is subscribed (false: no health field) */
	bool have;              /* h holds an answer */
	struct workers_health h;
	bool stale;             /* the last fetch failed or is older than the stale age */
	double age;             /* s since h was fetched */
	const char *err;        /* the last failure, "" or NULL: none */
	const struct sv_ep_series *series; /* its last hour (NULL: no sparklines) */
	double now;             /* wall epoch the sparklines end at */
};

struct sv_ep_cells {
	char cell[SVE__COUNT][200]; /* "" : nothing to show */
};
/* The fields of endpoint e's row; h may be NULL (no health). */
void sv_tree_endpoint_cells(const struct endpoint *e, const struct sv_ep_health *h, bool open,
		       bool ascii, struct sv_ep_cells *out);
/* The widths of the fields for n rows in width cells, the same for every
 * row so that the fields align: w[f] the field's width (its widest cell;
 * 0: dropped, or empty in every row).  Fields are two cells apart.
 * Returns the mask of the fields shown (1u << f). */
unsigned sv_tree_endpoint_layout(const struct sv_ep_cells *rows, size_t n, int width,
			    int w[SVE__COUNT]);
/* Where field f starts, in cells from the row's start, for widths w;
 * -1 when it is not shown. */
int sv_tree_endpoint_field_x(const int w[SVE__COUNT], int f);
/* One row as drawn at widths w (fields padded, cut to their width). */
char *sv_tree_endpoint_line(const struct sv_ep_cells *c, const int w[SVE__COUNT], char *buf,
		       size_t n);
/* The whole row: "v llm-chat (1)  active  min_load 10  util 0.9  cold_mult
 * 2.5  cold_workers 1 max_workers 8" (no health, nothing dropped). */
char *sv_tree_endpoint_text(const struct endpoint *e, bool open, bool ascii, char *buf, size_t n);
/* The template's name from an instance of the snapshot with that hash, or NULL. */
const char *sv_tree_template_name(const char *hash, const struct instance *const *v, size_t n);
/* "  `- wg 11  template NAME  gpu_ram 24  test_workers 3  query ...  args ...";
 * an orphan: "  `- wg 11  ORPHANED (endpoint 12 gone)  template ...".
 * tmpl_name: the template's name when known (NULL: its hash is shown). */
char *sv_tree_workergroup_text(const struct workergroup *g, const char *tmpl_name, bool last,
			  bool orphan, bool ascii, char *buf, size_t n);
/* "[####......] 42/120  3 run 1 load 0 idle 1 err" (the bar: load/capacity). */
char *sv_tree_health_text(const struct workers_health *h, bool ascii, char *buf, size_t n);

struct sv_line {
	char key[32];
	char value[400];
};
/* Every field of g, api_key as <hidden>; returns the count. */
size_t sv_tree_workergroup_lines(const struct workergroup *g, const char *tmpl_name,
			    struct sv_line *out, size_t max);

/* Template names by hash (from a template search, or an instance). */
#define SV_MAX_NAMES 128
struct sv_names {
	char hash[SV_MAX_NAMES][40];
	char name[SV_MAX_NAMES][96];
	size_t n;
};
const char *sv_tree_names_get(const struct sv_names *t, const char *hash); /* NULL: unknown */
void sv_tree_names_put(struct sv_names *t, const char *hash, const char *name);
/* The name of g's template: t, else an instance of the snapshot; NULL. */
const char *sv_tree_names_of(const struct sv_names *t, const char *hash,
			const struct instance *const *v, size_t nv);

struct app;
/* pane_serverless.c: the template name the serverless view knows, or NULL. */
const char *pane_serverless_template(const struct app *a, const char *hash);
/* pane_serverless.c: the endpoint of the serverless view's selected row
 * (a workergroup's endpoint), 0: none. */
long pane_serverless_selected_endpoint(const struct app *a);
/* pane_serverless.c: the last hour of endpoint id, NULL when none is kept. */
const struct sv_ep_series *pane_serverless_series(const struct app *a, long endpoint_id);

#endif
