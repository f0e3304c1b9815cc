/* SPDX-License-Identifier: MIT */
/* test_shortlist.c: always-kept tools, ranking fill, skill names. */
#include <check.h>
#include <stdio.h>

#include "fixture.h"

static toolgov_registry *reg;
static toolgov_shortlist *sl;

static void setup(void)
{
    reg = fx_registry(NULL, NULL);
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_new(&sl, reg, 5), 0);
}

static void teardown(void)
{
    toolgov_shortlist_free(sl);
    toolgov_registry_free(reg);
}

static void joined(const toolgov_shortlist *s, char *buf, size_t size)
{
    size_t i;

    buf[0] = '\0';
    for (i = 0; i < toolgov_shortlist_count(s); i++) {
        if (i)
            strncat(buf, ",", size - strlen(buf) - 1);
        if (toolgov_shortlist_is_skill(s, i))
            strncat(buf, "*", size - strlen(buf) - 1);
        strncat(buf, toolgov_shortlist_at(s, i), size - strlen(buf) - 1);
        ck_assert_ptr_eq(toolgov_shortlist_names(s)[i], toolgov_shortlist_at(s, i));
    }
    ck_assert_ptr_null(toolgov_shortlist_at(s, i));
}

START_TEST(always_kept_then_ranking)
{
    const char *const ranking[] = {"beta_read", "lookup", "star", "nope", "lookup", "purge",
                                   "digest"};
    char buf[512];

    ck_assert_int_eq(toolgov_shortlist_select(sl, NULL, 0), 0);
    joined(sl, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star");
    ck_assert_int_eq(toolgov_shortlist_select(sl, ranking, 7), 0);
    joined(sl, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star,beta_read,lookup");
}
END_TEST

START_TEST(skips_repeats_unknowns_and_kept_names)
{
    toolgov_shortlist *wide = NULL;
    const char *const ranking[] = {"nope", "star", "lookup", NULL, "lookup", "not_added_skill",
                                   "ask_user", "digest", "purge"};
    char buf[512];

    ck_assert_int_eq(toolgov_shortlist_new(&wide, reg, 6), 0);
    ck_assert_int_eq(toolgov_shortlist_select(wide, ranking, 9), 0);
    joined(wide, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star,lookup,digest,purge");
    /* A second selection replaces the first. */
    ck_assert_int_eq(toolgov_shortlist_select(wide, ranking + 7, 1), 0);
    joined(wide, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star,digest");
    ck_assert_int_eq(toolgov_shortlist_select(wide, NULL, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_shortlist_select(NULL, ranking, 1), TOOLGOV_EINVAL);
    ck_assert_uint_eq(toolgov_shortlist_count(NULL), 0);
    ck_assert_ptr_null(toolgov_shortlist_names(NULL));
    toolgov_shortlist_free(wide);
}
END_TEST

START_TEST(limit_below_always_kept)
{
    toolgov_shortlist *tiny = NULL;
    const char *const ranking[] = {"lookup"};
    char buf[256];

    ck_assert_int_eq(toolgov_shortlist_new(&tiny, reg, 1), 0);
    ck_assert_int_eq(toolgov_shortlist_select(tiny, ranking, 1), 0);
    joined(tiny, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star");
    toolgov_shortlist_free(tiny);
    ck_assert_int_eq(toolgov_shortlist_new(NULL, reg, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_shortlist_new(&tiny, NULL, 1), TOOLGOV_EINVAL);
    toolgov_shortlist_free(NULL);
}
END_TEST

START_TEST(skills_cannot_shadow_the_pool)
{
    const char *const ranking[] = {"my_skill", "lookup", "other_skill", "digest"};
    char buf[512];

    /* Built-ins, plugin tools, refused names that are pooled: all refused. */
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, "ask_user"), TOOLGOV_EEXIST);
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, "make_note"), TOOLGOV_EEXIST);
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, "beta_read"), TOOLGOV_EEXIST);
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, "my_skill"), 0);
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, "my_skill"), TOOLGOV_EEXIST);
    /* A name that was refused at mount is free: it is not in the pool. */
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, "sneaky"), 0);
    ck_assert_int_eq(toolgov_shortlist_add_skill(sl, ""), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_shortlist_add_skill(NULL, "x"), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_shortlist_select(sl, ranking, 4), 0);
    joined(sl, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star,*my_skill,lookup");
}
END_TEST

