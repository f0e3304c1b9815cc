/* SPDX-License-Identifier: MIT */
/*
** test_builtins_agree.c: the generator's list of the core's built-in tools
** (gen/pool.c, which the pool check refuses as plugin tool names) is the
** runtime's: every tool a fresh registry holds with owner "core", no more,
** no fewer. A built-in added to one side only fails here.
*/
#include <check.h>
#include <string.h>

#include <toolgov/toolgov.h>

#include "check/link.h"

static int in_gen_list(const char *name)
{
    size_t i;
    for (i = 0; i < toolgov__builtin_tool_count; i++)
        if (strcmp(toolgov__builtin_tools[i], name) == 0)
            return 1;
    return 0;
}

START_TEST(test_same_builtins)
{
    toolgov_registry *reg;
    size_t i, core = 0;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    for (i = 0; i < toolgov_registry_count(reg); i++) {
        const toolgov_tool_spec *spec = toolgov_registry_at(reg, i);
        const char *owner;
        ck_assert_ptr_nonnull(spec);
        owner = toolgov_registry_owner(reg, spec->name);
        ck_assert_ptr_nonnull(owner);
        ck_assert_str_eq(owner, "core");
        ck_assert_msg(in_gen_list(spec->name),
                      "the runtime's built-in '%s' is missing from gen/pool.c's list", spec->name);
        core++;
    }
    for (i = 0; i < toolgov__builtin_tool_count; i++)
        ck_assert_msg(toolgov_registry_find(reg, toolgov__builtin_tools[i]) != NULL,
                      "gen/pool.c lists '%s', which the runtime does not register",
                      toolgov__builtin_tools[i]);
    ck_assert_uint_eq(core, toolgov__builtin_tool_count);
    toolgov_registry_free(reg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("builtins_agree");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, test_same_builtins);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
