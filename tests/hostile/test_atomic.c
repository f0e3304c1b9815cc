/* SPDX-License-Identifier: MIT */
/*
** test_atomic.c: a generation that fails or is killed halfway never leaves
** a truncated or mixed output behind.
**
** Each case starts from an output directory holding a previous good
** generation (from an older manifest), then runs `toolgov-gen generate` on a
** newer manifest with failio_shim.so preloaded, which fails (or kills the
** process at) the N-th open/write/close/rename, for N = 1, 2, ... until the
** run no longer reaches an N-th call. After every run the directory must be
** in one of two states:
**   - the generator reported success (exit 0): the new generation, complete;
**   - it reported failure (exit 1): the previous generation byte for byte,
**     no temporary file beside it, and the stamp file untouched;
** and after a kill (exit 137): neither generated file truncated, each file
** either its old or its new content, the stamp untouched (so the build runs
** the step again), and the next normal run repairs the directory.
*/
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

/* A header and a C file of different generations carry different
** generation marks: compiling the pair must stop at the C file's #error,
** so a kill between the two renames can never build silently. */
static void assert_mixed_pair_does_not_compile(const char *dir, const char *spec)
{
    char *src = path_join(dir, "atom.toolgov.c");
    char *argv[] = {"cc", "-fsyntax-only", "-I" TOOLGOV_SOURCE_DIR "/runtime/include", src, NULL};
    spawn_result r;
    ck_assert_int_eq(spawn_run(&r, argv, NULL, spawn_timeout()), 0);
    ck_assert_msg(r.exit_code != 0, "%s: a mixed pair compiled", spec);
    ck_assert_msg(strstr(r.output, "come from different runs of toolgov-gen") != NULL,
                  "%s: a mixed pair failed without the generation error:\n%s", spec, r.output);
    spawn_result_free(&r);
    free(src);
}

static const char old_manifest[] =
    "name: atom\n"
    "provides: [tool]\n"
    "tools:\n"
    "  lookup:\n"
    "    effect: read\n"
    "    description: The previous generation.\n";

static const char new_manifest[] =
    "name: atom\n"
    "provides: [tool]\n"
    "tools:\n"
    "  lookup:\n"
    "    effect: read\n"
    "    description: The new generation, longer than the old one so that a\n"
    "      truncated file cannot pass for either.\n"
    "  create_note:\n"
    "    effect: write\n"
    "    description: Create a note.\n";

typedef struct pair {
    char *h, *c;
    size_t h_len, c_len;
} pair;

static void pair_read(pair *p, const char *dir)
{
    char *hp = path_join(dir, "atom.toolgov.h");
    char *cp = path_join(dir, "atom.toolgov.c");
    p->h = file_read(hp, &p->h_len);
    p->c = file_read(cp, &p->c_len);
    free(hp);
    free(cp);
}

static void pair_free(pair *p)
{
    free(p->h);
    free(p->c);
    memset(p, 0, sizeof *p);
}

static int same(const char *a, size_t al, const char *b, size_t bl)
{
    return a != NULL && b != NULL && al == bl && memcmp(a, b, al) == 0;
}

/* The last exit-1 run failed on the stamp file, after both outputs. */
static int last_error_was_stamp;

