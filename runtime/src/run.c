/* SPDX-License-Identifier: MIT */
/*
** run.c: runs, the gate and invocation through it.
**
** The gate is a pure function of (policy, run state, tool, arguments); it
** looks the tool up once and touches the argument bytes only for the two
** kinds of tool whose answer depends on them (answers-directly tools, for a
** replay, and destructive tools, for an approval). It allocates nothing.
**
** Invoking asks the gate once (gate_call) and acts on its verdict, which
** carries the tool and the approval or held slot it found, so nothing is
** searched twice. Each rule of a run has a function named after it:
** consume_approval, take_first, hold_answer, end_if_answered. Anything the
** run must remember about a call is prepared before the handler runs or
** takes over the result buffer after it, so a failing allocation never
** leaves a call that ran but was not recorded.
*/
#include <string.h>

#include "args_internal.h"
#include "internal.h"

int toolgov_run_new(toolgov_run **out, const toolgov_policy *pol, void *run_ctx)
{
    toolgov_run *run;

    if (!out || !pol)
        return TOOLGOV_EINVAL;
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    run = toolgov__alloc(&pol->reg->alloc, sizeof *run);
    if (!run)
        return TOOLGOV_ENOMEM;
    memset(run, 0, sizeof *run);
    run->pol = pol;
    run->reg = pol->reg;
    run->run_ctx = run_ctx;
    run->st.answer = -1;
    run->cur_idx = -1;
    toolgov__random_id(run->id, &run->id_len);
    toolgov__result_init(&run->result, &pol->reg->alloc);
    if (toolgov_args_decoder_new(&run->dec, &pol->reg->alloc) != 0) {
        toolgov__free(&pol->reg->alloc, run, sizeof *run);
        return TOOLGOV_ENOMEM;
    }
    if (toolgov_args_decoder_new(&run->qdec, &pol->reg->alloc) != 0) {
        toolgov_args_decoder_free(run->dec);
        toolgov__free(&pol->reg->alloc, run, sizeof *run);
        return TOOLGOV_ENOMEM;
    }
    *out = run;
    return 0;
}

int toolgov_run_child_new(toolgov_run **out, toolgov_run *parent, void *run_ctx)
{
    toolgov_run *child = NULL;
    int rc;

    if (!out || !parent)
        return TOOLGOV_EINVAL;
    rc = toolgov_run_new(&child, parent->pol, run_ctx);
    if (rc < 0)
        return rc;
    child->parent = parent;
    child->audit = parent->audit; /* the family reports to one observer */
    parent->nchildren++;
    *out = child;
    return 0;
}

/* Does tool t (reference ref) answer directly in this run? The operator's
** override may put an answers-directly tool in the confirm-once set; it
** then asks, and a tool that asks never answers directly (the rule mount
** holds manifests to, kept under the override): after the yes its output is
** one step of the run, which goes on. */
static int answers_directly(const toolgov_run *run, long ref, const toolgov__tool *t)
{
    return t->answers_directly &&
           !(ref >= 0 && ref < TOOLGOV__DECLARED_REF &&
             toolgov__policy_confirm_once(run->pol, (size_t)ref));
}

toolgov_run *toolgov_run_parent(const toolgov_run *run)
{
    return run ? run->parent : NULL;
}

const char *toolgov_run_id(const toolgov_run *run)
{
    return run ? toolgov__root(run)->id : NULL;
}

int toolgov_run_set_id(toolgov_run *run, const char *id)
{
    size_t n;

    /* A child is its root's: the family has one identity. */
    if (!run || !id || run->parent || run->busy)
        return TOOLGOV_EINVAL;
    n = strlen(id);
    if (n == 0 || n > TOOLGOV_RUN_ID_MAX)
        return TOOLGOV_EINVAL;
    toolgov__run_id_store(run, id, n);
    return 0;
}

static void calls_free(const toolgov_allocator *a, toolgov__approval *v, size_t n, size_t cap)
{
    size_t i;

    for (i = 0; i < n; i++)
        toolgov__free(a, v[i].args, v[i].args_len + 1);
    toolgov__free(a, v, cap * sizeof *v);
}

void toolgov__run_state_free(const toolgov_allocator *a, toolgov__run_state *st)
{
    size_t i;

    calls_free(a, st->approvals, st->napprovals, st->approvals_cap);
    calls_free(a, st->confirmed, st->nconfirmed, st->confirmed_cap);
    calls_free(a, st->declined, st->ndeclined, st->declined_cap);
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
    if (run->parent) {
        run->parent->nchildren--;
        run->audit = NULL; /* the parent's */
    }
    toolgov__run_state_free(a, &run->st);
    toolgov__result_free(&run->result);
    toolgov_args_decoder_free(run->dec);
    toolgov_args_decoder_free(run->qdec);
    toolgov__audit_free(run);
    toolgov__free(a, run, sizeof *run);
}

/* ---- the gate ---- */

/* The searches of the gate's rarer branches stay out of line, so the gate
** itself stays small enough to be inlined where it is asked. */
#if defined(__GNUC__) || defined(__clang__)
#define COLD_PATH __attribute__((noinline))
#define HOT_PATH __attribute__((always_inline))
#else
#define COLD_PATH
#define HOT_PATH
#endif

/* args_len for arguments whose length the gate measures itself, only for
** the tools whose answer depends on them (most calls never touch them). */
#define ARGS_LEN_UNKNOWN ((size_t)-1)

/* A call's argument text as the gate compares it. Everything a run holds
** (approvals, confirmed and declined calls, results in hand) is canonical
** text, so a text that is canonical already is compared byte for byte; any
** other text is canonicalised once, through the run's query decoder, when
** (and only when) a byte comparison failed against an entry of the same
** tool. Canonical text is its own canonical form, so a byte match is a
** canonical match. */
typedef struct call_text {
    const char *text;
    size_t len;      /* ARGS_LEN_UNKNOWN until measured */
    int canonical;   /* 1: text is canonical (or was made so) */
    int invalid;     /* 1: the text does not decode: it matches nothing */
} call_text;

static void call_text_init(call_text *ct, const char *args, size_t len, int canonical)
{
    ct->text = args ? args : "{}";
    ct->len = args ? len : 2;
    ct->canonical = canonical;
    ct->invalid = 0;
}

static const char *run_decode_args(toolgov_decoded_args *d, toolgov_args_decoder *dec,
                                   const toolgov__tool *t, const char *args, size_t len,
                                   int *rc);
static int decode_ref(toolgov_decoded_call *out, toolgov_run *run, long idx,
                      const char *args, size_t len);

