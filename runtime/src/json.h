/* SPDX-License-Identifier: MIT */
/*
** json.h: the runtime's strict JSON reader (RFC 8259, json.c) and the
** canonical JSON writer's appenders (jsonput.c), over the scratch arena
** (scratch.h) and the growable buffer (jbuf.h).
**
** Internal to libtoolgov (toolgov__ names), also for in-tree programs that
** link the static runtime (the MCP server reads its JSON-RPC envelope with
** it). Not installed, no ABI promise.
**
** Reader. toolgov__json_parse() reads one JSON text into a flat array of
** nodes in document order (a "tape"): a container is followed by its
** descendants, and every node records `end`, the index one past its last
** descendant, so a value is skipped in O(1). An object's members are stored
** as key node (a string) then value node. What is refused, beyond the
** grammar: a byte order mark; any byte sequence that is not well-formed
** UTF-8 (overlong forms, surrogates, code points above U+10FFFF, truncated
** sequences), inside or outside strings; a \u escape that leaves a lone
** surrogate; a duplicate key in one object (compared after unescaping),
** unless the caller passes TOOLGOV__JSON_ALLOW_DUP (RFC 8259 only says
** names SHOULD be unique; JSONTestSuite's y_object_duplicated_key cases
** need the flag, tool arguments never get it);
** nesting deeper than the caller's limit; a text longer than the caller's
** limit. Numbers are checked against the grammar only: their range is the
** consumer's business (toolgov__json_int64, toolgov__json_double), and
** their text is kept as sent.
**
** Memory. Everything the reader produces lives in a toolgov__scratch: a list
** of chunks from the registry's allocator hook. Resetting the arena keeps
** one chunk as large as the most the arena has held between two resets, so
** once warm a parse-and-decode cycle allocates nothing. Nodes and string
** bytes are valid until the arena's next reset or free; number nodes point
** into the parsed text, which the caller keeps alive as long as the nodes.
*/
#ifndef TOOLGOV_JSON_H
#define TOOLGOV_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "toolgov/toolgov.h"

#include "jbuf.h"
#include "scratch.h"

/* ---- reader ---- */

enum {
    TOOLGOV__JSON_NULL = 1,
    TOOLGOV__JSON_FALSE = 2,
    TOOLGOV__JSON_TRUE = 3,
    TOOLGOV__JSON_NUMBER = 4,
    TOOLGOV__JSON_STRING = 5,
    TOOLGOV__JSON_ARRAY = 6,
    TOOLGOV__JSON_OBJECT = 7
};

typedef struct toolgov__json {
    unsigned char type;     /* TOOLGOV__JSON_* */
    unsigned char is_int;   /* number: no fraction and no exponent in the text */
    unsigned char plain;    /* string: its text had no escape, so its bytes
                            ** are their own canonical spelling (no byte
                            ** needs one); toolgov__json_put_plain writes it */
    uint32_t len;           /* string: bytes; number: text bytes; array:
                            ** elements; object: members */
    uint32_t end;           /* index one past this value's last node */
    uint32_t pos;           /* offset of the value's first byte in the text */
    union {
        const char *str;        /* string: unescaped bytes + NUL (arena);
                                ** number: its text (in the parsed text) */
        const uint32_t *sorted; /* object: indexes of its key nodes, in
                                ** byte order of the keys (arena) */
    } u;
} toolgov__json;

typedef struct toolgov__json_doc {
    const toolgov__json *nodes; /* nodes[0] is the root value */
    size_t count;
    const char *text;           /* the parsed text (borrowed) */
    size_t len;
} toolgov__json_doc;

typedef struct toolgov__json_error {
    const char *msg;   /* static, lowercase, e.g. "duplicate key" */
    size_t pos;        /* byte offset where the problem is */
    const char *key;   /* for "duplicate key": the key (arena), else NULL */
    size_t limit;      /* for a bound passed: the bound, in limit_unit */
    const char *limit_unit; /* static ("bytes", "levels of nesting"), or NULL */
} toolgov__json_error;

/* Default bounds for callers without their own. */
#define TOOLGOV__JSON_MAX_DEPTH 64
#define TOOLGOV__JSON_MAX_LEN ((size_t)1 << 24)

/* Flags of toolgov__json_parse. */
#define TOOLGOV__JSON_ALLOW_DUP 0x1u /* keep duplicate keys (lookup finds
                                     ** the last one) instead of refusing */

/* Parse `len` bytes of `text` as one JSON value (leading and trailing
** whitespace allowed). max_depth counts containers (a top-level array is
** depth 1); max_len bounds len (and may not exceed TOOLGOV__JSON_MAX_LEN);
** flags is 0 or TOOLGOV__JSON_ALLOW_DUP.
** 0: *out is filled. TOOLGOV_EINVAL: the text is not accepted, *err says
** where and why. TOOLGOV_ENOMEM. On failure the arena may hold partial
** data (reset it). */
int toolgov__json_parse(toolgov__json_doc *out, toolgov__json_error *err,
                        toolgov__scratch *a, const char *text, size_t len,
                        unsigned max_depth, size_t max_len, unsigned flags);

/* Index of the value of member `key` (klen bytes) in object node `obj`, or
** -1 (also when `obj` is not an object). O(log members). */
long toolgov__json_get(const toolgov__json_doc *doc, size_t obj,
                       const char *key, size_t klen);

