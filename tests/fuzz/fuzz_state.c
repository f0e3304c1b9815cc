/* SPDX-License-Identifier: MIT */
/*
** fuzz_state.c: libFuzzer target for restoring a run's saved state (the
** pause/resume text of run.h).
**
** Each input is tried twice: as is (so the mac and fingerprint checks
** themselves are fuzzed; a mutated text essentially never carries a valid
** mac), and "fixed up": the policy line's fingerprint set to the fixture's
** and the text sealed with the test key (fuzz_test_key) for the run identity
** every run here has (FUZZ_RUN_ID), so the parser behind
** those checks sees mutated text instead of stopping at the mac.
** Invariants: a refused restore leaves the run exactly as it was (its saved
** text is unchanged); an accepted one saves to a text that restores into a
** fresh run and saves again to the same bytes; the gate then answers every
** tool without crashing.
*/
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>

#include "fuzz_runtime_fixture.h"

#include <sodium.h>

#include "fuzz_seal.h"

/* The identity of every run here, which the corpus texts are bound to
** ("bound 8:fuzz-run"). */
#define FUZZ_RUN_ID "fuzz-run"

/* Save into a fresh malloc'd buffer; *len gets its length. */
static char *save(const toolgov_run *run, size_t *len)
{
    size_t need = 0;
    char *buf;
    int rc = toolgov_run_save(NULL, 0, &need, run, &fuzz_test_key);
    FUZZ_CHECK(rc == 0);
    buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(toolgov_run_save(buf, need + 1, len, run, &fuzz_test_key) == 0);
    FUZZ_CHECK(*len == need);
    /* No check for NUL bytes: held outputs are byte strings and may carry
    ** one (toolgov_result_set takes any bytes), which the <n>:<bytes>
    ** encoding passes through. */
    return buf;
}

static void exercise(toolgov_run *run)
{
    size_t i;
    toolgov_proposed_call calls[sizeof fixture_tools / sizeof fixture_tools[0] + 1];
    toolgov_gate per[sizeof calls / sizeof calls[0]], all;
    size_t idx[sizeof calls / sizeof calls[0]], nidx = 0;
    for (i = 0; i < sizeof fixture_tools / sizeof fixture_tools[0]; i++) {
        toolgov_gate g = toolgov_run_gate(run, fixture_tools[i].name, "{}");
        FUZZ_CHECK(g >= TOOLGOV_GATE_ALLOW && g <= TOOLGOV_GATE_REFUSE);
        calls[i].tool = fixture_tools[i].name;
        calls[i].args = NULL;
    }
    calls[i].tool = "no_such_tool";
    calls[i].args = "{}";
    FUZZ_CHECK(toolgov_run_gate_batch(&all, per, idx, &nidx, run, calls, i + 1) == 0);
    FUZZ_CHECK(nidx <= i + 1);
    FUZZ_CHECK(per[i] == TOOLGOV_GATE_REFUSE);
    {
        size_t alen = 0;
        const char *ans = toolgov_run_answer(run, &alen);
        if (ans != NULL)
            FUZZ_CHECK(toolgov_run_end_reason(run) == TOOLGOV_END_ANSWERED_DIRECTLY);
    }
}

static void try_restore(const char *text, size_t len)
{
    toolgov_run *run, *again;
    char *before, *after;
    size_t before_len, after_len;
    int rc;

    FUZZ_CHECK(toolgov_run_new(&run, fixture_pol, NULL) == 0);
    FUZZ_CHECK(toolgov_run_set_id(run, FUZZ_RUN_ID) == 0);
    before = save(run, &before_len);
    rc = toolgov_run_restore(run, text, len, &fuzz_test_key);
    FUZZ_CHECK(rc == 0 || rc == TOOLGOV_ESTATE || rc == TOOLGOV_ENOMEM);
    after = save(run, &after_len);
    if (rc != 0) {
        FUZZ_CHECK(before_len == after_len && memcmp(before, after, after_len) == 0);
    } else {
        char *third;
        size_t third_len;
        FUZZ_CHECK(toolgov_run_new(&again, fixture_pol, NULL) == 0);
        FUZZ_CHECK(toolgov_run_set_id(again, FUZZ_RUN_ID) == 0);
        FUZZ_CHECK(toolgov_run_restore(again, after, after_len, &fuzz_test_key) == 0);
        third = save(again, &third_len);
        FUZZ_CHECK(third_len == after_len && memcmp(third, after, after_len) == 0);
        free(third);
        exercise(again);
        toolgov_run_free(again);
        exercise(run);
    }
    free(before);
    free(after);
    toolgov_run_free(run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char *fixed;
    size_t body = size, n;
    const char *mac, *pol;

    fixture_init();
    try_restore(text, size);

    /* Fixed up: drop a trailing mac line, set the fingerprint, seal. */
    mac = size >= 4 ? memmem(text, size, "\nmac ", 5) : NULL;
    if (mac != NULL)
        body = (size_t)(mac - text) + 1;
    fixed = malloc(body + 4 + 2 * crypto_generichash_BYTES + 1);
    FUZZ_CHECK(fixed != NULL);
    memcpy(fixed, text, body);
    pol = memmem(fixed, body, "policy ", 7);
    if (pol != NULL && (size_t)(pol - fixed) + 7 + 16 <= body) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", toolgov_policy_fingerprint(fixture_pol));
        memcpy((char *)pol + 7, hex, 16);
    }
    n = seal(fixed, body);
    try_restore(fixed, n);
    free(fixed);
    return 0;
}
