/* SPDX-License-Identifier: MIT */
/*
** test_evasions.c: ways a plugin author could get a handler or a
** registration past `toolgov-gen check`, each run end to end through the
** command (check.c) over a source in data/evasion/. Every case must fail the
** check (or warn, where only the runtime can decide) at the right place.
*/
#define _POSIX_C_SOURCE 200809L

#include "check_util.h"

#define EV DATA "evasion/"
#define INC_EV "-I" TOOLGOV_SOURCE_DIR "/tests/drift/data/evasion"

static const char demo_a[] =
    "name: demo\n"
    "provides: [tool]\n"
    "tools:\n"
    "  alpha:\n"
    "    effect: read\n"
    "    description: A.\n";

static char *errbuf;

static void setup_manifest(const char *text)
{
    make_dir("-evasion");
    write_file(manifest, text);
}

#define CHECK(...)                                                             \
    RUN(errbuf, "check", "--manifest", manifest, "--", INC_RUNTIME, INC_DATA, INC_EV, \
        __VA_ARGS__)

/* The output has a line starting with `prefix`. */
static void expect_line(const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = errbuf; *p;) {
        if (strncmp(p, prefix, n) == 0)
            return;
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    fprintf(stderr, "---- check output ----\n%s----\n", errbuf);
    ck_abort_msg("no line starting \"%.300s\"", prefix);
}

START_TEST(a_line_marker_does_not_hide_code)
{
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK(EV "line_marker.c"), 1);
    expect_line(EV "line_marker.c:4:1: error: handler for tool 'hidden' is not declared in "
                   "the manifest of plugin 'demo'");
    expect_line(EV "line_marker.c:22:39: error: toolgov_register_tool() names tool "
                   "'hidden_call'");
}
END_TEST

START_TEST(pragma_system_header_does_not_hide_code)
{
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK(EV "pragma_system.c"), 1);
    expect_line(EV "pragma_system.h:4:1: error: handler for tool 'hidden' is not declared");
    expect_line(EV "pragma_system.h:21:39: error: toolgov_register_tool() names tool "
                   "'hidden_call'");
}
END_TEST

START_TEST(isystem_does_not_hide_code)
{
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK("-isystem", EV "sysinc", EV "isystem.c"), 1);
    expect_line(EV "sysinc/demo_hidden.h:3:1: error: handler for tool 'hidden' is not "
                   "declared");
    expect_line(EV "sysinc/demo_hidden.h:20:39: error: toolgov_register_tool() names tool "
                   "'hidden_call'");
    /* The joined form and -idirafter too. */
    ck_assert_int_eq(CHECK("-isystem" EV "sysinc", EV "isystem.c"), 1);
    expect_line(EV "sysinc/demo_hidden.h:3:1: error: handler for tool 'hidden'");
    ck_assert_int_eq(CHECK("-idirafter", EV "sysinc", EV "isystem.c"), 1);
    expect_line(EV "sysinc/demo_hidden.h:3:1: error: handler for tool 'hidden'");
}
END_TEST

START_TEST(every_cxx_body_is_read)
{
    static const char *const names[] = {
        "in_ctor", "in_dtor", "in_member", "in_field_init", "in_conversion",
        "in_static_member", "in_function_template", "in_class_template", "in_lambda",
        /* In a template whose API is a template argument the call is
        ** dependent and clang evaluates no literal: the names were taken
        ** for computed ones (a warning). */
        "sneaky_template", "sneaky_joined", "sneaky_paren",
    };
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK("-std=c++17", EV "members.cpp"), 1);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char want[256];
        snprintf(want, sizeof want, "toolgov_register_tool() names tool '%s'", names[i]);
        if (!strstr(errbuf, want))
            fprintf(stderr, "---- check output ----\n%s----\n", errbuf);
        ck_assert_msg(strstr(errbuf, want) != NULL, "no error for %s", names[i]);
    }
    /* A name that depends on a template argument: computed, the only one. */
    expect_line(EV "members.cpp:28:61: warning: toolgov_register_tool() is called with a "
                   "tool name computed at run time");
    ck_assert_msg(strstr(strstr(errbuf, "computed at run time") + 1, "computed at run time") ==
                      NULL,
                  "%s", errbuf);
}
END_TEST

START_TEST(another_plugins_macro_is_not_this_plugins_handler)
{
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK(EV "two_plugins.c"), 1);
    expect_line(EV "two_plugins.c:5:1: error: 'other_Handler_alpha' carries the handler mark of "
                   "tool 'alpha', but the handler of 'alpha' in plugin 'demo' is "
                   "'demo_Handler_alpha'");
}
END_TEST

START_TEST(a_handler_of_another_type_is_an_error)
{
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK(EV "wrong_signature.c"), 1);
    expect_line(EV "wrong_signature.c:7:5: error: conflicting types for 'demo_Handler_alpha'");
}
END_TEST

START_TEST(hand_written_marks_are_errors)
{
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK(EV "forged.c"), 1);
    expect_line(EV "forged.c:5:5: error: 'demo_helper' carries the handler mark of tool "
                   "'alpha', but the handler of 'alpha' in plugin 'demo' is "
                   "'demo_Handler_alpha'");
    expect_line(EV "forged.c:11:65: error: 'demo_marked' carries the handler mark of tool "
                   "'beta' but is not a function definition at file scope");
    /* An asm label renames the symbol the linker sees. */
    expect_line(EV "forged.c:17:1: error: 'demo_renamed' carries the handler mark of tool "
                   "'gamma', but the handler of 'gamma' in plugin 'demo' is "
                   "'demo_Handler_gamma'");
}
END_TEST