/* Make ct canonical for tool ref. 0, or -1 when the text does not decode
** (such a call never runs, so it matches no entry). */
static int canonicalise(const toolgov_run *run, long ref, call_text *ct)
{
    toolgov_decoded_args d;
    int rc;

    if (ct->canonical)
        return ct->invalid ? -1 : 0;
    ct->canonical = 1;
    if (ct->len == ARGS_LEN_UNKNOWN)
        ct->len = strlen(ct->text);
    run_decode_args(&d, run->qdec, toolgov__tool_at(run->reg, ref), ct->text, ct->len, &rc);
    if (rc < 0) {
        ct->invalid = 1;
        return -1;
    }
    ct->text = d.canonical;
    ct->len = d.canonical_len;
    return 0;
}

static int same_text(size_t idx, const char *args, size_t args_len, size_t want_idx,
                     const call_text *ct)
{
    return idx == want_idx && args_len == ct->len && memcmp(args, ct->text, args_len) == 0;
}

/* The entry of a list of calls that is exactly this call, or -1. */
static long find_call(const toolgov_run *run, const toolgov__approval *v, size_t n, long ref,
                      call_text *ct)
{
    size_t i;
    int any = 0;

    if (ct->len == ARGS_LEN_UNKNOWN)
        ct->len = strlen(ct->text);
    for (i = 0; i < n; i++) {
        if (same_text(v[i].idx, v[i].args, v[i].args_len, (size_t)ref, ct))
            return (long)i;
        any |= v[i].idx == (size_t)ref;
    }
    if (!any || ct->canonical || canonicalise(run, ref, ct) < 0)
        return -1;
    for (i = 0; i < n; i++)
        if (same_text(v[i].idx, v[i].args, v[i].args_len, (size_t)ref, ct))
            return (long)i;
    return -1;
}

/* The result in hand for exactly this call, or -1. */
COLD_PATH static long find_held(const toolgov_run *run, long ref, call_text *ct)
{
    const toolgov__run_state *st = &run->st;
    size_t i;
    int any = 0;

    if (ct->len == ARGS_LEN_UNKNOWN)
        ct->len = strlen(ct->text);
    for (i = 0; i < st->nheld; i++) {
        if (same_text(st->held[i].idx, st->held[i].args, st->held[i].args_len, (size_t)ref, ct))
            return (long)i;
        any |= st->held[i].idx == (size_t)ref;
    }
    if (!any || ct->canonical || canonicalise(run, ref, ct) < 0)
        return -1;
    for (i = 0; i < st->nheld; i++)
        if (same_text(st->held[i].idx, st->held[i].args, st->held[i].args_len, (size_t)ref, ct))
            return (long)i;
    return -1;
}

/* The pooled tool a call names, or -1. */
static long lookup(const toolgov_run *run, const char *tool)
{
    return toolgov__registry_index(run->reg, tool, strlen(tool));
}

/* A tool the user may answer about: pooled, or declared for a plugin's own
** loop (whose calls a child run makes). -1 when neither. */
static long lookup_any(const toolgov_run *run, const char *tool)
{
    return toolgov__registry_holder(run->reg, tool, strlen(tool));
}

/* Is tool ref confirm-once? Pooled tools by the policy's set; a tool declared
** for an own loop by its manifest (the override names pooled tools). */
HOT_PATH static inline int in_confirm_once_set(const toolgov_run *run, long ref)
{
    if (ref >= TOOLGOV__DECLARED_REF)
        return toolgov__manifest_confirm_once(toolgov__tool_at(run->reg, ref)->spec);
    return toolgov__policy_confirm_once(run->pol, (size_t)ref);
}

/* The run is over when it or any run it is a child of has ended. */
static int run_over(const toolgov_run *run)
{
    for (; run; run = run->parent)
        if (run->st.end != TOOLGOV_END_NONE)
            return 1;
    return 0;
}

static const toolgov__run_state *shared_state(const toolgov_run *run)
{
    return toolgov__shared_const(run);
}

static void verdict(toolgov__verdict *v, toolgov_gate g, toolgov__refusal why)
{
    v->gate = g;
    v->refusal = why;
}

/* ---- audit events (audit.h) ----
** Emitted only when the run has an observer (run->audit): each decision
** point below tests that pointer and calls one of these. They are kept out
** of line and marked cold, so a run without an observer keeps the code
** layout of the invoke path it had before (bench_audit measures it). */

/* An event about one call; the observer's code. */
TOOLGOV__COLD static int audit_call(const toolgov_run *run, toolgov_audit_kind kind, long idx,
                      const char *tool, const char *args, size_t args_len,
                      toolgov_audit_args_form form, toolgov_audit_reason why, int status)
{
    toolgov_audit_event ev;

    toolgov__audit_init(&ev, kind, run, idx, tool, args, args_len, form);
    ev.reason = why;
    ev.status = status;
    if (why == TOOLGOV_AUDIT_REASON_NOT_APPROVED)
        ev.decision = "NEEDS_APPROVAL";
    else if (why == TOOLGOV_AUDIT_REASON_NO_HANDLER)
        ev.decision = "ALLOW";
    return toolgov__audit_emit(run, &ev);
}

/* The reason of a gate refusal, as the audit trail names it. */
static toolgov_audit_reason audit_reason(toolgov__refusal why)
{
    switch (why) {
    case TOOLGOV__REFUSAL_ENDED: return TOOLGOV_AUDIT_REASON_ENDED;
    case TOOLGOV__REFUSAL_UNKNOWN: return TOOLGOV_AUDIT_REASON_UNKNOWN_TOOL;
    case TOOLGOV__REFUSAL_DECLINED: return TOOLGOV_AUDIT_REASON_DECLINED;
    case TOOLGOV__REFUSAL_NEVER: return TOOLGOV_AUDIT_REASON_NEVER_GRANTED;
    case TOOLGOV__REFUSAL_NONE: break;
    }
    return TOOLGOV_AUDIT_REASON_NONE;
}

/* The standing grants a run consults: its root run's (grants.h). */
static const toolgov_grants *grants_of(const toolgov_run *run)
{
    while (run->parent)
        run = run->parent;
    return run->grants;
}

/* An event about a call a standing grant decided, naming the grant:
** allowed (an allow answered for the user) or refused (never). */
TOOLGOV__COLD static int audit_granted(const toolgov_run *run, toolgov_audit_kind kind,
                                       const toolgov__verdict *v, const char *args,
                                       size_t args_len, int status)
{
    toolgov_audit_event ev;

    toolgov__audit_init(&ev, kind, run, v->idx, NULL, args, args_len,
                        TOOLGOV_AUDIT_ARGS_CANONICAL);
    ev.status = status;
    if (kind == TOOLGOV_AUDIT_REFUSED)
        ev.reason = TOOLGOV_AUDIT_REASON_NEVER_GRANTED;
    toolgov__grants_name(grants_of(run), v->grant, &ev.grant, &ev.granted_by);
    return toolgov__audit_emit(run, &ev);
}

