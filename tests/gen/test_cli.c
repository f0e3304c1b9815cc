/* SPDX-License-Identifier: MIT */
/*
** test_cli.c: the toolgov-gen binary end to end: exit codes, misuse,
** --max-errors, --expect-name, --stamp, determinism, rewrite-only-on-change,
** nothing written on error, every yaml-test-suite input, a 10,000-tool
** manifest.
*/
#include "gen_test_util.h"

#include <dirent.h>
#include <stdarg.h>
#include <regex.h>

#ifndef TOOLGOV_GEN_EXE
#error "TOOLGOV_GEN_EXE must name the toolgov-gen binary"
#endif

static const char calendar_yaml[] =
    "name: calendar\n"
    "provides: [tool]\n"
    "tools:\n"
    "  calendar_lookup:\n"
    "    effect: read\n"
    "    description: Find events.\n"
    "  create_reminder:\n"
    "    effect: write\n"
    "    description: Create one reminder.\n";

static char *dir_;

static void setup(void)
{
    dir_ = tg_tmpdir();
}

static void teardown(void)
{
    tg_rm_rf(dir_);
    free(dir_);
}

static char *path_in(const char *name)
{
    char *p = malloc(strlen(dir_) + strlen(name) + 2);
    ck_assert_ptr_nonnull(p);
    sprintf(p, "%s/%s", dir_, name);
    return p;
}

static char *write_in(const char *name, const char *text)
{
    char *p = path_in(name);
    tg_write_file(p, text, strlen(text));
    return p;
}

/* Run toolgov-gen with up to 12 arguments (NULL-terminated). */
static int gen(char **out, char **err, const char *a0, ...)
{
    char *argv[16];
    int n = 0, rc;
    va_list ap;
    argv[n++] = (char *)TOOLGOV_GEN_EXE;
    va_start(ap, a0);
    for (const char *a = a0; a && n < 15; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    rc = tg_run(argv, out, err, 60);
    return rc;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static size_t dir_entries(const char *d)
{
    DIR *dh = opendir(d);
    struct dirent *e;
    size_t n = 0;
    ck_assert_ptr_nonnull(dh);
    while ((e = readdir(dh)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(dh);
    return n;
}

static void set_old_mtime(const char *p)
{
    struct timespec ts[2] = {{946684800, 0}, {946684800, 0}}; /* 2000-01-01 */
    ck_assert_int_eq(utimensat(AT_FDCWD, p, ts, 0), 0);
}

static time_t mtime_of(const char *p)
{
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    return st.st_mtime;
}

/* "validate -" reads the manifest from standard input and names it
** <stdin> in diagnostics. */
START_TEST(test_validate_stdin)
{
    char *good = write_in("good.yaml", calendar_yaml);
    char *bad = write_in("bad.yaml", "name: calendar\nprovides: [tool]\ntools:\n  x:\n"
                                     "    effect: wirte\n    description: d\n");
    char *argv[] = {(char *)TOOLGOV_GEN_EXE, (char *)"validate", (char *)"-", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(tg_run_in(argv, good, &out, &err, 60), 0);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    ck_assert_int_eq(tg_run_in(argv, bad, &out, &err, 60), 1);
    ck_assert_str_eq(err, "<stdin>:5:13: error: unknown effect 'wirte' for tool 'x'; did you "
                          "mean 'write'? (expected read, write or destructive)\n");
    free(out);
    free(err);
    free(good);
    free(bad);
}
END_TEST

START_TEST(test_version_and_help)
{
    char *out, *err;
    ck_assert_int_eq(gen(&out, &err, "--version", NULL), 0);
    ck_assert_str_eq(out, "toolgov-gen 0.1.0\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: toolgov-gen"));
    ck_assert_ptr_nonnull(strstr(out, "validate FILE..."));
    ck_assert_ptr_nonnull(strstr(out, "--max-errors N"));
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "generate", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: toolgov-gen"));
    free(out);
    free(err);
    /* -V is --version, before or after the command. */
    ck_assert_int_eq(gen(&out, &err, "-V", NULL), 0);
    ck_assert_str_eq(out, "toolgov-gen 0.1.0\n");
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "validate", "-V", NULL), 0);
    ck_assert_str_eq(out, "toolgov-gen 0.1.0\n");
    free(out);
    free(err);
    /* The drift check's program answers --version too. */
    ck_assert_int_eq(gen(&out, &err, "check", "--version", NULL), 0);
    ck_assert_str_eq(out, "toolgov-gen-check 0.1.0\n");
    free(out);
    free(err);
}
END_TEST

/* One parser: both programs take --opt=V and --opt V alike. */
START_TEST(test_option_forms)
{
    char *out, *err, *m = write_in("calendar.yaml", calendar_yaml), *o = path_in("out");
    char *mo = malloc(strlen(m) + 16), *oo = malloc(strlen(o) + 16);
    ck_assert_ptr_nonnull(mo);
    ck_assert_ptr_nonnull(oo);
    snprintf(mo, strlen(m) + 16, "--manifest=%s", m);
    snprintf(oo, strlen(o) + 16, "--out-dir=%s", o);
    ck_assert_int_eq(gen(&out, &err, "--max-errors=5", "generate", mo, oo, NULL), 0);
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "check", mo, "--jobs=65", "--", "x.c", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err, "--jobs wants a number from 0 to 64, not '65'"));
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest=", oo, NULL), 2);
    ck_assert_ptr_nonnull(strstr(err, "--manifest needs a non-empty value"));
    free(out);
    free(err);
    free(mo);
    free(oo);
    free(m);
    free(o);
}
END_TEST

