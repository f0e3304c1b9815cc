/* SPDX-License-Identifier: MIT */
/*
** schema_gen.h: random argument schemas built in memory (descriptor tables
** in args.h's shape, with C layouts computed on the spot), valid instances
** for them, one-point mutations that make an instance invalid at a known
** JSON path, and a deep comparison of two decoded structs. Used by the
** property test and the fuzz target; header-only, static functions.
**
** Randomness comes from sg_next(): the bytes of a fuzz input while they
** last, then a xorshift generator, so any byte string is a schema.
** Ownership: every table, name and default an sg_gen builds is malloc'd and
** recorded in the sg_gen; sg_free() releases them all. Text buffers (sg_text)
** are owned by their user (sg_text_free).
*/
#ifndef TOOLGOV_TEST_SCHEMA_GEN_H
#define TOOLGOV_TEST_SCHEMA_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolgov/args.h"

typedef struct sg_gen {
    const uint8_t *data;
    size_t size, pos;
    uint64_t rng;
    void **owned;
    size_t nowned, capowned;
    int oom;
} sg_gen;

static void sg_init(sg_gen *g, const uint8_t *data, size_t size, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->data = data;
    g->size = size;
    g->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
}

static unsigned sg_next(sg_gen *g)
{
    if (g->pos < g->size)
        return g->data[g->pos++];
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return (unsigned)(g->rng >> 24) & 0xFF;
}

static unsigned sg_below(sg_gen *g, unsigned n)
{
    return n ? sg_next(g) % n : 0;
}

static void *sg_alloc(sg_gen *g, size_t n)
{
    void *p;

    if (g->nowned == g->capowned) {
        size_t cap = g->capowned ? g->capowned * 2 : 64;
        void **o = realloc(g->owned, cap * sizeof *o);

        if (!o)
            abort();
        g->owned = o;
        g->capowned = cap;
    }
    p = calloc(1, n ? n : 1);
    if (!p)
        abort();
    g->owned[g->nowned++] = p;
    return p;
}

static void sg_free(sg_gen *g)
{
    size_t i;

    for (i = 0; i < g->nowned; i++)
        free(g->owned[i]);
    free(g->owned);
    g->owned = NULL;
    g->nowned = g->capowned = 0;
}

/* ---- growable text ---- */

typedef struct sg_text {
    char *p;
    size_t len, cap;
} sg_text;

