/* SPDX-License-Identifier: MIT */
/*
** fuzz_override.c: libFuzzer target for the TOOLGOV_CONFIRM_ONCE_TOOLS
** override parser (toolgov_policy_set_override).
**
** Invariants: every name the effective set lists is a pooled tool that
** toolgov_policy_is_confirm_once() confirms; setting the same text twice
** gives the same set, fingerprint and number of drift rows (an override
** replaces the previous one, it never piles up rows or memory); clearing it
** gives back the derived set. The drift panel, whose override rows carry
** names taken from the text, renders as text and JSON with the snprintf-like
** buffer contract kept and no raw control byte inside the JSON.
*/
#include <string.h>

#include <toolgov/drift.h>

#include "fuzz_runtime_fixture.h"

static unsigned long long derived_fp;
static size_t derived_count;
static size_t base_rows;

static void check_set(void)
{
    size_t i, n = toolgov_policy_confirm_once_count(fixture_pol);
    FUZZ_CHECK(n <= toolgov_registry_count(fixture_reg));
    for (i = 0; i < n; i++) {
        const char *name = toolgov_policy_confirm_once_at(fixture_pol, i);
        FUZZ_CHECK(name != NULL);
        FUZZ_CHECK(toolgov_registry_find(fixture_reg, name) != NULL);
        FUZZ_CHECK(toolgov_policy_is_confirm_once(fixture_pol, name) == 1);
    }
    FUZZ_CHECK(toolgov_policy_confirm_once_at(fixture_pol, n) == NULL);
}

typedef int (*render_fn)(char *, size_t, size_t *, const toolgov_registry *,
                         const struct toolgov_policy *);

static void check_render(render_fn fn, int json)
{
    size_t need = 0, need2 = 0, i;
    char *buf;
    int rc = fn(NULL, 0, &need, fixture_reg, fixture_pol);
    FUZZ_CHECK(rc == 0);
    buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(fn(buf, need + 1, &need2, fixture_reg, fixture_pol) == 0);
    FUZZ_CHECK(need2 == need && strlen(buf) == need);
    if (json) {
        for (i = 0; i + 1 < need; i++)
            FUZZ_CHECK((unsigned char)buf[i] >= 0x20);
        FUZZ_CHECK(need > 0 && buf[need - 1] == '\n');
    }
    if (need > 1) {
        /* Cut short: NUL-terminated, a prefix of the whole. */
        char *small = malloc(need / 2 + 1);
        FUZZ_CHECK(small != NULL);
        FUZZ_CHECK(fn(small, need / 2 + 1, &need2, fixture_reg, fixture_pol) == TOOLGOV_ENOSPC);
        FUZZ_CHECK(strlen(small) <= need / 2 && memcmp(small, buf, strlen(small)) == 0);
        free(small);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    int rc;
    unsigned long long fp1;
    size_t count1, rows1;

    if (fixture_reg == NULL) {
        fixture_init();
        derived_fp = toolgov_policy_fingerprint(fixture_pol);
        derived_count = toolgov_policy_confirm_once_count(fixture_pol);
        base_rows = toolgov_drift_count(fixture_reg, fixture_pol);
    }
    text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';

    rc = toolgov_policy_set_override(fixture_pol, text);
    FUZZ_CHECK(rc == 0 || rc == TOOLGOV_ENOMEM || rc == TOOLGOV_EINVAL);
    check_set();
    fp1 = toolgov_policy_fingerprint(fixture_pol);
    count1 = toolgov_policy_confirm_once_count(fixture_pol);
    rows1 = toolgov_drift_count(fixture_reg, fixture_pol);
    check_render(toolgov_drift_render_text, 0);
    check_render(toolgov_drift_render_json, 1);

    FUZZ_CHECK(toolgov_policy_set_override(fixture_pol, text) == rc);
    check_set();
    FUZZ_CHECK(toolgov_policy_fingerprint(fixture_pol) == fp1);
    FUZZ_CHECK(toolgov_policy_confirm_once_count(fixture_pol) == count1);
    FUZZ_CHECK(toolgov_drift_count(fixture_reg, fixture_pol) == rows1);

    FUZZ_CHECK(toolgov_policy_set_override(fixture_pol, NULL) == 0);
    FUZZ_CHECK(toolgov_policy_fingerprint(fixture_pol) == derived_fp);
    FUZZ_CHECK(toolgov_policy_confirm_once_count(fixture_pol) == derived_count);
    FUZZ_CHECK(toolgov_drift_count(fixture_reg, fixture_pol) == base_rows);
    free(text);
    return 0;
}
