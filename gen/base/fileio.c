/* SPDX-License-Identifier: MIT */
/*
** fileio.c: toolgov-gen's disk work (see fileio.h).
*/
#define _DEFAULT_SOURCE /* flock */
#define _XOPEN_SOURCE 700 /* futimens, link, realpath, open_memstream */
#include "base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <toolgov/toolgov.h>

#include "base/buf.h"

#define REPLACE_MAX 8u

/* ---- reading ------------------------------------------------------------- */

/* Read fd to its end into *out. A regular file's size (st) sizes the
** buffer, so it is read in one call; a pipe grows it by doubling. */
static int read_stream(char **out, size_t *out_len, int fd, const struct stat *st,
                       const char *path, toolgov__diag *d)
{
    toolgov__buf b; /* the generator's one growable buffer (buf.h) */
    size_t cap;

    /* Read at most one byte past the cap, so a pipe or a growing file is
    ** refused the same way as a big regular file. */
    cap = (st && S_ISREG(st->st_mode) ? (size_t)st->st_size : 65536) + 1;
    if (cap > TOOLGOV_MANIFEST_MAX_BYTES + 1)
        cap = TOOLGOV_MANIFEST_MAX_BYTES + 1;
    toolgov__buf_init(&b);
    for (;;) {
        ssize_t n;
        if (toolgov__buf_reserve(&b, cap - b.len)) {
            toolgov__diag_error(d, path, 0, 0, "out of memory while reading the manifest");
            toolgov__buf_free(&b);
            return TOOLGOV_ENOMEM;
        }
        n = read(fd, b.data + b.len, cap - b.len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            toolgov__diag_error(d, path, 0, 0, "cannot read the manifest: %s", strerror(errno));
            toolgov__buf_free(&b);
            return TOOLGOV_EFAIL;
        }
        if (n == 0)
            break;
        b.len += (size_t)n;
        if (b.len > TOOLGOV_MANIFEST_MAX_BYTES) {
            toolgov__diag_error(d, path, 1, 1,
                                "the manifest is more than 16 MiB (%u bytes); the limit is 16 MiB",
                                TOOLGOV_MANIFEST_MAX_BYTES);
            toolgov__buf_free(&b);
            return TOOLGOV_EINVAL;
        }
        /* Full and not over the limit: cap <= the limit, so it grows. */
        if (b.len == cap)
            cap = cap * 2 > TOOLGOV_MANIFEST_MAX_BYTES + 1 ? TOOLGOV_MANIFEST_MAX_BYTES + 1
                                                            : cap * 2;
    }
    *out = b.data;
    *out_len = b.len;
    return 0;
}

int toolgov__fileio_read_manifest(char **out, size_t *out_len, const char *path,
                                  toolgov__diag *d)
{
    struct stat st;
    int rc, have_st, fd;

    *out = NULL;
    *out_len = 0;
    if (strcmp(path, "-") == 0)
        return read_stream(out, out_len, STDIN_FILENO, NULL, "<stdin>", d);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        toolgov__diag_error(d, path, 0, 0, "cannot open the manifest: %s", strerror(errno));
        return TOOLGOV_EFAIL;
    }
    memset(&st, 0, sizeof st);
    have_st = fstat(fd, &st) == 0;
    if (have_st && S_ISDIR(st.st_mode)) {
        toolgov__diag_error(d, path, 0, 0, "is a directory, not a manifest file");
        close(fd);
        return TOOLGOV_EINVAL;
    }
    if (have_st && S_ISREG(st.st_mode) &&
        (unsigned long long)st.st_size > TOOLGOV_MANIFEST_MAX_BYTES) {
        toolgov__diag_error(d, path, 1, 1,
                            "the manifest is %llu bytes; the limit is 16 MiB (%u bytes)",
                            (unsigned long long)st.st_size, TOOLGOV_MANIFEST_MAX_BYTES);
        close(fd);
        return TOOLGOV_EINVAL;
    }
    rc = read_stream(out, out_len, fd, have_st ? &st : NULL, path, d);
    close(fd);
    return rc;
}

