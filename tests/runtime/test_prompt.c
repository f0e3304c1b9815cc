/* SPDX-License-Identifier: MIT */
/* test_prompt.c: the rendered tool section of the prompt. */
#include <check.h>
#include <stdio.h>

#include "fixture.h"

static toolgov_registry *reg;
static toolgov_policy *pol;

static void setup(void)
{
    reg = fx_registry(NULL, NULL);
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
}

static void teardown(void)
{
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}

static const char golden[] =
    "Tools:\n"
    "- beta_read: Read beta things.\n"
    "- memory_search: Search what the assistant remembers about the user."
    " Arguments (JSON Schema): {\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":2000}},\"required\":[\"query\"],\"additionalProperties\":false}\n"
    "- ask_user: Ask the user a question and wait for the answer."
    " Arguments (JSON Schema): {\"type\":\"object\",\"properties\":{\"question\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":2000}},\"required\":[\"question\"],\"additionalProperties\":false}\n"
    "- lookup: Find entries for a day. Arguments (JSON Schema): {\"type\":\"object\"}\n"
    "- make_note [write, asks once]: Create one note. Arguments (JSON Schema): {\"type\":\"object\"}\n"
    "- set_pref [write]: Change a preference. Arguments (JSON Schema): {\"type\":\"object\"}\n"
    "- digest: Summarise the day. Arguments (JSON Schema): {\"type\":\"object\"}\n"
    "- purge [destructive, needs approval]: Delete everything old. Arguments (JSON Schema): {\"type\":\"object\"}\n"
    "- tidy [write]: Move clutter away. Arguments (JSON Schema): {\"type\":\"object\"}\n"
    "- star: Search everything.\n"
    "\n"
    "Tools marked \"asks once\" change the user's things: before calling them, ask the user "
    "one question that lists everything you are about to create or change, and after the "
    "answer call the tool once for each item.\n"
    "\n"
    "Use lookup for dates.\n"
    "\n"
    "Notes are short.\n"
    "\n"
    "Tidy reports what it moved.\n"
    "\n"
    "Beta guidance.\n";

static const char *const loop_tools[] = {"beta_read", "memory_search", "ask_user", "lookup",
                                         "make_note", "set_pref", "digest", "purge",
                                         "tidy", "star", "lookup"};

START_TEST(golden_text)
{
    char buf[4096];
    size_t need = 0;

    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, pol, loop_tools, 11), 0);
    ck_assert_str_eq(buf, golden);
    ck_assert_uint_eq(need, strlen(golden));
    /* The rule the prompt writes is the exported one. */
    ck_assert_ptr_nonnull(strstr(buf, toolgov_prompt_confirm_rule));
}
END_TEST

START_TEST(guidance_dedup_and_registration_order)
{
    /* Given in reverse: lines follow the caller, guidance the registry. */
    const char *const tools[] = {"beta_read", "digest", "tidy", "lookup"};
    char buf[1024];

    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, NULL, pol, tools, 4), 0);
    ck_assert_str_eq(buf,
                     "Tools:\n"
                     "- beta_read: Read beta things.\n"
                     "- digest: Summarise the day. Arguments (JSON Schema): {\"type\":\"object\"}\n"
                     "- tidy [write]: Move clutter away. Arguments (JSON Schema): {\"type\":\"object\"}\n"
                     "- lookup: Find entries for a day. Arguments (JSON Schema): {\"type\":\"object\"}\n"
                     "\n"
                     "Use lookup for dates.\n"
                     "\n"
                     "Tidy reports what it moved.\n"
                     "\n"
                     "Beta guidance.\n");
}
END_TEST