/* The rule "a confirm-once write asks first": under scope run, the run's one
** answer decides; under scope listed, a call the user's yes listed runs
** (using the entry up), one a no listed is refused, any other asks. A
** run-wide no refuses in both. */
COLD_PATH static void confirm_once_rule(toolgov__verdict *v, const toolgov_run *run, long ref,
                              call_text *ct)
{
    const toolgov__run_state *sh = shared_state(run);

    if (sh->conf == TOOLGOV_CONFIRMATION_REFUSED) {
        verdict(v, TOOLGOV_GATE_REFUSE, TOOLGOV__REFUSAL_DECLINED);
        return;
    }
    if (run->pol->scope == TOOLGOV_CONFIRM_SCOPE_LISTED) {
        if (sh->ndeclined && find_call(run, sh->declined, sh->ndeclined, ref, ct) >= 0) {
            verdict(v, TOOLGOV_GATE_REFUSE, TOOLGOV__REFUSAL_DECLINED);
            return;
        }
        if (sh->nconfirmed)
            v->confirmed = find_call(run, sh->confirmed, sh->nconfirmed, ref, ct);
        verdict(v, v->confirmed >= 0 ? TOOLGOV_GATE_ALLOW : TOOLGOV_GATE_ASK_FIRST,
                TOOLGOV__REFUSAL_NONE);
        return;
    }
    verdict(v, sh->conf == TOOLGOV_CONFIRMATION_GIVEN ? TOOLGOV_GATE_ALLOW
                                                       : TOOLGOV_GATE_ASK_FIRST,
            TOOLGOV__REFUSAL_NONE);
}

/* The rule "one approval per call": a destructive call may run only with an
** approval of exactly this tool and these canonical arguments, which
** running it uses up. */
HOT_PATH static inline void approval_rule(toolgov__verdict *v, const toolgov_run *run, long ref, call_text *ct)
{
    const toolgov__run_state *sh = run->parent ? shared_state(run) : &run->st;

    if (sh->napprovals)
        v->approval = find_call(run, sh->approvals, sh->napprovals, ref, ct);
    verdict(v, v->approval >= 0 ? TOOLGOV_GATE_ALLOW : TOOLGOV_GATE_NEEDS_APPROVAL,
            TOOLGOV__REFUSAL_NONE);
}

/* The gate: every decision about a call is made here, in the order of
** concerns run.h gives (ended run, unknown tool, replay, destructive
** approval, confirm-once set). Its inputs are the tool (ref, -1 when the
** name is unknown) and the argument text a replay, an approval or a listed
** confirmation must match. It only reads the run; it allocates nothing
** unless a text that is not canonical must be canonicalised (the query
** decoder's scratch, nothing once warm). */
HOT_PATH static inline void gate_rules(toolgov__verdict *v, const toolgov_run *run, long ref,
                                      call_text *ct)
{
    const toolgov__tool *t;

    v->idx = ref;
    v->approval = -1;
    v->held = -1;
    v->confirmed = -1;
    v->grant = -1;
    if (run->st.end != TOOLGOV_END_NONE || (run->parent && run_over(run->parent))) {
        verdict(v, TOOLGOV_GATE_REFUSE, TOOLGOV__REFUSAL_ENDED);
        return;
    }
    if (ref < 0) {
        verdict(v, TOOLGOV_GATE_REFUSE, TOOLGOV__REFUSAL_UNKNOWN);
        return;
    }
    t = toolgov__tool_at(run->reg, ref);
    if (answers_directly(run, ref, t) && run->st.nheld && (v->held = find_held(run, ref, ct)) >= 0) {
        verdict(v, TOOLGOV_GATE_REPLAY, TOOLGOV__REFUSAL_NONE);
        return;
    }
    if (t->effect == TOOLGOV_EFFECT_DESTRUCTIVE) {
        approval_rule(v, run, ref, ct);
        return;
    }
    if (in_confirm_once_set(run, ref)) {
        /* The common case, scope run in a host's run, decided in line. */
        if (run->pol->scope == TOOLGOV_CONFIRM_SCOPE_RUN && !run->parent)
            verdict(v, run->st.conf == TOOLGOV_CONFIRMATION_GIVEN     ? TOOLGOV_GATE_ALLOW
                       : run->st.conf == TOOLGOV_CONFIRMATION_REFUSED ? TOOLGOV_GATE_REFUSE
                                                                      : TOOLGOV_GATE_ASK_FIRST,
                    run->st.conf == TOOLGOV_CONFIRMATION_REFUSED ? TOOLGOV__REFUSAL_DECLINED
                                                                 : TOOLGOV__REFUSAL_NONE);
        else
            confirm_once_rule(v, run, ref, ct);
        return;
    }
    verdict(v, TOOLGOV_GATE_ALLOW, TOOLGOV__REFUSAL_NONE);
}

/* The rule "the user answered ahead of time" (grants.h): a never grant
** refuses the call whatever the rules above said; an allow answers where
** they would ask (a confirm-once write's confirmation; a destructive
** call's approval, for a grant of exactly that call). A refusal stays a
** refusal. The call's canonical arguments are made only when a grant
** names a call of this tool. */
COLD_PATH static void grant_rule(toolgov__verdict *v, const toolgov_run *run,
                                 const toolgov_grants *gs, call_text *ct)
{
    const toolgov__tool *t = toolgov__tool_at(run->reg, v->idx);
    toolgov_grant_verdict gv;
    const char *args = NULL;
    size_t args_len = 0;
    int exact;
    long gi;

    if (!toolgov__grants_any(gs, t, &exact))
        return;
    if (exact && canonicalise(run, v->idx, ct) == 0) {
        if (ct->len == ARGS_LEN_UNKNOWN)
            ct->len = strlen(ct->text);
        args = ct->text;
        args_len = ct->len;
    }
    gi = toolgov__grants_decide(gs, t, args, args_len, &gv);
    if (gi < 0)
        return;
    if (gv == TOOLGOV_GRANT_NEVER) {
        v->approval = v->held = v->confirmed = -1;
        v->grant = gi;
        verdict(v, TOOLGOV_GATE_REFUSE, TOOLGOV__REFUSAL_NEVER);
    } else if (v->gate == TOOLGOV_GATE_ASK_FIRST || v->gate == TOOLGOV_GATE_NEEDS_APPROVAL) {
        v->grant = gi;
        verdict(v, TOOLGOV_GATE_ALLOW, TOOLGOV__REFUSAL_NONE);
    }
}