static void sg_put(sg_text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;

        while (cap < t->len + n + 1)
            cap *= 2;
        t->p = realloc(t->p, cap);
        if (!t->p)
            abort();
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static void sg_puts(sg_text *t, const char *s)
{
    sg_put(t, s, strlen(s));
}

static void sg_text_free(sg_text *t)
{
    free(t->p);
    t->p = NULL;
    t->len = t->cap = 0;
}

/* ---- schemas ---- */

static const char *const sg_names[] = {
    "title", "date", "a", "b", "id", "tags", "a/b", "x~y", "\xC3\xA9t\xC3\xA9", "with space",
    "count", "note", "deep", "list", "on", "q",
};
static const char *const sg_words[] = {"low", "normal", "high", "", "\xE2\x82\xAC", "a\"b"};

#define SG_ALIGN(n) (((n) + 7u) & ~(size_t)7u)

/* Size of a value of node s in a struct. */
static size_t sg_value_size(const toolgov_arg_schema *s)
{
    switch (s->kind) {
    case TOOLGOV_ARG_STRING:
    case TOOLGOV_ARG_RAW: return sizeof(toolgov_str);
    case TOOLGOV_ARG_INTEGER:
    case TOOLGOV_ARG_INTEGER_ENUM: return sizeof(int64_t);
    case TOOLGOV_ARG_NUMBER: return sizeof(double);
    case TOOLGOV_ARG_BOOLEAN: return sizeof(bool);
    case TOOLGOV_ARG_STRING_ENUM: return sizeof(int);
    case TOOLGOV_ARG_ARRAY: return sizeof(toolgov_array);
    default: return s->struct_size;
    }
}

static toolgov_arg_schema *sg_leaf(sg_gen *g, toolgov_arg_kind kind)
{
    toolgov_arg_schema *s = sg_alloc(g, sizeof *s);

    s->kind = kind;
    s->max_len = TOOLGOV_ARG_UNBOUNDED;
    s->max_items = TOOLGOV_ARG_UNBOUNDED;
    return s;
}

static void sg_value_text(sg_gen *g, const toolgov_arg_schema *s, sg_text *t, unsigned depth);

static const toolgov_arg_schema *sg_schema(sg_gen *g, unsigned depth, int validate_only);

/* An object node; validate_only: offsets and sizes stay 0 (under raw). */
static const toolgov_arg_schema *sg_object(sg_gen *g, unsigned depth, int validate_only)
{
    toolgov_arg_schema *s = sg_leaf(g, TOOLGOV_ARG_OBJECT);
    unsigned n = sg_below(g, depth == 0 ? 7 : 4), i, j;
    toolgov_arg_field *f = sg_alloc(g, (n ? n : 1) * sizeof *f);
    size_t off = 0;
    unsigned used = 0;

    for (i = 0; i < n; i++) {
        unsigned pick;

        do
            pick = sg_below(g, sizeof sg_names / sizeof sg_names[0]);
        while (used & (1u << pick));
        used |= 1u << pick;
        f[i].name = sg_names[pick];
        f[i].name_len = strlen(sg_names[pick]);
        f[i].schema = sg_schema(g, depth + 1, validate_only);
        f[i].required = sg_below(g, 3) == 0;
        f[i].has_offset = TOOLGOV_ARG_NO_HAS;
        if (!validate_only) {
            f[i].offset = off;
            off += SG_ALIGN(sg_value_size(f[i].schema));
        }
    }
    /* Defaults (valid values of their schema) for some optional fields;
    ** presence flags for the other optional ones, after the values. */
    for (i = 0; i < n; i++) {
        if (f[i].required)
            continue;
        if (sg_below(g, 4) == 0) {
            sg_text t = {0};
            char *copy;

            sg_value_text(g, f[i].schema, &t, depth + 1);
            copy = sg_alloc(g, t.len + 1);
            memcpy(copy, t.p, t.len + 1);
            sg_text_free(&t);
            f[i].default_json = copy;
        } else if (!validate_only) {
            f[i].has_offset = off++;
        }
    }
    (void)j;
    s->fields = f;
    s->field_count = n;
    s->struct_size = validate_only ? 0 : SG_ALIGN(off ? off : 1);
    if (sg_below(g, 2))
        s->flags |= TOOLGOV_ARG_F_CLOSED;
    return s;
}

static const toolgov_arg_schema *sg_schema(sg_gen *g, unsigned depth, int validate_only)
{
    unsigned k = sg_below(g, depth >= 4 ? 6 : 9);
    toolgov_arg_schema *s;

    switch (k) {
    case 0:
        s = sg_leaf(g, TOOLGOV_ARG_STRING);
        if (sg_below(g, 3) == 0) {
            s->format = (toolgov_arg_format)(1 + sg_below(g, 5));
        } else if (sg_below(g, 2)) {
            s->min_len = sg_below(g, 3);
            s->max_len = s->min_len + sg_below(g, 6);
        }
        return s;
    case 1:
        s = sg_leaf(g, TOOLGOV_ARG_INTEGER);
        s->flags = sg_below(g, 16);
        s->int_min = (int64_t)sg_below(g, 41) - 20;
        s->int_max = s->int_min + 2 + sg_below(g, 40);
        return s;
    case 2:
        s = sg_leaf(g, TOOLGOV_ARG_NUMBER);
        s->flags = sg_below(g, 16);
        s->num_min = ((double)sg_below(g, 41) - 20) / 4;
        s->num_max = s->num_min + 0.5 + sg_below(g, 40);
        return s;
    case 3:
        return sg_leaf(g, TOOLGOV_ARG_BOOLEAN);
    case 4: {
        unsigned n = 1 + sg_below(g, 4), i;
        const char **v = sg_alloc(g, n * sizeof *v);

        s = sg_leaf(g, TOOLGOV_ARG_STRING_ENUM);
        for (i = 0; i < n; i++)
            v[i] = sg_words[(i + sg_below(g, 2)) % (sizeof sg_words / sizeof sg_words[0])];
        /* distinct: the words cycle, so n <= 4 < 6 keeps them apart unless
        ** the offset repeats a word; drop repeats */
        for (i = 1; i < n; i++)
            if (strcmp(v[i], v[i - 1]) == 0)
                n = i;
        s->str_enum = v;
        s->str_enum_count = n;
        return s;
    }
    case 5: {
        unsigned n = 1 + sg_below(g, 4), i;
        int64_t *v = sg_alloc(g, n * sizeof *v);

        s = sg_leaf(g, TOOLGOV_ARG_INTEGER_ENUM);
        for (i = 0; i < n; i++)
            v[i] = (int64_t)i * 7 - 3;
        s->int_enum = v;
        s->int_enum_count = n;
        return s;
    }
    case 6:
        s = sg_leaf(g, TOOLGOV_ARG_ARRAY);
        s->items = sg_schema(g, depth + 1, validate_only);
        s->item_size = validate_only ? 0 : SG_ALIGN(sg_value_size(s->items));
        if (sg_below(g, 2)) {
            s->min_items = sg_below(g, 2);
            s->max_items = s->min_items + sg_below(g, 4);
        }
        return s;
    case 7:
        return sg_object(g, depth, validate_only);
    default: {
        /* raw: a type mask, or anyOf/oneOf alternatives of distinct types */
        unsigned r = sg_below(g, 3);

        s = sg_leaf(g, TOOLGOV_ARG_RAW);
        if (r == 0) {
            s->types = sg_below(g, 128);
        } else if (r == 1) {
            toolgov_arg_schema *alts = sg_alloc(g, 2 * sizeof *alts);

            alts[0].kind = TOOLGOV_ARG_STRING;
            alts[0].format = TOOLGOV_FORMAT_DATE;
            alts[0].max_len = TOOLGOV_ARG_UNBOUNDED;
            alts[0].max_items = TOOLGOV_ARG_UNBOUNDED;
            alts[1].kind = TOOLGOV_ARG_BOOLEAN;
            alts[1].max_len = TOOLGOV_ARG_UNBOUNDED;
            alts[1].max_items = TOOLGOV_ARG_UNBOUNDED;
            s->alts = alts;
            s->alt_count = 2;
            if (sg_below(g, 2))
                s->flags |= TOOLGOV_ARG_F_ONE_OF;
        }
        return s;
    }
    }
}

/* A root schema (always an object). */
static const toolgov_arg_schema *sg_root(sg_gen *g)
{
    return sg_object(g, 0, 0);
}

/* ---- valid instances ---- */

static const char *const sg_date_ok[] = {"2026-03-12", "2024-02-29", "1999-12-31"};
static const char *const sg_time_ok[] = {"09:30", "23:59:60", "00:00:00.5Z", "12:00+02:00"};
static const char *const sg_dt_ok[] = {"2026-03-12T09:30:00Z", "2026-03-12t09:30:00.25-05:00"};
static const char *const sg_email_ok[] = {"a@b.c", "first.last+x@example.org"};
static const char *const sg_uri_ok[] = {"https://example.com/a?b#c", "urn:x:y", "mailto:a@b.c"};
static const char *const sg_chars[] = {"a", "Z", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                       "\\n", "\\\"", "\\u00e9", " ", "/"};

/* Random JSON whitespace. */
static void sg_ws(sg_gen *g, sg_text *t)
{
    static const char *const ws[] = {"", "", "", " ", "\n  ", "\t"};

    sg_puts(t, ws[sg_below(g, 6)]);
}

static void sg_pick(sg_gen *g, sg_text *t, const char *const *list, size_t n)
{
    sg_puts(t, "\"");
    sg_puts(t, list[sg_below(g, (unsigned)n)]);
    sg_puts(t, "\"");
}

static void sg_json_str(sg_text *t, const char *s)
{
    sg_puts(t, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sg_put(t, "\\", 1);
        sg_put(t, s, 1);
    }
    sg_puts(t, "\"");
}

/* An integer in the node's bounds. */
static int64_t sg_int_in(sg_gen *g, const toolgov_arg_schema *s)
{
    int64_t lo = -1000, hi = 1000;

    if (s->flags & TOOLGOV_ARG_F_HAS_MIN)
        lo = s->int_min + ((s->flags & TOOLGOV_ARG_F_EXCL_MIN) ? 1 : 0);
    if (s->flags & TOOLGOV_ARG_F_HAS_MAX)
        hi = s->int_max - ((s->flags & TOOLGOV_ARG_F_EXCL_MAX) ? 1 : 0);
    if (hi < lo)
        hi = lo;
    return lo + (int64_t)sg_below(g, (unsigned)(hi - lo + 1 > 255 ? 255 : hi - lo + 1));
}

static void sg_value_text(sg_gen *g, const toolgov_arg_schema *s, sg_text *t, unsigned depth)
{
    char num[64];
    size_t i, n;

    switch (s->kind) {
    case TOOLGOV_ARG_STRING:
        switch (s->format) {
        case TOOLGOV_FORMAT_DATE: sg_pick(g, t, sg_date_ok, 3); return;
        case TOOLGOV_FORMAT_TIME: sg_pick(g, t, sg_time_ok, 4); return;
        case TOOLGOV_FORMAT_DATE_TIME: sg_pick(g, t, sg_dt_ok, 2); return;
        case TOOLGOV_FORMAT_EMAIL: sg_pick(g, t, sg_email_ok, 2); return;
        case TOOLGOV_FORMAT_URI: sg_pick(g, t, sg_uri_ok, 3); return;
        default: break;
        }
        n = s->min_len + sg_below(g, 4);
        if (n > s->max_len)
            n = s->max_len;
        sg_puts(t, "\"");
        for (i = 0; i < n; i++)
            sg_puts(t, sg_chars[sg_below(g, sizeof sg_chars / sizeof sg_chars[0])]);
        sg_puts(t, "\"");
        return;
    case TOOLGOV_ARG_INTEGER: {
        int64_t v = sg_int_in(g, s);

        /* sometimes spelt with a fraction or an exponent, still exact */
        switch (sg_below(g, 4)) {
        case 0: snprintf(num, sizeof num, "%lld.0", (long long)v); break;
        case 1: snprintf(num, sizeof num, v ? "%lld0e-1" : "%lld", (long long)v); break;
        default: snprintf(num, sizeof num, "%lld", (long long)v); break;
        }
        sg_puts(t, num);
        return;
    }
    case TOOLGOV_ARG_NUMBER: {
        double lo = (s->flags & TOOLGOV_ARG_F_HAS_MIN) ? s->num_min : -100.0;
        double hi = (s->flags & TOOLGOV_ARG_F_HAS_MAX) ? s->num_max : 100.0;
        double v = lo + (hi - lo) * (0.25 + (double)sg_below(g, 50) / 100.0);

        if (hi < lo)
            v = lo;
        snprintf(num, sizeof num, sg_below(g, 2) ? "%.17g" : "%.3e", v);
        /* %.3e may round onto an exclusive bound: use the exact text then */
        if (strtod(num, NULL) <= lo || strtod(num, NULL) >= hi)
            snprintf(num, sizeof num, "%.17g", v);
        sg_puts(t, num);
        return;
    }
    case TOOLGOV_ARG_BOOLEAN:
        sg_puts(t, sg_below(g, 2) ? "true" : "false");
        return;
    case TOOLGOV_ARG_STRING_ENUM:
        sg_json_str(t, s->str_enum[sg_below(g, (unsigned)s->str_enum_count)]);
        return;
    case TOOLGOV_ARG_INTEGER_ENUM:
        snprintf(num, sizeof num, "%lld",
                 (long long)s->int_enum[sg_below(g, (unsigned)s->int_enum_count)]);
        sg_puts(t, num);
        return;
    case TOOLGOV_ARG_ARRAY:
        n = s->min_items + sg_below(g, 3);
        if (n > s->max_items)
            n = s->max_items;
        sg_puts(t, "[");
        for (i = 0; i < n; i++) {
            if (i)
                sg_puts(t, ",");
            sg_ws(g, t);
            sg_value_text(g, s->items, t, depth + 1);
        }
        sg_puts(t, "]");
        return;
    case TOOLGOV_ARG_OBJECT: {
        int first = 1, reverse = (int)sg_below(g, 2);

        sg_puts(t, "{");
        /* members in reverse order sometimes: order must not matter */
        for (i = 0; i < s->field_count; i++) {
            size_t k = reverse ? s->field_count - 1 - i : i;
            const toolgov_arg_field *f = &s->fields[k];

            if (!f->required && sg_below(g, 2))
                continue;
            if (!first)
                sg_puts(t, ",");
            first = 0;
            sg_ws(g, t);
            sg_json_str(t, f->name);
            sg_ws(g, t);
            sg_puts(t, ":");
            sg_value_text(g, f->schema, t, depth + 1);
        }
        if (!(s->flags & TOOLGOV_ARG_F_CLOSED) && sg_below(g, 4) == 0) {
            if (!first)
                sg_puts(t, ",");
            sg_puts(t, "\"zz extra\": {\"k\": [1.50, -0, null], \"a\": \"\\u00e9\"}");
        }
        sg_puts(t, "}");
        return;
    }
    case TOOLGOV_ARG_RAW:
        if (s->alt_count) {
            if (sg_below(g, 2))
                sg_pick(g, t, sg_date_ok, 3);
            else
                sg_puts(t, "true");
            return;
        }
        /* a value of one of the allowed types */
        for (;;) {
            unsigned ty = 1u << sg_below(g, 7);

            if (s->types && !(s->types & ty))
                continue;
            switch (ty) {
            case TOOLGOV_JSON_NULL: sg_puts(t, "null"); return;
            case TOOLGOV_JSON_BOOLEAN: sg_puts(t, "false"); return;
            case TOOLGOV_JSON_INTEGER: sg_puts(t, "-12"); return;
            case TOOLGOV_JSON_NUMBER: sg_puts(t, "2.50E1"); return;
            case TOOLGOV_JSON_STRING: sg_puts(t, "\"r\\u00e9\""); return;
            case TOOLGOV_JSON_ARRAY: sg_puts(t, "[ 1, {\"b\":2, \"a\":1} ]"); return;
            default: sg_puts(t, "{\"z\": 1, \"a\": [true]}"); return;
            }
        }
    default:
        sg_puts(t, "null");
        return;
    }
}

/* ---- deep comparison of two decoded values ---- */

static int sg_same(const toolgov_arg_schema *s, const unsigned char *a, const unsigned char *b)
{
    size_t i;

    switch (s->kind) {
    case TOOLGOV_ARG_STRING:
    case TOOLGOV_ARG_RAW: {
        toolgov_str x, y;

        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return x.len == y.len && memcmp(x.ptr, y.ptr, x.len) == 0 && x.ptr[x.len] == '\0';
    }
    case TOOLGOV_ARG_INTEGER:
    case TOOLGOV_ARG_INTEGER_ENUM:
    case TOOLGOV_ARG_NUMBER:
        return memcmp(a, b, 8) == 0;
    case TOOLGOV_ARG_BOOLEAN:
        return *(const bool *)a == *(const bool *)b;
    case TOOLGOV_ARG_STRING_ENUM:
        return memcmp(a, b, sizeof(int)) == 0;
    case TOOLGOV_ARG_ARRAY: {
        toolgov_array x, y;

        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        if (x.count != y.count)
            return 0;
        for (i = 0; i < x.count; i++)
            if (!sg_same(s->items, (const unsigned char *)x.items + i * s->item_size,
                         (const unsigned char *)y.items + i * s->item_size))
                return 0;
        return 1;
    }
    case TOOLGOV_ARG_OBJECT:
        for (i = 0; i < s->field_count; i++) {
            const toolgov_arg_field *f = &s->fields[i];

            if (f->has_offset != TOOLGOV_ARG_NO_HAS && a[f->has_offset] != b[f->has_offset])
                return 0;
            if (!sg_same(f->schema, a + f->offset, b + f->offset))
                return 0;
        }
        return 1;
    default:
        return 0;
    }
}

#endif /* TOOLGOV_TEST_SCHEMA_GEN_H */
