/* create_recall.h: the create form's remembered forms (issue 23, "Launch
 * again"): the last form SENT for each template (by hash) or image, newest
 * last, at most RECALL_CAP of them, kept in $XDG_STATE_HOME/rentop/forms
 * (history.h's directory, mode 0600).  Never a secret unless the form's
 * "Remember secrets" toggle was on when it was sent: without it the secret
 * fields (env and ports, the registry login) are not kept, nor an onstart
 * script or args that src/rules/secrets.c would mask, nor what the picked
 * template supplies as env.  A file that does not read as the store is
 * set aside as FILE.bad (nothing lost) and the store starts empty.  Pure
 * (no curses), UI thread only. */
#ifndef RENTOP_UI_CREATE_RECALL_H
#define RENTOP_UI_CREATE_RECALL_H

#include <stdbool.h>
#include <stddef.h>

#include "views/offers/create_draft.h"

#define RECALL_CAP 32
#define RECALL_KEY_MAX (CREATE_IMAGE_MAX + 8)

struct recall_entry {
	char key[RECALL_KEY_MAX]; /* "tpl:HASH" or "img:IMAGE" */
	struct create_draft d;    /* its fields (d.secrets: secrets were kept) */
};
struct recall_store {
	struct recall_entry *e;   /* oldest first, n of them */
	size_t n;
};

void recall_init(struct recall_store *s);
void recall_free(struct recall_store *s); /* the kept secrets wiped */
/* The key of a form whose template field holds tpl_hash and image field
 * image: "tpl:HASH" when a template is named, else "img:IMAGE"; false
 * (out "") when both are empty or too long. */
bool recall_key(const char *tpl_hash, const char *image, char *out, size_t n);
/* The same for the fields of fm. */
bool recall_key_of_form(const struct form *fm, char *out, size_t n);
/* Keep the sent form d (taken over: *d is left cleared) under its key,
 * replacing that key's older one and becoming the newest; the oldest goes
 * past RECALL_CAP.  Unless secrets, every secret is dropped first.  False
 * (d cleared all the same) when d names neither template nor image. */
bool recall_put(struct recall_store *s, struct create_draft *d, bool secrets);
/* The entry for key, or NULL; the newest one of all, or NULL. */
const struct recall_entry *recall_find(const struct recall_store *s, const char *key);
const struct recall_entry *recall_last(const struct recall_store *s);
/* "template HASH" / "image IMAGE" for key (sanitised), into buf. */
char *recall_key_words(const char *key, char *buf, size_t n);

/* $XDG_STATE_HOME/rentop/forms (history_state_path). */
bool recall_path(char *out, size_t n);
/* Read the file into s (emptied first).  A missing file: true, empty.  A
 * file that is not the store: renamed to PATH.bad, s empty, false with err
 * saying so; an unreadable one: false with err, left where it is. */
bool recall_load(struct recall_store *s, const char *path, char *err, size_t errn);
/* Write s whole (mode 0600, through a temporary and rename); false with err. */
bool recall_save(const struct recall_store *s, const char *path, char *err, size_t errn);

#endif
