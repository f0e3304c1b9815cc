/* SPDX-License-Identifier: MIT */
/*
** test_scan.c: the libclang scanner on small sources (tests/drift/data/).
**
** Each case parses real files with the same kind of arguments the CMake step
** passes (-I for the runtime headers and the data directory) and asserts on
** what was found and where: the places are the ones a diagnostic will show.
*/
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <toolgov/toolgov.h>

#include "check/scan.h"

#define DATA TOOLGOV_SOURCE_DIR "/tests/drift/data/"

static const char *const args[] = {
    "-I" TOOLGOV_SOURCE_DIR "/runtime/include",
    "-I" TOOLGOV_SOURCE_DIR "/tests/drift/data",
    "-std=c11",
};
#define NARGS (sizeof args / sizeof *args)

/* The data sources are plugin "demo" (data/demo.toolgov.h). */
static const toolgov__scan_opts opts1 = { "demo", 1, NULL, NULL };
static const toolgov__scan_opts opts4 = { "demo", 4, NULL, NULL };

static toolgov__scan *scan_files(const char *const *sources, size_t n)
{
    toolgov__scan *s = NULL;
    ck_assert_int_eq(toolgov__scan_run(&s, args, NARGS, sources, n, &opts1), 0);
    ck_assert_ptr_nonnull(s);
    return s;
}

static toolgov__scan *scan_one(const char *source)
{
    return scan_files(&source, 1);
}

static void assert_handler(const toolgov__scan *s, size_t i, const char *tool,
                           const char *file, unsigned line, unsigned col)
{
    ck_assert_uint_gt(s->handler_count, i);
    ck_assert_str_eq(s->handlers[i].tool, tool);
    ck_assert_str_eq(s->handlers[i].at.file, file);
    ck_assert_uint_eq(s->handlers[i].at.line, line);
    ck_assert_uint_eq(s->handlers[i].at.col, col);
}

static int has_file(const toolgov__scan *s, const char *path)
{
    int n = 0;
    for (size_t i = 0; i < s->file_count; i++)
        if (strcmp(s->files[i], path) == 0)
            n++;
    return n;
}

