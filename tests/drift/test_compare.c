/* SPDX-License-Identifier: MIT */
/*
** test_compare.c: the comparison of scan results with a manifest (compare.c).
**
** Scans are built by hand, manifests are loaded from text with the real
** loader, and the exact diagnostic lines are compared: file, line, column
** and wording are what editors and CI annotate. Each case of the comparison
** is one row of `cases`: the handlers and registrations a scan found, the
** error and warning counts expected, and either the whole output or pieces
** that must appear (in that order) and pieces that must not.
*/
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/compare.h"

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
    { .tool = t, .function = "calendar_Handler_" t, .symbol = "calendar_Handler_" t, \
      .at = { f, l, c }, .source = f, .flags = HANDLER_OK }
/* A definition named like a handler, without the macro's mark. */
#define PLAIN(fn, f, l, c) \
    { .function = fn, .symbol = fn, .at = { f, l, c }, .source = f, \
      .flags = TOOLGOV__HANDLER_DEFINITION | TOOLGOV__HANDLER_FUNCTION }
/* A registration call: REG(callee, name or NULL when computed, line, col). */
#define REG(fn, name, l, c) { fn, name, { "/p/r.c", l, c }, 0 }

/* The three handlers of a fully implemented calendar. */
#define ALL_THREE H("calendar_lookup", "/p/a.c", 10, 1), H("create_reminder", "/p/a.c", 20, 1), \
                  H("daily_plan", "/p/a.c", 30, 1)

enum { MAX_HANDLERS = 6, MAX_REGS = 4, MAX_PIECES = 4 };

typedef struct compare_case {
    const char *what;
    toolgov__handler handlers[MAX_HANDLERS];    /* up to the first without .function */
    toolgov__registration regs[MAX_REGS];       /* up to the first without .callee */
    size_t errors, warnings;
    const char *text;                 /* the whole output, or NULL */
    const char *pieces[MAX_PIECES];   /* each in the output, in this order */
    const char *absent[MAX_PIECES];   /* none of these in the output */
} compare_case;

