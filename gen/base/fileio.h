/* SPDX-License-Identifier: MIT */
/*
** fileio.h: all of toolgov-gen's disk work, in one place.
**
** The generator reads one manifest and writes a header/C pair, a stamp and
** (the drift check) a depfile; every one of those touches the disk here, so
** the renderer (codegen.c) only renders and the loaders only parse:
**   - a bounded read of a manifest (a file, or standard input for "-"),
**     refused past TOOLGOV_MANIFEST_MAX_BYTES whatever the file claims;
**   - mkdir -p of an output directory;
**   - the atomic replacement of a set of files: every file is staged beside
**     its target first, a file whose content is unchanged is not written
**     (so its time stays and nothing that includes it rebuilds), and the
**     renames happen only after every write succeeded;
**   - touch(): a stamp's time is updated, its content never emptied;
**   - a Makefile-syntax depfile, written atomically.
**
** Errors are reported to the diag as `path: error: ...` (the file named is
** the one asked for, never a temporary name), and returned as a negative
** TOOLGOV_E* code. On failure nothing is left behind: no temporary, no half
** file, no target replaced.
**
** Ownership: paths and contents are borrowed for the call; a read buffer
** is malloc'd and the caller's to free().
*/
#ifndef TOOLGOV_GEN_FILEIO_H
#define TOOLGOV_GEN_FILEIO_H

#include <stddef.h>

#include "base/diag.h"

/* The largest manifest read, in bytes (SPEC section 1). */
#define TOOLGOV_MANIFEST_MAX_BYTES (16u * 1024u * 1024u)

/* Read the whole manifest at `path` ("-": standard input, named "<stdin>"
** in messages by the caller) into *out (malloc'd, not NUL-terminated, never
** NULL on success) and *out_len. 0, or a negative code after one error
** (cannot open, a directory, over the limit, a read error, out of memory). */
int toolgov__fileio_read_manifest(char **out, size_t *out_len, const char *path,
                                  toolgov__diag *d);

/* Read the regular file at `path` whole, when it has at most `max` bytes,
** into *out (malloc'd, not NUL-terminated) and *out_len, reporting nothing:
** for showing a source line beside a diagnostic that is already reported.
** Never blocks on a FIFO or a device (only regular files are read). 0, or -1
** (then *out is NULL). */
int toolgov__fileio_read_quiet(char **out, size_t *out_len, const char *path, size_t max);

/* mkdir -p `dir`. 0, or a negative code after one error. */
int toolgov__fileio_mkdirs(const char *dir, toolgov__diag *d);

/* One file of a set written together. */
typedef struct toolgov__out_file {
    const char *path;
    const char *data;
    size_t len;
} toolgov__out_file;

/* Replace files[0..n) (n <= 8) atomically as a set, in order, each only when
** its content changed. When the first two both change, the first file's
** previous content is kept (a hard link) until the second is in place, so a
** failing second rename puts the pair back as it was. 0, or a negative code
** after one error; on failure no target has changed. */
int toolgov__fileio_replace(const toolgov__out_file *files, size_t n, toolgov__diag *d);

/* Create `path` if missing and set its modification time to now, without
** changing its content. 0, or -1 with errno set. */
int toolgov__fileio_touch(const char *path);

/* Write the depfile `path`: "target: dep dep ..." in Makefile syntax
** (spaces, '#' and '$' escaped; a name with "/../" or "/./" written
** resolved, since make and Ninja drop "dir/.." as text, which is wrong
** through a symbolic link), through a temporary file and a rename. 0, or a
** negative code (nothing reported: the caller names the depfile). */
int toolgov__fileio_write_depfile(const char *path, const char *target,
                                  const char *const *deps, size_t n);

#endif /* TOOLGOV_GEN_FILEIO_H */
