/* SPDX-License-Identifier: MIT */
/*
** grants_file.c: toolgov-mcp's standing grants on disk (grants_file.h).
*/
#define _POSIX_C_SOURCE 200809L
#include "grants_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The largest grants file read: TOOLGOV_GRANTS_MAX grants of a few
** hundred bytes each fit many times over. */
#define MAX_FILE ((size_t)64 << 20)

/* Read a whole file. 0; 1 when it does not exist; -1 (errno set, or
** EFBIG for one past MAX_FILE). */
static int read_all(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, n = 0;
    char *buf;

    if (!f)
        return errno == ENOENT ? 1 : -1;
    buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);

        n += got;
        if (n < cap) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
                errno = EIO;
            }
            break;
        }
        if (cap >= MAX_FILE) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        cap *= 2;
        {
            char *nb = realloc(buf, cap);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    *out = buf;
    *len = n;
    return 0;
}

/* Write text to path whole: a temporary file beside it, synced, renamed
** over it, so the file is always one whole text. 0 or -1 (errno). */
static int write_whole(const char *path, const char *text, size_t len, mode_t mode)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    int fd, saved;
    size_t off = 0;

    if (!tmp)
        return -1;
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    if (rename(tmp, path) != 0) {
        fd = -1;
        goto fail;
    }
    free(tmp);
    return 0;
fail:
    saved = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    errno = saved;
    return -1;
}

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The key file: 64 lowercase hex digits and an optional newline; made
** with a new key when missing. 0 or -1 after a message. */
static int read_key(toolgov_mcp_grants_file *gf, const char *key_path)
{
    struct stat st;
    char *text = NULL;
    size_t len = 0, i;
    int rc = read_all(key_path, &text, &len);

    if (rc == 1) {
        char hex[2 * TOOLGOV_STATE_KEY_BYTES + 2];

        if (toolgov_state_key_generate(&gf->key) != 0) {
            fprintf(gf->err, "toolgov-mcp: %s: no key could be made (the system's random "
                             "source failed)\n", key_path);
            return -1;
        }
        for (i = 0; i < TOOLGOV_STATE_KEY_BYTES; i++)
            snprintf(hex + 2 * i, 3, "%02x", gf->key.bytes[i]);
        hex[2 * TOOLGOV_STATE_KEY_BYTES] = '\n';
        if (write_whole(key_path, hex, sizeof hex - 1, 0600) != 0) {
            fprintf(gf->err, "toolgov-mcp: %s: cannot write the new key: %s\n", key_path,
                    strerror(errno));
            return -1;
        }
        return 0;
    }
    if (rc < 0) {
        fprintf(gf->err, "toolgov-mcp: %s: cannot read the key: %s\n", key_path,
                strerror(errno));
        return -1;
    }
    rc = -1;
    if (stat(key_path, &st) == 0 && (st.st_mode & 077)) {
        fprintf(gf->err, "toolgov-mcp: %s: the key file may be read by others; make it the "
                         "owner's alone (chmod 600 %s)\n", key_path, key_path);
        goto out;
    }
    if (len > 0 && text[len - 1] == '\n')
        len--;
    if (len != 2 * TOOLGOV_STATE_KEY_BYTES)
        goto bad;
    for (i = 0; i < TOOLGOV_STATE_KEY_BYTES; i++) {
        int hi = hex_digit((unsigned char)text[2 * i]),
            lo = hex_digit((unsigned char)text[2 * i + 1]);

        if (hi < 0 || lo < 0)
            goto bad;
        gf->key.bytes[i] = (unsigned char)(hi * 16 + lo);
    }
    rc = 0;
    goto out;
bad:
    fprintf(gf->err, "toolgov-mcp: %s: not a key: the file must hold 64 lowercase hex digits "
                     "(32 bytes); remove it to have a new one made\n", key_path);
out:
    if (text) {
        memset(text, 0, len);
        free(text);
    }
    return rc;
}