/* The gate: the run's own rules, then the host's standing grants (one
** pointer test when it handed the run none). */
HOT_PATH static inline void gate_call(toolgov__verdict *v, const toolgov_run *run, long ref,
                                     call_text *ct)
{
    const toolgov_grants *gs;

    gate_rules(v, run, ref, ct);
    if (v->gate != TOOLGOV_GATE_REFUSE && (gs = run->parent ? grants_of(run) : run->grants))
        grant_rule(v, run, gs, ct);
}

/* The gate for a call as the host names it: tool name and JSON text. A
** child run also knows the tools declared for its plugin's own loop. */
HOT_PATH static inline void gate_named(toolgov__verdict *v, const toolgov_run *run, const char *tool,
                              call_text *ct)
{
    gate_call(v, run, run->parent ? lookup_any(run, tool) : lookup(run, tool), ct);
}

toolgov_gate toolgov_run_gate(const toolgov_run *run, const char *tool, const char *args)
{
    toolgov__verdict v;
    call_text ct;

    if (!run || !tool)
        return TOOLGOV_GATE_REFUSE;
    call_text_init(&ct, args, ARGS_LEN_UNKNOWN, 0);
    gate_named(&v, run, tool, &ct);
    return v.gate;
}

/* How many entries of a list are exactly this (canonical) call. */
static size_t count_calls(const toolgov__approval *v, size_t n, size_t idx, const char *args,
                          size_t args_len)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++)
        k += v[i].idx == idx && v[i].args_len == args_len &&
             memcmp(v[i].args, args, args_len) == 0;
    return k;
}

/* "Each entry lets one call run" within a batch: call i, allowed by an
** approval or a listed confirmation, still needs one when the calls before
** it in the batch that are the same call (same tool, same canonical
** arguments) would use up every matching entry first. */
static void batch_uses_entry(toolgov__verdict *v, const toolgov_run *run,
                             const toolgov_proposed_call *calls, size_t i)
{
    const toolgov__run_state *sh = shared_state(run);
    const toolgov__approval *e, *list;
    size_t j, n, before = 0;

    if (v->gate != TOOLGOV_GATE_ALLOW || (v->approval < 0 && v->confirmed < 0))
        return;
    list = v->approval >= 0 ? sh->approvals : sh->confirmed;
    n = v->approval >= 0 ? sh->napprovals : sh->nconfirmed;
    e = &list[v->approval >= 0 ? v->approval : v->confirmed];
    for (j = 0; j < i; j++) {
        call_text ct;
        long ref;

        if (!calls[j].tool)
            continue;
        ref = run->parent ? lookup_any(run, calls[j].tool) : lookup(run, calls[j].tool);
        if (ref != v->idx)
            continue;
        call_text_init(&ct, calls[j].args, ARGS_LEN_UNKNOWN, 0);
        before += find_call(run, e, 1, ref, &ct) == 0;
    }
    if (before < count_calls(list, n, e->idx, e->args, e->args_len))
        return;
    if (v->approval >= 0)
        verdict(v, TOOLGOV_GATE_NEEDS_APPROVAL, TOOLGOV__REFUSAL_NONE);
    else
        verdict(v, TOOLGOV_GATE_ASK_FIRST, TOOLGOV__REFUSAL_NONE);
}

