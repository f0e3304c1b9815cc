/* SPDX-License-Identifier: MIT */
/*
** test_compare.c: the comparison of scan results with a manifest (compare.c).
**
** Scans are built by hand, manifests are loaded from text with the real
** loader, and the exact diagnostic lines are compared: file, line, column
** and wording are what editors and CI annotate.
*/
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

static const char manifest_text[] =
    "name: calendar\n"                         /* 1 */
    "provides: [tool]\n"                       /* 2 */
    "tools:\n"                                 /* 3 */
    "  calendar_lookup:\n"                     /* 4 */
    "    effect: read\n"                       /* 5 */
    "    description: Find events.\n"          /* 6 */
    "  create_reminder:\n"                     /* 7 */
    "    effect: write\n"                      /* 8 */
    "    description: Create one reminder.\n"  /* 9 */
    "  daily_plan:\n"                          /* 10 */
    "    effect: read\n"                       /* 11 */
    "    description: Plan the day.\n";        /* 12 */

typedef struct run {
    toolgov__manifest *m;
    char *text;
    size_t len;
    FILE *sink;
    toolgov__diag d;
    size_t errors;
} run;

static void run_open(run *r)
{
    toolgov__diag load;
    memset(r, 0, sizeof *r);
    toolgov__diag_init(&load, stderr, 0);
    r->m = toolgov__manifest_load_mem("cal.yaml", manifest_text, sizeof manifest_text - 1,
                                      &load);
    ck_assert_ptr_nonnull(r->m);
    r->sink = open_memstream(&r->text, &r->len);
    ck_assert_ptr_nonnull(r->sink);
    toolgov__diag_init(&r->d, r->sink, 0);
}

static void run_compare(run *r, const toolgov__scan *s)
{
    r->errors = toolgov__compare(r->m, s, &r->d);
    fclose(r->sink);
    r->sink = NULL;
}

static void run_close(run *r)
{
    if (r->sink)
        fclose(r->sink);
    free(r->text);
    toolgov__manifest_free(r->m);
}

/* A handler as the scanner reports one made by calendar's macro: a plain
** function definition, the plugin's symbol, declared by its header. */
#define HANDLER_OK \
    (TOOLGOV__HANDLER_DEFINITION | TOOLGOV__HANDLER_FUNCTION | TOOLGOV__HANDLER_PROTOTYPED)
#define H(t, f, l, c) \
    { .tool = t, .function = "calendar_tool_" t, .symbol = "calendar_tool_" t, \
      .at = { f, l, c }, .source = f, .flags = HANDLER_OK }
/* A definition named like a handler, without the macro's mark. */
#define PLAIN(fn, f, l, c) \
    { .function = fn, .symbol = fn, .at = { f, l, c }, .source = f, \
      .flags = TOOLGOV__HANDLER_DEFINITION | TOOLGOV__HANDLER_FUNCTION }

START_TEST(every_tool_implemented_is_quiet)
{
    toolgov__handler h[] = {
        H("daily_plan", "/p/b.c", 3, 1),
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("create_reminder", "/p/a.c", 20, 1),
    };
    toolgov__registration rg[] = {
        { "toolgov_register_tool", "daily_plan", { "/p/b.c", 30, 34 }, 0 },
    };
    toolgov__scan s = { h, 3, rg, 1, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 0);
    ck_assert_uint_eq(r.d.warnings, 0);
    ck_assert_str_eq(r.text, "");
    run_close(&r);
}
END_TEST

START_TEST(undeclared_handler_is_an_error_at_the_handler)
{
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("create_reminder", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
        H("send_invoice", "/p/a.c", 40, 1),
    };
    toolgov__scan s = { h, 4, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 1);
    ck_assert_str_eq(r.text,
        "/p/a.c:40:1: error: handler for tool 'send_invoice' is not declared in the "
        "manifest of plugin 'calendar'\n"
        "cal.yaml:4:3: note: to declare it, add 'send_invoice:' under 'tools:' with an "
        "'effect:' (read, write or destructive) and a 'description:'\n");
    run_close(&r);
}
END_TEST

START_TEST(declared_tool_without_handler_is_an_error_at_the_manifest)
{
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("daily_plan", "/p/a.c", 30, 1),
    };
    toolgov__scan s = { h, 2, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 1);
    ck_assert_str_eq(r.text,
        "cal.yaml:7:3: error: tool 'create_reminder' is declared but no source of "
        "plugin 'calendar' defines its handler; define it with "
        "'TOOLGOV_HANDLER(create_reminder, call, out) { ... }'\n");
    run_close(&r);
}
END_TEST

