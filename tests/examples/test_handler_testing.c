/* SPDX-License-Identifier: MIT */
/*
** test_handler_testing.c: a plugin author's unit test of one handler, with
** toolgov_result_new() and toolgov_test_invoke() (testing.h) and no
** registry, policy or run of the test's own: the examples' handlers over
** their state structs, arguments decoded as every call is, the gate left
** out, and every failure a code with a message.
*/
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/testing.h>

#include "calendar.toolgov.h"
#include "calendar_state.h"
#include "email_state.h"
#include "email_workflows.toolgov.h"

/* A counting allocator: every byte the helper takes is given back. */
typedef struct counter {
    long long live;
    unsigned calls;
} counter;

static void *counting(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counter *c = ud;
    void *p;
    if (nsize == 0) {
        c->live -= (long long)osize;
        free(ptr);
        return NULL;
    }
    c->calls++;
    p = realloc(ptr, nsize);
    if (p)
        c->live += (long long)nsize - (long long)(ptr ? osize : 0);
    return p;
}

START_TEST(handler_with_its_state)
{
    counter c = {0, 0};
    toolgov_allocator a = {counting, &c};
    toolgov_result *out = NULL;
    calendar_state st;
    int rc;

    calendar_state_init(&st);
    ck_assert_int_eq(toolgov_result_new(&out, &a), 0);
    ck_assert_str_eq(toolgov_result_text(out), "");
    /* A confirm-once write runs with no confirmation: the handler is tested. */
    rc = toolgov_test_invoke(out, &calendar_toolgov_plugin, "create_reminder",
                             "{\"title\": \"milk\", \"date\": \"2026-12-02\", \"time\": \"09:00\"}",
                             (size_t)-1, &st);
    ck_assert_msg(rc == 0, "%d: %s", rc, toolgov_result_text(out));
    ck_assert_uint_eq(st.reminder_count, 1);
    ck_assert_str_eq(st.reminders[0].title, "milk");
    ck_assert_ptr_nonnull(strstr(toolgov_result_text(out), "milk"));
    ck_assert_uint_eq(toolgov_result_len(out), strlen(toolgov_result_text(out)));

    /* Arguments the schema refuses never reach the handler: the model's
    ** message, by JSON path. */
    rc = toolgov_test_invoke(out, &calendar_toolgov_plugin, "create_reminder",
                             "{\"title\":\"milk\",\"date\":\"12/02/2026\",\"time\":\"09:00\"}",
                             (size_t)-1, &st);
    ck_assert_int_eq(rc, TOOLGOV_EARGS);
    ck_assert_msg(strstr(toolgov_result_text(out), "create_reminder: /date must be a date") ==
                      toolgov_result_text(out), "%s", toolgov_result_text(out));
    ck_assert_uint_eq(st.reminder_count, 1);

    /* The handler's own refusal, with a NULL context. */
    rc = toolgov_test_invoke(out, &calendar_toolgov_plugin, "create_reminder",
                             "{\"title\":\"milk\",\"date\":\"2026-12-02\",\"time\":\"09:00\"}", 51,
                             NULL);
    ck_assert_int_eq(rc, TOOLGOV_EHANDLER);
    ck_assert_ptr_nonnull(strstr(toolgov_result_text(out), "without a calendar_state"));

    /* A read tool without arguments given: "{}" and its defaults. */
    rc = toolgov_test_invoke(out, &calendar_toolgov_plugin, "calendar_lookup", NULL, 0, &st);
    ck_assert_msg(rc == 0 || rc == TOOLGOV_EUSAGE, "%d: %s", rc, toolgov_result_text(out));

    toolgov_result_free(out);
    ck_assert_uint_gt(c.calls, 0);
    ck_assert_int_eq(c.live, 0);
}
END_TEST

/* A destructive tool runs without an approval, once per call. */
START_TEST(destructive_runs_without_the_gate)
{
    toolgov_result *out = NULL;
    email_state st;
    int rc;

    email_state_init(&st);
    ck_assert_int_eq(toolgov_result_new(&out, NULL), 0);
    rc = toolgov_test_invoke(out, &email_workflows_toolgov_plugin, "empty_trash", "{}", 2, &st);
    ck_assert_msg(rc == 0, "%d: %s", rc, toolgov_result_text(out));
    ck_assert_uint_eq(st.empty_calls, 1);
    rc = toolgov_test_invoke(out, &email_workflows_toolgov_plugin, "empty_trash", "", 0, &st);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(st.empty_calls, 2);
    /* No arguments means none: an unknown one is refused. */
    rc = toolgov_test_invoke(out, &email_workflows_toolgov_plugin, "empty_trash",
                             "{\"all\":true}", (size_t)-1, &st);
    ck_assert_int_eq(rc, TOOLGOV_EARGS);
    ck_assert_uint_eq(st.empty_calls, 2);
    toolgov_result_free(out);
}
END_TEST

/* A generated string enum has a name table: value -> the JSON text. */
START_TEST(enum_names)
{
    ck_assert_str_eq(email_workflows_EnumName_list_by_category_category(
                         email_workflows_Enum_list_by_category_category_social),
                     "social");
    ck_assert_str_eq(email_workflows_EnumName_list_by_category_category(
                         email_workflows_Enum_list_by_category_category_primary),
                     "primary");
    ck_assert_ptr_null(email_workflows_EnumName_list_by_category_category(
        (email_workflows_Enum_list_by_category_category)99));
    ck_assert_ptr_null(email_workflows_EnumName_list_by_category_category(
        (email_workflows_Enum_list_by_category_category)-1));
}
END_TEST

START_TEST(misuse)
{
    toolgov_result *out = NULL;
    ck_assert_int_eq(toolgov_result_new(NULL, NULL), TOOLGOV_EINVAL);
    toolgov_result_free(NULL);
    ck_assert_int_eq(toolgov_result_new(&out, NULL), 0);
    ck_assert_int_eq(toolgov_test_invoke(out, &calendar_toolgov_plugin, "nope", "{}", 2, NULL),
                     TOOLGOV_ENOENT);
    ck_assert_str_eq(toolgov_result_text(out),
                     "plugin 'calendar' registers no handler for a tool named 'nope'");
    /* A built-in is not the plugin's. */
    ck_assert_int_eq(toolgov_test_invoke(out, &calendar_toolgov_plugin, "ask_user", "{}", 2, NULL),
                     TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_test_invoke(NULL, &calendar_toolgov_plugin, "nope", "{}", 2, NULL),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_test_invoke(out, NULL, "nope", "{}", 2, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_test_invoke(out, &calendar_toolgov_plugin, NULL, "{}", 2, NULL),
                     TOOLGOV_EINVAL);
    toolgov_result_free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("handler_testing");
    TCase *tc = tcase_create("invoke");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, handler_with_its_state);
    tcase_add_test(tc, destructive_runs_without_the_gate);
    tcase_add_test(tc, enum_names);
    tcase_add_test(tc, misuse);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