/* A call of a batch the host must ask the user about: the one confirmation
** (each write the question lists) or its own approval. */
TOOLGOV__COLD static void audit_batch_call(const toolgov_run *run, const toolgov__verdict *v,
                             const toolgov_proposed_call *c, size_t i, size_t n)
{
    toolgov_audit_event ev;
    const char *args = c->args ? c->args : "{}";

    toolgov__audit_init(&ev,
                        v->gate == TOOLGOV_GATE_ASK_FIRST ? TOOLGOV_AUDIT_CONFIRM_ASKED
                                                          : TOOLGOV_AUDIT_APPROVAL_ASKED,
                        run, v->idx, c->tool, args, strlen(args), TOOLGOV_AUDIT_ARGS_AS_SENT);
    ev.batch_index = i;
    ev.batch_count = n;
    (void)toolgov__audit_emit(run, &ev);
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
        toolgov__verdict v;

        if (calls[i].tool) {
            call_text ct;

            call_text_init(&ct, calls[i].args, ARGS_LEN_UNKNOWN, 0);
            gate_named(&v, run, calls[i].tool, &ct);
            batch_uses_entry(&v, run, calls, i);
        } else {
            verdict(&v, TOOLGOV_GATE_REFUSE, TOOLGOV__REFUSAL_UNKNOWN);
        }
        if (run->audit && (v.gate == TOOLGOV_GATE_ASK_FIRST ||
                           v.gate == TOOLGOV_GATE_NEEDS_APPROVAL))
            audit_batch_call(run, &v, &calls[i], i, n);
        if (per_call)
            per_call[i] = v.gate;
        if (v.gate != TOOLGOV_GATE_REPLAY)
            all_replay = 0;
        switch (v.gate) {
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
    toolgov__run_state *sh;
    toolgov_confirmation want;

    if (!run)
        return TOOLGOV_EINVAL;
    if (run_over(run))
        return TOOLGOV_EENDED;
    /* Under scope listed a yes covers the calls it listed, which only
    ** toolgov_run_confirm_listed() is told; a no may still refuse them all. */
    if (yes && run->pol->scope == TOOLGOV_CONFIRM_SCOPE_LISTED)
        return TOOLGOV_EINVAL;
    sh = toolgov__shared(run);
    want = yes ? TOOLGOV_CONFIRMATION_GIVEN : TOOLGOV_CONFIRMATION_REFUSED;
    if (sh->conf == TOOLGOV_CONFIRMATION_PENDING) {
        if (run->audit) {
            /* Delivered before the answer counts: a sink that cannot
            ** record it stops it. */
            toolgov_audit_event ev;
            int rc;

            toolgov__audit_init(&ev, TOOLGOV_AUDIT_CONFIRM_ANSWERED, run, -1, NULL, NULL, 0,
                                TOOLGOV_AUDIT_ARGS_NONE);
            ev.answer = yes != 0;
            if ((rc = toolgov__audit_emit(run, &ev)) < 0)
                return rc;
        }
        sh->conf = want;
        return 0;
    }
    return sh->conf == want ? 0 : TOOLGOV_EINVAL;
}

toolgov_confirmation toolgov_run_confirmation(const toolgov_run *run)
{
    return run ? toolgov__run_confirmation(run) : TOOLGOV_CONFIRMATION_PENDING;
}

/* Drop entries from the end of a list of calls until `keep` remain. */
static void calls_truncate(const toolgov_allocator *a, toolgov__approval *v, size_t *n,
                           size_t keep)
{
    while (*n > keep) {
        (*n)--;
        toolgov__free(a, v[*n].args, v[*n].args_len + 1);
    }
}

/* Append a call (tool ref and canonical text, copied) to a list. */
static int calls_add(const toolgov_allocator *a, toolgov__approval **v, size_t *n, size_t *cap,
                     long ref, const char *args, size_t args_len)
{
    char *copy;
    int rc = toolgov__reserve(a, (void **)v, cap, *n + 1, sizeof **v);

    if (rc < 0)
        return rc;
    copy = toolgov__memdup(a, args, args_len);
    if (!copy)
        return TOOLGOV_ENOMEM;
    (*v)[*n].idx = (size_t)ref;
    (*v)[*n].args = copy;
    (*v)[*n].args_len = args_len;
    (*n)++;
    return 0;
}

int toolgov_run_confirm_listed(toolgov_run *run, int yes, const toolgov_proposed_call *calls,
                               size_t n)
{
    const toolgov_allocator *a;
    toolgov__run_state *sh;
    toolgov__approval **list;
    size_t *count, *cap, n0, i;
    int rc = 0;

    if (!run || (n && !calls))
        return TOOLGOV_EINVAL;
    if (run_over(run))
        return TOOLGOV_EENDED;
    if (run->pol->scope == TOOLGOV_CONFIRM_SCOPE_RUN)
        return toolgov_run_confirm(run, yes);
    sh = toolgov__shared(run);
    if (sh->conf == TOOLGOV_CONFIRMATION_REFUSED)
        return yes ? TOOLGOV_EINVAL : 0;
    a = &run->reg->alloc;
    list = yes ? &sh->confirmed : &sh->declined;
    count = yes ? &sh->nconfirmed : &sh->ndeclined;
    cap = yes ? &sh->confirmed_cap : &sh->declined_cap;
    n0 = *count;
    for (i = 0; i < n; i++) {
        toolgov_decoded_args d;
        long ref;

        if (!calls[i].tool) {
            rc = TOOLGOV_EINVAL;
            break;
        }
        ref = lookup_any(run, calls[i].tool);
        if (ref < 0) {
            rc = TOOLGOV_ENOENT;
            break;
        }
        /* Only the calls the question is about: others never ask. */
        if (toolgov__tool_at(run->reg, ref)->effect == TOOLGOV_EFFECT_DESTRUCTIVE ||
            !in_confirm_once_set(run, ref))
            continue;
        run_decode_args(&d, run->qdec, toolgov__tool_at(run->reg, ref), calls[i].args,
                        calls[i].args ? strlen(calls[i].args) : 0, &rc);
        if (rc < 0)
            break;
        /* Delivered before the answer counts, one event per listed call. */
        if (run->audit) {
            toolgov_audit_event ev;

            toolgov__audit_init(&ev, TOOLGOV_AUDIT_CONFIRM_ANSWERED, run, ref, NULL,
                                d.canonical, d.canonical_len, TOOLGOV_AUDIT_ARGS_CANONICAL);
            ev.answer = yes != 0;
            if ((rc = toolgov__audit_emit(run, &ev)) < 0)
                break;
        }
        if ((rc = calls_add(a, list, count, cap, ref, d.canonical, d.canonical_len)) < 0)
            break;
    }
    if (rc < 0)
        calls_truncate(a, *list, count, n0);
    return rc;
}

/* Arguments the tool's parameters refuse, with the message for the model. */
TOOLGOV__COLD static void audit_args_error(const toolgov_run *run, long idx, const char *tool,
                             const char *args, const toolgov_decoded_call *dc)
{
    toolgov_audit_event ev;

    if (!args)
        args = "{}";
    toolgov__audit_init(&ev, TOOLGOV_AUDIT_ARGS_ERROR, run, idx, tool, args, strlen(args),
                        TOOLGOV_AUDIT_ARGS_AS_SENT);
    ev.status = TOOLGOV_EARGS;
    ev.message = dc->message;
    (void)toolgov__audit_emit(run, &ev);
}

int toolgov_run_approve(toolgov_run *run, const char *tool, const char *args)
{
    toolgov__run_state *sh;
    long idx;
    int rc;

    /* busy: the run's decoder holds the arguments its handler is reading
    ** (a plugin's own loop approves through its child instead). */
    if (!run || !tool || run->busy)
        return TOOLGOV_EINVAL;
    if (run_over(run))
        return TOOLGOV_EENDED;
    idx = lookup_any(run, tool);
    if (idx < 0)
        return TOOLGOV_ENOENT;
    if (toolgov__tool_at(run->reg, idx)->effect != TOOLGOV_EFFECT_DESTRUCTIVE)
        return TOOLGOV_EINVAL;
    sh = toolgov__shared(run);
    /* The approval is for the call's canonical arguments, so any spelling
    ** of the same call is covered and no other call is. */
    {
        toolgov_decoded_call dc;

        rc = decode_ref(&dc, run, idx, args, args ? strlen(args) : 0);
        run->cur_args = NULL;
        if (rc == TOOLGOV_EARGS && run->audit)
            audit_args_error(run, idx, tool, args, &dc);
        if (rc < 0)
            return rc;
        /* Delivered before the approval is kept: a sink that cannot record
        ** it stops it. */
        if (run->audit && (rc = audit_call(run, TOOLGOV_AUDIT_APPROVAL_GRANTED, idx, tool,
                                           dc.args, dc.args_len, TOOLGOV_AUDIT_ARGS_CANONICAL,
                                           TOOLGOV_AUDIT_REASON_NONE, 0)) < 0)
            return rc;
        return calls_add(&run->reg->alloc, &sh->approvals, &sh->napprovals,
                         &sh->approvals_cap, idx, dc.args, dc.args_len);
    }
}

size_t toolgov_run_pending_approvals(const toolgov_run *run)
{
    return run ? toolgov__run_pending_approvals(run) : 0;
}

void toolgov_run_set_evaluator(toolgov_run *run, toolgov_evaluator_fn fn, void *ud)
{
    if (!run)
        return;
    run->eval = fn;
    run->eval_ud = fn ? ud : NULL;
}

/* ---- invocation ---- */

/* The run is over (run->st.end says how). */
TOOLGOV__COLD static void audit_ended(const toolgov_run *run)
{
    toolgov_audit_event ev;

    toolgov__audit_init(&ev, TOOLGOV_AUDIT_RUN_ENDED, run, -1, NULL, NULL, 0,
                        TOOLGOV_AUDIT_ARGS_NONE);
    ev.end = run->st.end;
    (void)toolgov__audit_emit(run, &ev);
}

/* A decoded call the gate did not allow: replayed, waiting for the
** confirmation, or refused (rc is what the invoke returns). */
TOOLGOV__COLD static void audit_not_allowed(const toolgov_run *run, const toolgov__verdict *v,
                              const toolgov_decoded_call *call, int rc)
{
    toolgov_audit_event ev;

    switch (v->gate) {
    case TOOLGOV_GATE_REPLAY:
        toolgov__audit_init(&ev, TOOLGOV_AUDIT_REPLAYED, run, v->idx, NULL, call->args,
                            call->args_len, TOOLGOV_AUDIT_ARGS_CANONICAL);
        ev.output_len = run->st.held[v->held].out_len;
        (void)toolgov__audit_emit(run, &ev);
        return;
    case TOOLGOV_GATE_ASK_FIRST:
        (void)audit_call(run, TOOLGOV_AUDIT_CONFIRM_ASKED, v->idx, NULL, call->args,
                         call->args_len, TOOLGOV_AUDIT_ARGS_CANONICAL,
                         TOOLGOV_AUDIT_REASON_NONE, 0);
        return;
    case TOOLGOV_GATE_NEEDS_APPROVAL:
        (void)audit_call(run, TOOLGOV_AUDIT_REFUSED, v->idx, NULL, call->args, call->args_len,
                         TOOLGOV_AUDIT_ARGS_CANONICAL, TOOLGOV_AUDIT_REASON_NOT_APPROVED, rc);
        return;
    case TOOLGOV_GATE_REFUSE:
        if (v->grant >= 0) {
            (void)audit_granted(run, TOOLGOV_AUDIT_REFUSED, v, call->args, call->args_len, rc);
            return;
        }
        (void)audit_call(run, TOOLGOV_AUDIT_REFUSED, v->idx, call->tool, call->args,
                         call->args_len, TOOLGOV_AUDIT_ARGS_CANONICAL, audit_reason(v->refusal),
                         rc);
        return;
    case TOOLGOV_GATE_ALLOW:
        break;
    }
}

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

static void calls_remove(const toolgov_allocator *a, toolgov__approval *v, size_t *n, size_t i)
{
    toolgov__free(a, v[i].args, v[i].args_len + 1);
    memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof *v);
    (*n)--;
}

