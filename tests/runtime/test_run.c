/* SPDX-License-Identifier: MIT */
/* test_run.c: the gate, batches, invocation enforcement, answers directly. */
#include <check.h>
#include <stdio.h>

#include "fixture_run.h"

/* ---- the gate table: effect x confirm x run state x override ----
** Each row gives the answer for the confirmation pending, given, refused:
** A ALLOW, K ASK_FIRST, N NEEDS_APPROVAL, R REFUSE. */
static const struct {
    const char *tool;
    const char *override;
    const char *answers; /* pending, given, refused */
} gate_table[] = {
    /* read */
    {"lookup", NULL, "AAA"},
    {"lookup", "none", "AAA"},
    {"lookup", "lookup", "KAR"},          /* the override can make a read ask */
    {"memory_search", NULL, "AAA"},
    {"ask_user", NULL, "AAA"},
    {"digest", NULL, "AAA"},
    /* write, confirm once */
    {"make_note", NULL, "KAR"},
    {"make_note", "", "KAR"},
    {"make_note", " , ,", "KAR"},
    {"make_note", "none", "AAA"},
    {"make_note", "none,make_note", "KAR"},
    {"make_note", "make_note,none", "KAR"},
    {"make_note", "set_pref", "KAR"},
    {"make_note", "NONE", "KAR"},          /* the keyword is lowercase; unknown name */
    {"promote_recommendation", NULL, "KAR"},
    {"propose_skill_from_sandbox", NULL, "KAR"},
    {"invoke_pending_action", NULL, "KAR"},
    {"invoke_pending_action", "none", "AAA"},
    /* write, confirm never */
    {"set_pref", NULL, "AAA"},
    {"set_pref", "set_pref", "KAR"},
    {"set_pref", " set_pref ", "KAR"},
    {"set_pref", "none", "AAA"},
    {"memory_forget", NULL, "AAA"},
    {"memory_correct", "none,memory_correct", "KAR"},
    {"tidy", NULL, "AAA"},
    /* destructive: approval per call, whatever the confirmation or override */
    {"purge", NULL, "NNN"},
    {"purge", "purge", "NNN"},
    {"purge", "none", "NNN"},
    /* unknown */
    {"nope", NULL, "RRR"},
    {"nope", "nope", "RRR"},
    {"", NULL, "RRR"},
};

static toolgov_gate letter(char c)
{
    switch (c) {
    case 'A': return TOOLGOV_GATE_ALLOW;
    case 'K': return TOOLGOV_GATE_ASK_FIRST;
    case 'N': return TOOLGOV_GATE_NEEDS_APPROVAL;
    case 'P': return TOOLGOV_GATE_REPLAY;
    default: return TOOLGOV_GATE_REFUSE;
    }
}

START_TEST(gate_table_row)
{
    int state;

    for (state = 0; state < 4; state++) {
        env e;
        toolgov_gate want, got;

        env_open(&e, gate_table[_i].override);
        if (state == 1)
            ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
        if (state == 2)
            ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
        if (state == 3)
            ck_assert_int_eq(toolgov_run_end(e.run), 0);
        want = state == 3 ? TOOLGOV_GATE_REFUSE : letter(gate_table[_i].answers[state]);
        got = toolgov_run_gate(e.run, gate_table[_i].tool, "{}");
        ck_assert_msg(got == want, "%s override=%s state=%d: got %s, want %s",
                      gate_table[_i].tool,
                      gate_table[_i].override ? gate_table[_i].override : "(null)", state,
                      toolgov_gate_name(got), toolgov_gate_name(want));
        /* NULL arguments mean "{}". */
        ck_assert_int_eq(toolgov_run_gate(e.run, gate_table[_i].tool, NULL), want);
        env_close(&e);
    }
}
END_TEST

START_TEST(gate_bad_arguments_refuse)
{
    env e;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_gate(NULL, "lookup", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate(e.run, NULL, "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_str_eq(toolgov_gate_name(TOOLGOV_GATE_NEEDS_APPROVAL), "NEEDS_APPROVAL");
    ck_assert_str_eq(toolgov_gate_name((toolgov_gate)99), "UNKNOWN");
    ck_assert_str_eq(toolgov_end_reason_name(TOOLGOV_END_ANSWERED_DIRECTLY), "answered_directly");
    env_close(&e);
}
END_TEST

/* ---- batches ---- */

START_TEST(batch_lists_every_write_once)
{
    env e;
    toolgov_proposed_call calls[] = {
        {"lookup", "{}"},
        {"make_note", "{\"n\":1}"},
        {"make_note", "{\"n\":2}"},
        {"purge", "{}"},
        {"set_pref", NULL},
        {"promote_recommendation", "{}"},
    };
    toolgov_gate per[6], g;
    size_t idx[6], n = 99;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, per, idx, &n, e.run, calls, 6), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_ASK_FIRST);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(idx[0], 1);
    ck_assert_uint_eq(idx[1], 2);
    ck_assert_uint_eq(idx[2], 5);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(per[3], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(per[4], TOOLGOV_GATE_ALLOW);

    /* One yes covers every write of the run. */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, per, idx, &n, e.run, calls, 6), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[5], TOOLGOV_GATE_ALLOW);

    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, NULL, NULL, NULL, e.run, calls, 6), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_ALLOW);
    env_close(&e);
}
END_TEST

