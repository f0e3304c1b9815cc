/* SPDX-License-Identifier: MIT */
/*
** policy.c: the confirm-once set of a registry and the operator override.
**
** The set is a byte per pooled tool, indexed like the pool, so the gate
** answers "is this tool confirm-once?" with one load after the lookup it
** already did. Applying an override builds the new flags and rows aside and
** swaps them in only when everything succeeded.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void fingerprint(toolgov_policy *pol)
{
    uint64_t h = TOOLGOV__FNV64_INIT;
    size_t i;

    for (i = 0; i < pol->ntools; i++) {
        const toolgov_tool_spec *s = pol->reg->tools[i].spec;
        unsigned char bits[4];

        h = toolgov__fnv64(h, s->name, strlen(s->name) + 1);
        bits[0] = (unsigned char)s->effect;
        bits[1] = (unsigned char)s->confirm;
        bits[2] = (unsigned char)(s->answers_directly != 0);
        bits[3] = pol->once[i];
        h = toolgov__fnv64(h, bits, sizeof bits);
    }
    /* Only a listed scope is mixed in, so state saved before scopes
    ** existed (always run) still restores. */
    if (pol->scope == TOOLGOV_CONFIRM_SCOPE_LISTED)
        h = toolgov__fnv64(h, "scope listed", 12);
    pol->fingerprint = h;
}

static void count_once(toolgov_policy *pol)
{
    size_t i;

    pol->once_count = 0;
    for (i = 0; i < pol->ntools; i++)
        pol->once_count += pol->once[i] != 0;
}

int toolgov_policy_new(toolgov_policy **out, const toolgov_registry *reg)
{
    toolgov_policy *pol;
    size_t i;

    if (!out || !reg)
        return TOOLGOV_EINVAL;
    pol = toolgov__alloc(&reg->alloc, sizeof *pol);
    if (!pol)
        return TOOLGOV_ENOMEM;
    memset(pol, 0, sizeof *pol);
    pol->reg = reg;
    pol->ntools = reg->count;
    pol->once = toolgov__alloc(&reg->alloc, pol->ntools);
    if (!pol->once) {
        toolgov__free(&reg->alloc, pol, sizeof *pol);
        return TOOLGOV_ENOMEM;
    }
    for (i = 0; i < pol->ntools; i++)
        pol->once[i] = (unsigned char)toolgov__manifest_confirm_once(reg->tools[i].spec);
    count_once(pol);
    fingerprint(pol);
    *out = pol;
    return 0;
}