/* `check` goes to the drift check, with a --max-errors given before it. */
START_TEST(test_check_dispatch)
{
    char *out, *err;
    ck_assert_int_eq(gen(&out, &err, "--max-errors", "3", "check", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: toolgov-gen check"));
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "check", NULL), 2);
    free(out);
    free(err);
}
END_TEST

/* A source the check cannot open is named as unreadable, with the reason;
** arguments the driver refuses for the source's language are named as such
** (libclang gives no diagnostic for either). */
START_TEST(test_check_parse_failures)
{
    char *out, *err;
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *missing = path_in("missing.c");
    char *c_src = write_in("plain.c", "int plain;\n");
    ck_assert_int_eq(gen(&out, &err, "check", "--manifest", m, "--", missing, NULL), 1);
    ck_assert_ptr_nonnull(strstr(err, "missing.c: error: cannot read this source: "
                                      "No such file or directory\n"));
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "check", "--manifest", m, "--", "-x", "c++",
                         "-std=gnu11", c_src, NULL),
                     1);
    ck_assert_ptr_nonnull(strstr(err, "plain.c: error: libclang could not parse this source "
                                      "with the arguments given"));
    free(out);
    free(err);
    free(m);
    free(missing);
    free(c_src);
}
END_TEST

/* CMake hands the check one argument list for a plugin with C and C++
** sources, holding both standards: each source is parsed with its own
** language's -std= (clang refuses -std=c11 for C++ and -std=gnu++17 for C),
** so both parse and the comparison with the manifest is made. */
START_TEST(test_check_std_per_language)
{
    char *out, *err;
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *c_src = write_in("c_part.c", "_Static_assert(__STDC_VERSION__ == 201112L, \"c11\");\n");
    char *cxx_src = write_in("cxx_part.cpp",
                             "static_assert(__cplusplus == 201703L, \"c++17\");\n"
                             "template <typename T> T same(T v) { return v; }\n");
    ck_assert_int_eq(gen(&out, &err, "check", "--manifest", m, "--", "-std=c11",
                         "-std=gnu++17", c_src, cxx_src, NULL),
                     1);
    ck_assert_ptr_null(strstr(err, "c_part.c"));
    ck_assert_ptr_null(strstr(err, "cxx_part.cpp"));
    ck_assert_ptr_null(strstr(err, "did not parse"));
    /* Compared: the calendar's tools have no handler here. */
    ck_assert_ptr_nonnull(strstr(err, "error: tool 'calendar_lookup' is declared but no source"));
    free(out);
    free(err);
    free(m);
    free(c_src);
    free(cxx_src);
}
END_TEST

