/* SPDX-License-Identifier: MIT */
/*
** test_fileio.c: gen's disk work: the bounded manifest read (file, standard
** input, directory, over the limit), mkdir -p, the atomic replacement of a
** set (unchanged files untouched), touch() keeping content, the depfile.
*/
#include "gen_test_util.h"

#include <dirent.h>

#include "base/fileio.h"

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

static char *in_dir(const char *name)
{
    size_t n = strlen(dir_) + strlen(name) + 2;
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    snprintf(p, n, "%s/%s", dir_, name);
    return p;
}

static void set_old_mtime(const char *path)
{
    struct timespec ts[2] = {{1000000, 0}, {1000000, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static time_t mtime_of(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return st.st_mtime;
}

/* A stamp keeps its content: the drift check's stamp once emptied it. */
START_TEST(test_touch_keeps_content)
{
    char *p = in_dir("stamp"), *back;
    size_t len;
    tg_write_file(p, "keep me\n", 8);
    set_old_mtime(p);
    ck_assert_int_eq(toolgov__fileio_touch(p), 0);
    back = tg_read_file(p, &len);
    ck_assert_uint_eq(len, 8);
    ck_assert_str_eq(back, "keep me\n");
    ck_assert_int_gt(mtime_of(p), 1000000);
    free(back);
    free(p);
    p = in_dir("new-stamp");
    ck_assert_int_eq(toolgov__fileio_touch(p), 0);
    ck_assert_int_eq(mtime_of(p) > 0, 1);
    free(p);
    p = in_dir("no/such/dir/stamp");
    ck_assert_int_eq(toolgov__fileio_touch(p), -1);
    free(p);
}
END_TEST

START_TEST(test_read_manifest)
{
    char *p = in_dir("m.yaml"), *buf = NULL, *text = NULL;
    size_t len = 0, size = 0;
    FILE *f = open_memstream(&text, &size);
    toolgov__diag d;
    ck_assert_ptr_nonnull(f);
    toolgov__diag_init(&d, f, 0);
    tg_write_file(p, "name: x\n", 8);
    ck_assert_int_eq(toolgov__fileio_read_manifest(&buf, &len, p, &d), 0);
    ck_assert_uint_eq(len, 8);
    ck_assert(memcmp(buf, "name: x\n", 8) == 0);
    free(buf);
    /* empty: a buffer, length 0 */
    tg_write_file(p, "", 0);
    ck_assert_int_eq(toolgov__fileio_read_manifest(&buf, &len, p, &d), 0);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(len, 0);
    free(buf);
    ck_assert_int_lt(toolgov__fileio_read_manifest(&buf, &len, dir_, &d), 0);
    ck_assert_ptr_null(buf);
    free(p);
    p = in_dir("absent.yaml");
    ck_assert_int_lt(toolgov__fileio_read_manifest(&buf, &len, p, &d), 0);
    fclose(f);
    ck_assert_uint_eq(d.errors, 2);
    ck_assert_ptr_nonnull(strstr(text, ": error: is a directory, not a manifest file\n"));
    ck_assert_ptr_nonnull(strstr(text, "absent.yaml: error: cannot open the manifest: "));
    free(text);
    free(p);
}
END_TEST

START_TEST(test_read_stdin)
{
    char *p = in_dir("in.yaml"), *buf = NULL;
    size_t len = 0;
    int saved = dup(0), fd;
    toolgov__diag d;
    toolgov__diag_init(&d, NULL, 0);
    tg_write_file(p, "name: from_stdin\n", 17);
    fd = open(p, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(dup2(fd, 0), 0);
    close(fd);
    clearerr(stdin);
    ck_assert_int_eq(toolgov__fileio_read_manifest(&buf, &len, "-", &d), 0);
    dup2(saved, 0);
    close(saved);
    clearerr(stdin);
    ck_assert_uint_eq(len, 17);
    ck_assert(memcmp(buf, "name: from_stdin\n", 17) == 0);
    free(buf);
    free(p);
}
END_TEST

START_TEST(test_mkdirs)
{
    char *p = in_dir("a/b/c"), *f;
    toolgov__diag d;
    toolgov__diag_init(&d, NULL, 0);
    ck_assert_int_eq(toolgov__fileio_mkdirs(p, &d), 0);
    ck_assert_int_eq(toolgov__fileio_mkdirs(p, &d), 0); /* exists: fine */
    f = in_dir("a/file");
    tg_write_file(f, "x", 1);
    ck_assert_int_lt(toolgov__fileio_mkdirs(f, &d), 0);
    ck_assert_int_lt(toolgov__fileio_mkdirs("", &d), 0);
    ck_assert_uint_eq(d.errors, 2);
    free(f);
    free(p);
}
END_TEST

/* A file whose content is unchanged is not rewritten (its time stays), a
** changed one is, and no temporary is left in the directory. */
START_TEST(test_replace_only_changed)
{
    char *a = in_dir("x.h"), *b = in_dir("x.c"), *back;
    toolgov__out_file files[2];
    toolgov__diag d;
    toolgov__diag_init(&d, NULL, 0);
    files[0].path = a;
    files[0].data = "header\n";
    files[0].len = 7;
    files[1].path = b;
    files[1].data = "source\n";
    files[1].len = 7;
    ck_assert_int_eq(toolgov__fileio_replace(files, 2, &d), 0);
    set_old_mtime(a);
    set_old_mtime(b);
    files[1].data = "source 2\n";
    files[1].len = 9;
    ck_assert_int_eq(toolgov__fileio_replace(files, 2, &d), 0);
    ck_assert_int_eq(mtime_of(a), 1000000);
    ck_assert_int_gt(mtime_of(b), 1000000);
    back = tg_read_file(b, NULL);
    ck_assert_str_eq(back, "source 2\n");
    free(back);
    /* A same-size change is still seen. */
    files[1].data = "source 3\n";
    ck_assert_int_eq(toolgov__fileio_replace(files, 2, &d), 0);
    back = tg_read_file(b, NULL);
    ck_assert_str_eq(back, "source 3\n");
    free(back);
    {
        DIR *dh = opendir(dir_);
        struct dirent *e;
        size_t n = 0;
        ck_assert_ptr_nonnull(dh);
        while ((e = readdir(dh)) != NULL)
            if (e->d_name[0] != '.')
                n++;
        closedir(dh);
        ck_assert_uint_eq(n, 2);
    }
    ck_assert_uint_eq(d.errors, 0);
    free(a);
    free(b);
}
END_TEST

START_TEST(test_depfile)
{
    char *p = in_dir("check.d"), *back;
    const char *deps[] = {"/m dir/m.yaml", "/usr/include/../include/stdio.h", "a#b$c"};
    ck_assert_int_eq(toolgov__fileio_write_depfile(p, "st amp", deps, 3), 0);
    back = tg_read_file(p, NULL);
    ck_assert_str_eq(back, "st\\ amp: \\\n  /m\\ dir/m.yaml \\\n  /usr/include/stdio.h \\\n"
                           "  a\\#b$$c\n");
    free(back);
    free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fileio");
    TCase *tc = tcase_create("fileio");
    SRunner *sr;
    int failed;
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_touch_keeps_content);
    tcase_add_test(tc, test_read_manifest);
    tcase_add_test(tc, test_read_stdin);
    tcase_add_test(tc, test_mkdirs);
    tcase_add_test(tc, test_replace_only_changed);
    tcase_add_test(tc, test_depfile);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
