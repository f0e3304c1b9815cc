/* SPDX-License-Identifier: MIT */
/*
** test_grants.c: standing grants (grants.h). Each verdict and scope at the
** gate, expiry at its boundary under a clock the test sets, revocation,
** grants of another tool, plugin or user, destructive tools granted only
** call by call, the audit events that name a grant, and the sealed text:
** every byte altered, every cut, another key, another user, another kind,
** a forged body, and allocation failures.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <toolgov/audit.h>
#include <toolgov/grants.h>

#include "fixture_run.h"

static const toolgov_state_key test_key = {{
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}};
static const toolgov_state_key other_key = {{
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 33}};

/* ---- a clock the test sets ---- */

static long long test_clock(void *ud)
{
    return *(const long long *)ud;
}

typedef struct genv {
    env e;
    toolgov_grants *g;
    long long now;
} genv;

static void genv_open(genv *x, const char *user)
{
    env_open(&x->e, NULL);
    x->now = 1000;
    ck_assert_int_eq(toolgov_grants_new(&x->g, user, NULL), 0);
    toolgov_grants_set_clock(x->g, test_clock, &x->now);
    ck_assert_int_eq(toolgov_run_set_grants(x->e.run, x->g), 0);
}

static void genv_close(genv *x)
{
    toolgov_grants_free(x->g);
    env_close(&x->e);
}

/* Add a grant; returns the add's code, the id in *id when given. */
static int grant(genv *x, const char *tool, const char *args, toolgov_grant_verdict v,
                 long long expires, unsigned long long *id)
{
    toolgov_grant gr;

    memset(&gr, 0, sizeof gr);
    gr.tool = tool;
    gr.args = args;
    gr.verdict = v;
    gr.expires = expires;
    gr.granted_by = "alice@desk";
    return toolgov_grants_add(id, x->g, x->e.reg, &gr);
}

static char *save(const toolgov_grants *g, const toolgov_state_key *key, size_t *len)
{
    size_t need = 0;
    char *buf;

    ck_assert_int_eq(toolgov_grants_save(NULL, 0, &need, g, key), 0);
    buf = malloc(need + 1);
    ck_assert_int_eq(toolgov_grants_save(buf, need + 1, len, g, key), 0);
    ck_assert_uint_eq(*len, need);
    return buf;
}

/* ---- verdicts and scopes at the gate ---- */

START_TEST(allow_whole_tool_answers_the_confirmation)
{
    genv x;
    toolgov_outcome oc;

    genv_open(&x, "alice");
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"a\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "make_note", "{\"a\":1}"), 0);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "make_note", "{\"a\":2}"), 0);
    ck_assert_int_eq(x.e.counts.calls[FX_MAKE_NOTE], 2);
    /* The grant answered for make_note only: the run's one confirmation is
    ** still pending, and another confirm-once write still asks. */
    ck_assert_int_eq(toolgov_run_confirmation(x.e.run), TOOLGOV_CONFIRMATION_PENDING);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "promote_recommendation", "{}"),
                     TOOLGOV_GATE_ASK_FIRST);
    /* A no in the run stays a no. */
    ck_assert_int_eq(toolgov_run_confirm(x.e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "make_note", "{}"), TOOLGOV_EREFUSED);
    genv_close(&x);
}
END_TEST

START_TEST(allow_one_exact_call)
{
    genv x;
    toolgov_outcome oc;
    toolgov_grant got;

    genv_open(&x, "alice");
    ck_assert_int_eq(grant(&x, "make_note", "{ \"text\" : \"rent\", \"at\": 9 }",
                           TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(toolgov_grants_at(&got, x.g, 0), 0);
    ck_assert_str_eq(got.args, "{\"at\":9,\"text\":\"rent\"}");
    /* Any spelling of the call, and only that call. */
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"at\":9,\"text\":\"rent\"}"),
                     TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"text\":\"rent\",  \"at\":9}"),
                     TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"at\":9,\"text\":\"rant\"}"),
                     TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"at\":9"),
                     TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "make_note", "{\"text\":\"rent\",\"at\":9}"),
                     0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "make_note", "{\"text\":\"x\"}"),
                     TOOLGOV_ECONFIRM);
    ck_assert_int_eq(x.e.counts.calls[FX_MAKE_NOTE], 1);
    genv_close(&x);
}
END_TEST

