/* history.c: the prompts' histories and Tab completion.  Each kind (`:`
 * commands, `/` filters) keeps up to HISTORY_CAP lines, oldest first; Up and
 * Down walk them the way a shell does, keeping the line being typed.  Both
 * are saved in one file, one entry a line prefixed by its prompt (":theme
 * light", "/gpu=4090"), mode 0600 under a 0700 directory.  A line that could
 * hold a secret (an API key typed as a filter by mistake, `:` words naming a
 * token or password) is never kept, in memory or on disk. */
#include "history.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

void history_init(struct history *h)
{
	memset(h, 0, sizeof *h);
	h->e = xcalloc(HISTORY_CAP, sizeof h->e[0]);
}

void history_free(struct history *h)
{
	free(h->e);
	memset(h, 0, sizeof *h);
}

bool history_secret(const char *line)
{
	/* Secrets must never reach the history file: any line naming one of
	 * these words is skipped, whatever else it holds. */
	static const char *const words[] = { "key", "token", "secret", "password" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcasestr(line, words[i]))
			return true;
	return false;
}

bool history_add(struct history *h, const char *line)
{
	h->browse = h->n;
	size_t len = strlen(line);
	if (len == 0 || len >= HISTORY_LINE || history_secret(line) || strchr(line, '\n'))
		return false;
	if (h->n && strcmp(h->e[h->n - 1], line) == 0)
		return false;
	if (h->n == HISTORY_CAP) {
		memmove(h->e[0], h->e[1], (HISTORY_CAP - 1) * sizeof h->e[0]);
		h->n--;
	}
	memcpy(h->e[h->n++], line, len + 1);
	h->browse = h->n;
	return true;
}

const char *history_prev(struct history *h, const char *cur)
{
	if (h->browse > h->n)
		h->browse = h->n;
	if (h->browse == 0)
		return NULL;
	if (h->browse == h->n)
		util_strlcpy(h->stash, cur ? cur : "", sizeof h->stash);
	return h->e[--h->browse];
}

const char *history_next(struct history *h)
{
	if (h->browse >= h->n)
		return NULL;
	h->browse++;
	return h->browse == h->n ? h->stash : h->e[h->browse];
}

void history_reset(struct history *h)
{
	h->browse = h->n;
	h->stash[0] = '\0';
}

bool history_path(char *out, size_t n)
{
	return history_state_path("history", out, n);
}

bool history_state_path(const char *name, char *out, size_t n)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int w;
	if (xdg && *xdg == '/')
		w = snprintf(out, n, "%s/rentop/%s", xdg, name);
	else if (home && *home)
		w = snprintf(out, n, "%s/.local/state/rentop/%s", home, name);
	else
		return false;
	return w > 0 && (size_t)w < n;
}

bool history_load(struct history *cmd, struct history *filt, const char *path, char *err,
		  size_t errn)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return true;
		snprintf(err, errn, "history %s: %s", path, strerror(errno));
		return false;
	}
	char line[HISTORY_LINE + 2];
	while (fgets(line, sizeof line, f)) {
		size_t len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(f)) { /* too long: skip the rest */
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (line[0] == ':')
			history_add(cmd, line + 1);
		else if (line[0] == '/')
			history_add(filt, line + 1);
	}
	fclose(f);
	return true;
}

/* mkdir -p of path's directory, new parts 0700. */
static bool make_parent(const char *path)
{
	char dir[1024];
	if (util_strlcpy(dir, path, sizeof dir) >= sizeof dir)
		return false;
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return true;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return false;
		*p = '/';
	}
	return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

static void write_kind(FILE *f, const struct history *h, char lead)
{
	for (size_t i = 0; i < h->n; i++)
		if (!history_secret(h->e[i]))
			fprintf(f, "%c%s\n", lead, h->e[i]);
}

FILE *history_private_open(const char *path, char *tmp, size_t tmpn, char *err, size_t errn)
{
	if (snprintf(tmp, tmpn, "%s.tmp", path) >= (int)tmpn) {
		snprintf(err, errn, "%s: path too long", path);
		return NULL;
	}
	if (!make_parent(path)) {
		snprintf(err, errn, "%s: %s", path, strerror(errno));
		return NULL;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || fchmod(fd, 0600) != 0) {
		snprintf(err, errn, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errn, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
	}
	return f;
}

bool history_private_close(FILE *f, const char *tmp, const char *path, char *err, size_t errn)
{
	bool ok = fflush(f) == 0 && !ferror(f);
	if (fclose(f) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0) {
		snprintf(err, errn, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

bool history_save(const struct history *cmd, const struct history *filt, const char *path,
		  char *err, size_t errn)
{
	char tmp[1100], e[400];
	FILE *f = history_private_open(path, tmp, sizeof tmp, e, sizeof e);
	if (!f) {
		snprintf(err, errn, "history %s", e);
		return false;
	}
	write_kind(f, cmd, ':');
	write_kind(f, filt, '/');
	if (!history_private_close(f, tmp, path, e, sizeof e)) {
		snprintf(err, errn, "history %s", e);
		return false;
	}
	return true;
}

size_t history_complete(const char *word, const char *const *cands, size_t ncands, char *out,
			size_t outn, char *list, size_t listn)
{
	size_t wl = strlen(word), m = 0, common = 0, used = 0;
	const char *first = NULL;
	if (listn)
		list[0] = '\0';
	for (size_t i = 0; i < ncands; i++) {
		const char *c = cands[i];
		if (!c || strncmp(c, word, wl) != 0)
			continue;
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = cands[j] && strcmp(cands[j], c) == 0;
		if (dup)
			continue;
		if (!first) {
			first = c;
			common = strlen(c);
		} else {
			size_t k = 0;
			while (k < common && first[k] == c[k])
				k++;
			common = k;
		}
		int w = snprintf(list + used, listn > used ? listn - used : 0, "%s%s",
				 m ? "  " : "", c);
		if (w > 0)
			used = used + (size_t)w < listn ? used + (size_t)w : listn ? listn - 1 : 0;
		m++;
	}
	if (!first) {
		util_strlcpy(out, word, outn);
		return 0;
	}
	if (outn) {
		size_t k = common < outn - 1 ? common : outn - 1;
		memcpy(out, first, k);
		out[k] = '\0';
	}
	return m;
}
