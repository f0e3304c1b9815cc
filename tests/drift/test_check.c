/* SPDX-License-Identifier: MIT */
/*
** test_check.c: `toolgov-gen check` end to end (check.c), in process: the
** command line, exit status, the exact diagnostics on stderr, the depfile
** and the stamp.
*/
#define _POSIX_C_SOURCE 200809L

#include "check_util.h"

static const char demo_ab_delta[] =
    "name: demo\n"
    "provides: [tool]\n"
    "tools:\n"
    "  alpha:\n"
    "    effect: read\n"
    "    description: A.\n"
    "  beta:\n"
    "    effect: read\n"
    "    description: B.\n"
    "  delta:\n"
    "    effect: read\n"
    "    description: D.\n";

START_TEST(clean_plugin_passes_and_writes_depfile_and_stamp)
{
    char *err;
    make_dir("-clean");
    write_file(manifest, demo_abc);
    int rc = RUN(err, "check", "--manifest", manifest, "--depfile", depfile, "--stamp",
                 stamp, "--", "-std=c11", INC_RUNTIME, INC_DATA, DATA "macro_handlers.c");
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(exists(stamp), 1);
    char *d = read_file(depfile);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(strncmp(d, stamp, strlen(stamp)), 0);
    ck_assert_int_eq(d[strlen(stamp)], ':');
    ck_assert_ptr_nonnull(strstr(d, manifest));
    ck_assert_ptr_nonnull(strstr(d, DATA "macro_handlers.c"));
    ck_assert_ptr_nonnull(strstr(d, DATA "demo.toolgov.h"));
    ck_assert_ptr_nonnull(strstr(d, TOOLGOV_SOURCE_DIR "/runtime/include/toolgov/toolgov.h"));
}
END_TEST

