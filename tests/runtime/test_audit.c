/* SPDX-License-Identifier: MIT */
/*
** test_audit.c: the audit trail of a run (audit.h). Every event kind with
** its fields, from the calls that emit it; the gate query that emits
** nothing; digests, plain and keyed; the events that fail closed; the JSON
** form (golden, every cut, escaping) and the JSON-lines writer, including a
** stream that refuses writes and a sweep of its allocation failures. With
** TOOLGOV_AUDIT_JSONL_OUT set, a whole run's log is also written there for
** tests/runtime/check_audit_jsonl.py to read back with a strict parser.
*/
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <toolgov/audit.h>

#include "fixture_run.h"

/* ---- a recording observer ---- */

typedef struct rec_event {
    toolgov_audit_kind kind;
    unsigned long long seq;
    long long time_sec;
    char run_id[TOOLGOV_AUDIT_RUN_ID_MAX + 1];
    char decision[32];
    int has_tool;
    char tool[64];
    char plugin[64]; /* "" for NULL */
    int has_plugin;
    int effect;
    char args[256];
    toolgov_audit_args_form args_form;
    toolgov_audit_reason reason;
    int status, answer, ended;
    size_t output_len;
    toolgov_end_reason end;
    char message[256];
    size_t batch_index, batch_count;
    toolgov_confirmation confirmation;
    size_t approvals;
    int child;
} rec_event;

typedef struct recorder {
    rec_event ev[64];
    size_t n;
    toolgov_audit_kind fail_on; /* 0: never */
    int fail_rc;
    toolgov_audit_jsonl *also;  /* when set, each event goes there too */
} recorder;

static void copy(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;

    ck_assert_uint_lt(n, cap);
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

static int record(void *ud, const toolgov_audit_event *ev)
{
    recorder *r = ud;
    rec_event *e;

    ck_assert_uint_lt(r->n, sizeof r->ev / sizeof r->ev[0]);
    e = &r->ev[r->n++];
    memset(e, 0, sizeof *e);
    e->kind = ev->kind;
    e->seq = ev->seq;
    e->time_sec = ev->time_sec;
    ck_assert_ptr_nonnull(ev->run_id);
    copy(e->run_id, sizeof e->run_id, ev->run_id);
    ck_assert_ptr_nonnull(ev->decision);
    copy(e->decision, sizeof e->decision, ev->decision);
    e->has_tool = ev->tool != NULL;
    copy(e->tool, sizeof e->tool, ev->tool);
    e->has_plugin = ev->plugin != NULL;
    copy(e->plugin, sizeof e->plugin, ev->plugin);
    e->effect = ev->effect;
    if (ev->args) {
        ck_assert_uint_eq(strlen(ev->args), ev->args_len);
        copy(e->args, sizeof e->args, ev->args);
    }
    e->args_form = ev->args_form;
    e->reason = ev->reason;
    e->status = ev->status;
    e->answer = ev->answer;
    e->ended = ev->ended;
    e->output_len = ev->output_len;
    e->end = ev->end;
    copy(e->message, sizeof e->message, ev->message);
    e->batch_index = ev->batch_index;
    e->batch_count = ev->batch_count;
    e->confirmation = ev->confirmation;
    e->approvals = ev->approvals;
    e->child = ev->child;
    if (r->also)
        ck_assert_int_eq(toolgov_audit_jsonl_observe(r->also, ev), 0);
    return r->fail_on && ev->kind == r->fail_on ? r->fail_rc : 0;
}

static void observe(env *e, recorder *r, const char *id, unsigned flags,
                    const unsigned char *key)
{
    toolgov_audit_options o;

    memset(&o, 0, sizeof o);
    o.observer = record;
    o.ud = r;
    o.run_id = id;
    o.flags = flags;
    o.digest_key = key;
    ck_assert_int_eq(toolgov_run_set_audit(e->run, &o), 0);
}

/* The i-th event is of `kind` about `tool` (NULL: a run event). */
static const rec_event *expect(const recorder *r, size_t i, toolgov_audit_kind kind,
                               const char *tool, const char *decision)
{
    const rec_event *e;

    ck_assert_uint_lt(i, r->n);
    e = &r->ev[i];
    ck_assert_str_eq(toolgov_audit_kind_name(e->kind), toolgov_audit_kind_name(kind));
    ck_assert_uint_eq(e->seq, i + 1);
    ck_assert_str_eq(e->decision, decision);
    ck_assert_int_eq(e->has_tool, tool != NULL);
    if (tool)
        ck_assert_str_eq(e->tool, tool);
    else
        ck_assert_int_eq(e->args_form, TOOLGOV_AUDIT_ARGS_NONE);
    return e;
}

/* The whole trail of one run, in the order a host drives it. Also the
** scenario the JSON-lines file holds. */
static void drive(env *e, recorder *r)
{
    static const toolgov_proposed_call batch[] = {
        {"make_note", "{\"b\":1, \"a\":2}"}, {"purge", NULL}, {"lookup", "{}"}};
    toolgov_outcome oc;
    toolgov_gate g;

    /* 1-2: a batch lists the write for the confirmation and the
    ** destructive call for its approval; the read is not an event. */
    ck_assert_int_eq(toolgov_run_gate_batch(&g, NULL, NULL, NULL, e->run, batch, 3), 0);
    ck_assert_int_eq(g, TOOLGOV_GATE_ASK_FIRST);
    /* The pure gate query emits nothing. */
    ck_assert_int_eq(toolgov_run_gate(e->run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_uint_eq(r->n, 2);
    /* 3: an invoke that stops on the confirmation. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "make_note", "{\"b\":1, \"a\":2}"),
                     TOOLGOV_ECONFIRM);
    /* 4: the answer. */
    ck_assert_int_eq(toolgov_run_confirm(e->run, 1), 0);
    ck_assert_int_eq(toolgov_run_confirm(e->run, 1), 0); /* no change, no event */
    /* 5-6: allowed, executed. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "make_note", "{\"b\":1, \"a\":2}"), 0);
    /* 7: not approved. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "purge", NULL), TOOLGOV_EAPPROVAL);
    /* 8: granted; 9-11: allowed, consumed, executed. */
    ck_assert_int_eq(toolgov_run_approve(e->run, "purge", "{ }"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "purge", "{}"), 0);
    /* 12: unknown tool; 13: bad arguments (on invoke), 14 (on approve). */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "nosuch", "{\"x\":1}"), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "lookup", "[1]"), TOOLGOV_EARGS);
    ck_assert_int_eq(toolgov_run_approve(e->run, "purge", "nope"), TOOLGOV_EARGS);
    /* 15-16: a handler that fails. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "lookup", "{\"fail\":1}"),
                     TOOLGOV_EHANDLER);
    /* 17-18: an answers-directly tool later in the run, 19: its replay. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.ended, 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    /* 20: the host ends the run; 21: a call after the end. */
    ck_assert_int_eq(toolgov_run_end(e->run), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e->run, "lookup", "{}"), TOOLGOV_EENDED);
    ck_assert_uint_eq(r->n, 21);
}