START_TEST(no_rule_without_confirm_once_write)
{
    const char *const tools[] = {"lookup", "set_pref", "purge", "memory_forget"};
    const char *const once[] = {"lookup", "promote_recommendation"};
    char buf[4096];

    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, NULL, pol, tools, 4), 0);
    ck_assert_ptr_null(strstr(buf, "asks once"));
    ck_assert_ptr_nonnull(strstr(buf, "- memory_forget [write]: "));
    /* A built-in confirm-once write brings the rule. */
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, NULL, pol, once, 2), 0);
    ck_assert_ptr_nonnull(strstr(buf, "- promote_recommendation [write, asks once]: "));
    ck_assert_ptr_nonnull(strstr(buf, toolgov_prompt_confirm_rule));
    /* With the override clearing the set, make_note no longer asks. */
    ck_assert_int_eq(toolgov_policy_set_override(pol, "none"), 0);
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, NULL, pol, loop_tools, 11), 0);
    ck_assert_ptr_null(strstr(buf, "asks once"));
    ck_assert_ptr_nonnull(strstr(buf, "- make_note [write]: "));
    /* The override can make a read ask. */
    ck_assert_int_eq(toolgov_policy_set_override(pol, "none,lookup"), 0);
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, NULL, pol, tools, 1), 0);
    ck_assert_str_eq(buf, "Tools:\n- lookup [asks once]: Find entries for a day. Arguments (JSON Schema): {\"type\":\"object\"}\n\n"
                          "Tools marked \"asks once\" change the user's things: before calling "
                          "them, ask the user one question that lists everything you are about "
                          "to create or change, and after the answer call the tool once for "
                          "each item.\n\nUse lookup for dates.\n");
}
END_TEST

START_TEST(buffer_contract_and_errors)
{
    char buf[4096], small[16];
    size_t need = 0, i;
    const char *const bad[] = {"lookup", "not_a_tool"};
    const char *const with_null[] = {"lookup", NULL};

    ck_assert_int_eq(toolgov_prompt_render(NULL, 0, &need, pol, loop_tools, 11), 0);
    ck_assert_uint_eq(need, strlen(golden));
    ck_assert_int_eq(toolgov_prompt_render(small, sizeof small, &need, pol, loop_tools, 11),
                     TOOLGOV_ENOSPC);
    ck_assert_str_eq(small, "Tools:\n- beta_r");
    /* Every size cuts cleanly. */
    for (i = 1; i <= strlen(golden) + 1; i++) {
        int rc = toolgov_prompt_render(buf, i, NULL, pol, loop_tools, 11);

        ck_assert_int_eq(rc, i == strlen(golden) + 1 ? 0 : TOOLGOV_ENOSPC);
        ck_assert_uint_eq(strlen(buf), i - 1);
        ck_assert_int_eq(strncmp(buf, golden, i - 1), 0);
    }
    /* An unknown name: an error and no partial prompt. */
    strcpy(buf, "junk");
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, pol, bad, 2), TOOLGOV_ENOENT);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(need, 0);
    strcpy(buf, "junk");
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, pol, with_null, 2),
                     TOOLGOV_EINVAL);
    ck_assert_str_eq(buf, ""); /* never left as it was (uninitialised for a caller) */
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, NULL, bad, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_prompt_render(NULL, 5, &need, pol, bad, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, pol, NULL, 0), 0);
    ck_assert_str_eq(buf, "");
}
END_TEST

/* More on-loop tools than the renderer keeps indexes for on its stack. */
static toolgov_tool_spec *many;
static size_t many_n;
static int many_register(toolgov_plugin_api *api)
{
    size_t i;

    for (i = 0; i < many_n; i++)
        if (toolgov_register_tool(api, many[i].name, "", fx_handler) < 0)
            return TOOLGOV_EFAIL;
    return 0;
}

/* The renderer convention (toolgov.h): size 0 asks for the size, returns 0
** and writes nothing. */
START_TEST(sizing_call)
{
    char buf[8] = "#######";
    size_t need = 1;

    ck_assert_int_eq(toolgov_prompt_render(NULL, 0, &need, pol, loop_tools, 11), 0);
    ck_assert_uint_eq(need, strlen(golden));
    need = 1;
    ck_assert_int_eq(toolgov_prompt_render(buf, 0, &need, pol, loop_tools, 11), 0);
    ck_assert_uint_eq(need, strlen(golden));
    ck_assert_str_eq(buf, "#######");
    ck_assert_int_eq(toolgov_prompt_render(NULL, 1, &need, pol, loop_tools, 11), TOOLGOV_EINVAL);
    ck_assert_uint_eq(need, 0);
}
END_TEST