START_TEST(drift_fails_removes_the_stamp_and_points_at_both_files)
{
    char *err;
    make_dir("-drift");
    write_file(manifest, demo_ab_delta);
    write_file(stamp, ""); /* from an earlier success */
    int rc = RUN(err, "check", "--manifest", manifest, "--depfile", depfile, "--stamp",
                 stamp, "--", INC_RUNTIME, INC_DATA, DATA "macro_handlers.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_int_eq(exists(stamp), 0);
    /* gamma is one edit-distance step too far from delta for a rename
    ** (limit 1 for a five-letter name): two separate errors. */
    char want[2048];
    snprintf(want, sizeof want,
             DATA "macro_handlers.c:20:1: error: handler for tool 'gamma' is not declared "
                  "in the manifest of plugin 'demo'\n"
                  "%s:4:3: note: to declare it, add 'gamma:' under 'tools:' with an "
                  "'effect:' (read, write or destructive) and a 'description:'\n"
                  "%s:10:3: error: tool 'delta' is declared but no source of plugin 'demo' "
                  "defines its handler; define it with 'DEMO_TOOLGOV_HANDLER(delta, call, args, out) "
                  "{ ... }'\n"
                  "%s:10:3: note: a handler to paste into a source that includes "
                  "\"demo.toolgov.h\":\n"
                  "/* delta (read): D. */\n"
                  "DEMO_TOOLGOV_HANDLER(delta, call, args, out)\n"
                  "{\n    (void)call;\n    (void)args;\n    (void)out;\n"
                  "    return TOOLGOV_EHANDLER; /* not written yet */\n}\n",
             manifest, manifest, manifest);
    ck_assert_str_eq(err, want);
    /* The depfile is written even on failure. */
    ck_assert_int_eq(exists(depfile), 1);
}
END_TEST

START_TEST(parse_error_fails_closed_without_comparing)
{
    char *err;
    make_dir("-parse");
    write_file(manifest, demo_abc); /* gamma has no handler in this source */
    int rc = RUN(err, "check", "--manifest", manifest, "--stamp", stamp, "--", INC_RUNTIME,
                 INC_DATA, DATA "syntax_error.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_int_eq(exists(stamp), 0);
    char want[1024];
    snprintf(want, sizeof want,
             DATA "syntax_error.c:7:43: error: expected ';' after return statement\n"
                  "%s:1:7: note: plugin 'demo' was not compared with its manifest because a "
                  "source did not parse; fix the errors above\n",
             manifest);
    ck_assert_str_eq(err, want);
}
END_TEST

/* With --caret=always, clang's own error shows its source line and a caret
** under the column, as the compiler prints it. */
START_TEST(parse_error_shows_source_line_and_caret)
{
    char *err;
    make_dir("-caret");
    write_file(manifest, demo_abc);
    int rc = RUN(err, "check", "--manifest", manifest, "--caret=always", "--", INC_RUNTIME,
                 INC_DATA, DATA "syntax_error.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(err, DATA "syntax_error.c:7:43: error: expected ';' after "
                                           "return statement\n"
                                           "    return toolgov_result_set(out, \"a\", 1)\n"
                                           "                                          ^\n"));
}
END_TEST

/* With --caret=always, an error at a line of the manifest shows that line
** too (the loader hands the manifest's text to the diagnostics). */
START_TEST(manifest_error_shows_its_line_and_caret)
{
    char *err;
    make_dir("-caret-manifest");
    write_file(manifest, demo_ab_delta);
    int rc = RUN(err, "check", "--manifest", manifest, "--caret=always", "--", INC_RUNTIME,
                 INC_DATA, DATA "macro_handlers.c");
    ck_assert_int_eq(rc, 1);
    char want[512];
    snprintf(want, sizeof want, "%s:10:3: error: tool 'delta' is declared but no source",
             manifest);
    ck_assert_msg(strstr(err, want) != NULL, "%s", err);
    ck_assert_msg(strstr(err, "\n  delta:\n  ^\n") != NULL, "%s", err);
}
END_TEST

START_TEST(missing_header_fails_closed)
{
    char *err;
    make_dir("-header");
    write_file(manifest, demo_abc);
    int rc = RUN(err, "check", "--manifest", manifest, "--", INC_RUNTIME, INC_DATA,
                 DATA "missing_header.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(err, DATA "missing_header.c:2:10: error: "
                                           "'no_such_header.h' file not found\n"));
    ck_assert_ptr_null(strstr(err, "gamma"));
}
END_TEST

START_TEST(gcc_warning_flags_are_dropped)
{
    char *err;
    make_dir("-flags");
    write_file(manifest, demo_abc);
    /* -Wlogical-op is gcc's; with -Werror clang would make it an error. */
    int rc = RUN(err, "check", "--manifest", manifest, "--", "-Wall", "-Wextra", "-Werror",
                 "-Wlogical-op", "-pedantic-errors", "-c", "-o", "x.o", "-MD", "-MF", "x.d",
                 "-DUNUSED=1", "-I", TOOLGOV_SOURCE_DIR "/runtime/include", INC_DATA,
                 DATA "macro_handlers.c");
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(rc, 0);
}
END_TEST

START_TEST(bad_manifest_fails)
{
    char *err;
    make_dir("-badman");
    write_file(manifest, "name: demo\ntools:\n  alpha:\n    effect: raed\n");
    int rc = RUN(err, "check", "--manifest", manifest, "--", INC_RUNTIME, INC_DATA,
                 DATA "macro_handlers.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(err, "demo.yaml:4:"));
}
END_TEST

START_TEST(misuse_is_exit_status_2)
{
    char *err;
    make_dir("-usage");
    write_file(manifest, demo_abc);
    ck_assert_int_eq(RUN(err, "check", "--", DATA "if0.c"), 2);
    ck_assert_ptr_nonnull(strstr(err, "--manifest FILE is required"));
    ck_assert_int_eq(RUN(err, "check", "--manifest", manifest, "--", INC_DATA), 2);
    ck_assert_ptr_nonnull(strstr(err, "no SOURCES"));
    ck_assert_int_eq(RUN(err, "check", "--manifest", manifest, "--bogus"), 2);
    ck_assert_ptr_nonnull(strstr(err, "unknown option '--bogus'"));
    ck_assert_int_eq(RUN(err, "check", "--manifest", manifest, "--depfile", depfile, "--",
                         DATA "if0.c"),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "--depfile needs --stamp"));
    ck_assert_int_eq(RUN(err, "check", "--manifest"), 2);
    ck_assert_int_eq(RUN(err, "check", "--manifest", manifest, "--max-errors", "x", "--",
                         DATA "if0.c"),
                     2);
    ck_assert_int_eq(RUN(err, "check", "--manifest", manifest, "--jobs", "65", "--",
                         DATA "if0.c"),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "--jobs wants a number from 0 to 64, not '65'"));
}
END_TEST