START_TEST(every_event_of_a_run)
{
    env e;
    recorder r;
    const rec_event *x;
    size_t i;

    memset(&r, 0, sizeof r);
    env_open(&e, NULL);
    ck_assert_ptr_null(toolgov_run_audit_id(e.run));
    observe(&e, &r, "run-7", 0, NULL);
    ck_assert_str_eq(toolgov_run_audit_id(e.run), "run-7");
    drive(&e, &r);

    x = expect(&r, 0, TOOLGOV_AUDIT_CONFIRM_ASKED, "make_note", "ASK_FIRST");
    ck_assert_str_eq(x->plugin, "alpha");
    ck_assert_int_eq(x->effect, TOOLGOV_EFFECT_WRITE);
    ck_assert_str_eq(x->args, "{\"b\":1, \"a\":2}");
    ck_assert_int_eq(x->args_form, TOOLGOV_AUDIT_ARGS_AS_SENT);
    ck_assert_uint_eq(x->batch_index, 0);
    ck_assert_uint_eq(x->batch_count, 3);
    ck_assert_int_eq(x->confirmation, TOOLGOV_CONFIRMATION_PENDING);
    x = expect(&r, 1, TOOLGOV_AUDIT_APPROVAL_ASKED, "purge", "NEEDS_APPROVAL");
    ck_assert_int_eq(x->effect, TOOLGOV_EFFECT_DESTRUCTIVE);
    ck_assert_str_eq(x->args, "{}");
    ck_assert_uint_eq(x->batch_index, 1);
    x = expect(&r, 2, TOOLGOV_AUDIT_CONFIRM_ASKED, "make_note", "ASK_FIRST");
    ck_assert_str_eq(x->args, "{\"a\":2,\"b\":1}");
    ck_assert_int_eq(x->args_form, TOOLGOV_AUDIT_ARGS_CANONICAL);
    ck_assert_uint_eq(x->batch_count, 0);
    x = expect(&r, 3, TOOLGOV_AUDIT_CONFIRM_ANSWERED, NULL, "yes");
    ck_assert_int_eq(x->answer, 1);
    ck_assert_int_eq(x->confirmation, TOOLGOV_CONFIRMATION_GIVEN);
    x = expect(&r, 4, TOOLGOV_AUDIT_ALLOWED, "make_note", "ALLOW");
    ck_assert_str_eq(x->args, "{\"a\":2,\"b\":1}");
    x = expect(&r, 5, TOOLGOV_AUDIT_EXECUTED, "make_note", "ALLOW");
    ck_assert_int_eq(x->status, 0);
    ck_assert_uint_eq(x->output_len, strlen("make_note {\"a\":2,\"b\":1}"));
    x = expect(&r, 6, TOOLGOV_AUDIT_REFUSED, "purge", "NEEDS_APPROVAL");
    ck_assert_int_eq(x->reason, TOOLGOV_AUDIT_REASON_NOT_APPROVED);
    ck_assert_int_eq(x->status, TOOLGOV_EAPPROVAL);
    x = expect(&r, 7, TOOLGOV_AUDIT_APPROVAL_GRANTED, "purge", "granted");
    ck_assert_str_eq(x->args, "{}");
    ck_assert_uint_eq(x->approvals, 1);
    x = expect(&r, 8, TOOLGOV_AUDIT_ALLOWED, "purge", "ALLOW");
    ck_assert_uint_eq(x->approvals, 1);
    x = expect(&r, 9, TOOLGOV_AUDIT_APPROVAL_CONSUMED, "purge", "ALLOW");
    ck_assert_uint_eq(x->approvals, 0);
    expect(&r, 10, TOOLGOV_AUDIT_EXECUTED, "purge", "ALLOW");
    x = expect(&r, 11, TOOLGOV_AUDIT_REFUSED, "nosuch", "REFUSE");
    ck_assert_int_eq(x->reason, TOOLGOV_AUDIT_REASON_UNKNOWN_TOOL);
    ck_assert_int_eq(x->has_plugin, 0);
    ck_assert_int_eq(x->effect, -1);
    ck_assert_str_eq(x->args, "{\"x\":1}");
    ck_assert_int_eq(x->args_form, TOOLGOV_AUDIT_ARGS_AS_SENT);
    ck_assert_int_eq(x->status, TOOLGOV_ENOENT);
    x = expect(&r, 12, TOOLGOV_AUDIT_ARGS_ERROR, "lookup", "REFUSE");
    ck_assert_str_eq(x->plugin, "alpha");
    ck_assert_str_eq(x->args, "[1]");
    ck_assert_int_eq(x->status, TOOLGOV_EARGS);
    ck_assert_uint_gt(strlen(x->message), 0);
    x = expect(&r, 13, TOOLGOV_AUDIT_ARGS_ERROR, "purge", "REFUSE");
    ck_assert_str_eq(x->args, "nope");
    expect(&r, 14, TOOLGOV_AUDIT_ALLOWED, "lookup", "ALLOW");
    x = expect(&r, 15, TOOLGOV_AUDIT_EXECUTED, "lookup", "ALLOW");
    ck_assert_int_eq(x->status, TOOLGOV_EHANDLER);
    ck_assert_uint_eq(x->output_len, strlen("lookup failed"));
    expect(&r, 16, TOOLGOV_AUDIT_ALLOWED, "digest", "ALLOW");
    x = expect(&r, 17, TOOLGOV_AUDIT_EXECUTED, "digest", "ALLOW");
    ck_assert_int_eq(x->ended, 0);
    x = expect(&r, 18, TOOLGOV_AUDIT_REPLAYED, "digest", "REPLAY");
    ck_assert_uint_eq(x->output_len, strlen("digest {}"));
    x = expect(&r, 19, TOOLGOV_AUDIT_RUN_ENDED, NULL, "host");
    ck_assert_int_eq(x->end, TOOLGOV_END_HOST);
    x = expect(&r, 20, TOOLGOV_AUDIT_REFUSED, "lookup", "REFUSE");
    ck_assert_int_eq(x->reason, TOOLGOV_AUDIT_REASON_ENDED);
    ck_assert_int_eq(x->status, TOOLGOV_EENDED);
    for (i = 0; i < r.n; i++) {
        ck_assert_str_eq(r.ev[i].run_id, "run-7");
        ck_assert_int_gt(r.ev[i].time_sec, 1700000000LL);
    }
    env_close(&e);
}
END_TEST

