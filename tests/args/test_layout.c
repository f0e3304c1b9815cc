/* SPDX-License-Identifier: MIT */
/*
** test_layout.c: the descriptor types of args.h hold a generated table as
** the decoder expects to walk it (offsets, sizes, the array layout rule).
*/
#include <check.h>
#include <stdlib.h>

#include "fixture_reminder.h"

#ifdef TOOLGOV_TEST_CXX
int toolgov_args_header_cxx_probe(void);
#endif

START_TEST(array_layout_matches_toolgov_array)
{
    ck_assert_uint_eq(offsetof(reminder_args, tags.count) -
                      offsetof(reminder_args, tags.items),
                      offsetof(toolgov_array, count));
}
END_TEST

START_TEST(fields_point_at_their_members)
{
    const toolgov_arg_schema *s = &reminder_schema;

    ck_assert_int_eq(s->kind, TOOLGOV_ARG_OBJECT);
    ck_assert_uint_eq(s->field_count, 7);
    ck_assert_uint_eq(s->struct_size, sizeof(reminder_args));
    ck_assert_str_eq(s->fields[4].name, "priority");
    ck_assert_ptr_eq(s->fields[4].schema->str_enum, reminder_priority_names);
    ck_assert_str_eq(s->fields[5].default_json, "0");
    ck_assert_uint_eq(s->fields[3].has_offset, offsetof(reminder_args, has.note));
    ck_assert_uint_eq(s->fields[0].has_offset, TOOLGOV_ARG_NO_HAS);
    ck_assert_uint_eq(s->fields[6].schema->max_items, 10);
    ck_assert_uint_eq(s->fields[6].schema->item_size, sizeof(toolgov_str));
#ifdef TOOLGOV_TEST_CXX
    ck_assert_int_eq(toolgov_args_header_cxx_probe(), 7);
#endif
}
END_TEST

int main(void)
{
    Suite *s = suite_create("args_layout");
    TCase *tc = tcase_create("layout");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, array_layout_matches_toolgov_array);
    tcase_add_test(tc, fields_point_at_their_members);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
