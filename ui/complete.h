/* complete.h: Tab completion at the `:` prompt: which words may stand where
 * the cursor is, the command itself or one of its arguments, from each
 * command's grammar and the data the app hands over (its words, the
 * themes, the table's columns, the snapshot's instances, machines and
 * endpoints).  The matching itself is history_complete()'s.  Pure (no
 * curses), UI thread only. */
#ifndef RENTOP_UI_COMPLETE_H
#define RENTOP_UI_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

struct snapshot;
struct gpu_names;

/* What the app knows; any list may be empty, snap may be NULL. */
struct complete_src {
	const char *const *commands; /* first words: the app's, views (and aliases), actions */
	size_t ncommands;
	const char *const *view_names;   /* the views, by name ... */
	const char *const *view_aliases; /* ... and their short words (NULL entries: none) */
	size_t nviews;
	const char *const *themes;
	size_t nthemes;
	const char *const *columns;  /* the sorting view's column titles (:sort, :filter COL=) */
	size_t ncolumns;
	const char *const *view_args; /* the fixed first arguments of the view the command
				       * names (view_ops.args: the account's sections) */
	size_t nview_args;
	const struct snapshot *snap; /* instance ids, machine ids, endpoint names */
	const struct gpu_names *gpu_names; /* the service's GPU names (gpu_name=), NULL: unknown */
};

#define COMPLETE_MAX 512

struct complete_set {
	const char *c[COMPLETE_MAX]; /* the candidates (static, src's or pool text) */
	size_t n;
	size_t start;    /* byte offset in the line of the word being completed */
	bool no_space;   /* a unique match is not followed by a space (COLUMN=, a sort field) */
	bool fragment;   /* the candidates contain the word anywhere (a GPU name), not
			  * as a prefix: it is replaced by their common prefix only when
			  * that still contains it */
	char pool[16384]; /* text of the candidates made here (ids, lower-case titles) */
	size_t used;
};

/* The candidates for the word that ends line (the text left of the
 * cursor, with or without the leading ':'), in *out; out->start says where
 * that word begins.  A view's short word stands for its name (:o for
 * :offers).  Grammars: the first word among src->commands;
 *   :sort COLUMN            the columns (lower case)
 *   :filter [!]COLUMN=VALUE the columns as "column=", status= the state names
 *   :theme NAME             the themes
 *   :offers / :o LINE       query field names (and aliases), "-o FIELD[,FIELD]"
 *                           the sort fields, "-t TYPE" the offer types, "-..."
 *                           the options, FIELD=VALUE true/false/any for flags,
 *                           gpu_name=FRAGMENT (= == !=) the GPU names that contain
 *                           it, spaces as underscores (fragment set)
 *   :templates QUERY        template search fields, FIELD=VALUE true/false for flags
 *   :account SECTION        the sections; ":account reports ID" machine ids
 *   :reports ID             the machine ids of the listed instances
 *   :logs / :detail ID      (logs: endpoint names too) the instance ids
 *   :ssh / :copy-ssh ROUTE  direct, proxy, ask
 * Returns out->n (0: nothing completes there). */
size_t complete_line(const char *line, const struct complete_src *src, struct complete_set *out);

#endif