START_TEST(handler_in_a_header_of_two_sources_is_reported_at_both)
{
    setup_manifest(demo_a);
    ck_assert_int_eq(CHECK(EV "shared_def_a.c", EV "shared_def_b.c"), 1);
    expect_line(EV "shared_def.h:4:1: error: the handler for tool 'alpha' is defined in a "
                   "header that 2 sources of plugin 'demo' include");
    expect_line(EV "shared_def_a.c:1:10: note: '" EV "shared_def_a.c' includes it here");
    expect_line(EV "shared_def_b.c:2:10: note: '" EV "shared_def_b.c' includes it here");
    /* One source alone is fine. */
    ck_assert_int_eq(CHECK(EV "shared_def_a.c"), 0);
}
END_TEST

START_TEST(address_taken_registration_is_a_warning)
{
    setup_manifest(demo_a);
    ck_assert_int_eq(CHECK(EV "address_taken.c", DATA "macro_handlers.c"), 1);
    expect_line(EV "address_taken.c:16:23: warning: toolgov_register_tool is used here other "
                   "than by a direct call");
}
END_TEST

START_TEST(per_source_arguments_reach_only_their_source)
{
    char rsp[400];
    setup_manifest(demo_a);
    snprintf(rsp, sizeof rsp, "%s/args.rsp", dir);
    /* As CMake writes it: one argument per line, a bare -D where a
    ** generator expression left a definition empty. */
    write_file(rsp, "--toolgov-source=" EV "per_source.c\n-x\nc\n-D\n-DPER_SOURCE_ON=1\n\n");
    char at[410];
    snprintf(at, sizeof at, "@%s", rsp);
    ck_assert_int_eq(CHECK(at), 0);
    ck_assert_str_eq(errbuf, "");
    /* The same source without its group: the handler does not exist. */
    ck_assert_int_eq(CHECK(EV "per_source.c"), 1);
    expect_line(manifest);
    ck_assert_ptr_nonnull(strstr(errbuf, "tool 'alpha' is declared but no source"));
    /* A group's arguments end at the next plain source. */
    write_file(rsp, "--toolgov-source=" EV "per_source.c\n-DPER_SOURCE_ON=1\n" EV
                    "per_source.c\n");
    ck_assert_int_eq(CHECK(at), 0);
    unlink(rsp);
    /* A missing response file fails the check. */
    ck_assert_int_eq(CHECK(at), 1);
    expect_line(rsp);
    ck_assert_ptr_nonnull(strstr(errbuf, "cannot read this response file"));
}
END_TEST

START_TEST(a_source_group_chooses_its_language)
{
    /* A .c file compiled as C++ (CMake's LANGUAGE CXX) is parsed as C++. */
    setup_manifest(demo_abc);
    ck_assert_int_eq(CHECK("--toolgov-source=" EV "members_as_c.c", "-x", "c++", "-std=c++17"),
                     1);
    ck_assert_ptr_nonnull(strstr(errbuf, "toolgov_register_tool() names tool 'in_ctor'"));
}
END_TEST

START_TEST(pragma_clang_attribute_marks_are_errors)
{
    setup_manifest(demo_a);
    ck_assert_int_eq(CHECK(EV "pragma_attribute.c"), 1);
    expect_line(EV "pragma_attribute.c:4:5: error: 'demo_helper' carries the handler mark of "
                   "tool 'alpha'");
}
END_TEST

START_TEST(a_knr_definition_without_the_macro_fails_closed)
{
    /* Either clang refuses it against the header's prototype, or it has no
    ** mark and the tool is missing: the check fails either way, at knr.c. */
    setup_manifest(demo_a);
    ck_assert_int_eq(CHECK(EV "knr.c"), 1);
    expect_line(EV "knr.c:2:5: ");
}
END_TEST

START_TEST(a_source_without_the_generated_header_is_told_which_to_include)
{
    setup_manifest(demo_a);
    ck_assert_int_eq(CHECK(EV "no_header.c"), 1);
    /* One error that says what is missing, at the macro's use, instead of
    ** clang's errors about a function named DEMO_TOOLGOV_HANDLER. */
    expect_line(EV "no_header.c:4:1: error: this source defines a handler but does not "
                   "include the generated header of plugin 'demo'; add #include "
                   "\"demo.toolgov.h\" before it");
    ck_assert_ptr_null(strstr(errbuf, "member reference"));
    ck_assert_ptr_null(strstr(errbuf, "redefinition"));
}
END_TEST

Suite *evasion_suite(void);
Suite *evasion_suite(void)
{
    Suite *s = suite_create("evasion");
    TCase *tc = tcase_create("evasion");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, NULL, cleanup);
    tcase_add_test(tc, a_line_marker_does_not_hide_code);
    tcase_add_test(tc, pragma_system_header_does_not_hide_code);
    tcase_add_test(tc, isystem_does_not_hide_code);
    tcase_add_test(tc, every_cxx_body_is_read);
    tcase_add_test(tc, another_plugins_macro_is_not_this_plugins_handler);
    tcase_add_test(tc, a_handler_of_another_type_is_an_error);
    tcase_add_test(tc, hand_written_marks_are_errors);
    tcase_add_test(tc, handler_in_a_header_of_two_sources_is_reported_at_both);
    tcase_add_test(tc, address_taken_registration_is_a_warning);
    tcase_add_test(tc, per_source_arguments_reach_only_their_source);
    tcase_add_test(tc, a_source_group_chooses_its_language);
    tcase_add_test(tc, pragma_clang_attribute_marks_are_errors);
    tcase_add_test(tc, a_knr_definition_without_the_macro_fails_closed);
    tcase_add_test(tc, a_source_without_the_generated_header_is_told_which_to_include);
    suite_add_tcase(s, tc);
    return s;
}
