/* SPDX-License-Identifier: MIT */
/*
** value.h: the JSON value tree a `parameters:` reader produces, and what
** every part of the schema stage shares: the context (arena, diagnostics,
** names for messages) and the reading of JSON number texts.
**
** The manifest's YAML walk (schema_yaml.c) builds a tree from libyaml
** events, toolgov__jtext_parse() (schema_json.c) from JSON text, and tests
** or fuzzers may build one directly with the toolgov__jv_* calls. Every
** value and object key carries the line:column it came from. The compiler
** (schema.h) reads the tree; the tables (schema_tables.h) read the values
** a compiled tree keeps.
**
** Ownership: every value and string comes from the arena of the context
** and lives until that arena is freed; input strings given to the builders
** are copied.
*/
#ifndef TOOLGOV_GEN_VALUE_H
#define TOOLGOV_GEN_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/index.h"

#include <toolgov/args.h>

/* Lists of names (an object's keys, sibling C names, required names, enum
** values) up to this many are compared pairwise; longer ones go through an
** index (base/index.h), which keeps a hostile schema of 100,000 names
** linear. */
#define TOOLGOV__SCAN_MAX 16u

/* ---- JSON value tree ----------------------------------------------------- */

typedef enum toolgov__jkind {
    TOOLGOV_J_NULL,
    TOOLGOV_J_BOOL,
    TOOLGOV_J_NUMBER, /* text holds the JSON number as written */
    TOOLGOV_J_STRING, /* text holds the bytes (UTF-8), NUL-terminated */
    TOOLGOV_J_ARRAY,
    TOOLGOV_J_OBJECT
} toolgov__jkind;

typedef struct toolgov__jval toolgov__jval;

typedef struct toolgov__jmember {
    const char *key; /* NUL-terminated copy; key_len bytes (may hold no NUL) */
    size_t key_len;
    toolgov__mark at; /* where the key is */
    toolgov__jval *val;
} toolgov__jmember;

struct toolgov__jval {
    toolgov__jkind kind;
    toolgov__mark at;
    int boolean;               /* TOOLGOV_J_BOOL */
    const char *text;          /* TOOLGOV_J_NUMBER, TOOLGOV_J_STRING */
    size_t len;
    size_t count;              /* items or members */
    size_t cap_;               /* private: allocated slots */
    toolgov__jval **items;     /* TOOLGOV_J_ARRAY */
    toolgov__jmember *members; /* TOOLGOV_J_OBJECT, in source order */
    toolgov__index *ix_;       /* private: a big object's members by key */
};

/* What every call of this module needs: where to allocate, where to report,
** and the names for messages. `tool` may be NULL (messages then omit it). */
typedef struct toolgov__schema_ctx {
    toolgov__arena *arena;
    toolgov__diag *d;
    const char *path; /* file name for FILE:LINE:COL */
    const char *tool;
    int oom;          /* set when an allocation failed (reported once) */
    toolgov__arena *scratch; /* NULL, or where a compile keeps what it
                             ** drops when done (the tables of its value
                             ** checks): the caller may reset it after */
    toolgov_args_decoder *dec; /* the runtime's validator for value checks:
                               ** NULL, and toolgov__schema_compile makes
                               ** and frees one when it needs one; or one
                               ** the caller keeps across compiles (a
                               ** compile that starts with NULL may leave
                               ** it NULL, and frees what it made) */
    size_t value_errors;       /* private: errors after which values are
                               ** still judged while it runs (about
                               ** defaults, examples and enum values, and
                               ** unknown or unsupported keywords) */
} toolgov__schema_ctx;

/* Builders. Each returns the new value (or 0), NULL/-1 when out of memory
** (then cx->oom is set and one error reported). */
toolgov__jval *toolgov__jv_new(toolgov__schema_ctx *cx, toolgov__jkind kind, toolgov__mark at);
toolgov__jval *toolgov__jv_text(toolgov__schema_ctx *cx, toolgov__jkind kind, const char *s,
                                size_t len, toolgov__mark at);
int toolgov__jv_push(toolgov__schema_ctx *cx, toolgov__jval *array, toolgov__jval *item);
/* Appends a member; duplicates are the reader's business (see jv_find). */
int toolgov__jv_put(toolgov__schema_ctx *cx, toolgov__jval *object, const char *key,
                    size_t key_len, toolgov__mark at, toolgov__jval *val);
/* The member named key[0..len) of an object, or NULL. */
const toolgov__jmember *toolgov__jv_find(const toolgov__jval *object, const char *key,
                                         size_t len);

/* Whether the len bytes at s are a number in RFC 8259's grammar. */
int toolgov__jtext_number_ok(const char *s, size_t len);

/* Append v as compact JSON text to b: members in the order written, no
** insignificant whitespace, numbers as written, strings spelt by the
** runtime's canonical writer. 0, or -1 when out of memory (b->oom). */
int toolgov__jtext_write(toolgov__buf *b, const toolgov__jval *v);

/* b's content as a NUL-terminated copy in the arena (its length in *len
** when len is not NULL); b is freed either way. NULL when out of memory
** (reported through cx), also when b->oom is set. */
const char *toolgov__buf_to_arena(toolgov__schema_ctx *cx, toolgov__buf *b, size_t *len);

/* Report "out of memory while compiling parameters" once (cx->oom set). */
void toolgov__jv_oom(toolgov__schema_ctx *cx);

/* Exact integer value of a JSON number text, when it is one that fits
** int64_t ("2", "2.0", "1e2"): 1 and *out; else 0. Read by the runtime's
** conversion (toolgov__json_int64), like the double below. */
int toolgov__jtext_int64(const char *s, size_t len, int64_t *out);

/* The double nearest to a JSON number text (correctly rounded, whatever the
** locale: toolgov__json_double); beyond the double range, an infinity of
** its sign. */
double toolgov__jtext_double(const char *s, size_t len);

/* Whether a number text has an integer value, whatever its size. */
int toolgov__jtext_integral(const char *s, size_t len);

#endif /* TOOLGOV_GEN_VALUE_H */
