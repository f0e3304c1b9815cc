/*
** run.c: runs, the gate and invocation through it.
**
** The gate is a pure function of (policy, run state, tool, arguments); it
** looks the tool up once and touches the argument bytes only for the two
** kinds of tool whose answer depends on them (answers-directly tools, for a
** replay, and destructive tools, for an approval). It allocates nothing.
**
** Invoking checks the gate, then runs the handler. Anything the run must
** remember about the call (a used-up approval, a result in hand, the end of
** the run) is prepared before the handler runs or takes over the result
** buffer after it, so a failing allocation never leaves a call that ran but
** was not recorded.
*/
#include <string.h>

#include "internal.h"

const char *toolgov_gate_name(toolgov_gate gate)
{
    switch (gate) {
    case TOOLGOV_GATE_ALLOW: return "ALLOW";
    case TOOLGOV_GATE_ASK_FIRST: return "ASK_FIRST";
    case TOOLGOV_GATE_NEEDS_APPROVAL: return "NEEDS_APPROVAL";
    case TOOLGOV_GATE_REPLAY: return "REPLAY";
    case TOOLGOV_GATE_REFUSE: return "REFUSE";
    }
    return "UNKNOWN";
}

const char *toolgov_end_reason_name(toolgov_end_reason reason)
{
    switch (reason) {
    case TOOLGOV_END_NONE: return "none";
    case TOOLGOV_END_ANSWERED_DIRECTLY: return "answered_directly";
    case TOOLGOV_END_HOST: return "host";
    }
    return "unknown";
}

int toolgov_run_new(toolgov_run **out, const toolgov_policy *pol, void *run_ctx)
{
    toolgov_run *run;

    if (!out || !pol)
        return TOOLGOV_EINVAL;
    run = toolgov__alloc(&pol->reg->alloc, sizeof *run);
    if (!run)
        return TOOLGOV_ENOMEM;
    memset(run, 0, sizeof *run);
    run->pol = pol;
    run->reg = pol->reg;
    run->run_ctx = run_ctx;
    run->st.answer = -1;
    toolgov__result_init(&run->result, &pol->reg->alloc);
    *out = run;
    return 0;
}

void toolgov__run_state_free(const toolgov_allocator *a, toolgov__run_state *st)
{
    size_t i;

    for (i = 0; i < st->napprovals; i++)
        toolgov__free(a, st->approvals[i].args, st->approvals[i].args_len + 1);
    toolgov__free(a, st->approvals, st->approvals_cap * sizeof *st->approvals);
    for (i = 0; i < st->nheld; i++) {
        toolgov__free(a, st->held[i].args, st->held[i].args_len + 1);
        toolgov__free(a, st->held[i].out, st->held[i].out_cap);
    }
    toolgov__free(a, st->held, st->held_cap * sizeof *st->held);
    memset(st, 0, sizeof *st);
    st->answer = -1;
}

void toolgov_run_free(toolgov_run *run)
{
    const toolgov_allocator *a;

    if (!run)
        return;
    a = &run->reg->alloc;
    toolgov__run_state_free(a, &run->st);
    toolgov__result_free(&run->result);
    toolgov__free(a, run, sizeof *run);
}

/* ---- the gate ---- */

static long find_held(const toolgov__run_state *st, size_t idx, const char *args,
                      size_t args_len)
{
    size_t i;

    for (i = 0; i < st->nheld; i++) {
        const toolgov__held *h = &st->held[i];

        if (h->idx == idx && h->args_len == args_len &&
            memcmp(h->args, args, args_len) == 0)
            return (long)i;
    }
    return -1;
}

static long find_approval(const toolgov__run_state *st, size_t idx, const char *args,
                          size_t args_len)
{
    size_t i;

    for (i = 0; i < st->napprovals; i++) {
        const toolgov__approval *p = &st->approvals[i];

        if (p->idx == idx && p->args_len == args_len &&
            memcmp(p->args, args, args_len) == 0)
            return (long)i;
    }
    return -1;
}