/* A directory no file can be created in, even by root (CI may run as
** root, which ignores permissions): the error names the output file the
** user asked for, not the temporary name it is staged under. */
START_TEST(test_output_not_creatable)
{
    char *out, *err;
    struct stat st;
    if (stat("/proc/self", &st) != 0)
        return; /* no procfs here */
    char *m = write_in("calendar.yaml", calendar_yaml);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", "/proc", NULL), 1);
    ck_assert_ptr_nonnull(strstr(err, "/proc/calendar.toolgov.h: error: cannot create the output file: "));
    ck_assert_ptr_null(strstr(err, ".tmp"));
    free(out);
    free(err);
    free(m);
}
END_TEST

/* CMake hands a two-word option as one "SHELL:-include file" item: the
** check splits it (quotes group a path with a space) instead of taking it
** for a source. */
START_TEST(test_check_shell_items)
{
    char *out, *err;
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *dir = path_in("with space");
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    char *cfg = write_in("with space/cfg.h", "#define FROM_CFG 1\n");
    char *src = write_in("uses_cfg.c", "#ifndef FROM_CFG\n#error cfg.h was not included\n#endif\n");
    char item[4096];
    snprintf(item, sizeof item, "SHELL:-include \"%s\"", cfg);
    ck_assert_int_eq(gen(&out, &err, "check", "--manifest", m, "--", item, src, NULL), 1);
    ck_assert_ptr_null(strstr(err, "cfg.h was not included"));
    ck_assert_ptr_null(strstr(err, "cannot read this source"));
    /* Compared: the calendar's tools have no handler here. */
    ck_assert_ptr_nonnull(strstr(err, "error: tool 'calendar_lookup' is declared but no source"));
    free(out);
    free(err);
    free(m);
    free(dir);
    free(cfg);
    free(src);
}
END_TEST

static const char *const misuse_cases[][6] = {
    {NULL},
    {"frobnicate", NULL},
    {"--frob", "validate", "x.yaml", NULL},
    {"validate", NULL},
    {"validate", "--frob", "x.yaml", NULL},
    {"--max-errors", NULL},
    {"--max-errors", "many", "validate", "x.yaml", NULL},
    {"validate", "x.yaml", "--max-errors", "-3", NULL},
    {"validate", "x.yaml", "--max-errors", NULL},
    {"generate", "--out-dir", "d", NULL},
    {"generate", "--manifest", "m.yaml", NULL},
    {"generate", "--manifest", NULL},
    {"generate", "--manifest", "m.yaml", "--out-dir", "d", "extra.yaml"},
    {"generate", "--manifest=", "--out-dir", "d", NULL},
};

START_TEST(test_misuse)
{
    const char *const *a = misuse_cases[_i];
    char *out, *err;
    int rc = gen(&out, &err, a[0], a[0] ? a[1] : NULL, a[0] && a[1] ? a[2] : NULL,
                 a[0] && a[1] && a[2] ? a[3] : NULL, a[0] && a[1] && a[2] && a[3] ? a[4] : NULL,
                 a[0] && a[1] && a[2] && a[3] && a[4] ? a[5] : NULL, NULL);
    ck_assert_msg(rc == 2, "case %d: exit %d, stderr %s", _i, rc, err);
    ck_assert_msg(strncmp(err, "toolgov-gen: ", 13) == 0, "case %d: %s", _i, err);
    ck_assert_ptr_nonnull(strstr(err, "try 'toolgov-gen --help' for usage\n"));
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
}
END_TEST

START_TEST(test_validate)
{
    char *good = write_in("good.yaml", calendar_yaml);
    char *bad = write_in("bad.yaml", "name: cal\nprovides: [tool]\ntools:\n  create_reminder:\n"
                                     "    description: x\n    effect: wirte\n");
    char *missing = path_in("missing.yaml");
    char *out, *err, want[1024];

    ck_assert_int_eq(gen(&out, &err, "validate", good, NULL), 0);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, "");
    free(out);
    free(err);

    ck_assert_int_eq(gen(&out, &err, "validate", good, bad, missing, NULL), 1);
    snprintf(want, sizeof want,
             "%s:6:13: error: unknown effect 'wirte' for tool 'create_reminder'; did you mean "
             "'write'? (expected read, write or destructive)\n"
             "%s: error: cannot open the manifest: No such file or directory\n", bad, missing);
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    free(good);
    free(bad);
    free(missing);
}
END_TEST