/* The rule "one approval lets one call run": the approval the gate found
** for an allowed destructive call is used up before its handler runs. */
static void consume_approval(toolgov_run *run, const toolgov__verdict *v)
{
    toolgov__run_state *sh = toolgov__shared(run);

    if (v->approval >= 0)
        calls_remove(&run->reg->alloc, sh->approvals, &sh->napprovals, (size_t)v->approval);
}

/* The rule "a listed yes covers each listed call once" (scope listed): the
** confirmed call the gate found is used up before its handler runs. */
static void consume_confirmation(toolgov_run *run, const toolgov__verdict *v)
{
    toolgov__run_state *sh = toolgov__shared(run);

    if (v->confirmed >= 0)
        calls_remove(&run->reg->alloc, sh->confirmed, &sh->nconfirmed, (size_t)v->confirmed);
}

/* Room to keep an answers-directly result in hand, and a copy of its
** arguments, taken before the handler runs so keeping the result cannot
** fail afterwards. */
static int hold_room(toolgov_run *run, const char *args, size_t args_len, char **copy)
{
    const toolgov_allocator *a = &run->reg->alloc;
    int rc = toolgov__reserve(a, (void **)&run->st.held, &run->st.held_cap,
                              run->st.nheld + 1, sizeof *run->st.held);

    if (rc < 0)
        return rc;
    *copy = toolgov__memdup(a, args, args_len);
    return *copy ? 0 : TOOLGOV_ENOMEM;
}

/* The rule "an answers-directly result is kept for replay": the result
** buffer becomes the result in hand (the run gets a new, lazily allocated
** one), so keeping it cannot fail. Returns the held slot. */
static size_t hold_answer(toolgov_run *run, long idx, char *args_copy, size_t args_len)
{
    size_t hi = run->st.nheld++;
    toolgov__held *h = &run->st.held[hi];

    h->idx = (size_t)idx;
    h->args = args_copy;
    h->args_len = args_len;
    h->out = run->result.b.ptr;
    h->out_len = run->result.b.len;
    h->out_cap = run->result.b.cap;
    toolgov__result_init(&run->result, &run->reg->alloc);
    return hi;
}

/* The rule "the run's first executed tool counts" (ask_user does not): 1
** when the call about to run is the run's first. */
static int take_first(toolgov_run *run, long idx)
{
    int first;

    if (idx == TOOLGOV__BUILTIN_ASK_USER)
        return 0;
    first = !run->st.first_done;
    run->st.first_done = 1;
    return first;
}

/* The rule "a run ends on an answers-directly first tool": when the run's
** first executed tool held a non-empty result, the run ends on it, unless
** the evaluator keeps it going. 1 when the run ended. */
static int end_if_answered(toolgov_run *run, int first, const toolgov_call *call,
                           size_t hi)
{
    int ends = 1;

    if (!first || run->st.held[hi].out_len == 0)
        return 0;
    if (run->eval) {
        run->busy = 1;
        ends = run->eval(run->eval_ud, call, run->st.held[hi].out,
                         run->st.held[hi].out_len) != 0;
        run->busy = 0;
    }
    if (ends) {
        run->st.end = TOOLGOV_END_ANSWERED_DIRECTLY;
        run->st.answer = (long)hi;
    }
    return ends;
}

/* The code for each reason of a refusal: an ended run, a name the pool
** does not have (a plugin not mounted, say), a standing never, a write
** after the user's no. */
static int refuse(toolgov_outcome *out, toolgov__refusal why)
{
    int rc = why == TOOLGOV__REFUSAL_ENDED     ? TOOLGOV_EENDED
             : why == TOOLGOV__REFUSAL_UNKNOWN ? TOOLGOV_ENOENT
             : why == TOOLGOV__REFUSAL_NEVER   ? TOOLGOV_ENEVER
                                               : TOOLGOV_EREFUSED;

    outcome(out, TOOLGOV_GATE_REFUSE, 0, rc, NULL, 0, 0);
    return rc;
}

