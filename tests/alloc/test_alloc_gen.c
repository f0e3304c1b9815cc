/* SPDX-License-Identifier: MIT */
/*
** test_alloc_gen.c: the generator under allocation failure.
**
** The whole of load + validate + generate runs with the N-th allocation
** failing, for N = 1, 2, ... until a run sees no failure. failalloc.c
** replaces malloc for the whole process, so libyaml's and the C library's
** allocations fail too, not only the generator's own. Each failing run must:
**   - report an error through the diagnostics (never crash, never succeed
**     with a half result: a run that reports success must have produced
**     exactly the reference output);
**   - leave the output directory as it was: empty when it was empty, the
**     previous good files byte-identical when there were some, no stray
**     temporary file;
**   - free every block it allocated.
** The invalid-manifest pass does the same on the error path, where the
** diagnostics and "did you mean" suggestions allocate.
**
** Plain build only (failalloc cannot coexist with ASan); CI also runs it
** under valgrind.
*/
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emit/codegen.h"
#include "emit/generate.h"
#include "base/diag.h"
#include "failalloc.h"
#include "manifest/manifest.h"
#include "spawn.h"

/* Covers every key of the format, so every branch that allocates runs. */
static const char good_manifest[] =
    "# allocation-failure test manifest\n"
    "name: alloc\n"
    "provides: [tool]\n"
    "tools:\n"
    "  lookup:\n"
    "    effect: read\n"
    "    description: \"Find \\\"things\\\" ?\?= */ \\u00e9.\"\n"
    "    pinned: true\n"
    "  digest:\n"
    "    effect: read\n"
    "    answers_directly: true\n"
    "    description: Summarise.\n"
    "    guidance: >-\n"
    "      Call digest for a whole-day question;\n"
    "      it already merges everything.\n"
    "  create_note:\n"
    "    effect: write\n"
    "    confirm: once\n"
    "    description: Create one note.\n"
    "  quick_note:\n"
    "    effect: write\n"
    "    confirm: never\n"
    "    answers_directly: true\n"
    "    description: Write a note the user dictated.\n"
    "  wipe:\n"
    "    effect: destructive\n"
    "    description: Delete every note.\n";

/* The previous generation in the directory, from an older manifest. */
static const char old_manifest[] =
    "name: alloc\n"
    "provides: [tool]\n"
    "tools:\n"
    "  lookup:\n"
    "    effect: read\n"
    "    description: The old one.\n";

/* Many kinds of error at once: unknown keys with suggestions, bad effects,
** rule violations, duplicates. */
static const char bad_manifest[] =
    "name: Alloc\n"
    "provides: [tool, widget]\n"
    "tols: {}\n"
    "tools:\n"
    "  lookup:\n"
    "    efect: read\n"
    "    description: Find.\n"
    "  lookup:\n"
    "    effect: raed\n"
    "    description: \"\"\n"
    "  int:\n"
    "    effect: read\n"
    "    confirm: once\n"
    "    description: Keyword.\n"
    "  wipe:\n"
    "    effect: destructive\n"
    "    answers_directly: yes please\n"
    "    pinned: [1]\n"
    "    description: Delete.\n"
    "    guidance: &g x\n";

static char sink_buffer[1 << 16];

/* A diagnostics sink that never allocates: a temp file with a static
** buffer, set up before the allocator is armed. */
static FILE *open_sink(void)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(setvbuf(f, sink_buffer, _IOFBF, sizeof sink_buffer), 0);
    return f;
}

static int run_once(toolgov__diag *d, const char *text, size_t len, const char *out_dir)
{
    toolgov__manifest *m = toolgov__manifest_load_mem("alloc.yaml", text, len, d);
    int rc;
    if (m == NULL)
        return -1;
    /* Frees m (no ck_assert here: Check allocates while failures are
    ** injected). */
    rc = toolgov__generate_consume(&m, out_dir, d);
    return m == NULL ? rc : -2;
}

typedef struct snapshot {
    char *h, *c;
    size_t h_len, c_len;
} snapshot;

static void snap(snapshot *s, const char *dir)
{
    char *hp = path_join(dir, "alloc.toolgov.h");
    char *cp = path_join(dir, "alloc.toolgov.c");
    s->h = file_read(hp, &s->h_len);
    s->c = file_read(cp, &s->c_len);
    ck_assert_ptr_nonnull(s->h);
    ck_assert_ptr_nonnull(s->c);
    free(hp);
    free(cp);
}

static void snap_free(snapshot *s)
{
    free(s->h);
    free(s->c);
}

static int snap_equal(const snapshot *a, const snapshot *b)
{
    return a->h_len == b->h_len && a->c_len == b->c_len &&
           memcmp(a->h, b->h, a->h_len) == 0 && memcmp(a->c, b->c, a->c_len) == 0;
}

/* Generate `text` into a fresh directory without any failure. */
static void reference(snapshot *out, const char *text)
{
    char *dir = tmpdir_make("alloc-ref");
    toolgov__diag d;
    FILE *sink = open_sink();
    toolgov__diag_init(&d, sink, 50);
    ck_assert_int_eq(run_once(&d, text, strlen(text), dir), 0);
    snap(out, dir);
    fclose(sink);
    tmpdir_remove(dir);
    free(dir);
}

static void check_no_leak(unsigned long n)
{
    if (failalloc_live() != 0) {
        failalloc_dump_live(stderr, 10);
        ck_abort_msg("failing allocation %lu: %zu blocks leaked", n, failalloc_live());
    }
}