static const compare_case cases[] = {
    {
        .what = "every tool implemented is quiet",
        .handlers = { H("daily_plan", "/p/b.c", 3, 1), H("calendar_lookup", "/p/a.c", 10, 1),
                      H("create_reminder", "/p/a.c", 20, 1) },
        .regs = { REG("toolgov_register_tool", "daily_plan", 30, 34) },
        .errors = 0, .warnings = 0,
        .text = "",
    },
    {
        .what = "an undeclared handler is an error at the handler",
        .handlers = { ALL_THREE, H("send_invoice", "/p/a.c", 40, 1) },
        .errors = 1,
        .text = "/p/a.c:40:1: error: handler for tool 'send_invoice' is not declared in the "
                "manifest of plugin 'calendar'\n"
                "cal.yaml:4:3: note: to declare it, add 'send_invoice:' under 'tools:' with an "
                "'effect:' (read, write or destructive) and a 'description:'\n",
    },
    {
        .what = "a declared tool without a handler is an error at the manifest",
        .handlers = { H("calendar_lookup", "/p/a.c", 10, 1), H("daily_plan", "/p/a.c", 30, 1) },
        .errors = 1,
        .text = "cal.yaml:7:3: error: tool 'create_reminder' is declared but no source of "
                "plugin 'calendar' defines its handler; define it with "
                "'CALENDAR_TOOLGOV_HANDLER(create_reminder, call, args, out) { ... }'\n"
                /* the skeleton toolgov-gen stubs prints, to paste */
                "cal.yaml:7:3: note: a handler to paste into a source that includes "
                "\"calendar.toolgov.h\":\n"
                "/* create_reminder (write): Create one reminder. */\n"
                "CALENDAR_TOOLGOV_HANDLER(create_reminder, call, args, out)\n"
                "{\n"
                "    (void)call;\n"
                "    (void)args;\n"
                "    (void)out;\n"
                "    return TOOLGOV_EHANDLER; /* not written yet */\n"
                "}\n",
    },
    {
        .what = "no handlers at all: every tool, in manifest order",
        .errors = 3,
        .pieces = { "cal.yaml:4:3: error: tool 'calendar_lookup'",
                    "cal.yaml:7:3: error: tool 'create_reminder'",
                    "cal.yaml:10:3: error: tool 'daily_plan'" },
    },
    {
        .what = "a rename is one error with both places",
        .handlers = { H("calendar_lookpu", "/p/a.c", 10, 1), H("create_reminder", "/p/a.c", 20, 1),
                      H("daily_plan", "/p/a.c", 30, 1) },
        .errors = 1,
        .text = "/p/a.c:10:1: error: handler for tool 'calendar_lookpu' is not declared in the "
                "manifest of plugin 'calendar'; did you mean 'calendar_lookup'?\n"
                "cal.yaml:4:3: note: 'calendar_lookup' is declared here and has no handler; "
                "rename the handler or the manifest key so they agree\n",
    },
    {
        /* daily_plans is close to daily_plan, but daily_plan has its
        ** handler: a plain undeclared handler, and create_reminder missing. */
        .what = "a rename never points at an implemented tool",
        .handlers = { H("calendar_lookup", "/p/a.c", 10, 1), H("daily_plan", "/p/a.c", 30, 1),
                      H("daily_plans", "/p/a.c", 40, 1) },
        .errors = 2,
        .pieces = { "/p/a.c:40:1: error: handler for tool 'daily_plans' is not declared",
                    "cal.yaml:7:3: error: tool 'create_reminder'" },
        .absent = { "did you mean" },
    },
    {
        /* Two handlers both close to the one unimplemented tool: the first
        ** is the rename, the second a plain undeclared handler. */
        .what = "one declared tool explains one rename only",
        .handlers = { H("calendar_lookup", "/p/a.c", 10, 1), H("daily_plan", "/p/a.c", 30, 1),
                      H("create_reminders", "/p/a.c", 40, 1),
                      H("create_remindr", "/p/a.c", 50, 1) },
        .errors = 2,
        .pieces = { "/p/a.c:40:1: error: handler for tool 'create_reminders' is not declared in "
                    "the manifest of plugin 'calendar'; did you mean 'create_reminder'?\n",
                    "/p/a.c:50:1: error: handler for tool 'create_remindr' is not declared in the "
                    "manifest of plugin 'calendar'\n" },
        .absent = { "cal.yaml:7:3: error" },
    },
    {
        .what = "two renames pair with their own tools",
        .handlers = { H("calender_lookup", "/p/a.c", 10, 1), H("create_remindr", "/p/a.c", 20, 1),
                      H("daily_plan", "/p/a.c", 30, 1) },
        .errors = 2,
        .pieces = { "did you mean 'calendar_lookup'?\ncal.yaml:4:3: note:",
                    "did you mean 'create_reminder'?\ncal.yaml:7:3: note:" },
    },
    {
        .what = "a handler written without the macro is pointed at",
        .handlers = { PLAIN("calendar_Handler_calendar_lookup", "/p/a.c", 10, 5), /* no macro */
                      PLAIN("calendar_Handler_daily_plan_v2", "/p/a.c", 40, 5),  /* unrelated */
                      H("create_reminder", "/p/a.c", 20, 1), H("daily_plan", "/p/a.c", 30, 1) },
        .errors = 1,
        .text = "cal.yaml:4:3: error: tool 'calendar_lookup' is declared but no source of plugin "
                "'calendar' defines its handler; define it with "
                "'CALENDAR_TOOLGOV_HANDLER(calendar_lookup, call, args, out) { ... }'\n"
                "/p/a.c:10:5: note: 'calendar_Handler_calendar_lookup' is defined here without "
                "CALENDAR_TOOLGOV_HANDLER(), so the check cannot tell it is the handler; define it with "
                "the macro\n"
                "cal.yaml:4:3: note: a handler to paste into a source that includes "
                "\"calendar.toolgov.h\":\n"
                "/* calendar_lookup (read): Find events. */\n"
                "CALENDAR_TOOLGOV_HANDLER(calendar_lookup, call, args, out)\n"
                "{\n"
                "    (void)call;\n"
                "    (void)args;\n"
                "    (void)out;\n"
                "    return TOOLGOV_EHANDLER; /* not written yet */\n"
                "}\n",
    },
    {
        .what = "a second handler for a tool is an error",
        .handlers = { ALL_THREE, H("calendar_lookup", "/p/b.c", 5, 1) },
        .errors = 1,
        .text = "/p/b.c:5:1: error: second handler for tool 'calendar_lookup' of plugin "
                "'calendar'\n"
                "/p/a.c:10:1: note: the first handler for 'calendar_lookup' is here\n",
    },
    {
        .what = "registering an undeclared literal name is an error at the call",
        .handlers = { ALL_THREE },
        .regs = { REG("toolgov_register_tool", "calendar_lookup", 5, 34),
                  REG("toolgov_register_tool", "weather", 6, 34),
                  REG("toolgov_declare_tool", "daily_plna", 7, 33) },
        .errors = 2,
        .text = "/p/r.c:6:34: error: toolgov_register_tool() names tool 'weather', which the "
                "manifest of plugin 'calendar' does not declare (the runtime would refuse it)\n"
                "cal.yaml:4:3: note: to declare it, add 'weather:' under 'tools:' with an "
                "'effect:' (read, write or destructive) and a 'description:'\n"
                "/p/r.c:7:33: error: toolgov_declare_tool() names tool 'daily_plna', which the "
                "manifest of plugin 'calendar' does not declare; did you mean 'daily_plan'?\n"
                "cal.yaml:10:3: note: 'daily_plan' is declared here\n",
    },
    {
        .what = "a registration name computed at run time is a warning",
        .handlers = { ALL_THREE },
        .regs = { REG("toolgov_register_tool", NULL, 9, 34) },
        .errors = 0, .warnings = 1,
        .text = "/p/r.c:9:34: warning: toolgov_register_tool() is called with a tool name "
                "computed at run time, which the drift check cannot verify; the runtime "
                "refuses it unless the manifest of plugin 'calendar' declares it\n",
    },
};