static int run_gen(const char *manifest, const char *out_dir, const char *stamp,
                   const char *failio, const char *mark)
{
    char *argv[] = {(char *)spawn_gen_path(), "generate", "--manifest", (char *)manifest,
                    "--out-dir", (char *)out_dir, "--stamp", (char *)stamp, NULL};
    char preload[4096], spec[256], markenv[4096];
    char *env[6];
    int n = 0, code;
    spawn_result r;
    const char *shim = getenv("TOOLGOV_FAILIO_SHIM");
    if (failio != NULL) {
        ck_assert_ptr_nonnull(shim);
        snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim);
        snprintf(spec, sizeof spec, "TOOLGOV_FAILIO=%s", failio);
        snprintf(markenv, sizeof markenv, "TOOLGOV_FAILIO_MARK=%s", mark);
        env[n++] = preload;
        env[n++] = spec;
        env[n++] = markenv;
        /* An ASan build of toolgov-gen must accept a preloaded library. */
        env[n++] = "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1";
    }
    env[n] = NULL;
    ck_assert_int_eq(spawn_run(&r, argv, env, spawn_timeout()), 0);
    ck_assert_msg(!r.timed_out, "toolgov-gen hung under %s", failio ? failio : "no fault");
    code = r.exit_code;
    if (code != 0 && code != 1 && code != 137)
        ck_abort_msg("%s: unexpected exit %d:\n%s", failio, code, r.output);
    if (code == 1) {
        ck_assert_msg(strstr(r.output, "error: ") != NULL, "%s: exit 1 without an error:\n%s",
                      failio, r.output);
        last_error_was_stamp = strstr(r.output, "stamp") != NULL;
    }
    spawn_result_free(&r);
    return code;
}

typedef struct fixture {
    char *dir, *out, *stamp, *old_yaml, *new_yaml, *mark;
    pair old_gen, new_gen;
} fixture;

static void fixture_init(fixture *f)
{
    char *ref;
    memset(f, 0, sizeof *f);
    f->dir = tmpdir_make("atomic");
    f->out = path_join(f->dir, "out");
    f->stamp = path_join(f->dir, "atom.stamp");
    f->mark = path_join(f->dir, "fault.fired");
    f->old_yaml = file_write(f->dir, "old.yaml", old_manifest, sizeof old_manifest - 1);
    f->new_yaml = file_write(f->dir, "atom.yaml", new_manifest, sizeof new_manifest - 1);
    ref = path_join(f->dir, "ref");
    ck_assert_int_eq(run_gen(f->new_yaml, ref, f->stamp, NULL, NULL), 0);
    pair_read(&f->new_gen, ref);
    ck_assert_int_eq(run_gen(f->old_yaml, ref, f->stamp, NULL, NULL), 0);
    pair_read(&f->old_gen, ref);
    ck_assert_ptr_nonnull(f->new_gen.h);
    ck_assert_ptr_nonnull(f->old_gen.h);
    ck_assert(!same(f->new_gen.h, f->new_gen.h_len, f->old_gen.h, f->old_gen.h_len));
    ck_assert(!same(f->new_gen.c, f->new_gen.c_len, f->old_gen.c, f->old_gen.c_len));
    tmpdir_remove(ref);
    free(ref);
}

static void fixture_free(fixture *f)
{
    tmpdir_remove(f->dir);
    free(f->dir);
    free(f->out);
    free(f->stamp);
    free(f->mark);
    free(f->old_yaml);
    free(f->new_yaml);
    pair_free(&f->old_gen);
    pair_free(&f->new_gen);
}

/* Reset out/ to the previous generation (or to empty), and the stamp to
** "old". */
static void prepare(fixture *f, struct stat *stamp_st, int with_old)
{
    tmpdir_remove(f->out);
    ck_assert_int_eq(mkdir(f->out, 0700), 0);
    if (with_old) {
        free(file_write(f->out, "atom.toolgov.h", f->old_gen.h, f->old_gen.h_len));
        free(file_write(f->out, "atom.toolgov.c", f->old_gen.c, f->old_gen.c_len));
    }
    free(file_write(f->dir, "atom.stamp", "old", 3));
    ck_assert_int_eq(stat(f->stamp, stamp_st), 0);
    unlink(f->mark);
}

static int stamp_untouched(const fixture *f)
{
    size_t len;
    char *s = file_read(f->stamp, &len);
    int same_text = s != NULL && len == 3 && memcmp(s, "old", 3) == 0;
    struct stat st;
    free(s);
    return same_text && stat(f->stamp, &st) == 0;
}