START_TEST(declined_answered_directly_and_no_handler)
{
    env e;
    recorder r;
    const rec_event *x;
    toolgov_outcome oc;
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_run *run;
    toolgov_audit_options o;

    /* A no, then a confirm-once write. */
    memset(&r, 0, sizeof r);
    env_open(&e, NULL);
    observe(&e, &r, NULL, 0, NULL);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "make_note", "{}"), TOOLGOV_EREFUSED);
    x = expect(&r, 0, TOOLGOV_AUDIT_CONFIRM_ANSWERED, NULL, "no");
    ck_assert_int_eq(x->confirmation, TOOLGOV_CONFIRMATION_REFUSED);
    x = expect(&r, 1, TOOLGOV_AUDIT_REFUSED, "make_note", "REFUSE");
    ck_assert_int_eq(x->reason, TOOLGOV_AUDIT_REASON_DECLINED);
    ck_assert_int_eq(x->status, TOOLGOV_EREFUSED);
    /* A random id: 32 hex digits. */
    ck_assert_uint_eq(strlen(x->run_id), 32);
    ck_assert_uint_eq(strspn(x->run_id, "0123456789abcdef"), 32);
    env_close(&e);

    /* The first tool answers directly: executed (ended), then run_ended. */
    memset(&r, 0, sizeof r);
    env_open(&e, NULL);
    observe(&e, &r, "d", 0, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.ended, 1);
    expect(&r, 0, TOOLGOV_AUDIT_ALLOWED, "digest", "ALLOW");
    x = expect(&r, 1, TOOLGOV_AUDIT_EXECUTED, "digest", "ALLOW");
    ck_assert_int_eq(x->ended, 1);
    ck_assert_int_eq(x->effect, TOOLGOV_EFFECT_READ);
    x = expect(&r, 2, TOOLGOV_AUDIT_RUN_ENDED, NULL, "answered_directly");
    ck_assert_int_eq(x->end, TOOLGOV_END_ANSWERED_DIRECTLY);
    ck_assert_uint_eq(r.n, 3);
    env_close(&e);

    /* A built-in the host never bound: allowed by the gate, refused for
    ** want of a handler, owned by "core". */
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    memset(&o, 0, sizeof o);
    o.observer = record;
    o.ud = &r;
    ck_assert_int_eq(toolgov_run_set_audit(run, &o), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, run, "memory_search", "{\"query\":\"x\"}"),
                     TOOLGOV_ENOHANDLER);
    x = expect(&r, 0, TOOLGOV_AUDIT_REFUSED, "memory_search", "ALLOW");
    ck_assert_int_eq(x->reason, TOOLGOV_AUDIT_REASON_NO_HANDLER);
    ck_assert_str_eq(x->plugin, "core");
    ck_assert_int_eq(x->status, TOOLGOV_ENOHANDLER);
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}
END_TEST

