/* SPDX-License-Identifier: MIT */
/*
** grants_file.c: standing grants on disk for toolgov-mcp and toolgov-agent
** (grants_file.h).
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

/* The stream for a message, its program's name written. */
static FILE *say(const toolgov_mcp_grants_file *gf)
{
    fprintf(gf->err, "%s: ", gf->prog);
    return gf->err;
}

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

/* The key file: the key's 32 bytes as they are, as toolgov-agent keeps the
** key that seals its --state (one TOOLGOV_STATE_KEY_FILE serves both);
** made with a new key when missing. 0 or -1 after a message. */
static int read_key(toolgov_mcp_grants_file *gf, const char *key_path)
{
    struct stat st;
    char *text = NULL;
    size_t len = 0;
    int rc = read_all(key_path, &text, &len);

    if (rc == 1) {
        if (toolgov_state_key_generate(&gf->key) != 0) {
            fprintf(say(gf), "%s: no key could be made (the system's random "
                             "source failed)\n", key_path);
            return -1;
        }
        if (write_whole(key_path, (const char *)gf->key.bytes, sizeof gf->key.bytes, 0600) !=
            0) {
            fprintf(say(gf), "%s: cannot write the new key: %s\n", key_path,
                    strerror(errno));
            return -1;
        }
        return 0;
    }
    if (rc < 0) {
        fprintf(say(gf), "%s: cannot read the key: %s\n", key_path,
                strerror(errno));
        return -1;
    }
    rc = -1;
    if (stat(key_path, &st) == 0 && (st.st_mode & 077))
        fprintf(say(gf), "%s: the key file may be read by others; make it the "
                         "owner's alone (chmod 600 %s)\n", key_path, key_path);
    else if (len != sizeof gf->key.bytes)
        fprintf(say(gf), "%s: not a key: the file must hold the key's %d bytes "
                         "(as toolgov-agent makes it); remove it to have a new one made\n",
                key_path, (int)sizeof gf->key.bytes);
    else {
        memcpy(gf->key.bytes, text, sizeof gf->key.bytes);
        rc = 0;
    }
    memset(text, 0, len);
    free(text);
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
        fprintf(say(gf), "%s: cannot read the grants: %s\n", gf->path,
                strerror(errno));
        return -1;
    }
    rc = toolgov_grants_load(set, text, len, &gf->key);
    free(text);
    if (rc == TOOLGOV_ESTATE) {
        fprintf(say(gf), "%s: refused: the grants are not sealed with this key "
                         "for user '%s', or were altered; keep the file and key together, or "
                         "remove the file to start with no grants\n", gf->path, gf->user);
        return -1;
    }
    if (rc) {
        fprintf(say(gf), "%s: %s\n", gf->path, toolgov_strerror(rc));
        return -1;
    }
    return 0;
}

int toolgov_mcp_grants_open(toolgov_mcp_grants_file *gf, const char *path, const char *user,
                            const char *key_path, const toolgov_registry *reg, const char *prog,
                            FILE *err)
{
    char pwbuf[4096];
    struct passwd pwd, *pw = NULL;

    memset(gf, 0, sizeof *gf);
    gf->err = err;
    gf->prog = prog;
    gf->reg = reg;
    if (!user || !*user) {
        if (getpwuid_r(getuid(), &pwd, pwbuf, sizeof pwbuf, &pw) != 0)
            pw = NULL;
        user = pw && pw->pw_name && *pw->pw_name ? pw->pw_name : NULL;
        if (!user) {
            fprintf(say(gf), "--grants: the user has no login name; name one with "
                         "--grants-user NAME\n");
            return -1;
        }
    }
    if (strlen(user) > TOOLGOV_GRANTS_NAME_MAX) {
        fprintf(say(gf), "--grants-user: a name of at most %d bytes\n",
                TOOLGOV_GRANTS_NAME_MAX);
        return -1;
    }
    snprintf(gf->user, sizeof gf->user, "%s", user);
    if (!(gf->path = strdup(path)) || toolgov_grants_new(&gf->set, gf->user, NULL) != 0) {
        fprintf(say(gf), "out of memory\n");
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
        fprintf(say(gf), "%s: cannot write the grants: %s\n", gf->path,
                strerror(errno));
        rc = TOOLGOV_EFAIL;
    }
out:
    if (rc && rc != TOOLGOV_EFAIL)
        fprintf(say(gf), "%s: the grant for %s was not kept: %s; it holds for "
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