/* A pinned tool mounted after the shortlist was made must still be kept: a
** selection that has no room for every always-kept tool is refused, never
** quietly short of one. */
START_TEST(late_pinned_tool_is_never_dropped)
{
    toolgov_registry *r2 = NULL;
    toolgov_shortlist *narrow = NULL, *roomy = NULL;
    const char *const ranking[] = {"lookup"};
    char buf[512];

    ck_assert_int_eq(toolgov_registry_new(&r2, NULL), 0);
    ck_assert_int_eq(toolgov_registry_bind_builtin(r2, "memory_search", fx_handler, NULL), 0);
    ck_assert_int_eq(toolgov_registry_bind_builtin(r2, "ask_user", fx_handler, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_new(&narrow, r2, 0), 0);
    ck_assert_int_eq(toolgov_shortlist_new(&roomy, r2, 2), 0);
    ck_assert_int_eq(toolgov_shortlist_select(narrow, NULL, 0), 0);
    joined(narrow, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user");
    ck_assert_int_eq(toolgov_registry_mount(r2, &fx_alpha, NULL), 0); /* star is pinned */
    ck_assert_int_eq(toolgov_shortlist_select(narrow, ranking, 1), TOOLGOV_ENOSPC);
    joined(narrow, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user"); /* the previous selection stays */
    ck_assert_int_eq(toolgov_shortlist_select(roomy, ranking, 1), 0);
    joined(roomy, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star");
    toolgov_shortlist_free(narrow);
    toolgov_shortlist_free(roomy);
    toolgov_registry_free(r2);
}
END_TEST

/* A built-in is offered only once the host binds its handler: unbound,
** memory_search and ask_user are not always kept, and no built-in is taken
** from the ranking (calling it could only end in TOOLGOV_ENOHANDLER). The
** room for the two is there from the start, so binding them after the
** shortlist was made needs no new shortlist. */
START_TEST(unbound_builtins_are_not_offered)
{
    toolgov_registry *r2 = NULL;
    toolgov_shortlist *s2 = NULL;
    const char *const ranking[] = {"memory_correct", "lookup", "ask_user", "memory_search",
                                   "promote_recommendation", "digest"};
    char buf[512];

    ck_assert_int_eq(toolgov_registry_new(&r2, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(r2, &fx_alpha, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_new(&s2, r2, 3), 0);
    ck_assert_int_eq(toolgov_registry_offers(r2, "memory_search"), 0);
    ck_assert_int_eq(toolgov_registry_offers(r2, "lookup"), 1);
    ck_assert_int_eq(toolgov_registry_offers(r2, "nope"), 0);
    ck_assert_int_eq(toolgov_registry_offers(NULL, "lookup"), 0);
    ck_assert_int_eq(toolgov_registry_offers(r2, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_select(s2, ranking, 6), 0);
    joined(s2, buf, sizeof buf);
    ck_assert_str_eq(buf, "star,lookup,digest");

    ck_assert_int_eq(toolgov_registry_bind_builtin(r2, "ask_user", fx_handler, NULL), 0);
    ck_assert_int_eq(toolgov_registry_bind_builtin(r2, "memory_correct", fx_handler, NULL), 0);
    ck_assert_int_eq(toolgov_registry_offers(r2, "ask_user"), 1);
    ck_assert_int_eq(toolgov_shortlist_select(s2, ranking, 6), 0);
    joined(s2, buf, sizeof buf);
    ck_assert_str_eq(buf, "ask_user,star,memory_correct");
    ck_assert_int_eq(toolgov_registry_bind_builtin(r2, "memory_search", fx_handler, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_select(s2, ranking, 6), 0);
    joined(s2, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,ask_user,star");

    /* Binding NULL withdraws it again. */
    ck_assert_int_eq(toolgov_registry_bind_builtin(r2, "ask_user", NULL, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_select(s2, ranking, 6), 0);
    joined(s2, buf, sizeof buf);
    ck_assert_str_eq(buf, "memory_search,star,memory_correct");
    toolgov_shortlist_free(s2);
    toolgov_registry_free(r2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shortlist");
    TCase *tc = tcase_create("select");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, always_kept_then_ranking);
    tcase_add_test(tc, limit_below_always_kept);
    tcase_add_test(tc, skips_repeats_unknowns_and_kept_names);
    tcase_add_test(tc, skills_cannot_shadow_the_pool);
    tcase_add_test(tc, late_pinned_tool_is_never_dropped);
    tcase_add_test(tc, unbound_builtins_are_not_offered);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