START_TEST(batch_after_no_and_edge_cases)
{
    env e;
    toolgov_proposed_call writes[] = {{"make_note", "{}"}, {"lookup", "{}"}};
    toolgov_proposed_call unknown[] = {{"lookup", "{}"}, {"nope", "{}"}};
    toolgov_proposed_call replays[] = {{"digest", "{}"}, {"digest", "{}"}};
    toolgov_gate per[2], g;
    size_t n;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, NULL, NULL, &n, e.run, NULL, 0), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_ALLOW);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, per, NULL, NULL, e.run, unknown, 2), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate_batch(NULL, NULL, NULL, NULL, e.run, writes, 2),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, NULL, NULL, NULL, e.run, NULL, 2),
                     TOOLGOV_EINVAL);

    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, per, NULL, &n, e.run, writes, 2), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_REFUSE);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ALLOW);

    /* digest after lookup is a step, and then a replay. */
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&g, per, NULL, NULL, e.run, replays, 2), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_REPLAY);
    env_close(&e);

    env_open(&e, "none");
    ck_assert_int_eq(toolgov_run_gate_batch(&g, per, NULL, &n, e.run, writes, 2), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_ALLOW);
    env_close(&e);
}
END_TEST

/* ---- invocation enforcement ---- */

START_TEST(invoke_never_runs_when_gate_says_no)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    /* ASK_FIRST */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "make_note", "{}"), TOOLGOV_ECONFIRM);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(oc.status, TOOLGOV_ECONFIRM);
    ck_assert_str_eq(oc.output, "");
    /* NEEDS_APPROVAL */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{}"), TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(oc.executed, 0);
    /* REFUSE: unknown tool */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "nope", "{}"), TOOLGOV_ENOENT);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(e.counts.total, 0);
    /* REFUSE: after a no */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "make_note", "{}"), TOOLGOV_EREFUSED);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "promote_recommendation", "{\"recommendation\":\"r\"}"),
                     TOOLGOV_EREFUSED);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_confirmation(e.run), TOOLGOV_CONFIRMATION_REFUSED);
    ck_assert_int_eq(e.counts.total, 0);
    /* Confirm-never writes and reads still run. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "set_pref", "{}"), 0);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_str_eq(oc.output, "set_pref {}");
    ck_assert_int_eq(e.counts.total, 1);
    ck_assert_int_eq(toolgov_run_invoke(NULL, NULL, "lookup", "{}"), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, NULL, "{}"), TOOLGOV_EINVAL);
    env_close(&e);
}
END_TEST

START_TEST(confirm_once_then_no_more_asks)
{
    env e;
    int i;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "make_note", "{\"n\":0}"), TOOLGOV_ECONFIRM);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), TOOLGOV_EINVAL);
    for (i = 0; i < 5; i++) {
        char args[32];

        snprintf(args, sizeof args, "{\"n\":%d}", i);
        ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "make_note", args), 0);
    }
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "invoke_pending_action",
                                        "{\"action_id\":\"a1\"}"), 0);
    ck_assert_int_eq(e.counts.calls[FX_MAKE_NOTE], 5);
    ck_assert_int_eq(e.counts.total, 6);
    env_close(&e);
}
END_TEST

START_TEST(approval_binds_tool_and_exact_arguments)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{\"older_than\":30}"), 0);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 1);
    /* Other arguments are not covered (the same call spelt otherwise is:
    ** approvals hold canonical arguments, see the args suite). */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{\"older_than\":31}"),
                     TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", NULL), TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(e.counts.total, 0);
    /* A confirmation does not approve a destructive call either. */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "purge", "{}"), TOOLGOV_GATE_NEEDS_APPROVAL);
    /* The approved call runs once; the approval is used up. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{\"older_than\":30}"), 0);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_int_eq(e.counts.calls[FX_PURGE], 1);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{\"older_than\":30}"),
                     TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(e.counts.calls[FX_PURGE], 1);
    /* Two approvals, two runs. */
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", NULL), 0);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "purge", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "purge", NULL), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e.run, "purge", "{}"), TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(e.counts.calls[FX_PURGE], 3);
    /* Only destructive pooled tools take approvals. */
    ck_assert_int_eq(toolgov_run_approve(e.run, "make_note", "{}"), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_approve(e.run, "nope", "{}"), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_run_approve(NULL, "purge", "{}"), TOOLGOV_EINVAL);
    env_close(&e);
}
END_TEST

