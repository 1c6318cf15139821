/* sshkey.c: owns the parsing of OpenSSH public key lines (type, blob,
 * comment), the structural check of the blob (RFC 4253 strings, the type
 * repeated inside), the SHA256 fingerprint in ssh-keygen's form, and the
 * reading of the .pub files in ~/.ssh for the "add key" dialog. */
#include "rules/sshkey.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "base/util.h"

static const char *const key_types[] = {
	"ssh-ed25519",
	"ssh-rsa",
	"ecdsa-sha2-nistp256",
	"ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521",
	"sk-ssh-ed25519@openssh.com",
	"sk-ecdsa-sha2-nistp256@openssh.com",
	"ssh-dss",
};

static bool known_type(const char *t)
{
	for (size_t i = 0; i < sizeof key_types / sizeof *key_types; i++)
		if (!strcmp(key_types[i], t))
			return true;
	return false;
}

/* One SSH string at *p (uint32 big-endian length, bytes); false at the end
 * of the blob or when it overruns. */
static bool ssh_string(const unsigned char **p, const unsigned char *end,
		       const unsigned char **s, size_t *len)
{
	if (end - *p < 4)
		return false;
	uint32_t l = (uint32_t)(*p)[0] << 24 | (uint32_t)(*p)[1] << 16 | (uint32_t)(*p)[2] << 8 |
		     (uint32_t)(*p)[3];
	*p += 4;
	if ((size_t)(end - *p) < l)
		return false;
	*s = *p;
	*len = l;
	*p += l;
	return true;
}

static bool str_is(const unsigned char *s, size_t len, const char *want)
{
	return strlen(want) == len && !memcmp(s, want, len);
}

/* Bits of an mpint (leading zero bytes skipped). */
static int mpint_bits(const unsigned char *s, size_t len)
{
	while (len && !*s) {
		s++;
		len--;
	}
	if (!len)
		return 0;
	int top = 0;
	for (unsigned v = *s; v; v >>= 1)
		top++;
	return (int)(len - 1) * 8 + top;
}

/* Check the blob's structure against the type; bits out. */
static bool check_blob(const char *type, const unsigned char *b, size_t blen, int *bits,
		       char *err, size_t errlen)
{
	const unsigned char *p = b, *end = b + blen, *s;
	size_t l;
	if (!ssh_string(&p, end, &s, &l)) {
		snprintf(err, errlen, "the key data is truncated");
		return false;
	}
	if (!str_is(s, l, type)) {
		char inner[48];
		size_t k = 0;
		for (size_t i = 0; i < l && k + 1 < sizeof inner; i++)
			inner[k++] = isprint(s[i]) ? (char)s[i] : '?';
		inner[k] = '\0';
		snprintf(err, errlen, "the key data says %s, the line says %s", inner, type);
		return false;
	}
	/* the fields after the type, per key type */
	size_t want;
	if (!strcmp(type, "ssh-ed25519"))
		want = 1;
	else if (!strcmp(type, "sk-ssh-ed25519@openssh.com"))
		want = 2;
	else if (!strcmp(type, "ssh-rsa"))
		want = 2;
	else if (!strcmp(type, "ssh-dss"))
		want = 4;
	else if (!strncmp(type, "ecdsa-", 6))
		want = 2;
	else /* sk-ecdsa */
		want = 3;
	const unsigned char *f[4];
	size_t fl[4];
	for (size_t i = 0; i < want; i++)
		if (!ssh_string(&p, end, &f[i], &fl[i])) {
			snprintf(err, errlen, "the key data is truncated");
			return false;
		}
	if (p != end) {
		snprintf(err, errlen, "the key data has trailing bytes");
		return false;
	}
	*bits = 0;
	if (!strcmp(type, "ssh-ed25519") || !strcmp(type, "sk-ssh-ed25519@openssh.com")) {
		if (fl[0] != 32) {
			snprintf(err, errlen, "an ed25519 key is 32 bytes, this one %zu", fl[0]);
			return false;
		}
		*bits = 256;
	} else if (!strcmp(type, "ssh-rsa")) {
		*bits = mpint_bits(f[1], fl[1]);
		if (*bits < 512) {
			snprintf(err, errlen, "the RSA modulus is too small");
			return false;
		}
	} else if (!strcmp(type, "ssh-dss")) {
		*bits = mpint_bits(f[0], fl[0]);
	} else {
		/* ecdsa-sha2-<curve> and sk-ecdsa-sha2-nistp256@openssh.com: the
		 * curve field names the same curve */
		const char *curve = strstr(type, "nistp");
		char c[16];
		snprintf(c, sizeof c, "%.*s", (int)strcspn(curve, "@"), curve);
		if (!str_is(f[0], fl[0], c)) {
			snprintf(err, errlen, "the key data names another curve than %s", c);
			return false;
		}
		*bits = atoi(c + 5);
	}
	return true;
}