START_TEST(never_refuses_with_its_own_reason)
{
    genv x;
    toolgov_outcome oc;

    genv_open(&x, "alice");
    /* A read, a write already confirmed, one exact call. */
    ck_assert_int_eq(grant(&x, "lookup", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(grant(&x, "set_pref", "{\"k\":\"x\"}", TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_confirm(x.e.run, 1), 0);
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "lookup", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "lookup", "{}"), TOOLGOV_ENEVER);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_int_eq(oc.status, TOOLGOV_ENEVER);
    ck_assert_str_ne(toolgov_strerror(TOOLGOV_ENEVER), toolgov_strerror(TOOLGOV_EREFUSED));
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "make_note", "{}"), TOOLGOV_ENEVER);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "set_pref", "{\"k\": \"x\"}"),
                     TOOLGOV_ENEVER);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "set_pref", "{\"k\":\"y\"}"), 0);
    ck_assert_int_eq(x.e.counts.calls[FX_LOOKUP], 0);
    ck_assert_int_eq(x.e.counts.calls[FX_MAKE_NOTE], 0);
    ck_assert_int_eq(x.e.counts.calls[FX_SET_PREF], 1);
    genv_close(&x);
}
END_TEST

START_TEST(never_wins_over_allow_and_replay)
{
    genv x;
    toolgov_outcome oc;
    unsigned long long never_id;

    genv_open(&x, "alice");
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(grant(&x, "make_note", "{\"a\":1}", TOOLGOV_GRANT_NEVER, 0, &never_id), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"a\":1}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"a\":2}"), TOOLGOV_GATE_ALLOW);
    /* A result in hand is not handed back against a never (digest is not
    ** the run's first tool, so the run goes on after it). */
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "set_pref", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "digest", "{\"d\":1}"), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "digest", "{\"d\":1}"), TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(grant(&x, "digest", "{\"d\":1}", TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "digest", "{\"d\":1}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "digest", "{\"d\":1}"), TOOLGOV_ENEVER);
    ck_assert_int_eq(toolgov_grants_revoke(x.g, never_id), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{\"a\":1}"), TOOLGOV_GATE_ALLOW);
    genv_close(&x);
}
END_TEST

START_TEST(destructive_tools_only_call_by_call)
{
    genv x;
    toolgov_outcome oc;
    size_t before;

    genv_open(&x, "alice");
    /* Never as a whole, either verdict. */
    ck_assert_int_eq(grant(&x, "purge", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(grant(&x, "purge", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), TOOLGOV_EINVAL);
    ck_assert_uint_eq(toolgov_grants_count(x.g), 0);
    /* One exact call: it runs without its approval, each time. */
    ck_assert_int_eq(grant(&x, "purge", "{\"older_than\":30}", TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "purge", "{\"older_than\": 30}"),
                     TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "purge", "{\"older_than\":31}"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "purge", "{}"), TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "purge", "{\"older_than\":30}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "purge", "{\"older_than\":30}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "purge", "{\"older_than\":31}"),
                     TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(x.e.counts.calls[FX_PURGE], 2);
    /* A never of one call refuses it even when it was approved, and the
    ** approval stays unused. */
    ck_assert_int_eq(grant(&x, "purge", "{\"all\":true}", TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_approve(x.e.run, "purge", "{\"all\":true}"), 0);
    before = toolgov_run_pending_approvals(x.e.run);
    ck_assert_int_eq(toolgov_run_invoke(&oc, x.e.run, "purge", "{\"all\":true}"),
                     TOOLGOV_ENEVER);
    ck_assert_uint_eq(toolgov_run_pending_approvals(x.e.run), before);
    ck_assert_int_eq(x.e.counts.calls[FX_PURGE], 2);
    genv_close(&x);
}
END_TEST

START_TEST(add_refuses_what_cannot_be_granted)
{
    genv x;
    toolgov_grant gr;
    unsigned long long id = 77;

    genv_open(&x, "alice");
    /* Reads never ask: nothing to allow. */
    ck_assert_int_eq(grant(&x, "lookup", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(grant(&x, "nope", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), TOOLGOV_ENOENT);
    ck_assert_int_eq(grant(&x, "make_note", "[1]", TOOLGOV_GRANT_ALLOW, 0, NULL), TOOLGOV_EARGS);
    ck_assert_int_eq(grant(&x, "make_note", NULL, (toolgov_grant_verdict)3, 0, NULL),
                     TOOLGOV_EINVAL);
    /* An expiry not after the clock. */
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 1000, NULL),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, -5, NULL),
                     TOOLGOV_EINVAL);
    memset(&gr, 0, sizeof gr);
    gr.tool = "make_note";
    gr.verdict = TOOLGOV_GRANT_ALLOW;
    gr.plugin = "beta";
    ck_assert_int_eq(toolgov_grants_add(&id, x.g, x.e.reg, &gr), TOOLGOV_ENOENT);
    gr.plugin = NULL;
    gr.granted_by = "bob\nroot";
    ck_assert_int_eq(toolgov_grants_add(&id, x.g, x.e.reg, &gr), TOOLGOV_EINVAL);
    ck_assert_uint_eq(id, 77);
    ck_assert_uint_eq(toolgov_grants_count(x.g), 0);
    /* The plugin named right, and no granter: the user. */
    gr.plugin = "alpha";
    gr.granted_by = NULL;
    ck_assert_int_eq(toolgov_grants_add(&id, x.g, x.e.reg, &gr), 0);
    ck_assert_int_eq(toolgov_grants_at(&gr, x.g, 0), 0);
    ck_assert_str_eq(gr.granted_by, "alice");
    ck_assert_int_eq(toolgov_grants_at(&gr, x.g, 1), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_grants_new(NULL, "u", NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_set_grants(NULL, x.g), TOOLGOV_EINVAL);
    genv_close(&x);
}
END_TEST

START_TEST(list_and_replace)
{
    genv x;
    toolgov_grant gr;
    unsigned long long a, b, c;

    genv_open(&x, "alice");
    x.now = 5000;
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 9000, &a), 0);
    ck_assert_int_eq(grant(&x, "purge", "{}", TOOLGOV_GRANT_ALLOW, 0, &b), 0);
    ck_assert_uint_eq(a, 1);
    ck_assert_uint_eq(b, 2);
    ck_assert_int_eq(toolgov_grants_at(&gr, x.g, 0), 0);
    ck_assert_uint_eq(gr.id, 1);
    ck_assert_str_eq(gr.plugin, "alpha");
    ck_assert_str_eq(gr.tool, "make_note");
    ck_assert_ptr_null(gr.args);
    ck_assert_int_eq(gr.verdict, TOOLGOV_GRANT_ALLOW);
    ck_assert_int_eq(gr.expires, 9000);
    ck_assert_int_eq(gr.created, 5000);
    ck_assert_str_eq(gr.granted_by, "alice@desk");
    /* A newer answer for the same tool and scope replaces the older. */
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_NEVER, 0, &c), 0);
    ck_assert_uint_eq(c, 3);
    ck_assert_uint_eq(toolgov_grants_count(x.g), 2);
    ck_assert_int_eq(toolgov_grants_at(&gr, x.g, 1), 0);
    ck_assert_uint_eq(gr.id, 3);
    ck_assert_int_eq(gr.verdict, TOOLGOV_GRANT_NEVER);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_str_eq(toolgov_grant_verdict_name(TOOLGOV_GRANT_NEVER), "never");
    ck_assert_str_eq(toolgov_grant_verdict_name((toolgov_grant_verdict)0), "unknown");
    ck_assert_str_eq(toolgov_grants_user(x.g), "alice");
    genv_close(&x);
}
END_TEST

