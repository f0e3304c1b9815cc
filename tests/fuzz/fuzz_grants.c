/* SPDX-License-Identifier: MIT */
/*
** fuzz_grants.c: libFuzzer target for reading a sealed grants text
** (toolgov_grants_load, grants.h). Seeded with the state fuzzer's seeds
** (saved runs: the same sealed layout, another kind) and with grants texts.
**
** Each input is tried twice: as is (the seal itself is fuzzed: a mutated
** text essentially never carries a valid mac), and "fixed up": a trailing
** mac line dropped, the head made the grants magic and the fuzz user's
** binding when it is not, and the text sealed with the test key, so the
** reader behind the seal sees mutated text instead of stopping at the mac.
** Invariants: a refused load leaves the set exactly as it was (its saved
** text is unchanged); an accepted one saves to a text that loads into a
** fresh set and saves again to the same bytes, and holds no grant past its
** expiry; the gate of a run holding the set then answers every tool
** without crashing, never allows a destructive call that no allow grant
** names exactly, and refuses every tool a never grant names as a whole.
*/
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>

#include "fuzz_runtime_fixture.h"

#include <sodium.h>
#include <toolgov/grants.h>

#include "fuzz_seal.h"

#define FUZZ_USER "fuzz"
#define FUZZ_HEAD "toolgov-grants 1\nbound 4:" FUZZ_USER "\n"
#define FUZZ_NOW 1000000LL

static long long fuzz_clock(void *ud)
{
    (void)ud;
    return FUZZ_NOW;
}

static toolgov_grants *new_set(void)
{
    toolgov_grants *g = NULL;

    FUZZ_CHECK(toolgov_grants_new(&g, FUZZ_USER, NULL) == 0);
    toolgov_grants_set_clock(g, fuzz_clock, NULL);
    return g;
}

static char *save(const toolgov_grants *g, size_t *len)
{
    size_t need = 0;
    char *buf;

    FUZZ_CHECK(toolgov_grants_save(NULL, 0, &need, g, &fuzz_test_key) == 0);
    buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(toolgov_grants_save(buf, need + 1, len, g, &fuzz_test_key) == 0);
    FUZZ_CHECK(*len == need);
    return buf;
}

/* The gate over a run that holds the set. */
static void exercise(const toolgov_grants *g)
{
    static const char *const args[] = {"{}", "{\"a\":1}", "{\"all\":true}"};
    toolgov_run *run = NULL;
    size_t i, j, k, n = toolgov_grants_count(g);

    FUZZ_CHECK(toolgov_run_new(&run, fixture_pol, NULL) == 0);
    FUZZ_CHECK(toolgov_run_set_grants(run, g) == 0);
    for (i = 0; i < sizeof fixture_tools / sizeof fixture_tools[0]; i++) {
        const toolgov_tool_spec *t = &fixture_tools[i];

        for (j = 0; j < sizeof args / sizeof args[0]; j++) {
            toolgov_gate gate = toolgov_run_gate(run, t->name, args[j]);
            int exact_allow = 0, whole_never = 0, any_never = 0;

            FUZZ_CHECK(gate >= TOOLGOV_GATE_ALLOW && gate <= TOOLGOV_GATE_REFUSE);
            for (k = 0; k < n; k++) {
                toolgov_grant gr;

                FUZZ_CHECK(toolgov_grants_at(&gr, g, k) == 0);
                if (strcmp(gr.tool, t->name) != 0 || strcmp(gr.plugin, "fuzzplug") != 0)
                    continue;
                if (gr.verdict == TOOLGOV_GRANT_NEVER) {
                    whole_never |= gr.args == NULL;
                    any_never |= gr.args == NULL || strcmp(gr.args, args[j]) == 0;
                } else if (gr.args && strcmp(gr.args, args[j]) == 0) {
                    exact_allow = 1;
                }
            }
            if (whole_never || any_never)
                FUZZ_CHECK(gate == TOOLGOV_GATE_REFUSE);
            if (t->effect == TOOLGOV_EFFECT_DESTRUCTIVE && gate == TOOLGOV_GATE_ALLOW)
                FUZZ_CHECK(exact_allow);
        }
    }
    toolgov_run_free(run);
}

static void try_load(const char *text, size_t len)
{
    toolgov_grants *g = new_set(), *again;
    toolgov_grant seed;
    char *before, *after;
    size_t before_len, after_len, i;
    int rc;

    /* A set that holds something, so "unchanged" means something. */
    memset(&seed, 0, sizeof seed);
    seed.tool = "create_note";
    seed.verdict = TOOLGOV_GRANT_ALLOW;
    FUZZ_CHECK(toolgov_grants_add(NULL, g, fixture_reg, &seed) == 0);
    before = save(g, &before_len);
    rc = toolgov_grants_load(g, text, len, &fuzz_test_key);
    FUZZ_CHECK(rc == 0 || rc == TOOLGOV_ESTATE || rc == TOOLGOV_ENOMEM);
    after = save(g, &after_len);
    if (rc != 0) {
        FUZZ_CHECK(before_len == after_len && memcmp(before, after, after_len) == 0);
    } else {
        char *third;
        size_t third_len;

        for (i = 0; i < toolgov_grants_count(g); i++) {
            toolgov_grant gr;

            FUZZ_CHECK(toolgov_grants_at(&gr, g, i) == 0);
            FUZZ_CHECK(gr.expires == TOOLGOV_GRANT_NO_EXPIRY || gr.expires > FUZZ_NOW);
            FUZZ_CHECK(gr.id > 0 && gr.tool[0] != '\0' && gr.granted_by[0] != '\0');
        }
        again = new_set();
        FUZZ_CHECK(toolgov_grants_load(again, after, after_len, &fuzz_test_key) == 0);
        third = save(again, &third_len);
        FUZZ_CHECK(third_len == after_len && memcmp(third, after, after_len) == 0);
        free(third);
        toolgov_grants_free(again);
        exercise(g);
    }
    free(before);
    free(after);
    toolgov_grants_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *mac, *nl;
    size_t body = size, head = sizeof FUZZ_HEAD - 1, skip = 0, n;
    char *fixed;

    fixture_init();
    try_load(text, size);

    /* Fixed up: drop a trailing mac line; a text of another kind (a saved
    ** run) or another user loses its first line or two for our head. */
    mac = size >= 4 ? memmem(text, size, "\nmac ", 5) : NULL;
    if (mac != NULL)
        body = (size_t)(mac - text) + 1;
    if (body >= head && memcmp(text, FUZZ_HEAD, head) == 0) {
        head = 0;
    } else {
        nl = memchr(text, '\n', body);
        skip = nl ? (size_t)(nl - text) + 1 : 0;
        if (skip && body - skip >= 6 && memcmp(text + skip, "bound ", 6) == 0 &&
            (nl = memchr(text + skip, '\n', body - skip)) != NULL)
            skip = (size_t)(nl - text) + 1;
    }
    fixed = malloc(head + body - skip + FUZZ_SEAL_BYTES);
    FUZZ_CHECK(fixed != NULL);
    memcpy(fixed, FUZZ_HEAD, head);
    memcpy(fixed + head, text + skip, body - skip);
    n = seal(fixed, head + body - skip);
    try_load(fixed, n);
    free(fixed);
    return 0;
}
