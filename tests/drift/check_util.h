/* SPDX-License-Identifier: MIT */
/*
** check_util.h: what the end-to-end tests of `toolgov-gen check` share (the
** command run in process with stderr captured, a scratch directory per test,
** the demo manifest). Included by test_check.c and test_evasions.c only;
** everything is static, one copy per test file.
*/
#ifndef TOOLGOV_TEST_CHECK_UTIL_H
#define TOOLGOV_TEST_CHECK_UTIL_H

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"

#define DATA TOOLGOV_SOURCE_DIR "/tests/drift/data/"
#define INC_RUNTIME "-I" TOOLGOV_SOURCE_DIR "/runtime/include"
#define INC_DATA "-I" TOOLGOV_SOURCE_DIR "/tests/drift/data"

static char dir[256];
static char manifest[300], stamp[300], depfile[300];

static inline void make_dir(const char *sub)
{
    snprintf(dir, sizeof dir, "/tmp/toolgov-test-check-%ld%s", (long)getpid(), sub);
    mkdir(dir, 0700); /* fresh per test: Check forks one process per test */
    snprintf(manifest, sizeof manifest, "%s/demo.yaml", dir);
    snprintf(stamp, sizeof stamp, "%s/demo.check.stamp", dir);
    snprintf(depfile, sizeof depfile, "%s/demo.check.d", dir);
}

static inline void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static inline char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Remove what a test left in its directory (runs after each test). */
static inline void cleanup(void)
{
    static const char *const names[] = {
        "demo.yaml", "demo.check.stamp", "demo.check.d", "stderr.txt",
    };
    char p[400];
    if (!dir[0])
        return;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static inline int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static const char demo_abc[] =
    "name: demo\n"
    "provides: [tool]\n"
    "tools:\n"
    "  alpha:\n"
    "    effect: read\n"
    "    description: A.\n"
    "  beta:\n"
    "    effect: read\n"
    "    description: B.\n"
    "  gamma:\n"
    "    effect: write\n"
    "    description: C.\n";

/* Run check_main with stderr captured; returns the exit status and leaves
** the captured text in *err (static buffer). */
static inline int run_check(char **err, int argc, const char **argv)
{
    char errpath[320];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(2);
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    close(fd);
    int rc = toolgov__check_main(argc, (char **)argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    *err = read_file(errpath);
    return rc;
}

#define RUN(err, ...)                                                          \
    run_check(&(err), (int)(sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(const char *)), \
              (const char *[]){ __VA_ARGS__ })

#endif /* TOOLGOV_TEST_CHECK_UTIL_H */
