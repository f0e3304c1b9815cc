/* SPDX-License-Identifier: MIT */
/*
** test_drift_main.c: the drift check's suites (scanner, comparison, the
** `check` command) in one runner.
*/
#include <check.h>
#include <stdlib.h>

Suite *scan_suite(void);
Suite *compare_suite(void);
Suite *check_suite(void);
Suite *evasion_suite(void);
Suite *link_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(scan_suite());
    srunner_add_suite(sr, compare_suite());
    srunner_add_suite(sr, check_suite());
    srunner_add_suite(sr, evasion_suite());
    srunner_add_suite(sr, link_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