/* --max-errors N, before or after the command: N printed, then the count. */
START_TEST(test_max_errors)
{
    char *bad = write_in("bad.yaml", "name: Bad\nprovides: x\ntools: y\nmore: 1\nextra: 2\n");
    char *out, *err;
    ck_assert_int_eq(gen(&out, &err, "validate", bad, NULL), 1);
    ck_assert_uint_eq(tg_count_lines_with(err, ": error: "), 5);
    ck_assert_ptr_null(strstr(err, "more error"));
    free(out);
    free(err);

    ck_assert_int_eq(gen(&out, &err, "--max-errors", "2", "validate", bad, NULL), 1);
    ck_assert_uint_eq(tg_count_lines_with(err, ": error: "), 2);
    ck_assert_ptr_nonnull(strstr(err, "bad.yaml:1:7: error: plugin name 'Bad'"));
    ck_assert_ptr_nonnull(strstr(err, "bad.yaml:2:11: error: provides must be a sequence"));
    ck_assert_ptr_nonnull(strstr(err, "\n3 more errors not shown (raise --max-errors to see them)\n"));
    free(out);
    free(err);

    ck_assert_int_eq(gen(&out, &err, "validate", "--max-errors=1", bad, NULL), 1);
    ck_assert_uint_eq(tg_count_lines_with(err, ": error: "), 1);
    ck_assert_ptr_nonnull(strstr(err, "\n4 more errors not shown"));
    free(out);
    free(err);

    ck_assert_int_eq(gen(&out, &err, "validate", bad, "--max-errors", "0", NULL), 1);
    ck_assert_uint_eq(tg_count_lines_with(err, ": error: "), 5);
    free(out);
    free(err);
    free(bad);
}
END_TEST

START_TEST(test_generate_and_determinism)
{
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *d1 = path_in("one"), *d2 = path_in("two/nested/dir");
    char *out, *err, p1[4200], p2[4200];
    const char *files[] = {"calendar.toolgov.h", "calendar.toolgov.c"};
    size_t i;

    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d1, NULL), 0);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest=" , NULL), 2);
    free(out);
    free(err);
    ck_assert_int_eq(gen(&out, &err, "generate", "--out-dir", d2, "--manifest", m, NULL), 0);
    free(out);
    free(err);
    ck_assert_uint_eq(dir_entries(d1), 2); /* no temporary left behind */
    for (i = 0; i < 2; i++) {
        size_t l1, l2;
        char *a, *b;
        snprintf(p1, sizeof p1, "%s/%s", d1, files[i]);
        snprintf(p2, sizeof p2, "%s/%s", d2, files[i]);
        a = tg_read_file(p1, &l1);
        b = tg_read_file(p2, &l2);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        ck_assert_uint_eq(l1, l2);
        ck_assert_int_eq(memcmp(a, b, l1), 0);
        ck_assert_ptr_null(strstr(a, dir_)); /* no absolute path */
        free(a);
        free(b);
    }
    free(m);
    free(d1);
    free(d2);
}
END_TEST

/* Unchanged output keeps its mtime; a change rewrites only what changed;
** the stamp is touched on every successful run. */
START_TEST(test_rewrite_only_on_change_and_stamp)
{
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *d = path_in("out"), *stamp = path_in("gen.stamp");
    char *h = path_in("out/calendar.toolgov.h"), *c = path_in("out/calendar.toolgov.c");
    char *out, *err, *text;

    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d, "--stamp", stamp,
                         NULL), 0);
    free(out);
    free(err);
    ck_assert(file_exists(stamp));
    set_old_mtime(h);
    set_old_mtime(c);
    set_old_mtime(stamp);

    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d, "--stamp", stamp,
                         NULL), 0);
    free(out);
    free(err);
    ck_assert_int_eq(mtime_of(h), 946684800);
    ck_assert_int_eq(mtime_of(c), 946684800);
    ck_assert_int_gt(mtime_of(stamp), 946684800);

    /* A new description changes the C table only, not the header. */
    text = strdup(calendar_yaml);
    memcpy(strstr(text, "Find events."), "Seek events.", 12);
    tg_write_file(m, text, strlen(text));
    free(text);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d, NULL), 0);
    free(out);
    free(err);
    ck_assert_int_eq(mtime_of(h), 946684800);
    ck_assert_int_gt(mtime_of(c), 946684800);
    text = tg_read_file(c, NULL);
    ck_assert_ptr_nonnull(strstr(text, "\"Seek events.\""));
    free(text);
    free(m);
    free(d);
    free(stamp);
    free(h);
    free(c);
}
END_TEST