START_TEST(digests_plain_and_keyed)
{
    static const unsigned char key[TOOLGOV_AUDIT_DIGEST_KEY_BYTES] = {1, 2, 3};
    unsigned char h[32];
    char hex[65], want[80];
    env e;
    recorder r;
    toolgov_outcome oc;
    const char *canon = "{\"a\":2,\"b\":1}";

    ck_assert_int_ge(sodium_init(), 0);
    memset(&r, 0, sizeof r);
    env_open(&e, NULL);
    observe(&e, &r, "dg", TOOLGOV_AUDIT_DIGEST_ARGS, NULL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "set_pref", "{\"b\":1,\"a\":2}"), 0);
    crypto_generichash(h, sizeof h, (const unsigned char *)canon, strlen(canon), NULL, 0);
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    snprintf(want, sizeof want, "blake2b-256:%s", hex);
    ck_assert_str_eq(r.ev[0].args, want);
    ck_assert_int_eq(r.ev[0].args_form, TOOLGOV_AUDIT_ARGS_DIGEST);
    ck_assert_str_eq(r.ev[1].args, want);
    /* Refused arguments: a digest, and no message (it quotes the values). */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "[\"secret\"]"), TOOLGOV_EARGS);
    ck_assert_int_eq(r.ev[2].kind, TOOLGOV_AUDIT_ARGS_ERROR);
    ck_assert_int_eq(r.ev[2].args_form, TOOLGOV_AUDIT_ARGS_DIGEST);
    ck_assert_str_eq(r.ev[2].message, "");
    ck_assert_ptr_null(strstr(r.ev[2].args, "secret"));
    r.n = 2;
    /* The same run, now keyed: a different digest, the keyed one. */
    observe(&e, &r, NULL, TOOLGOV_AUDIT_DIGEST_ARGS, key);
    ck_assert_str_eq(toolgov_run_audit_id(e.run), "dg");
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "set_pref", "{\"a\":2,\"b\":1}"), 0);
    crypto_generichash(h, sizeof h, (const unsigned char *)canon, strlen(canon), key,
                       sizeof key);
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    snprintf(want, sizeof want, "blake2b-256:%s", hex);
    ck_assert_str_eq(r.ev[2].args, want);
    ck_assert_uint_eq(r.ev[2].seq, 4); /* numbers go on across settings */
    ck_assert_str_ne(r.ev[2].args, r.ev[0].args);
    env_close(&e);
}
END_TEST

START_TEST(authorising_events_fail_closed)
{
    env e;
    recorder r;
    toolgov_outcome oc;

    memset(&r, 0, sizeof r);
    env_open(&e, NULL);
    observe(&e, &r, "fc", 0, NULL);
    r.fail_rc = -99;

    r.fail_on = TOOLGOV_AUDIT_CONFIRM_ANSWERED;
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), -99);
    ck_assert_int_eq(toolgov_run_confirmation(e.run), TOOLGOV_CONFIRMATION_PENDING);

    r.fail_on = TOOLGOV_AUDIT_APPROVAL_GRANTED;
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), -99);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 0);

    r.fail_on = TOOLGOV_AUDIT_ALLOWED;
    r.fail_rc = 5; /* a positive return is TOOLGOV_EFAIL */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), TOOLGOV_EFAIL);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(e.counts.total, 0);

    /* An approved destructive call whose ALLOWED cannot be recorded keeps
    ** its approval, and an answers-directly first tool does not end the
    ** run. */
    r.fail_on = 0;
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge", "{}"), 0);
    r.fail_on = TOOLGOV_AUDIT_ALLOWED;
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "purge", "{}"), TOOLGOV_EFAIL);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 1);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "digest", "{}"), TOOLGOV_EFAIL);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_NONE);
    ck_assert_int_eq(e.counts.total, 0);

    /* Events after the fact cannot stop anything. */
    r.fail_on = TOOLGOV_AUDIT_EXECUTED;
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(e.counts.total, 1);
    env_close(&e);
}
END_TEST