/* Sweep one fault over every call it can hit, with a previous generation
** in the directory (with_old) or an empty one; returns the runs it hit. */
static unsigned sweep_in(const char *action, const char *call, int with_old)
{
    fixture f;
    unsigned n, hits = 0;
    fixture_init(&f);
    for (n = 1; n < 1000; n++) {
        char spec[64];
        struct stat st0;
        pair got;
        int code, fired;
        snprintf(spec, sizeof spec, "%s:%s:%u", action, call, n);
        prepare(&f, &st0, with_old);
        code = run_gen(f.new_yaml, f.out, f.stamp, spec, f.mark);
        fired = access(f.mark, F_OK) == 0;
        pair_read(&got, f.out);
        if (code == 0) {
            ck_assert_msg(same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len) &&
                              same(got.c, got.c_len, f.new_gen.c, f.new_gen.c_len),
                          "%s: success reported but the output is not the new generation",
                          spec);
            ck_assert_msg(dir_count(f.out) == 2, "%s: %ld entries after success", spec,
                          dir_count(f.out));
        } else if (code == 1 && last_error_was_stamp) {
            /* Both files were in place when the stamp could not be
            ** written: the new pair, whole; the build will run again. */
            ck_assert_msg(same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len) &&
                              same(got.c, got.c_len, f.new_gen.c, f.new_gen.c_len),
                          "%s: stamp failure with an inconsistent output", spec);
            ck_assert_msg(dir_count(f.out) == 2, "%s: %ld entries left", spec,
                          dir_count(f.out));
        } else if (code == 1 && !with_old) {
            ck_assert_msg(fired, "%s: failed although no fault fired", spec);
            ck_assert_msg(dir_count(f.out) == 0,
                          "%s: a failed first generation left %ld entries", spec,
                          dir_count(f.out));
            ck_assert_msg(stamp_untouched(&f), "%s: stamp updated after a failure", spec);
        } else if (code == 1) {
            ck_assert_msg(fired, "%s: failed although no fault fired", spec);
            ck_assert_msg(same(got.h, got.h_len, f.old_gen.h, f.old_gen.h_len),
                          "%s: the previous header was changed (%s)", spec,
                          same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len)
                              ? "mixed: new header, old C file"
                              : "truncated or damaged");
            ck_assert_msg(same(got.c, got.c_len, f.old_gen.c, f.old_gen.c_len),
                          "%s: the previous C file was changed", spec);
            ck_assert_msg(dir_count(f.out) == 2, "%s: %ld entries left (temporary files?)",
                          spec, dir_count(f.out));
            ck_assert_msg(stamp_untouched(&f), "%s: stamp updated after a failure", spec);
        } else {
            /* Killed: no file may be truncated; each is old or new. */
            int h_old = with_old ? same(got.h, got.h_len, f.old_gen.h, f.old_gen.h_len)
                                 : got.h == NULL;
            int h_new = same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len);
            int c_old = with_old ? same(got.c, got.c_len, f.old_gen.c, f.old_gen.c_len)
                                 : got.c == NULL;
            int c_new = same(got.c, got.c_len, f.new_gen.c, f.new_gen.c_len);
            ck_assert_msg(h_old || h_new, "%s: killed with a truncated header", spec);
            ck_assert_msg(c_old || c_new, "%s: killed with a truncated C file", spec);
            ck_assert_msg(stamp_untouched(&f), "%s: stamp updated by a killed run", spec);
            if (h_new != c_new) {
                printf("atomic: %s left a mixed pair (it does not compile); the untouched stamp makes the "
                       "build run the step again\n", spec);
                if (got.h && got.c)
                    assert_mixed_pair_does_not_compile(f.out, spec);
            }
            /* The next normal run repairs everything. */
            pair_free(&got);
            ck_assert_int_eq(run_gen(f.new_yaml, f.out, f.stamp, NULL, NULL), 0);
            pair_read(&got, f.out);
            ck_assert(same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len));
            ck_assert(same(got.c, got.c_len, f.new_gen.c, f.new_gen.c_len));
        }
        pair_free(&got);
        if (!fired)
            break;
        hits++;
    }
    printf("atomic: %s:%s hit %u calls%s\n", action, call, hits,
           with_old ? "" : " (empty directory)");
    fixture_free(&f);
    return hits;
}

