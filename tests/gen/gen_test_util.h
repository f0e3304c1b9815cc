/* SPDX-License-Identifier: MIT */
/*
** gen_test_util.h: helpers shared by the toolgov-gen test suites: capture
** diagnostics of the core library, run the toolgov-gen binary, read and
** write files, make scratch directories. Header-only (static functions) so
** each suite stays one executable.
*/
#ifndef TOOLGOV_GEN_TEST_UTIL_H
#define TOOLGOV_GEN_TEST_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "manifest/manifest.h"
#include "schema/schema.h"

/* Load `yaml` (len bytes) as "m.yaml" with no error cap; *out_text gets
** every diagnostic line (malloc'd, caller frees). */
static inline toolgov__manifest *tg_load(const char *yaml, size_t len, char **out_text,
                                         size_t *out_errors)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    toolgov__diag d;
    toolgov__manifest *m;
    ck_assert_ptr_nonnull(f);
    toolgov__diag_init(&d, f, 0);
    m = toolgov__manifest_load_mem("m.yaml", yaml, len, &d);
    fclose(f);
    /* A copy: gcc -O2 otherwise takes the text for a pointer into this
    ** frame (open_memstream got &buf) and warns -Wdangling-pointer. */
    *out_text = strdup(buf);
    free(buf);
    ck_assert_ptr_nonnull(*out_text);
    if (out_errors)
        *out_errors = d.errors;
    return m;
}

static inline char *tg_read_file(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (out_len)
        *out_len = (size_t)n;
    return buf;
}

static inline void tg_write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static inline char *tg_tmpdir(void)
{
    char tmpl[] = "/tmp/toolgov-gen-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

static inline void tg_rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Run argv (argv[0] a path) with stdout and stderr captured into malloc'd
** strings; kill it after timeout_s seconds. Returns the exit status, or
** 128+signal when it died, or -1 on timeout. */
static inline int tg_run_in(char *const argv[], const char *stdin_path, char **out_stdout,
                            char **out_stderr, unsigned timeout_s);
static inline int tg_run(char *const argv[], char **out_stdout, char **out_stderr,
                         unsigned timeout_s)
{
    return tg_run_in(argv, NULL, out_stdout, out_stderr, timeout_s);
}

/* The same with standard input read from stdin_path (NULL: inherited). */
static inline int tg_run_in(char *const argv[], const char *stdin_path, char **out_stdout,
                            char **out_stderr, unsigned timeout_s)
{
    char outp[] = "/tmp/toolgov-gen-out-XXXXXX", errp[] = "/tmp/toolgov-gen-err-XXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp), status = 0;
    pid_t pid, w;
    time_t start = time(NULL);
    ck_assert_int_ge(fo, 0);
    ck_assert_int_ge(fe, 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        if (stdin_path) {
            int fi = open(stdin_path, O_RDONLY);
            if (fi < 0)
                _exit(126);
            dup2(fi, 0);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    for (;;) {
        w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if ((unsigned)(time(NULL) - start) > timeout_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            status = -1;
            break;
        }
        {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    close(fo);
    close(fe);
    if (out_stdout)
        *out_stdout = tg_read_file(outp, NULL);
    if (out_stderr)
        *out_stderr = tg_read_file(errp, NULL);
    unlink(outp);
    unlink(errp);
    if (status == -1)
        return -1;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

static inline size_t tg_count_lines_with(const char *text, const char *needle)
{
    size_t n = 0;
    const char *p = text;
    while ((p = strstr(p, needle)) != NULL) {
        n++;
        p += strlen(needle);
    }
    return n;
}

#endif /* TOOLGOV_GEN_TEST_UTIL_H */