int toolgov__fileio_read_quiet(char **out, size_t *out_len, const char *path, size_t max)
{
    struct stat st;
    char *buf;
    size_t got = 0;
    int fd;

    *out = NULL;
    *out_len = 0;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
        (unsigned long long)st.st_size > max) {
        close(fd);
        return -1;
    }
    buf = malloc((size_t)st.st_size ? (size_t)st.st_size : 1);
    if (!buf) {
        close(fd);
        return -1;
    }
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* shrank meanwhile: keep what was read */
        got += (size_t)n;
    }
    close(fd);
    *out = buf;
    *out_len = got;
    return 0;
}

/* ---- directories --------------------------------------------------------- */

int toolgov__fileio_mkdirs(const char *dir, toolgov__diag *d)
{
    size_t n = strlen(dir);
    char *p, *s;
    struct stat st;
    int rc = 0;
    if (n == 0) {
        toolgov__diag_error(d, "toolgov-gen", 0, 0, "the output directory is an empty path");
        return TOOLGOV_EINVAL;
    }
    /* A build's output directory is there from its second run on: one
    ** stat. A new one whose parent exists: one mkdir more. */
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        toolgov__diag_error(d, dir, 0, 0, "the output directory is not a directory");
        return TOOLGOV_EFAIL;
    }
    if (mkdir(dir, 0777) == 0)
        return 0;
    p = malloc(n + 1);
    if (!p) {
        toolgov__diag_error(d, dir, 0, 0, "out of memory");
        return TOOLGOV_ENOMEM;
    }
    memcpy(p, dir, n + 1);
    for (s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char save = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                toolgov__diag_error(d, p, 0, 0, "cannot create the output directory: %s",
                                    strerror(errno));
                rc = TOOLGOV_EFAIL;
                break;
            }
            *s = save;
            if (save == '\0')
                break;
        }
    }
    if (rc == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        toolgov__diag_error(d, dir, 0, 0, "the output directory is not a directory");
        rc = TOOLGOV_EFAIL;
    }
    free(p);
    return rc;
}

/* ---- atomic replacement -------------------------------------------------- */

/* Compare an open file with data[0..len) by reading it (when it cannot be
** mapped). */
static int same_by_reading(int fd, const char *data, size_t len)
{
    char chunk[65536];
    size_t off = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0 && off == len;
        if (off + (size_t)n > len || memcmp(chunk, data + off, (size_t)n) != 0)
            return 0;
        off += (size_t)n;
    }
}

/* 1 when the file at `path` holds exactly data[0..len); 0 otherwise (absent,
** different, unreadable: in every such case it gets written), with *absent
** set when there is no file at `path` at all. A size that differs answers
** without reading; an equal size is compared through a read-only mapping,
** so the pages are not copied out of the page cache. */
static int same_content(const char *path, const char *data, size_t len, int *absent)
{
    struct stat st;
    /* O_NONBLOCK: a FIFO at the output path (or a symbolic link to one)
    ** would block the open until a writer came; it is not a regular file,
    ** so it is replaced without being read. */
    int same = 0, fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    *absent = fd < 0 && errno == ENOENT;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size == len) {
        void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
        if (len == 0) {
            same = 1;
        } else if (map != MAP_FAILED) {
            same = memcmp(map, data, len) == 0;
            munmap(map, len);
        } else {
            same = same_by_reading(fd, data, len);
        }
    }
    close(fd);
    return same;
}

/* path + ".tmp<pid>.<attempt>" (attempt >= 0) or path + ".old<pid>"
** (attempt < 0), malloc'd, or NULL. */
static char *path_beside(const char *path, int attempt)
{
    size_t lp = strlen(path), n = lp + 48;
    char *p = malloc(n);
    if (!p)
        return NULL;
    memcpy(p, path, lp);
    if (attempt >= 0)
        snprintf(p + lp, n - lp, ".tmp%ld.%d", (long)getpid(), attempt);
    else
        snprintf(p + lp, n - lp, ".old%ld", (long)getpid());
    return p;
}

