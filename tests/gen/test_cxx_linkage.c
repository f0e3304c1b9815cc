/* SPDX-License-Identifier: MIT */
/*
** test_cxx_linkage.c: a plugin whose handlers are C++ (handlers compiled
** from handlers/strings_handlers_cxx.cpp) and whose generated table is C
** links and mounts: the generated prototypes and TOOLGOV_HANDLER agree on C
** linkage. A mismatch is a link error, so building this test is most of it.
*/
#include <check.h>
#include <stdlib.h>

#include "strings.toolgov.h"

START_TEST(test_mount_cxx_handlers)
{
    toolgov_registry *reg = NULL;
    size_t i;
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &strings_toolgov_plugin, NULL), 0);
    for (i = 0; i < strings_ToolCount; i++)
        ck_assert_ptr_nonnull(toolgov_registry_find(reg, strings_toolgov_plugin.tools[i].name));
    toolgov_registry_free(reg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cxx linkage");
    TCase *tc = tcase_create("cxx linkage");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_mount_cxx_handlers);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