static int positive_handler(const toolgov_call *call, const void *args,
                            toolgov_result *out)
{
    (void)args;
    (void)call;
    toolgov_result_set(out, "odd", 3);
    return 7;
}

START_TEST(positive_handler_return_is_an_error)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_registry_bind_builtin(e.reg, "memory_search", positive_handler,
                                                   NULL), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "memory_search", "{\"query\":\"q\"}"), TOOLGOV_EHANDLER);
    ck_assert_int_eq(oc.status, TOOLGOV_EHANDLER);
    ck_assert_int_eq(oc.executed, 1);
    env_close(&e);
}
END_TEST

START_TEST(missing_handler_and_handler_errors)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    toolgov_outcome oc;
    fx_counts c;

    memset(&c, 0, sizeof c);
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, &c), 0);
    ck_assert_int_eq(toolgov_run_gate(run, "memory_search", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, run, "memory_search", "{\"query\":\"q\"}"),
                     TOOLGOV_ENOHANDLER);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, run, "lookup", "{\"fail\":1}"), TOOLGOV_EHANDLER);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_str_eq(oc.output, "lookup failed");
    ck_assert_int_eq(c.total, 1);
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    ck_assert_int_eq(toolgov_run_new(NULL, pol, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_new(&run, NULL, NULL), TOOLGOV_EINVAL);
}
END_TEST

/* ---- answers directly ---- */

START_TEST(first_tool_answers_directly_ends_run)
{
    env e;
    toolgov_outcome oc;
    size_t len = 0;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"day\":1}"), 0);
    ck_assert_int_eq(oc.ended, 1);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_str_eq(oc.output, "digest {\"day\":1}");
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_ANSWERED_DIRECTLY);
    ck_assert_str_eq(toolgov_run_answer(e.run, &len), "digest {\"day\":1}");
    ck_assert_uint_eq(len, strlen("digest {\"day\":1}"));
    /* Nothing more runs in an ended run. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), TOOLGOV_EENDED);
    ck_assert_int_eq(toolgov_run_gate(e.run, "lookup", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_end(e.run), TOOLGOV_EENDED);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), TOOLGOV_EENDED);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), TOOLGOV_EENDED);
    ck_assert_int_eq(e.counts.total, 1);
    env_close(&e);

    /* ask_user first does not count; a confirm-never write may answer. */
    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "ask_user", "{\"question\":\"q\"}"), 0);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "tidy", "{}"), 0);
    ck_assert_int_eq(oc.ended, 1);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_ANSWERED_DIRECTLY);
    env_close(&e);
}
END_TEST

START_TEST(later_step_and_unusable_output_do_not_end)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_NONE);
    ck_assert_ptr_null(toolgov_run_answer(e.run, NULL));
    ck_assert_int_eq(toolgov_run_end(e.run), 0);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_HOST);
    env_close(&e);

    /* An error output first: no end, and the next call is not "first". */
    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"fail\":1}"), TOOLGOV_EHANDLER);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_str_eq(oc.output, "digest failed");
    ck_assert_int_eq(toolgov_run_gate(e.run, "digest", "{\"fail\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.ended, 0);
    env_close(&e);

    /* Empty output is not usable. */
    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"empty\":1}"), 0);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_NONE);
    env_close(&e);
}
END_TEST