#define CASE_COUNT ((int)(sizeof cases / sizeof *cases))

START_TEST(compare_case_row)
{
    const compare_case *c = &cases[_i];
    toolgov__handler h[MAX_HANDLERS];
    toolgov__registration rg[MAX_REGS];
    toolgov__scan s;
    const char *from;
    size_t i;
    run r;

    memset(&s, 0, sizeof s);
    for (i = 0; i < MAX_HANDLERS && c->handlers[i].function; i++)
        h[i] = c->handlers[i];
    s.handlers = i ? h : NULL;
    s.handler_count = i;
    for (i = 0; i < MAX_REGS && c->regs[i].callee; i++)
        rg[i] = c->regs[i];
    s.registrations = i ? rg : NULL;
    s.registration_count = i;

    run_open(&r);
    r.errors = toolgov__compare(r.m, &s, &r.d);
    fclose(r.sink);
    r.sink = NULL;
    ck_assert_msg(r.errors == c->errors, "%s: %zu errors, expected %zu:\n%s", c->what, r.errors,
                  c->errors, r.text);
    ck_assert_msg(r.d.warnings == c->warnings, "%s: %zu warnings, expected %zu:\n%s", c->what,
                  (size_t)r.d.warnings, c->warnings, r.text);
    if (c->text)
        ck_assert_msg(strcmp(r.text, c->text) == 0, "%s: output\n%s\nexpected\n%s", c->what,
                      r.text, c->text);
    for (i = 0, from = r.text; i < MAX_PIECES && c->pieces[i]; i++) {
        const char *at = strstr(from, c->pieces[i]);
        ck_assert_msg(at != NULL, "%s: '%s' missing (or out of order) in\n%s", c->what,
                      c->pieces[i], r.text);
        from = at + strlen(c->pieces[i]);
    }
    for (i = 0; i < MAX_PIECES && c->absent[i]; i++)
        ck_assert_msg(strstr(r.text, c->absent[i]) == NULL, "%s: '%s' should not be in\n%s",
                      c->what, c->absent[i], r.text);
    run_close(&r);
}
END_TEST

/* The clang diagnostics a scan collected, with their notes. */
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
    tcase_add_loop_test(tc, compare_case_row, 0, CASE_COUNT);
    tcase_add_test(tc, clang_errors_are_reported_with_their_notes);
    suite_add_tcase(s, tc);
    return s;
}