/* Both starting points; the count is the one over a previous generation. */
static unsigned sweep(const char *action, const char *call)
{
    sweep_in(action, call, 0);
    return sweep_in(action, call, 1);
}

START_TEST(test_fail_open)
{
    ck_assert_uint_ge(sweep("fail", "open"), 2);
}
END_TEST

START_TEST(test_fail_write)
{
    ck_assert_uint_ge(sweep("fail", "write"), 2);
}
END_TEST

START_TEST(test_short_write)
{
    ck_assert_uint_ge(sweep("short", "write"), 2);
}
END_TEST

START_TEST(test_fail_close)
{
    ck_assert_uint_ge(sweep("fail", "close"), 2);
}
END_TEST

START_TEST(test_fail_rename)
{
    ck_assert_uint_ge(sweep("fail", "rename"), 2);
}
END_TEST

START_TEST(test_fail_fsync)
{
    sweep("fail", "fsync");
}
END_TEST

START_TEST(test_fail_link)
{
    /* No hard links (some file systems): the previous header is kept by a
    ** copy instead, and the generation goes on. */
    ck_assert_uint_ge(sweep("fail", "link"), 1);
}
END_TEST

START_TEST(test_no_hard_links_still_regenerates)
{
    /* link() fails with EPERM, as on vfat: regenerating a changed pair
    ** must still succeed, leave the new pair and nothing else. */
    fixture f;
    pair got;
    struct stat st0;
    fixture_init(&f);
    prepare(&f, &st0, 1);
    ck_assert_int_eq(run_gen(f.new_yaml, f.out, f.stamp, "fail:link:1", f.mark), 0);
    ck_assert_int_eq(access(f.mark, F_OK), 0); /* link() was called and failed */
    pair_read(&got, f.out);
    ck_assert(same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len));
    ck_assert(same(got.c, got.c_len, f.new_gen.c, f.new_gen.c_len));
    ck_assert_int_eq(dir_count(f.out), 2);
    pair_free(&got);
    fixture_free(&f);
}
END_TEST

START_TEST(test_kill_write)
{
    ck_assert_uint_ge(sweep("kill", "write"), 2);
}
END_TEST

START_TEST(test_kill_rename)
{
    ck_assert_uint_ge(sweep("kill", "rename"), 2);
}
END_TEST

START_TEST(test_unchanged_output_not_rewritten)
{
    /* Generating the same manifest again must not touch the files: their
    ** modification times (and inode) stay, so nothing recompiles. */
    fixture f;
    struct stat h0, h1, c0, c1;
    char *hp, *cp;
    fixture_init(&f);
    ck_assert_int_eq(mkdir(f.out, 0700), 0);
    ck_assert_int_eq(run_gen(f.new_yaml, f.out, f.stamp, NULL, NULL), 0);
    hp = path_join(f.out, "atom.toolgov.h");
    cp = path_join(f.out, "atom.toolgov.c");
    ck_assert_int_eq(stat(hp, &h0), 0);
    ck_assert_int_eq(stat(cp, &c0), 0);
    /* Any write, even a failing one, would be a change: forbid renames. */
    ck_assert_int_eq(run_gen(f.new_yaml, f.out, f.stamp, "fail:rename:1", f.mark), 0);
    ck_assert_int_eq(stat(hp, &h1), 0);
    ck_assert_int_eq(stat(cp, &c1), 0);
    ck_assert(h0.st_ino == h1.st_ino && h0.st_mtim.tv_sec == h1.st_mtim.tv_sec &&
              h0.st_mtim.tv_nsec == h1.st_mtim.tv_nsec);
    ck_assert(c0.st_ino == c1.st_ino && c0.st_mtim.tv_nsec == c1.st_mtim.tv_nsec);
    ck_assert_int_eq(access(f.mark, F_OK), -1);
    free(hp);
    free(cp);
    fixture_free(&f);
}
END_TEST