/* The gate for a tool already looked up (idx >= 0). */
static toolgov_gate gate_at(const toolgov_run *run, size_t idx, const char *args)
{
    const toolgov__tool *t = &run->reg->tools[idx];

    if (t->answers_directly && run->st.nheld &&
        find_held(&run->st, idx, args, strlen(args)) >= 0)
        return TOOLGOV_GATE_REPLAY;
    if (t->effect == TOOLGOV_EFFECT_DESTRUCTIVE) {
        if (run->st.napprovals && find_approval(&run->st, idx, args, strlen(args)) >= 0)
            return TOOLGOV_GATE_ALLOW;
        return TOOLGOV_GATE_NEEDS_APPROVAL;
    }
    if (toolgov__policy_once(run->pol, idx)) {
        switch (run->st.conf) {
        case TOOLGOV_CONFIRMATION_GIVEN: return TOOLGOV_GATE_ALLOW;
        case TOOLGOV_CONFIRMATION_REFUSED: return TOOLGOV_GATE_REFUSE;
        case TOOLGOV_CONFIRMATION_PENDING: return TOOLGOV_GATE_ASK_FIRST;
        }
    }
    return TOOLGOV_GATE_ALLOW;
}

static toolgov_gate gate(const toolgov_run *run, const char *tool, const char *args,
                         long *idx_out)
{
    long idx;

    *idx_out = -1;
    if (!run || !tool)
        return TOOLGOV_GATE_REFUSE;
    if (run->st.end != TOOLGOV_END_NONE)
        return TOOLGOV_GATE_REFUSE;
    idx = toolgov__registry_index(run->reg, tool, strlen(tool));
    if (idx < 0)
        return TOOLGOV_GATE_REFUSE;
    *idx_out = idx;
    return gate_at(run, (size_t)idx, args ? args : "{}");
}

toolgov_gate toolgov_run_gate(const toolgov_run *run, const char *tool, const char *args)
{
    long idx;

    return gate(run, tool, args, &idx);
}

int toolgov_run_gate_batch(toolgov_gate *out, toolgov_gate *per_call,
                           size_t *confirm_idx, size_t *confirm_count,
                           const toolgov_run *run,
                           const toolgov_proposed_call *calls, size_t n)
{
    size_t i, nconfirm = 0;
    int any_ask = 0, any_approval = 0, any_refuse = 0, all_replay = n > 0;

    if (!out || !run || (n && !calls))
        return TOOLGOV_EINVAL;
    for (i = 0; i < n; i++) {
        long idx;
        toolgov_gate g = gate(run, calls[i].tool, calls[i].args, &idx);

        if (per_call)
            per_call[i] = g;
        if (g != TOOLGOV_GATE_REPLAY)
            all_replay = 0;
        switch (g) {
        case TOOLGOV_GATE_ASK_FIRST:
            any_ask = 1;
            if (confirm_idx)
                confirm_idx[nconfirm] = i;
            nconfirm++;
            break;
        case TOOLGOV_GATE_NEEDS_APPROVAL: any_approval = 1; break;
        case TOOLGOV_GATE_REFUSE: any_refuse = 1; break;
        default: break;
        }
    }
    if (confirm_count)
        *confirm_count = nconfirm;
    if (any_ask)
        *out = TOOLGOV_GATE_ASK_FIRST;
    else if (any_approval)
        *out = TOOLGOV_GATE_NEEDS_APPROVAL;
    else if (any_refuse)
        *out = TOOLGOV_GATE_REFUSE;
    else if (all_replay)
        *out = TOOLGOV_GATE_REPLAY;
    else
        *out = TOOLGOV_GATE_ALLOW;
    return 0;
}

/* ---- answers from the user ---- */

int toolgov_run_confirm(toolgov_run *run, int yes)
{
    toolgov_confirmation want;

    if (!run)
        return TOOLGOV_EINVAL;
    if (run->st.end != TOOLGOV_END_NONE)
        return TOOLGOV_EENDED;
    want = yes ? TOOLGOV_CONFIRMATION_GIVEN : TOOLGOV_CONFIRMATION_REFUSED;
    if (run->st.conf == TOOLGOV_CONFIRMATION_PENDING) {
        run->st.conf = want;
        return 0;
    }
    return run->st.conf == want ? 0 : TOOLGOV_EINVAL;
}