/* ---- expiry and revocation ---- */

START_TEST(expiry_at_the_boundary)
{
    genv x;
    char *text;
    size_t len;
    toolgov_grants *h;

    genv_open(&x, "alice");
    x.now = 900;
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 1000, NULL), 0);
    ck_assert_int_eq(grant(&x, "set_pref", NULL, TOOLGOV_GRANT_NEVER, 1000, NULL), 0);
    x.now = 999;
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "set_pref", "{}"), TOOLGOV_GATE_REFUSE);
    text = save(x.g, &test_key, &len);
    x.now = 1000;
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "set_pref", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(NULL, x.e.run, "make_note", "{}"), TOOLGOV_ECONFIRM);
    /* Still listed until the set is saved or loaded... */
    ck_assert_uint_eq(toolgov_grants_count(x.g), 2);
    /* ...read at 999 the text's grants hold, at 1000 they are dropped. */
    ck_assert_int_eq(toolgov_grants_new(&h, "alice", NULL), 0);
    toolgov_grants_set_clock(h, test_clock, &x.now);
    x.now = 999;
    ck_assert_int_eq(toolgov_grants_load(h, text, len, &test_key), 0);
    ck_assert_uint_eq(toolgov_grants_count(h), 2);
    x.now = 1000;
    ck_assert_int_eq(toolgov_grants_load(h, text, len, &test_key), 0);
    ck_assert_uint_eq(toolgov_grants_count(h), 0);
    free(text);
    /* Saved at 1000, the text leaves them out. */
    text = save(x.g, &test_key, &len);
    ck_assert_ptr_null(strstr(text, "grant "));
    free(text);
    toolgov_grants_free(h);
    genv_close(&x);
}
END_TEST