/* Create a temporary file beside `path` holding data[0..len); *out gets
** its malloc'd name. 0, or a negative code reported to d; on failure
** nothing is left behind. */
static int write_temp(char **out, const char *path, const char *data, size_t len,
                      toolgov__diag *d)
{
    char *tmp = NULL;
    int fd = -1, rc = TOOLGOV_EFAIL;
    size_t off = 0;
    int attempt;

    *out = NULL;
    /* O_EXCL on a name of our own: the mode follows the umask like any
    ** file the build writes, and a stale temporary is never reused. */
    for (attempt = 0; attempt < 100 && fd < 0; attempt++) {
        free(tmp);
        tmp = path_beside(path, attempt);
        if (!tmp) {
            toolgov__diag_error(d, path, 0, 0, "out of memory");
            return TOOLGOV_ENOMEM;
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) {
            /* Named by the file asked for: the temporary name is ours. */
            toolgov__diag_error(d, path, 0, 0, "cannot create the output file: %s",
                                strerror(errno));
            free(tmp);
            return TOOLGOV_EFAIL;
        }
    }
    if (fd < 0) {
        toolgov__diag_error(d, path, 0, 0, "cannot create a temporary file beside it");
        free(tmp);
        return TOOLGOV_EFAIL;
    }
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            toolgov__diag_error(d, path, 0, 0, "cannot write the output file: %s",
                                strerror(errno));
            goto out;
        }
        off += (size_t)w;
    }
    if (close(fd) != 0) {
        fd = -1;
        toolgov__diag_error(d, path, 0, 0, "cannot write the output file: %s", strerror(errno));
        goto out;
    }
    fd = -1;
    *out = tmp;
    tmp = NULL;
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    if (tmp)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* A copy of `from` in a new file `to`: the previous header kept where the
** file system has no hard links (vfat, exFAT, some network and VM shares).
** 0, or -1 with errno set (nothing left at `to`). */
static int copy_file(const char *from, const char *to)
{
    char buf[65536];
    int in = open(from, O_RDONLY | O_NONBLOCK | O_NOCTTY), out = -1, rc = -1, err = 0;
    ssize_t r = 0;
    if (in < 0)
        return -1;
    out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (out < 0)
        goto done;
    while ((r = read(in, buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            goto done;
        }
        for (ssize_t off = 0; off < r;) {
            ssize_t w = write(out, buf + off, (size_t)(r - off));
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                goto done;
            }
            off += w;
        }
    }
    rc = 0;
done:
    err = errno;
    if (out >= 0 && close(out) != 0 && rc == 0) {
        err = errno;
        rc = -1;
    }
    close(in);
    if (rc != 0 && out >= 0)
        unlink(to);
    errno = err;
    return rc;
}

/* Writers of one output directory take turns: an exclusive flock() on the
** directory itself (no lock file to leave behind) held from the compare to
** the last rename, so two generate runs writing one pair concurrently leave
** one run's pair, never a header of one beside the C file of the other.
** Returns the descriptor to close, or -1 where the directory cannot be
** locked (then the runs are not serialised). */
static int lock_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096]; /* no allocation: every one of them is a failure path */
    int fd;
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (n >= sizeof dir)
        return -1;
    memcpy(dir, slash ? path : ".", slash ? n : 1);
    dir[slash ? n : 1] = '\0';
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