START_TEST(no_handlers_at_all_reports_every_tool_in_manifest_order)
{
    toolgov__scan s = { NULL, 0, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 3);
    const char *a = strstr(r.text, "cal.yaml:4:3: error: tool 'calendar_lookup'");
    const char *b = strstr(r.text, "cal.yaml:7:3: error: tool 'create_reminder'");
    const char *c = strstr(r.text, "cal.yaml:10:3: error: tool 'daily_plan'");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(c);
    ck_assert(a < b && b < c);
    run_close(&r);
}
END_TEST

START_TEST(rename_is_one_error_with_both_places)
{
    toolgov__handler h[] = {
        H("calendar_lookpu", "/p/a.c", 10, 1), /* renamed in the code */
        H("create_reminder", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
    };
    toolgov__scan s = { h, 3, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 1);
    ck_assert_str_eq(r.text,
        "/p/a.c:10:1: error: handler for tool 'calendar_lookpu' is not declared in the "
        "manifest of plugin 'calendar'; did you mean 'calendar_lookup'?\n"
        "cal.yaml:4:3: note: 'calendar_lookup' is declared here and has no handler; "
        "rename the handler or the manifest key so they agree\n");
    run_close(&r);
}
END_TEST

START_TEST(rename_never_points_at_an_implemented_tool)
{
    /* daily_plans is close to daily_plan, but daily_plan has its handler:
    ** that is a plain undeclared handler, and create_reminder is missing. */
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("daily_plan", "/p/a.c", 30, 1),
        H("daily_plans", "/p/a.c", 40, 1),
    };
    toolgov__scan s = { h, 3, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 2);
    ck_assert_ptr_null(strstr(r.text, "did you mean"));
    ck_assert_ptr_nonnull(strstr(r.text, "/p/a.c:40:1: error: handler for tool "
                                         "'daily_plans' is not declared"));
    ck_assert_ptr_nonnull(strstr(r.text, "cal.yaml:7:3: error: tool 'create_reminder'"));
    run_close(&r);
}
END_TEST

START_TEST(one_declared_tool_explains_one_rename_only)
{
    /* Two handlers both close to the one unimplemented tool: the first is
    ** the rename, the second a plain undeclared handler. */
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("daily_plan", "/p/a.c", 30, 1),
        H("create_reminders", "/p/a.c", 40, 1),
        H("create_remindr", "/p/a.c", 50, 1),
    };
    toolgov__scan s = { h, 4, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 2);
    ck_assert_ptr_nonnull(strstr(r.text, "/p/a.c:40:1: error: handler for tool "
                                         "'create_reminders' is not declared in the "
                                         "manifest of plugin 'calendar'; did you mean "
                                         "'create_reminder'?\n"));
    ck_assert_ptr_nonnull(strstr(r.text, "/p/a.c:50:1: error: handler for tool "
                                         "'create_remindr' is not declared in the "
                                         "manifest of plugin 'calendar'\n"));
    ck_assert_ptr_null(strstr(r.text, "cal.yaml:7:3: error"));
    run_close(&r);
}
END_TEST