START_TEST(options_and_clearing)
{
    env e;
    recorder r;
    toolgov_audit_options o;
    toolgov_outcome oc;
    char long_id[TOOLGOV_AUDIT_RUN_ID_MAX + 2];
    char first[64];

    memset(&r, 0, sizeof r);
    env_open(&e, NULL);
    memset(&o, 0, sizeof o);
    ck_assert_int_eq(toolgov_run_set_audit(NULL, &o), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_set_audit(e.run, NULL), TOOLGOV_EINVAL);
    /* Clearing a run that never had an observer is fine. */
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &o), 0);
    ck_assert_ptr_null(toolgov_run_audit_id(e.run));
    memset(long_id, 'x', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = '\0';
    o.observer = record;
    o.ud = &r;
    o.run_id = long_id;
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &o), TOOLGOV_EINVAL);
    ck_assert_ptr_null(toolgov_run_audit_id(e.run));
    long_id[TOOLGOV_AUDIT_RUN_ID_MAX] = '\0';
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &o), 0);
    ck_assert_str_eq(toolgov_run_audit_id(e.run), long_id);
    o.run_id = "";
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &o), 0);
    ck_assert_str_eq(toolgov_run_audit_id(e.run), long_id); /* kept */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_uint_eq(r.n, 2);
    o.observer = NULL;
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &o), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_end(e.run), 0);
    ck_assert_uint_eq(r.n, 2);
    env_close(&e);

    /* A child run reports to its parent's observer, marked as a child. */
    {
        toolgov_run *child = NULL;
        recorder rc2;
        char line[1024];
        toolgov_audit_event ev;

        memset(&rc2, 0, sizeof rc2);
        env_open(&e, NULL);
        observe(&e, &rc2, "parent", 0, NULL);
        ck_assert_int_eq(toolgov_run_child_new(&child, e.run, NULL), 0);
        o.observer = record;
        o.ud = &rc2;
        o.run_id = NULL;
        ck_assert_int_eq(toolgov_run_set_audit(child, &o), TOOLGOV_EINVAL);
        ck_assert_int_eq(toolgov_run_invoke(&oc, child, "lookup", "{}"), 0);
        ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), 0);
        ck_assert_uint_eq(rc2.n, 4);
        ck_assert_str_eq(rc2.ev[0].run_id, "parent");
        ck_assert_uint_eq(rc2.ev[1].seq, 2);
        ck_assert_uint_eq(rc2.ev[2].seq, 3);
        ck_assert_int_eq(rc2.ev[0].child, 1);
        ck_assert_int_eq(rc2.ev[1].child, 1);
        ck_assert_int_eq(rc2.ev[2].child, 0);
        toolgov_run_free(child);
        env_close(&e);
        memset(&ev, 0, sizeof ev);
        ev.kind = TOOLGOV_AUDIT_ALLOWED;
        ev.child = 1;
        ck_assert_int_eq(toolgov_audit_event_render(line, sizeof line, NULL, &ev), 0);
        ck_assert_ptr_nonnull(strstr(line, ",\"child\":true,\"confirmation\""));
        ev.child = 0;
        ck_assert_int_eq(toolgov_audit_event_render(line, sizeof line, NULL, &ev), 0);
        ck_assert_ptr_null(strstr(line, "child"));
    }

    /* Two runs get two random ids. */
    env_open(&e, NULL);
    observe(&e, &r, NULL, 0, NULL);
    snprintf(first, sizeof first, "%s", toolgov_run_audit_id(e.run));
    env_close(&e);
    env_open(&e, NULL);
    observe(&e, &r, NULL, 0, NULL);
    ck_assert_str_ne(first, toolgov_run_audit_id(e.run));
    env_close(&e);
}
END_TEST

START_TEST(restore_is_an_event)
{
    static const toolgov_state_key key = {{7}};
    env a, b;
    recorder r;
    char *text;
    size_t need = 0, len = 0;
    const rec_event *x;

    memset(&r, 0, sizeof r);
    env_open(&a, NULL);
    ck_assert_int_eq(toolgov_run_confirm(a.run, 1), 0);
    ck_assert_int_eq(toolgov_run_approve(a.run, "purge", "{}"), 0);
    ck_assert_int_eq(toolgov_run_set_id(a.run, "resumed"), 0);
    ck_assert_int_eq(toolgov_run_save(NULL, 0, &need, a.run, &key), 0);
    text = malloc(need + 1);
    ck_assert_int_eq(toolgov_run_save(text, need + 1, &len, a.run, &key), 0);
    env_open(&b, NULL);
    observe(&b, &r, "resumed", 0, NULL);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &key), 0);
    x = expect(&r, 0, TOOLGOV_AUDIT_RESTORED, NULL, "restored");
    ck_assert_int_eq(x->confirmation, TOOLGOV_CONFIRMATION_GIVEN);
    ck_assert_uint_eq(x->approvals, 1);
    ck_assert_int_eq(x->end, TOOLGOV_END_NONE);
    /* A refused text changes nothing and is no event. */
    text[0] ^= 1;
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &key), TOOLGOV_ESTATE);
    ck_assert_uint_eq(r.n, 1);
    free(text);
    env_close(&b);
    env_close(&a);
}
END_TEST