int toolgov__fileio_replace(const toolgov__out_file *files, size_t n, toolgov__diag *d)
{
    char *tmps[REPLACE_MAX] = {NULL}, *backup = NULL;
    size_t i;
    int rc = 0, first_replaced = 0, lock = -1, absent[REPLACE_MAX] = {0};

    if (n > REPLACE_MAX)
        return TOOLGOV_EINVAL;
    if (n > 0)
        lock = lock_dir_of(files[0].path);
    /* Stage every file before replacing any: every allocation and every
    ** write happens here, so a failure leaves the directory as it was
    ** (tests/hostile/test_atomic.c, tests/alloc/test_alloc_gen.c). */
    for (i = 0; i < n; i++) {
        if (same_content(files[i].path, files[i].data, files[i].len, &absent[i]))
            continue;
        rc = write_temp(&tmps[i], files[i].path, files[i].data, files[i].len, d);
        if (rc)
            goto out;
    }

    /* When the first two both change, a hard link keeps the first file's
    ** previous content until the second is in place too, so a failing
    ** second rename can put the pair back as it was instead of leaving a
    ** new header beside an old C file. (A kill between the two renames can
    ** still leave such a pair; the stamp is then not updated, so the build
    ** runs the step again.) A first file that was not there has nothing
    ** to keep: undoing it means removing it. */
    if (n >= 2 && tmps[0] && tmps[1] && !absent[0]) {
        backup = path_beside(files[0].path, -1);
        if (!backup) {
            toolgov__diag_error(d, files[0].path, 0, 0, "out of memory");
            rc = TOOLGOV_ENOMEM;
            goto out;
        }
        unlink(backup);
        if (link(files[0].path, backup) != 0) {
            /* No hard links here (EPERM on vfat): a copy serves as well. */
            int kept = errno != ENOENT && copy_file(files[0].path, backup) == 0;
            if (!kept && errno != ENOENT) {
                toolgov__diag_error(d, files[0].path, 0, 0,
                                    "cannot keep the previous file while replacing it: %s",
                                    strerror(errno));
                rc = TOOLGOV_EFAIL;
                goto out;
            }
            if (!kept) {
                free(backup); /* no previous file: undoing means removing */
                backup = NULL;
            }
        }
    }
    for (i = 0; i < n; i++) {
        if (!tmps[i])
            continue;
        if (rename(tmps[i], files[i].path) != 0) {
            toolgov__diag_error(d, files[i].path, 0, 0, "cannot replace the output file: %s",
                                strerror(errno));
            rc = TOOLGOV_EFAIL;
            if (first_replaced) {
                if (backup)
                    rename(backup, files[0].path);
                else
                    unlink(files[0].path);
            }
            goto out;
        }
        free(tmps[i]);
        tmps[i] = NULL;
        if (i == 0)
            first_replaced = 1;
    }
out:
    for (i = 0; i < n; i++) {
        if (tmps[i])
            unlink(tmps[i]);
        free(tmps[i]);
    }
    if (backup)
        unlink(backup);
    free(backup);
    if (lock >= 0)
        close(lock); /* releases the flock */
    return rc;
}

/* ---- stamps and depfiles ------------------------------------------------- */

int toolgov__fileio_touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT, 0666);
    int rc = 0;
    if (fd < 0)
        return -1;
    if (futimens(fd, NULL) != 0)
        rc = -1;
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

/* Make and Ninja read the same escapes: a space and '#' take a backslash,
** '$' doubles. */
static void put_dep_path(FILE *f, const char *p)
{
    for (; *p; p++) {
        if (*p == ' ' || *p == '#' || *p == '\\')
            fputc('\\', f);
        else if (*p == '$')
            fputc('$', f);
        fputc(*p, f);
    }
}

/* libclang names libstdc++'s headers
** "/../lib/gcc/<triple>/12/../../../../include/c++/12/string", which the
** kernel resolves through /lib -> usr/lib to /usr/include/..., but which
** read as text names /include/..., a file that does not exist, so the
** check would never be up to date. Such a name is written resolved. */
static void put_dep_file(FILE *f, const char *p)
{
    if (strstr(p, "/../") || strstr(p, "/./")) {
        char *real = realpath(p, NULL);
        if (real) {
            put_dep_path(f, real);
            free(real);
            return;
        }
    }
    put_dep_path(f, p);
}

int toolgov__fileio_write_depfile(const char *path, const char *target,
                                  const char *const *deps, size_t n)
{
    char *text = NULL, *tmp = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&text, &len);
    int rc = 0;
    toolgov__diag quiet;

    if (!f)
        return TOOLGOV_ENOMEM;
    put_dep_path(f, target);
    fputs(":", f);
    for (i = 0; i < n; i++) {
        fputs(" \\\n  ", f);
        put_dep_file(f, deps[i]);
    }
    fputs("\n", f);
    if (ferror(f))
        rc = TOOLGOV_ENOMEM;
    if (fclose(f) != 0)
        rc = TOOLGOV_ENOMEM;
    if (rc == 0) {
        toolgov__diag_init(&quiet, NULL, 0);
        rc = write_temp(&tmp, path, text, len, &quiet);
        if (rc == 0 && rename(tmp, path) != 0) {
            unlink(tmp);
            rc = TOOLGOV_EFAIL;
        }
    }
    free(tmp);
    free(text);
    return rc;
}