START_TEST(replay_returns_result_in_hand)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"d\":2}"), 0);
    ck_assert_int_eq(e.counts.calls[FX_DIGEST], 1);
    ck_assert_int_eq(toolgov_run_gate(e.run, "digest", "{\"d\":2}"), TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"d\":2}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_str_eq(oc.output, "digest {\"d\":2}");
    ck_assert_int_eq(e.counts.calls[FX_DIGEST], 1);
    /* Other arguments execute. */
    ck_assert_int_eq(toolgov_run_gate(e.run, "digest", "{\"d\":3}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{\"d\":3}"), 0);
    ck_assert_int_eq(e.counts.calls[FX_DIGEST], 2);
    /* A write that answers directly is not executed twice either. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "tidy", "{\"batch\":1}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "tidy", "{\"batch\":1}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(e.counts.calls[FX_TIDY], 1);
    /* Ordinary tools are not replayed. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(e.counts.calls[FX_LOOKUP], 2);
    env_close(&e);
}
END_TEST

static int eval_calls;
static int eval_verdict;
static int evaluator(void *ud, const toolgov_call *call, const char *output, size_t len)
{
    ck_assert_ptr_eq(ud, &eval_calls);
    ck_assert_str_eq(call->tool, "digest");
    ck_assert_uint_eq(len, strlen(output));
    ck_assert_str_eq(output, "digest {}");
    eval_calls++;
    return eval_verdict;
}

START_TEST(evaluator_has_its_say)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    eval_calls = 0;
    eval_verdict = 0;
    toolgov_run_set_evaluator(e.run, evaluator, &eval_calls);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(eval_calls, 1);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_NONE);
    env_close(&e);

    env_open(&e, NULL);
    eval_calls = 0;
    eval_verdict = 1;
    toolgov_run_set_evaluator(e.run, evaluator, &eval_calls);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(eval_calls, 1);
    ck_assert_int_eq(oc.ended, 1);
    env_close(&e);

    /* The evaluator is not consulted for a later step. */
    env_open(&e, NULL);
    eval_calls = 0;
    toolgov_run_set_evaluator(e.run, evaluator, &eval_calls);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(eval_calls, 0);
    toolgov_run_set_evaluator(e.run, NULL, NULL);
    env_close(&e);
}
END_TEST

/* A handler that tries to invoke through its own run. */
static toolgov_run *reentry_run;
static int reentry_rc;
static int reentry_handler(const toolgov_call *call, const void *args,
                           toolgov_result *out)
{
    (void)args;
    (void)call;
    reentry_rc = toolgov_run_invoke(NULL, reentry_run, "lookup", "{}");
    ck_assert_int_eq(toolgov_run_gate(reentry_run, "lookup", "{}"), TOOLGOV_GATE_ALLOW);
    return toolgov_result_set(out, "outer", 5);
}

START_TEST(handler_cannot_reenter_its_run)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_registry_bind_builtin(e.reg, "memory_search", reentry_handler,
                                                   NULL), 0);
    reentry_run = e.run;
    reentry_rc = 0;
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "memory_search", "{\"query\":\"q\"}"), 0);
    ck_assert_int_eq(reentry_rc, TOOLGOV_EINVAL);
    ck_assert_str_eq(oc.output, "outer");
    ck_assert_int_eq(e.counts.calls[FX_LOOKUP], 0);
    /* After the handler returned, the run works again. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    env_close(&e);
}
END_TEST

/* A confirm-once write mounted after the policy was made still asks. */
static const toolgov_tool_spec late_tools[] = {
    {sizeof(toolgov_tool_spec), "late_write", "Write late.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, "", 0, 0, 2, 3, NULL, "{}"},
    {sizeof(toolgov_tool_spec), "late_read", "Read late.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 4, 3, NULL, "{}"},
};
static int late_register(toolgov_plugin_api *api)
{
    toolgov_register_tool(api, "late_write", "", fx_handler);
    toolgov_register_tool(api, "late_read", "", fx_handler);
    return 0;
}
static const toolgov_plugin late_plugin = {TOOLGOV_ABI_VERSION, "late", "late.yaml", NULL, 0,
                                           late_tools, 2, late_register};

START_TEST(late_mount_is_never_less_careful)
{
    env e;

    env_open(&e, "none");
    ck_assert_int_eq(toolgov_registry_mount(e.reg, &late_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "late_write", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(e.run, "late_read", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(e.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(e.pol, "late_write"), 1);
    env_close(&e);
}
END_TEST

/* The confirm-once set's count and listing include a confirm-once write
** mounted after the policy was made, since the gate asks for it. */
START_TEST(late_mount_counted_in_the_set)
{
    env e;
    size_t n, i;
    int listed = 0;

    env_open(&e, NULL);
    n = toolgov_policy_confirm_once_count(e.pol);
    ck_assert_int_eq(toolgov_registry_mount(e.reg, &late_plugin, NULL), 0);
    ck_assert_uint_eq(toolgov_policy_confirm_once_count(e.pol), n + 1);
    for (i = 0; i < n + 1; i++)
        listed |= strcmp(toolgov_policy_confirm_once_at(e.pol, i), "late_write") == 0;
    ck_assert_int_eq(listed, 1);
    ck_assert_ptr_null(toolgov_policy_confirm_once_at(e.pol, n + 1));
    env_close(&e);
}
END_TEST

/* A destructive tool named in the override is not in the confirm-once set
** (it is gated by approval), so it is neither reported nor counted. */
START_TEST(destructive_never_in_the_set)
{
    env plain, e;
    size_t i;

    env_open(&plain, NULL);
    env_open(&e, "purge");
    ck_assert_int_eq(toolgov_policy_is_confirm_once(e.pol, "purge"), 0);
    ck_assert_uint_eq(toolgov_policy_confirm_once_count(e.pol),
                      toolgov_policy_confirm_once_count(plain.pol));
    for (i = 0; i < toolgov_policy_confirm_once_count(e.pol); i++)
        ck_assert_str_ne(toolgov_policy_confirm_once_at(e.pol, i), "purge");
    ck_assert_int_eq(toolgov_run_gate(e.run, "purge", "{}"), TOOLGOV_GATE_NEEDS_APPROVAL);
    env_close(&plain);
    env_close(&e);
}
END_TEST

/* An unknown tool is not "refused by the effect policy": it has its own
** code, which says what a host that forgot a mount needs to hear. */
START_TEST(unknown_tool_has_its_own_code)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "not_mounted", "{}"), TOOLGOV_ENOENT);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_ptr_nonnull(strstr(toolgov_strerror(TOOLGOV_ENOENT), "mounted"));
    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "make_note", "{}"), TOOLGOV_EREFUSED);
    env_close(&e);
}
END_TEST