/* Event numbers go on across save and restore, as when the run resumes in
** another process: the saved text carries the count, and a restored run
** numbers from there whether its observer is set before or after the
** restore. A run that never had an observer saves no count. */
START_TEST(numbering_goes_on_after_restore)
{
    static const toolgov_state_key key = {{9}};
    env a, b, c, quiet;
    recorder ra, rb, rc;
    char text[4096], plain[4096];
    size_t len = 0, plain_len = 0;

    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    memset(&rc, 0, sizeof rc);
    env_open(&a, NULL);
    observe(&a, &ra, "resumable", 0, NULL);
    ck_assert_int_eq(toolgov_run_confirm(a.run, 1), 0);
    ck_assert_int_eq(toolgov_run_approve(a.run, "purge", "{}"), 0);
    ck_assert_uint_eq(ra.n, 2);
    ck_assert_uint_eq(ra.ev[1].seq, 2);
    ck_assert_int_eq(toolgov_run_save(text, sizeof text, &len, a.run, &key), 0);
    ck_assert_ptr_nonnull(strstr(text, "\naudit 2\n"));

    /* observer first: the restore is event 3 */
    env_open(&b, NULL);
    observe(&b, &rb, "resumable", 0, NULL);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &key), 0);
    ck_assert_int_eq(rb.ev[0].kind, TOOLGOV_AUDIT_RESTORED);
    ck_assert_uint_eq(rb.ev[0].seq, 3);
    ck_assert_int_eq(toolgov_run_end(b.run), 0);
    ck_assert_uint_eq(rb.ev[1].seq, 4);

    /* restore first: the next event is 3 */
    env_open(&c, NULL);
    ck_assert_int_eq(toolgov_run_set_id(c.run, "resumable"), 0);
    ck_assert_int_eq(toolgov_run_restore(c.run, text, len, &key), 0);
    observe(&c, &rc, "resumable", 0, NULL);
    ck_assert_int_eq(toolgov_run_end(c.run), 0);
    ck_assert_uint_eq(rc.n, 1);
    ck_assert_uint_eq(rc.ev[0].seq, 3);
    /* and a save of it carries the count on */
    ck_assert_int_eq(toolgov_run_save(text, sizeof text, &len, c.run, &key), 0);
    ck_assert_ptr_nonnull(strstr(text, "\naudit 3\n"));

    env_open(&quiet, NULL);
    ck_assert_int_eq(toolgov_run_confirm(quiet.run, 1), 0);
    ck_assert_int_eq(toolgov_run_save(plain, sizeof plain, &plain_len, quiet.run, &key), 0);
    ck_assert_ptr_null(strstr(plain, "audit"));
    env_close(&quiet);
    env_close(&c);
    env_close(&b);
    env_close(&a);
}
END_TEST

/* ---- the JSON form ---- */

static toolgov_audit_event sample(void)
{
    toolgov_audit_event ev;

    memset(&ev, 0, sizeof ev);
    ev.kind = TOOLGOV_AUDIT_EXECUTED;
    ev.run_id = "r1";
    ev.seq = 12;
    ev.time_sec = 1796083200LL; /* 2026-12-01T00:00:00Z */
    ev.time_nsec = 5;
    ev.decision = "ALLOW";
    ev.tool = "make_note";
    ev.plugin = "alpha";
    ev.effect = TOOLGOV_EFFECT_WRITE;
    ev.args = "{\"text\":\"a \\\"b\\\"\"}";
    ev.args_len = strlen(ev.args);
    ev.args_form = TOOLGOV_AUDIT_ARGS_CANONICAL;
    ev.status = 0;
    ev.output_len = 9;
    ev.confirmation = TOOLGOV_CONFIRMATION_GIVEN;
    ev.approvals = 2;
    return ev;
}

static const char golden[] =
    "{\"v\":1,\"run\":\"r1\",\"seq\":12,\"time\":\"2026-12-01T00:00:00.000000005Z\","
    "\"event\":\"executed\",\"decision\":\"ALLOW\",\"tool\":\"make_note\","
    "\"plugin\":\"alpha\",\"effect\":\"write\","
    "\"args\":\"{\\\"text\\\":\\\"a \\\\\\\"b\\\\\\\"\\\"}\",\"args_form\":\"canonical\","
    "\"status\":0,\"output_len\":9,\"ended\":false,\"confirmation\":\"given\","
    "\"approvals\":2}\n";

