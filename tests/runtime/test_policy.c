/* SPDX-License-Identifier: MIT */
/* test_policy.c: the derived confirm-once set and the operator override. */
#include <check.h>
#include <stdio.h>

#include "fixture.h"

static toolgov_registry *reg;
static toolgov_policy *pol;

static void setup(void)
{
    reg = fx_registry(NULL, NULL);
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
}

static void teardown(void)
{
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}

/* The effective set as "a,b,c" in registration order. */
static void set_text(char *buf, size_t size)
{
    size_t i, n = toolgov_policy_confirm_once_count(pol);

    buf[0] = '\0';
    for (i = 0; i < n; i++) {
        if (i)
            strncat(buf, ",", size - strlen(buf) - 1);
        strncat(buf, toolgov_policy_confirm_once_at(pol, i), size - strlen(buf) - 1);
    }
    ck_assert_ptr_null(toolgov_policy_confirm_once_at(pol, n));
}

#define DERIVED "promote_recommendation,propose_skill_from_sandbox,invoke_pending_action,make_note"

static const struct {
    const char *text;
    const char *set;       /* expected effective set */
    const char *unknown;   /* expected unknown names, comma-joined */
} override_table[] = {
    {NULL, DERIVED, ""},
    {"", DERIVED, ""},
    {"  ", DERIVED, ""},
    {",,, ,\t,", DERIVED, ""},
    {"set_pref", "promote_recommendation,propose_skill_from_sandbox,invoke_pending_action,"
                 "make_note,set_pref", ""},
    {" set_pref , lookup ", "promote_recommendation,propose_skill_from_sandbox,"
                            "invoke_pending_action,lookup,make_note,set_pref", ""},
    {"none", "", ""},
    {" none ", "", ""},
    {"none,make_note", "make_note", ""},
    {"make_note,none", "make_note", ""},
    {"none, ,set_pref,,none", "set_pref", ""},
    {"nonexistent", DERIVED, "nonexistent"},
    {"none,typo_tool,,make_note,other", "make_note", "typo_tool,other"},
    {"None", DERIVED, "None"},
    {"make_note,make_note", DERIVED, ""},
    {"memory_forget", "memory_forget,promote_recommendation,propose_skill_from_sandbox,"
                      "invoke_pending_action,make_note", ""},
    /* a destructive tool is gated by approval and never enters the set */
    {"purge", "promote_recommendation,propose_skill_from_sandbox,invoke_pending_action,"
              "make_note", ""},
    {"make note", DERIVED, "make note"},
};

START_TEST(override_parsing_row)
{
    char got[1024], unknown[256];
    size_t i, rows;

    ck_assert_int_eq(toolgov_policy_set_override(pol, override_table[_i].text), 0);
    set_text(got, sizeof got);
    ck_assert_msg(strcmp(got, override_table[_i].set) == 0, "override \"%s\": set %s, want %s",
                  override_table[_i].text ? override_table[_i].text : "(null)", got,
                  override_table[_i].set);
    unknown[0] = '\0';
    rows = toolgov_drift_count(reg, pol);
    for (i = 0; i < rows; i++) {
        const toolgov_drift_row *r = toolgov_drift_at(reg, pol, i);

        ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_OVERRIDE_UNKNOWN);
        ck_assert_ptr_null(r->plugin);
        if (i)
            strcat(unknown, ",");
        strcat(unknown, r->tool);
        ck_assert_ptr_nonnull(strstr(r->message, r->tool));
        ck_assert_ptr_nonnull(strstr(r->message, "TOOLGOV_CONFIRM_ONCE_TOOLS"));
    }
    ck_assert_str_eq(unknown, override_table[_i].unknown);
}
END_TEST

START_TEST(derived_set_and_queries)
{
    char got[1024];

    set_text(got, sizeof got);
    ck_assert_str_eq(got, DERIVED);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(pol, "make_note"), 1);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(pol, "set_pref"), 0);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(pol, "purge"), 0);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(pol, "nope"), 0);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(NULL, "make_note"), 0);
    ck_assert_ptr_eq(toolgov_policy_registry(pol), reg);
    ck_assert_int_eq(toolgov_policy_new(NULL, reg), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_policy_set_override(NULL, "none"), TOOLGOV_EINVAL);
    toolgov_policy_free(NULL);
}
END_TEST

START_TEST(override_replaces_not_stacks)
{
    unsigned long long fp0 = toolgov_policy_fingerprint(pol), fp1;

    ck_assert_int_eq(toolgov_policy_set_override(pol, "none,bogus"), 0);
    ck_assert_uint_eq(toolgov_policy_confirm_once_count(pol), 0);
    ck_assert_uint_eq(toolgov_drift_count(reg, pol), 1);
    fp1 = toolgov_policy_fingerprint(pol);
    ck_assert(fp0 != fp1);
    ck_assert_int_eq(toolgov_policy_set_override(pol, NULL), 0);
    ck_assert_uint_eq(toolgov_policy_confirm_once_count(pol), 4);
    ck_assert_uint_eq(toolgov_drift_count(reg, pol), 0);
    ck_assert(toolgov_policy_fingerprint(pol) == fp0);
}
END_TEST

START_TEST(override_from_environment)
{
    char got[1024];

    ck_assert_str_eq(TOOLGOV_CONFIRM_ONCE_ENV, "TOOLGOV_CONFIRM_ONCE_TOOLS");
    setenv(TOOLGOV_CONFIRM_ONCE_ENV, "none, set_pref,unknown_x", 1);
    ck_assert_int_eq(toolgov_policy_override_from_env(pol), 0);
    set_text(got, sizeof got);
    ck_assert_str_eq(got, "set_pref");
    ck_assert_uint_eq(toolgov_drift_count(reg, pol), 1);
    /* Changing the environment later changes nothing by itself. */
    setenv(TOOLGOV_CONFIRM_ONCE_ENV, "", 1);
    ck_assert_uint_eq(toolgov_policy_confirm_once_count(pol), 1);
    unsetenv(TOOLGOV_CONFIRM_ONCE_ENV);
    ck_assert_int_eq(toolgov_policy_override_from_env(pol), 0);
    set_text(got, sizeof got);
    ck_assert_str_eq(got, DERIVED);
    ck_assert_int_eq(toolgov_policy_override_from_env(NULL), TOOLGOV_EINVAL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("override");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, override_parsing_row, 0,
                        (int)(sizeof override_table / sizeof override_table[0]));
    tcase_add_test(tc, derived_set_and_queries);
    tcase_add_test(tc, override_replaces_not_stacks);
    tcase_add_test(tc, override_from_environment);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
