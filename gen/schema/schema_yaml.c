/* SPDX-License-Identifier: MIT */
/*
** schema_yaml.c: the YAML node under a tool's `parameters:` into the schema
** module's value tree (see schema.h), pulling events through the manifest's
** YAML reader (reader.h), which keeps the event stream and its errors.
**
** Scalars are typed as JSON sees them (the YAML 1.2 core schema, which is
** what an author pasting JSON expects): a plain null, ~ or empty value is
** null; plain true/false (any case form YAML knows) a boolean; a plain JSON
** number a number, kept as written; everything quoted, and every other plain
** scalar, a string. A plain scalar that YAML reads as a number but JSON
** cannot hold as written (0x1F, .5, +1, 01, .inf) is an error that says to
** write it as a JSON number or quote it, so no value changes type silently.
** Keys are strings; a duplicate key is an error, as everywhere in a manifest.
*/
#include "schema/schema.h"

#include <string.h>

#include "base/reader.h"
#include "base/text.h"

/* Collections deeper than this under `parameters:` are refused (a schema
** of 8 levels takes about 2 YAML levels each, plus defaults). */
#define YAML_DEPTH_MAX 48u

/* The walk reads the reader's current event in place. */
#define CUR(src) (&(src)->ev)

static int only(const char *s, size_t n, const char *set)
{
    size_t i;
    if (!n)
        return 0;
    for (i = 0; i < n; i++)
        if (!s[i] || !strchr(set, s[i]))
            return 0;
    return 1;
}

/* The YAML 1.2 core schema's int and float forms. */
static int yaml_number(const char *s, size_t n)
{
    size_t i = 0, d0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o'))
        return only(s + 2, n - 2, s[1] == 'x' ? "0123456789abcdefABCDEF" : "01234567");
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (n - i == 4 && s[i] == '.' &&
        (!memcmp(s + i, ".inf", 4) || !memcmp(s + i, ".Inf", 4) || !memcmp(s + i, ".INF", 4)))
        return 1;
    if (n == 4 && (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) || !memcmp(s, ".NAN", 4)))
        return 1;
    d0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i < n && s[i] == '.') {
        size_t f0 = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (f0 - 1 == d0 && i == f0)
            return 0; /* "." alone */
    } else if (i == d0) {
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t e0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        e0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e0)
            return 0;
    }
    return i == n;
}

/* One scalar of a parameters text as a value: v[0..n), written plain (1)
** or quoted (0), at `at`. NULL after reporting (a YAML number JSON cannot
** hold, a NUL) or when out of memory (cx->oom). */
static toolgov__jval *yaml_scalar(toolgov__schema_ctx *cx, const char *v, size_t n, int plain,
                                  toolgov__mark at)
{
    char q[TOOLGOV_SHOW_MAX];

    if (plain) {
        toolgov__jval *b;
        if (n == 0 || (n == 1 && v[0] == '~') ||
            (n == 4 && (!memcmp(v, "null", 4) || !memcmp(v, "Null", 4) || !memcmp(v, "NULL", 4))))
            return toolgov__jv_new(cx, TOOLGOV_J_NULL, at);
        if ((n == 4 && (!memcmp(v, "true", 4) || !memcmp(v, "True", 4) || !memcmp(v, "TRUE", 4))) ||
            (n == 5 &&
             (!memcmp(v, "false", 5) || !memcmp(v, "False", 5) || !memcmp(v, "FALSE", 5)))) {
            b = toolgov__jv_new(cx, TOOLGOV_J_BOOL, at);
            if (b)
                b->boolean = n == 4;
            return b;
        }
        if (toolgov__jtext_number_ok(v, n))
            return toolgov__jv_text(cx, TOOLGOV_J_NUMBER, v, n, at);
        if (yaml_number(v, n)) {
            toolgov__diag_error(cx->d, cx->path, at.line, at.col,
                                "'%s' is a YAML number that JSON cannot hold as written; write "
                                "it as a JSON number (such as 31, 0.5 or 1e3), or quote it to "
                                "make it a string",
                                toolgov__text_show(q, v, n));
            return NULL;
        }
    }
    if (memchr(v, 0, n)) {
        toolgov__diag_error(cx->d, cx->path, at.line, at.col,
                            "a string under parameters contains a NUL character (from an escape "
                            "such as \\0); remove it");
        return NULL;
    }
    return toolgov__jv_text(cx, TOOLGOV_J_STRING, v, n, at);
}