START_TEST(test_fifo_at_the_output_path_never_blocks)
{
    /* The compare-before-replace read must not open a FIFO for reading
    ** (it would wait for a writer forever): the FIFO, and a symbolic link
    ** to one, are replaced by the generated files. */
    fixture f;
    struct stat st;
    char *hp, *cp, *fifo;
    fixture_init(&f);
    ck_assert_int_eq(mkdir(f.out, 0700), 0);
    hp = path_join(f.out, "atom.toolgov.h");
    cp = path_join(f.out, "atom.toolgov.c");
    fifo = path_join(f.dir, "elsewhere.fifo");
    ck_assert_int_eq(mkfifo(hp, 0600), 0);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(symlink(fifo, cp), 0);
    ck_assert_int_eq(run_gen(f.new_yaml, f.out, f.stamp, NULL, NULL), 0);
    ck_assert_int_eq(lstat(hp, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_int_eq(lstat(cp, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    free(hp);
    free(cp);
    free(fifo);
    fixture_free(&f);
}
END_TEST

START_TEST(test_concurrent_generations_leave_one_pair)
{
    /* Run A writes the new generation and pauses between its two renames;
    ** run B, started meanwhile, writes the old one. Both succeed; the pair
    ** left must be one run's, never A's C file beside B's header. */
    fixture f;
    struct stat st0;
    pair got;
    char spec[] = "TOOLGOV_FAILIO=pause:rename:2";
    char preload[4096];
    const char *shim = getenv("TOOLGOV_FAILIO_SHIM");
    int status = 0;
    pid_t a;
    ck_assert_ptr_nonnull(shim);
    fixture_init(&f);
    prepare(&f, &st0, 1);
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim);
    a = fork();
    ck_assert_int_ge(a, 0);
    if (a == 0) {
        char *argv[] = {(char *)spawn_gen_path(), "generate", "--manifest", f.new_yaml,
                        "--out-dir", f.out, NULL};
        putenv(preload);
        putenv(spec);
        putenv("ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0");
        execv(argv[0], argv);
        _exit(127);
    }
    usleep(200000);
    ck_assert_int_eq(run_gen(f.old_yaml, f.out, f.stamp, NULL, NULL), 0);
    ck_assert_int_eq(waitpid(a, &status, 0), a);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    pair_read(&got, f.out);
    int all_old = same(got.h, got.h_len, f.old_gen.h, f.old_gen.h_len) &&
                  same(got.c, got.c_len, f.old_gen.c, f.old_gen.c_len);
    int all_new = same(got.h, got.h_len, f.new_gen.h, f.new_gen.h_len) &&
                  same(got.c, got.c_len, f.new_gen.c, f.new_gen.c_len);
    ck_assert_msg(all_old || all_new, "two concurrent runs left a mixed pair");
    ck_assert_int_eq(dir_count(f.out), 2);
    pair_free(&got);
    fixture_free(&f);
}
END_TEST

static Suite *atomic_suite(void)
{
    Suite *s = suite_create("atomic");
    TCase *tc = tcase_create("atomic");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_fail_open);
    tcase_add_test(tc, test_fail_write);
    tcase_add_test(tc, test_short_write);
    tcase_add_test(tc, test_fail_close);
    tcase_add_test(tc, test_fail_rename);
    tcase_add_test(tc, test_fail_fsync);
    tcase_add_test(tc, test_fail_link);
    tcase_add_test(tc, test_no_hard_links_still_regenerates);
    tcase_add_test(tc, test_kill_write);
    tcase_add_test(tc, test_kill_rename);
    tcase_add_test(tc, test_unchanged_output_not_rewritten);
    tcase_add_test(tc, test_fifo_at_the_output_path_never_blocks);
    tcase_add_test(tc, test_concurrent_generations_leave_one_pair);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(atomic_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
