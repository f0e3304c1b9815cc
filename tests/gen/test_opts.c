/* SPDX-License-Identifier: MIT */
/*
** test_opts.c: the one option parser of toolgov-gen and toolgov-gen-check:
** both forms of a value, text and counts, limits, messages, -h and -V.
*/
#include "gen_test_util.h"

#include "base/opts.h"

typedef struct fixture {
    const char *manifest, *depfile;
    size_t jobs, max;
} fixture;

/* Parse argv (NULL-terminated) with the check's kind of table; returns the
** last result and leaves err filled on misuse. */
static int parse(fixture *f, const char *const *args, char err[TOOLGOV_OPT_ERR_MAX])
{
    char *argv[16];
    int argc = 0, i, r = 0;
    const toolgov__opt opts[] = {
        {"--manifest", TOOLGOV_OPT_TEXT, &f->manifest, NULL, 0},
        {"--depfile", TOOLGOV_OPT_TEXT_EMPTY, &f->depfile, NULL, 0},
        {"--jobs", TOOLGOV_OPT_COUNT, NULL, &f->jobs, 64},
        {"--max-errors", TOOLGOV_OPT_COUNT, NULL, &f->max, 0},
    };
    memset(f, 0, sizeof *f);
    argv[argc++] = (char *)"prog";
    while (*args)
        argv[argc++] = (char *)*args++;
    argv[argc] = NULL;
    for (i = 1; i < argc; i++) {
        r = toolgov__opt_take(opts, 4, argc, argv, &i, err);
        if (r <= 0)
            return r;
    }
    return r;
}

START_TEST(test_both_forms)
{
    fixture f;
    char err[TOOLGOV_OPT_ERR_MAX];
    const char *a1[] = {"--manifest", "m.yaml", "--jobs", "3", "--max-errors=0", NULL};
    const char *a2[] = {"--manifest=m.yaml", "--jobs=64", "--depfile=", "--max-errors", "7", NULL};
    ck_assert_int_eq(parse(&f, a1, err), 1);
    ck_assert_str_eq(f.manifest, "m.yaml");
    ck_assert_uint_eq(f.jobs, 3);
    ck_assert_uint_eq(f.max, 0);
    ck_assert_int_eq(parse(&f, a2, err), 1);
    ck_assert_str_eq(f.manifest, "m.yaml");
    ck_assert_uint_eq(f.jobs, 64);
    ck_assert_str_eq(f.depfile, "");
    ck_assert_uint_eq(f.max, 7);
}
END_TEST

START_TEST(test_misuse_messages)
{
    fixture f;
    char err[TOOLGOV_OPT_ERR_MAX];
    const char *a1[] = {"--jobs=65", NULL};
    const char *a2[] = {"--max-errors", "-1", NULL};
    const char *a3[] = {"--manifest", NULL};
    const char *a4[] = {"--manifest=", NULL};
    const char *a5[] = {"--max-errors", NULL};
    const char *a6[] = {"--manifests", "x", NULL};
    const char *a7[] = {"--jobs", "3x", NULL};
    ck_assert_int_eq(parse(&f, a1, err), -1);
    ck_assert_str_eq(err, "--jobs wants a number from 0 to 64, not '65'");
    ck_assert_int_eq(parse(&f, a2, err), -1);
    ck_assert_str_eq(err, "--max-errors wants a non-negative number, not '-1'");
    ck_assert_int_eq(parse(&f, a3, err), -1);
    ck_assert_str_eq(err, "--manifest needs a value");
    ck_assert_int_eq(parse(&f, a4, err), -1);
    ck_assert_str_eq(err, "--manifest needs a non-empty value");
    ck_assert_int_eq(parse(&f, a5, err), -1);
    ck_assert_str_eq(err, "--max-errors needs a number");
    ck_assert_int_eq(parse(&f, a6, err), 0); /* not ours: the program says so */
    ck_assert_int_eq(parse(&f, a7, err), -1);
}
END_TEST

START_TEST(test_help_and_version)
{
    ck_assert_int_eq(toolgov__opt_is_help("-h"), 1);
    ck_assert_int_eq(toolgov__opt_is_help("--help"), 1);
    ck_assert_int_eq(toolgov__opt_is_help("--helpx"), 0);
    ck_assert_int_eq(toolgov__opt_is_version("-V"), 1);
    ck_assert_int_eq(toolgov__opt_is_version("--version"), 1);
    ck_assert_int_eq(toolgov__opt_is_version("-v"), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("opts");
    TCase *tc = tcase_create("opts");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_both_forms);
    tcase_add_test(tc, test_misuse_messages);
    tcase_add_test(tc, test_help_and_version);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
