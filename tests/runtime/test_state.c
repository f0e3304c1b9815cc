/* SPDX-License-Identifier: MIT */
/* test_state.c: saving and restoring a run's state. */
#include <check.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

#include "fixture_run.h"

/* The host's key in these tests, and another one. */
static const toolgov_state_key test_key = {{
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}};
static const toolgov_state_key other_key = {{
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 33}};

#define MAC_LINE_LEN 69 /* "mac " + 64 hex digits + "\n" */

/* The identity of the run these tests pause and resume: a fresh run that
** resumes it is given the same one (run.h, toolgov_run_set_id). */
#define RUN_ID "conversation-7"
#define HEAD "toolgov-run 3\nbound 14:" RUN_ID "\n"

static void env_open_as(env *e, const char *override, const char *id)
{
    env_open(e, override);
    ck_assert_int_eq(toolgov_run_set_id(e->run, id), 0);
}

static char *save(const toolgov_run *run, size_t *len)
{
    size_t need = 0;
    char *buf;

    ck_assert_int_eq(toolgov_run_save(NULL, 0, &need, run, &test_key), 0);
    buf = malloc(need + 1);
    ck_assert_int_eq(toolgov_run_save(buf, need + 1, len, run, &test_key), 0);
    ck_assert_uint_eq(*len, need);
    return buf;
}