/* The current event starts a node: read it whole. NULL with *stop set when
** the event stream cannot go on; NULL alone when the value is lost (an
** alias, a number JSON cannot hold; reported, node consumed). An anchor or
** a tag is reported and the value kept; a collection that lost a value
** keeps the rest, so the schema around it is still checked in the same
** run. */
static toolgov__jval *node(toolgov__schema_ctx *cx, toolgov__reader *src,
                           unsigned depth, int *stop)
{
    const yaml_event_t *e = CUR(src);
    toolgov__mark at = toolgov__reader_mark(src);
    toolgov__jval *v;

    toolgov__reader_check_props(src);
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        v = yaml_scalar(cx, (const char *)e->data.scalar.value,
                                        e->data.scalar.length,
                                        e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE, at);
        if (!v && cx->oom)
            *stop = 1;
        return v;
    case YAML_ALIAS_EVENT:
        return NULL; /* reported by check_props */
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        break;
    default:
        *stop = 1;
        return NULL;
    }
    if (depth >= YAML_DEPTH_MAX) {
        toolgov__diag_error(cx->d, cx->path, at.line, at.col,
                            "parameters nest collections more than %u deep; a schema nests at "
                            "most %u levels", YAML_DEPTH_MAX, TOOLGOV_SCHEMA_DEPTH_MAX);
        *stop = 1;
        return NULL;
    }
    if (e->type == YAML_SEQUENCE_START_EVENT) {
        v = toolgov__jv_new(cx, TOOLGOV_J_ARRAY, at);
        if (!v) {
            *stop = 1;
            return NULL;
        }
        for (;;) {
            toolgov__jval *item;
            if (toolgov__reader_next(src)) {
                *stop = 1;
                return NULL;
            }
            if (CUR(src)->type == YAML_SEQUENCE_END_EVENT)
                break;
            item = node(cx, src, depth + 1, stop);
            if (*stop)
                return NULL;
            if (item && toolgov__jv_push(cx, v, item)) {
                *stop = 1;
                return NULL;
            }
        }
        return v;
    }
    v = toolgov__jv_new(cx, TOOLGOV_J_OBJECT, at);
    if (!v) {
        *stop = 1;
        return NULL;
    }
    for (;;) {
        const yaml_event_t *k;
        toolgov__jval *val;
        toolgov__mark kat;
        const char *key = NULL;
        size_t klen = 0;
        int key_ok;
        if (toolgov__reader_next(src)) {
            *stop = 1;
            return NULL;
        }
        k = CUR(src);
        if (k->type == YAML_MAPPING_END_EVENT)
            break;
        kat = toolgov__reader_mark(src);
        toolgov__reader_check_props(src);
        key_ok = k->type == YAML_SCALAR_EVENT;
        if (k->type == YAML_SCALAR_EVENT) {
            key = (const char *)k->data.scalar.value;
            klen = k->data.scalar.length;
            if (memchr(key, 0, klen)) {
                toolgov__diag_error(cx->d, cx->path, kat.line, kat.col,
                                    "a key under parameters contains a NUL character; remove it");
                key_ok = 0;
            }
        } else if (k->type != YAML_ALIAS_EVENT) {
            toolgov__jval *skip;
            toolgov__diag_error(cx->d, cx->path, kat.line, kat.col,
                                "a key under parameters is a collection; keys are names such "
                                "as type or a property's name");
            skip = node(cx, src, depth + 1, stop); /* consumes it */
            (void)skip;
            if (*stop)
                return NULL;
        }
        if (key_ok) {
            const toolgov__jmember *prev = toolgov__jv_find(v, key, klen);
            if (prev) {
                char q[TOOLGOV_SHOW_MAX];
                toolgov__text_show(q, key, klen);
                toolgov__diag_error(cx->d, cx->path, kat.line, kat.col,
                                    "duplicate key '%s'; keep one", q);
                if (!cx->d->suppressing)
                    toolgov__diag_note(cx->d, cx->path, prev->at.line, prev->at.col,
                                       "'%s' first given here", q);
                key_ok = 0;
            }
        }
        if (key_ok) {
            /* The key text lives in the event: copy before pulling on. */
            char *copy = toolgov__arena_strndup(cx->arena, key, klen);
            if (!copy) {
                cx->oom = 1;
                *stop = 1;
                return NULL;
            }
            key = copy;
        }
        if (toolgov__reader_next(src)) {
            *stop = 1;
            return NULL;
        }
        val = node(cx, src, depth + 1, stop);
        if (*stop)
            return NULL;
        if (!key_ok || !val)
            continue;
        if (toolgov__jv_put(cx, v, key, klen, kat, val)) {
            *stop = 1;
            return NULL;
        }
    }
    return v;
}

int toolgov__schema_read_yaml(toolgov__schema_ctx *cx, toolgov__reader *src,
                              toolgov__jval **out)
{
    int stop = 0;
    *out = node(cx, src, 0, &stop);
    if (stop)
        return -1;
    return *out ? 0 : 1;
}