toolgov_confirmation toolgov_run_confirmation(const toolgov_run *run)
{
    return run ? run->st.conf : TOOLGOV_CONFIRMATION_PENDING;
}

int toolgov_run_approve(toolgov_run *run, const char *tool, const char *args)
{
    const toolgov_allocator *a;
    toolgov__approval *p;
    size_t args_len;
    char *copy;
    long idx;
    int rc;

    if (!run || !tool)
        return TOOLGOV_EINVAL;
    if (run->st.end != TOOLGOV_END_NONE)
        return TOOLGOV_EENDED;
    idx = toolgov__registry_index(run->reg, tool, strlen(tool));
    if (idx < 0)
        return TOOLGOV_ENOENT;
    if (run->reg->tools[idx].spec->effect != TOOLGOV_EFFECT_DESTRUCTIVE)
        return TOOLGOV_EINVAL;
    a = &run->reg->alloc;
    if (!args)
        args = "{}";
    args_len = strlen(args);
    rc = toolgov__reserve(a, (void **)&run->st.approvals, &run->st.approvals_cap,
                          run->st.napprovals + 1, sizeof *run->st.approvals);
    if (rc < 0)
        return rc;
    copy = toolgov__memdup(a, args, args_len);
    if (!copy)
        return TOOLGOV_ENOMEM;
    p = &run->st.approvals[run->st.napprovals++];
    p->idx = (size_t)idx;
    p->args = copy;
    p->args_len = args_len;
    return 0;
}

size_t toolgov_run_pending_approvals(const toolgov_run *run)
{
    return run ? run->st.napprovals : 0;
}

void toolgov_run_set_evaluator(toolgov_run *run, toolgov_evaluator_fn fn, void *ud)
{
    if (!run)
        return;
    run->eval = fn;
    run->eval_ud = fn ? ud : NULL;
}

/* ---- invocation ---- */

static void outcome(toolgov_outcome *out, toolgov_gate g, int executed, int status,
                    const char *text, size_t len, int ended)
{
    if (!out)
        return;
    out->gate = g;
    out->executed = executed;
    out->status = status;
    out->output = text ? text : "";
    out->output_len = text ? len : 0;
    out->ended = ended;
}

static void drop_approval(toolgov__run_state *st, const toolgov_allocator *a, size_t i)
{
    toolgov__free(a, st->approvals[i].args, st->approvals[i].args_len + 1);
    memmove(&st->approvals[i], &st->approvals[i + 1],
            (st->napprovals - i - 1) * sizeof *st->approvals);
    st->napprovals--;
}