START_TEST(render_golden_and_every_cut)
{
    toolgov_audit_event ev = sample();
    char buf[1024], fill[8] = "#######";
    size_t need = 1, i, n = strlen(golden);

    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, &need, &ev), 0);
    ck_assert_str_eq(buf, golden);
    ck_assert_uint_eq(need, n);
    /* Sizing call. */
    need = 1;
    ck_assert_int_eq(toolgov_audit_event_render(NULL, 0, &need, &ev), 0);
    ck_assert_uint_eq(need, n);
    ck_assert_int_eq(toolgov_audit_event_render(fill, 0, &need, &ev), 0);
    ck_assert_str_eq(fill, "#######");
    for (i = 1; i <= n + 1; i++) {
        ck_assert_int_eq(toolgov_audit_event_render(buf, i, NULL, &ev),
                         i == n + 1 ? 0 : TOOLGOV_ENOSPC);
        ck_assert_uint_eq(strlen(buf), i - 1);
        ck_assert_int_eq(strncmp(buf, golden, i - 1), 0);
    }
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, &need, NULL), TOOLGOV_EINVAL);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(toolgov_audit_event_render(NULL, 3, &need, &ev), TOOLGOV_EINVAL);
}
END_TEST

START_TEST(render_kinds_times_and_escapes)
{
    toolgov_audit_event ev = sample();
    char buf[1024];

    /* A name with a line break, a quote, a raw 8-bit byte and U+2028: one
    ** line, valid UTF-8. */
    ev.kind = TOOLGOV_AUDIT_REFUSED;
    ev.decision = "REFUSE";
    ev.reason = TOOLGOV_AUDIT_REASON_UNKNOWN_TOOL;
    ev.status = TOOLGOV_ENOENT;
    ev.tool = "a\nb\"c\x9b" "d\xe2\x80\xa8";
    ev.plugin = NULL;
    ev.effect = -1;
    ev.args_form = TOOLGOV_AUDIT_ARGS_AS_SENT;
    ev.time_sec = 0;
    ev.time_nsec = 0;
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"time\":\"1970-01-01T00:00:00.000000000Z\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"a\\nb\\\"c\\ufffdd\xe2\x80\xa8\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"plugin\":null,\"effect\":null"));
    ck_assert_ptr_nonnull(strstr(buf, "\"reason\":\"unknown_tool\",\"status\":-3"));
    ck_assert_ptr_eq(strchr(buf, '\n'), buf + strlen(buf) - 1);

    /* Dates: a leap day, the end of a century, before 1970. */
    ev.time_sec = 951782400LL; /* 2000-02-29 */
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"2000-02-29T00:00:00.000000000Z\""));
    ev.time_sec = 4102444799LL; /* 2099-12-31T23:59:59 */
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"2099-12-31T23:59:59.000000000Z\""));
    ev.time_sec = -1;
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"1969-12-31T23:59:59.000000000Z\""));

    /* Run events carry no call. */
    ev = sample();
    ev.kind = TOOLGOV_AUDIT_RUN_ENDED;
    ev.decision = "host";
    ev.tool = NULL;
    ev.end = TOOLGOV_END_HOST;
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_null(strstr(buf, "\"tool\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"event\":\"run_ended\",\"decision\":\"host\",\"end\":\"host\""));
    ev.kind = TOOLGOV_AUDIT_CONFIRM_ANSWERED;
    ev.answer = 1;
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"answer\":true"));
    ev.kind = TOOLGOV_AUDIT_CONFIRM_ASKED;
    ev.tool = "make_note";
    ev.batch_index = 1;
    ev.batch_count = 3;
    ck_assert_int_eq(toolgov_audit_event_render(buf, sizeof buf, NULL, &ev), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"batch_index\":1,\"batch_count\":3"));

    ck_assert_str_eq(toolgov_audit_kind_name((toolgov_audit_kind)99), "unknown");
    ck_assert_str_eq(toolgov_audit_reason_name((toolgov_audit_reason)99), "unknown");
    ck_assert_str_eq(toolgov_audit_args_form_name((toolgov_audit_args_form)99), "unknown");
    ck_assert_str_eq(toolgov_audit_args_form_name(TOOLGOV_AUDIT_ARGS_DIGEST), "digest");
}
END_TEST

/* ---- the JSON-lines writer ---- */

START_TEST(jsonl_writes_one_line_per_event)
{
    env e;
    recorder r;
    FILE *f = tmpfile();
    char line[2048];
    size_t lines = 0;
    const char *out = getenv("TOOLGOV_AUDIT_JSONL_OUT");
    FILE *keep = NULL;
    toolgov_audit_jsonl *kw = NULL;
    int err = -1;

    ck_assert_ptr_nonnull(f);
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(toolgov_audit_jsonl_new(&r.also, NULL, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_audit_jsonl_new(&r.also, f, NULL), 0);
    env_open(&e, NULL);
    observe(&e, &r, "jsonl-run", 0, NULL);
    drive(&e, &r);
    ck_assert_int_eq(toolgov_audit_jsonl_status(r.also, &err), 0);
    ck_assert_int_eq(err, 0);
    ck_assert_uint_eq(toolgov_audit_jsonl_lines(r.also), r.n);
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        char want[32];

        ck_assert_ptr_eq(strchr(line, '\n'), line + strlen(line) - 1);
        ck_assert_int_eq(strncmp(line, "{\"v\":1,\"run\":\"jsonl-run\",\"seq\":", 31), 0);
        snprintf(want, sizeof want, "\"seq\":%zu,", lines + 1);
        ck_assert_ptr_nonnull(strstr(line, want));
        lines++;
    }
    ck_assert_uint_eq(lines, r.n);
    toolgov_audit_jsonl_free(r.also);
    fclose(f);
    env_close(&e);

    /* The same run for the strict reader of check_audit_jsonl.py. */
    if (out) {
        keep = fopen(out, "w");
        ck_assert_ptr_nonnull(keep);
        ck_assert_int_eq(toolgov_audit_jsonl_new(&kw, keep, NULL), 0);
        memset(&r, 0, sizeof r);
        r.also = kw;
        env_open(&e, NULL);
        observe(&e, &r, "jsonl-run", 0, NULL);
        drive(&e, &r);
        env_close(&e);
        toolgov_audit_jsonl_free(kw);
        ck_assert_int_eq(fclose(keep), 0);
    }
    toolgov_audit_jsonl_free(NULL);
}
END_TEST