/* One approval lets one call run, in a batch too: two identical destructive
** calls with one approval are not both ALLOW. */
START_TEST(batch_counts_approvals_used_up)
{
    env e;
    toolgov_proposed_call calls[] = {{"purge", "{}"}, {"purge", "{}"}, {"purge", "{\"x\":1}"}};
    toolgov_gate all, per[3];

    env_open(&e, NULL);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, NULL, NULL, e.run, calls, 2), 0);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(all, TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), 0);
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{\"x\":1}"), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, NULL, NULL, e.run, calls, 3), 0);
    ck_assert_int_eq(all, TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ALLOW);
    env_close(&e);
}
END_TEST

/* Issue 29 item 9: the operator's override puts the answers-directly tool
** digest in the confirm-once set. It then asks, and after the yes its output
** is one step of the run: a tool that asks never ends the run on its
** output (mount's rule for manifests, kept under the override). */
START_TEST(override_makes_answers_directly_a_step)
{
    env e;
    toolgov_outcome oc;

    env_open(&e, "digest");
    ck_assert_int_eq(toolgov_run_gate(e.run, "digest", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), TOOLGOV_ECONFIRM);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_NONE);
    /* Not held for replay either: the same call runs again. */
    ck_assert_int_eq(toolgov_run_gate(e.run, "digest", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    env_close(&e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("gate");
    SRunner *sr;
    int failed;

    tcase_add_loop_test(tc, gate_table_row, 0, (int)(sizeof gate_table / sizeof gate_table[0]));
    tcase_add_test(tc, gate_bad_arguments_refuse);
    tcase_add_test(tc, batch_lists_every_write_once);
    tcase_add_test(tc, batch_after_no_and_edge_cases);
    suite_add_tcase(s, tc);
    tc = tcase_create("invoke");
    tcase_add_test(tc, invoke_never_runs_when_gate_says_no);
    tcase_add_test(tc, confirm_once_then_no_more_asks);
    tcase_add_test(tc, approval_binds_tool_and_exact_arguments);
    tcase_add_test(tc, missing_handler_and_handler_errors);
    tcase_add_test(tc, positive_handler_return_is_an_error);
    tcase_add_test(tc, handler_cannot_reenter_its_run);
    tcase_add_test(tc, late_mount_is_never_less_careful);
    tcase_add_test(tc, late_mount_counted_in_the_set);
    tcase_add_test(tc, destructive_never_in_the_set);
    tcase_add_test(tc, unknown_tool_has_its_own_code);
    tcase_add_test(tc, batch_counts_approvals_used_up);
    suite_add_tcase(s, tc);
    tc = tcase_create("answers_directly");
    tcase_add_test(tc, first_tool_answers_directly_ends_run);
    tcase_add_test(tc, later_step_and_unusable_output_do_not_end);
    tcase_add_test(tc, replay_returns_result_in_hand);
    tcase_add_test(tc, evaluator_has_its_say);
    tcase_add_test(tc, override_makes_answers_directly_a_step);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