void toolgov_policy_free(toolgov_policy *pol)
{
    const toolgov_allocator *a;

    if (!pol)
        return;
    a = &pol->reg->alloc;
    toolgov__rows_free(a, &pol->rows);
    toolgov__rows_free(a, &pol->scope_rows);
    toolgov__free(a, pol->once, pol->ntools);
    toolgov__free(a, pol, sizeof *pol);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The next non-blank item of a comma list: *item and *len, trimmed; 0 at
** the end. Empty items are skipped. */
static int next_item(const char **p, const char **item, size_t *len)
{
    const char *s = *p, *start, *end;

    if (!s)
        return 0;
    for (;;) {
        while (*s && (is_blank(*s) || *s == ','))
            s++;
        if (!*s) {
            *p = s;
            return 0;
        }
        start = s;
        while (*s && *s != ',')
            s++;
        end = s;
        while (end > start && is_blank(end[-1]))
            end--;
        if (end > start) {
            *p = s;
            *item = start;
            *len = (size_t)(end - start);
            return 1;
        }
    }
}

int toolgov_policy_set_override(toolgov_policy *pol, const char *text)
{
    const toolgov_allocator *a;
    unsigned char *once = NULL;
    toolgov__rows rows = {NULL, 0, 0};
    size_t i;
    const char *p, *item;
    size_t len;
    int rc = 0;

    if (!pol)
        return TOOLGOV_EINVAL;
    a = &pol->reg->alloc;
    once = toolgov__alloc(a, pol->ntools);
    if (!once)
        return TOOLGOV_ENOMEM;
    for (i = 0; i < pol->ntools; i++)
        once[i] = (unsigned char)toolgov__manifest_confirm_once(pol->reg->tools[i].spec);

    /* `none` clears the derived set wherever it stands in the list; every
    ** name in the list is added either way. */
    for (p = text; next_item(&p, &item, &len);) {
        if (len == 4 && memcmp(item, "none", 4) == 0)
            memset(once, 0, pol->ntools);
    }
    for (p = text; next_item(&p, &item, &len);) {
        long k;

        if (len == 4 && memcmp(item, "none", 4) == 0)
            continue;
        k = toolgov__registry_index(pol->reg, item, len);
        if (k >= 0 && (size_t)k < pol->ntools) {
            /* A destructive tool is gated by per-call approval; naming it
            ** here adds nothing, so it never enters the set. */
            if (pol->reg->tools[k].effect != TOOLGOV_EFFECT_DESTRUCTIVE)
                once[k] = 1;
        } else if ((rc = toolgov__drift_override_unknown(a, &rows, item, len)) < 0) {
            goto fail;
        }
    }

    /* Everything is ready: swap it in. */
    toolgov__rows_free(a, &pol->rows);
    toolgov__free(a, pol->once, pol->ntools);
    pol->rows = rows;
    pol->once = once;
    count_once(pol);
    fingerprint(pol);
    return 0;

fail:
    toolgov__rows_free(a, &rows);
    toolgov__free(a, once, pol->ntools);
    return rc;
}

const char *toolgov_confirm_scope_name(toolgov_confirm_scope scope)
{
    switch (scope) {
    case TOOLGOV_CONFIRM_SCOPE_RUN: return "run";
    case TOOLGOV_CONFIRM_SCOPE_LISTED: return "listed";
    }
    return "unknown";
}

int toolgov_policy_set_confirm_scope(toolgov_policy *pol, toolgov_confirm_scope scope)
{
    if (!pol || (scope != TOOLGOV_CONFIRM_SCOPE_RUN && scope != TOOLGOV_CONFIRM_SCOPE_LISTED))
        return TOOLGOV_EINVAL;
    pol->scope = scope;
    fingerprint(pol);
    return 0;
}

/* The scope a text names: 0 with *out, or -1 for a text that is neither
** word. Blanks around the word are ignored; no word at all is run. */
static int parse_scope(const char *text, toolgov_confirm_scope *out)
{
    const char *end;
    size_t n;

    *out = TOOLGOV_CONFIRM_SCOPE_RUN;
    if (!text)
        return 0;
    while (is_blank(*text))
        text++;
    end = text + strlen(text);
    while (end > text && is_blank(end[-1]))
        end--;
    n = (size_t)(end - text);
    if (n == 0 || (n == 3 && memcmp(text, "run", 3) == 0))
        return 0;
    if (n == 6 && memcmp(text, "listed", 6) == 0) {
        *out = TOOLGOV_CONFIRM_SCOPE_LISTED;
        return 0;
    }
    return -1;
}

int toolgov_policy_set_confirm_scope_text(toolgov_policy *pol, const char *text)
{
    const toolgov_allocator *a;
    toolgov__rows rows = {NULL, 0, 0};
    toolgov_confirm_scope scope;
    int rc;

    if (!pol)
        return TOOLGOV_EINVAL;
    a = &pol->reg->alloc;
    if (parse_scope(text, &scope) < 0) {
        rc = toolgov__drift_setting_invalid(a, &rows, TOOLGOV_CONFIRM_SCOPE_ENV, text,
                                            "run (one yes covers the run's writes) or "
                                            "listed (a yes covers the calls it listed)");
        if (rc < 0)
            return rc;
        toolgov__rows_free(a, &pol->scope_rows);
        pol->scope_rows = rows;
        return TOOLGOV_EINVAL;
    }
    toolgov__rows_free(a, &pol->scope_rows);
    return toolgov_policy_set_confirm_scope(pol, scope);
}

toolgov_confirm_scope toolgov_policy_confirm_scope(const toolgov_policy *pol)
{
    return pol ? pol->scope : TOOLGOV_CONFIRM_SCOPE_RUN;
}

int toolgov_policy_override_from_env(toolgov_policy *pol)
{
    int rc;

    if (!pol)
        return TOOLGOV_EINVAL;
    rc = toolgov_policy_set_confirm_scope_text(pol, getenv(TOOLGOV_CONFIRM_SCOPE_ENV));
    if (rc < 0)
        return rc;
    return toolgov_policy_set_override(pol, getenv(TOOLGOV_CONFIRM_ONCE_ENV));
}

int toolgov_policy_is_confirm_once(const toolgov_policy *pol, const char *name)
{
    long k;

    if (!pol || !name)
        return 0;
    k = toolgov__registry_index(pol->reg, name, strlen(name));
    return k >= 0 && toolgov__policy_confirm_once(pol, (size_t)k);
}

/* The set as the gate sees it: the policy's flags, then every tool
** mounted after the policy was made that asks once by its manifest. */
size_t toolgov_policy_confirm_once_count(const toolgov_policy *pol)
{
    size_t n, k;

    if (!pol)
        return 0;
    n = pol->once_count;
    for (k = pol->ntools; k < pol->reg->count; k++)
        n += toolgov__policy_confirm_once(pol, k) != 0;
    return n;
}

const char *toolgov_policy_confirm_once_at(const toolgov_policy *pol, size_t i)
{
    size_t k;

    if (!pol)
        return NULL;
    for (k = 0; k < pol->reg->count; k++) {
        if (toolgov__policy_confirm_once(pol, k) && i-- == 0)
            return pol->reg->tools[k].spec->name;
    }
    return NULL;
}

unsigned long long toolgov_policy_fingerprint(const toolgov_policy *pol)
{
    return pol ? pol->fingerprint : 0;
}

const toolgov_registry *toolgov_policy_registry(const toolgov_policy *pol)
{
    return pol ? pol->reg : NULL;
}