int toolgov_run_invoke(toolgov_outcome *out, toolgov_run *run, const char *tool,
                       const char *args)
{
    const toolgov_allocator *a;
    const toolgov__tool *t;
    toolgov_call call;
    toolgov_gate g;
    char *args_copy = NULL;
    size_t args_len;
    long idx;
    int first, rc;

    if (!run || !tool) {
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EINVAL, NULL, 0, 0);
        return TOOLGOV_EINVAL;
    }
    if (!args)
        args = "{}";
    if (run->busy) {
        /* A handler or evaluator calling back into its own run would write
        ** over the output being produced: refused. */
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EINVAL, NULL, 0, 0);
        return TOOLGOV_EINVAL;
    }
    if (run->st.end != TOOLGOV_END_NONE) {
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EENDED, NULL, 0, 0);
        return TOOLGOV_EENDED;
    }
    g = gate(run, tool, args, &idx);
    args_len = strlen(args);
    switch (g) {
    case TOOLGOV_GATE_ALLOW:
        break;
    case TOOLGOV_GATE_REPLAY: {
        const toolgov__held *h = &run->st.held[find_held(&run->st, (size_t)idx, args,
                                                          args_len)];

        outcome(out, g, 0, 0, h->out ? h->out : "", h->out_len, 0);
        return 0;
    }
    case TOOLGOV_GATE_ASK_FIRST:
        outcome(out, g, 0, TOOLGOV_ECONFIRM, NULL, 0, 0);
        return TOOLGOV_ECONFIRM;
    case TOOLGOV_GATE_NEEDS_APPROVAL:
        outcome(out, g, 0, TOOLGOV_EAPPROVAL, NULL, 0, 0);
        return TOOLGOV_EAPPROVAL;
    case TOOLGOV_GATE_REFUSE:
    default:
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EREFUSED, NULL, 0, 0);
        return TOOLGOV_EREFUSED;
    }

    a = &run->reg->alloc;
    t = &run->reg->tools[idx];
    if (!t->handler) {
        outcome(out, g, 0, TOOLGOV_ENOHANDLER, NULL, 0, 0);
        return TOOLGOV_ENOHANDLER;
    }
    if (t->spec->answers_directly) {
        /* Room to keep the result in hand, taken before anything runs. */
        rc = toolgov__reserve(a, (void **)&run->st.held, &run->st.held_cap,
                              run->st.nheld + 1, sizeof *run->st.held);
        if (rc == 0 && !(args_copy = toolgov__memdup(a, args, args_len)))
            rc = TOOLGOV_ENOMEM;
        if (rc < 0) {
            outcome(out, g, 0, rc, NULL, 0, 0);
            return rc;
        }
    }
    if (t->spec->effect == TOOLGOV_EFFECT_DESTRUCTIVE)
        drop_approval(&run->st, a, (size_t)find_approval(&run->st, (size_t)idx, args,
                                                          args_len));

    first = !run->st.first_done && idx != TOOLGOV__BUILTIN_ASK_USER;
    if (idx != TOOLGOV__BUILTIN_ASK_USER)
        run->st.first_done = 1;
    toolgov__result_clear(&run->result);
    call.tool = t->spec->name;
    call.args = args;
    call.args_len = args_len;
    call.plugin_ctx = t->ctx;
    call.run_ctx = run->run_ctx;
    run->busy = 1;
    rc = t->handler(&call, &run->result);
    run->busy = 0;
    if (rc > 0)
        rc = TOOLGOV_EHANDLER; /* a handler must return 0 or a negative code */

    if (rc == 0 && t->spec->answers_directly) {
        /* The result buffer becomes the result in hand; the run gets a new
        ** (lazily allocated) one, so keeping it cannot fail. */
        size_t hi = run->st.nheld++;
        toolgov__held *h = &run->st.held[hi];
        int ends = 0;

        h->idx = (size_t)idx;
        h->args = args_copy;
        h->args_len = args_len;
        h->out = run->result.buf;
        h->out_len = run->result.len;
        h->out_cap = run->result.cap;
        toolgov__result_init(&run->result, a);
        if (first && h->out_len > 0) {
            if (run->eval) {
                run->busy = 1;
                ends = run->eval(run->eval_ud, &call, h->out, h->out_len) != 0;
                run->busy = 0;
                h = &run->st.held[hi];
            } else {
                ends = 1;
            }
            if (ends) {
                run->st.end = TOOLGOV_END_ANSWERED_DIRECTLY;
                run->st.answer = (long)hi;
            }
        }
        outcome(out, g, 1, 0, h->out ? h->out : "", h->out_len, ends);
        return 0;
    }
    toolgov__free(a, args_copy, args_len + 1);
    outcome(out, g, 1, rc, toolgov_result_text(&run->result), run->result.len, 0);
    return rc;
}

int toolgov_run_end(toolgov_run *run)
{
    if (!run)
        return TOOLGOV_EINVAL;
    if (run->st.end != TOOLGOV_END_NONE)
        return TOOLGOV_EENDED;
    run->st.end = TOOLGOV_END_HOST;
    return 0;
}

toolgov_end_reason toolgov_run_end_reason(const toolgov_run *run)
{
    return run ? run->st.end : TOOLGOV_END_NONE;
}

const char *toolgov_run_answer(const toolgov_run *run, size_t *len)
{
    const toolgov__held *h;

    if (!run || run->st.answer < 0 || (size_t)run->st.answer >= run->st.nheld) {
        if (len)
            *len = 0;
        return NULL;
    }
    h = &run->st.held[run->st.answer];
    if (len)
        *len = h->out_len;
    return h->out ? h->out : "";
}