/* with_old: the directory holds the previous generation, which a failing
** run must leave byte-identical. */
static void sweep_good(int with_old)
{
    snapshot want, old = {0};
    unsigned long n;
    unsigned long failures = 0;
    reference(&want, good_manifest);
    if (with_old)
        reference(&old, old_manifest);
    for (n = 1;; n++) {
        char *dir = tmpdir_make("alloc");
        toolgov__diag d;
        FILE *sink = open_sink();
        int rc;
        if (with_old) {
            free(file_write(dir, "alloc.toolgov.h", old.h, old.h_len));
            free(file_write(dir, "alloc.toolgov.c", old.c, old.c_len));
        }
        toolgov__diag_init(&d, sink, 50);
        failalloc_arm(n);
        rc = run_once(&d, good_manifest, sizeof good_manifest - 1, dir);
        failalloc_disarm();
        check_no_leak(n);
        if (!failalloc_injected()) {
            snapshot got;
            ck_assert_int_eq(rc, 0);
            snap(&got, dir);
            ck_assert_msg(snap_equal(&got, &want), "output differs from the reference");
            snap_free(&got);
            ck_assert_int_eq(dir_count(dir), 2);
            fclose(sink);
            tmpdir_remove(dir);
            free(dir);
            break;
        }
        if (rc == 0) {
            /* The failure was absorbed (a C library fallback): then the
            ** output must be the complete, correct one. */
            snapshot got;
            snap(&got, dir);
            ck_assert_msg(snap_equal(&got, &want),
                          "failing allocation %lu: success reported with wrong output", n);
            snap_free(&got);
            ck_assert_int_eq(dir_count(dir), 2);
        } else {
            failures++;
            ck_assert_msg(d.errors > 0, "failing allocation %lu: failed without a diagnostic", n);
            if (with_old) {
                snapshot got;
                ck_assert_msg(dir_count(dir) == 2,
                              "failing allocation %lu: %ld entries left (temporary files?)", n,
                              dir_count(dir));
                snap(&got, dir);
                ck_assert_msg(snap_equal(&got, &old),
                              "failing allocation %lu: previous output changed", n);
                snap_free(&got);
            } else {
                ck_assert_msg(dir_count(dir) == 0,
                              "failing allocation %lu: %ld entries left in an empty directory",
                              n, dir_count(dir));
            }
        }
        fclose(sink);
        tmpdir_remove(dir);
        free(dir);
    }
    /* Zero would mean malloc was not ours (valgrind without
    ** --soname-synonyms=somalloc=nouserintercepts replaces it), and the
    ** sweep above proved nothing. */
    ck_assert_msg(n > 1, "no allocation was counted: is failalloc's malloc in use?");
    printf("alloc-gen%s: %lu allocations in a full run, %lu failing runs checked\n",
           with_old ? " (over previous output)" : "", n - 1, failures);
    snap_free(&want);
    if (with_old)
        snap_free(&old);
}

START_TEST(test_generate_every_failure_empty_dir)
{
    sweep_good(0);
}
END_TEST

START_TEST(test_generate_every_failure_over_previous_output)
{
    sweep_good(1);
}
END_TEST

START_TEST(test_errors_every_failure)
{
    unsigned long n;
    size_t want_errors;
    {
        toolgov__diag d;
        FILE *sink = open_sink();
        toolgov__manifest *m;
        toolgov__diag_init(&d, sink, 0);
        m = toolgov__manifest_load_mem("bad.yaml", bad_manifest, sizeof bad_manifest - 1, &d);
        ck_assert_ptr_null(m);
        want_errors = d.errors;
        ck_assert_uint_ge(want_errors, 8);
        fclose(sink);
    }
    for (n = 1;; n++) {
        toolgov__diag d;
        FILE *sink = open_sink();
        toolgov__manifest *m;
        toolgov__diag_init(&d, sink, 0);
        failalloc_arm(n);
        m = toolgov__manifest_load_mem("bad.yaml", bad_manifest, sizeof bad_manifest - 1, &d);
        failalloc_disarm();
        check_no_leak(n);
        ck_assert_ptr_null(m);
        ck_assert_uint_ge(d.errors, 1);
        fclose(sink);
        if (!failalloc_injected()) {
            ck_assert_uint_eq(d.errors, want_errors);
            break;
        }
    }
    ck_assert_msg(n > 1, "no allocation was counted: is failalloc's malloc in use?");
    printf("alloc-gen (invalid manifest): %lu allocations, %zu errors\n", n - 1, want_errors);
}
END_TEST

START_TEST(test_load_file_every_failure)
{
    /* The file-reading path (fopen, the size check, the read). */
    char *dir = tmpdir_make("alloc-file");
    char *path = file_write(dir, "alloc.yaml", good_manifest, sizeof good_manifest - 1);
    unsigned long n;
    for (n = 1;; n++) {
        toolgov__diag d;
        FILE *sink = open_sink();
        toolgov__manifest *m;
        toolgov__diag_init(&d, sink, 50);
        failalloc_arm(n);
        m = toolgov__manifest_load(path, &d);
        toolgov__manifest_free(m);
        failalloc_disarm();
        check_no_leak(n);
        fclose(sink);
        if (!failalloc_injected()) {
            ck_assert_ptr_nonnull(m);
            break;
        }
        ck_assert_msg(m != NULL || d.errors > 0,
                      "failing allocation %lu: NULL without a diagnostic", n);
    }
    printf("alloc-gen (load from file): %lu allocations\n", n - 1);
    free(path);
    tmpdir_remove(dir);
    free(dir);
}
END_TEST

static Suite *alloc_gen_suite(void)
{
    Suite *s = suite_create("alloc_gen");
    TCase *tc = tcase_create("alloc_gen");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_generate_every_failure_empty_dir);
    tcase_add_test(tc, test_generate_every_failure_over_previous_output);
    tcase_add_test(tc, test_errors_every_failure);
    tcase_add_test(tc, test_load_file_every_failure);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(alloc_gen_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