/* 1 and *out when a number node is an integer written with at most 15
** digits and no fraction or exponent ("74", "-3": every JSON integer a call
** usually holds), exact both as an int64 and as a double, and its text is
** then already its canonical spelling as a double (-0 included); else 0.
** The fast path of the two conversions below. */
int toolgov__json_small_int(const toolgov__json *n, int64_t *out);

/* The value of a number node as an exact int64: 0, or TOOLGOV_EINVAL when
** the number is not an integer (2.5) or is outside int64 (1e400). 2.0,
** 20e-1 and -0 are integers. */
int toolgov__json_int64(const toolgov__json *n, int64_t *out);

/* 1 when a number node's value is an integer, whatever its size (2, 2.0,
** 1e400; not 2.5): JSON Schema's "integer" type. */
int toolgov__json_is_integral(const toolgov__json *n);

/* The value of a number node as a finite double (rounded to nearest):
** 0, or TOOLGOV_EINVAL when it overflows to infinity. Tiny values round to
** (signed) zero. */
int toolgov__json_double(const toolgov__json *n, double *out);

/* The value of member `key` (NUL-terminated) of node `obj`, or -1 when obj
** is -1 or not an object or has no such member: lookups chain without a
** check at each step. */
static inline long toolgov__json_member(const toolgov__json_doc *doc, long obj, const char *key)
{
    if (obj < 0 || doc->nodes[obj].type != TOOLGOV__JSON_OBJECT)
        return -1;
    return toolgov__json_get(doc, (size_t)obj, key, strlen(key));
}

/* 1 when node i (-1: none) is of `type`. */
static inline int toolgov__json_is(const toolgov__json_doc *doc, long i, int type)
{
    return i >= 0 && doc->nodes[i].type == type;
}

/* Compare two keys as unsigned bytes, a shorter prefix first. */
static inline int toolgov__json_keycmp(const char *a, size_t alen, const char *b,
                                       size_t blen)
{
    size_t n = alen < blen ? alen : blen, i;

    /* Keys are short: a byte loop beats a call to memcmp. */
    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
    return alen < blen ? -1 : alen > blen;
}

/* 1 when string node n holds exactly the len bytes at s. */
static inline int toolgov__json_str_eq(const toolgov__json *n, const char *s, size_t len)
{
    return n->type == TOOLGOV__JSON_STRING && n->len == len &&
           (len == 0 || (n->u.str[0] == s[0] && toolgov__json_keycmp(n->u.str, len, s, len) == 0));
}

/* 1 when node i (-1: none) is the string s (NUL-terminated). */
static inline int toolgov__json_str_is(const toolgov__json_doc *doc, long i, const char *s)
{
    return i >= 0 && toolgov__json_str_eq(&doc->nodes[i], s, strlen(s));
}

/* The text of string node i (-1: none), its length in *len (len may be
** NULL); NULL, and 0, when i is not a string. */
static inline const char *toolgov__json_str_at(const toolgov__json_doc *doc, long i, size_t *len)
{
    int ok = toolgov__json_is(doc, i, TOOLGOV__JSON_STRING);
    if (len)
        *len = ok ? doc->nodes[i].len : 0;
    return ok ? doc->nodes[i].u.str : NULL;
}

/* ---- canonical writer ---- */

/* Appenders of jsonwrite.h's canonical spellings (one writer for the
** runtime and the generator): a string (toolgov__json_str_write), an int64
** in decimal, a finite double in the shortest text that reads back to it
** (ECMAScript layout: 1e+21, 1.5e-7; -0 is "-0"). */
void toolgov__json_put_str(toolgov__jbuf *b, const char *s, size_t len);
/* A string node's canonical spelling: its bytes in quotes when it is plain,
** else as toolgov__json_put_str. In line, as the decoder writes a key and
** most values this way: a plain string is copied a word at a time (the
** reader leaves eight bytes of room after its string bytes, and the
** buffer is asked for eight more than it needs). */
static inline void toolgov__json_put_node_str(toolgov__jbuf *b, const toolgov__json *n)
{
    size_t i;
    char *o;

    if (!n->plain) {
        toolgov__json_put_str(b, n->u.str, n->len);
        return;
    }
    if (!toolgov__jbuf_room(b, (size_t)n->len + 2 + 8))
        return;
    o = b->ptr + b->len;
    o[0] = '"';
    for (i = 0; i < n->len; i += 8)
        memcpy(o + 1 + i, n->u.str + i, 8);
    o[n->len + 1] = '"';
    b->len += (size_t)n->len + 2;
}
void toolgov__json_put_int(toolgov__jbuf *b, int64_t v);
void toolgov__json_put_double(toolgov__jbuf *b, double v);
/* The canonical spelling of number node n, whose value is the double v
** (toolgov__json_double): the same bytes as toolgov__json_put_double(b, v),
** copied from the text when it already is that spelling ("74", "47.3769",
** "-0.25": plain decimals of at most 15 significant digits), so the usual
** number never goes through the printer. */
void toolgov__json_put_number_double(toolgov__jbuf *b, const toolgov__json *n, double v);
/* Node `i` and its descendants in canonical form: object members sorted
** by key bytes, no whitespace, strings as toolgov__json_put_str, number
** texts as sent. */
void toolgov__json_put_value(toolgov__jbuf *b, const toolgov__json_doc *doc,
                             size_t i);

#endif /* TOOLGOV_JSON_H */