START_TEST(macro_made_handlers_are_found_at_the_macro_use)
{
    toolgov__scan *s = scan_one(DATA "macro_handlers.c");
    ck_assert_uint_eq(s->parse_errors, 0);
    ck_assert_uint_eq(s->handler_count, 3);
    assert_handler(s, 0, "alpha", DATA "macro_handlers.c", 3, 1);
    /* Made by a project macro wrapping DEMO_TOOLGOV_HANDLER: still found, and
    ** placed where the project macro is used. */
    assert_handler(s, 1, "beta", DATA "macro_handlers.c", 19, 1);
    assert_handler(s, 2, "gamma", DATA "macro_handlers.c", 20, 1);
    ck_assert_str_eq(s->handlers[1].function, "demo_Handler_beta");
    ck_assert_uint_eq(s->registration_count, 0);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(handler_in_a_header_of_two_sources_is_seen_from_each)
{
    const char *src[] = { DATA "shared_one.c", DATA "shared_two.c" };
    toolgov__scan *s = scan_files(src, 2);
    ck_assert_uint_eq(s->parse_errors, 0);
    /* One definition, two translation units: the link would see two. */
    ck_assert_uint_eq(s->handler_count, 2);
    assert_handler(s, 0, "shared", DATA "shared_handler.h", 5, 15);
    assert_handler(s, 1, "shared", DATA "shared_handler.h", 5, 15);
    ck_assert_str_eq(s->handlers[0].source, DATA "shared_one.c");
    ck_assert_str_eq(s->handlers[1].source, DATA "shared_two.c");
    /* Each through its own #include. */
    ck_assert_str_eq(s->handlers[0].via.file, DATA "shared_one.c");
    ck_assert_uint_eq(s->handlers[0].via.line, 1);
    ck_assert_uint_eq(s->handlers[0].via.col, 10);
    ck_assert_str_eq(s->handlers[1].via.file, DATA "shared_two.c");
    /* Both sources and the header are inputs, each listed once. */
    ck_assert_int_eq(has_file(s, DATA "shared_one.c"), 1);
    ck_assert_int_eq(has_file(s, DATA "shared_two.c"), 1);
    ck_assert_int_eq(has_file(s, DATA "shared_handler.h"), 1);
    ck_assert_int_eq(has_file(s, DATA "demo.toolgov.h"), 1);
    ck_assert_int_eq(has_file(s, TOOLGOV_SOURCE_DIR "/runtime/include/toolgov/toolgov.h"), 1);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(handler_under_if0_is_missing)
{
    toolgov__scan *s = scan_one(DATA "if0.c");
    ck_assert_uint_eq(s->parse_errors, 0);
    ck_assert_uint_eq(s->handler_count, 1);
    assert_handler(s, 0, "beta", DATA "if0.c", 12, 1);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(annotated_prototype_and_definition_count_once)
{
    toolgov__scan *s = scan_one(DATA "proto_def.c");
    ck_assert_uint_eq(s->parse_errors, 0);
    /* alpha once, at its definition; ghost has only a prototype. */
    ck_assert_uint_eq(s->handler_count, 1);
    assert_handler(s, 0, "alpha", DATA "proto_def.c", 7, 1);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(plain_definition_named_like_a_handler_is_kept_without_tool)
{
    toolgov__scan *s = scan_one(DATA "plain_handler.c");
    ck_assert_uint_eq(s->parse_errors, 0);
    ck_assert_uint_eq(s->handler_count, 2);
    ck_assert_ptr_null(s->handlers[0].tool);
    ck_assert_str_eq(s->handlers[0].function, "demo_Handler_alpha");
    ck_assert_uint_eq(s->handlers[0].at.line, 4);
    ck_assert_uint_eq(s->handlers[0].at.col, 5);
    assert_handler(s, 1, "beta", DATA "plain_handler.c", 11, 1);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(registration_names_are_evaluated)
{
    static const struct {
        const char *callee, *name;
        unsigned line, col;
    } want[] = {
        { "toolgov_register_tool", "plain", 12, 38 },
        { "toolgov_register_tool", "concat", 13, 38 },        /* "con" "cat" */
        { "toolgov_register_tool", "stringized", 14, 38 },    /* #x in a macro */
        { "toolgov_register_tool", "parenthesised", 15, 40 }, /* (fn)(...) */
        { "toolgov_register_tool", "from_macro", 16, 11 },    /* whole call from a macro */
        { "toolgov_register_tool", NULL, 17, 38 },            /* computed */
        { "toolgov_declare_tool", "declared_here", 19, 37 },
    };
    toolgov__scan *s = scan_one(DATA "registrations.c");
    ck_assert_uint_eq(s->parse_errors, 0);
    ck_assert_uint_eq(s->handler_count, 0);
    ck_assert_uint_eq(s->registration_count, sizeof want / sizeof *want);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const toolgov__registration *r = &s->registrations[i];
        ck_assert_str_eq(r->callee, want[i].callee);
        if (want[i].name)
            ck_assert_str_eq(r->name, want[i].name);
        else
            ck_assert_ptr_null(r->name);
        ck_assert_str_eq(r->at.file, DATA "registrations.c");
        ck_assert_uint_eq(r->at.line, want[i].line);
        ck_assert_uint_eq(r->at.col, want[i].col);
    }
    toolgov__scan_free(s);
}
END_TEST

START_TEST(syntax_error_fails_with_clangs_diagnostic)
{
    toolgov__scan *s = scan_one(DATA "syntax_error.c");
    ck_assert_uint_eq(s->parse_errors, 1);
    ck_assert_uint_ge(s->diag_count, 1);
    ck_assert_int_eq(s->diags[0].severity, TOOLGOV__CLANG_ERROR);
    ck_assert_str_eq(s->diags[0].at.file, DATA "syntax_error.c");
    ck_assert_uint_eq(s->diags[0].at.line, 7);
    ck_assert_uint_eq(s->diags[0].at.col, 43);
    ck_assert_str_eq(s->diags[0].message, "expected ';' after return statement");
    ck_assert_str_eq(s->diags[0].source, DATA "syntax_error.c");
    toolgov__scan_free(s);
}
END_TEST

START_TEST(missing_header_fails_with_clangs_diagnostic)
{
    toolgov__scan *s = scan_one(DATA "missing_header.c");
    ck_assert_uint_ge(s->parse_errors, 1);
    ck_assert_int_eq(s->diags[0].severity, TOOLGOV__CLANG_ERROR);
    ck_assert_str_eq(s->diags[0].at.file, DATA "missing_header.c");
    ck_assert_uint_eq(s->diags[0].at.line, 2);
    ck_assert_uint_eq(s->diags[0].at.col, 10);
    ck_assert_str_eq(s->diags[0].message, "'no_such_header.h' file not found");
    toolgov__scan_free(s);
}
END_TEST

START_TEST(one_bad_source_does_not_hide_the_others)
{
    const char *src[] = { DATA "missing_header.c", DATA "macro_handlers.c" };
    toolgov__scan *s = scan_files(src, 2);
    ck_assert_uint_ge(s->parse_errors, 1);
    /* KeepGoing: the rest of the broken file and the next file are read. */
    int saw_gamma = 0;
    for (size_t i = 0; i < s->handler_count; i++)
        saw_gamma |= strcmp(s->handlers[i].tool, "gamma") == 0;
    ck_assert_int_eq(saw_gamma, 1);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(unreadable_source_is_an_error)
{
    toolgov__scan *s = scan_one(DATA "no_such_source.c");
    ck_assert_uint_ge(s->parse_errors, 1);
    ck_assert_str_eq(s->diags[0].at.file, DATA "no_such_source.c");
    ck_assert_uint_eq(s->handler_count, 0);
    toolgov__scan_free(s);
}
END_TEST

START_TEST(bad_arguments_are_refused)
{
    toolgov__scan *s = (toolgov__scan *)1;
    const char *src = DATA "if0.c";
    ck_assert_int_eq(toolgov__scan_run(&s, args, NARGS, &src, 0, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov__scan_run(&s, args, NARGS, NULL, 1, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov__scan_run(NULL, args, NARGS, &src, 1, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov__scan_run(&s, NULL, 2, &src, 1, NULL), TOOLGOV_EINVAL);
    ck_assert_ptr_eq(s, (toolgov__scan *)1);
    toolgov__scan_free(NULL);
}
END_TEST

START_TEST(relative_source_names_become_absolute)
{
    ck_assert_int_eq(chdir(TOOLGOV_SOURCE_DIR "/tests/drift"), 0);
    toolgov__scan *s = scan_one("data/if0.c");
    assert_handler(s, 0, "beta", DATA "if0.c", 12, 1);
    ck_assert_int_eq(has_file(s, DATA "if0.c"), 1);
    toolgov__scan_free(s);
}
END_TEST

static void assert_same_loc(const toolgov__loc *a, const toolgov__loc *b)
{
    if (a->file || b->file)
        ck_assert_str_eq(a->file, b->file);
    ck_assert_uint_eq(a->line, b->line);
    ck_assert_uint_eq(a->col, b->col);
}

START_TEST(parallel_parse_gives_the_sequential_result)
{
    /* Every data source, bad ones included, several times over: the worker
    ** threads finish in any order, the result must not show it. */
    static const char *const names[] = {
        "macro_handlers.c", "shared_one.c", "missing_header.c", "shared_two.c",
        "if0.c", "proto_def.c", "registrations.c", "syntax_error.c", "no_such_source.c",
    };
    const char *src[3 * sizeof names / sizeof *names];
    char paths[sizeof src / sizeof *src][512];
    size_t n = 0;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof names / sizeof *names; i++, n++) {
            snprintf(paths[n], sizeof paths[n], DATA "%s", names[i]);
            src[n] = paths[n];
        }
    toolgov__scan *seq = NULL, *par = NULL;
    ck_assert_int_eq(toolgov__scan_run(&seq, args, NARGS, src, n, &opts1), 0);
    ck_assert_int_eq(toolgov__scan_run(&par, args, NARGS, src, n, &opts4), 0);
    ck_assert_uint_eq(seq->handler_count, par->handler_count);
    /* 3 + 1 + 2 (missing_header) + 1 + 1 + 1 + 2 (syntax_error): shared_two.c
    ** sees the handler of shared_one.c again; rounds 2 and 3 repeat
    ** sources already seen. */
    ck_assert_uint_eq(seq->handler_count, 11);
    for (size_t i = 0; i < seq->handler_count; i++) {
        ck_assert_str_eq(seq->handlers[i].tool, par->handlers[i].tool);
        assert_same_loc(&seq->handlers[i].at, &par->handlers[i].at);
    }
    ck_assert_uint_eq(seq->registration_count, par->registration_count);
    for (size_t i = 0; i < seq->registration_count; i++)
        assert_same_loc(&seq->registrations[i].at, &par->registrations[i].at);
    ck_assert_uint_eq(seq->parse_errors, par->parse_errors);
    ck_assert_uint_eq(seq->parse_errors, 9); /* three bad sources, three rounds */
    ck_assert_uint_eq(seq->diag_count, par->diag_count);
    for (size_t i = 0; i < seq->diag_count; i++) {
        ck_assert_str_eq(seq->diags[i].message, par->diags[i].message);
        assert_same_loc(&seq->diags[i].at, &par->diags[i].at);
    }
    ck_assert_uint_eq(seq->file_count, par->file_count);
    for (size_t i = 0; i < seq->file_count; i++)
        ck_assert_str_eq(seq->files[i], par->files[i]);
    toolgov__scan_free(seq);
    toolgov__scan_free(par);
}
END_TEST

Suite *scan_suite(void);
Suite *scan_suite(void)
{
    Suite *s = suite_create("scan");
    TCase *tc = tcase_create("scan");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, macro_made_handlers_are_found_at_the_macro_use);
    tcase_add_test(tc, handler_in_a_header_of_two_sources_is_seen_from_each);
    tcase_add_test(tc, handler_under_if0_is_missing);
    tcase_add_test(tc, annotated_prototype_and_definition_count_once);
    tcase_add_test(tc, plain_definition_named_like_a_handler_is_kept_without_tool);
    tcase_add_test(tc, registration_names_are_evaluated);
    tcase_add_test(tc, syntax_error_fails_with_clangs_diagnostic);
    tcase_add_test(tc, missing_header_fails_with_clangs_diagnostic);
    tcase_add_test(tc, one_bad_source_does_not_hide_the_others);
    tcase_add_test(tc, unreadable_source_is_an_error);
    tcase_add_test(tc, bad_arguments_are_refused);
    tcase_add_test(tc, relative_source_names_become_absolute);
    tcase_add_test(tc, parallel_parse_gives_the_sequential_result);
    suite_add_tcase(s, tc);
    return s;
}