/* A call the gate did not allow: the result in hand for a replay, or the
** code that says what the host must do. Nothing runs. */
static int answer_without_running(toolgov_outcome *out, const toolgov_run *run,
                                  const toolgov__verdict *v)
{
    switch (v->gate) {
    case TOOLGOV_GATE_REPLAY: {
        const toolgov__held *h = &run->st.held[v->held];

        outcome(out, v->gate, 0, 0, h->out ? h->out : "", h->out_len, 0);
        return 0;
    }
    case TOOLGOV_GATE_ASK_FIRST:
        outcome(out, v->gate, 0, TOOLGOV_ECONFIRM, NULL, 0, 0);
        return TOOLGOV_ECONFIRM;
    case TOOLGOV_GATE_NEEDS_APPROVAL:
        outcome(out, v->gate, 0, TOOLGOV_EAPPROVAL, NULL, 0, 0);
        return TOOLGOV_EAPPROVAL;
    case TOOLGOV_GATE_ALLOW:
    case TOOLGOV_GATE_REFUSE:
        break;
    }
    return refuse(out, v->refusal);
}

/* A handler returned; when the run ended on its output, the end too. */
TOOLGOV__COLD static void audit_executed(const toolgov_run *run, long idx, const char *args, size_t args_len,
                           int status, size_t output_len, int ended)
{
    toolgov_audit_event ev;

    toolgov__audit_init(&ev, TOOLGOV_AUDIT_EXECUTED, run, idx, NULL, args, args_len,
                        TOOLGOV_AUDIT_ARGS_CANONICAL);
    ev.status = status;
    ev.output_len = output_len;
    ev.ended = ended;
    (void)toolgov__audit_emit(run, &ev);
    if (ended)
        audit_ended(run);
}

/* Run a call the gate allowed. Anything the run must remember about it (a
** used-up approval, room for the result in hand) is settled before the
** handler runs. */
static int run_allowed(toolgov_outcome *out, toolgov_run *run, const toolgov__verdict *v,
                       const char *args, size_t args_len, const void *decoded,
                       toolgov_handler_fn handler)
{
    const toolgov__tool *t = toolgov__tool_at(run->reg, v->idx);
    char *args_copy = NULL;
    toolgov_call call;
    size_t hi;
    int first, ended, rc;

    if (!handler) {
        if (run->audit)
            (void)audit_call(run, TOOLGOV_AUDIT_REFUSED, v->idx, NULL, args, args_len,
                             TOOLGOV_AUDIT_ARGS_CANONICAL, TOOLGOV_AUDIT_REASON_NO_HANDLER,
                             TOOLGOV_ENOHANDLER);
        outcome(out, v->gate, 0, TOOLGOV_ENOHANDLER, NULL, 0, 0);
        return TOOLGOV_ENOHANDLER;
    }
    if (answers_directly(run, (long)v->idx, t) &&
        (rc = hold_room(run, args, args_len, &args_copy)) < 0) {
        outcome(out, v->gate, 0, rc, NULL, 0, 0);
        return rc;
    }
    /* Delivered before the handler runs: a sink that cannot record the
    ** call stops it. */
    if (run->audit &&
        (rc = v->grant >= 0 ? audit_granted(run, TOOLGOV_AUDIT_ALLOWED, v, args, args_len, 0)
                            : audit_call(run, TOOLGOV_AUDIT_ALLOWED, v->idx, NULL, args,
                                         args_len, TOOLGOV_AUDIT_ARGS_CANONICAL,
                                         TOOLGOV_AUDIT_REASON_NONE, 0)) < 0) {
        toolgov__free(&run->reg->alloc, args_copy, args_len + 1);
        outcome(out, v->gate, 0, rc, NULL, 0, 0);
        return rc;
    }
    consume_approval(run, v);
    if (run->audit && v->approval >= 0)
        (void)audit_call(run, TOOLGOV_AUDIT_APPROVAL_CONSUMED, v->idx, NULL, args, args_len,
                         TOOLGOV_AUDIT_ARGS_CANONICAL, TOOLGOV_AUDIT_REASON_NONE, 0);
    consume_confirmation(run, v);
    first = take_first(run, v->idx);

    toolgov__result_clear(&run->result);
    call.tool = t->name;
    call.args = args;
    call.args_len = args_len;
    call.plugin_ctx = t->ctx;
    call.run_ctx = run->run_ctx;
    call.run = run;
    run->busy = 1;
    rc = handler(&call, decoded, &run->result);
    run->busy = 0;
    if (rc > 0)
        rc = TOOLGOV_EHANDLER; /* a handler must return 0 or a negative code */

    if (rc == 0 && answers_directly(run, (long)v->idx, t)) {
        const toolgov__held *h;

        hi = hold_answer(run, v->idx, args_copy, args_len);
        ended = end_if_answered(run, first, &call, hi);
        h = &run->st.held[hi];
        if (run->audit)
            audit_executed(run, v->idx, args, args_len, 0, h->out_len, ended);
        outcome(out, v->gate, 1, 0, h->out ? h->out : "", h->out_len, ended);
        return 0;
    }
    toolgov__free(&run->reg->alloc, args_copy, args_len + 1);
    if (run->audit)
        audit_executed(run, v->idx, args, args_len, rc, run->result.b.len, 0);
    outcome(out, v->gate, 1, rc, toolgov_result_text(&run->result), run->result.b.len, 0);
    return rc;
}

/* ---- decoding ---- */

/* Decode a call of tool t with dec: its parameters when its row has them.
** Sets *rc and returns the message (for TOOLGOV_EARGS). */
static const char *run_decode_args(toolgov_decoded_args *d, toolgov_args_decoder *dec,
                                   const toolgov__tool *t, const char *args, size_t len,
                                   int *rc)
{
    /* A tool without parameters (params NULL) takes no arguments: the
    ** decoder lets only {}, "" or no text through (SPEC §9). */
    *rc = toolgov__args_decode_prep(d, dec, toolgov__spec_params(t->spec), t->prep, t->name,
                                    args, args ? len : 0);
    return d->message;
}

static void decoded_clear(toolgov_decoded_call *out)
{
    out->tool = NULL;
    out->args = "";
    out->args_len = 0;
    out->decoded = NULL;
    out->message = "";
    out->message_len = 0;
    out->seq = 0;
}

/* Decode a call of tool ref (-1: unknown) with the run's own decoder; it
** becomes the run's current decoded call. */
static int decode_ref(toolgov_decoded_call *out, toolgov_run *run, long idx,
                      const char *args, size_t len)
{
    toolgov_decoded_args d;
    const toolgov__tool *t;
    int rc;

    decoded_clear(out);
    run->cur_args = NULL;
    run->seq++;
    if (idx < 0)
        return TOOLGOV_ENOENT;
    t = toolgov__tool_at(run->reg, idx);
    run_decode_args(&d, run->dec, t, args, len, &rc);
    out->message = d.message;
    out->message_len = d.message_len;
    if (rc < 0)
        return rc;
    out->tool = t->name;
    out->args = d.canonical;
    out->args_len = d.canonical_len;
    out->decoded = d.args;
    out->seq = run->seq;
    run->cur_idx = idx;
    run->cur_args = d.canonical;
    return 0;
}

