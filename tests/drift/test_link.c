/* SPDX-License-Identifier: MIT */
/*
** test_link.c: the link check (gen/check/link.c), manifests checked as one pool: a tool name
** declared by two plugins, a built-in's name taken, a plugin name used
** twice, each with the exact diagnostics.
*/
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/link.h"

static toolgov__manifest *load(const char *path, const char *text)
{
    toolgov__diag d;
    toolgov__diag_init(&d, stderr, 0);
    toolgov__manifest *m = toolgov__manifest_load_mem(path, text, strlen(text), &d);
    ck_assert_ptr_nonnull(m);
    return m;
}

/* Run the link check over the texts; returns its result, output in *out. */
static size_t link_check(char **out, size_t n, const char *const *paths, const char *const *texts)
{
    toolgov__manifest *ms[8];
    size_t len = 0;
    FILE *sink = open_memstream(out, &len);
    ck_assert_ptr_nonnull(sink);
    toolgov__diag d;
    toolgov__diag_init(&d, sink, 0);
    for (size_t i = 0; i < n; i++)
        ms[i] = load(paths[i], texts[i]);
    size_t errors = toolgov__link_check((const toolgov__manifest *const *)ms, n, &d);
    fclose(sink);
    for (size_t i = 0; i < n; i++)
        toolgov__manifest_free(ms[i]);
    return errors;
}

static const char cal[] = "name: cal\n"
                          "provides: [tool]\n"
                          "tools:\n"
                          "  lookup:\n"
                          "    effect: read\n"
                          "    description: Find.\n";
static const char mail[] = "name: mail\n"
                           "provides: [tool]\n"
                           "tools:\n"
                           "  send:\n"
                           "    effect: write\n"
                           "    description: Send.\n"
                           "  lookup:\n"
                           "    effect: read\n"
                           "    description: Find mail.\n";

START_TEST(distinct_plugins_are_quiet)
{
    static const char *const paths[] = { "cal.yaml", "other.yaml" };
    static const char *const texts[] = {
        cal, "name: other\nprovides: [tool]\ntools:\n  other:\n    effect: read\n"
             "    description: O.\n",
    };
    char *out = NULL;
    ck_assert_uint_eq(link_check(&out, 2, paths, texts), 0);
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

START_TEST(a_tool_name_in_two_plugins_is_an_error_at_the_second)
{
    static const char *const paths[] = { "cal.yaml", "mail.yaml" };
    static const char *const texts[] = { cal, mail };
    char *out = NULL;
    ck_assert_uint_eq(link_check(&out, 2, paths, texts), 1);
    ck_assert_str_eq(out,
        "mail.yaml:7:3: error: tool 'lookup' of plugin 'mail' is declared by plugin 'cal' "
        "too; in one pool a tool name has one owner (the runtime keeps the first and "
        "refuses this one)\n"
        "cal.yaml:4:3: note: 'lookup' is declared here first\n");
    free(out);
}
END_TEST

/* A tool of a plugin's own loop (loop: own) never enters the pool, but
** approvals, confirmations and the audit trail name tools by name, so its
** name is still one of the pool's: a clash with another plugin's tool or a
** built-in is the same error. */
START_TEST(own_loop_tools_share_the_pool_names)
{
    static const char own[] = "name: own\n"
                              "provides: [tool]\n"
                              "tools:\n"
                              "  lookup:\n"
                              "    effect: read\n"
                              "    loop: own\n"
                              "    description: Own lookup.\n"
                              "  ask_user:\n"
                              "    effect: read\n"
                              "    loop: own\n"
                              "    description: Own question.\n";
    static const char *const paths[] = { "cal.yaml", "own.yaml" };
    static const char *const texts[] = { cal, own };
    char *out = NULL;
    ck_assert_uint_eq(link_check(&out, 2, paths, texts), 2);
    ck_assert_str_eq(out,
        "own.yaml:4:3: error: tool 'lookup' of plugin 'own' is declared by plugin 'cal' "
        "too; in one pool a tool name has one owner (the runtime keeps the first and "
        "refuses this one)\n"
        "cal.yaml:4:3: note: 'lookup' is declared here first\n"
        "own.yaml:8:3: error: tool 'ask_user' of plugin 'own' takes the name of a core "
        "built-in tool, which the runtime refuses at mount; rename it\n");
    free(out);
}
END_TEST

START_TEST(a_builtin_name_is_an_error_even_alone)
{
    for (size_t i = 0; i < toolgov__builtin_tool_count; i++) {
        char text[256], want[512];
        snprintf(text, sizeof text,
                 "name: cal\nprovides: [tool]\ntools:\n  %s:\n    effect: read\n"
                 "    description: X.\n",
                 toolgov__builtin_tools[i]);
        const char *paths[] = { "cal.yaml" };
        const char *texts[] = { text };
        char *out = NULL;
        ck_assert_uint_eq(link_check(&out, 1, paths, texts), 1);
        snprintf(want, sizeof want,
                 "cal.yaml:4:3: error: tool '%s' of plugin 'cal' takes the name of a core "
                 "built-in tool, which the runtime refuses at mount; rename it\n",
                 toolgov__builtin_tools[i]);
        ck_assert_str_eq(out, want);
        free(out);
    }
    ck_assert_uint_eq(toolgov__builtin_tool_count, 9);
}
END_TEST

START_TEST(a_plugin_name_used_twice_is_an_error)
{
    static const char *const paths[] = { "cal.yaml", "cal2.yaml" };
    static const char *const texts[] = {
        cal, "name: cal\nprovides: [tool]\ntools:\n  other:\n    effect: read\n"
             "    description: O.\n",
    };
    char *out = NULL;
    ck_assert_uint_eq(link_check(&out, 2, paths, texts), 1);
    ck_assert_str_eq(out,
        "cal2.yaml:1:7: error: plugin name 'cal' is used by another manifest of this pool; "
        "the generated names of the two would collide\n"
        "cal.yaml:1:7: note: plugin 'cal' is named here first\n");
    free(out);
}
END_TEST

START_TEST(manifests_that_did_not_load_are_skipped)
{
    toolgov__manifest *ms[3] = { NULL, load("mail.yaml", mail), NULL };
    toolgov__diag d;
    toolgov__diag_init(&d, stderr, 0);
    ck_assert_uint_eq(toolgov__link_check((const toolgov__manifest *const *)ms, 3, &d), 0);
    toolgov__manifest_free(ms[1]);
}
END_TEST

Suite *link_suite(void);
Suite *link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("link");
    tcase_add_test(tc, distinct_plugins_are_quiet);
    tcase_add_test(tc, a_tool_name_in_two_plugins_is_an_error_at_the_second);
    tcase_add_test(tc, a_builtin_name_is_an_error_even_alone);
    tcase_add_test(tc, own_loop_tools_share_the_pool_names);
    tcase_add_test(tc, a_plugin_name_used_twice_is_an_error);
    tcase_add_test(tc, manifests_that_did_not_load_are_skipped);
    suite_add_tcase(s, tc);
    return s;
}
