/* sshkey.h: OpenSSH public key lines ("ssh-ed25519 AAAA... comment"):
 * validation before a key is sent to the service, and the SHA256
 * fingerprint exactly as `ssh-keygen -l` prints it ("SHA256:" and the
 * unpadded base64 of the SHA-256 of the key blob).  SHA-256 and base64 come
 * from OpenSSL's libcrypto.  Pure; any thread. */
#ifndef RENTOP_SSHKEY_H
#define RENTOP_SSHKEY_H

#include <stdbool.h>
#include <stddef.h>

#define SSHKEY_LINE_MAX 16384 /* bytes; an RSA-16384 line is about 2.8 KB */

struct sshkey_info {
	char type[48];        /* "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", ... */
	char comment[256];    /* sanitised; "" when none */
	char fingerprint[64]; /* "SHA256:..." */
	int bits;             /* key size in bits (256 for ed25519, the modulus for RSA,
			       * the curve for ECDSA), 0 when unknown */
};

/* Validate one public key line: a known type, a base64 blob that decodes
 * to a sequence of SSH strings whose first is that same type (and, for
 * ECDSA, whose curve matches), an optional comment.  Leading and trailing
 * blanks are ignored; authorized_keys options are refused.  True with *out
 * filled; false with a short reason in err ("unknown key type 'x'",
 * "the key data is not valid base64", "the key data says ssh-rsa, the line
 * says ssh-ed25519", ...). */
bool sshkey_parse(const char *line, struct sshkey_info *out, char *err, size_t errlen);

/* The comment of a key line (the text after its type and key data,
 * trimmed and sanitised), whether the key is valid or not: a key the
 * service holds that does not validate still shows whose it is. */
void sshkey_comment(const char *line, char *out, size_t n);

/* The first key line of a .pub file into line[n] (blank and '#' lines
 * skipped).  False with a reason in err (unreadable, too large, empty). */
bool sshkey_read_file(const char *path, char *line, size_t n, char *err, size_t errlen);

/* The key an "add a key" form was given, checked: the pasted line when it
 * is not empty, else the first key of the file at path (NULL: no file
 * chosen), into line[n] with *out filled.  False with why in err and the
 * form field it concerns in *field ("line" or "file"). */
bool sshkey_from_input(const char *pasted, const char *path, char *line, size_t n,
		       struct sshkey_info *out, char *err, size_t errlen, const char **field);

/* The *.pub files of a directory (normally ~/.ssh), sorted; malloc'd array
 * of malloc'd paths (free each, then the array).  0 when none. */
size_t sshkey_list_pub(const char *dir, char ***paths);

#endif