START_TEST(long_loop_beyond_index_cache)
{
    toolgov_registry *r = NULL;
    toolgov_policy *p = NULL;
    toolgov_plugin plug = {TOOLGOV_ABI_VERSION, "many", "many.yaml", NULL, 0, NULL, 0,
                           many_register};
    char (*names)[32];
    const char **loop;
    char *buf;
    size_t i, need = 0;

    many_n = 400;
    many = calloc(many_n, sizeof *many);
    names = calloc(many_n, sizeof *names);
    loop = calloc(many_n, sizeof *loop);
    for (i = 0; i < many_n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        many[i].name = names[i];
        many[i].description = "d";
        many[i].guidance = (i % 2) ? "odd" : "even";
        many[i].effect = TOOLGOV_EFFECT_READ;
        many[i].confirm = TOOLGOV_CONFIRM_NEVER;
        loop[many_n - 1 - i] = names[i];
    }
    plug.tools = many;
    plug.tool_count = many_n;
    ck_assert_int_eq(toolgov_registry_new(&r, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(r, &plug, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&p, r), 0);
    ck_assert_int_eq(toolgov_prompt_render(NULL, 0, &need, p, loop, many_n), 0);
    buf = malloc(need + 1);
    ck_assert_int_eq(toolgov_prompt_render(buf, need + 1, NULL, p, loop, many_n), 0);
    ck_assert_ptr_nonnull(strstr(buf, "- t399: d\n- t398: d\n"));
    /* Two distinct guidance texts, "even" (t0) first. */
    ck_assert_ptr_nonnull(strstr(buf, "- t0: d\n\neven\n\nodd\n"));
    ck_assert_uint_eq(strlen(buf), 7 + (10 * 8 + 90 * 9 + 300 * 10) + 6 + 5);
    free(buf);
    toolgov_policy_free(p);
    toolgov_registry_free(r);
    free(loop);
    free(names);
    free(many);
}
END_TEST

/* Only offered tools are rendered: the built-ins of a registry whose host
** bound none are left out of the lines, the ask-once rule (here
** promote_recommendation would bring it) and the guidance, on the short
** path and the long one (more names than STACK_TOOLS) alike; once bound,
** a built-in is rendered. */
START_TEST(unbound_builtins_are_not_rendered)
{
    static const char *const four[] = {"promote_recommendation", "memory_search", "lookup",
                                       "ask_user"};
    static const char want[] = "Tools:\n"
                               "- lookup: Find entries for a day. Arguments (JSON Schema): "
                               "{\"type\":\"object\"}\n"
                               "\nUse lookup for dates.\n";
    const char *many_names[200];
    toolgov_registry *r = NULL;
    toolgov_policy *p = NULL;
    char buf[4096];
    size_t i, need = 0;

    for (i = 0; i < 200; i++)
        many_names[i] = four[i % 4];
    ck_assert_int_eq(toolgov_registry_new(&r, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(r, &fx_alpha, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&p, r), 0);
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, p, four, 4), 0);
    ck_assert_str_eq(buf, want);
    ck_assert_uint_eq(need, strlen(want));
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, p, many_names, 200), 0);
    ck_assert_str_eq(buf, want);
    /* Only unbound built-ins: nothing at all. */
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, &need, p, four, 2), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(toolgov_registry_bind_builtin(r, "promote_recommendation", fx_handler, NULL),
                     0);
    ck_assert_int_eq(toolgov_prompt_render(buf, sizeof buf, NULL, p, many_names, 200), 0);
    ck_assert_ptr_nonnull(strstr(buf, "- promote_recommendation [write, asks once]: "));
    ck_assert_ptr_nonnull(strstr(buf, toolgov_prompt_confirm_rule));
    ck_assert_ptr_null(strstr(buf, "memory_search"));
    toolgov_policy_free(p);
    toolgov_registry_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("prompt");
    TCase *tc = tcase_create("render");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, golden_text);
    tcase_add_test(tc, guidance_dedup_and_registration_order);
    tcase_add_test(tc, no_rule_without_confirm_once_write);
    tcase_add_test(tc, buffer_contract_and_errors);
    tcase_add_test(tc, sizing_call);
    tcase_add_test(tc, long_loop_beyond_index_cache);
    tcase_add_test(tc, unbound_builtins_are_not_rendered);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