START_TEST(jobs_do_not_change_the_report)
{
    char *err;
    static char first[1 << 16];
    make_dir("-jobs");
    write_file(manifest, demo_ab_delta);
    int rc = RUN(err, "check", "--manifest", manifest, "--jobs", "1", "--", INC_RUNTIME,
                 INC_DATA, DATA "if0.c", DATA "macro_handlers.c", DATA "proto_def.c");
    ck_assert_int_eq(rc, 1);
    snprintf(first, sizeof first, "%s", err);
    ck_assert_ptr_nonnull(strstr(first, "tool 'delta' is declared"));
    rc = RUN(err, "check", "--manifest", manifest, "--jobs", "3", "--", INC_RUNTIME,
             INC_DATA, DATA "if0.c", DATA "macro_handlers.c", DATA "proto_def.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_str_eq(err, first);
}
END_TEST

START_TEST(max_errors_caps_the_report)
{
    char *err;
    make_dir("-cap");
    /* Three tools declared, none implemented in if0.c except beta; plus a
    ** cap of 1. */
    write_file(manifest, demo_abc);
    int rc = RUN(err, "check", "--manifest", manifest, "--max-errors", "1", "--",
                 INC_RUNTIME, INC_DATA, DATA "if0.c");
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(err, "tool 'alpha' is declared"));
    ck_assert_ptr_null(strstr(err, "tool 'gamma' is declared"));
    ck_assert_ptr_nonnull(strstr(err, "1 more error not shown"));
}
END_TEST

START_TEST(depfile_escapes_spaces)
{
    char *err;
    make_dir("-with space");
    write_file(manifest, demo_abc);
    int rc = RUN(err, "check", "--manifest", manifest, "--depfile", depfile, "--stamp",
                 stamp, "--", INC_RUNTIME, INC_DATA, DATA "macro_handlers.c");
    ck_assert_int_eq(rc, 0);
    char *d = read_file(depfile);
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d, "-with\\ space/demo.check.stamp:"));
    ck_assert_ptr_nonnull(strstr(d, "-with\\ space/demo.yaml"));
}
END_TEST

Suite *check_suite(void);
Suite *check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("check");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, NULL, cleanup);
    tcase_add_test(tc, clean_plugin_passes_and_writes_depfile_and_stamp);
    tcase_add_test(tc, drift_fails_removes_the_stamp_and_points_at_both_files);
    tcase_add_test(tc, parse_error_fails_closed_without_comparing);
    tcase_add_test(tc, parse_error_shows_source_line_and_caret);
    tcase_add_test(tc, missing_header_fails_closed);
    tcase_add_test(tc, manifest_error_shows_its_line_and_caret);
    tcase_add_test(tc, gcc_warning_flags_are_dropped);
    tcase_add_test(tc, bad_manifest_fails);
    tcase_add_test(tc, misuse_is_exit_status_2);
    tcase_add_test(tc, jobs_do_not_change_the_report);
    tcase_add_test(tc, max_errors_caps_the_report);
    tcase_add_test(tc, depfile_escapes_spaces);
    suite_add_tcase(s, tc);
    return s;
}