/* A run with every kind of state: confirmation given, two approvals, two
** results in hand, one with bytes that need the length prefix. */
static void busy_run(env *e)
{
    ck_assert_int_eq(toolgov_run_confirm(e->run, 1), 0);
    ck_assert_int_eq(toolgov_run_approve(e->run, "purge", "{\"a\":1}"), 0);
    ck_assert_int_eq(toolgov_run_approve(e->run, "purge", "{\"b\":\"x\\ny 3:z\"}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e->run, "lookup", "{}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e->run, "digest", "{\"d\":\"\\nheld 1:\"}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(NULL, e->run, "tidy", "{}"), 0);
}

START_TEST(round_trip_in_a_fresh_run)
{
    env a, b;
    char *text, *again;
    size_t len, len2;
    toolgov_outcome oc;

    env_open_as(&a, NULL, RUN_ID);
    busy_run(&a);
    text = save(a.run, &len);
    ck_assert_int_eq(strncmp(text, HEAD, strlen(HEAD)), 0);

    /* "Another process": a registry and policy built anew. */
    env_open_as(&b, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &test_key), 0);
    ck_assert_int_eq(toolgov_run_confirmation(b.run), TOOLGOV_CONFIRMATION_GIVEN);
    ck_assert_uint_eq(toolgov_run_pending_approvals(b.run), 2);
    /* Saving the restored run gives the same bytes. */
    again = save(b.run, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_mem_eq(text, again, len);
    /* The answers given before the pause still hold after it. */
    ck_assert_int_eq(toolgov_run_gate(b.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke(&oc, b.run, "purge", "{\"b\":\"x\\ny 3:z\"}"), 0);
    ck_assert_int_eq(oc.executed, 1);
    ck_assert_int_eq(toolgov_run_invoke(&oc, b.run, "digest", "{\"d\":\"\\nheld 1:\"}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    ck_assert_str_eq(oc.output, "digest {\"d\":\"\\nheld 1:\"}");
    ck_assert_int_eq(b.counts.calls[FX_DIGEST], 0);
    ck_assert_int_eq(b.counts.calls[FX_PURGE], 1);
    /* A run that had begun is not "first" after the pause. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, b.run, "digest", "{}"), 0);
    ck_assert_int_eq(oc.ended, 0);
    free(text);
    free(again);
    env_close(&a);
    env_close(&b);
}
END_TEST

START_TEST(round_trip_refused_and_ended)
{
    env a, b;
    char *text;
    size_t len, alen = 0;

    env_open_as(&a, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_confirm(a.run, 0), 0);
    text = save(a.run, &len);
    env_open_as(&b, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &test_key), 0);
    ck_assert_int_eq(toolgov_run_gate(b.run, "make_note", "{}"), TOOLGOV_GATE_REFUSE);
    free(text);
    env_close(&a);
    env_close(&b);

    env_open_as(&a, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_invoke(NULL, a.run, "digest", "{}"), 0);
    ck_assert_int_eq(toolgov_run_end_reason(a.run), TOOLGOV_END_ANSWERED_DIRECTLY);
    text = save(a.run, &len);
    env_open_as(&b, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &test_key), 0);
    ck_assert_int_eq(toolgov_run_end_reason(b.run), TOOLGOV_END_ANSWERED_DIRECTLY);
    ck_assert_str_eq(toolgov_run_answer(b.run, &alen), "digest {}");
    ck_assert_int_eq(toolgov_run_invoke(NULL, b.run, "lookup", "{}"), TOOLGOV_EENDED);
    free(text);
    env_close(&a);
    env_close(&b);
}
END_TEST

/* Restoring must fail and leave the target run exactly as it was. */
static void assert_rejected(env *b, const char *text, size_t len, const char *before,
                            size_t before_len)
{
    char *now;
    size_t now_len;

    ck_assert_int_eq(toolgov_run_restore(b->run, text, len, &test_key), TOOLGOV_ESTATE);
    now = save(b->run, &now_len);
    ck_assert_uint_eq(now_len, before_len);
    ck_assert_mem_eq(now, before, now_len);
    free(now);
}

START_TEST(truncated_and_altered_text_rejected)
{
    env a, b;
    char *text, *before, *copy;
    size_t len, before_len, i;

    env_open_as(&a, NULL, RUN_ID);
    busy_run(&a);
    text = save(a.run, &len);
    /* The target run has its own state, which must survive every failure. */
    env_open_as(&b, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_approve(b.run, "purge", "{\"mine\":1}"), 0);
    before = save(b.run, &before_len);

    for (i = 0; i < len; i++)
        assert_rejected(&b, text, i, before, before_len);
    copy = malloc(len + 1);
    for (i = 0; i < len; i++) {
        memcpy(copy, text, len);
        copy[i] ^= 0x01;
        assert_rejected(&b, copy, len, before, before_len);
        copy[i] ^= 0x01 ^ 0xa5;
        assert_rejected(&b, copy, len, before, before_len);
    }
    /* Appended bytes. */
    memcpy(copy, text, len);
    copy[len] = '\n';
    assert_rejected(&b, copy, len + 1, before, before_len);
    ck_assert_int_eq(toolgov_run_restore(b.run, NULL, 5, &test_key), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_restore(NULL, text, len, &test_key), TOOLGOV_EINVAL);
    free(copy);
    free(text);
    free(before);
    env_close(&a);
    env_close(&b);
}
END_TEST

/* The old unkeyed checksum (FNV-1a 64), which anyone can recompute. */
static unsigned long long fnv(const char *s, size_t n)
{
    unsigned long long h = 0xcbf29ce484222325ull;
    size_t i;

    for (i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Text with a valid mac under `key` but contents that may not make sense:
** the mac is computed the way the runtime does (keyed BLAKE2b-256), so only
** the parser and the consistency checks stand between it and the run. */
static char *sealed_with(const char *body, size_t n, const toolgov_state_key *key,
                         size_t *len)
{
    unsigned char mac[crypto_generichash_BYTES];
    char *s = malloc(n + MAC_LINE_LEN + 1);

    ck_assert_int_ge(sodium_init(), 0);
    crypto_generichash(mac, sizeof mac, (const unsigned char *)body, n, key->bytes,
                       sizeof key->bytes);
    memcpy(s, body, n);
    memcpy(s + n, "mac ", 4);
    sodium_bin2hex(s + n + 4, 2 * sizeof mac + 1, mac, sizeof mac);
    s[n + MAC_LINE_LEN - 1] = '\n';
    *len = n + MAC_LINE_LEN;
    return s;
}

static char *sealed(const char *body, size_t *len)
{
    return sealed_with(body, strlen(body), &test_key, len);
}

START_TEST(foreign_and_inconsistent_text_rejected)
{
    env a, b, other;
    char *text, *before, *s, body[512];
    size_t len, before_len, slen;
    char fp[17];
    unsigned k;
    const char *bad_bodies[] = {
        "toolgov-run 1\npolicy %s\nconfirm given\nfirst 0\nend none\nanswer -\n",
        HEAD "policy %s\nconfirm maybe\nfirst 0\nend none\nanswer -\n",
        HEAD "policy %s\nconfirm given\nfirst 2\nend none\nanswer -\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend answered_directly\nanswer -\n",
        HEAD "policy %s\nconfirm given\nfirst 1\nend none\nanswer 0\n",
        HEAD "policy %s\nconfirm given\nfirst 1\nend answered_directly\nanswer 0\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\napproval 5:alpha 6:lookup 2:{}\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\napproval 5:alpha 4:nope 2:{}\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\napproval 5:alpha 5:purge 9:{}\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\napproval 5:alpha 05:purge 2:{}\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\nheld 5:alpha 6:lookup 2:{} 1:x\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\nheld 5:alpha 6:digest 2:{}\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\nextra\n",
        /* the audit count: a positive decimal, once, in its place */
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\naudit 0\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\naudit 07\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\naudit -1\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\naudit 3\naudit 4\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\naudit 3\nanswer -\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -",
        (HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\n"
         "held 5:alpha 6:digest 2:{} 99999999999999999999:x\n"),
        /* a tool named under a plugin that does not own it */
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\napproval 4:beta 5:purge 2:{}\n",
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\napproval 0: 5:purge 2:{}\n",
        /* a result in hand means a tool ran: the first tool cannot still be ahead */
        HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\nheld 5:alpha 6:digest 2:{} 1:x\n",
    };

    env_open_as(&a, NULL, RUN_ID);
    busy_run(&a);
    text = save(a.run, &len);

    /* A policy with another confirm-once set is another run's world. */
    env_open_as(&other, "none", RUN_ID);
    before = save(other.run, &before_len);
    assert_rejected(&other, text, len, before, before_len);
    free(before);

    env_open_as(&b, NULL, RUN_ID);
    before = save(b.run, &before_len);
    snprintf(fp, sizeof fp, "%016llx", toolgov_policy_fingerprint(b.pol));
    /* The good skeleton is accepted, so the rejections below are about
    ** what each body changes. */
    snprintf(body, sizeof body,
             HEAD "policy %s\nconfirm given\nfirst 0\nend none\nanswer -\n", fp);
    s = sealed(body, &slen);
    ck_assert_int_eq(toolgov_run_restore(other.run, s, slen, &test_key), TOOLGOV_ESTATE);
    ck_assert_int_eq(toolgov_run_restore(b.run, s, slen, &test_key), 0);
    ck_assert_int_eq(toolgov_run_confirmation(b.run), TOOLGOV_CONFIRMATION_GIVEN);
    free(s);
    free(before);
    env_close(&b);
    env_open_as(&b, NULL, RUN_ID);
    before = save(b.run, &before_len);
    for (k = 0; k < sizeof bad_bodies / sizeof bad_bodies[0]; k++) {
        snprintf(body, sizeof body, bad_bodies[k], fp);
        s = sealed(body, &slen);
        ck_assert_msg(toolgov_run_restore(b.run, s, slen, &test_key) == TOOLGOV_ESTATE, "body %u accepted", k);
        assert_rejected(&b, s, slen, before, before_len);
        free(s);
    }
    free(before);
    free(text);
    env_close(&a);
    env_close(&b);
    env_close(&other);
}
END_TEST

/* The attacks the mac is there for: someone who can edit the stored text
** turns "confirm pending" into "confirm given" or adds an approval, then
** re-seals it with the old public checksum, or with a key of their own. */
START_TEST(forged_text_rejected)
{
    env a, b;
    char *text, *before, *body, *s, *p;
    size_t len, before_len, body_len, slen;
    char sum[32];

    env_open_as(&a, NULL, RUN_ID);
    text = save(a.run, &len);
    ck_assert_ptr_nonnull(strstr(text, "confirm pending\n"));
    env_open_as(&b, NULL, RUN_ID);
    before = save(b.run, &before_len);

    /* The body with the user's answer forged and an approval planted. */
    body = malloc(len + 64);
    p = strstr(text, "confirm pending\n");
    body_len = (size_t)(p - text);
    memcpy(body, text, body_len);
    memcpy(body + body_len, "confirm given\n", 14);
    memcpy(body + body_len + 14, p + 16, len - MAC_LINE_LEN - (size_t)(p + 16 - text));
    body_len = len - MAC_LINE_LEN - 2;
    memcpy(body + body_len, "approval 5:alpha 5:purge 2:{}\n", 30);
    body_len += 30;

    /* Re-sealed with the public checksum, in both the old and new layouts. */
    s = malloc(body_len + 64);
    memcpy(s, body, body_len);
    snprintf(sum, sizeof sum, "sum %016llx\n", fnv(body, body_len));
    memcpy(s + body_len, sum, 21);
    assert_rejected(&b, s, body_len + 21, before, before_len);
    memcpy(s, "toolgov-run 1\n", 14);
    snprintf(sum, sizeof sum, "sum %016llx\n", fnv(s, body_len));
    memcpy(s + body_len, sum, 21);
    assert_rejected(&b, s, body_len + 21, before, before_len);
    free(s);

    /* Sealed with another key: refused; with the host's key it would pass. */
    s = sealed_with(body, body_len, &other_key, &slen);
    assert_rejected(&b, s, slen, before, before_len);
    free(s);
    s = sealed_with(body, body_len, &test_key, &slen);
    ck_assert_int_eq(toolgov_run_restore(b.run, s, slen, &test_key), 0);
    ck_assert_int_eq(toolgov_run_confirmation(b.run), TOOLGOV_CONFIRMATION_GIVEN);
    free(s);

    /* The run's own text under another key is refused too. */
    ck_assert_int_eq(toolgov_run_restore(a.run, text, len, &other_key), TOOLGOV_ESTATE);
    ck_assert_int_eq(toolgov_run_restore(a.run, text, len, NULL), TOOLGOV_EINVAL);
    free(body);
    free(before);
    free(text);
    env_close(&a);
    env_close(&b);
}
END_TEST

/* Issue 29 item 2: a text saved from one run (its confirmation given, an
** approval) must not open the gate of another run under the same key: the
** text is bound to the run's identity. */
START_TEST(text_of_another_run_refused)
{
    env a, b;
    char *text, *before, *s, body[512];
    size_t len, before_len, slen;
    const char *const others[] = {"conversation-8", "conversation-", "conversation-77",
                                  "Conversation-7", "x"};
    char fp[17];
    unsigned k;

    env_open_as(&a, NULL, RUN_ID);
    busy_run(&a);
    text = save(a.run, &len);

    /* A fresh run keeps its random identity: not the saved run's. */
    env_open(&b, NULL);
    ck_assert_str_ne(toolgov_run_id(b.run), RUN_ID);
    ck_assert_uint_eq(strlen(toolgov_run_id(b.run)), 32);
    before = save(b.run, &before_len);
    assert_rejected(&b, text, len, before, before_len);
    ck_assert_int_eq(toolgov_run_gate(b.run, "make_note", "{}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(b.run, "purge", "{\"a\":1}"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    free(before);
    /* Nor does any identity but exactly the saved one, byte for byte. */
    for (k = 0; k < sizeof others / sizeof others[0]; k++) {
        ck_assert_int_eq(toolgov_run_set_id(b.run, others[k]), 0);
        before = save(b.run, &before_len);
        assert_rejected(&b, text, len, before, before_len);
        free(before);
    }
    ck_assert_int_eq(toolgov_run_set_id(b.run, RUN_ID), 0);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &test_key), 0);
    ck_assert_int_eq(toolgov_run_gate(b.run, "make_note", "{}"), TOOLGOV_GATE_ALLOW);

    /* The binding is under the mac: a text rebound to another run by
    ** someone without the key is an altered text. */
    snprintf(fp, sizeof fp, "%016llx", toolgov_policy_fingerprint(b.pol));
    snprintf(body, sizeof body,
             "toolgov-run 3\nbound 14:conversation-8\npolicy %s\nconfirm given\n"
             "first 0\nend none\nanswer -\n", fp);
    s = sealed_with(body, strlen(body), &other_key, &slen);
    ck_assert_int_eq(toolgov_run_set_id(b.run, "conversation-8"), 0);
    ck_assert_int_eq(toolgov_run_restore(b.run, s, slen, &test_key), TOOLGOV_ESTATE);
    free(s);
    /* A text with no binding at all (the old layout) is refused. */
    snprintf(body, sizeof body,
             "toolgov-run 3\npolicy %s\nconfirm given\nfirst 0\nend none\nanswer -\n", fp);
    s = sealed(body, &slen);
    ck_assert_int_eq(toolgov_run_restore(b.run, s, slen, &test_key), TOOLGOV_ESTATE);
    free(s);
    free(text);
    env_close(&a);
    env_close(&b);
}
END_TEST

/* The identity API: random by default, the host's when given, a child's
** is its root's. */
START_TEST(run_identity)
{
    env a, b;
    toolgov_run *child = NULL;
    char id[TOOLGOV_RUN_ID_MAX + 2];

    env_open(&a, NULL);
    env_open(&b, NULL);
    ck_assert_uint_eq(strspn(toolgov_run_id(a.run), "0123456789abcdef"), 32);
    ck_assert_str_ne(toolgov_run_id(a.run), toolgov_run_id(b.run));
    ck_assert_ptr_null(toolgov_run_id(NULL));
    ck_assert_int_eq(toolgov_run_set_id(NULL, "x"), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_set_id(a.run, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_set_id(a.run, ""), TOOLGOV_EINVAL);
    memset(id, 'r', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    ck_assert_int_eq(toolgov_run_set_id(a.run, id), TOOLGOV_EINVAL);
    id[TOOLGOV_RUN_ID_MAX] = '\0';
    ck_assert_int_eq(toolgov_run_set_id(a.run, id), 0);
    ck_assert_str_eq(toolgov_run_id(a.run), id);
    ck_assert_int_eq(toolgov_run_set_id(a.run, "user-1/chat-9"), 0);
    ck_assert_str_eq(toolgov_run_id(a.run), "user-1/chat-9");
    ck_assert_int_eq(toolgov_run_child_new(&child, a.run, NULL), 0);
    ck_assert_str_eq(toolgov_run_id(child), "user-1/chat-9");
    ck_assert_int_eq(toolgov_run_set_id(child, "mine"), TOOLGOV_EINVAL);
    toolgov_run_free(child);
    env_close(&a);
    env_close(&b);
}
END_TEST

/* Issue 29 item 16: the mac line is compared byte for byte, so a hex
** letter turned to upper case is a change like any other. */
START_TEST(mac_compared_case_sensitively)
{
    env a, b;
    char *text, *before, *copy;
    size_t len, before_len, i, changed = 0;

    env_open_as(&a, NULL, RUN_ID);
    busy_run(&a);
    text = save(a.run, &len);
    env_open_as(&b, NULL, RUN_ID);
    before = save(b.run, &before_len);
    copy = malloc(len);
    for (i = len - MAC_LINE_LEN + 4; i < len - 1; i++) {
        if (text[i] < 'a' || text[i] > 'f')
            continue;
        memcpy(copy, text, len);
        copy[i] = (char)(text[i] - 'a' + 'A');
        assert_rejected(&b, copy, len, before, before_len);
        changed++;
    }
    ck_assert_uint_gt(changed, 0);
    /* Every letter at once, too. */
    memcpy(copy, text, len);
    for (i = len - MAC_LINE_LEN + 4; i < len - 1; i++)
        if (copy[i] >= 'a' && copy[i] <= 'f')
            copy[i] = (char)(copy[i] - 'a' + 'A');
    assert_rejected(&b, copy, len, before, before_len);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &test_key), 0);
    free(copy);
    free(before);
    free(text);
    env_close(&a);
    env_close(&b);
}
END_TEST

START_TEST(keys_are_generated_at_random)
{
    toolgov_state_key k1, k2;

    ck_assert_int_eq(toolgov_state_key_generate(&k1), 0);
    ck_assert_int_eq(toolgov_state_key_generate(&k2), 0);
    ck_assert_int_ne(memcmp(k1.bytes, k2.bytes, sizeof k1.bytes), 0);
    ck_assert_int_eq(toolgov_state_key_generate(NULL), TOOLGOV_EINVAL);
}
END_TEST

/* The saving side of restore_in_another_process: run as
** `runtime_state --save FILE` in a process of its own, outside any Check
** test, so it checks return codes by hand instead of with ck_assert. */
static int save_to_file(const char *path)
{
    toolgov_registry *reg = fx_registry(NULL, NULL);
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    fx_counts counts;
    char text[8192];
    size_t len = 0;
    int bad = 0;
    FILE *f;

    memset(&counts, 0, sizeof counts);
    bad |= !reg;
    bad |= reg && toolgov_policy_new(&pol, reg) != 0;
    bad |= pol && toolgov_run_new(&run, pol, &counts) != 0;
    bad |= run && toolgov_run_set_id(run, RUN_ID) != 0;
    if (bad)
        return 1;
    bad |= toolgov_run_confirm(run, 1) != 0;
    bad |= toolgov_run_approve(run, "purge", "{\"a\":1}") != 0;
    bad |= toolgov_run_invoke(NULL, run, "lookup", "{}") != 0;
    bad |= toolgov_run_invoke(NULL, run, "tidy", "{}") != 0;
    bad |= toolgov_run_save(text, sizeof text, &len, run, &test_key) != 0;
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    if (bad)
        return 1;
    f = fopen(path, "wb");
    if (!f)
        return 1;
    bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    return bad;
}

static char self_path[4096];

/* The renderer convention (toolgov.h): size 0 asks for the size, returns 0
** and writes nothing. */
START_TEST(save_sizing_call)
{
    env a;
    char buf[8] = "#######";
    size_t need = 1, len = 0;
    char *text;

    env_open_as(&a, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_save(NULL, 0, &need, a.run, &test_key), 0);
    ck_assert_int_eq(toolgov_run_save(buf, 0, &len, a.run, &test_key), 0);
    ck_assert_str_eq(buf, "#######");
    ck_assert_uint_eq(len, need);
    text = malloc(need + 1);
    ck_assert_int_eq(toolgov_run_save(text, need + 1, &len, a.run, &test_key), 0);
    ck_assert_uint_eq(len, need);
    free(text);
    ck_assert_int_eq(toolgov_run_save(buf, sizeof buf, &len, NULL, &test_key), TOOLGOV_EINVAL);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(len, 0);
    env_close(&a);
}
END_TEST

START_TEST(restore_in_another_process)
{
    char path[] = "/tmp/toolgov-state-XXXXXX";
    char text[8192];
    int fd, status;
    pid_t pid;
    size_t len;
    FILE *f;
    env b;
    toolgov_outcome oc;

    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        execl(self_path, self_path, "--save", path, (char *)NULL);
        _exit(127);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    len = fread(text, 1, sizeof text, f);
    fclose(f);
    unlink(path);
    ck_assert_uint_gt(len, 0);

    env_open_as(&b, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, len, &test_key), 0);
    ck_assert_int_eq(toolgov_run_confirmation(b.run), TOOLGOV_CONFIRMATION_GIVEN);
    ck_assert_int_eq(toolgov_run_invoke(&oc, b.run, "purge", "{\"a\":1}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, b.run, "tidy", "{}"), 0);
    ck_assert_int_eq(oc.gate, TOOLGOV_GATE_REPLAY);
    ck_assert_int_eq(b.counts.total, 1);
    env_close(&b);
}
END_TEST

START_TEST(save_buffer_contract)
{
    env a;
    char small[10];
    size_t need = 0, need2 = 0;

    env_open_as(&a, NULL, RUN_ID);
    ck_assert_int_eq(toolgov_run_save(small, sizeof small, &need, a.run, &test_key), TOOLGOV_ENOSPC);
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
    ck_assert_int_eq(strncmp(small, "toolgov-r", 9), 0);
    ck_assert_int_eq(toolgov_run_save(NULL, 0, &need2, a.run, &test_key), 0);
    ck_assert_uint_eq(need, need2);
    ck_assert_int_eq(toolgov_run_save(NULL, 5, &need2, a.run, &test_key), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_save(small, 5, &need2, NULL, &test_key), TOOLGOV_EINVAL);
    env_close(&a);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s;
    TCase *tc;
    SRunner *sr;
    int failed;

    if (argc == 3 && strcmp(argv[1], "--save") == 0)
        return save_to_file(argv[2]);
    if (!realpath("/proc/self/exe", self_path))
        snprintf(self_path, sizeof self_path, "%s", argv[0]);
    s = suite_create("state");
    tc = tcase_create("save_restore");

    tcase_add_test(tc, round_trip_in_a_fresh_run);
    tcase_add_test(tc, round_trip_refused_and_ended);
    tcase_add_test(tc, truncated_and_altered_text_rejected);
    tcase_add_test(tc, foreign_and_inconsistent_text_rejected);
    tcase_add_test(tc, forged_text_rejected);
    tcase_add_test(tc, text_of_another_run_refused);
    tcase_add_test(tc, run_identity);
    tcase_add_test(tc, mac_compared_case_sensitively);
    tcase_add_test(tc, keys_are_generated_at_random);
    tcase_add_test(tc, save_buffer_contract);
    tcase_add_test(tc, save_sizing_call);
    tcase_add_test(tc, restore_in_another_process);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