START_TEST(jsonl_reports_write_errors_and_fails_closed)
{
    env e;
    FILE *full = fopen("/dev/full", "w");
    toolgov_audit_jsonl *w;
    toolgov_audit_options o;
    toolgov_outcome oc;
    int err = 0;

    if (!full)
        return; /* no /dev/full on this system */
    ck_assert_int_eq(toolgov_audit_jsonl_new(&w, full, NULL), 0);
    env_open(&e, NULL);
    memset(&o, 0, sizeof o);
    o.observer = toolgov_audit_jsonl_observe;
    o.ud = w;
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &o), 0);
    /* The allowed event cannot be written: the handler does not run. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "lookup", "{}"), TOOLGOV_EFAIL);
    ck_assert_int_eq(e.counts.total, 0);
    ck_assert_int_eq(toolgov_audit_jsonl_status(w, &err), TOOLGOV_EFAIL);
    ck_assert_int_eq(err, ENOSPC);
    ck_assert_uint_eq(toolgov_audit_jsonl_lines(w), 0);
    /* Sticky: nothing more is attempted, every call says so. */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), TOOLGOV_EFAIL);
    ck_assert_int_eq(toolgov_audit_jsonl_status(NULL, &err), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_audit_jsonl_observe(NULL, NULL), TOOLGOV_EINVAL);
    env_close(&e);
    toolgov_audit_jsonl_free(w);
    fclose(full);
}
END_TEST

/* Every allocation of the writer and of setting an observer fails in
** turn: a clean error, nothing written, no leak. */
START_TEST(allocation_failure_sweep)
{
    size_t n;
    int done = 0;

    for (n = 1; !done && n < 64; n++) {
        fx_alloc_state st;
        toolgov_allocator a;
        toolgov_registry *reg;
        toolgov_policy *pol = NULL;
        toolgov_run *run = NULL;
        toolgov_audit_jsonl *w = NULL;
        toolgov_audit_options o;
        toolgov_outcome oc;
        FILE *f = tmpfile();
        int rc;

        ck_assert_ptr_nonnull(f);
        memset(&st, 0, sizeof st);
        a.fn = fx_alloc;
        a.ud = &st;
        reg = fx_registry(&a, NULL);
        ck_assert_ptr_nonnull(reg);
        ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
        ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
        st.attempts = 0;
        st.fail_at = n;
        rc = toolgov_audit_jsonl_new(&w, f, &a);
        if (rc == 0) {
            memset(&o, 0, sizeof o);
            o.observer = toolgov_audit_jsonl_observe;
            o.ud = w;
            rc = toolgov_run_set_audit(run, &o);
            if (rc == 0) {
                rc = toolgov_run_invoke(&oc, run, "lookup", "{}");
                if (rc == 0)
                    rc = toolgov_audit_jsonl_status(w, NULL);
            }
        }
        if (st.failed) {
            ck_assert_int_eq(rc, TOOLGOV_ENOMEM);
        } else {
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(toolgov_audit_jsonl_lines(w), 2);
            done = 1;
        }
        st.fail_at = 0;
        toolgov_audit_jsonl_free(w);
        toolgov_run_free(run);
        toolgov_policy_free(pol);
        toolgov_registry_free(reg);
        fclose(f);
        ck_assert_int_eq(st.live, 0);
        ck_assert_int_eq(st.bytes, 0);
    }
    ck_assert_int_eq(done, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("audit");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, every_event_of_a_run);
    tcase_add_test(tc, declined_answered_directly_and_no_handler);
    tcase_add_test(tc, digests_plain_and_keyed);
    tcase_add_test(tc, authorising_events_fail_closed);
    tcase_add_test(tc, options_and_clearing);
    tcase_add_test(tc, restore_is_an_event);
    tcase_add_test(tc, numbering_goes_on_after_restore);
    tcase_add_test(tc, render_golden_and_every_cut);
    tcase_add_test(tc, render_kinds_times_and_escapes);
    tcase_add_test(tc, jsonl_writes_one_line_per_event);
    tcase_add_test(tc, jsonl_reports_write_errors_and_fails_closed);
    tcase_add_test(tc, allocation_failure_sweep);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