START_TEST(test_nothing_written_on_error)
{
    char *bad = write_in("calendar.yaml", "name: calendar\nprovides: [tool]\ntools:\n  a:\n"
                                          "    effect: read\n    description: x\n  b:\n"
                                          "    effect: nope\n    description: y\n");
    char *good = write_in("good.yaml", calendar_yaml);
    char *empty = path_in("empty"), *d = path_in("out"), *stamp = path_in("s.stamp");
    char *h = path_in("out/calendar.toolgov.h"), *out, *err, *before, *after;

    ck_assert_int_eq(mkdir(empty, 0777), 0);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", bad, "--out-dir", empty,
                         "--stamp", stamp, NULL), 1);
    ck_assert_ptr_nonnull(strstr(err, "calendar.yaml:8:13: error: unknown effect 'nope'"));
    free(out);
    free(err);
    ck_assert_uint_eq(dir_entries(empty), 0);
    ck_assert(!file_exists(stamp));

    /* Old outputs stay exactly as they were. */
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", good, "--out-dir", d, NULL), 0);
    free(out);
    free(err);
    set_old_mtime(h);
    before = tg_read_file(h, NULL);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", bad, "--out-dir", d, NULL), 1);
    free(out);
    free(err);
    after = tg_read_file(h, NULL);
    ck_assert_str_eq(before, after);
    ck_assert_int_eq(mtime_of(h), 946684800);
    ck_assert_uint_eq(dir_entries(d), 2);
    free(before);
    free(after);
    free(bad);
    free(good);
    free(empty);
    free(d);
    free(stamp);
    free(h);
}
END_TEST

/* An output directory that cannot be one is an error, reported at it. */
START_TEST(test_out_dir_is_a_file)
{
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *f = write_in("plain-file", "x");
    char *out, *err, want[4300];
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", f, NULL), 1);
    snprintf(want, sizeof want, "%s: error: the output directory is not a directory\n", f);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    free(m);
    free(f);
}
END_TEST

/* A file over 16 MiB is refused from its size, before it is read. */
START_TEST(test_file_too_big)
{
    char *big = path_in("big.yaml"), *out, *err, want[4300];
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)16 * 1024 * 1024 + 1), 0); /* sparse */
    close(fd);
    ck_assert_int_eq(gen(&out, &err, "validate", big, NULL), 1);
    snprintf(want, sizeof want, "%s:1:1: error: the manifest is 16777217 bytes; the limit is "
                                "16 MiB (16777216 bytes)\n", big);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    free(big);
}
END_TEST

START_TEST(test_expect_name)
{
    char *m = write_in("calendar.yaml", calendar_yaml);
    char *d = path_in("out"), *out, *err, want[4200];
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d, "--expect-name",
                         "calendar", NULL), 0);
    free(out);
    free(err);
    tg_rm_rf(d);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d, "--expect-name",
                         "calendars", NULL), 1);
    snprintf(want, sizeof want, "%s:1:7: error: manifest declares plugin 'calendar' but "
                                "toolgov_add_plugin() names it 'calendars'; make them equal\n", m);
    ck_assert_str_eq(err, want);
    ck_assert(!file_exists(d));
    free(out);
    free(err);
    free(m);
    free(d);
}
END_TEST

