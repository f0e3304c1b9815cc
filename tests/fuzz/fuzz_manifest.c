/* SPDX-License-Identifier: MIT */
/*
** fuzz_manifest.c: libFuzzer target for the manifest loader, the validator
** and the in-memory code generator.
**
** Any input: the loader either returns a manifest and reports no error, or
** returns NULL and reports at least one (never a silent refusal, never a
** crash, hang or leak under ASan+UBSan). Every diagnostic is printed into
** a real stream, so the formatting of each one runs too. A manifest that
** loads must satisfy the format's rules as the generator relies on them,
** and must render, twice, to the same bytes with no NUL inside.
*/
#define _GNU_SOURCE /* memmem, open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/codegen.h"
#include "base/diag.h"
#include "fuzz_check.h"
#include "manifest/manifest.h"
#include "schema/schema.h"

static int is_name(const char *s)
{
    size_t n = strlen(s), i;
    if (n == 0 || n > TOOLGOV_NAME_MAX || s[0] < 'a' || s[0] > 'z')
        return 0;
    for (i = 1; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

static void check_manifest(const toolgov__manifest *m)
{
    size_t i, j;
    FUZZ_CHECK(is_name(m->name));
    for (i = 0; i < m->tool_count; i++) {
        const toolgov__tool_decl *t = &m->tools[i];
        FUZZ_CHECK(is_name(t->name));
        FUZZ_CHECK(t->description != NULL && t->guidance != NULL);
        FUZZ_CHECK(t->description_len > 0 && t->description_len <= TOOLGOV_DESCRIPTION_MAX);
        FUZZ_CHECK(t->guidance_len <= TOOLGOV_GUIDANCE_MAX);
        FUZZ_CHECK(memchr(t->description, '\0', t->description_len) == NULL);
        FUZZ_CHECK(t->at.line >= 1 && t->at.col >= 1);
        FUZZ_CHECK(t->effect == TOOLGOV_EFFECT_READ || t->effect == TOOLGOV_EFFECT_WRITE ||
                   t->effect == TOOLGOV_EFFECT_DESTRUCTIVE);
        if (t->effect != TOOLGOV_EFFECT_WRITE)
            FUZZ_CHECK(t->confirm == TOOLGOV_CONFIRM_NEVER && !t->confirm_given);
        /* answers_directly only where the gate never asks. */
        if (t->answers_directly)
            FUZZ_CHECK(t->effect == TOOLGOV_EFFECT_READ ||
                       (t->effect == TOOLGOV_EFFECT_WRITE && t->confirm == TOOLGOV_CONFIRM_NEVER));
        FUZZ_CHECK(toolgov__manifest_find(m, t->name) == (long)i);
        for (j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(m->tools[j].name, t->name) != 0);
    }
    if (m->tool_count > 0) {
        int has_tool = 0;
        for (i = 0; i < m->provides_count; i++)
            has_tool |= strcmp(m->provides[i], "tool") == 0;
        FUZZ_CHECK(has_tool);
    }
}

/* Render a into h and c, and b, which must give the same bytes. */
static void render_same(const toolgov__manifest *a, const toolgov__manifest *b, toolgov__buf *h,
                        toolgov__buf *c)
{
    toolgov__buf h2, c2;
    toolgov__buf_init(h);
    toolgov__buf_init(c);
    toolgov__buf_init(&h2);
    toolgov__buf_init(&c2);
    FUZZ_CHECK(toolgov__codegen_render(h, c, a) == 0);
    FUZZ_CHECK(toolgov__codegen_render(&h2, &c2, b) == 0);
    FUZZ_CHECK(h->len == h2.len && memcmp(h->data, h2.data, h->len) == 0);
    FUZZ_CHECK(c->len == c2.len && memcmp(c->data, c2.data, c->len) == 0);
    toolgov__buf_free(&h2);
    toolgov__buf_free(&c2);
}

static void check_render(const toolgov__manifest *m)
{
    toolgov__buf h1, c1;
    render_same(m, m, &h1, &c1);
    FUZZ_CHECK(h1.len > 0 && c1.len > 0);
    FUZZ_CHECK(memchr(h1.data, '\0', h1.len) == NULL);
    FUZZ_CHECK(memchr(c1.data, '\0', c1.len) == NULL);
    /* Manifest text must never open a comment or a trigraph in the output. */
    FUZZ_CHECK(memmem(c1.data, c1.len, "??", 2) == NULL);
    toolgov__buf_free(&h1);
    toolgov__buf_free(&c1);
}

/* Load; *text gets every diagnostic (malloc'd). */
static toolgov__manifest *load(const uint8_t *data, size_t size, char **text, size_t *len,
                               size_t *errors)
{
    toolgov__diag d;
    toolgov__manifest *m;
    FILE *f = open_memstream(text, len);
    FUZZ_CHECK(f != NULL);
    toolgov__diag_init(&d, f, 50);
    m = toolgov__manifest_load_mem("fuzz.yaml", (const char *)data, size, &d);
    *errors = d.errors;
    toolgov__diag_finish(&d);
    FUZZ_CHECK(fclose(f) == 0);
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    toolgov__manifest *m;
    char *text = NULL;
    size_t len = 0, errors;
    m = load(data, size, &text, &len, &errors);
    if (m == NULL) {
        FUZZ_CHECK(errors > 0);
    } else {
        FUZZ_CHECK(errors == 0);
        check_manifest(m);
        check_render(m);
    }
    toolgov__manifest_free(m);
    free(text);
    return 0;
}
