/* SPDX-License-Identifier: MIT */
/*
** test_alloc_drift.c: the comparison under allocation failure.
**
** toolgov__compare() runs with the N-th allocation failing, for N = 1,
** 2, ... until a run sees no failure. A failing run must report exactly one
** "out of memory" error and nothing else (never a partial drift report that
** could be mistaken for the real one), and free every block; the run that
** succeeds must print the reference report.
**
** The scanner is not covered here: libclang allocates through C++ new,
** which aborts instead of returning NULL, so failing the process's N-th
** allocation cannot be survived inside a parse.
**
** Plain build only (failalloc cannot coexist with ASan).
*/
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/compare.h"
#include "failalloc.h"

static const char manifest_text[] =
    "name: calendar\n"
    "provides: [tool]\n"
    "tools:\n"
    "  calendar_lookup:\n"
    "    effect: read\n"
    "    description: Find events.\n"
    "  create_reminder:\n"
    "    effect: write\n"
    "    description: Create one reminder.\n";

static char *slurp(FILE *f)
{
    static char buf[8192];
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    return buf;
}

START_TEST(compare_survives_every_allocation_failure)
{
    toolgov__diag load;
    toolgov__diag_init(&load, stderr, 0);
    toolgov__manifest *m = toolgov__manifest_load_mem("cal.yaml", manifest_text,
                                                      sizeof manifest_text - 1, &load);
    ck_assert_ptr_nonnull(m);
    /* A rename, an undeclared handler, a missing tool and a bad call: every
    ** branch that reports. */
    toolgov__handler h[] = {
        { .tool = "calendar_lookpu", .function = "calendar_Handler_calendar_lookpu", .symbol = "calendar_Handler_calendar_lookpu", .at = { "/p/a.c", 10, 1 }, .source = "/p/a.c",
          .flags = TOOLGOV__HANDLER_DEFINITION | TOOLGOV__HANDLER_FUNCTION |
                   TOOLGOV__HANDLER_PROTOTYPED },
        { .tool = "weather", .function = "calendar_Handler_weather", .symbol = "calendar_Handler_weather", .at = { "/p/a.c", 20, 1 }, .source = "/p/a.c",
          .flags = TOOLGOV__HANDLER_DEFINITION | TOOLGOV__HANDLER_FUNCTION |
                   TOOLGOV__HANDLER_PROTOTYPED },
    };
    toolgov__registration rg[] = {
        { "toolgov_register_tool", "radar", { "/p/r.c", 5, 34 }, 0 },
        { "toolgov_register_tool", NULL, { "/p/r.c", 6, 34 }, 0 },
    };
    toolgov__scan s = { h, 2, rg, 2, NULL, 0, 0, NULL, 0, NULL, 0, NULL };

    /* The reference, with no failure injected. */
    FILE *ref = tmpfile();
    ck_assert_ptr_nonnull(ref);
    setvbuf(ref, NULL, _IONBF, 0);
    toolgov__diag d;
    toolgov__diag_init(&d, ref, 0);
    size_t want_errors = toolgov__compare(m, &s, &d);
    ck_assert_uint_eq(want_errors, 4);
    char want[8192];
    snprintf(want, sizeof want, "%s", slurp(ref));
    fclose(ref);

    unsigned long n;
    for (n = 1; n < 1000; n++) {
        FILE *f = tmpfile();
        ck_assert_ptr_nonnull(f);
        setvbuf(f, NULL, _IONBF, 0); /* no lazily allocated stdio buffer */
        toolgov__diag_init(&d, f, 0);
        failalloc_arm(n);
        size_t errors = toolgov__compare(m, &s, &d);
        int injected = failalloc_injected();
        failalloc_disarm();
        ck_assert_uint_eq(failalloc_live(), 0);
        char *got = slurp(f);
        fclose(f);
        if (!injected) {
            ck_assert_uint_eq(errors, want_errors);
            ck_assert_str_eq(got, want);
            break;
        }
        ck_assert_uint_eq(errors, 1);
        ck_assert_uint_eq(d.warnings, 0);
        ck_assert_str_eq(got, "cal.yaml: error: out of memory comparing the manifest with "
                              "the plugin's sources\n");
    }
    ck_assert_uint_gt(n, 1); /* at least one failure was injected */
    ck_assert_uint_lt(n, 1000);
    toolgov__manifest_free(m);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("alloc_drift");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, compare_survives_every_allocation_failure);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
