/* SPDX-License-Identifier: MIT */
/*
** spawn.h: run a command with a time bound and capture what it prints, plus
** the small file-system helpers the hostile and atomic-output suites share.
**
** The time bound is there so that a hang fails the test instead of stalling
** CI: it is set far above any normal run (20 s by default, the environment
** variable TOOLGOV_TEST_TIMEOUT overrides it, e.g. under valgrind), so a slow
** machine never fails a test because of it.
**
** Ownership: a spawn_result owns its `output` buffer; free it with
** spawn_result_free().
*/
#ifndef TOOLGOV_TESTS_SPAWN_H
#define TOOLGOV_TESTS_SPAWN_H

#include <stddef.h>

typedef struct spawn_result {
    int exit_code;     /* exit status, or 128 + signal when killed */
    int timed_out;     /* 1 when the bound was hit and the child was killed */
    double seconds;    /* wall-clock time the child took */
    char *output;      /* stdout and stderr interleaved, NUL-terminated */
    size_t output_len; /* bytes of output kept (all of it, up to 64 MiB) */
} spawn_result;

/* The time bound in seconds: TOOLGOV_TEST_TIMEOUT or 20. */
double spawn_timeout(void);

/* Run argv (argv[0] is a path, searched in PATH when it has no '/'), with
** extra environment entries `env` ("K=V", NULL-terminated, may be NULL).
** Returns 0, or -1 when the child could not be started (errno set). */
int spawn_run(spawn_result *out, char *const argv[], char *const env[],
              double timeout_seconds);

void spawn_result_free(spawn_result *r);

/* Path of the toolgov-gen under test (environment TOOLGOV_GEN); aborts the
** test run with a message when it is unset. Borrowed. */
const char *spawn_gen_path(void);

/* Make a fresh temporary directory; returns a malloc'd path. */
char *tmpdir_make(const char *tag);
/* Remove a directory tree (best effort). */
void tmpdir_remove(const char *path);
/* Number of entries in a directory (without . and ..), -1 on error. */
long dir_count(const char *path);
/* Write `len` bytes to `dir`/`name`; returns the malloc'd path. Aborts on
** failure (a test setup problem). */
char *file_write(const char *dir, const char *name, const char *data, size_t len);
/* Read a whole file; returns malloc'd bytes (NUL-terminated) or NULL. */
char *file_read(const char *path, size_t *len);
/* malloc'd "dir/name". */
char *path_join(const char *dir, const char *name);

/* A growable byte buffer for building big inputs at test time. */
typedef struct sbuf {
    char *data;
    size_t len;
    size_t cap;
} sbuf;
void sbuf_add(sbuf *b, const char *data, size_t len);
void sbuf_puts(sbuf *b, const char *s);
void sbuf_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sbuf_repeat(sbuf *b, const char *s, size_t times);
void sbuf_free(sbuf *b);

#endif /* TOOLGOV_TESTS_SPAWN_H */