START_TEST(revoked_grants_are_never_used)
{
    genv x;
    unsigned long long a, b;
    toolgov_grant gr;

    genv_open(&x, "alice");
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, &a), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_grants_revoke(x.g, a), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_grants_revoke(x.g, a), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_grants_revoke(NULL, a), TOOLGOV_EINVAL);
    /* Ids are never given twice, also across a save and load. */
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, &b), 0);
    ck_assert_uint_gt(b, a);
    {
        char *text;
        size_t len;
        unsigned long long c;

        text = save(x.g, &test_key, &len);
        ck_assert_int_eq(toolgov_grants_revoke(x.g, b), 0);
        ck_assert_int_eq(toolgov_grants_load(x.g, text, len, &test_key), 0);
        ck_assert_int_eq(toolgov_grants_at(&gr, x.g, 0), 0);
        ck_assert_uint_eq(gr.id, b);
        ck_assert_int_eq(toolgov_grants_revoke(x.g, b), 0);
        ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, &c), 0);
        ck_assert_uint_gt(c, b);
        free(text);
    }
    /* Taken from the run: nothing is consulted. */
    ck_assert_int_eq(toolgov_run_set_grants(x.e.run, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    genv_close(&x);
}
END_TEST

/* ---- another tool, plugin, user; children and batches ---- */

START_TEST(grants_of_another_tool_do_not_apply)
{
    genv x;

    genv_open(&x, "alice");
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(grant(&x, "purge", "{\"a\":1}", TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "promote_recommendation", "{}"),
                     TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "invoke_pending_action", "{}"),
                     TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "purge", "{\"a\":2}"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    genv_close(&x);
}
END_TEST

/* Many grants of several tools, added interleaved and some revoked: each
** tool finds its own (the gate searches an index by tool), before and
** after a save and load. */
static void check_many(genv *x, const unsigned char *revoked)
{
    char args[32];
    int i;

    for (i = 0; i < 300; i++) {
        snprintf(args, sizeof args, "{\"x\":%d}", i);
        ck_assert_int_eq(toolgov_run_gate(x->e.run, "purge", args),
                         revoked[i] ? TOOLGOV_GATE_NEEDS_APPROVAL : TOOLGOV_GATE_ALLOW);
    }
    ck_assert_int_eq(toolgov_run_gate(x->e.run, "purge", "{\"x\":300}"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_gate(x->e.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(x->e.run, "make_note", "{\"t\":\"k\"}"),
                     TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate(x->e.run, "memory_search", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate(x->e.run, "promote_recommendation", "{}"),
                     TOOLGOV_GATE_ASK_FIRST);
}

START_TEST(many_grants_each_tool_finds_its_own)
{
    genv x, y;
    unsigned long long ids[300];
    unsigned char revoked[300];
    char args[32], *text;
    size_t len;
    int i;

    genv_open(&x, "alice");
    memset(revoked, 0, sizeof revoked);
    for (i = 0; i < 300; i++) {
        snprintf(args, sizeof args, "{\"x\":%d}", i);
        ck_assert_int_eq(grant(&x, "purge", args, TOOLGOV_GRANT_ALLOW, 0, &ids[i]), 0);
        if (i == 100)
            ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
        if (i == 150)
            ck_assert_int_eq(grant(&x, "memory_search", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), 0);
        if (i == 250)
            ck_assert_int_eq(grant(&x, "make_note", "{\"t\":\"k\"}", TOOLGOV_GRANT_NEVER, 0,
                                   NULL), 0);
    }
    for (i = 0; i < 300; i += 7) {
        ck_assert_int_eq(toolgov_grants_revoke(x.g, ids[i]), 0);
        revoked[i] = 1;
    }
    check_many(&x, revoked);
    text = save(x.g, &test_key, &len);
    genv_open(&y, "alice");
    ck_assert_int_eq(toolgov_grants_load(y.g, text, len, &test_key), 0);
    check_many(&y, revoked);
    free(text);
    genv_close(&x);
    genv_close(&y);
}
END_TEST

START_TEST(children_use_their_roots_grants)
{
    genv x;
    toolgov_run *child;

    genv_open(&x, "alice");
    ck_assert_int_eq(toolgov_run_child_new(&child, x.e.run, NULL), 0);
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(grant(&x, "lookup", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(child, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(NULL, child, "lookup", "{}"), TOOLGOV_ENEVER);
    ck_assert_int_eq(toolgov_run_set_grants(child, x.g), TOOLGOV_EINVAL);
    toolgov_run_free(child);
    genv_close(&x);
}
END_TEST

START_TEST(batches_ask_only_what_no_grant_answers)
{
    genv x;
    toolgov_proposed_call calls[4] = {{"make_note", "{\"a\":1}"},
                                      {"promote_recommendation", "{}"},
                                      {"lookup", "{}"},
                                      {"purge", "{\"p\":1}"}};
    toolgov_gate all, per[4];
    size_t idx[4], nidx = 9;

    genv_open(&x, "alice");
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(grant(&x, "lookup", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), 0);
    ck_assert_int_eq(grant(&x, "purge", "{\"p\":1}", TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, idx, &nidx, x.e.run, calls, 4), 0);
    ck_assert_int_eq(all, TOOLGOV_GATE_ASK_FIRST);
    ck_assert_uint_eq(nidx, 1);
    ck_assert_uint_eq(idx[0], 1);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[2], TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(per[3], TOOLGOV_GATE_ALLOW);
    genv_close(&x);
}
END_TEST

/* ---- the audit trail names the grant ---- */

typedef struct seen {
    toolgov_audit_kind kind[32];
    toolgov_audit_reason reason[32];
    unsigned long long grant[32];
    char by[32][32];
    char line[32][512];
    size_t n;
} seen;

static int observe(void *ud, const toolgov_audit_event *ev)
{
    seen *s = ud;
    size_t need = 0;

    if (s->n >= 32)
        return 0;
    s->kind[s->n] = ev->kind;
    s->reason[s->n] = ev->reason;
    s->grant[s->n] = ev->grant;
    snprintf(s->by[s->n], sizeof s->by[0], "%s", ev->granted_by ? ev->granted_by : "");
    ck_assert_int_eq(toolgov_audit_event_render(s->line[s->n], sizeof s->line[0], &need, ev), 0);
    s->n++;
    return 0;
}

START_TEST(every_use_is_an_audit_event_naming_the_grant)
{
    genv x;
    seen s;
    toolgov_audit_options ao;
    unsigned long long allow_id, never_id, purge_id;

    memset(&s, 0, sizeof s);
    genv_open(&x, "alice");
    memset(&ao, 0, sizeof ao);
    ao.observer = observe;
    ao.ud = &s;
    ao.run_id = "r1";
    ck_assert_int_eq(toolgov_run_set_audit(x.e.run, &ao), 0);
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 2000, &allow_id), 0);
    ck_assert_int_eq(grant(&x, "lookup", NULL, TOOLGOV_GRANT_NEVER, 0, &never_id), 0);
    ck_assert_int_eq(grant(&x, "purge", "{}", TOOLGOV_GRANT_ALLOW, 0, &purge_id), 0);

    ck_assert_int_eq(toolgov_run_invoke(NULL, x.e.run, "make_note", "{}"), 0);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_int_eq(s.kind[0], TOOLGOV_AUDIT_ALLOWED);
    ck_assert_uint_eq(s.grant[0], allow_id);
    ck_assert_str_eq(s.by[0], "alice@desk");
    ck_assert_ptr_nonnull(strstr(s.line[0], ",\"grant\":1,\"granted_by\":\"alice@desk\""));
    ck_assert_int_eq(s.kind[1], TOOLGOV_AUDIT_EXECUTED);
    ck_assert_uint_eq(s.grant[1], 0);
    ck_assert_ptr_null(strstr(s.line[1], "\"grant\""));

    ck_assert_int_eq(toolgov_run_invoke(NULL, x.e.run, "lookup", "{}"), TOOLGOV_ENEVER);
    ck_assert_uint_eq(s.n, 3);
    ck_assert_int_eq(s.kind[2], TOOLGOV_AUDIT_REFUSED);
    ck_assert_int_eq(s.reason[2], TOOLGOV_AUDIT_REASON_NEVER_GRANTED);
    ck_assert_uint_eq(s.grant[2], never_id);
    ck_assert_ptr_nonnull(strstr(s.line[2], "\"reason\":\"never_granted\""));
    ck_assert_ptr_nonnull(strstr(s.line[2], "\"grant\":2"));
    ck_assert_str_eq(toolgov_audit_reason_name(TOOLGOV_AUDIT_REASON_NEVER_GRANTED),
                     "never_granted");

    /* A destructive call its grant allows: allowed naming the grant, no
    ** approval consumed. */
    ck_assert_int_eq(toolgov_run_invoke(NULL, x.e.run, "purge", "{}"), 0);
    ck_assert_uint_eq(s.n, 5);
    ck_assert_int_eq(s.kind[3], TOOLGOV_AUDIT_ALLOWED);
    ck_assert_uint_eq(s.grant[3], purge_id);

    /* Expired: no grant used, the write asks as it would. */
    x.now = 2000;
    ck_assert_int_eq(toolgov_run_invoke(NULL, x.e.run, "make_note", "{}"), TOOLGOV_ECONFIRM);
    ck_assert_uint_eq(s.n, 6);
    ck_assert_int_eq(s.kind[5], TOOLGOV_AUDIT_CONFIRM_ASKED);
    ck_assert_uint_eq(s.grant[5], 0);
    /* A gate query is not a use. */
    ck_assert_int_eq(toolgov_run_gate(x.e.run, "lookup", "{}"), TOOLGOV_GATE_REFUSE);
    ck_assert_uint_eq(s.n, 6);
    genv_close(&x);
}
END_TEST

/* An observer that cannot record the grant's use stops the call. */
static int refuse_all(void *ud, const toolgov_audit_event *ev)
{
    (void)ud;
    (void)ev;
    return TOOLGOV_EFAIL;
}

START_TEST(unrecorded_use_does_not_run)
{
    genv x;
    toolgov_audit_options ao;

    genv_open(&x, "alice");
    memset(&ao, 0, sizeof ao);
    ao.observer = refuse_all;
    ck_assert_int_eq(toolgov_run_set_audit(x.e.run, &ao), 0);
    ck_assert_int_eq(grant(&x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, x.e.run, "make_note", "{}"), TOOLGOV_EFAIL);
    ck_assert_int_eq(x.e.counts.calls[FX_MAKE_NOTE], 0);
    genv_close(&x);
}
END_TEST

/* ---- the sealed text ---- */

/* A set with one grant of each kind, args with bytes that need the
** length prefix. */
static void busy_set(genv *x)
{
    ck_assert_int_eq(grant(x, "make_note", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(grant(x, "make_note", "{\"t\":\"a\\nb 3:c\"}", TOOLGOV_GRANT_NEVER, 5000,
                           NULL), 0);
    ck_assert_int_eq(grant(x, "purge", "{\"x\":1}", TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    ck_assert_int_eq(grant(x, "memory_search", NULL, TOOLGOV_GRANT_NEVER, 0, NULL), 0);
}

START_TEST(round_trip)
{
    genv x, y;
    char *text, *again;
    size_t len, len2;

    genv_open(&x, "alice");
    busy_set(&x);
    text = save(x.g, &test_key, &len);
    ck_assert_int_eq(strncmp(text, "toolgov-grants 1\nbound 5:alice\nnext 5\n", 38), 0);
    ck_assert_ptr_nonnull(strstr(text, "grant 4 never 1000 0 0: 13:memory_search - 10:alice@desk\n"));
    genv_open(&y, "alice");
    ck_assert_int_eq(toolgov_grants_load(y.g, text, len, &test_key), 0);
    ck_assert_uint_eq(toolgov_grants_count(y.g), 4);
    again = save(y.g, &test_key, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_mem_eq(text, again, len);
    /* The loaded grants decide as the saved ones did. */
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "make_note", "{\"t\":\"a\\nb 3:c\"}"),
                     TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "purge", "{\"x\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "memory_search", "{}"), TOOLGOV_GATE_REFUSE);
    free(text);
    free(again);
    genv_close(&x);
    genv_close(&y);
}
END_TEST

/* The set after a refused load is as it was: its saved text is the same. */
static void assert_refused(genv *y, const char *text, size_t len, const char *before,
                           size_t before_len)
{
    char *after;
    size_t after_len;

    ck_assert_int_eq(toolgov_grants_load(y->g, text, len, &test_key), TOOLGOV_ESTATE);
    after = save(y->g, &test_key, &after_len);
    ck_assert_uint_eq(after_len, before_len);
    ck_assert_mem_eq(after, before, before_len);
    free(after);
}

START_TEST(every_altered_byte_is_refused)
{
    genv x, y;
    char *text, *before, *copy;
    size_t len, before_len, i;
    static const unsigned char flips[] = {0x01, 0x20, 0x80};

    genv_open(&x, "alice");
    busy_set(&x);
    text = save(x.g, &test_key, &len);
    genv_open(&y, "alice");
    ck_assert_int_eq(grant(&y, "set_pref", NULL, TOOLGOV_GRANT_ALLOW, 0, NULL), 0);
    before = save(y.g, &test_key, &before_len);
    copy = malloc(len + 1);
    for (i = 0; i < len; i++) {
        size_t f;

        for (f = 0; f < sizeof flips; f++) {
            memcpy(copy, text, len);
            copy[i] = (char)(copy[i] ^ flips[f]);
            assert_refused(&y, copy, len, before, before_len);
        }
    }
    /* Every cut, and a byte more. */
    for (i = 0; i < len; i++)
        assert_refused(&y, text, i, before, before_len);
    memcpy(copy, text, len);
    copy[len] = '\n';
    assert_refused(&y, copy, len + 1, before, before_len);
    /* The text itself still loads. */
    ck_assert_int_eq(toolgov_grants_load(y.g, text, len, &test_key), 0);
    free(copy);
    free(before);
    free(text);
    genv_close(&x);
    genv_close(&y);
}
END_TEST

START_TEST(another_user_key_or_kind_is_refused)
{
    genv x, y;
    char *text, *before, *state;
    size_t len, before_len, state_len = 0;

    genv_open(&x, "alice");
    busy_set(&x);
    text = save(x.g, &test_key, &len);
    genv_open(&y, "alicf");
    before = save(y.g, &test_key, &before_len);
    /* Another user, even one a byte away. */
    assert_refused(&y, text, len, before, before_len);
    /* Another key. */
    ck_assert_int_eq(toolgov_grants_load(x.g, text, len, &other_key), TOOLGOV_ESTATE);
    ck_assert_uint_eq(toolgov_grants_count(x.g), 4);
    /* A saved run under the same key is not a grants text. */
    ck_assert_int_eq(toolgov_run_save(NULL, 0, &state_len, x.e.run, &test_key), 0);
    state = malloc(state_len + 1);
    ck_assert_int_eq(toolgov_run_save(state, state_len + 1, &state_len, x.e.run, &test_key), 0);
    assert_refused(&y, state, state_len, before, before_len);
    ck_assert_int_eq(toolgov_grants_load(x.g, state, state_len, &test_key), TOOLGOV_ESTATE);
    ck_assert_int_eq(toolgov_grants_load(x.g, NULL, 0, &test_key), TOOLGOV_ESTATE);
    ck_assert_int_eq(toolgov_grants_load(x.g, text, len, NULL), TOOLGOV_EINVAL);
    free(state);
    free(before);
    free(text);
    genv_close(&x);
    genv_close(&y);
}
END_TEST

/* A body sealed by a key holder (seal.h's layout), to reach the reader's
** own checks behind the mac. */
static char *sealed(const char *user, const char *body, const toolgov_state_key *key,
                    size_t *len)
{
    unsigned char mac[32];
    char hex[65], head[300];
    size_t hl, bl = strlen(body);
    char *s;

    hl = (size_t)snprintf(head, sizeof head, "toolgov-grants 1\nbound %zu:%s\n", strlen(user),
                          user);
    s = malloc(hl + bl + 70);
    memcpy(s, head, hl);
    memcpy(s + hl, body, bl);
    crypto_generichash(mac, sizeof mac, (const unsigned char *)s, hl + bl, key->bytes,
                       sizeof key->bytes);
    sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
    memcpy(s + hl + bl, "mac ", 4);
    memcpy(s + hl + bl + 4, hex, 64);
    s[hl + bl + 68] = '\n';
    *len = hl + bl + 69;
    return s;
}

START_TEST(sealed_bodies_the_reader_refuses)
{
    static const char *const bad[] = {
        "",
        "next 0\n",
        "next 01\n",
        "next 3\ngrant 3 allow 1 0 5:alpha 9:make_note - 1:a\n",       /* id not below next */
        "next 9\ngrant 2 allow 1 0 5:alpha 9:make_note - 1:a\n"
        "grant 2 never 1 0 5:alpha 6:lookup - 1:a\n",                    /* ids not rising */
        "next 9\ngrant 1 maybe 1 0 5:alpha 9:make_note - 1:a\n",
        "next 9\ngrant 1 allow 1 0 5:alpha 0: - 1:a\n",                  /* no tool */
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note - 0:\n",          /* no granter */
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note - 1:\n\n",        /* a control byte */
        "next 9\ngrant 1 allow 5 5 5:alpha 9:make_note - 1:a\n",         /* expires at creation */
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note 2:{} 1:a\n"
        "grant 2 never 1 0 5:alpha 9:make_note 2:{} 1:a\n",              /* one scope twice */
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note - 1:a\n"
        "grant 2 never 1 0 5:alpha 6:lookup - 1:a\n"
        "grant 3 never 1 0 4:beta 9:make_note - 1:a\n"
        "grant 4 allow 1 0 5:alpha 9:make_note - 1:a\n",                /* the same, apart */
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note 99:{} 1:a\n",     /* past the end */
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note - 1:a\nextra\n",
        "next 9\ngrant 1 allow 1 0 5:alpha 9:make_note - 1:a",           /* no newline */
        "next 99999999999999999999\n",
    };
    genv y;
    char *before, *s;
    size_t before_len, len, i;

    genv_open(&y, "alice");
    before = save(y.g, &test_key, &before_len);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = sealed("alice", bad[i], &test_key, &len);
        assert_refused(&y, s, len, before, before_len);
        free(s);
    }
    free(before);
    genv_close(&y);
}
END_TEST

/* Scopes that differ in one part only are distinct grants: the whole tool
** and a call of it, two calls, the same tool name under two plugins. */
START_TEST(near_scopes_are_distinct_grants)
{
    genv y;
    char *s;
    size_t len;

    genv_open(&y, "alice");
    s = sealed("alice",
               "next 9\n"
               "grant 1 allow 1 0 5:alpha 9:make_note 7:{\"a\":1} 1:a\n"
               "grant 2 allow 1 0 5:alpha 9:make_note - 1:a\n"
               "grant 3 never 1 0 5:alpha 9:make_note 7:{\"a\":2} 1:a\n"
               "grant 4 allow 1 0 4:beta 9:make_note - 1:a\n",
               &test_key, &len);
    ck_assert_int_eq(toolgov_grants_load(y.g, s, len, &test_key), 0);
    ck_assert_uint_eq(toolgov_grants_count(y.g), 4);
    free(s);
    genv_close(&y);
}
END_TEST

/* What only a key holder could write, the gate still checks at use: a
** destructive tool granted as a whole is not allowed, a grant naming the
** tool under another plugin matches nothing. */
START_TEST(key_holder_texts_still_checked_at_the_gate)
{
    genv y;
    char *s;
    size_t len;

    genv_open(&y, "alice");
    s = sealed("alice",
               "next 9\n"
               "grant 1 allow 1 0 5:alpha 5:purge - 1:a\n"
               "grant 2 allow 1 0 4:beta 9:make_note - 1:a\n"
               "grant 3 never 1 0 4:beta 6:lookup - 1:a\n"
               "grant 4 allow 1 0 5:alpha 8:set_pref 8:{ \"a\":1} 1:a\n",
               &test_key, &len);
    ck_assert_int_eq(toolgov_grants_load(y.g, s, len, &test_key), 0);
    ck_assert_uint_eq(toolgov_grants_count(y.g), 4);
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "purge", "{}"), TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(y.e.run, "lookup", "{}"), TOOLGOV_GATE_ALLOW);
    free(s);
    genv_close(&y);
}
END_TEST

START_TEST(save_buffer_contract)
{
    genv x;
    char *text, small[16];
    size_t len, need = 0;

    genv_open(&x, "alice");
    busy_set(&x);
    text = save(x.g, &test_key, &len);
    ck_assert_int_eq(toolgov_grants_save(small, sizeof small, &need, x.g, &test_key),
                     TOOLGOV_ENOSPC);
    ck_assert_uint_eq(need, len);
    ck_assert_int_eq(toolgov_grants_save(NULL, 4, &need, x.g, &test_key), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_grants_save(small, sizeof small, &need, NULL, &test_key),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_grants_save(small, sizeof small, &need, x.g, NULL), TOOLGOV_EINVAL);
    free(text);
    genv_close(&x);
}
END_TEST

/* Every allocation of add and load fails once in turn: a clean error, the
** set as it was, nothing leaked. */
START_TEST(allocation_failures)
{
    fx_alloc_state st;
    toolgov_allocator a = {fx_alloc, &st};
    genv x;
    toolgov_grants *g;
    char *text;
    size_t len, n;
    long long clock = 10;
    int rc;

    genv_open(&x, "alice");
    busy_set(&x);
    text = save(x.g, &test_key, &len);
    for (n = 1;; n++) {
        toolgov_grant gr;
        long live;

        memset(&st, 0, sizeof st);
        ck_assert_int_eq(toolgov_grants_new(&g, "alice", &a), 0);
        toolgov_grants_set_clock(g, test_clock, &clock);
        live = st.live;
        st.fail_at = st.attempts + n;
        rc = toolgov_grants_load(g, text, len, &test_key);
        if (rc == 0) {
            memset(&gr, 0, sizeof gr);
            gr.tool = "purge";
            gr.args = "{\"y\":2}";
            gr.verdict = TOOLGOV_GRANT_NEVER;
            rc = toolgov_grants_add(NULL, g, x.e.reg, &gr);
            if (rc == 0) {
                ck_assert_uint_eq(toolgov_grants_count(g), 5);
                toolgov_grants_free(g);
                ck_assert_int_eq(st.live, 0);
                break;
            }
            ck_assert_uint_eq(toolgov_grants_count(g), 4);
        } else {
            ck_assert_uint_eq(toolgov_grants_count(g), 0);
            ck_assert_int_eq(st.live, live);
        }
        ck_assert_int_eq(rc, TOOLGOV_ENOMEM);
        toolgov_grants_free(g);
        ck_assert_int_eq(st.live, 0);
    }
    ck_assert_uint_gt(n, 3);
    free(text);
    genv_close(&x);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("grants");
    TCase *gate = tcase_create("gate");
    TCase *text = tcase_create("text");
    SRunner *sr;
    int failed;

    tcase_add_test(gate, allow_whole_tool_answers_the_confirmation);
    tcase_add_test(gate, allow_one_exact_call);
    tcase_add_test(gate, never_refuses_with_its_own_reason);
    tcase_add_test(gate, never_wins_over_allow_and_replay);
    tcase_add_test(gate, destructive_tools_only_call_by_call);
    tcase_add_test(gate, add_refuses_what_cannot_be_granted);
    tcase_add_test(gate, list_and_replace);
    tcase_add_test(gate, expiry_at_the_boundary);
    tcase_add_test(gate, revoked_grants_are_never_used);
    tcase_add_test(gate, grants_of_another_tool_do_not_apply);
    tcase_add_test(gate, many_grants_each_tool_finds_its_own);
    tcase_add_test(gate, children_use_their_roots_grants);
    tcase_add_test(gate, batches_ask_only_what_no_grant_answers);
    tcase_add_test(gate, every_use_is_an_audit_event_naming_the_grant);
    tcase_add_test(gate, unrecorded_use_does_not_run);
    suite_add_tcase(s, gate);
    tcase_add_test(text, round_trip);
    tcase_add_test(text, every_altered_byte_is_refused);
    tcase_add_test(text, another_user_key_or_kind_is_refused);
    tcase_add_test(text, sealed_bodies_the_reader_refuses);
    tcase_add_test(text, near_scopes_are_distinct_grants);
    tcase_add_test(text, key_holder_texts_still_checked_at_the_gate);
    tcase_add_test(text, save_buffer_contract);
    tcase_add_test(text, allocation_failures);
    tcase_set_timeout(text, 120);
    suite_add_tcase(s, text);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