/* Read the grants file into `set`. 0 (also for a missing file) or -1 after
** a message. */
static int load(toolgov_mcp_grants_file *gf, toolgov_grants *set)
{
    char *text = NULL;
    size_t len = 0;
    int rc = read_all(gf->path, &text, &len);

    if (rc == 1)
        return 0;
    if (rc < 0) {
        fprintf(gf->err, "toolgov-mcp: %s: cannot read the grants: %s\n", gf->path,
                strerror(errno));
        return -1;
    }
    rc = toolgov_grants_load(set, text, len, &gf->key);
    free(text);
    if (rc == TOOLGOV_ESTATE) {
        fprintf(gf->err, "toolgov-mcp: %s: refused: the grants are not sealed with this key "
                         "for user '%s', or were altered; keep the file and key together, or "
                         "remove the file to start with no grants\n", gf->path, gf->user);
        return -1;
    }
    if (rc) {
        fprintf(gf->err, "toolgov-mcp: %s: %s\n", gf->path, toolgov_strerror(rc));
        return -1;
    }
    return 0;
}

int toolgov_mcp_grants_open(toolgov_mcp_grants_file *gf, const char *path, const char *user,
                            const char *key_path, const toolgov_registry *reg, FILE *err)
{
    memset(gf, 0, sizeof *gf);
    gf->err = err;
    gf->reg = reg;
    if (!user || !*user) {
        struct passwd *pw = getpwuid(getuid());

        user = pw && pw->pw_name && *pw->pw_name ? pw->pw_name : NULL;
        if (!user) {
            fprintf(err, "toolgov-mcp: --grants: the user has no login name; name one with "
                         "--grants-user NAME\n");
            return -1;
        }
    }
    if (strlen(user) > TOOLGOV_GRANTS_NAME_MAX) {
        fprintf(err, "toolgov-mcp: --grants-user: a name of at most %d bytes\n",
                TOOLGOV_GRANTS_NAME_MAX);
        return -1;
    }
    snprintf(gf->user, sizeof gf->user, "%s", user);
    if (!(gf->path = strdup(path)) || toolgov_grants_new(&gf->set, gf->user, NULL) != 0) {
        fprintf(err, "toolgov-mcp: out of memory\n");
        return -1;
    }
    if (read_key(gf, key_path) != 0 || load(gf, gf->set) != 0)
        return -1;
    return 0;
}

int toolgov_mcp_grants_store(void *ud, const toolgov_grant *grant)
{
    toolgov_mcp_grants_file *gf = ud;
    toolgov_grants *file = NULL;
    char *text = NULL;
    size_t need = 0;
    int rc;

    /* The file as it is now (another session may have kept grants), this
    ** one added, written whole. */
    if ((rc = toolgov_grants_new(&file, gf->user, NULL)) != 0)
        goto out;
    if (load(gf, file) != 0) {
        rc = TOOLGOV_ESTATE;
        goto out;
    }
    if ((rc = toolgov_grants_add(NULL, file, gf->reg, grant)) != 0 ||
        (rc = toolgov_grants_save(NULL, 0, &need, file, &gf->key)) != 0)
        goto out;
    if (!(text = malloc(need + 1))) {
        rc = TOOLGOV_ENOMEM;
        goto out;
    }
    if ((rc = toolgov_grants_save(text, need + 1, &need, file, &gf->key)) != 0)
        goto out;
    if (write_whole(gf->path, text, need, 0600) != 0) {
        fprintf(gf->err, "toolgov-mcp: %s: cannot write the grants: %s\n", gf->path,
                strerror(errno));
        rc = TOOLGOV_EFAIL;
    }
out:
    if (rc && rc != TOOLGOV_EFAIL)
        fprintf(gf->err, "toolgov-mcp: %s: the grant for %s was not kept: %s; it holds for "
                         "this session only\n", gf->path, grant->tool, toolgov_strerror(rc));
    free(text);
    toolgov_grants_free(file);
    return rc;
}

void toolgov_mcp_grants_close(toolgov_mcp_grants_file *gf)
{
    toolgov_grants_free(gf->set);
    free(gf->path);
    memset(gf, 0, sizeof *gf);
}
