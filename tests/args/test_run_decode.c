/* SPDX-License-Identifier: MIT */
/*
** test_run_decode.c: decoding as a run's own step (run.h): unknown tools
** and invalid arguments never reach the gate or a handler and never count
** as the run's first tool; approvals, replays and saved state use canonical
** arguments, so a call spelt another way is the same call; the handler gets
** the decoded struct; a decoded call is used up by the next decode,
** approve or invoke.
*/
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "../runtime/fixture_run.h"

START_TEST(unknown_tool_has_its_own_code)
{
    env e;
    toolgov_outcome oc;
    toolgov_decoded_call dc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "nope", "{}", 2), TOOLGOV_ENOENT);
    ck_assert_ptr_null(dc.tool);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "nope", "{}"), TOOLGOV_ENOENT);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(oc.status, TOOLGOV_ENOENT);
    ck_assert_int_eq(e.counts.total, 0);
    env_close(&e);
}
END_TEST

START_TEST(invalid_arguments_never_run_and_are_not_the_first_tool)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "memory_search", "{\"q\": 1}"),
                     TOOLGOV_EARGS);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(oc.status, TOOLGOV_EARGS);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_str_eq(oc.output, "memory_search: /query is required; "
                                "/q is not allowed (allowed: query)");
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "[1]"), TOOLGOV_EARGS);
    ck_assert_str_eq(oc.output, "lookup: the arguments must be a JSON object, got an array");
    ck_assert_int_eq(e.counts.total, 0);
    /* The refused calls did not count: an answers-directly tool is still
    ** the run's first and ends it. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.ended, 1);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_ANSWERED_DIRECTLY);
    env_close(&e);
}
END_TEST

/* A tool without parameters takes only {}, "" or no text; each member of
** anything else is named by its path, and nothing reaches the handler. */
START_TEST(no_parameters_take_no_arguments)
{
    env e;
    toolgov_outcome oc;
    toolgov_decoded_call dc;
    static const char *const empty[] = {"{}", " { } ", "\"\"", "", "  "};
    size_t i;

    env_open(&e, NULL);
    for (i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "star", empty[i], strlen(empty[i])),
                         0);
        ck_assert_str_eq(dc.args, "{}");
    }
    ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "star", NULL, 0), 0);
    ck_assert_str_eq(dc.args, "{}");
    ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "star", "{\"x\":1}", 7), TOOLGOV_EARGS);
    ck_assert_str_eq(dc.message, "star: /x is not allowed (the tool takes no arguments)");
    ck_assert_ptr_null(dc.tool);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "star", "{\"b\":[],\"a/~\":null}"),
                     TOOLGOV_EARGS);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_str_eq(oc.output, "star: /a~1~0 is not allowed (the tool takes no arguments); "
                                "/b is not allowed (the tool takes no arguments)");
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "star", "\"x\""), TOOLGOV_EARGS);
    ck_assert_str_eq(oc.output, "star: the arguments must be {} (the tool takes no "
                                "arguments), got \"x\"");
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "star", "0"), TOOLGOV_EARGS);
    ck_assert_int_eq(e.counts.total, 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "star", "{}"), 0);
    ck_assert_int_eq(e.counts.total, 1);
    env_close(&e);
}
END_TEST

START_TEST(replay_matches_the_same_call_spelt_otherwise)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"b\": 2, \"a\": [1, 2.50]}"), 0);
    /* the handler saw the canonical text */
    ck_assert_str_eq(oc.output, "digest {\"a\":[1,2.50],\"b\":2}");
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"a\":[1,2.50],\"b\":2}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "\n{ \"a\" : [ 1 , 2.50 ] ,\"b\":2 }"),
                     0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(e.counts.calls[FX_DIGEST], 1);
    /* a distinct call is never merged: 2.5 is not 2.50 in a raw value */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"a\":[1,2.5],\"b\":2}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(e.counts.calls[FX_DIGEST], 2);
    env_close(&e);
}
END_TEST

START_TEST(approval_covers_the_same_call_spelt_otherwise)
{
    static const toolgov_state_key key = {{1, 2, 3, 4, 5, 6, 7, 8}};
    env e;
    toolgov_outcome oc;
    char saved[2048];
    size_t len;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{\"id\": 1}"), 0);
    /* saved state holds the canonical text */
    ck_assert_int_eq(toolgov_run_save(saved, sizeof saved, &len, e.run, &key), 0);
    ck_assert_ptr_nonnull(strstr(saved, "{\"id\":1}"));
    ck_assert_ptr_null(strstr(saved, "{\"id\": 1}"));
    ck_assert_int_eq(toolgov_run_gate(e.run, "purge", "{\"id\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{\"id\":2}"), TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{ \"id\" :1 }"), 0);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_int_eq(e.counts.calls[FX_PURGE], 1);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{\"id\":1}"), TOOLGOV_EAPPROVAL);
    /* approving refuses what decoding refuses */
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{\"id\":1,\"id\":2}"), TOOLGOV_EARGS);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 0);
    env_close(&e);
}
END_TEST

static int typed_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    const toolgov_core_memory_search_args *a = args;

    (void)call;
    return toolgov_result_printf(out, "query=%s (%zu)", a->query.ptr, a->query.len);
}

START_TEST(decode_gate_invoke_as_steps)
{
    env e;
    toolgov_outcome oc;
    toolgov_decoded_call dc, other;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_registry_bind_builtin(e.reg, "memory_search", typed_handler, NULL),
                     0);
    {
        const char *text = "{\"query\": \"rent \\u00e9\"}";

        ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "memory_search", text, strlen(text)), 0);
    }
    ck_assert_str_eq(dc.tool, "memory_search");
    ck_assert_str_eq(dc.args, "{\"query\":\"rent \xC3\xA9\"}");
    ck_assert_str_eq(((const toolgov_core_memory_search_args *)dc.decoded)->query.ptr,
                     "rent \xC3\xA9");
    ck_assert_int_eq(toolgov_run_gate_decoded(e.run, &dc), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke_decoded(&oc, e.run, &dc), 0);
    ck_assert_str_eq(oc.output, "query=rent \xC3\xA9 (7)");
    /* used up by the invoke */
    ck_assert_int_eq(toolgov_run_invoke_decoded(&oc, e.run, &dc), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_gate_decoded(e.run, &dc), TOOLGOV_GATE_REFUSE);
    /* a later decode ends the earlier one */
    ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "lookup", "{}", 2), 0);
    ck_assert_int_eq(toolgov_run_decode(&other, e.run, "lookup", "{\"x\":1}", 7), 0);
    ck_assert_int_eq(toolgov_run_invoke_decoded(&oc, e.run, &dc), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_invoke_decoded(&oc, e.run, &other), 0);
    ck_assert_str_eq(oc.output, "lookup {\"x\":1}");
    ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "memory_search", "{}", 2), TOOLGOV_EARGS);
    ck_assert_str_eq(dc.message, "memory_search: /query is required");
    ck_assert_int_eq(toolgov_run_decode(NULL, e.run, "lookup", "{}", 2), TOOLGOV_EINVAL);
    env_close(&e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run_decode");
    TCase *tc = tcase_create("run");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, unknown_tool_has_its_own_code);
    tcase_add_test(tc, invalid_arguments_never_run_and_are_not_the_first_tool);
    tcase_add_test(tc, no_parameters_take_no_arguments);
    tcase_add_test(tc, replay_matches_the_same_call_spelt_otherwise);
    tcase_add_test(tc, approval_covers_the_same_call_spelt_otherwise);
    tcase_add_test(tc, decode_gate_invoke_as_steps);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