/* Every yaml-test-suite input: no crash, no hang, exit 0 or 1, and every
** rejection located as FILE:LINE:COL. */
START_TEST(test_yaml_test_suite)
{
    DIR *dh = opendir(TOOLGOV_YAML_TEST_SUITE_DIR);
    struct dirent *e;
    size_t cases = 0, rejected = 0;
    ck_assert_msg(dh != NULL, "no yaml-test-suite at %s", TOOLGOV_YAML_TEST_SUITE_DIR);
    while ((e = readdir(dh)) != NULL) {
        char path[4200], pattern[4400], *out, *err;
        regex_t re;
        int rc;
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/in.yaml", TOOLGOV_YAML_TEST_SUITE_DIR, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        cases++;
        rc = gen(&out, &err, "validate", path, NULL);
        ck_assert_msg(rc == 0 || rc == 1, "%s: exit %d (-1: hang)\n%s", path, rc, err);
        if (rc == 1) {
            rejected++;
            snprintf(pattern, sizeof pattern, "^%s:[0-9]+:[0-9]+: error: ", path);
            ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
            ck_assert_msg(regexec(&re, err, 0, NULL, 0) == 0, "%s: unlocated rejection:\n%s", path,
                          err);
            regfree(&re);
        } else {
            ck_assert_str_eq(err, "");
        }
        free(out);
        free(err);
    }
    closedir(dh);
    ck_assert_uint_ge(cases, 400);
    ck_assert_uint_ge(rejected, cases - 10);
}
END_TEST

/* 10,000 tools through the real binary (correctness only, never time). */
START_TEST(test_ten_thousand_tools)
{
    size_t n = 10000, i, cap = n * 200, o;
    char *y = malloc(cap), *m = path_in("big.yaml"), *d = path_in("out"), *out, *err, *c, *h;
    char cp[4200], hp[4200];
    ck_assert_ptr_nonnull(y);
    o = (size_t)snprintf(y, cap, "name: big\nprovides: [tool]\ntools:\n");
    for (i = 0; i < n; i++)
        o += (size_t)snprintf(y + o, cap - o,
                              "  tool_%05zu:\n    effect: %s\n    description: Tool %zu does one "
                              "thing.\n", i, i % 3 == 0 ? "read" : i % 3 == 1 ? "write" : "destructive", i);
    tg_write_file(m, y, o);
    ck_assert_int_eq(gen(&out, &err, "generate", "--manifest", m, "--out-dir", d, NULL), 0);
    ck_assert_str_eq(err, "");
    snprintf(cp, sizeof cp, "%s/big.toolgov.c", d);
    snprintf(hp, sizeof hp, "%s/big.toolgov.h", d);
    c = tg_read_file(cp, NULL);
    h = tg_read_file(hp, NULL);
    /* One registration loop over a table with one wrapper per tool. */
    ck_assert_uint_eq(tg_count_lines_with(c, "toolgov_register_tool(api, "), 1);
    ck_assert_uint_eq(tg_count_lines_with(c, "    big_Call_tool_"), n);
    ck_assert_ptr_nonnull(strstr(c, "    big_Call_tool_09998,\n    big_Call_tool_09999\n};\n"));
    ck_assert_ptr_nonnull(strstr(h, "    big_Tool_tool_09999 = 9999,\n    big_ToolCount = 10000\n"));
    ck_assert_ptr_nonnull(strstr(c, "    { sizeof(toolgov_tool_spec),\n      \"tool_09999\",\n      \"Tool 9999 does one thing.\",\n"
                                    "      TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER,\n"));
    free(c);
    free(h);
    free(out);
    free(err);
    free(y);
    free(m);
    free(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    SRunner *sr;
    int failed;
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_validate_stdin);
    tcase_add_test(tc, test_version_and_help);
    tcase_add_test(tc, test_option_forms);
    tcase_add_loop_test(tc, test_misuse, 0, (int)(sizeof misuse_cases / sizeof misuse_cases[0]));
    tcase_add_test(tc, test_check_dispatch);
    tcase_add_test(tc, test_check_parse_failures);
    tcase_add_test(tc, test_check_std_per_language);
    tcase_add_test(tc, test_check_shell_items);
    tcase_add_test(tc, test_validate);
    tcase_add_test(tc, test_max_errors);
    tcase_add_test(tc, test_generate_and_determinism);
    tcase_add_test(tc, test_rewrite_only_on_change_and_stamp);
    tcase_add_test(tc, test_nothing_written_on_error);
    tcase_add_test(tc, test_expect_name);
    tcase_add_test(tc, test_out_dir_is_a_file);
    tcase_add_test(tc, test_output_not_creatable);
    tcase_add_test(tc, test_file_too_big);
    tcase_add_test(tc, test_yaml_test_suite);
    tcase_add_test(tc, test_ten_thousand_tools);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