START_TEST(two_renames_pair_with_their_own_tools)
{
    toolgov__handler h[] = {
        H("calender_lookup", "/p/a.c", 10, 1),
        H("create_remindr", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
    };
    toolgov__scan s = { h, 3, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 2);
    ck_assert_ptr_nonnull(strstr(r.text, "did you mean 'calendar_lookup'?\n"
                                         "cal.yaml:4:3: note:"));
    ck_assert_ptr_nonnull(strstr(r.text, "did you mean 'create_reminder'?\n"
                                         "cal.yaml:7:3: note:"));
    run_close(&r);
}
END_TEST

START_TEST(handler_written_without_the_macro_is_pointed_at)
{
    toolgov__handler h[] = {
        PLAIN("calendar_tool_calendar_lookup", "/p/a.c", 10, 5), /* no macro */
        PLAIN("calendar_tool_daily_plan_v2", "/p/a.c", 40, 5),  /* unrelated */
        H("create_reminder", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
    };
    toolgov__scan s = { h, 4, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 1);
    ck_assert_str_eq(r.text,
        "cal.yaml:4:3: error: tool 'calendar_lookup' is declared but no source of plugin "
        "'calendar' defines its handler; define it with "
        "'TOOLGOV_HANDLER(calendar_lookup, call, out) { ... }'\n"
        "/p/a.c:10:5: note: 'calendar_tool_calendar_lookup' is defined here without "
        "TOOLGOV_HANDLER(), so the check cannot tell it is the handler; define it with "
        "the macro\n");
    run_close(&r);
}
END_TEST

START_TEST(second_handler_for_a_tool_is_an_error)
{
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("create_reminder", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
        H("calendar_lookup", "/p/b.c", 5, 1),
    };
    toolgov__scan s = { h, 4, NULL, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 1);
    ck_assert_str_eq(r.text,
        "/p/b.c:5:1: error: second handler for tool 'calendar_lookup' of plugin "
        "'calendar'\n"
        "/p/a.c:10:1: note: the first handler for 'calendar_lookup' is here\n");
    run_close(&r);
}
END_TEST

START_TEST(registration_of_undeclared_literal_is_an_error_at_the_call)
{
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("create_reminder", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
    };
    toolgov__registration rg[] = {
        { "toolgov_register_tool", "calendar_lookup", { "/p/r.c", 5, 34 }, 0 },
        { "toolgov_register_tool", "weather", { "/p/r.c", 6, 34 }, 0 },
        { "toolgov_declare_tool", "daily_plna", { "/p/r.c", 7, 33 }, 0 },
    };
    toolgov__scan s = { h, 3, rg, 3, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 2);
    ck_assert_str_eq(r.text,
        "/p/r.c:6:34: error: toolgov_register_tool() names tool 'weather', which the "
        "manifest of plugin 'calendar' does not declare (the runtime would refuse it)\n"
        "cal.yaml:4:3: note: to declare it, add 'weather:' under 'tools:' with an "
        "'effect:' (read, write or destructive) and a 'description:'\n"
        "/p/r.c:7:33: error: toolgov_declare_tool() names tool 'daily_plna', which the "
        "manifest of plugin 'calendar' does not declare; did you mean 'daily_plan'?\n"
        "cal.yaml:10:3: note: 'daily_plan' is declared here\n");
    run_close(&r);
}
END_TEST

START_TEST(computed_registration_name_is_a_warning)
{
    toolgov__handler h[] = {
        H("calendar_lookup", "/p/a.c", 10, 1),
        H("create_reminder", "/p/a.c", 20, 1),
        H("daily_plan", "/p/a.c", 30, 1),
    };
    toolgov__registration rg[] = {
        { "toolgov_register_tool", NULL, { "/p/r.c", 9, 34 }, 0 },
    };
    toolgov__scan s = { h, 3, rg, 1, NULL, 0, 0, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    run_compare(&r, &s);
    ck_assert_uint_eq(r.errors, 0);
    ck_assert_uint_eq(r.d.errors, 0);
    ck_assert_uint_eq(r.d.warnings, 1);
    ck_assert_str_eq(r.text,
        "/p/r.c:9:34: warning: toolgov_register_tool() is called with a tool name "
        "computed at run time, which the drift check cannot verify; the runtime "
        "refuses it unless the manifest of plugin 'calendar' declares it\n");
    run_close(&r);
}
END_TEST

START_TEST(clang_errors_are_reported_with_their_notes)
{
    toolgov__clang_diag cd[] = {
        { TOOLGOV__CLANG_ERROR, { "/p/a.c", 6, 43 }, "expected ';' after return statement",
          "/p/a.c" },
        { TOOLGOV__CLANG_NOTE, { "/p/a.h", 2, 5 }, "previous definition is here", "/p/a.c" },
        { TOOLGOV__CLANG_ERROR, { NULL, 0, 0 }, "cannot parse", "/p/b.c" },
    };
    toolgov__scan s = { NULL, 0, NULL, 0, cd, 3, 2, NULL, 0, NULL, 0, NULL };
    run r;
    run_open(&r);
    size_t n = toolgov__compare_report_clang(&s, NULL, &r.d);
    fclose(r.sink);
    r.sink = NULL;
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(r.text,
        "/p/a.c:6:43: error: expected ';' after return statement\n"
        "/p/a.h:2:5: note: previous definition is here\n"
        "/p/b.c: error: cannot parse\n");
    run_close(&r);
}
END_TEST

Suite *compare_suite(void);
Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, every_tool_implemented_is_quiet);
    tcase_add_test(tc, undeclared_handler_is_an_error_at_the_handler);
    tcase_add_test(tc, declared_tool_without_handler_is_an_error_at_the_manifest);
    tcase_add_test(tc, no_handlers_at_all_reports_every_tool_in_manifest_order);
    tcase_add_test(tc, rename_is_one_error_with_both_places);
    tcase_add_test(tc, rename_never_points_at_an_implemented_tool);
    tcase_add_test(tc, one_declared_tool_explains_one_rename_only);
    tcase_add_test(tc, two_renames_pair_with_their_own_tools);
    tcase_add_test(tc, handler_written_without_the_macro_is_pointed_at);
    tcase_add_test(tc, second_handler_for_a_tool_is_an_error);
    tcase_add_test(tc, registration_of_undeclared_literal_is_an_error_at_the_call);
    tcase_add_test(tc, computed_registration_name_is_a_warning);
    tcase_add_test(tc, clang_errors_are_reported_with_their_notes);
    suite_add_tcase(s, tc);
    return s;
}