bool sshkey_parse(const char *line, struct sshkey_info *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (!line) {
		snprintf(err, errlen, "no key");
		return false;
	}
	size_t total = strlen(line);
	if (total > SSHKEY_LINE_MAX) {
		snprintf(err, errlen, "the line is too long for a public key");
		return false;
	}
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t tl = strcspn(p, " \t\r\n");
	if (!tl) {
		snprintf(err, errlen, "empty: paste an OpenSSH public key line");
		return false;
	}
	if (tl >= sizeof out->type) {
		snprintf(err, errlen, "unknown key type");
		return false;
	}
	memcpy(out->type, p, tl);
	out->type[tl] = '\0';
	if (!known_type(out->type)) {
		char *clean = util_sanitize(out->type);
		if (!strncmp(p, "-----BEGIN", 10))
			snprintf(err, errlen, "this is a private key file: use the .pub file");
		else
			snprintf(err, errlen, "unknown key type '%.40s'", clean);
		free(clean);
		out->type[0] = '\0';
		return false;
	}
	p += tl;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t bl = strcspn(p, " \t\r\n");
	if (!bl) {
		snprintf(err, errlen, "the key data is missing after %s", out->type);
		return false;
	}
	for (size_t i = 0; i < bl; i++) {
		unsigned char c = (unsigned char)p[i];
		if (!isalnum(c) && c != '+' && c != '/' && c != '=') {
			snprintf(err, errlen, "the key data is not valid base64");
			return false;
		}
	}
	if (bl % 4) {
		snprintf(err, errlen, "the key data is not valid base64 (length)");
		return false;
	}
	unsigned char *blob = xmalloc(bl / 4 * 3 + 1);
	int dl = EVP_DecodeBlock(blob, (const unsigned char *)p, (int)bl);
	if (dl < 0) {
		free(blob);
		snprintf(err, errlen, "the key data is not valid base64");
		return false;
	}
	/* EVP_DecodeBlock counts the padding as zero bytes */
	size_t blen = (size_t)dl;
	if (bl >= 1 && p[bl - 1] == '=')
		blen--;
	if (bl >= 2 && p[bl - 2] == '=')
		blen--;
	if (!check_blob(out->type, blob, blen, &out->bits, err, errlen)) {
		free(blob);
		return false;
	}
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	bool ok = EVP_Digest(blob, blen, md, &mdlen, EVP_sha256(), NULL) == 1;
	free(blob);
	if (!ok) {
		snprintf(err, errlen, "cannot compute the fingerprint");
		return false;
	}
	unsigned char b64[64];
	int el = EVP_EncodeBlock(b64, md, (int)mdlen);
	while (el > 0 && b64[el - 1] == '=')
		el--;
	snprintf(out->fingerprint, sizeof out->fingerprint, "SHA256:%.*s", el, (const char *)b64);
	sshkey_comment(line, out->comment, sizeof out->comment);
	return true;
}

void sshkey_comment(const char *line, char *out, size_t n)
{
	if (!n)
		return;
	out[0] = '\0';
	const char *p = line ? line : "";
	for (int field = 0; field < 2; field++) { /* the type, then the key data */
		while (*p == ' ' || *p == '\t')
			p++;
		p += strcspn(p, " \t\r\n");
	}
	/* the comment: the rest of the line, trimmed */
	while (*p == ' ' || *p == '\t')
		p++;
	size_t cl = strcspn(p, "\r\n");
	while (cl && (p[cl - 1] == ' ' || p[cl - 1] == '\t'))
		cl--;
	char *c = util_sanitize_n(p, cl);
	util_strlcpy(out, c, n);
	free(c);
}

bool sshkey_read_file(const char *path, char *line, size_t n, char *err, size_t errlen)
{
	if (errlen)
		err[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return false;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && st.st_size > SSHKEY_LINE_MAX * 4) {
		fclose(f);
		snprintf(err, errlen, "%s is too large for a public key file", path);
		return false;
	}
	char *buf = xmalloc(SSHKEY_LINE_MAX + 2);
	bool found = false;
	while (fgets(buf, SSHKEY_LINE_MAX + 2, f)) {
		size_t l = strcspn(buf, "\r\n");
		buf[l] = '\0';
		const char *s = buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		if (strlen(s) >= n) {
			snprintf(err, errlen, "the key line in %s is too long", path);
			break;
		}
		util_strlcpy(line, s, n);
		found = true;
		break;
	}
	if (!found && !err[0])
		snprintf(err, errlen, "%s holds no key", path);
	fclose(f);
	free(buf);
	return found;
}

size_t sshkey_list_pub(const char *dir, char ***paths)
{
	*paths = NULL;
	char *pat = xasprintf("%s/*.pub", dir);
	glob_t g;
	size_t n = 0;
	if (glob(pat, 0, NULL, &g) == 0) {
		*paths = xcalloc(g.gl_pathc, sizeof **paths);
		for (size_t i = 0; i < g.gl_pathc; i++)
			(*paths)[n++] = xstrdup(g.gl_pathv[i]);
		globfree(&g);
	}
	free(pat);
	return n;
}

bool sshkey_from_input(const char *pasted, const char *path, char *line, size_t n,
		       struct sshkey_info *out, char *err, size_t errlen, const char **field)
{
	*field = pasted && pasted[0] ? "line" : "file";
	if (pasted && pasted[0]) {
		if (strlen(pasted) >= n) {
			snprintf(err, errlen, "the line is too long");
			return false;
		}
		memcpy(line, pasted, strlen(pasted) + 1);
	} else if (path) {
		if (!sshkey_read_file(path, line, n, err, errlen))
			return false;
	} else {
		*field = "line";
		snprintf(err, errlen, "paste a public key line or choose a .pub file");
		return false;
	}
	return sshkey_parse(line, out, err, errlen);
}