int toolgov_run_decode(toolgov_decoded_call *out, toolgov_run *run, const char *tool,
                       const char *args, size_t len)
{
    if (!out)
        return TOOLGOV_EINVAL;
    decoded_clear(out);
    if (!run || !tool || run->busy)
        return TOOLGOV_EINVAL;
    return decode_ref(out, run, lookup(run, tool), args, len);
}

/* 1 when `call` is the run's current decoded call. */
static int is_current(const toolgov_run *run, const toolgov_decoded_call *call)
{
    return call && run->cur_args && call->seq == run->seq && call->args == run->cur_args;
}

toolgov_gate toolgov_run_gate_decoded(const toolgov_run *run, const toolgov_decoded_call *call)
{
    toolgov__verdict v;
    call_text ct;

    if (!run || !is_current(run, call))
        return TOOLGOV_GATE_REFUSE;
    call_text_init(&ct, call->args, call->args_len, 1);
    gate_call(&v, run, run->cur_idx, &ct);
    return v.gate;
}

int toolgov_run_invoke_decoded(toolgov_outcome *out, toolgov_run *run,
                               const toolgov_decoded_call *call)
{
    toolgov__verdict v;
    call_text ct;

    if (!run || run->busy || !is_current(run, call)) {
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EINVAL, NULL, 0, 0);
        return TOOLGOV_EINVAL;
    }
    /* The decoded call is used up by this invoke (its memory is the next
    ** decode's), but stays readable while the handler runs: a handler
    ** cannot decode on its own run. */
    run->cur_args = NULL;
    call_text_init(&ct, call->args, call->args_len, 1);
    gate_call(&v, run, run->cur_idx, &ct);
    if (v.gate != TOOLGOV_GATE_ALLOW) {
        int rc = answer_without_running(out, run, &v);

        if (run->audit)
            audit_not_allowed(run, &v, call, rc);
        return rc;
    }
    return run_allowed(out, run, &v, call->args, call->args_len, call->decoded,
                       run->cur_idx >= TOOLGOV__DECLARED_REF ? run->bound
                                                             : toolgov__tool_at(run->reg, run->cur_idx)->handler);
}

int toolgov_run_invoke(toolgov_outcome *out, toolgov_run *run, const char *tool,
                       const char *args)
{
    toolgov_decoded_call dc;
    int rc;

    if (!run || !tool || run->busy) {
        /* busy: a handler or evaluator calling back into its own run would
        ** write over the output being produced. */
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EINVAL, NULL, 0, 0);
        return TOOLGOV_EINVAL;
    }
    if (run_over(run)) {
        if (run->audit)
            (void)audit_call(run, TOOLGOV_AUDIT_REFUSED, lookup(run, tool), tool,
                             args ? args : "{}", args ? strlen(args) : 2,
                             TOOLGOV_AUDIT_ARGS_AS_SENT, TOOLGOV_AUDIT_REASON_ENDED,
                             TOOLGOV_EENDED);
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EENDED, NULL, 0, 0);
        return TOOLGOV_EENDED;
    }
    /* Decoding comes first: an unknown tool or invalid arguments never
    ** reach the gate or a handler, and do not count as the run's first
    ** tool. The refusal's message is the outcome's output. */
    rc = toolgov_run_decode(&dc, run, tool, args, args ? strlen(args) : 0);
    if (rc < 0) {
        if (run->audit && rc == TOOLGOV_EARGS)
            audit_args_error(run, lookup(run, tool), tool, args, &dc);
        else if (run->audit && rc == TOOLGOV_ENOENT)
            (void)audit_call(run, TOOLGOV_AUDIT_REFUSED, -1, tool, args ? args : "{}",
                             args ? strlen(args) : 2, TOOLGOV_AUDIT_ARGS_AS_SENT,
                             TOOLGOV_AUDIT_REASON_UNKNOWN_TOOL, rc);
        outcome(out, TOOLGOV_GATE_REFUSE, 0, rc, rc == TOOLGOV_EARGS ? dc.message : NULL,
                dc.message_len, 0);
        return rc;
    }
    return toolgov_run_invoke_decoded(out, run, &dc);
}

int toolgov_run_invoke_declared(toolgov_outcome *out, toolgov_run *run,
                                const toolgov_tool_spec *spec, toolgov_handler_fn handler,
                                const char *args)
{
    toolgov_decoded_call dc;
    size_t i;
    long ref = -1;
    int rc;

    if (!run || !spec || !handler || !run->parent || run->busy) {
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EINVAL, NULL, 0, 0);
        return TOOLGOV_EINVAL;
    }
    if (run_over(run)) {
        outcome(out, TOOLGOV_GATE_REFUSE, 0, TOOLGOV_EENDED, NULL, 0, 0);
        return TOOLGOV_EENDED;
    }
    /* Only a spec a mounted plugin declared: its effect is the manifest's.
    ** A tool both pooled and declared (loop: both) is the pooled one, so
    ** an approval or a result in hand is the same whichever loop asks. */
    for (i = 0; i < run->reg->ndeclared; i++)
        if (run->reg->declared[i].spec == spec) {
            long k = toolgov__registry_index(run->reg, spec->name, strlen(spec->name));
            ref = k >= 0 && run->reg->tools[k].spec == spec ? k : TOOLGOV__DECLARED_REF + (long)i;
            break;
        }
    rc = decode_ref(&dc, run, ref, args, args ? strlen(args) : 0);
    if (rc < 0) {
        outcome(out, TOOLGOV_GATE_REFUSE, 0, rc, rc == TOOLGOV_EARGS ? dc.message : NULL,
                dc.message_len, 0);
        return rc;
    }
    run->bound = handler;
    rc = toolgov_run_invoke_decoded(out, run, &dc);
    run->bound = NULL;
    return rc;
}

int toolgov_run_end(toolgov_run *run)
{
    if (!run)
        return TOOLGOV_EINVAL;
    if (run_over(run))
        return TOOLGOV_EENDED;
    run->st.end = TOOLGOV_END_HOST;
    if (run->audit)
        audit_ended(run);
    return 0;
}

toolgov_end_reason toolgov_run_end_reason(const toolgov_run *run)
{
    /* A child is over when it or a run above it ended: the nearest end. */
    for (; run; run = run->parent)
        if (run->st.end != TOOLGOV_END_NONE)
            return run->st.end;
    return TOOLGOV_END_NONE;
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
